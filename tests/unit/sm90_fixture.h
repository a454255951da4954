/* SPDX-License-Identifier: Apache-2.0 */
/* The valid sm90 config the unit tests start from: bf16, op NT, n = k = 4096, a 128x256 tile of
 * two 64-row consumer warpgroups, 4 stages, 8-element C stores, 2-CTA clusters. Tests change
 * the fields they are about. */
#ifndef TCJ_TEST_SM90_FIXTURE_H
#define TCJ_TEST_SM90_FIXTURE_H

#include <string.h>

#include "ptxgen/kernel_cfg.h"

static inline tcj_kernel_cfg sm90_fixture_cfg(void) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM90;
  c.sm = 90;
  c.arch_suffix = 'a';
  c.ab = PTX_E_BF16;
  c.c = PTX_E_BF16;
  c.op_a_t = 0;
  c.op_b_t = 1;
  c.n = 4096;
  c.k = 4096;
  c.bm = 128;
  c.bn = 256;
  c.bk = 64;
  c.warps_m = 2;
  c.warps_n = 1;
  c.stages = 4;
  c.align_a = 16;
  c.align_b = 16;
  c.vec_c = 8;
  c.cluster_m = 2;
  tcj_cfg_plain_epilogue(&c);
  return c;
}

#endif
