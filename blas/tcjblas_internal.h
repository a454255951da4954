/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas's private header: one GEMM call as the modules pass it around (always column-major,
 * 64-bit sizes, after the ABI layer has mapped CBLAS row-major onto it), and each module's entry. */
#ifndef TCJBLAS_INTERNAL_H
#define TCJBLAS_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Built with -fvisibility=hidden: only the BLAS and CBLAS entry points, the xerbla handlers and
 * Netlib CBLAS's RowMajorStrg carry this. */
#define TB_EXPORT __attribute__((visibility("default")))

typedef enum tb_type { TB_S, TB_D, TB_C, TB_Z } tb_type;

static inline int tb_is_complex(tb_type t) { return t == TB_C || t == TB_Z; }
static inline size_t tb_elem_size(tb_type t) { return t == TB_S ? 4 : t == TB_Z ? 16 : 8; }

/* One xGEMM: C = alpha op(A) op(B) + beta C, column-major, as Netlib's sgemm.f reads it.
 * Scalars point to one element of the type (complex: real then imaginary part). */
typedef struct tb_gemm {
  tb_type type;
  char ta, tb; /* as given; tb_gemm_check turns valid ones into 'N', 'T' or 'C' */
  int64_t m, n, k;
  const void *alpha;
  const void *a;
  int64_t lda;
  const void *b;
  int64_t ldb;
  const void *beta;
  void *c;
  int64_t ldc;
  int ilp64; /* entered through a 64-bit-integer entry point (_64_ / _64) */
} tb_gemm;

/* check.c: Netlib's argument checks, in sgemm.f's order. 0, or the INFO that XERBLA gets. */
int tb_gemm_check(tb_gemm *g);
int tb_alpha_is_zero(const tb_gemm *g);
int tb_beta_is_zero(const tb_gemm *g);
int tb_beta_is_one(const tb_gemm *g);
/* m or n is 0, or (alpha is 0 or k is 0) and beta is 1: nothing is read or written. */
int tb_gemm_is_noop(const tb_gemm *g);
/* alpha is 0 or k is 0: C = beta C, A and B not referenced. */
int tb_gemm_only_scales(const tb_gemm *g);

/* xerbla.c: report an illegal argument the way Netlib does. */
void tb_xerbla(const char *srname, int info);                           /* through xerbla_ */
void tb_cblas_xerbla(int info, int row_major, const char *rout, const char *form, int value);

/* host_gemm.c: the built-in kernels. */
void tb_host_scale_c(const tb_gemm *g);  /* C = beta C (beta 0: C = 0, C not read) */
void tb_ref_gemm(const tb_gemm *g);      /* a plain, correct xGEMM; beta 0 does not read C */

/* cpu_blas.c: the CPU BLAS found at run time, or tb_ref_gemm. */
void tb_cpu_gemm(const tb_gemm *g);

/* config.c */
typedef struct tb_config {
  char cpu_blas[4096];  /* path of the CPU BLAS to dlopen; "" to look for one (RTLD_NEXT) */
  double gpu_threshold; /* 2 m n k at and above which host arrays go to the GPU */
  double gpu_min_intensity; /* ... if they also do this many flops per byte sent over the bus */
  int gpu_device;       /* CUDA device ordinal whose primary context tcjblas uses */
  int report;           /* nonzero: say where the calls ran at exit (report.c) */
  double pinned_mb;     /* pinned staging for host arrays, MiB (pipeline.c); 0: whole pageable copies */
  int copy_threads;     /* threads that stage one copy (host_copy.c) */
} tb_config;
/* Measured on an H100 host (16 CPUs, OpenBLAS 0.3, PCIe 5) with tools/tcjblas_threshold.py: with
 * both rules, no call of s, d, c or z from 32 to 2048 went to a slower GPU (docs/perf.md). */
#define TB_DEFAULT_GPU_THRESHOLD 1e8
#define TB_DEFAULT_GPU_MIN_INTENSITY 16.0
/* Eight 16 MiB buffers: four calls' worth of copies in flight each way (pipeline.c). */
#define TB_DEFAULT_PINNED_MB 128
/* Defaults, then the file ($TCJBLAS_CONFIG, else ./tcjblas.conf when it exists), then the
 * environment. Problems are reported on `msgs` (naming file and line) and the line ignored. */
void tb_config_load(tb_config *cfg, FILE *msgs);
const tb_config *tb_config_get(void); /* loaded once per process, messages on stderr */

/* log.c: "tcjblas: ..." on stderr; the _once form prints only the first time `flag` is seen. */
void tb_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tb_msg_once(atomic_int *flag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cuda.c: the CUDA driver (dlopen), where the operands live, copies. */
typedef enum tb_where { TB_HOST = 0, TB_DEVICE = 1, TB_OTHER_DEVICE = 2 } tb_where;
typedef struct tb_places {
  tb_where a, b, c; /* A and B are TB_HOST when not referenced (tb_gemm_only_scales) */
} tb_places;
/* Where the operands live; all TB_HOST when there is no driver or no device. */
tb_places tb_cuda_places(const tb_gemm *g);
static inline int tb_places_any_device(tb_places p) { return p.a || p.b || p.c; }
/* Runs g through host copies when some operand lives on a device tcj cannot read it on (or a
 * complex type, whose real form is built on the host): those are copied to host buffers, run
 * as host arrays (tb_gemm_run_host: tcj again above the threshold), and C is copied back.
 * 0 on success. */
int tb_cuda_run_on_host(const tb_gemm *g, tb_places p);

/* gpu.c: the tcj path for s and d. */
typedef enum tb_gpu_result {
  TB_GPU_DONE = 0,
  TB_GPU_NOT_RUN = 1, /* nothing was written: the caller runs the call another way */
  TB_GPU_FAILED = 2,  /* failed after C (in device memory) may have been written; reported */
} tb_gpu_result;
tb_gpu_result tb_gpu_gemm(const tb_gemm *g, tb_places p);
/* gpu_complex.c: c and z as one real GEMM whose operands the device builds (host or device
 * arrays); TB_GPU_NOT_RUN where its kernels cannot load, nothing written. */
tb_gpu_result tb_gpu_complex_gemm(const tb_gemm *g, tb_places p);

/* gpu.c: tcj's compile counters, for the report (-1 where the GPU path never started). */
typedef struct tb_gpu_compiles {
  uint64_t caller, background, disk_hits;
  double ms; /* generating, compiling and loading, all threads */
} tb_gpu_compiles;
int tb_gpu_compile_counts(tb_gpu_compiles *out);

/* report.c: where each call ran, counted always and said at exit when `report` is set. */
typedef enum tb_ran {
  TB_RAN_GPU,          /* tcj computed it */
  TB_RAN_CPU_BLAS,     /* the CPU BLAS found at run time */
  TB_RAN_BUILT_IN,     /* libtcjblas's own host code: the reference (no CPU BLAS, or it lacks
                          the routine) or C = beta C */
  TB_RAN_HOST_COPIES,  /* calls on device arrays run through host copies (counted again where
                          they ran) */
  TB_RAN_STAGED,       /* GPU calls whose host arrays went through pipeline.c (counted in
                          TB_RAN_GPU too) */
  TB_RAN_KINDS
} tb_ran;
void tb_report_ran(tb_ran where);
uint64_t tb_report_count(tb_ran where);
void tb_report_line(char *out, size_t size); /* the line said at exit, without "tcjblas: " */

/* complex_real.c: a cgemm or zgemm (host arrays, alpha != 0, k > 0) as one real sgemm or dgemm
 * of 2m x n x 2k over host buffers, for tcj's real kernels. */
typedef struct tb_real_form {
  tb_gemm real;        /* the real GEMM to run (its alpha and beta point into scalars) */
  union { float s[2]; double d[2]; } scalars; /* alpha 1 and the real GEMM's beta */
  void *owned[3];      /* Ahat; op(B) packed (op(B) != N); P when beta is not real */
  int complex_beta;    /* beta has an imaginary part: C = P + beta C after the product */
} tb_real_form;
int tb_complex_as_real(const tb_gemm *g, tb_real_form *f); /* 0, or -1 out of memory (freed) */
void tb_complex_from_real(const tb_gemm *g, const tb_real_form *f); /* after the real GEMM ran */
void tb_real_form_free(tb_real_form *f);

/* complex_ptx.c: the complex kernels' PTX module text into out (size bytes, NUL-terminated when
 * it fits); returns its length, as snprintf. */
size_t tb_complex_kernels_ptx(char *out, size_t size);

/* stage_plan.c: how pipeline.c cuts a host-array GEMM (arithmetic only). */
typedef struct tb_block {
  int64_t row, col, rows, cols; /* a block of a column-major matrix */
} tb_block;
/* The chunks that carry block b through staging buffers of slot_elems elements: whole columns
 * when one fits, else pieces of one column; in column order. */
int64_t tb_chunk_count(tb_block b, int64_t slot_elems);
tb_block tb_chunk(tb_block b, int64_t slot_elems, int64_t i);
/* The block of X that the block of op(X) given is (op 'N': the same; 'T' or 'C': transposed). */
tb_block tb_stored_block(char op, tb_block of_op);
typedef struct tb_pipeline_plan {
  int along_m;   /* tiles are row blocks of C (op(A) split, op(B) whole) or column blocks */
  int64_t tile;  /* rows or columns of C per tile (the last may have fewer) */
  int64_t tiles;
} tb_pipeline_plan;
tb_pipeline_plan tb_pipeline_plan_of(const tb_gemm *g, tb_places p);
tb_block tb_tile_of_c(const tb_gemm *g, tb_pipeline_plan plan, int64_t t);

/* host_copy.c: a rows x cols column-major copy between host matrices (lds in elements of es
 * bytes) on up to `threads` threads. */
void tb_host_copy(void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows, int64_t cols,
                  size_t es, int threads);
int tb_copy_threads_default(void); /* half the online CPUs, 1 to 8 */

/* dispatch.c: quick returns, BLAS semantics, CPU or GPU. g has passed tb_gemm_check. */
void tb_gemm_run(const tb_gemm *g);
void tb_gemm_on_host(const tb_gemm *g);  /* every operand in host memory: the CPU */
void tb_gemm_run_host(const tb_gemm *g); /* every operand in host memory: tcj above the
                                            threshold, else the CPU */
/* Whether g's flops (2mnk; 8mnk complex) reach gpu_threshold and gpu_min_intensity times the
 * bytes its host arrays send over the bus. */
int tb_gemm_worth_the_gpu(const tb_gemm *g);
/* Host arrays on tcj (c and z as one real GEMM); TB_GPU_NOT_RUN leaves C untouched. */
tb_gpu_result tb_gpu_gemm_of_host_arrays(const tb_gemm *g, tb_places p);

#endif /* TCJBLAS_INTERNAL_H */
