/* SPDX-License-Identifier: Apache-2.0 */
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

#include "unit/sm90_fixture.h"
#include "unit/text_count.h"

#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"
#include "ptxgen/recipe.h"

static tcj_kernel_cfg base_cfg(void) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_SM80;
  c.sm = 80;
  c.ab = PTX_E_F16;
  c.c = c.d = PTX_E_F32;
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
  assert_int_equal(a->split_cluster, b->split_cluster);
  assert_int_equal(a->cluster_m, b->cluster_m);
  assert_int_equal(a->cluster_n, b->cluster_n);
  assert_int_equal(a->pingpong, b->pingpong);
  assert_int_equal(a->d, b->d);
  assert_int_equal(a->bias, b->bias);
  if (a->bias) assert_int_equal(a->bias_t, b->bias_t);
  assert_int_equal(a->act, b->act);
  assert_int_equal(a->batched, b->batched);
  assert_true(a->user == b->user);
  assert_int_equal(a->user_t, b->user_t);
  assert_int_equal(a->b_other, b->b_other);
  assert_int_equal(a->fast_accum, b->fast_accum);
  assert_int_equal(a->block_scale, b->block_scale);
  assert_int_equal(a->grouped, b->grouped);
}

/* A valid sm90 config: 2 consumer warpgroups of 64 rows, 2-CTA clusters, 8-element C stores. */
static tcj_kernel_cfg sm90_cfg(void) { return sm90_fixture_cfg(); }

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
  assert_int_equal((int)strlen(buf), n - 1); /* what fits, terminated, as snprintf leaves it */
  assert_int_equal(tcj_cfg_format(&c, buf, (size_t)n + 1), n);
  c.user = 0x00ab00000000cd01ULL; /* a user epilogue's hash: 16 hex digits, zero-padded */
  c.split_k = 3;
  assert_true(tcj_cfg_format(&c, buf, sizeof buf) > 0);
  assert_non_null(strstr(buf, " split=3 user=00ab00000000cd01"));
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
                    c.c = c.d = (ptx_elem)cc;
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
                    c.split_cluster = c.split_k && count % 2; /* syntax: on any arch */
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
            c.c = c.d = types[t].c;
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
static void tile_8(tcj_kernel_cfg *c) { c->bm = 8; c->warps_m = 1; }
static void tile_16_two_warp_rows(tcj_kernel_cfg *c) { c->bm = 16; c->warps_m = 2; c->warps_n = 4; }
/* Cluster splits: sm_90 and newer, 2..8 slices, the sm80 recipe. */
static void cluster_split_on_sm80(tcj_kernel_cfg *c) { c->split_k = 4; c->split_cluster = 1; }
static void cluster_split_of_9(tcj_kernel_cfg *c) { c->sm = 90; c->split_k = 9; c->split_cluster = 1; }
static void cluster_without_split(tcj_kernel_cfg *c) { c->sm = 90; c->split_cluster = 1; }
static void cluster_split_flag_2(tcj_kernel_cfg *c) { c->sm = 90; c->split_k = 4; c->split_cluster = 2; }
static void align_2(tcj_kernel_cfg *c) { c->align_a = 2; }
static void align_32(tcj_kernel_cfg *c) { c->align_b = 32; }
static void narrow_copy_64x64_warps(tcj_kernel_cfg *c) { c->align_a = 4; }
static void split_of_one(tcj_kernel_cfg *c) { c->split_k = 1; }
static void split_s8(tcj_kernel_cfg *c) { c->ab = PTX_E_S8; c->bk = 64; c->c = PTX_E_S32; c->split_k = 2; }
static void split_past_k(tcj_kernel_cfg *c) { c->k = 64; c->split_k = 4; } /* 2 K tiles, 4 slices */
static void too_few_chunks(tcj_kernel_cfg *c) { c->bm = 32; c->bn = 64; c->warps_m = 2; c->warps_n = 4; c->bk = 32; }
static void negative_n(tcj_kernel_cfg *c) { c->n = -1; }
static void huge_k(tcj_kernel_cfg *c) { c->k = (int64_t)INT32_MAX + 1; }

/* A cluster split puts the tile's fp32 partial sums in the idle ring: shared memory is the
 * larger of the two. */
static void cluster_split_shared_memory_holds_the_partial_sums(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg(); /* 128x256, 64-byte K tiles, 4 stages: a 96 KiB ring */
  c.sm = 90;
  c.split_k = 4;
  int ring = tcj_cfg_smem_bytes(&c);
  assert_int_equal(ring, 4 * (128 + 256) * 64);
  c.split_cluster = 1;
  assert_null(tcj_cfg_check(&c));
  assert_int_equal(tcj_cfg_smem_bytes(&c), 128 * 256 * 4); /* 128 KiB of partial sums */
  c.bm = 16;
  c.warps_m = 1;
  c.bn = 64;
  c.warps_n = 2;
  c.bk = 64;
  assert_null(tcj_cfg_check(&c));
  assert_int_equal(tcj_cfg_smem_bytes(&c), 4 * (16 + 64) * 128); /* the ring is larger */
}

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
    {"bm 8", tile_8, "tile"},
    {"bm 16 over two warp rows", tile_16_two_warp_rows, "16x16"},
    {"cluster split on sm_80", cluster_split_on_sm80, "sm_90"},
    {"cluster split of 9 slices", cluster_split_of_9, "2..8"},
    {"cluster split without a split", cluster_without_split, "2..8"},
    {"cluster split flag 2", cluster_split_flag_2, "flag"},
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

static void assert_rejected_for(const tcj_kernel_cfg *c, const char *reason_has);

/* The dmma recipe (f64): its text form, the tiles it takes and what it refuses. */
static tcj_kernel_cfg dmma_cfg(void) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = PTX_RECIPE_DMMA;
  c.sm = 90;
  c.arch_suffix = 'a';
  c.ab = c.c = c.d = PTX_E_F64;
  c.n = 4095;
  c.k = 4095;
  c.bm = c.bn = 128;
  c.bk = 16;
  c.warps_m = 2;
  c.warps_n = 4;
  c.stages = 4;
  c.align_a = c.align_b = 8;
  c.vec_c = 1;
  c.bias_t = PTX_E_F32;
  return c;
}

static void dmma_configs_round_trip_and_refuse_what_f64_lacks(void **state) {
  (void)state;
  tcj_kernel_cfg c = dmma_cfg(), back;
  assert_null(tcj_cfg_check(&c));
  char text[256];
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, "recipe=dmma"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_int_equal(back.recipe, PTX_RECIPE_DMMA);
  /* Shared memory: each stored tile's rows padded by 32 bytes (K-major A, MN-major B here). */
  assert_int_equal(tcj_cfg_smem_bytes(&c), 4 * (128 * (128 + 32) + 16 * (1024 + 32)));
  tcj_kernel_cfg e = c;
  e.c = e.d = PTX_E_F32;
  assert_rejected_for(&e, "f64 A, B, C and D");
  e = c;
  e.act = PTX_ACT_RELU;
  assert_rejected_for(&e, "no bias");
  e = c;
  e.split_k = 2;
  assert_rejected_for(&e, "K split");
  e = c;
  e.bk = 32;
  assert_rejected_for(&e, "16 elements");
  e = c;
  e.warps_n = 2; /* 64x64 warp tiles */
  assert_rejected_for(&e, "64x32");
  e = c;
  e.vec_c = 2; /* n odd */
  assert_rejected_for(&e, "even n");
  e = c;
  e.align_a = 4;
  assert_rejected_for(&e, "8 or 16 bytes");
  e = c;
  e.sm = 75;
  assert_rejected_for(&e, "sm_80");
  /* f64 on the other recipes: refused. */
  e = c;
  e.recipe = PTX_RECIPE_SM80;
  assert_rejected_for(&e, "dmma");
}

/* f64's generic form (n = k = 0, generic=1): valid on every arch the recipe runs, round-trips,
 * takes no K split at launch (no reduction entry: the dmma recipe sums each K in fp64 registers),
 * and its PTX reads n and k from p_n and p_k where the specialised kernel's bakes them; one text
 * whatever the problem. */
static void dmma_generic_config_reads_n_and_k_at_run_time(void **state) {
  (void)state;
  static const struct { int sm, suffix; } arches[] = {{80, 0}, {89, 0}, {90, 'a'}};
  for (size_t a = 0; a < sizeof arches / sizeof *arches; a++) {
    tcj_kernel_cfg spec = dmma_cfg(), c;
    spec.sm = arches[a].sm;
    spec.arch_suffix = arches[a].suffix;
    c = spec;
    c.n = c.k = 0;
    c.generic = 1;
    assert_null(tcj_cfg_check(&c));
    char text[256];
    tcj_kernel_cfg back;
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    assert_int_equal(tcj_cfg_parse(text, &back), 0);
    assert_cfg_equal(&c, &back);
    assert_false(tcj_cfg_splits_at_launch(&c));
    assert_false(ptx_has_reduce(&c));
    tcj_kernel_cfg form = tcj_cfg_kernel_form(&c);
    assert_cfg_equal(&form, &c);
    tcj_kernel_cfg bad = c;
    bad.split_k = 2;
    assert_rejected_for(&bad, "K split");
    bad = c;
    bad.k = 64;
    assert_string_equal(tcj_cfg_check(&bad), "a generic config has n = k = 0 (they are run-time arguments)");

    char *gen = NULL, *baked = NULL, err[256] = "";
    size_t glen = 0, blen = 0;
    if (ptx_gen_gemm(&c, &gen, &glen, err, sizeof err) != 0) fail_msg("generic dmma: %s", err);
    if (ptx_gen_gemm(&spec, &baked, &blen, err, sizeof err) != 0) fail_msg("specialised dmma: %s", err);
    assert_non_null(strstr(gen, "[p_n]"));
    assert_non_null(strstr(gen, "[p_k]"));
    assert_null(strstr(baked, "[p_n]"));
    assert_null(strstr(baked, "[p_k]"));
    assert_null(strstr(gen, PTX_REDUCE_ENTRY));
    free(gen);
    free(baked);
  }
}


/* 3xTF32 (x3=1): tf32 parts, K-major, in the text form; the sm80 recipe's warp tile at most
 * 64x32 (its partial sums beside the accumulators), the sm90 recipe's bn at most 128 (one
 * promotion chunk), and the sm90 recipe promotes them. */
static void x3_configs_round_trip_and_keep_their_limits(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg(), back;
  c.ab = PTX_E_TF32;
  c.bk = 32;
  c.bm = 128;
  c.bn = 128;
  c.tf32x3 = 1;
  assert_null(tcj_cfg_check(&c));
  char text[256];
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " x3=1"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_int_equal(back.tf32x3, 1);
  assert_false(tcj_cfg_promotes(&c)); /* sm80: partial sums per chunk, no promotion set */
  tcj_kernel_cfg e = c;
  e.bn = 256; /* 64x64 warp tiles */
  assert_rejected_for(&e, "3xTF32");
  e = c;
  e.ab = PTX_E_F16;
  e.bk = 32;
  assert_rejected_for(&e, "3xTF32");
  e = c;
  e.op_b_t = 0;
  assert_rejected_for(&e, "K-major");
  e = c;
  e.tf32x3 = 2;
  assert_rejected_for(&e, "flag");
  tcj_kernel_cfg s9 = sm90_cfg();
  s9.ab = PTX_E_TF32;
  s9.c = s9.d = PTX_E_F32;
  s9.bk = 32;
  s9.vec_c = 4;
  s9.cluster_m = 0;
  s9.tf32x3 = 1;
  assert_rejected_for(&s9, "bn 64 or 128"); /* 128x256 */
  s9.bn = 128;
  assert_null(tcj_cfg_check(&s9));
  assert_true(tcj_cfg_promotes(&s9));
  /* Text that says x3 of f16 operands is refused. */
  assert_int_equal(tcj_cfg_parse("recipe=sm80 arch=sm_80 ab=f16 c=f32 op=NT n=64 k=96 tile=128x128x32 warps=2x4 "
                                 "stages=4 align=16,16,2 x3=1", &back), 0);
  assert_non_null(tcj_cfg_check(&back));
}

/* tcj_cfg_check refuses c with a reason that mentions reason_has. */
static void assert_rejected_for(const tcj_kernel_cfg *c, const char *reason_has) {
  char text[256];
  const char *why = tcj_cfg_check(c);
  tcj_cfg_format(c, text, sizeof text);
  if (!why || !strstr(why, reason_has))
    print_error("%s: %s (wanted a reason with \"%s\")\n", text, why ? why : "accepted", reason_has);
  assert_non_null(why);
  assert_non_null(strstr(why, reason_has));
}

/* Grouped kernels (tcj_kernel_cfg.grouped): " group=N" round-trips for each mode; the sm80
 * recipe takes them (masked ones with A op T too), the sm90 recipe (ping-pong for M groups only),
 * and the check names what this slice refuses: the dmma recipe, batches, K splits, generic kernels, 3xTF32, block scales, operands other than
 * f16 / bf16, a row bias, a column-major call, and A op T with contiguous groups. */
static void grouped_configs_round_trip_and_refuse_what_groups_cannot_have(void **state) {
  (void)state;
  for (int mode = PTX_GROUP_ENDS32; mode <= PTX_GROUP_MASKED; mode++) {
    tcj_kernel_cfg c = base_cfg(), back;
    c.grouped = mode;
    c.bias = PTX_BIAS_COL;
    c.bias_t = PTX_E_BF16;
    c.act = PTX_ACT_GELU;
    char text[256], want[16];
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    snprintf(want, sizeof want, " group=%d", mode);
    assert_non_null(strstr(text, want));
    assert_int_equal(tcj_cfg_parse(text, &back), 0);
    assert_cfg_equal(&c, &back);
    const char *why = tcj_cfg_check(&c);
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    c.ab = PTX_E_BF16;
    assert_null(tcj_cfg_check(&c));
  }
  tcj_kernel_cfg c = base_cfg(), r;
  assert_int_equal(tcj_cfg_parse("recipe=sm80 arch=sm_80 ab=f16 c=f32 op=NT n=4096 k=4096 tile=128x256x32 warps=2x4 "
                                 "stages=4 align=16,16,2 group=6", &r), 0);
  assert_rejected_for(&r, "group must be");
  /* K groups (group=4, 5): K is the row of both operands, A op T and B op N only. */
  for (int mode = PTX_GROUP_K_ENDS32; mode <= PTX_GROUP_K_ENDS64; mode++) {
    tcj_kernel_cfg kc = base_cfg(), back;
    kc.grouped = mode;
    char text[256];
    assert_true(tcj_cfg_format(&kc, text, sizeof text) > 0);
    assert_int_equal(tcj_cfg_parse(text, &back), 0);
    assert_cfg_equal(&kc, &back);
    assert_rejected_for(&kc, "A op T and B op N"); /* the fixture is NT */
    kc.op_a_t = 1;
    kc.op_b_t = 0;
    kc.k = 0; /* the kernel reads its K range: selection leaves k 0 */
    assert_null(tcj_cfg_check(&kc));
  }
  c.grouped = PTX_GROUP_MASKED;
  c.op_a_t = 1; /* a masked entry starts where the batch's stride puts it */
  assert_null(tcj_cfg_check(&c));
  c.grouped = PTX_GROUP_ENDS32;
  assert_rejected_for(&c, "A op N");
  c.grouped = PTX_GROUP_ENDS64;
  assert_rejected_for(&c, "A op N");
  c = base_cfg();
  c.grouped = PTX_GROUP_ENDS32;
  r = c; r.batched = 1; assert_rejected_for(&r, "not batched");
  r = c; r.split_k = 2; assert_rejected_for(&r, "do not split K");
  r = c; r.sm = 90; r.split_k = 2; r.split_cluster = 1; assert_rejected_for(&r, "do not split K");
  r = c; r.generic = 1; r.n = r.k = 0; assert_rejected_for(&r, "not generic");
  r = c; r.ab = PTX_E_TF32; r.bk = 16; r.op_a_t = 0; r.tf32x3 = 1; assert_rejected_for(&r, "3xTF32");
  r = c; r.ab = PTX_E_TF32; r.bk = 16; assert_rejected_for(&r, "f16, bf16, e4m3 or e5m2");
  r = c; r.ab = PTX_E_S8; r.bk = 64; r.c = r.d = PTX_E_S32; assert_rejected_for(&r, "f16, bf16, e4m3 or e5m2");
  r = c; r.sm = 89; r.ab = PTX_E_E4M3; r.bk = 64; r.c = r.d = PTX_E_BF16; assert_null(tcj_cfg_check(&r)); /* fp8 groups */
  r = c; r.sm = 89; r.ab = PTX_E_E4M3; r.bk = 64; r.c = r.d = PTX_E_BF16; r.block_scale = 1; assert_rejected_for(&r, "block scales");
  r = c; r.bias = PTX_BIAS_ROW; r.bias_t = PTX_E_F32; assert_rejected_for(&r, "column bias");
  r = c; r.user = 0x1234; r.user_t = 1; assert_rejected_for(&r, "row-major");
  r = c; r.n = 0; assert_rejected_for(&r, "n >= 1");
  /* The sm90 row takes groups with cooperative consumers (each cluster finds its own units'
   * groups): every mode, both op pairs it reads, a fused epilogue, D in f32; clusters along M
   * for the M modes without pointer arrays or gathers (a pair of tile rows of one group per
   * unit); it refuses clusters along N and ping-pong, and the common rules still apply. */
  tcj_kernel_cfg s = sm90_cfg();
  assert_null(tcj_cfg_check(&s));
  s.grouped = PTX_GROUP_ENDS32;
  assert_null(tcj_cfg_check(&s)); /* the fixture's cluster_m = 2 */
  assert_int_equal(tcj_cfg_group_unit_rows(&s), 2 * s.bm);
  s.grouped = PTX_GROUP_MASKED;
  assert_null(tcj_cfg_check(&s));
  s.b_ptrs = 1;
  assert_rejected_for(&s, "clusters");
  s.b_ptrs = 0;
  s.grouped = PTX_GROUP_ENDS32;
  s.cluster_m = 0;
  assert_int_equal(tcj_cfg_group_unit_rows(&s), s.bm);
  for (int mode = PTX_GROUP_ENDS32; mode <= PTX_GROUP_MASKED; mode++) {
    tcj_kernel_cfg g = s;
    g.grouped = mode;
    assert_null(tcj_cfg_check(&g));
    g.op_b_t = 0;
    g.bias = PTX_BIAS_COL;
    g.bias_t = PTX_E_BF16;
    g.act = PTX_ACT_GELU;
    assert_null(tcj_cfg_check(&g));
    g.c = g.d = PTX_E_F32;
    g.vec_c = 4;
    assert_null(tcj_cfg_check(&g));
  }
  tcj_kernel_cfg r9 = s;
  r9.cluster_n = 2;
  r9.bn = 128;
  r9.grouped = 0;
  assert_null(tcj_cfg_check(&r9)); /* a cluster along N without groups is fine */
  r9.grouped = PTX_GROUP_MASKED;
  assert_rejected_for(&r9, "along M only");
  r9 = s;
  r9.grouped = 0;
  r9.bm = 64;
  r9.pingpong = 1; /* two 64 x 256 tiles, one per consumer */
  assert_null(tcj_cfg_check(&r9));
  /* M groups take ping-pong consumers (each its own tiles, as a dense kernel's); K groups
   * (each tile its own depth) and pairs of tile rows do not. */
  r9.grouped = PTX_GROUP_ENDS64;
  assert_null(tcj_cfg_check(&r9));
  r9.grouped = PTX_GROUP_MASKED;
  assert_null(tcj_cfg_check(&r9));
  r9.cluster_m = 2;
  assert_rejected_for(&r9, "ping-pong takes M groups");
  r9.cluster_m = 0;
  r9.grouped = PTX_GROUP_K_ENDS32;
  r9.op_a_t = 1;
  r9.op_b_t = 0;
  r9.k = 0;
  assert_rejected_for(&r9, "ping-pong takes M groups");
  r9 = s;
  r9.split_k = 2;
  assert_rejected_for(&r9, "split");
  r9 = s;
  r9.ab = PTX_E_TF32;
  r9.c = r9.d = PTX_E_F32;
  r9.bk = 32;
  r9.vec_c = 4;
  assert_rejected_for(&r9, "f16, bf16, e4m3 or e5m2");
  tcj_kernel_cfg d = dmma_cfg();
  assert_null(tcj_cfg_check(&d));
  d.grouped = PTX_GROUP_MASKED;
  assert_rejected_for(&d, "f16, bf16, e4m3 or e5m2");
  const char *why = ptx_recipe_of(&d)->check(&d);
  assert_non_null(why);
  assert_non_null(strstr(why, "sm80 recipe"));
}

/* Fields parsed from text may hold any int: the check must say no to huge tiles and warp grids
 * without overflowing on the way (found by tests/fuzz/fuzz_cfg). bk = 2^30 + 16 tf32 elements
 * is 2^32 + 64 bytes, which a 32-bit product wraps to an accepted 64; a 2^16 x 2^16 warp grid
 * wraps to 0 warps. */
static void huge_tile_fields_are_rejected_without_overflow(void **state) {
  (void)state;
  tcj_kernel_cfg c;
  assert_int_equal(tcj_cfg_parse("recipe=sm80 arch=sm_89 ab=tf32 c=f32 op=NN n=5 k=95 tile=128x128x1111111116 "
                                 "warps=1x4 stages=4 align=16,16,1",
                                 &c),
                   0);
  assert_rejected_for(&c, "bk");
  c = base_cfg();
  c.ab = PTX_E_TF32;
  c.c = c.d = PTX_E_F32;
  c.bk = (1 << 30) + 16;
  assert_rejected_for(&c, "bk");
  c.bk = INT32_MAX;
  assert_rejected_for(&c, "bk");
  c = base_cfg();
  c.warps_m = c.warps_n = 1 << 16;
  assert_rejected_for(&c, "warp grid");
  c.warps_m = 1 << 30;
  c.warps_n = 2;
  assert_rejected_for(&c, "warp grid");
}

/* The sm80 recipe keeps 32 copy destinations per thread and operand: f16 B of a 128x64 tile in
 * 4-byte copies among 64 threads needs 64 (found by fuzzing the generator with checked configs). */
static void narrow_copies_of_a_deep_tile_are_rejected(void **state) {
  (void)state;
  tcj_kernel_cfg c;
  assert_int_equal(tcj_cfg_parse("recipe=sm80 arch=sm_80 ab=f16 c=f16 op=NT n=4 k=496 tile=32x128x64 warps=1x2 "
                                 "stages=2 align=16,4,2 split=4",
                                 &c),
                   0);
  assert_rejected_for(&c, "32 copies per thread");
  c.align_b = 8; /* 32 copies: the most the recipe holds */
  assert_null(tcj_cfg_check(&c));
  c.align_b = 4;
  c.bn = 64; /* 32 copies of B; A's 32x64 tile in 16-byte copies is 4 */
  assert_null(tcj_cfg_check(&c));
}

static void derived_facts_follow_the_tile(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg(); /* 128x256x32 f16, 4 stages, 2x4 warps */
  assert_int_equal(tcj_cfg_threads(&c), 256);
  assert_int_equal(tcj_cfg_smem_bytes(&c), 4 * (128 + 256) * 32 * 2);
  c.ab = PTX_E_S8;
  c.c = c.d = PTX_E_S32;
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

/* ---- The sm90 recipe ---- */

static const char *sm90_text = "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=4096 k=4096 "
                               "tile=128x256x64 warps=2x1 stages=4 align=16,16,8 cluster=2";

static void sm90_text_names_the_recipe_and_the_cluster(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg(), p;
  char buf[256];
  int n = tcj_cfg_format(&c, buf, sizeof buf);
  assert_string_equal(buf, sm90_text);
  assert_int_equal(n, (int)strlen(sm90_text));
  memset(&p, 0x5a, sizeof p);
  assert_int_equal(tcj_cfg_parse(sm90_text, &p), 0);
  assert_cfg_equal(&c, &p);
  /* No cluster: the field is absent, so the text of a config without one is the same as
   * before clusters existed. */
  c.cluster_m = 0;
  assert_true(tcj_cfg_format(&c, buf, sizeof buf) > 0);
  assert_string_equal(buf, "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=4096 k=4096 "
                           "tile=128x256x64 warps=2x1 stages=4 align=16,16,8");
  assert_int_equal(tcj_cfg_parse(buf, &p), 0);
  assert_cfg_equal(&c, &p);
  assert_string_equal(tcj_recipe_name(PTX_RECIPE_SM80), "sm80");
  assert_string_equal(tcj_recipe_name(PTX_RECIPE_SM90), "sm90");
  assert_string_equal(tcj_recipe_name((ptx_recipe)7), "?");
}

static void sm90_format_then_parse_round_trips_over_a_grid(void **state) {
  (void)state;
  static const struct { int bm, bn, wm; } tiles[] = {
    {128, 256, 2}, {256, 128, 2}, {128, 128, 2}, {128, 64, 2}, {64, 128, 1}, {64, 64, 1}, {128, 128, 1}, {64, 256, 1}};
  static const ptx_elem abs[] = {PTX_E_F16, PTX_E_BF16};
  static const ptx_elem cs[] = {PTX_E_F16, PTX_E_BF16, PTX_E_F32};
  static const struct { int64_t n, k; } sizes[] = {{4096, 4096}, {1000, 999}, {999, 1000}, {0, 1}, {INT32_MAX, INT32_MAX}};
  static const int vecs[] = {1, 2, 4, 8};
  static const int clusters[] = {0, 2, 4};
  char buf[256], again[256];
  long count = 0, with_cluster = 0, with_pingpong = 0, with_both = 0;
  for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++)
    for (size_t a = 0; a < 2; a++)
      for (size_t cc = 0; cc < 3; cc++)
        for (int op = 0; op < 4; op++)
          for (int stages = 2; stages <= 8; stages++)
            for (size_t v = 0; v < 4; v++)
              for (size_t cl = 0; cl < 3; cl++)
                for (int pp = 0; pp < 2; pp++) {
                  tcj_kernel_cfg c = sm90_cfg(), p;
                  c.bm = tiles[t].bm;
                  c.bn = tiles[t].bn;
                  c.warps_m = tiles[t].wm;
                  c.ab = abs[a];
                  c.c = c.d = cs[cc];
                  c.op_a_t = op >> 1;
                  c.op_b_t = op & 1;
                  c.stages = stages;
                  c.vec_c = vecs[v];
                  c.cluster_m = clusters[cl];
                  c.pingpong = pp;
                  c.n = sizes[count % 5].n;
                  c.k = sizes[count % 5].k;
                  /* The text is syntax: a split clustered sm90 config is invalid but still has one text,
                   * with split before cluster and cluster before pingpong. */
                  c.split_k = count % 7 == 0 ? 3 : 0;
                  int n = tcj_cfg_format(&c, buf, sizeof buf);
                  assert_true(n > 0);
                  assert_int_equal(strncmp(buf, "recipe=sm90 ", 12), 0);
                  assert_int_equal(strstr(buf, " cluster=") != NULL, c.cluster_m != 0);
                  /* pingpong is the last field when present. */
                  const char *pp_at = strstr(buf, " pingpong=");
                  assert_int_equal(pp_at != NULL, pp);
                  if (pp) assert_string_equal(pp_at, " pingpong=1");
                  memset(&p, 0x5a, sizeof p);
                  if (tcj_cfg_parse(buf, &p) != 0) print_error("did not parse: %s\n", buf);
                  assert_int_equal(tcj_cfg_parse(buf, &p), 0);
                  assert_cfg_equal(&c, &p);
                  assert_int_equal(tcj_cfg_format(&p, again, sizeof again), n);
                  assert_string_equal(again, buf);
                  count++;
                  with_cluster += c.cluster_m != 0;
                  with_pingpong += pp;
                  with_both += pp && c.cluster_m != 0;
                }
  assert_true(count > 30000);
  assert_true(with_cluster > 20000);
  assert_true(with_pingpong > 15000);
  assert_true(with_both > 10000);
}

/* sm90_text with the first occurrence of `from` replaced by `to`. */
static void expect_sm90_rejected_edit(const char *from, const char *to) {
  char buf[256];
  const char *at = strstr(sm90_text, from);
  assert_non_null(at);
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - sm90_text), sm90_text, to, at + strlen(from));
  expect_rejected(buf);
}

/* One config, one text: a cluster of 1 or 0 is written as no field, and fields come in format
 * order. */
static void sm90_non_canonical_text_is_rejected(void **state) {
  (void)state;
  expect_sm90_rejected_edit(" cluster=2", " cluster=1");
  expect_sm90_rejected_edit(" cluster=2", " cluster=0");
  expect_sm90_rejected_edit(" cluster=2", " cluster=02");
  expect_sm90_rejected_edit(" cluster=2", " cluster=+2");
  expect_sm90_rejected_edit(" cluster=2", " cluster= 2");
  expect_sm90_rejected_edit(" cluster=2", " cluster=-2");
  expect_sm90_rejected_edit(" cluster=2", "  cluster=2");
  expect_sm90_rejected_edit(" cluster=2", " cluster=");
  expect_sm90_rejected_edit(" cluster=2", " cluster");
  expect_sm90_rejected_edit(" cluster=2", " clusters=2");
  expect_sm90_rejected_edit(" cluster=2", " cluster=2 cluster=2");
  expect_sm90_rejected_edit(" cluster=2", " cluster=2 split=3");
  expect_sm90_rejected_edit(" cluster=2", " split=1 cluster=2");
  expect_sm90_rejected_edit(" cluster=2", " split=0 cluster=2");
  expect_sm90_rejected_edit("recipe=sm90", "recipe=SM90");
  expect_sm90_rejected_edit("recipe=sm90", "recipe=sm90a");
  expect_sm90_rejected_edit("recipe=sm90", "recipe=sm9");
  expect_sm90_rejected_edit("recipe=sm90", "recipe=");
  expect_sm90_rejected_edit("recipe=sm90 ", "");
  expect_sm90_rejected_edit("align=16,16,8", "align=16,16,16");
  expect_sm90_rejected_edit("align=16,16,8", "align=16,16,08");
  /* Split before cluster is the canonical order, and parses. */
  char buf[256];
  const char *at = strstr(sm90_text, " cluster=2");
  snprintf(buf, sizeof buf, "%.*s split=3 cluster=2", (int)(at - sm90_text), sm90_text);
  tcj_kernel_cfg p;
  assert_int_equal(tcj_cfg_parse(buf, &p), 0);
  assert_int_equal(p.split_k, 3);
  assert_int_equal(p.cluster_m, 2);
}

static void sm90_trailing_junk_is_rejected(void **state) {
  (void)state;
  static const char *junk[] = {" ", "x", "\n", ".0", "x2", " cluster=2", " split=3", ",1", ";", "\t"};
  char buf[256];
  for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
    snprintf(buf, sizeof buf, "%s%s", sm90_text, junk[i]);
    expect_rejected(buf);
  }
}

/* Every prefix is rejected but one: cut just before " cluster=2" it is the canonical text of
 * the same config without a cluster. */
static void sm90_truncations_are_rejected_but_the_one_without_the_optional_field(void **state) {
  (void)state;
  size_t len = strlen(sm90_text), optional_at = (size_t)(strstr(sm90_text, " cluster=2") - sm90_text);
  char buf[256];
  for (size_t i = 0; i < len; i++) {
    memcpy(buf, sm90_text, i);
    buf[i] = 0;
    if (i != optional_at) {
      expect_rejected(buf);
      continue;
    }
    tcj_kernel_cfg p, want = sm90_cfg();
    want.cluster_m = 0;
    assert_int_equal(tcj_cfg_parse(buf, &p), 0);
    assert_cfg_equal(&want, &p);
  }
}

/* Tiles the sm90 recipe runs: consumers of 64 or 128 rows, at most 128 accumulators each. */
static const struct { int bm, bn, wm; } sm90_tiles[] = {
  {128, 256, 2}, {256, 128, 2}, {128, 128, 2}, {128, 64, 2}, {128, 192, 2}, {256, 64, 2},
  {64, 64, 1}, {64, 128, 1}, {64, 192, 1}, {64, 256, 1}, {128, 64, 1}, {128, 128, 1}};

/* Every config of the grid (types, op pairs, stages, C vectors, clusters, sizes) over the
 * given tiles must pass tcj_cfg_check. base sets what the tiles leave open (consumers, pingpong).
 * Returns the configs checked; *clustered counts those with cluster=2. */
static long check_sm90_grid(tcj_kernel_cfg base, const int (*tiles)[3], size_t ntiles, long *clustered) {
  static const ptx_elem abs[] = {PTX_E_F16, PTX_E_BF16};
  static const ptx_elem cs[] = {PTX_E_F16, PTX_E_BF16, PTX_E_F32};
  static const int64_t ns[] = {4096, 1000, 999, 0, INT32_MAX};
  static const int64_t ks[] = {4096, 999, 1, INT32_MAX};
  char text[256];
  long count = 0;
  *clustered = 0;
  for (size_t t = 0; t < ntiles; t++)
    for (size_t a = 0; a < 2; a++)
      for (size_t cc = 0; cc < 3; cc++)
        for (int op = 0; op < 4; op++)
          for (int stages = 2; stages <= 8; stages++)
            for (int vec = 1; vec <= 8; vec *= 2)
              for (int cluster = 0; cluster <= 2; cluster += 2)
                for (size_t s = 0; s < sizeof ns / sizeof *ns; s++) {
                  tcj_kernel_cfg c = base;
                  c.bm = tiles[t][0];
                  c.bn = tiles[t][1];
                  c.warps_m = tiles[t][2];
                  c.ab = abs[a];
                  c.c = c.d = cs[cc];
                  c.op_a_t = op >> 1;
                  c.op_b_t = op & 1;
                  c.stages = stages;
                  c.vec_c = vec;
                  c.cluster_m = cluster;
                  c.n = ns[s];
                  c.k = ks[(size_t)count % (sizeof ks / sizeof *ks)];
                  if (vec * ptx_elem_size(c.c) > 16 || c.n % vec) continue;
                  if (cluster && c.bn % 128) continue;
                  const char *why = tcj_cfg_check(&c);
                  if (why) {
                    tcj_cfg_format(&c, text, sizeof text);
                    print_error("rejected %s: %s\n", text, why);
                  }
                  assert_null(why);
                  count++;
                  *clustered += cluster != 0;
                }
  return count;
}

/* Pairs along N share A: its half per CTA is whole rows (K-major) or whole 64-column boxes
 * (MN-major); not beside a pair along M, nor on the sm80 recipe; the text keeps it. */
static void sm90_pairs_along_n_rules(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg();
  c.cluster_m = 0;
  c.cluster_n = 2;
  c.bn = 64;
  for (int bm = 64; bm <= 128; bm *= 2) {
    c.bm = bm;
    c.warps_m = bm / 64;
    c.op_a_t = 0;
    assert_null(tcj_cfg_check(&c));
    c.op_a_t = 1; /* MN-major A: a 64-row tile is one box, which does not halve */
    if (bm == 64) assert_string_equal(tcj_cfg_check(&c), "a cluster along N splits A in parts: whole 8-row swizzle atoms (K-major) or 64-column boxes (MN-major) each");
    else assert_null(tcj_cfg_check(&c));
  }
  char text[256];
  tcj_kernel_cfg back;
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " cluster_n=2"));
  assert_null(strstr(text, " cluster=2"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_cfg_equal(&c, &back);
  assert_int_equal(tcj_cfg_cluster_ctas(&c), 2);
  /* Four along N: a quarter of A each, 32 rows of 128 when K-major; MN-major needs 4 boxes. */
  c.cluster_n = 4;
  c.op_a_t = 0;
  assert_null(tcj_cfg_check(&c));
  assert_int_equal(tcj_cfg_cluster_ctas(&c), 4);
  c.op_a_t = 1;
  assert_non_null(tcj_cfg_check(&c));
  c.op_a_t = 0;
  c.cluster_n = 3;
  assert_string_equal(tcj_cfg_check(&c), "cluster_n must be 0 (none), 2 or 4");
  c.cluster_n = 2;
  c.bn = 128;
  c.cluster_m = 2;
  assert_string_equal(tcj_cfg_check(&c), "a cluster runs along M or along N, not both");
  c.cluster_m = 0;
  c.cluster_n = 0;
  assert_int_equal(tcj_cfg_cluster_ctas(&c), 1);
}

/* Split-K on sm90: cooperative tiles, alone or in cluster pairs, every slice with K to run. */
static void sm90_split_k_rules(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg();
  c.cluster_m = 0;
  c.k = 65536;
  static const int ok[] = {2, 3, 4, 7, 8, 16, 32, 64}; /* 1024 K tiles: every slice has some */
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    c.split_k = ok[i];
    assert_null(tcj_cfg_check(&c));
  }
  c.split_k = 63; /* 17 K tiles a slice: the 63rd would start past the 1024th */
  assert_string_equal(tcj_cfg_check(&c), "split_k leaves a slice without K");
  c.split_k = 65;
  assert_string_equal(tcj_cfg_check(&c), "split_k must be 0 (none) or 2..64");
  c.split_k = 1;
  assert_string_equal(tcj_cfg_check(&c), "split_k must be 0 (none) or 2..64");
  c.split_k = 4;
  c.k = 128; /* 2 K tiles for 4 slices */
  assert_string_equal(tcj_cfg_check(&c), "split_k leaves a slice without K");
  c.k = 4096;
  c.cluster_m = 2; /* both CTAs of a pair run the same (tile pair, slice) units */
  assert_null(tcj_cfg_check(&c));
  c.cluster_m = 0;
  c.bm = 64;
  c.pingpong = 1;
  assert_string_equal(tcj_cfg_check(&c), "sm90 split-K runs cooperative consumers, not ping-pong");
  c.bm = 128;
  c.pingpong = 0;
  c.split_cluster = 1; /* the sm80 recipe's cluster reduction only */
  assert_string_equal(tcj_cfg_check(&c), "the sm90 recipe reduces its slices through the workspace");
}

static void sm90_valid_configs_pass_the_check(void **state) {
  (void)state;
  int tiles[sizeof sm90_tiles / sizeof *sm90_tiles][3];
  for (size_t t = 0; t < sizeof sm90_tiles / sizeof *sm90_tiles; t++) {
    tiles[t][0] = sm90_tiles[t].bm;
    tiles[t][1] = sm90_tiles[t].bn;
    tiles[t][2] = sm90_tiles[t].wm;
  }
  long clustered;
  assert_true(check_sm90_grid(sm90_cfg(), (const int (*)[3])tiles, sizeof tiles / sizeof *tiles, &clustered) > 10000);
}

static void sm90_arch_sm_90(tcj_kernel_cfg *c) { c->arch_suffix = 0; }
static void sm90_arch_sm_89(tcj_kernel_cfg *c) { c->sm = 89; c->arch_suffix = 0; }
static void sm90_arch_sm_100a(tcj_kernel_cfg *c) { c->sm = 100; }
static void sm90_arch_sm_80a(tcj_kernel_cfg *c) { c->sm = 80; }
/* tf32 with B MN-major (op N): wgmma reads tf32 K-major only. */
static void sm90_ab_tf32(tcj_kernel_cfg *c) { c->ab = PTX_E_TF32; c->c = c->d = PTX_E_F32; c->vec_c = 4; c->bk = 32; c->op_b_t = 0; }
/* s8 with 64-element K tiles: half a swizzle line. */
static void sm90_ab_s8(tcj_kernel_cfg *c) { c->ab = PTX_E_S8; c->c = c->d = PTX_E_S32; c->vec_c = 4; }
static void sm90_ab_f32(tcj_kernel_cfg *c) { c->ab = PTX_E_F32; c->c = PTX_E_F32; c->vec_c = 4; }
static void sm90_c_s32(tcj_kernel_cfg *c) { c->c = PTX_E_S32; c->vec_c = 4; }
static void sm90_c_tf32(tcj_kernel_cfg *c) { c->c = PTX_E_TF32; c->vec_c = 4; }
static void sm90_n_negative(tcj_kernel_cfg *c) { c->n = -8; }
static void sm90_n_past_int32(tcj_kernel_cfg *c) { c->n = (int64_t)INT32_MAX + 1; c->vec_c = 1; }
static void sm90_k_zero(tcj_kernel_cfg *c) { c->k = 0; }
static void sm90_k_past_int32(tcj_kernel_cfg *c) { c->k = (int64_t)INT32_MAX + 1; }
static void sm90_bk_32(tcj_kernel_cfg *c) { c->bk = 32; }
static void sm90_bk_128(tcj_kernel_cfg *c) { c->bk = 128; }
static void sm90_warps_n_2(tcj_kernel_cfg *c) { c->warps_m = 1; c->warps_n = 2; }
static void sm90_warps_3(tcj_kernel_cfg *c) { c->warps_m = 3; c->bm = 192; }
static void sm90_warps_3_rows_128(tcj_kernel_cfg *c) { c->warps_m = 3; c->bm = 384; c->bn = 128; }
static void sm90_warps_4(tcj_kernel_cfg *c) { c->warps_m = 4; c->bm = 256; c->bn = 128; }
static void sm90_warps_0(tcj_kernel_cfg *c) { c->warps_m = 0; }
static void sm90_rows_96(tcj_kernel_cfg *c) { c->bm = 192; c->bn = 128; }
static void sm90_rows_32(tcj_kernel_cfg *c) { c->bm = 64; }
static void sm90_rows_256(tcj_kernel_cfg *c) { c->bm = 256; c->warps_m = 1; c->bn = 64; c->cluster_m = 0; }
static void sm90_bm_odd_split(tcj_kernel_cfg *c) { c->bm = 129; }
static void sm90_bn_32(tcj_kernel_cfg *c) { c->bn = 32; c->cluster_m = 0; }
static void sm90_bn_96(tcj_kernel_cfg *c) { c->bn = 96; c->cluster_m = 0; }
static void sm90_bn_320(tcj_kernel_cfg *c) { c->bn = 320; c->cluster_m = 0; }
static void sm90_accum_128x256(tcj_kernel_cfg *c) { c->bm = 128; c->warps_m = 1; }
static void sm90_accum_256x192(tcj_kernel_cfg *c) { c->bm = 256; c->bn = 192; c->cluster_m = 0; }
static void sm90_stages_1(tcj_kernel_cfg *c) { c->stages = 1; }
static void sm90_stages_9(tcj_kernel_cfg *c) { c->stages = 9; }
static void sm90_align_a_8(tcj_kernel_cfg *c) { c->align_a = 8; }
static void sm90_align_b_4(tcj_kernel_cfg *c) { c->align_b = 4; }
static void sm90_vec_3(tcj_kernel_cfg *c) { c->vec_c = 3; }
static void sm90_vec_16(tcj_kernel_cfg *c) { c->vec_c = 16; }
static void sm90_vec_32_bytes(tcj_kernel_cfg *c) { c->c = PTX_E_F32; c->vec_c = 8; }
static void sm90_vec_not_dividing_n(tcj_kernel_cfg *c) { c->n = 4092; }
static void sm90_vec_2_odd_n(tcj_kernel_cfg *c) { c->vec_c = 2; c->n = 999; }
static void sm90_cluster_1(tcj_kernel_cfg *c) { c->cluster_m = 1; }
static void sm90_cluster_8(tcj_kernel_cfg *c) { c->cluster_m = 8; }
static void sm90_cluster_negative(tcj_kernel_cfg *c) { c->cluster_m = -2; }
static void sm90_cluster_bn_64(tcj_kernel_cfg *c) { c->bn = 64; }
static void sm90_cluster_bn_192_mn_major(tcj_kernel_cfg *c) { c->bm = 128; c->bn = 192; c->warps_m = 2; c->op_b_t = 0; }
static void sm90_unknown_recipe(tcj_kernel_cfg *c) { c->recipe = (ptx_recipe)3; }

/* Each case breaks one rule of check_sm90 and must be refused with that rule's own reason
 * (the whole string, so a case that trips an earlier rule fails). */
static void sm90_each_rule_rejects_with_its_reason(void **state) {
  (void)state;
  static const char *const arch = "the sm90 recipe needs sm_90a (wgmma)", *const ab = "the sm90 recipe takes f16, bf16, tf32, s8, e4m3 or e5m2 operands",
                           *const kmajor = "sm90 tf32, s8 and fp8 read both operands K-major (A op N, B op T)",
                           *const cc = "16-bit operands need c f16, bf16 or f32", *const range = "n or k out of range (sm90 needs k >= 1)",
                           *const bk = "sm90 K tiles are one 128-byte swizzle line",
                           *const warps = "sm90 runs 1, 2 or 3 consumer warpgroups along M",
                           *const three = "three sm90 consumers own 64 rows of at most 128 columns each (192x64, 192x128)",
                           *const rows = "each sm90 consumer owns 64 or 128 rows", *const bn = "sm90 bn must be 64, 128, 192 or 256",
                           *const accum = "accumulators exceed 128 registers per thread", *const stages = "stages must be 2..8",
                           *const align = "TMA needs 16-byte aligned operands",
                           *const vec = "C vector must be 1, 2, 4 or 8 elements, at most 16 bytes, dividing n",
                           *const cluster = "cluster must be 0 (none), 2 or 4",
                           *const half = "a cluster along M splits B in parts: bn 128 or more, whole 8-row swizzle atoms (K-major) or 64-column boxes (MN-major) each";
  static const struct { const char *name; cfg_edit edit; const char *const *reason; } cases[] = {
    {"sm_90 without the a suffix", sm90_arch_sm_90, &arch},
    {"sm_89", sm90_arch_sm_89, &arch},
    {"sm_100a (no wgmma)", sm90_arch_sm_100a, &arch},
    {"sm_80a", sm90_arch_sm_80a, &arch},
    {"tf32 with B MN-major", sm90_ab_tf32, &kmajor},
    {"s8 in 64-element K tiles", sm90_ab_s8, &bk},
    {"f32 operands", sm90_ab_f32, &ab},
    {"c s32", sm90_c_s32, &cc},
    {"c tf32", sm90_c_tf32, &cc},
    {"negative n", sm90_n_negative, &range},
    {"n past int32", sm90_n_past_int32, &range},
    {"k of 0", sm90_k_zero, &range},
    {"k past int32", sm90_k_past_int32, &range},
    {"bk 32", sm90_bk_32, &bk},
    {"bk 128", sm90_bk_128, &bk},
    {"consumers along N", sm90_warps_n_2, &warps},
    {"3 consumers of 64 x 256", sm90_warps_3, &three},
    {"3 consumers of 128 x 128", sm90_warps_3_rows_128, &three},
    {"4 consumers", sm90_warps_4, &warps},
    {"0 consumers", sm90_warps_0, &warps},
    {"consumer of 96 rows", sm90_rows_96, &rows},
    {"consumer of 32 rows", sm90_rows_32, &rows},
    {"consumer of 256 rows", sm90_rows_256, &rows},
    {"bm not divisible by the consumers", sm90_bm_odd_split, &rows},
    {"bn 32", sm90_bn_32, &bn},
    {"bn 96", sm90_bn_96, &bn},
    {"bn 320", sm90_bn_320, &bn},
    {"128 rows x 256 columns per consumer", sm90_accum_128x256, &accum},
    {"128 rows x 192 columns per consumer", sm90_accum_256x192, &accum},
    {"stages 1", sm90_stages_1, &stages},
    {"stages 9", sm90_stages_9, &stages},
    {"8-byte aligned A", sm90_align_a_8, &align},
    {"4-byte aligned B", sm90_align_b_4, &align},
    {"vec 3", sm90_vec_3, &vec},
    {"vec 16", sm90_vec_16, &vec},
    {"8 f32 per store (32 bytes)", sm90_vec_32_bytes, &vec},
    {"vec 8 with n 4092", sm90_vec_not_dividing_n, &vec},
    {"vec 2 with n 999", sm90_vec_2_odd_n, &vec},
    {"cluster 1", sm90_cluster_1, &cluster},
    {"cluster 8", sm90_cluster_8, &cluster},
    {"cluster -2", sm90_cluster_negative, &cluster},
    {"cluster with bn 64", sm90_cluster_bn_64, &half},
    {"cluster with bn 192, B MN-major", sm90_cluster_bn_192_mn_major, &half},
  };
  char text[256];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tcj_kernel_cfg c = sm90_cfg();
    assert_null(tcj_cfg_check(&c));
    cases[i].edit(&c);
    const char *why = tcj_cfg_check(&c);
    tcj_cfg_format(&c, text, sizeof text);
    if (!why) print_error("%s: accepted %s\n", cases[i].name, text);
    assert_non_null(why);
    if (strcmp(why, *cases[i].reason) != 0)
      print_error("%s (%s): reason \"%s\", want \"%s\"\n", cases[i].name, text, why, *cases[i].reason);
    assert_string_equal(why, *cases[i].reason);
  }
  tcj_kernel_cfg c = sm90_cfg();
  sm90_unknown_recipe(&c);
  assert_string_equal(tcj_cfg_check(&c), "unknown recipe");
}

/* Clusters and wide C stores belong to sm90; the sm80 recipe refuses them. */
static void sm80_refuses_clusters_and_wide_c_stores(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg();
  assert_null(tcj_cfg_check(&c));
  c.cluster_m = 2;
  assert_string_equal(tcj_cfg_check(&c), "the sm80 recipe has no clusters or ping-pong");
  c = base_cfg();
  c.cluster_n = 2;
  assert_string_equal(tcj_cfg_check(&c), "the sm80 recipe has no clusters or ping-pong");
  c = base_cfg();
  c.vec_c = 4;
  assert_string_equal(tcj_cfg_check(&c), "sm80 stores 1 or 2 elements of C at a time");
  /* A valid sm90 config relabelled sm80 is checked by the sm80 rules. */
  c = sm90_cfg();
  c.recipe = PTX_RECIPE_SM80;
  assert_string_equal(tcj_cfg_check(&c), "the sm80 recipe has no clusters or ping-pong");
}

static void sm90_threads_are_a_producer_plus_the_consumers(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg();
  assert_int_equal(tcj_cfg_threads(&c), 384);
  c.warps_m = 1;
  c.bm = 64;
  assert_int_equal(tcj_cfg_threads(&c), 256);
  /* The same warp grid under sm80 counts warps, not warpgroups. */
  c.recipe = PTX_RECIPE_SM80;
  assert_int_equal(tcj_cfg_threads(&c), 32);
  c.warps_m = 2;
  assert_int_equal(tcj_cfg_threads(&c), 64);
}

/* [1024 slack][stages x (A, B)][64 x 160-byte staging per consumer][full + empty mbarrier per
 * stage]; worked by hand. */
static void sm90_shared_memory_follows_the_layout(void **state) {
  (void)state;
  assert_int_equal(TCJ_SM90_EPI_BYTES, 64 * 160);
  assert_int_equal(TCJ_SM90_EPI_PITCH, TCJ_SM90_EPI_COLS * 4 + 32); /* fp32 row + 32-byte pad */
  static const struct { int bm, bn, wm, stages, ab, bytes; } want[] = {
    /* 1024 + 4 * 384 * 128 + 2 * 10240 + 8 * 8 */
    {128, 256, 2, 4, PTX_E_BF16, 218176},
    {256, 128, 2, 4, PTX_E_F16, 218176},
    /* 1024 + 6 * 256 * 128 + 2 * 10240 + 12 * 8 */
    {128, 128, 2, 6, PTX_E_BF16, 218208},
    /* 1024 + 8 * 192 * 128 + 2 * 10240 + 16 * 8 */
    {128, 64, 2, 8, PTX_E_F16, 218240},
    /* 1024 + 8 * 192 * 128 + 10240 + 16 * 8 */
    {64, 128, 1, 8, PTX_E_BF16, 208000},
    /* 1024 + 2 * 128 * 128 + 10240 + 4 * 8 */
    {64, 64, 1, 2, PTX_E_F16, 44064},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    tcj_kernel_cfg c = sm90_cfg();
    c.bm = want[i].bm;
    c.bn = want[i].bn;
    c.warps_m = want[i].wm;
    c.stages = want[i].stages;
    c.ab = (ptx_elem)want[i].ab;
    c.cluster_m = 0;
    assert_null(tcj_cfg_check(&c));
    if (tcj_cfg_smem_bytes(&c) != want[i].bytes) print_error("%dx%d stages %d\n", c.bm, c.bn, c.stages);
    assert_int_equal(tcj_cfg_smem_bytes(&c), want[i].bytes);
    /* Neither the cluster nor the C type nor the op pair changes the footprint. */
    c.cluster_m = c.bn % 128 ? 0 : 2;
    c.c = c.d = PTX_E_F32;
    c.vec_c = 4;
    c.op_a_t = 1;
    c.op_b_t = 0;
    assert_int_equal(tcj_cfg_smem_bytes(&c), want[i].bytes);
  }
}

/* The 128-byte swizzle repeats every 1024 bytes and TMA and wgmma assume tiles start on that
 * period: every A tile, B tile and B half (what one CTA of a cluster loads) is a whole number of
 * 1024-byte atoms, so with a 1024-aligned ring every tile of every stage stays aligned. */
static void sm90_tiles_are_whole_swizzle_atoms(void **state) {
  (void)state;
  for (size_t t = 0; t < sizeof sm90_tiles / sizeof *sm90_tiles; t++) {
    int line = 64 * 2; /* bk 64 of a 16-bit type */
    int a = sm90_tiles[t].bm * line, b = sm90_tiles[t].bn * line;
    assert_int_equal(a % TCJ_SM90_ALIGN, 0);
    assert_int_equal(b % TCJ_SM90_ALIGN, 0);
    if (sm90_tiles[t].bn % 128 == 0) assert_int_equal((b / 2) % TCJ_SM90_ALIGN, 0);
    assert_int_equal(TCJ_SM90_EPI_BYTES % 16, 0);
  }
}

/* The deepest ring (<= 8) under the 232448 bytes an H100/H200 block may opt in to, per tile. */
static void sm90_deepest_ring_that_fits_hopper(void **state) {
  (void)state;
  static const struct { int bm, bn, wm, stages; } want[] = {
    {128, 256, 2, 4}, {256, 128, 2, 4}, {128, 128, 2, 6}, {128, 64, 2, 8}, {64, 128, 1, 8}, {64, 64, 1, 8},
    {64, 256, 1, 5}, {128, 128, 1, 6}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    tcj_kernel_cfg c = sm90_cfg();
    c.bm = want[i].bm;
    c.bn = want[i].bn;
    c.warps_m = want[i].wm;
    c.stages = 8;
    while (c.stages > 2 && tcj_cfg_smem_bytes(&c) > 232448) c.stages--;
    if (c.stages != want[i].stages) print_error("%dx%d/%d: %d stages\n", c.bm, c.bn, c.warps_m, c.stages);
    assert_int_equal(c.stages, want[i].stages);
  }
}

/* ---- Ping-pong consumers (sm90) ---- */

/* The config select picks for short K (64x256, two consumers taking alternate tiles), here
 * with a 2-CTA cluster so that both optional fields are present. */
static const char *pp_text = "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=4096 k=4096 "
                             "tile=64x256x64 warps=2x1 stages=5 align=16,16,8 cluster=2 pingpong=1";

static tcj_kernel_cfg pp_cfg(void) {
  tcj_kernel_cfg c = sm90_cfg();
  c.bm = 64;
  c.stages = 5;
  c.pingpong = 1;
  return c;
}

/* format, then parse, then format again: the same config and the same text. */
static void expect_round_trip(const tcj_kernel_cfg *c, const char *want) {
  char buf[256], again[256];
  int n = tcj_cfg_format(c, buf, sizeof buf);
  assert_string_equal(buf, want);
  assert_int_equal(n, (int)strlen(want));
  tcj_kernel_cfg p;
  memset(&p, 0x5a, sizeof p);
  assert_int_equal(tcj_cfg_parse(buf, &p), 0);
  assert_cfg_equal(c, &p);
  assert_int_equal(tcj_cfg_format(&p, again, sizeof again), n);
  assert_string_equal(again, want);
}

/* epi=whole (the TMA store path staging each consumer's whole tile): its text round-trips; its
 * consumers' staging is a box per 64 rows x 128 bytes of D plus a 2 KiB tail (128x256 bf16: four
 * boxes a consumer, 34 KiB), so 128x256 keeps three stages; the staged-only paths refuse it. */
static void sm90_whole_tile_epilogue_round_trips_and_sizes_its_staging(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg();
  c.bm = 128, c.bn = 256, c.stages = 3, c.epi_whole = 1;
  assert_null(tcj_cfg_check(&c));
  char buf[256];
  assert_true(tcj_cfg_format(&c, buf, sizeof buf) > 0);
  assert_non_null(strstr(buf, " epi=whole"));
  expect_round_trip(&c, buf);
  assert_int_equal(ptx_sm90_epi_boxes(&c), 4);
  assert_int_equal(ptx_sm90_epi_bytes(&c), 4 * 8192 + 2048);
  c.epi_whole = 0;
  assert_int_equal(ptx_sm90_epi_bytes(&c), TCJ_SM90_EPI_BYTES);
  c.epi_whole = 1;
  tcj_kernel_cfg t = c;
  t.stages = 4; /* 4 x 48 KiB beside 68 KiB of staging: past 227 KiB */
  assert_true(tcj_cfg_smem_bytes(&t) > 232448);
  t = c;
  t.vec_c = 4; /* 8-byte rows: no TMA store */
  assert_non_null(tcj_cfg_check(&t));
  /* The same four boxes stored, as one bulk group after one wait (the previous tile's), where
   * the box-at-a-time path commits and waits for each. */
  c.n = 4096, c.k = 4096;
  t = c;
  t.epi_whole = 0, t.stages = 4;
  char *whole = NULL, *boxes = NULL, err[512];
  size_t wlen = 0, blen = 0;
  assert_int_equal(ptx_gen_gemm(&c, &whole, &wlen, err, sizeof err), 0);
  assert_int_equal(ptx_gen_gemm(&t, &boxes, &blen, err, sizeof err), 0);
  assert_int_equal(count_of(whole, "cp.async.bulk.tensor.2d.global.shared::cta"), 4);
  assert_int_equal(count_of(boxes, "cp.async.bulk.tensor.2d.global.shared::cta"), 4);
  assert_int_equal(count_of(whole, "cp.async.bulk.commit_group"), 1);
  assert_int_equal(count_of(boxes, "cp.async.bulk.commit_group"), 4);
  assert_int_equal(count_of(whole, " cp.async.bulk.wait_group.read 0;"), 1);
  const char *wait = strstr(whole, " cp.async.bulk.wait_group.read 0;");
  assert_true(wait < strstr(whole, "st.shared.b32")); /* before the first box is written */
  free(whole);
  free(boxes);
  /* Stored rows sent by bulk copies (the MoE combine): their boxes are rows at a 144-byte pitch,
   * but the whole tile is refused there (measured no faster, not checked on a GPU), as for
   * added rows, which are staged. */
  t = c;
  t.grouped = PTX_GROUP_ENDS32, t.scatter = PTX_SCATTER_STORE, t.row_scale = 1, t.n = 2048, t.k = 768;
  assert_true(ptx_sm90_bulk_rows(&t));
  assert_int_equal(ptx_sm90_epi_box_bytes(&t), 64 * TCJ_SM90_ROWS_PITCH);
  assert_non_null(tcj_cfg_check(&t));
  t.scatter = PTX_SCATTER_ADD;
  assert_non_null(tcj_cfg_check(&t));
}

/* A fused bias or activation on a cooperative tile takes the TMA store only when it stages the
 * whole tile, and such a kernel needs the whole-program compile (setmaxnreg's registers: it
 * spilled under nvJitLink); a row bias beside erf GELU spilled even compiled whole and is refused
 * the whole tile. The box-at-a-time epilogue keeps fused epilogues staged; ping-pong tiles store
 * them through TMA either way and need no whole-program compile. Each path's PTX: bias and GELU
 * applied before the bulk tensor stores, or staged with no tensor store. */
static void sm90_fused_epilogues_stage_the_whole_cooperative_tile(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg();
  c.bm = 128, c.bn = 256, c.stages = 3, c.epi_whole = 1;
  c.n = 4096, c.k = 4096;
  c.bias = PTX_BIAS_COL, c.bias_t = PTX_E_BF16, c.act = PTX_ACT_GELU;
  assert_null(tcj_cfg_check(&c));
  assert_true(ptx_sm90_tma_store(&c));
  assert_true(tcj_cfg_needs_whole_program(&c));
  char *whole = NULL, *staged = NULL, err[512];
  size_t wlen = 0, slen = 0;
  assert_int_equal(ptx_gen_gemm(&c, &whole, &wlen, err, sizeof err), 0);
  tcj_kernel_cfg t = c;
  t.epi_whole = 0, t.stages = 4;
  assert_null(tcj_cfg_check(&t));
  assert_false(ptx_sm90_tma_store(&t));
  assert_false(tcj_cfg_needs_whole_program(&t));
  assert_int_equal(ptx_gen_gemm(&t, &staged, &slen, err, sizeof err), 0);
  assert_int_equal(count_of(whole, "cp.async.bulk.tensor.2d.global.shared::cta"), 4);
  assert_int_equal(count_of(staged, "cp.async.bulk.tensor.2d.global.shared::cta"), 0);
  /* erf GELU's exponential on each of a thread's 128 accumulators in the TMA path, besides the
   * staged path's (beta != 0) */
  assert_true(count_of(whole, "ex2.approx.ftz.f32") >= 128 + count_of(staged, "ex2.approx.ftz.f32") / 2);
  free(whole);
  free(staged);
  t = c;
  t.bias = PTX_BIAS_NONE, t.act = PTX_ACT_SILU; /* an activation alone */
  assert_null(tcj_cfg_check(&t));
  assert_true(tcj_cfg_needs_whole_program(&t));
  t.act = PTX_ACT_NONE; /* plain: the whole tile needs no whole-program compile */
  assert_null(tcj_cfg_check(&t));
  assert_false(tcj_cfg_needs_whole_program(&t));
  t = c;
  t.bias = PTX_BIAS_ROW;
  assert_false(ptx_sm90_tma_store(&t));
  assert_non_null(tcj_cfg_check(&t));
  t.act = PTX_ACT_GELU_TANH;
  assert_null(tcj_cfg_check(&t));
  t = c;
  t.user = 0x1234, t.bias = PTX_BIAS_NONE, t.act = PTX_ACT_NONE; /* a user function: never TMA */
  assert_false(ptx_sm90_tma_store(&t));
  t = pp_cfg();
  t.bias = PTX_BIAS_COL, t.bias_t = PTX_E_BF16, t.act = PTX_ACT_GELU;
  assert_null(tcj_cfg_check(&t));
  assert_true(ptx_sm90_tma_store(&t));
  t.epi_whole = 1, t.stages = 4;
  while (tcj_cfg_smem_bytes(&t) > 232448) t.stages--;
  assert_null(tcj_cfg_check(&t));
  assert_false(tcj_cfg_needs_whole_program(&t));
}

static void sm90_pingpong_text_round_trips_with_and_without_a_cluster(void **state) {
  (void)state;
  tcj_kernel_cfg c = pp_cfg();
  assert_null(tcj_cfg_check(&c));
  expect_round_trip(&c, pp_text);
  /* No cluster: pingpong follows the alignments directly. */
  c.cluster_m = 0;
  assert_null(tcj_cfg_check(&c));
  expect_round_trip(&c, "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=4096 k=4096 "
                        "tile=64x256x64 warps=2x1 stages=5 align=16,16,8 pingpong=1");
  /* Two consumers of 128 rows each, f16 into f32, A^T B. */
  c = pp_cfg();
  c.bm = 128;
  c.bn = 128;
  c.stages = 6;
  c.ab = PTX_E_F16;
  c.c = c.d = PTX_E_F32;
  c.vec_c = 4;
  c.op_a_t = 1;
  c.op_b_t = 0;
  assert_null(tcj_cfg_check(&c));
  expect_round_trip(&c, "recipe=sm90 arch=sm_90a ab=f16 c=f32 op=TN n=4096 k=4096 "
                        "tile=128x128x64 warps=2x1 stages=6 align=16,16,4 cluster=2 pingpong=1");
  c.cluster_m = 0;
  expect_round_trip(&c, "recipe=sm90 arch=sm_90a ab=f16 c=f32 op=TN n=4096 k=4096 "
                        "tile=128x128x64 warps=2x1 stages=6 align=16,16,4 pingpong=1");
  /* Cooperative: the field is absent, so the text is what it was before ping-pong existed. */
  c.pingpong = 0;
  expect_round_trip(&c, "recipe=sm90 arch=sm_90a ab=f16 c=f32 op=TN n=4096 k=4096 "
                        "tile=128x128x64 warps=2x1 stages=6 align=16,16,4");
  /* Syntax only (split with clusters and ping-pong is invalid): all three optional fields, in
   * format order. */
  c = pp_cfg();
  c.split_k = 3;
  expect_round_trip(&c, "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=4096 k=4096 "
                        "tile=64x256x64 warps=2x1 stages=5 align=16,16,8 split=3 cluster=2 pingpong=1");
  /* Ping-pong keeps one producer and two consumer warpgroups. */
  c = pp_cfg();
  assert_int_equal(tcj_cfg_threads(&c), 384);
}

/* text with the first occurrence of `from` replaced by `to` must not parse. */
static void expect_text_rejected_edit(const char *text, const char *from, const char *to) {
  char buf[256];
  const char *at = strstr(text, from);
  assert_non_null(at);
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  expect_rejected(buf);
}

/* One config, one text: pingpong=0 is written as no field, the value has one spelling, and
 * the field comes once, last, after cluster. */
static void sm90_pingpong_non_canonical_text_is_rejected(void **state) {
  (void)state;
  static const struct { const char *from, *to; } edits[] = {
    {" pingpong=1", " pingpong=0"},
    {" pingpong=1", " pingpong=01"},
    {" pingpong=1", " pingpong=+1"},
    {" pingpong=1", " pingpong= 1"},
    {" pingpong=1", "  pingpong=1"},
    {" pingpong=1", " pingpong=1.0"},
    {" pingpong=1", " pingpong="},
    {" pingpong=1", " pingpong"},
    {" pingpong=1", " ping-pong=1"},
    {" pingpong=1", " Pingpong=1"},
    {" pingpong=1", " pp=1"},
    {" pingpong=1", " pingpong=1 pingpong=1"},
    {" pingpong=1", " pingpong=0 pingpong=1"},
    {" pingpong=1", " pingpong=1 pingpong=0"},
    {" cluster=2 pingpong=1", " pingpong=1 cluster=2"},
    {" cluster=2 pingpong=1", " cluster=2 pingpong=1 cluster=2"},
    {" cluster=2 pingpong=1", " pingpong=1 cluster=2 pingpong=1"},
    {" cluster=2 pingpong=1", " cluster=2 pingpong=1 split=3"},
    {" cluster=2 pingpong=1", " pingpong=1 split=3 cluster=2"},
    {" cluster=2 pingpong=1", " cluster=2 split=3 pingpong=1"},
  };
  for (size_t i = 0; i < sizeof edits / sizeof *edits; i++)
    expect_text_rejected_edit(pp_text, edits[i].from, edits[i].to);
  /* The same without a cluster: the cluster field may not follow pingpong either. */
  char solo[256];
  const char *at = strstr(pp_text, " cluster=2");
  snprintf(solo, sizeof solo, "%.*s pingpong=1", (int)(at - pp_text), pp_text);
  tcj_kernel_cfg p;
  assert_int_equal(tcj_cfg_parse(solo, &p), 0);
  expect_text_rejected_edit(solo, " pingpong=1", " pingpong=0");
  expect_text_rejected_edit(solo, " pingpong=1", " pingpong=1 cluster=2");
  expect_text_rejected_edit(solo, " pingpong=1", " pingpong=1 pingpong=1");
  expect_text_rejected_edit(solo, " pingpong=1", " pingpong=1 split=3");
}

static void sm90_pingpong_trailing_junk_is_rejected(void **state) {
  (void)state;
  static const char *junk[] = {" ", "x", "\n", ".0", "x2", " pingpong=1", " cluster=2", " split=3", ",1", ";", "\t"};
  char buf[256];
  for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
    snprintf(buf, sizeof buf, "%s%s", pp_text, junk[i]);
    expect_rejected(buf);
  }
}

/* Every prefix of pp_text is rejected but two: cut before " cluster=2" it is the cooperative
 * config without a cluster, cut before " pingpong=1" the cooperative config with one. */
static void sm90_pingpong_truncations_are_rejected_but_those_without_optional_fields(void **state) {
  (void)state;
  size_t len = strlen(pp_text);
  size_t at_cluster = (size_t)(strstr(pp_text, " cluster=2") - pp_text);
  size_t at_pingpong = (size_t)(strstr(pp_text, " pingpong=1") - pp_text);
  char buf[256];
  int accepted = 0;
  for (size_t i = 0; i < len; i++) {
    memcpy(buf, pp_text, i);
    buf[i] = 0;
    if (i != at_cluster && i != at_pingpong) {
      expect_rejected(buf);
      continue;
    }
    tcj_kernel_cfg p, want = pp_cfg();
    want.pingpong = 0;
    if (i == at_cluster) want.cluster_m = 0;
    assert_int_equal(tcj_cfg_parse(buf, &p), 0);
    assert_cfg_equal(&want, &p);
    accepted++;
  }
  assert_int_equal(accepted, 2);
}

/* Ping-pong tiles: each consumer owns the whole bm (64 or 128 rows) with at most 128
 * accumulators per thread. */
static const struct { int bm, bn; } pp_tiles[] = {{64, 64}, {64, 128}, {64, 192}, {64, 256}, {128, 64}, {128, 128}};

static void sm90_pingpong_valid_configs_pass_the_check(void **state) {
  (void)state;
  int tiles[sizeof pp_tiles / sizeof *pp_tiles][3];
  for (size_t t = 0; t < sizeof pp_tiles / sizeof *pp_tiles; t++) {
    tiles[t][0] = pp_tiles[t].bm;
    tiles[t][1] = pp_tiles[t].bn;
    tiles[t][2] = 2; /* ping-pong: always two consumers */
  }
  long clustered;
  assert_true(check_sm90_grid(pp_cfg(), (const int (*)[3])tiles, sizeof tiles / sizeof *tiles, &clustered) > 5000);
  assert_true(clustered > 2000);
}

static void pp_value_2(tcj_kernel_cfg *c) { c->pingpong = 2; }
static void pp_value_negative(tcj_kernel_cfg *c) { c->pingpong = -1; }
static void pp_value_2_one_consumer(tcj_kernel_cfg *c) { c->pingpong = 2; c->warps_m = 1; }
static void pp_one_consumer_64(tcj_kernel_cfg *c) { c->warps_m = 1; }
static void pp_one_consumer_128(tcj_kernel_cfg *c) { c->warps_m = 1; c->bm = 128; c->bn = 128; }
static void pp_three_consumers(tcj_kernel_cfg *c) { c->warps_m = 3; c->bm = 192; }
static void pp_rows_256(tcj_kernel_cfg *c) { c->bm = 256; c->bn = 64; c->cluster_m = 0; }
static void pp_rows_256x128(tcj_kernel_cfg *c) { c->bm = 256; c->bn = 128; }
static void pp_rows_32(tcj_kernel_cfg *c) { c->bm = 32; }
static void pp_rows_192(tcj_kernel_cfg *c) { c->bm = 192; c->bn = 64; c->cluster_m = 0; }
static void pp_accum_128x256(tcj_kernel_cfg *c) { c->bm = 128; }
static void pp_accum_128x192(tcj_kernel_cfg *c) { c->bm = 128; c->bn = 192; c->cluster_m = 0; }
static void pp_split(tcj_kernel_cfg *c) { c->split_k = 2; }
static void pp_cluster_bn_64(tcj_kernel_cfg *c) { c->bn = 64; }

/* Each case breaks one rule with ping-pong on and must get that rule's reason (the whole
 * string). The same config without ping-pong is checked too (coop_valid): where it is valid
 * (256-row tiles, 128x256, 128x192, one consumer) the refusal is ping-pong's own rule. */
static void sm90_pingpong_rules_reject_with_their_reasons(void **state) {
  (void)state;
  static const char *const value = "pingpong must be 0 or 1", *const two = "ping-pong needs two consumer warpgroups",
                           *const rows = "each sm90 consumer owns 64 or 128 rows",
                           *const accum = "accumulators exceed 128 registers per thread",
                           *const split = "sm90 split-K runs cooperative consumers, not ping-pong",
                           *const half = "a cluster along M splits B in parts: bn 128 or more, whole 8-row swizzle atoms (K-major) or 64-column boxes (MN-major) each";
  static const struct { const char *name; cfg_edit edit; const char *const *reason; int coop_valid; } cases[] = {
    {"pingpong 2", pp_value_2, &value, 0},
    {"pingpong -1", pp_value_negative, &value, 0},
    {"pingpong 2 with one consumer", pp_value_2_one_consumer, &value, 1},
    {"ping-pong with one 64-row consumer", pp_one_consumer_64, &two, 1},
    {"ping-pong with one 128-row consumer", pp_one_consumer_128, &two, 1},
    {"ping-pong with three consumers", pp_three_consumers, &two, 0},
    {"ping-pong consumers of 256 rows (256x64)", pp_rows_256, &rows, 1},
    {"ping-pong consumers of 256 rows (256x128)", pp_rows_256x128, &rows, 1},
    {"ping-pong consumers of 32 rows", pp_rows_32, &rows, 0},
    {"ping-pong consumers of 192 rows", pp_rows_192, &rows, 0},
    {"ping-pong 128x256: 256 accumulators", pp_accum_128x256, &accum, 1},
    {"ping-pong 128x192: 192 accumulators", pp_accum_128x192, &accum, 1},
    {"ping-pong split K", pp_split, &split, 0},
    {"ping-pong cluster with bn 64", pp_cluster_bn_64, &half, 0},
  };
  char text[256];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tcj_kernel_cfg c = pp_cfg();
    assert_null(tcj_cfg_check(&c));
    cases[i].edit(&c);
    const char *why = tcj_cfg_check(&c);
    tcj_cfg_format(&c, text, sizeof text);
    if (!why) print_error("%s: accepted %s\n", cases[i].name, text);
    assert_non_null(why);
    if (strcmp(why, *cases[i].reason) != 0)
      print_error("%s (%s): reason \"%s\", want \"%s\"\n", cases[i].name, text, why, *cases[i].reason);
    assert_string_equal(why, *cases[i].reason);
    tcj_kernel_cfg coop = c;
    coop.pingpong = 0;
    const char *coop_why = tcj_cfg_check(&coop);
    if ((coop_why == NULL) != cases[i].coop_valid)
      print_error("%s without ping-pong: %s\n", cases[i].name, coop_why ? coop_why : "valid");
    assert_int_equal(coop_why == NULL, cases[i].coop_valid);
  }
  /* The other way round: a 64x256 tile is two consumers of 32 rows without ping-pong. */
  tcj_kernel_cfg c = pp_cfg();
  c.pingpong = 0;
  assert_string_equal(tcj_cfg_check(&c), rows);
}

/* pingpong=2 is the text of a config the check refuses, as cluster=4 is: the text is syntax
 * (one config, one text) and the check owns the range. */
static void sm90_pingpong_out_of_range_parses_and_fails_the_check(void **state) {
  (void)state;
  static const int values[] = {2, -1};
  for (size_t i = 0; i < 2; i++) {
    tcj_kernel_cfg c = pp_cfg(), p;
    c.pingpong = values[i];
    char buf[256];
    assert_true(tcj_cfg_format(&c, buf, sizeof buf) > 0);
    assert_int_equal(tcj_cfg_parse(buf, &p), 0);
    assert_cfg_equal(&c, &p);
    assert_string_equal(tcj_cfg_check(&p), "pingpong must be 0 or 1");
  }
}

/* The sm80 recipe has no consumers to alternate: it refuses ping-pong, on its own or on a
 * valid ping-pong config relabelled sm80. */
static void sm80_refuses_pingpong(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg();
  assert_null(tcj_cfg_check(&c));
  c.pingpong = 1;
  assert_string_equal(tcj_cfg_check(&c), "the sm80 recipe has no clusters or ping-pong");
  c = pp_cfg();
  c.cluster_m = 0;
  assert_null(tcj_cfg_check(&c));
  c.recipe = PTX_RECIPE_SM80;
  assert_string_equal(tcj_cfg_check(&c), "the sm80 recipe has no clusters or ping-pong");
}

/* Ping-pong adds two 8-byte turn barriers after the full and empty ones: 16 bytes over the
 * cooperative layout of the same tile, worked by hand for the two tiles select and TCJ_TILE
 * use, and checked as a difference for every ping-pong tile. */
static void sm90_pingpong_adds_two_turn_barriers_to_shared_memory(void **state) {
  (void)state;
  static const struct { int bm, bn, stages, bytes; } want[] = {
    /* 1024 + 5 * 320 * 128 + 2 * 10240 + 10 * 8 + 16 */
    {64, 256, 5, 226400},
    /* 1024 + 6 * 256 * 128 + 2 * 10240 + 12 * 8 + 16 */
    {128, 128, 6, 218224},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    tcj_kernel_cfg c = pp_cfg();
    c.bm = want[i].bm;
    c.bn = want[i].bn;
    c.stages = want[i].stages;
    assert_null(tcj_cfg_check(&c));
    assert_int_equal(tcj_cfg_smem_bytes(&c), want[i].bytes);
    c.cluster_m = 0; /* the cluster changes nothing */
    assert_int_equal(tcj_cfg_smem_bytes(&c), want[i].bytes);
  }
  for (size_t t = 0; t < sizeof pp_tiles / sizeof *pp_tiles; t++)
    for (int stages = 2; stages <= 8; stages++) {
      tcj_kernel_cfg pp = pp_cfg(), coop;
      pp.bm = pp_tiles[t].bm;
      pp.bn = pp_tiles[t].bn;
      pp.stages = stages;
      pp.cluster_m = 0;
      coop = pp;
      coop.pingpong = 0;
      assert_int_equal(tcj_cfg_smem_bytes(&pp), tcj_cfg_smem_bytes(&coop) + 16);
      /* Staging per consumer (two), as without ping-pong. */
      assert_int_equal(tcj_cfg_smem_bytes(&pp), TCJ_SM90_ALIGN + stages * (pp.bm + pp.bn) * 128 +
                                                    2 * TCJ_SM90_EPI_BYTES + 2 * stages * 8 + 16);
    }
  /* The deepest ring under Hopper's 232448 bytes. */
  static const struct { int bm, bn, stages; } ring[] = {
    {64, 256, 5}, {128, 128, 6}, {64, 64, 8}, {64, 128, 8}, {64, 192, 6}, {128, 64, 8}};
  for (size_t i = 0; i < sizeof ring / sizeof *ring; i++) {
    tcj_kernel_cfg c = pp_cfg();
    c.bm = ring[i].bm;
    c.bn = ring[i].bn;
    c.stages = 8;
    while (c.stages > 2 && tcj_cfg_smem_bytes(&c) > 232448) c.stages--;
    if (c.stages != ring[i].stages) print_error("%dx%d/pp: %d stages\n", c.bm, c.bn, c.stages);
    assert_int_equal(c.stages, ring[i].stages);
  }
}

/* The epilogue's fields (tcj_gemm_ex) survive format -> parse, each alone and all together, and
 * text naming an unknown activation, bias place or type is refused. */
static void epilogue_fields_round_trip(void **state) {
  (void)state;
  tcj_kernel_cfg base = sm90_cfg();
  base.cluster_m = 0;
  for (int variant = 0; variant < 8; variant++) {
    tcj_kernel_cfg c = base, back;
    if (variant & 1) c.d = PTX_E_F32;
    if (variant & 2) { c.bias = variant & 4 ? PTX_BIAS_ROW : PTX_BIAS_COL; c.bias_t = PTX_E_BF16; }
    c.act = (ptx_act)(variant % PTX_ACT_COUNT);
    if (variant == 5) c.batched = 1;
    if (variant == 6) c.user = 0xfedcba9876543210ull;
    if (variant == 7) c.user = 0x1234, c.user_t = 1;
    char text[512];
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    if (tcj_cfg_parse(text, &back) != 0) print_error("does not parse: %s\n", text);
    assert_int_equal(tcj_cfg_parse(text, &back), 0);
    assert_cfg_equal(&c, &back);
  }
  static const char *const bad[] = {" act=swish", " bias=mid:f32", " bias=col:s8x", " d=f8", " user=xyz", " batch=1 act=relu",
                                    " user_t=0", " user_t=1 user=0000000000001234"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char text[512];
    assert_true(tcj_cfg_format(&base, text, sizeof text) > 0);
    strncat(text, bad[i], sizeof text - strlen(text) - 1);
    tcj_kernel_cfg out;
    if (tcj_cfg_parse(text, &out) == 0) print_error("accepted: %s\n", text);
    assert_int_equal(tcj_cfg_parse(text, &out), -1);
  }
}

/* The "st.param.b64 [u_row], %rdN" / [u_col] operands of every user call in ptx, in order. */
static int user_call_args(const char *ptx, const char *param, char regs[][16], int max) {
  int n = 0;
  char pat[32];
  snprintf(pat, sizeof pat, "st.param.b64 [%s], ", param);
  for (const char *p = strstr(ptx, pat); p && n < max; p = strstr(p + 1, pat)) {
    const char *r = p + strlen(pat);
    size_t len = strcspn(r, ";\n");
    if (len >= sizeof regs[0]) len = sizeof regs[0] - 1;
    memcpy(regs[n], r, len);
    regs[n++][len] = 0;
  }
  return n;
}

/* user_t (a column-major call): the user function gets the kernel's column as its row and the
 * kernel's row as its column, at every call site; it is part of the text (and so of the key),
 * only with a user epilogue, and changes nothing else of the PTX. */
static void user_t_passes_the_user_function_row_and_column_swapped(void **state) {
  (void)state;
  tcj_kernel_cfg c = base_cfg();
  c.bm = c.bn = 128;
  c.warps_m = c.warps_n = 2;
  c.user = 0x1234;
  tcj_kernel_cfg t = c;
  t.user_t = 1;
  assert_null(tcj_cfg_check(&c));
  assert_null(tcj_cfg_check(&t));
  char text_c[512], text_t[512];
  assert_true(tcj_cfg_format(&c, text_c, sizeof text_c) > 0);
  assert_true(tcj_cfg_format(&t, text_t, sizeof text_t) > 0);
  assert_string_not_equal(text_c, text_t);
  assert_non_null(strstr(text_t, " user_t=1"));
  tcj_kernel_cfg no_user = t;
  no_user.user = 0;
  assert_non_null(tcj_cfg_check(&no_user));
  char *ptx_c = NULL, *ptx_t = NULL, err[256];
  size_t len_c = 0, len_t = 0;
  assert_int_equal(ptx_gen_gemm(&c, &ptx_c, &len_c, err, sizeof err), 0);
  assert_int_equal(ptx_gen_gemm(&t, &ptx_t, &len_t, err, sizeof err), 0);
  static char rows_c[256][16], cols_c[256][16], rows_t[256][16], cols_t[256][16];
  int n = user_call_args(ptx_c, "u_row", rows_c, 256);
  assert_true(n > 0);
  assert_int_equal(user_call_args(ptx_c, "u_col", cols_c, 256), n);
  assert_int_equal(user_call_args(ptx_t, "u_row", rows_t, 256), n);
  assert_int_equal(user_call_args(ptx_t, "u_col", cols_t, 256), n);
  for (int i = 0; i < n; i++) {
    assert_string_not_equal(rows_c[i], cols_c[i]);
    assert_string_equal(rows_t[i], cols_c[i]);
    assert_string_equal(cols_t[i], rows_c[i]);
  }
  assert_int_equal(len_c, len_t); /* the same instructions, two operands exchanged */
  free(ptx_c);
  free(ptx_t);
}

/* fp8 configs: the sm90 fixture with e4m3 operands (bk 128, 128x128 so promotion fits). */
static tcj_kernel_cfg fp8_cfg(void) {
  tcj_kernel_cfg c = sm90_fixture_cfg();
  c.ab = PTX_E_E4M3;
  c.bk = 128;
  c.bn = 128;
  tcj_cfg_plain_epilogue(&c);
  return c;
}

/* Every fp8 field is in the text, absent at its default, and parses back; b names the other type. */
static void fp8_fields_round_trip(void **state) {
  (void)state;
  char text[256];
  tcj_kernel_cfg c = fp8_cfg(), back;
  assert_null(tcj_cfg_check(&c));
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_null(strstr(text, " b="));
  assert_null(strstr(text, "fast"));
  assert_null(strstr(text, "scale"));
  c.b_other = 1;
  c.d = PTX_E_E4M3;
  c.block_scale = 1;
  assert_null(tcj_cfg_check(&c));
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, "ab=e4m3 c=bf16"));
  assert_non_null(strstr(text, " d=e4m3 b=e5m2 scale=block"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_cfg_equal(&back, &c);
  c.block_scale = 0;
  c.fast_accum = 1;
  c.bn = 256; /* fast accumulation keeps one accumulator set: the largest tile fits */
  assert_null(tcj_cfg_check(&c));
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " fast=1"));
  assert_int_equal(tcj_cfg_parse(text, &back), 0);
  assert_cfg_equal(&back, &c);
  /* b= names only the other fp8 type, and only for fp8 operands. */
  char bad[300];
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  *strstr(text, " fast=1") = '\0';
  snprintf(bad, sizeof bad, "%s b=e4m3", text);
  assert_int_equal(tcj_cfg_parse(bad, &back), -1);
  snprintf(bad, sizeof bad, "%s b=bf16", text);
  assert_int_equal(tcj_cfg_parse(bad, &back), -1);
  snprintf(bad, sizeof bad, "%s scale=tensor", text);
  assert_int_equal(tcj_cfg_parse(bad, &back), -1);
}

/* Three consumer warpgroups: 192-row tiles of 64 or 128 columns pass the check, their register
 * budgets fit the CTA's pool (setmaxnreg .inc waits forever otherwise), and the budgets of one
 * and two consumers are the ones the kernels always had. */
static void three_consumers_take_192_row_tiles_within_the_register_pool(void **state) {
  (void)state;
  static const struct { int bm, bn, warps, gather, entry, producer, consumer; } cases[] = {
    {128, 256, 2, 0, 168, 40, 232}, {128, 256, 2, 1, 168, 56, 224}, {64, 128, 1, 0, 168, 40, 232},
    {64, 128, 1, 1, 168, 56, 224},  {192, 128, 3, 0, 128, 40, 152}, {192, 64, 3, 1, 128, 56, 152},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tcj_kernel_cfg c = sm90_cfg();
    c.bm = cases[i].bm;
    c.bn = cases[i].bn;
    c.warps_m = cases[i].warps;
    c.gather = cases[i].gather;
    tcj_sm90_regs r = tcj_cfg_sm90_regs(&c);
    assert_int_equal(r.entry, cases[i].entry);
    assert_int_equal(r.producer, cases[i].producer);
    assert_int_equal(r.consumer, cases[i].consumer);
    int threads = tcj_cfg_threads(&c);
    assert_true(128 * r.producer + 128 * cases[i].warps * r.consumer <= threads * r.entry);
    assert_true(threads * r.entry <= 65536);
    if (cases[i].warps == 3 && !cases[i].gather) {
      c.stages = 4;
      assert_null(tcj_cfg_check(&c));
      assert_true(tcj_cfg_smem_bytes(&c) <= 227 * 1024);
    }
  }
  /* Promoted fp8 on three consumers: 32 + 32 registers at 192x64 fit 152 - 32; 64 + 64 at 192x128 do not. */
  tcj_kernel_cfg f = fp8_cfg();
  f.bm = 192;
  f.bn = 64;
  f.warps_m = 3;
  f.cluster_m = 0;
  f.stages = 4;
  assert_null(tcj_cfg_check(&f));
  assert_int_equal(tcj_cfg_needs_whole_program(&f), 0);
  f.bn = 128;
  assert_non_null(tcj_cfg_check(&f));
}

static void fp8_rules_reject_with_their_reasons(void **state) {
  (void)state;
  static const struct { const char *name; int field, value; const char *reason; } cases[] = {
    {"promotion with 128 accumulators and a whole set of partial sums (256x128)", 10, 256, "promotion (fp8, 3xTF32) needs its accumulators and partial sums in 192 registers per thread (up to 128x256; 120 with three consumers)"},
    {"promoted ping-pong 64x256", 11, 256, "promoted fp8 ping-pong needs its accumulators and partial sums in 144 registers per thread (64x192)"},
    {"block scales with bn 192 and a user epilogue", 9, 192, "block-scaled fp8 with a user epilogue needs bn 64 or 128"},
    {"block scales with fast accumulation", 2, 1, "block scales are applied at promotion: sm90, not fast, not batched"},
    {"block scales batched", 3, 1, "block scales are applied at promotion: sm90, not fast, not batched"},
    {"fast accumulation on bf16", 4, 1, "fast accumulation and block scales are fp8 options"},
    {"b_other on bf16", 5, 1, "b differs from a only between the two fp8 types"},
    {"c e4m3", 6, 0, "fp8 operands need c f16, bf16 or f32"},
    {"op NN", 7, 0, "sm90 tf32, s8 and fp8 read both operands K-major (A op N, B op T)"},
    {"fast 2", 8, 2, "fast and scale=block are flags"},
  };
  char text[256];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tcj_kernel_cfg c = fp8_cfg();
    switch (cases[i].field) {
    case 0: c.bn = cases[i].value; break;
    case 2: c.block_scale = 1; c.fast_accum = 1; break;
    case 3: c.block_scale = 1; c.batched = 1; break;
    case 4: c.ab = PTX_E_BF16; c.bk = 64; c.fast_accum = 1; break;
    case 5: c.ab = PTX_E_BF16; c.bk = 64; c.b_other = 1; break;
    case 6: c.c = c.d = PTX_E_E4M3; break;
    case 7: c.op_b_t = 0; break;
    case 8: c.fast_accum = 2; break;
    case 9: c.block_scale = 1; c.bn = cases[i].value; c.user = 0x1234; break;
    case 10: c.bm = cases[i].value; c.bn = 128; break;
    case 11: c.bm = 64; c.bn = cases[i].value; c.pingpong = 1; break;
    }
    const char *why = tcj_cfg_check(&c);
    tcj_cfg_format(&c, text, sizeof text);
    if (!why || strcmp(why, cases[i].reason) != 0)
      print_error("%s (%s): reason \"%s\", want \"%s\"\n", cases[i].name, text, why ? why : "(accepted)", cases[i].reason);
    assert_non_null(why);
    assert_string_equal(why, cases[i].reason);
  }
  /* Promoted 128x256 passes, and only it needs the whole-program compile (setmaxnreg). */
  tcj_kernel_cfg widest = fp8_cfg();
  widest.bn = 256;
  assert_null(tcj_cfg_check(&widest));
  assert_true(tcj_cfg_needs_whole_program(&widest));
  widest.bn = 192;
  assert_false(tcj_cfg_needs_whole_program(&widest));
  widest.bn = 256;
  widest.block_scale = 1; /* two whole B blocks per tile */
  assert_null(tcj_cfg_check(&widest));
  widest.block_scale = 0;
  widest.fast_accum = 1; /* no partial sums */
  assert_false(tcj_cfg_needs_whole_program(&widest));
  /* The widest promoted tile takes block scales (two B blocks per tile) without a user epilogue. */
  tcj_kernel_cfg wide = fp8_cfg();
  wide.bn = 192;
  wide.block_scale = 1;
  assert_null(tcj_cfg_check(&wide));
  /* sm80: fp8 from sm_89, one accumulation mode, no block scales. */
  tcj_kernel_cfg c = base_cfg();
  c.ab = PTX_E_E4M3;
  c.bk = 64;
  c.sm = 89;
  assert_null(tcj_cfg_check(&c));
  c.sm = 86;
  assert_string_equal(tcj_cfg_check(&c), "fp8 mma needs sm_89 or newer");
  c.sm = 89;
  c.fast_accum = 1;
  assert_string_equal(tcj_cfg_check(&c), "the sm80 recipe has no fast accumulation (fp8 mma.sync accumulates in fp32)");
  c.fast_accum = 0;
  c.block_scale = 1;
  assert_string_equal(tcj_cfg_check(&c), "block scales are applied at promotion: sm90, not fast, not batched");
}

/* A generic config (n and k run-time arguments): n = k = 0 in its one text, " generic=1" last;
 * what a kernel bakes from n and k is refused, each with its reason; both recipes take it. */
static void generic_configs_round_trip_and_refuse_what_bakes_n_and_k(void **state) {
  (void)state;
  tcj_kernel_cfg cfgs[2] = {base_cfg(), sm90_cfg()};
  for (int r = 0; r < 2; r++) {
    tcj_kernel_cfg c = cfgs[r];
    c.split_k = 0;
    c.split_cluster = 0;
    c.cluster_m = c.cluster_n = 0;
    c.n = c.k = 0;
    c.generic = 1;
    assert_null(tcj_cfg_check(&c));
    char text[256];
    tcj_kernel_cfg back;
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    assert_non_null(strstr(text, " n=0 k=0 "));
    size_t len = strlen(text);
    assert_true(len > 10 && strcmp(text + len - 10, " generic=1") == 0);
    assert_int_equal(tcj_cfg_parse(text, &back), 0);
    assert_cfg_equal(&c, &back);
    /* A specialised config's text has no generic field; generic=0 is not canonical. */
    tcj_kernel_cfg plain = cfgs[r];
    assert_true(tcj_cfg_format(&plain, text, sizeof text) > 0);
    assert_null(strstr(text, "generic"));
    char longer[300];
    snprintf(longer, sizeof longer, "%s generic=0", text);
    assert_int_equal(tcj_cfg_parse(longer, &back), -1);

    tcj_kernel_cfg bad = c;
    bad.n = 64;
    assert_string_equal(tcj_cfg_check(&bad), "a generic config has n = k = 0 (they are run-time arguments)");
    bad = c;
    bad.k = 64;
    assert_string_equal(tcj_cfg_check(&bad), "a generic config has n = k = 0 (they are run-time arguments)");
    /* Every generic kernel splits at launch: a plan's count is valid, and its kernel is the
     * unsplit config's. A cluster split bakes its K range. */
    tcj_kernel_cfg split = c;
    split.split_k = 7;
    assert_null(tcj_cfg_check(&split));
    tcj_kernel_cfg form = tcj_cfg_kernel_form(&split);
    assert_cfg_equal(&form, &c);
    bad = c;
    bad.split_k = 2;
    bad.split_cluster = 1;
    bad.sm = 90;
    assert_string_equal(tcj_cfg_check(&bad),
                        "generic kernels split K through the workspace only (a cluster split bakes its K range)");
    bad = c;
    bad.generic = 2;
    assert_string_equal(tcj_cfg_check(&bad), "generic must be 0 or 1");
    if (r == 1) {
      bad = c;
      bad.cluster_n = 2;
      bad.bn = 64;
      assert_string_equal(tcj_cfg_check(&bad),
                          "generic kernels have no cluster along N (its unit columns are baked from n)");
    }
  }
  /* Host arithmetic sees the problem's n and k; a specialised config keeps its own. */
  tcj_kernel_cfg g = sm90_cfg();
  g.n = g.k = 0;
  g.generic = 1;
  tcj_kernel_cfg run = tcj_cfg_for_problem(&g, 1000, 333);
  assert_int_equal(run.n, 1000);
  assert_int_equal(run.k, 333);
  tcj_kernel_cfg s90 = sm90_cfg();
  run = tcj_cfg_for_problem(&s90, 1000, 333);
  assert_int_equal(run.n, s90.n);
  assert_int_equal(run.k, s90.k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(epilogue_fields_round_trip),
    cmocka_unit_test(user_t_passes_the_user_function_row_and_column_swapped),
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
    cmocka_unit_test(x3_configs_round_trip_and_keep_their_limits),
    cmocka_unit_test(dmma_configs_round_trip_and_refuse_what_f64_lacks),
    cmocka_unit_test(dmma_generic_config_reads_n_and_k_at_run_time),
    cmocka_unit_test(cluster_split_shared_memory_holds_the_partial_sums),
    cmocka_unit_test(huge_tile_fields_are_rejected_without_overflow),
    cmocka_unit_test(narrow_copies_of_a_deep_tile_are_rejected),
    cmocka_unit_test(derived_facts_follow_the_tile),
    cmocka_unit_test(elem_names_and_sizes),
    cmocka_unit_test(sm90_text_names_the_recipe_and_the_cluster),
    cmocka_unit_test(sm90_format_then_parse_round_trips_over_a_grid),
    cmocka_unit_test(sm90_non_canonical_text_is_rejected),
    cmocka_unit_test(sm90_trailing_junk_is_rejected),
    cmocka_unit_test(sm90_truncations_are_rejected_but_the_one_without_the_optional_field),
    cmocka_unit_test(sm90_valid_configs_pass_the_check),
    cmocka_unit_test(sm90_split_k_rules),
    cmocka_unit_test(sm90_pairs_along_n_rules),
    cmocka_unit_test(sm90_each_rule_rejects_with_its_reason),
    cmocka_unit_test(three_consumers_take_192_row_tiles_within_the_register_pool),
    cmocka_unit_test(fp8_fields_round_trip),
    cmocka_unit_test(fp8_rules_reject_with_their_reasons),
    cmocka_unit_test(sm80_refuses_clusters_and_wide_c_stores),
    cmocka_unit_test(sm90_threads_are_a_producer_plus_the_consumers),
    cmocka_unit_test(sm90_shared_memory_follows_the_layout),
    cmocka_unit_test(sm90_tiles_are_whole_swizzle_atoms),
    cmocka_unit_test(sm90_deepest_ring_that_fits_hopper),
    cmocka_unit_test(sm90_fused_epilogues_stage_the_whole_cooperative_tile),
    cmocka_unit_test(sm90_pingpong_text_round_trips_with_and_without_a_cluster),
    cmocka_unit_test(sm90_whole_tile_epilogue_round_trips_and_sizes_its_staging),
    cmocka_unit_test(sm90_pingpong_non_canonical_text_is_rejected),
    cmocka_unit_test(sm90_pingpong_trailing_junk_is_rejected),
    cmocka_unit_test(sm90_pingpong_truncations_are_rejected_but_those_without_optional_fields),
    cmocka_unit_test(sm90_pingpong_valid_configs_pass_the_check),
    cmocka_unit_test(sm90_pingpong_rules_reject_with_their_reasons),
    cmocka_unit_test(sm90_pingpong_out_of_range_parses_and_fails_the_check),
    cmocka_unit_test(sm80_refuses_pingpong),
    cmocka_unit_test(generic_configs_round_trip_and_refuse_what_bakes_n_and_k),
    cmocka_unit_test(sm90_pingpong_adds_two_turn_barriers_to_shared_memory),
    cmocka_unit_test(grouped_configs_round_trip_and_refuse_what_groups_cannot_have),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
