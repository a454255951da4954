/* SPDX-License-Identifier: Apache-2.0 */
/* The built-in reference of the Level-3 routines beside GEMM, the last resort when no CPU BLAS
 * is found: l3_reference_loops.h's loops, once per element type. Complex elements are C99
 * complex types, whose layout is the (real, imaginary) pair the BLAS ABI passes. Correct and
 * plain, not fast. */
#include <complex.h>

#include "blas/tcjblas_l3.h"

#define TB_REF_CAT(a, b) a##b

#define TB_REF_T float
#define TB_REF_R float
#define TB_REF_FN(name) TB_REF_CAT(s_, name)
#define TB_REF_CONJ(x) (x)
#define TB_REF_RE(x) (x)
#include "blas/l3_reference_loops.h"

#define TB_REF_T double
#define TB_REF_R double
#define TB_REF_FN(name) TB_REF_CAT(d_, name)
#define TB_REF_CONJ(x) (x)
#define TB_REF_RE(x) (x)
#include "blas/l3_reference_loops.h"

#define TB_REF_T float _Complex
#define TB_REF_R float
#define TB_REF_FN(name) TB_REF_CAT(c_, name)
#define TB_REF_CONJ(x) conjf(x)
#define TB_REF_RE(x) crealf(x)
#include "blas/l3_reference_loops.h"

#define TB_REF_T double _Complex
#define TB_REF_R double
#define TB_REF_FN(name) TB_REF_CAT(z_, name)
#define TB_REF_CONJ(x) conj(x)
#define TB_REF_RE(x) creal(x)
#include "blas/l3_reference_loops.h"

void tb_ref_l3(const tb_l3 *x) {
  if (tb_l3_is_noop(x)) return; /* as the reference returns, when called without dispatch.c */
  switch (x->type) {
  case TB_S: s_routines[x->op](x); break;
  case TB_D: d_routines[x->op](x); break;
  case TB_C: c_routines[x->op](x); break;
  case TB_Z: z_routines[x->op](x); break;
  }
}
