#!/bin/sh
# Several processes of one system, each in a segment of its own: the
# escapes of RECORDER_SHARE and share= (%p %n %u %h), what a second process
# says when a live one holds its path (once, the holder's pid and program,
# the way out) and that it keeps recording, the holder's segment untouched;
# an unknown escape refused by name.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"
work=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
unset RECORDER_SHARE RECORDER_TRACES
fail() { echo "check-share-naming: $*"; exit 1; }

# Wait up to 10 s for a condition (a shell command), instead of sleeping.
wait_for() {
    deadline=$(($(date +%s) + 10))
    while ! eval "$1"; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $1"
        sleep 0.05
    done
}

# feed NAME SHARE BASE: a scope_feeder recording 20 samples from BASE into
# SHARE (escapes and all), alive until killed; $last is its pid.
feed() {
    RECORDER_SHARE=$2 RECORDER_TRACES=feed=ramp,wave,level \
        "$feeder" 20 "$3" >"$work/$1.out" 2>"$work/$1.err" &
    last=$!
    pids="$pids $last"
    wait_for "grep -q 'recorded 20 samples' '$work/$1.err'"
}

# ---- %p: two processes, two segments named by their pids ----------------
feed one "$work/seg.%p" 1000
one=$last
feed two "$work/seg.%p" 2000
two=$last
for p in "$one:1000" "$two:2000"; do
    pid=${p%%:*} base=${p#*:}
    [ -f "$work/seg.$pid" ] || fail "no segment seg.$pid: $(ls "$work")"
    "$scope" -l -S "$work/seg.$pid" >"$work/list.$pid" ||
        fail "-l -S seg.$pid failed"
    grep -q "scope_feeder, pid $pid on" "$work/list.$pid" ||
        fail "seg.$pid is not pid $pid's: $(head -n 1 "$work/list.$pid")"
    grep -Eq "^  ramp .* 20 samples  min $base max $((base + 19)) " \
         "$work/list.$pid" || fail "seg.$pid lacks its ramp: $(cat "$work/list.$pid")"
    grep -q "Creating new $work/seg.$pid" "$work/$([ "$pid" = "$one" ] &&
        echo one || echo two).err" || fail "no creation message for seg.$pid"
done
[ "$(ls "$work" | grep -c '^seg\.')" -eq 2 ] || fail "not two segments: $(ls "$work")"
! grep -q "not sharing" "$work/one.err" "$work/two.err" ||
    fail "a process with its own segment complained"

# ---- %n.%u.%h, and share= in a trace specification ----------------------
host=$(uname -n | tr -c 'A-Za-z0-9._\n-' '_')
feed names "$work/n.%n.%u.%h.%%" 3000
expected="$work/n.scope_feeder.$(id -u).$host.%"
[ -f "$expected" ] || fail "no $expected: $(ls "$work")"
"$scope" -l -S "$expected" | grep -q "scope_feeder, pid $last on" ||
    fail "$expected is not pid $last's"
RECORDER_TRACES="share=$work/spec.%p:feed=ramp,wave,level" "$feeder" 5 4000 0.01 \
    2>"$work/spec.err" & spec=$!
wait "$spec" || fail "scope_feeder with share= failed: $(cat "$work/spec.err")"
[ -f "$work/spec.$spec" ] || fail "share= did not expand %p: $(ls "$work")"

# ---- a path held by a live process ----------------------------------------
feed holder "$work/held" 5000
holder=$last
"$scope" -l -S "$work/held" >"$work/held.before"
feed second "$work/held" 6000
second=$last
said=$(grep -c 'recorder: ' "$work/second.err" || true)
[ "$said" -eq 1 ] || fail "second process said $said lines: $(cat "$work/second.err")"
grep -qxF "recorder: not sharing: $work/held is held by live process $holder (scope_feeder); give each process its own segment, e.g. RECORDER_SHARE=$work/held.%p" \
    "$work/second.err" || fail "unexpected message: $(cat "$work/second.err")"
# It keeps recording: its own dump has its samples.
kill -USR1 "$second"
wait_for "grep -q 'feed: Ramp 6019 steps' '$work/second.err'"
# The holder's segment is untouched: same process, its samples only.
"$scope" -l -S "$work/held" >"$work/held.after"
head -n 1 "$work/held.after" | grep -q "scope_feeder, pid $holder on" ||
    fail "held segment changed hands: $(head -n 1 "$work/held.after")"
grep -Eq "^  ramp .* 20 samples  min 5000 max 5019 " "$work/held.after" ||
    fail "held segment's ramp changed: $(cat "$work/held.after")"
"$scope" -S "$work/held" -D feed >"$work/held.dump"
grep -q "Ramp 5019 steps" "$work/held.dump" || fail "holder's records missing"
! grep -q "Ramp 6" "$work/held.dump" || fail "second process wrote in the held segment"
[ ! -e "$work/held.prev" ] || fail "the live holder's segment was moved aside"
# Once the holder is gone, the way out works as said.
RECORDER_SHARE="$work/held.%p" RECORDER_TRACES=feed=ramp,wave,level \
    "$feeder" 5 7000 0.01 2>"$work/out.err" & out=$!
wait "$out" || fail "the way out failed: $(cat "$work/out.err")"
[ -f "$work/held.$out" ] || fail "the way out made no held.$out"

# ---- an unknown escape is refused by name; recording goes on ------------
feed bad "$work/bad.%q" 8000
grep -qxF "recorder: not sharing: $work/bad.%q: unknown escape '%q' (escapes: %p %n %u %h %%)" \
    "$work/bad.err" || fail "unexpected message: $(cat "$work/bad.err")"
[ "$(grep -c 'recorder: ' "$work/bad.err")" -eq 1 ] ||
    fail "said more than once: $(cat "$work/bad.err")"
! ls "$work" | grep -v '\.err$\|\.out$' | grep -q '^bad' ||
    fail "a bad path made a file: $(ls "$work")"
kill -USR1 "$last"
wait_for "grep -q 'feed: Ramp 8019 steps' '$work/bad.err'"

# ---- readers do not expand their own %p -----------------------------------
if RECORDER_SHARE="$work/seg.%p" "$scope" -l >/dev/null 2>"$work/reader.err"; then
    fail "a reader opened seg.%p as its own"
fi
grep -q "seg.%p: no such segment: %p and %n stand for each writer" \
    "$work/reader.err" || fail "reader message: $(cat "$work/reader.err")"
echo "check-share-naming: ok"
