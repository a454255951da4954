/* The sm90 recipe's in-launch fix-up of split tiles (configs with split_fixup): once a slice's
 * consumers have stored its fp32 partial sums into the workspace, one of them counts the slice
 * in the tile's arrival counter; the CTA whose slice arrives last adds every slice's sums, in
 * slice order from the workspace as the reduction entry does (so both give the same bits), and
 * applies the epilogue into D. A split then needs no second kernel.
 *
 * Why the last arrival and not a CTA that waits for the others (Stream-K's fix-up): nothing here
 * waits, so no slice depends on another CTA being resident, whatever else shares the GPU. The
 * price is that one CTA reads all of a tile's slices: the time model (select.c) keeps deep
 * splits, whose fix-up would be long, on the reduction entry. See gemm_sm90.c. */
#include "epilogue.h"
#include "ptxgen.h"
#include "sm90_kernel.h"

/* Vector loads a thread of the fix-up keeps in flight (groups x slices), and most groups. */
enum { FIXUP_LOADS = 16, MAX_GROUPS = 4 };

void sm90_emit_fixup(sm90 *k, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int threads = k->consumers * WARPGROUP, vec = ptx_reduce_vec(c), per_row = c->bn / vec;
  /* Named barrier of all consumer threads; 1 + consumer are the epilogue's, 0 the CTA's. */
  int bar = 1 + k->consumers;
  ptx_reg ct = r32(k), w = r64(k), slice_bytes = r64(k), ctr = r64(k), t64 = r64(k), old = r32(k);
  ptx_reg leader = pred(k), last = pred(k), mine = pred(k);
  ptx_ins(b, "sub.u32 %R, %R, %d", ct, k->tid, WARPGROUP);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", leader, ct);
  ptx_ins(b, "ld.param.u64 %R, [p_work]", w);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", w, w);
  ptx_ins(b, "mul.wide.u32 %R, %R, %lld", slice_bytes, k->m, (long long)(4 * c->n));
  /* The counters follow the slices: this tile's at w + slices * slice_bytes + 4 * tile. */
  ptx_ins(b, "mul.lo.u64 %R, %R, %d", ctr, slice_bytes, k->slices);
  ptx_ins(b, "add.u64 %R, %R, %R", ctr, ctr, w);
  ptx_ins(b, "mul.wide.u32 %R, %R, 4", t64, k->tile_id);
  ptx_ins(b, "add.u64 %R, %R, %R", ctr, ctr, t64);
  /* Every consumer thread's partial sums are stored; the leader publishes them at GPU scope
   * (the barrier orders the others' stores before its fence: cumulativity) and counts the
   * slice. Seeing the count complete, it acquires the other slices' sums before the barrier
   * that tells its CTA. */
  ptx_ins(b, "bar.sync %d, %d", bar, threads);
  ptx_ins(b, "mov.u32 %R, 0", old);
  ptx_ins_if(b, leader, 0, "fence.acq_rel.gpu");
  ptx_ins_if(b, leader, 0, "atom.global.add.u32 %R, [%R], 1", old, ctr);
  ptx_ins(b, "setp.eq.u32 %R, %R, %d", mine, old, k->slices - 1);
  ptx_ins(b, "and.pred %R, %R, %R", mine, mine, leader);
  ptx_ins_if(b, mine, 0, "fence.acq_rel.gpu");
  ptx_ins(b, "bar.red.or.pred %R, %d, %d, %R", last, bar, threads, mine);
  int done = ptx_new_label(b);
  ptx_ins_if(b, last, 1, "bra.uni $L%d", done);

  /* The tile, vec elements of a row per step: flat index i over bm rows x per_row vectors.
   * Each thread loads `groups` vectors of every slice before adding any: one group at a time
   * kept too few loads in flight (a fix-up took 10 us more than the reduction kernel, H100). */
  ptx_epi pe;
  ptx_epi_begin(b, c, &pe, k->m, (ptx_reg){0});
  pe.amax = k->amax;
  int total = c->bm * per_row, groups = FIXUP_LOADS / k->slices;
  if (groups < 1) groups = 1;
  if (groups > MAX_GROUPS) groups = MAX_GROUPS;
  ptx_reg base = r32(k), more = pred(k); /* the CTA's first flat index of the pass: uniform */
  ptx_ins(b, "mov.u32 %R, 0", base);
  int again = ptx_new_label(b);
  ptx_label(b, again);
  ptx_reg row[MAX_GROUPS], col[MAX_GROUPS], ok[MAX_GROUPS], row64[MAX_GROUPS], col64[MAX_GROUPS];
  ptx_reg part[MAX_GROUPS][4 * TCJ_SPLIT_MAX];
  for (int g = 0; g < groups; g++) {
    ptx_reg at = r32(k), addr = r64(k);
    row[g] = r32(k), col[g] = r32(k), ok[g] = pred(k), row64[g] = r64(k), col64[g] = r64(k);
    ptx_ins(b, "add.u32 %R, %R, %R", at, base, ct);
    ptx_ins(b, "add.u32 %R, %R, %d", at, at, g * threads);
    ptx_ins(b, "setp.lt.u32 %R, %R, %d", ok[g], at, total);
    ptx_ins(b, "div.u32 %R, %R, %d", row[g], at, per_row);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", col[g], row[g], per_row);
    ptx_ins(b, "sub.u32 %R, %R, %R", col[g], at, col[g]);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", col[g], col[g], vec, n0);
    ptx_ins(b, "add.u32 %R, %R, %R", row[g], row[g], m0);
    ptx_ins(b, "setp.lt.and.u32 %R, %R, %R, %R", ok[g], row[g], k->m, ok[g]);
    ptx_ins(b, "setp.lt.and.u32 %R, %R, %lld, %R", ok[g], col[g], (long long)c->n, ok[g]); /* vectors divide n */
    ptx_ins(b, "cvt.u64.u32 %R, %R", row64[g], row[g]);
    ptx_ins(b, "cvt.u64.u32 %R, %R", col64[g], col[g]);
    ptx_ins(b, "mad.lo.u64 %R, %R, %lld, %R", addr, row64[g], (long long)c->n, col64[g]);
    ptx_ins(b, "mad.lo.u64 %R, %R, 4, %R", addr, addr, w);
    ptx_epi_load_slices(b, c, addr, slice_bytes, ok[g], vec, part[g]);
  }
  for (int g = 0; g < groups; g++) {
    ptx_reg sum[4], cin[4], caddr = r64(k), daddr = r64(k), ld_ok = pred(k);
    ptx_epi_add_slices(b, c, part[g], vec, sum);
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", caddr, row64[g], pe.ldc_bytes, pe.c_base);
    ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", caddr, col64[g], ptx_elem_size(c->c), caddr);
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", daddr, row64[g], pe.ldd_bytes, pe.d_base);
    ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", daddr, col64[g], ptx_elem_size(c->d), daddr);
    ptx_ins(b, "and.pred %R, %R, %R", ld_ok, ok[g], pe.has_beta);
    ptx_epi_load(b, c->c, caddr, 0, ld_ok, vec, cin);
    ptx_epi_apply(b, &pe, sum, cin, vec, row[g], col[g]);
    ptx_epi_store_d(b, &pe, daddr, 0, ok[g], vec, sum);
  }
  ptx_ins(b, "add.u32 %R, %R, %d", base, base, groups * threads);
  ptx_ins(b, "setp.lt.u32 %R, %R, %d", more, base, total);
  ptx_ins_if(b, more, 0, "bra.uni $L%d", again);
  ptx_label(b, done);
}
