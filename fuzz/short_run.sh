#!/bin/sh
# SPDX-License-Identifier: MIT
# short_run.sh HARNESS RUNS SCRATCH CORPUS: the seeded run ctest makes of a harness. Every
# input of CORPUS first, then inputs libFuzzer derives with seed 1, RUNS in all; new ones go to
# SCRATCH/new (SCRATCH is emptied first), a failing input to SCRATCH/crash-*. The same inputs
# every time: seed 1, the corpus read once (-reload=0: it is reread on a timer), and no
# mutations from compared values (-use_cmp=0: many are addresses, which ASLR moves).
set -eu
harness=$1 runs=$2 scratch=$3 corpus=$4
rm -rf "$scratch"
mkdir -p "$scratch/new"
exec "$harness" -seed=1 -runs="$runs" -reload=0 -use_cmp=0 -timeout=10 -artifact_prefix="$scratch/" -print_final_stats=1 \
  "$scratch/new" "$corpus"
