#!/bin/sh
# The window's text and layout under Xvfb, looked at as a person does: the
# title names the program and its pid; a slider on a tweak the program
# lacks says so beside it (and on stderr) and stays said, with no banner
# to dismiss; after a save the status line is not cut; the graph keys act
# on stays marked when a header-bar button takes the focus; --theme light
# makes the window and its graphs light.
# GTK and Mesa are not sanitizer-clean: make check-asan and check-tsan
# leave this one out:
# sanitized: skip
# KEEP_SHOTS=DIR keeps the screenshots there, to look at them.
set -eu
. "$(dirname "$0")/../support/scope_window_test.sh"
window_test check-scope-layout 1024x768 "xdotool import convert" "$@"

scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"
export RECORDER_TRACES=feed=ramp,wave,level
seg="$work/segment"

# Press key $1 with the pointer on the window's status line (off the
# graphs, whose hover marks would show in the pictures): without a window
# manager, X gives the keyboard to the window under the pointer.
press() {
    xdotool mousemove 600 450 key "$1" mousemove 900 700
}

# Pixels of colour $2 (hex) in image $1 within geometry $3 (WxH+X+Y).
pixels() {
    convert "$1" -crop "$3" +repage -format %c histogram:info:- |
        awk -v colour="#$2" 'toupper($0) ~ colour { n += $1 } END { print n + 0 }'
}

# Top edge (y) of the pixels of colour $2 in image $1.
top_of() {
    convert "$1" -fill black +opaque "#$2" -trim -format '%[fx:page.y]' info:
}

RECORDER_SHARE="$seg" "$feeder" 100000 0 >/dev/null 2>&1 &
feeder_pid=$!
pids="$pids $feeder_pid"
wait_for "[ -e '$seg' ]"

# The window is 640x460 at 0,0 (no window manager): a header bar 52 px
# high, two graphs, two slider rows, the status line.
"$scope" -S "$seg" -g 640x460 -d 2 -b "$work/shot-" --trace-view \
    'ramp|wave' level -s feed_gain -s no_such_tweak=5:0:10 \
    >"$work/trace" 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
# --- the title: program and pid, then the segment --------------------------
title="recorder_scope: scope_feeder[$feeder_pid] $seg"
wait_for "find_window $scope_pid &&
    [ \"\$(xdotool getwindowname \$wid 2>/dev/null)\" = \"\$title\" ]"

# --- a missing tweak: on stderr and beside its slider, for good ------------
banner=8B1E1E                                   # SCOPE_BANNER_RGB
wait_for "grep -q \"the program has no tweak 'no_such_tweak'\" '$work/scope.err'"
wait_for "import -window root '$work/missing.png' &&
          [ \$(pixels '$work/missing.png' $banner 640x50+0+385) -gt 2000 ]"
[ "$(pixels "$work/missing.png" $banner 640x100+0+0)" -eq 0 ] ||
    fail "an error banner at the top of the window"
# Escape (which dismisses the banner) and time do not take it away.
press Escape
sleep 1
import -window root "$work/still.png"
[ "$(pixels "$work/still.png" $banner 640x50+0+385)" -gt 2000 ] ||
    fail "the missing tweak's note went away"

# --- focus: the graph keys act on stays marked ----------------------------
focus=4A78C2                                    # the dark palette's focus
# Click the second graph (level), leave the pointer off the graphs, save.
xdotool mousemove 320 260 click 1
xdotool mousemove 900 700
wait_for "import -window root '$work/focus2.png' &&
          [ \$(top_of '$work/focus2.png' $focus) -gt 150 ]"
press space
wait_for "[ -s '$work/shot-1.csv' ]"
# --- the status line after a save: its news first, not cut ------------------
wait_for "grep -q '^status: saved shot-1.png and shot-1.csv ([0-9]* rows) in $work\$' '$work/trace'"
import -window root "$work/saved.png"
# The status line's text ends well before the window's right edge: GTK
# did not need to cut it with an ellipsis.
right=$(convert "$work/saved.png" -crop 620x18+10+436 +repage -fuzz 20% \
    -trim -format '%[fx:page.x + w]' info:)
[ "$right" -lt 560 ] || fail "the status line runs to x = $right: cut"
# A header-bar button takes the keyboard focus; the graph stays marked.
xdotool mousemove 198 26 click 1           # Avg
xdotool mousemove 900 700
# The Avg toggle redraws the graph; the ring must be there once it has.
wait_for "import -window root '$work/button.png' &&
          [ \$(top_of '$work/button.png' $focus) -gt 150 ] &&
          [ \$(pixels '$work/button.png' $focus 640x460+0+0) -gt 1000 ]" 10
press q
wait "$scope_pid" || fail "the scope exited with status $?"

# --- --theme light: a light window with light graphs ----------------------
"$scope" -S "$seg" -g 640x460 -d 2 --theme light 'ramp|wave' level \
    2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
wait_for "find_window $scope_pid"
# The ramp in the light palette's amber, on light backgrounds.
wait_for "import -window root '$work/light.png' &&
          [ \$(pixels '$work/light.png' B38000 640x460+0+0) -gt 150 ]"
light=$(( $(pixels "$work/light.png" F6F5F4 640x460+0+0) +
          $(pixels "$work/light.png" FFFFFF 640x460+0+0) ))
[ "$light" -gt $((640 * 460 / 2)) ] ||
    fail "the light window has $light light pixels of $((640 * 460))"
press q
wait "$scope_pid" || fail "the light scope exited with status $?"
echo "title with program and pid, missing tweak said beside its slider,"
echo "status not cut after a save, focus marked, light theme: ok"
