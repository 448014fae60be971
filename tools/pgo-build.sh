#!/usr/bin/env bash
# Builds an `orrery` binary optimised with a profile of its own bots at play (profile-guided
# optimisation): the same code as `cargo build --release`, its hot paths laid out and its
# branches ordered from what the bots' games ran, and optimised whole. On the maintainers'
# 2-core machine it lists about 7% faster, applies and replays 9-12% faster, and plays random
# games about 15% faster (README, "Speed"); worth it before a long study, not needed otherwise.
#
#   tools/pgo-build.sh            # writes target/pgo/release/orrery
#
# Needs the LLVM tools of the Rust toolchain in use (`rustup component add llvm-tools`) for
# `llvm-profdata`. Takes two release builds and about three minutes of bot games (about
# thirteen minutes on two cores). The training games are bots playing the built-in Gaia
# Project content (2, 3 and 4 players); no recorded game is replayed, so `orrery bench` on the
# result measures states the profile never saw.
#
# Exit codes: 0 built; 2 llvm-profdata missing; other: the build or a training game failed.
set -euo pipefail
cd "$(dirname "$0")/.."

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    echo "error: llvm-profdata not found at $profdata; run: rustup component add llvm-tools" >&2
    exit 2
fi

# Both builds are also optimised whole (one code unit, link-time optimisation across every
# crate). The default release profile is not: `cargo test --release` builds each test binary
# with it, and optimising dozens of them whole would take CI far over its hour.
export CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1

work="${CARGO_TARGET_DIR:-target}/pgo-work"
rm -rf "$work/raw"
mkdir -p "$work/raw"
raw=$(cd "$work/raw" && pwd)

# 1. A binary that counts what it runs.
RUSTFLAGS="-Cprofile-generate=$raw" \
    cargo build --release -p orrery-tools --target-dir "$work/gen"
gen="$work/gen/release/orrery"

# 2. The bots at play: the profile's games.
export LLVM_PROFILE_FILE="$raw/orrery_%m_%p.profraw"
"$gen" simulate --games 30 --players 4 --bots search --seed 7 >/dev/null
"$gen" simulate --games 30 --players 3 --bots best --seed 8 >/dev/null
"$gen" simulate --games 40 --players 2 --bots search,greedy --seed 9 >/dev/null
unset LLVM_PROFILE_FILE
"$profdata" merge -o "$work/orrery.profdata" "$raw"

# 3. The binary built with it.
RUSTFLAGS="-Cprofile-use=$(cd "$work" && pwd)/orrery.profdata" \
    cargo build --release -p orrery-tools --target-dir "${CARGO_TARGET_DIR:-target}/pgo"
echo "built ${CARGO_TARGET_DIR:-target}/pgo/release/orrery"
