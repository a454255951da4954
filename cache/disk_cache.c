/* SPDX-License-Identifier: Apache-2.0 */
/* The on-disk cubin cache; see disk_cache.h. Entry layout (little-endian):
 *   0  magic "TCJCACHE"     8  u32 format version   12 u32 header bytes (56)
 *   16 u32 key length       20 u32 flags (bit 0: PTX present)
 *   24 u64 cubin bytes      32 u64 PTX bytes         40 u64 xxh64 of the whole entry, this
 *                                                       field taken as zero
 *   48 u32 compiler length  52 u32 zero (reserved)
 *   56 key text, compiler identity, cubin, PTX */
#include "cache/disk_cache.h"
#include "cache/trust.h"
#include "cache/upkeep.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define LOCK_SUFFIX CACHE_LOCK_SUFFIX
#define HEADER_BYTES CACHE_ENTRY_HEADER_BYTES
#define CHECKSUM_AT CACHE_ENTRY_CHECKSUM_AT
static const char MAGIC[8] = {'T', 'C', 'J', 'C', 'A', 'C', 'H', 'E'};

/* Causes of write failure and of distrust, each warned about once per cache. */
enum { WARN_MKDIR, WARN_CREATE, WARN_WRITE, WARN_FSYNC, WARN_RENAME, WARN_UNTRUSTED_ENTRY, WARN_COUNT };

/* Modes of what tcj creates: the user's own cache is private; a shared group cache lets its
 * group add and remove entries (setgid: new files and folders take the group). */
#define DIR_MODE_PRIVATE 0700
#define DIR_MODE_SHARED 02770
#define FILE_MODE_PRIVATE 0644 /* readable is harmless: only who can write matters */
#define FILE_MODE_SHARED 0640

struct cache_disk {
  char *dir;
  char **ro_roots;
  int n_ro;
  uint64_t max_bytes;
  int store_ptx;
  int lock_wait_ms;
  cache_trust trust;
  atomic_int dir_untrusted, *ro_untrusted; /* set once found untrusted (and warned about) */
  cache_stats *stats, own_stats;
  cache_io io;
  cache_warn_fn warn;
  void *warn_ctx;
  atomic_int warned[WARN_COUNT];
};

static ssize_t real_write(int fd, const void *buf, size_t n) { return write(fd, buf, n); }
static const cache_io real_io = {real_write, fsync, rename};

static void put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get_u32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
  return v;
}
static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static char *join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", a, b);
  return p;
}

/* ---- configuration ---- */

static int env_on(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

/* Messages that quote the value they refuse (one per thread: tcj_create runs on many). */
static _Thread_local char env_why[512];

/* TCJ_CACHE_SHARED_GROUP=NAME|GID: a group the user belongs to. Returns 0, or -1 with a reason. */
static int shared_group_from_env(const char *v, gid_t *gid, const char **why) {
  char *end;
  errno = 0;
  unsigned long num = strtoul(v, &end, 10);
  if (isdigit((unsigned char)v[0]) && !*end && !errno && num == (gid_t)num) {
    *gid = (gid_t)num;
  } else {
    struct group gr, *found = NULL;
    size_t size = 16384;
    char *buf = NULL;
    int r;
    do { /* a group with many members needs a larger buffer */
      free(buf);
      if (!(buf = malloc(size *= 2))) { *why = "out of host memory"; return -1; }
      r = getgrnam_r(v, &gr, buf, size, &found);
    } while (r == ERANGE && size < (1u << 24));
    if (found) *gid = gr.gr_gid;
    free(buf);
    if (!found) {
      snprintf(env_why, sizeof env_why, "TCJ_CACHE_SHARED_GROUP='%.200s' is not a group name or number", v);
      *why = env_why;
      return -1;
    }
  }
  int member = geteuid() == 0 || getegid() == *gid;
  gid_t groups[1024];
  int n = getgroups(sizeof groups / sizeof *groups, groups);
  for (int i = 0; i < n && !member; i++) member = groups[i] == *gid;
  if (!member) {
    snprintf(env_why, sizeof env_why, "TCJ_CACHE_SHARED_GROUP='%.200s': this user is not a member of group %lu",
             v, (unsigned long)*gid);
    *why = env_why;
    return -1;
  }
  return 0;
}

int cache_parse_bytes(const char *text, uint64_t *bytes) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : 0;
  if (shift) end++;
  /* strtoull would skip blanks and accept a sign: a size starts with a digit. */
  if (errno || !isdigit((unsigned char)text[0]) || *end || v > (UINT64_MAX >> shift)) return -1;
  *bytes = (uint64_t)v << shift;
  return 0;
}

int cache_disk_config_from_env(cache_disk_config *cfg, char *buf, size_t buf_size, const char **why) {
  return cache_disk_config_with_dir(cfg, NULL, buf, buf_size, why);
}

int cache_disk_config_with_dir(cache_disk_config *cfg, const char *explicit_dir, char *buf, size_t buf_size,
                               const char **why) {
  memset(cfg, 0, sizeof *cfg);
  cfg->max_bytes = CACHE_DEFAULT_MAX_BYTES;
  if (env_on("TCJ_CACHE_DISABLE")) return 1;
  const char *dir = getenv("TCJ_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  /* The caller's directory wins, and the default one is built only when it is used: a HOME too
   * long for a path must not fail a call that names its directory. */
  if (explicit_dir) {
    cfg->dir = explicit_dir;
  } else if (dir && *dir) {
    cfg->dir = dir;
  } else if ((xdg && *xdg) || (home && *home)) {
    int n = xdg && *xdg ? snprintf(buf, buf_size, "%s/tcj", xdg) : snprintf(buf, buf_size, "%s/.cache/tcj", home);
    if (n < 0 || (size_t)n >= buf_size) {
      *why = "XDG_CACHE_HOME or HOME is too long for a cache directory path; set TCJ_CACHE_DIR";
      return -1;
    }
    cfg->dir = buf;
  }
  const char *path = getenv("TCJ_CACHE_PATH");
  if (path && *path) cfg->ro_roots = path;
  const char *max = getenv("TCJ_CACHE_MAX_BYTES");
  if (max && *max) {
    if (cache_parse_bytes(max, &cfg->max_bytes) != 0) {
      snprintf(env_why, sizeof env_why,
               "TCJ_CACHE_MAX_BYTES='%.200s' is not a byte count (a number, optionally with K, M or G)", max);
      *why = env_why;
      return -1;
    }
  }
  cfg->store_ptx = env_on("TCJ_CACHE_STORE_PTX");
  cfg->trust_any = env_on("TCJ_CACHE_TRUST_ANY");
  const char *group = getenv("TCJ_CACHE_SHARED_GROUP");
  if (group && *group) {
    if (shared_group_from_env(group, &cfg->shared_gid, why) != 0) return -1;
    cfg->shared_group = 1;
  }
  return 0;
}

/* ---- open / close ---- */

cache_disk *cache_disk_open(const cache_disk_config *cfg, cache_stats *stats) {
  cache_disk *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->stats = stats ? stats : &d->own_stats;
  d->io = real_io;
  d->max_bytes = cfg->max_bytes;
  d->store_ptx = cfg->store_ptx;
  d->lock_wait_ms = cfg->lock_wait_ms > 0 ? cfg->lock_wait_ms : CACHE_LOCK_WAIT_MS;
  d->trust = cache_trust_default();
  d->trust.any = cfg->trust_any;
  d->trust.shared = cfg->shared_group;
  d->trust.gid = cfg->shared_gid;
  if (cfg->dir && *cfg->dir && !(d->dir = strdup(cfg->dir))) goto oom;
  if (cfg->ro_roots) {
    char *copy = strdup(cfg->ro_roots);
    if (!copy) goto oom;
    int n = 1;
    for (const char *p = copy; *p; p++) n += *p == ':';
    d->ro_roots = calloc((size_t)n, sizeof *d->ro_roots);
    d->ro_untrusted = calloc((size_t)n, sizeof *d->ro_untrusted);
    if (!d->ro_roots || !d->ro_untrusted) { free(copy); goto oom; }
    char *save = NULL;
    for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
      if (*tok && !(d->ro_roots[d->n_ro++] = strdup(tok))) { free(copy); goto oom; }
    free(copy);
  }
  return d;
oom:
  cache_disk_close(d);
  return NULL;
}

void cache_disk_close(cache_disk *d) {
  if (!d) return;
  for (int i = 0; i < d->n_ro; i++) free(d->ro_roots[i]);
  free(d->ro_roots);
  free(d->ro_untrusted);
  free(d->dir);
  free(d);
}

void cache_disk_set_io(cache_disk *d, const cache_io *io) { d->io = io ? *io : real_io; }

void cache_disk_set_warn(cache_disk *d, cache_warn_fn fn, void *ctx) {
  d->warn = fn;
  d->warn_ctx = ctx;
}

const char *cache_disk_dir(const cache_disk *d) { return d->dir; }

static void warn(cache_disk *d, const char *message) {
  if (d->warn) d->warn(d->warn_ctx, message);
}

static void warn_write(cache_disk *d, int cause, const char *what, const char *path, int err) {
  atomic_fetch_add_explicit(&d->stats->write_failures, 1, memory_order_relaxed);
  if (atomic_exchange(&d->warned[cause], 1)) return;
  char msg[1024];
  snprintf(msg, sizeof msg, "kernel cache: %s %s: %s; kernels stay in memory only", what, path, strerror(err));
  warn(d, msg);
}

#define TRUST_HINT                                                                              \
  "tcj reads kernels only from directories and files that no one but you or root can write "   \
  "(see TCJ_CACHE_SHARED_GROUP and TCJ_CACHE_TRUST_ANY)"

/* dir resolved, when it exists and nobody else can write it or above it; else NULL. The first
 * time it is found untrusted, *untrusted is set and one warning names the path and the reason. */
static char *trusted_dir(cache_disk *d, const char *dir, atomic_int *untrusted, const char *what,
                         const char *consequence) {
  if (atomic_load_explicit(untrusted, memory_order_relaxed)) return NULL;
  char *real, why[768];
  int r = cache_trust_dir(&d->trust, dir, &real, why, sizeof why);
  if (r == 0) return real;
  if (r > 0 && !atomic_exchange(untrusted, 1)) {
    char msg[1536];
    snprintf(msg, sizeof msg, "kernel cache: not using the %s %s: %s; %s. %s", what, dir, why, consequence, TRUST_HINT);
    warn(d, msg);
  }
  return NULL;
}

static char *trusted_cache_dir(cache_disk *d) {
  return d->dir ? trusted_dir(d, d->dir, &d->dir_untrusted, "cache directory", "kernels stay in memory only")
                : NULL;
}

void cache_entry_name(const char *key, char out[32]) {
  snprintf(out, 32, "%016llx" CACHE_ENTRY_SUFFIX, (unsigned long long)XXH64(key, strlen(key), 0));
}

/* ---- read ---- */

/* Reads a whole entry file of at most CACHE_ENTRY_MAX_BYTES; returns NULL when absent, unreadable or
 * untrusted (then *distrust says why). The rules apply to the file as opened (fstat), and a
 * symbolic link is never followed: what is checked is what is read. */
static unsigned char *read_file(const cache_trust *t, const char *path, size_t *size, const char **distrust,
                                struct stat *st_out) {
  *distrust = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ELOOP) *distrust = "is a symbolic link";
    return NULL;
  }
  struct stat st;
  unsigned char *buf = NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > CACHE_ENTRY_MAX_BYTES) goto done;
  *st_out = st;
  if ((*distrust = cache_trust_stat(t, &st, 0)) != NULL) goto done;
  buf = malloc(st.st_size ? (size_t)st.st_size : 1);
  if (!buf) goto done;
  size_t got = 0;
  while (got < (size_t)st.st_size) {
    ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  if (got != (size_t)st.st_size) {
    free(buf);
    buf = NULL;
    goto done;
  }
  *size = got;
done:
  close(fd);
  return buf;
}

uint64_t cache_entry_checksum(const unsigned char *e, size_t size) {
  static const unsigned char zero[8];
  if (size < HEADER_BYTES) return 0;
  XXH64_state_t *h = XXH64_createState();
  if (!h) return 0;
  XXH64_reset(h, 0);
  XXH64_update(h, e, CHECKSUM_AT);
  XXH64_update(h, zero, sizeof zero);
  XXH64_update(h, e + CHECKSUM_AT + 8, size - CHECKSUM_AT - 8); /* the rest of the header too */
  uint64_t sum = XXH64_digest(h);
  XXH64_freeState(h);
  return sum;
}

int cache_entry_read(const unsigned char *e, size_t size, const char *key, cache_entry_view *v) {
  memset(v, 0, sizeof *v);
  if (size < HEADER_BYTES || memcmp(e, MAGIC, sizeof MAGIC) != 0) return 0;
  const char *own = (const char *)e + HEADER_BYTES;
  size_t key_len = get_u32(e + 16);
  if (key_len > size - HEADER_BYTES) return 0;
  /* Without a key to match, the entry's own must be text without NULs. */
  if (!key && memchr(own, 0, key_len)) return 0;
  char *copy = NULL;
  if (!key && !(key = copy = strndup(own, key_len))) return 0;
  size_t off = 0, cubin = 0;
  int ok = cache_entry_parse(e, size, key, &off, &cubin);
  free(copy);
  if (!ok) return 0;
  v->key = own;
  v->key_len = key_len;
  v->compiler = own + key_len;
  v->compiler_len = get_u32(e + 48);
  v->cubin = e + off;
  v->cubin_size = cubin;
  v->ptx = (const char *)e + off + cubin;
  v->ptx_len = size - off - cubin;
  return 1;
}

int cache_entry_parse(const unsigned char *e, size_t size, const char *key, size_t *cubin_off,
                      size_t *cubin_size) {
  if (size < HEADER_BYTES || memcmp(e, MAGIC, sizeof MAGIC) != 0) return 0;
  if (get_u32(e + 8) != CACHE_FORMAT_VERSION || get_u32(e + 12) != HEADER_BYTES) return 0;
  uint64_t key_len = get_u32(e + 16), cubin = get_u64(e + 24), ptx = get_u64(e + 32);
  uint64_t compiler_len = get_u32(e + 48);
  /* Each size is checked against the file before they are added: no sum can wrap. */
  if (cubin == 0 || key_len > size || compiler_len > size || cubin > size || ptx > size ||
      get_u32(e + 52) != 0 || HEADER_BYTES + key_len + compiler_len + cubin + ptx != size)
    return 0;
  if (cache_entry_checksum(e, size) != get_u64(e + CHECKSUM_AT)) return 0;
  if (key_len != strlen(key) || memcmp(e + HEADER_BYTES, key, key_len) != 0) return 0;
  *cubin_off = HEADER_BYTES + key_len + compiler_len;
  *cubin_size = cubin;
  return 1;
}

/* count: whether a bad entry counts (and warns); a waiter that polls counts it only once. */
static int get_from(cache_disk *d, const char *root, const char *name, const char *key, int writable,
                    int count, void **cubin, size_t *size) {
  char *path = join(root, name);
  if (!path) return 0;
  size_t n = 0, off = 0, csize = 0;
  const char *distrust;
  struct stat st = {0};
  unsigned char *e = read_file(&d->trust, path, &n, &distrust, &st);
  if (e && !cache_entry_parse(e, n, key, &off, &csize)) off = 0;
  /* LRU: a hit is a use. Only valid entries, and never in a read-only root. */
  if (off && writable) utimensat(AT_FDCWD, path, NULL, 0);
  if (distrust && count) {
    atomic_fetch_add_explicit(&d->stats->bad_entries, 1, memory_order_relaxed);
    if (!atomic_exchange(&d->warned[WARN_UNTRUSTED_ENTRY], 1)) {
      char why[768], msg[1536];
      cache_trust_explain(path, &st, distrust, why, sizeof why);
      snprintf(msg, sizeof msg, "kernel cache: not using the entry %s; it is rebuilt. %s", why, TRUST_HINT);
      warn(d, msg);
    }
  }
  free(path);
  if (!e) return 0;
  if (!off) {
    if (count) atomic_fetch_add_explicit(&d->stats->bad_entries, 1, memory_order_relaxed);
    free(e);
    return 0;
  }
  memmove(e, e + off, csize); /* hand the cubin back in the same allocation */
  *cubin = e;
  *size = csize;
  return 1;
}

/* cache_disk_get without the hit/miss counters; count as for get_from. */
static int lookup(cache_disk *d, const char *key, int count, void **cubin, size_t *size) {
  char name[32];
  cache_entry_name(key, name);
  int hit = 0;
  char *real = trusted_cache_dir(d);
  if (real) hit = get_from(d, real, name, key, 1, count, cubin, size);
  free(real);
  for (int i = 0; !hit && i < d->n_ro; i++) {
    if (!(real = trusted_dir(d, d->ro_roots[i], &d->ro_untrusted[i], "read-only cache root", "it is skipped")))
      continue;
    hit = get_from(d, real, name, key, 0, count, cubin, size);
    free(real);
  }
  return hit;
}

int cache_disk_get(cache_disk *d, const char *key, void **cubin, size_t *size) {
  int hit = lookup(d, key, 1, cubin, size);
  atomic_fetch_add_explicit(hit ? &d->stats->disk_hits : &d->stats->disk_misses, 1, memory_order_relaxed);
  return hit;
}

/* ---- write ---- */

/* One directory; an existing one is left as it is (its trust is checked by the caller). */
static int make_dir(const cache_disk *d, const char *path) {
  mode_t mode = d->trust.shared ? DIR_MODE_SHARED : DIR_MODE_PRIVATE;
  if (mkdir(path, mode) != 0) return errno == EEXIST ? 0 : -1;
  if (!d->trust.shared) return 0;
  /* The umask may have cleared group bits, and a parent that is not setgid gave its group. */
  if (chown(path, (uid_t)-1, d->trust.gid) != 0 || chmod(path, mode) != 0) return -1;
  return 0;
}

static int mkdir_p(const cache_disk *d, const char *path) {
  char *p = strdup(path);
  if (!p) return -1;
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    if (make_dir(d, p) != 0) { free(p); return -1; }
    *s = '/';
  }
  int r = make_dir(d, p);
  free(p);
  return r;
}

/* Creates the cache directory and its tmp/ when missing, then checks both. Returns 0 with their
 * resolved paths (caller frees), or -1: not creatable (warned about, counted as a write
 * failure) or not trusted (warned about once; the directory is not used from then on). */
static int prepare_dirs(cache_disk *d, char **dir, char **tmp) {
  *dir = *tmp = NULL;
  if (!d->dir || atomic_load(&d->dir_untrusted)) return -1;
  if (mkdir_p(d, d->dir) != 0) { warn_write(d, WARN_MKDIR, "cannot create", d->dir, errno); return -1; }
  if (!(*dir = trusted_cache_dir(d))) return -1;
  char *want = join(*dir, "tmp");
  if (!want) goto fail;
  if (make_dir(d, want) != 0) {
    warn_write(d, WARN_MKDIR, "cannot create", want, errno);
    free(want);
    goto fail;
  }
  *tmp = trusted_dir(d, want, &d->dir_untrusted, "cache directory's temp folder", "kernels stay in memory only");
  free(want);
  if (*tmp) return 0;
fail:
  free(*dir);
  *dir = NULL;
  return -1;
}

int cache_disk_prepare(cache_disk *d) {
  char *dir, *tmp;
  if (prepare_dirs(d, &dir, &tmp) != 0) return -1;
  free(dir);
  free(tmp);
  return 0;
}

static uint64_t random_u64(void) {
  uint64_t r;
  if (getrandom(&r, sizeof r, GRND_NONBLOCK) == (ssize_t)sizeof r) return r;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  static _Atomic uint64_t counter;
  uint64_t mix[4] = {(uint64_t)ts.tv_nsec, (uint64_t)ts.tv_sec, (uint64_t)getpid(), atomic_fetch_add(&counter, 1)};
  return XXH64(mix, sizeof mix, 0);
}

static int write_all(cache_disk *d, int fd, const void *buf, size_t n) {
  const unsigned char *p = buf;
  while (n) {
    ssize_t w = d->io.write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) { if (w == 0) errno = ENOSPC; return -1; }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static void maintain(cache_disk *d, const char *dir, const char *tmp_dir, const char *keep);

int cache_disk_put(cache_disk *d, const char *key, const void *cubin, size_t size, const char *ptx, size_t ptx_len) {
  return cache_disk_put_by(d, key, "", cubin, size, ptx, ptx_len);
}

int cache_disk_put_by(cache_disk *d, const char *key, const char *compiler, const void *cubin, size_t size,
                      const char *ptx, size_t ptx_len) {
  if (!d->dir || !cubin || !size) return -1;
  if (!d->store_ptx || !ptx) ptx_len = 0;
  size_t compiler_len = compiler ? strlen(compiler) : 0;
  if (HEADER_BYTES + strlen(key) + compiler_len + size + ptx_len > CACHE_ENTRY_MAX_BYTES) return -1; /* could never be read */
  char *dir, *tmp_dir;
  if (prepare_dirs(d, &dir, &tmp_dir) != 0) return -1;

  char name[32], host[64] = "host", tmp_name[160];
  cache_entry_name(key, name);
  gethostname(host, sizeof host - 1);
  host[sizeof host - 1] = 0;
  for (char *c = host; *c; c++)
    if (*c == '/' || *c == '.') *c = '_';
  snprintf(tmp_name, sizeof tmp_name, "%.16s.%s.%ld.%016llx" CACHE_TEMP_SUFFIX, name, host, (long)getpid(),
           (unsigned long long)random_u64());
  char *tmp = join(tmp_dir, tmp_name), *final = join(dir, name);
  int ret = -1, fd = -1;
  if (!tmp || !final) goto done;

  size_t key_len = strlen(key);
  unsigned char h[HEADER_BYTES] = {0};
  memcpy(h, MAGIC, sizeof MAGIC);
  put_u32(h + 8, CACHE_FORMAT_VERSION);
  put_u32(h + 12, HEADER_BYTES);
  put_u32(h + 16, (uint32_t)key_len);
  put_u32(h + 20, ptx_len ? 1u : 0u);
  put_u64(h + 24, size);
  put_u64(h + 32, ptx_len);
  put_u32(h + 48, (uint32_t)compiler_len);
  XXH64_state_t *xs = XXH64_createState();
  if (!xs) goto done;
  XXH64_reset(xs, 0);
  XXH64_update(xs, h, sizeof h); /* checksum field is still zero */
  XXH64_update(xs, key, key_len);
  if (compiler_len) XXH64_update(xs, compiler, compiler_len);
  XXH64_update(xs, cubin, size);
  if (ptx_len) XXH64_update(xs, ptx, ptx_len);
  put_u64(h + CHECKSUM_AT, XXH64_digest(xs));
  XXH64_freeState(xs);

  fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, d->trust.shared ? FILE_MODE_SHARED : FILE_MODE_PRIVATE);
  if (fd < 0) { warn_write(d, WARN_CREATE, "cannot create", tmp, errno); goto done; }
  /* A shared entry must be readable by the group whatever the umask, and carry its group. */
  if (d->trust.shared && (fchmod(fd, FILE_MODE_SHARED) != 0 || fchown(fd, (uid_t)-1, d->trust.gid) != 0)) {
    warn_write(d, WARN_CREATE, "cannot set the group and mode of", tmp, errno);
    goto done;
  }
  if (write_all(d, fd, h, sizeof h) || write_all(d, fd, key, key_len) ||
      (compiler_len && write_all(d, fd, compiler, compiler_len)) || write_all(d, fd, cubin, size) ||
      (ptx_len && write_all(d, fd, ptx, ptx_len))) {
    warn_write(d, WARN_WRITE, "cannot write", tmp, errno);
    goto done;
  }
  /* The data must be on disk before the name is: after a crash, a renamed entry is whole. */
  if (d->io.fsync(fd) != 0) { warn_write(d, WARN_FSYNC, "cannot fsync", tmp, errno); goto done; }
  close(fd);
  fd = -1;
  if (d->io.rename(tmp, final) != 0) { warn_write(d, WARN_RENAME, "cannot rename into", final, errno); goto done; }
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) { fsync(dfd); close(dfd); }
  atomic_fetch_add_explicit(&d->stats->bytes_written, HEADER_BYTES + key_len + compiler_len + size + ptx_len,
                            memory_order_relaxed);
  ret = 0;
  maintain(d, dir, tmp_dir, name);
done:
  if (fd >= 0) close(fd);
  if (ret != 0 && tmp) unlink(tmp);
  free(tmp);
  free(final);
  free(dir);
  free(tmp_dir);
  return ret;
}

void cache_disk_evict(cache_disk *d, const char *key) {
  char *dir = trusted_cache_dir(d);
  if (!dir) return;
  char name[32];
  cache_entry_name(key, name);
  char *path = join(dir, name);
  /* Not counted in evictions (tcj.h: removals by the size cap); the caller counts the refused
   * entry in bad_entries. */
  if (path) (void)unlink(path);
  free(path);
  free(dir);
}

/* ---- one compile per kernel across processes ---- */

/* An open file description locked with F_OFD_SETLK: the kernel drops the lock when the holder
 * closes it or dies, so a lock is never left behind by a crash; unlike classic POSIX locks it
 * also keeps two threads of one process apart. */
struct cache_lock {
  int fd;
  char *path;
};

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int cache_disk_lock_or_get(cache_disk *d, const char *key, void **cubin, size_t *size, cache_lock **lock) {
  return cache_disk_lock_or_get_cancellable(d, key, cubin, size, lock, NULL);
}

static int cancelled(const _Atomic int *cancel) {
  return cancel && atomic_load_explicit(cancel, memory_order_acquire);
}

int cache_disk_lock_or_get_cancellable(cache_disk *d, const char *key, void **cubin, size_t *size, cache_lock **lock,
                                       const _Atomic int *cancel) {
  *lock = NULL;
  char *dir, *tmp_dir;
  if (prepare_dirs(d, &dir, &tmp_dir) != 0) return 0; /* nowhere to lock: compile */
  char name[32], lock_name[48];
  cache_entry_name(key, name);
  snprintf(lock_name, sizeof lock_name, "%.16s" LOCK_SUFFIX, name);
  char *path = join(tmp_dir, lock_name);
  free(dir);
  free(tmp_dir);
  if (!path) return 0;
  int ret = 0;
  /* Group members take each other's locks in a shared cache: a write lock needs O_RDWR. */
  mode_t mode = d->trust.shared ? 0660 : 0600;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0) goto done; /* a read-only or full disk: compile without a lock */
  if (d->trust.shared) (void)fchmod(fd, mode);
  struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  double deadline = now_ms() + d->lock_wait_ms;
  for (int wait = 2;; wait = wait < CACHE_LOCK_POLL_MS ? 2 * wait : CACHE_LOCK_POLL_MS) {
    if (fcntl(fd, F_OFD_SETLK, &fl) == 0) {
      futimens(fd, NULL); /* a lock file in use is not debris */
      /* The holder before us may have published it: then there is nothing to compile. */
      if (lookup(d, key, 0, cubin, size)) {
        ret = 1;
        break;
      }
      if (!(*lock = malloc(sizeof **lock))) break;
      (*lock)->fd = fd;
      (*lock)->path = path;
      return 0;
    }
    if (errno != EAGAIN && errno != EACCES && errno != EINTR) break; /* no locks here (ENOLCK) */
    if (lookup(d, key, 0, cubin, size)) {
      ret = 1;
      break;
    }
    /* A holder that hangs (stopped, on a stalled filesystem) costs each waiter this much once;
     * a waiter told to stop (an engine being destroyed) leaves within one sleep. */
    if (now_ms() > deadline) break;
    if (cancelled(cancel)) {
      ret = -1;
      break;
    }
    sleep_ms(wait);
  }
  close(fd);
done:
  if (ret > 0) atomic_fetch_add_explicit(&d->stats->disk_hits, 1, memory_order_relaxed);
  free(path);
  return ret;
}

/* The file goes before the lock: a waiter that opened it already gets a lock on a name no
 * newcomer can open, finds the entry published and loads it. If the holder failed to publish,
 * that waiter and a newcomer may both compile: a duplicate, never a wrong entry. So lock files
 * stay only after a crash, until reap_tmp removes them. */
void cache_disk_unlock(cache_lock *lock) {
  if (!lock) return;
  unlink(lock->path);
  close(lock->fd); /* closing the description releases the lock */
  free(lock->path);
  free(lock);
}

/* ---- size cap and debris (cache/upkeep.c) ---- */

/* Temp files of writers that died (SIGKILL, power loss) go after an hour; live writers finish
 * in well under that. So do lock files nobody took for an hour: removing one that a process
 * just opened costs at worst one duplicate compile, never a wrong entry. Then least recently
 * used entries go (a hit touches the mtime) until the cap holds; `keep`, the entry just
 * written, stays even when it alone exceeds the cap or others carry mtimes from the future. */
static void maintain(cache_disk *d, const char *dir, const char *tmp_dir, const char *keep) {
  cache_upkeep_reap(tmp_dir, CACHE_TMP_MAX_AGE_S, NULL);
  uint64_t evicted = 0;
  cache_upkeep_evict(dir, -1, d->max_bytes, keep, &evicted, NULL);
  atomic_fetch_add_explicit(&d->stats->evictions, evicted, memory_order_relaxed);
}
