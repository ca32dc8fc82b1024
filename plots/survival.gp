# lab14's survival curve (make lab14 plot, make plots-reference): the windows of the image still
# alive after each stage of the cascade, from the TSV of `lab14 run --survival --survival-tsv
# FILE` (its first line a comment saying what ran; then stage, alive, percent, launch), both
# axes logarithmic, the share of the windows on the right; the points mark the stages where
# compacted starts a launch, over the queue of that many windows (the first, at stage 0, over
# all of them: the dashed line). The curve is exact (an integer cascade on a seeded image):
# the same on every backend and every GPU.
# usage: gnuplot -e "tsv='...'; out='...'; term='png|svg'; title='...' [; size='slide']" \
#            plots/survival.gp
here = exists("here") ? here : "plots"
load here . "/style.gp"
set datafile separator "\t"
set datafile columnheaders
what = system(sprintf("sed -n '1s/^# [^:]*: //p' '%s'", tsv))
windows = real(system(sprintf("awk -F'\t' '$1 == \"0\" { print $2; exit }' '%s'", tsv)))
stages = real(system(sprintf("awk -F'\t' 'END { print $1 }' '%s'", tsv)))
fewest = real(system(sprintf("awk -F'\t' 'NR > 2 && $2 > 0 { m = $2 } END { print m }' '%s'", tsv)))
set title title . (short ? "" : "\n" . what)
set xlabel (short ? "stages run, log scale" : "stages run (log scale)")
set ylabel (short ? "windows alive, log scale" : "windows still alive after that many stages (log scale)")
set y2label "% of the windows"
set logscale x 2
set logscale y 10
set logscale y2 10
# the percentages on the right, an axis of their own over the same span as the windows'
ylo = declo(fewest); yhi = windows * 1.5
set yrange [ylo:yhi]
set y2range [100.0 * ylo / windows:100.0 * yhi / windows]
set format y "%g"
set format y2 "%g"
set ytics nomirror
set y2tics
set xrange [1:stages * 1.1]
set grid xtics ytics mytics
set key bottom left box opaque
# (the dashed line first: gnuplot expands no @macro after an apostrophe on the same command)
plot windows with lines @copystyle title (short ? "all windows" : "all the windows: the first queue"), \
     tsv using (column("stage") > 0 ? column("stage") : NaN):"alive" with steps lw 2.5 \
         lc rgb scolour(1) title "windows alive", \
     tsv using (column("launch") > 0 && column("stage") > 0 ? column("stage") : NaN):"alive" \
         with points pt spoint(2) ps 1.0 lc rgb scolour(2) \
         title (short ? "compacted's queues" : "a launch of compacted: the queue it takes")
