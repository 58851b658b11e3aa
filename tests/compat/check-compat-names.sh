#!/bin/sh
# sanitized: skip
# A program written for recorder 1.2 (tests/compat/compat_names.c), built from the
# public headers alone as C (gnu99, as 1.2 programs were) and as C++, run:
# it checks what each 1.2 name recorder.h keeps does, and fails naming any
# difference.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-compat-names: $*"; exit 1; }

[ -e "$build/librecorder.so" ] ||
    (cd "$top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
         make -s BUILD="$build" "$build/librecorder.so" >/dev/null)

for compiler in "cc -std=gnu99" "c++ -x c++ -std=c++11"; do
    name=$(echo "$compiler" | cut -d' ' -f1)
    # shellcheck disable=SC2086
    $compiler -Wall -Wextra -Werror -I"$top/include" \
        "$top/tests/compat/compat_names.c" -o "$work/compat-$name" \
        -L"$build" -Wl,-rpath,"$build" -lrecorder -pthread \
        >"$work/build.log" 2>&1 ||
        { cat "$work/build.log"; fail "does not build with $compiler"; }
    "$work/compat-$name" "$work/segment-$name" >"$work/run.log" 2>&1 ||
        { cat "$work/run.log"; fail "built with $compiler, it failed"; }
    grep -q "^compat_names: 0 failures" "$work/run.log" ||
        { cat "$work/run.log"; fail "no result line ($compiler)"; }
done
echo "check-compat-names: 1.2 names behave, in C and C++"
