#!/bin/sh
# usage: common/check-format.sh FILE...
# Fails, naming them, when clang-format would change any of the files (make format fixes
# them). The tree is formatted with the clang-format of Debian 12 (version 14); another
# version formats a few constructs its own way, so there the check only says so.
version=14
have=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
bad=
for f in "$@"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad="$bad $f"
done
if [ -z "$bad" ]; then
    echo "check-format: $# files as clang-format $have formats them"
elif [ "$have" != "$version" ]; then
    echo "check-format: not checked: clang-format $have here, the tree follows version $version"
else
    echo "check-format: not formatted (run make format):$bad"
    exit 1
fi
