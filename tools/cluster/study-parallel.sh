#!/bin/bash
# A balance study in N slices on one machine with GNU parallel, then merged:
#
#   tools/cluster/study-parallel.sh            # 8 slices, one core each
#   SLICES=4 GAMES=400 tools/cluster/study-parallel.sh
#
# The merged file is what the unsharded study writes, byte for byte apart from `timing`.
set -euo pipefail
ORRERY=${ORRERY:-orrery}
GAMES=${GAMES:-10000}
PLAYERS=${PLAYERS:-4}
BOTS=${BOTS:-best}
SEED=${SEED:-7}
SLICES=${SLICES:-8}
SHARDS=${SHARDS:-shards}
OUT=${OUT:-study.json}
mkdir -p "$SHARDS"
parallel --halt now,fail=1 "$ORRERY" simulate --games "$GAMES" --players "$PLAYERS" \
    --bots "$BOTS" --seed "$SEED" --jobs 1 --shard "{}/$SLICES" --out "$SHARDS/{}.json" \
    ::: $(seq "$SLICES")
"$ORRERY" merge "$SHARDS"/*.json --out "$OUT"
