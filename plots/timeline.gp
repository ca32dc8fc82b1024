# lab12's timeline (make lab12 timeline): each variant's copies in, kernels and copies out as
# bars along time, a row per stream of each variant, from the TSV of `lab12 run --timeline`
# (variant, stream, chunk, part, start_ms, end_ms). Each variant's times start at its own 0.
# Set before loading: tsv, out, term ('png' or 'svg'), title.
load "plots/style.gp"
# A row per (variant, stream), the first variant on top: row numbers and labels by awk.
rows = "awk -F'\\t' 'NR > 1 { key = $1 \" s\" $2; if (!(key in row)) { row[key] = ++n; name[n] = key } \
  print row[key], $4, $5, $6 } END { for (k = 1; k <= n; k++) print \"#\", k, name[k] > \"/dev/stderr\" }'"
data = "< " . rows . " " . tsv . " 2>/dev/null"
nrows = int(system(rows . " " . tsv . " 2>&1 >/dev/null | wc -l"))
set for [k = 1:nrows] ytics (system(rows . " " . tsv . " 2>&1 >/dev/null | awk 'NR == " . k . " { print $3 \" \" $4 }'") k)
set yrange [nrows + 0.7:0.3]
set xlabel "ms since the pipeline began"
set title title
set grid xtics
set key outside right top
partcolour(p) = p eq "h2d" ? "#0072b2" : p eq "kernel" ? "#e69f00" : "#009e73"
set style fill solid 0.85 border lc rgb "#333333"
plot for [p in "h2d kernel d2h"] data using (($3 + $4) / 2):(strcol(2) eq p ? $1 : NaN):(($4 - $3) / 2):(0.35) \
     with boxxyerror lc rgb partcolour(p) title p
