#!/bin/sh
# usage: common/new-lab.sh NN NAME      (make new-lab NN=02 NAME=mandelbrot)
# A new lab from common/template/, in the shape of every lab, working from the start (its
# two variants compute out = 2 x in): the solution with its markers and the skeleton made
# from it, the header with the table of variants, launch.cu, main.c with host.h and rows.c (the
# command line and the bench's rows), reference.c, the handout, the tests (and the host API's
# line for the grader's wall), the hidden tests, the points of both, the catalogue of wrong
# and right submissions, the slides, and the lab's row in README.md's table of labs. Replace
# the template's problem with the lab's own, one variant at a time, keeping `make labNN test`
# green.
nn=$1 name=$2
case $nn in
[0-9][0-9]) ;;
*) echo "new-lab: NN=$nn: two digits, e.g. make new-lab NN=02 NAME=mandelbrot" >&2; exit 2 ;;
esac
case $name in
[a-z]*[a-z0-9] | [a-z]) case $name in *[!a-z0-9-]* | *--*) ok= ;; *) ok=1 ;; esac ;;
*) ok= ;;
esac
[ -n "$ok" ] || { echo "new-lab: NAME=$name: lower-case letters, digits and dashes, starting with a letter, e.g. NAME=ray-tracer" >&2; exit 2; }
if ls -d labs/lab"$nn"-* solutions/lab"$nn"-* >/dev/null 2>&1; then
    echo "new-lab: lab$nn exists already: $(ls -d labs/lab"$nn"-* solutions/lab"$nn"-* 2>/dev/null | tr '\n' ' ')" >&2
    exit 2
fi
id=$(echo "$name" | tr - _)
ID=$(echo "$id" | tr a-z A-Z)
title=$(echo "$name" | tr - ' ')
dir=lab$nn-$name
fill() {
    sed -e "s/{{NN}}/$nn/g" -e "s/{{name}}/$name/g" -e "s/{{id}}/$id/g" -e "s/{{ID}}/$ID/g" \
        -e "s/{{title}}/$title/g" "common/template/$1" > "$2" && echo "  $2"
}
echo "new-lab: lab$nn, $title"
mkdir -p "labs/$dir" "solutions/$dir" tests/points tests/hidden tests/grader/catalogue slides
fill exercise.cu "solutions/$dir/$id.cu"
fill lab.h "labs/$dir/$id.h"
fill launch.cu "labs/$dir/launch.cu"
fill main.c "labs/$dir/main.c"
fill host.h "labs/$dir/host.h"
fill rows.c "labs/$dir/rows.c"
fill reference.c "labs/$dir/reference.c"
fill README.md "labs/$dir/README.md"
fill test.c "tests/test_lab${nn}_$id.c"
fill remote.c "tests/remote_lab${nn}_$id.c"
fill points.txt "tests/points/lab$nn.txt"
fill hidden.c "tests/hidden/test_lab${nn}_hidden.c"
fill hidden-points.txt "tests/hidden/lab$nn.txt"
fill catalogue.py "tests/grader/catalogue/lab$nn.py"
fill slides.md "slides/$dir.md"
if command -v clang-format >/dev/null; then
    clang-format -i "solutions/$dir/$id.cu" "labs/$dir/$id.h" "labs/$dir/launch.cu" \
        "labs/$dir/main.c" "labs/$dir/host.h" "labs/$dir/rows.c" "labs/$dir/reference.c" \
        "tests/test_lab${nn}_$id.c" \
        "tests/remote_lab${nn}_$id.c" "tests/hidden/test_lab${nn}_hidden.c"
fi
common/skeletons.sh write >/dev/null && echo "  labs/$dir/$id.cu (the skeleton)"
python3 common/tables.py --write >/dev/null # the handout's table says that it waits for a bench
# its row in README.md's table of labs, in number order
python3 - "$dir" "$title" <<'PY' && echo "  README.md (the table of labs)"
import re, sys
dir, title = sys.argv[1:]
text = open("README.md", encoding="utf-8").read()
start, end = text.index("<!-- labs -->"), text.index("<!-- end labs -->")
rows = text[start:end].split("\n")
head = [r for r in rows if not re.match(r"\| lab\d\d-", r)]
labs = sorted([r for r in rows if re.match(r"\| lab\d\d-", r)] +
              ["| %s | %s: what it teaches (to be written) |" % (dir, title)])
table = "\n".join(head[:-1] + labs + head[-1:])
open("README.md", "w", encoding="utf-8").write(text[:start] + table + text[end:])
PY
echo "new-lab: make lab$nn test SOLUTION=1 passes, make lab$nn test fails until the TODOs are"
echo "done, and the catalogue's entries are caught (python3 tests/grader/catch_rate.py --lab $nn)."
