/* SPDX-License-Identifier: Apache-2.0 */
/* The trust rules of the kernel cache; see trust.h. Plain POSIX: stat bits and a walk up the
 * resolved path. */
#include "cache/trust.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

cache_trust cache_trust_default(void) {
  cache_trust t = {0};
  t.uid = geteuid();
  return t;
}

const char *cache_trust_stat(const cache_trust *t, const struct stat *st, int ancestor) {
  if (t->any) return NULL;
  int shared_group = t->shared && st->st_gid == t->gid;
  if (st->st_uid != t->uid && st->st_uid != 0 && !shared_group)
    return t->shared ? "is owned by another user and not in the shared group" : "is owned by another user";
  /* A sticky directory lets others add names but not replace ours (rename(2), unlink(2)). */
  int sticky_ancestor = ancestor && S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);
  if ((st->st_mode & S_IWOTH) && !sticky_ancestor) return "is writable by others";
  if ((st->st_mode & S_IWGRP) && !shared_group && !sticky_ancestor)
    return t->shared ? "is writable by a group other than the shared group" : "is writable by its group";
  return NULL;
}

void cache_trust_explain(const char *path, const struct stat *st, const char *reason, char *why,
                         size_t why_size) {
  snprintf(why, why_size, "%s %s (owner uid %lu, group gid %lu, mode %04o)", path, reason,
           (unsigned long)st->st_uid, (unsigned long)st->st_gid, (unsigned)(st->st_mode & 07777));
}

int cache_trust_dir(const cache_trust *t, const char *path, char **real, char *why, size_t why_size) {
  *real = NULL;
  char *r = realpath(path, NULL);
  if (!r) return -1;
  if (t->any) {
    *real = r;
    return 0;
  }
  /* Walk "/", "/a", "/a/b", ... the cache dir itself last. lstat: realpath left no links, so
   * a link seen now was put there since, by someone who can write an ancestor we passed. */
  size_t n = strlen(r);
  char *prefix = malloc(n + 2);
  if (!prefix) { free(r); errno = ENOMEM; return -1; }
  for (size_t end = 1;; end++) {
    if (end > 1 && end < n && r[end] != '/') continue; /* "/" itself is checked first */
    memcpy(prefix, r, end);
    prefix[end] = 0;
    int last = end >= n;
    struct stat st;
    if (lstat(prefix, &st) != 0) { free(prefix); free(r); return -1; }
    const char *reason = S_ISLNK(st.st_mode) ? "became a symbolic link while it was checked"
                         : !S_ISDIR(st.st_mode) ? "is not a directory"
                                                : cache_trust_stat(t, &st, !last);
    if (reason) {
      cache_trust_explain(prefix, &st, reason, why, why_size);
      free(prefix);
      free(r);
      return 1;
    }
    if (last) break;
  }
  free(prefix);
  *real = r;
  return 0;
}
