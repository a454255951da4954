/* SPDX-License-Identifier: Apache-2.0 */
/* What every GPU test shares: the start (skip with exit 77, CTest's SKIP_RETURN_CODE for the gpu
 * label, without a usable GPU; bind the primary context; create the engine; read TCJ_TEST_SEED,
 * TCJ_TEST_FILTER and TCJ_TEST_SKIP), host values of every tcj_dtype, poison, the splitmix64
 * generator, device buffers with their host images, and cuBLAS. The judges stay apart: oracle.h
 * (the fp64 reference and its bounds), tail_mem.h (buffers that fault one byte past the end) and
 * guard_buf.h (those with poison before them). */
#ifndef TCJ_TEST_GPU_TEST_H
#define TCJ_TEST_GPU_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "tcj.h"
#include "tools/host_half.h"

/* ---- start ------------------------------------------------------------------------------ */

/* GPU_EXIT_SKIPPED: no GPU here. The message starts "SKIP: no GPU", which scripts/gpu-check.sh
 * takes as a failure on the GPU machine, where a GPU is required. */
enum { GPU_START_GO_ON = -1, GPU_EXIT_SKIPPED = 77 };

static inline int gpu_skip(const char *why, const char *what) {
  printf("SKIP: no GPU (%s): none of the %s ran\n", why, what);
  return GPU_EXIT_SKIPPED;
}

/* Skips the calling cmocka test unless the GPU (compute capability cc, 10 * major + minor) can
 * run the sm90 recipe. */
static inline void gpu_skip_unless_sm90(int cc) {
  if (cc == 90) return;
  print_message("the sm90 recipe needs compute capability 9.0; this GPU is %d.%d\n", cc / 10, cc % 10);
  skip();
}

/* Sets name to value (NULL: unsets it). */
static inline void gpu_env_set(const char *name, const char *value) {
  if (value) setenv(name, value, 1);
  else unsetenv(name);
}

/* name's value into saved (size bytes); returns it (saved), or NULL where name is not set. */
static inline const char *gpu_env_save(const char *name, char *saved, size_t size) {
  const char *prev = getenv(name);
  if (!prev) return NULL;
  snprintf(saved, size, "%s", prev);
  return saved;
}

/* An engine made with TCJ_RECIPE=recipe and TCJ_TILE=tile in the environment, each unset where
 * NULL (tcj reads both at creation; they are put back as they were), or NULL with the reason
 * printed: the GPU tests' forced-recipe and forced-tile passes. */
static inline tcj_engine *gpu_engine_with(const char *recipe, const char *tile) {
  char recipe_buf[64], tile_buf[128];
  const char *recipe_was = gpu_env_save("TCJ_RECIPE", recipe_buf, sizeof recipe_buf);
  const char *tile_was = gpu_env_save("TCJ_TILE", tile_buf, sizeof tile_buf);
  gpu_env_set("TCJ_RECIPE", recipe);
  gpu_env_set("TCJ_TILE", tile);
  tcj_engine *e = NULL;
  tcj_status st = tcj_create(&e, NULL);
  gpu_env_set("TCJ_RECIPE", recipe_was);
  gpu_env_set("TCJ_TILE", tile_was);
  if (st != TCJ_SUCCESS)
    printf("  tcj_create under TCJ_RECIPE=%s TCJ_TILE=%s: %s\n", recipe ? recipe : "(unset)", tile ? tile : "(unset)",
           tcj_last_error(NULL));
  return st == TCJ_SUCCESS ? e : NULL;
}

static inline tcj_engine *gpu_engine_under(const char *recipe) { return gpu_engine_with(recipe, NULL); }

/* TCJ_TILE for the sm90 kernel with ping-pong consumers: two consumer warpgroups taking 64 x 128
 * tiles in turn, 128 bytes of K per stage, 4 stages. Selection gives grouped calls ping-pong
 * consumers only on short-K groups of few rows (the tile below), so the grouped tests' passes
 * under this tile are what checks them on every M mode. */
#define GPU_SM90_PINGPONG_TILE "64x128x128/2x1/4/pp"
/* ...and with 128-row ping-pong tiles (two 64-row blocks a consumer), 6 stages: what selection
 * gives 16-bit groups of at most 128 rows and 12 K tiles (engine/select_sm90.c). */
#define GPU_SM90_PINGPONG_128_TILE "128x128x128/2x1/6/pp"
/* TCJ_TILE with the whole-tile TMA epilogue ("/ew": each consumer stages its whole share of D
 * and leaves every store in flight into the next tile's mainloop), cooperative 128x256 (three
 * stages beside the staging) and ping-pong 128x128. Kernels that store D otherwise keep their
 * staged epilogue under the same tile (eng_tile_override_apply). */
#define GPU_SM90_WHOLE_EPI_TILE "128x256x128/2x1/3/ew"
#define GPU_SM90_WHOLE_EPI_PP_TILE "128x128x128/2x1/4/pp/ew"
/* TCJ_TILE for the sm90 kernel with three consumer warpgroups: 192 x 128 tiles, 64 rows each,
 * 4 stages (what shared memory holds beside three consumers' staging). */
#define GPU_SM90_THREE_CONSUMER_TILE "192x128x128/3x1/4"

/* For tests that make their own engines: returns GPU_START_GO_ON with the primary context bound
 * (tcj binds to the context current at create) and *prop filled, or the code main returns (77:
 * skipped, saying why and that none of `what` ran; 1: a failure). */
static inline int gpu_test_device(const char *what, struct cudaDeviceProp *prop) {
  int count = 0;
  char why[512];
  cudaError_t ce = cudaGetDeviceCount(&count);
  if (ce != cudaSuccess) {
    snprintf(why, sizeof why, "cudaGetDeviceCount: %s", cudaGetErrorName(ce));
    return gpu_skip(why, what);
  }
  if (count == 0) return gpu_skip("cudaGetDeviceCount found 0 devices", what);
  if ((ce = cudaFree(0)) != cudaSuccess) {
    fprintf(stderr, "cudaFree(0) failed: %s\n", cudaGetErrorName(ce));
    return 1;
  }
  if ((ce = cudaGetDeviceProperties(prop, 0)) != cudaSuccess) {
    fprintf(stderr, "cudaGetDeviceProperties failed: %s\n", cudaGetErrorName(ce));
    return 1;
  }
  const char *env = getenv("TCJ_TEST_FILTER"); /* cmocka pattern: run only the matching tests */
  if (env && *env) cmocka_set_test_filter(env);
  env = getenv("TCJ_TEST_SKIP"); /* cmocka pattern: leave the matching tests out */
  if (env && *env) cmocka_set_skip_filter(env);
  return GPU_START_GO_ON;
}

/* gpu_test_device, then *eng created with default options (TCJ_ERROR_NO_DEVICE skips) and
 * *seed_base taken from TCJ_TEST_SEED where it is set (else left as it is). */
static inline int gpu_test_start(const char *what, tcj_engine **eng, uint64_t *seed_base, struct cudaDeviceProp *prop) {
  int rc = gpu_test_device(what, prop);
  if (rc != GPU_START_GO_ON) return rc;
  tcj_status st = tcj_create(eng, NULL);
  const char *err = tcj_last_error(NULL) ? tcj_last_error(NULL) : "";
  if (st == TCJ_ERROR_NO_DEVICE) {
    char why[512];
    snprintf(why, sizeof why, "tcj_create: %s", err);
    return gpu_skip(why, what);
  }
  if (st != TCJ_SUCCESS) {
    fprintf(stderr, "tcj_create failed: %s: %s\n", tcj_status_string(st), err);
    return 1;
  }
  const char *env = getenv("TCJ_TEST_SEED");
  if (env && *env) *seed_base = strtoull(env, NULL, 0);
  return GPU_START_GO_ON;
}

/* ---- host values of each type ------------------------------------------------------------ */

/* Values past the last tcj_dtype (TCJ_F64) are not types: the fuzz test draws them too. */
enum { GPU_DTYPE_COUNT = TCJ_F64 + 1 };

/* Bytes of one element (tf32 is stored as f32); 0 for a value that is not a tcj_dtype. */
static inline size_t gpu_esize(tcj_dtype t) {
  switch (t) {
  case TCJ_E4M3: case TCJ_E5M2: case TCJ_S8: return 1;
  case TCJ_F16: case TCJ_BF16: return 2;
  case TCJ_F32: case TCJ_TF32: case TCJ_S32: return 4;
  case TCJ_F64: return 8;
  default: return 0;
  }
}

/* Stores v as element i of a buffer of type t (floats rounded to nearest even, integers to
 * nearest) and returns the value stored (NaN for a value that is not a tcj_dtype). */
static inline double gpu_put(tcj_dtype t, void *buf, size_t i, double v) {
  unsigned char *p = (unsigned char *)buf + i * gpu_esize(t);
  switch (t) {
  case TCJ_F16: { uint16_t h = f32_to_f16((float)v); memcpy(p, &h, 2); return f16_to_f32(h); }
  case TCJ_BF16: { uint16_t h = f32_to_bf16((float)v); memcpy(p, &h, 2); return bf16_to_f32(h); }
  case TCJ_F32: case TCJ_TF32: { float f = (float)v; memcpy(p, &f, 4); return f; }
  case TCJ_E4M3: *p = f32_to_e4m3((float)v); return e4m3_to_f32(*p);
  case TCJ_E5M2: *p = f32_to_e5m2((float)v); return e5m2_to_f32(*p);
  case TCJ_S8: { int8_t x = (int8_t)lrint(v); memcpy(p, &x, 1); return x; }
  case TCJ_S32: { int32_t x = (int32_t)llrint(v); memcpy(p, &x, 4); return x; }
  case TCJ_F64: memcpy(p, &v, 8); return v;
  default: return NAN;
  }
}

/* Element i of a buffer of type t. */
static inline double gpu_get(tcj_dtype t, const void *buf, size_t i) {
  const unsigned char *p = (const unsigned char *)buf + i * gpu_esize(t);
  switch (t) {
  case TCJ_F16: { uint16_t h; memcpy(&h, p, 2); return f16_to_f32(h); }
  case TCJ_BF16: { uint16_t h; memcpy(&h, p, 2); return bf16_to_f32(h); }
  case TCJ_F32: case TCJ_TF32: { float f; memcpy(&f, p, 4); return f; }
  case TCJ_E4M3: return e4m3_to_f32(*p);
  case TCJ_E5M2: return e5m2_to_f32(*p);
  case TCJ_S8: { int8_t x; memcpy(&x, p, 1); return x; }
  case TCJ_S32: { int32_t x; memcpy(&x, p, 4); return x; }
  case TCJ_F64: { double d; memcpy(&d, p, 8); return d; }
  default: return NAN;
  }
}

/* ---- poison ------------------------------------------------------------------------------- */

/* The byte every element of a poisoned region is made of: 0xFF is a NaN in f16, bf16, f32, f64,
 * e4m3 and e5m2; s32 gets 0xA5A5A5A5 (-1515870811, far from any result the tests make); s8 127
 * (0x7F), out of the tests' data, so that an element read from padding shows in an exact result.
 * Left in C when beta == 0 (C must not be read, every element of D must be written) and in the
 * padding of A and B (which must never reach D). */
static inline unsigned char gpu_poison_byte(tcj_dtype t) { return t == TCJ_S32 ? 0xA5 : t == TCJ_S8 ? 0x7F : 0xFF; }

static inline void gpu_poison(tcj_dtype t, void *buf, size_t i) {
  memset((unsigned char *)buf + i * gpu_esize(t), gpu_poison_byte(t), gpu_esize(t));
}

/* Element i is whole poison (poison byte: gpu_poison_byte(t), or a test's own). */
static inline int gpu_is_poison_of(tcj_dtype t, const void *buf, size_t i, unsigned char poison) {
  const unsigned char *p = (const unsigned char *)buf + i * gpu_esize(t);
  for (size_t b = 0; b < gpu_esize(t); b++)
    if (p[b] != poison) return 0;
  return 1;
}

static inline int gpu_is_poison(tcj_dtype t, const void *buf, size_t i) {
  return gpu_is_poison_of(t, buf, i, gpu_poison_byte(t));
}

/* ---- random numbers (splitmix64: seeded per case, reproducible) ---------------------------- */

typedef struct rng { uint64_t s; } rng;

static inline uint64_t rng_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static inline uint64_t rng_next(rng *r) { return rng_mix64(r->s += 0x9e3779b97f4a7c15ull); }
static inline double rng_sym(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-52 - 1.0; } /* [-1, 1) */

/* ---- device buffers ------------------------------------------------------------------------ */

/* bytes of device memory with two host images: `before`, what is uploaded; `after`, what came
 * back. gpu_region_alloc poisons `before`; returns 1, or 0 (free what there is either way). */
typedef struct gpu_region {
  size_t bytes;
  unsigned char *before, *after;
  void *dev;
} gpu_region;

static inline int gpu_region_alloc(gpu_region *g, size_t bytes, unsigned char poison) {
  g->bytes = bytes;
  g->before = malloc(bytes);
  g->after = malloc(bytes);
  if (!g->before || !g->after) return 0;
  memset(g->before, poison, bytes);
  return cudaMalloc(&g->dev, bytes) == cudaSuccess;
}

static inline void gpu_region_free(gpu_region *g) {
  free(g->before);
  free(g->after);
  if (g->dev) cudaFree(g->dev);
  memset(g, 0, sizeof *g);
}

/* Inside a cmocka test (a failed call fails the test): device memory holding a copy of
 * host[0, bytes); device memory of `bytes` poison bytes; host[0, bytes) read back from dev. */
static inline void *gpu_upload(const void *host, size_t bytes) {
  void *dev = NULL;
  assert_int_equal(cudaMalloc(&dev, bytes), cudaSuccess);
  assert_int_equal(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), cudaSuccess);
  return dev;
}

static inline void *gpu_poisoned(size_t bytes, unsigned char poison) {
  void *dev = NULL;
  assert_int_equal(cudaMalloc(&dev, bytes), cudaSuccess);
  assert_int_equal(cudaMemset(dev, poison, bytes), cudaSuccess);
  return dev;
}

static inline void gpu_download(void *host, const void *dev, size_t bytes) {
  assert_int_equal(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

/* ---- cuBLAS (the reference the tests compare with) ------------------------------------------ */

/* A cuBLAS handle, inside a cmocka test; cublasDestroy it. */
static inline cublasHandle_t gpu_cublas(void) {
  cublasHandle_t h = NULL;
  assert_int_equal(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  return h;
}

/* cuBLAS's type of a tcj_dtype's storage (tf32 operands are f32 data). */
static inline cudaDataType gpu_cublas_type(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: return CUDA_R_16F;
  case TCJ_BF16: return CUDA_R_16BF;
  case TCJ_S8: return CUDA_R_8I;
  case TCJ_S32: return CUDA_R_32I;
  case TCJ_F64: return CUDA_R_64F;
  default: return CUDA_R_32F;
  }
}

#endif
