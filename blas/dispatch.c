/* SPDX-License-Identifier: Apache-2.0 */
/* Where one checked call runs. xGEMM: BLAS semantics are settled here, on the host, before any of
 * it: quick returns touch nothing, alpha == 0 (or k == 0) never reads A or B, beta == 0 never
 * reads C. Then: host arrays go to the CPU BLAS below the size threshold and to tcj above it;
 * device arrays go to tcj, or through host copies when tcj cannot take the call. The other
 * Level-3 routines (host arrays), after the reference's quick return: as GEMMs on tcj above the
 * threshold (l3_gemm.c; trsm never), else on the CPU BLAS. */
#include "blas/tcjblas_l3.h"

void tb_gemm_on_host(const tb_gemm *g) {
  if (tb_gemm_only_scales(g)) {
    tb_report_ran(TB_RAN_BUILT_IN);
    tb_host_scale_c(g);
  } else {
    tb_cpu_gemm(g);
  }
}

/* Host arrays on tcj: s and d as they are, c and z as one real GEMM (complex_real.c), built on
 * the device (gpu_complex.c), or on the host where the device's kernels cannot load. */
tb_gpu_result tb_gpu_gemm_of_host_arrays(const tb_gemm *g, tb_places p) {
  if (!tb_is_complex(g->type)) return tb_gpu_gemm(g, p);
  tb_gpu_result on_device = tb_gpu_complex_gemm(g, p);
  if (on_device != TB_GPU_NOT_RUN) return on_device;
  tb_real_form f;
  if (tb_complex_as_real(g, &f)) return TB_GPU_NOT_RUN; /* out of host memory: the CPU runs it */
  tb_gpu_result r = tb_gpu_gemm(&f.real, p);
  if (r == TB_GPU_DONE) tb_complex_from_real(g, &f);
  /* With a complex beta the product went to a buffer of ours: C was not touched. */
  if (r == TB_GPU_FAILED && f.complex_beta) r = TB_GPU_NOT_RUN;
  tb_real_form_free(&f);
  return r;
}

void tb_gemm_run_host(const tb_gemm *g) {
  static const tb_places host = {TB_HOST, TB_HOST, TB_HOST};
  /* TB_GPU_FAILED: C may be partly written (said on stderr); it cannot be run again from it. */
  if (tb_gemm_only_scales(g) || !tb_gemm_worth_the_gpu(g) ||
      tb_gpu_gemm_of_host_arrays(g, host) == TB_GPU_NOT_RUN)
    tb_gemm_on_host(g);
}

static atomic_int warned_stuck;

void tb_gemm_run(const tb_gemm *g) {
  if (tb_gemm_is_noop(g)) return;
  tb_places p = tb_cuda_places(g);
  if (!tb_places_any_device(p)) {
    tb_gemm_run_host(g);
    return;
  }
  tb_gpu_result r = tb_is_complex(g->type) ? tb_gpu_complex_gemm(g, p) : tb_gpu_gemm(g, p);
  if (r != TB_GPU_NOT_RUN) return;
  if (tb_cuda_run_on_host(g, p) == 0) tb_report_ran(TB_RAN_HOST_COPIES);
  else
    tb_msg_once(&warned_stuck, "a %c-type GEMM on device memory could run neither on the GPU nor "
                               "through host copies: C was left as it was",
                "sdcz"[g->type]);
}

void tb_l3_run(const tb_l3 *x) {
  if (tb_l3_is_noop(x)) return;
  /* TB_GPU_FAILED: C may be partly written (said on stderr); it cannot be run again from it. */
  if (tb_l3_on_gpu(x) == TB_GPU_NOT_RUN) tb_cpu_l3(x);
}
