# Sourced by tests/test_labNN_cli.sh (a lab's own options on its command line), with $lab
# (its name) and $bin (its binary) set: fail, and refused, the one rule every bad value obeys.
fail() {
    echo "test-cli $lab: $*"
    exit 1
}

# ARGS... must exit 2 with exactly one line, naming OPTION, on stderr, and nothing on stdout.
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
