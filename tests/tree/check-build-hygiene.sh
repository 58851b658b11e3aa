#!/bin/sh
# The build and the source tree stay tidy (nothing here compiles anew):
#  1. Header dependencies: for every project header H, 'make -n -W H'
#     recompiles exactly the sources that include H, directly or through
#     other headers, and no other.
#  2. No Makefile target has two rules.
#  3. One of each helper: the async-signal-safe output helpers exist only
#     in lib/text/safe_output.c, the whole-name regex anchor only in
#     lib/text/regex_bound.c, the scope's PNG and CSV writers only in
#     scope/capture/graph_files.c.
#  4. No dead function: every function that lib/ or scope/ exports to
#     other files is called somewhere (public APIs, lib's and the graph
#     widget's, aside).
#  5. Project files cite no Markdown file the repository does not hold.
# Sanitizer builds compile the same files with the same Makefile:
# sanitized: skip
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}               # as make knows it: the .d files say so
case "$build" in /*) build_dir=$build ;; *) build_dir="$top/$build" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$top"
failed=0
fail() { echo "check-build-hygiene: $*"; failed=$((failed + 1)); }
run_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make BUILD="$build" "$@"; }

# ---- 1. header dependencies ---------------------------------------------------

run_make -s all tests >/dev/null        # up to date, so -n shows only -W's
find lib scope tests include share/examples -name '*.[ch]' -o -name '*.cpp' |
    sort >"$work/files"
# "FILE HEADER": FILE includes HEADER (by base name, whatever folder the
# include names: header names are unique).
xargs awk '/^[ \t]*#[ \t]*include[ \t]*("|<recorder\/)/ {
        name = $0
        sub(/^[^"<]*["<]/, "", name)
        sub(/[">].*$/, "", name)
        sub(/^.*\//, "", name)
        print FILENAME, name
    }' <"$work/files" >"$work/includes"
grep '\.h$' "$work/files" | grep -v '^tests/bench/' >"$work/headers"
# Every source that reaches each header: "HEADER SOURCE".
awk 'NR == FNR { n = split($1, p, "/"); by[$2] = by[$2] " " $1; next }
     {
        header = $1; n = split(header, p, "/"); delete seen
        queue[1] = p[n]; head = 1; tail = 1; seen[p[n]] = 1
        while (head <= tail) {
            count = split(by[queue[head++]], users, " ")
            for (u = 1; u <= count; u++) {
                file = users[u]
                if (file ~ /\.c$/) print header, file
                m = split(file, q, "/")
                if (file ~ /\.h$/ && !(q[m] in seen)) {
                    seen[q[m]] = 1; queue[++tail] = q[m]
                }
            }
        }
     }' "$work/includes" "$work/headers" | sort -u >"$work/reach"

# What 'make all tests' compiles to objects (with -c): every folder of lib/
# but helper/; programs built in one step from one source (the helper) are
# linked anew with the library anyway.
lib_parts=$(cd lib && ls -d */ | tr -d / | grep -vx helper | paste -sd '|' -)
compiled="^(lib/($lib_parts)/[^/]*|scope/[^/]+/[^/]*|tests/[a-z]+/test_[^/]*|tests/fuzz/replay_main)\\.c\$"
checked=0
before=$failed
while read -r header; do
    awk -v h="$header" '$1 == h { print $2 }' "$work/reach" |
        grep -E "$compiled" | sort -u >"$work/expected" || true
    run_make -n -W "$header" all tests 2>/dev/null |
        grep -oE ' -c [^ ]+\.c( |$)' | awk '{ print $2 }' | sort -u \
        >"$work/rebuilt" || true
    if ! cmp -s "$work/expected" "$work/rebuilt"; then
        fail "touching $header recompiles the wrong files" \
             "(< should, > should not):"
        diff "$work/expected" "$work/rebuilt" | grep '^[<>]' | head -8
    fi
    checked=$((checked + 1))
done <"$work/headers"
[ "$failed" -ne "$before" ] ||
    echo "header dependencies: $checked headers, each recompiles only its users"

# ---- 2. one rule per target ----------------------------------------------------

awk '
    /^\t/ { next }                              # recipe
    {
        line = $0
        while (line ~ /\\$/ && (getline more) > 0)
            line = substr(line, 1, length(line) - 1) " " more
        sub(/#.*/, "", line)
        if (line ~ /^-?include[ \t]/) next
        colon = 0; depth = 0                    # the first ":" not in $(...)
        for (i = 1; i <= length(line) && !colon; i++) {
            c = substr(line, i, 1)
            if (c == "(") depth++
            else if (c == ")") depth--
            else if (c == ":" && depth == 0) colon = i
        }
        if (!colon) next
        left = substr(line, 1, colon - 1)
        right = substr(line, colon + 1)
        if (left ~ /=/ || right ~ /^=/) next            # a variable
        if (right ~ /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*[+?:]?=/) next
        n = split(left, targets, /[ \t]+/)
        for (t = 1; t <= n; t++)
            if (targets[t] != "") {
                if (targets[t] in where)
                    printf "%s: lines %s and %d\n", targets[t],
                           where[targets[t]], NR
                else
                    where[targets[t]] = NR
            }
    }' Makefile >"$work/twice"
if [ -s "$work/twice" ]; then
    fail "Makefile targets with more than one rule:"
    cat "$work/twice"
else
    echo "Makefile: one rule per target"
fi

# ---- 3. one of each helper ------------------------------------------------------

before=$failed

helpers=$(grep -nE '^(static )?[a-z_ ]*[ *](write_all|say|append|append_text|base_name)\(' \
              lib/*/*.c | grep -v '^lib/text/safe_output\.c:' || true)
[ -z "$helpers" ] ||
    fail "output helpers outside lib/text/safe_output.c:" "$helpers"
anchors=$(grep -rnF '"^(%s)$"' lib scope | grep -v '^lib/text/regex_bound\.c:' || true)
[ -z "$anchors" ] ||
    fail "whole-name regexes not through recorder_regex_compile:" "$anchors"
savers=$(grep -nE 'graph_draw_png\(|scope_csv_write_graphs\(|^static bool write_(png|csv)\(' \
             scope/*/*.c |
             grep -vE '^scope/(capture/graph_files|draw/graph_draw|capture/csv_export)\.c:' ||
         true)
[ -z "$savers" ] ||
    fail "PNG/CSV saving outside scope/capture/graph_files.c:" "$savers"
[ "$failed" -ne "$before" ] || echo "one of each helper: ok"

# ---- 4. no dead function -----------------------------------------------------------

dead=""
for object in "$build_dir"/lib/*/*.o "$build_dir"/scope/*/*.o; do
    case "$object" in *.pic.o) continue ;; esac
    # Not the objects a build tree keeps of sources that moved away.
    source=${object#"$build_dir"/}
    [ -e "${source%.o}.c" ] || continue
    # Functions this object exports: VISIBILITY NAME.
    readelf -sW "$object" |
        awk '$4 == "FUNC" && $5 == "GLOBAL" && $7 != "UND" { print $6, $8 }' |
        while read -r visibility name; do
            case "$object:$visibility:$name" in
                */lib/*:DEFAULT:recorder_*|*/lib/*:DEFAULT:record_*) continue ;;
                # The graph widget's API (include/recorder), as lib's.
                */recorder_scope_graph.o:DEFAULT:recorder_scope_graph_*) continue ;;
                *:main|*_get_type|*:__lsan_default_suppressions) continue ;;
            esac
            uses=$(grep -rwo --include='*.c' --include='*.cpp' --include='*.h' \
                       "$name" lib scope tests share/examples | wc -l)
            # Its definition, plus its prototype if a header holds one.
            declared=$(grep -rlw --include='*.h' "$name" lib scope include |
                       wc -l)
            [ "$uses" -gt $((1 + declared)) ] || echo "$name ($object)"
        done
done >"$work/dead"
if [ -s "$work/dead" ]; then
    fail "functions nothing calls:"
    cat "$work/dead"
else
    echo "no dead function"
fi

# ---- 5. no file cited from outside the repository ---------------------------------

find . -path ./.git -prune -o -path "./$build" -prune -o -type f -print |
    sed 's|^\./||' >"$work/tree"
grep -v -e '\.png$' -e '^tests/fuzz/' "$work/tree" |
    xargs grep -oHE '[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b' 2>/dev/null |
    while IFS=: read -r file cited; do
        grep -q "\(^\|/\)$(basename "$cited")\$" "$work/tree" ||
            echo "$file cites $cited"
    done | sort -u >"$work/outside"
grep -rlE '\.\./shared|/work/shared' --exclude-dir=.git \
    --exclude-dir="$(basename "$build")" . 2>/dev/null |
    grep -v '^\./tests/tree/check-build-hygiene\.sh$' | sed 's|^|cites a folder beside the repository: |' >>"$work/outside" || true
if [ -s "$work/outside" ]; then
    fail "files outside the repository are cited:"
    cat "$work/outside"
else
    echo "every file cited is in the repository"
fi

[ "$failed" -eq 0 ]
