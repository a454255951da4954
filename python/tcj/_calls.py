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
    "scatter_mode": "ScatterMode",
    "activation": "Act", "bias_kind": "Bias", "scale_mode": "Scale",
    "compute": "Compute",
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


# ---- plans cached by layout -----------------------------------------------------------------
# Building a plan (strides to descriptor fields, checks, enum names to values, some 40 field
# writes) is Python work; a model calls the same few layouts over and over. So a plan is built
# once per layout key (the op, its scalars, and each tensor's shape, strides, dtype and device)
# with stand-in addresses, and kept as a filled GemmDesc plus where each tensor's address goes:
# a call copies that descriptor, writes the addresses and launches. The plan functions of
# _layout read addresses only to copy them (plus an offset) into pointer fields, so a plan
# built on stand-ins is the plan of any tensors of the same layout. Stand-ins are
# (i + 1) << 56, beyond any 48- or 57-bit virtual address, so no scalar pointer field
# (epilogue_params) is mistaken for one.

_STAND_IN_SHIFT = 56
_PLAN_CACHE_MAX = 4096
_plans = {}


class _Plan:
    """A layout's plan as _fastcall.run takes it, run = (the filled descriptor's bytes,
    ((byte offset, tensor slot, bytes added), ...) for each tensor address, engine address,
    device index), and keep: what the descriptor's pointers point into. A plan of
    launch_new's also has new = (callable, args, kwargs), which makes the call's output."""
    __slots__ = ("run", "keep", "new")

    def __init__(self, run, keep, new=None):
        self.run, self.keep, self.new = run, keep, new


def _layout_of(t):
    # get_device(): the index as an int (cheaper to make and hash than a torch.device).
    return None if t is None else (t.shape, t.stride(), t.dtype, t.get_device())


def _engine_address(index):
    from . import _lib
    return _lib.engine(index).value


def _prepare(names, tensors, build, epilogue_source, epilogue_params):
    """Builds the cached form of build(info) for the tensors (names: each one's, in order),
    checking devices and everything _layout checks."""
    from . import _lib
    named = tuple(zip(names, tensors))
    # By position (each has its own name), not by tensor: a plan built for matmul(x, x) must not
    # send b's address to a when a later call of that layout passes two tensors.
    slot = {name: i for i, name in enumerate(names)}

    def stand_in(name, t):
        if t is None:
            return None
        view = info(name, t)
        return view._replace(ptr=(slot[name] + 1) << _STAND_IN_SHIFT)

    plan = build(stand_in)
    dev = _device(named)
    keep = []
    fields = []
    for key, value in list(plan.items()):
        if isinstance(value, int) and value >> _STAND_IN_SHIFT > 0 and key not in _ENUM_FIELDS:
            fields.append((key, (value >> _STAND_IN_SHIFT) - 1,
                           value & ((1 << _STAND_IN_SHIFT) - 1)))
            plan[key] = 0
    if epilogue_source is not None:
        plan["epilogue_source"] = epilogue_source
        plan["epilogue_params"] = int(epilogue_params or 0)
    desc = _lib.new_desc()
    _apply(desc, plan, keep)
    index = dev.index if dev.index is not None else torch.cuda.current_device()
    offsets = tuple((getattr(_lib.GemmDesc, f).offset, i, add) for f, i, add in fields)
    return _Plan((bytes(desc), offsets, _engine_address(index), index), keep)


def _new_plan(full, names, tensors, build, epilogue_source, epilogue_params):
    p = _prepare(names, tensors, build, epilogue_source, epilogue_params)
    if len(_plans) >= _PLAN_CACHE_MAX:
        _plans.clear()
    _plans[full] = p
    return p


def launch(key, names, tensors, build, epilogue_source=None, epilogue_params=0):
    """Runs build(info)'s plan for tensors (a tuple; names: each one's, for messages) on their
    device's current stream, through the plan cache. key: the op and its scalars (hashable);
    the tensors' layouts are added here. The per-call steps run in _fastcall (C) when it was
    built, else here: the same key, descriptor and call."""
    fast = _fast
    if fast is _NOT_LOADED:
        fast = _set_fastcall()
    head = (key, epilogue_source, epilogue_params)
    if fast is not None:
        status = fast.call(_plans, head, tensors)  # the plan's status, or its key on a miss
        if not status:
            return
        if status.__class__ is int:
            _lib_check(status)
        p = _new_plan(status, names, tensors, build, epilogue_source, epilogue_params)
        status = fast.run(p.run, tensors)
        if status:
            _lib_check(status)
        return
    full = head + tuple([_layout_of(t) for t in tensors])
    p = _plans.get(full)
    if p is None:
        p = _new_plan(full, names, tensors, build, epilogue_source, epilogue_params)
    _run_python(p, tensors)


# Plans of launch_new, keyed by the inputs' layouts alone (the output's follows from them).
_new_plans = {}


def launch_new(key, names, inputs, on_miss, epilogue_source=None, epilogue_params=0):
    """launch for a call that makes its output: names are the inputs' and last the output's;
    on_miss() -> (shape, dtype, build): the output's (a contiguous tensor on the first input's
    device) and build(out), launch's build for it, called only when no plan is cached (so a
    repeated call makes no closures beyond on_miss). The plan, cached by the inputs' layouts and
    key (which must fix the output's shape and dtype), keeps how to make the output, so that
    with _fastcall a repeated call is one crossing: the key, the lookup, torch.empty, the
    addresses and tcj_gemm_ex. Returns the output."""
    fast = _fast
    if fast is _NOT_LOADED:
        fast = _set_fastcall()
    head = (key, epilogue_source, epilogue_params)
    if fast is not None:
        got = fast.call_new(_new_plans, head, inputs)  # the output, a status, or the key
        if got.__class__ is not tuple:
            if got.__class__ is int:
                _lib_check(got)
            return got
        full = got
    else:
        full = head + tuple([_layout_of(t) for t in inputs])
        p = _new_plans.get(full)
        if p is not None:
            make, args, kwargs = p.new
            out = make(*args, **kwargs)
            _run_python(p, inputs + (out,))
            return out
    shape, dt, build = on_miss()
    out = torch.empty(shape, dtype=dt, device=inputs[0].device)
    tensors = inputs + (out,)
    p = _prepare(names, tensors, build(out), epilogue_source, epilogue_params)
    # The sizes as separate arguments: torch's parser takes them 0.4 us faster than one tuple
    # (torch 2.15, CPU); a 0-d output has none to give.
    p.new = (torch.empty, tuple(shape) or ((),), {"dtype": dt, "device": out.device})
    if len(_new_plans) >= _PLAN_CACHE_MAX:
        _new_plans.clear()
    _new_plans[full] = p
    if fast is not None:
        status = fast.run(p.run, tensors)
        if status:
            _lib_check(status)
    else:
        _run_python(p, tensors)
    return out


def _lib_check(status):
    from . import _lib
    _lib.check(status, "tcj_gemm_ex")


def _run_python(p, tensors):
    """A plan's call without _fastcall: its descriptor, the tensors' addresses, ctypes."""
    from . import _lib
    desc_bytes, offsets, _, index = p.run
    desc = _lib.GemmDesc.from_buffer_copy(desc_bytes)
    for offset, i, added in offsets:
        ctypes.c_uint64.from_buffer(desc, offset).value = tensors[i].data_ptr() + added
    _lib.gemm_ex(index, desc, _current_stream(index))


# The current stream as an int without making a torch.cuda.Stream (looked up once, not per call).
_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) if torch is not None else None


def _current_stream(index):
    if _raw_stream is not None:
        return _raw_stream(index)
    return torch.cuda.current_stream(index).cuda_stream


def _load_fastcall():
    """tcj._fastcall configured with tcj_gemm_ex's address, or None: when TCJ_FASTCALL=0, when
    it was not built, or when the library cannot be opened (the first call says why)."""
    import os
    if os.environ.get("TCJ_FASTCALL", "1") == "0" or torch is None:
        return None
    mod = _fastcall_module()
    if mod is None:
        return None
    from . import _lib
    try:
        address = ctypes.cast(_lib.lib().tcj_gemm_ex, ctypes.c_void_p).value
    except _lib.TcjError:
        return None
    mod.configure(address, _raw_stream or _current_stream)
    return mod


def _fastcall_module():
    """The module: the package's own (pip install .), else a build tree's beside $TCJ_LIBRARY
    (a source tree used in place), else None."""
    import os
    try:
        from . import _fastcall
        return _fastcall
    except ImportError:
        return _fastcall_from_build_tree(os.environ.get("TCJ_LIBRARY"))


def _fastcall_from_build_tree(library):
    import glob
    import importlib.util
    import os
    if not library:
        return None
    found = glob.glob(os.path.join(os.path.dirname(os.path.abspath(library)), "python", "tcj",
                                   "_fastcall*.so"))
    if not found:
        return None
    spec = importlib.util.spec_from_file_location(__package__ + "._fastcall", found[0])
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except ImportError:
        return None
    return mod


# tcj._fastcall once the first call loaded it (None: the Python steps), not at import: loading
# it opens the library, which `import tcj` does not.
_NOT_LOADED = object()
_fast = _NOT_LOADED


def _set_fastcall():
    global _fast
    _fast = _load_fastcall()
    return _fast


# ---- implementations (write into d; called by the torch.library ops) ----------------------

# Each op's tensors, in the order its calls pass them to launch (names for messages).
_MATMUL = ("a", "b", "c", "bias", "out")
_LINEAR = ("x", "weight", "bias", "out")
_SCALED_MM = ("a", "b", "scale_a", "scale_b", "bias", "scale_d", "amax", "out")
_GROUPED_MM = ("a", "b", "offs", "counts", "bias", "row_scale", "gather", "scale_a", "scale_b",
               "b_ptrs", "scatter", "out")

# Each op's plan for an output d: a function of d giving launch's build (so that the _into
# calls, given d, and the _new calls, which make it, plan alike).

def _matmul_plan(a, b, c, bias, act, alpha, beta, comp):
    return lambda d: lambda info: _layout.plan_matmul(
        info("a", a), info("b", b), info("out", d), c=info("c", c), bias=info("bias", bias),
        act=act, alpha=alpha, beta=beta, compute=comp)


def _linear_plan(x, weight, bias, act, comp):
    return lambda d: lambda info: _layout.plan_linear(
        info("x", x), info("weight", weight), info("out", d), bias=info("bias", bias), act=act,
        compute=comp)


def _scaled_mm_plan(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode, fast_accum):
    return lambda d: lambda info: _layout.plan_scaled_mm(
        info("a", a), info("b", b), info("out", d), info("scale_a", scale_a),
        info("scale_b", scale_b), bias=info("bias", bias), scale_d=info("scale_d", scale_d),
        amax=info("amax", amax), fast_accum=fast_accum, mode=scale_mode)


def _grouped_plan(a, b, offs, counts, bias, act, row_scale, gather, gather_rows, rows_hint,
                  scale_a, scale_b, scale_mode, alpha, b_ptrs, scatter=None, scatter_mode="store"):
    return lambda d: lambda info: _layout.plan_grouped(
        info("a", a), info("b", b), info("out", d), offs=info("offs", offs),
        counts=info("counts", counts), bias=info("bias", bias), act=act,
        row_scale=info("row_scale", row_scale), gather=info("gather", gather),
        gather_rows=gather_rows, rows_hint=rows_hint, scale_a=info("scale_a", scale_a),
        scale_b=info("scale_b", scale_b), scale_mode=scale_mode, alpha=alpha,
        b_ptrs=info("b_ptrs", b_ptrs), scatter=info("scatter", scatter), scatter_mode=scatter_mode)


def matmul_into(d, a, b, c=None, bias=None, activation=None, alpha=1.0, beta=0.0,
                epilogue_source=None, epilogue_params=0, compute=None):
    act = _layout.activation(activation)
    alpha, beta, comp = float(alpha), float(beta), _layout.compute(compute)
    launch(("matmul", act, alpha, beta, comp), _MATMUL, (a, b, c, bias, d),
           _matmul_plan(a, b, c, bias, act, alpha, beta, comp)(d),
           epilogue_source, int(epilogue_params or 0))


def matmul_new(a, b, c, bias, act, alpha, beta, out_dtype, epilogue_source, epilogue_params,
               comp):
    """tcj.matmul's eager call that makes its output (launch_new); act and comp normalised."""
    alpha, beta = float(alpha), float(beta)
    return launch_new(("matmul", act, alpha, beta, comp, out_dtype), _MATMUL, (a, b, c, bias),
                      lambda: (*matmul_meta(a, b, act, out_dtype),
                               _matmul_plan(a, b, c, bias, act, alpha, beta, comp)),
                      epilogue_source, int(epilogue_params or 0))


def linear_into(d, x, weight, bias=None, activation=None, compute=None):
    act, comp = _layout.activation(activation), _layout.compute(compute)
    launch(("linear", act, comp), _LINEAR, (x, weight, bias, d),
           _linear_plan(x, weight, bias, act, comp)(d))


def linear_new(x, weight, bias, act, out_dtype, comp):
    """tcj.linear's eager call that makes its output (launch_new); act and comp normalised."""
    return launch_new(("linear", act, comp, out_dtype), _LINEAR, (x, weight, bias),
                      lambda: (*linear_meta(x, weight, act, out_dtype),
                               _linear_plan(x, weight, bias, act, comp)))


def scaled_mm_into(d, a, b, scale_a, scale_b, bias=None, scale_d=None, amax=None,
                   scale_mode=None, fast_accum=False):
    fast_accum = bool(fast_accum)
    launch(("scaled_mm", scale_mode, fast_accum), _SCALED_MM,
           (a, b, scale_a, scale_b, bias, scale_d, amax, d),
           _scaled_mm_plan(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode,
                           fast_accum)(d))


def scaled_mm_new(a, b, scale_a, scale_b, bias, scale_d, amax, scale_mode, fast_accum,
                  out_dtype):
    """tcj.scaled_mm's eager call that makes its output (launch_new)."""
    fast_accum = bool(fast_accum)
    return launch_new(("scaled_mm", scale_mode, fast_accum, out_dtype), _SCALED_MM,
                      (a, b, scale_a, scale_b, bias, scale_d, amax),
                      lambda: (*matmul_meta(a, b, None, out_dtype),
                               _scaled_mm_plan(a, b, scale_a, scale_b, bias, scale_d, amax,
                                               scale_mode, fast_accum)))


def _grouped_scalars(a, gather, gather_rows, rows_hint, alpha):
    # A gathered a's own rows are the gather_rows it is read from, not the problem's m.
    if gather is not None and not gather_rows:
        gather_rows = a.shape[0]
    return int(gather_rows), int(rows_hint), float(alpha)


def grouped_mm_into(d, a, b, offs=None, counts=None, bias=None, activation=None,
                    row_scale=None, gather=None, gather_rows=0, rows_hint=0, scale_a=None,
                    scale_b=None, scale_mode=None, alpha=1.0, b_ptrs=None, scatter=None,
                    scatter_mode="store"):
    """b_ptrs: an int64 [G] CUDA tensor of each group's B address (pointer_array), b then the
    first group's B [K, N], whose layout every group's shares. scatter: int32 [M] rows of d
    ([R, N]) that each problem row goes to (the MoE combine), stored or (scatter_mode "add")
    added."""
    act = _layout.activation(activation)
    gather_rows, rows_hint, alpha = _grouped_scalars(a, gather, gather_rows, rows_hint, alpha)
    launch(("grouped_mm", act, gather_rows, rows_hint, scale_mode, alpha, scatter_mode),
           _GROUPED_MM,
           (a, b, offs, counts, bias, row_scale, gather, scale_a, scale_b, b_ptrs, scatter, d),
           _grouped_plan(a, b, offs, counts, bias, act, row_scale, gather, gather_rows,
                         rows_hint, scale_a, scale_b, scale_mode, alpha, b_ptrs, scatter,
                         scatter_mode)(d))


def grouped_mm_new(a, b, offs, counts, bias, act, row_scale, gather, gather_rows, rows_hint,
                   scale_a, scale_b, scale_mode, out_dtype, b_ptrs):
    """tcj.grouped_mm's eager call that makes its output (launch_new); act normalised."""
    gather_rows, rows_hint, alpha = _grouped_scalars(a, gather, gather_rows, rows_hint, 1.0)
    return launch_new(("grouped_mm", act, gather_rows, rows_hint, scale_mode, alpha, out_dtype),
                      _GROUPED_MM,
                      (a, b, offs, counts, bias, row_scale, gather, scale_a, scale_b, b_ptrs,
                       None),
                      lambda: (*grouped_meta(a, b, offs, counts, act, out_dtype, gather, b_ptrs),
                               _grouped_plan(a, b, offs, counts, bias, act, row_scale, gather,
                                             gather_rows, rows_hint, scale_a, scale_b,
                                             scale_mode, alpha, b_ptrs)))


# Pointer arrays of B lists, by device and addresses: made once (a host-to-device copy, which a
# CUDA graph capture does not allow, so a list must be seen once before it is captured) and
# reused while its tensors live at those addresses.
_pointer_arrays = {}


def pointer_array(bs):
    """An int64 CUDA tensor of the addresses of the tensors bs (on one device), cached."""
    dev = bs[0].device
    key = (dev, tuple(t.data_ptr() for t in bs))
    arr = _pointer_arrays.get(key)
    if arr is None:
        if torch.cuda.is_current_stream_capturing():
            raise RuntimeError("tcj.grouped_mm: a list of B tensors is turned into a device array "
                               "of their addresses by a copy, which a CUDA graph capture cannot "
                               "hold: call it once with these tensors before capturing")
        arr = torch.tensor(key[1], dtype=torch.int64).to(dev)
        if len(_pointer_arrays) >= 256:
            _pointer_arrays.clear()
        _pointer_arrays[key] = arr
    return arr


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


def grouped_meta(a, b, offs, counts, activation=None, out_dtype=None, gather=None, b_ptrs=None):
    g = (offs if offs is not None else counts).shape[0] if (offs is not None or counts is not None) else 0
    b_shape = tuple(b.shape) if b_ptrs is None else (b_ptrs.shape[0],) + tuple(b.shape)
    shape = _layout.grouped_shape(_layout.problem_rows_shape(tuple(a.shape), gather), b_shape,
                                  _layout.activation(activation), masked=g)
    dt = _layout.out_dtype_name(_dtype_name(a.dtype), _dtype_name(out_dtype))
    return shape, _torch_dtype(dt)
