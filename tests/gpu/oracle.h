/* SPDX-License-Identifier: Apache-2.0 */
/* Host float64 oracle for GPU GEMM results: the reference alpha * op(A) op(B) + beta * C of each
 * element from the values the GPU multiplies, and an error bound per element built from |A||B|,
 * so that a result is judged element by element instead of by a norm over the whole matrix. */
#ifndef TCJ_TESTS_GPU_ORACLE_H
#define TCJ_TESTS_GPU_ORACLE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tcj.h"

/* An f32 operand as a tf32 tensor-core input: 10 explicit mantissa bits. truncate = 0 rounds to
 * nearest (ties to even), 1 drops the low 13 bits. A kernel that converts with cvt.rna rounds;
 * one that hands raw f32 registers to mma truncates (the tensor cores ignore the low bits, as
 * test_api_fuzz_gpu found on an H100). tcj.h promises neither, so that test accepts a call that
 * fits either model in every element, and counts which. */
static inline float oracle_tf32(float x, int truncate) {
  uint32_t u;
  memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) { /* inf and NaN pass through */
    if (!truncate) u += 0xfffu + ((u >> 13) & 1u);
    u &= ~0x1fffu;
  }
  memcpy(&x, &u, 4);
  return x;
}

/* Unit roundoff of an output type (half its ulp at 1.0); 0 for s32, which is exact. */
static inline double oracle_unit_roundoff(tcj_dtype c) {
  switch (c) {
  case TCJ_F16: return 0x1p-11;
  case TCJ_BF16: return 0x1p-8;
  case TCJ_F32: return 0x1p-24;
  default: return 0;
  }
}

/* Smallest absolute error a correctly rounded result may carry (half the subnormal spacing,
 * rounded up to a whole spacing): matters only where |C| is tiny, f16's subnormals above all. */
static inline double oracle_abs_floor(tcj_dtype c) {
  switch (c) {
  case TCJ_F16: return 0x1p-24;
  case TCJ_BF16: return 0x1p-133;
  case TCJ_F32: return 0x1p-149;
  default: return 0;
  }
}

/* Accumulation term c_k of the bound: fp32 sums over k products, each addition off by at most
 * one fp32 ulp (tensor cores may truncate rather than round, so 2^-23, not 2^-24, per step),
 * plus two for alpha's product and beta's fused add. Input rounding needs no term: the oracle
 * is given the values the GPU multiplies (f16/bf16 exactly as stored, tf32 already rounded). */
static inline double oracle_ck(int64_t k) { return (double)(k + 2) * 0x1p-23; }

typedef struct oracle_gemm {
  int64_t m, n, k;
  float alpha, beta;  /* exactly as passed to the GEMM */
  tcj_dtype c_type;   /* TCJ_F16, TCJ_BF16, TCJ_F32 or TCJ_S32 */
  const double *a;    /* op(A), m x k row-major: the values the GPU multiplies */
  const double *bt;   /* op(B) transposed, n x k row-major (rows of op(B)^T are contiguous in k) */
  const double *c_in; /* C before the call, m x n; not read when beta == 0 */
  const double *got;  /* C after the call, m x n */
  /* Added to c_k: a tensor core's own accumulation error per unit of (|A||B|)_ij beyond fp32's
   * (fp8's, see test_fp8_gpu.c); 0 for every other type. */
  double tc_term;
} oracle_gemm;

typedef struct oracle_result {
  int64_t checked, bad;    /* elements compared, elements outside their bound */
  int64_t worst_i, worst_j; /* element with the largest |got - ref| / bound (-1: none) */
  double worst_got, worst_ref, worst_bound;
  double worst_ratio; /* |got - ref| / bound there; <= 1 passes; inf for NaN or any error on a 0 bound */
} oracle_result;

/* The s32 result: the fp64 value rounded to the nearest integer and saturated; where the value
 * lies exactly halfway, either neighbour is accepted (alpha or beta not integers). */
static inline double oracle_s32_error(double ref, double got) {
  double lo = floor(ref), want = ref - lo < 0.5 ? lo : ref - lo > 0.5 ? lo + 1 : NAN;
  if (isnan(want)) return got == lo || got == lo + 1 ? 0 : INFINITY;
  if (want > 2147483647.0) want = 2147483647.0;
  if (want < -2147483648.0) want = -2147483648.0;
  return got == want ? 0 : INFINITY;
}

/* Compares every element of g->got with the reference under
 *   |got - ref| <= eps_out * (|ref| + |beta * c|) + (c_k + tc_term) * |alpha| * (|A||B|)_ij + floor
 * with eps_out twice the output's unit roundoff (the fp32 epilogue rounds, then the store rounds
 * to the output type) and (|A||B|)_ij = sum_p |a_ip * b_pj|. s32 is exact (oracle_s32_error). */
static inline void oracle_check(const oracle_gemm *g, oracle_result *r) {
  memset(r, 0, sizeof *r);
  r->worst_i = r->worst_j = -1;
  const double alpha = g->alpha, beta = g->beta;
  const int exact = g->c_type == TCJ_S32;
  const double eps_out = 2 * oracle_unit_roundoff(g->c_type), ck = oracle_ck(g->k) + g->tc_term;
  const double floor_abs = oracle_abs_floor(g->c_type);
  for (int64_t i = 0; i < g->m; i++) {
    const double *ar = g->a + i * g->k;
    for (int64_t j = 0; j < g->n; j++) {
      const double *bc = g->bt + j * g->k;
      double s0 = 0, s1 = 0, t0 = 0, t1 = 0; /* two chains: fp64 error is far below any bound */
      int64_t p = 0;
      for (; p + 2 <= g->k; p += 2) {
        double x0 = ar[p] * bc[p], x1 = ar[p + 1] * bc[p + 1];
        s0 += x0;
        s1 += x1;
        t0 += fabs(x0);
        t1 += fabs(x1);
      }
      if (p < g->k) {
        double x = ar[p] * bc[p];
        s0 += x;
        t0 += fabs(x);
      }
      double bcv = beta != 0 ? beta * g->c_in[i * g->n + j] : 0;
      double ref = alpha * (s0 + s1) + bcv, got = g->got[i * g->n + j];
      double bound = 0, err, ratio;
      if (exact) {
        err = oracle_s32_error(ref, got);
        ratio = err == 0 ? 0 : INFINITY;
      } else {
        bound = eps_out * (fabs(ref) + fabs(bcv)) + ck * fabs(alpha) * (t0 + t1) + floor_abs;
        err = fabs(got - ref);
        ratio = err != err ? INFINITY : err == 0 ? 0 : bound > 0 ? err / bound : INFINITY;
      }
      r->checked++;
      if (!(ratio <= 1)) r->bad++;
      if (r->worst_i < 0 || ratio > r->worst_ratio || (ratio != ratio)) {
        r->worst_i = i;
        r->worst_j = j;
        r->worst_got = got;
        r->worst_ref = ref;
        r->worst_bound = bound;
        r->worst_ratio = ratio != ratio ? INFINITY : ratio;
      }
    }
  }
}

/* ---- tcj_gemm_ex: bias, activation, user epilogue ---------------------------------------- */

/* The two sums of one element: s = sum_p a_p b_p (the exact product sum, fp64) and
 * t = sum_p |a_p b_p| (the |A||B| of the bound), over two chains as oracle_check does. */
static inline void oracle_dot(const double *a, const double *b, int64_t k, double *s, double *t) {
  double s0 = 0, s1 = 0, t0 = 0, t1 = 0;
  int64_t p = 0;
  for (; p + 2 <= k; p += 2) {
    double x0 = a[p] * b[p], x1 = a[p + 1] * b[p + 1];
    s0 += x0;
    s1 += x1;
    t0 += fabs(x0);
    t1 += fabs(x1);
  }
  if (p < k) {
    double x = a[p] * b[p];
    s0 += x;
    t0 += fabs(x);
  }
  *s = s0 + s1;
  *t = t0 + t1;
}

/* The activations of tcj.h in fp64. */
static inline double oracle_act(tcj_activation act, double v) {
  switch (act) {
  case TCJ_ACT_RELU: return v > 0 ? v : 0;
  case TCJ_ACT_GELU: return 0.5 * v * (1 + erf(v * 0.70710678118654752440));
  case TCJ_ACT_GELU_TANH: return 0.5 * v * (1 + tanh(0.79788456080286535588 * (v + 0.044715 * v * v * v)));
  case TCJ_ACT_SILU: return v / (1 + exp(-v));
  default: return v;
  }
}

/* Lipschitz constant of an activation: an error e in its input is at most L * e after it
 * (max |d/dv|: GELU erf 1.129, GELU tanh 1.129, SiLU 1.0998). */
static inline double oracle_act_lipschitz(tcj_activation act) {
  switch (act) {
  case TCJ_ACT_GELU: case TCJ_ACT_GELU_TANH: return 1.13;
  case TCJ_ACT_SILU: return 1.1;
  default: return 1;
  }
}

/* The activation's own error in fp32 (erf, tanh and exp approximations) at input v: 2^-20 of
 * |v| + 1 (tcj.h promises 2e-7 |v| for GELU). ReLU and none are exact. */
static inline double oracle_act_abs_error(tcj_activation act, double v) {
  return act == TCJ_ACT_NONE || act == TCJ_ACT_RELU ? 0 : 0x1p-20 * (fabs(v) + 1);
}

/* One element of D = user(act(alpha * AB + beta * C + bias)), converted to d_type. */
typedef struct oracle_ep {
  int64_t k;
  double alpha, beta;     /* as the GPU uses them (floats) */
  tcj_activation act;
  tcj_dtype d_type;       /* TCJ_F16, TCJ_BF16, TCJ_F32 or TCJ_S32 (exact, fp64 epilogue) */
  int user_adds;          /* fp32 additions the user epilogue does after the activation; 0: none */
  double tc_term;         /* added to c_k, as oracle_gemm's (3xTF32's parts: 2^-20) */
} oracle_ep;

/* Judges got against the fp64 reference of one element: s, t from oracle_dot, c the C value
 * (ignored when beta == 0), bias the bias value (0 without one), user_add the value the user
 * epilogue adds to the activated value and user_abs the sum of |its terms|. The bound is
 *   pre  = c_k |alpha| t + 3 u32 (|alpha s| + |beta c| + |bias|)     (accumulation, fp32 adds)
 *   act  = L * pre + 2^-20 (|v| + pre + 1)                           (Lipschitz, approximation)
 *   user = act + user_adds u32 (|act(v)| + user_abs)                 (the user epilogue's adds)
 *   out  = user (1 + u_d) + 2 u_d |ref| + floor_d                    (rounding to d_type)
 * with u32 = 2^-24 and u_d the unit roundoff of D. s32 is exact (oracle_s32_error).
 * Returns |got - ref| / bound (inf for NaN, or any error on a 0 bound); *ref and *bound out. */
static inline double oracle_ep_element(const oracle_ep *e, double s, double t, double c, double bias,
                                       double user_add, double user_abs, double got, double *ref_out,
                                       double *bound_out) {
  const double u32 = 0x1p-24;
  double as = e->alpha * s, bc = e->beta != 0 ? e->beta * c : 0;
  double v = as + bc + bias;
  double ref = oracle_act(e->act, v) + (e->user_adds ? user_add : 0);
  *ref_out = ref;
  if (e->d_type == TCJ_S32) {
    *bound_out = 0;
    return oracle_s32_error(ref, got) == 0 ? 0 : INFINITY;
  }
  double err_pre = (oracle_ck(e->k) + e->tc_term) * fabs(e->alpha) * t + 3 * u32 * (fabs(as) + fabs(bc) + fabs(bias));
  double err = oracle_act_lipschitz(e->act) * err_pre + oracle_act_abs_error(e->act, fabs(v) + err_pre);
  if (e->user_adds) err += e->user_adds * u32 * (fabs(oracle_act(e->act, v)) + user_abs + err);
  double ud = oracle_unit_roundoff(e->d_type);
  double bound = err * (1 + ud) + 2 * ud * fabs(ref) + oracle_abs_floor(e->d_type);
  *bound_out = bound;
  double diff = fabs(got - ref);
  return diff != diff ? INFINITY : diff == 0 ? 0 : bound > 0 ? diff / bound : INFINITY;
}

#endif /* TCJ_TESTS_GPU_ORACLE_H */
