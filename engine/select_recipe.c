/* SPDX-License-Identifier: Apache-2.0 */
/* Which recipe's specialised plan a problem takes (select_recipe), and that plan under the
 * tuning knobs TCJ_RECIPE and TCJ_TILE (select_forced, which the generic plans use too). The
 * recipes' own heuristics are in select_sm80.c, select_sm90.c and select_dmma.c. */
#include <stdio.h>

#include "engine/select.h"
#include "engine/select_recipes.h"

/* Recipe choice: SKINNY_M (select_recipes.h, shared with the generic plans) says why decode
 * shapes that the sm80 plan splits along K stay on it. */
/* Small problems stay on the sm80 recipe too: the persistent kernel's fixed costs (barrier
 * setup, three tensor maps encoded per call, packing both unaligned operands) outweigh wgmma
 * below about 645^3. Measured on an H200 (tcj-prof, bf16, us sm80 vs sm90): 512^3 6.7 vs 8.2,
 * 511^3 (odd ld, both packed) 21.1 vs 23.3, 255^3 16.9 vs 23.7; 1024^3 14.0 vs 9.3 and 1000^3
 * (odd ld) 17.3 vs 14.1 go the other way. */
#define SMALL_MNK (1ll << 28)
/* ...unless it streams a large K-major weight (nn.Linear's layout) without a K split: there the
 * sm90 kernel's TMA reads beat the 16-row sm80 tiles. Measured on an H100 (tcj-prof, us, sm90
 * against sm80): bf16 1x28672x4096 NT 82.6 vs 87.0, 1x16384x8192 NT 94.1 vs 97.9, e4m3
 * 1x28672x4096 NT 46.3 vs 47.4 (117 MB); with B N-major sm80 keeps the lead (1x28672x4096 NN
 * 81.3 vs 84.6). */
#define SM90_DECODE_MIN_WEIGHT_BYTES (100ll << 20)
static int streams_a_large_k_major_weight(const eng_problem *p) {
  double bytes = (double)p->n * (double)p->k * ptx_elem_size(p->ab) * select_batch_of(p);
  return p->m <= SKINNY_M && p->op_b_t && bytes >= (double)SM90_DECODE_MIN_WEIGHT_BYTES;
}

/* Grouped problems whose groups are expected to hold at least this many rows (group_rows: the
 * caller's hint, or m / G) take the sm90 recipe on sm_90a: one 64-row wgmma block. Smaller
 * (decode-size) groups keep the sm80 recipe's 16- and 32-row tiles, where a wgmma tile would
 * be mostly padding. The sm90 kernel at DeepGEMM's contiguous shape is what it is for (4 x 8192
 * rows, n 4096, k 7168 bf16: the sm80 recipe ran it at 505 TFLOP/s on an H200, dense cuBLAS at
 * 842); where between 64 rows and that the crossover lies is not measured yet. */
#define SM90_GROUP_MIN_ROWS 64

static tcj_status select_recipe(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                                const ptx_recipe_row *forced, eng_plan *plan, const char **why) {
  static const char *ok = "";
  *why = ok;
  if (p->ab == PTX_E_F64) return select_plan_dmma(p, caps, allow_packing, plan, why);
  if (p->grouped) {
    /* k == 0 (a host alpha of 0) runs the sm80 recipe's kernel, as below: the sm90 one needs a
     * mainloop. */
    if (p->k > 0 && forced == &ptx_recipe_sm90) {
      tcj_status st = select_plan_sm90_grouped(p, caps, plan, why);
      if (st != TCJ_SUCCESS) {
        static _Thread_local char msg[256];
        snprintf(msg, sizeof msg, "TCJ_RECIPE=%s: %s", forced->name, *why);
        *why = msg;
      }
      return st;
    }
    /* Groups of a wgmma tile's rows or more take the sm90 recipe where it runs (sm_90a), and
     * fall back to the sm80 plan where it cannot address them (alignment, strides); block
     * scales, which only the sm90 recipe has, take it at any group size.
     * Gathered rows of A take it too: its cp.async producer (ptxgen/sm90_gather.c) ran
     * Qwen3-30B-A3B's gathered up-projection 1.55x faster than the sm80 kernel on an H100.
     * K groups too (group_rows is then the expected depth): 1.76-1.89x the sm80 kernel on the
     * weight gradients of Qwen3, DeepSeek-V3 and Mixtral (H100, docs/perf.md). k == 0 runs the
     * sm80 kernel, as above. */
    if (!forced && caps->sm == 90 && caps->arch_suffix == 'a' && p->k > 0 &&
        (p->group_rows >= SM90_GROUP_MIN_ROWS || p->block_scale)) {
      eng_plan sm90;
      const char *no = NULL;
      if (select_plan_sm90_grouped(p, caps, &sm90, &no) == TCJ_SUCCESS) {
        *plan = sm90;
        return TCJ_SUCCESS;
      }
    }
    return select_plan_sm80_grouped(p, caps, plan, why);
  }
  /* k == 0 has no mainloop for a recipe to run: the sm80 recipe's plain kernel scales C (the
   * sm90 recipe needs k >= 1), so a forced recipe still runs alpha == 0 and k == 0 calls. */
  if (forced == &ptx_recipe_sm90 && p->k > 0) {
    tcj_status st = select_plan_sm90(p, caps, allow_packing, plan, why);
    if (st != TCJ_SUCCESS) {
      static _Thread_local char msg[256];
      snprintf(msg, sizeof msg, "TCJ_RECIPE=%s: %s", forced->name, *why);
      *why = msg;
    }
    return st;
  }
  /* Block scales exist on the sm90 recipe only. */
  if (p->block_scale && !forced && caps->sm == 90 && caps->arch_suffix == 'a')
    return select_plan_sm90(p, caps, allow_packing, plan, why);
  tcj_status st = select_plan_sm80(p, caps, allow_packing, plan, why);
  if (st != TCJ_SUCCESS || forced == &ptx_recipe_sm80 || (plan->cfg.split_k && p->m <= SKINNY_M)) return st;
  if (p->m * p->n <= SMALL_MNK / (p->k > 0 ? p->k : 1) / select_batch_of(p) && !streams_a_large_k_major_weight(p))
    return st;
  eng_plan sm90;
  const char *no = NULL;
  if (select_plan_sm90(p, caps, allow_packing, &sm90, &no) == TCJ_SUCCESS) *plan = sm90;
  return TCJ_SUCCESS;
}

/* The specialised plan under a forced recipe and tile (either may be absent). */
tcj_status select_forced(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                         const eng_tuning *tuning, eng_plan *plan, const char **why) {
  tcj_status st = select_recipe(p, caps, allow_packing, tuning ? tuning->recipe : NULL, plan, why);
  /* TCJ_TILE: not f64's, and no tile of a k == 0 call (no mainloop; a host alpha of 0) */
  if (st != TCJ_SUCCESS || !tuning || p->ab == PTX_E_F64 || p->k == 0) return st;
  const char *bad = eng_tile_override_apply(&tuning->tile, caps, plan);
  if (!bad && p->grouped && plan->cfg.split_k) bad = "grouped GEMM does not split K";
  if (!bad && p->grouped && eng_grouped_units(p, &plan->cfg) > GRID_MAX) bad = "the grouped grid exceeds 2^31 - 1 CTAs";
  if (bad) {
    static _Thread_local char msg[256];
    snprintf(msg, sizeof msg, "TCJ_TILE: %s (selected recipe %s%s)", bad, tcj_recipe_name(plan->cfg.recipe),
             !tuning->recipe ? "; TCJ_RECIPE forces the other" : "");
    *why = msg;
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return TCJ_SUCCESS;
}
