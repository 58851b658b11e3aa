# shellcheck shell=sh
# Shared scaffolding of the scripts that drive recorder_scope's window under
# Xvfb (tests/scope/check-scope-*.sh). Sourced, not run: tests/support/run-tests runs
# only check-*.sh. POSIX sh (dash). In a script:
#
#   . "$(dirname "$0")/../support/scope_window_test.sh"   # sets top and build ($BUILD)
#   ... a headless part, if any, runs here (when "${1:-}" != inner) ...
#   window_test NAME WxH "TOOLS..." "$@"
#
# window_test, unless $1 is "inner": skips (exit 0, "NAME: skipped, TOOL is
# not installed"; set window_test_skipped="window part skipped" to say
# otherwise) when xvfb-run, xauth or one of TOOLS is missing, else re-execs
# the script under xvfb-run on a WxHx24 screen with the argument "inner".
# Under Xvfb it returns with: work (a temporary directory, removed at exit;
# KEEP_SHOTS=DIR keeps its *.png there), pids (add each background pid: all
# are killed at exit), and GTK kept off the session (no accessibility bus,
# no D-Bus, private XDG_RUNTIME_DIR and XDG_CACHE_HOME, X11, the default
# renderer and theme).
# Then: fail MESSAGE (prints "NAME: MESSAGE" and $work/scope.err, exits 1;
# with window_test_trace=FILE, the last lines of FILE and of scope.err; a
# script may define its own after window_test), wait_for CONDITION
# [SECONDS] (polls a shell condition, 20 s by default, then fails),
# find_window PID (true once PID shows its '^recorder_scope: ' window,
# whose id it sets in wid).

# top, build and wait_for are the display-less tests' (shell_test.sh);
# fail, defined below, replaces theirs.
. "$(dirname "$0")/../support/shell_test.sh"

window_test() {
    window_test_name=$1
    if [ "${4:-}" != inner ]; then
        for tool in xvfb-run xauth $3; do
            if ! command -v "$tool" >/dev/null 2>&1; then
                echo "$1: ${window_test_skipped:-skipped}, $tool is not installed"
                exit 0
            fi
        done
        # -noreset: without it, Xvfb resets when its last client leaves, and
        # a scope started in that moment cannot open the display.
        exec xvfb-run -a -s "-noreset -screen 0 ${2}x24" sh "$0" inner
    fi
    work=$(mktemp -d)
    pids=""
    trap window_test_cleanup EXIT INT TERM
    export GTK_A11Y=none
    export DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent
    export XDG_RUNTIME_DIR="$work/runtime" XDG_CACHE_HOME="$work/cache"
    mkdir -m 700 "$XDG_RUNTIME_DIR" "$XDG_CACHE_HOME"
    export GDK_BACKEND=x11
    unset GSK_RENDERER GTK_THEME
}

window_test_cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [ -n "${KEEP_SHOTS:-}" ]; then
        cp "$work"/*.png "$KEEP_SHOTS"/ 2>/dev/null || true
    fi
    rm -rf "$work"
}

fail() {
    echo "$window_test_name: $*"
    if [ -n "${window_test_trace:-}" ]; then
        sed 's/^/  trace: /' "$window_test_trace" 2>/dev/null | tail -20
        sed 's/^/  scope: /' "$work/scope.err" 2>/dev/null | tail -5
    elif [ -f "${work:-}/scope.err" ]; then
        sed 's/^/  scope: /' "$work/scope.err"
    fi
    exit 1
}

# The scope's main window (GTK also maps a 1x1 one of its own).
find_window() {
    wid=$(xdotool search --onlyvisible --pid "$1" --name '^recorder_scope: ' \
        2>/dev/null | tail -1)
    [ -n "$wid" ]
}
