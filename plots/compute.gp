# A compute-bound lab's bars: useful work per second per row of the main size (series
# "main" of a bench TSV, the copy row left out), coloured by kind, with the FP32 ceiling in
# the same unit as a line. Columns are read by their names (common/bench.h).
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'" plots/compute.gp
set datafile separator "\t"
set datafile columnheaders
main = sprintf("< awk -F'\t' 'NR == 1 || ($1 == \"main\" && $4 != \"copy\")' '%s'", tsv)
unit = system(sprintf("awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"work_unit\") c = i } NR == 2 { print $c; exit }' '%s'", tsv))
stats main using (column("work_per_s") / 1e9) nooutput
top = STATS_max
stats main using (column("work_ceiling") / 1e9) nooutput
ceiling = STATS_max
stats main using "fp32_per_work" nooutput
fp32 = STATS_max
ymax = (ceiling > top ? ceiling : top) * 1.18
kind(k) = k eq "variant" ? 0x4477aa : k eq "library" ? 0xee7733 : 0x999999
inside(v) = v > 0.12 * ymax ? v - 0.035 * ymax : NaN
above(v) = v > 0.12 * ymax ? NaN : v + 0.025 * ymax
if (term eq 'png') { set terminal pngcairo size 1200,700 font ",11" } else { set terminal svg size 1200,700 dynamic font ",11" }
set output out
set title title noenhanced
set ylabel sprintf("useful %s per second (billions)", unit)
set yrange [0:ymax]
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics rotate by -30 left noenhanced
set grid ytics
set key top center horizontal
set bmargin 9
set rmargin 9
plot main using 0:(column("work_per_s") / 1e9):(kind(strcol("kind"))):xtic(stringcolumn("variant")) with boxes lc rgb variable notitle, \
     main using 0:(inside(column("work_per_s") / 1e9)):(sprintf("%.1f", column("work_per_s") / 1e9)) with labels textcolor rgb "white" notitle, \
     main using 0:(above(column("work_per_s") / 1e9)):(sprintf("%.2f", column("work_per_s") / 1e9)) with labels notitle, \
     NaN with boxes lc rgb "#4477aa" title "the lab's variants", \
     NaN with boxes lc rgb "#999999" title "CPU, other", \
     ceiling with lines dt 2 lw 2 lc rgb "#cc3311" title sprintf("FP32 ceiling: %.0f G %s/s at %g FP32 instructions each", ceiling, unit, fp32)
