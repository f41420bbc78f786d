#!/bin/sh
# Installs what building, testing and benchmarking need, when it is missing (Debian).
# Run as root (or with sudo available); otherwise it prints the command to run.
set -eu

packages="build-essential libtsan2 clang libclang-rt-14-dev make python3 pkg-config libstb-dev libcmocka-dev"

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "missing Debian packages:$missing" >&2
    echo "run as root: apt-get install -y$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
