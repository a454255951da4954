/* SPDX-License-Identifier: Apache-2.0 */
/* tools/prof_report: the roofline floor and derived figures from the formula with explicit
 * numbers (batches, broadcast operands, bias vectors and a separate D included), geometric means
 * over OK rows only (plain and fused apart), and the table, CSV and JSON read back: aligned
 * columns, epilogue, batch and baseline labels, both libraries' accuracy figures ("-" where not
 * measured, 0 where exact), RFC 4180 quoting, JSON that parses, strings that round-trip, no nan
 * or inf. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>

#include "tools/prof_report.h"

/* Relative comparison that prints both values. */
#define assert_close(got, want)                                                        \
  do {                                                                                 \
    double g_ = (got), w_ = (want);                                                    \
    if (!(fabs(g_ - w_) <= 1e-12 * fabs(w_) + 1e-300))                                 \
      fail_msg("%s = %.17g, want %.17g", #got, g_, w_);                                \
  } while (0)

static prof_row row(const char *name, tcj_dtype ab, tcj_dtype c, int64_t m, int64_t n,
                    int64_t k) {
  prof_row r;
  memset(&r, 0, sizeof r);
  snprintf(r.name, sizeof r.name, "%s", name);
  r.ab = ab;
  r.c = c;
  r.m = m;
  r.n = n;
  r.k = k;
  r.status = PROF_OK;
  r.runs = 20;
  r.err_tcj = r.err_blas = -1; /* not measured */
  return r;
}

static prof_row timed(const char *name, tcj_dtype ab, double tcj_us, double blas_us) {
  prof_row r = row(name, ab, ab == TCJ_E4M3 ? TCJ_BF16 : ab, 1024, 1024, 1024);
  r.tcj_us = tcj_us;
  r.blas_us = blas_us;
  return r;
}

static prof_device h200(void) {
  prof_device d;
  memset(&d, 0, sizeof d);
  snprintf(d.name, sizeof d.name, "NVIDIA H200");
  snprintf(d.driver, sizeof d.driver, "580.159.04");
  snprintf(d.cuda, sizeof d.cuda, "runtime 13.0, cuBLAS 13.0.0");
  snprintf(d.date, sizeof d.date, "2026-11-20T10:00:00Z");
  snprintf(d.command, sizeof d.command, "tcj-prof --suite bench/suite.yaml --out results");
  d.sm_count = 132;
  d.sm_clock_mhz = 1980;
  d.mem_clock_mhz = 3201;
  d.bandwidth_gbs = 4300;
  d.peak_tflops[TCJ_BF16] = 989;
  d.peak_tflops[TCJ_E4M3] = 1979;
  return d;
}

/* Output of a writer, as one NUL-terminated string the caller frees. */
typedef int (*writer)(FILE *, const prof_device *, const prof_row *, int);
static char *render(writer w, const prof_device *d, const prof_row *rows, int n) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(w(f, d, rows, n), 0);
  assert_int_equal(fclose(f), 0);
  /* A copy: GCC's -Wdangling-pointer takes pointers into buf for pointers to the local that
   * open_memstream was given. */
  char *out = strdup(buf);
  free(buf);
  assert_non_null(out);
  return out;
}

/* ---- math ----------------------------------------------------------------------------------- */

static void floor_of_a_large_square_is_its_compute_term(void **state) {
  (void)state;
  prof_row r = row("sq8192", TCJ_BF16, TCJ_BF16, 8192, 8192, 8192);
  double compute_us = 2.0 * 8192 * 8192 * 8192 / (989 * 1e12) * 1e6;      /* 1111.7 us */
  double memory_us = (3.0 * 8192 * 8192 * 2) / (4300 * 1e9) * 1e6;        /* 93.6 us */
  assert_true(compute_us > memory_us);
  assert_close(prof_floor_us(&r, 989, 4300), compute_us);
}

static void floor_of_a_decode_gemm_is_its_bandwidth_term(void **state) {
  (void)state;
  prof_row r = row("up_m1", TCJ_BF16, TCJ_BF16, 1, 28672, 4096);
  double bytes = (1.0 * 4096 + 4096.0 * 28672) * 2 + 1.0 * 28672 * 2; /* A, B, C written */
  assert_close(prof_bytes(&r), bytes);
  double compute_us = 2.0 * 1 * 28672 * 4096 / (989 * 1e12) * 1e6; /* 0.24 us */
  double memory_us = bytes / (4300 * 1e9) * 1e6;                   /* 54.6 us */
  assert_true(memory_us > compute_us);
  assert_close(prof_floor_us(&r, 989, 4300), memory_us);
}

static void floor_uses_the_term_that_is_known(void **state) {
  (void)state;
  prof_row r = row("sq8192", TCJ_BF16, TCJ_BF16, 8192, 8192, 8192);
  double compute_us = 2.0 * 8192 * 8192 * 8192 / (989 * 1e12) * 1e6;
  double memory_us = (3.0 * 8192 * 8192 * 2) / (4300 * 1e9) * 1e6;
  assert_close(prof_floor_us(&r, 0, 4300), memory_us);
  assert_close(prof_floor_us(&r, NAN, 4300), memory_us);
  assert_close(prof_floor_us(&r, 989, 0), compute_us);
  assert_close(prof_floor_us(&r, 989, -1), compute_us);
  assert_true(prof_floor_us(&r, 0, 0) == 0);
}

static void bytes_count_each_operand_at_its_dtype_size(void **state) {
  (void)state;
  static const struct {
    tcj_dtype ab, c;
    double es_ab, es_c;
  } cases[] = {
    {TCJ_F16, TCJ_F32, 2, 4},   {TCJ_BF16, TCJ_BF16, 2, 2}, {TCJ_TF32, TCJ_F32, 4, 4},
    {TCJ_F32, TCJ_F32, 4, 4},   {TCJ_E4M3, TCJ_BF16, 1, 2}, {TCJ_E5M2, TCJ_F16, 1, 2},
    {TCJ_S8, TCJ_S32, 1, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    prof_row r = row("p", cases[i].ab, cases[i].c, 3, 5, 7);
    double want = (3 * 7 + 7 * 5) * cases[i].es_ab + 3 * 5 * cases[i].es_c;
    if (prof_bytes(&r) != want)
      fail_msg("%s>%s: %g bytes, want %g", tcj_dtype_name(cases[i].ab),
               tcj_dtype_name(cases[i].c), prof_bytes(&r), want);
  }
}

/* A batch counts every entry's flops and bytes, a broadcast B and its bias once; the bias is of
 * D's type (f32 for s32); a separate D's type replaces C's. */
static void batches_bias_and_separate_d_count_in_flops_and_bytes(void **state) {
  (void)state;
  prof_row r = row("b", TCJ_BF16, TCJ_BF16, 3, 5, 7);
  r.batch = 4;
  assert_close(prof_flops(&r), 2.0 * 3 * 5 * 7 * 4);
  assert_close(prof_bytes(&r), 4 * ((3 * 7 + 7 * 5) * 2.0 + 3 * 5 * 2.0));
  r.broadcast_b = 1;
  assert_close(prof_bytes(&r), 4 * (3 * 7 * 2.0 + 3 * 5 * 2.0) + 7 * 5 * 2.0);
  r.bias = TCJ_BIAS_COL;
  r.act = TCJ_ACT_GELU;
  assert_close(prof_bytes(&r), 4 * (3 * 7 * 2.0 + 3 * 5 * 2.0) + 7 * 5 * 2.0 + 5 * 2.0);
  r.broadcast_b = 0;
  r.has_d = 1;
  r.d = TCJ_F32;
  assert_close(prof_bytes(&r), 4 * ((3 * 7 + 7 * 5) * 2.0 + 3 * 5 * 4.0 + 5 * 4.0));
  assert_int_equal(prof_out_dtype(&r), TCJ_F32);
  prof_row s8 = row("s8", TCJ_S8, TCJ_S32, 3, 5, 7);
  s8.bias = TCJ_BIAS_COL;
  assert_close(prof_bytes(&s8), (3 * 7 + 7 * 5) * 1.0 + 3 * 5 * 4.0 + 5 * 4.0);
  /* batch 0 (a zeroed row) and 1 are one GEMM. */
  prof_row one = row("one", TCJ_BF16, TCJ_BF16, 3, 5, 7);
  assert_int_equal(prof_batch(&one), 1);
  one.batch = 1;
  one.broadcast_b = 1;
  assert_close(prof_bytes(&one), (3 * 7 + 7 * 5) * 2.0 + 3 * 5 * 2.0);
  assert_false(prof_fused(&one));
  one.has_d = 1; /* a separate D alone is a plain GEMM */
  assert_false(prof_fused(&one));
  assert_true(prof_fused(&r));
}

/* Grouped rows count the rows computed and the weights of non-empty groups; SwiGLU's op(B) has
 * 2n columns (gate and up) for D's n; K groups count the routed K and every group's D. */
static void grouped_swiglu_and_k_groups_count_what_they_compute(void **state) {
  (void)state;
  prof_row r = row("g", TCJ_BF16, TCJ_BF16, 100, 5, 7);
  r.group_mode = TCJ_GROUP_M_CONTIGUOUS;
  r.groups = 4, r.group_nonempty = 3, r.group_rows = 90;
  assert_close(prof_flops(&r), 2.0 * 90 * 5 * 7);
  assert_close(prof_bytes(&r), (90 * 7 + 3 * 7 * 5) * 2.0 + 90 * 5 * 2.0);
  r.act = TCJ_ACT_SWIGLU;
  assert_close(prof_flops(&r), 2.0 * 90 * 10 * 7);
  assert_close(prof_bytes(&r), (90 * 7 + 3 * 7 * 10) * 2.0 + 90 * 5 * 2.0);
  prof_row kg = row("k", TCJ_BF16, TCJ_BF16, 3, 5, 700);
  kg.group_mode = TCJ_GROUP_K_CONTIGUOUS;
  kg.groups = 4, kg.group_nonempty = 3, kg.group_rows = 600; /* 600 of k's 700 rows routed */
  assert_close(prof_flops(&kg), 2.0 * 3 * 5 * 600);
  assert_close(prof_bytes(&kg), 600 * (3 + 5) * 2.0 + 4 * 3 * 5 * 2.0);
}

static void epilogue_and_batch_labels_follow_the_manifest_names(void **state) {
  (void)state;
  static const struct { tcj_bias_kind bias; tcj_activation act; int user; const char *want; } cases[] = {
    {TCJ_BIAS_NONE, TCJ_ACT_NONE, 0, "none"},          {TCJ_BIAS_COL, TCJ_ACT_NONE, 0, "bias"},
    {TCJ_BIAS_COL, TCJ_ACT_RELU, 0, "bias_relu"},      {TCJ_BIAS_COL, TCJ_ACT_GELU, 0, "bias_gelu"},
    {TCJ_BIAS_COL, TCJ_ACT_GELU_TANH, 0, "bias_gelu_tanh"}, {TCJ_BIAS_COL, TCJ_ACT_SILU, 0, "bias_silu"},
    {TCJ_BIAS_NONE, TCJ_ACT_NONE, 1, "user"},          {TCJ_BIAS_COL, TCJ_ACT_GELU, 1, "bias_gelu+user"},
    {TCJ_BIAS_NONE, TCJ_ACT_RELU, 0, "relu"},
  };
  char out[32];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    prof_row r = row("e", TCJ_BF16, TCJ_BF16, 1, 1, 1);
    r.bias = cases[i].bias;
    r.act = cases[i].act;
    r.user = cases[i].user;
    prof_epilogue_label(&r, out, sizeof out);
    assert_string_equal(out, cases[i].want);
  }
  prof_row r = row("b", TCJ_BF16, TCJ_BF16, 1, 1, 1);
  prof_batch_label(&r, out, sizeof out);
  assert_string_equal(out, "1");
  r.batch = 64;
  prof_batch_label(&r, out, sizeof out);
  assert_string_equal(out, "64");
  r.broadcast_b = 1;
  prof_batch_label(&r, out, sizeof out);
  assert_string_equal(out, "64/bcast_b");
}

static void derived_figures_follow_the_times_and_are_zero_without_them(void **state) {
  (void)state;
  prof_row r = timed("sq1024", TCJ_BF16, 10, 12);
  r.floor_us = 5;
  assert_close(prof_flops(&r), 2.0 * 1024 * 1024 * 1024);
  assert_close(prof_tflops(&r, r.tcj_us), 2.0 * 1024 * 1024 * 1024 / (10e-6) / 1e12);
  assert_close(prof_ratio(&r), 12.0 / 10.0);
  assert_close(prof_pct_floor(&r, r.tcj_us), 50);
  assert_close(prof_pct_floor(&r, r.blas_us), 100.0 * 5 / 12);

  const double missing[] = {0, -1, NAN, INFINITY};
  for (size_t i = 0; i < sizeof missing / sizeof *missing; i++) {
    prof_row t = r;
    t.tcj_us = missing[i];
    if (prof_tflops(&t, t.tcj_us) != 0 || prof_ratio(&t) != 0 || prof_pct_floor(&t, t.tcj_us) != 0)
      fail_msg("tcj_us %g: tflops %g ratio %g pct %g, want 0", missing[i],
               prof_tflops(&t, t.tcj_us), prof_ratio(&t), prof_pct_floor(&t, t.tcj_us));
  }
  r.floor_us = 0;
  assert_true(prof_pct_floor(&r, r.tcj_us) == 0);
}

/* bf16 OK ratios 2, 0.5 and 4: geomean 4^(1/3); the rest must not count. */
static int mixed_rows(prof_row *rows) {
  int n = 0;
  rows[n++] = timed("a", TCJ_BF16, 10, 20);
  rows[n++] = timed("b", TCJ_BF16, 10, 5);
  rows[n++] = timed("c", TCJ_BF16, 10, 40);
  rows[n] = timed("bad", TCJ_BF16, 1, 100);
  rows[n++].status = PROF_MISMATCH;
  rows[n++] = timed("no-blas", TCJ_BF16, 10, 0);
  rows[n++] = timed("fp8", TCJ_E4M3, 10, 80);
  rows[n] = timed("fp8-none", TCJ_E4M3, 0, 7);
  rows[n++].status = PROF_UNSUPPORTED;
  return n;
}

static void geomean_counts_ok_rows_of_the_dtype_only(void **state) {
  (void)state;
  prof_row rows[12];
  int n = mixed_rows(rows), count = -1;
  /* Fused rows (an epilogue, a batch) go to their own mean, never to the plain one. */
  rows[n] = timed("gelu", TCJ_BF16, 10, 30);
  rows[n].bias = TCJ_BIAS_COL;
  rows[n++].act = TCJ_ACT_GELU;
  rows[n] = timed("batch", TCJ_BF16, 10, 270);
  rows[n++].batch = 8;
  rows[n] = timed("fused-bad", TCJ_BF16, 1, 1000);
  rows[n].batch = 8;
  rows[n++].status = PROF_MISMATCH;
  rows[n] = timed("d32", TCJ_BF16, 10, 20); /* a separate D alone: plain */
  rows[n].has_d = 1;
  rows[n++].d = TCJ_F32;
  assert_close(prof_geomean_ratio(rows, n, TCJ_BF16, &count), pow(4.0 * 2, 0.25));
  assert_int_equal(count, 4);
  assert_close(prof_geomean_ratio_fused(rows, n, TCJ_BF16, &count), 9);
  assert_int_equal(count, 2);
  assert_true(prof_geomean_ratio_fused(rows, n, TCJ_E4M3, &count) == 0);
  assert_int_equal(count, 0);
  assert_close(prof_geomean_ratio(rows, n, TCJ_E4M3, &count), 8);
  assert_int_equal(count, 1);
  assert_true(prof_geomean_ratio(rows, n, TCJ_F16, &count) == 0);
  assert_int_equal(count, 0);
  assert_true(prof_geomean_ratio(rows, 0, TCJ_BF16, NULL) == 0);
}

static void names_of_statuses_and_dtypes(void **state) {
  (void)state;
  assert_string_equal(prof_status_name(PROF_OK), "ok");
  assert_string_equal(prof_status_name(PROF_MISMATCH), "MISMATCH");
  assert_string_equal(prof_status_name(PROF_TCJ_ERROR), "tcj-error");
  assert_string_equal(prof_status_name(PROF_UNSUPPORTED), "unsupported");
  assert_string_equal(prof_status_name(PROF_BLAS_ERROR), "cublas-error");
  static const char *const want[] = {"f16", "bf16", "f32", "tf32", "e4m3", "e5m2", "s8", "s32", "f64"};
  for (int t = TCJ_F16; t <= TCJ_F64; t++) assert_string_equal(tcj_dtype_name((tcj_dtype)t), want[t]);
  assert_string_equal(tcj_dtype_name((tcj_dtype)99), "unknown dtype"); /* the report names dtypes by tcj_dtype_name */
}

/* ---- the rows every writer test uses -------------------------------------------------------- */

static const char tricky_cfg[] = "tile=128,128,32 \"stages\"=3, swizzle";
static const char tricky_note[] = "max |d| \"12.5\" at C[3,7]\\n\nsecond line\ttab";

static int report_rows(prof_row *rows) {
  int n = 0;
  rows[n] = timed("sq1024", TCJ_BF16, 10, 12);
  rows[n].floor_us = 5;
  rows[n].cold_ms = 123.4;
  rows[n].rel_err = 1.5e-3;
  snprintf(rows[n++].cfg, sizeof rows->cfg, "%s", tricky_cfg);
  rows[n] = timed("up_m1", TCJ_BF16, 60, 55);
  rows[n].floor_us = 54.6;
  snprintf(rows[n++].cfg, sizeof rows->cfg, "sm80 128x64x64 s4");
  rows[n] = timed("mismatch_long_name", TCJ_BF16, 0, 0);
  rows[n].status = PROF_MISMATCH;
  rows[n].rel_err = NAN;
  snprintf(rows[n].note, sizeof rows->note, "%s", tricky_note);
  snprintf(rows[n++].cfg, sizeof rows->cfg, "x");
  rows[n] = timed("fp8", TCJ_E4M3, NAN, INFINITY);
  rows[n].status = PROF_UNSUPPORTED;
  rows[n].floor_us = NAN;
  snprintf(rows[n++].note, sizeof rows->note, "no e4m3 kernel on sm_80");
  rows[n] = timed("big", TCJ_BF16, 123456.78, 120000);
  rows[n].m = rows[n].n = rows[n].k = 16384;
  rows[n].op_b = TCJ_OP_T;
  rows[n].floor_us = 8893.9;
  snprintf(rows[n].baseline, sizeof rows->baseline, "cublasGemmEx");
  snprintf(rows[n++].cfg, sizeof rows->cfg, "sm80 256x128x32 s3 splitk=1");
  /* tcj_gemm_ex rows: bias + GELU into an f32 D, and a batch with a broadcast B. */
  rows[n] = timed("gelu_d32", TCJ_BF16, 20, 30);
  rows[n].bias = TCJ_BIAS_COL;
  rows[n].act = TCJ_ACT_GELU;
  rows[n].has_d = 1;
  rows[n].d = TCJ_F32;
  rows[n].rel_err = 2e-3;
  snprintf(rows[n].baseline, sizeof rows->baseline, "cublasLt+gelu_bias");
  snprintf(rows[n++].cfg, sizeof rows->cfg, "sm90 bias=col:f32 act=gelu");
  rows[n] = timed("batch8_bcast_b", TCJ_BF16, 40, 50);
  rows[n].batch = 8;
  rows[n].broadcast_b = 1;
  snprintf(rows[n].baseline, sizeof rows->baseline, "cublasStridedBatched");
  snprintf(rows[n++].cfg, sizeof rows->cfg, "sm90 batch=1");
  /* Accuracy figures: fp32 against SGEMM; fp64 exact on one side; a NaN element (infinite). */
  rows[n] = timed("f32_sq4096", TCJ_F32, 700, 2800);
  rows[n].rel_err = 1e-7;
  rows[n].err_tcj = 1.25e-7;
  rows[n].err_blas = 2.5e-7;
  snprintf(rows[n].baseline, sizeof rows->baseline, "cublasSgemm");
  snprintf(rows[n++].cfg, sizeof rows->cfg, "sm90 x3=1");
  rows[n] = timed("f64_odd4095", TCJ_F64, 3000, 2900);
  rows[n].err_tcj = 0;
  rows[n].err_blas = 3.5e-17;
  snprintf(rows[n].baseline, sizeof rows->baseline, "cublasDgemm");
  snprintf(rows[n++].cfg, sizeof rows->cfg, "sm80 f64");
  rows[n] = timed("f32_poisoned", TCJ_F32, 0, 0);
  rows[n].status = PROF_MISMATCH;
  rows[n].err_tcj = INFINITY;
  rows[n].err_blas = NAN; /* not measured */
  snprintf(rows[n].note, sizeof rows->note, "tcj differs from the float64 reference");
  snprintf(rows[n++].cfg, sizeof rows->cfg, "y");
  return n;
}

/* ---- table ---------------------------------------------------------------------------------- */

static void table_has_device_facts_aligned_rows_notes_and_geomeans(void **state) {
  (void)state;
  prof_row rows[16];
  int n = report_rows(rows);
  prof_device d = h200();
  char *out = render(prof_print_table, &d, rows, n);

  assert_non_null(strstr(out, "NVIDIA H200"));
  assert_non_null(strstr(out, "132 SMs"));
  assert_non_null(strstr(out, "580.159.04"));
  assert_non_null(strstr(out, "2026-11-20T10:00:00Z"));
  assert_non_null(strstr(out, "tcj-prof --suite bench/suite.yaml"));
  assert_non_null(strstr(out, "bf16 989.0 TFLOP/s"));
  assert_non_null(strstr(out, "4300.0 GB/s"));
  /* bf16 OK plain rows with both times: 12/10, 55/60, 120000/123456.78; fused: 30/20, 50/40. */
  char want[96];
  snprintf(want, sizeof want, "geomean tcj/cuBLAS bf16: %.3f over 3 problems\n",
           cbrt(12.0 / 10 * 55.0 / 60 * 120000 / 123456.78));
  if (!strstr(out, want)) fail_msg("no line %s in\n%s", want, out);
  snprintf(want, sizeof want, "geomean tcj/cuBLAS bf16 fused: %.3f over 2 problems\n", sqrt(30.0 / 20 * 50.0 / 40));
  if (!strstr(out, want)) fail_msg("no line %s in\n%s", want, out);
  assert_null(strstr(out, "e4m3 fused"));
  /* The epilogue, batch and baseline columns tell the rows apart. */
  const char *gelu = strstr(out, "\ngelu_d32 ");
  assert_non_null(gelu);
  char line_text[512];
  snprintf(line_text, sizeof line_text, "%.*s", (int)(strchr(gelu + 1, '\n') - gelu - 1), gelu + 1);
  assert_non_null(strstr(line_text, " bf16>f32 "));
  assert_non_null(strstr(line_text, " bias_gelu "));
  assert_non_null(strstr(line_text, " cublasLt+gelu_bias "));
  const char *bcast = strstr(out, "\nbatch8_bcast_b ");
  assert_non_null(bcast);
  snprintf(line_text, sizeof line_text, "%.*s", (int)(strchr(bcast + 1, '\n') - bcast - 1), bcast + 1);
  assert_non_null(strstr(line_text, " none "));
  assert_non_null(strstr(line_text, " 8/bcast_b "));
  assert_non_null(strstr(line_text, " cublasStridedBatched "));
  const char *head_line = strstr(out, "\nname ");
  assert_non_null(head_line);
  snprintf(line_text, sizeof line_text, "%.*s", (int)(strchr(head_line + 1, '\n') - head_line - 1), head_line + 1);
  assert_non_null(strstr(line_text, " epilogue "));
  assert_non_null(strstr(line_text, " batch "));
  assert_non_null(strstr(line_text, " baseline "));
  assert_non_null(strstr(out, "geomean tcj/cuBLAS e4m3: - over 0 problems\n"));
  assert_non_null(strstr(out, "geomean tcj/cuBLAS f32: 4.000 over 1 problem\n"));
  assert_non_null(strstr(out, "geomean tcj/cuBLAS f64: 0.967 over 1 problem\n"));
  /* The accuracy columns: side by side, "-" where not measured, 0 when exact, inf for a NaN
   * element (the one inf of the table). */
  snprintf(line_text, sizeof line_text, "%.*s", (int)(strchr(head_line + 1, '\n') - head_line - 1), head_line + 1);
  assert_non_null(strstr(line_text, "  err tcj  err cuBLAS  "));
  const char *f32 = strstr(out, "\nf32_sq4096 ");
  assert_non_null(f32);
  snprintf(line_text, sizeof line_text, "%.*s", (int)(strchr(f32 + 1, '\n') - f32 - 1), f32 + 1);
  if (!strstr(line_text, "  1.2e-07     2.5e-07  ")) fail_msg("f32 row: %s", line_text);
  const char *f64 = strstr(out, "\nf64_odd4095 ");
  assert_non_null(f64);
  snprintf(line_text, sizeof line_text, "%.*s", (int)(strchr(f64 + 1, '\n') - f64 - 1), f64 + 1);
  if (!strstr(line_text, "        0     3.5e-17  ")) fail_msg("f64 row: %s", line_text);
  const char *nan_row = strstr(out, "\nf32_poisoned ");
  assert_non_null(nan_row);
  snprintf(line_text, sizeof line_text, "%.*s", (int)(strchr(nan_row + 1, '\n') - nan_row - 1), nan_row + 1);
  if (!strstr(line_text, "      inf           -  ")) fail_msg("NaN row: %s", line_text);
  snprintf(line_text, sizeof line_text, "%.*s", (int)(strchr(gelu + 1, '\n') - gelu - 1), gelu + 1);
  if (!strstr(line_text, "        -           -  ")) fail_msg("a row without figures: %s", line_text);
  assert_null(strstr(out, "nan "));
  assert_true(strstr(out, "inf") == strstr(out, "      inf  ") + 6 && !strstr(strstr(out, "inf") + 1, "inf"));

  /* Every data row (and the header) puts cfg at the same column. */
  const char *head = strstr(out, "\nname ");
  assert_non_null(head);
  head++;
  const char *cfg_col = strstr(head, "cfg\n");
  assert_non_null(cfg_col);
  size_t cfg_at = (size_t)(cfg_col - head);
  const char *line = strchr(head, '\n') + 1;
  assert_true(line[0] == '-');
  line = strchr(line, '\n') + 1;
  int data = 0, notes = 0;
  for (; *line != '\n'; line = strchr(line, '\n') + 1) {
    size_t len = (size_t)(strchr(line, '\n') - line);
    if (strncmp(line, "    ", 4) == 0) { /* a note under a row that is not OK */
      notes++;
      assert_null(memchr(line, '\t', len));
      continue;
    }
    const prof_row *r = &rows[data++];
    size_t cfg_len = strlen(r->cfg);
    if (len - cfg_len != cfg_at || memcmp(line + cfg_at, r->cfg, cfg_len) != 0)
      fail_msg("row %s: cfg at %zu, want %zu:\n%.*s", r->name, len - cfg_len, cfg_at, (int)len,
               line);
    assert_int_equal(strncmp(line, r->name, strlen(r->name)), 0);
  }
  assert_int_equal(data, n);
  assert_int_equal(notes, 3);
  assert_non_null(strstr(out, "    no e4m3 kernel on sm_80\n"));
  assert_non_null(strstr(out, "bf16>bf16"));
  assert_non_null(strstr(out, "e4m3>bf16"));
  assert_non_null(strstr(out, " NT "));
  assert_non_null(strstr(out, "123456.78"));
  free(out);
}

static void table_of_no_rows_still_names_the_device(void **state) {
  (void)state;
  prof_device d = h200();
  char *out = render(prof_print_table, &d, NULL, 0);
  assert_non_null(strstr(out, "NVIDIA H200"));
  assert_non_null(strstr(out, "status: 0 ok\n"));
  free(out);
}

/* ---- CSV ------------------------------------------------------------------------------------ */

#define MAXF 32
typedef struct csv_record {
  int nf;
  char *f[MAXF];
} csv_record;

/* RFC 4180 reader; lines that start with '#' at a record start are comments. */
static int csv_parse(const char *s, csv_record *recs, int max) {
  int nr = 0;
  while (*s) {
    if (*s == '#') {
      s = strchr(s, '\n');
      assert_non_null(s);
      s++;
      continue;
    }
    assert_true(nr < max);
    csv_record *rec = &recs[nr++];
    rec->nf = 0;
    for (;;) {
      char *field = calloc(strlen(s) + 1, 1), *o = field;
      if (*s == '"') {
        for (s++;; s++) {
          assert_true(*s != 0);
          if (*s == '"' && s[1] == '"') *o++ = *s++;
          else if (*s == '"') break;
          else *o++ = *s;
        }
        s++;
        assert_true(*s == ',' || *s == '\n');
      } else {
        while (*s && *s != ',' && *s != '\n') {
          assert_true(*s != '"');
          *o++ = *s++;
        }
      }
      assert_true(rec->nf < MAXF);
      rec->f[rec->nf++] = field;
      if (*s == ',') {
        s++;
        continue;
      }
      if (*s == '\n') s++;
      break;
    }
  }
  return nr;
}

static void csv_free(csv_record *recs, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < recs[i].nf; j++) free(recs[i].f[j]);
}

static void csv_reads_back_with_its_header_rows_and_quoted_fields(void **state) {
  (void)state;
  prof_row rows[16];
  int n = report_rows(rows);
  prof_device d = h200();
  char *out = render(prof_write_csv, &d, rows, n);

  assert_int_equal(strncmp(out, "# device: NVIDIA H200\n", 22), 0);
  assert_non_null(strstr(out, "\n# date: 2026-11-20T10:00:00Z\n"));
  assert_non_null(strstr(out, "\n# peak_tflops_bf16: 989\n"));
  assert_non_null(strstr(out, "\n# bandwidth_gbs: 4300\n"));

  static const char *const cols[] = {
    "name", "ab", "c", "op_a", "op_b", "m", "n", "k", "status", "tcj_us", "cublas_us",
    "tcj_tflops", "cublas_tflops", "ratio", "floor_us", "pct_floor_tcj", "pct_floor_cublas",
    "cold_ms", "rel_err", "runs", "cfg", "note", "d", "epilogue", "batch", "broadcast_b", "baseline",
    "err_tcj", "err_cublas",
  };
  enum { NCOLS = sizeof cols / sizeof *cols };
  csv_record recs[16];
  int nr = csv_parse(out, recs, 16);
  assert_int_equal(nr, 1 + n);
  assert_int_equal(recs[0].nf, NCOLS);
  for (int j = 0; j < NCOLS; j++) assert_string_equal(recs[0].f[j], cols[j]);
  for (int i = 1; i < nr; i++) {
    assert_int_equal(recs[i].nf, NCOLS);
    assert_string_equal(recs[i].f[0], rows[i - 1].name);
    assert_string_equal(recs[i].f[20], rows[i - 1].cfg);
    assert_string_equal(recs[i].f[21], rows[i - 1].note);
  }
  assert_string_equal(recs[1].f[20], tricky_cfg);
  assert_string_equal(recs[3].f[21], tricky_note);

  const char *const *first = (const char *const *)recs[1].f;
  assert_string_equal(first[1], "bf16");
  assert_string_equal(first[3], "N");
  assert_string_equal(first[5], "1024");
  assert_string_equal(first[8], "ok");
  assert_close(strtod(first[9], NULL), 10);
  assert_close(strtod(first[13], NULL), 1.2);
  assert_close(strtod(first[15], NULL), 50);
  assert_close(strtod(first[17], NULL), 123.4);
  assert_close(strtod(first[18], NULL), 1.5e-3);
  assert_string_equal(first[19], "20");
  /* Missing figures are empty, never nan or inf. */
  const char *const *fp8 = (const char *const *)recs[4].f;
  assert_string_equal(fp8[8], "unsupported");
  for (int j = 9; j <= 18; j++) assert_string_equal(fp8[j], "");
  assert_string_equal(recs[2].f[17], ""); /* cold_ms 0 */
  assert_string_equal(recs[3].f[18], ""); /* rel_err NaN */
  assert_string_equal(recs[5].f[4], "T");
  /* The tcj_gemm_ex columns, last: a plain row, then the two fused rows. */
  assert_string_equal(first[22], "bf16");
  assert_string_equal(first[23], "none");
  assert_string_equal(first[24], "1");
  assert_string_equal(first[25], "0");
  assert_string_equal(first[26], "");
  assert_string_equal(recs[5].f[26], "cublasGemmEx");
  const char *const *gelu = (const char *const *)recs[6].f;
  assert_string_equal(gelu[0], "gelu_d32");
  assert_string_equal(gelu[2], "bf16"); /* C's type, as given */
  assert_string_equal(gelu[22], "f32");
  assert_string_equal(gelu[23], "bias_gelu");
  assert_string_equal(gelu[26], "cublasLt+gelu_bias");
  const char *const *bcast = (const char *const *)recs[7].f;
  assert_string_equal(bcast[24], "8");
  assert_string_equal(bcast[25], "1");
  assert_string_equal(bcast[26], "cublasStridedBatched");
  /* The accuracy figures, last: measured, exact, missing, and infinite (written as missing). */
  assert_string_equal(first[27], "");
  assert_string_equal(first[28], "");
  const char *const *f32 = (const char *const *)recs[8].f;
  assert_string_equal(f32[0], "f32_sq4096");
  assert_string_equal(f32[26], "cublasSgemm");
  assert_close(strtod(f32[27], NULL), 1.25e-7);
  assert_close(strtod(f32[28], NULL), 2.5e-7);
  assert_string_equal(recs[9].f[27], "0");
  assert_close(strtod(recs[9].f[28], NULL), 3.5e-17);
  assert_string_equal(recs[10].f[27], "");
  assert_string_equal(recs[10].f[28], "");
  assert_null(strstr(out, "nan"));
  assert_null(strstr(out, "inf"));
  csv_free(recs, nr);
  free(out);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

/* A strict JSON reader that keeps every decoded string; it fails on nan, inf, bare control
 * characters, bad escapes and unbalanced brackets. */
typedef struct jp {
  const char *p;
  int nstr;
  char str[512][300];
} jp;

static void j_ws(jp *j) {
  while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r') j->p++;
}

static int j_value(jp *j);

static int j_string(jp *j) {
  if (*j->p++ != '"') return -1;
  char *o = j->nstr < 512 ? j->str[j->nstr++] : NULL, *end = o ? o + 299 : NULL;
  for (;;) {
    unsigned char c = (unsigned char)*j->p++;
    char d;
    if (c == '"') break;
    if (c < 0x20) return -1;
    if (c == '\\') {
      switch (*j->p++) {
      case '"': d = '"'; break;
      case '\\': d = '\\'; break;
      case '/': d = '/'; break;
      case 'b': d = '\b'; break;
      case 'f': d = '\f'; break;
      case 'n': d = '\n'; break;
      case 'r': d = '\r'; break;
      case 't': d = '\t'; break;
      case 'u': {
        char hex[5] = {0};
        for (int i = 0; i < 4; i++) {
          if (!strchr("0123456789abcdefABCDEF", *j->p) || !*j->p) return -1;
          hex[i] = *j->p++;
        }
        long v = strtol(hex, NULL, 16);
        d = v < 0x80 ? (char)v : '?';
        break;
      }
      default: return -1;
      }
    } else {
      d = (char)c;
    }
    if (o && o < end) *o++ = d;
  }
  if (o) *o = 0;
  return 0;
}

static int j_number(jp *j) {
  const char *s = j->p;
  if (*s == '-') s++;
  if (*s < '0' || *s > '9') return -1;
  while (*s >= '0' && *s <= '9') s++;
  if (*s == '.') {
    s++;
    if (*s < '0' || *s > '9') return -1;
    while (*s >= '0' && *s <= '9') s++;
  }
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-') s++;
    if (*s < '0' || *s > '9') return -1;
    while (*s >= '0' && *s <= '9') s++;
  }
  j->p = s;
  return 0;
}

static int j_items(jp *j, char close, int keyed) {
  j->p++;
  j_ws(j);
  if (*j->p == close) {
    j->p++;
    return 0;
  }
  for (;;) {
    j_ws(j);
    if (keyed) {
      if (j_string(j)) return -1;
      j_ws(j);
      if (*j->p++ != ':') return -1;
    }
    if (j_value(j)) return -1;
    j_ws(j);
    char c = *j->p++;
    if (c == close) return 0;
    if (c != ',') return -1;
  }
}

static int j_value(jp *j) {
  j_ws(j);
  switch (*j->p) {
  case '{': return j_items(j, '}', 1);
  case '[': return j_items(j, ']', 0);
  case '"': return j_string(j);
  case 't': return strncmp(j->p, "true", 4) ? -1 : (j->p += 4, 0);
  case 'f': return strncmp(j->p, "false", 5) ? -1 : (j->p += 5, 0);
  case 'n': return strncmp(j->p, "null", 4) ? -1 : (j->p += 4, 0);
  default: return j_number(j);
  }
}

static int j_has_string(const jp *j, const char *s) {
  for (int i = 0; i < j->nstr; i++)
    if (strcmp(j->str[i], s) == 0) return 1;
  return 0;
}

static jp *json_check(const char *text) {
  jp *j = calloc(1, sizeof *j);
  j->p = text;
  if (j_value(j) != 0) fail_msg("JSON does not parse near: %.40s\n%s", j->p, text);
  j_ws(j);
  if (*j->p) fail_msg("JSON: text after the value: %.40s", j->p);
  return j;
}

static void json_parses_and_its_strings_round_trip(void **state) {
  (void)state;
  prof_row rows[16];
  int n = report_rows(rows);
  prof_device d = h200();
  snprintf(d.command, sizeof d.command, "tcj-prof --filter \"sq\" C:\\tmp\x01\xff");
  char *out = render(prof_write_json, &d, rows, n);
  jp *j = json_check(out);

  assert_true(j_has_string(j, tricky_note));
  assert_true(j_has_string(j, tricky_cfg));
  /* A control byte is escaped; a byte that is not UTF-8 becomes U+FFFD. */
  assert_true(j_has_string(j, "tcj-prof --filter \"sq\" C:\\tmp\x01?"));
  assert_true(j_has_string(j, "NVIDIA H200"));
  assert_true(j_has_string(j, "peak_tflops"));
  assert_true(j_has_string(j, "geomean"));
  assert_non_null(strstr(out, "\"peak_tflops\": {\"bf16\": 989, \"e4m3\": 1979}"));
  assert_non_null(strstr(out, "\"sm_count\": 132"));
  assert_non_null(strstr(out, "\"bandwidth_gbs\": 4300"));
  assert_non_null(strstr(out, "\"m\": 16384"));
  assert_non_null(strstr(out, "\"tcj_us\": 123457")); /* %.6g */
  assert_non_null(strstr(out, "\"cold_ms\": 123.4"));
  assert_non_null(strstr(out, "\"rel_err\": 0.0015"));
  char want[128];
  snprintf(want, sizeof want, "\"bf16\": {\"ratio\": %.6g, \"count\": 3}",
           cbrt(12.0 / 10 * 55.0 / 60 * 120000 / 123456.78));
  if (!strstr(out, want)) fail_msg("no %s in\n%s", want, out);
  assert_non_null(strstr(out, "\"e4m3\": {\"ratio\": null, \"count\": 0}"));
  snprintf(want, sizeof want, "\"bf16 fused\": {\"ratio\": %.6g, \"count\": 2}", sqrt(30.0 / 20 * 50.0 / 40));
  if (!strstr(out, want)) fail_msg("no %s in\n%s", want, out);
  assert_non_null(strstr(out, "\"d\": \"f32\", \"epilogue\": \"bias_gelu\", \"batch\": 1, \"broadcast_b\": false, "
                              "\"baseline\": \"cublasLt+gelu_bias\""));
  assert_non_null(strstr(out, "\"d\": \"bf16\", \"epilogue\": \"none\", \"batch\": 8, \"broadcast_b\": true, "
                              "\"baseline\": \"cublasStridedBatched\""));
  assert_true(j_has_string(j, "cublasLt+gelu_bias"));
  assert_non_null(strstr(out, "\"tcj_us\": null, \"cublas_us\": null, \"tcj_tflops\": null"));
  assert_non_null(strstr(out, "\"rel_err\": 1e-07, \"err_tcj\": 1.25e-07, \"err_cublas\": 2.5e-07, "));
  assert_non_null(strstr(out, "\"err_tcj\": 0, \"err_cublas\": 3.5e-17, "));
  assert_non_null(strstr(out, "\"err_tcj\": null, \"err_cublas\": null, ")); /* the NaN row, and others */
  assert_non_null(strstr(out, "\"f32\": {\"ratio\": 4, \"count\": 1}"));
  assert_null(strstr(out, "nan"));
  assert_null(strstr(out, "inf"));
  free(j);
  free(out);
}

static void json_of_no_rows_and_no_device_facts_parses(void **state) {
  (void)state;
  prof_device d;
  memset(&d, 0, sizeof d);
  d.bandwidth_gbs = NAN;
  char *out = render(prof_write_json, &d, NULL, 0);
  free(json_check(out));
  assert_non_null(strstr(out, "\"rows\": []"));
  assert_non_null(strstr(out, "\"bandwidth_gbs\": null"));
  assert_non_null(strstr(out, "\"peak_tflops\": {}"));
  assert_non_null(strstr(out, "\"geomean\": {}"));
  free(out);
}

/* Every writer, on a full disk: -1, not a silently short file. */
static void writers_report_a_write_error(void **state) {
  (void)state;
  static const struct { const char *name; int (*write)(FILE *, const prof_device *, const prof_row *, int); } writers[] = {
    {"table", prof_print_table}, {"csv", prof_write_csv}, {"json", prof_write_json}};
  prof_row rows[16];
  int n = report_rows(rows);
  prof_device d = h200();
  for (size_t w = 0; w < sizeof writers / sizeof *writers; w++) {
    FILE *f = fopen("/dev/full", "w");
    if (!f) fail_msg("cannot open /dev/full: %s", strerror(errno));
    int r = writers[w].write(f, &d, rows, n);
    if (r != -1) print_error("%s writer returned %d on a full disk\n", writers[w].name, r);
    assert_int_equal(r, -1);
    fclose(f);
  }
}

/* Grouped rows: flops and bytes of the rows computed and the non-empty groups' weights, their
 * batch label, and their geomeans apart from plain and fused ("grouped", "grouped loop"), in the
 * table and the JSON. */
static void grouped_rows_count_what_they_compute_and_average_apart(void **state) {
  (void)state;
  prof_row rows[4];
  rows[0] = timed("plain", TCJ_BF16, 10, 20);
  rows[1] = row("moe", TCJ_BF16, TCJ_BF16, 128, 4096, 7168); /* masked: m rows per entry */
  rows[1].group_mode = TCJ_GROUP_M_MASKED;
  rows[1].groups = 32;
  rows[1].group_nonempty = 30;
  rows[1].group_rows = 1000;
  rows[1].tcj_us = 10;
  rows[1].blas_us = 30;
  rows[2] = rows[1];
  snprintf(rows[2].name, sizeof rows[2].name, "moe+loop");
  rows[2].group_loop = 1;
  rows[2].blas_us = 50;
  rows[3] = rows[1];
  rows[3].status = PROF_MISMATCH;
  assert_close(prof_flops(&rows[1]), 2.0 * 1000 * 4096 * 7168);
  assert_close(prof_bytes(&rows[1]), (1000.0 * 7168 + 30.0 * 7168 * 4096) * 2 + 1000.0 * 4096 * 2);
  rows[1].bias = TCJ_BIAS_COL;
  assert_close(prof_bytes(&rows[1]), (1000.0 * 7168 + 30.0 * 7168 * 4096) * 2 + 1000.0 * 4096 * 2 + 30.0 * 4096 * 2);
  rows[1].bias = TCJ_BIAS_NONE;
  assert_false(prof_fused(&rows[1]));
  char label[32];
  prof_batch_label(&rows[1], label, sizeof label);
  assert_string_equal(label, "G32/masked");
  rows[0].group_mode = TCJ_GROUP_NONE;
  int count = -1;
  assert_close(prof_geomean_ratio(rows, 4, TCJ_BF16, &count), 2);
  assert_int_equal(count, 1);
  assert_close(prof_geomean_ratio_grouped(rows, 4, TCJ_BF16, 0, &count), 3);
  assert_int_equal(count, 1);
  assert_close(prof_geomean_ratio_grouped(rows, 4, TCJ_BF16, 1, &count), 5);
  assert_int_equal(count, 1);
  assert_true(prof_geomean_ratio_fused(rows, 4, TCJ_BF16, &count) == 0);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  prof_device d = h200();
  assert_int_equal(prof_print_table(f, &d, rows, 4), 0);
  fclose(f);
  assert_non_null(strstr(buf, "geomean tcj/cuBLAS bf16 grouped: 3.000 over 1 problem\n"));
  assert_non_null(strstr(buf, "geomean tcj/cuBLAS bf16 grouped loop: 5.000 over 1 problem\n"));
  assert_non_null(strstr(buf, " G32/masked "));
  assert_null(strstr(buf, "fused"));
  free(buf);
  f = open_memstream(&buf, &len);
  assert_int_equal(prof_write_json(f, &d, rows, 4), 0);
  fclose(f);
  assert_non_null(strstr(buf, "\"group_mode\": \"masked\", \"groups\": 32, \"group_rows\": 1000, \"nonempty_groups\": 30, "
                              "\"group_baseline\": \"loop\""));
  assert_non_null(strstr(buf, "\"bf16 grouped\": {\"ratio\": 3, \"count\": 1}"));
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(floor_of_a_large_square_is_its_compute_term),
    cmocka_unit_test(floor_of_a_decode_gemm_is_its_bandwidth_term),
    cmocka_unit_test(floor_uses_the_term_that_is_known),
    cmocka_unit_test(bytes_count_each_operand_at_its_dtype_size),
    cmocka_unit_test(batches_bias_and_separate_d_count_in_flops_and_bytes),
    cmocka_unit_test(grouped_swiglu_and_k_groups_count_what_they_compute),
    cmocka_unit_test(epilogue_and_batch_labels_follow_the_manifest_names),
    cmocka_unit_test(derived_figures_follow_the_times_and_are_zero_without_them),
    cmocka_unit_test(geomean_counts_ok_rows_of_the_dtype_only),
    cmocka_unit_test(grouped_rows_count_what_they_compute_and_average_apart),
    cmocka_unit_test(names_of_statuses_and_dtypes),
    cmocka_unit_test(table_has_device_facts_aligned_rows_notes_and_geomeans),
    cmocka_unit_test(table_of_no_rows_still_names_the_device),
    cmocka_unit_test(csv_reads_back_with_its_header_rows_and_quoted_fields),
    cmocka_unit_test(json_parses_and_its_strings_round_trip),
    cmocka_unit_test(json_of_no_rows_and_no_device_facts_parses),
    cmocka_unit_test(writers_report_a_write_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
