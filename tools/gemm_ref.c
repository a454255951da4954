/* SPDX-License-Identifier: Apache-2.0 */
/* The host reference on sampled elements of D (gemm_ref.h): decode the operands to double, sum
 * the products per sampled element (error-free transformations for f64), then the scale, bias
 * and activation as the problem defines them. */
#include "tools/gemm_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/host_half.h"

double gemm_ref_get(tcj_dtype t, const void *buf, size_t i) {
  switch (t) {
  case TCJ_F16: return f16_to_f32(((const uint16_t *)buf)[i]);
  case TCJ_BF16: return bf16_to_f32(((const uint16_t *)buf)[i]);
  case TCJ_E4M3: return e4m3_to_f32(((const uint8_t *)buf)[i]);
  case TCJ_E5M2: return e5m2_to_f32(((const uint8_t *)buf)[i]);
  case TCJ_S8: return ((const int8_t *)buf)[i];
  case TCJ_S32: return ((const int32_t *)buf)[i];
  case TCJ_F64: return ((const double *)buf)[i];
  default: return ((const float *)buf)[i]; /* f32, tf32 */
  }
}

static double activation(tcj_activation a, double v) {
  switch (a) {
  case TCJ_ACT_RELU: return v > 0 ? v : 0;
  case TCJ_ACT_GELU: return 0.5 * v * (1 + erf(v * M_SQRT1_2));
  case TCJ_ACT_GELU_TANH: return 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
  case TCJ_ACT_SILU: return v / (1 + exp(-v));
  default: return v;
  }
}

int gemm_ref_accuracy_applies(const gemm_problem *p) {
  tcj_dtype out = gemm_out_dtype(p);
  return p->ab != TCJ_S8 && out != TCJ_S32 && p->bias == TCJ_BIAS_NONE && p->act == TCJ_ACT_NONE &&
         !p->epilogue_source;
}

int gemm_ref_checks_accuracy(const gemm_problem *p) {
  return (p->ab == TCJ_F32 || p->ab == TCJ_F64) && gemm_ref_accuracy_applies(p);
}

double gemm_ref_bound(const gemm_problem *p) {
  double k2 = (double)p->k + 2;
  if (p->ab == TCJ_F32) return k2 * 0x1p-23 + 0x1p-20;
  if (p->ab == TCJ_F64) return k2 * 0x1p-52;
  return 0;
}

/* ---- the sample ------------------------------------------------------------------------------ */

typedef struct sample {
  int64_t rows_total, nrows, ncols, col_step;
  int64_t *rows; /* ascending rows of D over the batch (z * m + i) */
  int64_t *cols; /* ascending columns */
} sample;

/* r-th of count values spread over 0 .. total - 1, the ends included, without overflow. */
static int64_t spread(int64_t r, int64_t count, int64_t total) {
  if (count <= 1) return 0;
  int64_t span = total - 1, d = count - 1;
  return span / d * r + span % d * r / d;
}

static int make_sample(const gemm_problem *p, sample *s) {
  int64_t k = p->k > 0 ? p->k : 1, n = p->n;
  memset(s, 0, sizeof *s);
  s->rows_total = gemm_batch(p) * p->m;
  if (s->rows_total == 0 || n == 0) return 0;
  /* Columns first (a row's worth of multiply-adds at least), then as many rows as the rest of
   * the budget pays for. */
  int64_t cols_max = GEMM_REF_MACS / k;
  if (cols_max > GEMM_REF_MAX_COLS) cols_max = GEMM_REF_MAX_COLS;
  if (cols_max < 1) cols_max = 1;
  s->col_step = (n + cols_max - 1) / cols_max;
  s->ncols = (n + s->col_step - 1) / s->col_step;
  int last_apart = (s->ncols - 1) * s->col_step != n - 1; /* the last column, beyond the step */
  s->ncols += last_apart;
  int64_t rows = GEMM_REF_MACS / (s->ncols * k);
  if (rows > GEMM_REF_MAX_ROWS) rows = GEMM_REF_MAX_ROWS;
  if (rows > s->rows_total) rows = s->rows_total;
  s->nrows = rows < 1 ? 1 : rows;
  s->rows = malloc((size_t)s->nrows * sizeof *s->rows);
  s->cols = malloc((size_t)s->ncols * sizeof *s->cols);
  if (!s->rows || !s->cols) return -1;
  for (int64_t r = 0; r < s->nrows; r++) s->rows[r] = spread(r, s->nrows, s->rows_total);
  for (int64_t c = 0; c < s->ncols; c++) s->cols[c] = c * s->col_step;
  if (last_apart) s->cols[s->ncols - 1] = n - 1;
  return 0;
}

static void free_sample(sample *s) {
  free(s->rows);
  free(s->cols);
}

/* ---- sums ------------------------------------------------------------------------------------ */

/* Running sums of count elements: the products' sum, its compensation (f64: the rounding errors
 * of every product and addition, gathered exactly as Ogita, Rump and Oishi's Dot2 does, so the
 * result is as accurate as a sum in twice the precision), and the sum of |products|. */
typedef struct sums {
  double *sum, *comp, *abs;
  int exact; /* compensate: f64 operands (the products of narrower types are exact in double) */
} sums;

/* sums[i] += x * y[i] for i < count: the elements of one row (or column) of the sample move on
 * together, so the inner loop runs over independent sums. */
static void add_products(const sums *s, size_t at, double x, const double *y, size_t count) {
  double *sum = s->sum + at, *comp = s->comp + at, *abs = s->abs + at;
  if (!s->exact) {
    for (size_t i = 0; i < count; i++) {
      double prod = x * y[i];
      sum[i] += prod;
      abs[i] += fabs(prod);
    }
    return;
  }
  for (size_t i = 0; i < count; i++) {
    double prod = x * y[i], prod_err = fma(x, y[i], -prod); /* prod + prod_err == x y exactly */
    double t = sum[i] + prod, b = t - sum[i];
    double add_err = (sum[i] - (t - b)) + (prod - b); /* TwoSum: t + add_err == sum + prod */
    sum[i] = t;
    comp[i] += add_err + prod_err;
    abs[i] += fabs(prod);
  }
}

/* Element (i, l) of op(A) and (l, j) of op(B) of batch entry z, as stored. */
static size_t a_at(const gemm_problem *p, int64_t z, int64_t i, int64_t l) {
  int64_t lda = gemm_lda(p);
  return (size_t)(z * gemm_stride_a(p) + (p->op_a == TCJ_OP_N ? i * lda + l : l * lda + i));
}
static size_t b_at(const gemm_problem *p, int64_t z, int64_t l, int64_t j) {
  int64_t ldb = gemm_ldb(p);
  return (size_t)(z * gemm_stride_b(p) + (p->op_b == TCJ_OP_N ? l * ldb + j : j * ldb + l));
}

/* The sums of the sampled rows first .. first + nrows - 1 (all of batch entry z) at every sampled
 * column. op(A)'s rows are decoded once into a_t (k x nrows, so that a value of op(B) meets every
 * row in one inner loop), and B is read along its stored rows: with op_b N a row of B holds an l
 * of every column (the inner loop runs over columns; sums at [row][col]), with op_b T one
 * column's k values (the inner loop runs over rows; sums at [col][row]). tmp: max(ncols, k). */
static void sum_entry(const gemm_problem *p, const gemm_ref_inputs *in, const sample *s, int64_t z, int64_t first,
                      int64_t nrows, const sums *acc, double *a_t, double *tmp) {
  tcj_dtype bt = gemm_b_dtype(p);
  int64_t k = p->k, ncols = s->ncols;
  for (int64_t r = 0; r < nrows; r++) {
    int64_t i = s->rows[first + r] % p->m;
    for (int64_t l = 0; l < k; l++) a_t[l * nrows + r] = gemm_ref_get(p->ab, in->a, a_at(p, z, i, l));
  }
  if (p->op_b == TCJ_OP_N) {
    for (int64_t l = 0; l < k; l++) {
      for (int64_t c = 0; c < ncols; c++) tmp[c] = gemm_ref_get(bt, in->b, b_at(p, z, l, s->cols[c]));
      for (int64_t r = 0; r < nrows; r++)
        add_products(acc, (size_t)((first + r) * ncols), a_t[l * nrows + r], tmp, (size_t)ncols);
    }
    return;
  }
  for (int64_t c = 0; c < ncols; c++) {
    for (int64_t l = 0; l < k; l++) tmp[l] = gemm_ref_get(bt, in->b, b_at(p, z, l, s->cols[c]));
    for (int64_t l = 0; l < k; l++)
      add_products(acc, (size_t)(c * s->nrows + first), tmp[l], a_t + l * nrows, (size_t)nrows);
  }
}

/* The reference of one sampled element from its sums: scale, bias, activation; and its unit. */
static void finish(const gemm_problem *p, const gemm_ref_inputs *in, int64_t row, int64_t col, double sum,
                   double abs, double *value, double *unit) {
  double v = in->scale * sum, u = fabs(in->scale) * abs;
  if (p->bias != TCJ_BIAS_NONE) {
    int64_t z = row / p->m, i = row % p->m;
    double bias = gemm_ref_get(gemm_bias_dtype(p), in->bias,
                               (size_t)(z * gemm_stride_bias(p) + (p->bias == TCJ_BIAS_ROW ? i : col)));
    v += bias;
    u += fabs(bias);
  }
  *value = activation(p->act, v);
  *unit = u > 0 ? u : 1;
}

int gemm_ref_compute(const gemm_problem *p, const gemm_ref_inputs *in, gemm_ref *out) {
  if (gemm_ref_is_moe(p) || gemm_is_grouped(p)) return gemm_ref_compute_grouped(p, in, out);
  sample s;
  sums acc = {NULL, NULL, NULL, p->ab == TCJ_F64};
  double *a_t = NULL, *tmp = NULL;
  int rc = -1;
  memset(out, 0, sizeof *out);
  int sampled = make_sample(p, &s);
  size_t count = (size_t)(s.nrows * s.ncols), k = (size_t)(p->k > 0 ? p->k : 0);
  if (sampled != 0) goto done;
  if (count == 0) return 0; /* an empty D */
  acc.sum = calloc(3 * count, sizeof *acc.sum);
  a_t = malloc((k * (size_t)s.nrows + 1) * sizeof *a_t);
  tmp = malloc((k > (size_t)s.ncols ? k : (size_t)s.ncols) * sizeof *tmp);
  out->index = malloc(count * sizeof *out->index);
  out->value = malloc(count * sizeof *out->value);
  out->unit = malloc(count * sizeof *out->unit);
  if (!acc.sum || !a_t || !tmp || !out->index || !out->value || !out->unit) goto done;
  acc.comp = acc.sum + count;
  acc.abs = acc.sum + 2 * count;
  /* Batch entry by batch entry: the sampled rows of one entry share its B. */
  for (int64_t first = 0, last; first < s.nrows; first = last) {
    int64_t z = s.rows[first] / p->m;
    for (last = first + 1; last < s.nrows && s.rows[last] / p->m == z; last++) {}
    sum_entry(p, in, &s, z, first, last - first, &acc, a_t, tmp);
  }
  for (int64_t r = 0; r < s.nrows; r++)
    for (int64_t c = 0; c < s.ncols; c++) {
      size_t e = (size_t)(r * s.ncols + c), from = p->op_b == TCJ_OP_N ? e : (size_t)(c * s.nrows + r);
      out->index[e] = s.rows[r] * p->n + s.cols[c];
      finish(p, in, s.rows[r], s.cols[c], acc.sum[from] + acc.comp[from], acc.abs[from], &out->value[e],
             &out->unit[e]);
    }
  out->count = count;
  rc = 0;
done:
  if (rc != 0) gemm_ref_free(out);
  free_sample(&s);
  free(acc.sum);
  free(a_t);
  free(tmp);
  return rc;
}

int gemm_ref_is_moe(const gemm_problem *p) {
  return p->act == TCJ_ACT_SWIGLU || p->row_scale || p->scale == TCJ_SCALE_ROW;
}

/* One group (or batch entry) of a problem as the reference reads it. */
typedef struct ref_unit {
  int64_t g, rows;    /* rows of D it owns */
  int64_t d_row0;     /* its first row of D over the entries (the per-row values' index too) */
  int64_t a_row0;     /* its first row of A within a_base (CONTIGUOUS: the problem's row) */
  int64_t a_base;     /* A's entry offset in elements */
  int64_t b_base;     /* B's entry offset in elements */
  int64_t k0, k1;     /* its range of K */
} ref_unit;

static ref_unit unit_of(const gemm_problem *p, const gemm_ref_inputs *in, int64_t g, int64_t start) {
  int64_t m = p->m, k = p->k, b_entry = in->b_slot ? in->b_slot[g] : g;
  ref_unit u = {.g = g, .rows = m, .d_row0 = g * m, .k0 = 0, .k1 = k};
  switch (p->group_mode) {
  case TCJ_GROUP_M_CONTIGUOUS:
    u.rows = p->group_sizes[g];
    u.d_row0 = u.a_row0 = start;
    u.b_base = b_entry * k * gemm_b_cols(p);
    break;
  case TCJ_GROUP_M_MASKED:
    u.rows = p->group_sizes[g];
    u.a_base = g * m * k;
    u.b_base = b_entry * k * gemm_b_cols(p);
    break;
  case TCJ_GROUP_K_CONTIGUOUS:
    u.k0 = start;
    u.k1 = start + p->group_sizes[g];
    break;
  default: /* a batch entry */
    u.a_base = g * gemm_stride_a(p);
    u.b_base = g * gemm_stride_b(p);
    break;
  }
  return u;
}

/* op(A)'s row (unit row r) into arow[l] for l in [k0, k1); a gathered row outside A reads zeros. */
static void load_a_row(const gemm_problem *p, const gemm_ref_inputs *in, const ref_unit *u, int64_t r, double *arow) {
  int64_t i = u->a_row0 + r, lda = gemm_lda(p);
  int outside = 0;
  if (in->gather) {
    i = in->gather[i];
    outside = i < 0 || i >= p->gather_rows;
  }
  for (int64_t l = u->k0; l < u->k1; l++)
    arow[l] = outside ? 0
                      : gemm_ref_get(p->ab, in->a, (size_t)(u->a_base + (p->op_a == TCJ_OP_N ? i * lda + l : l * lda + i)));
}

static void load_b_col(const gemm_problem *p, const gemm_ref_inputs *in, const ref_unit *u, int64_t j, double *bcol) {
  int64_t ldb = gemm_ldb(p);
  for (int64_t l = u->k0; l < u->k1; l++)
    bcol[l] =
      gemm_ref_get(gemm_b_dtype(p), in->b, (size_t)(u->b_base + (p->op_b == TCJ_OP_N ? l * ldb + j : j * ldb + l)));
}

/* The scale of op(B)'s column c in unit u's row `row` (of D over the entries): fp8's per-tensor
 * product, times the row scales or the group's B scale. */
static double scale_at(const gemm_problem *p, const gemm_ref_inputs *in, const ref_unit *u, int64_t row, int64_t c) {
  double f = in->scale;
  if (in->scale_a) f *= in->scale_a[row];
  if (in->scale_b) f *= in->scale_b[u->g * gemm_stride_scale_b(p) + (p->scale == TCJ_SCALE_ROW ? c : 0)];
  return f;
}

int gemm_ref_compute_grouped(const gemm_problem *p, const gemm_ref_inputs *in, gemm_ref *out) {
  memset(out, 0, sizeof *out);
  int grouped = gemm_is_grouped(p), kmode = gemm_is_kgrouped(p), swiglu = p->act == TCJ_ACT_SWIGLU;
  if (grouped && !p->group_sizes) return -1;
  int64_t G = grouped ? p->groups : gemm_batch(p), m = p->m, n = p->n, k = p->k, nonempty = 0, total_rows = 0;
  int64_t bc = gemm_b_cols(p);
  for (int64_t g = 0; g < G; g++) {
    int64_t rows = kmode || !grouped ? m : p->group_sizes[g];
    if (rows > GEMM_REF_GROUP_ROWS) rows = GEMM_REF_GROUP_ROWS;
    nonempty += rows > 0;
    total_rows += rows;
  }
  if (nonempty == 0 || n == 0) return 0;
  int64_t kk = k > 0 ? k : 1, cols = GEMM_REF_MACS / (total_rows * kk * (swiglu ? 2 : 1));
  if (cols > GEMM_REF_MAX_COLS) cols = GEMM_REF_MAX_COLS;
  if (cols < GEMM_REF_GROUP_MIN_COLS) cols = GEMM_REF_GROUP_MIN_COLS;
  if (cols > n) cols = n;
  size_t count = (size_t)(total_rows * cols);
  double *arow = malloc((size_t)kk * GEMM_REF_GROUP_ROWS * sizeof *arow), *bcol = malloc(2 * (size_t)kk * sizeof *bcol);
  out->index = malloc(count * sizeof *out->index);
  out->value = malloc(count * sizeof *out->value);
  out->unit = malloc(count * sizeof *out->unit);
  if (!arow || !bcol || !out->index || !out->value || !out->unit) {
    free(arow);
    free(bcol);
    gemm_ref_free(out);
    return -1;
  }
  size_t e = 0;
  int64_t start = 0; /* CONTIGUOUS: the group's first row; K: its first K */
  for (int64_t g = 0; g < G; g++) {
    ref_unit u = unit_of(p, in, g, start);
    if (grouped && !kmode && p->group_mode == TCJ_GROUP_M_CONTIGUOUS) start += p->group_sizes[g];
    if (kmode) start += p->group_sizes[g] > 0 ? p->group_sizes[g] : 0;
    int64_t nrows = u.rows < GEMM_REF_GROUP_ROWS ? u.rows : GEMM_REF_GROUP_ROWS, row[GEMM_REF_GROUP_ROWS];
    if (nrows <= 0) continue;
    for (int64_t r = 0; r < nrows; r++) {
      row[r] = spread(r, nrows, u.rows);
      load_a_row(p, in, &u, row[r], arow + r * kk);
    }
    for (int64_t c = 0; c < cols; c++) {
      int64_t j = spread(c, cols, n);
      load_b_col(p, in, &u, j, bcol);
      if (swiglu) load_b_col(p, in, &u, n + j, bcol + kk);
      int64_t bias_at = (grouped ? g : p->broadcast_b ? 0 : g) * bc;
      double bias = p->bias != TCJ_BIAS_NONE ? gemm_ref_get(gemm_bias_dtype(p), in->bias, (size_t)(bias_at + j)) : 0;
      double bias_u = p->bias != TCJ_BIAS_NONE && swiglu
                        ? gemm_ref_get(gemm_bias_dtype(p), in->bias, (size_t)(bias_at + n + j))
                        : 0;
      for (int64_t r = 0; r < nrows; r++, e++) {
        double sum = 0, abs = 0, sum_u = 0, abs_u = 0;
        const double *a_r = arow + r * kk;
        for (int64_t l = u.k0; l < u.k1; l++) {
          double prod = a_r[l] * bcol[l];
          sum += prod;
          abs += fabs(prod);
          if (swiglu) {
            double prod_u = a_r[l] * bcol[kk + l];
            sum_u += prod_u;
            abs_u += fabs(prod_u);
          }
        }
        int64_t d_row = u.d_row0 + row[r];
        double f = scale_at(p, in, &u, d_row, j), v = f * sum + bias, unit = fabs(f) * abs + fabs(bias), value;
        if (swiglu) { /* silu(g) u; |silu'| <= 1.1 and |silu(g)| <= |g| bound how each error carries */
          double f_u = scale_at(p, in, &u, d_row, n + j), w = f_u * sum_u + bias_u;
          double unit_u = fabs(f_u) * abs_u + fabs(bias_u);
          value = activation(TCJ_ACT_SILU, v) * w;
          unit = 1.1 * fabs(w) * unit + fabs(v) * unit_u;
        } else {
          value = activation(p->act, v);
        }
        if (in->row_scale) {
          value *= in->row_scale[d_row];
          unit *= fabs((double)in->row_scale[d_row]);
        }
        out->index[e] = (in->scatter ? in->scatter[d_row] : d_row) * n + j; /* D's row: where it was sent */
        out->value[e] = value;
        out->unit[e] = unit > 0 ? unit : 1;
      }
    }
  }
  out->count = e;
  free(arow);
  free(bcol);
  return 0;
}

void gemm_ref_free(gemm_ref *r) {
  free(r->index);
  free(r->value);
  free(r->unit);
  memset(r, 0, sizeof *r);
}

/* ---- errors ---------------------------------------------------------------------------------- */

double gemm_ref_max_error(const gemm_ref *r, tcj_dtype out, const void *d) {
  double worst = 0;
  for (size_t i = 0; i < r->count; i++) {
    double e = fabs(gemm_ref_get(out, d, (size_t)r->index[i]) - r->value[i]) / r->unit[i];
    if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
  }
  return worst;
}

double gemm_ref_frobenius(const gemm_ref *r, tcj_dtype out, const void *d, int64_t *diff, double *ref_norm) {
  double e2 = 0, r2 = 0;
  *diff = 0;
  for (size_t i = 0; i < r->count; i++) {
    double e = gemm_ref_get(out, d, (size_t)r->index[i]) - r->value[i];
    if (isnan(e)) e = INFINITY;
    *diff += e != 0;
    e2 += e * e;
    r2 += r->value[i] * r->value[i];
  }
  *ref_norm = sqrt(r2);
  return r2 > 0 ? sqrt(e2 / r2) : sqrt(e2);
}
