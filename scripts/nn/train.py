#!/usr/bin/env python3
"""Fits the network of src/engine/nn.rs, a correction on top of the linear
evaluation, and writes it quantized as src/engine/nn.bin.

Input: records of `komadai net-rows` (fixed size, see engine::tune::
write_net_rows): score, linear evaluation, result and the lit inputs of both
perspectives. Model, as the engine computes it (float here, integers there):

    a_P = b1 + sum of W1 rows of P's lit inputs        (P = us, them)
    h_P = clip(a_P, 0, 1)
    y   = OUT * (w_us . h_us + w_them . h_them + b2)   (centipawns)
    p   = sigmoid((linear + y) / K)

fitted by Adam on the squared error against
lam * sigmoid(score / K) + (1 - lam) * result. The output weights start at
0, so training starts from the linear evaluation exactly; every row is also
used mirrored left to right (the rules are symmetric). With `--king R` the
network also sees every piece on the board within R files and ranks of a
king from that king (version 2 of nn.bin): those inputs are derived here
from the pieces' squares in the records, exactly as nn::Net::refresh lights
them. The last `--holdout`
of the rows (whole games, as the files are in game order) is held out; the
epoch with the lowest held-out loss of the *quantized* network is written.
`--init NN_BIN` starts from a network written before (same width; same
inputs, or version 1's for a fit with `--king`, whose king-relative inputs
then start at 0) instead of from the linear evaluation, and counts it as
epoch 0: at the same scale, a fine-tuning writes it back byte for byte
unless an epoch beats it on the held-out rows (`--epochs 0` rewrites it,
a check of the reading).

    python3 scripts/nn/train.py rows.bin --write src/engine/nn.bin
"""

import argparse
import struct
import sys

import numpy as np
import scipy.sparse as sp

ACTIVE = 40
BOARD = 2 * 14 * 81
FEATURES = BOARD + 2 * 38
ONE = 64  # the hidden scale of versions 1 and 2 (version 3 names its own)
MAX_OUTPUT = 10000  # nn::MAX_OUTPUT: the engine clamps the correction to it
OUT = 100.0  # output scale (centipawns) of the float model
K = 600.0
W1_CLIP = 4.0  # |W1| <= 4 keeps the i16 sums of 40 inputs far from overflow
KING = 7  # PieceKind::King.index()
W1_CLIP_KING = 3.5  # 118 lit inputs at most: |sum| <= 3.5 * 64 * 118 + |b1| < 32768


def king_features(radius):
    """Inputs for the pieces within `radius` of one king (nn::king_features)."""
    return 2 * 14 * (2 * radius + 1) ** 2


def features_king(radius):
    """Inputs of a version-2 network: version 1's, then from our king, then theirs."""
    return FEATURES + 2 * king_features(radius)

REC = np.dtype([
    ("score", "<i2"), ("lin", "<i2"), ("res", "u1"), ("pad", "u1"),
    ("us", "<u2", ACTIVE), ("them", "<u2", ACTIVE),
])


def mirror_table():
    """Input index -> the same input with the board mirrored left to right."""
    m = np.arange(FEATURES + 1)
    f = np.arange(BOARD)
    sq = f % 81
    file0, rank0 = sq // 9, sq % 9
    m[:BOARD] = f - sq + (8 - file0) * 9 + rank0
    return m


def sig(x):
    return 1.0 / (1.0 + np.exp(-x))


def with_kings(idx, radius):
    """A version-1 record's inputs (n x ACTIVE, padded with FEATURES) -> the
    inputs of a version-2 network of this radius (padded with its number of
    inputs): each input as is, then each piece on the board within `radius`
    files and ranks of the viewing side's king and of the other king, but
    the king itself, as seen from that king (nn::king_input)."""
    nf = features_king(radius)
    width = 2 * radius + 1
    board = idx < BOARD
    own = idx // (14 * 81)
    kind = (idx // 81) % 14
    sq = idx % 81
    f, r = sq // 9, sq % 9
    out = [np.where(idx >= FEATURES, nf, idx).astype(np.int32)]
    for block, owner in enumerate([0, 1]):
        k = np.where(board & (own == owner) & (kind == KING), sq, -1).max(axis=1)[:, None]
        df, dr = f - k // 9 + radius, r - k % 9 + radius
        near = (df >= 0) & (df < width) & (dr >= 0) & (dr < width)
        rel = FEATURES + block * king_features(radius) + ((own * 14 + kind) * width + df) * width + dr
        out.append(np.where(board & (k >= 0) & (sq != k) & near, rel, nf).astype(np.int32))
    return np.concatenate(out, axis=1)


def csr(idx, nf):
    n, width = idx.shape
    data = np.ones(idx.size, dtype=np.float32)
    indptr = np.arange(0, idx.size + 1, width)
    return sp.csr_matrix((data, idx.ravel().astype(np.int32), indptr),
                         shape=(n, nf + 1))


class Model:
    def __init__(self, hidden, rng, nf):
        self.nf = nf
        self.W1 = (rng.standard_normal((nf + 1, hidden)) * 0.05).astype(np.float32)
        self.W1[FEATURES:] *= 0.4  # the king-relative inputs: up to 78 more lit
        self.W1[nf] = 0
        self.b1 = np.full(hidden, 0.5, dtype=np.float32)
        self.w2 = np.zeros(2 * hidden, dtype=np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)

    def params(self):
        return [self.W1, self.b1, self.w2, self.b2]

    def forward(self, xu, xt):
        au = xu @ self.W1 + self.b1
        at = xt @ self.W1 + self.b1
        hu = np.clip(au, 0, 1)
        ht = np.clip(at, 0, 1)
        h = self.w2.shape[0] // 2
        y = OUT * (hu @ self.w2[:h] + ht @ self.w2[h:] + self.b2[0])
        return y, (au, at, hu, ht)

    def quantized(self, one):
        w1 = np.clip(np.round(self.W1[:self.nf] * one), -32767, 32767).astype(np.int16)
        b1 = np.clip(np.round(self.b1 * one), -32767, 32767).astype(np.int16)
        w2 = np.round(self.w2 * OUT * one).astype(np.int64)
        b2 = np.int32(np.round(self.b2[0] * OUT))
        return w1, b1, w2, b2, one


def quantized_forward(q, us, them):
    """Exactly the engine's integer arithmetic (nn::Net::output)."""
    w1, b1, w2, b2, one = q
    w1p = np.vstack([w1, np.zeros((1, w1.shape[1]), np.int16)]).astype(np.int32)
    h = w1.shape[1]
    out = []
    for i in range(0, len(us), 8192):
        au = w1p[us[i:i + 8192]].sum(axis=1) + b1
        at = w1p[them[i:i + 8192]].sum(axis=1) + b1
        # i16 wrapping never happens with the W1 clip (checked here)
        assert np.abs(au).max() < 32768 and np.abs(at).max() < 32768
        s = (np.clip(au, 0, one) @ w2[:h] + np.clip(at, 0, one) @ w2[h:])
        out.append(np.clip(b2 + np.floor_divide(s, one * one), -MAX_OUTPUT, MAX_OUTPUT))
    return np.concatenate(out)


def write_net(path, q):
    """Versions 1 (FEATURES inputs) and 2 (king-relative) at scale ONE; any
    other scale is version 3, whose header names it after the width."""
    w1, b1, w2, b2, one = q
    assert np.abs(w2).max() < 2 ** 31
    with open(path, "wb") as f:
        f.write(b"KMDN")
        if one == ONE:
            version = 1 if w1.shape[0] == FEATURES else 2
            f.write(struct.pack("<III", version, w1.shape[0], w1.shape[1]))
        else:
            f.write(struct.pack("<IIII", 3, w1.shape[0], w1.shape[1], one))
        f.write(w1.astype("<i2").tobytes())
        f.write(b1.astype("<i2").tobytes())
        f.write(w2.astype("<i4").tobytes())
        f.write(struct.pack("<i", int(b2)))


def read_net(path):
    """A file of write_net -> (w1 [inputs x hidden] i16, b1, w2, b2, one)."""
    raw = open(path, "rb").read()
    if raw[:4] != b"KMDN":
        raise SystemExit(f"{path}: not a network file (no KMDN)")
    version, nin, hidden = struct.unpack_from("<III", raw, 4)
    at, one = 16, ONE
    if version == 3:
        (one,) = struct.unpack_from("<I", raw, 16)
        at = 20
    elif version not in (1, 2):
        raise SystemExit(f"{path}: version {version} is not one this script writes")
    w1 = np.frombuffer(raw, "<i2", nin * hidden, at).reshape(nin, hidden)
    at += 2 * nin * hidden
    b1 = np.frombuffer(raw, "<i2", hidden, at)
    at += 2 * hidden
    w2 = np.frombuffer(raw, "<i4", 2 * hidden, at)
    at += 8 * hidden
    (b2,) = struct.unpack_from("<i", raw, at)
    if at + 4 != len(raw):
        raise SystemExit(f"{path}: {len(raw) - at - 4} bytes after the network")
    return w1, b1, w2, b2, one


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", nargs="+", help="files of komadai net-rows records")
    ap.add_argument("--write", help="write the best network here (nn.bin)")
    ap.add_argument("--hidden", type=int, default=32,
                    help="hidden units (the engine reads 1 to nn::HIDDEN, 32; fewer are padded with zeros)")
    ap.add_argument("--scale", type=int, default=ONE,
                    help="the hidden layer's integer scale (version 3 of nn.bin "
                         f"unless {ONE})")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lam", type=float, default=0.9,
                    help="weight of the search score against the game's result")
    ap.add_argument("--reg", type=float, default=1e-5, help="L2 pull of W1 towards 0")
    ap.add_argument("--holdout", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-mirror", action="store_true")
    ap.add_argument("--king", type=int, default=0, metavar="R",
                    help="also see the pieces within R (1 to 8) files and ranks of each king "
                         "from it (version 2 of nn.bin); 0: not (version 1)")
    ap.add_argument("--init", metavar="NN_BIN",
                    help="start from this network (a file of --write, same width; same inputs, "
                         "or version 1's for a --king fit) instead of from the linear "
                         "evaluation: fine-tuning on new rows")
    ap.add_argument("--check", action="append", default=[],
                    help="records labelled by another engine (data/tune/ through net-rows): "
                         "report how well the linear evaluation alone and with the network "
                         "agree with them")
    ap.add_argument("--check-alpha", type=float, default=0.45,
                    help="the other engine's centipawns against ours (gpsshogi: 0.45)")
    args = ap.parse_args()

    recs = np.concatenate([np.fromfile(p, dtype=REC) for p in args.rows])
    n = len(recs)
    cut = int(n * (1 - args.holdout))
    print(f"{n} rows, {cut} for fitting, {n - cut} held out", file=sys.stderr)
    us = recs["us"].astype(np.int64)
    them = recs["them"].astype(np.int64)
    score = recs["score"].astype(np.float32)
    lin = recs["lin"].astype(np.float32)
    res = recs["res"].astype(np.float32) / 2
    target = args.lam * sig(score / K) + (1 - args.lam) * res

    if not 0 <= args.king <= 8:
        ap.error("--king takes a radius from 1 to 8 (0: none)")
    nf = features_king(args.king) if args.king else FEATURES
    lift = (lambda idx: with_kings(idx, args.king)) if args.king else (lambda idx: idx)
    tr_us, tr_them, tr_lin, tr_t = us[:cut], them[:cut], lin[:cut], target[:cut]
    if not args.no_mirror:
        m = mirror_table()
        tr_us = np.concatenate([tr_us, m[tr_us]])
        tr_them = np.concatenate([tr_them, m[tr_them]])
        tr_lin = np.concatenate([tr_lin, tr_lin])
        tr_t = np.concatenate([tr_t, tr_t])
    xu_all, xt_all = csr(lift(tr_us), nf), csr(lift(tr_them), nf)
    del tr_us, tr_them
    ho = slice(cut, n)
    ho_us, ho_them = lift(us[ho]), lift(them[ho])
    ho_lin, ho_t = lin[ho], target[ho]

    def ho_loss_float(model):
        y, _ = model.forward(csr(ho_us, nf), csr(ho_them, nf))
        return float(np.mean((sig((ho_lin + y) / K) - ho_t) ** 2))

    def ho_loss_quant(q):
        y = quantized_forward(q, ho_us, ho_them).astype(np.float32)
        return float(np.mean((sig((ho_lin + y) / K) - ho_t) ** 2))

    base = float(np.mean((sig(ho_lin / K) - ho_t) ** 2))
    print(f"held-out loss of the linear evaluation alone: {base:.6f}", file=sys.stderr)

    rng = np.random.default_rng(args.seed)
    model = Model(args.hidden, rng, nf)
    if args.init:
        w1, b1, w2, b2, one = read_net(args.init)
        if w1.shape[1] != args.hidden or w1.shape[0] not in (FEATURES, nf):
            ap.error(f"--init {args.init}: {w1.shape[0]} inputs x {w1.shape[1]} hidden, "
                     f"this fit has {nf} x {args.hidden}")
        # a version-1 network starts a version-2 fit with its king-relative
        # inputs at 0: the same outputs until the fit moves them
        model.W1[:nf] = 0
        model.W1[:w1.shape[0]] = w1 / one
        model.b1[:] = b1 / one
        model.w2[:] = w2 / (OUT * one)
        model.b2[0] = b2 / OUT
    # |W1| and |b1| bounded so that the i16 sums of the most lit inputs
    # cannot overflow at this scale (never binding at ONE: F5's bytes)
    most_lit = ACTIVE + 2 * (ACTIVE - 1) if args.king else ACTIVE
    w1_clip = min(W1_CLIP_KING if args.king else W1_CLIP,
                  0.88 * 32767 / (args.scale * most_lit))
    b1_clip = 0.1 * 32767 / args.scale
    params = model.params()
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    b1c, b2c, eps = 0.9, 0.999, 1e-8
    step = 0
    best = (base, None, 0)
    if args.init:
        q = model.quantized(args.scale)
        lq = ho_loss_quant(q)
        print(f"epoch 0 ({args.init}): quantized {lq:.6f}", file=sys.stderr)
        if lq < best[0]:
            best = (lq, q, 0)
    ntr = xu_all.shape[0]
    h = args.hidden
    for epoch in range(1, args.epochs + 1):
        perm = rng.permutation(ntr)
        total = 0.0
        for s in range(0, ntr, args.batch):
            idx = perm[s:s + args.batch]
            xu, xt = xu_all[idx], xt_all[idx]
            y, (au, at, hu, ht) = model.forward(xu, xt)
            p = sig((tr_lin[idx] + y) / K)
            diff = p - tr_t[idx]
            total += float(np.sum(diff ** 2))
            g = (2 * diff * p * (1 - p) / K / len(idx)).astype(np.float32)  # d loss / d y
            gy = OUT * g
            gw2 = np.concatenate([hu.T @ gy, ht.T @ gy])
            gb2 = np.array([gy.sum()], dtype=np.float32)
            du = np.outer(gy, model.w2[:h]) * ((au > 0) & (au < 1))
            dt = np.outer(gy, model.w2[h:]) * ((at > 0) & (at < 1))
            gW1 = np.asarray(xu.T @ du + xt.T @ dt, dtype=np.float32) + args.reg * model.W1
            gb1 = (du.sum(axis=0) + dt.sum(axis=0)).astype(np.float32)
            step += 1
            for i, (prm, gr) in enumerate(zip(params, [gW1, gb1, gw2, gb2])):
                m1[i] = b1c * m1[i] + (1 - b1c) * gr
                m2[i] = b2c * m2[i] + (1 - b2c) * gr * gr
                mh = m1[i] / (1 - b1c ** step)
                vh = m2[i] / (1 - b2c ** step)
                prm -= (args.lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
            np.clip(model.W1, -w1_clip, w1_clip, out=model.W1)
            np.clip(model.b1, -b1_clip, b1_clip, out=model.b1)
            model.W1[nf] = 0
        q = model.quantized(args.scale)
        lq = ho_loss_quant(q)
        print(f"epoch {epoch}: fit {total / ntr:.6f}  held out {ho_loss_float(model):.6f}"
              f"  quantized {lq:.6f}", file=sys.stderr)
        if lq < best[0]:
            best = (lq, q, epoch)
    print(f"best: epoch {best[2]}, held-out loss {best[0]:.6f} (linear alone {base:.6f})",
          file=sys.stderr)
    for path in args.check:
        c = np.fromfile(path, dtype=REC)
        t = sig(args.check_alpha * c["score"].astype(np.float32) / K)
        r = c["res"].astype(np.float32) / 2
        clin = c["lin"].astype(np.float32)
        rows = [("linear alone", clin)]
        if best[1] is not None:
            y = quantized_forward(best[1], lift(c["us"].astype(np.int64)),
                                  lift(c["them"].astype(np.int64)))
            rows.append(("with the network", clin + y.astype(np.float32)))
        for name, e in rows:
            p = sig(e / K)
            print(f"check {path}: {name}: loss against its scores {np.mean((p - t) ** 2):.6f}, "
                  f"against results {np.mean((p - r) ** 2):.6f} ({len(c)} rows)", file=sys.stderr)
    if args.write:
        if best[1] is None:
            print("no epoch beat the linear evaluation; nothing written", file=sys.stderr)
            return 1
        write_net(args.write, best[1])
        print(f"wrote {args.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
