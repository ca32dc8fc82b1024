#!/bin/sh
# usage: common/skeletons.sh write|check [FORCE]
# labs/*/X.cu is made from solutions/*/X.cu by common/skeleton.awk. labs/.skeletons keeps the
# sha256 of each skeleton as last made, so that a file someone has since edited (a student
# working in this tree) is told apart from one that is only stale, and is never overwritten
# unless FORCE is given.
mode=$1 force=$2
sums=labs/.skeletons
status=0
new=$(mktemp)
trap 'rm -f "$new" "$new.sums"' EXIT
: > "$new.sums"
for sol in solutions/*/*.cu; do
    [ -e "$sol" ] || continue
    dest=labs/${sol#solutions/}
    awk -f common/skeleton.awk "$sol" > "$new" || exit 1
    made=$(sha256sum < "$new" | cut -d' ' -f1)
    echo "$made  $dest" >> "$new.sums"
    cmp -s "$new" "$dest" 2>/dev/null && continue
    have=$( [ -e "$dest" ] && sha256sum < "$dest" | cut -d' ' -f1)
    last=$(awk -v f="$dest" '$2 == f { print $1 }' "$sums" 2>/dev/null)
    edited=$( [ -e "$dest" ] && [ "$have" != "$last" ] && echo yes)
    if [ "$mode" = check ]; then
        if [ -n "$edited" ]; then
            echo "$dest has edits, it is not the skeleton that make skeletons made (a student's work? students work in the student copy: make dist)"
        else
            echo "$dest is stale: run make skeletons"
        fi
        status=1
    elif [ -n "$edited" ] && [ -z "$force" ]; then
        echo "$dest has edits, it is not the skeleton that make skeletons made: not overwritten (make skeletons FORCE=1 overwrites it)"
        status=1
    else
        cp "$new" "$dest"
    fi
done
if [ "$mode" = write ] && [ $status = 0 ]; then
    cp "$new.sums" "$sums"
    echo "skeletons: labs/ made from solutions/"
elif [ "$mode" = check ] && [ $status = 0 ]; then
    echo "check-skeletons: labs/ matches solutions/"
fi
exit $status
