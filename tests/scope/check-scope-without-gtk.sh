#!/bin/sh
# recorder_scope on a machine without GTK, as on a server reached by ssh:
# the program links no libgtk-4, and in a mount namespace where the GTK
# library file is hidden (an empty file bound over it) every mode that
# needs no window works: -L, -l, -D (text, chrome-json, ctf), -c, --csv,
# --png, --metrics. A window request then fails with one line saying GTK
# is missing, exit 1. Needs root for the namespace.
# sanitized: skip (the sanitizer runtimes load libraries of their own)
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-without-gtk
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
    echo "SKIP: needs root and unshare for a mount namespace"
    exit 0
fi
if ldd "$scope" | grep -q libgtk; then
    fail "recorder_scope links GTK: $(ldd "$scope" | grep libgtk)"
fi
gtk=$(ldd "$build/recorder_scope_window" | awk '/libgtk-4/ { print $3 }')
[ -n "$gtk" ] || fail "recorder_scope_window does not link libgtk-4"
gtk=$(readlink -f "$gtk")
: >"$work/empty"

RECORDER_SHARE="$work/seg" RECORDER_TRACES=feed=ramp, \
    "$build/tests/writers/scope_feeder" 1 1000 60 2>/dev/null &
pids="$pids $!"
wait_for '[ -s "$work/seg" ]'
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# Everything below runs where libgtk-4 cannot be loaded.
cat >"$work/inside.sh" <<'INSIDE'
set -eu
mount --bind "$work/empty" "$gtk"
fail() { echo "check-scope-without-gtk: $*"; exit 1; }
if "$build/recorder_scope_window" --help >/dev/null 2>&1; then
    fail "GTK is not hidden: the window program still starts"
fi
run() {
    "$scope" -S "$work/seg" "$@" >"$work/out" 2>"$work/err" ||
        fail "'$*' failed without GTK: $(cat "$work/err")"
}
run -L;        grep -q "scope_feeder" "$work/out" || fail "-L: $(cat "$work/out")"
run -l;        grep -q "ramp" "$work/out" || fail "-l: $(cat "$work/out")"
run -D;        grep -q "feed" "$work/out" || fail "-D: $(cat "$work/out")"
run -D --format chrome-json
grep -q traceEvents "$work/out" || fail "chrome-json: $(head -c 300 "$work/out")"
run -D --format ctf --output "$work/ctf"
[ -s "$work/ctf/metadata" ] || fail "--format ctf wrote no metadata"
run -c feed_gain=3
run -l;        grep -q "feed_gain *3 " "$work/out" || fail "-c did not apply"
run --csv "$work/out.csv" --duration 0.3 ramp
[ -s "$work/out.csv" ] || fail "--csv wrote nothing"
run --png "$work/out.png" --duration 0.3 ramp
[ -s "$work/out.png" ] || fail "--png wrote nothing"
"$scope" -S "$work/seg" --metrics "127.0.0.1:$port" ramp 2>"$work/metrics.err" &
metrics=$!
python3 - "$port" <<'FETCH' || { kill "$metrics"; fail "--metrics: $(cat "$work/metrics.err")"; }
import sys, time, urllib.request
for _ in range(100):
    try:
        text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1]).read().decode()
        sys.exit(0 if "ramp" in text else 1)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
FETCH
kill "$metrics"

# The window: one line, naming what is missing.
status=0
"$scope" -S "$work/seg" ramp >"$work/out" 2>"$work/err" || status=$?
[ "$status" = 1 ] || fail "a window request without GTK exited $status"
[ "$(wc -l <"$work/err")" = 1 ] || fail "not one line: $(cat "$work/err")"
grep -q "^recorder_scope: the window needs GTK 4, which is missing here" \
    "$work/err" || fail "the window request says: $(cat "$work/err")"
INSIDE
work="$work" gtk="$gtk" build="$build" scope="$scope" port="$port" \
    unshare -m sh "$work/inside.sh" ||
    fail "(in a mount namespace without $gtk)"
echo "check-scope-without-gtk: -L, -l, -D, -c, --csv, --png, --metrics and" \
     "the exports run without libgtk-4; a window request says GTK is missing"
