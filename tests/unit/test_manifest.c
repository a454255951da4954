/* SPDX-License-Identifier: Apache-2.0 */
/* tools/manifest: the bench suite parses with its defaults, list and grid sizes expand to the
 * cross product, every operand dtype (f32 and f64 with theirs) takes its default C, tcj_gemm_ex's
 * keys (epilogue, batch, broadcast_b, d_dtype, epilogue_source) parse with their defaults and
 * read the source beside the manifest, and every error names FILE:LINE:COL (1-based) and the
 * offending key or value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/manifest.h"

/* The standard benchmark suite (bench/suite.yaml). tests/data/suite.yaml is this text and then
 * rows of its own (tcj_gemm_ex's epilogues and batches). */
static const char suite_yaml[] =
  "# Standard benchmark suite for tcj-prof: row-major C[m,n] = A[m,k] * op_b(B), op_a = op_b = N unless given.\n"
  "# (op_b T: B is stored n x k, as nn.Linear weights are.)\n"
  "# cublas_h200: cuBLAS 13.0 TFLOP/s measured on one NVIDIA H200 (2026-11), bf16 in / bf16 out, fp32 accumulate.\n"
  "# Those numbers are context only: a claim compares against cuBLAS measured in the same run.\n"
  "suite: standard\n"
  "dtype: bf16\n"
  "problems:\n"
  "  # square\n"
  "  - {name: sq512,    m: 512,   n: 512,   k: 512,   cublas_h200: 23.6}\n"
  "  - {name: sq1024,   m: 1024,  n: 1024,  k: 1024,  cublas_h200: 208.4}\n"
  "  - {name: sq2048,   m: 2048,  n: 2048,  k: 2048,  cublas_h200: 694.4}\n"
  "  - {name: sq4096,   m: 4096,  n: 4096,  k: 4096,  cublas_h200: 775.6}\n"
  "  - {name: sq8192,   m: 8192,  n: 8192,  k: 8192,  cublas_h200: 777.9}\n"
  "  - {name: sq16384,  m: 16384, n: 16384, k: 16384, cublas_h200: 695.4}\n"
  "  # odd and unaligned\n"
  "  - {name: odd4095,  m: 4095,  n: 4095,  k: 4095,  cublas_h200: 148.6}\n"
  "  - {name: odd1000,  m: 1000,  n: 1000,  k: 1000,  cublas_h200: 235.1}\n"
  "  # LLM layers (Llama-3-8B-like weights), token counts from decode to prefill\n"
  "  - {name: qkv_m1,    m: 1,    n: 6144,  k: 4096}\n"
  "  - {name: qkv_m16,   m: 16,   n: 6144,  k: 4096,  cublas_h200: 53.7}\n"
  "  - {name: qkv_m128,  m: 128,  n: 6144,  k: 4096,  cublas_h200: 387.4}\n"
  "  - {name: qkv_m1024, m: 1024, n: 6144,  k: 4096,  cublas_h200: 732.3}\n"
  "  - {name: qkv_m4096, m: 4096, n: 6144,  k: 4096,  cublas_h200: 780.2}\n"
  "  - {name: up_m1,     m: 1,    n: 28672, k: 4096,  cublas_h200: 4.2}\n"
  "  - {name: up_m16,    m: 16,   n: 28672, k: 4096,  cublas_h200: 66.5}\n"
  "  - {name: up_m128,   m: 128,  n: 28672, k: 4096,  cublas_h200: 283.4}\n"
  "  - {name: up_m4096,  m: 4096, n: 28672, k: 4096,  cublas_h200: 772.8}\n"
  "  - {name: down_m1,   m: 1,    n: 4096,  k: 14336, cublas_h200: 3.7}\n"
  "  - {name: down_m128, m: 128,  n: 4096,  k: 14336, cublas_h200: 406.5}\n"
  "  - {name: down_m4096, m: 4096, n: 4096, k: 14336, cublas_h200: 805.2}\n"
  "  # the same weights in nn.Linear layout (x[m,k] * W[n,k]^T: op_b T), decode to small batches\n"
  "  - {name: qkv_nt_m1,   m: 1,   n: 6144,  k: 4096,  op_b: T}\n"
  "  - {name: qkv_nt_m16,  m: 16,  n: 6144,  k: 4096,  op_b: T}\n"
  "  - {name: up_nt_m1,    m: 1,   n: 28672, k: 4096,  op_b: T}\n"
  "  - {name: up_nt_m64,   m: 64,  n: 28672, k: 4096,  op_b: T}\n"
  "  - {name: down_nt_m16, m: 16,  n: 4096,  k: 14336, op_b: T}\n"
  "  - {name: down_nt_m256, m: 256, n: 4096, k: 14336, op_b: T}\n"
  "  # mid-size, rows 16-byte aligned but not multiples of 128 bytes\n"
  "  - {name: mid_ld5000, m: 2500, n: 3000, k: 5000}\n"
  "  - {name: tall_k1504, m: 9000, n: 1504, k: 1504}\n"
  "  # split-K territory and short K\n"
  "  - {name: deepk,    m: 512,   n: 512,   k: 65536, cublas_h200: 652.4}\n"
  "  - {name: shortk,   m: 8192,  n: 8192,  k: 1024,  cublas_h200: 702.2}\n"
  "  # other dtypes (fp8: e4m3 in, bf16 out; tf32: f32 in and out)\n"
  "  - {name: fp8_sq8192, dtype: e4m3, m: 8192, n: 8192, k: 8192, op_b: T, cublas_h200: 1475.5}\n"
  "  - {name: fp8_up_m128, dtype: e4m3, m: 128, n: 28672, k: 4096, op_b: T, cublas_h200: 849.3}\n"
  "  - {name: fp8_nt_m16, dtype: e4m3, m: 16, n: 6144, k: 4096, op_b: T}\n"
  "  - {name: e5m2_sq4096, dtype: e5m2, m: 4096, n: 4096, k: 4096, op_b: T}\n"
  "  - {name: tf32_sq8192, dtype: tf32, m: 8192, n: 8192, k: 8192, cublas_h200: 403.9}\n"
  "  - {name: tf32_nt_sq4096, dtype: tf32, m: 4096, n: 4096, k: 4096, op_b: T}\n"
  "  # int8 (s32 out)\n"
  "  - {name: s8_nt_sq8192, dtype: s8, m: 8192, n: 8192, k: 8192, op_b: T}\n"
  "  - {name: s8_nt_m16, dtype: s8, m: 16, n: 8192, k: 8192, op_b: T}\n";

/* Writes text to a fresh temp file; its path goes to path (PATH_MAX-sized). */
static void write_temp(const char *text, char *path, size_t size) {
  snprintf(path, size, "/tmp/tcj-manifest-XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  size_t len = strlen(text);
  assert_int_equal(write(fd, text, len), (ssize_t)len);
  assert_int_equal(close(fd), 0);
}

static void load_text(const char *text, manifest *m) {
  char path[64], err[1024] = "";
  write_temp(text, path, sizeof path);
  int rc = manifest_load(path, m, err, sizeof err);
  if (rc != 0) print_error("manifest_load: %s\n", err);
  assert_int_equal(rc, 0);
  unlink(path);
}

static const manifest_problem *find(const manifest *m, const char *name) {
  for (size_t i = 0; i < m->nproblems; i++)
    if (strcmp(m->problems[i].name, name) == 0) return &m->problems[i];
  print_error("no problem named %s\n", name);
  fail();
  return NULL;
}

#define BENCH_ROWS 38 /* bench/suite.yaml's */
#define OWN_ROWS 16   /* tests/data/suite.yaml's after them */
#define GROUPED_ROWS 13 /* and its grouped (Mixture-of-Experts) rows after those */
#define MOE_EXTRA_ROWS 13 /* and the MoE extras' rows */
#define LARGE_ROWS 18    /* and the 70B-class and mid-size rows last (issue 34) */

static void check_suite(const manifest *m, size_t rows) {
  assert_string_equal(m->suite, "standard");
  assert_int_equal(m->nentries, rows);
  assert_int_equal(m->nproblems, rows);
  assert_int_equal(m->ntargets, 0);
  const manifest_problem *p = find(m, "sq512");
  assert_int_equal(p->m, 512);
  assert_int_equal(p->n, 512);
  assert_int_equal(p->k, 512);
  assert_int_equal(p->ab, TCJ_BF16);
  assert_int_equal(p->c, TCJ_BF16);
  assert_int_equal(p->op_a, TCJ_OP_N);
  assert_int_equal(p->op_b, TCJ_OP_N);
  assert_int_equal(p->epilogue, MANIFEST_EPI_NONE);
  assert_int_equal(p->batch, 1);
  assert_int_equal(p->broadcast_b, 0);
  assert_int_equal(p->has_d, 0);
  assert_int_equal(p->d, TCJ_BF16);
  assert_null(p->epilogue_source);
  const manifest_entry *e = &m->entries[p->entry];
  assert_int_equal(e->line, 9);
  assert_int_equal(e->col, 5);
  assert_int_equal(e->nrefs, 1);
  assert_string_equal(e->refs[0].key, "cublas_h200");
  assert_true(e->refs[0].value == 23.6);
  assert_int_equal(m->entries[find(m, "qkv_m1")->entry].nrefs, 0);
  p = find(m, "down_m4096");
  assert_int_equal(p->m, 4096);
  assert_int_equal(p->n, 4096);
  assert_int_equal(p->k, 14336);
  p = find(m, "fp8_sq8192");
  assert_int_equal(p->ab, TCJ_E4M3);
  assert_int_equal(p->c, TCJ_BF16);
  assert_int_equal(p->op_a, TCJ_OP_N);
  assert_int_equal(p->op_b, TCJ_OP_T);
  p = find(m, "tf32_sq8192");
  assert_int_equal(p->ab, TCJ_TF32);
  assert_int_equal(p->c, TCJ_F32);
}

/* The rows tests/data/suite.yaml adds: fused epilogues and batches, then f32 (fp32 accuracy) and
 * f64, with the shapes of the rows they are measured beside. */
static void check_own_rows(const manifest *m) {
  static const struct {
    const char *name, *like; /* like: the bench row of the same shape */
    int64_t m, n, k, batch;
    manifest_epilogue epi;
    int broadcast_b;
    tcj_dtype ab; /* C of the same type */
  } want[OWN_ROWS] = {
    {"gelu_sq4096", "sq4096", 4096, 4096, 4096, 1, MANIFEST_EPI_BIAS_GELU, 0, TCJ_BF16},
    {"gelu_qkv_m4096", "qkv_m4096", 4096, 6144, 4096, 1, MANIFEST_EPI_BIAS_GELU, 0, TCJ_BF16},
    {"gelu_up_m128", "up_m128", 128, 28672, 4096, 1, MANIFEST_EPI_BIAS_GELU, 0, TCJ_BF16},
    {"silu_up_m128", "up_m128", 128, 28672, 4096, 1, MANIFEST_EPI_BIAS_SILU, 0, TCJ_BF16},
    {"bias_sq8192", "sq8192", 8192, 8192, 8192, 1, MANIFEST_EPI_BIAS, 0, TCJ_BF16},
    {"relu_sq8192", "sq8192", 8192, 8192, 8192, 1, MANIFEST_EPI_BIAS_RELU, 0, TCJ_BF16},
    {"gelu_sq8192", "sq8192", 8192, 8192, 8192, 1, MANIFEST_EPI_BIAS_GELU, 0, TCJ_BF16},
    {"batch64_512", NULL, 512, 512, 512, 64, MANIFEST_EPI_NONE, 0, TCJ_BF16},
    {"batch512_128x64", NULL, 128, 128, 64, 512, MANIFEST_EPI_NONE, 0, TCJ_BF16},
    {"batch8_bcast_b", NULL, 256, 4096, 4096, 8, MANIFEST_EPI_NONE, 1, TCJ_BF16},
    {"f32_sq4096", "sq4096", 4096, 4096, 4096, 1, MANIFEST_EPI_NONE, 0, TCJ_F32},
    {"f32_sq8192", "sq8192", 8192, 8192, 8192, 1, MANIFEST_EPI_NONE, 0, TCJ_F32},
    {"f32_deepk", "deepk", 512, 512, 65536, 1, MANIFEST_EPI_NONE, 0, TCJ_F32},
    {"f64_sq4096", "sq4096", 4096, 4096, 4096, 1, MANIFEST_EPI_NONE, 0, TCJ_F64},
    {"f64_sq8192", "sq8192", 8192, 8192, 8192, 1, MANIFEST_EPI_NONE, 0, TCJ_F64},
    {"f64_odd4095", "odd4095", 4095, 4095, 4095, 1, MANIFEST_EPI_NONE, 0, TCJ_F64},
  };
  for (int i = 0; i < OWN_ROWS; i++) {
    const manifest_problem *p = &m->problems[BENCH_ROWS + i];
    assert_string_equal(p->name, want[i].name);
    assert_int_equal(p->m, want[i].m);
    assert_int_equal(p->n, want[i].n);
    assert_int_equal(p->k, want[i].k);
    assert_int_equal(p->batch, want[i].batch);
    assert_string_equal(manifest_epilogue_name(p->epilogue), manifest_epilogue_name(want[i].epi));
    assert_int_equal(p->broadcast_b, want[i].broadcast_b);
    assert_string_equal(tcj_dtype_name(p->ab), tcj_dtype_name(want[i].ab));
    assert_string_equal(tcj_dtype_name(p->c), tcj_dtype_name(want[i].ab));
    assert_int_equal(p->op_a, TCJ_OP_N);
    assert_int_equal(p->op_b, TCJ_OP_N);
    assert_int_equal(p->has_d, 0);
    if (want[i].like) {
      const manifest_problem *q = find(m, want[i].like);
      assert_true(q->m == p->m && q->n == p->n && q->k == p->k && q->op_b == p->op_b);
    }
  }
}

/* The grouped rows: bf16, op_b T ([G, N, K] weights), the models' experts and shapes. */
static void check_grouped_rows(const manifest *m) {
  static const struct {
    const char *name;
    tcj_group_mode mode;
    int64_t m, n, k, groups, rows;
  } want[GROUPED_ROWS] = {
    {"moe_dsv3_up_prefill", TCJ_GROUP_M_CONTIGUOUS, 4096, 4096, 7168, 32, 4096},
    {"moe_dsv3_down_prefill", TCJ_GROUP_M_CONTIGUOUS, 4096, 7168, 2048, 32, 4096},
    {"moe_dsv3_up_decode", TCJ_GROUP_M_MASKED, 128, 4096, 7168, 32, 128},
    {"moe_dsv3_down_decode", TCJ_GROUP_M_MASKED, 128, 7168, 2048, 32, 128},
    {"moe_qwen3_up_prefill", TCJ_GROUP_M_CONTIGUOUS, 16384, 1536, 2048, 128, 16384},
    {"moe_qwen3_down_prefill", TCJ_GROUP_M_CONTIGUOUS, 16384, 2048, 768, 128, 16384},
    {"moe_qwen3_up_decode", TCJ_GROUP_M_CONTIGUOUS, 512, 1536, 2048, 128, 512},
    {"moe_qwen3_down_decode", TCJ_GROUP_M_CONTIGUOUS, 512, 2048, 768, 128, 512},
    {"moe_mixtral_up_prefill", TCJ_GROUP_M_CONTIGUOUS, 8192, 28672, 4096, 8, 8192},
    {"moe_mixtral_down_prefill", TCJ_GROUP_M_CONTIGUOUS, 8192, 4096, 14336, 8, 8192},
    {"moe_mixtral_up_decode", TCJ_GROUP_M_CONTIGUOUS, 64, 28672, 4096, 8, 64},
    {"moe_mixtral_down_decode", TCJ_GROUP_M_CONTIGUOUS, 64, 4096, 14336, 8, 64},
    {"moe_deepgemm_contig", TCJ_GROUP_M_CONTIGUOUS, 32768, 4096, 7168, 4, 32768},
  };
  for (int i = 0; i < GROUPED_ROWS; i++) {
    const manifest_problem *p = &m->problems[BENCH_ROWS + OWN_ROWS + i];
    assert_string_equal(p->name, want[i].name);
    assert_int_equal(p->group.mode, want[i].mode);
    assert_int_equal(p->m, want[i].m);
    assert_int_equal(p->n, want[i].n);
    assert_int_equal(p->k, want[i].k);
    assert_int_equal(p->group.count, want[i].groups);
    assert_int_equal(p->group.rows, want[i].rows);
    assert_int_equal(p->ab, TCJ_BF16);
    assert_int_equal(p->op_a, TCJ_OP_N);
    assert_int_equal(p->op_b, TCJ_OP_T);
  }
  assert_int_equal(find(m, "moe_deepgemm_contig")->group.skew, MANIFEST_SKEW_EVEN);
}

/* The MoE extras' rows: fp8 grouped with block and row scales, SwiGLU with n D's columns, the
 * router weights as row_scale, the K-grouped weight gradient. */
static void check_moe_extra_rows(const manifest *m) {
  static const struct {
    const char *name;
    tcj_dtype ab;
    tcj_scale_mode scale;
    tcj_activation act;
    int row_scale;
    tcj_group_mode mode;
    int64_t m, n, k, groups;
    int b_ptrs, gather, scatter;
  } want[MOE_EXTRA_ROWS] = {
    {"moex_deepgemm_e4m3_block", TCJ_E4M3, TCJ_SCALE_BLOCK, TCJ_ACT_NONE, 0, TCJ_GROUP_M_CONTIGUOUS, 32768, 4096, 7168, 4, 0, 0, 0},
    {"moex_deepgemm_e4m3_row", TCJ_E4M3, TCJ_SCALE_ROW, TCJ_ACT_NONE, 0, TCJ_GROUP_M_CONTIGUOUS, 32768, 4096, 7168, 4, 0, 0, 0},
    {"moex_dsv3_up_e4m3_block", TCJ_E4M3, TCJ_SCALE_BLOCK, TCJ_ACT_NONE, 0, TCJ_GROUP_M_CONTIGUOUS, 4096, 4096, 7168, 32, 0, 0, 0},
    {"moex_qwen3_up_swiglu_prefill", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_SWIGLU, 0, TCJ_GROUP_M_CONTIGUOUS, 16384, 768,
     2048, 128, 0, 0, 0},
    {"moex_qwen3_up_swiglu_decode", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_SWIGLU, 0, TCJ_GROUP_M_CONTIGUOUS, 512, 768, 2048,
     128, 0, 0, 0},
    {"moex_qwen3_down_rowscale", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_NONE, 1, TCJ_GROUP_M_CONTIGUOUS, 16384, 2048, 768, 128, 0, 0, 0},
    {"moex_qwen3_wgrad", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_NONE, 0, TCJ_GROUP_K_CONTIGUOUS, 768, 2048, 16384, 128, 0, 0, 0},
    {"moex_qwen3_up_gather_prefill", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_NONE, 0, TCJ_GROUP_M_CONTIGUOUS, 16384, 1536, 2048,
     128, 0, 1, 0},
    {"moex_dsv3_down_bptrs_prefill", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_NONE, 0, TCJ_GROUP_M_CONTIGUOUS, 4096, 7168, 2048, 32,
     1, 0, 0},
    {"moex_qwen3_down_scatter_store", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_NONE, 1, TCJ_GROUP_M_CONTIGUOUS, 16384, 2048, 768,
     128, 0, 0, 1 + TCJ_SCATTER_STORE},
    {"moex_qwen3_down_scatter_add", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_NONE, 1, TCJ_GROUP_M_CONTIGUOUS, 16384, 2048, 768,
     128, 0, 0, 1 + TCJ_SCATTER_ADD},
    {"moex_qwen3_down_scatter_store_t8192", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_NONE, 1, TCJ_GROUP_M_CONTIGUOUS, 65536, 2048,
     768, 128, 0, 0, 1 + TCJ_SCATTER_STORE},
    {"moex_qwen3_down_scatter_add_t8192", TCJ_BF16, TCJ_SCALE_TENSOR, TCJ_ACT_NONE, 1, TCJ_GROUP_M_CONTIGUOUS, 65536, 2048,
     768, 128, 0, 0, 1 + TCJ_SCATTER_ADD},
  };
  for (int i = 0; i < MOE_EXTRA_ROWS; i++) {
    const manifest_problem *p = &m->problems[BENCH_ROWS + OWN_ROWS + GROUPED_ROWS + i];
    assert_string_equal(p->name, want[i].name);
    assert_int_equal(p->ab, want[i].ab);
    assert_int_equal(p->scale, want[i].scale);
    assert_int_equal(manifest_epilogue_act(p->epilogue), want[i].act);
    assert_int_equal(p->row_scale, want[i].row_scale);
    assert_int_equal(p->group.mode, want[i].mode);
    assert_int_equal(p->m, want[i].m);
    assert_int_equal(p->n, want[i].n);
    assert_int_equal(p->k, want[i].k);
    assert_int_equal(p->group.count, want[i].groups);
    assert_int_equal(p->b_ptrs, want[i].b_ptrs);
    assert_int_equal(p->gather, want[i].gather);
    assert_int_equal(p->scatter, want[i].scatter);
    if (p->scatter) assert_int_equal(p->d, p->scatter == 1 + TCJ_SCATTER_ADD ? TCJ_F32 : TCJ_BF16);
  }
}

/* Llama-3-70B-class weights (nn.Linear's layout: B stored n x k) at four token counts, then two
 * mid sizes, in the file's order. */
static void check_large_rows(const manifest *m) {
  static const struct { int64_t n, k; } weights[] = {{10240, 8192}, {8192, 8192}, {57344, 8192}, {8192, 28672}};
  static const int64_t tokens[] = {1, 8, 32, 512};
  const manifest_problem *p = &m->problems[BENCH_ROWS + OWN_ROWS + GROUPED_ROWS + MOE_EXTRA_ROWS];
  for (int w = 0; w < 4; w++)
    for (int t = 0; t < 4; t++, p++) {
      assert_int_equal(strncmp(p->name, "l70_", 4), 0);
      assert_int_equal(p->m, tokens[t]);
      assert_int_equal(p->n, weights[w].n);
      assert_int_equal(p->k, weights[w].k);
      assert_int_equal(p->ab, TCJ_BF16);
      assert_int_equal(p->op_b, TCJ_OP_T);
    }
  assert_string_equal(p[0].name, "mid1280");
  assert_string_equal(p[1].name, "mid2304");
  assert_int_equal(p[0].m, 1280);
  assert_int_equal(p[1].m, 2304);
  assert_int_equal(p[1].n, 4096);
  assert_int_equal(p[1].k, 4096);
}

static void bench_suite_parses_with_its_defaults(void **state) {
  (void)state;
  manifest m;
  load_text(suite_yaml, &m);
  check_suite(&m, BENCH_ROWS);
  manifest_free(&m);
}

/* The whole of a file, NUL-terminated (caller frees). */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  char *text = calloc(1, 1 << 20);
  assert_non_null(text);
  *len = fread(text, 1, (1 << 20) - 1, f);
  assert_true(feof(f));
  fclose(f);
  return text;
}

static void committed_suite_is_the_bench_suite_then_its_own_rows(void **state) {
  (void)state;
  manifest m;
  char err[1024] = "";
  size_t len;
  char *text = slurp(TCJ_TEST_DATA "/suite.yaml", &len);
  /* bench/suite.yaml as it is (tests never read ../shared: the copy above stands for it). */
  if (len < strlen(suite_yaml) || memcmp(text, suite_yaml, strlen(suite_yaml)) != 0)
    fail_msg("tests/data/suite.yaml does not start with bench/suite.yaml's text");
  int rc = manifest_load(TCJ_TEST_DATA "/suite.yaml", &m, err, sizeof err);
  if (rc != 0) print_error("manifest_load: %s\n", err);
  assert_int_equal(rc, 0);
  check_suite(&m, BENCH_ROWS + OWN_ROWS + GROUPED_ROWS + MOE_EXTRA_ROWS + LARGE_ROWS);
  check_own_rows(&m);
  check_grouped_rows(&m);
  check_moe_extra_rows(&m);
  check_large_rows(&m);
  manifest_free(&m);
  /* The parser from memory agrees with the one from a file. */
  assert_int_equal(manifest_parse(text, len, "suite", &m, err, sizeof err), 0);
  check_suite(&m, BENCH_ROWS + OWN_ROWS + GROUPED_ROWS + MOE_EXTRA_ROWS + LARGE_ROWS);
  check_own_rows(&m);
  check_grouped_rows(&m);
  check_moe_extra_rows(&m);
  check_large_rows(&m);
  manifest_free(&m);
  free(text);
}

static void lists_expand_to_the_cross_product(void **state) {
  (void)state;
  manifest m;
  load_text("dtype: f16\n"
            "problems:\n"
            "  - name: qkv\n"
            "    m: [1, 16, 128]\n"
            "    n: [4096, 6144]\n"
            "    k: 4096\n"
            "  - {name: one, m: 0, n: 2147483647, k: [7]}\n",
            &m);
  assert_int_equal(m.nentries, 2);
  assert_int_equal(m.nproblems, 7);
  static const int64_t want[6][2] = {{1, 4096}, {1, 6144}, {16, 4096}, {16, 6144}, {128, 4096}, {128, 6144}};
  for (int i = 0; i < 6; i++) {
    assert_string_equal(m.problems[i].name, "qkv");
    assert_int_equal(m.problems[i].entry, 0);
    assert_int_equal(m.problems[i].m, want[i][0]);
    assert_int_equal(m.problems[i].n, want[i][1]);
    assert_int_equal(m.problems[i].k, 4096);
    assert_int_equal(m.problems[i].ab, TCJ_F16);
  }
  assert_string_equal(m.problems[6].name, "one");
  assert_int_equal(m.problems[6].m, 0);
  assert_int_equal(m.problems[6].n, 2147483647);
  assert_int_equal(m.problems[6].k, 7);
  manifest_free(&m);
}

static void grids_expand_by_mul_and_add(void **state) {
  (void)state;
  manifest m;
  load_text("dtype: bf16\n"
            "problems:\n"
            "  - {m: {from: 1, to: 8192, mul: 2}, n: 4096, k: {from: 64, to: 256, add: 64}}\n",
            &m);
  assert_int_equal(m.nproblems, 14 * 4);
  for (size_t i = 0; i < m.nproblems; i++) {
    assert_int_equal(m.problems[i].m, 1 << (i / 4));
    assert_int_equal(m.problems[i].k, 64 * (int64_t)(i % 4 + 1));
  }
  manifest_free(&m);
}

static void dtypes_ops_and_names_take_their_defaults(void **state) {
  (void)state;
  manifest m;
  load_text("problems:\n"
            "  - {name: h, dtype: f16, m: 1, n: 1, k: 1}\n"
            "  - {dtype: s8, m: 1, n: 1, k: 1, op_a: T}\n"
            "  - {dtype: tf32, m: 1, n: 1, k: 1, op_b: T}\n"
            "  - {dtype: e5m2, m: 1, n: 1, k: 1}\n"
            "  - {dtype: bf16, c_dtype: f32, m: 1, n: 1, k: 1, op_a: N, op_b: T}\n"
            "  - {dtype: \"e4m3\", c_dtype: f16, m: 1, n: 1, k: 1}\n"
            "  - {dtype: f32, m: 1, n: 1, k: 1}\n"
            "  - {dtype: f64, m: 1, n: 1, k: 1, op_a: T, op_b: T}\n"
            "  - {dtype: f32, c_dtype: f32, d_dtype: f32, m: 1, n: 1, k: 1, batch: 2}\n"
            "  - {dtype: f64, c_dtype: f64, d_dtype: f64, m: 1, n: 1, k: 1}\n",
            &m);
  assert_null(m.suite);
  assert_int_equal(m.nproblems, 10);
  static const struct { const char *name; tcj_dtype ab, c; tcj_op a, b; } want[] = {
    {"h", TCJ_F16, TCJ_F16, TCJ_OP_N, TCJ_OP_N},   {"#2", TCJ_S8, TCJ_S32, TCJ_OP_T, TCJ_OP_N},
    {"#3", TCJ_TF32, TCJ_F32, TCJ_OP_N, TCJ_OP_T}, {"#4", TCJ_E5M2, TCJ_BF16, TCJ_OP_N, TCJ_OP_N},
    {"#5", TCJ_BF16, TCJ_F32, TCJ_OP_N, TCJ_OP_T}, {"#6", TCJ_E4M3, TCJ_F16, TCJ_OP_N, TCJ_OP_N},
    {"#7", TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_N},  {"#8", TCJ_F64, TCJ_F64, TCJ_OP_T, TCJ_OP_T},
    {"#9", TCJ_F32, TCJ_F32, TCJ_OP_N, TCJ_OP_N},  {"#10", TCJ_F64, TCJ_F64, TCJ_OP_N, TCJ_OP_N},
  };
  for (int i = 0; i < 10; i++) {
    assert_string_equal(m.problems[i].name, want[i].name);
    assert_string_equal(tcj_dtype_name(m.problems[i].ab), tcj_dtype_name(want[i].ab));
    assert_string_equal(tcj_dtype_name(m.problems[i].c), tcj_dtype_name(want[i].c));
    assert_int_equal(m.problems[i].op_a, want[i].a);
    assert_int_equal(m.problems[i].op_b, want[i].b);
  }
  /* f32 (TCJ_F32, fp32 accuracy) and tf32 (TCJ_TF32) are two operand types of one storage. */
  assert_true(m.problems[6].ab == TCJ_F32 && m.problems[2].ab == TCJ_TF32);
  assert_true(m.problems[8].has_d && m.problems[8].d == TCJ_F32 && m.problems[8].batch == 2);
  assert_true(m.problems[9].has_d && m.problems[9].d == TCJ_F64);
  manifest_free(&m);
}

static void targets_are_read_in_order(void **state) {
  (void)state;
  manifest m;
  load_text("suite: t\ntargets: [sm_80, sm_90a]\ndtype: bf16\nproblems: [{m: 1, n: 1, k: 1}]\n", &m);
  assert_int_equal(m.ntargets, 2);
  assert_string_equal(m.targets[0], "sm_80");
  assert_string_equal(m.targets[1], "sm_90a");
  assert_string_equal(m.suite, "t");
  manifest_free(&m);
}

static void gemm_ex_keys_parse_with_their_defaults(void **state) {
  (void)state;
  manifest m;
  load_text("dtype: bf16\n"
            "problems:\n"
            "  - {name: plain, m: 1, n: 2, k: 3}\n"
            "  - {name: gelu, m: [1, 2], n: 2, k: 3, epilogue: bias_gelu, batch: 4, broadcast_b: true}\n"
            "  - {name: d32, m: 1, n: 2, k: 3, epilogue: bias_silu, d_dtype: f32, broadcast_b: false}\n"
            "  - {name: s8, dtype: s8, m: 1, n: 2, k: 3, epilogue: bias_relu, d_dtype: s32, batch: 1}\n"
            "  - {name: rest, dtype: f16, c_dtype: f32, m: 1, n: 2, k: 3, epilogue: none}\n"
            "  - {name: tanh, m: 1, n: 2, k: 3, epilogue: bias_gelu_tanh, batch: 2147483647}\n"
            "  - {name: b, m: 1, n: 2, k: 3, epilogue: bias, broadcast_b: False, batch: 2}\n",
            &m);
  assert_int_equal(m.nproblems, 8);
  static const struct {
    const char *name;
    manifest_epilogue epi;
    tcj_bias_kind bias;
    tcj_activation act;
    int64_t batch;
    int broadcast_b, has_d;
    tcj_dtype c, d;
  } want[] = {
    {"plain", MANIFEST_EPI_NONE, TCJ_BIAS_NONE, TCJ_ACT_NONE, 1, 0, 0, TCJ_BF16, TCJ_BF16},
    {"gelu", MANIFEST_EPI_BIAS_GELU, TCJ_BIAS_COL, TCJ_ACT_GELU, 4, 1, 0, TCJ_BF16, TCJ_BF16},
    {"gelu", MANIFEST_EPI_BIAS_GELU, TCJ_BIAS_COL, TCJ_ACT_GELU, 4, 1, 0, TCJ_BF16, TCJ_BF16},
    {"d32", MANIFEST_EPI_BIAS_SILU, TCJ_BIAS_COL, TCJ_ACT_SILU, 1, 0, 1, TCJ_BF16, TCJ_F32},
    {"s8", MANIFEST_EPI_BIAS_RELU, TCJ_BIAS_COL, TCJ_ACT_RELU, 1, 0, 1, TCJ_S32, TCJ_S32},
    {"rest", MANIFEST_EPI_NONE, TCJ_BIAS_NONE, TCJ_ACT_NONE, 1, 0, 0, TCJ_F32, TCJ_F32},
    {"tanh", MANIFEST_EPI_BIAS_GELU_TANH, TCJ_BIAS_COL, TCJ_ACT_GELU_TANH, 2147483647, 0, 0, TCJ_BF16, TCJ_BF16},
    {"b", MANIFEST_EPI_BIAS, TCJ_BIAS_COL, TCJ_ACT_NONE, 2, 0, 0, TCJ_BF16, TCJ_BF16},
  };
  for (size_t i = 0; i < m.nproblems; i++) {
    const manifest_problem *p = &m.problems[i];
    assert_string_equal(p->name, want[i].name);
    assert_string_equal(manifest_epilogue_name(p->epilogue), manifest_epilogue_name(want[i].epi));
    assert_int_equal(manifest_epilogue_bias(p->epilogue), want[i].bias);
    assert_int_equal(manifest_epilogue_act(p->epilogue), want[i].act);
    assert_int_equal(p->batch, want[i].batch);
    assert_int_equal(p->broadcast_b, want[i].broadcast_b);
    assert_int_equal(p->has_d, want[i].has_d);
    assert_string_equal(tcj_dtype_name(p->c), tcj_dtype_name(want[i].c));
    assert_string_equal(tcj_dtype_name(p->d), tcj_dtype_name(want[i].d));
    assert_null(p->epilogue_source);
    assert_null(p->epilogue_path);
  }
  assert_int_equal(m.problems[1].m, 1);
  assert_int_equal(m.problems[2].m, 2);
  static const char *const names[] = {"none", "bias", "bias_relu", "bias_gelu", "bias_gelu_tanh", "bias_silu",
                                      "swiglu", "bias_swiglu"};
  for (int e = 0; e < MANIFEST_EPI_COUNT; e++) assert_string_equal(manifest_epilogue_name((manifest_epilogue)e), names[e]);
  assert_string_equal(manifest_epilogue_name(MANIFEST_EPI_COUNT), "?");
  manifest_free(&m);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
  assert_int_equal(fclose(f), 0);
}

static const char residual[] =
  "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
  "                                         long long batch, const void *params) { return v + c; }\n";

/* A relative epilogue_source is the manifest's neighbour, wherever the tool runs; an absolute
 * one is itself; problems of one entry share the entry's text. */
static void epilogue_source_is_read_beside_the_manifest(void **state) {
  (void)state;
  char dir[] = "/tmp/tcj-manifest-dir-XXXXXX", path[256], yaml[256], cu[256], abs_yaml[512], err[1024] = "";
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/sub", dir);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(cu, sizeof cu, "%s/sub/residual.cu", dir);
  write_file(cu, residual);
  snprintf(yaml, sizeof yaml, "%s/models.yaml", dir);
  write_file(yaml, "dtype: bf16\nproblems:\n"
                   "  - {name: r, m: [1, 8], n: 64, k: 64, epilogue: bias, epilogue_source: sub/residual.cu}\n"
                   "  - {name: plain, m: 1, n: 64, k: 64}\n");
  manifest m;
  int rc = manifest_load(yaml, &m, err, sizeof err);
  if (rc != 0) print_error("manifest_load: %s\n", err);
  assert_int_equal(rc, 0);
  assert_int_equal(m.nproblems, 3);
  assert_string_equal(m.problems[0].epilogue_path, cu);
  assert_string_equal(m.problems[0].epilogue_source, residual);
  assert_ptr_equal(m.problems[1].epilogue_source, m.problems[0].epilogue_source);
  assert_string_equal(m.entries[0].epilogue_text, residual);
  assert_null(m.problems[2].epilogue_source);
  manifest_free(&m);
  /* From memory, relative to the directory of the name given; an absolute path as it is. */
  static const char text[] = "dtype: f16\nproblems: [{m: 1, n: 8, k: 8, epilogue_source: residual.cu}]\n";
  snprintf(abs_yaml, sizeof abs_yaml, "%s/sub/x.yaml", dir);
  assert_int_equal(manifest_parse(text, strlen(text), abs_yaml, &m, err, sizeof err), 0);
  assert_string_equal(m.problems[0].epilogue_path, cu);
  assert_string_equal(m.problems[0].epilogue_source, residual);
  manifest_free(&m);
  char abs_text[512];
  snprintf(abs_text, sizeof abs_text, "dtype: f16\nproblems: [{m: 1, n: 8, k: 8, epilogue_source: %s}]\n", cu);
  assert_int_equal(manifest_parse(abs_text, strlen(abs_text), "elsewhere/y.yaml", &m, err, sizeof err), 0);
  assert_string_equal(m.problems[0].epilogue_path, cu);
  manifest_free(&m);
  /* An empty source and one with a NUL byte are errors at the value. */
  char empty[256];
  snprintf(empty, sizeof empty, "%s/empty.cu", dir);
  write_file(empty, "");
  static const char uses_empty[] = "dtype: f16\nproblems:\n  - {m: 1, n: 8, k: 8, epilogue_source: empty.cu}\n";
  assert_int_equal(manifest_parse(uses_empty, strlen(uses_empty), yaml, &m, err, sizeof err), -1);
  char want[1024];
  snprintf(want, sizeof want, "%s:3:41: epilogue_source: %s has 0 bytes", yaml, empty);
  if (!strstr(err, want)) fail_msg("%s\ndoes not say %s", err, want);
  FILE *f = fopen(empty, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite("a\0b", 1, 3, f), 3);
  assert_int_equal(fclose(f), 0);
  assert_int_equal(manifest_parse(uses_empty, strlen(uses_empty), yaml, &m, err, sizeof err), -1);
  if (!strstr(err, "holds a NUL byte")) fail_msg("%s", err);
  assert_null(m.problems);
  unlink(empty);
  unlink(cu);
  unlink(yaml);
  rmdir(path);
  rmdir(dir);
}

/* An error case: the YAML, where the error is (1-based) and two texts the message must hold. */
typedef struct bad_case {
  const char *yaml;
  int line, col;
  const char *says, *names;
} bad_case;

static const bad_case bad_cases[] = {
  /* YAML syntax: libyaml's problem and context, with their positions */
  {"problems:\n  - {m: 1, n: 2\n", 3, 1, "did not find expected ',' or '}'", "line 2, column 5"},
  {"problems:\n  - m: 1\n\tn: 2\n", 3, 1, "tab", "line 2, column 8"},
  {"", 1, 1, "empty manifest", "problems:"},
  {"- m: 1\n", 1, 1, "expected a mapping", "a list"},
  {"dtype: bf16\nproblems: [{m: 1, n: 1, k: 1}]\n---\nfoo: 1\n", 4, 1, "second YAML document", "one document"},
  /* unknown keys */
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 2, k: 3, foo: 4}\n", 3, 24, "unknown key", "'foo'"},
  {"dtype: bf16\nsuits: x\nproblems: [{m: 1, n: 1, k: 1}]\n", 2, 1, "unknown top-level key", "'suits'"},
  {"dtype: bf16\nproblems:\n  - {m: {from: 1, to: 8, by: 2}, n: 1, k: 1}\n", 3, 26, "unknown grid key", "'by'"},
  /* wrong types */
  {"dtype: bf16\nproblems:\n  - m: \"abc\"\n    n: 1\n    k: 1\n", 3, 8, "m: expected a non-negative integer", "\"abc\""},
  {"dtype: bf16\nproblems:\n  - m: abc\n    n: 1\n    k: 1\n", 3, 8, "m: expected a non-negative integer", "abc"},
  {"dtype: bf16\nproblems:\n  - m: 64\n    n: 1.5\n    k: 1\n", 4, 8, "n: expected an integer", "1.5"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, op_a: X}\n", 3, 30, "op_a: expected N or T", "X"},
  {"dtype: f8\nproblems: [{m: 1, n: 1, k: 1}]\n", 1, 8, "dtype: unknown type f8", "f16 bf16 f32 tf32 f64 e4m3"},
  {"problems:\n  - {dtype: s8, c_dtype: f16, m: 1, n: 1, k: 1}\n", 2, 26, "c_dtype: f16", "dtype s8"},
  {"targets: [sm_80, sm_75]\ndtype: bf16\nproblems: [{m: 1, n: 1, k: 1}]\n", 1, 18, "targets: unknown arch", "sm_75"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, cublas_h200: fast}\n", 3, 37, "cublas_h200: expected a number", "fast"},
  {"dtype: bf16\nproblems:\n  - 5\n", 3, 5, "an item must be a mapping", "5"},
  {"dtype: bf16\nproblems: {m: 1}\n", 2, 11, "problems: expected a list", "a mapping"},
  /* sizes out of range */
  {"dtype: bf16\nproblems:\n  - m: 64\n    n: -5\n    k: 1\n", 4, 8, "n: negative size", "-5"},
  {"dtype: bf16\nproblems:\n  - {m: [1, -2], n: 1, k: 1}\n", 3, 13, "m: negative size", "-2"},
  {"dtype: bf16\nproblems:\n  - m: 64\n    n: 1\n    k: 2147483648\n", 5, 8, "k: 2147483648", "larger than 2147483647"},
  {"dtype: bf16\nproblems:\n  - {m: [], n: 1, k: 1}\n", 3, 9, "m: empty list", "m:"},
  {"dtype: bf16\nproblems:\n  - {m: {from: 1, to: 8}, n: 1, k: 1}\n", 3, 9, "m: a grid needs", "mul: or add:"},
  {"dtype: bf16\nproblems:\n  - {m: {from: 0, to: 8, mul: 2}, n: 1, k: 1}\n", 3, 16, "m: from: 0", "mul:"},
  {"dtype: bf16\nproblems:\n  - {m: {from: 9, to: 8, add: 2}, n: 1, k: 1}\n", 3, 23, "m: to: 8", "from: 9"},
  /* missing things, empty lists, duplicates */
  {"dtype: bf16\nproblems: []\n", 2, 11, "problems: empty list", "problems"},
  {"dtype: bf16\n", 1, 1, "no problems: list", "problems"},
  {"problems:\n  - {name: a, m: 1, n: 1, k: 1}\n", 2, 5, "problem a has no dtype", "top-level dtype"},
  {"dtype: bf16\nproblems:\n  - {name: a, m: 1, n: 1}\n", 3, 5, "problem a has no k:", "k:"},
  {"dtype: bf16\nproblems:\n  - m: 1\n    n: 1\n    m: 2\n    k: 1\n", 5, 5, "duplicate key 'm'", "line 3, column 5"},
  {"dtype: bf16\nproblems: [{m: 1, n: 1, k: 1}]\ndtype: f16\n", 3, 1, "duplicate key 'dtype'", "line 1, column 1"},
  /* tcj_gemm_ex's keys */
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, epilogue: gelu}\n", 3, 34, "epilogue: unknown epilogue gelu",
   "bias_gelu_tanh bias_silu"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, epilogue: [bias]}\n", 3, 34, "epilogue: unknown epilogue", "a list"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, batch: 0}\n", 3, 31, "batch: 0, must be 1 or more", "batch"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, batch: [2, 4]}\n", 3, 31, "batch: expected a count from 1", "a list"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, batch: two}\n", 3, 31, "batch: expected a non-negative integer", "two"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, batch: 2147483648}\n", 3, 31, "batch: 2147483648", "larger than"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, batch: 2, broadcast_b: yes}\n", 3, 47, "broadcast_b: expected true or false",
   "yes"},
  {"dtype: bf16\nproblems:\n  - {name: x, m: 1, n: 1, k: 1, broadcast_b: true}\n", 3, 46, "broadcast_b: true needs batch: 2",
   "problem x"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, d_dtype: f65}\n", 3, 33, "d_dtype: unknown type f65", "f64 s32"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, d_dtype: f64}\n", 3, 33, "d_dtype: f64 cannot be the output of dtype bf16",
   "bf16 gives f16, bf16 or f32"},
  {"problems:\n  - {dtype: f64, c_dtype: f32, m: 1, n: 1, k: 1}\n", 2, 27, "c_dtype: f32 cannot be the output of dtype f64",
   "f64 gives f64"},
  {"problems:\n  - {dtype: f32, c_dtype: f64, m: 1, n: 1, k: 1}\n", 2, 27, "c_dtype: f64 cannot be the output of dtype f32",
   "f32 gives f32"},
  {"problems:\n  - {dtype: f32, c_dtype: bf16, m: 1, n: 1, k: 1}\n", 2, 27, "c_dtype: bf16", "f32 gives f32"},
  {"problems:\n  - {dtype: f64, m: 1, n: 1, k: 1, fast_accum: true}\n", 2, 48, "fast_accum: true needs fp8", "is f64"},
  {"problems:\n  - {dtype: s8, d_dtype: f16, m: 1, n: 1, k: 1}\n", 2, 26, "d_dtype: f16 cannot be the output of dtype s8",
   "s8 gives s32"},
  {"problems:\n  - {dtype: tf32, d_dtype: bf16, m: 1, n: 1, k: 1}\n", 2, 28, "d_dtype: bf16", "tf32 gives f32"},
  {"problems:\n  - {dtype: e4m3, d_dtype: s32, m: 1, n: 1, k: 1}\n", 2, 28, "d_dtype: s32 cannot be the output of dtype e4m3",
   "e4m3 gives f16, bf16, f32, e4m3 or e5m2"},
  {"problems:\n  - {dtype: e5m2, c_dtype: s32, m: 1, n: 1, k: 1}\n", 2, 28, "c_dtype: s32 cannot be the output of dtype e5m2",
   "e5m2 gives f16, bf16 or f32"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, epilogue_source: /nonexistent/e.cu}\n", 3, 41,
   "epilogue_source: cannot read /nonexistent/e.cu", "No such file"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, epilogue_source: /dev/null}\n", 3, 41, "epilogue_source: /dev/null",
   "not a regular file"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, epilogue_source: /}\n", 3, 41, "epilogue_source: /", "not a regular file"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, epilogue_source: \"\"}\n", 3, 41, "epilogue_source: expected a file name",
   "\"\""},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, epilogue_source: }\n", 3, 41, "epilogue_source: expected a file name",
   "nothing"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, batch: 2, batch: 3}\n", 3, 34, "duplicate key 'batch'", "column 24"},
  /* the MoE extras: each key's bad value, and each key where it means nothing, by name */
  {"dtype: e4m3\nproblems:\n  - {m: 1, n: 1, k: 1, scale: rowwise}\n", 3, 31, "scale: unknown scale mode rowwise",
   "tensor block row"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, scale: row}\n", 3, 31, "scale: row needs fp8 operands", "is bf16"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, epilogue: swiglu2}\n", 3, 34, "epilogue: unknown epilogue swiglu2",
   "swiglu bias_swiglu"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, row_scale: yes}\n", 3, 35, "row_scale: expected true or false",
   "yes"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, b_ptrs: 1}\n", 3, 32, "b_ptrs: expected true or false", "1"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, gather: on}\n", 3, 32, "gather: expected true or false", "on"},
  {"dtype: bf16\nproblems:\n  - {name: p, m: 1, n: 1, k: 1, b_ptrs: true}\n", 3, 41,
   "b_ptrs: true needs group: mode: contiguous or masked", "problem p"},
  {"dtype: bf16\nproblems:\n  - {name: p, m: 8, n: 8, b_ptrs: true, group: {mode: k, experts: 4, tokens: 8, "
   "topk: 1}}\n", 3, 35, "b_ptrs: true needs group: mode: contiguous or masked", "problem p"},
  {"dtype: bf16\nproblems:\n  - {name: p, n: 8, k: 8, gather: true, group: {mode: masked, experts: 4, max_rows: 8, "
   "tokens: 8, topk: 1}}\n", 3, 35, "gather: true needs group: mode: contiguous and op_a: N", "problem p"},
  {"dtype: bf16\nproblems:\n  - {name: p, n: 8, k: 8, op_a: T, gather: true, group: {mode: contiguous, experts: 4, "
   "tokens: 8, topk: 1}}\n", 3, 44, "gather: true needs group: mode: contiguous and op_a: N", "problem p"},
  {"dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, scatter: sum}\n", 3, 33, "scatter: expected store or add", "sum"},
  {"dtype: bf16\nproblems:\n  - {name: p, m: 8, n: 8, k: 8, scatter: store}\n", 3, 42,
   "scatter: needs group: mode: contiguous", "problem p"},
  {"dtype: bf16\nproblems:\n  - {name: p, n: 8, k: 8, scatter: add, group: {mode: contiguous, experts: 4, tokens: 8, "
   "topk: 1}}\n", 3, 36, "scatter: add adds into an f32 D: give d_dtype: f32", "problem p has bf16"},
  {"dtype: bf16\nproblems:\n  - {name: p, m: 8, n: 8, k: 8, group: {mode: k, experts: 4, tokens: 8, topk: 1}}\n", 3,
   30, "k: a K-grouped problem (group: mode: k) takes k from group:", "problem p"},
  {"dtype: bf16\nproblems:\n  - {n: 8, group: {mode: k, experts: 4, tokens: 8, topk: 1}}\n", 3, 5, "has no m:", "#1"},
  {"dtype: bf16\nproblems:\n  - {m: 8, n: 8, group: {mode: k, experts: 4, tokens: 8, topk: 1, max_rows: 8}}\n", 3, 77,
   "group: max_rows: is for mode: masked", "k groups k ="},
  {"dtype: bf16\nproblems:\n  - {m: 8, n: 8, batch: 2, group: {mode: k, experts: 4, tokens: 8, topk: 1}}\n", 3, 25,
   "batch: a grouped problem", "experts / ep"},
  /* group: */
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: 4}\n", 3, 25, "group: expected a mapping", "mode, experts"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {experts: 4, tokens: 8, topk: 1}}\n", 3, 25, "group: needs mode:",
   "contiguous, masked or k"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: ragged, experts: 4, tokens: 8, topk: 1}}\n", 3, 32,
   "group: mode: expected contiguous, masked or k", "ragged"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, tokens: 8, topk: 1}}\n", 3, 25,
   "group: needs experts:, tokens: and topk:", "experts: missing"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1, shards: 2}}\n",
   3, 76, "group: unknown key 'shards'", "max_rows, skew"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 0, tokens: 8, topk: 1}}\n", 3, 53,
   "group: experts: 0", "must be 1 to 65536"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 6, ep: 4, tokens: 8, topk: 1}}\n", 3,
   60, "group: ep: 4 does not divide experts: 6", "experts / ep"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 5}}\n", 3, 73,
   "group: topk: 5", "experts: 4"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, ep: 4, tokens: 3, topk: 1}}\n", 3,
   71, "routed rows do not divide by ep: 4", "tokens * topk = 3"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: -8, topk: 1}}\n", 3, 64,
   "group: tokens: negative size", "-8"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 8, tokens: 16777216, topk: 8}}\n", 3,
   64, "more than 67108864", "routed rows"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: masked, experts: 4, tokens: 8, topk: 1}}\n", 3, 25,
   "mode: masked needs max_rows:", "m)"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1, max_rows: 8}}\n",
   3, 86, "group: max_rows: is for mode: masked", "tokens * topk / ep"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: masked, experts: 4, tokens: 8, topk: 1, max_rows: 0}}\n", 3,
   82, "group: max_rows: 0", "1 or more"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1, skew: pareto}}\n",
   3, 82, "group: skew: unknown routing pareto", "uniform zipf even"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1, exponent: 2}}\n",
   3, 86, "group: exponent: is zipf's", "skew: zipf"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1, skew: zipf, "
   "exponent: -1}}\n", 3, 98, "group: exponent: expected a number above 0", "-1"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: masked, experts: 4, tokens: 8, topk: 1, max_rows: 4, ends: "
   "int64}}\n", 3, 91, "group: ends: is for mode: contiguous", "int32 counts"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1, ends: int16}}\n",
   3, 82, "group: ends: expected int32 or int64", "int16"},
  {"dtype: bf16\nproblems:\n  - {name: g, m: 8, n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1}}\n",
   3, 18, "m: a grouped problem (group:) takes its rows from group:", "problem g"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, batch: 2, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1}}\n", 3,
   25, "batch: a grouped problem", "experts / ep"},
  {"dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: contiguous, experts: 4, tokens: 8, topk: 1, seed: x}}\n", 3,
   82, "group: seed: expected a non-negative integer", "x"},
};

/* The MoE extras: swiglu epilogues, row scales, row_scale, B pointer arrays, row gathers and the
 * K-grouped mode (k from group:, op_a T and op_b N by default, m: given). */
static void moe_keys_parse(void **state) {
  (void)state;
  manifest m;
  load_text("problems:\n"
            "  - {name: up, dtype: bf16, n: 768, k: 2048, epilogue: swiglu, b_ptrs: true, gather: true, "
            "group: {mode: contiguous, experts: 128, tokens: 64, topk: 8}}\n"
            "  - {name: upb, dtype: bf16, m: 4, n: 8, k: 16, epilogue: bias_swiglu, row_scale: false}\n"
            "  - {name: down, dtype: bf16, n: 2048, k: 768, row_scale: true, group: {mode: masked, experts: 8, "
            "max_rows: 16, tokens: 16, topk: 2}}\n"
            "  - {name: rows, dtype: e4m3, n: 4096, k: 7168, scale: row, fast_accum: true, group: {mode: contiguous, "
            "experts: 4, tokens: 8, topk: 1}}\n"
            "  - {name: wgrad, dtype: bf16, m: [768, 1536], n: 2048, group: {mode: k, experts: 128, tokens: 16384, "
            "topk: 8, ends: int64}}\n",
            &m);
  assert_int_equal(m.nproblems, 6);
  const manifest_problem *p = find(&m, "up");
  assert_int_equal(p->epilogue, MANIFEST_EPI_SWIGLU);
  assert_int_equal(manifest_epilogue_act(p->epilogue), TCJ_ACT_SWIGLU);
  assert_int_equal(manifest_epilogue_bias(p->epilogue), TCJ_BIAS_NONE);
  assert_true(p->b_ptrs == 1 && p->gather == 1 && p->row_scale == 0);
  assert_int_equal(p->n, 768); /* D's columns; B holds 2n */
  p = find(&m, "upb");
  assert_int_equal(manifest_epilogue_act(p->epilogue), TCJ_ACT_SWIGLU);
  assert_int_equal(manifest_epilogue_bias(p->epilogue), TCJ_BIAS_COL);
  assert_int_equal(p->row_scale, 0);
  p = find(&m, "down");
  assert_true(p->row_scale == 1 && p->b_ptrs == 0 && p->gather == 0);
  p = find(&m, "rows");
  assert_int_equal(p->scale, TCJ_SCALE_ROW);
  assert_int_equal(p->fast_accum, 1);
  p = find(&m, "wgrad");
  assert_int_equal(p->group.mode, TCJ_GROUP_K_CONTIGUOUS);
  assert_int_equal(p->group.count, 128);
  assert_int_equal(p->k, 16384 * 8); /* the routed rows are K */
  assert_int_equal(p->m, 768);
  assert_int_equal(m.problems[5].m, 1536);
  assert_int_equal(p->n, 2048);
  assert_int_equal(p->op_a, TCJ_OP_T); /* dY [tokens, m] */
  assert_int_equal(p->op_b, TCJ_OP_N); /* X [tokens, n] */
  assert_int_equal(p->group.ends64, 1);
  manifest_free(&m);
}

/* group: a grouped problem's rows, groups and routing, with their defaults. */
static void group_keys_parse_with_their_defaults(void **state) {
  (void)state;
  manifest m;
  load_text("dtype: bf16\n"
            "problems:\n"
            "  - {name: up, n: [4096, 8], k: 7168, group: {mode: contiguous, experts: 256, ep: 8, tokens: 4096, "
            "topk: 8, skew: zipf, seed: 7, ends: int64}}\n"
            "  - {name: dec, n: 7168, k: 2048, op_b: N, group: {mode: masked, experts: 32, max_rows: 128, tokens: 128, "
            "topk: 8}}\n"
            "  - {name: even, n: 64, k: 64, group: {mode: contiguous, experts: 4, tokens: 10, topk: 1, skew: even, "
            "ends: int32}}\n"
            "  - {name: plain, m: 8, n: 8, k: 8}\n",
            &m);
  assert_int_equal(m.nproblems, 5);
  const manifest_problem *p = &m.problems[0];
  assert_string_equal(p->name, "up");
  assert_int_equal(p->group.mode, TCJ_GROUP_M_CONTIGUOUS);
  assert_int_equal(p->group.count, 32);
  assert_int_equal(p->group.rows, 4096 * 8 / 8);
  assert_int_equal(p->m, 4096);
  assert_int_equal(p->n, 4096);
  assert_int_equal(p->k, 7168);
  assert_int_equal(p->op_b, TCJ_OP_T); /* a grouped problem's default: nn.Linear's [G, N, K] */
  assert_int_equal(p->group.skew, MANIFEST_SKEW_ZIPF);
  assert_true(p->group.exponent == MANIFEST_ZIPF_EXPONENT);
  assert_int_equal(p->group.seed, 7);
  assert_int_equal(p->group.ends64, 1);
  assert_int_equal(p->batch, 1);
  assert_int_equal(m.problems[1].n, 8); /* n's list expands as for any problem */
  assert_int_equal(m.problems[1].group.count, 32);
  p = find(&m, "dec");
  assert_int_equal(p->group.mode, TCJ_GROUP_M_MASKED);
  assert_int_equal(p->m, 128); /* max_rows */
  assert_int_equal(p->group.rows, 1024);
  assert_int_equal(p->group.count, 32);
  assert_int_equal(p->group.ep, 1);
  assert_int_equal(p->group.seed, 1);
  assert_int_equal(p->group.skew, MANIFEST_SKEW_UNIFORM);
  assert_int_equal(p->op_b, TCJ_OP_N); /* as given */
  p = find(&m, "even");
  assert_int_equal(p->group.ends64, 0);
  assert_int_equal(p->group.skew, MANIFEST_SKEW_EVEN);
  assert_int_equal(find(&m, "plain")->group.mode, TCJ_GROUP_NONE);
  assert_int_equal(find(&m, "plain")->op_b, TCJ_OP_N);
  manifest_free(&m);
}

static int64_t sum_of(const int64_t *v, int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; i++) s += v[i];
  return s;
}

/* The routing: sizes sum to the routed rows (masked: capped at max_rows), are the same for a seed
 * and differ between seeds, zipf is skewed where uniform is not, even has no randomness. */
static void group_sizes_follow_the_routing(void **state) {
  (void)state;
  enum { G = 32 };
  int64_t a[G], b[G], c[G];
  manifest_group g = {.mode = TCJ_GROUP_M_CONTIGUOUS, .experts = 256, .ep = 8, .count = G, .tokens = 4096,
                      .topk = 8, .rows = 4096, .skew = MANIFEST_SKEW_UNIFORM, .seed = 1};
  manifest_group_sizes(&g, a);
  manifest_group_sizes(&g, b);
  assert_int_equal(sum_of(a, G), 4096);
  assert_memory_equal(a, b, sizeof a);
  int64_t umax = 0;
  for (int i = 0; i < G; i++) umax = a[i] > umax ? a[i] : umax;
  assert_true(umax < 2 * 128); /* uniform: near 128 each */
  g.seed = 2;
  manifest_group_sizes(&g, b);
  assert_int_equal(sum_of(b, G), 4096);
  assert_memory_not_equal(a, b, sizeof a);
  g.skew = MANIFEST_SKEW_ZIPF;
  g.exponent = 1.0;
  manifest_group_sizes(&g, c);
  assert_int_equal(sum_of(c, G), 4096);
  int64_t zmax = 0, zmin = 4096;
  for (int i = 0; i < G; i++) {
    zmax = c[i] > zmax ? c[i] : zmax;
    zmin = c[i] < zmin ? c[i] : zmin;
  }
  /* zipf 1.0 over 32: the heaviest group ~24% of the rows, the lightest ~0.75% */
  assert_true(zmax > 700 && zmax < 1300);
  assert_true(zmin < 60);
  assert_true(c[0] != zmax || c[1] != zmax); /* one heaviest, placed by the seed's permutation */
  g.skew = MANIFEST_SKEW_EVEN;
  g.rows = 10;
  g.count = 4;
  manifest_group_sizes(&g, a);
  assert_true(a[0] == 3 && a[1] == 3 && a[2] == 2 && a[3] == 2);
  /* Fewer rows than groups: empty groups. */
  g.skew = MANIFEST_SKEW_UNIFORM;
  g.rows = 3;
  g.count = G;
  manifest_group_sizes(&g, a);
  assert_int_equal(sum_of(a, G), 3);
  /* Masked: a group never holds more than max_rows. */
  g.mode = TCJ_GROUP_M_MASKED;
  g.skew = MANIFEST_SKEW_ZIPF;
  g.rows = 1024;
  g.max_rows = 64;
  manifest_group_sizes(&g, c);
  int64_t over = 0;
  for (int i = 0; i < G; i++) over += c[i] > 64;
  assert_int_equal(over, 0);
  assert_true(sum_of(c, G) < 1024); /* zipf's heavy groups were capped */
}

/* fp8 keys: b_dtype (the other fp8 type for B), fast_accum, scale; C defaults to bf16 for fp8. */
static void fp8_keys_parse_with_their_defaults(void **state) {
  (void)state;
  manifest m;
  load_text("dtype: e4m3\n"
            "problems:\n"
            "  - {name: plain, m: 1, n: 2, k: 3, op_b: T}\n"
            "  - {name: pair, m: 1, n: 2, k: 3, b_dtype: e5m2, fast_accum: true}\n"
            "  - {name: block, dtype: e5m2, m: 1, n: 2, k: 3, scale: block, d_dtype: e4m3}\n"
            "  - {name: tensor, m: 1, n: 2, k: 3, scale: tensor, fast_accum: false, c_dtype: f32}\n",
            &m);
  assert_int_equal(m.nproblems, 4);
  const manifest_problem *p = find(&m, "plain");
  assert_int_equal(p->ab, TCJ_E4M3);
  assert_int_equal(p->b, TCJ_E4M3);
  assert_int_equal(p->c, TCJ_BF16);
  assert_int_equal(p->has_b, 0);
  assert_int_equal(p->fast_accum, 0);
  assert_int_equal(p->scale, TCJ_SCALE_TENSOR);
  p = find(&m, "pair");
  assert_true(p->has_b && p->b == TCJ_E5M2 && p->fast_accum == 1);
  p = find(&m, "block");
  assert_true(p->ab == TCJ_E5M2 && p->scale == TCJ_SCALE_BLOCK && p->has_d && p->d == TCJ_E4M3);
  p = find(&m, "tensor");
  assert_true(p->scale == TCJ_SCALE_TENSOR && p->fast_accum == 0 && p->c == TCJ_F32);
  manifest_free(&m);
  /* Refused where they mean nothing: fp8 keys on other dtypes, block with fast accumulation. */
  static const char *const bad[] = {
    "dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, fast_accum: true}\n",
    "dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, b_dtype: e5m2}\n",
    "dtype: e4m3\nproblems:\n  - {m: 1, n: 1, k: 1, scale: block, fast_accum: true}\n",
    "dtype: e4m3\nproblems:\n  - {m: 1, n: 1, k: 1, scale: rows}\n",
    "dtype: e4m3\nproblems:\n  - {m: 1, n: 1, k: 1, c_dtype: e4m3}\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char path[64], err[1024] = "";
    write_temp(bad[i], path, sizeof path);
    int rc = manifest_load(path, &m, err, sizeof err);
    unlink(path);
    if (rc != -1) print_error("accepted:\n%s", bad[i]);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, ":3:")); /* the problem's line */
  }
}

static void errors_name_file_line_column_and_value(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
    const bad_case *c = &bad_cases[i];
    char path[64], err[1024] = "", want[128];
    manifest m;
    write_temp(c->yaml, path, sizeof path);
    int rc = manifest_load(path, &m, err, sizeof err);
    unlink(path);
    if (rc != -1) print_error("case %zu was accepted:\n%s", i, c->yaml);
    assert_int_equal(rc, -1);
    assert_int_equal(m.nproblems, 0);
    assert_null(m.problems);
    int n = snprintf(want, sizeof want, "%s:%d:%d: ", path, c->line, c->col);
    char got[128];
    snprintf(got, sizeof got, "%.*s", n, err);
    if (strcmp(got, want) != 0) print_error("case %zu: %s\n", i, err);
    assert_string_equal(got, want);
    if (!strstr(err, c->says) || !strstr(err, c->names)) {
      print_error("case %zu: \"%s\" does not say \"%s\" and \"%s\"\n", i, err, c->says, c->names);
      fail();
    }
  }
}

static void unreadable_file_names_the_path(void **state) {
  (void)state;
  manifest m;
  char err[256];
  assert_int_equal(manifest_load("/nonexistent/tcj.yaml", &m, err, sizeof err), -1);
  assert_non_null(strstr(err, "/nonexistent/tcj.yaml: cannot open"));
  manifest_free(&m); /* an empty manifest: no-op */
  manifest_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(bench_suite_parses_with_its_defaults),
    cmocka_unit_test(committed_suite_is_the_bench_suite_then_its_own_rows),
    cmocka_unit_test(gemm_ex_keys_parse_with_their_defaults),
    cmocka_unit_test(fp8_keys_parse_with_their_defaults),
    cmocka_unit_test(group_keys_parse_with_their_defaults),
    cmocka_unit_test(moe_keys_parse),
    cmocka_unit_test(group_sizes_follow_the_routing),
    cmocka_unit_test(epilogue_source_is_read_beside_the_manifest),
    cmocka_unit_test(lists_expand_to_the_cross_product),
    cmocka_unit_test(grids_expand_by_mul_and_add),
    cmocka_unit_test(dtypes_ops_and_names_take_their_defaults),
    cmocka_unit_test(targets_are_read_in_order),
    cmocka_unit_test(errors_name_file_line_column_and_value),
    cmocka_unit_test(unreadable_file_names_the_path),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
