/* SPDX-License-Identifier: Apache-2.0 */
/* The 3xTF32 split pass (PTX_SPLIT_ENTRY): an fp32 operand x becomes two tf32 parts, big =
 * tf32(x) and small = tf32(x - big), written K-major so that a tf32 GEMM over K' = 3 kp sums
 * A_big B_big + A_big B_small + A_small B_big: fp32 accuracy on tf32 tensor cores (the dropped
 * A_small B_small is below 2^-22 of each product). The parts are interleaved per chunk of
 * PTX_SPLIT_TILE elements of K, so that the three products of a chunk are three consecutive K
 * tiles of 32 tf32 elements, which the recipes sum in the tensor cores before adding them into
 * fp32 (kp is a multiple of the chunk; columns past k are zero). Three parts per chunk for the
 * sm80 recipe, which reads its K tiles in order: A [big | big | small], B [big | small | big];
 * two for the sm90 recipe, whose producer picks each tile's part: [big | small]. A 32 x 32 tile goes through shared memory, as in the
 * transposing pack, so that an MN-major source is read and written coalesced. */
#include "ptxgen.h"

#include "ptx_builder.h"
#include "recipe.h"
#include "recipes.h"

enum { TILE = PTX_SPLIT_TILE, ROWS_PER_PASS = PTX_SPLIT_THREADS / PTX_SPLIT_TILE, PITCH = TILE + 1 };
_Static_assert(PTX_SPLIT_TILE == PTX_TRANSPOSE_TILE && PTX_SPLIT_THREADS == PTX_TRANSPOSE_THREADS,
               "the split pass reads its blocks as the transposing pack does (ptx_emit_block_to_smem)");

/* big and small tf32 parts of x (f32). cvt.rna rounds to nearest, ties away (PTX ISA 9.7.9.21);
 * an x that rounds past the largest tf32 keeps its truncation instead, whose remainder is
 * exact, so that no finite x gets an infinite part. Infinities and NaN stay in big, small 0. */
static void emit_parts(ptx_builder *b, ptx_reg x, ptx_reg big, ptx_reg small) {
  ptx_reg bigf = ptx_new(b, PTX_F32), rest = ptx_new(b, PTX_F32), trunc = ptx_new(b, PTX_B32);
  ptx_reg xb = ptx_new(b, PTX_B32), finite = ptx_new(b, PTX_PRED), over = ptx_new(b, PTX_PRED);
  ptx_ins(b, "cvt.rna.tf32.f32 %R, %R", big, x);
  ptx_ins(b, "mov.b32 %R, %R", xb, x);
  ptx_ins(b, "and.b32 %R, %R, %u", trunc, xb, 0xFFFFE000u);
  ptx_ins(b, "mov.b32 %R, %R", bigf, big);
  ptx_ins(b, "testp.finite.f32 %R, %R", finite, x);
  ptx_ins(b, "testp.infinite.f32 %R, %R", over, bigf);
  ptx_ins(b, "and.pred %R, %R, %R", over, over, finite);
  ptx_ins(b, "selp.b32 %R, %R, %R, %R", big, trunc, big, over);
  ptx_ins(b, "mov.b32 %R, %R", bigf, big);
  ptx_ins(b, "sub.rn.f32 %R, %R, %R", rest, x, bigf);
  ptx_ins(b, "cvt.rna.tf32.f32 %R, %R", small, rest);
  ptx_ins(b, "selp.b32 %R, %R, 0, %R", small, small, finite);
}

void ptx_emit_split_entry(ptx_builder *b) {
  static const char *const u64[] = {"s_src", "s_dst", "s_ld_src", "s_ld_dst", "s_stride_src", "s_stride_dst"};
  static const char *const u32[] = {"s_rows", "s_k", "s_kp", "s_trans", "s_small_seg", "s_z0", "s_parts"};
  ptx_entry_begin(b, PTX_SPLIT_ENTRY);
  for (int i = 0; i < 6; i++) ptx_entry_param(b, u64[i], ".u64");
  for (int i = 0; i < 7; i++) ptx_entry_param(b, u32[i], ".u32");
  ptx_entry_body(b, PTX_SPLIT_THREADS);
  ptx_reg p64[6], p32[7];
  for (int i = 0; i < 6; i++) {
    p64[i] = ptx_new(b, PTX_B64);
    ptx_text(b, "\tld.param.u64 %R, [%s];\n", p64[i], u64[i]);
  }
  for (int i = 0; i < 7; i++) {
    p32[i] = ptx_new(b, PTX_B32);
    ptx_text(b, "\tld.param.u32 %R, [%s];\n", p32[i], u32[i]);
  }
  ptx_reg src = p64[0], dst = p64[1], ld_src = p64[2], ld_dst = p64[3];
  ptx_reg rows = p32[0], k = p32[1], kp = p32[2], trans = p32[3], small_seg = p32[4];
  ptx_reg tid = ptx_new(b, PTX_B32), tx = ptx_new(b, PTX_B32), ty = ptx_new(b, PTX_B32), z = ptx_new(b, PTX_B32);
  ptx_reg r0 = ptx_new(b, PTX_B32), k0 = ptx_new(b, PTX_B32), smem = ptx_new(b, PTX_B32);
  ptx_reg is_t = ptx_new(b, PTX_PRED), off = ptx_new(b, PTX_B64), zz = ptx_new(b, PTX_B64);
  ptx_ins(b, "mov.u32 %R, %%tid.x", tid);
  ptx_ins(b, "and.b32 %R, %R, %d", tx, tid, TILE - 1);
  ptx_ins(b, "shr.u32 %R, %R, 5", ty, tid);
  ptx_ins(b, "mov.u32 %R, %%ctaid.x", r0);
  ptx_ins(b, "shl.b32 %R, %R, 5", r0, r0);
  ptx_ins(b, "mov.u32 %R, %%ctaid.y", k0);
  ptx_ins(b, "shl.b32 %R, %R, 5", k0, k0);
  ptx_ins(b, "mov.u32 %R, %%ctaid.z", z);
  ptx_ins(b, "add.u32 %R, %R, %R", z, z, p32[5]);
  ptx_ins(b, "setp.ne.u32 %R, %R, 0", is_t, trans);
  /* This batch entry's source and destination. */
  ptx_ins(b, "cvt.u64.u32 %R, %R", zz, z);
  ptx_ins(b, "mul.lo.u64 %R, %R, %R", off, zz, p64[4]);
  ptx_ins(b, "mad.lo.u64 %R, %R, 4, %R", src, off, src);
  ptx_ins(b, "mul.lo.u64 %R, %R, %R", off, zz, p64[5]);
  ptx_ins(b, "mad.lo.u64 %R, %R, 4, %R", dst, off, dst);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", src, src);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", dst, dst);
  ptx_ins(b, "mov.u32 %R, tcj_smem", smem);
  /* The stored tile: rows of (r, kk) for a K-major source, of (kk, r) for an MN-major one. */
  ptx_reg sr0 = ptx_new(b, PTX_B32), sc0 = ptx_new(b, PTX_B32), srows = ptx_new(b, PTX_B32), scols = ptx_new(b, PTX_B32);
  ptx_ins(b, "selp.b32 %R, %R, %R, %R", sr0, k0, r0, is_t);
  ptx_ins(b, "selp.b32 %R, %R, %R, %R", sc0, r0, k0, is_t);
  ptx_ins(b, "selp.b32 %R, %R, %R, %R", srows, k, rows, is_t);
  ptx_ins(b, "selp.b32 %R, %R, %R, %R", scols, rows, k, is_t);
  ptx_block_src from = {src, ld_src, sr0, sc0, srows, scols};
  ptx_emit_block_to_smem(b, &from, smem, tx, ty, 4);
  ptx_ins(b, "bar.sync 0");
  /* dst[r][parts k0 + 32 seg + tx] for r = r0 + ty + 8 pass: this CTA's K columns k0 .. k0 + 31
   * are one chunk; kk = k0 + tx in [k, kp) reads the zeros the loads above left. */
  ptx_reg s1 = ptx_new(b, PTX_PRED), s2 = ptx_new(b, PTX_PRED), s0 = ptx_new(b, PTX_PRED), k3 = ptx_new(b, PTX_B32);
  ptx_reg third = ptx_new(b, PTX_PRED);
  ptx_ins(b, "mul.lo.u32 %R, %R, %R", k3, k0, p32[6]);
  ptx_ins(b, "setp.eq.u32 %R, %R, 3", third, p32[6]);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", s0, small_seg);
  ptx_ins(b, "setp.eq.u32 %R, %R, 1", s1, small_seg);
  ptx_ins(b, "setp.eq.u32 %R, %R, 2", s2, small_seg);
  for (int pass = 0; pass < TILE / ROWS_PER_PASS; pass++) {
    ptx_reg r = ptx_new(b, PTX_B32), i = ptx_new(b, PTX_B32), j = ptx_new(b, PTX_B32), ok = ptx_new(b, PTX_PRED);
    ptx_reg s = ptx_new(b, PTX_B32), st = ptx_new(b, PTX_B32), x = ptx_new(b, PTX_F32);
    ptx_reg big = ptx_new(b, PTX_B32), small = ptx_new(b, PTX_B32), v = ptx_new(b, PTX_B32);
    ptx_ins(b, "add.u32 %R, %R, %d", r, ty, pass * ROWS_PER_PASS);
    ptx_ins(b, "add.u32 %R, %R, %R", i, r0, r);
    ptx_ins(b, "add.u32 %R, %R, %R", j, k0, tx);
    ptx_ins(b, "setp.lt.u32 %R, %R, %R", ok, i, rows);
    ptx_ins(b, "setp.lt.and.u32 %R, %R, %R, %R", ok, j, kp, ok);
    ptx_ins(b, "add.u32 %R, %R, %R", j, k3, tx);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", s, r, PITCH, tx);  /* K-major: tile[r][tx] */
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", st, tx, PITCH, r); /* MN-major: tile[tx][r] */
    ptx_ins(b, "selp.b32 %R, %R, %R, %R", s, st, s, is_t);
    ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", s, s, smem);
    ptx_ins(b, "ld.shared.f32 %R, [%R]", x, s);
    emit_parts(b, x, big, small);
    ptx_reg addr = ptx_tile_elem_addr(b, dst, ld_dst, i, j, 4);
    ptx_ins(b, "selp.b32 %R, %R, %R, %R", v, small, big, s0);
    ptx_ins_if(b, ok, 0, "st.global.b32 [%R], %R", addr, v);
    ptx_reg a1 = ptx_new(b, PTX_B64), a2 = ptx_new(b, PTX_B64);
    ptx_ins(b, "add.u64 %R, %R, %d", a1, addr, 4 * TILE);
    ptx_ins(b, "selp.b32 %R, %R, %R, %R", v, small, big, s1);
    ptx_ins_if(b, ok, 0, "st.global.b32 [%R], %R", a1, v);
    ptx_ins(b, "add.u64 %R, %R, %d", a2, addr, 8 * TILE);
    ptx_ins(b, "selp.b32 %R, %R, %R, %R", v, small, big, s2);
    ptx_reg ok3 = ptx_new(b, PTX_PRED);
    ptx_ins(b, "and.pred %R, %R, %R", ok3, ok, third);
    ptx_ins_if(b, ok3, 0, "st.global.b32 [%R], %R", a2, v);
  }
  ptx_ins(b, "ret"); /* the caller closes the entry (ptx_finish) */
}

static int has_split(const tcj_kernel_cfg *c) { return c->tf32x3; }
static void emit_split(ptx_builder *b, const tcj_kernel_cfg *c) {
  (void)c;
  ptx_emit_split_entry(b);
}
const ptx_extra_entry ptx_extra_split = {PTX_EXTRA_SPLIT, PTX_SPLIT_ENTRY, has_split, emit_split};
