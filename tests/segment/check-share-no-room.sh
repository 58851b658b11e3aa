#!/bin/sh
# No room for the segment: a file size limit ('ulimit -f') below its size,
# or a full file system. The program runs without sharing, says why once,
# leaves no file behind (under ulimit -f it used to die of SIGXFSZ at
# start, exit 153, leaving an empty file).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "check-share-no-room: $*"; exit 1; }

# Run perfdata sharing in directory $1 (limits set by the caller); check it
# ran, said "$2" once, and left nothing in $1.
check_run() {
    [ "$status" -eq 0 ] || fail "$3: exit status $status: $(cat "$work/err")"
    grep -q "perfdata: moved" "$work/out" || fail "$3: the program did not finish"
    [ "$(grep -c "^recorder: not sharing: .*$2" "$work/err")" -eq 1 ] ||
        fail "$3: not said once: $(cat "$work/err")"
    [ -z "$(ls -A "$1")" ] || fail "$3: left behind: $(ls -A "$1")"
}

mkdir "$work/limited"
status=0
(
    ulimit -f 2048                      # 1 or 2 MiB (512 or 1024-byte units)
    RECORDER_SHARE="$work/limited/segment" RECORDER_TRACES=perfdata=bytes,loops \
        exec "$build/examples/perfdata" 50
) >"$work/out" 2>"$work/err" || status=$?
check_run "$work/limited" "file size limit (ulimit -f)" "ulimit -f"

# A full file system: a 1 MiB tmpfs, in a mount namespace of its own (it
# goes away with the process).
mkdir "$work/full"
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
    echo "SKIP: full file system (needs root and unshare -m)"
else
    status=0
    unshare -m sh -c '
        mount -t tmpfs -o size=1m none "$1" || exit 99
        RECORDER_SHARE="$1/segment" RECORDER_TRACES=perfdata=bytes,loops \
            "$2/examples/perfdata" 50
        status=$?
        ls -A "$1" >"$3/left"
        exit $status' sh "$work/full" "$build" "$work" \
        >"$work/out" 2>"$work/err" || status=$?
    [ "$status" -ne 99 ] || fail "cannot mount a tmpfs: $(cat "$work/err")"
    [ ! -s "$work/left" ] || fail "full: left behind: $(cat "$work/left")"
    check_run "$work/full" "cannot reserve .*No space left on device" "full"
fi
echo "no room for the segment (ulimit -f, full file system): runs without"
echo "sharing, says why once, leaves no file: ok"
