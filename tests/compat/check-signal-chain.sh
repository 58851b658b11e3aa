#!/bin/sh
# sanitized: skip  (builds its programs against the plain library)
# Programs written for recorder 1.2 that handle signals themselves, built
# from the public header only: the handler they installed before
# recorder_dump_on_common_signals() still runs, with its arguments, mask
# and flags (SIGBUS too, past the segment guard); a crash is reported only when nobody handles it or when the
# handler returns and the fault comes back; a program that repairs its
# faults and returns takes a thousand of them with no dump, no report and
# no recorder_symbolize run; recorder_signals_mask leaves a signal alone.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-signal-chain: $*"; exit 1; }
unset RECORDER_TRACES RECORDER_TWEAKS RECORDER_SHARE RECORDER_DUMP || true
export RECORDER_SYMBOLIZE="$build/recorder_symbolize"
ulimit -c 0

for program in signal_handler_12 fault_repair_12; do
    cc -Wall -Wextra -Werror -g -I"$top/include" \
        "$top/tests/compat/$program.c" -o "$work/$program" \
        "$build/librecorder.a" -lpthread -lm || fail "cannot build $program"
done
chain="$work/signal_handler_12"
cd "$work"

run() {     # run MODE: status in $status, stdout in out, stderr in err
    status=0
    timeout 20 "$chain" "$1" >out 2>err || status=$?
}
count() { grep -c "$1" "$2" || true; }

# The program's SA_SIGINFO handler ends the process: it ran, with the
# fault's address, a context, its sa_mask and the signal blocked. No crash
# report: the program took care of it.
run exit
[ "$status" = 3 ] || fail "exit: status $status, handler not run? $(cat out err)"
grep -qx "handler: signal 11 at (nil), context set, SIGUSR2 blocked, SIGSEGV blocked" out ||
    fail "exit: handler saw: $(cat out)"
! grep -q "Crashed at" err || fail "exit: a crash report: $(cat err)"

# A handler set with signal(): sa_handler, called with the signal number.
run signal
[ "$status" = 4 ] || fail "signal: status $status: $(cat out err)"
grep -qx "plain handler: SIGSEGV" out || fail "signal: $(cat out)"

# A handler that returns without repairing anything: it runs once, then
# the same fault at once is a crash, reported as one (dump, backtrace) and
# the process dies by SIGSEGV.
run return
[ "$status" = 139 ] || fail "return: status $status: $(cat out err)"
[ "$(count "returning handler: called" out)" = 1 ] ||
    fail "return: handler ran $(count "returning handler" out) times"
grep -q "app: Mode return" err || fail "return: no dump: $(cat err)"
grep -q "recorder_signals: The program's handler returned from SIGSEGV (11) at (nil), and it came back" err ||
    fail "return: does not say the fault came back: $(cat err)"
grep -q "^0/[0-9]* signal_handler_12 @ .* Crashed at file \".*signal_handler_12.c\", line [0-9]*, in main\$" err ||
    fail "return: no symbolized report: $(cat err)"

# SA_RESETHAND: the handler runs once, then the default action (with the
# crash report) takes the fault that comes back.
run resethand
[ "$status" = 139 ] || fail "resethand: status $status: $(cat out err)"
[ "$(count "returning handler: called" out)" = 1 ] ||
    fail "resethand: handler ran $(count "returning handler" out) times"
! grep -q "came back" err || fail "resethand: the handler was not reset"
grep -q "Crashed at" err || fail "resethand: no crash report: $(cat err)"

# A signal sent, handled by the program (SA_NODEFER): dump first, as 1.2
# did, then the handler, then the program goes on.
status=0
timeout 20 "$chain" quit >both 2>&1 || status=$?
[ "$status" = 0 ] || fail "quit: status $status: $(cat both)"
grep -q "recorder_signals: Received SIGQUIT (3)" both || fail "quit: no dump: $(cat both)"
dumped=$(grep -n "app: Mode quit" both | cut -d: -f1)
handled=$(grep -n "^quit handler: SIGQUIT open\$" both | cut -d: -f1)
[ -n "$dumped" ] && [ -n "$handled" ] && [ "$dumped" -lt "$handled" ] ||
    fail "quit: dump, then handler with SIGQUIT open (SA_NODEFER): $(cat both)"
grep -qx "went on after SIGQUIT" both || fail "quit: did not go on"

# SIGBUS: the segment guard repairs the shared segment truncated under the
# program (its handler is not called), and passes the program's own
# truncated mapping on to the program's handler.
status=0
RECORDER_SHARE="$work/segment" timeout 20 "$chain" bus "$work/mapped" \
    >out 2>err || status=$?
[ "$status" = 5 ] || fail "bus: status $status: $(cat out err)"
grep -qx "recorded after truncation" out || fail "bus: the segment was not repaired: $(cat out err)"
grep -qx "bus handler: BUS_ADRERR" out || fail "bus: handler: $(cat out)"
[ "$(count "bus handler" out)" = 1 ] || fail "bus: handler ran more than once: $(cat out)"
grep -q "truncated under us" err || fail "bus: the guard did not say so: $(cat err)"

# recorder_signals_mask without SIGQUIT: the library leaves it alone.
mask=$(( (1 << 3) | (1 << 4) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 10) |
         (1 << 11) | (1 << 12) | (1 << 16) | (1 << 24) | (1 << 25) |
         (1 << 30) | (1 << 31) ))
status=0
RECORDER_TWEAKS="recorder_signals_mask=$((mask & ~(1 << 3)))" \
    timeout 20 "$chain" quit >both 2>&1 || status=$?
[ "$status" = 0 ] || fail "quit excluded: status $status: $(cat both)"
grep -qx "quit handler: SIGQUIT open" both || fail "quit excluded: $(cat both)"
! grep -q "Received SIGQUIT" both || fail "quit excluded, still dumped"

# A thousand faults repaired by the program's handler: no dump, no report,
# no recorder_symbolize (a spy stands in for it), bounded output.
printf '#!/bin/sh\ntouch "%s/spied"\ncat >/dev/null\n' "$work" >spy
chmod +x spy
start=$(date +%s%N)
status=0
RECORDER_SYMBOLIZE="$work/spy" timeout 20 "$work/fault_repair_12" 1000 \
    >out 2>err || status=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$status" = 0 ] || fail "repair: status $status: $(cat out; head -c 2000 err)"
grep -qx "repaired 1000 of 1000 faults, 0 strays" out || fail "repair: $(cat out)"
[ ! -e spied ] || fail "repair: recorder_symbolize ran"
[ ! -s err ] || fail "repair: printed $(wc -c <err) bytes: $(head -c 2000 err)"

echo "signal chain: exit, signal, return, resethand, quit, bus, mask, 1000 repaired faults in $ms ms: ok"
