# `make demo` and `make test` each set up everything they need on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean browser
BROWSER_MARK := $(VENV)/browser-unavailable

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/maester demo

# The browser tests drive Debian's Chromium (CI runs as root on Debian). If it cannot be installed,
# a marker file makes those tests skip with a loud warning instead of failing for the wrong reason.
browser:
	@mkdir -p $(VENV) && rm -f $(BROWSER_MARK)
	@command -v chromium >/dev/null 2>&1 || \
	  (apt-get update -qq && apt-get install -y -qq chromium chromium-driver) >$(VENV)/browser-install.log 2>&1 || \
	  { echo "apt-get install chromium failed, see $(VENV)/browser-install.log" > $(BROWSER_MARK); \
	    echo "WARNING: Chromium could not be installed: the browser tests will be skipped"; }

test: $(STAMP) browser
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/maester bench engine --game btwixt

clean:
	rm -rf $(VENV) build *.egg-info host/*.egg-info
