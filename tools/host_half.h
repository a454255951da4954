/* SPDX-License-Identifier: Apache-2.0 */
/* Host conversions between f32 and the 16-bit and 8-bit float formats (round to nearest even),
 * for the tools and tests that fill operands and read results on the host. Header-only. */
#ifndef TCJ_TOOLS_HOST_HALF_H
#define TCJ_TOOLS_HOST_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, ax = x & 0x7fffffff;
  if (ax >= 0x7f800000) return (uint16_t)(sign | 0x7c00 | (ax > 0x7f800000 ? 0x200 : 0));
  if (ax >= 0x477ff000) return (uint16_t)(sign | 0x7c00); /* rounds to infinity */
  if (ax < 0x38800000) { /* below 2^-14: subnormal half, unit 2^-24; scaling is exact */
    float a;
    memcpy(&a, &ax, 4);
    return (uint16_t)(sign | (uint32_t)lrintf(a * 16777216.0f));
  }
  uint32_t h = (((ax >> 23) - 112) << 10) | ((ax & 0x7fffff) >> 13), rem = ax & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
  return (uint16_t)(sign | h);
}

static inline float f16_to_f32(uint16_t h) {
  uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v = e == 0 ? ldexpf((float)m, -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : ldexpf((float)(m | 0x400), (int)e - 25);
  return (h & 0x8000) ? -v : v;
}

static inline uint16_t f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000) return 0x7fc0;
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

static inline float bf16_to_f32(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* fp8, OCP 8-bit floats: e4m3 (bias 7, 3 mantissa bits, no infinity: 0x7f is NaN, 448 the
 * largest) and e5m2 (bias 15, 2 mantissa bits, IEEE-like: 0x7c is infinity). Finite values
 * beyond the largest saturate to it, as cvt.rn.satfinite does. */
#define FP8_E4M3_MAX 448.0f
#define FP8_E5M2_MAX 57344.0f

static inline uint8_t f32_to_fp8(float f, int mbits, int bias, float max) {
  uint8_t sign = signbit(f) ? 0x80 : 0;
  float a = fabsf(f);
  if (isnan(f)) return (uint8_t)(sign | 0x7f);
  if (a > max) a = max;
  if (a == 0) return sign;
  int e;
  frexpf(a, &e);
  e -= 1;                            /* a = 1.x * 2^e */
  if (e < 1 - bias) e = 1 - bias;    /* subnormal: the smallest normal's quantum */
  uint32_t q = (uint32_t)rintf(ldexpf(a, mbits - e)); /* 1.x with mbits bits, or 0.x below normal */
  /* q in [2^mbits, 2^(mbits+1)] for normals (the top is a carry into the exponent, which the
   * sum below absorbs), below 2^mbits for subnormals (exponent field 0). a <= max rounds to at
   * most max, so no carry reaches infinity or NaN. */
  return (uint8_t)(sign | (((uint32_t)(e + bias - 1) << mbits) + q));
}

static inline float fp8_to_f32(uint8_t b, int mbits, int bias) {
  int e = (b & 0x7f) >> mbits, m = b & ((1 << mbits) - 1);
  float v = e == 0 ? ldexpf((float)m, 1 - bias - mbits) : ldexpf((float)(m | 1 << mbits), e - bias - mbits);
  return (b & 0x80) ? -v : v;
}

static inline uint8_t f32_to_e4m3(float f) { return f32_to_fp8(f, 3, 7, FP8_E4M3_MAX); }
static inline uint8_t f32_to_e5m2(float f) { return f32_to_fp8(f, 2, 15, FP8_E5M2_MAX); }

static inline float e4m3_to_f32(uint8_t b) {
  return (b & 0x7f) == 0x7f ? NAN : fp8_to_f32(b, 3, 7);
}

static inline float e5m2_to_f32(uint8_t b) {
  if ((b & 0x7c) == 0x7c) return (b & 0x03) ? NAN : (b & 0x80) ? -INFINITY : INFINITY;
  return fp8_to_f32(b, 2, 15);
}

#endif
