/* The sm90 recipe's last wave split (tail=split configs): when the persistent grid's last wave
 * would run part full, its tiles are split along K among all the grid's CTAs, so that the wave
 * takes a slice's time instead of a tile's. This file writes the schedule's arithmetic (the PTX
 * twin of ptx_sm90_tail in sm90_abi.c: the kernel and its reduction compute the same plan from
 * p_m and the grid) and the reduction entry that adds each tail tile's slices. The kernel's
 * side (which unit is whose, the partial sums' slots) is in sm90_schedule.c and
 * sm90_epilogue.c. See ptxgen.h for the ABI. */
#include "abi.h"
#include "epilogue.h"
#include "ptxgen.h"
#include "recipes.h"
#include "sm90_kernel.h"

static ptx_reg u32(ptx_builder *b) { return ptx_new(b, PTX_B32); }

void sm90_emit_tail_plan(ptx_builder *b, const tcj_kernel_cfg *c, ptx_reg units, ptx_reg grid, sm90_tail_regs *t) {
  int kt = (int)((c->k + c->bk - 1) / c->bk);
  int most = kt / PTX_TAIL_MIN_KT < PTX_TAIL_MAX_SLICES ? kt / PTX_TAIL_MIN_KT : PTX_TAIL_MAX_SLICES;
  t->full = u32(b);
  t->tail = u32(b);
  t->slices = u32(b);
  t->per = u32(b);
  if (most < 2) { /* too little K to split: every unit runs whole */
    ptx_ins(b, "mov.u32 %R, %R", t->full, units);
    ptx_ins(b, "mov.u32 %R, 0", t->tail);
    ptx_ins(b, "mov.u32 %R, 1", t->slices);
    ptx_ins(b, "mov.u32 %R, %d", t->per, kt);
    return;
  }
  ptx_reg tail = u32(b), d = u32(b), s = u32(b), per = u32(b), s2 = u32(b), ok = ptx_new(b, PTX_PRED);
  ptx_ins(b, "rem.u32 %R, %R, %R", tail, units, grid);
  ptx_ins(b, "max.u32 %R, %R, 1", d, tail);
  ptx_ins(b, "div.u32 %R, %R, %R", s, grid, d);
  ptx_ins(b, "min.u32 %R, %R, %d", s, s, most);
  ptx_ins(b, "max.u32 %R, %R, 1", s, s);
  ptx_ins(b, "add.u32 %R, %R, %d", d, s, kt - 1); /* ceil(kt / s) */
  ptx_ins(b, "div.u32 %R, %R, %R", per, d, s);
  ptx_ins(b, "add.u32 %R, %R, %d", s2, per, kt - 1); /* ceil(kt / per): no slice left empty */
  ptx_ins(b, "div.u32 %R, %R, %R", s2, s2, per);
  ptx_ins(b, "setp.ne.u32 %R, %R, 0", ok, tail);
  ptx_ins(b, "setp.ge.and.u32 %R, %R, 2, %R", ok, s2, ok);
  ptx_ins(b, "selp.u32 %R, %R, 1, %R", t->slices, s2, ok);
  ptx_ins(b, "selp.u32 %R, %R, %d, %R", t->per, per, kt, ok);
  ptx_ins(b, "selp.u32 %R, %R, 0, %R", t->tail, tail, ok);
  ptx_ins(b, "sub.u32 %R, %R, %R", t->full, units, t->tail);
}

/* The unit's tile row and column (cluster rank included) from its unit index: the kernel's
 * grouped raster (sm90_tile_origin). */
static void emit_tile_of_unit(ptx_builder *b, const tcj_kernel_cfg *c, ptx_reg unit, ptx_reg rank, ptx_reg unit_rows,
                              ptx_reg m0, ptx_reg n0) {
  int cluster = tcj_cfg_cluster_ctas(c), along_n = c->cluster_n >= 2;
  int tiles_n = (int)((c->n + c->bn - 1) / c->bn), unit_cols = along_n ? (tiles_n + cluster - 1) / cluster : tiles_n;
  ptx_reg tm = u32(b), tn = u32(b);
  ptx_emit_grouped_raster(b, unit, unit_rows, unit_cols, GROUP_M, tm, tn);
  if (cluster > 1 && along_n) ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", tn, tn, cluster, rank);
  else if (cluster > 1) ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", tm, tm, cluster, rank);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", m0, tm, c->bm);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", n0, tn, c->bn);
}

/* One thread per ptx_reduce_vec() adjacent elements of a tail tile: CTA x covers part
 * (x % chunks) of the tile of tail unit (x / chunks) / cluster, rank (x / chunks) % cluster. */
void sm90_emit_tail_reduce_entry(ptx_builder *b, const tcj_kernel_cfg *c) {
  int vec = ptx_reduce_vec(c), cluster = tcj_cfg_cluster_ctas(c), per_row = c->bn / vec;
  int chunks = (c->bm * per_row + PTX_TAIL_REDUCE_THREADS - 1) / PTX_TAIL_REDUCE_THREADS;
  ptx_entry_begin(b, PTX_TAIL_REDUCE_ENTRY);
  ptx_emit_gemm_params(b);
  ptx_entry_body(b, PTX_TAIL_REDUCE_THREADS);
  ptx_reg tid = u32(b), bid = u32(b), m = u32(b), grid = u32(b), rows = u32(b), units = u32(b);
  ptx_reg tc = u32(b), ch = u32(b), t_unit = u32(b), rank = u32(b), unit = u32(b), m0 = u32(b), n0 = u32(b);
  ptx_reg idx = u32(b), row = u32(b), col = u32(b), slot = u32(b), z = u32(b);
  ptx_reg w = ptx_new(b, PTX_B64), addr = ptx_new(b, PTX_B64), t64 = ptx_new(b, PTX_B64);
  ptx_reg ok = ptx_new(b, PTX_PRED), more = ptx_new(b, PTX_PRED);
  int end = ptx_new_label(b), sum_loop = ptx_new_label(b);
  ptx_reg amax = ptx_epi_amax_begin(b, c); /* threads past the tile add 0 */
  ptx_ins(b, "mov.u32 %R, %%tid.x", tid);
  ptx_ins(b, "mov.u32 %R, %%ctaid.x", bid);
  ptx_ins(b, "ld.param.u32 %R, [p_m]", m);
  ptx_ins(b, "ld.param.u32 %R, [p_grid]", grid);
  /* The plan, as the kernel made it. */
  int rows_per_unit = c->bm * (c->cluster_m >= 2 ? cluster : 1);
  int tiles_n = (int)((c->n + c->bn - 1) / c->bn);
  int unit_cols = c->cluster_n >= 2 ? (tiles_n + cluster - 1) / cluster : tiles_n;
  ptx_ins(b, "add.u32 %R, %R, %d", rows, m, rows_per_unit - 1);
  ptx_ins(b, "div.u32 %R, %R, %d", rows, rows, rows_per_unit);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", units, rows, unit_cols);
  sm90_tail_regs t;
  sm90_emit_tail_plan(b, c, units, grid, &t);
  /* This CTA's tile and element group. */
  ptx_ins(b, "div.u32 %R, %R, %d", tc, bid, chunks);
  ptx_ins(b, "rem.u32 %R, %R, %d", ch, bid, chunks);
  ptx_ins(b, "div.u32 %R, %R, %d", t_unit, tc, cluster);
  ptx_ins(b, "rem.u32 %R, %R, %d", rank, tc, cluster);
  ptx_ins(b, "setp.lt.u32 %R, %R, %R", ok, t_unit, t.tail);
  ptx_ins(b, "add.u32 %R, %R, %R", unit, t.full, t_unit);
  emit_tile_of_unit(b, c, unit, rank, rows, m0, n0);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", idx, ch, PTX_TAIL_REDUCE_THREADS, tid);
  ptx_ins(b, "setp.lt.and.u32 %R, %R, %d, %R", ok, idx, c->bm * per_row, ok);
  ptx_ins(b, "div.u32 %R, %R, %d", row, idx, per_row);
  ptx_ins(b, "rem.u32 %R, %R, %d", col, idx, per_row);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", col, col, vec);
  /* The first slot of the tile: (t * cluster + rank) * slices; element (row, col) of each. */
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", slot, t_unit, cluster, rank);
  ptx_ins(b, "mul.lo.u32 %R, %R, %R", slot, slot, t.slices);
  ptx_ins(b, "mul.wide.u32 %R, %R, %d", addr, slot, c->bm * c->bn * 4);
  ptx_ins(b, "ld.param.u64 %R, [p_work]", w);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", w, w);
  ptx_ins(b, "add.u64 %R, %R, %R", addr, addr, w);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", idx, row, c->bn, col);
  ptx_ins(b, "mul.wide.u32 %R, %R, 4", t64, idx);
  ptx_ins(b, "add.u64 %R, %R, %R", addr, addr, t64);
  /* Global row and column; outside m or n nothing is read or stored. */
  ptx_ins(b, "add.u32 %R, %R, %R", row, row, m0);
  ptx_ins(b, "add.u32 %R, %R, %R", col, col, n0);
  ptx_ins(b, "setp.lt.and.u32 %R, %R, %R, %R", ok, row, m, ok);
  ptx_ins(b, "setp.lt.and.u32 %R, %R, %lld, %R", ok, col, (long long)c->n, ok); /* vectors divide n */
  ptx_ins_if(b, ok, 1, "bra %L", end); /* divergent: the warp reconverges at end */
  /* The slices in slice order from 0, as the reduction entry adds split_k's. */
  ptx_reg sum[4], part[4];
  for (int v = 0; v < vec; v++) {
    sum[v] = ptx_new(b, PTX_F32);
    part[v] = ptx_new(b, PTX_F32);
    ptx_ins(b, "mov.f32 %R, 0f00000000", sum[v]);
  }
  ptx_ins(b, "mov.u32 %R, 0", z);
  ptx_label(b, sum_loop);
  if (vec == 4) ptx_ins(b, "ld.global.cg.v4.f32 {%R, %R, %R, %R}, [%R]", part[0], part[1], part[2], part[3], addr);
  else if (vec == 2) ptx_ins(b, "ld.global.cg.v2.f32 {%R, %R}, [%R]", part[0], part[1], addr);
  else ptx_ins(b, "ld.global.cg.f32 %R, [%R]", part[0], addr);
  for (int v = 0; v < vec; v++) ptx_ins(b, "add.f32 %R, %R, %R", sum[v], sum[v], part[v]);
  ptx_ins(b, "add.u64 %R, %R, %d", addr, addr, c->bm * c->bn * 4);
  ptx_ins(b, "add.u32 %R, %R, 1", z, z);
  ptx_ins(b, "setp.lt.u32 %R, %R, %R", more, z, t.slices);
  ptx_ins_if(b, more, 0, "bra %L", sum_loop);
  ptx_epi e;
  ptx_epi_begin(b, c, &e, m, (ptx_reg){0});
  e.amax = amax;
  ptx_reg caddr = ptx_new(b, PTX_B64), daddr = ptx_new(b, PTX_B64), r64 = ptx_new(b, PTX_B64), cin[4];
  ptx_ins(b, "cvt.u64.u32 %R, %R", r64, row);
  ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", caddr, r64, e.ldc_bytes, e.c_base);
  ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", daddr, r64, e.ldd_bytes, e.d_base);
  ptx_ins(b, "cvt.u64.u32 %R, %R", r64, col);
  ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", caddr, r64, ptx_elem_size(c->c), caddr);
  ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", daddr, r64, ptx_elem_size(c->d), daddr);
  ptx_epi_load(b, c->c, caddr, 0, e.has_beta, vec, cin);
  ptx_epi_apply(b, &e, sum, cin, vec, row, col);
  ptx_epi_store_d(b, &e, daddr, 0, ok, vec, sum);
  ptx_label(b, end);
  ptx_epi_amax_flush(b, amax);
  ptx_ins(b, "ret");
}
