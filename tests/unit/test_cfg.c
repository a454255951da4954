/* tcj_kernel_cfg: the canonical text round-trips over a grid of configs, malformed or
 * non-canonical text is rejected, and tcj_cfg_check accepts valid configs and names the reason
 * for invalid ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxgen/kernel_cfg.h"

static tcj_kernel_cfg base_cfg(void) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM80;
  c.sm = 80;
  c.ab = PTX_E_F16;
  c.c = PTX_E_F32;
  c.op_a_t = 0;
  c.op_b_t = 1;
  c.n = 4096;
  c.k = 4096;
  c.bm = 128;
  c.bn = 256;
  c.bk = 32;
  c.warps_m = 2;
  c.warps_n = 4;
  c.stages = 4;
  c.align_a = 16;
  c.align_b = 16;
  c.vec_c = 2;
  return c;
}

static void assert_cfg_equal(const tcj_kernel_cfg *a, const tcj_kernel_cfg *b) {
  assert_int_equal(a->recipe, b->recipe);
  assert_int_equal(a->sm, b->sm);
  assert_int_equal(a->arch_suffix, b->arch_suffix);
  assert_int_equal(a->ab, b->ab);
  assert_int_equal(a->c, b->c);
  assert_int_equal(a->op_a_t, b->op_a_t);
  assert_int_equal(a->op_b_t, b->op_b_t);
  assert_int_equal(a->n, b->n);
  assert_int_equal(a->k, b->k);
  assert_int_equal(a->bm, b->bm);
  assert_int_equal(a->bn, b->bn);
  assert_int_equal(a->bk, b->bk);
  assert_int_equal(a->warps_m, b->warps_m);
  assert_int_equal(a->warps_n, b->warps_n);
  assert_int_equal(a->stages, b->stages);
  assert_int_equal(a->align_a, b->align_a);
  assert_int_equal(a->align_b, b->align_b);
  assert_int_equal(a->vec_c, b->vec_c);
  assert_int_equal(a->split_k, b->split_k);
}

static void canonical_text_names_every_field(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg();
  char buf[256];
  int n = tcj_cfg_format(&c, buf, sizeof buf);
  const char *want = "recipe=sm80 arch=sm_80 ab=f16 c=f32 op=NT n=4096 k=4096 tile=128x256x32 "
                     "warps=2x4 stages=4 align=16,16,2";
  assert_string_equal(buf, want);
  assert_int_equal(n, (int)strlen(want));
  c.sm = 90;
  c.arch_suffix = 'a';
  c.vec_c = 1;
  assert_true(tcj_cfg_format(&c, buf, sizeof buf) > 0);
  assert_non_null(strstr(buf, " arch=sm_90a "));
  assert_non_null(strstr(buf, " align=16,16,1"));
}

static void format_reports_a_buffer_too_small(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg();
  char buf[256];
  int n = tcj_cfg_format(&c, buf, sizeof buf);
  assert_true(n > 0);
  assert_int_equal(tcj_cfg_format(&c, buf, (size_t)n), -1);
  assert_int_equal(tcj_cfg_format(&c, buf, (size_t)n + 1), n);
}

static void format_then_parse_round_trips_over_a_grid(void **state) {
  (void)state;
  static const struct { int sm, suffix; } archs[] = {{80, 0}, {86, 0}, {89, 0}, {90, 'a'}, {90, 0}};
  static const struct { int bm, bn, bk, wm, wn; } tiles[] = {
    {128, 256, 32, 2, 4}, {128, 128, 64, 2, 2}, {64, 64, 16, 2, 2}, {32, 128, 128, 1, 4}};
  static const struct { int64_t n, k; } sizes[] = {{4096, 4096}, {1000, 999}, {0, 1}, {1, 0}, {INT32_MAX, (int64_t)1 << 40}};
  static const int aligns[] = {4, 8, 16};
  char buf[256], again[256];
  long count = 0;
  for (size_t a = 0; a < sizeof archs / sizeof *archs; a++)
    for (int ab = 0; ab < PTX_E_COUNT; ab++)
      for (int cc = 0; cc < PTX_E_COUNT; cc++)
        for (int op = 0; op < 4; op++)
          for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++)
            for (int stages = 2; stages <= 5; stages++)
              for (size_t al = 0; al < 3; al++)
                for (size_t bl = 0; bl < 3; bl++)
                  for (int vec = 0; vec < 2; vec++) {
                    size_t s = (size_t)(count % (long)(sizeof sizes / sizeof *sizes));
                    tcj_kernel_cfg c = base_cfg(), p;
                    c.sm = archs[a].sm;
                    c.arch_suffix = archs[a].suffix;
                    c.ab = (ptx_elem)ab;
                    c.c = (ptx_elem)cc;
                    c.op_a_t = op >> 1;
                    c.op_b_t = op & 1;
                    c.n = sizes[s].n;
                    c.k = sizes[s].k;
                    c.bm = tiles[t].bm;
                    c.bn = tiles[t].bn;
                    c.bk = tiles[t].bk;
                    c.warps_m = tiles[t].wm;
                    c.warps_n = tiles[t].wn;
                    c.stages = stages;
                    c.align_a = aligns[al];
                    c.align_b = aligns[bl];
                    c.vec_c = vec + 1;
                    c.split_k = (int)(count % 3) * 3; /* 0 (unsplit), 3, 6 */
                    int n = tcj_cfg_format(&c, buf, sizeof buf);
                    assert_true(n > 0);
                    memset(&p, 0x5a, sizeof p);
                    if (tcj_cfg_parse(buf, &p) != 0) print_error("did not parse: %s\n", buf);
                    assert_int_equal(tcj_cfg_parse(buf, &p), 0);
                    assert_cfg_equal(&c, &p);
                    assert_int_equal(tcj_cfg_format(&p, again, sizeof again), n);
                    assert_string_equal(again, buf);
                    count++;
                  }
  assert_true(count > 10000);
}

static void expect_rejected(const char *text) {
  tcj_kernel_cfg p = base_cfg(), before = p;
  p.stages = 7; /* a failed parse leaves the output alone */
  before.stages = 7;
  int rc = tcj_cfg_parse(text, &p);
  if (rc != -1) print_error("accepted: \"%s\"\n", text);
  assert_int_equal(rc, -1);
  assert_cfg_equal(&p, &before);
}

static const char *good_text = "recipe=sm80 arch=sm_90a ab=bf16 c=bf16 op=TN n=1000 k=999 "
                               "tile=64x64x32 warps=2x2 stages=3 align=4,16,1";

static void good_text_parses(void **state) {
  (void)state;
  tcj_kernel_cfg p;
  assert_int_equal(tcj_cfg_parse(good_text, &p), 0);
  assert_int_equal(p.sm, 90);
  assert_int_equal(p.arch_suffix, 'a');
  assert_int_equal(p.ab, PTX_E_BF16);
  assert_int_equal(p.c, PTX_E_BF16);
  assert_int_equal(p.op_a_t, 1);
  assert_int_equal(p.op_b_t, 0);
  assert_int_equal(p.n, 1000);
  assert_int_equal(p.k, 999);
  assert_int_equal(p.bm, 64);
  assert_int_equal(p.bk, 32);
  assert_int_equal(p.stages, 3);
  assert_int_equal(p.align_a, 4);
  assert_int_equal(p.align_b, 16);
  assert_int_equal(p.vec_c, 1);
}

static void every_truncation_is_rejected(void **state) {
  (void)state;
  size_t len = strlen(good_text);
  char buf[256];
  for (size_t i = 0; i < len; i++) {
    memcpy(buf, good_text, i);
    buf[i] = 0;
    expect_rejected(buf);
  }
}

static void trailing_junk_is_rejected(void **state) {
  (void)state;
  static const char *junk[] = {" ", "x", "\n", " stages=3", "0", ",1", ";"};
  char buf[256];
  for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
    snprintf(buf, sizeof buf, "%s%s", good_text, junk[i]);
    expect_rejected(buf);
  }
}

/* good_text with the first occurrence of `from` replaced by `to`. */
static void expect_rejected_edit(const char *from, const char *to) {
  char buf[256];
  const char *at = strstr(good_text, from);
  assert_non_null(at);
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - good_text), good_text, to, at + strlen(from));
  expect_rejected(buf);
}

static void bad_names_and_letters_are_rejected(void **state) {
  (void)state;
  expect_rejected("");
  expect_rejected_edit("ab=bf16", "ab=bf8");
  expect_rejected_edit("ab=bf16", "ab=BF16");
  expect_rejected_edit("c=bf16", "c=fp32");
  expect_rejected_edit("c=bf16", "c=");
  expect_rejected_edit("op=TN", "op=XN");
  expect_rejected_edit("op=TN", "op=TX");
  expect_rejected_edit("op=TN", "op=tn");
  expect_rejected_edit("op=TN", "op=T");
  expect_rejected_edit("arch=sm_90a", "arch=sm_90b");
  expect_rejected_edit("arch=sm_90a", "arch=sm90a");
  expect_rejected_edit("arch=sm_90a", "arch=compute_90a");
  expect_rejected_edit("recipe=sm80", "recipe=sm70");
  expect_rejected_edit("align=4,16,1", "align=4,16,3");
  expect_rejected_edit("align=4,16,1", "align=4,16");
  expect_rejected_edit("tile=64x64x32", "tile=64x64");
  expect_rejected_edit("n=1000", "n=x");
  expect_rejected_edit("stages=3", "stage=3");
}

/* The text is a cache key: only the canonical spelling of a config may parse, or two keys
 * would name one kernel. */
static void non_canonical_text_is_rejected(void **state) {
  (void)state;
  expect_rejected_edit("arch=sm_90a", "arch=sm_90aa");
  expect_rejected_edit("arch=sm_90a", "arch=sm_090a");
  expect_rejected_edit(" ab=", "  ab=");
  expect_rejected_edit("n=1000", "n=+1000");
  expect_rejected_edit("n=1000", "n=01000");
  expect_rejected_edit("k=999", "k= 999");
}

/* ---- tcj_cfg_check ---- */

static void valid_configs_pass_the_check(void **state) {
  (void)state;
  static const struct { ptx_elem ab, c; } types[] = {
    {PTX_E_F16, PTX_E_F16}, {PTX_E_F16, PTX_E_F32}, {PTX_E_BF16, PTX_E_BF16}, {PTX_E_BF16, PTX_E_F32},
    {PTX_E_F16, PTX_E_BF16}, {PTX_E_TF32, PTX_E_F32}, {PTX_E_S8, PTX_E_S32}};
  static const struct { int bm, bn, wm, wn; } tiles[] = {
    {128, 256, 2, 4}, {256, 128, 4, 2}, {128, 128, 2, 2}, {64, 64, 2, 2}, {32, 128, 1, 4}, {64, 128, 2, 2}};
  static const struct { int sm, suffix; } archs[] = {{80, 0}, {86, 0}, {89, 0}, {90, 'a'}};
  char text[256];
  for (size_t t = 0; t < sizeof types / sizeof *types; t++)
    for (size_t g = 0; g < sizeof tiles / sizeof *tiles; g++)
      for (int kb = 64; kb <= 128; kb += 64)
        for (int align = 4; align <= 16; align *= 2)
          for (size_t a = 0; a < sizeof archs / sizeof *archs; a++) {
            tcj_kernel_cfg c = base_cfg();
            c.ab = types[t].ab;
            c.c = types[t].c;
            c.bm = tiles[g].bm;
            c.bn = tiles[g].bn;
            c.warps_m = tiles[g].wm;
            c.warps_n = tiles[g].wn;
            c.bk = kb / ptx_elem_size(c.ab);
            c.align_a = c.align_b = align;
            /* Narrow copies are valid only with warp tiles up to 64x32 (checked below). */
            if (align < 16 && (c.bm / c.warps_m) * (c.bn / c.warps_n) > 64 * 32) continue;
            c.sm = archs[a].sm;
            c.arch_suffix = archs[a].suffix;
            c.stages = 3;
            const char *why = tcj_cfg_check(&c);
            if (why) {
              tcj_cfg_format(&c, text, sizeof text);
              print_error("rejected %s: %s\n", text, why);
            }
            assert_null(why);
          }
}

typedef void (*cfg_edit)(tcj_kernel_cfg *);
static void s8_with_f32(tcj_kernel_cfg *c) { c->ab = PTX_E_S8; c->bk = 64; c->c = PTX_E_F32; }
static void s8_with_f16(tcj_kernel_cfg *c) { c->ab = PTX_E_S8; c->bk = 64; c->c = PTX_E_F16; }
static void f16_with_s32(tcj_kernel_cfg *c) { c->c = PTX_E_S32; }
static void tf32_with_f16(tcj_kernel_cfg *c) { c->ab = PTX_E_TF32; c->bk = 16; c->c = PTX_E_F16; }
static void f32_operands(tcj_kernel_cfg *c) { c->ab = PTX_E_F32; c->bk = 16; }
static void s32_operands(tcj_kernel_cfg *c) { c->ab = PTX_E_S32; c->bk = 16; c->c = PTX_E_S32; }
static void bk_32_bytes(tcj_kernel_cfg *c) { c->bk = 16; }
static void bk_256_bytes(tcj_kernel_cfg *c) { c->bk = 128; }
static void bk_96_bytes(tcj_kernel_cfg *c) { c->bk = 48; }
static void s8_bk_32(tcj_kernel_cfg *c) { c->ab = PTX_E_S8; c->c = PTX_E_S32; c->bk = 32; }
static void stages_1(tcj_kernel_cfg *c) { c->stages = 1; }
static void stages_0(tcj_kernel_cfg *c) { c->stages = 0; }
static void stages_9(tcj_kernel_cfg *c) { c->stages = 9; }
static void sm_75(tcj_kernel_cfg *c) { c->sm = 75; }
static void recipe_1(tcj_kernel_cfg *c) { c->recipe = (ptx_recipe)7; }
static void warps_3(tcj_kernel_cfg *c) { c->warps_m = 3; }
static void warps_16(tcj_kernel_cfg *c) { c->warps_m = 4; c->warps_n = 4; c->bm = 256; }
static void warp_tile_8(tcj_kernel_cfg *c) { c->bm = 32; c->warps_m = 4; c->warps_n = 2; }
static void tile_512(tcj_kernel_cfg *c) { c->bn = 512; }
static void tile_96(tcj_kernel_cfg *c) { c->bn = 96; c->warps_n = 2; }
static void tile_16(tcj_kernel_cfg *c) { c->bm = 16; c->warps_m = 1; }
static void align_2(tcj_kernel_cfg *c) { c->align_a = 2; }
static void align_32(tcj_kernel_cfg *c) { c->align_b = 32; }
static void narrow_copy_64x64_warps(tcj_kernel_cfg *c) { c->align_a = 4; }
static void split_of_one(tcj_kernel_cfg *c) { c->split_k = 1; }
static void split_s8(tcj_kernel_cfg *c) { c->ab = PTX_E_S8; c->bk = 64; c->c = PTX_E_S32; c->split_k = 2; }
static void split_past_k(tcj_kernel_cfg *c) { c->k = 64; c->split_k = 4; } /* 2 K tiles, 4 slices */
static void too_few_chunks(tcj_kernel_cfg *c) { c->bm = 32; c->bn = 64; c->warps_m = 2; c->warps_n = 4; c->bk = 32; }
static void negative_n(tcj_kernel_cfg *c) { c->n = -1; }
static void huge_k(tcj_kernel_cfg *c) { c->k = (int64_t)INT32_MAX + 1; }

static void invalid_configs_are_rejected_with_a_reason(void **state) {
  (void)state;
  static const struct { const char *name; cfg_edit edit; const char *reason_has; } cases[] = {
    {"s8 with c f32", s8_with_f32, "s32"},
    {"s8 with c f16", s8_with_f16, "s32"},
    {"f16 with c s32", f16_with_s32, "16-bit"},
    {"tf32 with c f16", tf32_with_f16, "f32"},
    {"f32 operands", f32_operands, "operand"},
    {"s32 operands", s32_operands, "operand"},
    {"bk of 32 bytes", bk_32_bytes, "bk"},
    {"bk of 256 bytes", bk_256_bytes, "bk"},
    {"bk of 96 bytes", bk_96_bytes, "bk"},
    {"s8 bk of 32 bytes", s8_bk_32, "bk"},
    {"stages 1", stages_1, "stages"},
    {"stages 0", stages_0, "stages"},
    {"stages 9", stages_9, "stages"},
    {"sm_75", sm_75, "sm_80"},
    {"unknown recipe", recipe_1, "recipe"},
    {"3 warps", warps_3, "warp"},
    {"16 warps", warps_16, "warp"},
    {"warp tile 8 rows", warp_tile_8, "16x16"},
    {"bn 512", tile_512, "tile"},
    {"bn 96", tile_96, "tile"},
    {"bm 16", tile_16, "tile"},
    {"align 2", align_2, "align"},
    {"align 32", align_32, "align"},
    {"4-byte copies with 64x64 warp tiles", narrow_copy_64x64_warps, "narrower"},
    {"split_k of 1", split_of_one, "split_k"},
    {"split s8", split_s8, "s8"},
    {"more slices than K tiles", split_past_k, "slice"},
    {"tile smaller than one chunk per thread", too_few_chunks, "divide"},
    {"negative n", negative_n, "range"},
    {"k past int32", huge_k, "range"},
  };
  char text[256];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tcj_kernel_cfg c = base_cfg();
    assert_null(tcj_cfg_check(&c));
    cases[i].edit(&c);
    const char *why = tcj_cfg_check(&c);
    tcj_cfg_format(&c, text, sizeof text);
    if (!why) print_error("%s: accepted %s\n", cases[i].name, text);
    assert_non_null(why);
    if (!strstr(why, cases[i].reason_has))
      print_error("%s: reason \"%s\" does not mention \"%s\"\n", cases[i].name, why, cases[i].reason_has);
    assert_non_null(strstr(why, cases[i].reason_has));
  }
}

static void derived_facts_follow_the_tile(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg(); /* 128x256x32 f16, 4 stages, 2x4 warps */
  assert_int_equal(tcj_cfg_threads(&c), 256);
  assert_int_equal(tcj_cfg_smem_bytes(&c), 4 * (128 + 256) * 32 * 2);
  c.ab = PTX_E_S8;
  c.c = PTX_E_S32;
  c.bk = 64;
  c.stages = 3;
  c.warps_m = 1;
  assert_int_equal(tcj_cfg_threads(&c), 128);
  assert_int_equal(tcj_cfg_smem_bytes(&c), 3 * (128 + 256) * 64);
}

static void elem_names_and_sizes(void **state) {
  (void)state;
  static const struct { ptx_elem e; const char *name; int size; } want[] = {
    {PTX_E_F16, "f16", 2}, {PTX_E_BF16, "bf16", 2}, {PTX_E_TF32, "tf32", 4},
    {PTX_E_F32, "f32", 4}, {PTX_E_S8, "s8", 1},     {PTX_E_S32, "s32", 4}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    assert_string_equal(ptx_elem_name(want[i].e), want[i].name);
    assert_int_equal(ptx_elem_size(want[i].e), want[i].size);
  }
  assert_string_equal(ptx_elem_name(PTX_E_COUNT), "?");
  assert_int_equal(ptx_elem_size(PTX_E_COUNT), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(canonical_text_names_every_field),
    cmocka_unit_test(format_reports_a_buffer_too_small),
    cmocka_unit_test(format_then_parse_round_trips_over_a_grid),
    cmocka_unit_test(good_text_parses),
    cmocka_unit_test(every_truncation_is_rejected),
    cmocka_unit_test(trailing_junk_is_rejected),
    cmocka_unit_test(bad_names_and_letters_are_rejected),
    cmocka_unit_test(non_canonical_text_is_rejected),
    cmocka_unit_test(valid_configs_pass_the_check),
    cmocka_unit_test(invalid_configs_are_rejected_with_a_reason),
    cmocka_unit_test(derived_facts_follow_the_tile),
    cmocka_unit_test(elem_names_and_sizes),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
