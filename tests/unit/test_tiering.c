/* SPDX-License-Identifier: Apache-2.0 */
/* When TCJ_JIT=async specialises a class (engine/tiering.h): at its TIER_HOT_CALLS-th call, or
 * at its first when it is big, once; many classes; a failed build retried, then given up; the
 * generic memo; shutdown without a worker. No GPU: the counting and the bookkeeping only (the
 * worker and the queue through an engine on a fake driver: test_async.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/tiering.h"

/* The class key of a kernel text, as the async path computes it. */
static uint64_t key_of(const char *text) { return eng_tier_class_key(cache_kernel_table_hash(text)); }

static void a_small_class_is_specialised_at_its_hot_call_once(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  for (int call = 1; call <= 3 * TIER_HOT_CALLS; call++) {
    int now = eng_tier_count(&t, key_of("recipe=sm90 n=100"), 1000);
    assert_int_equal(now & ENG_TIER_QUEUE, call == TIER_HOT_CALLS);
    assert_int_equal(!!(now & ENG_TIER_FIRST), call == 1); /* async then looks for it on disk */
  }
  eng_tier_shutdown(&t);
}

static void a_big_class_is_specialised_at_its_first_call(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  assert_int_equal(eng_tier_count(&t, key_of("big"), TIER_BIG_FLOP), ENG_TIER_QUEUE | ENG_TIER_FIRST);
  assert_int_equal(eng_tier_count(&t, key_of("big"), TIER_BIG_FLOP), 0);
  assert_int_equal(eng_tier_count(&t, key_of("just below"), TIER_BIG_FLOP - 1), ENG_TIER_FIRST);
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
      int now = eng_tier_count(&t, key_of(text), 0) & ENG_TIER_QUEUE;
      assert_int_equal(now, call == TIER_HOT_CALLS);
      queued += now;
    }
  assert_int_equal(queued, CLASSES);
  assert_true(t.used == CLASSES && t.slots >= 2 * CLASSES);
  eng_tier_shutdown(&t);
}

/* Calls until the class is queued; returns how many it took (0: never, within `most`). */
static int calls_to_queue(eng_tiering *t, uint64_t key, uint64_t flop, int most) {
  for (int call = 1; call <= most; call++)
    if (eng_tier_count(t, key, flop) & ENG_TIER_QUEUE) return call;
  return 0;
}

/* A failed background build is not the end of the class's chances: it is counted from zero and
 * queued again at its next hot point, TIER_BUILD_ATTEMPTS builds in all; the last failure makes
 * it generic for good (reported once), and it is never queued again. */
static void a_failed_build_is_retried_at_the_next_hot_point_then_given_up(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  uint64_t k = key_of("a class whose compile fails");
  for (int attempt = 1; attempt <= TIER_BUILD_ATTEMPTS; attempt++) {
    assert_int_equal(calls_to_queue(&t, k, 0, 10 * TIER_HOT_CALLS), TIER_HOT_CALLS);
    assert_int_equal(eng_tier_count(&t, k, 0), 0); /* queued: not counted, not queued twice */
    int gave_up = eng_tier_built(&t, k, 0);
    if (gave_up != (attempt == TIER_BUILD_ATTEMPTS))
      print_error("attempt %d of %d: gave up %d\n", attempt, TIER_BUILD_ATTEMPTS, gave_up);
    assert_int_equal(gave_up, attempt == TIER_BUILD_ATTEMPTS);
  }
  assert_int_equal(calls_to_queue(&t, k, TIER_BIG_FLOP, 1000), 0);
  eng_tier_shutdown(&t);
}

/* A big class retries at its next call (it would at its first). */
static void a_big_class_whose_build_failed_is_queued_again_at_its_next_call(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  uint64_t k = key_of("big, failing");
  assert_int_equal(calls_to_queue(&t, k, TIER_BIG_FLOP, 5), 1);
  assert_int_equal(eng_tier_built(&t, k, 0), 0);
  assert_int_equal(calls_to_queue(&t, k, TIER_BIG_FLOP, 5), 1);
  eng_tier_shutdown(&t);
}

/* A built class is never queued again (its calls find the kernel in the table). */
static void a_built_class_is_not_queued_again(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  uint64_t k = key_of("built");
  assert_int_equal(calls_to_queue(&t, k, 0, 100), TIER_HOT_CALLS);
  assert_int_equal(eng_tier_built(&t, k, 1), 0);
  assert_int_equal(calls_to_queue(&t, k, TIER_BIG_FLOP, 1000), 0);
  eng_tier_shutdown(&t);
}

static eng_problem problem(int64_t m, int64_t n, int64_t k) {
  eng_problem p;
  memset(&p, 0, sizeof p); /* as validation makes one: compared bytewise */
  p.m = m;
  p.n = n;
  p.k = k;
  p.ab = PTX_E_BF16;
  p.c = PTX_E_BF16;
  eng_problem_plain_epilogue(&p);
  return p;
}

/* The generic memo gives back what was put for the same problem only, with its tensor maps; a
 * set holds two problems, the least recently used goes. */
static void the_generic_memo_gives_back_the_plan_of_the_same_problem_only(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  eng_problem p = problem(64, 64, 64), q = problem(65, 64, 64);
  eng_generic_memo m, out;
  memset(&m, 0, sizeof m);
  assert_int_equal(eng_generic_memo_get(&t, &p, eng_generic_memo_key(&p), &out), 0);
  m.problem = p;
  m.key = eng_generic_memo_key(&p);
  m.plan.cfg.bm = 128;
  m.kernel.threads = 384;
  m.tmaps.valid = 1;
  m.tmaps.a = 0x1000;
  eng_generic_memo_put(&t, &m);
  assert_int_equal(eng_generic_memo_get(&t, &p, eng_generic_memo_key(&p), &out), 1);
  assert_int_equal(out.plan.cfg.bm, 128);
  assert_int_equal(out.kernel.threads, 384);
  assert_int_equal(out.tmaps.a, 0x1000);
  assert_int_equal(eng_generic_memo_get(&t, &q, eng_generic_memo_key(&q), &out), 0);
  /* The same key with another problem (a forced collision) is a miss, never p's plan. */
  assert_int_equal(eng_generic_memo_get(&t, &q, eng_generic_memo_key(&p), &out), 0);
  eng_tier_shutdown(&t);
}

static void a_generic_memo_set_keeps_its_two_most_recent_problems(void **state) {
  (void)state;
  eng_tiering t;
  eng_tier_init(&t);
  eng_problem p[3] = {problem(1, 8, 8), problem(2, 8, 8), problem(3, 8, 8)};
  eng_generic_memo m, out;
  memset(&m, 0, sizeof m);
  const uint64_t key = 12345; /* one set for all three */
  for (int i = 0; i < 3; i++) {
    m.problem = p[i];
    m.key = key;
    m.plan.cfg.bm = 16 * (i + 1);
    eng_generic_memo_put(&t, &m);
    if (i == 1) assert_int_equal(eng_generic_memo_get(&t, &p[0], key, &out), 1); /* p[0] used: p[1] is older */
  }
  assert_int_equal(eng_generic_memo_get(&t, &p[0], key, &out), 1);
  assert_int_equal(out.plan.cfg.bm, 16);
  assert_int_equal(eng_generic_memo_get(&t, &p[1], key, &out), 0);
  assert_int_equal(eng_generic_memo_get(&t, &p[2], key, &out), 1);
  assert_int_equal(out.plan.cfg.bm, 48);
  eng_tier_shutdown(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(a_small_class_is_specialised_at_its_hot_call_once),
    cmocka_unit_test(a_big_class_is_specialised_at_its_first_call),
    cmocka_unit_test(many_classes_are_counted_apart),
    cmocka_unit_test(a_failed_build_is_retried_at_the_next_hot_point_then_given_up),
    cmocka_unit_test(a_big_class_whose_build_failed_is_queued_again_at_its_next_call),
    cmocka_unit_test(a_built_class_is_not_queued_again),
    cmocka_unit_test(the_generic_memo_gives_back_the_plan_of_the_same_problem_only),
    cmocka_unit_test(a_generic_memo_set_keeps_its_two_most_recent_problems),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
