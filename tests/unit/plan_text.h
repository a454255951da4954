/* SPDX-License-Identifier: Apache-2.0 */
/* A plan as one line of text (its config, then its packing: the text a tuned choice is stored
 * as), for comparing two plans whole in the selection tests. Include after cmocka.h. */
#ifndef TCJ_TESTS_PLAN_TEXT_H
#define TCJ_TESTS_PLAN_TEXT_H

#include "engine/autotune.h"

static inline void plan_text(const eng_plan *plan, char *buf, size_t size) {
  assert_true(eng_autotune_plan_text(plan, buf, size) > 0);
}

#endif
