/* SPDX-License-Identifier: Apache-2.0 */
/* Cache directory upkeep; see disk_admin.h. The disk cache's own size cap and debris reaping
 * come here too, so that tcj-cache prune and a process at its cap remove entries by one rule. */
#include "cache/disk_admin.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/disk_cache.h"


static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

typedef struct file_info { char name[256]; uint64_t bytes; struct timespec mtime; } file_info; /* NAME_MAX + 1 */

/* The regular files of dir whose name ends in suffix, malloc'ed into *out. Returns the count,
 * or -1 (errno) when dir cannot be read. */
static long list_files(const char *dir, const char *suffix, file_info **out) {
  *out = NULL;
  DIR *d = opendir(dir);
  if (!d) return -1;
  file_info *v = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    struct stat st;
    if (!has_suffix(de->d_name, suffix) || strlen(de->d_name) >= sizeof v->name) continue;
    if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
    if (n == cap) {
      file_info *nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
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
  const file_info *x = a, *y = b;
  if (x->mtime.tv_sec != y->mtime.tv_sec) return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
  if (x->mtime.tv_nsec != y->mtime.tv_nsec) return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const file_info *)a)->name, ((const file_info *)b)->name);
}

static int remove_in(const char *dir, const char *name) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) return -1;
  return unlink(path);
}

int cache_admin_evict(const char *dir, int64_t older_than_s, uint64_t max_bytes, const char *keep,
                      uint64_t *removed, uint64_t *freed) {
  uint64_t gone = 0, bytes = 0, total = 0;
  file_info *v;
  long n = list_files(dir, CACHE_ENTRY_SUFFIX, &v);
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

int cache_admin_prune(const char *dir, int64_t older_than_s, uint64_t max_bytes, uint64_t *removed,
                      uint64_t *freed) {
  return cache_admin_evict(dir, older_than_s, max_bytes, NULL, removed, freed);
}

int cache_admin_reap(const char *tmp_dir, int64_t max_age_s, uint64_t *removed) {
  static const char *const suffixes[] = {CACHE_TEMP_SUFFIX, CACHE_LOCK_SUFFIX};
  uint64_t gone = 0;
  time_t now = time(NULL);
  for (int s = 0; s < 2; s++) {
    file_info *v;
    long n = list_files(tmp_dir, suffixes[s], &v);
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

int cache_admin_clear(const char *dir, uint64_t *removed, uint64_t *freed) {
  if (cache_admin_evict(dir, 0, 0, NULL, removed, freed) != 0) return -1;
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/tmp", dir) >= sizeof tmp) return 0;
  return cache_admin_reap(tmp, CACHE_TMP_MAX_AGE_S, NULL);
}

int cache_admin_usage(const char *dir, cache_dir_usage *u) {
  memset(u, 0, sizeof *u);
  file_info *v;
  long n = list_files(dir, CACHE_ENTRY_SUFFIX, &v);
  if (n < 0) return -1;
  u->entries = (uint64_t)n;
  for (long i = 0; i < n; i++) u->entry_bytes += v[i].bytes;
  free(v);
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/tmp", dir) >= sizeof tmp) return 0;
  if ((n = list_files(tmp, CACHE_TEMP_SUFFIX, &v)) > 0) {
    u->temp_files = (uint64_t)n;
    for (long i = 0; i < n; i++) u->temp_bytes += v[i].bytes;
  }
  free(v);
  if ((n = list_files(tmp, CACHE_LOCK_SUFFIX, &v)) > 0) u->lock_files = (uint64_t)n;
  free(v);
  return 0;
}

/* ---- reading entries ---- */

static unsigned char *read_whole(const char *path, uint64_t size) {
  if (size > CACHE_ENTRY_MAX_BYTES) return NULL;
  /* Non-blocking, then only a regular file: a FIFO swapped in after listing must not hang. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return NULL;
  }
  unsigned char *buf = malloc(size ? size : 1);
  size_t got = 0;
  while (buf && got < size) {
    ssize_t r = read(fd, buf + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  if (buf && got != size) {
    free(buf);
    buf = NULL;
  }
  return buf;
}

/* The value of "name=" on its own line of the key text, into out. */
static void key_field(const char *key, size_t len, const char *name, char *out, size_t size) {
  size_t nl = strlen(name);
  out[0] = 0;
  for (size_t i = 0; i < len;) {
    const char *line = key + i, *end = memchr(line, '\n', len - i);
    size_t ll = end ? (size_t)(end - line) : len - i;
    if (ll > nl && memcmp(line, name, nl) == 0 && line[nl] == '=') {
      snprintf(out, size, "%.*s", (int)(ll - nl - 1), line + nl + 1);
      return;
    }
    i += ll + 1;
  }
}

/* Fills the parts of e that a read of the file at path shows. */
static void inspect(const char *path, const file_info *f, cache_entry_info *e) {
  memset(e, 0, sizeof *e);
  snprintf(e->name, sizeof e->name, "%s", f->name);
  e->file_bytes = f->bytes;
  e->mtime = f->mtime.tv_sec;
  unsigned char *bytes = read_whole(path, f->bytes);
  cache_entry_view v;
  if (!bytes) {
    e->problem = f->bytes > CACHE_ENTRY_MAX_BYTES ? "larger than any entry" : "cannot be read";
    return;
  }
  if (!cache_entry_read(bytes, f->bytes, NULL, &v)) {
    e->problem = "damaged (magic, format, sizes or checksum)";
  } else {
    /* A valid entry under another key's name would never be found, or worse, be found by it. */
    char want[32], *key = strndup(v.key, v.key_len);
    if (key) cache_entry_name(key, want);
    if (!key || strcmp(want, e->name) != 0) {
      e->problem = "not named after its key";
    } else {
      e->ok = 1;
      key_field(v.key, v.key_len, "arch", e->arch, sizeof e->arch);
      key_field(v.key, v.key_len, "codegen", e->codegen, sizeof e->codegen);
      key_field(v.key, v.key_len, "cfg", e->cfg, sizeof e->cfg);
      if (v.compiler_len)
        snprintf(e->compiler, sizeof e->compiler, "%.*s", (int)v.compiler_len, v.compiler);
      else
        key_field(v.key, v.key_len, "compiler", e->compiler, sizeof e->compiler);
      e->cubin_bytes = v.cubin_size;
      e->ptx_bytes = v.ptx_len;
    }
    free(key);
  }
  free(bytes);
}

int cache_admin_scan(const char *dir, int (*fn)(void *ctx, const cache_entry_info *e), void *ctx) {
  file_info *v;
  long n = list_files(dir, CACHE_ENTRY_SUFFIX, &v);
  if (n < 0) return -1;
  if (n > 1) qsort(v, (size_t)n, sizeof *v, by_name);
  for (long i = 0; i < n; i++) {
    char path[4096];
    cache_entry_info e;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, v[i].name) >= sizeof path) continue;
    inspect(path, &v[i], &e);
    if (fn(ctx, &e)) break;
  }
  free(v);
  return 0;
}
