#!/bin/sh
# sanitized: skip  (UBSan stops the example's null store and division by zero before they fault)
# As a user would: crash the example, check it printed its flight recorder
# and a symbolized, tagged backtrace, and died by its signal; read the same
# report from its segment with recorder_scope -D; run the cross-process
# chain example; then crash it 100 times in a row, each run bounded.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case $build in /*) ;; *) build="$top/$build" ;; esac
crash="$build/examples/crash"
rpc="$build/examples/backtrace_rpc"
scope="$build/recorder_scope"
source="share/examples/crash.c"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-crash: $*"; exit 1; }
host=$(uname -n)
line_of() { grep -n "$1" "$top/$source" | cut -d: -f1; }
unset RECORDER_TRACES RECORDER_SYMBOLIZE RECORDER_SHARE || true

# The default crash: SIGFPE in divide, inlined into average, into main.
cd "$work"
status=0
RECORDER_SHARE="$work/segment" "$crash" >out 2>err || status=$?
[ "$status" = 136 ] || fail "expected death by SIGFPE (136), got $status: $(cat err)"
grep -q "crash: Dividing 0 by 0" err || fail "no flight recorder dump: $(cat err)"
grep -q "^crash @ $host Received SIGFPE (integer divide by zero) at address 0x" err ||
    fail "no signal line: $(cat err)"
expect() {
    grep -q "^$1/[0-9]* crash @ $host $2 file \"$source\", line $3, in $4\$" err ||
        fail "frame $1 should be line $3 in $4: $(grep "^$1/" err)"
}
expect 0 "Crashed at" "$(line_of 'crash: fpe')" divide
expect 1 "Called from" "$(line_of 'call: average')" average
expect 2 "Called from" "$(line_of 'call: main')" main
# Dump first, then the report.
dump=$(grep -n "crash: Dividing" err | cut -d: -f1)
report=$(grep -n "^0/" err | cut -d: -f1)
[ "$dump" -lt "$report" ] || fail "the backtrace came before the dump"

# Post-mortem, from the segment: the same report after the same records.
"$scope" -S "$work/segment" -D >post 2>post.err || fail "recorder_scope -D failed"
grep -q "died" post.err || fail "recorder_scope does not say it died: $(cat post.err)"
grep -q "crash: Dividing 0 by 0" post || fail "no records post-mortem"
grep -E '^[0-9]+/[0-9]+ |Received SIG' err | grep -v recorder_signals >live.report
grep -E '^[0-9]+/[0-9]+ |Received SIG' post | grep -v recorder_signals >post.report
cmp -s live.report post.report ||
    fail "post-mortem report differs: $(diff live.report post.report)"
[ "$(tail -n 1 post)" = "$(tail -n 1 live.report)" ] ||
    fail "the report is not after the records"

# Other signals die by their own.
status=0; "$crash" segv >/dev/null 2>err || status=$?
[ "$status" = 139 ] || fail "segv: exit $status"
expect 0 "Crashed at" "$(line_of 'crash: segv')" store
status=0; "$crash" abort >/dev/null 2>err || status=$?
[ "$status" = 134 ] || fail "abort: exit $status"
grep -q "^[0-9]*/[0-9]* crash @ $host Called from .*, in abort\$" err ||
    fail "abort: no abort frame: $(cat err)"

# A chain across two processes, the server's frames first.
status=0; "$rpc" >rpc.out 2>rpc.err || status=$?
[ "$status" = 1 ] || fail "backtrace_rpc: exit $status: $(cat rpc.err)"
grep -q "^0/[0-9]* rpc_server @ $host Failed at file .*, in check_divisor\$" rpc.out ||
    fail "backtrace_rpc: frame 0: $(cat rpc.out)"
first_client=$(grep -n "^[0-9]*/[0-9]* backtrace_rpc @" rpc.out | head -n 1 | cut -d: -f1)
last_server=$(grep -n "^[0-9]*/[0-9]* rpc_server @" rpc.out | tail -n 1 | cut -d: -f1)
if [ -z "$first_client" ] || [ "$last_server" -ge "$first_client" ]; then
    fail "backtrace_rpc: server frames should come first: $(cat rpc.out)"
fi
grep -q "backtrace_rpc @ $host Called from .*, in call_server\$" rpc.out ||
    fail "backtrace_rpc: no call_server frame"

# 100 crashes in a row: none may hang (each bounded at 5 s), all report.
start=$(date +%s%N)
runs=0
while [ "$runs" -lt 100 ]; do
    status=0
    timeout 5 "$crash" >/dev/null 2>err || status=$?
    [ "$status" = 136 ] || fail "run $runs: exit $status"
    grep -q "^0/[0-9]* crash @ $host Crashed at file" err ||
        fail "run $runs: no report: $(cat err)"
    runs=$((runs + 1))
done
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "crash example: report, post-mortem, signals, RPC chain ok; 100 crash runs in $ms ms ($((ms / 100)) ms each)"
