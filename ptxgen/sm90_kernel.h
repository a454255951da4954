/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's kernel state and the parts its files share (gemm_sm90.c: framing and the
 * module; sm90_schedule.c: work schedule and barrier waits; sm90_producer.c: the TMA warpgroup;
 * sm90_consumer.c: the wgmma warpgroups, fp8 promotion and block scales; sm90_epilogue.c: D
 * through shared memory). Internal to ptxgen. */
#ifndef TCJ_PTX_SM90_KERNEL_H
#define TCJ_PTX_SM90_KERNEL_H

#include "group_schedule.h"
#include "kernel_cfg.h"
#include "ptx_builder.h"
#include "ptx_layout.h"

enum {
  WARPGROUP = 128,
  K_STEPS = 4,          /* wgmmas per K stage: a 128-byte line holds four 32-byte K steps */
  MAX_MSUB = 2,         /* 64-row wgmma blocks per consumer */
  MAX_ACC = 128,        /* fp32 accumulators per thread per block (n256) */
  GROUP_M = 8,          /* raster: GROUP_M tile rows (or cluster pairs) walk N together */
  /* Register budgets (setmaxnreg): tcj_cfg_sm90_regs, kernel_cfg.h. */
  BOX_BYTES = 64 * PTX_SWIZZLE_LINE, /* one MN-major box: 64 K rows x 128 bytes */
};

typedef struct sm90 {
  ptx_builder *b;
  const tcj_kernel_cfg *cfg;
  int consumers, rows, msub, cluster, pingpong;
  int row_split; /* rows between consumers' first rows: rows (cooperative) or 0 (ping-pong) */
  int a_bytes, b_bytes, stage_bytes;
  /* K tiles and work unit columns (tile columns, or a cluster's worth of them along N): baked,
   * or registers computed from p_k and p_n in a generic kernel. */
  ptx_val kt, unit_cols;
  int along_n;   /* a cluster's CTAs run adjacent tile columns and share A (cluster_n) */
  /* Split-K: split splits each tile's kt K tiles into p_slices slices (a launch value) of per
   * tiles (the last may be shorter); a work unit is a (tile, slice) pair and writes fp32 partial
   * sums. The count is read from p_slices where it is used (sm90_slices), not kept in a
   * register: live through the TMA epilogue beside 128 accumulators, it spilled. split_at_launch
   * (generic kernels): p_slices may be 1, and then the tile's epilogue stores D as an unsplit
   * kernel's. */
  int split, split_at_launch;
  int c_vec;        /* elements per C (D) access */
  int ws_vec;       /* elements per workspace store: its rows are dense, n fp32 apart */
  int a_kmajor, b_kmajor;
  ptx_reg tid, m, tmap_a, tmap_b, tmap_d, ring, epi, full, empty, turn;
  int tma_d; /* D rows are 16-byte vectors: beta == 0 tiles leave through TMA stores */
  int bulk_rows; /* stored scattered rows of 16-byte vectors: beta == 0 tiles leave by a bulk copy per row */
  ptx_reg z, za, zb; /* batched: the unit's entry, and its coordinate in A's and B's maps (0 for a broadcast operand);
                      * grouped: the unit's group */
  /* The epilogue's row guard: m, or a grouped tile's (the end of its rows, sm90_group_origin). */
  ptx_reg row_end;
  /* Grouped producers run a whole warp (the scheduler's scans are warp-wide): lane 0 issues the
   * TMA copies and arrivals under this predicate. Invalid otherwise (one thread, unguarded). */
  ptx_reg issue;
  ptx_reg units, unit0, unit_step, rank;
  ptx_reg tile_units;      /* units without the split: tiles (or cluster pairs) */
  ptx_reg unit_rows;       /* rows of those units: tile rows (or pairs of them) */
  ptx_reg slice, kb0, kb_end; /* of the current unit (split configs only) */
  ptx_reg acc[MAX_MSUB][MAX_ACC];
  /* fp8 promotion: wgmma writes each K tile's partial sums here, added into acc after it. A
   * tile wider than 128 columns is promoted in two column chunks of pchunk, one after the
   * other through the same part registers (half the registers of a whole second set). */
  int promote, pchunk;
  ptx_reg part[MAX_MSUB][MAX_ACC];
  ptx_reg amax; /* fp8: this thread's running max |D| (epilogue.h) */
  /* B by pointers and K groups: 128 bytes of shared memory per map the producer rewrites per
   * group (sm90_group_maps.c: B's, or A's then B's); k->tmap_a and k->tmap_b then name the
   * group's global slots. */
  ptx_reg map_stage;
  /* K groups: the tile's group's first K row and depth (sm90_group_origin), and the K coordinate
   * its copies start at (0; an empty group's maps span one row, and its copies start past it). */
  ptx_reg kstart, kdepth, kskip;
} sm90;

/* The producer's state for tensor maps rewritten per group (sm90_group_maps.c). */
typedef struct sm90_group_maps {
  int maps, ring;            /* maps rewritten (tcj_cfg_sm90_group_maps); slots per CTA */
  ptx_reg lane0;             /* the lane that rewrites the shared copies */
  ptx_reg slots;             /* this CTA's first slot */
  ptx_reg base[2];           /* each map's operand (global): B's pointer array, or A and B */
  ptx_reg row_bytes[2];      /* K groups: the bytes of one stored (K) row of each */
  ptx_reg group, slot;       /* the group the slots named last hold (-1: none yet); the next slot */
} sm90_group_maps;

/* Once, by the producer's warp 0 after the barriers are set up; then per tile, by the whole
 * warp, once the tile's group is in k->z. */
void sm90_group_maps_setup(sm90 *k, sm90_group_maps *gm);
void sm90_group_maps_tile(sm90 *k, sm90_group_maps *gm);

static inline ptx_reg r32(sm90 *k) { return ptx_new(k->b, PTX_B32); }
static inline ptx_reg r64(sm90 *k) { return ptx_new(k->b, PTX_B64); }
static inline ptx_reg pred(sm90 *k) { return ptx_new(k->b, PTX_PRED); }

/* The work schedule and barrier waits (sm90_schedule.c). */
/* p_slices in a new register (a split's count, read where it is used). */
ptx_reg sm90_slices(sm90 *k);
/* unit -> (m0, n0) of its tile (and the slice's K range, the batch entry). */
void sm90_tile_origin(sm90 *k, ptx_reg unit, ptx_reg m0, ptx_reg n0);
/* A grouped kernel's unit -> (m0, n0), k->z (the group) and k->row_end, by the scheduler of
 * group_schedule.h (lane: the thread's lane; the whole warp runs it; scan: the warp's position,
 * carried over its ascending units): a unit without a tile branches to done (no later unit has
 * one). */
void sm90_group_origin(sm90 *k, ptx_reg unit, ptx_reg m0, ptx_reg n0, ptx_reg lane, int done,
                       const ptx_group_scan *scan);
/* Spins until the mbarrier at addr (or bar_base + stage_off) completes the phase of parity. */
void sm90_wait_at(sm90 *k, ptx_reg addr, ptx_reg parity);
void sm90_wait(sm90 *k, ptx_reg bar_base, ptx_reg stage_off, ptx_reg parity);
/* stage = (stage + 1) % stages, flipping the phase parity at the wrap. */
void sm90_advance(sm90 *k, ptx_reg stage, ptx_reg phase);
/* The K tile loop of a unit: its first K tile, and the next with whether one is left. */
void sm90_k_start(sm90 *k, ptx_reg kb);
void sm90_k_next(sm90 *k, ptx_reg kb, ptx_reg more);

/* The warpgroups. */
void sm90_emit_producer(sm90 *k);                      /* sm90_producer.c */
void sm90_emit_consumer(sm90 *k);                      /* sm90_consumer.c */
void sm90_emit_epilogue(sm90 *k, ptx_reg m0, ptx_reg n0); /* sm90_epilogue.c: one tile's D */

/* 3xTF32: the K coordinates of A's and B's parts for K tile kb (sm90_producer.c). */
void sm90_x3_coords(sm90 *k, ptx_reg kb, ptx_reg ka, ptx_reg kbb);

#endif
