/* SPDX-License-Identifier: Apache-2.0 */
/* Grouped GEMM's tile scheduler (tcj_kernel_cfg.grouped, sm80 and sm90 recipes): which group and tile a
 * CTA of the 1-D grid runs, found on the device from the groups' ends or counts, as PTX and as
 * a plain C model of the same function (the unit tests hold the two to the spec). */
#ifndef TCJ_PTX_GROUP_SCHEDULE_H
#define TCJ_PTX_GROUP_SCHEDULE_H

#include <stdint.h>

#include "kernel_cfg.h"
#include "ptx_builder.h"

/* Whether A, C and D of entry z start z * stride elements in (a batch entry, a masked group),
 * whether C and D do (those, and a K group: its own D over one A), and whether B and the bias
 * do (every batched or grouped kernel: B_g = b + g * stride_b). */
static inline int ptx_rows_by_entry(const tcj_kernel_cfg *c) { return c->batched || c->grouped == PTX_GROUP_MASKED; }
static inline int ptx_cd_by_entry(const tcj_kernel_cfg *c) { return ptx_rows_by_entry(c) || ptx_group_k(c->grouped); }
static inline int ptx_cols_by_entry(const tcj_kernel_cfg *c) { return c->batched || c->grouped; }

/* Groups a warp reads per round of the contiguous scan: one per lane. */
#define PTX_GROUP_ROUND 32
/* Tile columns per band: within a group, units walk a band of this many tile columns row by
 * row, then the next band. Walking whole tile rows instead made every tile row re-read its
 * group's whole B from HBM once B outgrew L2 (Mixtral's up-projection, 235 MB per expert:
 * 15 GB read where 1.9 GB hold the weights); a band's B tiles stay in L2 while the CTAs in
 * flight go down the group's rows. */
#define PTX_GROUP_BAND 8

/* The CTAs of a grouped launch (x; y = 1) for m rows (CONTIGUOUS: all rows; MASKED: rows per
 * entry; K groups: D's rows), n columns and G groups: tiles_n * (ceil(m / bm) + G) for
 * contiguous groups (an upper bound of sum_g ceil(m_g / bm), as ceil(a / b) <= a / b + 1),
 * tiles_n * G * ceil(m / bm) for masked ones and K groups (every group's whole D). -1 for a bad argument (negative, bm or bn < 1, grouped 0). The engine refuses
 * more than 2^31 - 1. */
int64_t ptx_group_units(int grouped, int64_t m, int64_t n, int bm, int bn, int64_t groups);

/* What unit u of a grouped launch runs: units go group by group, each group's tiles in bands of
 * PTX_GROUP_BAND tile columns (row by row within a band). Contiguous and masked groups have only
 * the tiles of their rows (a masked group of 0 rows has none, so 256 empty groups cost one scan
 * per CTA); a K group has its whole D. */
typedef struct ptx_group_tile {
  int runs;      /* 0: past the real tiles (no later unit runs one: done) */
  uint32_t g;    /* group */
  uint32_t tm;   /* tile row within the group (rows tm * bm ...) */
  uint32_t tn;   /* tile column */
  uint32_t row0; /* the group's first row: CONTIGUOUS its clamped end[g-1], MASKED 0; K groups:
                    its first K index, the clamped end[g-1] */
  uint32_t rows; /* m_g, clamped (K groups: k_g, the group's depth, 0 for an empty group) */
  int done;      /* runs 0 and no later unit runs a tile either (ptx_emit_group_schedule's done) */
} ptx_group_tile;

/* The kernel's unit -> tile map (ptx_emit_group_schedule computes this same function in PTX;
 * a change to one is a change to both). groups: int32 ends (PTX_GROUP_ENDS32, K_ENDS32), int64
 * ends (ENDS64, K_ENDS64) or int32 counts (MASKED), group_count of them; m as p_m, k as p_k
 * (read by K groups only). Ends are clamped to [end[g-1], m] (K groups: [end[g-1], k]) and
 * counts to [0, m], so no array makes a tile leave the operands. K groups: group g has
 * ceil(m / bm) x tiles_n units (its whole D, in bands like the others), and every unit of the
 * grid runs (an empty group's tiles write beta * C + bias). */
ptx_group_tile ptx_group_unit_model(int grouped, const void *groups, uint32_t group_count, uint32_t m, uint32_t k,
                                    int bm, uint32_t tiles_n, uint32_t unit);

/* The contiguous and masked scans' position between units (ptx_group_scan below, as values):
 * the first group of the round to start at, and the last clamped end and the units of the
 * groups before it. {0, 0, 0}: group 0. */
typedef struct ptx_group_scan_pos {
  uint32_t base, carry_end, carry_units;
} ptx_group_scan_pos;

/* The same function as the PTX of a persistent loop computes it: the scan starts at *pos and
 * leaves there the round where it found unit (or the last round read). Valid while each call's
 * unit is at least the last one's. K groups do not use pos. */
ptx_group_tile ptx_group_unit_model_from(int grouped, const void *groups, uint32_t group_count, uint32_t m, uint32_t k,
                                         int bm, uint32_t tiles_n, uint32_t unit, ptx_group_scan_pos *pos);

/* The scheduler's registers (u32): the group, the tile's row and column within the group, the
 * group's first row and its rows. */
typedef struct ptx_group_sched {
  ptx_reg g, tm, tn, row0, rows;
} ptx_group_sched;

/* Where the contiguous and masked scans resume (u32 registers): the round's first group and
 * the rounds before it (their last clamped end, their units). A persistent loop's units ascend,
 * so the next unit's group is in the round where the last one's was, or later: carried from
 * unit to unit, the scan costs O(G / 32) rounds per CTA, not per unit. Set to 0 by
 * ptx_group_scan_start before the loop. */
typedef struct ptx_group_scan {
  ptx_reg base, carry_end, carry_units;
} ptx_group_scan;

ptx_group_scan ptx_group_scan_start(ptx_builder *b);

/* PTX of ptx_group_unit_model for unit (a u32 register), m (p_m; K groups load p_k themselves)
 * and the kernel's baked tiles_n; lane: the thread's lane. Every thread of a warp runs it (each
 * warp on its own: no shared memory, no barrier; every warp of a CTA that runs it takes the
 * same branches). Where the unit runs no tile, no later unit does either: the warp branches to
 * done (-1: returns). scan: the position carried across a persistent loop, whose units must
 * ascend (NULL: from group 0). Call it before any barrier, cp.async or mbarrier of the unit. */
ptx_group_sched ptx_emit_group_schedule(ptx_builder *b, const tcj_kernel_cfg *cfg, ptx_reg unit, ptx_reg m,
                                        int64_t tiles_n, ptx_reg lane, int done, const ptx_group_scan *scan);

#endif
