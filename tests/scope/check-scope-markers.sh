#!/bin/sh
# Event markers: recorder_scope -e feed_event marks each record of
# feed_event at the time the writer's own dump gives it (to the
# millisecond), a restart of the writer adds a restart marker at the new
# process's start and its records follow it, the headless PNG draws them;
# in the window (Xvfb), a -c command adds a command marker and hovering a
# record's marker shows its message in the readout. Markers are read from
# --trace-view ("marker: KIND TIME TEXT").
# GTK and Mesa are not sanitizer-clean:
# sanitized: skip
set -eu
[ -n "${TRACE_TEST:-}" ] && set -x
. "$(dirname "$0")/../support/scope_window_test.sh"
scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_event_feeder"
export RECORDER_TRACES=feed=ramp,

# Marker times of KIND in trace file $2, one per line.
marker_times() { awk -v k="$1" '$1 == "marker:" && $2 == k { print $3 }' "$2"; }
# Times of the writer's dump lines "[ORDER TIME] feed_event: ...".
dump_times() { sed -n 's/^\[[0-9]* \([0-9.]*\)\] feed_event: .*/\1/p' "$1"; }
# Each line of $2 plus $3 within a millisecond of the same line of $1.
same_times() {
    paste "$1" "$2" | awk -v shift="$3" 'NF != 2 { bad++ }
        { d = $1 - ($2 + shift); if (d < 0) d = -d; if (d > 0.001) bad++ }
        END { exit !(NR > 0 && !bad) }'
}

if [ "${1:-}" != inner ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT INT TERM
    fail() {
        echo "check-scope-markers: $*"
        sed 's/^/  trace: /' "$work/trace" | tail -20
        exit 1
    }
    # ---- headless: two runs of the writer at one path ----
    "$scope" -S "$work/seg" -e feed_event -e 'no_such_.*' --trace-view \
        --png "$work/markers.png" --duration 2.5 -d 2 ramp \
        >"$work/trace" 2>"$work/scope.err" &
    scope_pid=$!
    RECORDER_SHARE="$work/seg" "$feeder" 4 0.3 2>"$work/first.err"
    RECORDER_SHARE="$work/seg" "$feeder" 3 3 2>"$work/second.err" &
    second=$!
    wait $scope_pid || { cat "$work/scope.err"; fail "headless capture failed"; }
    kill $second 2>/dev/null || true
    wait 2>/dev/null || true

    marker_times record "$work/trace" >"$work/marked"
    [ "$(wc -l <"$work/marked")" -eq 7 ] ||
        fail "expected 7 record markers (4 + 3), got $(wc -l <"$work/marked")"
    grep -q '^marker: record [0-9.]* feed_event: spike 3$' "$work/trace" ||
        fail "a record marker does not say its message"
    dump_times "$work/first.err" >"$work/first"
    head -4 "$work/marked" >"$work/marked.first"
    same_times "$work/marked.first" "$work/first" 0 ||
        fail "first run: marker times differ from the dump's: $(paste "$work/marked.first" "$work/first" | tr '\n' ' ')"
    restart=$(marker_times restart "$work/trace")
    [ "$(echo "$restart" | wc -w)" -eq 1 ] || fail "expected one restart marker, got '$restart'"
    grep -q "^marker: restart [0-9.]* scope_event_feeder (pid [0-9]*) started$" \
        "$work/trace" || fail "the restart marker does not name the program"
    awk -v r="$restart" -v last="$(sed -n 4p "$work/marked")" \
        'BEGIN { exit !(r > last) }' || fail "restart marker $restart before the first run's records"
    # The second run's records: its own times, after its start.
    dump_times "$work/second.err" >"$work/second"
    tail -3 "$work/marked" >"$work/marked.second"
    same_times "$work/marked.second" "$work/second" "$restart" ||
        fail "second run: marker times differ from restart + the dump's: $(paste "$work/marked.second" "$work/second" | tr '\n' ' ')"
    # The PNG draws them: the record glyphs' colour is there.
    if command -v convert >/dev/null 2>&1; then
        coral=$(convert "$work/markers.png" txt:- | grep -ci '#FF7040' || true)
        [ "$coral" -gt 20 ] || fail "the PNG has no record markers ($coral pixels)"
    fi
    # A bad -e is refused as a bad command line.
    if "$scope" -e 'feed_(' -S "$work/seg" --png "$work/x.png" --duration 0 \
            2>"$work/bad.err"; then
        fail "-e 'feed_(' was accepted"
    fi
    grep -q "^recorder_scope: -e 'feed_('" "$work/bad.err" || fail "no reason for a bad -e"
    echo "headless: 7 record markers at the dump's times, a restart marker at $restart s"
    rm -rf "$work"
    trap - EXIT INT TERM
fi

# ---- the window ----
window_test_skipped="window part skipped"
window_test check-scope-markers 1280x1024 "xdotool" "$@"
out="$work/trace"
window_test_trace=$out
last() { tail -n +"$(( ${2:-0} + 1 ))" "$out" | grep "^$1" | tail -1; }
lines() { wc -l <"$out"; }

RECORDER_SHARE="$work/seg" "$feeder" 8 30 2>"$work/feeder.err" &
pids="$pids $!"
wait_for 'grep -q "8 events" "$work/feeder.err"'
"$scope" -S "$work/seg" -e feed_event -c feed_gain=20 --view 0:1 \
    --trace-view -g 900x400 ramp >"$out" 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
wait_for 'find_window $scope_pid'
wait_for 'grep -q "^view: paused" "$out"'
wait_for '[ "$(marker_times record "$out" | wc -l)" -eq 8 ]'
grep -q '^marker: command [0-9.]* feed_gain=20$' "$out" ||
    fail "the -c command has no marker"
wait_for 'grep -q "feed_gain=20. applied" "$work/scope.err" || true; true'

at() { xdotool mousemove --window "$wid" "$1" "$2"; }
# Time under x, from the readout (the first motion may come before the
# window's first frame).
time_at() {
    mark=$(lines) hx=$1
    wait_for 'at $((hx + 3)) 200; at $hx 200; sleep 0.1; [ -n "$(last "readout: t " $mark)" ]'
    last "readout: t " "$mark" | awk '{ print $3 }'
}
ta=$(time_at 200)
tb=$(time_at 700)
# spike 2's marker, in pixels, from the two readings.
spike=$(marker_times record "$out" | sed -n 3p)
x=$(awk -v a="$ta" -v b="$tb" -v t="$spike" \
    'BEGIN { printf "%d", 200 + (t - a) * 500 / (b - a) + 0.5 }')
m=$(lines)
wait_for 'at $((x + 1)) 200; at $x 200; sleep 0.1; last "readout:" $m | grep -q "record feed_event: spike 2"'
# Away from every marker, no marker text.
m=$(lines)
far=$(awk -v a="$ta" -v b="$tb" -v t="$spike" \
      'BEGIN { printf "%d", 200 + (t + 0.05 - a) * 500 / (b - a) }')
wait_for 'at $((far + 1)) 200; at $far 200; sleep 0.1; [ -n "$(last "readout: t " $m)" ]'
last "readout:" "$m" | grep -q "record feed_event" &&
    fail "a marker's text shows 50 ms away from it"
if command -v import >/dev/null 2>&1; then
    at $x 200; sleep 0.3
    import -window root "$work/markers-window.png"
fi
echo "window: command marker, 8 record markers, hover at x $x shows spike 2"
