#!/usr/bin/env bash
# Installs the reverse proxy the remote-play test puts in front of `feltro serve`
# (tests/server/test_remote_proxy.py): Debian's nginx. Safe to run again; needs root for
# apt-get (CI runs as root). Without it the proxy test is skipped and says why.
set -euo pipefail

if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ci-proxy-setup: nginx is missing and this user cannot install it; the reverse" \
       "proxy test will be skipped (apt-get install nginx-light)" >&2
  exit 0
fi
$SUDO apt-get update -qq
# nginx-light: the proxy, TLS and websockets, without the extra modules.
$SUDO apt-get install -y -qq --no-install-recommends nginx-light >/dev/null \
  || $SUDO apt-get install -y -qq --no-install-recommends nginx >/dev/null
# The package may start a system-wide nginx on port 80; the test runs its own.
if command -v systemctl >/dev/null 2>&1; then
  $SUDO systemctl disable --now nginx >/dev/null 2>&1 || true
fi
