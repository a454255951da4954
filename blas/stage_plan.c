/* SPDX-License-Identifier: Apache-2.0 */
/* How a host-array GEMM is cut for pipeline.c, as arithmetic only (CPU-tested): the chunks a
 * block of a column-major matrix travels in through staging buffers of a fixed size, and the
 * tiles of C whose GEMMs run while the next tile's operands are still on the bus. */
#include "blas/tcjblas_internal.h"

/* A chunk is whole columns when one column fits a buffer (one 2-D copy each way), else a
 * piece of one column: any rows x cols fits, even a column longer than the buffer. */
static int64_t chunk_rows(int64_t rows, int64_t slot_elems) { return rows < slot_elems ? rows : slot_elems; }

int64_t tb_chunk_count(tb_block b, int64_t slot_elems) {
  if (b.rows <= 0 || b.cols <= 0) return 0;
  int64_t r = chunk_rows(b.rows, slot_elems);
  if (r < b.rows) return (b.rows + r - 1) / r * b.cols; /* pieces of each column */
  int64_t c = slot_elems / b.rows;
  return (b.cols + c - 1) / c;
}

tb_block tb_chunk(tb_block b, int64_t slot_elems, int64_t i) {
  int64_t r = chunk_rows(b.rows, slot_elems);
  if (r < b.rows) {
    int64_t per_col = (b.rows + r - 1) / r, piece = i % per_col;
    int64_t row = piece * r, rows = b.rows - row < r ? b.rows - row : r;
    return (tb_block){b.row + row, b.col + i / per_col, rows, 1};
  }
  int64_t c = slot_elems / b.rows, col = i * c;
  return (tb_block){b.row, b.col + col, b.rows, b.cols - col < c ? b.cols - col : c};
}

tb_block tb_stored_block(char op, tb_block of_op) {
  if (op == 'N') return of_op;
  return (tb_block){of_op.col, of_op.row, of_op.cols, of_op.rows}; /* op(X) = X^T (or X^H) */
}

/* About 8 tiles: enough that the first tile's inputs and the last tile's output (the parts
 * nothing overlaps) are an eighth of the traffic each; at least 512 rows or columns so that
 * each tile's GEMM still fills the GPU, multiples of 128 (tcj's tile edge). */
enum { TARGET_TILES = 8, MIN_TILE = 512, TILE_ALIGN = 128 };

tb_pipeline_plan tb_pipeline_plan_of(const tb_gemm *g, tb_places p) {
  size_t es = tb_elem_size(g->type);
  /* Bytes of op(A) and op(B) that cross the bus: the larger is split by the tiles, the other
   * goes first, whole (every tile reads all of it). */
  double a_bytes = p.a == TB_HOST ? (double)g->m * (double)g->k * (double)es : 0;
  double b_bytes = p.b == TB_HOST ? (double)g->k * (double)g->n * (double)es : 0;
  tb_pipeline_plan plan = {.along_m = a_bytes > b_bytes};
  int64_t dim = plan.along_m ? g->m : g->n;
  int64_t tile = (dim + TARGET_TILES - 1) / TARGET_TILES;
  tile = (tile + TILE_ALIGN - 1) / TILE_ALIGN * TILE_ALIGN;
  if (tile < MIN_TILE) tile = MIN_TILE;
  plan.tile = dim < tile ? dim : tile;
  plan.tiles = dim == 0 ? 0 : (dim + plan.tile - 1) / plan.tile;
  return plan;
}

tb_block tb_tile_of_c(const tb_gemm *g, tb_pipeline_plan plan, int64_t t) {
  int64_t dim = plan.along_m ? g->m : g->n, lo = t * plan.tile;
  int64_t len = dim - lo < plan.tile ? dim - lo : plan.tile;
  return plan.along_m ? (tb_block){lo, 0, len, g->n} : (tb_block){0, lo, g->m, len};
}
