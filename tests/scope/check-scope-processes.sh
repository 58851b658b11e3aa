#!/bin/sh
# Several processes in one capture (issue 16, items 3 and 5): with -S as a
# pattern, a headless --csv holds the channels of every process matching
# it, named PROGRAM[PID]/channel, on one time axis: each clock_writer
# records its own CLOCK_MONOTONIC as the value, so a sample's time on the
# axis less its value must be the same for all of them (within 50 us).
# Three processes: one killed with kill -9 (its segment stays), one live,
# one started after the capture began (the pattern is watched). Every
# sample of each is there once. -c goes to each process as it attaches;
# a graph regex may name the process; one -S stays without prefixes.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-processes
writer="$build/tests/writers/clock_writer"
export RECORDER_TRACES=clock=mono,

fail() {
    echo "check-scope-processes: $*"
    [ -f "$work/scope.err" ] && sed 's/^/  scope: /' "$work/scope.err"
    exit 1
}


# start NAME COUNT: a clock_writer sharing in $work/seg.NAME; $started is
# its pid.
start() {
    RECORDER_SHARE="$work/seg.$1" "$writer" "$2" >/dev/null \
        2>"$work/$1.err" &
    started=$!
    pids="$pids $started"
}

# Columns of a CSV: "N SAMPLES SPREAD" per channel column, SPREAD the
# largest minus the smallest of time - value over every cell of all of
# them, in microseconds.
# Samples per process, then how far the scope's times stray from the
# processes' own clock readings: scope time minus recorded CLOCK_MONOTONIC
# is one constant (the axis origin) for every sample of every process.
# A writer preempted between reading its clock and recording is late by the
# preemption, which is not the scope's error: the 99th percentile of the
# distance to the median must be within the limit, and the largest is said.
agree() {
    counts=$(awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "") n[i]++ }
        END { for (i = 2; i in n; i++) printf "%d ", n[i] }' "$1")
    awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "")
        printf "%.9f\n", $1 - $i }' "$1" | sort -g >"$1.d"
    mid=$(awk '{ d[NR] = $1 } END { print d[int((NR + 1) / 2)] }' "$1.d")
    strays=$(awk -v mid="$mid" '{ e = $1 - mid; if (e < 0) e = -e; printf "%.9f\n", e }' \
        "$1.d" | sort -g | awk '{ e[NR] = $1 }
        END { printf "%.1f %.1f", e[int(NR * 0.99)] * 1e6, e[NR] * 1e6 }')
    echo "$counts$strays"
}

# --- a dies, b lives, c comes later ---------------------------------------
start a 300
pid_a=$started
start b 200
pid_b=$started
wait_for "grep -q 'recorded 300' '$work/a.err' && grep -q 'recorded 200' '$work/b.err'"
kill -9 "$pid_a"
wait "$pid_a" 2>/dev/null || true

"$scope" -S "$work/seg.*" --csv "$work/three.csv" --duration 4 -d 0 \
    -c clock_gain=20 mono 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
wait_for "grep -q 'clock_writer (pid $pid_a) died.*clock_writer (pid $pid_b) running' '$work/scope.err'"
start c 100
pid_c=$started
wait "$scope_pid" || fail "the capture failed"
grep -q "clock_writer (pid $pid_c) running" "$work/scope.err" ||
    fail "the process started later was not picked up"

head -1 "$work/three.csv" |
    grep -qx "time,clock_writer\[$pid_a\]/mono,clock_writer\[$pid_b\]/mono,clock_writer\[$pid_c\]/mono" ||
    fail "columns: $(head -1 "$work/three.csv")"
set -- $(agree "$work/three.csv")
[ "$1 $2 $3" = "300 200 100" ] ||
    fail "samples per process: $1 $2 $3, not 300 200 100"
awk -v s="$4" 'BEGIN { exit !(s <= 50) }' ||
    fail "times disagree with the processes' clocks by $4 us (99th percentile)"
spread="$4 us (99th percentile; largest $5 us)"

# -c went to each live process as it attached (the dead one reads none).
for pid_seg in "$pid_b b" "$pid_c c"; do
    set -- $pid_seg
    "$scope" -l -S "$work/seg.$2" | grep -Eq '^  clock_gain +20 ' ||
        fail "process $1 did not get -c clock_gain=20"
done

# --- a regex naming the process; two -S; PNG -------------------------------
"$scope" -S "$work/seg.b" -S "$work/seg.c" --csv "$work/one.csv" \
    --png "$work/two.png" --duration 0.3 -d 0 "clock_writer\[$pid_c\]/mono" \
    2>"$work/scope.err" || fail "capture of two -S failed"
head -1 "$work/one.csv" | grep -qx "time,clock_writer\[$pid_c\]/mono" ||
    fail "a regex naming the process: $(head -1 "$work/one.csv")"
[ -s "$work/two.png" ] || fail "no PNG of two processes"

# --- one -S: names and times as before ------------------------------------
"$scope" -S "$work/seg.b" --csv "$work/single.csv" --duration 0.3 -d 0 mono \
    2>"$work/scope.err" || fail "capture of one -S failed"
head -1 "$work/single.csv" | grep -qx "time,mono" ||
    fail "one segment: $(head -1 "$work/single.csv")"

echo "three processes (one killed, one late) on one axis (spread $spread),"
echo "-c to each, a regex naming the process, one -S unchanged: ok"
