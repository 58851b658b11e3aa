#!/bin/sh
# Headless captures as a CI job uses them: --duration N without -d shows a
# span of N seconds (the image is not half empty, the CSV spans N s); the
# CSV has the columns of the views each channel has on; a CSV with no row
# says why on stderr and exits 1; --theme light gives a light image, the
# default a dark one.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
for tool in convert identify; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "check-scope-captures: skipped, $tool is not installed"
        exit 0
    fi
done
scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"
work=$(mktemp -d)
pids=""
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -n "${KEEP_SHOTS:-}" ] && cp "$work"/*.png "$KEEP_SHOTS"/ 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
unset DISPLAY WAYLAND_DISPLAY
seg="$work/segment"
export RECORDER_TRACES=feed=ramp,wave,level

fail() { echo "check-scope-captures: $*"; exit 1; }

feed() {
    RECORDER_SHARE="$seg" "$feeder" "$1" "$2" >/dev/null 2>&1 &
    pids="$pids $!"
    last_feeder=$!
}

# Pixels of colour $2 (hex) in image $1, within geometry $3 (WxH+X+Y).
pixels() {
    convert "$1" -crop "$3" +repage -format %c histogram:info:- |
        awk -v colour="#$2" 'toupper($0) ~ colour { n += $1 } END { print n + 0 }'
}

# --- started with the program: a 2 s capture shows 2 s, not 10 -----------
# The plot of a 900 px image runs from x = 66 to 884: its left quarter
# holds the ramp (amber) when the span is the capture's.
"$scope" -S "$seg" --png "$work/fresh.png" --duration 2 ramp \
    2>"$work/fresh.err" &
capture=$!
pids="$pids $capture"
feed 100000 0
wait "$capture" || fail "capture failed: $(cat "$work/fresh.err")"
left=$(pixels "$work/fresh.png" FFCC33 200x240+66+40)
[ "$left" -gt 20 ] ||
    fail "the left quarter of the plot is empty ($left amber pixels)"

# --- with history: the CSV spans the 2 s of --duration, as the image ------
"$scope" -S "$seg" --csv "$work/span.csv" --duration 2 ramp \
    2>"$work/span.err" || fail "capture failed: $(cat "$work/span.err")"
awk -F, 'NR == 2 { first = $1 } END { span = $1 - first
        if (span < 1.8 || span > 2.01) { print "span " span; exit 1 } }' \
    "$work/span.csv" || fail "the CSV does not span 2 s"

# --- each channel has the columns of its own views -------------------------
# ramp: values; level: timing only (-n turns values off, -t timing on).
"$scope" -S "$seg" --csv "$work/views.csv" --duration 0.3 ramp -n -t level \
    2>"$work/views.err" || fail "capture failed: $(cat "$work/views.err")"
head -1 "$work/views.csv" | grep -qx "time,ramp,level.interval_us" ||
    fail "CSV header: $(head -1 "$work/views.csv")"
# Shortest exact numbers: the ramp's integers as integers (not 17 digits,
# not 3.84e+03).
awk -F, 'NR > 1 && $2 != "" && $2 !~ /^[0-9]+$/ { print; exit 1 }' \
    "$work/views.csv" || fail "the ramp is not written as integers"

# --- a CSV with no row says why, and the job fails -------------------------
status=0
"$scope" -S "$seg" --csv "$work/empty.csv" --duration 0.3 no_such_channel \
    2>"$work/empty.err" || status=$?
[ "$status" -eq 1 ] || fail "an empty CSV exited with $status"
grep -q "wrote $work/empty.csv with no rows: no channel to export" \
    "$work/empty.err" || fail "no reason for the empty CSV: $(cat "$work/empty.err")"
[ "$(cat "$work/empty.csv")" = time ] || fail "empty CSV: $(cat "$work/empty.csv")"
status=0
"$scope" -S "$work/nothing" --csv "$work/none.csv" --duration 0.2 \
    2>"$work/none.err" || status=$?
[ "$status" -eq 1 ] || fail "a CSV of nothing exited with $status"
grep -q "no segment appeared; nothing written" "$work/none.err" ||
    fail "no reason for the CSV of nothing: $(cat "$work/none.err")"
[ ! -e "$work/none.csv" ] || fail "a CSV of nothing was written"
# A file that is no segment: its reason at once, as -l gives it; no file.
head -c 5000 /dev/urandom >"$work/corrupt"
touch -d '1 minute ago' "$work/corrupt"
status=0
"$scope" -S "$work/corrupt" --png "$work/corrupt.png" --duration 20 \
    2>"$work/corrupt.err" || status=$?
[ "$status" -eq 1 ] || fail "a capture of a corrupt file exited with $status"
"$scope" -S "$work/corrupt" -l 2>"$work/corrupt.l" >/dev/null || true
grep -qF "$(cat "$work/corrupt.l")" "$work/corrupt.err" ||
    fail "the capture's reason differs from -l's: $(cat "$work/corrupt.err")"
[ ! -e "$work/corrupt.png" ] || fail "a PNG was written for a corrupt file"

# --- themes: dark by default, light on request -----------------------------
"$scope" -S "$seg" --png "$work/light.png" --duration 0.3 --theme light ramp \
    2>/dev/null || fail "light capture failed"
"$scope" -S "$seg" --png "$work/dark.png" --duration 0.3 ramp 2>/dev/null ||
    fail "dark capture failed"
area=$((900 * 300))
light=$(( $(pixels "$work/light.png" F6F5F4 900x300+0+0) +
          $(pixels "$work/light.png" FFFFFF 900x300+0+0) ))
[ "$light" -gt $((area * 3 / 4)) ] || fail "light capture: $light light pixels"
dark=$(( $(pixels "$work/dark.png" 14161B 900x300+0+0) +
         $(pixels "$work/dark.png" 1B1E25 900x300+0+0) ))
[ "$dark" -gt $((area * 3 / 4)) ] || fail "dark capture: $dark dark pixels"
[ "$(pixels "$work/light.png" B38000 900x300+0+0)" -gt 150 ] ||
    fail "the light capture has no ramp in the light palette's amber"
echo "capture span from --duration, CSV columns by views, empty CSV says why,"
echo "light and dark captures: ok"
