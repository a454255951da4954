/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-prof --groups-out: one JSON line per grouped row with the exact group sizes it runs, so
 * that another library (tools/torch_grouped.py: torch._grouped_mm) can time the same problems. */
#ifndef TCJ_TOOLS_PROF_GROUPS_H
#define TCJ_TOOLS_PROF_GROUPS_H

#include <stdio.h>

#include "tools/manifest.h"

/* Writes row's line for grouped problem p (fast_accum: the row's fp8 accumulation mode): its
 * types, layouts, sizes, group counts, the G sizes manifest_group_sizes draws (masked: the
 * counts; K mode: each group's K), the rows computed and tcj-prof's flop count (prof_flops), and
 * the MoE extras. Returns 0, or -1 (out of memory or a write error; errno says which). */
int prof_groups_write(FILE *f, const char *row, const manifest_problem *p, int fast_accum);

#endif
