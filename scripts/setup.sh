#!/usr/bin/env bash
# Installs what a fresh machine lacks, then the project's npm packages.
# On Debian/Ubuntu: Chromium (the browser host and the UI tests), libsecret
# (to build keytar), GNOME Keyring and D-Bus (a real keychain for the tests),
# Xvfb (headed Electron tests), poppler (the quote tests read PDFs back) and
# two CJK fonts (a quote draws such names with the OS's). Elsewhere it only runs
# npm ci. Then it fetches the Electron binary where it can be had (npm does not run Electron's
# install.js here); where it cannot, it says so and npm start uses the browser host.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(chromium libsecret-1-dev pkg-config gnome-keyring dbus xvfb xauth poppler-utils fonts-wqy-microhei fonts-droid-fallback)

if [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null 2>&1; then
  missing=()
  for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

echo "setup: npm ci"
npm ci --no-audit --no-fund --loglevel=error

npx --no-install tsx scripts/get-electron.ts || echo "setup: Electron binary step failed; npm start will use the browser host"
