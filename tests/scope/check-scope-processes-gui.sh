#!/bin/sh
# One window, two processes (issue 16, item 3), under Xvfb: both
# processes' channels are drawn, in their own colours, named
# PROGRAM[PID]/channel; Ctrl+P chooses where commands and sliders go (the
# drop-down in the header bar), and a slider moved then sets the tweak in
# that process only, read back with recorder_scope -l -S on each.
# sanitized: skip
# KEEP_SHOTS=DIR keeps the screenshot there, to look at it.
set -eu
. "$(dirname "$0")/../support/scope_window_test.sh"
window_test check-scope-processes-gui 1024x768 "xdotool import convert" "$@"

scope="$build/recorder_scope"
writer="$build/tests/writers/clock_writer"
export RECORDER_TRACES=clock=mono,

pixels() {
    convert "$1" -format %c histogram:info:- |
        awk -F: -v colour="#$2" 'toupper($0) ~ colour { n += $1 } END { print n + 0 }'
}

gain() {
    "$scope" -l -S "$work/seg.$1" | awk '$1 == "clock_gain" { print $2 }'
}

for name in b c; do
    RECORDER_SHARE="$work/seg.$name" "$writer" 1000000 >/dev/null \
        2>"$work/$name.err" &
    pids="$pids $!"
    eval "pid_$name=\$!"
done
wait_for "[ -s '$work/seg.b' ] && [ -s '$work/seg.c' ]"

"$scope" -S "$work/seg.b" -S "$work/seg.c" -g 640x420 -d 2 mono \
    -s clock_gain=10:0:100 --trace-view >"$work/trace" 2>"$work/scope.err" &
pids="$pids $!"
timeout 10 xdotool search --sync --onlyvisible --name '^recorder_scope: ' \
    >/dev/null || fail "no window"
wait_for "grep -q 'clock_writer (pid $pid_b) running; clock_writer (pid $pid_c) running' '$work/scope.err'"

# Both processes drawn, each in its colour (amber, then red): they record
# the same clock, so on one axis their lines coincide; lanes (l) part them.
xdotool key l
wait_for "import -window root '$work/two-processes.png' &&
          [ \$(pixels '$work/two-processes.png' FFCC33) -gt 150 ] &&
          [ \$(pixels '$work/two-processes.png' FF5C5C) -gt 150 ]"

# Ctrl+P: commands go to the first process only.
xdotool key ctrl+p
wait_for "grep -qx 'target: clock_writer\[$pid_b\]' '$work/trace'"
xdotool mousemove 320 376 click 1
xdotool key End
wait_for "[ \"\$(gain b)\" = 100 ]"
sleep 0.5                               # time for a wrong send to land
[ "$(gain c)" = 10 ] || fail "the other process got the command: $(gain c)"

# Then the second, then all.
xdotool key ctrl+p
wait_for "grep -qx 'target: clock_writer\[$pid_c\]' '$work/trace'"
xdotool key ctrl+p
wait_for "grep -qx 'target: all' '$work/trace'"
xdotool mousemove 320 376 click 1
wait_for "[ \"\$(gain c)\" != 10 ] && [ \"\$(gain b)\" = \"\$(gain c)\" ]"

echo "two processes in one window, commands to one chosen process, then all: ok"
