#!/bin/sh
# recorder_scope -D --format chrome-json (issue 17, item 1): two feeders,
# the first alive, the second killed by SIGSEGV (its crash report), in one
# Chrome trace-event JSON file. The file parses as JSON; every record of
# the text dump is an instant event, once, in the dump's order, at the
# dump's microsecond; the counters of a channel are the values and times
# of the headless CSV; metadata names both processes and their lanes; the
# crash is a process-wide event with frames. Bad command lines exit 2, a
# failed write 1.
set -eu
[ -n "${TRACE_TEST:-}" ] && set -x
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-chrome-json
feeder="$build/tests/writers/scope_feeder"
export RECORDER_TRACES=feed=ramp,wave,level

# ---- bad command lines ----
expect_usage() {
    expected=$1
    shift
    status=0
    "$scope" "$@" >/dev/null 2>"$work/err" || status=$?
    [ "$status" -eq 2 ] || fail "'$*' exited with $status, not 2"
    grep -qF -- "$expected" "$work/err" ||
        fail "'$*' did not say '$expected': $(cat "$work/err")"
}
expect_usage "expected text, chrome-json or ctf" -D --format yaml
expect_usage "--format chooses what -D writes: give -D" --format chrome-json
expect_usage "--output is where --format ctf writes" -D --output "$work/t"
expect_usage "--output is where --format ctf writes" -D --format chrome-json \
    --output "$work/t"
expect_usage "--format ctf needs --output DIR" -D --format ctf
expect_usage "--format chrome-json writes JSON on standard output: not with -l" \
    -l -D --format chrome-json
expect_usage "option --format needs an argument" -D --format
echo "bad command lines: exit 2"

# ---- two processes: a lives on, b dies of SIGSEGV ----
RECORDER_SHARE="$work/seg.a" "$feeder" 200 1000 >/dev/null 2>"$work/a.err" &
a=$!; pids="$pids $a"
wait_for '[ -s "$work/seg.a" ]'
RECORDER_SHARE="$work/seg.b" "$feeder" 100 5000 >/dev/null 2>"$work/b.err" &
b=$!; pids="$pids $b"
wait_for "grep -q recorded '$work/a.err' && grep -q recorded '$work/b.err'"
kill -SEGV "$b"
wait "$b" 2>/dev/null || true
wait_for "'$scope' -S '$work/seg.b' -D 2>/dev/null | grep -q 'Received SIGSEGV'"

"$scope" -S "$work/seg.a" -S "$work/seg.b" -D --format chrome-json \
    >"$work/trace.json" 2>"$work/json.err" ||
    fail "chrome-json dump failed: $(cat "$work/json.err")"
grep -q "scope_feeder\[$b\] died" "$work/json.err" ||
    fail "no note that b died: $(cat "$work/json.err")"
"$scope" -S "$work/seg.a" -S "$work/seg.b" -D >"$work/dump.txt" 2>/dev/null ||
    fail "text dump failed"
"$scope" -S "$work/seg.a" --csv "$work/a.csv" --duration 0 -d 0 ramp \
    2>/dev/null || fail "CSV capture failed"

python3 -c 'import json, sys; json.load(sys.stdin)' <"$work/trace.json" ||
    fail "the output does not parse as JSON"

# Under a sanitizer (make check-asan), the library's handler chains to the
# sanitizer's, which reports and exits: no crash report in the segment.
crash_expected=$([ -n "${SANITIZED:-}" ] && echo 0 || echo 1)
python3 - "$work/trace.json" "$work/dump.txt" "$work/a.csv" "$a" "$b" \
    "$crash_expected" >"$work/why" 2>&1 <<'EOF' || fail "$(head -20 "$work/why")"
import json, re, sys
trace_path, dump_path, csv_path, a, b, crash_expected = sys.argv[1:]
a, b, crash_expected = int(a), int(b), int(crash_expected)
trace = json.load(open(trace_path))
assert trace.get("displayTimeUnit") == "ns", "displayTimeUnit"
events = trace["traceEvents"]
bad = []

def micros(ts):
    # ts is written as microseconds with three decimals: its whole part is
    # the dump's microsecond. Read the text, not a float.
    return int(ts)

raw = open(trace_path).read()
# ts as written, in event order, for exact comparisons.
written = re.findall(r'"ts":([0-9]+)\.([0-9]{3})', raw)

# Metadata: both processes named, every lane used named.
names = {(e["pid"]): e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "process_name"}
if names != {a: "scope_feeder", b: "scope_feeder"}:
    bad.append("process names: %r" % names)
lanes = {(e["pid"], e["tid"]) for e in events
         if e["ph"] == "M" and e["name"] == "thread_name"}
used = {(e["pid"], e["tid"]) for e in events if e["ph"] == "i" and
        e.get("s") == "t"}
if used - lanes:
    bad.append("lanes without a name: %r" % (used - lanes))

# Records: the text dump's lines, in order, at the same microsecond.
line = re.compile(r'^([a-z_]+)\[([0-9]+)\] \[[0-9]+ ([0-9]+)\.([0-9]{6})\] '
                  r'([a-z_]+): (.*)$')
dumped = []
for text in open(dump_path):
    m = line.match(text.rstrip("\n"))
    if not m:
        continue            # the crash report after the records
    dumped.append((int(m.group(2)), int(m.group(3)) * 1000000 +
                   int(m.group(4)), m.group(5), m.group(6)))
records = [(e["pid"], micros(e["ts"]), e["cat"], e["name"]) for e in events
           if e["ph"] == "i" and e.get("s") == "t"]
if len(dumped) < 300:
    bad.append("only %d lines in the text dump" % len(dumped))
if records != dumped:
    for i, (r, d) in enumerate(zip(records, dumped)):
        if r != d:
            bad.append("record %d: %r, dump %r" % (i, r, d))
            break
    bad.append("%d records, %d dump lines" % (len(records), len(dumped)))
ramps = [e for e in events if e["ph"] == "i" and e.get("cat") == "feed"]
for pid, base, count in ((a, 1000, 200), (b, 5000, 100)):
    mine = [e for e in ramps if e["pid"] == pid]
    if len(mine) != count:
        bad.append("%d feed records of %d, not %d" % (len(mine), pid, count))
    for i, e in enumerate(mine):
        if e["args"]["arguments"][:2] != [base + i, (i * 37) % 101 - 50]:
            bad.append("arguments %r" % e["args"]["arguments"]); break
        if e["args"]["format"] != "Ramp %ld steps, wave %d mV, level %f V":
            bad.append("format %r" % e["args"]["format"]); break
        if e["args"]["function"] != "main" or \
           not e["args"]["file"].endswith("scope_feeder.c"):
            bad.append("site %r" % e["args"]); break
stamps = [int(s) * 1000 + int(f) for s, f in written]
if stamps != sorted(stamps):
    bad.append("events out of time order")

# Counters of a: the CSV's values at the CSV's times, to the nanosecond.
rows = [l.strip().split(",") for l in open(csv_path)][1:]
csv = [(round(float(t) * 1e9), float(v)) for t, v in rows]
stamp_of = iter(written)
ordered = []
for e in events:
    if "ts" in e:
        s, f = next(stamp_of)
        ordered.append((e, int(s) * 1000 + int(f)))
counters = [(ns, e["args"]["ramp"]) for e, ns in ordered
            if e["ph"] == "C" and e["pid"] == a and e["name"] == "ramp"]
if len(csv) != 200 or counters != csv:
    bad.append("ramp counters %r... differ from the CSV %r..." %
               (counters[:3], csv[:3]))
if not any(e["ph"] == "C" and e["pid"] == b and e["name"] == "level"
           for e in events):
    bad.append("no level counter for b")

# The crash: b's, process-wide, with frames down to main.
crashes = [e for e in events if e.get("cat") == "crash"]
if len(crashes) != crash_expected:
    bad.append("%d crash events" % len(crashes))
elif crashes:
    c = crashes[0]
    if c["pid"] != b or c["name"] != "crash: SIGSEGV" or c["ph"] != "i" or \
       c["s"] != "p" or c["args"]["signal"] != 11:
        bad.append("crash event %r" % c)
    if not any(f.startswith("#") and " main " in f
               for f in c["args"]["frames"]):
        bad.append("crash frames %r" % c["args"]["frames"])
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("%d records as the dump, %d counters as the CSV, %s" %
      (len(records), len(counters),
       "crash of %d" % b if crashes else "no crash report (sanitized)"))
EOF
cat "$work/why"

# A regex leaves other recorders and their channels out.
"$scope" -S "$work/seg.a" -D 'feed' --format chrome-json >"$work/feed.json" \
    2>/dev/null || fail "-D feed --format chrome-json failed"
python3 - "$work/feed.json" <<'EOF' || fail "-D feed kept other recorders"
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
cats = {e["cat"] for e in events if e["ph"] == "i"}
assert cats == {"feed"}, cats
assert sum(e["ph"] == "C" for e in events) == 600
EOF

# In-process: chrome=FILE writes the same file at exit, with the same
# writer: the records and counters of the segment's file, but for strings
# only the living process could read.
RECORDER_SHARE="$work/seg.c" \
RECORDER_TRACES="feed=ramp,wave,level:chrome=$work/self.json" \
    "$feeder" 60 3000 0.1 >/dev/null 2>&1 || fail "feeder with chrome= failed"
[ -s "$work/self.json" ] || fail "chrome=FILE wrote nothing at exit"
"$scope" -S "$work/seg.c" -D --format chrome-json >"$work/seg.json" \
    2>/dev/null || fail "chrome-json dump of the exited feeder failed"
python3 - "$work/self.json" "$work/seg.json" >"$work/why" 2>&1 <<'EOF' ||
import json, sys
mine, theirs = (json.load(open(p))["traceEvents"] for p in sys.argv[1:])
assert len(mine) == len(theirs), "%d events, %d" % (len(mine), len(theirs))
# A heap string (%+s of a strdup) is fetched from a living process only:
# the dead one's file shows its address instead.
differ = [(m, t) for m, t in zip(mine, theirs)
          if m != t and "<0x" not in t.get("name", "")]
assert not differ, "the files differ: %r" % (differ[0],)
assert sum(e["ph"] == "C" for e in mine) == 180, "counters"
assert sum(e.get("cat") == "feed" for e in mine) == 60, "records"
print("in-process file: %d events as the segment's" % len(mine))
EOF
    fail "in-process file: $(cat "$work/why")"
cat "$work/why"

# A write that fails is an error.
if [ -w /dev/full ]; then
    status=0
    "$scope" -S "$work/seg.a" -D --format chrome-json >/dev/full \
        2>"$work/err" || status=$?
    [ "$status" -eq 1 ] || fail "a failed write exited with $status, not 1"
    grep -q "cannot write the output" "$work/err" ||
        fail "a failed write said: $(cat "$work/err")"
fi
echo "check-scope-chrome-json: passed"
