# SPDX-License-Identifier: Apache-2.0
# What the examples share: their common options, the start-up checks (torch, a CUDA device, tcj's
# library and JIT mode), compiling and capturing a model in a CUDA graph, timing its replays, and
# the error check against a float32 reference. torch is imported inside the functions, so that
# an example's --help needs neither torch nor tcj's library.
"""Helpers of python/examples: setup(), capture(), time_graph(), check(), int_list()."""

import datetime
import os
import statistics
import sys


def int_list(text):
    return [int(v) for v in text.split(",") if v.strip()]


def add_common_args(p):
    """The options every example takes (timing, checking, seed, device, tcj's JIT mode)."""
    p.add_argument("--iters", type=int, default=50, help="timed graph replays per row")
    p.add_argument("--warmup", type=int, default=5, help="untimed graph replays before timing")
    p.add_argument("--check-only", action="store_true", help="check the outputs, time nothing")
    p.add_argument("--seed", type=int, default=0, help="seed of the weights and inputs")
    p.add_argument("--device", default="cuda", help="a CUDA device")
    p.add_argument("--jit", choices=("sync", "async", "generic"),
                   default=os.environ.get("TCJ_JIT") or "sync",
                   help="tcj's JIT mode (sync: the specialised kernels compile in the warm-up "
                        "calls, before the capture)")
    p.add_argument("--profile", action="store_true",
                   help="after each row, the kernels of a few replays of each graph by GPU time "
                        "(torch.profiler): where the two models' time differs")
    return p


def setup(script, args):
    """Imports torch and tcj (the source tree's package where tcj is not installed), checks the
    device and opens tcj's library with args.jit, prints the header line; returns (torch,
    torch.nn.functional, tcj, device), or an exit status (2) after saying what is missing."""
    try:
        import torch
        import torch.nn.functional as F
        try:
            import tcj
        except ImportError:  # not installed: the source tree's (library from $TCJ_LIBRARY)
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
            import tcj
    except ImportError as e:
        print(f"{script} needs torch and tcj: {e}", file=sys.stderr)
        return 2
    device = torch.device(args.device)
    if device.type != "cuda" or not torch.cuda.is_available():
        print(f"{script} needs a CUDA GPU (--device {args.device}, CUDA available: "
              f"{torch.cuda.is_available()})", file=sys.stderr)
        return 2
    if device.index is None:  # "cuda": the current device, named by its index from here on
        device = torch.device("cuda", torch.cuda.current_device())
    torch.cuda.set_device(device)
    try:
        tcj.set_jit_mode(args.jit)  # before tcj's first call makes the device's engine
        tcj.version()  # opens the library: a missing one is said here, not mid-run
    except tcj.TcjError as e:
        print(f"{script}: tcj's library: {e}", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False  # the float32 references in full float32
    print(f"# {datetime.datetime.now().isoformat(timespec='seconds')}  "
          f"{torch.cuda.get_device_name(device)}  torch {torch.__version__} "
          f"(CUDA {torch.version.cuda})  tcj {tcj.__version__}")
    return torch, F, tcj, device


def capture(fn, args, calls=2):
    """Compiles fn on a side stream (Inductor, tcj's JIT and cuBLAS's handles all set up outside
    the capture), then captures one call in a CUDA graph. Returns the graph and its static
    output, which every replay rewrites."""
    import torch
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(calls):
            fn(*args)
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn(*args)
    return graph, out


def time_graph(graph, iters, warmup):
    """Median ms of iters replays, each between two CUDA events."""
    import torch
    for _ in range(warmup):
        graph.replay()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(iters)]
    for start, end in events:
        start.record()
        graph.replay()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(start.elapsed_time(end) for start, end in events)


def check(out, ref, base):
    """(max error of out, of base, passed): out against the float32 ref, allowed twice torch
    bf16's error (base) plus 1% of the output's scale."""
    ref = ref.float()
    err, base_err = (out.float() - ref).abs().max().item(), (base.float() - ref).abs().max().item()
    return err, base_err, err <= 2 * base_err + 1e-2 * ref.abs().max().item()


def allow_recompiles(torch, limit=64):
    """Each (model, shape) compiles once (dynamic=False), all as recompiles of one code object:
    more than dynamo's default limit of 8, which fails a fullgraph compile."""
    for name in ("recompile_limit", "cache_size_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, limit)


def kernel_profile(graph, name, replays=5, top=8):
    """The graph's kernels by GPU time per replay (torch.profiler over a few replays), as text:
    the top ones, then the rest summed."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(replays):
            graph.replay()
        torch.cuda.synchronize()
    rows = []
    for e in prof.key_averages():
        us = getattr(e, "device_time_total", None)
        if us is None:
            us = getattr(e, "cuda_time_total", 0)
        if us > 0 and e.count >= replays:
            rows.append((us / replays, e.count // replays, e.key))
    rows.sort(reverse=True)
    total = sum(r[0] for r in rows)
    lines = [f"  {name}: {total / 1e3:.3f} ms of kernels per replay"]
    # The idle time between one replay's kernels (the last replay's, by their GPU timestamps).
    spans = sorted((e.time_range.start, e.time_range.end, e.name) for e in prof.events()
                   if getattr(e, "device_type", None) is not None and str(e.device_type).endswith("CUDA")
                   and e.time_range.end > e.time_range.start)
    spans = spans[-(len(spans) // replays):] if replays and len(spans) >= replays else spans
    gaps = [(b[0] - a[1], a[2], b[2]) for a, b in zip(spans, spans[1:])]
    if gaps:
        lines.append(f"  {name}: {sum(max(g[0], 0) for g in gaps):.1f} us idle between its "
                     f"{len(spans)} kernels in one replay; largest gaps:")
        for gap, before, after in sorted(gaps, reverse=True)[:4]:
            lines.append(f"    {gap:9.1f} us  {before[:40]}  ->  {after[:40]}")
    for us, count, key in rows[:top]:
        lines.append(f"    {us:9.1f} us {count:4d}x  {key[:90]}")
    if len(rows) > top:
        lines.append(f"    {sum(r[0] for r in rows[top:]):9.1f} us  the {len(rows) - top} other kernels")
    return "\n".join(lines)


RESULT_HEADER = (f"{'err torch':>10} {'err tcj':>10} {'check':>5} {'torch ms':>9} {'tcj ms':>9} "
                 f"{'speedup':>7}")


def measure(compiled, inputs, reference, args):
    """One row: captures compiled["torch"] and compiled["tcj"] on inputs, checks tcj's output
    against reference() (float32) with torch's as the base, times the replays unless
    args.check_only (three interleaved rounds of each, the best median). Returns (passed, the row's result columns as text)."""
    import torch
    graphs, outs = {}, {}
    for name in ("torch", "tcj"):
        graphs[name], static_out = capture(compiled[name], inputs)
        graphs[name].replay()
        outs[name] = static_out.clone()
        del static_out
    ref = reference()
    err_tcj, err_torch, ok = check(outs["tcj"], ref, outs["torch"])
    del ref, outs
    text = f"{err_torch:10.3e} {err_tcj:10.3e} {'PASS' if ok else 'FAIL':>5} "
    if args.check_only:
        text += f"{'-':>9} {'-':>9} {'-':>7}"
    else:
        # Interleaved, three rounds, the best median of each: the order (the GPU's clocks and
        # temperature drift over a run) favours neither model.
        best = {"torch": float("inf"), "tcj": float("inf")}
        for order in (("torch", "tcj"), ("tcj", "torch"), ("torch", "tcj")):
            for name in order:
                best[name] = min(best[name], time_graph(graphs[name], args.iters, args.warmup))
        t, j = best["torch"], best["tcj"]
        text += f"{t:9.3f} {j:9.3f} {t / j:6.2f}x"
    if getattr(args, "profile", False):
        for name in ("torch", "tcj"):
            text += "\n" + kernel_profile(graphs[name], name)
    del graphs
    torch.cuda.empty_cache()
    return ok, text
