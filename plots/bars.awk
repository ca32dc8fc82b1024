# The bars of plots/lab.gp from a bench TSV: the rows of the main size (series "main"), where
# each goes on the x axis and in which colour. A lab whose rows are VARIANT/INPUT (lab05:
# every variant on every input) gets grouped bars, a group per variant and a colour per
# input; any other lab a bar per row, coloured by its kind (copy, variant, library, cpu,
# extra). Columns are found by their names in the header (common/bench.h).
# usage: awk -v what=bars|keys|tics [-v compute=1] -f plots/bars.awk TSV
#   bars: X VALUE KEY, a line per bar (KEY: the legend entry's number, from 1)
#   keys: KEY TYPE NAME, a line per legend entry (TYPE m: an input, NAME its name, coloured
#         by its number among the inputs; TYPE k: a kind, NAME the kind)
#   tics: X LABEL, a line per group, at its centre
# compute=1: a compute-bound lab: useful work a second in billions, the copy row left out;
# otherwise GB/s.
BEGIN { FS = OFS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$1 != "main" || (compute && $col["kind"] == "copy") { next }
{
    n++
    kind[n] = $col["kind"]
    value[n] = compute ? $col["work_per_s"] / 1e9 : $col["gbs"]
    name = $col["variant"]
    group[n] = name; member[n] = ""
    if (kind[n] != "copy" && match(name, /\/[^\/]+$/)) {
        group[n] = substr(name, 1, RSTART - 1); member[n] = substr(name, RSTART + 1)
    }
}
END {
    # groups and inputs in the order of their first row
    for (i = 1; i <= n; i++) {
        if (!(group[i] in gi)) { gi[group[i]] = ++ng; gname[ng] = group[i] }
        if (member[i] != "" && !(member[i] in mi)) { mi[member[i]] = ++nm; mname[nm] = member[i] }
    }
    # legend: the inputs first, then the kinds of the bars that are not an input's
    for (m = 1; m <= nm; m++) key["m" m] = ++nk
    split("copy variant library extra cpu", kinds, " ")
    for (i = 1; i <= n; i++) if (member[i] == "") seen[kind[i]] = 1
    for (k = 1; k <= 5; k++) if (kinds[k] in seen) { key["k" kinds[k]] = ++nk; kname[nk] = kinds[k] }
    for (i = 1; i <= n; i++) if (member[i] == "" && !(kind[i] in seen)) {  # a kind of its own
        seen[kind[i]] = 1; key["k" kind[i]] = ++nk; kname[nk] = kind[i]
    }
    if (what == "keys") {
        for (m = 1; m <= nm; m++) print key["m" m], "m", mname[m], m
        for (k = nm + 1; k <= nk; k++) print k, "k", kname[k], 0
        exit
    }
    # x: a group of inputs takes a slot per input and a gap after it; a single bar a slot
    gap = nm ? 1 : 0
    x = 0
    for (g = 1; g <= ng; g++) {
        start[g] = x; width = 1
        for (i = 1; i <= n; i++) if (group[i] == gname[g] && member[i] != "") width = nm
        centre[g] = start[g] + (width - 1) / 2
        x += width + gap
    }
    for (i = 1; i <= n; i++) {
        g = gi[group[i]]
        if (what == "bars")
            print start[g] + (member[i] != "" ? mi[member[i]] - 1 : 0), value[i], \
                  member[i] != "" ? key["m" mi[member[i]]] : key["k" kind[i]]
    }
    if (what == "tics") for (g = 1; g <= ng; g++) print centre[g], gname[g]
}
