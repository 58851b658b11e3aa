#!/bin/sh
# What a new user sees first, under Xvfb, at the default size (900 px
# wide) on the perfdata example: the text of the title and the status
# line uncut (test_scope_window_text_fit, measured with GTK's fonts); on a
# fresh start, the plot begins at the first sample on the left edge, no
# time before it; cursors, the pointer's readout and a save into a long
# directory. The pictures are share/doc's: SCOPE_DOC_SHOTS=DIR writes
# scope-fresh-start.png, scope-readout.png and scope-status-title.png
# there (SCOPE_DOC_SHOTS=share/doc makes the documentation's).
# GTK and Mesa are not sanitizer-clean: make check-asan and check-tsan
# leave this one out:
# sanitized: skip
set -eu
. "$(dirname "$0")/../support/scope_window_test.sh"
window_test check-scope-first-look 1000x720 "xdotool import convert" "$@"

export SCOPE_TEST_DISPLAY=1
"$build/tests/scope/test_scope_window_text_fit" >"$work/text_fit.out" 2>&1 ||
    { cat "$work/text_fit.out"; fail "title or status line cut at 900 px"; }

scope="$build/recorder_scope"
example="$build/examples/perfdata"
dir="$work/recordings/of/the/perfdata/example/kept/for/a/week/on/this/machine"
mkdir -p "$dir"
seg="$dir/perfdata_transfers_segment"

# Pixels of colour $2 (hex) in image $1 within geometry $3 (WxH+X+Y).
pixels() {
    convert "$1" -crop "$3" +repage -format %c histogram:info:- |
        awk -v colour="#$2" 'toupper($0) ~ colour { n += $1 } END { print n + 0 }'
}

shot() {
    import -window root -crop 900x680+0+0 +repage "$work/$1"
    if [ -n "${SCOPE_DOC_SHOTS:-}" ]; then
        cp "$work/$1" "$SCOPE_DOC_SHOTS/$1"
    fi
}

RECORDER_SHARE="$seg" RECORDER_TRACES=perfdata=bytes,loops "$example" \
    >/dev/null 2>&1 &
pids="$pids $!"
wait_for "[ -e '$seg' ]"
"$scope" -S "$seg" bytes loops -s transfer_delay=1000:0:5000 -b "$dir/perfdata-" \
    --trace-view >"$work/trace" 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
window_test_trace="$work/trace"
wait_for "find_window $scope_pid"

# --- a fresh start: the plot begins at the left edge ----------------------
# The first graph's plot spans x 72..878; in its first 12 columns, the
# amber of bytes: the curve starts there, not 8 s to the right of an
# axis that runs into negative times.
amber=FFCC33
wait_for "import -window root '$work/start.png' &&
          [ \$(pixels '$work/start.png' $amber 300x210+72+95) -gt 100 ]"
sleep 1
shot scope-fresh-start.png
[ "$(pixels "$work/scope-fresh-start.png" $amber 12x210+72+95)" -gt 3 ] ||
    fail "the plot does not begin at the left edge on a fresh start"
# Nothing right of the newest data yet: the span fills from the left.
[ "$(pixels "$work/scope-fresh-start.png" $amber 150x210+725+95)" -eq 0 ] ||
    fail "a fresh plot runs to the right edge"

# --- cursors and the pointer's readout ------------------------------------
sleep 5
xdotool mousemove 250 200 key 1
xdotool mousemove 650 200 key 2
xdotool mousemove 470 180
wait_for "grep -q '^cursor B' '$work/trace'"
sleep 1
shot scope-readout.png

# --- a save into a long directory: title and status line whole ------------
xdotool key i
wait_for "grep -q '^status: saved perfdata-1.png in $dir' '$work/trace'"
sleep 0.5
shot scope-status-title.png
xdotool key q
wait "$scope_pid" || fail "the scope exited with status $?"
echo "check-scope-first-look: title and status uncut at 900 px, fresh plot from the left edge: ok"
