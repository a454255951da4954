/* TCJ_LOG: what tcj says on stderr. Unset: warnings only (once per cause); 0/off: nothing;
 * 1/info: also one line per compiled kernel and the cache counters at tcj_destroy;
 * 2/debug: also every disk cache hit. */
#ifndef TCJ_ENG_LOG_H
#define TCJ_ENG_LOG_H

enum { ENG_LOG_OFF, ENG_LOG_WARN, ENG_LOG_INFO, ENG_LOG_DEBUG };

int eng_log_level_from_env(void);
void eng_log(int level, int at_level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
