# Two entry points: `make play` (the main job) and `make test` (exactly what CI runs: .ci/run).
# Each creates a local virtual environment in .venv on first use. `make play` installs only what
# the game needs (the `tui` extra); `make test` adds the rest (dev tools, server, browsers).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test lint browsers proxy bench clean

$(BIN)/.installed-play: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[tui]'
	touch $@

$(BIN)/.installed: $(BIN)/.installed-play
	$(BIN)/python -m pip install --quiet -e '.[dev,cli,tui,server]'
	touch $@

play: $(BIN)/.installed-play
	$(BIN)/feltro play

lint: $(BIN)/.installed
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict

# Browser tests need Debian's Chromium and axe-core: the script installs what is missing
# (as root, as CI runs) or says why the browser tests will be skipped.
browsers: $(BIN)/.installed
	bash scripts/ci-browser-setup.sh

# The remote-play test puts a real reverse proxy (Debian's nginx) in front of the server.
proxy:
	bash scripts/ci-proxy-setup.sh

test: lint browsers proxy
	$(BIN)/pytest -q

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
