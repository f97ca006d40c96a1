"""Reads and writes src/engine/weights.rs, the evaluation's weight table."""
import re

HEADER = """//! The evaluation's weights, laid out by `eval::layout`. Fitted by
//! `scripts/tune/tune.py` to a stronger engine's scores of positions from its
//! own games (see scripts/tune/README.md); edit by hand only with care.

use super::eval::layout::LEN;

/// The weight table of [`super::eval::evaluate`].
#[rustfmt::skip]
pub const WEIGHTS: [i32; LEN] = [
"""


def write(path, groups, w, rows_of=None):
    out = [HEADER]
    for name, start, length in groups:
        out.append(f"    // {name}\n")
        width = 9 if length % 9 == 0 else (length if length <= 17 else 17)
        if name == "king_square":
            width = 5
        if name.endswith("_near"):
            width = 15
        vals = [int(round(x)) for x in w[start:start + length]]
        for i in range(0, length, width):
            out.append("    " + " ".join(f"{v}," for v in vals[i:i + width]) + "\n")
    out.append("];\n")
    with open(path, "w") as f:
        f.write("".join(out))


def read(path):
    text = open(path).read()
    body = text.split("= [", 1)[1].rsplit("];", 1)[0]
    body = re.sub(r"//[^\n]*", "", body)
    return [int(x) for x in body.replace("\n", " ").split(",") if x.strip()]
