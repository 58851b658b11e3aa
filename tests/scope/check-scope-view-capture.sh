#!/bin/sh
# A view bounds a headless capture by itself: --csv/--png with --view
# FROM:TO and no --duration wait for the span if it lies ahead, then write
# exactly its samples; --duration is then only a timeout, and one that runs
# out says how far the samples got and writes no file. A program that ends
# in the span leaves what it recorded of it; one that ended before it, or a
# regex that finds nothing, leaves no file.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-view-capture
feeder="$build/tests/writers/scope_feeder"

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
# Every sample of the span, none skipped: the ramp steps by one.
awk -F, 'NR > 1 && $2 != last + 1 { exit 1 } { last = $2 }' \
    "$work/got" || fail "the span captured skips samples of the ramp"

# A span the program never reaches: the timeout says so, writes nothing.
status=0
"$scope" -S "$work/seg" --view 100:200 --duration 0.5 --csv "$work/none.csv" \
    ramp 2>"$work/none.err" || status=$?
[ "$status" = 1 ] || fail "an unreached span exited $status, not 1"
grep -q "not the end of the span (200.000000 s) within --duration" \
    "$work/none.err" || fail "the timeout is not explained: $(cat "$work/none.err")"
[ ! -e "$work/none.csv" ] || fail "a CSV was left for a span never reached"

# A channel regex that finds nothing: named, and no file.
status=0
"$scope" -S "$work/seg" --view 1:2 --duration 0.2 --csv "$work/typo.csv" \
    rampp 2>"$work/typo.err" || status=$?
[ "$status" = 1 ] || fail "a regex that finds nothing exited $status, not 1"
grep -q "no channel matches 'rampp'" "$work/typo.err" &&
    grep -q -- "--view: no sample came within --duration 0.2 s; nothing" \
        "$work/typo.err" || fail "the empty capture is not explained:" \
                                 "$(cat "$work/typo.err")"
[ ! -e "$work/typo.csv" ] || fail "a CSV was left with no sample"

# A program that ends inside the span leaves what it recorded of it; one
# that ended before the span began leaves nothing to write.
RECORDER_SHARE="$work/short" RECORDER_TRACES=feed=ramp, \
    "$feeder" 1300 1000 0.2 >/dev/null 2>&1 &
pids="$pids $!"
wait_for "[ -e '$work/short' ]"
"$scope" -S "$work/short" --view 1:100 --csv "$work/tail.csv" ramp \
    2>"$work/tail.err" || fail "a span the program ended in:" \
                               "$(cat "$work/tail.err")"
ended="--view: the program ended at [0-9.]* s"
grep -q -- "$ended, before the end of the span" "$work/tail.err" ||
    fail "the early end is not said: $(cat "$work/tail.err")"
[ "$(tail -n 1 "$work/tail.csv" | cut -d, -f2)" = 2299 ] ||
    fail "the last sample (2299) is not the CSV's last row:" \
         "$(tail -n 1 "$work/tail.csv")"
awk -F, 'NR > 1 && $1 < 1 { exit 1 }' "$work/tail.csv" ||
    fail "samples before the span were written"
for format in csv png; do
    status=0
    "$scope" -S "$work/short" --view 50:60 --$format "$work/late.$format" \
        ramp 2>"$work/late.err" || status=$?
    [ "$status" = 1 ] || fail "--$format of a span never reached exited $status"
    grep -q -- "$ended, before the span began (50.000000 s); nothing written" \
        "$work/late.err" || fail "the span never reached is not said:" \
                                 "$(cat "$work/late.err")"
    [ ! -e "$work/late.$format" ] || fail "a --$format of a span never reached"
done

echo "check-scope-view-capture: a span ahead waited for and written exactly" \
     "($(wc -l <"$work/got") rows); an unreached one, a typo, a program" \
     "ended before it: reported, no file; one ended inside it: its samples"
