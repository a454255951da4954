/* SPDX-License-Identifier: Apache-2.0 */
/* The dmma recipe's plan (f64 on every arch, gemm_dmma.c). */
#include <string.h>

#include "engine/select_recipes.h"

/* f64: the dmma recipe (gemm_dmma.c), whatever TCJ_RECIPE says (it names the other types'
 * recipes). 128x128 tiles of 8 warps (64x32 each) where they make half a wave, else 64x64 of
 * 4; K tiles of 16; as many stages (up to 4) as shared memory holds. */
tcj_status select_plan_dmma(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan,
                            const char **why) {
  memset(plan, 0, sizeof *plan);
  tcj_kernel_cfg *c = &plan->cfg;
  select_fill_problem(p, caps, &ptx_recipe_dmma, c);
  int big = select_ceil_div(p->m, 128) * select_ceil_div(p->n, 128) * select_batch_of(p) >= caps->sm_count / 2;
  c->bm = c->bn = big ? 128 : 64;
  c->warps_m = 2;
  c->warps_n = big ? 4 : 2;
  c->bk = 16;
  /* 8-byte rows copy 8 bytes at a time; a large operand is packed into 16-byte rows first, as
   * for the sm80 recipe: f64 4095^3 ran at 38.6 TFLOP/s on 8-byte copies against 49 at 4096^3
   * (H100). */
  tcj_status st = select_plan_operand("A", p->align_a, select_elems(p->m, p->k), allow_packing, &c->align_a,
                                      &plan->pack_a, why);
  if (st == TCJ_SUCCESS)
    st = select_plan_operand("B", p->align_b, select_elems(p->k, p->n), allow_packing, &c->align_b, &plan->pack_b,
                             why);
  if (st != TCJ_SUCCESS) return st;
  c->vec_c = p->align_c >= 16 && p->n % 2 == 0 ? 2 : 1;
  for (c->stages = 4; c->stages > 2 && tcj_cfg_smem_bytes(c) > caps->max_smem_optin; c->stages--) {
  }
  *why = tcj_cfg_check(c);
  return *why ? TCJ_ERROR_NOT_SUPPORTED : TCJ_SUCCESS;
}
