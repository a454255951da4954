/* SPDX-License-Identifier: Apache-2.0 */
/* ptx_gen_gemm: checks the config, then hands it to its recipe. */
#include "ptxgen.h"

#include <stdio.h>

#include "recipes.h"

const char *ptx_gemm_entry(const tcj_kernel_cfg *cfg) {
  return cfg->recipe == PTX_RECIPE_SM90 ? PTX_SM90_ENTRY : PTX_GEMM_ENTRY;
}

int ptx_gen_gemm(const tcj_kernel_cfg *cfg, char **ptx, size_t *len, char *err, size_t err_size) {
  return ptx_gen_gemm_user(cfg, NULL, ptx, len, err, err_size);
}

int ptx_gen_gemm_user(const tcj_kernel_cfg *cfg, const ptx_user_code *user, char **ptx, size_t *len, char *err,
                      size_t err_size) {
  const char *why = tcj_cfg_check(cfg);
  if (why) {
    snprintf(err, err_size, "invalid kernel config: %s", why);
    return -1;
  }
  if (user && !cfg->user) {
    snprintf(err, err_size, "user epilogue code for a config without one");
    return -1;
  }
  /* A split's slice count is a launch value: every count gets the same kernel. */
  const tcj_kernel_cfg kernel = tcj_cfg_kernel_form(cfg);
  cfg = &kernel;
  if (cfg->recipe == PTX_RECIPE_SM90) return ptx_gen_gemm_sm90(cfg, user, ptx, len, err, err_size);
  if (cfg->recipe == PTX_RECIPE_DMMA) return ptx_gen_gemm_dmma(cfg, ptx, len, err, err_size);
  return ptx_gen_gemm_sm80(cfg, user, ptx, len, err, err_size);
}
