# A lab's own sweep (series `series` of a bench TSV, the swept value in its tuning column):
# the time of one run against that value, both axes logarithmic, a line per variant, each
# with a colour, a dash and a point of its own (plots/style.gp), tics at the values
# measured, and the floor as a black dashed line: the run's work at the FP32 ceiling for a
# compute-bound lab, its bytes at the theoretical peak for a memory-bound one (whose rows
# have no work unit). The legend under the plot.
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'; series='spheres'
#                    [; size='slide']" plots/param.gp
here = exists("here") ? here : "plots"
load here . "/style.gp"
set datafile separator "\t"
set datafile columnheaders
awk(what) = sprintf("awk -v series='%s' -v what=%s -f '%s/rows.awk' '%s'", series, what, here, tsv)
rows(v) = sprintf("< awk -v series='%s' -v what=rows -v variant='%s' -f '%s/rows.awk' '%s'", series, v, here, tsv)
lines = system(awk("names"))
nl = words(lines)
unit = system(sprintf("awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"work_unit\") c = i } $1 == \"%s\" { print (c ? $c : \"-\"); exit }' '%s'", series, tsv))
floor_rows = sprintf("< awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"tuning\") t = i; print; next } $1 == \"%s\" && !seen[$t]++' '%s'", series, tsv)
floortitle = (unit eq "-" ? (short ? "bytes at the peak" : "the bytes at the theoretical peak") \
              : (short ? "work at the FP32 ceiling" : "the work at the FP32 ceiling"))
values = system(awk("values -v col=tuning") . " | tr '\\n' ' '")
longest = strlen(floortitle)
do for [l = 1:nl] { longest = strlen(word(lines, l)) > longest ? strlen(word(lines, l)) : longest }
dummy = keylayout(nl + 1, longest)

set multiplot title title . ": " . series . " sweep" font sprintf(",%d", short ? 0.85 * FS : FS)
set tmargin at screen 1 - 3.0 * FS / H
set bmargin at screen keyh + 4.8 * FS / H
set lmargin at screen 7.2 * FS / W
set rmargin at screen 1 - keyw - 1.6 * FS / W
set xlabel series
set ylabel (short ? "ms a run, log scale" : "time of one run (ms, log scale)")
set logscale x 2
set logscale y 10
set format y "%g"
set xrange [real(word(values, 1)) / 1.15:real(word(values, words(values))) * 1.15]
# the values measured as the tics, where there are few enough to read (every other one, the
# last too, where a slide has room for fewer)
nv = words(values)
if (nv <= 12) {
    every = (short && nv > 8) ? 2 : 1
    set xtics ()
    do for [i = 1:nv] {
        if ((i - 1) % every == 0 || i == nv) { set xtics add (word(values, i) real(word(values, i))) }
    }
}
set grid xtics ytics mytics
set key off
plot for [l = 1:nl] rows(word(lines, l)) using "tuning":"ms_median" with linespoints \
         lw 2 ps 1.2 pt spoint(l) dt sdash(l) lc rgb scolour(l) notitle, \
     floor_rows using "tuning":(unit eq "-" ? column("bytes") / (1e6 * column("peak_gbs")) \
                                : 1e3 * column("work") / column("work_ceiling")) with lines @peakstyle notitle
eval keyplot(longest)
plot for [l = 1:nl] NaN with linespoints lw 2 ps 1.2 pt spoint(l) dt sdash(l) lc rgb scolour(l) title word(lines, l), \
     NaN with lines @peakstyle title floortitle
unset multiplot
