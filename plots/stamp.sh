#!/bin/sh
# usage: plots/stamp.sh write MANIFEST FILE...
#        plots/stamp.sh check MANIFEST FIX FILE...
# The drawings committed beside their sources (plots/reference/*.png, slides/pdf/*.pdf) are
# kept current by a manifest: write records the SHA-256 of every FILE, sources and drawings
# alike (sha256sum's format); check fails, naming FIX (the make goal that redraws them),
# unless MANIFEST lists exactly the FILEs given now with the same contents. A source edited
# since, a source or drawing added or removed, a drawing edited by hand: each is caught,
# in a fraction of a second and without gnuplot or LaTeX. (Redrawing and comparing pixels
# instead would fail on any machine whose gnuplot, cairo or fonts differ from the one that
# drew them, though the drawing is the same.)
mode=$1 manifest=$2
shift 2
case $mode in
write)
    sha256sum "$@" > "$manifest.tmp" && mv "$manifest.tmp" "$manifest" ;;
check)
    fix=$1
    shift
    stale() { echo "$manifest: $1: run make $fix" >&2; exit 1; }
    [ -f "$manifest" ] || stale "missing"
    tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
    awk '{ print $2 }' "$manifest" | sort > "$tmp/listed"
    printf '%s\n' "$@" | sort > "$tmp/given"
    new=$(comm -13 "$tmp/listed" "$tmp/given" | head -3 | paste -sd' ' -)
    gone=$(comm -23 "$tmp/listed" "$tmp/given" | head -3 | paste -sd' ' -)
    [ -z "$new" ] || stale "new since the drawing: $new"
    [ -z "$gone" ] || stale "gone since the drawing: $gone"
    changed=$(sha256sum --check --quiet "$manifest" 2>/dev/null | sed 's/: FAILED.*//' | head -3 | paste -sd' ' -)
    [ -z "$changed" ] || stale "changed since the drawing: $changed"
    echo "$manifest: $# files as drawn" ;;
*)
    echo "usage: plots/stamp.sh write|check MANIFEST [FIX] FILE..." >&2; exit 2 ;;
esac
