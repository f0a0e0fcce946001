#!/bin/bash
# The corpus programs not yet timed against their twins with torch.compile compiled for each shape (those with
# no record at size set SET in peer-merge.py's PER_SHAPE files), as many as LIMIT_S (500) seconds allow, saved
# after each program: on a GPU host after `source .gpu/bootstrap`, from the repository's root,
#   OUT=DIR SET=large bash experiments/verify/peer-rest.sh
# then add DIR/peer-rest-SET.json to PER_SHAPE and run `peer-merge.py --per-shape OUT.json`. SET may name
# several size sets (SET=small,medium): the programs lacking a record at any of them, timed at all of them.
set -u
set_name=${SET:-large}
rest=$(python3 - "$set_name" <<'PY'
import ast, json, sys
from pathlib import Path
text = Path("experiments/verify/peer-merge.py").read_text()
start = text.index("PER_SHAPE = [")
files = ast.literal_eval(text[start + len("PER_SHAPE = "):text.index("]", start) + 1])
wanted = set(sys.argv[1].split(","))
done = {}
for f in files:
    d = json.loads(Path(f).read_text())
    for r in (d["records"] if isinstance(d, dict) else d):
        done.setdefault(r["program"], set()).add(r.get("size_set"))
print(" ".join(p.stem for p in sorted(Path("corpus").glob("*.fut"))
               if p.with_suffix(".toml").is_file() and not wanted <= done.get(p.stem, set())))
PY
)
echo "$(echo $rest | wc -w) programs left at $set_name"
OUT=${OUT:-peer-rest} PROGRAMS="$rest" SETS=$set_name LIMIT_S=${LIMIT_S:-500} TAG=rest-$(echo $set_name | tr , -) \
  bash experiments/verify/peer-corpus.sh
