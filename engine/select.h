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

/* Chooses the plan. Returns TCJ_SUCCESS or TCJ_ERROR_NOT_SUPPORTED with a reason in why. */
tcj_status eng_select(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                      eng_plan *plan, const char **why);

#endif
