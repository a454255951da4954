/* tcj_gemm argument validation. Order: types, ops, extents, leading dimensions, pointers,
 * alignment, limits, aliasing; the first failure is reported, naming the argument and what was needed. */
#include "engine/validate.h"

#include <inttypes.h>
#include <string.h>

#include "engine/error.h"

#define DTYPE_LIST(X) \
  X(TCJ_F16, "f16", 2) X(TCJ_BF16, "bf16", 2) X(TCJ_F32, "f32", 4) X(TCJ_TF32, "tf32", 4) \
  X(TCJ_E4M3, "e4m3", 1) X(TCJ_E5M2, "e5m2", 1) X(TCJ_S8, "s8", 1) X(TCJ_S32, "s32", 4)    \
  X(TCJ_F64, "f64", 8)

static const struct { const char *name; int size; } dtypes[] = {
#define DTYPE_INFO(e, name, size) [e] = {name, size},
  DTYPE_LIST(DTYPE_INFO)
#undef DTYPE_INFO
};
#define DTYPE_COUNT ((int)(sizeof dtypes / sizeof *dtypes))

const char *eng_dtype_name(tcj_dtype t) {
  return (unsigned)t < (unsigned)DTYPE_COUNT ? dtypes[t].name : "?";
}

/* The combinations the sm80 recipe implements (see tcj.h). */
static int map_types(tcj_dtype a, tcj_dtype b, tcj_dtype c, ptx_elem *ab, ptx_elem *ce) {
  int f32a = a == TCJ_F32 || a == TCJ_TF32, f32b = b == TCJ_F32 || b == TCJ_TF32;
  if (f32a && f32b && c == TCJ_F32) { *ab = PTX_E_TF32; *ce = PTX_E_F32; return 1; }
  if (a != b) return 0;
  if (a == TCJ_S8 && c == TCJ_S32) { *ab = PTX_E_S8; *ce = PTX_E_S32; return 1; }
  if (a != TCJ_F16 && a != TCJ_BF16) return 0;
  *ab = a == TCJ_F16 ? PTX_E_F16 : PTX_E_BF16;
  switch (c) {
  case TCJ_F16: *ce = PTX_E_F16; return 1;
  case TCJ_BF16: *ce = PTX_E_BF16; return 1;
  case TCJ_F32: *ce = PTX_E_F32; return 1;
  default: return 0;
  }
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
  *align = row_alignment(p, ld, es);
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

tcj_status eng_validate(tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                        const void *a, tcj_dtype a_type, int64_t lda,
                        const void *b, tcj_dtype b_type, int64_t ldb,
                        const void *c, tcj_dtype c_type, int64_t ldc, eng_problem *out) {
  memset(out, 0, sizeof *out);
  const tcj_dtype types[3] = {a_type, b_type, c_type};
  static const char *const type_args[3] = {"a_type", "b_type", "c_type"};
  for (int i = 0; i < 3; i++)
    if ((unsigned)types[i] >= (unsigned)DTYPE_COUNT)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s = %d is not a tcj_dtype", type_args[i], (int)types[i]);
  if (!map_types(a_type, b_type, c_type, &out->ab, &out->c))
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "a=%s b=%s c=%s is not supported by the sm80 recipe "
                         "(supported: f16|bf16 -> f16|bf16|f32, tf32|f32 -> f32, s8 -> s32)",
                         eng_dtype_name(a_type), eng_dtype_name(b_type), eng_dtype_name(c_type));
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
  /* Stored shapes: A is m x k (N) or k x m (T); B is k x n (N) or n x k (T). */
  tcj_status st = check_operand("a", "lda", a, ta ? k : m, ta ? m : k, lda, ta ? m : k, es_ab, &out->align_a);
  if (st == TCJ_SUCCESS)
    st = check_operand("b", "ldb", b, tb ? n : k, tb ? k : n, ldb, tb ? k : n, es_ab, &out->align_b);
  if (st == TCJ_SUCCESS) st = check_operand("c", "ldc", c, m, n, ldc, n, es_c, &out->align_c);
  if (st != TCJ_SUCCESS) return st;

  /* The kernel does its index arithmetic in 32 bits, signed where it clips edges (M is a
   * runtime argument; N and K are baked in). */
  for (int i = 0; i < 3; i++)
    if (dims[i] > INT32_MAX)
      return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "%s = %" PRId64 " exceeds 2^31 - 1", dim_names[i], dims[i]);
  /* C is written while A and B are read, by many CTAs in no order: a shared byte gives a
   * result that depends on timing. Spans (first to last element) are compared, so an
   * interleaving that shares no element is refused too; the header says so. */
  if (m > 0 && n > 0 && k > 0) {
    span sc = span_of(c, m, n, ldc, es_c);
    span sa = span_of(a, ta ? k : m, ta ? m : k, lda, es_ab), sb = span_of(b, tb ? n : k, tb ? k : n, ldb, es_ab);
    const char *with = spans_overlap(sc, sa) ? "a" : spans_overlap(sc, sb) ? "b" : NULL;
    if (with)
      return eng_set_error(TCJ_ERROR_INVALID_VALUE, "c overlaps %s: C's bytes [%p, +%" PRIu64 ") and %s's [%p, +%" PRIu64
                           ") share memory; C must not alias an operand",
                           with, c, sc.bytes, with, with[0] == 'a' ? a : b, with[0] == 'a' ? sa.bytes : sb.bytes);
  }
  out->op_a_t = ta;
  out->op_b_t = tb;
  out->m = m;
  out->n = n;
  out->k = k;
  out->lda = lda;
  out->ldb = ldb;
  out->ldc = ldc;
  return TCJ_SUCCESS;
}
