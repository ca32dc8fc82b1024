# Bars of the rows of the main size (series "main" of a bench TSV), each with its value
# printed at its end, against the ceilings as lines; standing on a page, lying on a slide
# (size='slide', plots/style.gp). A memory-bound lab: GB/s, with the
# theoretical peak and the device-to-device copy measured in the same run; a compute-bound
# lab (its rows have a work unit): useful work a second against the FP32 ceiling, the copy
# row left out. Where the values span more than a factor of 20 (the CPU and the lessons in
# what not to do beside the best kernels) the y axis is logarithmic, so that every bar can be
# read. plots/bars.awk says which bar goes where: a lab of VARIANT/INPUT rows (lab05) gets a
# group per variant and a colour per input.
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'[; size='slide']" plots/lab.gp
here = exists("here") ? here : "plots"
load here . "/style.gp"
set datafile separator "\t"
unit = system(sprintf("awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"work_unit\") c = i } $1 == \"main\" { if (c) print $c; exit }' '%s'", tsv))
compute = (unit ne "" && unit ne "-")
bars(what) = sprintf("awk -v what=%s -v compute=%d -f '%s/bars.awk' '%s'", what, compute, here, tsv)
awk(what) = "< " . bars(what)
column_max(name) = real(system(sprintf("awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"%s\") c = i } $1 == \"main\" && $c > m { m = $c } END { print m + 0 }' '%s'", name, tsv)))

stats awk("bars") using 2 nooutput
top = STATS_max
nbars = STATS_records
stats awk("bars") using ($2 > 0 ? $2 : NaN) nooutput
lowest = STATS_min
stats awk("bars") using 1 nooutput
xmax = STATS_max
stats awk("tics") using 1 nooutput
ngroups = STATS_records
grouped = (ngroups < nbars)
if (compute) {
    ceiling = column_max("work_ceiling") / 1e9
    fp32 = column_max("fp32_per_work")
    copy = NaN
} else {
    ceiling = column_max("peak_gbs")
    copy = column_max("copy_gbs")
}
hi = (ceiling > top ? ceiling : top)
logy = (hi / lowest > 20)

# The legend: an entry per input or kind (plots/bars.awk), then the lines.
nk = int(system(bars("keys") . " | wc -l"))
array ktitle[nk]
array kcolour[nk]
do for [k = 1:nk] {
    field(f) = system(sprintf("%s | awk -F'\t' 'NR == %d { print $%d }'", bars("keys"), k, f))
    type = field(2)
    kname = field(3)
    kcolour[k] = type eq "m" ? scolour(int(field(4))) : kindcolour(kname)
    ktitle[k] = type eq "m" ? kname : kindname(kname)
}

if (compute) {
    set ylabel sprintf(short ? "G %s/s%s" : "useful %s a second (billions%s)", unit, logy ? ", log scale" : "")
} else {
    set ylabel sprintf(short ? "GB/s%s" : "effective bandwidth (GB/s, decimal%s)", logy ? ", log scale" : "")
}
ceiltitle = compute ? sprintf(short ? "FP32 ceiling %.0f G/s" : "FP32 ceiling %.0f G/s (%.3g FP32 each)", ceiling, fp32) \
                    : sprintf(short ? "peak %.0f GB/s" : "theoretical peak %.0f GB/s", ceiling)
copytitle = compute ? "" : sprintf(short ? "copy %.0f GB/s" : "measured copy %.0f GB/s", copy)
maxlen = 0
stats awk("bars") using (maxlen = strlen(num($2)) > maxlen ? strlen(num($2)) : maxlen, $2) nooutput
longest = int(system(bars("tics") . " | awk -F'\t' 'length($2) > m { m = length($2) } END { print m }'"))
vlo = logy ? declo(lowest) : 0
bw = grouped ? 0.92 : 0.72
set style fill solid 0.9 border rgb "#333333"
set title title font sprintf(",%d", short ? 0.85 * FS : FS)
# The legend under the plot, a blank line above it.
set xlabel " "
set key outside bottom center horizontal samplen 2 spacing 1.15 width 1

if (short) {
    # On a slide the bars lie down: the names level at their left, the values at their ends,
    # so that nothing is turned and nothing collides in a slide's narrower text.
    # the legend in two rows under the plot; the values where a row is high enough for them
    set key outside bottom center horizontal maxrows 2 samplen 2 spacing 1.0 width 0
    plotwidth = W - (longest + 4) * 0.65 * FS
    rowpx = (H - 10 * FS) / (xmax + 1.6)
    values = (rowpx >= 1.05 * FS)
    room = values ? (maxlen + 1.5) * 0.65 * FS / plotwidth : 0.02
    if (logy) {
        set logscale x 10
        set xrange [vlo:10 ** (log10(hi) + room / (1 - room) * (log10(hi) - log10(vlo)))]
        set grid xtics mxtics
    } else {
        set xrange [0:hi / (1 - room)]
        set grid xtics
    }
    set yrange [xmax + 0.8:-0.8]
    set xlabel (compute ? sprintf("G %s/s", unit) : "GB/s") . (logy ? " (log scale)" : "") offset 0, 0.3
    unset ylabel
    set xtics nomirror format "%g"
    set ytics scale 0 nomirror
    plot for [k = 1:nk] awk("bars") using 2:($3 == k ? $1 : NaN):(vlo):2:($1 - bw / 2):($1 + bw / 2) \
             with boxxyerror fc rgb kcolour[k] title ktitle[k], \
         awk("tics") using (NaN):1:ytic(2) notitle, \
         [t = -0.8:xmax + 0.8] "+" using (ceiling):1 with lines @peakstyle title ceiltitle, \
         [t = -0.8:xmax + 0.8] "+" using (copy):1 with lines @copystyle title copytitle, \
         awk("bars") using 2:(values ? $1 : NaN):(num($2)) with labels boxed left offset 0.5, 0 notitle
    exit
}

plotwidth = W - 12 * FS
slotpx = plotwidth / (xmax + 1.6)
# The values: level above their bars where the longest number fits in a slot, else turned
# upright.
upright = ((maxlen + 1.5) * 0.7 * FS > slotpx)
labelalign = upright ? "left" : "center"
# Room above the highest bar for its label: a tenth of the axis, a sixth for upright ones.
if (logy) {
    set logscale y 10
    set yrange [vlo:10 ** (log10(hi) + (upright ? 0.16 : 0.1) * (log10(hi) - log10(vlo)))]
    set ytics format "%g"
    set grid ytics mytics
} else {
    set yrange [0:hi * (upright ? 1.16 : 1.1)]
    set grid ytics
}
set xrange [-0.8:xmax + 0.8]
set boxwidth bw
# The group names: level where they fit under their group, slanted otherwise.
groupslots = grouped ? (xmax + 1.6) / ngroups : 1
level = (longest * 0.7 * FS < 0.85 * slotpx * groupslots)
if (level) {
    set xtics scale 0 nomirror
} else {
    set xtics rotate by 45 right scale 0 nomirror
}
set ytics nomirror
plot for [k = 1:nk] awk("bars") using ($3 == k ? $1 : NaN):2 with boxes fc rgb kcolour[k] title ktitle[k], \
     awk("tics") using 1:(NaN):xtic(2) notitle, \
     ceiling with lines @peakstyle title ceiltitle, \
     copy with lines @copystyle title copytitle, \
     awk("bars") using 1:2:(num($2)) with labels boxed rotate by (upright ? 90 : 0) \
         offset 0, (upright ? 0.4 : 0.7) @labelalign notitle
