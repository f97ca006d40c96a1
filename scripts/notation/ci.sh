#!/usr/bin/env bash
# Independent-parser check of komadai's record export: every real game in
# tests/data/kif is exported by komadai as KIF (UTF-8 .kifu and Shift-JIS .kif),
# KI2 (Shift-JIS, no origins) and CSA, cshogi (PyPI) reads the exports back, and the start position and USI
# move list must equal what komadai itself imports from the original file.
# Then cshogi's KI2 writer and komadai's Japanese notation are compared on every
# legal move of random positions and of the real games.
set -euo pipefail
cd "$(dirname "$0")/../.."

python3 -c "import cshogi" 2>/dev/null || python3 -m pip install --quiet cshogi
bin=$(scripts/komadai-bin.sh)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/expect.tsv"
n=0
for f in tests/data/kif/*.kif tests/data/kif/*.kifu tests/data/kif/*.csa; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    name=${name//./_}
    want=$("$bin" kif import "$f")
    for to in kifu kif ki2 csa; do
        out="$tmp/$name.$to"
        "$bin" kif export "$f" --to "$to" --out "$out"
        printf '%s\t%s\n' "$out" "$want" >> "$tmp/expect.tsv"
        n=$((n + 1))
    done
done
echo "== cshogi reads $n komadai exports"
python3 scripts/notation/check_kif_export.py --expect "$tmp/expect.tsv"

echo "== cshogi's KI2 writer vs komadai's Japanese notation"
python3 scripts/notation/check_ki2.py "$bin" tests/data/kif/*.csa
