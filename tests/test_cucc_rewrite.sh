#!/bin/bash
# The rewriter on tricky constructs (tests/test_cucc_rewrite.sh CUCC REWRITE BUILD): it keeps every
# line where it was, leaves a line of test_cucc_rewrite.cu marked /*same*/ unchanged, turns one
# marked /*launch*/ into a launch and registers each name of a __shared__ declaration; cucc
# builds the file, the program passes its checks, and a compile error names its own line.
# Prints one line; exit status 0 when all holds.
set -u
cucc=$1 rewrite=$2 dir=$3/rewrite-test
src=$(dirname "$0")/test_cucc_rewrite.cu
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "test-cucc-rewrite: $*"; exit 1; }
"$rewrite" "$src" "$src" > "$dir/out.cpp" || fail "the rewriter failed"
[ "$(head -1 "$dir/out.cpp")" = "#line 1 \"$src\"" ] || fail "the first line is not #line 1"
lines=$(wc -l < "$src")
[ "$(wc -l < "$dir/out.cpp")" = $((lines + 1)) ] || fail "$lines lines became $(($(wc -l < "$dir/out.cpp") - 1))"
# line n of the source is line n + 1 of the output
bad=$(awk 'NR == FNR { out[FNR - 1] = $0; next }
  /\/\*same\*\// && out[FNR] != $0 { print FNR ": changed: " out[FNR]; exit }
  /\/\*launch\*\// && out[FNR] !~ /::cucc::Launch\(.*cucc_args\.\.\.\); }\)/ { print FNR ": no launch: " out[FNR]; exit }' \
  "$dir/out.cpp" "$src")
[ -z "$bad" ] || fail "line $bad"
grep -q '__shared__ int a\[32\], b\[32\]; CUCC_SHARED(a); CUCC_SHARED(b);$' "$dir/out.cpp" &&
  grep -q '__shared__ float m\[8\]\[8\], v\[8\]; CUCC_SHARED(m); CUCC_SHARED(v);$' "$dir/out.cpp" ||
  fail "a name of a __shared__ declaration is not registered"
"$cucc" -O1 -o "$dir/t" "$src" > "$dir/log" 2>&1 || fail "the build failed: $(head -5 "$dir/log")"
"$dir/t" > "$dir/run.log" 2>&1 || fail "the program failed: $(head -5 "$dir/run.log")"
want=$(grep -n 'not_declared_here = 1' "$src" | cut -d: -f1)
"$cucc" -DREWRITE_BREAK -c "$src" -o "$dir/x.o" > "$dir/error.log" 2>&1 && fail "the broken build passed"
grep -q "test_cucc_rewrite.cu:$want:.*not_declared_here" "$dir/error.log" ||
  fail "the error does not name line $want: $(grep -m1 error "$dir/error.log")"
echo "test-cucc-rewrite: raw strings, template launches, multi-line launches, shared and volatile declarations, lines kept: passed ($(cat "$dir/run.log"))"
