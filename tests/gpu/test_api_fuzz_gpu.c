/* SPDX-License-Identifier: Apache-2.0 */
/* API fuzz test of tcj_gemm on the GPU, through tcj.h only (the CUDA runtime and driver just
 * provide buffers): thousands of random calls mixing valid and invalid arguments. Every operand
 * ends where its mapping ends (or, where its alignment class needs it, less than 16 bytes
 * before), so a read past it faults; valid results are checked element by
 * element against the fp64 oracle of oracle.h; invalid calls must fail, say why, and write
 * nothing. Every type combination of tcj.h is drawn, fp8 operands (e4m3, e5m2, any pair) among
 * them: computed and checked on sm_89 and newer, where their bound adds the fp8 tensor cores'
 * accumulation term of test_fp8_gpu.c; refused with TCJ_ERROR_NOT_SUPPORTED below sm_89.
 * Without a GPU it prints SKIP and exits 77, which CTest reports as skipped.
 *
 * Environment: TCJ_TEST_FUZZ_CALLS  number of calls (default 3000)
 *              TCJ_TEST_SEED        seed of the kernel-class pool and of every call (default:
 *                                   from the clock; printed, and named again on a failure)
 *              TCJ_CACHE_DIR        the kernel cache, as for every tcj program */
#include <cuda.h>
#include <ctype.h>
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "gpu_test.h"
#include "oracle.h"
#include "tail_mem.h"
#include "tcj.h"

#define DEFAULT_CALLS 3000
/* Valid calls keep m, n, k at most this: the host reference stays cheap (a few seconds for
 * thousands of calls) and every operand fits one small mapping. */
#define MAX_DIM 300
#define POOL_EXTRA 6   /* random kernel classes beyond the grid (dtype combination, op pair) */
#define POOL_K0 2      /* classes with k == 0 (C = beta * C, A and B never read) */
#define PREFIX 64      /* sentinel bytes checked in front of each operand */
#define SENTINEL 0xA5
#define MAX_REPORTED 12 /* failures printed in full; the rest are counted */
#define LD_LIMIT (INT64_C(1) << 48)

/* ---- random numbers (gpu_test.h's splitmix64; every call has its own stream, from the seed
 * and its index) */

static double runit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static int rchance(rng *r, double p) { return runit(r) < p; }
/* Uniform in [lo, hi]; hi - lo < 2^63. */
static int64_t rrange(rng *r, int64_t lo, int64_t hi) {
  return lo + (int64_t)(rng_next(r) % ((uint64_t)(hi - lo) + 1));
}
#define PICK(r, arr) ((arr)[rng_next(r) % (sizeof(arr) / sizeof((arr)[0]))])

/* ---- dtypes ------------------------------------------------------------------------------ */

/* Supported combinations by storage (tf32 data is stored as f32), as tcj.h lists them: A's, B's
 * and C's types. The fp8 ones come last, from COMBO_FP8 on: operand pairs (e4m3, e4m3),
 * (e4m3, e5m2), (e5m2, e4m3), (e5m2, e5m2), each into f16, bf16 and f32 (grid_class relies on
 * this order). */
typedef struct combo { const char *name; tcj_dtype a, b, c; } combo;
static const combo COMBOS[] = {
    {"f16->f16", TCJ_F16, TCJ_F16, TCJ_F16},       {"f16->bf16", TCJ_F16, TCJ_F16, TCJ_BF16},
    {"f16->f32", TCJ_F16, TCJ_F16, TCJ_F32},       {"bf16->f16", TCJ_BF16, TCJ_BF16, TCJ_F16},
    {"bf16->bf16", TCJ_BF16, TCJ_BF16, TCJ_BF16},  {"bf16->f32", TCJ_BF16, TCJ_BF16, TCJ_F32},
    {"tf32->f32", TCJ_F32, TCJ_F32, TCJ_F32},      {"s8->s32", TCJ_S8, TCJ_S8, TCJ_S32},
    {"e4m3->f16", TCJ_E4M3, TCJ_E4M3, TCJ_F16},    {"e4m3->bf16", TCJ_E4M3, TCJ_E4M3, TCJ_BF16},
    {"e4m3->f32", TCJ_E4M3, TCJ_E4M3, TCJ_F32},    {"e4m3,e5m2->f16", TCJ_E4M3, TCJ_E5M2, TCJ_F16},
    {"e4m3,e5m2->bf16", TCJ_E4M3, TCJ_E5M2, TCJ_BF16}, {"e4m3,e5m2->f32", TCJ_E4M3, TCJ_E5M2, TCJ_F32},
    {"e5m2,e4m3->f16", TCJ_E5M2, TCJ_E4M3, TCJ_F16}, {"e5m2,e4m3->bf16", TCJ_E5M2, TCJ_E4M3, TCJ_BF16},
    {"e5m2,e4m3->f32", TCJ_E5M2, TCJ_E4M3, TCJ_F32}, {"e5m2->f16", TCJ_E5M2, TCJ_E5M2, TCJ_F16},
    {"e5m2->bf16", TCJ_E5M2, TCJ_E5M2, TCJ_BF16},  {"e5m2->f32", TCJ_E5M2, TCJ_E5M2, TCJ_F32},
};
#define NCOMBO ((int)(sizeof COMBOS / sizeof COMBOS[0]))
#define COMBO_TF32 6
#define COMBO_FP8 8 /* the first fp8 combination; 4 operand pairs x 3 C types from here */
#define NFP8_C 3    /* C types of fp8 operands in tcj_gemm: f16, bf16, f32 */

/* The GPU has fp8 tensor cores (compute capability 8.9 or newer): fp8 calls are computed there
 * and refused with TCJ_ERROR_NOT_SUPPORTED below. */
static int g_fp8, g_cc_major, g_cc_minor;

#define NDTYPE GPU_DTYPE_COUNT

/* Element size of a tcj_dtype value as passed (0: not a tcj_dtype). */
static int api_esize(int t) { return (int)gpu_esize((tcj_dtype)t); }

static int is_fp8(int t) { return t == TCJ_E4M3 || t == TCJ_E5M2; }

/* tcj.h: f16|bf16 -> f16|bf16|f32 (a = b), tf32 or f32 operands (in any mix) -> f32, s8 -> s32,
 * fp8 (a and b each e4m3 or e5m2) -> f16|bf16|f32 (fp8 C only as a separate D of tcj_gemm_ex,
 * so never here). The types alone: fp8's compute capability is contract_violation's last rule. */
static int supported(int a, int b, int c) {
  int fa = a == TCJ_F32 || a == TCJ_TF32, fb = b == TCJ_F32 || b == TCJ_TF32;
  if (fa && fb) return c == TCJ_F32;
  if (is_fp8(a) && is_fp8(b)) return c == TCJ_F16 || c == TCJ_BF16 || c == TCJ_F32;
  if (a != b) return 0;
  if (a == TCJ_S8) return c == TCJ_S32;
  if (a == TCJ_F16 || a == TCJ_BF16) return c == TCJ_F16 || c == TCJ_BF16 || c == TCJ_F32;
  return 0;
}

/* A random nonzero operand element, written at p; returns the stored value. Floats: magnitude in
 * [1/16, 1) * 2^scale. f32 (tf32 operands): a full 23-bit mantissa, or (tf32_exact) only the
 * 10 bits tf32 keeps; never exactly halfway between two tf32 values, so that round-to-nearest
 * needs no tie rule. s8: the whole range but 0 (|sum| <= 128^2 * 300 cannot overflow s32).
 * e4m3, e5m2: a code drawn among the finite nonzero ones (never NaN or inf: e4m3 S.1111.111,
 * e5m2 exponent 31) of magnitude in [1/16, 1) * 2^scale, or one time in eight anywhere below
 * 2^scale, which reaches the subnormals of both formats. */
static double make_input(rng *r, tcj_dtype t, unsigned char *p, int scale, int tf32_exact) {
  if (is_fp8(t)) {
    double hi = ldexp(1, scale), lo = rchance(r, 0.125) ? 0 : hi / 16;
    for (;;) {
      uint8_t x = (uint8_t)(rng_next(r) & 0xff);
      double v = t == TCJ_E4M3 ? e4m3_to_f32(x) : e5m2_to_f32(x);
      if (isfinite(v) && v != 0 && fabs(v) >= lo && fabs(v) < hi) {
        *p = x;
        return v;
      }
    }
  }
  if (t == TCJ_S8) {
    int64_t v = rrange(r, -128, 126);
    if (v >= 0) v++;
    gpu_put(t, p, 0, (double)v);
    return (double)v;
  }
  if (t == TCJ_F32) {
    uint32_t sign = (uint32_t)(rng_next(r) & 1) << 31;
    uint32_t exp = (uint32_t)(127 + scale + rrange(r, -4, -1)), mant = (uint32_t)(rng_next(r) & 0x7fffff);
    if (tf32_exact) mant &= ~0x1fffu;
    else if ((mant & 0x1fff) == 0x1000) mant ^= 1;
    uint32_t u = sign | exp << 23 | mant;
    memcpy(p, &u, 4);
    return gpu_get(t, p, 0);
  }
  double v = ldexp(0.0625 + 0.9375 * runit(r), scale) * (rng_next(r) & 1 ? -1 : 1);
  gpu_put(t, p, 0, v);
  return gpu_get(t, p, 0);
}

/* A random nonzero C element (read when beta != 0). */
static double make_c(rng *r, tcj_dtype t, unsigned char *p) {
  if (t == TCJ_S32) {
    double v = (double)rrange(r, 1, 1 << 20) * (rng_next(r) & 1 ? -1 : 1);
    gpu_put(t, p, 0, v);
    return v;
  }
  gpu_put(t, p, 0, ldexp(0.0625 + 0.9375 * runit(r), (int)rrange(r, -1, 1)) * (rng_next(r) & 1 ? -1 : 1));
  return gpu_get(t, p, 0);
}

/* Each operand's memory is a tail_buf (tail_mem.h): the byte after its mapping faults; [lo,
 * size) of its host image is what the current call uploaded and checks. */
enum { BUF_A, BUF_B, BUF_C, NBUF };
static const char BUF_NAMES[NBUF] = {'A', 'B', 'C'};

static vmm_api g_vmm;
static tail_buf g_buf[NBUF];
static tcj_engine *g_eng;
static cudaStream_t g_stream;
static int g_device;

static uint64_t buf_end(int b) { return (uint64_t)g_buf[b].base + g_buf[b].size; }

/* ---- kernel classes ---------------------------------------------------------------------- */

/* What selects a kernel, bar m (a runtime argument; at these sizes only m <= 32 or not changes
 * the tile): dtypes, op pair, n, k and each operand's row alignment, which the pointer and the
 * leading dimension's residue fix together. Every JIT compile costs 50-300 ms, so valid calls
 * draw from a pool of these (about two kernels each, 64 classes: 15-40 s of compiling). */
typedef struct kclass {
  int combo;
  tcj_op op_a, op_b;
  int64_t n, k;
  int ld_res[NBUF];    /* leading dimension modulo 16 / element size */
  int ptr_align[NBUF]; /* 16, or exactly this smaller power of two */
} kclass;

static kclass *g_pool;
static int g_pool_size;

static const int64_t EDGE_DIMS[] = {1,  2,  3,  7,  8,   15,  16,  17,  24,  31,  32,  33,  48, 63,
                                    64, 65, 96, 100, 127, 128, 129, 160, 192, 200, 255, 256, 257, 300};

static int64_t draw_dim(rng *r) { return rchance(r, 0.7) ? PICK(r, EDGE_DIMS) : rrange(r, 1, MAX_DIM); }

static tcj_dtype type_in(int b, const combo *cb) { return b == BUF_A ? cb->a : b == BUF_B ? cb->b : cb->c; }
static int esize_of(int b, const combo *cb) { return api_esize((int)type_in(b, cb)); }

/* The grid of the pool: every op pair of each 16-bit, tf32 and s8 combination (4 classes each),
 * and two op pairs of each fp8 one (a, b, c), chosen so that every fp8 operand pair and every
 * fp8 C type still meets all four op pairs: class h of operand pair p (0-3) and C type q (0-2)
 * takes op pair (2q + h + p) mod 4, bit 0 op_a, bit 1 op_b. */
#define GRID_CLASSES (COMBO_FP8 * 4 + (NCOMBO - COMBO_FP8) * 2)

static void grid_class(int i, int *combo_i, int *op_a, int *op_b) {
  if (i < COMBO_FP8 * 4) {
    *combo_i = i / 4;
    *op_a = i & 1;
    *op_b = (i >> 1) & 1;
    return;
  }
  i -= COMBO_FP8 * 4;
  int f = i / 2, h = i % 2, pair = f / NFP8_C, q = f % NFP8_C, op = (2 * q + h + pair) % 4;
  *combo_i = COMBO_FP8 + f;
  *op_a = op & 1;
  *op_b = op >> 1;
}

/* Columns of each stored operand (A: m x k for N, k x m for T; B: k x n or n x k; C: m x n);
 * -1 where they depend on m. */
static int64_t fixed_cols(const kclass *k, int b) {
  if (b == BUF_A) return k->op_a == TCJ_OP_N ? k->k : -1;
  if (b == BUF_B) return k->op_b == TCJ_OP_N ? k->n : k->k;
  return k->n;
}

static void make_pool(uint64_t seed) {
  rng r = {seed ^ 0x9001ull};
  g_pool_size = GRID_CLASSES + POOL_EXTRA + POOL_K0;
  g_pool = calloc((size_t)g_pool_size, sizeof *g_pool);
  assert_non_null(g_pool);
  for (int i = 0; i < g_pool_size; i++) {
    kclass *k = &g_pool[i];
    int ci, oa, ob;
    if (i < GRID_CLASSES) grid_class(i, &ci, &oa, &ob);
    else {
      ci = (int)rrange(&r, 0, NCOMBO - 1);
      oa = (int)(rng_next(&r) & 1);
      ob = (int)(rng_next(&r) & 1);
    }
    k->combo = ci;
    k->op_a = (tcj_op)oa;
    k->op_b = (tcj_op)ob;
    k->n = draw_dim(&r);
    k->k = i >= g_pool_size - POOL_K0 ? 0 : draw_dim(&r);
    for (int b = 0; b < NBUF; b++) {
      int es = esize_of(b, &COMBOS[k->combo]), q = 16 / es;
      int64_t cols = fixed_cols(k, b);
      /* Half the classes put the leading dimension's residue where its minimum is, so that
       * ld == minimum occurs; the others anywhere. */
      k->ld_res[b] = cols >= 0 && rchance(&r, 0.5) ? (int)(cols % q) : (int)rrange(&r, 0, q - 1);
      int align = 16;
      if (rchance(&r, 0.5)) { /* an element-aligned pointer below 16 bytes: valid, packed or narrow */
        int choices[4], n = 0;
        for (int a = es; a < 16; a *= 2) choices[n++] = a;
        if (n) align = choices[rng_next(&r) % (uint64_t)n];
      }
      k->ptr_align[b] = align;
    }
  }
}

/* ---- calls, layouts and the contract's predicate ----------------------------------------- */

/* The arguments exactly as passed (ints for ops and types, so that invalid values stay). */
typedef struct call {
  int with_engine;
  int op_a, op_b;
  int64_t m, n, k;
  float alpha, beta;
  uint64_t a, b, c;
  int a_type, b_type, c_type;
  int64_t lda, ldb, ldc;
  int null_stream;
} call;

/* What was uploaded: a valid problem of a pool class, each operand placed at the end of its
 * buffer. A call is built from it (and, for invalid calls, then mutated). */
typedef struct layout {
  int cls;
  const combo *cb;
  int64_t m, n, k;
  int64_t rows[NBUF], cols[NBUF], ld[NBUF];
  uint64_t ptr[NBUF];  /* 0 for an empty operand passed as NULL */
  uint64_t gap[NBUF];  /* bytes between the operand's last byte and the end of its mapping */
  int tf32_exact;
  int ld_free;         /* a leading dimension drawn without regard to the class's alignment */
} layout;

static void stored_shape(int op_t, int64_t outer, int64_t inner, int64_t *rows, int64_t *cols) {
  *rows = op_t ? inner : outer;
  *cols = op_t ? outer : inner;
}

/* Shapes of the stored operands of a call (A: m x k or k x m; B: k x n or n x k; C: m x n). */
static void call_shapes(const call *c, int64_t rows[NBUF], int64_t cols[NBUF]) {
  stored_shape(c->op_a == TCJ_OP_T, c->m, c->k, &rows[BUF_A], &cols[BUF_A]);
  if (c->op_b == TCJ_OP_T) { rows[BUF_B] = c->n; cols[BUF_B] = c->k; }
  else { rows[BUF_B] = c->k; cols[BUF_B] = c->n; }
  rows[BUF_C] = c->m;
  cols[BUF_C] = c->n;
}

/* First to one past the last byte of a rows x cols matrix, saturating at 2^64. */
static void span_of(uint64_t p, int64_t rows, int64_t cols, int64_t ld, int es, uint64_t *start, uint64_t *end) {
  uint64_t last_row, elems, bytes;
  *start = p;
  if (__builtin_mul_overflow((uint64_t)(rows - 1), (uint64_t)ld, &last_row) ||
      __builtin_add_overflow(last_row, (uint64_t)cols, &elems) || __builtin_mul_overflow(elems, (uint64_t)es, &bytes) ||
      __builtin_add_overflow(p, bytes, end))
    *end = UINT64_MAX;
}

/* contract_violation's reason for a call that keeps every other rule but has fp8 operands on a
 * GPU below compute capability 8.9: it must return TCJ_ERROR_NOT_SUPPORTED, not just fail. */
static const char FP8_BELOW_SM89[] = "fp8 operands below sm_89";

static int fp8_call(const call *c) { return is_fp8(c->a_type) && is_fp8(c->b_type); }

/* Why a call breaks the contract of tcj.h (and the argument rules it names: leading dimensions
 * up to 2^48, extents up to 2^31 - 1, element-aligned pointers), or NULL when it is valid. fp8
 * operands need sm_89 or newer: below, a call that would compute something (m and n > 0) breaks
 * that rule last (FP8_BELOW_SM89); one with m or n == 0 computes nothing and counts as valid
 * (one_call accepts either answer then). */
static const char *contract_violation(const call *c) {
  if (!c->with_engine) return "engine is NULL";
  if (!supported(c->a_type, c->b_type, c->c_type)) return "unsupported types";
  if ((c->op_a != TCJ_OP_N && c->op_a != TCJ_OP_T) || (c->op_b != TCJ_OP_N && c->op_b != TCJ_OP_T)) return "op not N or T";
  if (c->m < 0 || c->n < 0 || c->k < 0) return "negative extent";
  int64_t rows[NBUF], cols[NBUF];
  call_shapes(c, rows, cols);
  const int64_t ld[NBUF] = {c->lda, c->ldb, c->ldc};
  const uint64_t p[NBUF] = {c->a, c->b, c->c};
  const int es[NBUF] = {api_esize(c->a_type), api_esize(c->b_type), api_esize(c->c_type)};
  for (int b = 0; b < NBUF; b++) {
    if (ld[b] < cols[b]) return "leading dimension below its minimum";
    if (ld[b] > LD_LIMIT) return "leading dimension past 2^48";
    if (!p[b] && rows[b] > 0 && cols[b] > 0) return "NULL operand with elements";
    if (p[b] % (uint64_t)es[b]) return "pointer not aligned to its element";
  }
  if (c->m > INT32_MAX || c->n > INT32_MAX || c->k > INT32_MAX) return "extent past 2^31 - 1";
  if (c->m > 0 && c->n > 0 && c->k > 0) {
    uint64_t s[NBUF], e[NBUF];
    for (int b = 0; b < NBUF; b++) span_of(p[b], rows[b], cols[b], ld[b], es[b], &s[b], &e[b]);
    for (int b = BUF_A; b <= BUF_B; b++)
      if (s[BUF_C] < e[b] && s[b] < e[BUF_C]) return "C overlaps an operand";
  }
  if (!g_fp8 && fp8_call(c) && c->m > 0 && c->n > 0) return FP8_BELOW_SM89;
  return NULL;
}

static const char *op_text(int op, char *buf, size_t size) {
  if (op == TCJ_OP_N) return "N";
  if (op == TCJ_OP_T) return "T";
  snprintf(buf, size, "%d", op);
  return buf;
}

static const char *type_text(int t, char *buf, size_t size) {
  if (t >= 0 && t < NDTYPE) { /* as the enum spells it: tcj_dtype_name's "bf16" is TCJ_BF16 */
    int n = snprintf(buf, size, "TCJ_%s", tcj_dtype_name((tcj_dtype)t));
    for (int i = 4; i < n && (size_t)i < size; i++) buf[i] = (char)toupper((unsigned char)buf[i]);
  } else snprintf(buf, size, "%d", t);
  return buf;
}

/* A pointer as an offset from the end of the buffer it lies in. */
static const char *ptr_text(uint64_t p, char *buf, size_t size) {
  if (!p) return "NULL";
  for (int b = 0; b < NBUF; b++) {
    uint64_t end = buf_end(b);
    if (p >= g_buf[b].base && p <= end + g_buf[b].size) {
      if (p <= end) snprintf(buf, size, "0x%llx (%c end-%llu)", (unsigned long long)p, BUF_NAMES[b], (unsigned long long)(end - p));
      else snprintf(buf, size, "0x%llx (%c end+%llu)", (unsigned long long)p, BUF_NAMES[b], (unsigned long long)(p - end));
      return buf;
    }
  }
  snprintf(buf, size, "0x%llx", (unsigned long long)p);
  return buf;
}

static void describe(const call *c, char *out, size_t size) {
  char oa[16], ob[16], ta[24], tb[24], tc[24], pa[64], pb[64], pc[64];
  snprintf(out, size,
           "tcj_gemm(%s, op_a=%s, op_b=%s, m=%lld, n=%lld, k=%lld, alpha=%.9g, a=%s, a_type=%s, lda=%lld, "
           "b=%s, b_type=%s, ldb=%lld, beta=%.9g, c=%s, c_type=%s, ldc=%lld, stream=%s)",
           c->with_engine ? "engine" : "NULL", op_text(c->op_a, oa, sizeof oa), op_text(c->op_b, ob, sizeof ob),
           (long long)c->m, (long long)c->n, (long long)c->k, (double)c->alpha, ptr_text(c->a, pa, sizeof pa),
           type_text(c->a_type, ta, sizeof ta), (long long)c->lda, ptr_text(c->b, pb, sizeof pb),
           type_text(c->b_type, tb, sizeof tb), (long long)c->ldb, (double)c->beta, ptr_text(c->c, pc, sizeof pc),
           type_text(c->c_type, tc, sizeof tc), (long long)c->ldc, c->null_stream ? "NULL" : "stream");
}

static tcj_status issue(const call *c) {
  return tcj_gemm(c->with_engine ? g_eng : NULL, (tcj_op)c->op_a, (tcj_op)c->op_b, c->m, c->n, c->k, c->alpha,
                  (const void *)(uintptr_t)c->a, (tcj_dtype)c->a_type, c->lda, (const void *)(uintptr_t)c->b,
                  (tcj_dtype)c->b_type, c->ldb, c->beta, (void *)(uintptr_t)c->c, (tcj_dtype)c->c_type, c->ldc,
                  c->null_stream ? (CUstream)0 : (CUstream)g_stream);
}

/* ---- building a valid problem ------------------------------------------------------------ */

/* alpha or beta: 0 (beta often, so that C's NaN must not be read), 1, -1, 0.37, or random. */
static float draw_scalar(rng *r, int is_beta) {
  if (rchance(r, is_beta ? 0.35 : 0.05)) return 0.0f;
  double p = runit(r);
  if (p < 0.3) return 1.0f;
  if (p < 0.45) return -1.0f;
  if (p < 0.6) return 0.37f;
  return (float)(4 * runit(r) - 2);
}

static int64_t draw_m(rng *r) { return rchance(r, 0.2) ? PICK(r, EDGE_DIMS) : rrange(r, 1, MAX_DIM); }

/* Leading dimension of a stored operand: at the class's residue (its row alignment), the least
 * such value at or above the minimum or up to three 16-byte steps more; or anything a little
 * above the minimum (free), which may select another kernel. */
static int64_t draw_ld(rng *r, int64_t min, int es, int res, int free_ld) {
  int64_t q = 16 / es;
  if (free_ld) return min + rrange(r, 0, 20);
  int64_t ld = min + ((res - min % q) % q + q) % q;
  static const int STEPS[] = {0, 0, 0, 1, 2, 3};
  return ld + q * PICK(r, STEPS);
}

/* Largest power of two <= 16 dividing every row start of an operand at p: the alignment class
 * the kernel is selected by (together with the dtypes, ops, n and k). */
static uint64_t row_align(uint64_t p, int64_t ld_bytes) {
  uint64_t bits = p | (uint64_t)ld_bytes | 16;
  return bits & (~bits + 1);
}

/* Where an operand of `bytes` bytes goes: its last byte on the last mapped byte when that
 * address gives the class's row alignment; otherwise the highest address below it whose own
 * alignment is `align` exactly (16: at least 16), leaving a gap of less than 16 bytes. */
static uint64_t place(uint64_t end, uint64_t bytes, int align, int64_t ld_bytes) {
  uint64_t p = (end - bytes) & ~(uint64_t)(align - 1);
  if (align < 16 && (p & (uint64_t)align) == 0) p -= (uint64_t)align;
  return row_align(end - bytes, ld_bytes) == row_align(p, ld_bytes) ? end - bytes : p;
}

/* Dense op(A), op(B)^T as the GPU multiplies them (fp8 decoded; f32 data: [0] rounded to tf32,
 * [1] truncated, [2] as stored, for fp32 accuracy), C. */
static double *g_a[3], *g_bt[3], *g_cin, *g_got;

/* Draws a problem of class `cls`, lays it out at the end of the buffers with fresh data and
 * uploads it; C holds NaN where beta_zero (it must not be read), random values otherwise. Also
 * fills the oracle's dense op(A) (m x k) and op(B)^T (n x k). Returns 1, 0 if it does not fit,
 * -1 on a CUDA error. */
static int build_layout(rng *r, int cls, int64_t m, int beta_zero, layout *L) {
  const kclass *kc = &g_pool[cls];
  memset(L, 0, sizeof *L);
  L->cls = cls;
  L->cb = &COMBOS[kc->combo];
  L->m = m;
  L->n = kc->n;
  L->k = kc->k;
  L->tf32_exact = kc->combo == COMBO_TF32 && rchance(r, 0.3);
  stored_shape(kc->op_a == TCJ_OP_T, m, kc->k, &L->rows[BUF_A], &L->cols[BUF_A]);
  if (kc->op_b == TCJ_OP_T) { L->rows[BUF_B] = kc->n; L->cols[BUF_B] = kc->k; }
  else { L->rows[BUF_B] = kc->k; L->cols[BUF_B] = kc->n; }
  L->rows[BUF_C] = m;
  L->cols[BUF_C] = kc->n;
  int free_b = rchance(r, 0.04) ? (int)rrange(r, 0, NBUF - 1) : -1;
  L->ld_free = free_b >= 0;
  int scale[2] = {(int)rrange(r, -2, 1), (int)rrange(r, -2, 1)};
  for (int b = 0; b < NBUF; b++) {
    tail_buf *t = &g_buf[b];
    int es = esize_of(b, L->cb);
    tcj_dtype st = type_in(b, L->cb);
    L->ld[b] = draw_ld(r, L->cols[b], es, kc->ld_res[b], b == free_b);
    int empty = L->rows[b] == 0 || L->cols[b] == 0;
    if (empty) {
      /* Nothing to read: NULL, or the very end of the mapping, where any access faults. */
      L->ptr[b] = rchance(r, 0.4) ? 0 : buf_end(b);
      t->lo = t->size - PREFIX;
      memset(t->host + t->lo, SENTINEL, PREFIX);
      continue;
    }
    uint64_t bytes = ((uint64_t)(L->rows[b] - 1) * (uint64_t)L->ld[b] + (uint64_t)L->cols[b]) * (uint64_t)es;
    uint64_t p = place(buf_end(b), bytes, kc->ptr_align[b], L->ld[b] * es);
    if (p < (uint64_t)t->base + PREFIX) return 0; /* cannot happen with MAX_DIM; kept as a guard */
    L->ptr[b] = p;
    L->gap[b] = buf_end(b) - p - bytes;
    size_t off = (size_t)(p - t->base);
    t->lo = off - PREFIX;
    memset(t->host + t->lo, SENTINEL, t->size - t->lo);
    for (int64_t i = 0; i < L->rows[b]; i++) {
      unsigned char *row = t->host + off + (size_t)(i * L->ld[b] * es);
      for (int64_t j = 0; j < L->cols[b]; j++) {
        unsigned char *e = row + j * es;
        if (b == BUF_C) {
          double v = 0;
          if (beta_zero) gpu_poison(st, e, 0);
          else v = make_c(r, st, e);
          g_cin[i * L->n + j] = v;
          continue;
        }
        double v = make_input(r, st, e, scale[b], L->tf32_exact);
        int tf32 = L->cb->a == TCJ_F32;
        double rn = tf32 ? oracle_tf32((float)v, 0) : v, rz = tf32 ? oracle_tf32((float)v, 1) : v;
        /* Stored (i, j) is op(A)[i][j] under N and op(A)[j][i] under T; likewise for B. */
        int64_t at;
        if (b == BUF_A) at = kc->op_a == TCJ_OP_N ? i * L->k + j : j * L->k + i;
        else at = kc->op_b == TCJ_OP_N ? j * L->k + i : i * L->k + j;
        (b == BUF_A ? g_a : g_bt)[0][at] = rn;
        (b == BUF_A ? g_a : g_bt)[1][at] = rz;
        (b == BUF_A ? g_a : g_bt)[2][at] = v;
      }
      if (b != BUF_C && i + 1 < L->rows[b])
        for (int64_t j = L->cols[b]; j < L->ld[b]; j++) gpu_poison(st, row + j * es, 0);
    }
  }
  for (int b = 0; b < NBUF; b++) {
    tail_buf *t = &g_buf[b];
    cudaError_t e = cudaMemcpy((void *)(uintptr_t)(t->base + t->lo), t->host + t->lo, t->size - t->lo,
                               cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
      printf("  upload of %c failed: %s\n", BUF_NAMES[b], cudaGetErrorName(e));
      return -1;
    }
  }
  /* cudaMemcpy from pageable memory may return before its DMA has landed, and the GEMM runs on
   * a non-blocking stream that does not wait for the legacy stream: without this, a kernel can
   * read an older call's bytes (it did: NaN from a C poisoned for beta == 0 calls before). */
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("  synchronize after the uploads failed: %s\n", cudaGetErrorName(e));
    return -1;
  }
  return 1;
}

static void call_from_layout(rng *r, const layout *L, call *c) {
  const kclass *kc = &g_pool[L->cls];
  memset(c, 0, sizeof *c);
  c->with_engine = 1;
  c->op_a = kc->op_a;
  c->op_b = kc->op_b;
  c->m = L->m;
  c->n = L->n;
  c->k = L->k;
  c->a = L->ptr[BUF_A];
  c->b = L->ptr[BUF_B];
  c->c = L->ptr[BUF_C];
  c->lda = L->ld[BUF_A];
  c->ldb = L->ld[BUF_B];
  c->ldc = L->ld[BUF_C];
  /* f32 data may be passed as TCJ_TF32 or TCJ_F32, each on its own: two TCJ_F32 operands are
   * computed to fp32 accuracy (3xTF32), a TCJ_TF32 one on the tf32 path. */
  if (L->cb->a == TCJ_F32) {
    c->a_type = rng_next(r) & 1 ? TCJ_TF32 : TCJ_F32;
    c->b_type = rng_next(r) & 1 ? TCJ_TF32 : TCJ_F32;
  } else {
    c->a_type = L->cb->a;
    c->b_type = L->cb->b;
  }
  c->c_type = L->cb->c;
  c->null_stream = rchance(r, 0.15);
}

/* ---- invalid calls ----------------------------------------------------------------------- */

enum mutation {
  MUT_ENGINE_NULL, MUT_PTR_NULL, MUT_DIM_NEGATIVE, MUT_DIM_HUGE, MUT_LD_BELOW_MIN, MUT_LD_HUGE,
  MUT_PTR_MISALIGNED, MUT_TYPES, MUT_OP, MUT_ALIAS, MUT_COUNT
};
static const char *const MUT_NAMES[MUT_COUNT] = {
    "engine NULL", "operand NULL", "negative extent", "extent > 2^31-1", "ld below minimum",
    "ld > 2^48", "pointer misaligned", "unsupported types", "op not N/T", "C overlaps A or B"};

static const int BAD_TYPES[] = {TCJ_F16, TCJ_BF16, TCJ_F32, TCJ_TF32, TCJ_E4M3, TCJ_E5M2, TCJ_S8, TCJ_S32,
                                TCJ_F64, 9,       99,       -1,      1000,     INT_MIN,  INT_MAX};

static int64_t *dim_ref(call *c, int i) { return i == 0 ? &c->m : i == 1 ? &c->n : &c->k; }
static int64_t *ld_ref(call *c, int b) { return b == BUF_A ? &c->lda : b == BUF_B ? &c->ldb : &c->ldc; }
static uint64_t *ptr_ref(call *c, int b) { return b == BUF_A ? &c->a : b == BUF_B ? &c->b : &c->c; }
static int type_of(const call *c, int b) { return b == BUF_A ? c->a_type : b == BUF_B ? c->b_type : c->c_type; }

/* Applies one mutation of kind `kind` to c; the caller checks the result is invalid. */
static void mutate(rng *r, call *c, int kind) {
  int b = (int)rrange(r, 0, NBUF - 1);
  switch (kind) {
  case MUT_ENGINE_NULL: c->with_engine = 0; break;
  case MUT_PTR_NULL: *ptr_ref(c, b) = 0; break;
  case MUT_DIM_NEGATIVE: {
    static const int64_t V[] = {-1, -2, -17, INT32_MIN, -(INT64_C(1) << 40), INT64_MIN, INT64_MIN + 1};
    *dim_ref(c, (int)rrange(r, 0, 2)) = rchance(r, 0.2) ? -rrange(r, 1, INT64_C(1) << 33) : PICK(r, V);
    break;
  }
  case MUT_DIM_HUGE: {
    static const int64_t V[] = {(int64_t)INT32_MAX + 1, INT64_C(1) << 32, (INT64_C(1) << 32) - 1, INT64_C(1) << 40,
                                INT64_C(1) << 47, INT64_C(1) << 62, INT64_MAX};
    int d = (int)rrange(r, 0, 2);
    int64_t v = rchance(r, 0.2) ? rrange(r, (int64_t)INT32_MAX + 1, INT64_C(1) << 48) : PICK(r, V);
    *dim_ref(c, d) = v;
    /* Half the time lift the leading dimensions to the new minimum, so that the extent itself
     * (and not a leading dimension now below its minimum) is what breaks the rules. */
    if (rchance(r, 0.5)) {
      int64_t rows[NBUF], cols[NBUF];
      call_shapes(c, rows, cols);
      for (int x = 0; x < NBUF; x++)
        if (*ld_ref(c, x) < cols[x]) *ld_ref(c, x) = cols[x];
    }
    break;
  }
  case MUT_LD_BELOW_MIN: {
    int64_t rows[NBUF], cols[NBUF];
    call_shapes(c, rows, cols);
    int64_t v = cols[b] > 0 ? cols[b] - 1 : -1;
    if (rchance(r, 0.2)) v = -rrange(r, 1, INT64_C(1) << 40);
    else if (rchance(r, 0.1)) v = INT64_MIN;
    *ld_ref(c, b) = v;
    break;
  }
  case MUT_LD_HUGE: {
    static const int64_t V[] = {LD_LIMIT + 1, LD_LIMIT + 16, INT64_C(1) << 49, INT64_C(1) << 62, INT64_MAX};
    *ld_ref(c, b) = rchance(r, 0.3) ? rrange(r, LD_LIMIT + 1, INT64_MAX - 1) : PICK(r, V);
    break;
  }
  case MUT_PTR_MISALIGNED: {
    int es = api_esize(type_of(c, b));
    if (es < 2) { b = BUF_C; es = api_esize(c->c_type); } /* s8 and fp8 operands cannot be misaligned */
    if (es >= 2 && *ptr_ref(c, b)) *ptr_ref(c, b) += (uint64_t)rrange(r, 1, es - 1);
    break;
  }
  case MUT_TYPES: {
    int mode = (int)rrange(r, 0, 3);
    if (mode == 0) { /* one of the three */
      int v = PICK(r, BAD_TYPES);
      if (b == BUF_A) c->a_type = v;
      else if (b == BUF_B) c->b_type = v;
      else c->c_type = v;
    } else if (mode == 1) { /* all three, anything */
      c->a_type = PICK(r, BAD_TYPES);
      c->b_type = PICK(r, BAD_TYPES);
      c->c_type = PICK(r, BAD_TYPES);
    } else if (mode == 2) { /* a and b differ */
      c->a_type = (int)rrange(r, 0, NDTYPE - 1);
      c->b_type = (int)rrange(r, 0, NDTYPE - 1);
    } else { /* a = b, every dtype as input, C anything */
      c->a_type = c->b_type = (int)rrange(r, 0, NDTYPE - 1);
      c->c_type = (int)rrange(r, 0, NDTYPE - 1);
    }
    break;
  }
  case MUT_OP: {
    static const int V[] = {2, 3, -1, 99, INT_MAX, INT_MIN};
    int which = (int)rrange(r, 0, 2);
    if (which != 1) c->op_a = PICK(r, V);
    if (which != 0) c->op_b = PICK(r, V);
    break;
  }
  case MUT_ALIAS: {
    /* C starting inside A's or B's span (or exactly on it), or ending inside it. */
    int x = rng_next(r) & 1 ? BUF_A : BUF_B;
    int64_t rows[NBUF], cols[NBUF];
    call_shapes(c, rows, cols);
    uint64_t p = *ptr_ref(c, x);
    if (!p || rows[x] <= 0 || cols[x] <= 0 || rows[BUF_C] <= 0 || cols[BUF_C] <= 0) break;
    /* Types may be invalid already (a second mutation): size their elements as one byte. */
    int es_x = api_esize(type_of(c, x)) > 0 ? api_esize(type_of(c, x)) : 1;
    uint64_t es_c = api_esize(c->c_type) > 0 ? (uint64_t)api_esize(c->c_type) : 1;
    uint64_t s, e, cs, ce;
    span_of(p, rows[x], cols[x], *ld_ref(c, x), es_x, &s, &e);
    uint64_t at = rchance(r, 0.3) || e <= s ? s : s + rng_next(r) % (e - s);
    span_of(0, rows[BUF_C], cols[BUF_C], c->ldc, (int)es_c, &cs, &ce);
    if (rchance(r, 0.3) && ce != UINT64_MAX && ce <= at) at = at - ce + es_c; /* C's last element at `at` */
    c->c = at / es_c * es_c;
    break;
  }
  default: break;
  }
}

/* ---- checks ------------------------------------------------------------------------------ */

/* Reads back [lo, size) of every buffer after a device synchronize. */
static cudaError_t read_back(void) {
  cudaError_t e = cudaDeviceSynchronize();
  for (int b = 0; b < NBUF && e == cudaSuccess; b++) {
    tail_buf *t = &g_buf[b];
    e = cudaMemcpy(t->back + t->lo, (const void *)(uintptr_t)(t->base + t->lo), t->size - t->lo, cudaMemcpyDeviceToHost);
  }
  return e;
}

/* First byte of buffer b that changed in [from, to), or -1. */
static int64_t first_change(int b, size_t from, size_t to) {
  const tail_buf *t = &g_buf[b];
  if (to <= from || memcmp(t->host + from, t->back + from, to - from) == 0) return -1;
  while (t->host[from] == t->back[from]) from++;
  return (int64_t)from;
}

/* First changed byte of C outside its m x n elements (prefix, padding columns, gap), or -1. */
static int64_t c_outside_change(const layout *L) {
  const tail_buf *t = &g_buf[BUF_C];
  int es = api_esize((int)L->cb->c);
  size_t off = (size_t)(L->ptr[BUF_C] - t->base), pitch = (size_t)L->ld[BUF_C] * (size_t)es, row = (size_t)L->n * (size_t)es;
  size_t pos = t->lo;
  for (int64_t i = 0; i < L->m; i++) {
    size_t s = off + (size_t)i * pitch;
    int64_t at = first_change(BUF_C, pos, s);
    if (at >= 0) return at;
    pos = s + row;
  }
  return first_change(BUF_C, pos, t->size);
}

/* ---- statistics -------------------------------------------------------------------------- */

typedef struct stats {
  int calls, valid, computed, empty, invalid, failed;
  int per_combo[NCOMBO], per_combo_k0[NCOMBO];
  int per_combo_refused[NCOMBO]; /* pool calls of fp8 classes below sm_89 (must be NOT_SUPPORTED) */
  int fp8_refused;               /* every fp8 call refused below sm_89 (pool, mutated, empty) */
  double worst[NCOMBO];
  int worst_call[NCOMBO];
  int tf32_exact, tf32_nearest, tf32_trunc, tf32_both;
  int mutations[MUT_COUNT];
  int status[16];
  int null_stream, small_m, ld_free, beta_zero;
  int at_min[NBUF], tail_exact[NBUF], nonempty[NBUF], ptr_below16[NBUF];
} stats;

static stats g_st;
static uint64_t g_seed;
static int g_reported;

static void report(int idx, const call *c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void report(int idx, const call *c, const char *fmt, ...) {
  g_st.failed++;
  if (g_reported++ >= MAX_REPORTED) return;
  char d[768], why[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  describe(c, d, sizeof d);
  printf("  FAIL call %d (TCJ_TEST_SEED=0x%llx TCJ_TEST_FUZZ_CALLS=%d reproduces it): %s\n    %s\n", idx,
         (unsigned long long)g_seed, idx + 1, d, why);
  fflush(stdout);
}

/* fp8 operands: oracle_check's bound with the fp8 tensor cores' own accumulation term c_tc of
 * test_fp8_gpu.c added to c_k. Each step of 32 products goes into an accumulator of about 13
 * mantissa bits, truncated, which errs by up to 2^-10 of the |products| summed so far; with
 * fast_accum 0 (all tcj_gemm has) tcj.h promotes the partial sums to fp32 every 128 of K, so at
 * most 4 steps meet before an fp32 add: c_tc = min(ceil(k / 32), 4) 2^-10, whatever K. */
#define FP8_TC_K 32
#define FP8_TC_STEP_ERR 0x1p-10
#define FP8_PROMOTE_K 128

static double fp8_tc_term(int64_t k) {
  int64_t steps = (k + FP8_TC_K - 1) / FP8_TC_K;
  if (steps > FP8_PROMOTE_K / FP8_TC_K) steps = FP8_PROMOTE_K / FP8_TC_K;
  return (double)steps * FP8_TC_STEP_ERR;
}

/* A valid call's result: A and B untouched, nothing of C outside its elements changed, every
 * element within the oracle's bound (tf32: under one rounding model for the whole call; fp8:
 * with the tensor-core term fp8_tc_term in the oracle's bound). */
static void check_valid(int idx, const call *c, const layout *L) {
  for (int b = BUF_A; b <= BUF_B; b++) {
    int64_t at = first_change(b, g_buf[b].lo, g_buf[b].size);
    if (at >= 0) {
      report(idx, c, "operand %c changed at %lld bytes before the end of its mapping", BUF_NAMES[b],
             (long long)(g_buf[b].size - (size_t)at));
      return;
    }
  }
  int64_t at = c_outside_change(L);
  if (at >= 0) {
    const tail_buf *t = &g_buf[BUF_C];
    report(idx, c, "C changed outside its m x n elements: byte at end-%lld (C starts at end-%lld, row pitch %lld bytes) "
           "0x%02x -> 0x%02x", (long long)(t->size - (size_t)at), (long long)(buf_end(BUF_C) - L->ptr[BUF_C]),
           (long long)(L->ld[BUF_C] * api_esize((int)L->cb->c)), t->host[at], t->back[at]);
    return;
  }
  int es = api_esize((int)L->cb->c);
  size_t off = (size_t)(L->ptr[BUF_C] - g_buf[BUF_C].base);
  for (int64_t i = 0; i < L->m; i++)
    for (int64_t j = 0; j < L->n; j++)
      g_got[i * L->n + j] = gpu_get(L->cb->c, g_buf[BUF_C].back + off + (size_t)((i * L->ld[BUF_C] + j) * es), 0);
  /* 3xTF32: the operands as stored, each product off by at most 2^-20 of |a b| (tests/gpu/
   * test_gemm_gpu.c, x3_term). */
  int x3 = L->cb->a == TCJ_F32 && c->a_type == TCJ_F32 && c->b_type == TCJ_F32;
  int tf32 = L->cb->a == TCJ_F32 && !x3, fp8 = is_fp8(L->cb->a);
  oracle_result res[2];
  for (int model = 0; model < (tf32 ? 2 : 1); model++) {
    oracle_gemm g = {L->m, L->n, L->k, c->alpha, c->beta, L->cb->c, g_a[x3 ? 2 : model], g_bt[x3 ? 2 : model], g_cin,
                     g_got, fp8 ? fp8_tc_term(L->k) : x3 ? 0x1p-20 : 0};
    oracle_check(&g, &res[model]);
  }
  int use = 0;
  if (tf32) {
    int ok0 = res[0].bad == 0, ok1 = res[1].bad == 0;
    if (L->tf32_exact) g_st.tf32_exact++;
    else if (ok0 && ok1) g_st.tf32_both++;
    else if (ok0) g_st.tf32_nearest++;
    else if (ok1) g_st.tf32_trunc++;
    /* The model that fits, else the one with fewer elements out of bound (a failure then
     * shows the engine's error, not the other model's rounding). */
    use = ok0 ? 0 : ok1 ? 1 : res[1].bad < res[0].bad || (res[1].bad == res[0].bad && res[1].worst_ratio < res[0].worst_ratio);
  }
  const oracle_result *o = &res[use];
  int ci = (int)(L->cb - COMBOS);
  if (o->worst_ratio > g_st.worst[ci] || g_st.worst_call[ci] < 0) {
    g_st.worst[ci] = o->worst_ratio;
    g_st.worst_call[ci] = idx;
  }
  if (o->bad)
    report(idx, c, "%lld of %lld elements outside the bound%s; worst C[%lld][%lld] = %.9g, reference %.9g, "
           "|diff| %.3g, bound %.3g (ratio %.3g)", (long long)o->bad, (long long)o->checked,
           tf32 ? (use ? " under both tf32 rounding models; truncation shown" : " under both tf32 rounding models; nearest shown")
           : fp8 ? " (fp8: c_k plus the tensor-core term min(ceil(k / 32), 4) 2^-10)" : "",
           (long long)o->worst_i, (long long)o->worst_j, o->worst_got, o->worst_ref, fabs(o->worst_got - o->worst_ref),
           o->worst_bound, o->worst_ratio);
}

/* A call that must change nothing at all (invalid, or m or n == 0). */
static void check_untouched(int idx, const call *c, const char *what) {
  for (int b = 0; b < NBUF; b++) {
    int64_t at = first_change(b, g_buf[b].lo, g_buf[b].size);
    if (at >= 0) {
      report(idx, c, "%s wrote buffer %c at end-%lld: 0x%02x -> 0x%02x", what, BUF_NAMES[b],
             (long long)(g_buf[b].size - (size_t)at), g_buf[b].host[at], g_buf[b].back[at]);
      return;
    }
  }
}

/* ---- the test ---------------------------------------------------------------------------- */

static int g_calls = DEFAULT_CALLS;

enum { KIND_POOL, KIND_EMPTY, KIND_INVALID };

/* One call: draw, lay out, issue, check. Returns 0 when the CUDA context is lost (a fault). */
static int one_call(int idx) {
  rng r = {rng_mix64(g_seed ^ rng_mix64((uint64_t)idx + 1))};
  double p = runit(&r);
  int kind = p < 0.55 ? KIND_POOL : p < 0.62 ? KIND_EMPTY : KIND_INVALID;
  int cls = (int)rrange(&r, 0, g_pool_size - 1);
  int64_t m = draw_m(&r);
  float alpha = draw_scalar(&r, 0), beta = draw_scalar(&r, 1);
  layout L;
  int built = build_layout(&r, cls, m, beta == 0, &L);
  if (built < 0) return 0;
  if (built == 0) { report(idx, &(call){0}, "layout does not fit its buffer"); return 1; }
  call c;
  call_from_layout(&r, &L, &c);
  c.alpha = alpha;
  c.beta = beta;
  int muts[2] = {-1, -1};
  if (kind == KIND_EMPTY) {
    /* m == 0 or n == 0: valid, and nothing may be written. Operands left empty may be NULL and
     * take any leading dimension from their minimum up to 2^48. */
    call base = c;
    for (int tries = 0; tries < 20; tries++) {
      c = base;
      int which = (int)rrange(&r, 0, 2);
      if (which != 1) c.m = 0;
      if (which != 0) c.n = 0;
      int64_t rows[NBUF], cols[NBUF];
      call_shapes(&c, rows, cols);
      for (int b = 0; b < NBUF; b++) {
        if (rows[b] > 0 && cols[b] > 0) continue;
        if (rchance(&r, 0.5)) *ptr_ref(&c, b) = 0;
        double q = runit(&r);
        if (q < 0.25) *ld_ref(&c, b) = cols[b];
        else if (q < 0.5) *ld_ref(&c, b) = rchance(&r, 0.5) ? LD_LIMIT : rrange(&r, cols[b], LD_LIMIT);
        else if (*ld_ref(&c, b) < cols[b]) *ld_ref(&c, b) = cols[b];
      }
      if (!contract_violation(&c)) break;
    }
  } else if (kind == KIND_INVALID) {
    /* A mutation sticks when it breaks a rule the call kept (an fp8 class below sm_89 breaks
     * FP8_BELOW_SM89 before any mutation: that one does not count). */
    call base = c;
    const char *before = contract_violation(&base);
    int stuck = 0;
    for (int tries = 0; tries < 50 && !stuck; tries++) {
      c = base;
      muts[0] = (int)rrange(&r, 0, MUT_COUNT - 1);
      mutate(&r, &c, muts[0]);
      muts[1] = rchance(&r, 0.2) ? (int)rrange(&r, 0, MUT_COUNT - 1) : -1;
      if (muts[1] >= 0) mutate(&r, &c, muts[1]);
      const char *v = contract_violation(&c);
      stuck = v && v != before;
    }
    if (!stuck) { /* no mutation stuck (fifty in a row): run the unmutated call */
      c = base;
      kind = KIND_POOL;
      muts[0] = muts[1] = -1;
    }
  }
  const char *violation = contract_violation(&c);
  /* A pool call of an fp8 class on a GPU below sm_89: valid by its arguments, and refused with
   * TCJ_ERROR_NOT_SUPPORTED (checked as an invalid call is, status included). */
  int refused_fp8 = kind == KIND_POOL && violation == FP8_BELOW_SM89;
  if (refused_fp8) kind = KIND_INVALID;
  if (kind != KIND_INVALID && violation) {
    report(idx, &c, "test generator bug: a call meant to be valid breaks the contract (%s)", violation);
    return 1;
  }

  /* tcj_last_error keeps a thread's last failure until the next one: before an invalid call,
   * fail differently on purpose, so that an unchanged message shows this call set none. */
  char primer[256] = "";
  if (kind == KIND_INVALID) {
    tcj_status ps = c.with_engine
                        ? tcj_gemm(NULL, TCJ_OP_N, TCJ_OP_N, 1, 1, 1, 1, NULL, TCJ_F16, 1, NULL, TCJ_F16, 1, 0, NULL,
                                   TCJ_F16, 1, NULL)
                        : tcj_gemm(g_eng, TCJ_OP_N, TCJ_OP_N, -1234567, 1, 1, 1, NULL, TCJ_F16, 1, NULL, TCJ_F16, 1, 0,
                                   NULL, TCJ_F16, 1, NULL);
    const char *pm = tcj_last_error(c.with_engine ? NULL : g_eng);
    if (ps != TCJ_SUCCESS && pm) snprintf(primer, sizeof primer, "%s", pm);
  }
  tcj_status st = issue(&c);
  const char *msg = tcj_last_error(c.with_engine ? g_eng : NULL);
  cudaError_t ce = read_back();
  g_st.calls++;
  if (ce != cudaSuccess) {
    report(idx, &c, "the CUDA context failed after the call (%s: %s); tcj_gemm returned %s", cudaGetErrorName(ce),
           cudaGetErrorString(ce), tcj_status_string(st));
    return 0;
  }
  if ((unsigned)st < sizeof g_st.status / sizeof g_st.status[0]) g_st.status[st]++;
  if (c.null_stream) g_st.null_stream++;

  if (kind == KIND_INVALID) {
    g_st.invalid++;
    for (int i = 0; i < 2; i++)
      if (muts[i] >= 0) g_st.mutations[muts[i]]++;
    if (refused_fp8) g_st.per_combo_refused[L.cb - COMBOS]++;
    if (violation == FP8_BELOW_SM89) g_st.fp8_refused++;
    if (st == TCJ_SUCCESS) report(idx, &c, "accepted a call that breaks the contract (%s)", violation);
    else if (violation == FP8_BELOW_SM89 && st != TCJ_ERROR_NOT_SUPPORTED)
      report(idx, &c, "returned %s for fp8 operands on sm_%d%d, want TCJ_ERROR_NOT_SUPPORTED (fp8 needs sm_89 or "
             "newer): %s", tcj_status_string(st), g_cc_major, g_cc_minor, msg ? msg : "");
    else if (!msg || !msg[0]) report(idx, &c, "returned %s (%s) with an empty tcj_last_error", tcj_status_string(st), violation);
    else if (primer[0] && strcmp(msg, primer) == 0)
      report(idx, &c, "returned %s (%s) but left tcj_last_error at the previous failure's \"%s\"",
             tcj_status_string(st), violation, msg);
    check_untouched(idx, &c, "a rejected call");
    return 1;
  }
  g_st.valid++;
  if (st == TCJ_ERROR_NOT_SUPPORTED && kind == KIND_EMPTY && !g_fp8 && fp8_call(&c)) {
    /* fp8 below sm_89 with m or n == 0: nothing to compute, so success or NOT_SUPPORTED. */
    g_st.empty++;
    g_st.fp8_refused++;
    check_untouched(idx, &c, "a refused fp8 call with m or n == 0");
    return 1;
  }
  if (st != TCJ_SUCCESS) {
    report(idx, &c, "refused a valid call: %s: %s", tcj_status_string(st), msg ? msg : "");
    return 1;
  }
  if (kind == KIND_EMPTY) {
    g_st.empty++;
    check_untouched(idx, &c, "a call with m or n == 0");
    return 1;
  }
  g_st.computed++;
  int ci = (int)(L.cb - COMBOS);
  g_st.per_combo[ci]++;
  if (L.k == 0) g_st.per_combo_k0[ci]++;
  if (L.m <= 32) g_st.small_m++;
  if (L.ld_free) g_st.ld_free++;
  if (beta == 0) g_st.beta_zero++;
  for (int b = 0; b < NBUF; b++) {
    if (L.rows[b] == 0 || L.cols[b] == 0) continue;
    g_st.nonempty[b]++;
    g_st.at_min[b] += L.ld[b] == L.cols[b];
    g_st.tail_exact[b] += L.gap[b] == 0;
    g_st.ptr_below16[b] += L.ptr[b] % 16 != 0;
  }
  check_valid(idx, &c, &L);
  return 1;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

static void print_summary(double secs) {
  tcj_stats ks = TCJ_STATS_INIT;
  tcj_get_stats(g_eng, &ks);
  printf("  %d calls in %.1f s: %d valid (%d computed, %d with m or n == 0), %d invalid; %d failed\n", g_st.calls,
         secs, g_st.valid, g_st.computed, g_st.empty, g_st.invalid, g_st.failed);
  printf("  kernels: %llu compiled (%.1f s), %llu loaded from the disk cache, %llu calls served from memory; "
         "pool of %d classes\n", (unsigned long long)ks.compiles, (double)ks.compile_ns * 1e-9,
         (unsigned long long)ks.disk_hits, (unsigned long long)ks.memory_hits, g_pool_size);
  printf("  worst |error| / bound per dtype combination (valid computed calls; a,b: A's and B's types):\n");
  for (int i = 0; i < NCOMBO; i++) {
    if (is_fp8(COMBOS[i].a) && !g_fp8) {
      printf("    %-15s %4d calls refused with TCJ_ERROR_NOT_SUPPORTED (fp8 needs sm_89; this GPU is sm_%d%d)\n",
             COMBOS[i].name, g_st.per_combo_refused[i], g_cc_major, g_cc_minor);
      continue;
    }
    printf("    %-15s %4d calls (%3d with k == 0)  worst %.3g%s\n", COMBOS[i].name, g_st.per_combo[i],
           g_st.per_combo_k0[i], g_st.worst[i],
           COMBOS[i].c == TCJ_S32 ? " (exact match required)"
           : is_fp8(COMBOS[i].a) ? " (bound with the fp8 tensor-core term)" : "");
  }
  if (!g_fp8) printf("  fp8 calls refused below sm_89 (pool, mutated and empty): %d\n", g_st.fp8_refused);
  printf("  tf32 rounding of f32 data: %d calls on tf32-exact inputs; on full f32 inputs, %d fit only "
         "round-to-nearest, %d only truncation, %d both\n", g_st.tf32_exact, g_st.tf32_nearest, g_st.tf32_trunc,
         g_st.tf32_both);
  printf("  invalid calls by mutation:");
  for (int i = 0; i < MUT_COUNT; i++) printf("%s %s %d", i ? "," : "", MUT_NAMES[i], g_st.mutations[i]);
  printf("\n  statuses returned:");
  for (int i = 0; i < (int)(sizeof g_st.status / sizeof g_st.status[0]); i++)
    if (g_st.status[i]) printf(" %s %d;", tcj_status_string((tcj_status)i), g_st.status[i]);
  printf("\n  computed calls: m <= 32 %d, beta == 0 %d (C NaN), NULL stream %d (all calls), free ld %d\n", g_st.small_m,
         g_st.beta_zero, g_st.null_stream, g_st.ld_free);
  for (int b = 0; b < NBUF; b++)
    printf("  operand %c (non-empty %d): ld == minimum %d, last byte on the last mapped byte %d, pointer "
           "below 16-byte alignment %d\n", BUF_NAMES[b], g_st.nonempty[b], g_st.at_min[b], g_st.tail_exact[b],
           g_st.ptr_below16[b]);
}

static void random_calls_follow_the_contract(void **state) {
  (void)state;
  memset(&g_st, 0, sizeof g_st);
  for (int i = 0; i < NCOMBO; i++) g_st.worst_call[i] = -1;
  make_pool(g_seed);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int lost = 0;
  for (int i = 0; i < g_calls; i++) {
    if (!one_call(i)) {
      lost = 1;
      printf("  stopping: the CUDA context is unusable after call %d\n", i);
      break;
    }
    if ((i + 1) % 1000 == 0) {
      printf("  ... %d calls, %.1f s\n", i + 1, seconds_since(&t0));
      fflush(stdout);
    }
  }
  print_summary(seconds_since(&t0));
  free(g_pool);
  g_pool = NULL;
  if (lost || g_st.failed)
    fail_msg("%d of %d calls broke the contract%s (seed 0x%llx: TCJ_TEST_SEED=0x%llx reproduces the run)", g_st.failed,
             g_st.calls, lost ? ", and the CUDA context was lost" : "", (unsigned long long)g_seed,
             (unsigned long long)g_seed);
}

/* ---- setup ------------------------------------------------------------------------------- */

static int group_setup(void **state) {
  (void)state;
  if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (!vmm_load(&g_vmm)) return -1;
  /* The largest operand: MAX_DIM rows of MAX_DIM + slack elements of 4 bytes. */
  size_t want = (size_t)MAX_DIM * (MAX_DIM + 96) * 4 + 4096;
  for (int b = 0; b < NBUF; b++)
    if (!tail_buf_create(&g_vmm, g_device, &g_buf[b], want)) return -1;
  size_t n = (size_t)MAX_DIM * MAX_DIM;
  for (int i = 0; i < 3; i++) {
    g_a[i] = malloc(n * sizeof(double));
    g_bt[i] = malloc(n * sizeof(double));
    if (!g_a[i] || !g_bt[i]) return -1;
  }
  g_cin = malloc(n * sizeof(double));
  g_got = malloc(n * sizeof(double));
  return g_cin && g_got ? 0 : -1;
}

static int group_teardown(void **state) {
  (void)state;
  cudaDeviceSynchronize();
  for (int b = 0; b < NBUF; b++) tail_buf_destroy(&g_vmm, &g_buf[b]);
  for (int i = 0; i < 3; i++) {
    free(g_a[i]);
    free(g_bt[i]);
  }
  free(g_cin);
  free(g_got);
  if (g_stream) cudaStreamDestroy(g_stream);
  return 0;
}

int main(void) {
  /* A fresh seed per run unless TCJ_TEST_SEED names one (gpu_test_start reads it). */
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  g_seed = rng_mix64((uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec) ^ (uint64_t)getpid();
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("API fuzz calls", &g_eng, &g_seed, &prop); /* kernel cache: $TCJ_CACHE_DIR */
  if (rc != GPU_START_GO_ON) return rc;
  cudaGetDevice(&g_device);
  const char *env = getenv("TCJ_TEST_FUZZ_CALLS");
  if (env && atoi(env) > 0) g_calls = atoi(env);
  g_cc_major = prop.major;
  g_cc_minor = prop.minor;
  g_fp8 = prop.major > 8 || (prop.major == 8 && prop.minor >= 9);
  const char *cache = getenv("TCJ_CACHE_DIR");
  printf("GPU: %s (sm_%d%d, %d SMs; fp8 calls %s); seed 0x%llx (TCJ_TEST_SEED), %d calls (TCJ_TEST_FUZZ_CALLS); "
         "kernel cache %s\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount,
         g_fp8 ? "computed" : "must return TCJ_ERROR_NOT_SUPPORTED", (unsigned long long)g_seed, g_calls,
         cache && *cache ? cache : "default (TCJ_CACHE_DIR unset)");
  fflush(stdout);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_calls_follow_the_contract),
  };
  int failures = cmocka_run_group_tests_name("api_fuzz_gpu", tests, group_setup, group_teardown);
  tcj_destroy(g_eng);
  return failures ? 1 : 0;
}
