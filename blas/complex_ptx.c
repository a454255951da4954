/* SPDX-License-Identifier: Apache-2.0 */
/* The PTX of complex_kernels.c's two kernels (expand and combine, for float and double): text
 * only, no CUDA call, so that CPU tests assemble it with ptxas for every architecture. Scalar
 * loads and stores: complex arrays are only element-aligned (4 bytes for c), and both kernels
 * are bound by memory anyway. Each thread walks rows (x, coalesced where op(Y) = Y) with a
 * grid stride, each block row columns (y). */
#include "blas/tcjblas_internal.h"

/* One entry of each kernel for type T (f32 or f64), element bytes ES. %1$s: T, %2$d: ES,
 * %3$d: log2(ES), %4$d: log2(2 ES), a complex element. */
static const char expand_ptx[] =
  ".visible .entry tb_expand_%1$s(.param .u64 p_src, .param .u64 p_ld, .param .u32 p_trans,\n"
  "    .param .%1$s p_sr, .param .%1$s p_si, .param .u64 p_dst, .param .u64 p_rows,\n"
  "    .param .u64 p_cols, .param .u32 p_mode)\n"
  "{\n"
  "  .reg .pred %%p<8>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<32>;\n  .reg .%1$s %%f<12>;\n"
  "  ld.param.u64 %%rd1, [p_src];\n  cvta.to.global.u64 %%rd1, %%rd1;\n"
  "  ld.param.u64 %%rd2, [p_ld];\n  ld.param.u32 %%r1, [p_trans];\n"
  "  ld.param.%1$s %%f1, [p_sr];\n  ld.param.%1$s %%f2, [p_si];\n"
  "  ld.param.u64 %%rd3, [p_dst];\n  cvta.to.global.u64 %%rd3, %%rd3;\n"
  "  ld.param.u64 %%rd4, [p_rows];\n  ld.param.u64 %%rd5, [p_cols];\n  ld.param.u32 %%r2, [p_mode];\n"
  "  mov.u32 %%r3, %%ctaid.x;\n  mov.u32 %%r4, %%ntid.x;\n  mov.u32 %%r5, %%tid.x;\n  mov.u32 %%r6, %%nctaid.x;\n"
  "  mul.wide.u32 %%rd6, %%r3, %%r4;\n  cvt.u64.u32 %%rd7, %%r5;\n  add.u64 %%rd6, %%rd6, %%rd7;\n"
  "  mul.wide.u32 %%rd8, %%r6, %%r4;\n"
  "  mov.u32 %%r7, %%ctaid.y;\n  cvt.u64.u32 %%rd9, %%r7;\n  mov.u32 %%r8, %%nctaid.y;\n  cvt.u64.u32 %%rd10, %%r8;\n"
  "  shl.b64 %%rd11, %%rd4, 1;\n" /* the output's ld: 2 rows */
  "  shl.b64 %%rd21, %%rd11, %3$d;\n" /* ... in bytes: mode 0's second column */
  "  setp.eq.u32 %%p1, %%r1, 0;\n  setp.eq.u32 %%p2, %%r1, 2;\n  setp.eq.u32 %%p3, %%r2, 0;\n"
  "  mov.u64 %%rd12, %%rd9;\n"
  "$COLS_%1$s:\n"
  "  setp.ge.u64 %%p4, %%rd12, %%rd5;\n  @%%p4 bra $DONE_%1$s;\n"
  "  mov.u64 %%rd13, %%rd6;\n"
  "$ROWS_%1$s:\n"
  "  setp.ge.u64 %%p5, %%rd13, %%rd4;\n  @%%p5 bra $NEXT_COL_%1$s;\n"
  /* op(Y)(r, c): Y(r, c) for N, Y(c, r) for T and C (conjugated) */
  "  mad.lo.u64 %%rd14, %%rd12, %%rd2, %%rd13;\n  mad.lo.u64 %%rd15, %%rd13, %%rd2, %%rd12;\n"
  "  selp.b64 %%rd16, %%rd14, %%rd15, %%p1;\n  shl.b64 %%rd16, %%rd16, %4$d;\n  add.u64 %%rd16, %%rd1, %%rd16;\n"
  "  ld.global.%1$s %%f3, [%%rd16];\n  ld.global.%1$s %%f4, [%%rd16+%2$d];\n"
  "  @%%p2 neg.%1$s %%f4, %%f4;\n"
  /* x = s y: (sr re - si im, sr im + si re) */
  "  mul.rn.%1$s %%f5, %%f2, %%f4;\n  neg.%1$s %%f5, %%f5;\n  fma.rn.%1$s %%f5, %%f1, %%f3, %%f5;\n"
  "  mul.rn.%1$s %%f6, %%f2, %%f3;\n  fma.rn.%1$s %%f6, %%f1, %%f4, %%f6;\n  neg.%1$s %%f7, %%f6;\n"
  /* column 2c (mode 0) or c (mode 1), rows 2r and 2r + 1 */
  "  shl.b64 %%rd17, %%rd12, 1;\n  selp.b64 %%rd17, %%rd17, %%rd12, %%p3;\n"
  "  shl.b64 %%rd18, %%rd13, 1;\n  mad.lo.u64 %%rd19, %%rd17, %%rd11, %%rd18;\n"
  "  shl.b64 %%rd19, %%rd19, %3$d;\n  add.u64 %%rd19, %%rd3, %%rd19;\n"
  "  st.global.%1$s [%%rd19], %%f5;\n  st.global.%1$s [%%rd19+%2$d], %%f6;\n"
  "  @!%%p3 bra $NEXT_ROW_%1$s;\n"
  "  add.u64 %%rd20, %%rd19, %%rd21;\n" /* column 2c + 1: (-Im, Re) */
  "  st.global.%1$s [%%rd20], %%f7;\n  st.global.%1$s [%%rd20+%2$d], %%f5;\n"
  "$NEXT_ROW_%1$s:\n"
  "  add.u64 %%rd13, %%rd13, %%rd8;\n  bra.uni $ROWS_%1$s;\n"
  "$NEXT_COL_%1$s:\n"
  "  add.u64 %%rd12, %%rd12, %%rd10;\n  bra.uni $COLS_%1$s;\n"
  "$DONE_%1$s:\n"
  "  ret;\n"
  "}\n";

static const char combine_ptx[] =
  ".visible .entry tb_combine_%1$s(.param .u64 p_p, .param .u64 p_c, .param .u64 p_ldc,\n"
  "    .param .%1$s p_br, .param .%1$s p_bi, .param .u64 p_rows, .param .u64 p_cols)\n"
  "{\n"
  "  .reg .pred %%p<8>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<32>;\n  .reg .%1$s %%f<12>;\n"
  "  ld.param.u64 %%rd1, [p_p];\n  cvta.to.global.u64 %%rd1, %%rd1;\n"
  "  ld.param.u64 %%rd2, [p_c];\n  cvta.to.global.u64 %%rd2, %%rd2;\n"
  "  ld.param.u64 %%rd3, [p_ldc];\n"
  "  ld.param.%1$s %%f1, [p_br];\n  ld.param.%1$s %%f2, [p_bi];\n"
  "  ld.param.u64 %%rd4, [p_rows];\n  ld.param.u64 %%rd5, [p_cols];\n"
  "  mov.u32 %%r3, %%ctaid.x;\n  mov.u32 %%r4, %%ntid.x;\n  mov.u32 %%r5, %%tid.x;\n  mov.u32 %%r6, %%nctaid.x;\n"
  "  mul.wide.u32 %%rd6, %%r3, %%r4;\n  cvt.u64.u32 %%rd7, %%r5;\n  add.u64 %%rd6, %%rd6, %%rd7;\n"
  "  mul.wide.u32 %%rd8, %%r6, %%r4;\n"
  "  mov.u32 %%r7, %%ctaid.y;\n  cvt.u64.u32 %%rd9, %%r7;\n  mov.u32 %%r8, %%nctaid.y;\n  cvt.u64.u32 %%rd10, %%r8;\n"
  "  shl.b64 %%rd11, %%rd4, 1;\n" /* P's ld: 2 rows */
  "  mov.u64 %%rd12, %%rd9;\n"
  "$CCOLS_%1$s:\n"
  "  setp.ge.u64 %%p4, %%rd12, %%rd5;\n  @%%p4 bra $CDONE_%1$s;\n"
  "  mov.u64 %%rd13, %%rd6;\n"
  "$CROWS_%1$s:\n"
  "  setp.ge.u64 %%p5, %%rd13, %%rd4;\n  @%%p5 bra $CNEXT_COL_%1$s;\n"
  "  shl.b64 %%rd14, %%rd13, 1;\n  mad.lo.u64 %%rd14, %%rd12, %%rd11, %%rd14;\n"
  "  shl.b64 %%rd14, %%rd14, %3$d;\n  add.u64 %%rd14, %%rd1, %%rd14;\n" /* P(2r, c) */
  "  mad.lo.u64 %%rd15, %%rd12, %%rd3, %%rd13;\n  shl.b64 %%rd15, %%rd15, %4$d;\n"
  "  add.u64 %%rd15, %%rd2, %%rd15;\n" /* C(r, c) */
  "  ld.global.%1$s %%f3, [%%rd14];\n  ld.global.%1$s %%f4, [%%rd14+%2$d];\n"
  "  ld.global.%1$s %%f5, [%%rd15];\n  ld.global.%1$s %%f6, [%%rd15+%2$d];\n"
  /* (pr + br cr - bi ci, pi + br ci + bi cr) */
  "  mul.rn.%1$s %%f7, %%f2, %%f6;\n  sub.rn.%1$s %%f7, %%f3, %%f7;\n  fma.rn.%1$s %%f7, %%f1, %%f5, %%f7;\n"
  "  fma.rn.%1$s %%f8, %%f2, %%f5, %%f4;\n  fma.rn.%1$s %%f8, %%f1, %%f6, %%f8;\n"
  "  st.global.%1$s [%%rd15], %%f7;\n  st.global.%1$s [%%rd15+%2$d], %%f8;\n"
  "  add.u64 %%rd13, %%rd13, %%rd8;\n  bra.uni $CROWS_%1$s;\n"
  "$CNEXT_COL_%1$s:\n"
  "  add.u64 %%rd12, %%rd12, %%rd10;\n  bra.uni $CCOLS_%1$s;\n"
  "$CDONE_%1$s:\n"
  "  ret;\n"
  "}\n";

/* The module's text: the header, then each kernel for f32 and f64. */
size_t tb_complex_kernels_ptx(char *out, size_t size) {
  size_t n = (size_t)snprintf(out, size, ".version 7.0\n.target sm_70\n.address_size 64\n\n");
  static const struct { const char *t; int es, log2es; } types[2] = {{"f32", 4, 2}, {"f64", 8, 3}};
  /* (%4$d, log2 of a complex element's bytes, is log2es + 1.) */
  for (int i = 0; i < 2; i++) {
    n += (size_t)snprintf(out + (n < size ? n : size), n < size ? size - n : 0, expand_ptx,
                          types[i].t, types[i].es, types[i].log2es, types[i].log2es + 1);
    n += (size_t)snprintf(out + (n < size ? n : size), n < size ? size - n : 0, combine_ptx,
                          types[i].t, types[i].es, types[i].log2es, types[i].log2es + 1);
  }
  return n;
}

