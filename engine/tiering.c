/* SPDX-License-Identifier: Apache-2.0 */
/* The background worker of TCJ_JIT=async and the per-class call counts (engine/tiering.h). */
#include "engine/tiering.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/jit.h"
#include "engine/log.h"

struct eng_tier_job {
  eng_tier_job *next;
  tcj_kernel_cfg cfg;
  char *user_source; /* owned copy, or NULL */
};

static _Thread_local int on_worker;

int eng_tier_on_worker(void) { return on_worker; }

#define QUEUED 0x80000000u

void eng_tier_init(eng_tiering *t) {
  memset(t, 0, sizeof *t);
  pthread_mutex_init(&t->lock, NULL);
  pthread_cond_init(&t->wake, NULL);
  pthread_mutex_init(&t->busy, NULL);
}

static void free_job(eng_tier_job *j) {
  free(j->user_source);
  free(j);
}

/* ---- exit: no compile may run into the compiler's static destructors ------------------------
 * exit() runs the atexit handlers and the C++ static destructors of every library in reverse
 * order of registration. A worker still compiling when nvJitLink's destructors ran crashed
 * (signal 11 inside nvJitLink, about one child in two on an H100). So the first worker of the
 * process loads nvJitLink (whose destructors register as it loads) and only then registers
 * stop_all_at_exit, which therefore runs before them: it drops every worker's queue and waits
 * for the compile in flight. It registers again after the process's first background compile,
 * so that it also runs before the destructors of what the compiler built on its first use. */
static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static eng_tiering *running; /* the started workers, linked by next_running */
static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT, again_once = PTHREAD_ONCE_INIT;

static void stop_worker_unlisted(eng_tiering *t);

static void stop_all_at_exit(void) {
  /* Held throughout: a tcj_destroy on another thread waits here rather than free t under us. */
  pthread_mutex_lock(&running_lock);
  for (eng_tiering *t = running; t; t = t->next_running) stop_worker_unlisted(t);
  running = NULL;
  pthread_mutex_unlock(&running_lock);
}

static void register_at_exit(void) { atexit(stop_all_at_exit); }

/* fork() waits until no worker is inside a build: a compile or module load in flight holds the
 * compiler's and the driver's locks, which the child would inherit held (a forked child that
 * called exit() hung in one run of five). The child has none of its parent's threads: it
 * forgets the workers, so that its exit() (and a tcj_destroy there) join nothing, and makes
 * their locks anew. */
static void hold_workers_for_fork(void) {
  pthread_mutex_lock(&running_lock);
  for (eng_tiering *t = running; t; t = t->next_running) pthread_mutex_lock(&t->busy);
}

static void release_workers_after_fork(void) {
  for (eng_tiering *t = running; t; t = t->next_running) pthread_mutex_unlock(&t->busy);
  pthread_mutex_unlock(&running_lock);
}

static void forget_workers_in_child(void) {
  for (eng_tiering *t = running; t; t = t->next_running) {
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    pthread_mutex_init(&t->busy, NULL);
    t->started = 0;
    t->stop = 1;
  }
  running = NULL;
  pthread_mutex_init(&running_lock, NULL);
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void register_at_fork(void) {
  pthread_atfork(hold_workers_for_fork, release_workers_after_fork, forget_workers_in_child);
}

static void preload_then_register(void) {
  eng_nvjitlink_available(NULL, 0);
  atexit(stop_all_at_exit);
}

/* Removes t from the started workers, if it is there. */
static void unlist(eng_tiering *t) {
  pthread_mutex_lock(&running_lock);
  for (eng_tiering **at = &running; *at; at = &(*at)->next_running)
    if (*at == t) {
      *at = t->next_running;
      break;
    }
  pthread_mutex_unlock(&running_lock);
}

/* Stops t's worker, if it runs: the queue dropped, the thread joined. */
static void stop_worker(eng_tiering *t) {
  unlist(t);
  stop_worker_unlisted(t);
}

static void stop_worker_unlisted(eng_tiering *t) {
  pthread_mutex_lock(&t->lock);
  t->stop = 1;
  eng_tier_job *j = t->head;
  t->head = t->tail = NULL;
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
  pthread_mutex_destroy(&t->busy);
  free(t->hashes);
  free(t->calls);
}

/* FNV-1a, never 0 (the empty slot). */
static uint64_t class_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h ? h : 1;
}

/* The slot of h (found or empty); the table has room (grown at half full). */
static size_t slot_of(const eng_tiering *t, uint64_t h) {
  size_t i = (size_t)h & (t->slots - 1);
  while (t->hashes[i] && t->hashes[i] != h) i = (i + 1) & (t->slots - 1);
  return i;
}

/* Doubles the table (from 64 slots); 0, or -1 when out of memory. */
static int grow(eng_tiering *t) {
  size_t n = t->slots ? 2 * t->slots : 64;
  uint64_t *oh = t->hashes;
  uint32_t *oc = t->calls;
  size_t on = t->slots;
  t->hashes = calloc(n, sizeof *t->hashes);
  t->calls = calloc(n, sizeof *t->calls);
  if (!t->hashes || !t->calls) {
    free(t->hashes);
    free(t->calls);
    t->hashes = oh;
    t->calls = oc;
    return -1;
  }
  t->slots = n;
  for (size_t i = 0; i < on; i++)
    if (oh[i]) {
      size_t s = slot_of(t, oh[i]);
      t->hashes[s] = oh[i];
      t->calls[s] = oc[i];
    }
  free(oh);
  free(oc);
  return 0;
}

int eng_tier_count(eng_tiering *t, const char *cfg_text, uint64_t flop) {
  uint64_t h = class_hash(cfg_text);
  int now = 0;
  pthread_mutex_lock(&t->lock);
  if ((t->used + 1) * 2 <= t->slots || grow(t) == 0) {
    size_t s = slot_of(t, h);
    if (!t->hashes[s]) {
      t->hashes[s] = h;
      t->used++;
    }
    uint32_t c = t->calls[s];
    if (!(c & QUEUED)) {
      if (c == 0) now |= ENG_TIER_FIRST;
      c++;
      if (c >= TIER_HOT_CALLS || flop >= TIER_BIG_FLOP) {
        c |= QUEUED;
        now |= ENG_TIER_QUEUE;
      }
      t->calls[s] = c;
    }
  }
  pthread_mutex_unlock(&t->lock);
  return now;
}

/* Builds each job's kernel into the engine's table (from the disk cache, else compiled and
 * published), with the engine's context current on this thread. */
static void *worker_main(void *arg) {
  tcj_engine *e = arg;
  eng_tiering *t = &e->tiering;
  on_worker = 1;
  pthread_mutex_lock(&t->busy); /* loading nvJitLink is a build's first step */
  pthread_once(&at_exit_once, preload_then_register);
  pthread_mutex_unlock(&t->busy);
  for (;;) {
    pthread_mutex_lock(&t->lock);
    while (!t->head && !t->stop) pthread_cond_wait(&t->wake, &t->lock);
    eng_tier_job *j = t->stop ? NULL : t->head;
    if (j) {
      t->head = j->next;
      if (!t->head) t->tail = NULL;
    }
    pthread_mutex_unlock(&t->lock);
    if (!j) break;
    int pushed = 0;
    cache_kernel k;
    pthread_mutex_lock(&t->busy);
    tcj_status st = eng_ctx_enter(e, &pushed);
    if (st == TCJ_SUCCESS) {
      st = eng_kernel_get_user(e, &j->cfg, j->user_source, &k, NULL);
      eng_ctx_leave(e, pushed);
    }
    pthread_mutex_unlock(&t->busy);
    if (st == TCJ_SUCCESS) {
      pthread_once(&again_once, register_at_exit);
      atomic_fetch_add_explicit(&e->stats.swaps, 1, memory_order_relaxed);
    } else {
      char text[512];
      if (tcj_cfg_format(&j->cfg, text, sizeof text) < 0) snprintf(text, sizeof text, "?");
      eng_log(e->log, ENG_LOG_WARN, "background compile of %s failed (%s): its class stays generic", text,
              tcj_status_string(st));
    }
    free_job(j);
  }
  return NULL;
}

int eng_tier_queue(tcj_engine *e, const tcj_kernel_cfg *cfg, const char *user_source) {
  eng_tiering *t = &e->tiering;
  eng_tier_job *j = calloc(1, sizeof *j);
  if (!j) return -1;
  j->cfg = *cfg;
  if (user_source && !(j->user_source = strdup(user_source))) {
    free(j);
    return -1;
  }
  pthread_mutex_lock(&t->lock);
  int ok = !t->stop;
  if (ok && !t->started) {
    pthread_once(&fork_once, register_at_fork);
    /* The program's asynchronous signals blocked in the worker (it inherits the mask it is
     * created with), so that they go to the program's own threads; the synchronous ones a fault
     * raises stay open (blocked, they would kill the process past any handler). */
    sigset_t all, old;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    sigdelset(&all, SIGABRT);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_mutex_lock(&running_lock); /* listed first: a fork from now on waits for its builds */
    t->next_running = running;
    running = t;
    pthread_mutex_unlock(&running_lock);
    ok = pthread_create(&t->worker, NULL, worker_main, e) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    t->started = ok;
    if (!ok) unlist(t);
  }
  if (ok) {
    if (t->tail) t->tail->next = j;
    else t->head = j;
    t->tail = j;
    pthread_cond_signal(&t->wake);
  }
  pthread_mutex_unlock(&t->lock);
  if (!ok) free_job(j);
  return ok ? 0 : -1;
}
