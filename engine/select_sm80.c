/* SPDX-License-Identifier: Apache-2.0 */
/* The sm80 recipe's plan (mma.sync + cp.async, every arch from sm_80 on): its tile menu, the
 * shape heuristic that picks a tile, the config a tile makes and the split of K in a cluster. */
#include <stdio.h>
#include <string.h>

#include "engine/select_recipes.h"

/* The tile menu, largest first. Warp tiles: 64x64 (large, medium), 64x32 (medium_8w), 32x32
 * (small, skinny). Measured on an H200 (tcj-bench, bf16 4096^3): 128x256 with 8 warps at one
 * CTA per SM reaches 0.65x cuBLAS, 128x128 with 4 warps at two CTAs per SM 0.54x. */
static const struct tile {
  int bm, bn, warps_m, warps_n;
  int bk_bytes; /* K bytes per stage; 0: 64 */
} tiles[TILE_COUNT] = {
  [TILE_LARGE] = {128, 256, 2, 4, 0},
  [TILE_MEDIUM] = {128, 128, 2, 2, 0},
  /* The fallback for layouts whose fragments need more address registers (MN-major tf32 and
   * s8, see tcj_cfg_check); never a first choice. */
  [TILE_MEDIUM_8W] = {128, 128, 2, 4, 0},
  [TILE_SMALL] = {64, 64, 2, 2, 0},
  [TILE_SKINNY] = {32, 128, 1, 4, 0},
  /* m <= 16 (decode): one 16-row fragment block, and 128 bytes of K per stage so that a
   * K-major weight (nn.Linear's) is read in whole 128-byte lines. 64 columns where the weight
   * is split along K anyway: twice the CTAs over N, fewer slices. Measured on an H100
   * (tcj-prof, bf16, cluster splits): 16x64 with 4 slices against 16x128 with 5 or 8,
   * 1x6144x4096 NT 24.1 us against 24.5 and 27.0, 16x4096x14336 NT 47.2 against 49.7 and 49.6.
   * Without a split 16x128 ran 1x28672x4096 NN in 80.9 us, 16x64 in 91-92 (with 3-8 slices). */
  [TILE_DECODE] = {16, 128, 1, 4, 128},
  [TILE_DECODE_NARROW] = {16, 64, 1, 2, 128},
};

#define MAX_STAGES 4 /* past four stages the sm80 mainloop gains nothing measurable */

int64_t select_sm80_tile_count(const eng_problem *p, int t) {
  return select_ceil_div(p->m, tiles[t].bm) * select_ceil_div(eng_problem_b_cols(p), tiles[t].bn);
}

/* Shape heuristic: the biggest tile that still gives every SM work. Large tiles need a full
 * wave (tiles >= SMs); medium tiles accept half a wave because two CTAs fit per SM; m <= 32
 * (decode-like) takes the skinny tile; everything else the small tile. */
static int pick_tile(const eng_problem *p, const eng_device_caps *caps) {
  if (p->m <= 16) return select_ceil_div(eng_problem_b_cols(p), 128) >= caps->sm_count ? TILE_DECODE : TILE_DECODE_NARROW;
  if (p->m <= 32) return TILE_SKINNY;
  if (p->m >= 128 && eng_problem_b_cols(p) >= 256 && select_sm80_tile_count(p, TILE_LARGE) >= caps->sm_count) return TILE_LARGE;
  if (p->m > 64 && select_sm80_tile_count(p, TILE_MEDIUM) >= caps->sm_count / 2) return TILE_MEDIUM;
  return TILE_SMALL;
}

void select_sm80_fill_cfg(const eng_problem *p, const eng_device_caps *caps, int t, int align_a,
                          int align_b, tcj_kernel_cfg *c) {
  int es = ptx_elem_size(p->ab);
  select_fill_problem(p, caps, &ptx_recipe_sm80, c);
  c->bm = tiles[t].bm;
  c->bn = tiles[t].bn;
  c->bk = (tiles[t].bk_bytes ? tiles[t].bk_bytes : 64) / es; /* 64 bytes: two 32-byte mma k-steps */
  /* 3xTF32 adds its partial sums into the accumulators once per K tile: 128-byte tiles halve
   * those roundings (emit_mma_step, gemm_sm80.c). */
  if (p->tf32x3) c->bk = 128 / es;
  c->warps_m = tiles[t].warps_m;
  c->warps_n = tiles[t].warps_n;
  c->align_a = align_a;
  c->align_b = align_b;
  c->vec_c = p->align_c >= 2 * select_cd_elem_size(p) ? 2 : 1;
  c->stages = 2;
  for (int s = MAX_STAGES; s > 2; s--) {
    c->stages = s;
    if (tcj_cfg_smem_bytes(c) <= caps->max_smem_optin) break;
    c->stages = 2;
  }
}

/* A 16x64 decode grid of at least one wave, which select_pick_split leaves whole (tiles >=
 * SMs): from one wave to about 1.3 (133-176 tiles on 132 SMs, where prefer_cluster_split's
 * rounding still gives two slices) most SMs stream the weight with one CTA beside others with
 * two, and slices in clusters even that out. Measured on an H100 (2026-12-07, tcj-prof
 * --repeat 50, bf16 NT, us, cuBLAS in the same run): 1x10240x8192 60.2 in 2-slice clusters
 * against 66.7 on the sm90 plan a large K-major weight got without a split (cuBLAS 63.5-63.8),
 * 8x10240x8192 60.8 against 64.1 (cuBLAS 64.3-64.5). The 16x128 tile's grids of that size (n
 * 16.9k to 22.5k) were not measured; batches are never split (select_pick_split), nor is s8
 * (tcj_cfg_check). */
static int decode_wave_grid(const eng_problem *p, const eng_device_caps *caps, const tcj_kernel_cfg *c) {
  return c->bm == 16 && c->bn == 64 && p->batch <= 1 &&
         select_ceil_div(p->m, c->bm) * select_ceil_div(p->n, c->bn) >= caps->sm_count;
}

/* On sm_90 and newer the slices of a split tile reduce in a cluster instead (one launch, no
 * workspace, no second kernel): about two CTAs per SM, at most TCJ_CLUSTER_MAX slices. Measured
 * on an H100 (tcj-prof, bf16 16x64 decode tiles, 3/4/6/8 slices): 1x6144x4096 NT 23.9, 24.0,
 * 24.6, 25.4 us; 16x4096x14336 NT 49.0, 47.1, 48.2, 48.9. Even where eight slices leave SMs
 * idle this beat the workspace: 8x1024x4096 NT ran in 9.5-10.5 us in clusters of 4 or 8
 * slices against 12.5 us with 16 slices through the workspace. An unsplit decode wave grid
 * (decode_wave_grid) is split here too, in clusters only: where they refuse, it stays whole. */
static void prefer_cluster_split(const eng_problem *p, const eng_device_caps *caps, tcj_kernel_cfg *c) {
  if (caps->sm < 90 || (c->split_k < 2 && !decode_wave_grid(p, caps, c))) return;
  tcj_kernel_cfg t = *c;
  int64_t tiles = select_ceil_div(p->m, c->bm) * select_ceil_div(p->n, c->bn), kt = select_ceil_div(p->k, c->bk);
  int64_t s = (2 * (int64_t)caps->sm_count + tiles / 2) / tiles; /* rounded */
  int64_t most = kt * c->bk * ptx_elem_size(p->ab) / MIN_SLICE_BYTES;
  if (s > most) s = most;
  if (s > TCJ_CLUSTER_MAX) s = TCJ_CLUSTER_MAX;
  if (s < 2) return;
  s = select_ceil_div(kt, select_ceil_div(kt, s)); /* equal slices; none left empty */
  t.split_k = (int)s;
  t.split_cluster = 1;
  if (s >= 2 && !tcj_cfg_check(&t) && tcj_cfg_smem_bytes(&t) <= caps->max_smem_optin) *c = t;
}

/* A grouped problem's plan (eng_problem.grouped): the sm80 plan of one group of the expected
 * rows (group_rows) with n and k (K groups: all m rows and the expected depth, group_rows;
 * their kernel reads its K range on the device, so its config keeps k = 0 and one kernel
 * serves every token count), without a K split (the groups fill the GPU, and a grouped
 * kernel has none) and without packing (the sm80 recipe copies 4, 8 or 16 bytes; an operand
 * aligned below 4 bytes is refused). tcj_cfg_check sees the grouped config, so a tile or
 * layout the grouped kernel does not take is passed over before anything is generated. */
tcj_status select_plan_sm80_grouped(const eng_problem *p, const eng_device_caps *caps, eng_plan *plan,
                                    const char **why) {
  eng_problem one = *p;
  if (ptx_group_k(p->grouped)) one.k = p->group_rows;
  else one.m = p->group_rows;
  tcj_status st = select_plan_sm80(&one, caps, 0, plan, why);
  if (st == TCJ_SUCCESS && ptx_group_k(p->grouped)) plan->cfg.k = 0;
  /* No tile the grouped kernel takes (tcj_cfg_check refused each): a limit of the grouped
   * kernel, not a selection bug. */
  if (st == TCJ_ERROR_INTERNAL) st = TCJ_ERROR_NOT_SUPPORTED;
  if (st != TCJ_SUCCESS) {
    static _Thread_local char msg[256];
    snprintf(msg, sizeof msg, "grouped GEMM (no packing in this release): %s", *why);
    *why = msg;
    return st;
  }
  if (eng_grouped_units(p, &plan->cfg) > GRID_MAX) {
    *why = "grouped GEMM: ceil(n / bn) * (ceil(m / bm) + group_count) tiles (masked and K groups: ceil(n / bn) * "
           "group_count * ceil(m / bm)) exceed the 2^31 - 1 CTAs of a grid";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return TCJ_SUCCESS;
}

/* The sm80 recipe's plan: every arch from sm_80 on, every operand type. */
tcj_status select_plan_sm80(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            eng_plan *plan, const char **why) {
  memset(plan, 0, sizeof *plan);
  if (caps->sm < 80) {
    *why = "the sm80 recipe needs sm_80 or newer";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  if (ptx_elem_is_fp8(p->ab) && caps->sm < 89) {
    *why = "fp8 operands need sm_89 or newer (mma.sync e4m3/e5m2)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  if (p->block_scale) {
    *why = "block scales run on the sm90 recipe only (sm_90a; other layouts than op_a N, op_b T are transposed "
           "first, which needs packing)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  int align_a, align_b;
  tcj_status st = select_plan_operand("A", p->align_a, select_elems(p->m, p->k), allow_packing, &align_a,
                                      &plan->pack_a, why);
  if (st == TCJ_SUCCESS)
    st = select_plan_operand("B", p->align_b, select_elems(p->k, p->n), allow_packing, &align_b, &plan->pack_b, why);
  if (st != TCJ_SUCCESS) return st;

  /* Preferred tile first, then the others in menu order, so a narrow copy width that does not
   * divide among a tile's threads falls back to a tile where it does. A decode tile falls back
   * to the other decode tile, then the short ones, before the tall ones: SwiGLU's interleaved B
   * refuses 16x64 (its copies lie 8 columns apart), and the menu's order gave a 4-row group a
   * 128x256 tile (Qwen3 decode: 229 us where 16x128 runs the unfused GEMM in 188). */
  int first = pick_tile(p, caps);
  static const int decode_order[TILE_COUNT] = {TILE_DECODE,  TILE_DECODE_NARROW, TILE_SKINNY, TILE_SMALL,
                                               TILE_MEDIUM, TILE_MEDIUM_8W,     TILE_LARGE};
  int decode = first == TILE_DECODE || first == TILE_DECODE_NARROW;
  const char *reason = NULL;
  for (int attempt = 0; attempt < 2; attempt++) {
    for (int i = -1; i < TILE_COUNT; i++) {
      int t = i < 0 ? first : decode ? decode_order[i] : i;
      if (i >= 0 && t == first) continue;
      select_sm80_fill_cfg(p, caps, t, align_a, align_b, &plan->cfg);
      if ((reason = tcj_cfg_check(&plan->cfg)) != NULL) continue;
      if (tcj_cfg_smem_bytes(&plan->cfg) > caps->max_smem_optin) { reason = "shared memory"; continue; }
      if (select_sm80_tile_count(p, t) > GRID_MAX / select_batch_of(p)) {
        *why = "m * n * batch_count needs more CTAs than a grid holds (2^31 - 1)";
        return TCJ_ERROR_NOT_SUPPORTED;
      }
      if (p->grouped) return TCJ_SUCCESS; /* no K split (select_plan_sm80_grouped) */
      plan->cfg.split_k = select_pick_split(p, caps, &plan->cfg);
      if (plan->cfg.split_k && tcj_cfg_check(&plan->cfg)) plan->cfg.split_k = 0;
      prefer_cluster_split(p, caps, &plan->cfg);
      return TCJ_SUCCESS;
    }
    /* No tile takes the narrow copies: pack the narrow operands and try again. */
    if (!allow_packing || (align_a == 16 && align_b == 16)) break;
    if (align_a < 16 && select_elems(p->m, p->k) > 0) { plan->pack_a = 1; align_a = 16; }
    if (align_b < 16 && select_elems(p->k, p->n) > 0) { plan->pack_b = 1; align_b = 16; }
  }
  static _Thread_local char msg[160];
  snprintf(msg, sizeof msg, "no sm80 config fits this problem: %s", reason ? reason : "?");
  *why = msg;
  return TCJ_ERROR_INTERNAL;
}
