#!/bin/sh
# recorder_scope's exit status tells the truth: -c fails with the program's
# reason when it rejects or refuses a command (commands naming files, from
# another process), -l and -D fail when their output is lost (a full
# disk), and a program that could not start its command thread (ulimit -v)
# or read its module table (ulimit -n) says so in -l, -c failing at once.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"
work=$(mktemp -d)
writer=""
cleanup() {
    [ -n "$writer" ] && kill -9 "$writer" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-share-commands: $*"; exit 1; }

# start_writer NAME [ULIMIT-OPTIONS...]: scope_feeder sharing in
# $work/NAME, under the given limits; its stderr in $work/NAME.err.
# Returns 1 if it did not share.
start_writer() {
    name=$1
    shift
    export RECORDER_SHARE="$work/$name"
    (
        for limit in "$@"; do ulimit $limit || exit 99; done
        RECORDER_TRACES=feed=ramp, exec "$feeder" 3 1000 0
    ) >/dev/null 2>"$work/$name.err" &
    writer=$!
    for _ in $(seq 100); do
        [ -e "$RECORDER_SHARE" ] && "$scope" -l >/dev/null 2>&1 && return 0
        grep -q "not sharing" "$work/$name.err" && break
        kill -0 "$writer" 2>/dev/null || break
        sleep 0.05
    done
    stop_writer
    return 1
}
stop_writer() {
    kill -9 "$writer" 2>/dev/null || true
    wait "$writer" 2>/dev/null || true
    writer=""
}
# expect_failure LABEL COMMAND...: COMMAND must exit 1; its stderr in $work/err.
expect_failure() {
    label=$1
    shift
    set +e
    "$@" 2>"$work/err"
    status=$?
    set -e
    [ "$status" = 1 ] || fail "$label: exit $status, stderr: $(cat "$work/err")"
}

start_writer segment || fail "scope_feeder did not share: $(cat "$work/segment.err")"

# A command the program rejects: exit 1 with the program's reason.
expect_failure "-c feed_gain=bar" "$scope" -c feed_gain=bar
grep -q "refused 'feed_gain=bar': invalid trace value 'bar' in 'feed_gain=bar'" \
    "$work/err" || fail "-c rejected: no reason: $(cat "$work/err")"
"$scope" -c feed_gain=12 || fail "-c feed_gain=12 failed"
"$scope" -l | grep -Eq '^  feed_gain +12 ' || fail "tweak not set by -c"

# Commands from another process may not name files.
expect_failure "-c output=" "$scope" -c "output=$work/planted"
grep -q "refused from another process: names a file" "$work/err" ||
    fail "-c output=: $(cat "$work/err")"
grep -q "RECORDER_COMMANDS_FILES=1" "$work/err" ||
    fail "-c output= does not name the opt-in: $(cat "$work/err")"
expect_failure "-c share=" "$scope" -c "share=$work/elsewhere"
# No wait: the program said so and refused before it answered.
[ ! -e "$work/planted" ] || fail "-c output= created the file"
[ ! -e "$work/elsewhere" ] || fail "-c share= created a segment"
grep -q "output= refused from another process" "$work/segment.err" ||
    fail "the program did not say it refused output="

# Output that cannot be written is a failure, with the reason.
if [ -w /dev/full ]; then
    expect_failure "-l > /dev/full" sh -c '"$0" -l > /dev/full' "$scope"
    grep -q "cannot write the output: No space left on device" "$work/err" ||
        fail "-l > /dev/full: $(cat "$work/err")"
    expect_failure "-D > /dev/full" sh -c '"$0" -D > /dev/full' "$scope"
    grep -q "cannot write the output: No space left on device" "$work/err" ||
        fail "-D > /dev/full: $(cat "$work/err")"
else
    echo "SKIP: -l and -D to a full disk: no writable /dev/full"
fi
stop_writer

# No command thread: thread stacks of 1 GiB (ulimit -s) in 512 MiB of
# address space (ulimit -v). Sanitizer runtimes need far more.
if [ -n "${SANITIZED:-}" ]; then
    echo "SKIP: commands unavailable under ulimit -v: sanitized build"
elif ! (ulimit -s 1048576 && ulimit -v 524288) 2>/dev/null; then
    echo "SKIP: commands unavailable: cannot raise ulimit -s to 1 GiB here"
else
    start_writer nothreads "-s 1048576" "-v 524288" ||
        fail "no sharing under ulimit -v: $(cat "$work/nothreads.err")"
    "$scope" -l >"$work/list" || fail "-l failed without a command thread"
    grep -q "running" "$work/list" || fail "-l: not running: $(cat "$work/list")"
    grep -q "^Commands unavailable: pthread_create: Resource temporarily unavailable" \
        "$work/list" || fail "-l does not say commands are unavailable: $(cat "$work/list")"
    start=$(date +%s%N)
    expect_failure "-c without a command thread" "$scope" -c feed_gain=1
    elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
    grep -q "cannot take commands: pthread_create" "$work/err" ||
        fail "-c without a command thread: $(cat "$work/err")"
    [ "$elapsed_ms" -lt 1000 ] || fail "-c took $elapsed_ms ms to fail"
    grep -q "commands from readers unavailable: pthread_create" \
        "$work/nothreads.err" || fail "the program did not say why"
    stop_writer
fi

# Few descriptors: the fewest with which the program still shares leave
# none to read /proc/self/maps.
shared_with=""
for files in 3 4 5 6 7 8 9 10 11 12; do
    if start_writer "files$files" "-n $files"; then
        shared_with=$files
        break
    fi
done
[ -n "$shared_with" ] || fail "no sharing even with ulimit -n 12"
"$scope" -l >"$work/list" || fail "-l failed"
grep -q "^Module table unavailable: /proc/self/maps: Too many open files" \
    "$work/list" || fail "ulimit -n $shared_with: $(cat "$work/list")"
grep -q "module table unavailable" "$work/files$shared_with.err" ||
    fail "the program did not say its module table is unavailable"
stop_writer

echo "recorder_scope -c answers, refusals, full disk, missing thread and modules: ok"
