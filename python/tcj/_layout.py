# SPDX-License-Identifier: Apache-2.0
# Pure-Python layout analysis for tcj's tensor API: maps (shape, strides) of tensors to the
# tcj_gemm_desc fields (op, ld, batch strides, order, group fields) without copies, and gives
# the output shapes. No torch and no ctypes here, so the rules are testable on any machine.
"""Layout rules of tcj's tensor API (no torch, no library).

tcj's matrices are row-major: op N reads an r x c matrix with element (i, j) at
``i * ld + j``; op T reads it as the transpose of a stored c x r matrix, element (i, j) at
``j * ld + i``. In torch terms a 2-D view with strides ``(ld, 1)`` is op N and one with
strides ``(1, ld)`` (a ``.t()`` or ``.mT`` of a contiguous tensor) is op T. With
``order = COL_MAJOR`` (chosen when the output D is column-major) the same strides read
the other way round: ``(1, ld)`` is op N and ``(ld, 1)`` op T. Leading (batch) dimensions
must collapse to one stride. Anything else is a ValueError naming the tensor.

A plan is a dict of tcj_gemm_desc field names to values; enum fields hold the enum
member's name (``"N"``, ``"BF16"``, ``"COL_MAJOR"``) and pointer fields ints.
"""

from collections import namedtuple

# What the layout rules need of a tensor: a name for messages, and its geometry.
Info = namedtuple("Info", "name shape strides dtype ptr")

ACTIVATIONS = ("none", "relu", "gelu", "gelu_tanh", "silu", "swiglu")
# torch dtype names (str(torch.bfloat16) without "torch.") to tcj_dtype member names.
DTYPES = {
    "float16": "F16", "bfloat16": "BF16", "float32": "F32", "float64": "F64",
    "float8_e4m3fn": "E4M3", "float8_e5m2": "E5M2", "int8": "S8", "int32": "S32",
}
FP8 = ("E4M3", "E5M2")
SCALE_MODES = ("tensor", "row", "block")


def tcj_dtype(t):
    """The tcj_dtype member name of a tensor's dtype, or ValueError naming the tensor."""
    d = DTYPES.get(t.dtype)
    if d is None:
        raise ValueError(f"{t.name}: dtype {t.dtype} is not one tcj takes "
                         f"({', '.join(DTYPES)})")
    return d


# The compute keyword: how fp32 products are formed (tcj.h's tcj_compute), by Compute's names.
COMPUTES = {"default": "DEFAULT", "f32": "F32", "3xtf32": "F32_3XTF32", "tf32": "F32_FAST_TF32"}


def compute(name):
    """Normalises a compute keyword: None (the library's choice by the operand types), 'f32'
    (fp32 accuracy), '3xtf32' or 'tf32' (tf32 products, fp32 sums); returns the Compute member's
    name or None."""
    if name is None:
        return None
    c = str(name).lower().replace("_", "").replace("-", "")
    if c not in COMPUTES:
        raise ValueError(f"compute {name!r}: expected None or one of {', '.join(COMPUTES)}")
    return COMPUTES[c]


def activation(name):
    """Normalises an activation keyword (None, 'none', 'relu', ...)."""
    if name is None:
        return "none"
    a = str(name).lower().replace("-", "_")
    if a not in ACTIVATIONS:
        raise ValueError(f"activation {name!r}: expected one of {', '.join(ACTIVATIONS)}")
    return a


def matrix(t, rows, cols, s_rows, s_cols, col_major=False):
    """(op, ld) of a logical rows x cols matrix with these element strides.

    Row-major order: strides (ld, 1) are op N with ld >= cols, (1, ld) op T with ld >= rows.
    Column-major order swaps the ops. A dimension of size <= 1 takes any stride."""
    n_ok = (s_cols == 1 or cols <= 1) and (rows <= 1 or s_rows >= max(cols, 1))
    t_ok = (s_rows == 1 or rows <= 1) and (cols <= 1 or s_cols >= max(rows, 1))
    if n_ok:
        op, ld = "N", (s_rows if rows > 1 else max(cols, 1))
    elif t_ok:
        op, ld = "T", (s_cols if cols > 1 else max(rows, 1))
    else:
        raise ValueError(
            f"{t.name}: strides {tuple(t.strides)} of shape {tuple(t.shape)} are neither "
            f"row-major (stride 1 along the last dimension) nor column-major (stride 1 along "
            f"the one before) with a leading dimension that fits: pass {t.name}.contiguous()")
    if col_major:
        op = "T" if op == "N" else "N"
    return op, ld


def mat(t, col_major=False):
    """(op, ld) of the last two dimensions of t."""
    return matrix(t, t.shape[-2], t.shape[-1], t.strides[-2], t.strides[-1], col_major)


def batch(t, dims=None):
    """(count, stride) of t's leading dimensions (all but the last two, or the first `dims`)
    collapsed into one, or ValueError. Size-1 dimensions take any stride; stride 0 broadcasts."""
    lead = list(zip(t.shape[:-2] if dims is None else t.shape[:dims],
                    t.strides[:-2] if dims is None else t.strides[:dims]))
    lead = [(n, s) for n, s in lead if n != 1]
    count = 1
    for n, _ in lead:
        count *= n
    if not lead:
        return count, 0
    stride = lead[-1][1]
    expect = stride
    for n, s in reversed(lead):
        if s != expect:
            raise ValueError(f"{t.name}: leading dimensions {tuple(t.shape[:-2])} with strides "
                             f"{tuple(t.strides[:-2])} do not collapse into one batch stride")
        expect = s * n
    return count, stride


def fold_rows(t):
    """For x [..., K]: (rows, row stride, column stride) with the leading dimensions folded into
    the rows where their strides allow (a contiguous or row-sliced x), else None."""
    shape, strides = list(t.shape), list(t.strides)
    if len(shape) < 2:
        return None
    rows, sr = shape[-2], strides[-2]
    for n, s in zip(reversed(shape[:-2]), reversed(strides[:-2])):
        if n == 1:
            continue
        if rows > 1 and s != sr * rows:
            return None
        if rows <= 1:
            sr = s
        rows *= n
    return rows, sr, strides[-1]


def order_of(d):
    """'ROW_MAJOR' or 'COL_MAJOR' for an output D (its last two dimensions), and its ld."""
    rows, cols = d.shape[-2], d.shape[-1]
    sr, sc = d.strides[-2], d.strides[-1]
    if (sc == 1 or cols <= 1) and (rows <= 1 or sr >= max(cols, 1)):
        return "ROW_MAJOR", (sr if rows > 1 else max(cols, 1))
    if (sr == 1 or rows <= 1) and (cols <= 1 or sc >= max(rows, 1)):
        return "COL_MAJOR", (sc if cols > 1 else max(rows, 1))
    raise ValueError(f"{d.name}: strides {tuple(d.strides)} of shape {tuple(d.shape)} are "
                     f"neither row- nor column-major")


def _out_ld(d, order):
    o, ld = order_of(d)
    if o != order:
        raise ValueError(f"{d.name}: must be {order.lower().replace('_', '-')} like the output")
    return ld


def _epilogue(p, bias, bias_n, act, c=None, beta=0.0, order="ROW_MAJOR", groups=None):
    """Bias, activation and C fields shared by every plan."""
    p["activation"] = act.upper()
    if bias is not None:
        if bias.shape[-1] != bias_n:
            raise ValueError(f"{bias.name}: {bias.shape[-1]} values, expected {bias_n}"
                             + (" (gate then up: 2n with swiglu)" if act == "swiglu" else ""))
        if bias.shape[-1] > 1 and bias.strides[-1] != 1:
            raise ValueError(f"{bias.name}: must be contiguous along its last dimension")
        p.update(bias=bias.ptr, bias_type=tcj_dtype(bias), bias_kind="COL")
        if len(bias.shape) == 2:
            if groups is not None and bias.shape[0] not in (1, groups):
                raise ValueError(f"{bias.name}: {bias.shape[0]} rows, expected 1 or {groups}")
            p["stride_bias"] = bias.strides[0] if bias.shape[0] > 1 else 0
        elif len(bias.shape) != 1:
            raise ValueError(f"{bias.name}: expected 1 or 2 dimensions, got {len(bias.shape)}")
    if c is not None:
        if act == "swiglu":
            raise ValueError(f"{c.name}: swiglu reads no C (beta must be 0)")
        p.update(c=c.ptr, c_type=tcj_dtype(c), ldc=_out_ld(c, order))
        p["beta"] = float(beta)
    elif beta != 0:
        raise ValueError("beta != 0 needs c")


def _dtype_out(a, out_dtype, d):
    if d is not None:
        return tcj_dtype(d)
    if out_dtype is not None:
        o = DTYPES.get(out_dtype)
        if o is None:
            raise ValueError(f"out_dtype {out_dtype} is not one tcj takes")
        return o
    t = tcj_dtype(a)
    return {"E4M3": "BF16", "E5M2": "BF16", "S8": "S32"}.get(t, t)


def out_dtype_name(a_dtype, out_dtype):
    """torch dtype name of an op's output (for the fake implementations)."""
    if out_dtype is not None:
        return out_dtype
    return {"float8_e4m3fn": "bfloat16", "float8_e5m2": "bfloat16",
            "int8": "int32"}.get(a_dtype, a_dtype)


def broadcast(sa, sb, na="a", nb="b"):
    """Broadcast shape of two batch shapes (torch.matmul's rule)."""
    out = []
    for i in range(max(len(sa), len(sb))):
        x = sa[len(sa) - 1 - i] if i < len(sa) else 1
        y = sb[len(sb) - 1 - i] if i < len(sb) else 1
        if x != y and 1 not in (x, y):
            raise ValueError(f"{na} and {nb}: batch dimensions {tuple(sa)} and {tuple(sb)} "
                             f"do not broadcast")
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


# ---- output shapes (the fake implementations use exactly these) --------------------------

def _swiglu_cols(n, act, need):
    """D's columns for n columns of op(B): half of them with swiglu (gate then up), which needs
    an even n (need: what the ValueError says is needed)."""
    if act != "swiglu":
        return n
    if n % 2:
        raise ValueError(f"{need}, got {n}")
    return n // 2


def matmul_shape(a_shape, b_shape, act="none"):
    if len(a_shape) < 2 or len(b_shape) < 2:
        raise ValueError("a and b need 2 or more dimensions (matrices or batches of them)")
    if a_shape[-1] != b_shape[-2]:
        raise ValueError(f"a {tuple(a_shape)} and b {tuple(b_shape)}: inner dimensions "
                         f"{a_shape[-1]} and {b_shape[-2]} differ")
    n = _swiglu_cols(b_shape[-1], act, "b: swiglu needs an even number of columns (gate then up)")
    return broadcast(a_shape[:-2], b_shape[:-2]) + (a_shape[-2], n)


def linear_shape(x_shape, w_shape, act="none"):
    if len(w_shape) != 2:
        raise ValueError(f"weight: expected [N, K], got shape {tuple(w_shape)}")
    if len(x_shape) < 1 or x_shape[-1] != w_shape[1]:
        raise ValueError(f"x {tuple(x_shape)} and weight {tuple(w_shape)}: x's last "
                         f"dimension must be weight's K = {w_shape[1]}")
    n = _swiglu_cols(w_shape[0], act, "weight: swiglu needs 2N rows (gate then up)")
    return tuple(x_shape[:-1]) + (n,)


def problem_rows_shape(a_shape, gather):
    """a's shape as the problem sees it: with gather (contiguous groups, a [gather_rows, K]), one
    row per index (tcj.h: C, D and row_scale stay in the problem's row order)."""
    if gather is None or len(a_shape) != 2 or len(gather.shape) != 1:
        return tuple(a_shape)
    return (gather.shape[0],) + tuple(a_shape[1:])


def grouped_shape(a_shape, b_shape, act="none", masked=False):
    """torch._grouped_mm's shapes: a [M, K] and b [G, K, N] -> [M, N] (contiguous groups);
    a [G, M, K] and b [G, K, N] -> [G, M, N] (masked); a [M, Ktot] and b [Ktot, N] -> [G, M, N]
    (K groups; G from offs, passed as masked=G)."""
    if len(a_shape) == 2 and len(b_shape) == 2:
        if a_shape[1] != b_shape[0]:
            raise ValueError(f"a {tuple(a_shape)} and b {tuple(b_shape)}: K groups need "
                             f"a [M, Ktot] and b [Ktot, N]")
        return (int(masked), a_shape[0], b_shape[1])
    if len(b_shape) != 3 or len(a_shape) not in (2, 3):
        raise ValueError(f"grouped_mm takes a [M, K] or [G, M, K] with b [G, K, N], or a "
                         f"[M, Ktot] with b [Ktot, N]; got a {tuple(a_shape)}, b {tuple(b_shape)}")
    if a_shape[-1] != b_shape[1]:
        raise ValueError(f"a {tuple(a_shape)} and b {tuple(b_shape)}: K {a_shape[-1]} and "
                         f"{b_shape[1]} differ")
    n = _swiglu_cols(b_shape[2], act, "b: swiglu needs 2N columns (gate then up)")
    if len(a_shape) == 3:
        if a_shape[0] != b_shape[0]:
            raise ValueError(f"a {tuple(a_shape)} and b {tuple(b_shape)}: {a_shape[0]} and "
                             f"{b_shape[0]} groups")
        return (a_shape[0], a_shape[1], n)
    return (a_shape[0], n)


# ---- plans ------------------------------------------------------------------------------

def plan_matmul(a, b, d, *, c=None, bias=None, act="none", alpha=1.0, beta=0.0, compute=None):
    """D = act(alpha op(A) op(B) + beta C + bias) over broadcast batch dimensions.

    a [..., m, k], b [..., k, n], d [..., m, n] (already allocated, any row- or column-major
    strides), c like d. Returns the descriptor fields."""
    shape = matmul_shape(tuple(a.shape), tuple(b.shape), act)
    if tuple(d.shape) != shape:
        raise ValueError(f"{d.name}: shape {tuple(d.shape)}, expected {shape}")
    order, ldd = order_of(d)
    col = order == "COL_MAJOR"
    m, k = a.shape[-2], a.shape[-1]
    n = shape[-1]
    p = {"m": m, "n": n, "k": k, "order": order, "alpha": float(alpha),
         **({"compute": compute} if compute else {}),
         "a": a.ptr, "a_type": tcj_dtype(a), "b": b.ptr, "b_type": tcj_dtype(b),
         "d": d.ptr, "d_type": tcj_dtype(d), "ldd": ldd}
    # A batch against one matrix b: a's leading dimensions fold into m where a, d (and c)
    # allow it (one GEMM of batch * m rows), else a strided batch with stride_b 0.
    bshape = shape[:-2]
    folded = _fold_all(a, d, c) if (bshape and len(b.shape) == 2 and not col) else None
    bc = 1
    if folded is not None:
        rows, lda, ldd, ldc = folded
        p.update(m=rows, op_a="N", lda=lda, ldd=ldd)
        if c is not None:
            c = c._replace(shape=(rows, n), strides=(ldc, 1))
    else:
        for x in bshape:
            bc *= x
        p["op_a"], p["lda"] = mat(a, col)
        if bc > 1:
            p["batch_count"] = bc
            p["stride_a"] = _bstride(a, bshape)
            p["stride_b"] = _bstride(b, bshape)
            p["stride_d"] = _bstride(d, bshape)
            if c is not None:
                p["stride_c"] = _bstride(c, bshape)
    p["op_b"], p["ldb"] = mat(b, col)
    _epilogue(p, bias, b.shape[-1], act, c, beta, order)
    if bias is not None and bc > 1 and len(bias.shape) == 2:
        if bias.shape[0] not in (1, bc):
            raise ValueError(f"{bias.name}: {bias.shape[0]} rows, expected 1 or {bc}")
    if p["a_type"] == "F64":  # fp64 operands take their scalars in alpha_f64 and beta_f64
        p["alpha_f64"] = p.pop("alpha")
        if "beta" in p:
            p["beta_f64"] = p.pop("beta")
    return p


def _fold_all(a, d, c):
    """(rows, lda, ldd, ldc) when a, d and c all fold their leading dimensions into rows with
    stride 1 along the last one, else None."""
    out = []
    for t in (a, d, c):
        if t is None:
            out.append(0)
            continue
        f = fold_rows(t)
        if f is None or (f[2] != 1 and t.shape[-1] > 1):
            return None
        rows, sr, _ = f
        ld = sr if rows > 1 else max(t.shape[-1], 1)
        if ld < t.shape[-1]:
            return None
        out.append((rows, ld))
    return out[0][0], out[0][1], out[1][1], (out[2][1] if c is not None else 0)


def _bstride(t, bshape):
    """The one batch stride of t broadcast to the batch shape bshape (0 where t broadcasts)."""
    nb = len(bshape)
    lead_shape = (1,) * (nb - (len(t.shape) - 2)) + tuple(t.shape[:-2])
    lead_str = (0,) * (nb - (len(t.strides) - 2)) + tuple(t.strides[:-2])
    sh = [n for n in bshape]
    st = [s if n != 1 else 0 for n, s in zip(lead_shape, lead_str)]
    view = Info(t.name, tuple(sh) + (1, 1), tuple(st) + (1, 1), t.dtype, t.ptr)
    _, stride = batch(view)
    # A broadcast dim among real ones cannot be one stride unless all are broadcast.
    if any(s == 0 for n, s in zip(sh, st) if n > 1) and any(s for s in st):
        raise ValueError(f"{t.name}: broadcast over some batch dimensions but not others; "
                         f"expand it or make it contiguous")
    return stride


def plan_linear(x, w, d, *, bias=None, act="none", compute=None):
    """nn.Linear: D[..., n] = act(x W^T + bias), W [N, K] (op(B) = W^T)."""
    shape = linear_shape(tuple(x.shape), tuple(w.shape), act)
    if tuple(d.shape) != shape:
        raise ValueError(f"{d.name}: shape {tuple(d.shape)}, expected {shape}")
    k, n = w.shape[1], shape[-1]
    wt = Info(w.name, (k, w.shape[0]), (w.strides[1], w.strides[0]), w.dtype, w.ptr)
    x2 = x if len(x.shape) >= 2 else x._replace(shape=(1, k), strides=(k, x.strides[0]))
    d2 = d if len(d.shape) >= 2 else d._replace(shape=(1, n), strides=(n, d.strides[0]))
    p = plan_matmul(x2, wt, d2, bias=None, act=act, compute=compute)
    _epilogue(p, bias, w.shape[0], act)
    return p


def scale_mode_of(scale_a, scale_b, m, n, k, mode=None):
    """'TENSOR', 'ROW' or 'BLOCK' from the scales' element counts (or the mode keyword)."""
    if mode is not None:
        if mode not in SCALE_MODES:
            raise ValueError(f"scale_mode {mode!r}: expected one of {', '.join(SCALE_MODES)}")
        return mode.upper()
    na = 1 if scale_a is None else _numel(scale_a.shape)
    nb = 1 if scale_b is None else _numel(scale_b.shape)
    kb = -(-k // 128)
    if na == 1 and nb == 1:
        return "TENSOR"
    if na == m and nb == n:
        return "ROW"
    if na == m * kb and nb == -(-n // 128) * kb:
        return "BLOCK"
    raise ValueError(f"scale_a ({na} values) and scale_b ({nb} values) fit no scale mode: "
                     f"tensor (1 and 1), row ({m} and {n}) or block ({m * kb} and "
                     f"{-(-n // 128) * kb})")


def _numel(shape):
    r = 1
    for x in shape:
        r *= x
    return r


def _scales(p, scale_a, scale_b, scale_d, amax, fast_accum, mode):
    p["scale_mode"] = mode
    for key, s in (("scale_a", scale_a), ("scale_b", scale_b), ("scale_d", scale_d),
                   ("amax_d", amax)):
        if s is None:
            continue
        if s.dtype != "float32":
            raise ValueError(f"{s.name}: must be float32, got {s.dtype}")
        if not _dense(s):
            raise ValueError(f"{s.name}: must be contiguous")
        p[key] = s.ptr
    if fast_accum:
        p["fast_accum"] = 1


def _dense(t):
    exp = 1
    for n, s in reversed(list(zip(t.shape, t.strides))):
        if n != 1 and s != exp:
            return False
        exp *= n
    return True


def plan_scaled_mm(a, b, d, scale_a, scale_b, *, bias=None, scale_d=None, amax=None,
                   fast_accum=False, mode=None, act="none"):
    """torch._scaled_mm: a [m, k] and b [k, n] fp8, scales as scale_mode_of says."""
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise ValueError("scaled_mm takes 2-D a and b")
    p = plan_matmul(a, b, d, bias=bias, act=act)
    m, n, k = a.shape[0], b.shape[1], a.shape[1]
    _scales(p, scale_a, scale_b, scale_d, amax, fast_accum,
            scale_mode_of(scale_a, scale_b, m, n, k, mode))
    return p


def kmode_of(a, b):
    """K groups (weight gradients): a [M, Ktot] and b [Ktot, N], both 2-D."""
    return len(a.shape) == 2 and len(b.shape) == 2


def _check_scatter_out(d, scatter, mode, offs, kmode, shape):
    """What scattered rows ask of the call and of d, the rows they go to (tcj.h, scatter_d):
    contiguous groups (offs) over a 2-D a, and d a row-major [R, N] (R >= 1: any number of rows),
    float32 where they are added (mode "add": atomic adds)."""
    if mode not in ("store", "add"):
        raise ValueError(f"scatter_mode {mode!r}: 'store' or 'add'")
    if offs is None or kmode or len(shape) != 2:
        raise ValueError(f"{scatter.name}: scattered rows take contiguous groups (offs) over a "
                         f"2-D a")
    if len(d.shape) != 2 or d.shape[1] != shape[1] or d.shape[0] < 1:
        raise ValueError(f"{d.name}: shape {tuple(d.shape)}, expected [rows >= 1, {shape[1]}] "
                         f"for the scattered rows")
    if mode == "add" and d.dtype != "float32":
        raise ValueError(f"{d.name}: {d.dtype}; scatter_add adds into float32 (atomic adds)")


def plan_grouped(a, b, d, *, offs=None, counts=None, bias=None, act="none", row_scale=None,
                 gather=None, gather_rows=None, rows_hint=0, scale_a=None, scale_b=None,
                 scale_mode=None, alpha=1.0, b_ptrs=None, scatter=None, scatter_mode="store"):
    """Grouped GEMM, torch._grouped_mm's conventions: see grouped_shape. b [G, K, N] may be
    stored [G, N, K] (nn.Linear weights transposed: op_b T) or [G, K, N] (op_b N). b_ptrs: an
    int64 [G] array of each group's B (group_b_ptrs), b then one group's [K, N] (its layout).
    scatter: an int32 [M] array (contiguous groups): problem row r goes to row scatter[r] of d,
    an [R, N] (scatter_d): stored, or with scatter_mode "add" added into a float32 d."""
    if b_ptrs is not None:
        if len(b.shape) != 2:
            raise ValueError(f"{b.name}: with a pointer array, one group's B [K, N]")
        if b_ptrs.dtype != "int64" or len(b_ptrs.shape) != 1 or not _dense(b_ptrs):
            raise ValueError(f"{b_ptrs.name}: a contiguous 1-D int64 tensor of addresses")
        g = b_ptrs.shape[0]
        b = b._replace(shape=(g,) + tuple(b.shape), strides=(0,) + tuple(b.strides))
    if (offs is None) == (counts is None):
        raise ValueError("grouped_mm takes exactly one of offs (group ends) and counts "
                         "(masked rows per group)")
    ends = offs if offs is not None else counts
    if len(ends.shape) != 1 or (ends.shape[0] > 1 and ends.strides[0] != 1):
        raise ValueError(f"{ends.name}: must be a contiguous 1-D tensor of group "
                         f"{'ends' if offs is not None else 'counts'}")
    g = ends.shape[0]
    kmode = kmode_of(a, b)
    masked = counts is not None
    if masked and len(a.shape) != 3:
        raise ValueError(f"{a.name}: masked groups (counts) take a [G, M, K]")
    if not masked and len(a.shape) == 3:
        raise ValueError(f"{a.name}: a [G, M, K] takes counts (masked groups), not offs")
    a_shape = problem_rows_shape(tuple(a.shape), gather)
    shape = grouped_shape(a_shape, tuple(b.shape), act, masked=g)
    if scatter is not None:
        _check_scatter_out(d, scatter, scatter_mode, offs, kmode, shape)
    elif tuple(d.shape) != shape:
        raise ValueError(f"{d.name}: shape {tuple(d.shape)}, expected {shape}")
    if order_of(d)[0] != "ROW_MAJOR":
        raise ValueError(f"{d.name}: grouped calls write row-major outputs only")
    if b_ptrs is not None and b_ptrs.shape[0] != g:
        raise ValueError(f"{b_ptrs.name}: {b_ptrs.shape[0]} addresses for {g} groups")
    p = {"group_count": g, "alpha": float(alpha), "a": a.ptr, "a_type": tcj_dtype(a),
         "b": 0 if b_ptrs is not None else b.ptr, "b_type": tcj_dtype(b), "d": d.ptr,
         "d_type": tcj_dtype(d), "ldd": order_of(d)[1], "order": "ROW_MAJOR"}
    if b_ptrs is not None:  # b is 3-D now: a 2-D a is contiguous groups, never K groups
        p["group_b_ptrs"] = b_ptrs.ptr
    if offs is not None:
        key = {"int32": "group_ends32", "int64": "group_ends64"}.get(offs.dtype)
        if key is None:
            raise ValueError(f"{offs.name}: int32 or int64, got {offs.dtype}")
        p[key] = offs.ptr
    else:
        if counts.dtype != "int32":
            raise ValueError(f"{counts.name}: int32, got {counts.dtype}")
        p["group_counts"] = counts.ptr
    if kmode:
        m, k, n = a.shape[0], a.shape[1], b.shape[1]
        op_a, lda = mat(a)
        op_b, ldb = mat(b)
        if op_a != "T":
            raise ValueError(f"{a.name}: K groups read a [M, Ktot] column-major (dy.t() of a "
                             f"row-major dy [Ktot, M])")
        if op_b != "N":
            raise ValueError(f"{b.name}: K groups read b [Ktot, N] row-major")
        p.update(group_mode="K_CONTIGUOUS", m=m, n=n, k=k, op_a="T", lda=lda, op_b="N", ldb=ldb,
                 stride_d=d.strides[0])
    else:
        m, k = a_shape[-2], a_shape[-1]
        n = shape[-1]
        op_a, lda = mat(a)
        op_b, ldb = mat(b)
        p.update(group_mode="M_MASKED" if masked else "M_CONTIGUOUS", m=m, n=n, k=k,
                 op_a=op_a, lda=lda, op_b=op_b, ldb=ldb,
                 stride_b=b.strides[0] if b.shape[0] > 1 and b_ptrs is None else 0)
        if masked:
            p["stride_a"], p["stride_d"] = a.strides[0], d.strides[0]
    if rows_hint:
        p["group_rows_hint"] = int(rows_hint)
    _epilogue(p, bias, b.shape[-1], act, groups=g)
    if row_scale is not None:
        if row_scale.dtype != "float32" or not _dense(row_scale):
            raise ValueError(f"{row_scale.name}: a contiguous float32 tensor")
        want = m * (g if (masked or kmode) else 1)
        if _numel(row_scale.shape) != want:
            raise ValueError(f"{row_scale.name}: {_numel(row_scale.shape)} values, expected {want}")
        p["row_scale"] = row_scale.ptr
    if gather is not None:
        if gather.dtype != "int32" or len(gather.shape) != 1 or gather.shape[0] != m:
            raise ValueError(f"{gather.name}: a 1-D int32 tensor of {m} row indices")
        if not _dense(gather):
            raise ValueError(f"{gather.name}: must be contiguous")
        p["gather_a"], p["gather_a_rows"] = gather.ptr, int(gather_rows)
    if scatter is not None:
        if scatter.dtype != "int32" or len(scatter.shape) != 1 or scatter.shape[0] != m \
                or not _dense(scatter):
            raise ValueError(f"{scatter.name}: a contiguous 1-D int32 tensor of {m} row "
                             f"indices into {d.name}")
        p["scatter_d"], p["scatter_d_rows"] = scatter.ptr, d.shape[0]
        p["scatter_mode"] = scatter_mode.upper()
    if tcj_dtype(a) in FP8:
        mode = scale_mode_of(scale_a, None if scale_b is None else
                             scale_b._replace(shape=scale_b.shape[1:] or (1,)),
                             m * (g if masked else 1), n, k, scale_mode)
        _scales(p, scale_a, scale_b, None, None, False, mode)
        if scale_b is not None and len(scale_b.shape) >= 2 and scale_b.shape[0] == g and g > 1:
            p["stride_scale_b"] = scale_b.strides[0]
        elif scale_b is not None and len(scale_b.shape) == 1 and scale_b.shape[0] == g \
                and mode == "TENSOR" and g > 1:
            p["stride_scale_b"] = scale_b.strides[0]
    elif scale_a is not None or scale_b is not None:
        raise ValueError("scale_a/scale_b: only fp8 operands take scales")
    return p
