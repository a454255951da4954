/* SPDX-License-Identifier: Apache-2.0 */
/* The check of tcj's output (gemm_runner.h): against the baseline element by element, or against
 * the float64 reference of gemm_ref.c (which holds the baseline to it too), and the bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/gemm_ref.h"
#include "tools/gemm_runner_int.h"


/* The output's rounding sets the bound; an activation multiplies it by 1.5: its slope reaches
 * 1.13 (GELU) and a baseline that rounds D before its activation kernel rounds twice. fp8's fast
 * accumulation adds the error of the tensor cores' narrower accumulator (about 14 mantissa bits
 * on Hopper, by DeepSeek-V3's report): at least 1e-3, which only an f32 output notices. */
double gr_bound(const gemm_problem *p) {
  tcj_dtype out = gemm_out_dtype(p);
  if (out == TCJ_S32) return 0; /* integer sums, an integer bias and ReLU are exact */
  double bound = p->ab == TCJ_TF32 ? 1e-2 : out == TCJ_F16 ? 2e-3 : out == TCJ_BF16 ? 1e-2 : 1e-4;
  if (gemm_dtype_is_fp8(p->ab) && p->fast_accum && bound < 1e-3) bound = 1e-3;
  return p->act != TCJ_ACT_NONE ? 1.5 * bound : bound;
}

/* |GELU_erf(x) - GELU_tanh(x)| <= 4.74e-4 for every x: what may part tcj's erf GELU from
 * cuBLASLt's GELU_BIAS, which computes the tanh form. */
#define GELU_FORMS_APART 5e-4

/* ---- the check ------------------------------------------------------------------------------ */

int gr_read_back(void *host, const void *dev, size_t bytes, cudaStream_t stream, char *note, size_t note_size) {
  cudaError_t ce;
  if (!bytes) return 0;
  if ((ce = cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, stream)) ||
      (ce = cudaStreamSynchronize(stream))) {
    snprintf(note, note_size, "read-back: %s", cudaGetErrorName(ce));
    return -1;
  }
  return 0;
}

/* What tcj's output is held to: the baseline's, element by element (16-bit, tf32 and s8 types,
 * epilogues); the float64 reference's relative Frobenius error at sampled elements (fp8, whose
 * operands make an exact reference); or its accuracy figure, as an fp32- or fp64-accurate GEMM
 * must meet it (f32, f64). The last two hold the baseline to the same. */
typedef enum check_kind { BY_BASELINE, BY_REF_FROBENIUS, BY_REF_ACCURACY } check_kind;

static check_kind check_kind_of(const gemm_problem *p) {
  if (gemm_is_grouped(p) || gemm_ref_is_moe(p)) return BY_REF_FROBENIUS; /* every group's sampled rows */
  if (gemm_ref_checks_accuracy(p)) return BY_REF_ACCURACY;
  return gemm_dtype_is_fp8(p->ab) ? BY_REF_FROBENIUS : BY_BASELINE;
}

/* The float64 reference on host copies of set 0's inputs. Returns 0, or -1 with note. */
static int reference(const gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, gemm_ref *ref, char *note,
                     size_t note_size) {
  size_t b_entries = (size_t)gemm_b_entries(p), bc = (size_t)gemm_b_cols(p);
  size_t na = (size_t)gemm_a_elems(p) * gemm_dtype_size(p->ab);
  size_t nb = b_entries * (size_t)p->k * bc * gemm_dtype_size(gemm_b_dtype(p));
  size_t nbias = p->bias != TCJ_BIAS_NONE ? (size_t)gemm_bias_entries(p) * bc * gemm_dtype_size(gemm_bias_dtype(p)) : 0;
  void *a = malloc(na + 1), *b = malloc(nb + 1), *bias = malloc(nbias + 1);
  int rc = -1;
  if (!a || !b || !bias) {
    snprintf(note, note_size, "host out of memory (the reference's operands)");
  } else if (!gr_read_back(a, buf->a[0], na, g->stream, note, note_size) &&
             !gr_read_back(b, buf->b[0], nb, g->stream, note, note_size) &&
             !gr_read_back(bias, buf->bias[0], nbias, g->stream, note, note_size)) {
    gemm_ref_inputs in = {.a = a, .b = b, .bias = nbias ? bias : NULL,
                          .scale = gemm_dtype_is_fp8(p->ab) ? (double)GR_SCALE_A * (double)GR_SCALE_B : 1.0,
                          .row_scale = buf->h_row_scale, .gather = buf->h_gather, .scatter = buf->h_scatter,
                          .b_slot = buf->h_b_slot};
    if (buf->h_scales) { /* row scales, or grouped per-tensor ones: gr_extras_fill's */
      in.scale = p->scale == TCJ_SCALE_ROW ? 1.0 : (double)buf->h_scales[0];
      in.scale_a = p->scale == TCJ_SCALE_ROW ? buf->h_scales : NULL;
      in.scale_b = buf->h_scales + gemm_scale_b_at(p);
    }
    if ((gemm_is_grouped(p) ? gemm_ref_compute_grouped(p, &in, ref) : gemm_ref_compute(p, &in, ref)) == 0) rc = 0;
    else snprintf(note, note_size, "host out of memory (the reference)");
  }
  free(a);
  free(b);
  free(bias);
  return rc;
}

/* The output of every element apart from the baseline's: tcj's relative Frobenius error against
 * it, within gr_bound (an exact bound, 0, for integer outputs). */
static gr_check_result judge_by_baseline(const gemm_problem *p, const gr_baseline *base, const char *label,
                                         const void *hc, const void *hr, size_t nc, gr_figures *fig, char *note,
                                         size_t note_size) {
  tcj_dtype out = gemm_out_dtype(p);
  double e2 = 0, r2 = 0;
  int64_t diff = 0;
  for (size_t i = 0; i < nc; i++) {
    double x = gemm_ref_get(out, hc, i), y = gemm_ref_get(out, hr, i), d = x - y;
    if (isnan(d)) d = INFINITY;
    diff += d != 0;
    e2 += d * d;
    r2 += y * y;
  }
  fig->rel_err = r2 > 0 ? sqrt(e2 / r2) : sqrt(e2);
  double bound = gr_bound(p);
  if (bound > 0 && p->act == TCJ_ACT_GELU && base && base->kind == GR_BASE_LT)
    bound += GELU_FORMS_APART * sqrt((double)nc) / (r2 > 0 ? sqrt(r2) : 1);
  if (bound == 0 ? diff != 0 : !(fig->rel_err <= bound)) {
    snprintf(note, note_size, "check vs %s failed: rel Frobenius error %.3g (bound %.3g), %lld elements differ",
             label, fig->rel_err, bound, (long long)diff);
    return GR_CHECK_MISMATCH;
  }
  return GR_CHECK_PASS;
}

/* How far one output (who: "tcj" or the baseline's label) is from the reference, and whether that
 * is within p's bound: the accuracy figure (f32, f64) or the relative Frobenius error (fp8; the
 * bound grows by GELU_FORMS_APART per element where the output's GELU is the tanh form). */
static int within_ref(const gemm_problem *p, check_kind kind, const gemm_ref *ref, const void *host, int tanh_gelu,
                      const char *who, char *note, size_t note_size) {
  tcj_dtype out = gemm_out_dtype(p);
  int64_t diff;
  double norm, frob = gemm_ref_frobenius(ref, out, host, &diff, &norm);
  if (kind == BY_REF_ACCURACY) {
    double err = gemm_ref_max_error(ref, out, host), bound = gemm_ref_bound(p);
    if (err <= bound) return 1;
    snprintf(note, note_size, "%s differs from the float64 reference: max |got - ref| / (|A||B|)_ij %.3g (bound %.3g) "
             "over %zu sampled elements, %lld differ", who, err, bound, ref->count, (long long)diff);
    return 0;
  }
  double bound = gr_bound(p);
  if (tanh_gelu && p->act == TCJ_ACT_GELU) bound += GELU_FORMS_APART * sqrt((double)ref->count) / (norm > 0 ? norm : 1);
  if (frob <= bound) return 1;
  snprintf(note, note_size, "%s differs from the float64 reference: rel Frobenius error %.3g (bound %.3g) over %zu "
           "sampled elements, %lld differ", who, frob, bound, ref->count, (long long)diff);
  return 0;
}

/* The first row of D (over its entries) that a grouped call must leave alone but that does not
 * hold what D started as (gr_d_start_byte) any more, or -1. A scattered D's rows past the routed
 * ones are their own (gr_extras_fill), so they are the same rows. */
static int64_t unwritten_row_written(const gemm_problem *p, const void *hc) {
  size_t row_bytes = (size_t)p->n * gemm_dtype_size(gemm_out_dtype(p));
  int64_t entries = gemm_entries(p), rows_total = 0;
  for (int64_t g = 0; g < p->groups; g++) rows_total += p->group_sizes[g];
  for (int64_t e = 0; e < entries; e++) {
    int64_t from = p->group_mode == TCJ_GROUP_M_MASKED ? p->group_sizes[e] : gemm_is_kgrouped(p) ? p->m : rows_total;
    for (int64_t i = from < 0 ? 0 : from; i < p->m; i++) {
      const unsigned char *row = (const unsigned char *)hc + (size_t)(e * p->m + i) * row_bytes;
      for (size_t b = 0; b < row_bytes; b++)
        if (row[b] != gr_d_start_byte(p)) return e * p->m + i;
    }
  }
  return -1;
}

gr_check_result gr_check(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const gr_buffers *buf,
                         gr_figures *fig, char *note, size_t note_size) {
  tcj_dtype out = gemm_out_dtype(p);
  check_kind kind = check_kind_of(p);
  int accuracy = gemm_ref_accuracy_applies(p), has_base = !base || base->kind != GR_BASE_NONE;
  size_t esc = gemm_dtype_size(out), nc = (size_t)gemm_entries(p) * (size_t)(p->m * p->n);
  void *dref = NULL, *hc = malloc(nc * esc + 1), *hr = malloc(nc * esc + 1);
  gemm_ref ref;
  gr_check_result res = GR_CHECK_ERROR;
  char why[256] = "", label[48];
  int base_ran = 0;
  int64_t diff;
  double norm;
  cudaError_t ce;
  memset(&ref, 0, sizeof ref);
  if (base) snprintf(label, sizeof label, "%s", base->label);
  else gr_baseline_label(p, label, sizeof label);
  fig->rel_err = fig->err_tcj = fig->err_blas = -1;
  if (!hc || !hr) {
    snprintf(note, note_size, "host out of memory");
    goto done;
  }
  if (gr_read_back(hc, buf->c[0], nc * esc, g->stream, note, note_size)) goto done;
  if (gemm_is_grouped(p)) { /* rows no group owns (MASKED: past counts[g]) must stay as poisoned */
    int64_t bad_row = unwritten_row_written(p, hc);
    if (bad_row >= 0) {
      snprintf(note, note_size, "tcj wrote row %lld of D, which no group owns (the rows past a masked group's count "
               "stay unwritten)", (long long)bad_row);
      res = GR_CHECK_MISMATCH;
      goto done;
    }
  }
  if ((kind != BY_BASELINE || accuracy) && reference(g, p, buf, &ref, note, note_size) != 0) goto done;
  if (accuracy) fig->err_tcj = gemm_ref_max_error(&ref, out, hc);
  /* The baseline on set 0's inputs into its own output, poisoned as tcj's was (on the stream:
   * cudaMemset's legacy stream does not order a non-blocking one). Its figures are kept even
   * when tcj's result fails: they tell which side is off. */
  if (has_base || kind == BY_BASELINE) {
    if ((ce = cudaMalloc(&dref, nc * esc)) || (ce = cudaMemsetAsync(dref, gr_d_start_byte(p), nc * esc, g->stream))) {
      snprintf(note, note_size, "setup: %s", cudaGetErrorName(ce));
      goto done;
    }
    base_ran = gr_baseline_run(g, p, base, buf->a[0], buf->b[0], dref, buf->bias[0], why, sizeof why) == 0;
    if (base_ran && gr_read_back(hr, dref, nc * esc, g->stream, note, note_size)) goto done;
    if (base_ran && accuracy) fig->err_blas = gemm_ref_max_error(&ref, out, hr);
  }
  if (kind == BY_BASELINE) {
    if (!base_ran) {
      snprintf(note, note_size, "cuBLAS: %s", why);
      res = GR_CHECK_BLAS_ERROR;
    } else {
      res = judge_by_baseline(p, base, label, hc, hr, nc, fig, note, note_size);
    }
    goto done;
  }
  fig->rel_err = gemm_ref_frobenius(&ref, out, hc, &diff, &norm);
  if (!within_ref(p, kind, &ref, hc, 0, "tcj", note, note_size)) {
    res = GR_CHECK_MISMATCH;
  } else if (has_base && !base_ran) {
    snprintf(note, note_size, "cuBLAS: %s", why);
    res = GR_CHECK_BLAS_ERROR;
  } else if (has_base && !within_ref(p, kind, &ref, hr, base && base->kind == GR_BASE_LT, label, note, note_size)) {
    /* A baseline off the reference (a wrong scale or layout) would skew every ratio. */
    size_t len = strlen(note);
    snprintf(note + len, note_size - len, ", not timed");
    res = GR_CHECK_BLAS_ERROR;
  } else {
    res = GR_CHECK_PASS;
  }
done:
  gemm_ref_free(&ref);
  cudaFree(dref);
  free(hc);
  free(hr);
  return res;
}


gr_check_result gr_check_baseline(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base,
                                  const gr_buffers *buf, char *note, size_t note_size) {
  check_kind kind = check_kind_of(p);
  if (kind == BY_BASELINE || !base || base->kind == GR_BASE_NONE) return GR_CHECK_PASS;
  tcj_dtype out = gemm_out_dtype(p);
  size_t nc = (size_t)gemm_entries(p) * (size_t)(p->m * p->n) * gemm_dtype_size(out);
  void *dref = NULL, *hr = malloc(nc + 1);
  gemm_ref ref;
  gr_check_result res = GR_CHECK_ERROR;
  char why[256] = "";
  cudaError_t ce;
  memset(&ref, 0, sizeof ref);
  if (!hr) {
    snprintf(note, note_size, "host out of memory");
    goto done;
  }
  if (reference(g, p, buf, &ref, note, note_size) != 0) goto done;
  if ((ce = cudaMalloc(&dref, nc)) || (ce = cudaMemsetAsync(dref, 0xff, nc, g->stream))) {
    snprintf(note, note_size, "setup: %s", cudaGetErrorName(ce));
    goto done;
  }
  if (gr_baseline_run(g, p, base, buf->a[0], buf->b[0], dref, buf->bias[0], why, sizeof why) != 0) {
    snprintf(note, note_size, "cuBLAS: %s", why);
    res = GR_CHECK_BLAS_ERROR;
    goto done;
  }
  if (gr_read_back(hr, dref, nc, g->stream, note, note_size)) goto done;
  res = within_ref(p, kind, &ref, hr, base->kind == GR_BASE_LT, base->label, note, note_size) ? GR_CHECK_PASS
                                                                                             : GR_CHECK_BLAS_ERROR;
done:
  gemm_ref_free(&ref);
  cudaFree(dref);
  free(hr);
  return res;
}
