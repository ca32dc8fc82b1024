#!/bin/sh
# usage: plots/draw.sh LAB TSV NOTE [DIR]
# Draws DIR/LAB.png and .svg (bars: GB/s per variant at the main size, with the
# theoretical peak and the measured copy as lines; for a compute-bound lab, whose rows
# have a work unit, useful work a second against the FP32 ceiling) and, when the TSV has a
# size sweep, DIR/LAB-sweep.png and .svg (the same against n, log axes), and when it has a
# sweep of the lab's own (a series other than main and sweep whose variants are plain
# names, not variant/value tunings), DIR/LAB-SERIES.png and .svg (time against the value).
# NOTE goes into the titles; DIR is plots/ unless given.
lab=$1 tsv=$2 note=$3 dir=${4:-plots}
[ -s "$tsv" ] || { echo "$lab plot: no measurements in $tsv" >&2; exit 1; }
column() { # the first data row's value in the column named $1
    awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
                             NR == 2 { if (c) print $c; exit }' "$tsv"
}
# The size of the first measured row (the copy's n counts its bytes in 4-byte words).
n=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "n") c = i; if ($i == "kind") k = i } }
                NR > 1 && $k != "copy" { print $c; exit }' "$tsv")
size=$(awk -v n="$n" 'BEGIN { e = log(n) / log(2); if (e == int(e)) printf "2^%d", e; else printf "%d", n }')
title="$lab on $(column device), n = $size, $(column date)${note:+ ($note)}"
unit=$(column work_unit)
bars=plots/lab.gp metric="ycol='gbs'; ceil='peak_gbs'; ceilfmt='theoretical peak %.0f GB/s'; ylabel='effective bandwidth (GB/s, decimal, log scale)'"
if [ -n "$unit" ] && [ "$unit" != "-" ]; then
    bars=plots/compute.gp
    metric="ycol='work_per_s'; ceil='work_ceiling'; ceilfmt='FP32 ceiling %.3g $unit/s'; ylabel='useful $unit per second (log scale)'"
fi
own=$(awk -F'\t' 'NR > 1 && $1 != "main" && $1 != "sweep" && $3 !~ /\// { print $1; exit }' "$tsv")
drawn=
for term in png svg; do
    gnuplot -e "tsv='$tsv'; out='$dir/$lab.$term'; term='$term'; title='$title'" $bars || exit 1
    drawn="$drawn $dir/$lab.$term"
    if grep -q '^sweep' "$tsv"; then
        gnuplot -e "tsv='$tsv'; out='$dir/$lab-sweep.$term'; term='$term'; $metric; title='$lab on $(column device), $(column date)${note:+ ($note)}'" \
            plots/sweep.gp || exit 1
        drawn="$drawn $dir/$lab-sweep.$term"
    fi
    if [ -n "$own" ]; then
        gnuplot -e "tsv='$tsv'; out='$dir/$lab-$own.$term'; term='$term'; series='$own'; title='$lab on $(column device), $(column date)${note:+ ($note)}'" \
            plots/param.gp || exit 1
        drawn="$drawn $dir/$lab-$own.$term"
    fi
done
echo "$lab plot:$drawn, from $tsv${note:+ ($note)}"
