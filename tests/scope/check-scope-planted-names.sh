#!/bin/sh
# File names planted by another user where a pattern looks: a file of
# junk, a symbolic link and a live segment of the attacker's, each named
# with terminal escapes (set the title, clear the screen, write the
# clipboard with OSC 52). The victim's own program shares beside them.
# Every mode of the victim's recorder_scope -S 'DIR/recorder_share*'
# names the planted files with their control characters shown as \xNN and
# sends no ESC or BEL raw: -l, -D, -c dump, --csv, --png and -L (the
# captures name them when only planted files match: attached to the
# victim's segment, they pass over the others quietly).
# Needs root (throwaway users are created and removed).
set -eu
. "$(dirname "$0")/../support/throwaway_users.sh"
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

# run MODE PATTERN ARGS...: the victim's scope, everything it prints in
# $work/MODE.
run() {
    mode=$1 pattern=$2; shift 2
    as "$victim" "$scope" -S "$pattern" "$@" >"$work/$mode.out" 2>&1 || true
}
all="$work/recorder_share*"
planted_only="$work/recorder_share?*"
run list "$all" -l
run dump "$all" -D
run send "$all" -c dump
run csv "$all" --csv "$work/out.csv" --duration 0.5
run png "$all" --png "$work/out.png" --duration 0.5
run table "$all" -L
# A capture attached to a usable segment passes over the others quietly;
# when only planted files match, it says why each is unusable.
run csv_planted "$planted_only" --csv "$work/planted.csv" --duration 0.5
run png_planted "$planted_only" --png "$work/planted.png" --duration 0.5
for mode in list dump send csv png table csv_planted png_planted; do
    if LC_ALL=C grep -q "$(printf '[\033\007]')" "$work/$mode.out"; then
        fail "$mode prints a planted name raw:
$(od -c "$work/$mode.out" | head -20)"
    fi
    case $mode in csv|png) continue ;; esac
    grep -qF "$shown" "$work/$mode.out" ||
        fail "$mode does not name the planted files escaped: $(cat "$work/$mode.out")"
done
for mode in csv_planted png_planted; do
    grep -q "no usable segment; nothing written" "$work/$mode.out" ||
        fail "$mode: $(cat "$work/$mode.out")"
done
[ ! -e "$work/planted.csv" ] && [ ! -e "$work/planted.png" ] ||
    fail "a capture of planted files only wrote a file"
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
