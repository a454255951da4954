/* SPDX-License-Identifier: Apache-2.0 */
/* The epilogue module's promises that show in the PTX every recipe writes (the GPU test
 * tests/gpu/test_epilogue_edges_gpu.c runs them): a user epilogue is called only for elements
 * of D (a call branched around outside D, never call.uni over a fragment's out-of-range values),
 * and alpha == 0 drops the products (a select after alpha * acc, or the accumulators zeroed
 * under a branch), in the GEMM entry and the split-K reduction, on the sm80, sm90 and dmma
 * recipes, specialised and generic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/validate.h"
#include "ptxgen/ptxgen.h"
#include "unit/select_fixture.h"

/* A plan for a tcj_gemm_ex call with 16-byte aligned (never dereferenced) pointers. */
static eng_plan plan_for(const char *arch, tcj_dtype ab, tcj_dtype cd, int64_t m, int64_t n, int64_t k, int user,
                         int generic) {
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.m = m;
  d.n = n;
  d.k = k;
  d.a = (const void *)(uintptr_t)0x100000;
  d.b = (const void *)(uintptr_t)0x40000000;
  d.d = (void *)(uintptr_t)0x80000000;
  d.a_type = d.b_type = ab;
  d.c_type = d.d_type = cd;
  d.lda = k;
  d.ldb = n;
  d.ldc = d.ldd = n;
  if (ab == TCJ_F64) d.alpha = 1.0f;
  if (user) d.epilogue_source = "user";
  eng_problem p;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  if (user) p.user = 0x1234; /* the engine puts the source's hash here */
  eng_device_caps caps = caps_of(arch);
  eng_plan plan;
  const char *why = NULL;
  tcj_status st = generic ? eng_select_generic(&p, &caps, 1, NULL, &plan, &why) : eng_select(&p, &caps, 1, &plan, &why);
  if (st != TCJ_SUCCESS) fail_msg("%s %lldx%lldx%lld: %s", arch, (long long)m, (long long)n, (long long)k, why);
  return plan;
}

static char *ptx_of(const eng_plan *plan) {
  char *ptx = NULL, err[256];
  size_t len = 0;
  if (ptx_gen_gemm(&plan->cfg, &ptx, &len, err, sizeof err) != 0) fail_msg("ptx_gen_gemm: %s", err);
  return ptx;
}

/* Every call of tcj_epilogue in plan's module is a plain call (not call.uni: it is divergent)
 * behind a branch around it on a negated predicate (the element is outside D) whose label comes
 * right after the call; returns the count, and in *reduction whether the module has the split-K
 * reduction entry. */
static int guarded_user_calls(const eng_plan *plan, const char *what, int *reduction) {
  char *ptx = ptx_of(plan), bad[256] = "", skip[64] = "";
  int calls = 0, after_call = 0;
  for (char *line = strtok(ptx, "\n"); line; line = strtok(NULL, "\n")) {
    const char *bra = strstr(line, "bra ");
    if (bra && strstr(line, "@!%p")) snprintf(skip, sizeof skip, "%s", bra + 4);
    if (after_call && strchr(line, ':')) { /* the first label after the call: the branch's target */
      char label[64];
      snprintf(label, sizeof label, "%s", line);
      *strchr(label, ':') = ';';
      if (strcmp(label, skip) != 0 && !bad[0]) snprintf(bad, sizeof bad, "the label after the call, %s, is not the branch's (%s)", line, skip);
      after_call = 0;
      skip[0] = 0;
    }
    if (!strstr(line, "tcj_epilogue, (")) continue;
    if ((strstr(line, "call.uni") || !skip[0]) && !bad[0]) snprintf(bad, sizeof bad, "%s", line);
    after_call = 1;
    calls++;
  }
  free(ptx);
  ptx = ptx_of(plan);
  *reduction = strstr(ptx, ".entry " PTX_REDUCE_ENTRY) != NULL;
  free(ptx);
  if (bad[0]) fail_msg("%s: a user epilogue call not guarded by the bounds of D: \"%s\"", what, bad);
  return calls;
}

static void user_epilogue_is_called_only_inside_d(void **state) {
  (void)state;
  struct {
    const char *arch;
    int64_t m, n, k;
    int generic;
    const char *what;
  } cases[] = {
      {"sm_90a", 129, 1000, 777, 0, "sm_90a specialised"},
      {"sm_80", 129, 1000, 777, 0, "sm_80 specialised"},
      {"sm_90a", 333, 517, 271, 1, "sm_90a generic"},
      {"sm_80", 333, 517, 271, 1, "sm_80 generic"},
      {"sm_80", 13, 520, 6000, 0, "sm_80 decode (split-K)"},
      {"sm_90a", 13, 520, 6000, 0, "sm_90a decode"},
  };
  int reductions = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_plan plan = plan_for(cases[i].arch, TCJ_F16, TCJ_F32, cases[i].m, cases[i].n, cases[i].k, 1, cases[i].generic);
    int reduction = 0, calls = guarded_user_calls(&plan, cases[i].what, &reduction);
    if (calls == 0) fail_msg("%s: no call of the user epilogue in the module", cases[i].what);
    reductions += reduction;
    print_message("%s (%s): %d guarded calls\n", cases[i].what, tcj_recipe_name(plan.cfg.recipe), calls);
  }
  if (reductions == 0) fail_msg("no case selected a split-K reduction: the sample misses its epilogue");
}

/* Lines "selp.<ty> %R, <zero>, %R, %p": zero chosen over a value by a predicate. */
static int zero_selects(const char *ptx, const char *ty, const char *zero) {
  char head[32];
  int n = 0, len = snprintf(head, sizeof head, "selp.%s ", ty);
  for (const char *at = strstr(ptx, head); at; at = strstr(at + 1, head)) {
    const char *comma = strchr(at + len, ',');
    if (comma && strncmp(comma + 2, zero, strlen(zero)) == 0 && comma[2 + strlen(zero)] == ',') n++;
  }
  return n;
}

/* Branches "@!%pN bra.uni L" followed, before L, only by "mov.f32 %fM, 0f00000000" lines (the
 * accumulators zeroed where alpha == 0: ptx_epi_drop_products); returns the zeroed count. */
static int zeroing_branches(char *ptx) {
  int zeroed = 0, in_block = 0, movs = 0;
  char target[64] = "";
  for (char *line = strtok(ptx, "\n"); line; line = strtok(NULL, "\n")) {
    if (in_block) {
      if (line[0] == '$' && strchr(line, ':')) { /* a label ends the block: the branch's own, or not */
        if (strcmp(line, target) == 0) zeroed += movs;
        in_block = 0;
        continue;
      }
      if (strstr(line, "mov.f32 %f") && strstr(line, ", 0f00000000;")) {
        movs++;
        continue;
      }
      in_block = 0; /* anything else: not a block that only zeroes */
    }
    const char *bra = strstr(line, "bra.uni ");
    if (bra && strstr(line, "@!%p")) {
      snprintf(target, sizeof target, "%s", bra + 8);
      char *semi = strchr(target, ';');
      if (semi) *semi = ':';
      in_block = 1;
      movs = 0;
    }
  }
  return zeroed;
}

static void alpha_zero_drops_the_products(void **state) {
  (void)state;
  struct {
    const char *arch;
    tcj_dtype ab, cd;
    int64_t m, n, k;
  } cases[] = {
      {"sm_90a", TCJ_BF16, TCJ_BF16, 1000, 1000, 1000},
      {"sm_80", TCJ_BF16, TCJ_BF16, 1000, 1000, 1000},
      {"sm_80", TCJ_BF16, TCJ_BF16, 7, 300, 9000},
      {"sm_90a", TCJ_F32, TCJ_F32, 200, 136, 300},
      {"sm_90a", TCJ_E4M3, TCJ_BF16, 200, 136, 320},
      {"sm_90a", TCJ_F64, TCJ_F64, 200, 136, 300},
      {"sm_80", TCJ_F64, TCJ_F64, 7, 300, 9000},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    eng_plan plan = plan_for(cases[i].arch, cases[i].ab, cases[i].cd, cases[i].m, cases[i].n, cases[i].k, 0, 0);
    char *ptx = ptx_of(&plan);
    int f64 = cases[i].ab == TCJ_F64;
    int zeros = f64 ? zero_selects(ptx, "f64", "0d0000000000000000") : zero_selects(ptx, "f32", "0f00000000");
    int zeroed = zeroing_branches(ptx); /* tokenises ptx: last */
    print_message("%s %s: %d selects of zero over a value, %d accumulators zeroed under a branch\n", cases[i].arch,
                  tcj_recipe_name(plan.cfg.recipe), zeros, zeroed);
    if (zeros == 0 && zeroed == 0)
      fail_msg("%s case %zu (%s): neither a select of 0 after alpha * acc nor accumulators zeroed where alpha == 0",
               cases[i].arch, i, tcj_recipe_name(plan.cfg.recipe));
    free(ptx);
  }
}

/* A host alpha of 0 runs as k == 0 (no products), which has no mainloop: a forced sm90 recipe
 * (TCJ_RECIPE=sm90), which needs k >= 1, must not make such a call fail. */
static void k_zero_runs_under_a_forced_sm90_recipe(void **state) {
  (void)state;
  eng_problem p = problem(PTX_E_BF16, PTX_E_BF16, 1000, 1000, 0);
  eng_device_caps caps = caps_of("sm_90a");
  eng_tuning forced;
  memset(&forced, 0, sizeof forced);
  forced.recipe = &ptx_recipe_sm90;
  eng_plan plan;
  const char *why = NULL;
  if (eng_select_tuned(&p, &caps, 1, &forced, &plan, &why) != TCJ_SUCCESS) fail_msg("k == 0 under TCJ_RECIPE=sm90: %s", why);
  assert_int_equal(plan.cfg.k, 0);
  p = problem(PTX_E_BF16, PTX_E_BF16, 1000, 1000, 64); /* with products the forced recipe is honoured */
  assert_int_equal(eng_select_tuned(&p, &caps, 1, &forced, &plan, &why), TCJ_SUCCESS);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(user_epilogue_is_called_only_inside_d),
      cmocka_unit_test(alpha_zero_drops_the_products),
      cmocka_unit_test(k_zero_runs_under_a_forced_sm90_recipe),
  };
  return cmocka_run_group_tests_name("epilogue", tests, NULL, NULL);
}
