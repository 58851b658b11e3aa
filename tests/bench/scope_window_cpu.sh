#!/bin/sh
# scope_window_cpu.sh BUILD - CPU the scope window takes to show four 1 kHz
# channels in one 1200x600 graph under Xvfb: with the GL renderer (the
# target), the cairo one, and the one the scope picks itself (cairo when GL
# is software, as it is under Xvfb). Exits 1 if GL takes more than 30% of a
# core.
set -u
build=${1:-build}
work=$(mktemp -d)
pids=""
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

export GTK_A11Y=none DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent
export XDG_RUNTIME_DIR="$work/runtime" XDG_CACHE_HOME="$work/cache"
mkdir -m 700 "$XDG_RUNTIME_DIR" "$XDG_CACHE_HOME"
export GDK_BACKEND=x11 RECORDER_SHARE="$work/segment"
display=:$(( 90 + $$ % 100 ))
Xvfb "$display" -screen 0 1280x1024x24 >/dev/null 2>&1 &
pids="$pids $!"
export DISPLAY="$display"
RECORDER_TRACES=bench_four=a,b,c,d "$build/bench/bench_feeder" >/dev/null 2>&1 &
pids="$pids $!"
sleep 1

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
status=0
for renderer in gl cairo default; do
    if [ "$renderer" = default ]; then
        unset GSK_RENDERER
    else
        export GSK_RENDERER=$renderer
    fi
    "$build/recorder_scope" -g 1200x600 >/dev/null 2>&1 &
    scope=$!
    sleep 4                                 # start-up and shader compiles
    before=$(ticks "$scope")
    sleep 10
    after=$(ticks "$scope")
    kill "$scope" 2>/dev/null
    wait "$scope" 2>/dev/null
    hz=$(getconf CLK_TCK)
    percent=$(( (after - before) * 100 / (10 * hz) ))
    printf '%-46s %10s%%\n' "scope window, 4 channels at 1 kHz, $renderer" \
        "$percent"
    if [ "$renderer" = gl ] && [ "$percent" -gt 30 ]; then
        echo "bench: target missed: scope window CPU with GL ($percent% > 30%)" >&2
        status=1
    fi
done
exit $status
