/* SPDX-License-Identifier: Apache-2.0 */
/* The recipes' generators behind ptx_gen_gemm, one per file, and what they share. Private to
 * ptxgen/: callers use ptxgen.h, which calls the generator of cfg's row (recipe.h) once
 * tcj_cfg_check has accepted the config. */
#ifndef TCJ_PTX_RECIPES_H
#define TCJ_PTX_RECIPES_H

#include <stddef.h>

#include "kernel_cfg.h"
#include "ptx_builder.h"
#include "ptxgen.h"

/* Each writes its GEMM entry into b after the module's header (ptx_epi_module_prelude) and
 * finishes it: ptx_recipe.gen. */
int ptx_gen_gemm_sm80(ptx_builder *b, const tcj_kernel_cfg *cfg, char *err, size_t err_size);
int ptx_gen_gemm_dmma(ptx_builder *b, const tcj_kernel_cfg *cfg, char *err, size_t err_size);
int ptx_gen_gemm_sm90(ptx_builder *b, const tcj_kernel_cfg *cfg, char *err, size_t err_size);

/* Grouped raster (raster.c): tile index unit of a tiles_m x tiles_n grid -> tile row tm and
 * column tn, with `group` rows of tiles sweeping all columns together so that the A rows and
 * B columns they share stay in L2. tiles_m is a register (m is a runtime argument); tiles_n is
 * baked, or a register in a generic kernel. */
void ptx_emit_grouped_raster(ptx_builder *b, ptx_reg unit, ptx_reg tiles_m, ptx_val tiles_n, int group,
                             ptx_reg tm, ptx_reg tn);

/* The 32 x 32 blocks the transposing pack and the 3xTF32 split pass move through shared memory
 * (transpose.c): the block of a row-major source at (row0, col0), zeros past (rows, cols). */
typedef struct ptx_block_src {
  ptx_reg base, ld;             /* .u64 global address and row pitch in elements */
  ptx_reg row0, col0, rows, cols; /* .u32 */
} ptx_block_src;
/* base + (row * ld + col) * es, 64-bit. */
ptx_reg ptx_tile_elem_addr(ptx_builder *b, ptx_reg base, ptx_reg ld, ptx_reg row, ptx_reg col, int es);
/* Thread (ty, tx) of PTX_TRANSPOSE_THREADS reads rows ty + 8 pass, column tx, of the block into
 * tile[r][tx] at smem (rows PTX_TRANSPOSE_TILE + 1 elements apart, so that a column read of the
 * tile falls on distinct banks for 4-byte elements). */
void ptx_emit_block_to_smem(ptx_builder *b, const ptx_block_src *s, ptx_reg smem, ptx_reg tx, ptx_reg ty, int es);

#endif
