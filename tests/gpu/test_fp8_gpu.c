/* SPDX-License-Identifier: Apache-2.0 */
/* GPU correctness of fp8 GEMMs (e4m3, e5m2 operands) through the public API only: tcj_gemm and
 * tcj_gemm_ex with the fp8 fields of tcj_gemm_desc (scale_mode, scale_a, scale_b, scale_d, amax_d,
 * fast_accum). Every element of D against a host fp64 reference over the decoded fp8 inputs times
 * their scales, judged on its own under a bound built from sum |a||b| (tests/gpu/oracle.h's terms,
 * plus the tensor cores' own accumulation below). D is poisoned (0xFF bytes: NaN in every output
 * type) before every call; bytes of D's allocation outside its m x n windows must come back as
 * they were, a C apart from D must not change, and amax_d starts with a stale value (1e30, inf or
 * NaN) that the call must replace, not max with.
 *
 * Covered: all four operand pairs x all four op pairs (N/T each; K-major A N, B T is the fast
 * path, the others may be packed) over edge shapes (m, n, k of 1, 16, 17, 100, 257, 300, ...;
 * leading dimensions at the minimum, padded by 16-byte multiples and odd); tcj_gemm with fp8
 * operands; D in bf16, f16, f32, e4m3 and e5m2 (scale_d, rounding, saturation at +-448 and
 * +-57344); per-tensor scale_a/scale_b as device pointers with beta != 0 and a bf16 C, and with
 * a bias and ReLU; amax_d with every D type and over a batch; DeepSeek-V3 block scales (k and n
 * not multiples of 128); K = 65536 under the plain fp32 bound (random signs, and all-positive
 * data, where an fp8 accumulator that is never promoted to fp32 loses the small addends);
 * fast_accum = 1 at K = 16384 under a looser bound; descriptors outside the contract refused;
 * a subset again on the forced sm80 recipe (mma.sync m16n8k32).
 *
 * Bound of one element before D's rounding (v = alpha sa sb sum_k a b + beta c + bias, t the same
 * sum over |a b|, times |alpha sa sb|; block scales inside the sums):
 *   (c_k + c_tc) t + 5 u32 (|alpha sa sb s| + |beta c| + |bias|)
 * c_k = (k + 2) 2^-23 is fp32 accumulation (oracle_ck). c_tc is the fp8 tensor cores' own: each
 * step of 32 products goes into an accumulator of about 13 mantissa bits (Hopper's and Ada's
 * "FP22"), truncated, and errs by up to 2^-10 of the |products| summed so far. Measured on an
 * H100 (cuBLASLt e4m3, this file's data ranges): one step with random signs 2^-11.9, four steps of
 * positive data 2^-9.4 (2^-11.4 a step), so 2^-10 leaves a factor 2.6; fast accumulation of
 * positive data reached 7.5% at K = 4096, against 12.5% here. With fast_accum = 0 tcj.h promises
 * fp32 promotion every 128 of K, so at most 4 steps meet before an fp32 add: c_tc = 4 * 2^-10,
 * whatever K. With fast_accum = 1 every step of K adds its own: c_tc = ceil(k / 32) 2^-10 (the
 * looser bound). The K = 65536 cases must also meet c_k t alone, the plain fp32 bound.
 * An fp8 D must be the round-to-nearest-even, saturated scale_d v of some v within the bound: an
 * interval of fp8 values, one fp8 ulp away from round(scale_d v_ref) only where v_ref lies within
 * the bound of a rounding midpoint. Its ratio is |D - scale_d v_ref| over half an fp8 spacing
 * plus the allowance, so a correctly rounded D shows up to 1.
 *
 * fp8 needs sm_89 or newer: on an older GPU only the refusals run (and fp8 calls must return
 * TCJ_ERROR_NOT_SUPPORTED). Without a GPU it prints SKIP and exits 77 (CTest: skipped), after
 * checking its own host fp8 codec. TCJ_TEST_SEED changes the data, TCJ_TEST_FILTER /
 * TCJ_TEST_SKIP select tests (cmocka patterns). */
#include <cuda_runtime.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tcj.h"
#include "tests/gpu/gpu_test.h"


#include "tests/gpu/oracle.h"

#define GUARD_BYTES 256 /* poisoned bytes after the last element of D */
#define MSG_SIZE 1536
#define U32 0x1p-24      /* fp32 unit roundoff */
#define TC_K 32          /* K of one fp8 tensor-core step: wgmma k32, mma.sync m16n8k32 */
#define TC_STEP_ERR 0x1p-10 /* one step's error over the |products| summed so far (see top) */
#define PROMOTE_K 128    /* tcj.h: fp32 promotion every 128 of K when fast_accum is 0 */
#define BLOCK_K 128      /* TCJ_SCALE_BLOCK: scales per 128 of K (and per 128 columns of B) */
#define NCASES(a) ((int)(sizeof(a) / sizeof((a)[0])))

static uint64_t g_seed_base = 0xf8f8e4e5ull;
static tcj_engine *g_eng;
static cudaStream_t g_stream;
static int g_cc_major, g_cc_minor, g_fp8; /* g_fp8: the GPU has fp8 tensor cores (sm_89+) */

/* ---- fp8 on the host ------------------------------------------------------------------- */

/* e4m3 (OCP E4M3, PTX .e4m3): 1-4-3, bias 7, no infinities, S.1111.111 is NaN, max 448.
 * e5m2 (PTX .e5m2): 1-5-2, bias 15, IEEE-like: exponent 31 is inf (mantissa 0) or NaN, max 57344.
 * Exponent 0 is subnormal in both: m 2^(1 - bias - mbits). */
typedef struct fp8_fmt {
  int ebits, mbits, bias;
  double max;
} fp8_fmt;
static const fp8_fmt FMT_E4M3 = {4, 3, 7, 448}, FMT_E5M2 = {5, 2, 15, 57344};

static int is_fp8(tcj_dtype t) { return t == TCJ_E4M3 || t == TCJ_E5M2; }
static const fp8_fmt *fmt_of(tcj_dtype t) { return t == TCJ_E4M3 ? &FMT_E4M3 : &FMT_E5M2; }

static double fp8_decode(tcj_dtype t, uint8_t x) {
  const fp8_fmt *f = fmt_of(t);
  int e = (x >> f->mbits) & ((1 << f->ebits) - 1), m = x & ((1 << f->mbits) - 1);
  double v;
  if (t == TCJ_E4M3 && e == 15 && m == 7) return NAN;
  if (t == TCJ_E5M2 && e == 31) {
    if (m) return NAN;
    v = INFINITY;
  } else if (e == 0) {
    v = ldexp(m, 1 - f->bias - f->mbits);
  } else {
    v = ldexp(m + (1 << f->mbits), e - f->bias - f->mbits);
  }
  return x & 0x80 ? -v : v;
}

/* Spacing of t's values in the binade of |a| (the subnormal spacing below the normal range). */
static double fp8_quantum(tcj_dtype t, double a) {
  const fp8_fmt *f = fmt_of(t);
  int e = 0;
  if (a > 0) frexp(a, &e); /* a = g 2^e, 1/2 <= g < 1: the binade is 2^(e-1) */
  int ex = a > 0 && e - 1 > 1 - f->bias ? e - 1 : 1 - f->bias;
  return ldexp(1, ex - f->mbits);
}

/* x rounded to the nearest value of t, ties to even, saturated to +-max (cvt.rn.satfinite:
 * infinities too); NaN stays NaN. a / q and rint(...) * q are exact (q is a power of two); rint
 * rounds ties to even in the default rounding mode. */
static double fp8_round(tcj_dtype t, double x) {
  const fp8_fmt *f = fmt_of(t);
  if (x != x) return x;
  double a = fabs(x);
  if (a >= f->max) return copysign(f->max, x);
  double q = fp8_quantum(t, a);
  return copysign(rint(a / q) * q, x);
}

/* The byte of fp8_round(t, x). */
static uint8_t fp8_encode(tcj_dtype t, double x) {
  const fp8_fmt *f = fmt_of(t);
  if (x != x) return 0x7f; /* NaN in both formats */
  double r = fp8_round(t, x), a = fabs(r);
  uint8_t s = signbit(r) ? 0x80 : 0;
  if (a == 0) return s;
  int e;
  frexp(a, &e);
  int be = e - 1 + f->bias; /* biased exponent */
  if (be <= 0) return (uint8_t)(s | (uint8_t)(a / ldexp(1, 1 - f->bias - f->mbits)));
  return (uint8_t)(s | (be << f->mbits) | (int)(ldexp(a, 1 - e + f->mbits) - (1 << f->mbits)));
}

/* The codec against facts of both formats; run before anything else, GPU or not. Returns the
 * number of failed checks (each printed). */
static int codec_self_check(void) {
  int bad = 0, n = 0;
#define CODEC(cond, ...)                                                                        \
  do {                                                                                          \
    n++;                                                                                        \
    if (!(cond)) {                                                                              \
      bad++;                                                                                    \
      printf("  FAIL host fp8 codec: " __VA_ARGS__);                                            \
      printf("\n");                                                                             \
    }                                                                                           \
  } while (0)
  static const tcj_dtype T[2] = {TCJ_E4M3, TCJ_E5M2};
  for (int ti = 0; ti < 2; ti++) {
    tcj_dtype t = T[ti];
    int nans = 0, infs = 0;
    for (int x = 0; x < 256; x++) {
      double v = fp8_decode(t, (uint8_t)x);
      if (v != v) nans++;
      else if (isinf(v)) infs++;
      else CODEC(fp8_encode(t, v) == x, "%s 0x%02x decodes to %.9g, which encodes to 0x%02x", ti ? "e5m2" : "e4m3",
                 x, v, fp8_encode(t, v));
    }
    CODEC(nans == (ti ? 6 : 2) && infs == (ti ? 2 : 0), "%s has %d NaN and %d inf codes", ti ? "e5m2" : "e4m3",
          nans, infs);
  }
  static const struct { tcj_dtype t; uint8_t x; double v; } KNOWN[] = {
      {TCJ_E4M3, 0x7e, 448},        {TCJ_E4M3, 0xfe, -448},      {TCJ_E4M3, 0x38, 1},
      {TCJ_E4M3, 0x08, 0x1p-6},     {TCJ_E4M3, 0x01, 0x1p-9},    {TCJ_E4M3, 0x07, 7 * 0x1p-9},
      {TCJ_E4M3, 0x39, 1.125},      {TCJ_E5M2, 0x7b, 57344},     {TCJ_E5M2, 0x3c, 1},
      {TCJ_E5M2, 0x04, 0x1p-14},    {TCJ_E5M2, 0x01, 0x1p-16},   {TCJ_E5M2, 0x7c, INFINITY},
      {TCJ_E5M2, 0xfc, -INFINITY},  {TCJ_E5M2, 0x3d, 1.25},
  };
  for (int i = 0; i < NCASES(KNOWN); i++)
    CODEC(fp8_decode(KNOWN[i].t, KNOWN[i].x) == KNOWN[i].v, "0x%02x decodes to %.9g, want %.9g", KNOWN[i].x,
          fp8_decode(KNOWN[i].t, KNOWN[i].x), KNOWN[i].v);
  /* Ties to even, subnormals, saturation (also of infinities: satfinite). */
  static const struct { tcj_dtype t; double x, want; } ROUND[] = {
      {TCJ_E4M3, 1.0625, 1},          {TCJ_E4M3, 1.1875, 1.25},       {TCJ_E4M3, 1.07, 1.125},
      {TCJ_E4M3, 449, 448},           {TCJ_E4M3, 464, 448},           {TCJ_E4M3, 1e6, 448},
      {TCJ_E4M3, -500, -448},         {TCJ_E4M3, INFINITY, 448},      {TCJ_E4M3, 0x1p-10, 0},
      {TCJ_E4M3, 3 * 0x1p-11, 0x1p-9}, {TCJ_E4M3, 0.1, 0.1015625},    {TCJ_E5M2, 60000, 57344},
      {TCJ_E5M2, -INFINITY, -57344},  {TCJ_E5M2, 0x1p-17, 0},         {TCJ_E5M2, 1.5 * 0x1p-16, 0x1p-15},
      {TCJ_E5M2, 1.125, 1},           {TCJ_E5M2, 1.375, 1.5},         {TCJ_E5M2, 300, 320},
  };
  for (int i = 0; i < NCASES(ROUND); i++)
    CODEC(fp8_round(ROUND[i].t, ROUND[i].x) == ROUND[i].want, "%s round(%.9g) = %.9g, want %.9g",
          ROUND[i].t == TCJ_E4M3 ? "e4m3" : "e5m2", ROUND[i].x, fp8_round(ROUND[i].t, ROUND[i].x), ROUND[i].want);
  CODEC(fp8_encode(TCJ_E4M3, -1e9) == 0xfe && fp8_encode(TCJ_E5M2, 1e9) == 0x7b, "saturating encodes");
  CODEC(fp8_decode(TCJ_E4M3, 0xff) != fp8_decode(TCJ_E4M3, 0xff) &&
            fp8_decode(TCJ_E5M2, 0xff) != fp8_decode(TCJ_E5M2, 0xff),
        "0xff (the poison of D) is NaN in both formats");
#undef CODEC
  printf("host fp8 codec: %d checks, %d failed\n", n, bad);
  return bad;
}

/* ---- element types ---------------------------------------------------------------------- */

/* Element i of D, C or bias; fp8 through this file's own codec (the judge checks itself). */
static double get(tcj_dtype t, const unsigned char *buf, size_t i) {
  return t == TCJ_E4M3 || t == TCJ_E5M2 ? fp8_decode(t, buf[i]) : gpu_get(t, buf, i);
}

/* Poison: 0xFF bytes are NaN in f16, bf16, f32, e4m3 and e5m2 alike (D, C's padding); operands'
 * padding is 0x7F, NaN in both fp8 formats, so that a padding element read shows in D. */
#define POISON_OUT 0xff
#define POISON_FP8 0x7f

static int is_poison(tcj_dtype t, const unsigned char *buf, size_t i) { return gpu_is_poison_of(t, buf, i, POISON_OUT); }

/* Operand magnitudes: RANGE_WIDE draws every finite nonzero code up to 8 alike (subnormals
 * included: 13 binades of e4m3, 20 of e5m2, so that products span many binades), RANGE_NARROW the
 * codes in [1/4, 4], RANGE_SMALL those up to 1/4. Never NaN, inf or zero; the sign is random
 * unless the case is positive. */
enum { RANGE_WIDE, RANGE_NARROW, RANGE_SMALL };

typedef struct code_set {
  uint8_t code[128];
  int n, positive;
} code_set;

static void code_set_init(code_set *s, tcj_dtype t, int range, int positive) {
  double lo = range == RANGE_NARROW ? 0.25 : 0, hi = range == RANGE_NARROW ? 4 : range == RANGE_SMALL ? 0.25 : 8;
  s->n = 0;
  s->positive = positive;
  for (int x = 1; x < 0x80; x++) {
    double v = fp8_decode(t, (uint8_t)x);
    if (isfinite(v) && v > 0 && v >= lo && v <= hi) s->code[s->n++] = (uint8_t)x;
  }
}

static uint8_t code_draw(const code_set *s, rng *r) {
  uint64_t u = rng_next(r);
  return (uint8_t)(s->code[(u >> 1) % (uint64_t)s->n] | (s->positive ? 0 : (u & 1) << 7));
}

/* ---- cases ------------------------------------------------------------------------------ */

typedef struct fcase {
  const char *what;
  tcj_dtype ta, tb, td;
  tcj_dtype tc;            /* C's type; C is given and read only when beta != 0 */
  tcj_op op_a, op_b;
  int64_t m, n, k;
  int64_t pad_a, pad_b, pad_d; /* added to each leading dimension's minimum (ldc is n + 1) */
  float alpha, beta;
  float scale_a, scale_b;  /* TCJ_SCALE_TENSOR through device pointers; 0: NULL */
  int block;               /* TCJ_SCALE_BLOCK, random scales in [2^-4, 2^4) */
  double scale_d;          /* fp8 D: 0 NULL; > 0 this value; < 0 -scale_d * (the format's max) / amax */
  int want_saturation;     /* the case exists to saturate: some element must */
  int amax;                /* amax_d given */
  tcj_bias_kind bias;
  tcj_dtype bias_type;
  tcj_activation act;
  int fast_accum;
  int via_gemm;            /* tcj_gemm (D = C, beta 0) instead of tcj_gemm_ex */
  int range_a, range_b, positive;
  int64_t batch;           /* > 1: a strided batch */
  int share_b;             /* with a batch: stride_b 0 */
  int strict_fp32;         /* also within the plain fp32 bound c_k t (no tensor-core term) */
  uint64_t seed;
} fcase;

static fcase mk(const char *what, tcj_dtype ta, tcj_dtype tb, tcj_dtype td, tcj_op op_a, tcj_op op_b, int64_t m,
                int64_t n, int64_t k, uint64_t seed) {
  fcase c;
  memset(&c, 0, sizeof c);
  c.what = what;
  c.ta = ta;
  c.tb = tb;
  c.td = td;
  c.tc = TCJ_BF16;
  c.op_a = op_a;
  c.op_b = op_b;
  c.m = m;
  c.n = n;
  c.k = k;
  c.alpha = 1;
  c.bias_type = TCJ_F32;
  c.range_a = RANGE_WIDE;
  c.range_b = RANGE_NARROW;
  c.seed = g_seed_base + seed;
  return c;
}

static int describe(const fcase *c, char *buf, size_t size) {
  return snprintf(buf, size,
                  "[%s] %s x %s -> %s op=%c%c m=%lld n=%lld k=%lld pads a=%lld b=%lld d=%lld alpha=%g beta=%g%s%s "
                  "scales=%s a=%g b=%g scale_d=%g amax=%d bias=%d/%s act=%d fast_accum=%d batch=%lld%s%s seed=0x%llx",
                  c->what, tcj_dtype_name(c->ta), tcj_dtype_name(c->tb), tcj_dtype_name(c->td), c->op_a ? 'T' : 'N',
                  c->op_b ? 'T' : 'N', (long long)c->m, (long long)c->n, (long long)c->k, (long long)c->pad_a,
                  (long long)c->pad_b, (long long)c->pad_d, c->alpha, c->beta, c->beta != 0 ? " C " : "",
                  c->beta != 0 ? tcj_dtype_name(c->tc) : "", c->block ? "block" : "tensor", c->scale_a, c->scale_b,
                  c->scale_d, c->amax, (int)c->bias, tcj_dtype_name(c->bias_type), (int)c->act, c->fast_accum,
                  (long long)c->batch, c->share_b ? " (B shared)" : "", c->via_gemm ? " via tcj_gemm" : "",
                  (unsigned long long)c->seed);
}

static int failf(char *msg, size_t size, const fcase *c, const char *fmt, ...) {
  int len = describe(c, msg, size);
  if (len < 0 || (size_t)len + 3 >= size) return 0;
  msg[len++] = ':';
  msg[len++] = ' ';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + len, size - (size_t)len, fmt, ap);
  va_end(ap);
  return 0;
}

/* ---- one case in flight ----------------------------------------------------------------- */

/* Device floats of the per-tensor scalars, 64 bytes apart: scale_a, scale_b, scale_d, amax_d. */
enum { SC_A = 0, SC_B = 16, SC_D = 32, SC_AMAX = 48, SC_COUNT = 64 };

typedef struct frun {
  fcase c;
  int64_t nb, rows_a, cols_a, rows_b, cols_b, lda, ldb, ldc, ldd, sa, sb, sc, sd, kbn, nbn;
  gpu_region a, b, cm, d, bias, bsa, bsb; /* cm: C apart from D; bsa, bsb: block scales (floats) */
  float *scal;
  float scale_d, amax_stale;
  /* Per element of D (nb x m x n): v after the activation and before scale_d, the bound of
   * |v_gpu - v| (with the tensor-core term and without it), |alpha sa sb| t. */
  double *ref, *err, *err32, *tabs;
  double amax_ref, amax_lo, amax_hi;
} frun;

typedef struct fstats {
  int64_t checked, saturated, neighbours; /* neighbours: fp8 D one value off round(scale_d v_ref) */
  double worst, worst32, rel;             /* worst ratio, against the fp32-only bound, max |err| / t */
  double amax_got, amax_ratio;
  double secs;
} fstats;

static void run_free(frun *r) {
  gpu_region_free(&r->a);
  gpu_region_free(&r->b);
  gpu_region_free(&r->cm);
  gpu_region_free(&r->d);
  gpu_region_free(&r->bias);
  gpu_region_free(&r->bsa);
  gpu_region_free(&r->bsb);
  if (r->scal) cudaFree(r->scal);
  free(r->ref);
  free(r->err);
  free(r->err32);
  free(r->tabs);
  memset(r, 0, sizeof *r);
}

/* op(A_z)[i, p] and op(B_z)[p, j], decoded. */
static double op_a_at(const frun *r, int64_t z, int64_t i, int64_t p) {
  int64_t at = z * r->sa + (r->c.op_a == TCJ_OP_T ? p * r->lda + i : i * r->lda + p);
  return fp8_decode(r->c.ta, r->a.before[at]);
}

static double op_b_at(const frun *r, int64_t z, int64_t p, int64_t j) {
  int64_t at = z * r->sb + (r->c.op_b == TCJ_OP_T ? j * r->ldb + p : p * r->ldb + j);
  return fp8_decode(r->c.tb, r->b.before[at]);
}

static float block_scale_a(const frun *r, int64_t i, int64_t kb) {
  float f;
  memcpy(&f, r->bsa.before + 4 * (size_t)(i * r->kbn + kb), 4);
  return f;
}

static float block_scale_b(const frun *r, int64_t j, int64_t kb) {
  float f;
  memcpy(&f, r->bsb.before + 4 * (size_t)((j / BLOCK_K) * r->kbn + kb), 4);
  return f;
}

/* s = sum_p op(A)[i,p] op(B)[p,j] and t = sum_p |...| of every element (nb x m x n), in fp64
 * (oracle_dot); with block scales each 128-long partial sum times its two scales. */
static int reference_sums(const frun *r, double *s, double *t) {
  const fcase *c = &r->c;
  double *a = malloc(sizeof *a * (size_t)(c->m * c->k + 1)), *bt = malloc(sizeof *bt * (size_t)(c->n * c->k + 1));
  if (!a || !bt) {
    free(a);
    free(bt);
    return 0;
  }
  for (int64_t z = 0; z < r->nb; z++) {
    for (int64_t i = 0; i < c->m; i++)
      for (int64_t p = 0; p < c->k; p++) a[i * c->k + p] = op_a_at(r, z, i, p);
    if (z == 0 || r->sb)
      for (int64_t j = 0; j < c->n; j++)
        for (int64_t p = 0; p < c->k; p++) bt[j * c->k + p] = op_b_at(r, z, p, j);
    for (int64_t i = 0; i < c->m; i++)
      for (int64_t j = 0; j < c->n; j++) {
        size_t e = (size_t)((z * c->m + i) * c->n + j);
        if (!c->block) {
          oracle_dot(a + i * c->k, bt + j * c->k, c->k, &s[e], &t[e]);
          continue;
        }
        s[e] = t[e] = 0;
        for (int64_t kb = 0; kb < r->kbn; kb++) {
          int64_t p0 = kb * BLOCK_K, len = c->k - p0 < BLOCK_K ? c->k - p0 : BLOCK_K;
          double ps, pt, w = (double)block_scale_a(r, i, kb) * (double)block_scale_b(r, j, kb);
          oracle_dot(a + i * c->k + p0, bt + j * c->k + p0, len, &ps, &pt);
          s[e] += w * ps;
          t[e] += fabs(w) * pt;
        }
      }
  }
  free(a);
  free(bt);
  return 1;
}

/* The tensor cores' accumulation term c_tc (see the top of the file). */
static double tc_term(int64_t k, int fast_accum) {
  int64_t steps = (k + TC_K - 1) / TC_K;
  if (!fast_accum && steps > PROMOTE_K / TC_K) steps = PROMOTE_K / TC_K;
  return (double)steps * TC_STEP_ERR;
}

static double alpha_eff(const fcase *c) {
  return (double)c->alpha * (c->block || c->scale_a == 0 ? 1.0 : (double)c->scale_a) *
         (c->block || c->scale_b == 0 ? 1.0 : (double)c->scale_b);
}

/* Host images, device buffers, the reference of every element and the uploads for case c.
 * Returns 1, or 0 with msg. */
static int prepare(frun *r, const fcase *c, char *msg, size_t size) {
  memset(r, 0, sizeof *r);
  r->c = *c;
  r->nb = c->batch > 1 ? c->batch : 1;
  int ta = c->op_a == TCJ_OP_T, tb = c->op_b == TCJ_OP_T;
  r->rows_a = ta ? c->k : c->m;
  r->cols_a = ta ? c->m : c->k;
  r->rows_b = tb ? c->n : c->k;
  r->cols_b = tb ? c->k : c->n;
  r->lda = r->cols_a + c->pad_a;
  r->ldb = r->cols_b + c->pad_b;
  r->ldc = c->n + 1;
  r->ldd = c->n + c->pad_d;
  r->sa = r->rows_a * r->lda;
  r->sb = c->share_b ? 0 : r->rows_b * r->ldb;
  r->sc = c->m * r->ldc;
  r->sd = c->m * r->ldd;
  r->kbn = (c->k + BLOCK_K - 1) / BLOCK_K;
  r->nbn = (c->n + BLOCK_K - 1) / BLOCK_K;
  size_t elems = (size_t)(r->nb * c->m * c->n);
  int64_t eb = r->sb ? r->nb : 1;
  int ok = gpu_region_alloc(&r->a, (size_t)(r->nb * r->sa), POISON_FP8) &&
           gpu_region_alloc(&r->b, (size_t)((eb - 1) * r->sb + r->rows_b * r->ldb), POISON_FP8) &&
           gpu_region_alloc(&r->d, (size_t)(r->nb * r->sd) * gpu_esize(c->td) + GUARD_BYTES, POISON_OUT);
  if (ok && c->beta != 0) ok = gpu_region_alloc(&r->cm, (size_t)(r->nb * r->sc) * gpu_esize(c->tc), POISON_OUT);
  if (ok && c->bias != TCJ_BIAS_NONE)
    ok = gpu_region_alloc(&r->bias, (size_t)(c->bias == TCJ_BIAS_ROW ? c->m : c->n) * gpu_esize(c->bias_type), POISON_OUT);
  if (ok && c->block)
    ok = gpu_region_alloc(&r->bsa, 4 * (size_t)(c->m * r->kbn), 0) && gpu_region_alloc(&r->bsb, 4 * (size_t)(r->nbn * r->kbn), 0);
  if (ok) ok = cudaMalloc((void **)&r->scal, SC_COUNT * sizeof(float)) == cudaSuccess;
  double *s = malloc(sizeof *s * (elems + 1)), *t = malloc(sizeof *t * (elems + 1));
  r->ref = malloc(sizeof *r->ref * (elems + 1));
  r->err = malloc(sizeof *r->err * (elems + 1));
  r->err32 = malloc(sizeof *r->err32 * (elems + 1));
  r->tabs = malloc(sizeof *r->tabs * (elems + 1));
  if (!ok || !s || !t || !r->ref || !r->err || !r->err32 || !r->tabs) {
    free(s);
    free(t);
    return failf(msg, size, c, "host or device out of memory");
  }

  rng g = {c->seed};
  /* In a batch all entries but the last take small A: the largest |v| lies in the last entry, so
   * an amax over fewer entries fails. */
  code_set ca, ca_small, cb;
  code_set_init(&ca, c->ta, c->range_a, c->positive);
  code_set_init(&ca_small, c->ta, RANGE_SMALL, c->positive);
  code_set_init(&cb, c->tb, c->range_b, c->positive);
  for (int64_t z = 0; z < r->nb; z++)
    for (int64_t i = 0; i < r->rows_a; i++)
      for (int64_t j = 0; j < r->cols_a; j++)
        r->a.before[z * r->sa + i * r->lda + j] = code_draw(z + 1 < r->nb ? &ca_small : &ca, &g);
  for (int64_t z = 0; z < eb; z++)
    for (int64_t i = 0; i < r->rows_b; i++)
      for (int64_t j = 0; j < r->cols_b; j++) r->b.before[z * r->sb + i * r->ldb + j] = code_draw(&cb, &g);
  if (c->block) { /* (1 + 0.75 u) 2^e, e in [-4, 3]: [2^-4, 2^4), most not powers of two */
    gpu_region *bs[2] = {&r->bsa, &r->bsb};
    for (int w = 0; w < 2; w++)
      for (size_t i = 0; i < bs[w]->bytes / 4; i++)
        gpu_put(TCJ_F32, bs[w]->before, i, ldexp(1 + 0.375 * (rng_sym(&g) + 1), (int)(rng_next(&g) % 8) - 4));
  }
  if (!reference_sums(r, s, t)) {
    free(s);
    free(t);
    return failf(msg, size, c, "host out of memory");
  }

  /* C and the bias on the scale of the products, so that neither drowns the other. */
  double ae = alpha_eff(c), rms = 0;
  for (size_t e = 0; e < elems; e++) rms += ae * s[e] * ae * s[e];
  rms = elems ? sqrt(rms / (double)elems) : 1;
  if (!(rms > 0)) rms = 1;
  if (r->cm.dev)
    for (int64_t z = 0; z < r->nb; z++)
      for (int64_t i = 0; i < c->m; i++)
        for (int64_t j = 0; j < c->n; j++)
          gpu_put(c->tc, r->cm.before, (size_t)(z * r->sc + i * r->ldc + j), rms * rng_sym(&g));
  if (r->bias.dev)
    for (size_t i = 0; i < r->bias.bytes / gpu_esize(c->bias_type); i++)
      gpu_put(c->bias_type, r->bias.before, i, rms * rng_sym(&g));

  double acc = oracle_ck(c->k) + tc_term(c->k, c->fast_accum) + (c->block ? 0x1p-23 : 0);
  double acc32 = oracle_ck(c->k) + (c->block ? 0x1p-23 : 0); /* block: the two scales' products */
  double lip = oracle_act_lipschitz(c->act);
  r->amax_ref = r->amax_lo = r->amax_hi = 0;
  for (int64_t z = 0; z < r->nb; z++)
    for (int64_t i = 0; i < c->m; i++)
      for (int64_t j = 0; j < c->n; j++) {
        size_t e = (size_t)((z * c->m + i) * c->n + j);
        double as = ae * s[e], tabs = fabs(ae) * t[e];
        double bc = r->cm.dev ? c->beta * get(c->tc, r->cm.before, (size_t)(z * r->sc + i * r->ldc + j)) : 0;
        double bv = r->bias.dev ? get(c->bias_type, r->bias.before, (size_t)(c->bias == TCJ_BIAS_ROW ? i : j)) : 0;
        double v = as + bc + bv;
        /* fp32 epilogue: alpha sa sb (2 products), times the sum, beta c, the bias: 5 roundings. */
        double rnd = 5 * U32 * (fabs(as) + fabs(bc) + fabs(bv));
        double pre = acc * tabs + rnd, pre32 = acc32 * tabs + rnd;
        r->ref[e] = oracle_act(c->act, v);
        r->err[e] = lip * pre + oracle_act_abs_error(c->act, fabs(v) + pre);
        r->err32[e] = lip * pre32 + oracle_act_abs_error(c->act, fabs(v) + pre32);
        r->tabs[e] = tabs;
        double ar = fabs(r->ref[e]);
        if (ar > r->amax_ref) r->amax_ref = ar;
        if (ar - r->err[e] > r->amax_lo) r->amax_lo = ar - r->err[e];
        if (ar + r->err[e] > r->amax_hi) r->amax_hi = ar + r->err[e];
      }
  free(s);
  free(t);
  r->scale_d = 1;
  if (is_fp8(c->td) && c->scale_d > 0) r->scale_d = (float)c->scale_d;
  if (is_fp8(c->td) && c->scale_d < 0 && r->amax_ref > 0)
    r->scale_d = (float)(-c->scale_d * fmt_of(c->td)->max / r->amax_ref);
  /* A stale amax the call must replace: larger than any result, or not even a number. */
  static const float STALE[3] = {1e30f, INFINITY, NAN};
  r->amax_stale = STALE[c->seed % 3];

  float sc[SC_COUNT];
  for (int i = 0; i < SC_COUNT; i++) sc[i] = -12345.0f; /* nothing reads these */
  sc[SC_A] = c->scale_a;
  sc[SC_B] = c->scale_b;
  sc[SC_D] = r->scale_d;
  sc[SC_AMAX] = r->amax_stale;
  gpu_region *all[] = {&r->a, &r->b, &r->cm, &r->d, &r->bias, &r->bsa, &r->bsb};
  cudaError_t ce = cudaSuccess;
  for (int i = 0; i < NCASES(all) && !ce; i++)
    if (all[i]->dev) ce = cudaMemcpyAsync(all[i]->dev, all[i]->before, all[i]->bytes, cudaMemcpyHostToDevice, g_stream);
  if (!ce) ce = cudaMemcpyAsync(r->scal, sc, sizeof sc, cudaMemcpyHostToDevice, g_stream);
  if (!ce) ce = cudaStreamSynchronize(g_stream); /* sc lives on this stack frame */
  if (ce) return failf(msg, size, c, "CUDA setup failed: %s", cudaGetErrorName(ce));
  return 1;
}

static void make_desc(const frun *r, tcj_gemm_desc *d) {
  const fcase *c = &r->c;
  tcj_gemm_desc init = TCJ_GEMM_DESC_INIT;
  *d = init;
  d->op_a = c->op_a;
  d->op_b = c->op_b;
  d->m = c->m;
  d->n = c->n;
  d->k = c->k;
  d->a = r->a.dev;
  d->a_type = c->ta;
  d->lda = r->lda;
  d->b = r->b.dev;
  d->b_type = c->tb;
  d->ldb = r->ldb;
  d->c = r->cm.dev;
  d->c_type = c->tc;
  d->ldc = r->ldc;
  d->d = r->d.dev;
  d->d_type = c->td;
  d->ldd = r->ldd;
  d->alpha = c->alpha;
  d->beta = c->beta;
  d->bias = r->bias.dev;
  d->bias_type = c->bias_type;
  d->bias_kind = c->bias;
  d->activation = c->act;
  d->batch_count = c->batch;
  d->stride_a = r->sa;
  d->stride_b = r->sb;
  d->stride_c = r->cm.dev ? r->sc : 0;
  d->stride_d = r->sd;
  d->scale_mode = c->block ? TCJ_SCALE_BLOCK : TCJ_SCALE_TENSOR;
  d->scale_a = c->block ? (const float *)r->bsa.dev : c->scale_a != 0 ? r->scal + SC_A : NULL;
  d->scale_b = c->block ? (const float *)r->bsb.dev : c->scale_b != 0 ? r->scal + SC_B : NULL;
  d->scale_d = is_fp8(c->td) && c->scale_d != 0 ? r->scal + SC_D : NULL;
  d->amax_d = c->amax ? r->scal + SC_AMAX : NULL;
  d->fast_accum = c->fast_accum;
}

static tcj_status launch(tcj_engine *eng, const frun *r) {
  const fcase *c = &r->c;
  if (c->via_gemm)
    return tcj_gemm(eng, c->op_a, c->op_b, c->m, c->n, c->k, c->alpha, r->a.dev, c->ta, r->lda, r->b.dev, c->tb,
                    r->ldb, 0.0f, r->d.dev, c->td, r->ldd, (CUstream)g_stream);
  tcj_gemm_desc d;
  make_desc(r, &d);
  return tcj_gemm_ex(eng, &d, (CUstream)g_stream);
}

/* An fp8 element: got must be the rounded, saturated scale_d v of some v within err of ref
 * (rounding is monotone: the fp8 values between round(lo) and round(hi)). Returns |got - x| over
 * half an fp8 spacing plus the allowance, x = scale_d ref saturated (<= 1 within the interval,
 * forced above 1 outside it); *sat: ref saturates whatever the error; *neighbour: got is not
 * round(scale_d ref). */
static double fp8_ratio(tcj_dtype t, double sd, double ref, double err, double got, int *sat, int *neighbour) {
  double max = fmt_of(t)->max, x = sd * ref;
  double allow = fabs(sd) * err + 2 * U32 * fabs(sd) * (fabs(ref) + err); /* + scale_d's fp32 product */
  double lo = fp8_round(t, x - allow), hi = fp8_round(t, x + allow);
  double xs = x > max ? max : x < -max ? -max : x;
  *sat = fabs(x) - allow > max;
  *neighbour = got != fp8_round(t, x);
  if (got != got) return INFINITY;
  double ratio = fabs(got - xs) / (0.5 * fp8_quantum(t, fabs(xs) + allow) + allow);
  if (got < lo || got > hi) ratio = ratio > 1 ? ratio : nextafter(1, 2);
  return ratio;
}

/* |error| / bound: inf for NaN, or for any error on a zero bound. */
static double ratio_of(double diff, double bound) {
  return diff != diff ? INFINITY : diff == 0 ? 0 : bound > 0 ? diff / bound : INFINITY;
}

/* Waits for the call, reads D, C and amax back and checks, in order: no byte of D's allocation
 * outside its windows changed; C unchanged; every element written; every element within its
 * bound (the fp32-only one too for strict cases); amax. Returns 1, or 0 with msg. */
static int verify(frun *r, fstats *st, char *msg, size_t size) {
  const fcase *c = &r->c;
  float amax_got = 0;
  cudaError_t e;
  if ((e = cudaMemcpyAsync(r->d.after, r->d.dev, r->d.bytes, cudaMemcpyDeviceToHost, g_stream)) ||
      (r->cm.dev && (e = cudaMemcpyAsync(r->cm.after, r->cm.dev, r->cm.bytes, cudaMemcpyDeviceToHost, g_stream))) ||
      (e = cudaMemcpyAsync(&amax_got, r->scal + SC_AMAX, sizeof amax_got, cudaMemcpyDeviceToHost, g_stream)) ||
      (e = cudaStreamSynchronize(g_stream)))
    return failf(msg, size, c, "GEMM or read-back failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
  size_t es = gpu_esize(c->td);
  unsigned char *inside = calloc(r->d.bytes, 1);
  if (!inside) return failf(msg, size, c, "host out of memory");
  for (int64_t z = 0; z < r->nb; z++)
    for (int64_t i = 0; i < c->m; i++) memset(inside + (size_t)(z * r->sd + i * r->ldd) * es, 1, (size_t)c->n * es);
  for (size_t b = 0; b < r->d.bytes; b++)
    if (!inside[b] && r->d.after[b] != r->d.before[b]) {
      free(inside);
      return failf(msg, size, c, "wrote outside D: byte %zu of %zu (ldd %lld, %zu-byte elements) changed to 0x%02x", b,
                   r->d.bytes, (long long)r->ldd, es, r->d.after[b]);
    }
  free(inside);
  if (r->cm.dev && memcmp(r->cm.before, r->cm.after, r->cm.bytes) != 0) {
    size_t b = 0;
    while (r->cm.before[b] == r->cm.after[b]) b++;
    return failf(msg, size, c, "C (apart from D) changed: byte %zu of %zu", b, r->cm.bytes);
  }
  int64_t left = 0, fz = -1, fi = -1, fj = -1;
  for (int64_t z = 0; z < r->nb; z++)
    for (int64_t i = 0; i < c->m; i++)
      for (int64_t j = 0; j < c->n; j++)
        if (is_poison(c->td, r->d.after, (size_t)(z * r->sd + i * r->ldd + j)) && left++ == 0) fz = z, fi = i, fj = j;
  if (left)
    return failf(msg, size, c, "%lld elements of D never written (poison left), first D[%lld][%lld][%lld]",
                 (long long)left, (long long)fz, (long long)fi, (long long)fj);

  int fp8 = is_fp8(c->td);
  double ud = fp8 ? 0 : oracle_unit_roundoff(c->td), floor_d = fp8 ? 0 : oracle_abs_floor(c->td);
  int64_t bad = 0, bad32 = 0, wz = -1, wi = -1, wj = -1;
  double wgot = 0, wref = 0, wbound = 0;
  memset(st, 0, sizeof *st);
  for (int64_t z = 0; z < r->nb; z++)
    for (int64_t i = 0; i < c->m; i++)
      for (int64_t j = 0; j < c->n; j++) {
        size_t e = (size_t)((z * c->m + i) * c->n + j);
        double got = get(c->td, r->d.after, (size_t)(z * r->sd + i * r->ldd + j)), ref = r->ref[e];
        double ratio, ratio32 = 0, bound;
        if (fp8) {
          int sat, nbr, sat32, nbr32;
          ratio = fp8_ratio(c->td, r->scale_d, ref, r->err[e], got, &sat, &nbr);
          if (c->strict_fp32) ratio32 = fp8_ratio(c->td, r->scale_d, ref, r->err32[e], got, &sat32, &nbr32);
          st->saturated += sat;
          st->neighbours += nbr;
          bound = r->err[e];
          ref *= r->scale_d;
        } else {
          double diff = fabs(got - ref);
          bound = r->err[e] * (1 + ud) + 2 * ud * fabs(ref) + floor_d;
          double bound32 = r->err32[e] * (1 + ud) + 2 * ud * fabs(ref) + floor_d;
          ratio = ratio_of(diff, bound);
          if (c->strict_fp32) ratio32 = ratio_of(diff, bound32);
          if (r->tabs[e] > 0 && diff / r->tabs[e] > st->rel) st->rel = diff / r->tabs[e];
        }
        st->checked++;
        bad += !(ratio <= 1);
        bad32 += !(ratio32 <= 1);
        if (!(ratio32 <= st->worst32)) st->worst32 = ratio32;
        if (wz < 0 || !(ratio <= st->worst)) {
          wz = z, wi = i, wj = j, wgot = got, wref = ref, wbound = bound;
          st->worst = ratio != ratio ? INFINITY : ratio;
        }
      }
  if (bad)
    return failf(msg, size, c,
                 "%lld of %lld elements outside their bound; worst D[%lld][%lld][%lld] = %.9g, want %.9g%s, "
                 "|error| / bound = %.3g (bound of v %.3g%s)",
                 (long long)bad, (long long)st->checked, (long long)wz, (long long)wi, (long long)wj, wgot, wref,
                 fp8 ? " (scale_d v, before rounding)" : "", st->worst, wbound,
                 fp8 ? "; fp8: ratio > 1 means not a correctly rounded, saturated scale_d v" : "");
  if (bad32)
    return failf(msg, size, c,
                 "within the bound with the tensor-core term, but %lld of %lld elements outside the plain fp32 bound "
                 "(k + 2) 2^-23 |A||B| (worst ratio %.3g): partial sums not promoted to fp32?",
                 (long long)bad32, (long long)st->checked, st->worst32);
  if (c->want_saturation && st->saturated == 0)
    return failf(msg, size, c, "no element saturates: the case does not test saturation (test data)");
  if (c->amax) {
    st->amax_got = amax_got;
    double got = amax_got, w = fmax(r->amax_hi - r->amax_ref, r->amax_ref - r->amax_lo);
    st->amax_ratio = ratio_of(fabs(got - r->amax_ref), w);
    if (!(got >= r->amax_lo && got <= r->amax_hi))
      return failf(msg, size, c,
                   "amax_d = %.9g (it held %g before the call), want max |v| = %.9g within [%.9g, %.9g] (before "
                   "scale_d %g)",
                   got, r->amax_stale, r->amax_ref, r->amax_lo, r->amax_hi, r->scale_d);
  }
  return 1;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* 1: passed; 0: failed (msg); -1: TCJ_ERROR_NOT_SUPPORTED and the caller allows that for
 * block scales (the forced sm80 recipe). */
static int run_case(tcj_engine *eng, const fcase *c, int block_optional, fstats *st, char *msg, size_t size) {
  frun r;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  msg[0] = '\0';
  memset(st, 0, sizeof *st);
  int ok = prepare(&r, c, msg, size);
  if (ok) {
    tcj_status s = launch(eng, &r);
    if (s == TCJ_ERROR_NOT_SUPPORTED && block_optional && c->block) {
      failf(msg, size, c, "not supported: %s", tcj_last_error(eng));
      ok = -1;
    } else if (s != TCJ_SUCCESS) {
      ok = failf(msg, size, c, "%s returned %s: %s", c->via_gemm ? "tcj_gemm" : "tcj_gemm_ex", tcj_status_string(s),
                 tcj_last_error(eng));
    }
  }
  if (ok == 1) ok = verify(&r, st, msg, size);
  run_free(&r);
  st->secs = seconds_since(&t0);
  return ok;
}

/* One line per passing case: shape, worst ratio, and what else it measured. */
static void print_ok(const fcase *c, const fstats *st) {
  char extra[256] = "";
  int n = 0;
  if (c->amax)
    n += snprintf(extra + n, sizeof extra - (size_t)n, ", amax %.4g (ratio %.3f)", st->amax_got, st->amax_ratio);
  if (is_fp8(c->td))
    n += snprintf(extra + n, sizeof extra - (size_t)n, ", %lld saturated, %lld next to round(ref)",
                  (long long)st->saturated, (long long)st->neighbours);
  else if (c->td == TCJ_F32) /* the accumulation's own error (a 16-bit D's rounding hides it) */
    n += snprintf(extra + n, sizeof extra - (size_t)n, ", max |err|/t %.2g", st->rel);
  if (c->strict_fp32) snprintf(extra + n, sizeof extra - (size_t)n, ", fp32-only bound %.3f", st->worst32);
  printf("  ok   [%s] %s x %s -> %s %c%c %lldx%lldx%lld%s: worst %.3f%s, %.2f s\n", c->what, tcj_dtype_name(c->ta),
         tcj_dtype_name(c->tb), tcj_dtype_name(c->td), c->op_a ? 'T' : 'N', c->op_b ? 'T' : 'N', (long long)c->m,
         (long long)c->n, (long long)c->k, c->batch > 1 ? " batch" : "", st->worst, extra, st->secs);
}

/* Runs a list, one line per case and a summary; returns the failures. *unsupported counts block
 * cases refused as not supported (allowed only where block_optional). */
static int run_list(tcj_engine *eng, const char *what, const fcase *cases, int n, int block_optional,
                    int *unsupported) {
  char msg[MSG_SIZE];
  int failed = 0, refused = 0;
  double worst = 0;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < n; i++) {
    fstats st;
    int ok = run_case(eng, &cases[i], block_optional, &st, msg, sizeof msg);
    if (ok == 1) {
      print_ok(&cases[i], &st);
      if (st.worst > worst) worst = st.worst;
    } else if (ok == -1) {
      refused++;
      printf("  note: %s\n", msg);
    } else {
      failed++;
      printf("  FAIL %s\n", msg);
    }
    fflush(stdout);
  }
  printf("  %s: %d cases, %d failed%s, worst |err|/bound %.3f, %.1f s\n", what, n, failed,
         refused ? ", block scales not supported here (see notes)" : "", worst, seconds_since(&t0));
  if (unsupported) *unsupported = refused;
  return failed;
}

#define RUN_CASES(what, cases)                                                                              \
  do {                                                                                                       \
    int failed_ = run_list(g_eng, what, cases, NCASES(cases), 0, NULL);                                      \
    if (failed_) fail_msg("%s: %d of %d cases failed (see FAIL lines above)", what, failed_, NCASES(cases)); \
  } while (0)

static void need_fp8(void) {
  if (!g_fp8) {
    print_message("fp8 tensor cores need sm_89 or newer; this GPU is sm_%d%d\n", g_cc_major, g_cc_minor);
    skip();
  }
}

/* ---- tests ---------------------------------------------------------------------------- */

static const tcj_dtype PAIRS[4][2] = {
    {TCJ_E4M3, TCJ_E4M3}, {TCJ_E4M3, TCJ_E5M2}, {TCJ_E5M2, TCJ_E4M3}, {TCJ_E5M2, TCJ_E5M2}};
/* op pairs: NT first (both K-major: the fast path), then those that may be packed. */
static const tcj_op OPS[4][2] = {
    {TCJ_OP_N, TCJ_OP_T}, {TCJ_OP_N, TCJ_OP_N}, {TCJ_OP_T, TCJ_OP_T}, {TCJ_OP_T, TCJ_OP_N}};
static const int64_t SHAPES[8][3] = {{1, 17, 100}, {16, 257, 100}, {300, 129, 257}, {17, 1, 33},
                                     {257, 300, 64}, {100, 16, 1}, {33, 64, 520},  {300, 300, 1000}};
static const tcj_dtype OUT16[3] = {TCJ_BF16, TCJ_F16, TCJ_F32};

/* Every (A, B) type pair with every op pair: shapes, D types, scalars, per-tensor scales,
 * leading dimensions (minimum; padded by 16-byte multiples; odd) and data ranges rotate. */
static void every_operand_pair_and_op_pair_matches_reference(void **state) {
  (void)state;
  need_fp8();
  static const float ALPHAS[4] = {1, 0.5f, -2, 0.375f};
  fcase cases[16];
  for (int i = 0; i < 16; i++) {
    const int64_t *sh = SHAPES[(i + i / 4) % 8];
    fcase c = mk("pairs x ops", PAIRS[i % 4][0], PAIRS[i % 4][1], OUT16[(i + i / 4) % 3], OPS[i / 4][0], OPS[i / 4][1],
                 sh[0], sh[1], sh[2], 100 + (uint64_t)i);
    c.alpha = ALPHAS[(i / 2) % 4];
    if (i & 1) {
      c.scale_a = 0.25f;
      c.scale_b = 3.0f;
    }
    switch ((i / 2) % 3) {
    case 1: c.pad_a = 16; c.pad_b = 32; c.pad_d = 8; break;
    case 2: c.pad_a = 1; c.pad_b = 3; c.pad_d = 1; break;
    default: break;
    }
    c.range_a = (i >> 1) & 1 ? RANGE_NARROW : RANGE_WIDE;
    c.range_b = (i >> 2) & 1 ? RANGE_WIDE : RANGE_NARROW;
    cases[i] = c;
  }
  RUN_CASES("operand pairs x op pairs", cases);
}

/* Problems large enough for the sm90 recipe on Hopper (past the small-problem rule) in the
 * layouts wgmma cannot read: the operands are transposed into K-major scratch first. */
static void mn_major_operands_take_the_transposing_pack(void **state) {
  (void)state;
  need_fp8();
  fcase cases[3];
  cases[0] = mk("transposed B", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 700, 1100, 1000, 700);
  cases[1] = mk("transposed A", TCJ_E5M2, TCJ_E4M3, TCJ_F32, TCJ_OP_T, TCJ_OP_T, 1025, 640, 520, 701);
  cases[1].pad_a = 3;
  cases[2] = mk("transposed A and B", TCJ_E4M3, TCJ_E5M2, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 600, 900, 1500, 702);
  cases[2].scale_a = 0.25f;
  cases[2].scale_b = 3.0f;
  RUN_CASES("transposing pack", cases);
}

/* tcj_gemm itself takes fp8 operands into f16, bf16 and f32 (D = C, beta 0: C poisoned). */
static void tcj_gemm_takes_fp8_operands(void **state) {
  (void)state;
  need_fp8();
  static const int64_t SH[4][3] = {{64, 128, 256}, {1, 300, 128}, {129, 17, 64}, {300, 64, 100}};
  static const tcj_dtype OUT[4] = {TCJ_F32, TCJ_BF16, TCJ_F16, TCJ_BF16};
  fcase cases[4];
  for (int i = 0; i < 4; i++) {
    cases[i] = mk("tcj_gemm", PAIRS[i][0], PAIRS[i][1], OUT[i], OPS[i][0], OPS[i][1], SH[i][0], SH[i][1], SH[i][2],
                  200 + (uint64_t)i);
    cases[i].via_gemm = 1;
    cases[i].alpha = i == 2 ? -0.5f : 1;
  }
  RUN_CASES("tcj_gemm", cases);
}

/* scale_a 0.25 and scale_b 3 through device pointers, beta != 0 with a bf16 C apart from D;
 * once with a column bias and ReLU (and amax, which sees v after the activation). */
static void per_tensor_scales_with_beta_bf16_c_and_bias_relu(void **state) {
  (void)state;
  need_fp8();
  fcase cases[4];
  cases[0] = mk("scales, beta", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 300, 129, 257, 300);
  cases[0].alpha = 0.5f;
  cases[0].beta = -0.75f;
  cases[1] = mk("scales, beta", TCJ_E5M2, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 16, 257, 100, 301);
  cases[1].beta = 1;
  cases[2] = mk("scales, beta", TCJ_E4M3, TCJ_E5M2, TCJ_F16, TCJ_OP_T, TCJ_OP_T, 33, 64, 520, 302);
  cases[2].alpha = -1;
  cases[2].beta = 0.5f;
  cases[2].pad_d = 3;
  cases[3] = mk("scales, beta, bias + relu", TCJ_E5M2, TCJ_E5M2, TCJ_BF16, TCJ_OP_T, TCJ_OP_N, 257, 300, 64, 303);
  cases[3].beta = 0.25f;
  cases[3].bias = TCJ_BIAS_COL;
  cases[3].act = TCJ_ACT_RELU;
  cases[3].amax = 1;
  for (int i = 0; i < 4; i++) {
    cases[i].scale_a = 0.25f;
    cases[i].scale_b = 3.0f;
    cases[i].tc = TCJ_BF16;
  }
  RUN_CASES("per-tensor scales, beta, bf16 C", cases);
}

/* fp8 D: saturate(scale_d v), rounded to nearest even; scale_d chosen so that the largest
 * results pass +-448 (e4m3) or +-57344 (e5m2), a fixed scale_d, and none (1). */
static void fp8_d_is_scaled_rounded_and_saturated(void **state) {
  (void)state;
  need_fp8();
  fcase cases[5];
  cases[0] = mk("e4m3 D, saturating", TCJ_E4M3, TCJ_E4M3, TCJ_E4M3, TCJ_OP_N, TCJ_OP_T, 300, 129, 257, 400);
  cases[0].scale_d = -4; /* scale_d = 4 * 448 / amax: everything above amax / 4 saturates */
  cases[0].want_saturation = 1;
  cases[1] = mk("e4m3 D, scale_d 0.375", TCJ_E4M3, TCJ_E5M2, TCJ_E4M3, TCJ_OP_T, TCJ_OP_N, 17, 257, 100, 401);
  cases[1].scale_d = 0.375;
  cases[1].scale_a = 0.25f;
  cases[1].scale_b = 3.0f;
  cases[1].pad_d = 5;
  cases[2] = mk("e5m2 D, saturating", TCJ_E5M2, TCJ_E4M3, TCJ_E5M2, TCJ_OP_N, TCJ_OP_N, 129, 64, 200, 402);
  cases[2].scale_d = -4;
  cases[2].want_saturation = 1;
  cases[3] = mk("e5m2 D, no scale_d, beta, f32 C", TCJ_E5M2, TCJ_E5M2, TCJ_E5M2, TCJ_OP_T, TCJ_OP_T, 64, 300, 64, 403);
  cases[3].beta = 0.5f;
  cases[3].tc = TCJ_F32;
  cases[4] = mk("e4m3 D, row bias + relu, saturating", TCJ_E4M3, TCJ_E4M3, TCJ_E4M3, TCJ_OP_N, TCJ_OP_T, 16, 136, 96,
                404);
  cases[4].alpha = 0.5f;
  cases[4].scale_a = 0.25f;
  cases[4].scale_b = 3.0f;
  cases[4].bias = TCJ_BIAS_ROW;
  cases[4].bias_type = TCJ_BF16;
  cases[4].act = TCJ_ACT_RELU;
  cases[4].scale_d = -2;
  cases[4].want_saturation = 1;
  for (int i = 0; i < 5; i++) cases[i].amax = 1;
  RUN_CASES("fp8 D", cases);
}

/* amax_d = max |v| before scale_d with a 16-bit and an f32 D, and over every entry of a batch;
 * the buffer holds 1e30, inf or NaN before each call (all tests: prepare()). */
static void amax_is_max_abs_before_scale_d_and_replaces_stale_values(void **state) {
  (void)state;
  need_fp8();
  fcase cases[3];
  cases[0] = mk("amax, bf16 D", TCJ_E4M3, TCJ_E5M2, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 200, 72, 136, 500);
  cases[1] = mk("amax, f32 D, m 1", TCJ_E5M2, TCJ_E4M3, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 1, 17, 100, 501);
  cases[1].scale_a = 0.25f;
  cases[1].scale_b = 3.0f;
  cases[2] = mk("amax over a batch of 3", TCJ_E4M3, TCJ_E4M3, TCJ_E4M3, TCJ_OP_N, TCJ_OP_T, 50, 72, 88, 502);
  cases[2].batch = 3;
  cases[2].share_b = 1;
  cases[2].scale_d = -2;
  for (int i = 0; i < 3; i++) cases[i].amax = 1;
  /* One stale value each: 1e30, inf, NaN (the seed picks; these seeds cover all three). */
  for (int i = 0; i < 3; i++)
    while (cases[i].seed % 3 != (uint64_t)i) cases[i].seed++;
  RUN_CASES("amax_d", cases);
}

/* Decode shapes (m <= 16) against nn.Linear-style weights: a 16-row tile with K split, whose
 * slices reduce in a cluster on sm_90 and newer and apply the whole fp8 epilogue there (scales,
 * beta, an e4m3 D with scale_d and amax, a bias with GELU); n and k off every tile edge. */
static void decode_splits_apply_the_fp8_epilogue(void **state) {
  (void)state;
  need_fp8();
  fcase cases[4];
  cases[0] = mk("decode, m 16", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 16, 6144, 4096, 1100);
  cases[1] = mk("decode, m 1, beta", TCJ_E5M2, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_N, 1, 1000, 8191, 1101);
  cases[1].beta = -0.5f;
  cases[2] = mk("decode, e4m3 D, amax", TCJ_E4M3, TCJ_E4M3, TCJ_E4M3, TCJ_OP_N, TCJ_OP_T, 5, 4100, 14336, 1102);
  cases[2].scale_d = 0.375f;
  cases[2].amax = 1;
  cases[3] = mk("decode, bias + gelu", TCJ_E4M3, TCJ_E5M2, TCJ_F16, TCJ_OP_T, TCJ_OP_T, 12, 2056, 3000, 1103);
  cases[3].scale_a = 0.5f;
  cases[3].scale_b = 2.0f;
  cases[3].bias = TCJ_BIAS_COL;
  cases[3].act = TCJ_ACT_GELU;
  cases[3].pad_a = 5;
  RUN_CASES("decode", cases);
}

/* DeepSeek-V3 block scales: A per row and 128 of K, B per 128 x 128 block; k and n not
 * multiples of 128 (the last block is short), one block (k < 128), every op pair. */
static void block_scales_apply_per_128_of_k(void **state) {
  (void)state;
  need_fp8();
  fcase cases[6];
  cases[0] = mk("block", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 257, 300, 520, 600);
  cases[1] = mk("block, m 1", TCJ_E4M3, TCJ_E5M2, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 1, 129, 1000, 601);
  cases[2] = mk("block", TCJ_E5M2, TCJ_E4M3, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 16, 200, 300, 602);
  cases[2].alpha = 1.0f / 64; /* block scales up to 2^8 per product: keep f16 D in range */
  cases[3] = mk("block, e4m3 D", TCJ_E4M3, TCJ_E4M3, TCJ_E4M3, TCJ_OP_T, TCJ_OP_T, 130, 136, 129, 603);
  cases[3].scale_d = -2;
  cases[3].amax = 1;
  cases[4] = mk("block, k < 128, beta", TCJ_E5M2, TCJ_E5M2, TCJ_BF16, TCJ_OP_T, TCJ_OP_N, 64, 257, 100, 604);
  cases[4].beta = 0.5f;
  cases[5] = mk("block, k 2000", TCJ_E4M3, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 64, 257, 2000, 605);
  cases[5].alpha = 0.5f;
  for (int i = 0; i < 6; i++) cases[i].block = 1;
  RUN_CASES("block scales", cases);
}

/* K = 65536 with fast_accum = 0 within the plain fp32 bound. Random signs, and all-positive data:
 * there the sum grows to 2^16 times its addends, and an accumulator of 13 mantissa bits never
 * promoted to fp32 would drop most of each addend (an error of percents, against 2^-7). */
static void deep_k_stays_within_the_fp32_bound(void **state) {
  (void)state;
  need_fp8();
  fcase cases[2];
  cases[0] = mk("K 65536", TCJ_E4M3, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 64, 64, 65536, 700);
  cases[1] = mk("K 65536, positive", TCJ_E4M3, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 64, 64, 65536, 701);
  cases[1].positive = 1;
  cases[1].range_a = RANGE_NARROW;
  for (int i = 0; i < 2; i++) cases[i].strict_fp32 = 1;
  RUN_CASES("K 65536, fast_accum 0", cases);
}

/* fast_accum = 1: the tensor cores accumulate throughout, with an error that grows with K; judged
 * against c_tc = ceil(k / 32) 2^-10 only. The same K = 16384 data through both modes prints the
 * observed max |error| / (|alpha| |A||B|) of each; plus a small packed case with fast_accum. */
static void fast_accum_stays_within_its_looser_bound(void **state) {
  (void)state;
  need_fp8();
  fcase cases[3];
  cases[0] = mk("K 16384, fast_accum 0", TCJ_E5M2, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 64, 64, 16384, 800);
  cases[1] = cases[0];
  cases[1].what = "K 16384, fast_accum 1";
  cases[1].fast_accum = 1;
  cases[2] = mk("fast_accum 1, TN", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_T, TCJ_OP_N, 129, 64, 256, 801);
  cases[2].fast_accum = 1;
  cases[2].scale_a = 0.25f;
  cases[2].scale_b = 3.0f;
  char msg[MSG_SIZE];
  fstats st[3];
  int failed = 0;
  for (int i = 0; i < 3; i++) {
    if (run_case(g_eng, &cases[i], 0, &st[i], msg, sizeof msg) == 1) {
      print_ok(&cases[i], &st[i]);
    } else {
      failed++;
      printf("  FAIL %s\n", msg);
      st[i].rel = NAN;
    }
  }
  printf("  K 16384 max |error| / (|alpha| |A||B|): fast_accum 0 %.3g (bound %.3g), fast_accum 1 %.3g (bound %.3g)\n",
         st[0].rel, oracle_ck(16384) + tc_term(16384, 0), st[1].rel, oracle_ck(16384) + tc_term(16384, 1));
  if (failed) fail_msg("fast_accum: %d of 3 cases failed (see FAIL lines above)", failed);
}

/* ---- descriptors outside the contract --------------------------------------------------- */

static void check_refused(const char *what, tcj_status st, int *failed) {
  const char *why = tcj_last_error(g_eng);
  if (st != TCJ_ERROR_INVALID_VALUE && st != TCJ_ERROR_NOT_SUPPORTED) {
    printf("  FAIL %s: %s, want INVALID_VALUE or NOT_SUPPORTED\n", what, tcj_status_string(st));
    ++*failed;
  } else if (!why || !why[0]) {
    printf("  FAIL %s: %s but tcj_last_error is empty\n", what, tcj_status_string(st));
    ++*failed;
  } else {
    printf("  %s -> %s: %s\n", what, tcj_status_string(st), why);
  }
}

/* Each descriptor is valid but for one thing tcj.h rules out; nothing may be written (D and
 * amax_d keep their poison), and the engine still runs a valid call afterwards. */
static void descriptors_outside_the_fp8_contract_are_refused(void **state) {
  (void)state;
  enum { M = 64, N = 64, K = 256, KB = K / BLOCK_K };
  unsigned char *a8 = NULL, *b8 = NULL, *a16 = NULL, *b16 = NULL, *d16 = NULL, *d8 = NULL;
  float *sc = NULL;
  size_t d16_bytes = 2 * (size_t)M * N * 2, d8_bytes = (size_t)M * N;
  /* Two entries of everything (the batch case); scales: block-sized arrays of 1.0. */
  assert_int_equal(cudaMalloc((void **)&a8, 2 * (size_t)M * K), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&b8, 2 * (size_t)N * K), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&a16, 2 * (size_t)M * K), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&b16, 2 * (size_t)N * K), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&d16, d16_bytes), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&d8, d8_bytes), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&sc, 4 * (size_t)(M * KB + 64)), cudaSuccess);
  assert_int_equal(cudaMemset(a8, 0x38, 2 * (size_t)M * K), cudaSuccess); /* e4m3 1.0 */
  assert_int_equal(cudaMemset(b8, 0x38, 2 * (size_t)N * K), cudaSuccess);
  assert_int_equal(cudaMemset(a16, 0x3c, 2 * (size_t)M * K), cudaSuccess); /* bf16 0x3c3c ~ 0.0115 */
  assert_int_equal(cudaMemset(b16, 0x3c, 2 * (size_t)N * K), cudaSuccess);
  assert_int_equal(cudaMemset(d16, POISON_OUT, d16_bytes), cudaSuccess);
  assert_int_equal(cudaMemset(d8, POISON_OUT, d8_bytes), cudaSuccess);
  float ones[M * KB + 64];
  for (int i = 0; i < NCASES(ones); i++) ones[i] = 1;
  ones[M * KB + 63] = 1e30f; /* the amax_d slot: stale, must stay */
  assert_int_equal(cudaMemcpy(sc, ones, sizeof ones, cudaMemcpyHostToDevice), cudaSuccess);
  float *amax = sc + M * KB + 63;

  tcj_gemm_desc base = TCJ_GEMM_DESC_INIT; /* e4m3 x e4m3 -> bf16, NT: valid as it is */
  base.op_a = TCJ_OP_N;
  base.op_b = TCJ_OP_T;
  base.m = M;
  base.n = N;
  base.k = K;
  base.a = a8;
  base.a_type = TCJ_E4M3;
  base.lda = K;
  base.b = b8;
  base.b_type = TCJ_E4M3;
  base.ldb = K;
  base.d = d16;
  base.d_type = TCJ_BF16;
  base.ldd = N;
  tcj_gemm_desc bf = base; /* the same with bf16 operands */
  bf.a = a16;
  bf.a_type = TCJ_BF16;
  bf.b = b16;
  bf.b_type = TCJ_BF16;
  CUstream s = (CUstream)g_stream;
  int failed = 0;
  tcj_gemm_desc d;
  /* tcj_last_error is read right after each call (check_refused's argument is evaluated first). */
#define REFUSED_EX(what, ...) \
  do {                        \
    d = base;                 \
    __VA_ARGS__;              \
    check_refused(what, tcj_gemm_ex(g_eng, &d, s), &failed); \
  } while (0)
  REFUSED_EX("fast_accum with block scales", d.scale_mode = TCJ_SCALE_BLOCK; d.scale_a = sc; d.scale_b = sc;
             d.fast_accum = 1);
  REFUSED_EX("block scales with a batch of 2", d.scale_mode = TCJ_SCALE_BLOCK; d.scale_a = sc; d.scale_b = sc;
             d.batch_count = 2; d.stride_a = M * K; d.stride_b = 0; d.stride_d = M * N);
  REFUSED_EX("block scales without scale_b", d.scale_mode = TCJ_SCALE_BLOCK; d.scale_a = sc);
  REFUSED_EX("scale_mode 7", d.scale_mode = (tcj_scale_mode)7);
  REFUSED_EX("scale_d with a bf16 D", d.scale_d = sc);
  REFUSED_EX("e4m3 C read (beta 1)", d.c = d8; d.c_type = TCJ_E4M3; d.ldc = N; d.beta = 1; d.d = d16);
  REFUSED_EX("A e4m3, B bf16", d.b = b16; d.b_type = TCJ_BF16);
  REFUSED_EX("scale_a for bf16 operands", d = bf; d.scale_a = sc);
  REFUSED_EX("scale_b for bf16 operands", d = bf; d.scale_b = sc);
  REFUSED_EX("block scale mode for bf16 operands", d = bf; d.scale_mode = TCJ_SCALE_BLOCK; d.scale_a = sc;
             d.scale_b = sc);
  REFUSED_EX("amax_d for bf16 operands", d = bf; d.amax_d = amax);
  REFUSED_EX("e4m3 D from bf16 operands", d = bf; d.d = d8; d.d_type = TCJ_E4M3);
  REFUSED_EX("amax_d and block scales with fast_accum", d.scale_mode = TCJ_SCALE_BLOCK; d.scale_a = sc;
             d.scale_b = sc; d.fast_accum = 1; d.amax_d = amax);
#undef REFUSED_EX
  check_refused("e4m3 C in tcj_gemm",
                tcj_gemm(g_eng, TCJ_OP_N, TCJ_OP_T, M, N, K, 1, a8, TCJ_E4M3, K, b8, TCJ_E4M3, K, 0, d8,
                         TCJ_E4M3, N, s),
                &failed);
  check_refused("e5m2 C in tcj_gemm",
                tcj_gemm(g_eng, TCJ_OP_N, TCJ_OP_T, M, N, K, 1, a8, TCJ_E5M2, K, b8, TCJ_E4M3, K, 0, d8,
                         TCJ_E5M2, N, s),
                &failed);
  assert_int_equal(cudaStreamSynchronize(g_stream), cudaSuccess);
  unsigned char *h16 = malloc(d16_bytes), *h8 = malloc(d8_bytes);
  float amax_after = 0;
  assert_non_null(h16);
  assert_non_null(h8);
  assert_int_equal(cudaMemcpy(h16, d16, d16_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  assert_int_equal(cudaMemcpy(h8, d8, d8_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  assert_int_equal(cudaMemcpy(&amax_after, amax, 4, cudaMemcpyDeviceToHost), cudaSuccess);
  for (size_t i = 0; i < d16_bytes; i++)
    if (h16[i] != POISON_OUT) {
      printf("  FAIL a refused call wrote to the bf16 D (byte %zu)\n", i);
      failed++;
      break;
    }
  for (size_t i = 0; i < d8_bytes; i++)
    if (h8[i] != POISON_OUT) {
      printf("  FAIL a refused call wrote to the fp8 C/D (byte %zu)\n", i);
      failed++;
      break;
    }
  if (amax_after != 1e30f) {
    printf("  FAIL a refused call wrote amax_d: %g\n", amax_after);
    failed++;
  }
  free(h16);
  free(h8);
  cudaFree(a8);
  cudaFree(b8);
  cudaFree(a16);
  cudaFree(b16);
  cudaFree(d16);
  cudaFree(d8);
  cudaFree(sc);
  if (failed) fail_msg("%d refusal checks failed", failed);
  if (g_fp8) { /* the engine still runs fp8 after refusing */
    fcase ok = mk("after refusals", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 64, 64, 256, 900);
    fcase cases[1] = {ok};
    RUN_CASES("valid call after refused ones", cases);
  }
}

/* Before sm_89 there are no fp8 tensor cores: a plain fp8 call is NOT_SUPPORTED, with a message. */
static void fp8_before_sm89_is_not_supported(void **state) {
  (void)state;
  if (g_fp8) {
    print_message("this GPU (sm_%d%d) has fp8 tensor cores\n", g_cc_major, g_cc_minor);
    skip();
  }
  char msg[MSG_SIZE];
  fcase c = mk("before sm_89", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 64, 64, 64, 950);
  frun r;
  if (!prepare(&r, &c, msg, sizeof msg)) fail_msg("%s", msg);
  tcj_status st = launch(g_eng, &r);
  const char *why = tcj_last_error(g_eng);
  run_free(&r);
  if (st != TCJ_ERROR_NOT_SUPPORTED || !why || !why[0])
    fail_msg("fp8 on sm_%d%d: %s (%s), want NOT_SUPPORTED with a message", g_cc_major, g_cc_minor,
             tcj_status_string(st), why ? why : "");
  printf("  fp8 on sm_%d%d -> %s: %s\n", g_cc_major, g_cc_minor, tcj_status_string(st), why);
}

/* ---- the forced sm80 recipe ------------------------------------------------------------- */

/* An engine under TCJ_RECIPE=recipe and TCJ_TILE=tile (NULL: unset), or a failed test. */
static tcj_engine *forced_engine(const char *recipe, const char *tile) {
  tcj_engine *e = gpu_engine_with(recipe, tile);
  if (!e) fail_msg("tcj_create under TCJ_RECIPE=%s TCJ_TILE=%s failed (above)", recipe, tile ? tile : "(unset)");
  return e;
}

/* fp8 on mma.sync m16n8k32 (sm_89 and newer, Hopper included) through TCJ_RECIPE=sm80: the
 * operand pairs and op pairs, fp8 D with amax, beta with a bias and ReLU, deep K (promotion).
 * That recipe may not take every fp8 feature: block scales refused as NOT_SUPPORTED there are
 * noted, not failed; every per-tensor case must run. */
static void forced_sm80_recipe_runs_fp8(void **state) {
  (void)state;
  need_fp8();
  fcase cases[6];
  cases[0] = mk("sm80", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 300, 129, 257, 1000);
  cases[0].scale_a = 0.25f;
  cases[0].scale_b = 3.0f;
  cases[1] = mk("sm80", TCJ_E5M2, TCJ_E4M3, TCJ_F16, TCJ_OP_N, TCJ_OP_N, 16, 257, 100, 1001);
  cases[1].pad_a = 1;
  cases[2] = mk("sm80, e4m3 D", TCJ_E4M3, TCJ_E5M2, TCJ_E4M3, TCJ_OP_T, TCJ_OP_T, 33, 64, 520, 1002);
  cases[2].scale_d = -4;
  cases[2].want_saturation = 1;
  cases[2].amax = 1;
  cases[3] = mk("sm80, beta, bias + relu", TCJ_E5M2, TCJ_E5M2, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 257, 72, 64, 1003);
  cases[3].beta = 0.5f;
  cases[3].bias = TCJ_BIAS_COL;
  cases[3].act = TCJ_ACT_RELU;
  cases[3].scale_a = 0.25f;
  cases[3].scale_b = 3.0f;
  cases[4] = mk("sm80, K 65536, positive", TCJ_E4M3, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 64, 64, 65536, 1004);
  cases[4].positive = 1;
  cases[4].range_a = RANGE_NARROW;
  cases[4].strict_fp32 = 1;
  cases[5] = mk("sm80, block", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 257, 300, 520, 1005);
  cases[5].block = 1;

  tcj_engine *e = forced_engine("sm80", NULL);
  int unsupported = 0;
  int failed = run_list(e, "TCJ_RECIPE=sm80 fp8", cases, NCASES(cases), 1, &unsupported);
  tcj_destroy(e);
  if (unsupported) printf("  TCJ_RECIPE=sm80: %d block-scale case(s) not supported (allowed)\n", unsupported);
  if (failed) fail_msg("TCJ_RECIPE=sm80 fp8: %d of %d cases failed (see FAIL lines above)", failed, NCASES(cases));
}

/* The widest promoted tile, forced (TCJ_TILE, read by tcj_create), with and without a 2-CTA
 * cluster: its partial sums come in two 96-column chunks through one register set (selection
 * takes it for large problems only). Edges in every dimension, a column count that ends inside
 * the first chunk of the last tile, deep K within the fp32 bound (a K split the selection picks
 * is dropped with the cluster), an e4m3 D with amax, beta with a bias, an MN-major B (transposed
 * first), and block scales (a 192-column tile spans two B blocks). */
static void forced_128x192_promoted_tile_matches_reference(void **state) {
  (void)state;
  need_fp8();
  if (g_cc_major != 9) {
    print_message("the 128x192 sm90 tile needs sm_90a; this GPU is sm_%d%d\n", g_cc_major, g_cc_minor);
    skip();
  }
  fcase cases[8];
  cases[0] = mk("128x192", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 1000, 1000, 1000, 1100);
  cases[1] = mk("128x192, n ends in chunk 0", TCJ_E5M2, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 300, 250, 520, 1101);
  cases[1].scale_a = 0.25f;
  cases[1].scale_b = 3.0f;
  cases[2] = mk("128x192, K 16384, positive", TCJ_E4M3, TCJ_E4M3, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 129, 200, 16384, 1102);
  cases[2].positive = 1;
  cases[2].range_a = RANGE_NARROW;
  cases[2].strict_fp32 = 1;
  cases[3] = mk("128x192, e4m3 D", TCJ_E4M3, TCJ_E5M2, TCJ_E4M3, TCJ_OP_N, TCJ_OP_T, 257, 385, 256, 1103);
  cases[3].scale_d = -4;
  cases[3].want_saturation = 1;
  cases[3].amax = 1;
  cases[4] = mk("128x192, beta, bias + gelu", TCJ_E4M3, TCJ_E4M3, TCJ_F16, TCJ_OP_N, TCJ_OP_T, 640, 576, 384, 1104);
  cases[4].beta = 0.5f;
  cases[4].bias = TCJ_BIAS_COL;
  cases[4].act = TCJ_ACT_GELU;
  cases[5] = mk("128x192, B MN-major", TCJ_E5M2, TCJ_E5M2, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 200, 700, 300, 1105);
  cases[5].pad_b = 16;
  /* Block scales: tiles start at columns 0, 192, 384, 576 (n0 % 128 = 0, 64, 0, 64), so each
   * chunk meets both ways of splitting its columns between two B blocks; the last block is
   * partial (n 700, k 520 and 1000: neither a multiple of 128). */
  cases[6] = mk("128x192, block scales", TCJ_E4M3, TCJ_E4M3, TCJ_BF16, TCJ_OP_N, TCJ_OP_T, 300, 700, 520, 1106);
  cases[6].block = 1;
  cases[7] = mk("128x192, block scales, TN", TCJ_E5M2, TCJ_E4M3, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 129, 450, 1000, 1107);
  cases[7].block = 1;
  cases[7].alpha = 0.5f;
  static const char *const tiles[2] = {"128x192x128/2x1/5/c2", "128x192x128/2x1/5"};
  int failed = 0;
  for (int t = 0; t < 2; t++) {
    /* The small cases would take the sm80 recipe, which the tile does not describe. */
    tcj_engine *e = forced_engine("sm90", tiles[t]);
    char what[64];
    snprintf(what, sizeof what, "TCJ_TILE=%s", tiles[t]);
    failed += run_list(e, what, cases, NCASES(cases), 0, NULL);
    tcj_destroy(e);
  }
  if (failed) fail_msg("forced 128x192 promoted tile: %d case(s) failed (see FAIL lines above)", failed);
}

/* ---- setup -------------------------------------------------------------------------------- */

static int group_setup(void **state) {
  (void)state;
  return cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) == cudaSuccess ? 0 : -1;
}

static int group_teardown(void **state) {
  (void)state;
  if (g_stream) cudaStreamDestroy(g_stream);
  return 0;
}

int main(void) {
  if (codec_self_check()) return 1; /* the judge itself, before any GPU */
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("fp8 GEMM checks", &g_eng, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  g_cc_major = prop.major;
  g_cc_minor = prop.minor;
  g_fp8 = prop.major * 10 + prop.minor >= 89;
  printf("GPU: %s (sm_%d%d, %d SMs, fp8 tensor cores: %s); seed base 0x%llx (TCJ_TEST_SEED)\n", prop.name, prop.major,
         prop.minor, prop.multiProcessorCount, g_fp8 ? "yes" : "no", (unsigned long long)g_seed_base);

  const struct CMUnitTest tests[] = {
      cmocka_unit_test(descriptors_outside_the_fp8_contract_are_refused),
      cmocka_unit_test(fp8_before_sm89_is_not_supported),
      cmocka_unit_test(every_operand_pair_and_op_pair_matches_reference),
      cmocka_unit_test(mn_major_operands_take_the_transposing_pack),
      cmocka_unit_test(tcj_gemm_takes_fp8_operands),
      cmocka_unit_test(per_tensor_scales_with_beta_bf16_c_and_bias_relu),
      cmocka_unit_test(fp8_d_is_scaled_rounded_and_saturated),
      cmocka_unit_test(amax_is_max_abs_before_scale_d_and_replaces_stale_values),
      cmocka_unit_test(decode_splits_apply_the_fp8_epilogue),
      cmocka_unit_test(block_scales_apply_per_128_of_k),
      cmocka_unit_test(deep_k_stays_within_the_fp32_bound),
      cmocka_unit_test(fast_accum_stays_within_its_looser_bound),
      cmocka_unit_test(forced_sm80_recipe_runs_fp8),
      cmocka_unit_test(forced_128x192_promoted_tile_matches_reference),
  };
  int failures = cmocka_run_group_tests_name("fp8_gpu", tests, group_setup, group_teardown);
  tcj_destroy(g_eng);
  return failures ? 1 : 0;
}

