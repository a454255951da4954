/* Host conversions between f32 and the 16-bit float formats (round to nearest even), for the
 * tools and tests that fill operands and read results on the host. Header-only. */
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

#endif
