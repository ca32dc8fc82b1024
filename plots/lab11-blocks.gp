# lab11's block-shape sweep: threshold_pixel (a pixel a thread) in blocks of 32 x 16 down to
# 32 x 1, the GB/s of each on the GPU that measured the TSV (its series block_rows, when it
# has one) beside the seed's GK107 and GM107 (plots/reference/lab11-published.tsv): left the
# GB/s on a log axis, with the measured copy of the same run; right each GPU's speed over its
# own 32 x 16, where the shapes' effect on each can be compared. The legend under the panels.
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...'[; size='slide']
#                    [; published='...']" plots/lab11-blocks.gp
here = exists("here") ? here : "plots"
load here . "/style.gp"
published = exists("published") ? published : here . "/reference/lab11-published.tsv"
set datafile separator whitespace
rows(file, dev) = sprintf("< awk -v dev='%s' -f '%s/lab11-blocks.awk' '%s'", dev, here, file)
field(name) = system(sprintf("awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } " . \
    "$c[\"series\"] == \"block_rows\" { print $c[\"%s\"]; exit }' '%s'", name, tsv))
measured = field("device")
have = (measured ne "")
n = have ? real(field("n")) : 0
copy = have ? real(field("copy_gbs")) : NaN
size_n = (n > 0 && 2 ** floor(log(n) / log(2) + 0.5) == n) ? sprintf("2^%d", floor(log(n) / log(2) + 0.5)) : sprintf("%d", n)
# The lines: the measured GPU (if any), then the seed's.
nl = have ? 3 : 2
file(l) = (have && l == 1) ? tsv : published
dev(l) = (have && l == 1) ? "" : word("GK107 GM107", l - have)
label(l) = (have && l == 1) ? sprintf(short ? "%s, %s bytes" : "%s, %s bytes, 1920 wide", measured, size_n) \
         : sprintf(short ? "%s (seed 001)" : "%s, 1080p (seed 001, as published)", dev(l))
longest = 0
do for [l = 1:nl] { longest = strlen(label(l)) > longest ? strlen(label(l)) : longest }
copytitle = sprintf(short ? "copy %.0f GB/s" : "measured copy %.0f GB/s", copy)
longest = (have && strlen(copytitle) > longest) ? strlen(copytitle) : longest
dummy = keylayout(nl + have, longest)

set multiplot title title . (have ? "" : " (no block_rows rows: the seed's GPUs alone)") \
    font sprintf(",%d", short ? 0.85 * FS : FS)
set key off
set tmargin at screen 1 - 5.6 * FS / H
set bmargin at screen keyh + 4.8 * FS / H
left = 7.2 * FS / W
right = 1 - keyw - 1.6 * FS / W
gap = 6.5 * FS / W
w = (right - left - gap) / 2
set xrange [0.6:6.4]
# (a slide's narrow panels: the rows alone)
if (short) {
    set xtics ("16" 1, "8" 2, "6" 3, "4" 4, "2" 5, "1" 6)
    set xlabel "block: 32 x rows"
} else {
    set xtics ("32x16" 1, "32x8" 2, "32x6" 3, "32x4" 4, "32x2" 5, "32x1" 6)
    set xlabel "block (threads x rows)"
}
set grid xtics ytics mytics

set lmargin at screen left
set rmargin at screen left + w
set title (short ? "GB/s" : "effective bandwidth") noenhanced
set ylabel (short ? "GB/s, log scale" : "GB/s (decimal, log scale)")
set logscale y 10
set format y "%g"
set yrange [1:(have ? 2 * copy : 100)]
plot for [l = 1:nl] rows(file(l), dev(l)) using 1:2 with linespoints lw 2 ps 1.2 \
         pt spoint(l) dt sdash(l) lc rgb scolour(l) notitle, \
     (have ? copy : NaN) with lines @copystyle notitle

set lmargin at screen left + w + gap
set rmargin at screen right
set title (short ? "over 32x16" : "speed over the same GPU's 32 x 16") noenhanced
set ylabel (short ? "x 32x16" : "times the GB/s of 32 x 16")
unset logscale y
set yrange [0:1.4]
set ytics 0.2
set format y "%.1f"
plot for [l = 1:nl] rows(file(l), dev(l)) using 1:3 with linespoints lw 2 ps 1.2 \
         pt spoint(l) dt sdash(l) lc rgb scolour(l) notitle, \
     1 with lines lw 1 lc rgb "#999999" notitle

eval keyplot(longest)
plot for [l = 1:nl] NaN with linespoints lw 2 ps 1.2 pt spoint(l) dt sdash(l) lc rgb scolour(l) \
         title label(l), \
     NaN with lines @copystyle title (have ? copytitle : "")
unset multiplot
