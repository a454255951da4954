/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction families of the tensor-core recipes; see ptx_ops.h. */
#include "ptx_ops.h"

/* The accumulator register class of the row's accumulator: f32, or s32 as .b32. */
ptx_reg_class ptx_mma_acc_class(ptx_elem ab) {
  const ptx_elem_row *r = ptx_elem_row_of(ab);
  return r && r->acc != PTX_E_COUNT ? ptx_elem_row_of(r->acc)->reg : PTX_F32;
}

/* Operand types of one instruction: the same, or both fp8. */
static int types_pair(ptx_elem a, ptx_elem b) { return a == b || (ptx_elem_is_fp8(a) && ptx_elem_is_fp8(b)); }

/* mma.sync.aligned.<shape>.row.col.<acc>.<a>.<b>.<acc> (PTX ISA 9.7.13.4). */
void ptx_mma_sync(ptx_builder *b, ptx_elem at, ptx_elem bt, const ptx_reg d[4], const ptx_reg a[4],
                  const ptx_reg bb[2], const ptx_reg c[4]) {
  const ptx_elem_row *r = ptx_elem_row_of(at), *rb = ptx_elem_row_of(bt);
  if (!r || !rb || !r->mma || !types_pair(at, bt)) {
    ptx_fail(b, "no mma.sync shape for operand types %s x %s", ptx_elem_name(at), ptx_elem_name(bt));
    return;
  }
  const char *acc = ptx_elem_row_of(r->acc)->ptx;
  ptx_ins(b, "mma.sync.aligned.%s.row.col.%s.%s.%s.%s {%R, %R, %R, %R}, {%R, %R, %R, %R}, {%R, %R}, {%R, %R, %R, %R}",
          r->mma, acc, r->ptx, rb->ptx, acc, d[0], d[1], d[2], d[3], a[0], a[1], a[2], a[3], bb[0], bb[1], c[0], c[1],
          c[2], c[3]);
}

/* {r0, r1, ...}: an instruction's register vector. */
static void reg_list(ptx_builder *b, const ptx_reg *r, int n) {
  ptx_text(b, "{");
  for (int i = 0; i < n; i++) ptx_text(b, i ? ", %R" : "%R", r[i]);
  ptx_text(b, "}");
}

void ptx_wgmma(ptx_builder *b, ptx_elem at, ptx_elem bt, int n, const ptx_reg *acc, ptx_reg da, ptx_reg db,
               ptx_reg scale_d, int a_mn, int b_mn) {
  const ptx_wgmma_type *w = ptx_wgmma_type_of(at);
  if (!w || !types_pair(at, bt)) {
    ptx_fail(b, "no wgmma for operand types %s x %s", ptx_elem_name(at), ptx_elem_name(bt));
    return;
  }
  if ((a_mn || b_mn) && !w->mn_major) {
    ptx_fail(b, "wgmma reads %s operands K-major only", ptx_elem_name(at));
    return;
  }
  const ptx_elem_row *r = ptx_elem_row_of(at);
  ptx_text(b, "\twgmma.mma_async.sync.aligned.m64n%dk%d.%s.%s.%s ", n, w->k, ptx_elem_row_of(r->acc)->ptx, r->ptx,
           ptx_elem_row_of(bt)->ptx);
  reg_list(b, acc, n / 2);
  ptx_text(b, ", %R, %R, %R", da, db, scale_d);
  if (w->imm_scale) ptx_text(b, ", 1, 1");
  if (w->mn_major) ptx_text(b, ", %d, %d", a_mn, b_mn);
  ptx_text(b, ";\n");
}

void ptx_ldmatrix_x4(ptx_builder *b, int trans, const ptx_reg r[4], ptx_reg addr, int imm) {
  ptx_ins(b, "ldmatrix.sync.aligned.m8n8.x4%s.shared.b16 {%R, %R, %R, %R}, [%R+%d]", trans ? ".trans" : "",
          r[0], r[1], r[2], r[3], addr, imm);
}

void ptx_cp_async(ptx_builder *b, ptx_reg guard, int width, ptx_reg dst, int dst_imm, ptx_reg src,
                  ptx_reg src_bytes) {
  /* .cg (L2 only) exists for 16-byte copies alone; narrower copies must use .ca. */
  const char *cache = width == 16 ? "cg" : "ca";
  if (width != 4 && width != 8 && width != 16) { ptx_fail(b, "cp.async width %d", width); return; }
  if (guard.id) ptx_text(b, "\t@%R", guard);
  if (src_bytes.id)
    ptx_ins(b, "cp.async.%s.shared.global [%R+%d], [%R], %d, %R", cache, dst, dst_imm, src, width, src_bytes);
  else
    ptx_ins(b, "cp.async.%s.shared.global [%R+%d], [%R], %d", cache, dst, dst_imm, src, width);
}

void ptx_cp_async_commit(ptx_builder *b) { ptx_ins(b, "cp.async.commit_group"); }
void ptx_cp_async_wait(ptx_builder *b, int pending) { ptx_ins(b, "cp.async.wait_group %d", pending); }
void ptx_bar_sync(ptx_builder *b) { ptx_ins(b, "bar.sync 0"); }

static const char *space_name(ptx_space sp) { return sp == PTX_SHARED ? "shared" : "global"; }

static const char *mem_type(ptx_builder *b, int bytes) {
  switch (bytes) {
  case 1: return "u8";
  case 2: return "b16";
  case 4: return "b32";
  case 8: return "b64";
  }
  ptx_fail(b, "no memory type of %d bytes", bytes);
  return "b32";
}

void ptx_ld(ptx_builder *b, ptx_space sp, int bytes, ptx_reg dst, ptx_reg addr, int imm) {
  ptx_ins(b, "ld.%s.%s %R, [%R+%d]", space_name(sp), mem_type(b, bytes), dst, addr, imm);
}

void ptx_st(ptx_builder *b, ptx_space sp, int bytes, ptx_reg addr, int imm, ptx_reg src) {
  ptx_ins(b, "st.%s.%s [%R+%d], %R", space_name(sp), mem_type(b, bytes), addr, imm, src);
}

/* By the row's conversion (elem.h, ptx_f32_conv). */
void ptx_cvt_to_f32(ptx_builder *b, ptx_elem e, ptx_reg dst, ptx_reg src) {
  const ptx_elem_row *r = ptx_elem_row_of(e);
  switch (r ? r->conv : PTX_CONV_NONE) {
  case PTX_CONV_CVT: ptx_ins(b, "cvt.f32.%s %R, %R", r->cvt, dst, src); break;
  case PTX_CONV_HIGH_HALF: {
    ptx_reg t = ptx_new(b, PTX_B32);
    ptx_ins(b, "cvt.u32.u16 %R, %R", t, src);
    ptx_ins(b, "shl.b32 %R, %R, 16", t, t);
    ptx_ins(b, "mov.b32 %R, %R", dst, t);
    break;
  }
  case PTX_CONV_SAME: ptx_ins(b, "mov.b32 %R, %R", dst, src); break;
  case PTX_CONV_NONE: ptx_fail(b, "no conversion from %s to f32", ptx_elem_name(e));
  }
}

void ptx_cvt_from_f32(ptx_builder *b, ptx_elem e, ptx_reg dst, ptx_reg src) {
  const ptx_elem_row *r = ptx_elem_row_of(e);
  switch (r ? r->conv : PTX_CONV_NONE) {
  case PTX_CONV_CVT: case PTX_CONV_HIGH_HALF: ptx_ins(b, "cvt.rn.%s.f32 %R, %R", r->cvt, dst, src); break;
  case PTX_CONV_SAME: ptx_ins(b, "mov.b32 %R, %R", dst, src); break;
  case PTX_CONV_NONE: ptx_fail(b, "no conversion from f32 to %s", ptx_elem_name(e));
  }
}

/* f64 mma.sync shapes (PTX ISA 9.7.14.5): m8n8k4 from sm_80; sm_90 adds m16n8k4, m16n8k8 and
 * m16n8k16. On an H100 (tcj's dmma recipe, 128x128 tiles, f64 4096^3 / 8192^3 / 4095^3, us):
 * m16n8k4 2803 / 23208 / 3563, m16n8k8 2910 / 23380 / 3668, m16n8k16 3049 / 24164 / 3704,
 * m8n8k4 4921 / 39173 / 5547: m8n8k4 runs at half the rate there. */
ptx_dmma_shape ptx_dmma_shape_for(int sm) {
  if (sm >= 90) return (ptx_dmma_shape){16, 4, 90};
  return (ptx_dmma_shape){8, 4, 80};
}


void ptx_dmma(ptx_builder *b, ptx_dmma_shape s, const ptx_reg *d, const ptx_reg *a, const ptx_reg *bb, const ptx_reg *c) {
  if (!((s.m == 8 && s.k == 4) || (s.m == 16 && (s.k == 4 || s.k == 8 || s.k == 16)))) {
    ptx_fail(b, "no f64 mma.sync of shape m%dn8k%d", s.m, s.k);
    return;
  }
  ptx_text(b, "\tmma.sync.aligned.m%dn8k%d.row.col.f64.f64.f64.f64 ", s.m, s.k);
  reg_list(b, d, s.m / 4);
  ptx_text(b, ", ");
  reg_list(b, a, s.m * s.k / 32);
  ptx_text(b, ", ");
  reg_list(b, bb, s.k / 4);
  ptx_text(b, ", ");
  reg_list(b, c, s.m / 4);
  ptx_text(b, ";\n");
}
