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
  /* The Mixture-of-Experts extras (tcj.h's since 1.0). act TCJ_ACT_SWIGLU: op(B) has 2n columns
   * (gate then up), the bias 2n values; D n. TCJ_GROUP_K_CONTIGUOUS: group_sizes are K per group
   * (summing to k), A is k x m (op_a T), B k x n (op_b N), D G entries of m x n. scale
   * TCJ_SCALE_ROW: scale_a one per row of D, scale_b n per group (stride_scale_b n). Grouped fp8
   * with TCJ_SCALE_TENSOR: one scale_b per group (stride_scale_b 1). */
  int row_scale;               /* tcj_gemm_desc.row_scale: one float per row of D */
  int b_ptrs;                  /* grouped: B through group_b_ptrs (b NULL) */
  int64_t gather_rows;         /* CONTIGUOUS, op_a N: rows of A read through gather_a; 0: no gather */
  /* CONTIGUOUS, D apart from C: D's rows through scatter_d (1 + tcj_scatter_mode; 0: none). The
   * tools scatter over D's own m rows: a shuffle of the routed rows (the expert sort undone, as
   * an MoE layer's combine does), the rows past them in place. */
  int scatter;
  const struct gemm_extras *extras; /* their device arrays; NULL: stand-ins */
} gemm_problem;

/* A scatter field (gemm_problem.scatter, manifest_problem.scatter: 0, else 1 + tcj_scatter_mode):
 * whether its rows are added into D, and its manifest spelling (NULL: none). */
static inline int gemm_scatter_adds(int scatter) { return scatter == 1 + TCJ_SCATTER_ADD; }
static inline const char *gemm_scatter_name(int scatter) {
  return !scatter ? NULL : gemm_scatter_adds(scatter) ? "add" : "store";
}

/* The device arrays of the MoE extras that gemm_problem_desc passes (NULL where p has none). */
typedef struct gemm_extras {
  const float *row_scale;
  const int32_t *gather;
  const void *const *b_ptrs;
  const int32_t *scatter;
} gemm_extras;

/* The initialiser of a plain tcj_gemm problem. */
#define GEMM_PLAIN(ab_, c_, op_a_, op_b_, m_, n_, k_) \
  {.ab = (ab_), .c = (c_), .op_a = (op_a_), .op_b = (op_b_), .m = (m_), .n = (n_), .k = (k_)}

/* op(B)'s columns: 2n for SwiGLU (gate and up), else n. */
static inline int64_t gemm_b_cols(const gemm_problem *p) { return p->act == TCJ_ACT_SWIGLU ? 2 * p->n : p->n; }
/* Packed: A is m x k (N) or k x m (T), B is k x n (N) or n x k (T) (n: gemm_b_cols), C and D
 * are m x n. */
static inline int64_t gemm_lda(const gemm_problem *p) { return p->op_a == TCJ_OP_N ? p->k : p->m; }
static inline int64_t gemm_ldb(const gemm_problem *p) { return p->op_b == TCJ_OP_N ? gemm_b_cols(p) : p->k; }
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
static inline int gemm_is_kgrouped(const gemm_problem *p) { return p->group_mode == TCJ_GROUP_K_CONTIGUOUS; }
/* Entries of C and D: a batch's, or a masked or K-grouped problem's G; of A: the same but 1 for
 * the K mode (and gather_rows rows when gathered); of B and the bias: those entries, 1 when
 * broadcast, G for an M-grouped problem, 1 (B) and G (bias) for the K mode. */
static inline int64_t gemm_entries(const gemm_problem *p) {
  return p->group_mode == TCJ_GROUP_M_MASKED || gemm_is_kgrouped(p) ? p->groups : gemm_is_grouped(p) ? 1
                                                                                                    : gemm_batch(p);
}
static inline int64_t gemm_a_elems(const gemm_problem *p) {
  if (gemm_is_kgrouped(p)) return p->m * p->k;
  return (p->gather_rows > 0 ? p->gather_rows : p->m) * p->k * gemm_entries(p);
}
static inline int64_t gemm_b_entries(const gemm_problem *p) {
  return gemm_is_kgrouped(p) ? 1 : gemm_is_grouped(p) ? p->groups : p->broadcast_b ? 1 : gemm_batch(p);
}
static inline int64_t gemm_bias_entries(const gemm_problem *p) {
  return gemm_is_kgrouped(p) ? p->groups : gemm_b_entries(p);
}
/* Rows of D over its entries: the per-row values (row scales, row_scale) hold one each. */
static inline int64_t gemm_d_rows(const gemm_problem *p) { return gemm_entries(p) * p->m; }
/* Batch strides in elements: every entry packed after the previous one; B and the bias 0 when
 * broadcast. */
static inline int64_t gemm_stride_a(const gemm_problem *p) { return p->m * p->k; }
static inline int64_t gemm_stride_b(const gemm_problem *p) { return p->broadcast_b ? 0 : p->k * gemm_b_cols(p); }
static inline int64_t gemm_stride_d(const gemm_problem *p) { return p->m * p->n; }
static inline int64_t gemm_stride_bias(const gemm_problem *p) { return p->broadcast_b ? 0 : gemm_b_cols(p); }
/* Per-tensor scales: scale_a at scales[0], scale_b GEMM_SCALE_B_AT floats after it. cuBLASLt
 * refuses fp8 scale pointers that are not 16-byte aligned (CUBLAS_STATUS_NOT_SUPPORTED, measured
 * with cuBLAS 13.1 on an H100), so the two lie 16 bytes apart. */
#define GEMM_SCALE_B_AT 4

/* Block scales (TCJ_SCALE_BLOCK): scale_a holds m x ceil(k / 128) floats, scale_b
 * ceil(n / 128) x ceil(k / 128); the tools keep them in one array, scale_a's first. */
static inline int64_t gemm_block_scales_a(const gemm_problem *p) { return p->m * ((p->k + 127) / 128); }
static inline int64_t gemm_block_scales_b(const gemm_problem *p) { return (p->n + 127) / 128 * ((p->k + 127) / 128); }
/* Grouped fp8: elements from group g's scale_b to group g + 1's (tcj_gemm_desc.stride_scale_b):
 * one per group (TENSOR), n (ROW), the block grid (BLOCK); 0 ungrouped. */
static inline int64_t gemm_stride_scale_b(const gemm_problem *p) {
  if (!gemm_is_grouped(p) || !gemm_dtype_is_fp8(p->ab)) return 0;
  return p->scale == TCJ_SCALE_ROW ? gemm_b_cols(p) : p->scale == TCJ_SCALE_BLOCK ? gemm_block_scales_b(p) : 1;
}
/* Where scale_b starts in the tools' one scales array: GEMM_SCALE_B_AT for one per-tensor pair,
 * else past scale_a's floats, rounded up to 16 bytes. */
static inline int64_t gemm_scale_b_at(const gemm_problem *p);
/* Floats of scale_a and scale_b (TENSOR: 1 and 1, or G per-group B scales). */
static inline int64_t gemm_scales_a(const gemm_problem *p) {
  return p->scale == TCJ_SCALE_ROW ? gemm_d_rows(p) : p->scale == TCJ_SCALE_BLOCK ? gemm_block_scales_a(p) : 1;
}
static inline int64_t gemm_scales_b(const gemm_problem *p) {
  int64_t per = p->scale == TCJ_SCALE_ROW ? gemm_b_cols(p) : p->scale == TCJ_SCALE_BLOCK ? gemm_block_scales_b(p) : 1;
  return gemm_is_grouped(p) && !gemm_is_kgrouped(p) ? per * p->groups : per;
}
static inline int64_t gemm_scale_b_at(const gemm_problem *p) {
  if (p->scale == TCJ_SCALE_TENSOR && !gemm_is_grouped(p)) return GEMM_SCALE_B_AT;
  return (gemm_scales_a(p) + 3) / 4 * 4;
}
/* Whether p needs tcj_gemm_ex (anything beyond a plain tcj_gemm): fp8 operands do, as the tools
 * run them with scales. */
static inline int gemm_is_ex(const gemm_problem *p) {
  return gemm_is_grouped(p) || p->bias != TCJ_BIAS_NONE || p->act != TCJ_ACT_NONE || gemm_batch(p) > 1 || p->separate_d ||
         p->epilogue_source != NULL || gemm_dtype_is_fp8(p->ab) || p->row_scale;
}

size_t gemm_dtype_size(tcj_dtype t);

/* The tcj_gemm_ex descriptor of p on these buffers (alpha 1, beta 0): d is the output, C when
 * it is not apart (then the descriptor's c), bias NULL without one. fp8 operands: p's scale
 * mode and fast_accum; per-tensor scales are scales[0] for A and scales[GEMM_SCALE_B_AT] for B
 * (device floats; NULL: none); block and row scales and grouped per-tensor ones scale_a's
 * gemm_scales_a(p) floats from scales[0], then scale_b's gemm_scales_b(p) (16-byte aligned).
 * The MoE extras' arrays come from p->extras (NULL: stand-ins). */
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
