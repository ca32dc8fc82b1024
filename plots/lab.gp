# Bars of achieved GB/s per row of the main size (series "main" of a bench TSV), with the
# theoretical peak and the measured device-to-device copy as horizontal lines. Columns are
# read by their names in the TSV's header (common/bench.h).
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
if (term eq 'png') { set terminal pngcairo size 1200,700 font ",11" } else { set terminal svg size 1200,700 dynamic font ",11" }
set output out
set title title noenhanced
set ylabel "effective bandwidth (GB/s, decimal)"
set yrange [0:(peak > top ? peak : top) * 1.22]
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -30 left noenhanced
set grid ytics
set key top center horizontal
set bmargin 9
set rmargin 9
plot main using 0:"gbs":xtic(stringcolumn("variant")) with boxes lc rgb "#4477aa" title "achieved", \
     main using 0:"gbs":(sprintf("%.0f", column("gbs"))) with labels offset 0,0.8 notitle, \
     peak with lines dt 2 lw 2 lc rgb "#cc3311" title sprintf("theoretical peak %.0f GB/s", peak), \
     copy with lines dt 4 lw 2 lc rgb "#228833" title sprintf("measured copy %.0f GB/s", copy)
