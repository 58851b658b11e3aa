#!/bin/sh
# recorder_scope as an instrument: --view captures exactly a span of
# history headless; in the window (Xvfb, driven with xdotool) the pause key
# freezes the picture while data flows, the wheel zooms about the pointer,
# a drag pans by what it moved, a legend click hides a channel, hovering
# reads values, cursors A and B measure dt, z zooms to them, Home returns
# to live, the value axis zooms and changes mode, Ctrl+? lists the keys,
# and sixteen graphs fit the screen with the status line in view. What the
# window shows is read from --trace-view.
# GTK and Mesa are not sanitizer-clean:
# sanitized: skip
set -eu
[ -n "${TRACE_TEST:-}" ] && set -x
. "$(dirname "$0")/../support/scope_window_test.sh"
scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"

if [ "${1:-}" != inner ]; then
    # ---- headless: --view on a program that has stopped recording ----
    work=$(mktemp -d)
    trap 'kill $feed_pid 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM
    export RECORDER_TRACES=feed=ramp,wave,level
    RECORDER_SHARE="$work/seg" "$feeder" 3000 1000 30 >/dev/null 2>&1 &
    feed_pid=$!
    # The whole history, then the span 1..2 s of it.
    "$scope" -S "$work/seg" -d 0 --csv "$work/all.csv" --duration 4.5 ramp \
        2>"$work/all.err" ||
        { cat "$work/all.err"; echo "check-scope-view: full capture failed"; exit 1; }
    "$scope" -S "$work/seg" --view 1:2 --csv "$work/span.csv" --duration 0.5 \
        ramp 2>"$work/span.err" ||
        { cat "$work/span.err"; echo "check-scope-view: --view capture failed"; exit 1; }
    awk -F, 'NR > 1 && $1 >= 1 && $1 <= 2' "$work/all.csv" >"$work/expected"
    tail -n +2 "$work/span.csv" >"$work/got"
    [ -s "$work/expected" ] || { echo "check-scope-view: no samples in 1..2 s"; exit 1; }
    cmp -s "$work/expected" "$work/got" || {
        echo "check-scope-view: --view 1:2 CSV is not exactly the samples of 1..2 s"
        wc -l "$work/expected" "$work/got"; exit 1; }
    # Counting back from the newest sample.
    "$scope" -S "$work/seg" --view -0.5: --csv "$work/last.csv" --duration 0.3 \
        ramp 2>/dev/null
    newest=$(tail -1 "$work/all.csv" | cut -d, -f1)
    awk -F, -v newest="$newest" 'NR > 1 && ($1 < newest - 0.5 - 1e-9 || $1 > newest + 1e-9) { bad++ }
        NR > 1 { n++ } END { exit !(n > 100 && !bad) }' "$work/last.csv" || {
        echo "check-scope-view: --view -0.5: holds samples outside the last 0.5 s"; exit 1; }
    # A PNG of a span draws without a display.
    DISPLAY= "$scope" -S "$work/seg" --view 0.5:1.5 --png "$work/span.png" \
        --duration 0.3 2>/dev/null
    [ -s "$work/span.png" ] || { echo "check-scope-view: no PNG of the span"; exit 1; }
    # Bad spans are refused with a reason.
    if "$scope" -S "$work/seg" --view 2:1 --csv "$work/x.csv" --duration 0.1 \
            2>"$work/bad.err"; then
        echo "check-scope-view: --view 2:1 was accepted"; exit 1
    fi
    grep -q "FROM before TO" "$work/bad.err" || {
        cat "$work/bad.err"; echo "check-scope-view: no reason for a bad --view"; exit 1; }
    kill $feed_pid 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
    trap - EXIT INT TERM
fi

window_test_skipped="window part skipped"
window_test check-scope-view 1280x1024 "xdotool import convert compare" "$@"
export RECORDER_TRACES=feed=ramp,wave,level
out="$work/scope.out"
window_test_trace=$out

# The last trace line starting with $1, after line $2.
last() { tail -n +"$(( ${2:-0} + 1 ))" "$out" | grep "^$1" | tail -1; }
lines() { wc -l <"$out"; }
# Wait for a new trace line starting with $1.
expect() {
    mark=$1; shift
    wait_for "[ -n \"\$(last '$1' $mark)\" ]"
}
near() {    # near A B TOLERANCE
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

RECORDER_SHARE="$work/seg" "$feeder" 1000000 1000 >/dev/null 2>&1 &
pids="$pids $!"
"$scope" -S "$work/seg" -d 2 --trace-view -g 1000x700 ramp 'wave|level' \
    >"$out" 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
wait_for 'grep -q "running" "$work/scope.err"'
wait_for 'find_window $scope_pid'
sleep 3                                     # history across the view
grep -q "^view: live 2.000000" "$out" || fail "does not start live over 2 s"

at() { xdotool mousemove --window "$wid" "$1" "$2"; }
key() { xdotool key --window "$wid" "$@"; }
shot() { import -window root "$work/$1.png"; }
# Move the pointer there until the window tells a readout (the first
# motion may come before the window's first frame).
hover() {
    mark=$(lines) hx=$1 hy=$2
    wait_for 'at $((hx + 3)) $hy; at $hx $hy; sleep 0.1; [ -n "$(last "readout: t " $mark)" ]'
    sleep 0.2                               # the last motion told
}

# Hover: the readout names the time and ramp's value; further right, both
# are larger (ramp only grows).
m=$(lines); hover 420 200
r1=$(last "readout: t " "$m")
m=$(lines); hover 700 200
r2=$(last "readout: t " "$m")
t1=$(echo "$r1" | awk '{ print $3 }'); t2=$(echo "$r2" | awk '{ print $3 }')
echo "$r2" | grep -q "| ramp " || fail "the readout has no ramp value: $r2"
awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(b > a) }' || fail "readout times do not grow to the right: $t1 $t2"

# Pause: the plot no longer moves although data keeps coming.
m=$(lines); key p; expect "$m" "view: paused"
span=$(last "view: paused" "$m")
a=$(echo "$span" | awk '{ print $3 }'); b=$(echo "$span" | awk '{ print $4 }')
near "$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')" 2 1e-6 || fail "paused span is not 2 s: $span"
at 5 5; sleep 0.5; shot paused1; sleep 1; shot paused2
convert "$work/paused1.png" -crop 900x240+70+90 +repage "$work/p1.png"
convert "$work/paused2.png" -crop 900x240+70+90 +repage "$work/p2.png"
diff_pixels=$(compare -metric AE "$work/p1.png" "$work/p2.png" null: 2>&1 || true)
[ "$diff_pixels" = 0 ] || fail "the paused plot changed ($diff_pixels pixels)"

# Wheel up over the plot: zoom in about the pointer; the time under it stays.
m=$(lines); at 600 200; expect "$m" "readout: t "
before=$(last "readout: t " "$m" | awk '{ print $3 }')
m=$(lines); xdotool click 4; expect "$m" "view: paused"
span=$(last "view: paused" "$m")
a=$(echo "$span" | awk '{ print $3 }'); b=$(echo "$span" | awk '{ print $4 }')
near "$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')" 1.666667 1e-3 || fail "wheel did not zoom by 1.2: $span"
m=$(lines); at 610 200; at 600 200; expect "$m" "readout: t "
sleep 0.3                                   # both motions told
after=$(last "readout: t " "$m" | awk '{ print $3 }')
near "$before" "$after" 0.001 || fail "zoom moved the time under the pointer: $before -> $after"

# Drag 200 px to the left: the view moves 200 px of time later.
m=$(lines)
xdotool mousedown 1; at 500 200; at 400 200; xdotool mouseup 1
expect "$m" "view: paused"
moved=$(last "view: paused" "$m")
a2=$(echo "$moved" | awk '{ print $3 }')
plot=$(awk 'BEGIN { print 1000 - 66 - 16 - 8 }')
expected=$(awk -v s=1.666667 -v p="$plot" 'BEGIN { print 200 * s / p }')
near "$(awk -v a="$a" -v b="$a2" 'BEGIN { print b - a }')" "$expected" 0.1 ||
    fail "a 200 px drag moved the view by $(awk -v a="$a" -v b="$a2" 'BEGIN { print b - a }') s, not $expected"

# A click on the legend entry of wave hides it.
m=$(lines); at 32 395; xdotool click 1
expect "$m" "hidden: graph 2"
last "hidden: graph 2" "$m" | grep -q "hidden: graph 2: wave$" || fail "wave is not hidden"
at 5 5; sleep 0.4; shot hidden
wave_red=$(convert "$work/hidden.png" -crop 900x240+70+410 +repage -format %c histogram:info:- |
    awk 'toupper($0) ~ /#FF5C5C/ { n += $1 } END { print n + 0 }')
[ "$wave_red" -lt 20 ] || fail "hidden wave still drawn ($wave_red red pixels)"

# Cursors A and B 300 px apart: dt is 300 px of time.
m=$(lines); at 300 200; key 1; expect "$m" "cursor A"
m=$(lines); at 600 200; key 2; expect "$m" "cursor B"
ca=$(last "cursor A" "$m" | awk '{ print $3 }'); cb=$(last "cursor B" "$m" | awk '{ print $3 }')
near "$(awk -v a="$ca" -v b="$cb" 'BEGIN { print b - a }')" \
     "$(awk -v p="$plot" 'BEGIN { print 300 * 1.666667 / p }')" 0.05 ||
    fail "cursors $ca and $cb are not 300 px apart"
last "readout:" "$m" | grep -q "dt .*1/dt .*ramp A .* B .* delta" || fail "no dt and delta readout"

# z: exactly the span between the cursors.
m=$(lines); key z; expect "$m" "view: paused"
z=$(last "view: paused" "$m")
near "$(echo "$z" | awk '{ print $3 }')" "$ca" 1e-5 && near "$(echo "$z" | awk '{ print $4 }')" "$cb" 1e-5 ||
    fail "z did not zoom to the cursors: $z (A $ca, B $cb)"

# Values: shift+wheel fixes a range; l cycles the scale mode; g log.
m=$(lines); at 500 200; xdotool keydown shift click 4 keyup shift
expect "$m" "values: graph 1: fixed"
m=$(lines); key l; expect "$m" "values: graph 1"
last "values: graph 1" "$m" | grep -q "lanes" || fail "l did not give lanes"
m=$(lines); key g; expect "$m" "values: graph 1"
last "values: graph 1" "$m" | grep -q " log$" || fail "g did not give a log scale"

# Home: live again, span 10 s.
m=$(lines); key Home; expect "$m" "view: live"
last "view: live" "$m" | grep -q "view: live 2.000000" || fail "Home did not return to a live 2 s view"

# Ctrl+? lists the keys in a shortcuts window.
key ctrl+question
wait_for 'shortcuts=$(xdotool search --pid $scope_pid --name "Shortcuts" 2>/dev/null | tail -1); [ -n "$shortcuts" ]'
sleep 0.5
shot shortcuts
kill $scope_pid
wait $scope_pid 2>/dev/null || true

# Sixteen graphs: the window fits the screen, the graphs scroll.
"$scope" -S "$work/seg" ramp ramp ramp ramp ramp ramp ramp ramp ramp ramp ramp \
    ramp ramp ramp ramp ramp >/dev/null 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
wait_for 'find_window $scope_pid'
wait_for 'xdotool getwindowgeometry "$wid" | grep -q Geometry'
height=$(xdotool getwindowgeometry "$wid" | awk '/Geometry/ { split($2, g, "x"); print g[2] }')
[ "$height" -le 1024 ] || fail "16 graphs make a $height px window"
echo "check-scope-view: passed"
