# A lab's own sweep (series `series` of a bench TSV, the swept value in its tuning column):
# the time of one run against that value, both axes logarithmic, one line per variant, and
# the FP32 floor (the run's work at the FP32 ceiling) as a dashed line for a lab with a
# work unit. Columns are read by their names in the TSV's header (common/bench.h).
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'; series='spheres'"
#        plots/param.gp
set datafile separator "\t"
set datafile columnheaders
rows = sprintf("< awk -F'\t' 'NR == 1 || $1 == \"%s\"' '%s'", series, tsv)
variants = system(sprintf("awk -F'\t' '$1 == \"%s\" && !seen[$3]++ { printf \"%%s\\n\", $3 }' '%s'", series, tsv))
floor_rows = sprintf("< awk -F'\t' 'NR == 1 || ($1 == \"%s\" && !seen[$5]++)' '%s'", series, tsv)
colours = "#4477aa #ee6677 #228833 #ccbb44 #66ccee #aa3377 #332288 #117733 #44aa99 #999933 #882255 #bbbbbb"
if (term eq 'png') { set terminal pngcairo size 1300,700 font ",11" } else { set terminal svg size 1300,700 dynamic font ",11" }
set output out
set title title." - ".series." sweep" noenhanced
set xlabel series noenhanced
set ylabel "time of one run (ms, log scale)"
set logscale x 2
set logscale y 10
set grid xtics ytics mytics
set key outside right top noenhanced
nv = words(variants)
# The FP32 floor is a compute-bound lab's (lab03); a lab without a work unit (lab09) has none.
unit = system(sprintf("awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"work_unit\") c = i } $1 == \"%s\" { print $c; exit }' '%s'", series, tsv))
floor = unit ne "-" && unit ne ""
plot for [i=1:nv] sprintf("< awk -F'\t' 'NR == 1 || ($1 == \"%s\" && $3 == \"%s\")' '%s'", series, word(variants, i), tsv) \
         using "tuning":"ms_median" with linespoints lw 2 pt 1 + (i - 1) % 7 dt 1 + (i - 1) / 12 \
         lc rgb (word(colours, (i - 1) % 12 + 1)) title word(variants, i), \
     floor_rows using "tuning":(floor ? 1e3 * column("work") / column("work_ceiling") : NaN) \
         with lines dt 2 lw 2 lc rgb "#cc3311" title (floor ? "the work at the FP32 ceiling" : "")
