# The rows of one series of a bench TSV for the line plots (plots/sweep.gp, plots/param.gp).
# Columns are found by their names in the header (common/bench.h).
# usage: awk -v series=S -v what=WHAT [-v variant=V] [-v col=C] -f plots/rows.awk TSV
#   names:   the series' variants in the order of their first row, each in double quotes,
#            on one line (gnuplot's word() takes a quoted name as one word)
#   groups, members: the same for VARIANT/INPUT names (lab05): the variants, the inputs
#   rows:    the header, then the rows of variant V
#   values:  the distinct values of column C, ascending, one a line
BEGIN { FS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (what == "rows") print; next }
$1 != series { next }
{
    v = $c["variant"]; g = v; m = ""
    if (match(v, /\/[^\/]+$/)) { g = substr(v, 1, RSTART - 1); m = substr(v, RSTART + 1) }
}
what == "rows" { if (v == variant) print; next }
what == "names" && !seen[v]++ { printf "\"%s\" ", v }
what == "groups" && !seen[g]++ { printf "\"%s\" ", g }
what == "members" && m != "" && !seen[m]++ { printf "\"%s\" ", m }
what == "values" && !seen[$c[col]]++ { print $c[col] | "sort -g" }
