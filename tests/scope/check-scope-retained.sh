#!/bin/sh
# recorder_scope keeps each graph's plot as an image and, while data
# flows, only scrolls it and draws the columns new data touched. Under
# Xvfb: the window scrolls for a few seconds, is paused (p: the paused
# frame still shows the image built by scrolling), and then a view is
# toggled on and off, which draws the plot whole from the samples. The
# two pictures of the plot must be the same, pixel for pixel.
# GTK and Mesa are not sanitizer-clean:
# sanitized: skip
set -eu
[ -n "${TRACE_TEST:-}" ] && set -x
. "$(dirname "$0")/../support/scope_window_test.sh"
scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"

window_test check-scope-retained 1280x1024 "xdotool import convert compare" "$@"
# wave keeps one range: a whole redraw fits the same axis as the scrolled
# frames did (a range kept while the data fills most of it, as the timing
# view's would be, is fitted again by a whole redraw).
export RECORDER_TRACES=feed=ramp,wave,level
out="$work/scope.out"
window_test_trace=$out

RECORDER_SHARE="$work/seg" "$feeder" 1000000 1000 >/dev/null 2>&1 &
pids="$pids $!"
"$scope" -S "$work/seg" -d 2 --trace-view -g 1000x700 wave \
    >"$out" 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
wait_for 'grep -q "running" "$work/scope.err"'
wait_for 'find_window $scope_pid'
xdotool mousemove 5 5                   # no crosshair, no readout
sleep 3                                 # scrolls over the whole width

lines() { wc -l <"$out"; }
key() { xdotool key --window "$wid" "$@"; }
shot() { import -window root "$work/$1.png"; }
# The plot of the graph: left of the legend values, right of the axis.
plot() { convert "$work/$1.png" -crop 820x420+80+130 +repage "$work/$1-plot.png"; }
same() {
    compare -metric AE "$work/$1-plot.png" "$work/$2-plot.png" \
        "$work/diff-$1-$2.png" 2>&1 || true
}

m=$(lines); key p
wait_for "tail -n +$((m + 1)) \"$out\" | grep -q '^view: paused'"
sleep 0.5; shot scrolled; plot scrolled
# The average view on, then off: the plot drawn whole, twice.
key a; sleep 0.5; shot average; plot average
key a; sleep 0.5; shot whole; plot whole

# The toggle did redraw: the average shows.
[ "$(same scrolled average)" != 0 ] || fail "toggling the average view changed nothing"
diff_pixels=$(same scrolled whole)
[ "$diff_pixels" = 0 ] ||
    fail "the scrolled plot differs from the same plot drawn whole in $diff_pixels pixels (KEEP_SHOTS=DIR keeps the screenshots)"
echo "check-scope-retained: the scrolled plot is the plot drawn whole"
