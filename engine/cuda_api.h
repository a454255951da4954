/* SPDX-License-Identifier: Apache-2.0 */
/* The CUDA driver API as a table of function pointers filled by dlopen("libcuda.so.1"):
 * libtcj never links libcuda, so it (and its tools and CPU tests) start without a driver. */
#ifndef TCJ_ENG_CUDA_API_H
#define TCJ_ENG_CUDA_API_H

#include <cuda.h>

/* Entries we use. cuda.h #defines several of these names to versioned symbols
 * (cuCtxPushCurrent -> cuCtxPushCurrent_v2, ...), so the field and the dlsym name below
 * both expand to the versioned symbol, and the pointer type is taken from the prototype. */
#define ENG_CUDA_API_LIST(X)   \
  X(cuInit)                    \
  X(cuDriverGetVersion)        \
  X(cuGetErrorName)            \
  X(cuDeviceGet)               \
  X(cuDeviceGetCount)          \
  X(cuDeviceGetAttribute)      \
  X(cuDeviceGetName)           \
  X(cuDevicePrimaryCtxRetain)  \
  X(cuDevicePrimaryCtxRelease) \
  X(cuCtxGetCurrent)           \
  X(cuCtxGetDevice)            \
  X(cuCtxPushCurrent)          \
  X(cuCtxPopCurrent)           \
  X(cuModuleLoadData)          \
  X(cuModuleLoadDataEx)        \
  X(cuModuleUnload)            \
  X(cuModuleGetFunction)       \
  X(cuFuncSetAttribute)        \
  X(cuLaunchKernel)            \
  X(cuMemAlloc)                \
  X(cuMemFree)                 \
  X(cuMemAllocAsync)           \
  X(cuMemFreeAsync)            \
  X(cuStreamIsCapturing)       \
  X(cuThreadExchangeStreamCaptureMode) \
  X(cuMemcpy2DAsync)           \
  X(cuMemsetD32Async)          \
  X(cuMemcpyHtoD)              \
  X(cuLinkCreate)              \
  X(cuLinkAddData)             \
  X(cuLinkComplete)            \
  X(cuLinkDestroy)

/* Entries only some recipes need (CUDA 12.0): NULL when the driver lacks them, and the recipe
 * that needs one reports it. cuTensorMapEncodeTiled: the sm90 recipe's TMA maps;
 * cuOccupancyMaxActiveClusters: how many of its clusters fit on the GPU at once;
 * cuOccupancyMaxActiveBlocksPerMultiprocessor: how many CTAs of a grouped kernel do. The
 * event calls: the autotuner's timing (engine/autotune.h); cuda.h names cuEventElapsedTime_v2,
 * which drivers older than CUDA 12.8 lack. */
#define ENG_CUDA_API_OPTIONAL_LIST(X) \
  X(cuTensorMapEncodeTiled)           \
  X(cuOccupancyMaxActiveClusters)     \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
  X(cuEventCreate)                    \
  X(cuEventRecord)                    \
  X(cuEventSynchronize)               \
  X(cuEventElapsedTime)               \
  X(cuEventDestroy)

typedef struct eng_cuda_api {
#define ENG_CUDA_FIELD(fn) __typeof__(&fn) fn;
  ENG_CUDA_API_LIST(ENG_CUDA_FIELD)
  ENG_CUDA_API_OPTIONAL_LIST(ENG_CUDA_FIELD)
#undef ENG_CUDA_FIELD
  int driver_version;
} eng_cuda_api;

/* Opens the driver once (thread-safe) and runs cuInit(0). Returns the table, or NULL with the
 * reason (library missing, symbol missing, cuInit failure) in *why. */
const eng_cuda_api *eng_cuda_load(const char **why);

/* Test seam: from now on eng_cuda_load returns `api` (NULL: the driver again), so CPU tests
 * run engines on a fake driver (tests/unit/fake_cuda.h). Call before tcj_create. */
void eng_cuda_use_fake(const eng_cuda_api *api);

/* "CUDA_ERROR_..." for r, or "CUDA error <n>" when the driver cannot name it. */
const char *eng_cuda_error_name(CUresult r);

#endif
