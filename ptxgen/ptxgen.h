/* ptxgen: kernel config -> PTX text. Pure C, no CUDA. Same config, same bytes. */
#ifndef TCJ_PTXGEN_H
#define TCJ_PTXGEN_H

#include <stddef.h>

#include "kernel_cfg.h"

/* Name of the kernel entry in every module ptxgen writes, and of the split-K reduction that
 * modules of split configs also hold. */
#define PTX_GEMM_ENTRY "tcj_gemm_sm80"
#define PTX_REDUCE_ENTRY "tcj_gemm_sm80_reduce"

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

#endif
