#!/bin/sh
# recorder_scope --metrics: bad command lines, a port in use; Debian's
# prometheus scrapes a test program's channels through it and its HTTP
# API gives back the values recorded, with their labels; 404 on unknown
# paths; scrapers that hang up mid-answer, slow ones, many at once stop
# neither the serving nor the reading; SIGINT stops it, port released.
set -eu
. "$(dirname "$0")/../support/shell_test.sh"
shell_test check-scope-metrics
command -v prometheus >/dev/null || fail "prometheus is not installed"

# Free ports, as the kernel hands them out (closed again at once).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
port2=$(free_port)
[ "$port" != "$port2" ] || port2=$(free_port)

# --- bad command lines: exit 2 naming the problem ---------------------------
expect_status() {
    want=$1 expected=$2
    shift 2
    status=0
    timeout 10 "$scope" "$@" >/dev/null 2>"$work/err" || status=$?
    [ "$status" -eq "$want" ] || fail "'$*' exited with $status, not $want"
    grep -qF -- "$expected" "$work/err" ||
        fail "'$*' did not say '$expected': $(cat "$work/err")"
}
expect_status 2 "--metrics '0': the port must be a number from 1 to 65535" --metrics 0
expect_status 2 "--metrics '70000': the port" --metrics 70000
expect_status 2 "'1.2.3.4.5' is not an IPv4 address" --metrics 1.2.3.4.5:9464
expect_status 2 "option --metrics needs an argument" --metrics
expect_status 2 "--metrics serves the channels, without a window or a capture: not with --png or --csv" \
    --metrics 9464 --png "$work/x.png" --duration 1
expect_status 2 "not with -D" --metrics 9464 -D
# An address this host does not have: exit 1, nothing else started.
expect_status 1 "cannot listen on 192.0.2.1:$port" --metrics "192.0.2.1:$port"

# --- the program and the endpoint -------------------------------------------
# The program's name has a quote and a backslash: labels escape them.
program='metrics"wr\iter'
ln -s "$build/tests/writers/metrics_writer" "$work/$program"
count=600
RECORDER_SHARE="$work/seg" RECORDER_TRACES='fixed=ramp,level:tick=tick,' \
    "$work/$program" "$count" 5000 >"$work/writer.out" 2>/dev/null &
writer=$!
pids="$pids $writer"
for _ in $(seq 200); do
    grep -q "recorded $count" "$work/writer.out" 2>/dev/null && break
    sleep 0.05
done
grep -q "recorded $count" "$work/writer.out" || fail "the writer never recorded"

"$scope" -S "$work/seg" --metrics "127.0.0.1:$port" ramp tick \
    2>"$work/scope.err" &
scope_pid=$!
pids="$pids $scope_pid"
for _ in $(seq 200); do
    grep -q "serving http://127.0.0.1:$port/metrics" "$work/scope.err" && break
    sleep 0.05
done
grep -q "serving" "$work/scope.err" || fail "no endpoint: $(cat "$work/scope.err")"
# The port is taken: a second one says so, exit 1.
expect_status 1 "cannot listen on 127.0.0.1:$port: Address already in use" \
    --metrics "$port"

# --- Prometheus scrapes it --------------------------------------------------
cat > "$work/prometheus.yml" <<CONFIG
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: recorder
    static_configs:
      - targets: ['127.0.0.1:$port']
CONFIG
prometheus --config.file="$work/prometheus.yml" \
    --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$port2" >"$work/prometheus.log" 2>&1 &
pids="$pids $!"

PORT=$port PORT2=$port2 PID=$writer COUNT=$count PROGRAM=$program \
HOST=$(hostname) python3 - <<'PYTHON' || fail "see above; prometheus log: $(tail -5 "$work/prometheus.log")"
import json, os, socket, sys, time, urllib.parse, urllib.request

port, port2 = int(os.environ["PORT"]), int(os.environ["PORT2"])
pid, count = os.environ["PID"], int(os.environ["COUNT"])
endpoint = "http://127.0.0.1:%d" % port

def fail(message):
    print("check-scope-metrics:", message)
    sys.exit(1)

def get(url, accept=None):
    request = urllib.request.Request(url)
    if accept:
        request.add_header("Accept", accept)
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.status, answer.headers["Content-Type"], answer.read().decode()

def query(expression):
    url = "http://127.0.0.1:%d/api/v1/query?query=%s" % (
        port2, urllib.parse.quote(expression))
    try:
        status, _, body = get(url)
    except OSError:
        return None                     # not up yet
    answer = json.loads(body)
    if answer["status"] != "success":
        fail("query %s: %s" % (expression, body))
    return answer["data"]["result"]

def sample(text, name, channel):
    for line in text.splitlines():
        if line.startswith(name + "{") and 'channel="%s"' % channel in line:
            return float(line.rsplit(" ", 1)[1])
    return None

# Prometheus's first scrapes: wait for the ramp's value (up to 20 s).
deadline = time.time() + 20
result = None
while time.time() < deadline:
    result = query('recorder_channel_value{job="recorder",channel="ramp"}')
    if result:
        break
    time.sleep(0.25)
if not result:
    fail("prometheus never had recorder_channel_value{channel=\"ramp\"}")
if len(result) != 1:
    fail("one ramp expected: %s" % result)
labels, value = result[0]["metric"], float(result[0]["value"][1])
expected = {"program": os.environ["PROGRAM"], "pid": pid,
            "host": os.environ["HOST"], "channel": "ramp", "unit": "steps"}
for key, want in expected.items():
    if labels.get(key) != want:
        fail("label %s is %r, not %r (%s)" % (key, labels.get(key), want, labels))
if value != 5000 + count - 1:
    fail("ramp's value in prometheus is %s, not %d" % (value, 5000 + count - 1))
samples = query('recorder_channel_samples_total{channel="ramp"}')
if float(samples[0]["value"][1]) != count:
    fail("ramp's samples_total is %s, not %d" % (samples[0]["value"][1], count))
up = query('up{job="recorder"}')
if float(up[0]["value"][1]) != 1:
    fail("the scrape is failing: %s" % up)
state = query('recorder_segment_state{state="live"}')
if float(state[0]["value"][1]) != 1 or state[0]["metric"]["pid"] != pid:
    fail("the segment is not live: %s" % state)

# The tick counter grows in prometheus (two scrapes apart).
def ticks():
    result = query('recorder_channel_samples_total{channel="tick"}')
    return float(result[0]["value"][1]) if result else 0
first = ticks()
deadline = time.time() + 10
while ticks() <= first + 50 and time.time() < deadline:
    time.sleep(0.25)
if ticks() <= first + 50:
    fail("tick samples do not grow in prometheus: %s then %s" % (first, ticks()))

# --- plain HTTP ---------------------------------------------------------------
status, kind, text = get(endpoint + "/metrics")
if kind != "text/plain; version=0.0.4; charset=utf-8":
    fail("Content-Type %s" % kind)
if sample(text, "recorder_channel_value", "ramp") != 5000 + count - 1:
    fail("/metrics: no ramp value:\n" + text)
status, kind, text = get(endpoint + "/metrics",
                         "application/openmetrics-text;version=1.0.0")
if not kind.startswith("application/openmetrics-text") or not text.endswith("# EOF\n"):
    fail("no OpenMetrics: %s\n%s" % (kind, text[-200:]))
try:
    get(endpoint + "/no/such/page")
    fail("an unknown path did not get 404")
except urllib.error.HTTPError as error:
    if error.code != 404:
        fail("an unknown path got %d" % error.code)

def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=5)

before = sample(get(endpoint + "/metrics")[2], "recorder_channel_samples_total", "tick")
# Scrapers that hang up: after half a request, and right after a whole
# one (with a reset, before reading the answer).
hangups = []
for n in range(20):
    s = connect()
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n" if n % 2 else
              b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    hangups.append(s)
for s in hangups:
    s.close()
# Slow clients: connected, a request trickling in, answers never read;
# and many at once.
slow = []
for n in range(30):
    s = connect()
    s.sendall(b"GET /metr")
    slow.append(s)
time.sleep(0.3)                         # the reader goes on meanwhile
start = time.time()
status, _, text = get(endpoint + "/metrics")
took = time.time() - start
after = sample(text, "recorder_channel_samples_total", "tick")
if status != 200 or after is None:
    fail("no scrape beside slow clients: %s" % status)
time.sleep(0.6)
later = sample(get(endpoint + "/metrics")[2], "recorder_channel_samples_total", "tick")
if not (later > after > before):
    fail("reading stalled: tick samples %s, %s, %s" % (before, after, later))
for s in slow:
    s.close()
print("check-scope-metrics: prometheus has ramp = %d with its labels; "
      "tick %d -> %d samples beside %d slow clients (scrape in %.3f s)"
      % (value, before, later, len(slow), took))
PYTHON

# --- SIGINT: exit 0, the port free again -------------------------------------
kill -INT "$scope_pid"
status=0
wait "$scope_pid" || status=$?
[ "$status" -eq 0 ] || fail "SIGINT: exit status $status: $(cat "$work/scope.err")"
grep -q "stopped by SIGINT" "$work/scope.err" || fail "no stop message"
# Nothing listens (a connection is refused), and a server may bind it
# again (SO_REUSEADDR, as ours: closed connections linger in TIME_WAIT).
python3 - "$port" <<'PYTHON' || fail "port $port still taken after the scope stopped"
import socket, sys
port = int(sys.argv[1])
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    sys.exit("something still listens on %d" % port)
except ConnectionRefusedError:
    pass
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen()
PYTHON
echo "check-scope-metrics: ok"
