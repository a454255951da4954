/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel selection: problem + device caps -> plan (cfg + packing). Deterministic and free of
 * CUDA so that tcj-ptx and the warmup tool select exactly what a device would.
 * This file is the entry: a generic plan (select_generic.c) or the specialised one
 * (select_recipe.c: which recipe, under the knobs). The recipes' heuristics are in
 * select_sm80.c, select_sm90.c and select_dmma.c (what they share in select_shared.c, declared
 * in select_recipes.h), the knobs' parsing in select_knobs.c, the arch table in select_caps.c
 * and the problem helpers of select.h in problem.c. Calls run one way, in that order
 * (scripts/file-cycles.py). */
#include "engine/select.h"

#include "engine/select_recipes.h"

tcj_status eng_select(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                      eng_plan *plan, const char **why) {
  return eng_select_tuned(p, caps, allow_packing, NULL, plan, why);
}

tcj_status eng_select_tuned(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            const eng_tuning *tuning, eng_plan *plan, const char **why) {
  /* A grouped or SwiGLU problem has no generic kernel: TCJ_JIT=generic runs its specialised one
   * (tcj.h), and it packs nothing (eng_problem_one_plan). */
  if (eng_problem_one_plan(p)) allow_packing = 0;
  if (tuning && tuning->generic && !eng_problem_one_plan(p)) return eng_select_generic(p, caps, allow_packing, tuning, plan, why);
  return select_forced(p, caps, allow_packing, tuning, plan, why);
}
