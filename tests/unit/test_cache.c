/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of cache/disk_cache: every damaged entry is a miss that the next put replaces,
 * concurrent and killed writers never leave a torn entry, read-only roots stay untouched,
 * injected I/O failures warn once per cause, LRU eviction, and the environment knobs. Each
 * test runs in its own temp dir under /tmp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#define XXH_INLINE_ALL /* to forge entries whose checksum is right but whose content is not */
#include <xxhash.h>

#include <sys/socket.h>
#include <sys/un.h>

#include "cache/disk_cache.h"

#define HEADER_BYTES CACHE_ENTRY_HEADER_BYTES /* entry layout, see disk_cache.c */
#define CHECKSUM_AT CACHE_ENTRY_CHECKSUM_AT

/* ---- fixture and helpers ---- */

typedef struct fx {
  char root[64];
  char dir[128];    /* writable cache dir (not created up front) */
  char ro[128];     /* a second dir for read-only root tests */
} fx;

static int fx_setup(void **state) {
  fx *f = calloc(1, sizeof *f);
  if (!f) return -1;
  snprintf(f->root, sizeof f->root, "/tmp/tcj-test-cache-XXXXXX");
  if (!mkdtemp(f->root)) { free(f); return -1; }
  snprintf(f->dir, sizeof f->dir, "%s/cache", f->root);
  snprintf(f->ro, sizeof f->ro, "%s/ro", f->root);
  *state = f;
  return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st; (void)flag; (void)ftw;
  return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

static void rm_rf(const char *path) { nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

static int fx_teardown(void **state) {
  fx *f = *state;
  rm_rf(f->root);
  free(f);
  return 0;
}

static cache_disk *open_cache(const char *dir, const char *ro, uint64_t max_bytes, cache_stats *stats) {
  cache_disk_config cfg = {.dir = dir, .ro_roots = ro, .max_bytes = max_bytes};
  cache_disk *d = cache_disk_open(&cfg, stats);
  assert_non_null(d);
  return d;
}

/* Deterministic bytes: a cubin stand-in that differs per seed. */
static unsigned char *content(unsigned seed, size_t size) {
  unsigned char *p = malloc(size);
  assert_non_null(p);
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < size; i++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    p[i] = (unsigned char)x;
  }
  return p;
}

static void expect_hit(cache_disk *d, const char *key, const void *want, size_t want_size) {
  void *got = NULL;
  size_t size = 0;
  int hit = cache_disk_get(d, key, &got, &size);
  if (hit != 1) print_error("expected a hit for key '%s'\n", key);
  assert_int_equal(hit, 1);
  assert_int_equal(size, want_size);
  assert_memory_equal(got, want, want_size);
  free(got);
}

static void expect_miss(cache_disk *d, const char *key) {
  void *got = (void *)0x1;
  size_t size = 12345;
  int hit = cache_disk_get(d, key, &got, &size);
  if (hit != 0) {
    print_error("expected a miss for key '%s', got %zu bytes\n", key, size);
    free(got);
  }
  assert_int_equal(hit, 0);
}

static void entry_path(const char *dir, const char *key, char *out, size_t size) {
  char name[32];
  cache_entry_name(key, name);
  snprintf(out, size, "%s/%s", dir, name);
}

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Files in dir whose name ends in suffix ("" for all); 0 when dir does not exist. */
static int count_files(const char *dir, const char *suffix) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL)
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && has_suffix(de->d_name, suffix)) n++;
  closedir(d);
  return n;
}

static int count_entries(const char *dir) { return count_files(dir, ".tcjc"); }

static int count_tmp(const char *dir) {
  char tmp[256];
  snprintf(tmp, sizeof tmp, "%s/tmp", dir);
  return count_files(tmp, "");
}

/* The one file in <dir>/tmp, into out. */
static void only_tmp_file(const char *dir, char *out, size_t size) {
  char tmp[256];
  snprintf(tmp, sizeof tmp, "%s/tmp", dir);
  DIR *d = opendir(tmp);
  assert_non_null(d);
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    snprintf(out, size, "%s/%s", tmp, de->d_name);
    n++;
  }
  closedir(d);
  assert_int_equal(n, 1);
}

static unsigned char *read_whole(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) print_error("cannot open %s: %s\n", path, strerror(errno));
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  unsigned char *p = malloc(n ? (size_t)n : 1);
  assert_non_null(p);
  assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *size = (size_t)n;
  return p;
}

static void write_whole(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(p, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

static void set_mtime(const char *path, time_t t) {
  struct timespec ts[2] = {{t, 0}, {t, 0}};
  assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static struct timespec mtime_of(const char *path) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  return st.st_mtim;
}

static uint64_t stat_of(_Atomic uint64_t *c) { return atomic_load(c); }

/* A seed from TCJ_TEST_SEED, else the clock; printed so a failure can be replayed. */
static uint32_t test_seed(const char *what) {
  const char *env = getenv("TCJ_TEST_SEED");
  uint32_t seed = env && *env ? (uint32_t)strtoul(env, NULL, 0) : (uint32_t)time(NULL) ^ (uint32_t)getpid() << 16;
  if (!seed) seed = 1;
  printf("[ info     ] %s: seed %u (TCJ_TEST_SEED=%u replays it)\n", what, seed, seed);
  return seed;
}

static uint32_t rng_next(uint32_t *s) {
  *s ^= *s << 13; *s ^= *s >> 17; *s ^= *s << 5;
  return *s;
}

/* Writes bad bytes over key's entry, then checks: miss, a put rebuilds, the next get hits
 * with the right bytes and the file is the pristine entry again. */
static void damaged_is_a_miss_and_is_rebuilt(cache_disk *d, const char *dir, const char *key, const void *cubin,
                                             size_t size, const unsigned char *pristine, size_t pristine_size,
                                             const void *bad, size_t bad_size) {
  char path[256];
  entry_path(dir, key, path, sizeof path);
  write_whole(path, bad, bad_size);
  expect_miss(d, key);
  assert_int_equal(cache_disk_put(d, key, cubin, size, NULL, 0), 0);
  expect_hit(d, key, cubin, size);
  size_t n = 0;
  unsigned char *now = read_whole(path, &n);
  assert_int_equal(n, pristine_size);
  assert_memory_equal(now, pristine, n);
  free(now);
}

static const char *KEY = "tcj-cache format=1\ncodegen=test\ncfg=recipe=sm80 arch=sm_80 ab=bf16 c=f32 op=NN "
                         "n=256 k=256 tile=32x128x32 warps=1x4 stages=3 align=16,16,2\narch=sm_80\n"
                         "compiler=driver 12080\n";

/* ---- basic put / get ---- */

static void put_then_get_returns_the_same_bytes(void **state) {
  fx *f = *state;
  cache_stats st = {0};
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, &st);
  assert_string_equal(cache_disk_dir(d), f->dir);
  size_t size = 100000;
  unsigned char *bin = content(1, size);
  assert_int_equal(cache_disk_put(d, KEY, bin, size, NULL, 0), 0);
  expect_hit(d, KEY, bin, size);
  assert_int_equal(count_entries(f->dir), 1);
  assert_int_equal(count_tmp(f->dir), 0);
  assert_int_equal(stat_of(&st.disk_hits), 1);
  assert_int_equal(stat_of(&st.bytes_written), HEADER_BYTES + strlen(KEY) + size);
  char path[256];
  entry_path(f->dir, KEY, path, sizeof path);
  struct stat sb;
  assert_int_equal(stat(path, &sb), 0);
  assert_int_equal(sb.st_size, HEADER_BYTES + strlen(KEY) + size);

  /* A second cache object (another process, later) sees it too. */
  cache_disk *d2 = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  expect_hit(d2, KEY, bin, size);
  cache_disk_close(d2);
  free(bin);
  cache_disk_close(d);
  cache_disk_close(NULL);
}

static void entry_renamed_to_another_keys_name_is_a_miss(void **state) {
  fx *f = *state;
  cache_stats st = {0};
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, &st);
  const char *a = "key A", *b = "key B";
  unsigned char *bin = content(2, 3000);
  assert_int_equal(cache_disk_put(d, a, bin, 3000, NULL, 0), 0);
  char pa[256], pb[256];
  entry_path(f->dir, a, pa, sizeof pa);
  entry_path(f->dir, b, pb, sizeof pb);
  assert_string_not_equal(pa, pb);
  /* A whole, checksum-valid entry under the wrong name: only the stored key text tells. */
  assert_int_equal(rename(pa, pb), 0);
  expect_miss(d, b);
  expect_miss(d, a);
  assert_int_equal(stat_of(&st.bad_entries), 1);
  unsigned char *bin_b = content(3, 2000);
  assert_int_equal(cache_disk_put(d, b, bin_b, 2000, NULL, 0), 0);
  expect_hit(d, b, bin_b, 2000);
  free(bin);
  free(bin_b);
  cache_disk_close(d);
}

static void get_from_an_empty_or_missing_dir_is_a_miss(void **state) {
  fx *f = *state;
  cache_stats st = {0};
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, &st); /* not created yet */
  expect_miss(d, KEY);
  assert_int_equal(mkdir(f->dir, 0755), 0);
  expect_miss(d, KEY);
  assert_int_equal(stat_of(&st.disk_misses), 2);
  assert_int_equal(stat_of(&st.bad_entries), 0);
  cache_disk_evict(d, KEY); /* nothing to evict: no-op */
  cache_disk_close(d);
  /* No directory at all, and read-only roots that do not exist. */
  d = open_cache(NULL, "/nonexistent/tcj-a::/nonexistent/tcj-b", CACHE_DEFAULT_MAX_BYTES, NULL);
  assert_null(cache_disk_dir(d));
  expect_miss(d, KEY);
  cache_disk_close(d);
}

static void evicted_entry_is_a_miss(void **state) {
  fx *f = *state;
  cache_stats st = {0};
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, &st);
  unsigned char *bin = content(4, 500);
  assert_int_equal(cache_disk_put(d, KEY, bin, 500, NULL, 0), 0);
  cache_disk_evict(d, KEY);
  expect_miss(d, KEY);
  assert_int_equal(count_entries(f->dir), 0);
  /* tcj.h: evictions are removals by the size cap; a refused cubin is the caller's bad_entries. */
  assert_int_equal(stat_of(&st.evictions), 0);
  free(bin);
  cache_disk_close(d);
}

static void ptx_is_stored_only_when_asked_and_get_returns_the_cubin(void **state) {
  fx *f = *state;
  const char *ptx = ".version 8.0\n.target sm_80\n";
  unsigned char *bin = content(5, 700);
  char path[256];
  entry_path(f->dir, KEY, path, sizeof path);
  for (int store = 0; store <= 1; store++) {
    cache_disk_config cfg = {.dir = f->dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES, .store_ptx = store};
    cache_disk *d = cache_disk_open(&cfg, NULL);
    assert_non_null(d);
    assert_int_equal(cache_disk_put(d, KEY, bin, 700, ptx, strlen(ptx)), 0);
    expect_hit(d, KEY, bin, 700);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_size, HEADER_BYTES + strlen(KEY) + 700 + (store ? strlen(ptx) : 0));
    cache_disk_close(d);
  }
  free(bin);
}

/* ---- corruption: a miss, rebuilt and replaced, never a crash ---- */

/* Puts key -> bin and returns the entry file's bytes (caller frees); *path gets its path. */
static unsigned char *put_and_read_entry(cache_disk *d, const char *dir, const char *key, const void *bin,
                                         size_t size, char path[256], size_t *n) {
  assert_int_equal(cache_disk_put(d, key, bin, size, NULL, 0), 0);
  entry_path(dir, key, path, 256);
  *n = 0;
  return read_whole(path, n);
}

static void bit_flip_anywhere_is_a_miss_and_is_rebuilt(void **state) {
  fx *f = *state;
  cache_stats st = {0};
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, &st);
  size_t size = 2048;
  unsigned char *bin = content(6, size);
  char path[256];
  size_t n = 0;
  unsigned char *pristine = put_and_read_entry(d, f->dir, KEY, bin, size, path, &n);
  unsigned char *bad = malloc(n);
  assert_non_null(bad);
  uint32_t rng = test_seed("bit flips");
  for (int i = 0; i < 50; i++) {
    size_t off = rng_next(&rng) % n;
    int bit = (int)(rng_next(&rng) % 8);
    memcpy(bad, pristine, n);
    bad[off] ^= (unsigned char)(1u << bit);
    damaged_is_a_miss_and_is_rebuilt(d, f->dir, KEY, bin, size, pristine, n, bad, n);
  }
  /* The header is small enough to hit every byte once, not just by chance. */
  for (size_t off = 0; off < HEADER_BYTES; off++) {
    memcpy(bad, pristine, n);
    bad[off] ^= (unsigned char)(1u << (off % 8));
    damaged_is_a_miss_and_is_rebuilt(d, f->dir, KEY, bin, size, pristine, n, bad, n);
  }
  assert_int_equal(stat_of(&st.bad_entries), 50 + HEADER_BYTES);
  free(bad);
  free(pristine);
  free(bin);
  cache_disk_close(d);
}

static void truncation_at_every_length_is_a_miss_and_is_rebuilt(void **state) {
  fx *f = *state;
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  const char *key = "small key";
  size_t size = 40;
  unsigned char *bin = content(7, size);
  char path[256];
  size_t n = 0;
  unsigned char *pristine = put_and_read_entry(d, f->dir, key, bin, size, path, &n);
  assert_int_equal(n, HEADER_BYTES + strlen(key) + size);
  for (size_t len = 0; len < n; len++)
    damaged_is_a_miss_and_is_rebuilt(d, f->dir, key, bin, size, pristine, n, pristine, len);
  /* Trailing garbage after a whole entry is not a valid entry either. */
  unsigned char *longer = malloc(n + 1);
  assert_non_null(longer);
  memcpy(longer, pristine, n);
  longer[n] = 0;
  damaged_is_a_miss_and_is_rebuilt(d, f->dir, key, bin, size, pristine, n, longer, n + 1);
  free(longer);
  free(pristine);
  free(bin);
  cache_disk_close(d);
}

static void zero_length_entry_is_a_miss_and_is_rebuilt(void **state) {
  fx *f = *state;
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  unsigned char *bin = content(8, 1000);
  char path[256];
  size_t n = 0;
  unsigned char *pristine = put_and_read_entry(d, f->dir, KEY, bin, 1000, path, &n);
  damaged_is_a_miss_and_is_rebuilt(d, f->dir, KEY, bin, 1000, pristine, n, "", 0);
  /* A zero-length file where no put ever happened, too. */
  assert_int_equal(unlink(path), 0);
  write_whole(path, "", 0);
  expect_miss(d, KEY);
  free(pristine);
  free(bin);
  cache_disk_close(d);
}

static void put_u32_le(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void reseal(unsigned char *e, size_t n) {
  memset(e + CHECKSUM_AT, 0, 8);
  uint64_t sum = XXH64(e, n, 0);
  for (int i = 0; i < 8; i++) e[CHECKSUM_AT + i] = (unsigned char)(sum >> (8 * i));
}

/* The entry names who compiled it beside the key, not in it: a cubin for an arch is correct
 * whoever built it, so one warmed by nvJitLink serves a process with the driver alone. */
static void entry_records_its_compiler_and_serves_every_process(void **state) {
  fx *f = *state;
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  unsigned char *bin = content(44, 3000);
  const char *by = "nvJitLink libnvJitLink.so.13 bytes=98806736";
  assert_int_equal(cache_disk_put_by(d, KEY, by, bin, 3000, NULL, 0), 0);
  expect_hit(d, KEY, bin, 3000);
  char path[256];
  entry_path(f->dir, KEY, path, sizeof path);
  size_t n = 0;
  unsigned char *e = read_whole(path, &n);
  cache_entry_view v;
  assert_int_equal(cache_entry_read(e, n, KEY, &v), 1);
  assert_int_equal(v.compiler_len, strlen(by));
  assert_memory_equal(v.compiler, by, v.compiler_len);
  assert_int_equal(v.cubin_size, 3000);
  assert_memory_equal(v.cubin, bin, 3000);
  assert_int_equal(cache_entry_read(e, n, NULL, &v), 1); /* its own key */
  assert_int_equal(v.key_len, strlen(KEY));
  free(e);
  free(bin);
  cache_disk_close(d);
}

static void newer_format_version_is_a_miss_and_is_rebuilt(void **state) {
  fx *f = *state;
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  unsigned char *bin = content(9, 1500);
  char path[256];
  size_t n = 0;
  unsigned char *pristine = put_and_read_entry(d, f->dir, KEY, bin, 1500, path, &n);
  unsigned char *bad = malloc(n);
  assert_non_null(bad);

  /* The checksum is stale after the rewrite... */
  memcpy(bad, pristine, n);
  put_u32_le(bad + 8, CACHE_FORMAT_VERSION + 1);
  damaged_is_a_miss_and_is_rebuilt(d, f->dir, KEY, bin, 1500, pristine, n, bad, n);
  /* ...and a newer writer's entry would carry a right checksum: still a miss. Check the
   * reseal itself is faithful first: resealing the pristine entry changes nothing. */
  memcpy(bad, pristine, n);
  reseal(bad, n);
  assert_memory_equal(bad, pristine, n);
  put_u32_le(bad + 8, CACHE_FORMAT_VERSION + 1);
  reseal(bad, n);
  damaged_is_a_miss_and_is_rebuilt(d, f->dir, KEY, bin, 1500, pristine, n, bad, n);
  /* Older formats (1 kept the compiler in the key) and 0 (garbage) likewise. */
  for (uint32_t old = 0; old < CACHE_FORMAT_VERSION; old++) {
    put_u32_le(bad + 8, old);
    reseal(bad, n);
    damaged_is_a_miss_and_is_rebuilt(d, f->dir, KEY, bin, 1500, pristine, n, bad, n);
  }
  free(bad);
  free(pristine);
  free(bin);
  cache_disk_close(d);
}

/* ---- concurrent writers ---- */

/* Runs n children that each open their own cache on dir and put (key_i, bin) at the same
 * moment: they block on a pipe that the parent closes. Checks every child exited 0. */
static void race_puts(const char *dir, int n, int same_key, const unsigned char *bin, size_t size) {
  int gate[2];
  assert_int_equal(pipe(gate), 0);
  pid_t pids[16];
  for (int i = 0; i < n; i++) {
    pids[i] = fork();
    assert_true(pids[i] >= 0);
    if (pids[i] == 0) {
      close(gate[1]);
      char c;
      ssize_t r = read(gate[0], &c, 1); /* EOF when the parent closes its end: go */
      (void)r;
      char key[64];
      snprintf(key, sizeof key, "race key %d", same_key ? 0 : i);
      cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
      cache_disk *d = cache_disk_open(&cfg, NULL);
      int rc = d && cache_disk_put(d, key, bin, size, NULL, 0) == 0 ? 0 : 1;
      cache_disk_close(d);
      _exit(rc);
    }
  }
  close(gate[0]);
  usleep(50 * 1000); /* let every child reach the gate */
  close(gate[1]);
  for (int i = 0; i < n; i++) {
    int status = 0;
    assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
  }
}

static void eight_writers_of_one_key_leave_one_valid_entry_and_no_temp(void **state) {
  fx *f = *state;
  size_t size = 1 << 20; /* large enough that the writes overlap */
  unsigned char *bin = content(10, size);
  for (int round = 0; round < 3; round++) {
    rm_rf(f->dir);
    race_puts(f->dir, 8, 1, bin, size);
    assert_int_equal(count_entries(f->dir), 1);
    assert_int_equal(count_tmp(f->dir), 0);
    cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
    expect_hit(d, "race key 0", bin, size);
    cache_disk_close(d);
  }
  free(bin);
}

static void eight_writers_of_different_keys_leave_eight_entries(void **state) {
  fx *f = *state;
  size_t size = 256 << 10;
  unsigned char *bin = content(11, size);
  race_puts(f->dir, 8, 0, bin, size);
  assert_int_equal(count_entries(f->dir), 8);
  assert_int_equal(count_tmp(f->dir), 0);
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  for (int i = 0; i < 8; i++) {
    char key[64];
    snprintf(key, sizeof key, "race key %d", i);
    expect_hit(d, key, bin, size);
  }
  cache_disk_close(d);
  free(bin);
}

/* ---- a writer killed while publishing ---- */

static int stall_fd = -1;       /* the child tells the parent it is stalled through this */
static size_t stall_min_write;  /* writes at least this long stall halfway */

static void stalled(char what) {
  ssize_t r = write(stall_fd, &what, 1);
  (void)r;
  for (;;) pause();
}

static ssize_t half_then_stall_write(int fd, const void *buf, size_t n) {
  if (n < stall_min_write) return write(fd, buf, n);
  ssize_t w = write(fd, buf, n / 2);
  (void)w;
  stalled('w');
  return -1;
}

static int stalling_fsync(int fd) {
  (void)fd;
  stalled('f');
  return -1;
}

enum { STALL_WRITE, STALL_FSYNC };

/* Forks a writer of key -> bin that stalls in the middle of its publish, waits until it is
 * stalled, and SIGKILLs it. */
static void kill_writer_mid_publish(const char *dir, const char *key, const unsigned char *bin, size_t size,
                                    int where) {
  int note[2];
  assert_int_equal(pipe(note), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(note[0]);
    stall_fd = note[1];
    stall_min_write = size;
    cache_io io = {where == STALL_WRITE ? half_then_stall_write : write, where == STALL_FSYNC ? stalling_fsync : fsync,
                   rename};
    cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
    cache_disk *d = cache_disk_open(&cfg, NULL);
    if (!d) _exit(3);
    cache_disk_set_io(d, &io);
    cache_disk_put(d, key, bin, size, NULL, 0);
    _exit(4); /* the put returned: it should have stalled */
  }
  close(note[1]);
  char c = 0;
  ssize_t r = read(note[0], &c, 1);
  close(note[0]);
  if (r != 1) print_error("the writer did not stall (%s)\n", where == STALL_WRITE ? "write" : "fsync");
  assert_int_equal(r, 1);
  assert_int_equal(c, where == STALL_WRITE ? 'w' : 'f');
  assert_int_equal(kill(pid, SIGKILL), 0);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFSIGNALED(status));
  assert_int_equal(WTERMSIG(status), SIGKILL);
}

static void killed_writer_leaves_no_entry(void **state) {
  fx *f = *state;
  size_t size = 200000;
  unsigned char *bin = content(12, size);
  for (int where = STALL_WRITE; where <= STALL_FSYNC; where++) {
    rm_rf(f->dir);
    kill_writer_mid_publish(f->dir, KEY, bin, size, where);
    cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
    expect_miss(d, KEY);
    assert_int_equal(count_entries(f->dir), 0);
    assert_int_equal(count_tmp(f->dir), 1);
    char tmp[512];
    only_tmp_file(f->dir, tmp, sizeof tmp);
    assert_true(has_suffix(tmp, ".tmp"));
    if (where == STALL_WRITE) {
      /* The torn temp is not an entry even if something moved it into place. */
      size_t n = 0;
      unsigned char *torn = read_whole(tmp, &n);
      assert_true(n < HEADER_BYTES + strlen(KEY) + size);
      char path[256];
      entry_path(f->dir, KEY, path, sizeof path);
      write_whole(path, torn, n);
      expect_miss(d, KEY);
      assert_int_equal(unlink(path), 0);
      free(torn);
    }
    /* A later writer publishes normally beside the debris. */
    assert_int_equal(cache_disk_put(d, KEY, bin, size, NULL, 0), 0);
    expect_hit(d, KEY, bin, size);
    cache_disk_close(d);
  }
  free(bin);
}

static void killed_writer_leaves_the_previous_entry(void **state) {
  fx *f = *state;
  size_t size = 200000;
  unsigned char *old = content(13, size), *fresh = content(14, size);
  for (int where = STALL_WRITE; where <= STALL_FSYNC; where++) {
    rm_rf(f->dir);
    cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
    assert_int_equal(cache_disk_put(d, KEY, old, size, NULL, 0), 0);
    kill_writer_mid_publish(f->dir, KEY, fresh, size, where);
    expect_hit(d, KEY, old, size);
    assert_int_equal(count_entries(f->dir), 1);
    assert_int_equal(count_tmp(f->dir), 1);
    cache_disk_close(d);
  }
  free(old);
  free(fresh);
}

static void temp_of_a_killed_writer_is_reaped_after_an_hour(void **state) {
  fx *f = *state;
  size_t size = 100000;
  unsigned char *bin = content(15, size);
  kill_writer_mid_publish(f->dir, KEY, bin, size, STALL_WRITE);
  char tmp[512];
  only_tmp_file(f->dir, tmp, sizeof tmp);
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  /* Young: it may belong to a live writer, so a put leaves it. */
  assert_int_equal(cache_disk_put(d, "other key 1", bin, 100, NULL, 0), 0);
  assert_int_equal(count_tmp(f->dir), 1);
  set_mtime(tmp, time(NULL) - 2 * 3600);
  assert_int_equal(cache_disk_put(d, "other key 2", bin, 100, NULL, 0), 0);
  assert_int_equal(count_tmp(f->dir), 0);
  assert_int_equal(count_entries(f->dir), 2);
  expect_miss(d, KEY);
  cache_disk_close(d);
  free(bin);
}

/* ---- read-only roots ---- */

static char listing[1 << 16];
static size_t listing_len;

static int list_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)flag; (void)ftw;
  listing_len += (size_t)snprintf(listing + listing_len, sizeof listing - listing_len, "%s %o %lld %lld.%09ld\n",
                                  path, (unsigned)st->st_mode, (long long)st->st_size, (long long)st->st_mtim.tv_sec,
                                  st->st_mtim.tv_nsec);
  return listing_len < sizeof listing - 256 ? 0 : 1;
}

/* Names, modes, sizes and mtimes of everything under path (nftw's order is stable for an
 * unchanged tree). The caller frees. */
static char *snapshot(const char *path) {
  listing_len = 0;
  listing[0] = 0;
  assert_int_equal(nftw(path, list_one, 16, FTW_PHYS), 0);
  char *s = strdup(listing);
  assert_non_null(s);
  return s;
}

static void fill_ro_root(const fx *f, unsigned char **bins, int n, size_t size) {
  cache_disk *w = open_cache(f->ro, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  for (int i = 0; i < n; i++) {
    char key[32];
    snprintf(key, sizeof key, "ro key %d", i);
    bins[i] = content(20 + (unsigned)i, size);
    assert_int_equal(cache_disk_put(w, key, bins[i], size, NULL, 0), 0);
    char path[256];
    entry_path(f->ro, key, path, sizeof path);
    set_mtime(path, time(NULL) - 7200); /* any touch would show, whatever the clock granularity */
  }
  cache_disk_close(w);
}

static void read_only_root_serves_hits_and_is_never_written(void **state) {
  fx *f = *state;
  enum { N = 3 };
  unsigned char *bins[N];
  size_t size = 5000;
  fill_ro_root(f, bins, N, size);
  char *before = snapshot(f->ro);

  char roots[300];
  snprintf(roots, sizeof roots, "/nonexistent/tcj-root:%s", f->ro);
  cache_stats st = {0};
  cache_disk *d = open_cache(f->dir, roots, 3 * size, &st); /* a cap small enough to evict in dir */
  for (int i = 0; i < N; i++) {
    char key[32];
    snprintf(key, sizeof key, "ro key %d", i);
    expect_hit(d, key, bins[i], size);
  }
  assert_int_equal(stat_of(&st.disk_hits), N);
  /* Puts, evictions and reaping all happen in dir. */
  unsigned char *mine = content(30, size);
  for (int i = 0; i < 5; i++) {
    char key[32];
    snprintf(key, sizeof key, "rw key %d", i);
    assert_int_equal(cache_disk_put(d, key, mine, size, NULL, 0), 0);
  }
  assert_int_equal(cache_disk_put(d, "ro key 0", mine, size, NULL, 0), 0); /* shadows the ro copy */
  expect_hit(d, "ro key 0", mine, size);
  cache_disk_evict(d, "ro key 1"); /* only dir is evicted from */
  expect_hit(d, "ro key 1", bins[1], size);
  assert_true(count_entries(f->dir) >= 1);
  assert_true(stat_of(&st.evictions) >= 1);

  char *after = snapshot(f->ro);
  assert_string_equal(before, after);
  free(before);
  free(after);
  free(mine);
  for (int i = 0; i < N; i++) free(bins[i]);
  cache_disk_close(d);
}

static void read_only_root_without_a_writable_dir_serves_hits_and_refuses_puts(void **state) {
  fx *f = *state;
  unsigned char *bins[2];
  size_t size = 3000;
  fill_ro_root(f, bins, 2, size);
  char *before = snapshot(f->ro);
  cache_disk *d = open_cache(NULL, f->ro, CACHE_DEFAULT_MAX_BYTES, NULL);
  assert_null(cache_disk_dir(d));
  expect_hit(d, "ro key 0", bins[0], size);
  expect_hit(d, "ro key 1", bins[1], size);
  expect_miss(d, "ro key 2");
  assert_int_equal(cache_disk_put(d, "ro key 2", bins[0], size, NULL, 0), -1);
  cache_disk_evict(d, "ro key 0");
  expect_hit(d, "ro key 0", bins[0], size);
  char *after = snapshot(f->ro);
  assert_string_equal(before, after);
  free(before);
  free(after);
  free(bins[0]);
  free(bins[1]);
  cache_disk_close(d);
}

/* ---- injected failures ---- */

typedef struct warnings { int count; char last[1024]; } warnings;

static void on_warn(void *ctx, const char *message) {
  warnings *w = ctx;
  w->count++;
  snprintf(w->last, sizeof w->last, "%s", message);
}

static ssize_t enospc_write(int fd, const void *buf, size_t n) {
  (void)fd; (void)buf; (void)n;
  errno = ENOSPC;
  return -1;
}
static ssize_t zero_write(int fd, const void *buf, size_t n) { /* a full disk, seen as no progress */
  (void)fd; (void)buf; (void)n;
  return 0;
}
static int eio_fsync(int fd) {
  (void)fd;
  errno = EIO;
  return -1;
}
static int eacces_rename(const char *from, const char *to) {
  (void)from; (void)to;
  errno = EACCES;
  return -1;
}

static void injected_failures_fail_the_put_cleanly_and_warn_once_per_cause(void **state) {
  fx *f = *state;
  cache_stats st = {0};
  warnings w = {0};
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, &st);
  cache_disk_set_warn(d, on_warn, &w);
  unsigned char *bin = content(40, 4000);
  struct { cache_io io; const char *word; } causes[] = {
    {{enospc_write, fsync, rename}, "write"},
    {{zero_write, fsync, rename}, "write"}, /* same cause: no second warning */
    {{write, eio_fsync, rename}, "fsync"},
    {{write, fsync, eacces_rename}, "rename"},
  };
  int n_causes = (int)(sizeof causes / sizeof *causes), fails = 0, distinct = 0;
  for (int c = 0; c < n_causes; c++) {
    cache_disk_set_io(d, &causes[c].io);
    int warned_before = w.count;
    for (int i = 0; i < 3; i++) {
      char key[32];
      snprintf(key, sizeof key, "failing key %d.%d", c, i);
      assert_int_equal(cache_disk_put(d, key, bin, 4000, NULL, 0), -1);
      fails++;
      expect_miss(d, key);
      assert_int_equal(count_entries(f->dir), 0);
      assert_int_equal(count_tmp(f->dir), 0);
    }
    if (c == 1) {
      assert_int_equal(w.count, warned_before); /* write already warned about */
    } else {
      distinct++;
      assert_int_equal(w.count, distinct);
      if (!strstr(w.last, causes[c].word)) print_error("warning '%s' does not say '%s'\n", w.last, causes[c].word);
      assert_non_null(strstr(w.last, causes[c].word));
    }
    assert_int_equal(stat_of(&st.write_failures), fails);
  }
  assert_int_equal(w.count, 3);
  assert_int_equal(stat_of(&st.bytes_written), 0);

  cache_disk_set_io(d, NULL); /* the real calls again */
  assert_int_equal(cache_disk_put(d, KEY, bin, 4000, NULL, 0), 0);
  expect_hit(d, KEY, bin, 4000);
  assert_int_equal(w.count, 3);
  assert_int_equal(stat_of(&st.write_failures), fails);

  /* A failed replace leaves the old entry in place. */
  unsigned char *other = content(41, 4000);
  cache_disk_set_io(d, &causes[3].io);
  assert_int_equal(cache_disk_put(d, KEY, other, 4000, NULL, 0), -1);
  expect_hit(d, KEY, bin, 4000);
  assert_int_equal(count_tmp(f->dir), 0);
  free(other);
  free(bin);
  cache_disk_close(d);
}

static void deleted_cache_dir_is_recreated_by_the_next_put(void **state) {
  fx *f = *state;
  warnings w = {0};
  cache_disk *d = open_cache(f->dir, NULL, CACHE_DEFAULT_MAX_BYTES, NULL);
  cache_disk_set_warn(d, on_warn, &w);
  unsigned char *bin = content(42, 3000);
  assert_int_equal(cache_disk_put(d, "first", bin, 3000, NULL, 0), 0);
  rm_rf(f->dir);
  expect_miss(d, "first");
  assert_int_equal(cache_disk_put(d, "second", bin, 3000, NULL, 0), 0);
  expect_hit(d, "second", bin, 3000);
  expect_miss(d, "first");
  assert_int_equal(count_entries(f->dir), 1);
  assert_int_equal(count_tmp(f->dir), 0);
  assert_int_equal(w.count, 0);
  free(bin);
  cache_disk_close(d);
}

static void unwritable_cache_dir_fails_puts_with_one_warning(void **state) {
  fx *f = *state;
  /* Under a regular file, no directory can be created, even by root. */
  char file[256], dir[300];
  snprintf(file, sizeof file, "%s/a-file", f->root);
  write_whole(file, "x", 1);
  snprintf(dir, sizeof dir, "%s/cache", file);
  cache_stats st = {0};
  warnings w = {0};
  cache_disk *d = open_cache(dir, NULL, CACHE_DEFAULT_MAX_BYTES, &st);
  cache_disk_set_warn(d, on_warn, &w);
  unsigned char *bin = content(43, 100);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(cache_disk_put(d, KEY, bin, 100, NULL, 0), -1);
    expect_miss(d, KEY);
  }
  assert_int_equal(w.count, 1);
  assert_non_null(strstr(w.last, dir));
  assert_int_equal(stat_of(&st.write_failures), 3);
  free(bin);
  cache_disk_close(d);
}

/* ---- LRU size cap ---- */

static void lru_key(int i, char *out, size_t size) { snprintf(out, size, "lru key %d", i); }

static void lru_path(const fx *f, int i, char *out, size_t size) {
  char key[32];
  lru_key(i, key, sizeof key);
  entry_path(f->dir, key, out, size);
}

static int lru_present(const fx *f, int i) {
  char path[256];
  lru_path(f, i, path, sizeof path);
  return access(path, F_OK) == 0;
}

static void age(const fx *f, int i, time_t ago) {
  char path[256];
  lru_path(f, i, path, sizeof path);
  set_mtime(path, time(NULL) - ago);
}

static void lru_eviction_keeps_the_most_recently_used(void **state) {
  fx *f = *state;
  size_t size = 4096;
  char key[32];
  lru_key(0, key, sizeof key);
  uint64_t entry = HEADER_BYTES + strlen(key) + size; /* every lru key has the same length */
  cache_stats st = {0};
  cache_disk *d = open_cache(f->dir, NULL, 3 * entry + entry / 2, &st);
  unsigned char *bins[6];
  for (int i = 0; i < 6; i++) bins[i] = content(50 + (unsigned)i, size);
  for (int i = 0; i < 3; i++) {
    lru_key(i, key, sizeof key);
    assert_int_equal(cache_disk_put(d, key, bins[i], size, NULL, 0), 0);
  }
  assert_int_equal(count_entries(f->dir), 3);
  assert_int_equal(stat_of(&st.evictions), 0);
  age(f, 0, 500);
  age(f, 1, 400);
  age(f, 2, 300);

  lru_key(3, key, sizeof key);
  assert_int_equal(cache_disk_put(d, key, bins[3], size, NULL, 0), 0);
  assert_int_equal(count_entries(f->dir), 3);
  assert_false(lru_present(f, 0));
  assert_int_equal(stat_of(&st.evictions), 1);
  age(f, 3, 200);

  lru_key(4, key, sizeof key);
  assert_int_equal(cache_disk_put(d, key, bins[4], size, NULL, 0), 0);
  assert_false(lru_present(f, 1));
  assert_true(lru_present(f, 2) && lru_present(f, 3) && lru_present(f, 4));
  assert_int_equal(stat_of(&st.evictions), 2);

  /* Entry 2 is now the oldest; a hit makes it the most recently used. */
  char path[256];
  lru_path(f, 2, path, sizeof path);
  time_t t0 = time(NULL);
  lru_key(2, key, sizeof key);
  expect_hit(d, key, bins[2], size);
  assert_true(mtime_of(path).tv_sec >= t0 - 1);

  lru_key(5, key, sizeof key);
  assert_int_equal(cache_disk_put(d, key, bins[5], size, NULL, 0), 0);
  assert_true(lru_present(f, 2));
  assert_false(lru_present(f, 3));
  assert_true(lru_present(f, 4) && lru_present(f, 5));
  assert_int_equal(stat_of(&st.evictions), 3);
  assert_int_equal(count_entries(f->dir), 3);
  for (int i = 0; i < 6; i++) {
    lru_key(i, key, sizeof key);
    if (i == 2 || i == 4 || i == 5)
      expect_hit(d, key, bins[i], size);
    else
      expect_miss(d, key);
  }
  for (int i = 0; i < 6; i++) free(bins[i]);
  cache_disk_close(d);
}

static void entry_larger_than_the_cap_is_kept_alone(void **state) {
  fx *f = *state;
  cache_stats st = {0};
  cache_disk *d = open_cache(f->dir, NULL, 1, &st);
  unsigned char *bin = content(60, 1000);
  assert_int_equal(cache_disk_put(d, "big 1", bin, 1000, NULL, 0), 0);
  expect_hit(d, "big 1", bin, 1000);
  char path[256];
  entry_path(f->dir, "big 1", path, sizeof path);
  set_mtime(path, time(NULL) - 60);
  assert_int_equal(cache_disk_put(d, "big 2", bin, 1000, NULL, 0), 0);
  expect_hit(d, "big 2", bin, 1000);
  expect_miss(d, "big 1");
  assert_int_equal(count_entries(f->dir), 1);
  assert_int_equal(stat_of(&st.evictions), 1);
  free(bin);
  cache_disk_close(d);
}

/* ---- configuration from the environment ---- */

#define ENV_VARS(X) X(TCJ_CACHE_DIR) X(XDG_CACHE_HOME) X(HOME) X(TCJ_CACHE_DISABLE) X(TCJ_CACHE_PATH) \
  X(TCJ_CACHE_MAX_BYTES) X(TCJ_CACHE_STORE_PTX) X(TCJ_CACHE_TRUST_ANY) X(TCJ_CACHE_SHARED_GROUP)
static const char *env_names[] = {
#define ENV_NAME(v) #v,
  ENV_VARS(ENV_NAME)
#undef ENV_NAME
};
enum { N_ENV = sizeof env_names / sizeof *env_names };

/* Saves and clears every variable the config reads; the teardown puts them back. */
static int env_setup(void **state) {
  char **saved = calloc(N_ENV, sizeof *saved);
  if (!saved) return -1;
  for (int i = 0; i < N_ENV; i++) {
    const char *v = getenv(env_names[i]);
    saved[i] = v ? strdup(v) : NULL;
    unsetenv(env_names[i]);
  }
  *state = saved;
  return 0;
}

static int env_teardown(void **state) {
  char **saved = *state;
  for (int i = 0; i < N_ENV; i++) {
    if (saved[i]) setenv(env_names[i], saved[i], 1);
    else unsetenv(env_names[i]);
    free(saved[i]);
  }
  free(saved);
  return 0;
}

static int from_env(cache_disk_config *cfg, char *buf, size_t size) {
  const char *why = NULL;
  int r = cache_disk_config_from_env(cfg, buf, size, &why);
  if (r < 0) assert_non_null(why);
  return r;
}

/* An explicit directory (tcj_options.cache_dir, tcj-warmup --cache-dir) wins over the variables,
 * and no default path is built: a HOME too long for one does not fail the call. */
static void explicit_dir_wins_and_ignores_a_home_too_long(void **state) {
  (void)state;
  char home[5001];
  memset(home, 'h', sizeof home - 1);
  home[sizeof home - 1] = '\0';
  setenv("HOME", home, 1);
  setenv("TCJ_CACHE_DIR", "/from/env", 1);
  cache_disk_config cfg;
  char buf[512];
  const char *why = NULL;
  assert_int_equal(cache_disk_config_with_dir(&cfg, "/my/cache", buf, sizeof buf, &why), 0);
  assert_string_equal(cfg.dir, "/my/cache");
  unsetenv("TCJ_CACHE_DIR");
  assert_int_equal(cache_disk_config_with_dir(&cfg, "/my/cache", buf, sizeof buf, &why), 0);
  assert_string_equal(cfg.dir, "/my/cache");
  /* Without one, the default is built and its length is the error it should be. */
  assert_int_equal(cache_disk_config_with_dir(&cfg, NULL, buf, sizeof buf, &why), -1);
  assert_non_null(strstr(why, "too long"));
}

static void env_cache_dir_comes_first(void **state) {
  (void)state;
  setenv("TCJ_CACHE_DIR", "/srv/tcj-cache", 1);
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  setenv("HOME", "/home/u", 1);
  cache_disk_config cfg;
  char buf[512];
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_string_equal(cfg.dir, "/srv/tcj-cache");
  assert_null(cfg.ro_roots);
  assert_int_equal(cfg.max_bytes, CACHE_DEFAULT_MAX_BYTES);
  assert_int_equal(cfg.store_ptx, 0);
}

static void env_falls_back_to_xdg_then_home(void **state) {
  (void)state;
  cache_disk_config cfg;
  char buf[512];
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  setenv("HOME", "/home/u", 1);
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_string_equal(cfg.dir, "/xdg/tcj");
  setenv("TCJ_CACHE_DIR", "", 1); /* empty is unset */
  unsetenv("XDG_CACHE_HOME");
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_string_equal(cfg.dir, "/home/u/.cache/tcj");
  unsetenv("HOME");
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_null(cfg.dir); /* nowhere to write: no writable dir, no crash */
}

static void env_disable_turns_the_disk_cache_off(void **state) {
  (void)state;
  cache_disk_config cfg;
  char buf[512];
  setenv("TCJ_CACHE_DIR", "/srv/tcj-cache", 1);
  setenv("TCJ_CACHE_DISABLE", "1", 1);
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 1);
  setenv("TCJ_CACHE_DISABLE", "0", 1);
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_string_equal(cfg.dir, "/srv/tcj-cache");
}

static void env_read_only_roots_and_ptx(void **state) {
  (void)state;
  cache_disk_config cfg;
  char buf[512];
  setenv("TCJ_CACHE_PATH", "/mnt/a:/mnt/b", 1);
  setenv("TCJ_CACHE_STORE_PTX", "1", 1);
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_string_equal(cfg.ro_roots, "/mnt/a:/mnt/b");
  assert_int_equal(cfg.store_ptx, 1);
}

static void env_max_bytes_takes_a_count_with_a_unit(void **state) {
  (void)state;
  struct { const char *text; uint64_t bytes; } ok[] = {
    {"512M", 512ull << 20}, {"4096", 4096}, {"2G", 2ull << 30}, {"16k", 16ull << 10}, {"1m", 1ull << 20},
    {"0", 0},
  };
  cache_disk_config cfg;
  char buf[512];
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    setenv("TCJ_CACHE_MAX_BYTES", ok[i].text, 1);
    int r = from_env(&cfg, buf, sizeof buf);
    if (r != 0) print_error("TCJ_CACHE_MAX_BYTES=%s was refused\n", ok[i].text);
    assert_int_equal(r, 0);
    assert_int_equal(cfg.max_bytes, ok[i].bytes);
  }
}

static void env_malformed_max_bytes_is_an_error_with_a_reason(void **state) {
  (void)state;
  const char *bad[] = {"abc", "-5", "12Q", "12MB", "M", "1.5G", "99999999999999999999",
                       "18446744073709551615G", " -5"};
  cache_disk_config cfg;
  char buf[512];
  int accepted = 0; /* all of them are tried, so one run names every value let through */
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    setenv("TCJ_CACHE_MAX_BYTES", bad[i], 1);
    const char *why = NULL;
    int r = cache_disk_config_from_env(&cfg, buf, sizeof buf, &why);
    if (r != -1) {
      print_error("TCJ_CACHE_MAX_BYTES='%s' was accepted as %llu\n", bad[i], (unsigned long long)cfg.max_bytes);
      accepted++;
      continue;
    }
    assert_non_null(why);
    assert_non_null(strstr(why, "TCJ_CACHE_MAX_BYTES"));
    if (!strstr(why, bad[i])) print_error("'%s' does not quote the value '%s'\n", why, bad[i]);
    assert_non_null(strstr(why, bad[i]));
  }
  assert_int_equal(accepted, 0);
}

static void env_trust_is_strict_unless_told(void **state) {
  (void)state;
  cache_disk_config cfg;
  char buf[512];
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_int_equal(cfg.trust_any, 0);
  assert_int_equal(cfg.shared_group, 0);
  setenv("TCJ_CACHE_TRUST_ANY", "1", 1);
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_int_equal(cfg.trust_any, 1);
  setenv("TCJ_CACHE_TRUST_ANY", "0", 1);
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_int_equal(cfg.trust_any, 0);
}

static void env_shared_group_takes_a_name_or_number_of_the_users_group(void **state) {
  (void)state;
  cache_disk_config cfg;
  char buf[512], num[32];
  gid_t mine = getegid(); /* a group this user is surely in */
  snprintf(num, sizeof num, "%lu", (unsigned long)mine);
  setenv("TCJ_CACHE_SHARED_GROUP", num, 1);
  assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
  assert_int_equal(cfg.shared_group, 1);
  assert_int_equal(cfg.shared_gid, mine);
  struct group *g = getgrgid(mine);
  if (g) {
    setenv("TCJ_CACHE_SHARED_GROUP", g->gr_name, 1);
    assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
    assert_int_equal(cfg.shared_gid, mine);
  }
}

static void env_shared_group_that_is_unknown_or_not_the_users_is_an_error(void **state) {
  (void)state;
  cache_disk_config cfg;
  char buf[512];
  const char *why = NULL;
  setenv("TCJ_CACHE_SHARED_GROUP", "no-such-group-tcj", 1);
  assert_int_equal(cache_disk_config_from_env(&cfg, buf, sizeof buf, &why), -1);
  assert_non_null(why);
  assert_non_null(strstr(why, "no-such-group-tcj"));
  if (geteuid() == 0) { /* root may write as any group: every gid is its own */
    setenv("TCJ_CACHE_SHARED_GROUP", "54321", 1);
    assert_int_equal(from_env(&cfg, buf, sizeof buf), 0);
    assert_int_equal(cfg.shared_gid, 54321);
    return;
  }
  /* A gid this user is not in: the first of 1..65533 that is not among its groups. */
  gid_t groups[1024];
  int n = getgroups(1024, groups);
  for (gid_t g = 1; g < 65534; g++) {
    int mine = g == getegid();
    for (int i = 0; i < n; i++) mine |= groups[i] == g;
    if (mine) continue;
    char num[32];
    snprintf(num, sizeof num, "%lu", (unsigned long)g);
    setenv("TCJ_CACHE_SHARED_GROUP", num, 1);
    why = NULL;
    assert_int_equal(cache_disk_config_from_env(&cfg, buf, sizeof buf, &why), -1);
    assert_non_null(strstr(why, "not a member"));
    return;
  }
}

/* A FIFO, a socket, a directory or a symlink to a FIFO at an entry's name is a miss at once
 * (a blocking open of a FIFO would hang the caller's first GEMM forever), in the writable dir and
 * in a read-only root alike; a publish then replaces it where rename can (all but the
 * directory). alarm() turns a hang into a failure. */
static void make_node(const char *path, int kind, const char *root) {
  switch (kind) {
  case 0: assert_int_equal(mkfifo(path, 0600), 0); break;
  case 1: assert_int_equal(mkdir(path, 0700), 0); break;
  case 2: {
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(s >= 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    assert_true(strlen(path) < sizeof a.sun_path);
    strcpy(a.sun_path, path);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    close(s);
    break;
  }
  default: {
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/elsewhere.fifo", root);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(symlink(fifo, path), 0);
  }
  }
}

static void non_regular_entries_are_misses_and_never_block(void **state) {
  fx *f = *state;
  static const char *const kinds[] = {"fifo", "directory", "socket", "symlink to a fifo"};
  const char *key = "non-regular entry key";
  unsigned char *bin = content(7, 300);
  for (int ro = 0; ro < 2; ro++)
    for (int kind = 0; kind < 4; kind++) {
      const char *where = ro ? f->ro : f->dir;
      mkdir(f->dir, 0700);
      mkdir(f->ro, 0700);
      char path[512];
      entry_path(where, key, path, sizeof path);
      rm_rf(path);
      make_node(path, kind, f->root);
      cache_stats st;
      memset(&st, 0, sizeof st);
      cache_disk *d = open_cache(f->dir, ro ? f->ro : NULL, 0, &st);
      alarm(10);
      print_message("%s in the %s: ", kinds[kind], ro ? "read-only root" : "cache dir");
      expect_miss(d, key);
      if (!ro && kind != 1) { /* rename() replaces it; a directory stays (and keeps missing) */
        assert_int_equal(cache_disk_put(d, key, bin, 300, NULL, 0), 0);
        expect_hit(d, key, bin, 300);
      }
      alarm(0);
      print_message("a miss\n");
      cache_disk_close(d);
      rm_rf(path);
    }
  free(bin);
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define FX(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
    FX(non_regular_entries_are_misses_and_never_block),
    cmocka_unit_test_setup_teardown(explicit_dir_wins_and_ignores_a_home_too_long, env_setup, env_teardown),
#define ENV(t) cmocka_unit_test_setup_teardown(t, env_setup, env_teardown)
    FX(put_then_get_returns_the_same_bytes),
    FX(entry_renamed_to_another_keys_name_is_a_miss),
    FX(get_from_an_empty_or_missing_dir_is_a_miss),
    FX(evicted_entry_is_a_miss),
    FX(ptx_is_stored_only_when_asked_and_get_returns_the_cubin),
    FX(bit_flip_anywhere_is_a_miss_and_is_rebuilt),
    FX(truncation_at_every_length_is_a_miss_and_is_rebuilt),
    FX(zero_length_entry_is_a_miss_and_is_rebuilt),
    FX(entry_records_its_compiler_and_serves_every_process),
    FX(newer_format_version_is_a_miss_and_is_rebuilt),
    FX(eight_writers_of_one_key_leave_one_valid_entry_and_no_temp),
    FX(eight_writers_of_different_keys_leave_eight_entries),
    FX(killed_writer_leaves_no_entry),
    FX(killed_writer_leaves_the_previous_entry),
    FX(temp_of_a_killed_writer_is_reaped_after_an_hour),
    FX(read_only_root_serves_hits_and_is_never_written),
    FX(read_only_root_without_a_writable_dir_serves_hits_and_refuses_puts),
    FX(injected_failures_fail_the_put_cleanly_and_warn_once_per_cause),
    FX(deleted_cache_dir_is_recreated_by_the_next_put),
    FX(unwritable_cache_dir_fails_puts_with_one_warning),
    FX(lru_eviction_keeps_the_most_recently_used),
    FX(entry_larger_than_the_cap_is_kept_alone),
    ENV(env_cache_dir_comes_first),
    ENV(env_falls_back_to_xdg_then_home),
    ENV(env_disable_turns_the_disk_cache_off),
    ENV(env_read_only_roots_and_ptx),
    ENV(env_max_bytes_takes_a_count_with_a_unit),
    ENV(env_malformed_max_bytes_is_an_error_with_a_reason),
    ENV(env_trust_is_strict_unless_told),
    ENV(env_shared_group_takes_a_name_or_number_of_the_users_group),
    ENV(env_shared_group_that_is_unknown_or_not_the_users_is_an_error),
#undef FX
#undef ENV
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
