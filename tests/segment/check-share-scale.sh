#!/bin/sh
# A program the size of QEMU's generated trace code: 5 000 recorders in a
# library, 1 000 channels exported. Every recorder and channel must be in
# the segment (the tables once held 1 024 recorders and 256 channels, and
# dropped the rest without a word), and channels far past those numbers
# must carry the values recorded. Then the same library loaded with
# dlopen() by a program already sharing: the segment grows, keeps what it
# had, and lists the library's recorders. Then a growth the file size
# limit forbids: what is left out is said on stderr, in the program's
# 'list' and by recorder_scope -l.
# It builds and links programs of its own, which the sanitizer builds do not
# provide for (make check-asan, check-tsan):
# sanitized: skip
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$top/$build" ;; esac
scope="$build/recorder_scope"
work=$(mktemp -d)
pids=""
cleanup() {
    for pid in $pids; do kill -9 "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-share-scale: $*"; exit 1; }
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
events=5000

# Wait up to 20 s for a program to say it is ready, instead of sleeping.
wait_ready() {
    for _ in $(seq 400); do
        grep -q ready "$1" 2>/dev/null && return 0
        sleep 0.05
    done
    fail "not ready: $(cat "$1")"
}

# The library: recorder generated_event_N records v = 10 N + round, w = N.
awk -v n=$events 'BEGIN {
    print "#include <recorder/recorder.h>"
    print "static recorder_info *current;"
    print "#define recorder_info_for_any_event (*current)"
    for (i = 0; i < n; i++)
        printf "RECORDER(generated_event_%d, 8, \"Generated trace event %d\");\n", i, i
    print "static recorder_info *const events[] = {"
    for (i = 0; i < n; i++)
        printf "    RECORDER_INFO(generated_event_%d),\n", i
    print "};"
    print "void emit_all(unsigned round);"
    print "void emit_all(unsigned round)"
    print "{"
    print "    for (unsigned e = 0; e < sizeof(events) / sizeof(*events); e++)"
    print "    {"
    print "        current = events[e];"
    print "        record(any_event, \"v=%u w=%u\", e * 10 + round, e);"
    print "    }"
    print "}"
}' >"$work/events.c"
cc=${CC:-cc}
$cc -std=gnu11 -O0 -fPIC -shared -I"$top/include" "$work/events.c" \
    -o "$work/libevents.so" -L"$build" -lrecorder ||
    fail "cannot build the library of $events recorders"

cat >"$work/linked.c" <<'EOF'
#include <recorder/recorder.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
void emit_all(unsigned round);
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
int main(void)
{
    double start = now();
    recorder_dump_on_common_signals(0, 0);  /* shares: RECORDER_TRACES */
    fprintf(stderr, "sharing started in %.1f ms\n", (now() - start) * 1e3);
    for (unsigned round = 1; round <= 3; round++)
        emit_all(round);
    fprintf(stderr, "ready\n");
    for (;;)
        pause();
}
EOF
cat >"$work/loader.c" <<'EOF'
#include <recorder/recorder.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
RECORDER(host_event, 16, "The loading program's own recorder");
int main(int argc, char **argv)
{
    if (argc > 2)                           /* a file size limit, bytes */
    {
        struct rlimit limit = { strtoul(argv[2], NULL, 0),
                                strtoul(argv[2], NULL, 0) };
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    recorder_dump_on_common_signals(0, 0);
    record(host_event, "before loading %d", 42);
    void *library = dlopen(argv[1], RTLD_NOW);
    void (*emit_all)(unsigned) =
        library ? (void (*)(unsigned)) dlsym(library, "emit_all") : NULL;
    if (!emit_all)
    {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    for (unsigned round = 1; round <= 3; round++)
        emit_all(round);
    record(host_event, "after loading %d", 43);
    recorder_trace_set("list");
    fprintf(stderr, "ready\n");
    for (;;)
        pause();
}
EOF
$cc -std=gnu11 -I"$top/include" "$work/linked.c" -o "$work/linked" \
    -L"$work" -levents -L"$build" -lrecorder -Wl,-rpath,"$work" ||
    fail "cannot build the linked program"
$cc -std=gnu11 -I"$top/include" "$work/loader.c" -o "$work/loader" \
    -L"$build" -lrecorder -ldl || fail "cannot build the loading program"

# Channels named '.../v' for events 0 to 999 (one request, 1 000 channels),
# and 'v' and 'w' for the last event. Small rings: 1 000 exported rings.
export RECORDER_SHARE="$work/segment"
RECORDER_TRACES="recorder_export_size=16:generated_event_[0-9]{1,3}=v,:generated_event_$((events - 1))=v,w" \
    "$work/linked" >"$work/linked.out" 2>"$work/linked.err" &
pids="$pids $!"
wait_ready "$work/linked.err"
"$scope" -l >"$work/list" 2>&1 || fail "-l failed: $(cat "$work/list")"
grep -q "not shared\|Not shared" "$work/linked.err" "$work/list" &&
    fail "entries left out: $(grep -h "not shared\|Not shared" "$work/linked.err" "$work/list")"

# Every recorder: the library's and the built-in ones.
recorders=$(grep -Ec '^  generated_event_[0-9]+ ' "$work/list")
[ "$recorders" = "$events" ] || fail "-l lists $recorders of $events recorders"
for builtin in recorder recorder_error recorder_traces; do
    grep -Eq "^  $builtin " "$work/list" || fail "-l lacks built-in $builtin"
done
# Every channel, each with the three values recorded into it.
awk '/^  generated_event_[0-9]+\/v / {
        split($1, part, "[_/]"); n = part[3]
        if ($4 != 3 || $7 != 10 * n + 1 || $9 != 10 * n + 3) {
            print "bad channel: " $0; bad = 1
        }
        seen++
     }
     END { if (seen != 1000) print "channels seen: " seen; exit bad || seen != 1000 }' \
    "$work/list" || fail "channels of events 0 to 999 wrong"
grep -Eq "^  w +unsigned +- +3 samples  min $((events - 1)) max $((events - 1)) " "$work/list" ||
    fail "channel w of the last event: $(grep '^  w ' "$work/list")"
started=$(sed -n 's/^sharing started in \(.*\)$/\1/p' "$work/linked.err")
size=$(($(stat -c %s "$RECORDER_SHARE") / 1024))
echo "$events recorders, 1 002 channels: segment $size KiB, sharing started in $started"

# The library loaded later: the segment grows, in place for readers.
export RECORDER_SHARE="$work/loaded"
RECORDER_TRACES="generated_event_4321=v,w" \
    "$work/loader" "$work/libevents.so" >"$work/loader.out" 2>"$work/loader.err" &
pids="$pids $!"
wait_ready "$work/loader.err"
"$scope" -l >"$work/list" 2>&1 || fail "-l after dlopen failed: $(cat "$work/list")"
recorders=$(grep -Ec '^  generated_event_[0-9]+ ' "$work/list")
[ "$recorders" = "$events" ] || fail "after dlopen, -l lists $recorders of $events recorders"
grep -Eq '^  host_event ' "$work/list" || fail "the loading program's recorder is gone"
grep -Eq '^  v +unsigned +w +3 samples  min 43211 max 43213 ' "$work/list" ||
    fail "channel of a recorder loaded later: $(grep '^  [vw] ' "$work/list")"
"$scope" -D host_event >"$work/dump" 2>&1 || fail "-D failed: $(cat "$work/dump")"
grep -q "before loading 42" "$work/dump" || fail "a record made before the growth is lost"
grep -q "after loading 43" "$work/dump" || fail "a record made after the growth is lost"
ls "$work" | grep -q 'loaded.grow' && fail "a file of the growth is left: $(ls "$work")"
grep -q "not shared\|^Not shared" "$work/loader.err" &&
    fail "entries left out: $(grep -v '^ ' "$work/loader.err")"
echo "dlopen of $events recorders into a sharing program: the segment grew, all listed"

# A growth the file size limit forbids: the program runs on, and says what
# is left out, once on stderr, in its 'list', and to readers.
export RECORDER_SHARE="$work/limited"
"$work/loader" "$work/libevents.so" $((16 << 20)) \
    >"$work/limited.out" 2>"$work/limited.err" &
pids="$pids $!"
wait_ready "$work/limited.err"
# (The program's output, 'list' here, goes to stderr.)
grep -q "the shared segment cannot grow: .*file size limit" "$work/limited.err" ||
    fail "no message for the growth refused: $(grep -v '^ ' "$work/limited.err")"
[ "$(grep -c "shared [a-z ]* full ([0-9]* [a-z]*): recorder 'generated_event_[0-9]*' and any more like it not shared" "$work/limited.err")" = 1 ] ||
    fail "no single message for the recorders left out: $(grep -v '^ ' "$work/limited.err")"
grep -Eq "^Not shared: [0-9]+ left out of the [a-z ]+ \([0-9]+ [a-z]+\)" "$work/limited.err" ||
    fail "the program's list does not say what is left out: $(grep -v '^ ' "$work/limited.err")"
"$scope" -l >"$work/list" 2>&1 || fail "-l on the limited segment failed: $(cat "$work/list")"
grep -Eq "^Not shared \(the segment is full\): [0-9]+ (recorders|entries for want of)" "$work/list" ||
    fail "-l does not say what is left out: $(head -3 "$work/list")"
"$scope" -D recorder_traces 2>&1 | grep -Eq "Shared [a-z ]+ full at [0-9]+: recorder not shared" ||
    fail "recorder_traces does not say what is left out"
echo "a growth refused by ulimit -f: said on stderr, in list, in -l and recorder_traces"
