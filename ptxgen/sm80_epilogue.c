/* SPDX-License-Identifier: Apache-2.0 */
/* The sm80 recipe's epilogue (sm80_kernel.h): a cluster split's sum through distributed shared
 * memory, then D (or a workspace split's fp32 partial sums) straight from the mma fragments,
 * through the epilogue module (epilogue.c) that both recipes call. */
#include "epilogue.h"
#include "ptx_layout.h"
#include "ptx_ops.h"
#include "sm80_kernel.h"

/* ---- cluster split: the slices of a tile add their sums through distributed shared memory ---- */

/* A pair unit: the two adjacent accumulators (columns 2 * tig, +1) of 16-row block g, half h
 * and n8 fragment nf of every thread. The epilogue handles a unit at a time. */
static int pair_unit(const kernel *k, int g, int h, int nf) { return (2 * g + h) * k->ni + nf; }

/* Every CTA of the cluster puts its accumulators into its own (idle) ring, unit u of thread t
 * at (u * threads + t) * 8 so that a warp's accesses are consecutive. Then each CTA sums the
 * units it owns (u % slices == rank) over every CTA's buffer, in rank order: the sum is the
 * same whichever CTA owns the unit, and the same as the workspace reduction's (slice 0 first,
 * from 0). Ownership spreads the remote reads and the epilogue over the cluster's SMs. */
void sm80_cluster_sum(kernel *k) {
  ptx_builder *b = k->b;
  int s = k->slices;
  ptx_cp_async_wait(b, 0);
  ptx_bar_sync(b); /* every warp is done reading the ring */
  k->rank = reg32(k);
  ptx_ins(b, "mov.u32 %R, %%cluster_ctarank", k->rank);
  ptx_reg own = reg32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", own, k->tid, k->smem);
  for (int g = 0; g < k->op[0].blocks; g++)
    for (int h = 0; h < 2; h++)
      for (int nf = 0; nf < k->ni; nf++)
        ptx_ins(b, "st.shared.v2.f32 [%R+%d], {%R, %R}", own, pair_unit(k, g, h, nf) * k->threads * 8,
                k->acc[g][nf][2 * h], k->acc[g][nf][2 * h + 1]);
  /* Release our stores, acquire the others' (PTX ISA, barrier.cluster). */
  ptx_ins(b, "barrier.cluster.arrive.release.aligned");
  ptx_ins(b, "barrier.cluster.wait.acquire.aligned");
  ptx_reg peer[TCJ_CLUSTER_MAX];
  for (int q = 0; q < s; q++) {
    peer[q] = reg32(k);
    ptx_ins(b, "mapa.shared::cluster.u32 %R, %R, %d", peer[q], own, q);
  }
  ptx_reg part[2] = {ptx_new(b, PTX_F32), ptx_new(b, PTX_F32)}, other = ptx_new(b, PTX_PRED);
  for (int g = 0; g < k->op[0].blocks; g++)
    for (int h = 0; h < 2; h++)
      for (int nf = 0; nf < k->ni; nf++) {
        int u = pair_unit(k, g, h, nf), skip = ptx_new_label(b);
        ptx_reg *v = &k->acc[g][nf][2 * h];
        ptx_ins(b, "setp.ne.u32 %R, %R, %d", other, k->rank, u % s);
        ptx_ins_if(b, other, 0, "bra.uni %L", skip); /* uniform: the rank is the CTA's */
        ptx_ins(b, "mov.f32 %R, 0f00000000", v[0]);
        ptx_ins(b, "mov.f32 %R, 0f00000000", v[1]);
        for (int q = 0; q < s; q++) {
          ptx_ins(b, "ld.shared::cluster.v2.f32 {%R, %R}, [%R+%d]", part[0], part[1], peer[q], u * k->threads * 8);
          ptx_ins(b, "add.f32 %R, %R, %R", v[0], v[0], part[0]);
          ptx_ins(b, "add.f32 %R, %R, %R", v[1], v[1], part[1]);
        }
        ptx_label(b, skip);
      }
  /* Done reading the others' buffers; the matching wait ends the kernel, so no CTA exits (and
   * takes its shared memory away) while another may still read it. */
  ptx_ins(b, "barrier.cluster.arrive.release.aligned");
}

/* ---- epilogue: straight from the mma fragments (epilogue.c does the arithmetic) ---- */

/* A thread holds, per 16-row block g and half h, row gid + 8h and the columns 2 * tig, +1 of each
 * n8 fragment: pairs of adjacent columns, stored as one vector where C's and D's rows allow.
 * SwiGLU: fragment 2t holds gate block t and 2t + 1 the up block (operand_layout's interleave),
 * so a warp's wn tile columns are wn / 2 columns of D, and fragments 2t and 2t + 1 pair. */
void sm80_epilogue(kernel *k, ptx_reg warp_m, ptx_reg warp_n, int split) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int cluster = c->split_cluster;
  ptx_elem dt = split ? PTX_E_F32 : c->d; /* slices store raw fp32 partial sums */
  int ds = ptx_elem_size(dt), cs = ptx_elem_size(c->c);
  ptx_epi e;
  ptx_epi_begin(b, c, &e, k->m, k->z);
  if (!split) e.amax = ptx_epi_amax_begin(b, c); /* split: the reduction stores D */
  ptx_reg dbase = e.d_base, ldd_bytes = e.ldd_bytes;
  if (split) {
    /* Slice z's partial sums: rows of n fp32 at workspace + z * m * n; C is not read here. */
    ptx_reg mn = reg64(k), z64 = reg64(k);
    dbase = reg64(k);
    ldd_bytes = ptx_epi_row_bytes(b, k->n, ds); /* n * 4 may pass 2^32 */
    ptx_ins(b, "ld.param.u64 %R, [p_work]", dbase);
    ptx_ins(b, "cvta.to.global.u64 %R, %R", dbase, dbase);
    ptx_ins(b, "cvt.u64.u32 %R, %R", mn, k->m);
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", mn, mn, ldd_bytes);
    ptx_ins(b, "cvt.u64.u32 %R, %R", z64, k->slice);
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", dbase, z64, mn, dbase);
  }
  /* This thread's first column and first row (mma C fragment: row gid, columns 2*tig, +1). */
  int swiglu = tcj_cfg_swiglu(c), nf_step = swiglu ? 2 : 1;
  ptx_reg col0 = reg32(k), row0 = reg32(k), t = reg32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", col0, warp_n, k->wn / nf_step, k->n0);
  ptx_ins(b, "mad.lo.u32 %R, %R, 2, %R", col0, k->tig, col0);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", row0, warp_m, k->wm, k->m0);
  ptx_ins(b, "add.u32 %R, %R, %R", row0, row0, k->gid);
  /* A generic kernel's class promises vec_c divides its run-time n (tcj_cfg_check, select), so
   * pairs of columns (of D, or of a split's dense workspace rows) need an even vec_c there. */
  int n_even = c->generic ? c->vec_c % 2 == 0 : c->n % 2 == 0;
  int n_edge = c->generic || c->n % tcj_cfg_tile_cols(c) != 0, pair = (c->vec_c == 2 || split) && n_even;
  for (int g = 0; g < k->op[0].blocks; g++)
    for (int h = 0; h < 2; h++) {
      ptx_reg row = reg32(k), row_ok = ptx_new(b, PTX_PRED), r64 = reg64(k), dptr = reg64(k), cptr = reg64(k);
      ptx_reg col64 = reg64(k);
      ptx_ins(b, "add.u32 %R, %R, %d", row, row0, g * 16 + 8 * h);
      ptx_ins(b, "setp.lt.u32 %R, %R, %R", row_ok, row, k->m);
      /* D's row: the problem's, or where a scatter config adds it (row_ok then also says the
       * index is in D). C and every per-row value stay at the problem's row. */
      ptx_reg drow = split ? row : ptx_epi_d_row(b, &e, row, &row_ok), d64 = r64;
      ptx_ins(b, "cvt.u64.u32 %R, %R", r64, row);
      ptx_ins(b, "cvt.u64.u32 %R, %R", col64, col0);
      if (drow.id != row.id) {
        d64 = reg64(k);
        ptx_ins(b, "cvt.u64.u32 %R, %R", d64, drow);
      }
      ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", dptr, d64, ldd_bytes, dbase);
      ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", dptr, col64, ds, dptr);
      if (!split) {
        ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", cptr, r64, e.ldc_bytes, e.c_base);
        ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", cptr, col64, cs, cptr);
      }
      for (int nf = 0; nf < k->ni; nf += nf_step) {
        int skip = cluster ? ptx_new_label(b) : 0, dcol = nf / nf_step * 8; /* the fragment's first column of D */
        if (cluster) { /* another CTA of the cluster stores this unit */
          ptx_reg other = ptx_new(b, PTX_PRED);
          ptx_ins(b, "setp.ne.u32 %R, %R, %d", other, k->rank, pair_unit(k, g, h, nf) % k->slices);
          ptx_ins_if(b, other, 0, "bra.uni %L", skip);
        }
        ptx_reg ok[2];
        for (int x = 0; x < 2; x++) {
          ok[x] = row_ok;
          if (n_edge && !(pair && x == 1)) {
            ok[x] = ptx_new(b, PTX_PRED);
            ptx_ins(b, "add.u32 %R, %R, %d", t, col0, dcol + x);
            ptx_ins(b, "setp.lt.and.u32 %R, %R, %V, %R", ok[x], t, e.n, row_ok);
          }
        }
        /* Two adjacent columns: one vector access when C's and D's rows allow it, else one each. */
        int per = pair ? 2 : 1;
        for (int x0 = 0; x0 < 2; x0 += per) {
          ptx_reg v[2];
          for (int x = 0; x < per; x++) v[x] = k->acc[g][nf][2 * h + x0 + x];
          if (swiglu) { /* C is never read (tcj_cfg_check) */
            ptx_reg up[2], bg[2], bu[2], col = reg32(k);
            for (int x = 0; x < per; x++) up[x] = k->acc[g][nf + 1][2 * h + x0 + x];
            ptx_ins(b, "add.u32 %R, %R, %d", col, col0, dcol + x0);
            ptx_epi_swiglu_bias(b, &e, col, per, bg, bu);
            ptx_epi_swiglu(b, &e, v, up, per, c->bias ? bg : NULL, c->bias ? bu : NULL);
          } else if (!split) {
            ptx_reg ld_ok = ptx_new(b, PTX_PRED), cin[2], col = reg32(k);
            ptx_ins(b, "and.pred %R, %R, %R", ld_ok, ok[x0], e.has_beta);
            ptx_epi_load(b, c->c, cptr, (dcol + x0) * cs, ld_ok, per, cin);
            ptx_ins(b, "add.u32 %R, %R, %d", col, col0, dcol + x0);
            ptx_epi_apply(b, &e, v, cin, per, row, col);
          }
          if (split) ptx_epi_store(b, dt, dptr, (dcol + x0) * ds, ok[x0], per, v);
          else ptx_epi_store_d(b, &e, dptr, (dcol + x0) * ds, ok[x0], per, v);
        }
        if (cluster) ptx_label(b, skip);
      }
    }
  ptx_epi_amax_flush(b, e.amax); /* every thread of the CTA is here: no branch skips the epilogue */
}
