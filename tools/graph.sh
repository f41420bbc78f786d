#!/bin/sh
# Writes the schedule graphs of examples/physics_plugin.c: build/<schedule>.dot for each of its
# schedules, and build/<schedule>.svg next to it when Graphviz's `dot` is installed (Debian
# package graphviz). Run it from anywhere; CC picks the compiler (default cc).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
cc=${CC:-cc}
mkdir -p "$build"

# shellcheck disable=SC2046
"$cc" -std=c99 -O2 -Wall -Wextra -Wpedantic -I"$root" $(pkg-config --cflags stb) \
    "$root/examples/physics_plugin.c" $(pkg-config --libs stb) -o "$build/physics_plugin"
"$build/physics_plugin" --dot "$build" >"$build/physics_plugin.out"

# the program prints "wrote <path>" for each file it writes
dots=$(sed -n 's/^wrote //p' "$build/physics_plugin.out")
[ -n "$dots" ] || { echo "physics_plugin wrote no .dot file" >&2; exit 1; }

if command -v dot >/dev/null 2>&1; then
    for f in $dots; do
        dot -Tsvg "$f" -o "${f%.dot}.svg"
        echo "wrote $f and ${f%.dot}.svg"
    done
else
    for f in $dots; do echo "wrote $f"; done
    echo "Graphviz's dot is not installed, so no SVG was made (apt-get install graphviz)"
fi
