#!/bin/sh
# recorder_scope -D --format ctf --output DIR (issue 17, item 2): the
# flight recorders of a live process (ctf_writer: signed, unsigned, hex
# and pointer, double, string, no and twelve arguments, two threads, one
# with a ring that wrapped) and
# of a dead one (multi_writer: its CLOCK_MONOTONIC time in each message)
# as CTF 1.8 traces. babeltrace2 reads them without a word on stderr, and
# prints every record of the text dump once, with its process, recorder,
# message, format and typed arguments, at the dump's microsecond; the
# clock's offset makes its times CLOCK_MONOTONIC's. Directories that are
# not new or empty are refused (exit 2), a directory that cannot be made
# is a failure (exit 1); forged formats and a randomly damaged segment do
# not crash the export, and what it writes babeltrace2 still reads.
set -eu
[ -n "${TRACE_TEST:-}" ] && set -x
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-ctf
# Enough records for streams of several 64 KiB packets.
count=200

unset RECORDER_TRACES
have_babeltrace=1
command -v babeltrace2 >/dev/null 2>&1 || have_babeltrace=0

# alpha (ctf_writer) stays alive; beta (multi_writer) has exited.
cp "$build/tests/writers/ctf_writer" "$work/alpha"
cp "$build/tests/writers/multi_writer" "$work/beta"
RECORDER_SHARE="$work/seg.alpha" "$work/alpha" $count >"$work/alpha.out" \
    2>"$work/alpha.err" &
alpha=$!
pids="$pids $alpha"
RECORDER_SHARE="$work/seg.beta" "$work/beta" $count 0.01 >"$work/beta.out" \
    2>"$work/beta.err" || fail "multi_writer failed: $(cat "$work/beta.err")"
wait_for "grep -q recorded '$work/alpha.out'"

# ---- what is refused ----
expect_status() {
    want=$1 expected=$2
    shift 2
    status=0
    "$scope" "$@" >/dev/null 2>"$work/err" || status=$?
    [ "$status" -eq "$want" ] || fail "'$*' exited with $status, not $want"
    grep -qF -- "$expected" "$work/err" ||
        fail "'$*' did not say '$expected': $(cat "$work/err")"
}
dump="-D -S $work/seg.alpha --format ctf --output"
expect_status 2 "--format ctf needs --output DIR" -D -S "$work/seg.alpha" \
    --format ctf
mkdir "$work/full"
echo keep >"$work/full/notes"
# shellcheck disable=SC2086
expect_status 2 "$work/full is not empty" $dump "$work/full"
[ "$(ls "$work/full")" = notes ] && [ "$(cat "$work/full/notes")" = keep ] ||
    fail "a refused directory was written to: $(ls "$work/full")"
echo file >"$work/plain"
# shellcheck disable=SC2086
expect_status 2 "$work/plain exists and is not a directory" $dump "$work/plain"
[ "$(cat "$work/plain")" = file ] || fail "a refused file was changed"
# shellcheck disable=SC2086
expect_status 1 "cannot create $work/none/trace" $dump "$work/none/trace"
[ ! -e "$work/none" ] || fail "a missing parent was made"
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$work/locked"
    chmod 500 "$work/locked"
    # shellcheck disable=SC2086
    expect_status 1 "cannot create $work/locked/metadata" $dump "$work/locked"
    chmod 700 "$work/locked"
fi
echo "refused: no --output, a directory not empty, a file; failed: no parent"

# ---- the traces ----
# The text dump, then the CTF trace of the same segments (-S ...).
export_both() {
    name=$1
    shift
    "$scope" "$@" >"$work/$name.text" 2>"$work/$name.text.err" ||
        fail "$*: $(cat "$work/$name.text.err")"
    "$scope" "$@" --format ctf --output "$work/$name" \
        >"$work/$name.out" 2>"$work/$name.err" ||
        fail "$* --format ctf: $(cat "$work/$name.err")"
    [ ! -s "$work/$name.out" ] || fail "--format ctf wrote on standard output"
    [ "$(head -1 "$work/$name/metadata")" = "/* CTF 1.8 */" ] ||
        fail "$name/metadata: $(head -1 "$work/$name/metadata")"
}
export_both one -D -S "$work/seg.alpha"
[ "$(ls "$work/one")" = "$(printf 'alpha-%s\nmetadata' "$alpha")" ] ||
    fail "one process: $(ls "$work/one")"
[ "$(wc -c <"$work/one/alpha-$alpha")" -gt 131072 ] ||
    fail "one process: a stream of $(wc -c <"$work/one/alpha-$alpha") bytes, not several packets"
export_both two -D -S "$work/seg.alpha" -S "$work/seg.beta"
beta=$(sed -n 's/^beta\[\([0-9]*\)\] .*/\1/p' "$work/two.text" | head -1)
[ -n "$beta" ] || fail "no beta in the merged dump"
[ "$(ls "$work/two")" = "$(printf 'alpha-%s\nbeta-%s\nmetadata' "$alpha" "$beta")" ] ||
    fail "two processes: $(ls "$work/two")"
for field in 'program = "alpha"' "pid = $alpha" 'program_1 = "beta"' \
             "pid_1 = $beta" 'processes = 2' 'domain = "recorder"' \
             'tracer_name = "recorder"' 'byte_order = ' 'magic;' \
             'timestamp_begin;' 'events_discarded;' 'freq = 1000000000;'; do
    grep -qF "$field" "$work/two/metadata" || fail "metadata: no '$field'"
done
echo "traces: metadata and one stream per process"

if [ "$have_babeltrace" -eq 0 ]; then
    echo "check-scope-ctf: babeltrace2 is not installed: its reading of" \
         "the traces is not checked (make check installs it)"
    exit 0
fi

# babeltrace2 reads a trace, exit 0, nothing on stderr. --clock-cycles:
# the clock's values, nanoseconds on the text dump's time axis.
read_trace() {
    babeltrace2 "$@" >"$work/bt.out" 2>"$work/bt.err" ||
        fail "babeltrace2 $*: $(cat "$work/bt.err")"
    [ ! -s "$work/bt.err" ] || fail "babeltrace2 $* warned: $(cat "$work/bt.err")"
}

# Compares babeltrace2's events to the text dump: the same records (process,
# recorder, message, microsecond), each once; formats and typed arguments
# as each kind of record was made; with --clock-seconds, the times of
# multi_writer's records are the CLOCK_MONOTONIC times they carry.
cat >"$work/compare.py" <<'PY'
import re, sys
from collections import Counter
text_path, cycles_path, seconds_path, single, kinds_wanted = sys.argv[1:6]

string = r'"((?:[^"\\]|\\.)*)"'
def unescape(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1),
                  m.group(1)), s)
event_re = re.compile(r'^\[(\d+(?:\.\d+)?)\] \S+ (\S+): \{ procname = '
                      + string + r', vpid = (\d+), lane = (\d+) \}, '
                      r'\{ format = ' + string + r', message = ' + string +
                      r'(.*) \}$')
arg_re = re.compile(r', arg(\d+) = (' + string + r'|[^,]+)')

def events(path):
    found = []
    for line in open(path, encoding='utf-8'):
        m = event_re.match(line.rstrip('\n'))
        if not m:
            sys.exit('babeltrace2 line not understood: ' + line)
        time, name, proc, pid, lane, fmt, msg, rest = m.groups()
        args = {}
        for a in arg_re.finditer(rest):
            value = a.group(2)
            args[int(a.group(1))] = (unescape(a.group(3))
                                     if a.group(3) is not None else value)
        if sorted(args) != list(range(len(args))):
            sys.exit('arguments not numbered arg0...: ' + line)
        found.append(dict(time=time, name=name, process='%s[%s]' % (
            unescape(proc), pid), lane=int(lane), format=unescape(fmt),
            message=unescape(msg), args=[args[k] for k in sorted(args)]))
    return found

text_re = re.compile(r'^(?:(\S+\[\d+\]) )?\[\d+ (\d+)\.(\d{6})\] (\w+): (.*)$')
want = Counter()
for line in open(text_path, encoding='utf-8'):
    m = text_re.match(line.rstrip('\n'))
    if not m:
        sys.exit('text dump line not understood: ' + line)
    process = m.group(1) or single
    want[(process, int(m.group(2)) * 1000000 + int(m.group(3)),
          m.group(4), m.group(5))] += 1

cycles = events(cycles_path)
seconds = events(seconds_path)
got = Counter()
previous = -1
for e in cycles:
    ns = int(e['time'])
    if ns < previous:
        sys.exit('events out of time order at ' + e['message'])
    previous = ns
    recorder = e['name'].split(':')[0]
    got[(e['process'], ns // 1000, recorder, e['message'])] += 1
if got != want:
    missing = want - got
    extra = got - want
    sys.exit('records differ from the text dump:\n  missing %s\n  extra %s' %
             (sorted(missing)[:5], sorted(extra)[:5]))

# Each kind of record: its format, its arguments typed and valued.
def check(e, fmt, args):
    if e['format'] != fmt:
        sys.exit('%s: format %r, not %r' % (e['message'], e['format'], fmt))
    if e['args'] != args:
        sys.exit('%s: arguments %s, not %s' % (e['message'], e['args'], args))

kinds = Counter()
for e in cycles:
    msg, words = e['message'], e['message'].split()
    if msg.startswith('signed '):
        n = int(words[1])
        check(e, 'signed %d and %ld', [str(n), str(n * 1000000000000)])
    elif msg.startswith('unsigned '):
        check(e, 'unsigned %u and %lu', [words[1], words[3]])
    elif msg.startswith('hex '):
        check(e, 'hex %x and pointer %p',
              ['0x' + words[1].upper(), '0x' + words[4][2:].upper()])
    elif msg.startswith('double '):
        if e['format'] != 'double %f and %g' or len(e['args']) != 2 or \
           abs(float(e['args'][0]) - float(words[1])) > 1e-6 or \
           float(e['args'][1]) != float(words[3]):
            sys.exit('double: %s %s' % (msg, e['args']))
    elif msg.startswith('string '):
        check(e, 'string %+s', [words[1]])
    elif msg == 'no arguments':
        check(e, 'no arguments', [])
    elif msg.startswith('many '):
        check(e, 'many' + ' %d' * 11 + ' %ld', words[1:])
    elif msg.startswith('thread step'):
        check(e, 'thread step %ld of %ld', [words[2], words[4]])
    elif msg.startswith('event '):
        check(e, 'event %ld at %lu ns', [words[1], words[3]])
    else:
        continue
    kinds[words[0]] += 1
for kind in kinds_wanted.split(','):
    if kind not in kinds:
        sys.exit('no %s record' % kind)

# multi_writer's records: recorded right after reading CLOCK_MONOTONIC
# (their timestamps mapped to it by the writer's calibration, which may
# put them a few nanoseconds early).
if len(seconds) != len(cycles):
    sys.exit('--clock-seconds gives %d events, --clock-cycles %d' %
             (len(seconds), len(cycles)))
monotonic = 0
for e in seconds:
    if e['message'].startswith('event '):
        read_ns = int(e['message'].split()[3])
        sec, frac = e['time'].split('.')
        ns = int(sec) * 1000000000 + int(frac.ljust(9, '0'))
        if not read_ns - 1000000 <= ns < read_ns + 10 * 1000000000:
            sys.exit('%s: at %d ns of the clock' % (e['message'], ns))
        monotonic += 1
print('%d events as the text dump, %s, %d CLOCK_MONOTONIC times' %
      (len(cycles), ', '.join('%d %s' % (kinds[k], k) for k in sorted(kinds)),
       monotonic))
PY
compare() {
    name=$1 single=$2 kinds=$3
    read_trace --clock-cycles --no-delta "$work/$name"
    mv "$work/bt.out" "$work/$name.cycles"
    read_trace --clock-seconds --no-delta "$work/$name"
    mv "$work/bt.out" "$work/$name.seconds"
    python3 "$work/compare.py" "$work/$name.text" "$work/$name.cycles" \
        "$work/$name.seconds" "$single" "$kinds" >"$work/compared" ||
        fail "$name: differs from the text dump: $(cat "$work/compared")"
    cat "$work/compared"
}
all=signed,unsigned,hex,double,string,no,many,thread
printf "one process: "
compare one "alpha[$alpha]" $all
printf "two processes: "
compare two - $all,event
grep -q "procname = \"beta\"" "$work/two.cycles" || fail "no beta event"

# A regex keeps the records of the recorders it names.
export_both some -D ctf_thread -S "$work/seg.alpha"
printf -- "-D ctf_thread: "
compare some "alpha[$alpha]" thread
# ctf_thread's ring wrapped: what it overwrote is no loss to report (the
# trace has the records the text dump has, babeltrace2 warns of nothing).
kept=$(grep -c ctf_thread "$work/some.cycles")
[ "$kept" -gt 0 ] && [ "$kept" -lt $count ] ||
    fail "-D ctf_thread: $kept records of $count, not the ring's last ones"

# ---- forged and damaged segments ----
# Every site of beta's dead segment now prints a format that reads more
# arguments than its records have, and strings from integers.
"$build/tests/writers/forge_segment" "$work/seg.beta" format \
    "%d %s %x %f %s %p %s %s %s %s %s %s %s" || fail "forge_segment failed"
export_both forged -D -S "$work/seg.beta"
read_trace --no-delta "$work/forged"
[ "$(wc -l <"$work/bt.out")" -eq "$(wc -l <"$work/forged.text")" ] ||
    fail "forged: $(wc -l <"$work/bt.out") events, $(wc -l <"$work/forged.text") lines"
grep -q 'format = "%d %s %x %f %s %p %s %s %s %s %s %s %s"' "$work/bt.out" ||
    fail "forged: the forged format is not in the events"
echo "forged formats: $(wc -l <"$work/bt.out") events read"

# Random bytes written over copies of alpha's segment (200 in the pages it
# uses): no crash; what the export writes, babeltrace2 reads.
python3 - "$work/seg.alpha" "$work/damaged" <<'PY'
import random, sys
source, prefix = sys.argv[1:3]
data = open(source, 'rb').read()
# Most of a segment is rings never written: damage the pages in use.
used = [p for p in range(0, len(data), 4096) if any(data[p:p + 4096])]
for copy in range(8):
    rng = random.Random(copy)
    damaged = bytearray(data)
    for _ in range(200):
        at = rng.choice(used) + rng.randrange(4096)
        damaged[at] = rng.randrange(256)
    open('%s.%d' % (prefix, copy), 'wb').write(damaged)
PY
written=0
for copy in 0 1 2 3 4 5 6 7; do
    status=0
    "$scope" -D -S "$work/damaged.$copy" --format ctf \
        --output "$work/damaged.$copy.ctf" >/dev/null 2>"$work/damaged.err" ||
        status=$?
    [ "$status" -le 2 ] || fail "damaged copy $copy: exit $status: $(cat "$work/damaged.err")"
    if [ "$status" -eq 0 ]; then
        babeltrace2 "$work/damaged.$copy.ctf" >/dev/null 2>"$work/bt.err" ||
            fail "damaged copy $copy: babeltrace2: $(cat "$work/bt.err")"
        written=$((written + 1))
    elif [ -e "$work/damaged.$copy.ctf" ]; then
        fail "damaged copy $copy: a failed export left $(ls "$work/damaged.$copy.ctf")"
    fi
done
echo "damaged segments: no crash, $written of 8 exported and read"
