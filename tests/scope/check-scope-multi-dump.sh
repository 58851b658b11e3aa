#!/bin/sh
# Several processes (issue 16, items 2 and 4): three copies of
# multi_writer (alpha, gamma started together, beta later; gamma killed
# with kill -9) each record numbered events with their own CLOCK_MONOTONIC
# time as an argument. recorder_scope -D over two of them (-S twice) and
# over all three (-S PATTERN) prints every event of each process once, in
# one time order, each line "PROGRAM[PID] " and the process's own dump
# line, times counted from the earliest start; -L lists the three with
# program, pid and state, and files it cannot read (junk, a symbolic link,
# another user's, refused) with the reason; -c goes to each running one.
set -eu
[ -n "${TRACE_TEST:-}" ] && set -x
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-multi-dump
writer="$build/tests/writers/multi_writer"
count=300

other=""
shell_test_undo() {
    if [ -n "$other" ]; then
        userdel -r "$other" 2>/dev/null || userdel "$other" 2>/dev/null || true
    fi
}
unset RECORDER_TRACES
for name in alpha beta gamma; do cp "$writer" "$work/$name"; done
start() {
    RECORDER_SHARE="$work/seg.$1" "$work/$1" $count >"$work/$1.out" \
        2>"$work/$1.err" &
}

# alpha first (the earliest start: the merged dump's time base), gamma
# right after, beta 0.2 s later.
start alpha; alpha=$!; pids="$pids $alpha"
wait_for '[ -s "$work/seg.alpha" ]'
start gamma; gamma=$!; pids="$pids $gamma"
sleep 0.2
start beta; beta=$!; pids="$pids $beta"
for name in alpha beta gamma; do
    wait_for "grep -q recorded '$work/$name.out'"
done
kill -9 "$gamma"
wait "$gamma" 2>/dev/null || true

# ---- -L: the three, with program, pid and state ----
"$scope" -L "$work/seg.*" >"$work/list" 2>"$work/list.err" ||
    fail "-L failed: $(cat "$work/list.err")"
tab=$(printf '\t')
head -1 "$work/list" | grep -q "^PATH${tab}PROGRAM${tab}PID${tab}HOST${tab}STARTED${tab}STATE${tab}OWNER${tab}CHANNELS${tab}DETAIL\$" ||
    fail "-L header: $(head -1 "$work/list")"
[ "$(wc -l <"$work/list")" -eq 4 ] || fail "-L: expected 3 segments: $(cat "$work/list")"
row() { awk -F "$tab" -v p="$work/seg.$1" '$1 == p { print $2, $3, $6 }' "$work/list"; }
[ "$(row alpha)" = "alpha $alpha live" ] || fail "-L alpha: '$(row alpha)'"
[ "$(row beta)" = "beta $beta live" ] || fail "-L beta: '$(row beta)'"
[ "$(row gamma)" = "gamma $gamma died" ] || fail "-L gamma: '$(row gamma)'"
awk -F "$tab" 'NR > 1 && (NF != 9 || $5 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T/) { bad++ }
    END { exit bad > 0 }' "$work/list" || fail "-L rows: $(cat "$work/list")"
# -S given as a pattern names the same ones.
"$scope" -L -S "$work/seg.*" >"$work/list2" || fail "-L -S PATTERN failed"
cmp -s "$work/list" "$work/list2" || fail "-L -S PATTERN lists other segments"
echo "-L: alpha live, beta live, gamma died"

# ---- -D: merged dumps ----
# Check merged dump $1 of the processes $2...: every line "NAME[PID] [N T]
# RECORDER: ...", times in order, each event of each process once, and
# every event's time consistent with the CLOCK_MONOTONIC it carries (one
# time base for all: a process counted from its own start would be off by
# the 0.2 s between starts).
check_dump() {
    dump=$1; shift
    awk -v names="$*" -v count=$count -v pids="alpha=$alpha beta=$beta gamma=$gamma" '
        BEGIN { n = split(names, want, " "); split(pids, p, " ")
                for (i in p) { split(p[i], kv, "="); pid[kv[1]] = kv[2] } }
        {
            if (!match($0, /^[a-z]+\[[0-9]+\] \[[0-9]+ [0-9.]+\] [a-z_]+: /)) {
                print "bad line: " $0; bad++; next
            }
            name = $1; sub(/\[.*/, "", name)
            id = $1; gsub(/.*\[|\]/, "", id)
            if (pid[name] != id) { print "wrong pid: " $0; bad++ }
            time = $3; sub(/\]/, "", time)
            if (time + 0 < last) { print "out of order: " $0; bad++ }
            last = time + 0
            if ($4 != "multi:") next
            event = $6; mono = $8
            seen[name, event]++
            offset = mono / 1e9 - time
            if (!events++ || offset < low) low = offset
            if (events == 1 || offset > high) high = offset
        }
        END {
            for (i = 1; i <= n; i++)
                for (e = 0; e < count; e++)
                    if (seen[want[i], e] != 1) {
                        print want[i] " event " e " seen " seen[want[i], e] + 0 " times"
                        bad++
                    }
            if (events != n * count) { print events " events, expected " n * count; bad++ }
            if (high - low > 0.05) {
                printf "times and CLOCK_MONOTONIC disagree by %.6f s\n", high - low; bad++
            }
            exit bad > 0
        }' "$dump" >"$dump.why" || fail "$dump: $(head -5 "$dump.why")"
}

# Two processes: -S twice.
"$scope" -S "$work/seg.alpha" -S "$work/seg.gamma" -D >"$work/two" \
    2>"$work/two.err" || fail "-D of two failed: $(cat "$work/two.err")"
check_dump "$work/two" alpha gamma
grep -q "^recorder_scope: gamma\[$gamma\] died; showing what it left" \
    "$work/two.err" || fail "no note that gamma died: $(cat "$work/two.err")"
# Three processes: one pattern.
"$scope" -S "$work/seg.*" -D >"$work/three" 2>"$work/three.err" ||
    fail "-D of three failed: $(cat "$work/three.err")"
check_dump "$work/three" alpha beta gamma
# Both interleave: the writers ran at the same time.
switches=$(awk '{ n = $1; if (n != prev) s++; prev = n } END { print s }' "$work/three")
[ "$switches" -gt 20 ] || fail "the processes' records do not interleave ($switches runs)"
# After the prefix, alpha's lines (the earliest start, so its own times)
# are exactly what -D prints for its segment alone, which has no prefix.
"$scope" -S "$work/seg.alpha" -D >"$work/alpha.dump" 2>/dev/null ||
    fail "-D of alpha alone failed"
grep -q '^\[' "$work/alpha.dump" || fail "-D of one segment has a prefix: $(head -1 "$work/alpha.dump")"
sed -n "s/^alpha\[$alpha\] //p" "$work/three" >"$work/alpha.merged"
cmp -s "$work/alpha.dump" "$work/alpha.merged" ||
    fail "alpha's merged lines differ from its own dump: $(diff "$work/alpha.dump" "$work/alpha.merged" | head -4)"
# beta's: its own lines, with times 0.2 s later than its own dump's.
"$scope" -S "$work/seg.beta" -D >"$work/beta.dump" 2>/dev/null
sed -n "s/^beta\[$beta\] //p" "$work/three" >"$work/beta.merged"
cut -d' ' -f1,3- "$work/beta.dump" >"$work/beta.a"
cut -d' ' -f1,3- "$work/beta.merged" >"$work/beta.b"
cmp -s "$work/beta.a" "$work/beta.b" || fail "beta's merged lines differ from its own dump"
paste -d' ' "$work/beta.dump" "$work/beta.merged" | awk '
    { a = $2; sub(/\]/, "", a); i = NF / 2 + 2; b = $i; sub(/\]/, "", b)
      d = b - a; if (d < 0.15 || d > 5) bad++ }
    END { exit bad > 0 }' || fail "beta's merged times are not shifted by its later start"
echo "-D: 2 and 3 processes, $count events each, once each, in time order"

# ---- -c goes to each running process; -l lists each ----
"$scope" -S "$work/seg.*" -c multi_level=7 2>"$work/send.err" ||
    fail "-c to all failed: $(cat "$work/send.err")"
grep -q "^recorder_scope: gamma\[$gamma\] died: no command sent" "$work/send.err" ||
    fail "no note that gamma took no command: $(cat "$work/send.err")"
"$scope" -S "$work/seg.*" -l >"$work/details" 2>/dev/null ||
    fail "-l of three failed"
[ "$(grep -c "^$work/seg\.[a-z]*: [a-z]*, pid" "$work/details")" -eq 3 ] ||
    fail "-l does not head each segment: $(grep "^/" "$work/details")"
[ "$(grep -c '^  multi_level  *7 ' "$work/details")" -eq 2 ] ||
    fail "multi_level is not 7 in alpha and beta: $(grep multi_level "$work/details")"
# A pattern matching nothing is an error for -D, an empty table for -L.
if "$scope" -S "$work/none.*" -D >/dev/null 2>"$work/empty.err"; then
    fail "-D with a pattern matching nothing succeeded"
fi
grep -q "no segment matches $work/none\.\*" "$work/empty.err" || fail "no reason for an empty pattern"
[ "$("$scope" -L "$work/none.*" | wc -l)" -eq 1 ] || fail "-L of nothing"
echo "-c: multi_level=7 in alpha and beta, gamma noted dead"

# ---- files -L cannot read: listed with the reason ----
head -c 65536 /dev/zero | tr '\0' x >"$work/seg.junk"
ln -s "$work/seg.alpha" "$work/seg.link"
"$scope" -L "$work/seg.*" >"$work/list3" 2>&1 || fail "-L with junk failed"
state() { awk -F "$tab" -v p="$work/seg.$1" '$1 == p { print $6 ": " $9 }' "$work/list3"; }
state junk | grep -q '^unreadable: not a recorder segment' || fail "junk: '$(state junk)'"
state link | grep -q '^unreadable: a symbolic link' || fail "link: '$(state link)'"
if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null; then
    other=rec_mdump_$$
    useradd -M -d /nonexistent -s /bin/sh "$other"
    cp "$work/seg.gamma" "$work/seg.planted"
    chown "$other" "$work/seg.planted"
    "$scope" -L "$work/seg.*" >"$work/list4" 2>&1 || fail "-L with another user's failed"
    awk -F "$tab" -v p="$work/seg.planted" -v u="$other" \
        '$1 == p && $2 == "-" && $6 == "refused" && $7 == u && $9 ~ ("belongs to " u) { ok = 1 }
         END { exit !ok }' "$work/list4" ||
        fail "another user's segment not refused: $(grep planted "$work/list4")"
    "$scope" --any-owner -L "$work/seg.planted" >"$work/list5" 2>&1
    awk -F "$tab" -v u="$other" 'NR == 2 && $2 == "gamma" && $6 == "died" && $7 == u { ok = 1 }
        END { exit !ok }' "$work/list5" || fail "--any-owner: $(cat "$work/list5")"
    echo "-L: junk and a link unreadable, $other's segment refused"
else
    echo "-L: junk and a link unreadable (another user's: SKIP, needs root)"
fi
