/* SPDX-License-Identifier: Apache-2.0 */
/* ptxgen: kernel config -> PTX text. Pure C, no CUDA. Same config, same bytes. */
#ifndef TCJ_PTXGEN_H
#define TCJ_PTXGEN_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_cfg.h"
#include "recipe.h"

/* Name of the kernel entry in every module ptxgen writes, and of the split-K reduction that
 * modules of split configs also hold. */
#define PTX_GEMM_ENTRY "tcj_gemm_sm80"
#define PTX_REDUCE_ENTRY "tcj_gemm_sm80_reduce"
#define PTX_SM90_ENTRY "tcj_gemm_sm90"

/* The GEMM entry of cfg's module: its recipe's (recipe.h). */
const char *ptx_gemm_entry(const tcj_kernel_cfg *cfg);

/* Writes the PTX module for cfg. On success returns 0 and *ptx (malloc'ed, NUL-terminated,
 * caller frees) and *len. On failure returns -1 and a reason in err. A config with a user
 * epilogue gets an .extern declaration of tcj_epilogue (the module then needs a link). */
int ptx_gen_gemm(const tcj_kernel_cfg *cfg, char **ptx, size_t *len, char *err, size_t err_size);

/* A user epilogue's code to join into the module: the body of NVRTC's PTX (every directive but
 * .version, .target and .address_size: ptx_user_epilogue_body) and the ISA version it needs. */
typedef struct ptx_user_code {
  const char *body;
  int version_x10;
} ptx_user_code;

/* ptx_gen_gemm with the user epilogue's definition in the module, where ptxas can inline it
 * (user NULL: as ptx_gen_gemm). */
int ptx_gen_gemm_user(const tcj_kernel_cfg *cfg, const ptx_user_code *user, char **ptx, size_t *len, char *err,
                      size_t err_size);

/* Kernel ABI of PTX_GEMM_ENTRY: the parameter list of abi.h (PTX_GEMM_PARAMS).
 * Launch: grid batch * ceil(m/bm) * ceil(n/bn) CTAs in x and tcj_cfg_slices() in y,
 * tcj_cfg_threads() threads, tcj_cfg_smem_bytes() bytes of dynamic shared memory.
 * Split configs: the slices (p_slices, the plan's count: a launch value) write fp32 partial
 * sums to p_work (slices * m * n elements); then PTX_REDUCE_ENTRY with the same parameters, on
 * the 1-D grid that ptx_reduce_vec() gives, of PTX_REDUCE_THREADS threads, applies the epilogue
 * into D. Generic kernels split the same way when p_slices > 1 and store D themselves when it
 * is 1. Cluster splits (tcj_cfg_split_workspace() 0) declare clusters of the slices of a tile
 * and need neither. */
#define PTX_REDUCE_THREADS 256
/* Whether cfg's module holds PTX_REDUCE_ENTRY: workspace splits and generic kernels that split
 * at launch. */
static inline int ptx_has_reduce(const tcj_kernel_cfg *cfg) {
  return tcj_cfg_split_workspace(cfg) || tcj_cfg_splits_at_launch(cfg);
}
/* Elements of D each thread of PTX_REDUCE_ENTRY takes (adjacent in a row; they divide n): the
 * grid is ceil(m * n / (ptx_reduce_vec() * PTX_REDUCE_THREADS)) CTAs. */
int ptx_reduce_vec(const tcj_kernel_cfg *cfg);

/* Kernel ABI of PTX_SM90_ENTRY (recipe sm90), in parameter order:
 *   .param .align 64 .b8 tmap_a[128], tmap_b[128]   CUtensorMap of A and B, as ptx_sm90_tmap
 *                                                    describes them (the kernel reads them in
 *                                                    parameter space: no copy to global)
 *   .param .align 64 .b8 tmap_d[128]                 CUtensorMap of D as ptx_sm90_tmap_d says,
 *                                                    or anything (zeros) when it says unused
 *   PTX_GEMM_PARAMS (abi.h)                          as for PTX_GEMM_ENTRY
 * Launch: ptx_sm90_grid() CTAs in x (persistent: each walks tiles with stride gridDim.x), 1 in
 * y, tcj_cfg_threads() threads, tcj_cfg_smem_bytes() bytes of dynamic shared memory. Clusters
 * of tcj_cfg_cluster_ctas() CTAs are declared in the PTX (.reqnctapercluster), so a plain
 * cuLaunchKernel launches them; the grid is a multiple of the cluster size.
 * Split configs (split_k >= 2): each work unit is a (tile, slice) pair that stores its raw fp32
 * partial sums into p_work (slices * m * n elements, rows of n); the module also holds
 * PTX_REDUCE_ENTRY, launched as for the sm80 recipe.
 * Grouped configs (tcj_kernel_cfg.grouped): A's map has m rows (contiguous: all of them; masked:
 * per entry, batched over the G entries), B's is batched over the G groups (stride_b; 0: one
 * entry), D's is unused; the grid is min(ptx_group_units, sm_count) CTAs, each walking units
 * with stride gridDim.x. */

/* The transposing pack (transpose.c): sm90 modules of types wgmma reads K-major only (tf32,
 * s8, fp8) also hold PTX_TRANSPOSE_ENTRY, which writes dst[j * ld_dst + i] = src[i * ld_src + j]
 * for the rows x cols elements of src (the element size of the module's operands), so that an
 * MN-major operand becomes K-major scratch. Parameters, in order: .u64 src, dst, ld_src, ld_dst
 * (elements), .u32 rows, cols. Launch: ceil(cols / PTX_TRANSPOSE_TILE) x
 * ceil(rows / PTX_TRANSPOSE_TILE) CTAs of PTX_TRANSPOSE_THREADS threads, with
 * ptx_transpose_smem_bytes() of dynamic shared memory. */
struct ptx_builder;

/* The 3xTF32 split pass (split_tf32.c): modules of tf32x3 configs also hold PTX_SPLIT_ENTRY,
 * which turns one fp32 operand into the kernel's K-major parts. For each batch entry z (z0 +
 * ctaid.z), row r < rows and kk < kp (a multiple of PTX_SPLIT_TILE), with x = op(X)[r][kk] (0
 * past k), c = kk / PTX_SPLIT_TILE and w = kk % PTX_SPLIT_TILE:
 *   dst[z * stride_dst + r * ld_dst + (parts c + seg) * PTX_SPLIT_TILE + w] =
 *     seg == small_seg ? small(x) : big(x)                          for seg 0 .. parts - 1.
 * op(X)[r][kk] is src[z * stride_src + r * ld_src + kk], or with trans set
 * src[z * stride_src + kk * ld_src + r] (an MN-major source). Parameters, in order: .u64 src,
 * dst, ld_src, ld_dst, stride_src, stride_dst (elements), .u32 rows, k, kp, trans, small_seg,
 * z0, parts (ptx_split_parts). Launch: ceil(rows / PTX_SPLIT_TILE) x kp / PTX_SPLIT_TILE x
 * entries CTAs of PTX_SPLIT_THREADS threads, with ptx_split_smem_bytes() of dynamic shared
 * memory. */
#define PTX_SPLIT_ENTRY "tcj_split_tf32"
#define PTX_SPLIT_TILE 32
#define PTX_SPLIT_THREADS 256
static inline int ptx_split_smem_bytes(void) { return PTX_SPLIT_TILE * (PTX_SPLIT_TILE + 1) * 4; }
void ptx_emit_split_entry(struct ptx_builder *b);
/* Parts per chunk of K the kernel of cfg reads, and the part that is small for A (is_b 0) or B:
 * three on the sm80 recipe (A [big | big | small], B [big | small | big]), two on the sm90
 * recipe ([big | small] for both; its producer picks a tile's parts, sm90_x3_coords). */
int ptx_split_parts(const tcj_kernel_cfg *cfg);
static inline int ptx_split_small_seg(const tcj_kernel_cfg *cfg, int is_b) {
  return ptx_split_parts(cfg) == 2 ? 1 : is_b ? 1 : 2;
}

/* A module of its own (ptx_gen_l2_flush), for the autotuner's timing: PTX_L2_FLUSH_ENTRY reads
 * .u64 chunks 16-byte chunks from .u64 buf (zeroed by the caller) and writes nothing to .u64
 * sink (4 bytes) unless the chunks' XOR is PTX_L2_FLUSH_NEVER. Launch: any grid of
 * PTX_L2_FLUSH_THREADS threads per CTA (a grid-stride loop). Returns 0, or -1 with err. */
#define PTX_L2_FLUSH_ENTRY "tcj_l2_flush"
#define PTX_L2_FLUSH_THREADS 256
#define PTX_L2_FLUSH_NEVER 0x5eed1e55
int ptx_gen_l2_flush(int sm, int arch_suffix, char **ptx, size_t *len, char *err, size_t err_size);

#define PTX_TRANSPOSE_ENTRY "tcj_transpose"
#define PTX_TRANSPOSE_TILE 32
#define PTX_TRANSPOSE_THREADS 256
static inline int ptx_transpose_smem_bytes(int elem_size) {
  return PTX_TRANSPOSE_TILE * (PTX_TRANSPOSE_TILE + 1) * elem_size;
}
/* Whether an sm90 module of cfg holds PTX_TRANSPOSE_ENTRY. */
int ptx_sm90_has_transpose(const tcj_kernel_cfg *cfg);
void ptx_emit_transpose_entry(struct ptx_builder *b, int elem_size);

/* One operand's tensor map, in the terms of cuTensorMapEncodeTiled: rank 2, dim 0 contiguous,
 * 128-byte swizzle, no interleave, element strides 1, zero fill out of bounds. */
typedef struct ptx_tmap_desc {
  ptx_elem elem;
  int rank;             /* 2; 3 for operands by entry (batched; grouped B, masked A), dims[2] the entries */
  uint64_t dims[3];     /* elements; dims[0] contiguous */
  uint64_t stride_bytes; /* between consecutive dims[1] indices: ld * element size */
  uint64_t batch_stride_bytes; /* between consecutive dims[2] indices (rank 3) */
  uint32_t box[3];      /* elements per TMA copy; box[0] * element size == 128; box[2] 1 */
} ptx_tmap_desc;

/* A batched operand's entries as TMA sees them: batch entries (a grouped config's groups)
 * stride elements apart; stride 0 (one operand for every entry) is a map of one entry, which
 * the kernel addresses at z = 0. */
typedef struct ptx_tmap_batch {
  int64_t count, stride;
} ptx_tmap_batch;

/* The tensor map the kernel of cfg expects for A (is_b = 0, m rows, leading dimension ld) or
 * B (is_b = 1). Returns 0, or -1 when TMA cannot address the operand (base alignment is the
 * caller's: 16 bytes). */
int ptx_sm90_tmap(const tcj_kernel_cfg *cfg, int is_b, int64_t m, int64_t ld, ptx_tmap_batch batch, ptx_tmap_desc *out);
/* D's tensor map: kernels whose D rows are 16-byte vectors (vec_c * sizeof(D) == 16) store D
 * through TMA when beta == 0. Returns 0 and fills out (box: 128 bytes of columns x 64 rows,
 * 128-byte swizzle), 1 when the kernel of cfg does not use the map, -1 when TMA cannot address
 * D (the caller's base must be 16-byte aligned). */
int ptx_sm90_tmap_d(const tcj_kernel_cfg *cfg, int64_t m, int64_t ldd, ptx_tmap_batch batch, ptx_tmap_desc *out);
/* 1 when the kernel of cfg stores D through TMA (beta == 0 tiles): 16-byte D vectors, no split,
 * no fused epilogue. */
int ptx_sm90_tma_store(const tcj_kernel_cfg *cfg);
/* The boxes of D (64 rows x 128 bytes) in one sm90 consumer's share of a tile; the shared memory
 * one takes staged (swizzled for a TMA store, or rows TCJ_SM90_ROWS_PITCH apart for bulk copies
 * per row); and the shared memory a consumer's epilogue stages in: TCJ_SM90_EPI_BYTES, or with
 * epi_whole a box for each of them plus the bias and row-scale tail (2 KiB). */
int ptx_sm90_epi_boxes(const tcj_kernel_cfg *cfg);
int ptx_sm90_epi_box_bytes(const tcj_kernel_cfg *cfg);
int ptx_sm90_epi_bytes(const tcj_kernel_cfg *cfg);
/* 1 when the kernel of cfg sends D's stored scattered rows (the MoE combine's TCJ_SCATTER_STORE)
 * out of shared memory by one bulk copy per row and 128-byte chunk (beta == 0 tiles): 16-byte
 * D vectors of 2 or 4 bytes, no bias, activation or user function. */
int ptx_sm90_bulk_rows(const tcj_kernel_cfg *cfg);
/* CTAs to launch for m rows and batch entries (a grouped config: its groups) on sm_count SMs:
 * one per SM at most, whole clusters, >= 1. */
int64_t ptx_sm90_grid(const tcj_kernel_cfg *cfg, int64_t m, int64_t batch, int sm_count);
/* Tiles of one batch entry (m rows). */
int64_t ptx_sm90_tiles(const tcj_kernel_cfg *cfg, int64_t m);

#endif
