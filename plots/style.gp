# What every plot of plots/*.gp shares, loaded first: the canvas and its font, the colours
# of the bars' kinds, the styles of the series (each a colour, a dash and a point of its
# own, so that two lines differ even in grey or where they lie on top of each other), the
# ceilings' lines and the key.
# Set before loading: term ('png' or 'svg'), out; size ('page', the default: 1280 x 800 at
# 14 pt, what make labNN plot and plots/reference/*.png use; 'slide': 1280 x 640 at 19 pt,
# what make slides uses: about 6 pt on a 16:9 beamer slide at the text's width, where the
# page size's text came out at 3 pt. A slide holds two thirds of the page's text across,
# so there the scripts write shorter labels (short = 1), the bars lie down (plots/lab.gp)
# and the legend of a line plot goes beside it.)
if (!exists("size")) size = "page"
W = 1280; H = 800; FS = 14
if (size eq "slide") { W = 1280; H = 640; FS = 19 }
short = (size eq "slide")
# DejaVu Sans, named, so that a machine with another default font draws the same layout;
# text not enhanced unless a script asks (an underscore in a variant's name stays one).
font = sprintf("DejaVu Sans,%d", FS)
if (term eq "png") {
    set terminal pngcairo size W,H font font linewidth FS / 12.0 noenhanced
} else {
    set terminal svg size W,H dynamic font font linewidth FS / 12.0 noenhanced
}
set output out
set encoding utf8
# Opaque boxes behind the value labels, so that a ceiling line does not cross a number.
set style textbox opaque noborder margins 1, 1
set border lw 1

# Series: Okabe and Ito's colour-blind-safe set and its neighbours (no black and no grey,
# which the ceilings and the copy use), then four dashes and twelve points, each on a cycle
# of its own length, so that no two of the first 60 series share all three.
colours = "#0072b2 #e69f00 #009e73 #cc79a7 #56b4e9 #d55e00 #7b3294 #b8a000 #8c510a #01665e"
scolour(i) = word(colours, (i - 1) % 10 + 1)
spoint(i) = int(word("7 5 9 13 11 6 4 8 12 10 15 14", (i - 1) % 12 + 1))
sdash(i) = int(word("1 12 13 14", (i - 1) % 4 + 1))
set dashtype 12 (9, 5)
set dashtype 13 (9, 4, 2, 4)
set dashtype 14 (3, 4)
# The bars' kinds (a bench row's "kind" column).
kindcolour(k) = k eq "copy" ? "#555555" : k eq "variant" ? "#0072b2" : k eq "library" ? "#e69f00" \
              : k eq "cpu" ? "#bbbbbb" : "#cc79a7"
kindname(k) = k eq "copy" ? "cudaMemcpy copy" : k eq "variant" ? "the lab's kernels" \
            : k eq "library" ? "library" : k eq "cpu" ? "CPU" : "other rows"
# The ceilings: the theoretical peak or FP32 ceiling black and dashed, the measured copy
# dark grey, dash-dotted (the copy's bar has its colour).
peakstyle = "lw 2.5 dt (12, 6) lc rgb '#000000'"
copystyle = "lw 2.5 dt (12, 5, 2, 5) lc rgb '#555555'"
set grid lc rgb "#dddddd" lw 1
# A number of GB/s (or of billions of work a second) as a bar's label.
num(v) = v >= 100 ? sprintf("%.0f", v) : v >= 0.01 ? sprintf("%.3g", v) : sprintf("%.1e", v)
# The whole decade at or below a (the bottom of a log axis).
declo(a) = 10 ** floor(log10(a))
# The legend of a line plot: in a plot of its own (a panel's key would be held to the
# panel's width), under the panels in as many columns as its longest entry (in characters)
# lets fit, or beside them, in one column, where that would take more than five rows, and
# on a slide. keylayout(entries, longest) sets keyright, keyw and keyh (the screen width
# and height it takes); then eval keyplot(longest) before plotting its entries as NaN.
keycols(longest) = (c = floor(0.96 * W / ((longest + 8) * 0.8 * FS)), c < 1 ? 1 : c > 5 ? 5 : c)
keylayout(entries, longest) = (keyright = short || ceil(entries / real(keycols(longest))) > 5, \
    keyw = keyright ? (longest + 10) * 0.75 * FS / W : 0, \
    keyh = keyright ? 0 : (ceil(entries / real(keycols(longest))) * 1.8 + 0.8) * FS / H, 0)
keyplot(longest) = "unset title; unset xlabel; unset ylabel; unset border; unset tics; " . \
    "unset grid; unset logscale; set xrange [0:1]; set yrange [0:1]; " . (keyright ? \
    sprintf("set lmargin at screen %g; set rmargin at screen 0.995; set tmargin at screen 0.99; " . \
            "set bmargin at screen 0.01; set key inside left center vertical", 1 - keyw) : \
    sprintf("set lmargin at screen 0.01; set rmargin at screen 0.99; set tmargin at screen %g; " . \
            "set bmargin at screen 0.005; set key inside center center horizontal maxcols %d", keyh, keycols(longest))) . \
    " reverse Left samplen 3 spacing 1.15 width 0"
