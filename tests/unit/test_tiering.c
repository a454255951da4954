/* SPDX-License-Identifier: Apache-2.0 */
/* When TCJ_JIT=async specialises a class (engine/tiering.h): at its TIER_HOT_CALLS-th call, or
 * at its first when it is big, once; many classes; shutdown without a worker. No GPU: the
 * counting and the queue's bookkeeping only (the worker is tested on a GPU). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "engine/tiering.h"

static void a_small_class_is_specialised_at_its_hot_call_once(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  for (int call = 1; call <= 3 * TIER_HOT_CALLS; call++) {
    int now = eng_tier_count(&t, "recipe=sm90 n=100", 1000);
    assert_int_equal(now & ENG_TIER_QUEUE, call == TIER_HOT_CALLS);
    assert_int_equal(!!(now & ENG_TIER_FIRST), call == 1); /* async then looks for it on disk */
  }
  eng_tier_shutdown(&t);
}

static void a_big_class_is_specialised_at_its_first_call(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  assert_int_equal(eng_tier_count(&t, "big", TIER_BIG_FLOP), ENG_TIER_QUEUE | ENG_TIER_FIRST);
  assert_int_equal(eng_tier_count(&t, "big", TIER_BIG_FLOP), 0);
  assert_int_equal(eng_tier_count(&t, "just below", TIER_BIG_FLOP - 1), ENG_TIER_FIRST);
  eng_tier_shutdown(&t);
}

/* Thousands of classes, counted apart (the table grows), each specialised at its own hot call. */
static void many_classes_are_counted_apart(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  enum { CLASSES = 5000 };
  char text[64];
  int queued = 0;
  for (int call = 1; call <= TIER_HOT_CALLS; call++)
    for (int c = 0; c < CLASSES; c++) {
      snprintf(text, sizeof text, "class %d", c);
      int now = eng_tier_count(&t, text, 0) & ENG_TIER_QUEUE;
      assert_int_equal(now, call == TIER_HOT_CALLS);
      queued += now;
    }
  assert_int_equal(queued, CLASSES);
  assert_true(t.used == CLASSES && t.slots >= 2 * CLASSES);
  eng_tier_shutdown(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(a_small_class_is_specialised_at_its_hot_call_once),
    cmocka_unit_test(a_big_class_is_specialised_at_its_first_call),
    cmocka_unit_test(many_classes_are_counted_apart),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
