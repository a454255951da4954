/* SPDX-License-Identifier: Apache-2.0 */
/* The recipe table: one row per way of building a GEMM kernel (as QBE's struct Target), read
 * by ptx_gen_gemm, the config checks, the engine's function lookup, launch and autotuning. A
 * new recipe is a row and its files: each row lives in its recipe's own file (recipe_sm80.c,
 * recipe_sm90.c, recipe_dmma.c), their names and indexes in recipe_list.h, the table, the
 * lookups and the config facts that differ by recipe in recipe_table.c. */
#ifndef TCJ_PTX_RECIPE_H
#define TCJ_PTX_RECIPE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_cfg.h"
#include "recipe_list.h"

struct ptx_builder;

/* The kernels a module may hold beside the GEMM entry; the engine keeps one function of each. */
typedef enum ptx_extra_kind { PTX_EXTRA_REDUCE, PTX_EXTRA_TRANSPOSE, PTX_EXTRA_SPLIT, PTX_EXTRA_COUNT } ptx_extra_kind;

typedef struct ptx_extra_entry {
  ptx_extra_kind kind;
  const char *name;                                 /* its .entry */
  int (*present)(const tcj_kernel_cfg *cfg);        /* whether cfg's module holds it */
  void (*emit)(struct ptx_builder *b, const tcj_kernel_cfg *cfg); /* the whole entry, unfinished */
} ptx_extra_entry;

extern const ptx_extra_entry ptx_extra_reduce;    /* PTX_REDUCE_ENTRY: split-K sums (epilogue.c) */
extern const ptx_extra_entry ptx_extra_transpose; /* PTX_TRANSPOSE_ENTRY: the transposing pack (transpose.c) */
extern const ptx_extra_entry ptx_extra_split;     /* PTX_SPLIT_ENTRY: the 3xTF32 split pass (split_tf32.c) */

/* A launch's grid: x CTAs (at most 2^31 - 1), y along the grid's y. */
typedef struct ptx_grid {
  int64_t x;
  int y;
} ptx_grid;

typedef struct ptx_recipe_row {
  const char *name;  /* as configs and TCJ_RECIPE spell it (PTX_RECIPE_LIST) */
  const char *entry; /* the GEMM entry of its modules */
  /* Its own rules (types, tiles, arch); tcj_cfg_check adds the generic and epilogue ones.
   * NULL if fine, else why not. */
  const char *(*check)(const tcj_kernel_cfg *cfg);
  int (*threads)(const tcj_kernel_cfg *cfg);    /* per CTA */
  int (*smem_bytes)(const tcj_kernel_cfg *cfg); /* dynamic shared memory per CTA */
  /* The GEMM entry's grid for m rows and batch entries; slots: the CTAs that may be resident
   * at once (the SM count, fewer where whole clusters do not fit; for a grouped kernel, which
   * is persistent on every recipe, the SM count times the CTAs that fit on one). */
  ptx_grid (*grid)(const tcj_kernel_cfg *cfg, int64_t m, int64_t batch, int slots);
  /* Writes the GEMM entry into b, after the module's header, and finishes it. Returns 0 (a
   * builder failure is the builder's), or -1 with err. */
  int (*gen)(struct ptx_builder *b, const tcj_kernel_cfg *cfg, char *err, size_t err_size);
  const ptx_extra_entry *const *extras; /* in module order, NULL-terminated */
  unsigned elems;    /* operand types its tensor-core instruction takes: bit 1 << ptx_elem */
  int forceable;     /* TCJ_RECIPE may name it */
  /* NULL when an arch (sm, 'a' or 0) runs the recipe at all, else why not; NULL: every arch
   * the config check lets through (its limits are reported per config). */
  const char *(*arch_check)(int sm, int arch_suffix);
  int tensor_maps;   /* the entry takes TMA maps of A, B and D before PTX_GEMM_PARAMS (ptxgen.h) */
  int persistent;    /* its CTAs walk the tiles: the grid is the CTAs resident at once */
  /* fp8 partial sums are added into fp32 registers each K tile unless fast accumulation is
   * asked for (where block scales are applied); 3xTF32 promotes too (tcj_cfg_promotes). */
  int promotion;
  int split_parts;   /* 3xTF32 parts of each 32-K chunk its kernel reads (ptx_split_parts); 0: none */
  int fp8_isa_x10;   /* least PTX ISA version of a module with fp8 operands */
  /* The least PTX ISA version cfg's module needs beyond its arch's and fp8's (0: none); NULL:
   * none. */
  int (*isa_x10)(const tcj_kernel_cfg *cfg);
  /* Global memory each CTA of cfg's launch needs in p_work beside a split's partial sums
   * (device-rewritten tensor maps); NULL or 0: none. The engine gives it for the SM count's
   * CTAs, which a persistent grid never exceeds. */
  int64_t (*cta_scratch_bytes)(const tcj_kernel_cfg *cfg);
  /* 1 when cfg's consumers need the registers setmaxnreg moves to them, which ptxas gives only
   * in a whole-program compile (the engine's NVRTC route, engine/ptx_cuda.h): compiled as
   * relocatable code they spill. NULL: never. */
  int (*needs_whole_program)(const tcj_kernel_cfg *cfg);
  int rebalances_registers; /* its kernels move registers between warpgroups (setmaxnreg) */
} ptx_recipe_row;

#define PTX_RECIPE_ROW_EXTERN(id, name, row) extern const ptx_recipe_row row;
PTX_RECIPE_LIST(PTX_RECIPE_ROW_EXTERN)
#undef PTX_RECIPE_ROW_EXTERN

/* batch * ceil(m / bm) * ceil(n / bn) CTAs in x, the K slices in y: the grid of the sm80 and
 * dmma recipes. A grouped config's batch is its group count G, and its grid the spec's units
 * (ptx_group_units: m the rows of A for contiguous groups, of each entry for masked ones). */
ptx_grid ptx_tile_grid(const tcj_kernel_cfg *cfg, int64_t m, int64_t batch, int slots);

/* The row of index id, or NULL outside the table. */
const ptx_recipe_row *ptx_recipe_at(int id);
/* cfg's row, or NULL (a recipe index outside the table). */
const ptx_recipe_row *ptx_recipe_of(const tcj_kernel_cfg *cfg);
/* The row spelled name, or NULL. */
const ptx_recipe_row *ptx_recipe_named(const char *name);
/* The index of row (in the table). */
int ptx_recipe_index(const ptx_recipe_row *row);
/* Whether row's instruction multiplies operands of type e. */
static inline int ptx_recipe_takes(const ptx_recipe_row *row, ptx_elem e) { return (row->elems >> e) & 1u; }

#endif
