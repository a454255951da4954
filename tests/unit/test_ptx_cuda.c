/* SPDX-License-Identifier: Apache-2.0 */
/* The whole-program route (engine/ptx_cuda.h, eng_jit_compile): a tcj module written as CUDA
 * C++ keeps its entries' parameters (renamed as NVRTC names them, registers and directives left
 * alone), directives and body; modules the translation does not cover are refused with a
 * reason, and compiled by nvJitLink with that reason first in the info log; and sm90 modules
 * compile whole through NVRTC with setmaxnreg in effect, where nvJitLink drops it (C7504): a
 * tile whose consumers need more than the entry count spills through nvJitLink and not through
 * the route. Without NVRTC 12.4 the compile tests are skipped with a message, and fail when CI
 * is set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/jit.h"
#include "engine/nvrtc.h"
#include "engine/ptx_cuda.h"
#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"

static const char module[] =
    ".version 8.0\n"
    ".target sm_90a\n"
    ".address_size 64\n"
    "\n"
    ".extern .shared .align 1024 .b8 tcj_smem[];\n"
    "\n"
    ".visible .entry tcj_k(\n"
    "\t.param .align 64 .b8 p_map[128],\n"
    "\t.param .u64 p_a,\n"
    "\t.param .u32 p_m,\n"
    "\t.param .f64 p_x\n"
    ")\n"
    ".maxntid 384, 1, 1\n"
    ".maxnreg 168\n"
    ".reqnctapercluster 2, 1, 1\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .b64 %rd<4>;\n"
    "\t.reg .pred %p_m<2>;\n"
    "\tmov.b64 %rd1, p_map;\n"
    "\tld.param.u32 %r1, [p_m];\n"
    "\tld.param.u64 %rd2, [p_a];\n"
    "\tmov.u32 %r2, tcj_smem;\n"
    "\tsetp.eq.u32 %p_m1, %r1, 0;\n"
    "\t@%p_m1 bra.uni $L1;\n"
    "\tst.global.v2.u32 [%rd2], {%r1, %r2}; // p_a \"quoted\"\n"
    "$L1:\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry tcj_two(\n"
    "\t.param .u64 p_a\n"
    ")\n"
    ".maxntid 128, 1, 1\n"
    "{\n"
    "\tret;\n"
    "}\n";

static void expect_in(const char *text, const char *want) {
  if (!strstr(text, want)) fail_msg("'%s' is missing from:\n%s", want, text);
}

static void expect_not_in(const char *text, const char *unwanted) {
  if (strstr(text, unwanted)) fail_msg("'%s' should not be in:\n%s", unwanted, text);
}

static void a_module_becomes_kernels_with_its_parameters_directives_and_body(void **state) {
  (void)state;
  char why[512] = "", *src = NULL;
  if (eng_ptx_as_cuda(module, sizeof module - 1, &src, why, sizeof why) != 0) fail_msg("%s", why);
  expect_in(src, "extern __shared__ __align__(1024) unsigned char tcj_smem[];");
  expect_in(src, "extern \"C\" __global__ void __maxnreg__(168) __cluster_dims__(2, 1, 1) tcj_k(");
  expect_in(src, "const __grid_constant__ tcj_k_param_0_bytes p_map");
  expect_in(src, "struct __align__(64) tcj_k_param_0_bytes { unsigned char b[128]; };");
  expect_in(src, "unsigned long long p_a,");
  expect_in(src, "unsigned int p_m,");
  expect_in(src, "double p_x)");
  /* References renamed as NVRTC names the parameters; registers named like them kept. */
  expect_in(src, "mov.b64 %rd1, tcj_k_param_0;");
  expect_in(src, "ld.param.u32 %r1, [tcj_k_param_2];");
  expect_in(src, "ld.param.u64 %rd2, [tcj_k_param_1];");
  expect_in(src, ".reg .pred %p_m<2>;");
  expect_in(src, "@%p_m1 bra.uni $L1;");
  expect_in(src, "{%r1, %r2}; // tcj_k_param_1 \\\"quoted\\\"\\n\"");
  expect_in(src, "\"$L1:\\n\"");
  expect_in(src, "asm volatile(\"\" ::\"l\"(tcj_smem));");
  /* The second entry: .maxntid alone becomes launch bounds, and its p_a is its own. */
  expect_in(src, "extern \"C\" __global__ void __launch_bounds__(128) tcj_two(\n    unsigned long long p_a)");
  expect_not_in(src, ".version");
  expect_not_in(src, ".maxnreg");
  free(src);
}

static void expect_refused(const char *ptx, const char *reason) {
  char why[512] = "", *src = (char *)1;
  assert_int_equal(eng_ptx_as_cuda(ptx, strlen(ptx), &src, why, sizeof why), -1);
  assert_null(src);
  if (!strstr(why, reason)) fail_msg("reason '%s' lacks '%s'", why, reason);
}

static void what_the_translation_does_not_cover_is_refused(void **state) {
  (void)state;
  /* A user epilogue's module defines a .func: it stays with nvJitLink. */
  expect_refused(".version 8.0\n.target sm_90a\n.address_size 64\n\n.visible .func (.param .b32 r) tcj_epilogue()\n{\nret;\n}\n",
                 "module line '.visible .func");
  expect_refused(".version 8.0\n.target sm_90a\n.visible .entry k(\n\t.param .v2 .u32 p\n)\n{\nret;\n}\n",
                 "parameter line");
  expect_refused(".version 8.0\n.target sm_90a\n.visible .entry k(\n\t.param .u32 p\n)\n.minnctapersm 2\n{\nret;\n}\n",
                 "directive '.minnctapersm 2'");
  expect_refused(".version 8.0\n.target sm_90a\n.visible .entry k(\n\t.param .u32 p\n)\n{\nret;\n", "ends before its body");
  expect_refused(".version 8.0\n.target sm_90a\n", "no entry");
}

static void skip_without_whole_program(void) {
  if (eng_nvrtc_whole_program_available()) return;
  if (getenv("CI")) fail_msg("NVRTC 12.4 or newer is not available and CI is set: the whole-program route must be tested in CI");
  print_message("[  SKIPPED ] NVRTC 12.4 or newer is not available\n");
  skip();
}

static char *sm90_module(const char *text, size_t *len) {
  tcj_kernel_cfg cfg;
  char err[512];
  if (tcj_cfg_parse(text, &cfg) != 0) fail_msg("cannot parse %s", text);
  const char *why = tcj_cfg_check(&cfg);
  if (why) fail_msg("%s: %s", text, why);
  char *ptx = NULL;
  if (ptx_gen_gemm(&cfg, &ptx, len, err, sizeof err) != 0) fail_msg("%s: %s", text, err);
  return ptx;
}

/* The cooperative tile selection gives bf16 at 8192^3, a grouped one, and the tiles that need
 * the route: promoted e4m3 128x256 (grouped with row scales, and gathered, whose producer keeps
 * more registers): compiled whole, with setmaxnreg kept (no C7504) and no spills; nvJitLink
 * compiles the same modules with C7504. */
static void sm90_modules_compile_whole_with_setmaxnreg_in_effect(void **state) {
  (void)state;
  skip_without_whole_program();
  static const char *const cfgs[] = {
      "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NN n=8192 k=8192 tile=128x256x64 warps=2x1 stages=4 align=16,16,8",
      "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=4096 k=7168 tile=256x128x64 warps=2x1 stages=4 align=16,16,8 group=1",
      "recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT n=8192 k=8192 tile=128x256x128 warps=2x1 stages=4 align=16,16,8 cluster=2",
      "recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT n=4096 k=7168 tile=128x256x128 warps=2x1 stages=4 align=16,16,8 group=1 scale=row",
      "recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT n=4096 k=7168 tile=128x256x128 warps=2x1 stages=4 align=16,16,8 group=1 gather",
  };
  for (size_t i = 0; i < sizeof cfgs / sizeof *cfgs; i++) {
    size_t len = 0;
    char *ptx = sm90_module(cfgs[i], &len);
    assert_true(eng_ptx_rebalances_registers(ptx, len));
    char err[4096] = "";
    eng_cubin whole, linked;
    if (eng_jit_compile(ptx, len, "sm_90a", &whole, err, sizeof err) != TCJ_SUCCESS) fail_msg("%s: %s", cfgs[i], err);
    if (!whole.whole_program) fail_msg("%s was not compiled whole:\n%s", cfgs[i], whole.info_log ? whole.info_log : "");
    int regs = 0;
    assert_int_equal(eng_info_log_spills(whole.info_log, &regs), 0);
    assert_int_equal(regs, 168); /* the entry count .maxnreg pins */
    expect_not_in(whole.info_log, "setmaxnreg' ignored");
    char who[128];
    expect_in(eng_cubin_compiler(&whole, "nvJitLink", who, sizeof who), "whole-program");
    if (eng_nvjitlink_available(NULL, 0)) {
      if (eng_jit_compile_nvjitlink(ptx, len, "sm_90a", &linked, err, sizeof err) != TCJ_SUCCESS) fail_msg("%s", err);
      expect_in(linked.info_log, "setmaxnreg' ignored");
      assert_false(linked.whole_program);
      assert_string_equal(eng_cubin_compiler(&linked, "nvJitLink", who, sizeof who), "nvJitLink");
      eng_cubin_free(&linked);
    }
    eng_cubin_free(&whole);
    free(ptx);
  }
}

/* A module that wants the route but that the translation refuses (a .func beside the entry, as a
 * user epilogue's module has) is compiled by nvJitLink, and its info log says why first. */
static void a_refused_module_falls_back_to_nvjitlink_and_says_why(void **state) {
  (void)state;
  skip_without_whole_program();
  if (!eng_nvjitlink_available(NULL, 0)) fail_msg("nvJitLink is not available");
  static const char ptx[] = ".version 8.0\n.target sm_90a\n.address_size 64\n\n"
                            "// a module that names setmaxnreg\n"
                            ".visible .func helper()\n{\n\tret;\n}\n\n"
                            ".visible .entry k()\n.maxntid 128, 1, 1\n{\n\tcall.uni helper, ();\n\tret;\n}\n";
  assert_true(eng_ptx_rebalances_registers(ptx, sizeof ptx - 1));
  eng_cubin bin;
  char err[1024] = "";
  if (eng_jit_compile(ptx, sizeof ptx - 1, "sm_90a", &bin, err, sizeof err) != TCJ_SUCCESS) fail_msg("%s", err);
  assert_false(bin.whole_program);
  assert_non_null(bin.info_log);
  assert_int_equal(strncmp(bin.info_log, ENG_JIT_NOT_WHOLE, strlen(ENG_JIT_NOT_WHOLE)), 0);
  expect_in(bin.info_log, "module line '.visible .func helper()'");
  eng_cubin_free(&bin);
}

/* A module without setmaxnreg (the sm80 recipe) is not taken whole: nvJitLink compiles it. */
static void modules_without_setmaxnreg_go_to_nvjitlink(void **state) {
  (void)state;
  if (!eng_nvjitlink_available(NULL, 0)) {
    if (getenv("CI")) fail_msg("nvJitLink is not available and CI is set");
    skip();
  }
  size_t len = 0;
  tcj_kernel_cfg cfg;
  char err[4096];
  const char *text = "recipe=sm80 arch=sm_80 ab=f16 c=f16 op=NN n=1024 k=1024 tile=128x128x32 warps=2x2 stages=3 align=16,16,2";
  if (tcj_cfg_parse(text, &cfg) != 0) fail_msg("cannot parse %s", text);
  char *ptx = NULL;
  if (ptx_gen_gemm(&cfg, &ptx, &len, err, sizeof err) != 0) fail_msg("%s", err);
  assert_false(eng_ptx_rebalances_registers(ptx, len));
  eng_cubin bin;
  if (eng_jit_compile(ptx, len, "sm_80", &bin, err, sizeof err) != TCJ_SUCCESS) fail_msg("%s", err);
  assert_false(bin.whole_program);
  assert_int_equal(eng_info_log_spills(bin.info_log, NULL), 0);
  eng_cubin_free(&bin);
  free(ptx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_module_becomes_kernels_with_its_parameters_directives_and_body),
      cmocka_unit_test(what_the_translation_does_not_cover_is_refused),
      cmocka_unit_test(sm90_modules_compile_whole_with_setmaxnreg_in_effect),
      cmocka_unit_test(a_refused_module_falls_back_to_nvjitlink_and_says_why),
      cmocka_unit_test(modules_without_setmaxnreg_go_to_nvjitlink),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
