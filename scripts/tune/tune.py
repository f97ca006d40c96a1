#!/usr/bin/env python3
"""Fits the evaluation's weight table to a stronger engine's scores (Fairy-Stockfish, gpsshogi).

    komadai tune-features < positions.tsv > rows.txt
    python3 scripts/tune/tune.py rows.txt [--write src/engine/weights.rs]

Model: the win probability sigmoid(eval / K) against the target
    lam * sigmoid(alpha * fsf_cp / K) + (1 - lam) * game_result,
mean squared error, plus an L2 pull towards the current table so that rare
features keep their hand-set values. alpha (Fairy-Stockfish's centipawn
scale against ours) is fitted first with the current table and then held,
so the fitted table keeps the current scale (a pawn stays near 100, which
the search's margins assume). Reports the loss on a held-out tenth.

--constraints takes feature rows of position pairs (first better than
second by at least --margin, as in scripts/tune/constraints.tsv: a piece
in hand against the same piece on 5e, SPEC §4) and adds a squared hinge
penalty for each pair the table gets wrong, so the fit keeps them.
"""
import argparse
import os
import sys

import numpy as np
from scipy import sparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import weights as wfile  # noqa: E402

K = 600.0


def load(path):
    groups = None
    scores, results, rows, cols, vals = [], [], [], [], []
    with open(path) as f:
        for line in f:
            if line.startswith("# layout"):
                groups = []
                for t in line.split()[2:]:
                    name, start, length = t.split(":")
                    groups.append((name, int(start), int(length)))
                continue
            s, r, feats = line.rstrip("\n").split("\t")
            i = len(scores)
            scores.append(float(s))
            results.append(float(r))
            for t in feats.split():
                j, n = t.split(":")
                rows.append(i)
                cols.append(int(j))
                vals.append(float(n))
    n = len(scores)
    dim = groups[-1][1] + groups[-1][2]
    # Sparse: a row has a few hundred non-zero counts among thousands of
    # weights (the king-relative tables alone are 4,284).
    x = sparse.csr_matrix((np.array(vals), (np.array(rows), np.array(cols))), shape=(n, dim))
    return groups, x, np.array(scores), np.array(results)


def spans(groups, names):
    """The index ranges of the named groups (a comma-separated list)."""
    wanted = set(filter(None, names.split(",")))
    return [slice(start, start + length) for g, start, length in groups if g in wanted]


def sig(v):
    return 1.0 / (1.0 + np.exp(-v))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("--weights", default="src/engine/weights.rs")
    ap.add_argument("--write", help="write the fitted table here")
    ap.add_argument("--lam", type=float, default=0.75)
    ap.add_argument("--alpha", type=float,
                    help="Fairy-Stockfish's scale against ours, instead of fitting it")
    ap.add_argument("--reg", type=float, default=1e-9)
    ap.add_argument("--group-reg", default="",
                    help="name=reg,... : another pull towards the current table for these groups")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--holdout", choices=["random", "tail"], default="random",
                    help="hold out a random tenth of the rows, or the last tenth "
                         "(rows in game order: whole games are held out, so "
                         "positions of one game never sit on both sides)")
    ap.add_argument("--constraints", help="feature rows of pairs: first > second")
    ap.add_argument("--margin", type=float, default=10.0)
    ap.add_argument("--freeze", default="tempo",
                    help="comma-separated groups kept as they are")
    ap.add_argument("--zero", default="",
                    help="comma-separated groups set to 0 before the fit (a fit from scratch)")
    ap.add_argument("--only", default="",
                    help="comma-separated groups to fit; all others are kept as they are")
    args = ap.parse_args()

    groups, x, fsf, result = load(args.rows)
    w0 = np.array(wfile.read(args.weights), dtype=np.float64)
    assert len(w0) == x.shape[1], (len(w0), x.shape)
    for span in spans(groups, args.zero):
        w0[span] = 0
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(fsf)) if args.holdout == "random" else np.arange(len(fsf))[::-1]
    cut = len(fsf) // 10
    test, train = order[:cut], order[cut:]

    e0 = x @ w0
    best = None
    for alpha in np.linspace(0.3, 4.0, 75):
        t = args.lam * sig(alpha * fsf / K) + (1 - args.lam) * result
        loss = np.mean((sig(e0[train] / K) - t[train]) ** 2)
        if best is None or loss < best[0]:
            best = (loss, alpha)
    alpha = best[1] if args.alpha is None else args.alpha
    target = args.lam * sig(alpha * fsf / K) + (1 - args.lam) * result
    print(f"{len(fsf)} rows, {x.shape[1]} weights; alpha {alpha:.3f}")

    frozen = np.zeros(len(w0), dtype=bool)
    frozen[7] = True  # the king's material entry
    for span in spans(groups, args.freeze):
        frozen[span] = True
    if args.only:
        kept = frozen.copy()
        frozen[:] = True
        for span in spans(groups, args.only):
            frozen[span] = kept[span]
    used = np.asarray(abs(x[train]).sum(axis=0)).ravel() > 0
    reg = np.full(len(w0), args.reg)
    for item in filter(None, args.group_reg.split(",")):
        name, value = item.split("=")
        for span in spans(groups, name):
            reg[span] = float(value)
    free = ~frozen & used

    def loss_of(w, idx):
        return np.mean((sig(x[idx] @ w / K) - target[idx]) ** 2)

    print(f"before: train {loss_of(w0, train):.6f} test {loss_of(w0, test):.6f}")
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    xt, tt = x[train], target[train]
    if args.constraints:
        _, cx, _, _ = load(args.constraints)
        cx = cx.toarray()
        diff = cx[0::2] - cx[1::2]
    else:
        diff = np.zeros((0, len(w0)))

    def violations(w):
        return [round(v) for v in diff @ w if v < args.margin]
    for step in range(1, args.steps + 1):
        p = sig(xt @ w / K)
        g = xt.T @ ((p - tt) * p * (1 - p)) * (2 / (K * len(tt)))
        g += 2 * reg * (w - w0)
        short = np.maximum(0.0, args.margin - diff @ w)
        g -= 1e-5 * diff.T @ short
        g[~free] = 0
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= args.lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-12)
        if step % 500 == 0:
            print(f"step {step}: train {loss_of(w, train):.6f} test {loss_of(w, test):.6f}")
    w = np.round(w)
    print(f"after (rounded): train {loss_of(w, train):.6f} test {loss_of(w, test):.6f}")
    print(f"constraint pairs short of the margin: {violations(w)}")
    for name, start, length in groups:
        if name in ("piece", "hand", "hand_more", "pawn_glut", "tempo"):
            print(name, [int(a) for a in w[start:start + length]])
    if args.write:
        wfile.write(args.write, groups, w)
        print("wrote", args.write)


if __name__ == "__main__":
    main()
