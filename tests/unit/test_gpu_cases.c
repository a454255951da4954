/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU tests' case tables (tests/gpu/gather_cases.h), checked without a GPU: each case's call,
 * with its buffers where the GPU test puts them (each ending on a mapping boundary, so starting
 * as aligned as its size), must pass validation and selection on sm_80 and sm_90a, and what
 * neither can check must hold as tcj.h asks: every group_b_ptrs pointer aligned for the copies of B the selected kernel makes.
 * A table row that breaks that faults on the GPU (a misaligned copy) instead of testing the
 * kernel, and the fault does not say which row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/error.h"
#include "engine/select.h"
#include "engine/validate.h"
#include "gpu/gather_cases.h"
#include "ptxgen/elem.h"
#include "tcj.h"

static size_t esize(tcj_dtype t) { return (size_t)ptx_elem_size(ptx_elem_of_dtype((int)t)); }

/* Stand-in buffers: buffer i ends at (i + 1) TiB, as guard_buf.h's end on their mapping's end. */
static const void *ending_at(int i, size_t bytes) { return (const void *)(uintptr_t)(((uint64_t)(i + 1) << 40) - bytes); }

/* The case's call as run_case makes it, and the bytes of one group's B. */
static tcj_gemm_desc desc_of(const gcase *c, size_t *b_bytes) {
  gcase_extent x = gcase_extent_of(c);
  size_t es = esize(c->ab), ed = esize(c->d_type);
  *b_bytes = x.b_elems * es * (c->b_ptrs ? 1 : (size_t)c->groups);
  gcase_at at = {ending_at(0, x.a_elems * es), ending_at(1, *b_bytes), ending_at(2, x.d_elems * ed),
                 ending_at(4, (size_t)(c->groups * c->n) * 4), ending_at(5, (size_t)c->groups * 4),
                 ending_at(6, (size_t)(c->gather_rows ? c->m : 1) * 4), (void *)(uintptr_t)ending_at(3, x.d_elems * ed),
                 (const void *const *)ending_at(7, (size_t)c->groups * 8)};
  return gcase_desc(c, &at, 1.0f);
}

static void check_table(const gcase *cases, size_t count) {
  static const char *const arches[] = {"sm_80", "sm_90a"};
  for (size_t i = 0; i < count; i++) {
    const gcase *c = &cases[i];
    size_t b_bytes;
    tcj_gemm_desc d = desc_of(c, &b_bytes);
    eng_problem p;
    tcj_status st = eng_validate_desc(&d, &p);
    if (st != TCJ_SUCCESS) fail_msg("[%s] is refused by validation: %s", c->what, eng_last_error());
    assert_true(c->groups <= GCASE_MAX_GROUPS);
    int starts = gcase_align16(b_bytes), asked = gcase_b_ptr_align(c, esize(c->ab));
    if (c->b_ptrs && starts < asked)
      fail_msg("[%s] each B starts %d-byte aligned (%zu bytes ending on a boundary); tcj.h asks group_b_ptrs for %d",
               c->what, starts, b_bytes, asked);
    /* What the kernel assumes of B's start: validation's (from ldb alone), then the plan's copies. */
    if (c->b_ptrs && starts < p.align_b)
      fail_msg("[%s] each B starts %d-byte aligned, validation assumes %d", c->what, starts, p.align_b);
    /* Selection refuses what grouped kernels cannot copy (rows not 4-byte aligned): a case must run. */
    for (size_t a = 0; a < sizeof arches / sizeof *arches; a++) {
      eng_device_caps caps;
      assert_int_equal(eng_caps_for_arch(arches[a], &caps), 0);
      eng_plan plan;
      const char *why = NULL;
      if (eng_select_tuned(&p, &caps, 1, NULL, &plan, &why) != TCJ_SUCCESS) fail_msg("[%s] %s: %s", c->what, arches[a], why);
      assert_int_equal(plan.cfg.b_ptrs, c->b_ptrs);
      if (c->b_ptrs && starts < plan.cfg.align_b)
        fail_msg("[%s] %s: each B starts %d-byte aligned, the kernel copies B %d bytes at a time", c->what, arches[a],
                 starts, plan.cfg.align_b);
    }
  }
}

static void gather_cases_run_where_the_gpu_test_puts_them(void **state) {
  (void)state;
  check_table(GATHERS, sizeof GATHERS / sizeof *GATHERS);
}

static void pointer_array_cases_start_each_b_as_tcj_h_asks(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof POINTERS / sizeof *POINTERS; i++) assert_int_equal(POINTERS[i].b_ptrs, 1);
  check_table(POINTERS, sizeof POINTERS / sizeof *POINTERS);
}

/* The rule itself, on the row that broke it: f16 B stored k x n (op_b N) with n = 100, ldb = 104:
 * a 208-byte pitch asks 16 bytes, and 169 rows of 208 bytes and one of 200 end 8 bytes off 16. */
static void a_b_ending_8_bytes_off_16_breaks_a_16_byte_pitch(void **state) {
  (void)state;
  gcase c = POINTERS[0];
  c.ab = c.d_type = TCJ_F16, c.op_b_t = 0, c.n = 100, c.k = 170, c.pad_b = 4;
  gcase_extent x = gcase_extent_of(&c);
  assert_int_equal(x.ldb, 104);
  assert_int_equal(gcase_b_ptr_align(&c, 2), 16);
  assert_int_equal(gcase_align16(x.b_elems * 2), 8);
  c.pad_b = 2; /* a 204-byte pitch asks 4, and B ends 4 bytes off 16 */
  x = gcase_extent_of(&c);
  assert_int_equal(gcase_b_ptr_align(&c, 2), 4);
  assert_int_equal(gcase_align16(x.b_elems * 2), 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gather_cases_run_where_the_gpu_test_puts_them),
      cmocka_unit_test(pointer_array_cases_start_each_b_as_tcj_h_asks),
      cmocka_unit_test(a_b_ending_8_bytes_off_16_breaks_a_16_byte_pitch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
