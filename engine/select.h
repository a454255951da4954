/* SPDX-License-Identifier: Apache-2.0 */
/* Problem description and kernel selection: problem + device caps -> tcj_kernel_cfg.
 * Pure functions of their inputs (no CUDA), so tools can select for any arch without a GPU. */
#ifndef TCJ_ENG_SELECT_H
#define TCJ_ENG_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "ptxgen/kernel_cfg.h"
#include "ptxgen/recipe.h"
#include "tcj.h"

typedef struct eng_device_caps {
  int sm;             /* 80, 86, 89, 90, 100, ... */
  int arch_suffix;    /* 'a' when compiling for the arch-specific target (sm_90a) */
  int sm_count;
  int max_smem_optin; /* bytes of dynamic shared memory one block may opt in to */
} eng_device_caps;

/* Caps for an arch name ("sm_80", "sm_89", "sm_90a", ...) from a built-in table, for tools
 * that select without a GPU. Returns 0, or -1 for an unknown or unsupported arch. */
int eng_caps_for_arch(const char *arch, eng_device_caps *caps);

/* A validated problem. Alignments are the largest power of two (<= 16) dividing the byte
 * address of every row start of that operand (base pointer and ld * element size). */
typedef struct eng_problem {
  int op_a_t, op_b_t;
  int64_t m, n, k;
  int64_t lda, ldb, ldc;
  ptx_elem ab, c;
  int align_a, align_b, align_c; /* bytes; align_c is D's and C's (when read) together */
  /* tcj_gemm_ex (tcj_gemm: D is C, no bias, no activation, one GEMM). */
  ptx_elem d;     /* D's type */
  int64_t ldd;
  int reads_c;    /* C is given and may be read (beta != 0 or a device beta) */
  ptx_bias bias;
  ptx_elem bias_t;
  ptx_act act;
  int64_t batch;  /* >= 1 */
  int64_t stride_a, stride_b, stride_c, stride_d, stride_bias; /* elements */
  uint64_t user;  /* the user epilogue's hash (tcj_kernel_cfg.user), 0: none */
  int user_t;     /* the user epilogue takes row and column swapped (tcj_kernel_cfg.user_t) */
  /* fp8 (tcj_kernel_cfg's fields of the same names). */
  int b_other, fast_accum, block_scale;
  /* 3xTF32 (tcj_kernel_cfg.tf32x3): eng_problem_split3 rewrote the caller's fp32 problem into
   * the tf32 GEMM its kernel runs over the split pass's parts; src keeps the caller's operands
   * as stored, which the split pass reads. */
  int tf32x3;
  struct eng_split_src { int op_a_t, op_b_t; int64_t k, lda, ldb, stride_a, stride_b; } src;
  /* Grouped GEMM (tcj_gemm_desc.group_mode): tcj_kernel_cfg.grouped (PTX_GROUP_*, 0: none), G
   * groups (the launch's p_group_count; batch stays 1), and the rows per group selection plans
   * for (the caller's hint, else m / G for contiguous groups, m for masked ones; at least 1). m
   * is the total rows (contiguous) or the rows of each entry (masked); stride_b and stride_bias
   * step per group, stride_a, stride_c and stride_d per masked entry. */
  int grouped;
  int64_t groups, group_rows;
  /* fp8 row scales and row_scale (tcj_kernel_cfg's scale_row, row_scale), and the elements
   * from one group's B scales to the next (tcj_gemm_desc.stride_scale_b, a launch value). */
  int scale_row, row_scale;
  int64_t stride_scale_b;
  /* Grouped: B through a pointer array (tcj_gemm_desc.group_b_ptrs: tcj_kernel_cfg.b_ptrs), A's
   * rows through gather indices (gather_a: tcj_kernel_cfg.gather) into A of gather_rows rows (a
   * launch value). */
  int b_ptrs, gather;
  int64_t gather_rows;
  /* Contiguous groups: D's rows through scatter indices (scatter_d, scatter_mode:
   * tcj_kernel_cfg.scatter, PTX_SCATTER_*), into D of scatter_rows rows (a launch value). */
  int scatter;
  int64_t scatter_rows;
} eng_problem;

/* Whether a call of p has nothing to compute: D is empty (m or n 0), or a grouped call has no
 * group. */
static inline int eng_problem_empty(const eng_problem *p) {
  return p->m == 0 || p->n == 0 || (p->grouped && p->groups == 0);
}

/* Columns of op(B), and of the accumulators a tile of n covers: n, or 2n with SwiGLU (its gate
 * and up halves; tcj_cfg_b_cols). Tiles are sized by these. */
static inline int64_t eng_problem_b_cols(const eng_problem *p) { return p->act == PTX_ACT_SWIGLU ? 2 * p->n : p->n; }

/* A problem of one specialised plan: no generic kernel, no tuning, no packing (its kernel and
 * its B's extent are of its own kind): grouped calls, and SwiGLU calls (their kernel bakes n,
 * where the up half starts; its B has 2n columns, which packing does not know). Under
 * TCJ_JIT=async their first call compiles in the caller's thread. */
static inline int eng_problem_one_plan(const eng_problem *p) { return p->grouped || p->act == PTX_ACT_SWIGLU; }

/* The CTAs of a grouped launch of config c (a 1-D grid): tiles_n = ceil(n / bn) times
 * ceil(m / bm) + G for contiguous groups (a bound on sum_g ceil(m_g / bm), as ceil(a / b) <=
 * a / b + 1: the kernel's units past the real tiles exit at once), G * ceil(m / bm) for masked
 * ones. Saturates at INT64_MAX; select refuses more than 2^31 - 1. */
int64_t eng_grouped_units(const eng_problem *p, const tcj_kernel_cfg *c);

/* Elements of K each 3xTF32 part holds: k rounded up to the split pass's chunk of 32 (its
 * three parts of a chunk are one K tile each, PTX_SPLIT_ENTRY), which also keeps every part
 * row 16-byte aligned. */
static inline int64_t eng_split3_kp(int64_t k) { return (k + 31) / 32 * 32; }
/* The tf32 GEMM that computes an fp32 problem p (k > 0) to fp32 accuracy: K' = 3 kp, each chunk
 * of 32 K three K tiles (A_big B_big, A_big B_small, A_small B_big) over the parts the split
 * pass writes, K-major and 16-byte aligned (ptx_split_parts: two or three parts per chunk, by
 * recipe; lda and ldb here are three parts' rows, the launch passes the packed rows). */
void eng_problem_split3(eng_problem *p);

/* Makes a problem built field by field a plain tcj_gemm beyond its GEMM fields: D is C (read
 * when beta says so), no bias, no activation, one entry. Call after setting c and ldc. */
static inline void eng_problem_plain_epilogue(eng_problem *p) {
  p->d = p->c;
  p->ldd = p->ldc;
  p->reads_c = 1;
  p->bias = PTX_BIAS_NONE;
  p->bias_t = PTX_E_F32;
  p->act = PTX_ACT_NONE;
  p->batch = 1;
  p->stride_a = p->stride_b = p->stride_c = p->stride_d = p->stride_bias = 0;
  p->user = 0;
  p->user_t = 0;
  p->fast_accum = p->block_scale = 0;
  p->scale_row = p->row_scale = 0;
  p->stride_scale_b = 0;
  p->b_ptrs = p->gather = p->scatter = 0;
  p->gather_rows = p->scatter_rows = 0;
}

/* What select decides beyond the kernel: whether an operand is first packed into 16-byte
 * aligned scratch with a padded leading dimension: copied as it lies (cudaMemcpy2D-style), or
 * transposed so that an MN-major operand becomes K-major (the sm90 recipe's tf32, s8 and fp8,
 * which wgmma reads K-major only; the config then says op N for A, T for B). */
enum { ENG_PACK_NONE = 0, ENG_PACK_COPY = 1, ENG_PACK_TRANSPOSE = 2 };
/* Not a plan's choice but a 3xTF32 problem's (eng_problem.tf32x3): both operands are written as
 * their parts by the split pass, in the packed shape of a transposing pack (rows of K'). */
enum { ENG_PACK_SPLIT3 = 3 };
typedef struct eng_plan {
  tcj_kernel_cfg cfg;
  int pack_a, pack_b; /* ENG_PACK_* */
} eng_plan;

/* Leading dimension of a packed copy of rows of cols elements: each row padded to a multiple of
 * 16 bytes, so every row start is 16-byte aligned (cp.async 16, TMA strides). */
static inline int64_t eng_packed_ld(int64_t cols, int elem_size) {
  return (cols * elem_size + 15) / 16 * 16 / elem_size;
}

/* Elements between the packed copies of a batched operand's entries (operand A: is_b = 0):
 * one packed matrix, or 0 for a broadcast operand (stride 0), which is packed once. */
int64_t eng_packed_stride(const eng_problem *p, int is_b);

/* Chooses the plan: the sm90 recipe (wgmma + TMA) on sm_90a for f16/bf16 unless the sm80 plan
 * splits K, the sm80 recipe everywhere else. Returns TCJ_SUCCESS or TCJ_ERROR_NOT_SUPPORTED
 * with a reason in why. */
tcj_status eng_select(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                      eng_plan *plan, const char **why);

/* The sm90 recipe's plans for p, best first by its time model (estimated microseconds): each
 * tile of the menu that fits, and that tile split along K where a split is offered (the 128x256
 * tile as the 64x256 ping-pong pair where selection would turn it into one). The first is what
 * eng_select runs when it takes the sm90 recipe. Returns how many were written (at most max,
 * ENG_MAX_CANDIDATES cover all), or -1 with why the recipe cannot run p (e.g. not sm_90a). */
#define ENG_MAX_CANDIDATES 24
/* 1: a fused bias or activation on a dense cooperative 128x256 plan stages its whole tile
 * (select_sm90.c's whole_tile_epilogue) instead of moving to ping-pong 64x256 tiles. 0 until
 * that kernel has run on a GPU (test_gemm_ex_gpu's whole-tile table runs it, forced by TCJ_TILE
 * "/ew") and tcj-prof has timed it against the ping-pong plan. */
#define ENG_SM90_FUSED_WHOLE_TILE 0
typedef struct eng_candidate {
  eng_plan plan;
  double est_us;
} eng_candidate;
int eng_sm90_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_candidate *out,
                        int max, const char **why);

/* ---- tuning knobs: measuring other choices without rebuilding ---------------------------- */

/* A forced tile shape (TCJ_TILE="BMxBNxBK_BYTES/WMxWN/STAGES[/c2][/pp][/sN|/scN]", e.g.
 * "128x256x128/2x4/3"): for sm90 configs WMxWN is the grid of consumer warpgroups and "/c2" asks
 * for 2-CTA clusters along M, "/pp" ping-pong consumers. "/sN" forces N K slices (N 0 or 1: no
 * split) reduced through the workspace, "/scN" N slices reduced in a cluster (sm80 recipe,
 * sm_90 and newer); without either the selected split stays where the tile can take it.
 * valid == 0: no override. */
typedef struct eng_tile_override {
  int valid, bm, bn, bk_bytes, warps_m, warps_n, stages, cluster_m, cluster_n, pingpong, epi_whole;
  int split_set, split_k, split_cluster;
} eng_tile_override;

typedef struct eng_tuning {
  const ptx_recipe_row *recipe; /* TCJ_RECIPE: the row select must take; NULL: its own choice */
  eng_tile_override tile;
  int generic; /* TCJ_JIT=generic (tcj_options.jit_mode TCJ_JIT_GENERIC): generic kernels only */
} eng_tuning;

/* The generic plan for p (tcj_kernel_cfg.generic, select_generic.c): the recipe,
 * packing, alignment class and epilogue of the problem's class on few tiles, without what a
 * generic kernel cannot bake (a cluster split, a cluster along N) or is not worth a kernel of
 * its own (clusters, ping-pong). Its config has n = k = 0: one kernel serves every n and k of
 * the class; a K split through the workspace stays in the plan, its count a launch value.
 * A forced recipe or tile (tuning) is generalised as forced. TCJ_ERROR_NOT_SUPPORTED with why
 * for problems no generic kernel runs (block-scaled fp8). */
tcj_status eng_select_generic(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                              const eng_tuning *tuning, eng_plan *plan, const char **why);

/* Parses TCJ_RECIPE text: a row that may be forced ("sm80", "sm90"), or "auto" (as unset: NULL).
 * Returns 0, or -1 when malformed. */
int eng_recipe_parse(const char *text, const ptx_recipe_row **out);
/* NULL when caps can run a forced recipe at all, else why not (sm90 needs sm_90a; the sm80
 * recipe's own limits are reported per problem, as without TCJ_RECIPE). */
const char *eng_recipe_check(const ptx_recipe_row *recipe, const eng_device_caps *caps);

/* Parses TCJ_TILE text; returns 0, or -1 when malformed. */
int eng_tile_override_parse(const char *text, eng_tile_override *out);
/* The TCJ_TILE text that forces c's tile, stages, cluster, ping-pong and K split (always
 * spelled: "/s0" for none), so that TCJ_RECIPE=<c's recipe> with it reproduces c for the same
 * problem. Returns the length, or -1 when buf is too small. */
int eng_tile_override_format(const tcj_kernel_cfg *c, char *buf, size_t size);
/* Applies a valid override to plan->cfg; returns NULL, or why the forced tile cannot run. */
const char *eng_tile_override_apply(const eng_tile_override *ov, const eng_device_caps *caps,
                                    eng_plan *plan);

/* TCJ_JIT text -> a tcj_jit_mode (NULL or empty: TCJ_JIT_DEFAULT), or -1 when malformed. */
int eng_jit_mode_parse(const char *text);

/* Reads TCJ_RECIPE, TCJ_TILE and TCJ_JIT. Returns NULL, or a message naming the malformed
 * variable. */
const char *eng_tuning_from_env(eng_tuning *out);

/* eng_select under tuning (NULL: none): the forced recipe, then the forced tile, and with
 * tuning->generic the generic plan (eng_select_generic). A problem the forced recipe cannot run,
 * or a forced tile that does not fit the plan, is TCJ_ERROR_NOT_SUPPORTED with a reason naming
 * the variable. */
tcj_status eng_select_tuned(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            const eng_tuning *tuning, eng_plan *plan, const char **why);

#endif
