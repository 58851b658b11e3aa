#!/bin/sh
# sanitized: skip  (links its program against the plain library)
# Linked the 1.2 way: a program built with only -lrecorder -lpthread -lm
# links and runs, against the shared library and against the static
# archive, and its crash report has a symbolized backtrace. libunwind and
# libdw are opened at run time: the shared library does not need them, and
# where they are hidden (a private mount namespace, as root) the program
# still runs and crashes with a report: glibc's unwinder walks the stack
# without libunwind, frames stay module and offset without libdw.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-link-12: $*"; exit 1; }
unset RECORDER_TRACES RECORDER_TWEAKS RECORDER_SHARE RECORDER_DUMP \
      RECORDER_SYMBOLIZE || true
ulimit -c 0
source="$top/tests/compat/link_12.c"
crash_line=$(grep -n '\*nowhere = value;' "$source" | cut -d: -f1)

# The shared library asks for nothing more than libc (and what -pthread
# may add): no libunwind, no libdw.
needed=$(objdump -p "$build/librecorder.so" | awk '/NEEDED/ { print $2 }')
case $needed in
    *unwind*|*libdw*|*libelf*) fail "librecorder.so needs: $needed" ;;
esac

# Exactly the 1.2 link line; the static archive alone in its directory, so
# that -lrecorder finds it.
mkdir "$work/static"
cp "$build/librecorder.a" "$work/static/"
cd "$work"
cc -g -I"$top/include" "$source" -o shared_12 -L"$build" \
    -lrecorder -lpthread -lm 2>link.err || fail "shared: $(cat link.err)"
cc -g -I"$top/include" "$source" -o static_12 -L"$work/static" \
    -lrecorder -lpthread -lm 2>link.err || fail "static: $(cat link.err)"
! ldd static_12 | grep -q librecorder || fail "static_12 uses the shared library"

runs() {    # runs PROGRAM ARG: status in $status, stdout+stderr in out
    status=0
    if [ "$1" = shared_12 ]; then
        LD_LIBRARY_PATH="$build" timeout 20 "./$1" $2 >out 2>&1 || status=$?
    else
        # Nothing next to it: say where the helper is.
        RECORDER_SYMBOLIZE="$build/recorder_symbolize" \
            timeout 20 "./$1" $2 >out 2>&1 || status=$?
    fi
}

for program in shared_12 static_12; do
    runs "$program" ""
    [ "$status" = 0 ] || fail "$program: status $status: $(cat out)"
    grep -q "link_test: Square root of 2 is 1.414214" out ||
        fail "$program: no records: $(cat out)"
    grep -qx "linked the 1.2 way: ok" out || fail "$program: $(cat out)"

    runs "$program" crash
    [ "$status" = 139 ] || fail "$program crash: status $status: $(cat out)"
    grep -q "link_test: About to store 42 through a null pointer" out ||
        fail "$program crash: no dump: $(cat out)"
    grep -q "^0/[0-9]* $program @ .* Crashed at file \".*link_12.c\", line $crash_line, in crash_here\$" out ||
        fail "$program crash: no symbolized frame 0: $(cat out)"
    grep -q "^[0-9]*/[0-9]* $program @ .* Called from file \".*link_12.c\", line [0-9]*, in main\$" out ||
        fail "$program crash: no main frame: $(cat out)"
done

# The same with libunwind, then libdw too, hidden from the process.
hidden() {  # hidden "SONAMES" PROGRAM ARG
    sonames=$1
    shift
    script="set -e"
    for soname in $sonames; do
        file=$(ldconfig -p | awk -v s="$soname" '$1 == s { print $NF; exit }')
        [ -n "$file" ] || return 2
        script="$script; mount --bind /dev/null '$(readlink -f "$file")'"
    done
    if [ "$1" = shared_12 ]; then
        export LD_LIBRARY_PATH="$build"
    else
        export RECORDER_SYMBOLIZE="$build/recorder_symbolize"
    fi
    status=0
    timeout 20 unshare -m sh -c "$script; exec ./$1 $2" >out 2>&1 || status=$?
    unset LD_LIBRARY_PATH RECORDER_SYMBOLIZE
}
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
    echo "check-link-12: SKIP the runs without libunwind and libdw (needs root and unshare)"
else
    for program in shared_12 static_12; do
        hidden "libunwind.so.8" "$program" crash ||
            fail "libunwind.so.8 not found by ldconfig"
        [ "$status" = 139 ] || fail "$program without libunwind: status $status: $(cat out)"
        grep -q "link_test: About to store 42" out ||
            fail "$program without libunwind: no dump: $(cat out)"
        grep -q "recorder: No libunwind.so.8: crash stacks are walked by glibc's backtrace()" out ||
            fail "$program without libunwind: libunwind was not hidden: $(cat out)"
        grep -q "^0/[0-9]* $program @ .* Crashed at file \".*link_12.c\", line $crash_line, in crash_here\$" out ||
            fail "$program without libunwind: frame 0: $(cat out)"
        grep -q "Called from file \".*link_12.c\", line [0-9]*, in main\$" out ||
            fail "$program without libunwind: no main frame: $(cat out)"

        hidden "libunwind.so.8 libdw.so.1" "$program" crash ||
            fail "libdw.so.1 not found by ldconfig"
        [ "$status" = 139 ] || fail "$program without both: status $status: $(cat out)"
        grep -q "link_test: About to store 42" out ||
            fail "$program without both: no dump: $(cat out)"
        grep -q "^0/[0-9]* $program @ .* Crashed at module \"$program\", offset 0x" out ||
            fail "$program without both: raw frame 0: $(cat out)"
    done
fi
echo "linked the 1.2 way (-lrecorder -lpthread -lm), shared and static: runs, crash reports with and without libunwind and libdw: ok"
