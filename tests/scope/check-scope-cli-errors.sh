#!/bin/sh
# A bad command line gets one line naming the bad option or value, then
# "Try 'recorder_scope --help' for more information.", on stderr, nothing
# on stdout, exit 2 (as coreutils do): over a table of bad lines, one per
# kind of mistake (unknown options, missing arguments, a bad value for each
# option that takes one, options that conflict). --help still prints the
# whole usage on stdout, exit 0.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-cli-errors

try="Try 'recorder_scope --help' for more information."
checked=0
# bad_line SAYS ARG...: the first line must hold "recorder_scope: SAYS".
bad_line() {
    says=$1
    shift
    status=0
    (cd "$work" && "$scope" "$@" >"$work/out" 2>"$work/err" </dev/null) ||
        status=$?
    [ "$status" = 2 ] || fail "'$*' exited $status, not 2: $(cat "$work/err")"
    [ ! -s "$work/out" ] || fail "'$*' wrote on stdout: $(head -n 3 "$work/out")"
    [ "$(wc -l <"$work/err")" = 2 ] ||
        fail "'$*' printed $(wc -l <"$work/err") lines on stderr, not 2:" \
             "$(head -n 3 "$work/err")"
    head -n 1 "$work/err" | grep -qF "recorder_scope: $says" ||
        fail "'$*' said: $(head -n 1 "$work/err")"
    [ "$(tail -n 1 "$work/err")" = "$try" ] ||
        fail "'$*' ends with: $(tail -n 1 "$work/err")"
    [ -z "$(ls "$work/run")" ] || fail "'$*' left $(ls "$work/run")"
    checked=$((checked + 1))
}
mkdir "$work/run"
work_run=$work/run

# Each line: the arguments (shell words, quotes allowed), then after '|'
# what the first line must say. The captures write into an empty directory
# that must stay empty.
while IFS='|' read -r args says; do
    [ -n "$args" ] || continue
    eval "set -- $args"
    bad_line "$says" "$@"
done <<'LINES'
--bogus|unknown option '--bogus'
-x|unknown option '-x'
-tm|unknown option '-tm'
--vie 1:2|unknown option '--vie'
--pick=yes|option '--pick' takes no argument
--trace-view=1|option '--trace-view' takes no argument
-S|option -S needs an argument
-c|option -c needs an argument
-g|option -g needs an argument
--csv|option --csv needs an argument
--format|option --format needs an argument
--view|option --view needs an argument
--metrics|option --metrics needs an argument
-S ''|-S '': expected a segment path
-c ''|-c needs a non-empty command
-e '('|-e '(':
-s ''|-s '': expected NAME
-s a:b|-s 'a:b': a tweak name has no spaces
-s 'a=1:5:2'|-s 'a=1:5:2': MIN must be below MAX
-d abc|-d 'abc': expected a time span
-w -1|-w '-1': expected a sample count
-r 200|-r '200': expected a percentage
-b ''|-b '': expected a file name prefix
-g bad|-g 'bad': expected WxH
'('|channel regex '(':
--png= --duration 1|--png '': expected a file name
--csv '' --duration 1|--csv '': expected a file name
--csv $work_run/x.csv --duration abc|--duration 'abc': expected seconds
--csv $work_run/x.csv --duration -1|--duration '-1': expected seconds
--view 2:1|--view '2:1': expected FROM:TO
--view 1:2:3|--view '1:2:3': expected FROM:TO
--trigger x --csv $work_run/x.csv --duration 1|--trigger 'x': expected CHANNEL>LEVEL
--trigger 'x>1' --trigger-mode sometimes|--trigger-mode 'sometimes': expected auto, normal or single
--trigger 'x>1' --pre 200|--pre '200': expected a percentage
--fps -1|--fps '-1': expected frames a second
--theme pink|--theme 'pink': expected auto, dark or light
--metrics 99999|--metrics '99999': the port must be a number
-D --format chrome|--format 'chrome': expected text, chrome-json or ctf
-D --format ctf --output=|--output '': expected a directory
--csv $work_run/x.csv|--csv needs --duration SECONDS or --view FROM:TO
--png $work_run/x.png ramp|--png needs --duration SECONDS or --view FROM:TO
--duration 1|--duration needs --png FILE or --csv FILE
--pre 10|--pre needs --trigger CHANNEL>LEVEL
--trigger-mode single|--trigger-mode needs --trigger CHANNEL>LEVEL
--trigger 'x>1' --view 1:2|--view: the trigger and --view both choose the span
--pick --csv $work_run/x.csv --duration 1|--pick opens the window
--pick -D|--pick opens the window: not with -D
--any-owner -c dump|--any-owner reads another user's segment as data only: not with -c
--fps 10 --csv $work_run/x.csv --duration 1|--fps paces the window's frames: not with --png or --csv
--format text|--format chooses what -D writes: give -D
-l -D --format chrome-json|--format chrome-json writes JSON on standard output: not with -l
-D --format ctf|--format ctf needs --output DIR
-D --output $work_run/trace|--output is where --format ctf writes its trace
-L /tmp/x ramp|-L takes one PATTERN, right after it
-L -l|-L lists the segments and exits: not with -l
--metrics 9100 --csv $work_run/x.csv --duration 1|--metrics serves the channels, without a window or a capture
LINES

# A value that would break the line or drive the terminal is shown escaped.
bad_line "-d 'a\\x0ab\\x1b]0;x': expected a time span" \
    -d "$(printf 'a\nb\033]0;x')"
# One option too many of the repeatable kind.
set --
for i in $(seq 65); do set -- "$@" -S "$work/seg$i"; done
bad_line "too many -S options" "$@"

"$scope" --help >"$work/out" 2>"$work/err" || fail "--help exited non-zero"
[ ! -s "$work/err" ] || fail "--help wrote on stderr"
[ "$(wc -l <"$work/out")" -gt 50 ] || fail "--help printed $(wc -l <"$work/out") lines"
grep -q '^Usage: recorder_scope' "$work/out" || fail "--help has no usage line"
echo "check-scope-cli-errors: $checked bad command lines, one line each and exit 2"
