#!/bin/sh
# lab10's own options on its command line (tests/test_lab10_cli.sh LAB10, the lab's binary
# from labs/ or solutions/: only the parsing runs, no kernel): a bad --steps or --image is
# refused with one line on stderr that names the option, nothing on stdout and exit status 2;
# the smallest and the largest --steps are taken. Prints one line; exit status 0 when all holds.
set -u
bin=$1
fail() { echo "test-cli lab10: $*"; exit 1; }

# ARGS... must exit 2 with exactly one line, naming OPTION, on stderr.
refused() {
    option=$1
    shift
    err=$("$bin" run "$@" 2>&1 >/dev/null)
    status=$?
    out=$("$bin" run "$@" 2>/dev/null)
    [ $status = 2 ] || fail "run $* exited $status, want 2"
    [ -z "$out" ] || fail "run $* printed on stdout: $out"
    [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "run $* said more than one line: $err"
    case $err in
    *"$option"*) ;;
    *) fail "run $* did not name $option: $err" ;;
    esac
}

for v in 0 -1 x 1e3 8x 1000001 99999999999999999999 ""; do
    refused --steps --steps "$v"
done
refused --steps --steps
refused --image --image /nonexistent/picture.png
for v in 1 1000000; do
    "$bin" run --steps "$v" --help >/dev/null 2>&1 || fail "run --steps $v was refused"
done
echo "test-cli lab10: bad --steps and --image values refused, 1 and 1000000 steps taken"
