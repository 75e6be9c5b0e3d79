#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked, throw-away
# GNOME Keyring, so keychain tests use a real Secret Service and never touch
# the user's own keyring. Sets CAPACITY_DESK_KEYCHAIN=required for the tests.
set -euo pipefail

if [ "$(uname -s)" != "Linux" ]; then
  # macOS Keychain and Windows Credential Manager need no helper process.
  CAPACITY_DESK_KEYCHAIN=required exec "$@"
fi

for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keychain: $tool is missing; install gnome-keyring and dbus (bash scripts/setup.sh does)." >&2
    exit 1
  fi
done

runtime_dir=$(mktemp -d)
data_dir=$(mktemp -d)
chmod 700 "$runtime_dir"
trap 'rm -rf "$runtime_dir" "$data_dir"' EXIT
export XDG_RUNTIME_DIR="$runtime_dir" XDG_DATA_HOME="$data_dir" CAPACITY_DESK_KEYCHAIN=required

# The keyring password only protects this throw-away keyring.
dbus-run-session -- bash -c '
  # The daemon stays behind: its output goes to a file, so it holds no pipe of the caller open after the command ends.
  log="$XDG_RUNTIME_DIR/keyring-daemon.log"
  if ! printf "%s" "throwaway-test-keyring" | gnome-keyring-daemon --unlock --components=secrets >"$log" 2>&1; then
    grep -v "Failed to set fd limit" "$log" >&2 || true
    echo "with-keychain: the throw-away keyring could not be started" >&2
    exit 1
  fi
  exec "$@"
' with-keychain "$@" 2> >(grep -v "Failed to set fd limit" >&2)
