/* SPDX-License-Identifier: Apache-2.0 */
/* The background worker of TCJ_JIT=async, the per-class counts and build outcomes, the generic
 * memo, and how workers meet exit() and fork() (engine/tiering.h). Layer: called by gemm.c and
 * engine.c; its worker builds through kernel.c (engine/build.h below it). */
#include "engine/tiering.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "engine/build.h"
#include "engine/engine.h"
#include "engine/error.h"
#include "engine/jit.h"
#include "engine/log.h"
#include "engine/nvrtc.h"

struct eng_tier_job {
  eng_tier_job *next;
  uint64_t key; /* the class */
  tcj_kernel_cfg cfg;
  char *user_source; /* owned copy, or NULL */
};

/* A class: counting calls toward its hot point, queued (or built), or generic for good. */
enum { COUNTING, QUEUED, GENERIC_FOR_GOOD };
struct eng_tier_class {
  uint64_t key; /* 0: an empty slot */
  uint32_t calls;
  uint8_t state, failures;
};

void eng_tier_init(eng_tiering *t) {
  memset(t, 0, sizeof *t);
  pthread_mutex_init(&t->lock, NULL);
  pthread_cond_init(&t->wake, NULL);
}

static void free_job(eng_tier_job *j) {
  free(j->user_source);
  free(j);
}

/* ---- workers and fork() -------------------------------------------------------------------
 * The child of a fork() has none of its parent's threads: it forgets the workers (its exit()
 * and tcj_destroy join nothing) and makes their locks anew. fork() holds running_lock, so that
 * no worker is listed or unlisted during it, and then the build lock (engine/build.c: it waits
 * for the builds in flight): these handlers are registered after the build lock's, and fork()
 * runs the preparing handlers last registered first. */
static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static eng_tiering *running; /* the started workers, linked by next_running */
static int exiting;          /* under running_lock: stop_all_at_exit ran; no worker starts after it */

static void hold_workers_for_fork(void) { pthread_mutex_lock(&running_lock); }

static void release_workers_after_fork(void) { pthread_mutex_unlock(&running_lock); }

static void forget_workers_in_child(void) {
  for (eng_tiering *t = running; t; t = t->next_running) {
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    t->started = 0;
    atomic_store(&t->stop, 1);
  }
  running = NULL;
  pthread_mutex_init(&running_lock, NULL);
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void register_at_fork(void) {
  eng_build_fork_guard(); /* first: see above */
  pthread_atfork(hold_workers_for_fork, release_workers_after_fork, forget_workers_in_child);
}

/* ---- exit: no compile may run into the compiler's static destructors ------------------------
 * exit() runs the atexit handlers and the C++ static destructors of every library in reverse
 * order of registration. A worker still compiling when nvJitLink's destructors ran crashed
 * (signal 11 inside nvJitLink, about one child in two on an H100). So stop_all_at_exit, which
 * drops every worker's queue and waits for the build in flight, must be registered after every
 * destructor of a compiler a worker uses: those registered when the library loads and those
 * registered at its first compile. So the first job queued in the process loads the compiler
 * and compiles an empty kernel with it (a few ms, once per process) in the caller's thread,
 * before any worker can build, and only then registers the handler: nvJitLink at the first job,
 * NVRTC at the first job with a user epilogue or an sm90 kernel that it compiles whole
 * (eng_cfg_compiles_whole; NVRTC is opened lazily: a handler registered before that ran after
 * NVRTC's destructors). In the caller's thread, because a warm-up in the
 * worker was itself a build that exit() could run into: one child in 15 of test_gemm_ex_gpu's
 * exit test aborted there (H200). The worker registers again after its first real build of
 * each kind, for destructors that only a real kernel creates.
 *
 * Lock order: running_lock, then a tiering's lock (stop_all_at_exit, eng_tier_queue), never
 * the reverse. A queue call that waited for running_lock while the handler ran finds `exiting`
 * and starts no worker: no build can begin after the handler. */
static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT, again_once = PTHREAD_ONCE_INIT;
static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT, nvrtc_again_once = PTHREAD_ONCE_INIT;

static void stop_worker_unlisted(eng_tiering *t);

static void stop_all_at_exit(void) {
  /* Held throughout: a tcj_destroy on another thread waits here rather than free t under us. */
  pthread_mutex_lock(&running_lock);
  exiting = 1;
  for (eng_tiering *t = running; t; t = t->next_running) stop_worker_unlisted(t);
  running = NULL;
  pthread_mutex_unlock(&running_lock);
}

static void register_at_exit(void) { atexit(stop_all_at_exit); }

/* An empty kernel through nvJitLink: its load-time and first-compile destructors registered. */
static void warm_nvjitlink(void) {
  static const char ptx[] = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry tcj_exit_warmup()\n{\n"
                            "ret;\n}\n";
  eng_cubin bin = {0};
  char err[256];
  eng_build_enter();
  if (eng_jit_compile_nvjitlink(ptx, sizeof ptx - 1, "sm_80", &bin, err, sizeof err) == TCJ_SUCCESS) eng_cubin_free(&bin);
  eng_build_leave();
}

static void warm_then_register(void) {
  warm_nvjitlink();
  atexit(stop_all_at_exit);
}

/* The same for NVRTC, with an epilogue that returns its value. */
static void warm_nvrtc_then_register(void) {
  static const char src[] = TCJ_EPILOGUE_SIGNATURE " { return v; }\n";
  char *ptx = NULL, err[256];
  size_t len = 0;
  eng_build_enter();
  if (eng_nvrtc_compile_epilogue(src, "sm_80", &ptx, &len, err, sizeof err) == TCJ_SUCCESS) free(ptx);
  eng_build_leave();
  atexit(stop_all_at_exit);
}

/* Removes t from the started workers, if it is there. Needs running_lock. */
static void unlist_locked(eng_tiering *t) {
  for (eng_tiering **at = &running; *at; at = &(*at)->next_running)
    if (*at == t) {
      *at = t->next_running;
      break;
    }
}

/* Stops t's worker, if it runs: the queue dropped, the thread joined. */
static void stop_worker(eng_tiering *t) {
  pthread_mutex_lock(&running_lock);
  unlist_locked(t);
  pthread_mutex_unlock(&running_lock);
  stop_worker_unlisted(t);
}

static void stop_worker_unlisted(eng_tiering *t) {
  pthread_mutex_lock(&t->lock);
  atomic_store(&t->stop, 1); /* also ends a wait for another process's compile lock */
  eng_tier_job *j = t->head;
  t->head = t->tail = NULL;
  t->queued = 0;
  int started = t->started;
  t->started = 0;
  pthread_cond_broadcast(&t->wake);
  pthread_mutex_unlock(&t->lock);
  while (j) {
    eng_tier_job *next = j->next;
    free_job(j);
    j = next;
  }
  if (started) pthread_join(t->worker, NULL);
}

void eng_tier_shutdown(eng_tiering *t) {
  stop_worker(t);
  pthread_cond_destroy(&t->wake);
  pthread_mutex_destroy(&t->lock);
  free(t->classes);
  free(t->memo);
}

/* ---- classes ----------------------------------------------------------------------------- */

uint64_t eng_tier_class_key(uint64_t table_hash) { return table_hash ? table_hash : 1; }

/* The slot of key (found or empty); the table has room (grown at half full). */
static size_t slot_of(const eng_tiering *t, uint64_t key) {
  size_t i = (size_t)key & (t->slots - 1);
  while (t->classes[i].key && t->classes[i].key != key) i = (i + 1) & (t->slots - 1);
  return i;
}

/* Doubles the table (from 64 slots); 0, or -1 when out of memory. */
static int grow(eng_tiering *t) {
  size_t n = t->slots ? 2 * t->slots : 64, on = t->slots;
  eng_tier_class *old = t->classes;
  if (!(t->classes = calloc(n, sizeof *t->classes))) {
    t->classes = old;
    return -1;
  }
  t->slots = n;
  for (size_t i = 0; i < on; i++)
    if (old[i].key) t->classes[slot_of(t, old[i].key)] = old[i];
  free(old);
  return 0;
}

/* The record of key, made when new (*fresh = 1); NULL when out of memory. Needs t->lock. */
static eng_tier_class *class_of(eng_tiering *t, uint64_t key, int *fresh) {
  *fresh = 0;
  if ((t->used + 1) * 2 > t->slots && grow(t) != 0) return NULL;
  eng_tier_class *c = &t->classes[slot_of(t, key)];
  if (!c->key) {
    c->key = key;
    t->used++;
    *fresh = 1;
  }
  return c;
}

int eng_tier_count(eng_tiering *t, uint64_t key, uint64_t flop) {
  int now = 0, fresh;
  pthread_mutex_lock(&t->lock);
  eng_tier_class *c = class_of(t, key, &fresh);
  if (c && c->state == COUNTING) {
    if (fresh) now |= ENG_TIER_FIRST;
    if (++c->calls >= TIER_HOT_CALLS || flop >= TIER_BIG_FLOP) {
      c->state = QUEUED;
      now |= ENG_TIER_QUEUE;
    }
  }
  pthread_mutex_unlock(&t->lock);
  return now;
}

/* A build of the class ended (ok), or its job could not wait (a full queue: `full`). Needs
 * t->lock. Returns 1 when the class has just become generic for good. */
static int class_built(eng_tiering *t, uint64_t key, int ok, int full) {
  int fresh;
  eng_tier_class *c = class_of(t, key, &fresh);
  if (!c || ok) return 0; /* built: it stays QUEUED, and its calls hit the kernel table */
  c->calls = 0;
  c->state = COUNTING;
  if (full) return 0;
  if (++c->failures < TIER_BUILD_ATTEMPTS) return 0;
  c->state = GENERIC_FOR_GOOD;
  return 1;
}

int eng_tier_built(eng_tiering *t, uint64_t key, int ok) {
  pthread_mutex_lock(&t->lock);
  int gave_up = class_built(t, key, ok, 0);
  pthread_mutex_unlock(&t->lock);
  return gave_up;
}

static void log_failure(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *why, int gave_up) {
  char text[512];
  if (tcj_cfg_format(cfg, text, sizeof text) < 0) snprintf(text, sizeof text, "?");
  if (gave_up)
    eng_log(e->log, ENG_LOG_WARN, "background build of %s failed %d times (last: %s): its class runs its generic "
            "kernel from now on", text, TIER_BUILD_ATTEMPTS, why);
  else
    eng_log(e->log, ENG_LOG_INFO, "background build of %s failed (%s): retried at the class's next hot point", text,
            why);
}

/* ---- the generic memo --------------------------------------------------------------------- */

uint64_t eng_generic_memo_key(const eng_problem *p) {
  uint64_t h = XXH3_64bits(p, sizeof *p);
  return h ? h : 1;
}

/* The set of key: two adjacent slots. */
static eng_generic_memo *memo_set(eng_tiering *t, uint64_t key) {
  return &t->memo[(size_t)(key % (ENG_GENERIC_MEMO_SLOTS / 2)) * 2];
}

static int same(const eng_generic_memo *m, const eng_problem *p, uint64_t key) {
  return m->key == key && memcmp(&m->problem, p, sizeof *p) == 0;
}

int eng_generic_memo_get(eng_tiering *t, const eng_problem *p, uint64_t key, eng_generic_memo *out) {
  int hit = 0;
  pthread_mutex_lock(&t->lock);
  if (t->memo) {
    eng_generic_memo *s = memo_set(t, key);
    for (int i = 0; i < 2 && !hit; i++)
      if (same(&s[i], p, key)) {
        s[i].used = ++t->clock;
        out->plan = s[i].plan; /* not the problem: the caller has it */
        out->kernel = s[i].kernel;
        out->tmaps = s[i].tmaps;
        out->key = key;
        hit = 1;
      }
  }
  pthread_mutex_unlock(&t->lock);
  return hit;
}

void eng_generic_memo_put(eng_tiering *t, const eng_generic_memo *m) {
  pthread_mutex_lock(&t->lock);
  if (!t->memo) { /* CUtensorMap is 64-byte aligned, more than malloc promises; none: calls select, as before */
    size_t bytes = ENG_GENERIC_MEMO_SLOTS * sizeof *t->memo;
    if ((t->memo = aligned_alloc(_Alignof(eng_generic_memo), bytes))) memset(t->memo, 0, bytes);
  }
  if (t->memo) {
    eng_generic_memo *s = memo_set(t, m->key);
    int i = same(&s[1], &m->problem, m->key) || (!same(&s[0], &m->problem, m->key) && s[1].used < s[0].used);
    s[i] = *m;
    s[i].used = ++t->clock;
  }
  pthread_mutex_unlock(&t->lock);
}

/* ---- the worker --------------------------------------------------------------------------- */

/* Builds each job's kernel into the engine's table (from the disk cache, else compiled and
 * published), with the engine's context current on this thread. */
static void *worker_main(void *arg) {
  tcj_engine *e = arg;
  eng_tiering *t = &e->tiering;
  eng_build_in_background(&t->stop);
  for (;;) {
    pthread_mutex_lock(&t->lock);
    while (!t->head && !atomic_load(&t->stop)) pthread_cond_wait(&t->wake, &t->lock);
    eng_tier_job *j = atomic_load(&t->stop) ? NULL : t->head;
    if (j) {
      t->head = j->next;
      if (!t->head) t->tail = NULL;
      t->queued--;
    }
    pthread_mutex_unlock(&t->lock);
    if (!j) break;
    int pushed = 0;
    cache_kernel k;
    tcj_status st = eng_ctx_enter(e, &pushed);
    if (st == TCJ_SUCCESS) {
      st = eng_kernel_get_user(e, &j->cfg, j->user_source, &k, NULL);
      eng_ctx_leave(e, pushed);
    }
    if (atomic_load(&t->stop)) { /* destroy or exit: the outcome no longer matters */
      free_job(j);
      break;
    }
    if (st == TCJ_SUCCESS) {
      pthread_once(&again_once, register_at_exit);
      if (j->user_source || eng_cfg_compiles_whole(&j->cfg)) pthread_once(&nvrtc_again_once, register_at_exit);
      atomic_fetch_add_explicit(&e->stats.swaps, 1, memory_order_relaxed);
      eng_tier_built(t, j->key, 1);
    } else {
      char why[256];
      snprintf(why, sizeof why, "%s: %s", tcj_status_string(st), eng_last_error());
      log_failure(e, &j->cfg, why, eng_tier_built(t, j->key, 0));
    }
    free_job(j);
  }
  return NULL;
}

/* Starts t's worker, listed first: exit() from then on stops it. Needs running_lock and t->lock.
 * The program's asynchronous signals are blocked in the worker (it inherits the mask it is
 * created with), so that they go to the program's own threads; the synchronous ones a fault
 * raises stay open (blocked, they would kill the process past any handler). */
static int start_worker(tcj_engine *e, eng_tiering *t) {
  sigset_t all, old;
  sigfillset(&all);
  sigdelset(&all, SIGSEGV);
  sigdelset(&all, SIGBUS);
  sigdelset(&all, SIGFPE);
  sigdelset(&all, SIGILL);
  sigdelset(&all, SIGABRT);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  t->next_running = running;
  running = t;
  int ok = pthread_create(&t->worker, NULL, worker_main, e) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (!ok) unlist_locked(t);
  t->started = ok;
  return ok;
}

int eng_tier_queue(tcj_engine *e, uint64_t key, const tcj_kernel_cfg *cfg, const char *user_source) {
  eng_tiering *t = &e->tiering;
  pthread_once(&fork_once, register_at_fork); /* before the first worker is listed */
  /* Before any worker can build with them (see "exit" above); once per process each. */
  pthread_once(&at_exit_once, warm_then_register);
  if (user_source || eng_cfg_compiles_whole(cfg)) pthread_once(&nvrtc_once, warm_nvrtc_then_register);
  eng_tier_job *j = calloc(1, sizeof *j);
  if (j) {
    j->key = key;
    j->cfg = *cfg;
    if (user_source && !(j->user_source = strdup(user_source))) {
      free(j);
      j = NULL;
    }
  }
  const char *why = j ? NULL : "out of host memory";
  int ret = 0;
  pthread_mutex_lock(&running_lock); /* before t->lock: the order stop_all_at_exit takes them in */
  pthread_mutex_lock(&t->lock);
  if (!why && (exiting || atomic_load(&t->stop))) why = "the process is exiting or the engine is being destroyed";
  if (!why && t->queued >= TIER_QUEUE_MAX) ret = 1;
  if (!why && !ret && !t->started && !start_worker(e, t)) why = "no thread could start";
  if (!why && !ret) {
    if (t->tail) t->tail->next = j;
    else t->head = j;
    t->tail = j;
    t->queued++;
    pthread_cond_signal(&t->wake);
  }
  int gave_up = why || ret ? class_built(t, key, 0, ret == 1) : 0;
  pthread_mutex_unlock(&t->lock);
  pthread_mutex_unlock(&running_lock);
  if (why) log_failure(e, cfg, why, gave_up);
  if (why || ret) {
    if (j) free_job(j);
    return why ? -1 : 1;
  }
  return 0;
}
