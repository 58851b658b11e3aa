#!/bin/sh
# recorder_scope's trigger: headless, --trigger-mode single waits for a
# spike of a test program and captures exactly its span with the spike at
# --pre percent; a trigger that never fires exits 1 within the timeout;
# bad spellings exit 2 with a reason. In the window (Xvfb), single mode
# freezes on the spike with the trigger marked, and r re-arms it.
# GTK and Mesa are not sanitizer-clean:
# sanitized: skip
set -eu
[ -n "${TRACE_TEST:-}" ] && set -x
. "$(dirname "$0")/../support/scope_window_test.sh"
scope="$build/recorder_scope"
writer="$build/tests/writers/spike_writer"
export RECORDER_TRACES=spike=sig,

if [ "${1:-}" != inner ]; then
    work=$(mktemp -d)
    pid=""
    trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM
    fail() { echo "check-scope-trigger: $*"; sed 's/^/  scope: /' "$work"/*.err 2>/dev/null | tail -8; exit 1; }

    # ---- bad spellings: exit 2 and say why ----
    for bad in "--trigger sig=5" "--trigger >5" "--trigger sig>5x" \
               "--trigger sig>5 --trigger-mode once" "--trigger sig>5 --pre 150" \
               "--trigger-mode single"; do
        status=0
        # shellcheck disable=SC2086
        "$scope" $bad sig >/dev/null 2>"$work/bad.err" || status=$?
        [ "$status" = 2 ] || fail "'$bad' exited $status, not 2"
        grep -q "recorder_scope: .*\(expected\|needs\|no channel\|not a number\)" "$work/bad.err" ||
            fail "'$bad' gives no reason: $(head -1 "$work/bad.err")"
    done

    # ---- single: the span around the spike, 20% before it ----
    RECORDER_SHARE="$work/seg" "$writer" 1 6 2>/dev/null &
    pid=$!
    "$scope" -S "$work/seg" --csv "$work/spike.csv" --trigger 'sig>50' \
        --trigger-mode single --pre 20 --duration 5 -d 2 sig 2>"$work/spike.err" ||
        fail "the triggered capture failed"
    span=$(sed -n 's/.*triggered span \([-0-9.]*\) s to \([-0-9.]*\) s.*/\1 \2/p' "$work/spike.err")
    [ -n "$span" ] || fail "no triggered span said"
    awk -F, -v span="$span" '
        BEGIN { split(span, s, " "); t0 = s[1]; t1 = s[2] }
        NR == 1 { next }
        { n++; if ($1 < t0 - 1e-9 || $1 > t1 + 1e-9) out++
          if (n == 1) first = $1; last = $1
          if ($2 == 100 && !spike) spike = $1 }
        END {
            if (!n) { print "no rows"; exit 1 }
            if (out) { print out " rows outside the span " t0 " " t1; exit 1 }
            if (t1 - t0 < 1.999 || t1 - t0 > 2.001) { print "span " t1 - t0 " s, not 2"; exit 1 }
            if (first - t0 > 0.05 || t1 - last > 0.05) { print "rows " first " to " last " do not fill " t0 " to " t1; exit 1 }
            if (!spike) { print "no spike in the span"; exit 1 }
            at = (spike - t0) / (t1 - t0)
            if (at < 0.19 || at > 0.21) { print "spike at " at " of the span, not 0.2"; exit 1 }
        }' "$work/spike.csv" >"$work/why" || fail "$(cat "$work/why")"
    kill $pid 2>/dev/null || true
    wait 2>/dev/null || true

    # ---- a trigger that never fires: exit 1, said, within the timeout ----
    RECORDER_SHARE="$work/seg2" "$writer" 100 30 2>/dev/null &
    pid=$!
    began=$(date +%s)
    status=0
    "$scope" -S "$work/seg2" --png "$work/never.png" --trigger 'sig>500' \
        --trigger-mode single --duration 1.5 sig 2>"$work/never.err" || status=$?
    took=$(($(date +%s) - began))
    [ "$status" = 1 ] || fail "a trigger that never fired exited $status"
    grep -q "did not fire in 1.5 s" "$work/never.err" || fail "no 'did not fire' message"
    [ "$took" -le 6 ] || fail "took $took s with a 1.5 s timeout"
    [ ! -e "$work/never.png" ] || fail "wrote a PNG without a trigger"
    kill $pid 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
    pid=""
    trap - EXIT INT TERM
fi

window_test_skipped="window part skipped"
window_test check-scope-trigger 1280x1024 "xdotool import convert compare" "$@"
out="$work/scope.out"
window_test_trace=$out
last() { tail -n +"$(( ${2:-0} + 1 ))" "$out" | grep "^$1" | tail -1; }
lines() { wc -l <"$out"; }
expect() { mark=$1; shift; wait_for "[ -n \"\$(last '$1' $mark)\" ]"; }
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# The window is up before the spike, 4 s after the writer starts.
RECORDER_SHARE="$work/seg" "$scope" -S "$work/seg" -d 2 --trigger 'sig>50' \
    --trigger-mode single --pre 20 --trace-view -g 900x500 sig \
    >"$out" 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
wait_for 'find_window $scope_pid'
RECORDER_SHARE="$work/seg" "$build/tests/writers/spike_writer" 4 60 2>/dev/null &
pids="$pids $!"
wait_for 'grep -q "^trigger: armed" "$out"'
wait_for 'grep -q "^trigger: triggered" "$out"'
t=$(last "trigger: triggered" | awk '{ print $3 }')
near "$t" 4 0.5 || fail "triggered at $t, the spike is at about 4 s"
# The view is the span 20% before it.
wait_for '[ -n "$(last "view: paused")" ]'
span=$(last "view: paused")
a=$(echo "$span" | awk '{ print $3 }'); b=$(echo "$span" | awk '{ print $4 }')
near "$a" "$(awk -v t="$t" 'BEGIN { print t - 0.4 }')" 1e-5 &&
    near "$b" "$(awk -v t="$t" 'BEGIN { print t + 1.6 }')" 1e-5 ||
    fail "paused on $a..$b, not 0.4 s before $t to 1.6 s after"
grep -q "^trigger: triggered" "$out" && ! grep -q "^trigger: armed $t" "$out" ||
    fail "single mode re-armed by itself"

# Frozen: the plot does not move as data keeps coming; the marker is there.
xdotool mousemove --window "$wid" 5 5
sleep 0.5; import -window root "$work/frozen1.png"
sleep 1; import -window root "$work/frozen2.png"
convert "$work/frozen1.png" -crop 800x330+70+110 +repage "$work/f1.png"
convert "$work/frozen2.png" -crop 800x330+70+110 +repage "$work/f2.png"
diff_pixels=$(compare -metric AE "$work/f1.png" "$work/f2.png" null: 2>&1 || true)
[ "$diff_pixels" = 0 ] || fail "the triggered plot moved ($diff_pixels pixels)"
white=$(convert "$work/f1.png" -format %c histogram:info:- |
    awk 'toupper($0) ~ /#FFFFFF/ { n += $1 } END { print n + 0 }')
[ "$white" -gt 50 ] || fail "no trigger marker ($white white pixels)"
spike=$(convert "$work/f1.png" -format %c histogram:info:- |
    awk 'toupper($0) ~ /#FFCC33/ { n += $1 } END { print n + 0 }')
[ "$spike" -gt 100 ] || fail "the signal is not in the frozen plot ($spike pixels)"

# r re-arms: live again, armed.
m=$(lines)
xdotool key --window "$wid" r
expect "$m" "trigger: armed"
expect "$m" "view: live"
echo "check-scope-trigger: passed"
