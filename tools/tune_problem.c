/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-warmup --tune (tools/tune_problem.h): operands through the engine's own driver table, so
 * that tcj-warmup needs no CUDA runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/tools_api.h"
#include "tools/host_half.h"
#include "tools/tune_problem.h"

enum { BUF_A, BUF_B, BUF_D, BUF_BIAS, BUF_SCALES, BUF_COUNT };

/* Random host values of type t, never all zeros (timing on zeros draws less power). */
static void fill_random(tcj_dtype t, unsigned char *buf, size_t n, unsigned *seed) {
  for (size_t i = 0; i < n; i++) {
    float v = (float)rand_r(seed) / (float)RAND_MAX * 2 - 1;
    switch (t) {
    case TCJ_F16: ((uint16_t *)buf)[i] = f32_to_f16(v); break;
    case TCJ_BF16: ((uint16_t *)buf)[i] = f32_to_bf16(v); break;
    case TCJ_S8: buf[i] = (unsigned char)(rand_r(seed) % 17 - 8); break;
    /* Sign, then an exponent near 1 (e4m3 bias 7, e5m2 bias 15) and random mantissa bits. */
    case TCJ_E4M3: buf[i] = (unsigned char)((rand_r(seed) & 0x80) | (0x30 + rand_r(seed) % 16)); break;
    case TCJ_E5M2: buf[i] = (unsigned char)((rand_r(seed) & 0x80) | (0x34 + rand_r(seed) % 8)); break;
    case TCJ_S32: ((int32_t *)buf)[i] = rand_r(seed) % 17 - 8; break;
    case TCJ_F64: ((double *)buf)[i] = v; break;
    default: ((float *)buf)[i] = v; break;
    }
  }
}

/* cuMemAlloc of count elements of t, filled from the host (ones for scales). */
static tcj_status upload(tcj_engine *e, tcj_dtype t, size_t count, int ones, unsigned *seed, CUdeviceptr *out,
                         char *err, size_t err_size) {
  size_t es = gemm_dtype_size(t), bytes = count * es;
  unsigned char *host = malloc(bytes ? bytes : 1);
  if (!host) {
    snprintf(err, err_size, "out of host memory (%zu bytes)", bytes);
    return TCJ_ERROR_OUT_OF_MEMORY;
  }
  if (ones)
    for (size_t i = 0; i < count; i++) ((float *)host)[i] = 1.0f;
  else
    fill_random(t, host, count, seed);
  const eng_cuda_api *cu = eng_engine_driver(e);
  CUresult r = cu->cuMemAlloc(out, bytes ? bytes : 1);
  if (r == CUDA_SUCCESS) r = cu->cuMemcpyHtoD(*out, host, bytes);
  free(host);
  if (r != CUDA_SUCCESS) {
    snprintf(err, err_size, "%zu bytes of operands on the GPU: %s", bytes, eng_cuda_error_name(r));
    return TCJ_ERROR_OUT_OF_MEMORY;
  }
  return TCJ_SUCCESS;
}

tcj_status tune_problem(tcj_engine *e, const gemm_problem *p, char *choice, size_t choice_size, char *err,
                        size_t err_size) {
  const char *why = NULL;
  eng_problem ep;
  if (!eng_engine_tunes(e)) {
    snprintf(err, err_size, "the engine does not tune: TCJ_TUNE is not 1, or TCJ_RECIPE or TCJ_TILE force a choice");
    return TCJ_ERROR_INVALID_VALUE;
  }
  tcj_status st = gemm_problem_validate(p, &ep, &why);
  if (st != TCJ_SUCCESS) {
    snprintf(err, err_size, "%s", why);
    return st;
  }
  size_t counts[BUF_COUNT] = {
    (size_t)gemm_a_elems(p), (size_t)(p->k * gemm_b_cols(p) * gemm_b_entries(p)), (size_t)(p->m * p->n * gemm_entries(p)),
    p->bias != TCJ_BIAS_NONE ? (size_t)(gemm_b_cols(p) * gemm_bias_entries(p)) : 0,
    (size_t)(gemm_scale_b_at(p) + gemm_scales_b(p))};
  tcj_dtype types[BUF_COUNT] = {p->ab, gemm_b_dtype(p), gemm_out_dtype(p), gemm_bias_dtype(p), TCJ_F32};
  CUdeviceptr bufs[BUF_COUNT] = {0};
  int pushed = 0;
  if ((st = eng_engine_enter(e, &pushed)) != TCJ_SUCCESS) {
    snprintf(err, err_size, "%s", tcj_last_error(e));
    return st;
  }
  unsigned seed = 1;
  for (int i = 0; i < BUF_COUNT && st == TCJ_SUCCESS; i++)
    if (counts[i]) st = upload(e, types[i], counts[i], i == BUF_SCALES, &seed, &bufs[i], err, err_size);
  if (st == TCJ_SUCCESS) {
    tcj_gemm_desc g;
    gemm_problem_desc(p, (void *)(uintptr_t)bufs[BUF_A], (void *)(uintptr_t)bufs[BUF_B], (void *)(uintptr_t)bufs[BUF_D],
                      (void *)(uintptr_t)bufs[BUF_BIAS], (const float *)(uintptr_t)bufs[BUF_SCALES], &g);
    st = tcj_gemm_ex(e, &g, NULL);
    if (st != TCJ_SUCCESS) snprintf(err, err_size, "%s", tcj_last_error(e));
  }
  /* The tuned choice, as the next call will find it. */
  eng_plan plan;
  if (st == TCJ_SUCCESS &&
      (st = eng_engine_select(e, &ep, &plan, &why)) != TCJ_SUCCESS)
    snprintf(err, err_size, "%s", why);
  if (st == TCJ_SUCCESS) {
    eng_engine_tuned_plan(e, &ep, &plan);
    if (gemm_plan_format(&plan, choice, choice_size) < 0) snprintf(choice, choice_size, "(config text too long)");
  }
  for (int i = 0; i < BUF_COUNT; i++)
    if (bufs[i]) eng_engine_driver(e)->cuMemFree(bufs[i]); /* waits for the call */
  eng_engine_leave(e, pushed);
  return st;
}
