/* SPDX-License-Identifier: Apache-2.0 */
/* The recipe table (recipe.h) and the config facts that differ by recipe, read from the row:
 * checks, threads, shared memory, promotion, 3xTF32 parts. */
#include "recipe.h"

#include <string.h>

#include "ptxgen.h"

static const ptx_recipe_row *const table[PTX_RECIPE_COUNT] = {
#define PTX_RECIPE_ROW(id, name, row) [id] = &row,
  PTX_RECIPE_LIST(PTX_RECIPE_ROW)
#undef PTX_RECIPE_ROW
};

const ptx_recipe_row *ptx_recipe_at(int id) { return (unsigned)id < PTX_RECIPE_COUNT ? table[id] : NULL; }

const ptx_recipe_row *ptx_recipe_of(const tcj_kernel_cfg *cfg) { return ptx_recipe_at(cfg->recipe); }

const ptx_recipe_row *ptx_recipe_named(const char *name) {
  for (int i = 0; i < PTX_RECIPE_COUNT; i++)
    if (strcmp(table[i]->name, name) == 0) return table[i];
  return NULL;
}

int ptx_recipe_index(const ptx_recipe_row *row) {
  for (int i = 0; i < PTX_RECIPE_COUNT; i++)
    if (table[i] == row) return i;
  return -1;
}

/* The generic and grouped rules first (what a kernel bakes from n and k, what a grouped one
 * cannot have), then the recipe's own (operand types, tiles), then the epilogue's. */
const char *tcj_cfg_check(const tcj_kernel_cfg *c) {
  const char *why = tcj_cfg_check_generic(c);
  if (!why) why = tcj_cfg_check_grouped(c);
  if (why) return why;
  const ptx_recipe_row *r = ptx_recipe_of(c);
  if (!r) return "unknown recipe";
  if ((why = r->check(c)) != NULL) return why;
  return tcj_cfg_check_epilogue(c, r->promotion);
}

int tcj_cfg_threads(const tcj_kernel_cfg *c) { return ptx_recipe_of(c)->threads(c); }

int tcj_cfg_smem_bytes(const tcj_kernel_cfg *c) { return ptx_recipe_of(c)->smem_bytes(c); }

int tcj_cfg_needs_whole_program(const tcj_kernel_cfg *c) {
  const ptx_recipe_row *r = ptx_recipe_of(c);
  return r && r->needs_whole_program && r->needs_whole_program(c);
}

int tcj_cfg_rebalances_registers(const tcj_kernel_cfg *c) {
  const ptx_recipe_row *r = ptx_recipe_of(c);
  return r && r->rebalances_registers;
}

int tcj_cfg_promotes(const tcj_kernel_cfg *c) { return ptx_recipe_of(c)->promotion && tcj_cfg_promotion_wanted(c); }

int ptx_split_parts(const tcj_kernel_cfg *cfg) { return ptx_recipe_of(cfg)->split_parts; }

const char *ptx_gemm_entry(const tcj_kernel_cfg *cfg) { return ptx_recipe_of(cfg)->entry; }
