/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the recipe table (ptxgen/recipe.h): every row complete, names that round-trip
 * through the table and the config text, and the entries a row says a module holds (what the
 * engine looks up) equal to the .entry directives of the PTX its generator writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxgen/ptxgen.h"
#include "ptxgen/recipe.h"

static void every_row_is_complete(void **state) {
  (void)state;
  int rows = 0;
  const ptx_recipe_row *row;
  for (int i = 0; (row = ptx_recipe_at(i)) != NULL; i++, rows++) {
    assert_non_null(row->name);
    assert_non_null(row->entry);
    assert_non_null(row->check);
    assert_non_null(row->threads);
    assert_non_null(row->smem_bytes);
    assert_non_null(row->grid);
    assert_non_null(row->gen);
    assert_non_null(row->extras);
    assert_true(row->elems != 0);
    /* An extra entry is named once and fills its own slot of the engine's kernel. */
    for (const ptx_extra_entry *const *x = row->extras; *x; x++) {
      assert_non_null((*x)->name);
      assert_non_null((*x)->present);
      assert_non_null((*x)->emit);
      assert_in_range((*x)->kind, 0, PTX_EXTRA_COUNT - 1);
      if (strcmp((*x)->name, row->entry) == 0) fail_msg("%s: an extra entry named as the GEMM entry", row->name);
      for (const ptx_extra_entry *const *y = row->extras; y != x; y++) {
        if (strcmp((*x)->name, (*y)->name) == 0) fail_msg("%s: extra entry %s twice", row->name, (*x)->name);
        if ((*x)->kind == (*y)->kind) fail_msg("%s: %s and %s fill one slot", row->name, (*x)->name, (*y)->name);
      }
    }
    /* No two rows operate on one type unless both can be forced (the tuner times each other). */
    for (int j = 0; j < i; j++) {
      const ptx_recipe_row *other = ptx_recipe_at(j);
      if (strcmp(other->name, row->name) == 0) fail_msg("two rows named %s", row->name);
      if ((other->elems & row->elems) && !(other->forceable && row->forceable))
        fail_msg("%s and %s share a type but TCJ_RECIPE cannot choose between them", other->name, row->name);
    }
  }
  assert_int_equal(rows, PTX_RECIPE_COUNT);
  assert_null(ptx_recipe_at(-1));
  assert_null(ptx_recipe_at(PTX_RECIPE_COUNT));
}

static void names_round_trip_through_the_table_and_the_config_text(void **state) {
  (void)state;
  static const char *const spelled[] = {"sm80", "sm90", "dmma"}; /* as configs and TCJ_RECIPE spell them */
  for (int i = 0; i < PTX_RECIPE_COUNT; i++) {
    const ptx_recipe_row *row = ptx_recipe_at(i);
    assert_string_equal(row->name, tcj_recipe_name((ptx_recipe)i));
    assert_ptr_equal(ptx_recipe_named(row->name), row);
    assert_int_equal(ptx_recipe_index(row), i);
    tcj_kernel_cfg c;
    memset(&c, 0, sizeof c);
    c.recipe = (ptx_recipe)i;
    assert_ptr_equal(ptx_recipe_of(&c), row);
  }
  for (size_t i = 0; i < sizeof spelled / sizeof spelled[0]; i++) assert_non_null(ptx_recipe_named(spelled[i]));
  assert_ptr_equal(ptx_recipe_named("sm80"), &ptx_recipe_sm80);
  assert_ptr_equal(ptx_recipe_named("sm90"), &ptx_recipe_sm90);
  assert_ptr_equal(ptx_recipe_named("dmma"), &ptx_recipe_dmma);
  assert_null(ptx_recipe_named("sm90a"));
  assert_null(ptx_recipe_named("SM80"));
  assert_null(ptx_recipe_named(""));
  assert_string_equal(tcj_recipe_name((ptx_recipe)PTX_RECIPE_COUNT), "?");
  /* The text of a config names its row, and parses back to it. */
  const char *text = "recipe=dmma arch=sm_100 ab=f64 c=f64 op=NN n=0 k=0 tile=128x128x16 warps=2x4 stages=4 "
                     "align=16,16,1 generic=1";
  tcj_kernel_cfg c;
  assert_int_equal(tcj_cfg_parse(text, &c), 0);
  assert_ptr_equal(ptx_recipe_of(&c), &ptx_recipe_dmma);
  char back[256];
  assert_true(tcj_cfg_format(&c, back, sizeof back) > 0);
  assert_string_equal(back, text);
}

/* The .entry names of a module, in order, joined by spaces. */
static void entries_of_ptx(const char *ptx, char *out, size_t size) {
  out[0] = '\0';
  for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
    const char *name = p + 7, *end = strchr(name, '(');
    assert_non_null(end);
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s%.*s", len ? " " : "", (int)(end - name), name);
  }
}

/* What the engine looks up in cfg's module (engine/kernel.c): the row's GEMM entry, then each
 * extra entry the row says the module holds. */
static void entries_of_row(const tcj_kernel_cfg *plan, char *out, size_t size) {
  const tcj_kernel_cfg cfg = tcj_cfg_kernel_form(plan);
  const ptx_recipe_row *row = ptx_recipe_of(&cfg);
  snprintf(out, size, "%s", row->entry);
  for (const ptx_extra_entry *const *x = row->extras; *x; x++) {
    size_t len = strlen(out);
    if ((*x)->present(&cfg)) snprintf(out + len, size - len, " %s", (*x)->name);
  }
}

static void the_entries_looked_up_are_the_entries_generated(void **state) {
  (void)state;
  static const struct { const char *cfg, *entries; } cases[] = {
    {"recipe=sm80 arch=sm_100 ab=f16 c=bf16 op=NN n=4096 k=4096 tile=128x256x32 warps=2x4 stages=4 align=16,16,2",
     "tcj_gemm_sm80"},
    {"recipe=sm80 arch=sm_80 ab=bf16 c=bf16 op=NN n=1000 k=4095 tile=16x64x64 warps=1x2 stages=4 align=16,16,2 split=13",
     "tcj_gemm_sm80 tcj_gemm_sm80_reduce"},
    {"recipe=sm80 arch=sm_100 ab=bf16 c=bf16 op=NN n=1000 k=4095 tile=16x64x64 warps=1x2 stages=4 align=4,16,2 split=8 "
     "reduce=cluster",
     "tcj_gemm_sm80"},
    {"recipe=sm80 arch=sm_100 ab=tf32 c=f32 op=NT n=0 k=0 tile=128x128x32 warps=2x4 stages=4 align=16,16,1 x3=1 generic=1",
     "tcj_gemm_sm80 tcj_gemm_sm80_reduce tcj_split_tf32"},
    {"recipe=sm90 arch=sm_90a ab=s8 c=s32 op=NT n=0 k=0 tile=128x128x128 warps=2x1 stages=6 align=16,16,1 generic=1",
     "tcj_gemm_sm90 tcj_transpose"},
    {"recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NN n=0 k=0 tile=128x256x64 warps=2x1 stages=4 align=16,16,1 split=16 "
     "generic=1",
     "tcj_gemm_sm90 tcj_gemm_sm80_reduce"},
    {"recipe=sm90 arch=sm_90a ab=tf32 c=f32 op=NT n=1000 k=3072 tile=64x64x32 warps=1x1 stages=8 align=16,16,4 split=8 "
     "x3=1",
     "tcj_gemm_sm90 tcj_gemm_sm80_reduce tcj_split_tf32"},
    {"recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NN n=0 k=0 tile=128x128x64 warps=2x1 stages=6 align=16,16,4 d=f32 batch=1 "
     "generic=1",
     "tcj_gemm_sm90"},
    {"recipe=dmma arch=sm_100 ab=f64 c=f64 op=NN n=0 k=0 tile=128x128x16 warps=2x4 stages=4 align=16,16,1 generic=1",
     "tcj_gemm_sm80"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tcj_kernel_cfg c;
    if (tcj_cfg_parse(cases[i].cfg, &c) != 0) fail_msg("case %zu does not parse: %s", i, cases[i].cfg);
    const char *why = tcj_cfg_check(&c);
    if (why) fail_msg("case %zu refused: %s", i, why);
    char *ptx = NULL, err[256] = "", generated[256], looked_up[256];
    size_t len = 0;
    if (ptx_gen_gemm(&c, &ptx, &len, err, sizeof err) != 0) fail_msg("case %zu: %s", i, err);
    entries_of_ptx(ptx, generated, sizeof generated);
    free(ptx);
    entries_of_row(&c, looked_up, sizeof looked_up);
    assert_string_equal(looked_up, generated);
    assert_string_equal(looked_up, cases[i].entries);
    assert_string_equal(ptx_gemm_entry(&c), ptx_recipe_of(&c)->entry);
  }
}

/* The facts that once were branches on the recipe, now read from the row. */
static void per_recipe_facts_come_from_the_row(void **state) {
  (void)state;
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.warps_m = 2;
  c.warps_n = 1;
  c.recipe = PTX_RECIPE_SM90;
  assert_int_equal(tcj_cfg_threads(&c), 384);
  assert_int_equal(ptx_split_parts(&c), 2);
  c.recipe = PTX_RECIPE_SM80;
  assert_int_equal(tcj_cfg_threads(&c), 64);
  assert_int_equal(ptx_split_parts(&c), 3);
  c.recipe = PTX_RECIPE_DMMA;
  assert_int_equal(tcj_cfg_threads(&c), 64);
  assert_true(ptx_recipe_sm90.tensor_maps && ptx_recipe_sm90.persistent && ptx_recipe_sm90.promotion);
  assert_false(ptx_recipe_sm80.tensor_maps || ptx_recipe_sm80.persistent || ptx_recipe_sm80.promotion);
  assert_false(ptx_recipe_dmma.tensor_maps || ptx_recipe_dmma.persistent || ptx_recipe_dmma.forceable);
  assert_int_equal(ptx_recipe_sm80.fp8_isa_x10, 84);
  assert_true(ptx_recipe_takes(&ptx_recipe_dmma, PTX_E_F64));
  assert_false(ptx_recipe_takes(&ptx_recipe_sm90, PTX_E_F64));
  assert_false(ptx_recipe_takes(&ptx_recipe_sm80, PTX_E_F64));
  /* The sm80 and dmma grid: tiles of every batch entry in x, slices in y. */
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM80;
  c.bm = 128;
  c.bn = 64;
  c.n = 1000;
  c.split_k = 3;
  ptx_grid g = ptx_recipe_sm80.grid(&c, 300, 2, 132);
  assert_int_equal(g.x, 3 * 16 * 2);
  assert_int_equal(g.y, 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_row_is_complete),
    cmocka_unit_test(names_round_trip_through_the_table_and_the_config_text),
    cmocka_unit_test(the_entries_looked_up_are_the_entries_generated),
    cmocka_unit_test(per_recipe_facts_come_from_the_row),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
