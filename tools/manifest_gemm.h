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
    .scale = p->scale,
  };
  return g;
}

#endif
