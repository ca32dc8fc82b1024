# lab07's occupancy experiment (make lab07 occupancy): tiled_padded's GB/s against its
# occupancy (the SM's threads its resident blocks hold, in %), as unused dynamic shared memory
# leaves it fewer blocks per SM; each point labelled with its blocks per SM, the measured copy
# as the ceiling, and the same on the right in % of that copy. From the TSV of `lab07 run
# --occupancy --occupancy-tsv`: its first line a comment saying what ran, then extra_bytes,
# blocks_per_sm, occupancy_pct, inflight_kb, ms_median, ms_min, ms_max, gbs, pct_copy,
# copy_gbs.
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...' [; size='slide']" \
#            plots/occupancy.gp
here = exists("here") ? here : "plots"
load here . "/style.gp"
set datafile separator "\t"
set datafile columnheaders
what = system(sprintf("sed -n '1s/^# [^:]*: //p' '%s'", tsv))
copy = real(system(sprintf("awk -F'\t' '/^#/ || $1 == \"extra_bytes\" { next } { print $10; exit }' '%s'", tsv)))
set title title . (short ? "" : "\n" . what)
set xlabel (short ? "occupancy, % of the SM's threads" : "occupancy: the threads of the blocks resident on an SM, in % of the most it holds")
set ylabel "GB/s (read + written)"
set y2label "% of the copy"
set xrange [0:110]
set yrange [0:copy * 1.15]
set y2range [0:115]
set ytics nomirror
set y2tics
set grid xtics ytics
set key bottom right box opaque
plot copy with lines @copystyle title "cudaMemcpy copy", \
     tsv using "occupancy_pct":"gbs" with linespoints lw 2.5 pt spoint(1) ps 1.3 \
         lc rgb scolour(1) title (short ? "tiled_padded" : "tiled_padded (labels: blocks per SM)"), \
     tsv using "occupancy_pct":"gbs":(sprintf("%d", column("blocks_per_sm"))) with labels \
         offset 0, 1.2 notitle
