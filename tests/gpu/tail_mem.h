/* SPDX-License-Identifier: Apache-2.0 */
/* Device buffers that end where their mapping ends: the byte after a buffer's last one is
 * reserved address space with nothing mapped, so a kernel that reads or writes one element past
 * the data faults ("an illegal memory access") instead of reading a neighbour's bytes. Built on
 * the driver's virtual memory API, reached through the runtime's entry points (the tests link
 * the runtime only; tcj itself opens libcuda at run time). */
#ifndef TCJ_TEST_TAIL_MEM_H
#define TCJ_TEST_TAIL_MEM_H

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vmm_api {
  __typeof__(cuMemGetAllocationGranularity) *granularity;
  __typeof__(cuMemAddressReserve) *reserve;
  __typeof__(cuMemAddressFree) *address_free;
  __typeof__(cuMemCreate) *create;
  __typeof__(cuMemRelease) *release;
  __typeof__(cuMemMap) *map;
  __typeof__(cuMemUnmap) *unmap;
  __typeof__(cuMemSetAccess) *set_access;
} vmm_api;

static inline int driver_symbol(const char *name, void **fn) {
  enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t e = cudaGetDriverEntryPointByVersion(name, fn, 12000, cudaEnableDefault, &q);
#else
  cudaError_t e = cudaGetDriverEntryPoint(name, fn, cudaEnableDefault, &q);
#endif
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !*fn) {
    printf("  cannot get the driver's %s: %s\n", name, cudaGetErrorName(e));
    return 0;
  }
  return 1;
}

static inline int vmm_load(vmm_api *v) {
  return driver_symbol("cuMemGetAllocationGranularity", (void **)&v->granularity) &&
         driver_symbol("cuMemAddressReserve", (void **)&v->reserve) &&
         driver_symbol("cuMemAddressFree", (void **)&v->address_free) &&
         driver_symbol("cuMemCreate", (void **)&v->create) && driver_symbol("cuMemRelease", (void **)&v->release) &&
         driver_symbol("cuMemMap", (void **)&v->map) && driver_symbol("cuMemUnmap", (void **)&v->unmap) &&
         driver_symbol("cuMemSetAccess", (void **)&v->set_access);
}

/* 2 * size bytes of address space of which only the first half is mapped, so the byte after
 * base + size faults. host and back: host images of the mapping (as uploaded, as read back);
 * lo is the caller's (e.g. where the current upload starts). */
typedef struct tail_buf {
  CUdeviceptr base;
  size_t size;
  CUmemGenericAllocationHandle handle;
  int reserved, created, mapped;
  unsigned char *host, *back;
  size_t lo;
} tail_buf;

/* The address at which `bytes` bytes end exactly where t's mapping ends. */
static inline CUdeviceptr tail_buf_place(const tail_buf *t, size_t bytes) { return t->base + t->size - bytes; }

static inline int tail_buf_create(const vmm_api *v, int device, tail_buf *t, size_t want) {
  memset(t, 0, sizeof *t);
  CUmemAllocationProp prop;
  memset(&prop, 0, sizeof prop);
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  size_t gran = 0;
  CUresult r = v->granularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  if (r != CUDA_SUCCESS || gran == 0) return printf("  cuMemGetAllocationGranularity: %d\n", (int)r), 0;
  t->size = (want + gran - 1) / gran * gran;
  if (t->size == 0) t->size = gran;
  if ((r = v->reserve(&t->base, 2 * t->size, 0, 0, 0)) != CUDA_SUCCESS)
    return printf("  cuMemAddressReserve: %d\n", (int)r), 0;
  t->reserved = 1;
  if ((r = v->create(&t->handle, t->size, &prop, 0)) != CUDA_SUCCESS) return printf("  cuMemCreate: %d\n", (int)r), 0;
  t->created = 1;
  if ((r = v->map(t->base, t->size, 0, t->handle, 0)) != CUDA_SUCCESS) return printf("  cuMemMap: %d\n", (int)r), 0;
  t->mapped = 1;
  CUmemAccessDesc acc;
  memset(&acc, 0, sizeof acc);
  acc.location = prop.location;
  acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if ((r = v->set_access(t->base, t->size, &acc, 1)) != CUDA_SUCCESS) return printf("  cuMemSetAccess: %d\n", (int)r), 0;
  t->host = malloc(t->size);
  t->back = malloc(t->size);
  return t->host && t->back;
}

static inline void tail_buf_destroy(const vmm_api *v, tail_buf *t) {
  if (t->mapped) v->unmap(t->base, t->size);
  if (t->created) v->release(t->handle);
  if (t->reserved) v->address_free(t->base, 2 * t->size);
  free(t->host);
  free(t->back);
  memset(t, 0, sizeof *t);
}

#endif
