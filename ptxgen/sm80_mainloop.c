/* SPDX-License-Identifier: Apache-2.0 */
/* The sm80 recipe's mainloop (sm80_kernel.h): fragments from shared memory (ldmatrix, or
 * element by element for MN-major tf32/s8), mma.sync per K step (3xTF32's three products), and
 * the multistage cp.async ring that feeds them. */
#include "ptx_layout.h"
#include "ptx_ops.h"
#include "sm80_kernel.h"

/* ---- mainloop: fragments from shared memory, mma ---- */

/* Fragments of one operand for K step kk: A: blocks x 4 registers; B: 2*blocks n8 fragments x 2. */
static void emit_fragments(kernel *k, operand *o, ptx_reg stage, int kk, ptx_reg *frag) {
  ptx_builder *b = k->b;
  if (o->k_major || k->es == 2) {
    int pb = ptx_panel_bytes(o->row_bytes);
    for (int g = 0; g < o->blocks; g++) {
      ptx_reg addr = reg32(k);
      int imm = o->smem_off;
      if (o->k_major) {
        ptx_ins(b, "add.u32 %R, %R, %R", addr, stage, o->frag_off[kk]);
        imm += g * 16 * o->row_bytes;
      } else if (o->kk_offsets) {
        ptx_ins(b, "add.u32 %R, %R, %R", addr, stage, o->frag_off[g * k->kk_count + kk]);
      } else {
        ptx_ins(b, "add.u32 %R, %R, %R", addr, stage, o->frag_off[g]);
        imm += kk * 16 * pb;
      }
      ptx_ldmatrix_x4(b, !o->k_major, frag + 4 * g, addr, imm);
    }
    return;
  }
  /* MN-major tf32 / s8: ldmatrix.trans moves 16-bit elements only, so gather each element of
   * the fragment with a scalar shared load (the slow path of these layouts). */
  int epr = 4 / k->es, regs = o->is_b ? 2 : 4, frags = o->is_b ? 2 * o->blocks : o->blocks;
  for (int f = 0; f < frags; f++)
    for (int r = 0; r < regs; r++) {
      ptx_reg out = frag[f * (o->is_b ? 2 : 4) + r];
      for (int e = 0; e < epr; e++) {
        /* Lane-independent part of the coordinate from the layout algebra at lane 0. */
        ptx_coord c0 = o->is_b ? ptx_mma_b_coord(k->cfg->ab, 0, r, e) : ptx_mma_a_coord(k->cfg->ab, 0, r, e);
        int k_in = o->is_b ? c0.row : c0.col, mn_in = o->is_b ? c0.col : c0.row;
        ptx_reg row = reg32(k), bc = reg32(k), addr = reg32(k), v = reg32(k);
        /* k = kk*(32/es) + tig*(4/es) + k_in; mn = warp_base + f*(A:16, B:8) + gid + mn_in */
        ptx_ins(b, "mad.lo.u32 %R, %R, %d, %d", row, k->tig, epr, kk * PTX_MMA_K_BYTES / k->es + k_in);
        ptx_ins(b, "add.u32 %R, %R, %R", bc, o->warp_base, k->gid);
        ptx_ins(b, "add.u32 %R, %R, %d", bc, bc, f * (o->is_b ? 8 : 16) + mn_in);
        ptx_ins(b, "mul.lo.u32 %R, %R, %d", bc, bc, k->es);
        ptx_reg off = sm80_swizzle(k, row, bc, o->rows, o->row_bytes);
        ptx_ins(b, "add.u32 %R, %R, %R", addr, stage, off);
        if (epr == 1) {
          ptx_ld(b, PTX_SHARED, 4, out, addr, o->smem_off);
        } else {
          ptx_ld(b, PTX_SHARED, 1, v, addr, o->smem_off);
          if (e == 0)
            ptx_ins(b, "mov.b32 %R, %R", out, v);
          else
            ptx_ins(b, "bfi.b32 %R, %R, %R, %d, 8", out, v, out, 8 * e);
        }
      }
    }
}

/* Fragment registers of one K step: A (blocks x 4) and B (n8 fragments x 2). The mainloop
 * keeps two sets and loads step kk+1 into one while the mma of step kk reads the other. */
typedef struct frags {
  ptx_reg a[MAX_FRAG_BLOCKS * 4], b[MAX_N_FRAGS * 2];
} frags;

static void alloc_frags(kernel *k, frags *f) {
  for (int i = 0; i < k->op[0].blocks * 4; i++) f->a[i] = reg32(k);
  for (int i = 0; i < k->ni * 2; i++) f->b[i] = reg32(k);
}

static void emit_load_frags(kernel *k, ptx_reg stage, int kk, frags *f) {
  emit_fragments(k, &k->op[0], stage, kk, f->a);
  emit_fragments(k, &k->op[1], stage, kk, f->b);
}

/* 3xTF32 (tcj_kernel_cfg.tf32x3): the mma accumulate into partial sums (part), which are added
 * into the fp32 accumulators with add.f32, rounding to nearest, and restarted from zero after
 * the third K tile of each chunk (the split pass puts a chunk's three products in three K
 * tiles: split_tf32.c), and once more after the loop. The tensor cores' own addition truncates:
 * accumulating all of K in them drifts far past fp32's error on positive data, while adding
 * every mma (8 K) into the accumulators made so many roundings that K = 65536 ended 3.8x off
 * cublasSgemm's error (test_accuracy_gpu, H100). k->chunk_pos: this tile's place in its chunk. */
static void emit_mma_step(kernel *k, const frags *f, int kk) {
  ptx_builder *b = k->b;
  int x3 = k->cfg->tf32x3;
  for (int g = 0; g < k->op[0].blocks; g++)
    for (int nf = 0; nf < k->ni; nf++) {
      const ptx_reg *d = x3 ? k->part[g][nf] : k->acc[g][nf];
      ptx_mma_sync(b, k->cfg->ab, tcj_cfg_b_type(k->cfg), d, f->a + 4 * g, f->b + 2 * nf, d);
    }
  if (!x3 || kk != k->kk_count - 1) return;
  ptx_reg now = ptx_new(b, PTX_PRED);
  ptx_ins(b, "setp.eq.u32 %R, %R, 2", now, k->chunk_pos);
  for (int g = 0; g < k->op[0].blocks; g++)
    for (int nf = 0; nf < k->ni; nf++)
      for (int r = 0; r < 4; r++) {
        ptx_ins_if(b, now, 0, "add.f32 %R, %R, %R", k->acc[g][nf][r], k->acc[g][nf][r], k->part[g][nf][r]);
        ptx_ins_if(b, now, 0, "mov.f32 %R, 0f00000000", k->part[g][nf][r]);
      }
  ptx_ins(b, "add.u32 %R, %R, 1", k->chunk_pos, k->chunk_pos);
  ptx_ins(b, "selp.b32 %R, 0, %R, %R", k->chunk_pos, k->chunk_pos, now);
}

/* 3xTF32: the partial sums of the last chunk, which the loop leaves unadded when K ends
 * inside a chunk (a slice's end, or tiles of zeros past k). */
static void emit_x3_flush(kernel *k) {
  for (int g = 0; g < k->op[0].blocks; g++)
    for (int nf = 0; nf < k->ni; nf++)
      for (int r = 0; r < 4; r++)
        ptx_ins(k->b, "add.f32 %R, %R, %R", k->acc[g][nf][r], k->acc[g][nf][r], k->part[g][nf][r]);
}

static void emit_advance_stage(kernel *k, ptx_reg stage) {
  ptx_builder *b = k->b;
  ptx_reg end = ptx_new(b, PTX_PRED);
  ptx_ins(b, "add.u32 %R, %R, %d", stage, stage, k->stage_bytes);
  ptx_ins(b, "setp.eq.u32 %R, %R, %d", end, stage, k->stage_bytes * k->cfg->stages);
  ptx_ins(b, "selp.b32 %R, 0, %R, %R", stage, stage, end);
}

/* The multistage loop. Global loads run stages-1 tiles ahead of the math; within a tile the
 * fragments of step kk+1 are read while step kk's mma run, and the first step of the next
 * tile is read right after the barrier that publishes it, before the last mma of this tile. */
void sm80_mainloop(kernel *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int s = c->stages, kk_n = k->kk_count;
  ptx_reg_class acc_cls = ptx_mma_acc_class(c->ab);
  for (int g = 0; g < k->op[0].blocks; g++)
    for (int nf = 0; nf < k->ni; nf++)
      for (int r = 0; r < 4; r++) {
        k->acc[g][nf][r] = ptx_new(b, acc_cls);
        ptx_ins(b, acc_cls == PTX_F32 ? "mov.f32 %R, 0f00000000" : "mov.b32 %R, 0", k->acc[g][nf][r]);
      }
  if (c->tf32x3) {
    for (int g = 0; g < k->op[0].blocks; g++)
      for (int nf = 0; nf < k->ni; nf++)
        for (int r = 0; r < 4; r++) {
          k->part[g][nf][r] = ptx_new(b, PTX_F32);
          ptx_ins(b, "mov.f32 %R, 0f00000000", k->part[g][nf][r]);
        }
    /* The first K tile's place in its chunk of three: the slice's first tile modulo 3 (kbase is
     * its first K element until the loads below advance it). */
    k->chunk_pos = reg32(k);
    ptx_ins(b, "div.u32 %R, %R, %d", k->chunk_pos, k->kbase, c->bk);
    ptx_ins(b, "rem.u32 %R, %R, 3", k->chunk_pos, k->chunk_pos);
  }
  /* k == 0: C = beta * C. A generic kernel branches around the loop at run time. */
  if (!k->kt_count.reg.id && k->kt_count.imm == 0) return;
  int no_k = k->kt_count.reg.id ? ptx_new_label(b) : 0;
  if (no_k) {
    ptx_reg none = ptx_new(b, PTX_PRED);
    ptx_ins(b, "setp.eq.u32 %R, %V, 0", none, k->kt_count);
    ptx_ins_if(b, none, 0, "bra.uni %L", no_k);
  }

  /* Stage registers hold byte offsets from tcj_smem. */
  ptx_reg load_stage = reg32(k), comp_stage = reg32(k), kt = reg32(k), ls = reg32(k), cs = reg32(k);
  for (int t = 0; t < s - 1; t++) {
    if (k->kt_count.reg.id) { /* tile t exists if t < kt_count: predicated copies */
      ptx_reg exists = ptx_new(b, PTX_PRED);
      ptx_ins(b, "setp.lt.u32 %R, %d, %V", exists, t, k->kt_count);
      ptx_ins(b, "add.u32 %R, %R, %d", ls, k->smem, t * k->stage_bytes);
      sm80_load_tile(k, ls, exists);
    } else if (t < k->kt_count.imm) {
      ptx_ins(b, "add.u32 %R, %R, %d", ls, k->smem, t * k->stage_bytes);
      sm80_load_tile(k, ls, (ptx_reg){0, 0});
    }
    ptx_cp_async_commit(b);
  }
  ptx_ins(b, "mov.u32 %R, %d", load_stage, (s - 1) * k->stage_bytes);
  ptx_ins(b, "mov.u32 %R, 0", comp_stage);
  ptx_ins(b, "mov.u32 %R, 0", kt);
  /* Fragments gathered element by element (MN-major tf32/s8) need too many registers to hold
   * two sets: those kernels read each step's fragments just before its mma. */
  int ahead = k->op[0].k_major || k->es == 2 ? (k->op[1].k_major || k->es == 2) : 0;
  frags f[2];
  alloc_frags(k, &f[0]);
  if (ahead) alloc_frags(k, &f[1]);
  ptx_cp_async_wait(b, s - 2);
  ptx_bar_sync(b);
  ptx_ins(b, "mov.u32 %R, %R", cs, k->smem);
  if (ahead) emit_load_frags(k, cs, 0, &f[0]);

  int loop = ptx_new_label(b);
  ptx_label(b, loop);
  for (int kk = 0; kk < kk_n; kk++) {
    frags *use = ahead ? &f[kk % 2] : &f[0];
    if (!ahead) emit_load_frags(k, cs, kk, use);
    if (kk == kk_n - 1) {
      /* Tile kt+1 is complete once at most stages-2 groups are pending; the barrier also
       * tells every warp that tile kt's stage has been read, so it can be refilled. On the
       * last iteration the fragments read here are never used. */
      emit_advance_stage(k, comp_stage);
      ptx_cp_async_wait(b, s - 2);
      ptx_bar_sync(b);
      ptx_ins(b, "add.u32 %R, %R, %R", cs, k->smem, comp_stage);
      if (ahead) emit_load_frags(k, cs, 0, &f[(kk + 1) % 2]);
    } else if (ahead) {
      emit_load_frags(k, cs, kk + 1, &f[(kk + 1) % 2]);
    }
    if (kk == 0) {
      if (k->kt_count.reg.id || k->kt_count.imm > s - 1) { /* else the prologue loaded every tile */
        /* Refill the stage read in the previous iteration (the barrier there retired it).
         * Predicated, not branched around: the loop body stays one basic block, so ptxas
         * can interleave these copies with the ldmatrix/mma stream. */
        ptx_reg more = ptx_new(b, PTX_PRED);
        if (k->kt_count.reg.id) { /* kt + stages - 1 < kt_count, which cannot wrap */
          ptx_reg ahead_kt = reg32(k);
          ptx_ins(b, "add.u32 %R, %R, %d", ahead_kt, kt, s - 1);
          ptx_ins(b, "setp.lt.u32 %R, %R, %V", more, ahead_kt, k->kt_count);
        } else {
          ptx_ins(b, "setp.lt.u32 %R, %R, %d", more, kt, (int)k->kt_count.imm - (s - 1));
        }
        ptx_ins(b, "add.u32 %R, %R, %R", ls, k->smem, load_stage);
        sm80_load_tile(k, ls, more);
      }
      ptx_cp_async_commit(b);
      emit_advance_stage(k, load_stage);
    }
    emit_mma_step(k, use, kk);
  }
  ptx_ins(b, "add.u32 %R, %R, 1", kt, kt);
  ptx_reg again = ptx_new(b, PTX_PRED);
  ptx_ins(b, "setp.lt.u32 %R, %R, %V", again, kt, k->kt_count);
  ptx_ins_if(b, again, 0, "bra.uni %L", loop);
  if (c->tf32x3) emit_x3_flush(k);
  if (no_k) ptx_label(b, no_k);
}
