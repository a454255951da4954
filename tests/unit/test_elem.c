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
#include <cuda.h>

#include "engine/error.h"
#include "engine/validate.h"
#include "ptxgen/elem.h"
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
 * function: tcj_cfg_check's answers hash to the transcript of the code before the element table.
 * The activations of that code: SwiGLU (after them) has rules of its own (test_swiglu.c). */
enum { ACTS_BEFORE_TABLE = PTX_ACT_SILU + 1 };
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
          for (int epi = 0; epi < 1 + PTX_E_COUNT + ACTS_BEFORE_TABLE + 1; epi++) {
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
            } else if ((e -= PTX_E_COUNT) >= 0 && e < ACTS_BEFORE_TABLE) {
              cfg.act = (ptx_act)e;
            } else if (e == ACTS_BEFORE_TABLE) {
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

/* ---- the rows ---------------------------------------------------------------------------------- */

static void every_row_is_complete(void **state) {
  (void)state;
  for (int e = 0; e < PTX_E_COUNT; e++) {
    const ptx_elem_row *r = ptx_elem_row_of((ptx_elem)e);
    assert_non_null(r);
    assert_non_null(r->name);
    assert_non_null(r->ptx);
    assert_non_null(r->mem);
    assert_non_null(r->cvt);
    assert_true(r->size == 1 || r->size == 2 || r->size == 4 || r->size == 8);
    assert_true((unsigned)r->dtype < PTX_DT_COUNT);
    assert_true(r->reg == PTX_F32 || r->reg == PTX_B32 || r->reg == PTX_F64);
    assert_true(r->tmap == PTX_TMAP_NONE || r->tmap == PTX_TMAP_UINT8 || r->tmap == PTX_TMAP_INT32 ||
                r->tmap == PTX_TMAP_FLOAT16 || r->tmap == PTX_TMAP_FLOAT32 || r->tmap == PTX_TMAP_BFLOAT16);
    assert_int_equal(r->fp8, ptx_elem_is_fp8((ptx_elem)e));
    assert_true(r->acts & 1u); /* every type takes "no activation" */
    /* An operand type: an accumulator, C types with a reason for the others, D types that
     * include them, and an epilogue rule where it refuses some epilogue. */
    if (r->operand == (ptx_elem)e) {
      assert_true(r->acc < PTX_E_COUNT);
      assert_true(r->c_types != 0 && r->c_rule != NULL);
      assert_int_equal(r->d_types & r->c_types, r->c_types);
      if (!r->fused || r->acts != ~0u || !r->user) assert_non_null(r->epi_rule);
    } else {
      assert_true(r->operand == PTX_E_COUNT || ptx_elem_row_of(r->operand)->operand == r->operand);
      assert_int_equal(r->c_types | r->d_types, 0);
    }
    /* wgmma reads 32 bytes of K per instruction; its types have an mma.sync shape too. */
    if (r->wgmma.k) {
      assert_int_equal(r->wgmma.k * r->size, 32);
      assert_non_null(r->mma);
    }
  }
  assert_null(ptx_elem_row_of(PTX_E_COUNT));
  assert_null(ptx_elem_row_of((ptx_elem)-1));
}

/* The facts the table replaced, as they were spelled before it. */
static void rows_agree_with_the_facts_they_replaced(void **state) {
  (void)state;
  /* kernel_cfg.h's PTX_ELEM_LIST */
  static const struct { ptx_elem e; const char *name; int size; } list[] = {
    {PTX_E_F16, "f16", 2},  {PTX_E_BF16, "bf16", 2}, {PTX_E_TF32, "tf32", 4}, {PTX_E_F32, "f32", 4},  {PTX_E_S8, "s8", 1},
    {PTX_E_S32, "s32", 4}, {PTX_E_E4M3, "e4m3", 1}, {PTX_E_E5M2, "e5m2", 1}, {PTX_E_F64, "f64", 8},
  };
  assert_int_equal(sizeof list / sizeof *list, PTX_E_COUNT);
  for (size_t i = 0; i < sizeof list / sizeof *list; i++) {
    assert_int_equal(list[i].e, (ptx_elem)i);
    assert_string_equal(ptx_elem_name(list[i].e), list[i].name);
    assert_string_equal(ptx_elem_row_of(list[i].e)->ptx, list[i].name);
    assert_int_equal(ptx_elem_size(list[i].e), list[i].size);
    ptx_elem back;
    assert_int_equal(ptx_elem_from_name(list[i].name, &back), 0);
    assert_int_equal(back, list[i].e);
  }
  ptx_elem none;
  assert_int_equal(ptx_elem_from_name("f8", &none), -1);
  /* engine/gemm.c's switch, against cuda.h's enum */
  static const struct { ptx_elem e; int tmap; } tmaps[] = {
    {PTX_E_BF16, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16}, {PTX_E_F16, CU_TENSOR_MAP_DATA_TYPE_FLOAT16},
    {PTX_E_F32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32},   {PTX_E_TF32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
    {PTX_E_S8, CU_TENSOR_MAP_DATA_TYPE_UINT8},      {PTX_E_E4M3, CU_TENSOR_MAP_DATA_TYPE_UINT8},
    {PTX_E_E5M2, CU_TENSOR_MAP_DATA_TYPE_UINT8},    {PTX_E_S32, CU_TENSOR_MAP_DATA_TYPE_INT32},
    {PTX_E_F64, PTX_TMAP_NONE},
  };
  for (size_t i = 0; i < sizeof tmaps / sizeof *tmaps; i++) assert_int_equal(ptx_elem_row_of(tmaps[i].e)->tmap, tmaps[i].tmap);
  /* ptx_ops.c's mma_table and wgmma_table ({k, imm_scale, mn_major}) */
  static const struct { ptx_elem ab; const char *shape; ptx_elem acc; ptx_wgmma_type w; } mma[] = {
    {PTX_E_F16, "m16n8k16", PTX_E_F32, {16, 1, 1}}, {PTX_E_BF16, "m16n8k16", PTX_E_F32, {16, 1, 1}},
    {PTX_E_TF32, "m16n8k8", PTX_E_F32, {8, 1, 0}},  {PTX_E_S8, "m16n8k32", PTX_E_S32, {32, 0, 0}},
    {PTX_E_E4M3, "m16n8k32", PTX_E_F32, {32, 1, 0}}, {PTX_E_E5M2, "m16n8k32", PTX_E_F32, {32, 1, 0}},
  };
  int with_mma = 0;
  for (int e = 0; e < PTX_E_COUNT; e++) with_mma += ptx_elem_row_of((ptx_elem)e)->mma != NULL;
  assert_int_equal(with_mma, sizeof mma / sizeof *mma);
  for (size_t i = 0; i < sizeof mma / sizeof *mma; i++) {
    const ptx_elem_row *r = ptx_elem_row_of(mma[i].ab);
    const ptx_wgmma_type *w = ptx_wgmma_type_of(mma[i].ab);
    assert_string_equal(r->mma, mma[i].shape);
    assert_int_equal(r->acc, mma[i].acc);
    assert_non_null(w);
    assert_int_equal(w->k, mma[i].w.k);
    assert_int_equal(w->imm_scale, mma[i].w.imm_scale);
    assert_int_equal(w->mn_major, mma[i].w.mn_major);
  }
  assert_null(ptx_wgmma_type_of(PTX_E_F32));
  assert_null(ptx_wgmma_type_of(PTX_E_S32));
  assert_null(ptx_wgmma_type_of(PTX_E_F64));
  assert_null(ptx_wgmma_type_of(PTX_E_COUNT));
  /* The epilogue's spellings: the 4-byte word (s32 b32, else f32), the value register (s32 .b32,
   * else .f32), the pair conversions. */
  assert_string_equal(ptx_elem_row_of(PTX_E_S32)->mem, "b32");
  assert_string_equal(ptx_elem_row_of(PTX_E_F32)->mem, "f32");
  assert_int_equal(ptx_elem_row_of(PTX_E_S32)->reg, PTX_B32);
  static const ptx_elem floats[] = {PTX_E_F16, PTX_E_BF16, PTX_E_F32, PTX_E_E4M3, PTX_E_E5M2};
  for (size_t i = 0; i < sizeof floats / sizeof *floats; i++) assert_int_equal(ptx_elem_row_of(floats[i])->reg, PTX_F32);
  assert_string_equal(ptx_elem_row_of(PTX_E_BF16)->cvt, "bf16");
  assert_string_equal(ptx_elem_row_of(PTX_E_F16)->cvt, "f16");
  assert_string_equal(ptx_elem_row_of(PTX_E_E4M3)->cvt, "e4m3");
  assert_string_equal(ptx_elem_row_of(PTX_E_E5M2)->cvt, "e5m2");
  assert_int_equal(ptx_elem_row_of(PTX_E_F16)->conv, PTX_CONV_CVT);
  assert_int_equal(ptx_elem_row_of(PTX_E_BF16)->conv, PTX_CONV_HIGH_HALF);
  assert_int_equal(ptx_elem_row_of(PTX_E_F32)->conv, PTX_CONV_SAME);
}

static void every_public_dtype_maps_to_a_row_and_back(void **state) {
  (void)state;
  assert_int_equal(PTX_DT_COUNT, N_DTYPES);
  for (int t = 0; t < N_DTYPES; t++) {
    ptx_elem e = ptx_elem_of_dtype(t);
    assert_true(e < PTX_E_COUNT);
    assert_int_equal(ptx_elem_row_of(e)->dtype, t);
    assert_string_equal(ptx_elem_name(e), tcj_dtype_name((tcj_dtype)t));
    assert_string_equal(ref_names[t], tcj_dtype_name((tcj_dtype)t));
  }
  for (int e = 0; e < PTX_E_COUNT; e++) assert_int_equal(ptx_elem_of_dtype((int)ptx_elem_row_of((ptx_elem)e)->dtype), e);
  assert_int_equal(ptx_elem_of_dtype(N_DTYPES), PTX_E_COUNT);
  assert_int_equal(ptx_elem_of_dtype(-1), PTX_E_COUNT);
  assert_string_equal(tcj_dtype_name((tcj_dtype)N_DTYPES), "unknown dtype");
}

/* tcj_cfg_check's C rule as kernel_cfg.c spelled it before the table (c_type_ok, c_type_rule),
 * for every operand type a recipe asks about (f64's is the dmma recipe's own check). */
static void c_rule_answers_as_kernel_cfg_did(void **state) {
  (void)state;
  for (int ab = 0; ab < PTX_E_COUNT; ab++) {
    if (ab == PTX_E_F64) continue;
    for (int c = 0; c < PTX_E_COUNT; c++) {
      int flt = c == PTX_E_F16 || c == PTX_E_BF16 || c == PTX_E_F32, ok;
      const char *rule;
      switch (ab) {
      case PTX_E_F16: case PTX_E_BF16: ok = flt, rule = "16-bit operands need c f16, bf16 or f32"; break;
      case PTX_E_E4M3: case PTX_E_E5M2: ok = flt, rule = "fp8 operands need c f16, bf16 or f32"; break;
      case PTX_E_TF32: ok = c == PTX_E_F32, rule = "tf32 operands need c f32"; break;
      case PTX_E_S8: ok = c == PTX_E_S32, rule = "s8 operands need c s32"; break;
      default: ok = 0, rule = "unsupported operand type";
      }
      const char *got = ptx_elem_check_c((ptx_elem)ab, (ptx_elem)c);
      if (ok) assert_null(got);
      else assert_string_equal(got, rule);
    }
  }
}

/* The epilogue rules as validate.c and kernel_cfg.c spelled them before the table: s8 takes a
 * bias and ReLU only, f64 nothing but a plain epilogue; every other operand type anything. */
static void epilogue_rules_answer_as_before(void **state) {
  (void)state;
  for (int ab = 0; ab < PTX_E_COUNT; ab++) {
    if (ptx_elem_row_of((ptx_elem)ab)->operand != (ptx_elem)ab) continue;
    for (int bias = 0; bias < 2; bias++)
      for (int act = 0; act < PTX_ACT_COUNT; act++)
        for (int user = 0; user < 2; user++) {
          ptx_epi_refusal want = PTX_EPI_OK;
          if (ab == PTX_E_F64 && (bias || act || user)) want = PTX_EPI_FUSED;
          else if (ab == PTX_E_S8 && act != PTX_ACT_NONE && act != PTX_ACT_RELU) want = PTX_EPI_ACT;
          else if (ab == PTX_E_S8 && user) want = PTX_EPI_USER;
          assert_int_equal(ptx_elem_check_epilogue((ptx_elem)ab, bias, act, user), want);
        }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_row_is_complete),
    cmocka_unit_test(rows_agree_with_the_facts_they_replaced),
    cmocka_unit_test(every_public_dtype_maps_to_a_row_and_back),
    cmocka_unit_test(c_rule_answers_as_kernel_cfg_did),
    cmocka_unit_test(epilogue_rules_answer_as_before),
    cmocka_unit_test(every_type_tuple_is_accepted_or_refused_as_before),
    cmocka_unit_test(every_epilogue_on_every_operand_type_is_accepted_or_refused_as_before),
    cmocka_unit_test(cfg_check_answers_every_type_as_before),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
