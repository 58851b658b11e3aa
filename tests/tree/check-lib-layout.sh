#!/bin/sh
# lib/ keeps its layout (sources only, nothing is built):
#  1. every folder of lib/ has a README.md saying what it holds, with one
#     line "May include: FOLDER, ..." (or "May include: nothing") naming
#     the other folders whose headers its files may include; those
#     allowances form no cycle (they are the layers);
#  2. a file of folder A includes a header of folder B != A only if A's
#     README allows B;
#  3. every #include of a private header (a header of lib/) names its
#     folder, "segment/share_file_private.h", in lib/ and in tests/ alike,
#     and names a header that is there;
#  4. no .c or .h file of lib/ passes 900 lines, and no function 120 (from
#     its opening brace at column 0 to its closing brace at column 0).
# LIB (default lib) and TESTS (default tests) may point at another tree,
# e.g. to show that the check fails on an older one.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
lib=${LIB:-$top/lib}
tests=${TESTS:-$top/tests}

python3 - "$lib" "$tests" <<'EOF'
import os, re, sys

lib, tests = sys.argv[1:]
MAX_LINES, MAX_FUNCTION = 900, 120
problems = []

def fail(text):
    problems.append(text)

def rel(path):
    return os.path.relpath(path, os.path.dirname(lib))

folders = sorted(d for d in os.listdir(lib)
                 if os.path.isdir(os.path.join(lib, d)))
headers = {}                            # base name -> "folder/name"
for folder in folders:
    for name in os.listdir(os.path.join(lib, folder)):
        if name.endswith('.h'):
            headers[name] = folder + '/' + name

# ---- 1. a README per folder, and what it allows ------------------------------

allowed = {}
for folder in folders:
    readme = os.path.join(lib, folder, 'README.md')
    if not os.path.exists(readme):
        fail("%s/%s has no README.md" % (rel(lib), folder))
        continue
    lines = [l for l in open(readme, errors='replace')
             if l.startswith('May include:')]
    if len(lines) != 1:
        fail("%s: needs one line 'May include: FOLDER, ...' (has %d)"
             % (rel(readme), len(lines)))
        continue
    names = [n for n in re.split(r'[,\s]+', lines[0][len('May include:'):])
             if n]
    if names == ['nothing']:
        names = []
    for name in names:
        if name not in folders or name == folder:
            fail("%s: 'May include' names %s, not another folder of lib/"
                 % (rel(readme), name))
    allowed[folder] = set(names) & set(folders) - {folder}

def cycle(graph):
    """A cycle of 'graph' as a list of nodes, or None."""
    state, stack = {}, []
    def visit(v):
        state[v] = 'open'; stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 'open':
                return stack[stack.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found: return found
        state[v] = 'done'; stack.pop()
        return None
    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found: return found
    return None

loop = cycle(allowed)
if loop:
    fail("the READMEs' 'May include' lines make a cycle: " + " -> ".join(loop))

# ---- 2 and 3. includes ------------------------------------------------------------

INCLUDE = re.compile(r'\s*#\s*include\s*"([^"]+)"')

def check_includes(path, folder):
    """Private headers named by folder; with 'folder', as its README says."""
    for number, line in enumerate(open(path, errors='replace'), 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        name = m.group(1)
        where = "%s:%d: #include \"%s\"" % (rel(path), number, name)
        base = os.path.basename(name)
        if '/' not in name:
            if base in headers or base.endswith('_private.h'):
                fail("%s: name its folder (\"%s\")"
                     % (where, headers.get(base, 'FOLDER/' + base)))
            continue
        target = name.split('/')[0]
        if target not in folders:
            continue                    # not lib's (e.g. "recorder/x.h")
        if not os.path.exists(os.path.join(lib, name)):
            fail("%s: no such header in %s" % (where, rel(lib)))
        elif folder in allowed and target != folder and \
                target not in allowed[folder]:
            fail("%s: %s/README.md does not allow %s/"
                 % (where, folder, target))

def sources(root):
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if re.search(r'\.(c|h|cpp)$', name):
                yield os.path.join(folder, name)

for path in sources(lib):
    check_includes(path, os.path.relpath(path, lib).split(os.sep)[0])
for path in sources(tests):
    check_includes(path, None)

# ---- 4. sizes ------------------------------------------------------------------------

for path in sources(lib):
    lines = open(path, errors='replace').read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if len(lines) > MAX_LINES:
        fail("%s: %d lines, more than %d: split it along a seam"
             % (rel(path), len(lines), MAX_LINES))
    start = None
    for number, line in enumerate(lines, 1):
        if line.startswith('{'):
            start = number
        elif line.startswith('}') and start:
            length = number - start + 1
            if length > MAX_FUNCTION:
                fail("%s:%d: a function of %d lines, more than %d: give "
                     "its parts names" % (rel(path), start, length,
                                          MAX_FUNCTION))
            start = None

for problem in problems:
    print("check-lib-layout: " + problem)
if problems:
    sys.exit(1)
print("lib layout: %d folders as their READMEs allow, private includes "
      "name their folder, files within %d lines, functions within %d"
      % (len(folders), MAX_LINES, MAX_FUNCTION))
EOF
