#!/bin/sh
# lab10's own options on its command line (tests/test_lab10_cli.sh LAB10, the lab's binary
# from labs/ or solutions/: only the parsing runs, no kernel): a bad --steps or --image is
# refused with one line on stderr that names the option, nothing on stdout and exit status 2;
# the smallest and the largest --steps are taken. Prints one line; exit status 0 when all holds.
set -u
lab=lab10
bin=$1
. "$(dirname "$0")/cli.sh"

for v in 0 -1 x 1e3 8x 1000001 99999999999999999999 ""; do
    refused --steps --steps "$v"
done
refused --steps --steps
refused --image --image /nonexistent/picture.png
for v in 1 1000000; do
    "$bin" run --steps "$v" --help >/dev/null 2>&1 || fail "run --steps $v was refused"
done
echo "test-cli lab10: bad --steps and --image values refused, 1 and 1000000 steps taken"
