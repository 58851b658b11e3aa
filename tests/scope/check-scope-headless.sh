#!/bin/sh
# recorder_scope with no display: bad command lines, the headless capture
# (PNG and CSV of known values), waiting for the program, following it
# when it restarts, a corrupt segment.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-headless
feeder="$build/tests/writers/scope_feeder"
seg="$work/segment"
export RECORDER_TRACES=feed=ramp,wave,level


# Start the feeder: COUNT BASE; it records, then stays alive.
feed() {
    RECORDER_SHARE="$seg" "$feeder" "$1" "$2" >/dev/null 2>&1 &
    pids="$pids $!"
    last_feeder=$!
}


# Wait until the segment holds COUNT samples of ramp.
wait_samples() {
    for _ in $(seq 100); do
        if "$scope" -S "$seg" -l 2>/dev/null |
               grep -Eq "^  ramp .* $1 samples"; then
            return 0
        fi
        sleep 0.05
    done
    fail "the feeder never recorded $1 samples"
}

# Check that column 2 (ramp) of CSV $1 holds BASE..BASE+COUNT-1 from line
# FIRST on, and wave and level the feeder's values for them.
check_values() {
    awk -F, -v first="$2" -v count="$3" -v base="$4" '
        NR >= first && NR < first + count {
            i = NR - first
            if ($2 != base + i) { print "ramp " $2 " at line " NR; bad = 1 }
            if (NF >= 4 && $3 != (i * 37) % 101 - 50) {
                print "wave " $3 " at line " NR; bad = 1 }
            if (NF >= 4 && $4 != i / 4) { print "level " $4 " at line " NR; bad = 1 }
        }
        END { exit bad }' "$1" || fail "$1 does not hold the recorded values"
}

# --- bad command lines: exit status 2 and a clear message ------------------
expect_usage() {
    expected=$1
    shift
    status=0
    "$scope" "$@" >/dev/null 2>"$work/err" || status=$?
    [ "$status" -eq 2 ] || fail "'$*' exited with $status, not 2"
    grep -qF -- "$expected" "$work/err" ||
        fail "'$*' did not say '$expected': $(cat "$work/err")"
}
expect_usage "unknown option '-x'" -x
expect_usage "Try 'recorder_scope --help'" --bogus
expect_usage "-g '800y600'" -g 800y600 bytes
expect_usage "-r '100'" -r 100
expect_usage "-s 'delay=5:9:1': MIN must be below MAX" -s delay=5:9:1
expect_usage "-d 'soon'" -d soon
expect_usage "-w '-1'" -w -1
expect_usage "--png needs --duration" --png "$work/x.png"
"$scope" --help | grep -q -- "--png FILE" || fail "--help misses --png"

# --- nothing at the path: it says it waits, and exits 1 --------------------
status=0
"$scope" -S "$seg" --png "$work/none.png" --duration 0.3 2>"$work/err" ||
    status=$?
[ "$status" -eq 1 ] || fail "capture of nothing exited with $status"
grep -q "waiting for $seg" "$work/err" || fail "no 'waiting for' message"
[ ! -e "$work/none.png" ] || fail "a PNG was written for nothing"
grep -q "no segment appeared; nothing written" "$work/err" ||
    fail "no word that nothing was written: $(cat "$work/err")"

# --- a capture holds exactly the recorded values ---------------------------
feed 300 1000
wait_samples 300
"$scope" -S "$seg" --png "$work/known.png" --csv "$work/known.csv" \
    --duration 0.3 -d 0 -g 800x300 'ramp|wave|level' 2>"$work/err" ||
    fail "capture failed: $(cat "$work/err")"
[ "$(identify -format '%w %h' "$work/known.png")" = "800 300" ] ||
    fail "PNG is not 800x300"
head -1 "$work/known.csv" | grep -qx "time,ramp,wave,level" ||
    fail "CSV header: $(head -1 "$work/known.csv")"
[ "$(wc -l < "$work/known.csv")" -eq 301 ] ||
    fail "CSV has $(wc -l < "$work/known.csv") lines, not 301"
check_values "$work/known.csv" 2 300 1000
# Each channel's colour is in the picture: amber, red, green.
convert "$work/known.png" -format %c histogram:info:- > "$work/histogram"
for colour in FFCC33 FF5C5C 4CD964; do
    count=$(grep -i "#$colour" "$work/histogram" | awk -F: '{ print $1 + 0 }')
    [ "${count:-0}" -gt 150 ] ||
        fail "colour #$colour has ${count:-0} pixels in the capture"
done
kill "$last_feeder"
wait "$last_feeder" 2>/dev/null || true

# --- started before the program: waits, then captures it ------------------
rm -f "$seg"
"$scope" -S "$seg" --csv "$work/late.csv" --duration 2 -d 0 ramp \
    2>"$work/late.err" &
capture=$!
pids="$pids $capture"
wait_for "grep -q 'waiting for $seg' '$work/late.err'"
feed 100 2000
wait "$capture" || fail "late capture failed: $(cat "$work/late.err")"
grep -q "waiting for $seg" "$work/late.err" || fail "no 'waiting for' message"
check_values "$work/late.csv" 2 100 2000
kill "$last_feeder"
wait "$last_feeder" 2>/dev/null || true

# --- the program restarts: the capture follows the new process -------------
rm -f "$seg" "$seg.prev"
feed 50 100
wait_samples 50
"$scope" -S "$seg" --csv "$work/restart.csv" --duration 2.5 -d 0 ramp \
    2>"$work/restart.err" &
capture=$!
pids="$pids $capture"
# It attached to the first process (and read its samples) before that ends.
wait_for "grep -q 'running' '$work/restart.err'"
kill "$last_feeder"
wait "$last_feeder" 2>/dev/null || true
feed 50 700
wait "$capture" || fail "restart capture failed: $(cat "$work/restart.err")"
check_values "$work/restart.csv" 2 50 100
check_values "$work/restart.csv" 52 50 700
[ "$(grep -c "running" "$work/restart.err")" -eq 2 ] ||
    fail "did not follow the second process: $(cat "$work/restart.err")"
kill "$last_feeder"

# --- times read during the writer's first second equal later reads --------
# (it calibrates its clock during that second: times must not move)
rm -f "$seg" "$seg.prev"
feed 1500 0
"$scope" -S "$seg" --csv "$work/live.csv" --duration 2.2 -d 0 ramp 2>/dev/null
"$scope" -S "$seg" --csv "$work/after.csv" --duration 0 -d 0 ramp 2>/dev/null
kill "$last_feeder"
[ "$(wc -l < "$work/live.csv")" -eq 1501 ] || fail "live capture lost samples"
paste -d, "$work/live.csv" "$work/after.csv" | awk -F, 'NR > 1 {
        if ($1 != $3) { print "line " NR ": " $1 " then " $3; exit 1 }
    }' || fail "times kept live differ from a later read"

# --- a corrupt segment: an error and exit 1, never a crash ------------------
head -c 200000 /dev/urandom > "$work/corrupt"
status=0
"$scope" -S "$work/corrupt" --png "$work/corrupt.png" --duration 1.3 \
    2>"$work/err" || status=$?
[ "$status" -eq 1 ] || fail "corrupt segment: exit status $status"
grep -q "not a recorder segment" "$work/err" ||
    fail "corrupt segment: $(cat "$work/err")"
[ ! -e "$work/corrupt.png" ] || fail "a PNG was written for a corrupt file"

echo "headless capture, exact CSV, colours, waiting, restart, tick calibration,"
echo "corrupt segment, bad options: ok"
