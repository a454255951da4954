/* tcj_gemm: validate, select, fetch the kernel, pack unaligned operands when the plan says
 * so, and launch on the caller's stream. Nothing is launched or written on a failed check. */
#include <assert.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/validate.h"
#include "ptxgen/ptxgen.h"

/* One operand as the kernel reads it: the caller's pointer and ld, or a packed scratch copy. */
typedef struct operand { CUdeviceptr ptr; int64_t ld; } operand;

/* A call's scratch is one region (see tcj.h): packed A, packed B, then split-K partial sums,
 * each at a 256-byte boundary. Packed rows are padded to 16 bytes (eng_packed_ld), so every row
 * start is 16-byte aligned. */
#define SCRATCH_ALIGN 256
typedef struct scratch_layout { size_t a_off, b_off, work_off, bytes; } scratch_layout;

static size_t align_up(size_t x) { return (x + SCRATCH_ALIGN - 1) / SCRATCH_ALIGN * SCRATCH_ALIGN; }

/* Stored shapes: A is m x k (N) or k x m (T); B is k x n (N) or n x k (T). */
static void stored_a(const eng_problem *p, int64_t *rows, int64_t *cols) {
  *rows = p->op_a_t ? p->k : p->m;
  *cols = p->op_a_t ? p->m : p->k;
}
static void stored_b(const eng_problem *p, int64_t *rows, int64_t *cols) {
  *rows = p->op_b_t ? p->n : p->k;
  *cols = p->op_b_t ? p->k : p->n;
}

static scratch_layout scratch_of(const eng_problem *p, const eng_plan *plan) {
  scratch_layout l = {0, 0, 0, 0};
  int es = ptx_elem_size(p->ab);
  int64_t rows, cols;
  if (plan->pack_a) {
    stored_a(p, &rows, &cols);
    l.bytes = align_up((size_t)(eng_packed_ld(cols, es) * es * rows));
  }
  l.b_off = l.bytes;
  if (plan->pack_b) {
    stored_b(p, &rows, &cols);
    l.bytes += align_up((size_t)(eng_packed_ld(cols, es) * es * rows));
  }
  l.work_off = l.bytes;
  if (tcj_cfg_slices(&plan->cfg) > 1) l.bytes += align_up((size_t)tcj_cfg_slices(&plan->cfg) * (size_t)p->m * (size_t)p->n * 4);
  return l;
}

/* The call's scratch: the caller's workspace, else its allocator, else the stream-ordered pool. */
static tcj_status scratch_get(tcj_engine *e, size_t bytes, CUstream stream, CUdeviceptr *base) {
  *base = 0;
  if (!bytes) return TCJ_SUCCESS;
  if (e->ws_bytes) {
    if (bytes > e->ws_bytes)
      return eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "this call needs %zu bytes of workspace; tcj_set_workspace gave %zu",
                           bytes, e->ws_bytes);
    *base = e->ws_ptr;
    return TCJ_SUCCESS;
  }
  if (e->alloc) {
    int rc = e->alloc(e->alloc_ctx, bytes, stream, base);
    if (rc != 0 || !*base) {
      *base = 0;
      return eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "the allocator of tcj_options.alloc returned %d for %zu bytes of scratch",
                           rc, bytes);
    }
    return TCJ_SUCCESS;
  }
  CUresult r = e->cu->cuMemAllocAsync(base, bytes, stream);
  if (r != CUDA_SUCCESS) {
    *base = 0;
    return eng_cuda_error(r, "cuMemAllocAsync (scratch)");
  }
  return TCJ_SUCCESS;
}

/* Stream order frees the region after the kernels (or the failed copy) that used it. */
static void scratch_put(tcj_engine *e, CUdeviceptr base, size_t bytes, CUstream stream) {
  if (!base || e->ws_bytes) return;
  if (e->alloc) e->free(e->alloc_ctx, base, bytes, stream);
  else e->cu->cuMemFreeAsync(base, stream);
}

/* Copies rows x cols elements at (src, ld) into the scratch, in stream order. */
static tcj_status pack_copy(tcj_engine *e, CUdeviceptr src, int64_t rows, int64_t cols, int64_t ld, int es,
                            const operand *dst, CUstream stream) {
  CUDA_MEMCPY2D cp;
  memset(&cp, 0, sizeof cp);
  cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  cp.srcDevice = src;
  cp.srcPitch = (size_t)(ld * es);
  cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  cp.dstDevice = dst->ptr;
  cp.dstPitch = (size_t)(dst->ld * es);
  cp.WidthInBytes = (size_t)(cols * es);
  cp.Height = (size_t)rows;
  CUresult r = e->cu->cuMemcpy2DAsync(&cp, stream);
  return r == CUDA_SUCCESS ? TCJ_SUCCESS : eng_cuda_error(r, "cuMemcpy2DAsync (packing)");
}

/* The kernel takes the maps as 128-byte .param arrays aligned to 64 (ptxgen.h); cuLaunchKernel
 * copies the parameter's size from the pointer in args[]. */
_Static_assert(sizeof(CUtensorMap) == 128 && _Alignof(CUtensorMap) >= 64, "CUtensorMap is not the kernel's tmap parameter");

/* cuTensorMapEncodeTiled for a map ptxgen describes (sm90_abi.c), at address ptr. */
static tcj_status encode_desc(tcj_engine *e, const char *name, const ptx_tmap_desc *d, CUdeviceptr ptr,
                              CUtensorMap *out) {
  if (!e->cu->cuTensorMapEncodeTiled)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "the CUDA driver lacks cuTensorMapEncodeTiled (CUDA 12.0 or newer "
                         "is needed for the sm90 recipe; TCJ_RECIPE=sm80 avoids it)");
  CUtensorMapDataType type = d->elem == PTX_E_BF16  ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                             : d->elem == PTX_E_F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                                    : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  cuuint64_t dims[2] = {d->dims[0], d->dims[1]}, strides[1] = {d->stride_bytes};
  cuuint32_t box[2] = {d->box[0], d->box[1]}, elem_strides[2] = {1, 1};
  CUresult r = e->cu->cuTensorMapEncodeTiled(out, type, 2, (void *)(uintptr_t)ptr, dims, strides, box,
                                             elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                             CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return eng_set_error(TCJ_ERROR_CUDA, "cuTensorMapEncodeTiled (%s: %s, dims %llux%llu, stride %llu "
                         "bytes, box %ux%u, address 0x%llx): %s", name, ptx_elem_name(d->elem),
                         (unsigned long long)d->dims[0], (unsigned long long)d->dims[1],
                         (unsigned long long)d->stride_bytes, d->box[0], d->box[1],
                         (unsigned long long)ptr, eng_cuda_error_name(r));
  return TCJ_SUCCESS;
}

/* The tensor map of operand A (is_b = 0) or B of an sm90 kernel, as ptx_sm90_tmap describes it. */
static tcj_status encode_tmap(tcj_engine *e, const tcj_kernel_cfg *cfg, int is_b, int64_t m, const operand *op,
                              CUtensorMap *out) {
  const char *name = is_b ? "operand B" : "operand A";
  ptx_tmap_desc d;
  /* Select packs what TMA cannot read; reaching these is a planning bug. */
  if (op->ptr % 16 != 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "sm90 launch: %s at 0x%llx is not 16-byte aligned", name,
                         (unsigned long long)op->ptr);
  if (ptx_sm90_tmap(cfg, is_b, m, op->ld, &d) != 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "sm90 launch: TMA cannot address %s (m %lld, ld %lld)", name,
                         (long long)m, (long long)op->ld);
  return encode_desc(e, name, &d, op->ptr, out);
}

/* C's tensor map, for kernels that store C through TMA (ptx_sm90_tmap_c); zeros otherwise. */
static tcj_status encode_tmap_c(tcj_engine *e, const tcj_kernel_cfg *cfg, const eng_problem *p, CUdeviceptr c,
                                CUtensorMap *out) {
  ptx_tmap_desc d;
  memset(out, 0, sizeof *out);
  int use = ptx_sm90_tmap_c(cfg, p->m, p->ldc, &d);
  if (use == 1) return TCJ_SUCCESS;
  /* vec_c promises 16-byte rows; select derived it from C's alignment. */
  if (use < 0 || c % 16 != 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "sm90 launch: TMA cannot address C (ldc %lld, address 0x%llx)",
                         (long long)p->ldc, (unsigned long long)c);
  return encode_desc(e, "C", &d, c, out);
}

/* Split-K: the slices wrote fp32 partial sums into work; the reduction (PTX_REDUCE_ENTRY of the
 * same module) adds them and applies alpha and beta into C. */
static tcj_status launch_reduce(tcj_engine *e, const eng_problem *p, const cache_kernel *k, CUdeviceptr work,
                                CUdeviceptr c, float alpha, float beta, CUstream stream) {
  uint64_t w_ptr = work, c_ptr = c, ldc = (uint64_t)p->ldc;
  uint32_t m32 = (uint32_t)p->m;
  void *rargs[] = {&w_ptr, &c_ptr, &m32, &ldc, &alpha, &beta};
  int64_t blocks = (p->m * p->n + PTX_REDUCE_THREADS - 1) / PTX_REDUCE_THREADS;
  CUresult r = e->cu->cuLaunchKernel((CUfunction)k->reduce, (unsigned)blocks, 1, 1, PTX_REDUCE_THREADS, 1, 1, 0,
                                     stream, rargs, NULL);
  return r == CUDA_SUCCESS ? TCJ_SUCCESS : eng_cuda_error(r, "cuLaunchKernel (split-K reduction)");
}

/* The sm80 kernel (and for split configs, its reduction): parameters and grid of
 * PTX_GEMM_ENTRY. work: the split-K workspace, or 0. */
static tcj_status launch_sm80(tcj_engine *e, const eng_problem *p, const cache_kernel *k, const operand *a,
                              const operand *b, CUdeviceptr c, CUdeviceptr work, float alpha, float beta,
                              CUstream stream) {
  uint64_t pa_ptr = a->ptr, pb_ptr = b->ptr, pc_ptr = work ? work : c;
  uint32_t m32 = (uint32_t)p->m;
  uint64_t lda = (uint64_t)a->ld, ldb = (uint64_t)b->ld, ldc = (uint64_t)p->ldc;
  void *args[] = {&pa_ptr, &pb_ptr, &pc_ptr, &m32, &lda, &ldb, &ldc, &alpha, &beta};
  int64_t grid = (p->m + k->bm - 1) / k->bm * ((p->n + k->bn - 1) / k->bn);
  CUresult r = e->cu->cuLaunchKernel((CUfunction)k->function, (unsigned)grid, (unsigned)k->slices, 1,
                                     (unsigned)k->threads, 1, 1, (unsigned)k->smem_bytes, stream, args, NULL);
  if (r != CUDA_SUCCESS) return eng_cuda_error(r, "cuLaunchKernel");
  return work ? launch_reduce(e, p, k, work, c, alpha, beta, stream) : TCJ_SUCCESS;
}

/* The sm90 kernel: tensor maps (encoded by the caller), then the PTX_SM90_ENTRY parameters, on
 * the persistent grid. Clusters are declared in the PTX, so a plain launch forms them. */
static tcj_status launch_sm90(tcj_engine *e, const eng_problem *p, const tcj_kernel_cfg *cfg, const cache_kernel *k,
                              CUtensorMap *tmap_a, CUtensorMap *tmap_b, CUtensorMap *tmap_c, CUdeviceptr c,
                              CUdeviceptr work, float alpha, float beta, CUstream stream) {
  /* Split: the kernel writes raw fp32 partial sums into the dense workspace (ldc = n). */
  uint64_t pc_ptr = work ? work : c, ldc = work ? (uint64_t)p->n : (uint64_t)p->ldc;
  uint32_t m32 = (uint32_t)p->m;
  float k_alpha = work ? 1.0f : alpha, k_beta = work ? 0.0f : beta;
  void *args[] = {tmap_a, tmap_b, tmap_c, &pc_ptr, &m32, &ldc, &k_alpha, &k_beta};
  int slots = e->caps.sm_count;
  if (k->max_ctas > 0 && k->max_ctas < slots) slots = k->max_ctas; /* clusters that fit at once */
  int64_t grid = ptx_sm90_grid(cfg, p->m, slots);
  CUresult r = e->cu->cuLaunchKernel((CUfunction)k->function, (unsigned)grid, 1, 1, (unsigned)k->threads, 1, 1,
                                     (unsigned)k->smem_bytes, stream, args, NULL);
  if (r != CUDA_SUCCESS) return eng_cuda_error(r, "cuLaunchKernel");
  return work ? launch_reduce(e, p, k, work, c, alpha, beta, stream) : TCJ_SUCCESS;
}

/* Scratch first (packing copies, split-K workspace), then every check that can fail on the host
 * (tensor maps), and only then the copies and the launch: a failed check enqueues no copy and
 * no kernel, only the scratch's stream-ordered allocation and free. */
static tcj_status launch(tcj_engine *e, const eng_problem *p, const eng_plan *plan,
                         const cache_kernel *k, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
                         float alpha, float beta, CUstream stream) {
  assert(k->recipe == (int)plan->cfg.recipe && k->cluster_m == plan->cfg.cluster_m);
  int es = ptx_elem_size(p->ab);
  operand pa = {a, p->lda}, pb = {b, p->ldb};
  int64_t rows_a, cols_a, rows_b, cols_b;
  stored_a(p, &rows_a, &cols_a);
  stored_b(p, &rows_b, &cols_b);
  assert(k->slices == tcj_cfg_slices(&plan->cfg));
  scratch_layout l = scratch_of(p, plan);
  CUdeviceptr base = 0, work = 0;
  tcj_status st = scratch_get(e, l.bytes, stream, &base);
  if (st == TCJ_SUCCESS) {
    if (plan->pack_a) pa = (operand){base + l.a_off, eng_packed_ld(cols_a, es)};
    if (plan->pack_b) pb = (operand){base + l.b_off, eng_packed_ld(cols_b, es)};
    if (k->slices > 1) work = base + l.work_off;
  }
  CUtensorMap tmap_a, tmap_b, tmap_c;
  if (st == TCJ_SUCCESS && k->recipe == PTX_RECIPE_SM90) {
    st = encode_tmap(e, &plan->cfg, 0, p->m, &pa, &tmap_a);
    if (st == TCJ_SUCCESS) st = encode_tmap(e, &plan->cfg, 1, p->m, &pb, &tmap_b);
    if (st == TCJ_SUCCESS) st = encode_tmap_c(e, &plan->cfg, p, c, &tmap_c);
  }
  if (st == TCJ_SUCCESS && plan->pack_a) st = pack_copy(e, a, rows_a, cols_a, p->lda, es, &pa, stream);
  if (st == TCJ_SUCCESS && plan->pack_b) st = pack_copy(e, b, rows_b, cols_b, p->ldb, es, &pb, stream);
  if (st == TCJ_SUCCESS)
    st = k->recipe == PTX_RECIPE_SM90
             ? launch_sm90(e, p, &plan->cfg, k, &tmap_a, &tmap_b, &tmap_c, c, work, alpha, beta, stream)
             : launch_sm80(e, p, k, &pa, &pb, c, work, alpha, beta, stream);
  scratch_put(e, base, l.bytes, stream);
  return st;
}

tcj_status tcj_set_workspace(tcj_engine *e, CUdeviceptr ptr, size_t bytes) {
  if (!e) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "engine is NULL");
  if (bytes && !ptr) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "workspace pointer is 0 with %zu bytes", bytes);
  if (bytes && ptr % SCRATCH_ALIGN)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "workspace pointer 0x%llx is not %d-byte aligned",
                         (unsigned long long)ptr, SCRATCH_ALIGN);
  e->ws_ptr = bytes ? ptr : 0;
  e->ws_bytes = bytes;
  return TCJ_SUCCESS;
}

tcj_status tcj_gemm_workspace_size(tcj_engine *e, tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                                   const void *a, tcj_dtype a_type, int64_t lda, const void *b, tcj_dtype b_type,
                                   int64_t ldb, const void *c, tcj_dtype c_type, int64_t ldc, size_t *bytes) {
  if (!e || !bytes) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is NULL", e ? "bytes" : "engine");
  *bytes = 0;
  eng_problem p;
  tcj_status st = eng_validate(op_a, op_b, m, n, k, a, a_type, lda, b, b_type, ldb, c, c_type, ldc, &p);
  if (st != TCJ_SUCCESS || m == 0 || n == 0) return st;
  eng_plan plan;
  const char *why = NULL;
  if ((st = eng_select_tuned(&p, &e->caps, e->allow_packing, &e->tuning, &plan, &why)) != TCJ_SUCCESS)
    return eng_set_error(st, "%s", why);
  *bytes = scratch_of(&p, &plan).bytes;
  return TCJ_SUCCESS;
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
  if ((st = eng_select_tuned(&p, &e->caps, e->allow_packing, &e->tuning, &plan, &why)) != TCJ_SUCCESS)
    return eng_set_error(st, "%s", why);
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
