#!/bin/sh
# sanitized: skip
# The library, examples and tests compile warning-free under clang too.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
make -s -C "$top" BUILD="$out" CC=clang CXX=clang++ CFLAGS="-O2 -g -Werror" all tests
echo "clang -Wall -Wextra -Werror build: ok"
