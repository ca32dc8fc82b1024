# A lab's roofline (make lab13 roofline, make plots-reference): each GPU row a point at its
# arithmetic intensity (flops a DRAM byte) and its TFLOP/s, both axes logarithmic, under the
# memory roof (the DRAM peak x intensity) and the FP32 and TF32 tensor-core ceilings, each
# flat from its ridge on; a small cross on the same line marks the same flops over
# the bytes through L2, which shows how much of the traffic L2 kept from DRAM. The rows are
# told apart by the key (a colour and a point each), so that no label covers another. From
# the TSV of common/roofline.py: its first line a comment saying what it holds, then variant,
# intensity, l2_intensity, tflops, the ceilings (peak_gbs, fp32_tflops, tf32_tflops: "-" for
# none), device, date.
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...' [; size='slide']" \
#            plots/roofline.gp
here = exists("here") ? here : "plots"
load here . "/style.gp"
set datafile separator "\t"
set datafile columnheaders
what = system(sprintf("sed -n '1s/^# [^:]*: //p' '%s'", tsv))
# The first data line's value in the column named c, and the rows' extremes of a column.
first(c) = system(sprintf("awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == \"%s\") c = i; h = 1; next } { print $c; exit }' '%s'", c, tsv))
extreme(c, op) = real(system(sprintf("awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == \"%s\") c = i; h = 1; next } $c + 0 > 0 && (m == \"\" || $c %s m) { m = $c } END { print m + 0 }' '%s'", c, op, tsv)))
nrows = int(system(sprintf("grep -v '^#' '%s' | tail -n +2 | wc -l", tsv)))
array name[nrows]
do for [i = 1:nrows] {
    name[i] = system(sprintf("grep -v '^#' '%s' | awk -F'\t' 'NR == %d { print $1 }'", tsv, i + 1))
}
bw = real(first("peak_gbs")) / 1e3   # TFLOP/s for each flop a byte
fp32 = real(first("fp32_tflops"))
tf32 = first("tf32_tflops") eq "-" ? NaN : real(first("tf32_tflops"))
top = tf32 == tf32 ? tf32 : fp32   # (NaN is not equal to itself)

# Decades that hold every point, both ridges and room above the highest ceiling.
left = extreme("l2_intensity", "<") > 0 ? extreme("l2_intensity", "<") : extreme("intensity", "<")
left = extreme("intensity", "<") < left ? extreme("intensity", "<") : left
right = extreme("intensity", ">") > top / bw ? extreme("intensity", ">") : top / bw
set xrange [declo(left):10 ** ceil(log10(right * 1.2))]
high = extreme("tflops", ">") > top ? extreme("tflops", ">") : top
set yrange [declo(extreme("tflops", "<")):10 ** ceil(log10(high * 1.5))]
set logscale xy 10
set format x "%g"
set format y "%g"
set grid xtics ytics mxtics mytics
set samples 2000
set title sprintf("%s on %s, %s", title, first("device"), first("date")) . (what eq "" ? "" : "\n" . what)
set xlabel (short ? "flops a DRAM byte, log scale" : "arithmetic intensity: flops a byte of DRAM (log scale)")
set ylabel (short ? "TFLOP/s, log scale" : "TFLOP/s (log scale)")
set key outside right top reverse Left samplen 3 spacing 1.15

roof(x) = x <= top / bw ? bw * x : NaN
flat(x, c) = x >= c / bw ? c : NaN
row(i) = column(0) == i - 1   # (column 0: the data line's number, from 0)
plot roof(x) @peakstyle title sprintf("DRAM %.0f GB/s x intensity", bw * 1e3), \
     flat(x, fp32) lw 2.5 lc rgb "#555555" title sprintf("FP32 %.3g TFLOP/s", fp32), \
     flat(x, tf32) @copystyle title (tf32 == tf32 ? sprintf("TF32 tensor cores %.3g TFLOP/s", tf32) : ""), \
     for [i = 1:nrows] tsv using (row(i) ? column("l2_intensity") : NaN):"tflops": \
         (column("intensity") - column("l2_intensity")):(0) \
         with vectors nohead lw 1.2 lc rgb scolour(i) notitle, \
     for [i = 1:nrows] tsv using (row(i) ? column("l2_intensity") : NaN):"tflops" \
         with points pt 2 ps 1.2 lw 1.5 lc rgb scolour(i) notitle, \
     for [i = 1:nrows] tsv using (row(i) ? column("intensity") : NaN):"tflops" \
         with points pt spoint(i) ps 2.2 lw 2 lc rgb scolour(i) title name[i], \
     NaN with points pt 2 ps 1.2 lw 1.5 lc rgb "#000000" title (short ? "over L2 bytes" : "the same flops over L2's bytes")
