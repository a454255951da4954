/* SPDX-License-Identifier: Apache-2.0 */
/* A fake CUDA driver for CPU tests of the engine (eng_cuda_use_fake): one sm_90a device of 132
 * SMs, handles that are counters, launches and tensor-map encodes counted (and shown to a
 * test's hook, fake_on_launch), and a driver "JIT" (cuLink*) that returns a dummy cubin at once,
 * fails on request, or holds until released, so that a test can keep a build in flight. Engines
 * built on it need force_driver_jit (nvJitLink would compile real PTX) and never run a kernel.
 * One fake per test program. */
#ifndef TCJ_TESTS_FAKE_CUDA_H
#define TCJ_TESTS_FAKE_CUDA_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "engine/cuda_api.h"

typedef struct fake_cuda {
  _Atomic int launches, encodes, links, links_failed;
  _Atomic int fail_links;          /* every cuLinkComplete fails */
  _Atomic int fail_links_off_main; /* cuLinkComplete fails on threads other than `main` */
  pthread_t main;
  /* The gate: while closed, cuLinkComplete waits (after counting `links`) until it opens. */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int gate_closed;
  _Atomic uintptr_t next_handle;
} fake_cuda;

/* Called at every launch with its grid and kernelParams, when a test sets it (the test knows
 * which entry it launched, and so what args holds). */
static void (*fake_on_launch)(unsigned gx, unsigned gy, unsigned gz, void **args);
/* Called at every tensor map encoded, when a test sets it: its rank, global address, dims and
 * strides (rank - 1 of them, bytes). */
static void (*fake_on_encode)(unsigned rank, const void *addr, const cuuint64_t *dims, const cuuint64_t *strides);

static fake_cuda fake = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER, .next_handle = 0x1000};
static int fake_ctx_object;

static void fake_gate(int closed) {
  pthread_mutex_lock(&fake.lock);
  fake.gate_closed = closed;
  pthread_cond_broadcast(&fake.cond);
  pthread_mutex_unlock(&fake.lock);
}

static uintptr_t fake_handle(void) { return atomic_fetch_add(&fake.next_handle, 256); }

static CUresult f_cuInit(unsigned flags) { (void)flags; return CUDA_SUCCESS; }
static CUresult f_cuDriverGetVersion(int *v) { *v = 13000; return CUDA_SUCCESS; }
static CUresult f_cuGetErrorName(CUresult r, const char **s) { (void)r; *s = "CUDA_ERROR_FAKE"; return CUDA_SUCCESS; }
static CUresult f_cuDeviceGet(CUdevice *d, int i) { *d = i; return CUDA_SUCCESS; }
static CUresult f_cuDeviceGetCount(int *n) { *n = 1; return CUDA_SUCCESS; }
static CUresult f_cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
  (void)d;
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 232448; break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 50 << 20; break;
  default: *v = 0;
  }
  return CUDA_SUCCESS;
}
static CUresult f_cuDeviceGetName(char *name, int len, CUdevice d) {
  (void)d;
  snprintf(name, (size_t)len, "fake sm_90a");
  return CUDA_SUCCESS;
}
static CUresult f_cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
  (void)d;
  *c = (CUcontext)&fake_ctx_object;
  return CUDA_SUCCESS;
}
static CUresult f_cuDevicePrimaryCtxRelease(CUdevice d) { (void)d; return CUDA_SUCCESS; }
static CUresult f_cuCtxGetCurrent(CUcontext *c) { *c = (CUcontext)&fake_ctx_object; return CUDA_SUCCESS; }
static CUresult f_cuCtxGetDevice(CUdevice *d) { *d = 0; return CUDA_SUCCESS; }
static CUresult f_cuCtxPushCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
static CUresult f_cuCtxPopCurrent(CUcontext *c) { *c = (CUcontext)&fake_ctx_object; return CUDA_SUCCESS; }
static CUresult f_cuModuleLoadData(CUmodule *m, const void *image) {
  (void)image;
  *m = (CUmodule)fake_handle();
  return CUDA_SUCCESS;
}
static CUresult f_cuModuleUnload(CUmodule m) { (void)m; return CUDA_SUCCESS; }
static CUresult f_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  (void)m, (void)name;
  *f = (CUfunction)fake_handle();
  return CUDA_SUCCESS;
}
static CUresult f_cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) { (void)f, (void)a, (void)v; return CUDA_SUCCESS; }
static CUresult f_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned smem, CUstream s, void **args, void **extra) {
  (void)f, (void)bx, (void)by, (void)bz, (void)smem, (void)s, (void)extra;
  if (fake_on_launch) fake_on_launch(gx, gy, gz, args);
  atomic_fetch_add(&fake.launches, 1);
  return CUDA_SUCCESS;
}
static CUresult f_cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  (void)bytes;
  *p = (CUdeviceptr)fake_handle() << 20;
  return CUDA_SUCCESS;
}
static CUresult f_cuMemFree(CUdeviceptr p) { (void)p; return CUDA_SUCCESS; }
static CUresult f_cuMemAllocAsync(CUdeviceptr *p, size_t bytes, CUstream s) { (void)s; return f_cuMemAlloc(p, bytes); }
static CUresult f_cuMemFreeAsync(CUdeviceptr p, CUstream s) { (void)p, (void)s; return CUDA_SUCCESS; }
static CUresult f_cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st) {
  (void)s;
  *st = CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}
static CUresult f_cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *m) { (void)m; return CUDA_SUCCESS; }
static CUresult f_cuMemcpy2DAsync(const CUDA_MEMCPY2D *c, CUstream s) { (void)c, (void)s; return CUDA_SUCCESS; }
static CUresult f_cuMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, CUstream s) { (void)p, (void)v, (void)n, (void)s; return CUDA_SUCCESS; }
static CUresult f_cuLinkCreate(unsigned n, CUjit_option *o, void **v, CUlinkState *l) {
  (void)n, (void)o, (void)v;
  *l = (CUlinkState)fake_handle();
  return CUDA_SUCCESS;
}
static CUresult f_cuLinkAddData(CUlinkState l, CUjitInputType t, void *d, size_t n, const char *name, unsigned no,
                                CUjit_option *o, void **v) {
  (void)l, (void)t, (void)d, (void)n, (void)name, (void)no, (void)o, (void)v;
  return CUDA_SUCCESS;
}
static CUresult f_cuLinkComplete(CUlinkState l, void **cubin, size_t *size) {
  (void)l;
  static const char image[] = "a fake cubin";
  atomic_fetch_add(&fake.links, 1);
  pthread_mutex_lock(&fake.lock);
  while (fake.gate_closed) pthread_cond_wait(&fake.cond, &fake.lock);
  pthread_mutex_unlock(&fake.lock);
  if (atomic_load(&fake.fail_links) || (atomic_load(&fake.fail_links_off_main) && !pthread_equal(pthread_self(), fake.main))) {
    atomic_fetch_add(&fake.links_failed, 1);
    return CUDA_ERROR_INVALID_PTX;
  }
  *cubin = (void *)image;
  *size = sizeof image;
  return CUDA_SUCCESS;
}
static CUresult f_cuLinkDestroy(CUlinkState l) { (void)l; return CUDA_SUCCESS; }
static CUresult f_cuTensorMapEncodeTiled(CUtensorMap *m, CUtensorMapDataType t, cuuint32_t rank, void *addr,
                                         const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                         const cuuint32_t *es, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                         CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  (void)t, (void)rank, (void)dims, (void)strides, (void)box, (void)es, (void)il, (void)sw, (void)l2, (void)oob;
  if (fake_on_encode) fake_on_encode(rank, addr, dims, strides);
  memset(m, 0, sizeof *m);
  memcpy(m, &addr, sizeof addr); /* the address it holds, as a real map does */
  atomic_fetch_add(&fake.encodes, 1);
  return CUDA_SUCCESS;
}

/* Every kernel fits FAKE_CTAS_PER_SM CTAs on an SM (a grouped kernel's persistent grid). */
#define FAKE_CTAS_PER_SM 3
static CUresult f_cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int threads, size_t smem) {
  (void)f, (void)threads, (void)smem;
  *n = FAKE_CTAS_PER_SM;
  return CUDA_SUCCESS;
}

/* Installs the fake as the process's driver. */
static void fake_cuda_install(void) {
  static eng_cuda_api api;
  memset(&api, 0, sizeof api);
  api.cuInit = f_cuInit;
  api.cuDriverGetVersion = f_cuDriverGetVersion;
  api.cuGetErrorName = f_cuGetErrorName;
  api.cuDeviceGet = f_cuDeviceGet;
  api.cuDeviceGetCount = f_cuDeviceGetCount;
  api.cuDeviceGetAttribute = f_cuDeviceGetAttribute;
  api.cuDeviceGetName = f_cuDeviceGetName;
  api.cuDevicePrimaryCtxRetain = f_cuDevicePrimaryCtxRetain;
  api.cuDevicePrimaryCtxRelease = f_cuDevicePrimaryCtxRelease;
  api.cuCtxGetCurrent = f_cuCtxGetCurrent;
  api.cuCtxGetDevice = f_cuCtxGetDevice;
  api.cuCtxPushCurrent = f_cuCtxPushCurrent;
  api.cuCtxPopCurrent = f_cuCtxPopCurrent;
  api.cuModuleLoadData = f_cuModuleLoadData;
  api.cuModuleUnload = f_cuModuleUnload;
  api.cuModuleGetFunction = f_cuModuleGetFunction;
  api.cuFuncSetAttribute = f_cuFuncSetAttribute;
  api.cuLaunchKernel = f_cuLaunchKernel;
  api.cuMemAlloc = f_cuMemAlloc;
  api.cuMemFree = f_cuMemFree;
  api.cuMemAllocAsync = f_cuMemAllocAsync;
  api.cuMemFreeAsync = f_cuMemFreeAsync;
  api.cuStreamIsCapturing = f_cuStreamIsCapturing;
  api.cuThreadExchangeStreamCaptureMode = f_cuThreadExchangeStreamCaptureMode;
  api.cuMemcpy2DAsync = f_cuMemcpy2DAsync;
  api.cuMemsetD32Async = f_cuMemsetD32Async;
  api.cuLinkCreate = f_cuLinkCreate;
  api.cuLinkAddData = f_cuLinkAddData;
  api.cuLinkComplete = f_cuLinkComplete;
  api.cuLinkDestroy = f_cuLinkDestroy;
  api.cuTensorMapEncodeTiled = f_cuTensorMapEncodeTiled;
  api.cuOccupancyMaxActiveBlocksPerMultiprocessor = f_cuOccupancyMaxActiveBlocksPerMultiprocessor;
  api.driver_version = 13000;
  fake.main = pthread_self();
  eng_cuda_use_fake(&api);
}

#endif
