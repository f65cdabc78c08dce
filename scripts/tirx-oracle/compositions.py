"""Composition variants of released-TIRx warp gemm programs, for a whole-program
check: each variant keeps the pieces of a base program (the register images,
the staging loops, T.cuda.tile.apply, the D store) and changes how they are
composed (statement order, which tensor or register view a loop reads or
writes, staging indices, repeated or overwritten pieces).

Bases: examples/tirx_seed_corrected.py (one m16n8k16, C = 0),
examples/tirx_c_tensor.py (the same with a C tensor), examples/tirx_tiled_2x2x2.py
(2 x 2 x 2 tiles) and a square base derived from the tiled one here
(M = N = K = 16, two N tiles: ok_square).  Every variant is source text made
from its base by small textual edits (see variants()); for each, this writes
into the output folder

    NAME.py          the program as written (header comments first: what it
                     is, why its verdict holds, "# Expected verdict: ...",
                     "# Class: ...");
    NAME.print.py    TVM's mod.script() of it (the module as gen.py builds it,
                     tvm.IRModule.from_expr(main), no target bound), the same
                     header prepended;
    NAME.lowered.py  the module after TileDispatch under the target
                     {"kind": "cuda", "arch": "sm_90"}, exactly as gen.py
                     lowers it, the same header prepended;
    expected.jsonl   one object per variant: name, base, class, expect,
                     tvm_accepted, tvm_message (when TVM refused), selfcheck
                     (this script's own verdict), files, command.

When TVM refuses a variant, only NAME.py is kept and the refusal is recorded.

Before TVM runs, every program is checked by a small interpreter here
(interpret()): it executes the program's statements in order for the 32
lanes of the warp on symbolic values (each element of a global tensor is its
own symbol, an unwritten register is a symbol of its own), places register
slots by the images' layouts (S[...], tile_to, pack, evaluated here, not by
TVM), executes T.cuda.tile.apply as the PTX mma.m16n8k16 does on the
registers (the A, B and C/D fragments of the PTX ISA: A element i of lane l
is row g + 8*((i>>1)&1), col 2t + (i&1) + 8*(i>>2); B (K x N) element i is
row 2t + (i&1) + 8*(i>>1), col g; C/D element i is row g + 8*(i>>1), col
2t + (i&1); g = l // 4, t = l % 4), one mma per (m, n, k) tile with the first
K step reading C, and compares the final D with sum_k A[i][k] * B[j][k]
(+ C[i][j]) as multisets of products.  The script stops when that verdict
is not the one a variant's header claims.  Made by (outside the build; CI
installs no TVM):

    /work/venv-tvm/bin/python scripts/tirx-oracle/compositions.py --out tests/data/program/tirx

(--selfcheck-only runs the interpreter alone and needs no TVM.)
"""

import argparse
import ast
import collections
import glob
import json
import os
import re
import runpy
import sys

TARGET = {"kind": "cuda", "arch": "sm_90"}
BASES = {
    "seed": "examples/tirx_seed_corrected.py",
    "c_tensor": "examples/tirx_c_tensor.py",
    "tiled": "examples/tirx_tiled_2x2x2.py",
}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------------------
# Textual edits


def body_of(path):
    """A base program's source without its leading comment header."""
    lines = open(os.path.join(ROOT, path)).read().splitlines()
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "\n".join(lines) + "\n"


def rep(text, old, new, count=1):
    """Replace old by new; old must occur exactly count times."""
    n = text.count(old)
    if n != count:
        raise ValueError(f"edit expects {count} of {old!r}, found {n}")
    return text.replace(old, new)


def rename(text, old, new):
    """Replace the identifier old (whole word) by new; it must occur."""
    pat = r"(?<![\w.])" + re.escape(old) + r"(?!\w)"
    if not re.search(pat, text):
        raise ValueError(f"rename: {old!r} does not occur")
    return re.sub(pat, new, text)


def _block(lines, key):
    """(start, end) of the statement containing key: a `for` line with its
    indented body when key is inside a loop body, else the line itself."""
    hits = [i for i, l in enumerate(lines) if key in l]
    if len(hits) != 1:
        raise ValueError(f"block key {key!r} matches {len(hits)} lines")
    i = hits[0]
    ind = len(lines[i]) - len(lines[i].lstrip())
    start = i
    if i > 0 and lines[i - 1].lstrip().startswith("for ") and len(lines[i - 1]) - len(lines[i - 1].lstrip()) < ind:
        start = i - 1
    sind = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and lines[end].strip() and len(lines[end]) - len(lines[end].lstrip()) > sind:
        end += 1
    return start, end


def get_block(text, key):
    lines = text.splitlines()
    s, e = _block(lines, key)
    return "\n".join(lines[s:e])


def move(text, key, before=None, after=None):
    """Move the statement holding key before (after) the one holding another key."""
    lines = text.splitlines()
    s, e = _block(lines, key)
    blk = lines[s:e]
    del lines[s:e]
    s2, e2 = _block(lines, before or after)
    at = s2 if before else e2
    lines[at:at] = blk
    return "\n".join(lines) + "\n"


def insert(text, block, before=None, after=None):
    """Insert block (text lines) before (after) the statement holding a key."""
    lines = text.splitlines()
    s, e = _block(lines, before or after)
    at = s if before else e
    lines[at:at] = block.splitlines()
    return "\n".join(lines) + "\n"


def square_base():
    """M = N = K = 16, two N tiles, from examples/tirx_tiled_2x2x2.py: the
    repeat axes of extent 1 (M and K) dropped from the layouts, images D
    (1, 2, 16, 8), A (1, 1, 16, 8) words, B (2, 1, 8, 8) words; B given N x K
    as B[16, 16].  Registers: A word = rM + 2*kHi, B word = 2*n + kHi,
    D = 4*n + 2*rM + rN."""
    t = body_of(BASES["tiled"])
    t = rep(t, "S[(2, 2, 2, 8, 2, 4) : (8, 4, 1, 4 @ laneid, 2, 1 @ laneid)]", "S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)]")
    t = rep(t, "S[(2, 2, 8, 2, 4) : (4, 2, 4 @ laneid, 1, 1 @ laneid)]", "S[(2, 8, 2, 4) : (2, 4 @ laneid, 1, 1 @ laneid)]")
    t = rep(t, "S[(2, 2, 2, 8, 4, 2) : (8, 4, 2, 4 @ laneid, 1 @ laneid, 1)]", "S[(2, 2, 8, 4, 2) : (4, 2, 4 @ laneid, 1 @ laneid, 1)]")
    t = rep(t, 'A: T.Tensor((32, 32), "float16"), B: T.Tensor((16, 32), "float16"), D: T.Tensor((32, 16), "float32")',
            'A: T.Tensor((16, 16), "float16"), B: T.Tensor((16, 16), "float16"), D: T.Tensor((16, 16), "float32")')
    t = rep(t, 'a = T.alloc_local((2, 2, 16, 8)', 'a = T.alloc_local((1, 1, 16, 8)')
    t = rep(t, 'b = T.alloc_local((2, 2, 8, 8)', 'b = T.alloc_local((2, 1, 8, 8)')
    t = rep(t, 'd = T.alloc_local((2, 2, 16, 8)', 'd = T.alloc_local((1, 2, 16, 8)')
    t = rep(t, 'T.Tensor((32,), "float16", scope="local", layout=TileLayout(S[32:1]))',
            'T.Tensor((8,), "float16", scope="local", layout=TileLayout(S[8:1]))')
    t = rep(t, 'T.Tensor((16,), "float16", scope="local", layout=TileLayout(S[16:1]))',
            'T.Tensor((8,), "float16", scope="local", layout=TileLayout(S[8:1]))')
    t = rep(t, 'T.Tensor((16,), "float32", scope="local", layout=TileLayout(S[16:1]))',
            'T.Tensor((8,), "float32", scope="local", layout=TileLayout(S[8:1]))')
    t = rep(t, "for s in T.unroll(32):", "for s in T.unroll(8):")
    t = rep(t, "for s in T.unroll(16):", "for s in T.unroll(8):", count=2)
    t = rep(t, "A[16 * (s // 16) + lane // 4 + 8 * (s // 2 % 2), 16 * (s // 8 % 2) + 2 * (lane % 4) + s % 2 + 8 * (s // 4 % 2)]",
            "A[lane // 4 + 8 * (s // 2 % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]")
    t = rep(t, "B[8 * (s // 8) + lane // 4, 16 * (s // 4 % 2) + 2 * (lane % 4) + s % 2 + 8 * (s // 2 % 2)]",
            "B[8 * (s // 4) + lane // 4, 2 * (lane % 4) + s % 2 + 8 * (s // 2 % 2)]")
    t = rep(t, "D[16 * (s // 8) + lane // 4 + 8 * (s // 2 % 2), 8 * (s // 4 % 2) + 2 * (lane % 4) + s % 2]",
            "D[lane // 4 + 8 * (s // 2 % 2), 8 * (s // 4) + 2 * (lane % 4) + s % 2]")
    return t


# ---------------------------------------------------------------------------
# The variants


def variants():
    """(name, base, class, expect, what, why, source) for every variant."""
    seed, ct, tiled = (body_of(BASES[k]) for k in ("seed", "c_tensor", "tiled"))
    sq = square_base()
    out = []

    def add(name, base, cls, expect, what, why, src):
        out.append(dict(name=name, base=base, cls=cls, expect=expect, what=what, why=why, src=src))

    APPLY = "T.cuda.tile.apply("
    # seed_corrected and c_tensor share these lines
    A_STAGE = "a_h[s] = A[lane // 4 + 8 * (s // 2 % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]"
    A_DUP = "a_h[s] = A[lane // 4, 2 * (lane % 4) + s % 2 + 8 * (s // 4)]"
    STORE = "D[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]"
    S_SEED, S_CT, S_TILED = BASES["seed"], BASES["c_tensor"], BASES["tiled"]

    # --- the bases as they are (and the square one)
    add("ok_c_tensor", S_CT, "base", "proved", "examples/tirx_c_tensor.py as is: D = A @ B + C, one m16n8k16.",
        "The released example; A, B and C staged in TVM's register order before the apply, D stored after it.", ct)
    add("ok_square", S_TILED, "base", "proved",
        "M = N = K = 16 with two N tiles (D image (1, 2, 16, 8), A (1, 1, 16, 8) words, B (2, 1, 8, 8) words, "
        "B given N x K as B[16, 16]), its layouts those of tirx_tiled_2x2x2.py without the M and K repeat axes.",
        "Each N tile's B word = 2*n + kHi, D register = 4*n + 2*rM + rN as the layouts place them; one K step per "
        "(m, n) reads C = 0.", sq)

    # --- statement order
    add("bad_store_before_mma", S_SEED, "order", "refuted", "seed_corrected with the D store loop moved before T.cuda.tile.apply.",
        "The store copies d's registers before the mma writes them: D gets unwritten registers.",
        move(seed, STORE, before=APPLY))
    add("bad_store_before_mma_c", S_CT, "order", "refuted", "c_tensor with the D store loop moved before T.cuda.tile.apply.",
        "The store copies d's registers before the mma writes them: D gets unwritten registers, not A @ B + C.",
        move(ct, STORE, before=APPLY))
    add("bad_stage_a_after_mma", S_SEED, "order", "refuted", "seed_corrected with A's staging loop moved after the apply.",
        "The mma reads A's registers before they are staged: D is a product of unwritten registers and B.",
        move(seed, "a_h[s] = A[", after=APPLY))
    add("bad_stage_b_after_mma", S_SEED, "order", "refuted", "seed_corrected with B's staging loop moved after the apply.",
        "The mma reads B's registers before they are staged.", move(seed, "b_h[s] = B[", after=APPLY))
    add("bad_stage_c_after_mma", S_CT, "order", "refuted", "c_tensor with C's staging loop moved after the apply.",
        "The mma's accumulator input is c's registers before they hold C: D = A @ B + (unwritten).",
        move(ct, "c_r[s] = C[", after=APPLY))
    add("ok_c_staged_first", S_CT, "order", "proved", "c_tensor with C's staging loop moved before A's and B's.",
        "The three staging loops write disjoint register images, so their order does not matter; all precede the apply.",
        move(ct, "c_r[s] = C[", before="a_h[s] = A["))
    add("ok_a_split_around_b", S_SEED, "order", "proved",
        "seed_corrected with A's staging split in two loops, T.unroll(4) (slots 0-3) and T.unroll(4, 8) (slots 4-7), "
        "B's staging between them.",
        "The two halves write every A slot once with the same index expressions as the base; B's loop touches other registers.",
        move(insert(rep(seed, "for s in T.unroll(8):", "for s in T.unroll(4):"),
                    "        for s in T.unroll(4, 8):\n            " + A_STAGE, after="b_h[s] = B["),
             "b_h[s] = B[", before="for s in T.unroll(4, 8):"))
    add("ok_restaged_after_mma", S_SEED, "order", "proved", "seed_corrected with A's staging loop repeated after the apply.",
        "The second staging writes A's registers after the only mma that reads them; D is unaffected.",
        insert(seed, "        for s in T.unroll(8):\n            " + A_STAGE, after=APPLY))

    # --- the tensor a loop reads or writes
    add("bad_b_from_a", "ok_square", "wrong_tensor", "refuted", "ok_square with B's registers staged from tensor A (same indices).",
        "D[i][j] = sum_k A[i][k] * A[j][k] (A @ A^T), not sum_k A[i][k] * B[j][k].",
        rep(sq, "b_h[s] = B[", "b_h[s] = A["))
    add("bad_store_into_c", S_CT, "wrong_tensor", "refuted", "c_tensor with d's registers stored into tensor C instead of D.",
        "D is never written (and C is overwritten with A @ B + C).", rep(ct, STORE, STORE.replace("D[", "C[")))
    add("bad_c_from_d", S_CT, "wrong_tensor", "refuted", "c_tensor with C's registers staged from tensor D instead of C.",
        "The accumulator input is D's unwritten initial contents: D = A @ B + D_initial, not A @ B + C.",
        rep(ct, "c_r[s] = C[", "c_r[s] = D["))

    # --- the register view a loop reads or writes
    add("bad_store_reads_c", S_CT, "wrong_register", "refuted", "c_tensor with the store loop reading c_r[s] instead of d_r[s].",
        "c's registers still hold C after the apply: D = C.", rep(ct, "= d_r[s]", "= c_r[s]"))
    add("bad_d_view_over_c", S_CT, "wrong_register", "refuted", "c_tensor with d_r declared over c.data instead of d.data.",
        "The store reads through d_r, i.e. c's registers, which hold C: D = C.",
        rep(ct, "d_r = T.decl_tensor(d.data", "d_r = T.decl_tensor(c.data"))

    # --- staging indices
    add("bad_a_rows_dup", S_SEED, "index", "refuted", "seed_corrected with A staged from row lane // 4 for both halves (8 * (s // 2 % 2) dropped).",
        "Rows 8-15 of the A fragment hold rows 0-7 of A: D rows 8-15 are A[i-8] @ B.", rep(seed, A_STAGE, A_DUP))
    add("ok_k_reversed", S_SEED, "index", "proved",
        "seed_corrected with A and B both staged with K reversed: A's column k -> 15 - k, B's K index (its column, B given N x K) -> 15 - k.",
        "Fragment column k holds A[i][15-k] and fragment row k holds B[j][15-k]: sum_k A[i][15-k] * B[j][15-k] is "
        "the same sum of products A[i][k] * B[j][k].",
        rep(rep(seed, "2 * (lane % 4) + s % 2 + 8 * (s // 4)]", "15 - (2 * (lane % 4) + s % 2 + 8 * (s // 4))]"),
            "B[lane // 4, 2 * (lane % 4) + s % 2 + 8 * (s // 2)]", "B[lane // 4, 15 - (2 * (lane % 4) + s % 2 + 8 * (s // 2))]"))
    add("ok_m_tiles_swapped", S_TILED, "index", "proved",
        "tiled_2x2x2 with A staged with its two 16-row M tiles swapped and the D store writing the two M tiles swapped the same way.",
        "Image tile m holds A rows of tile 1 - m, so D image tile m is (A @ B) rows of tile 1 - m, which the store writes there.",
        rep(rep(tiled, "A[16 * (s // 16) + ", "A[16 * (1 - s // 16) + "), "D[16 * (s // 8) + ", "D[16 * (1 - s // 8) + "))
    add("bad_m_tiles_swapped_a_only", S_TILED, "index", "refuted", "tiled_2x2x2 with A's M tiles swapped in the staging, the D store as in the base.",
        "D rows 0-15 get A rows 16-31 @ B and the other way round.", rep(tiled, "A[16 * (s // 16) + ", "A[16 * (1 - s // 16) + "))
    add("ok_k_tiles_swapped", S_TILED, "index", "proved",
        "tiled_2x2x2 with A's and B's two K tiles both swapped in the staging.",
        "The mma of K step k multiplies A's K tile 1 - k by B's K tile 1 - k; both K steps accumulate, so the sum is the same.",
        rep(rep(tiled, "16 * (s // 8 % 2) + 2 * (lane % 4)", "16 * (1 - s // 8 % 2) + 2 * (lane % 4)"),
            "16 * (s // 4 % 2) + 2 * (lane % 4)", "16 * (1 - s // 4 % 2) + 2 * (lane % 4)"))
    add("bad_k_tiles_swapped_a_only", S_TILED, "index", "refuted", "tiled_2x2x2 with only A's two K tiles swapped.",
        "A's K tile 1 - k meets B's K tile k: D[i][j] = sum_k A[i][k ^ 16] * B[j][k].",
        rep(tiled, "16 * (s // 8 % 2) + 2 * (lane % 4)", "16 * (1 - s // 8 % 2) + 2 * (lane % 4)"))
    add("ok_n_tiles_swapped", S_TILED, "index", "proved",
        "tiled_2x2x2 with B staged with its two 8-row N tiles swapped and the D store writing the two N tiles swapped.",
        "Image tile n holds B's N tile 1 - n, so D image tile n is (A @ B) columns of tile 1 - n, stored there.",
        rep(rep(tiled, "B[8 * (s // 8) + ", "B[8 * (1 - s // 8) + "), "8 * (s // 4 % 2) + 2 * (lane % 4) + s % 2] = d_r",
            "8 * (1 - s // 4 % 2) + 2 * (lane % 4) + s % 2] = d_r"))
    add("bad_a_half_staged", S_SEED, "index", "refuted", "seed_corrected with A's staging loop over T.unroll(4) instead of 8.",
        "A's slots 4-7 (K columns 8-15) are never staged: the mma reads unwritten registers.",
        rep(seed, "for s in T.unroll(8):", "for s in T.unroll(4):"))

    # --- overwritten pieces
    add("ok_overwritten_staging", S_SEED, "overwrite", "proved",
        "seed_corrected with A first staged wrongly (rows doubled as in bad_a_rows_dup), then correctly, both before the apply.",
        "The second staging writes every A slot; the mma reads only the second values.",
        insert(seed, "        for s in T.unroll(8):\n            " + A_DUP, before="a_h[s] = A["))
    add("ok_overwritten_store", S_SEED, "overwrite", "proved",
        "seed_corrected with a wrong store (each element from d_r[3 - s]) before the right one.",
        "The right store writes every D element last.",
        insert(seed, "        for s in T.unroll(4):\n            " + STORE.replace("= d_r[s]", "= d_r[3 - s]"), before=STORE))
    add("bad_overwritten_store", S_SEED, "overwrite", "refuted",
        "seed_corrected with the right store followed by a wrong one (each element from d_r[3 - s]).",
        "The wrong store writes every D element last.",
        insert(seed, "        for s in T.unroll(4):\n            " + STORE.replace("= d_r[s]", "= d_r[3 - s]"), after=STORE))

    # --- the apply repeated
    apply_line = [l for l in seed.splitlines() if APPLY in l][0]
    add("ok_apply_twice", S_SEED, "apply", "proved", "seed_corrected with T.cuda.tile.apply written twice.",
        "C is the scalar 0: the second apply recomputes D = A @ B from the same registers.",
        insert(seed, apply_line, after=APPLY))
    add("bad_accumulate_twice", S_SEED, "apply", "refuted",
        "seed_corrected with a second apply whose C is d itself (d[:, :, :, :] for T.float32(0)).",
        "The second mma adds A @ B to D's registers, which already hold A @ B: D = 2 (A @ B).",
        insert(seed, apply_line.replace("T.float32(0)", "d[:, :, :, :]"), after=APPLY))

    # --- statements between two applies (each apply runs where it is written)
    zero2 = apply_line.replace("T.float32(0)", "T.float32(0.0)")  # the same apply, its own text
    acc2 = apply_line.replace("T.float32(0)", "d[:, :, :, :]")
    add("ok_store_between_applies", S_SEED, "apply", "proved",
        "seed_corrected with a second apply, whose C is d itself, written after the D store.",
        "The store copies D = A @ B before the second apply adds A @ B to the registers again.",
        insert(seed, acc2, after=STORE))
    add("bad_restage_between_applies", S_SEED, "apply", "refuted",
        "seed_corrected with A restaged wrongly (rows doubled as in bad_a_rows_dup) after the apply, then a second "
        "apply (C = 0) before the store.",
        "The second apply recomputes D from the wrong A: D rows 8-15 are A[i-8] @ B.",
        insert(seed, "        for s in T.unroll(8):\n            " + A_DUP + "\n" + zero2, after=APPLY))
    add("ok_restage_between_applies", S_SEED, "apply", "proved",
        "seed_corrected with A staged again (the same indices) after the apply, then a second apply (C = 0) before the store.",
        "The second apply recomputes D = A @ B from the same values.",
        insert(seed, "        for s in T.unroll(8):\n            " + A_STAGE + "\n" + zero2, after=APPLY))
    first_unstaged = move(seed, APPLY, before="a_h[s] = A[")
    add("ok_first_apply_unstaged", S_SEED, "apply", "proved",
        "seed_corrected with the apply moved before the staging loops and a second apply (C = 0) after them.",
        "The first apply reads unwritten registers, but the second restarts from C = 0 with A and B staged.",
        insert(first_unstaged, zero2, after="b_h[s] = B["))
    add("bad_first_apply_unstaged_accumulated", S_SEED, "apply", "refuted",
        "seed_corrected with the apply moved before the staging loops and a second apply, whose C is d, after them.",
        "The second apply adds A @ B to what the first computed from unwritten registers.",
        insert(first_unstaged, acc2, after="b_h[s] = B["))
    ct_apply = [l for l in ct.splitlines() if APPLY in l][0]
    add("ok_apply_twice_c", S_CT, "apply", "proved", "c_tensor with T.cuda.tile.apply written twice (C = c both times).",
        "Each apply starts from c's registers, which still hold C: D = A @ B + C.", insert(ct, ct_apply, after=APPLY))

    # --- names
    r = seed
    for old, new in [("A_FRAG", "X_FRAG"), ("A_IMG", "X_IMG"), ("B_IMG", "W_IMG"), ("D_IMG", "Y_IMG"), ("A", "X"), ("B", "W"),
                     ("D", "Y"), ("a_h", "xh"), ("b_h", "wh"), ("d_r", "yr"), ("a", "xr"), ("b", "wr"), ("d", "yreg"),
                     ("lane", "ln"), ("s", "j")]:
        r = rename(r, old, new)
    add("ok_renamed", S_SEED, "rename", "proved",
        "seed_corrected with tensors renamed (A -> X, B -> W, D -> Y), local names changed (images, views, lane, slot) "
        "and B's staging written before A's.",
        "Only names and the order of two staging loops over disjoint registers differ from the base.",
        move(r, "wh[j] = W[", before="xh[j] = X["))
    return out


# ---------------------------------------------------------------------------
# The interpreter (no TVM): layouts


class _Lane:
    """laneid: `k @ laneid` is a stride on the lane axis."""

    def __rmatmul__(self, k):
        return ("lane", k)


class _Axis:
    @staticmethod
    def get(name):
        if name != "laneid":
            raise ValueError("axis " + name)
        return _Lane()


def _prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def _unravel(flat, shape):
    idx = []
    for e in reversed(shape):
        idx.append(flat % e)
        flat //= e
    return tuple(reversed(idx))


def _ravel(idx, shape):
    f = 0
    for i, e in zip(idx, shape):
        f = f * e + i
    return f


class Layout:
    """place(flat) -> (lane, register) for a flat (row-major) logical index."""

    def size(self):
        raise NotImplementedError

    def tile_to(self, shape, atom):
        return Tiled(self, tuple(shape), tuple(atom))

    def pack(self, n):
        return Packed(self, n)

    def regs(self):
        return 1 + max(self.place(f)[1] for f in range(self.size()))


class Spec(Layout):
    def __init__(self, shape, strides):
        self.shape = shape if isinstance(shape, tuple) else (shape,)
        self.strides = strides if isinstance(strides, tuple) else (strides,)

    def size(self):
        return _prod(self.shape)

    def place(self, flat):
        lane = reg = 0
        for i, st in zip(_unravel(flat, self.shape), self.strides):
            if isinstance(st, tuple):
                lane += i * st[1]
            else:
                reg += i * st
        return lane, reg


class Tiled(Layout):
    """The atom repeated over shape, tiles in row-major order after the atom's registers."""

    def __init__(self, atom, shape, atom_shape):
        self.atom, self.shape, self.atom_shape = atom, shape, atom_shape
        self.grid = tuple(s // a for s, a in zip(shape, atom_shape))
        self.span = atom.regs()

    def size(self):
        return _prod(self.shape)

    def place(self, flat):
        idx = _unravel(flat, self.shape)
        tile = tuple(i // a for i, a in zip(idx, self.atom_shape))
        inner = tuple(i % a for i, a in zip(idx, self.atom_shape))
        lane, reg = self.atom.place(_ravel(inner, self.atom_shape))
        return lane, reg + _ravel(tile, self.grid) * self.span


class Packed(Layout):
    """n consecutive innermost elements in one word (same lane, registers n*w .. n*w + n - 1)."""

    def __init__(self, inner, n):
        self.inner, self.n = inner, n

    def size(self):
        return self.inner.size() // self.n

    def place(self, flat):
        got = [self.inner.place(flat * self.n + j) for j in range(self.n)]
        lane, r0 = got[0]
        if r0 % self.n or any(g != (lane, r0 + j) for j, g in enumerate(got)):
            raise ValueError("pack: the elements of a word are not consecutive registers of one lane")
        return lane, r0 // self.n


class _S:
    def __getitem__(self, key):
        if isinstance(key, slice):
            return Spec(key.start, key.stop)
        raise ValueError("S[...] without shape : strides")


def _tile_layout(spec):
    return spec


# ---------------------------------------------------------------------------
# The interpreter: values are multisets of monomials (sorted tuples of atoms)


def atom(*a):
    return collections.Counter({(a,): 1})


def vadd(x, y):
    z = collections.Counter(x)
    z.update(y)
    return collections.Counter({k: v for k, v in z.items() if v})


def vmul(x, y):
    z = collections.Counter()
    for mx, cx in x.items():
        for my, cy in y.items():
            z[tuple(sorted(mx + my, key=repr))] += cx * cy
    return z


class Buffer:
    def __init__(self, name, shape, dtype, layout):
        self.name, self.shape, self.dtype, self.layout = name, shape, dtype, layout
        self.regs = [dict() for _ in range(32)]  # lane -> {(register, half): value}
        if layout.size() != _prod(shape):
            raise ValueError(f"{name}: layout covers {layout.size()} elements, the image has {_prod(shape)}")

    def get(self, lane, key):
        if key not in self.regs[lane]:
            return atom("unwritten", self.name, lane, key)
        return self.regs[lane][key]


class View:
    def __init__(self, buf, n, dtype):
        self.buf, self.n, self.dtype = buf, n, dtype
        if buf.dtype == "uint32" and dtype in ("float16", "bfloat16"):
            self.key = lambda s: (s // 2, s % 2)
        elif buf.dtype == dtype:
            self.key = lambda s: (s, 0)
        else:
            raise ValueError(f"view {dtype} over {buf.dtype}")

    def slot(self, s):
        if not 0 <= s < self.n:
            raise IndexError(f"view slot {s} out of {self.n}")
        return self.key(s)


class Interp:
    def __init__(self, src):
        self.tree = ast.parse(src)
        self.env = {"S": _S(), "Axis": _Axis, "TileLayout": _tile_layout}
        self.notes = []
        self.races = []

    # expressions on ints (lane, loop variables)
    def ival(self, node, env):
        code = compile(ast.Expression(node), "<expr>", "eval")
        return eval(code, {"__builtins__": {}}, dict(env))  # noqa: S307  (our own test programs)

    def run(self):
        fn = None
        for st in self.tree.body:
            if isinstance(st, ast.Assign):
                exec(compile(ast.Module([st], []), "<module>", "exec"), self.env)  # noqa: S102
            elif isinstance(st, ast.FunctionDef):
                fn = st
        roles = ["A", "B", "C", "D"] if len(fn.args.args) == 4 else ["A", "B", "D"]
        self.globals, self.shapes, self.role = {}, {}, {}
        for arg, role in zip(fn.args.args, roles):
            shape = ast.literal_eval(arg.annotation.args[0])
            self.shapes[arg.arg] = shape
            self.role[arg.arg] = role
            self.globals[arg.arg] = {}
        (with_st,) = fn.body
        self.bufs, self.views, self.lane_var = {}, {}, None
        self.block(with_st.body, {})
        return self.verdict()

    def gval(self, name, idx):
        shape = self.shapes[name]
        if not all(0 <= i < e for i, e in zip(idx, shape)):
            raise IndexError(f"{name}{list(idx)} out of {shape}")
        g = self.globals[name]
        return g[idx] if idx in g else atom(self.role[name], *idx)

    def block(self, stmts, env):
        for st in stmts:
            self.stmt(st, env)

    def stmt(self, st, env):
        if isinstance(st, ast.For):
            call = st.iter
            args = [self.ival(a, env) for a in call.args]
            lo, hi = (0, args[0]) if len(args) == 1 else (args[0], args[1])
            for v in range(lo, hi):
                self.block(st.body, dict(env, **{st.target.id: v}))
        elif isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
            name, call = st.targets[0].id, st.value
            f = ast.unparse(call.func)
            if f == "T.cuda.lane_id":
                self.lane_var = name
            elif f == "T.alloc_local":
                shape = ast.literal_eval(call.args[0])
                dtype = ast.literal_eval(call.args[1])
                lay = self.env[[k.value for k in call.keywords if k.arg == "layout"][0].id]
                self.bufs[name] = Buffer(name, shape, dtype, lay)
            elif f == "T.decl_tensor":
                base = call.args[0]
                assert isinstance(base, ast.Attribute) and base.attr == "data"
                ty = [k.value for k in call.keywords if k.arg == "ty_args"][0].elts[0]
                n = ast.literal_eval(ty.args[0])[0]
                self.views[name] = View(self.bufs[base.value.id], n, ast.literal_eval(ty.args[1]))
            else:
                raise ValueError("statement " + ast.unparse(st))
        elif isinstance(st, ast.Assign):
            self.copy(st.targets[0], st.value, env)
        elif isinstance(st, ast.Expr) and ast.unparse(st.value.func) == "T.cuda.tile.apply":
            self.apply(st.value)
        else:
            raise ValueError("statement " + ast.unparse(st))

    def copy(self, dst, src, env):
        writes = {}
        for lane in range(32):
            e = dict(env, **{self.lane_var: lane})
            sname = src.value.id
            if sname in self.views:
                v = self.views[sname]
                val = v.buf.get(lane, v.slot(self.ival(src.slice, e)))
            else:
                idx = tuple(self.ival(i, e) for i in src.slice.elts)
                val = self.gval(sname, idx)
            dname = dst.value.id
            if dname in self.views:
                v = self.views[dname]
                v.buf.regs[lane][v.slot(self.ival(dst.slice, e))] = val
            else:
                idx = tuple(self.ival(i, e) for i in dst.slice.elts)
                self.gval(dname, idx)  # bounds
                if idx in writes and writes[idx] != val:
                    self.races.append(f"{dname}{list(idx)} written by two lanes with different values")
                writes[idx] = val
                self.globals[dname][idx] = val

    def apply(self, call):
        op = ast.literal_eval(call.args[0])
        m = re.search(r"\.m16n8k(\d+)\.", op)
        if not m or m.group(1) != "16":
            raise ValueError("the interpreter models m16n8k16 only: " + op)
        d, a, b = (self.bufs[x.value.id] for x in call.args[1:4])
        c = None if isinstance(call.args[4], ast.Call) else self.bufs[call.args[4].value.id]
        if c is None and ast.unparse(call.args[4]) not in ("T.float32(0)", "T.float32(0.0)"):
            raise ValueError("C " + ast.unparse(call.args[4]))
        Mt, Kt = a.shape[0], a.shape[1]
        Nt = b.shape[0]
        assert a.shape == (Mt, Kt, 16, 8) and b.shape == (Nt, Kt, 8, 8) and d.shape == (Mt, Nt, 16, 8)
        assert c is None or c.shape == d.shape

        def frag_reg(buf, tile, row, col):
            """(lane, register) holding element (row, col) of image tile `tile` (4-d flat)."""
            return buf.layout.place(_ravel(tile + (row, col), buf.shape))

        # The PTX frames, and the registers the layouts give them.
        def a_slot(mi, ki, lane, i):
            g, t = lane // 4, lane % 4
            row, col = g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)
            owner, reg = frag_reg(a, (mi, ki), row, col // 2)
            return owner, reg, col % 2, row, col

        def b_slot(ni, ki, lane, i):
            g, t = lane // 4, lane % 4
            krow, ncol = 2 * t + (i & 1) + 8 * (i >> 1), g
            owner, reg = frag_reg(b, (ni, ki), ncol, krow // 2)
            return owner, reg, krow % 2, krow, ncol

        def d_slot(buf, mi, ni, lane, i):
            g, t = lane // 4, lane % 4
            row, col = g + 8 * (i >> 1), 2 * t + (i & 1)
            owner, reg = frag_reg(buf, (mi, ni), row, col)
            return owner, reg, 0, row, col

        for mi in range(Mt):
            for ki in range(Kt):
                base = a_slot(mi, ki, 0, 0)[1]
                for lane in range(32):
                    for i in range(8):
                        owner, reg, half, *_ = a_slot(mi, ki, lane, i)
                        if owner != lane or reg != base + i // 2 or half != i % 2:
                            raise ValueError("A's layout is not the mma fragment")
        for ni in range(Nt):
            for ki in range(Kt):
                base = b_slot(ni, ki, 0, 0)[1]
                for lane in range(32):
                    for i in range(4):
                        owner, reg, half, *_ = b_slot(ni, ki, lane, i)
                        if owner != lane or reg != base + i // 2 or half != i % 2:
                            raise ValueError("B's layout is not the mma fragment")
        for buf in [d] + ([c] if c is not None else []):
            for mi in range(Mt):
                for ni in range(Nt):
                    base = d_slot(buf, mi, ni, 0, 0)[1]
                    for lane in range(32):
                        for i in range(4):
                            owner, reg, _, *_ = d_slot(buf, mi, ni, lane, i)
                            if owner != lane or reg != base + i:
                                raise ValueError("a C/D layout is not the mma fragment")

        # One mma per (m, n, k), in the lowering's order; the first K step reads C.
        for mi in range(Mt):
            for ni in range(Nt):
                for ki in range(Kt):
                    A = [[None] * 16 for _ in range(16)]
                    B = [[None] * 8 for _ in range(16)]
                    acc = [[None] * 8 for _ in range(16)]
                    for lane in range(32):
                        for i in range(8):
                            _, reg, half, row, col = a_slot(mi, ki, lane, i)
                            A[row][col] = a.get(lane, (reg, half))
                        for i in range(4):
                            _, reg, half, krow, ncol = b_slot(ni, ki, lane, i)
                            B[krow][ncol] = b.get(lane, (reg, half))
                        for i in range(4):
                            src = d if ki > 0 else c
                            _, reg, _, row, col = d_slot(src or d, mi, ni, lane, i)
                            acc[row][col] = collections.Counter() if src is None else src.get(lane, (reg, 0))
                    for lane in range(32):
                        for i in range(4):
                            _, reg, _, row, col = d_slot(d, mi, ni, lane, i)
                            v = acc[row][col]
                            for k in range(16):
                                v = vadd(v, vmul(A[row][k], B[k][col]))
                            d.regs[lane][(reg, 0)] = v

    def verdict(self):
        """("proved" | "refuted", reason)."""
        if self.races:
            return "refuted", self.races[0]
        dname = [n for n, r in self.role.items() if r == "D"][0]
        aname = [n for n, r in self.role.items() if r == "A"][0]
        M, N = self.shapes[dname]
        K = self.shapes[aname][1]
        has_c = "C" in self.role.values()
        for i in range(M):
            for j in range(N):
                want = collections.Counter()
                for k in range(K):
                    want = vadd(want, vmul(atom("A", i, k), atom("B", j, k)))
                if has_c:
                    want = vadd(want, atom("C", i, j))
                got = self.gval(dname, (i, j))
                if got != want:
                    extra = sorted(map(repr, (got - want).keys()))[:2]
                    missing = sorted(map(repr, (want - got).keys()))[:2]
                    return "refuted", f"D[{i}][{j}]: unexpected {extra}, missing {missing}"
        return "proved", ""


def interpret(src):
    return Interp(src).run()


# ---------------------------------------------------------------------------
# TVM


def header(v, command):
    lines = [f"# {v['name']}: {v['what']}", f"# Why: {v['why']}", f"# Base: {v['base']}",
             f"# Expected verdict: {v['expect']}", f"# Class: {v['cls']}", f"# Made by: {command}"]
    return "\n".join(lines) + "\n"


def run_tvm(path):
    """(accepted, message, printed, lowered) for the program at path, as gen.py does it."""
    import tvm_tirx as tvm
    import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and patterns)

    func = runpy.run_path(path)["main"]
    mod = tvm.IRModule.from_expr(func)
    printed = mod.script()
    target = tvm.target.Target(TARGET)
    try:
        with target:
            lowered = tvm.tirx.transform.TileDispatch()(mod)
    except Exception as e:  # noqa: BLE001  (TVM's refusal is the record)
        lines = [l for l in str(e).strip().splitlines() if l.strip()]
        inner = [l for l in lines if not l.startswith(("Tensor instruction lowering failed", "call:"))]
        return False, "\n".join(inner) if inner else lines[-1], printed, None
    return True, "", printed, lowered.script()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/program/tirx")
    ap.add_argument("--selfcheck-only", action="store_true", help="run the interpreter on every variant, no TVM, write nothing")
    args = ap.parse_args()
    command = "/work/venv-tvm/bin/python scripts/tirx-oracle/compositions.py --out " + args.out
    vs = variants()
    names = [v["name"] for v in vs]
    assert len(set(names)) == len(names)

    # the bases themselves must be proved by the interpreter
    for b in BASES.values():
        got, why = interpret(body_of(b))
        if got != "proved":
            sys.exit(f"interpreter: base {b} {got}: {why}")
    bad = []
    for v in vs:
        v["selfcheck"], v["selfcheck_reason"] = interpret(v["src"])
        print(f"{v['name']:28} expect {v['expect']:8} selfcheck {v['selfcheck']:8} {v['selfcheck_reason']}", file=sys.stderr)
        if v["selfcheck"] != v["expect"]:
            bad.append(v["name"])
    if bad:
        sys.exit("the interpreter disagrees with the planned verdict: " + ", ".join(bad))
    if args.selfcheck_only:
        return

    os.makedirs(args.out, exist_ok=True)
    for f in glob.glob(os.path.join(args.out, "*.py")) + glob.glob(os.path.join(args.out, "expected.jsonl")):
        os.remove(f)
    entries = []
    for v in vs:
        head = header(v, command)
        prog = os.path.join(args.out, v["name"] + ".py")
        with open(prog, "w") as f:
            f.write(head + v["src"])
        ok, msg, printed, lowered = run_tvm(prog)
        e = {"name": v["name"], "base": v["base"], "class": v["cls"], "expect": v["expect"], "what": v["what"], "tvm_accepted": ok}
        if not ok:
            e["tvm_message"] = msg
        files = [prog]
        if ok:
            for suffix, text in [(".print.py", printed), (".lowered.py", lowered)]:
                p = os.path.join(args.out, v["name"] + suffix)
                with open(p, "w") as f:
                    f.write(head + text.rstrip("\n") + "\n")
                files.append(p)
            e["mma_statements"] = lowered.count("T.ptx.mma(")
        e.update(selfcheck=v["selfcheck"], files=files, tvm="apache-tvm-tirx 0.1.0a4", target=TARGET, command=command)
        entries.append(e)
        print(v["name"], "accepted" if ok else "refused: " + msg, file=sys.stderr)
    with open(os.path.join(args.out, "expected.jsonl"), "w") as f:
        for e in entries:
            f.write(json.dumps(e) + "\n")


if __name__ == "__main__":
    main()
