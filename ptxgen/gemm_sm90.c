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
 * the sm80 recipe) adds the slices and applies alpha and beta.
 *
 * With cluster_m == 2 the two CTAs of a cluster run the tiles (2i, j) and (2i + 1, j): each
 * loads its own A and half of B, multicast into both CTAs; a stage is free when the consumers
 * of both CTAs have released it.
 *
 * Edges need little code: TMA zero-fills loads outside the tensor (K tails included), TMA
 * stores clip at m and n, and the staged epilogue predicates rows and columns. Layout facts (descriptors, the D
 * fragment map) come from ptx_layout.c; tensor-map boxes from sm90_abi.c. */
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "epilogue.h"
#include "ptx_builder.h"
#include "ptx_layout.h"
#include "ptx_ops.h"
#include "ptxgen.h"
#include "recipes.h"

enum {
  WARPGROUP = 128,
  K_STEPS = 4,          /* wgmmas per K stage: a 128-byte line holds four 32-byte K steps */
  MAX_MSUB = 2,         /* 64-row wgmma blocks per consumer */
  MAX_ACC = 128,        /* fp32 accumulators per thread per block (n256) */
  GROUP_M = 8,          /* raster: GROUP_M tile rows (or cluster pairs) walk N together */
  /* Register budgets: every thread starts at ENTRY_REGS (384 x 168 <= 65536); the producer
   * drops to PRODUCER_REGS, which frees 128 x 128 registers, exactly what two consumers need to
   * grow to CONSUMER_REGS (one consumer takes half). */
  ENTRY_REGS = 168,
  PRODUCER_REGS = 40,
  CONSUMER_REGS = 232,
  BOX_BYTES = 64 * PTX_SWIZZLE_LINE, /* one MN-major box: 64 K rows x 128 bytes */
};

typedef struct sm90 {
  ptx_builder *b;
  const tcj_kernel_cfg *cfg;
  int consumers, rows, msub, cluster, pingpong;
  int row_split; /* rows between consumers' first rows: rows (cooperative) or 0 (ping-pong) */
  int a_bytes, b_bytes, stage_bytes, kt, tiles_n;
  /* Split-K: slices > 1 splits each tile's kt K tiles into slices of per (the last may be
   * shorter); a work unit is a (tile, slice) pair and writes fp32 partial sums. */
  int slices, per;
  int c_vec;        /* elements per C store */
  int a_kmajor, b_kmajor;
  ptx_reg tid, m, tmap_a, tmap_b, tmap_d, ring, epi, full, empty, turn;
  int tma_d; /* D rows are 16-byte vectors: beta == 0 tiles leave through TMA stores */
  ptx_reg z, za, zb; /* batched: the unit's entry, and its coordinate in A's and B's maps (0 for a broadcast operand) */
  ptx_reg units, unit0, unit_step, rank;
  ptx_reg tile_units;      /* units without the split: tiles (or cluster pairs) */
  ptx_reg unit_rows;       /* rows of those units: tile rows (or pairs of them) */
  ptx_reg slice, kb0, kb_end; /* of the current unit (split configs only) */
  ptx_reg acc[MAX_MSUB][MAX_ACC];
  /* fp8 promotion: wgmma writes each K tile's partial sums here, added into acc after it. */
  int promote;
  ptx_reg part[MAX_MSUB][MAX_ACC];
  ptx_reg amax; /* fp8: this thread's running max |D| (epilogue.h) */
} sm90;

static ptx_reg r32(sm90 *k) { return ptx_new(k->b, PTX_B32); }
static ptx_reg r64(sm90 *k) { return ptx_new(k->b, PTX_B64); }
static ptx_reg pred(sm90 *k) { return ptx_new(k->b, PTX_PRED); }

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
   * consumers' growth with one consumer as with two. */
  int n = snprintf(extra, sizeof extra, ".maxnreg %d\n", ENTRY_REGS);
  if (k->cluster > 1) snprintf(extra + n, sizeof extra - (size_t)n, ".reqnctapercluster %d, 1, 1\n", k->cluster);
  ptx_entry_body_directives(b, tcj_cfg_threads(k->cfg), extra);
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
  ptx_ins(b, "add.u32 %R, %R, %d", k->full, k->epi, k->consumers * TCJ_SM90_EPI_BYTES);
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
  for (int s = 0; s < k->cfg->stages; s++) {
    ptx_ins_if(b, p0, 0, "mbarrier.init.shared::cta.b64 [%R+%d], 1", k->full, 8 * s);
    ptx_ins_if(b, p0, 0, "mbarrier.init.shared::cta.b64 [%R+%d], %d", k->empty, 8 * s, empty_count);
  }
  if (k->pingpong) {
    /* Turn barriers: consumer c may start a mainloop when turn[c] completes its next phase.
     * Consumer 0 goes first: its first phase is completed here. */
    ptx_ins_if(b, p0, 0, "mbarrier.init.shared::cta.b64 [%R], 1", k->turn);
    ptx_ins_if(b, p0, 0, "mbarrier.init.shared::cta.b64 [%R+8], 1", k->turn);
    ptx_ins_if(b, p0, 0, "mbarrier.arrive.shared::cta.b64 _, [%R]", k->turn);
  }
  ptx_ins_if(b, p0, 0, "prefetch.tensormap [%R]", k->tmap_a);
  ptx_ins_if(b, p0, 0, "prefetch.tensormap [%R]", k->tmap_b);
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

/* Work units and this CTA's share: units are tiles, or pairs of tiles along M per cluster. */
static void emit_schedule_setup(sm90 *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  k->unit_rows = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", k->unit_rows, k->m, c->bm * k->cluster - 1);
  ptx_ins(b, "div.u32 %R, %R, %d", k->unit_rows, k->unit_rows, c->bm * k->cluster);
  k->tile_units = r32(k);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", k->tile_units, k->unit_rows, k->tiles_n);
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
  if (k->slices > 1) {
    k->units = r32(k);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", k->units, k->tile_units, k->slices);
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

/* unit -> (m0, n0), grouped raster: GROUP_M unit rows sweep N together so their A rows and the
 * B columns they share stay in L2. */
static void emit_tile_origin(sm90 *k, ptx_reg unit, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_reg tm = r32(k), tn = r32(k);
  if (k->slices > 1) {
    /* Split: unit = tile * slices + slice; slice z runs K tiles [z * per, min(kt, (z + 1) * per)). */
    ptx_reg tile = r32(k);
    ptx_ins(b, "div.u32 %R, %R, %d", tile, unit, k->slices);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", k->slice, tile, k->slices);
    ptx_ins(b, "sub.u32 %R, %R, %R", k->slice, unit, k->slice);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", k->kb0, k->slice, k->per);
    ptx_ins(b, "add.u32 %R, %R, %d", k->kb_end, k->kb0, k->per);
    ptx_ins(b, "min.u32 %R, %R, %d", k->kb_end, k->kb_end, k->kt);
    unit = tile;
  }
  if (c->batched) {
    ptx_reg tile = r32(k);
    ptx_ins(b, "div.u32 %R, %R, %R", k->z, unit, k->tile_units);
    ptx_ins(b, "rem.u32 %R, %R, %R", tile, unit, k->tile_units);
    unit = tile;
  }
  ptx_emit_grouped_raster(b, unit, k->unit_rows, k->tiles_n, GROUP_M, tm, tn);
  if (k->cluster > 1) ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", tm, tm, k->cluster, k->rank);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", m0, tm, c->bm);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", n0, tn, c->bn);
}

/* Spins until the mbarrier at addr completes the phase of the given parity. */
static void emit_wait_at(sm90 *k, ptx_reg addr, ptx_reg parity) {
  ptx_builder *b = k->b;
  ptx_reg done = pred(k);
  int again = ptx_new_label(b);
  ptx_label(b, again);
  ptx_ins(b, "mbarrier.try_wait.parity.shared::cta.b64 %R, [%R], %R", done, addr, parity);
  ptx_ins_if(b, done, 1, "bra.uni $L%d", again);
}

/* The same for the barrier of a stage: bar_base + stage_off. */
static void emit_wait(sm90 *k, ptx_reg bar_base, ptx_reg stage_off, ptx_reg parity) {
  ptx_reg addr = r32(k);
  ptx_ins(k->b, "add.u32 %R, %R, %R", addr, bar_base, stage_off);
  emit_wait_at(k, addr, parity);
}

/* stage = (stage + 1) % stages, flipping the phase parity at the wrap. */
static void emit_advance(sm90 *k, ptx_reg stage, ptx_reg phase) {
  ptx_builder *b = k->b;
  ptx_reg wrap = pred(k);
  ptx_ins(b, "add.u32 %R, %R, 1", stage, stage);
  ptx_ins(b, "setp.eq.u32 %R, %R, %d", wrap, stage, k->cfg->stages);
  ptx_ins_if(b, wrap, 0, "mov.u32 %R, 0", stage);
  ptx_ins_if(b, wrap, 0, "xor.b32 %R, %R, 1", phase, phase);
}

/* The K tile loop of a unit: kb from 0 (or the slice's first) up to kt (or the slice's end). */
static void emit_k_start(sm90 *k, ptx_reg kb) {
  if (k->slices > 1) ptx_ins(k->b, "mov.u32 %R, %R", kb, k->kb0);
  else ptx_ins(k->b, "mov.u32 %R, 0", kb);
}

static void emit_k_next(sm90 *k, ptx_reg kb, ptx_reg more) {
  ptx_ins(k->b, "add.u32 %R, %R, 1", kb, kb);
  if (k->slices > 1) ptx_ins(k->b, "setp.lt.u32 %R, %R, %R", more, kb, k->kb_end);
  else ptx_ins(k->b, "setp.lt.u32 %R, %R, %d", more, kb, k->kt);
}

/* ---- producer ---- */

static void emit_tma_load(sm90 *k, ptx_reg tmap, ptx_reg dst, int dst_imm, ptx_reg c0, int c0_imm,
                          ptx_reg c1, int c1_imm, ptx_reg bar, ptx_reg mask) {
  ptx_builder *b = k->b;
  ptx_reg x = r32(k), y = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", x, c0, c0_imm);
  ptx_ins(b, "add.u32 %R, %R, %d", y, c1, c1_imm);
  if (k->cfg->batched) { /* rank-3 maps: the entry is the third coordinate */
    ptx_reg zc = tmap.id == k->tmap_a.id ? k->za : k->zb;
    if (mask.id)
      ptx_ins(b, "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%R+%d], [%R, {%R, %R, %R}], [%R], %R", dst, dst_imm, tmap, x, y, zc, bar, mask);
    else
      ptx_ins(b, "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%R+%d], [%R, {%R, %R, %R}], [%R]", dst, dst_imm, tmap, x, y, zc, bar);
    return;
  }
  if (mask.id)
    ptx_ins(b, "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
               "[%R+%d], [%R, {%R, %R}], [%R], %R", dst, dst_imm, tmap, x, y, bar, mask);
  else
    ptx_ins(b, "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
               "[%R+%d], [%R, {%R, %R}], [%R]", dst, dst_imm, tmap, x, y, bar);
}

static void emit_producer(sm90 *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_ins(b, "setmaxnreg.dec.sync.aligned.u32 %d", PRODUCER_REGS);
  int done = ptx_new_label(b), tile_loop = ptx_new_label(b), k_loop = ptx_new_label(b);
  ptx_reg not_leader = pred(k);
  ptx_ins(b, "setp.ne.u32 %R, %R, 0", not_leader, k->tid);
  ptx_ins_if(b, not_leader, 0, "bra.uni $L%d", done);

  ptx_reg stage = r32(k), phase = r32(k), unit = r32(k), soff = r32(k), kcoord = r32(k);
  ptx_reg m0 = r32(k), n0 = r32(k), sbase = r32(k), full = r32(k), empty_parity = r32(k), kb = r32(k);
  ptx_reg mask = {0};
  ptx_ins(b, "mov.u32 %R, 0", stage);
  ptx_ins(b, "mov.u32 %R, 0", phase);
  ptx_ins(b, "mov.u32 %R, %R", unit, k->unit0);
  if (k->cluster > 1) {
    mask = ptx_new(b, PTX_B16);
    ptx_ins(b, "mov.b16 %R, %d", mask, (1 << k->cluster) - 1);
  }
  ptx_reg end = pred(k), more = pred(k), a_batched = pred(k), b_batched = pred(k);
  if (c->batched) {
    ptx_reg sa = r64(k), sb = r64(k);
    ptx_ins(b, "ld.param.u64 %R, [p_stride_a]", sa);
    ptx_ins(b, "ld.param.u64 %R, [p_stride_b]", sb);
    ptx_ins(b, "setp.ne.u64 %R, %R, 0", a_batched, sa);
    ptx_ins(b, "setp.ne.u64 %R, %R, 0", b_batched, sb);
  }
  ptx_label(b, tile_loop);
  ptx_ins(b, "setp.ge.u32 %R, %R, %R", end, unit, k->units);
  ptx_ins_if(b, end, 0, "bra.uni $L%d", done);
  emit_tile_origin(k, unit, m0, n0);
  if (c->batched) { /* a broadcast operand (stride 0) is one entry: its coordinate stays 0 */
    ptx_ins(b, "selp.u32 %R, %R, 0, %R", k->za, k->z, a_batched);
    ptx_ins(b, "selp.u32 %R, %R, 0, %R", k->zb, k->z, b_batched);
  }
  emit_k_start(k, kb);
  ptx_label(b, k_loop);
  ptx_ins(b, "shl.b32 %R, %R, 3", soff, stage);
  ptx_ins(b, "xor.b32 %R, %R, 1", empty_parity, phase);
  emit_wait(k, k->empty, soff, empty_parity);
  ptx_ins(b, "add.u32 %R, %R, %R", full, k->full, soff);
  /* Every CTA receives whole A and B tiles (half of B from the other CTA of a cluster). */
  ptx_ins(b, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%R], %d", full, k->stage_bytes);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", sbase, stage, k->stage_bytes, k->ring);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", kcoord, kb, c->bk); /* elements of K before this stage */
  ptx_reg none = {0};
  /* A: K-major boxes are 64 K x bm rows; MN-major ones 64 M x 64 K, bm / 64 of them. */
  if (k->a_kmajor) {
    emit_tma_load(k, k->tmap_a, sbase, 0, kcoord, 0, m0, 0, full, none);
  } else {
    for (int j = 0; j < c->bm / 64; j++) emit_tma_load(k, k->tmap_a, sbase, j * BOX_BYTES, m0, 64 * j, kcoord, 0, full, none);
  }
  /* B: the same shapes; in a cluster each CTA loads half (by rank) for both. */
  int parts = k->cluster, half_rows = c->bn / parts;
  if (k->b_kmajor) {
    if (parts > 1) {
      ptx_reg dst = r32(k), row = r32(k);
      ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", dst, k->rank, half_rows * PTX_SWIZZLE_LINE, sbase);
      ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", row, k->rank, half_rows, n0);
      emit_tma_load(k, k->tmap_b, dst, k->a_bytes, kcoord, 0, row, 0, full, mask);
    } else {
      emit_tma_load(k, k->tmap_b, sbase, k->a_bytes, kcoord, 0, n0, 0, full, none);
    }
  } else {
    int boxes = c->bn / 64 / parts;
    ptx_reg dst = sbase, col = n0;
    if (parts > 1) {
      dst = r32(k);
      col = r32(k);
      ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", dst, k->rank, boxes * BOX_BYTES, sbase);
      ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", col, k->rank, boxes * 64, n0);
    }
    for (int j = 0; j < boxes; j++)
      emit_tma_load(k, k->tmap_b, dst, k->a_bytes + j * BOX_BYTES, col, 64 * j, kcoord, 0, full, mask);
  }
  emit_advance(k, stage, phase);
  emit_k_next(k, kb, more);
  ptx_ins_if(b, more, 0, "bra.uni $L%d", k_loop);
  ptx_ins(b, "add.u32 %R, %R, %R", unit, unit, k->unit_step);
  ptx_ins(b, "bra.uni $L%d", tile_loop);
  ptx_label(b, done);
}

/* ---- consumers ---- */

/* Descriptor of stage 0 of an operand tile at smem address base (+ offset already folded). */
static ptx_reg emit_desc_base(sm90 *k, ptx_reg addr, int k_major) {
  ptx_builder *b = k->b;
  uint64_t fixed = ptx_wgmma_desc(0, ptx_sm90_desc_lbo(k_major, BOX_BYTES), PTX_SM90_SBO, PTX_WGMMA_SWIZZLE_128B);
  ptx_reg lo = r32(k), hi = r32(k), d = r64(k);
  ptx_ins(b, "shr.u32 %R, %R, 4", lo, addr);
  ptx_ins(b, "and.b32 %R, %R, %u", lo, lo, 0x3FFFu);
  ptx_ins(b, "or.b32 %R, %R, %u", lo, lo, (unsigned)(fixed & 0xFFFFFFFFu));
  ptx_ins(b, "mov.b32 %R, %u", hi, (unsigned)(fixed >> 32));
  ptx_ins(b, "mov.b64 %R, {%R, %R}", d, lo, hi);
  return d;
}

/* One wgmma m64nBNkK: acc[j] (+)= A block j x B, descriptors given (promoting: into part[j]). */
static void emit_wgmma(sm90 *k, int j, ptx_reg da, ptx_reg db, ptx_reg scale_d) {
  const ptx_reg *acc = k->promote ? k->part[j] : k->acc[j];
  ptx_wgmma(k->b, k->cfg->ab, tcj_cfg_b_type(k->cfg), k->cfg->bn, acc, da, db, scale_d, !k->a_kmajor, !k->b_kmajor);
}

static void emit_release(sm90 *k, ptx_reg stage, ptx_reg guard) {
  ptx_builder *b = k->b;
  ptx_reg addr = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", addr, stage, k->empty);
  if (k->cluster > 1) {
    for (int r = 0; r < k->cluster; r++) {
      ptx_reg remote = r32(k);
      ptx_ins(b, "mapa.shared::cluster.u32 %R, %R, %d", remote, addr, r);
      /* Plain arrive: a .release.cluster arrive fences every earlier access at cluster scope
       * and cost 0.7 us per stage (measured on an H200); the wgmma reads it must order are
       * complete once wgmma.wait_group returns. */
      ptx_ins_if(b, guard, 0, "mbarrier.arrive.shared::cluster.b64 _, [%R]", remote);
    }
  } else {
    ptx_ins_if(b, guard, 0, "mbarrier.arrive.shared::cta.b64 _, [%R]", addr);
  }
}

typedef struct epi_ctx {
  ptx_epi epi;        /* alpha, beta, C/D bases, bias, ... (epilogue.c) */
  ptx_reg stage_wr;   /* staging address of this thread's fragment (row l/4 of warp w) */
  ptx_reg stage_rd;   /* staging address this thread reads in the store phase */
  ptx_reg rd_row;     /* tile row of this thread's first read (consumer rows included) */
  ptx_reg rd_col;     /* tile column of this thread's reads in a chunk */
  ptx_reg bar_id;
  int vec, per_row, row_step;
} epi_ctx;

/* The epilogue's per-thread constants, computed after each tile's mainloop rather than kept
 * live through it: next to 128 accumulators every register counts. */
static void emit_epilogue_setup(sm90 *k, epi_ctx *e) {
  ptx_builder *b = k->b;
  ptx_reg cw = r32(k), ct = r32(k), warp = r32(k), lane = r32(k);
  ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
  ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
  ptx_ins(b, "and.b32 %R, %R, 127", ct, k->tid);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, ct);
  ptx_ins(b, "and.b32 %R, %R, 31", lane, ct);
  /* A fused epilogue takes at most 4 staged values at a time: 8 with their C values, bias and
   * activation temporaries spill next to 128 accumulators (32 bytes at ping-pong 64x256 with a
   * column bias and GELU, ptxas 13.0). Narrower accesses than the rows allow are always valid. */
  e->vec = tcj_cfg_fused(k->cfg) && k->c_vec > 4 ? 4 : k->c_vec;
  e->per_row = TCJ_SM90_EPI_COLS / e->vec;   /* threads per staged row */
  e->row_step = WARPGROUP / e->per_row;      /* rows the warpgroup covers per pass */
  e->stage_wr = r32(k);
  e->stage_rd = r32(k);
  ptx_reg epi_base = r32(k), t = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", epi_base, cw, TCJ_SM90_EPI_BYTES, k->epi);
  /* Fragment writes: row 16 * warp + lane / 4, column 2 * (lane % 4) (see ptx_wgmma_d_coord). */
  ptx_ins(b, "shr.u32 %R, %R, 2", t, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", t, warp, t);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", e->stage_wr, t, TCJ_SM90_EPI_PITCH, epi_base);
  ptx_ins(b, "and.b32 %R, %R, 3", t, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", e->stage_wr, t, e->stage_wr);
  /* Reads: thread ct takes row ct / per_row, vector ct % per_row. */
  ptx_reg rd_row = r32(k), rd_col = r32(k);
  ptx_ins(b, "div.u32 %R, %R, %d", rd_row, ct, e->per_row);
  ptx_ins(b, "rem.u32 %R, %R, %d", rd_col, ct, e->per_row);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", rd_col, rd_col, e->vec);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", e->stage_rd, rd_row, TCJ_SM90_EPI_PITCH, epi_base);
  ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", e->stage_rd, rd_col, e->stage_rd);
  /* Row and column offsets of the first read within the tile (consumer rows included). */
  e->rd_row = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", e->rd_row, cw, k->row_split, rd_row);
  e->rd_col = rd_col;
  e->bar_id = r32(k);
  ptx_ins(b, "add.u32 %R, %R, 1", e->bar_id, cw); /* named barrier 1 + consumer; 0 is the CTA's */
}

/* Global address of (row, col) of a matrix at base with rows of ld_bytes and es-byte elements. */
static ptx_reg emit_elem_addr(sm90 *k, ptx_reg base, ptx_reg ld_bytes, int es, ptx_reg row, ptx_reg col) {
  ptx_builder *b = k->b;
  ptx_reg a = r64(k), t = r64(k);
  ptx_ins(b, "mul.wide.u32 %R, %R, %d", t, col, es);
  ptx_ins(b, "cvt.u64.u32 %R, %R", a, row);
  ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", a, a, ld_bytes, base);
  ptx_ins(b, "add.s64 %R, %R, %R", a, a, t);
  return a;
}

/* Epilogue of one tile for this consumer, general case (any D alignment, beta != 0, split
 * slices): for each 64-row block j and 32-column chunk, the fp32 accumulators go to the staging
 * buffer, then each thread reads whole vectors of it, applies the epilogue (with C) and stores
 * D; split slices store their raw fp32 partial sums into the workspace instead. */
static void emit_epilogue_staged(sm90 *k, const ptx_epi *pe, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  epi_ctx ctx, *e = &ctx;
  memset(e, 0, sizeof *e);
  emit_epilogue_setup(k, e);
  int split = k->slices > 1;
  ptx_elem dt = split ? PTX_E_F32 : c->d;
  int ds = ptx_elem_size(dt), cs = ptx_elem_size(c->c);
  const char *aw = ptx_mma_acc_class(c->ab) == PTX_F32 ? "f32" : "b32"; /* staged accumulators */
  /* This thread's first read: row m0 + rd_row, column n0 + rd_col. */
  ptx_reg grow = r32(k), gcol = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %R", grow, m0, e->rd_row);
  ptx_ins(b, "add.u32 %R, %R, %R", gcol, n0, e->rd_col);
  ptx_reg dbase = pe->d_base, ldd_bytes = pe->ldd_bytes;
  if (split) { /* slice z of the workspace starts z * m * n fp32 elements in; rows of n */
    ptx_reg t64 = r64(k), z = r64(k);
    dbase = r64(k);
    ldd_bytes = r64(k);
    ptx_ins(b, "ld.param.u64 %R, [p_work]", dbase);
    ptx_ins(b, "cvta.to.global.u64 %R, %R", dbase, dbase);
    ptx_ins(b, "mul.wide.u32 %R, %R, %d", t64, k->m, (int)(c->n * 4));
    ptx_ins(b, "cvt.u64.u32 %R, %R", z, k->slice);
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", dbase, t64, z, dbase);
    ptx_ins(b, "mov.u64 %R, %lld", ldd_bytes, (long long)(c->n * 4));
  }
  ptx_reg row_ok = pred(k), col_ok = pred(k), ok = pred(k), ld_ok = pred(k), more = pred(k);
  for (int j = 0; j < k->msub; j++) {
    for (int ch = 0; ch < c->bn / TCJ_SM90_EPI_COLS; ch++) {
      /* Write: the previous chunk's readers must be done with the buffer. */
      ptx_ins(b, "bar.sync %R, %d", e->bar_id, WARPGROUP);
      for (int nb = 0; nb < TCJ_SM90_EPI_COLS / 8; nb++) {
        int i = 4 * (ch * TCJ_SM90_EPI_COLS / 8 + nb);
        ptx_ins(b, "st.shared.v2.%s [%R+%d], {%R, %R}", aw, e->stage_wr, nb * 32, k->acc[j][i], k->acc[j][i + 1]);
        ptx_ins(b, "st.shared.v2.%s [%R+%d], {%R, %R}", aw, e->stage_wr, nb * 32 + 8 * TCJ_SM90_EPI_PITCH,
                k->acc[j][i + 2], k->acc[j][i + 3]);
      }
      ptx_ins(b, "bar.sync %R, %d", e->bar_id, WARPGROUP);
      ptx_reg ecol = r32(k);
      ptx_ins(b, "add.u32 %R, %R, %d", ecol, gcol, ch * TCJ_SM90_EPI_COLS);
      ptx_ins(b, "setp.lt.u32 %R, %R, %d", col_ok, ecol, (int)c->n); /* vectors divide n: all in or all out */
      /* Store phase: a runtime loop over this thread's rows of the chunk, so the compiler
       * cannot hoist every row's loads at once while 128 accumulators are live. Addresses are
       * computed per row from (row, column) rather than carried: with C and D apart, carried
       * pointers and steps cost eight registers, and with both epilogue paths in the kernel
       * that spilled (192 bytes at 128x256). */
      ptx_reg row = r32(k), srd = r32(k);
      ptx_ins(b, "mov.u32 %R, %d", row, 64 * j);
      ptx_ins(b, "mov.u32 %R, %R", srd, e->stage_rd);
      int again = ptx_new_label(b);
      ptx_label(b, again);
      ptx_ins(b, ".pragma \"nounroll\"");
      ptx_reg erow = r32(k);
      ptx_ins(b, "add.u32 %R, %R, %R", erow, grow, row);
      ptx_ins(b, "setp.lt.u32 %R, %R, %R", row_ok, erow, k->m);
      ptx_ins(b, "and.pred %R, %R, %R", ok, row_ok, col_ok);
      ptx_reg acc[8];
      for (int v = 0; v < e->vec; v++) acc[v] = ptx_new(b, ptx_mma_acc_class(c->ab));
      for (int v = 0; v < e->vec; v += 4) {
        int w = e->vec - v < 4 ? e->vec - v : 4;
        if (w == 4) ptx_ins(b, "ld.shared.v4.%s {%R, %R, %R, %R}, [%R+%d]", aw, acc[v], acc[v + 1], acc[v + 2], acc[v + 3], srd, 4 * v);
        else if (w == 2) ptx_ins(b, "ld.shared.v2.%s {%R, %R}, [%R+%d]", aw, acc[v], acc[v + 1], srd, 4 * v);
        else ptx_ins(b, "ld.shared.%s %R, [%R+%d]", aw, acc[v], srd, 4 * v);
      }
      if (!split) {
        ptx_reg old[8];
        ptx_reg caddr = emit_elem_addr(k, pe->c_base, pe->ldc_bytes, cs, erow, ecol);
        ptx_ins(b, "and.pred %R, %R, %R", ld_ok, ok, pe->has_beta);
        ptx_epi_load(b, c->c, caddr, 0, ld_ok, e->vec, old);
        ptx_epi_apply(b, pe, acc, old, e->vec, erow, ecol); /* in place: registers are scarce */
      }
      ptx_reg daddr = emit_elem_addr(k, dbase, ldd_bytes, ds, erow, ecol);
      if (split) ptx_epi_store(b, dt, daddr, 0, ok, e->vec, acc);
      else ptx_epi_store_d(b, pe, daddr, 0, ok, e->vec, acc);
      ptx_ins(b, "add.u32 %R, %R, %d", row, row, e->row_step);
      ptx_ins(b, "add.u32 %R, %R, %d", srd, srd, e->row_step * TCJ_SM90_EPI_PITCH);
      ptx_ins(b, "setp.lt.u32 %R, %R, %d", more, row, 64 * (j + 1));
      ptx_ins_if(b, more, 0, "bra.uni $L%d", again);
    }
  }
}

/* The TMA path's bias: the tile's slice of the bias vector (bn columns, or this consumer's
 * rows), as f32, in the spare tail of the consumer's staging buffer (a TMA store reads only its
 * first 64 rows x 128 bytes). Each value is then one ld.shared at an immediate offset, which
 * ptxas cannot hoist past the chunk's barrier: loaded from global memory, with their addresses,
 * the values of every chunk were hoisted together next to 128 live accumulators and spilled
 * (128 bytes at 128x256 with a column bias and GELU, ptxas 13.0). Returns this thread's first
 * value's address: column 2 * (lane % 4), or row 16 * warp + lane / 4 of the consumer's rows. */
#define TMA_STAGE_BYTES (TCJ_SM90_EPI_ROWS * PTX_SWIZZLE_LINE)
_Static_assert(TCJ_SM90_EPI_BYTES - TMA_STAGE_BYTES >= 256 * 4, "no room for a 256-wide bias slice");
static ptx_reg emit_tma_bias(sm90 *k, const ptx_epi *pe, ptx_reg buf, ptx_reg bar_id, ptx_reg m0, ptx_reg n0,
                             ptx_reg lane) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int col = c->bias == PTX_BIAS_COL, count = col ? c->bn : k->rows;
  ptx_reg tail = r32(k), t = r32(k), first = r32(k), idx = r32(k), st_ok = pred(k), s = r32(k);
  ptx_ins(b, "add.u32 %R, %R, %d", tail, buf, TMA_STAGE_BYTES);
  ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
  if (col) {
    ptx_ins(b, "mov.u32 %R, %R", first, n0);
  } else {
    ptx_reg cw = r32(k);
    ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
    ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", first, cw, k->row_split, m0);
  }
  /* The previous tile's readers finished before its last chunk's barrier. */
  for (int i = 0; i < count; i += WARPGROUP) {
    ptx_ins(b, "add.u32 %R, %R, %d", idx, t, i);
    ptx_ins(b, "setp.lt.u32 %R, %R, %d", st_ok, idx, count);
    ptx_ins(b, "add.u32 %R, %R, %R", idx, idx, first);
    ptx_reg v = col ? ptx_epi_bias_at(b, pe, idx, (ptx_reg){0}, c->n) : ptx_epi_bias_at(b, pe, idx, k->m, 0);
    ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", s, t, tail);
    ptx_ins_if(b, st_ok, 0, "st.shared.f32 [%R+%d], %R", s, 4 * i, v);
  }
  ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
  ptx_reg addr = r32(k);
  if (col) {
    ptx_ins(b, "and.b32 %R, %R, 3", addr, lane);
    ptx_ins(b, "mad.lo.u32 %R, %R, 8, %R", addr, addr, tail); /* 2 * (lane % 4) columns of 4 bytes */
  } else {
    ptx_reg warp = r32(k);
    ptx_ins(b, "shr.u32 %R, %R, 5", warp, t);
    ptx_ins(b, "shr.u32 %R, %R, 2", addr, lane);
    ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", addr, warp, addr);
    ptx_ins(b, "mad.lo.u32 %R, %R, 4, %R", addr, addr, tail);
  }
  return addr;
}

/* Epilogue of one tile when D rows are 16-byte vectors and beta == 0: each 64-row x 128-byte
 * chunk of the epilogue's values, converted to D's type, is written into the staging buffer in
 * TMA's 128-byte swizzle, and one thread stores it with a bulk tensor copy, which clips rows past
 * m and columns past n. Measured on an H200 (tcj-prof, bf16) against the staged path: 8192x8192x
 * 1024 225 -> 200 us (cooperative), 204 -> 190 us (ping-pong); 4096^3 185.5 -> 183.9; storing
 * straight from registers instead was slower everywhere (4096^3 197.5 us). */
static void emit_epilogue_tma(sm90 *k, const ptx_epi *pe, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  int ces = ptx_elem_size(c->d), cols = PTX_SWIZZLE_LINE / ces, nbs = cols / 8;
  ptx_reg cw = r32(k), warp = r32(k), lane = r32(k), t = r32(k), x = r32(k), tq = r32(k);
  ptx_reg buf = r32(k), rowbase = r32(k), bar_id = r32(k), leader = pred(k), frow = r32(k);
  /* No user function takes this path (ptx_sm90_tma_store): the bias is all that needs each
   * value's place, and it comes from shared memory, addressed by immediates. */
  ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
  ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, k->tid);
  ptx_ins(b, "and.b32 %R, %R, 3", warp, warp);
  ptx_ins(b, "and.b32 %R, %R, 31", lane, k->tid);
  ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", leader, t);
  ptx_ins(b, "add.u32 %R, %R, 1", bar_id, cw); /* named barrier 1 + consumer */
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", buf, cw, TCJ_SM90_EPI_BYTES, k->epi);
  /* This thread's pair of columns (2 * (lane % 4)) at byte bc of a 128-byte row: 16-byte chunk
   * tq = bc / 16, and bc % 16 within it. Its rows r = 16 * warp + lane / 4 and r + 8 share
   * r % 8 = lane / 4 = x, the swizzle's XOR term. */
  ptx_reg sbias = {0}; /* shared address of this thread's first bias value */
  if (c->bias != PTX_BIAS_NONE) sbias = emit_tma_bias(k, pe, buf, bar_id, m0, n0, lane);
  ptx_ins(b, "and.b32 %R, %R, 3", t, lane);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", t, t, 2 * ces); /* bc */
  ptx_ins(b, "shr.u32 %R, %R, 4", tq, t);
  ptx_ins(b, "and.b32 %R, %R, 15", t, t);
  ptx_ins(b, "shr.u32 %R, %R, 2", x, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", frow, warp, x); /* the fragment's row in the 64-row block */
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", rowbase, frow, PTX_SWIZZLE_LINE, buf);
  ptx_ins(b, "add.u32 %R, %R, %R", rowbase, rowbase, t);
  ptx_reg row = r32(k), col = r32(k), q = r32(k), addr = r32(k);
  const char *ct = c->d == PTX_E_BF16 ? "bf16" : "f16";
  for (int j = 0; j < k->msub; j++) {
    ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", row, cw, k->row_split, m0);
    ptx_ins(b, "add.u32 %R, %R, %d", row, row, 64 * j);
    ptx_reg rb[2] = {{0}, {0}}; /* row bias of this thread's two rows of the block */
    if (c->bias == PTX_BIAS_ROW) {
      rb[0] = ptx_new(b, PTX_F32);
      rb[1] = ptx_new(b, PTX_F32);
      ptx_ins(b, "ld.shared.f32 %R, [%R+%d]", rb[0], sbias, 4 * 64 * j);
      ptx_ins(b, "ld.shared.f32 %R, [%R+%d]", rb[1], sbias, 4 * (64 * j + 8));
    }
    for (int ch = 0; ch < c->bn / cols; ch++) {
      /* The buffer is free once the previous bulk store has read it. */
      ptx_ins_if(b, leader, 0, "cp.async.bulk.wait_group.read 0");
      ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
      for (int nbl = 0; nbl < nbs; nbl++) {
        int i = 4 * (ch * nbs + nbl);
        ptx_reg *v = &k->acc[j][i];
        ptx_ins(b, "add.u32 %R, %R, %d", q, tq, nbl * ces / 2);
        ptx_ins(b, "xor.b32 %R, %R, %R", q, q, x);
        ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", addr, q, rowbase);
        ptx_reg bias0[2] = {rb[0], rb[0]}, bias1[2] = {rb[1], rb[1]};
        if (c->bias == PTX_BIAS_COL) {
          bias0[0] = ptx_new(b, PTX_F32);
          bias0[1] = ptx_new(b, PTX_F32);
          ptx_ins(b, "ld.shared.v2.f32 {%R, %R}, [%R+%d]", bias0[0], bias0[1], sbias, 4 * (ch * cols + nbl * 8));
          bias1[0] = bias0[0];
          bias1[1] = bias0[1];
        }
        ptx_reg none = {0};
        int given = c->bias != PTX_BIAS_NONE;
        ptx_epi_apply_bias(b, pe, v, NULL, 2, none, none, given ? bias0 : NULL);
        ptx_epi_apply_bias(b, pe, v + 2, NULL, 2, none, none, given ? bias1 : NULL);
        if (ces == 4) {
          const char *dw = c->d == PTX_E_S32 ? "b32" : "f32";
          ptx_ins(b, "st.shared.v2.%s [%R], {%R, %R}", dw, addr, v[0], v[1]);
          ptx_ins(b, "st.shared.v2.%s [%R+%d], {%R, %R}", dw, addr, 8 * PTX_SWIZZLE_LINE, v[2], v[3]);
        } else {
          ptx_reg w0 = r32(k), w1 = r32(k);
          ptx_ins(b, "cvt.rn.%sx2.f32 %R, %R, %R", ct, w0, v[1], v[0]); /* first source: upper half */
          ptx_ins(b, "cvt.rn.%sx2.f32 %R, %R, %R", ct, w1, v[3], v[2]);
          ptx_ins(b, "st.shared.b32 [%R], %R", addr, w0);
          ptx_ins(b, "st.shared.b32 [%R+%d], %R", addr, 8 * PTX_SWIZZLE_LINE, w1);
        }
      }
      /* Generic-proxy writes become visible to the TMA unit, then one thread stores. */
      ptx_ins(b, "fence.proxy.async.shared::cta");
      ptx_ins(b, "bar.sync %R, %d", bar_id, WARPGROUP);
      ptx_ins(b, "add.u32 %R, %R, %d", col, n0, ch * cols);
      if (c->batched)
        ptx_ins_if(b, leader, 0, "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%R, {%R, %R, %R}], [%R]",
                   k->tmap_d, col, row, k->z, buf);
      else
        ptx_ins_if(b, leader, 0, "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%R, {%R, %R}], [%R]",
                   k->tmap_d, col, row, buf);
      ptx_ins_if(b, leader, 0, "cp.async.bulk.commit_group");
    }
  }
}

/* The tile's epilogue: TMA stores where the config allows them and beta == 0, else staged.
 * Each path reads the epilogue's parameters itself, after the branch: values computed before
 * it would be live into the TMA path, and with 128 accumulators there they spill. */
static void emit_epilogue(sm90 *k, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  ptx_epi pe;
  if (!k->tma_d) {
    ptx_epi_begin(b, k->cfg, &pe, k->m, k->z);
    pe.amax = k->amax;
    emit_epilogue_staged(k, &pe, m0, n0);
    return;
  }
  int staged = ptx_new_label(b), done = ptx_new_label(b);
  ptx_ins_if(b, ptx_epi_beta_nonzero(b), 0, "bra.uni $L%d", staged);
  ptx_epi_begin(b, k->cfg, &pe, k->m, k->z);
  emit_epilogue_tma(k, &pe, m0, n0);
  ptx_ins(b, "bra.uni $L%d", done);
  ptx_label(b, staged);
  ptx_epi_begin(b, k->cfg, &pe, k->m, k->z);
  emit_epilogue_staged(k, &pe, m0, n0);
  ptx_label(b, done);
}

/* ---- fp8 promotion and block scales ---- */

/* Block scales (tcj.h, TCJ_SCALE_BLOCK): A has one scale per row and K tile (bk = 128 fp8
 * elements), B one per 128 columns and K tile; both arrays have kb_count = ceil(k / 128)
 * columns. Each thread's accumulators lie in two rows per 64-row block (the wgmma D fragment:
 * 16 * warp + lane / 4 and 8 below), so it reads 2 * msub A scales and one B scale per K tile. */
typedef struct block_scales {
  ptx_reg frag_row;             /* this thread's first fragment row within its consumer's rows */
  ptx_reg a_row[MAX_MSUB][2];   /* u64: &scale_a[row * kb_count] of the tile's rows (clamped to m - 1) */
  ptx_reg b_col;                /* u64: &scale_b[(n0 / 128) * kb_count] */
  ptx_reg base_a, base_b;       /* u64 */
} block_scales;
typedef struct block_scale_vals { ptx_reg a[MAX_MSUB][2], b; } block_scale_vals;

static void emit_block_scale_setup(sm90 *k, block_scales *bs, ptx_reg cw, ptx_reg lane) {
  ptx_builder *b = k->b;
  ptx_reg warp = r32(k), t = r32(k);
  bs->frag_row = r32(k);
  ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
  ptx_ins(b, "shr.u32 %R, %R, 5", warp, t);
  ptx_ins(b, "shr.u32 %R, %R, 2", t, lane);
  ptx_ins(b, "mad.lo.u32 %R, %R, 16, %R", bs->frag_row, warp, t);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", bs->frag_row, cw, k->row_split, bs->frag_row);
  bs->base_a = r64(k);
  bs->base_b = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_scale_a]", bs->base_a);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", bs->base_a, bs->base_a);
  ptx_ins(b, "ld.param.u64 %R, [p_scale_b]", bs->base_b);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", bs->base_b, bs->base_b);
  for (int j = 0; j < k->msub; j++)
    for (int h = 0; h < 2; h++) bs->a_row[j][h] = r64(k);
  bs->b_col = r64(k);
}

/* The tile's scale rows: A's rows past m read row m - 1 (their results are never stored). */
static void emit_block_scale_tile(sm90 *k, block_scales *bs, ptx_reg m0, ptx_reg n0) {
  ptx_builder *b = k->b;
  int row_bytes = k->kt * 4; /* kb_count floats; the kernel's K is baked, so kt is kb_count */
  ptx_reg last = r32(k), row = r32(k), col = r32(k);
  ptx_ins(b, "sub.u32 %R, %R, 1", last, k->m);
  for (int j = 0; j < k->msub; j++)
    for (int h = 0; h < 2; h++) {
      ptx_ins(b, "add.u32 %R, %R, %R", row, m0, bs->frag_row);
      ptx_ins(b, "add.u32 %R, %R, %d", row, row, 64 * j + 8 * h);
      ptx_ins(b, "min.u32 %R, %R, %R", row, row, last);
      ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", bs->a_row[j][h], row, row_bytes, bs->base_a);
    }
  ptx_ins(b, "shr.u32 %R, %R, 7", col, n0);
  ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", bs->b_col, col, row_bytes, bs->base_b);
}

static void emit_block_scale_load(sm90 *k, const block_scales *bs, ptx_reg kb, block_scale_vals *sv) {
  ptx_builder *b = k->b;
  ptx_reg off = r64(k), addr = r64(k);
  ptx_ins(b, "mul.wide.u32 %R, %R, 4", off, kb);
  for (int j = 0; j < k->msub; j++)
    for (int h = 0; h < 2; h++) {
      sv->a[j][h] = ptx_new(b, PTX_F32);
      ptx_ins(b, "add.u64 %R, %R, %R", addr, bs->a_row[j][h], off);
      ptx_ins(b, "ld.global.nc.f32 %R, [%R]", sv->a[j][h], addr);
    }
  sv->b = ptx_new(b, PTX_F32);
  ptx_ins(b, "add.u64 %R, %R, %R", addr, bs->b_col, off);
  ptx_ins(b, "ld.global.nc.f32 %R, [%R]", sv->b, addr);
}

/* acc += part (scaled: part * scale_a(row) * scale_b). Fragment registers 4i, 4i + 1 are the
 * first row, 4i + 2, 4i + 3 the row 8 below (ptx_wgmma_d_coord). */
static void emit_promote(sm90 *k, const block_scale_vals *sv) {
  ptx_builder *b = k->b;
  for (int j = 0; j < k->msub; j++) {
    ptx_reg s[2] = {{0}, {0}};
    if (sv)
      for (int h = 0; h < 2; h++) {
        s[h] = ptx_new(b, PTX_F32);
        ptx_ins(b, "mul.f32 %R, %R, %R", s[h], sv->a[j][h], sv->b);
      }
    for (int i = 0; i < k->cfg->bn / 2; i++) {
      if (sv) ptx_ins(b, "fma.rn.f32 %R, %R, %R, %R", k->acc[j][i], k->part[j][i], s[(i % 4) / 2], k->acc[j][i]);
      else ptx_ins(b, "add.f32 %R, %R, %R", k->acc[j][i], k->acc[j][i], k->part[j][i]);
    }
  }
}

static void emit_consumer(sm90 *k) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  ptx_ins(b, "setmaxnreg.inc.sync.aligned.u32 %d", CONSUMER_REGS);
  for (int j = 0; j < k->msub; j++)
    for (int i = 0; i < c->bn / 2; i++) {
      k->acc[j][i] = ptx_new(b, ptx_mma_acc_class(c->ab));
      if (k->promote) k->part[j][i] = ptx_new(b, PTX_F32);
    }
  k->amax = ptx_epi_amax_begin(b, c);

  /* Consumer index (warpgroup - 1) and lane. */
  ptx_reg cw = r32(k), lane = r32(k);
  ptx_ins(b, "shr.u32 %R, %R, 7", cw, k->tid);
  ptx_ins(b, "sub.u32 %R, %R, 1", cw, cw);
  ptx_ins(b, "and.b32 %R, %R, 31", lane, k->tid);

  /* Descriptors of stage 0: this consumer's rows of A, all of B. */
  ptx_reg a_addr = r32(k), b_addr = r32(k);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", a_addr, cw, k->row_split * PTX_SWIZZLE_LINE, k->ring);
  ptx_ins(b, "add.u32 %R, %R, %d", b_addr, k->ring, k->a_bytes);
  ptx_reg da0 = emit_desc_base(k, a_addr, k->a_kmajor), db0 = emit_desc_base(k, b_addr, k->b_kmajor);

  ptx_reg is_lane0 = pred(k), always = pred(k), never = pred(k);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", is_lane0, lane);
  ptx_ins(b, "setp.eq.u32 %R, %R, %R", always, lane, lane);
  ptx_ins(b, "setp.ne.u32 %R, %R, %R", never, lane, lane);
  block_scales bs;
  if (c->block_scale) emit_block_scale_setup(k, &bs, cw, lane);

  int tile_loop = ptx_new_label(b), k_loop = ptx_new_label(b), done = ptx_new_label(b);
  ptx_reg stage = r32(k), phase = r32(k), unit = r32(k), m0 = r32(k), n0 = r32(k), kb = r32(k);
  ptx_reg soff = r32(k), prev = r32(k), end = pred(k), more = pred(k), not_first = pred(k), rel = pred(k);
  ptx_reg stage_desc = r64(k);
  ptx_ins(b, "mov.u32 %R, 0", stage);
  ptx_ins(b, "mov.u32 %R, 0", phase);
  ptx_ins(b, "mov.u32 %R, 0", prev);
  ptx_ins(b, "mov.u32 %R, %R", unit, k->unit0);
  /* Ping-pong: consumer c runs the CTA's tiles c, c + 2, ...; the ring holds every tile's
   * stages in order, so it starts kt * c stages in and skips the other consumer's kt after
   * each tile. kpos counts stages modulo 2 * stages (position and phase). */
  ptx_reg step = k->unit_step, kpos = {0}, my_turn = {0}, their_turn = {0}, turn_phase = {0}, leader = {0};
  int ring2 = 2 * k->cfg->stages;
  if (k->pingpong) {
    step = r32(k);
    ptx_ins(b, "shl.b32 %R, %R, 1", step, k->unit_step);
    ptx_ins(b, "mad.lo.u32 %R, %R, %R, %R", unit, cw, k->unit_step, k->unit0);
    kpos = r32(k);
    ptx_ins(b, "mul.lo.u32 %R, %R, %d", kpos, cw, (int)((int64_t)k->kt % ring2));
    ptx_ins(b, "rem.u32 %R, %R, %d", kpos, kpos, ring2);
    /* turn[c] at turn + 8c: mine, and the other consumer's at turn + 8 - 8c. */
    my_turn = r32(k);
    their_turn = r32(k);
    ptx_reg off = r32(k);
    ptx_ins(b, "shl.b32 %R, %R, 3", off, cw);
    ptx_ins(b, "add.u32 %R, %R, %R", my_turn, k->turn, off);
    ptx_ins(b, "sub.u32 %R, %R, %R", their_turn, k->turn, off);
    ptx_ins(b, "add.u32 %R, %R, 8", their_turn, their_turn);
    turn_phase = r32(k);
    ptx_ins(b, "mov.u32 %R, 0", turn_phase);
    leader = pred(k);
    ptx_reg t = r32(k);
    ptx_ins(b, "and.b32 %R, %R, 127", t, k->tid);
    ptx_ins(b, "setp.eq.u32 %R, %R, 0", leader, t);
  }
  ptx_label(b, tile_loop);
  ptx_ins(b, "setp.ge.u32 %R, %R, %R", end, unit, k->units);
  ptx_ins_if(b, end, 0, "bra.uni $L%d", done);
  emit_tile_origin(k, unit, m0, n0);
  if (k->pingpong) {
    ptx_ins(b, "rem.u32 %R, %R, %d", stage, kpos, k->cfg->stages);
    ptx_ins(b, "div.u32 %R, %R, %d", phase, kpos, k->cfg->stages);
    /* Wait for this consumer's turn at the tensor cores. */
    emit_wait_at(k, my_turn, turn_phase);
    ptx_ins(b, "xor.b32 %R, %R, 1", turn_phase, turn_phase);
  }
  if (k->promote)
    for (int j = 0; j < k->msub; j++)
      for (int i = 0; i < c->bn / 2; i++) ptx_ins(b, "mov.f32 %R, 0f00000000", k->acc[j][i]);
  if (c->block_scale) emit_block_scale_tile(k, &bs, m0, n0);
  emit_k_start(k, kb);
  ptx_label(b, k_loop);
  ptx_ins(b, "shl.b32 %R, %R, 3", soff, stage);
  emit_wait(k, k->full, soff, phase);
  /* This stage's descriptors: stage * stage_bytes >> 4 added to the start address field. */
  ptx_ins(b, "mul.wide.u32 %R, %R, %d", stage_desc, stage, k->stage_bytes >> 4);
  if (k->slices > 1) ptx_ins(b, "setp.ne.u32 %R, %R, %R", not_first, kb, k->kb0);
  else ptx_ins(b, "setp.ne.u32 %R, %R, 0", not_first, kb);
  ptx_ins(b, "wgmma.fence.sync.aligned");
  for (int kk = 0; kk < K_STEPS; kk++) {
    ptx_reg db = r64(k);
    ptx_ins(b, "add.s64 %R, %R, %R", db, db0, stage_desc);
    ptx_ins(b, "add.s64 %R, %R, %u", db, db, ptx_sm90_desc_offset(k->b_kmajor, 0, kk, BOX_BYTES) >> 4);
    for (int j = 0; j < k->msub; j++) {
      ptx_reg da = r64(k);
      ptx_ins(b, "add.s64 %R, %R, %R", da, da0, stage_desc);
      ptx_ins(b, "add.s64 %R, %R, %u", da, da, ptx_sm90_desc_offset(k->a_kmajor, j, kk, BOX_BYTES) >> 4);
      /* The first k step of a tile (promoting: of every K tile) overwrites (scale-d false). */
      emit_wgmma(k, j, da, db, kk == 0 ? (k->promote ? never : not_first) : always);
    }
  }
  ptx_ins(b, "wgmma.commit_group.sync.aligned");
  if (k->promote) {
    /* The partial sums are needed now: wait for them, free the stage, add them into fp32
     * (scaled per 128 K with block scales, their loads issued before the wait). */
    block_scale_vals sv;
    if (c->block_scale) emit_block_scale_load(k, &bs, kb, &sv);
    ptx_ins(b, "wgmma.wait_group.sync.aligned 0");
    emit_release(k, stage, is_lane0);
    emit_promote(k, c->block_scale ? &sv : NULL);
  } else {
    /* One group stays in flight; the one before it is done, so its stage can be refilled. */
    ptx_ins(b, "wgmma.wait_group.sync.aligned 1");
    ptx_ins(b, "and.pred %R, %R, %R", rel, not_first, is_lane0);
    emit_release(k, prev, rel);
    ptx_ins(b, "mov.u32 %R, %R", prev, stage);
  }
  emit_advance(k, stage, phase);
  emit_k_next(k, kb, more);
  ptx_ins_if(b, more, 0, "bra.uni $L%d", k_loop);
  if (k->pingpong) {
    /* Every wgmma of this tile is issued: the other consumer's may queue behind them. */
    ptx_ins_if(b, leader, 0, "mbarrier.arrive.shared::cta.b64 _, [%R]", their_turn);
    ptx_ins(b, "add.u32 %R, %R, %d", kpos, kpos, (int)(2 * (int64_t)k->kt % ring2));
    ptx_ins(b, "rem.u32 %R, %R, %d", kpos, kpos, ring2);
  }
  if (!k->promote) {
    ptx_ins(b, "wgmma.wait_group.sync.aligned 0");
    emit_release(k, prev, is_lane0);
  }
  emit_epilogue(k, m0, n0);
  ptx_ins(b, "add.u32 %R, %R, %R", unit, unit, step);
  ptx_ins(b, "bra.uni $L%d", tile_loop);
  ptx_label(b, done);
  ptx_epi_amax_flush(b, k->amax);
  /* Bulk stores still in flight must finish before the CTA's shared memory goes away. */
  if (k->tma_d) ptx_ins(b, "cp.async.bulk.wait_group 0");
}

int ptx_gen_gemm_sm90(const tcj_kernel_cfg *cfg, const ptx_user_code *user, char **ptx, size_t *len, char *err,
                      size_t err_size) {
  ptx_builder b;
  ptx_init(&b);
  sm90 k;
  memset(&k, 0, sizeof k);
  k.b = &b;
  k.cfg = cfg;
  k.consumers = cfg->warps_m;
  k.pingpong = cfg->pingpong;
  k.rows = k.pingpong ? cfg->bm : cfg->bm / cfg->warps_m;
  k.row_split = k.pingpong ? 0 : k.rows;
  k.msub = k.rows / 64;
  k.cluster = cfg->cluster_m == 2 ? 2 : 1;
  k.a_bytes = cfg->bm * PTX_SWIZZLE_LINE;
  k.b_bytes = cfg->bn * PTX_SWIZZLE_LINE;
  k.stage_bytes = k.a_bytes + k.b_bytes;
  k.kt = (int)((cfg->k + cfg->bk - 1) / cfg->bk);
  k.tiles_n = (int)((cfg->n + cfg->bn - 1) / cfg->bn);
  k.slices = tcj_cfg_slices(cfg);
  k.per = (int)tcj_cfg_slice_tiles(cfg);
  /* The workspace is dense (ldc = n): its rows take 4-element vectors when n allows. */
  k.c_vec = k.slices == 1 ? cfg->vec_c : cfg->n % 4 == 0 ? 4 : cfg->n % 2 == 0 ? 2 : 1;
  k.tma_d = ptx_sm90_tma_store(cfg);
  k.promote = tcj_cfg_promotes(cfg);
  k.a_kmajor = !cfg->op_a_t;
  k.b_kmajor = cfg->op_b_t;
  if (k.msub > MAX_MSUB || cfg->bn / 2 > MAX_ACC || k.tiles_n < 1) {
    snprintf(err, err_size, "sm90 tile %dx%d or n %lld out of range", cfg->bm, cfg->bn, (long long)cfg->n);
    return -1;
  }

  ptx_epi_module_prelude(&b, cfg, user);
  emit_entry(&k);
  k.tid = r32(&k);
  ptx_ins(&b, "mov.u32 %R, %%tid.x", k.tid);
  k.m = r32(&k);
  ptx_ins(&b, "ld.param.u32 %R, [p_m]", k.m);
  /* The tensor maps stay in parameter space; TMA takes their generic address. */
  k.tmap_a = r64(&k);
  k.tmap_b = r64(&k);
  ptx_ins(&b, "mov.b64 %R, p_tmap_a", k.tmap_a);
  ptx_ins(&b, "cvta.param.u64 %R, %R", k.tmap_a, k.tmap_a);
  ptx_ins(&b, "mov.b64 %R, p_tmap_b", k.tmap_b);
  ptx_ins(&b, "cvta.param.u64 %R, %R", k.tmap_b, k.tmap_b);
  if (k.tma_d) {
    k.tmap_d = r64(&k);
    ptx_ins(&b, "mov.b64 %R, p_tmap_d", k.tmap_d);
    ptx_ins(&b, "cvta.param.u64 %R, %R", k.tmap_d, k.tmap_d);
  }
  emit_smem_layout(&k);
  emit_barrier_init(&k);
  emit_schedule_setup(&k);

  ptx_reg is_consumer = pred(&k);
  int consumer = ptx_new_label(&b), finish = ptx_new_label(&b);
  ptx_ins(&b, "setp.ge.u32 %R, %R, %d", is_consumer, k.tid, WARPGROUP);
  ptx_ins_if(&b, is_consumer, 0, "bra.uni $L%d", consumer);
  emit_producer(&k);
  ptx_ins(&b, "bra.uni $L%d", finish);
  ptx_label(&b, consumer);
  emit_consumer(&k);
  ptx_label(&b, finish);
  /* A CTA of a cluster must outlive the other's multicasts into it and remote arrivals. */
  if (k.cluster > 1) {
    ptx_ins(&b, "barrier.cluster.arrive.release");
    ptx_ins(&b, "barrier.cluster.wait.acquire");
  }
  ptx_ins(&b, "ret");
  if (ptx_finish(&b) == 0 && k.slices > 1) {
    ptx_text(&b, "\n");
    ptx_emit_reduce_entry(&b, cfg);
    ptx_finish(&b);
  }
  if (!ptx_failed(&b) && ptx_sm90_has_transpose(cfg)) {
    ptx_text(&b, "\n");
    ptx_emit_transpose_entry(&b, ptx_elem_size(cfg->ab));
    ptx_finish(&b);
  }
  return ptx_take(&b, ptx, len, err, err_size);
}
