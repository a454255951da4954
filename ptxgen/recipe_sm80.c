/* SPDX-License-Identifier: Apache-2.0 */
/* The sm80 recipe's row (recipe.h): mma.sync with cp.async multistage loads (gemm_sm80.c), every
 * arch from sm_80 on; its config rules, shared memory and grid. */
#include "recipe.h"

#include "group_schedule.h"
#include "ptxgen.h"
#include "recipes.h"

static int is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

static const char *check_sm80(const tcj_kernel_cfg *c) {
  int es = ptx_elem_size(c->ab);
  if (c->ab == PTX_E_F64) return "f64 runs on the dmma recipe";
  if (c->cluster_m || c->cluster_n || c->pingpong) return "the sm80 recipe has no clusters or ping-pong";
  if (c->vec_c != 1 && c->vec_c != 2) return "sm80 stores 1 or 2 elements of C at a time";
  if (c->sm < 80) return "the sm80 recipe needs sm_80 or newer";
  /* A contiguous group starts at any row, so with A op T (rows contiguous in memory) a tile's
   * first row has any alignment: its copies would have to be single 2-byte elements, and the
   * narrowest copy here is 4 bytes. The engine transposes such an A first, or refuses. */
  if ((c->grouped == PTX_GROUP_ENDS32 || c->grouped == PTX_GROUP_ENDS64) && c->op_a_t)
    return "contiguous groups need A op N on the sm80 recipe (a group may start at any row)";
  const char *c_rule = tcj_cfg_check_c_type(c->ab, c->c);
  if (c_rule) return c_rule;
  /* mma.sync m16n8k32 takes e4m3/e5m2 from sm_89 (PTX ISA 9.7.13.4); it adds every product
   * into the fp32 accumulators itself, so there is nothing to promote. */
  if (ptx_elem_is_fp8(c->ab) && c->sm < 89) return "fp8 mma needs sm_89 or newer";
  if (c->fast_accum) return "the sm80 recipe has no fast accumulation (fp8 mma.sync accumulates in fp32)";
  if (c->n < 0 || c->k < 0 || c->k > INT32_MAX || c->n > INT32_MAX) return "n or k out of range";
  /* One K tile is 64 or 128 bytes: a multiple of the 32 bytes one mma consumes per row.
   * These two rules divide rather than multiply: bk and the warp grid may come from text (a
   * config line, TCJ_TILE) with any int, and a product could overflow into an accepted value. */
  if (c->bk != 64 / es && c->bk != 128 / es) return "bk must span 64 or 128 bytes";
  if (!is_pow2(c->warps_m) || !is_pow2(c->warps_n) || c->warps_n > 8 / c->warps_m) return "bad warp grid";
  if (c->bm % (16 * c->warps_m) || c->bn % (16 * c->warps_n)) return "warp tile must be a multiple of 16x16";
  /* bm 16 is one warp row of 16-row fragments (decode: m <= 16). */
  if (!is_pow2(c->bm) || !is_pow2(c->bn) || c->bm < 16 || c->bn < 32 || c->bm > 256 || c->bn > 256) return "bad tile";
  if (c->stages < 2 || c->stages > 8) return "stages must be 2..8";
  if (c->split_k == 1 || c->split_k < 0 || c->split_k > TCJ_SPLIT_MAX) return "split_k must be 0 (none) or 2..64";
  if (c->split_k && c->ab == PTX_E_S8) return "split-K sums fp32 partials: not for s8";
  /* Clusters need sm_90; the slices of a tile share one cluster along the grid's y. */
  if (c->split_cluster != 0 && c->split_cluster != 1) return "reduce=cluster is a flag";
  if (c->split_cluster && (c->sm < 90 || c->split_k < 2 || c->split_k > TCJ_CLUSTER_MAX))
    return "a cluster split needs sm_90 or newer and 2..8 slices";
  if (c->split_k && !c->generic && tcj_cfg_slice_tiles(c) * (c->split_k - 1) * c->bk >= c->k)
    return "split_k leaves a slice without K";
  if ((c->align_a != 4 && c->align_a != 8 && c->align_a != 16) || (c->align_b != 4 && c->align_b != 8 && c->align_b != 16)) return "copy alignment must be 4, 8 or 16";
  if (c->align_a < es || c->align_b < es) return "copy narrower than an element";
  /* MN-major tf32 and s8 fragments are gathered element by element (ldmatrix.trans moves
   * 16-bit elements only): with a 64x64 warp tile the address arithmetic exhausts the
   * registers and spills (seen on sm_89 with 4-byte copies). */
  int wm = c->bm / c->warps_m, wn = c->bn / c->warps_n;
  if (wm * wn > 64 * 64) return "warp tile larger than 64x64 (accumulators exceed the registers)";
  /* 3xTF32 keeps each mma's four partial sums beside the accumulators: 16 bytes spilled at a
   * 64x64 warp tile on sm_80 and sm_89 (ptxas 13.0). */
  if (c->tf32x3 && wm * wn > 64 * 32) return "3xTF32 needs a warp tile of at most 64x32";
  /* fp8 row scales and row_scale read a scale per row (and column) of each fragment in the
   * epilogue: at a 64x64 warp tile on sm_89 (ptxas 13.0) row scales spilled 24 bytes, row_scale
   * beside a bias and GELU 12. */
  if ((c->scale_row || c->row_scale) && wm * wn > 64 * 32)
    return "fp8 row scales and row_scale need a warp tile of at most 64x32";
  if (es != 2 && (c->op_a_t || !c->op_b_t) && wm * wn > 64 * 32)
    return "tf32 or s8 with an MN-major operand needs a warp tile of at most 64x32";
  /* Narrow copies keep one swizzled destination register per copy: with 64x64 warp tiles
   * those registers spill (seen with 4-byte copies of 128x128 and 128x256 tiles). */
  if ((c->align_a < 16 || c->align_b < 16) && wm * wn > 64 * 32)
    return "copies narrower than 16 bytes need a warp tile of at most 64x32";
  /* Elements each thread gathers per mma k step and operand: past 32 their hoisted addresses
   * spill (seen with s8, A MN-major, 64x32 warp tiles). */
  int per_reg = 4 / es;
  if (es != 2 && ((c->op_a_t && wm / 16 * 4 * per_reg > 32) || (!c->op_b_t && wn / 8 * 2 * per_reg > 32)))
    return "MN-major s8 fragments of this warp tile need more than 32 gathered bytes per thread";
  /* Each thread copies whole chunks: the tile must divide evenly among the threads. */
  int threads = tcj_cfg_warp_threads(c);
  if ((c->bm * c->bk * es / c->align_a) % threads || (c->bn * c->bk * es / c->align_b) % threads) return "tile does not divide among threads";
  /* The recipe keeps each thread's copy destinations of an operand in 32 registers (MAX_CHUNKS). */
  if (c->bm * c->bk * es / c->align_a > 32 * threads || c->bn * c->bk * es / c->align_b > 32 * threads)
    return "more than 32 copies per thread and operand (narrow copies of a deep tile)";
  /* SwiGLU interleaves B's halves by n8 blocks (gemm_sm80.c): a thread's copies must lie whole
   * 16-wide block pairs apart along N, so that one offset maps them all into B. */
  if (tcj_cfg_swiglu(c)) {
    int cpr = c->op_b_t ? c->bk * es / c->align_b : c->bn * es / c->align_b, chunks = c->bn * c->bk * es / c->align_b / threads;
    for (int i = 1; i < chunks; i++) {
      int mn_apart = c->op_b_t ? i * threads / cpr : i * threads % cpr * c->align_b / es;
      if (mn_apart % 16) return "swiglu: B's copies of a thread must lie 16 columns of op(B) apart (fewer threads per row)";
    }
    /* One copy holds columns of one n8 block. */
    if (!c->op_b_t && c->align_b / es > 8) return "swiglu: a copy of MN-major B spans more than 8 columns";
  }
  return NULL;
}

/* The cp.async ring of A and B tiles; a cluster split reuses it for the tile's fp32 partial
 * sums. */
static int smem_sm80(const tcj_kernel_cfg *c) {
  int ring = c->stages * (c->bm + c->bn) * c->bk * ptx_elem_size(c->ab);
  return c->split_cluster && c->bm * c->bn * 4 > ring ? c->bm * c->bn * 4 : ring;
}

ptx_grid ptx_tile_grid(const tcj_kernel_cfg *c, int64_t m, int64_t batch, int slots) {
  if (c->grouped) { /* batch: the groups; a persistent grid of the CTAs that fit (slots) */
    int64_t units = ptx_group_units(c->grouped, m, c->n, c->bm, tcj_cfg_tile_cols(c), batch);
    ptx_grid g = {slots > 0 && units > slots ? slots : units, 1};
    return g;
  }
  ptx_grid g = {(m + c->bm - 1) / c->bm * ((c->n + tcj_cfg_tile_cols(c) - 1) / tcj_cfg_tile_cols(c)) * batch, tcj_cfg_slices(c)};
  return g;
}

static const ptx_extra_entry *const extras_sm80[] = {&ptx_extra_reduce, &ptx_extra_split, NULL};

#define ELEM(e) (1u << (e))

const ptx_recipe_row ptx_recipe_sm80 = {
    .name = "sm80",
    .entry = PTX_GEMM_ENTRY,
    .check = check_sm80,
    .threads = tcj_cfg_warp_threads,
    .smem_bytes = smem_sm80,
    .grid = ptx_tile_grid,
    .gen = ptx_gen_gemm_sm80,
    .extras = extras_sm80,
    .elems = ELEM(PTX_E_F16) | ELEM(PTX_E_BF16) | ELEM(PTX_E_TF32) | ELEM(PTX_E_S8) | ELEM(PTX_E_E4M3) | ELEM(PTX_E_E5M2),
    .forceable = 1,
    /* 3xTF32 reads A [big | big | small] and B [big | small | big] per chunk, in order. */
    .split_parts = 3,
    /* mma.sync with e4m3/e5m2 needs PTX ISA 8.4 (ptxas: "mma with FP8 floating point type"
     * requires it); wgmma's fp8 forms and cvt to fp8 are in 8.0. */
    .fp8_isa_x10 = 84,
};
