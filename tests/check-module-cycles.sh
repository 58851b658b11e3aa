#!/bin/sh
# lib/ is layered: no module uses, directly or through others, a module
# that uses it. A module is a .c file with its _private.h header (lib/*/x.c
# and lib/*/x_private.h are module "x"). Two graphs are checked for cycles:
#  1. includes: module A uses B if a file of A has #include "B's header";
#  2. links: A uses B if A.o has an undefined symbol that B.o defines (this
#     sees calls that a header declared on another module's behalf hides).
# A cycle is printed with, for each step, the line or symbol that makes it.
# Lower modules reach higher ones through hooks the higher ones set
# (registry_private.h, sites_private.h, share_hooks_private.h).
# SOURCES (default lib) and OBJECTS (default $BUILD/lib) may point at
# another tree, e.g. to show that the check fails on an older one.
# Sanitizer builds compile the same files:
# sanitized: skip
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-build}
case "$build" in /*) build_dir=$build ;; *) build_dir="$top/$build" ;; esac
sources=${SOURCES:-$top/lib}
objects=${OBJECTS:-$build_dir/lib}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "${OBJECTS:-}" ]; then
    (cd "$top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
         make -s BUILD="$build" "$build/librecorder.a" >/dev/null)
fi

# "OBJECT SYMBOL" for every global symbol defined, then undefined.
for object in "$objects"/*.o "$objects"/*/*.o; do
    [ -e "$object" ] || continue
    case "$object" in *.pic.o) continue ;; esac
    nm "$object" | awk -v o="$(basename "$object" .o)" \
        '$2 ~ /^[TDBRVWC]$/ { print o, $3 }' >>"$work/defined"
    nm -u "$object" | awk -v o="$(basename "$object" .o)" \
        '{ print o, $2 }' >>"$work/undefined"
done
[ -s "$work/defined" ] || { echo "check-module-cycles: no objects in $objects"; exit 1; }

python3 - "$sources" "$work/defined" "$work/undefined" <<'EOF'
import os, re, sys

sources, defined_file, undefined_file = sys.argv[1:]

def module(name):
    return re.sub(r'(_private)?\.[ch]$', '', os.path.basename(name))

def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop(); on.discard(w); component.add(w)
                if w == v: break
            if len(component) > 1: found.append(component)
    for v in sorted(edges):
        if v not in index: visit(v)
    return found

def one_cycle(edges, component):
    """A shortest cycle through the first module of 'component'."""
    start = min(component)
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(edges.get(path[-1], {})):
            if w == start: return path + [start]
            if w in component and w not in seen:
                seen.add(w); paths.append(path + [w])
    return [start]

def report(kind, edges):
    failed = 0
    for component in cycles(edges):
        path = one_cycle(edges, component)
        print("check-module-cycles: %s cycle among %s:"
              % (kind, ", ".join(sorted(component))))
        for a, b in zip(path, path[1:]):
            print("  %s -> %s (%s)" % (a, b, edges[a][b]))
        failed += 1
    if not failed:
        print("%s: no cycle among %d modules" % (kind, len(edges)))
    return failed

# 1. Includes of lib/*.[ch] and lib/*/*.[ch], by header name.
files = []
for folder, _, names in os.walk(sources):
    files += [os.path.join(folder, n) for n in names if re.search(r'\.[ch]$', n)]
headers = {os.path.basename(f) for f in files if f.endswith('.h')}
includes = {}
for f in sorted(files):
    includes.setdefault(module(f), {})
    for number, line in enumerate(open(f, errors='replace'), 1):
        m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
        if m and os.path.basename(m.group(1)) in headers:
            a, b = module(f), module(m.group(1))
            if a != b:
                includes[a].setdefault(b, "%s:%d" % (os.path.relpath(f, sources), number))

# 2. Links between objects.
owner = {}
for line in open(defined_file):
    o, symbol = line.split()
    owner.setdefault(symbol, o)
links = {}
for line in open(undefined_file):
    o, symbol = line.split()
    links.setdefault(o, {})
    if symbol in owner and owner[symbol] != o:
        links[o].setdefault(owner[symbol], symbol)

failed = report("includes", includes) + report("links", links)
sys.exit(1 if failed else 0)
EOF
