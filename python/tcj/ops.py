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

from . import _layout
from ._calls import (_need_torch, matmul_into, linear_into, scaled_mm_into, grouped_mm_into,
                     matmul_new, linear_new, scaled_mm_new, grouped_mm_new, torch)


def _eager(*tensors, recorded=False):
    """Whether a call may run its implementation directly instead of through its torch.library
    op: not under torch.compile's tracing, no torch function or dispatch mode active (each
    must see the op), plain CUDA tensors only, none that autograd must record (recorded=True:
    autograd may record them, the caller going through an autograd.Function of its own). The
    direct call saves the op's dispatch and runs the same code. (is_cuda rather than
    device.type: no torch.device made per tensor.)"""
    if torch is None or torch.compiler.is_compiling():
        return False
    C = torch._C
    if C._is_torch_function_mode_enabled() or C._len_torch_dispatch_stack():
        return False
    grad = not recorded and torch.is_grad_enabled()
    for t in tensors:
        if t is None:
            continue
        if type(t) not in _PLAIN or not t.is_cuda or (grad and t.requires_grad):
            return False
    return True


_PLAIN = (torch.Tensor, torch.nn.Parameter) if torch is not None else ()


def _ops():
    _need_torch()
    from . import _torch  # noqa: F401  registers torch.ops.tcj.*
    return torch.ops.tcj


# ---- the public API -----------------------------------------------------------------------

def matmul(a, b, *, out=None, out_dtype=None, alpha=1.0, beta=0.0, c=None, bias=None,
           activation=None, epilogue_source=None, epilogue_params=0, compute=None):
    """D = activation(alpha * a @ b + beta * c + bias), torch.matmul's batch broadcasting.

    a [..., m, k], b [..., k, n] (n = 2 * n_out with activation="swiglu": gate columns then up
    columns), c like the output, bias [n] (or [batch, n]). out_dtype: the output's dtype
    (default a's; f16/bf16 operands give f16, bf16 or f32). compute: how float32 products are
    formed: None (the library's choice: fp32 accuracy for float32 operands), "f32", "3xtf32"
    or "tf32" (tf32 products, fp32 sums: about 1e-3 relative error, the tensor cores' tf32
    rate). Differentiable in a, b, c, bias (the backward GEMMs use the same compute)."""
    act = _layout.activation(activation)
    comp = _layout.compute(compute)  # a bad name fails here, before any dispatch
    if _eager(a, b, c, bias, out):
        if out is None:
            return matmul_new(a, b, c, bias, act, alpha, beta, out_dtype, epilogue_source,
                              epilogue_params, comp)
        matmul_into(out, a, b, c, bias, act, alpha, beta, epilogue_source, epilogue_params,
                    compute)
        return out
    ops = _ops()
    args = (a, b, c, bias, act, float(alpha), float(beta),
            out_dtype, epilogue_source, int(epilogue_params or 0))
    if out is not None:
        ops.matmul_out(*args[:7], epilogue_source, int(epilogue_params or 0), out, compute)
        return out
    return ops.matmul(*args, compute)


def batched_mm(a, b, *, out=None, out_dtype=None, alpha=1.0, beta=0.0, c=None, bias=None,
               activation=None, epilogue_source=None, epilogue_params=0, compute=None):
    """A strided batch: a [B, m, k] @ b [B, k, n] -> [B, m, n] (a stride-0 dimension, from
    expand(), broadcasts one operand to every entry). Other keywords as matmul."""
    for name, t in (("a", a), ("b", b)):
        if t.dim() != 3:
            raise ValueError(f"{name}: batched_mm takes 3-D tensors, got shape {tuple(t.shape)}")
    return matmul(a, b, out=out, out_dtype=out_dtype, alpha=alpha, beta=beta, c=c, bias=bias,
                  activation=activation, epilogue_source=epilogue_source,
                  epilogue_params=epilogue_params, compute=compute)


def linear(x, weight, bias=None, activation=None, out_dtype=None, out=None, compute=None):
    """torch.nn.functional.linear with a fused epilogue: activation(x @ weight.T + bias).

    x [..., K], weight [N, K] (nn.Linear's; [2N, K] gate rows then up rows with
    activation="swiglu", vLLM's w13), bias [N] ([2N] with swiglu). compute: as matmul's
    (float32 x and weight). Differentiable."""
    act, comp = _layout.activation(activation), _layout.compute(compute)
    if _eager(x, weight, bias, out):
        if out is None:
            return linear_new(x, weight, bias, act, out_dtype, comp)
        linear_into(out, x, weight, bias, act, compute)
        return out
    if out is None and _eager(x, weight, bias, recorded=True):
        # Autograd records this call: torch.autograd.Function costs a tenth of the custom op's
        # autograd dispatch per call (python/bench/host_overhead.py), same forward and backward.
        from ._torch import LinearFunction
        return LinearFunction.apply(x, weight, bias, act, out_dtype, compute)
    ops = _ops()
    if out is not None:
        ops.linear_out(x, weight, bias, act, out, compute)
        return out
    return ops.linear(x, weight, bias, act, out_dtype, compute)


def scaled_mm(a, b, scale_a=None, scale_b=None, *, scale_mode=None, out_dtype=None, bias=None,
              scale_d=None, amax=None, fast_accum=False, out=None):
    """torch._scaled_mm for fp8 (e4m3/e5m2) a [m, k] and b [k, n] (b usually w.t()).

    Scales are float32 device tensors: per tensor (one value each), per row (scale_a [m] or
    [m, 1], scale_b [n] or [1, n]) or DeepSeek block scales (scale_a [m, ceil(k/128)], scale_b
    [ceil(n/128), ceil(k/128)]; sm_90a), told apart by their sizes or scale_mode ("tensor",
    "row", "block"). scale_d scales an fp8 output; amax (a float32 [1] tensor) receives
    max |D| before scale_d. out_dtype defaults to bf16."""
    if _eager(a, b, scale_a, scale_b, bias, scale_d, amax, out):
        if out is None:
            return scaled_mm_new(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode,
                                 fast_accum, out_dtype)
        scaled_mm_into(out, a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode, fast_accum)
        return out
    ops = _ops()
    if out is not None:
        ops.scaled_mm_out(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode,
                          bool(fast_accum), out)
        return out
    return ops.scaled_mm(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode,
                         bool(fast_accum), out_dtype)


def _b_list(b, b_ptrs):
    """B given as G tensors (one per group, as experts allocated apart): the first, whose layout
    every one must share, and the device array of their addresses (cached per list)."""
    if b_ptrs is not None:
        raise ValueError("b_ptrs: give B as a list of tensors or as b_ptrs with one group's "
                         "B, not both")
    if not b:
        raise ValueError("b: an empty list of B tensors")
    if torch.compiler.is_compiling():  # traced tensors have no addresses to list
        raise ValueError("b: a list of B tensors is not traced by torch.compile; pass b_ptrs= "
                         "(an int64 tensor of their addresses, made outside) and one group's B")
    first = b[0]
    for i, t in enumerate(b):
        if not isinstance(t, torch.Tensor) or t.dim() != 2:
            raise ValueError(f"b[{i}]: each group's B is a 2-D tensor [K, N]")
        if (t.shape, t.stride(), t.dtype, t.device) != (first.shape, first.stride(), first.dtype,
                                                         first.device):
            raise ValueError(f"b[{i}]: shape {tuple(t.shape)}, strides {t.stride()}, {t.dtype} "
                             f"on {t.device}; b[0] has {tuple(first.shape)}, {first.stride()}, "
                             f"{first.dtype} on {first.device} (every group's B has one layout)")
    from ._calls import pointer_array
    return first, pointer_array(b)


def grouped_mm(a, b, *, offs=None, counts=None, bias=None, activation=None, row_scale=None,
               gather=None, gather_rows=0, rows_hint=0, scale_a=None, scale_b=None,
               scale_mode=None, out_dtype=None, out=None, b_ptrs=None, scatter=None,
               scatter_add=None):
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
    B apart per group (M groups): b a list of G tensors [K, N] of one layout (views like
    w.t() included), whose addresses tcj copies to the device once per list and keeps (a list
    must be called once before a CUDA graph captures it); or b_ptrs, an int64 [G] CUDA tensor
    of addresses that the caller keeps, with b one group's B giving the layout.
    The MoE combine (contiguous groups; out= then required, [R, N] of any R, and returned;
    an index outside [0, R) writes nothing):
    - scatter: int32 [M], row r of the result is stored to row scatter[r] of out. With the
      expert sort's permutation (row r came from flat position order[r] of [tokens, top_k])
      a token's rows land side by side: out.view(tokens, top_k, N).sum(1) is the combine,
      deterministic. Indices should differ.
    - scatter_add: int32 [M], row r is added into row scatter_add[r] of out, a float32 that
      holds what to add to (zeros, or a residual), by atomic adds (the order of the additions
      is unspecified, as index_add_'s): the combine in the GEMM itself.
    The sizes stay on the device: no sync, capturable in CUDA graphs. Differentiable for
    contiguous, masked and K groups (a and b; bias), B as one tensor (not with scatter_add)."""
    act = _layout.activation(activation)
    if scatter is not None and scatter_add is not None:
        raise ValueError("tcj.grouped_mm: scatter (store) or scatter_add, not both")
    scatter_mode = "add" if scatter_add is not None else "store"
    if scatter is None:
        scatter = scatter_add
    if scatter is not None and out is None:
        raise ValueError("tcj.grouped_mm: scattered rows go into out: pass out=, a [rows, N] tensor "
                         "(float32 zeros for scatter_add's plain combine)")
    if isinstance(b, (list, tuple)):
        _need_torch()
        b, b_ptrs = _b_list(b, b_ptrs)
    if _eager(a, b, offs, counts, bias, row_scale, gather, scale_a, scale_b, out, b_ptrs,
              scatter):
        if out is None:
            return grouped_mm_new(a, b, offs, counts, bias, act, row_scale, gather, gather_rows,
                                  rows_hint, scale_a, scale_b, scale_mode, out_dtype, b_ptrs)
        grouped_mm_into(out, a, b, offs, counts, bias, act, row_scale, gather, gather_rows,
                        rows_hint, scale_a, scale_b, scale_mode, b_ptrs=b_ptrs,
                        scatter=scatter, scatter_mode=scatter_mode)
        return out
    ops = _ops()
    args = (a, b, offs, counts, bias, act, row_scale, gather, int(gather_rows),
            int(rows_hint), scale_a, scale_b, scale_mode)
    if out is not None:
        ops.grouped_mm_out(*args, out, b_ptrs, scatter, scatter_mode)
        return out
    return ops.grouped_mm(*args, out_dtype, b_ptrs)


# Other frameworks' arrays (CuPy, JAX) through DLPack: see tcj.interop.
def _wrap_public():
    from .interop import accepts_arrays
    g = globals()
    for name in ("matmul", "batched_mm", "linear", "scaled_mm", "grouped_mm"):
        g[name] = accepts_arrays(g[name])


_wrap_public()


def _warmup_grouped_extras(p, m, n, dev, dt):
    """grouped_mm's keywords for a warmup problem's rows_hint, row_scale, gather and scatter
    (zeros: every row reads row 0 and lands in row 0 of out)."""
    kw = {"rows_hint": int(p.get("rows_hint", 0))}
    rows = dict(device=dev, dtype=torch.int32)
    if p.get("row_scale"):
        kw["row_scale"] = torch.zeros(m, device=dev, dtype=torch.float32)
    if p.get("gather"):
        kw["gather"] = torch.zeros(m, **rows)
    scatter = p.get("scatter")
    if scatter is None:
        return kw
    if scatter not in ("store", "add"):
        raise ValueError(f"warmup: scatter {scatter!r}: expected 'store' or 'add'")
    d_type = torch.float32 if scatter == "add" else p.get("out_dtype") or dt
    kw["out"] = torch.zeros(m, n, device=dev, dtype=d_type)
    kw["scatter" if scatter == "store" else "scatter_add"] = torch.zeros(m, **rows)
    return kw


def warmup(problems, device=None):
    """Compiles kernels ahead of the first real call or a CUDA-graph capture.

    problems: a manifest (a path: str, bytes or os.PathLike), which the tcj-warmup tool
    compiles into the disk cache (see tcj._warmup_tool for where the tool is looked for);
    returns its summary {"compiled", "hit", "failed", "seconds"}. Or an iterable of problems,
    each run once on zero-filled tensors, then a synchronize; each is a dict with "op"
    ("matmul", "linear" or "grouped_mm"), "m", "n", "k", and optionally "dtype" (a torch
    dtype, default bf16), "activation", "bias" (bool), "groups" (grouped_mm: G, with m the
    total rows) and "out_dtype"; a tuple (m, n, k) is a bf16 matmul. grouped_mm also takes
    what picks its kernel: "rows_hint" (as the call's), "row_scale" and "gather" (bool), and
    "scatter" ("store" or "add": the combine into out, float32 for "add"). device: a CUDA
    device index (default the current one)."""
    import os
    if isinstance(problems, (str, bytes, os.PathLike)):
        from ._warmup_tool import run_manifest
        return run_manifest(problems, device)
    _need_torch()
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
                       activation=act, out_dtype=p.get("out_dtype"),
                       **_warmup_grouped_extras(p, m, n, dev, dt))
        else:
            raise ValueError(f"warmup: op {op!r}: expected matmul, linear or grouped_mm")
    torch.cuda.synchronize(dev)
