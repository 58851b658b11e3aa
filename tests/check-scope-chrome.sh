#!/bin/sh
# The scope window's chrome under Xvfb: test_scope_key_bindings again, now
# with a display (SCOPE_TEST_DISPLAY=1), so it also builds the shortcuts
# window from its generated XML (every key and gesture listed, gestures
# with their icon) and the header bar (every button's tooltip names its
# key), and checks how GTK files the table's detailed action names.
# GTK is not sanitizer-clean (leaks at exit, uninstrumented threads):
# sanitized: skip
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
for tool in xvfb-run xauth; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "check-scope-chrome: skipped, $tool is not installed"
        exit 0
    fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# GTK kept off the session's services, as in check-scope-gui.sh.
export GTK_A11Y=none DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent
export XDG_RUNTIME_DIR="$work/runtime" XDG_CACHE_HOME="$work/cache"
mkdir -m 700 "$XDG_RUNTIME_DIR" "$XDG_CACHE_HOME"
export GDK_BACKEND=x11 SCOPE_TEST_DISPLAY=1
xvfb-run -a -s '-screen 0 800x600x24' "$build/tests/test_scope_key_bindings"
