# `make demo` and `make test` each set up everything they need on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean browser compiled
BROWSER_MARK := $(VENV)/browser-unavailable
# pyproject.toml's [build-system] requires, installed in the venv itself: the editable install,
# `maester build-fast` and the installed-product test's wheel (tests/test_installed.py) then all
# compile with one Cython, so each reuses the modules the others compiled from unchanged source.
BUILD_REQUIRES := 'setuptools>=77' 'Cython>=3'

# The editable install compiles the engine, bots and rules with Cython (setup.py) when a C compiler
# is there: a couple of minutes the first time; without one, the pure build.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip $(BUILD_REQUIRES)
	@echo "installing maester into $(VENV) (the first time, compiling its engine takes a few minutes)"
	$(BIN)/pip install --quiet --no-build-isolation -e '.[test,peers,cluster]'
	touch $(STAMP)

# The checkout's compiled build follows its source: the modules changed since are compiled again, and
# a line says so when this machine builds the pure build instead.
compiled: $(STAMP)
	@$(BIN)/maester build-fast

demo: compiled
	$(BIN)/maester demo

# The browser tests drive Debian's Chromium (CI runs as root on Debian). If it cannot be installed,
# a marker file makes those tests skip with a loud warning instead of failing for the wrong reason.
browser:
	@mkdir -p $(VENV) && rm -f $(BROWSER_MARK)
	@command -v chromium >/dev/null 2>&1 || \
	  (apt-get update -qq && apt-get install -y -qq chromium chromium-driver) >$(VENV)/browser-install.log 2>&1 || \
	  { echo "apt-get install chromium failed, see $(VENV)/browser-install.log" > $(BROWSER_MARK); \
	    echo "WARNING: Chromium could not be installed: the browser tests will be skipped"; }

# The firmware's type-check (tests/test_firmware_types.py) reads MicroPython's own stubs of each port
# it runs on. The two ports' stubs define the same modules, so each gets a folder of its own; the
# version is the MicroPython release the firmware targets (README: "Flash the firmware").
MICROPYTHON_STUBS := 1.29.0.post1
STUBS := $(VENV)/stubs/.installed-$(MICROPYTHON_STUBS)

$(STUBS): $(STAMP)
	rm -rf $(VENV)/stubs
	$(BIN)/pip install --quiet --target $(VENV)/stubs/rp2 micropython-rp2-stubs==$(MICROPYTHON_STUBS)
	$(BIN)/pip install --quiet --target $(VENV)/stubs/esp32 micropython-esp32-stubs==$(MICROPYTHON_STUBS)
	touch $@

# One pytest worker per core (pytest-xdist). worksteal: a worker that runs out of tests takes the
# not-yet-started half of the other's queue, so the minute-long tests (whole games through a board
# process, the web payload sweep) cannot leave one core idle at the end. `pytest path::test` alone
# stays single-process.
test: compiled $(STUBS) browser
	$(BIN)/python -m pytest -n auto --dist worksteal

bench: $(STAMP)
	$(BIN)/maester bench engine --game btwixt

clean:
	rm -rf $(VENV) build dist *.egg-info host/*.egg-info host/maester/_compiled*
