"""Status codes every reader driver returns, and the presence state machine understands.

NO_CARD is a clean timeout: the only result that counts as a miss. Everything else is an error
(noise, collision, a broken frame) and says nothing about whether a card is there.
"""

try:
    from micropython import const
except ImportError:  # CPython
    from .cpython import const

OK = const(0)
NO_CARD = const(1)
ERR_COLLISION = const(2)
ERR_CRC = const(3)
ERR_PARITY = const(4)
ERR_PROTOCOL = const(5)
ERR_OVERFLOW = const(6)
ERR_NAK = const(7)
ERR_HW = const(8)
