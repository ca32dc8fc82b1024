#!/bin/sh
# usage: common/packages.sh NEED...   e.g. common/packages.sh build ci
# Prints the Debian packages of common/mk/packages.txt needed by any of NEED, one per line, for
# `apt-get install $(common/packages.sh build)` in CI and the graders' images.
here=$(dirname "$0")
awk -v needs="$*" '
    BEGIN { n = split(needs, want, " ") }
    /^#/ || NF < 4 { next }
    {
        split($3, by, ",")
        for (i in by) for (j = 1; j <= n; j++) if (by[i] == want[j]) keep = 1
        if (keep) for (k = 4; k <= NF; k++) print $k
        keep = 0
    }' "$here/mk/packages.txt"
