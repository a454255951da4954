/* The GPU measuring core of tcj-bench and tcj-prof: tcj_gemm and cuBLAS on the same buffers
 * and stream, operand sets rotated past L2, median cudaEvent timing, and the check of tcj's
 * result against cuBLAS's (relative Frobenius error, a bound per dtype). */
#ifndef TCJ_TOOLS_GEMM_RUNNER_H
#define TCJ_TOOLS_GEMM_RUNNER_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "tcj.h"
#include "tools/gemm_problem.h"

#define GR_MAX_SETS 8 /* buffer sets rotated so that small problems do not run from L2 */
#define GR_WARMUP 3   /* untimed calls per library before timing */

typedef struct gr_gpu {
  tcj_engine *eng; /* the caller's; NULL for cuBLAS-only use */
  cublasHandle_t blas;
  cudaStream_t stream;
  size_t l2_bytes;
} gr_gpu;

/* A non-blocking stream and a cuBLAS handle on it for the current device (whose primary
 * context must be current). Returns 0, or -1 with the cause in err. */
int gr_open(gr_gpu *g, char *err, size_t err_size);
void gr_close(gr_gpu *g); /* keeps g->eng */

/* Random operands, never all zeros: uniform in [-1, 1] for float types, integers in [-8, 8]
 * for s8. */
void gr_fill_host(tcj_dtype t, void *buf, size_t n, uint64_t seed);

/* Device buffer sets of one problem: enough that one rotation exceeds 3x L2, as memory allows
 * (room is kept for a reference C). A and B of every set hold the same random data; C starts
 * as all ones bits (NaN, or -1 for s32) so that unwritten elements show. */
typedef struct gr_buffers {
  int sets;
  void *a[GR_MAX_SETS], *b[GR_MAX_SETS], *c[GR_MAX_SETS];
} gr_buffers;

/* Returns 0, or -1 with the cause in note (buf is then empty: gr_buffers_free is a no-op). */
int gr_buffers_alloc(const gr_gpu *g, const gemm_problem *p, uint64_t seed_a, uint64_t seed_b,
                     gr_buffers *buf, char *note, size_t note_size);
void gr_buffers_free(gr_buffers *buf);

/* One call on g->stream; the row-major problem maps to column-major cublasGemmEx as
 * C^T = op(B)^T op(A)^T. Compute types: 32F, 32F_FAST_TF32 for tf32, 32I for s8. */
cublasStatus_t gr_cublas(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c);
tcj_status gr_tcj(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c);

/* cuBLAS int8 layout rules vary by version: the status of an int8 NN call (64^3). Where it
 * fails, s8 problems run NT (both operands K-major, cuBLAS's column-major TN). */
cublasStatus_t gr_s8_probe_nn(const gr_gpu *g);

typedef enum gr_lib { GR_TCJ, GR_CUBLAS } gr_lib;

/* Median of `runs` event-timed calls in microseconds, rotating over the buffer sets; 0 with
 * the cause in note when a call fails. */
double gr_time(const gr_gpu *g, const gemm_problem *p, gr_lib lib, const gr_buffers *buf, int runs,
               char *note, size_t note_size);

/* The largest relative Frobenius error of tcj vs cuBLAS accepted for p's types; 0: exact. */
double gr_bound(const gemm_problem *p);

typedef enum gr_check_result {
  GR_CHECK_PASS,
  GR_CHECK_MISMATCH,   /* beyond gr_bound */
  GR_CHECK_BLAS_ERROR, /* cuBLAS refused or failed the problem */
  GR_CHECK_ERROR,      /* allocation, copy or stream failure */
} gr_check_result;

/* Compares set 0's C, which tcj must have written, with cuBLAS on set 0's A and B into a
 * reference buffer. *err: the relative Frobenius error, once computed. note: the cause of any
 * result other than PASS. */
gr_check_result gr_check(const gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, double *err,
                         char *note, size_t note_size);

/* Device-to-device copy bandwidth in GB/s (2 * bytes read and written / median time of `runs`
 * copies of `bytes`); 0 with the cause in note on failure. */
double gr_copy_gbs(const gr_gpu *g, size_t bytes, int runs, char *note, size_t note_size);

/* A fresh temporary kernel cache directory for a cold first call: created from templ
 * ("/tmp/x-XXXXXX", modified) and set as TCJ_CACHE_DIR. Returns 0, or -1 (errno set). */
int gr_fresh_cache_dir(char *templ);
void gr_remove_tree(const char *dir);

double gr_now_s(void); /* CLOCK_MONOTONIC */

#endif
