/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of cache/trust and of the disk cache under it: the ownership and mode rules on
 * crafted stat records, the walk up a resolved path, and what the cache does with a directory,
 * read-only root or entry that someone else could have written (not used, one warning, a miss).
 * Checks that need another user's files run as root (chown) and are skipped otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/disk_cache.h"
#include "cache/trust.h"

#define OTHER_UID 65534 /* nobody */
#define OTHER_GID 65534

/* ---- the rules, on crafted stat records ---- */

static struct stat st_of(uid_t uid, gid_t gid, mode_t mode) {
  struct stat st;
  memset(&st, 0, sizeof st);
  st.st_uid = uid;
  st.st_gid = gid;
  st.st_mode = mode;
  return st;
}

static cache_trust me(void) {
  cache_trust t = cache_trust_default();
  t.uid = 1000; /* the same answers whoever runs the test */
  return t;
}

static void expect_trusted(const cache_trust *t, struct stat st, int ancestor) {
  const char *why = cache_trust_stat(t, &st, ancestor);
  if (why) print_error("uid %u gid %u mode %o ancestor %d: '%s'\n", (unsigned)st.st_uid, (unsigned)st.st_gid,
                       (unsigned)st.st_mode, ancestor, why);
  assert_null(why);
}

static void expect_untrusted(const cache_trust *t, struct stat st, int ancestor, const char *word) {
  const char *why = cache_trust_stat(t, &st, ancestor);
  if (!why || !strstr(why, word))
    print_error("uid %u gid %u mode %o ancestor %d: got '%s', wanted a reason with '%s'\n", (unsigned)st.st_uid,
                (unsigned)st.st_gid, (unsigned)st.st_mode, ancestor, why ? why : "(trusted)", word);
  assert_non_null(why);
  assert_non_null(strstr(why, word));
}

static void own_or_root_owned_and_writable_by_no_one_else_is_trusted(void **state) {
  (void)state;
  cache_trust t = me();
  const mode_t dirs[] = {S_IFDIR | 0700, S_IFDIR | 0755, S_IFDIR | 0500, S_IFDIR | 02755};
  const mode_t files[] = {S_IFREG | 0644, S_IFREG | 0600, S_IFREG | 0444};
  for (int owner = 0; owner < 2; owner++) {
    uid_t uid = owner ? 1000 : 0;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
      for (int anc = 0; anc < 2; anc++) expect_trusted(&t, st_of(uid, 100, dirs[i]), anc);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) expect_trusted(&t, st_of(uid, 100, files[i]), 0);
  }
}

static void writable_by_group_or_others_is_not_trusted(void **state) {
  (void)state;
  cache_trust t = me();
  expect_untrusted(&t, st_of(1000, 100, S_IFDIR | 0770), 0, "writable by its group");
  expect_untrusted(&t, st_of(1000, 100, S_IFDIR | 0775), 1, "writable by its group");
  expect_untrusted(&t, st_of(1000, 100, S_IFDIR | 0777), 0, "writable by others");
  expect_untrusted(&t, st_of(0, 0, S_IFDIR | 0757), 1, "writable by others");
  expect_untrusted(&t, st_of(1000, 100, S_IFREG | 0666), 0, "writable by others");
  expect_untrusted(&t, st_of(1000, 100, S_IFREG | 0620), 0, "writable by its group");
  /* A sticky bit on a file or on the cache directory itself protects nothing. */
  expect_untrusted(&t, st_of(1000, 100, S_IFDIR | 01777), 0, "writable by others");
  expect_untrusted(&t, st_of(1000, 100, S_IFREG | 01666), 0, "writable by others");
}

static void owned_by_another_user_is_not_trusted(void **state) {
  (void)state;
  cache_trust t = me();
  expect_untrusted(&t, st_of(1001, 100, S_IFDIR | 0700), 0, "another user");
  expect_untrusted(&t, st_of(1001, 100, S_IFDIR | 0755), 1, "another user");
  expect_untrusted(&t, st_of(1001, 100, S_IFREG | 0444), 0, "another user");
  expect_untrusted(&t, st_of(1001, 100, S_IFDIR | 01777), 1, "another user"); /* its owner can rename */
}

static void sticky_ancestor_may_be_writable_by_anyone(void **state) {
  (void)state;
  cache_trust t = me();
  expect_trusted(&t, st_of(0, 0, S_IFDIR | 01777), 1); /* /tmp */
  expect_trusted(&t, st_of(1000, 100, S_IFDIR | 01770), 1);
  expect_untrusted(&t, st_of(0, 0, S_IFDIR | 0777), 1, "writable by others");
}

static void shared_group_members_may_write_and_no_one_else(void **state) {
  (void)state;
  cache_trust t = me();
  t.shared = 1;
  t.gid = 500;
  expect_trusted(&t, st_of(1001, 500, S_IFDIR | 02770), 0); /* made by another member */
  expect_trusted(&t, st_of(1000, 500, S_IFDIR | 02770), 1);
  expect_trusted(&t, st_of(1001, 500, S_IFREG | 0640), 0);
  expect_trusted(&t, st_of(1000, 100, S_IFDIR | 0700), 0); /* a private dir is still fine */
  expect_untrusted(&t, st_of(1000, 501, S_IFDIR | 02770), 0, "group other than the shared group");
  expect_untrusted(&t, st_of(1001, 501, S_IFREG | 0640), 0, "not in the shared group");
  expect_untrusted(&t, st_of(1001, 500, S_IFDIR | 02777), 0, "writable by others");
  expect_untrusted(&t, st_of(1000, 500, S_IFREG | 0666), 0, "writable by others");
}

static void trust_any_accepts_every_owner_and_mode(void **state) {
  (void)state;
  cache_trust t = me();
  t.any = 1;
  expect_trusted(&t, st_of(1001, 501, S_IFDIR | 0777), 0);
  expect_trusted(&t, st_of(1001, 501, S_IFREG | 0666), 0);
}

/* ---- the walk up a path, on real directories ---- */

typedef struct fx {
  char root[64];
  char buf[512];
} fx;

static int fx_setup(void **state) {
  fx *f = calloc(1, sizeof *f);
  if (!f) return -1;
  snprintf(f->root, sizeof f->root, "/tmp/tcj-test-trust-XXXXXX");
  if (!mkdtemp(f->root)) { free(f); return -1; }
  *state = f;
  return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st; (void)flag; (void)ftw;
  chmod(path, 0700); /* a test may have left a folder unreadable */
  return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

static int fx_teardown(void **state) {
  fx *f = *state;
  nftw(f->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(f);
  return 0;
}

/* root/rel, created with mode (chmod after mkdir, so the umask does not interfere). */
static const char *mkdir_in(fx *f, const char *rel, mode_t mode) {
  snprintf(f->buf, sizeof f->buf, "%s/%s", f->root, rel);
  assert_int_equal(mkdir(f->buf, 0700), 0);
  assert_int_equal(chmod(f->buf, mode), 0);
  return f->buf;
}

static void path_of(const fx *f, const char *rel, char *out, size_t size) { snprintf(out, size, "%s/%s", f->root, rel); }

static void walk_checks_every_directory_above_the_cache(void **state) {
  fx *f = *state;
  cache_trust t = cache_trust_default();
  mkdir_in(f, "open", 0777);
  mkdir_in(f, "open/cache", 0700);
  char cache[256], open[256], why[512];
  path_of(f, "open/cache", cache, sizeof cache);
  path_of(f, "open", open, sizeof open);
  char *real = (char *)0x1;
  assert_int_equal(cache_trust_dir(&t, cache, &real, why, sizeof why), 1);
  assert_null(real);
  if (!strstr(why, open) || !strstr(why, "writable by others") || !strstr(why, "mode 0777"))
    print_error("reason '%s' does not name %s, the rule and the mode\n", why, open);
  assert_non_null(strstr(why, "writable by others"));
  assert_non_null(strstr(why, "mode 0777"));
  assert_int_equal(strncmp(why, open, strlen(open)), 0);
  /* Made safe, the same chain is trusted and comes back resolved. */
  assert_int_equal(chmod(open, 0755), 0);
  assert_int_equal(cache_trust_dir(&t, cache, &real, why, sizeof why), 0);
  assert_string_equal(real, cache); /* /tmp/... has no links in it */
  free(real);
}

static void symlinks_are_resolved_before_the_walk(void **state) {
  fx *f = *state;
  cache_trust t = cache_trust_default();
  mkdir_in(f, "safe", 0700);
  mkdir_in(f, "open", 0777);
  mkdir_in(f, "open/cache", 0700);
  char safe[256], link_safe[256], link_open[256], why[512], *real;
  path_of(f, "safe", safe, sizeof safe);
  path_of(f, "to-safe", link_safe, sizeof link_safe);
  path_of(f, "to-open", link_open, sizeof link_open);
  assert_int_equal(symlink(safe, link_safe), 0);
  path_of(f, "open/cache", f->buf, sizeof f->buf);
  assert_int_equal(symlink(f->buf, link_open), 0);
  assert_int_equal(cache_trust_dir(&t, link_safe, &real, why, sizeof why), 0);
  assert_string_equal(real, safe);
  free(real);
  /* The link itself sits in a safe place; where it leads does not. */
  assert_int_equal(cache_trust_dir(&t, link_open, &real, why, sizeof why), 1);
  assert_non_null(strstr(why, "writable by others"));
}

static void missing_directory_is_not_an_error_of_trust(void **state) {
  fx *f = *state;
  cache_trust t = cache_trust_default();
  char path[256], why[512] = "", *real;
  path_of(f, "absent/cache", path, sizeof path);
  errno = 0;
  assert_int_equal(cache_trust_dir(&t, path, &real, why, sizeof why), -1);
  assert_int_equal(errno, ENOENT);
  assert_string_equal(why, "");
}

/* ---- the disk cache under the rules ---- */

typedef struct warnings { int count; char last[2048]; } warnings;

static void on_warn(void *ctx, const char *message) {
  warnings *w = ctx;
  w->count++;
  snprintf(w->last, sizeof w->last, "%s", message);
}

static const unsigned char CUBIN[] = "a stand-in for a cubin: any nonempty bytes";
#define KEY "tcj-cache trust test key"

static cache_disk *open_disk(const cache_disk_config *cfg, cache_stats *st, warnings *w) {
  cache_disk *d = cache_disk_open(cfg, st);
  assert_non_null(d);
  cache_disk_set_warn(d, on_warn, w);
  return d;
}

static int get(cache_disk *d, const char *key) {
  void *bin = NULL;
  size_t size = 0;
  int hit = cache_disk_get(d, key, &bin, &size);
  if (hit) {
    assert_int_equal(size, sizeof CUBIN);
    assert_memory_equal(bin, CUBIN, sizeof CUBIN);
  }
  free(bin);
  return hit;
}

static void entry_of(const char *dir, const char *key, char *out, size_t size) {
  char name[32];
  cache_entry_name(key, name);
  snprintf(out, size, "%s/%s", dir, name);
}

static mode_t mode_of(const char *path) {
  struct stat st;
  assert_int_equal(lstat(path, &st), 0);
  return st.st_mode & 07777;
}

static void expect_warning(const warnings *w, int count, const char *a, const char *b) {
  if (w->count != count || !strstr(w->last, a) || !strstr(w->last, b))
    print_error("%d warnings, last '%s'; wanted %d naming '%s' and '%s'\n", w->count, w->last, count, a, b);
  assert_int_equal(w->count, count);
  assert_non_null(strstr(w->last, a));
  assert_non_null(strstr(w->last, b));
}

static void directories_the_cache_creates_are_private(void **state) {
  fx *f = *state;
  char dir[256], sub[300];
  path_of(f, "x/y/cache", dir, sizeof dir);
  mode_t old = umask(0); /* the modes must not depend on a permissive umask */
  cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  warnings w = {0};
  cache_disk *d = open_disk(&cfg, NULL, &w);
  assert_int_equal(cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0), 0);
  umask(old);
  const char *rels[] = {"x", "x/y", "x/y/cache", "x/y/cache/tmp"};
  for (int i = 0; i < 4; i++) {
    path_of(f, rels[i], sub, sizeof sub);
    if (mode_of(sub) != 0700) print_error("%s has mode %o\n", sub, (unsigned)mode_of(sub));
    assert_int_equal(mode_of(sub), 0700);
  }
  assert_int_equal(get(d, KEY), 1);
  assert_int_equal(w.count, 0);
  cache_disk_close(d);
}

static void untrusted_cache_dir_is_not_used_with_one_warning(void **state) {
  fx *f = *state;
  char dir[256], entry[320];
  path_of(f, "cache", dir, sizeof dir);
  cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  warnings w = {0};
  cache_stats st = {0};
  cache_disk *good = open_disk(&cfg, NULL, &w);
  assert_int_equal(cache_disk_put(good, KEY, CUBIN, sizeof CUBIN, NULL, 0), 0);
  cache_disk_close(good);
  entry_of(dir, KEY, entry, sizeof entry);

  /* Anyone could now have replaced that valid entry: it is not read, nothing is written. */
  assert_int_equal(chmod(dir, 0777), 0);
  cache_disk *d = open_disk(&cfg, &st, &w);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(get(d, KEY), 0);
    assert_int_equal(cache_disk_put(d, "another key", CUBIN, sizeof CUBIN, NULL, 0), -1);
  }
  assert_int_equal(cache_disk_prepare(d), -1);
  expect_warning(&w, 1, dir, "writable by others");
  assert_non_null(strstr(w.last, "TCJ_CACHE_TRUST_ANY"));
  entry_of(dir, "another key", f->buf, sizeof f->buf);
  assert_int_equal(access(f->buf, F_OK), -1);
  cache_disk_evict(d, KEY); /* nor is anything removed from it */
  assert_int_equal(access(entry, F_OK), 0);
  cache_disk_close(d);

  /* The same with TCJ_CACHE_TRUST_ANY: trust is someone else's business. */
  cfg.trust_any = 1;
  w.count = 0;
  d = open_disk(&cfg, NULL, &w);
  assert_int_equal(get(d, KEY), 1);
  assert_int_equal(cache_disk_put(d, "another key", CUBIN, sizeof CUBIN, NULL, 0), 0);
  assert_int_equal(w.count, 0);
  cache_disk_close(d);
}

static void untrusted_temp_folder_stops_puts(void **state) {
  fx *f = *state;
  const char *dir = mkdir_in(f, "cache", 0700);
  char cache[512];
  snprintf(cache, sizeof cache, "%s", dir);
  mkdir_in(f, "cache/tmp", 0777);
  cache_disk_config cfg = {.dir = cache, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  warnings w = {0};
  cache_disk *d = open_disk(&cfg, NULL, &w);
  assert_int_equal(cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0), -1);
  expect_warning(&w, 1, "/cache/tmp", "writable by others");
  assert_int_equal(get(d, KEY), 0);
  cache_disk_close(d);
}

static void cache_dir_of_another_user_is_not_used(void **state) {
  if (geteuid() != 0) skip(); /* only root can make another user's directory */
  fx *f = *state;
  const char *dir = mkdir_in(f, "theirs", 0755);
  char cache[512];
  snprintf(cache, sizeof cache, "%s", dir);
  assert_int_equal(chown(cache, OTHER_UID, OTHER_GID), 0);
  cache_disk_config cfg = {.dir = cache, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  warnings w = {0};
  cache_disk *d = open_disk(&cfg, NULL, &w);
  assert_int_equal(cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0), -1);
  expect_warning(&w, 1, cache, "owned by another user");
  cache_disk_close(d);
}

static void untrusted_read_only_root_is_skipped_with_a_warning(void **state) {
  fx *f = *state;
  char open_root[256], good_root[256], roots[600];
  path_of(f, "open-root", open_root, sizeof open_root);
  path_of(f, "good-root", good_root, sizeof good_root);
  cache_disk_config fill = {.dir = open_root, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  cache_disk *w1 = open_disk(&fill, NULL, &(warnings){0});
  assert_int_equal(cache_disk_put(w1, KEY, CUBIN, sizeof CUBIN, NULL, 0), 0);
  cache_disk_close(w1);
  fill.dir = good_root;
  w1 = open_disk(&fill, NULL, &(warnings){0});
  assert_int_equal(cache_disk_put(w1, "good key", CUBIN, sizeof CUBIN, NULL, 0), 0);
  cache_disk_close(w1);
  assert_int_equal(chmod(open_root, 0777), 0);

  snprintf(roots, sizeof roots, "%s:%s", open_root, good_root);
  cache_disk_config cfg = {.ro_roots = roots, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  warnings w = {0};
  cache_disk *d = open_disk(&cfg, NULL, &w);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(get(d, KEY), 0);      /* only in the open root */
    assert_int_equal(get(d, "good key"), 1); /* the next root still serves */
  }
  expect_warning(&w, 1, open_root, "read-only cache root");
  assert_non_null(strstr(w.last, "skipped"));
  cache_disk_close(d);
}

static void entry_writable_by_others_is_a_miss_and_is_replaced(void **state) {
  fx *f = *state;
  char dir[256], entry[320];
  path_of(f, "cache", dir, sizeof dir);
  cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  warnings w = {0};
  cache_stats st = {0};
  cache_disk *d = open_disk(&cfg, &st, &w);
  assert_int_equal(cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0), 0);
  entry_of(dir, KEY, entry, sizeof entry);
  assert_int_equal(chmod(entry, 0666), 0);
  assert_int_equal(get(d, KEY), 0);
  assert_int_equal(atomic_load(&st.bad_entries), 1);
  expect_warning(&w, 1, entry, "writable by others");
  /* The rebuilt entry replaces it, with a safe mode, and is served. */
  assert_int_equal(cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0), 0);
  assert_int_equal(mode_of(entry) & 022, 0);
  assert_int_equal(get(d, KEY), 1);
  cache_disk_close(d);
}

static void entry_of_another_user_is_a_miss(void **state) {
  if (geteuid() != 0) skip(); /* only root can give a file away */
  fx *f = *state;
  char dir[256], entry[320];
  path_of(f, "cache", dir, sizeof dir);
  cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  warnings w = {0};
  cache_disk *d = open_disk(&cfg, NULL, &w);
  assert_int_equal(cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0), 0);
  entry_of(dir, KEY, entry, sizeof entry);
  assert_int_equal(chown(entry, OTHER_UID, OTHER_GID), 0);
  assert_int_equal(get(d, KEY), 0);
  expect_warning(&w, 1, entry, "owned by another user");
  cache_disk_close(d);
}

static void symlinked_entry_is_a_miss(void **state) {
  fx *f = *state;
  char dir[256], entry[320], elsewhere[256];
  path_of(f, "cache", dir, sizeof dir);
  path_of(f, "elsewhere", elsewhere, sizeof elsewhere);
  cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  warnings w = {0};
  cache_disk *d = open_disk(&cfg, NULL, &w);
  assert_int_equal(cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0), 0);
  entry_of(dir, KEY, entry, sizeof entry);
  assert_int_equal(rename(entry, elsewhere), 0); /* a valid entry, reached through a link */
  assert_int_equal(symlink(elsewhere, entry), 0);
  assert_int_equal(get(d, KEY), 0);
  expect_warning(&w, 1, entry, "symbolic link");
  cache_disk_close(d);
}

static void shared_group_cache_is_setgid_and_group_readable(void **state) {
  fx *f = *state;
  char dir[256], tmp[300], entry[320];
  path_of(f, "team/cache", dir, sizeof dir);
  snprintf(tmp, sizeof tmp, "%s/tmp", dir);
  gid_t gid = getegid(); /* a group this user is in */
  cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES, .shared_group = 1, .shared_gid = gid};
  warnings w = {0};
  mode_t old = umask(077); /* the shared modes must survive a strict umask */
  cache_disk *d = open_disk(&cfg, NULL, &w);
  assert_int_equal(cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0), 0);
  umask(old);
  assert_int_equal(mode_of(dir), 02770);
  assert_int_equal(mode_of(tmp), 02770);
  entry_of(dir, KEY, entry, sizeof entry);
  assert_int_equal(mode_of(entry), 0640);
  struct stat st;
  assert_int_equal(stat(entry, &st), 0);
  assert_int_equal(st.st_gid, gid);
  assert_int_equal(get(d, KEY), 1);
  assert_int_equal(w.count, 0);
  cache_disk_close(d);

  /* Without the shared setting, the same group-writable directory is not trusted. */
  cfg.shared_group = 0;
  d = open_disk(&cfg, NULL, &w);
  assert_int_equal(get(d, KEY), 0);
  expect_warning(&w, 1, dir, "writable by its group");
  cache_disk_close(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(own_or_root_owned_and_writable_by_no_one_else_is_trusted),
    cmocka_unit_test(writable_by_group_or_others_is_not_trusted),
    cmocka_unit_test(owned_by_another_user_is_not_trusted),
    cmocka_unit_test(sticky_ancestor_may_be_writable_by_anyone),
    cmocka_unit_test(shared_group_members_may_write_and_no_one_else),
    cmocka_unit_test(trust_any_accepts_every_owner_and_mode),
#define FX(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
    FX(walk_checks_every_directory_above_the_cache),
    FX(symlinks_are_resolved_before_the_walk),
    FX(missing_directory_is_not_an_error_of_trust),
    FX(directories_the_cache_creates_are_private),
    FX(untrusted_cache_dir_is_not_used_with_one_warning),
    FX(untrusted_temp_folder_stops_puts),
    FX(cache_dir_of_another_user_is_not_used),
    FX(untrusted_read_only_root_is_skipped_with_a_warning),
    FX(entry_writable_by_others_is_a_miss_and_is_replaced),
    FX(entry_of_another_user_is_a_miss),
    FX(symlinked_entry_is_a_miss),
    FX(shared_group_cache_is_setgid_and_group_readable),
#undef FX
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
