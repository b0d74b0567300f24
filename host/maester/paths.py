"""Where things are: the repository's folders, and the tools installed beside this Python."""

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # host/maester/paths.py → the repository
FIRMWARE = ROOT / "firmware"
HARDWARE = ROOT / "hardware"


def tool(name, install_hint):
    """The `name` executable of this venv (matching its packages), else one on PATH.

    Raises FileNotFoundError with `install_hint` when there is none.
    """
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if not found:
        raise FileNotFoundError("%s is missing: %s" % (name, install_hint))
    return found
