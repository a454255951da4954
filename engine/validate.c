/* SPDX-License-Identifier: Apache-2.0 */
/* tcj_gemm argument validation. Order: types, ops, extents, leading dimensions, pointers,
 * alignment, limits, aliasing; the first failure is reported, naming the argument and what was needed. */
#include "engine/validate.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

#include "engine/error.h"

/* The element table numbers public dtypes as tcj.h does (ptxgen includes no tcj.h). */
_Static_assert(PTX_DT_F16 == (int)TCJ_F16 && PTX_DT_BF16 == (int)TCJ_BF16 && PTX_DT_F32 == (int)TCJ_F32 &&
               PTX_DT_TF32 == (int)TCJ_TF32 && PTX_DT_E4M3 == (int)TCJ_E4M3 && PTX_DT_E5M2 == (int)TCJ_E5M2 &&
               PTX_DT_S8 == (int)TCJ_S8 && PTX_DT_S32 == (int)TCJ_S32 && PTX_DT_F64 == (int)TCJ_F64 &&
               PTX_DT_COUNT == (int)TCJ_F64 + 1, "ptx_dtype is numbered as tcj_dtype");
#define DTYPE_COUNT PTX_DT_COUNT

const char *eng_dtype_name(tcj_dtype t) { return ptx_elem_name(ptx_elem_of_dtype((int)t)); }

const char *tcj_dtype_name(tcj_dtype t) {
  ptx_elem e = ptx_elem_of_dtype((int)t);
  return e != PTX_E_COUNT ? ptx_elem_name(e) : "unknown dtype";
}

/* The combinations the recipes implement (see tcj.h; the rows' operand, C and D types in
 * ptxgen/elem.c). fp8 operands take any pair of e4m3 and e5m2 (b_other: B is the other one);
 * their output may be fp8 only where it is a separate D (fp8_out), never a C that is read. */
static int map_types(tcj_dtype a, tcj_dtype b, tcj_dtype c, int fp8_out, ptx_elem *ab, int *b_other, ptx_elem *ce) {
  *ce = ptx_elem_of_dtype((int)c);
  return ptx_elem_combination(ptx_elem_of_dtype((int)a), ptx_elem_of_dtype((int)b), *ce, fp8_out, ab, b_other);
}

/* Largest power of two <= 16 dividing the address of every row start. */
static int row_alignment(const void *p, int64_t ld, int es) {
  uint64_t bits = (uint64_t)(uintptr_t)p | ((uint64_t)ld * (uint64_t)es) | 16;
  return (int)(bits & (~bits + 1));
}

/* A leading dimension this large would overflow row * ld * size in 64-bit address math. */
#define LD_MAX (INT64_C(1) << 48)

static tcj_status check_operand(const char *name, const char *ld_name, const void *p, int64_t rows,
                                int64_t cols, int64_t ld, int64_t ld_min, int es, int *align) {
  /* The contract's minimum exactly: an empty operand (n == 0, say) may have ld == 0. */
  int64_t need = ld_min;
  if (ld < need)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %" PRId64 " is below its minimum %" PRId64,
                         ld_name, ld, need);
  if (ld > LD_MAX)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "%s = %" PRId64 " exceeds 2^48", ld_name, ld);
  if (!p && rows > 0 && cols > 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is NULL but has %" PRId64 " x %" PRId64 " elements",
                         name, rows, cols);
  if ((uintptr_t)p % (uintptr_t)es)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %p is not aligned to its %d-byte element",
                         name, p, es);
  /* An empty operand (k == 0: A and B) is never read, so it narrows no copy: a K-grouped call
   * with no tokens passes A and B that end where their (no) data ends. */
  *align = rows > 0 && cols > 0 ? row_alignment(p, ld, es) : 16;
  return TCJ_SUCCESS;
}

/* The bytes from a matrix's first element to just past its last, saturating at 2^64. */
typedef struct span { uint64_t start, bytes; } span;

static span span_of(const void *p, int64_t rows, int64_t cols, int64_t ld, int es) {
  span s = {(uint64_t)(uintptr_t)p, UINT64_MAX};
  uint64_t last_row, elems;
  if (!__builtin_mul_overflow((uint64_t)(rows - 1), (uint64_t)ld, &last_row) &&
      !__builtin_add_overflow(last_row, (uint64_t)cols, &elems) && !__builtin_mul_overflow(elems, (uint64_t)es, &s.bytes))
    return s;
  s.bytes = UINT64_MAX;
  return s;
}

static int spans_overlap(span x, span y) {
  uint64_t x_end = x.start + x.bytes < x.start ? UINT64_MAX : x.start + x.bytes;
  uint64_t y_end = y.start + y.bytes < y.start ? UINT64_MAX : y.start + y.bytes;
  return x.start < y_end && y.start < x_end;
}

/* A matrix as it lies in memory: rows of cols elements, ld apart. A matrix the formulas index
 * rows x cols lies so when row-major, and transposed (cols x rows) when its op is T or the
 * caller's storage order is column-major (tcj_gemm_desc.order); both at once cancel. */
typedef struct stored { int64_t rows, cols; } stored;

static stored stored_as(int64_t rows, int64_t cols, int transposed) {
  return transposed ? (stored){cols, rows} : (stored){rows, cols};
}

/* The output operand's names in messages: C for tcj_gemm, D for tcj_gemm_ex with its own D. */
typedef struct out_names { const char *ptr, *ld, *type; } out_names;
static const out_names names_c = {"c", "ldc", "c_type"}, names_d = {"d", "ldd", "d_type"};

/* eng_validate's rules with the output operand named `on`, for operands stored column-major
 * (cm) or row-major. The problem is filled as the caller states it (A, B and m, n not swapped).
 * n_b: op(B)'s columns (n; 2n for SwiGLU, whose B holds the gate and the up half). a_rows: A's
 * rows where op_a is N (m; gathered rows: gather_a_rows); d_rows: the output's (m; scattered
 * rows: scatter_d_rows). b_array: B comes through a pointer
 * array (b NULL): only ldb is checked, and B's alignment is its row pitch's (each pointer is
 * aligned as b would be, tcj.h). */
static tcj_status validate_core(tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t n_b, int64_t k,
                                int64_t a_rows, int64_t d_rows, int b_array, const void *a, tcj_dtype a_type, int64_t lda,
                                const void *b, tcj_dtype b_type, int64_t ldb,
                                const void *c, tcj_dtype c_type, int64_t ldc, int cm, const out_names *on,
                                eng_problem *out) {
  memset(out, 0, sizeof *out);
  const tcj_dtype types[3] = {a_type, b_type, c_type};
  const char *const type_args[3] = {"a_type", "b_type", on->type};
  for (int i = 0; i < 3; i++)
    if ((unsigned)types[i] >= (unsigned)DTYPE_COUNT)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %d is not a tcj_dtype", type_args[i], (int)types[i]);
  if (!map_types(a_type, b_type, c_type, on == &names_d, &out->ab, &out->b_other, &out->c))
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "a=%s b=%s %s=%s is not supported (supported: f16|bf16 -> "
                         "f16|bf16|f32, tf32|f32 -> f32, f64 -> f64, s8 -> s32, e4m3|e5m2 -> f16|bf16|f32, and e4m3|e5m2 "
                         "into a separate D of tcj_gemm_ex)",
                         eng_dtype_name(a_type), eng_dtype_name(b_type), on->ptr, eng_dtype_name(c_type));
  if (op_a != TCJ_OP_N && op_a != TCJ_OP_T)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "op_a = %d is not TCJ_OP_N or TCJ_OP_T", (int)op_a);
  if (op_b != TCJ_OP_N && op_b != TCJ_OP_T)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "op_b = %d is not TCJ_OP_N or TCJ_OP_T", (int)op_b);
  const int64_t dims[3] = {m, n, k};
  static const char *const dim_names[3] = {"m", "n", "k"};
  for (int i = 0; i < 3; i++)
    if (dims[i] < 0)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %" PRId64 " is negative", dim_names[i], dims[i]);

  int es_ab = ptx_elem_size(out->ab), es_c = ptx_elem_size(out->c);
  int ta = op_a == TCJ_OP_T, tb = op_b == TCJ_OP_T;
  /* Stored shapes (row-major): A is m x k (N) or k x m (T); B is k x n (N) or n x k (T); C is
   * m x n. Column-major transposes each: cuBLAS's lda >= m for A N, ldc >= m. A row's length is
   * the leading dimension's minimum. */
  stored sa = stored_as(ta ^ cm ? m : a_rows, k, ta ^ cm), sb = stored_as(k, n_b, tb ^ cm), sc = stored_as(d_rows, n, cm);
  tcj_status st = check_operand("a", "lda", a, sa.rows, sa.cols, lda, sa.cols, es_ab, &out->align_a);
  if (st == TCJ_SUCCESS)
    st = check_operand("b", "ldb", b, b_array ? 0 : sb.rows, sb.cols, ldb, sb.cols, es_ab, &out->align_b);
  if (st == TCJ_SUCCESS) st = check_operand(on->ptr, on->ld, c, sc.rows, sc.cols, ldc, sc.cols, es_c, &out->align_c);
  if (st != TCJ_SUCCESS) return st;
  if (b_array && sb.rows > 0 && sb.cols > 0) out->align_b = row_alignment(NULL, ldb, es_ab);

  /* The kernel does its index arithmetic in 32 bits, signed where it clips edges (M is a
   * runtime argument; N and K are baked in). */
  for (int i = 0; i < 3; i++)
    if (dims[i] > INT32_MAX)
      return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "%s = %" PRId64 " exceeds 2^31 - 1", dim_names[i], dims[i]);
  /* C is written while A and B are read, by many CTAs in no order: a shared byte gives a
   * result that depends on timing. Spans (first to last element) are compared, so an
   * interleaving that shares no element is refused too; the header says so. */
  if (m > 0 && n > 0 && k > 0) {
    span xc = span_of(c, sc.rows, sc.cols, ldc, es_c);
    span xa = span_of(a, sa.rows, sa.cols, lda, es_ab), xb = span_of(b, sb.rows, sb.cols, ldb, es_ab);
    const char *with = spans_overlap(xc, xa) ? "a" : !b_array && spans_overlap(xc, xb) ? "b" : NULL;
    if (with)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s overlaps %s: %s's bytes [%p, +%" PRIu64 ") and %s's [%p, +%" PRIu64
                           ") share memory; %s must not alias an operand",
                           on->ptr, with, on->ptr, c, xc.bytes, with, with[0] == 'a' ? a : b,
                           with[0] == 'a' ? xa.bytes : xb.bytes, on->ptr);
  }
  out->op_a_t = ta;
  out->op_b_t = tb;
  out->m = m;
  out->n = n;
  out->k = k;
  out->lda = lda;
  out->ldb = ldb;
  out->ldc = ldc;
  /* tcj_gemm's D is C, read only when beta says so (the caller sets reads_c). */
  out->d = out->c;
  out->ldd = ldc;
  out->bias = PTX_BIAS_NONE;
  out->bias_t = PTX_E_F32;
  out->act = PTX_ACT_NONE;
  out->batch = 1;
  return TCJ_SUCCESS;
}

tcj_status eng_validate(tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                        const void *a, tcj_dtype a_type, int64_t lda,
                        const void *b, tcj_dtype b_type, int64_t ldb,
                        const void *c, tcj_dtype c_type, int64_t ldc, eng_problem *out) {
  tcj_status st = validate_core(op_a, op_b, m, n, n, k, m, m, 0, a, a_type, lda, b, b_type, ldb, c, c_type, ldc, 0, &names_c,
                                out);
  out->reads_c = 1;
  return st;
}

/* ---- tcj_gemm_ex ---------------------------------------------------------------------------- */

/* The bytes every entry of a batch reaches: from the first entry's first element to the last
 * entry's last, saturating. */
static span span_batch(const void *p, int64_t rows, int64_t cols, int64_t ld, int es, int64_t batch, int64_t stride) {
  span s = span_of(p, rows, cols, ld, es);
  uint64_t extra;
  if (s.bytes == UINT64_MAX) return s;
  if (__builtin_mul_overflow((uint64_t)(batch - 1), (uint64_t)stride * (uint64_t)es, &extra) ||
      __builtin_add_overflow(s.bytes, extra, &s.bytes) || (uint64_t)stride > UINT64_MAX / (uint64_t)es)
    s.bytes = UINT64_MAX;
  return s;
}

/* sum_{i=0}^{n-1} floor((a i + b) / m), m > 0: the Euclid-like reduction of AtCoder Library's
 * floor_sum, O(log m) steps. In 128 bits: here n < 2^31, a, b < m <= 2^48 at the first step and
 * the sum stays below 2^63. */
typedef unsigned __int128 u128;
static u128 floor_sum(u128 n, u128 m, u128 a, u128 b) {
  u128 sum = 0;
  for (;;) {
    if (a >= m) {
      sum += n * (n - 1) / 2 * (a / m);
      a %= m;
    }
    if (b >= m) {
      sum += n * (b / m);
      b %= m;
    }
    u128 y_max = a * n + b;
    if (y_max < m) return sum;
    n = y_max / m;
    b = y_max % m;
    u128 t = m;
    m = a;
    a = t;
  }
}

/* Whether two entries of a batch share an element: entry z holds the element offsets
 * z * stride + i * ld + j (0 <= i < rows, 0 <= j < cols, cols <= ld), the interleaved layouts
 * included (heads of an attention layer side by side in one row, stride < ld), which share none.
 *
 * Entries z and z + d share one exactly when d * stride is a difference of two offsets of one
 * entry, i * ld + t with |i| < rows and |t| < cols. For x = d * stride > 0 that holds exactly when
 *   x <= (rows - 1) ld + cols - 1  and  x mod ld lies within cols - 1 of a multiple of ld
 * (x = i ld + t: i >= 0 as x > 0 and |t| < cols <= ld; conversely x mod ld <= cols - 1 gives
 * i = floor(x / ld) <= rows - 1 by the bound, and ld - x mod ld <= cols - 1 gives
 * i = floor(x / ld) + 1, which is <= rows - 1 because x mod ld > cols - 1 and the bound keep
 * floor(x / ld) below rows - 1). x grows with d, so d runs from 1 to
 *   N = min(batch - 1, floor(((rows - 1) ld + cols - 1) / stride))
 * and the second condition is (d stride + cols - 1) mod ld < 2 cols - 1. The number of such d is
 * a difference of two floor sums (y mod ld < w  <=>  floor(y / ld) - floor((y - w) / ld) = 1):
 *   sum_d floor((d s + cols - 1) / ld) - sum_d floor((d s + ld - cols) / ld) + N
 * with s = stride mod ld (whole multiples of ld cancel). O(log ld), any batch count. */
int eng_batch_entries_overlap(int64_t rows, int64_t cols, int64_t ld, int64_t batch, int64_t stride) {
  if (batch < 2 || rows <= 0 || cols <= 0) return 0;
  if (stride == 0) return 1;
  assert(ld >= cols && stride > 0);
  u128 reach = (u128)(rows - 1) * (u128)ld + (u128)(cols - 1), n = reach / (u128)stride;
  if (n > (u128)(batch - 1)) n = (u128)(batch - 1);
  if (n == 0) return 0;
  if (2 * (u128)cols - 1 >= (u128)ld) return 1; /* every residue lies within cols - 1 of 0 */
  u128 m = (u128)ld, s = (u128)stride % m;
  /* d = i + 1 for i = 0 .. n - 1: d s + b = i s + (s + b). */
  u128 near = floor_sum(n, m, s, s + (u128)(cols - 1)), far = floor_sum(n, m, s, s + m - (u128)cols);
  return near + n - far > 0;
}

/* The field at offset `from` of a descriptor the caller's size says it has: nonzero bytes past
 * what this library knows are a request it cannot honour. */
static tcj_status check_unknown_tail(const tcj_gemm_desc *d) {
  const unsigned char *bytes = (const unsigned char *)d;
  for (size_t i = sizeof *d; i < d->struct_size; i++)
    if (bytes[i])
      return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "desc->struct_size = %zu: byte %zu is set, past the %zu bytes of "
                           "tcj_gemm_desc this library (%d.%d.%d) knows; update libtcj",
                           d->struct_size, i, sizeof *d, TCJ_VERSION_MAJOR, TCJ_VERSION_MINOR, TCJ_VERSION_PATCH);
  return TCJ_SUCCESS;
}

static void fold_stride_alignment(int *align, int64_t stride, int es) {
  uint64_t bits = (uint64_t)stride * (uint64_t)es;
  if (!bits) return; /* broadcast: one entry */
  bits &= ~bits + 1;
  if (bits < (uint64_t)*align) *align = (int)bits;
}

static int bias_type_ok(tcj_dtype t, ptx_elem *out) {
  *out = ptx_elem_of_dtype((int)t);
  return *out != PTX_E_COUNT && ptx_elem_row_of(*out)->bias;
}

/* x == m * ld exactly: ld may be 2^48 with m up to 2^31 (k == 0 allows any lda), past int64. */
static int is_rows_apart(int64_t x, int64_t m, int64_t ld) {
  int64_t prod;
  return !__builtin_mul_overflow(m, ld, &prod) && x == prod;
}

/* One weight for many inputs (stride_b 0) whose entries of A, C and D lie one under another is
 * one GEMM of batch * m rows, which runs as a plain kernel (TMA stores, no batch index).
 * Measured on an H100 (tcj-prof, bf16 8 x 256x4096x4096, B broadcast): see docs/perf.md. Not
 * with a user epilogue, which sees each entry's own row and batch index. */
static void fold_batch_into_rows(eng_problem *p) {
  if (p->batch < 2 || p->stride_b != 0 || p->user || p->op_a_t) return;
  if (!is_rows_apart(p->stride_a, p->m, p->lda) || !is_rows_apart(p->stride_d, p->m, p->ldd)) return;
  if (p->reads_c && !is_rows_apart(p->stride_c, p->m, p->ldc)) return;
  if (p->bias == PTX_BIAS_COL && p->stride_bias != 0) return;
  if (p->bias == PTX_BIAS_ROW && p->stride_bias != p->m) return;
  if (p->m * p->batch > INT32_MAX) return;
  p->m *= p->batch;
  p->batch = 1;
  p->stride_a = p->stride_c = p->stride_d = p->stride_bias = 0;
}

/* The stored shapes of a descriptor's matrices as the caller gives them (tcj.h, order). */
static int col_major(const tcj_gemm_desc *g) { return g->order == TCJ_ORDER_COL_MAJOR; }
/* A's rows (op_a N): m, or gather_a_rows when its rows are gathered. */
static int64_t desc_a_rows(const tcj_gemm_desc *g) { return g->gather_a ? g->gather_a_rows : g->m; }
static stored desc_a(const tcj_gemm_desc *g) { return stored_as(desc_a_rows(g), g->k, (g->op_a == TCJ_OP_T) ^ col_major(g)); }
/* op(B)'s columns: n, or 2n for SwiGLU (the gate and the up half). */
static int64_t desc_b_cols(const tcj_gemm_desc *g) { return g->activation == TCJ_ACT_SWIGLU ? 2 * g->n : g->n; }
static stored desc_b(const tcj_gemm_desc *g) { return stored_as(g->k, desc_b_cols(g), (g->op_b == TCJ_OP_T) ^ col_major(g)); }
/* D's rows: m, or scatter_d_rows when the rows go to D through indices. C's are m (a scattered
 * call reads no C). */
static int64_t desc_d_rows(const tcj_gemm_desc *g) { return g->scatter_d ? g->scatter_d_rows : g->m; }
static stored desc_cd(const tcj_gemm_desc *g) { return stored_as(desc_d_rows(g), g->n, col_major(g)); }

/* The fp8 fields (tcj.h): only fp8 operands take them; block scales need both arrays, the
 * promoted accumulation and one GEMM (or groups); row scales one GEMM (or groups); a group stride
 * of B's scales needs groups; the D scale needs an fp8 D. */
static tcj_status validate_fp8(const tcj_gemm_desc *g, eng_problem *out, const void *d, int64_t ldd, int es_d) {
  int any = g->scale_mode != TCJ_SCALE_TENSOR || g->scale_a || g->scale_b || g->scale_d || g->amax_d || g->fast_accum ||
            g->stride_scale_b;
  if (!ptx_elem_is_fp8(out->ab)) {
    if (any)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is set but the operands are %s: scales, amax_d and fast_accum "
                           "are for e4m3/e5m2 operands",
                           g->scale_mode != TCJ_SCALE_TENSOR ? "scale_mode" : g->scale_a ? "scale_a" : g->scale_b ? "scale_b"
                           : g->scale_d ? "scale_d" : g->amax_d ? "amax_d" : g->stride_scale_b ? "stride_scale_b"
                           : "fast_accum",
                           eng_dtype_name(g->a_type));
    return TCJ_SUCCESS;
  }
  if ((unsigned)g->scale_mode > TCJ_SCALE_ROW)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scale_mode = %d is not a tcj_scale_mode", (int)g->scale_mode);
  if (g->fast_accum != 0 && g->fast_accum != 1)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "fast_accum = %d is not 0 or 1", g->fast_accum);
  if (g->stride_scale_b < 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "stride_scale_b = %" PRId64 " is negative (0: one scale_b for every "
                         "group)", g->stride_scale_b);
  if (g->stride_scale_b && !out->grouped)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "stride_scale_b = %" PRId64 " without group_mode: it steps the B "
                         "scales of a grouped call's groups", g->stride_scale_b);
  const void *ptrs[4] = {g->scale_a, g->scale_b, g->scale_d, g->amax_d};
  static const char *const names[4] = {"scale_a", "scale_b", "scale_d", "amax_d"};
  for (int i = 0; i < 4; i++)
    if ((uintptr_t)ptrs[i] % 4)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %p is not 4-byte aligned", names[i], ptrs[i]);
  if (g->scale_d && !ptx_elem_is_fp8(out->d))
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scale_d is set but D is %s: the D scale applies to an fp8 D only",
                         ptx_elem_name(out->d));
  int block = g->scale_mode == TCJ_SCALE_BLOCK, row = g->scale_mode == TCJ_SCALE_ROW;
  if ((block || row) && out->batch > 1)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "%s scales with batch_count = %" PRId64 ": not supported (one GEMM per "
                         "call)", block ? "block" : "row", out->batch);
  /* The groups' entries: B's scales step by stride_scale_b; A's rows are those of D (all m of
   * contiguous groups, G entries of m when masked). */
  int64_t groups = out->grouped && out->groups > 1 ? out->groups : 1;
  int64_t entries = out->grouped && out->groups > 1 ? out->groups : out->batch;
  int64_t a_rows = g->m * (out->grouped == PTX_GROUP_MASKED ? groups : 1);
  int64_t m = g->m, n = g->n, k = g->k, kb = (k + 127) / 128, nb = (n + 127) / 128, step = g->stride_scale_b;
  if (block && step && step < nb * kb)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "stride_scale_b = %" PRId64 " is below one group's %" PRId64 " x %" PRId64
                         " block scales of B (ceil(n / 128) x ceil(k / 128))", step, nb, kb);
  /* What each mode reads of the scale arrays. */
  span sa = block ? span_of(g->scale_a, a_rows, kb, kb, 4) : span_of(g->scale_a, 1, row ? a_rows : 1, 1, 4);
  span sb = block ? span_batch(g->scale_b, nb, kb, kb, 4, groups, step)
                  : span_batch(g->scale_b, 1, row ? n : 1, 1, 4, groups, step);
  int reads = m > 0 && n > 0 && (!block || kb > 0) && (!row || a_rows > 0);
  stored shape_a = desc_a(g), shape_b = desc_b(g), shape_d = desc_cd(g);
  span sd = span_batch(d, shape_d.rows, shape_d.cols, ldd, es_d, entries, out->stride_d);
  /* Scales are read by every tile while others write D. */
  if (!block) {
    const void *read[3] = {g->scale_a, g->scale_b, g->scale_d};
    span spans[3] = {sa, sb, span_of(g->scale_d, 1, 1, 1, 4)};
    static const char *const read_names[3] = {"scale_a", "scale_b", "scale_d"};
    for (int i = 0; i < 3; i++)
      if (read[i] && reads && spans_overlap(spans[i], sd))
        return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s overlaps D", read_names[i]);
  } else if (g->scale_d && m > 0 && n > 0 && spans_overlap(span_of(g->scale_d, 1, 1, 1, 4), sd)) {
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scale_d overlaps D");
  }
  /* amax_d is zeroed before the kernels run: it must not hold anything they read. */
  if (g->amax_d) {
    span sm = span_of(g->amax_d, 1, 1, 1, 4);
    int es_ab = ptx_elem_size(out->ab);
    const char *with = NULL;
    if (m > 0 && n > 0 && spans_overlap(sm, sd)) with = "D";
    else if (m > 0 && k > 0 &&
             spans_overlap(sm, span_batch(g->a, shape_a.rows, shape_a.cols, g->lda, es_ab, entries, g->stride_a)))
      with = "a";
    else if (n > 0 && k > 0 && g->b &&
             spans_overlap(sm, span_batch(g->b, shape_b.rows, shape_b.cols, g->ldb, es_ab, entries, g->stride_b)))
      with = "b";
    else if (out->reads_c && g->c && m > 0 && n > 0 &&
             spans_overlap(sm, span_batch(g->c, shape_d.rows, shape_d.cols, g->ldc, ptx_elem_size(out->c), entries,
                                          g->stride_c)))
      with = "c";
    else if (g->bias && spans_overlap(sm, span_batch(g->bias, 1, g->bias_kind == TCJ_BIAS_ROW ? m : n,
                                                     g->bias_kind == TCJ_BIAS_ROW ? m : n, ptx_elem_size(out->bias_t),
                                                     entries, g->stride_bias)))
      with = "bias";
    else if ((g->alpha_ptr && spans_overlap(sm, span_of(g->alpha_ptr, 1, 1, 1, 4))) ||
             (g->beta_ptr && spans_overlap(sm, span_of(g->beta_ptr, 1, 1, 1, 4))))
      with = "alpha_ptr or beta_ptr";
    else if (g->scale_d && spans_overlap(sm, span_of(g->scale_d, 1, 1, 1, 4)))
      with = "scale_d";
    else if (!block && reads && ((g->scale_a && spans_overlap(sm, sa)) || (g->scale_b && spans_overlap(sm, sb))))
      with = "scale_a or scale_b";
    else if (block && reads && ((g->scale_a && spans_overlap(sm, sa)) || (g->scale_b && spans_overlap(sm, sb))))
      with = "a block-scale array";
    if (with)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "amax_d overlaps %s: it is zeroed before the GEMM reads its inputs",
                           with);
  }
  if (block) {
    if (col_major(g))
      return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "scale_mode TCJ_SCALE_BLOCK with order TCJ_ORDER_COL_MAJOR: block "
                           "scales are per row of A and per 128 x 128 block of B, which the column-major swap "
                           "(D^T = op(B)^T op(A)^T) does not preserve; pass the operands row-major");
    if (!g->scale_a || !g->scale_b)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scale_mode is TCJ_SCALE_BLOCK but %s is NULL: block scales need both "
                           "arrays", g->scale_a ? "scale_b" : "scale_a");
    if (g->fast_accum)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "fast_accum with TCJ_SCALE_BLOCK: block scales are applied where "
                           "the partial sums are promoted, which fast accumulation skips");
    if (reads && (spans_overlap(sa, sd) || spans_overlap(sb, sd)))
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "a block-scale array overlaps D");
    /* k == 0 has no partial sums to scale (D = beta * C + ...): a plain kernel, which sm_90a's
     * sm90 recipe would not run (it needs k >= 1). */
    out->block_scale = k > 0;
  }
  /* Row scales: scale_a per row of D, scale_b per column. A column-major call's D^T takes
   * them swapped, as the engine swaps the pointers with A and B (eng_desc_swaps_ab). */
  out->scale_row = row;
  out->stride_scale_b = step;
  out->fast_accum = g->fast_accum;
  return TCJ_SUCCESS;
}

/* row_scale (tcj.h): m floats per entry (G entries of m for masked groups, a batch's entries
 * likewise), read while D is written; not for column-major calls (their D^T would need a
 * column scale) nor for operand types without a fused epilogue (f64). */
static tcj_status validate_row_scale(const tcj_gemm_desc *g, eng_problem *out, const void *d, int64_t ldd, int es_d,
                                     int64_t entries) {
  if (!g->row_scale) return TCJ_SUCCESS;
  if ((uintptr_t)g->row_scale % 4)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "row_scale = %p is not 4-byte aligned", (const void *)g->row_scale);
  if (col_major(g))
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "row_scale with order TCJ_ORDER_COL_MAJOR: tcj runs the row-major "
                         "D^T, whose rows are the caller's columns; pass the operands row-major");
  if (ptx_elem_check_epilogue(out->ab, 1, PTX_ACT_NONE, 0) != PTX_EPI_OK)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "row_scale with %s operands: %s", ptx_elem_name(out->ab),
                         ptx_elem_row_of(out->ab)->epi_rule ? ptx_elem_row_of(out->ab)->epi_rule
                                                            : "the type takes no fused epilogue");
  int64_t per_entry = out->grouped == PTX_GROUP_ENDS32 || out->grouped == PTX_GROUP_ENDS64 ? 1 : entries;
  stored shape_d = desc_cd(g);
  if (g->m > 0 && g->n > 0 &&
      spans_overlap(span_of(g->row_scale, 1, g->m * per_entry, 1, 4),
                    span_batch(d, shape_d.rows, shape_d.cols, ldd, es_d, entries, out->stride_d)))
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "row_scale overlaps D: it is read while D is written");
  if (g->amax_d && spans_overlap(span_of(g->amax_d, 1, 1, 1, 4), span_of(g->row_scale, 1, g->m * per_entry, 1, 4)))
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "amax_d overlaps row_scale: it is zeroed before the GEMM reads its "
                         "inputs");
  out->row_scale = 1;
  return TCJ_SUCCESS;
}

/* The compute mode (tcj.h, tcj_compute): whether fp32 operands are split into 3xTF32 parts. A
 * k == 0 call has no products: a plain kernel scales C. */
static tcj_status validate_compute(const tcj_gemm_desc *g, eng_problem *out) {
  static const char *const names[] = {"TCJ_COMPUTE_DEFAULT", "TCJ_COMPUTE_32F", "TCJ_COMPUTE_32F_3XTF32",
                                      "TCJ_COMPUTE_32F_FAST_TF32"};
  if ((unsigned)g->compute >= sizeof names / sizeof *names)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "compute = %d is not a tcj_compute", (int)g->compute);
  int f32 = out->ab == PTX_E_TF32, x3 = 0;
  switch (g->compute) {
  case TCJ_COMPUTE_DEFAULT: x3 = f32 && g->a_type == TCJ_F32 && g->b_type == TCJ_F32; break;
  case TCJ_COMPUTE_32F: x3 = f32; break;
  case TCJ_COMPUTE_32F_3XTF32: x3 = 1; break;
  case TCJ_COMPUTE_32F_FAST_TF32: break;
  }
  int fits = g->compute == TCJ_COMPUTE_DEFAULT || f32 ||
             (g->compute == TCJ_COMPUTE_32F && out->ab != PTX_E_S8 && out->ab != PTX_E_F64);
  if (!fits)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "compute = %s with %s operands: %s", names[g->compute],
                         eng_dtype_name(g->a_type),
                         g->compute == TCJ_COMPUTE_32F ? "s8 and f64 have their own accumulation (leave compute 0)"
                                                       : "3xTF32 and fast tf32 are modes of f32 (or tf32) operands");
  if (!x3 || g->k == 0) return TCJ_SUCCESS;
  /* K' = 3 kp is baked into the kernel as a 32-bit count. */
  if (g->k > (INT32_MAX / 3) - 31)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "k = %" PRId64 " with fp32 accuracy (3xTF32): k is at most %d",
                         g->k, INT32_MAX / 3 - 31);
  eng_problem_split3(out);
  return TCJ_SUCCESS;
}

/* The scalar pair the operands do not read (tcj.h, fp64 operands) must be at TCJ_GEMM_DESC_INIT's
 * values: anything else was meant for the other pair. A 0 alpha there is the mark of a
 * descriptor zeroed instead of initialised, whose read alpha may be a 0 nobody set. */
static tcj_status check_unread_scalars(const tcj_gemm_desc *g, int f64) {
  double alpha = f64 ? g->alpha : g->alpha_f64, beta = f64 ? g->beta : g->beta_f64;
  const char *alpha_name = f64 ? "alpha" : "alpha_f64", *beta_name = f64 ? "beta" : "beta_f64";
  const char *used = f64 ? "alpha_f64 and beta_f64 (double)" : "alpha and beta (float)";
  if (alpha == 0.0 && beta == 0.0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = 0 with %s operands, which take %s: %s is 1 in a descriptor "
                         "started from TCJ_GEMM_DESC_INIT or tcj_gemm_desc_init(); a zeroed one has an alpha of 0 "
                         "nobody set. Start from either",
                         alpha_name, eng_dtype_name(g->a_type), used, alpha_name);
  if (alpha != 1.0 || beta != 0.0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %g with %s operands, which take %s: leave %s at "
                         "TCJ_GEMM_DESC_INIT's %d", alpha != 1.0 ? alpha_name : beta_name, alpha != 1.0 ? alpha : beta,
                         eng_dtype_name(g->a_type), used, alpha != 1.0 ? alpha_name : beta_name, alpha != 1.0 ? 1 : 0);
  return TCJ_SUCCESS;
}

/* A column-major caller's problem as the row-major one tcj runs (tcj.h, order): C = op(A) op(B)
 * column-major is C^T = op(B)^T op(A)^T row-major over the same memory, so A and B trade places
 * with everything that is theirs (type, ld, alignment, stride; ops unchanged), m and n trade,
 * and a per-column bias becomes a per-row one. A user epilogue is told (user_t) to swap the
 * row and column it is given back. The caller swaps the pointers (eng_desc_swaps_ab). */
static void swap_to_row_major(eng_problem *p) {
  int64_t t64;
  int t;
#define SWAP(tmp, x, y) (tmp = (x), (x) = (y), (y) = tmp)
  SWAP(t64, p->m, p->n);
  SWAP(t, p->op_a_t, p->op_b_t);
  SWAP(t64, p->lda, p->ldb);
  SWAP(t, p->align_a, p->align_b);
  SWAP(t64, p->stride_a, p->stride_b);
#undef SWAP
  if (p->b_other) p->ab = p->ab == PTX_E_E4M3 ? PTX_E_E5M2 : PTX_E_E4M3; /* A's type is B's */
  if (p->bias != PTX_BIAS_NONE) p->bias = p->bias == PTX_BIAS_COL ? PTX_BIAS_ROW : PTX_BIAS_COL;
  p->user_t = p->user != 0;
}

/* ---- grouped GEMM (tcj.h, group_mode) ------------------------------------------------------ */

static const char *group_mode_name(tcj_group_mode m) {
  return m == TCJ_GROUP_M_CONTIGUOUS   ? "TCJ_GROUP_M_CONTIGUOUS"
         : m == TCJ_GROUP_M_MASKED     ? "TCJ_GROUP_M_MASKED"
         : m == TCJ_GROUP_K_CONTIGUOUS ? "TCJ_GROUP_K_CONTIGUOUS"
                                       : "TCJ_GROUP_NONE";
}

/* scatter_d by itself and with the fields it rules out (tcj.h): both fields together, at
 * least one row, contiguous groups, a row-major D and no C; adds (TCJ_SCATTER_ADD) go by f32
 * atomics, so no amax either. D's type is checked once mapped (at the end of tcj_gemm_ex's
 * validation). */
static tcj_status check_scatter(const tcj_gemm_desc *g) {
  if (!g->scatter_d != !g->scatter_d_rows)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is set without %s: scattered rows need both",
                         g->scatter_d ? "scatter_d" : "scatter_d_rows",
                         g->scatter_d ? "scatter_d_rows" : "scatter_d");
  if ((unsigned)g->scatter_mode > TCJ_SCATTER_ADD)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scatter_mode = %d is not a tcj_scatter_mode", (int)g->scatter_mode);
  if (g->scatter_mode != TCJ_SCATTER_STORE && !g->scatter_d)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scatter_mode is TCJ_SCATTER_ADD but scatter_d is NULL: it says what "
                         "to do with scattered rows");
  if (!g->scatter_d) return TCJ_SUCCESS;
  if (g->scatter_d_rows < 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scatter_d_rows = %" PRId64 " is negative", g->scatter_d_rows);
  if (g->scatter_d_rows > INT32_MAX)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "scatter_d_rows = %" PRId64 " exceeds 2^31 - 1 (the indices are int32)",
                         g->scatter_d_rows);
  if ((uintptr_t)g->scatter_d % 4)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scatter_d = %p is not aligned to its 4-byte indices",
                         (const void *)g->scatter_d);
  if (g->group_mode != TCJ_GROUP_M_CONTIGUOUS)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "scatter_d with group_mode %s: scattered rows take "
                         "TCJ_GROUP_M_CONTIGUOUS only", group_mode_name(g->group_mode));
  const char *why = g->order == TCJ_ORDER_COL_MAJOR ? "order TCJ_ORDER_COL_MAJOR (D's rows are scattered: row-major only)"
                    : g->beta_ptr ? "beta_ptr (C is not read: leave it NULL)"
                    : g->beta != 0.0f ? "beta != 0 (C is not read)"
                    : g->amax_d && g->scatter_mode == TCJ_SCATTER_ADD ? "TCJ_SCATTER_ADD and amax_d (the values added are not D's)"
                    : NULL;
  if (why) return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "scatter_d with %s", why);
  return TCJ_SUCCESS;
}

/* group_b_ptrs and gather_a by themselves and with the group fields (tcj.h): B by pointers needs
 * M groups (K groups refuse it in check_group_fields), b NULL and no B stride; gathered rows need
 * contiguous groups over A op N, both fields together and at least one row. */
static tcj_status check_operand_arrays(const tcj_gemm_desc *g) {
  if ((unsigned)g->group_mode > TCJ_GROUP_K_CONTIGUOUS) return TCJ_SUCCESS; /* check_group_fields says so */
  if (g->group_b_ptrs) {
    if (g->group_mode == TCJ_GROUP_NONE)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_b_ptrs is set but group_mode is TCJ_GROUP_NONE: it gives each "
                           "group's B");
    if (g->b || g->stride_b)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_b_ptrs is set with %s: B comes through the array, so b must be "
                           "NULL and stride_b 0", g->b ? "b" : "stride_b");
    if ((uintptr_t)g->group_b_ptrs % 8)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_b_ptrs = %p is not aligned to its 8-byte pointers",
                           (const void *)g->group_b_ptrs);
  }
  tcj_status st = check_scatter(g);
  if (st != TCJ_SUCCESS) return st;
  if (!g->gather_a != !g->gather_a_rows)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is set without %s: gathered rows need both",
                         g->gather_a ? "gather_a" : "gather_a_rows", g->gather_a ? "gather_a_rows" : "gather_a");
  if (!g->gather_a) return TCJ_SUCCESS;
  if (g->gather_a_rows < 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "gather_a_rows = %" PRId64 " is negative", g->gather_a_rows);
  if ((uintptr_t)g->gather_a % 4)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "gather_a = %p is not aligned to its 4-byte indices",
                         (const void *)g->gather_a);
  if (g->group_mode != TCJ_GROUP_M_CONTIGUOUS)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "gather_a with group_mode %s: gathered rows take "
                         "TCJ_GROUP_M_CONTIGUOUS only", group_mode_name(g->group_mode));
  if (g->op_a != TCJ_OP_N)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "gather_a with op_a TCJ_OP_T: gathered rows are rows of A stored "
                         "m x k (op_a TCJ_OP_N)");
  return TCJ_SUCCESS;
}

/* What the arrays rule out among the scales (after validate_fp8) and what they must not share
 * with D: fp8 row and block scales on A are per row of D, which a gather does not carry to A's
 * rows' own order on the kernel that runs it; block scales run on the sm90 recipe only, which
 * reads B through one tensor map. The arrays are read while D is written. */
static tcj_status check_operand_array_uses(const tcj_gemm_desc *g, const void *d, int64_t ldd, int es_d,
                                           int64_t entries, int64_t stride_d) {
  if (g->gather_a && (g->scale_mode == TCJ_SCALE_ROW || g->scale_mode == TCJ_SCALE_BLOCK))
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "gather_a with scale_mode %s: gathered rows take per-tensor fp8 "
                         "scales only", g->scale_mode == TCJ_SCALE_ROW ? "TCJ_SCALE_ROW" : "TCJ_SCALE_BLOCK");
  if (g->group_b_ptrs && g->scale_mode == TCJ_SCALE_BLOCK)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "group_b_ptrs with scale_mode TCJ_SCALE_BLOCK: block scales run on "
                         "the sm90 recipe, whose B is one tensor map");
  if (g->m <= 0 || g->n <= 0) return TCJ_SUCCESS;
  stored shape_d = desc_cd(g);
  span sd = span_batch(d, shape_d.rows, shape_d.cols, ldd, es_d, entries, stride_d);
  if (g->group_b_ptrs && g->group_count > 0 && spans_overlap(span_of(g->group_b_ptrs, 1, g->group_count, 1, 8), sd))
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_b_ptrs overlaps D: it is read while D is written");
  if (g->gather_a && spans_overlap(span_of(g->gather_a, 1, g->m, 1, 4), sd))
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "gather_a overlaps D: it is read while D is written");
  if (g->scatter_d && spans_overlap(span_of(g->scatter_d, 1, g->m, 1, 4), sd))
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "scatter_d overlaps D: it is read while D is written");
  return TCJ_SUCCESS;
}

/* TCJ_ACT_SWIGLU's rules on the descriptor (tcj.h): it pairs two whole products in registers
 * and writes them, so nothing that reads C or follows another layout goes with it. reads_c: beta
 * or beta_ptr may be nonzero. */
static tcj_status check_swiglu_fields(const tcj_gemm_desc *g, int reads_c) {
  if (g->activation != TCJ_ACT_SWIGLU) return TCJ_SUCCESS;
  const char *why = reads_c ? (g->beta_ptr ? "beta_ptr (C is not read: leave it NULL)" : "beta != 0 (C is not read)")
                    : g->epilogue_source ? "a user epilogue (epilogue_source)"
                    : g->bias_kind == TCJ_BIAS_ROW ? "bias_kind TCJ_BIAS_ROW (a column bias of 2n values only)"
                    : g->order == TCJ_ORDER_COL_MAJOR ? "order TCJ_ORDER_COL_MAJOR (row-major only)"
                    : g->row_scale ? "row_scale (a MoE layer's router weights go with its down-projection)"
                    : g->group_mode == TCJ_GROUP_K_CONTIGUOUS ? "group_mode TCJ_GROUP_K_CONTIGUOUS"
                    : NULL;
  if (why) return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "activation TCJ_ACT_SWIGLU with %s", why);
  if (g->n > INT32_MAX / 2)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "activation TCJ_ACT_SWIGLU with n = %" PRId64 ": op(B) has 2n "
                         "columns, which exceed 2^31 - 1", g->n);
  return TCJ_SUCCESS;
}

/* The group fields by themselves and what a grouped call rules out among the others; the
 * operand types are checked once validate_core has mapped them (check_group_types). */
static tcj_status check_group_fields(const tcj_gemm_desc *g) {
  if ((unsigned)g->group_mode > TCJ_GROUP_K_CONTIGUOUS)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_mode = %d is not a tcj_group_mode", (int)g->group_mode);
  if (g->group_mode == TCJ_GROUP_NONE) {
    const char *set = g->group_count ? "group_count" : g->group_ends32 ? "group_ends32" : g->group_ends64 ? "group_ends64"
                      : g->group_counts ? "group_counts" : g->group_rows_hint ? "group_rows_hint" : NULL;
    if (set)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is set but group_mode is TCJ_GROUP_NONE (say "
                           "TCJ_GROUP_M_CONTIGUOUS or TCJ_GROUP_M_MASKED for a grouped call)", set);
    return TCJ_SUCCESS;
  }
  const char *mode = group_mode_name(g->group_mode);
  int contiguous = g->group_mode == TCJ_GROUP_M_CONTIGUOUS, by_k = g->group_mode == TCJ_GROUP_K_CONTIGUOUS;
  int64_t groups = g->group_count;
  if (groups < 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_count = %" PRId64 " is negative", groups);
  if (groups > INT32_MAX)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "group_count = %" PRId64 " exceeds 2^31 - 1", groups);
  if (g->group_rows_hint < 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_rows_hint = %" PRId64 " is negative (0: tcj's default)",
                         g->group_rows_hint);
  if (contiguous || by_k) {
    if (g->group_counts)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_counts is set but group_mode is %s, which takes "
                           "group_ends32 or group_ends64", mode);
    if (g->group_ends32 && g->group_ends64)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_ends32 and group_ends64 are both set: give exactly one");
    if (!g->group_ends32 && !g->group_ends64 && groups > 0)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_mode is %s with group_count = %" PRId64 " but "
                           "group_ends32 and group_ends64 are NULL: give one", mode, groups);
    if ((uintptr_t)g->group_ends32 % 4 || (uintptr_t)g->group_ends64 % 8)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %p is not aligned to its %d-byte element",
                           g->group_ends32 ? "group_ends32" : "group_ends64",
                           g->group_ends32 ? (const void *)g->group_ends32 : (const void *)g->group_ends64,
                           g->group_ends32 ? 4 : 8);
  } else {
    if (g->group_ends32 || g->group_ends64)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is set but group_mode is %s, which takes group_counts",
                           g->group_ends32 ? "group_ends32" : "group_ends64", mode);
    if (!g->group_counts && groups > 0)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_mode is %s with group_count = %" PRId64 " but "
                           "group_counts is NULL", mode, groups);
    if ((uintptr_t)g->group_counts % 4)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "group_counts = %p is not aligned to its 4-byte element",
                           (const void *)g->group_counts);
  }
  if (g->batch_count > 1)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "batch_count = %" PRId64 " with group_mode %s: the groups are "
                         "the batch (leave batch_count 0 or 1)", g->batch_count, mode);
  if (contiguous) {
    /* The groups' rows lie one under another: no entry strides. With D NULL stride_d is
     * ignored, as without groups. */
    const int64_t strides[3] = {g->stride_a, g->stride_c, g->d ? g->stride_d : 0};
    static const char *const names[3] = {"stride_a", "stride_c", "stride_d"};
    for (int i = 0; i < 3; i++)
      if (strides[i])
        return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %" PRId64 " with group_mode %s: the groups are rows "
                             "of one A, C and D (it must be 0)", names[i], strides[i], mode);
  }
  if (g->order == TCJ_ORDER_COL_MAJOR)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "order TCJ_ORDER_COL_MAJOR with group_mode %s: grouped GEMM is "
                         "row-major only in this release", mode);
  if (g->bias_kind == TCJ_BIAS_ROW)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "bias_kind TCJ_BIAS_ROW with group_mode %s: grouped GEMM takes a "
                         "per-column bias (TCJ_BIAS_COL) only in this release", mode);
  /* With A stored k x m a group starting at any row starts at any element of a row of A: its
   * copies would be 2-byte aligned, and the sm80 recipe copies 4 bytes or more (a transposing
   * pack would serve it; not built yet). */
  if (contiguous && g->op_a == TCJ_OP_T)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "op_a TCJ_OP_T with group_mode %s: contiguous groups need A "
                         "op N (A stored m x k) in this release; masked groups take either", mode);
  if (by_k) {
    /* K is the stored row of both operands (dY [tokens, m], X [tokens, n]): a group starting at
     * any token starts at a row, as aligned as the matrix. */
    if (g->op_a != TCJ_OP_T || g->op_b != TCJ_OP_N)
      return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "%s with group_mode %s: K groups need op_a TCJ_OP_T (A stored k x m) "
                           "and op_b TCJ_OP_N (B stored k x n)", g->op_a != TCJ_OP_T ? "op_a TCJ_OP_N" : "op_b TCJ_OP_T",
                           mode);
    /* The groups are ranges of one A and one B; C, D and the bias are entries (stride_c, stride_d,
     * stride_bias). */
    if (g->stride_a || g->stride_b)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %" PRId64 " with group_mode %s: the groups are K ranges of "
                           "one A and one B (it must be 0)", g->stride_a ? "stride_a" : "stride_b",
                           g->stride_a ? g->stride_a : g->stride_b, mode);
    if (g->group_b_ptrs)
      return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "group_b_ptrs with group_mode %s: K groups read one B", mode);
  }
  return TCJ_SUCCESS;
}

/* The operand types a grouped kernel runs (f16, bf16 and the fp8 pairs; C and D as the element
 * table lets them), and the problem's group facts (eng_problem.grouped, groups, group_rows). */
static tcj_status check_group_types(const tcj_gemm_desc *g, eng_problem *out) {
  if (g->group_mode == TCJ_GROUP_NONE) return TCJ_SUCCESS;
  if (out->ab != PTX_E_F16 && out->ab != PTX_E_BF16 && !ptx_elem_is_fp8(out->ab))
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "a_type = %s, b_type = %s with group_mode %s: grouped GEMM takes "
                         "f16, bf16, e4m3 or e5m2 operands in this release", eng_dtype_name(g->a_type),
                         eng_dtype_name(g->b_type), group_mode_name(g->group_mode));
  int64_t m = g->m, groups = g->group_count, rows = g->group_rows_hint;
  /* fp8 mma reads K-major operands only, and a K group's A and B are stored with K as their
   * rows (MN-major): they would need the transposing pack, which grouped calls do not run. */
  if (g->group_mode == TCJ_GROUP_K_CONTIGUOUS && ptx_elem_is_fp8(out->ab))
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "a_type = %s with group_mode TCJ_GROUP_K_CONTIGUOUS: K groups take "
                         "f16 or bf16 operands in this release", eng_dtype_name(g->a_type));
  if (g->group_mode == TCJ_GROUP_K_CONTIGUOUS) { /* group_rows: the expected depth of a group */
    out->grouped = g->group_ends64 ? PTX_GROUP_K_ENDS64 : PTX_GROUP_K_ENDS32;
    m = g->k;
    if (!rows) rows = groups > 0 ? m / groups : m;
  } else if (g->group_mode == TCJ_GROUP_M_CONTIGUOUS) {
    out->grouped = g->group_ends64 ? PTX_GROUP_ENDS64 : PTX_GROUP_ENDS32;
    if (!rows) rows = groups > 0 ? m / groups : m;
  } else {
    out->grouped = PTX_GROUP_MASKED;
    if (!rows) rows = m;
  }
  out->groups = groups;
  out->group_rows = rows > m ? m : rows < 1 ? 1 : rows;
  return TCJ_SUCCESS;
}

tcj_status eng_validate_desc(const tcj_gemm_desc *g, eng_problem *out) {
  memset(out, 0, sizeof *out);
  if (!g) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "desc is NULL");
  if (g->struct_size < ENG_GEMM_DESC_V1_SIZE)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "desc->struct_size = %zu is not a tcj_gemm_desc size (this "
                         "header's is %zu): start from TCJ_GEMM_DESC_INIT or tcj_gemm_desc_init()", g->struct_size,
                         sizeof *g);
  tcj_status st = check_unknown_tail(g);
  if (st != TCJ_SUCCESS) return st;
  tcj_gemm_desc full; /* an older caller's descriptor: the fields it does not have are zero */
  g = eng_desc_view(g, &full);
  if (g->batch_count < 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "batch_count = %" PRId64 " is negative", g->batch_count);
  if (g->batch_count > INT32_MAX)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "batch_count = %" PRId64 " exceeds 2^31 - 1", g->batch_count);
  const int64_t strides[5] = {g->stride_a, g->stride_b, g->stride_c, g->stride_d, g->stride_bias};
  static const char *const stride_names[5] = {"stride_a", "stride_b", "stride_c", "stride_d", "stride_bias"};
  for (int i = 0; i < 5; i++)
    if (strides[i] < 0 && !(i == 3 && !g->d)) /* with D NULL, stride_d is ignored */
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %" PRId64 " is negative (0 broadcasts one entry)",
                           stride_names[i], strides[i]);
  if ((unsigned)g->activation >= PTX_ACT_COUNT)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "activation = %d is not a tcj_activation", (int)g->activation);
  if ((unsigned)g->bias_kind > TCJ_BIAS_ROW)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "bias_kind = %d is not a tcj_bias_kind", (int)g->bias_kind);
  if ((uintptr_t)g->alpha_ptr % 4 || (uintptr_t)g->beta_ptr % 4)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %p is not 4-byte aligned", g->alpha_ptr && (uintptr_t)g->alpha_ptr % 4 ? "alpha_ptr" : "beta_ptr",
                         (const void *)((uintptr_t)g->alpha_ptr % 4 ? g->alpha_ptr : g->beta_ptr));

  if ((unsigned)g->order > TCJ_ORDER_COL_MAJOR)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "order = %d is not a tcj_order", (int)g->order);
  /* The arrays' rules first: a gather names gather_a where contiguous groups would name op_a. */
  if ((st = check_operand_arrays(g)) != TCJ_SUCCESS) return st;
  if ((st = check_group_fields(g)) != TCJ_SUCCESS) return st;
  int f64 = g->a_type == TCJ_F64;
  if ((st = check_unread_scalars(g, f64)) != TCJ_SUCCESS) return st;
  if ((uintptr_t)g->alpha_ptr % (f64 ? 8 : 4) || (uintptr_t)g->beta_ptr % (f64 ? 8 : 4))
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "alpha_ptr or beta_ptr is not aligned to its %s", f64 ? "double" : "float");
  /* C is read when beta may be nonzero: a host beta != 0, or any device beta. */
  int reads_c = (f64 ? g->beta_f64 != 0.0 : g->beta != 0.0f) || g->beta_ptr != NULL;
  int d_is_c = g->d == NULL;
  if ((st = check_swiglu_fields(g, reads_c)) != TCJ_SUCCESS) return st;
  if (!g->c && reads_c && g->m > 0 && g->n > 0)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "c is NULL but %s: C would be read",
                         g->beta_ptr ? "beta_ptr is set" : "beta != 0");

  /* A, B and the output: D's own fields, or C's when D is C. */
  const void *d = d_is_c ? g->c : g->d;
  tcj_dtype d_type = d_is_c ? g->c_type : g->d_type;
  int64_t ldd = d_is_c ? g->ldc : g->ldd, stride_d = d_is_c ? g->stride_c : g->stride_d;
  int cm = col_major(g);
  int b_array = g->group_b_ptrs != NULL;
  st = validate_core(g->op_a, g->op_b, g->m, g->n, desc_b_cols(g), g->k, desc_a_rows(g), desc_d_rows(g), b_array, g->a,
                     g->a_type, g->lda,
                     g->b, g->b_type, g->ldb, d, d_type, ldd, cm, d_is_c ? &names_c : &names_d, out);
  if (st != TCJ_SUCCESS) return st;
  if ((st = check_group_types(g, out)) != TCJ_SUCCESS) return st;
  out->d = out->c;
  out->ldd = ldd;
  out->reads_c = reads_c;
  out->batch = g->batch_count > 1 ? g->batch_count : 1;
  out->stride_a = g->stride_a;
  out->stride_b = g->stride_b;
  out->stride_d = stride_d;
  /* The extents below cover every entry: a grouped call's G groups are entries of B and the
   * bias (stride_b, stride_bias) and, when masked, of A, C and D; contiguous groups' strides of
   * A, C and D are 0, so their one matrix is the extent. The kernel's batch stays 1. */
  int64_t m = g->m, n = g->n, k = g->k, batch = out->grouped && out->groups > 1 ? out->groups : out->batch;
  int es_ab = ptx_elem_size(out->ab), es_d = ptx_elem_size(out->d);
  stored shape_a = desc_a(g), shape_b = desc_b(g), shape_d = desc_cd(g); /* and C's */

  /* C, when it is not D: its own type and layout, read while D is written. */
  if (!d_is_c && g->c) {
    eng_problem pc;
    st = validate_core(g->op_a, g->op_b, m, n, desc_b_cols(g), k, desc_a_rows(g), m, b_array, g->a, g->a_type, g->lda, g->b,
                       g->b_type, g->ldb, g->c, g->c_type, g->ldc, cm, &names_c, &pc);
    if (st != TCJ_SUCCESS) return st;
    out->c = pc.c;
    out->ldc = g->ldc;
    out->stride_c = g->stride_c;
    int same = g->c == g->d && g->ldc == g->ldd && g->c_type == g->d_type && g->stride_c == g->stride_d;
    if (reads_c) {
      if (out->align_c > pc.align_c) out->align_c = pc.align_c; /* vector loads of C too */
    } else {
      /* Never read: its type cannot constrain the kernel (an fp8 D's C is a float type). */
      out->c = ptx_elem_is_fp8(out->d) ? PTX_E_BF16 : out->d;
    }
    if (!same && reads_c && m > 0 && n > 0 &&
        spans_overlap(span_batch(g->c, shape_d.rows, shape_d.cols, g->ldc, ptx_elem_size(pc.c), batch, g->stride_c),
                      span_batch(d, shape_d.rows, shape_d.cols, ldd, es_d, batch, stride_d)))
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "d overlaps c without being exactly c (same pointer, ldc == ldd, "
                           "c_type == d_type, stride_c == stride_d): D would overwrite C before it is read");
  } else {
    out->ldc = d_is_c ? g->ldc : ldd;
    out->stride_c = d_is_c ? g->stride_c : stride_d;
    if (!d_is_c) out->reads_c = 0; /* no C */
    if (ptx_elem_is_fp8(out->d)) out->c = PTX_E_BF16; /* as above */
  }

  /* The batch: D's entries must not share an element (racing writes); A and B are only read. */
  int d_entries = out->grouped != PTX_GROUP_ENDS32 && out->grouped != PTX_GROUP_ENDS64; /* contiguous: one D */
  if (batch > 1 && m > 0 && n > 0 && d_entries &&
      eng_batch_entries_overlap(shape_d.rows, shape_d.cols, ldd, batch, stride_d))
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %" PRId64 " makes the %" PRId64 " entries of D (%" PRId64 " x %" PRId64
                         ", %s %" PRId64 ") overlap: their writes would race",
                         d_is_c ? "stride_c" : "stride_d", stride_d, batch, m, n, d_is_c ? "ldc" : "ldd", ldd);
  if (batch > 1 && m > 0 && n > 0 && k > 0) {
    span sd = span_batch(d, shape_d.rows, shape_d.cols, ldd, es_d, batch, stride_d);
    span sa = span_batch(g->a, shape_a.rows, shape_a.cols, g->lda, es_ab, batch, g->stride_a);
    span sb = span_batch(g->b, shape_b.rows, shape_b.cols, g->ldb, es_ab, batch, g->stride_b);
    const char *with = spans_overlap(sd, sa) ? "a" : g->b && spans_overlap(sd, sb) ? "b" : NULL;
    if (with)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "the batch entries of %s overlap those of %s: %s must not alias an operand",
                           d_is_c ? "c" : "d", with, d_is_c ? "C" : "D");
  }

  /* Bias: a vector of n (per column) or m (per row) elements. */
  if (g->bias_kind == TCJ_BIAS_NONE && g->bias)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "bias is set but bias_kind is TCJ_BIAS_NONE (say TCJ_BIAS_COL for "
                         "n values, TCJ_BIAS_ROW for m)");
  if (g->bias_kind != TCJ_BIAS_NONE) {
    int64_t len = g->bias_kind == TCJ_BIAS_COL ? desc_b_cols(g) : m; /* SwiGLU: gate and up values */
    if (!g->bias && len > 0)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "bias_kind is %s but bias is NULL",
                           g->bias_kind == TCJ_BIAS_COL ? "TCJ_BIAS_COL" : "TCJ_BIAS_ROW");
    if ((unsigned)g->bias_type >= (unsigned)DTYPE_COUNT)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "bias_type = %d is not a tcj_dtype", (int)g->bias_type);
    if (!bias_type_ok(g->bias_type, &out->bias_t))
      return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "bias_type = %s: a bias is bf16, f16 or f32",
                           eng_dtype_name(g->bias_type));
    int es_bias = ptx_elem_size(out->bias_t);
    if ((uintptr_t)g->bias % (uintptr_t)es_bias)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "bias = %p is not aligned to its %d-byte element", g->bias, es_bias);
    if (m > 0 && n > 0 &&
        spans_overlap(span_batch(g->bias, 1, len, len, es_bias, batch, g->stride_bias),
                      span_batch(d, shape_d.rows, shape_d.cols, ldd, es_d, batch, stride_d)))
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "bias overlaps %s: it would be read while D is written",
                           d_is_c ? "c" : "d");
    out->bias = (ptx_bias)g->bias_kind;
    out->stride_bias = g->stride_bias;
  }
  out->act = (ptx_act)g->activation;
  if (out->act == PTX_ACT_SWIGLU && out->ab != PTX_E_F16 && out->ab != PTX_E_BF16)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "activation TCJ_ACT_SWIGLU with a_type = %s: f16 or bf16 operands "
                         "only in this release", eng_dtype_name(g->a_type));
  /* SwiGLU with B stored k x 2n: the up half starts n elements into each row, where the sm80
   * recipe's copies of it start. */
  if (out->act == PTX_ACT_SWIGLU && !out->op_b_t) fold_stride_alignment(&out->align_b, n, es_ab);
  /* Every entry's rows must share the alignment the kernel assumes for the first's. */
  if (batch > 1) {
    fold_stride_alignment(&out->align_a, g->stride_a, es_ab);
    fold_stride_alignment(&out->align_b, g->stride_b, es_ab);
    fold_stride_alignment(&out->align_c, stride_d, es_d);
    if (out->reads_c && !d_is_c) fold_stride_alignment(&out->align_c, g->stride_c, ptx_elem_size(out->c));
  }
  /* The operand type's epilogue rules (ptxgen/elem.c): s8 takes a bias and ReLU, f64 none. */
  switch (ptx_elem_check_epilogue(out->ab, out->bias != PTX_BIAS_NONE, (int)out->act, g->epilogue_source != NULL)) {
  case PTX_EPI_OK: break;
  case PTX_EPI_FUSED:
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "%s with %s operands: %s takes no bias, activation or user epilogue",
                         g->epilogue_source ? "a user epilogue" : out->bias != PTX_BIAS_NONE ? "a bias" : "an activation",
                         ptx_elem_name(out->ab), ptx_elem_name(out->ab));
  case PTX_EPI_ACT:
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "activation %s on %s output: %s GEMMs take ReLU only",
                         ptx_act_name(out->act), ptx_elem_name(out->d), ptx_elem_name(out->ab));
  case PTX_EPI_USER:
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "user epilogues compute in f32: not for %s -> %s (exact integers)",
                         ptx_elem_name(out->ab), ptx_elem_name(out->d));
  }
  if (g->epilogue_source) out->user = 1; /* the engine puts the source's hash here */
  if ((st = validate_fp8(g, out, d, ldd, es_d)) != TCJ_SUCCESS) return st;
  if ((st = validate_row_scale(g, out, d, ldd, es_d, batch)) != TCJ_SUCCESS) return st;
  if ((st = check_operand_array_uses(g, d, ldd, es_d, batch, stride_d)) != TCJ_SUCCESS) return st;
  out->b_ptrs = b_array;
  out->gather = g->gather_a != NULL;
  out->gather_rows = g->gather_a ? g->gather_a_rows : 0;
  int adds = g->scatter_mode == TCJ_SCATTER_ADD;
  if (g->scatter_d && adds && out->d != PTX_E_F32)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "scatter_d with TCJ_SCATTER_ADD and d_type %s: rows are added by f32 "
                         "atomics into an f32 D", ptx_elem_name(out->d));
  out->scatter = !g->scatter_d ? PTX_SCATTER_NONE : adds ? PTX_SCATTER_ADD : PTX_SCATTER_STORE;
  out->scatter_rows = g->scatter_d ? g->scatter_d_rows : 0;
  if (cm) swap_to_row_major(out);
  fold_batch_into_rows(out);
  return validate_compute(g, out);
}

const tcj_gemm_desc *eng_desc_view(const tcj_gemm_desc *g, tcj_gemm_desc *buf) {
  if (!g || g->struct_size >= sizeof *g || g->struct_size < ENG_GEMM_DESC_V1_SIZE) return g;
  memset(buf, 0, sizeof *buf);
  memcpy(buf, g, g->struct_size);
  /* A caller from before the fp64 scalars: its f64 call's scalars are the float ones, and the
   * pair it does not read is at TCJ_GEMM_DESC_INIT's values. */
  if (g->struct_size < offsetof(tcj_gemm_desc, beta_f64) + sizeof(double)) {
    buf->alpha_f64 = 1.0;
    buf->beta_f64 = 0.0;
    if (buf->a_type == TCJ_F64) {
      buf->alpha_f64 = buf->alpha;
      buf->beta_f64 = buf->beta;
      buf->alpha = 1.0f;
      buf->beta = 0.0f;
    }
  }
  return buf;
}

/* ---- initialisers for callers without the C macros ------------------------------------------ */

tcj_status tcj_gemm_desc_init(tcj_gemm_desc *desc, size_t struct_size) {
  if (!desc) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "desc is NULL");
  if (struct_size < ENG_GEMM_DESC_V1_SIZE)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "struct_size = %zu is below the first tcj_gemm_desc's %zu bytes: pass "
                         "the size of the struct as declared (sizeof, or the binding's layout)",
                         struct_size, (size_t)ENG_GEMM_DESC_V1_SIZE);
  const tcj_gemm_desc init = TCJ_GEMM_DESC_INIT;
  memset(desc, 0, struct_size);
  memcpy(desc, &init, struct_size < sizeof init ? struct_size : sizeof init);
  desc->struct_size = struct_size;
  return TCJ_SUCCESS;
}
