/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU measuring core shared by tcj-bench and tcj-prof (see gemm_runner.h): buffers, the
 * rotated operand sets, tcj's call and cuBLAS's plain one, timing and copy bandwidth. The
 * baselines are in gemm_runner_base.c (dense) and gemm_runner_grouped.c, their activation
 * kernels in gemm_runner_act.c, the check in gemm_runner_check.c. */
#include "tools/gemm_runner.h"

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/gemm_ref.h"
#include "tools/gemm_runner_int.h"
#include "tools/host_half.h"

double gr_now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int gr_open(gr_gpu *g, char *err, size_t err_size) {
  int dev = 0, l2 = 0;
  cudaError_t ce;
  g->blas = NULL;
  g->stream = NULL;
  if ((ce = cudaGetDevice(&dev)) != cudaSuccess ||
      (ce = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev)) != cudaSuccess) {
    snprintf(err, err_size, "device attributes: %s", cudaGetErrorName(ce));
    return -1;
  }
  g->l2_bytes = (size_t)l2;
  if (cublasCreate(&g->blas) != CUBLAS_STATUS_SUCCESS ||
      cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking) != cudaSuccess) {
    snprintf(err, err_size, "cuBLAS handle or stream creation failed");
    gr_close(g);
    return -1;
  }
  cublasSetStream(g->blas, g->stream);
  /* No tf32 behind CUBLAS_COMPUTE_32F: f32 rows are measured against SGEMM (tf32 rows ask for
   * CUBLAS_COMPUTE_32F_FAST_TF32 themselves; 16-bit and fp8 types run on tensor cores anyway). */
  cublasSetMathMode(g->blas, CUBLAS_DEFAULT_MATH);
  return 0;
}

void gr_close(gr_gpu *g) {
  if (g->blas) cublasDestroy(g->blas);
  if (g->lt) cublasLtDestroy(g->lt);
  if (g->lt_workspace) cudaFree(g->lt_workspace);
  if (g->stream) cudaStreamDestroy(g->stream);
  const char *why;
  const eng_cuda_api *cu = g->act_module ? eng_cuda_load(&why) : NULL;
  if (cu) cu->cuModuleUnload(g->act_module);
  g->blas = NULL;
  g->lt = NULL;
  g->lt_workspace = NULL;
  g->stream = NULL;
  g->act_module = NULL;
  memset(g->act, 0, sizeof g->act);
}
static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* An fp8 operand value: +-1/2, +-1, ..., +-4 from the low 4 random bits. Sums of their
 * products (multiples of 1/4) stay exact in fp32 far beyond any k the suite has. */
static float fp8_value(uint64_t r) {
  float v = (float)(r % 8 + 1) * 0.5f;
  return r & 8 ? -v : v;
}

void gr_fill_host(tcj_dtype t, void *buf, size_t n, uint64_t seed) {
  uint8_t fp8[16]; /* fp8_value's 16 values encoded once: a 16384^2 operand has 2^28 of them */
  for (unsigned v = 0; v < 16; v++) fp8[v] = t == TCJ_E5M2 ? f32_to_e5m2(fp8_value(v)) : f32_to_e4m3(fp8_value(v));
  for (size_t i = 0; i < n; i++) {
    uint64_t r = splitmix(&seed);
    float v = (float)((double)(r >> 11) * 0x1.0p-52 - 1.0);
    switch (t) {
    case TCJ_F16: ((uint16_t *)buf)[i] = f32_to_f16(v); break;
    case TCJ_BF16: ((uint16_t *)buf)[i] = f32_to_bf16(v); break;
    case TCJ_S8: ((int8_t *)buf)[i] = (int8_t)((int)(r % 17) - 8); break;
    case TCJ_E4M3: case TCJ_E5M2: ((uint8_t *)buf)[i] = fp8[r & 15]; break;
    case TCJ_F64: ((double *)buf)[i] = (double)(r >> 11) * 0x1.0p-52 - 1.0; break; /* every bit random */
    default: ((float *)buf)[i] = v; break;
    }
  }
}

static const float row_a_pattern[4] = {1, 0.5f, 2, 0.25f}, col_b_pattern[3] = {1, 2, 0.5f},
                   router_pattern[4] = {0.5f, 0.25f, 1, 0.75f};

void gr_extras_fill(const gemm_problem *p, float *scales, float *row_scale, int32_t *gather, int32_t *scatter,
                    int64_t *b_slot) {
  int64_t rows = gemm_d_rows(p), G = gemm_is_grouped(p) ? p->groups : 1;
  if (scales && p->scale != TCJ_SCALE_BLOCK) {
    float *sb = scales + gemm_scale_b_at(p);
    int64_t per = p->scale == TCJ_SCALE_ROW ? gemm_b_cols(p) : 1, stride = gemm_stride_scale_b(p);
    for (int64_t i = 0; i < gemm_scale_b_at(p); i++)
      scales[i] = p->scale == TCJ_SCALE_ROW && i < rows ? GR_SCALE_A * row_a_pattern[i % 4] : GR_SCALE_A;
    for (int64_t g = 0; g < (stride ? G : 1); g++)
      for (int64_t c = 0; c < per; c++) sb[g * stride + c] = GR_SCALE_B * col_b_pattern[(g + c) % 3];
  }
  if (row_scale)
    for (int64_t i = 0; i < rows; i++) row_scale[i] = router_pattern[i % 4];
  if (gather) {
    uint64_t seed = 0x6a7e5ull;
    for (int64_t r = 0; r < p->m; r++) gather[r] = (int32_t)(splitmix(&seed) % (uint64_t)p->gather_rows);
  }
  if (scatter) { /* Fisher-Yates over the routed rows */
    uint64_t seed = 0x5ca77e5ull;
    int64_t routed = 0;
    for (int64_t g = 0; g < G; g++) routed += p->group_sizes[g];
    for (int64_t r = 0; r < p->m; r++) scatter[r] = (int32_t)r;
    for (int64_t r = routed - 1; r > 0; r--) {
      int64_t j = (int64_t)(splitmix(&seed) % (uint64_t)(r + 1));
      int32_t t = scatter[r];
      scatter[r] = scatter[j];
      scatter[j] = t;
    }
  }
  if (b_slot)
    for (int64_t g = 0; g < G; g++) b_slot[g] = G - 1 - g;
}

/* The MoE extras' arrays (gr_buffers) on the device and their host copies. */
static cudaError_t extras_alloc(const gemm_problem *p, gr_buffers *buf, size_t es) {
  cudaError_t ce = cudaSuccess;
  size_t rows = (size_t)gemm_d_rows(p), G = (size_t)p->groups;
  if (p->row_scale) {
    if (!(buf->h_row_scale = malloc(rows * sizeof(float)))) return cudaErrorMemoryAllocation;
    gr_extras_fill(p, NULL, buf->h_row_scale, NULL, NULL, NULL);
    if ((ce = cudaMalloc((void **)&buf->row_scale, rows * sizeof(float))) ||
        (ce = cudaMemcpy(buf->row_scale, buf->h_row_scale, rows * sizeof(float), cudaMemcpyHostToDevice)))
      return ce;
  }
  if (p->gather_rows > 0) {
    if (!(buf->h_gather = malloc((size_t)p->m * sizeof(int32_t) + 1))) return cudaErrorMemoryAllocation;
    gr_extras_fill(p, NULL, NULL, buf->h_gather, NULL, NULL);
    if ((ce = cudaMalloc((void **)&buf->gather, (size_t)p->m * sizeof(int32_t) + 1)) ||
        (ce = cudaMemcpy(buf->gather, buf->h_gather, (size_t)p->m * sizeof(int32_t), cudaMemcpyHostToDevice)))
      return ce;
  }
  if (p->scatter) {
    if (!(buf->h_scatter = malloc((size_t)p->m * sizeof(int32_t) + 1))) return cudaErrorMemoryAllocation;
    gr_extras_fill(p, NULL, NULL, NULL, buf->h_scatter, NULL);
    if ((ce = cudaMalloc((void **)&buf->scatter, (size_t)p->m * sizeof(int32_t) + 1)) ||
        (ce = cudaMemcpy(buf->scatter, buf->h_scatter, (size_t)p->m * sizeof(int32_t), cudaMemcpyHostToDevice)))
      return ce;
  }
  if (p->b_ptrs) {
    void **h = malloc(G * sizeof *h + 1);
    if (!h || !(buf->h_b_slot = malloc(G * sizeof(int64_t)))) {
      free(h);
      return cudaErrorMemoryAllocation;
    }
    gr_extras_fill(p, NULL, NULL, NULL, NULL, buf->h_b_slot);
    for (int s = 0; s < buf->sets && ce == cudaSuccess; s++) {
      for (size_t e = 0; e < G; e++)
        h[e] = (char *)buf->b[s] + (size_t)buf->h_b_slot[e] * (size_t)(p->k * gemm_b_cols(p)) * es;
      if (!(ce = cudaMalloc((void **)&buf->b_ptrs[s], G * sizeof *h)))
        ce = cudaMemcpy(buf->b_ptrs[s], h, G * sizeof *h, cudaMemcpyHostToDevice);
    }
    free(h);
  }
  for (int s = 0; s < buf->sets; s++)
    buf->extras[s] = (gemm_extras){buf->row_scale, buf->gather, (const void *const *)buf->b_ptrs[s], buf->scatter};
  return ce;
}

int gr_buffers_alloc(const gr_gpu *g, const gemm_problem *p, uint64_t seed_a, uint64_t seed_b,
                     gr_buffers *buf, char *note, size_t note_size) {
  tcj_dtype out = gemm_out_dtype(p), bias_t = gemm_bias_dtype(p);
  size_t es = gemm_dtype_size(p->ab), esc = gemm_dtype_size(out), esb = gemm_dtype_size(bias_t);
  size_t batch = (size_t)gemm_entries(p), b_entries = (size_t)gemm_b_entries(p), bc = (size_t)gemm_b_cols(p);
  size_t na = (size_t)gemm_a_elems(p), nb = b_entries * (size_t)p->k * bc, nc = batch * (size_t)(p->m * p->n);
  size_t nbias = p->bias != TCJ_BIAS_NONE ? (size_t)gemm_bias_entries(p) * bc : 0;
  size_t set_bytes = (na + nb) * es + nc * esc + nbias * esb;
  void *ha = malloc(na * es + 1), *hb = malloc(nb * es + 1), *hbias = malloc(nbias * esb + 1);
  cudaError_t ce = cudaSuccess;
  memset(buf, 0, sizeof *buf);
  if (!ha || !hb || !hbias) {
    snprintf(note, note_size, "host out of memory");
    goto fail;
  }
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  int sets = set_bytes ? (int)((3 * g->l2_bytes + set_bytes - 1) / set_bytes) : 1;
  if (sets < 1) sets = 1;
  if (sets > GR_MAX_SETS) sets = GR_MAX_SETS;
  while (sets > 1 && (size_t)sets * set_bytes + nc * esc > free_b / 10 * 8) sets--;
  buf->sets = sets;
  gr_fill_host(p->ab, ha, na, seed_a);
  gr_fill_host(p->ab, hb, nb, seed_b);
  /* The bias is scaled to the order of the products' sums (a power of two near sqrt(k) / 3, so
   * the scaling is exact), else a bias that is lost or misplaced would hide in the check's bound.
   * An s32 output's f32 bias holds integers, as s8 operands do. */
  gr_fill_host(out == TCJ_S32 ? TCJ_S8 : bias_t, hbias, nbias, seed_a ^ seed_b ^ 0xB1A5ull);
  float bias_scale = 1;
  while (bias_scale * 2 <= sqrt((double)p->k) / 3) bias_scale *= 2;
  for (size_t i = nbias; i-- > 0;) {
    float v = (float)gemm_ref_get(out == TCJ_S32 ? TCJ_S8 : bias_t, hbias, i) * bias_scale;
    if (bias_t == TCJ_BF16) ((uint16_t *)hbias)[i] = f32_to_bf16(v);
    else if (bias_t == TCJ_F16) ((uint16_t *)hbias)[i] = f32_to_f16(v);
    else if (bias_t == TCJ_F64) ((double *)hbias)[i] = gemm_ref_get(TCJ_F64, hbias, i) * bias_scale;
    else ((float *)hbias)[i] = v; /* backwards: an s8 source's bytes are read before they are overwritten */
  }
  for (int s = 0; s < sets && ce == cudaSuccess; s++) {
    if ((ce = cudaMalloc(&buf->a[s], na * es)) || (ce = cudaMalloc(&buf->b[s], nb * es)) ||
        (ce = cudaMalloc(&buf->c[s], nc * esc)) || (nbias && (ce = cudaMalloc(&buf->bias[s], nbias * esb))))
      break;
    if ((ce = cudaMemcpy(buf->a[s], ha, na * es, cudaMemcpyHostToDevice)) ||
        (ce = cudaMemcpy(buf->b[s], hb, nb * es, cudaMemcpyHostToDevice)) ||
        (ce = cudaMemset(buf->c[s], gr_d_start_byte(p), nc * esc)) ||
        (nbias && (ce = cudaMemcpy(buf->bias[s], hbias, nbias * esb, cudaMemcpyHostToDevice))))
      break;
  }
  if (ce == cudaSuccess && gemm_dtype_is_fp8(p->ab) && p->scale != TCJ_SCALE_BLOCK &&
      (p->scale == TCJ_SCALE_ROW || gemm_is_grouped(p))) {
    /* Row scales, or a grouped call's per-group B scales (gr_extras_fill's values). */
    size_t nf = (size_t)(gemm_scale_b_at(p) + gemm_scales_b(p));
    if (!(buf->h_scales = malloc(nf * sizeof(float)))) ce = cudaErrorMemoryAllocation;
    if (ce == cudaSuccess) {
      gr_extras_fill(p, buf->h_scales, NULL, NULL, NULL, NULL);
      if ((ce = cudaMalloc((void **)&buf->scales, nf * sizeof(float))) == cudaSuccess)
        ce = cudaMemcpy(buf->scales, buf->h_scales, nf * sizeof(float), cudaMemcpyHostToDevice);
    }
  } else if (ce == cudaSuccess && gemm_dtype_is_fp8(p->ab) && p->scale == TCJ_SCALE_BLOCK) {
    /* Every block of A scaled by GR_SCALE_A, of B by GR_SCALE_B: the same products as the
     * per-tensor scales, so the same reference checks it, while the kernel reads and applies
     * every block's pair at each promotion, as with real block scales. */
    size_t na = (size_t)gemm_scale_b_at(p), nbs = (size_t)gemm_scales_b(p);
    float *h = malloc((na + nbs) * sizeof *h);
    ce = h ? cudaMalloc((void **)&buf->scales, (na + nbs) * sizeof *h) : cudaErrorMemoryAllocation;
    if (ce == cudaSuccess) {
      for (size_t i = 0; i < na + nbs; i++) h[i] = i < na ? GR_SCALE_A : GR_SCALE_B;
      ce = cudaMemcpy(buf->scales, h, (na + nbs) * sizeof *h, cudaMemcpyHostToDevice);
    }
    free(h);
  } else if (ce == cudaSuccess && gemm_dtype_is_fp8(p->ab)) {
    const float scales[GEMM_SCALE_B_AT + 1] = {[0] = GR_SCALE_A, [GEMM_SCALE_B_AT] = GR_SCALE_B};
    if ((ce = cudaMalloc((void **)&buf->scales, sizeof scales)) == cudaSuccess)
      ce = cudaMemcpy(buf->scales, scales, sizeof scales, cudaMemcpyHostToDevice);
  }
  if (ce == cudaSuccess && gemm_is_grouped(p)) {
    /* The ends (running sums of the sizes) or the counts, once for every set. */
    size_t G = (size_t)p->groups, es_g = p->group_mode == TCJ_GROUP_M_CONTIGUOUS && p->group_ends64 ? 8 : 4;
    void *h = malloc(G * es_g + 1);
    ce = !h || !p->group_sizes ? cudaErrorInvalidValue : cudaMalloc(&buf->groups, G * es_g);
    for (size_t i = 0, end = 0; ce == cudaSuccess && i < G; i++) {
      end += (size_t)p->group_sizes[i];
      int64_t v = p->group_mode == TCJ_GROUP_M_MASKED ? p->group_sizes[i] : (int64_t)end;
      if (es_g == 8) ((int64_t *)h)[i] = v;
      else ((int32_t *)h)[i] = (int32_t)v;
    }
    if (ce == cudaSuccess) ce = cudaMemcpy(buf->groups, h, G * es_g, cudaMemcpyHostToDevice);
    free(h);
  }
  if (ce == cudaSuccess) ce = extras_alloc(p, buf, es);
  if (ce == cudaSuccess) ce = cudaDeviceSynchronize();
  if (ce != cudaSuccess) {
    snprintf(note, note_size, "setup: %s", cudaGetErrorName(ce));
    goto fail;
  }
  free(ha);
  free(hb);
  free(hbias);
  return 0;
fail:
  gr_buffers_free(buf);
  free(ha);
  free(hb);
  free(hbias);
  return -1;
}

void gr_buffers_free(gr_buffers *buf) {
  for (int s = 0; s < GR_MAX_SETS; s++) {
    cudaFree(buf->a[s]);
    cudaFree(buf->b[s]);
    cudaFree(buf->c[s]);
    cudaFree(buf->bias[s]);
  }
  cudaFree(buf->scales);
  cudaFree(buf->groups);
  cudaFree(buf->row_scale);
  cudaFree(buf->gather);
  cudaFree(buf->scatter);
  for (int s = 0; s < GR_MAX_SETS; s++) cudaFree(buf->b_ptrs[s]);
  free(buf->h_scales);
  free(buf->h_row_scale);
  free(buf->h_gather);
  free(buf->h_scatter);
  free(buf->h_b_slot);
  memset(buf, 0, sizeof *buf);
}

cublasStatus_t gr_cublas(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c) {
  const void *alpha, *beta;
  gr_unit_scalars(p, &alpha, &beta);
  return cublasGemmEx(g->blas, gr_blas_op(p->op_b), gr_blas_op(p->op_a), (int)p->n, (int)p->m, (int)p->k, alpha, b,
                      gr_cuda_type(p->ab), (int)gemm_ldb(p), a, gr_cuda_type(p->ab), (int)gemm_lda(p), beta, c,
                      gr_cuda_type(gemm_out_dtype(p)), (int)p->n, gr_compute_type(p), CUBLAS_GEMM_DEFAULT);
}

tcj_status gr_tcj(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c, const void *bias,
                  const float *scales) {
  if (!gemm_is_ex(p))
    return tcj_gemm(g->eng, p->op_a, p->op_b, p->m, p->n, p->k, 1.0f, a, p->ab, gemm_lda(p), b, gemm_b_dtype(p),
                    gemm_ldb(p), 0.0f, c, p->c, p->n, (CUstream)g->stream);
  tcj_gemm_desc desc;
  gemm_problem_desc(p, a, b, c, bias, scales, &desc);
  return tcj_gemm_ex(g->eng, &desc, (CUstream)g->stream);
}

cublasStatus_t gr_s8_probe_nn(const gr_gpu *g) {
  gemm_problem p = GEMM_PLAIN(TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_N, 64, 64, 64);
  void *a = NULL, *b = NULL, *c = NULL;
  cublasStatus_t st = CUBLAS_STATUS_ALLOC_FAILED;
  if (cudaMalloc(&a, 4096) == cudaSuccess && cudaMalloc(&b, 4096) == cudaSuccess &&
      cudaMalloc(&c, 16384) == cudaSuccess && cudaMemset(a, 1, 4096) == cudaSuccess &&
      cudaMemset(b, 1, 4096) == cudaSuccess)
    st = gr_cublas(g, &p, a, b, c);
  cudaStreamSynchronize(g->stream);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return st;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

double gr_time(const gr_gpu *g, const gemm_problem *p, gr_lib lib, const gr_baseline *base, const gr_buffers *buf,
               int runs, char *note, size_t note_size) {
  cudaEvent_t *ev = calloc((size_t)(2 * runs), sizeof *ev);
  double *t = calloc((size_t)runs, sizeof *t), med = 0;
  int made = 0, fail = 0;
  if (!ev || !t) {
    snprintf(note, note_size, "host out of memory");
    goto done;
  }
  for (; made < 2 * runs; made++)
    if (cudaEventCreate(&ev[made]) != cudaSuccess) {
      snprintf(note, note_size, "cudaEventCreate failed");
      goto done;
    }
  for (int r = 0; r < runs && !fail; r++) {
    int s = r % buf->sets;
    cudaEventRecord(ev[2 * r], g->stream);
    if (lib == GR_TCJ) {
      gemm_problem ps = *p;
      ps.extras = &buf->extras[s];
      tcj_status st = gr_tcj(g, &ps, buf->a[s], buf->b[s], buf->c[s], buf->bias[s], buf->scales);
      if (st != TCJ_SUCCESS) {
        snprintf(note, note_size, "%s (timed) %s: %s", gemm_is_ex(p) ? "tcj_gemm_ex" : "tcj_gemm",
                 tcj_status_string(st), tcj_last_error(g->eng));
        fail = 1;
      }
    } else {
      char why[256];
      if (gr_baseline_run(g, p, base, buf->a[s], buf->b[s], buf->c[s], buf->bias[s], why, sizeof why) != 0) {
        snprintf(note, note_size, "cuBLAS (timed): %s", why);
        fail = 1;
      }
    }
    cudaEventRecord(ev[2 * r + 1], g->stream);
  }
  cudaError_t ce = cudaStreamSynchronize(g->stream);
  if (ce != cudaSuccess) {
    snprintf(note, note_size, "%s run failed: %s", lib == GR_CUBLAS ? "cuBLAS" : "tcj", cudaGetErrorName(ce));
    fail = 1;
  }
  if (fail) goto done;
  for (int r = 0; r < runs; r++) {
    float ms = 0;
    cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]);
    t[r] = 1e3 * ms;
  }
  med = median(t, runs);
done:
  for (int i = 0; i < made; i++) cudaEventDestroy(ev[i]);
  free(ev);
  free(t);
  return med;
}

double gr_copy_gbs(const gr_gpu *g, size_t bytes, int runs, char *note, size_t note_size) {
  void *src = NULL, *dst = NULL;
  cudaEvent_t ev[2] = {0};
  double *t = calloc((size_t)runs, sizeof *t), gbs = 0;
  cudaError_t ce;
  if (!t) {
    snprintf(note, note_size, "host out of memory");
    goto done;
  }
  if ((ce = cudaMalloc(&src, bytes)) || (ce = cudaMalloc(&dst, bytes)) ||
      (ce = cudaMemset(src, 0x5a, bytes)) || (ce = cudaEventCreate(&ev[0])) ||
      (ce = cudaEventCreate(&ev[1])) ||
      (ce = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, g->stream)) || /* warm-up */
      (ce = cudaStreamSynchronize(g->stream))) {
    snprintf(note, note_size, "copy bandwidth setup (%zu MiB): %s", bytes >> 20, cudaGetErrorName(ce));
    goto done;
  }
  for (int r = 0; r < runs; r++) {
    float ms = 0;
    if ((ce = cudaEventRecord(ev[0], g->stream)) ||
        (ce = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, g->stream)) ||
        (ce = cudaEventRecord(ev[1], g->stream)) || (ce = cudaEventSynchronize(ev[1])) ||
        (ce = cudaEventElapsedTime(&ms, ev[0], ev[1]))) {
      snprintf(note, note_size, "copy bandwidth: %s", cudaGetErrorName(ce));
      goto done;
    }
    t[r] = 1e-3 * ms;
  }
  double s = median(t, runs);
  gbs = s > 0 ? 2.0 * (double)bytes / s * 1e-9 : 0;
done:
  if (ev[0]) cudaEventDestroy(ev[0]);
  if (ev[1]) cudaEventDestroy(ev[1]);
  cudaFree(src);
  cudaFree(dst);
  free(t);
  return gbs;
}

int gr_fresh_cache_dir(char *templ) { return mkdtemp(templ) ? 0 : -1; }

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void gr_remove_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }
