#!/bin/bash
# samples.sh CUDA_SAMPLES [OUT] [SAMPLE...]: builds NVIDIA's cuda-samples with cucc, unmodified
# (the files of each sample's add_executable in its CMakeLists.txt, Common/ and a CUDA toolkit's
# include directory on the include path, as CMake would give them), runs each at a size its
# command line allows, and prints a Markdown table: built, passed (exit status 0), seconds.
# CUCC="common/cpu/cucc --sanitize" builds with ASan and UBSan.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
samples=${1:?usage: samples.sh CUDA_SAMPLES [OUT] [SAMPLE...]}
out=${2:-build/cpu/samples}
shift $(($# < 2 ? $# : 2))
read -ra cucc <<< "${CUCC:-$here/cucc}"
[[ ${cucc[0]} != */* || ${cucc[0]} = /* ]] || cucc[0]=$(pwd)/${cucc[0]} # samples build in their directory
toolkit=${CUDA_HOME:-/usr/local/cuda}/include
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Where each sample is, and the arguments that keep it within a minute on two cores.
declare -A dirs=(
  [vectorAdd]=0_Introduction [simpleAtomicIntrinsics]=0_Introduction
  [simpleTemplates]=0_Introduction [asyncAPI]=0_Introduction [simpleStreams]=0_Introduction
  [simpleVoteIntrinsics]=0_Introduction [matrixMul]=0_Introduction [simpleAssert]=0_Introduction
  [simpleCallback]=0_Introduction [reduction]=2_Concepts_and_Techniques
  [histogram]=2_Concepts_and_Techniques [threadFenceReduction]=2_Concepts_and_Techniques
  [scalarProd]=2_Concepts_and_Techniques [shfl_scan]=2_Concepts_and_Techniques
  [transpose]=6_Performance)
declare -A args=([matrixMul]="-wA=128 -hA=128 -wB=128 -hB=128")
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(vectorAdd simpleAtomicIntrinsics simpleTemplates asyncAPI
  simpleStreams simpleVoteIntrinsics matrixMul simpleAssert simpleCallback reduction histogram
  threadFenceReduction scalarProd shfl_scan transpose)

inc=(-I "$samples/Common")
[ ! -f "$toolkit/cuda_runtime.h" ] || inc+=(-I "$toolkit")
echo "| sample | built | passed | seconds (run) | arguments |"
echo "|---|---|---|---|---|"
failed=0
for name in "${names[@]}"; do
  dir=$samples/Samples/${dirs[$name]:?unknown sample $name}/$name
  files=$(tr '\n' ' ' < "$dir/CMakeLists.txt" | grep -o "add_executable($name [^)]*)" |
    sed "s/add_executable($name //; s/)//")
  built=no passed=no seconds=-
  if (cd "$dir" && "${cucc[@]}" -std=c++17 -O2 "${inc[@]}" $files -o "$out/$name") > "$out/$name.build.log" 2>&1; then
    built=yes
    start=$(date +%s.%N)
    (cd "$out" && timeout 300 "./$name" ${args[$name]:-}) > "$out/$name.log" 2>&1 && passed=yes
    seconds=$(echo "$(date +%s.%N) - $start" | bc | xargs printf "%.1f")
  fi
  [ $passed = yes ] || failed=$((failed + 1))
  echo "| $name | $built | $passed | $seconds | ${args[$name]:-} |"
done
exit $((failed > 0))
