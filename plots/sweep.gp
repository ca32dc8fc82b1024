# GB/s against problem size on a log axis, one line per variant (series "sweep"). Columns
# are read by their names in the TSV's header (common/bench.h).
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'" plots/sweep.gp
set datafile separator "\t"
set datafile columnheaders
variants = system(sprintf("awk -F'\t' '$1 == \"sweep\" && !seen[$3]++ { printf \"%%s\\n\", $3 }' '%s'", tsv))
stats tsv using "peak_gbs" nooutput
peak = STATS_max
if (term eq 'png') { set terminal pngcairo size 1200,700 font ",11" } else { set terminal svg size 1200,700 dynamic font ",11" }
set output out
set title title." - size sweep" noenhanced
set xlabel "n (elements)"
set ylabel "effective bandwidth (GB/s, decimal)"
set logscale x 2
set format x "2^{%L}"
set grid
set key top left noenhanced
set yrange [0:peak * 1.1]
nv = words(variants)
plot for [i=1:nv] sprintf("< awk -F'\t' 'NR == 1 || ($1 == \"sweep\" && $3 == \"%s\")' '%s'", word(variants, i), tsv) \
         using "n":"gbs" with linespoints lw 2 title word(variants, i), \
     peak with lines dt 2 lw 2 lc rgb "#cc3311" title sprintf("theoretical peak %.0f GB/s", peak)
