/* SPDX-License-Identifier: Apache-2.0 */
/* The start the tcj_gemm_ex and fp8 GPU tests share: skip (exit 77, CTest's SKIP_RETURN_CODE for
 * the gpu label) without a usable GPU, bind the primary context, create the engine, and take
 * TCJ_TEST_SEED, TCJ_TEST_FILTER and TCJ_TEST_SKIP from the environment. */
#ifndef TCJ_TEST_GPU_START_H
#define TCJ_TEST_GPU_START_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>
#include <cuda_runtime.h>

#include "tcj.h"

enum { GPU_START_GO_ON = -1, GPU_EXIT_SKIPPED = 77 };

/* Returns GPU_START_GO_ON with *eng created and *prop filled, or the code main returns (77:
 * skipped, saying why and that none of `what` ran; 1: a failure). */
static inline int gpu_test_start(const char *what, tcj_engine **eng, uint64_t *seed_base, struct cudaDeviceProp *prop) {
  int count = 0;
  char why[512];
  cudaError_t ce = cudaGetDeviceCount(&count);
  if (ce != cudaSuccess || count == 0) {
    if (ce != cudaSuccess) snprintf(why, sizeof why, "cudaGetDeviceCount: %s", cudaGetErrorName(ce));
    else snprintf(why, sizeof why, "cudaGetDeviceCount found 0 devices");
    printf("SKIP: no GPU (%s): none of the %s ran\n", why, what);
    return GPU_EXIT_SKIPPED;
  }
  if ((ce = cudaFree(0)) != cudaSuccess) { /* the primary context, which tcj binds to */
    fprintf(stderr, "cudaFree(0) failed: %s\n", cudaGetErrorName(ce));
    return 1;
  }
  tcj_status st = tcj_create(eng, NULL);
  if (st == TCJ_ERROR_NO_DEVICE) {
    printf("SKIP: no GPU (tcj_create: %s): none of the %s ran\n", tcj_last_error(NULL) ? tcj_last_error(NULL) : "", what);
    return GPU_EXIT_SKIPPED;
  }
  if (st != TCJ_SUCCESS) {
    fprintf(stderr, "tcj_create failed: %s: %s\n", tcj_status_string(st), tcj_last_error(NULL));
    return 1;
  }
  const char *env = getenv("TCJ_TEST_SEED");
  if (env && *env) *seed_base = strtoull(env, NULL, 0);
  env = getenv("TCJ_TEST_FILTER");
  if (env && *env) cmocka_set_test_filter(env);
  env = getenv("TCJ_TEST_SKIP");
  if (env && *env) cmocka_set_skip_filter(env);
  cudaGetDeviceProperties(prop, 0);
  return GPU_START_GO_ON;
}

#endif
