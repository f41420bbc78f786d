#!/bin/sh
# What building, testing and benchmarking need, and installing what is missing.
#
#   sh tools/install_deps.sh [test|example|coverage]     (default: test)
#
# On Debian (apt-get and dpkg present) it installs the missing packages with apt-get, without
# questions: as root, or through sudo; otherwise it prints the command to run. Elsewhere it
# installs nothing: it checks for the tools themselves and prints what is missing, what each is
# for and the Debian package that has it, to be found in the system's own package manager;
# `example` checks only what `make example` needs, `coverage` what `make coverage` adds to the
# test set. It exits 1 when something is missing.
set -eu

goal=${1:-test}
case $goal in
    test | example | coverage) ;;
    *) echo "usage: $0 [test|example|coverage]" >&2; exit 2 ;;
esac

# The Debian packages, what each is for, and whether `make example` needs it too (`coverage`:
# only `make coverage` needs it).
#   package          example  what it is for
requirements='
build-essential   yes  gcc (with its AddressSanitizer and UBSan runtimes), make, the C library headers
make              yes  runs the Makefile
pkg-config        yes  gives the compiler flags of stb (pkg-config --cflags stb)
libstb-dev        yes  stb_ds.h and libstb, which ecs_sched.h uses for its arrays and maps
libcjson-dev      yes  cJSON, for the JSON files (ECS_SCHED_JSON): the prefabs example and the tests
python3           no   regenerates ecs_sched.h from src/ and checks its documentation block
clang             no   the second compiler of every test and example
libclang-rt-dev   no   clang'"'"'s sanitizer runtimes (AddressSanitizer, UndefinedBehaviorSanitizer, ThreadSanitizer)
libtsan2          no   gcc'"'"'s ThreadSanitizer runtime, for the threaded tests
libcmocka-dev     no   cmocka, the unit tests'"'"' framework
tcc               no   the Tiny C Compiler: every example must build with it too
libluajit-5.1-dev yes  LuaJIT 2.1: the scripted example'"'"'s Lua, and one of the two flavours the Lua driver'"'"'s tests (ECS_SCHED_LUA) build against
liblua5.4-dev     no   Lua 5.4, the other flavour the Lua driver'"'"'s tests build against
libmicrohttpd-dev no   libmicrohttpd, the HTTP server of the remote protocol (ECS_SCHED_REMOTE) and its tests
chromium          no   the browser (headless) in which make browser-test opens the explorer page
nodejs            no   runs the explorer page'"'"'s browser test (node --test)
npm               no   installs puppeteer-core, which drives Chromium in that test, into build/browser
lcov              coverage  reports the lines and branches of the implementation the unit tests run (make coverage)
'

# Whether package $1 is needed for the goal.
needed() {
    printf '%s\n' "$requirements" | awk -v p="$1" -v goal="$goal" '$1 == p {
        if (goal == "test") exit ($2 == "coverage" ? 1 : 0)
        if (goal == "coverage") exit ($2 == "coverage" ? 0 : 1)
        exit ($2 == "yes" ? 0 : 1) }'
}

# What package $1 is for.
purpose() {
    printf '%s\n' "$requirements" | awk -v p="$1" '$1 == p { $1 = ""; $2 = ""; sub(/^ +/, ""); print }'
}

packages=$(printf '%s\n' "$requirements" | awk 'NF { print $1 }')

# Prints each package of $@ with what it is for.
describe() {
    for p in "$@"; do
        printf '  %-16s %s\n' "$p" "$(purpose "$p")"
    done
}

# ---- Debian: ask dpkg, install with apt-get ----

if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    missing=""
    for p in $packages; do
        needed "$p" || continue
        # (a Node.js package of its own may bring npm: its command is enough)
        [ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing="$missing $p"
    done
    [ -z "$missing" ] && exit 0

    echo "missing Debian packages:"
    # shellcheck disable=SC2086
    describe $missing
    if [ "$(id -u)" -eq 0 ]; then
        as_root=""
    elif command -v sudo >/dev/null 2>&1; then
        as_root="sudo"
    else
        echo "install them as root:" >&2
        echo "  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
        exit 1
    fi
    echo "installing them with apt-get${as_root:+ (through sudo)}"
    # sudo resets the environment: the variable goes through env.
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    # shellcheck disable=SC2086
    $as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends $missing
    exit 0
fi

# ---- elsewhere: look for the tools themselves, install nothing ----

probe_dir=$(mktemp -d "${TMPDIR:-/tmp}/ecs_sched_deps.XXXXXX")
trap 'rm -rf "$probe_dir"' EXIT
printf 'int main(void) { return 0; }\n' >"$probe_dir/empty.c"
printf '%s\n' '#include <stdarg.h>' '#include <stddef.h>' '#include <stdint.h>' \
    '#include <setjmp.h>' '#include <cmocka.h>' \
    'int main(void) { return 0; }' >"$probe_dir/cmocka.c"

has() { command -v "$1" >/dev/null 2>&1; }

# Whether compiler $1 builds and links the probe $2 with the flags that follow.
builds() {
    cc=$1
    src=$2
    shift 2
    has "$cc" && "$cc" "$@" "$probe_dir/$src" -o "$probe_dir/a.out" >/dev/null 2>&1
}

# Whether what package $1 brings is there.
present() {
    case $1 in
        build-essential)
            has gcc && has make && builds gcc empty.c &&
                { [ "$goal" = example ] || builds gcc empty.c -fsanitize=address,undefined; } ;;
        make) has make ;;
        pkg-config) has pkg-config ;;
        libstb-dev) has pkg-config && pkg-config --exists stb ;;
        libcjson-dev)
            printf '#include <cjson/cJSON.h>\nint main(void) { cJSON_Delete(cJSON_CreateNull()); return 0; }\n' \
                >"$probe_dir/cjson.c" && builds cc cjson.c -lcjson ;;
        python3) has python3 ;;
        clang) has clang ;;
        libclang-rt-dev)
            ! has clang || { builds clang empty.c -fsanitize=address,undefined &&
                             builds clang empty.c -fsanitize=thread; } ;;
        libtsan2) ! has gcc || builds gcc empty.c -fsanitize=thread ;;
        libcmocka-dev) builds cc cmocka.c -lcmocka || builds gcc cmocka.c -lcmocka ;;
        tcc) has tcc ;;
        libluajit-5.1-dev) has pkg-config && pkg-config --exists luajit ;;
        liblua5.4-dev) has pkg-config && pkg-config --exists lua5.4 ;;
        libmicrohttpd-dev) has pkg-config && pkg-config --exists libmicrohttpd ;;
        chromium) has chromium || has chromium-browser ;;
        nodejs) has node ;;
        npm) has npm ;;
        lcov) has lcov && has genhtml ;;
    esac
}

missing=""
for p in $packages; do
    needed "$p" || continue
    present "$p" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "not found (this is not Debian: nothing is installed automatically):" >&2
# shellcheck disable=SC2086
describe $missing >&2
echo "install them with the system's package manager; the names above are Debian's," >&2
echo "where it would be: apt-get install -y --no-install-recommends$missing" >&2
exit 1
