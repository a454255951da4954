/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of engine/autotune's pure parts: which plans the tuner times, the key that keeps a
 * choice apart from every other problem, GPU and code generator, the stored plan text and the
 * check that a stored choice names one of the engine's own candidates, the memo, and a choice's
 * round trip through a disk cache entry. The timing itself runs in tests/gpu. */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache/disk_cache.h"
#include "engine/autotune.h"
#include "ptxgen/ptxgen.h"
#include "unit/plan_text.h"
#include "unit/select_fixture.h"

/* bf16 in and out. */
static eng_problem bf16_problem(int64_t m, int64_t n, int64_t k) {
  return problem(PTX_E_BF16, PTX_E_BF16, m, n, k);
}

static eng_plan selected(const eng_problem *p, const eng_device_caps *caps) {
  eng_plan plan;
  const char *why = NULL;
  assert_int_equal(eng_select(p, caps, 1, &plan, &why), TCJ_SUCCESS);
  return plan;
}

/* Shapes of every kind the tuner meets: decode, small batches, mid sizes (aligned and not),
 * deep K, large squares, a pitch that splits lines, and a batch. */
static const int64_t shapes[][3] = {
  {1, 4096, 4096}, {16, 14336, 4096}, {64, 4096, 4096}, {128, 5000, 5000}, {1000, 1000, 1000},
  {512, 512, 65536}, {4096, 4096, 4096}, {6000, 6000, 1000}, {333, 777, 1504}, {2048, 2048, 2048},
};

static void candidates_start_with_the_selected_plan_and_never_repeat(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_90a");
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    eng_problem p = bf16_problem(shapes[s][0], shapes[s][1], shapes[s][2]);
    if (s == 8) { /* unaligned leading dimensions: packed candidates */
      p.lda = p.k + 3;
      p.ldb = p.n + 1;
      p.align_a = p.align_b = 2;
    }
    eng_plan sel = selected(&p, &caps), out[ENG_AUTOTUNE_MAX];
    int n = eng_autotune_candidates(&p, &caps, 1, &sel, out, ENG_AUTOTUNE_MAX);
    assert_in_range(n, 1, ENG_AUTOTUNE_MAX);
    char a[640], b[640];
    plan_text(&sel, a, sizeof a);
    plan_text(&out[0], b, sizeof b);
    assert_string_equal(a, b);
    int recipes = 0;
    for (int i = 0; i < n; i++) {
      assert_null(tcj_cfg_check(&out[i].cfg));
      assert_true(tcj_cfg_smem_bytes(&out[i].cfg) <= caps.max_smem_optin);
      recipes |= 1 << out[i].cfg.recipe;
      plan_text(&out[i], a, sizeof a);
      for (int j = 0; j < i; j++) {
        plan_text(&out[j], b, sizeof b);
        if (strcmp(a, b) == 0) fail_msg("shape %zu: candidate %d repeats %d: %s", s, i, j, a);
      }
    }
    /* Both recipes run these problems: the one select did not take is timed too. */
    assert_int_equal(recipes, (1 << PTX_RECIPE_SM80) | (1 << PTX_RECIPE_SM90));
    /* Past the first two the list follows the model, and there is more than one sm90 plan to
     * time on every shape here but decode. */
    if (p.m > 16) assert_true(n >= 3);
    /* A max below the count truncates. */
    assert_int_equal(eng_autotune_candidates(&p, &caps, 1, &sel, out, 1), 1);
  }
}

static void without_sm90a_only_sm80_plans_are_candidates(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_80");
  eng_problem p = bf16_problem(1000, 1000, 1000);
  eng_plan sel = selected(&p, &caps), out[ENG_AUTOTUNE_MAX];
  int n = eng_autotune_candidates(&p, &caps, 1, &sel, out, ENG_AUTOTUNE_MAX);
  assert_int_equal(n, 1);
  assert_int_equal(out[0].cfg.recipe, PTX_RECIPE_SM80);
}

/* Every field selection reads changes the key: a choice never serves another problem. */
static void the_key_tells_every_problem_field_gpu_and_arch_apart(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_90a");
  caps.sm_count = 132;
  eng_problem base = bf16_problem(128, 5000, 5000);
  enum { VARIANTS = 30 };
  char keys[VARIANTS][ENG_AUTOTUNE_KEY_MAX];
  for (int v = 0; v < VARIANTS; v++) {
    eng_problem p = base;
    eng_device_caps c = caps;
    const char *arch = "sm_90a", *device = "NVIDIA H100 80GB HBM3";
    switch (v) {
    case 0: break;
    case 1: p.op_a_t = 1; break;
    case 2: p.op_b_t = 1; break;
    case 3: p.m++; break;
    case 4: p.n++; break;
    case 5: p.k++; break;
    case 6: p.ab = PTX_E_F16; break;
    case 7: p.c = PTX_E_F32; break;
    case 8: p.d = PTX_E_F32; break;
    case 9: p.lda++; break;
    case 10: p.ldb++; break;
    case 11: p.ldc++; break;
    case 12: p.ldd++; break;
    case 13: p.align_a = 8; break;
    case 14: p.align_b = 8; break;
    case 15: p.align_c = 8; break;
    case 16: p.reads_c = 0; break;
    case 17: p.bias = PTX_BIAS_ROW; break;
    case 18: p.act = PTX_ACT_RELU; break;
    case 19: p.batch = 2; break;
    case 20: p.stride_b = 1; break;
    case 21: p.stride_d = 1; break;
    case 22: p.user = 0x1234; break;
    case 23: p.fast_accum = 1; break;
    case 24: p.block_scale = 1; break;
    case 25: p.b_other = 1; break;
    case 26: c.sm_count = 114; break;
    case 27: device = "NVIDIA H200"; break;
    case 28: arch = "sm_90"; break;
    case 29: p.bias_t = PTX_E_BF16; break;
    }
    assert_true(eng_autotune_key(&p, &c, arch, device, keys[v], sizeof keys[v]) > 0);
    for (int w = 0; w < v; w++)
      if (strcmp(keys[v], keys[w]) == 0) fail_msg("variants %d and %d share the key:\n%s", v, w, keys[v]);
  }
  /* Never a kernel's key: those start "tcj-cache". */
  assert_memory_equal(keys[0], "tcj-tune ", 9);
  char small[16];
  assert_int_equal(eng_autotune_key(&base, &caps, "sm_90a", "x", small, sizeof small), -1);
}

static void a_stored_choice_picks_only_an_identical_candidate(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_90a");
  eng_problem p = bf16_problem(1000, 1000, 1000);
  eng_plan sel = selected(&p, &caps), c[ENG_AUTOTUNE_MAX];
  int n = eng_autotune_candidates(&p, &caps, 1, &sel, c, ENG_AUTOTUNE_MAX);
  assert_true(n >= 3);
  char text[640];
  for (int i = 0; i < n; i++) {
    int len = eng_autotune_plan_text(&c[i], text, sizeof text);
    assert_true(len > 0 && (size_t)len == strlen(text));
    assert_int_equal(eng_autotune_pick(c, n, text, (size_t)len), i);
    /* Torn, extended or altered payloads name nothing. */
    assert_int_equal(eng_autotune_pick(c, n, text, (size_t)len - 1), -1);
    char longer[650];
    snprintf(longer, sizeof longer, "%s ", text);
    assert_int_equal(eng_autotune_pick(c, n, longer, (size_t)len + 1), -1);
    text[len / 2] ^= 1;
    assert_int_equal(eng_autotune_pick(c, n, text, (size_t)len), -1);
  }
  /* A plan of another problem (another kernel shape) is not a candidate here. */
  eng_problem q = bf16_problem(4096, 4096, 4096);
  eng_plan other = selected(&q, &caps);
  int len = eng_autotune_plan_text(&other, text, sizeof text);
  assert_int_equal(eng_autotune_pick(c, n, text, (size_t)len), -1);
  assert_int_equal(eng_autotune_pick(c, n, "", 0), -1);
  /* The packing is part of the choice. */
  eng_plan packed = c[0];
  packed.pack_a = ENG_PACK_COPY;
  len = eng_autotune_plan_text(&packed, text, sizeof text);
  assert_int_equal(eng_autotune_pick(c, n, text, (size_t)len), -1);
}

static void the_memo_keeps_one_choice_per_key(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_90a");
  eng_problem p = bf16_problem(1000, 1000, 1000);
  eng_plan sel = selected(&p, &caps), c[ENG_AUTOTUNE_MAX], got;
  int n = eng_autotune_candidates(&p, &caps, 1, &sel, c, ENG_AUTOTUNE_MAX);
  assert_true(n >= 2);
  eng_tuned_memo m;
  eng_tuned_memo_init(&m);
  assert_int_equal(eng_tuned_memo_find(&m, "a", &got), 0);
  char key[32];
  for (int i = 0; i < 40; i++) { /* past the first growth */
    snprintf(key, sizeof key, "k%d", i);
    assert_int_equal(eng_tuned_memo_put(&m, key, &c[i % n]), 0);
  }
  assert_int_equal(m.count, 40);
  assert_int_equal(eng_tuned_memo_put(&m, "k3", &c[0]), 0); /* replaces */
  assert_int_equal(m.count, 40);
  char a[640], b[640];
  for (int i = 0; i < 40; i++) {
    snprintf(key, sizeof key, "k%d", i);
    assert_int_equal(eng_tuned_memo_find(&m, key, &got), 1);
    plan_text(&got, a, sizeof a);
    plan_text(&c[i == 3 ? 0 : i % n], b, sizeof b);
    assert_string_equal(a, b);
  }
  eng_tuned_memo_free(&m);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

/* The disk holds a choice as an entry of its own, whose bytes are the plan text: it comes back
 * whole under its key, and a kernel's key never finds it. */
static void a_choice_round_trips_through_a_disk_entry(void **state) {
  (void)state;
  char dir[] = "/tmp/tcj-autotune-XXXXXX";
  assert_non_null(mkdtemp(dir));
  cache_disk_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.dir = dir;
  cfg.max_bytes = CACHE_DEFAULT_MAX_BYTES;
  cache_disk *d = cache_disk_open(&cfg, NULL);
  assert_non_null(d);
  eng_device_caps caps = caps_of("sm_90a");
  eng_problem p = bf16_problem(128, 5000, 5000);
  eng_plan sel = selected(&p, &caps), c[ENG_AUTOTUNE_MAX];
  int n = eng_autotune_candidates(&p, &caps, 1, &sel, c, ENG_AUTOTUNE_MAX);
  char key[ENG_AUTOTUNE_KEY_MAX], text[640];
  assert_true(eng_autotune_key(&p, &caps, "sm_90a", "NVIDIA H100 80GB HBM3", key, sizeof key) > 0);
  int len = eng_autotune_plan_text(&c[n - 1], text, sizeof text);
  assert_int_equal(cache_disk_put_by(d, key, "autotune: test", text, (size_t)len, NULL, 0), 0);
  void *payload = NULL;
  size_t size = 0;
  assert_int_equal(cache_disk_get(d, key, &payload, &size), 1);
  assert_int_equal(eng_autotune_pick(c, n, payload, size), n - 1);
  free(payload);
  char kernel_key[ENG_AUTOTUNE_KEY_MAX + 32];
  snprintf(kernel_key, sizeof kernel_key, "tcj-cache format=%u\n%s", CACHE_FORMAT_VERSION, key + 9);
  assert_int_equal(cache_disk_get(d, kernel_key, &payload, &size), 0);
  cache_disk_close(d);
  nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void tcj_tune_takes_1_or_0(void **state) {
  (void)state;
  int on = -1;
  unsetenv("TCJ_TUNE");
  assert_int_equal(eng_autotune_from_env(&on), 0);
  assert_int_equal(on, 0);
  setenv("TCJ_TUNE", "1", 1);
  assert_int_equal(eng_autotune_from_env(&on), 0);
  assert_int_equal(on, 1);
  setenv("TCJ_TUNE", "0", 1);
  assert_int_equal(eng_autotune_from_env(&on), 0);
  assert_int_equal(on, 0);
  setenv("TCJ_TUNE", "yes", 1);
  assert_int_equal(eng_autotune_from_env(&on), -1);
  unsetenv("TCJ_TUNE");
}

/* The tuner's other recipes come from the table: those that TCJ_RECIPE can force and that take
 * the plan's operand type. f64 runs on the dmma recipe alone, so a DMMA plan has none (a
 * two-way choice once gave it sm90); the sm80 and sm90 recipes are each other's. */
static void a_dmma_plan_has_no_other_recipe_to_time(void **state) {
  (void)state;
  eng_device_caps caps = caps_of("sm_90a");
  eng_problem p = problem(PTX_E_F64, PTX_E_F64, 1000, 1000, 1000);
  eng_plan sel = selected(&p, &caps), out[ENG_AUTOTUNE_MAX];
  assert_int_equal(sel.cfg.recipe, PTX_RECIPE_DMMA);
  assert_false(eng_autotune_alternative(&sel.cfg, &ptx_recipe_sm90));
  const ptx_recipe_row *row;
  for (int i = 0; (row = ptx_recipe_at(i)) != NULL; i++)
    if (eng_autotune_alternative(&sel.cfg, row)) fail_msg("a DMMA plan's alternatives hold %s", row->name);
  int n = eng_autotune_candidates(&p, &caps, 1, &sel, out, ENG_AUTOTUNE_MAX);
  for (int i = 0; i < n; i++) assert_int_equal(out[i].cfg.recipe, PTX_RECIPE_DMMA);

  eng_problem b = bf16_problem(4096, 4096, 4096);
  eng_plan s90 = selected(&b, &caps);
  assert_int_equal(s90.cfg.recipe, PTX_RECIPE_SM90);
  eng_plan s80 = s90;
  s80.cfg.recipe = PTX_RECIPE_SM80;
  for (int i = 0; (row = ptx_recipe_at(i)) != NULL; i++) {
    assert_int_equal(eng_autotune_alternative(&s90.cfg, row), row == &ptx_recipe_sm80);
    assert_int_equal(eng_autotune_alternative(&s80.cfg, row), row == &ptx_recipe_sm90);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(candidates_start_with_the_selected_plan_and_never_repeat),
    cmocka_unit_test(without_sm90a_only_sm80_plans_are_candidates),
    cmocka_unit_test(a_dmma_plan_has_no_other_recipe_to_time),
    cmocka_unit_test(the_key_tells_every_problem_field_gpu_and_arch_apart),
    cmocka_unit_test(a_stored_choice_picks_only_an_identical_candidate),
    cmocka_unit_test(the_memo_keeps_one_choice_per_key),
    cmocka_unit_test(a_choice_round_trips_through_a_disk_entry),
    cmocka_unit_test(tcj_tune_takes_1_or_0),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
