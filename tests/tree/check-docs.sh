#!/bin/sh
# The documentation holds together: README.md stays short (at most 250
# lines, the rest is in share/doc) and gives the two commands of a fresh
# clone, make demo and make check; every relative link or image in
# README.md and share/doc/*.md names a file that exists, and a link to an
# anchor of a Markdown file names a heading of that file that makes it
# (GitHub's rule: lowercase, punctuation but '-' and '_' dropped, spaces
# to '-', a repeated heading gets -1, -2...). Links to http(s) pages and
# to an anchor of the same page are not checked.
# Nothing here is built:
# sanitized: skip
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-docs: $*"; exit 1; }
LC_ALL=C
export LC_ALL

readme="$top/README.md"
[ -f "$readme" ] || fail "no README.md"
lines=$(wc -l <"$readme")
[ "$lines" -le 250 ] ||
    fail "README.md has $lines lines, more than 250: move text to share/doc"
for command in "make demo" "make check"; do
    grep -Eq "^[[:space:]]*(\\\$ )?$command([[:space:]]|\$)" "$readme" ||
        fail "README.md does not give the command '$command'"
done

# links FILE: the target of each [text](target) and ![alt](target) of FILE,
# outside code blocks and code spans, one a line.
links() {
    awk '
        /^[ \t]*(```|~~~)/ { fence = !fence; next }
        fence { next }
        {
            line = $0
            gsub(/`[^`]*`/, "", line)
            while (match(line, /\]\([^)]*\)/)) {
                print substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH)
            }
        }' "$1"
}

# anchors FILE: the anchor of each heading of FILE, one a line.
anchors() {
    awk '
        /^[ \t]*(```|~~~)/ { fence = !fence; next }
        fence || !/^#+[ \t]/ { next }
        {
            h = $0
            sub(/^#+[ \t]+/, "", h)
            sub(/[ \t]+#+[ \t]*$/, "", h)
            h = tolower(h)
            gsub(/[^a-z0-9 _-]/, "", h)
            gsub(/ /, "-", h)
            if (h in seen) print h "-" seen[h]++
            else { print h; seen[h] = 1 }
        }' "$1"
}

files=0
checked=0
for doc in "$readme" "$top"/share/doc/*.md; do
    [ -f "$doc" ] || continue
    files=$((files + 1))
    name=${doc#"$top"/}
    dir=$(dirname "$doc")
    links "$doc" >"$work/links"
    while IFS= read -r target; do
        target=${target%% *}
        target=${target#<}
        target=${target%>}
        case "$target" in
            '' | '#'* | http://* | https://*) continue ;;
        esac
        path=${target%%#*}
        anchor=
        case "$target" in *'#'*) anchor=${target#*#} ;; esac
        case "$path" in
            /*) file="$top$path" ;;
            *) file="$dir/$path" ;;
        esac
        [ -e "$file" ] ||
            fail "$name links to $target: no such file"
        case "$path" in
            *.md)
                if [ -n "$anchor" ] &&
                       ! anchors "$file" | grep -qxF "$anchor"; then
                    fail "$name links to $target, but no heading of $path makes #$anchor"
                fi ;;
        esac
        checked=$((checked + 1))
    done <"$work/links"
done
echo "check-docs: README.md has $lines lines and both commands;" \
     "$checked relative links in $files files resolve"
