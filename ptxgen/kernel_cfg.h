/* SPDX-License-Identifier: Apache-2.0 */
/* tcj_kernel_cfg: the contract between engine/select, ptxgen and the cache. A plain struct
 * with a canonical one-line text form (cache key, logs, tcj-ptx); parse(format(c)) == c. */
#ifndef TCJ_KERNEL_CFG_H
#define TCJ_KERNEL_CFG_H

#include <stddef.h>
#include <stdint.h>

#include "elem.h"
#include "recipe_list.h"

/* Activations of the fused epilogue (numbered as tcj_activation). */
#define PTX_ACT_LIST(X)            \
  X(PTX_ACT_NONE, "none")          \
  X(PTX_ACT_RELU, "relu")          \
  X(PTX_ACT_GELU, "gelu")          \
  X(PTX_ACT_GELU_TANH, "gelu_tanh") \
  X(PTX_ACT_SILU, "silu")          \
  X(PTX_ACT_SWIGLU, "swiglu")

typedef enum ptx_act {
#define PTX_ACT_ENUM(e, name) e,
  PTX_ACT_LIST(PTX_ACT_ENUM)
#undef PTX_ACT_ENUM
  PTX_ACT_COUNT
} ptx_act;

const char *ptx_act_name(ptx_act a);

/* Where the bias vector runs (numbered as tcj_bias_kind). */
typedef enum ptx_bias { PTX_BIAS_NONE = 0, PTX_BIAS_COL = 1, PTX_BIAS_ROW = 2 } ptx_bias;

typedef struct tcj_kernel_cfg {
  /* The recipe: an index into the recipe table (recipe_list.h). sm80: mma.sync,
   * every arch from sm_80 on. sm90: wgmma + TMA, sm_90a only. dmma: fp64 on the tensor cores'
   * f64 mma.sync (gemm_dmma.c), every arch from sm_80 on. */
  ptx_recipe recipe;
  int sm;          /* target arch number: 80, 86, 89, 90, ... */
  int arch_suffix; /* 'a' for sm_90a-style targets, 0 otherwise */
  ptx_elem ab;     /* operand type (A's; B's too unless b_other) */
  int b_other;     /* fp8 only: B has the other fp8 type (e4m3 x e5m2 or e5m2 x e4m3) */
  ptx_elem c;      /* C's type (as read); D's type when d is unset */
  int op_a_t;      /* 1: op(A) = A^T, A stored k x m (M contiguous) */
  int op_b_t;      /* 1: op(B) = B^T, B stored n x k (K contiguous) */
  int64_t n, k;    /* baked; M is a runtime argument */
  int bm, bn, bk;  /* CTA tile in elements */
  /* sm80: the warp grid of the CTA. sm90: the grid of consumer warpgroups (each 128 threads;
   * one producer warpgroup comes on top). */
  int warps_m, warps_n;
  int stages;
  int align_a, align_b; /* bytes per cp.async of each operand: 16, 8 or 4 (sm90: 16, TMA) */
  /* Elements of C per store (and per load when beta != 0): sm80 1 or 2; sm90 1, 2, 4 or 8, at
   * most 16 bytes and dividing n. */
  int vec_c;
  /* Split-K: 0 = none; S >= 2: S CTAs share each tile's K range, write fp32 partial sums to a
   * workspace, and a second kernel (PTX_REDUCE_ENTRY) adds them and applies alpha/beta. The
   * count of such a workspace split is a launch value (p_slices), not part of the kernel: one
   * kernel serves every count, and the engine keys it by tcj_cfg_kernel_form. A cluster split
   * (split_cluster) bakes its count: the slices form one cluster and unroll their sum. */
  int split_k;
  /* sm80 recipe on sm_90 and newer, 2..8 slices: 1 = the slices of a tile form one thread-block
   * cluster and add their partial sums through distributed shared memory, each CTA applying
   * the epilogue to its share of the tile: one launch, no workspace. */
  int split_cluster;
  /* sm90 only: 0 = no cluster; 2 or 4 = clusters of that many CTAs along M that share each B
   * tile through TMA multicast (each loads its part of it for all). */
  int cluster_m;
  /* sm90 only: 0 = none; 2 or 4 = clusters of that many CTAs along N that share each A tile the
   * same way: few tile rows against a wide weight, where every tile column reads the same A.
   * Not with cluster_m. */
  int cluster_n;
  /* sm90 only: 0 = cooperative (the consumer warpgroups split each tile's rows); 1 = ping-pong
   * (two consumers take alternate tiles, each the whole tile, and take turns at the tensor
   * cores, so one's epilogue runs under the other's mainloop). */
  int pingpong;
  /* sm90 only: 1 = the TMA store path stages each consumer's whole tile of D in shared memory
   * (its own box per 64 rows x 128 bytes) and issues every store at once, leaving them in
   * flight into the next tile's mainloop; 0 = one box at a time, each waiting for the previous
   * box's store to read the buffer. Needs D through TMA (ptx_sm90_tma_store). */
  int epi_whole;
  /* The epilogue (ptxgen/epilogue.h): D = user(act(alpha * acc + beta * C + bias)). */
  ptx_elem d;      /* D's type (as stored); equal to c unless the caller's D differs */
  ptx_bias bias;   /* none, per column (n values) or per row (m values) */
  ptx_elem bias_t; /* the bias vector's type: f16, bf16 or f32 */
  ptx_act act;
  /* 1: a strided batch; every operand's batch stride is a runtime argument (0 broadcasts). */
  int batched;
  /* A user epilogue: a 64-bit hash of its source and of the NVRTC that compiles it; 0: none.
   * The kernel calls tcj_epilogue (its PTX joins the module: ptx_gen_gemm). */
  uint64_t user;
  /* 1: the kernel computes the transpose of the caller's D (a column-major call: tcj_gemm_desc.
   * order), so the user function is given the kernel's column as its row and the kernel's row
   * as its column. Only with user. */
  int user_t;
  /* fp8 operands. fast_accum 1: wgmma accumulates the whole K in its own registers (Hopper's
   * fp8 tensor cores keep fewer mantissa bits than fp32); 0: each K tile's partial sums are
   * added into fp32 accumulators (promotion). block_scale 1: the partial sums are scaled per
   * 128 K by DeepSeek-V3-style scales first (p_scale_a / p_scale_b arrays). Per-tensor scales,
   * the D scale and amax are run-time pointers every fp8 kernel reads. */
  int fast_accum;
  int block_scale;
  /* tf32 only: 1: the operands are fp32 data split into 3xTF32 parts by the split pass
   * (split_tf32.c): the kernel's K is 3 kp, each chunk of 32 K three K tiles that multiply
   * A_big B_big, A_big B_small and A_small B_big, so that its products sum to fp32 accuracy
   * (two parts per chunk that the sm90 producer picks from, three in order for sm80:
   * ptx_split_parts). The tensor cores add into their accumulators with truncation, which over
   * a deep K costs far more than the parts gain, so each chunk's partial sums are added into
   * fp32 registers (round to nearest). The module holds PTX_SPLIT_ENTRY. */
  int tf32x3;
  /* 1: a generic kernel: n and k are run-time arguments (p_n, p_k), not baked, so one kernel
   * serves every problem of its class (recipe, types, ops, tile, alignment class, epilogue).
   * Its canonical config has n = k = 0; the engine passes the problem's. Generic kernels split K
   * through the workspace, the count (1: none) a launch value (tcj_cfg_splits_at_launch: not
   * s8, not f64, not batched); no cluster split and
   * no cluster along N (their arithmetic is baked from n and k), no block scales. */
  int generic;
  /* Grouped GEMM (tcj_gemm_grouped): 0 none; else the kernel runs G groups of rows, each with
   * its own m, found on the device from p_groups (p_group_count entries), so one kernel serves
   * every routing. PTX_GROUP_ENDS32 / ENDS64: contiguous groups, p_groups the int32 / int64 end
   * row of each group in A, C and D (ascending; group g is rows [end[g-1], end[g]), end[-1] =
   * 0); PTX_GROUP_MASKED: group g is the first count[g] rows (int32 p_groups) of entry g of a
   * strided batch of p_m rows each. B (and a bias) of group g are entry g of a strided batch
   * (p_stride_b, p_stride_bias). PTX_GROUP_K_ENDS32 / K_ENDS64: groups along K (weight
   * gradients): p_groups the int32 / int64 end of each group's K range (clamped likewise, to p_k),
   * A and B one matrix each (op_a T, op_b N: K is their row), C, D and the bias entry g of a
   * strided batch; every group writes its D, an empty one too. */
  int grouped;
  /* fp8 row scales (tcj.h, TCJ_SCALE_ROW): p_scale_a holds one float per row of D (a masked
   * group's or a batch entry's m at z * m), p_scale_b one per column (a group's at
   * g * p_stride_scale_b); either pointer 0 means 1. They multiply each value with alpha. */
  int scale_row;
  /* 1: D's row i is multiplied by p_row_scale[i] (z * m + i for a masked group or a batch
   * entry) after the activation and user function, before the D scale and amax. */
  int row_scale;
  /* Grouped (M groups) only: 1: p_b holds the device address of an array of G device pointers,
   * group g's B at its entry g (loaded once per tile) instead of p_b + g * p_stride_b. */
  int b_ptrs;
  /* Contiguous groups with A op N only: 1: row r of the problem reads row p_gather[r] (int32) of
   * A, which has p_gather_rows rows; an index outside [0, p_gather_rows) reads zeros. C, D and
   * every per-row value stay in the problem's row order. */
  int gather;
  /* Contiguous groups only (the MoE combine; PTX_SCATTER_*): row r of the problem goes to row
   * p_scatter[r] (int32) of D, which has p_scatter_rows rows: stored (STORE), or added by f32
   * atomics (ADD: D is f32); an index outside [0, p_scatter_rows) writes nothing; C is not
   * read. Every other per-row value stays in the problem's row order. The sm90 recipe stores
   * such tiles through its staged path (a TMA store writes whole boxes of consecutive rows). */
  int scatter;
} tcj_kernel_cfg;

/* tcj_kernel_cfg.grouped. */
enum {
  PTX_GROUP_NONE = 0,
  PTX_GROUP_ENDS32 = 1,
  PTX_GROUP_ENDS64 = 2,
  PTX_GROUP_MASKED = 3,
  PTX_GROUP_K_ENDS32 = 4,
  PTX_GROUP_K_ENDS64 = 5,
};

/* tcj_kernel_cfg.scatter. */
enum { PTX_SCATTER_NONE = 0, PTX_SCATTER_ADD = 1, PTX_SCATTER_STORE = 2 };

/* Groups along K (PTX_GROUP_K_*), and whether the ends (M or K) are int64. */
static inline int ptx_group_k(int grouped) { return grouped == PTX_GROUP_K_ENDS32 || grouped == PTX_GROUP_K_ENDS64; }
static inline int ptx_group_wide(int grouped) { return grouped == PTX_GROUP_ENDS64 || grouped == PTX_GROUP_K_ENDS64; }

/* Sets the epilogue fields to "none" with D of type c (what a plain tcj_gemm needs). Config
 * initialisers that zero the struct get d = f16; every producer of configs calls this. */
static inline void tcj_cfg_plain_epilogue(tcj_kernel_cfg *c) {
  c->d = c->c;
  c->bias = PTX_BIAS_NONE;
  c->bias_t = PTX_E_F32;
  c->act = PTX_ACT_NONE;
  c->batched = 0;
  c->user = 0;
  c->user_t = 0;
}

/* Canonical text. Returns the length written (excluding NUL) or -1 if it did not fit. */
int tcj_cfg_format(const tcj_kernel_cfg *cfg, char *buf, size_t size);
/* Parses text produced by tcj_cfg_format. Returns 0 on success, -1 on malformed text. */
int tcj_cfg_parse(const char *text, tcj_kernel_cfg *cfg);
/* Static checks of a config that ptxgen relies on (recipe_table.c: the generic rules, its
 * recipe's, then the epilogue's); returns NULL if fine, else a reason. */
const char *tcj_cfg_check(const tcj_kernel_cfg *cfg);
/* The rules every recipe shares, for tcj_cfg_check: a generic kernel's, and the epilogue's
 * (promotion: the recipe's, ptx_recipe.promotion, where block scales are applied). */
const char *tcj_cfg_check_generic(const tcj_kernel_cfg *cfg);
const char *tcj_cfg_check_epilogue(const tcj_kernel_cfg *cfg, int promotion);
/* A grouped kernel's rules that hold on any recipe (kernel_cfg.c); the rows refuse it where they
 * do not run it. */
const char *tcj_cfg_check_grouped(const tcj_kernel_cfg *cfg);
/* NULL when C of type c fits operands of type ab, else the rule. */
const char *tcj_cfg_check_c_type(ptx_elem ab, ptx_elem c);
/* The operand type's own epilogue rule (the element table's: s8 a bias and ReLU, f64 none). */
const char *tcj_cfg_check_epilogue_type(const tcj_kernel_cfg *cfg);
const char *tcj_recipe_name(ptx_recipe r); /* "sm80", "sm90", "dmma"; "?" outside the table */

/* Derived facts. */
/* cfg as the host computes a launch of it for a problem of n columns and depth k: a generic
 * config's n and k are the problem's (tensor maps, grid); a specialised one has them baked. */
static inline tcj_kernel_cfg tcj_cfg_for_problem(const tcj_kernel_cfg *c, int64_t n, int64_t k) {
  tcj_kernel_cfg run = *c;
  if (run.generic) {
    run.n = n;
    run.k = k;
  }
  if (ptx_group_k(run.grouped)) run.k = k; /* K groups read their ranges on the device; maps span all K */
  return run;
}
/* Rows of a grouped kernel's work unit: a tile's, or a cluster's tiles along M (sm90: the CTAs of
 * a pair run adjacent tile rows of one group and share its B tile by multicast). */
static inline int tcj_cfg_group_unit_rows(const tcj_kernel_cfg *c) {
  return c->bm * (c->cluster_m >= 2 ? c->cluster_m : 1);
}
/* B's operand type. */
static inline ptx_elem tcj_cfg_b_type(const tcj_kernel_cfg *c) {
  if (!c->b_other) return c->ab;
  return c->ab == PTX_E_E4M3 ? PTX_E_E5M2 : PTX_E_E4M3;
}
/* fp8 (without fast accumulation) and 3xTF32 on a recipe that promotes (the sm90 one) add
 * each K tile's partial sums into fp32 registers: a second accumulator set. */
int tcj_cfg_promotes(const tcj_kernel_cfg *c);
/* 1 when cfg compiles without spills only as one whole program, where ptxas honours setmaxnreg
 * (recipe.h, ptx_recipe_row.needs_whole_program): the engine offers such configs only where it
 * can compile them so (eng_whole_program_expected). */
int tcj_cfg_needs_whole_program(const tcj_kernel_cfg *c);
/* 1 when cfg's kernel moves registers between warpgroups with setmaxnreg (its recipe's
 * ptx_recipe_row.rebalances_registers): the kernels the engine compiles whole where it can. */
int tcj_cfg_rebalances_registers(const tcj_kernel_cfg *c);
/* What promotion takes where the recipe promotes: fp8 without fast accumulation, or 3xTF32. */
static inline int tcj_cfg_promotion_wanted(const tcj_kernel_cfg *c) {
  return (ptx_elem_is_fp8(c->ab) && !c->fast_accum) || c->tf32x3;
}
int tcj_cfg_threads(const tcj_kernel_cfg *c); /* per CTA: the recipe's (recipe.h) */
/* Threads of a CTA of warps_m x warps_n warps (the sm80 and dmma recipes). */
static inline int tcj_cfg_warp_threads(const tcj_kernel_cfg *c) { return 32 * c->warps_m * c->warps_n; }
/* Threads of an sm90 CTA: the consumer warpgroups and one producer warpgroup. */
static inline int tcj_cfg_sm90_threads(const tcj_kernel_cfg *c) { return 128 * (1 + c->warps_m * c->warps_n); }
/* sm90 register budgets per thread (PTX ISA "setmaxnreg"). Every thread starts at the entry
 * count (.maxnreg): 168, or less where the CTA's threads would exceed the 65536 registers an SM
 * gives one CTA (512 threads: 128), in steps of 8. The producer warpgroup then drops to its
 * count and the consumers grow into what it released: .inc waits until the pool the CTA was
 * launched with holds their registers, so producer + consumers never exceed threads x entry.
 * Two consumers: 384 x 168 = 64512 = 128 x 40 + 256 x 232 (128 x 56 + 256 x 224 where the
 * producer copies gathered rows itself, sm90_gather.c: 40 spilled 16 bytes there); three: 512 x
 * 128 = 65536 holds 128 x 40 + 384 x 152. */
typedef struct tcj_sm90_regs { int entry, producer, consumer; } tcj_sm90_regs;
tcj_sm90_regs tcj_cfg_sm90_regs(const tcj_kernel_cfg *c);
#define TCJ_SPLIT_MAX 64 /* most K slices of a split */
static inline int tcj_cfg_slices(const tcj_kernel_cfg *c) { return c->split_k >= 2 ? c->split_k : 1; }
/* The slices' partial sums go through a global workspace and the reduction entry. */
static inline int tcj_cfg_split_workspace(const tcj_kernel_cfg *c) { return c->split_k >= 2 && !c->split_cluster; }
/* A generic kernel that takes its K split at launch (p_slices, 1: none): every one but s8's
 * (its s32 sums would round through fp32), f64's (f64 runs on the dmma recipe, which has no
 * split: fp32 partial sums would lose its precision) and batched ones (a batch fills the GPU:
 * batched kernels do not split). */
static inline int tcj_cfg_splits_at_launch(const tcj_kernel_cfg *c) {
  return c->generic && c->ab != PTX_E_S8 && c->ab != PTX_E_F64 && !c->batched;
}
/* The kernel a plan runs: the plan with a workspace split's count, a launch value, set to 2, so
 * that plans that differ only in it (another SM count, another k) share one kernel, its text
 * the memo and cache key; ptxgen emits the same PTX for every count. A generic kernel takes any
 * count at launch, 1 (no split) included: its form has none. */
static inline tcj_kernel_cfg tcj_cfg_kernel_form(const tcj_kernel_cfg *c) {
  tcj_kernel_cfg kernel = *c;
  if (tcj_cfg_split_workspace(c)) kernel.split_k = tcj_cfg_splits_at_launch(c) ? 0 : 2;
  return kernel;
}
/* CTAs of an sm90 cluster: cluster_m or cluster_n, else 1. */
static inline int tcj_cfg_cluster_ctas(const tcj_kernel_cfg *c) {
  return c->cluster_m >= 2 ? c->cluster_m : c->cluster_n >= 2 ? c->cluster_n : 1;
}
/* Most CTAs in a portable cluster (CUDA programming guide, thread block clusters). */
#define TCJ_CLUSTER_MAX 8
/* K tiles each slice runs: ceil(ceil(k / bk) / slices). */
static inline int64_t tcj_cfg_slice_tiles(const tcj_kernel_cfg *c) {
  int64_t kt = (c->k + c->bk - 1) / c->bk, s = tcj_cfg_slices(c);
  return (kt + s - 1) / s;
}
int tcj_cfg_smem_bytes(const tcj_kernel_cfg *cfg); /* dynamic shared memory of the kernel: the recipe's */
/* dmma: each operand tile in shared memory as it lies in global memory, rows padded by this:
 * a pitch of 32 modulo 128 bytes puts the four rows (K-major) or K rows (MN-major) that a
 * half-warp's f64 fragment load spans on banks 8 apart, so the 16 lanes take one wavefront. */
#define TCJ_DMMA_ROW_PAD 32
/* The epilogue does more than alpha and beta: a bias, an activation, a user function, or
 * per-element scales (fp8 row scales, row_scale). */
static inline int tcj_cfg_fused(const tcj_kernel_cfg *c) {
  return c->bias != PTX_BIAS_NONE || c->act != PTX_ACT_NONE || c->user != 0 || c->scale_row || c->row_scale;
}
/* SwiGLU (act swiglu): D has n columns and op(B) 2n, gate columns [0, n) then up columns
 * [n, 2n). A tile's bn accumulator columns are bn / 2 gate columns and the matching bn / 2 up
 * columns (sm90: the gate half then the up half; sm80: n8 blocks interleaved, even blocks gate,
 * odd blocks up), paired in registers by ptx_epi_swiglu: each tile writes bn / 2 columns of D. */
static inline int tcj_cfg_swiglu(const tcj_kernel_cfg *c) { return c->act == PTX_ACT_SWIGLU; }
/* Columns of D a tile writes. */
static inline int tcj_cfg_tile_cols(const tcj_kernel_cfg *c) { return tcj_cfg_swiglu(c) ? c->bn / 2 : c->bn; }
/* Columns of op(B): 2n with SwiGLU, else n. */
static inline int64_t tcj_cfg_b_cols(const tcj_kernel_cfg *c) { return tcj_cfg_swiglu(c) ? 2 * c->n : c->n; }
/* sm90: fp32 (s32) accumulators per consumer thread: the consumer's rows (the tile's, or its
 * share of them when cooperative) in 64-row wgmma blocks, bn / 2 each. */
static inline int tcj_cfg_sm90_accumulators(const tcj_kernel_cfg *c) {
  int rows = c->pingpong ? c->bm : c->bm / (c->warps_m > 0 ? c->warps_m : 1);
  return rows / 64 * c->bn / 2;
}

/* sm90 grouped kernels whose operands no map over one base reaches (sm90_group_maps.c): the tensor
 * maps each CTA rewrites per group (B by pointers: B's; K groups: A's and B's; else 0), and the
 * ring of global slots it keeps them in (stages + 1, 0 without maps), which the engine gives in
 * p_work (128 bytes per map and slot). */
int tcj_cfg_sm90_group_maps(const tcj_kernel_cfg *c);
int tcj_cfg_sm90_map_ring(const tcj_kernel_cfg *c);

/* sm90 shared memory: [slack to align to 1024][stages x (A tile, B tile)][epilogue staging of
 * each consumer][the maps rewritten per group: 128 bytes each][full and empty mbarriers]. The
 * 128-byte swizzle atom is 1024 bytes, so tiles
 * start 1024-aligned. Staging holds 64 rows x 32 fp32 accumulators at a 160-byte pitch (the
 * 32-byte pad keeps the fragment writes free of bank conflicts). */
#define TCJ_SM90_ALIGN 1024
#define TCJ_SM90_EPI_ROWS 64
#define TCJ_SM90_EPI_COLS 32
#define TCJ_SM90_EPI_PITCH 160
#define TCJ_SM90_EPI_BYTES (TCJ_SM90_EPI_ROWS * TCJ_SM90_EPI_PITCH)
/* The bulk-row store path's row pitch (128 bytes and a 16-byte pad; sm90_epilogue.c). */
#define TCJ_SM90_ROWS_PITCH (128 + 16)
#define TCJ_SM90_MAP_BYTES 128 /* one tensor map (CUtensorMap) */

#endif
