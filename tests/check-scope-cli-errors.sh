#!/bin/sh
# A bad command line gets one line naming the bad option or value, then
# "Try 'recorder_scope --help' for more information.", on stderr, nothing
# on stdout, exit 2 (as coreutils do): over a table of bad lines, one per
# kind of mistake. --help still prints the whole usage on stdout, exit 0.
set -eu
. "$(dirname "$0")/shell_test.sh"
shell_test check-scope-cli-errors

try="Try 'recorder_scope --help' for more information."
checked=0
# Each line: the arguments, then after '|' what the first line must say.
while IFS='|' read -r args says; do
    [ -n "$args" ] || continue
    status=0
    # shellcheck disable=SC2086
    "$scope" $args >"$work/out" 2>"$work/err" </dev/null || status=$?
    [ "$status" = 2 ] || fail "'$args' exited $status, not 2: $(cat "$work/err")"
    [ ! -s "$work/out" ] || fail "'$args' wrote on stdout: $(head -n 3 "$work/out")"
    [ "$(wc -l <"$work/err")" = 2 ] ||
        fail "'$args' printed $(wc -l <"$work/err") lines on stderr, not 2"
    head -n 1 "$work/err" | grep -qF "recorder_scope: $says" ||
        fail "'$args' said: $(head -n 1 "$work/err")"
    [ "$(tail -n 1 "$work/err")" = "$try" ] ||
        fail "'$args' ends with: $(tail -n 1 "$work/err")"
    checked=$((checked + 1))
done <<'LINES'
--bogus|unknown option '--bogus'
-x|unknown option '-x'
-S|option -S needs an argument
-c|option -c needs an argument
--csv|option --csv needs an argument
--format|option --format needs an argument
-d abc|-d 'abc': expected a time span
-w -1|-w '-1': expected a sample count
-r 200|-r '200': expected a percentage
-g bad|-g 'bad': expected WxH
-s a:b|-s 'a:b': a tweak name has no spaces
(|channel regex '(':
--view 2:1|--view '2:1': expected FROM:TO
--duration 1|--duration needs --png FILE or --csv FILE
--pre 10|--pre needs --trigger CHANNEL>LEVEL
--pick --csv x.csv --duration 1|--pick opens the window
--any-owner -c dump|--any-owner reads another user's segment as data only: not with -c
-D --format chrome|--format 'chrome': expected text, chrome-json or ctf
LINES
"$scope" --help >"$work/out" 2>"$work/err" || fail "--help exited non-zero"
[ ! -s "$work/err" ] || fail "--help wrote on stderr"
[ "$(wc -l <"$work/out")" -gt 50 ] || fail "--help printed $(wc -l <"$work/out") lines"
echo "check-scope-cli-errors: $checked bad command lines, one line each and exit 2"
