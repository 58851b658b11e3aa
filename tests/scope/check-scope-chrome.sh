#!/bin/sh
# The scope window's chrome under Xvfb: test_scope_window_key_bindings again, now
# with a display (SCOPE_TEST_DISPLAY=1), so it also builds the shortcuts
# window from its generated XML (every key and gesture listed, gestures
# with their icon) and the header bar (every button's tooltip names its
# key), and checks how GTK files the table's detailed action names; then
# test_scope_window_still_bin, the bin that draws the header bar, sliders
# and status line once per change instead of at every frame.
# GTK is not sanitizer-clean (leaks at exit, uninstrumented threads):
# sanitized: skip
set -eu
. "$(dirname "$0")/../support/scope_window_test.sh"
window_test check-scope-chrome 800x600 "" "$@"
export SCOPE_TEST_DISPLAY=1
"$build/tests/scope/test_scope_window_key_bindings"
"$build/tests/scope/test_scope_window_still_bin"
