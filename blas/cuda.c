/* SPDX-License-Identifier: Apache-2.0 */
/* The CUDA driver as libtcjblas uses it: opened once, where each operand lives (host, the
 * configured device, another device), 2-D copies, and the way back to the host for calls on
 * device memory that tcj cannot run (complex types today, or a tcj failure). */
#include "blas/cuda_driver.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

static tb_cuda cuda;
static const tb_cuda *cuda_ok;
static char cuda_why[256];
static pthread_once_t cuda_once = PTHREAD_ONCE_INIT;

#define TB_STR_(x) #x
#define TB_STR(x) TB_STR_(x) /* expands cuda.h's renames before stringising */

static void load_once(void) {
  /* RTLD_LOCAL: the driver's symbols must not satisfy anything else in the process. */
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(cuda_why, sizeof cuda_why, "cannot open libcuda.so.1 (no CUDA driver)");
    return;
  }
#define TB_CUDA_SYM(fn)                                                                       \
  *(void **)(&cuda.fn) = dlsym(lib, TB_STR(fn));                                              \
  if (!cuda.fn) {                                                                             \
    snprintf(cuda_why, sizeof cuda_why, "libcuda.so.1 lacks %s (driver too old)", TB_STR(fn)); \
    return;                                                                                   \
  }
  TB_CUDA_LIST(TB_CUDA_SYM)
#undef TB_CUDA_SYM
  CUresult r = cuda.cuInit(0);
  CUdevice dev;
  cuda.ordinal = tb_config_get()->gpu_device;
  if (r == CUDA_SUCCESS) r = cuda.cuDeviceGet(&dev, cuda.ordinal);
  if (r == CUDA_SUCCESS) r = cuda.cuDevicePrimaryCtxRetain(&cuda.ctx, dev);
  if (r != CUDA_SUCCESS) {
    snprintf(cuda_why, sizeof cuda_why, "CUDA device %d: %s", cuda.ordinal, tb_cuda_error_name(&cuda, r));
    return;
  }
  cuda_ok = &cuda; /* the library and the context stay for the life of the process */
}

const tb_cuda *tb_cuda_get(const char **why) {
  pthread_once(&cuda_once, load_once);
  if (!cuda_ok && why) *why = cuda_why;
  return cuda_ok;
}

const char *tb_cuda_error_name(const tb_cuda *cu, CUresult r) {
  const char *name = NULL;
  if (cu->cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "unknown CUDA error";
  return name;
}

/* Push/pop rather than set: the caller's current context, if any, is theirs to keep. */
int tb_cuda_enter(const tb_cuda *cu) { return cu->cuCtxPushCurrent(cu->ctx) == CUDA_SUCCESS ? 0 : -1; }

void tb_cuda_leave(const tb_cuda *cu) {
  CUcontext popped;
  cu->cuCtxPopCurrent(&popped);
}

CUresult tb_cuda_copy(const tb_cuda *cu, tb_span dst, tb_span src, int64_t rows, int64_t cols,
                      size_t es) {
  CUDA_MEMCPY2D c = {0};
  c.srcMemoryType = src.kind;
  if (src.kind == CU_MEMORYTYPE_HOST) c.srcHost = src.ptr;
  else c.srcDevice = (CUdeviceptr)(uintptr_t)src.ptr;
  c.srcPitch = (size_t)src.ld * es;
  c.dstMemoryType = dst.kind;
  if (dst.kind == CU_MEMORYTYPE_HOST) c.dstHost = dst.ptr;
  else c.dstDevice = (CUdeviceptr)(uintptr_t)dst.ptr;
  c.dstPitch = (size_t)dst.ld * es;
  c.WidthInBytes = (size_t)rows * es;
  c.Height = (size_t)cols;
  return cu->cuMemcpy2D(&c); /* synchronous with the host for pageable memory */
}

CUresult tb_cuda_place(const tb_cuda *cu, tb_operand *o, tb_where w, const void *p, int64_t ld, int64_t rows,
                       int64_t cols, size_t es, int copy) {
  if (w == TB_DEVICE) {
    o->ptr = (CUdeviceptr)(uintptr_t)p;
    o->ld = ld;
    return CUDA_SUCCESS;
  }
  CUresult r = cu->cuMemAlloc(&o->owned, (size_t)rows * (size_t)cols * es);
  if (r != CUDA_SUCCESS) return r;
  o->ptr = o->owned;
  o->ld = rows;
  if (!copy) return CUDA_SUCCESS;
  tb_span dst = {(void *)(uintptr_t)o->ptr, rows, CU_MEMORYTYPE_DEVICE};
  tb_span src = {(void *)p, ld, tb_cuda_kind(w)};
  return tb_cuda_copy(cu, dst, src, rows, cols, es);
}

static tb_where where_is(const tb_cuda *cu, const void *p) {
  CUmemorytype kind = 0;
  int ordinal = -1;
  /* Plain host memory is not known to the driver (CUDA_ERROR_INVALID_VALUE); pinned host
   * memory is CU_MEMORYTYPE_HOST. Either way the CPU may read it. */
  if (cu->cuPointerGetAttribute(&kind, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)p) != CUDA_SUCCESS ||
      kind != CU_MEMORYTYPE_DEVICE)
    return TB_HOST;
  if (cu->cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, (CUdeviceptr)(uintptr_t)p) != CUDA_SUCCESS)
    return TB_OTHER_DEVICE;
  return ordinal == cu->ordinal ? TB_DEVICE : TB_OTHER_DEVICE;
}

tb_places tb_cuda_places(const tb_gemm *g) {
  tb_places p = {TB_HOST, TB_HOST, TB_HOST};
  const tb_cuda *cu = tb_cuda_get(NULL);
  if (!cu || tb_cuda_enter(cu)) return p;
  if (!tb_gemm_only_scales(g)) { /* else A and B are not referenced: not even asked about */
    p.a = where_is(cu, g->a);
    p.b = where_is(cu, g->b);
  }
  p.c = where_is(cu, g->c);
  tb_cuda_leave(cu);
  return p;
}

/* A host copy (packed, ld = rows) of one operand that lives on a device; `copy` 0 leaves it
 * unset (C with beta == 0). NULL when out of memory or the copy fails. */
static void *to_host(const tb_cuda *cu, const void *src, int64_t ld, int64_t rows, int64_t cols,
                     size_t es, int copy) {
  void *h = malloc((size_t)rows * (size_t)cols * es);
  if (!h || !copy) return h;
  tb_span dst = {h, rows, CU_MEMORYTYPE_HOST}, from = {(void *)src, ld, CU_MEMORYTYPE_UNIFIED};
  if (tb_cuda_copy(cu, dst, from, rows, cols, es) == CUDA_SUCCESS) return h;
  free(h);
  return NULL;
}

int tb_cuda_run_on_host(const tb_gemm *g, tb_places p) {
  const tb_cuda *cu = tb_cuda_get(NULL);
  if (!cu || tb_cuda_enter(cu)) return -1;
  size_t es = tb_elem_size(g->type);
  tb_gemm h = *g;
  void *ha = NULL, *hb = NULL, *hc = NULL;
  int rc = -1;
  if (!tb_gemm_only_scales(g)) {
    int64_t ra = g->ta == 'N' ? g->m : g->k, ca = g->ta == 'N' ? g->k : g->m;
    int64_t rb = g->tb == 'N' ? g->k : g->n, cb = g->tb == 'N' ? g->n : g->k;
    if (p.a && !(h.a = ha = to_host(cu, g->a, g->lda, ra, ca, es, 1))) goto done;
    if (p.a) h.lda = ra;
    if (p.b && !(h.b = hb = to_host(cu, g->b, g->ldb, rb, cb, es, 1))) goto done;
    if (p.b) h.ldb = rb;
  }
  if (p.c) {
    if (!(h.c = hc = to_host(cu, g->c, g->ldc, g->m, g->n, es, !tb_beta_is_zero(g)))) goto done;
    h.ldc = g->m;
  }
  tb_cuda_leave(cu); /* the host computation may take long: hold no context over it */
  tb_gemm_run_host(&h);
  if (tb_cuda_enter(cu)) goto out;
  if (p.c) {
    tb_span dst = {g->c, g->ldc, CU_MEMORYTYPE_UNIFIED}, src = {hc, g->m, CU_MEMORYTYPE_HOST};
    if (tb_cuda_copy(cu, dst, src, g->m, g->n, es) != CUDA_SUCCESS) goto done;
  }
  rc = 0;
done:
  tb_cuda_leave(cu);
out:
  free(ha);
  free(hb);
  free(hc);
  return rc;
}
