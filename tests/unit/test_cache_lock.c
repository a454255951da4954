/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the disk cache's compile lock (cache_disk_lock_or_get): of many processes or
 * threads that miss one kernel together one compiles and the others get its entry; a holder
 * that dies leaves no lock behind; one that hangs costs a waiter the bound, not forever; no
 * writable directory means no lock and no wait. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cache/disk_cache.h"

#define KEY "tcj-cache lock test key"
static const unsigned char CUBIN[] = "the cubin that one process compiled";

typedef struct fx {
  char root[64], dir[128];
  pid_t holder; /* killed by the teardown, so a failed check leaves no process behind */
} fx;

static int fx_setup(void **state) {
  fx *f = calloc(1, sizeof *f);
  if (!f) return -1;
  snprintf(f->root, sizeof f->root, "/tmp/tcj-test-lock-XXXXXX");
  if (!mkdtemp(f->root)) { free(f); return -1; }
  snprintf(f->dir, sizeof f->dir, "%s/cache", f->root);
  *state = f;
  return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st; (void)flag; (void)ftw;
  return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

static int fx_teardown(void **state) {
  fx *f = *state;
  if (f->holder > 0) {
    kill(f->holder, SIGKILL);
    waitpid(f->holder, NULL, 0);
  }
  nftw(f->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(f);
  return 0;
}

static cache_disk *open_at(const char *dir, int wait_ms) {
  cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES, .lock_wait_ms = wait_ms};
  cache_disk *d = cache_disk_open(&cfg, NULL);
  assert_non_null(d);
  return d;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Forks a holder: it takes KEY's lock, writes one byte to the pipe, then, after hold_ms,
 * publishes the entry (publish != 0) and unlocks, or (hold_ms < 0) waits to be killed. */
static pid_t fork_holder(fx *f, int hold_ms, int publish) {
  const char *dir = f->dir;
  int p[2];
  assert_int_equal(pipe(p), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(p[0]);
    cache_disk *d = open_at(dir, 0);
    void *bin = NULL;
    size_t size = 0;
    cache_lock *lock = NULL;
    if (cache_disk_lock_or_get(d, KEY, &bin, &size, &lock) != 0 || !lock) _exit(3);
    if (write(p[1], "x", 1) != 1) _exit(4);
    if (hold_ms < 0) for (;;) pause();
    sleep_ms(hold_ms);
    if (publish && cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0) != 0) _exit(5);
    cache_disk_unlock(lock);
    _exit(0);
  }
  close(p[1]);
  f->holder = pid;
  char c;
  assert_int_equal(read(p[0], &c, 1), 1); /* the holder has the lock */
  close(p[0]);
  return pid;
}

static void reap(fx *f, pid_t pid, int want_status) {
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (pid == f->holder) f->holder = 0;
  if (want_status >= 0) {
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), want_status);
  }
}

static void a_free_lock_is_taken_and_given_back(void **state) {
  fx *f = *state;
  cache_disk *d = open_at(f->dir, 0);
  void *bin = NULL;
  size_t size = 0;
  for (int i = 0; i < 3; i++) {
    cache_lock *lock = NULL;
    assert_int_equal(cache_disk_lock_or_get(d, KEY, &bin, &size, &lock), 0);
    assert_non_null(lock);
    cache_disk_unlock(lock);
  }
  cache_disk_unlock(NULL);
  cache_disk_close(d);
}

static void a_waiter_gets_the_entry_the_holder_publishes(void **state) {
  fx *f = *state;
  pid_t holder = fork_holder(f, 300, 1);
  cache_disk *d = open_at(f->dir, 0);
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = (cache_lock *)0x1;
  double t0 = now_ms();
  assert_int_equal(cache_disk_lock_or_get(d, KEY, &bin, &size, &lock), 1);
  double waited = now_ms() - t0;
  assert_null(lock);
  assert_int_equal(size, sizeof CUBIN);
  assert_memory_equal(bin, CUBIN, sizeof CUBIN);
  free(bin);
  print_message("waited %.0f ms for the holder's entry\n", waited);
  assert_true(waited > 100);
  reap(f, holder, 0);
  cache_disk_close(d);
}

static void the_lock_of_a_killed_holder_is_taken_at_once(void **state) {
  fx *f = *state;
  pid_t holder = fork_holder(f, -1, 0);
  kill(holder, SIGKILL);
  reap(f, holder, -1);
  cache_disk *d = open_at(f->dir, 60000);
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = NULL;
  double t0 = now_ms();
  assert_int_equal(cache_disk_lock_or_get(d, KEY, &bin, &size, &lock), 0);
  assert_non_null(lock);
  assert_true(now_ms() - t0 < 1000);
  cache_disk_unlock(lock);
  cache_disk_close(d);
}

static void a_hung_holder_costs_the_bound_then_the_waiter_compiles(void **state) {
  fx *f = *state;
  pid_t holder = fork_holder(f, -1, 0);
  cache_disk *d = open_at(f->dir, 300);
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = (cache_lock *)0x1;
  double t0 = now_ms();
  assert_int_equal(cache_disk_lock_or_get(d, KEY, &bin, &size, &lock), 0);
  double waited = now_ms() - t0;
  assert_null(lock);
  print_message("gave up after %.0f ms (bound 300)\n", waited);
  assert_true(waited >= 290 && waited < 5000);
  kill(holder, SIGKILL);
  reap(f, holder, -1);
  cache_disk_close(d);
}

typedef struct thread_arg { cache_disk *d; int result; cache_lock *lock; } thread_arg;

static void *take(void *p) {
  thread_arg *a = p;
  void *bin = NULL;
  size_t size = 0;
  a->result = cache_disk_lock_or_get(a->d, KEY, &bin, &size, &a->lock);
  free(bin);
  return NULL;
}

static void threads_of_one_process_exclude_each_other(void **state) {
  fx *f = *state;
  cache_disk *d = open_at(f->dir, 200);
  thread_arg first = {d, -1, NULL}, second = {d, -1, (cache_lock *)0x1};
  take(&first);
  assert_int_equal(first.result, 0);
  assert_non_null(first.lock);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, take, &second), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  assert_int_equal(second.result, 0);
  assert_null(second.lock); /* it waited out the bound: the lock was held */
  cache_disk_unlock(first.lock);
  assert_int_equal(pthread_create(&t, NULL, take, &second), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  assert_non_null(second.lock);
  cache_disk_unlock(second.lock);
  cache_disk_close(d);
}

static void without_a_writable_directory_there_is_no_lock_and_no_wait(void **state) {
  fx *f = *state;
  char file[200], dir[260];
  snprintf(file, sizeof file, "%s/a-file", f->root);
  FILE *fp = fopen(file, "w");
  assert_non_null(fp);
  fclose(fp);
  snprintf(dir, sizeof dir, "%s/cache", file); /* under a regular file: cannot exist */
  cache_disk *d = open_at(dir, 60000);
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = (cache_lock *)0x1;
  double t0 = now_ms();
  assert_int_equal(cache_disk_lock_or_get(d, KEY, &bin, &size, &lock), 0);
  assert_null(lock);
  assert_true(now_ms() - t0 < 1000);
  cache_disk_close(d);
  cache_disk_config none = {.max_bytes = CACHE_DEFAULT_MAX_BYTES}; /* no directory at all */
  d = cache_disk_open(&none, NULL);
  assert_int_equal(cache_disk_lock_or_get(d, KEY, &bin, &size, &lock), 0);
  assert_null(lock);
  cache_disk_close(d);
}

/* Eight processes miss one key together; each "compiles" (50 ms) only without an entry. */
static void eight_processes_compile_one_kernel_once(void **state) {
  fx *f = *state;
  char log[200];
  snprintf(log, sizeof log, "%s/compiles", f->root);
  enum { N = 8 };
  pid_t pids[N];
  for (int i = 0; i < N; i++) {
    pids[i] = fork();
    assert_true(pids[i] >= 0);
    if (pids[i] == 0) {
      cache_disk *d = open_at(f->dir, 0);
      void *bin = NULL;
      size_t size = 0;
      cache_lock *lock = NULL;
      if (cache_disk_get(d, KEY, &bin, &size) || cache_disk_lock_or_get(d, KEY, &bin, &size, &lock))
        _exit(size == sizeof CUBIN && memcmp(bin, CUBIN, size) == 0 ? 0 : 6);
      int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
      if (fd < 0 || write(fd, "c", 1) != 1) _exit(7);
      close(fd);
      sleep_ms(50);
      if (cache_disk_put(d, KEY, CUBIN, sizeof CUBIN, NULL, 0) != 0) _exit(8);
      cache_disk_unlock(lock);
      _exit(0);
    }
  }
  for (int i = 0; i < N; i++) reap(f, pids[i], 0);
  struct stat st;
  assert_int_equal(stat(log, &st), 0);
  if (st.st_size != 1) print_error("%lld compiles of one kernel by %d processes\n", (long long)st.st_size, N);
  assert_int_equal(st.st_size, 1);
}

/* The lock file goes with the unlock; one left by a killed holder is reaped after an hour,
 * like a dead writer's temp file. */
static int lock_files(const char *dir, char *path, size_t size) {
  char tmp[200];
  snprintf(tmp, sizeof tmp, "%s/tmp", dir);
  DIR *d = opendir(tmp);
  if (!d) return 0;
  struct dirent *de;
  int n = 0;
  while ((de = readdir(d)) != NULL)
    if (strstr(de->d_name, ".lock")) {
      snprintf(path, size, "%s/%s", tmp, de->d_name);
      n++;
    }
  closedir(d);
  return n;
}

static void lock_files_go_with_the_unlock_or_are_reaped_after_a_crash(void **state) {
  fx *f = *state;
  cache_disk *d = open_at(f->dir, 0);
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = NULL;
  char path[600];
  assert_int_equal(cache_disk_lock_or_get(d, KEY, &bin, &size, &lock), 0);
  assert_int_equal(lock_files(f->dir, path, sizeof path), 1);
  cache_disk_unlock(lock);
  assert_int_equal(lock_files(f->dir, path, sizeof path), 0);

  pid_t holder = fork_holder(f, -1, 0);
  kill(holder, SIGKILL);
  reap(f, holder, -1);
  assert_int_equal(lock_files(f->dir, path, sizeof path), 1);
  assert_int_equal(cache_disk_put(d, "another key", CUBIN, sizeof CUBIN, NULL, 0), 0);
  assert_int_equal(access(path, F_OK), 0); /* fresh: kept */
  time_t old = time(NULL) - CACHE_TMP_MAX_AGE_S - 60;
  struct timespec ts[2] = {{old, 0}, {old, 0}};
  assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
  assert_int_equal(cache_disk_put(d, "a third key", CUBIN, sizeof CUBIN, NULL, 0), 0);
  assert_int_equal(access(path, F_OK), -1);
  cache_disk_close(d);
}

/* A waiter polling a lock that another process holds (and never gives back) leaves once its
 * cancel flag is set, well before the bound: tcj_destroy and exit() stop a background worker
 * that way (engine/tiering.c). The bound is a minute; the flag is set after 100 ms. */
typedef struct cancel_arg {
  cache_disk *d;
  _Atomic int cancel;
  int result;
  cache_lock *lock;
  double returned_ms;
} cancel_arg;

static void *wait_cancellable(void *p) {
  cancel_arg *a = p;
  void *bin = NULL;
  size_t size = 0;
  a->result = cache_disk_lock_or_get_cancellable(a->d, KEY, &bin, &size, &a->lock, &a->cancel);
  a->returned_ms = now_ms();
  free(bin);
  return NULL;
}

static void a_cancelled_waiter_leaves_at_once_while_another_process_holds_the_lock(void **state) {
  fx *f = *state;
  pid_t holder = fork_holder(f, -1, 0);
  cancel_arg a = {.d = open_at(f->dir, 60000), .result = 7, .lock = (cache_lock *)0x1};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, wait_cancellable, &a), 0);
  sleep_ms(100);
  double set_at = now_ms();
  atomic_store(&a.cancel, 1);
  assert_int_equal(pthread_join(t, NULL), 0);
  double waited = a.returned_ms - set_at;
  print_message("left %.0f ms after the cancel (poll step %d ms, bound 60000 ms)\n", waited, CACHE_LOCK_POLL_MS);
  assert_int_equal(a.result, -1);
  assert_null(a.lock);
  assert_true(waited < 1000);
  kill(holder, SIGKILL);
  reap(f, holder, -1);
  cache_disk_close(a.d);
}

/* The cancel flag is read only while another holds the lock: a free lock is taken whatever it says. */
static void a_cancellable_waiter_takes_a_free_lock(void **state) {
  fx *f = *state;
  cache_disk *d = open_at(f->dir, 0);
  _Atomic int cancel = 1;
  void *bin = NULL;
  size_t size = 0;
  cache_lock *lock = NULL;
  assert_int_equal(cache_disk_lock_or_get_cancellable(d, KEY, &bin, &size, &lock, &cancel), 0);
  assert_non_null(lock);
  cache_disk_unlock(lock);
  cache_disk_close(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define FX(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
    FX(a_free_lock_is_taken_and_given_back),
    FX(a_waiter_gets_the_entry_the_holder_publishes),
    FX(the_lock_of_a_killed_holder_is_taken_at_once),
    FX(a_hung_holder_costs_the_bound_then_the_waiter_compiles),
    FX(threads_of_one_process_exclude_each_other),
    FX(without_a_writable_directory_there_is_no_lock_and_no_wait),
    FX(eight_processes_compile_one_kernel_once),
    FX(lock_files_go_with_the_unlock_or_are_reaped_after_a_crash),
    FX(a_cancelled_waiter_leaves_at_once_while_another_process_holds_the_lock),
    FX(a_cancellable_waiter_takes_a_free_lock),
#undef FX
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
