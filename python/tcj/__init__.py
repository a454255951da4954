# SPDX-License-Identifier: Apache-2.0
"""tcj: a runtime JIT GEMM engine for NVIDIA tensor cores, from Python.

``import tcj`` needs neither a GPU, nor torch, nor (until the first call) the library. The
tensor API (``tcj.matmul``, ``tcj.linear``, ``tcj.scaled_mm``, ``tcj.grouped_mm``,
``tcj.batched_mm``, ``tcj.warmup``) and the submodules ``tcj.nn`` and ``tcj.interop`` are
imported at their first use, so a missing torch only fails when a torch op is used. The
library's own binding (engines, descriptors, enums) is ``tcj._lib``; ``tcj.stats()``,
``tcj.set_jit_mode()``, ``tcj.version()`` and ``tcj.TcjError`` are here.
"""

import importlib

from ._lib import (Act, Bias, Compute, Dtype, GroupMode, JitMode, Op, Order, Scale, ScatterMode,
                   Status, TcjError, set_jit_mode, stats, version)


def _header_version():
    """TCJ_VERSION_* of include/tcj.h, for a package run from the source tree (no _version.py:
    that is written by the build)."""
    import os
    import re
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "tcj.h")
    try:
        with open(header) as f:
            text = f.read()
    except OSError:
        return "0+unknown"
    parts = [re.search(r"^#define TCJ_VERSION_%s (\d+)" % p, text, re.M) for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(m.group(1) for m in parts) if all(parts) else "0+unknown"


try:
    from ._version import __version__
except ImportError:
    __version__ = _header_version()

# Names imported at first use: name -> (module, attribute or None for the module itself).
_LAZY = {
    "matmul": ("ops", "matmul"),
    "linear": ("ops", "linear"),
    "scaled_mm": ("ops", "scaled_mm"),
    "grouped_mm": ("ops", "grouped_mm"),
    "batched_mm": ("ops", "batched_mm"),
    "warmup": ("ops", "warmup"),
    "ops": ("ops", None),
    "nn": ("nn", None),
    "interop": ("interop", None),
}

__all__ = ["Act", "Bias", "Compute", "Dtype", "GroupMode", "JitMode", "Op", "Order", "Scale",
           "ScatterMode", "Status", "TcjError", "set_jit_mode", "stats", "version",
           "__version__"] + sorted(_LAZY)


def __getattr__(name):
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError("module 'tcj' has no attribute %r" % name) from None
    mod = importlib.import_module("." + module, __name__)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
