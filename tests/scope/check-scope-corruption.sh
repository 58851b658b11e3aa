#!/bin/sh
# The headless scope reads a segment that another process keeps corrupting
# at random: it must neither crash nor hang, and must say what is wrong.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
work=$(mktemp -d)
pids=""
cleanup() {
    for pid in $pids; do kill -9 "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-scope-corruption: $*"; exit 1; }
export RECORDER_SHARE="$work/segment"

RECORDER_TRACES=perfdata=bytes,loops "$build/examples/perfdata" >/dev/null 2>&1 &
pids="$!"
for _ in $(seq 100); do
    "$build/recorder_scope" -l >/dev/null 2>&1 && break
    sleep 0.05
done

# Corrupter: random bytes at random places, a few thousand times a second,
# including the header, for as long as the scope runs.
python3 - "$RECORDER_SHARE" <<'PY' &
import os, random, sys, time
path = sys.argv[1]
size = os.path.getsize(path)
random.seed(1)
end = time.time() + 6
with open(path, "r+b") as f:
    while time.time() < end:
        where = random.choice([random.randrange(0, 512),
                               random.randrange(0, size)])
        f.seek(where)
        f.write(os.urandom(random.randint(1, 16)))
        f.flush()
        time.sleep(0.0003)
PY
pids="$pids $!"

set +e
env -u DISPLAY -u WAYLAND_DISPLAY timeout 30 "$build/recorder_scope" \
    --png "$work/out.png" --csv "$work/out.csv" --duration 4 bytes loops \
    >"$work/scope.out" 2>"$work/scope.err"
status=$?
set -e
[ "$status" -le 1 ] || fail "scope died with status $status: $(tail -3 "$work/scope.err")"
[ -s "$work/out.png" ] || fail "no PNG written"
if [ "$status" = 1 ]; then
    grep -Eq "not a recorder segment|corrupt|truncated|outside the file" \
        "$work/scope.err" || fail "exit 1 without saying why: $(cat "$work/scope.err")"
fi
echo "headless scope over a segment corrupted at random: exit $status, no crash"
sed -n '1,3p' "$work/scope.err"
