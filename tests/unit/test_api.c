/* SPDX-License-Identifier: Apache-2.0 */
/* Public-API validation tests that need no GPU: bad arguments are rejected with a message
 * naming the argument, before any device work (eng_validate is checked directly too). */
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

/* Fake device addresses: validation only looks at their values, never dereferences them. */
#define PA ((const void *)(uintptr_t)0x10000)
#define PB ((const void *)(uintptr_t)0x20000)
#define PC ((void *)(uintptr_t)0x30000)

typedef struct args {
  tcj_op op_a, op_b;
  int64_t m, n, k;
  const void *a, *b;
  void *c;
  tcj_dtype ta, tb, tc;
  int64_t lda, ldb, ldc;
} args;

/* A valid bf16 NN problem 64 x 48 x 32 with packed leading dimensions. */
static args good(void) {
  args g = {TCJ_OP_N, TCJ_OP_N, 64, 48, 32, PA, PB, PC, TCJ_BF16, TCJ_BF16, TCJ_BF16, 32, 48, 48};
  return g;
}

static tcj_status run(const args *g, eng_problem *p) {
  eng_problem tmp;
  return eng_validate(g->op_a, g->op_b, g->m, g->n, g->k, g->a, g->ta, g->lda, g->b, g->tb, g->ldb,
                      g->c, g->tc, g->ldc, p ? p : &tmp);
}

/* Expects status s and a message containing every word in words (NULL-terminated). */
static void expect(const args *g, tcj_status s, const char *word, const char *word2) {
  tcj_status got = run(g, NULL);
  const char *msg = eng_last_error();
  if (got != s || (word && !strstr(msg, word)) || (word2 && !strstr(msg, word2)))
    print_error("status %s, message \"%s\"; wanted %s with \"%s\" \"%s\"\n", tcj_status_string(got),
                msg, tcj_status_string(s), word ? word : "", word2 ? word2 : "");
  assert_int_equal(got, s);
  if (word) assert_non_null(strstr(msg, word));
  if (word2) assert_non_null(strstr(msg, word2));
}

static void valid_problem_passes_and_reports_alignment(void **state) {
  (void)state;
  args g = good();
  eng_problem p;
  assert_int_equal(run(&g, &p), TCJ_SUCCESS);
  assert_int_equal(p.ab, PTX_E_BF16);
  assert_int_equal(p.c, PTX_E_BF16);
  assert_int_equal(p.align_a, 16); /* 32 * 2 = 64-byte rows */
  assert_int_equal(p.align_b, 16); /* 96-byte rows */
  g.lda = 33;                      /* 66-byte rows: 2-byte aligned */
  g.b = (const void *)(uintptr_t)0x20008;
  assert_int_equal(run(&g, &p), TCJ_SUCCESS);
  assert_int_equal(p.align_a, 2);
  assert_int_equal(p.align_b, 8);
}

static void every_dtype_has_its_manifest_name_and_others_are_unknown(void **state) {
  (void)state;
  static const char *const names[] = {"f16", "bf16", "f32", "tf32", "e4m3", "e5m2", "s8", "s32", "f64"};
  for (int t = TCJ_F16; t <= TCJ_F64; t++) assert_string_equal(tcj_dtype_name((tcj_dtype)t), names[t]);
  assert_string_equal(tcj_dtype_name((tcj_dtype)(TCJ_F64 + 1)), "unknown dtype");
  assert_string_equal(tcj_dtype_name((tcj_dtype)-1), "unknown dtype");
}

static void negative_extents_name_the_argument(void **state) {
  (void)state;
  args g = good();
  g.m = -1;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "m = -1", NULL);
  g = good();
  g.n = -5;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "n = -5", NULL);
  g = good();
  g.k = -2;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "k = -2", NULL);
}

static void extents_past_int32_are_not_supported(void **state) {
  (void)state;
  args g = good();
  g.m = (int64_t)INT32_MAX + 1; /* lda = 32 >= k still holds */
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "m = 2147483648", "2^31");
  g = good();
  g.k = (int64_t)INT32_MAX + 1;
  g.lda = g.k;
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "k = 2147483648", "2^31");
  g = good();
  g.n = (int64_t)INT32_MAX + 1;
  g.ldb = g.ldc = g.n;
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "n = 2147483648", "2^31");
}

static void leading_dimensions_below_minimum_name_the_argument(void **state) {
  (void)state;
  /* m=64 n=48 k=32: lda >= k (N) or m (T); ldb >= n (N) or k (T); ldc >= n. */
  args g = good();
  g.lda = 31;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "lda", "32");
  g = good();
  g.op_a = TCJ_OP_T;
  g.lda = 63;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "lda", "64");
  g.lda = 64;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
  g = good();
  g.ldb = 47;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "ldb", "48");
  g = good();
  g.op_b = TCJ_OP_T;
  g.ldb = 31;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "ldb", "32");
  g.ldb = 32;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
  g = good();
  g.ldc = 47;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "ldc", "48");
  /* The minimum is the contract's exactly: an empty matrix may have ld == 0. */
  g = good();
  g.m = g.n = g.k = 0;
  g.lda = g.ldb = g.ldc = 0;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
  g = good();
  g.n = 0;
  g.ldb = g.ldc = 0;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
}

static void null_pointers_with_elements_are_rejected(void **state) {
  (void)state;
  args g = good();
  g.a = NULL;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "a is NULL", NULL);
  g = good();
  g.b = NULL;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "b is NULL", NULL);
  g = good();
  g.c = NULL;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "c is NULL", NULL);
  /* k == 0: A and B have no elements and may be NULL (C = beta * C). */
  g = good();
  g.k = 0;
  g.a = g.b = NULL;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
  /* m == 0: nothing at all is touched. */
  g = good();
  g.m = 0;
  g.a = NULL;
  g.c = NULL;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
}

static void unsupported_dtypes_name_the_combination(void **state) {
  (void)state;
  args g = good();
  g.ta = g.tb = g.tc = TCJ_E4M3; /* fp8 out only into a separate D of tcj_gemm_ex */
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "a=e4m3 b=e4m3 c=e4m3", NULL);
  g = good();
  g.ta = TCJ_E4M3, g.tb = TCJ_BF16; /* fp8 pairs only with fp8 */
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "a=e4m3 b=bf16", NULL);
  g = good();
  g.ta = g.tb = TCJ_F64; /* f64 operands take an f64 C only */
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "a=f64 b=f64 c=bf16", NULL);
  g = good();
  g.tb = TCJ_F16; /* mixed operands */
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "a=bf16 b=f16", NULL);
  g = good();
  g.ta = g.tb = TCJ_S8;
  g.tc = TCJ_F32;
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "a=s8 b=s8 c=f32", NULL);
  g = good();
  g.ta = g.tb = TCJ_F32;
  g.tc = TCJ_BF16;
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "c=bf16", NULL);
}

static void supported_dtypes_map_to_recipe_types(void **state) {
  (void)state;
  args g = good();
  eng_problem p;
  g.ta = TCJ_F32;
  g.tb = TCJ_TF32;
  g.tc = TCJ_F32;
  assert_int_equal(run(&g, &p), TCJ_SUCCESS);
  assert_int_equal(p.ab, PTX_E_TF32);
  assert_int_equal(p.c, PTX_E_F32);
  g.ta = g.tb = TCJ_S8;
  g.tc = TCJ_S32;
  assert_int_equal(run(&g, &p), TCJ_SUCCESS);
  assert_int_equal(p.ab, PTX_E_S8);
  assert_int_equal(p.c, PTX_E_S32);
  g.ta = g.tb = TCJ_F16;
  g.tc = TCJ_F32;
  assert_int_equal(run(&g, &p), TCJ_SUCCESS);
  assert_int_equal(p.ab, PTX_E_F16);
  assert_int_equal(p.c, PTX_E_F32);
}

static void out_of_range_enums_are_invalid(void **state) {
  (void)state;
  args g = good();
  g.ta = (tcj_dtype)99;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "a_type", NULL);
  g = good();
  g.tc = (tcj_dtype)-1;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "c_type", NULL);
  g = good();
  g.op_a = (tcj_op)2;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "op_a", NULL);
  g = good();
  g.op_b = (tcj_op)-1;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "op_b", NULL);
}

static void misaligned_pointers_are_invalid(void **state) {
  (void)state;
  args g = good();
  g.a = (const void *)(uintptr_t)0x10001; /* bf16 at an odd address */
  expect(&g, TCJ_ERROR_INVALID_VALUE, "a = ", "2-byte");
  g = good();
  g.ta = g.tb = g.tc = TCJ_F32;
  g.c = (void *)(uintptr_t)0x30002;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "c = ", "4-byte");
}

static void misaligned_b_is_invalid_and_s8_may_sit_anywhere(void **state) {
  (void)state;
  args g = good();
  g.b = (const void *)(uintptr_t)0x20001;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "b = ", "2-byte");
  g = good();
  g.ta = g.tb = TCJ_F32; /* tf32 data: 4-byte elements */
  g.tc = TCJ_F32;
  g.b = (const void *)(uintptr_t)0x20002;
  expect(&g, TCJ_ERROR_INVALID_VALUE, "b = ", "4-byte");
  g = good();
  g.ta = g.tb = TCJ_S8;
  g.tc = TCJ_S32;
  g.a = (const void *)(uintptr_t)0x10001;
  g.b = (const void *)(uintptr_t)0x20003;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
}

/* A negative ld is below every minimum, even that of an empty operand (which is 0). */
static void negative_leading_dimensions_are_invalid_even_when_empty(void **state) {
  (void)state;
  const int64_t bad[] = {-1, -2, INT64_MIN};
  for (int empty = 0; empty < 2; empty++)
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
      args g = good();
      if (empty) g.m = g.n = g.k = 0;
      g.lda = bad[i];
      expect(&g, TCJ_ERROR_INVALID_VALUE, "lda = -", "minimum");
      g.lda = empty ? 0 : 32;
      g.ldb = bad[i];
      expect(&g, TCJ_ERROR_INVALID_VALUE, "ldb = -", "minimum");
      g.ldb = empty ? 0 : 48;
      g.ldc = bad[i];
      expect(&g, TCJ_ERROR_INVALID_VALUE, "ldc = -", "minimum");
    }
}

static void leading_dimensions_past_2_48_are_not_supported(void **state) {
  (void)state;
  const int64_t max = INT64_C(1) << 48;
  int64_t *lds[3];
  const char *names[3] = {"lda = ", "ldb = ", "ldc = "};
  for (int i = 0; i < 3; i++) {
    args g = good();
    g.m = 1; /* one row: no span reaches past another operand */
    lds[0] = &g.lda, lds[1] = &g.ldb, lds[2] = &g.ldc;
    *lds[i] = max;
    if (i == 1) g.k = 1; /* B's one row */
    expect(&g, TCJ_SUCCESS, NULL, NULL);
    *lds[i] = max + 1;
    expect(&g, TCJ_ERROR_NOT_SUPPORTED, names[i], "2^48");
    *lds[i] = INT64_MAX;
    expect(&g, TCJ_ERROR_NOT_SUPPORTED, names[i], "2^48");
  }
}

/* The alignment an operand's rows share, computed the slow way: the largest power of two up to
 * 16 dividing the byte address of every row start. */
static int slow_row_alignment(uintptr_t p, int64_t rows, int64_t ld, int es) {
  for (int a = 16; a > 1; a /= 2) {
    int all = 1;
    for (int64_t r = 0; r < rows && all; r++) all = (p + (uintptr_t)(r * ld * es)) % (uintptr_t)a == 0;
    if (all) return a;
  }
  return 1;
}

static void row_alignment_of_every_operand_is_the_largest_power_of_two_of_every_row(void **state) {
  (void)state;
  const struct { tcj_dtype ab, c; int es_ab, es_c; } types[] = {
    {TCJ_BF16, TCJ_F32, 2, 4}, {TCJ_S8, TCJ_S32, 1, 4}, {TCJ_F32, TCJ_F32, 4, 4}, {TCJ_F16, TCJ_F16, 2, 2}};
  for (size_t t = 0; t < sizeof types / sizeof *types; t++)
    for (int off = 0; off < 32; off += types[t].es_ab)
      for (int64_t extra = 0; extra < 9; extra++) {
        args g = good();
        g.m = 4, g.n = 8, g.k = 8;
        g.ta = g.tb = types[t].ab;
        g.tc = types[t].c;
        g.lda = 8 + extra, g.ldb = 8 + (extra + 3) % 9, g.ldc = 8 + (extra + 5) % 9;
        g.a = (const void *)(uintptr_t)(0x10000 + off);
        g.b = (const void *)(uintptr_t)(0x20000 + (off * 3) % 32 / types[t].es_ab * types[t].es_ab);
        g.c = (void *)(uintptr_t)(0x30000 + off / types[t].es_c * types[t].es_c);
        eng_problem p;
        assert_int_equal(run(&g, &p), TCJ_SUCCESS);
        int want_a = slow_row_alignment((uintptr_t)g.a, g.m, g.lda, types[t].es_ab);
        int want_b = slow_row_alignment((uintptr_t)g.b, g.k, g.ldb, types[t].es_ab);
        int want_c = slow_row_alignment((uintptr_t)g.c, g.m, g.ldc, types[t].es_c);
        if (p.align_a != want_a || p.align_b != want_b || p.align_c != want_c)
          print_error("%s off %d lds %lld %lld %lld: align %d %d %d, wanted %d %d %d\n", eng_dtype_name(g.ta), off,
                      (long long)g.lda, (long long)g.ldb, (long long)g.ldc, p.align_a, p.align_b, p.align_c, want_a,
                      want_b, want_c);
        assert_int_equal(p.align_a, want_a);
        assert_int_equal(p.align_b, want_b);
        assert_int_equal(p.align_c, want_c);
      }
}

/* Every (a, b, c) triple of public dtypes: exactly the documented combinations pass. */
static void every_dtype_triple_is_supported_exactly_as_documented(void **state) {
  (void)state;
  enum { N_TYPES = TCJ_F64 + 1 };
  for (int a = 0; a < N_TYPES; a++)
    for (int b = 0; b < N_TYPES; b++)
      for (int c = 0; c < N_TYPES; c++) {
        int f32ish_a = a == TCJ_F32 || a == TCJ_TF32, f32ish_b = b == TCJ_F32 || b == TCJ_TF32;
        int half = a == b && (a == TCJ_F16 || a == TCJ_BF16);
        int fp8 = (a == TCJ_E4M3 || a == TCJ_E5M2) && (b == TCJ_E4M3 || b == TCJ_E5M2);
        int want = ((half || fp8) && (c == TCJ_F16 || c == TCJ_BF16 || c == TCJ_F32)) ||
                   (f32ish_a && f32ish_b && c == TCJ_F32) || (a == TCJ_S8 && b == TCJ_S8 && c == TCJ_S32) ||
                   (a == TCJ_F64 && b == TCJ_F64 && c == TCJ_F64);
        args g = good();
        g.ta = (tcj_dtype)a, g.tb = (tcj_dtype)b, g.tc = (tcj_dtype)c;
        g.a = (const void *)(uintptr_t)0x100000, g.b = (const void *)(uintptr_t)0x200000;
        g.c = (void *)(uintptr_t)0x300000; /* 1 MiB apart: no overlap at any element size */
        tcj_status got = run(&g, NULL);
        if (got != (want ? TCJ_SUCCESS : TCJ_ERROR_NOT_SUPPORTED))
          print_error("a=%s b=%s c=%s: %s (%s)\n", eng_dtype_name(g.ta), eng_dtype_name(g.tb), eng_dtype_name(g.tc),
                      tcj_status_string(got), eng_last_error());
        assert_int_equal(got, want ? TCJ_SUCCESS : TCJ_ERROR_NOT_SUPPORTED);
      }
}

static void extents_at_int32_max_are_accepted_and_the_problem_is_filled(void **state) {
  (void)state;
  args g = good();
  g.m = INT32_MAX;
  g.op_a = TCJ_OP_T;
  g.op_b = TCJ_OP_T;
  g.lda = INT32_MAX;
  g.ldb = 32;
  g.a = (const void *)(uintptr_t)0x10000000000; /* spans of GiBs: far apart */
  g.b = (const void *)(uintptr_t)0x20000000000;
  g.c = (void *)(uintptr_t)0x30000000000;
  eng_problem p;
  assert_int_equal(run(&g, &p), TCJ_SUCCESS);
  assert_int_equal(p.m, INT32_MAX);
  assert_int_equal(p.n, 48);
  assert_int_equal(p.k, 32);
  assert_int_equal(p.op_a_t, 1);
  assert_int_equal(p.op_b_t, 1);
  assert_int_equal(p.lda, INT32_MAX);
  assert_int_equal(p.ldb, 32);
  assert_int_equal(p.ldc, 48);
  g = good();
  g.n = INT32_MAX;
  g.ldb = g.ldc = INT32_MAX;
  g.m = 1, g.k = 1;
  g.b = (const void *)(uintptr_t)0x10000000000;
  g.c = (void *)(uintptr_t)0x20000000000;
  assert_int_equal(run(&g, &p), TCJ_SUCCESS);
  assert_int_equal(p.op_a_t, 0);
  assert_int_equal(p.op_b_t, 0);
  assert_int_equal(p.n, INT32_MAX);
}

/* bf16 64 x 48 x 32 NN: A spans 64*32*2 = 4096 bytes, B 32*48*2 = 3072, C 64*48*2 = 6144. */
static void c_sharing_memory_with_a_or_b_is_refused(void **state) {
  (void)state;
  args g = good();
  g.c = (void *)(uintptr_t)(0x10000 + 4096); /* just past A: fine */
  g.b = (const void *)(uintptr_t)0x40000;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
  g.c = (void *)(uintptr_t)(0x10000 + 4094); /* its first element is A's last */
  expect(&g, TCJ_ERROR_INVALID_VALUE, "c overlaps a", NULL);
  g.c = (void *)(uintptr_t)(0x10000 - 6144 + 2); /* its last element is A's first */
  expect(&g, TCJ_ERROR_INVALID_VALUE, "c overlaps a", NULL);
  g.c = (void *)(uintptr_t)0x10000; /* C == A */
  expect(&g, TCJ_ERROR_INVALID_VALUE, "c overlaps a", NULL);
  g = good();
  g.c = (void *)(uintptr_t)(0x20000 + 2048); /* inside B */
  expect(&g, TCJ_ERROR_INVALID_VALUE, "c overlaps b", NULL);
  g.c = (void *)(uintptr_t)(0x20000 - 6144); /* just before B */
  expect(&g, TCJ_SUCCESS, NULL, NULL);
  /* A span reaches its last row: a large ld puts C's rows between A's and still overlaps. */
  g = good();
  g.lda = 1000;
  g.c = (void *)(uintptr_t)(0x10000 + 2000 * 10);
  expect(&g, TCJ_ERROR_INVALID_VALUE, "c overlaps a", NULL);
  /* Operands only read may overlap; with k == 0 A and B are not read at all. */
  g = good();
  g.b = g.a;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
  g = good();
  g.k = 0;
  g.c = (void *)(uintptr_t)0x10000;
  expect(&g, TCJ_SUCCESS, NULL, NULL);
}

static void limits_beyond_the_kernel_abi_are_not_supported(void **state) {
  (void)state;
  args g = good();
  g.m = INT64_C(1) << 33;
  g.op_a = TCJ_OP_N;
  g.ldc = 48;
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "m = ", NULL);
  g = good();
  g.n = INT64_C(1) << 31;
  g.ldb = g.ldc = g.n;
  expect(&g, TCJ_ERROR_NOT_SUPPORTED, "n = ", NULL);
}

static void status_strings_are_distinct_and_total(void **state) {
  (void)state;
  static const tcj_status all[] = {
#define TCJ_STATUS_ITEM(name, msg) name,
    TCJ_STATUS_LIST(TCJ_STATUS_ITEM)
#undef TCJ_STATUS_ITEM
  };
  size_t n = sizeof all / sizeof *all;
  for (size_t i = 0; i < n; i++) {
    const char *s = tcj_status_string(all[i]);
    assert_non_null(s);
    assert_true(s[0] != '\0');
    for (size_t j = 0; j < i; j++) assert_string_not_equal(s, tcj_status_string(all[j]));
  }
  assert_non_null(tcj_status_string((tcj_status)1234));
  assert_non_null(tcj_status_string((tcj_status)-1));
}

static void null_engine_is_invalid(void **state) {
  (void)state;
  tcj_status s = tcj_gemm(NULL, TCJ_OP_N, TCJ_OP_N, 4, 4, 4, 1.f, PA, TCJ_F16, 4, PB, TCJ_F16, 4,
                          0.f, PC, TCJ_F16, 4, NULL);
  assert_int_equal(s, TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "engine"));
  tcj_destroy(NULL); /* no-op */
  assert_int_equal(tcj_create(NULL, NULL), TCJ_ERROR_INVALID_VALUE);
}

static void bad_arch_option_is_invalid(void **state) {
  (void)state;
  tcj_engine *e = (tcj_engine *)(uintptr_t)1;
  tcj_options o = TCJ_OPTIONS_INIT;
  o.arch = "sm_75";
  assert_int_equal(tcj_create(&e, &o), TCJ_ERROR_INVALID_VALUE);
  assert_null(e);
  assert_non_null(strstr(tcj_last_error(NULL), "sm_75"));
}

static void options_of_every_size_are_read_and_unknown_fields_refused(void **state) {
  (void)state;
  /* A caller built against a newer header: its extra fields must be zero to be accepted. */
  struct newer { tcj_options o; uint64_t later[2]; } n;
  memset(&n, 0, sizeof n);
  n.o.struct_size = sizeof n;
  n.o.arch = "sm_75"; /* read from the known part: refused for the arch, not the size */
  tcj_engine *e = NULL;
  assert_int_equal(tcj_create(&e, &n.o), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "sm_75"));
  n.later[1] = 7;
  assert_int_equal(tcj_create(&e, &n.o), TCJ_ERROR_NOT_SUPPORTED);
  assert_null(e);
  assert_non_null(strstr(tcj_last_error(NULL), "struct_size"));
  tcj_options init = TCJ_OPTIONS_INIT;
  assert_int_equal(init.struct_size, sizeof(tcj_options));
  init.arch = "sm_75";
  assert_int_equal(tcj_create(&e, &init), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "sm_75"));
}

/* A zeroed tcj_options has struct_size 0, which once meant the first (0.1) layout: alloc, free
 * and jit_mode set after the memset were then dropped without a word. 0, and any size below
 * the first layout's, is refused naming struct_size and the initialisers. */
static void zeroed_options_are_refused_naming_the_initialisers(void **state) {
  (void)state;
  tcj_options zero;
  memset(&zero, 0, sizeof zero);
  zero.jit_mode = TCJ_JIT_SYNC; /* would be dropped */
  tcj_engine *e = (tcj_engine *)(uintptr_t)1;
  assert_int_equal(tcj_create(&e, &zero), TCJ_ERROR_INVALID_VALUE);
  assert_null(e);
  const char *msg = tcj_last_error(NULL);
  assert_non_null(strstr(msg, "struct_size"));
  assert_non_null(strstr(msg, "TCJ_OPTIONS_INIT"));
  assert_non_null(strstr(msg, "tcj_options_init"));
  zero.struct_size = sizeof(size_t); /* a size no tcj_options ever had */
  assert_int_equal(tcj_create(&e, &zero), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "struct_size"));
  /* A zeroed struct with its size set is every default. */
  zero.struct_size = sizeof zero;
  zero.jit_mode = 0;
  zero.arch = "sm_75";
  assert_int_equal(tcj_create(&e, &zero), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "sm_75"));
}

/* tcj_get_stats with a zeroed tcj_stats filled the 0.1 counters only: the later ones read as
 * 0 forever. Refused the same way, before the engine is looked at. */
static void zeroed_stats_are_refused_naming_the_initialisers(void **state) {
  (void)state;
  tcj_stats zero;
  memset(&zero, 0, sizeof zero);
  assert_int_equal(tcj_get_stats(NULL, &zero), TCJ_ERROR_INVALID_VALUE);
  const char *msg = tcj_last_error(NULL);
  assert_non_null(strstr(msg, "struct_size"));
  assert_non_null(strstr(msg, "TCJ_STATS_INIT"));
  assert_non_null(strstr(msg, "tcj_stats_init"));
  tcj_stats init = TCJ_STATS_INIT;
  assert_int_equal(tcj_get_stats(NULL, &init), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "engine"));
}

/* tcj_options_init and tcj_stats_init do what the macros do, for callers without them, within
 * the size the caller gives (never past it; all of it zeroed), and refuse sizes no struct had. */
static void options_and_stats_init_functions_match_the_macros(void **state) {
  (void)state;
  tcj_options o, mo = TCJ_OPTIONS_INIT;
  memset(&o, 0xA5, sizeof o);
  assert_int_equal(tcj_options_init(&o, sizeof o), TCJ_SUCCESS);
  assert_int_equal(o.struct_size, mo.struct_size);
  assert_true(!o.arch && !o.force_driver_jit && !o.disable_packing && !o.cache_dir && !o.disable_disk_cache &&
              !o.alloc && !o.free && !o.alloc_ctx && o.jit_mode == 0);
  o.arch = "sm_75"; /* read: the options are accepted as far as the arch */
  tcj_engine *e = NULL;
  assert_int_equal(tcj_create(&e, &o), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "sm_75"));
  /* A 0.1 caller's options (up to disable_disk_cache): nothing past them is written. */
  size_t v1 = offsetof(tcj_options, disable_disk_cache) + sizeof(int);
  unsigned char buf[sizeof(tcj_options) + 16];
  memset(buf, 0xA5, sizeof buf);
  assert_int_equal(tcj_options_init((tcj_options *)(void *)buf, v1), TCJ_SUCCESS);
  for (size_t i = v1; i < sizeof buf; i++) assert_int_equal(buf[i], 0xA5);
  for (size_t i = sizeof(size_t); i < v1; i++) assert_int_equal(buf[i], 0);
  assert_int_equal(tcj_options_init(&o, v1 - 1), TCJ_ERROR_INVALID_VALUE);
  assert_int_equal(tcj_options_init(NULL, sizeof o), TCJ_ERROR_INVALID_VALUE);
  tcj_stats s, ms = TCJ_STATS_INIT;
  memset(&s, 0xA5, sizeof s);
  assert_int_equal(tcj_stats_init(&s, sizeof s), TCJ_SUCCESS);
  assert_int_equal(s.struct_size, ms.struct_size);
  assert_true(s.memory_hits == 0 && s.swaps == 0 && s.generic_launches == 0);
  assert_int_equal(tcj_stats_init(&s, 0), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(NULL), "struct_size"));
}

static void version_macros_and_the_library_agree(void **state) {
  (void)state;
  assert_int_equal(tcj_version(), TCJ_VERSION);
  assert_int_equal(TCJ_VERSION, TCJ_VERSION_MAJOR * 10000 + TCJ_VERSION_MINOR * 100 + TCJ_VERSION_PATCH);
#ifndef TCJ_PROJECT_VERSION /* the CMake project's version, which names the shared library */
#error "tests/CMakeLists.txt defines TCJ_PROJECT_VERSION for this test"
#else
  char header[32];
  snprintf(header, sizeof header, "%d.%d.%d", TCJ_VERSION_MAJOR, TCJ_VERSION_MINOR, TCJ_VERSION_PATCH);
  assert_string_equal(header, TCJ_PROJECT_VERSION);
#endif
}

/* With a GPU, bad input through the engine fails validation before any launch; without one,
 * tcj_create must say so with TCJ_ERROR_NO_DEVICE and a reason. */
static void engine_rejects_bad_input_before_launch(void **state) {
  (void)state;
  tcj_engine *e = NULL;
  tcj_status s = tcj_create(&e, NULL);
  if (s != TCJ_SUCCESS) {
    const char *msg = tcj_last_error(NULL);
    assert_int_equal(s, TCJ_ERROR_NO_DEVICE);
    assert_true(msg[0] != '\0');
    assert_null(e);
    print_message("no CUDA device, skipping engine-bound checks: %s\n", msg);
    skip();
  }
  /* Fake pointers: any of these reaching a launch would fault, so validation must stop them. */
  s = tcj_gemm(e, TCJ_OP_N, TCJ_OP_N, -1, 4, 4, 1.f, PA, TCJ_F16, 4, PB, TCJ_F16, 4, 0.f, PC, TCJ_F16, 4, NULL);
  assert_int_equal(s, TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(e), "m = -1"));
  s = tcj_gemm(e, TCJ_OP_N, TCJ_OP_N, 4, 4, 4, 1.f, PA, TCJ_F16, 3, PB, TCJ_F16, 4, 0.f, PC, TCJ_F16, 4, NULL);
  assert_int_equal(s, TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(e), "lda"));
  s = tcj_gemm(e, TCJ_OP_N, TCJ_OP_N, 4, 4, 4, 1.f, PA, TCJ_E4M3, 4, PB, TCJ_E4M3, 4, 0.f, PC, TCJ_E4M3, 4, NULL);
  assert_int_equal(s, TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(tcj_last_error(e), "e4m3"));
  /* Empty C: success, nothing launched even with NULL pointers. */
  s = tcj_gemm(e, TCJ_OP_N, TCJ_OP_N, 0, 4, 4, 1.f, NULL, TCJ_F16, 4, PB, TCJ_F16, 4, 0.f, NULL, TCJ_F16, 4, NULL);
  assert_int_equal(s, TCJ_SUCCESS);
  tcj_destroy(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(valid_problem_passes_and_reports_alignment),
    cmocka_unit_test(every_dtype_has_its_manifest_name_and_others_are_unknown),
    cmocka_unit_test(negative_extents_name_the_argument),
    cmocka_unit_test(extents_past_int32_are_not_supported),
    cmocka_unit_test(leading_dimensions_below_minimum_name_the_argument),
    cmocka_unit_test(null_pointers_with_elements_are_rejected),
    cmocka_unit_test(unsupported_dtypes_name_the_combination),
    cmocka_unit_test(supported_dtypes_map_to_recipe_types),
    cmocka_unit_test(out_of_range_enums_are_invalid),
    cmocka_unit_test(misaligned_pointers_are_invalid),
    cmocka_unit_test(misaligned_b_is_invalid_and_s8_may_sit_anywhere),
    cmocka_unit_test(negative_leading_dimensions_are_invalid_even_when_empty),
    cmocka_unit_test(leading_dimensions_past_2_48_are_not_supported),
    cmocka_unit_test(row_alignment_of_every_operand_is_the_largest_power_of_two_of_every_row),
    cmocka_unit_test(every_dtype_triple_is_supported_exactly_as_documented),
    cmocka_unit_test(extents_at_int32_max_are_accepted_and_the_problem_is_filled),
    cmocka_unit_test(c_sharing_memory_with_a_or_b_is_refused),
    cmocka_unit_test(limits_beyond_the_kernel_abi_are_not_supported),
    cmocka_unit_test(status_strings_are_distinct_and_total),
    cmocka_unit_test(null_engine_is_invalid),
    cmocka_unit_test(bad_arch_option_is_invalid),
    cmocka_unit_test(options_of_every_size_are_read_and_unknown_fields_refused),
    cmocka_unit_test(zeroed_options_are_refused_naming_the_initialisers),
    cmocka_unit_test(zeroed_stats_are_refused_naming_the_initialisers),
    cmocka_unit_test(options_and_stats_init_functions_match_the_macros),
    cmocka_unit_test(version_macros_and_the_library_agree),
    cmocka_unit_test(engine_rejects_bad_input_before_launch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
