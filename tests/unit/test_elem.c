/* SPDX-License-Identifier: Apache-2.0 */
/* The element table (ptxgen/elem.h): every row is complete, agrees with the facts it replaced
 * (sizes, names, tensor-map types, spellings), maps to its public dtype and back, and the type
 * rules read from it accept and refuse exactly what validation and tcj_cfg_check did before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/error.h"
#include "engine/validate.h"
#include "ptxgen/kernel_cfg.h"
#include "tcj.h"

enum { N_DTYPES = TCJ_F64 + 1 };
/* Counts and transcript hashes of the answers of the code before the element table (the
 * validation and config checks each kept their own type rules then). */
#define ACCEPTED_TUPLES 108
#define TUPLES_HASH 0xd5fedd1cadda4e05ull
#define EPILOGUE_ACCEPTED 435
#define EPILOGUE_HASH 0xb392ef1b9e2ebbf0ull
#define CFG_ACCEPTED 994
#define CFG_HASH 0x65dbcc95a513febfull


/* FNV-1a over a transcript of answers. */
static uint64_t fnv(uint64_t h, const char *s) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}
#define FNV_START 0xcbf29ce484222325ull

/* ---- eng_validate_desc over every combination of public types ------------------------------- */

/* A valid 64^3 row-major descriptor; operands 1 MiB apart, so no element size makes them overlap. */
static tcj_gemm_desc desc_of(int a, int b, int c, int d) {
  tcj_gemm_desc g = TCJ_GEMM_DESC_INIT;
  g.m = g.n = g.k = 64;
  g.a = (const void *)(uintptr_t)0x100000, g.a_type = (tcj_dtype)a, g.lda = 64;
  g.b = (const void *)(uintptr_t)0x200000, g.b_type = (tcj_dtype)b, g.ldb = 64;
  g.c = (void *)(uintptr_t)0x300000, g.c_type = (tcj_dtype)c, g.ldc = 64;
  if (d >= 0) g.d = (void *)(uintptr_t)0x400000, g.d_type = (tcj_dtype)d, g.ldd = 64;
  return g;
}

/* Today's combinations as validate.c's map_types spelled them before the element table, kept
 * here verbatim as the reference: 1 where (a, b) may produce out. */
static int reference_map_types(int a, int b, int c, int fp8_out) {
  int f32a = a == TCJ_F32 || a == TCJ_TF32, f32b = b == TCJ_F32 || b == TCJ_TF32;
  int fp8a = a == TCJ_E4M3 || a == TCJ_E5M2, fp8b = b == TCJ_E4M3 || b == TCJ_E5M2;
  if (f32a && f32b && c == TCJ_F32) return 1;
  if (fp8a && fp8b) {
    if (c == TCJ_F16 || c == TCJ_BF16 || c == TCJ_F32) return 1;
    if (c == TCJ_E4M3 || c == TCJ_E5M2) return fp8_out;
    return 0;
  }
  if (a != b) return 0;
  if (a == TCJ_F64) return c == TCJ_F64;
  if (a == TCJ_S8 && c == TCJ_S32) return 1;
  if (a != TCJ_F16 && a != TCJ_BF16) return 0;
  return c == TCJ_F16 || c == TCJ_BF16 || c == TCJ_F32;
}

static const char *const ref_names[N_DTYPES] = {"f16", "bf16", "f32", "tf32", "e4m3", "e5m2", "s8", "s32", "f64"};

/* Every (a, b, c, d) of public types, d = -1 being "D is C": the output is checked first (as D,
 * fp8 allowed, when it is separate), then C; a refusal names them with validate.c's words. */
static void every_type_tuple_is_accepted_or_refused_as_before(void **state) {
  (void)state;
  int accepted = 0;
  uint64_t h = FNV_START;
  for (int a = 0; a < N_DTYPES; a++)
    for (int b = 0; b < N_DTYPES; b++)
      for (int c = 0; c < N_DTYPES; c++)
        for (int d = -1; d < N_DTYPES; d++) {
          tcj_gemm_desc g = desc_of(a, b, c, d);
          eng_problem p;
          tcj_status got = eng_validate_desc(&g, &p);
          int out = d >= 0 ? d : c;
          const char *out_name = d >= 0 ? "d" : "c";
          char want_msg[512] = "";
          int ok = reference_map_types(a, b, out, d >= 0);
          if (ok && d >= 0 && !reference_map_types(a, b, c, 0)) {
            ok = 0;
            out = c;
            out_name = "c";
          }
          if (!ok)
            snprintf(want_msg, sizeof want_msg,
                     "a=%s b=%s %s=%s is not supported (supported: f16|bf16 -> f16|bf16|f32, tf32|f32 -> f32, f64 -> "
                     "f64, s8 -> s32, e4m3|e5m2 -> f16|bf16|f32, and e4m3|e5m2 into a separate D of tcj_gemm_ex)",
                     ref_names[a], ref_names[b], out_name, ref_names[out]);
          const char *msg = got == TCJ_SUCCESS ? "" : eng_last_error();
          if (got != (ok ? TCJ_SUCCESS : TCJ_ERROR_NOT_SUPPORTED) || strcmp(msg, want_msg) != 0)
            fail_msg("a=%s b=%s c=%s d=%s: %s \"%s\", want %s \"%s\"", ref_names[a], ref_names[b], ref_names[c],
                     d >= 0 ? ref_names[d] : "(c)", tcj_status_string(got), msg,
                     tcj_status_string(ok ? TCJ_SUCCESS : TCJ_ERROR_NOT_SUPPORTED), want_msg);
          accepted += ok;
          char line[64];
          snprintf(line, sizeof line, "%d %d %d %d %d\n", a, b, c, d, (int)got);
          h = fnv(h, line);
          if (ok) {
            snprintf(line, sizeof line, "%d %d %d %d %d\n", (int)p.ab, p.b_other, (int)p.c, (int)p.d, p.tf32x3);
            h = fnv(h, line);
          }
        }
  assert_int_equal(accepted, ACCEPTED_TUPLES);
  if (h != TUPLES_HASH) fail_msg("transcript hash %016llx, want %016llx", (unsigned long long)h, (unsigned long long)TUPLES_HASH);
}

/* The epilogue's type rules through eng_validate_desc: every operand type with an output it
 * takes, every bias kind and type, activation and user function. The answers (status and
 * message) hash to the transcript of the code before the element table. */
static void every_epilogue_on_every_operand_type_is_accepted_or_refused_as_before(void **state) {
  (void)state;
  static const struct { int ab, out; } pairs[] = {
    {TCJ_F16, TCJ_F16}, {TCJ_BF16, TCJ_F32}, {TCJ_F32, TCJ_F32}, {TCJ_TF32, TCJ_F32}, {TCJ_E4M3, TCJ_BF16},
    {TCJ_E5M2, TCJ_E4M3}, {TCJ_S8, TCJ_S32}, {TCJ_F64, TCJ_F64},
  };
  uint64_t h = FNV_START;
  int accepted = 0;
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
    for (int kind = TCJ_BIAS_NONE; kind <= TCJ_BIAS_ROW; kind++)
      for (int bt = 0; bt < N_DTYPES; bt++)
        for (int act = TCJ_ACT_NONE; act <= TCJ_ACT_SILU; act++)
          for (int user = 0; user < 2; user++) {
            if (kind == TCJ_BIAS_NONE && bt) continue;
            tcj_gemm_desc g = desc_of(pairs[i].ab, pairs[i].ab, TCJ_F32, pairs[i].out);
            g.c = NULL;
            g.bias_kind = (tcj_bias_kind)kind;
            g.bias_type = (tcj_dtype)bt;
            if (kind) g.bias = (const void *)(uintptr_t)0x500000;
            g.activation = (tcj_activation)act;
            g.epilogue_source = user ? "__device__ float tcj_epilogue(float v) { return v; }" : NULL;
            eng_problem p;
            tcj_status got = eng_validate_desc(&g, &p);
            accepted += got == TCJ_SUCCESS;
            char line[600];
            snprintf(line, sizeof line, "%d %d %d %d %d: %d %s %d\n", pairs[i].ab, kind, bt, act, user, (int)got,
                     got == TCJ_SUCCESS ? "" : eng_last_error(), got == TCJ_SUCCESS ? (int)p.bias_t : -1);
            h = fnv(h, line);
          }
  assert_int_equal(accepted, EPILOGUE_ACCEPTED);
  if (h != EPILOGUE_HASH) fail_msg("transcript hash %016llx, want %016llx", (unsigned long long)h, (unsigned long long)EPILOGUE_HASH);
}

/* ---- tcj_cfg_check over every element type in every place a config names one ---------------- */

/* A valid config of each recipe whose K tile is set per operand type below. */
static const char *const recipe_texts[] = {
  "recipe=sm80 arch=sm_89 ab=f16 c=f32 op=NT n=4096 k=4096 tile=128x128x32 warps=2x2 stages=3 align=16,16,1",
  "recipe=sm90 arch=sm_90a ab=bf16 c=bf16 op=NT n=4096 k=4096 tile=128x128x64 warps=2x1 stages=4 align=16,16,1",
  "recipe=dmma arch=sm_90 ab=f64 c=f64 op=NT n=4096 k=4096 tile=64x64x16 warps=2x2 stages=3 align=16,16,1",
};

/* Each recipe x operand type x C x D, plain and with each bias type, activation and a user
 * function: tcj_cfg_check's answers hash to the transcript of the code before the element table. */
static void cfg_check_answers_every_type_as_before(void **state) {
  (void)state;
  uint64_t h = FNV_START;
  int accepted = 0;
  for (size_t r = 0; r < sizeof recipe_texts / sizeof *recipe_texts; r++) {
    tcj_kernel_cfg base;
    assert_int_equal(tcj_cfg_parse(recipe_texts[r], &base), 0);
    assert_null(tcj_cfg_check(&base));
    for (int ab = 0; ab < PTX_E_COUNT; ab++)
      for (int c = 0; c < PTX_E_COUNT; c++)
        for (int d = 0; d < PTX_E_COUNT; d++)
          for (int epi = 0; epi < 1 + PTX_E_COUNT + PTX_ACT_COUNT + 1; epi++) {
            tcj_kernel_cfg cfg = base;
            int es = ptx_elem_size((ptx_elem)ab);
            cfg.ab = (ptx_elem)ab;
            cfg.c = (ptx_elem)c;
            cfg.d = (ptx_elem)d;
            if (cfg.recipe == PTX_RECIPE_SM80) cfg.bk = 64 / es;
            if (cfg.recipe == PTX_RECIPE_SM90) cfg.bk = 128 / es;
            int e = epi - 1;
            if (e >= 0 && e < PTX_E_COUNT) {
              cfg.bias = PTX_BIAS_COL;
              cfg.bias_t = (ptx_elem)e;
            } else if ((e -= PTX_E_COUNT) >= 0 && e < PTX_ACT_COUNT) {
              cfg.act = (ptx_act)e;
            } else if (e == PTX_ACT_COUNT) {
              cfg.user = 0x1234;
            }
            const char *why = tcj_cfg_check(&cfg);
            accepted += why == NULL;
            char line[400];
            snprintf(line, sizeof line, "%zu %d %d %d %d: %s\n", r, ab, c, d, epi, why ? why : "ok");
            h = fnv(h, line);
          }
  }
  assert_int_equal(accepted, CFG_ACCEPTED);
  if (h != CFG_HASH) fail_msg("transcript hash %016llx, want %016llx", (unsigned long long)h, (unsigned long long)CFG_HASH);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_type_tuple_is_accepted_or_refused_as_before),
    cmocka_unit_test(every_epilogue_on_every_operand_type_is_accepted_or_refused_as_before),
    cmocka_unit_test(cfg_check_answers_every_type_as_before),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
