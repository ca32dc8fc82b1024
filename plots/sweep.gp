# A rate against problem size, both axes logarithmic, one line per variant (series
# "sweep"), each in a colour and dash of its own, the legend beside the plot: ycol against
# its ceiling ceil (GB/s and the theoretical peak, or a compute-bound lab's work a second
# and its FP32 ceiling). Columns are read by their names in the TSV's header (common/bench.h).
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'; ycol='gbs';
#                    ceil='peak_gbs'; ceilfmt='theoretical peak %.0f GB/s'; ylabel='...'"
#        plots/sweep.gp
set datafile separator "\t"
set datafile columnheaders
variants = system(sprintf("awk -F'\t' '$1 == \"sweep\" && !seen[$3]++ { printf \"%%s\\n\", $3 }' '%s'", tsv))
stats tsv using ceil nooutput
peak = STATS_max
stats sprintf("< awk -F'\t' 'NR == 1 || $1 == \"sweep\"' '%s'", tsv) using ycol nooutput
low = STATS_min
# Twelve colours that stay apart (Paul Tol's bright and muted sets), then the same with dashes.
colours = "#4477aa #ee6677 #228833 #ccbb44 #66ccee #aa3377 #332288 #117733 #44aa99 #999933 #882255 #bbbbbb"
if (term eq 'png') { set terminal pngcairo size 1300,700 font ",11" } else { set terminal svg size 1300,700 dynamic font ",11" }
set output out
set title title." - size sweep" noenhanced
set xlabel "n (elements)"
set ylabel ylabel
set logscale x 2
set logscale y 10
set format x "2^{%L}"
set grid xtics ytics mytics
set key outside right top noenhanced
set yrange [low * 0.7:peak * 1.5]
nv = words(variants)
plot for [i=1:nv] sprintf("< awk -F'\t' 'NR == 1 || ($1 == \"sweep\" && $3 == \"%s\")' '%s'", word(variants, i), tsv) \
         using "n":ycol with linespoints lw 2 pt 1 + (i - 1) % 7 dt 1 + (i - 1) / 12 \
         lc rgb (word(colours, (i - 1) % 12 + 1)) title word(variants, i), \
     peak with lines dt 2 lw 2 lc rgb "#cc3311" title sprintf(ceilfmt, peak)
