#!/bin/sh
# sanitized: skip
# A program written for recorder 1.2, built from the public header alone
# and linked the 1.2 way, gets 1.2's matching and output: names that match
# regardless of case (traces, dumps, recorder_scope channels), a word for
# a name that matches nothing, recorder_location/recorder_function widths,
# recorder_abstime with the relative time, recorder_time_precision, show
# functions given lines without their newline, format functions given the
# function and "FILE:LINE:MESSAGE".
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
scope="$build/recorder_scope"
work=$(mktemp -d)
pids=""
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
unset DISPLAY WAYLAND_DISPLAY RECORDER_TRACES RECORDER_TWEAKS RECORDER_DUMP \
    RECORDER_SHARE 2>/dev/null || true

fail() { echo "check-compat-output: $*"; exit 1; }

cd "$work"
cat > compat.c <<'C'
/* compat.c - shaped like a program written for recorder 1.2. */
#include "recorder.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

RECORDER(MOVES, 64, "Moves of the towers, upper case as in hanoi_test");
RECORDER(transfer, 256, "Bytes per transfer");

/* 1.2's show functions got a line without its newline. */
static unsigned stdout_show(const char *text, size_t len, void *output)
{
    (void) output;
    return (unsigned) printf("<%.*s>\n", (int) len, text);
}

/* 1.2's format functions got the function and "FILE:LINE:MESSAGE". */
static void pipe_format(recorder_show_fn show, void *output,
                        const char *label, const char *location,
                        uintptr_t order, uintptr_t timestamp,
                        const char *message)
{
    char line[512];
    (void) order;
    (void) timestamp;
    int n = snprintf(line, sizeof(line), "%s|%s|%s", label, location,
                     message);
    show(line, (size_t) n, output);
}

static void moves(void)
{
    for (int i = 1; i <= 2; i++)
        record(MOVES, "Move %d from %d to %d", i, i, 3 - i); /* MOVE_LINE */
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    const char *mode = argc > 1 ? argv[1] : "trace";
    if (strcmp(mode, "hooks") == 0)
    {
        recorder_configure_show(stdout_show);
        recorder_configure_format(pipe_format);
        moves();
        recorder_dump_for("moves");
        return 0;
    }
    if (strcmp(mode, "export") == 0 && argc > 2)
    {
        for (int i = 0; i < 50; i++)
            record(transfer, "Sent %d bytes", 100 + i);
        while (access(argv[2], F_OK) != 0)
            usleep(20000);
        return 0;
    }
    moves();
    return 0;
}
C
cc -std=gnu11 -Wall -Wextra -Werror -I"$top/include/recorder" compat.c \
    -o compat -L"$build" -lrecorder -lpthread -lm -Wl,-rpath,"$build" ||
    fail "a 1.2-style program does not build"
line=$(grep -n 'MOVE_LINE' compat.c | cut -d: -f1)
quiet=recorder_order=0:recorder_reltime=0

# --- trace names regardless of case; nothing else on stderr -----------------
RECORDER_TRACES=moves RECORDER_TWEAKS=$quiet ./compat 2>err >/dev/null
printf 'MOVES: Move 1 from 1 to 2\nMOVES: Move 2 from 2 to 1\n' > expected
cmp -s err expected || fail "RECORDER_TRACES=moves printed: $(cat err)"

# --- a name that matches nothing is named -----------------------------------
RECORDER_TRACES='moves:nosuch' RECORDER_TWEAKS=$quiet ./compat 2>err >/dev/null
printf '%s\n' "recorder: no recorder or tweak matches 'nosuch' (kept for any activated later)" \
    'MOVES: Move 1 from 1 to 2' 'MOVES: Move 2 from 2 to 1' > expected
cmp -s err expected || fail "an unknown name gave: $(cat err)"

# --- recorder_location=N, recorder_function=-N: widths ----------------------
RECORDER_TRACES=MoVeS \
RECORDER_TWEAKS=$quiet:recorder_location=16:recorder_function=-7 \
    ./compat 2>err >/dev/null
printf '%16s%-7s:MOVES: Move 1 from 1 to 2\n%16s%-7s:MOVES: Move 2 from 2 to 1\n' \
    "compat.c:$line:" moves "compat.c:$line:" moves > expected
cmp -s err expected || fail "padded location and function: $(cat err)"

# --- recorder_abstime keeps the relative time; recorder_time_precision ------
RECORDER_TRACES=moves \
RECORDER_TWEAKS=recorder_order=0:recorder_abstime=1:recorder_time_precision=3 \
    ./compat 2>err >/dev/null
[ "$(wc -l < err)" -eq 2 ] || fail "abstime: $(cat err)"
grep -Eqx '\[[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3} [0-9]+\.[0-9]{3}\] MOVES: Move 1 from 1 to 2' err ||
    fail "abstime with precision 3: $(cat err)"

# --- show gets lines without newline; format gets function, FILE:LINE: ------
RECORDER_TWEAKS=recorder_location=1:recorder_function=1 ./compat hooks \
    >out 2>err
printf '<MOVES|moves|compat.c:%s:Move 1 from 1 to 2>\n<MOVES|moves|compat.c:%s:Move 2 from 2 to 1>\n' \
    "$line" "$line" > expected
cmp -s out expected || fail "custom show and format got: $(cat out)"

# --- recorder_scope: channels and dumps regardless of case ------------------
RECORDER_SHARE="$work/seg" RECORDER_TRACES='transfer=bytes,' \
    ./compat export "$work/stop" >/dev/null 2>&1 &
pids="$pids $!"
writer=$!
for _ in $(seq 200); do
    "$scope" -S "$work/seg" -l 2>/dev/null | grep -Eq '^  bytes .* 50 samples' &&
        break
    sleep 0.05
done
"$scope" -S "$work/seg" -l | grep -Eq '^  bytes .* 50 samples' ||
    fail "the program never exported 50 samples"
"$scope" -S "$work/seg" --csv "$work/bytes.csv" --duration 0 -d 0 BYTES \
    2>err || fail "capture of BYTES failed: $(cat err)"
head -1 bytes.csv | grep -qx 'time,bytes' ||
    fail "BYTES did not find channel bytes: $(head -1 bytes.csv)"
awk -F, 'NR > 1 && $2 != 98 + NR { bad = 1 } END { exit bad || NR != 51 }' \
    bytes.csv || fail "bytes.csv does not hold 100 to 149"
grep -q 'no channel matches' err && fail "BYTES said it matched nothing"
"$scope" -S "$work/seg" --csv "$work/none.csv" --duration 0 -d 0 NOPE \
    2>err || true
grep -qx "recorder_scope: no channel matches 'NOPE'" err ||
    fail "a channel regex that matches nothing was silent: $(cat err)"
"$scope" -S "$work/seg" -D TRANSFER > dump 2>err ||
    fail "-D TRANSFER failed: $(cat err)"
grep -q 'transfer: Sent 149 bytes$' dump ||
    fail "-D TRANSFER did not dump recorder transfer: $(cat dump err)"
touch "$work/stop"
wait "$writer" || fail "the exporting program failed"

echo "1.2 output: case-insensitive traces, channels and dumps, unmatched"
echo "names reported, widths, abstime and precision, show and format hooks: ok"
