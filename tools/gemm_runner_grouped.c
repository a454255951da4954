/* SPDX-License-Identifier: Apache-2.0 */
/* The grouped baselines (gemm_runner.h): cublasGemmGroupedBatchedEx with one cuBLAS group per
 * non-empty expert, and a cuBLAS call per non-empty group on one stream. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/gemm_runner_int.h"

/* Why cuBLAS has no grouped baseline for p, or NULL. */
const char *gr_grouped_unavailable(const gemm_problem *p) {
  if (p->bias != TCJ_BIAS_NONE || p->act != TCJ_ACT_NONE || p->epilogue_source)
    return "cuBLAS's grouped GEMMs have no epilogue";
  return NULL;
}

typedef cublasStatus_t (*grouped_fn)(cublasHandle_t, const cublasOperation_t[], const cublasOperation_t[],
                                     const int[], const int[], const int[], const void *, const void *const[],
                                     cudaDataType_t, const int[], const void *const[], cudaDataType_t, const int[],
                                     const void *, void *const[], cudaDataType_t, const int[], int, const int[],
                                     cublasComputeType_t);

/* The device pointer arrays of one operand set (A's, B's and C's of every cuBLAS group, in one
 * allocation): made at open for every buffer set, so that timing uploads nothing; one more slot
 * for any other output (the check's), uploaded when it is asked for. */
#define GR_GROUP_SLOTS (GR_MAX_SETS + 1)
struct gr_grouped_args {
  int count; /* cuBLAS groups: one per non-empty expert */
  grouped_fn fn;
  cublasOperation_t *ta, *tb;
  int *m, *n, *k, *lda, *ldb, *ldc, *size;
  float *alpha, *beta;
  int64_t *a_off, *b_off, *c_off; /* elements */
  struct { const void *a, *b; void *c; void **dev; } slot[GR_GROUP_SLOTS];
  int nslots;
};

/* Group g's first row (CONTIGUOUS: in A, C and D; MASKED: 0 of entry g) by element offsets of
 * its A, B and C/D. */
static void group_offsets(const gemm_problem *p, int64_t g, int64_t row0, int64_t *a, int64_t *b, int64_t *c) {
  if (p->group_mode == TCJ_GROUP_M_MASKED) {
    *a = g * p->m * p->k;
    *c = g * p->m * p->n;
  } else {
    *a = p->op_a == TCJ_OP_N ? row0 * gemm_lda(p) : row0;
    *c = row0 * p->n;
  }
  *b = g * p->k * p->n;
}

void gr_grouped_free(gr_grouped_args *ga) {
  if (!ga) return;
  for (int i = 0; i < ga->nslots; i++) cudaFree(ga->slot[i].dev);
  free(ga->a_off); /* the start of the one allocation that holds every host array */
  free(ga);
}

/* Slot i for (a, b, c): its pointer arrays uploaded on the stream. 0, or -1 with note. */
static int grouped_slot(const gr_gpu *g, const gemm_problem *p, gr_grouped_args *ga, int i, const void *a,
                        const void *b, void *c, char *note, size_t note_size) {
  size_t n = (size_t)ga->count, es = gemm_dtype_size(p->ab), esb = gemm_dtype_size(gemm_b_dtype(p)),
         esc = gemm_dtype_size(gemm_out_dtype(p));
  void **h = malloc(3 * n * sizeof *h);
  cudaError_t ce = h ? cudaSuccess : cudaErrorMemoryAllocation;
  if (ce == cudaSuccess && !ga->slot[i].dev) ce = cudaMalloc((void **)&ga->slot[i].dev, 3 * n * sizeof *h);
  for (size_t e = 0; ce == cudaSuccess && e < n; e++) {
    h[e] = (char *)(uintptr_t)b + ga->b_off[e] * (int64_t)esb; /* cuBLAS's A is our B */
    h[n + e] = (char *)(uintptr_t)a + ga->a_off[e] * (int64_t)es;
    h[2 * n + e] = (char *)c + ga->c_off[e] * (int64_t)esc;
  }
  if (ce == cudaSuccess) ce = cudaMemcpyAsync(ga->slot[i].dev, h, 3 * n * sizeof *h, cudaMemcpyHostToDevice, g->stream);
  if (ce == cudaSuccess) ce = cudaStreamSynchronize(g->stream);
  free(h);
  if (ce != cudaSuccess) {
    snprintf(note, note_size, "cublasGemmGroupedBatchedEx's pointer arrays: %s", cudaGetErrorName(ce));
    return -1;
  }
  ga->slot[i].a = a;
  ga->slot[i].b = b;
  ga->slot[i].c = c;
  return 0;
}

/* cuBLAS 12.5 (120500) brought cublasGemmGroupedBatchedEx: by the library's runtime version, and
 * its symbol in the process (the headers this was built with may be newer than the library). */
static grouped_fn grouped_symbol(const gr_gpu *g, char *note, size_t note_size) {
  int version = 0;
  if (cublasGetVersion(g->blas, &version) != CUBLAS_STATUS_SUCCESS || version < 120500) {
    snprintf(note, note_size, "no baseline: cuBLAS %d.%d.%d has no cublasGemmGroupedBatchedEx (12.5 or later)",
             version / 10000, version / 100 % 100, version % 100);
    return NULL;
  }
  grouped_fn fn;
  *(void **)&fn = dlsym(RTLD_DEFAULT, "cublasGemmGroupedBatchedEx");
  if (!fn) snprintf(note, note_size, "no baseline: cublasGemmGroupedBatchedEx not found in the cuBLAS library");
  return fn;
}

int gr_baseline_open_grouped(gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, int loop, gr_baseline *base,
                             char *note, size_t note_size) {
  memset(base, 0, sizeof *base);
  const char *why = gr_grouped_unavailable(p);
  base->kind = why ? GR_BASE_NONE : loop ? GR_BASE_GROUP_LOOP : GR_BASE_GROUPED;
  snprintf(base->label, sizeof base->label, "%s", why ? "-" : loop ? "cublasGemmEx_loop" : "cublasGroupedBatched");
  if (why) {
    snprintf(note, note_size, "no baseline: %s", why);
    return 1;
  }
  if (!p->group_sizes) {
    snprintf(note, note_size, "a grouped baseline needs the group sizes");
    return -1;
  }
  if (loop) return 0;
  grouped_fn fn = grouped_symbol(g, note, note_size);
  if (!fn) {
    base->kind = GR_BASE_NONE;
    snprintf(base->label, sizeof base->label, "-");
    return 1;
  }
  gr_grouped_args *ga = calloc(1, sizeof *ga);
  size_t G = (size_t)p->groups;
  /* Host arrays in one block: 2 op arrays, 7 int arrays, 2 float arrays, 3 offset arrays. */
  size_t bytes = 2 * G * sizeof(cublasOperation_t) + 7 * G * sizeof(int) + 2 * G * sizeof(float) + 3 * G * sizeof(int64_t);
  char *block = ga ? malloc(bytes + 64) : NULL;
  if (!block) {
    free(ga);
    snprintf(note, note_size, "host out of memory");
    return -1;
  }
  ga->fn = fn;
  ga->a_off = (int64_t *)(void *)block; /* the 8-byte arrays first, for their alignment */
  ga->b_off = ga->a_off + G;
  ga->c_off = ga->b_off + G;
  ga->ta = (cublasOperation_t *)(void *)(ga->c_off + G);
  ga->tb = ga->ta + G;
  ga->m = (int *)(void *)(ga->tb + G);
  ga->n = ga->m + G;
  ga->k = ga->n + G;
  ga->lda = ga->k + G;
  ga->ldb = ga->lda + G;
  ga->ldc = ga->ldb + G;
  ga->size = ga->ldc + G;
  ga->alpha = (float *)(void *)(ga->size + G);
  ga->beta = ga->alpha + G;
  int64_t row0 = 0;
  for (int64_t e = 0; e < p->groups; e++) {
    int64_t rows = p->group_sizes[e];
    if (rows > 0) {
      int i = ga->count++;
      group_offsets(p, e, row0, &ga->a_off[i], &ga->b_off[i], &ga->c_off[i]);
      ga->ta[i] = gr_blas_op(p->op_b);
      ga->tb[i] = gr_blas_op(p->op_a);
      ga->m[i] = (int)p->n;
      ga->n[i] = (int)rows;
      ga->k[i] = (int)p->k;
      ga->lda[i] = (int)gemm_ldb(p);
      ga->ldb[i] = (int)gemm_lda(p);
      ga->ldc[i] = (int)p->n;
      ga->size[i] = 1;
      ga->alpha[i] = 1;
      ga->beta[i] = 0;
    }
    if (p->group_mode == TCJ_GROUP_M_CONTIGUOUS) row0 += rows;
  }
  base->grouped = ga;
  for (int s = 0; s < buf->sets; s++) {
    if (grouped_slot(g, p, ga, ga->nslots, buf->a[s], buf->b[s], buf->c[s], note, note_size) != 0) return -1;
    ga->nslots++;
  }
  ga->nslots++; /* the spare slot, empty */
  ga->slot[ga->nslots - 1].dev = NULL;
  return 0;
}

/* One grouped baseline call on g->stream. */
cublasStatus_t gr_grouped_run(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const void *a,
                                  const void *b, void *c, char *note, size_t note_size) {
  const void *alpha, *beta;
  gr_unit_scalars(p, &alpha, &beta);
  tcj_dtype out = gemm_out_dtype(p);
  if (base->kind == GR_BASE_GROUP_LOOP) {
    size_t es = gemm_dtype_size(p->ab), esb = gemm_dtype_size(gemm_b_dtype(p)), esc = gemm_dtype_size(out);
    int64_t row0 = 0;
    for (int64_t e = 0; e < p->groups; e++) {
      int64_t rows = p->group_sizes[e], ao, bo, co;
      group_offsets(p, e, row0, &ao, &bo, &co);
      if (p->group_mode == TCJ_GROUP_M_CONTIGUOUS) row0 += rows;
      if (rows <= 0) continue;
      cublasStatus_t st = cublasGemmEx(g->blas, gr_blas_op(p->op_b), gr_blas_op(p->op_a), (int)p->n, (int)rows, (int)p->k,
                                       alpha, (const char *)b + bo * (int64_t)esb, gr_cuda_type(gemm_b_dtype(p)),
                                       (int)gemm_ldb(p), (const char *)a + ao * (int64_t)es, gr_cuda_type(p->ab),
                                       (int)gemm_lda(p), beta, (char *)c + co * (int64_t)esc, gr_cuda_type(out), (int)p->n,
                                       gr_compute_type(p), CUBLAS_GEMM_DEFAULT);
      if (st != CUBLAS_STATUS_SUCCESS) return st;
    }
    return CUBLAS_STATUS_SUCCESS;
  }
  gr_grouped_args *ga = base->grouped;
  int i = 0;
  while (i < ga->nslots && !(ga->slot[i].a == a && ga->slot[i].b == b && ga->slot[i].c == c)) i++;
  if (i == ga->nslots) { /* another output (the check's): the spare slot, uploaded now (untimed) */
    i = ga->nslots - 1;
    if (grouped_slot(g, p, ga, i, a, b, c, note, note_size) != 0) return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  void **dev = ga->slot[i].dev;
  size_t n = (size_t)ga->count;
  return ga->fn(g->blas, ga->ta, ga->tb, ga->m, ga->n, ga->k, ga->alpha, (const void *const *)dev,
                gr_cuda_type(gemm_b_dtype(p)), ga->lda, (const void *const *)(dev + n), gr_cuda_type(p->ab), ga->ldb,
                ga->beta, dev + 2 * n, gr_cuda_type(out), ga->ldc, ga->count, ga->size, gr_compute_type(p));
}

