/* SPDX-License-Identifier: Apache-2.0 */
/* What the parts of the tools' GPU measuring core share and nothing else needs: cuBLAS's names of
 * tcj's types and ops, alpha/beta constants, and the helpers one part calls in another (the
 * activation kernels' launch, the grouped baselines, read-back). */
#ifndef TCJ_TOOLS_GEMM_RUNNER_INT_H
#define TCJ_TOOLS_GEMM_RUNNER_INT_H

#include "tools/gemm_runner.h"

/* cuBLAS's type of each dtype (tf32 operands are f32 data). */
static inline cudaDataType gr_cuda_type(tcj_dtype t) {
  static const cudaDataType types[TCJ_F64 + 1] = {
    [TCJ_F16] = CUDA_R_16F, [TCJ_BF16] = CUDA_R_16BF, [TCJ_F32] = CUDA_R_32F, [TCJ_TF32] = CUDA_R_32F,
    [TCJ_E4M3] = CUDA_R_8F_E4M3, [TCJ_E5M2] = CUDA_R_8F_E5M2, [TCJ_S8] = CUDA_R_8I, [TCJ_S32] = CUDA_R_32I,
    [TCJ_F64] = CUDA_R_64F,
  };
  return (unsigned)t <= TCJ_F64 ? types[t] : CUDA_R_32F;
}

/* f32: CUBLAS_COMPUTE_32F on a CUBLAS_DEFAULT_MATH handle, which is SGEMM (fp32 products). */
static inline cublasComputeType_t gr_compute_type(const gemm_problem *p) {
  return gemm_out_dtype(p) == TCJ_S32 ? CUBLAS_COMPUTE_32I
         : p->ab == TCJ_TF32          ? CUBLAS_COMPUTE_32F_FAST_TF32
         : p->ab == TCJ_F64           ? CUBLAS_COMPUTE_64F
                                      : CUBLAS_COMPUTE_32F;
}

/* alpha 1 and beta 0 in the scale type of p's compute type (and cuBLASLt's scale type). */
static inline cudaDataType gr_scale_type(const gemm_problem *p) {
  return gemm_out_dtype(p) == TCJ_S32 ? CUDA_R_32I : p->ab == TCJ_F64 ? CUDA_R_64F : CUDA_R_32F;
}
static inline void gr_unit_scalars(const gemm_problem *p, const void **alpha, const void **beta) {
  static const float f[2] = {1, 0};
  static const double d[2] = {1, 0};
  static const int32_t i[2] = {1, 0};
  cudaDataType t = gr_scale_type(p);
  const void *pair = t == CUDA_R_32I ? (const void *)i : t == CUDA_R_64F ? (const void *)d : (const void *)f;
  size_t size = t == CUDA_R_32I ? sizeof *i : t == CUDA_R_64F ? sizeof *d : sizeof *f;
  *alpha = pair;
  *beta = (const char *)pair + size;
}

static inline cublasOperation_t gr_blas_op(tcj_op op) { return op == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T; }

/* Launches fn (an activation kernel of gr_act_compile) over count elements of d, in place, on
 * g->stream. 0, or -1 with the cause in note. */
int gr_act_launch(const gr_gpu *g, CUfunction fn, tcj_dtype out, void *d, uint64_t count, char *note, size_t note_size);
/* The kernel of p's activation for its output type: GR_ACT_* and GR_OUT_* indices, -1 where none. */
int gr_act_index(tcj_activation a);
int gr_out_index(tcj_dtype t);

/* Why cuBLAS has no grouped baseline for p, or NULL. */
const char *gr_grouped_unavailable(const gemm_problem *p);
/* One grouped baseline call (GR_BASE_GROUPED or GR_BASE_GROUP_LOOP) on g->stream. */
cublasStatus_t gr_grouped_run(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const void *a,
                              const void *b, void *c, char *note, size_t note_size);
void gr_grouped_free(gr_grouped_args *ga);
void gr_lt_groups_free(gr_lt_groups *lt);

/* Copies bytes from the device on stream and waits. 0, or -1 with note. */
int gr_read_back(void *host, const void *dev, size_t bytes, cudaStream_t stream, char *note, size_t note_size);

/* In a function with `char *note, size_t note_size` that returns int: a failed cuBLASLt call
 * writes its name and status to note and returns -1. */
#define LT_TRY(call, what)                                                               \
  do {                                                                                   \
    cublasStatus_t st_ = (call);                                                         \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                  \
      snprintf(note, note_size, "cuBLASLt %s: %s", what, cublasGetStatusName(st_));      \
      return -1;                                                                         \
    }                                                                                    \
  } while (0)

#endif
