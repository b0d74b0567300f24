"""Start Debian's Chromium headless under Playwright, for the browser tests and the screenshots.

Playwright's own browser download cannot run here (and is not needed): `playwright` drives the
system's /usr/bin/chromium through `executable_path`. The flags keep Chromium from reaching out to
the network on its own (its background services would otherwise knock on a closed network at
every start) and let it run as root in CI. `make browser` installs the package.
"""

import shutil

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def launch(playwright, executable=None):
    """A headless Chromium browser (Playwright gives each context a fresh, empty profile)."""
    return playwright.chromium.launch(executable_path=executable or find_chromium(), headless=True, args=FLAGS)
