#!/bin/sh
# Snapshot conditions at run time, through the command ring: recorder_scope
# -c 'snapshot=snap_event' arms one in a running program, which then writes
# a snapshot file for its rare event (0600, in the directory it fixed when
# it started); -l shows the condition with its counts; a bad condition is
# refused with a message naming it; 'snapshot=' disarms every condition
# and no file comes any more; a level condition (snapshot=level>5) on an
# exported channel works the same. The scope marks each snapshot on its
# time axis ("marker: snapshot" in --trace-view), drawn in the PNG.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-share-snapshots
writer_bin="$build/tests/writers/snapshot_writer"
files() { find "$work/snaps" -name '*.txt' | wc -l; }

mkdir "$work/snaps"
export RECORDER_SHARE="$work/seg"
RECORDER_SNAPSHOT_DIR="$work/snaps" RECORDER_TRACES=snap_tick=level, \
    "$writer_bin" 8 >/dev/null 2>"$work/writer.err" &
writer=$!
pids="$pids $writer"
wait_for '[ -e "$RECORDER_SHARE" ] && "$scope" -l >/dev/null 2>&1' ||
    fail "the writer does not share"
[ "$(files)" -eq 0 ] || fail "a snapshot before any condition was armed"

# ---- armed at run time ----
"$scope" -c 'snapshot=snap_event snapshot_holdoff=0 snapshot_post=20' \
    2>"$work/arm.err" || { cat "$work/arm.err"; fail "-c snapshot= failed"; }
wait_for '[ "$(files)" -ge 1 ]' || fail "no snapshot after -c snapshot=snap_event"
file=$(find "$work/snaps" -name '*.txt' | head -1)
[ "$(stat -c %a "$file")" = 600 ] || fail "snapshot mode $(stat -c %a "$file")"
case "$(basename "$file")" in
    snapshot_writer-"$writer"-*-1.txt) ;;
    *) fail "snapshot name $(basename "$file") lacks program, pid or counter" ;;
esac
grep -q 'snap_event: rare event' "$file" || fail "the snapshot lacks the event"
grep -q 'snap_tick: level 1' "$file" || fail "the snapshot lacks what led to it"
"$scope" -l >"$work/list"
grep -Eq '^  snapshot=snap_event +[1-9][0-9]* +[0-9]+$' "$work/list" ||
    { cat "$work/list"; fail "-l does not show the condition with its counts"; }

# ---- refused, by name ----
if "$scope" -c 'snapshot=snap_(' 2>"$work/bad.err"; then
    fail "-c 'snapshot=snap_(' was accepted"
fi
grep -q "bad snapshot pattern 'snap_('" "$work/bad.err" ||
    { cat "$work/bad.err"; fail "no reason naming the bad pattern"; }

# ---- disarmed ----
"$scope" -c 'snapshot=' 2>/dev/null || fail "-c 'snapshot=' failed"
sleep 0.1
before=$(files)
sleep 1.2                               # two more events
[ "$(files)" -eq "$before" ] || fail "snapshots after 'snapshot=' disarmed"
"$scope" -l | grep -q '^Snapshot conditions' && fail "-l lists disarmed conditions"

# ---- a level, with the scope watching ----
"$scope" --trace-view --png "$work/snaps.png" --duration 1.6 -d 2 level \
    >"$work/trace" 2>"$work/scope.err" &
scope_pid=$!
sleep 0.3
"$scope" -c 'snapshot=level>5' 2>/dev/null || fail "-c 'snapshot=level>5' failed"
wait $scope_pid || { cat "$work/scope.err"; fail "headless capture failed"; }
[ "$(files)" -gt "$before" ] || fail "no snapshot for level>5"
grep -Eq '^marker: snapshot [0-9.]+ snapshot=level>5$' "$work/trace" ||
    { grep marker "$work/trace"; fail "the scope did not mark the snapshot"; }
if command -v convert >/dev/null 2>&1; then
    magenta=$(convert "$work/snaps.png" txt:- | grep -ci '#FF3CE6' || true)
    [ "$magenta" -gt 10 ] || fail "the PNG has no snapshot markers ($magenta pixels)"
fi
[ -n "${KEEP_PNG:-}" ] && cp "$work/snaps.png" "$KEEP_PNG"
# Under check-tsan, the writer's threads (recording, command, snapshot)
# report races as they happen.
if grep -q "ThreadSanitizer" "$work/writer.err"; then
    cat "$work/writer.err"
    fail "the writer reported a race"
fi
echo "snapshots: armed, listed, refused and disarmed through -c; level>5 marked by the scope"
