#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Measures where libtcjblas's GPU path starts to beat the CPU BLAS on host arrays: ?gemm_ over
a range of sizes, each timed twice through libtcjblas, once with every call sent to the GPU
(TCJBLAS_GPU_THRESHOLD=0) and once with every call left to the CPU BLAS (TCJBLAS_GPU_THRESHOLD=inf,
TCJBLAS_CPU_BLAS=--cpu-blas), in processes of their own, so both are what a program calling
libtcjblas gets. Prints the times, the ratio and the flops per byte each call sends over the
bus; per type, the crossover (the 2mnk, 8mnk complex, from which the GPU is faster at every
larger size measured, with flops alone and among the calls of at least --min-intensity flops per
byte: gpu_threshold and gpu_min_intensity on this machine), and the calls that the settings
--gpu-threshold and --min-intensity (libtcjblas's defaults unless given) would send to a GPU
more than 5% slower than the CPU BLAS: none, where they suit this machine.

  tcjblas_threshold.py --lib build/blas/libtcjblas.so.1 --cpu-blas /usr/lib/x86_64-linux-gnu/libopenblas.so.0
                       [--types dszc] [--sizes 64,96,128,...] [--shapes square|all] [--repeat 5]

Square sizes by default; --shapes all adds skinny ones (k = 32, and m = 32), whose
transfers weigh more for the same flops (C is sent both ways: beta is 0.5). Times are medians of --repeat calls after one warm-up
call (the warm-up pays tcj's compile for the size's class)."""
import argparse
import array
import ctypes
import json
import os
import random
import statistics
import subprocess
import sys
import time

DTYPES = {"s": "float32", "d": "float64", "c": "complex64", "z": "complex128"}
DEFAULT_SIZES = "48,64,96,128,192,256,384,512,768,1024,1536,2048,3072,4096"


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--lib", required=True, help="libtcjblas.so")
    p.add_argument("--cpu-blas", required=True, help="the CPU BLAS libtcjblas forwards small calls to")
    p.add_argument("--types", default="dszc", help="some of s, d, c, z (default dszc)")
    p.add_argument("--sizes", default=DEFAULT_SIZES, help="comma-separated n (default %(default)s)")
    p.add_argument("--shapes", choices=["square", "all"], default="square")
    p.add_argument("--repeat", type=int, default=5, help="timed calls after a warm-up (default 5)")
    p.add_argument("--gpu-threshold", type=float, default=1e8,
                   help="the gpu_threshold to check (default %(default)g, libtcjblas's)")
    p.add_argument("--min-intensity", type=float, default=16.0,
                   help="the gpu_min_intensity to check, flops per byte (default %(default)g, libtcjblas's)")
    p.add_argument("--child", help=argparse.SUPPRESS)  # "TYPE": time the shapes in this process
    return p.parse_args()


def shapes(args):
    out = []
    for n in (int(x) for x in args.sizes.split(",") if x):
        out.append((n, n, n))
        if args.shapes == "all":
            out += [(n, n, 32), (32, n, n)]
    return out


def flops(t, m, n, k):
    return (8 if t in "cz" else 2) * m * n * k


def bus_bytes(t, m, n, k):
    """What libtcjblas counts (blas/gpu_worth.c): A and B up, C up and down (beta != 0)."""
    return {"s": 4, "d": 8, "c": 8, "z": 16}[t] * (m * k + k * n + 2 * m * n)


def crossover(rows, gpu, cpu):
    """The smallest flops from which the GPU wins at every larger row (None: not even the largest)."""
    cross = None
    for fl, _, key in reversed(rows):
        if gpu[key] < cpu[key]:
            cross = fl
        else:
            break
    return cross


def child(args):
    t = args.child
    lib = ctypes.CDLL(args.lib)
    f = getattr(lib, t + "gemm_")
    f.restype = None
    scal = {"s": ctypes.c_float, "d": ctypes.c_double, "c": ctypes.c_float * 2, "z": ctypes.c_double * 2}[t]
    one = scal(1.0) if t in "sd" else scal(1.0, 0.0)
    half = scal(0.5) if t in "sd" else scal(0.5, 0.0)
    nn = ctypes.c_char(b"N")
    rnd = random.Random(7)
    # Values in [-1, 1): a pattern of 1021 (prime) values repeated, fast to build at any size.
    code, parts = ("f" if t in "sc" else "d"), (2 if t in "cz" else 1)
    pattern = array.array(code, (rnd.uniform(-1, 1) for _ in range(1021)))
    res = {}
    for (m, n, k) in shapes(args):
        def mat(r, c):
            count = r * c * parts
            x = pattern * (count // len(pattern) + 1)
            del x[count:]
            return x
        a, b, c = mat(m, k), mat(k, n), mat(m, n)
        im, iin, ik = ctypes.c_int(m), ctypes.c_int(n), ctypes.c_int(k)
        ptr = lambda x: ctypes.c_void_p(x.buffer_info()[0])

        def call():
            f(ctypes.byref(nn), ctypes.byref(nn), ctypes.byref(im), ctypes.byref(iin), ctypes.byref(ik),
              ctypes.byref(one), ptr(a), ctypes.byref(im), ptr(b), ctypes.byref(ik), ctypes.byref(half),
              ptr(c), ctypes.byref(im), ctypes.c_size_t(1), ctypes.c_size_t(1))
        call()
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            call()
            times.append(time.perf_counter() - t0)
        res[f"{m}x{n}x{k}"] = statistics.median(times)
    print("RESULT " + json.dumps(res))
    return 0


def run_child(args, t, **env):
    cmd = [sys.executable, os.path.abspath(__file__), "--lib", args.lib, "--cpu-blas", args.cpu_blas, "--child", t,
           "--sizes", args.sizes, "--shapes", args.shapes, "--repeat", str(args.repeat)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, TCJBLAS_CONFIG="", **env))
    for line in r.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    sys.stderr.write(r.stdout + r.stderr)
    return None


def main():
    args = parse()
    if args.child:
        return child(args)
    print(f"# libtcjblas {args.lib}, CPU BLAS {args.cpu_blas}, {os.cpu_count()} CPUs, median of {args.repeat}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"{'type':4} {'m x n x k':>16} {'flops':>10} {'flops/B':>8} {'cpu s':>10} {'gpu s':>10} {'cpu/gpu':>8}")
    bad = 0
    fmt = lambda x: "%.3g" % x if x else "none in the sizes measured"
    for t in args.types:
        cpu = run_child(args, t, TCJBLAS_GPU_THRESHOLD="inf", TCJBLAS_CPU_BLAS=args.cpu_blas)
        gpu = run_child(args, t, TCJBLAS_GPU_THRESHOLD="0", TCJBLAS_GPU_MIN_INTENSITY="0",
                        TCJBLAS_CPU_BLAS=args.cpu_blas)
        if not cpu or not gpu:
            bad += 1
            continue
        rows = []
        for key in cpu:
            m, n, k = map(int, key.split("x"))
            rows.append((flops(t, m, n, k), flops(t, m, n, k) / bus_bytes(t, m, n, k), key))
        rows.sort(key=lambda x: (x[0], x[1]))
        for fl, inten, key in rows:
            print(f"{t:4} {key:>16} {fl:10.3g} {inten:8.1f} {cpu[key]:10.3g} {gpu[key]:10.3g} "
                  f"{cpu[key] / gpu[key]:8.2f}")
        dense = [r for r in rows if r[1] >= args.min_intensity]
        print(f"{t:4} crossover (2mnk, 8mnk complex): {fmt(crossover(rows, gpu, cpu))} by flops alone; "
              f"{fmt(crossover(dense, gpu, cpu))} among calls of >= {args.min_intensity:g} flops per byte")
        slow = [key for fl, inten, key in rows
                if fl >= args.gpu_threshold and fl >= args.min_intensity * (fl / inten)
                and gpu[key] > 1.05 * cpu[key]]
        print(f"{t:4} gpu_threshold {args.gpu_threshold:g} with gpu_min_intensity {args.min_intensity:g}: "
              f"{len(slow)} calls sent to a GPU slower than the CPU by more than 5%"
              + (": " + ", ".join(slow) if slow else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
