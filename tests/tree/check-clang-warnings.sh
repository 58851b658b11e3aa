#!/bin/sh
# sanitized: skip
# The library, scope, examples and tests compile warning-free under clang
# too, with the warnings the Makefile asks of C (-Wshadow,
# -Wmissing-prototypes, -Wstrict-prototypes) given again here so that they
# stay errors even if the Makefile drops them.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
strict="-Wshadow -Wmissing-prototypes -Wstrict-prototypes"
make -s -C "$top" BUILD="$out" CC=clang CXX=clang++ \
    CFLAGS="-O2 -g -Werror $strict" all tests
echo "clang -Wall -Wextra $strict -Werror build: ok"
