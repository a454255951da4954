/* SPDX-License-Identifier: Apache-2.0 */
/* ptx_builder: register numbering and declarations, sticky errors, labels, guards,
 * deterministic bytes and growth past the initial buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxgen/ptx_builder.h"

/* A kernel frame around whatever body() writes; returns ptx_finish's result. */
static int build(ptx_builder *b, void (*body)(ptx_builder *)) {
  ptx_init(b);
  ptx_module_header(b, 80, 0);
  ptx_entry_begin(b, "k");
  ptx_entry_param(b, "p0", ".u64");
  ptx_entry_param(b, "p1", ".u32");
  ptx_entry_body(b, 128);
  body(b);
  return ptx_finish(b);
}

static void body_mixed(ptx_builder *b) {
  ptx_reg r1 = ptx_new(b, PTX_B32), r2 = ptx_new(b, PTX_B32);
  ptx_reg d1 = ptx_new(b, PTX_B64);
  ptx_reg f1 = ptx_new(b, PTX_F32);
  ptx_reg p1 = ptx_new(b, PTX_PRED);
  ptx_reg r3 = ptx_new(b, PTX_B32);
  ptx_ins(b, "ld.param.u64 %R, [p0]", d1);
  ptx_ins(b, "ld.param.u32 %R, [p1]", r1);
  ptx_ins(b, "add.s32 %R, %R, %d", r2, r1, -7);
  ptx_ins(b, "mov.b32 %R, 0x%x", r3, 0xbeefu);
  ptx_ins(b, "mov.f32 %R, 0f3F800000", f1);
  ptx_ins(b, "setp.lt.u32 %R, %R, %u", p1, r2, 4000000000u);
  ptx_ins(b, "add.s64 %R, %R, %lld", d1, d1, (int64_t)-1234567890123LL);
  ptx_ins(b, "// %s 100%%", "text");
}

static void registers_are_numbered_per_class_from_one(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_reg r1 = ptx_new(&b, PTX_B32), d1 = ptx_new(&b, PTX_B64), r2 = ptx_new(&b, PTX_B32);
  ptx_reg p1 = ptx_new(&b, PTX_PRED), r3 = ptx_new(&b, PTX_B32), d2 = ptx_new(&b, PTX_B64);
  assert_int_equal(r1.id, 1);
  assert_int_equal(r2.id, 2);
  assert_int_equal(r3.id, 3);
  assert_int_equal(d1.id, 1);
  assert_int_equal(d2.id, 2);
  assert_int_equal(p1.id, 1);
  assert_int_equal(r1.cls, PTX_B32);
  assert_int_equal(d2.cls, PTX_B64);
  assert_int_equal(p1.cls, PTX_PRED);
  assert_int_equal(ptx_failed(&b), 0);
  ptx_free(&b);
}

static void register_names_use_the_class_prefix(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  static const char *want[PTX_REG_CLASS_COUNT] = {"%p1", "%h1", "%r1", "%rd1", "%f1", "%fd1"};
  for (int c = 0; c < PTX_REG_CLASS_COUNT; c++) {
    ptx_reg r = ptx_new(&b, (ptx_reg_class)c);
    size_t at = b.len;
    ptx_text(&b, "%R", r);
    assert_non_null(b.buf);
    assert_string_equal(b.buf + at, want[c]);
  }
  assert_string_equal(ptx_reg_decl_type(PTX_PRED), ".pred");
  assert_string_equal(ptx_reg_decl_type(PTX_B16), ".b16");
  assert_string_equal(ptx_reg_decl_type(PTX_B32), ".b32");
  assert_string_equal(ptx_reg_decl_type(PTX_B64), ".b64");
  assert_string_equal(ptx_reg_decl_type(PTX_F32), ".f32");
  assert_string_equal(ptx_reg_decl_type(PTX_F64), ".f64");
  ptx_free(&b);
}

static void declarations_are_inserted_at_the_body_start_at_finish(void **state) {
  (void)state;
  ptx_builder b;
  assert_int_equal(build(&b, body_mixed), 0);
  assert_string_equal(b.error, "");
  const char *want =
      ".version 8.0\n.target sm_80\n.address_size 64\n\n"
      ".visible .entry k(\n\t.param .u64 p0,\n\t.param .u32 p1\n)\n.maxntid 128, 1, 1\n{\n"
      "\t.reg .pred %p<2>;\n"
      "\t.reg .b32 %r<4>;\n"
      "\t.reg .b64 %rd<2>;\n"
      "\t.reg .f32 %f<2>;\n"
      "\tld.param.u64 %rd1, [p0];\n"
      "\tld.param.u32 %r1, [p1];\n"
      "\tadd.s32 %r2, %r1, -7;\n"
      "\tmov.b32 %r3, 0xbeef;\n"
      "\tmov.f32 %f1, 0f3F800000;\n"
      "\tsetp.lt.u32 %p1, %r2, 4000000000;\n"
      "\tadd.s64 %rd1, %rd1, -1234567890123;\n"
      "\t// text 100%;\n"
      "}\n";
  assert_string_equal(b.buf, want);
  assert_int_equal(b.len, strlen(want));
  ptx_free(&b);
}

static void body_none(ptx_builder *b) { ptx_ins(b, "ret"); }

static void classes_without_registers_are_not_declared(void **state) {
  (void)state;
  ptx_builder b;
  assert_int_equal(build(&b, body_none), 0);
  assert_null(strstr(b.buf, ".reg"));
  assert_non_null(strstr(b.buf, "{\n\tret;\n}\n"));
  ptx_free(&b);
}

static void sm90a_header_names_the_arch_specific_target(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_module_header(&b, 90, 'a');
  assert_non_null(strstr(b.buf, ".target sm_90a\n"));
  ptx_free(&b);
  ptx_init(&b);
  ptx_module_header(&b, 89, 0);
  assert_non_null(strstr(b.buf, ".target sm_89\n"));
  ptx_free(&b);
}

static void body_unallocated(ptx_builder *b) {
  ptx_reg r1 = ptx_new(b, PTX_B32);
  ptx_reg bad = {PTX_B32, 0};
  ptx_ins(b, "mov.b32 %R, 1", r1);
  ptx_ins(b, "mov.b32 %R, %R", r1, bad); /* first error */
  ptx_ins(b, "bogus %q");                /* would be a second error */
  ptx_ins(b, "mov.b32 %R, 2", r1);
}

static void use_of_an_unallocated_register_is_a_sticky_error(void **state) {
  (void)state;
  ptx_builder b;
  assert_int_equal(build(&b, body_unallocated), -1);
  assert_int_equal(ptx_failed(&b), 1);
  assert_non_null(strstr(b.error, "unallocated register"));
  assert_non_null(strstr(b.error, "mov.b32 %R, %R"));
  /* Nothing after the failure reached the text. */
  size_t len = b.len;
  assert_null(strstr(b.buf, "mov.b32 %r1, 2"));
  assert_null(strstr(b.buf, "}\n"));
  ptx_ins(&b, "ret");
  ptx_label(&b, 3);
  assert_int_equal(b.len, len);
  assert_int_equal(ptx_finish(&b), -1);
  assert_int_equal(b.len, len);
  ptx_free(&b);
}

static void body_bad_directive(ptx_builder *b) {
  ptx_reg r1 = ptx_new(b, PTX_B32);
  ptx_ins(b, "mov.b32 %R, %f", r1, 1.0); /* first error */
  ptx_reg bad = {PTX_B64, 0};
  ptx_ins(b, "mov.b64 %R, 0", bad);
}

static void bad_format_directive_is_a_sticky_error(void **state) {
  (void)state;
  ptx_builder b;
  assert_int_equal(build(&b, body_bad_directive), -1);
  assert_non_null(strstr(b.error, "bad format directive"));
  assert_non_null(strstr(b.error, "mov.b32 %R, %f"));
  ptx_free(&b);

  /* %l not followed by "ld" is rejected, not passed through. */
  ptx_init(&b);
  ptx_text(&b, "x %lu", 5UL);
  assert_int_equal(ptx_failed(&b), 1);
  assert_non_null(strstr(b.error, "bad format directive"));
  ptx_free(&b);
}

static void first_failure_message_is_kept(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_fail(&b, "first %d", 1);
  ptx_fail(&b, "second %d", 2);
  assert_string_equal(b.error, "first 1");
  ptx_free(&b);
  /* A failure with an empty message still counts as a failure. */
  ptx_init(&b);
  ptx_fail(&b, "%s", "");
  assert_int_equal(ptx_failed(&b), 1);
  ptx_free(&b);
}

static void bad_register_class_fails(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_reg r = ptx_new(&b, PTX_REG_CLASS_COUNT);
  assert_int_equal(r.id, 0);
  assert_int_equal(ptx_failed(&b), 1);
  ptx_free(&b);
}

static void labels_are_numbered_and_written_with_a_colon(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  int l1 = ptx_new_label(&b), l2 = ptx_new_label(&b);
  assert_int_equal(l1, 1);
  assert_int_equal(l2, 2);
  ptx_label(&b, l2);
  ptx_ins(&b, "bra.uni %L", l1);
  ptx_label(&b, l1);
  assert_string_equal(b.buf, "$L2:\n\tbra.uni $L1;\n$L1:\n");
  ptx_free(&b);
}

static void guarded_instruction_has_predicate_prefix(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_reg p = ptx_new(&b, PTX_PRED), p2 = ptx_new(&b, PTX_PRED);
  ptx_reg r = ptx_new(&b, PTX_B32);
  ptx_ins_if(&b, p, 0, "mov.b32 %R, %d", r, 1);
  ptx_ins_if(&b, p2, 1, "bra %L", 7);
  assert_string_equal(b.buf, "\t@%p1 mov.b32 %r1, 1;\n\t@!%p2 bra $L7;\n");
  /* An unallocated guard is an error, not an unguarded instruction. */
  ptx_reg none = {PTX_PRED, 0};
  ptx_ins_if(&b, none, 0, "ret");
  assert_int_equal(ptx_failed(&b), 1);
  assert_null(strstr(b.buf, "ret"));
  ptx_free(&b);
}

static void entry_params_are_comma_separated(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_entry_begin(&b, "e");
  ptx_entry_body(&b, 32);
  assert_string_equal(b.buf, ".visible .entry e(\n\n)\n.maxntid 32, 1, 1\n{\n");
  ptx_free(&b);
  ptx_init(&b);
  ptx_entry_begin(&b, "e");
  ptx_entry_param(&b, "a", ".u64");
  ptx_entry_param(&b, "b", ".f32");
  ptx_entry_param(&b, "c", ".u32");
  ptx_entry_body(&b, 256);
  assert_string_equal(b.buf,
                      ".visible .entry e(\n\t.param .u64 a,\n\t.param .f32 b,\n\t.param .u32 c\n)\n"
                      ".maxntid 256, 1, 1\n{\n");
  ptx_free(&b);
}

static void same_calls_give_the_same_bytes(void **state) {
  (void)state;
  ptx_builder a, b;
  assert_int_equal(build(&a, body_mixed), 0);
  assert_int_equal(build(&b, body_mixed), 0);
  assert_int_equal(a.len, b.len);
  assert_memory_equal(a.buf, b.buf, a.len);
  ptx_free(&a);
  ptx_free(&b);
}

enum { BIG_REGS = 70000, BIG_LINES = 200000 };

static void body_large(ptx_builder *b) {
  ptx_reg first = ptx_new(b, PTX_B32), last = first;
  for (int i = 1; i < BIG_REGS; i++) last = ptx_new(b, PTX_B32);
  ptx_reg d = ptx_new(b, PTX_B64);
  for (int i = 0; i < BIG_LINES; i++) ptx_ins(b, "add.s32 %R, %R, %d", last, first, i);
  ptx_ins(b, "cvt.u64.u32 %R, %R", d, last);
}

static void large_output_grows_the_buffer_and_keeps_every_line(void **state) {
  (void)state;
  ptx_builder b;
  assert_int_equal(build(&b, body_large), 0);
  assert_true(b.len > (size_t)(BIG_LINES * 20));
  assert_true(b.cap > b.len);
  assert_int_equal(strlen(b.buf), b.len);
  char decl[64];
  snprintf(decl, sizeof decl, "\t.reg .b32 %%r<%d>;\n", BIG_REGS + 1);
  assert_non_null(strstr(b.buf, decl));
  assert_non_null(strstr(b.buf, "\t.reg .b64 %rd<2>;\n"));
  /* Declarations precede the first instruction; body text is intact end to end. */
  assert_true(strstr(b.buf, decl) < strstr(b.buf, "add.s32"));
  char line[64];
  snprintf(line, sizeof line, "\tadd.s32 %%r%d, %%r1, %d;\n", BIG_REGS, 0);
  assert_non_null(strstr(b.buf, line));
  snprintf(line, sizeof line, "\tadd.s32 %%r%d, %%r1, %d;\n\tcvt.u64.u32 %%rd1, %%r%d;\n}\n",
           BIG_REGS, BIG_LINES - 1, BIG_REGS);
  size_t n = strlen(line);
  assert_true(b.len >= n);
  assert_string_equal(b.buf + b.len - n, line);
  /* Counted line by line: a strstr loop over the whole buffer is quadratic under ASan, whose
   * strstr measures the rest of the haystack on every call. */
  size_t lines = 0;
  for (const char *p = b.buf, *nl; p; p = (nl = strchr(p, '\n')) ? nl + 1 : NULL)
    if (strncmp(p, "\tadd.s32 ", 9) == 0) lines++;
  assert_int_equal(lines, BIG_LINES);
  ptx_free(&b);
}

static void free_resets_and_is_safe_twice(void **state) {
  (void)state;
  ptx_builder b;
  ptx_init(&b);
  ptx_text(&b, "x");
  ptx_free(&b);
  assert_null(b.buf);
  assert_int_equal(b.len, 0);
  ptx_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(registers_are_numbered_per_class_from_one),
    cmocka_unit_test(register_names_use_the_class_prefix),
    cmocka_unit_test(declarations_are_inserted_at_the_body_start_at_finish),
    cmocka_unit_test(classes_without_registers_are_not_declared),
    cmocka_unit_test(sm90a_header_names_the_arch_specific_target),
    cmocka_unit_test(use_of_an_unallocated_register_is_a_sticky_error),
    cmocka_unit_test(bad_format_directive_is_a_sticky_error),
    cmocka_unit_test(first_failure_message_is_kept),
    cmocka_unit_test(bad_register_class_fails),
    cmocka_unit_test(labels_are_numbered_and_written_with_a_colon),
    cmocka_unit_test(guarded_instruction_has_predicate_prefix),
    cmocka_unit_test(entry_params_are_comma_separated),
    cmocka_unit_test(same_calls_give_the_same_bytes),
    cmocka_unit_test(large_output_grows_the_buffer_and_keeps_every_line),
    cmocka_unit_test(free_resets_and_is_safe_twice),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
