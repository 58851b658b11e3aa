#!/bin/sh
# sanitized: skip
# A program whose name, recorder and tweak descriptions, formats and %+s
# strings carry terminal escapes (window title, clear screen, OSC 52
# clipboard write, C1 CSI): recorder_scope -l and -D must show them as
# visible \xNN, never send them raw, and keep UTF-8 text ("café") intact.
# (Skipped under sanitizers: it links a program of its own against the
# library; tests/segment/test_share_escape.c covers the escaping there.)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
scope="$build/recorder_scope"
work=$(mktemp -d)
writer=""
cleanup() {
    [ -n "$writer" ] && kill -9 "$writer" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-scope-escapes: $*"; exit 1; }
export RECORDER_SHARE="$work/segment"

cat >"$work/hostile.c" <<'EOF'
#include <recorder/recorder.h>
#include <stdio.h>
#include <unistd.h>

RECORDER(hostile, 64, "Title \033]0;pwned\007 and clear \033[2J");
RECORDER_TWEAK_DEFINE(hostile_tweak, 1, "Clipboard \033]52;c;cHduZWQ=\007");

int main(void)
{
    recorder_dump_on_common_signals(0, 0);      /* shares RECORDER_SHARE */
    record(hostile, "String %+s end", "\033]52;c;cHduZWQ=\007");
    record(hostile, "Format \033[2J, C1 \xc2\x9b" "31m, raw \x9b" "1m, bell \a");
    record(hostile, "Text %+s", "caf\xc3\xa9");
    fprintf(stderr, "ready\n");
    for (;;)
        pause();
}
EOF
${CC:-cc} -std=gnu11 -I"$top/include" "$work/hostile.c" -o "$work/hostile" \
    "$build/librecorder.a" -pthread -lrt -lunwind -ldw ||
    fail "cannot build the hostile program"
# Its name sets the terminal title too.
name=$(printf 'evil\033]0;name\007')
cp "$work/hostile" "$work/$name"

"$work/$name" 2>"$work/writer.err" &
writer=$!
for _ in $(seq 100); do
    grep -q ready "$work/writer.err" 2>/dev/null && break
    sleep 0.05
done
grep -q ready "$work/writer.err" || fail "the hostile program did not start"

"$scope" -l >"$work/list" 2>&1 || fail "-l failed: $(cat "$work/list")"
"$scope" -D >"$work/dump" 2>&1 || fail "-D failed: $(cat "$work/dump")"

# No ESC, BEL or C1 byte may reach the terminal: raw 0x9b, or U+009B.
for file in list dump; do
    if LC_ALL=C grep -q "$(printf '[\033\007\233]')" "$work/$file"; then
        fail "$file sends control characters raw:
$(od -c "$work/$file" | head -20)"
    fi
done
grep -qF 'evil\x1b]0;name\x07' "$work/list" || fail "-l: program name not escaped"
grep -qF 'Title \x1b]0;pwned\x07 and clear \x1b[2J' "$work/list" ||
    fail "-l: recorder description not escaped"
grep -qF 'Clipboard \x1b]52;c;cHduZWQ=\x07' "$work/list" ||
    fail "-l: tweak description not escaped"
grep -qF 'hostile: String \x1b]52;c;cHduZWQ=\x07 end' "$work/dump" ||
    fail "-D: %+s string not escaped"
grep -qF 'hostile: Format \x1b[2J, C1 \xc2\x9b31m, raw \x9b1m, bell \x07' \
    "$work/dump" || fail "-D: format not escaped"
grep -qF "hostile: Text $(printf 'caf\303\251')" "$work/dump" ||
    fail "-D: UTF-8 text changed"
echo "scope escapes: -l and -D show control characters as \\xNN, UTF-8 intact"
