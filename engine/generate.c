/* SPDX-License-Identifier: Apache-2.0 */
/* cfg -> PTX, with a user epilogue compiled by NVRTC and joined into the module; see generate.h. */
#include "engine/generate.h"

#include <stdio.h>
#include <stdlib.h>

#include "engine/nvrtc.h"
#include "ptxgen/ptxgen.h"
#include "ptxgen/user_epilogue.h"

/* ptxgen's reason, prefixed with the config it refused. */
static tcj_status ptxgen_failed(const tcj_kernel_cfg *cfg, char *err, size_t err_size) {
  char text[512], why[256];
  if (tcj_cfg_format(cfg, text, sizeof text) < 0) text[0] = '\0';
  snprintf(why, sizeof why, "%s", err);
  snprintf(err, err_size, "ptxgen (%s): %s", text, why);
  return TCJ_ERROR_INTERNAL;
}

tcj_status eng_generate_ptx(const tcj_kernel_cfg *cfg, const char *user_source, const char *arch, char **ptx,
                            size_t *len, char *err, size_t err_size) {
  *ptx = NULL;
  *len = 0;
  if (!cfg->user) return ptx_gen_gemm(cfg, ptx, len, err, err_size) == 0 ? TCJ_SUCCESS : ptxgen_failed(cfg, err, err_size);
  if (!user_source) {
    snprintf(err, err_size, "the kernel calls a user epilogue (user=%016llx) but its source was not given",
             (unsigned long long)cfg->user);
    return TCJ_ERROR_INVALID_VALUE;
  }
  char *user_ptx = NULL, *body = NULL;
  size_t user_len = 0, body_len = 0;
  int version = 0;
  tcj_status st = eng_nvrtc_compile_epilogue(user_source, arch, &user_ptx, &user_len, err, err_size);
  if (st != TCJ_SUCCESS) return st;
  if (ptx_user_epilogue_body(user_ptx, &version, &body, &body_len, err, err_size) != 0) {
    free(user_ptx);
    return TCJ_ERROR_COMPILE;
  }
  free(user_ptx);
  ptx_user_code code = {body, version};
  int rc = ptx_gen_gemm_user(cfg, &code, ptx, len, err, err_size);
  free(body);
  return rc == 0 ? TCJ_SUCCESS : ptxgen_failed(cfg, err, err_size);
}
