/* SPDX-License-Identifier: Apache-2.0 */
/* A manifest problem as the tools run it: the gemm_problem of tcj-warmup and tcj-prof. */
#ifndef TCJ_TOOLS_MANIFEST_GEMM_H
#define TCJ_TOOLS_MANIFEST_GEMM_H

#include "tools/gemm_problem.h"
#include "tools/manifest.h"

static inline gemm_problem manifest_gemm(const manifest_problem *p) {
  gemm_problem g = {
    .ab = p->ab, .c = p->c, .op_a = p->op_a, .op_b = p->op_b, .m = p->m, .n = p->n, .k = p->k,
    .bias = manifest_epilogue_bias(p->epilogue), .act = manifest_epilogue_act(p->epilogue),
    .batch = p->batch, .broadcast_b = p->broadcast_b, .separate_d = p->has_d, .d = p->d,
    .epilogue_source = p->epilogue_source, .fast_accum = p->fast_accum, .has_b = p->has_b, .b = p->b,
    .scale = p->scale, .row_scale = p->row_scale,
  };
  if (p->group.mode != TCJ_GROUP_NONE) {
    /* Selection plans for the rows (K mode: the K) a group is expected to get: R / G, at most
     * max_rows. */
    int64_t hint = p->group.count ? p->group.rows / p->group.count : 0;
    if (p->group.mode == TCJ_GROUP_M_MASKED && hint > p->m) hint = p->m;
    g.group_mode = p->group.mode;
    g.groups = p->group.count;
    g.group_ends64 = p->group.ends64;
    g.group_rows_hint = hint > 0 ? hint : 1;
    g.batch = 0;
    g.b_ptrs = p->b_ptrs;
    g.gather_rows = p->gather ? p->group.tokens : 0;
    g.scatter = p->scatter;
    if (p->scatter) g.separate_d = 1; /* C is not read; D of c_dtype's type unless d_dtype */
  }
  return g;
}

#endif
