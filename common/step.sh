#!/bin/sh
# usage: common/step.sh NAME COMMAND...   (make test's steps)
# Runs one step of a long make goal and says how long it took, so that a reader sees where
# the minutes go; the step's own lines come first. Exits as the command does.
name=$1
shift
start=$(date +%s)
"$@"
status=$?
[ $status = 0 ] && echo "  ($name: $(($(date +%s) - start)) s)"
exit $status
