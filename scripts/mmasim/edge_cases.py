"""Edge-heavy random mma inputs as raw bit patterns (numpy), and .mmav text.

Written apart from the C++ generator (sim/numerics/edge_inputs.cc) so that
the two do not share mistakes.  A batch is n cases of one kind:
A [n, M, K], B [n, K, N], C [n, M, N], each an unsigned integer array of
element bit patterns (tf32: full f32 patterns).

Kinds: uniform, bits, cancel, threshold, zeroterm, underflow, ties,
overflow, lowbits (docs/numerics.md says what each aims at).
"""
import numpy as np

# name: (exponent bits, fraction bits, bias, ignored low bits, nan_only, hex digits)
FORMATS = {
    "f16": (5, 10, 15, 0, False, 4),
    "bf16": (8, 7, 127, 0, False, 4),
    "tf32": (8, 10, 127, 13, False, 8),
    "f32": (8, 23, 127, 0, False, 8),
    "e4m3": (4, 3, 7, 0, True, 2),
    "e5m2": (5, 2, 15, 0, False, 2),
    "f64": (11, 52, 1023, 0, False, 16),
    # sm_120's fp6/fp4 in 8-bit containers (fp4 in bits 5:2), every encoding finite
    "e3m2": (3, 2, 3, 0, False, 2),
    "e2m3": (2, 3, 1, 0, False, 2),
    "e2m1": (2, 1, 1, 2, False, 2),
}
FINITE = {"e3m2", "e2m3", "e2m1"}
KINDS = ["uniform", "bits", "cancel", "threshold", "zeroterm", "underflow", "ties", "overflow", "lowbits"]


class Fmt:
    def __init__(self, name):
        self.name = name
        self.e, self.m, self.bias, self.low, self.nan_only, self.digits = FORMATS[name]
        self.emin = 1 - self.bias
        top = (1 << self.e) - 1
        self.finite = name in FINITE
        self.emax = (top if self.nan_only or self.finite else top - 1) - self.bias
        self.bits = 1 + self.e + self.m + self.low
        # the sign bit as an int64 (f64's 1 << 63 is no int64 as a Python int)
        self.sign = np.int64(-(1 << 63)) if self.bits == 64 else np.int64(1 << (self.bits - 1))

    def encode(self, rng, neg, exp, short=None, zero=None):
        """(-1)^neg * 1.frac * 2^exp, random fraction (two top bits only where
        `short`), clamped to the largest exponent, subnormal below the normal
        range (at least the least subnormal); +-0 where `zero`."""
        shape = exp.shape
        frac = rng.integers(0, 1 << self.m, size=shape, dtype=np.int64)
        if short is not None and self.m > 2:
            frac = np.where(short, frac & (3 << (self.m - 2)), frac)
        exp = np.minimum(exp, self.emax)
        normal = exp >= self.emin
        shift = np.clip(self.emin - exp, 0, 62)
        sub = np.maximum(((1 << self.m) | frac) >> shift, 1)
        sub = np.where(shift > self.m, 1, sub)
        man = np.where(normal, frac, sub)
        field = np.where(normal, exp + self.bias, 0)
        if self.nan_only:
            man = np.where((field == (1 << self.e) - 1) & (man == (1 << self.m) - 1), man - 1, man)
        if zero is not None:
            man = np.where(zero, 0, man)
            field = np.where(zero, 0, field)
        w = (neg.astype(np.int64) << (self.e + self.m)) | (field << self.m) | man
        return (w << self.low) | rng.integers(0, 1 << self.low, size=shape, dtype=np.int64)

    def random_bits(self, rng, shape):
        if self.bits == 64:
            return rng.integers(0, 1 << 64, size=shape, dtype=np.uint64).view(np.int64)
        return rng.integers(0, 1 << self.bits, size=shape, dtype=np.int64)

    def low_bits(self, rng, shape):
        """tf32: words whose ignored bits alone are set, or under zero, Inf, NaN
        exponents; other formats: least subnormals and moderate values."""
        neg = rng.integers(0, 2, size=shape)
        top = (1 << self.e) - 1
        pick = rng.integers(0, 6, size=shape)
        moderate = self.encode(rng, neg, rng.integers(-2, 3, size=shape))
        if self.low == 0 or self.bits != 32:
            tiny = (neg << (self.e + self.m)) | rng.integers(1, 1 << min(self.m, 3) + 1, size=shape)
            tiny = (tiny << self.low) | rng.integers(0, 1 << self.low, size=shape)
            return np.where(pick < 3, tiny, moderate)
        lowr = rng.integers(0, 1 << self.low, size=shape)
        sign = neg << 31
        choices = [
            sign | lowr,                                                   # zero with low bits
            sign | (top << 23) | lowr,                                     # Inf with low bits
            sign | (top << 23) | (1 << 22) | lowr,                         # NaN with low bits
            sign | (rng.integers(0, 1 << 10, size=shape) << 13) | lowr,    # subnormal
            sign | ((top - 1) << 23) | (((1 << 10) - 1) << 13) | lowr,     # largest finite
            moderate,
        ]
        return np.select([pick == i for i in range(6)], choices)


def batch(rng, kind, n, m, nn, k, fa, fb, fc, zero_terms=None):
    """One kind, n cases: (A, B, C) bit arrays.  zero_terms: the two
    zero-term exponents zeroterm aims at (default -21/-20 for an f16 C,
    -133/-132 else; Volta's m8n8k4 passes its own)."""
    A, B, C = (n, m, k), (n, k, nn), (n, m, nn)
    sgn = lambda s: rng.integers(0, 2, size=s)
    uni = lambda lo, hi, s: rng.integers(lo, hi + 1, size=s)
    pct = lambda p, s: rng.integers(0, 100, size=s) < p
    f16_out = fc.name == "f16"
    if kind == "bits":
        return fa.random_bits(rng, A), fb.random_bits(rng, B), fc.random_bits(rng, C)
    if kind in ("uniform", "cancel"):
        a = fa.encode(rng, sgn(A), uni(-3, 3, A), zero=pct(5, A))
        b = fb.encode(rng, sgn(B), uni(-3, 3, B), zero=pct(5, B))
        c = fc.encode(rng, sgn(C), uni(-3, 3, C))
        if kind == "cancel":
            h = k // 2
            a[:, :, h:2 * h] = a[:, :, :h] ^ fa.sign
            b[:, h:2 * h, :] = b[:, :h, :]
            flip = rng.integers(0, fa.m, size=(n, m))
            a[:, :, h] ^= (1 << (flip + fa.low))
        return a, b, c
    if kind == "threshold":
        big = rng.integers(0, k, size=(n, m, 1)) == np.arange(k)[None, None, :]
        ea = np.where(big, 1, 1 - uni(18, 30, A))
        a = fa.encode(rng, sgn(A), ea, zero=~big & pct(25, A))
        b = fb.encode(rng, sgn(B), uni(-1, 1, B), zero=pct(12, B))
        pick = uni(0, 2, C)
        c = fc.encode(rng, sgn(C), np.where(pick == 1, uni(0, 3, C), -uni(20, 30, C)), zero=pick == 0)
        return a, b, c
    if kind == "zeroterm":
        if zero_terms is None:
            zero_terms = (-21, -20) if f16_out else (-133, -132)
        z = np.where(uni(0, 1, (n, 1, 1)) == 0, zero_terms[0], zero_terms[1])
        center = z - uni(0, 12, (n, 1, 1))
        short = np.broadcast_to(uni(0, 1, (n, 1, 1)) == 0, A)
        def level(shape, half, shortm):
            p = uni(0, 99, shape)
            e = half + np.where(p < 85, 0, -13) + uni(-2, 2, shape)
            return e, p < 45, shortm
        ea, za, _ = level(A, center // 2, None)
        eb, zb, _ = level(B, center - center // 2, None)
        a = fa.encode(rng, sgn(A), ea, short=short, zero=za)
        b = fb.encode(rng, sgn(B), eb, short=np.broadcast_to(short[:, :1, :1], B), zero=zb)
        c = fc.encode(rng, sgn(C), np.broadcast_to(center, C) + uni(-3, 3, C), zero=~pct(25, C))
        return a, b, c
    if kind == "underflow":
        least = fc.emin - fc.m
        center = least - uni(-1, 12, (n, 1, 1))
        a = fa.encode(rng, sgn(A), center // 2 + uni(-2, 2, A), zero=pct(75, A))
        b = fb.encode(rng, sgn(B), center - center // 2 + uni(-2, 2, B), zero=pct(50, B))
        c = np.where(pct(12, C), (sgn(C) << (fc.bits - 1)) | 1, sgn(C) << (fc.bits - 1))
        return a, b, c
    if kind == "ties":
        ec = uni(-3, 3, (n, 1, 1))
        center = ec - fc.m - 1 + uni(-2, 1, (n, 1, 1))
        a = fa.encode(rng, sgn(A), np.broadcast_to(center // 2, A), short=np.ones(A, bool), zero=pct(75, A))
        b = fb.encode(rng, sgn(B), np.broadcast_to(center - center // 2, B), short=np.ones(B, bool))
        c = fc.encode(rng, sgn(C), np.broadcast_to(ec, C), zero=pct(12, C))
        return a, b, c
    if kind == "overflow":
        center = fc.emax - uni(0, 2, (n, 1, 1))
        a = fa.encode(rng, sgn(A), center // 2 + uni(-1, 1, A), zero=pct(50, A))
        b = fb.encode(rng, sgn(B), center - center // 2 + uni(-1, 1, B))
        c = fc.encode(rng, sgn(C), fc.emax - uni(0, 1, C), zero=pct(50, C))
        return a, b, c
    if kind == "lowbits":
        c = np.where(pct(25, C), fc.low_bits(rng, C), fc.encode(rng, sgn(C), uni(-2, 2, C)))
        return fa.low_bits(rng, A), fb.low_bits(rng, B), c
    raise ValueError(kind)


def hex_lines(words, digits):
    """[n, W] unsigned words -> n strings of W space-separated hex words."""
    n, w = words.shape
    raw = words.astype(np.uint64).astype(f">u{max(digits // 2, 1)}").tobytes().hex().encode()
    chars = np.frombuffer(raw, dtype="S1").reshape(n * w, digits)
    spaced = np.hstack([np.full((n * w, 1), b" "), chars]).reshape(n, w * (digits + 1))
    return [row.tobytes().decode() for row in spaced]


def mmav_text(ptx, kinds, a, b, c, d, digits, comments=(), first_id=0):
    """Cases as .mmav (format mmav-1); kinds[i] names case i's kind."""
    n = a.shape[0]
    da, db, dc, dd = digits
    la = hex_lines(a.reshape(n, -1), da)
    lb = hex_lines(b.reshape(n, -1), db)
    lc = hex_lines(c.reshape(n, -1), dc)
    ld = hex_lines(d.reshape(n, -1), dd)
    out = [f"# {line}\n" for line in comments] + [f"instr {ptx}\n"]
    for i in range(n):
        out.append(f"case {first_id + i} {kinds[i]}\nA{la[i]}\nB{lb[i]}\nC{lc[i]}\nD{ld[i]}\n")
    return "".join(out)
