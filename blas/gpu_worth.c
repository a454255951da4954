/* SPDX-License-Identifier: Apache-2.0 */
/* Whether a GEMM on host arrays is worth the GPU: the settings gpu_threshold (flops) and
 * gpu_min_intensity (flops per byte the call sends over the bus), both from config.c. */
#include "blas/tcjblas_internal.h"

/* Real flops of the product: a complex multiply-add is four real ones. */
static double flops(const tb_gemm *g) {
  return (tb_is_complex(g->type) ? 8.0 : 2.0) * (double)g->m * (double)g->n * (double)g->k;
}

/* Bytes a host-array call sends over the bus: op(A) and op(B) up, C down, and C up too unless
 * beta is 0 (then C is not read). */
static double bus_bytes(const tb_gemm *g) {
  double m = (double)g->m, n = (double)g->n, k = (double)g->k;
  return (double)tb_elem_size(g->type) * (m * k + k * n + (tb_beta_is_zero(g) ? 1.0 : 2.0) * m * n);
}

/* Both rules are needed (tools/tcjblas_threshold.py measured them against OpenBLAS, docs/perf.md):
 * below about 1e8 flops the GPU's fixed costs lose to the CPU at any shape, and above it a call
 * that does few flops per byte it moves (a k = 32 update of a large C: about 4 per byte in
 * double) runs at the bus's speed, 2-3x slower than OpenBLAS at every size measured (16 CPUs). */
int tb_gemm_worth_the_gpu(const tb_gemm *g) {
  const tb_config *cfg = tb_config_get();
  double f = flops(g);
  return f >= cfg->gpu_threshold && f >= cfg->gpu_min_intensity * bus_bytes(g);
}
