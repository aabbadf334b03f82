#!/usr/bin/env bash
# Installs what the browser tests (tests/web) need; safe to run again (each step is skipped
# when already done). Needs root for apt-get (CI runs as root).
#
#   - Debian's Chromium and a font (Playwright's own browser download does not work here);
#   - the Playwright Python package into the project's virtual environment;
#   - axe-core (accessibility rules) from npm into a cache folder outside the repository:
#     fetched code is never committed; the tests read it from $FELTRO_AXE_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV_PY="${VENV_PY:-.venv/bin/python}"
AXE_DIR="${FELTRO_AXE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/feltro-web}"
AXE_VERSION="${FELTRO_AXE_VERSION:-4.14.1}"

if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi dejavu; then
  export DEBIAN_FRONTEND=noninteractive
  if [ "$(id -u)" = 0 ]; then
    SUDO=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "ci-browser-setup: Debian's chromium is missing and this user cannot install it;" \
         "the browser tests will be skipped (apt-get install chromium fonts-dejavu-core)" >&2
    exit 0
  fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

if [ ! -x "$VENV_PY" ]; then
  echo "ci-browser-setup: no $VENV_PY yet: run 'make .venv/bin/.installed' first" >&2
  exit 1
fi
if ! "$VENV_PY" -c "import playwright" >/dev/null 2>&1; then
  "$VENV_PY" -m pip install --quiet "playwright>=1.45"
fi

if [ ! -f "$AXE_DIR/node_modules/axe-core/axe.min.js" ]; then
  if command -v npm >/dev/null 2>&1; then
    mkdir -p "$AXE_DIR"
    npm install --silent --no-audit --no-fund --prefix "$AXE_DIR" "axe-core@$AXE_VERSION" >/dev/null
  else
    echo "ci-browser-setup: npm is missing; the accessibility test will fail" >&2
  fi
fi

echo "ci-browser-setup: chromium $(chromium --version 2>/dev/null | awk '{print $2}'), axe-core in $AXE_DIR"
