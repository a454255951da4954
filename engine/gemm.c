/* SPDX-License-Identifier: Apache-2.0 */
/* tcj_gemm: validate, select, fetch the kernel, pack unaligned operands when the plan says
 * so, and launch on the caller's stream. Nothing is launched or written on a failed check. */
#include <assert.h>
#include <stdatomic.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/log.h"
#include "engine/nvrtc.h"
#include "engine/validate.h"
#include "ptxgen/abi.h"
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

/* How an operand reaches the kernel: the plan's packing, or a 3xTF32 problem's parts. */
static int pack_of(const eng_problem *p, const eng_plan *plan, int is_b) {
  if (p->tf32x3) return ENG_PACK_SPLIT3;
  return is_b ? plan->pack_b : plan->pack_a;
}

/* Packed entries of an operand: every batch entry, or one when it is broadcast (stride 0). */
static int64_t packed_entries(const eng_problem *p, int is_b) {
  return eng_packed_stride(p, is_b) ? p->batch : 1;
}

/* The packed copy's shape: the stored one, or transposed into K-major (A m x k, B n x k). */
static void packed_shape(const eng_problem *p, const eng_plan *plan, int is_b, int64_t *rows, int64_t *cols) {
  int pack = pack_of(p, plan, is_b);
  if (pack == ENG_PACK_SPLIT3) { /* rows of kp / 32 chunks, each of the kernel's parts */
    *rows = is_b ? p->n : p->m;
    *cols = p->k / 3 * ptx_split_parts(&plan->cfg);
  } else if (pack == ENG_PACK_TRANSPOSE) {
    *rows = is_b ? p->n : p->m;
    *cols = p->k;
  } else if (is_b) {
    stored_b(p, rows, cols);
  } else {
    stored_a(p, rows, cols);
  }
}

/* Elements between the packed copies of a batched operand's entries (0: one copy). */
static int64_t packed_stride(const eng_problem *p, const eng_plan *plan, int is_b) {
  if (pack_of(p, plan, is_b) != ENG_PACK_SPLIT3) return eng_packed_stride(p, is_b);
  int64_t rows, cols;
  packed_shape(p, plan, is_b, &rows, &cols);
  return (is_b ? p->stride_b : p->stride_a) ? rows * eng_packed_ld(cols, ptx_elem_size(p->ab)) : 0;
}

/* sm_count: the device's SMs, which bound a persistent grid (the CTAs that get the recipe's
 * cta_scratch_bytes). */
static scratch_layout scratch_of(const eng_problem *p, const eng_plan *plan, int sm_count) {
  scratch_layout l = {0, 0, 0, 0};
  int es = ptx_elem_size(p->ab);
  int64_t rows, cols;
  if (pack_of(p, plan, 0)) {
    packed_shape(p, plan, 0, &rows, &cols);
    l.bytes = align_up((size_t)(eng_packed_ld(cols, es) * es * rows * packed_entries(p, 0)));
  }
  l.b_off = l.bytes;
  if (pack_of(p, plan, 1)) {
    packed_shape(p, plan, 1, &rows, &cols);
    l.bytes += align_up((size_t)(eng_packed_ld(cols, es) * es * rows * packed_entries(p, 1)));
  }
  l.work_off = l.bytes;
  if (tcj_cfg_split_workspace(&plan->cfg))
    l.bytes += align_up((size_t)tcj_cfg_slices(&plan->cfg) * (size_t)p->m * (size_t)p->n * 4);
  const ptx_recipe_row *row = ptx_recipe_of(&plan->cfg);
  int64_t per_cta = row && row->cta_scratch_bytes ? row->cta_scratch_bytes(&plan->cfg) : 0;
  if (per_cta > 0) l.bytes += align_up((size_t)per_cta * (size_t)sm_count);
  return l;
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

/* Transposes the stored rows x cols elements at (src, ld) into the scratch (cols x rows, K-major),
 * with the module's PTX_TRANSPOSE_ENTRY. */
static tcj_status pack_transpose(tcj_engine *e, const cache_kernel *k, CUdeviceptr src, int64_t rows, int64_t cols,
                                 int64_t ld, int es, const operand *dst, CUstream stream) {
  if (!k->transpose) return eng_set_error(TCJ_ERROR_INTERNAL, "the kernel's module has no " PTX_TRANSPOSE_ENTRY);
  CUdeviceptr to = dst->ptr;
  uint64_t ld_src = (uint64_t)ld, ld_dst = (uint64_t)dst->ld;
  uint32_t r32 = (uint32_t)rows, c32 = (uint32_t)cols;
  void *args[] = {&src, &to, &ld_src, &ld_dst, &r32, &c32};
  unsigned gx = (unsigned)((cols + PTX_TRANSPOSE_TILE - 1) / PTX_TRANSPOSE_TILE);
  unsigned gy = (unsigned)((rows + PTX_TRANSPOSE_TILE - 1) / PTX_TRANSPOSE_TILE);
  if (gy > 65535) return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "an operand of %lld rows is too tall to transpose", (long long)rows);
  CUresult r = e->cu->cuLaunchKernel((CUfunction)k->transpose, gx, gy, 1, PTX_TRANSPOSE_THREADS, 1, 1,
                                     (unsigned)ptx_transpose_smem_bytes(es), stream, args, NULL);
  return r == CUDA_SUCCESS ? TCJ_SUCCESS : eng_cuda_error(r, "cuLaunchKernel (transposing pack)");
}

/* Writes operand B (is_b) or A of a 3xTF32 problem as its parts (PTX_SPLIT_ENTRY): from the
 * caller's operand at src, as p->src says it lies, into dst (rows of the kernel's parts), each batch
 * entry (one for a broadcast operand) p's stride apart. */
static tcj_status pack_split(tcj_engine *e, const cache_kernel *k, const eng_problem *p, const eng_plan *plan, int is_b,
                             CUdeviceptr src, const operand *dst, CUstream stream) {
  if (!k->split) return eng_set_error(TCJ_ERROR_INTERNAL, "the kernel's module has no " PTX_SPLIT_ENTRY);
  int64_t rows = is_b ? p->n : p->m, kp = p->k / 3, entries = packed_entries(p, is_b);
  uint64_t ld_src = (uint64_t)(is_b ? p->src.ldb : p->src.lda), ld_dst = (uint64_t)dst->ld;
  uint64_t stride_src = (uint64_t)(is_b ? p->src.stride_b : p->src.stride_a);
  uint64_t stride_dst = (uint64_t)packed_stride(p, plan, is_b);
  /* A is m x K (MN-major when op_a is T); B is read as n x K (MN-major when op_b is N). */
  uint32_t r32 = (uint32_t)rows, k32 = (uint32_t)p->src.k, kp32 = (uint32_t)kp;
  uint32_t trans = is_b ? !p->src.op_b_t : (uint32_t)p->src.op_a_t;
  uint32_t small_seg = (uint32_t)ptx_split_small_seg(&plan->cfg, is_b), parts = (uint32_t)ptx_split_parts(&plan->cfg);
  CUdeviceptr to = dst->ptr;
  int64_t gx = (rows + PTX_SPLIT_TILE - 1) / PTX_SPLIT_TILE, gy = (kp + PTX_SPLIT_TILE - 1) / PTX_SPLIT_TILE;
  if (gy > 65535 || gx > INT32_MAX)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "3xTF32 split of %lld x %lld elements: k is at most %d, rows at most "
                         "2^36", (long long)rows, (long long)p->src.k, 65535 * PTX_SPLIT_TILE);
  for (int64_t z0 = 0; z0 < entries; z0 += 65535) {
    uint32_t z32 = (uint32_t)z0;
    int64_t gz = entries - z0 < 65535 ? entries - z0 : 65535;
    void *args[] = {&src,   &to, &ld_src, &ld_dst, &stride_src, &stride_dst, &r32,
                    &k32,   &kp32, &trans, &small_seg, &z32,     &parts};
    CUresult r = e->cu->cuLaunchKernel((CUfunction)k->split, (unsigned)gx, (unsigned)gy, (unsigned)gz, PTX_SPLIT_THREADS,
                                       1, 1, (unsigned)ptx_split_smem_bytes(), stream, args, NULL);
    if (r != CUDA_SUCCESS) return eng_cuda_error(r, "cuLaunchKernel (3xTF32 split)");
  }
  return TCJ_SUCCESS;
}

/* Packs every entry of a batched operand (one copy each; a broadcast operand once) to entries
 * packed_stride elements apart. */
static tcj_status pack_entries(tcj_engine *e, CUdeviceptr src, int64_t rows, int64_t cols, int64_t ld, int es,
                               int64_t count, int64_t stride, int64_t packed_stride, const operand *dst,
                               CUstream stream) {
  tcj_status st = TCJ_SUCCESS;
  for (int64_t z = 0; z < count && st == TCJ_SUCCESS; z++) {
    operand to = {dst->ptr + (CUdeviceptr)(z * packed_stride * es), dst->ld};
    st = pack_copy(e, src + (CUdeviceptr)(z * stride * es), rows, cols, ld, es, &to, stream);
  }
  return st;
}

/* The kernel takes the maps as 128-byte .param arrays aligned to 64 (ptxgen.h); cuLaunchKernel
 * copies the parameter's size from the pointer in args[]. */
_Static_assert(sizeof(CUtensorMap) == 128 && _Alignof(CUtensorMap) >= 64, "CUtensorMap is not the kernel's tmap parameter");

_Static_assert(PTX_TMAP_UINT8 == (int)CU_TENSOR_MAP_DATA_TYPE_UINT8 && PTX_TMAP_INT32 == (int)CU_TENSOR_MAP_DATA_TYPE_INT32 &&
               PTX_TMAP_FLOAT16 == (int)CU_TENSOR_MAP_DATA_TYPE_FLOAT16 &&
               PTX_TMAP_FLOAT32 == (int)CU_TENSOR_MAP_DATA_TYPE_FLOAT32 &&
               PTX_TMAP_BFLOAT16 == (int)CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
               "ptxgen/elem.h numbers tensor-map types as CUtensorMapDataType");

/* cuTensorMapEncodeTiled for a map ptxgen describes (sm90_abi.c), at address ptr. */
static tcj_status encode_desc(tcj_engine *e, const char *name, const ptx_tmap_desc *d, CUdeviceptr ptr,
                              CUtensorMap *out) {
  if (!e->cu->cuTensorMapEncodeTiled)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "the CUDA driver lacks cuTensorMapEncodeTiled (CUDA 12.0 or newer "
                         "is needed for the sm90 recipe; TCJ_RECIPE=sm80 avoids it)");
  const ptx_elem_row *row = ptx_elem_row_of(d->elem);
  if (!row || row->tmap == PTX_TMAP_NONE)
    return eng_set_error(TCJ_ERROR_INTERNAL, "no tensor map data type for %s (%s)", ptx_elem_name(d->elem), name);
  CUtensorMapDataType type = (CUtensorMapDataType)row->tmap; /* the row's, numbered as the enum (ptxgen/elem.h) */
  cuuint64_t dims[3] = {d->dims[0], d->dims[1], d->dims[2]}, strides[2] = {d->stride_bytes, d->batch_stride_bytes};
  cuuint32_t box[3] = {d->box[0], d->box[1], d->box[2]}, elem_strides[3] = {1, 1, 1};
  CUresult r = e->cu->cuTensorMapEncodeTiled(out, type, (cuuint32_t)d->rank, (void *)(uintptr_t)ptr, dims, strides, box,
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
                              ptx_tmap_batch batch, CUtensorMap *out) {
  const char *name = is_b ? "operand B" : "operand A";
  ptx_tmap_desc d;
  /* Select packs what TMA cannot read; reaching these is a planning bug. */
  if (op->ptr % 16 != 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "sm90 launch: %s at 0x%llx is not 16-byte aligned", name,
                         (unsigned long long)op->ptr);
  if (ptx_sm90_tmap(cfg, is_b, m, op->ld, batch, &d) != 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "sm90 launch: TMA cannot address %s (m %lld, ld %lld)", name,
                         (long long)m, (long long)op->ld);
  return encode_desc(e, name, &d, op->ptr, out);
}

/* D's tensor map, for kernels that store D through TMA (ptx_sm90_tmap_d); zeros otherwise. */
static tcj_status encode_tmap_d(tcj_engine *e, const tcj_kernel_cfg *cfg, const eng_problem *p, CUdeviceptr d_ptr,
                                CUtensorMap *out) {
  ptx_tmap_desc d;
  memset(out, 0, sizeof *out);
  ptx_tmap_batch batch = {p->batch, p->stride_d};
  int use = ptx_sm90_tmap_d(cfg, p->m, p->ldd, batch, &d);
  if (use == 1) return TCJ_SUCCESS;
  /* vec_c promises 16-byte rows; select derived it from D's alignment (batch stride included). */
  if (use < 0 || d_ptr % 16 != 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "sm90 launch: TMA cannot address D (ldd %lld, address 0x%llx)",
                         (long long)p->ldd, (unsigned long long)d_ptr);
  return encode_desc(e, "D", &d, d_ptr, out);
}

/* B's map of a kernel that rewrites its address per group: any 16-byte aligned value encodes,
 * and one in no allocation faults where a copy would read it unrewritten. */
#define ENG_MAP_PLACEHOLDER ((CUdeviceptr)0x100)

/* The caller's pointers and scalars of one call (tcj_gemm_desc, validated). */
typedef struct call_args {
  CUdeviceptr a, b, c, d, bias, alpha_ptr, beta_ptr, user_params;
  CUdeviceptr scale_a, scale_b, scale_d, amax; /* fp8 */
  CUdeviceptr groups; /* grouped: the ends or counts array (p_groups) */
  float alpha, beta;
  double alpha64, beta64; /* f64 operands */
  CUdeviceptr row_scale;  /* tcj_gemm_desc.row_scale, or 0 */
  CUdeviceptr gather;     /* tcj_gemm_desc.gather_a, or 0 (b is group_b_ptrs where given) */
  CUdeviceptr scatter;    /* tcj_gemm_desc.scatter_d, or 0 */
} call_args;

/* Split-K: the slices wrote fp32 partial sums into p_work; the reduction (PTX_REDUCE_ENTRY of the
 * same module, same parameters) applies the epilogue into D. Nothing to do for a plan that does
 * not split (a generic kernel's module has the entry either way). */
static tcj_status launch_reduce(tcj_engine *e, const eng_problem *p, const tcj_kernel_cfg *cfg, const cache_kernel *k,
                                void **args, CUstream stream) {
  if (!tcj_cfg_split_workspace(cfg)) return TCJ_SUCCESS;
  if (!k->reduce) return eng_set_error(TCJ_ERROR_INTERNAL, "the kernel's module has no " PTX_REDUCE_ENTRY);
  int64_t per_cta = (int64_t)ptx_reduce_vec(cfg) * PTX_REDUCE_THREADS;
  int64_t blocks = (p->m * p->n + per_cta - 1) / per_cta;
  CUresult r = e->cu->cuLaunchKernel((CUfunction)k->reduce, (unsigned)blocks, 1, 1, PTX_REDUCE_THREADS, 1, 1, 0,
                                     stream, args, NULL);
  return r == CUDA_SUCCESS ? TCJ_SUCCESS : eng_cuda_error(r, "cuLaunchKernel (split-K reduction)");
}

/* The GEMM entry as its recipe's row says: the tensor maps (encoded by the caller) ahead of the
 * PTX_GEMM_PARAMS where it takes them, on the row's grid (persistent grids: at most the CTAs
 * of the clusters that fit at once). Clusters are declared in the PTX, so a plain launch forms
 * them. */
static tcj_status launch_gemm(tcj_engine *e, const eng_problem *p, const ptx_recipe_row *row, const tcj_kernel_cfg *cfg,
                              const cache_kernel *k, CUtensorMap *tmaps, void **args, CUstream stream) {
  void *all[3 + PTX_GEMM_PARAM_COUNT] = {&tmaps[0], &tmaps[1], &tmaps[2]};
  memcpy(all + 3, args, sizeof(void *) * PTX_GEMM_PARAM_COUNT);
  /* The CTAs resident at once where the kernel said (whole clusters; a grouped kernel's
   * occupancy), else one per SM. */
  int slots = k->max_ctas > 0 ? k->max_ctas : e->caps.sm_count;
  /* The CTAs that have global memory of their own in p_work: scratch_of gave it for sm_count. */
  if (row->cta_scratch_bytes && row->cta_scratch_bytes(cfg) > 0 && slots > e->caps.sm_count) slots = e->caps.sm_count;
  /* A grouped kernel's grid (the row's, given the group count for the batch) is persistent: at
   * most slots CTAs over the units (selection refused more units than a grid holds:
   * eng_grouped_units). */
  ptx_grid grid = row->grid(cfg, p->m, p->grouped ? p->groups : p->batch, slots);
  if (grid.x > INT32_MAX)
    return eng_set_error(TCJ_ERROR_NOT_SUPPORTED, "the grid needs %lld CTAs, more than 2^31 - 1", (long long)grid.x);
  CUresult r = e->cu->cuLaunchKernel((CUfunction)k->function, (unsigned)grid.x, (unsigned)grid.y, 1,
                                     (unsigned)k->threads, 1, 1, (unsigned)k->smem_bytes, stream,
                                     row->tensor_maps ? all : args, NULL);
  if (r != CUDA_SUCCESS) return eng_cuda_error(r, "cuLaunchKernel");
  return launch_reduce(e, p, cfg, k, args, stream);
}

/* Scratch first (packing copies, split-K workspace), then every check that can fail on the host
 * (tensor maps), and only then the copies and the launch: a failed check enqueues no copy and
 * no kernel, only the scratch's stream-ordered allocation and free. reuse (may be NULL): the
 * tensor maps of this problem and plan's last call (the generic memo's); they are copied when
 * they hold this call's addresses, else encoded and stored there (*encoded = 1). */
static tcj_status launch(tcj_engine *e, const eng_problem *p, const eng_plan *plan, const cache_kernel *k,
                         const call_args *ca, CUstream stream, eng_tmaps *reuse, int *encoded) {
  const ptx_recipe_row *row = ptx_recipe_of(&plan->cfg);
  assert(ptx_recipe_at(k->recipe) == row && k->cluster_ctas == tcj_cfg_cluster_ctas(&plan->cfg));
  /* The host's arithmetic (tensor maps, grid) needs n and k, which a generic config leaves out. */
  const tcj_kernel_cfg run = tcj_cfg_for_problem(&plan->cfg, p->n, p->k);
  int es = ptx_elem_size(p->ab);
  operand pa = {ca->a, p->lda}, pb = {ca->b, p->ldb};
  int64_t rows_a, cols_a, rows_b, cols_b;
  stored_a(p, &rows_a, &cols_a);
  stored_b(p, &rows_b, &cols_b);
  scratch_layout l = scratch_of(p, plan, e->caps.sm_count);
  CUdeviceptr work = 0;
  eng_scratch scratch;
  tcj_status st = eng_scratch_get(e, l.bytes, stream, &scratch);
  const CUdeviceptr base = scratch.base;
  if (st == TCJ_SUCCESS) {
    int64_t rows, cols;
    packed_shape(p, plan, 0, &rows, &cols);
    if (pack_of(p, plan, 0)) pa = (operand){base + l.a_off, eng_packed_ld(cols, es)};
    packed_shape(p, plan, 1, &rows, &cols);
    if (pack_of(p, plan, 1)) pb = (operand){base + l.b_off, eng_packed_ld(cols, es)};
    /* A split's partial sums, or (never both: grouped kernels do not split) the CTAs' own
     * global memory (the recipe's cta_scratch_bytes). */
    if (tcj_cfg_split_workspace(&plan->cfg) || l.bytes > l.work_off) work = base + l.work_off;
  }
  ptx_gemm_params prm;
  memset(&prm, 0, sizeof prm);
  prm.a = pa.ptr;
  prm.b = pb.ptr;
  prm.c = p->reads_c ? ca->c : ca->d; /* never read without C; any valid address */
  prm.d = ca->d;
  prm.work = work;
  prm.bias = ca->bias;
  prm.alpha_ptr = ca->alpha_ptr;
  prm.beta_ptr = p->reads_c ? ca->beta_ptr : 0;
  prm.user_params = ca->user_params;
  prm.scale_a = ca->scale_a;
  prm.scale_b = ca->scale_b;
  prm.scale_d = ca->scale_d;
  prm.amax = ca->amax;
  prm.groups = ca->groups;
  prm.group_count = (uint32_t)p->groups; /* 0 without groups */
  prm.stride_scale_b = (uint64_t)p->stride_scale_b;
  prm.row_scale = p->row_scale ? ca->row_scale : 0;
  prm.gather = p->gather ? ca->gather : 0;
  prm.gather_rows = p->gather ? (uint64_t)p->gather_rows : 0;
  prm.scatter = p->scatter ? ca->scatter : 0;
  prm.scatter_rows = p->scatter ? (uint64_t)p->scatter_rows : 0;
  prm.lda = (uint64_t)pa.ld;
  prm.ldb = (uint64_t)pb.ld;
  prm.ldc = (uint64_t)p->ldc;
  prm.ldd = (uint64_t)p->ldd;
  prm.stride_a = (uint64_t)(pack_of(p, plan, 0) ? packed_stride(p, plan, 0) : p->stride_a);
  prm.stride_b = (uint64_t)(pack_of(p, plan, 1) ? packed_stride(p, plan, 1) : p->stride_b);
  prm.stride_c = (uint64_t)p->stride_c;
  prm.stride_d = (uint64_t)p->stride_d;
  prm.stride_bias = (uint64_t)p->stride_bias;
  prm.m = (uint32_t)p->m;
  prm.n = (uint32_t)p->n;
  prm.k = (uint32_t)p->k;
  prm.batch = (uint32_t)p->batch;
  prm.slices = (uint32_t)(tcj_cfg_split_workspace(&plan->cfg) ? tcj_cfg_slices(&plan->cfg) : 1);
  prm.alpha = ca->alpha;
  prm.beta = p->reads_c ? ca->beta : 0.0f;
  prm.alpha64 = ca->alpha64;
  prm.beta64 = p->reads_c ? ca->beta64 : 0.0;
  void *args[PTX_GEMM_PARAM_COUNT];
  ptx_gemm_args(&prm, args);
  CUtensorMap tmaps[3];
  if (st == TCJ_SUCCESS && row->tensor_maps) {
    if (reuse && reuse->valid && reuse->a == pa.ptr && reuse->b == pb.ptr && reuse->d == ca->d) {
      memcpy(tmaps, reuse->map, sizeof tmaps);
    } else {
      /* A grouped kernel's B (and a masked group's A) is a map of the G groups' entries; a
       * contiguous group's A is the whole m rows (sm90_abi.c). */
      int64_t entries = p->grouped ? p->groups : p->batch;
      ptx_tmap_batch ba = {entries, (int64_t)prm.stride_a}, bb = {entries, (int64_t)prm.stride_b};
      /* Gathered rows of A are copied without TMA (sm90_gather.c): its map, which the kernel
       * declares but does not read, spans A's own rows. */
      st = encode_tmap(e, &run, 0, p->gather ? p->gather_rows : p->m, &pa, ba, &tmaps[0]);
      /* B by pointers: the kernel writes each group's address into B's map (sm90_group_maps.c);
       * the host's carries the rest and an aligned placeholder address no copy reads. */
      operand pb_map = pb;
      if (p->b_ptrs) pb_map.ptr = ENG_MAP_PLACEHOLDER;
      if (st == TCJ_SUCCESS) st = encode_tmap(e, &run, 1, p->m, &pb_map, bb, &tmaps[1]);
      if (st == TCJ_SUCCESS) st = encode_tmap_d(e, &run, p, ca->d, &tmaps[2]);
      if (st == TCJ_SUCCESS && reuse) {
        memcpy(reuse->map, tmaps, sizeof tmaps);
        reuse->a = pa.ptr;
        reuse->b = pb.ptr;
        reuse->d = ca->d;
        reuse->valid = 1;
        *encoded = 1;
      }
    }
  }
  if (st == TCJ_SUCCESS && p->tf32x3) {
    st = pack_split(e, k, p, plan, 0, ca->a, &pa, stream);
    if (st == TCJ_SUCCESS) st = pack_split(e, k, p, plan, 1, ca->b, &pb, stream);
  } else if (st == TCJ_SUCCESS) {
    if (plan->pack_a == ENG_PACK_TRANSPOSE)
      st = pack_transpose(e, k, ca->a, rows_a, cols_a, p->lda, es, &pa, stream);
    else if (plan->pack_a)
      st = pack_entries(e, ca->a, rows_a, cols_a, p->lda, es, packed_entries(p, 0), p->stride_a, (int64_t)prm.stride_a,
                        &pa, stream);
    if (st == TCJ_SUCCESS && plan->pack_b == ENG_PACK_TRANSPOSE)
      st = pack_transpose(e, k, ca->b, rows_b, cols_b, p->ldb, es, &pb, stream);
    else if (st == TCJ_SUCCESS && plan->pack_b)
      st = pack_entries(e, ca->b, rows_b, cols_b, p->ldb, es, packed_entries(p, 1), p->stride_b, (int64_t)prm.stride_b,
                        &pb, stream);
  }
  /* amax_d is a maximum the kernels raise with atomics: it starts from 0 (cuBLASLt sets it too,
   * rather than folding in what it held). */
  if (st == TCJ_SUCCESS && ca->amax) {
    CUresult r = e->cu->cuMemsetD32Async(ca->amax, 0, 1, stream);
    if (r != CUDA_SUCCESS) st = eng_cuda_error(r, "cuMemsetD32Async (amax_d)");
  }
  if (st == TCJ_SUCCESS) st = launch_gemm(e, p, row, &run, k, tmaps, args, stream);
  eng_scratch_put(e, &scratch, stream);
  return st;
}

/* ---- TCJ_JIT=async: the generic kernel until the specialised one is ready --------------- */

/* 2 m n k per entry, summed over the batch, saturated. */
static uint64_t flop_of(const eng_problem *p) {
  double f = 2.0 * (double)p->m * (double)p->n * (double)p->k * (double)(p->batch > 1 ? p->batch : 1);
  return f >= 1.8e19 ? UINT64_MAX : (uint64_t)f;
}

/* The generic plan of p's class (the engine's knobs, generic), or 0 when none runs p. */
static int generic_plan(tcj_engine *e, const eng_problem *p, eng_plan *out) {
  eng_tuning t = e->tuning;
  t.generic = 1;
  const char *why = NULL;
  atomic_fetch_add_explicit(&e->tiering.generic_selections, 1, memory_order_relaxed);
  return eng_select_tuned(p, &e->caps, e->allow_packing, &t, out, &why) == TCJ_SUCCESS;
}

/* The kernel of a call under TCJ_JIT=async (engine/tiering.h). The specialised kernel of *plan
 * when it is loaded (one text, one hash, one probe: what a sync call pays), or in the disk
 * cache at the class's first call (a warmed cache, an earlier process), or when the stream is
 * being captured (a graph replays what it captured for its whole life: the specialised kernel,
 * compiled now if need be). Else the generic kernel of p, *plan becoming the generic plan:
 * from the generic memo (no second selection, no second lookup; *memo gets the entry, whose
 * tensor maps launch reuses), else selected, fetched (loaded, from the disk cache, or compiled
 * here: only the first call of a class whose generic kernels were never warmed) and put in
 * *memo (memo->key != 0: the caller stores it after the launch). The class's specialised kernel
 * is queued once it is hot or big. A problem no generic kernel runs gets its specialised kernel. */
static tcj_status async_kernel(tcj_engine *e, const eng_problem *p, const char *user_source, CUstream stream,
                               eng_plan *plan, cache_kernel *kern, eng_generic_memo *memo, int *memo_new) {
  char text[512];
  memo->key = 0;
  *memo_new = 0;
  if (eng_kernel_text(&plan->cfg, text, sizeof text) < 0)
    return eng_kernel_get_user(e, &plan->cfg, user_source, kern, NULL); /* which reports the length */
  uint64_t hash = cache_kernel_table_hash(text);
  if (eng_kernel_loaded(e, text, hash, kern)) return TCJ_SUCCESS;
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (e->cu->cuStreamIsCapturing(stream, &capture) != CUDA_SUCCESS || capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return eng_kernel_get_user(e, &plan->cfg, user_source, kern, NULL);
  uint64_t cls = eng_tier_class_key(hash);
  int tier = eng_tier_count(&e->tiering, cls, flop_of(p));
  /* A class's first call looks on disk before it runs a generic kernel it may not need. */
  if ((tier & ENG_TIER_FIRST) && eng_kernel_cached(e, &plan->cfg, user_source, kern)) return TCJ_SUCCESS;
  uint64_t key = eng_generic_memo_key(p);
  if (eng_generic_memo_get(&e->tiering, p, key, memo)) {
    /* Served by an already loaded (generic) kernel: a memory hit, as tcj_stats counts them. */
    atomic_fetch_add_explicit(&e->stats.memory_hits, 1, memory_order_relaxed);
  } else {
    eng_plan gen;
    if (!generic_plan(e, p, &gen)) return eng_kernel_get_user(e, &plan->cfg, user_source, kern, NULL);
    tcj_status st = eng_kernel_get_user(e, &gen.cfg, user_source, &memo->kernel, NULL);
    if (st != TCJ_SUCCESS) return st;
    memo->plan = gen;
    memo->tmaps.valid = 0;
    memo->key = key;
    *memo_new = 1;
  }
  if (tier & ENG_TIER_QUEUE) eng_tier_queue(e, cls, &plan->cfg, user_source); /* which logs a failure */
  *plan = memo->plan;
  *kern = memo->kernel;
  return TCJ_SUCCESS;
}

/* ---- TCJ_TUNE: timing candidate plans on the call's own operands ----------------------- */

/* One timed call: the tuner's plan on the caller's operands, D (and amax_d) redirected into a
 * scratch buffer, so that the caller's D is written once, by the real call, and a C that is D
 * (tcj_gemm's in-place update) is read as the caller left it. */
typedef struct tune_call {
  tcj_engine *e;
  const eng_problem *p;
  const char *user_source;
  call_args ca;
  CUstream stream;
  const eng_plan *loaded_for; /* the plan whose kernel `kern` is, so reps skip the memo */
  cache_kernel kern;
} tune_call;

static tcj_status tune_run(void *ctx, const eng_plan *plan) {
  tune_call *t = ctx;
  if (t->loaded_for != plan) {
    tcj_status st = eng_kernel_get_user(t->e, &plan->cfg, t->user_source, &t->kern, NULL);
    if (st != TCJ_SUCCESS) return st;
    t->loaded_for = plan;
  }
  return launch(t->e, t->p, plan, &t->kern, &t->ca, t->stream, NULL, NULL);
}

/* Bytes from D's first element to past its last (row-major, every batch entry). */
static size_t d_extent_bytes(const eng_problem *p) {
  int64_t elems = (p->batch - 1) * p->stride_d + (p->m - 1) * p->ldd + p->n;
  return (size_t)elems * (size_t)ptx_elem_size(p->d);
}

/* eng_autotune with tune_run. The scratch D keeps the caller's D address modulo 256, so every
 * candidate sees D's alignment as selection did; after it (and amax_d's) lies the buffer the
 * tuner rewrites before each timed call, twice the L2. Without memory for them, the call runs
 * untuned. */
static tcj_status autotune(tcj_engine *e, const eng_problem *p, const char *user_source, const call_args *ca,
                           CUstream stream, eng_plan *plan) {
  eng_plan known = *plan;
  if (eng_autotune_known(e, p, &known)) { /* the common case: no scratch to allocate */
    *plan = known;
    return TCJ_SUCCESS;
  }
  const char *why = eng_autotune_cannot_time(e, stream);
  if (why) {
    eng_log(e->log, ENG_LOG_DEBUG, "autotune: not now (%s): the model's choice runs", why);
    return TCJ_SUCCESS;
  }
  /* The stream is not being captured, but another thread may capture in global mode, where this
   * thread's allocations and synchronisations would break its capture: they are declared
   * relaxed for the tuning's duration, as the kept scratch's are (engine/scratch.c). */
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  e->cu->cuThreadExchangeStreamCaptureMode(&mode);
  size_t d_bytes = d_extent_bytes(p), amax_at = align_up(SCRATCH_ALIGN + d_bytes), flush_at = amax_at + SCRATCH_ALIGN;
  size_t flush_bytes = 2 * (size_t)e->l2_bytes; /* and 4 bytes of sink after it */
  CUdeviceptr base = 0;
  tcj_status st = TCJ_SUCCESS;
  CUresult r = e->cu->cuMemAlloc(&base, flush_at + flush_bytes + SCRATCH_ALIGN);
  if (r == CUDA_SUCCESS && flush_bytes) r = e->cu->cuMemsetD32Async(base + flush_at, 0, flush_bytes / 4 + 1, stream);
  if (r != CUDA_SUCCESS) {
    eng_log(e->log, ENG_LOG_WARN, "autotune: no scratch for D and the L2 flush (%zu bytes: %s); the model's choice "
            "runs", flush_at + flush_bytes, eng_cuda_error_name(r));
  } else {
    tune_call t = {e, p, user_source, *ca, stream, NULL, {0}};
    t.ca.d = base + ca->d % SCRATCH_ALIGN;
    if (ca->amax) t.ca.amax = base + amax_at;
    st = eng_autotune(e, p, user_source, stream, tune_run, &t, flush_bytes ? base + flush_at : 0, flush_bytes, plan);
  }
  /* cuMemFree waits for the timed calls, which the tuner synchronised with anyway. */
  if (base) e->cu->cuMemFree(base);
  e->cu->cuThreadExchangeStreamCaptureMode(&mode);
  return st;
}

tcj_status tcj_set_workspace(tcj_engine *e, CUdeviceptr ptr, size_t bytes) {
  if (!e) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "engine is NULL");
  if (bytes && !ptr) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "workspace pointer is 0 with %zu bytes", bytes);
  if (bytes && ptr % SCRATCH_ALIGN)
    return eng_set_error(TCJ_ERROR_INVALID_VALUE, "workspace pointer 0x%llx is not %d-byte aligned",
                         (unsigned long long)ptr, SCRATCH_ALIGN);
  eng_workspace_set(&e->ws, ptr, bytes); /* calls in flight keep the region they took */
  return TCJ_SUCCESS;
}

/* A tcj_gemm call as the descriptor tcj_gemm_ex takes: D is C. */
static tcj_gemm_desc desc_of_gemm(tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k, float alpha,
                                  const void *a, tcj_dtype a_type, int64_t lda, const void *b, tcj_dtype b_type,
                                  int64_t ldb, float beta, const void *c, tcj_dtype c_type, int64_t ldc) {
  tcj_gemm_desc g = TCJ_GEMM_DESC_INIT;
  g.op_a = op_a;
  g.op_b = op_b;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a;
  g.a_type = a_type;
  g.lda = lda;
  g.b = b;
  g.b_type = b_type;
  g.ldb = ldb;
  g.c = c;
  g.c_type = c_type;
  g.ldc = ldc;
  g.alpha = alpha;
  g.beta = beta;
  if (a_type == TCJ_F64) { /* f64 operands take double scalars; a float converts exactly */
    g.alpha_f64 = alpha;
    g.beta_f64 = beta;
    g.alpha = 1.0f;
    g.beta = 0.0f;
  }
  return g;
}

/* alpha == 0 given on the host: BLAS and cuBLAS do not reference A and B then (D = beta * C,
 * then the epilogue). The call is validated as given, so that a bad operand is still reported,
 * and then runs as k == 0: the kernel has no mainloop and reads neither operand. A device alpha
 * of 0 is the kernels' own case (the epilogue drops the products). */
static int host_alpha_zero(const tcj_gemm_desc *g) {
  if (g->alpha_ptr) return 0;
  return g->a_type == TCJ_F64 ? g->alpha_f64 == 0.0 : g->alpha == 0.0f;
}

/* Validation and selection, shared by the call and its workspace query. A user epilogue is
 * keyed by its source alone, with no NVRTC: a warm cache serves it in an image without one
 * (engine/build.c says how the disk key names NVRTC). */
static tcj_status prepare(tcj_engine *e, const tcj_gemm_desc *g, eng_problem *p, eng_plan *plan) {
  tcj_status st = eng_validate_desc(g, p);
  if (st != TCJ_SUCCESS) return st;
  if (g->k > 0 && host_alpha_zero(g)) {
    tcj_gemm_desc no_products = *g;
    no_products.struct_size = sizeof no_products; /* a newer caller's tail was checked above */
    no_products.k = 0;
    if ((st = eng_validate_desc(&no_products, p)) != TCJ_SUCCESS) return st;
  }
  if (p->user) p->user = eng_epilogue_hash(g->epilogue_source);
  if (eng_problem_empty(p)) return TCJ_SUCCESS;
  const char *why = NULL;
  if ((st = eng_select_tuned(p, &e->caps, e->allow_packing, &e->tuning, plan, &why)) != TCJ_SUCCESS)
    return eng_set_error(st, "%s", why);
  return TCJ_SUCCESS;
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/* The scratch a call of p needs: under TCJ_JIT=async the more of its specialised and generic
 * plans'. Under TCJ_TUNE it is the tuned choice's once one is known,
 * and before that the most any candidate the tuner may choose needs. */
static size_t scratch_bytes(tcj_engine *e, const eng_problem *p, const eng_plan *plan) {
  const int sms = e->caps.sm_count;
  size_t most = scratch_of(p, plan, sms).bytes;
  if (eng_problem_one_plan(p)) return most; /* one plan: no generic kernel, no tuning (and it packs nothing) */
  eng_plan gen; /* TCJ_JIT=async may run either kernel */
  if (e->jit_async && generic_plan(e, p, &gen)) most = max_size(most, scratch_of(p, &gen, sms).bytes);
  if (!e->autotune) return most;
  eng_plan known = *plan, cands[ENG_AUTOTUNE_MAX];
  if (eng_autotune_known(e, p, &known)) return scratch_of(p, &known, sms).bytes;
  int n = eng_autotune_candidates(p, &e->caps, e->allow_packing, plan, cands, ENG_AUTOTUNE_MAX);
  for (int i = 1; i < n; i++) most = max_size(most, scratch_of(p, &cands[i], sms).bytes);
  return most;
}

tcj_status tcj_gemm_ex_workspace_size(tcj_engine *e, const tcj_gemm_desc *desc, size_t *bytes) {
  if (!e || !bytes) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "%s is NULL", e ? "bytes" : "engine");
  tcj_gemm_desc buf;
  const tcj_gemm_desc *g = eng_desc_view(desc, &buf);
  *bytes = 0;
  eng_problem p;
  eng_plan plan;
  tcj_status st = prepare(e, g, &p, &plan);
  if (st != TCJ_SUCCESS || eng_problem_empty(&p)) return st;
  *bytes = scratch_bytes(e, &p, &plan);
  return TCJ_SUCCESS;
}

tcj_status tcj_gemm_workspace_size(tcj_engine *e, tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                                   const void *a, tcj_dtype a_type, int64_t lda, const void *b, tcj_dtype b_type,
                                   int64_t ldb, const void *c, tcj_dtype c_type, int64_t ldc, size_t *bytes) {
  /* beta 1: the query does not know beta, and C's alignment may matter. */
  tcj_gemm_desc g = desc_of_gemm(op_a, op_b, m, n, k, 1.0f, a, a_type, lda, b, b_type, ldb, 1.0f, c, c_type, ldc);
  return tcj_gemm_ex_workspace_size(e, &g, bytes);
}

tcj_status tcj_gemm_ex(tcj_engine *e, const tcj_gemm_desc *desc, CUstream stream) {
  if (!e) return eng_set_error(TCJ_ERROR_INVALID_VALUE, "engine is NULL");
  tcj_gemm_desc buf;
  const tcj_gemm_desc *g = eng_desc_view(desc, &buf);
  eng_problem p;
  eng_plan plan;
  tcj_status st = prepare(e, g, &p, &plan);
  if (st != TCJ_SUCCESS) return st;
  if (eng_problem_empty(&p)) { /* D is empty (or no group): nothing to launch; its amax is 0 */
    if (!g->amax_d) return TCJ_SUCCESS;
    int pushed = 0;
    if ((st = eng_ctx_enter(e, &pushed)) != TCJ_SUCCESS) return st;
    CUresult r = e->cu->cuMemsetD32Async((CUdeviceptr)(uintptr_t)g->amax_d, 0, 1, stream);
    eng_ctx_leave(e, pushed);
    return r == CUDA_SUCCESS ? TCJ_SUCCESS : eng_cuda_error(r, "cuMemsetD32Async (amax_d)");
  }
  int pushed = 0;
  if ((st = eng_ctx_enter(e, &pushed)) != TCJ_SUCCESS) return st;
  /* Block-scale arrays are read only by block-scaled kernels; a k == 0 call runs a plain one
   * (validation), which would read them as per-tensor scales. */
  int block_arrays = g->scale_mode == TCJ_SCALE_BLOCK && !p.block_scale;
  /* B by a pointer array: p_b carries the array (tcj_kernel_cfg.b_ptrs). */
  const void *b_arg = g->group_b_ptrs ? (const void *)g->group_b_ptrs : g->b;
  call_args ca = {(CUdeviceptr)(uintptr_t)g->a, (CUdeviceptr)(uintptr_t)b_arg, (CUdeviceptr)(uintptr_t)g->c,
                  (CUdeviceptr)(uintptr_t)(g->d ? g->d : g->c), (CUdeviceptr)(uintptr_t)g->bias,
                  (CUdeviceptr)(uintptr_t)g->alpha_ptr, (CUdeviceptr)(uintptr_t)g->beta_ptr,
                  (CUdeviceptr)(uintptr_t)g->epilogue_params,
                  block_arrays ? 0 : (CUdeviceptr)(uintptr_t)g->scale_a,
                  block_arrays ? 0 : (CUdeviceptr)(uintptr_t)g->scale_b, (CUdeviceptr)(uintptr_t)g->scale_d,
                  (CUdeviceptr)(uintptr_t)g->amax_d,
                  (CUdeviceptr)(uintptr_t)(g->group_ends32 ? (const void *)g->group_ends32
                                           : g->group_ends64 ? (const void *)g->group_ends64
                                                             : (const void *)g->group_counts),
                  g->alpha, g->beta, g->alpha_f64, g->beta_f64, (CUdeviceptr)(uintptr_t)g->row_scale,
                  (CUdeviceptr)(uintptr_t)g->gather_a, (CUdeviceptr)(uintptr_t)g->scatter_d};
  if (eng_desc_swaps_ab(g)) { /* column-major: p is the swapped problem */
    CUdeviceptr t = ca.a;
    ca.a = ca.b, ca.b = t;
    t = ca.scale_a;
    ca.scale_a = ca.scale_b, ca.scale_b = t;
  }
  /* Grouped calls are not tuned (the tuner times whole calls of one shape; a grouped call's
   * shape is the routing of the moment), and have no generic kernel: under TCJ_JIT=async they
   * fetch their specialised kernel here, compiling it in this thread at the class's first call
   * unless the disk cache has it. SwiGLU calls likewise (eng_problem_one_plan). */
  if (e->autotune && !eng_problem_one_plan(&p)) st = autotune(e, &p, g->epilogue_source, &ca, stream, &plan);
  cache_kernel kern;
  eng_generic_memo memo;
  memo.key = 0;
  int memo_new = 0, encoded = 0;
  if (st == TCJ_SUCCESS)
    st = e->jit_async && !eng_problem_one_plan(&p) ? async_kernel(e, &p, g->epilogue_source, stream, &plan, &kern, &memo, &memo_new)
                      : eng_kernel_get_user(e, &plan.cfg, g->epilogue_source, &kern, NULL);
  if (st == TCJ_SUCCESS && plan.cfg.generic) atomic_fetch_add_explicit(&e->stats.generic_launches, 1, memory_order_relaxed);
  if (st == TCJ_SUCCESS) st = launch(e, &p, &plan, &kern, &ca, stream, memo.key ? &memo.tmaps : NULL, &encoded);
  if (st == TCJ_SUCCESS && memo.key && (memo_new || encoded)) {
    memo.problem = p;
    eng_generic_memo_put(&e->tiering, &memo);
  }
  eng_ctx_leave(e, pushed);
  return st;
}

tcj_status tcj_gemm(tcj_engine *e, tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                    float alpha, const void *a, tcj_dtype a_type, int64_t lda,
                    const void *b, tcj_dtype b_type, int64_t ldb,
                    float beta, void *c, tcj_dtype c_type, int64_t ldc, CUstream stream) {
  tcj_gemm_desc g = desc_of_gemm(op_a, op_b, m, n, k, alpha, a, a_type, lda, b, b_type, ldb, beta, c, c_type, ldc);
  return tcj_gemm_ex(e, &g, stream);
}
