/* Selection for the tools' problems: what tcj_gemm would choose, computed from the problem and
 * the device caps alone (see gemm_problem.h). */
#include "tools/gemm_problem.h"

#include <stdio.h>
#include <string.h>

size_t gemm_dtype_size(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: case TCJ_BF16: return 2;
  case TCJ_E4M3: case TCJ_E5M2: case TCJ_S8: return 1;
  case TCJ_F64: return 8;
  default: return 4;
  }
}

const char *gemm_dtype_name(tcj_dtype t) {
  static const char *const names[] = {"f16", "bf16", "f32", "tf32", "e4m3", "e5m2", "s8", "s32", "f64"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* The kernel's element type for a tcj dtype, as tcj_gemm maps it; -1: no kernel type. */
static int elem_of(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: return PTX_E_F16;
  case TCJ_BF16: return PTX_E_BF16;
  case TCJ_TF32: return PTX_E_TF32;
  case TCJ_F32: return PTX_E_F32;
  case TCJ_S8: return PTX_E_S8;
  case TCJ_S32: return PTX_E_S32;
  default: return -1;
  }
}

/* Largest power of two <= 16 dividing every row start of a 16-byte aligned operand, as
 * validate computes it. */
static int row_align(int64_t ld, int es) {
  uint64_t bits = (uint64_t)(ld * es) | 16;
  return (int)(bits & (~bits + 1));
}

tcj_status gemm_problem_select(const gemm_problem *pr, const eng_device_caps *caps,
                               const eng_tuning *tuning, eng_plan *plan, const char **why) {
  static _Thread_local char no_kernel[64];
  int ab = elem_of(pr->ab), c = elem_of(pr->c);
  memset(plan, 0, sizeof *plan);
  *why = NULL;
  if (ab < 0 || c < 0) {
    snprintf(no_kernel, sizeof no_kernel, "%s operands have no tcj kernel",
             gemm_dtype_name(ab < 0 ? pr->ab : pr->c));
    *why = no_kernel;
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  if (pr->m == 0 || pr->n == 0) {
    *why = "C is empty: tcj_gemm launches no kernel";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  eng_problem p;
  memset(&p, 0, sizeof p);
  p.op_a_t = pr->op_a == TCJ_OP_T;
  p.op_b_t = pr->op_b == TCJ_OP_T;
  p.m = pr->m;
  p.n = pr->n;
  p.k = pr->k;
  p.ab = (ptx_elem)ab;
  p.c = (ptx_elem)c;
  p.lda = gemm_lda(pr);
  p.ldb = gemm_ldb(pr);
  p.ldc = pr->n;
  p.align_a = row_align(p.lda, ptx_elem_size(p.ab));
  p.align_b = row_align(p.ldb, ptx_elem_size(p.ab));
  p.align_c = row_align(p.ldc, ptx_elem_size(p.c));
  eng_problem_plain_epilogue(&p);
  tcj_status st = eng_select_tuned(&p, caps, 1, tuning, plan, why);
  if (st != TCJ_SUCCESS && (!*why || !**why)) *why = "not supported";
  return st;
}

int gemm_plan_format(const eng_plan *plan, char *buf, size_t size) {
  int n = tcj_cfg_format(&plan->cfg, buf, size);
  if (n < 0) return -1;
  int more = snprintf(buf + n, size - (size_t)n, "%s%s", plan->pack_a ? " pack_a=1" : "",
                      plan->pack_b ? " pack_b=1" : "");
  return more < 0 || (size_t)(n + more) >= size ? -1 : n + more;
}
