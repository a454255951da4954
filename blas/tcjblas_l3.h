/* SPDX-License-Identifier: Apache-2.0 */
/* The Level-3 routines beside GEMM (syrk herk syr2k her2k symm hemm trmm trsm): the lists the
 * entries, the CPU BLAS lookup and the tests' stand-in CPU BLAS are generated from, one call as
 * the modules pass it around (column-major, 64-bit sizes), and each module's entry. */
#ifndef TCJBLAS_L3_H
#define TCJBLAS_L3_H

#include "blas/tcjblas_internal.h"

/* The four argument lists, as the Fortran routines take them:
 *   RK   uplo, trans, n, k, alpha, A, lda, beta, C, ldc            syrk  herk
 *   R2K  uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc    syr2k her2k
 *   MM   side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc     symm  hemm
 *   TR   side, uplo, transa, diag, m, n, alpha, A, lda, B, ldb     trmm  trsm */
typedef enum tb_shape { TB_RK, TB_R2K, TB_MM, TB_TR } tb_shape;

/* X(name, NAME, SHAPE, complex only) */
#define TB_L3_OPS(X)           \
  X(syrk, SYRK, RK, 0)         \
  X(herk, HERK, RK, 1)         \
  X(syr2k, SYR2K, R2K, 0)      \
  X(her2k, HER2K, R2K, 1)      \
  X(symm, SYMM, MM, 0)         \
  X(hemm, HEMM, MM, 1)         \
  X(trmm, TRMM, TR, 0)         \
  X(trsm, TRSM, TR, 0)

typedef enum tb_l3_op {
#define TB_L3_ENUM(name, NAME, SHAPE, CPLX) TB_##NAME,
  TB_L3_OPS(TB_L3_ENUM)
#undef TB_L3_ENUM
  TB_L3_COUNT
} tb_l3_op;

/* Every entry: X(t, TYPE, name, NAME, SHAPE, T, SA, SB). T is the element as prototypes spell
 * it (void for complex), SA and SB what alpha and beta point to: herk's both and her2k's beta
 * are real. TR has no beta (SB unused). */
#define TB_L3_SDCZ(X, name, NAME, SHAPE)                 \
  X(s, TB_S, name, NAME, SHAPE, float, float, float)     \
  X(d, TB_D, name, NAME, SHAPE, double, double, double)  \
  X(c, TB_C, name, NAME, SHAPE, void, void, void)        \
  X(z, TB_Z, name, NAME, SHAPE, void, void, void)
#define TB_L3_ENTRIES(X)                                 \
  TB_L3_SDCZ(X, syrk, SYRK, RK)                          \
  X(c, TB_C, herk, HERK, RK, void, float, float)         \
  X(z, TB_Z, herk, HERK, RK, void, double, double)       \
  TB_L3_SDCZ(X, syr2k, SYR2K, R2K)                       \
  X(c, TB_C, her2k, HER2K, R2K, void, void, float)       \
  X(z, TB_Z, her2k, HER2K, R2K, void, void, double)      \
  TB_L3_SDCZ(X, symm, SYMM, MM)                          \
  X(c, TB_C, hemm, HEMM, MM, void, void, void)           \
  X(z, TB_Z, hemm, HEMM, MM, void, void, void)           \
  TB_L3_SDCZ(X, trmm, TRMM, TR)                          \
  TB_L3_SDCZ(X, trsm, TRSM, TR)

static inline tb_shape tb_l3_shape(tb_l3_op op) {
  static const tb_shape shapes[] = {
#define TB_L3_SHAPE(name, NAME, SHAPE, CPLX) [TB_##NAME] = TB_##SHAPE,
    TB_L3_OPS(TB_L3_SHAPE)
#undef TB_L3_SHAPE
  };
  return shapes[op];
}

/* herk, her2k, hemm: conjugate transposes, real diagonals. */
static inline int tb_l3_hermitian(tb_l3_op op) {
  return op == TB_HERK || op == TB_HER2K || op == TB_HEMM;
}

/* One call, column-major, as the Fortran routine reads it. Fields a routine does not have are
 * 0 or NULL. The matrix written is always c: C, or trmm's and trsm's B. */
typedef struct tb_l3 {
  tb_l3_op op;
  tb_type type;
  char side, uplo, trans, diag; /* as given; tb_l3_check turns valid ones into upper case */
  int64_t m, n, k;              /* RK and R2K: n, k; MM and TR: m, n */
  const void *alpha, *beta;     /* one element (herk's both and her2k's beta: a real) */
  const void *a;
  int64_t lda;
  const void *b; /* R2K and MM */
  int64_t ldb;
  void *c;
  int64_t ldc;
  int ilp64; /* entered through a 64-bit-integer entry point (_64_ / _64) */
} tb_l3;

/* l3_checks.c */
extern const char *const tb_l3_names[TB_L3_COUNT]; /* "syrk", ... */
/* Netlib's routine name for XERBLA: six characters, blank-padded ("DSYRK ", "ZHER2K"). */
void tb_l3_srname(const tb_l3 *x, char out[7]);
/* Netlib's argument checks in the Fortran routine's order. 0, or the INFO that XERBLA gets. */
int tb_l3_check(tb_l3 *x);
/* The reference's quick return: nothing is read or written. x has passed tb_l3_check. */
int tb_l3_is_noop(const tb_l3 *x);
/* alpha (beta) is zero (one), compared as Fortran does, in its own type (real or complex). */
int tb_l3_alpha_is_zero(const tb_l3 *x);
int tb_l3_beta_is(const tb_l3 *x, double v);

/* l3_reference.c: the built-in reference, the Netlib loops in C. */
void tb_ref_l3(const tb_l3 *x);

/* l3_cpu.c: the CPU BLAS found at run time (cpu_blas.c), or tb_ref_l3. */
void tb_cpu_l3(const tb_l3 *x);

/* l3_gemm.c: the routine as GEMMs on tcj (all but trsm), where the GEMM is worth the GPU.
 * TB_GPU_NOT_RUN: nothing was written, the CPU runs it. Host arrays only. */
tb_gpu_result tb_l3_on_gpu(const tb_l3 *x);

/* dispatch.c: quick return, else the GPU where it pays, else the CPU. x has passed tb_l3_check. */
void tb_l3_run(const tb_l3 *x);

/* cpu_blas.c: one routine of the CPU BLAS, by index: TB_CPU_GEMM or TB_CPU_L3(op). */
#define TB_CPU_GEMM 0
#define TB_CPU_L3(op) (1 + (int)(op))
#define TB_CPU_ROUTINES (1 + TB_L3_COUNT)
typedef void (*tb_fn)(void);
/* The symbol a call goes to: with a 64-bit entry (want64) the library's _64_ symbol when it has
 * one, else its 32-bit symbol when the sizes fit an int (fits_int), else its _64_ one; *ilp64
 * says which. NULL: none can take it, the built-in reference runs it (said once on stderr). */
tb_fn tb_cpu_fn(int routine, tb_type type, int want64, int fits_int, int *ilp64);
/* A call handed to the CPU BLAS, bracketed by tb_cpu_begin and tb_cpu_end, which count it in
 * the report. tb_cpu_begin is tb_cpu_fn, except that it gives NULL (the caller runs the built-in
 * reference, counted as such) when this very call is already in flight in the CPU BLAS on this
 * thread, i.e. the CPU BLAS handed it back to us, and for every call after that. */
typedef struct tb_cpu_call {
  int routine;
  tb_type type;
  int64_t m, n, k;
  const void *a, *b, *c;
  int came_back;             /* the CPU BLAS handed it back to us: the reference ran it */
  struct tb_cpu_call *outer; /* the call in flight on this thread before it */
} tb_cpu_call;
tb_fn tb_cpu_begin(tb_cpu_call *call, int want64, int fits_int, int *ilp64);
void tb_cpu_end(tb_cpu_call *call);

#endif /* TCJBLAS_L3_H */
