#!/bin/bash
# cucc on the command lines a CMake project gives nvcc (tests/test_cucc_flags.sh CUCC BUILD):
# nvcc's common options honoured or ignored, --options-file read, -rdc objects device-linked
# (-dlink) and linked; an option it does not know is refused with a line that names the way
# round it. Prints one line; exit status 0 when all holds.
set -u
cucc=$1 dir=$2/cucc-flags
rm -rf "$dir" && mkdir -p "$dir"
cat > "$dir/k.cu" <<'CU'
#include <cstdio>
__global__ void twice(int *x) { x[threadIdx.x] *= 2; }
int main()
{
    int *x, h[4] = {1, 2, 3, 4};
    cudaMalloc(&x, sizeof h);
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    twice<<<1, 4>>>(x);
    cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("%d %d %d %d %s\n", h[0], h[1], h[2], h[3], WHO);
    return cudaFree(x) != cudaSuccess;
}
CU
echo "-DWHO=\\\"cmake\\\" -I $dir" > "$dir/includes.rsp"
fail() { echo "test-cucc-flags: $*"; exit 1; }
"$cucc" -forward-unknown-to-host-compiler -Wno-deprecated-gpu-targets -lineinfo -Xptxas -v \
  --expt-relaxed-constexpr --extended-lambda -rdc=true -G -std=c++17 -O3 -DNDEBUG -fPIC \
  "--generate-code=arch=compute_75,code=[compute_75,sm_75]" -Xcudafe --diag_suppress=177 \
  -Xcompiler=-Wall --options-file "$dir/includes.rsp" -MD -MT "$dir/k.o" -MF "$dir/k.d" \
  -x cu -c "$dir/k.cu" -o "$dir/k.o" > "$dir/log" 2>&1 || fail "the compile failed: $(tail -3 "$dir/log")"
"$cucc" -Wno-deprecated-gpu-targets -dlink "$dir/k.o" -o "$dir/dlink.o" >> "$dir/log" 2>&1 ||
  fail "-dlink failed: $(tail -3 "$dir/log")"
"$cucc" "$dir/k.o" "$dir/dlink.o" -o "$dir/k" >> "$dir/log" 2>&1 || fail "the link failed: $(tail -3 "$dir/log")"
got=$("$dir/k") || fail "the program failed: $got"
[ "$got" = "2 4 6 8 cmake" ] || fail "the program said '$got', want '2 4 6 8 cmake'"
"$cucc" --no-such-option -c "$dir/k.cu" -o "$dir/x.o" > "$dir/refused" 2>&1 &&
  fail "an unknown option was taken"
grep -q "unsupported option '--no-such-option'.*forward-unknown-to-host-compiler" \
  <(tr '\n' ' ' < "$dir/refused") || fail "an unknown option was refused without the way round: $(cat "$dir/refused")"
echo "test-cucc-flags: CMake's nvcc options, --options-file and -dlink: passed"
