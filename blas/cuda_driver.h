/* SPDX-License-Identifier: Apache-2.0 */
/* The few CUDA driver calls libtcjblas makes itself (pointer queries, buffers, copies, the
 * complex kernels of complex_kernels.c), opened with dlopen("libcuda.so.1") as libtcj opens
 * it, so that the library starts without a driver. */
#ifndef TCJBLAS_CUDA_DRIVER_H
#define TCJBLAS_CUDA_DRIVER_H

#include <cuda.h>
#include <tcj.h>

#include "blas/tcjblas_internal.h"

/* cuda.h #defines several names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2): the field
 * and the dlsym name both expand to the versioned one. */
#define TB_CUDA_LIST(X)       \
  X(cuInit)                   \
  X(cuGetErrorName)           \
  X(cuDeviceGet)              \
  X(cuDevicePrimaryCtxRetain) \
  X(cuCtxPushCurrent)         \
  X(cuCtxPopCurrent)          \
  X(cuPointerGetAttribute)    \
  X(cuMemAlloc)               \
  X(cuMemFree)                \
  X(cuMemcpy2D)               \
  X(cuStreamSynchronize)      \
  X(cuStreamCreate)           \
  X(cuStreamWaitEvent)        \
  X(cuEventCreate)            \
  X(cuEventRecord)            \
  X(cuEventSynchronize)       \
  X(cuMemHostAlloc)           \
  X(cuMemcpy2DAsync)          \
  X(cuModuleLoadData)         \
  X(cuModuleGetFunction)      \
  X(cuLaunchKernel)

typedef struct tb_cuda {
#define TB_CUDA_FIELD(fn) __typeof__(&fn) fn;
  TB_CUDA_LIST(TB_CUDA_FIELD)
#undef TB_CUDA_FIELD
  CUcontext ctx; /* the primary context of the configured device, retained for the process */
  int ordinal;
} tb_cuda;

/* The driver with the device's primary context, or NULL (no driver, no device: *why says). */
const tb_cuda *tb_cuda_get(const char **why);
/* Make ctx current on this thread for a while (the caller's own context comes back at leave). */
int tb_cuda_enter(const tb_cuda *cu);
void tb_cuda_leave(const tb_cuda *cu);
const char *tb_cuda_error_name(const tb_cuda *cu, CUresult r);

/* Copies a rows x cols column-major matrix, element size es: from (src, its leading dimension
 * in elements, where it lives) to (dst, ...). Memory of the caller, wherever it is, is
 * addressed through unified addressing; our own buffers by their kind. */
typedef struct tb_span {
  void *ptr;
  int64_t ld;
  CUmemorytype kind; /* CU_MEMORYTYPE_HOST, _DEVICE (ours) or _UNIFIED (the caller's device memory) */
} tb_span;
CUresult tb_cuda_copy(const tb_cuda *cu, tb_span dst, tb_span src, int64_t rows, int64_t cols,
                      size_t es);
static inline CUmemorytype tb_cuda_kind(tb_where w) {
  return w == TB_HOST ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_UNIFIED;
}

/* One operand (rows x cols, column-major, at p with leading dimension ld, living where w says)
 * as a kernel reads it: the caller's array in place on the configured device, else a buffer of
 * ours (packed: ld = rows; `owned`, for the caller to free) holding a copy when `copy` is set. */
typedef struct tb_operand {
  CUdeviceptr ptr, owned;
  int64_t ld;
} tb_operand;
CUresult tb_cuda_place(const tb_cuda *cu, tb_operand *o, tb_where w, const void *p, int64_t ld, int64_t rows,
                       int64_t cols, size_t es, int copy);

/* complex_kernels.c: the module of the complex kernels, loaded once in the device's context
 * (entered by the caller); 0 when it could not be (said once on stderr). */
int tb_complex_kernels_ready(const tb_cuda *cu);
/* X = s op(Y) (op 'N', 'T' or 'C'), op(Y) rows x cols complex at src (ld in elements), into dst
 * as Ahat (mode 0, 2 rows x 2 cols real) or as op(Y)'s real view (mode 1, 2 rows x cols). */
CUresult tb_complex_expand(const tb_cuda *cu, tb_type t, CUdeviceptr src, int64_t ld, char op,
                           const void *s, CUdeviceptr dst, int64_t rows, int64_t cols, int mode);
/* C = P + beta C: P the product in C's real view (ld 2 rows), C complex (ldc). */
CUresult tb_complex_combine(const tb_cuda *cu, tb_type t, CUdeviceptr p, CUdeviceptr c, int64_t ldc,
                            const void *beta, int64_t rows, int64_t cols);

/* gpu.c: one GEMM of device operands (addresses and lds in g) on tcj, enqueued on `stream`; the
 * engine is gpu.c's, made on first use (NULL and *why set when it cannot be). */
tcj_engine *tb_gpu_engine(const char **why);
int tb_gpu_enqueue(tcj_engine *e, const tb_gemm *g, CUstream stream); /* 0, or a tcj_status */

/* pipeline.c: a GEMM with operands in pageable host memory (each TB_HOST or TB_DEVICE), moved
 * through pinned staging buffers and cut into tiles whose copies in, GEMMs and copies out
 * overlap. Returns 0 and *res when it ran the call, -1 when it did not take it (too small to
 * pay, staging turned off or not available: nothing was done). The context is entered. */
int tb_pipeline_gemm(const tb_cuda *cu, tcj_engine *e, const tb_gemm *g, tb_places p, tb_gpu_result *res);

#endif /* TCJBLAS_CUDA_DRIVER_H */
