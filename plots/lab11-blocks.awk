# The threshold's block shapes for plots/lab11-blocks.gp: the rows threshold_pixel/R (blocks of
# 32 x R, R = 16, 8, 6, 4, 2, 1) of one device, a line each, "PLACE GB/s RELATIVE": PLACE 1 to 6
# in that order, RELATIVE the speed over that of 32 x 16 (its time over this one's).
# From a bench TSV (its series block_rows; dev empty: whatever device measured it) or from
# plots/reference/lab11-published.tsv (dev: GK107 or GM107). Columns found by their names.
# usage: awk -v dev=DEVICE -f plots/lab11-blocks.awk TSV
BEGIN {
    FS = "\t"
    split("16 8 6 4 2 1", shapes, " ")
    for (k = 1; k <= 6; k++)
        place[shapes[k] + 0] = k
}
/^#/ { next }
!header { for (i = 1; i <= NF; i++) c[$i] = i; header = 1; next }
("series" in c) && $c["series"] != "block_rows" { next }
dev != "" && $c["device"] != dev { next }
$c["variant"] !~ /^threshold_pixel\// { next }
{
    split($c["variant"], part, "/")
    if ((r = part[2] + 0) in place) {
        gbs[r] = $c["gbs"]
        ms[r] = ("ms" in c) ? $c["ms"] : $c["ms_median"]
    }
}
END {
    for (k = 1; k <= 6; k++)
        if ((r = shapes[k] + 0) in gbs)
            print k, gbs[r], (16 in ms && ms[r] > 0 ? ms[16] / ms[r] : "NaN")
}
