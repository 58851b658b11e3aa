#!/bin/sh
# scope/ is layered in folders, each with a README.md whose "May include:"
# line names the folders below it. Checked here, from the sources alone:
#  - every folder has its README and that line, and the lines form no
#    cycle (data flows one way, down);
#  - every #include of a scope header names its folder, and that folder is
#    the file's own or one its README allows;
#  - GTK, GDK, GLib, epoxy and Xlib are included only under scope/window/
#    (the Makefile gives GTK's include flags to that folder alone);
#  - the library is reached through its public headers only
#    (<recorder/...>): a quoted include names a scope folder;
#  - no file passes 900 lines, no function 120 (from its opening brace in
#    column 0 to its closing one).
# SOURCES (default scope) may point at another tree, to show the check
# failing on a bad one.
# sanitized: skip (nothing built)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "${SOURCES:-$top/scope}" <<'EOF'
import os, re, sys

root = sys.argv[1]
problems = []
folders = sorted(d for d in os.listdir(root)
                 if os.path.isdir(os.path.join(root, d)))
allowed = {}
for folder in folders:
    readme = os.path.join(root, folder, "README.md")
    if not os.path.exists(readme):
        problems.append("scope/%s has no README.md" % folder)
        continue
    line = re.search(r"^May include: *(.*)$", open(readme).read(), re.M)
    if not line:
        problems.append("scope/%s/README.md has no 'May include:' line"
                        % folder)
        continue
    names = [n.strip() for n in line.group(1).split(",")]
    allowed[folder] = set(n for n in names if n and n != "nothing")
    for name in allowed[folder] - set(folders):
        problems.append("scope/%s/README.md allows '%s', no such folder"
                        % (folder, name))

# The allowed graph must not loop.
def loop_from(start, path):
    for nxt in sorted(allowed.get(path[-1], ())):
        if nxt == start:
            return path + [nxt]
        if nxt not in path:
            found = loop_from(start, path + [nxt])
            if found:
                return found
    return None
for folder in folders:
    found = loop_from(folder, [folder])
    if found:
        problems.append("folders loop: " + " -> ".join(found))
        break

windowing = re.compile(r'#include <(gtk|gdk|glib|gio|epoxy|X11)[/.]')
for folder in folders:
    for name in sorted(os.listdir(os.path.join(root, folder))):
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.join(root, folder, name)
        where = "scope/%s/%s" % (folder, name)
        for number, text in enumerate(open(path), 1):
            quoted = re.match(r'\s*#\s*include\s+"([^"]+)"', text)
            if quoted:
                header = quoted.group(1)
                if "/" not in header:
                    if os.path.exists(os.path.join(root, folder, header)):
                        problems.append("%s:%d: '%s' without its folder"
                                        % (where, number, header))
                    else:
                        problems.append("%s:%d: '%s' is no scope header: "
                                        "the library's public headers are "
                                        "<recorder/...>"
                                        % (where, number, header))
                    continue
                other = header.split("/")[0]
                if other in folders and other != folder and \
                        other not in allowed.get(folder, ()):
                    problems.append("%s:%d: includes %s, which %s/README.md "
                                    "does not allow" % (where, number,
                                                        header, folder))
            if folder != "window" and windowing.match(text):
                problems.append("%s:%d: %s outside scope/window"
                                % (where, number, text.strip()))
        lines = open(path).read().split("\n")
        if len(lines) - 1 > 900:
            problems.append("%s: %d lines, more than 900"
                            % (where, len(lines) - 1))
        opened = None
        for number, text in enumerate(lines, 1):
            if text.startswith("{") and opened is None:
                opened = number
            elif text.startswith("}") and opened is not None:
                if number - opened + 1 > 120:
                    problems.append("%s:%d: a function of %d lines, more "
                                    "than 120" % (where, opened,
                                                  number - opened + 1))
                opened = None

for problem in problems:
    print("check-scope-folders: " + problem)
if problems:
    sys.exit(1)
print("check-scope-folders: %d folders, includes flow down, GTK only in "
      "window/, the library through its public headers, no file over 900 "
      "lines nor function over 120" % len(folders))
EOF
