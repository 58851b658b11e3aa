#!/bin/sh
# A file size limit ('ulimit -f') below the segment's size: the program
# runs without sharing, says why once, leaves no file behind (it used to
# die of SIGXFSZ at start, exit 153, leaving an empty file).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "check-share-file-limit: $*"; exit 1; }

status=0
(
    ulimit -f 2048                      # 1 or 2 MiB (512 or 1024-byte units)
    RECORDER_SHARE="$work/segment" RECORDER_TRACES=perfdata=bytes,loops \
        exec "$build/examples/perfdata" 50
) >"$work/out" 2>"$work/err" || status=$?
[ "$status" -eq 0 ] || fail "exit status $status: $(cat "$work/err")"
grep -q "perfdata: moved" "$work/out" || fail "the program did not finish"
[ "$(grep -c "^recorder: not sharing: .*file size limit (ulimit -f)" \
      "$work/err")" -eq 1 ] || fail "not said once: $(cat "$work/err")"
[ -z "$(ls -A "$work" | grep -v -e '^out$' -e '^err$')" ] ||
    fail "left behind: $(ls -A "$work")"
echo "ulimit -f below the segment size: runs without sharing, says why once: ok"
