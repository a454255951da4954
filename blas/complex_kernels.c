/* SPDX-License-Identifier: Apache-2.0 */
/* The two small kernels that let cgemm and zgemm run as one real GEMM on the device
 * (complex_real.c has the math and its host form):
 *   expand:  X = s op(Y), op(Y) rows x cols complex, into a real matrix. Mode 0 writes Ahat, the
 *            2 rows x 2 cols real matrix of 2 x 2 blocks [Re -Im; Im Re] (ld 2 rows); mode 1
 *            writes op(Y)'s real view, (re, im) pairs down each column (ld 2 rows).
 *   combine: C = P + beta C, P the real GEMM's product in C's real view (ld 2 rows) and C
 *            interleaved complex (ldc): a beta with an imaginary part.
 * Their PTX (complex_ptx.c: one module for float and double) is loaded here once per process
 * with cuModuleLoadData, the driver compiling it for the device, and launched on the legacy
 * default stream, where gpu.c's copies and tcj's GEMM run too. */
#include "blas/cuda_driver.h"

#include <pthread.h>
#include <string.h>

static struct {
  CUmodule module;
  CUfunction expand[2], combine[2]; /* [0] f32 (c), [1] f64 (z) */
  char why[256];                    /* why not, when module is NULL */
} kernels;
static pthread_once_t kernels_once = PTHREAD_ONCE_INIT;
static const tb_cuda *kernels_cu;

/* In the device's context (the caller entered it). */
static void load_once(void) {
  const tb_cuda *cu = kernels_cu;
  static char ptx[16384];
  if (tb_complex_kernels_ptx(ptx, sizeof ptx) >= sizeof ptx) {
    snprintf(kernels.why, sizeof kernels.why, "the kernels' PTX outgrew its buffer");
    return;
  }
  CUresult r = cu->cuModuleLoadData(&kernels.module, ptx);
  static const char *names[2][2] = {{"tb_expand_f32", "tb_combine_f32"}, {"tb_expand_f64", "tb_combine_f64"}};
  for (int i = 0; r == CUDA_SUCCESS && i < 2; i++) {
    r = cu->cuModuleGetFunction(&kernels.expand[i], kernels.module, names[i][0]);
    if (r == CUDA_SUCCESS) r = cu->cuModuleGetFunction(&kernels.combine[i], kernels.module, names[i][1]);
  }
  if (r != CUDA_SUCCESS) {
    snprintf(kernels.why, sizeof kernels.why, "cuModuleLoadData: %s", tb_cuda_error_name(cu, r));
    kernels.module = NULL;
  }
}

static atomic_int warned_kernels;

int tb_complex_kernels_ready(const tb_cuda *cu) {
  kernels_cu = cu;
  pthread_once(&kernels_once, load_once);
  if (!kernels.module)
    tb_msg_once(&warned_kernels, "complex kernels unavailable (%s): cgemm and zgemm build their "
                                 "real form on the host", kernels.why);
  return kernels.module != NULL;
}

/* A grid over rows x cols: 256 threads a block along rows, at most 1024 blocks of them and
 * 65535 block rows (grid strides cover the rest). */
static CUresult launch(const tb_cuda *cu, CUfunction f, int64_t rows, int64_t cols, void **args) {
  int64_t bx = (rows + 255) / 256;
  unsigned gx = (unsigned)(bx < 1 ? 1 : bx > 1024 ? 1024 : bx);
  unsigned gy = (unsigned)(cols < 1 ? 1 : cols > 65535 ? 65535 : cols);
  return cu->cuLaunchKernel(f, gx, gy, 1, 256, 1, 1, 0, NULL, args, NULL);
}

CUresult tb_complex_expand(const tb_cuda *cu, tb_type t, CUdeviceptr src, int64_t ld, char trans,
                           const void *s, CUdeviceptr dst, int64_t rows, int64_t cols, int mode) {
  int d = t == TB_Z;
  uint64_t ld64 = (uint64_t)ld, r64 = (uint64_t)rows, c64 = (uint64_t)cols;
  unsigned tr = trans == 'N' ? 0u : trans == 'T' ? 1u : 2u, md = (unsigned)mode;
  float sf[2] = {0, 0};
  double sd[2] = {0, 0};
  if (d) memcpy(sd, s, sizeof sd);
  else memcpy(sf, s, sizeof sf);
  void *args[] = {&src, &ld64, &tr, d ? (void *)&sd[0] : (void *)&sf[0], d ? (void *)&sd[1] : (void *)&sf[1],
                  &dst, &r64, &c64, &md};
  return launch(cu, kernels.expand[d], rows, cols, args);
}

CUresult tb_complex_combine(const tb_cuda *cu, tb_type t, CUdeviceptr p, CUdeviceptr c, int64_t ldc,
                            const void *beta, int64_t rows, int64_t cols) {
  int d = t == TB_Z;
  uint64_t ldc64 = (uint64_t)ldc, r64 = (uint64_t)rows, c64 = (uint64_t)cols;
  float bf[2] = {0, 0};
  double bd[2] = {0, 0};
  if (d) memcpy(bd, beta, sizeof bd);
  else memcpy(bf, beta, sizeof bf);
  void *args[] = {&p, &c, &ldc64, d ? (void *)&bd[0] : (void *)&bf[0], d ? (void *)&bd[1] : (void *)&bf[1],
                  &r64, &c64};
  return launch(cu, kernels.combine[d], rows, cols, args);
}
