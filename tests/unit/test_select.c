/* Unit tests of engine/select: shape classes -> tiles, every chosen config valid and within
 * shared memory, packing decisions for unaligned operands, and not-supported reasons. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/select.h"

static eng_device_caps caps_of(const char *arch) {
  eng_device_caps c;
  assert_int_equal(eng_caps_for_arch(arch, &c), 0);
  return c;
}

/* A problem with 16-byte aligned operands and packed leading dimensions. */
static eng_problem problem(ptx_elem ab, ptx_elem c, int64_t m, int64_t n, int64_t k) {
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
  return p;
}

static eng_plan select_ok(const eng_problem *p, const char *arch, int allow_packing) {
  eng_device_caps caps = caps_of(arch);
  eng_plan plan;
  const char *why = NULL;
  tcj_status st = eng_select(p, &caps, allow_packing, &plan, &why);
  if (st != TCJ_SUCCESS) print_error("eng_select: %s\n", why);
  assert_int_equal(st, TCJ_SUCCESS);
  const char *reason = tcj_cfg_check(&plan.cfg);
  if (reason) print_error("tcj_cfg_check: %s\n", reason);
  assert_null(reason);
  assert_true(tcj_cfg_smem_bytes(&plan.cfg) <= caps.max_smem_optin);
  return plan;
}

static void arch_table_knows_the_supported_arches(void **state) {
  (void)state;
  eng_device_caps c;
  assert_int_equal(eng_caps_for_arch("sm_80", &c), 0);
  assert_int_equal(c.sm, 80);
  assert_int_equal(c.arch_suffix, 0);
  assert_int_equal(c.sm_count, 108);
  assert_int_equal(c.max_smem_optin, 166912);
  assert_int_equal(eng_caps_for_arch("sm_90a", &c), 0);
  assert_int_equal(c.sm, 90);
  assert_int_equal(c.arch_suffix, 'a');
  assert_int_equal(c.max_smem_optin, 232448);
  assert_int_equal(eng_caps_for_arch("sm_89", &c), 0);
  assert_int_equal(c.max_smem_optin, 101376);
  assert_int_equal(eng_caps_for_arch("sm_100a", &c), 0);
  assert_int_equal(eng_caps_for_arch("sm_120", &c), 0);
  assert_int_equal(eng_caps_for_arch("sm_75", &c), -1);
  assert_int_equal(eng_caps_for_arch("sm_80a", &c), -1);
  assert_int_equal(eng_caps_for_arch("sm_90b", &c), -1);
  assert_int_equal(eng_caps_for_arch("compute_80", &c), -1);
  assert_int_equal(eng_caps_for_arch("", &c), -1);
  assert_int_equal(eng_caps_for_arch(NULL, &c), -1);
}

static void shape_classes_pick_their_tiles(void **state) {
  (void)state;
  struct { int64_t m, n, k; int bm, bn; } cases[] = {
    {4096, 4096, 4096, 128, 256}, /* 512 large tiles >= 108 SMs */
    {1024, 2048, 4096, 128, 128}, /* 64 large tiles < 108; 128 medium tiles >= 54 */
    {512, 512, 4096, 64, 64},     /* 16 medium tiles < 54: small */
    {1, 4096, 4096, 32, 128},     /* decode: skinny */
    {32, 8192, 1024, 32, 128},
    {100, 1000, 64, 64, 64},      /* 8 medium tiles: too few, small */
    {64, 8192, 512, 64, 64},      /* m <= 64: never medium */
    {33, 33, 33, 64, 64},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    eng_plan plan = select_ok(&p, "sm_80", 1);
    print_message("m=%lld n=%lld k=%lld -> %dx%d\n", (long long)cases[i].m, (long long)cases[i].n,
                  (long long)cases[i].k, plan.cfg.bm, plan.cfg.bn);
    assert_int_equal(plan.cfg.bm, cases[i].bm);
    assert_int_equal(plan.cfg.bn, cases[i].bn);
    assert_int_equal(plan.pack_a, 0);
    assert_int_equal(plan.pack_b, 0);
  }
}

static void deep_k_and_skinny_shapes_split_k(void **state) {
  (void)state;
  struct { int64_t m, n, k; int split; } cases[] = {
    {512, 512, 65536, 3},   /* 64 tiles of 64x64 on 108 SMs: 216 / 64 slices */
    {1, 4096, 14336, 6},    /* 32 skinny tiles: 216 / 32 */
    {4096, 4096, 4096, 0},  /* full waves: no split */
    {1, 4096, 64, 0},       /* K too short to share */
    {512, 512, 512, 0},     /* 16 K tiles: splitting costs more than it saves */
    {64, 64, 2048, 16},     /* 64 K tiles, one CTA: 16 slices of 4 */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, cases[i].m, cases[i].n, cases[i].k);
    eng_plan plan = select_ok(&p, "sm_80", 1);
    print_message("m=%lld n=%lld k=%lld -> split %d\n", (long long)cases[i].m, (long long)cases[i].n,
                  (long long)cases[i].k, plan.cfg.split_k);
    assert_int_equal(plan.cfg.split_k, cases[i].split);
    assert_null(tcj_cfg_check(&plan.cfg));
  }
  /* s8 sums in s32: never split. */
  eng_problem p = problem(PTX_E_S8, PTX_E_S32, 512, 512, 65536);
  assert_int_equal(select_ok(&p, "sm_80", 1).cfg.split_k, 0);
}

static void cfg_carries_the_problem_and_arch(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_S8, PTX_E_S32, 512, 768, 1000);
  p.op_a_t = 1;
  p.op_b_t = 0;
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.cfg.sm, 90);
  assert_int_equal(plan.cfg.arch_suffix, 'a');
  assert_int_equal(plan.cfg.ab, PTX_E_S8);
  assert_int_equal(plan.cfg.c, PTX_E_S32);
  assert_int_equal(plan.cfg.op_a_t, 1);
  assert_int_equal(plan.cfg.op_b_t, 0);
  assert_int_equal(plan.cfg.n, 768);
  assert_int_equal(plan.cfg.k, 1000);
  assert_int_equal(plan.cfg.bk, 64); /* 64 bytes of s8 */
  assert_int_equal(plan.cfg.vec_c, 2);
}

static void every_selected_cfg_is_valid_and_fits_shared_memory(void **state) {
  (void)state;
  static const char *arches[] = {"sm_80", "sm_86", "sm_89", "sm_90a", "sm_100", "sm_120"};
  static const struct { ptx_elem ab, c; } types[] = {
    {PTX_E_F16, PTX_E_F16}, {PTX_E_BF16, PTX_E_F32}, {PTX_E_TF32, PTX_E_F32}, {PTX_E_S8, PTX_E_S32}};
  static const int64_t dims[] = {1, 17, 32, 64, 100, 128, 1000, 4096, 12288};
  static const int aligns[] = {4, 8, 16};
  for (size_t a = 0; a < sizeof arches / sizeof *arches; a++)
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
      for (size_t i = 0; i < sizeof dims / sizeof *dims; i++)
        for (size_t j = 0; j < sizeof dims / sizeof *dims; j++)
          for (size_t al = 0; al < sizeof aligns / sizeof *aligns; al++)
            for (int op = 0; op < 4; op++) {
              eng_problem p = problem(types[t].ab, types[t].c, dims[i], dims[j], dims[(i + j) % 9]);
              p.op_a_t = op & 1;
              p.op_b_t = op >> 1;
              p.align_a = p.align_b = aligns[al];
              eng_plan plan = select_ok(&p, arches[a], al % 2);
              assert_true(plan.cfg.stages >= 2 && plan.cfg.stages <= 4);
              assert_true(plan.cfg.align_a >= ptx_elem_size(plan.cfg.ab));
            }
}

static void stages_fill_the_shared_memory_budget(void **state) {
  (void)state;
  static const char *arches[] = {"sm_80", "sm_89", "sm_90a"};
  for (size_t a = 0; a < 3; a++) {
    eng_problem p = problem(PTX_E_F16, PTX_E_F32, 8192, 8192, 8192);
    eng_plan plan = select_ok(&p, arches[a], 1);
    eng_device_caps caps = caps_of(arches[a]);
    tcj_kernel_cfg more = plan.cfg;
    more.stages++;
    /* Either at the cap of 4 or the next stage would not fit. */
    assert_true(plan.cfg.stages == 4 || tcj_cfg_smem_bytes(&more) > caps.max_smem_optin);
  }
}

static void bf16_with_odd_ld_is_packed(void **state) {
  (void)state;
  /* bf16, ld = 4095: rows start 2-byte aligned. */
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 4095, 4095, 4095);
  p.align_a = p.align_b = p.align_c = 2;
  eng_plan plan = select_ok(&p, "sm_90a", 1);
  assert_int_equal(plan.pack_a, 1);
  assert_int_equal(plan.pack_b, 1);
  assert_int_equal(plan.cfg.align_a, 16);
  assert_int_equal(plan.cfg.align_b, 16);
  assert_int_equal(plan.cfg.vec_c, 1); /* a 2-byte aligned C row cannot take 4-byte stores */

  const char *why = NULL;
  eng_device_caps caps = caps_of("sm_90a");
  assert_int_equal(eng_select(&p, &caps, 0, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "operand A"));
  assert_non_null(strstr(why, "packing is disabled"));
}

static void small_operand_with_8_byte_alignment_uses_narrow_copies(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_F16, PTX_E_F16, 64, 64, 68); /* lda = 68: 136-byte rows */
  p.align_a = 8;
  eng_plan plan = select_ok(&p, "sm_80", 1);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.cfg.align_a, 8);
  assert_int_equal(plan.cfg.align_b, 16);

  /* Past 2^20 elements one packing pass beats narrow copies on every tile. */
  p = problem(PTX_E_F16, PTX_E_F16, 4096, 4096, 4100);
  p.align_a = 8;
  plan = select_ok(&p, "sm_80", 1);
  assert_int_equal(plan.pack_a, 1);
  assert_int_equal(plan.cfg.align_a, 16);
  plan = select_ok(&p, "sm_80", 0);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.cfg.align_a, 8);
}

static void s8_with_odd_ld_is_packed_or_refused(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_S8, PTX_E_S32, 8, 4095, 4095);
  p.op_b_t = 1;
  p.ldb = 4095;
  p.align_a = 1;
  p.align_b = 1;
  eng_plan plan = select_ok(&p, "sm_89", 1);
  assert_int_equal(plan.pack_a, 1);
  assert_int_equal(plan.pack_b, 1);
  const char *why = NULL;
  eng_device_caps caps = caps_of("sm_89");
  assert_int_equal(eng_select(&p, &caps, 0, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "1-byte aligned"));

  /* s8 with ld % 4 == 2 is 2-byte aligned: still below a cp.async. */
  p.align_a = 16;
  p.align_b = 2;
  plan = select_ok(&p, "sm_89", 1);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.pack_b, 1);
}

static void empty_operands_are_never_packed(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 128, 128, 0); /* k == 0: C = beta * C */
  p.align_a = p.align_b = 2;
  eng_plan plan = select_ok(&p, "sm_80", 0);
  assert_int_equal(plan.pack_a, 0);
  assert_int_equal(plan.pack_b, 0);
}

static void pre_ampere_and_huge_grids_are_not_supported(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_80");
  caps.sm = 75;
  eng_problem p = problem(PTX_E_F16, PTX_E_F16, 128, 128, 128);
  eng_plan plan;
  const char *why = NULL;
  assert_int_equal(eng_select(&p, &caps, 1, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "sm_80"));

  caps = caps_of("sm_80");
  p = problem(PTX_E_F16, PTX_E_F16, INT64_C(4294967295), INT64_C(2147483647), 16);
  assert_int_equal(eng_select(&p, &caps, 1, &plan, &why), TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(why, "grid"));
}

static void selection_is_deterministic(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_F32, 3000, 5000, 700);
  eng_plan a = select_ok(&p, "sm_90a", 1), b = select_ok(&p, "sm_90a", 1);
  char ta[256], tb[256];
  assert_true(tcj_cfg_format(&a.cfg, ta, sizeof ta) > 0);
  assert_true(tcj_cfg_format(&b.cfg, tb, sizeof tb) > 0);
  assert_string_equal(ta, tb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(arch_table_knows_the_supported_arches),
    cmocka_unit_test(shape_classes_pick_their_tiles),
    cmocka_unit_test(deep_k_and_skinny_shapes_split_k),
    cmocka_unit_test(cfg_carries_the_problem_and_arch),
    cmocka_unit_test(every_selected_cfg_is_valid_and_fits_shared_memory),
    cmocka_unit_test(stages_fill_the_shared_memory_budget),
    cmocka_unit_test(bf16_with_odd_ld_is_packed),
    cmocka_unit_test(small_operand_with_8_byte_alignment_uses_narrow_copies),
    cmocka_unit_test(s8_with_odd_ld_is_packed_or_refused),
    cmocka_unit_test(empty_operands_are_never_packed),
    cmocka_unit_test(pre_ampere_and_huge_grids_are_not_supported),
    cmocka_unit_test(selection_is_deterministic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
