/* SPDX-License-Identifier: Apache-2.0 */
/* The cases of test_grouped_gather_gpu (gathered rows of A, B by pointer arrays): the tables,
 * each case's buffer sizes and its tcj_gemm_desc, shared with a CPU test (test_gpu_cases) that
 * checks what the library cannot: the device values a case hands the kernel (B's pointers) as
 * tcj.h asks for them. Pure C over tcj.h: no CUDA runtime, no cmocka. */
#ifndef TCJ_TEST_GATHER_CASES_H
#define TCJ_TEST_GATHER_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "tcj.h"

#define GCASE_MAX_GROUPS 64

typedef struct gcase {
  const char *what;
  tcj_dtype ab, d_type; /* C has D's type */
  int masked;           /* TCJ_GROUP_M_MASKED (counts), else contiguous (int32 ends) */
  int64_t m, n, k, groups;
  int op_b_t;
  int64_t pad_a, pad_b, pad_d; /* lda = k + pad_a; ldb = (op_b T: k, N: n) + pad_b; ldd = ldc = n + pad_d */
  int64_t gather_rows;         /* 0: no gather (contiguous only) */
  int b_ptrs;
  float beta;                  /* 0: C (apart) holds NaN and must not be read */
  int bias;                    /* per group (stride_bias n) */
  tcj_activation act;
  uint64_t seed;
} gcase;

/* A case's leading dimensions and the elements of its buffers, each of which ends where its data
 * ends: A's a_rows rows of lda ending at k; one group's B (op_b T: n rows of ldb ending at k; N: k
 * rows ending at n); D's (and C's) entries, masked G of m rows stride_d apart, contiguous one. */
typedef struct gcase_extent {
  int64_t lda, ldb, ldd, entries, a_rows;
  size_t a_elems, b_elems, stride_d, d_elems;
} gcase_extent;

static inline gcase_extent gcase_extent_of(const gcase *c) {
  gcase_extent x;
  x.lda = c->k + c->pad_a;
  x.ldb = (c->op_b_t ? c->k : c->n) + c->pad_b;
  x.ldd = c->n + c->pad_d;
  x.entries = c->masked ? c->groups : 1;
  x.a_rows = c->gather_rows ? c->gather_rows : c->m * x.entries;
  x.a_elems = (size_t)((x.a_rows - 1) * x.lda + c->k);
  x.b_elems = c->op_b_t ? (size_t)((c->n - 1) * x.ldb + c->k) : (size_t)((c->k - 1) * x.ldb + c->n);
  x.stride_d = c->masked ? (size_t)(c->m * x.ldd) : 0;
  x.d_elems = (size_t)(x.entries - 1) * x.stride_d + (size_t)((c->m - 1) * x.ldd + c->n);
  return x;
}

/* The largest power of two (up to 16, all any copy asks) dividing x: where a buffer of x bytes
 * that ends on a mapping boundary starts, or what tcj.h asks of a row pitch of x bytes. */
static inline int gcase_align16(uint64_t x) {
  x |= 16;
  return (int)(x & (~x + 1));
}

/* What tcj.h asks of each group_b_ptrs pointer: aligned as b would be, to 16 bytes or to the
 * largest power of two dividing ldb times the element size where that is less. */
static inline int gcase_b_ptr_align(const gcase *c, size_t es) {
  return gcase_align16((uint64_t)gcase_extent_of(c).ldb * es);
}

/* Where a case's operands and arrays lie (device addresses, or stand-ins on the CPU). */
typedef struct gcase_at {
  const void *a, *b, *c, *bias, *groups, *gather;
  void *d;
  const void *const *b_ptrs; /* used where the case has b_ptrs, else b + g * stride_b */
} gcase_at;

/* The call run_case makes (alpha is the caller's). */
static inline tcj_gemm_desc gcase_desc(const gcase *c, const gcase_at *at, float alpha) {
  gcase_extent x = gcase_extent_of(c);
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.op_a = TCJ_OP_N, d.op_b = c->op_b_t ? TCJ_OP_T : TCJ_OP_N;
  d.m = c->m, d.n = c->n, d.k = c->k;
  d.a = at->a, d.a_type = c->ab, d.lda = x.lda, d.stride_a = c->masked ? c->m * x.lda : 0;
  d.b_type = c->ab, d.ldb = x.ldb;
  if (c->b_ptrs) d.group_b_ptrs = at->b_ptrs;
  else d.b = at->b, d.stride_b = (int64_t)x.b_elems;
  d.c = (void *)(uintptr_t)at->c, d.c_type = c->d_type, d.ldc = x.ldd, d.stride_c = (int64_t)x.stride_d;
  d.d = at->d, d.d_type = c->d_type, d.ldd = x.ldd, d.stride_d = (int64_t)x.stride_d;
  d.alpha = alpha, d.beta = c->beta;
  if (c->bias) d.bias = at->bias, d.bias_type = TCJ_F32, d.bias_kind = TCJ_BIAS_COL, d.stride_bias = c->n;
  d.activation = c->act;
  d.group_mode = c->masked ? TCJ_GROUP_M_MASKED : TCJ_GROUP_M_CONTIGUOUS;
  d.group_count = c->groups;
  if (c->masked) d.group_counts = (const int32_t *)at->groups;
  else d.group_ends32 = (const int32_t *)at->groups;
  if (c->gather_rows) d.gather_a = (const int32_t *)at->gather, d.gather_a_rows = c->gather_rows;
  return d;
}

/* ---- tables ---------------------------------------------------------------------------------- */

#define BF TCJ_BF16
#define F16 TCJ_F16
#define F32 TCJ_F32

/* Gathered rows (contiguous groups): A with more rows than the problem (a permutation of some),
 * fewer (every row of A, repeated), one row; op_b N and T. */
static const gcase GATHERS[] = {
  {"permute", BF, BF, 0, 300, 128, 256, 4, 1, 0, 0, 0, 512, 0, 0, 0, TCJ_ACT_NONE, 1},
  {"fewer rows", F16, F32, 0, 517, 96, 136, 7, 1, 8, 0, 4, 200, 0, 0.5f, 1, TCJ_ACT_GELU, 2},
  {"one row", BF, F32, 0, 64, 64, 64, 3, 0, 0, 8, 0, 1, 0, 0, 1, TCJ_ACT_NONE, 3},
  {"op_b N", BF, BF, 0, 1000, 200, 520, 16, 0, 0, 0, 2, 1200, 0, 1.0f, 1, TCJ_ACT_SILU, 4},
  {"decode", F16, F16, 0, 40, 256, 512, 32, 1, 0, 0, 0, 4096, 0, 0, 1, TCJ_ACT_RELU, 5},
  /* k ragged against every K tile but even: grouped calls do not pack, and the sm80 recipe copies
   * 4 bytes or more, so A (which ends where its last row's data ends) must start 4-byte aligned */
  {"odd n, ragged k", BF, BF, 0, 333, 50, 998, 5, 1, 16, 0, 6, 400, 0, 0.5f, 0, TCJ_ACT_NONE, 6},
  {"prefill", BF, BF, 0, 2048, 512, 1024, 8, 1, 0, 0, 0, 4096, 0, 0, 0, TCJ_ACT_NONE, 7},
  {"G 12, gelu_tanh", BF, F32, 0, 700, 192, 384, 12, 1, 0, 0, 0, 800, 0, 0, 1, TCJ_ACT_GELU_TANH, 8},
  {"G 9, op_b N", F16, F16, 0, 257, 128, 200, 9, 0, 8, 8, 0, 100, 0, 0.5f, 1, TCJ_ACT_NONE, 9},
  /* Groups of 64 rows and more with 16-byte aligned rows, for the sm90 kernel's cp.async copies
   * (TCJ_RECIPE=sm90 on sm_90a): a K tail, tiles that cross groups, op_b N, G 1 */
  {"sm90: ragged k", BF, F32, 0, 777, 320, 1000, 5, 1, 8, 0, 0, 1500, 0, 0.5f, 1, TCJ_ACT_GELU, 10},
  {"sm90: op_b N", F16, F16, 0, 1100, 264, 776, 6, 0, 0, 8, 8, 640, 0, 0, 1, TCJ_ACT_NONE, 11},
  {"sm90: one group", BF, BF, 0, 517, 256, 4096, 1, 1, 0, 0, 0, 3000, 0, 1.0f, 0, TCJ_ACT_SILU, 12},
};

/* B by pointers in both M modes: each group's B its own allocation, the array shuffled. A B that
 * ends where its data ends starts as aligned as its size in bytes: each must start as tcj.h asks
 * of the pointers (gcase_b_ptr_align), which the library cannot check. "masked N" once had pad_b
 * 4 (ldb 104: a 208-byte pitch asks 16 bytes) with B 35352 bytes long, so every B started 8
 * bytes off 16 and compute-sanitizer caught the kernel's 16-byte copies reading past B's end;
 * pad_b 2 (a 204-byte pitch: 4 bytes, 4-byte copies) keeps a ragged n with narrow copies that
 * the pointers meet. */
static const gcase POINTERS[] = {
  {"contiguous T", BF, BF, 0, 600, 256, 512, 8, 1, 0, 0, 0, 0, 1, 0, 1, TCJ_ACT_NONE, 21},
  {"contiguous N", F16, F32, 0, 333, 136, 300, 5, 0, 0, 8, 4, 0, 1, 0.5f, 1, TCJ_ACT_GELU, 22},
  {"contiguous, many groups", BF, BF, 0, 2048, 128, 256, 64, 1, 0, 0, 0, 0, 1, 0, 0, TCJ_ACT_NONE, 23},
  {"masked T", BF, F32, 1, 96, 192, 256, 6, 1, 0, 0, 0, 0, 1, 0, 1, TCJ_ACT_SILU, 24},
  {"masked N", F16, F16, 1, 40, 100, 170, 9, 0, 8, 2, 2, 0, 1, 1.0f, 1, TCJ_ACT_NONE, 25},
  {"masked decode", BF, BF, 1, 16, 512, 1024, 32, 1, 0, 0, 0, 0, 1, 0, 0, TCJ_ACT_RELU, 26},
  /* On the sm90 kernel each CTA rewrites B's map in a ring of stages + 1 slots per group change
   * (sm90_group_maps.c): one K tile per tile and ~10 tiles per CTA, each in another group than
   * the last, go round that ring; a gather beside it; op_b N with C. */
  {"one K tile, many group changes", BF, BF, 0, 16384, 1024, 64, 64, 1, 0, 0, 0, 0, 1, 0, 0, TCJ_ACT_NONE, 27},
  {"gathered, pointers", BF, BF, 0, 1024, 256, 512, 8, 1, 0, 0, 0, 1500, 1, 0, 1, TCJ_ACT_NONE, 28},
  {"contiguous N, two K tiles", F16, F16, 0, 8192, 512, 128, 32, 0, 0, 0, 0, 0, 1, 0.5f, 1, TCJ_ACT_NONE, 29},
};

#undef BF
#undef F16
#undef F32

#endif
