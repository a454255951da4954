/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe (sm_90a): TMA loads into a ring of 128-byte-swizzled shared-memory stages,
 * wgmma.mma_async from shared-memory descriptors, warp specialisation and a persistent grid.
 *
 * One CTA per SM walks the problem's tiles (grouped raster, for L2 reuse) with stride gridDim.
 * Warpgroup 0 is the producer: after setmaxnreg.dec, one thread waits for a free stage (empty
 * mbarrier), announces the stage's bytes on its full mbarrier and issues the TMA copies of the
 * A and B tiles. Warpgroups 1..W are consumers (setmaxnreg.inc). Cooperative: each owns bm / W
 * rows of every tile. Ping-pong: two consumers take alternate tiles whole and hand the tensor
 * cores to each other (turn mbarriers), so one's epilogue runs under the other's mainloop. A
 * consumer waits for full stages, issues 4 k16 wgmmas per stage, keeps one wgmma group in
 * flight and frees the stage of the previous group. After the last K stage it writes C through
 * shared memory while the producer already loads the next tile: with beta == 0 and 16-byte C
 * rows, converted 64 x 128-byte chunks leave through TMA bulk stores; otherwise fp32 chunks are
 * read back as vectors, alpha/beta applied in fp32, and stored with predicated vector stores.
 *
 * Split configs (few tiles, deep K): a work unit is a (tile, K slice) pair; its fp32 partial sums
 * go to a workspace through the staged epilogue, and the module's reduction entry (shared with
 * the sm80 recipe) adds the slices and applies the epilogue.
 *
 * With cluster_m == c (2 or 4) the CTAs of a cluster run the tiles (ci + r, j), r its rank:
 * each loads its own A and its c-th of B, multicast into all of them; a stage is free when the
 * consumers of every CTA have released it. With cluster_n == c they run (i, cj + r) and share A
 * the same way.
 *
 * Grouped configs (tcj_kernel_cfg.grouped) walk the spec's units instead of tiles: producer and
 * consumers each find a unit's group and tile (sm90_group_origin, the sm80 kernel's scheduler)
 * and stop at the first unit without one. A contiguous group's A tile is rows of the whole A (rows
 * past the group are computed, not stored), or its gathered rows, which the producer warpgroup
 * copies with cp.async (sm90_gather.c), a masked group's an entry of the batched map; B is
 * batched by group; D leaves by TMA where the tile ends inside its group, else by the staged
 * path guarded by the group's rows (a TMA store would write the next group's). A cluster along M
 * runs a unit of two adjacent tile rows of one group (tcj_cfg_group_unit_rows), rank r the r-th,
 * sharing B's tile; no ping-pong: the two consumers' alternate tiles would need units of the
 * same shape.
 *
 * Edges need little code: TMA zero-fills loads outside the tensor (K tails included), TMA
 * stores clip at m and n, and the staged epilogue predicates rows and columns. Layout facts (descriptors, the D
 * fragment map) come from ptx_layout.c; tensor-map boxes from sm90_abi.c.
 *
 * This file writes the framing (entry, shared memory, barriers, the schedule's setup) and the
 * module; the warpgroups are in sm90_producer.c and sm90_consumer.c, each tile's epilogue in
 * sm90_epilogue.c, what they share of the schedule and the waits in sm90_schedule.c, their
 * state in sm90_kernel.h. */
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "epilogue.h"
#include "recipes.h" /* ptx_gen_gemm_sm90 */
#include "sm90_kernel.h"

/* ---- framing ---- */

static void emit_entry(sm90 *k) {
  ptx_builder *b = k->b;
  ptx_entry_begin(b, PTX_SM90_ENTRY);
  ptx_entry_param(b, "p_tmap_a", ".align 64 .b8");
  ptx_text(b, "[128]");
  ptx_entry_param(b, "p_tmap_b", ".align 64 .b8");
  ptx_text(b, "[128]");
  ptx_entry_param(b, "p_tmap_d", ".align 64 .b8");
  ptx_text(b, "[128]");
  ptx_emit_gemm_params(b);
  char extra[96];
  /* setmaxnreg moves registers between warpgroups of a CTA whose pool is fixed at launch
   * (threads x entry count): the entry count is pinned so the producer's release covers the
   * consumers' growth (tcj_cfg_sm90_regs). */
  int n = snprintf(extra, sizeof extra, ".maxnreg %d\n", tcj_cfg_sm90_regs(k->cfg).entry);
  if (k->cluster > 1) snprintf(extra + n, sizeof extra - (size_t)n, ".reqnctapercluster %d, 1, 1\n", k->cluster);
  ptx_entry_body_directives(b, tcj_cfg_sm90_threads(k->cfg), extra);
}

/* Shared memory: aligned base, the stage ring, the consumers' staging, then the barriers. */
static void emit_smem_layout(sm90 *k) {
  ptx_builder *b = k->b;
  k->ring = r32(k);
  ptx_ins(b, "mov.u32 %R, tcj_smem", k->ring);
  ptx_ins(b, "add.u32 %R, %R, %d", k->ring, k->ring, TCJ_SM90_ALIGN - 1);
  ptx_ins(b, "and.b32 %R, %R, %u", k->ring, k->ring, ~(unsigned)(TCJ_SM90_ALIGN - 1));
  k->epi = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", k->epi, k->ring, k->cfg->stages * k->stage_bytes);
  k->full = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", k->full, k->epi, k->consumers * ptx_sm90_epi_bytes(k->cfg));
  int maps = tcj_cfg_sm90_group_maps(k->cfg);
  if (maps) { /* 128-byte aligned: stages and staging are multiples of 128 bytes */
    k->map_stage = k->full;
    k->full = r32(k);
    ptx_ins(b, "add.u32 %R, %R, %d", k->full, k->map_stage, maps * TCJ_SM90_MAP_BYTES);
  }
  k->empty = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", k->empty, k->full, 8 * k->cfg->stages);
  if (k->pingpong) {
    k->turn = r32(k);
    ptx_ins(b, "add.u32 %R, %R, %d", k->turn, k->empty, 8 * k->cfg->stages);
  }
}

/* Thread 0 initialises the barriers; everyone (both CTAs of a cluster) waits for that. */
static void emit_barrier_init(sm90 *k) {
  ptx_builder *b = k->b;
  ptx_reg p0 = pred(k);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", p0, k->tid);
  /* A stage is free again when every consumer warp of every CTA that reads it has arrived. */
  int empty_count = (k->pingpong ? 1 : k->consumers) * 4 * k->cluster;
  /* A stage is full when TMA's bytes have come, after the producer's one arrival, and (gathered
   * A) each producer thread's cp.async arrival (sm90_gather.c). */
  int full_count = 1 + (k->cfg->gather ? WARPGROUP : 0);
  for (int s = 0; s < k->cfg->stages; s++) {
    ptx_ins_if(b, p0, 0, "mbarrier.init.shared::cta.b64 [%R+%d], %d", k->full, 8 * s, full_count);
    ptx_ins_if(b, p0, 0, "mbarrier.init.shared::cta.b64 [%R+%d], %d", k->empty, 8 * s, empty_count);
  }
  if (k->pingpong) {
    /* Turn barriers: consumer c may start a mainloop when turn[c] completes its next phase.
     * Consumer 0 goes first: its first phase is completed here. */
    ptx_ins_if(b, p0, 0, "mbarrier.init.shared::cta.b64 [%R], 1", k->turn);
    ptx_ins_if(b, p0, 0, "mbarrier.init.shared::cta.b64 [%R+8], 1", k->turn);
    ptx_ins_if(b, p0, 0, "mbarrier.arrive.shared::cta.b64 _, [%R]", k->turn);
  }
  /* A map rewritten per group is its group's own (sm90_group_maps.c): no copy reads the host's. */
  int maps = tcj_cfg_sm90_group_maps(k->cfg);
  if (maps < 2) ptx_ins_if(b, p0, 0, "prefetch.tensormap [%R]", k->tmap_a);
  if (maps < 1) ptx_ins_if(b, p0, 0, "prefetch.tensormap [%R]", k->tmap_b);
  if (k->tma_d) ptx_ins_if(b, p0, 0, "prefetch.tensormap [%R]", k->tmap_d);
  /* Make the initialised barriers visible to the TMA unit and to the other CTA. */
  ptx_ins(b, "fence.mbarrier_init.release.cluster");
  ptx_ins(b, "fence.proxy.async.shared::cta");
  if (k->cluster > 1) {
    ptx_ins(b, "barrier.cluster.arrive.release.aligned");
    ptx_ins(b, "barrier.cluster.wait.acquire.aligned");
  } else {
    ptx_ins(b, "bar.sync 0");
  }
}

/* A generic kernel's K tiles and tile columns from p_k and p_n (tcj_cfg_check keeps clusters
 * along N, whose unit columns would need them too, out of generic configs). */
static void emit_generic_dims(sm90 *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_val n = ptx_kernel_n(b, c), kdim = ptx_kernel_k(b, c);
  k->kt = ptx_in_reg(r32(k));
  k->unit_cols = ptx_in_reg(r32(k));
  ptx_ins(b, "add.u32 %V, %V, %d", k->kt, kdim, c->bk - 1);
  ptx_ins(b, "div.u32 %V, %V, %d", k->kt, k->kt, c->bk);
  ptx_ins(b, "add.u32 %V, %V, %d", k->unit_cols, n, c->bn - 1);
  ptx_ins(b, "div.u32 %V, %V, %d", k->unit_cols, k->unit_cols, c->bn);
}

/* Work units and this CTA's share: units are tiles, or a cluster's pair of tiles along M or N. */
static void emit_schedule_setup(sm90 *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  k->unit_rows = r32(k);
  int rows_per_unit = c->bm * (k->along_n ? 1 : k->cluster);
  ptx_ins(b, "add.u32 %R, %R, %d", k->unit_rows, k->m, rows_per_unit - 1);
  ptx_ins(b, "div.u32 %R, %R, %d", k->unit_rows, k->unit_rows, rows_per_unit);
  k->tile_units = r32(k);
  ptx_ins(b, "mul.lo.u32 %R, %R, %V", k->tile_units, k->unit_rows, k->unit_cols);
  k->units = k->tile_units;
  if (c->batched) { /* units of every entry, entry-major; batched configs do not split */
    ptx_reg batch = r32(k);
    k->units = r32(k);
    ptx_ins(b, "ld.param.u32 %R, [p_batch]", batch);
    ptx_ins(b, "mul.lo.u32 %R, %R, %R", k->units, k->tile_units, batch);
    k->z = r32(k);
    k->za = r32(k);
    k->zb = r32(k);
  }
  if (c->grouped) { /* the spec's units (ptx_group_units); the engine keeps them below 2^31 */
    ptx_reg groups = r32(k);
    k->units = r32(k);
    ptx_ins(b, "ld.param.u32 %R, [p_group_count]", groups);
    /* masked groups and K groups: every group's whole tile grid; contiguous: the bound */
    if (c->grouped == PTX_GROUP_MASKED || ptx_group_k(c->grouped))
      ptx_ins(b, "mul.lo.u32 %R, %R, %R", k->units, k->unit_rows, groups);
    else ptx_ins(b, "add.u32 %R, %R, %R", k->units, k->unit_rows, groups);
    ptx_ins(b, "mul.lo.u32 %R, %R, %V", k->units, k->units, k->unit_cols);
    k->z = r32(k);
    k->za = r32(k);
    k->zb = r32(k);
  }
  if (ptx_group_k(c->grouped)) { /* each tile's K range is its group's (sm90_group_origin) */
    k->kt = ptx_in_reg(r32(k));
    k->kstart = r32(k);
    k->kdepth = r32(k);
    k->kskip = r32(k);
  }
  if (k->split) {
    k->units = r32(k);
    ptx_ins(b, "mul.lo.u32 %R, %R, %R", k->units, k->tile_units, sm90_slices(k));
    k->slice = r32(k);
    k->kb0 = r32(k);
    k->kb_end = r32(k);
  }
  k->unit0 = r32(k);
  k->unit_step = r32(k);
  if (k->cluster > 1) {
    ptx_ins(b, "mov.u32 %R, %%clusterid.x", k->unit0);
    ptx_ins(b, "mov.u32 %R, %%nclusterid.x", k->unit_step);
    k->rank = r32(k);
    ptx_ins(b, "mov.u32 %R, %%cluster_ctarank", k->rank);
  } else {
    ptx_ins(b, "mov.u32 %R, %%ctaid.x", k->unit0);
    ptx_ins(b, "mov.u32 %R, %%nctaid.x", k->unit_step);
  }
}



int ptx_gen_gemm_sm90(ptx_builder *b, const tcj_kernel_cfg *cfg, char *err, size_t err_size) {
  sm90 k;
  memset(&k, 0, sizeof k);
  k.b = b;
  k.cfg = cfg;
  k.consumers = cfg->warps_m;
  k.pingpong = cfg->pingpong;
  k.rows = k.pingpong ? cfg->bm : cfg->bm / cfg->warps_m;
  k.row_split = k.pingpong ? 0 : k.rows;
  k.msub = k.rows / 64;
  k.cluster = tcj_cfg_cluster_ctas(cfg);
  k.along_n = cfg->cluster_n >= 2;
  k.a_bytes = cfg->bm * PTX_SWIZZLE_LINE;
  k.b_bytes = cfg->bn * PTX_SWIZZLE_LINE;
  k.stage_bytes = k.a_bytes + k.b_bytes;
  int tiles_n = (int)((cfg->n + tcj_cfg_tile_cols(cfg) - 1) / tcj_cfg_tile_cols(cfg));
  k.kt = ptx_imm((cfg->k + cfg->bk - 1) / cfg->bk);
  k.unit_cols = ptx_imm(k.along_n ? (tiles_n + k.cluster - 1) / k.cluster : tiles_n);
  k.split_at_launch = tcj_cfg_splits_at_launch(cfg);
  k.split = tcj_cfg_split_workspace(cfg) || k.split_at_launch;
  k.c_vec = cfg->vec_c;
  /* The workspace is dense (ldc = n): its rows take 4-element vectors when n allows (a generic
   * class's n is a multiple of vec_c). */
  int64_t n_mult = cfg->generic ? cfg->vec_c : cfg->n;
  k.ws_vec = n_mult % 4 == 0 ? 4 : n_mult % 2 == 0 ? 2 : 1;
  k.tma_d = ptx_sm90_tma_store(cfg);
  k.bulk_rows = ptx_sm90_bulk_rows(cfg);
  k.promote = tcj_cfg_promotion_wanted(cfg); /* the sm90 recipe promotes */
  k.pchunk = cfg->bn > 128 ? cfg->bn / 2 : cfg->bn;
  k.a_kmajor = !cfg->op_a_t;
  k.b_kmajor = cfg->op_b_t;
  if (k.msub > MAX_MSUB || cfg->bn / 2 > MAX_ACC || (tiles_n < 1 && !cfg->generic)) {
    snprintf(err, err_size, "sm90 tile %dx%d or n %lld out of range", cfg->bm, cfg->bn, (long long)cfg->n);
    return -1;
  }

  emit_entry(&k);
  k.tid = r32(&k);
  ptx_ins(b, "mov.u32 %R, %%tid.x", k.tid);
  k.m = r32(&k);
  ptx_ins(b, "ld.param.u32 %R, [p_m]", k.m);
  k.row_end = k.m;
  if (cfg->generic) emit_generic_dims(&k);
  /* The tensor maps stay in parameter space; TMA takes their generic address. */
  k.tmap_a = r64(&k);
  k.tmap_b = r64(&k);
  ptx_ins(b, "mov.b64 %R, p_tmap_a", k.tmap_a);
  ptx_ins(b, "cvta.param.u64 %R, %R", k.tmap_a, k.tmap_a);
  ptx_ins(b, "mov.b64 %R, p_tmap_b", k.tmap_b);
  ptx_ins(b, "cvta.param.u64 %R, %R", k.tmap_b, k.tmap_b);
  if (k.tma_d) {
    k.tmap_d = r64(&k);
    ptx_ins(b, "mov.b64 %R, p_tmap_d", k.tmap_d);
    ptx_ins(b, "cvta.param.u64 %R, %R", k.tmap_d, k.tmap_d);
  }
  emit_smem_layout(&k);
  emit_barrier_init(&k);
  emit_schedule_setup(&k);

  ptx_reg is_consumer = pred(&k);
  int consumer = ptx_new_label(b), finish = ptx_new_label(b);
  ptx_ins(b, "setp.ge.u32 %R, %R, %d", is_consumer, k.tid, WARPGROUP);
  ptx_ins_if(b, is_consumer, 0, "bra.uni %L", consumer);
  sm90_emit_producer(&k);
  ptx_ins(b, "bra.uni %L", finish);
  ptx_label(b, consumer);
  sm90_emit_consumer(&k);
  ptx_label(b, finish);
  /* A CTA of a cluster must outlive the other's multicasts into it and remote arrivals. */
  if (k.cluster > 1) {
    ptx_ins(b, "barrier.cluster.arrive.release");
    ptx_ins(b, "barrier.cluster.wait.acquire");
  }
  ptx_ins(b, "ret");
  ptx_finish(b);
  return 0;
}

