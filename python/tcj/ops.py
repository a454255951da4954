# SPDX-License-Identifier: Apache-2.0
# tcj's tensor API over torch tensors: matmul, linear, scaled_mm, grouped_mm, batched_mm.
# Strides map to tcj_gemm_desc fields (_layout.py) without copies; the calls run on the
# current torch stream of the inputs' device through the torch.library ops of _torch.py.
"""GEMMs on torch tensors through tcj (and on CuPy/JAX arrays through DLPack, see interop).

Every function takes strided views as they are: a matrix whose last dimension has stride 1
(row-major) or whose second-to-last has (column-major, e.g. ``w.t()``), with any leading
dimension, and batches whose leading dimensions collapse into one stride. Anything else raises
ValueError naming the tensor (``.contiguous()`` it first). The output is a new contiguous
tensor, or ``out=`` (row- or column-major). Calls are asynchronous on
``torch.cuda.current_stream()`` of the inputs' device, whose tcj engine is made on first use.

Epilogue keywords: ``bias`` (one value per output column, nn.Linear's; 2n values with
``activation="swiglu"``), ``activation`` (None, "relu", "gelu", "gelu_tanh", "silu",
"swiglu"), ``alpha``/``beta``/``c`` (D = alpha A B + beta C), and a user epilogue:
``epilogue_source`` (CUDA C++ defining tcj.h's TCJ_EPILOGUE_SIGNATURE) with
``epilogue_params`` (an int, usually a device pointer, passed to it as is).

The functions are registered as torch.library ops (``torch.ops.tcj.matmul`` etc.) with fake
implementations and autograd, so torch.compile(fullgraph=True) traces them and CUDA graphs
capture them.
"""

import ctypes

from . import _layout
from ._layout import Info

try:  # torch is the array backend; `import tcj` works without it
    import torch
except ImportError:  # pragma: no cover - exercised by the no-torch CPU test
    torch = None

# Descriptor fields that hold enum member names, and the _lib enum each names.
_ENUM_FIELDS = {
    "op_a": "Op", "op_b": "Op", "a_type": "Dtype", "b_type": "Dtype", "c_type": "Dtype",
    "d_type": "Dtype", "bias_type": "Dtype", "order": "Order", "group_mode": "GroupMode",
    "activation": "Act", "bias_kind": "Bias", "scale_mode": "Scale",
}


def _need_torch():
    if torch is None:
        raise ImportError("tcj's tensor API needs torch (pip install torch); CuPy and JAX "
                          "arrays go through torch.from_dlpack")


def info(name, t):
    """The _layout view of a torch tensor (None stays None)."""
    if t is None:
        return None
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(t).__name__}")
    ptr = t.data_ptr() if t.device.type == "cuda" else 0
    return Info(name, tuple(t.shape), tuple(t.stride()), str(t.dtype).replace("torch.", ""), ptr)


def _dtype_name(dt):
    return None if dt is None else str(dt).replace("torch.", "")


def _device(named):
    """The one CUDA device of the named tensors, or ValueError."""
    dev = None
    for name, t in named:
        if t is None:
            continue
        if t.device.type != "cuda":
            raise ValueError(f"{name}: on {t.device}; tcj runs on CUDA tensors")
        if dev is None:
            dev = t.device
        elif t.device != dev:
            raise ValueError(f"{name}: on {t.device}, the other operands on {dev}")
    return dev


def _apply(desc, plan, keep):
    """Writes a plan's fields into a _lib.GemmDesc (enum names to values, ints to pointers)."""
    from . import _lib
    types = dict(desc._fields_)
    for key, value in plan.items():
        if key in _ENUM_FIELDS:
            value = getattr(_lib, _ENUM_FIELDS[key])[value]
        ftype = types[key]
        if ftype is ctypes.c_char_p:
            value = value.encode() if isinstance(value, str) else value
            keep.append(value)
        elif isinstance(ftype, type) and issubclass(ftype, ctypes._Pointer):
            value = ctypes.cast(ctypes.c_void_p(value), ftype)
        setattr(desc, key, value)


def run(plan, named, epilogue_source=None, epilogue_params=0):
    """Runs a plan on the current stream of the named tensors' device."""
    dev = _device(named)
    from . import _lib
    if epilogue_source is not None:
        plan["epilogue_source"] = epilogue_source
        plan["epilogue_params"] = int(epilogue_params or 0)
    desc = _lib.new_desc()
    keep = []
    _apply(desc, plan, keep)
    index = dev.index if dev.index is not None else torch.cuda.current_device()
    _lib.gemm_ex(index, desc, torch.cuda.current_stream(index).cuda_stream)


# ---- implementations (write into d; called by the torch.library ops) ----------------------

def matmul_into(d, a, b, c=None, bias=None, activation=None, alpha=1.0, beta=0.0,
                epilogue_source=None, epilogue_params=0):
    act = _layout.activation(activation)
    plan = _layout.plan_matmul(info("a", a), info("b", b), info("out", d), c=info("c", c),
                               bias=info("bias", bias), act=act, alpha=alpha, beta=beta)
    run(plan, (("a", a), ("b", b), ("c", c), ("bias", bias), ("out", d)),
        epilogue_source, epilogue_params)


def linear_into(d, x, weight, bias=None, activation=None):
    act = _layout.activation(activation)
    plan = _layout.plan_linear(info("x", x), info("weight", weight), info("out", d),
                               bias=info("bias", bias), act=act)
    run(plan, (("x", x), ("weight", weight), ("bias", bias), ("out", d)))


def scaled_mm_into(d, a, b, scale_a, scale_b, bias=None, scale_d=None, amax=None,
                   scale_mode=None, fast_accum=False):
    plan = _layout.plan_scaled_mm(info("a", a), info("b", b), info("out", d),
                                  info("scale_a", scale_a), info("scale_b", scale_b),
                                  bias=info("bias", bias), scale_d=info("scale_d", scale_d),
                                  amax=info("amax", amax), fast_accum=fast_accum,
                                  mode=scale_mode)
    run(plan, (("a", a), ("b", b), ("scale_a", scale_a), ("scale_b", scale_b),
               ("bias", bias), ("scale_d", scale_d), ("amax", amax), ("out", d)))


def grouped_mm_into(d, a, b, offs=None, counts=None, bias=None, activation=None,
                    row_scale=None, gather=None, gather_rows=0, rows_hint=0, scale_a=None,
                    scale_b=None, scale_mode=None, alpha=1.0):
    act = _layout.activation(activation)
    if gather is not None and not gather_rows:
        gather_rows = a.shape[0]
    plan = _layout.plan_grouped(
        info("a", a), info("b", b), info("out", d), offs=info("offs", offs),
        counts=info("counts", counts), bias=info("bias", bias), act=act,
        row_scale=info("row_scale", row_scale), gather=info("gather", gather),
        gather_rows=gather_rows, rows_hint=rows_hint, scale_a=info("scale_a", scale_a),
        scale_b=info("scale_b", scale_b), scale_mode=scale_mode, alpha=alpha)
    # A gathered a's own rows are the gather_rows it is read from, not the problem's m.
    run(plan, (("a", a), ("b", b), ("offs", offs), ("counts", counts), ("bias", bias),
               ("row_scale", row_scale), ("gather", gather), ("scale_a", scale_a),
               ("scale_b", scale_b), ("out", d)))


# ---- output shapes and dtypes (shared by the ops and their fake implementations) ----------

def _torch_dtype(name):
    return getattr(torch, name)


def matmul_meta(a, b, activation=None, out_dtype=None):
    shape = _layout.matmul_shape(tuple(a.shape), tuple(b.shape), _layout.activation(activation))
    dt = _layout.out_dtype_name(_dtype_name(a.dtype), _dtype_name(out_dtype))
    return shape, _torch_dtype(dt)


def linear_meta(x, weight, activation=None, out_dtype=None):
    shape = _layout.linear_shape(tuple(x.shape), tuple(weight.shape),
                                 _layout.activation(activation))
    dt = _layout.out_dtype_name(_dtype_name(x.dtype), _dtype_name(out_dtype))
    return shape, _torch_dtype(dt)


def grouped_meta(a, b, offs, counts, activation=None, out_dtype=None, gather=None):
    g = (offs if offs is not None else counts).shape[0] if (offs is not None or counts is not None) else 0
    shape = _layout.grouped_shape(_layout.problem_rows_shape(tuple(a.shape), gather), tuple(b.shape),
                                  _layout.activation(activation), masked=g)
    dt = _layout.out_dtype_name(_dtype_name(a.dtype), _dtype_name(out_dtype))
    return shape, _torch_dtype(dt)


def _ops():
    _need_torch()
    from . import _torch  # noqa: F401  registers torch.ops.tcj.*
    return torch.ops.tcj


# ---- the public API -----------------------------------------------------------------------

def matmul(a, b, *, out=None, out_dtype=None, alpha=1.0, beta=0.0, c=None, bias=None,
           activation=None, epilogue_source=None, epilogue_params=0):
    """D = activation(alpha * a @ b + beta * c + bias), torch.matmul's batch broadcasting.

    a [..., m, k], b [..., k, n] (n = 2 * n_out with activation="swiglu": gate columns then up
    columns), c like the output, bias [n] (or [batch, n]). out_dtype: the output's dtype
    (default a's; f16/bf16 operands give f16, bf16 or f32). Differentiable in a, b, c, bias."""
    ops = _ops()
    args = (a, b, c, bias, _layout.activation(activation), float(alpha), float(beta),
            out_dtype, epilogue_source, int(epilogue_params or 0))
    if out is not None:
        ops.matmul_out(*args[:7], epilogue_source, int(epilogue_params or 0), out)
        return out
    return ops.matmul(*args)


def batched_mm(a, b, *, out=None, out_dtype=None, alpha=1.0, beta=0.0, c=None, bias=None,
               activation=None, epilogue_source=None, epilogue_params=0):
    """A strided batch: a [B, m, k] @ b [B, k, n] -> [B, m, n] (a stride-0 dimension, from
    expand(), broadcasts one operand to every entry). Other keywords as matmul."""
    for name, t in (("a", a), ("b", b)):
        if t.dim() != 3:
            raise ValueError(f"{name}: batched_mm takes 3-D tensors, got shape {tuple(t.shape)}")
    return matmul(a, b, out=out, out_dtype=out_dtype, alpha=alpha, beta=beta, c=c, bias=bias,
                  activation=activation, epilogue_source=epilogue_source,
                  epilogue_params=epilogue_params)


def linear(x, weight, bias=None, activation=None, out_dtype=None, out=None):
    """torch.nn.functional.linear with a fused epilogue: activation(x @ weight.T + bias).

    x [..., K], weight [N, K] (nn.Linear's; [2N, K] gate rows then up rows with
    activation="swiglu", vLLM's w13), bias [N] ([2N] with swiglu). Differentiable."""
    ops = _ops()
    act = _layout.activation(activation)
    if out is not None:
        ops.linear_out(x, weight, bias, act, out)
        return out
    return ops.linear(x, weight, bias, act, out_dtype)


def scaled_mm(a, b, scale_a=None, scale_b=None, *, scale_mode=None, out_dtype=None, bias=None,
              scale_d=None, amax=None, fast_accum=False, out=None):
    """torch._scaled_mm for fp8 (e4m3/e5m2) a [m, k] and b [k, n] (b usually w.t()).

    Scales are float32 device tensors: per tensor (one value each), per row (scale_a [m] or
    [m, 1], scale_b [n] or [1, n]) or DeepSeek block scales (scale_a [m, ceil(k/128)], scale_b
    [ceil(n/128), ceil(k/128)]; sm_90a), told apart by their sizes or scale_mode ("tensor",
    "row", "block"). scale_d scales an fp8 output; amax (a float32 [1] tensor) receives
    max |D| before scale_d. out_dtype defaults to bf16."""
    ops = _ops()
    if out is not None:
        ops.scaled_mm_out(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode,
                          bool(fast_accum), out)
        return out
    return ops.scaled_mm(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode,
                         bool(fast_accum), out_dtype)


def grouped_mm(a, b, *, offs=None, counts=None, bias=None, activation=None, row_scale=None,
               gather=None, gather_rows=0, rows_hint=0, scale_a=None, scale_b=None,
               scale_mode=None, out_dtype=None, out=None):
    """Grouped GEMM (Mixture of Experts) with torch._grouped_mm's shapes, in one launch.

    - contiguous groups: a [M, K], b [G, K, N], offs [G] int32 or int64 (end row of each
      group, as torch._grouped_mm) -> [M, N]; group g is rows [offs[g-1], offs[g]). Rows past
      offs[-1] are not written.
    - masked groups: a [G, M, K], b [G, K, N], counts [G] int32 -> [G, M, N]; group g is the
      first counts[g] rows of entry g (the other rows are not written).
    - K groups (weight gradients): a [M, Ktot] (column-major: dy.t()), b [Ktot, N], offs [G]
      -> [G, M, N], out[g] = a[:, K range g] @ b[K range g].

    b [G, K, N] may be nn.Linear weights [G, N, K] transposed (w.transpose(1, 2)) or stored
    [G, K, N]. bias [G, N] (or [N]); activation="swiglu" takes b [G, K, 2N] (gate columns then
    up) and bias [G, 2N] and writes N columns. row_scale: float32 [M] multiplying each output
    row (router weights). gather: int32 [M] rows of a to read (a has gather_rows rows, default
    a.shape[0]). fp8 a/b take scale_a/scale_b (per tensor: scale_b [G]; rowwise: scale_a [M],
    scale_b [G, N]; block). rows_hint: expected rows per group (kernel choice only).
    The sizes stay on the device: no sync, capturable in CUDA graphs. Differentiable for
    contiguous groups (a and b; bias)."""
    ops = _ops()
    act = _layout.activation(activation)
    args = (a, b, offs, counts, bias, act, row_scale, gather, int(gather_rows),
            int(rows_hint), scale_a, scale_b, scale_mode)
    if out is not None:
        ops.grouped_mm_out(*args, out)
        return out
    return ops.grouped_mm(*args, out_dtype)


# Other frameworks' arrays (CuPy, JAX) through DLPack: see tcj.interop.
def _wrap_public():
    from .interop import accepts_arrays
    g = globals()
    for name in ("matmul", "batched_mm", "linear", "scaled_mm", "grouped_mm"):
        g[name] = accepts_arrays(g[name])


_wrap_public()


def warmup(problems, device=None):
    """Runs each problem once on zero-filled tensors, so that its kernel is compiled (and in
    the disk cache) before the first real call or a CUDA-graph capture, then synchronizes.

    problems: an iterable of dicts with "op" ("matmul", "linear" or "grouped_mm"), "m", "n",
    "k", and optionally "dtype" (a torch dtype, default bf16), "activation", "bias" (bool),
    "groups" (grouped_mm: G, with m the total rows) and "out_dtype"; a tuple (m, n, k) is a
    bf16 matmul. A manifest file is the tcj-warmup tool's job (it needs no tensors)."""
    _need_torch()
    if isinstance(problems, (str, bytes)):
        raise ValueError("tcj.warmup takes a list of problems; for a manifest file run the "
                         "tcj-warmup tool")
    dev = torch.device("cuda", torch.cuda.current_device() if device is None else device)
    for p in problems:
        if not isinstance(p, dict):
            m, n, k = p[:3]
            p = {"op": "matmul", "m": m, "n": n, "k": k}
        op, m, n, k = p.get("op", "matmul"), p["m"], p["n"], p["k"]
        dt = p.get("dtype", torch.bfloat16)
        act = p.get("activation")
        ncols = 2 * n if _layout.activation(act) == "swiglu" else n
        z = dict(device=dev, dtype=dt)
        bias = torch.zeros(ncols, **z) if p.get("bias") else None
        if op == "matmul":
            matmul(torch.zeros(m, k, **z), torch.zeros(k, ncols, **z), bias=bias,
                   activation=act, out_dtype=p.get("out_dtype"))
        elif op == "linear":
            linear(torch.zeros(m, k, **z), torch.zeros(ncols, k, **z), bias, activation=act,
                   out_dtype=p.get("out_dtype"))
        elif op == "grouped_mm":
            g = p["groups"]
            offs = torch.full((g,), m, device=dev, dtype=torch.int32)
            grouped_mm(torch.zeros(m, k, **z), torch.zeros(g, ncols, k, **z).transpose(1, 2),
                       offs=offs, bias=None if bias is None else bias.expand(g, ncols),
                       activation=act, out_dtype=p.get("out_dtype"))
        else:
            raise ValueError(f"warmup: op {op!r}: expected matmul, linear or grouped_mm")
    torch.cuda.synchronize(dev)
