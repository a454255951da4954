# SPDX-License-Identifier: Apache-2.0
# torch.library registration of tcj's ops (torch.ops.tcj.*): the real implementations from
# _calls.py, fake implementations (output shape, dtype and strides only) for torch.compile, and
# autograd whose backward GEMMs run through tcj too.
"""torch.ops.tcj.{matmul, linear, scaled_mm, grouped_mm} and their ``_out`` forms.

Imported by tcj.ops on first use. Outputs are new contiguous tensors (fake implementations
return exactly that: ``new_empty(shape, dtype)``). Backward:

- linear: dX = dZ W, dW = dZ^T X (both tcj matmuls on strided views, no transposes copied),
  db = sum of dZ over the rows, with dZ = dY times the activation's derivative at the
  pre-activation Z, which backward recomputes with one more tcj GEMM (fused epilogues keep
  no Z in the forward).
- matmul: dA = alpha dZ B^T, dB = alpha A^T dZ, dC = beta dZ, dbias = sum; broadcast batch
  dimensions summed back. A user epilogue has no derivative (backward raises).
- grouped_mm (contiguous groups): dA by grouped_mm with B transposed, dB by K groups
  (TCJ_GROUP_K_CONTIGUOUS: dB_g = A_g^T dZ_g, or dW_g = dZ_g^T A_g when b is nn.Linear's
  [G, N, K] transposed), dbias per group, d(row_scale); with a gather, B's gradient reads
  a[gather] (one copy) and A's is scattered back with index_add. Masked groups: dA by masked
  grouped_mm, dB by a batched matmul over the rows that exist; K groups: both gradients are
  m-contiguous grouped GEMMs over Ktot. fp8 operands, masked groups with row_scale and K groups
  with an epilogue have no backward (it raises NotImplementedError).
"""

import math
from typing import Optional

import torch
from torch import Tensor

from . import _calls, _layout

_lib_ns = "tcj"


# ---- matmul -------------------------------------------------------------------------------

@torch.library.custom_op("tcj::matmul", mutates_args=())
def matmul(a: Tensor, b: Tensor, c: Optional[Tensor], bias: Optional[Tensor], activation: str,
           alpha: float, beta: float, out_dtype: Optional[torch.dtype],
           epilogue_source: Optional[str], epilogue_params: int,
           compute: Optional[str] = None) -> Tensor:
    return _calls.matmul_new(a, b, c, bias, _layout.activation(activation), alpha, beta,
                             out_dtype, epilogue_source, epilogue_params,
                             _layout.compute(compute))


@matmul.register_fake
def _(a, b, c, bias, activation, alpha, beta, out_dtype, epilogue_source, epilogue_params,
      compute=None):
    shape, dt = _calls.matmul_meta(a, b, activation, out_dtype)
    return a.new_empty(shape, dtype=dt)


@torch.library.custom_op("tcj::matmul_out", mutates_args=("out",))
def matmul_out(a: Tensor, b: Tensor, c: Optional[Tensor], bias: Optional[Tensor],
               activation: str, alpha: float, beta: float, epilogue_source: Optional[str],
               epilogue_params: int, out: Tensor, compute: Optional[str] = None) -> None:
    _calls.matmul_into(out, a, b, c, bias, activation, alpha, beta, epilogue_source,
                       epilogue_params, compute)


@matmul_out.register_fake
def _(a, b, c, bias, activation, alpha, beta, epilogue_source, epilogue_params, out,
      compute=None):
    return None


# ---- linear -------------------------------------------------------------------------------

@torch.library.custom_op("tcj::linear", mutates_args=())
def linear(x: Tensor, weight: Tensor, bias: Optional[Tensor], activation: str,
           out_dtype: Optional[torch.dtype], compute: Optional[str] = None) -> Tensor:
    return _linear_eager(x, weight, bias, activation, out_dtype, compute)


def _linear_eager(x, weight, bias, activation, out_dtype, compute):
    return _calls.linear_new(x, weight, bias, _layout.activation(activation), out_dtype,
                             _layout.compute(compute))


@linear.register_fake
def _(x, weight, bias, activation, out_dtype, compute=None):
    shape, dt = _calls.linear_meta(x, weight, activation, out_dtype)
    return x.new_empty(shape, dtype=dt)


@torch.library.custom_op("tcj::linear_out", mutates_args=("out",))
def linear_out(x: Tensor, weight: Tensor, bias: Optional[Tensor], activation: str,
               out: Tensor, compute: Optional[str] = None) -> None:
    _calls.linear_into(out, x, weight, bias, activation, compute)


@linear_out.register_fake
def _(x, weight, bias, activation, out, compute=None):
    return None


# ---- scaled_mm (fp8; no autograd) ---------------------------------------------------------

@torch.library.custom_op("tcj::scaled_mm", mutates_args=("amax",))
def scaled_mm(a: Tensor, b: Tensor, scale_a: Optional[Tensor], scale_b: Optional[Tensor],
              bias: Optional[Tensor], scale_d: Optional[Tensor], amax: Optional[Tensor],
              scale_mode: Optional[str], fast_accum: bool,
              out_dtype: Optional[torch.dtype]) -> Tensor:
    return _calls.scaled_mm_new(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode,
                                fast_accum, out_dtype)


@scaled_mm.register_fake
def _(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode, fast_accum, out_dtype):
    shape, dt = _calls.matmul_meta(a, b, None, out_dtype)
    return a.new_empty(shape, dtype=dt)


@torch.library.custom_op("tcj::scaled_mm_out", mutates_args=("amax", "out"))
def scaled_mm_out(a: Tensor, b: Tensor, scale_a: Optional[Tensor], scale_b: Optional[Tensor],
                  bias: Optional[Tensor], scale_d: Optional[Tensor], amax: Optional[Tensor],
                  scale_mode: Optional[str], fast_accum: bool, out: Tensor) -> None:
    _calls.scaled_mm_into(out, a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode, fast_accum)


@scaled_mm_out.register_fake
def _(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode, fast_accum, out):
    return None


# ---- grouped_mm ---------------------------------------------------------------------------

@torch.library.custom_op("tcj::grouped_mm", mutates_args=())
def grouped_mm(a: Tensor, b: Tensor, offs: Optional[Tensor], counts: Optional[Tensor],
               bias: Optional[Tensor], activation: str, row_scale: Optional[Tensor],
               gather: Optional[Tensor], gather_rows: int, rows_hint: int,
               scale_a: Optional[Tensor], scale_b: Optional[Tensor], scale_mode: Optional[str],
               out_dtype: Optional[torch.dtype], b_ptrs: Optional[Tensor] = None) -> Tensor:
    return _calls.grouped_mm_new(a, b, offs, counts, bias, _layout.activation(activation),
                                 row_scale, gather, gather_rows, rows_hint, scale_a, scale_b,
                                 scale_mode, out_dtype, b_ptrs)


@grouped_mm.register_fake
def _(a, b, offs, counts, bias, activation, row_scale, gather, gather_rows, rows_hint, scale_a,
      scale_b, scale_mode, out_dtype, b_ptrs=None):
    shape, dt = _calls.grouped_meta(a, b, offs, counts, activation, out_dtype, gather, b_ptrs)
    return a.new_empty(shape, dtype=dt)


@torch.library.custom_op("tcj::grouped_mm_out", mutates_args=("out",))
def grouped_mm_out(a: Tensor, b: Tensor, offs: Optional[Tensor], counts: Optional[Tensor],
                   bias: Optional[Tensor], activation: str, row_scale: Optional[Tensor],
                   gather: Optional[Tensor], gather_rows: int, rows_hint: int,
                   scale_a: Optional[Tensor], scale_b: Optional[Tensor],
                   scale_mode: Optional[str], out: Tensor, b_ptrs: Optional[Tensor] = None,
                   scatter: Optional[Tensor] = None, scatter_mode: str = "store") -> None:
    _calls.grouped_mm_into(out, a, b, offs, counts, bias, activation, row_scale, gather,
                           gather_rows, rows_hint, scale_a, scale_b, scale_mode, b_ptrs=b_ptrs,
                           scatter=scatter, scatter_mode=scatter_mode)


@grouped_mm_out.register_fake
def _(a, b, offs, counts, bias, activation, row_scale, gather, gather_rows, rows_hint, scale_a,
      scale_b, scale_mode, out, b_ptrs=None, scatter=None, scatter_mode="store"):
    return None


# ---- autograd -----------------------------------------------------------------------------

_SQRT1_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_C = math.sqrt(2.0 / math.pi)


def act_backward(act, z, gy):
    """dL/dz of y = act(z) (float32), for tcj's activations; swiglu's z has 2n columns."""
    z = z.float()
    gy = gy.float()
    if act == "none":
        return gy
    if act == "relu":
        return gy * (z > 0)
    if act == "silu":
        s = torch.sigmoid(z)
        return gy * s * (1 + z * (1 - s))
    if act == "gelu":
        return gy * (0.5 * (1 + torch.erf(z * _SQRT1_2)) + z * _INV_SQRT_2PI * torch.exp(-0.5 * z * z))
    if act == "gelu_tanh":
        t = torch.tanh(_GELU_C * (z + 0.044715 * z ** 3))
        return gy * (0.5 * (1 + t) + 0.5 * z * (1 - t * t) * _GELU_C * (1 + 3 * 0.044715 * z * z))
    if act == "swiglu":
        n = z.shape[-1] // 2
        g, u = z[..., :n], z[..., n:]
        s = torch.sigmoid(g)
        return torch.cat((gy * u * s * (1 + g * (1 - s)), gy * g * s), dim=-1)
    raise ValueError(f"activation {act!r}")


def act_forward(act, z):
    """y = act(z) in float32 (for d(row_scale))."""
    z = z.float()
    F = torch.nn.functional
    if act == "swiglu":
        n = z.shape[-1] // 2
        return F.silu(z[..., :n]) * z[..., n:]
    return {"none": lambda v: v, "relu": F.relu, "gelu": F.gelu, "silu": F.silu,
            "gelu_tanh": lambda v: F.gelu(v, approximate="tanh")}[act](z)


def _sum_to(g, shape):
    return g if tuple(g.shape) == tuple(shape) else g.sum_to_size(shape)


def _matmul_setup(ctx, inputs, output):
    a, b, c, bias, activation, alpha, beta, out_dtype, src, params, compute = inputs
    ctx.save_for_backward(a, b, c, bias)
    ctx.args = (activation, alpha, beta, output.dtype, src, compute)


def _matmul_backward(ctx, gy):
    a, b, c, bias = ctx.saved_tensors
    act, alpha, beta, zdt, src, compute = ctx.args
    if src is not None:
        raise NotImplementedError("tcj.matmul: a user epilogue (epilogue_source) has no backward")
    gz = gy
    if act != "none":
        z = torch.ops.tcj.matmul(a, b, c, bias, "none", alpha, beta, zdt, None, 0, compute)
        gz = act_backward(act, z, gy)
    g = gz.to(a.dtype).contiguous()
    da = db = dc = dbias = None
    need = ctx.needs_input_grad
    if need[0]:
        da = _sum_to(torch.ops.tcj.matmul(g, b.mT, None, None, "none", alpha, 0.0, a.dtype,
                                          None, 0, compute), a.shape)
    if need[1]:
        db = _sum_to(torch.ops.tcj.matmul(a.mT, g, None, None, "none", alpha, 0.0, b.dtype,
                                          None, 0, compute), b.shape)
    if c is not None and need[2]:
        dc = _sum_to((gz * beta).to(c.dtype), c.shape)
    if bias is not None and need[3]:
        n = gz.shape[-1]
        if bias.dim() == 1:
            dbias = gz.reshape(-1, n).float().sum(0).to(bias.dtype)
        else:
            dbias = gz.reshape(bias.shape[0], -1, n).float().sum(1).to(bias.dtype)
    return da, db, dc, dbias, None, None, None, None, None, None, None


matmul.register_autograd(_matmul_backward, setup_context=_matmul_setup)


def _linear_setup(ctx, inputs, output):
    x, weight, bias, activation, out_dtype, compute = inputs
    ctx.save_for_backward(x, weight, bias)
    ctx.args = (activation, output.dtype, compute)


def _linear_backward(ctx, gy):
    x, w, bias = ctx.saved_tensors
    act, zdt, compute = ctx.args
    gz = gy
    if act != "none":
        z = torch.ops.tcj.linear(x, w, bias, "none", zdt, compute)
        gz = act_backward(act, z, gy)
    k, n = w.shape[1], w.shape[0]
    g2 = gz.reshape(-1, n).to(x.dtype).contiguous()
    dx = dw = db = None
    need = ctx.needs_input_grad
    if need[0]:
        dx = torch.ops.tcj.matmul(g2, w, None, None, "none", 1.0, 0.0, x.dtype, None, 0,
                                  compute)
        dx = dx.reshape(x.shape)
    if need[1]:
        x2 = x.reshape(-1, k)
        dw = torch.ops.tcj.matmul(g2.t(), x2, None, None, "none", 1.0, 0.0, w.dtype, None, 0,
                                  compute)
    if bias is not None and need[2]:
        db = gz.reshape(-1, n).float().sum(0).to(bias.dtype)
    return dx, dw, db, None, None, None


linear.register_autograd(_linear_backward, setup_context=_linear_setup)


class LinearFunction(torch.autograd.Function):
    """tcj::linear's forward and autograd for eager calls that autograd records (ops.linear):
    the same implementation, setup and backward as the op, without its dispatch. Its forward
    takes ctx itself (no setup_context): with a setup_context, Function.apply binds the
    arguments to forward's signature through inspect on every call, which cost 28 of a 33 us
    call (torch 2.15, CPU; the old form 5 us)."""

    @staticmethod
    def forward(ctx, x, weight, bias, activation, out_dtype, compute):
        out = _linear_eager(x, weight, bias, activation, out_dtype, compute)
        _linear_setup(ctx, (x, weight, bias, activation, out_dtype, compute), out)
        return out

    @staticmethod
    def backward(ctx, gy):
        return _linear_backward(ctx, gy)


def _grouped_setup(ctx, inputs, output):
    (a, b, offs, counts, bias, activation, row_scale, gather, gather_rows, rows_hint, scale_a,
     scale_b, scale_mode, out_dtype, b_ptrs) = inputs
    ctx.save_for_backward(a, b, offs, counts, bias, row_scale, gather)
    ctx.args = (activation, output.dtype, rows_hint)
    k_groups = a.dim() == 2 and b.dim() == 2
    ctx.form = "masked" if counts is not None else "k" if k_groups else "contiguous"
    ctx.unsupported = (
        "B by a pointer array (a list of B tensors)" if b_ptrs is not None else
        "fp8 operands" if scale_a is not None or scale_b is not None or
        a.dtype in (torch.float8_e4m3fn, torch.float8_e5m2) else
        "masked groups with row_scale" if counts is not None and row_scale is not None else
        "K groups with an epilogue (bias, activation, row_scale)" if k_groups and (
            bias is not None or row_scale is not None or activation != "none") else None)


def _masked_backward(ctx, gy):
    """Masked groups: a [G, M, K], b [G, K, N], rows i >= counts[g] neither read nor written.
    dA by masked grouped_mm with B transposed; dB_g = A_g^T dZ_g as one batched matmul over
    max_m rows with the rows past each count zeroed in both (their a may hold anything)."""
    a, b, _, counts, bias, _, _ = ctx.saved_tensors
    act, zdt, hint = ctx.args
    need = ctx.needs_input_grad
    rows = torch.arange(a.shape[1], device=a.device, dtype=counts.dtype)
    valid = (rows[None, :] < counts[:, None]).unsqueeze(2)  # [G, M, 1]
    gz = gy.float()
    if act != "none":
        z = torch.ops.tcj.grouped_mm(a, b, None, counts, bias, "none", None, None, 0, hint, None,
                                     None, None, zdt)
        gz = act_backward(act, z, gz)
    gz = torch.where(valid, gz, 0)
    g = gz.to(a.dtype).contiguous()
    da = db = dbias = None
    if need[0]:
        da = torch.ops.tcj.grouped_mm(g, b.transpose(1, 2), None, counts, None, "none", None,
                                      None, 0, hint, None, None, None, a.dtype)
        da = torch.where(valid, da, 0)
    if need[1]:
        a0 = torch.where(valid, a, 0)
        db = torch.ops.tcj.matmul(a0.transpose(1, 2), g, None, None, "none", 1.0, 0.0, b.dtype,
                                  None, 0)
    if bias is not None and need[4]:
        per_group = gz.sum(1)  # [G, N]
        dbias = per_group if bias.dim() == 2 and bias.shape[0] == per_group.shape[0] \
            else per_group.sum(0)
        dbias = dbias.reshape(bias.shape).to(bias.dtype)
    return (da, db, None, None, dbias, None, None, None, None, None, None, None, None, None, None)


def _k_backward(ctx, gy):
    """K groups: out[g] = a[:, Kg] @ b[Kg, :] with a [M, Ktot], b [Ktot, N], K range g from
    offs. Both gradients are m-contiguous grouped GEMMs over the Ktot rows: dA^T[Kg] =
    b[Kg] dY_g^T and dB[Kg] = a[:, Kg]^T dY_g; rows past offs[-1] were never read (0)."""
    a, b, offs, _, _, _, _ = ctx.saved_tensors
    need = ctx.needs_input_grad
    ktot = b.shape[0]
    rows = torch.arange(ktot, device=b.device, dtype=offs.dtype)
    valid = (rows < offs[-1]).unsqueeze(1) if offs.numel() else torch.zeros(
        ktot, 1, dtype=torch.bool, device=b.device)
    g = gy.to(a.dtype)
    da = db = None
    if need[0]:
        dat = torch.ops.tcj.grouped_mm(b.to(a.dtype), g.transpose(1, 2), offs, None, None, "none",
                                       None, None, 0, 0, None, None, None, a.dtype)
        da = torch.where(valid, dat, 0).t()
    if need[1]:
        at = a.t() if a.stride(0) == 1 else a.t().contiguous()
        dbk = torch.ops.tcj.grouped_mm(at, g.to(b.dtype), offs, None, None, "none", None, None,
                                       0, 0, None, None, None, b.dtype)
        db = torch.where(valid, dbk, 0)
    return (da, db, None, None, None, None, None, None, None, None, None, None, None, None, None)


def _grouped_backward(ctx, gy):
    if ctx.unsupported:
        raise NotImplementedError(f"tcj.grouped_mm: no backward for {ctx.unsupported}")
    if ctx.form == "masked":
        return _masked_backward(ctx, gy)
    if ctx.form == "k":
        return _k_backward(ctx, gy)
    a_in, b, offs, _, bias, row_scale, gather = ctx.saved_tensors
    act, zdt, hint = ctx.args
    need = ctx.needs_input_grad
    m = gy.shape[0]
    rows = torch.arange(m, device=a_in.device, dtype=offs.dtype)
    valid = (rows < offs[-1]).unsqueeze(1) if offs.numel() else torch.zeros(
        m, 1, dtype=torch.bool, device=a_in.device)
    a = a_in
    if gather is not None:
        # The problem's rows a[gather] (one copy, for the recompute and B's gradient); the
        # indices of rows past the last end are never read by the forward, so not here either.
        safe = torch.where(valid[:, 0], gather, 0)
        a = a_in.index_select(0, safe)
    gz = gy.float()
    drs = None
    if act != "none" or (row_scale is not None and need[6]):
        z = torch.ops.tcj.grouped_mm(a, b, offs, None, bias, "none", None, None, 0, hint, None,
                                     None, None, zdt)
        if row_scale is not None and need[6]:
            drs = torch.where(valid, gz * act_forward(act, z), 0).sum(1).to(row_scale.dtype)
        if row_scale is not None:
            gz = gz * row_scale.float().unsqueeze(1)
        gz = act_backward(act, z, gz)
    elif row_scale is not None:
        gz = gz * row_scale.float().unsqueeze(1)
    # Rows past the last end were never written in the forward: their gradient is 0.
    gz = torch.where(valid, gz, 0)
    g = gz.to(a.dtype).contiguous()
    da = db = dbias = None
    if need[0]:
        da = torch.ops.tcj.grouped_mm(g, b.transpose(1, 2), offs, None, None, "none", None, None,
                                      0, hint, None, None, None, a.dtype)
        da = torch.where(valid, da, 0)
        if gather is not None:  # each row's gradient back to the row of a it was read from
            da = torch.zeros(a_in.shape, dtype=torch.float32, device=a_in.device).index_add_(
                0, safe, da.float()).to(a_in.dtype)
    if need[1]:
        if b.stride(1) == 1 and b.shape[1] > 1:  # nn.Linear's [G, N, K] seen as [G, K, N]
            dwt = torch.ops.tcj.grouped_mm(g.t(), a.contiguous(), offs, None, None, "none", None,
                                           None, 0, 0, None, None, None, b.dtype)
            db = dwt.transpose(1, 2)
        else:
            db = torch.ops.tcj.grouped_mm(a.t() if a.stride(1) == 1 else a.contiguous().t(), g,
                                          offs, None, None, "none", None, None, 0, 0, None,
                                          None, None, b.dtype)
    if bias is not None and need[4]:
        ng = offs.shape[0]
        gid = torch.searchsorted(offs, rows, right=True).clamp_(max=ng)
        acc = torch.zeros(ng + 1, gz.shape[1], dtype=torch.float32, device=gz.device)
        acc.index_add_(0, gid, gz)
        dbias = acc[:ng] if bias.dim() == 2 and bias.shape[0] == ng else acc[:ng].sum(0)
        dbias = dbias.reshape(bias.shape).to(bias.dtype)
    return (da, db, None, None, dbias, None, drs, None, None, None, None, None, None, None, None)


grouped_mm.register_autograd(_grouped_backward, setup_context=_grouped_setup)
