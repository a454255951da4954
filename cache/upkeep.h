/* SPDX-License-Identifier: Apache-2.0 */
/* How files leave a cache directory: the disk cache's own size cap and debris reaping, and
 * tcj-cache's prune and clear (cache/disk_admin.h), by one rule. Files only: no entry is read. */
#ifndef TCJ_CACHE_UPKEEP_H
#define TCJ_CACHE_UPKEEP_H

#include <stdint.h>
#include <time.h>

#define CACHE_ENTRY_SUFFIX ".tcjc"
#define CACHE_TEMP_SUFFIX ".tmp"
#define CACHE_LOCK_SUFFIX ".lock"

/* One regular file of a directory. */
typedef struct cache_file { char name[256]; uint64_t bytes; struct timespec mtime; } cache_file; /* NAME_MAX + 1 */

/* The regular files of dir whose name ends in suffix, malloc'ed into *out. Returns the count,
 * or -1 (errno) when dir cannot be read. */
long cache_list_files(const char *dir, const char *suffix, cache_file **out);

/* Removes entries (*.tcjc) of dir not used for more than older_than_s seconds (< 0: no age
 * rule), then the least recently used until at most max_bytes of entries remain (UINT64_MAX:
 * no cap), sparing the entry named keep (may be NULL). *removed and *freed (may be NULL) count
 * what went. Returns 0, or -1 (errno) when dir cannot be read. */
int cache_upkeep_evict(const char *dir, int64_t older_than_s, uint64_t max_bytes, const char *keep,
                       uint64_t *removed, uint64_t *freed);

/* Removes temp and lock files of tmp_dir older than max_age_s; counts them in *removed (may be
 * NULL). Returns 0, or -1 (errno). */
int cache_upkeep_reap(const char *tmp_dir, int64_t max_age_s, uint64_t *removed);

#endif
