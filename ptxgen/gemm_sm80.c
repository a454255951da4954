/* SPDX-License-Identifier: Apache-2.0 */
/* The sm80 recipe: multistage cp.async into XOR-swizzled shared memory, ldmatrix (.trans for
 * MN-major 16-bit operands) and mma.sync with fp32/s32 accumulators, then a predicated
 * epilogue straight from registers. Runs on every arch from sm_80 on (Hopper included).
 * Layout facts (fragment maps, ldmatrix lane addresses, swizzle) live in ptx_layout.c; this
 * file only arranges them into prologue, mainloop and epilogue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "epilogue.h"
#include "group_schedule.h"
#include "ptx_builder.h"
#include "ptx_layout.h"
#include "ptx_ops.h"
#include "ptxgen.h"
#include "recipes.h"

enum {
  MAX_CHUNKS = 32,    /* cp.async per thread per operand per tile */
  MAX_FRAG_BLOCKS = 8, /* 16-row fragment blocks per warp and operand */
  MAX_N_FRAGS = 16,   /* n8 fragments per warp */
  GROUP_M = 8,        /* CTA raster: GROUP_M tile rows walk N together, for L2 reuse */
};

/* One operand (A or B) of the kernel: its shared-memory tile and how threads fill it. */
typedef struct operand {
  int is_b;
  int k_major;       /* K contiguous in global memory: A with op N, B with op T */
  int mn_tile;       /* bm or bn */
  int rows, row_bytes; /* shared tile: K-major rows = mn_tile; MN-major rows = bk */
  int width, cpr, chunks; /* cp.async bytes, chunks per row, chunks per thread */
  int smem_off;      /* offset of the tile inside a stage */
  int check_row, check_col; /* edge predication on rows / on columns of the stored tile */
  /* SwiGLU's B (tcj_cfg_swiglu): tile column block 2t (8 columns) holds gate columns n0 + 8t..
   * and block 2t + 1 up columns n + n0 + 8t..; mn_t is then the column within its half, and a
   * copy's offset along MN in the tile is half as far in its half of B. */
  int interleave;
  int warp_span;     /* rows of this operand one warp covers (WM or WN) */
  int blocks;        /* 16-row fragment blocks per warp: warp_span / 16 */
  ptx_reg base, ld_bytes, step, gptr, mn_t, k_t, mn_limit, warp_base;
  ptx_val n_limit;   /* B's limit (n): baked, or p_n in a generic kernel; A's (m) is mn_limit */
  ptx_reg dst[MAX_CHUNKS];
  ptx_reg frag_off[MAX_FRAG_BLOCKS];
  int kk_offsets;    /* MN-major: frag_off per (block, K step) rather than per block */
  /* Gathered A (tcj_kernel_cfg.gather): gptr is the tile's column in row 0 of A, and copy i
   * adds row_off[i], the bytes to A's row p_gather[r] of its problem row r, and copies at most
   * row_cap[i] bytes: the copy width where r lies in the group and the index in A, else 0
   * (zeros). Copies of one row share both. */
  int gather;
  ptx_reg row_off[MAX_CHUNKS], row_cap[MAX_CHUNKS];
} operand;

typedef struct kernel {
  ptx_builder *b;
  const tcj_kernel_cfg *cfg;
  int es, threads, kk_count, stage_bytes, wm, wn, ni;
  int slices;      /* a cluster split's slices (baked; 1: none); kt_count is then the tiles of one */
  int split;       /* a workspace split: p_slices slices (a launch value), kt_count a register */
  int split_at_launch; /* generic: p_slices may be 1, and then the epilogue stores D */
  /* K tiles (of a slice), n and k: baked, or registers from p_n and p_k in a generic kernel. */
  ptx_val kt_count, n, k;
  ptx_reg tid, lane, gid, tig, m, smem, m0, n0, kbase, slice;
  ptx_reg p_m; /* p_m; m is the row guard, a grouped tile's end of rows (emit_group_indices) */
  ptx_reg rank; /* cluster split: this CTA's rank in the tile's cluster */
  ptx_reg slices_reg; /* workspace split: p_slices */
  ptx_reg z; /* batch entry (batched configs) */
  ptx_reg kstart, kdepth; /* K groups: the group's first K index and its depth */
  operand op[2];
  ptx_reg acc[MAX_FRAG_BLOCKS][MAX_N_FRAGS][4];
  /* 3xTF32: the chunk's partial sums and this K tile's place in its chunk (emit_mma_step). */
  ptx_reg part[MAX_FRAG_BLOCKS][MAX_N_FRAGS][4], chunk_pos;
} kernel;

static int log2i(int x) {
  int l = 0;
  while ((1 << l) < x) l++;
  return l;
}

static ptx_reg reg32(kernel *k) { return ptx_new(k->b, PTX_B32); }
static ptx_reg reg64(kernel *k) { return ptx_new(k->b, PTX_B64); }

/* Physical shared offset of (row, byte_col) of a tile: the PTX twin of ptx_swizzled_offset. */
static ptx_reg emit_swizzle(kernel *k, ptx_reg row, ptx_reg byte_col, int rows, int row_bytes) {
  ptx_builder *b = k->b;
  int pb = ptx_panel_bytes(row_bytes);
  ptx_reg off = reg32(k);
  if (row_bytes > pb) {
    ptx_reg panel = reg32(k), within = reg32(k);
    ptx_ins(b, "shr.u32 %R, %R, %d", panel, byte_col, log2i(pb));
    ptx_ins(b, "and.b32 %R, %R, %d", within, byte_col, pb - 1);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", off, panel, rows * pb, within);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", off, row, pb, off);
  } else {
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", off, row, pb, byte_col);
  }
  ptx_reg x = reg32(k);
  ptx_ins(b, "bfe.u32 %R, %R, 7, 3", x, off);
  ptx_ins(b, "shl.b32 %R, %R, 4", x, x);
  ptx_ins(b, "xor.b32 %R, %R, %R", off, off, x);
  return off;
}

static ptx_reg emit_add_imm(kernel *k, ptx_reg a, int imm) {
  ptx_reg r = reg32(k);
  ptx_ins(k->b, "add.u32 %R, %R, %d", r, a, imm);
  return r;
}

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

static void operand_layout(kernel *k, operand *o, int is_b) {
  const tcj_kernel_cfg *c = k->cfg;
  memset(o, 0, sizeof *o);
  o->is_b = is_b;
  o->k_major = is_b ? c->op_b_t : !c->op_a_t;
  o->mn_tile = is_b ? c->bn : c->bm;
  o->rows = o->k_major ? o->mn_tile : c->bk;
  o->row_bytes = (o->k_major ? c->bk : o->mn_tile) * k->es;
  o->width = is_b ? c->align_b : c->align_a;
  o->cpr = o->row_bytes / o->width;
  o->chunks = o->rows * o->cpr / k->threads;
  o->smem_off = is_b ? c->bm * c->bk * k->es : 0;
  /* Copies past K need clipping unless the tiles a CTA runs end at k: a cluster split's baked
   * slices cover K exactly, or K is whole tiles (a workspace split's slices stop at its last
   * tile). Never known of a generic kernel's run-time k. */
  int k_edge = c->generic || ptx_group_k(c->grouped) || (c->split_cluster ? tcj_cfg_slice_tiles(c) * c->bk * k->slices != c->k : c->k % c->bk != 0);
  int mn_edge = is_b ? c->generic || c->n % tcj_cfg_tile_cols(c) != 0 : 1; /* m is a runtime value: always checked */
  o->interleave = is_b && tcj_cfg_swiglu(c);
  o->check_row = o->k_major ? mn_edge : k_edge;
  o->check_col = o->k_major ? k_edge : mn_edge;
  o->warp_span = is_b ? k->wn : k->wm;
  o->blocks = o->warp_span / 16;
  o->n_limit = k->n;
  o->gather = !is_b && c->gather;
}

/* Group g's B (tcj_kernel_cfg.b_ptrs): entry g of the pointer array at p_b, read once per tile
 * (the array is not written while the kernel runs). */
static void emit_b_from_array(kernel *k, ptx_reg arr, ptx_reg base) {
  ptx_builder *b = k->b;
  ptx_reg at = reg64(k), raw = reg64(k);
  ptx_ins(b, "mul.wide.u32 %R, %R, 8", at, k->z);
  ptx_ins(b, "add.u64 %R, %R, %R", at, arr, at);
  ptx_ins(b, "ld.global.nc.u64 %R, [%R]", raw, at);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", base, raw);
}

/* Gathered A's rows (operand.gather): for each of this thread's copies, its problem row
 * mn_t + dr (K-major A: a copy's row is a row of A), the index p_gather holds for it when the
 * row lies in the group (below mn_limit, the group's end), and from that the copy's row offset
 * and byte cap. An index outside [0, p_gather_rows) and a row past the group read nothing. */
static void emit_gather_rows(kernel *k, operand *o) {
  ptx_builder *b = k->b;
  if (!o->k_major) {
    ptx_fail(b, "gathered rows of an MN-major A");
    return;
  }
  ptx_reg raw = reg64(k), idx_base = reg64(k), rows = reg64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_gather]", raw);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", idx_base, raw);
  ptx_ins(b, "ld.param.u64 %R, [p_gather_rows]", rows);
  for (int i = 0; i < o->chunks; i++) {
    int dr = i * k->threads / o->cpr, j = 0;
    while (j < i && j * k->threads / o->cpr != dr) j++;
    if (j < i) { /* a copy of a row this thread has already looked up */
      o->row_off[i] = o->row_off[j];
      o->row_cap[i] = o->row_cap[j];
      continue;
    }
    ptx_reg row = emit_add_imm(k, o->mn_t, dr), at = reg64(k), idx = reg32(k), idx64 = reg64(k);
    ptx_reg in = ptx_new(b, PTX_PRED), ok = ptx_new(b, PTX_PRED);
    ptx_ins(b, "setp.lt.u32 %R, %R, %R", in, row, o->mn_limit);
    ptx_ins(b, "mov.u32 %R, -1", idx);
    ptx_ins(b, "mul.wide.u32 %R, %R, 4", at, row);
    ptx_ins(b, "add.u64 %R, %R, %R", at, idx_base, at);
    ptx_ins_if(b, in, 0, "ld.global.nc.u32 %R, [%R]", idx, at);
    /* A negative index is past every row as unsigned. */
    ptx_ins(b, "cvt.s64.s32 %R, %R", idx64, idx);
    ptx_ins(b, "setp.lt.u64 %R, %R, %R", ok, idx64, rows);
    o->row_off[i] = reg64(k);
    o->row_cap[i] = reg32(k);
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", o->row_off[i], idx64, o->ld_bytes);
    ptx_ins(b, "selp.b64 %R, %R, 0, %R", o->row_off[i], o->row_off[i], ok);
    ptx_ins(b, "selp.b32 %R, %d, 0, %R", o->row_cap[i], o->width, ok);
  }
}

static void emit_operand_setup(kernel *k, operand *o, const char *ptr_param, const char *ld_param,
                               const char *stride_param, ptx_reg warp_idx) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  if (o->chunks < 1 || o->chunks > MAX_CHUNKS || o->blocks > MAX_FRAG_BLOCKS) {
    ptx_fail(b, "operand %c: %d copies per thread, %d fragment blocks", o->is_b ? 'B' : 'A', o->chunks, o->blocks);
    return;
  }
  ptx_reg raw = reg64(k), ld = reg64(k);
  o->base = reg64(k);
  o->ld_bytes = reg64(k);
  ptx_ins(b, "ld.param.u64 %R, [%s]", raw, ptr_param);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", o->base, raw);
  if (o->is_b && c->b_ptrs) {
    emit_b_from_array(k, o->base, o->base);
  } else if (o->is_b ? ptx_cols_by_entry(c) : ptx_rows_by_entry(c)) { /* entry z starts z * stride elements in (stride 0: one operand for all) */
    ptx_reg st = reg64(k), z64 = reg64(k);
    ptx_ins(b, "ld.param.u64 %R, [%s]", st, stride_param);
    ptx_ins(b, "cvt.u64.u32 %R, %R", z64, k->z);
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", st, st, z64);
    ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", o->base, st, k->es, o->base);
  }
  ptx_ins(b, "ld.param.u64 %R, [%s]", ld, ld_param);
  ptx_ins(b, "mul.lo.u64 %R, %R, %d", o->ld_bytes, ld, k->es);

  /* This thread's first chunk: (r_t, cb_t) in the stored tile. */
  ptx_reg r_t = reg32(k), cb_t = reg32(k);
  ptx_ins(b, "shr.u32 %R, %R, %d", r_t, k->tid, log2i(o->cpr));
  ptx_ins(b, "and.b32 %R, %R, %d", cb_t, k->tid, o->cpr - 1);
  ptx_reg mn0 = o->is_b ? k->n0 : k->m0;
  o->mn_t = reg32(k);
  o->k_t = reg32(k);
  ptx_reg col_elems = reg32(k);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", col_elems, cb_t, o->width / k->es);
  ptx_reg row_idx, col_idx; /* global (row, col) of the chunk in the stored matrix */
  ptx_reg mn_in = o->k_major ? r_t : col_elems, mn_idx = o->mn_t; /* in the tile; in B */
  if (o->interleave) { /* tile position p: 8 (p >> 4) + p % 8 of half (p >> 3) & 1 */
    ptx_reg t = reg32(k), half = reg32(k);
    mn_idx = reg32(k);
    ptx_ins(b, "shr.u32 %R, %R, 4", t, mn_in);
    ptx_ins(b, "shl.b32 %R, %R, 3", t, t);
    ptx_ins(b, "and.b32 %R, %R, 7", half, mn_in);
    ptx_ins(b, "add.u32 %R, %R, %R", t, t, half);
    ptx_ins(b, "add.u32 %R, %R, %R", o->mn_t, mn0, t);
    ptx_ins(b, "bfe.u32 %R, %R, 3, 1", half, mn_in);
    ptx_ins(b, "mad.lo.u32 %R, %R, %V, %R", mn_idx, half, k->n, o->mn_t);
  }
  if (o->k_major) {
    if (!o->interleave) ptx_ins(b, "add.u32 %R, %R, %R", o->mn_t, mn0, mn_in);
    ptx_ins(b, "mov.u32 %R, %R", o->k_t, col_elems);
    row_idx = mn_idx;
    col_idx = o->k_t;
  } else {
    ptx_ins(b, "mov.u32 %R, %R", o->k_t, r_t);
    if (!o->interleave) ptx_ins(b, "add.u32 %R, %R, %R", o->mn_t, mn0, mn_in);
    row_idx = o->k_t;
    col_idx = mn_idx;
  }
  ptx_reg row64 = reg64(k), col64 = reg64(k);
  o->gptr = reg64(k);
  ptx_ins(b, "mul.wide.u32 %R, %R, %d", col64, col_idx, k->es);
  if (o->gather) { /* row 0: each copy adds its gathered row (emit_gather_rows) */
    ptx_ins(b, "add.u64 %R, %R, %R", o->gptr, o->base, col64);
  } else {
    ptx_ins(b, "cvt.u64.u32 %R, %R", row64, row_idx);
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", o->gptr, row64, o->ld_bytes, o->base);
    ptx_ins(b, "add.u64 %R, %R, %R", o->gptr, o->gptr, col64);
  }
  if (k->slices > 1 || k->split || ptx_group_k(c->grouped)) { /* this slice (K group) starts kbase elements into K */
    ptx_reg kb = reg64(k);
    ptx_ins(b, "cvt.u64.u32 %R, %R", kb, k->kbase);
    if (o->k_major)
      ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", o->gptr, kb, k->es, o->gptr);
    else
      ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", o->gptr, kb, o->ld_bytes, o->gptr);
  }
  o->step = reg64(k);
  if (o->k_major)
    ptx_ins(b, "mov.u64 %R, %d", o->step, c->bk * k->es);
  else
    ptx_ins(b, "mul.lo.u64 %R, %R, %d", o->step, o->ld_bytes, c->bk);
  o->mn_limit = o->is_b ? (ptx_reg){0, 0} : k->m;
  if (o->gather) emit_gather_rows(k, o);

  /* Shared destinations of each chunk, swizzled once here: they do not change per tile. */
  for (int i = 0; i < o->chunks; i++) {
    int dr = i * k->threads / o->cpr, dc = i * k->threads % o->cpr;
    ptx_reg row = emit_add_imm(k, r_t, dr), bc = reg32(k);
    ptx_ins(b, "add.u32 %R, %R, %d", bc, cb_t, dc);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", bc, bc, o->width);
    o->dst[i] = emit_swizzle(k, row, bc, o->rows, o->row_bytes);
  }

  /* ldmatrix lane offsets. K-major: one per kk step (16-row blocks add a constant).
   * MN-major: one per 16-row block (kk steps add a constant). See ptx_ldmatrix_lane. */
  o->warp_base = reg32(k);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", o->warp_base, warp_idx, o->warp_span);
  int ldsm = o->k_major || k->es == 2;
  if (!ldsm) return; /* scalar fragment loads compute addresses in the mainloop */
  ptx_reg j = reg32(k), r = reg32(k), mn_hi = reg32(k), k_hi = reg32(k);
  ptx_ins(b, "shr.u32 %R, %R, 3", j, k->lane);
  ptx_ins(b, "and.b32 %R, %R, 7", r, k->lane);
  /* B interleaves (mn_hi = j>>1, k_hi = j&1); A the other way round. */
  ptx_ins(b, "shr.u32 %R, %R, 1", o->is_b ? mn_hi : k_hi, j);
  ptx_ins(b, "and.b32 %R, %R, 1", o->is_b ? k_hi : mn_hi, j);
  /* An MN-major tile of 16-element rows (bm 16: 32-byte rows) puts a K step 16 rows = 512
   * bytes on, which reaches the swizzle's source bits (7-9): such a step cannot be an
   * immediate added after the swizzle, so each (block, K step) gets its own offset. */
  int kk_rows = !o->k_major && 16 * ptx_panel_bytes(o->row_bytes) < 1024;
  int n_off = o->k_major ? k->kk_count : kk_rows ? o->blocks * k->kk_count : o->blocks;
  if (n_off > MAX_FRAG_BLOCKS) {
    ptx_fail(b, "operand %c: %d fragment offsets", o->is_b ? 'B' : 'A', n_off);
    return;
  }
  o->kk_offsets = kk_rows;
  for (int t = 0; t < n_off; t++) {
    ptx_reg row = reg32(k), bc = reg32(k);
    int g = kk_rows ? t / k->kk_count : t, kk = kk_rows ? t % k->kk_count : 0;
    if (o->k_major) { /* row = warp_base + 8*mn_hi + r; byte col = t*32 + 16*k_hi */
      ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", row, mn_hi, r);
      ptx_ins(b, "add.u32 %R, %R, %R", row, row, o->warp_base);
      ptx_ins(b, "mad.lo.u32 %R, %R, 16, %d", bc, k_hi, t * PTX_MMA_K_BYTES);
    } else { /* row (k) = kk*16 + 8*k_hi + r; byte col = (warp_base + g*16 + 8*mn_hi) * 2 */
      ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", row, k_hi, r);
      if (kk) ptx_ins(b, "add.u32 %R, %R, %d", row, row, kk * 16);
      ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", bc, mn_hi, o->warp_base);
      ptx_ins(b, "add.u32 %R, %R, %d", bc, bc, g * 16);
      ptx_ins(b, "shl.b32 %R, %R, 1", bc, bc);
    }
    o->frag_off[t] = emit_swizzle(k, row, bc, o->rows, o->row_bytes);
  }
}

/* ---- global -> shared copies of one K tile ---- */

static void emit_load_operand(kernel *k, operand *o, ptx_reg stage, ptx_reg guard) {
  ptx_builder *b = k->b;
  for (int i = 0; i < o->chunks; i++) {
    int dr = i * k->threads / o->cpr, dc = i * k->threads % o->cpr;
    int dc_elems = dc * o->width / k->es;
    /* Interleaved B: whole 16-wide pairs of blocks apart in the tile (the recipe's check) are
     * half as far apart in B's half. */
    if (o->interleave && (o->k_major ? dr % 16 : dc_elems % 16)) {
      ptx_fail(b, "swiglu B copies %d rows, %d columns apart: not whole pairs of n8 blocks", dr, dc_elems);
      return;
    }
    if (o->interleave && o->k_major) dr /= 2;
    if (o->interleave && !o->k_major) dc_elems /= 2;
    ptx_reg src = reg64(k), dst = reg32(k), bytes = {0, 0};
    if (o->gather)
      ptx_ins(b, "add.u64 %R, %R, %R", src, o->gptr, o->row_off[i]);
    else if (dr)
      ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", src, o->ld_bytes, dr, o->gptr);
    else
      ptx_ins(b, "mov.u64 %R, %R", src, o->gptr);
    if (dc_elems) ptx_ins(b, "add.u64 %R, %R, %d", src, src, dc_elems * k->es);
    if (o->check_row || o->check_col) {
      bytes = reg32(k);
      if (o->check_col) { /* bytes left in this row, clamped to [0, width] */
        ptx_reg idx = reg32(k);
        if (o->k_major) { /* column = K index */
          ptx_ins(b, "add.u32 %R, %R, %R", idx, k->kbase, o->k_t);
          ptx_ins(b, "sub.s32 %R, %V, %R", bytes, k->k, idx);
        } else if (o->is_b) { /* column = n index, n baked */
          ptx_ins(b, "sub.s32 %R, %V, %R", bytes, o->n_limit, o->mn_t);
        } else { /* column = m index, runtime */
          ptx_ins(b, "sub.s32 %R, %R, %R", bytes, o->mn_limit, o->mn_t);
        }
        if (dc_elems) ptx_ins(b, "sub.s32 %R, %R, %d", bytes, bytes, dc_elems);
        ptx_ins(b, "max.s32 %R, %R, 0", bytes, bytes);
        ptx_ins(b, "mul.lo.u32 %R, %R, %d", bytes, bytes, k->es);
        ptx_ins(b, "min.u32 %R, %R, %d", bytes, bytes, o->width);
      } else if (!o->gather) {
        ptx_ins(b, "mov.u32 %R, %d", bytes, o->width);
      }
      if (o->gather) { /* the gathered row's cap: 0 past the group or outside A */
        if (o->check_col)
          ptx_ins(b, "min.u32 %R, %R, %R", bytes, bytes, o->row_cap[i]);
        else
          bytes = o->row_cap[i];
      } else if (o->check_row) {
        ptx_reg idx = reg32(k), ok = ptx_new(b, PTX_PRED);
        if (o->k_major) { /* row = mn index */
          ptx_ins(b, "add.u32 %R, %R, %d", idx, o->mn_t, dr);
          if (o->is_b)
            ptx_ins(b, "setp.lt.u32 %R, %R, %V", ok, idx, o->n_limit);
          else
            ptx_ins(b, "setp.lt.u32 %R, %R, %R", ok, idx, o->mn_limit);
        } else { /* row = K index */
          ptx_ins(b, "add.u32 %R, %R, %R", idx, k->kbase, o->k_t);
          ptx_ins(b, "add.u32 %R, %R, %d", idx, idx, dr);
          ptx_ins(b, "setp.lt.u32 %R, %R, %V", ok, idx, k->k);
        }
        ptx_ins(b, "selp.b32 %R, %R, 0, %R", bytes, bytes, ok);
      }
      /* A fully clipped chunk reads nothing, but keep its address inside the matrix anyway. */
      ptx_reg none = ptx_new(b, PTX_PRED);
      ptx_ins(b, "setp.eq.u32 %R, %R, 0", none, bytes);
      ptx_ins(b, "selp.b64 %R, %R, %R, %R", src, o->base, src, none);
    }
    ptx_ins(b, "add.u32 %R, %R, %R", dst, stage, o->dst[i]);
    ptx_cp_async(b, guard, o->width, dst, o->smem_off, src, bytes);
  }
  ptx_ins(b, "add.u64 %R, %R, %R", o->gptr, o->gptr, o->step);
}

/* Copies of one K tile into `stage`; guard (if valid) predicates every copy. */
static void emit_load_tile(kernel *k, ptx_reg stage, ptx_reg guard) {
  emit_load_operand(k, &k->op[0], stage, guard);
  emit_load_operand(k, &k->op[1], stage, guard);
  ptx_ins(k->b, "add.u32 %R, %R, %d", k->kbase, k->kbase, k->cfg->bk);
}

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
        ptx_reg off = emit_swizzle(k, row, bc, o->rows, o->row_bytes);
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
static void emit_mainloop(kernel *k) {
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
      emit_load_tile(k, ls, exists);
    } else if (t < k->kt_count.imm) {
      ptx_ins(b, "add.u32 %R, %R, %d", ls, k->smem, t * k->stage_bytes);
      emit_load_tile(k, ls, (ptx_reg){0, 0});
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
        emit_load_tile(k, ls, more);
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

/* ---- cluster split: the slices of a tile add their sums through distributed shared memory ---- */

/* A pair unit: the two adjacent accumulators (columns 2 * tig, +1) of 16-row block g, half h
 * and n8 fragment nf of every thread. The epilogue handles a unit at a time. */
static int pair_unit(const kernel *k, int g, int h, int nf) { return (2 * g + h) * k->ni + nf; }

/* Every CTA of the cluster puts its accumulators into its own (idle) ring, unit u of thread t
 * at (u * threads + t) * 8 so that a warp's accesses are consecutive. Then each CTA sums the
 * units it owns (u % slices == rank) over every CTA's buffer, in rank order: the sum is the
 * same whichever CTA owns the unit, and the same as the workspace reduction's (slice 0 first,
 * from 0). Ownership spreads the remote reads and the epilogue over the cluster's SMs. */
static void emit_cluster_sum(kernel *k) {
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
static void emit_epilogue(kernel *k, ptx_reg warp_m, ptx_reg warp_n, int split) {
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
      ptx_ins(b, "cvt.u64.u32 %R, %R", r64, row);
      ptx_ins(b, "cvt.u64.u32 %R, %R", col64, col0);
      ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", dptr, r64, ldd_bytes, dbase);
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
  operand_layout(&k, &k.op[0], 0);
  operand_layout(&k, &k.op[1], 1);
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
  emit_operand_setup(&k, &k.op[0], "p_a", "p_lda", "p_stride_a", warp_m);
  emit_operand_setup(&k, &k.op[1], "p_b", "p_ldb", "p_stride_b", warp_n);
  /* A refused operand leaves its copy tables unfilled: stop before the loops read them. */
  if (ptx_failed(b)) return 0;
  emit_mainloop(&k);
  if (cfg->split_cluster) emit_cluster_sum(&k);
  if (k.split_at_launch) { /* p_slices > 1: the slice's partial sums, else D (uniform branch) */
    ptx_reg whole = ptx_new(b, PTX_PRED);
    int to_d = ptx_new_label(b), done = ptx_new_label(b);
    ptx_ins(b, "setp.le.u32 %R, %R, 1", whole, k.slices_reg);
    ptx_ins_if(b, whole, 0, "bra.uni %L", to_d);
    emit_epilogue(&k, warp_m, warp_n, 1);
    ptx_ins(b, "bra.uni %L", done);
    ptx_label(b, to_d);
    emit_epilogue(&k, warp_m, warp_n, 0);
    ptx_label(b, done);
  } else {
    emit_epilogue(&k, warp_m, warp_n, k.split);
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
