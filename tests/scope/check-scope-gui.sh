#!/bin/sh
# The recorder_scope window under Xvfb (share/doc/scope.md, "Testing the
# scope without a display"): started before the program it waits; the
# window shows each channel's colour; n hides
# values; i, c and space save numbered files, the CSV holding exactly the
# recorded values; a slider sets the program's tweak; a slider on a tweak
# the program lacks says so on stderr and beside it, for good; an error
# shows in a banner until dismissed; a restarted program is followed; q quits. Under Xvfb GL is Mesa's software renderer, so the
# window draws with cairo unless GSK_RENDERER=gl asks for GL, which must
# work too.
# GTK and Mesa are not sanitizer-clean (leaks at exit, uninstrumented
# threads), so make check-asan and check-tsan leave this one out:
# sanitized: skip
# KEEP_SHOTS=DIR keeps the screenshots there, to look at them.
set -eu
. "$(dirname "$0")/../support/scope_window_test.sh"
window_test check-scope-gui 1024x768 "xdotool import convert identify" "$@"

scope="$build/recorder_scope"
feeder="$build/tests/writers/scope_feeder"
export RECORDER_TRACES=feed=ramp,wave,level
seg="$work/segment"
shots="$work/shot-"

feed() {
    RECORDER_SHARE="$seg" "$feeder" "$1" "$2" >/dev/null 2>"$work/feed.err" &
    pids="$pids $!"
    last_feeder=$!
}

# Pixels of colour $2 (hex) in image $1.
pixels() {
    convert "$1" -format %c histogram:info:- |
        awk -F: -v colour="#$2" 'toupper($0) ~ colour { n += $1 } END { print n + 0 }'
}

# Take a screenshot as $1; true if it has more than $3 pixels of each
# colour in $2 (a list), or with $3 = none, none of them.
screen_shows() {
    import -window root "$1"
    for colour in $2; do
        count=$(pixels "$1" "$colour")
        if [ "$3" = none ]; then
            [ "$count" -eq 0 ] || return 1
        else
            [ "$count" -gt "$3" ] || return 1
        fi
    done
}

check_values() {
    awk -F, -v first="$2" -v count="$3" -v base="$4" '
        NR >= first && NR < first + count {
            i = NR - first
            if ($2 != base + i) { print "ramp " $2 " at line " NR; bad = 1 }
            if (NF >= 3 && $3 != (i * 37) % 101 - 50) {
                print "wave " $3 " at line " NR; bad = 1 }
        }
        END { exit bad }' "$1" || fail "$1 does not hold the recorded values"
}

# --- started before the program: the window waits -------------------------
"$scope" -S "$seg" -g 640x420 -d 1 -b "$shots" 'ramp|wave' level \
    -s feed_gain=10:0:100 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
timeout 10 xdotool search --sync --onlyvisible --name "^recorder_scope: .*$seg" \
    >/dev/null || fail "no window"
wait_for "grep -q 'waiting for $seg' '$work/scope.err'"
grep -q 'GL is software here (.*): drawing with cairo' "$work/scope.err" ||
    fail "the software GL of Xvfb was not noticed"

# --- the program starts: both graphs show its channels ---------------------
feed 300 1000
wait_for "grep -q 'scope_feeder (pid $last_feeder) running' '$work/scope.err'"
wait_for "screen_shows '$work/screen.png' 'FFCC33 FF5C5C 4CD964' 150" # ramp, wave, level

# --- n hides the values of the focused graph, n again shows them -----------
# Measured once the whole ramp is drawn: all recorded, two screens alike.
wait_for "grep -q 'recorded 300 samples' '$work/feed.err'"
amber=-1
wait_for "previous=\$amber; import -window root '$work/screen.png' &&
          amber=\$(pixels '$work/screen.png' FFCC33) && [ \$amber -eq \$previous ]"
xdotool key n
wait_for "import -window root '$work/hidden.png' &&
          [ \$(pixels '$work/hidden.png' FFCC33) -lt $((amber / 2)) ]"
xdotool key n

# --- i, c, space: numbered files, never overwritten ------------------------
xdotool key i
wait_for "[ -s '${shots}1.png' ]"
xdotool key c
wait_for "[ -s '${shots}2.csv' ]"
xdotool key space
wait_for "[ -s '${shots}3.png' ] && [ -s '${shots}3.csv' ]"
grep -q "saved ${shots}3.png and ${shots}3.csv" "$work/scope.err" ||
    fail "no status for the saves"
# The graph as laid out: the window's width less its frame (GTK draws one
# around a window with a header bar when no window manager does).
size=$(identify -format '%w' "${shots}1.png")
[ "$size" -le 640 ] && [ "$size" -ge 620 ] ||
    fail "saved PNG is $size pixels wide, not the graph's width in a 640 px window"
for csv in "${shots}2.csv" "${shots}3.csv"; do
    head -1 "$csv" | grep -qx "time,ramp,wave" || fail "$csv header"
    [ "$(wc -l < "$csv")" -eq 301 ] || fail "$csv: $(wc -l < "$csv") lines"
    check_values "$csv" 2 300 1000
done
ls "$work" | grep -q 'tmp-' && fail "temporary files left: $(ls "$work")"

# --- the slider sets the tweak in the program ------------------------------
# The slider row is 44 pixels above the bottom of the 640x420 window.
xdotool mousemove 320 376 click 1
xdotool key End
wait_for "'$scope' -S '$seg' -l | grep -Eq '^  feed_gain +100 '"

# --- the program restarts: the window follows it ---------------------------
# Gone before the next one starts, or that one finds the segment still held.
kill "$last_feeder"
wait "$last_feeder" 2>/dev/null || true
feed 200 5000
wait_for "grep -q 'scope_feeder (pid $last_feeder) running' '$work/scope.err'"
wait_for "'$scope' -S '$seg' -l | grep -Eq '^  ramp .* 200 samples'"
# Saved until the window has read all of them (each c a new file).
saved=3
shows_new_process() {
    saved=$((saved + 1))
    xdotool key c
    wait_for "[ -s '${shots}$saved.csv' ]"
    [ "$(wc -l < "${shots}$saved.csv")" -eq 201 ] &&
        head -2 "${shots}$saved.csv" | grep -q '^[^,]*,5000,'
}
wait_for shows_new_process
check_values "${shots}$saved.csv" 2 200 5000
# The slider's value went to the new process too.
wait_for "'$scope' -S '$seg' -l | grep -Eq '^  feed_gain +100 '" 5 ||
    fail "the new process did not get the slider's value"

# --- q quits ----------------------------------------------------------------
xdotool key q
for _ in $(seq 40); do
    kill -0 "$scope_pid" 2>/dev/null || break
    sleep 0.05
done
kill -0 "$scope_pid" 2>/dev/null && fail "q did not quit"
wait "$scope_pid" || fail "the scope exited with status $?"

# --- GSK_RENDERER=gl: GL it is, and it draws the same channels ---------------
GSK_RENDERER=gl "$scope" -S "$seg" -g 640x420 'ramp|wave' level \
    2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
timeout 10 xdotool search --sync --onlyvisible --name "^recorder_scope: .*$seg" \
    >/dev/null || fail "no window with GSK_RENDERER=gl"
wait_for "screen_shows '$work/gl.png' 'FFCC33 FF5C5C 4CD964' 50"
grep -q 'drawing with cairo' "$work/scope.err" &&
    fail "GSK_RENDERER=gl was overridden"
xdotool key q
wait "$scope_pid" || fail "the GL scope exited with status $?"

# --- a slider on a tweak the program lacks: said beside it, for good -------
banner=8B1E1E                                   # SCOPE_BANNER_RGB
screen_shows "$work/before.png" $banner none ||
    fail "banner colour on screen before any error"
"$scope" -S "$seg" -g 640x420 -b /nonexistent/dir/shot- level \
    -s no_such_tweak=5:0:10 2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
timeout 10 xdotool search --sync --onlyvisible --name "recorder_scope: " \
    >/dev/null || fail "no window for the missing tweak"
wait_for "grep -qF \"recorder_scope: the program has no tweak 'no_such_tweak'\" '$work/scope.err'"
# A note beside the slider (the bottom rows), no banner across the top.
wait_for "screen_shows '$work/refused.png' $banner 2000"
top=$(convert "$work/refused.png" -fill black +opaque "#$banner" -trim \
    -format '%[fx:page.y]' info:)
[ "$top" -gt 300 ] || fail "the missing tweak is said at y = $top, not by its slider"
# Escape dismisses banners, not this.
xdotool key Escape
sleep 0.5
screen_shows "$work/still.png" $banner 2000 || fail "the note went away"
# --- an error (a save that fails): a banner until dismissed ------------------
xdotool key i
wait_for "grep -q 'not saved' '$work/scope.err'"
wait_for "import -window root '$work/banner.png' &&
    [ \$(convert '$work/banner.png' -fill black +opaque '#$banner' -trim \
        -format '%[fx:page.y]' info:) -lt 100 ]"
# Its Dismiss button, at the right end of the banner (under the header
# bar), as a person clicks.
banner_y=$(convert "$work/banner.png" -crop 640x200+0+0 +repage \
    -fill black +opaque "#$banner" -trim -format '%[fx:page.y + h / 2]' info:)
xdotool mousemove 600 "${banner_y%.*}" click 1
wait_for "import -window root '$work/dismissed.png' &&
    [ \$(convert '$work/dismissed.png' -fill black +opaque '#$banner' -trim \
        -format '%[fx:page.y]' info:) -gt 300 ]"
xdotool key q
wait "$scope_pid" || fail "the scope exited with status $? after a refusal"
echo "window, colours, keys, numbered saves, exact CSV, slider, restart, quit,"
echo "cairo where GL is software, GL on request, missing tweak said beside its"
echo "slider, errors shown until dismissed: ok"
