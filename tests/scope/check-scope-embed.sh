#!/bin/sh
# The scope's graph as a widget other programs embed (RecorderScopeGraph,
# share/doc/embedding.md): staged with make install DESTDIR=, the widget's
# library exports its API alone under its soname, its header compiles as C
# and C++, and share/examples/embed_scope.c builds with pkg-config against
# the staged tree. Under Xvfb, that program and embed_scope.py (PyGObject,
# through the staged typelib) each show two graphs of a running writer:
# the pixels move as data comes, stand still while paused, change when the
# span does (even paused), a lost writer is told, and each closes with
# status 0 and no GLib warning. A trigger set from Python fires, and a bad
# one is refused with a reason.
# GTK and Mesa are not sanitizer-clean, and install is left to plain make
# check:
# sanitized: skip
# KEEP_SHOTS=DIR keeps the screenshots there, to look at them.
set -eu
. "$(dirname "$0")/../support/scope_window_test.sh"
window_test check-scope-embed 800x420 \
    "xdotool import convert compare g++ pkg-config python3" "$@"

stage="$work/stage"
feeder="$build/tests/writers/scope_feeder"
export RECORDER_TRACES=feed=ramp,wave,level
seg="$work/segment"

# --- staged install: files, soname, exports, pkg-config ---------------------
make -s -C "$top" BUILD="$build" install PREFIX=/usr DESTDIR="$stage" \
    >/dev/null || fail "make install DESTDIR= failed"
lib="$stage/usr/lib"
for file in include/recorder/recorder_scope_graph.h \
            lib/librecorder-scope-gtk4.so lib/librecorder-scope-gtk4.so.1 \
            lib/pkgconfig/recorder-scope-gtk4.pc \
            lib/girepository-1.0/RecorderScope-1.0.typelib \
            share/gir-1.0/RecorderScope-1.0.gir \
            share/man/man3/recorder_scope_graph.3; do
    [ -e "$stage/usr/$file" ] || fail "install: missing $file"
done
soname=$(objdump -p "$lib/librecorder-scope-gtk4.so" | awk '/SONAME/ { print $2 }')
[ "$soname" = librecorder-scope-gtk4.so.1 ] || fail "soname is '$soname'"
exports=$(nm -D --defined-only "$lib/librecorder-scope-gtk4.so" |
          awk '{ print $3 }')
echo "$exports" | grep -qx recorder_scope_graph_new ||
    fail "recorder_scope_graph_new is not exported"
if echo "$exports" | grep -v '^recorder_scope_graph_' | grep -q .; then
    fail "the widget's library exports more than its API:
$(echo "$exports" | grep -v '^recorder_scope_graph_')"
fi
grep -q '^prefix=/usr$' "$lib/pkgconfig/recorder-scope-gtk4.pc" ||
    fail "the staged .pc does not say prefix=/usr"

# A user builds against the tree as installed: the staged .pc, moved to
# where the stage is (as a packager's sysroot would).
mkdir "$work/pc"
sed "s|=/usr|=$stage/usr|" "$lib/pkgconfig/recorder-scope-gtk4.pc" \
    > "$work/pc/recorder-scope-gtk4.pc"
export PKG_CONFIG_PATH="$work/pc"
flags=$(pkg-config --cflags --libs recorder-scope-gtk4) ||
    fail "pkg-config does not know recorder-scope-gtk4"
printf '#include <recorder/recorder_scope_graph.h>\nint main(void) { return 0; }\n' \
    > "$work/header.c"
cp "$work/header.c" "$work/header.cpp"
# shellcheck disable=SC2086
cc -std=c99 -Wall -Wextra -Werror -c "$work/header.c" -o "$work/header.o" \
    $flags || fail "the header does not compile as C"
# shellcheck disable=SC2086
g++ -std=c++11 -Wall -Wextra -Werror -c "$work/header.cpp" \
    -o "$work/header_cpp.o" $flags || fail "the header does not compile as C++"
# shellcheck disable=SC2086
cc -Wall -Wextra -Werror "$top/share/examples/embed_scope.c" \
    -o "$work/embed_scope" $flags || fail "embed_scope.c does not build"
LD_LIBRARY_PATH="$lib" ldd "$work/embed_scope" |
    grep -q "$lib/librecorder-scope-gtk4.so.1" ||
    fail "embed_scope does not use the installed library"

# --- the window's checks -------------------------------------------------------
# The embedding window: it has no title prefix of recorder_scope's.
find_embed() {
    wid=$(xdotool search --onlyvisible --pid "$1" --name "^$2\$" \
          2>/dev/null | tail -1)
    [ -n "$wid" ]
}

# Pixels of colour $2 (hex) in image $1.
pixels() {
    convert "$1" -format %c histogram:info:- |
        awk -F: -v colour="#$2" 'toupper($0) ~ colour { n += $1 } END { print n + 0 }'
}

# Pixels that differ between two images.
differ() {
    compare -metric AE "$1" "$2" null: 2>&1 | awk '{ print int($1) }' || true
}

# Pixels where the channels' traces differ between two images, colour by
# colour: the plots alone (the legends show the newest values even while
# paused, as the scope's window does).
traces_differ() {
    total=0
    for colour in FFCC33 FF5C5C; do
        for image in "$1" "$2"; do
            convert "$image" -fill black +opaque "#$colour" "$image.$colour.png"
        done
        total=$((total + $(differ "$1.$colour.png" "$2.$colour.png")))
    done
    echo "$total"
}

shot() {
    import -window "$wid" "$work/$1.png"
}

# Commands go to the example through its script file; it says "did: X".
tell() {
    echo "$1" >> "$script"
    wait_for "grep -qx 'did: $1' '$out'"
}

# $1: name; the rest: the program and its arguments.
check_embed() {
    name=$1
    shift
    script="$work/$name.script"
    out="$work/$name.out"
    err="$work/$name.err"
    : > "$script"
    RECORDER_SHARE="$seg" "$feeder" 60000 1000 >/dev/null 2>"$work/feed.err" &
    feeder_pid=$!
    pids="$pids $feeder_pid"
    EMBED_SCOPE_SCRIPT="$script" LD_LIBRARY_PATH="$lib" \
        GI_TYPELIB_PATH="$lib/girepository-1.0" \
        "$@" "$seg" 'ramp|wave' level >"$out" 2>"$err" &
    app=$!
    pids="$pids $app"
    wait_for "find_embed $app '$name'" ||
        fail "$name: no window"
    wait_for "grep -q '^attached: ' '$out'" || fail "$name: nothing attached"
    # Both graphs draw: amber (ramp, level) and red (wave).
    wait_for "shot $name-live && [ \$(pixels '$work/$name-live.png' FFCC33) -gt 300 ] &&
              [ \$(pixels '$work/$name-live.png' FF5C5C) -gt 150 ]" ||
        fail "$name: the graphs do not show the channels"

    # Live: the pixels move as the data does.
    wait_for "shot $name-later && [ \$(traces_differ '$work/$name-live.png' '$work/$name-later.png') -gt 200 ]" ||
        fail "$name: the graphs do not move with the data"

    # Paused: frozen while data keeps coming.
    tell pause
    sleep 0.3                           # a frame asked for before it
    shot "$name-paused"
    sleep 1
    shot "$name-paused2"
    moved=$(traces_differ "$work/$name-paused.png" "$work/$name-paused2.png")
    [ "$moved" -eq 0 ] ||
        fail "$name: $moved pixels of the traces moved while paused"

    # The span, changed while paused, changes the time axis at once.
    tell "span 0.5"
    wait_for "shot $name-span && [ \$(traces_differ '$work/$name-paused2.png' '$work/$name-span.png') -gt 200 ]" 5 ||
        fail "$name: a new span changed nothing"
    tell live
    wait_for "shot $name-live2 && [ \$(traces_differ '$work/$name-span.png' '$work/$name-live2.png') -gt 200 ]" ||
        fail "$name: live again, the graphs stand still"

    # The writer goes: the graph says so.
    kill "$feeder_pid"
    wait "$feeder_pid" 2>/dev/null || true
    wait_for "grep -q '^lost: ' '$out'" || fail "$name: the lost writer was not told"

    tell quit
    status=0
    wait "$app" || status=$?
    [ "$status" -eq 0 ] || fail "$name: exited with status $status: $(cat "$err")"
    if grep -E 'CRITICAL|WARNING|Traceback|Error' "$err"; then
        fail "$name: complained on stderr"
    fi
    rm -f "$seg"
}

check_embed embed_scope "$work/embed_scope"
check_embed embed_scope.py /usr/bin/python3 "$top/share/examples/embed_scope.py"

# --- the trigger, through introspection: a bad spec is refused, saying why;
# a good one fires once the ramp (1000 + i) crosses its level --------------
cat > "$work/trigger.py" <<'PYTHON'
import sys
import gi
gi.require_version("Gtk", "4.0")
gi.require_version("RecorderScope", "1.0")
from gi.repository import GLib, Gtk, RecorderScope
graph = RecorderScope.Graph.new(sys.argv[1], "ramp")
graph.props.trigger = "ramp>>1"
print("refused:", graph.props.trigger)
graph.props.trigger = "ramp>1500"
loop = GLib.MainLoop()
graph.connect("trigger-fired", lambda g, t: (print("fired: %.3f" % t), loop.quit()))
window = Gtk.Window(child=graph, default_width=300, default_height=200)
window.present()
GLib.timeout_add(15000, loop.quit)
loop.run()
PYTHON
RECORDER_SHARE="$seg" "$feeder" 3000 1000 >/dev/null 2>"$work/feed.err" &
pids="$pids $!"
LD_LIBRARY_PATH="$lib" GI_TYPELIB_PATH="$lib/girepository-1.0" \
    /usr/bin/python3 "$work/trigger.py" "$seg" >"$work/trigger.out" \
    2>"$work/trigger.err" || fail "trigger.py: $(cat "$work/trigger.err")"
grep -qx 'refused: None' "$work/trigger.out" ||
    fail "a bad trigger was taken: $(cat "$work/trigger.out")"
grep -q "trigger 'ramp>>1': one of >, < or <>" "$work/trigger.err" ||
    fail "a bad trigger was refused without saying why"
grep -q '^fired: ' "$work/trigger.out" || fail "the trigger did not fire"
# Sample 500 comes after 500 pauses of 1 ms: not before 0.5 s.
awk '/^fired: / { exit !($2 >= 0.5 && $2 < 10) }' "$work/trigger.out" ||
    fail "the trigger fired at the wrong time: $(cat "$work/trigger.out")"
echo "check-scope-embed: C and Python examples built and run against the staged install: ok"
