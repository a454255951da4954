/* The recipes behind ptx_gen_gemm, one per file. Private to ptxgen/: callers use ptxgen.h,
 * which dispatches on cfg->recipe after tcj_cfg_check has accepted the config. */
#ifndef TCJ_PTX_RECIPES_H
#define TCJ_PTX_RECIPES_H

#include <stddef.h>

#include "kernel_cfg.h"
#include "ptx_builder.h"

int ptx_gen_gemm_sm80(const tcj_kernel_cfg *cfg, char **ptx, size_t *len, char *err, size_t err_size);
int ptx_gen_gemm_sm90(const tcj_kernel_cfg *cfg, char **ptx, size_t *len, char *err, size_t err_size);

/* The split-K reduction entry (PTX_REDUCE_ENTRY, ABI in ptxgen.h) of cfg's module: sums the
 * fp32 slices of the workspace, applies alpha/beta and stores C. Shared by both recipes. */
void ptx_emit_reduce_entry(ptx_builder *b, const tcj_kernel_cfg *cfg);

/* Grouped raster (raster.c): tile index unit of a tiles_m x tiles_n grid -> tile row tm and
 * column tn, with `group` rows of tiles sweeping all columns together so that the A rows and
 * B columns they share stay in L2. tiles_m is a register (m is a runtime argument). */
void ptx_emit_grouped_raster(ptx_builder *b, ptx_reg unit, ptx_reg tiles_m, int tiles_n, int group,
                             ptx_reg tm, ptx_reg tn);

#endif
