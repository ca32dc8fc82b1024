#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (Ubuntu, no
# GPU): the packages the labs build with, then the CPU backend's runtimes (the strict
# build's and the race checker's), so that a missing package fails here, at upload, rather
# than in every student's grade, and no submission pays a minute to build them.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
cd /autograder/source
apt-get update -qq
# shellcheck disable=SC2046  # one word per package (common/mk/packages.txt)
apt-get install -y -qq --no-install-recommends $(common/packages.sh build grade) >/dev/null
make --no-print-directory BACKEND=cpu cpu-runtime
make --no-print-directory BACKEND=cpu RACECHECK=1 cpu-runtime
