/* SPDX-License-Identifier: Apache-2.0 */
/* The dmma recipe's row (recipe.h): f64 on the tensor cores' f64 mma.sync (gemm_dmma.c), every
 * arch from sm_80 on. f64 in and out, plain epilogue, one K range per tile; generic or
 * specialised. Its config rules and shared memory; it launches as the sm80 recipe does. */
#include "recipe.h"

#include "ptxgen.h"
#include "recipes.h"

static int is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

static const char *check_dmma(const tcj_kernel_cfg *c) {
  if (c->grouped) return "grouped kernels run on the sm80 recipe (f16 and bf16 operands)";
  if (c->ab != PTX_E_F64 || c->c != PTX_E_F64 || c->d != PTX_E_F64) return "the dmma recipe takes f64 A, B, C and D";
  if (c->sm < 80) return "f64 mma needs sm_80 or newer";
  const char *type_why = tcj_cfg_check_epilogue_type(c);
  if (type_why) return type_why;
  if (c->split_k || c->split_cluster || c->cluster_m || c->cluster_n || c->pingpong)
    return "the dmma recipe has no K split, clusters or ping-pong";
  if (c->fast_accum || c->block_scale || c->b_other || c->tf32x3) return "fp8 and 3xTF32 fields are not for f64";
  if (c->n < 0 || c->k < 0 || c->k > INT32_MAX || c->n > INT32_MAX) return "n or k out of range";
  if (c->bk != 16) return "dmma K tiles are 16 elements (128 bytes)";
  if ((c->bm != 64 && c->bm != 128) || (c->bn != 64 && c->bn != 128)) return "dmma tiles are 64 or 128 each way";
  if (!is_pow2(c->warps_m) || !is_pow2(c->warps_n) || c->warps_m * c->warps_n > 8 ||
      c->bm / c->warps_m < 16 || c->bn / c->warps_n < 8 || c->bm / c->warps_m > 64 || c->bn / c->warps_n > 64)
    return "dmma warp tiles are 16..64 rows and 8..64 columns, at most 8 warps";
  /* fp64 accumulators: 64 x 32 per warp is 64 registers pairs per thread. */
  if ((c->bm / c->warps_m) * (c->bn / c->warps_n) > 64 * 32) return "dmma warp tile larger than 64x32";
  if (c->stages < 2 || c->stages > 6) return "stages must be 2..6";
  if ((c->align_a != 8 && c->align_a != 16) || (c->align_b != 8 && c->align_b != 16)) return "f64 copies are 8 or 16 bytes";
  if (c->vec_c != 1 && c->vec_c != 2) return "f64 D is stored 1 or 2 elements at a time";
  if (c->vec_c == 2 && c->n % 2) return "pairs of D need an even n";
  int threads = tcj_cfg_warp_threads(c);
  int a_bytes = c->bm * c->bk * 8, b_bytes = c->bn * c->bk * 8;
  if ((a_bytes / c->align_a) % threads || (b_bytes / c->align_b) % threads) return "tile does not divide among threads";
  return NULL;
}

/* Each operand tile as it lies in global memory, rows padded (TCJ_DMMA_ROW_PAD). */
static int smem_dmma(const tcj_kernel_cfg *c) {
  int a_rows = c->op_a_t ? c->bk : c->bm, a_row = (c->op_a_t ? c->bm : c->bk) * 8;
  int b_rows = c->op_b_t ? c->bn : c->bk, b_row = (c->op_b_t ? c->bk : c->bn) * 8;
  return c->stages * (a_rows * (a_row + TCJ_DMMA_ROW_PAD) + b_rows * (b_row + TCJ_DMMA_ROW_PAD));
}

static const ptx_extra_entry *const extras_dmma[] = {NULL};

const ptx_recipe_row ptx_recipe_dmma = {
    .name = "dmma",
    /* The sm80 recipe's entry name and ABI: renaming it would change every dmma module's PTX
     * (and so its cache key) for nothing. */
    .entry = PTX_GEMM_ENTRY,
    .check = check_dmma,
    .threads = tcj_cfg_warp_threads,
    .smem_bytes = smem_dmma,
    .grid = ptx_tile_grid,
    .gen = ptx_gen_gemm_dmma,
    .extras = extras_dmma,
    .elems = 1u << PTX_E_F64,
    /* TCJ_RECIPE names sm80 or sm90 only: f64 has no other recipe to force. */
    .forceable = 0,
};
