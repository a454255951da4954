/* SPDX-License-Identifier: Apache-2.0 */
/* Inspection and upkeep of one cache directory, for tcj-cache: a listing of its entries with
 * what each holds, its size, a check of every checksum, pruning by age or size, clearing. The
 * library's own calls never come here (they go through disk_cache.h); what this removes is safe
 * to remove while processes run: they keep their kernels in memory, and a writer in flight
 * still renames its new entry into place. */
#ifndef TCJ_CACHE_DISK_ADMIN_H
#define TCJ_CACHE_DISK_ADMIN_H

#include <stdint.h>
#include <time.h>

#include "cache/upkeep.h"

typedef struct cache_entry_info {
  char name[256];         /* file name in the directory */
  uint64_t file_bytes;
  time_t mtime;           /* last use (a hit touches it) */
  int ok;                 /* whole, intact, in this format, and named after its own key */
  const char *problem;    /* why not, when !ok */
  /* From the key text and header, when ok: */
  char arch[16], codegen[40], compiler[128], cfg[256];
  uint64_t cubin_bytes, ptx_bytes;
} cache_entry_info;

/* Calls fn for every entry file (*.tcjc) of dir, in name order, after reading and checking it
 * whole. fn returning nonzero stops the scan. Returns 0, or -1 (errno) when dir cannot be read. */
int cache_admin_scan(const char *dir, int (*fn)(void *ctx, const cache_entry_info *e), void *ctx);

typedef struct cache_dir_usage {
  uint64_t entries, entry_bytes; /* *.tcjc files */
  uint64_t temp_files, temp_bytes; /* tmp/: writes in flight, or debris of dead writers */
  uint64_t lock_files;             /* lock files in tmp/: compiles in flight, or left by a crash */
} cache_dir_usage;

/* Counts what dir holds without reading entries. Returns 0, or -1 (errno). */
int cache_admin_usage(const char *dir, cache_dir_usage *u);

/* Removes entries not used for more than older_than_s seconds (< 0: no age rule), then the
 * least recently used until at most max_bytes of entries remain (UINT64_MAX: no cap). *removed
 * and *freed count what went. Returns 0, or -1 (errno) when dir cannot be read. */
int cache_admin_prune(const char *dir, int64_t older_than_s, uint64_t max_bytes, uint64_t *removed,
                      uint64_t *freed);

/* Removes every entry, and temp and lock files old enough to be debris (CACHE_TMP_MAX_AGE_S):
 * younger ones belong to processes at work. Returns 0, or -1 (errno). */
int cache_admin_clear(const char *dir, uint64_t *removed, uint64_t *freed);

#endif
