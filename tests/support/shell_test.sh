# shellcheck shell=sh
# Shared scaffolding of the shell tests that run recorder_scope and test
# programs without a display (the window's have scope_window_test.sh).
# Sourced, not run: tests/support/run-tests runs only check-*.sh. POSIX sh (dash).
#
#   . "$(dirname "$0")/../support/shell_test.sh"
#   shell_test NAME
#
# sets top (the source tree), build ($BUILD, default "build", relative to
# top), scope (the recorder_scope under test), work (a temporary directory,
# removed at exit) and pids (add each background pid: all are killed at
# exit; a script with more to undo defines shell_test_undo, run first),
# and unsets DISPLAY and WAYLAND_DISPLAY. Then: fail MESSAGE (prints
# "NAME: MESSAGE" and exits 1; a script may define its own after
# shell_test), wait_for CONDITION [SECONDS] (polls a shell condition, 20 s
# by default, then fails: no fixed sleeps, CI machines are shared).

top=$(cd "$(dirname "$0")/../.." && pwd)
case "${BUILD:-build}" in
    /*) build=$BUILD ;;
    *)  build="$top/${BUILD:-build}" ;;
esac
scope="$build/recorder_scope"

shell_test() {
    shell_test_name=$1
    work=$(mktemp -d)
    pids=""
    trap shell_test_cleanup EXIT INT TERM
    unset DISPLAY WAYLAND_DISPLAY
}

shell_test_cleanup() {
    if command -v shell_test_undo >/dev/null 2>&1; then
        shell_test_undo || true
    fi
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}

fail() {
    echo "$shell_test_name: $*"
    exit 1
}

wait_for() {
    deadline=$(($(date +%s) + ${2:-20}))
    while ! eval "$1"; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $1"
        sleep 0.05
    done
}
