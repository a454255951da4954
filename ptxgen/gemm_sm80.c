/* SPDX-License-Identifier: Apache-2.0 */
/* The sm80 recipe: multistage cp.async into XOR-swizzled shared memory, ldmatrix (.trans for
 * MN-major 16-bit operands) and mma.sync with fp32/s32 accumulators, then a predicated
 * epilogue straight from registers. Runs on every arch from sm_80 on (Hopper included).
 * Layout facts (fragment maps, ldmatrix lane addresses, swizzle) live in ptx_layout.c. This
 * file holds the kernel's order and its indices (the tile of a CTA, a K slice, a grouped
 * kernel's persistent loop); the operands' copies, the mainloop and the epilogue are in
 * sm80_operands.c, sm80_mainloop.c and sm80_epilogue.c (state: sm80_kernel.h). */
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "group_schedule.h"
#include "ptx_builder.h"
#include "ptx_layout.h"
#include "ptx_ops.h"
#include "ptxgen.h"
#include "recipes.h"
#include "sm80_kernel.h"

/* ---- prologue: indices, raster, operand setup ---- */

static void emit_params(kernel *k) {
  ptx_entry_begin(k->b, PTX_GEMM_ENTRY);
  ptx_emit_gemm_params(k->b);
  char extra[64] = "";
  /* A cluster split: the slices of a tile (grid y) form one cluster, so a plain launch groups them. */
  if (k->cfg->split_cluster) snprintf(extra, sizeof extra, ".reqnctapercluster 1, %d, 1\n", k->slices);
  ptx_entry_body_directives(k->b, k->threads, extra);
}

/* A grouped kernel's tile (group_schedule.c; tiles_n baked: grouped kernels are not generic).
 * The tile keeps the rows of the whole operand: a contiguous group's tile starts at row0 + tm *
 * bm with the row guard row0 + m_g (its end), which are the addresses and the guard of a tile
 * of an m_g-row GEMM whose A, C and D start at row0, and the user epilogue's row is the global
 * row of D as the spec asks; a masked group's (row0 = 0) starts at tm * bm in entry g (z = g,
 * the batched kernels' strides), guarded by m_g. k->m holds that guard. A K group's tile is tile
 * (tm, tn) of its own D (entry g of C and D) with all m rows; its K range (row0, rows) becomes
 * the mainloop's (ptx_gen_gemm_sm80). */
static void emit_group_indices(kernel *k, ptx_reg unit, int done, const ptx_group_scan *scan) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int64_t tiles_n = (c->n + tcj_cfg_tile_cols(c) - 1) / tcj_cfg_tile_cols(c);
  ptx_group_sched s = ptx_emit_group_schedule(b, c, unit, k->p_m, tiles_n, k->lane, done, scan);
  int by_k = ptx_group_k(c->grouped);
  k->z = s.g;
  k->m0 = reg32(k);
  k->n0 = reg32(k);
  ptx_ins(b, "shl.b32 %R, %R, %d", k->m0, s.tm, log2i(c->bm));
  if (by_k) {
    k->kstart = s.row0;
    k->kdepth = s.rows;
  } else {
    k->m = reg32(k);
    ptx_ins(b, "add.u32 %R, %R, %R", k->m, s.row0, s.rows);
    ptx_ins(b, "add.u32 %R, %R, %R", k->m0, k->m0, s.row0);
  }
  ptx_ins(b, "shl.b32 %R, %R, %d", k->n0, s.tn, log2i(tcj_cfg_tile_cols(c)));
}

static void emit_indices(kernel *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  k->tid = reg32(k);
  k->lane = reg32(k);
  k->gid = reg32(k);
  k->tig = reg32(k);
  k->m = reg32(k);
  k->smem = reg32(k);
  ptx_ins(b, "mov.u32 %R, %%tid.x", k->tid);
  ptx_ins(b, "and.b32 %R, %R, 31", k->lane, k->tid);
  ptx_ins(b, "shr.u32 %R, %R, 2", k->gid, k->lane);
  ptx_ins(b, "and.b32 %R, %R, 3", k->tig, k->lane);
  ptx_ins(b, "ld.param.u32 %R, [p_m]", k->m);
  k->p_m = k->m;
  ptx_ins(b, "mov.u32 %R, tcj_smem", k->smem);
  k->n = ptx_kernel_n(b, c);
  k->k = ptx_kernel_k(b, c);
  if (c->generic) { /* K tiles = ceil(k / bk) (a split takes its slice's share after) */
    k->kt_count = ptx_in_reg(reg32(k));
    ptx_ins(b, "add.u32 %V, %V, %d", k->kt_count, k->k, c->bk - 1);
    ptx_ins(b, "shr.u32 %V, %V, %d", k->kt_count, k->kt_count, log2i(c->bk));
  }

  /* Grouped raster over a 1-D grid: GROUP_M tile rows sweep all tile columns together. */
  int cols = tcj_cfg_tile_cols(c); /* of D */
  ptx_val tiles_n = ptx_imm((c->n + cols - 1) / cols);
  if (c->generic) {
    tiles_n = ptx_in_reg(reg32(k));
    ptx_ins(b, "add.u32 %V, %V, %d", tiles_n, k->n, cols - 1);
    ptx_ins(b, "shr.u32 %V, %V, %d", tiles_n, tiles_n, log2i(cols));
  }
  if (c->grouped) return; /* the persistent loop's units (ptx_gen_gemm_sm80) */
  ptx_reg pid = reg32(k), tiles_m = reg32(k), tm = reg32(k), tn = reg32(k);
  ptx_ins(b, "mov.u32 %R, %%ctaid.x", pid);
  ptx_ins(b, "add.u32 %R, %R, %d", tiles_m, k->m, c->bm - 1);
  ptx_ins(b, "shr.u32 %R, %R, %d", tiles_m, tiles_m, log2i(c->bm));
  if (c->batched) { /* ctaid.x = z * tiles + tile: the batch entries' grids side by side */
    ptx_reg tiles = reg32(k);
    k->z = reg32(k);
    ptx_ins(b, "mul.lo.u32 %R, %R, %V", tiles, tiles_m, tiles_n);
    ptx_ins(b, "div.u32 %R, %R, %R", k->z, pid, tiles);
    ptx_ins(b, "rem.u32 %R, %R, %R", pid, pid, tiles);
  }
  ptx_emit_grouped_raster(b, pid, tiles_m, tiles_n, GROUP_M, tm, tn);
  k->m0 = reg32(k);
  k->n0 = reg32(k);
  ptx_ins(b, "shl.b32 %R, %R, %d", k->m0, tm, log2i(c->bm));
  ptx_ins(b, "shl.b32 %R, %R, %d", k->n0, tn, log2i(cols));
}

/* A workspace split: slice z = ctaid.y of p_slices runs K tiles [z * per, min(kt, (z + 1) * per)),
 * per = ceil(kt / slices); a slice past K's last tile runs none (its partial sums are zeros).
 * kt_count becomes this slice's tiles and kbase its first K element. */
static void emit_slice_range(kernel *k) {
  ptx_builder *b = k->b;
  ptx_reg slices = k->slices_reg = reg32(k), per = reg32(k), first = reg32(k), left = reg32(k);
  k->slice = reg32(k);
  ptx_ins(b, "ld.param.u32 %R, [p_slices]", slices);
  ptx_ins(b, "mov.u32 %R, %%ctaid.y", k->slice);
  ptx_ins(b, "add.u32 %R, %V, %R", per, k->kt_count, slices);
  ptx_ins(b, "sub.u32 %R, %R, 1", per, per);
  ptx_ins(b, "div.u32 %R, %R, %R", per, per, slices);
  ptx_ins(b, "mul.lo.u32 %R, %R, %R", first, k->slice, per);
  ptx_ins(b, "sub.s32 %R, %V, %R", left, k->kt_count, first); /* K tiles < 2^31 */
  ptx_ins(b, "max.s32 %R, %R, 0", left, left);
  ptx_ins(b, "min.s32 %R, %R, %R", left, left, per);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", k->kbase, first, k->cfg->bk);
  k->kt_count = ptx_in_reg(left);
}

int ptx_gen_gemm_sm80(ptx_builder *b, const tcj_kernel_cfg *cfg, char *err, size_t err_size) {
  kernel k;
  memset(&k, 0, sizeof k);
  k.b = b;
  k.cfg = cfg;
  k.es = ptx_elem_size(cfg->ab);
  k.threads = tcj_cfg_warp_threads(cfg);
  k.slices = cfg->split_cluster ? tcj_cfg_slices(cfg) : 1;
  k.split_at_launch = tcj_cfg_splits_at_launch(cfg);
  k.split = tcj_cfg_split_workspace(cfg) || k.split_at_launch;
  k.kt_count = ptx_imm(cfg->split_cluster ? tcj_cfg_slice_tiles(cfg) : (cfg->k + cfg->bk - 1) / cfg->bk);
  k.kk_count = cfg->bk * k.es / PTX_MMA_K_BYTES;
  k.stage_bytes = (cfg->bm + cfg->bn) * cfg->bk * k.es;
  k.wm = cfg->bm / cfg->warps_m;
  k.wn = cfg->bn / cfg->warps_n;
  k.ni = k.wn / 8;
  if (k.wm / 16 > MAX_FRAG_BLOCKS || k.ni > MAX_N_FRAGS) {
    snprintf(err, err_size, "warp tile %dx%d too large", k.wm, k.wn);
    return -1;
  }

  emit_params(&k);
  emit_indices(&k);
  /* A grouped kernel is persistent: CTA i runs units i, i + grid, ... until the first without a
   * tile, so the grid is the CTAs that fit at once, whatever the groups' sizes (256 empty
   * groups: one scan per CTA). Each unit scans from group 0: carrying the scan's position
   * (ptx_group_scan, as the sm90 kernel does) kept two more registers live across the tile, and
   * a 128x256 masked tile with an f32 D, a bias and GELU spilled 16 bytes on sm_80 (ptxas 13.0). */
  int next_unit = -1, done = -1;
  ptx_reg unit = {0, 0}, unit_step = {0, 0};
  if (cfg->grouped) {
    unit = reg32(&k);
    unit_step = reg32(&k);
    next_unit = ptx_new_label(b);
    done = ptx_new_label(b);
    ptx_ins(b, "mov.u32 %R, %%ctaid.x", unit);
    ptx_ins(b, "mov.u32 %R, %%nctaid.x", unit_step);
    ptx_label(b, next_unit);
    emit_group_indices(&k, unit, done, NULL);
  }
  ptx_reg warp = reg32(&k), warp_m = reg32(&k), warp_n = reg32(&k);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, k.tid);
  ptx_ins(b, "and.b32 %R, %R, %d", warp_m, warp, cfg->warps_m - 1);
  ptx_ins(b, "shr.u32 %R, %R, %d", warp_n, warp, log2i(cfg->warps_m));
  sm80_operand_layout(&k, &k.op[0], 0);
  sm80_operand_layout(&k, &k.op[1], 1);
  k.kbase = reg32(&k);
  if (k.split) {
    emit_slice_range(&k);
  } else if (k.slices > 1) { /* slice z = ctaid.y runs K tiles [z * kt_count, (z + 1) * kt_count) */
    k.slice = reg32(&k);
    ptx_ins(b, "mov.u32 %R, %%ctaid.y", k.slice);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", k.kbase, k.slice, (int)k.kt_count.imm * cfg->bk);
  } else if (ptx_group_k(cfg->grouped)) { /* the group's K range: tiles from kstart, clipped at its end */
    ptx_reg kend = reg32(&k), tiles = reg32(&k);
    ptx_ins(b, "mov.u32 %R, %R", k.kbase, k.kstart);
    ptx_ins(b, "add.u32 %R, %R, %R", kend, k.kstart, k.kdepth);
    ptx_ins(b, "add.u32 %R, %R, %d", tiles, k.kdepth, cfg->bk - 1);
    ptx_ins(b, "shr.u32 %R, %R, %d", tiles, tiles, log2i(cfg->bk));
    k.k = ptx_in_reg(kend);
    k.kt_count = ptx_in_reg(tiles);
  } else {
    ptx_ins(b, "mov.u32 %R, 0", k.kbase);
  }
  sm80_operand_setup(&k, &k.op[0], "p_a", "p_lda", "p_stride_a", warp_m);
  sm80_operand_setup(&k, &k.op[1], "p_b", "p_ldb", "p_stride_b", warp_n);
  /* A refused operand leaves its copy tables unfilled: stop before the loops read them. */
  if (ptx_failed(b)) return 0;
  sm80_mainloop(&k);
  if (cfg->split_cluster) sm80_cluster_sum(&k);
  if (k.split_at_launch) { /* p_slices > 1: the slice's partial sums, else D (uniform branch) */
    ptx_reg whole = ptx_new(b, PTX_PRED);
    int to_d = ptx_new_label(b), done = ptx_new_label(b);
    ptx_ins(b, "setp.le.u32 %R, %R, 1", whole, k.slices_reg);
    ptx_ins_if(b, whole, 0, "bra.uni %L", to_d);
    sm80_epilogue(&k, warp_m, warp_n, 1);
    ptx_ins(b, "bra.uni %L", done);
    ptx_label(b, to_d);
    sm80_epilogue(&k, warp_m, warp_n, 0);
    ptx_label(b, done);
  } else {
    sm80_epilogue(&k, warp_m, warp_n, k.split);
  }
  if (cfg->split_cluster) ptx_ins(b, "barrier.cluster.wait.acquire.aligned");
  if (cfg->grouped) { /* the next unit refills the ring: every copy landed, every warp past its reads */
    ptx_ins(b, "cp.async.wait_all");
    ptx_bar_sync(b);
    ptx_ins(b, "add.u32 %R, %R, %R", unit, unit, unit_step);
    ptx_ins(b, "bra.uni %L", next_unit);
    ptx_label(b, done);
  }
  ptx_ins(b, "ret");
  ptx_finish(b);
  return 0;
}
