# SPDX-License-Identifier: Apache-2.0
# Other frameworks' arrays (CuPy, JAX, anything with __dlpack__ or __cuda_array_interface__)
# through tcj's tensor API: torch is the array backend, the arrays are wrapped without copies.
"""DLPack and ``__cuda_array_interface__`` for tcj's ops.

torch is tcj's array backend: ``tcj.matmul(x, y)`` on CuPy or JAX arrays wraps them as torch
tensors with ``torch.from_dlpack`` (or ``torch.as_tensor`` for objects that only have
``__cuda_array_interface__``), sharing their memory, runs the op, and hands the result back
in the first array argument's framework through DLPack (``cupy.from_dlpack``,
``jax.dlpack.from_dlpack``), again without a copy. The call runs on torch's current stream
of the device; order it against the other framework's stream yourself (e.g.
``torch.cuda.ExternalStream``) when they differ. torch must be installed.

``as_torch(x)`` and ``like(t, x)`` are the two halves, for use on their own.
"""

import functools

__all__ = ["as_torch", "like", "accepts_arrays"]


def _is_foreign(x):
    import torch
    return (not isinstance(x, torch.Tensor)
            and (hasattr(x, "__dlpack__") or hasattr(x, "__cuda_array_interface__")))


def as_torch(x):
    """A torch tensor sharing x's memory (x itself when it is one; None stays None)."""
    import torch
    if x is None or isinstance(x, torch.Tensor):
        return x
    if hasattr(x, "__dlpack__"):
        return torch.from_dlpack(x)
    if hasattr(x, "__cuda_array_interface__"):
        return torch.as_tensor(x, device="cuda")
    raise TypeError(f"expected a torch tensor or an array with __dlpack__ or "
                    f"__cuda_array_interface__, got {type(x).__name__}")


def like(t, x):
    """t in x's framework (by DLPack, no copy): CuPy for CuPy arrays, JAX for JAX arrays; t
    itself for torch tensors and objects of other kinds."""
    mod = type(x).__module__.split(".")[0]
    if mod == "cupy":
        import cupy
        return cupy.from_dlpack(t)
    if mod in ("jax", "jaxlib"):
        import jax.dlpack
        return jax.dlpack.from_dlpack(t)
    return t


# Argument classes that are never another framework's array, so that a call of torch tensors
# (and keyword scalars) costs the wrapper one set lookup per argument; set at the first call.
_NATIVE = None


def _native_classes():
    global _NATIVE
    import torch
    _NATIVE = frozenset((type(None), torch.Tensor, torch.nn.Parameter, torch.dtype, str, int,
                         float, bool))
    return _NATIVE


def accepts_arrays(fn):
    """Wraps a tcj op so that array arguments of other frameworks are taken through DLPack and
    the result comes back in the first such argument's framework."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        native = _NATIVE
        if native is None:
            try:
                native = _native_classes()
            except ImportError:
                return fn(*args, **kwargs)  # which says that torch is needed
        for x in args:
            if x.__class__ not in native and _is_foreign(x):
                return _foreign_call(fn, x, args, kwargs)
        if kwargs:
            for x in kwargs.values():
                if x.__class__ not in native and _is_foreign(x):
                    return _foreign_call(fn, x, args, kwargs)
        return fn(*args, **kwargs)
    return wrapper


def _foreign_call(fn, first, args, kwargs):
    """fn on torch views of the foreign arrays; the result in first's framework (or out)."""
    out = kwargs.get("out")
    args = [as_torch(x) if _is_foreign(x) else x for x in args]
    kwargs = {k: as_torch(v) if _is_foreign(v) else v for k, v in kwargs.items()}
    result = fn(*args, **kwargs)
    return out if out is not None else like(result, first)
