#!/bin/sh
# sanitized: skip
# Many processes on one machine, as dozens of QEMUs each with its own
# segment: 40 QEMU-shaped programs (1 500 recorders of 8 slots, two of them
# recording and exported) share at once in segments of their own
# (RECORDER_SHARE with %p). All their segments together hold at most 40 MB
# of blocks (each had 11 MB), and recorder_scope -L lists all 40 live
# within a second.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-share-many

program="$build/tests/writers/qemu_shaped"
[ -x "$program" ] || fail "no $program (make tests builds it)"
processes=40

mkdir "$work/segments"
n=0
while [ $n -lt $processes ]; do
    RECORDER_SHARE="$work/segments/qemu.%p" \
    RECORDER_TRACES='^event_0$=a,:^event_1$=b,' \
        "$program" 2 -1 >"$work/out.$n" 2>"$work/err.$n" &
    pids="$pids $!"
    n=$((n + 1))
done
wait_for '[ "$(cat "$work"/out.* | grep -c ready)" -eq $processes ]' 60

total=0
for segment in "$work"/segments/qemu.*; do
    total=$((total + $(stat -c %b "$segment") * 512))
done
[ "$total" -le 40000000 ] ||
    fail "$processes processes: $total bytes of blocks in their segments, above 40 MB"

start=$(date +%s%N)
"$scope" -L "$work/segments/qemu.*" >"$work/list" 2>"$work/list.err" ||
    fail "recorder_scope -L: $(cat "$work/list.err")"
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
live=$(grep -c "	qemu_shaped	.*	live	" "$work/list" || true)
[ "$live" -eq $processes ] ||
    fail "recorder_scope -L listed $live live of $processes: $(cat "$work/list")"
[ "$took_ms" -le 1000 ] || fail "recorder_scope -L took $took_ms ms, above 1 s"

# SIGKILL: on SIGTERM each would dump its recorders first.
# shellcheck disable=SC2086
kill -9 $pids
wait 2>/dev/null || true
pids=""

echo "check-share-many: $processes QEMU-shaped processes:" \
     "$((total / 1024)) KiB of segments in all; -L listed them in $took_ms ms"
