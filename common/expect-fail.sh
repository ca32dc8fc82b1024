#!/bin/sh
# usage: common/expect-fail.sh TEST-BINARY
# The skeleton check: run a lab's tests built from the student's skeleton and demand that
# every test of the student's code fails. Only the tests the test file marks as checking
# given code (TESTKIT_GIVEN, TESTKIT_HOST: `--list-given` names them) may pass. A skeleton
# that passes a test gives the answer away.
bin=$1
given=$("$bin" --list-given | tr '\n' ' ')
lab=$(basename "$bin"); lab=${lab#test_}
CMOCKA_MESSAGE_OUTPUT=tap "$bin" 2>/dev/null | awk -v bin="$lab skeleton" -v given=" $given" '
    /^ok [0-9]+ - / && $0 ~ /# SKIP/ { skipped++; next }
    /^ok [0-9]+ - / { if (index(given, " " $4 " ") == 0) { passed++; print bin ": passes in the skeleton: " $4 } next }
    /^not ok [0-9]+ - / { failed++ }
    END {
        if (skipped) { print bin ": " skipped " tests skipped: no device, the skeleton cannot be checked"; exit 1 }
        if (passed || !failed) { if (!failed) print bin ": no test of the student'"'"'s code failed"; exit 1 }
        print bin ": " failed " tests fail until the TODOs are done, as they should"
    }'
