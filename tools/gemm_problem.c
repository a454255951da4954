/* SPDX-License-Identifier: Apache-2.0 */
/* Selection for the tools' problems: what tcj_gemm_ex would choose, computed from the problem
 * and the device caps alone (see gemm_problem.h). */
#include "tools/gemm_problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/tools_api.h"

size_t gemm_dtype_size(tcj_dtype t) {
  switch (t) {
  case TCJ_F16: case TCJ_BF16: return 2;
  case TCJ_E4M3: case TCJ_E5M2: case TCJ_S8: return 1;
  case TCJ_F64: return 8;
  default: return 4;
  }
}

/* Whether t is a tcj dtype that may have a kernel element type; whether this build's engine
 * takes it (f64, say) is validation's answer, with its message. */
static int has_kernel_type(tcj_dtype t) {
  return t == TCJ_F16 || t == TCJ_BF16 || t == TCJ_TF32 || t == TCJ_F32 || t == TCJ_S8 || t == TCJ_S32 ||
         t == TCJ_F64 || gemm_dtype_is_fp8(t);
}

/* Stand-in device addresses for validation, 2^58 bytes apart so that no real operand reaches
 * the next (validation compares and aligns them, never dereferences them); 16-byte aligned, as
 * cudaMalloc's are. The scales' (block scales: both arrays, at most 2^57 bytes) are
 * the fifth, a grouped problem's ends or counts (when it has none of its own) the sixth, the MoE
 * extras' (B pointer array, gather indices, row_scale, scatter indices) the seventh to tenth. */
#define STAND_IN(i) ((void *)(uintptr_t)((uint64_t)(i) << 58))

void gemm_problem_desc(const gemm_problem *p, const void *a, const void *b, void *d, const void *bias,
                       const float *scales, tcj_gemm_desc *g) {
  *g = (tcj_gemm_desc)TCJ_GEMM_DESC_INIT;
  g->op_a = p->op_a;
  g->op_b = p->op_b;
  g->m = p->m;
  g->n = p->n;
  g->k = p->k;
  g->a = a;
  g->a_type = p->ab;
  g->lda = gemm_lda(p);
  g->b = b;
  g->b_type = gemm_b_dtype(p);
  g->ldb = gemm_ldb(p);
  g->c_type = p->c;
  g->ldc = p->n;
  if (p->separate_d) { /* C is not given: beta 0 */
    g->d = d;
    g->d_type = p->d;
    g->ldd = p->n;
  } else {
    g->c = d;
  }
  g->beta = 0.0f;
  if (p->bias != TCJ_BIAS_NONE) {
    g->bias = bias;
    g->bias_type = gemm_bias_dtype(p);
    g->bias_kind = p->bias;
  }
  g->activation = p->act;
  if (gemm_batch(p) > 1) {
    g->batch_count = gemm_batch(p);
    g->stride_a = gemm_stride_a(p);
    g->stride_b = gemm_stride_b(p);
    if (p->separate_d) g->stride_d = gemm_stride_d(p);
    else g->stride_c = gemm_stride_d(p);
    if (p->bias != TCJ_BIAS_NONE) g->stride_bias = gemm_stride_bias(p);
  }
  if (gemm_is_grouped(p)) {
    g->group_mode = p->group_mode;
    g->group_count = p->groups;
    g->group_rows_hint = p->group_rows_hint;
    g->stride_b = gemm_is_kgrouped(p) ? 0 : p->k * gemm_b_cols(p);
    if (p->bias != TCJ_BIAS_NONE) g->stride_bias = gemm_b_cols(p);
    const void *groups = p->group_dev ? p->group_dev : STAND_IN(6);
    if (p->group_mode == TCJ_GROUP_M_MASKED || gemm_is_kgrouped(p)) { /* D: G entries */
      if (p->separate_d) g->stride_d = p->m * p->n;
      else g->stride_c = p->m * p->n;
    }
    if (p->group_mode == TCJ_GROUP_M_MASKED) {
      g->group_counts = groups;
      g->stride_a = p->m * p->k;
    } else if (p->group_ends64) {
      g->group_ends64 = groups;
    } else {
      g->group_ends32 = groups;
    }
    if (p->b_ptrs) { /* group g's B through the array: b NULL, stride_b 0 */
      g->group_b_ptrs = p->extras ? p->extras->b_ptrs : (const void *const *)STAND_IN(7);
      g->b = NULL;
      g->stride_b = 0;
    }
    if (p->gather_rows > 0) {
      g->gather_a = p->extras ? p->extras->gather : (const int32_t *)STAND_IN(8);
      g->gather_a_rows = p->gather_rows;
    }
    if (p->scatter) {
      g->scatter_d = p->extras ? p->extras->scatter : (const int32_t *)STAND_IN(10);
      g->scatter_d_rows = p->m;
      g->scatter_mode = gemm_scatter_adds(p->scatter) ? TCJ_SCATTER_ADD : TCJ_SCATTER_STORE;
    }
  }
  if (p->row_scale) g->row_scale = p->extras ? p->extras->row_scale : (const float *)STAND_IN(9);
  g->epilogue_source = p->epilogue_source;
  if (gemm_dtype_is_fp8(p->ab)) { /* only fp8 operands take these fields */
    g->scale_mode = p->scale;
    g->scale_a = scales;
    g->scale_b = !scales ? NULL : scales + gemm_scale_b_at(p);
    g->stride_scale_b = gemm_stride_scale_b(p);
    g->fast_accum = p->fast_accum;
  }
}


tcj_status gemm_problem_validate(const gemm_problem *pr, eng_problem *out_p, const char **why) {
  static _Thread_local char reason[ENG_ERROR_MAX + 64];
  tcj_dtype out = gemm_out_dtype(pr), bt = gemm_b_dtype(pr);
  *why = NULL;
  if (!has_kernel_type(pr->ab) || !has_kernel_type(bt) || !has_kernel_type(out)) {
    snprintf(reason, sizeof reason, "%s operands have no tcj kernel",
             tcj_dtype_name(!has_kernel_type(pr->ab) ? pr->ab : !has_kernel_type(bt) ? bt : out));
    *why = reason;
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  if (pr->m == 0 || pr->n == 0) {
    *why = "C is empty: tcj_gemm launches no kernel";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  tcj_gemm_desc g;
  gemm_problem_desc(pr, STAND_IN(1), STAND_IN(2), STAND_IN(3), STAND_IN(4), (const float *)STAND_IN(5), &g);
  eng_problem p;
  tcj_status st = eng_validate_desc(&g, &p);
  if (st != TCJ_SUCCESS) {
    snprintf(reason, sizeof reason, "%s", eng_last_error());
    *why = reason;
    return st;
  }
  if (p.user) p.user = eng_epilogue_hash(pr->epilogue_source); /* as the engine keys it */
  *out_p = p;
  return TCJ_SUCCESS;
}

tcj_status gemm_problem_select(const gemm_problem *pr, const eng_device_caps *caps,
                               const eng_tuning *tuning, eng_plan *plan, const char **why) {
  eng_problem p;
  memset(plan, 0, sizeof *plan);
  tcj_status st = gemm_problem_validate(pr, &p, why);
  if (st != TCJ_SUCCESS) return st;
  st = eng_select_tuned(&p, caps, 1, tuning, plan, why);
  if (st != TCJ_SUCCESS && (!*why || !**why)) *why = "not supported";
  return st;
}

/* How an operand reaches the kernel: as it lies (""), packed (" pack_a=1") or transposed. */
static const char *pack_text(int pack, int is_b) {
  if (pack == ENG_PACK_NONE) return "";
  if (pack == ENG_PACK_TRANSPOSE) return is_b ? " pack_b=transpose" : " pack_a=transpose";
  return is_b ? " pack_b=1" : " pack_a=1";
}

int gemm_plan_format(const eng_plan *plan, char *buf, size_t size) {
  int n = tcj_cfg_format(&plan->cfg, buf, size);
  if (n < 0) return -1;
  int more = snprintf(buf + n, size - (size_t)n, "%s%s", pack_text(plan->pack_a, 0), pack_text(plan->pack_b, 1));
  return more < 0 || (size_t)(n + more) >= size ? -1 : n + more;
}

int gemm_parse_sm_count(const char *text, int *out) {
  char *end;
  if (*text < '0' || *text > '9') return -1;
  long v = strtol(text, &end, 10);
  if (*end != '\0' || v < 1 || v > 1024) return -1;
  *out = (int)v;
  return 0;
}
