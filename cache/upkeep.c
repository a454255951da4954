/* SPDX-License-Identifier: Apache-2.0 */
/* How files leave a cache directory (cache/upkeep.h): least recently used entries past a size
 * cap, temp and lock files past an age. One rule for the disk cache's own cap and for
 * tcj-cache prune and clear. Layer: called by disk_cache.c and disk_admin.c; calls only libc. */
#include "cache/upkeep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

long cache_list_files(const char *dir, const char *suffix, cache_file **out) {
  *out = NULL;
  DIR *d = opendir(dir);
  if (!d) return -1;
  cache_file *v = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    struct stat st;
    if (!has_suffix(de->d_name, suffix) || strlen(de->d_name) >= sizeof v->name) continue;
    if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
    if (n == cap) {
      cache_file *nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
      if (!nv) break; /* what was listed so far is still worth working on */
      v = nv;
    }
    memcpy(v[n].name, de->d_name, strlen(de->d_name) + 1); /* length checked above */
    v[n].bytes = (uint64_t)st.st_size;
    v[n].mtime = st.st_mtim;
    n++;
  }
  closedir(d);
  *out = v;
  return (long)n;
}

static int older_first(const void *a, const void *b) {
  const cache_file *x = a, *y = b;
  if (x->mtime.tv_sec != y->mtime.tv_sec) return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
  if (x->mtime.tv_nsec != y->mtime.tv_nsec) return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

static int remove_in(const char *dir, const char *name) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) return -1;
  return unlink(path);
}

int cache_upkeep_evict(const char *dir, int64_t older_than_s, uint64_t max_bytes, const char *keep,
                      uint64_t *removed, uint64_t *freed) {
  uint64_t gone = 0, bytes = 0, total = 0;
  cache_file *v;
  long n = cache_list_files(dir, CACHE_ENTRY_SUFFIX, &v);
  if (n < 0) return -1;
  if (n > 1) qsort(v, (size_t)n, sizeof *v, older_first); /* qsort(NULL, 0) is undefined */
  for (long i = 0; i < n; i++) total += v[i].bytes;
  time_t now = time(NULL);
  for (long i = 0; i < n; i++) {
    int too_old = older_than_s >= 0 && now - v[i].mtime.tv_sec > older_than_s;
    if (!too_old && total <= max_bytes) continue; /* oldest first: the cap alone stops here */
    if ((keep && strcmp(v[i].name, keep) == 0) || remove_in(dir, v[i].name) != 0) continue;
    total -= v[i].bytes;
    bytes += v[i].bytes;
    gone++;
  }
  free(v);
  if (removed) *removed = gone;
  if (freed) *freed = bytes;
  return 0;
}

int cache_upkeep_reap(const char *tmp_dir, int64_t max_age_s, uint64_t *removed) {
  static const char *const suffixes[] = {CACHE_TEMP_SUFFIX, CACHE_LOCK_SUFFIX};
  uint64_t gone = 0;
  time_t now = time(NULL);
  for (int s = 0; s < 2; s++) {
    cache_file *v;
    long n = cache_list_files(tmp_dir, suffixes[s], &v);
    if (n < 0) {
      if (removed) *removed = gone;
      return errno == ENOENT ? 0 : -1; /* no tmp/ yet: nothing to reap */
    }
    for (long i = 0; i < n; i++)
      if (now - v[i].mtime.tv_sec > max_age_s && remove_in(tmp_dir, v[i].name) == 0) gone++;
    free(v);
  }
  if (removed) *removed = gone;
  return 0;
}
