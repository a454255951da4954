/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel ABI: the parameters of every GEMM entry and of the split-K reduction, written once.
 * ptxgen declares them from this list (ptx_emit_gemm_params), the engine fills a
 * ptx_gemm_params and passes ptx_gemm_args() of it to cuLaunchKernel: the order cannot drift. */
#ifndef TCJ_PTX_ABI_H
#define TCJ_PTX_ABI_H

#include <stdint.h>

#include "kernel_cfg.h"
#include "ptx_builder.h"

/* X(name, PTX type, C type). In the PTX each is .param .<type> p_<name>. */
#define PTX_GEMM_PARAMS(X)                                                                     \
  X(a, u64, uint64_t)           /* A (sm80; sm90 reads A through its tensor map) */            \
  X(b, u64, uint64_t)           /* B (likewise) */                                             \
  X(c, u64, uint64_t)           /* C, read when beta != 0 */                                   \
  X(d, u64, uint64_t)           /* D */                                                        \
  X(work, u64, uint64_t)        /* split-K: fp32 partial sums, slices * m * n; else 0 */       \
  X(bias, u64, uint64_t)        /* bias vector, or 0 */                                        \
  X(alpha_ptr, u64, uint64_t)   /* device alpha, or 0: use p_alpha */                          \
  X(beta_ptr, u64, uint64_t)    /* device beta, or 0: use p_beta */                            \
  X(user_params, u64, uint64_t) /* passed to tcj_epilogue */                                   \
  X(scale_a, u64, uint64_t)     /* fp8: A's scale (one float, or per-block array), or 0 */     \
  X(scale_b, u64, uint64_t)     /* fp8: B's scale, likewise */                                 \
  X(scale_d, u64, uint64_t)     /* fp8 D: one float, or 0 */                                   \
  X(amax, u64, uint64_t)        /* fp8: max |D| before its scale, zeroed by the engine, or 0 */\
  X(lda, u64, uint64_t)         /* leading dimensions, elements */                             \
  X(ldb, u64, uint64_t)                                                                        \
  X(ldc, u64, uint64_t)                                                                        \
  X(ldd, u64, uint64_t)                                                                        \
  X(stride_a, u64, uint64_t)    /* batch strides, elements (batched configs; 0 broadcasts) */  \
  X(stride_b, u64, uint64_t)                                                                   \
  X(stride_c, u64, uint64_t)                                                                   \
  X(stride_d, u64, uint64_t)                                                                   \
  X(stride_bias, u64, uint64_t)                                                                \
  X(m, u32, uint32_t)           /* rows */                                                     \
  X(n, u32, uint32_t)           /* columns and depth: read by generic kernels only (specialised \
                                   kernels bake them; tcj_kernel_cfg.generic) */               \
  X(k, u32, uint32_t)                                                                          \
  X(batch, u32, uint32_t)       /* batch entries (1 unless batched) */                         \
  X(slices, u32, uint32_t)      /* K slices of a workspace split (a launch value), else 1 */   \
  X(alpha, f32, float)                                                                         \
  X(beta, f32, float)           /* 0: C is not read */                                         \
  X(alpha64, f64, double)       /* f64 operands (dmma recipe): the scalars, alpha_ptr and       \
                                   beta_ptr then pointing to doubles; others ignore these */   \
  X(beta64, f64, double)                                                                       \
  X(groups, u64, uint64_t)      /* grouped kernels (tcj_kernel_cfg.grouped): each group's end  \
                                   row or row count, device memory; else 0 */                  \
  X(group_count, u32, uint32_t) /* groups (grouped kernels), else 0 */                         \
  X(stride_scale_b, u64, uint64_t) /* grouped fp8: floats from group g's B scales to g + 1's */ \
  X(row_scale, u64, uint64_t)   /* row_scale configs: D's row scales (m per entry), else 0 */ \
  X(gather, u64, uint64_t)      /* gather configs: int32 A row of each problem row, else 0 */  \
  X(gather_rows, u64, uint64_t) /* gather configs: rows of A (an index past them reads 0) */ \
  X(scatter, u64, uint64_t)     /* scatter configs: int32 D row each problem row goes to */   \
  X(scatter_rows, u64, uint64_t) /* scatter configs: rows of D (past them: nothing written) */

typedef struct ptx_gemm_params {
#define PTX_PARAM_FIELD(name, ptype, ctype) ctype name;
  PTX_GEMM_PARAMS(PTX_PARAM_FIELD)
#undef PTX_PARAM_FIELD
} ptx_gemm_params;

enum {
#define PTX_PARAM_COUNT_ONE(name, ptype, ctype) +1
  PTX_GEMM_PARAM_COUNT = 0 PTX_GEMM_PARAMS(PTX_PARAM_COUNT_ONE)
#undef PTX_PARAM_COUNT_ONE
};

/* The kernelParams array of cuLaunchKernel for p, in declaration order, into args. */
static inline void ptx_gemm_args(ptx_gemm_params *p, void *args[PTX_GEMM_PARAM_COUNT]) {
  int i = 0;
#define PTX_PARAM_ARG(name, ptype, ctype) args[i++] = &p->name;
  PTX_GEMM_PARAMS(PTX_PARAM_ARG)
#undef PTX_PARAM_ARG
  (void)i;
}

/* Declares the list (between ptx_entry_begin and ptx_entry_body). */
void ptx_emit_gemm_params(ptx_builder *b);

/* The problem's n (k) as an operand: the baked immediate of a specialised kernel, or p_n (p_k)
 * loaded into a new u32 register in a generic one (tcj_kernel_cfg.generic). */
ptx_val ptx_kernel_n(ptx_builder *b, const tcj_kernel_cfg *c);
ptx_val ptx_kernel_k(ptx_builder *b, const tcj_kernel_cfg *c);

#endif
