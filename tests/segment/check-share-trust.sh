#!/bin/sh
# Attacks on the reader, as another local user would make them: a planted
# segment that names the victim's files, and a live one that names the
# victim's process. The victim's recorder_scope must refuse another user's
# segment, and read it as data only with --any-owner. Needs root (throwaway
# users are created and removed).
set -eu
. "$(dirname "$0")/../support/throwaway_users.sh"
throwaway_users check-share-trust

# The victim's private file and root's.
secret="victim secret $$"
as "$victim" sh -c "umask 077; echo '$secret' > $work/victim.secret"
root_secret="root secret $$"
(umask 077; echo "$root_secret" > "$work/root.secret")

# 1. A dead segment of the attacker's whose one record prints, with %+s,
#    the string at address 4096 of a module that names the victim's file.
as "$attacker" env RECORDER_SHARE="$work/planted" RECORDER_TRACES=feed=ramp, \
    "$feeder" 1 4096 0.2 2>/dev/null
as "$attacker" "$forge" "$work/planted" format '%+s'
as "$attacker" "$forge" "$work/planted" module "$work/victim.secret" 4096
as "$attacker" chmod 644 "$work/planted"    # the attacker wants it read

if as "$victim" "$scope" -S "$work/planted" -D >"$work/out" 2>"$work/err"; then
    fail "the victim read another user's segment without --any-owner"
fi
grep -q "belongs to user $attacker" "$work/err" ||
    fail "the refusal does not name the owner: $(cat "$work/err")"
grep -q -- "--any-owner" "$work/err" || fail "the refusal does not say how to accept"
as "$victim" "$scope" -S "$work/planted" -D --any-owner >"$work/out" 2>"$work/err" ||
    fail "--any-owner -D failed: $(cat "$work/err")"
grep -q "$secret" "$work/out" && fail "the victim's file was printed: $(cat "$work/out")"
grep -q "<0x1000>" "$work/out" || fail "the record is missing: $(cat "$work/out")"

# Root reading it: the same, with root's own file.
as "$attacker" "$forge" "$work/planted" module "$work/root.secret" 4096
"$scope" -S "$work/planted" -D >"$work/out" 2>"$work/err" &&
    fail "root read another user's segment without --any-owner"
"$scope" -S "$work/planted" -D --any-owner >"$work/out" 2>&1 ||
    fail "root --any-owner -D failed"
grep -q "$root_secret" "$work/out" && fail "root's file was printed"

# 2. A live segment of the attacker's that names a victim's process, whose
#    memory holds a secret at the address its one record carries.
as "$victim" python3 -c '
import ctypes, sys, time
secret = ctypes.create_string_buffer(sys.argv[1].encode())
print(ctypes.addressof(secret), flush=True)
time.sleep(60)' "$secret" >"$work/victim.address" 2>/dev/null &
victim_pid=$!
for _ in $(seq 100); do [ -s "$work/victim.address" ] && break; sleep 0.05; done
address=$(cat "$work/victim.address")
[ -n "$address" ] || fail "the victim process did not start"
as "$attacker" env RECORDER_SHARE="$work/live" RECORDER_TRACES=feed=ramp, \
    "$feeder" 1 "$address" 2>/dev/null &
for _ in $(seq 100); do
    as "$attacker" "$scope" -S "$work/live" -l >/dev/null 2>&1 && break
    sleep 0.05
done
as "$attacker" "$forge" "$work/live" format '%+s'
as "$attacker" "$forge" "$work/live" pid "$victim_pid"
as "$attacker" chmod 644 "$work/live"

as "$victim" "$scope" -S "$work/live" -D >"$work/out" 2>&1 &&
    fail "the victim read the live segment of another user"
as "$victim" "$scope" -S "$work/live" -D --any-owner >"$work/out" 2>&1 ||
    fail "--any-owner -D of the live segment failed"
grep -q "$secret" "$work/out" && fail "the victim's process memory was printed"
as "$victim" "$scope" -S "$work/live" -l --any-owner >"$work/out" 2>&1 ||
    fail "--any-owner -l failed"
grep -q "pid $victim_pid (unverified" "$work/out" ||
    fail "-l shows the claimed pid as the writer: $(head -n 2 "$work/out")"
grep -q "read as data only" "$work/out" || fail "-l does not say data only"

# 3. The reader's own dead segment whose module names a file of its own
#    with the right device, inode, size and owner, but no build id: still
#    not read (only the very ELF file that was mapped is).
RECORDER_SHARE="$work/own" RECORDER_TRACES=feed=ramp, "$feeder" 1 4096 0.2 2>/dev/null
"$forge" "$work/own" format '%+s'
"$forge" "$work/own" module "$work/root.secret" 4096
"$scope" -S "$work/own" -D >"$work/out" 2>&1 || fail "-D of our own segment failed"
grep -q "$root_secret" "$work/out" && fail "a file without a build id was read"
grep -q "<0x1000>" "$work/out" || fail "own segment: record missing: $(cat "$work/out")"

# 4. Another user's file at the default path, then at its .prev: the
#    program shares in a path of its own, says which, and the scope finds
#    it there. In a private /tmp (a mount namespace), not to disturb the
#    machine's own /tmp/recorder_share; the programs are copied out first.
bins=$(mktemp -d /var/tmp/check-share-trust.XXXXXX)
cp "$feeder" "$scope" "$bins/"
# A sanitizer's suppressions in a tree under /tmp would vanish there too.
for kind in tsan lsan; do
    options=$(printf %s "$kind" | tr a-z A-Z)_OPTIONS
    eval "value=\${$options:-}"
    case "$value" in
        *suppressions=*)
            cp "$top/tests/support/$kind.supp" "$bins/"
            export "$options=$value suppressions=$bins/$kind.supp" ;;
    esac
done
cat >"$bins/fallback.sh" <<SCRIPT
set -eu
mount -t tmpfs -o mode=1777 tmpfs /tmp
fail() { echo "check-share-trust: \$*"; exit 1; }
default=/tmp/recorder_share
fallback=/tmp/run/recorder_share
mkdir -m 700 /tmp/run
share() {
    env -u RECORDER_SHARE XDG_RUNTIME_DIR=/tmp/run RECORDER_TRACES=feed=ramp, \
        $bins/scope_feeder 3 1000 "\$@"
}
runuser -u $attacker -- sh -c "echo planted > \$default"
share 0.3 2>/tmp/err
grep -q "\$default belongs to user $(id -u "$attacker"), not to us.*; sharing in \$fallback instead" /tmp/err ||
    fail "no fallback from a planted \$default: \$(cat /tmp/err)"
env -u RECORDER_SHARE XDG_RUNTIME_DIR=/tmp/run $bins/recorder_scope -l >/tmp/out 2>&1 ||
    fail "the scope did not find the fallback segment: \$(cat /tmp/out)"
grep -q "^\$fallback: scope_feeder" /tmp/out || fail "-l: \$(head -n 1 /tmp/out)"
grep -q planted \$default || fail "the planted file was touched"

rm -f \$default \$fallback
runuser -u $attacker -- sh -c "echo planted > \$default.prev"
share 0.1 2>/dev/null                   # a segment of ours, then stale
share 0.1 2>/tmp/err
grep -q "\$default.prev belongs to user .*; sharing in \$fallback instead" /tmp/err ||
    fail "a planted \$default.prev blocks sharing: \$(cat /tmp/err)"
grep -q planted \$default.prev || fail "the planted .prev was touched"
SCRIPT
if unshare -m true 2>/dev/null; then
    unshare -m sh "$bins/fallback.sh" || { rm -rf "$bins"; exit 1; }
else
    echo "check-share-trust: SKIP fallback path: no mount namespace here"
fi
rm -rf "$bins"
echo "check-share-trust: planted files, planted pids and foreign owners refused"
