/* A GEMM problem as the tools run it (row-major, packed leading dimensions, operands from
 * cudaMalloc, so 256-byte aligned) and the plan tcj_gemm selects for it on given device caps.
 * No CUDA: tcj-warmup, tcj-bench's offline mode and tcj-prof --dry-run select without a GPU. */
#ifndef TCJ_TOOLS_GEMM_PROBLEM_H
#define TCJ_TOOLS_GEMM_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "engine/select.h"
#include "tcj.h"

typedef struct gemm_problem {
  tcj_dtype ab, c;
  tcj_op op_a, op_b;
  int64_t m, n, k;
} gemm_problem;

/* Packed: A is m x k (N) or k x m (T), B is k x n (N) or n x k (T), C is m x n. */
static inline int64_t gemm_lda(const gemm_problem *p) { return p->op_a == TCJ_OP_N ? p->k : p->m; }
static inline int64_t gemm_ldb(const gemm_problem *p) { return p->op_b == TCJ_OP_N ? p->n : p->k; }

size_t gemm_dtype_size(tcj_dtype t);
const char *gemm_dtype_name(tcj_dtype t); /* "bf16", "s32", ...; "?" if unknown */

/* The plan of tcj_gemm for p on caps, TCJ_RECIPE / TCJ_TILE overrides (tuning may be NULL)
 * included. Returns TCJ_SUCCESS, or TCJ_ERROR_NOT_SUPPORTED with why (fp8 operands, an empty C,
 * select's reason). */
tcj_status gemm_problem_select(const gemm_problem *p, const eng_device_caps *caps,
                               const eng_tuning *tuning, eng_plan *plan, const char **why);

/* tcj_cfg_format of the plan's config, then " pack_a=1" / " pack_b=1" for packed operands.
 * Returns the length, or -1 when it does not fit. */
int gemm_plan_format(const eng_plan *plan, char *buf, size_t size);

#endif
