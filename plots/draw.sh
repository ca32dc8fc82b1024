#!/bin/sh
# usage: plots/draw.sh LAB TSV NOTE [DIR]
# Draws DIR/LAB.png and .svg (plots/lab.gp: bars of GB/s per row at the main size, with the
# theoretical peak and the measured copy as lines; for a compute-bound lab, whose rows have a
# work unit, useful work a second against the FP32 ceiling) and, when the TSV has a size
# sweep, DIR/LAB-sweep.png and .svg (plots/sweep.gp: the same against n, log axes), and when
# it has a sweep of the lab's own (a series other than main and sweep whose variants are
# plain names, not variant/value tunings), DIR/LAB-SERIES.png and .svg (plots/param.gp:
# time against the value), and for each drawing of the lab's own, plots/LAB-NAME.gp (lab11's
# block shapes beside the seed's GPUs), DIR/LAB-NAME.png and .svg from the same TSV. Every
# plot loads plots/style.gp (canvas, fonts, series styles).
# NOTE goes into the titles; DIR is plots/ unless given.
# PLOT_TERMS: the formats (default "png svg"); PLOT_SIZE: page (default) or slide (larger
# text, for make slides).
lab=$1 tsv=$2 note=$3 dir=${4:-plots}
here=$(dirname "$0")
terms=${PLOT_TERMS:-png svg}
size=${PLOT_SIZE:-page}
[ -s "$tsv" ] || { echo "$lab plot: no measurements in $tsv" >&2; exit 1; }
column() { # the first data row's value in the column named $1
    awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
                             NR == 2 { if (c) print $c; exit }' "$tsv"
}
# The size of the first measured row (the copy's n counts its bytes in 4-byte words).
n=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "n") c = i; if ($i == "kind") k = i } }
                NR > 1 && $k != "copy" { print $c; exit }' "$tsv")
size_n=$(awk -v n="$n" 'BEGIN { e = log(n) / log(2); if (e == int(e)) printf "2^%d", e; else printf "%d", n }')
on="$lab on $(column device)"
when="$(column date)${note:+ ($note)}"
unit=$(column work_unit)
# (a slide holds less text across: shorter labels there)
peak='theoretical peak' gbs='effective bandwidth (GB/s, decimal, log scale)' work="useful $unit a second (billions, log scale)"
[ "$size" = slide ] && peak=peak gbs='GB/s, log scale' work="G $unit/s, log scale"
metric="ycol='gbs'; ceil='peak_gbs'; ceilfmt='$peak %.0f GB/s'; ylabel='$gbs'"
if [ -n "$unit" ] && [ "$unit" != "-" ]; then
    metric="ycol='work_per_s'; yscale=1e9; ceil='work_ceiling'; ceilfmt='FP32 ceiling %.0f G/s'; ylabel='$work'"
fi
own=$(awk -F'\t' 'NR > 1 && $1 !~ /^#/ && $1 != "main" && $1 != "sweep" && $3 !~ /\// { print $1; exit }' "$tsv")
common="here='$here'; tsv='$tsv'; size='$size'"
drawn=
for term in $terms; do
    gnuplot -e "$common; out='$dir/$lab.$term'; term='$term'; title='$on, n = $size_n, $when'" \
        "$here/lab.gp" || exit 1
    drawn="$drawn $dir/$lab.$term"
    if grep -q '^sweep' "$tsv"; then
        gnuplot -e "$common; out='$dir/$lab-sweep.$term'; term='$term'; $metric; title='$on, $when: size sweep'" \
            "$here/sweep.gp" || exit 1
        drawn="$drawn $dir/$lab-sweep.$term"
    fi
    if [ -n "$own" ]; then
        gnuplot -e "$common; out='$dir/$lab-$own.$term'; term='$term'; series='$own'; title='$on, $when'" \
            "$here/param.gp" || exit 1
        drawn="$drawn $dir/$lab-$own.$term"
    fi
    for gp in "$here/$lab"-*.gp; do
        [ -f "$gp" ] || continue
        name=$(basename "$gp" .gp)
        gnuplot -e "$common; out='$dir/$name.$term'; term='$term'; title='$on, $when'" "$gp" || exit 1
        drawn="$drawn $dir/$name.$term"
    done
done
echo "$lab plot:$drawn, from $tsv${note:+ ($note)}"
