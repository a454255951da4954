/* ptxgen: kernel config -> PTX text. Pure C, no CUDA. Same config, same bytes. */
#ifndef TCJ_PTXGEN_H
#define TCJ_PTXGEN_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_cfg.h"

/* Name of the kernel entry in every module ptxgen writes, and of the split-K reduction that
 * modules of split configs also hold. */
#define PTX_GEMM_ENTRY "tcj_gemm_sm80"
#define PTX_REDUCE_ENTRY "tcj_gemm_sm80_reduce"
#define PTX_SM90_ENTRY "tcj_gemm_sm90"

/* The GEMM entry of cfg's module: PTX_GEMM_ENTRY or PTX_SM90_ENTRY. */
const char *ptx_gemm_entry(const tcj_kernel_cfg *cfg);

/* Writes the PTX module for cfg. On success returns 0 and *ptx (malloc'ed, NUL-terminated,
 * caller frees) and *len. On failure returns -1 and a reason in err. */
int ptx_gen_gemm(const tcj_kernel_cfg *cfg, char **ptx, size_t *len, char *err, size_t err_size);

/* Kernel ABI of PTX_GEMM_ENTRY, in parameter order:
 *   u64 a, u64 b, u64 c       device pointers (a, b 16-byte aligned when align_x == 16, ...)
 *   u32 m                     rows of C (runtime; n and k are baked into the kernel)
 *   u64 lda, ldb, ldc         leading dimensions in elements
 *   f32 alpha, f32 beta       beta == 0: C is not read
 * Launch: grid ceil(m/bm) * ceil(n/bn) CTAs in x and tcj_cfg_slices() in y,
 * tcj_cfg_threads() threads, tcj_cfg_smem_bytes() bytes of dynamic shared memory.
 * Split configs: c is an fp32 workspace of slices * m * n elements (ldc, alpha and beta are
 * ignored); then PTX_REDUCE_ENTRY with
 *   u64 workspace, u64 c, u32 m, u64 ldc, f32 alpha, f32 beta
 * on a 1-D grid of ceil(m * n / PTX_REDUCE_THREADS) CTAs of PTX_REDUCE_THREADS threads. */
#define PTX_REDUCE_THREADS 256

/* Kernel ABI of PTX_SM90_ENTRY (recipe sm90), in parameter order:
 *   .param .align 64 .b8 tmap_a[128], tmap_b[128]   CUtensorMap of A and B, as ptx_sm90_tmap
 *                                                    describes them (the kernel reads them in
 *                                                    parameter space: no copy to global)
 *   .param .align 64 .b8 tmap_c[128]                 CUtensorMap of C as ptx_sm90_tmap_c says,
 *                                                    or anything (zeros) when it says unused
 *   u64 c, u32 m, u64 ldc, f32 alpha, f32 beta       as for PTX_GEMM_ENTRY
 * Launch: ptx_sm90_grid() CTAs in x (persistent: each walks tiles with stride gridDim.x), 1 in
 * y, tcj_cfg_threads() threads, tcj_cfg_smem_bytes() bytes of dynamic shared memory. Clusters
 * of cfg->cluster_m CTAs are declared in the PTX (.reqnctapercluster), so a plain
 * cuLaunchKernel launches them; the grid is a multiple of the cluster size.
 * Split configs (split_k >= 2): each work unit is a (tile, slice) pair; c is the fp32 workspace
 * of slices * m * n elements and ldc must be n (alpha 1, beta 0: the kernel stores raw partial
 * sums); the module also holds PTX_REDUCE_ENTRY, launched as for the sm80 recipe. */

/* One operand's tensor map, in the terms of cuTensorMapEncodeTiled: rank 2, dim 0 contiguous,
 * 128-byte swizzle, no interleave, element strides 1, zero fill out of bounds. */
typedef struct ptx_tmap_desc {
  ptx_elem elem;
  uint64_t dims[2];     /* elements; dims[0] contiguous */
  uint64_t stride_bytes; /* between consecutive dims[1] indices: ld * element size */
  uint32_t box[2];      /* elements per TMA copy; box[0] * element size == 128 */
} ptx_tmap_desc;

/* The tensor map the kernel of cfg expects for A (is_b = 0, m rows, leading dimension ld) or
 * B (is_b = 1). Returns 0, or -1 when TMA cannot address the operand (base alignment is the
 * caller's: 16 bytes). */
int ptx_sm90_tmap(const tcj_kernel_cfg *cfg, int is_b, int64_t m, int64_t ld, ptx_tmap_desc *out);
/* C's tensor map: kernels whose C rows are 16-byte vectors (vec_c * sizeof(C) == 16) store C
 * through TMA when beta == 0. Returns 0 and fills out (box: 128 bytes of columns x 64 rows,
 * 128-byte swizzle), 1 when the kernel of cfg does not use the map, -1 when TMA cannot address
 * C (the caller's base must be 16-byte aligned). */
int ptx_sm90_tmap_c(const tcj_kernel_cfg *cfg, int64_t m, int64_t ldc, ptx_tmap_desc *out);
/* CTAs to launch for m rows on sm_count SMs: one per SM at most, whole clusters, >= 1. */
int64_t ptx_sm90_grid(const tcj_kernel_cfg *cfg, int64_t m, int sm_count);
/* Tiles of the problem (m rows): the persistent loop's trip count over all CTAs. */
int64_t ptx_sm90_tiles(const tcj_kernel_cfg *cfg, int64_t m);

#endif
