# Bars of achieved GB/s per row of the main size (series "main" of a bench TSV), coloured
# by kind (the copy, the lab's variants, a library, the CPU and other rows), with the
# theoretical peak and the measured device-to-device copy as lines. Columns are read by
# their names in the TSV's header (common/bench.h).
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'" plots/lab.gp
set datafile separator "\t"
set datafile columnheaders
main = sprintf("< awk -F'\t' 'NR == 1 || $1 == \"main\"' '%s'", tsv)
stats main using "gbs" nooutput
top = STATS_max
stats main using "peak_gbs" nooutput
peak = STATS_max
stats main using "copy_gbs" nooutput
copy = STATS_max
ymax = (peak > top ? peak : top) * 1.18
kind(k) = k eq "copy" ? 0x228833 : k eq "variant" ? 0x4477aa : k eq "library" ? 0xee7733 : 0x999999
# A bar's value: inside its top, in white, where the bar is tall enough; above it otherwise.
inside(v) = v > 0.12 * ymax ? v - 0.035 * ymax : NaN
above(v) = v > 0.12 * ymax ? NaN : v + 0.025 * ymax
if (term eq 'png') { set terminal pngcairo size 1200,700 font ",11" } else { set terminal svg size 1200,700 dynamic font ",11" }
set output out
set title title noenhanced
set ylabel "effective bandwidth (GB/s, decimal)"
set yrange [0:ymax]
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics rotate by -30 left noenhanced
set grid ytics
set key top center horizontal
set bmargin 9
set rmargin 9
plot main using 0:"gbs":(kind(strcol("kind"))):xtic(stringcolumn("variant")) with boxes lc rgb variable notitle, \
     main using 0:(inside(column("gbs"))):(sprintf("%.0f", column("gbs"))) with labels textcolor rgb "white" notitle, \
     main using 0:(above(column("gbs"))):(sprintf("%.0f", column("gbs"))) with labels notitle, \
     NaN with boxes lc rgb "#4477aa" title "the lab's variants", \
     NaN with boxes lc rgb "#ee7733" title "library", \
     NaN with boxes lc rgb "#999999" title "CPU, other", \
     peak with lines dt 2 lw 2 lc rgb "#cc3311" title sprintf("theoretical peak %.0f GB/s", peak), \
     copy with lines dt 4 lw 2 lc rgb "#228833" title sprintf("measured copy %.0f GB/s", copy)
