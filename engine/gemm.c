/* tcj_gemm: validate, select, fetch the kernel, pack unaligned operands when the plan says
 * so, and launch on the caller's stream. Nothing is launched or written on a failed check. */
#include <string.h>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/validate.h"
#include "ptxgen/ptxgen.h"

/* Scratch copy of one operand in stream order: rows x cols elements at ld, copied to a buffer
 * whose row pitch is rounded up to 16 bytes so every row start is 16-byte aligned. */
typedef struct packed { CUdeviceptr ptr; int64_t ld; } packed;

static tcj_status pack(tcj_engine *e, CUdeviceptr src, int64_t rows, int64_t cols, int64_t ld,
                       int es, CUstream stream, packed *out) {
  int64_t pitch = (cols * es + 15) / 16 * 16;
  out->ld = pitch / es;
  CUresult r = e->cu->cuMemAllocAsync(&out->ptr, (size_t)(pitch * rows), stream);
  if (r != CUDA_SUCCESS) { out->ptr = 0; return eng_cuda_error(r, "cuMemAllocAsync (packing scratch)"); }
  CUDA_MEMCPY2D cp;
  memset(&cp, 0, sizeof cp);
  cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  cp.srcDevice = src;
  cp.srcPitch = (size_t)(ld * es);
  cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  cp.dstDevice = out->ptr;
  cp.dstPitch = (size_t)pitch;
  cp.WidthInBytes = (size_t)(cols * es);
  cp.Height = (size_t)rows;
  if ((r = e->cu->cuMemcpy2DAsync(&cp, stream)) != CUDA_SUCCESS) return eng_cuda_error(r, "cuMemcpy2DAsync (packing)");
  return TCJ_SUCCESS;
}

static tcj_status launch(tcj_engine *e, const eng_problem *p, const eng_plan *plan,
                         const cache_kernel *k, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
                         float alpha, float beta, CUstream stream) {
  int es = ptx_elem_size(p->ab);
  packed pa = {a, p->lda}, pb = {b, p->ldb};
  tcj_status st = TCJ_SUCCESS;
  /* Stored shapes: A is m x k (N) or k x m (T); B is k x n (N) or n x k (T). */
  if (plan->pack_a)
    st = pack(e, a, p->op_a_t ? p->k : p->m, p->op_a_t ? p->m : p->k, p->lda, es, stream, &pa);
  if (st == TCJ_SUCCESS && plan->pack_b)
    st = pack(e, b, p->op_b_t ? p->n : p->k, p->op_b_t ? p->k : p->n, p->ldb, es, stream, &pb);
  /* Split-K: the slices write fp32 partial sums to a workspace; the reduction applies alpha
   * and beta into C. */
  CUdeviceptr work = 0;
  if (st == TCJ_SUCCESS && k->slices > 1) {
    CUresult r = e->cu->cuMemAllocAsync(&work, (size_t)k->slices * (size_t)p->m * (size_t)p->n * 4, stream);
    if (r != CUDA_SUCCESS) { work = 0; st = eng_cuda_error(r, "cuMemAllocAsync (split-K workspace)"); }
  }
  if (st == TCJ_SUCCESS) {
    /* Parameter order and types: the kernel ABI in ptxgen/ptxgen.h. */
    uint64_t pa_ptr = pa.ptr, pb_ptr = pb.ptr, pc_ptr = work ? work : c;
    uint32_t m32 = (uint32_t)p->m;
    uint64_t lda = (uint64_t)pa.ld, ldb = (uint64_t)pb.ld, ldc = (uint64_t)p->ldc;
    void *args[] = {&pa_ptr, &pb_ptr, &pc_ptr, &m32, &lda, &ldb, &ldc, &alpha, &beta};
    int64_t grid = (p->m + k->bm - 1) / k->bm * ((p->n + k->bn - 1) / k->bn);
    CUresult r = e->cu->cuLaunchKernel((CUfunction)k->function, (unsigned)grid, (unsigned)k->slices, 1,
                                       (unsigned)k->threads, 1, 1, (unsigned)k->smem_bytes,
                                       stream, args, NULL);
    if (r != CUDA_SUCCESS) st = eng_cuda_error(r, "cuLaunchKernel");
    if (st == TCJ_SUCCESS && work) {
      uint64_t w_ptr = work, c_ptr = c;
      void *rargs[] = {&w_ptr, &c_ptr, &m32, &ldc, &alpha, &beta};
      int64_t blocks = (p->m * p->n + PTX_REDUCE_THREADS - 1) / PTX_REDUCE_THREADS;
      r = e->cu->cuLaunchKernel((CUfunction)k->reduce, (unsigned)blocks, 1, 1, PTX_REDUCE_THREADS, 1, 1, 0,
                                stream, rargs, NULL);
      if (r != CUDA_SUCCESS) st = eng_cuda_error(r, "cuLaunchKernel (split-K reduction)");
    }
  }
  /* Stream-ordered frees run after the kernel (or the failed copy) that used the scratch. */
  if (plan->pack_a && pa.ptr) e->cu->cuMemFreeAsync(pa.ptr, stream);
  if (plan->pack_b && pb.ptr) e->cu->cuMemFreeAsync(pb.ptr, stream);
  if (work) e->cu->cuMemFreeAsync(work, stream);
  return st;
}

tcj_status tcj_gemm(tcj_engine *e, tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                    float alpha, const void *a, tcj_dtype a_type, int64_t lda,
                    const void *b, tcj_dtype b_type, int64_t ldb,
                    float beta, void *c, tcj_dtype c_type, int64_t ldc, CUstream stream) {
  if (!e) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "engine is NULL");
  eng_problem p;
  tcj_status st = eng_validate(op_a, op_b, m, n, k, a, a_type, lda, b, b_type, ldb, c, c_type, ldc, &p);
  if (st != TCJ_SUCCESS) return st;
  if (m == 0 || n == 0) return TCJ_SUCCESS; /* C is empty: nothing to launch */
  eng_plan plan;
  const char *why = NULL;
  if ((st = eng_select(&p, &e->caps, e->allow_packing, &plan, &why)) != TCJ_SUCCESS)
    return eng_set_error(st, "%s", why);
  if ((why = eng_tile_override_apply(&e->tile, &e->caps, &plan)) != NULL)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "TCJ_TILE: %s", why);
  int pushed = 0;
  if ((st = eng_ctx_enter(e, &pushed)) != TCJ_SUCCESS) return st;
  cache_kernel kern;
  st = eng_kernel_get(e, &plan.cfg, &kern, NULL);
  if (st == TCJ_SUCCESS)
    st = launch(e, &p, &plan, &kern, (CUdeviceptr)(uintptr_t)a, (CUdeviceptr)(uintptr_t)b,
                (CUdeviceptr)(uintptr_t)c, alpha, beta, stream);
  eng_ctx_leave(e, pushed);
  return st;
}
