#!/bin/sh
# lab14's own options on its command line (tests/test_lab14_cli.sh LAB14, the lab's binary
# from labs/ or solutions/, run from the repository's root): a bad --image, --stages or
# --survival-tsv is refused with one line on stderr that names the option, nothing on stdout
# and exit status 2; the smallest and the largest --stages are taken; a picture sets the run's
# size, and a --size after it is the one the picture is resampled to. No kernel runs: the
# runs that read a picture ask for the CPU row alone, which run does not check.
set -u
lab=lab14
bin=$1
picture=common/images/astronaut-gray.png
. "$(dirname "$0")/cli.sh"

# run ARGS... with the picture must say first that its frame is FRAME.
frame() {
    want=$1
    shift
    got=$("$bin" run "$@" --variant 'cpu (one core)' | head -n 1)
    [ "$got" = "frame: $picture, $want" ] || fail "run $* said '$got', want 'frame: $picture, $want'"
}

for v in 0 -1 x 1e3 65536 99999999999999999999 ""; do
    refused --stages --stages "$v"
done
refused --stages --stages
refused --survival-tsv --survival-tsv ""
refused --image --image /nonexistent/picture.png
refused --image --image common/images/README.md
refused --image --image ""
refused --image --image
for v in 1 65535; do
    "$bin" run --stages "$v" --help >/dev/null 2>&1 || fail "run --stages $v was refused"
done
[ -r "$picture" ] || fail "$picture: not there (run from the repository's root)"
frame "512 x 512" --image "$picture"
frame "512 x 512 resampled to 40 x 30" --image "$picture" --size 40x30
frame "512 x 512 resampled to 40 x 512" --image "$picture" --width 40
frame "512 x 512" --size 40x30 --image "$picture"
echo "test-cli lab14: bad --image, --stages and --survival-tsv values refused, 1 and 65535" \
    "stages taken, a picture at its own size or resampled to a --size after it"
