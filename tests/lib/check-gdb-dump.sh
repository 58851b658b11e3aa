#!/bin/sh
# sanitized: skip
# 'p recorder_dump()' from gdb, in a stopped program, prints its records.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/stopped.c" <<'C'
#include <recorder/recorder.h>
#include <signal.h>
RECORDER(gdb_demo, 16, "Records gdb dumps");
int main(void)
{
    for (int i = 0; i < 3; i++)
        record(gdb_demo, "step %d of %+s", i, "three");
    raise(SIGTRAP);             /* stops under gdb */
    return 0;
}
C
cc -g -I"$top/include" "$work/stopped.c" -o "$work/stopped" \
    "$build/librecorder.a" -pthread -lrt -lunwind -ldw
gdb -q -batch -ex run -ex 'p recorder_dump()' "$work/stopped" \
    >"$work/gdb.out" 2>&1 || true
for step in 0 1 2; do
    grep -q "gdb_demo: step $step of three" "$work/gdb.out" ||
        { echo "check-gdb-dump: step $step missing:"; cat "$work/gdb.out"; exit 1; }
done
grep -q '^\$1 = 3$' "$work/gdb.out" || { echo "check-gdb-dump: no count"; exit 1; }
echo "p recorder_dump() from gdb: 3 records printed"
