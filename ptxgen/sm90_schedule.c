/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's work schedule and barrier waits, which the producer and the consumers share:
 * a work unit's tile (grouped raster, clusters, split-K slices, batch entries), the mbarrier
 * waits and the ring's stage and phase. See gemm_sm90.c. */
#include "group_schedule.h"
#include "recipes.h"
#include "sm90_kernel.h"

/* Grouped: the sm80 kernel's unit -> tile function (ptx_group_unit_model), evaluated by each
 * warp for every unit of the persistent loop; its raster is the scheduler's bands of tile
 * columns (PTX_GROUP_BAND), which keep a band of the group's B in L2 while the CTAs go down
 * the group's rows. A contiguous group's tile starts at row0 +
 * tm * bm of the whole A, C and D, guarded by its end row0 + m_g (rows past it belong to the
 * next group, or lie past m where TMA fills zeros: computed, never stored); a masked group's
 * at tm * bm of entry g, guarded by m_g. A K group's tile is a tile of its own D (entry g),
 * over the group's K range (k->kt tiles, the maps rewritten per group start at its first row). */
void sm90_group_origin(sm90 *k, ptx_reg unit, ptx_reg m0, ptx_reg n0, ptx_reg lane, int done,
                       const ptx_group_scan *scan) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_group_sched s = ptx_emit_group_schedule(b, c, unit, k->m, k->unit_cols.imm, lane, done, scan);
  ptx_ins(b, "mov.u32 %R, %R", k->z, s.g);
  if (ptx_group_k(c->grouped)) {
    /* A K group's tile is tile (tm, tn) of its own D (all m rows), over its K range: at least
     * one K tile, past the range for an empty group (its maps span one row: zeros, so D gets
     * beta * C + bias). */
    ptx_reg empty = pred(k);
    ptx_ins(b, "mov.u32 %R, %R", k->kstart, s.row0);
    ptx_ins(b, "mov.u32 %R, %R", k->kdepth, s.rows);
    ptx_ins(b, "add.u32 %V, %R, %d", k->kt, s.rows, c->bk - 1);
    ptx_ins(b, "div.u32 %V, %V, %d", k->kt, k->kt, c->bk);
    ptx_ins(b, "max.u32 %V, %V, 1", k->kt, k->kt);
    ptx_ins(b, "setp.eq.u32 %R, %R, 0", empty, s.rows);
    ptx_ins(b, "selp.u32 %R, %d, 0, %R", k->kskip, c->bk, empty);
    k->row_end = k->m;
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", m0, s.tm, c->bm);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", n0, s.tn, tcj_cfg_tile_cols(c));
    return;
  }
  k->row_end = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %R", k->row_end, s.row0, s.rows);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", m0, s.tm, tcj_cfg_group_unit_rows(c), s.row0);
  /* A cluster's unit is its CTAs' adjacent tile rows: rank r takes the r-th (rows past the
   * group's end are computed, never stored, as in the last tile of any group). */
  if (k->cluster > 1) ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", m0, k->rank, c->bm, m0);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", n0, s.tn, tcj_cfg_tile_cols(c));
}

/* unit -> (m0, n0), grouped raster: GROUP_M unit rows sweep N together so their A rows and the
 * B columns they share stay in L2. */
void sm90_tile_origin(sm90 *k, ptx_reg unit, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_reg tm = r32(k), tn = r32(k);
  if (k->split) {
    /* Split: unit = tile * slices + slice; slice z runs K tiles [z * per, min(kt, (z + 1) * per)).
     * A slice past K's last tile (kb_end <= kb0) still runs one (3xTF32: one chunk), all of it
     * past K: TMA fills it with zeros, so its partial sums are zeros. */
    ptx_reg tile = r32(k), slices = sm90_slices(k), per = r32(k);
    ptx_ins(b, "add.u32 %R, %V, %R", per, k->kt, slices); /* per = ceil(kt / slices) */
    ptx_ins(b, "sub.u32 %R, %R, 1", per, per);
    ptx_ins(b, "div.u32 %R, %R, %R", per, per, slices);
    if (c->tf32x3) { /* whole chunks of three K tiles (sm90_consumer.c): per rounded up to 3 */
      ptx_ins(b, "add.u32 %R, %R, 2", per, per);
      ptx_ins(b, "div.u32 %R, %R, 3", per, per);
      ptx_ins(b, "mul.lo.u32 %R, %R, 3", per, per);
    }
    ptx_ins(b, "div.u32 %R, %R, %R", tile, unit, slices);
    ptx_ins(b, "mul.lo.u32 %R, %R, %R", k->slice, tile, slices);
    ptx_ins(b, "sub.u32 %R, %R, %R", k->slice, unit, k->slice);
    ptx_ins(b, "mul.lo.u32 %R, %R, %R", k->kb0, k->slice, per);
    ptx_ins(b, "add.u32 %R, %R, %R", k->kb_end, k->kb0, per);
    ptx_ins(b, "min.u32 %R, %R, %V", k->kb_end, k->kb_end, k->kt);
    if (c->tf32x3) { /* a slice past K runs one chunk of zeros, as the consumers take whole chunks */
      ptx_reg one_chunk = r32(k);
      ptx_ins(b, "add.u32 %R, %R, 3", one_chunk, k->kb0);
      ptx_ins(b, "max.u32 %R, %R, %R", k->kb_end, k->kb_end, one_chunk);
    }
    unit = tile;
  }
  if (c->batched) {
    ptx_reg tile = r32(k);
    ptx_ins(b, "div.u32 %R, %R, %R", k->z, unit, k->tile_units);
    ptx_ins(b, "rem.u32 %R, %R, %R", tile, unit, k->tile_units);
    unit = tile;
  }
  ptx_emit_grouped_raster(b, unit, k->unit_rows, k->unit_cols, GROUP_M, tm, tn);
  if (k->cluster > 1 && k->along_n) ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", tn, tn, k->cluster, k->rank);
  else if (k->cluster > 1) ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", tm, tm, k->cluster, k->rank);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", m0, tm, c->bm);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", n0, tn, tcj_cfg_tile_cols(c));
}

ptx_reg sm90_slices(sm90 *k) {
  ptx_reg s = r32(k);
  ptx_ins(k->b, "ld.param.u32 %R, [p_slices]", s);
  return s;
}

/* Spins until the mbarrier at addr completes the phase of the given parity. */
void sm90_wait_at(sm90 *k, ptx_reg addr, ptx_reg parity) {
  ptx_builder *b = k->b;
  ptx_reg done = pred(k);
  int again = ptx_new_label(b);
  ptx_label(b, again);
  ptx_ins(b, "mbarrier.try_wait.parity.shared::cta.b64 %R, [%R], %R", done, addr, parity);
  ptx_ins_if(b, done, 1, "bra.uni %L", again);
}

/* The same for the barrier of a stage: bar_base + stage_off. */
void sm90_wait(sm90 *k, ptx_reg bar_base, ptx_reg stage_off, ptx_reg parity) {
  ptx_reg addr = r32(k);
  ptx_ins(k->b, "add.u32 %R, %R, %R", addr, bar_base, stage_off);
  sm90_wait_at(k, addr, parity);
}

/* stage = (stage + 1) % stages, flipping the phase parity at the wrap. */
void sm90_advance(sm90 *k, ptx_reg stage, ptx_reg phase) {
  ptx_builder *b = k->b;
  ptx_reg wrap = pred(k);
  ptx_ins(b, "add.u32 %R, %R, 1", stage, stage);
  ptx_ins(b, "setp.eq.u32 %R, %R, %d", wrap, stage, k->cfg->stages);
  ptx_ins_if(b, wrap, 0, "mov.u32 %R, 0", stage);
  ptx_ins_if(b, wrap, 0, "xor.b32 %R, %R, 1", phase, phase);
}

/* The K tile loop of a unit: kb from 0 (or the slice's first) up to kt (or the slice's end). */
void sm90_k_start(sm90 *k, ptx_reg kb) {
  if (k->split) ptx_ins(k->b, "mov.u32 %R, %R", kb, k->kb0);
  else ptx_ins(k->b, "mov.u32 %R, 0", kb);
}

void sm90_k_next(sm90 *k, ptx_reg kb, ptx_reg more) {
  ptx_ins(k->b, "add.u32 %R, %R, 1", kb, kb);
  if (k->split) ptx_ins(k->b, "setp.lt.u32 %R, %R, %R", more, kb, k->kb_end);
  else ptx_ins(k->b, "setp.lt.u32 %R, %R, %V", more, kb, k->kt);
}
