/* SPDX-License-Identifier: Apache-2.0 */
/* In-memory memo of loaded kernels: canonical cfg text -> module/function handles and launch
 * facts. Handles are opaque here (cache/ makes no CUDA calls); the owner unloads them. */
#ifndef TCJ_CACHE_KERNEL_TABLE_H
#define TCJ_CACHE_KERNEL_TABLE_H

#include <stdint.h>

typedef struct cache_kernel {
  void *module;   /* CUmodule */
  void *function; /* CUfunction */
  void *reduce;   /* CUfunction of the split-K reduction, or NULL */
  void *transpose; /* CUfunction of the transposing pack (sm90 tf32, s8, fp8), or NULL */
  void *split;     /* CUfunction of the 3xTF32 split pass (tf32x3 configs), or NULL */
  int threads, smem_bytes, bm, bn; /* a split's slice count is the plan's (a launch value) */
  int recipe;    /* ptx_recipe: which kernel ABI (ptxgen/ptxgen.h) the launch follows */
  int cluster_ctas; /* sm90: CTAs per cluster (tcj_cfg_cluster_ctas, 1: none); the grid is a multiple of it */
  int max_ctas;  /* CTAs resident at once: sm90 clusters (whole clusters), sm80 grouped kernels (occupancy); 0: the SM count */
} cache_kernel;

typedef struct cache_kernel_table cache_kernel_table;

/* Called once per stored kernel at destroy, to unload its module. */
typedef void (*cache_unload_fn)(void *module, void *ctx);

cache_kernel_table *cache_kernel_table_create(cache_unload_fn unload, void *ctx); /* NULL: OOM */
void cache_kernel_table_destroy(cache_kernel_table *t);                         /* NULL: no-op */

/* 1 and *out when key is present, else 0. Thread-safe; readers do not block each other. */
int cache_kernel_table_find(cache_kernel_table *t, const char *key, cache_kernel *out);
/* The same with key's hash given (cache_kernel_table_hash), for a caller that keys more than
 * this table by it: the text is hashed once per call. */
uint64_t cache_kernel_table_hash(const char *key);
int cache_kernel_table_find_hashed(cache_kernel_table *t, const char *key, uint64_t hash, cache_kernel *out);

/* Insert-if-absent. Returns 1 if k was stored, 0 if key was already present (*winner gets
 * the stored kernel; the caller still owns k and must unload it), -1 when out of memory. */
int cache_kernel_table_insert(cache_kernel_table *t, const char *key, const cache_kernel *k,
                              cache_kernel *winner);

int cache_kernel_table_count(cache_kernel_table *t);

#endif
