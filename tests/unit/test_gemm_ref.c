/* SPDX-License-Identifier: Apache-2.0 */
/* tools/gemm_ref: the sample covers the first and last rows and columns within the multiply-add
 * budget, the reference equals the definition (every op pair, batches with a broadcast B, each
 * operand type, fp8's scale, a bias and an activation) at every sampled element, f64 sums are
 * compensated (a result a plain double sum loses entirely comes out exact), and the error figures
 * (max |got - ref| / (|A||B|)_ij, relative Frobenius) see a wrong, a NaN and an exact element. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/gemm_ref.h"
#include "tools/host_half.h"

static uint64_t g_state = 0x5eed;

static double uniform(void) { /* [-1, 1) */
  uint64_t z = (g_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

/* count random elements of type t (fp8: multiples of 1/2 up to 4, exact). */
static void *fill(tcj_dtype t, size_t count) {
  void *buf = malloc(count * 8 + 1);
  assert_non_null(buf);
  for (size_t i = 0; i < count; i++) {
    double v = uniform();
    switch (t) {
    case TCJ_F16: ((uint16_t *)buf)[i] = f32_to_f16((float)v); break;
    case TCJ_BF16: ((uint16_t *)buf)[i] = f32_to_bf16((float)v); break;
    case TCJ_E4M3: ((uint8_t *)buf)[i] = f32_to_e4m3((float)(round(v * 8) / 2)); break;
    case TCJ_F64: ((double *)buf)[i] = v; break;
    default: ((float *)buf)[i] = (float)v; break;
    }
  }
  return buf;
}

/* Element (row over the batch, col) of D by the definition, in long double. */
static void definition(const gemm_problem *p, const gemm_ref_inputs *in, int64_t row, int64_t col, double *value,
                       double *unit) {
  int64_t z = row / p->m, i = row % p->m;
  long double sum = 0, abs = 0;
  for (int64_t l = 0; l < p->k; l++) {
    size_t ai = (size_t)(z * gemm_stride_a(p) + (p->op_a == TCJ_OP_N ? i * gemm_lda(p) + l : l * gemm_lda(p) + i));
    size_t bi = (size_t)(z * gemm_stride_b(p) + (p->op_b == TCJ_OP_N ? l * gemm_ldb(p) + col : col * gemm_ldb(p) + l));
    long double prod = (long double)gemm_ref_get(p->ab, in->a, ai) * gemm_ref_get(gemm_b_dtype(p), in->b, bi);
    sum += prod;
    abs += fabsl(prod);
  }
  double v = (double)(sum * in->scale), u = (double)(abs * fabs(in->scale));
  if (p->bias != TCJ_BIAS_NONE) {
    double b = gemm_ref_get(gemm_bias_dtype(p), in->bias, (size_t)(z * gemm_stride_bias(p) + col));
    v += b;
    u += fabs(b);
  }
  if (p->act == TCJ_ACT_RELU) v = v > 0 ? v : 0;
  if (p->act == TCJ_ACT_GELU) v = 0.5 * v * (1 + erf(v / sqrt(2.0))); /* tcj's GELU: the erf form */
  *value = v;
  *unit = u > 0 ? u : 1;
}

/* Computes p's reference on random operands and holds every sampled element to the definition. */
static void check_against_definition(gemm_problem p, double scale) {
  size_t batch = (size_t)gemm_batch(&p), b_entries = p.broadcast_b ? 1 : batch;
  gemm_ref_inputs in = {.a = fill(p.ab, batch * (size_t)(p.m * p.k)),
                        .b = fill(gemm_b_dtype(&p), b_entries * (size_t)(p.k * p.n)),
                        .bias = p.bias != TCJ_BIAS_NONE ? fill(gemm_bias_dtype(&p), b_entries * (size_t)p.n) : NULL,
                        .scale = scale};
  gemm_ref r;
  assert_int_equal(gemm_ref_compute(&p, &in, &r), 0);
  size_t all = batch * (size_t)(p.m * p.n);
  assert_true(r.count > 0 && r.count <= all);
  for (size_t e = 0; e < r.count; e++) {
    double v, u;
    definition(&p, &in, r.index[e] / p.n, r.index[e] % p.n, &v, &u);
    /* A double sum's worst case (f64: long double's, the less accurate of the two then). */
    double tol = (double)(p.k + 1) * 0x1p-52 * u;
    if (fabs(r.value[e] - v) > tol || fabs(r.unit[e] - u) > tol)
      fail_msg("%s %c%c %lldx%lldx%lld batch %lld, element %lld: value %.17g unit %.17g, want %.17g and %.17g",
               tcj_dtype_name(p.ab), p.op_a ? 'T' : 'N', p.op_b ? 'T' : 'N', (long long)p.m, (long long)p.n,
               (long long)p.k, (long long)gemm_batch(&p), (long long)r.index[e], r.value[e], r.unit[e], v, u);
  }
  gemm_ref_free(&r);
  free((void *)in.a);
  free((void *)in.b);
  free((void *)in.bias);
}

static void reference_is_the_definition_at_every_sampled_element(void **state) {
  (void)state;
  static const tcj_dtype types[][2] = {{TCJ_F32, TCJ_F32}, {TCJ_F64, TCJ_F64}, {TCJ_BF16, TCJ_BF16},
                                       {TCJ_F16, TCJ_F32}, {TCJ_TF32, TCJ_F32}};
  for (size_t t = 0; t < sizeof types / sizeof *types; t++)
    for (int op = 0; op < 4; op++) {
      gemm_problem p = GEMM_PLAIN(types[t][0], types[t][1], (tcj_op)(op >> 1), (tcj_op)(op & 1), 37, 29, 41);
      check_against_definition(p, 1);
    }
  /* A batch with a broadcast B and a bias, ReLU; fp8 with its scale; k = 0 (every value 0). */
  gemm_problem p = GEMM_PLAIN(TCJ_BF16, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 9, 17, 33);
  p.batch = 5;
  p.broadcast_b = 1;
  p.bias = TCJ_BIAS_COL;
  p.act = TCJ_ACT_RELU;
  check_against_definition(p, 1);
  p.broadcast_b = 0;
  p.op_b = TCJ_OP_N;
  p.act = TCJ_ACT_GELU;
  check_against_definition(p, 1);
  gemm_problem f8 = GEMM_PLAIN(TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 16, 24, 64);
  check_against_definition(f8, 0.125);
  gemm_problem empty_k = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 5, 7, 0);
  check_against_definition(empty_k, 1);
  assert_true(gemm_ref_get(TCJ_S32, (const int32_t[]){-2147483647 - 1}, 0) == -2147483648.0);
}

/* rows x cols of the sample, read back from the indices. */
static void sample_shape(const gemm_problem *p, int64_t *rows, int64_t *cols, int64_t *first_row, int64_t *last_row,
                         int64_t *last_col) {
  size_t batch = (size_t)gemm_batch(p);
  /* Zero operands: the shape of the sample does not depend on the values. */
  void *a = calloc(batch * (size_t)(p->m * p->k) + 1, 4), *b = calloc(batch * (size_t)(p->k * p->n) + 1, 4);
  assert_true(a && b);
  gemm_ref_inputs in = {.a = a, .b = b, .scale = 1};
  gemm_ref r;
  assert_int_equal(gemm_ref_compute(p, &in, &r), 0);
  *cols = 0;
  while ((size_t)*cols < r.count && r.index[*cols] / p->n == r.index[0] / p->n) ++*cols;
  *rows = (int64_t)r.count / *cols;
  *first_row = r.index[0] / p->n;
  *last_row = r.index[r.count - 1] / p->n;
  *last_col = r.index[r.count - 1] % p->n;
  for (size_t e = 0; e < r.count; e++) assert_true(r.value[e] == 0 && r.unit[e] == 1);
  gemm_ref_free(&r);
  free(a);
  free(b);
}

static void sample_spans_the_output_within_the_budget(void **state) {
  (void)state;
  static const struct {
    int64_t m, n, k, batch, rows, cols;
  } cases[] = {
    {4096, 4096, 4096, 1, 16, 4096},    /* 2^28 / 2^24 rows, every column */
    {512, 512, 65536, 1, 8, 512},       /* deep K: fewer rows */
    {4095, 4095, 4095, 1, 16, 4095},
    {8192, 8192, 8192, 1, 4, 8192},
    {64, 64, 64, 1, 64, 64},            /* small: GEMM_REF_MAX_ROWS rows */
    {3, 40001, 16, 1, 3, 13335},       /* wide: every third column and the last */
    {1, 6144, 4096, 1, 1, 6144},
    {64, 64, 64, 8, 64, 64},            /* a batch: rows spread over every entry */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    gemm_problem p = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, cases[i].m, cases[i].n, cases[i].k);
    p.batch = cases[i].batch;
    int64_t rows, cols, first, last, last_col;
    sample_shape(&p, &rows, &cols, &first, &last, &last_col);
    if (rows != cases[i].rows || cols != cases[i].cols)
      fail_msg("%lldx%lldx%lld batch %lld: %lld rows x %lld columns, want %lld x %lld", (long long)p.m, (long long)p.n,
               (long long)p.k, (long long)p.batch, (long long)rows, (long long)cols, (long long)cases[i].rows,
               (long long)cases[i].cols);
    assert_true(rows * cols * p.k <= GEMM_REF_MACS);
    assert_int_equal(first, 0);
    assert_int_equal(last, p.m * p.batch - 1);
    assert_int_equal(last_col, p.n - 1);
  }
  /* An empty D samples nothing. */
  gemm_problem empty = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 0, 8, 8);
  gemm_ref r;
  gemm_ref_inputs in = {.scale = 1};
  assert_int_equal(gemm_ref_compute(&empty, &in, &r), 0);
  assert_int_equal(r.count, 0);
  gemm_ref_free(&r);
}

/* A plain double sum gets 0 for both rows; the compensated one the exact results. Row 0: a
 * product's rounding error is the whole result ((1 + 2^-30)^2 - (1 + 2^-29) = 2^-60). Row 1:
 * cancellation ((2^60 + 2^30) + (1 + 2^-29) - (2^60 + 2^30) = 1 + 2^-29). */
static void f64_sums_are_compensated(void **state) {
  (void)state;
  const double a[2][3] = {{1 + 0x1p-30, -1, 0}, {0x1p60, 1, -0x1p60 - 0x1p30}};
  const double b[3] = {1 + 0x1p-30, 1 + 0x1p-29, 1}; /* op_b T: B is 1 x 3 */
  gemm_problem p = GEMM_PLAIN(TCJ_F64, TCJ_F64, TCJ_OP_N, TCJ_OP_T, 2, 1, 3);
  gemm_ref_inputs in = {.a = a, .b = b, .scale = 1};
  gemm_ref r;
  assert_int_equal(gemm_ref_compute(&p, &in, &r), 0);
  assert_int_equal(r.count, 2);
  if (r.value[0] != 0x1p-60 || r.value[1] != 1 + 0x1p-29)
    fail_msg("compensated f64 sums: %.17g and %.17g, want 2^-60 and 1 + 2^-29", r.value[0], r.value[1]);
  gemm_ref_free(&r);
  p.op_b = TCJ_OP_N; /* B 3 x 1: the other loop order */
  assert_int_equal(gemm_ref_compute(&p, &in, &r), 0);
  assert_true(r.value[0] == 0x1p-60 && r.value[1] == 1 + 0x1p-29);
  gemm_ref_free(&r);
}

static void errors_see_wrong_nan_and_exact_elements(void **state) {
  (void)state;
  gemm_problem p = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 16, 16, 16);
  gemm_ref_inputs in = {.a = fill(TCJ_F32, 256), .b = fill(TCJ_F32, 256), .scale = 1};
  gemm_ref r;
  assert_int_equal(gemm_ref_compute(&p, &in, &r), 0);
  assert_int_equal(r.count, 256);
  float d[256];
  for (size_t e = 0; e < r.count; e++) d[r.index[e]] = (float)r.value[e];
  int64_t diff;
  double norm, worst = gemm_ref_max_error(&r, TCJ_F32, d);
  assert_true(worst <= 0x1p-24); /* the rounding to f32 only */
  d[r.index[7]] += (float)(0x1p-10 * r.unit[7]);
  double e = gemm_ref_max_error(&r, TCJ_F32, d);
  if (fabs(e - 0x1p-10) > 0x1p-20) fail_msg("one element off by 2^-10 units: max error %.17g", e);
  assert_true(gemm_ref_frobenius(&r, TCJ_F32, d, &diff, &norm) > 0);
  assert_true(diff >= 1 && norm > 0);
  d[r.index[3]] = NAN;
  assert_true(isinf(gemm_ref_max_error(&r, TCJ_F32, d)));
  assert_true(isinf(gemm_ref_frobenius(&r, TCJ_F32, d, &diff, &norm)));
  gemm_ref_free(&r);
  free((void *)in.a);
  free((void *)in.b);
}

static void bounds_and_where_the_figures_apply(void **state) {
  (void)state;
  gemm_problem f32 = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 8, 8, 4096);
  gemm_problem f64 = GEMM_PLAIN(TCJ_F64, TCJ_F64, TCJ_OP_N, TCJ_OP_N, 8, 8, 4096);
  gemm_problem tf32 = GEMM_PLAIN(TCJ_TF32, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 8, 8, 4096);
  gemm_problem s8 = GEMM_PLAIN(TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_N, 8, 8, 4096);
  gemm_problem bias = GEMM_PLAIN(TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 8, 8, 4096);
  bias.bias = TCJ_BIAS_COL;
  gemm_problem f32_relu = f32;
  f32_relu.act = TCJ_ACT_RELU;
  assert_true(gemm_ref_bound(&f32) == 4098 * 0x1p-23 + 0x1p-20);
  assert_true(gemm_ref_bound(&f64) == 4098 * 0x1p-52);
  assert_true(gemm_ref_bound(&tf32) == 0);
  assert_true(gemm_ref_checks_accuracy(&f32) && gemm_ref_checks_accuracy(&f64));
  assert_false(gemm_ref_checks_accuracy(&tf32));
  assert_false(gemm_ref_checks_accuracy(&f32_relu)); /* an epilogue: checked against its baseline */
  assert_true(gemm_ref_accuracy_applies(&f32) && gemm_ref_accuracy_applies(&tf32) && gemm_ref_accuracy_applies(&f64));
  assert_false(gemm_ref_accuracy_applies(&s8));
  assert_false(gemm_ref_accuracy_applies(&bias));
}

/* Grouped: every sample lies in a non-empty group's written rows, each such group gives its first
 * and last row, and the value is group g's own GEMM (its rows of A, its B and bias) there;
 * CONTIGUOUS and MASKED, op_b N and T. */
static void grouped_reference_samples_every_group(void **state) {
  (void)state;
  enum { G = 4, M = 9, N = 20, K = 5 };
  static const int64_t sizes[G] = {3, 0, 5, 1};
  for (int masked = 0; masked <= 1; masked++)
    for (int opb = 0; opb <= 1; opb++) {
      gemm_problem p = {.ab = TCJ_BF16, .c = TCJ_BF16, .op_a = TCJ_OP_N, .op_b = opb ? TCJ_OP_T : TCJ_OP_N, .m = M,
                        .n = N, .k = K, .bias = TCJ_BIAS_COL, .group_mode = masked ? TCJ_GROUP_M_MASKED
                                                                                    : TCJ_GROUP_M_CONTIGUOUS,
                        .groups = G, .group_sizes = sizes};
      size_t na = (size_t)(masked ? G : 1) * M * K;
      uint16_t a[G * M * K], b[G * N * K], bias[G * N];
      for (size_t i = 0; i < na; i++) a[i] = f32_to_bf16((float)((int)(i * 7 % 11) - 5));
      for (size_t i = 0; i < G * N * K; i++) b[i] = f32_to_bf16((float)((int)(i * 5 % 9) - 4));
      for (size_t i = 0; i < G * N; i++) bias[i] = f32_to_bf16((float)(i % 13));
      gemm_ref_inputs in = {.a = a, .b = b, .bias = bias, .scale = 1.0};
      gemm_ref r;
      assert_int_equal(gemm_ref_compute_grouped(&p, &in, &r), 0);
      assert_true(r.count > 0);
      int first_seen[G] = {0}, last_seen[G] = {0};
      for (size_t e = 0; e < r.count; e++) {
        int64_t row = r.index[e] / N, j = r.index[e] % N, g = -1, i = -1, start = 0;
        for (int64_t h = 0; h < G; start += sizes[h], h++) {
          if (masked && row / M == h) g = h, i = row % M;
          if (!masked && row >= start && row < start + sizes[h]) g = h, i = row - start;
        }
        assert_true(g >= 0 && i >= 0 && i < sizes[g]); /* a written row of a non-empty group */
        first_seen[g] |= i == 0;
        last_seen[g] |= i == sizes[g] - 1;
        int64_t arow = masked ? g * M + i : row;
        double want = bf16_to_f32(bias[g * N + j]);
        for (int l = 0; l < K; l++)
          want += (double)bf16_to_f32(a[arow * K + l]) *
                  bf16_to_f32(b[g * N * K + (opb ? j * K + l : l * N + j)]);
        assert_true(r.value[e] == want);
      }
      for (int g = 0; g < G; g++) assert_int_equal(first_seen[g] && last_seen[g], sizes[g] > 0);
      gemm_ref_free(&r);
    }
  /* No sizes: an error, nothing sampled. */
  gemm_problem none = {.ab = TCJ_BF16, .c = TCJ_BF16, .m = 4, .n = 4, .k = 4, .group_mode = TCJ_GROUP_M_CONTIGUOUS,
                       .groups = 2};
  gemm_ref r;
  gemm_ref_inputs in = {.scale = 1.0};
  assert_int_equal(gemm_ref_compute_grouped(&none, &in, &r), -1);
  assert_int_equal(r.count, 0);
}

/* r's values laid out as D (count elements), each sampled exactly once and every one sampled. */
static void expect_d(const gemm_ref *r, const double *want, size_t count) {
  int seen[16] = {0};
  assert_true(count <= 16);
  assert_int_equal(r->count, count);
  for (size_t e = 0; e < r->count; e++) {
    size_t i = (size_t)r->index[e];
    assert_true(i < count);
    seen[i]++;
    if (fabs(r->value[e] - want[i]) > 1e-12 * (1 + fabs(want[i])))
      fail_msg("D[%zu] = %.17g, want %.17g", i, r->value[e], want[i]);
  }
  for (size_t i = 0; i < count; i++) assert_int_equal(seen[i], 1);
}

static double silu(double v) { return v / (1 + exp(-v)); }

/* The MoE semantics on small cases computed by hand: SwiGLU (gate columns [0, n), up [n, 2n),
 * each biased), row scales (scale_a per row, scale_b per column of each group), row_scale after
 * the activation, a row gather (an index outside A reads zeros), rows scattered to D, K groups (an
 * empty group's D is its bias) and pointer arrays (group g's B at the entry b_slot names). */
static void moe_reference_is_the_hand_computed_value(void **state) {
  (void)state;
  gemm_ref r;
  { /* SwiGLU, one GEMM: A [1 2], B^T rows gate [1 1], up [1 1] (op_b T: 2n x k), bias [0.5 -1] */
    float a[2] = {1, 2}, b[4] = {1, 1, 1, 1}, bias[2] = {0.5f, -1};
    gemm_problem p = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 1, 1, 2);
    p.act = TCJ_ACT_SWIGLU;
    gemm_ref_inputs in = {.a = a, .b = b, .scale = 1};
    assert_int_equal(gemm_ref_compute(&p, &in, &r), 0);
    double want[1] = {silu(3) * 3};
    expect_d(&r, want, 1);
    gemm_ref_free(&r);
    p.bias = TCJ_BIAS_COL;
    in.bias = bias;
    assert_int_equal(gemm_ref_compute(&p, &in, &r), 0);
    want[0] = silu(3.5) * 2;
    expect_d(&r, want, 1);
    gemm_ref_free(&r);
    /* op_b N: B stored k x 2n, columns [0, n) gate: [[1 5] [1 -1]] gives g 3, u 3 */
    float bn[4] = {1, 5, 1, -1};
    p.op_b = TCJ_OP_N;
    p.bias = TCJ_BIAS_NONE;
    in.b = bn;
    in.bias = NULL;
    assert_int_equal(gemm_ref_compute(&p, &in, &r), 0);
    want[0] = silu(3) * (5 - 2);
    expect_d(&r, want, 1);
    gemm_ref_free(&r);
  }
  { /* fp8 row scales, two contiguous groups of one row; then row_scale */
    uint8_t a[2] = {f32_to_e4m3(1), f32_to_e4m3(2)};
    uint8_t b[4] = {f32_to_e4m3(1), f32_to_e4m3(2), f32_to_e4m3(3), f32_to_e4m3(4)}; /* G x n x k, op_b T */
    float sa[2] = {0.5f, 2}, sb[4] = {1, 0.25f, 2, 4}, rs[2] = {0.5f, 0.25f};
    int64_t sizes[2] = {1, 1};
    gemm_problem p = GEMM_PLAIN(TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 2, 2, 1);
    p.scale = TCJ_SCALE_ROW;
    p.group_mode = TCJ_GROUP_M_CONTIGUOUS;
    p.groups = 2;
    p.group_sizes = sizes;
    gemm_ref_inputs in = {.a = a, .b = b, .scale = 1, .scale_a = sa, .scale_b = sb};
    assert_int_equal(gemm_ref_compute_grouped(&p, &in, &r), 0);
    double want[4] = {0.5 * 1 * 1 * 1, 0.5 * 0.25 * 1 * 2, 2 * 2 * 2 * 3, 2 * 4 * 2 * 4};
    expect_d(&r, want, 4);
    gemm_ref_free(&r);
    in.row_scale = rs;
    p.row_scale = 1;
    assert_int_equal(gemm_ref_compute_grouped(&p, &in, &r), 0);
    double scaled[4] = {0.25, 0.125, 6, 16};
    expect_d(&r, scaled, 4);
    gemm_ref_free(&r);
    /* grouped per-tensor: scale 0.5 for A, scale_b one per group (stride 1) */
    p.scale = TCJ_SCALE_TENSOR;
    p.row_scale = 0;
    float sbt[2] = {4, 0.25f};
    gemm_ref_inputs tin = {.a = a, .b = b, .scale = 0.5, .scale_b = sbt};
    assert_int_equal(gemm_ref_compute_grouped(&p, &tin, &r), 0);
    double tensor[4] = {0.5 * 4 * 1, 0.5 * 4 * 2, 0.5 * 0.25 * 2 * 3, 0.5 * 0.25 * 2 * 4};
    expect_d(&r, tensor, 4);
    gemm_ref_free(&r);
  }
  { /* gather: A holds 3 rows; problem rows read rows 2 and 5 (outside: zeros) */
    float a[6] = {1, 1, 2, 2, 3, 3}, b[2] = {1, 10};
    int32_t gather[2] = {2, 5};
    int64_t sizes[1] = {2};
    gemm_problem p = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 2, 1, 2);
    p.group_mode = TCJ_GROUP_M_CONTIGUOUS;
    p.groups = 1;
    p.group_sizes = sizes;
    p.gather_rows = 3;
    gemm_ref_inputs in = {.a = a, .b = b, .scale = 1, .gather = gather};
    assert_int_equal(gemm_ref_compute_grouped(&p, &in, &r), 0);
    double want[2] = {33, 0};
    expect_d(&r, want, 2);
    gemm_ref_free(&r);
  }
  { /* scatter: two groups' three rows sent to D rows 2, 0, 1 (row r's value at D row scatter[r]),
     * router weights of the problem's rows */
    float a[3] = {1, 2, 3}, b[2] = {10, 100}, rs[3] = {1, 0.5f, 0.25f};
    int32_t scatter[3] = {2, 0, 1};
    int64_t sizes[2] = {1, 2};
    gemm_problem p = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 3, 1, 1);
    p.group_mode = TCJ_GROUP_M_CONTIGUOUS;
    p.groups = 2;
    p.group_sizes = sizes;
    p.row_scale = 1;
    p.scatter = 1 + TCJ_SCATTER_STORE;
    gemm_ref_inputs in = {.a = a, .b = b, .scale = 1, .row_scale = rs, .scatter = scatter};
    assert_int_equal(gemm_ref_compute_grouped(&p, &in, &r), 0);
    double want[3] = {2 * 100 * 0.5, 3 * 100 * 0.25, 1 * 10 * 1};
    expect_d(&r, want, 3);
    gemm_ref_free(&r);
  }
  { /* K groups {1, 0, 2} of k 3: A^T B per group, op_a T, op_b N; bias per group */
    float a[3] = {1, 2, 3}, b[3] = {4, 5, 6}, bias[3] = {0.5f, 1, -1};
    int64_t sizes[3] = {1, 0, 2};
    gemm_problem p = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 1, 1, 3);
    p.group_mode = TCJ_GROUP_K_CONTIGUOUS;
    p.groups = 3;
    p.group_sizes = sizes;
    gemm_ref_inputs in = {.a = a, .b = b, .scale = 1};
    assert_int_equal(gemm_ref_compute_grouped(&p, &in, &r), 0);
    double want[3] = {4, 0, 28};
    expect_d(&r, want, 3);
    gemm_ref_free(&r);
    p.bias = TCJ_BIAS_COL;
    in.bias = bias;
    assert_int_equal(gemm_ref_compute_grouped(&p, &in, &r), 0);
    double biased[3] = {4.5, 1, 27};
    expect_d(&r, biased, 3);
    gemm_ref_free(&r);
  }
  { /* pointer arrays: masked groups, group 0's pointer at B entry 1, group 1's at entry 0 */
    float a[2] = {2, 3}, b[2] = {10, 100};
    int64_t sizes[2] = {1, 1}, slot[2] = {1, 0};
    gemm_problem p = GEMM_PLAIN(TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 1, 1, 1);
    p.group_mode = TCJ_GROUP_M_MASKED;
    p.groups = 2;
    p.group_sizes = sizes;
    p.b_ptrs = 1;
    gemm_ref_inputs in = {.a = a, .b = b, .scale = 1, .b_slot = slot};
    assert_int_equal(gemm_ref_compute_grouped(&p, &in, &r), 0);
    double want[2] = {200, 30};
    expect_d(&r, want, 2);
    gemm_ref_free(&r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(reference_is_the_definition_at_every_sampled_element),
    cmocka_unit_test(sample_spans_the_output_within_the_budget),
    cmocka_unit_test(f64_sums_are_compensated),
    cmocka_unit_test(errors_see_wrong_nan_and_exact_elements),
    cmocka_unit_test(bounds_and_where_the_figures_apply),
    cmocka_unit_test(grouped_reference_samples_every_group),
    cmocka_unit_test(moe_reference_is_the_hand_computed_value),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
