#!/bin/sh
# recorder_scope draws frames paced by the data (scope/view/frame_pace.h), read
# from the "frames: graph N: F" lines --trace-view prints each second under
# Xvfb: a live 60 s span over about 900 pixel columns scrolls by a column
# every 67 ms, so about 15 frames a second, not the display's 60; a 1 s
# span needs one every display frame; paused, the graph holds still, its
# legend too: no frames while the writer runs on; once the writer has
# stopped, no frames;
# and hovering still redraws at once. With --fps 10, the 1 s span draws
# about 10 frames a second, still scrolling. Scrolling, the scope reads the
# segment at every other display frame, and does not wake its own main
# loop (strace); stopped, it reads 10 times a second. Bounds are loose (loaded CI
# machines), but a window that redraws each display frame fails them.
# GTK and Mesa are not sanitizer-clean:
# sanitized: skip
set -eu
[ -n "${TRACE_TEST:-}" ] && set -x
. "$(dirname "$0")/../support/scope_window_test.sh"
window_test check-scope-pace 1280x1024 "xdotool import" "$@"
scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"
export RECORDER_TRACES=feed=ramp,wave,level
out="$work/scope.out"
window_test_trace=$out

lines() { wc -l <"$out"; }
# Frame counts of graph $2 in the lines after line $1, one a line.
frames() {
    tail -n +"$(( $1 + 1 ))" "$out" |
        sed -n "s/^frames: graph $2: \([0-9]*\)$/\1/p"
}
# Reads of the segment a second in the lines after line $1, one a line.
reads() {
    tail -n +"$(( $1 + 1 ))" "$out" | sed -n 's/^reads: \([0-9]*\)$/\1/p'
}
# Wait for $2 more seconds of frame counts of graph 1 after line $1.
seconds_of_frames() {
    wait_for "[ \$(frames $1 1 | wc -l) -ge $2 ]" $(( $2 * 3 + 20 ))
}
most() { sort -n | tail -1; }
total() { awk '{ s += $1 } END { print s + 0 }'; }

# The scope on segment $1 with span $2 seconds, two graphs; then the
# options given after them.
start_scope() {
    segment=$1 span=$2
    shift 2
    : >"$out"
    "$scope" -S "$segment" -d "$span" --trace-view -g 1000x700 "$@" \
        ramp 'wave|level' \
        >"$out" 2>"$work/scope.err" &
    scope_pid=$!
    pids="$pids $scope_pid"
    wait_for 'find_window $scope_pid'
    wait_for '[ -n "$(frames 0 1)" ]'       # a second of it
}
stop_scope() {
    kill "$scope_pid"
    wait "$scope_pid" 2>/dev/null || true
}

# A writer at 1 kHz for the whole test (level changes with each sample).
RECORDER_SHARE="$work/seg" "$feeder" 1000000 1000 >/dev/null 2>&1 &
pids="$pids $!"

# ---- 60 s over 934 - 90 pixels: a column every 71 ms, ~14 frames/s ----
start_scope "$work/seg" 60
m=$(lines); seconds_of_frames "$m" 4
slow=$(frames "$m" 1 | most)
slow2=$(frames "$m" 2 | most)
[ "$slow" -le 22 ] && [ "$slow2" -le 22 ] ||
    fail "a live 60 s span drew up to $slow and $slow2 frames a second (want <= 22)"
[ "$(frames "$m" 1 | total)" -ge 12 ] ||
    fail "a live 60 s span hardly scrolls: $(frames "$m" 1 | tr '\n' ' ')"
stop_scope

# ---- 1 s with --fps 10: ten frames a second, each scrolling further ----
start_scope "$work/seg" 1 --fps 10
m=$(lines); seconds_of_frames "$m" 3
capped=$(frames "$m" 1 | most)
[ "$capped" -le 11 ] || fail "--fps 10 drew up to $capped frames a second"
[ "$(frames "$m" 1 | total)" -ge 15 ] ||
    fail "--fps 10 hardly scrolls: $(frames "$m" 1 | tr '\n' ' ')"
stop_scope

# ---- 1 s: a column every 1.2 ms, a frame each display frame ----
start_scope "$work/seg" 1
m=$(lines); seconds_of_frames "$m" 3
fast=$(frames "$m" 1 | most)
[ "$fast" -ge 25 ] && [ "$fast" -gt $(( slow + 10 )) ] ||
    fail "a live 1 s span drew only up to $fast frames a second (60 s span: $slow)"
# Its frames read the segment, every other one of a 60 Hz clock: a frame
# shows what the read before it found (50 to 60 reads a second before,
# some between frames). Still live: no fewer than 15.
read_most=$(reads "$m" | most)
read_least=$(reads "$m" | sort -n | head -n 1)
[ -n "$read_most" ] && [ "$read_most" -le 40 ] && [ "$read_least" -ge 15 ] ||
    fail "scrolling at each display frame, the window read the segment $(reads "$m" | tr '\n' ' ')times a second (want 15 to 40)"

# ---- scrolling, the scope does not wake its own main loop ----
# Its reads (50 a second) are due from a GLib source; re-armed with a ready
# time, GLib writes the loop's eventfd each time, even from its own thread:
# one more round of the whole main loop (GTK's sources, the X queue, a
# poll) per read. Over 3 s: its polls (proof that strace saw it) and its
# eventfd writes (130 to 150 before; GTK's own are a few).
timeout 3 strace -qq -e trace=write,poll -p "$scope_pid" \
    -o "$work/syscalls" 2>/dev/null || true
polls=$(grep -c '^poll(' "$work/syscalls" || true)
wakeups=$(grep -c '"\\1\\0\\0\\0\\0\\0\\0\\0", 8)' "$work/syscalls" || true)
[ "$polls" -ge 60 ] || fail "strace saw $polls polls of the scope in 3 s"
[ "$wakeups" -le 15 ] ||
    fail "scrolling, the scope woke its main loop $wakeups times in 3 s"

# ---- paused: nothing moves, the legend's values neither: no frames ----
xdotool key --window "$wid" p
wait_for 'grep -q "^view: paused" "$out"'
m=$(lines); seconds_of_frames "$m" 3
paused=$(frames "$m" 1 | tail -n 2 | most)
[ "$paused" -le 1 ] || fail "paused, the window drew $paused frames a second"

# ---- hovering redraws at once, paused or not ----
xdotool mousemove --window "$wid" 300 200
m=$(lines)
x=300
while [ $x -lt 700 ]; do
    xdotool mousemove --window "$wid" $x 200
    sleep 0.02
    x=$((x + 20))
done
wait_for '[ -n "$(tail -n +$((m + 1)) "$out" | grep "^readout: t ")" ]'
seconds_of_frames "$m" 2
hovered=$(frames "$m" 1 | head -n 2 | total)
[ "$hovered" -ge 8 ] ||
    fail "20 pointer moves over a paused graph drew only $hovered frames"
stop_scope

# ---- the writer stops (alive, recording nothing): no frames ----
RECORDER_SHARE="$work/stops" "$feeder" 1500 1000 >/dev/null 2>&1 &
pids="$pids $!"
wait_for '[ -e "$work/stops" ]'
start_scope "$work/stops" 1
# It scrolls for a while over what it read at once, then stands still.
wait_for '[ "$(frames 0 1 | wc -l)" -ge 2 ] && [ "$(frames 0 1 | tail -n 1)" = 0 ]' 30
m=$(lines); seconds_of_frames "$m" 3
stopped=$(frames "$m" 1 | total)
[ "$stopped" -le 2 ] || fail "a stopped writer's window drew $stopped frames in 3 s"
# With nothing new, it reads 10 times a second, from its timer.
idle_reads=$(reads "$m" | most)
[ "$idle_reads" -le 12 ] ||
    fail "a stopped writer's window read the segment $idle_reads times a second"
# The hover on a still window draws too.
xdotool mousemove --window "$wid" 400 200
m=$(lines)
xdotool mousemove --window "$wid" 500 200
wait_for '[ -n "$(tail -n +$((m + 1)) "$out" | grep "^readout: t ")" ]'
seconds_of_frames "$m" 2
[ "$(frames "$m" 1 | total)" -ge 1 ] || fail "hovering a still window drew nothing"
import -window root "$work/stopped.png"
stop_scope
echo "check-scope-pace: passed (frames a second: 60 s span $slow, 1 s span" \
     "$fast, with --fps 10 $capped, paused $paused, writer stopped" \
     "$stopped in 3 s; reads a second: scrolling $read_least to" \
     "$read_most, writer stopped $idle_reads; main loop woken $wakeups" \
     "times in 3 s of scrolling)"
