#!/bin/sh
# sanitized: skip
# A program shaped as QEMU's recorder trace back-end generates it: a trace
# header declaring each event's recorder (RECORDER_DECLARE), and a .c file
# that includes it and defines them (RECORDER_DEFINE), 1 500 of them, plus
# a tweak and a ring declared and defined the same way. QEMU builds with
# -Wredundant-decls and may use -Werror: the build must be warning-free
# with gcc and clang, as C and as C++, and the program must run.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-qemu-shaped-build

[ -e "$build/librecorder.a" ] ||
    (cd "$top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
         make -s BUILD="$build" "$build/librecorder.a" >/dev/null)

events=1500
sh "$top/tests/support/qemu_shaped_sources.sh" "$work" $events
cat > "$work/main.c" <<'EOF'
#include "trace.h"
#include <string.h>
int main(void)
{
    trace_event_7(3, 4096);
    int in = RECORDER_TWEAK(trace_tweak), out = 0;
    trace_ring_write(&in, 1);
    trace_ring_read(&out, 1);
    record(event_1499, "last %d", out);
    return recorder_dump_for("event_7|event_1499") == 2 ? 0 : 1;
}
EOF

flags="-Wall -Wextra -Wredundant-decls -Werror -I$top/include"
built=0
for compiler in gcc clang g++ clang++; do
    command -v "$compiler" >/dev/null || { echo "  $compiler: not installed"; continue; }
    case "$compiler" in *++) language="-x c++" ;; *) language="-x c" ;; esac
    out="$work/qemu-$compiler"
    # shellcheck disable=SC2086
    if ! $compiler $flags $language "$work/trace.c" $language "$work/main.c" \
            -x none "$build/librecorder.a" -pthread -o "$out" \
            2>"$out.log"; then
        fail "$compiler: $(grep -c 'warning\|error' "$out.log") diagnostics," \
             "first: $(grep -m1 'warning\|error' "$out.log")"
    fi
    "$out" >"$out.run" 2>&1 || fail "$compiler: the program failed: $(cat "$out.run")"
    grep -q "event_7: event_7 fd 3 size 4096" "$out.run" &&
        grep -q "event_1499: last 3" "$out.run" ||
        fail "$compiler: its dump: $(cat "$out.run")"
    built=$((built + 1))
done
[ "$built" -gt 0 ] || fail "no compiler built it"
echo "check-qemu-shaped-build: $events recorders declared and defined," \
     "no diagnostic with -Wredundant-decls -Werror ($built compilers)"
