"""Where things are: the data the commands read, for a checkout and an installed wheel alike; the
tools installed beside this Python; and what to install when one is missing.

The data are the repository's folders cards_db/ (card data and schemas), hardware/ (table profiles,
pin maps, their schemas, the udev rule) and firmware/ (the sources `maester firmware build` compiles
and the simulated board runs). A checkout, and its editable install, reads them where they are. A
wheel carries them inside the package, in maester/data/ (setup.py copies what SHIPPED names), so
an installed maester needs no checkout. Either way they are found from this file's folder: for a
package on the file system that is what importlib.resources.files("maester") returns, and pip
always unpacks a wheel onto the file system (the package is not zip-safe). Importing
importlib.resources instead would add ~15 ms to every start.
"""

import shutil
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent  # maester/
# What a wheel carries, copied from the repository into maester/data/ by setup.py: folder -> the
# files under it, as glob patterns. Nothing else of those folders is read at run time (the
# rest is documentation, drawings and the tests' vectors).
SHIPPED = {
    "cards_db": ("*/*.json", "*/decks/*.txt"),  # each game's data, the schemas, the starter decks
    "hardware": ("profiles/*.json", "pins/*.json", "schema/*.json", "udev/*.rules"),
    "firmware": ("*.py", "maester_fw/*.py", "sim/*.py"),
}
INSTALLED = (PACKAGE / "data").is_dir()  # a wheel's install, not a checkout
ROOT = PACKAGE / "data" if INSTALLED else PACKAGE.parents[1]  # host/maester/paths.py -> the repository
CARDS_DB = ROOT / "cards_db"
FIRMWARE = ROOT / "firmware"
HARDWARE = ROOT / "hardware"


def missing(what, extra):
    """The one line saying that `what` is not installed and which of maester's extras brings it,
    with the command that installs it here (a checkout, a pipx install or a pip install)."""
    if not INSTALLED:
        how = "pip install -e '.[%s]'" % extra
    elif "pipx" in Path(sys.prefix).parts:
        how = "pipx install --force 'maester[%s]'" % extra
    else:
        how = "pip install 'maester[%s]'" % extra
    return "%s is not installed: it comes with maester's `%s` extra (%s)" % (what, extra, how)


def tool(name, extra):
    """The `name` executable of this venv (matching its packages), else one on PATH.

    Raises FileNotFoundError naming the extra that installs it when there is none.
    """
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if not found:
        raise FileNotFoundError(missing(name, extra))
    return found
