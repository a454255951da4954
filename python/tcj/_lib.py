# SPDX-License-Identifier: Apache-2.0
"""The ctypes binding of libtcj: the library, include/tcj.h's enums and structs, and engines.

Nothing here needs a GPU, torch or the library at import: the library is opened at its first
use (``lib()``), and a library that cannot be opened raises ``TcjError`` naming every place
tried. Where the library is looked for, in order:

1. ``$TCJ_LIBRARY``: a path to libtcj.so.1 (a build tree's, say); nothing else is tried;
2. ``libtcj.so.1`` next to this file (what ``pip install .`` puts there);
3. the system's: ``ctypes.util.find_library("tcj")``, then the loader's search for libtcj.so.1.

Engines: one per device, made at the first ``engine(i)`` (thread-safe) and kept until the
process exits (never destroyed: the library drains its background compiles at exit). tcj_create
attaches to the CUDA context current in the calling thread, else device 0's primary context, so
``engine(i)`` makes device i's primary context current around tcj_create through the driver API
(cuInit, cuDevicePrimaryCtxRetain, cuCtxPushCurrent, cuCtxPopCurrent; libcuda.so.1 opened with
ctypes), with or without torch. The primary context is the one the CUDA runtime, and so
PyTorch, CuPy and JAX, use on that device: tcj's kernels and theirs share it, and the engine's
calls may come from any thread and whatever context is current there (the library makes its own
current around its work). The retain is never released, as the engine is never destroyed.
Device indices are the driver's ordinals, which CUDA_VISIBLE_DEVICES renumbers as it does
torch's. Without a driver or a device, tcj_create reports it: ``TcjError`` with its message.
"""

import ctypes
import ctypes.util
import enum
import os
import threading

__all__ = [
    "TcjError", "Status", "Dtype", "Op", "Bias", "Act", "Scale", "Compute", "Order", "GroupMode",
    "ScatterMode", "JitMode", "GemmDesc", "Options", "Stats", "AllocFn", "FreeFn", "lib",
    "library_path", "new_desc", "engine", "gemm_ex", "gemm_ex_workspace_size", "version", "stats",
    "set_jit_mode", "set_engine_option", "check", "C_NAMES", "EPILOGUE_SIGNATURE",
]

# ---- enums: include/tcj.h's, named without their C prefix (C_NAMES gives the C names) ------


class Status(enum.IntEnum):
    """tcj_status (TCJ_STATUS_LIST, in its order)."""
    SUCCESS = 0
    ERROR_INVALID_VALUE = 1
    ERROR_NOT_SUPPORTED = 2
    ERROR_NO_DEVICE = 3
    ERROR_CUDA = 4
    ERROR_COMPILE = 5
    ERROR_OUT_OF_MEMORY = 6
    ERROR_CACHE = 7
    ERROR_INTERNAL = 8


class Dtype(enum.IntEnum):
    """tcj_dtype."""
    F16 = 0
    BF16 = 1
    F32 = 2
    TF32 = 3
    E4M3 = 4
    E5M2 = 5
    S8 = 6
    S32 = 7
    F64 = 8


class Op(enum.IntEnum):
    """tcj_op: N as stored, T transposed."""
    N = 0
    T = 1


class Bias(enum.IntEnum):
    """tcj_bias_kind: COL adds bias[j] to column j (nn.Linear's), ROW bias[i] to row i."""
    NONE = 0
    COL = 1
    ROW = 2


class Act(enum.IntEnum):
    """tcj_activation. SWIGLU is gated: op(B) has 2n columns, gate then up."""
    NONE = 0
    RELU = 1
    GELU = 2
    GELU_TANH = 3
    SILU = 4
    SWIGLU = 5


class Scale(enum.IntEnum):
    """tcj_scale_mode: how fp8 scales are given."""
    TENSOR = 0
    BLOCK = 1
    ROW = 2


class Compute(enum.IntEnum):
    """tcj_compute. F32 is TCJ_COMPUTE_32F (a Python name cannot start with a digit)."""
    DEFAULT = 0
    F32 = 1
    F32_3XTF32 = 2
    F32_FAST_TF32 = 3


class Order(enum.IntEnum):
    """tcj_order: storage order of a descriptor's matrices."""
    ROW_MAJOR = 0
    COL_MAJOR = 1


class GroupMode(enum.IntEnum):
    """tcj_group_mode: grouped GEMM (tcj_gemm_desc.group_mode)."""
    NONE = 0
    M_CONTIGUOUS = 1
    M_MASKED = 2
    K_CONTIGUOUS = 3


class ScatterMode(enum.IntEnum):
    """tcj_scatter_mode: what scattered rows do in D (tcj_gemm_desc.scatter_d)."""
    STORE = 0
    ADD = 1


class JitMode(enum.IntEnum):
    """tcj_jit_mode: which kernels calls run (tcj_options.jit_mode)."""
    DEFAULT = 0
    SYNC = 1
    GENERIC = 2
    ASYNC = 3


def _c_names():
    prefixes = {Status: "TCJ_", Dtype: "TCJ_", Op: "TCJ_OP_", Bias: "TCJ_BIAS_", Act: "TCJ_ACT_",
                Scale: "TCJ_SCALE_", Compute: "TCJ_COMPUTE_", Order: "TCJ_ORDER_",
                GroupMode: "TCJ_GROUP_", ScatterMode: "TCJ_SCATTER_", JitMode: "TCJ_JIT_"}
    names = {}
    for cls, prefix in prefixes.items():
        names[cls] = {}
        for member in cls:
            name = "32F" + member.name[3:] if cls is Compute and member.name.startswith("F32") else member.name
            names[cls][member] = prefix + name
    return names


# Enum class -> {member: its C enumerator's name} (the layout test compares the values with C's).
# By class: members of different enums with one value are equal, as IntEnums.
C_NAMES = _c_names()

# What a user epilogue's source must define (TCJ_EPILOGUE_SIGNATURE).
EPILOGUE_SIGNATURE = ('extern "C" __device__ float tcj_epilogue(float v, float c, long long row, '
                      'long long col, long long batch, const void *params)')

# ---- structs: field by field as include/tcj.h declares them -------------------------------

_p = ctypes.c_void_p  # every pointer field: assign an int (a device address) or None
_i64 = ctypes.c_int64
_enum = ctypes.c_int  # C enums are int-sized on every ABI tcj builds for

# tcj_alloc_fn and tcj_free_fn (tcj_options.alloc / .free). Keep a reference to the Python
# callable's CFUNCTYPE object for as long as an engine may call it.
AllocFn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                           ctypes.POINTER(ctypes.c_uint64))
FreeFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_void_p)


class GemmDesc(ctypes.Structure):
    """tcj_gemm_desc. Make one with new_desc() (alpha = alpha_f64 = 1, the rest 0): a zeroed
    one has alpha 0, which tcj_gemm_ex refuses. Pointer fields take ints (device addresses);
    epilogue_source takes bytes (kept alive by the struct). include/tcj.h documents each field."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("op_a", _enum), ("op_b", _enum),
        ("m", _i64), ("n", _i64), ("k", _i64),
        ("a", _p), ("a_type", _enum), ("lda", _i64),
        ("b", _p), ("b_type", _enum), ("ldb", _i64),
        ("c", _p), ("c_type", _enum), ("ldc", _i64),
        ("d", _p), ("d_type", _enum), ("ldd", _i64),
        ("alpha", ctypes.c_float), ("beta", ctypes.c_float),
        ("alpha_ptr", _p), ("beta_ptr", _p),
        ("bias", _p), ("bias_type", _enum), ("bias_kind", _enum),
        ("activation", _enum),
        ("batch_count", _i64),
        ("stride_a", _i64), ("stride_b", _i64), ("stride_c", _i64), ("stride_d", _i64),
        ("stride_bias", _i64),
        ("epilogue_source", ctypes.c_char_p),
        ("epilogue_params", _p),
        ("scale_mode", _enum),
        ("scale_a", _p), ("scale_b", _p),
        ("scale_d", _p),
        ("amax_d", _p),
        ("fast_accum", ctypes.c_int),
        ("compute", _enum),
        ("alpha_f64", ctypes.c_double), ("beta_f64", ctypes.c_double),
        ("order", _enum),
        ("group_mode", _enum),
        ("group_count", _i64),
        ("group_ends32", _p),
        ("group_ends64", _p),
        ("group_counts", _p),
        ("group_rows_hint", _i64),
        ("stride_scale_b", _i64),
        ("group_b_ptrs", _p),
        ("gather_a", _p),
        ("gather_a_rows", _i64),
        ("row_scale", _p),
        ("scatter_d", _p),
        ("scatter_d_rows", _i64),
        ("scatter_mode", _enum),
    ]


class Options(ctypes.Structure):
    """tcj_options (engine options; engine() fills one from set_engine_option's values)."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("arch", ctypes.c_char_p),
        ("force_driver_jit", ctypes.c_int),
        ("disable_packing", ctypes.c_int),
        ("cache_dir", ctypes.c_char_p),
        ("disable_disk_cache", ctypes.c_int),
        ("alloc", AllocFn),
        ("free", FreeFn),
        ("alloc_ctx", _p),
        ("jit_mode", ctypes.c_int),
    ]


class Stats(ctypes.Structure):
    """tcj_stats: one engine's kernel cache counters since its creation."""
    _fields_ = [("struct_size", ctypes.c_size_t)] + [
        (name, ctypes.c_uint64) for name in (
            "memory_hits", "disk_hits", "disk_misses", "bad_entries", "compiles", "compile_ns",
            "bytes_written", "evictions", "write_failures", "compiles_background",
            "generic_launches", "swaps")
    ]


# ---- errors ---------------------------------------------------------------------------------


class TcjError(RuntimeError):
    """A tcj failure: .status is the Status (ERROR_NO_DEVICE too for a library that cannot be
    opened), .message the library's message (tcj_last_error) or what failed here."""

    def __init__(self, status, message):
        try:
            status = Status(status)
        except ValueError:
            pass  # a newer library's status: kept as the int it is
        self.status = status
        self.message = message
        name = status.name if isinstance(status, Status) else "status %d" % status
        super().__init__("tcj: %s: %s" % (name, message))


# ---- the library ----------------------------------------------------------------------------

_SONAME = "libtcj.so.1"
_lock = threading.RLock()
_lib = None
_lib_path = None


def _candidates():
    env = os.environ.get("TCJ_LIBRARY")
    if env:
        return [env], "$TCJ_LIBRARY"
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), _SONAME)
    found = ctypes.util.find_library("tcj")
    system = [found] if found else []
    return [here] + system + [_SONAME], None


def _declare(L):
    c_int, c_size_t, c_char_p, c_void_p = ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_void_p
    sigs = {
        "tcj_version": (c_int, []),
        "tcj_create": (c_int, [ctypes.POINTER(c_void_p), ctypes.POINTER(Options)]),
        "tcj_destroy": (None, [c_void_p]),
        "tcj_status_string": (c_char_p, [c_int]),
        "tcj_dtype_name": (c_char_p, [c_int]),
        "tcj_last_error": (c_char_p, [c_void_p]),
        "tcj_get_stats": (c_int, [c_void_p, ctypes.POINTER(Stats)]),
        "tcj_set_workspace": (c_int, [c_void_p, ctypes.c_uint64, c_size_t]),
        "tcj_gemm_ex": (c_int, [c_void_p, ctypes.POINTER(GemmDesc), c_void_p]),
        "tcj_gemm_ex_workspace_size": (c_int, [c_void_p, ctypes.POINTER(GemmDesc), ctypes.POINTER(c_size_t)]),
        "tcj_gemm_desc_init": (c_int, [ctypes.POINTER(GemmDesc), c_size_t]),
        "tcj_options_init": (c_int, [ctypes.POINTER(Options), c_size_t]),
        "tcj_stats_init": (c_int, [ctypes.POINTER(Stats), c_size_t]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(L, name)
        fn.restype = res
        fn.argtypes = args


# nvJitLink and NVRTC from NVIDIA's pip wheels (nvidia-nvjitlink-cu12, nvidia-cuda-nvrtc-cu12,
# or CUDA 13's nvidia/cu13 layout, which torch's wheels install). libtcj looks for these by
# soname in LD_LIBRARY_PATH, CUDA_HOME, CUDA_PATH, /usr/local/cuda and the system's directories
# (engine/libfile.c), then asks the loader; a wheel's copy is in none of them. So where the
# toolkit's is absent, the wheel's is opened here first (RTLD_GLOBAL), and the library's
# dlopen of the soname then finds it already loaded. Where the toolkit has one, nothing is
# done: the library keeps preferring the toolkit's, as the README says.
_PIP_LIBS = (("libnvJitLink.so.13", "libnvJitLink.so.12"), ("libnvrtc.so.13", "libnvrtc.so.12"))
_PIP_DIRS = (("nvidia", "cu13", "lib"), ("nvidia", "nvjitlink", "lib"),
             ("nvidia", "cuda_nvrtc", "lib"), ("nvidia", "cu12", "lib"))
_SYSTEM_DIRS = ("/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
                "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu")
pip_libraries = []  # the wheels' libraries opened by _preload_pip_libs (paths)


def _system_has(sonames):
    dirs = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    dirs += [os.path.join(os.environ[v], "lib64") for v in ("CUDA_HOME", "CUDA_PATH")
             if os.environ.get(v)]
    dirs += _SYSTEM_DIRS
    if any(os.path.isfile(os.path.join(d, s)) for s in sonames for d in dirs):
        return True
    return any(ctypes.util.find_library(s.split(".so")[0][3:]) == s for s in sonames)


def _preload_pip_libs():
    import sys
    for sonames in _PIP_LIBS:
        if _system_has(sonames):
            continue
        for base in sys.path:
            path = next((os.path.join(base, *d, s) for s in sonames for d in _PIP_DIRS
                         if os.path.isfile(os.path.join(base, *d, s))), None)
            if path is None:
                continue
            try:
                ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
                pip_libraries.append(path)
            except OSError:
                continue  # a broken copy: the library reports the missing compiler itself
            break


def lib():
    """The loaded libtcj (a ctypes.CDLL with tcj.h's functions declared); opened at first use.
    Raises TcjError(ERROR_NO_DEVICE, ...) naming every path tried when none opens."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        paths, source = _candidates()
        _preload_pip_libs()
        tried = []
        for path in paths:
            try:
                L = ctypes.CDLL(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            try:
                _declare(L)
            except AttributeError as e:  # an older or foreign library under that name
                tried.append("%s (%s)" % (path, e))
                continue
            _lib_path = path
            _lib = L
            return L
        what = "set by %s" % source if source else "next to the package, then the system's"
        raise TcjError(Status.ERROR_NO_DEVICE,
                       "cannot open libtcj (%s); tried: %s" % (what, "; ".join(tried)))


def library_path():
    """The path (or soname) the library was opened from; opens it if it is not yet."""
    lib()
    return _lib_path


def _message(default=""):
    m = lib().tcj_last_error(None)
    return m.decode(errors="replace") if m else default


def check(status, what="tcj"):
    """Raises TcjError(status, tcj_last_error()) unless status is SUCCESS."""
    if status != Status.SUCCESS:
        raise TcjError(status, _message("%s failed" % what))


def version():
    """The library's version, (major, minor, patch), from tcj_version()."""
    v = lib().tcj_version()
    return (v // 10000, v // 100 % 100, v % 100)


def new_desc():
    """A GemmDesc as TCJ_GEMM_DESC_INIT makes it (tcj_gemm_desc_init: alpha = alpha_f64 = 1)."""
    d = GemmDesc()
    check(lib().tcj_gemm_desc_init(ctypes.byref(d), ctypes.sizeof(d)), "tcj_gemm_desc_init")
    return d


# ---- engines --------------------------------------------------------------------------------

_engines = {}          # device index -> engine handle (c_void_p)
_engine_options = {}   # tcj_options field -> value, for engines made after it is set
_keep = []             # objects an engine's options point to (strings, callbacks): kept alive
_cuda = None


def set_engine_option(name, value):
    """Sets a tcj_options field (by its C name) for the engines made after this call; engines
    already made keep theirs. Pointers (arch, cache_dir: str; alloc, free: AllocFn, FreeFn)
    are kept alive here for the process's life."""
    if name == "struct_size" or name not in dict(Options._fields_):
        raise ValueError("set_engine_option: %r is not a tcj_options field" % (name,))
    with _lock:
        if isinstance(value, str):
            value = value.encode()
        _keep.append(value)
        _engine_options[name] = value


def set_jit_mode(mode):
    """Which kernels calls run (JitMode or "sync", "generic", "async", "default"), for engines
    made after this call: call it before the first tcj call (engines are made at the first call
    on each device). $TCJ_JIT does the same for a whole process when this is never called."""
    if isinstance(mode, str):
        try:
            mode = JitMode[mode.upper()]
        except KeyError:
            raise ValueError("set_jit_mode: %r is not sync, generic, async or default" % mode) from None
    set_engine_option("jit_mode", int(JitMode(mode)))


def _driver():
    """libcuda through ctypes, or None where there is no driver (tcj_create then says so)."""
    global _cuda
    if _cuda is None:
        try:
            cu = ctypes.CDLL("libcuda.so.1")
        except OSError:
            _cuda = False
            return None
        cu.cuInit.argtypes = [ctypes.c_uint]
        cu.cuDeviceGetCount.argtypes = [ctypes.POINTER(ctypes.c_int)]
        cu.cuDeviceGet.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.c_int]
        cu.cuDevicePrimaryCtxRetain.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
        cu.cuCtxPushCurrent_v2.argtypes = [ctypes.c_void_p]
        cu.cuCtxPopCurrent_v2.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        _cuda = cu
    return _cuda or None


def _cu_check(r, call):
    if r != 0:
        raise TcjError(Status.ERROR_CUDA, "%s: CUresult %d" % (call, r))


def _primary_context(index):
    """Device index's primary context (retained), or None when the driver cannot be used."""
    cu = _driver()
    if cu is None or cu.cuInit(0) != 0:
        return None  # no driver or no device: tcj_create reports it in its own words
    count = ctypes.c_int(0)
    _cu_check(cu.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
    if not 0 <= index < count.value:
        raise TcjError(Status.ERROR_INVALID_VALUE,
                       "device index %d: the CUDA driver reports %d device(s)" % (index, count.value))
    dev = ctypes.c_int(0)
    _cu_check(cu.cuDeviceGet(ctypes.byref(dev), index), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    _cu_check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    return ctx


def _create(index):
    L = lib()
    opts = Options()
    check(L.tcj_options_init(ctypes.byref(opts), ctypes.sizeof(opts)), "tcj_options_init")
    for name, value in _engine_options.items():
        setattr(opts, name, value)
    ctx = _primary_context(index)
    handle = ctypes.c_void_p()
    if ctx is None:
        st = L.tcj_create(ctypes.byref(handle), ctypes.byref(opts))
    else:
        cu = _cuda
        _cu_check(cu.cuCtxPushCurrent_v2(ctx), "cuCtxPushCurrent")
        try:
            st = L.tcj_create(ctypes.byref(handle), ctypes.byref(opts))
        finally:
            cu.cuCtxPopCurrent_v2(ctypes.byref(ctypes.c_void_p()))
    check(st, "tcj_create")
    return handle


def engine(device_index=0):
    """The engine of CUDA device device_index (a ctypes.c_void_p tcj_engine *), made at the first
    call for that device with its primary context (see the module's docstring) and the options
    set so far; the same handle afterwards. Thread-safe."""
    device_index = int(device_index)
    e = _engines.get(device_index)
    if e is not None:
        return e
    with _lock:
        e = _engines.get(device_index)
        if e is None:
            e = _engines[device_index] = _create(device_index)
        return e


def gemm_ex(device_index, desc, stream=0):
    """tcj_gemm_ex(engine(device_index), desc, stream): stream is a CUstream as an int (torch's
    current_stream().cuda_stream; 0 the legacy default stream). Raises TcjError on failure."""
    L = lib()
    check(L.tcj_gemm_ex(engine(device_index), ctypes.byref(desc), ctypes.c_void_p(stream or None)), "tcj_gemm_ex")


def gemm_ex_workspace_size(device_index, desc):
    """The scratch bytes gemm_ex(desc) needs (tcj_gemm_ex_workspace_size); launches nothing."""
    n = ctypes.c_size_t(0)
    check(lib().tcj_gemm_ex_workspace_size(engine(device_index), ctypes.byref(desc), ctypes.byref(n)),
          "tcj_gemm_ex_workspace_size")
    return n.value


def stats(device_index=None):
    """Kernel cache counters (tcj_stats as a dict): of device_index's engine (made if it is not
    yet), or with None, summed over the engines made so far (all zero before the first)."""
    with _lock:
        handles = list(_engines.values()) if device_index is None else [engine(device_index)]
    L = lib() if handles else None
    names = [f for f, _ in Stats._fields_ if f != "struct_size"]
    total = dict.fromkeys(names, 0)
    for h in handles:
        s = Stats()
        check(L.tcj_stats_init(ctypes.byref(s), ctypes.sizeof(s)), "tcj_stats_init")
        check(L.tcj_get_stats(h, ctypes.byref(s)), "tcj_get_stats")
        for f in names:
            total[f] += getattr(s, f)
    return total
