/* SPDX-License-Identifier: Apache-2.0 */
/* TCJ_JIT=async through an engine on a fake driver (fake_cuda.h), without a GPU: a memo-hit call
 * on the generic path selects and encodes nothing; a failed background build is retried, then
 * given up; the job queue is bounded; tcj_destroy does not wait for another process's compile
 * lock; fork() waits for a compile in a caller's thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cache/disk_cache.h"
#include "engine/engine.h"
#include "engine/validate.h"
#include "engine/build.h"
#include "ptxgen/abi.h"
#include "tests/unit/fake_cuda.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static tcj_engine *engine(int jit_mode, const char *cache_dir) {
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = jit_mode;
  o.force_driver_jit = 1; /* the fake's cuLink*, never nvJitLink */
  o.cache_dir = cache_dir;
  o.disable_disk_cache = cache_dir == NULL;
  tcj_engine *e = NULL;
  tcj_status st = tcj_create(&e, &o);
  if (st != TCJ_SUCCESS) print_error("tcj_create: %s\n", tcj_last_error(NULL));
  assert_int_equal(st, TCJ_SUCCESS);
  return e;
}

/* A bf16 GEMM m x n x k on fake device addresses (16-byte aligned rows). */
static tcj_gemm_desc bf16(int64_t m, int64_t n, int64_t k) {
  tcj_gemm_desc g = TCJ_GEMM_DESC_INIT;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = (const void *)(uintptr_t)0x10000000;
  g.b = (const void *)(uintptr_t)0x20000000;
  g.c = (const void *)(uintptr_t)0x30000000;
  g.a_type = g.b_type = g.c_type = TCJ_BF16;
  g.lda = k;
  g.ldb = n;
  g.ldc = n;
  return g;
}

static void call(tcj_engine *e, const tcj_gemm_desc *g) {
  tcj_status st = tcj_gemm_ex(e, g, NULL);
  if (st != TCJ_SUCCESS) print_error("tcj_gemm_ex: %s\n", tcj_last_error(e));
  assert_int_equal(st, TCJ_SUCCESS);
}

static tcj_stats stats(tcj_engine *e) {
  tcj_stats s = TCJ_STATS_INIT;
  assert_int_equal(tcj_get_stats(e, &s), TCJ_SUCCESS);
  return s;
}

static int setup(void **state) {
  (void)state;
  unsetenv("TCJ_JIT");
  unsetenv("TCJ_RECIPE");
  unsetenv("TCJ_TILE");
  unsetenv("TCJ_TUNE");
  unsetenv("TCJ_CACHE_DIR");
  fake_gate(0);
  atomic_store(&fake.fail_links, 0);
  atomic_store(&fake.fail_links_off_main, 0);
  fake_on_launch = NULL;
  fake_on_encode = NULL;
  return 0;
}

/* The bar is a default-mode call costing what a sync call costs: while a class runs its
 * generic kernel, a call after the first selects no generic plan and encodes no tensor map (the
 * generic plan is an sm90 kernel with three on this device, where the specialised one of 64^3
 * is an sm80 kernel with none). */
static void a_generic_memo_hit_selects_and_encodes_nothing(void **state) {
  (void)state;
  tcj_engine *e = engine(TCJ_JIT_ASYNC, NULL);
  tcj_gemm_desc g = bf16(64, 64, 64);
  call(e, &g); /* compiles the generic kernel (fake), selects, encodes */
  uint64_t selections = atomic_load(&e->tiering.generic_selections);
  int encodes = atomic_load(&fake.encodes), launches = atomic_load(&fake.launches);
  assert_int_equal(selections, 1);
  assert_true(encodes > 0); /* an sm90 generic kernel: the reuse below means something */
  for (int i = 0; i < TIER_HOT_CALLS - 2; i++) call(e, &g);
  assert_int_equal(atomic_load(&e->tiering.generic_selections), selections);
  if (atomic_load(&fake.encodes) != encodes)
    print_error("%d tensor maps encoded by %d memo-hit calls\n", atomic_load(&fake.encodes) - encodes, TIER_HOT_CALLS - 2);
  assert_int_equal(atomic_load(&fake.encodes), encodes);
  assert_int_equal(atomic_load(&fake.launches) - launches, TIER_HOT_CALLS - 2);
  assert_int_equal(stats(e).generic_launches, TIER_HOT_CALLS - 1);
  /* Other addresses: the maps are encoded again (they embed the addresses), the plan is not. */
  g.b = (const void *)(uintptr_t)0x40000000;
  call(e, &g);
  assert_int_equal(atomic_load(&e->tiering.generic_selections), selections);
  assert_true(atomic_load(&fake.encodes) > encodes);
  tcj_destroy(e);
}

/* Calls g until the worker has made `links` builds in all, at most `most` calls (a pause every
 * hot point lets the worker finish the build and record its outcome). Returns the calls made. */
static int calls_until_links(tcj_engine *e, const tcj_gemm_desc *g, int links, int most) {
  int n = 0;
  for (; n < most && atomic_load(&fake.links) < links; n++) {
    call(e, g);
    if (n % TIER_HOT_CALLS == 0) sleep_ms(2);
  }
  return n;
}

/* The worker's builds of the class fail (the caller's, its generic kernel, do not): the class is
 * queued again at its next hot point, TIER_BUILD_ATTEMPTS builds in all, then never again, and
 * every call ran the generic kernel. Before: one build, then generic for good, silently. */
static void a_failing_background_build_is_retried_then_given_up(void **state) {
  (void)state;
  atomic_store(&fake.fail_links_off_main, 1);
  tcj_engine *e = engine(TCJ_JIT_ASYNC, NULL);
  tcj_gemm_desc g = bf16(96, 128, 64);
  call(e, &g);
  int base = atomic_load(&fake.links); /* the caller's compile of the generic kernel */
  int calls = 1;
  for (int attempt = 1; attempt <= TIER_BUILD_ATTEMPTS; attempt++) {
    calls += calls_until_links(e, &g, base + attempt, 100000);
    if (atomic_load(&fake.links) != base + attempt) print_error("build %d never came\n", attempt);
    assert_int_equal(atomic_load(&fake.links), base + attempt);
  }
  for (int i = 0; i < 20 * TIER_HOT_CALLS; i++, calls++) {
    call(e, &g);
    if (i % TIER_HOT_CALLS == 0) sleep_ms(2);
  }
  print_message("%d builds (%d failed) over %d calls\n", atomic_load(&fake.links) - base,
                atomic_load(&fake.links_failed), calls);
  assert_int_equal(atomic_load(&fake.links), base + TIER_BUILD_ATTEMPTS);
  assert_int_equal(stats(e).generic_launches, (uint64_t)calls);
  assert_int_equal(stats(e).swaps, 0);
  tcj_destroy(e);
}

/* With the worker held inside a build, TIER_QUEUE_MAX jobs wait and the rest are refused (their
 * classes count again). Before: the queue grew without bound. */
static void the_job_queue_holds_at_most_its_cap(void **state) {
  (void)state;
  tcj_engine *e = engine(TCJ_JIT_ASYNC, NULL);
  tcj_gemm_desc g = bf16(64, 64, 64);
  eng_problem p;
  assert_int_equal(eng_validate_desc(&g, &p), TCJ_SUCCESS);
  eng_plan plan;
  const char *why = NULL;
  assert_int_equal(eng_select(&p, &e->caps, 1, &plan, &why), TCJ_SUCCESS);
  fake_gate(1);
  int links = atomic_load(&fake.links);
  assert_int_equal(eng_tier_queue(e, 1, &plan.cfg, NULL), 0);
  for (int i = 0; i < 5000 && atomic_load(&fake.links) == links; i++) sleep_ms(1);
  assert_int_equal(atomic_load(&fake.links), links + 1); /* the worker holds job 1 in its build */
  int queued = 0, full = 0;
  for (uint64_t key = 2; key < 2 + TIER_QUEUE_MAX + 20; key++) {
    int r = eng_tier_queue(e, key, &plan.cfg, NULL);
    queued += r == 0;
    full += r == 1;
  }
  print_message("%d queued, %d refused as full (cap %d)\n", queued, full, TIER_QUEUE_MAX);
  assert_int_equal(queued, TIER_QUEUE_MAX);
  assert_int_equal(full, 20);
  atomic_store(&fake.fail_links, 1);
  fake_gate(0);
  tcj_destroy(e); /* drops the queue, joins the worker */
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* Another process holds the compile lock of the class's specialised kernel and never gives it
 * back (stopped, on a stalled filesystem); the worker waits for it. tcj_destroy must not: it
 * returned after the lock's 20 s bound before. */
static void destroy_does_not_wait_for_another_process_compile_lock(void **state) {
  (void)state;
  char root[] = "/tmp/tcj-test-async-XXXXXX", dir[64];
  assert_non_null(mkdtemp(root));
  snprintf(dir, sizeof dir, "%s/cache", root);
  tcj_engine *e = engine(TCJ_JIT_ASYNC, dir);
  tcj_gemm_desc g = bf16(2048, 2048, 2048); /* big: queued at its first call */
  eng_problem p;
  assert_int_equal(eng_validate_desc(&g, &p), TCJ_SUCCESS);
  eng_plan plan;
  const char *why = NULL;
  assert_int_equal(eng_select(&p, &e->caps, 1, &plan, &why), TCJ_SUCCESS);
  char key[ENG_CACHE_KEY_MAX];
  assert_true(eng_cache_key(&plan.cfg, e->arch, key, sizeof key) > 0);
  int pipe_fd[2];
  assert_int_equal(pipe(pipe_fd), 0);
  pid_t holder = fork();
  assert_true(holder >= 0);
  if (holder == 0) {
    cache_disk_config cfg = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
    cache_disk *d = cache_disk_open(&cfg, NULL);
    void *bin = NULL;
    size_t size = 0;
    cache_lock *lock = NULL;
    if (!d || cache_disk_lock_or_get(d, key, &bin, &size, &lock) != 0 || !lock) _exit(3);
    if (write(pipe_fd[1], "x", 1) != 1) _exit(4);
    for (;;) pause();
  }
  char c;
  assert_int_equal(read(pipe_fd[0], &c, 1), 1);
  call(e, &g); /* generic now; the specialised kernel queued, its build waits for the lock */
  sleep_ms(300);
  double t0 = now_ms();
  tcj_destroy(e);
  double took = now_ms() - t0;
  kill(holder, SIGKILL);
  waitpid(holder, NULL, 0);
  nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  print_message("tcj_destroy took %.0f ms while another process held the lock (its bound: %d ms)\n", took,
                CACHE_LOCK_WAIT_MS);
  assert_true(took < 2000);
}

/* fork() while a caller's thread compiles (sync mode, no worker anywhere): the child would
 * inherit the compiler's locks held. fork must wait for the compile; before, it did not. */
typedef struct forker { double returned_ms; } forker;

static void *compile_in_caller(void *arg) {
  tcj_engine *e = arg;
  tcj_gemm_desc g = bf16(80, 48, 32);
  call(e, &g);
  return NULL;
}

static void *do_fork(void *arg) {
  forker *f = arg;
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  f->returned_ms = now_ms();
  if (pid > 0) waitpid(pid, NULL, 0);
  return NULL;
}

static void fork_waits_for_a_compile_in_a_callers_thread(void **state) {
  (void)state;
  tcj_engine *e = engine(TCJ_JIT_SYNC, NULL);
  fake_gate(1);
  int links = atomic_load(&fake.links);
  pthread_t caller, forking;
  assert_int_equal(pthread_create(&caller, NULL, compile_in_caller, e), 0);
  for (int i = 0; i < 5000 && atomic_load(&fake.links) == links; i++) sleep_ms(1);
  assert_int_equal(atomic_load(&fake.links), links + 1); /* the caller is inside its compile */
  forker f = {0};
  assert_int_equal(pthread_create(&forking, NULL, do_fork, &f), 0);
  sleep_ms(300);
  double opened = now_ms();
  fake_gate(0);
  assert_int_equal(pthread_join(caller, NULL), 0);
  assert_int_equal(pthread_join(forking, NULL), 0);
  print_message("fork returned %.0f ms after the compile was let go\n", f.returned_ms - opened);
  assert_true(f.returned_ms >= opened);
  tcj_destroy(e);
}

/* tcj-warmup --tune: eng_create_tuned gives an engine that tunes, with TCJ_TUNE neither read
 * nor set. Seen on the fake (which lacks the timing events, so the tuner itself then stands
 * down): a tuning engine runs its calls in the caller's thread, where a plain one is async. */
static void a_tuned_engine_needs_no_tcj_tune_variable(void **state) {
  (void)state;
  unsetenv("TCJ_TUNE");
  unsetenv("TCJ_JIT");
  tcj_options o = TCJ_OPTIONS_INIT;
  o.force_driver_jit = 1;
  o.disable_disk_cache = 1;
  tcj_engine *plain = NULL, *tuned = NULL, *bad = NULL;
  assert_int_equal(tcj_create(&plain, &o), TCJ_SUCCESS);
  assert_int_equal(eng_create_tuned(&tuned, &o), TCJ_SUCCESS);
  assert_int_equal(plain->jit_async, 1);
  assert_int_equal(tuned->jit_async, 0);
  assert_null(getenv("TCJ_TUNE"));
  /* Not read: a value tcj_create refuses does not reach it. */
  setenv("TCJ_TUNE", "yes", 1);
  assert_int_equal(tcj_create(&bad, &o), TCJ_ERROR_INVALID_VALUE);
  assert_int_equal(eng_create_tuned(&bad, &o), TCJ_SUCCESS);
  assert_int_equal(bad->jit_async, 0);
  unsetenv("TCJ_TUNE");
  tcj_destroy(bad);
  tcj_destroy(tuned);
  tcj_destroy(plain);
}


/* ---- grouped GEMM: one launch, the groups' array and count, the grouped grid ---------------- */

/* The last launch of an sm80 entry (its kernelParams are PTX_GEMM_PARAMS, no tensor maps). */
static ptx_gemm_params launched;
static unsigned launched_x, launched_y;
static void record_launch(unsigned gx, unsigned gy, unsigned gz, void **args) {
  (void)gz;
  int i = 0;
#define COPY_PARAM(name, ptype, ctype) memcpy(&launched.name, args[i++], sizeof(ctype));
  PTX_GEMM_PARAMS(COPY_PARAM)
#undef COPY_PARAM
  launched_x = gx;
  launched_y = gy;
}

/* The same for the sm90 entry, whose three tensor maps come first. */
static void record_launch_sm90(unsigned gx, unsigned gy, unsigned gz, void **args) {
  record_launch(gx, gy, gz, args + 3);
}

/* The tensor maps encoded since the test reset the count. */
typedef struct encoded_map {
  unsigned rank;
  uintptr_t addr;
  uint64_t dims[3], strides[2];
} encoded_map;
static encoded_map encoded[8];
static int encoded_count;
static void record_encode(unsigned rank, const void *addr, const cuuint64_t *dims, const cuuint64_t *strides) {
  if (encoded_count >= 8) return;
  encoded_map *m = &encoded[encoded_count++];
  memset(m, 0, sizeof *m);
  m->rank = rank;
  m->addr = (uintptr_t)addr;
  for (unsigned i = 0; i < rank && i < 3; i++) m->dims[i] = dims[i];
  for (unsigned i = 0; i + 1 < rank && i < 2; i++) m->strides[i] = strides[i];
}

#define GROUP_ARRAY ((uintptr_t)0x50000000)
/* An MoE up-projection: m rows in 8 contiguous groups (int32 ends), B nn.Linear's [8, n, k]. */
static tcj_gemm_desc moe(int64_t m, int64_t n, int64_t k) {
  tcj_gemm_desc g = bf16(m, n, k);
  g.op_b = TCJ_OP_T;
  g.ldb = k;
  g.stride_b = n * k;
  g.group_mode = TCJ_GROUP_M_CONTIGUOUS;
  g.group_count = 8;
  g.group_ends32 = (const int32_t *)GROUP_ARRAY;
  return g;
}

/* The plan e selects for g (its validated problem in *p). */
static eng_plan plan_of(tcj_engine *e, const tcj_gemm_desc *g, eng_problem *p) {
  eng_plan plan;
  const char *why = NULL;
  assert_int_equal(eng_validate_desc(g, p), TCJ_SUCCESS);
  assert_int_equal(eng_select_tuned(p, &e->caps, e->allow_packing, &e->tuning, &plan, &why), TCJ_SUCCESS);
  return plan;
}

/* B by pointer arrays: one launch whose p_b is the array (the kernel reads group g's B from
 * entry g) and whose stride_b is 0. On the fake sm_90a part that is the sm90 kernel, which
 * rewrites B's tensor map per group (ptxgen/sm90_group_maps.c): the host's map carries an
 * aligned placeholder address, not the array, and p_work the CTAs' slots (stages + 1 maps of
 * 128 bytes each, for every SM), from the call's scratch. Under TCJ_RECIPE=sm80 the sm80
 * kernel takes the array the same way, with no scratch. */
static void grouped_calls_with_b_pointer_arrays_launch_the_array_as_b(void **state) {
  (void)state;
  tcj_engine *e = engine(TCJ_JIT_SYNC, NULL);
  fake_on_launch = record_launch_sm90;
  fake_on_encode = record_encode;
  encoded_count = 0;
  tcj_gemm_desc g = moe(4096, 4096, 512);
  g.b = NULL, g.stride_b = 0;
  g.group_b_ptrs = (const void *const *)(GROUP_ARRAY + 4096);
  int launches = atomic_load(&fake.launches);
  assert_int_equal(tcj_gemm_ex(e, &g, NULL), TCJ_SUCCESS);
  assert_int_equal(atomic_load(&fake.launches) - launches, 1);
  assert_int_equal(launched.b, GROUP_ARRAY + 4096);
  assert_int_equal(launched.stride_b, 0);
  assert_int_equal(launched.groups, GROUP_ARRAY);
  assert_int_not_equal(launched.work, 0);
  assert_int_equal(encoded[1].rank, 3);
  assert_int_equal(encoded[1].addr, 0x100);
  size_t bytes = 0;
  assert_int_equal(tcj_gemm_ex_workspace_size(e, &g, &bytes), TCJ_SUCCESS);
  eng_problem p;
  eng_plan plan = plan_of(e, &g, &p);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_true(bytes >= (size_t)132 * (size_t)(plan.cfg.stages + 1) * 128);
  tcj_destroy(e);
  setenv("TCJ_RECIPE", "sm80", 1);
  e = engine(TCJ_JIT_SYNC, NULL);
  unsetenv("TCJ_RECIPE");
  fake_on_launch = record_launch;
  assert_int_equal(tcj_gemm_ex(e, &g, NULL), TCJ_SUCCESS);
  assert_int_equal(launched.b, GROUP_ARRAY + 4096);
  assert_int_equal(launched.stride_b, 0);
  assert_int_equal(launched.work, 0);
  assert_int_equal(tcj_gemm_ex_workspace_size(e, &g, &bytes), TCJ_SUCCESS);
  assert_int_equal(bytes, 0);
  fake_on_launch = NULL;
  fake_on_encode = NULL;
  tcj_destroy(e);
}

/* The plan the engine selects for g, for the grid the launch must have. */
static int64_t units_of(tcj_engine *e, const tcj_gemm_desc *g) {
  eng_problem p;
  eng_plan plan = plan_of(e, g, &p);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM80);
  return eng_grouped_units(&p, &plan.cfg);
}

/* Under the default TCJ_JIT=async a grouped call has no generic kernel to run: its kernel is
 * compiled in the caller's thread at the first call, found loaded at the next; each call is one
 * launch with p_groups, p_group_count, p_m and the strides of the spec on the 1-D grouped grid. */
static void grouped_calls_launch_once_with_their_groups_on_the_grouped_grid(void **state) {
  (void)state;
  setenv("TCJ_RECIPE", "sm80", 1); /* the fake is an sm_90a part: these groups would take sm90 */
  tcj_engine *e = engine(TCJ_JIT_ASYNC, NULL);
  unsetenv("TCJ_RECIPE");
  fake_on_launch = record_launch;
  tcj_gemm_desc g = moe(4096, 4096, 512);
  int launches = atomic_load(&fake.launches);
  call(e, &g);
  assert_int_equal(atomic_load(&fake.launches) - launches, 1);
  tcj_stats s = stats(e);
  assert_int_equal(s.generic_launches, 0);
  assert_int_equal(s.compiles, 1);
  assert_int_equal(s.compiles_background, 0);
  assert_int_equal(launched.groups, GROUP_ARRAY);
  assert_int_equal(launched.group_count, 8);
  assert_int_equal(launched.m, 4096);
  assert_int_equal(launched.batch, 1);
  assert_int_equal(launched.stride_a, 0);
  assert_int_equal(launched.stride_c, 0);
  assert_int_equal(launched.stride_d, 0);
  assert_int_equal(launched.stride_b, 4096 * 512);
  assert_int_equal(launched.slices, 1);
  assert_int_equal(launched.work, 0);
  assert_int_equal(launched.b, 0x20000000);
  assert_int_equal(launched_y, 1);
  /* Persistent: the units, or the CTAs that fit at once if fewer. */
  int64_t units = units_of(e, &g), slots = FAKE_CTAS_PER_SM * 132;
  assert_true(units > slots);
  assert_int_equal(launched_x, slots);
  call(e, &g); /* loaded: no second compile, no generic kernel */
  s = stats(e);
  assert_int_equal(s.compiles, 1);
  assert_int_equal(s.generic_launches, 0);
  assert_int_equal(atomic_load(&fake.launches) - launches, 2);
  /* int64 ends: another kernel (the ends' type is baked), the same parameters. */
  g.group_ends32 = NULL;
  g.group_ends64 = (const int64_t *)GROUP_ARRAY;
  call(e, &g);
  assert_int_equal(stats(e).compiles, 2);
  assert_int_equal(launched.groups, GROUP_ARRAY);
  /* Masked: entries of 256 rows; the strides reach the kernel, the grid is G ceil(m / bm) tiles_n. */
  tcj_gemm_desc mk = moe(256, 4096, 512);
  mk.group_mode = TCJ_GROUP_M_MASKED;
  mk.group_ends32 = NULL;
  mk.group_counts = (const int32_t *)(GROUP_ARRAY + 64);
  mk.stride_a = 256 * 512;
  mk.stride_c = 256 * 4096;
  call(e, &mk);
  assert_int_equal(launched.groups, GROUP_ARRAY + 64);
  assert_int_equal(launched.group_count, 8);
  assert_int_equal(launched.m, 256);
  assert_int_equal(launched.stride_a, 256 * 512);
  assert_int_equal(launched.stride_c, 256 * 4096);
  assert_int_equal(launched.stride_d, 256 * 4096);
  int64_t mk_units = units_of(e, &mk);
  assert_int_equal(launched_x, mk_units < slots ? mk_units : slots);
  assert_int_equal(stats(e).generic_launches, 0);
  tcj_destroy(e);
}

/* On the fake sm_90a part the same groups take the sm90 recipe: one launch of min(units, SMs)
 * persistent CTAs with the spec's parameters after the three tensor maps; A's map is the whole
 * m rows (contiguous) or the G entries of stride_a (masked), B's the G entries of stride_b, and
 * D has none (grouped kernels store through the staged path). */
static void grouped_calls_on_sm_90a_launch_the_sm90_kernel_with_grouped_tensor_maps(void **state) {
  (void)state;
  tcj_engine *e = engine(TCJ_JIT_SYNC, NULL);
  fake_on_launch = record_launch_sm90;
  fake_on_encode = record_encode;
  encoded_count = 0;
  tcj_gemm_desc g = moe(4096, 4096, 512);
  int launches = atomic_load(&fake.launches);
  call(e, &g);
  assert_int_equal(atomic_load(&fake.launches) - launches, 1);
  eng_problem p;
  eng_plan plan = plan_of(e, &g, &p);
  assert_int_equal(plan.cfg.recipe, PTX_RECIPE_SM90);
  assert_int_equal(plan.cfg.grouped, PTX_GROUP_ENDS32);
  int64_t units = eng_grouped_units(&p, &plan.cfg);
  assert_true(units > 132);
  assert_int_equal(launched_x, 132);
  assert_int_equal(launched_y, 1);
  assert_int_equal(launched.groups, GROUP_ARRAY);
  assert_int_equal(launched.group_count, 8);
  assert_int_equal(launched.m, 4096);
  assert_int_equal(launched.batch, 1);
  assert_int_equal(launched.stride_a, 0);
  assert_int_equal(launched.stride_b, 4096 * 512);
  assert_int_equal(launched.stride_d, 0);
  /* A, B and D: contiguous groups store their tiles inside a group through TMA, D's map the
   * whole m rows (a tile that crosses a group's end stores staged, in the kernel). */
  assert_int_equal(encoded_count, 3);
  assert_int_equal(encoded[2].rank, 2);
  assert_int_equal(encoded[2].dims[1], 4096);
  assert_int_equal(encoded[0].rank, 2);
  assert_int_equal(encoded[0].addr, 0x10000000);
  assert_int_equal(encoded[0].dims[0], 512); /* K-major A: k, then all m rows */
  assert_int_equal(encoded[0].dims[1], 4096);
  assert_int_equal(encoded[1].rank, 3);
  assert_int_equal(encoded[1].addr, 0x20000000);
  assert_int_equal(encoded[1].dims[0], 512);
  assert_int_equal(encoded[1].dims[1], 4096);
  assert_int_equal(encoded[1].dims[2], 8);
  assert_int_equal(encoded[1].strides[1], 4096 * 512 * 2);
  /* One B for every group (stride_b 0): a map of one entry. */
  g.stride_b = 0;
  encoded_count = 0;
  call(e, &g);
  assert_int_equal(encoded_count, 3);
  assert_int_equal(encoded[1].rank, 3);
  assert_int_equal(encoded[1].dims[2], 1);
  assert_int_equal(launched.stride_b, 0);
  /* Masked: A's map holds the 8 entries of 256 rows. */
  tcj_gemm_desc mk = moe(256, 4096, 512);
  mk.group_mode = TCJ_GROUP_M_MASKED;
  mk.group_ends32 = NULL;
  mk.group_counts = (const int32_t *)(GROUP_ARRAY + 64);
  mk.stride_a = 256 * 512;
  mk.stride_c = 256 * 4096;
  encoded_count = 0;
  call(e, &mk);
  assert_int_equal(launched.groups, GROUP_ARRAY + 64);
  assert_int_equal(launched.m, 256);
  assert_int_equal(launched.stride_a, 256 * 512);
  assert_int_equal(launched.stride_d, 256 * 4096);
  assert_int_equal(launched_x, 132);
  assert_int_equal(encoded_count, 2);
  assert_int_equal(encoded[0].rank, 3);
  assert_int_equal(encoded[0].dims[1], 256);
  assert_int_equal(encoded[0].dims[2], 8);
  assert_int_equal(encoded[0].strides[1], 256 * 512 * 2);
  assert_int_equal(stats(e).generic_launches, 0);
  tcj_destroy(e);
}

/* No group, no rows or no columns: success with nothing launched (or compiled). */
static void grouped_calls_with_nothing_to_do_launch_nothing(void **state) {
  (void)state;
  tcj_engine *e = engine(TCJ_JIT_SYNC, NULL);
  int launches = atomic_load(&fake.launches);
  tcj_gemm_desc g = moe(4096, 4096, 512);
  g.group_count = 0;
  call(e, &g);
  g = moe(0, 4096, 512);
  call(e, &g);
  g = moe(4096, 0, 512);
  call(e, &g);
  assert_int_equal(atomic_load(&fake.launches), launches);
  assert_int_equal(stats(e).compiles, 0);
  tcj_destroy(e);
}

/* Grouped calls take no scratch: B in 8-byte rows, which a plain call this big packs, is read
 * as it lies; TCJ_JIT=generic runs the specialised grouped kernel. */
static void grouped_calls_need_no_workspace_and_run_specialised_under_generic(void **state) {
  (void)state;
  tcj_engine *e = engine(TCJ_JIT_GENERIC, NULL);
  tcj_gemm_desc g = moe(4096, 4096, 512);
  g.ldb = 516; /* rows of 1032 bytes: 8-byte aligned */
  g.stride_b = 4096 * 516;
  size_t bytes = 1;
  assert_int_equal(tcj_gemm_ex_workspace_size(e, &g, &bytes), TCJ_SUCCESS);
  assert_int_equal(bytes, 0);
  tcj_gemm_desc plain = g;
  plain.group_mode = TCJ_GROUP_NONE;
  plain.group_count = 0;
  plain.group_ends32 = NULL;
  plain.stride_b = 0;
  assert_int_equal(tcj_gemm_ex_workspace_size(e, &plain, &bytes), TCJ_SUCCESS);
  assert_true(bytes > 0); /* packed: the grouped 0 above means something */
  fake_on_launch = record_launch;
  call(e, &g);
  assert_int_equal(launched.ldb, 516);
  assert_int_equal(launched.b, 0x20000000);
  assert_int_equal(stats(e).generic_launches, 0);
  tcj_destroy(e);
}

int main(void) {
  fake_cuda_install();
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup(a_generic_memo_hit_selects_and_encodes_nothing, setup),
    cmocka_unit_test_setup(a_failing_background_build_is_retried_then_given_up, setup),
    cmocka_unit_test_setup(the_job_queue_holds_at_most_its_cap, setup),
    cmocka_unit_test_setup(destroy_does_not_wait_for_another_process_compile_lock, setup),
    cmocka_unit_test_setup(fork_waits_for_a_compile_in_a_callers_thread, setup),
    cmocka_unit_test_setup(a_tuned_engine_needs_no_tcj_tune_variable, setup),
    cmocka_unit_test_setup(grouped_calls_launch_once_with_their_groups_on_the_grouped_grid, setup),
    cmocka_unit_test_setup(grouped_calls_on_sm_90a_launch_the_sm90_kernel_with_grouped_tensor_maps, setup),
    cmocka_unit_test_setup(grouped_calls_with_nothing_to_do_launch_nothing, setup),
    cmocka_unit_test_setup(grouped_calls_need_no_workspace_and_run_specialised_under_generic, setup),
    cmocka_unit_test_setup(grouped_calls_with_b_pointer_arrays_launch_the_array_as_b, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
