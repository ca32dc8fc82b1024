# A rate against problem size (series "sweep" of a bench TSV), both axes logarithmic, a line
# per variant, each with a colour, a dash and a point of its own (plots/style.gp), and the
# ceiling as a black dashed line; the legend under the plots. ycol against ceil: GB/s and
# the theoretical peak, or a compute-bound lab's work a second and its FP32 ceiling (yscale
# 1e9: in billions).
# A lab whose sweep rows are VARIANT/INPUT (lab05) gets a panel per input, on one scale. A
# memory-bound lab gets a second panel: its largest four sizes on a linear axis, where the
# good kernels crowd under the peak and a few per cent show (lab07: which sizes are faster).
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'; ycol='gbs';
#                    ceil='peak_gbs'; ceilfmt='theoretical peak %.0f GB/s'; ylabel='...'
#                    [; yscale=1e9][; size='slide']" plots/sweep.gp
here = exists("here") ? here : "plots"
load here . "/style.gp"
set datafile separator "\t"
set datafile columnheaders
yscale = exists("yscale") ? yscale : 1
awk(what) = sprintf("awk -v series=sweep -v what=%s -f '%s/rows.awk' '%s'", what, here, tsv)
rows(v) = sprintf("< awk -v series=sweep -v what=rows -v variant='%s' -f '%s/rows.awk' '%s'", v, here, tsv)
members = system(awk("members"))
grouped = (words(members) > 0)
lines = grouped ? system(awk("groups")) : system(awk("names"))
nl = words(lines)
np = grouped ? words(members) : 1
name(l, p) = grouped ? word(lines, l) . "/" . word(members, p) : word(lines, l)

stats tsv using ceil nooutput
peak = STATS_max / yscale
stats sprintf("< awk -F'\t' 'NR == 1 || $1 == \"sweep\"' '%s'", tsv) using (column(ycol) / yscale) nooutput
low = STATS_min
high = STATS_max
top = (high > peak ? high : peak)
sizes = system(awk("values -v col=n") . " | tr '\\n' ' '")
zoom = !grouped && !short && ceil eq "peak_gbs" && words(sizes) >= 6
if (zoom) { np = 2; zoomfrom = real(word(sizes, words(sizes) - 3)) }
ceiltitle = sprintf(ceilfmt, peak)
longest = strlen(ceiltitle)
do for [l = 1:nl] { longest = strlen(word(lines, l)) > longest ? strlen(word(lines, l)) : longest }
dummy = keylayout(nl + 1, longest)

set multiplot title title font sprintf(",%d", short ? 0.85 * FS : FS)
set key off
set tmargin at screen 1 - (grouped || zoom ? 5.6 : 3.0) * FS / H
set bmargin at screen keyh + 4.8 * FS / H
set xlabel "n (elements)"
set logscale x 2
set termoption enhanced
set format x "2^{%L}"
# tics at whole powers of 2, every 5th (lab05's 2^10 to 2^30 in narrow panels) or 2nd
nmin = real(word(sizes, 1))
nmax = real(word(sizes, words(sizes)))
step = grouped ? 5 : 2
tic0 = 2 ** (step * ceil(log(nmin) / log(2) / step))
set xtics tic0, 2 ** step
set grid xtics ytics mytics
left = 7.2 * FS / W
right = 1 - keyw - 1.6 * FS / W
split = left + 0.58 * (right - left)
gap = grouped ? 3.6 * FS / W : 5.5 * FS / W
w = (right - left - (np - 1) * gap) / np
do for [p = 1:np] {
    if (grouped) {
        set lmargin at screen left + (p - 1) * (w + gap)
        set rmargin at screen left + (p - 1) * (w + gap) + w
    } else {
        set lmargin at screen (p == 1 ? left : split + gap)
        set rmargin at screen (p == 1 ? (zoom ? split : right) : right)
    }
    if (p == 1) { set ylabel ylabel noenhanced } else { unset ylabel }
    set format y (p > 1 && grouped ? "" : "%g")
    from = 0
    if (p == 2 && zoom) {
        unset logscale y
        set yrange [0:top * 1.06]
        set xrange [zoomfrom / 1.2:nmax * 1.2]
        set xtics 2 ** (2 * ceil(log(zoomfrom) / log(2) / 2)), 4
        set mytics default
        set title "the largest sizes, linear axis" noenhanced
        from = zoomfrom
    } else {
        set logscale y 10
        set yrange [declo(low * 0.9):top * 1.6]
        set xrange [nmin / 1.2:nmax * 1.2]
        set xtics tic0, 2 ** step
        set title (grouped ? word(members, p) : zoom ? "every size, log axes" : "") noenhanced
    }
    plot for [l = 1:nl] rows(name(l, p)) using (column("n") >= from ? column("n") : NaN):(column(ycol) / yscale) \
             with linespoints lw 2 ps 1.2 pt spoint(l) dt sdash(l) lc rgb scolour(l) notitle, \
         peak with lines @peakstyle notitle
}
eval keyplot(longest)
set termoption noenhanced
plot for [l = 1:nl] NaN with linespoints lw 2 ps 1.2 pt spoint(l) dt sdash(l) lc rgb scolour(l) title word(lines, l), \
     NaN with lines @peakstyle title ceiltitle
unset multiplot
