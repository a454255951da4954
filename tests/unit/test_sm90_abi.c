/* SPDX-License-Identifier: Apache-2.0 */
/* ptxgen/sm90_abi.c: the tensor maps the sm90 kernel expects (operand majors of the four op
 * pairs, dims, strides, boxes, B halves in clusters, and the cases cuTensorMapEncodeTiled
 * refuses) and the persistent grid (never more CTAs than SMs or than work, whole clusters). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit/sm90_fixture.h"

#include "ptxgen/ptx_builder.h"
#include "ptxgen/ptx_layout.h"
#include "ptxgen/ptx_ops.h"
#include "ptxgen/ptxgen.h"

#define EXPECT_EQ(a, b, ...)                            \
  do {                                                  \
    long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) print_error(__VA_ARGS__);             \
    assert_int_equal(a_, b_);                           \
  } while (0)

static tcj_kernel_cfg sm90_cfg(int bm, int bn, int consumers, int cluster) {
  tcj_kernel_cfg c = sm90_fixture_cfg();
  c.op_b_t = 0;
  c.n = 1000;
  c.k = 999;
  c.bm = bm;
  c.bn = bn;
  c.warps_m = consumers;
  c.cluster_m = cluster;
  assert_null(tcj_cfg_check(&c));
  return c;
}

/* The tiles the recipe runs (tcj_cfg_check accepts them). */
static const struct { int bm, bn, wm; } tiles[] = {
  {128, 256, 2}, {256, 128, 2}, {128, 128, 2}, {128, 64, 2}, {128, 192, 2}, {256, 64, 2},
  {64, 64, 1}, {64, 128, 1}, {64, 192, 1}, {64, 256, 1}, {128, 64, 1}, {128, 128, 1}, {192, 128, 3}, {192, 64, 3}};
#define N_TILES (int)(sizeof tiles / sizeof *tiles)

static int tmap(const tcj_kernel_cfg *c, int is_b, int64_t m, int64_t ld, ptx_tmap_desc *d) {
  memset(d, 0x5a, sizeof *d);
  return ptx_sm90_tmap(c, is_b, m, ld, (ptx_tmap_batch){1, 0}, d);
}

/* op N A is m x k, K contiguous: K-major. op T A is stored k x m: M contiguous. op T B is stored
 * n x k: K-major; op N B is k x n: N contiguous. dims[0] is the contiguous extent; the box is
 * one 128-byte line of it by the tile's rows (K-major) or by bk K rows (MN-major). */
static void tensor_maps_of_the_four_op_pairs(void **state) {
  (void)state;
  static const ptx_elem types[] = {PTX_E_BF16, PTX_E_F16};
  const int64_t m = 3000, lda_k = 1008, lda_m = 3008, ldb_k = 1008, ldb_n = 1000;
  for (int t = 0; t < 2; t++)
    for (int op = 0; op < 4; op++)
      for (int g = 0; g < N_TILES; g++) {
        tcj_kernel_cfg c = sm90_cfg(tiles[g].bm, tiles[g].bn, tiles[g].wm, 0);
        c.ab = types[t];
        c.op_a_t = op >> 1;
        c.op_b_t = op & 1;
        int es = ptx_elem_size(c.ab);
        ptx_tmap_desc a, b;
        int64_t lda = c.op_a_t ? lda_m : lda_k, ldb = c.op_b_t ? ldb_k : ldb_n;
        EXPECT_EQ(tmap(&c, 0, m, lda, &a), 0, "A op %d tile %d\n", op, g);
        EXPECT_EQ(tmap(&c, 1, m, ldb, &b), 0, "B op %d tile %d\n", op, g);
        EXPECT_EQ(a.elem, c.ab, "A elem");
        EXPECT_EQ(b.elem, c.ab, "B elem");
        EXPECT_EQ(a.stride_bytes, lda * es, "A stride");
        EXPECT_EQ(b.stride_bytes, ldb * es, "B stride");
        EXPECT_EQ(a.box[0] * (uint32_t)es, 128, "A box line");
        EXPECT_EQ(b.box[0] * (uint32_t)es, 128, "B box line");
        if (!c.op_a_t) { /* A K-major */
          EXPECT_EQ(a.dims[0], c.k, "A dims[0] op %d", op);
          EXPECT_EQ(a.dims[1], m, "A dims[1] op %d", op);
          EXPECT_EQ(a.box[1], c.bm, "A box[1] op %d", op);
        } else {
          EXPECT_EQ(a.dims[0], m, "A dims[0] op %d", op);
          EXPECT_EQ(a.dims[1], c.k, "A dims[1] op %d", op);
          EXPECT_EQ(a.box[1], c.bk, "A box[1] op %d", op);
        }
        if (c.op_b_t) { /* B K-major */
          EXPECT_EQ(b.dims[0], c.k, "B dims[0] op %d", op);
          EXPECT_EQ(b.dims[1], c.n, "B dims[1] op %d", op);
          EXPECT_EQ(b.box[1], c.bn, "B box[1] op %d", op);
        } else {
          EXPECT_EQ(b.dims[0], c.n, "B dims[0] op %d", op);
          EXPECT_EQ(b.dims[1], c.k, "B dims[1] op %d", op);
          EXPECT_EQ(b.box[1], c.bk, "B box[1] op %d", op);
        }
        /* cuTensorMapEncodeTiled: boxDim[i] in 1..256; with SWIZZLE_128B the inner box is at
         * most 128 bytes and a multiple of 16. */
        assert_in_range(a.box[1], 1, 256);
        assert_in_range(b.box[1], 1, 256);
      }
}

/* Worked example: bf16 NT 128x256 tile, m 3000, n 1000, k 999. */
static void tensor_map_worked_example(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg(128, 256, 2, 0);
  c.op_b_t = 1;
  ptx_tmap_desc a, b;
  assert_int_equal(tmap(&c, 0, 3000, 1000, &a), 0);
  EXPECT_EQ(a.dims[0], 999, "A dims[0]");
  EXPECT_EQ(a.dims[1], 3000, "A dims[1]");
  EXPECT_EQ(a.stride_bytes, 2000, "A stride");
  EXPECT_EQ(a.box[0], 64, "A box[0]");
  EXPECT_EQ(a.box[1], 128, "A box[1]");
  assert_int_equal(tmap(&c, 1, 3000, 1000, &b), 0);
  EXPECT_EQ(b.dims[0], 999, "B dims[0]");
  EXPECT_EQ(b.dims[1], 1000, "B dims[1]");
  EXPECT_EQ(b.box[0], 64, "B box[0]");
  EXPECT_EQ(b.box[1], 256, "B box[1]");
  /* f16, TN: A stored k x m, B stored k x n. */
  c.ab = PTX_E_F16;
  c.op_a_t = 1;
  c.op_b_t = 0;
  assert_int_equal(tmap(&c, 0, 3000, 3000, &a), 0);
  EXPECT_EQ(a.elem, PTX_E_F16, "A elem");
  EXPECT_EQ(a.dims[0], 3000, "A dims[0]");
  EXPECT_EQ(a.dims[1], 999, "A dims[1]");
  EXPECT_EQ(a.stride_bytes, 6000, "A stride");
  EXPECT_EQ(a.box[1], 64, "A box[1]");
  assert_int_equal(tmap(&c, 1, 3000, 1000, &b), 0);
  EXPECT_EQ(b.dims[0], 1000, "B dims[0]");
  EXPECT_EQ(b.dims[1], 999, "B dims[1]");
  EXPECT_EQ(b.box[1], 64, "B box[1]");
}

/* In a 2-CTA cluster each CTA loads half of the B tile for both: K-major B boxes are bn / 2
 * rows; MN-major boxes are 64 columns either way (each CTA loads half of them). A is never
 * split. */
static void cluster_halves_the_k_major_b_box(void **state) {
  (void)state;
  for (int g = 0; g < N_TILES; g++) {
    if (tiles[g].bn < 128) continue;
    for (int op = 0; op < 4; op++) {
      /* An MN-major B splits in whole 64-column boxes; a K-major one in rows (bn 192 too). */
      if (tiles[g].bn % 128 && !(op & 1)) continue;
      tcj_kernel_cfg c = sm90_cfg(tiles[g].bm, tiles[g].bn, tiles[g].wm, 0), solo;
      c.op_a_t = op >> 1;
      c.op_b_t = op & 1;
      c.cluster_m = 2;
      assert_null(tcj_cfg_check(&c));
      solo = c;
      solo.cluster_m = 0;
      ptx_tmap_desc a, b, a1, b1;
      int64_t lda = c.op_a_t ? 3000 : 1000, ldb = c.op_b_t ? 1000 : 1000;
      assert_int_equal(tmap(&c, 0, 3000, lda, &a), 0);
      assert_int_equal(tmap(&c, 1, 3000, ldb, &b), 0);
      assert_int_equal(tmap(&solo, 0, 3000, lda, &a1), 0);
      assert_int_equal(tmap(&solo, 1, 3000, ldb, &b1), 0);
      EXPECT_EQ(b.box[1], c.op_b_t ? c.bn / 2 : 64, "B box tile %dx%d op %d", c.bm, c.bn, op);
      EXPECT_EQ(a.box[1], a1.box[1], "A box with and without a cluster");
      EXPECT_EQ(b.dims[0], b1.dims[0], "B dims[0]");
      EXPECT_EQ(b.dims[1], b1.dims[1], "B dims[1]");
      EXPECT_EQ(b.stride_bytes, b1.stride_bytes, "B stride");
      /* The half is whole 8-row swizzle atoms (1024 bytes). */
      if (c.op_b_t) EXPECT_EQ(b.box[1] % 8, 0, "half box rows");
    }
  }
}

static void tensor_map_refuses_what_tma_cannot_address(void **state) {
  (void)state;
  ptx_tmap_desc d;
  tcj_kernel_cfg kmaj = sm90_cfg(128, 128, 2, 0), mnmaj = kmaj;
  kmaj.k = 1000;
  mnmaj.k = 1000;
  mnmaj.op_a_t = 1;
  /* Strides: multiples of 16 bytes (ld multiple of 8 for 16-bit types). */
  assert_int_equal(tmap(&kmaj, 0, 100, 1000, &d), 0);
  assert_int_equal(tmap(&kmaj, 0, 100, 1001, &d), -1);
  assert_int_equal(tmap(&kmaj, 0, 100, 1002, &d), -1);
  assert_int_equal(tmap(&kmaj, 0, 100, 1004, &d), -1);
  assert_int_equal(tmap(&kmaj, 0, 100, 1008, &d), 0);
  assert_int_equal(tmap(&mnmaj, 0, 100, 100, &d), -1); /* 200 bytes */
  assert_int_equal(tmap(&mnmaj, 0, 100, 104, &d), 0);
  /* A stride shorter than a row of the contiguous dimension. */
  assert_int_equal(tmap(&kmaj, 0, 100, 992, &d), -1);
  assert_int_equal(tmap(&mnmaj, 0, 1000, 992, &d), -1);
  /* Strides below 2^40 bytes. */
  assert_int_equal(tmap(&kmaj, 0, 100, ((int64_t)1 << 39) - 8, &d), 0);
  assert_int_equal(tmap(&kmaj, 0, 100, (int64_t)1 << 39, &d), -1);
  /* Dims in [1, 2^32]: m on dims[1] (K-major) or dims[0] (MN-major). */
  assert_int_equal(tmap(&kmaj, 0, (int64_t)1 << 32, 1000, &d), 0);
  EXPECT_EQ(d.dims[1], (int64_t)1 << 32, "dims[1] at the limit");
  assert_int_equal(tmap(&kmaj, 0, ((int64_t)1 << 32) + 1, 1000, &d), -1);
  assert_int_equal(tmap(&mnmaj, 0, (int64_t)1 << 32, (int64_t)1 << 32, &d), 0);
  assert_int_equal(tmap(&mnmaj, 0, ((int64_t)1 << 32) + 1, ((int64_t)1 << 32) + 8, &d), -1);
  /* Empty extents. */
  assert_int_equal(tmap(&kmaj, 0, 0, 1000, &d), -1);
  assert_int_equal(tmap(&kmaj, 0, -5, 1000, &d), -1);
  assert_int_equal(tmap(&mnmaj, 0, 0, 1000, &d), -1);
  tcj_kernel_cfg k0 = kmaj;
  k0.k = 0;
  assert_int_equal(tmap(&k0, 0, 100, 1000, &d), -1);
  assert_int_equal(tmap(&k0, 1, 100, 1000, &d), -1);
  k0.op_a_t = 1;
  assert_int_equal(tmap(&k0, 0, 100, 104, &d), -1);
  tcj_kernel_cfg n0 = kmaj;
  n0.n = 0;
  assert_int_equal(tmap(&n0, 1, 100, 1000, &d), -1);
  n0.op_b_t = 1;
  assert_int_equal(tmap(&n0, 1, 100, 1000, &d), -1);
  /* B's stride rules are the same: N-major B with ldb 1001 and ldb < n. */
  assert_int_equal(tmap(&kmaj, 1, 100, 1001, &d), -1);
  assert_int_equal(tmap(&kmaj, 1, 100, 992, &d), -1);
  assert_int_equal(tmap(&kmaj, 1, 100, 1000, &d), 0);
}

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Units counted by walking the tiles: a cluster runs tiles (2i, j) and (2i + 1, j) together. */
static int64_t units_by_walking(int64_t m, int64_t n, int bm, int bn, int cluster) {
  int64_t units = 0;
  for (int64_t i = 0; i < cdiv(m, bm); i++)
    for (int64_t j = 0; j < cdiv(n, bn); j++) units += i % cluster == 0;
  return units;
}

static void persistent_grid_is_whole_clusters_within_the_sms(void **state) {
  (void)state;
  static const int64_t ms[] = {1, 63, 64, 65, 128, 129, 1000, 4096, 20000};
  static const int64_t ns[] = {64, 1000, 4096};
  static const int sms[] = {2, 3, 7, 66, 114, 132, 133};
  long checked = 0;
  for (int g = 0; g < N_TILES; g++)
    for (int cluster = 0; cluster <= 2; cluster += 2) {
      if (cluster && tiles[g].bn % 128) continue;
      int csize = cluster ? 2 : 1;
      for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
        for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
          for (size_t si = 0; si < sizeof sms / sizeof *sms; si++) {
            tcj_kernel_cfg c = sm90_cfg(tiles[g].bm, tiles[g].bn, tiles[g].wm, cluster);
            c.n = ns[ni];
            c.vec_c = 1;
            int64_t m = ms[mi];
            int64_t grid = ptx_sm90_grid(&c, m, 1, sms[si]);
            int64_t units = units_by_walking(m, c.n, c.bm, c.bn, csize);
            int64_t slots = sms[si] / csize;
            int64_t want = csize * (units < slots ? units : slots);
            if (grid != want)
              print_error("tile %dx%d cluster %d m %lld n %lld sms %d: grid %lld, want %lld\n", c.bm, c.bn, csize,
                          (long long)m, (long long)c.n, sms[si], (long long)grid, (long long)want);
            assert_int_equal(grid, want);
            assert_true(grid >= 1);
            assert_true(grid <= sms[si]);
            assert_int_equal(grid % csize, 0);
            assert_true(grid / csize <= units); /* no cluster without work */
            EXPECT_EQ(ptx_sm90_tiles(&c, m), cdiv(m, c.bm) * cdiv(c.n, c.bn), "tiles");
            checked++;
          }
    }
  assert_true(checked > 1000);
}

/* Pairs along N: each CTA loads half of A's rows (K-major) and the whole of B; the maps of an
 * MN-major A stay 64-column boxes (each CTA loads half of them). */
static void cluster_along_n_halves_the_k_major_a_box(void **state) {
  (void)state;
  for (int op = 0; op < 4; op++) {
    tcj_kernel_cfg c = sm90_cfg(128, 64, 2, 0), solo;
    c.op_a_t = op >> 1;
    c.op_b_t = op & 1;
    c.cluster_m = 0;
    c.cluster_n = 2;
    c.n = c.k = 1000;
    assert_null(tcj_cfg_check(&c));
    solo = c;
    solo.cluster_n = 0;
    ptx_tmap_desc a, b, a1, b1;
    int64_t lda = c.op_a_t ? 3000 : 1000;
    assert_int_equal(tmap(&c, 0, 3000, lda, &a), 0);
    assert_int_equal(tmap(&c, 1, 3000, 1000, &b), 0);
    assert_int_equal(tmap(&solo, 0, 3000, lda, &a1), 0);
    assert_int_equal(tmap(&solo, 1, 3000, 1000, &b1), 0);
    EXPECT_EQ(a.box[1], 64, "A box rows, op %d", op); /* K-major: 128 rows / 2; MN-major: 64 K */
    EXPECT_EQ(a.box[1], c.op_a_t ? a1.box[1] : a1.box[1] / 2, "A box against the solo tile, op %d", op);
    EXPECT_EQ(b.box[1], b1.box[1], "B box with and without a pair along N, op %d", op);
    EXPECT_EQ(a.dims[0], a1.dims[0], "A dims[0]");
    EXPECT_EQ(a.stride_bytes, a1.stride_bytes, "A stride");
  }
  /* The grid: 1000 columns of 64 are 16 tile columns, 8 pairs; 3 tile rows: 24 pairs. */
  tcj_kernel_cfg c = sm90_cfg(128, 64, 2, 0);
  c.cluster_m = 0;
  c.cluster_n = 2;
  c.n = 1000;
  EXPECT_EQ(ptx_sm90_grid(&c, 300, 1, 132), 48, "pairs along N");
  c.n = 1030; /* 16 tile columns and a 17th: 9 pairs, the last one's second CTA has no columns */
  EXPECT_EQ(ptx_sm90_grid(&c, 300, 1, 132), 54, "odd tile columns");
  EXPECT_EQ(ptx_sm90_grid(&c, 300, 1, 41), 40, "whole pairs within the SMs");
}

static void persistent_grid_worked_examples(void **state) {
  (void)state;
  /* 4096^2 with 128x256 tiles: 32 x 16 = 512 tiles; 132 SMs. */
  tcj_kernel_cfg c = sm90_cfg(128, 256, 2, 0);
  c.n = 4096;
  EXPECT_EQ(ptx_sm90_tiles(&c, 4096), 512, "tiles");
  EXPECT_EQ(ptx_sm90_grid(&c, 4096, 1, 132), 132, "grid");
  /* Clusters: 256 pairs, 66 slots: 132 CTAs. */
  c.cluster_m = 2;
  EXPECT_EQ(ptx_sm90_grid(&c, 4096, 1, 132), 132, "cluster grid");
  EXPECT_EQ(ptx_sm90_grid(&c, 4096, 1, 133), 132, "cluster grid, odd SMs");
  /* One tile row: 16 tiles in 16 pairs (the second CTA of each pair has no rows). */
  EXPECT_EQ(ptx_sm90_grid(&c, 1, 1, 132), 32, "cluster grid m 1");
  c.cluster_m = 0;
  EXPECT_EQ(ptx_sm90_grid(&c, 1, 1, 132), 16, "grid m 1");
  /* A small problem: one tile, one CTA (one pair). */
  c.n = 100;
  EXPECT_EQ(ptx_sm90_tiles(&c, 100), 1, "one tile");
  EXPECT_EQ(ptx_sm90_grid(&c, 100, 1, 132), 1, "one CTA");
  c.cluster_m = 2;
  EXPECT_EQ(ptx_sm90_grid(&c, 100, 1, 132), 2, "one pair");
  /* No rows: no tiles, still a launchable grid. */
  EXPECT_EQ(ptx_sm90_tiles(&c, 0), 0, "no tiles");
  assert_true(ptx_sm90_grid(&c, 0, 1, 132) >= 1);
  assert_int_equal(ptx_sm90_grid(&c, 0, 1, 132) % 2, 0);
}

/* C's map exists exactly when C rows are 16-byte vectors (vec_c x sizeof(C) == 16): n x m,
 * ldc x sizeof(C) apart, a box of one 128-byte line by TCJ_SM90_EPI_ROWS rows. */
static void c_tensor_map_follows_the_vector_width(void **state) {
  (void)state;
  static const struct { ptx_elem c; int vec; int used; } cases[] = {
    {PTX_E_BF16, 8, 1}, {PTX_E_F16, 8, 1}, {PTX_E_F32, 4, 1},
    {PTX_E_BF16, 4, 0}, {PTX_E_BF16, 2, 0}, {PTX_E_BF16, 1, 0}, {PTX_E_F32, 2, 0}, {PTX_E_F32, 1, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tcj_kernel_cfg c = sm90_cfg(128, 256, 2, 0);
    c.c = c.d = cases[i].c;
    c.vec_c = cases[i].vec;
    c.n = 1000;
    assert_null(tcj_cfg_check(&c));
    int es = ptx_elem_size(c.c);
    ptx_tmap_desc d;
    memset(&d, 0x5a, sizeof d);
    int got = ptx_sm90_tmap_d(&c, 777, 1008, (ptx_tmap_batch){1, 0}, &d);
    EXPECT_EQ(got, cases[i].used ? 0 : 1, "c=%s vec=%d\n", ptx_elem_name(c.c), c.vec_c);
    if (!cases[i].used) continue;
    EXPECT_EQ(d.elem, c.c, "elem\n");
    EXPECT_EQ(d.dims[0], 1000, "dims[0] is n\n");
    EXPECT_EQ(d.dims[1], 777, "dims[1] is m\n");
    EXPECT_EQ(d.stride_bytes, 1008 * es, "stride\n");
    EXPECT_EQ(d.box[0] * es, 128, "box[0] spans one swizzle line\n");
    EXPECT_EQ(d.box[1], TCJ_SM90_EPI_ROWS, "box[1]\n");
  }
  /* What TMA cannot address: a stride off 16 bytes, a row shorter than n, m < 1. */
  tcj_kernel_cfg c = sm90_cfg(128, 256, 2, 0);
  ptx_tmap_desc d;
  assert_int_equal(ptx_sm90_tmap_d(&c, 100, 1004, (ptx_tmap_batch){1, 0}, &d), -1);
  assert_int_equal(ptx_sm90_tmap_d(&c, 100, 992, (ptx_tmap_batch){1, 0}, &d), -1);
  assert_int_equal(ptx_sm90_tmap_d(&c, 0, 1000, (ptx_tmap_batch){1, 0}, &d), -1);
  assert_int_equal(ptx_sm90_tmap_d(&c, 100, 1000, (ptx_tmap_batch){1, 0}, &d), 0);
}

static void sm90_entry_name(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg(128, 256, 2, 2);
  assert_string_equal(ptx_gemm_entry(&c), PTX_SM90_ENTRY);
  assert_string_equal(PTX_SM90_ENTRY, "tcj_gemm_sm90");
  c.recipe = PTX_RECIPE_SM80;
  assert_string_equal(ptx_gemm_entry(&c), PTX_GEMM_ENTRY);
}

/* wgmma spellings against the PTX ISA (9.7.15.5.2, wgmma.mma_async): K per instruction is 32
 * bytes of operand (k16 f16/bf16, k8 tf32, k32 s8); floating-point types take imm-scale-a/b,
 * 16-bit ones also the transpose immediates; integer ones neither, with s32 accumulators. */
static void wgmma_spellings_follow_the_ptx_isa(void **state) {
  (void)state;
  static const struct { ptx_elem ab, bt; int a_mn, b_mn; const char *want; } cases[] = {
    {PTX_E_BF16, PTX_E_BF16, 0, 1, "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 1;"},
    {PTX_E_F16, PTX_E_F16, 1, 0, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 1, 0;"},
    {PTX_E_TF32, PTX_E_TF32, 0, 0, "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1;"},
    {PTX_E_S8, PTX_E_S8, 0, 0, "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%r1, %r2, %r3, %r4}, %rd1, %rd2, %p1;"},
    /* fp8 (PTX ISA 9.7.15.5.2: .atype/.btype e4m3 or e5m2 in any pair, k32, imm-scale-a/b, no
     * imm-trans). */
    {PTX_E_E4M3, PTX_E_E4M3, 0, 0, "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1;"},
    {PTX_E_E4M3, PTX_E_E5M2, 0, 0, "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1;"},
    {PTX_E_E5M2, PTX_E_E4M3, 0, 0, "wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e4m3 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1;"},
    {PTX_E_E5M2, PTX_E_E5M2, 0, 0, "wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e5m2 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1;"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    ptx_builder b;
    ptx_init(&b);
    ptx_reg acc[4];
    for (int r = 0; r < 4; r++) acc[r] = ptx_new(&b, ptx_mma_acc_class(cases[i].ab));
    ptx_reg da = ptx_new(&b, PTX_B64), db = ptx_new(&b, PTX_B64), p = ptx_new(&b, PTX_PRED);
    ptx_wgmma(&b, cases[i].ab, cases[i].bt, 8, acc, da, db, p, cases[i].a_mn, cases[i].b_mn);
    assert_false(ptx_failed(&b));
    if (!strstr(b.buf, cases[i].want)) print_error("got:  %s\nwant: %s\n", b.buf, cases[i].want);
    assert_non_null(strstr(b.buf, cases[i].want));
    ptx_free(&b);
  }
  /* tf32, s8 and fp8 have no transpose: an MN-major operand is an error, not silent output;
   * so is a pair of types wgmma does not have. */
  static const struct { ptx_elem ab, bt; int a_mn; } bad[] = {
    {PTX_E_TF32, PTX_E_TF32, 1}, {PTX_E_E4M3, PTX_E_E4M3, 1}, {PTX_E_BF16, PTX_E_F16, 0}, {PTX_E_E4M3, PTX_E_S8, 0}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ptx_builder b;
    ptx_init(&b);
    ptx_reg acc[4];
    for (int r = 0; r < 4; r++) acc[r] = ptx_new(&b, PTX_F32);
    ptx_reg d = ptx_new(&b, PTX_B64), p = ptx_new(&b, PTX_PRED);
    ptx_wgmma(&b, bad[i].ab, bad[i].bt, 8, acc, d, d, p, bad[i].a_mn, 0);
    assert_true(ptx_failed(&b));
    ptx_free(&b);
  }
  assert_null(ptx_wgmma_type_of(PTX_E_F32));
}

/* mma.sync (PTX ISA 9.7.13.4): every shape reads 32 bytes of K (m16n8k16 f16/bf16, k8 tf32,
 * k32 s8 and, from sm_89, e4m3/e5m2 in any pair), spelled
 * mma.sync.aligned.<shape>.row.col.<d>.<a>.<b>.<c> with s32 accumulators for s8. */
static int count(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
  return n;
}

/* Promoted fp8 adds each K tile's wgmma partial sums into fp32 registers. Up to 128 columns the
 * whole tile's sums come in one group; 128x192 takes two 96-column chunks through the same
 * registers, each waited for (wait_group 0) before it is added, with a wgmma.fence before each
 * chunk's wgmmas (they overwrite registers the adds read). Fast accumulation keeps one group
 * in flight instead. */
static void fp8_promotion_runs_in_column_chunks(void **state) {
  (void)state;
  static const struct { int bn, fast; const char *wgmma; int per_tile, waits0, fences; } cases[] = {
    {128, 0, "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3", 4, 1, 1},
    {192, 0, "wgmma.mma_async.sync.aligned.m64n96k32.f32.e4m3.e4m3", 8, 2, 2},
    {192, 1, "wgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3", 4, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tcj_kernel_cfg c = sm90_fixture_cfg();
    c.ab = PTX_E_E4M3;
    c.bk = 128;
    c.bm = 128;
    c.bn = cases[i].bn;
    c.warps_m = 2;
    c.fast_accum = cases[i].fast;
    tcj_cfg_plain_epilogue(&c);
    assert_null(tcj_cfg_check(&c));
    char *ptx = NULL, err[256];
    size_t len = 0;
    assert_int_equal(ptx_gen_gemm(&c, &ptx, &len, err, sizeof err), 0);
    /* The K loop is emitted once: its wgmmas are the kernel's (one 64-row block per consumer). */
    EXPECT_EQ(count(ptx, cases[i].wgmma), cases[i].per_tile, "bn %d fast %d: wgmmas", c.bn, c.fast_accum);
    EXPECT_EQ(count(ptx, "wgmma.mma_async"), cases[i].per_tile, "bn %d: no other wgmma", c.bn);
    /* Fast: wait_group 1 in the loop, 0 once after it; promoted: 0 per chunk and none after. */
    EXPECT_EQ(count(ptx, "wgmma.wait_group.sync.aligned 0"), cases[i].waits0, "bn %d fast %d: waits", c.bn, c.fast_accum);
    EXPECT_EQ(count(ptx, "wgmma.wait_group.sync.aligned 1"), cases[i].fast, "bn %d fast %d: wait 1", c.bn, c.fast_accum);
    EXPECT_EQ(count(ptx, "wgmma.fence.sync.aligned"), cases[i].fences, "bn %d fast %d: fences", c.bn, c.fast_accum);
    /* The second chunk's B descriptors start 96 K-major rows (96 x 128 bytes, >> 4 in the
     * descriptor's address field) into the stage's B tile: k steps 0..3 add 768 + 2 kk. */
    for (int kk = 0; kk < 4; kk++) {
      char add[32];
      snprintf(add, sizeof add, ", %d;", 768 + 2 * kk);
      EXPECT_EQ(count(ptx, add) > 0, cases[i].waits0 == 2, "bn %d fast %d: chunk 1 offset of k step %d", c.bn,
                c.fast_accum, kk);
    }
    free(ptx);
  }
}

/* Three consumer warpgroups (192-row tiles): 512 threads, registers within one CTA's 65536
 * (entry 128; the producer's release grows each consumer to 152), a stage free once all 12
 * consumer warps have arrived, and each consumer's wgmmas reading its own 64 rows of A (8 KiB,
 * 64 K-major 128-byte lines, apart). */
static void three_consumers_split_the_tile_rows(void **state) {
  (void)state;
  tcj_kernel_cfg c = sm90_cfg(192, 128, 3, 0);
  c.stages = 4;
  assert_null(tcj_cfg_check(&c));
  char *ptx = NULL, err[256];
  size_t len = 0;
  assert_int_equal(ptx_gen_gemm(&c, &ptx, &len, err, sizeof err), 0);
  EXPECT_EQ(count(ptx, ".maxntid 512, 1, 1"), 1, "threads");
  EXPECT_EQ(count(ptx, ".maxnreg 128"), 1, "entry registers");
  EXPECT_EQ(count(ptx, "setmaxnreg.dec.sync.aligned.u32 40;"), 1, "producer registers");
  EXPECT_EQ(count(ptx, "setmaxnreg.inc.sync.aligned.u32 152;"), 1, "consumer registers");
  EXPECT_EQ(count(ptx, ", 12;"), c.stages, "empty barriers of 12 arrivals");
  EXPECT_EQ(count(ptx, ", 8192, "), 1, "a consumer's A rows start 8 KiB apart");
  /* One 64-row block per consumer: 4 K steps of m64n128k16 per stage. */
  EXPECT_EQ(count(ptx, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"), 4, "wgmmas");
  EXPECT_EQ(tcj_cfg_smem_bytes(&c), 1024 + 4 * (192 + 128) * 128 + 3 * 64 * 160 + 2 * 4 * 8, "shared memory");
  free(ptx);
  /* Grouped: a group's tile rows are ceil(rows / 192), a division (the scheduler shifts for
   * powers of two; a shift by 8 counted 256-row tiles and left rows past 768 uncomputed). */
  c.grouped = PTX_GROUP_ENDS32;
  c.op_b_t = 1;
  assert_null(tcj_cfg_check(&c));
  assert_int_equal(ptx_gen_gemm(&c, &ptx, &len, err, sizeof err), 0);
  assert_true(count(ptx, ", 192;") > 0 && strstr(ptx, "div.u32") != NULL);
  for (const char *q = ptx; (q = strstr(q, ", 191;\n\t")) != NULL; q++) /* rows + 191 is never shifted */
    assert_int_not_equal(strncmp(q + strlen(", 191;\n\t"), "shr.u32", 7), 0);
  free(ptx);
}

static void mma_sync_spellings_follow_the_ptx_isa(void **state) {
  (void)state;
  static const struct { ptx_elem a, b; const char *want; } cases[] = {
    {PTX_E_F16, PTX_E_F16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "},
    {PTX_E_BF16, PTX_E_BF16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "},
    {PTX_E_TF32, PTX_E_TF32, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "},
    {PTX_E_S8, PTX_E_S8, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "},
    {PTX_E_E4M3, PTX_E_E4M3, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "},
    {PTX_E_E4M3, PTX_E_E5M2, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 "},
    {PTX_E_E5M2, PTX_E_E4M3, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 "},
    {PTX_E_E5M2, PTX_E_E5M2, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 "},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    ptx_builder b;
    ptx_init(&b);
    ptx_reg d[4], a[4], bb[2];
    for (int r = 0; r < 4; r++) d[r] = ptx_new(&b, ptx_mma_acc_class(cases[i].a)), a[r] = ptx_new(&b, PTX_B32);
    for (int r = 0; r < 2; r++) bb[r] = ptx_new(&b, PTX_B32);
    ptx_mma_sync(&b, cases[i].a, cases[i].b, d, a, bb, d);
    assert_false(ptx_failed(&b));
    if (!strstr(b.buf, cases[i].want)) print_error("got:  %s\nwant: %s\n", b.buf, cases[i].want);
    assert_non_null(strstr(b.buf, cases[i].want));
    ptx_free(&b);
  }
  ptx_builder b;
  ptx_init(&b);
  ptx_reg r[4];
  for (int i = 0; i < 4; i++) r[i] = ptx_new(&b, PTX_B32);
  ptx_mma_sync(&b, PTX_E_E4M3, PTX_E_S8, r, r, r, r); /* no such pair */
  assert_true(ptx_failed(&b));
  ptx_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(tensor_maps_of_the_four_op_pairs),
    cmocka_unit_test(tensor_map_worked_example),
    cmocka_unit_test(cluster_halves_the_k_major_b_box),
    cmocka_unit_test(tensor_map_refuses_what_tma_cannot_address),
    cmocka_unit_test(persistent_grid_is_whole_clusters_within_the_sms),
    cmocka_unit_test(persistent_grid_worked_examples),
    cmocka_unit_test(cluster_along_n_halves_the_k_major_a_box),
    cmocka_unit_test(c_tensor_map_follows_the_vector_width),
    cmocka_unit_test(sm90_entry_name),
    cmocka_unit_test(wgmma_spellings_follow_the_ptx_isa),
    cmocka_unit_test(mma_sync_spellings_follow_the_ptx_isa),
    cmocka_unit_test(fp8_promotion_runs_in_column_chunks),
    cmocka_unit_test(three_consumers_split_the_tile_rows),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
