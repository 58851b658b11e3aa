#!/bin/sh
# The channel picker under Xvfb (driven with xdotool, read through
# --trace-view and screenshots): started with --pick on a program that
# exports ramp and wave, the window opens with the picker's entry
# focused; "wave", Return adds wave to the graph of ramp (its colour is
# then plotted); "feed=ramp,wave,level", Return exports a new channel from
# the program's recorder; "level", Tab Tab Tab Return makes a new graph of
# it (plotted); reopened with Insert, "wave", Tab Tab Return removes wave
# from the first graph (no longer plotted). No restart in between.
# GTK and Mesa are not sanitizer-clean:
# sanitized: skip
# KEEP_SHOTS=DIR keeps the screenshots there, to look at them.
set -eu
. "$(dirname "$0")/../support/scope_window_test.sh"
window_test check-scope-picker 1024x768 "xdotool import convert" "$@"

scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"
out="$work/scope.out"
window_test_trace=$out

# The newest trace line starting with $1 is $2.
newest_is() { [ "$(grep "^$1" "$out" | tail -1)" = "$1$2" ]; }

# Pixels of colour $2 (hex) in a screenshot $1.
pixels() {
    import -window root "$1"
    convert "$1" -format %c histogram:info:- |
        awk -F: -v colour="#$2" 'toupper($0) ~ colour { n += $1 } END { print n + 0 }'
}
ramp=FFCC33 wave=FF5C5C level=4CD964       # colours in the order found

# Only ramp and wave are exported: level comes from the picker.
RECORDER_TRACES=feed=ramp,wave RECORDER_SHARE="$work/seg" \
    "$feeder" 1000000 1000 >/dev/null 2>&1 &
pids="$pids $!"
"$scope" -S "$work/seg" -d 2 --trace-view --pick -g 640x560 ramp \
    >"$out" 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
wait_for 'grep -q "running" "$work/scope.err"'
wait_for 'find_window $scope_pid'
wait_for 'newest_is "shown: graph 1:" " ramp"'
newest_is "graphs: 1:" " ramp" || fail "no graphs line for the first graph"
sleep 0.5                                   # the popover takes the focus
[ "$(pixels "$work/start.png" $wave)" -lt 20 ] || fail "wave plotted before it was added"

# --pick: the entry has the focus; Return adds the channel to the graph.
xdotool type --delay 20 wave
xdotool key Return
wait_for 'newest_is "graphs: 1:" " ramp +wave"'
wait_for 'newest_is "shown: graph 1:" " ramp wave"'
# Plotted: the popover covers part of the graph, its left part shows.
wait_for '[ "$(pixels "$work/added.png" $wave)" -gt 150 ]'

# An export through the entry, as RECORDER_TRACES spells it.
xdotool key ctrl+a
xdotool type --delay 20 'feed=ramp,wave,level'
xdotool key Return
wait_for '"$scope" -S "$work/seg" -l | grep -q "^  level "'

# The new channel gets a new graph: entry, Add, Remove, New graph.
xdotool key ctrl+a
xdotool type --delay 20 level
xdotool key Tab Tab Tab Return
wait_for 'newest_is "graphs: 2:" " level"'
wait_for 'newest_is "shown: graph 2:" " level"'
xdotool key Escape
wait_for '[ "$(pixels "$work/level.png" $level)" -gt 150 ]'
[ "$(pixels "$work/level2.png" $ramp)" -gt 150 ] || fail "ramp no longer plotted"

# Insert reopens it on the focused graph (the first): Remove takes wave
# out, and nothing else.
xdotool key Insert
sleep 0.5
xdotool type --delay 20 wave
xdotool key Tab Tab Return
wait_for 'newest_is "graphs: 1:" " ramp -wave" || newest_is "graphs: 1:" " ramp"'
newest_is "graphs: 1:" " ramp" || fail "removing an added channel left '$(grep '^graphs: 1:' "$out" | tail -1)'"
wait_for 'newest_is "shown: graph 1:" " ramp"'
newest_is "graphs: 2:" " level" || fail "graph 2 changed"
xdotool key Escape
wait_for '[ "$(pixels "$work/removed.png" $wave)" -lt 20 ]'
[ "$(pixels "$work/removed2.png" $level)" -gt 150 ] || fail "level no longer plotted"
kill -0 "$scope_pid" || fail "the scope exited"
echo "picker: --pick focus, add a channel, export channels, new graph, remove, plotted: ok"
