# SPDX-License-Identifier: Apache-2.0
# The calls under tcj's tensor ops: torch tensors to _layout's views, a plan's fields into a
# tcj_gemm_desc, the call on the inputs' device and current stream (the *_into functions), and
# the output shapes and dtypes (*_meta) that the real and the fake implementations share. Used by
# ops.py (the public functions) and _torch.py (the torch.library ops), which import this and not
# each other's internals.
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
