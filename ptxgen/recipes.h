/* The recipes behind ptx_gen_gemm, one per file. Private to ptxgen/: callers use ptxgen.h,
 * which dispatches on cfg->recipe after tcj_cfg_check has accepted the config. */
#ifndef TCJ_PTX_RECIPES_H
#define TCJ_PTX_RECIPES_H

#include <stddef.h>

#include "kernel_cfg.h"
#include "ptx_builder.h"
#include "ptxgen.h"

int ptx_gen_gemm_sm80(const tcj_kernel_cfg *cfg, const ptx_user_code *user, char **ptx, size_t *len, char *err,
                      size_t err_size);
int ptx_gen_gemm_dmma(const tcj_kernel_cfg *cfg, char **ptx, size_t *len, char *err, size_t err_size);
int ptx_gen_gemm_sm90(const tcj_kernel_cfg *cfg, const ptx_user_code *user, char **ptx, size_t *len, char *err,
                      size_t err_size);

/* Grouped raster (raster.c): tile index unit of a tiles_m x tiles_n grid -> tile row tm and
 * column tn, with `group` rows of tiles sweeping all columns together so that the A rows and
 * B columns they share stay in L2. tiles_m is a register (m is a runtime argument); tiles_n is
 * baked, or a register in a generic kernel. */
void ptx_emit_grouped_raster(ptx_builder *b, ptx_reg unit, ptx_reg tiles_m, ptx_val tiles_n, int group,
                             ptx_reg tm, ptx_reg tn);

#endif
