/* SPDX-License-Identifier: Apache-2.0 */
/* PTX -> cubin through the driver's cuLink* API: the fallback when nvJitLink is absent or
 * its cubin does not load. Compiles for the device of the current context. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cuda_api.h"
#include "engine/jit.h"

#define JIT_LOG_BYTES 16384

tcj_status eng_jit_compile_driver(const char *ptx, size_t len, eng_cubin *out, char *err,
                                  size_t err_size) {
  memset(out, 0, sizeof *out);
  const char *why = NULL;
  const eng_cuda_api *cu = eng_cuda_load(&why);
  if (!cu) {
    snprintf(err, err_size, "%s", why);
    return TCJ_ERROR_NO_DEVICE;
  }
  char *info = calloc(1, JIT_LOG_BYTES), *elog = calloc(1, JIT_LOG_BYTES);
  if (!info || !elog) {
    free(info);
    free(elog);
    snprintf(err, err_size, "out of host memory");
    return TCJ_ERROR_OUT_OF_MEMORY;
  }
  CUjit_option keys[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_LOG_VERBOSE};
  void *vals[] = {info, (void *)(uintptr_t)JIT_LOG_BYTES, elog, (void *)(uintptr_t)JIT_LOG_BYTES,
                  (void *)(uintptr_t)1};
  CUlinkState link = NULL;
  tcj_status st = TCJ_ERROR_COMPILE;
  CUresult r = cu->cuLinkCreate(5, keys, vals, &link);
  if (r != CUDA_SUCCESS) {
    snprintf(err, err_size, "cuLinkCreate: %s", eng_cuda_error_name(r));
    st = r == CUDA_ERROR_INVALID_CONTEXT ? TCJ_ERROR_CUDA : TCJ_ERROR_COMPILE;
    goto done;
  }
  const char *step = "cuLinkAddData";
  r = cu->cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx, len, "tcj.ptx", 0, NULL, NULL);
  void *cubin = NULL;
  size_t size = 0;
  if (r == CUDA_SUCCESS) { step = "cuLinkComplete"; r = cu->cuLinkComplete(link, &cubin, &size); }
  if (r != CUDA_SUCCESS) {
    snprintf(err, err_size, "%s: %s: %s", step, eng_cuda_error_name(r), elog[0] ? elog : "(no log)");
    goto done;
  }
  /* The cubin belongs to the link state: copy it out before cuLinkDestroy. */
  if (!(out->data = malloc(size))) {
    snprintf(err, err_size, "out of host memory for a %zu-byte cubin", size);
    st = TCJ_ERROR_OUT_OF_MEMORY;
    goto done;
  }
  memcpy(out->data, cubin, size);
  out->size = size;
  out->info_log = info;
  info = NULL;
  st = TCJ_SUCCESS;
done:
  if (link) cu->cuLinkDestroy(link);
  free(info);
  free(elog);
  return st;
}
