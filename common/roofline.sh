#!/bin/sh
# usage: common/roofline.sh LAB-BINARY TSV [RUN-OPTIONS...]
# The roofline's measurements (make lab13 roofline), for a lab whose bench counts its work in
# flops: the bench's GPU rows at the main size (or the size RUN-OPTIONS give), for each row's
# flops, its median time and the ceilings; then Nsight Compute on `LAB run --variant V` for
# each of those rows V, a run each, so that every kernel a row launches, a library's too,
# counts for that row and no other. The bytes come from that one run, caches flushed first
# (ncu's default), its clocks left free (--clock-control none), as the bench's were. The CSVs
# stay beside the binary, in roofline/; common/roofline.py joins them into TSV.
bin=$1 tsv=$2
shift 2
here=$(dirname "$0")
lab=$(basename "$bin")
command -v ncu >/dev/null || {
    echo "$lab roofline: no ncu on the PATH: install Nsight Compute (it comes with the CUDA" \
        "toolkit) or put its directory on the PATH"
    exit 1
}
dir=${bin%/*}/roofline
rm -rf "$dir" && mkdir -p "$dir" || exit 1
"$bin" bench --gpu-only --tsv "$dir/bench.tsv" "$@" || exit 1
metrics=$(python3 "$here/roofline.py" --metrics)
i=0
python3 "$here/roofline.py" --rows "$dir/bench.tsv" > "$dir/rows" || exit 1
while IFS= read -r row; do
    i=$((i + 1))
    echo "$lab roofline: Nsight Compute on $row"
    ncu --csv --page raw --print-units base --kernel-name-base function --clock-control none \
        --metrics "$metrics" --log-file "$dir/row$i.csv" "$bin" run --variant "$row" "$@" \
        < /dev/null || exit 1
done < "$dir/rows"
if ! python3 "$here/roofline.py" "$dir/bench.tsv" "$dir" "$@" > "$tsv.tmp"; then
    rm -f "$tsv.tmp"
    exit 1
fi
mv "$tsv.tmp" "$tsv"
