/* SPDX-License-Identifier: Apache-2.0 */
/* Status strings (from the X-macro list in tcj.h) and the per-thread last-error message. */
#include "engine/error.h"

#include <stdarg.h>
#include <stdio.h>

#include "engine/cuda_api.h"

static _Thread_local char last_error[ENG_ERROR_MAX];

const char *tcj_status_string(tcj_status s) {
  switch (s) {
#define TCJ_STATUS_CASE(name, msg) case name: return msg;
    TCJ_STATUS_LIST(TCJ_STATUS_CASE)
#undef TCJ_STATUS_CASE
  }
  return "unknown status";
}

tcj_status eng_set_error(tcj_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return status;
}

const char *eng_last_error(void) { return last_error; }

/* The message is per thread, not per engine: a thread sees its own last failure whichever
 * engine it used, which is what callers holding one engine per context expect. */
const char *tcj_last_error(const tcj_engine *engine) {
  (void)engine;
  return last_error;
}

tcj_status eng_cuda_error(CUresult r, const char *call) {
  const char *name = eng_cuda_error_name(r);
  tcj_status s = TCJ_ERROR_CUDA;
  if (r == CUDA_ERROR_OUT_OF_MEMORY) s = TCJ_ERROR_OUT_OF_MEMORY;
  else if (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_NOT_INITIALIZED || r == CUDA_ERROR_DEINITIALIZED)
    s = TCJ_ERROR_NO_DEVICE;
  return eng_set_error(s, "%s: %s", call, name);
}
