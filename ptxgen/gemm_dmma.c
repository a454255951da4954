/* SPDX-License-Identifier: Apache-2.0 */
/* The dmma recipe: fp64 GEMM on the tensor cores' f64 mma.sync (every arch from sm_80; the
 * shape by arch: ptx_dmma_shape_for). A multistage cp.async ring as in the sm80 recipe, each
 * operand tile kept in shared memory as it lies in global memory (K-major or MN-major), rows
 * padded so that the fragment loads (one ld.shared.f64 per element: ldmatrix moves 16-bit
 * elements only) are free of bank conflicts, fp64 accumulators, and an epilogue that computes
 * D = alpha * acc + beta * C in fp64. A generic config (tcj_kernel_cfg.generic) reads n and k
 * from p_n and p_k: its raster, K loop and edges are run-time values (every copy and store is
 * predicated in either form). No split-K or fused epilogue (tcj_cfg_check refuses them).
 * Kernel ABI: PTX_GEMM_PARAMS, launched as PTX_GEMM_ENTRY of the sm80 recipe. */
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "epilogue.h"
#include "ptx_mem.h"
#include "ptx_ops.h"
#include "recipes.h"

enum {
  ROW_PAD = TCJ_DMMA_ROW_PAD,
  MAX_MI = 8, MAX_NI = 8, MAX_A_REGS = 8, MAX_B_REGS = 4, MAX_C_REGS = 4,
  GROUP_M = 8, /* tile rows of the grouped raster */
};

/* One operand's tile in shared memory and its copies (the stored matrix's rows and columns). */
typedef struct operand {
  int is_b, k_major;
  int rows, row_bytes, pitch; /* tile rows, bytes of data per row, bytes between rows */
  int width, per_row, copies;  /* bytes per cp.async, copies per row, copies per thread */
  int smem_off;                /* from the stage's start */
  ptx_reg base, ld_bytes, frag_base;
} operand;

typedef struct kernel {
  ptx_builder *b;
  const tcj_kernel_cfg *cfg;
  ptx_dmma_shape sh;
  int threads, wtm, wtn, mi, ni, k_steps, stage_bytes;
  /* n, k and the K tiles: baked, or registers from p_n and p_k in a generic kernel; n_end[e]:
   * the bound of the epilogue's column col0 + e, n - e. */
  ptx_val n, kdim, kt, n_end[2];
  ptx_reg tid, g, t, m, smem, m0, n0, z, warp_m, warp_n;
  operand op[2];
  ptx_reg acc[MAX_MI][MAX_NI][MAX_C_REGS];
} kernel;

static ptx_reg r32(kernel *k) { return ptx_new(k->b, PTX_B32); }
static ptx_reg r64(kernel *k) { return ptx_new(k->b, PTX_B64); }
static int log2i(int x) {
  int l = 0;
  while ((1 << l) < x) l++;
  return l;
}

/* Stored shapes: A is m x k (op N: K-major) or k x m; B is k x n (op N: MN-major) or n x k. */
static void operand_layout(kernel *k, operand *o, int is_b) {
  const tcj_kernel_cfg *c = k->cfg;
  o->is_b = is_b;
  o->k_major = is_b ? c->op_b_t : !c->op_a_t;
  int mn = is_b ? c->bn : c->bm;
  o->rows = o->k_major ? mn : c->bk;
  o->row_bytes = (o->k_major ? c->bk : mn) * 8;
  o->pitch = o->row_bytes + ROW_PAD;
  o->width = is_b ? c->align_b : c->align_a;
  o->per_row = o->row_bytes / o->width;
  o->copies = o->rows * o->per_row / k->threads;
  o->smem_off = is_b ? k->op[0].rows * k->op[0].pitch : 0;
}

static void emit_setup(kernel *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  k->tid = r32(k);
  k->g = r32(k);
  k->t = r32(k);
  k->m = r32(k);
  k->smem = r32(k);
  ptx_reg lane = r32(k), warp = r32(k);
  ptx_ins(b, "mov.u32 %R, %%tid.x", k->tid);
  ptx_ins(b, "and.b32 %R, %R, 31", lane, k->tid);
  ptx_ins(b, "shr.u32 %R, %R, 2", k->g, lane);
  ptx_ins(b, "and.b32 %R, %R, 3", k->t, lane);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, k->tid);
  k->warp_m = r32(k);
  k->warp_n = r32(k);
  ptx_ins(b, "and.b32 %R, %R, %d", k->warp_m, warp, c->warps_m - 1);
  ptx_ins(b, "shr.u32 %R, %R, %d", k->warp_n, warp, log2i(c->warps_m));
  ptx_ins(b, "ld.param.u32 %R, [p_m]", k->m);
  ptx_ins(b, "mov.u32 %R, tcj_smem", k->smem);
  k->n = ptx_kernel_n(b, c);
  k->kdim = ptx_kernel_k(b, c);
  k->kt = ptx_imm((c->k + c->bk - 1) / c->bk);
  k->n_end[0] = k->n;
  k->n_end[1] = ptx_imm(c->n - 1);
  ptx_val tiles_n = ptx_imm((c->n + c->bn - 1) / c->bn);
  if (c->generic) { /* K tiles ceil(k / bk), tile columns ceil(n / bn); n >= 1 at launch */
    k->kt = ptx_in_reg(r32(k));
    ptx_ins(b, "add.u32 %V, %V, %d", k->kt, k->kdim, c->bk - 1);
    ptx_ins(b, "shr.u32 %V, %V, %d", k->kt, k->kt, log2i(c->bk));
    tiles_n = ptx_in_reg(r32(k));
    ptx_ins(b, "add.u32 %V, %V, %d", tiles_n, k->n, c->bn - 1);
    ptx_ins(b, "shr.u32 %V, %V, %d", tiles_n, tiles_n, log2i(c->bn));
    k->n_end[1] = ptx_in_reg(r32(k));
    ptx_ins(b, "sub.u32 %V, %V, 1", k->n_end[1], k->n);
  }
  /* Tile (tm, tn) of entry z: ctaid.x = z * tiles + tile, tiles in grouped order. */
  ptx_reg pid = r32(k), tiles_m = r32(k), tm = r32(k), tn = r32(k);
  ptx_ins(b, "mov.u32 %R, %%ctaid.x", pid);
  ptx_ins(b, "add.u32 %R, %R, %d", tiles_m, k->m, c->bm - 1);
  ptx_ins(b, "shr.u32 %R, %R, %d", tiles_m, tiles_m, log2i(c->bm));
  if (c->batched) {
    ptx_reg tiles = r32(k);
    k->z = r32(k);
    ptx_ins(b, "mul.lo.u32 %R, %R, %V", tiles, tiles_m, tiles_n);
    ptx_ins(b, "div.u32 %R, %R, %R", k->z, pid, tiles);
    ptx_ins(b, "rem.u32 %R, %R, %R", pid, pid, tiles);
  }
  ptx_emit_grouped_raster(b, pid, tiles_m, tiles_n, GROUP_M, tm, tn);
  k->m0 = r32(k);
  k->n0 = r32(k);
  ptx_ins(b, "shl.b32 %R, %R, %d", k->m0, tm, log2i(c->bm));
  ptx_ins(b, "shl.b32 %R, %R, %d", k->n0, tn, log2i(c->bn));
}

/* An operand's base (this batch entry's) and row pitch in bytes, and the lane's fragment
 * offset in its tile: (g, t) of the first fragment element, in the tile's own layout. */
static void emit_operand(kernel *k, operand *o, const char *ptr, const char *ld, const char *stride) {
  ptx_builder *b = k->b;
  ptx_reg raw = r64(k), ldv = r64(k);
  o->base = r64(k);
  o->ld_bytes = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [%s]", raw, ptr);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", o->base, raw);
  ptx_ins(b, "ld.param.u64 %R, [%s]", ldv, ld);
  ptx_ins(b, "shl.b64 %R, %R, 3", o->ld_bytes, ldv);
  if (k->cfg->batched) {
    ptx_reg st = r64(k), z64 = r64(k);
    ptx_ins(b, "ld.param.u64 %R, [%s]", st, stride);
    ptx_ins(b, "cvt.u64.u32 %R, %R", z64, k->z);
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", st, st, z64);
    ptx_ins(b, "mad.lo.u64 %R, %R, 8, %R", o->base, st, o->base);
  }
  /* The warp's first row or column of the operand, plus the lane's (g: m or n, t: k). */
  ptx_reg mn = r32(k), off = r32(k), kk = r32(k);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", mn, o->is_b ? k->warp_n : k->warp_m, o->is_b ? k->wtn : k->wtm);
  ptx_ins(b, "add.u32 %R, %R, %R", mn, mn, k->g);
  ptx_ins(b, "mov.u32 %R, %R", kk, k->t);
  o->frag_base = r32(k);
  if (o->k_major) { /* mn * pitch + k * 8 */
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", off, mn, o->pitch);
    ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", o->frag_base, kk, off);
  } else { /* k * pitch + mn * 8 */
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", off, kk, o->pitch);
    ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", o->frag_base, mn, off);
  }
  ptx_ins(b, "add.u32 %R, %R, %d", o->frag_base, o->frag_base, o->smem_off);
}

/* cp.async of K tile kt (a register) of one operand into the stage at smem offset stage,
 * zero-filling what lies past m, n or k. Copy q = tid + i * threads is stored row q / per_row,
 * bytes (q % per_row) * width of the tile. */
static void emit_load_operand(kernel *k, operand *o, ptx_reg kt, ptx_reg stage, ptx_reg guard) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_reg k0 = r32(k);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", k0, kt, c->bk);
  ptx_reg mn0 = o->is_b ? k->n0 : k->m0;
  for (int i = 0; i < o->copies; i++) {
    ptx_reg q = r32(k), r = r32(k), col = r32(k), grow = r32(k), gcol = r32(k);
    ptx_reg rows_ok = ptx_new(b, PTX_PRED), left = r32(k), bytes = r32(k);
    ptx_ins(b, "add.u32 %R, %R, %d", q, k->tid, i * k->threads);
    ptx_ins(b, "shr.u32 %R, %R, %d", r, q, log2i(o->per_row));
    ptx_ins(b, "and.b32 %R, %R, %d", col, q, o->per_row - 1);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", col, col, o->width / 8); /* elements */
    /* Stored (row, column) in the matrix and the bounds they meet. */
    ptx_ins(b, "add.u32 %R, %R, %R", grow, r, o->k_major ? mn0 : k0);
    ptx_ins(b, "add.u32 %R, %R, %R", gcol, col, o->k_major ? k0 : mn0);
    ptx_val row_end = o->k_major ? (o->is_b ? k->n : ptx_in_reg(k->m)) : k->kdim;
    ptx_val col_end = o->k_major ? k->kdim : (o->is_b ? k->n : ptx_in_reg(k->m));
    ptx_ins(b, "setp.lt.u32 %R, %R, %V", rows_ok, grow, row_end);
    ptx_ins(b, "sub.s32 %R, %V, %R", left, col_end, gcol);
    ptx_ins(b, "max.s32 %R, %R, 0", left, left);
    ptx_ins(b, "shl.b32 %R, %R, 3", bytes, left);
    ptx_ins(b, "min.u32 %R, %R, %d", bytes, bytes, o->width);
    ptx_ins(b, "selp.b32 %R, %R, 0, %R", bytes, bytes, rows_ok);
    /* A clipped copy reads nothing; its address stays the operand's base. */
    ptx_reg src = r64(k), row64 = r64(k), none = ptx_new(b, PTX_PRED);
    ptx_ins(b, "cvt.u64.u32 %R, %R", row64, grow);
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", src, row64, o->ld_bytes, o->base);
    ptx_ins(b, "mad.wide.u32 %R, %R, 8, %R", src, gcol, src);
    ptx_ins(b, "setp.eq.u32 %R, %R, 0", none, bytes);
    ptx_ins(b, "selp.b64 %R, %R, %R, %R", src, o->base, src, none);
    ptx_reg dst = r32(k);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", dst, r, o->pitch, stage);
    ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", dst, col, dst);
    ptx_cp_async(b, guard, o->width, dst, o->smem_off, src, bytes);
  }
}

static void emit_load_tile(kernel *k, ptx_reg kt, ptx_reg stage, ptx_reg guard) {
  emit_load_operand(k, &k->op[0], kt, stage, guard);
  emit_load_operand(k, &k->op[1], kt, stage, guard);
}

/* Fragments of K step s (of k_steps per tile) from the stage at offset stage: A for each of the
 * warp's mi m-blocks, B for each of its ni n8 blocks (ptx_layout.h's maps, whose lane part is
 * frag_base). */
static void emit_fragments(kernel *k, ptx_reg stage, int s, ptx_reg a[][MAX_A_REGS], ptx_reg bf[][MAX_B_REGS]) {
  ptx_builder *b = k->b;
  ptx_dmma_shape sh = k->sh;
  for (int x = 0; x < 2; x++) {
    operand *o = &k->op[x];
    ptx_reg addr = r32(k);
    ptx_ins(b, "add.u32 %R, %R, %R", addr, stage, o->frag_base);
    int blocks = x ? k->ni : k->mi, regs = x ? sh.k / 4 : sh.m * sh.k / 32;
    for (int j = 0; j < blocks; j++)
      for (int i = 0; i < regs; i++) {
        /* The element's (mn, k) offsets from the lane's own (g, t): lane 0's coordinates. */
        ptx_coord c0 = x ? ptx_dmma_b_coord(sh, 0, i) : ptx_dmma_a_coord(sh, 0, i);
        int mn = (x ? c0.col : c0.row) + j * (x ? 8 : sh.m), kk = (x ? c0.row : c0.col) + s * sh.k;
        int imm = o->k_major ? mn * o->pitch + kk * 8 : kk * o->pitch + mn * 8;
        ptx_reg *dst = x ? &bf[j][i] : &a[j][i];
        ptx_ins(b, "ld.shared.f64 %R, [%R+%d]", *dst, addr, imm);
      }
  }
}

static void emit_mainloop(kernel *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int s = c->stages;
  for (int i = 0; i < k->mi; i++)
    for (int j = 0; j < k->ni; j++)
      for (int r = 0; r < k->sh.m / 4; r++) {
        k->acc[i][j][r] = ptx_new(b, PTX_F64);
        ptx_ins(b, "mov.f64 %R, 0d0000000000000000", k->acc[i][j][r]);
      }
  /* k == 0: D = beta * C. A generic kernel branches around the loop at run time. */
  int run_time = k->kt.reg.id != 0;
  if (!run_time && k->kt.imm == 0) return;
  int no_k = run_time ? ptx_new_label(b) : 0;
  if (run_time) {
    ptx_reg none = ptx_new(b, PTX_PRED);
    ptx_ins(b, "setp.eq.u32 %R, %V, 0", none, k->kt);
    ptx_ins_if(b, none, 0, "bra.uni %L", no_k);
  }
  ptx_reg kt = r32(k), load_kt = r32(k), load_stage = r32(k), comp_stage = r32(k), exists = ptx_new(b, PTX_PRED);
  for (int t = 0; t < s - 1; t++) { /* the prologue fills stages 0 .. s - 2 (with the tiles k has) */
    ptx_ins(b, "mov.u32 %R, %d", load_kt, t);
    ptx_ins(b, "add.u32 %R, %R, %d", load_stage, k->smem, t * k->stage_bytes);
    if (run_time) {
      ptx_reg here = ptx_new(b, PTX_PRED);
      ptx_ins(b, "setp.lt.u32 %R, %R, %V", here, load_kt, k->kt);
      emit_load_tile(k, load_kt, load_stage, here);
    } else if (t < k->kt.imm) {
      emit_load_tile(k, load_kt, load_stage, (ptx_reg){0, 0});
    }
    ptx_cp_async_commit(b);
  }
  ptx_ins(b, "mov.u32 %R, 0", kt);
  ptx_ins(b, "mov.u32 %R, %d", load_stage, (s - 1) * k->stage_bytes);
  ptx_ins(b, "mov.u32 %R, 0", comp_stage);
  ptx_reg a[MAX_MI][MAX_A_REGS], bf[MAX_NI][MAX_B_REGS];
  for (int i = 0; i < k->mi; i++)
    for (int r = 0; r < k->sh.m * k->sh.k / 32; r++) a[i][r] = ptx_new(b, PTX_F64);
  for (int j = 0; j < k->ni; j++)
    for (int r = 0; r < k->sh.k / 4; r++) bf[j][r] = ptx_new(b, PTX_F64);
  int loop = ptx_new_label(b);
  ptx_label(b, loop);
  /* Tile kt has landed once at most s - 2 groups are pending; the barrier also says every warp
   * is done with the stage read last iteration, which the copies below refill. */
  ptx_cp_async_wait(b, s - 2);
  ptx_bar_sync(b);
  ptx_ins(b, "add.u32 %R, %R, %d", load_kt, kt, s - 1);
  ptx_ins(b, "setp.lt.u32 %R, %R, %V", exists, load_kt, k->kt);
  ptx_reg ls = r32(k), cs = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %R", ls, k->smem, load_stage);
  emit_load_tile(k, load_kt, ls, exists);
  ptx_cp_async_commit(b);
  ptx_ins(b, "add.u32 %R, %R, %R", cs, k->smem, comp_stage);
  for (int st = 0; st < k->k_steps; st++) {
    emit_fragments(k, cs, st, a, bf);
    for (int i = 0; i < k->mi; i++)
      for (int j = 0; j < k->ni; j++) ptx_dmma(b, k->sh, k->acc[i][j], a[i], bf[j], k->acc[i][j]);
  }
  /* Next stages, wrapping at s. */
  ptx_reg wrap = ptx_new(b, PTX_PRED);
  ptx_reg stages[2] = {load_stage, comp_stage};
  for (int x = 0; x < 2; x++) {
    ptx_ins(b, "add.u32 %R, %R, %d", stages[x], stages[x], k->stage_bytes);
    ptx_ins(b, "setp.eq.u32 %R, %R, %d", wrap, stages[x], s * k->stage_bytes);
    ptx_ins(b, "selp.b32 %R, 0, %R, %R", stages[x], stages[x], wrap);
  }
  ptx_reg again = ptx_new(b, PTX_PRED);
  ptx_ins(b, "add.u32 %R, %R, 1", kt, kt);
  ptx_ins(b, "setp.lt.u32 %R, %R, %V", again, kt, k->kt);
  ptx_ins_if(b, again, 0, "bra.uni %L", loop);
  ptx_cp_async_wait(b, 0);
  if (run_time) ptx_label(b, no_k);
}

/* A scalar: from its device pointer when one is given (a double), else the parameter. */
static ptx_reg emit_scalar(kernel *k, const char *ptr_param, const char *param) {
  ptx_builder *b = k->b;
  ptx_reg v = ptx_new(b, PTX_F64), p = r64(k), set = ptx_new(b, PTX_PRED);
  ptx_ins(b, "ld.param.f64 %R, [%s]", v, param);
  ptx_ins(b, "ld.param.u64 %R, [%s]", p, ptr_param);
  ptx_ins(b, "setp.ne.u64 %R, %R, 0", set, p);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", p, p);
  ptx_ins_if(b, set, 0, "ld.global.f64 %R, [%R]", v, p);
  return v;
}

/* A matrix of the epilogue (C or D): this entry's base and row pitch in bytes. */
static void emit_out_operand(kernel *k, const char *ptr, const char *ld, const char *stride, ptx_reg *base,
                             ptx_reg *ld_bytes) {
  ptx_builder *b = k->b;
  *base = r64(k);
  *ld_bytes = r64(k);
  ptx_reg ldv = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [%s]", *base, ptr);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", *base, *base);
  ptx_ins(b, "ld.param.u64 %R, [%s]", ldv, ld);
  ptx_ins(b, "shl.b64 %R, %R, 3", *ld_bytes, ldv);
  if (k->cfg->batched) {
    ptx_reg st = r64(k), z64 = r64(k);
    ptx_ins(b, "ld.param.u64 %R, [%s]", st, stride);
    ptx_ins(b, "cvt.u64.u32 %R, %R", z64, k->z);
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", st, st, z64);
    ptx_ins(b, "mad.lo.u64 %R, %R, 8, %R", *base, st, *base);
  }
}

/* D = alpha * acc + beta * C (C read only where beta != 0), each thread its fragments' pairs of
 * adjacent columns: one 16-byte store where vec_c is 2 (n even, 16-byte rows), else two. */
static void emit_epilogue(kernel *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_reg alpha = emit_scalar(k, "p_alpha_ptr", "p_alpha64"), beta = emit_scalar(k, "p_beta_ptr", "p_beta64");
  ptx_reg reads_c = ptx_new(b, PTX_PRED), alpha_zero = ptx_new(b, PTX_PRED);
  ptx_ins(b, "setp.ne.f64 %R, %R, 0d0000000000000000", reads_c, beta);
  /* alpha == 0: beta * C whatever the products hold (BLAS does not reference A and B then). */
  ptx_ins(b, "setp.eq.f64 %R, %R, 0d0000000000000000", alpha_zero, alpha);
  ptx_reg cbase, cld, dbase, dld;
  emit_out_operand(k, "p_c", "p_ldc", "p_stride_c", &cbase, &cld);
  emit_out_operand(k, "p_d", "p_ldd", "p_stride_d", &dbase, &dld);
  ptx_reg row0 = r32(k), col0 = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", row0, k->warp_m, k->wtm, k->m0);
  ptx_ins(b, "add.u32 %R, %R, %R", row0, row0, k->g);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", col0, k->warp_n, k->wtn, k->n0);
  ptx_ins(b, "mad.lo.u32 %R, %R, 2, %R", col0, k->t, col0);
  for (int i = 0; i < k->mi; i++)
    for (int h = 0; h < k->sh.m / 8; h++) { /* the fragment's rows g and g + 8 */
      ptx_reg row = r32(k), row_ok = ptx_new(b, PTX_PRED), row64 = r64(k), crow = r64(k), drow = r64(k);
      ptx_ins(b, "add.u32 %R, %R, %d", row, row0, i * k->sh.m + 8 * h);
      ptx_ins(b, "setp.lt.u32 %R, %R, %R", row_ok, row, k->m);
      ptx_ins(b, "cvt.u64.u32 %R, %R", row64, row);
      ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", crow, row64, cld, cbase);
      ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", drow, row64, dld, dbase);
      for (int j = 0; j < k->ni; j++) {
        ptx_reg col = r32(k), ca = r64(k), da = r64(k), v[2], ok[2];
        ptx_ins(b, "add.u32 %R, %R, %d", col, col0, j * 8);
        ptx_ins(b, "mad.wide.u32 %R, %R, 8, %R", ca, col, crow);
        ptx_ins(b, "mad.wide.u32 %R, %R, 8, %R", da, col, drow);
        for (int e = 0; e < 2; e++) {
          ok[e] = ptx_new(b, PTX_PRED);
          v[e] = ptx_new(b, PTX_F64);
          ptx_reg ce = ptx_new(b, PTX_F64), cv = ptx_new(b, PTX_PRED);
          ptx_ins(b, "setp.lt.and.u32 %R, %R, %V, %R", ok[e], col, k->n_end[e], row_ok);
          ptx_ins(b, "mul.rn.f64 %R, %R, %R", v[e], alpha, k->acc[i][j][2 * h + e]);
          ptx_ins(b, "selp.f64 %R, 0d0000000000000000, %R, %R", v[e], v[e], alpha_zero);
          ptx_ins(b, "and.pred %R, %R, %R", cv, ok[e], reads_c);
          ptx_vec_mem(b, cv, "ld.global", "f64", 1, &ce, ptx_at_plus(ca, 8 * e));
          ptx_ins_if(b, cv, 0, "fma.rn.f64 %R, %R, %R, %R", v[e], beta, ce, v[e]);
        }
        if (c->vec_c == 2) { /* n even: both columns in, or neither */
          ptx_vec_mem(b, ok[0], "st.global", "f64", 2, v, ptx_at(da));
        } else {
          ptx_vec_mem(b, ok[0], "st.global", "f64", 1, &v[0], ptx_at(da));
          ptx_vec_mem(b, ok[1], "st.global", "f64", 1, &v[1], ptx_at_plus(da, 8));
        }
      }
    }
}

int ptx_gen_gemm_dmma(ptx_builder *b, const tcj_kernel_cfg *cfg, char *err, size_t err_size) {
  kernel k;
  memset(&k, 0, sizeof k);
  k.b = b;
  k.cfg = cfg;
  k.sh = ptx_dmma_shape_for(cfg->sm);
  k.threads = tcj_cfg_warp_threads(cfg);
  k.wtm = cfg->bm / cfg->warps_m;
  k.wtn = cfg->bn / cfg->warps_n;
  k.mi = k.wtm / k.sh.m;
  k.ni = k.wtn / 8;
  k.k_steps = cfg->bk / k.sh.k;
  if (k.mi < 1 || k.mi > MAX_MI || k.ni < 1 || k.ni > MAX_NI || k.wtm % k.sh.m || k.k_steps < 1) {
    snprintf(err, err_size, "dmma: warp tile %dx%d does not fit m%dn8k%d blocks", k.wtm, k.wtn, k.sh.m, k.sh.k);
    return -1;
  }
  operand_layout(&k, &k.op[0], 0);
  operand_layout(&k, &k.op[1], 1);
  k.stage_bytes = k.op[0].rows * k.op[0].pitch + k.op[1].rows * k.op[1].pitch;
  ptx_entry_begin(b, PTX_GEMM_ENTRY);
  ptx_emit_gemm_params(b);
  ptx_entry_body(b, k.threads);
  emit_setup(&k);
  emit_operand(&k, &k.op[0], "p_a", "p_lda", "p_stride_a");
  emit_operand(&k, &k.op[1], "p_b", "p_ldb", "p_stride_b");
  emit_mainloop(&k);
  emit_epilogue(&k);
  ptx_ins(b, "ret");
  ptx_finish(b);
  return 0;
}
