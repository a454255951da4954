/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU path: SGEMM and DGEMM on tcj, one engine per process. Operands in the configured
 * device's memory are used in place; large host arrays go through pipeline.c (pinned staging,
 * tiles overlapping the copies); the others (smaller host arrays, other devices) are copied
 * whole into buffers of their own and C is copied back. Synchronous, as BLAS calls are.
 * Not run by CI (no GPU there): keep it plain. */
#include "blas/cuda_driver.h"

#include <pthread.h>
#include <tcj.h>

/* Complex types (cgemm, zgemm) are not taken here: gpu_complex.c builds their real form on the
 * device and calls this with it (complex_real.c explains the form). */

static tcj_engine *engine;
static char engine_why[512];
static pthread_once_t engine_once = PTHREAD_ONCE_INIT;

static void create_once(void) {
  const char *why = NULL;
  const tb_cuda *cu = tb_cuda_get(&why);
  if (!cu) {
    snprintf(engine_why, sizeof engine_why, "%s", why);
    return;
  }
  /* tcj binds its engine to the context current at tcj_create: ours, the device's primary
   * context, which is also the CUDA runtime's, so cudaMalloc'ed arrays are usable in place. */
  if (tb_cuda_enter(cu)) {
    snprintf(engine_why, sizeof engine_why, "cannot make device %d's context current", cu->ordinal);
    return;
  }
  tcj_status s = tcj_create(&engine, NULL);
  tb_cuda_leave(cu);
  if (s != TCJ_SUCCESS) {
    snprintf(engine_why, sizeof engine_why, "tcj_create: %s", tcj_status_string(s));
    engine = NULL;
  }
}

int tb_gpu_compile_counts(tb_gpu_compiles *out) {
  tcj_stats s = TCJ_STATS_INIT;
  /* engine is set once, under engine_once, before any call can have used it. */
  if (!engine || tcj_get_stats(engine, &s) != TCJ_SUCCESS) return -1;
  out->caller = s.compiles - s.compiles_background;
  out->background = s.compiles_background;
  out->disk_hits = s.disk_hits;
  out->ms = (double)s.compile_ns / 1e6;
  return 0;
}

static atomic_int warned_unavailable, warned_failed, warned_cuda;

tcj_engine *tb_gpu_engine(const char **why) {
  pthread_once(&engine_once, create_once);
  if (!engine && why) *why = engine_why;
  return engine;
}

int tb_gpu_enqueue(tcj_engine *e, const tb_gemm *g, CUstream stream) {
  int scales = tb_gemm_only_scales(g), f64 = g->type == TB_D;
  tcj_gemm_desc d = TCJ_GEMM_DESC_INIT;
  d.order = TCJ_ORDER_COL_MAJOR; /* Fortran's conventions exactly: m, n, k and lds as given */
  d.a_type = d.b_type = d.c_type = d.d_type = f64 ? TCJ_F64 : TCJ_F32; /* F32: fp32 accuracy (3xTF32) */
  d.m = g->m;
  d.n = g->n;
  d.c = g->c;
  d.ldc = g->ldc;
  if (scales) {
    /* C = beta C (device C only; host C is scaled on the host): k = 0 reads neither A nor B,
     * which BLAS allows to be anything. They get C's valid address and sizes tcj accepts. */
    d.op_a = d.op_b = TCJ_OP_N;
    d.k = 0;
    d.a = d.b = d.c;
    d.lda = g->ldc;
    d.ldb = 1;
  } else {
    d.op_a = g->ta == 'N' ? TCJ_OP_N : TCJ_OP_T; /* 'C' of a real matrix is 'T' */
    d.op_b = g->tb == 'N' ? TCJ_OP_N : TCJ_OP_T;
    d.k = g->k;
    d.a = g->a;
    d.lda = g->lda;
    d.b = g->b;
    d.ldb = g->ldb;
  }
  /* The scalars of the operands' precision; the other pair keeps TCJ_GEMM_DESC_INIT's values,
   * as tcj.h requires. */
  if (f64) {
    d.alpha_f64 = scales ? 0 : *(const double *)g->alpha;
    d.beta_f64 = *(const double *)g->beta;
  } else {
    d.alpha = scales ? 0 : *(const float *)g->alpha;
    d.beta = *(const float *)g->beta;
  }
  tcj_status s = tcj_gemm_ex(e, &d, stream);
  if (s != TCJ_SUCCESS)
    tb_msg_once(&warned_failed, "tcj_gemm_ex failed (%s: %s): such calls run on the CPU",
                tcj_status_string(s), tcj_last_error(e));
  return (int)s; /* validation failures launch and write nothing */
}

tb_gpu_result tb_gpu_gemm(const tb_gemm *g, tb_places p) {
  if (tb_is_complex(g->type)) return TB_GPU_NOT_RUN;
  if (!tb_gpu_engine(NULL)) {
    tb_msg_once(&warned_unavailable, "GPU path unavailable (%s): calls run on the CPU", engine_why);
    return TB_GPU_NOT_RUN;
  }
  const tb_cuda *cu = tb_cuda_get(NULL);
  if (tb_cuda_enter(cu)) return TB_GPU_NOT_RUN;
  tb_gpu_result res = TB_GPU_NOT_RUN;
  if (!tb_pipeline_gemm(cu, engine, g, p, &res)) {
    tb_cuda_leave(cu);
    return res;
  }
  size_t es = tb_elem_size(g->type);
  tb_operand a = {0}, b = {0}, c = {0};
  const char *what = "cuMemAlloc or a copy";
  tb_gemm dev = *g; /* the same GEMM over the device operands */
  CUresult r = tb_cuda_place(cu, &c, p.c, g->c, g->ldc, g->m, g->n, es, !tb_beta_is_zero(g));
  if (!tb_gemm_only_scales(g)) {
    int64_t ra = g->ta == 'N' ? g->m : g->k, ca = g->ta == 'N' ? g->k : g->m;
    int64_t rb = g->tb == 'N' ? g->k : g->n, cb = g->tb == 'N' ? g->n : g->k;
    if (r == CUDA_SUCCESS) r = tb_cuda_place(cu, &a, p.a, g->a, g->lda, ra, ca, es, 1);
    if (r == CUDA_SUCCESS) r = tb_cuda_place(cu, &b, p.b, g->b, g->ldb, rb, cb, es, 1);
  }
  dev.a = (const void *)(uintptr_t)a.ptr;
  dev.lda = a.ld;
  dev.b = (const void *)(uintptr_t)b.ptr;
  dev.ldb = b.ld;
  dev.c = (void *)(uintptr_t)c.ptr;
  dev.ldc = c.ld;
  if (r != CUDA_SUCCESS) goto done;
  if (tb_gpu_enqueue(engine, &dev, NULL)) goto done; /* the legacy default stream, as the copies */
  r = cu->cuStreamSynchronize(NULL);
  what = "the GEMM kernel";
  if (r == CUDA_SUCCESS && p.c != TB_DEVICE) {
    tb_span dst = {g->c, g->ldc, tb_cuda_kind(p.c)};
    tb_span src = {(void *)(uintptr_t)c.ptr, c.ld, CU_MEMORYTYPE_DEVICE};
    what = "copying C back";
    r = tb_cuda_copy(cu, dst, src, g->m, g->n, es);
  }
  /* Once the kernel was launched, C may be partly written (in place, or by a copy back that
   * failed half way): the call cannot be run again from it. */
  res = r == CUDA_SUCCESS ? TB_GPU_DONE : TB_GPU_FAILED;
  if (res == TB_GPU_DONE) tb_report_ran(TB_RAN_GPU);
done:
  if (r != CUDA_SUCCESS)
    tb_msg_once(&warned_cuda, "GPU GEMM failed in %s (%s)%s", what, tb_cuda_error_name(cu, r),
                res == TB_GPU_FAILED ? ": C may be partly written" : ": such calls run on the CPU");
  if (a.owned) cu->cuMemFree(a.owned);
  if (b.owned) cu->cuMemFree(b.owned);
  if (c.owned) cu->cuMemFree(c.owned);
  tb_cuda_leave(cu);
  return res;
}
