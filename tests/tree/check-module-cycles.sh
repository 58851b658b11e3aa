#!/bin/sh
# lib/ is layered: no module uses, directly or through others, a module
# that uses it, and no folder of lib/ does either. A module is a .c file
# with its _private.h header (lib/F/x.c and lib/F/x_private.h are module
# "F/x"). Two graphs are checked for cycles:
#  1. includes: module A uses B if a file of A has #include "B's header";
#  2. links: A uses B if A.o has an undefined symbol that B.o defines (this
#     sees calls that a header declared on another module's behalf hides).
# Then folders: folder F uses folder G if a module of F uses a module of G
# in either graph; a folder cycle is printed as a chain of folders, each
# step with the module use that makes it.
# A cycle is printed with, for each step, the line or symbol that makes it.
# Lower modules reach higher ones through hooks the higher ones set
# (registry_private.h, sites_private.h, share_hooks_private.h).
#
# scope/ is checked from its includes only (its two programs link it
# whole): modules as in lib/ (x.c, x.h, x_private.h), every folder under
# it a folder; a cycle of either fails the check. A file split in parts
# shares its private header with them (source_private.h, the kinds of
# source; graph_draw_private.h, the legend and the plot).
#
# SOURCES (default lib), OBJECTS (default $BUILD/lib) and SCOPE (default
# scope) may point at another tree, e.g. to show that the check fails on an
# older one.
# Sanitizer builds compile the same files:
# sanitized: skip
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) build_dir=$build ;; *) build_dir="$top/$build" ;; esac
sources=${SOURCES:-$top/lib}
objects=${OBJECTS:-$build_dir/lib}
scope=${SCOPE:-$top/scope}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "${OBJECTS:-}" ]; then
    (cd "$top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
         make -s BUILD="$build" "$build/librecorder.a" >/dev/null)
fi

# "FOLDER/MODULE SYMBOL" for every global symbol defined, then undefined.
# Only objects of sources that exist: a build tree older than a move keeps
# the objects of files that left their folder.
for object in "$objects"/*.o "$objects"/*/*.o; do
    [ -e "$object" ] || continue
    case "$object" in *.pic.o) continue ;; esac
    name=${object#"$objects"/}
    name=${name%.o}
    [ -e "$sources/$name.c" ] || continue
    nm "$object" | awk -v o="$name" \
        '$2 ~ /^[TDBRVWC]$/ { print o, $3 }' >>"$work/defined"
    nm -u "$object" | awk -v o="$name" '{ print o, $2 }' >>"$work/undefined"
done
[ -s "$work/defined" ] || { echo "check-module-cycles: no objects in $objects"; exit 1; }
touch "$work/undefined"

python3 - "$sources" "$work/defined" "$work/undefined" "$scope" <<'EOF'
import os, re, sys

sources, defined_file, undefined_file, scope = sys.argv[1:]

def cycles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
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
    """A shortest cycle through the first node of 'component'."""
    start = min(component)
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(edges.get(path[-1], {})):
            if w == start: return path + [start]
            if w in component and w not in seen:
                seen.add(w); paths.append(path + [w])
    return [start]

def report(kind, edges, noun="modules", prefix="check-module-cycles: "):
    """Print each cycle; returns how many there are."""
    found = 0
    for component in cycles(edges):
        path = one_cycle(edges, component)
        print("%s%s cycle among %s:"
              % (prefix, kind, ", ".join(sorted(component))))
        for a, b in zip(path, path[1:]):
            print("  %s -> %s (%s)" % (a, b, edges[a][b]))
        found += 1
    if not found:
        print("%s: no cycle among %d %s" % (kind, len(edges), noun))
    return found

def folders_of(edges, folder):
    """Folder graph: F -> G with the first module use that makes it."""
    result = {}
    for a in sorted(edges):
        result.setdefault(folder(a), {})
        for b, why in sorted(edges[a].items()):
            if folder(a) != folder(b):
                result[folder(a)].setdefault(
                    folder(b), "%s -> %s: %s" % (a, b, why))
    return result

def source_files(root):
    """Every .c and .h under 'root', as paths relative to it."""
    found = []
    for folder, _, names in os.walk(root):
        found += [os.path.relpath(os.path.join(folder, n), root)
                  for n in names if re.search(r'\.[ch]$', n)]
    return sorted(found)

def module(path):
    """'segment/share_file_private.h' -> 'segment/share_file'."""
    return re.sub(r'(_private)?\.[ch]$', '', path)

def include_edges(root, files, resolve):
    """Module graph from #include "..." lines resolved by 'resolve'."""
    edges = {}
    for f in files:
        edges.setdefault(module(f), {})
        for number, line in enumerate(open(os.path.join(root, f),
                                           errors='replace'), 1):
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            header = m and resolve(f, m.group(1))
            if header and module(header) != module(f):
                edges[module(f)].setdefault(module(header),
                                            "%s:%d" % (f, number))
    return edges

def resolver(files):
    """An include names a file by its path (from the root or the including
    file's folder) or, as before folders were named, by its base name."""
    known = set(files)
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
    def resolve(including, name):
        for candidate in (os.path.normpath(os.path.join(
                              os.path.dirname(including), name)),
                          os.path.normpath(name)):
            if candidate in known:
                return candidate
        unique = by_name.get(os.path.basename(name), [])
        return unique[0] if len(unique) == 1 else None
    return resolve

def lib_folder(name):
    return name.split('/')[0] if '/' in name else '.'

# ---- lib/: includes and links, modules and folders ----------------------------

files = source_files(sources)
includes = include_edges(sources, files, resolver(files))

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

uses = {}
for graph in (includes, links):
    for a in graph:
        uses.setdefault(a, {})
        for b, why in graph[a].items():
            uses[a].setdefault(b, why)

failed = (report("includes", includes) + report("links", links) +
          report("lib folders", folders_of(uses, lib_folder), "folders"))

# ---- scope/: includes only --------------------------------------------------------

if os.path.isdir(scope):
    scope_files = source_files(scope)
    scope_includes = include_edges(scope, scope_files, resolver(scope_files))
    failed += (report("scope includes", scope_includes, "modules") +
               report("scope folders", folders_of(scope_includes, lib_folder),
                      "folders"))

sys.exit(1 if failed else 0)
EOF
