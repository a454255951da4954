/* SPDX-License-Identifier: Apache-2.0 */
// A user epilogue for tcj_gemm_ex (tcj.h, TCJ_EPILOGUE_SIGNATURE): D = acc + scale * R, the
// residual add of a transformer block. R is row-major f32, entry `batch` at batch * batch_stride.
// tests/data/warmup_epilogue.yaml names this file; tcj-warmup and tcj-ptx compile it with NVRTC.
struct residual {
  const float *r;
  long long ld, batch_stride;
  float scale;
};

extern "C" __device__ float tcj_epilogue(float v, float c, long long row, long long col, long long batch,
                                         const void *params) {
  const residual *p = (const residual *)params;
  return v + p->scale * p->r[batch * p->batch_stride + row * p->ld + col];
}
