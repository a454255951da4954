/* SPDX-License-Identifier: Apache-2.0 */
/* The cuBLAS side of a dense problem (gemm_runner.h): cublasGemmEx, cublasGemmStridedBatchedEx,
 * cuBLASLt with its bias/activation epilogues and fp8 scales, or cuBLASLt then an activation
 * kernel; and the dispatch of every baseline, grouped ones (gemm_runner_grouped.c) included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/gemm_runner_int.h"

/* Why cuBLASLt has no fp8 GEMM for p, or NULL when it may have one (its heuristic decides). */
static const char *fp8_unavailable(const gemm_problem *p) {
  if (p->scale == TCJ_SCALE_BLOCK) return "cuBLASLt on Hopper has no block-scaled fp8 GEMM";
  if (p->ab == TCJ_E5M2)
    return "cuBLASLt has no e5m2 x e5m2 GEMM (only e4m3 x e4m3, e4m3 x e5m2 and e5m2 x e4m3)";
  if (p->op_a != TCJ_OP_N || p->op_b != TCJ_OP_T)
    return "cuBLASLt's fp8 GEMMs take only its TN layout (row-major op_a N, op_b T: both operands K-major)";
  return NULL;
}

/* Why cuBLAS has no dense baseline for p, or NULL: the MoE epilogues it does not fuse, fp8 that
 * cuBLASLt does not take. */
static const char *dense_unavailable(const gemm_problem *p) {
  if (p->act == TCJ_ACT_SWIGLU) return "cuBLAS has no SwiGLU epilogue (a GEMM of 2n columns then a kernel is not built)";
  if (p->row_scale) return "cuBLAS has no row scale of D (row_scale)";
  return gemm_dtype_is_fp8(p->ab) ? fp8_unavailable(p) : NULL;
}

static gr_base_kind base_kind(const gemm_problem *p) {
  if (gemm_is_grouped(p)) return gr_grouped_unavailable(p) ? GR_BASE_NONE : GR_BASE_GROUPED;
  if (dense_unavailable(p)) return GR_BASE_NONE;
  if (p->act == TCJ_ACT_SILU || p->act == TCJ_ACT_GELU_TANH) return GR_BASE_LT_ACT;
  if (p->bias != TCJ_BIAS_NONE || p->act != TCJ_ACT_NONE || gemm_dtype_is_fp8(p->ab)) return GR_BASE_LT;
  return gemm_batch(p) > 1 ? GR_BASE_STRIDED : GR_BASE_GEMMEX;
}

/* cuBLASLt's epilogue for p's bias and activation (the BIAS epilogue before a kernel). */
static cublasLtEpilogue_t lt_epilogue(const gemm_problem *p) {
  if (p->bias == TCJ_BIAS_NONE && p->act == TCJ_ACT_NONE) return CUBLASLT_EPILOGUE_DEFAULT; /* fp8 */
  switch (p->act) {
  case TCJ_ACT_RELU: return CUBLASLT_EPILOGUE_RELU_BIAS;
  case TCJ_ACT_GELU: return CUBLASLT_EPILOGUE_GELU_BIAS;
  default: return CUBLASLT_EPILOGUE_BIAS;
  }
}

void gr_baseline_label(const gemm_problem *p, char *out, size_t size) {
  const char *s = "?";
  switch (p->epilogue_source ? GR_BASE_NONE : base_kind(p)) {
  case GR_BASE_NONE: s = "-"; break;
  case GR_BASE_GEMMEX: /* cublasGemmEx; f32 and f64 are what cublasSgemm and cublasDgemm compute */
    s = p->ab == TCJ_F32 ? "cublasSgemm" : p->ab == TCJ_F64 ? "cublasDgemm" : "cublasGemmEx";
    break;
  case GR_BASE_STRIDED: s = "cublasStridedBatched"; break;
  case GR_BASE_LT:
    s = p->act == TCJ_ACT_RELU     ? "cublasLt+relu_bias"
        : p->act == TCJ_ACT_GELU   ? "cublasLt+gelu_bias"
        : p->bias != TCJ_BIAS_NONE ? "cublasLt+bias"
                                   : "cublasLt"; /* fp8 without an epilogue */
    break;
  case GR_BASE_LT_ACT:
    s = p->act == TCJ_ACT_SILU ? "cublasLt+bias+silu_kernel" : "cublasLt+bias+gelu_tanh_kernel";
    break;
  case GR_BASE_GROUPED: s = "cublasGroupedBatched"; break;
  case GR_BASE_GROUP_LOOP: s = "cublasGemmEx_loop"; break;
  }
  int fast = gemm_dtype_is_fp8(p->ab) && p->fast_accum && strcmp(s, "-") != 0;
  snprintf(out, size, "%s%s", s, fast ? "+fast_accum" : "");
}

/* A column-major layout of rows x cols (ld rows), batched when batch > 1. */
static int lt_layout(cublasLtMatrixLayout_t *l, tcj_dtype t, int64_t rows, int64_t cols, int64_t ld, int64_t batch,
                     int64_t stride, char *note, size_t note_size) {
  LT_TRY(cublasLtMatrixLayoutCreate(l, gr_cuda_type(t), (uint64_t)rows, (uint64_t)cols, ld), "layout");
  if (batch > 1) {
    int32_t count = (int32_t)batch;
    LT_TRY(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count),
           "batch count");
    LT_TRY(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
           "batch stride");
  }
  return 0;
}

/* fp8's attributes: the scales (cuBLAS's A is our B: A_SCALE is scale_b) and the accumulation. */
static int lt_fp8(const gemm_problem *p, const gr_buffers *buf, gr_baseline *base, char *note, size_t note_size) {
  const float *scale_a = buf->scales, *scale_b = buf->scales + gemm_scale_b_at(p);
  int8_t fast = (int8_t)(p->fast_accum != 0);
  if (p->scale == TCJ_SCALE_ROW) { /* outer-vector scales: cuBLASLt's A (our B) per our column, its B per our row */
    int32_t mode = CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
    LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof mode),
           "outer-vector A scale mode (cuBLAS 12.9 or later)");
    LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof mode),
           "outer-vector B scale mode (cuBLAS 12.9 or later)");
  }
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_b, sizeof scale_b),
         "A scale pointer");
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_a, sizeof scale_a),
         "B scale pointer");
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast), "fast accum");
  return 0;
}

/* The row-major problem as cuBLASLt's column-major D^T = op(B)^T op(A)^T (+ bias per row of
 * D^T, i.e. per column of D: TCJ_BIAS_COL), with the heuristic's first algorithm. Returns 0, -1
 * (note), or 1 where the heuristic finds no fp8 algorithm: cuBLASLt has none for it here. */
static int lt_open(gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, gr_baseline *base, char *note,
                   size_t note_size) {
  if (!g->lt) LT_TRY(cublasLtCreate(&g->lt), "create");
  if (!g->lt_workspace && cudaMalloc(&g->lt_workspace, GR_LT_WORKSPACE) != cudaSuccess) {
    g->lt_workspace = NULL;
    snprintf(note, note_size, "cuBLASLt workspace: cudaMalloc of %u MiB failed", GR_LT_WORKSPACE >> 20);
    return -1;
  }
  tcj_dtype out = gemm_out_dtype(p);
  LT_TRY(cublasLtMatmulDescCreate(&base->desc, gr_compute_type(p), gr_scale_type(p)), "matmul descriptor");
  cublasOperation_t ta = gr_blas_op(p->op_b), tb = gr_blas_op(p->op_a);
  cublasLtEpilogue_t epi = lt_epilogue(p);
  cudaDataType bias_t = gr_cuda_type(gemm_bias_dtype(p));
  const void *bias = buf->bias[0];
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "transa");
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "transb");
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi), "epilogue");
  if (p->bias != TCJ_BIAS_NONE) {
    LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_t, sizeof bias_t),
           "bias type");
    LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias),
           "bias pointer");
  }
  if (gemm_dtype_is_fp8(p->ab) && lt_fp8(p, buf, base, note, note_size) != 0) return -1;
  int64_t batch = gemm_batch(p);
  if (batch > 1 && p->bias != TCJ_BIAS_NONE) {
    int64_t stride = gemm_stride_bias(p);
    LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &stride, sizeof stride),
           "bias batch stride");
  }
  /* cuBLAS's A is our B (n x k after its op), its B our A (k x m); D^T is n x m. */
  if (lt_layout(&base->la, p->ab, ta == CUBLAS_OP_N ? p->n : p->k, ta == CUBLAS_OP_N ? p->k : p->n, gemm_ldb(p),
                batch, gemm_stride_b(p), note, note_size) ||
      lt_layout(&base->lb, p->ab, tb == CUBLAS_OP_N ? p->k : p->m, tb == CUBLAS_OP_N ? p->m : p->k, gemm_lda(p),
                batch, gemm_stride_a(p), note, note_size) ||
      lt_layout(&base->ld, out, p->n, p->m, p->n, batch, gemm_stride_d(p), note, note_size))
    return -1;
  cublasLtMatmulPreference_t pref = NULL;
  uint64_t ws = GR_LT_WORKSPACE;
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  cublasStatus_t st = cublasLtMatmulPreferenceCreate(&pref);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasLtMatmulAlgoGetHeuristic(g->lt, base->desc, base->la, base->lb, base->ld, base->ld, pref, 1, &result,
                                        &found);
  if (pref) cublasLtMatmulPreferenceDestroy(pref);
  if (st != CUBLAS_STATUS_SUCCESS || found == 0) {
    snprintf(note, note_size, "cuBLASLt has no algorithm for %s %s>%s with this epilogue%s%s: %s", base->label,
             tcj_dtype_name(p->ab), tcj_dtype_name(out), batch > 1 ? " and batch" : "",
             gemm_dtype_is_fp8(p->ab) ? " on this GPU" : "",
             st != CUBLAS_STATUS_SUCCESS ? cublasGetStatusName(st) : "the heuristic found none");
    return gemm_dtype_is_fp8(p->ab) ? 1 : -1; /* fp8: an sm_80 GPU, a k cuBLASLt cannot align, ... */
  }
  base->algo = result.algo;
  return 0;
}

int gr_baseline_open(gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, gr_baseline *base, char *note,
                     size_t note_size) {
  if (gemm_is_grouped(p)) return gr_baseline_open_grouped(g, p, buf, 0, base, note, note_size);
  memset(base, 0, sizeof *base);
  base->kind = base_kind(p);
  gr_baseline_label(p, base->label, sizeof base->label);
  if (p->epilogue_source) {
    snprintf(note, note_size, "a user epilogue has no cuBLAS baseline");
    return -1;
  }
  if (base->kind == GR_BASE_NONE) {
    snprintf(note, note_size, "no baseline: %s", dense_unavailable(p));
    return 1;
  }
  if (base->kind == GR_BASE_LT_ACT) {
    int a = gr_act_index(p->act), t = gr_out_index(gemm_out_dtype(p));
    if (a < 0 || t < 0) {
      snprintf(note, note_size, "no activation kernel for a %s output", tcj_dtype_name(gemm_out_dtype(p)));
      return -1;
    }
    if (!g->act_module) {
      snprintf(note, note_size, "the activation kernels were not compiled (see the message at start)");
      return -1;
    }
    base->act = g->act[a][t];
  }
  if (base->kind == GR_BASE_LT || base->kind == GR_BASE_LT_ACT) {
    int r = lt_open(g, p, buf, base, note, note_size);
    if (r == 1) {
      gr_baseline_close(base);
      base->kind = GR_BASE_NONE;
      snprintf(base->label, sizeof base->label, "-");
    }
    return r;
  }
  return 0;
}

void gr_baseline_close(gr_baseline *base) {
  if (base->la) cublasLtMatrixLayoutDestroy(base->la);
  if (base->lb) cublasLtMatrixLayoutDestroy(base->lb);
  if (base->ld) cublasLtMatrixLayoutDestroy(base->ld);
  if (base->desc) cublasLtMatmulDescDestroy(base->desc);
  base->la = base->lb = base->ld = NULL;
  base->desc = NULL;
  gr_grouped_free(base->grouped);
  base->grouped = NULL;
  gr_lt_groups_free(base->lt);
  base->lt = NULL;
}

int gr_baseline_run(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const void *a, const void *b,
                    void *c, const void *bias, char *note, size_t note_size) {
  cublasStatus_t st;
  tcj_dtype out = gemm_out_dtype(p);
  const void *alpha, *beta;
  gr_unit_scalars(p, &alpha, &beta);
  switch (base ? base->kind : GR_BASE_GEMMEX) {
  case GR_BASE_GEMMEX:
    st = gr_cublas(g, p, a, b, c);
    break;
  case GR_BASE_STRIDED:
    st = cublasGemmStridedBatchedEx(g->blas, gr_blas_op(p->op_b), gr_blas_op(p->op_a), (int)p->n, (int)p->m, (int)p->k,
                                    alpha, b, gr_cuda_type(p->ab), (int)gemm_ldb(p), gemm_stride_b(p), a,
                                    gr_cuda_type(p->ab), (int)gemm_lda(p), gemm_stride_a(p), beta, c, gr_cuda_type(out),
                                    (int)p->n, gemm_stride_d(p), (int)gemm_batch(p), gr_compute_type(p),
                                    CUBLAS_GEMM_DEFAULT);
    break;
  case GR_BASE_NONE:
    snprintf(note, note_size, "%s has no cuBLAS baseline", tcj_dtype_name(p->ab));
    return -1;
  case GR_BASE_GROUPED: case GR_BASE_GROUP_LOOP:
    st = gr_grouped_run(g, p, base, a, b, c, note, note_size);
    break;
  default:
    /* The bias pointer is the descriptor's: each rotated set has its own bias. */
    st = p->bias == TCJ_BIAS_NONE ? CUBLAS_STATUS_SUCCESS
                                  : cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                                                   &bias, sizeof bias);
    if (st == CUBLAS_STATUS_SUCCESS)
      st = cublasLtMatmul(g->lt, base->desc, alpha, b, base->la, a, base->lb, beta, c, base->ld, c, base->ld,
                          &base->algo, g->lt_workspace, GR_LT_WORKSPACE, g->stream);
    if (st == CUBLAS_STATUS_SUCCESS && base->kind == GR_BASE_LT_ACT)
      return gr_act_launch(g, base->act, out, c, (uint64_t)gemm_batch(p) * (uint64_t)(p->m * p->n), note, note_size);
    break;
  }
  if (st != CUBLAS_STATUS_SUCCESS) {
    char label[48];
    if (base) snprintf(label, sizeof label, "%s", base->label);
    else gr_baseline_label(p, label, sizeof label);
    snprintf(note, note_size, "%s: %s", label, cublasGetStatusName(st));
    return -1;
  }
  return 0;
}

