#!/bin/sh
# File names planted by another user where a pattern looks: a file of
# junk, a symbolic link and a live segment of the attacker's, each named
# with terminal escapes (set the title, clear the screen, write the
# clipboard with OSC 52). The victim's own program shares beside them.
# Every mode of the victim's recorder_scope -S 'DIR/recorder_share*'
# names the planted files with their control characters shown as \xNN and
# sends no ESC or BEL raw: -l, -D, -c dump, --csv, --png and -L.
# Needs root (throwaway users are created and removed).
set -eu
. "$(dirname "$0")/throwaway_users.sh"
throwaway_users check-scope-planted-names
planted="$work/recorder_share$(printf '\033]0;PWNED\007\033[2J\033]52;c;cHduZWQ=\007')x"
shown='recorder_share\x1b]0;PWNED\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07x'

# The attacker's plants.
as "$attacker" sh -c "head -c 100 /dev/urandom >'$planted.junk'"
as "$attacker" ln -s /etc/passwd "$planted.link"
(as "$attacker" sh -c "exec env RECORDER_SHARE='$planted' \
    RECORDER_TRACES=feed=ramp, '$feeder' 1 1000 60" 2>/dev/null &)
# The victim's own program.
(as "$victim" sh -c "exec env RECORDER_SHARE='$work/recorder_share' \
    RECORDER_TRACES=feed=ramp, '$feeder' 1 1000 60" 2>/dev/null &)
for _ in $(seq 100); do
    [ -s "$planted" ] && [ -s "$work/recorder_share" ] && break
    sleep 0.05
done
[ -s "$planted" ] || fail "the attacker's segment did not appear"
[ -s "$work/recorder_share" ] || fail "the victim's segment did not appear"
sleep 0.3

# run MODE ARGS...: the victim's scope, everything it prints in $work/MODE.
run() {
    mode=$1; shift
    as "$victim" "$scope" -S "$work/recorder_share*" "$@" \
        >"$work/$mode.out" 2>&1 || true
}
run list -l
run dump -D
run send -c dump
run csv --csv "$work/out.csv" --duration 0.5
run png --png "$work/out.png" --duration 0.5
run table -L
for mode in list dump send csv png table; do
    if LC_ALL=C grep -q "$(printf '[\033\007]')" "$work/$mode.out"; then
        fail "$mode prints a planted name raw:
$(od -c "$work/$mode.out" | head -20)"
    fi
    grep -qF "$shown" "$work/$mode.out" ||
        fail "$mode does not name the planted files escaped: $(cat "$work/$mode.out")"
done
# The reasons, each escaped as it is given.
grep -qF "$shown.junk belongs to user $attacker" "$work/list.out" ||
    fail "-l: the junk file's reason: $(cat "$work/list.out")"
grep -qF "$shown.link: is a symbolic link; not following it" \
    "$work/dump.out" || fail "-D: the link's reason: $(cat "$work/dump.out")"
grep -qF "$shown belongs to user" "$work/send.out" ||
    fail "-c dump: the attacker's segment: $(cat "$work/send.out")"
# The victim's own segment was still captured.
[ -s "$work/out.csv" ] || fail "--csv wrote nothing of the victim's segment"
[ -s "$work/out.png" ] || fail "--png wrote nothing of the victim's segment"
echo "check-scope-planted-names: planted names shown escaped by -l, -D," \
     "-c dump, --csv, --png and -L"
