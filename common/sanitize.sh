#!/bin/sh
# usage: common/sanitize.sh TEST-BINARY [TEST...]
# compute-sanitizer's four tools on a lab's tests (or the tests named), on a GPU:
#   memcheck   out-of-bounds and misaligned accesses, bad frees, leaks
#   racecheck  shared-memory hazards: two threads, one writing, no barrier between
#   synccheck  barriers and warp collectives used wrongly (divergent, bad masks)
#   initcheck  reads of device memory nothing has written
# One line per tool when it finds nothing; else its report, kept in the binary's folder.
bin=$1
shift
command -v compute-sanitizer >/dev/null ||
    { echo "sanitize: no compute-sanitizer on the PATH (it comes with the CUDA toolkit)"; exit 1; }
status=0
for tool in memcheck racecheck synccheck initcheck; do
    log=${bin%/*}/sanitize-$tool.txt
    case $tool in
    # API errors are the tests' business (they check every status, and lab00's refused
    # shapes are made on purpose): memcheck reports memory errors only.
    memcheck) options="--leak-check full --report-api-errors no" ;;
    racecheck) options="--racecheck-report hazard" ;;
    *) options= ;;
    esac
    if compute-sanitizer --tool $tool $options --error-exitcode 99 "$bin" "$@" >"$log" 2>&1; then
        echo "sanitize $tool: no errors ($(grep -c '^\[       OK \]' "$log") tests passed)"
    else
        echo "sanitize $tool: errors (all of it: $log)"
        grep -m 30 -e '^=========' -e '^\[  FAILED' "$log"
        status=1
    fi
done
exit $status
