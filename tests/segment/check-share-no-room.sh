#!/bin/sh
# No room for the segment: a file size limit ('ulimit -f') below its size,
# or a file system without room for its header, command ring, clock and
# crash region. The program runs without sharing, says why once, leaves no
# file behind (under ulimit -f it used to die of SIGXFSZ at start, exit
# 153, leaving an empty file). And a file system that fills while the
# segment does: the program shares what fits, says once that the rest
# stays in its own memory, records on and dumps all of it, no SIGBUS.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "check-share-no-room: $*"; exit 1; }

# Run perfdata sharing in directory $1 (limits set by the caller); check it
# ran, said "$2" once, and left nothing in $1.
check_run() {
    [ "$status" -eq 0 ] || fail "$3: exit status $status: $(cat "$work/err")"
    grep -q "perfdata: moved" "$work/out" || fail "$3: the program did not finish"
    [ "$(grep -c "^recorder: not sharing: .*$2" "$work/err")" -eq 1 ] ||
        fail "$3: not said once: $(cat "$work/err")"
    [ -z "$(ls -A "$1")" ] || fail "$3: left behind: $(ls -A "$1")"
}

mkdir "$work/limited"
status=0
(
    ulimit -f 2048                      # 1 or 2 MiB (512 or 1024-byte units)
    RECORDER_SHARE="$work/limited/segment" RECORDER_TRACES=perfdata=bytes,loops \
        exec "$build/examples/perfdata" 50
) >"$work/out" 2>"$work/err" || status=$?
check_run "$work/limited" "file size limit (ulimit -f)" "ulimit -f"

# A full file system: a 64 KiB tmpfs, in a mount namespace of its own (it
# goes away with the process).
mkdir "$work/full"
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
    echo "SKIP: full file system (needs root and unshare -m)"
    echo "no room for the segment (ulimit -f): runs without sharing, says"
    echo "why once, leaves no file: ok"
    exit 0
fi
status=0
unshare -m sh -c '
    mount -t tmpfs -o size=64k none "$1" || exit 99
    RECORDER_SHARE="$1/segment" RECORDER_TRACES=perfdata=bytes,loops \
        "$2/examples/perfdata" 50
    status=$?
    ls -A "$1" >"$3/left"
    exit $status' sh "$work/full" "$build" "$work" \
    >"$work/out" 2>"$work/err" || status=$?
[ "$status" -ne 99 ] || fail "cannot mount a tmpfs: $(cat "$work/err")"
[ ! -s "$work/left" ] || fail "full: left behind: $(cat "$work/left")"
check_run "$work/full" "cannot reserve .*No space left on device" "full"

# Filling up: a 2 MiB tmpfs holds the segment's tables and some of the
# rings of a QEMU-shaped program whose 1 500 recorders all record (3.4 MiB
# of rings), two of them exported. Run $1: "dump" dumps its own recorders
# before it exits, "at-once" exits as soon as it has recorded (the rings
# the command thread had not placed yet are placed at exit, which then
# finds the file system full). Sets $kept, the records in the segment.
program="$build/tests/writers/qemu_shaped"
[ -x "$program" ] || fail "no $program (make tests builds it)"
fill_up() {
    rm -rf "$work/filling"
    mkdir "$work/filling"
    status=0
    unshare -m sh -c '
        mount -t tmpfs -o size=2m none "$1" || exit 99
        RECORDER_SHARE="$1/segment" RECORDER_TRACES="^event_0\$=a,:^event_1\$=b," \
            "$2" 1500 0 $5 >"$3/filling.out" 2>"$3/filling.err"
        status=$?
        "$4" -l -S "$1/segment" >"$3/filling.list" 2>&1
        "$4" -D -S "$1/segment" >"$3/filling.dump" 2>&1
        exit $status' sh "$work/filling" "$program" "$work" \
        "$build/recorder_scope" "$([ "$1" = dump ] && echo dump)" \
        >"$work/out" 2>"$work/err" || status=$?
    [ "$status" -ne 99 ] || fail "cannot mount a tmpfs: $(cat "$work/err")"
    [ "$status" -eq 0 ] ||
        fail "filling, $1: exit status $status (SIGBUS is 135): $(grep -v '^\[' "$work/filling.err")"
    [ "$1" != dump ] || grep -qx "dumped 1500" "$work/filling.out" ||
        fail "filling: its own dump: $(cat "$work/filling.out")"
    [ "$(grep -c "^recorder: no room for .*segment: No space left on device" \
            "$work/filling.err")" -eq 1 ] ||
        fail "filling, $1: not said once: $(grep -v '^\[' "$work/filling.err")"
    ! grep -q "truncated\|private memory, no longer shared" "$work/filling.err" ||
        fail "filling, $1: the segment was given up: $(grep -v '^\[' "$work/filling.err")"
    listed=$(grep -c "Tracepoint event_" "$work/filling.list" || true)
    [ "$listed" -eq 1500 ] || fail "filling, $1: $listed recorders listed, not 1500"
    kept=$(grep -c "event_\([0-9]*\): event_\1 value \1\$" "$work/filling.dump" || true)
    [ "$kept" -gt 0 ] && [ "$kept" -lt 1500 ] ||
        fail "filling, $1: $kept records of the 1500 in the segment: $(head -5 "$work/filling.dump")"
}
for run in 1 2 3 4 5; do
    fill_up at-once
done
fill_up dump
echo "no room for the segment (ulimit -f, full file system): runs without"
echo "sharing, says why once, leaves no file; a file system filling up: the"
echo "segment holds $kept rings, the other recorders record in process memory,"
echo "said once, whether the program dumps first or exits at once; no SIGBUS: ok"
