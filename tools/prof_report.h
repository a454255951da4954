/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-prof's results and how they are written: the roofline floor of a problem, the aligned
 * table with per-dtype geometric means and both libraries' accuracy, CSV and JSON. Pure C, no
 * CUDA: unit-tested on the CPU. */
#ifndef TCJ_TOOLS_PROF_REPORT_H
#define TCJ_TOOLS_PROF_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tcj.h"

/* What every output names: the device and the run. */
typedef struct prof_device {
  char name[128];        /* "NVIDIA H200" */
  char driver[32];       /* "580.159.04" or the driver API version */
  char cuda[32];         /* runtime / cuBLAS versions */
  int sm_count;
  int sm_clock_mhz, mem_clock_mhz; /* current clocks at the start of the run */
  char date[40];         /* ISO 8601 UTC */
  char command[512];     /* the command line that produced it */
  double bandwidth_gbs;  /* measured (large device-to-device copy) or given */
  /* Peak TFLOP/s per operand dtype (index: tcj_dtype), measured (best large cuBLAS GEMM) or
   * given; 0 when unknown. */
  double peak_tflops[TCJ_F64 + 1];
} prof_device;

typedef enum prof_status {
  PROF_OK,          /* timed, and tcj matched cuBLAS */
  PROF_MISMATCH,    /* tcj's result differs from cuBLAS beyond the dtype's bound: a failure */
  PROF_TCJ_ERROR,   /* tcj_gemm failed */
  PROF_UNSUPPORTED, /* no tcj kernel for this problem (e.g. fp8 on the sm80 recipe) */
  PROF_BLAS_ERROR,  /* cuBLAS could not run it; tcj timed alone */
  PROF_NO_BASELINE, /* cuBLAS has no such GEMM (fp8 in a layout cuBLASLt does not take); tcj checked against
                       a reference and timed alone: not a failure */
} prof_status;

typedef struct prof_row {
  char name[64];
  tcj_dtype ab, c;
  tcj_op op_a, op_b;
  int64_t m, n, k;
  prof_status status;
  int baseline_off;           /* tcj refused the row and its baseline failed or is off the reference: a failure */
  double tcj_us, blas_us;     /* medians; 0 when not timed */
  double floor_us;            /* prof_floor_us */
  double cold_ms;             /* first call with an empty cache (--cold), else 0 */
  double rel_err;             /* tcj vs cuBLAS (fp8, f32, f64: vs the float64 reference), relative Frobenius */
  /* Accuracy: max |got - ref| / (|A||B|)_ij over sampled elements of D against a float64
   * reference, of tcj and of the baseline; negative or NaN where not measured (integer types,
   * epilogues, a library that did not run). Written "-", an empty CSV field, JSON null. */
  double err_tcj, err_blas;
  int runs;                   /* timed runs per library */
  char cfg[320];              /* the kernel config tcj selected */
  char note[256];             /* why a row is not OK */
  /* tcj_gemm_ex (all zero: a plain tcj_gemm, C written, one GEMM). */
  int has_d;                  /* D apart from C, of type d; C not read */
  tcj_dtype d;
  tcj_bias_kind bias;         /* a bias vector (of D's type; f32 for s32, C's for fp8) */
  tcj_activation act;
  int user;                   /* a user epilogue */
  int64_t batch;              /* entries; 0 or 1: one GEMM */
  int broadcast_b;            /* one B (and one bias) for every entry */
  char baseline[48];          /* what the cuBLAS side ran ("cublasGemmEx", "cublasLt+gelu_bias", ...) */
  int fast_accum;             /* fp8: tcj's fast_accum 1 against cuBLASLt's FAST_ACCUM (name ends "+fastacc") */
  /* Grouped GEMMs (group_mode not TCJ_GROUP_NONE): G groups, group_nonempty of them with rows,
   * group_rows the rows computed in all (the flops and bytes count those, and the weights of the
   * non-empty groups only); group_loop: the baseline is a cublasGemmEx per non-empty group (name
   * ends "+loop"), else cublasGemmGroupedBatchedEx. Averaged apart ("grouped", "grouped loop"). */
  tcj_group_mode group_mode;
  int64_t groups, group_nonempty, group_rows;
  int group_loop;
} prof_row;

/* The output's type (D's when apart from C), the entries, and whether the row is "fused": an
 * epilogue or a batch, measured against its own baseline and averaged apart from plain GEMMs. */
tcj_dtype prof_out_dtype(const prof_row *r);
int64_t prof_batch(const prof_row *r);
int prof_fused(const prof_row *r);
/* The epilogue as the manifest names it: "none", "bias", "bias_gelu", ..., "+user" after a user
 * epilogue ("user" alone); and the batch: "1", "64", "8/bcast_b" (B broadcast). */
void prof_epilogue_label(const prof_row *r, char *out, size_t size);
void prof_batch_label(const prof_row *r, char *out, size_t size); /* grouped: "G32/contig", "G32/masked" */

/* Derived figures of a row (0 when the times are missing). */
double prof_flops(const prof_row *r); /* 2mnk per entry (SwiGLU: 2n columns of op(B); K groups: the routed K) */
double prof_tflops(const prof_row *r, double us);
double prof_ratio(const prof_row *r);    /* cuBLAS time / tcj time: > 1 means tcj is faster */
double prof_pct_floor(const prof_row *r, double us); /* 100 * floor / time */

/* The problem's floor: max(2mnk / peak, bytes / bandwidth), bytes = A + B + C read + D written
 * + bias read, over every entry of a batch (a broadcast B and bias once) (C read only when
 * beta != 0; tcj-prof runs beta = 0). Grouped rows: 2 group_rows n k, and the bytes of the rows
 * computed (A read, D written) with the weights and biases of the non-empty groups. */
double prof_bytes(const prof_row *r);
double prof_floor_us(const prof_row *r, double peak_tflops, double bandwidth_gbs);

/* Geometric mean of prof_ratio over the OK plain rows (not prof_fused) of operand type ab; 0
 * when there are none. The _fused one: over the OK fused rows. Rows with fast_accum are
 * averaged apart from both (a faster, less accurate mode against cuBLASLt's own): _group with
 * fast_accum 1 gives theirs; with fast_accum 0 it is one of the first two. */
double prof_geomean_ratio(const prof_row *rows, int n, tcj_dtype ab, int *count);
double prof_geomean_ratio_fused(const prof_row *rows, int n, tcj_dtype ab, int *count);
double prof_geomean_ratio_group(const prof_row *rows, int n, tcj_dtype ab, int fused, int fast_accum, int *count);
/* Over the OK grouped rows of ab: against cublasGemmGroupedBatchedEx (loop 0) or the loop (1). */
double prof_geomean_ratio_grouped(const prof_row *rows, int n, tcj_dtype ab, int loop, int *count);

/* Outputs. Each starts with the device and run facts. Return 0, or -1 on a write error. */
int prof_print_table(FILE *f, const prof_device *d, const prof_row *rows, int n);
int prof_write_csv(FILE *f, const prof_device *d, const prof_row *rows, int n);
int prof_write_json(FILE *f, const prof_device *d, const prof_row *rows, int n);

/* len bytes of str as a JSON string, quoted and escaped (invalid UTF-8 as U+FFFD). */
void prof_json_str(FILE *f, const char *str, size_t len);

/* Whether an accuracy figure (err_tcj, err_blas) was measured. */
int prof_has_err(double err);

const char *prof_status_name(prof_status s);

#endif
