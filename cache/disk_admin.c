/* SPDX-License-Identifier: Apache-2.0 */
/* Cache directory inspection and upkeep for tcj-cache; see disk_admin.h. Pruning and clearing
 * remove files by the rules the disk cache's own cap follows (cache/upkeep.h).
 * Layer: calls disk_cache.c (the entry format) and upkeep.c; nothing in the library calls it. */
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
#include "cache/upkeep.h"


static int by_name(const void *a, const void *b) {
  return strcmp(((const cache_file *)a)->name, ((const cache_file *)b)->name);
}

int cache_admin_prune(const char *dir, int64_t older_than_s, uint64_t max_bytes, uint64_t *removed,
                      uint64_t *freed) {
  return cache_upkeep_evict(dir, older_than_s, max_bytes, NULL, removed, freed);
}

int cache_admin_clear(const char *dir, uint64_t *removed, uint64_t *freed) {
  if (cache_upkeep_evict(dir, 0, 0, NULL, removed, freed) != 0) return -1;
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/tmp", dir) >= sizeof tmp) return 0;
  return cache_upkeep_reap(tmp, CACHE_TMP_MAX_AGE_S, NULL);
}

int cache_admin_usage(const char *dir, cache_dir_usage *u) {
  memset(u, 0, sizeof *u);
  cache_file *v;
  long n = cache_list_files(dir, CACHE_ENTRY_SUFFIX, &v);
  if (n < 0) return -1;
  u->entries = (uint64_t)n;
  for (long i = 0; i < n; i++) u->entry_bytes += v[i].bytes;
  free(v);
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/tmp", dir) >= sizeof tmp) return 0;
  if ((n = cache_list_files(tmp, CACHE_TEMP_SUFFIX, &v)) > 0) {
    u->temp_files = (uint64_t)n;
    for (long i = 0; i < n; i++) u->temp_bytes += v[i].bytes;
  }
  free(v);
  if ((n = cache_list_files(tmp, CACHE_LOCK_SUFFIX, &v)) > 0) u->lock_files = (uint64_t)n;
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
static void inspect(const char *path, const cache_file *f, cache_entry_info *e) {
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
  cache_file *v;
  long n = cache_list_files(dir, CACHE_ENTRY_SUFFIX, &v);
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
