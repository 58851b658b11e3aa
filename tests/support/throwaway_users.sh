# shellcheck shell=sh
# An attacker and a victim for the security checks: two throwaway local
# users, a shared sticky directory, all removed at exit. Sourced, not run.
#
#   . "$(dirname "$0")/../support/throwaway_users.sh"
#   throwaway_users NAME
#
# sets top, build, scope, feeder and forge (the programs under test),
# attacker and victim (user names), work (mode 1777, as /tmp), defines
# fail MESSAGE ("NAME: MESSAGE", exit 1) and as USER COMMAND... (runs it
# as USER, without RECORDER_TRACES). Exits 0 with SKIP unless root with
# useradd.

throwaway_users() {
    name=$1
    top=$(cd "$(dirname "$0")/../.." && pwd)
    build=${BUILD:-build}
    case "$build" in /*) ;; *) build="$top/$build" ;; esac
    scope="$build/recorder_scope"
    feeder="$build/tests/writers/scope_feeder"
    forge="$build/tests/writers/forge_segment"
    if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null; then
        echo "SKIP: needs root and useradd to create the attacker and victim"
        exit 0
    fi
    attacker=rec_atk_$$
    victim=rec_vic_$$
    work=$(mktemp -d)
    trap throwaway_users_cleanup EXIT
    useradd -M -d /nonexistent -s /bin/sh "$attacker"
    useradd -M -d /nonexistent -s /bin/sh "$victim"
    chmod 1777 "$work"
}

throwaway_users_cleanup() {
    # runuser's children outlive it: end every process of the two users.
    pkill -u "$attacker" 2>/dev/null || true
    pkill -u "$victim" 2>/dev/null || true
    sleep 0.1
    userdel "$attacker" 2>/dev/null || true
    userdel "$victim" 2>/dev/null || true
    rm -rf "$work"
}

fail() { echo "$name: $*"; exit 1; }
as() { user=$1; shift; runuser -u "$user" -- env -u RECORDER_TRACES "$@"; }
