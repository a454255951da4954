/* SPDX-License-Identifier: Apache-2.0 */
/* The engine's CUDA context made current around its work on any thread (engine/engine.h).
 * Apart from engine.c so that the files that build and launch can call it without calling
 * the file that creates engines, which calls them. */
#include <cuda.h>

#include "engine/engine.h"
#include "engine/error.h"

tcj_status eng_ctx_enter(tcj_engine *e, int *pushed) {
  CUcontext cur = NULL;
  *pushed = 0;
  CUresult r = e->cu->cuCtxGetCurrent(&cur);
  if (r != CUDA_SUCCESS) return eng_cuda_error(r, "cuCtxGetCurrent");
  if (cur == e->ctx) return TCJ_SUCCESS;
  if ((r = e->cu->cuCtxPushCurrent(e->ctx)) != CUDA_SUCCESS) return eng_cuda_error(r, "cuCtxPushCurrent");
  *pushed = 1;
  return TCJ_SUCCESS;
}

void eng_ctx_leave(tcj_engine *e, int pushed) {
  CUcontext popped;
  if (pushed) e->cu->cuCtxPopCurrent(&popped);
}
