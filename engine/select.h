/* Problem description and kernel selection: problem + device caps -> tcj_kernel_cfg.
 * Pure functions of their inputs (no CUDA), so tools can select for any arch without a GPU. */
#ifndef TCJ_ENG_SELECT_H
#define TCJ_ENG_SELECT_H

#include <stdint.h>

#include "ptxgen/kernel_cfg.h"
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
  int align_a, align_b, align_c; /* bytes */
} eng_problem;

/* What select decides beyond the kernel: whether an operand is first packed (cudaMemcpy2D-style)
 * into 16-byte aligned scratch with a padded leading dimension. */
typedef struct eng_plan {
  tcj_kernel_cfg cfg;
  int pack_a, pack_b;
} eng_plan;

/* Leading dimension of a packed copy of rows of cols elements: each row padded to a multiple of
 * 16 bytes, so every row start is 16-byte aligned (cp.async 16, TMA strides). */
static inline int64_t eng_packed_ld(int64_t cols, int elem_size) {
  return (cols * elem_size + 15) / 16 * 16 / elem_size;
}

/* Chooses the plan: the sm90 recipe (wgmma + TMA) on sm_90a for f16/bf16 unless the sm80 plan
 * splits K, the sm80 recipe everywhere else. Returns TCJ_SUCCESS or TCJ_ERROR_NOT_SUPPORTED
 * with a reason in why. */
tcj_status eng_select(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                      eng_plan *plan, const char **why);

/* ---- tuning knobs: measuring other choices without rebuilding ---------------------------- */

/* TCJ_RECIPE: which recipe select may choose. */
typedef enum eng_recipe_choice { ENG_RECIPE_AUTO, ENG_RECIPE_SM80, ENG_RECIPE_SM90 } eng_recipe_choice;

/* A forced tile shape (TCJ_TILE="BMxBNxBK_BYTES/WMxWN/STAGES[/c2][/pp]", e.g. "128x256x128/2x4/3"):
 * for sm90 configs WMxWN is the grid of consumer warpgroups and "/c2" asks for 2-CTA clusters
 * along M, "/pp" ping-pong consumers. valid == 0: no override. */
typedef struct eng_tile_override {
  int valid, bm, bn, bk_bytes, warps_m, warps_n, stages, cluster_m, pingpong;
} eng_tile_override;

typedef struct eng_tuning {
  eng_recipe_choice recipe;
  eng_tile_override tile;
} eng_tuning;

/* Parses TCJ_RECIPE text: "sm80", "sm90", or "auto" (as unset). Returns 0, or -1 when malformed. */
int eng_recipe_parse(const char *text, eng_recipe_choice *out);
/* NULL when caps can run a forced recipe at all, else why not (sm90 needs sm_90a; the sm80
 * recipe's own limits are reported per problem, as without TCJ_RECIPE). */
const char *eng_recipe_check(eng_recipe_choice recipe, const eng_device_caps *caps);

/* Parses TCJ_TILE text; returns 0, or -1 when malformed. */
int eng_tile_override_parse(const char *text, eng_tile_override *out);
/* Applies a valid override to plan->cfg; returns NULL, or why the forced tile cannot run. */
const char *eng_tile_override_apply(const eng_tile_override *ov, const eng_device_caps *caps,
                                    eng_plan *plan);

/* Reads TCJ_RECIPE and TCJ_TILE. Returns NULL, or a message naming the malformed variable. */
const char *eng_tuning_from_env(eng_tuning *out);

/* eng_select under tuning (NULL: none): the forced recipe, then the forced tile. A problem the
 * forced recipe cannot run, or a forced tile that does not fit the plan, is
 * TCJ_ERROR_NOT_SUPPORTED with a reason naming the variable. */
tcj_status eng_select_tuned(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            const eng_tuning *tuning, eng_plan *plan, const char **why);

#endif
