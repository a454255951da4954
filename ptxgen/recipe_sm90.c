/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's row (recipe.h): wgmma with TMA loads, a producer warpgroup and persistent
 * CTAs (gemm_sm90.c and the sm90_*.c files), sm_90a only; its config rules, shared memory and
 * grid. */
#include "recipe.h"

#include "ptx_ops.h"
#include "ptxgen.h"
#include "recipes.h"

/* Promotion's registers per consumer thread: the accumulators and the partial sums beside
 * them (a whole second set up to 128 columns, half a set past that). At the kernel's entry
 * count of 168 registers 64 + 64 and 96 + 48 fit and 96 + 96 spilled 904 bytes at 128x192
 * (ptxas 13.0); with setmaxnreg in effect the consumers have 232, and 128 + 64 (128x256)
 * compiles with no spills where nvJitLink, which drops setmaxnreg, spilled 764 bytes (ptxas
 * 13.0). Such tiles need the engine's whole-program compile (engine/ptx_cuda.h). Hence the
 * headroom kept beside them: 24 registers at the entry count, 32 after setmaxnreg (a gathering
 * consumer's 224 hold 128x256's 192 without spills); other budgets, as three consumers have
 * (tcj_cfg_sm90_regs), keep the same. */
enum { PROMOTED_HEADROOM_AT_ENTRY = 168 - 144, PROMOTED_HEADROOM_REBALANCED = 224 - 192 };

static int promoted_registers(const tcj_kernel_cfg *c) {
  int acc = tcj_cfg_sm90_accumulators(c);
  return acc + (c->bn > 128 ? acc / 2 : acc);
}

/* A cooperative tile that stages its whole tile for TMA stores with a bias or an activation
 * converts and applies them straight from its accumulators, all live (ptx_sm90_tma_store): at
 * the entry count of 168 registers that spilled (48 bytes at 128x256 with a column bias and
 * GELU, ptxas 13.0); such tiles are compiled whole, where the consumers hold 232. */
static int fused_whole_tile(const tcj_kernel_cfg *c) {
  return c->epi_whole && !c->pingpong && !tcj_cfg_swiglu(c) && (c->bias != PTX_BIAS_NONE || c->act != PTX_ACT_NONE);
}

static int needs_whole_program_sm90(const tcj_kernel_cfg *c) {
  return fused_whole_tile(c) || (tcj_cfg_promotion_wanted(c) &&
                                 promoted_registers(c) > tcj_cfg_sm90_regs(c).entry - PROMOTED_HEADROOM_AT_ENTRY);
}

/* The sm90 recipe: see gemm_sm90.c for why each limit exists. */
static const char *arch_sm90(int sm, int arch_suffix) {
  return sm == 90 && arch_suffix == 'a' ? NULL : "the sm90 recipe needs sm_90a (wgmma)";
}

static const char *check_sm90(const tcj_kernel_cfg *c) {
  /* Grouped (tcj_cfg_check_grouped has the rules every recipe shares): each cluster and consumer
   * finds its own units' groups. A cluster's CTAs run adjacent tile rows of one group and share
   * its B tile (a unit is their rows: tcj_cfg_group_unit_rows); along N they would need A
   * tiles of one group's rows side by side, which the scheduler's units are not. No ping-pong
   * (its consumers step through the ring a whole tile's K at a time). Clusters take the plain
   * M modes: not K groups, pointer arrays or gathers (not built with them). */
  if (c->grouped && c->cluster_n) return "grouped sm90 kernels run clusters along M only";
  if (c->grouped && c->cluster_m && (ptx_group_k(c->grouped) || c->b_ptrs || c->gather))
    return "grouped sm90 clusters take contiguous or masked M groups without bptrs or gather";
  /* B by pointers and K groups: the producer rewrites the maps per group (sm90_group_maps.c).
   * Gathered rows of A are copied by cp.async (sm90_gather.c), whose byte offsets within a row
   * are 32-bit. */
  if (c->gather && (c->tf32x3 || c->k > INT32_MAX / 2)) return "sm90 gathers take f16, bf16 or fp8 A of k < 2^30";
  /* Ping-pong consumers find their ring positions by counting the other consumer's K tiles, one
   * baked count (sm90_consumer.c): a K group's depth is its group's. Pairs of tile rows in
   * ping-pong have never run. M groups on ping-pong consumers are checked on the GPU (the grouped
   * tests' TCJ_TILE passes) but not selected (select_plan_sm90_grouped says why). */
  if (c->grouped && c->pingpong && (ptx_group_k(c->grouped) || c->cluster_m))
    return "grouped sm90 ping-pong takes M groups (contiguous or masked) without clusters";
  const char *why = arch_sm90(c->sm, c->arch_suffix);
  if (why) return why;
  const ptx_wgmma_type *w = ptx_wgmma_type_of(c->ab);
  if (!w) return "the sm90 recipe takes f16, bf16, tf32, s8, e4m3 or e5m2 operands";
  const char *c_rule = tcj_cfg_check_c_type(c->ab, c->c);
  if (c_rule) return c_rule;
  /* wgmma reads all but 16-bit types K-major only (PTX ISA: no imm-trans for them). */
  if (!w->mn_major && (c->op_a_t || !c->op_b_t)) return "sm90 tf32, s8 and fp8 read both operands K-major (A op N, B op T)";
  /* K groups find their depth on the device: their kernel bakes no k (0). */
  int k_min = ptx_group_k(c->grouped) ? 0 : 1;
  if (!c->generic && (c->n < 0 || c->k < k_min || c->k > INT32_MAX || c->n > INT32_MAX))
    return "n or k out of range (sm90 needs k >= 1)";
  /* Compared by division: bk comes from config text, and bk * size could overflow. */
  if (c->bk != 128 / ptx_elem_size(c->ab)) return "sm90 K tiles are one 128-byte swizzle line";
  if (c->warps_n != 1 || c->warps_m < 1 || c->warps_m > 3) return "sm90 runs 1, 2 or 3 consumer warpgroups along M";
  if (c->pingpong != 0 && c->pingpong != 1) return "pingpong must be 0 or 1";
  if (c->pingpong && c->warps_m != 2) return "ping-pong needs two consumer warpgroups";
  /* Cooperative consumers split the tile's rows; ping-pong consumers each own a whole tile. */
  int rows = c->pingpong ? c->bm : c->bm / c->warps_m;
  if (c->bm % c->warps_m || (rows != 64 && rows != 128)) return "each sm90 consumer owns 64 or 128 rows";
  if (c->bn < 64 || c->bn > 256 || c->bn % 64) return "sm90 bn must be 64, 128, 192 or 256";
  /* Three consumers (192-row tiles: one wave where 128 rows leave a part-full last one) have 128
   * registers each at the entry count and 152 after setmaxnreg (tcj_cfg_sm90_regs): 64 rows of
   * at most 128 columns each, 64 accumulators. */
  if (c->warps_m == 3 && (rows != 64 || c->bn > 128)) return "three sm90 consumers own 64 rows of at most 128 columns each (192x64, 192x128)";
  /* SwiGLU loads the gate and up halves of B's tile apart: an MN-major half is whole 64-column
   * boxes (sm90_producer.c). */
  if (tcj_cfg_swiglu(c) && !c->op_b_t && c->bn % 128) return "swiglu with MN-major B (op_b N) needs sm90 bn 128 or 256";
  int acc = tcj_cfg_sm90_accumulators(c);
  if (acc > 128) return "accumulators exceed 128 registers per thread";
  /* A user function is a call, with every live accumulator around it, and a batched kernel
   * keeps its entry's base addresses: past 96 accumulators per thread (128x192) those spill
   * (48 bytes at 128x256 batched with a row bias and GELU, ptxas 13.0). */
  if ((c->user || (tcj_cfg_fused(c) && (c->batched || c->ab == PTX_E_S8))) && acc > 96)
    return "a user epilogue, or a fused one in a batch or in f64 (s8), needs tiles of at most 96 accumulators per thread (128x192)";
  /* Promotion keeps the wgmma partial sums in registers beside the accumulators: a whole
   * second set up to 128 columns, half a set past that (two column chunks, sm90_consumer.c).
   * 3xTF32 promotes a chunk's three K tiles at once, in one column chunk (sm90_consumer.c). */
  if (c->tf32x3 && c->bn > 128) return "3xTF32 on the sm90 recipe needs bn 64 or 128 (one promotion chunk)";
  if (tcj_cfg_promotion_wanted(c) &&
      promoted_registers(c) > tcj_cfg_sm90_regs(c).consumer - PROMOTED_HEADROOM_REBALANCED)
    return "promotion (fp8, 3xTF32) needs its accumulators and partial sums in 192 registers per thread (up to 128x256; "
           "120 with three consumers)";
  /* Ping-pong consumers keep their turn's state besides: promoted 64x256 with block scales and an
   * fp8 D spilled 52 bytes even with setmaxnreg (ptxas 13.0), and where it compiled it ran
   * slower than cooperative tiles (H200, tcj-prof, same process: e5m2 4096^3 927 TFLOP/s
   * against 1140 on 128x128; e4m3 128x28672x4096 0.83x cuBLASLt), so ping-pong stays within the
   * entry count's budget. */
  if (c->pingpong && tcj_cfg_promotion_wanted(c) &&
      promoted_registers(c) > tcj_cfg_sm90_regs(c).entry - PROMOTED_HEADROOM_AT_ENTRY)
    return "promoted fp8 ping-pong needs its accumulators and partial sums in 144 registers per thread (64x192)";
  /* Block scales: one B scale per 128 columns and K tile, and every sm90 bn works with that: a
   * tile's columns lie in one block (64, 128) or in two (192, which starts at a multiple of 64;
   * 256, two whole blocks): sm90_consumer.c. */
  /* A user epilogue's call keeps every accumulator live: with a 192-column tile's two B scales
   * as well, 64 bytes spilled (ptxas 13.0). */
  if (c->block_scale && c->user && c->bn > 128) return "block-scaled fp8 with a user epilogue needs bn 64 or 128";
  if (c->stages < 2 || c->stages > 8) return "stages must be 2..8";
  /* Whole-tile staging is a mode of the TMA store path. The generator also stages stored rows
   * sent by bulk copies so (ptx_sm90_bulk_rows), but that ran no faster (Qwen3-30B-A3B's
   * down-projection at 8192 tokens, 478 us against 474) and has not been checked on a GPU: off. */
  if (c->epi_whole && !ptx_sm90_tma_store(c))
    return "epi=whole stages the tile for TMA stores of D (16-byte rows, no scattered rows)";
  if (c->align_a != 16 || c->align_b != 16) return "TMA needs 16-byte aligned operands";
  int ces = ptx_elem_size(c->c);
  if ((c->vec_c != 1 && c->vec_c != 2 && c->vec_c != 4 && c->vec_c != 8) || c->vec_c * ces > 16 ||
      c->n % c->vec_c)
    return "C vector must be 1, 2, 4 or 8 elements, at most 16 bytes, dividing n";
  if (c->split_k == 1 || c->split_k < 0 || c->split_k > TCJ_SPLIT_MAX) return "split_k must be 0 (none) or 2..64";
  if (c->split_k && !c->generic && tcj_cfg_slice_tiles(c) * (c->split_k - 1) * c->bk >= c->k)
    return "split_k leaves a slice without K";
  /* Ping-pong consumers step through the ring in whole tiles of kt stages. Cluster pairs may
   * split: both CTAs of a pair run the same (tile pair, slice) units over the same K range. */
  if (c->split_k && c->pingpong) return "sm90 split-K runs cooperative consumers, not ping-pong";
  if (c->split_cluster) return "the sm90 recipe reduces its slices through the workspace";
  if (c->split_k && c->ab == PTX_E_S8) return "sm90 split-K sums fp32 partials: not for s8";
  if (c->cluster_m != 0 && c->cluster_m != 2 && c->cluster_m != 4) return "cluster must be 0 (none), 2 or 4";
  /* Each CTA of a cluster along M loads its part of B: K-major, bn / cluster_m rows of whole
   * 1024-byte swizzle atoms (128x192 fp8 pairs run so, measured on an H100); MN-major, whole
   * 64-column boxes. Half of a 64-column B is too little to be worth a multicast. */
  if (c->cluster_m && (c->bn < 128 || c->bn % (c->op_b_t ? 8 * c->cluster_m : 64 * c->cluster_m)))
    return "a cluster along M splits B in parts: bn 128 or more, whole 8-row swizzle atoms (K-major) or 64-column "
           "boxes (MN-major) each";
  /* Along N each CTA loads its part of A: K-major, bm / cluster_n rows of whole 1024-byte
   * swizzle atoms; MN-major, whole 64-column boxes. */
  if (c->cluster_n != 0 && c->cluster_n != 2 && c->cluster_n != 4) return "cluster_n must be 0 (none), 2 or 4";
  if (c->cluster_n && c->cluster_m) return "a cluster runs along M or along N, not both";
  if (c->cluster_n && c->bm % (c->op_a_t ? 64 * c->cluster_n : 8 * c->cluster_n))
    return "a cluster along N splits A in parts: whole 8-row swizzle atoms (K-major) or 64-column boxes "
           "(MN-major) each";
  return NULL;
}

/* [slack to align to 1024][stages x (A tile, B tile)][epilogue staging of each consumer][the
 * maps rewritten per group][full and empty mbarriers] (kernel_cfg.h: TCJ_SM90_*); ping-pong
 * adds a turn barrier per consumer. */
static int smem_sm90(const tcj_kernel_cfg *c) {
  int ring = c->stages * (c->bm + c->bn) * c->bk * ptx_elem_size(c->ab);
  int staging = c->warps_m * c->warps_n * ptx_sm90_epi_bytes(c), maps = tcj_cfg_sm90_group_maps(c) * TCJ_SM90_MAP_BYTES;
  return TCJ_SM90_ALIGN + ring + staging + maps + 2 * c->stages * 8 + (c->pingpong ? 16 : 0);
}

/* tensormap.replace and tensormap.cp_fenceproxy came with PTX ISA 8.3 (sm90_group_maps.c). */
static int isa_sm90(const tcj_kernel_cfg *c) { return tcj_cfg_sm90_group_maps(c) ? 83 : 0; }

static int64_t cta_scratch_sm90(const tcj_kernel_cfg *c) {
  return (int64_t)tcj_cfg_sm90_map_ring(c) * tcj_cfg_sm90_group_maps(c) * TCJ_SM90_MAP_BYTES;
}

static ptx_grid grid_sm90(const tcj_kernel_cfg *c, int64_t m, int64_t batch, int slots) {
  ptx_grid g = {ptx_sm90_grid(c, m, batch, slots), 1};
  return g;
}

static const ptx_extra_entry *const extras_sm90[] = {&ptx_extra_reduce, &ptx_extra_transpose, &ptx_extra_split, NULL};

#define ELEM(e) (1u << (e))

const ptx_recipe_row ptx_recipe_sm90 = {
    .name = "sm90",
    .entry = PTX_SM90_ENTRY,
    .check = check_sm90,
    .threads = tcj_cfg_sm90_threads,
    .smem_bytes = smem_sm90,
    .grid = grid_sm90,
    .gen = ptx_gen_gemm_sm90,
    .extras = extras_sm90,
    .elems = ELEM(PTX_E_F16) | ELEM(PTX_E_BF16) | ELEM(PTX_E_TF32) | ELEM(PTX_E_S8) | ELEM(PTX_E_E4M3) | ELEM(PTX_E_E5M2),
    .forceable = 1,
    .arch_check = arch_sm90,
    .tensor_maps = 1,
    .persistent = 1,
    .promotion = 1,
    /* 3xTF32: [big | small] for both operands; the producer picks a tile's parts (sm90_x3_coords). */
    .split_parts = 2,
    .needs_whole_program = needs_whole_program_sm90,
    .rebalances_registers = 1,
    .isa_x10 = isa_sm90,
    .cta_scratch_bytes = cta_scratch_sm90,
};
