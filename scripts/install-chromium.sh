#!/usr/bin/env bash
# Installs Debian's chromium when /usr/bin/chromium is missing and prints
# its path. The browser tests (internal/testbrowser and the packages that
# use it) drive it headless with chromedp; they skip when it is absent, so
# make test installs it to make sure CI runs them. Output other than the
# path goes to stderr, so callers can capture the path with $(...).
set -euo pipefail

bin=/usr/bin/chromium
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi

echo "==> installing Chromium (apt-get install -y chromium)" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo=sudo
fi
$sudo apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >&2
if [ ! -x "$bin" ]; then
  echo "install-chromium: apt-get installed chromium but $bin is missing" >&2
  exit 1
fi
echo "$bin"
