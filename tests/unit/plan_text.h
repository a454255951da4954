/* A plan as one line of text (its config, then its packing), for comparing two plans whole in the
 * selection tests. Include after cmocka.h. */
#ifndef TCJ_TESTS_PLAN_TEXT_H
#define TCJ_TESTS_PLAN_TEXT_H

#include <stdio.h>

#include "engine/select.h"

static inline void plan_text(const eng_plan *plan, char *buf, size_t size) {
  int n = tcj_cfg_format(&plan->cfg, buf, size);
  assert_true(n > 0);
  snprintf(buf + n, size - (size_t)n, " pack %d %d", plan->pack_a, plan->pack_b);
}

#endif
