/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's A producer for gathered rows (sm90_gather.c): the producer warpgroup's
 * cp.async copies of rows p_gather[r] of A into the stage layout TMA would write. Internal to
 * ptxgen. */
#ifndef TCJ_PTX_SM90_GATHER_H
#define TCJ_PTX_SM90_GATHER_H

#include "sm90_kernel.h"

/* Rows of a tile each producer thread copies: bm / 32, so at most 8 for the recipe's bm <= 256. */
#define SM90_GATHER_MAX_ROWS 8

typedef struct sm90_gather {
  int rows;                     /* of the tile, per thread: bm / 32 */
  ptx_reg a, index, ld_bytes;   /* A and p_gather (global addresses), A's row pitch in bytes */
  ptx_reg gather_rows, k_bytes; /* p_gather_rows capped at 2^31; K in bytes (u32) */
  ptx_reg row0, chunk_bytes;    /* this thread's first tile row (tid / 4), its chunk's byte offset */
  ptx_reg dst0;                 /* its first chunk's swizzled offset in a stage */
  ptx_reg idx[SM90_GATHER_MAX_ROWS]; /* the current tile's indices of its rows; -1: no row */
} sm90_gather;

/* Once, by every producer thread (tid < 128). */
void sm90_gather_setup(sm90 *k, sm90_gather *g);
/* Per tile, after the tile's origin m0 and its row guard k->row_end are known. */
void sm90_gather_tile(sm90 *k, sm90_gather *g, ptx_reg m0);
/* Per K stage, after the stage is free: the copies of A's tile at sbase for K from kcoord
 * (elements), and this thread's arrival on full when they land. */
void sm90_gather_stage(sm90 *k, sm90_gather *g, ptx_reg sbase, ptx_reg kcoord, ptx_reg full);

#endif
