/* SPDX-License-Identifier: Apache-2.0 */
/* tcj_gemm_ex descriptor validation without a GPU: eng_validate_desc (engine/validate.h) is
 * called directly, as test_api.c calls eng_validate. Every rule of tcj.h's tcj_gemm_ex section
 * is checked for its status and for a message that names the field. Fake device addresses
 * 1 MiB apart: validation compares and aligns them, never dereferences them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/error.h"
#include "engine/validate.h"
#include "tcj.h"

#define PA ((uintptr_t)0x100000)
#define PB ((uintptr_t)0x200000)
#define PC ((uintptr_t)0x300000)
#define PD ((uintptr_t)0x400000)
#define PBIAS ((uintptr_t)0x500000)
#define PSCAL ((uintptr_t)0x600000)

/* The first (0.2) descriptor ends with epilogue_params; 0.3 added the fp8 fields after it. */
#define DESC_V1_SIZE (offsetof(tcj_gemm_desc, epilogue_params) + sizeof(void *))
#define DESC_V2_SIZE (offsetof(tcj_gemm_desc, fast_accum) + sizeof(int))
/* 0.4 added the compute mode and the fp64 scalars. */
#define DESC_V3_SIZE (offsetof(tcj_gemm_desc, beta_f64) + sizeof(double))
/* 1.0 added the storage order. */
#define DESC_V4_SIZE (offsetof(tcj_gemm_desc, order) + sizeof(tcj_order))
/* 1.0 added the grouped GEMM fields and the Mixture-of-Experts extras after them. */
#define DESC_V5_SIZE (offsetof(tcj_gemm_desc, row_scale) + sizeof(void *))
/* Then the MoE combine (scatter_d). */
#define DESC_V6_SIZE (offsetof(tcj_gemm_desc, scatter_mode) + sizeof(tcj_scatter_mode))
_Static_assert(sizeof(tcj_gemm_desc) - DESC_V6_SIZE < _Alignof(tcj_gemm_desc), "tcj_gemm_desc grew: update DESC_V6_SIZE's users");

/* bf16 NN 64 x 48 x 32, packed: A 4096 bytes, B 3072, C and D 6144 each (bf16, ld 48), bias
 * 48 f32 (192 bytes); C read (beta 0.5), D apart from C, bias per column, GELU. */
static tcj_gemm_desc good(void) {
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.op_a = d.op_b = TCJ_OP_N;
  d.m = 64, d.n = 48, d.k = 32;
  d.a = (const void *)PA, d.a_type = TCJ_BF16, d.lda = 32;
  d.b = (const void *)PB, d.b_type = TCJ_BF16, d.ldb = 48;
  d.c = (const void *)PC, d.c_type = TCJ_BF16, d.ldc = 48;
  d.d = (void *)PD, d.d_type = TCJ_BF16, d.ldd = 48;
  d.alpha = 1, d.beta = 0.5f;
  d.bias = (const void *)PBIAS, d.bias_type = TCJ_F32, d.bias_kind = TCJ_BIAS_COL;
  d.activation = TCJ_ACT_GELU;
  return d;
}

/* good() as a batch of 2: A, C and D entries back to back, one B and one bias for both. */
static tcj_gemm_desc good_batch(void) {
  tcj_gemm_desc d = good();
  d.batch_count = 2;
  d.stride_a = 64 * 32;
  d.stride_b = 0;
  d.stride_c = 64 * 48;
  d.stride_d = 64 * 48;
  d.stride_bias = 0;
  return d;
}

static tcj_status run(const tcj_gemm_desc *d, eng_problem *p) {
  eng_problem tmp;
  return eng_validate_desc(d, p ? p : &tmp);
}

/* word occurs in msg as a whole identifier (no letter, digit or '_' on either side). */
static int names(const char *msg, const char *word) {
  size_t n = strlen(word);
  for (const char *p = strstr(msg, word); p; p = strstr(p + 1, word)) {
    int before = p > msg && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                             (p[-1] >= '0' && p[-1] <= '9'));
    char c = p[n];
    int after = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!before && !after) return 1;
  }
  return 0;
}

/* Expects status s and a message naming every word given (whole identifiers; NULL: none). */
#define expect(d, s, ...) expect_words(__LINE__, d, s, (const char *[]){__VA_ARGS__, NULL})
static void expect_words(int line, const tcj_gemm_desc *d, tcj_status s, const char **words) {
  tcj_status got = run(d, NULL);
  const char *msg = eng_last_error();
  int ok = got == s && (s == TCJ_SUCCESS || msg[0] != '\0');
  for (const char **w = words; *w && ok; w++) ok = names(msg, *w);
  if (!ok) {
    print_error("line %d: status %s, message \"%s\"; wanted %s naming", line, tcj_status_string(got), msg,
                tcj_status_string(s));
    for (const char **w = words; *w; w++) print_error(" \"%s\"", *w);
    print_error("\n");
  }
  assert_int_equal(got, s);
  assert_true(ok);
}
#define expect_ok(d) expect(d, TCJ_SUCCESS, NULL)

/* Validates a descriptor that must pass, printing the message when it does not. */
#define fill(d, p) fill_at(__LINE__, d, p)
static void fill_at(int line, const tcj_gemm_desc *d, eng_problem *p) {
  tcj_status got = run(d, p);
  if (got != TCJ_SUCCESS) print_error("line %d: %s: %s\n", line, tcj_status_string(got), eng_last_error());
  assert_int_equal(got, TCJ_SUCCESS);
}

static void desc_init_is_alpha_one_and_zero_elsewhere(void **state) {
  (void)state;
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  assert_int_equal(d.struct_size, sizeof(tcj_gemm_desc));
  assert_true(d.alpha == 1.0f && d.beta == 0.0f);
  assert_int_equal(d.op_a, TCJ_OP_N);
  assert_int_equal(d.op_b, TCJ_OP_N);
  assert_true(d.m == 0 && d.n == 0 && d.k == 0 && d.lda == 0 && d.ldb == 0 && d.ldc == 0 && d.ldd == 0);
  assert_true(!d.a && !d.b && !d.c && !d.d && !d.alpha_ptr && !d.beta_ptr && !d.bias && !d.epilogue_source &&
              !d.epilogue_params);
  assert_int_equal(d.bias_kind, TCJ_BIAS_NONE);
  assert_int_equal(d.activation, TCJ_ACT_NONE);
  assert_true(d.batch_count == 0 && d.stride_a == 0 && d.stride_b == 0 && d.stride_c == 0 && d.stride_d == 0 &&
              d.stride_bias == 0);
}

static void valid_descriptor_passes_and_fills_the_problem(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  eng_problem p;
  fill(&d, &p);
  assert_int_equal(p.m, 64);
  assert_int_equal(p.n, 48);
  assert_int_equal(p.k, 32);
  assert_int_equal(p.ab, PTX_E_BF16);
  assert_int_equal(p.c, PTX_E_BF16);
  assert_int_equal(p.d, PTX_E_BF16);
  assert_int_equal(p.ldd, 48);
  assert_int_equal(p.reads_c, 1);
  assert_int_equal(p.bias, PTX_BIAS_COL);
  assert_int_equal(p.bias_t, PTX_E_F32);
  assert_int_equal(p.act, PTX_ACT_GELU);
  assert_int_equal(p.batch, 1); /* batch_count 0: one GEMM */
  /* C and D of different types (f16 operands: each f16, bf16 or f32). */
  d.a_type = d.b_type = TCJ_F16;
  d.c_type = TCJ_F32;
  d.d_type = TCJ_BF16;
  d.bias_type = TCJ_F16;
  d.bias_kind = TCJ_BIAS_ROW;
  d.activation = TCJ_ACT_SILU;
  fill(&d, &p);
  assert_int_equal(p.ab, PTX_E_F16);
  assert_int_equal(p.c, PTX_E_F32);
  assert_int_equal(p.d, PTX_E_BF16);
  assert_int_equal(p.bias, PTX_BIAS_ROW);
  assert_int_equal(p.bias_t, PTX_E_F16);
  assert_int_equal(p.act, PTX_ACT_SILU);
  /* d NULL: D is C (d_type, ldd and stride_d ignored: junk in them is fine). */
  d = good();
  d.d = NULL;
  d.d_type = (tcj_dtype)99;
  d.ldd = -5;
  d.stride_d = -7;
  d.ldc = 50;
  fill(&d, &p);
  assert_int_equal(p.d, PTX_E_BF16);
  assert_int_equal(p.ldd, 50);
  assert_int_equal(p.reads_c, 1);
  /* beta 0 and no beta_ptr: C not read (and may be NULL); a beta_ptr may be read. */
  d = good();
  d.beta = 0;
  fill(&d, &p);
  assert_int_equal(p.reads_c, 0);
  d.c = NULL;
  fill(&d, &p);
  assert_int_equal(p.reads_c, 0);
  d = good();
  d.beta = 0;
  d.beta_ptr = (const float *)(PSCAL + 4);
  fill(&d, &p);
  assert_int_equal(p.reads_c, 1);
  /* A batch keeps its count and strides. */
  d = good_batch();
  d.batch_count = 5;
  d.stride_d = 64 * 48 + 8;
  d.stride_bias = 48;
  fill(&d, &p);
  assert_int_equal(p.batch, 5);
  assert_int_equal(p.stride_a, 64 * 32);
  assert_int_equal(p.stride_b, 0);
  assert_int_equal(p.stride_c, 64 * 48);
  assert_int_equal(p.stride_d, 64 * 48 + 8);
  assert_int_equal(p.stride_bias, 48);
  d.batch_count = 1;
  fill(&d, &p);
  assert_int_equal(p.batch, 1);
  /* s8 takes a bias and ReLU. */
  d = good();
  d.a_type = d.b_type = TCJ_S8;
  d.c_type = d.d_type = TCJ_S32;
  d.activation = TCJ_ACT_RELU;
  fill(&d, &p);
  assert_int_equal(p.d, PTX_E_S32);
  assert_int_equal(p.act, PTX_ACT_RELU);
}

/* struct_size: 0 or below the first descriptor's size is refused; larger is accepted when the
 * bytes this library does not know are all zero, refused (NOT_SUPPORTED, as tcj_options)
 * otherwise. */
static void struct_size_is_checked(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.struct_size = 0;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "struct_size");
  d.struct_size = 1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "struct_size");
  d.struct_size = offsetof(tcj_gemm_desc, epilogue_params); /* one field short */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "struct_size");
  d.struct_size = DESC_V1_SIZE - 1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "struct_size");
  d.struct_size = DESC_V1_SIZE;
  expect_ok(&d);
  /* A 0.2 caller's descriptor ends there: whatever lies past it is not read. */
  struct v1_caller { unsigned char bytes[sizeof(tcj_gemm_desc)]; } v1;
  tcj_gemm_desc base = good();
  base.struct_size = DESC_V1_SIZE;
  memcpy(v1.bytes, &base, sizeof base);
  memset(v1.bytes + DESC_V1_SIZE, 0xA5, sizeof v1.bytes - DESC_V1_SIZE);
  expect_ok((const tcj_gemm_desc *)(const void *)v1.bytes);
  struct newer { tcj_gemm_desc d; uint64_t later[3]; } n;
  memset(&n, 0, sizeof n);
  n.d = good();
  n.d.struct_size = sizeof n;
  expect_ok(&n.d);
  n.later[2] = 1;
  expect(&n.d, TCJ_ERROR_NOT_SUPPORTED, "struct_size");
  n.later[2] = 0;
  n.later[0] = (uint64_t)1 << 63;
  expect(&n.d, TCJ_ERROR_NOT_SUPPORTED, "struct_size");
  /* The size is checked before anything else: an otherwise bad descriptor says struct_size. */
  n.d.m = -1;
  expect(&n.d, TCJ_ERROR_NOT_SUPPORTED, "struct_size");
}

static void negative_batch_count_is_invalid(void **state) {
  (void)state;
  tcj_gemm_desc d = good_batch();
  d.batch_count = -1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "batch_count");
  d.batch_count = INT64_MIN;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "batch_count");
  d.batch_count = 0;
  expect_ok(&d);
}

static void negative_strides_are_invalid(void **state) {
  (void)state;
  static const char *names_[] = {"stride_a", "stride_b", "stride_c", "stride_d", "stride_bias"};
  for (int i = 0; i < 5; i++) {
    tcj_gemm_desc d = good_batch();
    int64_t *s[] = {&d.stride_a, &d.stride_b, &d.stride_c, &d.stride_d, &d.stride_bias};
    *s[i] = -1;
    expect(&d, TCJ_ERROR_INVALID_VALUE, names_[i]);
    *s[i] = INT64_MIN;
    expect(&d, TCJ_ERROR_INVALID_VALUE, names_[i]);
  }
}

/* D's entries must not share an element: stride_d at least one D's span (first to last
 * element), and not 0 with more than one entry. */
static void d_entries_overlapping_across_the_batch_are_invalid(void **state) {
  (void)state;
  tcj_gemm_desc d = good_batch();
  d.stride_d = 0;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d");
  d.stride_d = 64 * 48 - 1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d");
  d.stride_d = 64 * 48 / 2;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d");
  d.stride_d = 64 * 48;
  expect_ok(&d);
  /* ldd 50: one D spans 63 * 50 + 48 = 3198 elements; entry 1 at 3197 shares one with entry 0. */
  d = good_batch();
  d.ldd = 50;
  d.stride_d = 3197;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d");
  d.stride_d = 3198;
  expect_ok(&d);
  /* One GEMM: stride_d is not used, 0 is fine. */
  d = good();
  d.batch_count = 1;
  d.stride_d = 0;
  expect_ok(&d);
  /* A broadcast input is fine (only D is written). */
  d = good_batch();
  d.stride_a = 0;
  d.stride_c = 0;
  expect_ok(&d);
}

static void d_overlapping_an_input_is_invalid(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.d = (void *)(PA + 2); /* inside A */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "a");
  d.d = (void *)(PA + 4096); /* just past A */
  expect_ok(&d);
  d.d = (void *)(PA - 6144 + 2); /* D's last element is A's first */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "a");
  d.d = (void *)(PB + 3070); /* D's first element is B's last */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "b");
  d.d = (void *)(PB - 6144);
  expect_ok(&d);
  d.d = (void *)(PBIAS - 6144 + 2); /* D's last element is the bias's first two bytes */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "bias");
  d.d = (void *)(PBIAS + 96); /* inside the bias (48 f32) */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "bias");
  d.d = (void *)(PBIAS + 192); /* just past it */
  expect_ok(&d);
  d.bias_kind = TCJ_BIAS_ROW; /* 64 f32: 256 bytes, now reaching into D */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "bias");
  /* Over the batch: D's second entry reaching into A (one A for both). */
  d = good_batch();
  d.stride_a = 0;
  d.d = (void *)(PA - 2 * 6144);
  expect_ok(&d);
  d.d = (void *)(PA - 2 * 6144 + 2);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "a");
  /* ... and D reaching A's second entry (A's entries 4096 bytes apart). */
  d = good_batch();
  d.d = (void *)(PA + 2 * 4096); /* just past both A entries */
  expect_ok(&d);
  d.d = (void *)(PA + 4096 + 2); /* inside A's second entry */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "a");
  /* The bias's batch entries too. */
  d = good_batch();
  d.stride_bias = 48;
  d.d = (void *)(PBIAS + 192 + 2); /* past bias entry 0, inside entry 1 */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "bias");
}

/* C may be exactly D (same pointer, ld, stride and dtype) or apart from it; anything between
 * is refused. */
static void d_partly_overlapping_c_is_invalid_and_exactly_c_is_accepted(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.c = (const void *)(PD + 2);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "c", "d");
  d.c = (const void *)(PD + 6142); /* C's first element is D's last */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "c", "d");
  d.c = (const void *)(PD - 6142);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "c", "d");
  d.c = (const void *)(PD + 6144); /* just past D */
  expect_ok(&d);
  d.c = (const void *)PD; /* exactly D */
  expect_ok(&d);
  d.ldc = 50; /* same pointer, another ld */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "c", "d");
  d = good();
  d.c = (const void *)PD;
  d.c_type = TCJ_F32; /* same pointer, another dtype */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "c", "d");
  d = good_batch();
  d.c = (const void *)PD;
  expect_ok(&d); /* stride_c == stride_d */
  d.stride_c = 0; /* one C read while D's entries are written over it */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "c", "d");
  d.stride_c = 64 * 48 + 8;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "c", "d");
  /* C given but not read (beta 0) and exactly D: accepted as well. */
  d = good();
  d.beta = 0;
  d.c = (const void *)PD;
  expect_ok(&d);
}

static void unknown_activation_and_bias_kind_are_invalid(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.activation = (tcj_activation)7;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "activation");
  d.activation = (tcj_activation)6;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "activation");
  d.activation = (tcj_activation)-1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "activation");
  d = good();
  d.bias_kind = (tcj_bias_kind)3;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias_kind");
  d.bias_kind = (tcj_bias_kind)-1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias_kind");
  for (int a = TCJ_ACT_NONE; a <= TCJ_ACT_SILU; a++)
    for (int b = TCJ_BIAS_NONE; b <= TCJ_BIAS_ROW; b++) {
      d = good();
      d.activation = (tcj_activation)a;
      d.bias_kind = (tcj_bias_kind)b;
      if (b == TCJ_BIAS_NONE) d.bias = NULL;
      expect_ok(&d);
    }
}

static void bias_pointer_and_kind_must_agree(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.bias_kind = TCJ_BIAS_NONE; /* a pointer with no kind */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias");
  d = good();
  d.bias = NULL; /* a kind with no pointer */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias");
  d.bias_kind = TCJ_BIAS_ROW;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias");
  /* The bias is aligned to its element. */
  d = good();
  d.bias = (const void *)(PBIAS + 2); /* f32 */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias");
  d.bias_type = TCJ_BF16;
  expect_ok(&d);
}

static void bias_types_other_than_f32_bf16_f16_are_not_supported(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.bias_type = TCJ_S8;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "bias_type");
  d.bias_type = TCJ_S32;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "bias_type");
  d.bias_type = TCJ_F64;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "bias_type");
  /* s8 operands too: an s8 bias is refused, an f32 one taken. */
  d = good();
  d.a_type = d.b_type = TCJ_S8;
  d.c_type = d.d_type = TCJ_S32;
  d.activation = TCJ_ACT_RELU;
  d.bias_type = TCJ_S8;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "bias_type");
  d.bias_type = TCJ_F32;
  expect_ok(&d);
  static const tcj_dtype ok[] = {TCJ_F32, TCJ_BF16, TCJ_F16};
  for (int i = 0; i < 3; i++) {
    d = good();
    d.bias_type = ok[i];
    expect_ok(&d);
  }
}

static void c_null_needs_beta_zero_and_no_beta_ptr(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.c = NULL; /* beta 0.5 */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "beta");
  d.beta = -0.0f; /* zero */
  expect_ok(&d);
  d.beta = 0;
  d.beta_ptr = (const float *)PSCAL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "beta_ptr");
  /* alpha_ptr needs nothing else. */
  d.beta_ptr = NULL;
  d.alpha_ptr = (const float *)PSCAL;
  expect_ok(&d);
  /* In place with no C: no output at all. */
  d = good();
  d.c = NULL;
  d.d = NULL;
  d.beta = 0;
  tcj_status got = run(&d, NULL);
  assert_int_equal(got, TCJ_ERROR_INVALID_VALUE);
  assert_true(eng_last_error()[0] != '\0');
}

static void d_type_must_suit_the_operands(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.a_type = d.b_type = TCJ_F16;
  d.d_type = TCJ_S32;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "s32");
  assert_true(names(eng_last_error(), "d") || names(eng_last_error(), "d_type"));
  d.d_type = TCJ_E4M3;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "e4m3");
  d = good();
  d.a_type = d.b_type = TCJ_TF32;
  d.c_type = TCJ_F32;
  d.d_type = TCJ_BF16; /* tf32 -> f32 only */
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "bf16");
  d.d_type = TCJ_F32;
  expect_ok(&d);
  d = good();
  d.a_type = d.b_type = TCJ_S8;
  d.c_type = TCJ_S32;
  d.d_type = TCJ_F32; /* s8 -> s32 only */
  d.activation = TCJ_ACT_RELU;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "f32");
  d = good();
  d.d_type = (tcj_dtype)99;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d_type");
  /* Every (c, d) pair for bf16 and f16 operands is supported. */
  static const tcj_dtype out[] = {TCJ_F16, TCJ_BF16, TCJ_F32};
  for (int ab = 0; ab < 2; ab++)
    for (int ci = 0; ci < 3; ci++)
      for (int di = 0; di < 3; di++) {
        d = good();
        d.a_type = d.b_type = ab ? TCJ_F16 : TCJ_BF16;
        d.c_type = out[ci];
        d.d_type = out[di];
        d.d = (void *)(PD + 0x10000);
        expect_ok(&d);
      }
}

static void s8_takes_no_gelu_silu_or_user_epilogue(void **state) {
  (void)state;
  static const tcj_activation refused[] = {TCJ_ACT_GELU, TCJ_ACT_GELU_TANH, TCJ_ACT_SILU};
  static const char *words[] = {"gelu", "gelu_tanh", "silu"};
  for (int i = 0; i < 3; i++) {
    tcj_gemm_desc d = good();
    d.a_type = d.b_type = TCJ_S8;
    d.c_type = d.d_type = TCJ_S32;
    d.activation = refused[i];
    tcj_status got = run(&d, NULL);
    const char *msg = eng_last_error();
    if (got != TCJ_ERROR_NOT_SUPPORTED || !(names(msg, "activation") || strstr(msg, words[i])))
      print_error("s8 with %s: %s \"%s\"\n", words[i], tcj_status_string(got), msg);
    assert_int_equal(got, TCJ_ERROR_NOT_SUPPORTED);
    assert_true(names(msg, "activation") || strstr(msg, words[i]));
  }
  tcj_gemm_desc d = good();
  d.a_type = d.b_type = TCJ_S8;
  d.c_type = d.d_type = TCJ_S32;
  d.activation = TCJ_ACT_RELU;
  d.epilogue_source = "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col, "
                      "long long batch, const void *params) { return v; }";
  tcj_status got = run(&d, NULL);
  if (got != TCJ_ERROR_NOT_SUPPORTED || !strstr(eng_last_error(), "epilogue"))
    print_error("s8 with a user epilogue: %s \"%s\"\n", tcj_status_string(got), eng_last_error());
  assert_int_equal(got, TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(eng_last_error(), "epilogue"));
}

static void misaligned_scalar_pointers_are_invalid(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.alpha_ptr = (const float *)(PSCAL + 2);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "alpha_ptr");
  d.alpha_ptr = (const float *)(PSCAL + 1);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "alpha_ptr");
  d.alpha_ptr = (const float *)(PSCAL + 4);
  expect_ok(&d);
  d.beta_ptr = (const float *)(PSCAL + 6);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "beta_ptr");
  d.beta_ptr = (const float *)(PSCAL + 8);
  expect_ok(&d);
}

/* The rules of tcj_gemm hold for A, B and D. */
static void operand_rules_of_tcj_gemm_still_apply(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.m = -1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "m");
  d = good();
  d.lda = 31;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "lda");
  d = good();
  d.ldd = 47;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "ldd");
  d = good();
  d.ldc = 47;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "ldc");
  d = good();
  d.d = (void *)(PD + 1); /* bf16 at an odd address */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d");
  d = good();
  d.a = NULL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "a");
  d = good();
  d.a_type = TCJ_F16; /* b bf16 */
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "f16");
  d = good();
  d.op_a = (tcj_op)2;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "op_a");
}

/* Through the public entry points: no engine is an error naming it. */
/* The compute mode: TCJ_F32 operands split into 3xTF32 parts by default (the problem becomes
 * the parts' K-major tf32 GEMM over K' = 3 x k rounded up to 32), TCJ_TF32 ones not; an
 * explicit mode overrides; a mode that does not fit the operands is invalid. */
static void compute_mode_splits_f32_and_refuses_what_does_not_fit(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.a_type = d.b_type = d.c_type = d.d_type = TCJ_F32;
  d.activation = TCJ_ACT_NONE;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE;
  d.op_a = TCJ_OP_T, d.lda = 64; /* A stored k x m */
  eng_problem p;
  fill_at(__LINE__, &d, &p);
  assert_int_equal(p.tf32x3, 1);
  assert_int_equal(p.ab, PTX_E_TF32);
  assert_int_equal(p.k, 3 * 32);
  assert_true(p.op_a_t == 0 && p.op_b_t == 1 && p.lda == 96 && p.ldb == 96 && p.align_a == 16 && p.align_b == 16);
  assert_true(p.src.k == 32 && p.src.op_a_t == 1 && p.src.op_b_t == 0 && p.src.lda == 64 && p.src.ldb == 48);
  d.k = 33;
  fill_at(__LINE__, &d, &p);
  assert_int_equal(p.k, 3 * 64);
  d.k = 32;
  d.compute = TCJ_COMPUTE_32F_FAST_TF32;
  fill_at(__LINE__, &d, &p);
  assert_true(p.tf32x3 == 0 && p.k == 32 && p.op_a_t == 1);
  d.compute = TCJ_COMPUTE_DEFAULT;
  d.a_type = TCJ_TF32; /* a tf32 operand: the fast path */
  fill_at(__LINE__, &d, &p);
  assert_int_equal(p.tf32x3, 0);
  d.compute = TCJ_COMPUTE_32F;
  fill_at(__LINE__, &d, &p);
  assert_int_equal(p.tf32x3, 1);
  d.compute = TCJ_COMPUTE_32F_3XTF32;
  fill_at(__LINE__, &d, &p);
  assert_int_equal(p.tf32x3, 1);
  d.k = 0; /* no products: a plain kernel scales C */
  fill_at(__LINE__, &d, &p);
  assert_int_equal(p.tf32x3, 0);
  d.compute = (tcj_compute)7;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "compute");
  tcj_gemm_desc h = good(); /* bf16 */
  h.compute = TCJ_COMPUTE_32F_3XTF32;
  expect(&h, TCJ_ERROR_INVALID_VALUE, "compute");
  h.compute = TCJ_COMPUTE_32F_FAST_TF32;
  expect(&h, TCJ_ERROR_INVALID_VALUE, "compute");
  h.compute = TCJ_COMPUTE_32F; /* bf16 sums in fp32 anyway */
  expect_ok(&h);
}

/* f64 (tcj.h): double scalars, float ones refused away from TCJ_GEMM_DESC_INIT's, no fused epilogue,
 * no compute mode; a caller from before the fp64 fields has its float scalars converted. */
static void f64_takes_double_scalars_and_no_fused_epilogue(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.a_type = d.b_type = d.c_type = d.d_type = TCJ_F64;
  d.activation = TCJ_ACT_NONE;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE;
  d.lda = 32, d.ldb = 48, d.ldc = d.ldd = 48;
  d.beta = 0;
  eng_problem p;
  fill_at(__LINE__, &d, &p);
  assert_true(p.ab == PTX_E_F64 && p.c == PTX_E_F64 && p.d == PTX_E_F64 && p.reads_c == 0);
  d.beta_f64 = 0.5; /* C read: beta_f64, not beta */
  fill_at(__LINE__, &d, &p);
  assert_int_equal(p.reads_c, 1);
  d.alpha = 0.0f; /* not TCJ_GEMM_DESC_INIT's 1: a descriptor zeroed, not initialised (since 1.0) */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "alpha", "TCJ_GEMM_DESC_INIT");
  d.alpha = 2.0f;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "alpha_f64");
  d.alpha = 1.0f, d.beta = 0.5f;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "beta_f64");
  d.beta = 0;
  d.activation = TCJ_ACT_GELU;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "f64");
  d.activation = TCJ_ACT_NONE;
  d.compute = TCJ_COMPUTE_32F;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "compute");
  d.compute = TCJ_COMPUTE_DEFAULT;
  d.alpha_ptr = (const float *)(uintptr_t)(PSCAL + 4); /* a double needs 8 bytes of alignment */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "alpha_ptr");
  d.alpha_ptr = NULL;
  d.d_type = TCJ_F32;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "f64");
  /* A 0.3 caller (no compute, no fp64 scalars): its float scalars serve. */
  tcj_gemm_desc old = d;
  old.d_type = TCJ_F64;
  old.alpha = 2.0f, old.beta = 0.5f;
  old.struct_size = offsetof(tcj_gemm_desc, fast_accum) + sizeof(int);
  tcj_gemm_desc view;
  const tcj_gemm_desc *v = eng_desc_view(&old, &view);
  assert_true(v->alpha_f64 == 2.0 && v->beta_f64 == 0.5 && v->alpha == 1.0f && v->beta == 0.0f);
  fill_at(__LINE__, &old, &p);
  assert_int_equal(p.reads_c, 1);
}

static void null_engine_is_invalid(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  assert_int_equal(tcj_gemm_ex(NULL, &d, NULL), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "engine"));
  size_t bytes = 0;
  assert_int_equal(tcj_gemm_ex_workspace_size(NULL, &d, &bytes), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "engine"));
}

/* With a GPU, a bad descriptor fails validation before anything is launched (the fake pointers
 * would fault); without one, tcj_create says NO_DEVICE. */
static void engine_rejects_bad_descriptors_before_launch(void **state) {
  (void)state;
  tcj_engine *e = NULL;
  tcj_status s = tcj_create(&e, NULL);
  if (s != TCJ_SUCCESS) {
    assert_int_equal(s, TCJ_ERROR_NO_DEVICE);
    print_message("no CUDA device, skipping engine-bound checks: %s\n", tcj_last_error(NULL));
    skip();
  }
  tcj_gemm_desc d = good();
  d.struct_size = 0;
  assert_int_equal(tcj_gemm_ex(e, &d, NULL), TCJ_ERROR_INVALID_VALUE);
  assert_true(names(tcj_last_error(e), "struct_size"));
  d = good();
  d.activation = (tcj_activation)7;
  assert_int_equal(tcj_gemm_ex(e, &d, NULL), TCJ_ERROR_INVALID_VALUE);
  assert_true(names(tcj_last_error(e), "activation"));
  size_t bytes = 0;
  assert_int_equal(tcj_gemm_ex_workspace_size(e, &d, &bytes), TCJ_ERROR_INVALID_VALUE);
  d = good();
  d.d = (void *)(PA + 2);
  assert_int_equal(tcj_gemm_ex(e, &d, NULL), TCJ_ERROR_INVALID_VALUE);
  tcj_destroy(e);
}

/* fp8 scalars: amax_d (zeroed before the kernels) may overlap nothing the call reads, per-tensor
 * scales not D; block scales with k == 0 run as a plain kernel (nothing to scale). */
static void fp8_amax_and_scales_may_not_overlap(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.a_type = d.b_type = TCJ_E4M3;
  d.op_b = TCJ_OP_T, d.ldb = d.k;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
  eng_problem p;
  d.amax_d = (float *)(PSCAL + 16);
  d.scale_a = (const float *)PSCAL, d.scale_b = (const float *)(PSCAL + 4);
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  d.amax_d = (float *)(PA + 64); /* inside A */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "amax_d overlaps a");
  d.amax_d = (float *)(PC + 8); /* inside C, which is read (beta 0.5) */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "amax_d overlaps c");
  d.amax_d = (float *)(PSCAL + 4); /* scale_b */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "amax_d overlaps scale_a or scale_b");
  d.amax_d = NULL;
  d.scale_d = (const float *)(PD + 4); /* inside D (bf16 D: scale_d is refused first for a non-fp8 D) */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scale_d");
  d.scale_d = NULL;
  d.scale_a = (const float *)(PD + 8);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scale_a overlaps D");
  d.scale_a = (const float *)PSCAL;
  d.scale_mode = TCJ_SCALE_BLOCK;
  d.k = 0, d.lda = 0, d.ldb = 0;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  assert_int_equal(p.block_scale, 0);
  d.k = 32, d.lda = 32, d.ldb = 32;
  assert_int_equal(eng_validate_desc(&d, &p), TCJ_SUCCESS);
  assert_int_equal(p.block_scale, 1);
}

/* A descriptor zeroed and filled field by field (an FFI binding's, which cannot use the
 * TCJ_GEMM_DESC_INIT macro) has alpha_f64 = 0 (and, for f64 operands, alpha = 0): the scalars of
 * the other precision are not read, so they must be at TCJ_GEMM_DESC_INIT's values, and a zero
 * there is refused naming it and pointing to the initialisers. */
static void zero_filled_descriptor_is_refused_naming_the_unread_scalar(void **state) {
  (void)state;
  tcj_gemm_desc z, init = good();
  memset(&z, 0, sizeof z);
  z.struct_size = sizeof z;
  z.m = init.m, z.n = init.n, z.k = init.k;
  z.a = init.a, z.a_type = init.a_type, z.lda = init.lda;
  z.b = init.b, z.b_type = init.b_type, z.ldb = init.ldb;
  z.d = init.d, z.d_type = init.d_type, z.ldd = init.ldd;
  z.alpha = 1.0f; /* set by the caller: still, alpha_f64 = 0 says the descriptor never was initialised */
  expect(&z, TCJ_ERROR_INVALID_VALUE, "alpha_f64", "TCJ_GEMM_DESC_INIT", "tcj_gemm_desc_init");
  z.alpha = 0.0f; /* the case: D = beta * C silently */
  expect(&z, TCJ_ERROR_INVALID_VALUE, "alpha_f64", "TCJ_GEMM_DESC_INIT");
  z.alpha_f64 = 1.0;
  expect_ok(&z);
  z.beta_f64 = 0.5; /* not read for bf16 operands: a value there is a mistake */
  expect(&z, TCJ_ERROR_INVALID_VALUE, "beta_f64");
  z.beta_f64 = 0;
  z.alpha_f64 = 2.0;
  expect(&z, TCJ_ERROR_INVALID_VALUE, "alpha_f64");
  /* f64 operands: the float alpha is the unread one; zero says the same. */
  memset(&z, 0, sizeof z);
  z.struct_size = sizeof z;
  z.m = 4, z.n = 4, z.k = 4;
  z.a = (const void *)PA, z.b = (const void *)PB, z.d = (void *)PD;
  z.a_type = z.b_type = z.c_type = z.d_type = TCJ_F64;
  z.lda = z.ldb = z.ldd = 4;
  z.alpha_f64 = 2.0;
  expect(&z, TCJ_ERROR_INVALID_VALUE, "alpha", "TCJ_GEMM_DESC_INIT", "tcj_gemm_desc_init");
  z.alpha = 1.0f;
  expect_ok(&z);
}

/* k == 0 makes any lda >= 0 legal (A has no elements), up to 2^48: m * lda then exceeds 2^63,
 * which the check whether a batch folds into rows (stride_a == m * lda) must compute exactly,
 * not in wrapping (undefined) signed arithmetic. 65537 * 2^48 wraps to 2^48 == stride_a. */
static void batch_fold_check_is_exact_where_m_times_lda_exceeds_int64(void **state) {
  (void)state;
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.m = 65537, d.n = 8, d.k = 0;
  d.a = NULL, d.a_type = TCJ_BF16, d.lda = INT64_C(1) << 48;
  d.b = NULL, d.b_type = TCJ_BF16, d.ldb = 8;
  d.c = (const void *)PC, d.c_type = TCJ_BF16, d.ldc = 8;
  d.beta = 0.5f;
  d.batch_count = 2;
  d.stride_a = INT64_C(1) << 48, d.stride_b = 0, d.stride_c = 65537 * 8;
  eng_problem p;
  fill(&d, &p);
  assert_int_equal(p.batch, 2); /* stride_a is not m * lda: the entries stay a batch */
  assert_int_equal(p.m, 65537);
  /* The same batch with A's entries one under another (and m * lda in range) folds. */
  d.lda = 16, d.stride_a = 65537 * 16;
  fill(&d, &p);
  assert_int_equal(p.batch, 1);
  assert_int_equal(p.m, 2 * 65537);
  /* ldc near 2^48 with k > 0: the same product for D (here C). */
  d = (tcj_gemm_desc)TCJ_GEMM_DESC_INIT;
  d.m = 65537, d.n = 1, d.k = 1;
  d.a = (const void *)PA, d.a_type = TCJ_BF16, d.lda = 1;
  d.b = (const void *)PB, d.b_type = TCJ_BF16, d.ldb = 1;
  /* 65537 * (2^48 - 1) wraps to 2^48 - 65537, a stride at which the two entries interleave. */
  d.c = (const void *)(uintptr_t)(INT64_C(1) << 40), d.c_type = TCJ_BF16, d.ldc = (INT64_C(1) << 48) - 1;
  d.batch_count = 2;
  d.stride_a = 65537, d.stride_b = 0, d.stride_c = (INT64_C(1) << 48) - 65537;
  fill(&d, &p);
  assert_int_equal(p.batch, 2);
}

/* D entries z * stride_d + {i * ldd + j}: interleaved layouts (heads side by side in a row)
 * share no element and are accepted; a stride that lands one entry on another's row is refused.
 * At 2^31 - 1 entries the check is arithmetic, not a loop over entries: many such calls finish
 * well inside the test's timeout (a loop took about 25 s per call). */
static void interleaved_batches_of_2_31_entries_are_checked_at_once(void **state) {
  (void)state;
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.m = 2, d.n = 1, d.k = 1;
  d.a = (const void *)PA, d.a_type = TCJ_BF16, d.lda = 1;
  d.b = (const void *)PB, d.b_type = TCJ_BF16, d.ldb = 1;
  d.c = (const void *)(uintptr_t)(INT64_C(1) << 40), d.c_type = TCJ_BF16;
  d.batch_count = INT32_MAX;
  d.stride_a = d.stride_b = 0;
  d.stride_c = 1; /* entry z: elements z and z + ldc */
  for (int i = 0; i < 64; i++) {
    d.ldc = (INT64_C(1) << 31) + i; /* every entry's second row past the last entry's first */
    expect_ok(&d);
    d.ldc = (INT64_C(1) << 31) - 2 - i; /* entry ldc's first row is entry 0's second */
    expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_c", "ldc");
  }
}

/* tcj_gemm_desc_init does what TCJ_GEMM_DESC_INIT does, within the size the caller gives: never
 * a byte past it (a caller built against an older, smaller header), every byte of it zeroed (a
 * binding's larger layout), and a descriptor filled after it validates. */
static void desc_init_function_matches_the_macro_within_the_callers_size(void **state) {
  (void)state;
  tcj_gemm_desc fn, ref;
  memset(&fn, 0xA5, sizeof fn);
  memset(&ref, 0, sizeof ref);
  ref.struct_size = sizeof ref, ref.alpha = 1.0f, ref.alpha_f64 = 1.0;
  assert_int_equal(tcj_gemm_desc_init(&fn, sizeof fn), TCJ_SUCCESS);
  assert_memory_equal(&fn, &ref, sizeof fn);
  tcj_gemm_desc mac = TCJ_GEMM_DESC_INIT;
  assert_true(mac.struct_size == fn.struct_size && mac.alpha == fn.alpha && mac.alpha_f64 == fn.alpha_f64);
  /* An older caller's descriptor, then bytes that are not the descriptor's. */
  unsigned char old[sizeof(tcj_gemm_desc) + 16];
  memset(old, 0xA5, sizeof old);
  assert_int_equal(tcj_gemm_desc_init((tcj_gemm_desc *)(void *)old, DESC_V1_SIZE), TCJ_SUCCESS);
  for (size_t i = DESC_V1_SIZE; i < sizeof old; i++) assert_int_equal(old[i], 0xA5);
  tcj_gemm_desc view;
  memcpy(&view, old, sizeof view);
  assert_int_equal(view.struct_size, DESC_V1_SIZE);
  assert_true(view.alpha == 1.0f);
  /* A newer caller's: the fields this library does not know are zeroed, and accepted. */
  struct newer { tcj_gemm_desc d; uint64_t later[2]; } n;
  memset(&n, 0xA5, sizeof n);
  assert_int_equal(tcj_gemm_desc_init(&n.d, sizeof n), TCJ_SUCCESS);
  assert_int_equal(n.d.struct_size, sizeof n);
  assert_true(n.later[0] == 0 && n.later[1] == 0);
  tcj_gemm_desc g = good();
  size_t size = n.d.struct_size;
  n.d = g;
  n.d.struct_size = size;
  expect_ok(&n.d);
  /* Filled field by field after the function, as a binding does: valid. */
  assert_int_equal(tcj_gemm_desc_init(&fn, sizeof fn), TCJ_SUCCESS);
  fn.m = 64, fn.n = 48, fn.k = 32;
  fn.a = (const void *)PA, fn.a_type = TCJ_F16, fn.lda = 32;
  fn.b = (const void *)PB, fn.b_type = TCJ_F16, fn.ldb = 48;
  fn.c = (const void *)PC, fn.c_type = TCJ_F16, fn.ldc = 48;
  expect_ok(&fn);
  assert_int_equal(tcj_gemm_desc_init(NULL, sizeof fn), TCJ_ERROR_INVALID_VALUE);
  assert_int_equal(tcj_gemm_desc_init(&fn, 0), TCJ_ERROR_INVALID_VALUE);
  assert_true(names(eng_last_error(), "struct_size"));
  assert_int_equal(tcj_gemm_desc_init(&fn, DESC_V1_SIZE - 1), TCJ_ERROR_INVALID_VALUE);
}

/* The old per-entry loop, as a second reference where brute force would need too much memory. */
static int overlap_by_loop(int64_t rows, int64_t cols, int64_t ld, int64_t batch, int64_t stride) {
  if (batch < 2 || rows == 0 || cols == 0) return 0;
  if (stride == 0) return 1;
  for (int64_t z = 1; z < batch; z++) {
    __int128 delta = (__int128)stride * z;
    if (delta >= (__int128)rows * ld) break;
    int64_t q = (int64_t)(delta / ld), r = (int64_t)(delta % ld);
    if ((q <= rows - 1 && r <= cols - 1) || (q + 1 <= rows - 1 && ld - r <= cols - 1)) return 1;
  }
  return 0;
}

/* Marks every element of every entry: the definition of "two entries share an element". */
static int overlap_by_marking(int64_t rows, int64_t cols, int64_t ld, int64_t batch, int64_t stride) {
  static unsigned char owner[4096];
  int64_t span = (batch - 1) * stride + (rows - 1) * ld + cols;
  assert_true(span <= (int64_t)sizeof owner);
  memset(owner, 0, sizeof owner);
  for (int64_t z = 0; z < batch; z++)
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++) {
        int64_t at = z * stride + i * ld + j;
        if (owner[at]) return 1;
        owner[at] = 1;
      }
  return 0;
}

/* eng_batch_entries_overlap (arithmetic, any batch count) against marking every element on all
 * small layouts, interleaved and apart, and against the per-entry loop on larger ones. */
static void batch_overlap_arithmetic_agrees_with_brute_force(void **state) {
  (void)state;
  int cases = 0, overlapping = 0;
  for (int64_t rows = 1; rows <= 4; rows++)
    for (int64_t cols = 1; cols <= 4; cols++)
      for (int64_t ld = cols; ld <= cols + 6; ld++)
        for (int64_t batch = 2; batch <= 6; batch++)
          for (int64_t stride = 0; stride <= 3 * rows * ld; stride++) {
            int want = overlap_by_marking(rows, cols, ld, batch, stride);
            int got = eng_batch_entries_overlap(rows, cols, ld, batch, stride);
            if (got != want)
              print_error("rows %lld cols %lld ld %lld batch %lld stride %lld: %d, marking says %d\n", (long long)rows,
                          (long long)cols, (long long)ld, (long long)batch, (long long)stride, got, want);
            assert_int_equal(got, want);
            cases++;
            overlapping += want;
          }
  assert_true(overlapping > 0 && overlapping < cases); /* both kinds were seen */
  uint64_t x = 0x243f6a8885a308d3ull;
  for (int i = 0; i < 20000; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int64_t rows = 1 + (int64_t)(x >> 59), cols = 1 + (int64_t)((x >> 40) % 300);
    int64_t ld = cols + (int64_t)((x >> 20) % 5000), batch = 2 + (int64_t)((x >> 8) % 3000);
    int64_t stride = (int64_t)((x >> 30) % (uint64_t)(rows * ld + 7));
    assert_int_equal(eng_batch_entries_overlap(rows, cols, ld, batch, stride),
                     overlap_by_loop(rows, cols, ld, batch, stride));
  }
  /* Extremes: 2^31 - 1 entries of ld 2^48. */
  int64_t big = INT64_C(1) << 48;
  assert_int_equal(eng_batch_entries_overlap(INT32_MAX, 1, big, INT32_MAX, 1), 0);
  assert_int_equal(eng_batch_entries_overlap(INT32_MAX, 1, big, INT32_MAX, big), 1);
  assert_int_equal(eng_batch_entries_overlap(2, 1, INT64_C(1) << 31, INT32_MAX, 1), 0);
  assert_int_equal(eng_batch_entries_overlap(2, 1, (INT64_C(1) << 31) - 2, INT32_MAX, 1), 1);
  assert_int_equal(eng_batch_entries_overlap(2, 1, (INT64_C(1) << 31) - 1, INT32_MAX, 1), 0);
}

/* ---- column-major descriptors ------------------------------------------------------------ */

/* A column-major descriptor with cuBLAS's conventions: A m x k (lda >= m) when N, k x m when T;
 * B k x n (ldb >= k) when N; C and D m x n (ldc, ldd >= m); leading dimensions padded by 3. */
static tcj_gemm_desc col_major_desc(tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k) {
  tcj_gemm_desc d = good();
  d.order = TCJ_ORDER_COL_MAJOR;
  d.op_a = op_a, d.op_b = op_b;
  d.m = m, d.n = n, d.k = k;
  d.lda = (op_a == TCJ_OP_N ? m : k) + 3;
  d.ldb = (op_b == TCJ_OP_N ? k : n) + 3;
  d.ldc = d.ldd = m + 3;
  return d;
}

/* The row-major descriptor the identity gives: D^T = op(B)^T op(A)^T, the same memory. */
static tcj_gemm_desc swapped_desc(const tcj_gemm_desc *c) {
  tcj_gemm_desc r = *c;
  r.order = TCJ_ORDER_ROW_MAJOR;
  r.op_a = c->op_b, r.op_b = c->op_a;
  r.m = c->n, r.n = c->m;
  r.a = c->b, r.a_type = c->b_type, r.lda = c->ldb, r.stride_a = c->stride_b;
  r.b = c->a, r.b_type = c->a_type, r.ldb = c->lda, r.stride_b = c->stride_a;
  r.scale_a = c->scale_b, r.scale_b = c->scale_a;
  r.bias_kind = c->bias_kind == TCJ_BIAS_COL ? TCJ_BIAS_ROW : c->bias_kind == TCJ_BIAS_ROW ? TCJ_BIAS_COL : c->bias_kind;
  return r;
}

static void assert_problem_equal(const eng_problem *x, const eng_problem *y) {
  assert_int_equal(x->op_a_t, y->op_a_t);
  assert_int_equal(x->op_b_t, y->op_b_t);
  assert_int_equal(x->m, y->m);
  assert_int_equal(x->n, y->n);
  assert_int_equal(x->k, y->k);
  assert_int_equal(x->lda, y->lda);
  assert_int_equal(x->ldb, y->ldb);
  assert_int_equal(x->ldc, y->ldc);
  assert_int_equal(x->ldd, y->ldd);
  assert_int_equal(x->ab, y->ab);
  assert_int_equal(x->b_other, y->b_other);
  assert_int_equal(x->c, y->c);
  assert_int_equal(x->d, y->d);
  assert_int_equal(x->align_a, y->align_a);
  assert_int_equal(x->align_b, y->align_b);
  assert_int_equal(x->align_c, y->align_c);
  assert_int_equal(x->reads_c, y->reads_c);
  assert_int_equal(x->bias, y->bias);
  assert_int_equal(x->bias_t, y->bias_t);
  assert_int_equal(x->act, y->act);
  assert_int_equal(x->batch, y->batch);
  assert_int_equal(x->stride_a, y->stride_a);
  assert_int_equal(x->stride_b, y->stride_b);
  assert_int_equal(x->stride_c, y->stride_c);
  assert_int_equal(x->stride_d, y->stride_d);
  assert_int_equal(x->stride_bias, y->stride_bias);
  assert_true(x->user == y->user);
  assert_int_equal(x->fast_accum, y->fast_accum);
  assert_int_equal(x->block_scale, y->block_scale);
  assert_int_equal(x->tf32x3, y->tf32x3);
}

/* Column-major validates into exactly the problem of the swap identity, for every op pair, odd
 * shapes, bias per column and per row, batches with their strides, mixed fp8 and fp32 (3xTF32
 * parts); a user epilogue is told to swap row and column back (user_t), nothing else differs. */
static void col_major_validates_as_the_swapped_row_major_problem(void **state) {
  (void)state;
  static const int64_t shapes[][3] = {{64, 48, 32}, {33, 17, 5}, {1, 129, 7}, {130, 1, 1}};
  int checked = 0;
  for (int op = 0; op < 4; op++)
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
      for (int variant = 0; variant < 5; variant++) {
        tcj_op op_a = op & 1 ? TCJ_OP_T : TCJ_OP_N, op_b = op & 2 ? TCJ_OP_T : TCJ_OP_N;
        tcj_gemm_desc c = col_major_desc(op_a, op_b, shapes[s][0], shapes[s][1], shapes[s][2]);
        if (variant == 1) c.bias_kind = TCJ_BIAS_ROW;
        if (variant == 2) { /* a batch of 3: A and C apart per entry, one B, bias per entry */
          c.batch_count = 3;
          c.stride_a = c.lda * (op_a == TCJ_OP_N ? c.k : c.m) + 5;
          c.stride_b = 0;
          c.stride_c = c.stride_d = c.ldc * c.n + 8;
          c.stride_bias = c.m + 1;
          c.bias = (const void *)PBIAS, c.bias_kind = TCJ_BIAS_ROW;
        }
        if (variant == 3) { /* e4m3 x e5m2: A's type is B's after the swap */
          c.a_type = TCJ_E4M3, c.b_type = TCJ_E5M2;
          c.scale_a = (const float *)PSCAL, c.scale_b = (const float *)(PSCAL + 4);
          c.activation = TCJ_ACT_NONE;
        }
        if (variant == 4) { /* f32: 3xTF32 parts from the swapped operands */
          c.a_type = c.b_type = c.c_type = c.d_type = TCJ_F32;
          c.bias = NULL, c.bias_kind = TCJ_BIAS_NONE, c.activation = TCJ_ACT_NONE;
        }
        tcj_gemm_desc r = swapped_desc(&c);
        eng_problem pc, pr;
        fill(&c, &pc);
        fill(&r, &pr);
        assert_problem_equal(&pc, &pr);
        assert_int_equal(pc.m, c.n);
        assert_int_equal(pc.user_t, 0);
        c.epilogue_source = r.epilogue_source = "extern \"C\" ...";
        if (variant != 4 && variant != 3) {
          fill(&c, &pc);
          fill(&r, &pr);
          assert_problem_equal(&pc, &pr);
          assert_int_equal(pc.user_t, 1);
          assert_int_equal(pr.user_t, 0);
        }
        checked++;
      }
  assert_int_equal(checked, 4 * 4 * 5);
}

/* Column-major checks use cuBLAS's minimums and name the caller's fields, not the swapped ones. */
static void col_major_messages_name_the_callers_fields(void **state) {
  (void)state;
  tcj_gemm_desc d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  expect_ok(&d);
  d.lda = 63; /* >= k = 32 would do row-major; column-major A N needs lda >= m */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "lda");
  d = col_major_desc(TCJ_OP_T, TCJ_OP_N, 64, 48, 32);
  d.lda = 31; /* A T: k x m column-major, lda >= k */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "lda");
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.ldb = 31; /* B N: k x n, ldb >= k */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "ldb");
  d = col_major_desc(TCJ_OP_N, TCJ_OP_T, 64, 48, 32);
  d.ldb = 47; /* B T: n x k, ldb >= n */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "ldb");
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.ldc = 63;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "ldc");
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.ldd = 48; /* the row-major minimum (n) is not enough */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "ldd");
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.a = NULL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "a");
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.a_type = TCJ_F16;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "a", "b");
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.m = -1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "m");
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.bias = NULL; /* TCJ_BIAS_COL: n values, per column of the caller's D */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "TCJ_BIAS_COL");
  d.order = (tcj_order)2;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "order");
}

/* The overlap checks see the column-major extents: A, C and D of (ld, columns) each, D's batch
 * entries as columns of ldd, the bias against D. */
static void col_major_overlaps_are_checked_on_the_callers_layout(void **state) {
  (void)state;
  /* A: 32 columns of 64 bf16, lda 67: 31 * 67 + 64 elements, 4282 bytes. */
  tcj_gemm_desc d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.d = (void *)(PA + 4280); /* A's last element */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "a");
  d.d = (void *)(PA + 4282);
  expect_ok(&d);
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32); /* D: 48 columns of 64, ldd 67: 6426 bytes */
  d.bias = (const void *)(PD + 6424);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias");
  d.bias = (const void *)(PD + 6428);
  expect_ok(&d);
  /* Batches: entries back to back (ldd * n), one element less, and interleaved columns. */
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.c = NULL, d.beta = 0, d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE;
  d.batch_count = 2;
  d.stride_a = d.lda * d.k;
  d.stride_d = (64 + 3) * 47 + 64;
  expect_ok(&d);
  d.stride_d -= 1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d", "ldd");
  d.ldd = 128, d.stride_d = 64; /* two heads in one column of 128 */
  expect_ok(&d);
  d.stride_d = 63;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d");
  /* C read, not D: C's column-major span must not overlap D's. */
  d = col_major_desc(TCJ_OP_N, TCJ_OP_N, 64, 48, 32);
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE;
  d.d = (void *)(PC + 6424);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "d", "c");
}

/* Block scales are per row of A and per 128 x 128 block of B: the swap would make them per
 * column and per block of the other operand, so column-major block scales are refused. */
static void col_major_with_block_scales_is_not_supported(void **state) {
  (void)state;
  tcj_gemm_desc d = col_major_desc(TCJ_OP_N, TCJ_OP_T, 64, 48, 32);
  d.a_type = d.b_type = TCJ_E4M3;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
  d.scale_mode = TCJ_SCALE_BLOCK;
  d.scale_a = (const float *)PSCAL, d.scale_b = (const float *)(PSCAL + 4096);
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "TCJ_SCALE_BLOCK", "TCJ_ORDER_COL_MAJOR");
  d.order = TCJ_ORDER_ROW_MAJOR;
  d.ldb = 32, d.lda = 32, d.ldc = d.ldd = 48;
  expect_ok(&d);
}

/* A caller from before the storage order (1.0) has none: whatever lies past its size is not
 * read, and its descriptor is row-major. */
static void descriptors_before_the_order_field_are_row_major(void **state) {
  (void)state;
  struct v3_caller { unsigned char bytes[sizeof(tcj_gemm_desc)]; } v3;
  tcj_gemm_desc base = good();
  base.struct_size = DESC_V3_SIZE;
  memcpy(v3.bytes, &base, sizeof base);
  memset(v3.bytes + DESC_V3_SIZE, 0xA5, sizeof v3.bytes - DESC_V3_SIZE);
  eng_problem p, q;
  fill((const tcj_gemm_desc *)(const void *)v3.bytes, &p);
  fill(&base, &q);
  assert_problem_equal(&p, &q);
  assert_int_equal(p.m, 64);
}


/* ---- grouped GEMM (group_mode) ---------------------------------------------------------------- */

#define GROUPS 4
/* An MoE up-projection as contiguous groups: 64 rows of A (bf16, k 32) in GROUPS groups whose
 * int32 ends lie at PSCAL; B nn.Linear's [G, n, k] (op_b T, ldb k, stride_b n k); one D of 64 x 48
 * apart from C (read, beta 0.5); a per-column f32 bias per group; GELU. */
static tcj_gemm_desc good_grouped(void) {
  tcj_gemm_desc d = good();
  d.op_b = TCJ_OP_T;
  d.ldb = 32;
  d.stride_b = 48 * 32;
  d.stride_bias = 48;
  d.group_mode = TCJ_GROUP_M_CONTIGUOUS;
  d.group_count = GROUPS;
  d.group_ends32 = (const int32_t *)PSCAL;
  return d;
}

/* good_grouped() masked: A, C and D batches of GROUPS entries of 64 rows, counts at PSCAL. */
static tcj_gemm_desc good_masked(void) {
  tcj_gemm_desc d = good_grouped();
  d.group_mode = TCJ_GROUP_M_MASKED;
  d.group_ends32 = NULL;
  d.group_counts = (const int32_t *)PSCAL;
  d.stride_a = 64 * 32;
  d.stride_c = d.stride_d = 64 * 48;
  return d;
}

static void grouped_descriptors_pass_and_fill_the_problem(void **state) {
  (void)state;
  tcj_gemm_desc d = good_grouped();
  eng_problem p;
  fill(&d, &p);
  assert_int_equal(p.grouped, PTX_GROUP_ENDS32);
  assert_int_equal(p.groups, GROUPS);
  assert_int_equal(p.group_rows, 64 / GROUPS); /* the default hint: m / G */
  assert_int_equal(p.batch, 1);                /* the kernel's batch: the groups are not one */
  assert_int_equal(p.m, 64);
  assert_int_equal(p.stride_b, 48 * 32);
  assert_int_equal(p.stride_bias, 48);
  assert_int_equal(p.stride_a, 0);
  assert_int_equal(p.stride_d, 0);
  d.group_ends32 = NULL;
  d.group_ends64 = (const int64_t *)PSCAL;
  d.group_rows_hint = 5;
  fill(&d, &p);
  assert_int_equal(p.grouped, PTX_GROUP_ENDS64);
  assert_int_equal(p.group_rows, 5);
  d.group_rows_hint = 1000; /* more than m: m */
  fill(&d, &p);
  assert_int_equal(p.group_rows, 64);
  d.group_rows_hint = 0;
  d.group_count = 100; /* m / G rounds to 0: at least one row */
  fill(&d, &p);
  assert_int_equal(p.group_rows, 1);
  /* One B for every group, D as C, a user epilogue: all fine. */
  d = good_grouped();
  d.stride_b = 0;
  d.d = NULL;
  d.stride_d = -3; /* ignored with D NULL */
  d.epilogue_source = "x";
  fill(&d, &p);
  assert_int_equal(p.grouped, PTX_GROUP_ENDS32);
  /* No group: nothing to do, and no array needed. */
  d = good_grouped();
  d.group_count = 0;
  d.group_ends32 = NULL;
  fill(&d, &p);
  assert_int_equal(p.groups, 0);
  assert_true(eng_problem_empty(&p));
  d = good_masked();
  fill(&d, &p);
  assert_int_equal(p.grouped, PTX_GROUP_MASKED);
  assert_int_equal(p.group_rows, 64); /* the default hint: m */
  assert_int_equal(p.stride_a, 64 * 32);
  assert_int_equal(p.stride_c, 64 * 48);
  assert_int_equal(p.stride_d, 64 * 48);
  assert_int_equal(p.batch, 1);
  assert_false(eng_problem_empty(&p));
  /* f16 operands, f32 D. */
  d = good_grouped();
  d.a_type = d.b_type = TCJ_F16;
  d.d_type = TCJ_F32;
  fill(&d, &p);
  assert_int_equal(p.d, PTX_E_F32);
}

static void group_fields_without_a_group_mode_are_invalid(void **state) {
  (void)state;
  static const char *const fields[] = {"group_count", "group_ends32", "group_ends64", "group_counts", "group_rows_hint"};
  for (int i = 0; i < 5; i++) {
    tcj_gemm_desc d = good();
    switch (i) {
    case 0: d.group_count = 2; break;
    case 1: d.group_ends32 = (const int32_t *)PSCAL; break;
    case 2: d.group_ends64 = (const int64_t *)PSCAL; break;
    case 3: d.group_counts = (const int32_t *)PSCAL; break;
    case 4: d.group_rows_hint = 7; break;
    }
    expect(&d, TCJ_ERROR_INVALID_VALUE, fields[i], "TCJ_GROUP_NONE");
  }
  tcj_gemm_desc d = good_grouped();
  d.group_mode = (tcj_group_mode)4;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_mode", "tcj_group_mode");
}

static void each_group_mode_takes_its_own_array(void **state) {
  (void)state;
  tcj_gemm_desc d = good_grouped();
  d.group_ends64 = (const int64_t *)(PSCAL + 64);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_ends32", "group_ends64");
  d.group_ends32 = NULL, d.group_ends64 = NULL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_ends32", "group_ends64", "TCJ_GROUP_M_CONTIGUOUS");
  d = good_grouped();
  d.group_counts = (const int32_t *)(PSCAL + 64);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_counts", "TCJ_GROUP_M_CONTIGUOUS");
  d = good_grouped();
  d.group_ends32 = (const int32_t *)(PSCAL + 2);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_ends32");
  d.group_ends32 = NULL, d.group_ends64 = (const int64_t *)(PSCAL + 4);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_ends64");
  d = good_masked();
  d.group_ends32 = (const int32_t *)(PSCAL + 64);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_ends32", "TCJ_GROUP_M_MASKED", "group_counts");
  d.group_ends32 = NULL, d.group_ends64 = (const int64_t *)(PSCAL + 64);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_ends64", "TCJ_GROUP_M_MASKED");
  d.group_ends64 = NULL, d.group_counts = NULL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_counts", "TCJ_GROUP_M_MASKED");
  d.group_counts = (const int32_t *)(PSCAL + 1);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_counts");
}

static void group_count_hint_batch_and_strides_are_checked(void **state) {
  (void)state;
  tcj_gemm_desc d = good_grouped();
  d.group_count = -1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_count");
  d.group_count = (int64_t)1 << 31;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "group_count");
  d = good_grouped();
  d.group_rows_hint = -2;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_rows_hint");
  d = good_grouped();
  d.batch_count = 2;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "batch_count");
  d.batch_count = 1;
  expect_ok(&d);
  static const char *const strides[] = {"stride_a", "stride_c", "stride_d"};
  for (int i = 0; i < 3; i++) {
    d = good_grouped();
    *(i == 0 ? &d.stride_a : i == 1 ? &d.stride_c : &d.stride_d) = 64 * 48;
    expect(&d, TCJ_ERROR_INVALID_VALUE, strides[i], "TCJ_GROUP_M_CONTIGUOUS");
  }
}

/* What this release's grouped kernels leave out: refused, naming it. */
static void what_grouped_gemm_does_not_do_yet_is_not_supported(void **state) {
  (void)state;
  tcj_gemm_desc d = good_grouped();
  d.order = TCJ_ORDER_COL_MAJOR;
  d.lda = 64, d.ldb = 48, d.ldc = d.ldd = 64;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "TCJ_ORDER_COL_MAJOR");
  d = good_grouped();
  d.bias_kind = TCJ_BIAS_ROW;
  d.stride_bias = 64;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "TCJ_BIAS_ROW");
  /* Contiguous groups with A stored k x m start at any column of A; masked ones run it. */
  d = good_grouped();
  d.op_a = TCJ_OP_T;
  d.lda = d.m;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "op_a", "TCJ_GROUP_M_CONTIGUOUS");
  d = good_masked();
  d.op_a = TCJ_OP_T;
  d.lda = d.m;
  d.stride_a = d.m * d.k;
  expect_ok(&d);
  static const tcj_dtype types[] = {TCJ_F32, TCJ_TF32, TCJ_S8, TCJ_F64};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    d = good_masked();
    d.a_type = d.b_type = types[i];
    d.c_type = d.d_type = types[i] == TCJ_S8 ? TCJ_S32 : types[i] == TCJ_F64 ? TCJ_F64 : TCJ_F32;
    d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
    if (types[i] == TCJ_F64) d.alpha_f64 = 1, d.beta_f64 = 0.5, d.alpha = 1, d.beta = 0;
    expect(&d, TCJ_ERROR_NOT_SUPPORTED, "a_type", "group_mode");
  }
}

/* An empty operand is never read, so its pointer and ld narrow no copy (a K-grouped call with no
 * tokens passes A and B that end where their data ends, at any 2-byte address). */
static void empty_operands_narrow_no_copy(void **state) {
  (void)state;
  tcj_gemm_desc d = good();
  d.k = 0;
  d.a = (const void *)(PA + 2), d.b = (const void *)(PB + 6), d.lda = 1, d.ldb = 48;
  eng_problem p;
  fill(&d, &p);
  assert_int_equal(p.align_a, 16);
  assert_int_equal(p.align_b, 16);
  d.k = 32, d.lda = 32; /* not empty: the pointer's alignment counts */
  fill(&d, &p);
  assert_int_equal(p.align_a, 2);
}

#define PARRAYS ((uintptr_t)0x900000) /* group_b_ptrs and gather_a: apart from everything else */

/* group_b_ptrs (grouped, M modes): b NULL and stride_b 0, the array 8-byte aligned and apart
 * from D; B's extent is not checked and its alignment is its row pitch's. Named in every
 * refusal; K groups and block scales refuse it. */
static void b_pointer_arrays_validate_by_name(void **state) {
  (void)state;
  eng_problem p;
  for (int masked = 0; masked < 2; masked++) {
    tcj_gemm_desc d = masked ? good_masked() : good_grouped();
    d.b = NULL, d.stride_b = 0;
    d.group_b_ptrs = (const void *const *)PARRAYS;
    fill(&d, &p);
    assert_int_equal(p.b_ptrs, 1);
    assert_int_equal(p.gather, 0);
    assert_int_equal(p.align_b, 16); /* ldb 32 bf16: 64-byte rows */
    d.ldb = 33;
    fill(&d, &p);
    assert_int_equal(p.align_b, 2);
    d.ldb = 31; /* below k */
    expect(&d, TCJ_ERROR_INVALID_VALUE, "ldb");
    d.ldb = 32;
    d.b = (const void *)PB;
    expect(&d, TCJ_ERROR_INVALID_VALUE, "group_b_ptrs", "b");
    d.b = NULL, d.stride_b = 48 * 32;
    expect(&d, TCJ_ERROR_INVALID_VALUE, "group_b_ptrs", "stride_b");
    d.stride_b = 0;
    d.group_b_ptrs = (const void *const *)(PARRAYS + 4);
    expect(&d, TCJ_ERROR_INVALID_VALUE, "group_b_ptrs");
    d.group_b_ptrs = (const void *const *)(PD + 8); /* read while D is written */
    expect(&d, TCJ_ERROR_INVALID_VALUE, "group_b_ptrs");
  }
  tcj_gemm_desc d = good();
  d.group_b_ptrs = (const void *const *)PARRAYS;
  d.b = NULL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_b_ptrs", "TCJ_GROUP_NONE");
  d = good_grouped();
  d.b = NULL, d.stride_b = 0;
  d.group_b_ptrs = (const void *const *)PARRAYS;
  d.group_mode = TCJ_GROUP_K_CONTIGUOUS;
  d.op_a = TCJ_OP_T, d.op_b = TCJ_OP_N, d.lda = 64, d.ldb = 48;
  d.stride_c = d.stride_d = 64 * 48;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "group_b_ptrs");
  /* fp8: per-tensor and row scales keep their B scale stride; block scales run on sm90 only. */
  d = good_grouped();
  d.b = NULL, d.stride_b = 0;
  d.group_b_ptrs = (const void *const *)PARRAYS;
  d.a_type = d.b_type = TCJ_E4M3;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
  d.scale_a = (const float *)(PARRAYS + 0x1000), d.scale_b = (const float *)(PARRAYS + 0x2000);
  d.stride_scale_b = 1;
  fill(&d, &p);
  assert_int_equal(p.b_ptrs, 1);
  assert_int_equal(p.stride_scale_b, 1);
  d.scale_mode = TCJ_SCALE_ROW, d.stride_scale_b = 48;
  fill(&d, &p);
  assert_int_equal(p.scale_row, 1);
  d.scale_mode = TCJ_SCALE_BLOCK, d.stride_scale_b = 1;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "group_b_ptrs", "TCJ_SCALE_BLOCK");
  /* SwiGLU: each pointer is its group's whole 2n-column B. */
  d = good_grouped();
  d.b = NULL, d.stride_b = 0;
  d.group_b_ptrs = (const void *const *)PARRAYS;
  d.activation = TCJ_ACT_SWIGLU, d.beta = 0, d.c = NULL, d.stride_bias = 96;
  fill(&d, &p);
  assert_int_equal(p.act, PTX_ACT_SWIGLU);
  assert_int_equal(p.b_ptrs, 1);
}

/* gather_a (contiguous groups, op_a N): both fields, gather_a_rows >= 1, the indices 4-byte
 * aligned and apart from D; A's extent is gather_a_rows rows. Named in every refusal; fp8 row
 * and block scales refuse it. */
static void gathered_rows_validate_by_name(void **state) {
  (void)state;
  eng_problem p;
  tcj_gemm_desc d = good_grouped();
  d.gather_a = (const int32_t *)PARRAYS, d.gather_a_rows = 100;
  fill(&d, &p);
  assert_int_equal(p.gather, 1);
  assert_int_equal(p.gather_rows, 100);
  assert_int_equal(p.m, 64);
  d.gather_a_rows = 1; /* fewer rows than the problem: indices may repeat */
  fill(&d, &p);
  /* A's extent: 0x200000 bytes of rows from PA reach C at PC (64-byte rows). */
  d.gather_a_rows = 0x200000 / 64 + 1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "a", "c");
  d.gather_a_rows = 0x200000 / 64;
  fill(&d, &p);
  d.gather_a_rows = 0;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "gather_a", "gather_a_rows");
  d.gather_a_rows = -5;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "gather_a_rows");
  d.gather_a = NULL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "gather_a", "gather_a_rows");
  d.gather_a = (const int32_t *)(PARRAYS + 2), d.gather_a_rows = 100;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "gather_a");
  d.gather_a = (const int32_t *)(PD + 64); /* read while D is written */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "gather_a");
  d.gather_a = (const int32_t *)PARRAYS;
  d.op_a = TCJ_OP_T, d.lda = 64;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "gather_a", "op_a");
  d = good_masked();
  d.gather_a = (const int32_t *)PARRAYS, d.gather_a_rows = 100;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "gather_a", "TCJ_GROUP_M_MASKED");
  d = good();
  d.gather_a = (const int32_t *)PARRAYS, d.gather_a_rows = 100;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "gather_a", "TCJ_GROUP_NONE");
  /* With B by pointers, and with fp8 per-tensor scales; not with row or block scales. */
  d = good_grouped();
  d.gather_a = (const int32_t *)PARRAYS, d.gather_a_rows = 100;
  d.b = NULL, d.stride_b = 0;
  d.group_b_ptrs = (const void *const *)(PARRAYS + 0x1000);
  fill(&d, &p);
  assert_int_equal(p.gather + p.b_ptrs, 2);
  d.a_type = d.b_type = TCJ_E4M3;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
  d.scale_a = (const float *)(PARRAYS + 0x2000), d.scale_b = (const float *)(PARRAYS + 0x3000);
  fill(&d, &p);
  d.scale_mode = TCJ_SCALE_ROW;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "gather_a", "TCJ_SCALE_ROW");
  d.scale_mode = TCJ_SCALE_BLOCK;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "gather_a", "TCJ_SCALE_BLOCK");
  /* row_scale stays in the problem's order: m values, taken as without a gather. */
  d = good_grouped();
  d.gather_a = (const int32_t *)PARRAYS, d.gather_a_rows = 100;
  d.row_scale = (const float *)(PARRAYS + 0x1000);
  fill(&d, &p);
  assert_int_equal(p.row_scale, 1);
}

#define PSCALES ((uintptr_t)0x700000) /* fp8 scale arrays and row_scale: apart from everything else */

/* good_grouped() (or good_masked()) with e4m3 operands and per-tensor scales at PSCALES. */
static tcj_gemm_desc fp8_grouped(int masked) {
  tcj_gemm_desc d = masked ? good_masked() : good_grouped();
  d.a_type = d.b_type = TCJ_E4M3;
  d.scale_a = (const float *)PSCALES;
  d.scale_b = (const float *)(PSCALES + 0x1000);
  return d;
}

/* fp8 grouped calls take every scale mode; B's scales step per group by stride_scale_b, which
 * only fp8 grouped calls take (>= 0; block scales: at least one group's blocks). */
static void fp8_grouped_calls_take_per_group_b_scales(void **state) {
  (void)state;
  eng_problem p;
  for (int masked = 0; masked < 2; masked++) {
    tcj_gemm_desc d = fp8_grouped(masked);
    d.stride_scale_b = 1;
    fill(&d, &p);
    assert_int_equal(p.ab, PTX_E_E4M3);
    assert_int_equal(p.grouped, masked ? PTX_GROUP_MASKED : PTX_GROUP_ENDS32);
    assert_int_equal(p.stride_scale_b, 1);
    assert_int_equal(p.scale_row, 0);
    d.b_type = TCJ_E5M2;
    fill(&d, &p);
    assert_int_equal(p.b_other, 1);
    d.scale_mode = TCJ_SCALE_ROW;
    d.stride_scale_b = 48;
    fill(&d, &p);
    assert_int_equal(p.scale_row, 1);
    d.scale_mode = TCJ_SCALE_BLOCK;
    d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
    d.stride_scale_b = 1; /* ceil(48 / 128) x ceil(32 / 128) = 1 block per group */
    fill(&d, &p);
    assert_int_equal(p.block_scale, 1);
    assert_int_equal(p.batch, 1);
  }
  tcj_gemm_desc d = fp8_grouped(0);
  d.stride_scale_b = -1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_scale_b", "negative");
  d = fp8_grouped(0);
  d.scale_mode = TCJ_SCALE_BLOCK;
  d.k = 129, d.lda = 129, d.ldb = 129, d.stride_b = 48 * 129;
  d.stride_scale_b = 1; /* one group's B blocks are 1 x 2 */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_scale_b", "block scales");
  d.stride_scale_b = 2;
  expect_ok(&d);
  d = good_grouped();
  d.stride_scale_b = 1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_scale_b", "e4m3");
  d = good();
  d.a_type = d.b_type = TCJ_E4M3;
  d.stride_scale_b = 1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_scale_b", "group_mode");
  /* The last group's B scales reach D: checked as far as they go. */
  d = fp8_grouped(0);
  d.stride_scale_b = 4;
  d.d = (void *)(PSCALES + 0x1000 + 4 * 4 * (GROUPS - 1));
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scale_b", "overlaps D");
  d.group_count = GROUPS - 1;
  expect_ok(&d);
}

/* TCJ_SCALE_ROW: m scales of A, n of B; one GEMM or groups (a batch is refused by name), and
 * the arrays must not reach D. */
static void row_scales_take_one_gemm_or_groups(void **state) {
  (void)state;
  eng_problem p;
  tcj_gemm_desc d = good();
  d.a_type = d.b_type = TCJ_E4M3;
  d.scale_mode = TCJ_SCALE_ROW;
  d.scale_a = (const float *)PSCALES;
  fill(&d, &p);
  assert_int_equal(p.scale_row, 1);
  d.scale_b = (const float *)(PSCALES + 0x1000);
  d.order = TCJ_ORDER_COL_MAJOR; /* D^T takes them swapped */
  d.lda = 64, d.ldb = 32, d.ldc = d.ldd = 64;
  fill(&d, &p);
  assert_int_equal(p.scale_row, 1);
  d = good_batch();
  d.a_type = d.b_type = TCJ_E4M3;
  d.scale_mode = TCJ_SCALE_ROW;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "row scales", "batch_count");
  d = good();
  d.a_type = d.b_type = TCJ_E4M3;
  d.scale_mode = TCJ_SCALE_ROW;
  d.scale_a = (const float *)(PD - 4 * 63); /* its last value is D's first element */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scale_a", "overlaps D");
  d.scale_a = (const float *)(PD - 4 * 64);
  expect_ok(&d);
  d.scale_mode = TCJ_SCALE_TENSOR; /* one value there */
  d.scale_a = (const float *)(PD - 4);
  expect_ok(&d);
}

/* row_scale: every type with a fused epilogue, one GEMM, a batch or groups; 4-byte aligned,
 * apart from D; not for column-major calls nor f64. */
static void row_scale_scales_rows_of_d(void **state) {
  (void)state;
  eng_problem p;
  tcj_gemm_desc d = good();
  d.row_scale = (const float *)PSCALES;
  fill(&d, &p);
  assert_int_equal(p.row_scale, 1);
  d = good_batch();
  d.row_scale = (const float *)PSCALES;
  fill(&d, &p);
  assert_int_equal(p.row_scale, 1);
  d = good_masked();
  d.row_scale = (const float *)PSCALES;
  fill(&d, &p);
  assert_int_equal(p.row_scale, 1);
  d.row_scale = (const float *)(PD - 4 * 64 * GROUPS + 4); /* G entries of 64: the last reaches D */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "row_scale", "overlaps D");
  d.row_scale = (const float *)(PSCALES + 2);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "row_scale", "aligned");
  d = fp8_grouped(0);
  d.row_scale = (const float *)(PSCALES + 0x2000);
  fill(&d, &p);
  assert_int_equal(p.row_scale, 1);
  d = good();
  d.row_scale = (const float *)PSCALES;
  d.order = TCJ_ORDER_COL_MAJOR;
  d.lda = 64, d.ldb = 32, d.ldc = d.ldd = 64;
  d.bias_kind = TCJ_BIAS_NONE, d.bias = NULL;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "row_scale", "TCJ_ORDER_COL_MAJOR");
  d = good();
  d.a_type = d.b_type = d.c_type = d.d_type = TCJ_F64;
  d.alpha_f64 = 1, d.beta_f64 = 0.5, d.alpha = 1, d.beta = 0;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
  d.row_scale = (const float *)PSCALES;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "row_scale", "f64");
}

/* A weight gradient as K groups: dY [32 tokens, 64] (A op T, lda 64) and X [32, 48] (B op N, ldb
 * 48) in GROUPS K groups whose int32 ends lie at PSCAL; C and D batches of GROUPS entries of 64 x
 * 48; a bias per group. */
static tcj_gemm_desc good_kgrouped(void) {
  tcj_gemm_desc d = good_grouped();
  d.group_mode = TCJ_GROUP_K_CONTIGUOUS;
  d.op_a = TCJ_OP_T, d.lda = 64;
  d.op_b = TCJ_OP_N, d.ldb = 48;
  d.stride_b = 0;
  d.stride_c = d.stride_d = 64 * 48;
  return d;
}

/* K groups: the problem is G entries of D with the K hint (k / G by default), its ops are A T
 * and B N only (NOT_SUPPORTED naming the op), one A and one B (stride_a / stride_b INVALID_VALUE),
 * no pointer array, D entries that do not overlap, and the ends arrays as the M mode's. */
static void k_grouped_descriptors_check_ops_strides_and_fill_the_problem(void **state) {
  (void)state;
  tcj_gemm_desc d = good_kgrouped();
  eng_problem p;
  fill(&d, &p);
  assert_int_equal(p.grouped, PTX_GROUP_K_ENDS32);
  assert_int_equal(p.groups, GROUPS);
  assert_int_equal(p.group_rows, 32 / GROUPS); /* the expected depth: k / G */
  assert_int_equal(p.m, 64);
  assert_int_equal(p.k, 32);
  assert_int_equal(p.batch, 1);
  assert_int_equal(p.stride_d, 64 * 48);
  assert_int_equal(p.stride_c, 64 * 48);
  assert_int_equal(p.stride_bias, 48);
  assert_int_equal(p.op_a_t, 1);
  assert_int_equal(p.op_b_t, 0);
  d.group_ends32 = NULL;
  d.group_ends64 = (const int64_t *)PSCAL;
  d.group_rows_hint = 1000; /* past k: k */
  fill(&d, &p);
  assert_int_equal(p.grouped, PTX_GROUP_K_ENDS64);
  assert_int_equal(p.group_rows, 32);
  d = good_kgrouped();
  d.stride_c = 0; /* one C for every group */
  fill(&d, &p);
  d = good_kgrouped(); /* fp8 mma reads K-major operands only */
  d.a_type = d.b_type = TCJ_E4M3;
  d.c_type = d.d_type = TCJ_BF16;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "a_type", "TCJ_GROUP_K_CONTIGUOUS");
  d = good_kgrouped();
  d.op_a = TCJ_OP_N;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "op_a");
  d = good_kgrouped();
  d.op_b = TCJ_OP_T, d.ldb = 32;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "op_b");
  d = good_kgrouped();
  d.stride_a = 64;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_a");
  d = good_kgrouped();
  d.stride_b = 48;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_b");
  d = good_kgrouped();
  d.stride_d = 48; /* the entries of D overlap */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d");
  d = good_kgrouped();
  d.group_ends32 = NULL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_ends32");
  d = good_kgrouped();
  d.group_counts = (const int32_t *)PSCAL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_counts");
  d = good_kgrouped();
  d.group_ends32 = (const int32_t *)(PSCAL + 2);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "group_ends32");
  d = good_kgrouped();
  d.b = NULL, d.group_b_ptrs = (const void *const *)PSCAL;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "group_b_ptrs");
}

/* Extents: masked D entries must not overlap; B's and the bias's G entries (not only the first)
 * and masked A's are checked against D. */
static void grouped_extents_cover_every_group(void **state) {
  (void)state;
  tcj_gemm_desc d = good_masked();
  d.stride_d = 64 * 48 - 1; /* the entries of D share elements */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d");
  d.stride_d = 0;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "stride_d");
  /* D right after B's first entry: only a later group's B reaches it. */
  d = good_grouped();
  d.d = (void *)(PB + 48 * 32 * 2);
  d.group_count = 1;
  expect_ok(&d);
  d.group_count = GROUPS;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "b");
  /* The same with the bias: 48 f32 per group. */
  d = good_grouped();
  d.d = (void *)(PBIAS + 48 * 4);
  d.group_count = 1;
  expect_ok(&d);
  d.group_count = GROUPS;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias");
  /* Masked A: a later entry reaches D. */
  d = good_masked();
  d.d = (void *)(PA + 64 * 32 * 2);
  d.stride_d = 64 * 48;
  d.c = NULL, d.beta = 0, d.stride_c = 0;
  d.group_count = 1;
  expect_ok(&d);
  d.group_count = GROUPS;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "a");
  /* Masked entries' alignment is every entry's: a stride of 1 element leaves B 2-byte aligned. */
  d = good_masked();
  d.stride_b = 48 * 32 + 1;
  eng_problem p;
  fill(&d, &p);
  assert_int_equal(p.align_b, 2);
}

/* scatter_d (contiguous groups): both fields, scatter_d_rows >= 1, the indices 4-byte
 * aligned and apart from D, which has scatter_d_rows rows; C is not read, no column-major
 * order; adds (TCJ_SCATTER_ADD) into f32 D only, without amax. Named in every refusal. */
static tcj_gemm_desc good_scatter(void) {
  tcj_gemm_desc d = good_grouped();
  d.beta = 0, d.c = NULL;
  d.d_type = TCJ_F32;
  d.scatter_d = (const int32_t *)PARRAYS, d.scatter_d_rows = 8, d.scatter_mode = TCJ_SCATTER_ADD;
  return d;
}

static void scattered_rows_validate_by_name(void **state) {
  (void)state;
  eng_problem p;
  tcj_gemm_desc d = good_scatter();
  fill(&d, &p);
  assert_int_equal(p.scatter, PTX_SCATTER_ADD);
  assert_int_equal(p.scatter_rows, 8);
  assert_int_equal(p.m, 64);
  assert_int_equal(p.reads_c, 0);
  /* D's extent is scatter_d_rows rows of ldd: 0x100000 bytes from PD reach PBIAS (192-byte
   * f32 rows of 48; the bias lies right after them). */
  d.scatter_d_rows = 0x100000 / 192;
  fill(&d, &p);
  d.scatter_d_rows = 0x100000 / 192 + 1;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "bias", "d");
  d.scatter_d_rows = 0;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scatter_d", "scatter_d_rows");
  d.scatter_d_rows = -3;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scatter_d_rows");
  d.scatter_d_rows = (int64_t)INT32_MAX + 1;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "scatter_d_rows");
  d.scatter_d_rows = 8, d.scatter_d = NULL;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scatter_d", "scatter_d_rows");
  d.scatter_d = (const int32_t *)(PARRAYS + 2);
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scatter_d");
  d.scatter_d = (const int32_t *)(PD + 64); /* read while D is written */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scatter_d", "overlaps");
  /* What it rules out, each by name. */
  d = good_scatter();
  d.beta = 0.5f, d.c = (const void *)PC;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "scatter_d", "beta");
  d.beta = 0, d.beta_ptr = (const float *)PSCAL;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "scatter_d", "beta_ptr");
  d = good_scatter();
  d.d_type = TCJ_BF16;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "scatter_d", "TCJ_SCATTER_ADD", "d_type");
  d.scatter_mode = TCJ_SCATTER_STORE; /* stores take any D */
  fill(&d, &p);
  assert_int_equal(p.scatter, PTX_SCATTER_STORE);
  d.scatter_mode = (tcj_scatter_mode)2;
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scatter_mode");
  d = good_grouped();
  d.scatter_mode = TCJ_SCATTER_ADD; /* without scatter_d */
  expect(&d, TCJ_ERROR_INVALID_VALUE, "scatter_mode", "scatter_d");
  d = good_scatter();
  d.order = TCJ_ORDER_COL_MAJOR;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "scatter_d", "TCJ_ORDER_COL_MAJOR");
  d = good_masked();
  d.beta = 0, d.c = NULL, d.d_type = TCJ_F32;
  d.scatter_d = (const int32_t *)PARRAYS, d.scatter_d_rows = 8;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "scatter_d", "TCJ_GROUP_M_MASKED");
  d = good();
  d.beta = 0, d.c = NULL, d.d_type = TCJ_F32;
  d.scatter_d = (const int32_t *)PARRAYS, d.scatter_d_rows = 8;
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "scatter_d", "TCJ_GROUP_NONE");
  /* fp8 operands into f32 D; amax_d is refused. */
  d = good_scatter();
  d.a_type = d.b_type = TCJ_E4M3;
  d.bias = NULL, d.bias_kind = TCJ_BIAS_NONE, d.activation = TCJ_ACT_NONE;
  d.scale_a = (const float *)(PARRAYS + 0x2000), d.scale_b = (const float *)(PARRAYS + 0x3000);
  fill(&d, &p);
  assert_int_equal(p.scatter, PTX_SCATTER_ADD);
  d.amax_d = (float *)(PARRAYS + 0x4000);
  expect(&d, TCJ_ERROR_NOT_SUPPORTED, "scatter_d", "amax_d");
  d.scatter_mode = TCJ_SCATTER_STORE, d.d_type = TCJ_E4M3; /* stored fp8 D: its amax and scale as ever */
  d.scale_d = (const float *)(PARRAYS + 0x5000);
  fill(&d, &p);
  assert_int_equal(p.scatter, PTX_SCATTER_STORE);
  /* With the gather and the router weights of the same rows: the whole MoE down-projection. */
  d = good_scatter();
  d.gather_a = (const int32_t *)(PARRAYS + 0x1000), d.gather_a_rows = 100;
  d.row_scale = (const float *)(PARRAYS + 0x2000);
  fill(&d, &p);
  assert_int_equal(p.scatter, PTX_SCATTER_ADD);
  assert_int_equal(p.gather + p.row_scale, 2);
}

/* A caller from before the scatter fields (1.0's MoE extras, ending at row_scale) scatters
 * nothing, whatever lies past its size. */
static void descriptors_before_the_scatter_fields_scatter_nothing(void **state) {
  (void)state;
  struct v5_caller { unsigned char bytes[sizeof(tcj_gemm_desc)]; } v5;
  tcj_gemm_desc base = good_grouped();
  base.struct_size = DESC_V5_SIZE;
  memcpy(v5.bytes, &base, sizeof base);
  memset(v5.bytes + DESC_V5_SIZE, 0xA5, sizeof v5.bytes - DESC_V5_SIZE);
  eng_problem p, q;
  fill((const tcj_gemm_desc *)(const void *)v5.bytes, &p);
  fill(&base, &q);
  assert_problem_equal(&p, &q);
  assert_int_equal(p.scatter, 0);
}

/* A caller from before the group fields (1.0's first layout, ending at order) is not grouped,
 * whatever lies past its size. */
static void descriptors_before_the_group_fields_are_not_grouped(void **state) {
  (void)state;
  struct v4_caller { unsigned char bytes[sizeof(tcj_gemm_desc)]; } v4;
  tcj_gemm_desc base = good();
  base.struct_size = DESC_V4_SIZE;
  memcpy(v4.bytes, &base, sizeof base);
  memset(v4.bytes + DESC_V4_SIZE, 0xA5, sizeof v4.bytes - DESC_V4_SIZE);
  eng_problem p, q;
  fill((const tcj_gemm_desc *)(const void *)v4.bytes, &p);
  fill(&base, &q);
  assert_problem_equal(&p, &q);
  assert_int_equal(p.grouped, 0);
  assert_int_equal(p.groups, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(fp8_amax_and_scales_may_not_overlap),
    cmocka_unit_test(scattered_rows_validate_by_name),
    cmocka_unit_test(descriptors_before_the_scatter_fields_scatter_nothing),
    cmocka_unit_test(desc_init_is_alpha_one_and_zero_elsewhere),
    cmocka_unit_test(valid_descriptor_passes_and_fills_the_problem),
    cmocka_unit_test(struct_size_is_checked),
    cmocka_unit_test(negative_batch_count_is_invalid),
    cmocka_unit_test(negative_strides_are_invalid),
    cmocka_unit_test(d_entries_overlapping_across_the_batch_are_invalid),
    cmocka_unit_test(d_overlapping_an_input_is_invalid),
    cmocka_unit_test(d_partly_overlapping_c_is_invalid_and_exactly_c_is_accepted),
    cmocka_unit_test(unknown_activation_and_bias_kind_are_invalid),
    cmocka_unit_test(bias_pointer_and_kind_must_agree),
    cmocka_unit_test(bias_types_other_than_f32_bf16_f16_are_not_supported),
    cmocka_unit_test(c_null_needs_beta_zero_and_no_beta_ptr),
    cmocka_unit_test(d_type_must_suit_the_operands),
    cmocka_unit_test(s8_takes_no_gelu_silu_or_user_epilogue),
    cmocka_unit_test(misaligned_scalar_pointers_are_invalid),
    cmocka_unit_test(operand_rules_of_tcj_gemm_still_apply),
    cmocka_unit_test(compute_mode_splits_f32_and_refuses_what_does_not_fit),
    cmocka_unit_test(f64_takes_double_scalars_and_no_fused_epilogue),
    cmocka_unit_test(null_engine_is_invalid),
    cmocka_unit_test(engine_rejects_bad_descriptors_before_launch),
    cmocka_unit_test(zero_filled_descriptor_is_refused_naming_the_unread_scalar),
    cmocka_unit_test(batch_fold_check_is_exact_where_m_times_lda_exceeds_int64),
    cmocka_unit_test(interleaved_batches_of_2_31_entries_are_checked_at_once),
    cmocka_unit_test(desc_init_function_matches_the_macro_within_the_callers_size),
    cmocka_unit_test(batch_overlap_arithmetic_agrees_with_brute_force),
    cmocka_unit_test(col_major_validates_as_the_swapped_row_major_problem),
    cmocka_unit_test(col_major_messages_name_the_callers_fields),
    cmocka_unit_test(col_major_overlaps_are_checked_on_the_callers_layout),
    cmocka_unit_test(col_major_with_block_scales_is_not_supported),
    cmocka_unit_test(descriptors_before_the_order_field_are_row_major),
    cmocka_unit_test(grouped_descriptors_pass_and_fill_the_problem),
    cmocka_unit_test(group_fields_without_a_group_mode_are_invalid),
    cmocka_unit_test(each_group_mode_takes_its_own_array),
    cmocka_unit_test(group_count_hint_batch_and_strides_are_checked),
    cmocka_unit_test(what_grouped_gemm_does_not_do_yet_is_not_supported),
    cmocka_unit_test(grouped_extents_cover_every_group),
    cmocka_unit_test(b_pointer_arrays_validate_by_name),
    cmocka_unit_test(gathered_rows_validate_by_name),
    cmocka_unit_test(empty_operands_narrow_no_copy),
    cmocka_unit_test(k_grouped_descriptors_check_ops_strides_and_fill_the_problem),
    cmocka_unit_test(fp8_grouped_calls_take_per_group_b_scales),
    cmocka_unit_test(row_scales_take_one_gemm_or_groups),
    cmocka_unit_test(row_scale_scales_rows_of_d),
    cmocka_unit_test(descriptors_before_the_group_fields_are_not_grouped),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
