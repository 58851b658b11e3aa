#!/bin/sh
# Commands into another user's segment, as a local attacker would send
# them: the victim's segment became writable by others (a umask, a copy,
# a chmod). The attacker's recorder_scope refuses to send, with or without
# --any-owner; a command written into the ring directly (forge_segment) is
# answered with a refusal and not applied; the victim's program says once
# that its segment is open to others, and serves commands again once it is
# private. Needs root (throwaway users are created and removed).
set -eu
. "$(dirname "$0")/../support/throwaway_users.sh"
throwaway_users check-share-foreign-commands
seg="$work/seg"
gain() {
    as "$victim" "$scope" -S "$seg" -l | awk '$1 == "feed_gain" { print $2 }'
}

# The victim's live program, its segment widened to 0666.
# In a subshell, runuser quiet: its end at cleanup is nothing to report.
(as "$victim" sh -c "exec env RECORDER_SHARE='$seg' RECORDER_TRACES=feed=ramp, \
    '$feeder' 1 1000 30 2>'$work/writer.err'" 2>/dev/null &)
for _ in $(seq 100); do
    as "$victim" "$scope" -S "$seg" -l >/dev/null 2>&1 && break
    sleep 0.05
done
[ "$(gain)" = 10 ] || fail "feed_gain is not 10 at start: '$(gain)'"
as "$victim" chmod 666 "$seg"

# 1. The attacker's scope sends nothing into another user's segment: -c
#    with --any-owner is a bad command line, and without it the segment is
#    refused.
status=0
as "$attacker" "$scope" --any-owner -S "$seg" -c feed_gain=2 \
    >"$work/out" 2>"$work/err" || status=$?
[ "$status" = 2 ] || fail "--any-owner -c exited $status: $(cat "$work/err")"
grep -q "as data only: not with -c" "$work/err" ||
    fail "--any-owner -c does not say why: $(cat "$work/err")"
if as "$attacker" "$scope" -S "$seg" -c feed_gain=2 >"$work/out" 2>"$work/err"
then
    fail "-c into another user's segment exited 0"
fi

# 2. Written into the ring directly: answered, refused, not applied.
if as "$attacker" "$forge" "$seg" command feed_gain=3 >"$work/out" 2>&1; then
    fail "a forged command was applied: $(cat "$work/out")"
fi
grep -q "refused: the segment is writable by others" "$work/out" ||
    fail "the forged command's answer: $(cat "$work/out")"
[ "$(gain)" = 10 ] || fail "feed_gain changed to '$(gain)' by another user"

# 3. Its owner's commands wait for the segment to be private again.
if as "$victim" "$scope" -S "$seg" -c feed_gain=4 >"$work/out" 2>"$work/err"
then
    fail "a command was applied while the segment was writable by others"
fi
grep -q "writable by others" "$work/err" ||
    fail "the owner is not told why: $(cat "$work/err")"
as "$victim" chmod 600 "$seg"
as "$victim" "$scope" -S "$seg" -c feed_gain=4 >"$work/out" 2>"$work/err" ||
    fail "commands not served once private again: $(cat "$work/err")"
[ "$(gain)" = 4 ] || fail "feed_gain is '$(gain)', not 4"

# The program said it once each way, on its own stderr.
[ "$(grep -c "writable by others (mode 0666)" "$work/writer.err")" = 1 ] ||
    fail "the program's warnings: $(cat "$work/writer.err")"
grep -q "private again: commands served" "$work/writer.err" ||
    fail "the program did not say it serves commands again"
echo "check-share-foreign-commands: another user's commands refused, the" \
     "owner's served once the segment is private again"
