#!/bin/sh
# As a user would: export channels from the perfdata example, list them,
# make it dump, kill it, read its flight recorder post-mortem; plus the
# errors recorder_scope gives when there is nothing to talk to.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
scope="$build/recorder_scope"
work=$(mktemp -d)
example=""
cleanup() {
    [ -n "$example" ] && kill -9 "$example" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
export RECORDER_SHARE="$work/segment"
fail() { echo "check-share-cli: $*"; exit 1; }

# Wait up to 10 s for a condition (a shell command), instead of sleeping.
wait_for() {
    deadline=$(($(date +%s) + 10))
    while ! eval "$1"; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $1"
        sleep 0.05
    done
}

RECORDER_TRACES=perfdata=bytes,loops "$build/examples/perfdata" \
    >"$work/example.out" 2>"$work/example.err" &
example=$!
for _ in $(seq 100); do
    [ -e "$RECORDER_SHARE" ] && "$scope" -l >/dev/null 2>&1 && break
    sleep 0.05
done

"$scope" -l >"$work/list" || fail "-l failed"
grep -Eq '^  bytes +unsigned +bytes ' "$work/list" || fail "-l lacks bytes: $(cat "$work/list")"
grep -Eq '^  loops +unsigned +iterations ' "$work/list" || fail "-l lacks loops"
grep -q "Creating new $RECORDER_SHARE" "$work/example.err" || fail "no creation message"

"$scope" -c dump || fail "-c dump failed"
wait_for "grep -q 'perfdata: Transferred .* bytes in .* iterations' '$work/example.err'"

"$scope" -c transfer_delay=50 && "$scope" -l | grep -Eq '^  transfer_delay +50 ' ||
    fail "tweak not set by -c"

# What the dump after the kill must end with, while it lives.
wait_for "'$scope' -D perfdata | tail -n 1 | grep -q 'perfdata: Transferred'"
kill -9 "$example"
wait "$example" 2>/dev/null || true
example=""
"$scope" -D perfdata >"$work/dump" 2>"$work/dump.err" || fail "-D failed after kill -9"
grep -q "died" "$work/dump.err" || fail "-D does not say the process died"
last=$(tail -n 1 "$work/dump")
echo "$last" | grep -Eq '^\[[0-9]+ [0-9]+\.[0-9]{6}\] perfdata: Transferred [0-9]+ bytes in [0-9]+ iterations$' ||
    fail "unexpected last line: $last"

if "$scope" -c dump 2>"$work/err"; then fail "-c to a dead process succeeded"; fi
grep -q "died" "$work/err" || fail "no reason given: $(cat "$work/err")"

rm -f "$RECORDER_SHARE"
set +e
"$scope" -l 2>"$work/err"; status=$?
set -e
[ "$status" = 1 ] || fail "missing segment: exit $status"
grep -q "No such file" "$work/err" || fail "missing segment: $(cat "$work/err")"

set +e
"$scope" --bogus >/dev/null 2>"$work/err"; status=$?
set -e
[ "$status" = 2 ] || fail "bad option: exit $status"
grep -q "Try 'recorder_scope --help'" "$work/err" ||
    fail "bad option: no pointer to --help"
echo "recorder_scope -l, -c, -D against a live then killed perfdata: ok"
