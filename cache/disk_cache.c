/* The on-disk cubin cache; see disk_cache.h. Entry layout (little-endian):
 *   0  magic "TCJCACHE"     8  u32 format version   12 u32 header bytes (48)
 *   16 u32 key length       20 u32 flags (bit 0: PTX present)
 *   24 u64 cubin bytes      32 u64 PTX bytes         40 u64 xxh64 of the whole entry, this
 *                                                       field taken as zero
 *   48 key text, cubin, PTX */
#include "cache/disk_cache.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define ENTRY_SUFFIX ".tcjc"
#define HEADER_BYTES 48
#define CHECKSUM_AT 40
#define ENTRY_MAX_BYTES (1ull << 30) /* larger files are not entries of ours */
static const char MAGIC[8] = {'T', 'C', 'J', 'C', 'A', 'C', 'H', 'E'};

/* Causes of write failure, each warned about once per cache. */
enum { WARN_MKDIR, WARN_CREATE, WARN_WRITE, WARN_FSYNC, WARN_RENAME, WARN_COUNT };

struct cache_disk {
  char *dir, *tmp_dir;
  char **ro_roots;
  int n_ro;
  uint64_t max_bytes;
  int store_ptx;
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

int cache_disk_config_from_env(cache_disk_config *cfg, char *buf, size_t buf_size, const char **why) {
  memset(cfg, 0, sizeof *cfg);
  cfg->max_bytes = CACHE_DEFAULT_MAX_BYTES;
  if (env_on("TCJ_CACHE_DISABLE")) return 1;
  const char *dir = getenv("TCJ_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (dir && *dir) {
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
    char *end;
    errno = 0;
    unsigned long long v = strtoull(max, &end, 10);
    int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : 0;
    if (shift) end++;
    /* strtoull would skip blanks and accept a sign: a size starts with a digit. */
    if (errno || !isdigit((unsigned char)max[0]) || *end || v > (UINT64_MAX >> shift)) {
      *why = "TCJ_CACHE_MAX_BYTES must be a byte count, optionally with K, M or G";
      return -1;
    }
    cfg->max_bytes = (uint64_t)v << shift;
  }
  cfg->store_ptx = env_on("TCJ_CACHE_STORE_PTX");
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
  if (cfg->dir && *cfg->dir) {
    if (!(d->dir = strdup(cfg->dir)) || !(d->tmp_dir = join(cfg->dir, "tmp"))) goto oom;
  }
  if (cfg->ro_roots) {
    char *copy = strdup(cfg->ro_roots);
    if (!copy) goto oom;
    int n = 1;
    for (const char *p = copy; *p; p++) n += *p == ':';
    d->ro_roots = calloc((size_t)n, sizeof *d->ro_roots);
    if (!d->ro_roots) { free(copy); goto oom; }
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
  free(d->dir);
  free(d->tmp_dir);
  free(d);
}

void cache_disk_set_io(cache_disk *d, const cache_io *io) { d->io = io ? *io : real_io; }

void cache_disk_set_warn(cache_disk *d, cache_warn_fn fn, void *ctx) {
  d->warn = fn;
  d->warn_ctx = ctx;
}

const char *cache_disk_dir(const cache_disk *d) { return d->dir; }

static void warn_once(cache_disk *d, int cause, const char *what, const char *path, int err) {
  atomic_fetch_add_explicit(&d->stats->write_failures, 1, memory_order_relaxed);
  if (atomic_exchange(&d->warned[cause], 1) || !d->warn) return;
  char msg[1024];
  snprintf(msg, sizeof msg, "kernel cache: %s %s: %s; kernels stay in memory only", what, path, strerror(err));
  d->warn(d->warn_ctx, msg);
}

void cache_entry_name(const char *key, char out[32]) {
  snprintf(out, 32, "%016llx" ENTRY_SUFFIX, (unsigned long long)XXH64(key, strlen(key), 0));
}

/* ---- read ---- */

/* Reads a whole file of at most ENTRY_MAX_BYTES; returns NULL when absent or unreadable. */
static unsigned char *read_file(const char *path, size_t *size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  unsigned char *buf = NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > ENTRY_MAX_BYTES) goto done;
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

/* Validates an entry image against key. Returns the cubin's offset, or 0 when it is not a
 * valid entry of this key in this format. */
static size_t validate(const unsigned char *e, size_t size, const char *key, size_t *cubin_size) {
  if (size < HEADER_BYTES || memcmp(e, MAGIC, sizeof MAGIC) != 0) return 0;
  if (get_u32(e + 8) != CACHE_FORMAT_VERSION || get_u32(e + 12) != HEADER_BYTES) return 0;
  uint64_t key_len = get_u32(e + 16), cubin = get_u64(e + 24), ptx = get_u64(e + 32);
  if (cubin == 0 || key_len > size || cubin > size || ptx > size ||
      HEADER_BYTES + key_len + cubin + ptx != size)
    return 0;
  XXH64_state_t *h = XXH64_createState();
  if (!h) return 0;
  static const unsigned char zero[8];
  XXH64_reset(h, 0);
  XXH64_update(h, e, CHECKSUM_AT);
  XXH64_update(h, zero, sizeof zero);
  XXH64_update(h, e + HEADER_BYTES, size - HEADER_BYTES);
  uint64_t sum = XXH64_digest(h);
  XXH64_freeState(h);
  if (sum != get_u64(e + CHECKSUM_AT)) return 0;
  if (key_len != strlen(key) || memcmp(e + HEADER_BYTES, key, key_len) != 0) return 0;
  *cubin_size = cubin;
  return HEADER_BYTES + key_len;
}

static int get_from(cache_disk *d, const char *root, const char *name, const char *key, int writable,
                    void **cubin, size_t *size) {
  char *path = join(root, name);
  if (!path) return 0;
  size_t n = 0, csize = 0;
  unsigned char *e = read_file(path, &n);
  size_t off = e ? validate(e, n, key, &csize) : 0;
  /* LRU: a hit is a use. Only valid entries, and never in a read-only root. */
  if (off && writable) utimensat(AT_FDCWD, path, NULL, 0);
  free(path);
  if (!e) return 0;
  if (!off) {
    atomic_fetch_add_explicit(&d->stats->bad_entries, 1, memory_order_relaxed);
    free(e);
    return 0;
  }
  memmove(e, e + off, csize); /* hand the cubin back in the same allocation */
  *cubin = e;
  *size = csize;
  return 1;
}

int cache_disk_get(cache_disk *d, const char *key, void **cubin, size_t *size) {
  char name[32];
  cache_entry_name(key, name);
  int hit = d->dir && get_from(d, d->dir, name, key, 1, cubin, size);
  for (int i = 0; !hit && i < d->n_ro; i++) hit = get_from(d, d->ro_roots[i], name, key, 0, cubin, size);
  atomic_fetch_add_explicit(hit ? &d->stats->disk_hits : &d->stats->disk_misses, 1, memory_order_relaxed);
  return hit;
}

/* ---- write ---- */

static int mkdir_p(const char *path) {
  char *p = strdup(path);
  if (!p) return -1;
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(p, 0755) != 0 && errno != EEXIST) { free(p); return -1; }
    *s = '/';
  }
  int r = mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
  free(p);
  return r;
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

static void maintain(cache_disk *d, const char *keep);

int cache_disk_put(cache_disk *d, const char *key, const void *cubin, size_t size, const char *ptx, size_t ptx_len) {
  if (!d->dir || !cubin || !size) return -1;
  if (!d->store_ptx || !ptx) ptx_len = 0;
  if (HEADER_BYTES + strlen(key) + size + ptx_len > ENTRY_MAX_BYTES) return -1; /* could never be read */
  if (mkdir_p(d->tmp_dir) != 0) { warn_once(d, WARN_MKDIR, "cannot create", d->tmp_dir, errno); return -1; }

  char name[32], host[64] = "host", tmp_name[160];
  cache_entry_name(key, name);
  gethostname(host, sizeof host - 1);
  host[sizeof host - 1] = 0;
  for (char *c = host; *c; c++)
    if (*c == '/' || *c == '.') *c = '_';
  snprintf(tmp_name, sizeof tmp_name, "%.16s.%s.%ld.%016llx.tmp", name, host, (long)getpid(),
           (unsigned long long)random_u64());
  char *tmp = join(d->tmp_dir, tmp_name), *final = join(d->dir, name);
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
  XXH64_state_t *xs = XXH64_createState();
  if (!xs) goto done;
  XXH64_reset(xs, 0);
  XXH64_update(xs, h, sizeof h); /* checksum field is still zero */
  XXH64_update(xs, key, key_len);
  XXH64_update(xs, cubin, size);
  if (ptx_len) XXH64_update(xs, ptx, ptx_len);
  put_u64(h + CHECKSUM_AT, XXH64_digest(xs));
  XXH64_freeState(xs);

  fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) { warn_once(d, WARN_CREATE, "cannot create", tmp, errno); goto done; }
  if (write_all(d, fd, h, sizeof h) || write_all(d, fd, key, key_len) || write_all(d, fd, cubin, size) ||
      (ptx_len && write_all(d, fd, ptx, ptx_len))) {
    warn_once(d, WARN_WRITE, "cannot write", tmp, errno);
    goto done;
  }
  /* The data must be on disk before the name is: after a crash, a renamed entry is whole. */
  if (d->io.fsync(fd) != 0) { warn_once(d, WARN_FSYNC, "cannot fsync", tmp, errno); goto done; }
  close(fd);
  fd = -1;
  if (d->io.rename(tmp, final) != 0) { warn_once(d, WARN_RENAME, "cannot rename into", final, errno); goto done; }
  int dfd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) { fsync(dfd); close(dfd); }
  atomic_fetch_add_explicit(&d->stats->bytes_written, HEADER_BYTES + key_len + size + ptx_len, memory_order_relaxed);
  ret = 0;
  maintain(d, name);
done:
  if (fd >= 0) close(fd);
  if (ret != 0 && tmp) unlink(tmp);
  free(tmp);
  free(final);
  return ret;
}

void cache_disk_evict(cache_disk *d, const char *key) {
  if (!d->dir) return;
  char name[32];
  cache_entry_name(key, name);
  char *path = join(d->dir, name);
  if (path && unlink(path) == 0) atomic_fetch_add_explicit(&d->stats->evictions, 1, memory_order_relaxed);
  free(path);
}

/* ---- size cap and debris ---- */

typedef struct entry_info { char name[40]; uint64_t bytes; struct timespec mtime; } entry_info;

static int older_first(const void *a, const void *b) {
  const entry_info *x = a, *y = b;
  if (x->mtime.tv_sec != y->mtime.tv_sec) return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
  if (x->mtime.tv_nsec != y->mtime.tv_nsec) return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Temp files of writers that died (SIGKILL, power loss) are removed after an hour; live
 * writers finish in well under that. */
static void reap_tmp(cache_disk *d) {
  DIR *dir = opendir(d->tmp_dir);
  if (!dir) return;
  time_t now = time(NULL);
  struct dirent *de;
  int dfd = dirfd(dir);
  while ((de = readdir(dir)) != NULL) {
    struct stat st;
    if (!has_suffix(de->d_name, ".tmp") || fstatat(dfd, de->d_name, &st, 0) != 0) continue;
    if (now - st.st_mtime > CACHE_TMP_MAX_AGE_S) unlinkat(dfd, de->d_name, 0);
  }
  closedir(dir);
}

/* Least recently used entries go first (a hit touches the mtime) until the cap holds. `keep`,
 * the entry just written, stays even when it alone exceeds the cap or other entries carry
 * mtimes from the future (copied from a host whose clock runs ahead). */
static void enforce_cap(cache_disk *d, const char *keep) {
  DIR *dir = opendir(d->dir);
  if (!dir) return;
  entry_info *v = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  struct dirent *de;
  int dfd = dirfd(dir);
  while ((de = readdir(dir)) != NULL) {
    struct stat st;
    if (!has_suffix(de->d_name, ENTRY_SUFFIX) || strlen(de->d_name) >= sizeof v->name) continue;
    if (fstatat(dfd, de->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode)) continue;
    if (n == cap) {
      entry_info *nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
      if (!nv) break;
      v = nv;
    }
    memcpy(v[n].name, de->d_name, strlen(de->d_name) + 1); /* length checked above */
    v[n].bytes = (uint64_t)st.st_size;
    v[n].mtime = st.st_mtim;
    total += v[n++].bytes;
  }
  if (total > d->max_bytes) {
    qsort(v, n, sizeof *v, older_first);
    for (size_t i = 0; i < n && total > d->max_bytes; i++)
      if (strcmp(v[i].name, keep) != 0 && unlinkat(dfd, v[i].name, 0) == 0) {
        total -= v[i].bytes;
        atomic_fetch_add_explicit(&d->stats->evictions, 1, memory_order_relaxed);
      }
  }
  free(v);
  closedir(dir);
}

static void maintain(cache_disk *d, const char *keep) {
  reap_tmp(d);
  enforce_cap(d, keep);
}
