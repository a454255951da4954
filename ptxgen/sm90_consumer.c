/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's consumer warpgroups: after setmaxnreg.inc each walks its tiles (its rows of
 * every tile, or alternate whole tiles in ping-pong), waits for full stages, issues K_STEPS
 * wgmmas per stage from shared-memory descriptors and frees stages; fp8 adds each K tile's
 * partial sums into fp32 registers (promotion, scaled per 128 K with block scales). Each tile
 * ends in the epilogue (sm90_epilogue.c). See gemm_sm90.c. */

#include <string.h>

#include "epilogue.h"
#include "ptx_ops.h"
#include "sm90_kernel.h"

/* ---- consumers ---- */

/* Descriptor of stage 0 of an operand tile at smem address base (+ offset already folded). */
static ptx_reg emit_desc_base(sm90 *k, ptx_reg addr, int k_major) {
  ptx_builder *b = k->b;
  uint64_t fixed = ptx_wgmma_desc(0, ptx_sm90_desc_lbo(k_major, BOX_BYTES), PTX_SM90_SBO, PTX_WGMMA_SWIZZLE_128B);
  ptx_reg lo = r32(k), hi = r32(k), d = r64(k);
  ptx_ins(b, "shr.u32 %R, %R, 4", lo, addr);
  ptx_ins(b, "and.b32 %R, %R, %u", lo, lo, 0x3FFFu);
  ptx_ins(b, "or.b32 %R, %R, %u", lo, lo, (unsigned)(fixed & 0xFFFFFFFFu));
  ptx_ins(b, "mov.b32 %R, %u", hi, (unsigned)(fixed >> 32));
  ptx_ins(b, "mov.b64 %R, {%R, %R}", d, lo, hi);
  return d;
}

/* One wgmma m64nBNkK: acc[j] (+)= A block j x B, descriptors given (promoting: part[j] = A
 * block j x the chunk of B at db, pchunk columns). */
static void emit_wgmma(sm90 *k, int j, ptx_reg da, ptx_reg db, ptx_reg scale_d) {
  const ptx_reg *acc = k->promote ? k->part[j] : k->acc[j];
  int n = k->promote ? k->pchunk : k->cfg->bn;
  ptx_wgmma(k->b, k->cfg->ab, tcj_cfg_b_type(k->cfg), n, acc, da, db, scale_d, !k->a_kmajor, !k->b_kmajor);
}

/* The K_STEPS x msub wgmmas of one stage, from its descriptors (stage offset stage_desc); B's
 * columns start at b_col (a promotion chunk; fp8 B is K-major, so a row offset). */
static void emit_stage_wgmmas(sm90 *k, ptx_reg da0, ptx_reg db0, ptx_reg stage_desc, int b_col, ptx_reg first,
                              ptx_reg always) {
  ptx_builder *b = k->b;
  for (int kk = 0; kk < K_STEPS; kk++) {
    ptx_reg db = r64(k);
    ptx_ins(b, "add.s64 %R, %R, %R", db, db0, stage_desc);
    ptx_ins(b, "add.s64 %R, %R, %u", db, db,
            (ptx_sm90_desc_offset(k->b_kmajor, 0, kk, BOX_BYTES) + (unsigned)b_col * PTX_SWIZZLE_LINE) >> 4);
    for (int j = 0; j < k->msub; j++) {
      ptx_reg da = r64(k);
      ptx_ins(b, "add.s64 %R, %R, %R", da, da0, stage_desc);
      ptx_ins(b, "add.s64 %R, %R, %u", da, da, ptx_sm90_desc_offset(k->a_kmajor, j, kk, BOX_BYTES) >> 4);
      emit_wgmma(k, j, da, db, kk == 0 ? first : always);
    }
  }
}

static void emit_release(sm90 *k, ptx_reg stage, ptx_reg guard) {
  ptx_builder *b = k->b;
  ptx_reg addr = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", addr, stage, k->empty);
  if (k->cluster > 1) {
    for (int r = 0; r < k->cluster; r++) {
      ptx_reg remote = r32(k);
      ptx_ins(b, "mapa.shared::cluster.u32 %R, %R, %d", remote, addr, r);
      /* Plain arrive: a .release.cluster arrive fences every earlier access at cluster scope
       * and cost 0.7 us per stage (measured on an H200); the wgmma reads it must order are
       * complete once wgmma.wait_group returns. */
      ptx_ins_if(b, guard, 0, "mbarrier.arrive.shared::cluster.b64 _, [%R]", remote);
    }
  } else {
    ptx_ins_if(b, guard, 0, "mbarrier.arrive.shared::cta.b64 _, [%R]", addr);
  }
}


/* ---- fp8 promotion and block scales ---- */

/* Block scales (tcj.h, TCJ_SCALE_BLOCK): A has one scale per row and K tile (bk = 128 fp8
 * elements), B one per 128 columns and K tile; both arrays have kb_count = ceil(k / 128)
 * columns. Each thread's accumulators lie in two rows per 64-row block (the wgmma D fragment:
 * 16 * warp + lane / 4 and 8 below), so it reads 2 * msub A scales and one B scale per K tile.
 * A 192-column tile starts at a multiple of 64 of n0 % 128 (0 or 64) and spans two B blocks: it
 * reads the next block's scale too, and its columns take one or the other by their offset. A
 * 256-column tile starts on a block and covers two whole ones. */
typedef struct block_scales {
  ptx_reg frag_row;             /* this thread's first fragment row within its consumer's rows */
  ptx_reg a_row[MAX_MSUB][2];   /* u64: &scale_a[row * kb_count] of the tile's rows (clamped to m - 1) */
  ptx_reg b_col[2];             /* u64: &scale_b[block * kb_count], block n0 / 128 (and the next, clamped) */
  ptx_reg base_a, base_b;       /* u64 */
  ptx_reg odd;                  /* bn 192: n0 % 128 == 64 */
  int two;                      /* the tile spans two B blocks (bn 192 or 256) */
  int may_be_odd;               /* its first column may lie mid-block (bn 192) */
} block_scales;
typedef struct block_scale_vals { ptx_reg a[MAX_MSUB][2], b[2]; } block_scale_vals;

static void emit_block_scale_setup(sm90 *k, block_scales *bs, ptx_reg cw, ptx_reg lane) {
  ptx_builder *b = k->b;
  ptx_reg warp = r32(k), t = r32(k);
  bs->frag_row = r32(k);
  ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, t);
  ptx_ins(b, "shr.u32 %R, %R, 2", t, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", bs->frag_row, warp, t);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", bs->frag_row, cw, k->row_split, bs->frag_row);
  bs->base_a = r64(k);
  bs->base_b = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_scale_a]", bs->base_a);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", bs->base_a, bs->base_a);
  ptx_ins(b, "ld.param.u64 %R, [p_scale_b]", bs->base_b);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", bs->base_b, bs->base_b);
  for (int j = 0; j < k->msub; j++)
    for (int h = 0; h < 2; h++) bs->a_row[j][h] = r64(k);
  bs->two = k->cfg->bn > 128;
  bs->may_be_odd = k->cfg->bn % 128 != 0 && bs->two;
  for (int i = 0; i < 1 + bs->two; i++) bs->b_col[i] = r64(k);
  if (bs->may_be_odd) bs->odd = pred(k);
}

/* The tile's scale rows: A's rows past m read row m - 1 and B's blocks past n the last one
 * (their results are never stored). A grouped tile's B scales are its group's, p_stride_scale_b
 * floats per group; a masked group's A scales are rows of entry z (m rows each), a contiguous
 * group's rows of the whole A. */
static void emit_block_scale_tile(sm90 *k, block_scales *bs, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  int row_bytes = (int)k->kt.imm * 4; /* kb_count floats; K is baked (never generic), so kt is kb_count */
  ptx_reg last = r32(k), row = r32(k), col = r32(k), base_a = bs->base_a, base_b = bs->base_b;
  if (k->cfg->grouped) {
    ptx_reg z64 = r64(k), t = r64(k);
    ptx_ins(b, "cvt.u64.u32 %R, %R", z64, k->z);
    ptx_ins(b, "ld.param.u64 %R, [p_stride_scale_b]", t);
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", t, t, z64);
    base_b = r64(k);
    ptx_ins(b, "mad.lo.u64 %R, %R, 4, %R", base_b, t, bs->base_b);
    if (k->cfg->grouped == PTX_GROUP_MASKED) {
      ptx_ins(b, "cvt.u64.u32 %R, %R", t, k->m);
      ptx_ins(b, "mul.lo.u64 %R, %R, %R", t, t, z64);
      base_a = r64(k);
      ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", base_a, t, row_bytes, bs->base_a);
    }
  }
  ptx_ins(b, "sub.u32 %R, %R, 1", last, k->m);
  for (int j = 0; j < k->msub; j++)
    for (int h = 0; h < 2; h++) {
      ptx_ins(b, "add.u32 %R, %R, %R", row, m0, bs->frag_row);
      ptx_ins(b, "add.u32 %R, %R, %d", row, row, 64 * j + 8 * h);
      ptx_ins(b, "min.u32 %R, %R, %R", row, row, last);
      ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", bs->a_row[j][h], row, row_bytes, base_a);
    }
  ptx_ins(b, "shr.u32 %R, %R, 7", col, n0);
  ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", bs->b_col[0], col, row_bytes, base_b);
  if (bs->two) {
    int last_block = (int)((k->cfg->n + 127) / 128) - 1;
    ptx_ins(b, "add.u32 %R, %R, 1", col, col);
    ptx_ins(b, "min.u32 %R, %R, %d", col, col, last_block);
    ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", bs->b_col[1], col, row_bytes, base_b);
  }
  if (bs->may_be_odd) {
    ptx_reg half = r32(k);
    ptx_ins(b, "and.b32 %R, %R, 64", half, n0);
    ptx_ins(b, "setp.ne.u32 %R, %R, 0", bs->odd, half);
  }
}

static void emit_block_scale_load(sm90 *k, const block_scales *bs, ptx_reg kb, block_scale_vals *sv) {
  ptx_builder *b = k->b;
  ptx_reg off = r64(k), addr = r64(k);
  ptx_ins(b, "mul.wide.u32 %R, %R, 4", off, kb);
  for (int j = 0; j < k->msub; j++)
    for (int h = 0; h < 2; h++) {
      sv->a[j][h] = ptx_new(b, PTX_F32);
      ptx_ins(b, "add.u64 %R, %R, %R", addr, bs->a_row[j][h], off);
      ptx_ins(b, "ld.global.nc.f32 %R, [%R]", sv->a[j][h], addr);
    }
  for (int i = 0; i < 1 + bs->two; i++) {
    sv->b[i] = ptx_new(b, PTX_F32);
    ptx_ins(b, "add.u64 %R, %R, %R", addr, bs->b_col[i], off);
    ptx_ins(b, "ld.global.nc.f32 %R, [%R]", sv->b[i], addr);
  }
}

/* acc += part for the chunk starting at column col0 (scaled: part * scale_a(row) * scale_b of
 * the column's block, whose offset from the tile's first block is (n0 % 128 + column) / 128,
 * n0 % 128 being shift). Fragment registers 4i, 4i + 1 are the first row, 4i + 2, 4i + 3 the row
 * 8 below, and column 8 * (i / 4) + ... (ptx_wgmma_d_coord): chunk register i is tile register
 * i + col0 / 2. */
static void emit_promote_cols(sm90 *k, int col0, const block_scale_vals *sv, int shift) {
  ptx_builder *b = k->b;
  for (int j = 0; j < k->msub; j++) {
    ptx_reg s[2][2] = {{{0}, {0}}, {{0}, {0}}}; /* [row half][block] */
    for (int i = 0; i < k->pchunk / 2; i++) {
      ptx_reg acc = k->acc[j][col0 / 2 + i];
      if (!sv) {
        ptx_ins(b, "add.f32 %R, %R, %R", acc, acc, k->part[j][i]);
        continue;
      }
      int h = (i % 4) / 2, blk = (shift + col0 + 8 * (i / 4)) / 128;
      if (!s[h][blk].id) {
        s[h][blk] = ptx_new(b, PTX_F32);
        ptx_ins(b, "mul.f32 %R, %R, %R", s[h][blk], sv->a[j][h], sv->b[blk]);
      }
      ptx_ins(b, "fma.rn.f32 %R, %R, %R, %R", acc, k->part[j][i], s[h][blk], acc);
    }
  }
}

/* A tile whose first column may lie mid-block (bn 192) is promoted by one of two copies, by
 * where that column lies in its block (a warp-uniform branch per chunk). */
static void emit_promote(sm90 *k, int col0, const block_scale_vals *sv, const block_scales *bs) {
  ptx_builder *b = k->b;
  if (!sv || !bs->may_be_odd) {
    emit_promote_cols(k, col0, sv, 0);
    return;
  }
  int odd = ptx_new_label(b), done = ptx_new_label(b);
  ptx_ins_if(b, bs->odd, 0, "bra.uni %L", odd);
  emit_promote_cols(k, col0, sv, 0);
  ptx_ins(b, "bra.uni %L", done);
  ptx_label(b, odd);
  emit_promote_cols(k, col0, sv, 64);
  ptx_label(b, done);
}

/* 3xTF32's K tile at place pos (0, 1, 2) of its chunk (one column chunk, no block scales).
 * The split pass puts the three products of each chunk of K in three consecutive K tiles
 * (split_tf32.c), and the loop runs a chunk per pass, so each place is static: the wgmmas
 * accumulate into part across the three (the first overwrites), each stage is freed once the
 * wgmmas after it are issued, and after the third part is added into acc. One drain of the
 * tensor cores per chunk, a third of the roundings in acc of a promotion per tile, and no branch
 * between wgmmas (a data-dependent one made ptxas serialize them: C7518). */
static void emit_chunk_tile(sm90 *k, int pos, ptx_reg da0, ptx_reg db0, ptx_reg stage_desc, ptx_reg stage,
                            ptx_reg prev, ptx_reg is_lane0, ptx_reg always, ptx_reg never) {
  ptx_builder *b = k->b;
  ptx_ins(b, "wgmma.fence.sync.aligned");
  emit_stage_wgmmas(k, da0, db0, stage_desc, 0, pos ? always : never, always);
  ptx_ins(b, "wgmma.commit_group.sync.aligned");
  ptx_ins(b, "wgmma.wait_group.sync.aligned %d", pos < 2 ? 1 : 0);
  if (pos > 0) emit_release(k, prev, is_lane0);
  if (pos < 2) {
    ptx_ins(b, "mov.u32 %R, %R", prev, stage);
    return;
  }
  emit_release(k, stage, is_lane0);
  emit_promote(k, 0, NULL, NULL);
}

void sm90_emit_consumer(sm90 *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_ins(b, "setmaxnreg.inc.sync.aligned.u32 %d", tcj_cfg_sm90_regs(c).consumer);
  for (int j = 0; j < k->msub; j++)
    for (int i = 0; i < c->bn / 2; i++) {
      k->acc[j][i] = ptx_new(b, ptx_mma_acc_class(c->ab));
      if (k->promote && i < k->pchunk / 2) k->part[j][i] = ptx_new(b, PTX_F32);
    }
  k->amax = ptx_epi_amax_begin(b, c);

  /* Consumer index (warpgroup - 1) and lane. */
  ptx_reg cw = r32(k), lane = r32(k);
  ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
  ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
  ptx_ins(b, "and.b32 %R, %R, 31", lane, k->tid);

  /* Descriptors of stage 0: this consumer's rows of A, all of B. */
  ptx_reg a_addr = r32(k), b_addr = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", a_addr, cw, k->row_split * PTX_SWIZZLE_LINE, k->ring);
  ptx_ins(b, "add.u32 %R, %R, %d", b_addr, k->ring, k->a_bytes);
  ptx_reg da0 = emit_desc_base(k, a_addr, k->a_kmajor), db0 = emit_desc_base(k, b_addr, k->b_kmajor);

  ptx_reg is_lane0 = pred(k), always = pred(k), never = pred(k);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", is_lane0, lane);
  ptx_ins(b, "setp.eq.u32 %R, %R, %R", always, lane, lane);
  ptx_ins(b, "setp.ne.u32 %R, %R, %R", never, lane, lane);
  block_scales bs;
  memset(&bs, 0, sizeof bs);
  if (c->block_scale) emit_block_scale_setup(k, &bs, cw, lane);

  int tile_loop = ptx_new_label(b), k_loop = ptx_new_label(b), done = ptx_new_label(b);
  ptx_reg stage = r32(k), phase = r32(k), unit = r32(k), m0 = r32(k), n0 = r32(k), kb = r32(k);
  ptx_reg soff = r32(k), prev = r32(k), end = pred(k), more = pred(k), not_first = pred(k), rel = pred(k);
  ptx_reg stage_desc = r64(k);
  ptx_ins(b, "mov.u32 %R, 0", stage);
  ptx_ins(b, "mov.u32 %R, 0", phase);
  ptx_ins(b, "mov.u32 %R, 0", prev);
  ptx_ins(b, "mov.u32 %R, %R", unit, k->unit0);
  /* Ping-pong: consumer c runs the CTA's tiles c, c + 2, ...; the ring holds every tile's
   * stages in order, so it starts kt * c stages in and skips the other consumer's kt after
   * each tile. kpos counts stages modulo 2 * stages (position and phase). */
  ptx_reg step = k->unit_step, kpos = {0}, my_turn = {0}, their_turn = {0}, turn_phase = {0}, leader = {0};
  int ring2 = 2 * k->cfg->stages;
  /* kt and 2 kt modulo the ring's positions and phases: baked, or from a generic kernel's kt. */
  ptx_val kt_ring = ptx_imm(k->kt.imm % ring2), kt2_ring = ptx_imm(2 * k->kt.imm % ring2);
  if (k->pingpong && k->kt.reg.id) {
    kt_ring = ptx_in_reg(r32(k));
    kt2_ring = ptx_in_reg(r32(k));
    ptx_ins(b, "rem.u32 %V, %V, %d", kt_ring, k->kt, ring2);
    ptx_ins(b, "shl.b32 %V, %V, 1", kt2_ring, k->kt);
    ptx_ins(b, "rem.u32 %V, %V, %d", kt2_ring, kt2_ring, ring2);
  }
  if (k->pingpong) {
    step = r32(k);
    ptx_ins(b, "shl.b32 %R, %R, 1", step, k->unit_step);
    ptx_ins(b, "mad.lo.u32 %R, %R, %R, %R", unit, cw, k->unit_step, k->unit0);
    kpos = r32(k);
    ptx_ins(b, "mul.lo.u32 %R, %R, %V", kpos, cw, kt_ring);
    ptx_ins(b, "rem.u32 %R, %R, %d", kpos, kpos, ring2);
    /* turn[c] at turn + 8c: mine, and the other consumer's at turn + 8 - 8c. */
    my_turn = r32(k);
    their_turn = r32(k);
    ptx_reg off = r32(k);
    ptx_ins(b, "shl.b32 %R, %R, 3", off, cw);
    ptx_ins(b, "add.u32 %R, %R, %R", my_turn, k->turn, off);
    ptx_ins(b, "sub.u32 %R, %R, %R", their_turn, k->turn, off);
    ptx_ins(b, "add.u32 %R, %R, 8", their_turn, their_turn);
    turn_phase = r32(k);
    ptx_ins(b, "mov.u32 %R, 0", turn_phase);
    leader = pred(k);
    ptx_reg t = r32(k);
    ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
    ptx_ins(b, "setp.eq.u32 %R, %R, 0", leader, t);
  }
  ptx_group_scan scan = {{0, 0}, {0, 0}, {0, 0}};
  if (c->grouped) scan = ptx_group_scan_start(b);
  ptx_label(b, tile_loop);
  ptx_ins(b, "setp.ge.u32 %R, %R, %R", end, unit, k->units);
  ptx_ins_if(b, end, 0, "bra.uni %L", done);
  if (c->grouped) sm90_group_origin(k, unit, m0, n0, lane, done, &scan);
  else sm90_tile_origin(k, unit, m0, n0);
  if (k->pingpong) {
    ptx_ins(b, "rem.u32 %R, %R, %d", stage, kpos, k->cfg->stages);
    ptx_ins(b, "div.u32 %R, %R, %d", phase, kpos, k->cfg->stages);
    /* Wait for this consumer's turn at the tensor cores. */
    sm90_wait_at(k, my_turn, turn_phase);
    ptx_ins(b, "xor.b32 %R, %R, 1", turn_phase, turn_phase);
  }
  if (k->promote)
    for (int j = 0; j < k->msub; j++)
      for (int i = 0; i < c->bn / 2; i++) ptx_ins(b, "mov.f32 %R, 0f00000000", k->acc[j][i]);
  if (c->block_scale) emit_block_scale_tile(k, &bs, m0, n0);
  sm90_k_start(k, kb);
  ptx_label(b, k_loop);
  for (int pos = 0; c->tf32x3 && pos < 3; pos++) { /* 3xTF32: one chunk of three K tiles per pass */
    ptx_ins(b, "shl.b32 %R, %R, 3", soff, stage);
    sm90_wait(k, k->full, soff, phase);
    ptx_ins(b, "mul.wide.u32 %R, %R, %d", stage_desc, stage, k->stage_bytes >> 4);
    emit_chunk_tile(k, pos, da0, db0, stage_desc, stage, prev, is_lane0, always, never);
    sm90_advance(k, stage, phase);
    sm90_k_next(k, kb, more);
  }
  if (!c->tf32x3) {
    ptx_ins(b, "shl.b32 %R, %R, 3", soff, stage);
    sm90_wait(k, k->full, soff, phase);
    /* Gathered A came by cp.async, through the generic proxy; wgmma reads through the async
     * proxy (PTX ISA, memory consistency model: proxies). */
    if (c->gather) ptx_ins(b, "fence.proxy.async.shared::cta");
    /* This stage's descriptors: stage * stage_bytes >> 4 added to the start address field. */
    ptx_ins(b, "mul.wide.u32 %R, %R, %d", stage_desc, stage, k->stage_bytes >> 4);
    if (k->split) ptx_ins(b, "setp.ne.u32 %R, %R, %R", not_first, kb, k->kb0);
    else ptx_ins(b, "setp.ne.u32 %R, %R, 0", not_first, kb);
    if (k->promote) {
      /* Each chunk's partial sums (the first k step overwrites: scale-d false) are needed at
       * once: wait for them, free the stage after the last chunk, add them into fp32 (scaled per
       * 128 K with block scales, their loads issued before the first wait). wgmma.fence orders
       * the adds' reads of part before the next chunk's wgmmas overwrite it. */
      block_scale_vals sv;
      for (int col0 = 0; col0 < c->bn; col0 += k->pchunk) {
        ptx_ins(b, "wgmma.fence.sync.aligned");
        emit_stage_wgmmas(k, da0, db0, stage_desc, col0, never, always);
        ptx_ins(b, "wgmma.commit_group.sync.aligned");
        if (col0 == 0 && c->block_scale) emit_block_scale_load(k, &bs, kb, &sv);
        ptx_ins(b, "wgmma.wait_group.sync.aligned 0");
        if (col0 + k->pchunk == c->bn) emit_release(k, stage, is_lane0);
        emit_promote(k, col0, c->block_scale ? &sv : NULL, &bs);
      }
    } else {
      /* The first k step of a tile overwrites (scale-d false). */
      ptx_ins(b, "wgmma.fence.sync.aligned");
      emit_stage_wgmmas(k, da0, db0, stage_desc, 0, not_first, always);
      ptx_ins(b, "wgmma.commit_group.sync.aligned");
      /* One group stays in flight; the one before it is done, so its stage can be refilled. */
      ptx_ins(b, "wgmma.wait_group.sync.aligned 1");
      ptx_ins(b, "and.pred %R, %R, %R", rel, not_first, is_lane0);
      emit_release(k, prev, rel);
      ptx_ins(b, "mov.u32 %R, %R", prev, stage);
    }
    sm90_advance(k, stage, phase);
    sm90_k_next(k, kb, more);
  }
  ptx_ins_if(b, more, 0, "bra.uni %L", k_loop);
  if (k->pingpong) {
    /* Every wgmma of this tile is issued: the other consumer's may queue behind them. */
    ptx_ins_if(b, leader, 0, "mbarrier.arrive.shared::cta.b64 _, [%R]", their_turn);
    ptx_ins(b, "add.u32 %R, %R, %V", kpos, kpos, kt2_ring);
    ptx_ins(b, "rem.u32 %R, %R, %d", kpos, kpos, ring2);
  }
  if (!k->promote) {
    ptx_ins(b, "wgmma.wait_group.sync.aligned 0");
    emit_release(k, prev, is_lane0);
  }
  sm90_emit_epilogue(k, m0, n0);
  ptx_ins(b, "add.u32 %R, %R, %R", unit, unit, step);
  ptx_ins(b, "bra.uni %L", tile_loop);
  ptx_label(b, done);
  ptx_epi_amax_flush(b, k->amax);
  /* Bulk stores still in flight must finish before the CTA's shared memory goes away. */
  if (k->tma_d || k->bulk_rows) ptx_ins(b, "cp.async.bulk.wait_group 0");
}
