/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's producer warpgroup: after setmaxnreg.dec one thread walks the CTA's work
 * units and, per K tile, waits for a free stage, announces its bytes on the stage's full
 * mbarrier and issues the TMA copies of the A and B tiles (MN-major operands in 64-column boxes;
 * in a cluster each CTA loads its part of the shared operand, multicast into all of them). See
 * gemm_sm90.c. Gathered rows of A are copied by the whole warpgroup instead (sm90_gather.c). */

#include "group_schedule.h"
#include "ptx_mem.h"
#include "sm90_gather.h"
#include "sm90_kernel.h"

/* ---- producer ---- */

/* 3xTF32 on this recipe: the split pass writes each chunk of 32 K as two parts, [big | small]
 * (split_tf32.c, two parts), and the three K tiles of chunk c read A's big and B's big, A's big
 * and B's small, A's small and B's big: K coordinates (2 c + (pos == 2)) * 32 of A and
 * (2 c + (pos == 1)) * 32 of B for place pos = kb % 3. A third less operand data than three
 * written parts, and the tile read twice comes from L2 the second time: the 3xTF32 GEMM was
 * DRAM-bound (82% of DRAM throughput at 8192^3, ncu, H100). */
void sm90_x3_coords(sm90 *k, ptx_reg kb, ptx_reg ka, ptx_reg kbb) {
  ptx_builder *b = k->b;
  ptx_reg chunk = r32(k), pos = r32(k), base = r32(k), is2 = pred(k), is1 = pred(k);
  ptx_ins(b, "div.u32 %R, %R, 3", chunk, kb);
  ptx_ins(b, "mul.lo.u32 %R, %R, 3", pos, chunk);
  ptx_ins(b, "sub.u32 %R, %R, %R", pos, kb, pos);
  ptx_ins(b, "shl.b32 %R, %R, 1", base, chunk);
  ptx_ins(b, "setp.eq.u32 %R, %R, 2", is2, pos);
  ptx_ins(b, "setp.eq.u32 %R, %R, 1", is1, pos);
  ptx_ins(b, "selp.u32 %R, 1, 0, %R", ka, is2);
  ptx_ins(b, "add.u32 %R, %R, %R", ka, ka, base);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", ka, ka, k->cfg->bk);
  ptx_ins(b, "selp.u32 %R, 1, 0, %R", kbb, is1);
  ptx_ins(b, "add.u32 %R, %R, %R", kbb, kbb, base);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", kbb, kbb, k->cfg->bk);
}

static void emit_tma_load(sm90 *k, ptx_reg tmap, ptx_reg dst, int dst_imm, ptx_reg c0, int c0_imm,
                          ptx_reg c1, int c1_imm, ptx_reg bar, ptx_reg mask) {
  ptx_builder *b = k->b;
  ptx_reg x = r32(k), y = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", x, c0, c0_imm);
  ptx_ins(b, "add.u32 %R, %R, %d", y, c1, c1_imm);
  /* batched: rank-3 maps, the entry is the third coordinate */
  int is_a = tmap.id == k->tmap_a.id;
  ptx_reg at[3] = {x, y, is_a ? k->za : k->zb};
  /* grouped: B (and a masked group's A) is an entry of a rank-3 map, contiguous groups' A rank 2 */
  int rank = (is_a ? ptx_rows_by_entry(k->cfg) : ptx_cols_by_entry(k->cfg)) ? 3 : 2;
  ptx_tma(b, k->issue, PTX_TMA_LOAD, tmap, rank, at, ptx_at_plus(dst, dst_imm), bar, mask);
}

/* One operand's tile of a stage, at sbase + off: mn rows (K-major: one box of 64 K x mn rows)
 * or columns (MN-major: mn / 64 boxes of 64 columns x 64 K) from mn0 on. With a multicast mask
 * (a cluster's shared operand) each CTA loads the part of its rank for all the cluster's CTAs. */
static void emit_operand_loads(sm90 *k, ptx_reg tmap, int kmajor, int mn, ptx_reg sbase, int off, ptx_reg mn0,
                               ptx_reg kcoord, ptx_reg full, ptx_reg mask) {
  ptx_builder *b = k->b;
  int parts = mask.id ? k->cluster : 1;
  ptx_reg dst = sbase, first = mn0;
  int share = kmajor ? mn / parts : mn / 64 / parts; /* rows, or boxes, of this CTA */
  if (parts > 1) {
    dst = r32(k);
    first = r32(k);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", dst, k->rank, kmajor ? share * PTX_SWIZZLE_LINE : share * BOX_BYTES, sbase);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", first, k->rank, kmajor ? share : share * 64, mn0);
  }
  if (kmajor) {
    emit_tma_load(k, tmap, dst, off, kcoord, 0, first, 0, full, mask);
    return;
  }
  for (int j = 0; j < share; j++) emit_tma_load(k, tmap, dst, off + j * BOX_BYTES, first, 64 * j, kcoord, 0, full, mask);
}

void sm90_emit_producer(sm90 *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_ins(b, "setmaxnreg.dec.sync.aligned.u32 %d", tcj_cfg_sm90_regs(c).producer);
  int done = ptx_new_label(b), tile_loop = ptx_new_label(b), k_loop = ptx_new_label(b);
  ptx_reg not_leader = pred(k), lane = k->tid;
  if (c->gather) { /* every warp copies A's rows (sm90_gather.c) and runs the scheduler itself */
    lane = r32(k);
    ptx_ins(b, "and.b32 %R, %R, 31", lane, k->tid);
    k->issue = pred(k);
    ptx_ins(b, "setp.eq.u32 %R, %R, 0", k->issue, k->tid);
  } else if (c->grouped) { /* warp 0: the scheduler's scans take a warp; lane 0 issues */
    ptx_ins(b, "setp.ge.u32 %R, %R, 32", not_leader, k->tid);
    k->issue = pred(k);
    ptx_ins(b, "setp.eq.u32 %R, %R, 0", k->issue, k->tid);
  } else {
    ptx_ins(b, "setp.ne.u32 %R, %R, 0", not_leader, k->tid);
  }
  if (!c->gather) ptx_ins_if(b, not_leader, 0, "bra.uni %L", done);
  sm90_gather gather;
  if (c->gather) sm90_gather_setup(k, &gather);
  /* B by pointers and K groups: warp 0 rewrites the maps per group (sm90_group_maps.c); in a
   * gathering producer the other warps skip it. */
  sm90_group_maps maps;
  ptx_reg map_warp = pred(k);
  int after_setup = ptx_new_label(b), rewrites = tcj_cfg_sm90_group_maps(c) > 0;
  if (rewrites) {
    ptx_ins(b, "setp.lt.u32 %R, %R, 32", map_warp, k->tid);
    ptx_ins_if(b, map_warp, 1, "bra.uni %L", after_setup);
    sm90_group_maps_setup(k, &maps);
    ptx_label(b, after_setup);
  }
  /* The bytes TMA brings per stage: A's and B's tiles, or B's alone where A is gathered. */
  int tma_bytes = c->gather ? k->b_bytes : k->stage_bytes;

  ptx_reg stage = r32(k), phase = r32(k), unit = r32(k), soff = r32(k), kcoord = r32(k);
  ptx_reg m0 = r32(k), n0 = r32(k), sbase = r32(k), full = r32(k), empty_parity = r32(k), kb = r32(k);
  ptx_reg mask = {0};
  ptx_ins(b, "mov.u32 %R, 0", stage);
  ptx_ins(b, "mov.u32 %R, 0", phase);
  ptx_ins(b, "mov.u32 %R, %R", unit, k->unit0);
  if (k->cluster > 1) {
    mask = ptx_new(b, PTX_B16);
    ptx_ins(b, "mov.b16 %R, %d", mask, (1 << k->cluster) - 1);
  }
  ptx_reg end = pred(k), more = pred(k), a_batched = pred(k), b_batched = pred(k);
  int by_entry = c->batched || c->grouped;
  if (by_entry) {
    ptx_reg sa = r64(k), sb = r64(k);
    ptx_ins(b, "ld.param.u64 %R, [p_stride_a]", sa);
    ptx_ins(b, "ld.param.u64 %R, [p_stride_b]", sb);
    ptx_ins(b, "setp.ne.u64 %R, %R, 0", a_batched, sa);
    ptx_ins(b, "setp.ne.u64 %R, %R, 0", b_batched, sb);
  }
  ptx_group_scan scan = {{0, 0}, {0, 0}, {0, 0}};
  if (c->grouped) scan = ptx_group_scan_start(b);
  ptx_label(b, tile_loop);
  ptx_ins(b, "setp.ge.u32 %R, %R, %R", end, unit, k->units);
  ptx_ins_if(b, end, 0, "bra.uni %L", done);
  if (c->grouped) sm90_group_origin(k, unit, m0, n0, lane, done, &scan);
  else sm90_tile_origin(k, unit, m0, n0);
  if (c->gather) sm90_gather_tile(k, &gather, m0);
  if (rewrites) {
    int after_maps = ptx_new_label(b);
    ptx_ins_if(b, map_warp, 1, "bra.uni %L", after_maps);
    sm90_group_maps_tile(k, &maps);
    ptx_label(b, after_maps);
  }
  if (by_entry) { /* a broadcast operand (stride 0) is one entry: its coordinate stays 0 */
    ptx_ins(b, "selp.u32 %R, %R, 0, %R", k->za, k->z, a_batched);
    ptx_ins(b, "selp.u32 %R, %R, 0, %R", k->zb, k->z, b_batched);
  }
  sm90_k_start(k, kb);
  ptx_label(b, k_loop);
  ptx_ins(b, "shl.b32 %R, %R, 3", soff, stage);
  ptx_ins(b, "xor.b32 %R, %R, 1", empty_parity, phase);
  sm90_wait(k, k->empty, soff, empty_parity);
  ptx_ins(b, "add.u32 %R, %R, %R", full, k->full, soff);
  /* Every CTA receives whole A and B tiles (half of B from the other CTA of a cluster). */
  if (k->issue.id) ptx_ins_if(b, k->issue, 0, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%R], %d", full, tma_bytes);
  else ptx_ins(b, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%R], %d", full, tma_bytes);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", sbase, stage, k->stage_bytes, k->ring);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", kcoord, kb, c->bk); /* elements of K before this stage */
  if (ptx_group_k(c->grouped)) ptx_ins(b, "add.u32 %R, %R, %R", kcoord, kcoord, k->kskip);
  ptx_reg kcoord_b = kcoord;
  if (c->tf32x3) { /* K tile kb is place kb % 3 of chunk kb / 3 (sm90_x3_coords) */
    kcoord_b = r32(k);
    sm90_x3_coords(k, kb, kcoord, kcoord_b);
  }
  ptx_reg none = {0};
  /* A at the stage's start, B after it; a cluster shares B (along M) or A (along N). */
  int share_a = k->cluster > 1 && k->along_n, share_b = k->cluster > 1 && !k->along_n;
  if (c->gather) sm90_gather_stage(k, &gather, sbase, kcoord, full);
  else emit_operand_loads(k, k->tmap_a, k->a_kmajor, c->bm, sbase, 0, m0, kcoord, full, share_a ? mask : none);
  if (tcj_cfg_swiglu(c)) {
    /* SwiGLU (no clusters): the tile's first bn / 2 rows (K-major) or 64-column boxes are gate
     * columns n0.., the rest the up columns n + n0.. of B's 2n; rows past n of the gate half
     * read up rows (their products are never stored), past 2n TMA fills zeros. */
    ptx_reg up0 = r32(k);
    ptx_ins(b, "add.u32 %R, %R, %lld", up0, n0, (long long)c->n);
    emit_operand_loads(k, k->tmap_b, k->b_kmajor, c->bn / 2, sbase, k->a_bytes, n0, kcoord_b, full, none);
    emit_operand_loads(k, k->tmap_b, k->b_kmajor, c->bn / 2, sbase, k->a_bytes + k->b_bytes / 2, up0, kcoord_b, full,
                       none);
  } else {
    emit_operand_loads(k, k->tmap_b, k->b_kmajor, c->bn, sbase, k->a_bytes, n0, kcoord_b, full, share_b ? mask : none);
  }
  sm90_advance(k, stage, phase);
  sm90_k_next(k, kb, more);
  ptx_ins_if(b, more, 0, "bra.uni %L", k_loop);
  ptx_ins(b, "add.u32 %R, %R, %R", unit, unit, k->unit_step);
  ptx_ins(b, "bra.uni %L", tile_loop);
  ptx_label(b, done);
  /* The last stages' copies land while the consumers still run; the thread waits for its own
   * before it leaves rather than exit with copies in flight. */
  if (c->gather) ptx_ins(b, "cp.async.wait_all");
}

