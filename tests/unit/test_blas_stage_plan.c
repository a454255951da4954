/* SPDX-License-Identifier: Apache-2.0 */
/* How libtcjblas cuts a host-array GEMM for its staged pipeline (blas/stage_plan.c) and the
 * threaded copies that stage it (blas/host_copy.c). The pipeline itself needs a GPU
 * (tests/gpu/test_blas_pipeline_gpu.c); what it copies and computes is decided here: every
 * element of an operand must travel in exactly one chunk that fits a buffer, and every element
 * of C must be in exactly one tile. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "blas/tcjblas_internal.h"

/* Marks each element of block b's chunks in a rows x cols grid; fails on an element seen
 * twice, outside b, a chunk larger than the buffer, or chunks out of column order. */
static void chunks_cover_once(tb_block b, int64_t slot_elems) {
  int64_t rows = b.row + b.rows, cols = b.col + b.cols;
  unsigned char *seen = calloc((size_t)(rows * cols), 1);
  assert_non_null(seen);
  int64_t n = tb_chunk_count(b, slot_elems), last_col = -1, last_row = -1;
  for (int64_t i = 0; i < n; i++) {
    tb_block c = tb_chunk(b, slot_elems, i);
    assert_true(c.rows >= 1 && c.cols >= 1);
    assert_true(c.rows * c.cols <= slot_elems);
    if (c.rows < b.rows) assert_int_equal(c.cols, 1); /* pieces are of one column */
    assert_true(c.col > last_col || (c.col == last_col && c.row > last_row));
    last_col = c.col + c.cols - 1;
    last_row = c.row;
    for (int64_t j = c.col; j < c.col + c.cols; j++)
      for (int64_t r = c.row; r < c.row + c.rows; r++) {
        assert_true(r >= b.row && r < rows && j >= b.col && j < cols);
        assert_int_equal(seen[j * rows + r]++, 0);
      }
  }
  for (int64_t j = b.col; j < cols; j++)
    for (int64_t r = b.row; r < rows; r++) assert_int_equal(seen[j * rows + r], 1);
  free(seen);
}

static void chunks_carry_every_element_once(void **state) {
  (void)state;
  static const tb_block blocks[] = {
    {0, 0, 300, 150}, {5, 7, 1, 1}, {0, 0, 1024, 3}, {3, 0, 1025, 2}, {0, 9, 5000, 2},
    {17, 1, 40, 900}, {0, 0, 2047, 1},
  };
  static const int64_t slots[] = {1, 7, 1024, 4096, 100000};
  for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
    for (size_t s = 0; s < sizeof slots / sizeof *slots; s++) chunks_cover_once(blocks[i], slots[s]);
  assert_int_equal(tb_chunk_count((tb_block){0, 0, 0, 5}, 64), 0);
  assert_int_equal(tb_chunk_count((tb_block){0, 0, 5, 0}, 64), 0);
  /* whole columns: 1024 elements take 3 columns of 300 at a time */
  assert_int_equal(tb_chunk_count((tb_block){0, 0, 300, 10}, 1024), 4);
}

static void stored_block_of_a_transposed_operand(void **state) {
  (void)state;
  tb_block of_op = {10, 20, 3, 4};
  tb_block n = tb_stored_block('N', of_op), t = tb_stored_block('T', of_op), c = tb_stored_block('C', of_op);
  assert_memory_equal(&n, &of_op, sizeof n);
  assert_true(t.row == 20 && t.col == 10 && t.rows == 4 && t.cols == 3);
  assert_memory_equal(&c, &t, sizeof c);
}

static tb_gemm gemm(int64_t m, int64_t n, int64_t k) {
  return (tb_gemm){.type = TB_D, .ta = 'N', .tb = 'N', .m = m, .n = n, .k = k};
}

/* The tiles cover C once, at most 16 (pipeline.c's events), edges multiples of 128 but the last. */
static void tiles_cover(const tb_gemm *g, tb_pipeline_plan plan) {
  assert_true(plan.tiles >= 1 && plan.tiles <= 16);
  int64_t covered = 0, dim = plan.along_m ? g->m : g->n;
  for (int64_t t = 0; t < plan.tiles; t++) {
    tb_block b = tb_tile_of_c(g, plan, t);
    int64_t lo = plan.along_m ? b.row : b.col, len = plan.along_m ? b.rows : b.cols;
    assert_int_equal(lo, covered);
    assert_true(len >= 1);
    if (t + 1 < plan.tiles) assert_int_equal(len % 128, 0);
    if (plan.along_m) assert_true(b.col == 0 && b.cols == g->n);
    else assert_true(b.row == 0 && b.rows == g->m);
    covered += len;
  }
  assert_int_equal(covered, dim);
}

static void tiles_split_the_larger_host_operand(void **state) {
  (void)state;
  tb_places host = {TB_HOST, TB_HOST, TB_HOST};
  tb_gemm sq = gemm(8192, 8192, 8192);
  tb_pipeline_plan p = tb_pipeline_plan_of(&sq, host);
  assert_false(p.along_m); /* a tie: B split, A first */
  assert_int_equal(p.tile, 1024);
  assert_int_equal(p.tiles, 8);
  tiles_cover(&sq, p);
  tb_gemm tall = gemm(5000, 20, 10);
  p = tb_pipeline_plan_of(&tall, host);
  assert_true(p.along_m);
  tiles_cover(&tall, p);
  /* A already on the device: only B crosses, so B is split even when A is larger */
  tb_places a_dev = {TB_DEVICE, TB_HOST, TB_HOST};
  p = tb_pipeline_plan_of(&tall, a_dev);
  assert_false(p.along_m);
  assert_int_equal(p.tiles, 1);
  tiles_cover(&tall, p);
  static const int64_t dims[] = {1, 127, 512, 513, 1100, 4097, 100000, 1 << 22};
  for (size_t i = 0; i < sizeof dims / sizeof *dims; i++)
    for (size_t j = 0; j < sizeof dims / sizeof *dims; j++) {
      tb_gemm g = gemm(dims[i], dims[j], 64);
      tiles_cover(&g, tb_pipeline_plan_of(&g, host));
    }
}

/* A copy with lds wider than the rows leaves the padding alone, on any number of threads; a
 * single long column is cut by rows. */
static void threaded_copies_match_and_keep_the_padding(void **state) {
  (void)state;
  struct { int64_t rows, cols, sld, dld; } shapes[] = {
    {1500, 1000, 1503, 1500}, {1 << 20, 1, 1 << 20, (1 << 20) + 3}, {700, 4, 701, 702}, {3, 5, 3, 3},
  };
  static const int threads[] = {1, 2, 3, 8, 64};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
      int64_t rows = shapes[s].rows, cols = shapes[s].cols, sld = shapes[s].sld, dld = shapes[s].dld;
      double *src = malloc((size_t)(sld * cols) * sizeof *src), *dst = malloc((size_t)(dld * cols) * sizeof *dst);
      assert_non_null(src);
      assert_non_null(dst);
      for (int64_t i = 0; i < sld * cols; i++) src[i] = (double)(i * 7 + 1);
      for (int64_t i = 0; i < dld * cols; i++) dst[i] = -1;
      tb_host_copy(dst, dld, src, sld, rows, cols, sizeof(double), threads[t]);
      for (int64_t j = 0; j < cols; j++)
        for (int64_t r = 0; r < dld; r++)
          if (dst[j * dld + r] != (r < rows ? src[j * sld + r] : -1))
            fail_msg("shape %zu, %d threads: dst(%lld, %lld) = %g", s, threads[t], (long long)r,
                     (long long)j, dst[j * dld + r]);
      free(src);
      free(dst);
    }
  int d = tb_copy_threads_default();
  assert_true(d >= 1 && d <= 8);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(chunks_carry_every_element_once),
    cmocka_unit_test(stored_block_of_a_transposed_operand),
    cmocka_unit_test(tiles_split_the_larger_host_operand),
    cmocka_unit_test(threaded_copies_match_and_keep_the_padding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
