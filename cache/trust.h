/* SPDX-License-Identifier: Apache-2.0 */
/* Who may have written a cache directory or entry. A cached cubin runs inside the caller's
 * process with all of its GPU memory in reach, and a checksum proves only that an entry is
 * intact, not who wrote it. So tcj reads kernels only from places that nobody but the user
 * (or root, or the members of an explicitly shared group) can write: OpenSSH's rule for ~/.ssh. */
#ifndef TCJ_CACHE_TRUST_H
#define TCJ_CACHE_TRUST_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

typedef struct cache_trust {
  int any;     /* TCJ_CACHE_TRUST_ANY: trust every owner and mode (trust managed elsewhere) */
  uid_t uid;   /* the user whose files are trusted, besides root's */
  int shared;  /* TCJ_CACHE_SHARED_GROUP: also trust the members of group gid */
  gid_t gid;
} cache_trust;

/* The trust of this process: the effective uid, no shared group, checks on. */
cache_trust cache_trust_default(void);

/* Whether one directory or file, as fstat/lstat saw it, may be trusted. Returns NULL, or the
 * reason it may not ("is writable by others (mode 0777)"). Rules:
 *   - the owner is the user or root, or (shared cache) its group is the shared group;
 *   - not writable by others, nor by its group unless that group is the shared group;
 *   - ancestor: a directory above the cache. A sticky one (/tmp) may be writable by anyone:
 *     the sticky bit keeps others from renaming or removing what they do not own. */
const char *cache_trust_stat(const cache_trust *t, const struct stat *st, int ancestor);

/* "PATH REASON (owner uid U, group gid G, mode 0MMMM)" into why. */
void cache_trust_explain(const char *path, const struct stat *st, const char *reason, char *why,
                         size_t why_size);

/* Checks an existing directory, after resolving every symlink in its path, and each directory
 * above it up to /. Returns 0 and a malloc'ed resolved path in *real (use it from then on:
 * the checked chain is one nobody else can change), -1 with errno set when the path cannot be
 * resolved (ENOENT: it does not exist), or 1 when it is not trusted, with "PATH REASON" in why. */
int cache_trust_dir(const cache_trust *t, const char *path, char **real, char *why, size_t why_size);

#endif
