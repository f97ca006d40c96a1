#!/usr/bin/env bash
# Regenerates fonts/NotoSerifCJKjp-Bold-subset.otf from Noto Serif CJK JP Bold.
#
# Needs fontTools (`pip install fonttools`) and the Debian package
# fonts-noto-cjk (or the NotoSerifCJK-Bold.ttc from googlefonts/noto-cjk; pass
# its path as the first argument). Index 0 of the collection is the JP face.
# The characters kept are listed in glyphs.txt (one or more per line); the
# renderer's tests fail if it can emit a character the subset lacks.
set -euo pipefail
cd "$(dirname "$0")"
src="${1:-/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc}"
pyftsubset "$src" \
    --font-number=0 \
    --text-file=glyphs.txt \
    --layout-features='' \
    --no-hinting \
    --desubroutinize \
    --name-IDs='*' \
    --drop-tables+=GSUB,GPOS,BASE,VORG,vhea,vmtx \
    --output-file=NotoSerifCJKjp-Bold-subset.otf
ls -l NotoSerifCJKjp-Bold-subset.otf
