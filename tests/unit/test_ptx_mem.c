/* SPDX-License-Identifier: Apache-2.0 */
/* ptx_mem: the vector-width table's spellings, n elements split into the widest accesses,
 * operand order of loads and stores, and the TMA copies in each direction, rank and multicast
 * form the recipes emit (the exact text the hand-written variants wrote); widths, types and
 * forms without a row are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ptxgen/ptx_mem.h"

static ptx_reg none(void) { return (ptx_reg){0, 0}; }

static void vector_suffix_per_width_and_element_size(void **state) {
  (void)state;
  assert_string_equal(ptx_vec_suffix(1, 1), "");
  assert_string_equal(ptx_vec_suffix(1, 8), "");
  assert_string_equal(ptx_vec_suffix(2, 2), ".v2");
  assert_string_equal(ptx_vec_suffix(2, 4), ".v2");
  assert_string_equal(ptx_vec_suffix(2, 8), ".v2");
  assert_string_equal(ptx_vec_suffix(4, 4), ".v4");
  assert_string_equal(ptx_vec_suffix(4, 2), ".v4");
}

static void widths_the_table_lacks_are_refused(void **state) {
  (void)state;
  assert_null(ptx_vec_suffix(0, 4));
  assert_null(ptx_vec_suffix(3, 4));
  assert_null(ptx_vec_suffix(8, 4)); /* no .v8: two .v4 instead */
  assert_null(ptx_vec_suffix(8, 2));
  assert_null(ptx_vec_suffix(4, 8)); /* 32 bytes: over one access */
}

/* Each width's spelling, in the loads the epilogue emits for 1, 2, 4 and 8 f32. */
static void loads_take_the_widest_vectors_in_order(void **state) {
  (void)state;
  static const struct { int n; const char *text; } cases[] = {
    {1, "\t@%p1 ld.global.f32 %f1, [%rd1+8];\n"},
    {2, "\t@%p1 ld.global.v2.f32 {%f1, %f2}, [%rd1+8];\n"},
    {4, "\t@%p1 ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+8];\n"},
    {8, "\t@%p1 ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+8];\n"
        "\t@%p1 ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd1+24];\n"},
    {3, "\t@%p1 ld.global.v2.f32 {%f1, %f2}, [%rd1+8];\n\t@%p1 ld.global.f32 %f3, [%rd1+16];\n"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    ptx_builder b;
    ptx_init(&b);
    ptx_reg guard = ptx_new(&b, PTX_PRED), addr = ptx_new(&b, PTX_B64), v[8];
    for (int i = 0; i < cases[c].n; i++) v[i] = ptx_new(&b, PTX_F32);
    ptx_vec_mem(&b, guard, "ld.global", "f32", cases[c].n, v, ptx_at_plus(addr, 8));
    assert_false(ptx_failed(&b));
    assert_string_equal(b.buf, cases[c].text);
    ptx_free(&b);
  }
}

static void stores_name_the_address_first(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_reg addr = ptx_new(&b, PTX_B64), w[4] = {ptx_new(&b, PTX_B32), ptx_new(&b, PTX_B32), ptx_new(&b, PTX_B32),
                                                 ptx_new(&b, PTX_B32)};
  ptx_vec_mem(&b, none(), "st.global", "b32", 4, w, ptx_at_plus(addr, 0));
  ptx_vec_mem(&b, none(), "st.global", "b8", 1, w, ptx_at_plus(addr, 3));
  assert_false(ptx_failed(&b));
  assert_string_equal(b.buf, "\tst.global.v4.b32 [%rd1+0], {%r1, %r2, %r3, %r4};\n"
                             "\tst.global.b8 [%rd1+3], %r1;\n");
  ptx_free(&b);
}

/* A bare address stays [reg] for its first access; later ones gain their offset. */
static void bare_address_prints_no_offset(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_reg addr = ptx_new(&b, PTX_B64), d[3] = {ptx_new(&b, PTX_F64), ptx_new(&b, PTX_F64), ptx_new(&b, PTX_F64)};
  ptx_vec_mem(&b, none(), "ld.global.cg", "f64", 3, d, ptx_at(addr));
  assert_false(ptx_failed(&b));
  assert_string_equal(b.buf, "\tld.global.cg.v2.f64 {%fd1, %fd2}, [%rd1];\n\tld.global.cg.f64 %fd3, [%rd1+16];\n");
  ptx_free(&b);
}

static void accesses_without_a_row_are_refused(void **state) {
  (void)state;
  static const struct { const char *op, *type; int n; const char *error; } cases[] = {
    {"ld.global", "f32", 0, "ld.global of 0 elements"},
    {"ld.global", "pred", 1, "no element size for type \"pred\""},
    {"ld.global", "b128", 1, "no element size for type \"b128\""},
    {"ld.global", "b12", 1, "no element size for type \"b12\""},
    {"mov", "b32", 1, "\"mov\" is neither a load nor a store"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    ptx_builder b;
    ptx_init(&b);
    ptx_reg r = ptx_new(&b, PTX_B32), addr = ptx_new(&b, PTX_B64);
    ptx_vec_mem(&b, none(), cases[c].op, cases[c].type, cases[c].n, &r, ptx_at(addr));
    assert_true(ptx_failed(&b));
    assert_string_equal(b.error, cases[c].error);
    ptx_free(&b);
  }
}

/* The four load forms and two store forms the sm90 recipe wrote by hand. */
static void tma_forms_match_the_recipe_spellings(void **state) {
  (void)state;
  static const struct { ptx_tma_dir dir; int rank, multicast; const char *text; } cases[] = {
    {PTX_TMA_LOAD, 2, 0,
     "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
     "[%r1+512], [%rd1, {%r2, %r3}], [%r5];\n"},
    {PTX_TMA_LOAD, 2, 1,
     "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
     "[%r1+512], [%rd1, {%r2, %r3}], [%r5], %h1;\n"},
    {PTX_TMA_LOAD, 3, 0,
     "\tcp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes "
     "[%r1+512], [%rd1, {%r2, %r3, %r4}], [%r5];\n"},
    {PTX_TMA_LOAD, 3, 1,
     "\tcp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
     "[%r1+512], [%rd1, {%r2, %r3, %r4}], [%r5], %h1;\n"},
    {PTX_TMA_STORE, 2, 0, "\t@%p1 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r2, %r3}], [%r1];\n"},
    {PTX_TMA_STORE, 3, 0,
     "\t@%p1 cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%rd1, {%r2, %r3, %r4}], [%r1];\n"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    ptx_builder b;
    ptx_init(&b);
    ptx_reg smem = ptx_new(&b, PTX_B32), coord[3] = {ptx_new(&b, PTX_B32), ptx_new(&b, PTX_B32), ptx_new(&b, PTX_B32)};
    ptx_reg bar = ptx_new(&b, PTX_B32), tmap = ptx_new(&b, PTX_B64), mask = ptx_new(&b, PTX_B16);
    ptx_reg leader = ptx_new(&b, PTX_PRED);
    if (cases[c].dir == PTX_TMA_LOAD)
      ptx_tma(&b, none(), PTX_TMA_LOAD, tmap, cases[c].rank, coord, ptx_at_plus(smem, 512), bar,
              cases[c].multicast ? mask : none());
    else
      ptx_tma(&b, leader, PTX_TMA_STORE, tmap, cases[c].rank, coord, ptx_at(smem), none(), none());
    assert_false(ptx_failed(&b));
    assert_string_equal(b.buf, cases[c].text);
    ptx_free(&b);
  }
}

static void tma_forms_without_a_row_are_refused(void **state) {
  (void)state;
  static const struct { int dir, rank, multicast; const char *error; } cases[] = {
    {PTX_TMA_STORE, 2, 1, "a TMA store has no multicast"},
    {PTX_TMA_LOAD, 0, 0, "no TMA copy of rank 0"},
    {PTX_TMA_LOAD, 6, 0, "no TMA copy of rank 6"},
    {7, 2, 0, "no TMA direction 7"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    ptx_builder b;
    ptx_init(&b);
    ptx_reg r = ptx_new(&b, PTX_B32), coord[6] = {r, r, r, r, r, r}, mask = ptx_new(&b, PTX_B16);
    ptx_tma(&b, none(), (ptx_tma_dir)cases[c].dir, ptx_new(&b, PTX_B64), cases[c].rank, coord, ptx_at(r), r,
            cases[c].multicast ? mask : none());
    assert_true(ptx_failed(&b));
    assert_string_equal(b.error, cases[c].error);
    assert_true(b.len == 0);
    ptx_free(&b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(vector_suffix_per_width_and_element_size),
    cmocka_unit_test(widths_the_table_lacks_are_refused),
    cmocka_unit_test(loads_take_the_widest_vectors_in_order),
    cmocka_unit_test(stores_name_the_address_first),
    cmocka_unit_test(bare_address_prints_no_offset),
    cmocka_unit_test(accesses_without_a_row_are_refused),
    cmocka_unit_test(tma_forms_match_the_recipe_spellings),
    cmocka_unit_test(tma_forms_without_a_row_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
