/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of engine/log: TCJ_LOG's accepted values and what an unknown one means. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>

#include "engine/log.h"

static void every_documented_value_sets_its_level(void **state) {
  (void)state;
  static const struct { const char *v; int level; } ok[] = {
    {NULL, ENG_LOG_WARN}, {"", ENG_LOG_WARN}, {"warn", ENG_LOG_WARN}, {"0", ENG_LOG_OFF}, {"off", ENG_LOG_OFF},
    {"none", ENG_LOG_OFF}, {"1", ENG_LOG_INFO}, {"info", ENG_LOG_INFO}, {"2", ENG_LOG_DEBUG}, {"debug", ENG_LOG_DEBUG}};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    int level = -1;
    assert_int_equal(eng_log_level_parse(ok[i].v, &level), 0);
    if (level != ok[i].level) print_error("TCJ_LOG='%s': level %d, wanted %d\n", ok[i].v ? ok[i].v : "(unset)", level, ok[i].level);
    assert_int_equal(level, ok[i].level);
  }
}

static void unknown_value_is_reported_and_means_info(void **state) {
  (void)state;
  static const char *bad[] = {"verbose", "3", "INFO", " 1", "1 ", "-1", "debugg"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    int level = -1;
    assert_int_equal(eng_log_level_parse(bad[i], &level), -1);
    assert_int_equal(level, ENG_LOG_INFO);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(every_documented_value_sets_its_level),
    cmocka_unit_test(unknown_value_is_reported_and_means_info),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
