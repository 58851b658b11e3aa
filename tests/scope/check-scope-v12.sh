#!/bin/sh
# recorder_scope on the segment of a recorder 1.2 program (written by
# forge_v12_segment with 1.2's own layout): the listing, a headless CSV of
# known values, commands where the program reads them, the owner check,
# and clear errors, never a crash, for truncated and corrupt files.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
scope="$build/recorder_scope"
forge="$build/tests/writers/forge_v12_segment"
work=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
unset DISPLAY WAYLAND_DISPLAY RECORDER_SHARE
seg="$work/segment"

fail() { echo "check-scope-v12: $*"; exit 1; }

wait_for() {
    deadline=$(($(date +%s) + 10))
    while ! eval "$1"; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $1"
        sleep 0.05
    done
}

# Run the scope; STATUS and "$work/out", "$work/err" hold what it did. A
# crash (status above 128) always fails the test.
run() {
    status=0
    "$scope" "$@" >"$work/out" 2>"$work/err" || status=$?
    [ "$status" -lt 128 ] || fail "'$*' crashed (status $status)"
}

expect_error() {
    expected=$1
    shift
    run "$@"
    [ "$status" -eq 1 ] || fail "'$*' exited with $status, not 1"
    grep -qF -- "$expected" "$work/err" ||
        fail "'$*' did not say '$expected': $(cat "$work/err")"
}

# --- the listing: names, types, units, samples, min and max ------------------
"$forge" "$seg"
run -l -S "$seg"
[ "$status" -eq 0 ] || fail "-l exited with $status: $(cat "$work/err")"
for line in \
    "ramp +signed +steps +40 samples +min -10 max 29" \
    "ratio +real +x +40 samples +min 0 max 9.75" \
    "bytes +unsigned +B +15 samples +min 25000 max 39000" \
    "dev/temp +signed +- +40 samples +min 0 max 6"; do
    grep -Eq "^  $line\$" "$work/out" ||
        fail "-l does not list '$line': $(cat "$work/out")"
done
grep -q "exited" "$work/out" || fail "-l of a dead 1.2 program: $(head -1 "$work/out")"
grep -q "^Recorders and tweaks unavailable: a recorder 1.2 segment" \
    "$work/out" || fail "-l does not say why there are no recorders"

# --- headless: the CSV holds the values the program exported -----------------
run -S "$seg" --csv "$work/known.csv" --duration 0.3 -d 0 \
    ramp ratio bytes 'dev/temp'
[ "$status" -eq 0 ] || fail "headless capture exited $status: $(cat "$work/err")"
head -1 "$work/known.csv" | grep -qx "time,ramp,ratio,bytes,dev/temp" ||
    fail "CSV header: $(head -1 "$work/known.csv")"
[ "$(wc -l < "$work/known.csv")" -eq 41 ] ||
    fail "CSV has $(wc -l < "$work/known.csv") lines, not 41"
awk -F, 'NR > 1 {
        i = NR - 2
        if ($1 + 0 != i / 100) { print "time " $1 " at line " NR; bad = 1 }
        if ($2 != i - 10) { print "ramp " $2 " at line " NR; bad = 1 }
        if ($3 != i / 4) { print "ratio " $3 " at line " NR; bad = 1 }
        if (i < 25 && $4 != "") { print "bytes " $4 " at line " NR; bad = 1 }
        if (i >= 25 && $4 != 1000 * i) { print "bytes " $4 " at line " NR; bad = 1 }
        if ($5 != i % 7) { print "temp " $5 " at line " NR; bad = 1 }
    } END { exit bad }' "$work/known.csv" ||
    fail "the CSV does not hold the exported values"

# No flight recorder in a 1.2 segment: -D says so.
expect_error "no flight recorder to dump: a recorder 1.2 segment" -D -S "$seg"

# --- commands go where the 1.2 program reads them ----------------------------
"$forge" "$seg" --serve 30 >"$work/served" &
server=$!
wait_for "grep -q serving '$work/served'"
run -l -S "$seg"
grep -q "pid $server .*running" "$work/out" ||
    fail "-l of a live 1.2 program: $(head -1 "$work/out")"
run -c dump -c 'ramp=2' -S "$seg"
[ "$status" -eq 0 ] || fail "-c exited with $status: $(cat "$work/err")"
grep -qx "command: dump" "$work/served" &&
    grep -qx "command: ramp=2" "$work/served" ||
    fail "the program did not take the commands: $(cat "$work/served")"
# Byte for byte where 1.2's ring keeps them: after the 88-byte header.
[ "$(dd if="$seg" bs=1 skip=88 count=10 2>/dev/null)" = "dumpramp=2" ] ||
    fail "command bytes: $(od -c -j 88 -N 16 "$seg")"
kill "$server"
wait "$server" 2>/dev/null || true
server=""
expect_error "recorder 1.2 program exited" -c dump -S "$seg"

# A command ring whose indexes make no sense is not written to.
"$forge" "$seg" --corrupt commands --serve 30 >"$work/served" &
server=$!
wait_for "grep -q serving '$work/served'"
expect_error "command ring of this recorder 1.2 segment is corrupt" \
    -c dump -S "$seg"
kill "$server"
wait "$server" 2>/dev/null || true
server=""

# --- truncated and corrupt segments: a clear message, never a crash -------------
"$forge" "$seg"
cp "$seg" "$work/whole"
truncate -s 600 "$seg"
expect_error "truncated recorder 1.2 segment: 600 bytes" -l -S "$seg"
cp "$work/whole" "$seg"
truncate -s 2000 "$seg"
expect_error "corrupt recorder 1.2 segment: its newest channel" -l -S "$seg"
"$forge" "$seg" --corrupt head
expect_error "lies past the 8192 bytes of the file" -l -S "$seg"
"$forge" "$seg" --corrupt version
expect_error "recorder 1.x segment of version 0x10000" -l -S "$seg"
"$forge" "$seg" --corrupt 32bit
expect_error "written by a 32-bit recorder 1.2 program" -l -S "$seg"
# A bad channel is left out; the others still read.
for what in name ring loop; do
    "$forge" "$seg" --corrupt $what
    run -l -S "$seg"
    [ "$status" -eq 0 ] || fail "-l with a bad $what exited $status"
    [ "$(grep -c " samples" "$work/out")" -eq 3 ] ||
        fail "-l with a bad $what: $(cat "$work/out")"
done

# --- the owner check holds for 1.2 segments too ----------------------------------
if [ "$(id -u)" -eq 0 ]; then
    "$forge" "$seg"
    chown 65534 "$seg"
    expect_error "belongs to" -l -S "$seg"
    run -l --any-owner -S "$seg"
    [ "$status" -eq 0 ] && grep -q "^  ramp " "$work/out" ||
        fail "--any-owner does not read it: $(cat "$work/err")"
    grep -q "not by you: read as data only" "$work/out" ||
        fail "--any-owner does not say it reads as data only"
else
    echo "check-scope-v12: owner check skipped (not root)"
fi
echo "check-scope-v12: ok"
