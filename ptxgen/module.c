/* SPDX-License-Identifier: Apache-2.0 */
/* ptx_gen_gemm: checks the config, then writes its module: the header, the GEMM entry of its
 * recipe (recipe.h) and the recipe's extra entries the config needs. It sits above every recipe
 * file, which read ptxgen.h (the kernels' ABI), so it is not ptxgen.c. */
#include "ptxgen.h"

#include <stdio.h>

#include "epilogue.h"
#include "recipe.h"
#include "recipes.h"

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
  const ptx_recipe_row *r = ptx_recipe_of(cfg);
  ptx_builder b;
  ptx_init(&b);
  int isa_x10 = ptx_elem_is_fp8(cfg->ab) ? r->fp8_isa_x10 : 0;
  if (r->isa_x10 && r->isa_x10(cfg) > isa_x10) isa_x10 = r->isa_x10(cfg);
  if (ptx_epi_isa_x10(cfg) > isa_x10) isa_x10 = ptx_epi_isa_x10(cfg);
  ptx_epi_module_prelude(&b, cfg, user, isa_x10);
  if (r->gen(&b, cfg, err, err_size) != 0) {
    ptx_free(&b);
    return -1;
  }
  for (const ptx_extra_entry *const *x = r->extras; *x; x++) {
    if (ptx_failed(&b) || !(*x)->present(cfg)) continue;
    ptx_text(&b, "\n");
    (*x)->emit(&b, cfg);
    ptx_finish(&b);
  }
  return ptx_take(&b, ptx, len, err, err_size);
}
