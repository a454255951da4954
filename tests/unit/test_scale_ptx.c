/* SPDX-License-Identifier: Apache-2.0 */
/* fp8 scales in grouped kernels (a group's B scales at p_stride_scale_b, block scales per group
 * on sm90), fp8 row scales (scale=row) and row_scale (rowscale), grouped and not, on the sm80
 * recipe (fp8 on sm_89, other types on sm_80) and the sm90 recipe (sm_90a): each config passes the check, generates the same
 * PTX twice that reads the parameters its scales need (and no others), and compiles through
 * nvJitLink with no spills. Without nvJitLink the compile test is skipped with a message and
 * fails when CI is set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/jit.h"
#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"

enum { SCALE_TENSOR, SCALE_ROW, SCALE_BLOCK };
enum { SM90_SMEM = 232448 /* H100 / H200: 227 KiB per CTA */ };

typedef struct scase {
  ptx_recipe recipe;
  int group; /* PTX_GROUP_* */
  ptx_elem ab;
  int b_other;
  ptx_elem c, d;
  int op; /* op_a_t << 1 | op_b_t */
  int bm, bn, wm, wn;
  int64_t n, k;
  int scale, row_scale;
  ptx_bias bias;
  ptx_act act;
  int batched;
} scase;

#define E4 PTX_E_E4M3
#define E5 PTX_E_E5M2
#define BF PTX_E_BF16
static const scase cases[] = {
  /* sm80 recipe, sm_89: mma.sync m16n8k32 */
  {PTX_RECIPE_SM80, PTX_GROUP_ENDS32, E4, 0, BF, BF, 1, 128, 128, 2, 2, 4096, 7168, SCALE_TENSOR, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM80, PTX_GROUP_MASKED, E4, 1, BF, BF, 1, 64, 64, 2, 2, 1000, 1024, SCALE_ROW, 1, PTX_BIAS_COL, PTX_ACT_SILU, 0},
  {PTX_RECIPE_SM80, PTX_GROUP_ENDS64, E5, 1, PTX_E_F32, E4, 1, 16, 128, 1, 4, 2048, 4096, SCALE_ROW, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM80, PTX_GROUP_ENDS32, PTX_E_BF16, 0, BF, BF, 1, 128, 128, 2, 4, 4096, 4096, SCALE_TENSOR, 1, PTX_BIAS_COL, PTX_ACT_GELU_TANH, 0},
  {PTX_RECIPE_SM80, PTX_GROUP_NONE, E4, 0, BF, BF, 1, 128, 128, 2, 4, 4096, 4096, SCALE_ROW, 1, PTX_BIAS_NONE, PTX_ACT_GELU, 0},
  {PTX_RECIPE_SM80, PTX_GROUP_NONE, PTX_E_F16, 0, PTX_E_F16, PTX_E_F16, 0, 128, 128, 4, 2, 1000, 1000, SCALE_TENSOR, 1, PTX_BIAS_COL, PTX_ACT_RELU, 1},
  {PTX_RECIPE_SM80, PTX_GROUP_NONE, PTX_E_S8, 0, PTX_E_S32, PTX_E_S32, 1, 128, 128, 2, 4, 1024, 1024, SCALE_TENSOR, 1, PTX_BIAS_NONE, PTX_ACT_RELU, 0},
  /* sm90 recipe, sm_90a: promoted fp8 on the tiles selection gives it */
  {PTX_RECIPE_SM90, PTX_GROUP_ENDS32, E4, 0, BF, BF, 1, 128, 192, 2, 1, 4096, 7168, SCALE_BLOCK, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  /* 128x256: two whole B blocks per tile, promoted in the whole-program compile's registers */
  {PTX_RECIPE_SM90, PTX_GROUP_ENDS32, E4, 0, BF, BF, 1, 128, 256, 2, 1, 4096, 7168, SCALE_BLOCK, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_NONE, E4, 0, BF, BF, 1, 128, 256, 2, 1, 8192, 8192, SCALE_BLOCK, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_ENDS32, E4, 0, BF, BF, 1, 128, 128, 2, 1, 4096, 7168, SCALE_BLOCK, 1, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_MASKED, E4, 0, BF, BF, 1, 128, 192, 2, 1, 4096, 7168, SCALE_BLOCK, 0, PTX_BIAS_COL, PTX_ACT_SILU, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_ENDS64, E4, 1, BF, BF, 1, 128, 192, 2, 1, 4096, 7168, SCALE_TENSOR, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_MASKED, E5, 1, PTX_E_F32, E4, 1, 128, 128, 2, 1, 2048, 4096, SCALE_TENSOR, 1, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_ENDS32, E4, 0, BF, BF, 1, 128, 192, 2, 1, 4096, 7168, SCALE_ROW, 1, PTX_BIAS_COL, PTX_ACT_GELU, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_MASKED, E4, 0, BF, BF, 1, 64, 128, 1, 1, 1000, 1000, SCALE_ROW, 0, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_ENDS32, PTX_E_BF16, 0, BF, BF, 1, 128, 256, 2, 1, 4096, 7168, SCALE_TENSOR, 1, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_NONE, E4, 0, BF, BF, 1, 128, 192, 2, 1, 4096, 4096, SCALE_ROW, 1, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_NONE, PTX_E_BF16, 0, BF, BF, 1, 128, 256, 2, 1, 4096, 4096, SCALE_TENSOR, 1, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_NONE, E4, 0, BF, BF, 1, 128, 128, 2, 1, 4096, 4096, SCALE_BLOCK, 1, PTX_BIAS_NONE, PTX_ACT_NONE, 0},
  {PTX_RECIPE_SM90, PTX_GROUP_NONE, PTX_E_F16, 0, PTX_E_F16, PTX_E_F16, 1, 128, 192, 2, 1, 4096, 4096, SCALE_TENSOR, 1, PTX_BIAS_COL, PTX_ACT_NONE, 1},
};
#define N_CASES (int)(sizeof cases / sizeof *cases)

/* sm_90a for the sm90 recipe; the sm80 recipe's fp8 on sm_89, its other types on sm_80. */
static const char *arch_of(const scase *s) {
  return s->recipe == PTX_RECIPE_SM90 ? "sm_90a" : ptx_elem_is_fp8(s->ab) ? "sm_89" : "sm_80";
}

static tcj_kernel_cfg case_cfg(const scase *s) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  c.recipe = s->recipe;
  int sm90 = s->recipe == PTX_RECIPE_SM90;
  c.sm = sm90 ? 90 : ptx_elem_is_fp8(s->ab) ? 89 : 80;
  c.arch_suffix = sm90 ? 'a' : 0;
  c.ab = s->ab;
  c.b_other = s->b_other;
  c.c = s->c;
  tcj_cfg_plain_epilogue(&c);
  c.d = s->d;
  c.op_a_t = s->op >> 1;
  c.op_b_t = s->op & 1;
  c.n = s->n;
  c.k = s->k;
  c.bm = s->bm;
  c.bn = s->bn;
  c.bk = (sm90 || s->bm <= 32 ? 128 : 64) / ptx_elem_size(c.ab); /* the menus' K tiles */
  c.warps_m = s->wm;
  c.warps_n = s->wn;
  c.align_a = c.align_b = 16;
  int es = ptx_elem_size(s->c) > ptx_elem_size(s->d) ? ptx_elem_size(s->c) : ptx_elem_size(s->d);
  c.vec_c = sm90 ? 16 / es : 2;
  while (c.n % c.vec_c) c.vec_c /= 2;
  c.bias = s->bias;
  c.bias_t = s->bias ? PTX_E_BF16 : PTX_E_F32;
  c.act = s->act;
  c.batched = s->batched;
  c.grouped = s->group;
  c.block_scale = s->scale == SCALE_BLOCK;
  c.scale_row = s->scale == SCALE_ROW;
  c.row_scale = s->row_scale;
  if (sm90)
    for (c.stages = 8; c.stages > 2 && tcj_cfg_smem_bytes(&c) > SM90_SMEM; c.stages--) continue;
  else
    c.stages = 3;
  return c;
}

static char *generate(const tcj_kernel_cfg *c, size_t *len) {
  char err[4096] = "", *ptx = NULL;
  int rc = ptx_gen_gemm(c, &ptx, len, err, sizeof err);
  if (rc) print_error("ptx_gen_gemm: %s\n", err);
  assert_int_equal(rc, 0);
  assert_non_null(ptx);
  return ptx;
}

/* Each config checks, its PTX is the same twice, and it reads what its scales need: the group
 * stride of B's scales (grouped fp8), the row scales' parameters, and not p_row_scale without
 * rowscale; the configs without scales read their pointers never. */
static void scale_configs_generate_ptx_that_reads_their_scales(void **state) {
  (void)state;
  for (int i = 0; i < N_CASES; i++) {
    tcj_kernel_cfg c = case_cfg(&cases[i]);
    char text[320];
    assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
    tcj_kernel_cfg back;
    assert_int_equal(tcj_cfg_parse(text, &back), 0);
    assert_int_equal(back.scale_row, c.scale_row);
    assert_int_equal(back.row_scale, c.row_scale);
    const char *why = tcj_cfg_check(&c);
    if (why) print_error("%s: %s\n", text, why);
    assert_null(why);
    size_t len = 0, len2 = 0;
    char *ptx = generate(&c, &len), *again = generate(&c, &len2);
    assert_true(len == len2 && memcmp(ptx, again, len) == 0);
    int fp8 = ptx_elem_is_fp8(c.ab);
    int reads_stride = strstr(ptx, "[p_stride_scale_b]") != NULL, reads_rows = strstr(ptx, "[p_row_scale]") != NULL;
    int reads_a = strstr(ptx, "[p_scale_a]") != NULL;
    free(ptx);
    free(again);
    if (reads_stride != (fp8 && c.grouped) || reads_rows != c.row_scale || reads_a != fp8)
      print_error("%s: reads p_stride_scale_b %d, p_row_scale %d, p_scale_a %d\n", text, reads_stride, reads_rows, reads_a);
    assert_int_equal(reads_stride, fp8 && c.grouped);
    assert_int_equal(reads_rows, c.row_scale);
    assert_int_equal(reads_a, fp8);
  }
}

/* The scale modes are part of the config's text, each spelled once, and parse back. */
static void scale_fields_round_trip_through_cfg_text(void **state) {
  (void)state;
  tcj_kernel_cfg c = case_cfg(&cases[1]);
  char text[320];
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_non_null(strstr(text, " group=3 scale=row rowscale"));
  c.scale_row = 0;
  c.row_scale = 0;
  assert_true(tcj_cfg_format(&c, text, sizeof text) > 0);
  assert_null(strstr(text, "scale=row"));
  assert_null(strstr(text, "rowscale"));
  tcj_kernel_cfg back;
  assert_int_equal(tcj_cfg_parse("recipe=sm80 arch=sm_89 ab=e4m3 c=bf16 op=NT n=64 k=64 tile=64x64x64 warps=2x2 "
                                 "stages=3 align=16,16,2 rowscale scale=row", &back), -1); /* out of order */
  c = case_cfg(&cases[0]);
  c.scale_row = 1;
  c.block_scale = 1;
  assert_non_null(tcj_cfg_check(&c)); /* one scale mode */
  c = case_cfg(&cases[0]);
  c.scale_row = 1;
  assert_non_null(tcj_cfg_check(&c)); /* sm80: a 64x64 warp tile spills with row scales */
  c.scale_row = 0;
  c.row_scale = 1;
  assert_non_null(tcj_cfg_check(&c)); /* ...and with row_scale */
  c.row_scale = 0;
  c = case_cfg(&cases[3]);
  c.scale_row = 1;
  assert_non_null(tcj_cfg_check(&c)); /* row scales are fp8's */
  c.scale_row = 0;
  c.ab = PTX_E_F64;
  c.c = c.d = PTX_E_F64;
  c.bias = PTX_BIAS_NONE;
  c.act = PTX_ACT_NONE;
  c.row_scale = 0;
  assert_null(tcj_cfg_check_epilogue(&c, 0));
  c.row_scale = 1;
  assert_non_null(tcj_cfg_check_epilogue(&c, 0)); /* f64 takes no rowscale */
}

static void scale_configs_compile_without_spills(void **state) {
  (void)state;
  char version[128] = "";
  if (!eng_nvjitlink_available(version, sizeof version)) {
    if (getenv("CI")) fail_msg("nvJitLink is not available and CI is set: the scale kernels must compile in CI");
    print_message("[  SKIPPED ] nvJitLink is not available; compiling the scale kernels needs it (CI fails here)\n");
    skip();
  }
  int failures = 0;
  for (int i = 0; i < N_CASES; i++) {
    tcj_kernel_cfg c = case_cfg(&cases[i]);
    char text[320], err[4096] = "";
    tcj_cfg_format(&c, text, sizeof text);
    size_t len = 0;
    char *ptx = generate(&c, &len);
    eng_cubin cubin;
    memset(&cubin, 0, sizeof cubin);
    tcj_status st = eng_jit_compile(ptx, len, arch_of(&cases[i]), &cubin, err, sizeof err);
    int regs = -1, spills = st == TCJ_SUCCESS ? eng_info_log_spills(cubin.info_log, &regs) : -1;
    if (st != TCJ_SUCCESS || spills != 0) {
      print_error("FAIL %s (%s): %s spills %d\n%s\n", text, arch_of(&cases[i]), st == TCJ_SUCCESS ? "compiled," : err,
                  spills, cubin.info_log ? cubin.info_log : "");
      failures++;
    } else {
      print_message("%3d registers, 0 spills (%s): %s\n", regs, arch_of(&cases[i]), text);
    }
    eng_cubin_free(&cubin);
    free(ptx);
  }
  print_message("scales: %d configs compiled (%s), %d failed\n", N_CASES - failures, version, failures);
  assert_int_equal(failures, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(scale_configs_generate_ptx_that_reads_their_scales),
    cmocka_unit_test(scale_fields_round_trip_through_cfg_text),
    cmocka_unit_test(scale_configs_compile_without_spills),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
