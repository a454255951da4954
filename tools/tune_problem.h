/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-warmup --tune: one manifest problem run once through an engine with the autotuner on
 * (engine/autotune.h), on operands of its own, so that the tuned choice lands in the engine's
 * disk cache beside the kernels. */
#ifndef TCJ_TOOLS_TUNE_PROBLEM_H
#define TCJ_TOOLS_TUNE_PROBLEM_H

#include <stddef.h>

#include "tcj.h"
#include "tools/gemm_problem.h"

/* e must have been created with TCJ_TUNE=1 (and no TCJ_RECIPE or TCJ_TILE).
 * Allocates p's operands on the engine's GPU (random values: uniform in [-1, 1], s8 in [-8, 8],
 * fp8 of magnitude 1/8 to 1; scales of 1), runs one tcj_gemm_ex with the tuner on, waits for
 * it, and frees them. choice: the plan the engine now runs p with (gemm_plan_format).
 * Returns TCJ_SUCCESS, or an error with its cause in err. */
tcj_status tune_problem(tcj_engine *e, const gemm_problem *p, char *choice, size_t choice_size, char *err,
                        size_t err_size);

#endif
