#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times PyTorch's grouped GEMMs on the grouped problems tcj-prof ran, for a comparison in one run.

Reads the JSON lines of `tcj-prof --groups-out FILE` (one per grouped row, with the exact group
sizes tcj-prof drew) and, for each row torch can express, times torch._grouped_mm (bf16) or
torch._scaled_grouped_mm (fp8 e4m3 with row scales) and a loop of one torch.matmul /
torch._scaled_mm per non-empty group, as tcj-prof times tcj: random normal operands rotated over
buffer sets that exceed 3x L2, 3 warm-up calls, then the median of --repeat CUDA-event-timed calls
(each allocating its output, as torch code does; tcj-prof's tcj writes a preallocated D).
Each op's output is first checked against a float32 torch reference on sampled rows of sampled
groups (a wrong layout shows as a large error; a mismatch is not timed). TFLOP/s use the row's
`flops` (tcj-prof's count: 2 rows n k over the rows computed, SwiGLU 2n columns, the K mode the
routed K), so that they compare with tcj-prof's table. Rows torch cannot express are listed with
the reason. --dry-run parses and prints the plan without importing torch.

torch's constraints (aten/src/ATen/native/cuda/GroupedBlas.cpp and GroupMMCommon.cuh, 2.8 to
2.11): offs is int32 (the ends of tcj's int64-ends rows are passed as int32: same sizes), fewer
than 1024 groups, rows 16-byte aligned (K a multiple of 8 for bf16, and of 16 for fp8, whose N
must be one too and whose B must be column-major, i.e. op_b T), bf16 output only for fp8. Group
sizes need no alignment for the layouts used here (row-major A ragged along M; in the K mode a
column-major A and row-major B ragged along K, where empty groups are allowed): the kernel's
alignment asserts cover other layouts only. Those asserts are device-side and would break the
CUDA context, so rows outside these rules are refused here before any call.
"""

import argparse
import json
import statistics
import sys

WARMUP = 3
MAX_SETS = 8  # buffer sets rotated so that small problems do not run from L2 (as tcj-prof)
MAX_GROUPS = 1024  # torch._grouped_mm: "Can't process more than 1024 groups" (exclusive)
SAMPLE_GROUPS = 3  # checked groups: the first, the largest and the last non-empty one
SAMPLE_ROWS = 64  # checked rows per group, spread over it
TOL = 2e-2  # max |got - ref| / max |ref|: bf16 output rounding is 2^-9; a wrong layout is ~1
TOL_FAST_ACCUM = 5e-2

REQUIRED = ("name", "mode", "ab", "b", "d", "op_a", "op_b", "m", "n", "k", "b_cols", "groups", "rows",
            "flops", "sizes", "epilogue", "row_scale", "gather", "b_ptrs", "scale", "fast_accum")


def die(msg):
    print(f"torch_grouped: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    """The rows of a --groups-out file; exits 2 naming the line of a bad one."""
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                if not text.strip():
                    continue
                try:
                    row = json.loads(text)
                except json.JSONDecodeError as e:
                    die(f"{path}:{number}: not JSON: {e}")
                missing = [key for key in REQUIRED if key not in row]
                if missing:
                    die(f"{path}:{number}: missing {', '.join(missing)} "
                             "(a file of tcj-prof --groups-out?)")
                if len(row["sizes"]) != row["groups"]:
                    die(f"{path}:{number}: {len(row['sizes'])} sizes for "
                             f"{row['groups']} groups")
                rows.append(row)
    except OSError as e:
        die(f"{path}: {e.strerror}")
    return rows


# ---- plan: what runs for a row, or why nothing does (no torch needed) --------------------------

def plan(row):
    """(ops, reason): the op names timed for row, or [] and why torch cannot express it."""
    mode, ab, fp8 = row["mode"], row["ab"], row["ab"] in ("e4m3", "e5m2")
    k = row["k"]
    if row["groups"] >= MAX_GROUPS:
        return [], f"{row['groups']} groups: torch._grouped_mm takes fewer than {MAX_GROUPS}"
    if row["epilogue"] not in ("none", "swiglu"):
        return [], f"epilogue {row['epilogue']}: torch._grouped_mm takes no bias ('Bias not supported yet')"
    if fp8:
        if ab != "e4m3" or row["b"] != "e4m3":
            return [], f"{ab} x {row['b']}: torch._scaled_grouped_mm takes e4m3 operands only"
        if row["scale"] == "block":
            return [], ("scale block (1x128 A, 128x128 B): torch._scaled_grouped_mm has rowwise float32 "
                        "or MX (e8m0, sm_100) scales, no DeepSeek-style blocks")
        if row["d"] != "bf16":
            return [], f"d {row['d']}: torch._scaled_grouped_mm writes bf16 only"
        if mode != "contiguous" or row["op_a"] != "N" or row["op_b"] != "T":
            return [], (f"{mode} {row['op_a']}{row['op_b']} fp8: only contiguous NT (row-major A, B "
                        "[G, N, K] column-major as torch needs) is expressed here")
        if row["epilogue"] != "none" or row["row_scale"] or row["gather"]:
            return [], "fp8 with an epilogue, row_scale or gather: not expressed here"
        if k % 16 or row["n"] % 16:
            return [], f"k {k}, n {row['n']}: torch's fp8 grouped GEMM needs both multiples of 16"
        return ["scaled_grouped_mm", "loop scaled_mm"], None
    added = row.get("scatter") == "add" and row["d"] == "f32"  # bf16 GEMM, then index_add_ into f32
    if ab != "bf16" or row["b"] != "bf16" or (row["d"] != "bf16" and not added):
        return [], (f"{ab} x {row['b']} -> {row['d']}: torch._grouped_mm's CUTLASS path is bf16 only "
                    "(others fall back to a loop of mm)")
    if mode == "k":
        if row["op_a"] != "T" or row["op_b"] != "N":
            return [], (f"K mode {row['op_a']}{row['op_b']}: expressed for TN (dY [tokens, m], X "
                        "[tokens, n]) only, the layout whose K groups need no alignment")
        if row["m"] % 8 or row["n"] % 8:
            return [], f"m {row['m']}, n {row['n']}: torch needs 16-byte rows (multiples of 8)"
        return ["grouped_mm 2d x 2d", "loop matmul"], None
    if row["op_a"] != "N":
        return [], "op_a T: torch's ragged A is expressed row-major only (column-major needs 8-row groups)"
    if k % 8 or (row["op_b"] == "N" and row["b_cols"] % 8):
        return [], f"k {k}, n {row['b_cols']}: torch needs 16-byte rows (multiples of 8)"
    if mode == "masked":
        # torch has no masked layout (G entries of max_rows rows of which the first counts[g]
        # exist). The closest: a 3-D batched _grouped_mm or bmm over [G, max_rows, K], which
        # computes every max_rows row, and a 2-D _grouped_mm over the counts' rows packed one
        # after another (the pack, which a masked layout exists to avoid, is not timed).
        if row["epilogue"] != "none" or row["row_scale"]:
            return [], "masked with an epilogue or row_scale: not expressed here"
        return ["grouped_mm 3d (max_rows)", "bmm (max_rows)", "grouped_mm packed", "loop matmul"], None
    if row.get("scatter"):
        # tcj's combine in the GEMM (scatter: store or add), torch's after it, as an MoE layer
        # written with torch runs it: the same ops as the row without scatter, then index_copy_
        # (bf16 D) or index_add_ (into float32 D) of the rows to where tcj sends them.
        if row["scatter"] == "add" and row["d"] != "f32":
            return [], "scatter add into a non-f32 D: not expressed here"
        if row["scatter"] == "store" and row["d"] != "bf16":
            return [], "scatter store into a non-bf16 D: not expressed here"
        return ["grouped_mm+" + ("index_copy" if row["scatter"] == "store" else "index_add")], None
    ops = ["grouped_mm"]
    if row["epilogue"] == "swiglu":
        ops.append("grouped_mm+swiglu")
    if row["row_scale"]:
        ops.append("grouped_mm+row_scale")
    if row["gather"]:
        ops.append("index_select+grouped_mm")
    return ops + ["loop matmul"], None


def notes(row):
    """What the ops of row stand in for, where tcj's call has no torch twin."""
    out = []
    if row.get("ends") == "int64":
        out.append("tcj's int64 ends run as int32 offs")
    if row["b_ptrs"]:
        out.append("b_ptrs: torch takes the weights stacked [G, ...]")
    if row["gather"]:
        out.append("grouped_mm: A gathered beforehand")
    if row.get("scatter"):
        out.append("bf16 grouped_mm, then its rows sent to D as tcj's scatter sends them")
    if row["epilogue"] == "swiglu":
        out.append("grouped_mm: the 2n columns before SwiGLU")
    if row["scale"] == "tensor":
        out.append("per-tensor scales as rowwise arrays of one value")
    if row["mode"] == "masked":
        out.append("masked: 3d/bmm compute all max_rows rows; packed omits the pack copy")
    return "; ".join(out)


def shapes(row):
    """The operands' shapes as the ops see them, for --dry-run."""
    g, n, k, cols, rows = row["groups"], row["n"], row["k"], row["b_cols"], row["rows"]
    if row["mode"] == "k":
        return f"A [{k}, {row['m']}]^T, B [{k}, {n}], offs int32[{g}] -> D [{g}, {row['m']}, {n}]"
    weights = f"[{g}, {cols}, {k}] as [{g}, {k}, {cols}]" if row["op_b"] == "T" else f"[{g}, {k}, {cols}]"
    if row["mode"] == "masked":
        return (f"A [{g}, {row['m']}, {k}], B {weights} -> D [{g}, {row['m']}, {n}] (packed: A [{rows}, {k}], "
                f"offs int32[{g}] -> D [{rows}, {n}])")
    a = f"[{rows}, {k}]" if not row["gather"] else f"[{row['gather_rows']}, {k}] gathered to [{rows}, {k}]"
    return f"A {a}, B {weights}, offs int32[{g}] -> D [{rows}, {n}]"


# ---- GPU side -----------------------------------------------------------------------------------

class Op:
    """A timed op: run(set) gives its result; group_out(result, g) group g's rows of D."""

    def __init__(self, run, group_out, final=True):
        self.run, self.group_out, self.final = run, group_out, final


def make_problem(torch, row, seed):
    """(make_set, reference, ops) for row: make_set(i) builds a buffer set of random operands;
    reference(s, g, rows, final) is group g's rows of D in float32 (final: after SwiGLU and
    row_scale); ops maps each op name of plan(row) to an Op."""
    F = torch.nn.functional
    dev, bf16 = "cuda", torch.bfloat16
    mode, G, n, k, cols = row["mode"], row["groups"], row["n"], row["k"], row["b_cols"]
    sizes = [int(v) for v in row["sizes"]]
    ends, start = [], 0
    for v in sizes:
        start += v
        ends.append(start)
    starts = [e - v for e, v in zip(ends, sizes)]
    offs = torch.tensor(ends, dtype=torch.int32, device=dev)
    fp8 = row["ab"] == "e4m3"
    fast = bool(row["fast_accum"])
    gen = torch.Generator(device=dev)
    gen.manual_seed(seed)

    def randn(*shape):
        return torch.randn(*shape, device=dev, dtype=torch.float32, generator=gen)

    def weights():  # [G, cols, K] (op_b T, nn.Linear) or [G, K, cols]; returns (stored, [G, K, cols] view)
        if row["op_b"] == "T":
            w = randn(G, cols, k).to(bf16)
            return w, w.transpose(-2, -1)
        w = randn(G, k, cols).to(bf16)
        return w, w

    def activate(x, rs):  # SwiGLU (gate columns first) and row_scale, as tcj's epilogue
        if row["epilogue"] == "swiglu":
            x = F.silu(x[:, :n]) * x[:, n:]
        return x * rs.unsqueeze(1) if rs is not None else x

    if mode == "k":
        def make_set(_):
            return {"a": randn(k, row["m"]).to(bf16), "b": randn(k, n).to(bf16)}

        def reference(s, g, rows, final):
            a = s["a"][starts[g]:ends[g]].float()
            return (a.t()[rows] @ s["b"][starts[g]:ends[g]].float())

        def loop(s):
            return [s["a"][b:e].t() @ s["b"][b:e] if e > b else None for b, e in zip(starts, ends)]

        ops = {"grouped_mm 2d x 2d": Op(lambda s: torch._grouped_mm(s["a"].t(), s["b"], offs=offs),
                                        lambda out, g: out[g]),
               "loop matmul": Op(loop, lambda out, g: out[g])}
        return make_set, reference, ops

    if mode == "masked":
        counts = sizes
        packed_offs = offs  # the counts' ends: the packed rows one group after another

        def make_set(_):
            w, wt = weights()
            a3 = randn(G, row["m"], k).to(bf16)
            packed = torch.cat([a3[g, :counts[g]] for g in range(G)])
            return {"a3": a3, "packed": packed, "w": w, "wt": wt}

        def reference(s, g, rows, final):
            return s["a3"][g, rows].float() @ s["wt"][g].float()

        def loop(s):
            return [s["a3"][g, :c] @ s["wt"][g] if c else None for g, c in enumerate(counts)]

        ops = {"grouped_mm 3d (max_rows)": Op(lambda s: torch._grouped_mm(s["a3"], s["wt"]),
                                              lambda out, g: out[g, :counts[g]]),
               "bmm (max_rows)": Op(lambda s: torch.bmm(s["a3"], s["wt"]), lambda out, g: out[g, :counts[g]]),
               "grouped_mm packed": Op(lambda s: torch._grouped_mm(s["packed"], s["wt"], offs=packed_offs),
                                       lambda out, g: out[starts[g]:ends[g]]),
               "loop matmul": Op(loop, lambda out, g: out[g])}
        return make_set, reference, ops

    R = row["rows"]
    contiguous = lambda out, g: out[starts[g]:ends[g]]  # noqa: E731
    if fp8:
        tensor_scales = row["scale"] == "tensor"

        def make_set(_):
            w = randn(G, n, k).to(torch.float8_e4m3fn)
            sa = torch.full((R,), 0.5, device=dev) if tensor_scales else 0.5 + randn(R).abs().clamp(max=1)
            sb = torch.full((G, n), 0.25, device=dev) if tensor_scales else 0.5 + randn(G, n).abs().clamp(max=1)
            return {"a": randn(R, k).to(torch.float8_e4m3fn), "w": w, "sa": sa, "sb": sb}

        def reference(s, g, rows, final):
            a = s["a"][starts[g]:ends[g]][rows].float() * s["sa"][starts[g]:ends[g]][rows].unsqueeze(1)
            return (a @ s["w"][g].float().t()) * s["sb"][g].unsqueeze(0)

        def grouped(s):
            return torch._scaled_grouped_mm(s["a"], s["w"].transpose(-2, -1), s["sa"], s["sb"], offs=offs,
                                            out_dtype=bf16, use_fast_accum=fast)

        def loop(s):
            return [torch._scaled_mm(s["a"][b:e], s["w"][g].t(), s["sa"][b:e].unsqueeze(1),
                                     s["sb"][g].unsqueeze(0), out_dtype=bf16, use_fast_accum=fast)
                    if e > b else None for g, (b, e) in enumerate(zip(starts, ends))]

        ops = {"scaled_grouped_mm": Op(grouped, contiguous), "loop scaled_mm": Op(loop, lambda out, g: out[g])}
        return make_set, reference, ops

    def make_set(_):
        w, wt = weights()
        s = {"w": w, "wt": wt}
        if row["gather"]:
            s["tokens"] = randn(row["gather_rows"], k).to(bf16)
            s["index"] = torch.randint(0, row["gather_rows"], (R,), device=dev, generator=gen)
            s["a"] = s["tokens"].index_select(0, s["index"])
        else:
            s["a"] = randn(R, k).to(bf16)
        s["rs"] = (0.5 + randn(R).abs().clamp(max=1)).to(bf16) if row["row_scale"] else None
        if row.get("scatter"):  # a shuffle of the rows: the expert sort undone
            s["perm"] = torch.randperm(R, device=dev, generator=gen)
        return s

    def reference(s, g, rows, final):
        d = s["a"][starts[g]:ends[g]][rows].float() @ s["wt"][g].float()
        rs = s["rs"][starts[g]:ends[g]][rows].float() if s["rs"] is not None else None
        return activate(d, rs) if final else d

    def loop(s):
        return [s["a"][b:e] @ s["wt"][g] if e > b else None for g, (b, e) in enumerate(zip(starts, ends))]

    def gemm(s):
        return torch._grouped_mm(s["a"], s["wt"], offs=offs)

    def combined(s):  # (D, where each row went)
        a = s["tokens"].index_select(0, s["index"]) if row["gather"] else s["a"]
        y = activate(torch._grouped_mm(a, s["wt"], offs=offs), s["rs"])
        if row["scatter"] == "store":
            return torch.empty(R, n, device=dev, dtype=bf16).index_copy_(0, s["perm"], y), s["perm"]
        return torch.zeros(R, n, device=dev).index_add_(0, s["perm"], y.float()), s["perm"]

    sent = lambda out, g: out[0][out[1][starts[g]:ends[g]]]  # noqa: E731
    ops = {"grouped_mm+index_copy": Op(combined, sent), "grouped_mm+index_add": Op(combined, sent),
           "grouped_mm": Op(gemm, contiguous, final=row["epilogue"] == "none" and not row["row_scale"]),
           "grouped_mm+swiglu": Op(lambda s: activate(gemm(s), None), contiguous, final=not row["row_scale"]),
           "grouped_mm+row_scale": Op(lambda s: activate(gemm(s), s["rs"]), contiguous),
           "index_select+grouped_mm": Op(lambda s: activate(torch._grouped_mm(s["tokens"].index_select(
               0, s["index"]), s["wt"], offs=offs), s["rs"]), contiguous),
           "loop matmul": Op(loop, lambda out, g: out[g], final=row["epilogue"] == "none" and not row["row_scale"])}
    return make_set, reference, ops


def check(torch, row, op, s, reference):
    """max |got - ref| / max |ref| over sampled rows of sampled non-empty groups."""
    nonempty = [g for g, v in enumerate(row["sizes"]) if v > 0]
    if not nonempty:
        return 0.0
    largest = max(nonempty, key=lambda g: row["sizes"][g])
    groups = sorted({nonempty[0], largest, nonempty[-1]})[:SAMPLE_GROUPS]
    out = op.run(s)
    worst, scale = 0.0, 0.0
    for g in groups:
        got = op.group_out(out, g).float()
        rows = torch.linspace(0, got.shape[0] - 1, min(SAMPLE_ROWS, got.shape[0]), device=got.device).long()
        ref = reference(s, g, rows, op.final)
        worst = max(worst, (got[rows] - ref).abs().max().item())
        scale = max(scale, ref.abs().max().item())
    return worst / scale if scale > 0 else worst


def sets_for(torch, row):
    """Buffer sets so that one rotation exceeds 3x L2, as tcj-prof's (at most MAX_SETS, within
    a quarter of free memory)."""
    es = 1 if row["ab"] == "e4m3" else 2
    a_rows = row["groups"] * row["m"] if row["mode"] == "masked" else row["k"] if row["mode"] == "k" else row["rows"]
    a_cols = row["m"] if row["mode"] == "k" else row["k"]
    b = row["k"] * row["n"] if row["mode"] == "k" else row["groups"] * row["b_cols"] * row["k"]
    set_bytes = max(1, (a_rows * a_cols + b) * es)
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 << 20)
    free, _ = torch.cuda.mem_get_info()
    sets = min(MAX_SETS, max(1, -(-3 * l2 // set_bytes)))
    while sets > 1 and sets * set_bytes > free // 4:
        sets -= 1
    return sets


def time_op(torch, op, sets, repeat):
    """Median microseconds of repeat event-timed calls after WARMUP, rotating over sets."""
    for i in range(WARMUP):
        op.run(sets[i % len(sets)])
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(repeat)]
    for i, (start, end) in enumerate(events):
        start.record()
        op.run(sets[i % len(sets)])
        end.record()
    torch.cuda.synchronize()
    return 1e3 * statistics.median(start.elapsed_time(end) for start, end in events)


def first_line(e):
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:200]


def run_row(torch, row, ops_wanted, repeat, seed):
    """One result dict per op of row."""
    results = []
    tol = TOL_FAST_ACCUM if row["fast_accum"] else TOL
    make_set, reference, ops = make_problem(torch, row, seed)
    sets = [make_set(i) for i in range(sets_for(torch, row))]
    torch.cuda.synchronize()
    for name in ops_wanted:
        res = {"op": name, "status": "ok", "us": None, "tflops": None, "rel_err": None, "note": ""}
        try:
            res["rel_err"] = check(torch, row, ops[name], sets[0], reference)
            if not res["rel_err"] <= tol:
                res["status"], res["note"] = "mismatch", f"off the float32 reference by {res['rel_err']:.3g} > {tol}"
            else:
                res["us"] = time_op(torch, ops[name], sets, repeat)
                res["tflops"] = row["flops"] / (res["us"] * 1e6) if res["us"] > 0 else None
        except Exception as e:  # noqa: BLE001: report the op's failure and go on to the next one
            res["status"], res["note"] = "error", first_line(e)
            torch.cuda.synchronize()  # raises where the context is broken: the caller stops
        results.append(res)
    del sets
    torch.cuda.empty_cache()
    return results


# ---- output -------------------------------------------------------------------------------------

COLUMNS = ("row", "mode", "op", "status", "us", "tflops", "rel_err", "note")


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def print_table(records):
    print(f"{'row':<32} {'op':<26} {'status':<9} {'us':>10} {'TFLOP/s':>8} {'err':>8}  note")
    for r in records:
        print(f"{r['row']:<32} {r['op']:<26} {r['status']:<9} {fmt(r['us'], '10.2f')} "
              f"{fmt(r['tflops'], '8.1f')} {fmt(r['rel_err'], '8.1e')}  {r['note']}")


def write_csv(path, records, header):
    import csv
    with open(path, "w", newline="", encoding="utf-8") as f:
        for line in header:
            f.write(f"# {line}\n")
        w = csv.DictWriter(f, fieldnames=COLUMNS + ("flops", "problem"), extrasaction="ignore")
        w.writeheader()
        for r in records:
            w.writerow({key: "" if r.get(key) is None else r[key] for key in w.fieldnames})


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 every expressed op checked and timed, 1 a mismatch, an error or no "
               "GPU, 2 bad usage or input.")
    ap.add_argument("groups", help="JSON lines of tcj-prof --groups-out")
    ap.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    ap.add_argument("--filter", action="append", default=[], metavar="SUBSTR",
                    help="only rows whose name contains SUBSTR (repeated: any of them)")
    ap.add_argument("--repeat", type=int, default=20, metavar="N", help="timed calls per op (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random operands (default 1)")
    ap.add_argument("--dry-run", action="store_true",
                    help="print what would run for each row, without importing torch")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat wants a count of 1 or more")

    rows = [r for r in load(args.groups) if not args.filter or any(f in r["name"] for f in args.filter)]
    if not rows:
        die(f"no row of {args.groups} matches")
    plans = [(row, *plan(row)) for row in rows]

    if args.dry_run:
        for row, ops, reason in plans:
            head = f"{row['name']}: {row['mode']} {row['ab']} G{row['groups']} rows {row['rows']} n {row['n']} k {row['k']}"
            if reason:
                print(f"{head}: not expressed: {reason}")
                continue
            print(f"{head}: {shapes(row)}")
            for op in ops:
                print(f"  {op}")
            if notes(row):
                print(f"  note: {notes(row)}")
        expressed = sum(1 for _, ops, _ in plans if ops)
        print(f"{len(rows)} rows: {expressed} expressed, {len(rows) - expressed} not")
        return 0

    try:
        import torch
    except ImportError as e:
        print(f"torch_grouped: needs PyTorch (--dry-run does not): {e}", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print("torch_grouped: no CUDA device visible to torch", file=sys.stderr)
        return 1
    missing = [f for f in ("_grouped_mm", "_scaled_grouped_mm", "_scaled_mm") if not hasattr(torch, f)]
    header = [f"torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name(0)}",
              f"median of {args.repeat} CUDA-event-timed calls after {WARMUP}; seed {args.seed}; {args.groups}"]
    for line in header:
        print(f"torch_grouped: {line}", file=sys.stderr)
    if missing:  # their ops fail one by one, named in the table
        print(f"torch_grouped: warning: this torch lacks {', '.join('torch.' + f for f in missing)}",
              file=sys.stderr)

    records, broken, failed = [], None, False
    for row, ops, reason in plans:
        base = {"row": row["name"], "problem": row.get("problem", row["name"]), "mode": row["mode"],
                "flops": row["flops"]}
        if reason or broken:
            note = reason or f"not run: the CUDA context broke at {broken}"
            records.append({**base, "op": "-", "status": "skipped" if reason else "error", "us": None,
                            "tflops": None, "rel_err": None, "note": note})
            failed |= not reason
            continue
        note = notes(row)
        try:
            results = run_row(torch, row, ops, args.repeat, args.seed)
        except Exception as e:  # noqa: BLE001: a row that cannot even be set up (memory, a broken context)
            results = [{"op": "-", "status": "error", "us": None, "tflops": None, "rel_err": None,
                        "note": first_line(e)}]
            try:
                torch.cuda.synchronize()
            except Exception:  # noqa: BLE001
                broken = row["name"]
        for res in results:
            res["note"] = "; ".join(x for x in (res["note"], note if res["status"] == "ok" else "") if x)
            records.append({**base, **res})
            failed |= res["status"] != "ok"
        print(f"torch_grouped: {row['name']}: " + ", ".join(
            f"{r['op']} {fmt(r['us'], '.2f')} us" if r["status"] == "ok" else f"{r['op']} {r['status']}"
            for r in results), file=sys.stderr)

    print_table(records)
    if args.csv:
        try:
            write_csv(args.csv, records, header)
        except OSError as e:
            print(f"torch_grouped: cannot write {args.csv}: {e.strerror}", file=sys.stderr)
            return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
