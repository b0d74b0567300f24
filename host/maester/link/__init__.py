"""Host side of the table link: find the board, keep a reliable session with it over USB serial.

`BoardLink` (in `serial_link`) delivers taps exactly once, restores the LEDs after a reconnect or
a reboot, and reports the link's health. Notes: LINK.md in this directory.
"""

from .serial_link import (  # noqa: F401
    KNOWN_USB_IDS,
    PLACED,
    REMOVED,
    BoardLink,
    BoardPort,
    LinkStatus,
    ReaderState,
    Snapshot,
    StatusEvent,
    Tap,
    find_boards,
)
