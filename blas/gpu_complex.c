/* SPDX-License-Identifier: Apache-2.0 */
/* cgemm and zgemm on tcj, their real form (complex_real.c's math) built on the device: A goes
 * to the device as it is (host arrays: one copy of A's own bytes, not of the four times larger
 * Ahat) and complex_kernels.c expands alpha op(A) into Ahat there; op(B) = N is read as B's
 * real view, in place on the device or copied by gpu.c, else packed on the device; a real beta
 * is the real GEMM's, a beta with an imaginary part runs the product into a buffer that the
 * combine kernel adds to beta C. Device arrays never leave the device. Synchronous, as BLAS. */
#include "blas/cuda_driver.h"

static atomic_int warned;

tb_gpu_result tb_gpu_complex_gemm(const tb_gemm *g, tb_places p) {
  /* k == 0 or alpha == 0 (a rank-k update of k 0 reaches here from l3_gemm.c): C = beta C has
   * no product to build, and Ahat would be empty (cuMemAlloc refuses 0 bytes). */
  if (tb_gemm_only_scales(g)) return TB_GPU_NOT_RUN;
  const tb_cuda *cu = tb_cuda_get(NULL);
  if (!cu || tb_cuda_enter(cu)) return TB_GPU_NOT_RUN;
  if (!tb_complex_kernels_ready(cu)) {
    tb_cuda_leave(cu);
    return TB_GPU_NOT_RUN;
  }
  size_t es = tb_elem_size(g->type), rs = es / 2; /* complex and real element bytes */
  int z = g->type == TB_Z;
  const double *bd = g->beta;
  const float *bf = g->beta;
  int complex_beta = z ? bd[1] != 0 : bf[1] != 0;
  static const float one_f[2] = {1, 0}, zero_f = 0;
  static const double one_d[2] = {1, 0}, zero_d = 0;
  double beta_d = z ? bd[0] : 0;
  float beta_f = z ? 0 : bf[0];
  tb_operand a = {0}, b = {0}, c = {0}; /* A, op(B) != N, C: in place or copied (tb_cuda_place) */
  CUdeviceptr ahat = 0, bp = 0, prod = 0;
  int64_t ra = g->ta == 'N' ? g->m : g->k, ca = g->ta == 'N' ? g->k : g->m;
  const char *what = "staging A";
  tb_gpu_result res = TB_GPU_NOT_RUN;
  tb_gemm real = {.type = z ? TB_D : TB_S, .ta = 'N', .tb = 'N', .m = 2 * g->m, .n = g->n,
                  .k = 2 * g->k, .alpha = z ? (const void *)one_d : (const void *)one_f,
                  .lda = 2 * g->m, .ilp64 = g->ilp64};
  tb_places rp = {TB_DEVICE, p.b, p.c};
  CUresult r = tb_cuda_place(cu, &a, p.a, g->a, g->lda, ra, ca, es, 1);
  if (r == CUDA_SUCCESS) r = cu->cuMemAlloc(&ahat, (size_t)(2 * g->m) * (size_t)(2 * g->k) * rs);
  if (r == CUDA_SUCCESS) r = tb_complex_expand(cu, g->type, a.ptr, a.ld, g->ta, g->alpha, ahat, g->m, g->k, 0);
  real.a = (const void *)(uintptr_t)ahat;
  if (g->tb == 'N') { /* B's real view, wherever it is: gpu.c reads or copies it */
    real.b = g->b;
    real.ldb = 2 * g->ldb;
  } else if (r == CUDA_SUCCESS) {
    what = "staging B";
    r = tb_cuda_place(cu, &b, p.b, g->b, g->ldb, g->n, g->k, es, 1);
    if (r == CUDA_SUCCESS) r = cu->cuMemAlloc(&bp, (size_t)(2 * g->k) * (size_t)g->n * rs);
    if (r == CUDA_SUCCESS) r = tb_complex_expand(cu, g->type, b.ptr, b.ld, g->tb, z ? (const void *)one_d : (const void *)one_f, bp, g->k, g->n, 1);
    real.b = (const void *)(uintptr_t)bp;
    real.ldb = 2 * g->k;
    rp.b = TB_DEVICE;
  }
  if (!complex_beta) { /* C's real view: in place or copied by gpu.c */
    real.c = g->c;
    real.ldc = 2 * g->ldc;
    real.beta = z ? (const void *)&beta_d : (const void *)&beta_f;
  } else if (r == CUDA_SUCCESS) {
    what = "a product buffer";
    r = cu->cuMemAlloc(&prod, (size_t)(2 * g->m) * (size_t)g->n * rs);
    real.c = (void *)(uintptr_t)prod;
    real.ldc = 2 * g->m;
    real.beta = z ? (const void *)&zero_d : (const void *)&zero_f;
    rp.c = TB_DEVICE;
  }
  /* Until the real GEMM, nothing of the caller's was written: a failure leaves the call to the
   * CPU. */
  if (r == CUDA_SUCCESS) res = tb_gpu_gemm(&real, rp);
  if (res == TB_GPU_DONE && complex_beta) {
    what = "C = P + beta C";
    int touched = 0; /* whether the caller's C may have been written */
    r = tb_cuda_place(cu, &c, p.c, g->c, g->ldc, g->m, g->n, es, 1);
    if (r == CUDA_SUCCESS) {
      touched = p.c == TB_DEVICE; /* the combine writes C in place */
      r = tb_complex_combine(cu, g->type, prod, c.ptr, c.ld, g->beta, g->m, g->n);
    }
    if (r == CUDA_SUCCESS) r = cu->cuStreamSynchronize(NULL);
    if (r == CUDA_SUCCESS && p.c != TB_DEVICE) {
      tb_span dst = {g->c, g->ldc, tb_cuda_kind(p.c)}, src = {(void *)(uintptr_t)c.ptr, c.ld, CU_MEMORYTYPE_DEVICE};
      touched = 1;
      r = tb_cuda_copy(cu, dst, src, g->m, g->n, es);
    }
    if (r != CUDA_SUCCESS) res = touched ? TB_GPU_FAILED : TB_GPU_NOT_RUN;
  }
  if (r != CUDA_SUCCESS)
    tb_msg_once(&warned, "complex GEMM on the GPU failed in %s (%s)%s", what, tb_cuda_error_name(cu, r),
                res == TB_GPU_FAILED ? ": C may be partly written" : ": such calls run on the CPU");
  cu->cuStreamSynchronize(NULL); /* the kernels may still read what is freed below */
  CUdeviceptr bufs[] = {a.owned, ahat, b.owned, bp, c.owned, prod};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
    if (bufs[i]) cu->cuMemFree(bufs[i]);
  tb_cuda_leave(cu);
  return res;
}
