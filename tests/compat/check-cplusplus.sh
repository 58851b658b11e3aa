#!/bin/sh
# sanitized: skip
# The C++ programs tests/compat/cplusplus_*.cpp, built as a C++ user would (public
# headers only, -Wall -Wextra -Werror) with g++ and clang++ in C++11, C++17
# and C++20, and run: each checks its own output and exits non-zero on a
# difference. A compiler that is not installed is skipped with a note.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-cplusplus: $*"; exit 1; }

[ -e "$build/librecorder.so" ] ||
    (cd "$top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
         make -s BUILD="$build" "$build/librecorder.so" >/dev/null)

# Each program: its name, then its files, the first one holding main().
programs="cplusplus_headers cplusplus_headers.cpp
cplusplus_sites cplusplus_sites.cpp cplusplus_sites_more.cpp
cplusplus_args cplusplus_args.cpp"

# Build and run every program with one compiler and standard; the log of
# the first failure is left in $work/FLAVOUR.failed.
flavour() {
    compiler=$1
    standard=$2
    log="$work/$compiler-$standard"
    echo "$programs" | while read -r name files; do
        exe="$work/$name-$compiler-$standard"
        sources=""
        for file in $files; do sources="$sources $top/tests/compat/$file"; done
        # shellcheck disable=SC2086
        if ! "$compiler" -std="$standard" -Wall -Wextra -Werror \
               -I"$top/include" $sources -o "$exe" -L"$build" \
               -Wl,-rpath,"$build" -lrecorder -pthread >"$log.out" 2>&1; then
            { echo "$name does not build with $compiler -std=$standard:"
              cat "$log.out"; } >"$log.failed"
            return
        fi
        if ! (cd "$work" && "$exe" "$work/segment-$name-$compiler-$standard") \
               >"$log.out" 2>&1; then
            { echo "$name failed, built with $compiler -std=$standard:"
              cat "$log.out"; } >"$log.failed"
            return
        fi
    done
}

flavours=0
for compiler in g++ clang++; do
    if ! command -v "$compiler" >/dev/null 2>&1; then
        echo "check-cplusplus: $compiler not installed, skipped"
        continue
    fi
    for standard in c++11 c++17 c++20; do
        flavour "$compiler" "$standard" &
        flavours=$((flavours + 1))
    done
    wait
done
[ "$flavours" -gt 0 ] || fail "no C++ compiler"
for failed in "$work"/*.failed; do
    [ -e "$failed" ] || continue
    cat "$failed"
    fail "$(head -n 1 "$failed")"
done
echo "check-cplusplus: 3 programs built and passed $flavours ways"
