#!/bin/sh
# usage: common/profile.sh LAB-BINARY [RUN-OPTIONS...]
# Nsight Compute on one `labNN run` (every variant once; pass --n or --width/--height for
# another size), then common/profile.py's summary: a line per kernel. The full CSV stays
# beside the binary.
bin=$1
shift
command -v ncu >/dev/null ||
    { echo "profile: no ncu on the PATH (Nsight Compute comes with the CUDA toolkit)"; exit 1; }
csv=${bin%/*}/profile.csv
metrics=$(python3 "$(dirname "$0")/profile.py" --metrics)
ncu --csv --page raw --print-units base --kernel-name-base function --metrics "$metrics" \
    --log-file "$csv" "$bin" run "$@" || exit 1
python3 "$(dirname "$0")/profile.py" "$csv"
