/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's epilogue of one tile: TMA bulk stores of converted chunks where the config
 * allows them and beta == 0, else the staged path (fp32 chunks through shared memory, read back
 * as vectors, the shared epilogue of epilogue.c, predicated stores). See gemm_sm90.c. */
#include <string.h>

#include "epilogue.h"
#include "ptx_mem.h"
#include "ptx_ops.h"
#include "sm90_kernel.h"

typedef struct epi_ctx {
  ptx_epi epi;        /* alpha, beta, C/D bases, bias, ... (epilogue.c) */
  ptx_reg stage_wr;   /* staging address of this thread's fragment (row l/4 of warp w) */
  ptx_reg stage_rd;   /* staging address this thread reads in the store phase */
  ptx_reg rd_row;     /* tile row of this thread's first read (consumer rows included) */
  ptx_reg rd_col;     /* tile column of this thread's reads in a chunk */
  ptx_reg bar_id;
  int vec, per_row, row_step;
} epi_ctx;

/* The epilogue's per-thread constants, computed after each tile's mainloop rather than kept
 * live through it: next to 128 accumulators every register counts. */
static void emit_epilogue_setup(sm90 *k, epi_ctx *e, int c_vec) {
  ptx_builder *b = k->b;
  ptx_reg cw = r32(k), ct = r32(k), warp = r32(k), lane = r32(k);
  ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
  ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
  ptx_ins(b, "and.b32 %R, %R, 127", ct, k->tid);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, ct);
  ptx_ins(b, "and.b32 %R, %R, 31", lane, ct);
  /* A fused epilogue takes at most 4 staged values at a time: 8 with their C values, bias and
   * activation temporaries spill next to 128 accumulators (32 bytes at ping-pong 64x256 with a
   * column bias and GELU, ptxas 13.0). Narrower accesses than the rows allow are always valid. */
  e->vec = tcj_cfg_fused(k->cfg) && c_vec > 4 ? 4 : c_vec;
  e->per_row = TCJ_SM90_EPI_COLS / e->vec;   /* threads per staged row */
  e->row_step = WARPGROUP / e->per_row;      /* rows the warpgroup covers per pass */
  e->stage_wr = r32(k);
  e->stage_rd = r32(k);
  ptx_reg epi_base = r32(k), t = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", epi_base, cw, ptx_sm90_epi_bytes(k->cfg), k->epi);
  /* Fragment writes: row 16 * warp + lane / 4, column 2 * (lane % 4) (see ptx_wgmma_d_coord). */
  ptx_ins(b, "shr.u32 %R, %R, 2", t, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", t, warp, t);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", e->stage_wr, t, TCJ_SM90_EPI_PITCH, epi_base);
  ptx_ins(b, "and.b32 %R, %R, 3", t, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", e->stage_wr, t, e->stage_wr);
  /* Reads: thread ct takes row ct / per_row, vector ct % per_row. */
  ptx_reg rd_row = r32(k), rd_col = r32(k);
  ptx_ins(b, "div.u32 %R, %R, %d", rd_row, ct, e->per_row);
  ptx_ins(b, "rem.u32 %R, %R, %d", rd_col, ct, e->per_row);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", rd_col, rd_col, e->vec);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", e->stage_rd, rd_row, TCJ_SM90_EPI_PITCH, epi_base);
  ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", e->stage_rd, rd_col, e->stage_rd);
  /* Row and column offsets of the first read within the tile (consumer rows included). */
  e->rd_row = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", e->rd_row, cw, k->row_split, rd_row);
  e->rd_col = rd_col;
  e->bar_id = r32(k);
  ptx_ins(b, "add.u32 %R, %R, 1", e->bar_id, cw); /* named barrier 1 + consumer; 0 is the CTA's */
}

/* Global address of (row, col) of a matrix at base with rows of ld_bytes and es-byte elements. */
static ptx_reg emit_elem_addr(sm90 *k, ptx_reg base, ptx_reg ld_bytes, int es, ptx_reg row, ptx_reg col) {
  ptx_builder *b = k->b;
  ptx_reg a = r64(k), t = r64(k);
  ptx_ins(b, "mul.wide.u32 %R, %R, %d", t, col, es);
  ptx_ins(b, "cvt.u64.u32 %R, %R", a, row);
  ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", a, a, ld_bytes, base);
  ptx_ins(b, "add.s64 %R, %R, %R", a, a, t);
  return a;
}

/* Epilogue of one tile for this consumer, general case (any D alignment, beta != 0, split
 * slices): for each 64-row block j and 32-column chunk, the fp32 accumulators go to the staging
 * buffer, then each thread reads whole vectors of it, applies the epilogue (with C) and stores
 * D; with split, a slice stores its raw fp32 partial sums into the workspace instead. */
static void emit_epilogue_staged(sm90 *k, const ptx_epi *pe, ptx_reg m0, ptx_reg n0, int split) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  epi_ctx ctx, *e = &ctx;
  memset(e, 0, sizeof *e);
  emit_epilogue_setup(k, e, split ? k->ws_vec : k->c_vec);
  ptx_elem dt = split ? PTX_E_F32 : c->d;
  int ds = ptx_elem_size(dt), cs = ptx_elem_size(c->c);
  const char *aw = ptx_elem_row_of(ptx_elem_row_of(c->ab)->acc)->mem; /* staged accumulators */
  /* This thread's first read: row m0 + rd_row, column n0 + rd_col. */
  ptx_reg grow = r32(k), gcol = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %R", grow, m0, e->rd_row);
  ptx_ins(b, "add.u32 %R, %R, %R", gcol, n0, e->rd_col);
  ptx_reg dbase = pe->d_base, ldd_bytes = pe->ldd_bytes;
  if (split) { /* slice z of the workspace starts z * m * n fp32 elements in; rows of n */
    ptx_reg t64 = r64(k), z = r64(k);
    dbase = r64(k);
    ldd_bytes = ptx_epi_row_bytes(b, pe->n, 4);
    ptx_ins(b, "ld.param.u64 %R, [p_work]", dbase);
    ptx_ins(b, "cvta.to.global.u64 %R, %R", dbase, dbase);
    ptx_ins(b, "cvt.u64.u32 %R, %R", t64, k->m);
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", t64, t64, ldd_bytes);
    ptx_ins(b, "cvt.u64.u32 %R, %R", z, k->slice);
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", dbase, t64, z, dbase);
  }
  ptx_reg row_ok = pred(k), col_ok = pred(k), ok = pred(k), ld_ok = pred(k), more = pred(k);
  /* A kernel that also stores by TMA may have this consumer's previous tile's stores still
   * reading the buffer (a grouped tile crossing its group's end follows tiles inside one): the
   * thread that issued them waits, and the first chunk's barrier tells the others. Threads that
   * issued none return at once. */
  if (k->tma_d || k->bulk_rows) ptx_ins(b, "cp.async.bulk.wait_group.read 0");
  for (int j = 0; j < k->msub; j++) {
    for (int ch = 0; ch < tcj_cfg_tile_cols(c) / TCJ_SM90_EPI_COLS; ch++) {
      /* Write: the previous chunk's readers must be done with the buffer. */
      ptx_ins(b, "bar.sync %R, %d", e->bar_id, WARPGROUP);
      for (int nb = 0; nb < TCJ_SM90_EPI_COLS / 8; nb++) {
        int i = 4 * (ch * TCJ_SM90_EPI_COLS / 8 + nb);
        ptx_ins(b, "st.shared.v2.%s [%R+%d], {%R, %R}", aw, e->stage_wr, nb * 32, k->acc[j][i], k->acc[j][i + 1]);
        ptx_ins(b, "st.shared.v2.%s [%R+%d], {%R, %R}", aw, e->stage_wr, nb * 32 + 8 * TCJ_SM90_EPI_PITCH,
                k->acc[j][i + 2], k->acc[j][i + 3]);
      }
      ptx_ins(b, "bar.sync %R, %d", e->bar_id, WARPGROUP);
      ptx_reg ecol = r32(k);
      ptx_ins(b, "add.u32 %R, %R, %d", ecol, gcol, ch * TCJ_SM90_EPI_COLS);
      ptx_ins(b, "setp.lt.u32 %R, %R, %V", col_ok, ecol, pe->n); /* vectors divide n: all in or all out */
      /* Store phase: a runtime loop over this thread's rows of the chunk, so the compiler
       * cannot hoist every row's loads at once while 128 accumulators are live. Addresses are
       * computed per row from (row, column) rather than carried: with C and D apart, carried
       * pointers and steps cost eight registers, and with both epilogue paths in the kernel
       * that spilled (192 bytes at 128x256). */
      ptx_reg row = r32(k), srd = r32(k);
      ptx_ins(b, "mov.u32 %R, %d", row, 64 * j);
      ptx_ins(b, "mov.u32 %R, %R", srd, e->stage_rd);
      int again = ptx_new_label(b);
      ptx_label(b, again);
      ptx_ins(b, ".pragma \"nounroll\"");
      ptx_reg erow = r32(k);
      ptx_ins(b, "add.u32 %R, %R, %R", erow, grow, row);
      ptx_ins(b, "setp.lt.u32 %R, %R, %R", row_ok, erow, k->row_end);
      ptx_ins(b, "and.pred %R, %R, %R", ok, row_ok, col_ok);
      /* D's row: the problem's, or where a scatter config adds it (st_ok then also says the
       * index is in D). C and every per-row value stay at the problem's row. */
      ptx_reg st_ok = ok, drow = split ? erow : ptx_epi_d_row(b, pe, erow, &st_ok);
      ptx_reg acc[8];
      for (int v = 0; v < e->vec; v++) acc[v] = ptx_new(b, ptx_mma_acc_class(c->ab));
      ptx_vec_mem(b, (ptx_reg){0}, "ld.shared", aw, e->vec, acc, ptx_at_plus(srd, 0));
      if (!split) {
        ptx_reg old[8];
        ptx_reg caddr = emit_elem_addr(k, pe->c_base, pe->ldc_bytes, cs, erow, ecol);
        ptx_ins(b, "and.pred %R, %R, %R", ld_ok, ok, pe->has_beta);
        ptx_epi_load(b, c->c, caddr, 0, ld_ok, e->vec, old);
        ptx_epi_apply(b, pe, acc, old, e->vec, erow, ecol); /* in place: registers are scarce */
      }
      ptx_reg daddr = emit_elem_addr(k, dbase, ldd_bytes, ds, drow, ecol);
      if (split) ptx_epi_store(b, dt, daddr, 0, st_ok, e->vec, acc);
      else ptx_epi_store_d(b, pe, daddr, 0, st_ok, e->vec, acc);
      ptx_ins(b, "add.u32 %R, %R, %d", row, row, e->row_step);
      ptx_ins(b, "add.u32 %R, %R, %d", srd, srd, e->row_step * TCJ_SM90_EPI_PITCH);
      ptx_ins(b, "setp.lt.u32 %R, %R, %d", more, row, 64 * (j + 1));
      ptx_ins_if(b, more, 0, "bra.uni %L", again);
    }
  }
}

/* The TMA path's bias: the tile's slice of the bias vector (bn columns, or this consumer's
 * rows), as f32, in the spare tail of the consumer's staging buffer (a TMA store reads only its
 * first 64 rows x 128 bytes). Each value is then one ld.shared at an immediate offset, which
 * ptxas cannot hoist past the chunk's barrier: loaded from global memory, with their addresses,
 * the values of every chunk were hoisted together next to 128 live accumulators and spilled
 * (128 bytes at 128x256 with a column bias and GELU, ptxas 13.0). Returns this thread's first
 * value's address: column 2 * (lane % 4), or row 16 * warp + lane / 4 of the consumer's rows. */
#define TMA_STAGE_BYTES (TCJ_SM90_EPI_ROWS * PTX_SWIZZLE_LINE)
#define TMA_ROW_SCALE_AT 1024 /* past the widest bias slice (256 f32) */
_Static_assert(TCJ_SM90_EPI_BYTES - TMA_STAGE_BYTES >= TMA_ROW_SCALE_AT + 128 * 4 && TMA_ROW_SCALE_AT >= 256 * 4,
               "no room for a 256-wide bias slice and 128 rows' scales");
static ptx_reg emit_tma_bias(sm90 *k, const ptx_epi *pe, ptx_reg buf, int at, ptx_reg bar_id, ptx_reg m0, ptx_reg n0,
                             ptx_reg lane) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int col = c->bias == PTX_BIAS_COL, count = col ? c->bn : k->rows;
  ptx_reg tail = r32(k), t = r32(k), first = r32(k), idx = r32(k), st_ok = pred(k), s = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", tail, buf, at);
  ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
  if (col) {
    ptx_ins(b, "mov.u32 %R, %R", first, n0);
  } else {
    ptx_reg cw = r32(k);
    ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
    ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", first, cw, k->row_split, m0);
  }
  /* The previous tile's readers finished before its last chunk's barrier. */
  for (int i = 0; i < count; i += WARPGROUP) {
    ptx_ins(b, "add.u32 %R, %R, %d", idx, t, i);
    ptx_ins(b, "setp.lt.u32 %R, %R, %d", st_ok, idx, count);
    ptx_ins(b, "add.u32 %R, %R, %R", idx, idx, first);
    ptx_reg v = col ? ptx_epi_bias_at(b, pe, idx, pe->n) : ptx_epi_bias_at(b, pe, idx, ptx_in_reg(k->m));
    ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", s, t, tail);
    ptx_ins_if(b, st_ok, 0, "st.shared.f32 [%R+%d], %R", s, 4 * i, v);
  }
  ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
  ptx_reg addr = r32(k);
  if (col) {
    ptx_ins(b, "and.b32 %R, %R, 3", addr, lane);
    ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", addr, addr, tail); /* 2 * (lane % 4) columns of 4 bytes */
  } else {
    ptx_reg warp = r32(k);
    ptx_ins(b, "shr.u32 %R, %R, 5", warp, t);
    ptx_ins(b, "shr.u32 %R, %R, 2", addr, lane);
    ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", addr, warp, addr);
    ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", addr, addr, tail);
  }
  return addr;
}

/* The TMA path's row scales (row_scale: an MoE layer's router weights), staged as the row bias
 * is and for the same reason: this consumer's rows' values, as f32, TMA_ROW_SCALE_AT bytes into
 * the same spare tail, each then one ld.shared at an immediate offset. Without them the row
 * scale sent its config to the staged store: 245 us against 207 for the same GEMM through TMA
 * without the scale; staged here, 222 (H100, tcj-prof, Qwen3-30B-A3B's down-projection with
 * router weights).
 * They sit at byte `at` of the consumer's staging buffer, past what its stores read.
 * Returns this thread's first row's (16 * warp + lane / 4 of the consumer's rows) address. */
static ptx_reg emit_tma_row_scale(sm90 *k, const ptx_epi *pe, ptx_reg buf, int at, ptx_reg bar_id, ptx_reg m0,
                                  ptx_reg lane) {
  ptx_builder *b = k->b;
  ptx_reg tail = r32(k), t = r32(k), first = r32(k), idx = r32(k), st_ok = pred(k), s = r32(k), cw = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", tail, buf, at);
  ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
  ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
  ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", first, cw, k->row_split, m0);
  ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", s, t, tail);
  /* The previous tile's readers finished before its last chunk's barrier. */
  for (int i = 0; i < k->rows; i += WARPGROUP) {
    ptx_ins(b, "add.u32 %R, %R, %d", idx, t, i);
    ptx_ins(b, "setp.lt.u32 %R, %R, %d", st_ok, idx, k->rows);
    ptx_ins(b, "add.u32 %R, %R, %R", idx, idx, first);
    ptx_reg v = ptx_epi_row_scale_at(b, pe, idx);
    ptx_ins_if(b, st_ok, 0, "st.shared.f32 [%R+%d], %R", s, 4 * i, v);
  }
  ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
  ptx_reg warp = r32(k), addr = r32(k);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, t);
  ptx_ins(b, "shr.u32 %R, %R, 2", addr, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", addr, warp, addr);
  ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", addr, addr, tail);
  return addr;
}

/* The bulk-row path's staging (emit_epilogue_tma with rows): a chunk's 64 rows of 128 bytes,
 * 144 bytes apart, unswizzled, as each row leaves by its own bulk copy from a 16-byte aligned
 * address; the 16 bytes of padding put a warp's 2-byte fragment writes (rows lane / 4, 4 bytes
 * at lane % 4) on 32 different banks (4-byte D: two ways). The row scales follow. */
#define ROWS_PITCH TCJ_SM90_ROWS_PITCH
_Static_assert(ROWS_PITCH == PTX_SWIZZLE_LINE + 16, "a row and its pad");
#define ROWS_STAGE_BYTES (TCJ_SM90_EPI_ROWS * ROWS_PITCH)
_Static_assert(TCJ_SM90_EPI_BYTES >= ROWS_STAGE_BYTES + 128 * 4, "no room for 128 rows' scales past the rows");

/* One 64-row block's scattered rows for the bulk-row path: a thread that sends (sends: the
 * consumer's threads 0 to 63) takes row send_row of the block, and gets D's address of that row
 * (its scatter index) and whether it is stored at all (inside the group, an index inside D). */
static void emit_bulk_row_target(sm90 *k, const ptx_epi *pe, ptx_reg sends, ptx_reg first_row, ptx_reg send_row,
                                 ptx_reg *row_ok, ptx_reg *d_row) {
  ptx_builder *b = k->b;
  ptx_reg grow = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %R", grow, first_row, send_row);
  ptx_ins(b, "setp.lt.and.u32 %R, %R, %R, %R", *row_ok, grow, k->row_end, sends);
  ptx_reg drow = ptx_epi_d_row(b, pe, grow, row_ok);
  *d_row = r64(k);
  ptx_ins(b, "cvt.u64.u32 %R, %R", *d_row, drow);
  ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", *d_row, *d_row, pe->ldd_bytes, pe->d_base);
}

/* Who stores the TMA path's staged boxes, and from where: thread 0 of the consumer (leader) the
 * whole box at buf, or with rows each of threads 0 to 63 (leader) its row send_row, at src. */
typedef struct box_out {
  int rows;
  ptx_reg leader, buf, send_row, src;
  ptx_reg ok, bytes, box; /* scratch */
} box_out;

/* Stores the box staged `at` bytes into the consumer's buffer, D's columns col.. and rows row..
 * (rows: the row this thread sends, row_ok and d_row from emit_bulk_row_target). Not committed. */
static void emit_box_store(sm90 *k, const ptx_epi *pe, const box_out *o, ptx_reg col, ptx_reg row, ptx_reg row_ok,
                           ptx_reg d_row, int at) {
  ptx_builder *b = k->b;
  int ces = ptx_elem_size(k->cfg->d);
  ptx_reg from = o->rows ? o->src : o->buf;
  if (at) {
    ptx_ins(b, "add.u32 %R, %R, %d", o->box, from, at);
    from = o->box;
  }
  if (o->rows) {
    /* This row's chunk: the columns left of n, 128 bytes at most (n and D's rows are 16-byte
     * vectors, so every size is a multiple of 16). */
    ptx_reg dst = r64(k), t64 = r64(k);
    ptx_ins(b, "setp.lt.and.u32 %R, %R, %V, %R", o->ok, col, pe->n, row_ok);
    ptx_ins(b, "sub.u32 %R, %V, %R", o->bytes, pe->n, col);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", o->bytes, o->bytes, ces);
    ptx_ins(b, "min.u32 %R, %R, %d", o->bytes, o->bytes, PTX_SWIZZLE_LINE);
    ptx_ins(b, "mul.wide.u32 %R, %R, %d", t64, col, ces);
    ptx_ins(b, "add.s64 %R, %R, %R", dst, d_row, t64);
    ptx_ins_if(b, o->ok, 0, "cp.async.bulk.global.shared::cta.bulk_group [%R], [%R], %R", dst, from, o->bytes);
  } else {
    ptx_reg coords[3] = {col, row, k->z}; /* batched: rank-3 map, the entry is the third coordinate */
    ptx_tma(b, o->leader, PTX_TMA_STORE, k->tmap_d, k->cfg->batched ? 3 : 2, coords, ptx_at(from), (ptx_reg){0},
            (ptx_reg){0});
  }
}

/* The first row of D in this consumer's 64-row block j, into row; with rows, the row this
 * thread sends of it: whether it is stored and its address (emit_bulk_row_target). */
static void emit_block_rows(sm90 *k, const ptx_epi *pe, const box_out *o, ptx_reg cw, ptx_reg m0, int j, ptx_reg row,
                            ptx_reg *row_ok, ptx_reg *d_row) {
  ptx_ins(k->b, "mad.lo.u32 %R, %R, %d, %R", row, cw, k->row_split, m0);
  ptx_ins(k->b, "add.u32 %R, %R, %d", row, row, 64 * j);
  if (!o->rows) return;
  *row_ok = pred(k);
  emit_bulk_row_target(k, pe, o->leader, row, o->send_row, row_ok, d_row);
}

/* Epilogue of one tile when D rows are 16-byte vectors and beta == 0: each 64-row x 128-byte
 * chunk of the epilogue's values, converted to D's type, is written into the staging buffer in
 * TMA's 128-byte swizzle, and one thread stores it with a bulk tensor copy, which clips rows past
 * m and columns past n. Measured on an H200 (tcj-prof, bf16) against the staged path: 8192x8192x
 * 1024 225 -> 200 us (cooperative), 204 -> 190 us (ping-pong); 4096^3 185.5 -> 183.9; storing
 * straight from registers instead was slower everywhere (4096^3 197.5 us).
 * With rows (k->bulk_rows: stored scattered rows, the MoE combine) the chunk is staged
 * unswizzled (ROWS_PITCH) and each of its 64 rows leaves by its own bulk copy, issued by thread
 * t < 64 of the consumer to the row its index names; the row guard (the group's end, the index
 * inside D) is per row, so a tile crossing its group's end takes this path too. */
static void emit_epilogue_tma(sm90 *k, const ptx_epi *pe, ptx_reg m0, ptx_reg n0, int rows) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int ces = ptx_elem_size(c->d), cols = PTX_SWIZZLE_LINE / ces, nbs = cols / 8;
  int pitch = rows ? ROWS_PITCH : PTX_SWIZZLE_LINE;
  ptx_reg cw = r32(k), warp = r32(k), lane = r32(k), t = r32(k), x = r32(k), tq = r32(k);
  ptx_reg buf = r32(k), rowbase = r32(k), bar_id = r32(k), leader = pred(k), frow = r32(k);
  /* No user function takes this path (ptx_sm90_tma_store, ptx_sm90_bulk_rows): the bias and the
   * row scale are all that need each value's place, and they come from shared memory,
   * addressed by immediates. */
  ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
  ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, k->tid);
  ptx_ins(b, "and.b32 %R, %R, 3", warp, warp);
  ptx_ins(b, "and.b32 %R, %R, 31", lane, k->tid);
  ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
  /* The threads that issue stores: thread 0 of the consumer (one tensor copy a chunk), or the
   * first 64 (one row each). */
  if (rows) ptx_ins(b, "setp.lt.u32 %R, %R, %d", leader, t, TCJ_SM90_EPI_ROWS);
  else ptx_ins(b, "setp.eq.u32 %R, %R, 0", leader, t);
  ptx_ins(b, "add.u32 %R, %R, 1", bar_id, cw); /* named barrier 1 + consumer */
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", buf, cw, ptx_sm90_epi_bytes(k->cfg), k->epi);
  /* This thread's pair of columns (2 * (lane % 4)) at byte bc of a 128-byte row: 16-byte chunk
   * tq = bc / 16, and bc % 16 within it. Its rows r = 16 * warp + lane / 4 and r + 8 share
   * r % 8 = lane / 4 = x, the swizzle's XOR term. */
  /* Whole-tile staging (epi_whole): box (j, ch) of the consumer's tile at its own place, the tail
   * past the last; the previous tile's stores must have read them all before any is written. */
  int whole = c->epi_whole, nch = tcj_cfg_tile_cols(c) / cols, box_bytes = ptx_sm90_epi_box_bytes(c);
  int tail_at = (whole ? ptx_sm90_epi_boxes(c) : 1) * box_bytes;
  if (whole) {
    ptx_ins_if(b, leader, 0, "cp.async.bulk.wait_group.read 0");
    ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
  }
  ptx_reg sbias = {0}; /* shared address of this thread's first bias value */
  int bias = c->bias != PTX_BIAS_NONE && !tcj_cfg_swiglu(c); /* SwiGLU's is in its pairs */
  if (bias) sbias = emit_tma_bias(k, pe, buf, tail_at, bar_id, m0, n0, lane);
  ptx_reg srs = {0}; /* and of its first row's scale */
  if (c->row_scale)
    srs = emit_tma_row_scale(k, pe, buf, rows ? tail_at : tail_at + TMA_ROW_SCALE_AT, bar_id, m0, lane);
  ptx_ins(b, "and.b32 %R, %R, 3", t, lane);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", t, t, 2 * ces); /* bc */
  if (!rows) { /* swizzled: the 16-byte chunk, and the byte within it */
    ptx_ins(b, "shr.u32 %R, %R, 4", tq, t);
    ptx_ins(b, "and.b32 %R, %R, 15", t, t);
  }
  ptx_ins(b, "shr.u32 %R, %R, 2", x, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", frow, warp, x); /* the fragment's row in the 64-row block */
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", rowbase, frow, pitch, buf);
  ptx_ins(b, "add.u32 %R, %R, %R", rowbase, rowbase, t);
  ptx_reg row = r32(k), col = r32(k), q = r32(k), addr = r32(k);
  box_out out = {rows, leader, buf, {0}, {0}, {0}, {0}, {0}};
  if (whole) out.box = r32(k);
  if (rows) { /* the row this thread sends (threads 0 to 63), and where it reads it */
    out.send_row = r32(k), out.src = r32(k), out.bytes = r32(k), out.ok = pred(k);
    ptx_ins(b, "and.b32 %R, %R, 127", out.send_row, k->tid);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", out.src, out.send_row, ROWS_PITCH, buf);
  }
  const char *ct = ptx_elem_row_of(c->d)->cvt;
  for (int j = 0; j < k->msub; j++) {
    ptx_reg row_ok = {0}, d_row = {0};
    emit_block_rows(k, pe, &out, cw, m0, j, row, &row_ok, &d_row);
    ptx_reg rb[2] = {{0}, {0}}; /* row bias of this thread's two rows of the block */
    if (bias && c->bias == PTX_BIAS_ROW) {
      rb[0] = ptx_new(b, PTX_F32);
      rb[1] = ptx_new(b, PTX_F32);
      ptx_ins(b, "ld.shared.f32 %R, [%R+%d]", rb[0], sbias, 4 * 64 * j);
      ptx_ins(b, "ld.shared.f32 %R, [%R+%d]", rb[1], sbias, 4 * (64 * j + 8));
    }
    ptx_reg rs[2] = {{0}, {0}}; /* row scale of this thread's two rows of the block */
    if (c->row_scale) {
      rs[0] = ptx_new(b, PTX_F32);
      rs[1] = ptx_new(b, PTX_F32);
      ptx_ins(b, "ld.shared.f32 %R, [%R+%d]", rs[0], srs, 4 * 64 * j);
      ptx_ins(b, "ld.shared.f32 %R, [%R+%d]", rs[1], srs, 4 * (64 * j + 8));
    }
    for (int ch = 0; ch < nch; ch++) {
      /* The buffer is free once the previous bulk stores have read it (whole: checked once). */
      if (!whole) {
        ptx_ins_if(b, leader, 0, "cp.async.bulk.wait_group.read 0");
        ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
      }
      int box_at = whole ? (j * nch + ch) * box_bytes : 0;
      for (int nbl = 0; nbl < nbs; nbl++) {
        int i = 4 * (ch * nbs + nbl), off = box_at;
        ptx_reg *v = &k->acc[j][i];
        if (rows) {
          ptx_ins(b, "mov.u32 %R, %R", addr, rowbase);
          off += nbl * 8 * ces;
        } else {
          ptx_ins(b, "add.u32 %R, %R, %d", q, tq, nbl * ces / 2);
          ptx_ins(b, "xor.b32 %R, %R, %R", q, q, x);
          ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", addr, q, rowbase);
        }
        ptx_reg bias0[2] = {rb[0], rb[0]}, bias1[2] = {rb[1], rb[1]};
        if (bias && c->bias == PTX_BIAS_COL) {
          bias0[0] = ptx_new(b, PTX_F32);
          bias0[1] = ptx_new(b, PTX_F32);
          ptx_ins(b, "ld.shared.v2.f32 {%R, %R}, [%R+%d]", bias0[0], bias0[1], sbias, 4 * (ch * cols + nbl * 8));
          bias1[0] = bias0[0];
          bias1[1] = bias0[1];
        }
        ptx_reg none = {0};
        ptx_epi_apply_bias(b, pe, v, NULL, 2, none, none, bias ? bias0 : NULL, rs[0]);
        ptx_epi_apply_bias(b, pe, v + 2, NULL, 2, none, none, bias ? bias1 : NULL, rs[1]);
        if (ces == 4) {
          const char *dw = ptx_elem_row_of(c->d)->mem;
          if (off) ptx_ins(b, "st.shared.v2.%s [%R+%d], {%R, %R}", dw, addr, off, v[0], v[1]);
          else ptx_ins(b, "st.shared.v2.%s [%R], {%R, %R}", dw, addr, v[0], v[1]);
          ptx_ins(b, "st.shared.v2.%s [%R+%d], {%R, %R}", dw, addr, off + 8 * pitch, v[2], v[3]);
        } else {
          ptx_reg w0 = r32(k), w1 = r32(k);
          ptx_ins(b, "cvt.rn.%sx2.f32 %R, %R, %R", ct, w0, v[1], v[0]); /* first source: upper half */
          ptx_ins(b, "cvt.rn.%sx2.f32 %R, %R, %R", ct, w1, v[3], v[2]);
          if (off) ptx_ins(b, "st.shared.b32 [%R+%d], %R", addr, off, w0);
          else ptx_ins(b, "st.shared.b32 [%R], %R", addr, w0);
          ptx_ins(b, "st.shared.b32 [%R+%d], %R", addr, off + 8 * pitch, w1);
        }
      }
      if (whole) continue; /* stored all at once below */
      /* Generic-proxy writes become visible to the TMA unit, then the issuers store. */
      ptx_ins(b, "fence.proxy.async.shared::cta");
      ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
      ptx_ins(b, "add.u32 %R, %R, %d", col, n0, ch * cols);
      emit_box_store(k, pe, &out, col, row, row_ok, d_row, 0);
      ptx_ins_if(b, leader, 0, "cp.async.bulk.commit_group");
    }
  }
  if (!whole) return;
  /* Every box written: one barrier, then the issuers store them all as one bulk group, which the
   * next tile's epilogue waits for (its first instruction) while this one's mainloop runs. */
  ptx_ins(b, "fence.proxy.async.shared::cta");
  ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
  for (int j = 0; j < k->msub; j++) {
    ptx_reg row_ok = {0}, d_row = {0};
    emit_block_rows(k, pe, &out, cw, m0, j, row, &row_ok, &d_row);
    for (int ch = 0; ch < nch; ch++) {
      ptx_ins(b, "add.u32 %R, %R, %d", col, n0, ch * cols);
      emit_box_store(k, pe, &out, col, row, row_ok, d_row, (j * nch + ch) * box_bytes);
    }
  }
  ptx_ins_if(b, leader, 0, "cp.async.bulk.commit_group");
}

/* SwiGLU: accumulator column c < bn / 2 is gate column n0 + c and c + bn / 2 its up column (the
 * producer's halves). Fragment register 4 nb + x of a 64-row block holds column 8 nb +
 * 2 (lane % 4) + x % 2 (ptx_wgmma_d_coord), so gate register i pairs with i + bn / 4, and the
 * results take the first bn / 4 registers: the tile's bn / 2 columns of D, which either store
 * path then takes as a plain tile's (ptx_epi_apply leaves them as they are). Each n8 block's
 * bias values are read once for every row block. */
static void emit_swiglu_pairs(sm90 *k, const ptx_epi *pe, ptx_reg n0) {
  ptx_builder *b = k->b;
  int bias = k->cfg->bias != PTX_BIAS_NONE, up = k->cfg->bn / 4;
  ptx_reg col0 = r32(k), col = r32(k);
  ptx_ins(b, "and.b32 %R, %R, 3", col0, k->tid); /* lane % 4 */
  ptx_ins(b, "mad.lo.u32 %R, %R, 2, %R", col0, col0, n0);
  for (int nb = 0; nb < up / 4; nb++) {
    ptx_reg bg[2], bu[2];
    ptx_ins(b, "add.u32 %R, %R, %d", col, col0, 8 * nb);
    ptx_epi_swiglu_bias(b, pe, col, 2, bg, bu);
    for (int j = 0; j < k->msub; j++)
      for (int x = 0; x < 4; x += 2)
        ptx_epi_swiglu(b, pe, &k->acc[j][4 * nb + x], &k->acc[j][4 * nb + x + up], 2, bias ? bg : NULL,
                       bias ? bu : NULL);
  }
}

/* The epilogue's parameters. alpha == 0 is applied either per element (a select: ptx_epi_apply)
 * or once to the accumulators (ptx_epi_drop_products), whichever ptxas fits in the 168
 * registers a consumer has under nvJitLink (which ignores setmaxnreg): measured with ptxas 13.0,
 * the select's predicate spilled 12-16 bytes at bn = 256 (128 accumulators per 64 rows), the
 * zeroing branch 8-24 bytes at bn = 128 (128x128, 256x128), each nothing in the other case.
 * SwiGLU's pairs follow, so that every store path takes a plain tile of bn / 2 columns. */
static void begin_tile(sm90 *k, ptx_epi *pe, ptx_reg n0) {
  int dropped = k->cfg->bn >= 256 && ptx_epi_drop_products(k->b, k->cfg, &k->acc[0][0], k->msub, MAX_ACC, k->cfg->bn / 2);
  ptx_epi_begin(k->b, k->cfg, pe, k->row_end, k->z);
  pe->products_dropped = dropped;
  if (tcj_cfg_swiglu(k->cfg)) emit_swiglu_pairs(k, pe, n0); /* never split (tcj_cfg_check) */
}

/* The tile's epilogue: TMA stores (or bulk copies per row) where the config allows them and
 * beta == 0, else staged.
 * Each path reads the epilogue's parameters itself, after the branch: values computed before
 * it would be live into the TMA path, and with 128 accumulators there they spill. */
static void emit_epilogue_of_tile(sm90 *k, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  ptx_epi pe;
  if (!k->tma_d && !k->bulk_rows) {
    int partial = k->split && !k->split_at_launch; /* partial sums: the reduction applies alpha */
    if (partial) ptx_epi_begin(b, k->cfg, &pe, k->m, k->z);
    else begin_tile(k, &pe, n0);
    pe.amax = k->amax;
    emit_epilogue_staged(k, &pe, m0, n0, partial);
    return;
  }
  int staged = ptx_new_label(b), done = ptx_new_label(b);
  ptx_ins_if(b, ptx_epi_beta_nonzero(b), 0, "bra.uni %L", staged);
  if (k->cfg->grouped && !k->bulk_rows) { /* a tile crossing its group's end keeps the staged path's row guard */
    ptx_reg last = r32(k), crosses = pred(k);
    ptx_ins(b, "add.u32 %R, %R, %d", last, m0, k->cfg->bm);
    ptx_ins(b, "setp.gt.u32 %R, %R, %R", crosses, last, k->row_end);
    ptx_ins_if(b, crosses, 0, "bra.uni %L", staged);
  }
  begin_tile(k, &pe, n0);
  emit_epilogue_tma(k, &pe, m0, n0, k->bulk_rows);
  ptx_ins(b, "bra.uni %L", done);
  ptx_label(b, staged);
  begin_tile(k, &pe, n0);
  emit_epilogue_staged(k, &pe, m0, n0, 0);
  ptx_label(b, done);
}

void sm90_emit_epilogue(sm90 *k, ptx_reg m0, ptx_reg n0) {
  if (!k->split_at_launch) {
    emit_epilogue_of_tile(k, m0, n0);
    return;
  }
  /* A generic kernel, split at launch: the slice's partial sums when p_slices > 1, else D. */
  ptx_builder *b = k->b;
  ptx_reg whole = pred(k);
  int to_d = ptx_new_label(b), done = ptx_new_label(b);
  ptx_ins(b, "setp.le.u32 %R, %R, 1", whole, sm90_slices(k));
  ptx_ins_if(b, whole, 0, "bra.uni %L", to_d);
  ptx_epi pe;
  ptx_epi_begin(b, k->cfg, &pe, k->m, k->z);
  emit_epilogue_staged(k, &pe, m0, n0, 1);
  ptx_ins(b, "bra.uni %L", done);
  ptx_label(b, to_d);
  emit_epilogue_of_tile(k, m0, n0);
  ptx_label(b, done);
}
