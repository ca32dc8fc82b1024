#!/bin/sh
# usage: plots/draw.sh LAB TSV NOTE
# Draws plots/LAB.png and .svg (bars: GB/s per variant at the main size, with the
# theoretical peak and the measured copy as lines) and, when the TSV has a size sweep,
# plots/LAB-sweep.png and .svg (GB/s against n, log axis). NOTE goes into the titles.
lab=$1 tsv=$2 note=$3
[ -s "$tsv" ] || { echo "$lab plot: no measurements in $tsv" >&2; exit 1; }
device=$(awk -F'\t' 'NR == 2 { print $13 }' "$tsv")
date=$(awk -F'\t' 'NR == 2 { print $14 }' "$tsv")
title="$lab on $device, $date${note:+ ($note)}"
for term in png svg; do
    gnuplot -e "tsv='$tsv'; out='plots/$lab.$term'; term='$term'; title='$title'" plots/lab.gp || exit 1
    if grep -q '^sweep' "$tsv"; then
        gnuplot -e "tsv='$tsv'; out='plots/$lab-sweep.$term'; term='$term'; title='$title'" \
            plots/sweep.gp || exit 1
    fi
done
echo "$lab plot: plots/$lab.png and .svg${note:+ ($note)} from $tsv"
