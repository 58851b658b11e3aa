#!/bin/sh
# A segment truncated under the processes that map it (anyone who can write
# the file can do it): the writer keeps recording in its own memory, says so
# once and exits normally; readers (recorder_scope -D, -l, --png) run
# against a truncate-and-regrow loop and none dies of a signal.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
scope="$build/recorder_scope"
work=$(mktemp -d)
pids=""
cleanup() {
    touch "$work/stop" 2>/dev/null || true
    for pid in $pids; do kill -9 "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
unset DISPLAY WAYLAND_DISPLAY
seg="$work/segment"
fail() { echo "check-share-truncate: $*"; exit 1; }

# Wait up to 10 s for a condition (a shell command), instead of sleeping.
wait_for() {
    deadline=$(($(date +%s) + 10))
    while ! eval "$1"; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $1"
        sleep 0.05
    done
}

# Wait until a reader can open the segment (the writer made it whole).
wait_segment() {
    for _ in $(seq 100); do
        "$scope" -S "$seg" -l >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    fail "no segment at $seg"
}

said="recorder: $seg was truncated under us; recording continues in private memory, no longer shared"

# --- a busy writer: truncated, it records on and still dumps ----------------
RECORDER_SHARE="$seg" RECORDER_TRACES=perfdata=bytes,loops \
    "$build/examples/perfdata" 1000 >"$work/busy.out" 2>"$work/busy.err" &
writer=$!
pids="$pids $writer"
wait_segment
truncate -s 0 "$seg"
wait_for "grep -qxF \"\$said\" '$work/busy.err'"
kill -USR1 "$writer" 2>/dev/null || true    # dump from its own memory
status=0
wait "$writer" || status=$?
[ "$status" -eq 0 ] || fail "the writer exited with $status: $(tail -3 "$work/busy.err")"
grep -q "perfdata: moved" "$work/busy.out" || fail "the writer did not finish"
[ "$(grep -cxF "$said" "$work/busy.err")" -eq 1 ] ||
    fail "not said exactly once: $(grep -v Transferred "$work/busy.err")"
sed -n "\|$said|,\$p" "$work/busy.err" |
    grep -q "perfdata: Transferred .* bytes in .* iterations" ||
    fail "no records dumped after the truncation"

# --- an idle writer: its command thread is the first to find out ----------
# (it wakes only during its first second, to publish calibration points)
rm -f "$seg" "$seg.prev"
RECORDER_SHARE="$seg" RECORDER_TRACES=feed=ramp, \
    "$build/tests/writers/scope_feeder" 0 0 1.5 >"$work/idle.out" 2>"$work/idle.err" &
writer=$!
pids="$pids $writer"
wait_segment
truncate -s 0 "$seg"
status=0
wait "$writer" || status=$?
[ "$status" -eq 0 ] || fail "the idle writer exited with $status"
[ "$(grep -cxF "$said" "$work/idle.err")" -eq 1 ] ||
    fail "idle writer: not said exactly once: $(cat "$work/idle.err")"

# --- readers against a truncate-and-regrow loop ------------------------------
# A segment left by a writer that exited; the loop truncates it, regrows
# it and writes its used part back, so readers keep finding a valid header
# and then lose the pages they read.
rm -f "$seg" "$seg.prev"
RECORDER_SHARE="$seg" RECORDER_TRACES=feed=ramp,wave,level \
    "$build/tests/writers/scope_feeder" 3000 0 0.01 >/dev/null 2>&1
cp "$seg" "$work/saved"
size=$(stat -c %s "$seg")
used=$(python3 -c 'import sys
data = open(sys.argv[1], "rb").read()
print(len(data.rstrip(bytes(1))) // 65536 + 1)' "$seg")
# Stopped by a file, not a signal: a killed subshell would leave its
# running dd to recreate the segment after the cleanup's rm.
(
    while [ ! -e "$work/stop" ]; do
        truncate -s 0 "$seg"
        sleep 0.002
        truncate -s "$size" "$seg"
        dd if="$work/saved" of="$seg" bs=64k count="$used" conv=notrunc \
            status=none
    done
) &
loop=$!                                 # not in pids: cleanup waits for it

deaths=""
opened=0
reader() {
    status=0
    "$scope" -S "$seg" "$@" >/dev/null 2>"$work/reader.err" || status=$?
    [ "$status" -gt 128 ] && deaths="$deaths
  $* : exit $status"
    [ "$status" -eq 0 ] && opened=$((opened + 1))
    return 0
}
for _ in $(seq 15); do
    reader -D
    reader -l
done
for _ in $(seq 8); do
    reader --png "$work/capture.png" --duration 0.05 ramp
done
touch "$work/stop"
wait "$loop"
[ -z "$deaths" ] || fail "readers died of a signal:$deaths"
[ "$opened" -gt 0 ] || fail "no reader ever opened the segment: the test tests nothing"

echo "truncated under a busy and an idle writer: they record on, say so once;"
echo "38 readers against a truncate-and-regrow loop ($opened read it): none died"
