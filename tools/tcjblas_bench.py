#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times libtcjblas's ?gemm_ on host arrays against cuBLAS on the same GPU (torch.matmul on
device-resident copies, plus the host<->device transfers such a call needs), and on device
arrays against cuBLAS alone, with NVBLAS (the CUDA toolkit's libnvblas) on host arrays where it
is found. Every result is checked against cuBLAS's element by element (a bound from |A||B|).

  tcjblas_bench.py --lib build/blas/libtcjblas.so.1 [--n 8192] [--types dszc] [--repeat 3]

Needs torch with CUDA. Prints one table row a type and storage: median seconds of --repeat
calls after one warm-up call, and the ratios (> 1: libtcjblas faster)."""
import argparse
import ctypes
import glob
import os
import statistics
import subprocess
import sys
import time

TYPES = {"s": "float32", "d": "float64", "c": "complex64", "z": "complex128"}


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--lib", required=True, help="libtcjblas.so to time")
    p.add_argument("--n", type=int, default=8192, help="m = n = k (default 8192)")
    p.add_argument("--types", default="dszc", help="some of s, d, c, z (default dszc)")
    p.add_argument("--repeat", type=int, default=3, help="timed calls after a warm-up (default 3)")
    p.add_argument("--nvblas", default="", help="libnvblas.so (default: the CUDA toolkit's, if found)")
    p.add_argument("--only", choices=["tcjblas", "nvblas"], help=argparse.SUPPRESS)  # subprocess use
    return p.parse_args()


def gemm_fn(lib, t):
    f = getattr(lib, t + "gemm_")
    f.restype = None
    return f


def call(f, t, n, a, b, c, torch):
    """C = 1.0 A B + 0.0 C through the Fortran ABI (gfortran's: lengths of the two CHARACTERs)."""
    i = ctypes.c_int(n)
    scal = {"s": ctypes.c_float, "d": ctypes.c_double, "c": ctypes.c_float * 2, "z": ctypes.c_double * 2}[t]
    one = scal(1.0) if t in "sd" else scal(1.0, 0.0)
    zero = scal(0.0) if t in "sd" else scal(0.0, 0.0)
    nn = ctypes.c_char(b"N")
    f(ctypes.byref(nn), ctypes.byref(nn), ctypes.byref(i), ctypes.byref(i), ctypes.byref(i),
      ctypes.byref(one), ctypes.c_void_p(a.data_ptr()), ctypes.byref(i),
      ctypes.c_void_p(b.data_ptr()), ctypes.byref(i), ctypes.byref(zero),
      ctypes.c_void_p(c.data_ptr()), ctypes.byref(i), ctypes.c_size_t(1), ctypes.c_size_t(1))


def operands(torch, t, n, device):
    g = torch.Generator(device="cpu").manual_seed(7)
    dt = getattr(torch, TYPES[t])
    # Column-major n x n: a contiguous tensor is its own transpose's storage; the GEMM of the
    # transposes is the transpose of the GEMM, which the check accounts for.
    a = torch.rand((n, n), generator=g, dtype=dt) * 2 - 1
    b = torch.rand((n, n), generator=g, dtype=dt) * 2 - 1
    return a.to(device), b.to(device)


def timed(fn, sync, repeat):
    fn()
    sync()
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def check(torch, t, got, a, b):
    """got (column-major C = A B) against cuBLAS's, element by element: |err| <= c eps (|A||B|)."""
    # The tensors hold the column-major matrices' transposes: C = A B is c = b a row-major.
    ref = torch.matmul(b.cuda(), a.cuda())
    bound = torch.matmul(b.cuda().abs().to(torch.float64), a.cuda().abs().to(torch.float64))
    eps = {"s": 2.0 ** -23, "c": 2.0 ** -23, "d": 2.0 ** -52, "z": 2.0 ** -52}[t]
    err = (got.cuda().to(torch.complex128 if t in "cz" else torch.float64) - ref.to(
        torch.complex128 if t in "cz" else torch.float64)).abs()
    worst = float((err / (bound * eps * 64 + 1e-300)).max())
    return worst


def run_lib(args, torch, path, t, where):
    lib = ctypes.CDLL(path)
    f = gemm_fn(lib, t)
    n = args.n
    a, b = operands(torch, t, n, "cuda" if where == "device" else "cpu")
    c = torch.empty_like(a)
    sync = torch.cuda.synchronize
    secs = timed(lambda: call(f, t, n, a, b, c, torch), sync, args.repeat)
    worst = check(torch, t, c, a, b)
    return secs, worst


def cublas(args, torch, t):
    n = args.n
    a, b = operands(torch, t, n, "cpu")
    sync = torch.cuda.synchronize
    da, db = a.cuda(), b.cuda()
    compute = timed(lambda: torch.matmul(db, da), sync, args.repeat)
    # What a host-array call must move: A and B in, C out (pageable memory, as BLAS callers own).
    c_host = torch.empty_like(a)
    move_in = timed(lambda: (a.cuda(), b.cuda()), sync, args.repeat)
    move_out = timed(lambda: c_host.copy_(da), sync, args.repeat)
    return compute, move_in + move_out


def child(args, path, t, where, **env):
    """One measurement in a process of its own (NVBLAS and libtcjblas each own the BLAS names),
    with env added to this process's environment."""
    cmd = [sys.executable, os.path.abspath(__file__), "--lib", path, "--n", str(args.n), "--types", t,
           "--repeat", str(args.repeat), "--only", where]
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **env))
    for line in r.stdout.splitlines():
        if line.startswith("RESULT "):
            _, secs, worst = line.split()
            return float(secs), float(worst)
    sys.stderr.write(r.stdout + r.stderr)
    return None


def main():
    args = parse()
    try:
        import torch
    except ImportError:
        print("tcjblas_bench.py needs torch with CUDA", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("tcjblas_bench.py needs a CUDA GPU", file=sys.stderr)
        return 2
    if args.only:  # a child: one library, host arrays
        where = "device" if args.only == "tcjblas" and os.environ.get("TCJBLAS_BENCH_DEVICE") else "host"
        secs, worst = run_lib(args, torch, args.lib, args.types, where)
        print(f"RESULT {secs} {worst}")
        return 0
    nvblas = args.nvblas or next(iter(sorted(glob.glob(os.path.join(
        os.environ.get("CUDA_HOME", "/usr/local/cuda"), "lib64", "libnvblas.so*")))), "")
    print(f"# {torch.cuda.get_device_name()}  n {args.n}  median of {args.repeat}  "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  nvblas: {nvblas or 'not found'}")
    print(f"{'type':4} {'tcjblas host s':>14} {'cuBLAS+xfer s':>13} {'ratio':>6} {'nvblas s':>9} "
          f"{'ratio':>6} {'tcjblas dev s':>13} {'cuBLAS s':>9} {'ratio':>6} {'err/bound':>9}")
    bad = 0
    for t in args.types:
        host = child(args, args.lib, t, "tcjblas")
        compute, xfer = cublas(args, torch, t)
        dev = child(args, args.lib, t, "tcjblas", TCJBLAS_BENCH_DEVICE="1")
        nv = None
        if nvblas:
            conf = os.path.abspath("nvblas.bench.conf")
            with open(conf, "w") as f:  # NVBLAS needs a CPU BLAS for small calls: this run has none
                f.write(f"NVBLAS_CPU_BLAS_LIB {args.lib}\nNVBLAS_GPU_LIST 0\nNVBLAS_AUTOPIN_MEM_ENABLED\n")
            nv = child(args, nvblas, t, "nvblas", NVBLAS_CONFIG_FILE=conf, TCJBLAS_GPU_THRESHOLD="inf")
        hs = f"{host[0]:14.4f}" if host else f"{'failed':>14}"
        worst = max(x[1] for x in (host, dev, nv) if x) if (host or dev or nv) else float("nan")
        bad += worst > 1 or not host or not dev
        ns = f"{nv[0]:9.4f} {nv[0] / host[0]:6.2f}" if nv and host else f"{'-':>9} {'-':>6}"
        print(f"{t:4} {hs} {compute + xfer:13.4f} {((compute + xfer) / host[0]) if host else 0:6.2f} {ns} "
              f"{dev[0] if dev else float('nan'):13.4f} {compute:9.4f} {(compute / dev[0]) if dev else 0:6.2f} "
              f"{worst:9.3f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
