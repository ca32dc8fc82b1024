#!/bin/sh
# usage: common/expect-fail.sh TEST-BINARY
# The skeleton check: run a lab's tests built from the student's skeleton and demand that
# every kernel test fails (only tests named args_* or reference_* may pass: they check
# code the student does not write). A skeleton that passes gives the answer away.
bin=$1
CMOCKA_MESSAGE_OUTPUT=tap "$bin" 2>/dev/null | awk -v bin="$bin" '
    /^ok [0-9]+ - / && $0 ~ /# SKIP/ { skipped++; next }
    /^ok [0-9]+ - / { name = $4; if (name !~ /^(args|reference)_/) { passed++; print bin ": passes in the skeleton: " name } next }
    /^not ok [0-9]+ - / { failed++ }
    END {
        if (skipped) { print bin ": " skipped " tests skipped: no device, the skeleton cannot be checked"; exit 1 }
        if (passed || !failed) { if (!failed) print bin ": no kernel test failed"; exit 1 }
        print bin ": skeleton ok (" failed " kernel tests fail until the TODOs are done)"
    }'
