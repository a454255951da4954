/* SPDX-License-Identifier: Apache-2.0 */
/* The transposing pack: wgmma reads tf32, s8 and fp8 operands K-major only, so an MN-major
 * operand of those types is first transposed into K-major scratch by this entry, which the
 * sm90 modules of those types carry (ptxgen.h, PTX_TRANSPOSE_ENTRY). A 32 x 32 tile goes through
 * shared memory with one element of pad per row, so the reads of src rows and the writes of dst
 * rows are both coalesced, and the column reads from shared memory fall on distinct banks for
 * 4-byte elements (1-byte ones share words). */
#include "ptxgen.h"

#include "ptx_builder.h"
#include "recipe.h"
#include "recipes.h"

enum { TILE = PTX_TRANSPOSE_TILE, ROWS_PER_PASS = PTX_TRANSPOSE_THREADS / PTX_TRANSPOSE_TILE, PITCH = TILE + 1 };

static const char *mem_type(int es) { return es == 1 ? "u8" : es == 2 ? "b16" : "b32"; }

ptx_reg ptx_tile_elem_addr(ptx_builder *b, ptx_reg base, ptx_reg ld, ptx_reg row, ptx_reg col, int es) {
  ptx_reg a = ptx_new(b, PTX_B64), c = ptx_new(b, PTX_B64);
  ptx_ins(b, "cvt.u64.u32 %R, %R", a, row);
  ptx_ins(b, "cvt.u64.u32 %R, %R", c, col);
  ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", a, a, ld, c);
  ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", a, a, es, base);
  return a;
}

void ptx_emit_block_to_smem(ptx_builder *b, const ptx_block_src *s, ptx_reg smem, ptx_reg tx, ptx_reg ty, int es) {
  ptx_reg_class vc = es == 4 ? PTX_B32 : PTX_B16;
  const char *mt = mem_type(es);
  for (int pass = 0; pass < TILE / ROWS_PER_PASS; pass++) {
    ptx_reg r = ptx_new(b, PTX_B32), i = ptx_new(b, PTX_B32), j = ptx_new(b, PTX_B32), ok = ptx_new(b, PTX_PRED);
    ptx_reg v = ptx_new(b, vc), at = ptx_new(b, PTX_B32);
    ptx_ins(b, "add.u32 %R, %R, %d", r, ty, pass * ROWS_PER_PASS);
    ptx_ins(b, "add.u32 %R, %R, %R", i, s->row0, r);
    ptx_ins(b, "add.u32 %R, %R, %R", j, s->col0, tx);
    ptx_ins(b, "setp.lt.u32 %R, %R, %R", ok, i, s->rows);
    ptx_ins(b, "setp.lt.and.u32 %R, %R, %R, %R", ok, j, s->cols, ok);
    ptx_reg addr = ptx_tile_elem_addr(b, s->base, s->ld, i, j, es);
    ptx_ins(b, "mov.b%d %R, 0", es == 4 ? 32 : 16, v);
    ptx_ins_if(b, ok, 0, "ld.global.nc.%s %R, [%R]", mt, v, addr);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", at, r, PITCH, tx);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", at, at, es, smem);
    ptx_ins(b, "st.shared.%s [%R], %R", mt, at, v);
  }
}

void ptx_emit_transpose_entry(ptx_builder *b, int es) {
  ptx_entry_begin(b, PTX_TRANSPOSE_ENTRY);
  ptx_entry_param(b, "t_src", ".u64");
  ptx_entry_param(b, "t_dst", ".u64");
  ptx_entry_param(b, "t_ld_src", ".u64");
  ptx_entry_param(b, "t_ld_dst", ".u64");
  ptx_entry_param(b, "t_rows", ".u32");
  ptx_entry_param(b, "t_cols", ".u32");
  ptx_entry_body(b, PTX_TRANSPOSE_THREADS);
  ptx_reg tid = ptx_new(b, PTX_B32), tx = ptx_new(b, PTX_B32), ty = ptx_new(b, PTX_B32);
  ptx_reg row0 = ptx_new(b, PTX_B32), col0 = ptx_new(b, PTX_B32), rows = ptx_new(b, PTX_B32), cols = ptx_new(b, PTX_B32);
  ptx_reg src = ptx_new(b, PTX_B64), dst = ptx_new(b, PTX_B64), ld_src = ptx_new(b, PTX_B64), ld_dst = ptx_new(b, PTX_B64);
  ptx_reg smem = ptx_new(b, PTX_B32);
  ptx_reg_class vc = es == 4 ? PTX_B32 : PTX_B16;
  const char *mt = mem_type(es);
  ptx_ins(b, "mov.u32 %R, %%tid.x", tid);
  ptx_ins(b, "and.b32 %R, %R, %d", tx, tid, TILE - 1);
  ptx_ins(b, "shr.u32 %R, %R, 5", ty, tid);
  ptx_ins(b, "mov.u32 %R, %%ctaid.y", row0);
  ptx_ins(b, "shl.b32 %R, %R, 5", row0, row0);
  ptx_ins(b, "mov.u32 %R, %%ctaid.x", col0);
  ptx_ins(b, "shl.b32 %R, %R, 5", col0, col0);
  ptx_text(b, "\tld.param.u64 %R, [t_src];\n", src);
  ptx_text(b, "\tld.param.u64 %R, [t_dst];\n", dst);
  ptx_text(b, "\tld.param.u64 %R, [t_ld_src];\n", ld_src);
  ptx_text(b, "\tld.param.u64 %R, [t_ld_dst];\n", ld_dst);
  ptx_text(b, "\tld.param.u32 %R, [t_rows];\n", rows);
  ptx_text(b, "\tld.param.u32 %R, [t_cols];\n", cols);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", src, src);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", dst, dst);
  ptx_ins(b, "mov.u32 %R, tcj_smem", smem);
  /* Read: src[row0 + r][col0 + tx] -> tile[r][tx] for r = ty + 8 pass. */
  ptx_block_src from = {src, ld_src, row0, col0, rows, cols};
  ptx_emit_block_to_smem(b, &from, smem, tx, ty, es);
  ptx_ins(b, "bar.sync 0");
  /* Write: dst[col0 + r][row0 + tx] = tile[tx][r]: dst is cols x rows. */
  for (int pass = 0; pass < TILE / ROWS_PER_PASS; pass++) {
    ptx_reg r = ptx_new(b, PTX_B32), i = ptx_new(b, PTX_B32), j = ptx_new(b, PTX_B32), ok = ptx_new(b, PTX_PRED);
    ptx_reg v = ptx_new(b, vc), s = ptx_new(b, PTX_B32);
    ptx_ins(b, "add.u32 %R, %R, %d", r, ty, pass * ROWS_PER_PASS);
    ptx_ins(b, "add.u32 %R, %R, %R", j, col0, r);
    ptx_ins(b, "add.u32 %R, %R, %R", i, row0, tx);
    ptx_ins(b, "setp.lt.u32 %R, %R, %R", ok, j, cols);
    ptx_ins(b, "setp.lt.and.u32 %R, %R, %R, %R", ok, i, rows, ok);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", s, tx, PITCH, r);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", s, s, es, smem);
    ptx_ins(b, "ld.shared.%s %R, [%R]", mt, v, s);
    ptx_reg addr = ptx_tile_elem_addr(b, dst, ld_dst, j, i, es);
    ptx_ins_if(b, ok, 0, "st.global.%s [%R], %R", mt, addr, v);
  }
  ptx_ins(b, "ret"); /* the caller closes the entry (ptx_finish) */
}

static void emit_transpose(ptx_builder *b, const tcj_kernel_cfg *c) { ptx_emit_transpose_entry(b, ptx_elem_size(c->ab)); }
const ptx_extra_entry ptx_extra_transpose = {PTX_EXTRA_TRANSPOSE, PTX_TRANSPOSE_ENTRY, ptx_sm90_has_transpose,
                                             emit_transpose};
