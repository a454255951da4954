# SPDX-License-Identifier: Apache-2.0
# Host time per call of tcj's eager ops against torch's own, on problems small enough that the
# GPU is not what is measured: a run issues --calls calls back to back without a sync (fewer
# than the launch queue holds, so the host never waits for the GPU) and divides the wall time
# by the count. Each row alternates torch's runs and tcj's, --repeat of each, and reports each
# side's median and the median of the per-round ratios: on a shared host the time of a call
# drifts by half within a minute (an H100 machine, 2026-12-07), which timing one side after
# the other reads as a difference between them.
"""Host overhead per call: tcj.linear against torch.nn.functional.linear (and the others)."""

import argparse
import ctypes
import statistics
import sys
import time


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--calls", type=int, default=400, help="calls per timed run (default 400)")
    p.add_argument("--repeat", type=int, default=15, help="timed runs per side of each row, alternating (default 15)")
    p.add_argument("--m", type=int, default=16, help="rows of x (default 16)")
    p.add_argument("--n", type=int, default=256, help="output features (default 256)")
    p.add_argument("--k", type=int, default=256, help="input features (default 256)")
    p.add_argument("--breakdown", action="store_true",
                   help="also split tcj.linear's time: tcj_gemm_ex alone on the call's prepared "
                        "descriptor (the C library's host cost), through tcj._fastcall or, with "
                        "TCJ_FASTCALL=0, ctypes; the rest (the Python side); the output's "
                        "torch.empty alone")
    return p.parse_args(argv)


def one_run_us(fn, calls, sync):
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    t = (time.perf_counter() - t0) * 1e6 / calls
    sync()
    return t


def per_call_us(fn, calls, repeat, sync):
    for _ in range(20):
        fn()
    sync()
    return statistics.median([one_run_us(fn, calls, sync) for _ in range(repeat)])


def paired_us(tfn, jfn, calls, repeat, sync):
    """(torch's median, tcj's median, median of tcj/torch per round), the runs alternating."""
    for _ in range(20):
        tfn()
        jfn()
    sync()
    ts, js = [], []
    for _ in range(repeat):
        ts.append(one_run_us(tfn, calls, sync))
        js.append(one_run_us(jfn, calls, sync))
    ratio = statistics.median([j / t for t, j in zip(ts, js)])
    return statistics.median(ts), statistics.median(js), ratio


def main(argv=None):
    args = parse_args(argv)
    import torch
    import torch.nn.functional as F
    import tcj
    if not torch.cuda.is_available():
        print("host_overhead: needs a CUDA device", file=sys.stderr)
        return 2
    dev = torch.device("cuda")
    bf = dict(device=dev, dtype=torch.bfloat16)
    m, n, k = args.m, args.n, args.k
    x = torch.randn(m, k, **bf)
    w = torch.randn(n, k, **bf) / k ** 0.5
    b = torch.randn(n, **bf)
    layer = torch.nn.Linear(k, n, **bf)            # parameters that require grad
    tlayer = tcj.nn.Linear.from_linear(layer)
    g = 8
    xs = torch.randn(g * m, k, **bf)
    ws = torch.randn(g, n, k, **bf) / k ** 0.5
    offs = torch.arange(1, g + 1, device=dev, dtype=torch.int32) * m
    sync = torch.cuda.synchronize
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, tcj {tcj.__version__}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"# host microseconds per call, median of {args.repeat} runs of {args.calls} calls "
          f"each side, alternating; m {m}, n {n}, k {k}, bf16")
    rows = [
        ("F.linear(x, w, b)", lambda: F.linear(x, w, b), "tcj.linear(x, w, b)",
         lambda: tcj.linear(x, w, b)),
        ("F.linear + gelu", lambda: F.gelu(F.linear(x, w, b)), "tcj.linear(gelu)",
         lambda: tcj.linear(x, w, b, activation="gelu")),
        ("x @ w.t()", lambda: x @ w.t(), "tcj.matmul(x, w.t())", lambda: tcj.matmul(x, w.t())),
        ("nn.Linear, no_grad", lambda: _no_grad(layer, x), "tcj.nn.Linear, no_grad",
         lambda: _no_grad(tlayer, x)),
        ("nn.Linear, grad", lambda: layer(x), "tcj.nn.Linear, grad", lambda: tlayer(x)),
        ("torch._grouped_mm", lambda: torch._grouped_mm(xs, ws.transpose(1, 2), offs=offs),
         "tcj.grouped_mm", lambda: tcj.grouped_mm(xs, ws.transpose(1, 2), offs=offs)),
    ]
    print(f"{'torch':28s} {'us':>7s}   {'tcj':28s} {'us':>7s}  tcj/torch (median of rounds)")
    for tname, tfn, jname, jfn in rows:
        try:
            tfn()
        except Exception as e:  # e.g. torch._grouped_mm on a GPU it does not support
            print(f"{tname:28s} failed: {e}")
            continue
        t, j, ratio = paired_us(tfn, jfn, args.calls, args.repeat, sync)
        print(f"{tname:28s} {t:7.2f}   {jname:28s} {j:7.2f}  {ratio:6.2f}")
    if args.breakdown:
        breakdown(args, tcj, torch, x, w, b, sync)
    return 0


def breakdown(args, tcj, torch, x, w, b, sync):
    """Where tcj.linear's host time goes, on the path this process takes (tcj._fastcall's, or
    Python's under TCJ_FASTCALL=0): the whole call, tcj_gemm_ex alone on the call's prepared
    plan (the C library's host cost), the difference (the Python side), and torch.empty."""
    from tcj import _calls, _lib
    total = per_call_us(lambda: tcj.linear(x, w, b), args.calls, args.repeat, sync)
    plan = next(p for k, p in _calls._plans.items() if k[0][0] == "linear")
    out = torch.empty((x.shape[0], w.shape[0]), dtype=x.dtype, device=x.device)
    tensors = (x, w, b, out)
    desc_bytes, offsets, _, index = plan.run
    if _calls._fast is not None:
        path, what = "tcj._fastcall", "tcj_gemm_ex through tcj._fastcall.run"
        fast = _calls._fast
        c = per_call_us(lambda: fast.run(plan.run, tensors), args.calls, args.repeat, sync)
    else:
        path, what = "Python (ctypes)", "tcj_gemm_ex through ctypes"
        desc = _lib.GemmDesc.from_buffer_copy(desc_bytes)
        stream = _calls._current_stream(index)
        for offset, i, added in offsets:
            ctypes.c_uint64.from_buffer(desc, offset).value = tensors[i].data_ptr() + added
        c = per_call_us(lambda: _lib.gemm_ex(index, desc, stream), args.calls, args.repeat, sync)
    empty = per_call_us(lambda: torch.empty((x.shape[0], w.shape[0]), dtype=x.dtype, device=x.device),
                        args.calls, args.repeat, sync)
    print(f"# tcj.linear split ({path}): {total:.2f} us, of which {what} {c:.2f} us and the "
          f"Python side {total - c:.2f} (torch.empty alone {empty:.2f})")


def _no_grad(mod, x):
    import torch
    with torch.no_grad():
        return mod(x)


if __name__ == "__main__":
    sys.exit(main())
