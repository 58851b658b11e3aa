#!/bin/sh
# A view bounds a headless capture by itself: --csv/--png with --view
# FROM:TO and no --duration wait for the span if it lies ahead, then write
# exactly its samples; --duration is then only a timeout, and one that runs
# out says how far the samples got and writes no file.
set -eu
. "$(dirname "$0")/shell_test.sh"
shell_test check-scope-view-capture
feeder="$build/tests/scope_feeder"

# 3 s of a ramp, one sample a millisecond; the captures start at once, so
# the span 1..2 s lies ahead of them.
RECORDER_SHARE="$work/seg" RECORDER_TRACES=feed=ramp, \
    "$feeder" 3000 1000 30 >/dev/null 2>&1 &
pids="$pids $!"
wait_for "[ -e '$work/seg' ]"
"$scope" -S "$work/seg" --view 1:2 --csv "$work/span.csv" ramp \
    2>"$work/span.err" || fail "--view capture failed: $(cat "$work/span.err")"
"$scope" -S "$work/seg" --view 1:2 --png "$work/span.png" ramp \
    2>"$work/png.err" || fail "--view --png failed: $(cat "$work/png.err")"
[ -s "$work/span.png" ] || fail "no PNG written"

# The same span cut from the whole history, read once the ramp is done.
"$scope" -S "$work/seg" -d 0 --csv "$work/all.csv" --view 0:2.5 ramp \
    2>/dev/null || fail "the whole history could not be captured"
awk -F, 'NR > 1 && $1 >= 1 && $1 <= 2' "$work/all.csv" >"$work/expected"
tail -n +2 "$work/span.csv" >"$work/got"
[ "$(wc -l <"$work/expected")" -gt 500 ] ||
    fail "only $(wc -l <"$work/expected") samples in 1..2 s"
cmp -s "$work/expected" "$work/got" ||
    fail "the span captured ahead is not the samples of 1..2 s" \
         "($(wc -l <"$work/got") rows, $(wc -l <"$work/expected") expected)"

# A span the program never reaches: the timeout says so, writes nothing.
status=0
"$scope" -S "$work/seg" --view 100:200 --duration 0.5 --csv "$work/none.csv" \
    ramp 2>"$work/none.err" || status=$?
[ "$status" = 1 ] || fail "an unreached span exited $status, not 1"
grep -q "not the end of the span (200.000000 s) within --duration" \
    "$work/none.err" || fail "the timeout is not explained: $(cat "$work/none.err")"
[ ! -e "$work/none.csv" ] || fail "a CSV was left for a span never reached"
echo "check-scope-view-capture: a span ahead waited for and written exactly" \
     "($(wc -l <"$work/got") rows); an unreached one reported, no file"
