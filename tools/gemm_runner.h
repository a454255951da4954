/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU measuring core of tcj-bench and tcj-prof: tcj and its cuBLAS baseline on the same
 * buffers and stream, operand sets rotated past L2, median cudaEvent timing, and the check of
 * tcj's result against the baseline's (relative Frobenius error, a bound per dtype). Plain
 * problems run tcj_gemm against cublasGemmEx (for f32 and f64 operands: SGEMM and DGEMM);
 * tcj_gemm_ex problems (gemm_problem.h) run against what a cuBLAS user would call for them
 * (gr_baseline); fp8 problems run tcj_gemm_ex with per-tensor device scales against cuBLASLt's
 * fp8 GEMM. fp8, f32 and f64 are checked against a float64 reference (gemm_ref.h) instead, and
 * every floating-point problem without an epilogue gets both libraries' accuracy figures.
 * Parts: gemm_runner.c (buffers, calls, timing), gemm_runner_act.c (the baselines' activation
 * kernels), gemm_runner_base.c (dense baselines and the dispatch), gemm_runner_grouped.c (grouped
 * baselines), gemm_runner_check.c (the check); gemm_runner_int.h what they share. */
#ifndef TCJ_TOOLS_GEMM_RUNNER_H
#define TCJ_TOOLS_GEMM_RUNNER_H

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h> /* getenv */

#include "tcj.h"
#include "tools/gemm_problem.h"

/* The jit mode of a timing tool's engine: TCJ_JIT when set, else sync, so that every timed call
 * of a class runs its specialised kernel (async would time generic kernels until a background
 * compile swaps them, mid-measurement). */
static inline int gr_jit_mode_for_timing(void) {
  const char *jit = getenv("TCJ_JIT");
  return jit && *jit ? TCJ_JIT_DEFAULT : TCJ_JIT_SYNC;
}

#define GR_MAX_SETS 8 /* buffer sets rotated so that small problems do not run from L2 */
#define GR_WARMUP 3   /* untimed calls per library before timing */
#define GR_LT_WORKSPACE (32u << 20) /* cuBLASLt's workspace (NVIDIA recommends 32 MiB on Hopper) */
/* The per-tensor scales of fp8 problems (tcj_gemm_desc.scale_a / scale_b, cuBLASLt's A/B scale
 * pointers): powers of two, so that scaling is exact, with a product other than 1, so that a
 * scale that is dropped, or applied twice, shows in the check. */
#define GR_SCALE_A 0.5f
#define GR_SCALE_B 0.25f

/* The activation kernels of the "cuBLASLt bias + activation kernel" baselines, compiled by
 * NVRTC at start (gr_act_compile). Index: [activation][output dtype]. */
enum { GR_ACT_SILU, GR_ACT_GELU_TANH, GR_ACT_COUNT };
enum { GR_OUT_F16, GR_OUT_BF16, GR_OUT_F32, GR_OUT_COUNT };

typedef struct gr_gpu {
  tcj_engine *eng; /* the caller's; NULL for cuBLAS-only use */
  cublasHandle_t blas;
  cudaStream_t stream;
  size_t l2_bytes;
  /* Made on first use by gr_baseline_open / gr_act_compile; released by gr_close. */
  cublasLtHandle_t lt;
  void *lt_workspace;
  CUmodule act_module;
  CUfunction act[GR_ACT_COUNT][GR_OUT_COUNT];
} gr_gpu;

/* A non-blocking stream and a cuBLAS handle on it for the current device (whose primary
 * context must be current). Returns 0, or -1 with the cause in err. */
int gr_open(gr_gpu *g, char *err, size_t err_size);
void gr_close(gr_gpu *g); /* keeps g->eng */

/* Compiles the activation kernels with NVRTC (opened with dlopen, as libtcj opens it) for the
 * current device and loads them through the driver API. Returns 0, or -1 with the cause in err
 * (no NVRTC, a compile or load failure). */
int gr_act_compile(gr_gpu *g, char *err, size_t err_size);

/* Random operands, never all zeros: uniform in [-1, 1] for float types (f64: every mantissa bit
 * random), integers in [-8, 8] for s8, and for fp8 non-zero multiples of 1/2 in [-4, 4] (exact in
 * e4m3 and e5m2, so that products and their sums are exact in fp32 and the reference is exact). */
void gr_fill_host(tcj_dtype t, void *buf, size_t n, uint64_t seed);

/* Device buffer sets of one problem: enough that one rotation exceeds 3x L2, as memory allows
 * (room is kept for a reference output). A, B and the bias of every set hold the same random
 * data (the bias scaled by a power of two near sqrt(k) / 3, the order of the products' sums; a
 * bias of an s32 output holds integers, so that both libraries' sums are exact); the
 * output (C, or D when it is apart) starts as all ones bits (NaN, or -1 for s32) so that
 * unwritten elements show. Batched problems hold every entry (one B and one bias when they are
 * broadcast). */
typedef struct gr_buffers {
  int sets;
  void *a[GR_MAX_SETS], *b[GR_MAX_SETS], *c[GR_MAX_SETS], *bias[GR_MAX_SETS];
  float *scales; /* fp8: {GR_SCALE_A, GR_SCALE_B} on the device, shared by every set; else NULL */
  void *groups;  /* grouped: the ends (int32 or int64) or counts of p->group_sizes on the device,
                    uploaded once and shared by every set (gemm_problem.group_dev); else NULL */
  /* The MoE extras (gr_extras_fill's values), shared by every set but the B pointers, which point
   * into their set's B; extras[s] is what gemm_problem.extras takes for set s. Host copies for
   * the reference: scales (gemm_scale_b_at + gemm_scales_b floats, block scales excepted),
   * row_scale, gather, scatter, b_slot (the B entry group g's pointer names: the groups
   * reversed). */
  float *row_scale;
  int32_t *gather, *scatter;
  void **b_ptrs[GR_MAX_SETS];
  gemm_extras extras[GR_MAX_SETS];
  float *h_scales, *h_row_scale;
  int32_t *h_gather, *h_scatter;
  int64_t *h_b_slot;
} gr_buffers;

/* The values of the MoE extras, exact in every product (powers of two but for row_scale's 0.75):
 * row scales scale_a[i] = GR_SCALE_A * {1, 1/2, 2, 1/4}[i % 4], scale_b[g][c] = GR_SCALE_B *
 * {1, 2, 1/2}[(g + c) % 3] (grouped per-tensor: c = 0); row_scale[i] = {1/2, 1/4, 1, 3/4}[i % 4];
 * gather[r] a seeded draw from [0, gather_rows); scatter a seeded shuffle of the routed rows
 * (the groups' sizes summed), each row past them its own; b_slot[g] = G - 1 - g. Pure host code. */
void gr_extras_fill(const gemm_problem *p, float *scales, float *row_scale, int32_t *gather, int32_t *scatter,
                    int64_t *b_slot);

/* The byte D's buffers start as: all ones bits (NaN, or -1 for s32), so that unwritten elements
 * show, or zeros where rows are added into D (TCJ_SCATTER_ADD), whose unnamed rows then stay 0. */
static inline int gr_d_start_byte(const gemm_problem *p) { return gemm_scatter_adds(p->scatter) ? 0 : 0xff; }

/* Returns 0, or -1 with the cause in note (buf is then empty: gr_buffers_free is a no-op). */
int gr_buffers_alloc(const gr_gpu *g, const gemm_problem *p, uint64_t seed_a, uint64_t seed_b,
                     gr_buffers *buf, char *note, size_t note_size);
void gr_buffers_free(gr_buffers *buf);

/* One plain call on g->stream; the row-major problem maps to column-major cublasGemmEx as
 * C^T = op(B)^T op(A)^T. Compute types: 32F (f32 too, on a CUBLAS_DEFAULT_MATH handle: SGEMM, no
 * tf32), 32F_FAST_TF32 for tf32, 64F for f64 (DGEMM), 32I for s8. */
cublasStatus_t gr_cublas(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c);
/* tcj on g->stream: tcj_gemm for a plain problem, tcj_gemm_ex otherwise. c is the output (D
 * when it is apart from C), bias NULL without one; scales: gr_buffers.scales (fp8: per-tensor
 * only, two floats; a block-scaled problem needs gemm_problem_desc's arrays, which the runner
 * does not allocate). */
tcj_status gr_tcj(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c, const void *bias,
                  const float *scales);

/* cuBLAS int8 layout rules vary by version: the status of an int8 NN call (64^3). Where it
 * fails, s8 problems run NT (both operands K-major, cuBLAS's column-major TN), the layout
 * cuBLAS's int8 GEMMs are fast in anyway. */
cublasStatus_t gr_s8_probe_nn(const gr_gpu *g);

/* The cuBLAS side of a problem, as a user of cuBLAS would write it:
 *   plain (no bias, no activation, one GEMM; a separate D too): cublasGemmEx;
 *   batched without an epilogue: cublasGemmStridedBatchedEx (strideB 0 when B is broadcast);
 *   bias, bias_relu, bias_gelu: one cublasLtMatmul with CUBLASLT_EPILOGUE_BIAS, RELU_BIAS or
 *     GELU_BIAS (cuBLASLt's GELU is the tanh form: the check allows for it), batched through
 *     the layouts' batch count and strides;
 *   bias_silu, bias_gelu_tanh: cublasLtMatmul with the BIAS epilogue, then an elementwise
 *     activation kernel over D (gr_act_compile), timed together;
 *   fp8 operands, any of the above: cublasLtMatmul with fp8 A and B, the same device scales
 *     (A and B scale pointers), compute 32F, and FAST_ACCUM = p->fast_accum. cuBLASLt's fp8
 *     GEMMs take only its TN layout (row-major op_a N, op_b T: both operands K-major) and no
 *     e5m2 x e5m2: others have no baseline (GR_BASE_NONE).
 * User epilogues have no baseline. */
/* Grouped problems (no epilogue; else GR_BASE_NONE): cublasGemmGroupedBatchedEx with one
 * cuBLAS group per non-empty expert (cuBLAS 12.5 or later, found by the runtime version and the
 * symbol: GR_BASE_NONE without), or (gr_baseline_open_grouped with loop) cublasGemmEx per
 * non-empty group on the same stream. Both take the sizes from the host (p->group_sizes), as
 * a cuBLAS user must. */
typedef enum gr_base_kind {
  GR_BASE_GEMMEX, GR_BASE_STRIDED, GR_BASE_LT, GR_BASE_LT_ACT, GR_BASE_NONE, GR_BASE_GROUPED, GR_BASE_GROUP_LOOP
} gr_base_kind;

typedef struct gr_grouped_args gr_grouped_args; /* cublasGemmGroupedBatchedEx's arrays */
typedef struct gr_lt_groups gr_lt_groups;       /* a cuBLASLt fp8 GEMM per group */

typedef struct gr_baseline {
  gr_base_kind kind;
  char label[48]; /* "cublasGemmEx", "cublasSgemm" (f32), "cublasDgemm" (f64), "cublasStridedBatched",
                     "cublasLt+gelu_bias", "cublasLt+bias+silu_kernel", "cublasLt+fast_accum" */
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatmulAlgo_t algo;
  CUfunction act;           /* GR_BASE_LT_ACT's kernel */
  gr_grouped_args *grouped; /* GR_BASE_GROUPED's */
  gr_lt_groups *lt;         /* GR_BASE_GROUP_LOOP's for fp8 operands: cublasLtMatmul per group */
} gr_baseline;

/* The baseline's label for p, without preparing it: "-" where there is none. */
void gr_baseline_label(const gemm_problem *p, char *out, size_t size);

/* Prepares p's baseline: cuBLASLt descriptors and the heuristic's algorithm, the activation
 * kernel (gr_act_compile must have run). Returns 0; 1 when cuBLAS has no such GEMM (fp8 in a
 * layout or type pair cuBLASLt does not take, or for which its heuristic finds no algorithm on
 * this GPU): base->kind is GR_BASE_NONE and note says why; or -1 with the cause in note
 * (cuBLASLt refuses the combination, no activation kernel, a user epilogue). base->label is set
 * either way. gr_baseline_close releases it (also after a failure). */
int gr_baseline_open(gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, gr_baseline *base, char *note,
                     size_t note_size);
void gr_baseline_close(gr_baseline *base);
/* A grouped problem's baseline: loop 0 cublasGemmGroupedBatchedEx (what gr_baseline_open opens for
 * one), 1 a cublasGemmEx per non-empty group (the K mode: per group, an empty one included, k 0).
 * fp8 operands (either loop): a cublasLtMatmul per non-empty group with the group's scale
 * pointers (per-tensor: scale_a and group g's scale_b; row scales: cuBLASLt's outer-vector scale
 * mode, the group's rows of scale_a and its n of scale_b), as a cuBLASLt user loops over experts;
 * block scales have none. Pointer arrays: the loop reads the groups' B where the pointers point.
 * Returns as gr_baseline_open. */
int gr_baseline_open_grouped(gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, int loop, gr_baseline *base,
                             char *note, size_t note_size);

/* One baseline call on g->stream (base NULL: gr_cublas), 0 or -1 with the cause in note. */
int gr_baseline_run(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const void *a, const void *b,
                    void *c, const void *bias, char *note, size_t note_size);

typedef enum gr_lib { GR_TCJ, GR_CUBLAS } gr_lib;

/* Median of `runs` event-timed calls in microseconds, rotating over the buffer sets; 0 with
 * the cause in note when a call fails. GR_CUBLAS runs base (NULL: gr_cublas). */
double gr_time(const gr_gpu *g, const gemm_problem *p, gr_lib lib, const gr_baseline *base, const gr_buffers *buf,
               int runs, char *note, size_t note_size);

/* The largest relative Frobenius error of tcj vs the baseline (fp8: vs the reference) accepted for
 * p's types and activation; 0: exact. f32 and f64 problems are held to gemm_ref_bound instead,
 * except with an epilogue. */
double gr_bound(const gemm_problem *p);

typedef enum gr_check_result {
  GR_CHECK_PASS,
  GR_CHECK_MISMATCH,   /* beyond the bound */
  GR_CHECK_BLAS_ERROR, /* the baseline refused or failed the problem */
  GR_CHECK_ERROR,      /* allocation, copy or stream failure */
} gr_check_result;

/* What gr_check measured; -1 where it did not. */
typedef struct gr_figures {
  double rel_err;  /* tcj's relative Frobenius error: against the baseline, or (fp8, f32, f64) the reference */
  /* The accuracy figures of floating-point problems without an epilogue (gemm_ref_accuracy_applies):
   * max |got - ref| / (|A||B|)_ij over the reference's sampled elements, of tcj and of the baseline. */
  double err_tcj, err_blas;
} gr_figures;

/* Compares set 0's output, which tcj must have written, with the baseline (base NULL:
 * gr_cublas) run on set 0's inputs into a buffer of its own. The bound is gr_bound's, plus 5e-4
 * per element (in the norm) where the baseline's GELU is the tanh form and tcj's the erf form.
 * fp8, f32 and f64 problems are compared with a float64 reference instead (gemm_ref.h: sampled
 * elements of D), fp8 by the relative Frobenius error within gr_bound, f32 and f64 (without an
 * epilogue) by the accuracy figure within gemm_ref_bound; so is the baseline's output where there
 * is one (base not GR_BASE_NONE): a baseline that is off is GR_CHECK_BLAS_ERROR, its cause in
 * note. The accuracy figures are measured wherever they apply, whatever the result.
 * note: the cause of any result but PASS. */
gr_check_result gr_check(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const gr_buffers *buf,
                         gr_figures *fig, char *note, size_t note_size);

/* The baseline alone, where tcj did not run p (it refused it as not supported): the baseline's
 * output on set 0's inputs against the float64 reference, as gr_check holds it (problems checked
 * against their baseline have nothing to compare: PASS). PASS, GR_CHECK_BLAS_ERROR (it failed,
 * or is off the reference: note says which) or GR_CHECK_ERROR. */
gr_check_result gr_check_baseline(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base,
                                  const gr_buffers *buf, char *note, size_t note_size);

/* Device-to-device copy bandwidth in GB/s (2 * bytes read and written / median time of `runs`
 * copies of `bytes`); 0 with the cause in note on failure. */
double gr_copy_gbs(const gr_gpu *g, size_t bytes, int runs, char *note, size_t note_size);

/* A fresh temporary kernel cache directory for a cold first call: created from templ
 * ("/tmp/x-XXXXXX", modified), for tcj_options.cache_dir. Returns 0, or -1 (errno set). */
int gr_fresh_cache_dir(char *templ);
void gr_remove_tree(const char *dir);

double gr_now_s(void); /* CLOCK_MONOTONIC */

#endif
