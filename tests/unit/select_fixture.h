/* SPDX-License-Identifier: Apache-2.0 */
/* What the selection tests start from: an arch's built-in caps, and a plain problem with 16-byte
 * aligned operands and packed leading dimensions. Include after cmocka.h. */
#ifndef TCJ_TESTS_SELECT_FIXTURE_H
#define TCJ_TESTS_SELECT_FIXTURE_H

#include <string.h>

#include "engine/select.h"

static inline eng_device_caps caps_of(const char *arch) {
  eng_device_caps c;
  assert_int_equal(eng_caps_for_arch(arch, &c), 0);
  return c;
}

static inline eng_problem problem(ptx_elem ab, ptx_elem c, int64_t m, int64_t n, int64_t k) {
  eng_problem p;
  memset(&p, 0, sizeof p);
  p.ab = ab;
  p.c = c;
  p.m = m;
  p.n = n;
  p.k = k;
  p.lda = k;
  p.ldb = n;
  p.ldc = n;
  p.align_a = p.align_b = p.align_c = 16;
  eng_problem_plain_epilogue(&p);
  return p;
}

#endif
