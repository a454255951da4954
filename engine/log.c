/* SPDX-License-Identifier: Apache-2.0 */
/* TCJ_LOG levels and the one place tcj writes to stderr. */
#include "engine/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int eng_log_level_parse(const char *v, int *level) {
  static const struct { const char *name; int level; } names[] = {
    {"0", ENG_LOG_OFF}, {"off", ENG_LOG_OFF}, {"none", ENG_LOG_OFF}, {"warn", ENG_LOG_WARN},
    {"1", ENG_LOG_INFO}, {"info", ENG_LOG_INFO}, {"2", ENG_LOG_DEBUG}, {"debug", ENG_LOG_DEBUG}};
  *level = ENG_LOG_WARN;
  if (!v || !*v) return 0;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(v, names[i].name)) { *level = names[i].level; return 0; }
  *level = ENG_LOG_INFO; /* whoever set it wanted to hear more */
  return -1;
}

int eng_log_level_from_env(void) {
  const char *v = getenv("TCJ_LOG");
  int level;
  if (eng_log_level_parse(v, &level) != 0)
    eng_log(ENG_LOG_WARN, ENG_LOG_WARN, "TCJ_LOG='%.64s' is not one of " ENG_LOG_VALUES "; using 1 (info)", v);
  return level;
}

void eng_log(int level, int at_level, const char *fmt, ...) {
  if (level < at_level) return;
  char line[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "tcj: %s\n", line); /* one fprintf: lines of concurrent threads stay whole */
}
