#!/bin/sh
# tests/ is grouped by what the tests test: nothing but README.md at its
# top, every folder has a README.md, and every suite or check sits in a
# folder run-tests and the Makefile find (tests/*/test_*.c,
# tests/*/check-*.sh), none deeper where neither would look.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top/tests" || exit 1
problems=$(
    for entry in *; do
        [ -d "$entry" ] || [ "$entry" = README.md ] ||
            echo "tests/$entry: a file at the top of tests/, outside any group"
    done
    for folder in */; do
        [ -f "${folder}README.md" ] ||
            echo "tests/${folder}: no README.md saying what the group tests"
    done
    find . -mindepth 3 \( -name 'test_*.c' -o -name 'check-*.sh' \) |
        sed 's|^\./\(.*\)|tests/\1: too deep for make check to find|'
)
if [ -n "$problems" ]; then
    echo "check-tests-layout:"
    echo "$problems"
    exit 1
fi
echo "tests layout: $(ls -d */ | wc -l) groups, each with a README; $(ls */test_*.c | wc -l) suites and $(ls */check-*.sh | wc -l) checks where make check finds them"
