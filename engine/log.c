/* TCJ_LOG levels and the one place tcj writes to stderr. */
#include "engine/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int eng_log_level_from_env(void) {
  const char *v = getenv("TCJ_LOG");
  if (!v || !*v) return ENG_LOG_WARN;
  if (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "none")) return ENG_LOG_OFF;
  if (!strcmp(v, "2") || !strcmp(v, "debug")) return ENG_LOG_DEBUG;
  return ENG_LOG_INFO; /* "1", "info" and anything else that asks for logging */
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
