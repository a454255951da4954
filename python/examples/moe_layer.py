# SPDX-License-Identifier: Apache-2.0
# A Qwen3-30B-A3B Mixture-of-Experts layer (128 experts, top-8, SwiGLU experts) built twice on the
# same seeded random bf16 weights: its expert GEMMs through torch._grouped_mm and through
# tcj.grouped_mm, where the SwiGLU, the gather of the token rows, the router weights and the
# combine are fused into the GEMMs: the down-projection writes each row token-major (scatter=,
# then a plain sum over the top-k rows; --combine add adds each row into its token's float32 row
# instead, --combine torch leaves the combine to torch's index_add_). Routing and dispatch (a stable sort by expert,
# no host sync) are the same torch code in both. Each runs under torch.compile(fullgraph=True) captured in a CUDA graph;
# the outputs are checked against a float32 reference and the graph replays are timed.
"""Qwen3-30B-A3B MoE layer: torch._grouped_mm vs tcj.grouped_mm, compiled and CUDA-graphed.

Run ``python python/examples/moe_layer.py`` on a CUDA GPU (sm_90 for torch._grouped_mm; ``--help``
for the options). Exit status: 0 when every row passes its check, 1 when one fails, 2 when no
CUDA GPU, no torch, or no usable torch._grouped_mm.
"""

import argparse
import os
import sys

HIDDEN, INTER, EXPERTS, TOP_K = 2048, 768, 128, 8

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # graph_bench, beside this file
from graph_bench import (RESULT_HEADER, add_common_args, allow_recompiles, int_list,  # noqa: E402
                         measure, setup)

# Set by main() (graph_bench.setup), so that --help (and the CPU test) need neither torch nor
# tcj's library.
torch = F = tcj = None


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--tokens", type=int_list, default="1,16,64,512,2048,8192",
                   help="tokens per layer call (each row)")
    p.add_argument("--no-gather", action="store_true",
                   help="tcj reads x[token] (a copy, as torch does) instead of gathering rows")
    # store by default: the faster on an H100 (2026-12-07, docs/perf.md), 1.23x / 1.32x torch at
    # 2048 / 8192 tokens against add's 1.19x / 1.22x.
    p.add_argument("--combine", choices=("store", "add", "torch"), default="store",
                   help="tcj's combine: store (the down-projection writes each row token-major, "
                        "scatter=, then a sum over top-k), add (it adds each row into its token's "
                        "float32 row by atomics, scatter_add=), torch (it writes rows in expert "
                        "order and index_add_ sums them, as the torch layer does)")
    return add_common_args(p)


# ---- the layer ---------------------------------------------------------------------------

def route(x, w_router):
    """Qwen3's router (softmax over the experts, top-k, renormalised: norm_topk_prob) as the
    softmax of the top-k logits, which is the same weights. The logits are float32 (x's bf16
    values, the bf16 router weights upcast), so every model, the reference included, picks the
    same experts: a bf16 router would flip near ties between them."""
    logits = F.linear(x.float(), w_router)
    top_logits, top_e = logits.topk(TOP_K, dim=-1)  # [tokens, TOP_K]
    return top_e, torch.softmax(top_logits, dim=-1)


def dispatch(top_e, top_w):
    """The (token, slot) pairs sorted by expert, without a host sync (CUDA-graph safe): the
    token of each sorted row, its router weight (float32), offs (int32 end row of each
    expert's rows, torch._grouped_mm's offs) and order (the flat (token, slot) position of each
    sorted row)."""
    flat = top_e.flatten()
    order = torch.argsort(flat, stable=True)
    token = order // TOP_K
    # scatter_add_ of ones, not bincount: bincount reads its length back to the host.
    counts = torch.zeros(EXPERTS, dtype=torch.int32, device=flat.device)
    counts.scatter_add_(0, flat, torch.ones_like(flat, dtype=torch.int32))
    return token, top_w.flatten()[order], torch.cumsum(counts, 0).to(torch.int32), order


def combine(x, token, y):
    """out[t] = the sum of token t's TOP_K rows of y (router-weighted), added in float32."""
    out = torch.zeros(x.shape[0], HIDDEN, dtype=torch.float32, device=x.device)
    return out.index_add_(0, token, y).to(x.dtype)


def moe_torch(x, w):
    top_e, top_w = route(x, w["router"])
    token, row_w, offs, _ = dispatch(top_e, top_w)
    h = torch._grouped_mm(x[token], w["w13"].transpose(1, 2), offs=offs)  # [rows, 2 INTER]
    h = F.silu(h[:, :INTER]) * h[:, INTER:]
    y = torch._grouped_mm(h, w["w2"].transpose(1, 2), offs=offs)  # [rows, HIDDEN] bf16
    return combine(x, token, y.float() * row_w[:, None])


def make_moe_tcj(gather, combine_by="store"):
    grouped_mm = tcj.grouped_mm  # looked up here, not in the traced code (tcj's lazy attributes)

    def moe_tcj(x, w):
        top_e, top_w = route(x, w["router"])
        token, row_w, offs, order = dispatch(top_e, top_w)
        token32 = token.to(torch.int32)
        hint = max(1, x.shape[0] * TOP_K // EXPERTS)  # rows per expert, for tcj's kernel choice
        # Up-projection with SwiGLU in the epilogue; gather: the kernel reads x's rows through
        # the int32 indices, so x[token] is never written out.
        if gather:
            h = grouped_mm(x, w["w13"].transpose(1, 2), offs=offs, activation="swiglu",
                           gather=token32, rows_hint=hint)
        else:
            h = grouped_mm(x[token], w["w13"].transpose(1, 2), offs=offs, activation="swiglu",
                           rows_hint=hint)
        w2 = w["w2"].transpose(1, 2)
        if combine_by == "store":
            # Each row times its router weight, stored at its (token, slot) position: a token's
            # rows side by side, summed in float32 as torch's combine does (deterministic).
            y = torch.empty(x.shape[0] * TOP_K, HIDDEN, dtype=x.dtype, device=x.device)
            grouped_mm(h, w2, offs=offs, row_scale=row_w, rows_hint=hint,
                       scatter=order.to(torch.int32), out=y)
            # The top-k rows added one slice at a time: Inductor makes that one pointwise kernel
            # that reads each slice's rows whole; .float().sum(1) became a reduction over the
            # middle dimension that took 317 us for the 268 MB at 8192 tokens (H200).
            y3 = y.view(x.shape[0], TOP_K, HIDDEN)
            out = y3[:, 0].float()
            for slot in range(1, TOP_K):
                out = out + y3[:, slot].float()
            return out.to(x.dtype)
        if combine_by == "add":
            # Down-projection and combine in one: each row times its router weight, added into
            # its token's float32 row by atomics (as index_add_ adds).
            out = torch.zeros(x.shape[0], HIDDEN, dtype=torch.float32, device=x.device)
            grouped_mm(h, w2, offs=offs, row_scale=row_w, rows_hint=hint, scatter_add=token32,
                       out=out)
            return out.to(x.dtype)
        # Down-projection, each row times its router weight in the epilogue. bf16 out, as
        # torch's, so both combines read the same bytes (out_dtype=torch.float32 would keep
        # more bits at twice the traffic).
        y = grouped_mm(h, w2, offs=offs, row_scale=row_w, rows_hint=hint)
        return combine(x, token, y.float())
    return moe_tcj


def moe_reference(x, w):
    """The float32 layer, one expert at a time (eager, host syncs allowed), weights upcast per
    expert; the same routing as the models."""
    x32 = x.float()
    top_e, top_w = route(x, w["router"])
    out = torch.zeros_like(x32)
    for e in range(EXPERTS):
        tok, slot = (top_e == e).nonzero(as_tuple=True)
        if tok.numel():
            h = F.linear(x32[tok], w["w13"][e].float())
            h = F.silu(h[:, :INTER]) * h[:, INTER:]
            out.index_add_(0, tok, F.linear(h, w["w2"][e].float()) * top_w[tok, slot, None])
    return out


def make_weights(device, seed):
    """Random bf16 weights, std 1/sqrt(fan_in); nn.Linear layouts: w13 [E, 2 INTER, HIDDEN]
    (gate rows, then up rows), w2 [E, HIDDEN, INTER]; the router's upcast once to float32."""
    gen = torch.Generator(device=device).manual_seed(seed)

    def rand(shape, std):
        return (torch.randn(shape, generator=gen, device=device) * std).to(torch.bfloat16)

    return {"router": rand((EXPERTS, HIDDEN), HIDDEN ** -0.5).float(),
            "w13": rand((EXPERTS, 2 * INTER, HIDDEN), HIDDEN ** -0.5),
            "w2": rand((EXPERTS, HIDDEN, INTER), INTER ** -0.5)}


def probe_grouped_mm(device):
    """torch._grouped_mm on a small problem: None when it works, else its error."""
    try:
        a = torch.randn(32, 64, device=device, dtype=torch.bfloat16)
        b = torch.randn(2, 48, 64, device=device, dtype=torch.bfloat16).transpose(1, 2)
        torch._grouped_mm(a, b, offs=torch.tensor([16, 32], device=device, dtype=torch.int32))
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001 - any failure means no baseline
        return f"{type(e).__name__}: {e}"
    return None


def main(argv=None):
    args = build_parser().parse_args(argv)
    global torch, F, tcj
    ready = setup("moe_layer.py", args)
    if isinstance(ready, int):
        return ready
    torch, F, tcj, device = ready
    error = probe_grouped_mm(device)
    if error:
        print(f"torch._grouped_mm (the baseline; bf16, sm_90) fails here: {error}", file=sys.stderr)
        return 2
    print(f"# Qwen3-30B-A3B MoE: hidden {HIDDEN}, {EXPERTS} experts x {INTER}, top-{TOP_K}, bf16; "
          f"tcj {'x[token] copy' if args.no_gather else 'gather'}, "
          f"{args.combine} combine; best of 3 interleaved "
          f"medians of {args.iters} CUDA-graph replays")

    return run(args, device)


def run(args, device):
    """The rows: build, capture, check and time; 1 when a check failed, else 0."""
    torch.set_grad_enabled(False)
    allow_recompiles(torch)
    weights = make_weights(device, args.seed)
    layers = {"torch": moe_torch, "tcj": make_moe_tcj(not args.no_gather, args.combine)}
    compiled = {name: torch.compile(fn, fullgraph=True, dynamic=False)
                for name, fn in layers.items()}

    print(f"{'tokens':>6} {RESULT_HEADER}")
    failed = False
    for tokens in args.tokens:
        gen = torch.Generator(device=device).manual_seed(args.seed * 1000003 + tokens)
        x = torch.randn((tokens, HIDDEN), generator=gen, device=device, dtype=torch.bfloat16)
        ok, text = measure(compiled, (x, weights), lambda: moe_reference(x, weights), args)
        failed |= not ok
        print(f"{tokens:6d} {text}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
