/* SPDX-License-Identifier: Apache-2.0 */
/* The sm80 recipe's operands (sm80_kernel.h): each operand's tile layout, its global addresses
 * (batch entries, groups, pointer arrays, gathered rows, K slices), the swizzled shared
 * destinations and ldmatrix offsets, and the cp.async copies of one K tile. */
#include <string.h>

#include "group_schedule.h"
#include "ptx_layout.h"
#include "ptx_ops.h"
#include "sm80_kernel.h"

/* Physical shared offset of (row, byte_col) of a tile: the PTX twin of ptx_swizzled_offset. */
ptx_reg sm80_swizzle(kernel *k, ptx_reg row, ptx_reg byte_col, int rows, int row_bytes) {
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

static ptx_reg add_imm(kernel *k, ptx_reg a, int imm) {
  ptx_reg r = reg32(k);
  ptx_ins(k->b, "add.u32 %R, %R, %d", r, a, imm);
  return r;
}

void sm80_operand_layout(kernel *k, operand *o, int is_b) {
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
    ptx_reg row = add_imm(k, o->mn_t, dr), at = reg64(k), idx = reg32(k), idx64 = reg64(k);
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

void sm80_operand_setup(kernel *k, operand *o, const char *ptr_param, const char *ld_param,
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
    ptx_reg row = add_imm(k, r_t, dr), bc = reg32(k);
    ptx_ins(b, "add.u32 %R, %R, %d", bc, cb_t, dc);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", bc, bc, o->width);
    o->dst[i] = sm80_swizzle(k, row, bc, o->rows, o->row_bytes);
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
    o->frag_off[t] = sm80_swizzle(k, row, bc, o->rows, o->row_bytes);
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
void sm80_load_tile(kernel *k, ptx_reg stage, ptx_reg guard) {
  emit_load_operand(k, &k->op[0], stage, guard);
  emit_load_operand(k, &k->op[1], stage, guard);
  ptx_ins(k->b, "add.u32 %R, %R, %d", k->kbase, k->kbase, k->cfg->bk);
}
