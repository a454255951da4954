/* SPDX-License-Identifier: Apache-2.0 */
/* The generic set of an arch (engine/generic_set.h). */
#include "engine/generic_set.h"

#include <string.h>

int eng_generic_pairs(const eng_device_caps *caps, ptx_elem ab[ENG_GENERIC_PAIRS_MAX],
                      ptx_elem c[ENG_GENERIC_PAIRS_MAX]) {
  static const ptx_elem pairs[][2] = {{PTX_E_F16, PTX_E_F16},  {PTX_E_BF16, PTX_E_BF16}, {PTX_E_F16, PTX_E_F32},
                                      {PTX_E_BF16, PTX_E_F32}, {PTX_E_TF32, PTX_E_F32},  {PTX_E_F32, PTX_E_F32},
                                      {PTX_E_S8, PTX_E_S32},   {PTX_E_E4M3, PTX_E_BF16}, {PTX_E_E5M2, PTX_E_BF16},
                                      {PTX_E_F64, PTX_E_F64}};
  int n = 0;
  for (int i = 0; i < (int)(sizeof pairs / sizeof *pairs) && n < ENG_GENERIC_PAIRS_MAX; i++) {
    if (ptx_elem_is_fp8(pairs[i][0]) && caps->sm < 89) continue; /* fp8 mma needs sm_89 */
    ab[n] = pairs[i][0];
    c[n++] = pairs[i][1];
  }
  return n;
}

/* xorshift64: a fixed sample, the same set on every machine. */
static uint64_t next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* 1 .. 16384, log-uniform. */
static int64_t log_uniform(uint64_t *x) {
  int64_t top = (int64_t)1 << (next(x) % 15);
  return top + (int64_t)(next(x) % (uint64_t)top);
}

#define SAMPLES 200 /* shapes per op pair: enough to meet every tile and D class (checked in CI) */

int eng_generic_set(const eng_device_caps *caps, ptx_elem ab, ptx_elem c, tcj_kernel_cfg *out, int max) {
  eng_tuning generic;
  memset(&generic, 0, sizeof generic);
  generic.generic = 1;
  int n = 0, es = ptx_elem_size(ab);
  for (int ops = 0; ops < 4; ops++) {
    uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)ops;
    for (int i = 0; i < SAMPLES; i++) {
      eng_problem p;
      memset(&p, 0, sizeof p);
      p.ab = ab == PTX_E_F32 ? PTX_E_TF32 : ab; /* f32 at fp32 accuracy: the parts' GEMM, below */
      p.c = c;
      p.op_a_t = ops & 1;
      p.op_b_t = ops >> 1;
      p.m = log_uniform(&x);
      p.n = log_uniform(&x);
      p.k = log_uniform(&x);
      if (i % 2) p.n = (p.n + 7) / 8 * 8; /* D in 16-byte rows for 16-bit types */
      int64_t pad = 16 / es;
      p.lda = ((p.op_a_t ? p.m : p.k) + pad - 1) / pad * pad;
      p.ldb = ((p.op_b_t ? p.k : p.n) + pad - 1) / pad * pad;
      p.ldc = p.n;
      p.align_a = p.align_b = 16;
      eng_problem_plain_epilogue(&p);
      /* C's rows: the largest power of two up to 16 dividing their bytes. */
      p.align_c = 16;
      while ((p.n * ptx_elem_size(c)) % p.align_c) p.align_c /= 2;
      if (ab == PTX_E_F32) eng_problem_split3(&p);
      eng_plan plan;
      const char *why = NULL;
      if (eng_select_tuned(&p, caps, 1, &generic, &plan, &why) != TCJ_SUCCESS) continue;
      plan.cfg = tcj_cfg_kernel_form(&plan.cfg); /* a split's count is a launch value */
      char text[512], other[512];
      if (tcj_cfg_format(&plan.cfg, text, sizeof text) < 0) continue;
      int seen = 0;
      for (int j = 0; j < n && !seen; j++)
        seen = tcj_cfg_format(&out[j], other, sizeof other) >= 0 && strcmp(text, other) == 0;
      if (seen) continue;
      if (n == max) return -1;
      out[n++] = plan.cfg;
    }
  }
  return n;
}
