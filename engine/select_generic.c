/* SPDX-License-Identifier: Apache-2.0 */
/* Generic plans (tcj_kernel_cfg.generic): one kernel per class of problems, built from the
 * recipes' specialised plans (eng_select_generic). */
#include <stdio.h>

#include "engine/select_recipes.h"

/* A generic kernel serves a class of problems: recipe, types, op pair, epilogue, batch or not,
 * tile, and an alignment class that is kept coarse so that each class needs few kernels:
 * operands with 16-byte rows (others are packed, where packing is allowed) and D in 16-byte
 * vectors or single elements. The tiles are few too, so that `tcj-warmup --generic` compiles
 * at most 3 tiles x 4 op pairs x 2 D classes = 24 kernels per type pair and arch:
 *   f64, every arch: the dmma recipe's two tiles, 128x128 and 64x64, by the specialised rule;
 *   sm_90a, types the sm90 recipe takes: its 128x256, 128x128 and 64x128 tiles (128x192 where
 *     an epilogue refuses 128x256), by its time model, split along K where it splits (the count a
 *     launch value: no kernel of its own), without clusters or ping-pong,
 *     for every size (small and decode problems too: the sm80 tiles would double the set);
 *   elsewhere the sm80 recipe: 128x128, 64x64 and the 16-row decode tile, by the same rule as
 *     the specialised choice (pick_tile, select_sm80.c) without its larger and narrower tiles. */
static int sm90_generic_tile(const tcj_kernel_cfg *c) {
  return (c->bm == 128 && (c->bn == 256 || c->bn == 192 || c->bn == 128)) || (c->bm == 64 && c->bn == 128);
}

static int sm80_generic_tile(const eng_problem *p, const eng_device_caps *caps) {
  if (p->m <= 16) return TILE_DECODE_NARROW;
  if (p->m > 64 && select_sm80_tile_count(p, TILE_MEDIUM) >= caps->sm_count / 2) return TILE_MEDIUM;
  return TILE_SMALL;
}

/* What a generic kernel cannot bake (n, k and what derives from them), and the choices that are
 * worth a kernel only for one shape (clusters, ping-pong), removed. A workspace split stays: its
 * count is a launch value (tcj_cfg_splits_at_launch). */
static void generalise(tcj_kernel_cfg *c) {
  c->n = c->k = 0;
  c->generic = 1;
  if (c->split_cluster) c->split_k = c->split_cluster = 0;
  c->cluster_m = c->cluster_n = 0;
  c->pingpong = 0;
}

/* The D class: 16-byte vectors (sm90's TMA stores) or pairs (the sm80 recipe's), else one
 * element. A specialised sm80 kernel stores pairs only where its baked n is even; a generic
 * one cannot know, so pairs are a class of their own: n even (and C's rows aligned to pairs). */
static void coarse_d_vectors(const eng_problem *p, tcj_kernel_cfg *c) {
  int ves = ptx_elem_size(c->d) > ptx_elem_size(c->c) ? ptx_elem_size(c->d) : ptx_elem_size(c->c);
  if (ptx_recipe_of(c)->tensor_maps && c->vec_c * ves != 16) c->vec_c = 1;
  if (p->n % c->vec_c) c->vec_c = 1;
}

/* The sm90 generic plan: the time model's best generic tile, or -1. Past SKINNY_M rows it
 * splits K only where the model's best plan of any tile does (the specialised choice): a split
 * on a generic tile's estimate alone misled there, 128x4096x14336 taking 62.2 us on 64x128
 * split 4 against 49.5 unsplit where the best plan, 64x64, does not split. For decode rows
 * (the specialised choice is the sm80 recipe's cluster split) the model's generic choice is
 * kept: forcing a split there lost, qkv_m16 29.1 us against 25.9 unsplit, while down_m1 splits
 * by the model, 48.5 against 66.5 (H100, tcj-prof, TCJ_JIT=generic). */
static int generic_sm90(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan) {
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  const char *no = NULL;
  if (caps->sm != 90 || caps->arch_suffix != 'a' || p->k == 0 ||
      select_sm90_candidates(p, caps, allow_packing, all, &n, &no) != TCJ_SUCCESS)
    return -1;
  int split = all[0].plan.cfg.split_k >= 2;
  for (int pass = p->m <= SKINNY_M; pass < 2; pass++) /* the choice's split (or none) first, then any */
    for (int i = 0; i < n; i++)
      if (!all[i].plan.cfg.pingpong && sm90_generic_tile(&all[i].plan.cfg) &&
          (pass || (all[i].plan.cfg.split_k >= 2) == split)) {
        *plan = all[i].plan;
        select_sm90_tile_epilogue(caps, &plan->cfg);
        return 0;
      }
  return -1;
}

/* The sm80 generic plan: operands narrower than 16-byte rows packed (unless packing is off:
 * then their own copy width, a class of its own), the generic tile, or the 8-warp 128x128
 * where a layout refuses 4 warps' 64x64 warp tiles. */
static tcj_status generic_sm80(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan,
                               const char **why) {
  tcj_status st = select_plan_sm80(p, caps, allow_packing, plan, why); /* the recipe's own refusals, worded */
  if (st != TCJ_SUCCESS) return st;
  int align_a = plan->cfg.align_a, align_b = plan->cfg.align_b;
  if (allow_packing && align_a < 16 && select_elems(p->m, p->k) > 0) { plan->pack_a = ENG_PACK_COPY; align_a = 16; }
  if (allow_packing && align_b < 16 && select_elems(p->k, p->n) > 0) { plan->pack_b = ENG_PACK_COPY; align_b = 16; }
  int t = sm80_generic_tile(p, caps);
  select_sm80_fill_cfg(p, caps, t, align_a, align_b, &plan->cfg);
  if (t == TILE_MEDIUM && tcj_cfg_check(&plan->cfg))
    select_sm80_fill_cfg(p, caps, (t = TILE_MEDIUM_8W), align_a, align_b, &plan->cfg);
  if (tcj_cfg_check(&plan->cfg)) select_sm80_fill_cfg(p, caps, (t = TILE_SMALL), align_a, align_b, &plan->cfg);
  if (select_sm80_tile_count(p, t) > GRID_MAX / select_batch_of(p)) {
    *why = "m * n * batch_count needs more CTAs than a grid holds (2^31 - 1)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  /* K split through the workspace as the specialised choice would (never in a cluster: its
   * count is baked). */
  plan->cfg.split_k = select_pick_split(p, caps, &plan->cfg); /* a launch value for the generic kernel */
  if (plan->cfg.split_k && tcj_cfg_check(&plan->cfg)) plan->cfg.split_k = 0;
  return TCJ_SUCCESS;
}

/* The dmma generic plan (f64): the specialised choice's tile and stages, operands in 8-byte rows
 * packed into 16-byte rows as generic_sm80 packs (unless packing is off: then 8-byte copies, a
 * class of its own). No K split: the dmma recipe has none. */
static tcj_status generic_dmma(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan,
                               const char **why) {
  tcj_status st = select_plan_dmma(p, caps, allow_packing, plan, why);
  if (st != TCJ_SUCCESS) return st;
  tcj_kernel_cfg *c = &plan->cfg;
  if (allow_packing && c->align_a < 16 && select_elems(p->m, p->k) > 0) { plan->pack_a = ENG_PACK_COPY; c->align_a = 16; }
  if (allow_packing && c->align_b < 16 && select_elems(p->k, p->n) > 0) { plan->pack_b = ENG_PACK_COPY; c->align_b = 16; }
  if (select_ceil_div(p->m, c->bm) * select_ceil_div(p->n, c->bn) > GRID_MAX / select_batch_of(p)) {
    *why = "m * n * batch_count needs more CTAs than a grid holds (2^31 - 1)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return TCJ_SUCCESS;
}

tcj_status eng_select_generic(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                              const eng_tuning *tuning, eng_plan *plan, const char **why) {
  static _Thread_local char msg[256];
  if (eng_problem_one_plan(p)) {
    *why = p->grouped ? "grouped GEMM has no generic kernel (its specialised kernel serves every routing)"
                      : "SwiGLU has no generic kernel (its kernel bakes n, where B's up half starts)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  if (p->block_scale) {
    *why = "block-scaled fp8 has no generic kernel (its scale rows are baked from k)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  tcj_status st = TCJ_SUCCESS;
  if (p->ab == PTX_E_F64) { /* TCJ_RECIPE and TCJ_TILE name the other types' recipes */
    st = generic_dmma(p, caps, allow_packing, plan, why);
  } else if (tuning && (tuning->recipe || tuning->tile.valid)) {
    /* Forced (a measurement): the forced plan, generalised. */
    st = select_forced(p, caps, allow_packing, tuning, plan, why);
  } else if (generic_sm90(p, caps, allow_packing, plan) != 0) {
    st = generic_sm80(p, caps, allow_packing, plan, why);
  }
  if (st != TCJ_SUCCESS) return st;
  generalise(&plan->cfg);
  coarse_d_vectors(p, &plan->cfg);
  const char *bad = tcj_cfg_check(&plan->cfg);
  if (!bad && tcj_cfg_smem_bytes(&plan->cfg) > caps->max_smem_optin) bad = "shared memory";
  if (bad) {
    snprintf(msg, sizeof msg, "no generic kernel for this problem: %s", bad);
    *why = msg;
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return TCJ_SUCCESS;
}
