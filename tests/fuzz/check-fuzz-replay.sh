#!/bin/sh
# Replay the fuzz seeds and the inputs of every crash fuzzing ever found
# through the fuzz targets, built as plain programs. Each target also holds
# every input to a cost bound (fuzz_common.h), and must leave no scratch
# directory behind.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac

# The targets make their segments under $TMPDIR: give them one of ours, and
# watch /tmp too, where a target that ignores TMPDIR would leave them.
scratch=$(mktemp -d)
before=$(mktemp)
trap 'rm -rf "$scratch" "$before"' EXIT INT TERM
ls -d /tmp/recorder_fuzz_* 2>/dev/null | sort > "$before" || true

for source in "$top"/tests/fuzz/fuzz_*.c; do
    name=$(basename "$source" .c)
    TMPDIR="$scratch" "$build/tests/fuzz/replay_$name" \
        "$top/tests/fuzz/seeds/$name" "$top/tests/fuzz/regressions/$name"
done

left=$(ls -A "$scratch")
new=$(ls -d /tmp/recorder_fuzz_* 2>/dev/null | sort | comm -13 "$before" - || true)
if [ -n "$left" ] || [ -n "$new" ]; then
    echo "FAIL: fuzz replays left scratch directories behind:" $left $new >&2
    # Those in /tmp are named, not removed: a concurrent run of another
    # checkout could have made them.
    exit 1
fi
echo "fuzz replays: no scratch directory left"
