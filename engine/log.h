/* SPDX-License-Identifier: Apache-2.0 */
/* TCJ_LOG: what tcj says on stderr. Unset or warn: warnings only (once per cause); 0/off: nothing;
 * 1/info: also one line per compiled kernel and the cache counters at tcj_destroy;
 * 2/debug: also every disk cache hit. */
#ifndef TCJ_ENG_LOG_H
#define TCJ_ENG_LOG_H

enum { ENG_LOG_OFF, ENG_LOG_WARN, ENG_LOG_INFO, ENG_LOG_DEBUG };

#define ENG_LOG_VALUES "0|off|none, warn, 1|info, 2|debug"

/* A TCJ_LOG value (NULL or empty: warnings). Returns 0, or -1 for a value not in
 * ENG_LOG_VALUES, which means info. */
int eng_log_level_parse(const char *value, int *level);
/* TCJ_LOG's level; an unknown value is warned about on stderr (and taken as info). */
int eng_log_level_from_env(void);
void eng_log(int level, int at_level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
