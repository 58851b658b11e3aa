#!/bin/sh
# sanitized: skip
# Segment memory follows what a program uses, not what it declares: a
# QEMU-shaped program (1 500 recorders of 8 slots) whose segment holds
# every recorder's entry, and rings only for those that recorded or are
# exported. With two of them recording and exported, the segment's file
# has at most 1 MB of blocks (it had 11 MB, all of it reserved); with all
# 1 500 recording, at most the rings they record into plus 10 %. After a
# kill -9, the post-mortem dump holds every recorder that recorded.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-share-memory

program="$build/tests/writers/qemu_shaped"
[ -x "$program" ] || fail "no $program (make tests builds it)"
exports='^event_0$=a,:^event_1$=b,'

# Bytes of blocks the file has (reserved or written), not its size.
blocks() { echo $(( $(stat -c %b "$1") * 512 )); }

# Start the program recording into the first $2 recorders, sharing in
# segment $1 (more settings in the environment); returns once it is ready.
start() {
    RECORDER_SHARE="$work/$1" "$program" "$2" -1 >"$work/$1.out" \
        2>"$work/$1.err" &
    pid=$!
    pids="$pids $pid"
    wait_for "grep -q ready '$work/$1.out'"
}

# --- two recording and exported ------------------------------------------
RECORDER_TRACES=$exports start two 2
used=$(blocks "$work/two")
[ "$used" -le 1000000 ] ||
    fail "2 of 1500 recording: $used bytes of blocks in the segment, not at most 1 MB"
"$scope" -l -S "$work/two" >"$work/two.list"
listed=$(grep -c "Tracepoint event_" "$work/two.list" || true)
[ "$listed" -eq 1500 ] || fail "$listed recorders listed of 1500"
# One never used: listed with the size it was defined with, nothing written.
grep -Eq "^  event_1499 +0 +8 +0 " "$work/two.list" ||
    fail "event_1499 as listed: $(grep "event_1499 " "$work/two.list")"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
"$scope" -D -S "$work/two" >"$work/two.dump" 2>&1
[ "$(grep -c "event_[01]: event_[01] value [01]$" "$work/two.dump")" -eq 2 ] ||
    fail "post-mortem of two: $(grep event_ "$work/two.dump")"

# --- all recording -------------------------------------------------------
start all 1500
used=$(blocks "$work/all")
# The rings' size in process memory: each recorder's, as defined, of 4
# lanes of slots + 1 (the head) of 64 bytes.
rings=$("$scope" -l -S "$work/all" |
        awk '/^Recorders/ { on = 1; next } /^[A-Z]/ { on = 0 }
             on { sum += 4 * ($3 + 1) * 64 } END { print sum + 0 }')
[ "$rings" -ge $((1500 * 4 * 9 * 64)) ] ||
    fail "all recording: rings of $rings bytes listed"
[ "$used" -le $((rings + rings / 10)) ] ||
    fail "all recording: $used bytes of blocks for $rings bytes of rings, above 10 % more"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
"$scope" -D -S "$work/all" >"$work/all.dump" 2>&1
kept=$(grep -c "event_\([0-9]*\): event_\1 value \1$" "$work/all.dump" || true)
[ "$kept" -eq 1500 ] ||
    fail "post-mortem after kill -9: $kept recorders of the 1500 that recorded"

echo "check-share-memory: 1500 recorders, 2 recording and exported:" \
     "$(( $(blocks "$work/two") / 1024 )) KiB of segment; all recording:" \
     "$((used / 1024)) KiB for $((rings / 1024)) KiB of rings; kill -9" \
     "dumps all $kept"
