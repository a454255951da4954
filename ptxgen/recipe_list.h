/* SPDX-License-Identifier: Apache-2.0 */
/* The recipes' names and indexes, with nothing else, so that the config text (kernel_cfg.c)
 * can spell them without the rows, which sit above it (recipe.h holds the rows). */
#ifndef TCJ_PTX_RECIPE_LIST_H
#define TCJ_PTX_RECIPE_LIST_H

#include <string.h>

/* The rows in table order: id, spelling in configs and TCJ_RECIPE, row. tcj_kernel_cfg.recipe
 * is the index; the config's text names the row, so the order may change. */
#define PTX_RECIPE_LIST(X)                    \
  X(PTX_RECIPE_SM80, "sm80", ptx_recipe_sm80) \
  X(PTX_RECIPE_SM90, "sm90", ptx_recipe_sm90) \
  X(PTX_RECIPE_DMMA, "dmma", ptx_recipe_dmma)

typedef enum ptx_recipe {
#define PTX_RECIPE_ENUM(id, name, row) id,
  PTX_RECIPE_LIST(PTX_RECIPE_ENUM)
#undef PTX_RECIPE_ENUM
  PTX_RECIPE_COUNT
} ptx_recipe;

/* The spelling of recipe r, or "?" outside the list. */
static inline const char *ptx_recipe_spelling(int r) {
  static const char *const names[] = {
#define PTX_RECIPE_SPELLING(id, name, row) name,
      PTX_RECIPE_LIST(PTX_RECIPE_SPELLING)
#undef PTX_RECIPE_SPELLING
  };
  return (unsigned)r < PTX_RECIPE_COUNT ? names[r] : "?";
}

/* The recipe spelled s, or -1. */
static inline int ptx_recipe_by_spelling(const char *s) {
  for (int r = 0; r < PTX_RECIPE_COUNT; r++)
    if (strcmp(s, ptx_recipe_spelling(r)) == 0) return r;
  return -1;
}

#endif
