#!/bin/sh
# sanitized: skip
# An out-of-tree program builds against the installed copy with pkg-config,
# shared and static, and with the 1.2 link line (-lpthread -lm); DESTDIR
# stages; uninstall removes what install put. The graph widget's library,
# .pc and introspection data install too (check-scope-embed.sh builds and
# runs against them).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

make -s -C "$top" install PREFIX="$prefix" >/dev/null
for file in include/recorder/recorder.h include/recorder/recorder_ring.h \
            include/recorder/recorder_share.h \
            include/recorder/recorder_backtrace.h \
            include/recorder/recorder_regex.h \
            include/recorder/recorder_level.h \
            lib/librecorder.a lib/librecorder.so lib/librecorder.so.1 \
            lib/pkgconfig/recorder.pc share/man/man3/recorder.3 \
            share/man/man3/recorder_share.3 share/man/man1/recorder_scope.1 \
            bin/recorder_scope libexec/recorder/recorder_symbolize \
            libexec/recorder/recorder_scope_window \
            share/applications/recorder_scope.desktop \
            include/recorder/recorder_scope_graph.h \
            lib/librecorder-scope-gtk4.so lib/librecorder-scope-gtk4.so.1 \
            lib/pkgconfig/recorder-scope-gtk4.pc \
            lib/girepository-1.0/RecorderScope-1.0.typelib \
            share/gir-1.0/RecorderScope-1.0.gir \
            share/man/man3/recorder_scope_graph.3; do
    [ -e "$prefix/$file" ] || { echo "install: missing $file"; exit 1; }
done

# The installed front finds the installed window (here GTK, started
# without a display, says so: it ran), and links no GTK itself.
env -u DISPLAY -u WAYLAND_DISPLAY -u RECORDER_SCOPE_WINDOW \
    "$prefix/bin/recorder_scope" -S "$work/none" ramp 2>"$work/window.err" &&
    { echo "a window without a display exited 0"; exit 1; }
grep -q "cannot open display" "$work/window.err" ||
    { echo "the installed window did not run: $(cat "$work/window.err")"; exit 1; }
if ldd "$prefix/bin/recorder_scope" | grep -q libgtk; then
    echo "the installed recorder_scope links GTK"; exit 1
fi

# The shared library's soname and its exports: the API, nothing internal.
soname=$(objdump -p "$prefix/lib/librecorder.so" | awk '/SONAME/ { print $2 }')
[ "$soname" = librecorder.so.1 ] || { echo "soname is '$soname'"; exit 1; }
if nm -D --defined-only "$prefix/lib/librecorder.so" | awk '{ print $3 }' |
       grep -v '^recorder_' | grep -q .; then
    echo "shared library exports non-API symbols:"
    nm -D --defined-only "$prefix/lib/librecorder.so" | grep -v ' recorder_'
    exit 1
fi

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cp "$top/share/examples/two_threads.c" "$work/"
cd "$work"
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror two_threads.c -o shared_build \
    $(pkg-config --cflags --libs recorder) -pthread
LD_LIBRARY_PATH="$prefix/lib" ./shared_build > shared.out 2>&1
grep -q "producer: Made item 3 = 9" shared.out
ldd ./shared_build | grep -q "$prefix/lib/librecorder.so.1" ||
    LD_LIBRARY_PATH="$prefix/lib" ldd ./shared_build | grep -q "$prefix/lib/librecorder.so.1"

# shellcheck disable=SC2046
cc -Wall -Wextra -Werror two_threads.c -o static_build \
    $(pkg-config --cflags recorder) "$prefix/lib/librecorder.a" \
    $(pkg-config --static --libs recorder | sed 's/-L[^ ]* //; s/-lrecorder //')
./static_build | grep -q "records dumped"

# Nothing beyond the 1.2 link line: the backtrace libraries are opened at
# run time, so neither pkg-config nor a program names them.
libs=$(pkg-config --static --libs recorder)
case $libs in
    *unwind*|*-ldw*|*-lelf*) echo "pkg-config --static --libs: $libs"; exit 1 ;;
esac
cc -Wall -Wextra -Werror two_threads.c -o static_12 -I"$prefix/include" \
    "$prefix/lib/librecorder.a" -lpthread -lm
./static_12 | grep -q "records dumped"

# Staged install for packagers.
make -s -C "$top" install PREFIX=/usr DESTDIR="$work/stage" >/dev/null
[ -e "$work/stage/usr/lib/librecorder.so.1" ]
grep -q '^prefix=/usr$' "$work/stage/usr/lib/pkgconfig/recorder.pc"

make -s -C "$top" uninstall PREFIX="$prefix" >/dev/null
left=$(find "$prefix" -type f -o -type l)
if [ -n "$left" ]; then
    echo "uninstall left files behind:"
    echo "$left"
    exit 1
fi
echo "install, pkg-config builds (shared and static), DESTDIR, uninstall: ok"
