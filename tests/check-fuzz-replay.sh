#!/bin/sh
# Replay the fuzz seeds and the inputs of every crash fuzzing ever found
# through the fuzz targets, built as plain programs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
for source in "$top"/tests/fuzz/fuzz_*.c; do
    name=$(basename "$source" .c)
    "$build/tests/replay_$name" "$top/tests/fuzz/seeds/$name" \
        "$top/tests/fuzz/regressions/$name"
done
