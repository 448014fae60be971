#!/bin/sh
# Builds the seed corpora of the fuzz targets under fuzz/corpus/ (not committed) from the
# repository's recorded games, content and variants. Needs python3 and the `orrery` binary
# (ORRERY=path, default target/release/orrery) for the saved states.
set -eu
cd "$(dirname "$0")/.."
ORRERY=${ORRERY:-target/release/orrery}
python3 - <<'PY'
import glob, json, os
out = "fuzz/corpus"
for t in ["parse_line", "apply_lines", "load_state", "load_content", "load_overlay", "hook_returns"]:
    os.makedirs(f"{out}/{t}", exist_ok=True)
records = []
for folder in ["dev", "mixed", "rich"]:
    for p in sorted(glob.glob(f"tests/data/conformance/{folder}/*.json")):
        name = f"{folder}/{os.path.splitext(os.path.basename(p))[0]}"
        records.append((name, json.load(open(p))["moves"]))
lines = sorted({m for _, ms in records for m in ms})
for i, m in enumerate(lines):
    open(f"{out}/parse_line/{i:05}", "w").write(m)
n = 0
for name, moves in records:
    for at in range(0, len(moves) - 1, 23):
        nxt = moves[at + 1 : at + 4]
        body = [f"{name} {at}"] + nxt[:1] + ["!" + l for l in nxt[1:2]] + ["#0", "#3"] + nxt[2:]
        open(f"{out}/apply_lines/{n:05}", "w").write("\n".join(body) + "\n")
        n += 1
files = sorted(p[len("content/base/"):] for p in glob.glob("content/base/**/*", recursive=True)
               if os.path.isfile(p))
for i, f in enumerate(files):
    if i < 128:
        open(f"{out}/load_content/base-{i:03}", "wb").write(bytes([2 * i + 1]) + open(f"content/base/{f}", "rb").read())
for p in sorted(glob.glob("content/variants/*.yaml")):
    open(f"{out}/load_content/variant-{os.path.basename(p)}", "wb").write(b"\0" + open(p, "rb").read())
ex = "content/examples/cartographers"
open(f"{out}/load_content/example", "wb").write(
    b"\0" + open(f"{ex}/overlay.yaml", "rb").read() + b"\n#--- script\n" + open(f"{ex}/cartographers.rhai", "rb").read())
for p in sorted(glob.glob("content/variants/*.yaml")) + [f"{ex}/overlay.yaml"]:
    name = os.path.basename(os.path.dirname(p)) if p.startswith(ex) else os.path.basename(p)
    open(f"{out}/load_overlay/{name}", "wb").write(open(p, "rb").read())
returns = [
    [{"gain": {"c": 2}}], [{"gain": {"c": 8}}, {"gain": {"q": 1}}], {"gain": {"k": 3}},
    {"gain": {"c": -1000}}, {"gain": {"q": -1}}, {"gain": {"t": -1000, "pw": -1000}},
    {"gain": {"zz": 0}}, {"gain": {"c": 9223372036854775807}}, {"gain": {"vp": 2147483648}},
    {"gain": {"pw": 4, "t": 2, "gf": 1, "tg": 1}}, {"gain": {"c": 1.5}}, {"gain": {"c": "2"}},
    {"gain_per": {"per": "planet_types", "gain": {"k": 1}}},
    {"gain_per": {"per": {"buildings": ["m"]}, "gain": {"c": 100000}}},
    {"steps": 2}, {"range": 3}, {"research": "any"}, {"research": "lowest"},
    {"research": {"track": "nope"}}, "tech_tile", "rescore_federation", "track_token",
    {"federation_token": "x"}, {"place": {"building": "m", "verb": "x"}},
    {"downgrade": {"from": "PI", "to": "m"}}, {"swap": {"building": "PI", "with": "m", "verb": "x"}},
    {"script": {"script": "cartographers.rhai", "function": "chart"}},
    {"building": {"o": 1}}, {"building": {"o": -5}, "extra": 1}, {"o": 0, "c": 0},
    True, False, None, 0, -1, "", [], {}, [[{"gain": {"c": 1}}]],
]
for i, r in enumerate(returns):
    open(f"{out}/hook_returns/{i:03}", "w").write(json.dumps(r))
PY
for rec in tests/data/conformance/*/*-00[1-4].json; do
  for at in 0 5 30 90 160 400; do
    "$ORRERY" replay "$rec" --until "$at" --save-state "fuzz/corpus/load_state/$(basename "$rec" .json)-$at.json" >/dev/null 2>&1 || true
  done
done
for t in fuzz/corpus/*; do echo "$t: $(ls "$t" | wc -l) seeds"; done
