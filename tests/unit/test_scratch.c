/* SPDX-License-Identifier: Apache-2.0 */
/* engine/scratch.c: where a call's scratch comes from and where it goes back, with the
 * caller's allocator faked (no GPU needed): tcj_set_workspace from another thread between a
 * call's get and its put must neither hand the caller's region to options.free nor leak the
 * allocator's block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/scratch.h"

#define WORKSPACE ((CUdeviceptr)0x7000000000ull)
#define WORKSPACE_BYTES ((size_t)1 << 20)

/* Hands out distinct addresses far from WORKSPACE and counts what comes back. */
typedef struct fake_alloc {
  int allocs, frees;             /* atomics: the stress test's threads share them */
  CUdeviceptr next;
  CUdeviceptr freed_workspace;   /* a region of the caller's workspace that reached free */
  int bad_sizes;                 /* frees whose size is not the one allocated */
} fake_alloc;

static int fake_alloc_fn(void *ctx, size_t bytes, CUstream stream, CUdeviceptr *ptr) {
  (void)stream;
  fake_alloc *f = ctx;
  __atomic_add_fetch(&f->allocs, 1, __ATOMIC_RELAXED);
  /* The block's size rides in its low bits (a multiple of 4096 apart), so free can check it. */
  *ptr = __atomic_add_fetch(&f->next, (CUdeviceptr)1 << 32, __ATOMIC_RELAXED) + bytes;
  return 0;
}

static void fake_free_fn(void *ctx, CUdeviceptr ptr, size_t bytes, CUstream stream) {
  (void)stream;
  fake_alloc *f = ctx;
  __atomic_add_fetch(&f->frees, 1, __ATOMIC_RELAXED);
  if (ptr >= WORKSPACE && ptr < WORKSPACE + WORKSPACE_BYTES) __atomic_store_n(&f->freed_workspace, ptr, __ATOMIC_RELAXED);
  else if ((ptr & 0xffffffffull) != bytes) __atomic_add_fetch(&f->bad_sizes, 1, __ATOMIC_RELAXED);
}

/* Only what scratch.c reads: the allocator pair and the workspace (no CUDA: with an allocator
 * the kept region and the pool are never asked). */
static tcj_engine *fake_engine(fake_alloc *f) {
  tcj_engine *e = calloc(1, sizeof *e);
  assert_non_null(e);
  memset(f, 0, sizeof *f);
  f->next = (CUdeviceptr)1 << 40;
  e->alloc = fake_alloc_fn;
  e->free = fake_free_fn;
  e->alloc_ctx = f;
  eng_kept_scratch_init(&e->kept);
  eng_workspace_init(&e->ws);
  return e;
}

static void free_engine(tcj_engine *e) {
  eng_kept_scratch_free(NULL, &e->kept);
  eng_workspace_destroy(&e->ws);
  free(e);
}

static void workspace_cleared_between_get_and_put_is_not_handed_to_the_allocators_free(void **state) {
  (void)state;
  fake_alloc f;
  tcj_engine *e = fake_engine(&f);
  assert_int_equal(tcj_set_workspace(e, WORKSPACE, WORKSPACE_BYTES), TCJ_SUCCESS);
  eng_scratch s;
  assert_int_equal(eng_scratch_get(e, 4096, NULL, &s), TCJ_SUCCESS);
  assert_int_equal(s.base, WORKSPACE);
  assert_int_equal(tcj_set_workspace(e, 0, 0), TCJ_SUCCESS); /* another thread, mid-call */
  eng_scratch_put(e, &s, NULL);
  if (f.freed_workspace) fail_msg("the caller's workspace 0x%llx went to options.free", (unsigned long long)f.freed_workspace);
  assert_int_equal(f.frees, 0);
  assert_int_equal(f.allocs, 0);
  /* The next call allocates: the workspace is gone for calls that start after the clear. */
  assert_int_equal(eng_scratch_get(e, 4096, NULL, &s), TCJ_SUCCESS);
  assert_int_equal(f.allocs, 1);
  eng_scratch_put(e, &s, NULL);
  assert_int_equal(f.frees, 1);
  free_engine(e);
}

static void workspace_set_between_get_and_put_does_not_leak_the_allocators_block(void **state) {
  (void)state;
  fake_alloc f;
  tcj_engine *e = fake_engine(&f);
  eng_scratch s;
  assert_int_equal(eng_scratch_get(e, 4096, NULL, &s), TCJ_SUCCESS);
  assert_int_equal(f.allocs, 1);
  assert_int_equal(tcj_set_workspace(e, WORKSPACE, WORKSPACE_BYTES), TCJ_SUCCESS);
  eng_scratch_put(e, &s, NULL);
  if (f.frees != 1) fail_msg("options.alloc gave 1 block and options.free got %d back", f.frees);
  assert_int_equal(f.bad_sizes, 0);
  free_engine(e);
}

static void a_call_larger_than_the_workspace_fails_naming_both_sizes(void **state) {
  (void)state;
  fake_alloc f;
  tcj_engine *e = fake_engine(&f);
  assert_int_equal(tcj_set_workspace(e, WORKSPACE, WORKSPACE_BYTES), TCJ_SUCCESS);
  eng_scratch s;
  assert_int_equal(eng_scratch_get(e, WORKSPACE_BYTES + 1, NULL, &s), TCJ_ERROR_OUT_OF_MEMORY);
  assert_non_null(strstr(eng_last_error(), "needs 1048577 bytes of workspace; tcj_set_workspace gave 1048576"));
  assert_int_equal(s.source, ENG_SCRATCH_NONE);
  eng_scratch_put(e, &s, NULL); /* a no-op */
  assert_int_equal(f.allocs + f.frees, 0);
  free_engine(e);
}

/* Calls in several threads while another sets and clears the workspace: every block the
 * allocator gave comes back once with its size, and no region of the workspace reaches free.
 * On 2 cores a thread may run a whole time slice alone (thousands of calls), so each caller
 * goes on until it has seen both sources often, and yields between some gets and their puts:
 * the window where the workspace used to be read a second time. */
enum { STRESS_CALLERS = 3, STRESS_CALLS = 20000, STRESS_SEEN = 200, STRESS_SECONDS = 20 };

typedef struct stress {
  tcj_engine *e;
  int stop, sets, workspace_calls, alloc_calls;
} stress;

static void *stress_caller(void *arg) {
  stress *t = arg;
  int workspace = 0, alloc = 0;
  time_t until = time(NULL) + STRESS_SECONDS;
  for (int i = 0; i < STRESS_CALLS || ((workspace < STRESS_SEEN || alloc < STRESS_SEEN) && time(NULL) < until); i++) {
    eng_scratch s;
    size_t bytes = 256 * (size_t)(1 + i % 16);
    if (eng_scratch_get(t->e, bytes, NULL, &s) != TCJ_SUCCESS) continue;
    if (s.source == ENG_SCRATCH_WORKSPACE && s.base != WORKSPACE) fail_msg("workspace base 0x%llx", (unsigned long long)s.base);
    workspace += s.source == ENG_SCRATCH_WORKSPACE;
    alloc += s.source == ENG_SCRATCH_ALLOC;
    if (i % 8 == 0) sched_yield();
    eng_scratch_put(t->e, &s, NULL);
  }
  __atomic_add_fetch(&t->workspace_calls, workspace, __ATOMIC_RELAXED);
  __atomic_add_fetch(&t->alloc_calls, alloc, __ATOMIC_RELAXED);
  return NULL;
}

static void *stress_setter(void *arg) {
  stress *t = arg;
  for (unsigned i = 0; !__atomic_load_n(&t->stop, __ATOMIC_RELAXED); i++) {
    tcj_set_workspace(t->e, i % 2 ? WORKSPACE : 0, i % 2 ? WORKSPACE_BYTES : 0);
    __atomic_add_fetch(&t->sets, 1, __ATOMIC_RELAXED);
    sched_yield(); /* in either state alike */
  }
  return NULL;
}

static void set_workspace_racing_calls_frees_every_block_once_and_never_the_workspace(void **state) {
  (void)state;
  fake_alloc f;
  stress t = {fake_engine(&f), 0, 0, 0, 0};
  pthread_t callers[STRESS_CALLERS], setter;
  assert_int_equal(pthread_create(&setter, NULL, stress_setter, &t), 0);
  for (int i = 0; i < STRESS_CALLERS; i++) assert_int_equal(pthread_create(&callers[i], NULL, stress_caller, &t), 0);
  for (int i = 0; i < STRESS_CALLERS; i++) assert_int_equal(pthread_join(callers[i], NULL), 0);
  __atomic_store_n(&t.stop, 1, __ATOMIC_RELAXED);
  assert_int_equal(pthread_join(setter, NULL), 0);
  print_message("%d calls took the workspace, %d the allocator, while it was set or cleared %d times\n",
                t.workspace_calls, t.alloc_calls, t.sets);
  if (t.workspace_calls < STRESS_SEEN || t.alloc_calls < STRESS_SEEN)
    fail_msg("the calls did not meet both sources %d times in %d s", STRESS_SEEN, STRESS_SECONDS);
  if (f.freed_workspace) fail_msg("the caller's workspace 0x%llx went to options.free", (unsigned long long)f.freed_workspace);
  if (f.frees != f.allocs) fail_msg("options.alloc gave %d blocks and options.free got %d back", f.allocs, f.frees);
  assert_int_equal(f.bad_sizes, 0);
  free_engine(t.e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(workspace_cleared_between_get_and_put_is_not_handed_to_the_allocators_free),
    cmocka_unit_test(workspace_set_between_get_and_put_does_not_leak_the_allocators_block),
    cmocka_unit_test(a_call_larger_than_the_workspace_fails_naming_both_sizes),
    cmocka_unit_test(set_workspace_racing_calls_frees_every_block_once_and_never_the_workspace),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
