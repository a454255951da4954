/* SPDX-License-Identifier: Apache-2.0 */
/* symm, hemm, syrk, herk, syr2k, her2k and trmm on tcj: each is one GEMM (two for the rank-2k
 * updates) on host-built operands, where the GEMM is worth the GPU (gpu_threshold on its flops):
 *   symm, hemm:   the full matrix A's triangle stands for, times B, into C with beta;
 *   trmm:         A's triangle with zeros elsewhere (unit diagonal for diag 'U') times B, into B;
 *   syrk ... her2k: the full product into a buffer, then C's triangle = P + beta C on the host.
 * syrk and her2k do twice the flops of the triangle they need: on tensor cores that still beats
 * the CPU, and the threshold counts the flops actually run. trsm stays on the CPU: a solve is
 * no GEMM, and its blocked form would move B across the bus once per block. */
#include <complex.h>
#include <stdlib.h>

#include "blas/tcjblas_l3.h"

#define TB_REF_CAT(a, b) a##b

/* These entries take host arrays only (they do not look for device memory). */
static const tb_places all_host = {TB_HOST, TB_HOST, TB_HOST};

#define TB_REF_T float
#define TB_REF_R float
#define TB_REF_FN(name) TB_REF_CAT(s_gemm_, name)
#define TB_REF_CONJ(x) (x)
#define TB_REF_RE(x) (x)
#include "blas/l3_gemm_forms.h"

#define TB_REF_T double
#define TB_REF_R double
#define TB_REF_FN(name) TB_REF_CAT(d_gemm_, name)
#define TB_REF_CONJ(x) (x)
#define TB_REF_RE(x) (x)
#include "blas/l3_gemm_forms.h"

#define TB_REF_T float _Complex
#define TB_REF_R float
#define TB_REF_FN(name) TB_REF_CAT(c_gemm_, name)
#define TB_REF_CONJ(x) conjf(x)
#define TB_REF_RE(x) crealf(x)
#include "blas/l3_gemm_forms.h"

#define TB_REF_T double _Complex
#define TB_REF_R double
#define TB_REF_FN(name) TB_REF_CAT(z_gemm_, name)
#define TB_REF_CONJ(x) conj(x)
#define TB_REF_RE(x) creal(x)
#include "blas/l3_gemm_forms.h"

tb_gpu_result tb_l3_on_gpu(const tb_l3 *x) {
  /* alpha 0 is a scaling of C (or B = 0): the CPU's, with the reference's rules. */
  if (x->op == TB_TRSM || tb_l3_alpha_is_zero(x)) return TB_GPU_NOT_RUN;
  switch (x->type) {
  case TB_S: return s_gemm_run(x);
  case TB_D: return d_gemm_run(x);
  case TB_C: return c_gemm_run(x);
  case TB_Z: return z_gemm_run(x);
  }
  return TB_GPU_NOT_RUN;
}
