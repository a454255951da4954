/* The GPU measuring core shared by tcj-bench and tcj-prof (see gemm_runner.h): buffers, the
 * two libraries' calls, timing and the correctness check. */
#include "tools/gemm_runner.h"

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
  return 0;
}

void gr_close(gr_gpu *g) {
  if (g->blas) cublasDestroy(g->blas);
  if (g->stream) cudaStreamDestroy(g->stream);
  g->blas = NULL;
  g->stream = NULL;
}

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void gr_fill_host(tcj_dtype t, void *buf, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = splitmix(&seed);
    float v = (float)((double)(r >> 11) * 0x1.0p-52 - 1.0);
    switch (t) {
    case TCJ_F16: ((uint16_t *)buf)[i] = f32_to_f16(v); break;
    case TCJ_BF16: ((uint16_t *)buf)[i] = f32_to_bf16(v); break;
    case TCJ_S8: ((int8_t *)buf)[i] = (int8_t)((int)(r % 17) - 8); break;
    default: ((float *)buf)[i] = v; break;
    }
  }
}

static double get(tcj_dtype t, const void *buf, size_t i) {
  switch (t) {
  case TCJ_F16: return f16_to_f32(((const uint16_t *)buf)[i]);
  case TCJ_BF16: return bf16_to_f32(((const uint16_t *)buf)[i]);
  case TCJ_S8: return ((const int8_t *)buf)[i];
  case TCJ_S32: return ((const int32_t *)buf)[i];
  default: return ((const float *)buf)[i];
  }
}

static cudaDataType cuda_type(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: return CUDA_R_16F;
  case TCJ_BF16: return CUDA_R_16BF;
  case TCJ_S8: return CUDA_R_8I;
  case TCJ_S32: return CUDA_R_32I;
  default: return CUDA_R_32F;
  }
}

int gr_buffers_alloc(const gr_gpu *g, const gemm_problem *p, uint64_t seed_a, uint64_t seed_b,
                     gr_buffers *buf, char *note, size_t note_size) {
  size_t es = gemm_dtype_size(p->ab), esc = gemm_dtype_size(p->c);
  size_t na = (size_t)(p->m * p->k), nb = (size_t)(p->k * p->n), nc = (size_t)(p->m * p->n);
  size_t set_bytes = (na + nb) * es + nc * esc;
  void *ha = malloc(na * es + 1), *hb = malloc(nb * es + 1);
  cudaError_t ce = cudaSuccess;
  memset(buf, 0, sizeof *buf);
  if (!ha || !hb) {
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
  for (int s = 0; s < sets && ce == cudaSuccess; s++) {
    if ((ce = cudaMalloc(&buf->a[s], na * es)) || (ce = cudaMalloc(&buf->b[s], nb * es)) ||
        (ce = cudaMalloc(&buf->c[s], nc * esc)))
      break;
    if ((ce = cudaMemcpy(buf->a[s], ha, na * es, cudaMemcpyHostToDevice)) ||
        (ce = cudaMemcpy(buf->b[s], hb, nb * es, cudaMemcpyHostToDevice)) ||
        (ce = cudaMemset(buf->c[s], 0xff, nc * esc)))
      break;
  }
  if (ce == cudaSuccess) ce = cudaDeviceSynchronize();
  if (ce != cudaSuccess) {
    snprintf(note, note_size, "setup: %s", cudaGetErrorName(ce));
    goto fail;
  }
  free(ha);
  free(hb);
  return 0;
fail:
  gr_buffers_free(buf);
  free(ha);
  free(hb);
  return -1;
}

void gr_buffers_free(gr_buffers *buf) {
  for (int s = 0; s < GR_MAX_SETS; s++) {
    cudaFree(buf->a[s]);
    cudaFree(buf->b[s]);
    cudaFree(buf->c[s]);
  }
  memset(buf, 0, sizeof *buf);
}

cublasStatus_t gr_cublas(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c) {
  float fa = 1, fb = 0;
  int32_t ia = 1, ib = 0;
  int is_int = p->c == TCJ_S32;
  cublasComputeType_t ct = is_int ? CUBLAS_COMPUTE_32I
                           : p->ab == TCJ_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                               : CUBLAS_COMPUTE_32F;
  return cublasGemmEx(g->blas, p->op_b == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T,
                      p->op_a == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T, (int)p->n, (int)p->m,
                      (int)p->k, is_int ? (const void *)&ia : (const void *)&fa, b,
                      cuda_type(p->ab), (int)gemm_ldb(p), a, cuda_type(p->ab), (int)gemm_lda(p),
                      is_int ? (const void *)&ib : (const void *)&fb, c, cuda_type(p->c),
                      (int)p->n, ct, CUBLAS_GEMM_DEFAULT);
}

tcj_status gr_tcj(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c) {
  return tcj_gemm(g->eng, p->op_a, p->op_b, p->m, p->n, p->k, 1.0f, a, p->ab, gemm_lda(p), b, p->ab,
                  gemm_ldb(p), 0.0f, c, p->c, p->n, (CUstream)g->stream);
}

cublasStatus_t gr_s8_probe_nn(const gr_gpu *g) {
  gemm_problem p = {TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_N, 64, 64, 64};
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

double gr_time(const gr_gpu *g, const gemm_problem *p, gr_lib lib, const gr_buffers *buf, int runs,
               char *note, size_t note_size) {
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
      tcj_status st = gr_tcj(g, p, buf->a[s], buf->b[s], buf->c[s]);
      if (st != TCJ_SUCCESS) {
        snprintf(note, note_size, "tcj_gemm (timed) %s: %s", tcj_status_string(st), tcj_last_error(g->eng));
        fail = 1;
      }
    } else {
      cublasStatus_t st = gr_cublas(g, p, buf->a[s], buf->b[s], buf->c[s]);
      if (st != CUBLAS_STATUS_SUCCESS) {
        snprintf(note, note_size, "cuBLAS (timed): %s", cublasGetStatusName(st));
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

double gr_bound(const gemm_problem *p) {
  if (p->c == TCJ_S32) return 0;
  if (p->ab == TCJ_TF32) return 1e-2;
  return p->c == TCJ_F16 ? 2e-3 : p->c == TCJ_BF16 ? 1e-2 : 1e-4;
}

gr_check_result gr_check(const gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, double *err,
                         char *note, size_t note_size) {
  size_t esc = gemm_dtype_size(p->c), nc = (size_t)(p->m * p->n);
  void *cref = NULL, *hc = malloc(nc * esc + 1), *hr = malloc(nc * esc + 1);
  gr_check_result res = GR_CHECK_ERROR;
  cudaError_t ce;
  if (!hc || !hr) {
    snprintf(note, note_size, "host out of memory");
    goto done;
  }
  if ((ce = cudaMalloc(&cref, nc * esc)) || (ce = cudaMemset(cref, 0xff, nc * esc))) {
    snprintf(note, note_size, "setup: %s", cudaGetErrorName(ce));
    goto done;
  }
  cublasStatus_t bs = gr_cublas(g, p, buf->a[0], buf->b[0], cref);
  if (bs != CUBLAS_STATUS_SUCCESS) {
    snprintf(note, note_size, "cuBLAS: %s", cublasGetStatusName(bs));
    res = GR_CHECK_BLAS_ERROR;
    goto done;
  }
  if ((ce = cudaMemcpyAsync(hc, buf->c[0], nc * esc, cudaMemcpyDeviceToHost, g->stream)) ||
      (ce = cudaMemcpyAsync(hr, cref, nc * esc, cudaMemcpyDeviceToHost, g->stream)) ||
      (ce = cudaStreamSynchronize(g->stream))) {
    snprintf(note, note_size, "read-back: %s", cudaGetErrorName(ce));
    goto done;
  }
  double e2 = 0, r2 = 0;
  int64_t diff = 0;
  for (size_t i = 0; i < nc; i++) {
    double x = get(p->c, hc, i), y = get(p->c, hr, i), d = x - y;
    if (isnan(d)) d = INFINITY;
    diff += d != 0;
    e2 += d * d;
    r2 += y * y;
  }
  *err = r2 > 0 ? sqrt(e2 / r2) : sqrt(e2);
  double bound = gr_bound(p);
  if (bound == 0 ? diff != 0 : !(*err <= bound)) {
    snprintf(note, note_size,
             "check vs cuBLAS failed: rel Frobenius error %.3g (bound %.3g), %lld elements differ",
             *err, bound, (long long)diff);
    res = GR_CHECK_MISMATCH;
    goto done;
  }
  res = GR_CHECK_PASS;
done:
  cudaFree(cref);
  free(hc);
  free(hr);
  return res;
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

int gr_fresh_cache_dir(char *templ) {
  if (!mkdtemp(templ)) return -1;
  return setenv("TCJ_CACHE_DIR", templ, 1);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void gr_remove_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }
