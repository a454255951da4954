/* SPDX-License-Identifier: Apache-2.0 */
/* A GEMM problem as the tools run it (row-major, packed leading dimensions, operands from
 * cudaMalloc, so 256-byte aligned) and the plan tcj_gemm_ex selects for it on given device caps.
 * No CUDA: tcj-warmup, tcj-bench's offline mode and tcj-prof --dry-run select without a GPU. */
#ifndef TCJ_TOOLS_GEMM_PROBLEM_H
#define TCJ_TOOLS_GEMM_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "engine/tools_api.h"
#include "tcj.h"

/* The fields past k are tcj_gemm_ex's; zero (as positional initialisers leave them) is a plain
 * tcj_gemm with beta 0: D is C, no bias, no activation, one GEMM. */
typedef struct gemm_problem {
  tcj_dtype ab, c;
  tcj_op op_a, op_b;
  int64_t m, n, k;
  tcj_bias_kind bias;          /* TCJ_BIAS_NONE or TCJ_BIAS_COL (n values of gemm_bias_dtype) */
  tcj_activation act;
  int64_t batch;               /* entries of a strided batch; 0 or 1: one GEMM */
  int broadcast_b;             /* one B and one bias for every entry (stride 0) */
  int separate_d;              /* D apart from C, of type d; C is not given (beta 0) */
  tcj_dtype d;
  const char *epilogue_source; /* a user epilogue's CUDA C source, or NULL */
  int fast_accum;              /* fp8 operands: tcj_gemm_desc.fast_accum (cuBLASLt's FAST_ACCUM) */
  int has_b;                   /* B of type b, apart from A's (an e4m3 x e5m2 pair); 0: B is of type ab */
  tcj_dtype b;
  tcj_scale_mode scale;        /* fp8 operands: TCJ_SCALE_TENSOR (0) or TCJ_SCALE_BLOCK */
  /* Grouped (tcj_gemm_desc.group_mode; TCJ_GROUP_NONE, 0: not grouped): G groups, B holding G
   * weights (stride_b k * n), the bias G vectors (stride_bias n). CONTIGUOUS: A, C and D of m
   * rows in all; MASKED: G entries of m rows each (strides m * k and m * n). */
  tcj_group_mode group_mode;
  int64_t groups;              /* G */
  int group_ends64;            /* CONTIGUOUS: int64 ends, else int32 */
  int64_t group_rows_hint;     /* tcj_gemm_desc.group_rows_hint (0: the engine's default) */
  const int64_t *group_sizes;  /* host, G rows per group (the runner's routing); NULL for selection */
  const void *group_dev;       /* device ends (CONTIGUOUS) or counts (MASKED); NULL: a stand-in */
} gemm_problem;

/* The initialiser of a plain tcj_gemm problem. */
#define GEMM_PLAIN(ab_, c_, op_a_, op_b_, m_, n_, k_) \
  {.ab = (ab_), .c = (c_), .op_a = (op_a_), .op_b = (op_b_), .m = (m_), .n = (n_), .k = (k_)}

/* Packed: A is m x k (N) or k x m (T), B is k x n (N) or n x k (T), C and D are m x n. */
static inline int64_t gemm_lda(const gemm_problem *p) { return p->op_a == TCJ_OP_N ? p->k : p->m; }
static inline int64_t gemm_ldb(const gemm_problem *p) { return p->op_b == TCJ_OP_N ? p->n : p->k; }
static inline int64_t gemm_batch(const gemm_problem *p) { return p->batch > 1 ? p->batch : 1; }
/* B's type: b when it is apart from A's, else ab. */
static inline tcj_dtype gemm_b_dtype(const gemm_problem *p) { return p->has_b ? p->b : p->ab; }
/* The output's type: D's when it is apart from C, else C's. */
static inline tcj_dtype gemm_out_dtype(const gemm_problem *p) { return p->separate_d ? p->d : p->c; }
static inline int gemm_dtype_is_fp8(tcj_dtype t) { return t == TCJ_E4M3 || t == TCJ_E5M2; }
/* The bias is of D's type, f32 for an s32 D, C's type (f16, bf16 or f32) for an fp8 D. */
static inline tcj_dtype gemm_bias_dtype(const gemm_problem *p) {
  tcj_dtype out = gemm_out_dtype(p);
  return out == TCJ_S32 ? TCJ_F32 : gemm_dtype_is_fp8(out) ? p->c : out;
}
static inline int gemm_is_grouped(const gemm_problem *p) { return p->group_mode != TCJ_GROUP_NONE; }
/* Entries of A, C and D: a batch's, or a masked grouped problem's G; of B and the bias: those
 * entries, 1 when broadcast, G for any grouped problem. */
static inline int64_t gemm_entries(const gemm_problem *p) {
  return p->group_mode == TCJ_GROUP_M_MASKED ? p->groups : gemm_is_grouped(p) ? 1 : gemm_batch(p);
}
static inline int64_t gemm_b_entries(const gemm_problem *p) {
  return gemm_is_grouped(p) ? p->groups : p->broadcast_b ? 1 : gemm_batch(p);
}
/* Batch strides in elements: every entry packed after the previous one; B and the bias 0 when
 * broadcast. */
static inline int64_t gemm_stride_a(const gemm_problem *p) { return p->m * p->k; }
static inline int64_t gemm_stride_b(const gemm_problem *p) { return p->broadcast_b ? 0 : p->k * p->n; }
static inline int64_t gemm_stride_d(const gemm_problem *p) { return p->m * p->n; }
static inline int64_t gemm_stride_bias(const gemm_problem *p) { return p->broadcast_b ? 0 : p->n; }
/* Per-tensor scales: scale_a at scales[0], scale_b GEMM_SCALE_B_AT floats after it. cuBLASLt
 * refuses fp8 scale pointers that are not 16-byte aligned (CUBLAS_STATUS_NOT_SUPPORTED, measured
 * with cuBLAS 13.1 on an H100), so the two lie 16 bytes apart. */
#define GEMM_SCALE_B_AT 4

/* Block scales (TCJ_SCALE_BLOCK): scale_a holds m x ceil(k / 128) floats, scale_b
 * ceil(n / 128) x ceil(k / 128); the tools keep them in one array, scale_a's first. */
static inline int64_t gemm_block_scales_a(const gemm_problem *p) { return p->m * ((p->k + 127) / 128); }
static inline int64_t gemm_block_scales_b(const gemm_problem *p) { return (p->n + 127) / 128 * ((p->k + 127) / 128); }
/* Whether p needs tcj_gemm_ex (anything beyond a plain tcj_gemm): fp8 operands do, as the tools
 * run them with scales. */
static inline int gemm_is_ex(const gemm_problem *p) {
  return gemm_is_grouped(p) || p->bias != TCJ_BIAS_NONE || p->act != TCJ_ACT_NONE || gemm_batch(p) > 1 || p->separate_d ||
         p->epilogue_source != NULL || gemm_dtype_is_fp8(p->ab);
}

size_t gemm_dtype_size(tcj_dtype t);

/* The tcj_gemm_ex descriptor of p on these buffers (alpha 1, beta 0): d is the output, C when
 * it is not apart (then the descriptor's c), bias NULL without one. fp8 operands: p's scale
 * mode and fast_accum; per-tensor scales are scales[0] for A and scales[1] for B (device floats;
 * NULL: none), block scales scale_a's gemm_block_scales_a(p) floats from scales[0], then
 * scale_b's gemm_block_scales_b(p). */
void gemm_problem_desc(const gemm_problem *p, const void *a, const void *b, void *d, const void *bias,
                       const float *scales, tcj_gemm_desc *desc);

/* The problem tcj_gemm_ex sees for p (validated as it validates, user epilogue hashed as it
 * hashes), or an error with why. */
tcj_status gemm_problem_validate(const gemm_problem *p, eng_problem *out, const char **why);

/* The plan of tcj_gemm_ex for p on caps, TCJ_RECIPE / TCJ_TILE overrides (tuning may be NULL)
 * included: the problem is validated as tcj_gemm_ex validates it (eng_validate_desc, on stand-in
 * addresses 16-byte aligned, fp8 with stand-in scales, per-tensor or block, as the tools run it),
 * with the user epilogue's hash as the engine computes it. Returns TCJ_SUCCESS, or
 * TCJ_ERROR_NOT_SUPPORTED (or INVALID_VALUE) with why: a type with no kernel, an empty D,
 * validation's message (fp8 on an arch without fp8 MMAs, block scales off sm_90a), no NVRTC for
 * a user epilogue, select's reason. */
tcj_status gemm_problem_select(const gemm_problem *p, const eng_device_caps *caps,
                               const eng_tuning *tuning, eng_plan *plan, const char **why);

/* tcj_cfg_format of the plan's config, then " pack_a=1" / " pack_b=1" for operands packed as
 * they lie, " pack_a=transpose" / " pack_b=transpose" for MN-major ones transposed into K-major
 * scratch (the config then has the K-major op pair, NT). Returns the length, or -1 when it does
 * not fit. */
int gemm_plan_format(const eng_plan *plan, char *buf, size_t size);

/* --sm-count's value: digits only, 1 to 1024. Returns 0 and *out, or -1. */
int gemm_parse_sm_count(const char *text, int *out);

#endif
