# SPDX-License-Identifier: Apache-2.0
# A Llama-3-8B-like decoder stack (GQA attention with rotary embeddings, RMSNorm, SwiGLU MLP) built
# twice on the same seeded random bf16 weights: its linear layers through torch (F.linear, cuBLAS)
# and through tcj.linear (the MLP's SwiGLU fused into the gate/up GEMM's epilogue). Each runs under
# torch.compile(fullgraph=True) captured in a CUDA graph; the outputs are checked against a float32
# reference of the same model and the graph replays are timed, for decode (one new token per
# sequence over a KV cache) and prefill (one causal sequence, no cache).
"""Llama-3-8B-like decoder stack: torch (cuBLAS) vs tcj.linear, compiled and CUDA-graphed.

Run ``python python/examples/llama_block.py`` on a CUDA GPU (``--help`` for the options). Exit
status: 0 when every row passes its check, 1 when one fails, 2 when no CUDA GPU (or no torch).
"""

import argparse
import math
import os
import sys

HIDDEN, HEADS, KV_HEADS, HEAD_DIM, INTER = 4096, 32, 8, 128, 14336
EPS, ROPE_THETA = 1e-5, 500000.0

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # graph_bench, beside this file
from graph_bench import (RESULT_HEADER, add_common_args, allow_recompiles, int_list,  # noqa: E402
                         measure, setup)

# Set by main() (graph_bench.setup), so that --help (and the CPU test) need neither torch nor
# tcj's library.
torch = F = tcj = None


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--layers", type=int, default=4, help="decoder layers in the stack")
    p.add_argument("--mode", choices=("both", "decode", "prefill"), default="both",
                   help="which rows to run")
    p.add_argument("--decode-batches", type=int_list, default="1,8,16,32,64",
                   help="decode: sequences per step (one new token each)")
    p.add_argument("--context", type=int, default=1024, help="decode: KV cache positions")
    p.add_argument("--prefill-tokens", type=int_list, default="512,1024,2048,4096",
                   help="prefill: tokens of the one sequence")
    return add_common_args(p)


# ---- the model: one forward, two sets of linear layers -----------------------------------

class TorchLinears:
    """nn.Linear's F.linear (cuBLAS); upcast=True is the float32 reference (weights upcast per
    call, so no float32 copy of the whole stack is kept)."""

    def __init__(self, upcast=False):
        self.upcast = upcast

    def linear(self, x, w):
        return F.linear(x, w.float() if self.upcast else w)

    def swiglu(self, x, w13):  # w13 [2 * INTER, HIDDEN]: gate rows, then up rows
        gate, up = self.linear(x, w13).chunk(2, dim=-1)
        return F.silu(gate) * up


class TcjLinears:
    """tcj.linear; swiglu is one GEMM whose epilogue writes silu(gate) * up (INTER columns)."""

    def __init__(self):
        self._linear = tcj.linear  # looked up here, not in the traced code (tcj's lazy attributes)

    def linear(self, x, w):
        return self._linear(x, w)

    def swiglu(self, x, w13):
        return self._linear(x, w13, activation="swiglu")


def rms_norm(x, w):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS)).to(x.dtype) * w.to(x.dtype)


def rope(t, cos, sin):  # t [b, heads, s, HEAD_DIM]; cos, sin [s, HEAD_DIM] (rotate_half form)
    t1, t2 = t.chunk(2, dim=-1)
    return t * cos + torch.cat((-t2, t1), dim=-1) * sin


def decoder(lin, weights, x, cos, sin, caches=None):
    """x [tokens, HIDDEN]. caches None: prefill, the tokens are one sequence, causal attention.
    caches [(k, v)] per layer, each [batch, KV_HEADS, ctx + 1, HEAD_DIM]: decode, one token per
    sequence at position ctx; its K/V are written to slot ctx and it attends to all ctx + 1
    (a static cache: the same slot each step, which is all a benchmark needs)."""
    batch, seq = (1, x.shape[0]) if caches is None else (x.shape[0], 1)

    def heads(t, n):
        return t.view(batch, seq, n, HEAD_DIM).transpose(1, 2)

    for i, w in enumerate(weights["layers"]):
        h = rms_norm(x, w["attn_norm"])
        q = rope(heads(lin.linear(h, w["wq"]), HEADS), cos, sin)
        k = rope(heads(lin.linear(h, w["wk"]), KV_HEADS), cos, sin)
        v = heads(lin.linear(h, w["wv"]), KV_HEADS)
        if caches is None:
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        else:
            kc, vc = caches[i]
            pos = kc.shape[2] - 1
            # An in-place write into a graph input: Inductor keeps it in place (gpt-fast's
            # pattern) rather than copying the cache.
            kc[:, :, pos:pos + 1] = k
            vc[:, :, pos:pos + 1] = v
            o = F.scaled_dot_product_attention(q, kc, vc, enable_gqa=True)
        x = x + lin.linear(o.transpose(1, 2).reshape(batch * seq, HEADS * HEAD_DIM), w["wo"])
        x = x + lin.linear(lin.swiglu(rms_norm(x, w["mlp_norm"]), w["w13"]), w["w2"])
    return rms_norm(x, weights["final_norm"])


def make_forward(lin, weights):
    def forward(x, cos, sin, caches):
        return decoder(lin, weights, x, cos, sin, caches)
    return forward


def make_weights(layers, device, seed):
    """Random bf16 weights, std 1/sqrt(fan_in) so each projection keeps its input's scale; the
    two that add into the residual stream (wo, w2) are 1/sqrt(2 layers) smaller, so the stream
    stays O(1) however deep the stack."""
    gen = torch.Generator(device=device).manual_seed(seed)

    def rand(shape, std, mean=0.0):
        return (torch.randn(shape, generator=gen, device=device) * std + mean).to(torch.bfloat16)

    resid = 1.0 / math.sqrt(2 * layers)
    stack = [dict(attn_norm=rand((HIDDEN,), 0.1, 1.0),
                  wq=rand((HEADS * HEAD_DIM, HIDDEN), HIDDEN ** -0.5),
                  wk=rand((KV_HEADS * HEAD_DIM, HIDDEN), HIDDEN ** -0.5),
                  wv=rand((KV_HEADS * HEAD_DIM, HIDDEN), HIDDEN ** -0.5),
                  wo=rand((HIDDEN, HEADS * HEAD_DIM), (HEADS * HEAD_DIM) ** -0.5 * resid),
                  mlp_norm=rand((HIDDEN,), 0.1, 1.0),
                  w13=rand((2 * INTER, HIDDEN), HIDDEN ** -0.5),
                  w2=rand((HIDDEN, INTER), INTER ** -0.5 * resid))
             for _ in range(layers)]
    return {"layers": stack, "final_norm": rand((HIDDEN,), 0.1, 1.0)}


def rope_tables(positions, device):
    """cos and sin [len(positions), HEAD_DIM] in float32 (Llama 3's theta, no scaling)."""
    even = torch.arange(0, HEAD_DIM, 2, device=device, dtype=torch.float64)
    inv = ROPE_THETA ** -(even / HEAD_DIM)
    ang = torch.tensor(list(positions), device=device, dtype=torch.float64)[:, None] * inv[None, :]
    ang = torch.cat((ang, ang), dim=-1)
    return ang.cos().float(), ang.sin().float()


def make_inputs(mode, size, args, device):
    """The static input buffers of one row (bf16), seeded by the row."""
    row_seed = args.seed * 1000003 + size * 2 + (mode == "decode")
    gen = torch.Generator(device=device).manual_seed(row_seed)
    bf = dict(device=device, dtype=torch.bfloat16)
    x = torch.randn((size, HIDDEN), generator=gen, **bf)
    if mode == "prefill":
        cos, sin = rope_tables(range(size), device)
        caches = None
    else:
        cos, sin = rope_tables([args.context], device)
        shape = (size, KV_HEADS, args.context + 1, HEAD_DIM)
        caches = [(torch.randn(shape, generator=gen, **bf), torch.randn(shape, generator=gen, **bf))
                  for _ in range(args.layers)]
    return x, cos.to(torch.bfloat16), sin.to(torch.bfloat16), caches, (cos, sin)


def main(argv=None):
    args = build_parser().parse_args(argv)
    global torch, F, tcj
    ready = setup("llama_block.py", args)
    if isinstance(ready, int):
        return ready
    torch, F, tcj, device = ready
    print(f"# Llama-3-8B-like: {args.layers} layers, hidden {HIDDEN}, {HEADS}/{KV_HEADS} heads x "
          f"{HEAD_DIM}, MLP {INTER}, bf16; decode over {args.context} cached positions; "
          f"best of 3 interleaved medians of {args.iters} CUDA-graph replays")

    return run(args, device)


def run(args, device):
    """The rows: build, capture, check and time; 1 when a check failed, else 0."""
    torch.set_grad_enabled(False)
    allow_recompiles(torch)
    weights = make_weights(args.layers, device, args.seed)
    models = {"torch": TorchLinears(), "tcj": TcjLinears()}
    reference_lin = TorchLinears(upcast=True)
    # One compiled function per model; each mode and shape is a static recompile of it.
    compiled = {name: torch.compile(make_forward(lin, weights), fullgraph=True, dynamic=False)
                for name, lin in models.items()}

    rows = ([("decode", b) for b in args.decode_batches] if args.mode != "prefill" else []) + \
           ([("prefill", t) for t in args.prefill_tokens] if args.mode != "decode" else [])
    print(f"{'mode':8} {'size':>5} {RESULT_HEADER}")
    failed = False
    for mode, size in rows:
        x, cos, sin, caches, (cos32, sin32) = make_inputs(mode, size, args, device)

        def reference():
            # eager float32 on float32 copies of the same inputs and caches (the graphs wrote
            # only slot ctx, which every model writes before it reads)
            caches32 = None if caches is None else [(k.float(), v.float()) for k, v in caches]
            return decoder(reference_lin, weights, x.float(), cos32, sin32, caches32)

        ok, text = measure(compiled, (x, cos, sin, caches), reference, args)
        failed |= not ok
        print(f"{mode:8} {size:5d} {text}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
