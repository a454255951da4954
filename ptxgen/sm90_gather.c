/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's A producer for gathered rows (tcj_kernel_cfg.gather): TMA copies boxes of
 * consecutive rows, so a tile whose rows are A's rows p_gather[r] is copied by the producer
 * warpgroup's 128 threads with cp.async instead, into the same 128-byte-swizzled K-major stage
 * layout TMA would write (the consumers' wgmma descriptors are unchanged), while lane 0 of warp
 * 0 still loads B by TMA. Each thread arrives on the stage's full mbarrier through
 * cp.async.mbarrier.arrive.noinc when its copies have landed, so the barrier counts 1 + 128
 * arrivals (gemm_sm90.c) and only B's bytes as transactions; the consumers put a proxy fence
 * between that wait and their wgmmas (sm90_consumer.c), as cp.async writes through the generic
 * proxy and wgmma reads through the async one.
 *
 * Thread t copies 16-byte chunks c and c + 4 (c = t % 4) of rows t / 4 + 32 i of the tile's bm
 * rows: its rows' swizzle phase (row % 8) is the same for every i, so its two destinations in a
 * row are fixed offsets, a row further 32 x 128 bytes on. Per tile it looks up its rows' indices
 * once (sm90_gather_tile); per K stage it issues bm / 16 copies (sm90_gather_stage). A row past
 * the group's end, past m, or whose index lies outside [0, p_gather_rows) is copied as zeros
 * (src-size 0, from A's first byte), as TMA fills what lies outside the tensor; so are the
 * bytes past K. */

#include "sm90_gather.h"

#include "ptx_mem.h"

enum { CHUNK = 16, ROW_CHUNKS = PTX_SWIZZLE_LINE / CHUNK, THREAD_ROW_STEP = WARPGROUP / (ROW_CHUNKS / 2) };

/* Where each thread's copies go and what it reads them from: fixed for the kernel. */
void sm90_gather_setup(sm90 *k, sm90_gather *g) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  g->rows = c->bm / THREAD_ROW_STEP;
  if (g->rows < 1 || g->rows > SM90_GATHER_MAX_ROWS) {
    ptx_fail(b, "sm90 gather: bm %d outside 32..%d", c->bm, SM90_GATHER_MAX_ROWS * THREAD_ROW_STEP);
    return;
  }
  ptx_reg raw = r64(k), rows64 = r64(k), cap = r64(k);
  g->a = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_a]", raw);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", g->a, raw);
  g->index = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_gather]", raw);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", g->index, raw);
  /* Indices are int32: a row count past 2^31 admits every non-negative one, so the count is
   * capped there and a negative index (2^31 and more as unsigned) is outside it either way. */
  ptx_ins(b, "ld.param.u64 %R, [p_gather_rows]", rows64);
  ptx_ins(b, "mov.u64 %R, 2147483648", cap);
  ptx_ins(b, "min.u64 %R, %R, %R", rows64, rows64, cap);
  g->gather_rows = r32(k);
  ptx_ins(b, "cvt.u32.u64 %R, %R", g->gather_rows, rows64);
  g->ld_bytes = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_lda]", g->ld_bytes);
  ptx_ins(b, "mul.lo.u64 %R, %R, %d", g->ld_bytes, g->ld_bytes, ptx_elem_size(c->ab));
  g->k_bytes = r32(k);
  ptx_ins(b, "mov.u32 %R, %lld", g->k_bytes, (long long)c->k * ptx_elem_size(c->ab));
  /* This thread's first row (t / 4) and chunk (t % 4), and the swizzled offsets of its two
   * chunks in that row: chunk j of row r sits at r * 128 + ((j ^ (r % 8)) * 16) (the 128-byte
   * swizzle, with stages 1024-byte aligned). */
  ptx_reg chunk = r32(k), phase = r32(k), x = r32(k);
  g->row0 = r32(k);
  ptx_ins(b, "shr.u32 %R, %R, 2", g->row0, k->tid);
  ptx_ins(b, "and.b32 %R, %R, 3", chunk, k->tid);
  g->chunk_bytes = r32(k);
  ptx_ins(b, "shl.b32 %R, %R, 4", g->chunk_bytes, chunk);
  ptx_ins(b, "and.b32 %R, %R, 7", phase, g->row0);
  ptx_ins(b, "xor.b32 %R, %R, %R", x, chunk, phase);
  g->dst0 = r32(k);
  ptx_ins(b, "shl.b32 %R, %R, 4", g->dst0, x);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", g->dst0, g->row0, PTX_SWIZZLE_LINE, g->dst0);
  for (int i = 0; i < g->rows; i++) g->idx[i] = r32(k);
}

/* The tile's rows from m0: this thread's rows' indices into A, or -1 (as u32: no row) for a row
 * past row_end (the group's end, at most m) or an index outside [0, p_gather_rows). */
void sm90_gather_tile(sm90 *k, sm90_gather *g, ptx_reg m0) {
  ptx_builder *b = k->b;
  ptx_reg row = r32(k), at = r64(k), in = pred(k), ok = pred(k);
  for (int i = 0; i < g->rows; i++) {
    ptx_ins(b, "add.u32 %R, %R, %R", row, m0, g->row0);
    ptx_ins(b, "add.u32 %R, %R, %d", row, row, i * THREAD_ROW_STEP);
    ptx_ins(b, "setp.lt.u32 %R, %R, %R", in, row, k->row_end);
    ptx_ins(b, "mov.u32 %R, -1", g->idx[i]);
    ptx_ins(b, "mul.wide.u32 %R, %R, 4", at, row);
    ptx_ins(b, "add.u64 %R, %R, %R", at, g->index, at);
    ptx_ins_if(b, in, 0, "ld.global.nc.u32 %R, [%R]", g->idx[i], at);
    ptx_ins(b, "setp.lt.u32 %R, %R, %R", ok, g->idx[i], g->gather_rows);
    ptx_ins_if(b, ok, 1, "mov.u32 %R, -1", g->idx[i]);
  }
}

/* One K stage of A at sbase, K elements from kcoord: this thread's copies, then its arrival on
 * the stage's full barrier when they have landed. A copy reads min(16, bytes left in the row's
 * K) bytes of its row, none for a row without an index; cp.async fills the rest with zeros. */
void sm90_gather_stage(sm90 *k, sm90_gather *g, ptx_reg sbase, ptx_reg kcoord, ptx_reg full) {
  ptx_builder *b = k->b;
  int es = ptx_elem_size(k->cfg->ab);
  ptx_reg off[2] = {r32(k), r32(k)}, size[2] = {r32(k), r32(k)}, dst = r32(k), dst1 = r32(k);
  ptx_reg row = r32(k), src = r64(k), idx64 = r64(k), has = pred(k), reads = pred(k);
  /* Byte offsets of the two chunks in a row, and how many of their bytes lie before K's end. */
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", off[0], kcoord, es, g->chunk_bytes);
  ptx_ins(b, "add.u32 %R, %R, %d", off[1], off[0], CHUNK * ROW_CHUNKS / 2);
  for (int j = 0; j < 2; j++) {
    /* max(off, K) - off: K - off before K's end, 0 from it (K - off alone would wrap to a
     * large unsigned size there, and read a whole chunk past the row: an H100 faulted so). */
    ptx_ins(b, "max.u32 %R, %R, %R", size[j], off[j], g->k_bytes);
    ptx_ins(b, "sub.u32 %R, %R, %R", size[j], size[j], off[j]);
    ptx_ins(b, "min.u32 %R, %R, %d", size[j], size[j], CHUNK);
  }
  ptx_ins(b, "add.u32 %R, %R, %R", dst, sbase, g->dst0);
  /* The second chunk (c + 4) is the first's swizzled index with bit 2 flipped: 64 bytes over. */
  ptx_ins(b, "xor.b32 %R, %R, %d", dst1, dst, CHUNK * ROW_CHUNKS / 2);
  for (int i = 0; i < g->rows; i++) {
    ptx_ins(b, "setp.ne.u32 %R, %R, -1", has, g->idx[i]);
    ptx_ins(b, "selp.u32 %R, %R, 0, %R", row, g->idx[i], has); /* no row: A's row 0, nothing read */
    ptx_ins(b, "cvt.u64.u32 %R, %R", idx64, row);
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", src, idx64, g->ld_bytes, g->a);
    for (int j = 0; j < 2; j++) {
      /* A copy of no bytes still names an address, which must lie inside A: past K's end in A's
       * last row it would not (an H100 faulted on an A that ends where its data ends), so such
       * a copy names A's first byte. */
      ptx_ins(b, "selp.u32 %R, %R, 0, %R", row, size[j], has);
      ptx_ins(b, "setp.ne.u32 %R, %R, 0", reads, row);
      ptx_ins(b, "cvt.u64.u32 %R, %R", idx64, off[j]);
      ptx_ins(b, "add.u64 %R, %R, %R", idx64, src, idx64);
      ptx_ins(b, "selp.b64 %R, %R, %R, %R", idx64, idx64, g->a, reads);
      ptx_ins(b, "cp.async.cg.shared.global [%R+%d], [%R], %d, %R", j ? dst1 : dst, i * THREAD_ROW_STEP * PTX_SWIZZLE_LINE,
              idx64, CHUNK, row);
    }
  }
  ptx_ins(b, "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%R]", full);
}
