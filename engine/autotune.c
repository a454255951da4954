/* SPDX-License-Identifier: Apache-2.0 */
/* The autotuner (engine/autotune.h): which plans to time, how a choice is keyed and stored,
 * and the timing itself, with CUDA events on the caller's stream. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/autotune.h"
#include "engine/engine.h"
#include "engine/error.h"
#include "engine/log.h"
#include "engine/tune_timer.h"
#include "ptxgen/ptxgen.h"
#include "tcj_codegen_id.h"

#define PLAN_TEXT_MAX 640 /* a config text (up to 512 bytes) and the packing */

int eng_autotune_from_env(int *on) {
  const char *v = getenv("TCJ_TUNE");
  *on = 0;
  if (!v || !*v || strcmp(v, "0") == 0) return 0;
  if (strcmp(v, "1") == 0) {
    *on = 1;
    return 0;
  }
  return -1;
}

int eng_autotune_plan_text(const eng_plan *plan, char *buf, size_t size) {
  int n = tcj_cfg_format(&plan->cfg, buf, size);
  if (n < 0) return -1;
  int more = snprintf(buf + n, size - (size_t)n, " pack_a=%d pack_b=%d", plan->pack_a, plan->pack_b);
  return more >= 0 && (size_t)more < size - (size_t)n ? n + more : -1;
}

static int same_plan(const eng_plan *x, const eng_plan *y) {
  char a[PLAN_TEXT_MAX], b[PLAN_TEXT_MAX];
  return eng_autotune_plan_text(x, a, sizeof a) >= 0 && eng_autotune_plan_text(y, b, sizeof b) >= 0 &&
         strcmp(a, b) == 0;
}

/* Appends plan unless it is there already; returns the new count. */
static int add_unique(eng_plan *out, int n, int max, const eng_plan *plan) {
  if (n >= max) return n;
  for (int i = 0; i < n; i++)
    if (same_plan(&out[i], plan)) return n;
  out[n] = *plan;
  return n + 1;
}

int eng_autotune_alternative(const tcj_kernel_cfg *selected, const ptx_recipe_row *row) {
  return row != ptx_recipe_of(selected) && row->forceable && ptx_recipe_takes(row, selected->ab);
}

int eng_autotune_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            const eng_plan *selected, eng_plan *out, int max) {
  int n = add_unique(out, 0, max, selected);
  /* The other recipes: the model's recipe choice (decode splits, small problems) is a
   * threshold measured on a few shapes, so the recipes it did not take are timed too. */
  const char *why = NULL;
  const ptx_recipe_row *row;
  for (int i = 0; (row = ptx_recipe_at(i)) != NULL; i++) {
    if (!eng_autotune_alternative(&selected->cfg, row)) continue;
    eng_tuning other;
    memset(&other, 0, sizeof other);
    other.recipe = row;
    eng_plan alt;
    if (eng_select_tuned(p, caps, allow_packing, &other, &alt, &why) == TCJ_SUCCESS) n = add_unique(out, n, max, &alt);
  }
  eng_candidate c[ENG_MAX_CANDIDATES];
  int nc = eng_sm90_candidates(p, caps, allow_packing, c, ENG_MAX_CANDIDATES, &why);
  for (int i = 0; i < nc; i++)
    if (c[i].est_us <= c[0].est_us * ENG_AUTOTUNE_WITHIN) n = add_unique(out, n, max, &c[i].plan);
  return n;
}

int eng_autotune_key(const eng_problem *p, const eng_device_caps *caps, const char *arch, const char *device,
                     char *out, size_t size) {
  int n = snprintf(out, size,
                   "tcj-tune format=1\ncodegen=%s\n"
                   "cfg=tuned %s%s %" PRId64 "x%" PRId64 "x%" PRId64 " %s->%s/%s ld=%" PRId64 ",%" PRId64 ",%" PRId64
                   ",%" PRId64 " align=%d,%d,%d c=%d bias=%d/%s act=%s batch=%" PRId64 " strides=%" PRId64 ",%" PRId64
                   ",%" PRId64 ",%" PRId64 ",%" PRId64 " user=%016" PRIx64 "%s fp8=%d,%d,%d%s%s%s\n"
                   "arch=%s\ndevice=%s sms=%d\n",
                   TCJ_CODEGEN_ID, p->op_a_t ? "T" : "N", p->op_b_t ? "T" : "N", p->m, p->n, p->k,
                   ptx_elem_name(p->ab), ptx_elem_name(p->c), ptx_elem_name(p->d), p->lda, p->ldb, p->ldc, p->ldd,
                   p->align_a, p->align_b, p->align_c, p->reads_c, (int)p->bias, ptx_elem_name(p->bias_t),
                   ptx_act_name(p->act), p->batch, p->stride_a, p->stride_b, p->stride_c, p->stride_d,
                   p->stride_bias, p->user, p->user_t ? "/t" : "", p->b_other, p->fast_accum, p->block_scale, p->tf32x3 ? " x3" : "",
                   p->scale_row ? " scale=row" : "", p->row_scale ? " rowscale" : "", arch, device,
                   caps->sm_count);
  return n >= 0 && (size_t)n < size ? n : -1;
}

int eng_autotune_pick(const eng_plan *cands, int n, const void *payload, size_t size) {
  char text[PLAN_TEXT_MAX];
  for (int i = 0; i < n; i++) {
    int len = eng_autotune_plan_text(&cands[i], text, sizeof text);
    if (len >= 0 && (size_t)len == size && memcmp(text, payload, size) == 0) return i;
  }
  return -1;
}

/* ---- memo ---------------------------------------------------------------------------- */

typedef struct eng_tuned_entry {
  char *key;
  eng_plan plan;
} eng_tuned_entry;

void eng_tuned_memo_init(eng_tuned_memo *m) {
  memset(m, 0, sizeof *m);
  pthread_mutex_init(&m->lock, NULL);
}

void eng_tuned_memo_free(eng_tuned_memo *m) {
  for (size_t i = 0; i < m->count; i++) free(m->entries[i].key);
  free(m->entries);
  pthread_mutex_destroy(&m->lock);
  memset(m, 0, sizeof *m);
}

/* A linear scan: an engine tunes tens of problem classes, and only with TCJ_TUNE=1. */
int eng_tuned_memo_find(eng_tuned_memo *m, const char *key, eng_plan *out) {
  int found = 0;
  pthread_mutex_lock(&m->lock);
  for (size_t i = 0; i < m->count && !found; i++)
    if (strcmp(m->entries[i].key, key) == 0) {
      *out = m->entries[i].plan;
      found = 1;
    }
  pthread_mutex_unlock(&m->lock);
  return found;
}

int eng_tuned_memo_put(eng_tuned_memo *m, const char *key, const eng_plan *plan) {
  int rc = 0;
  pthread_mutex_lock(&m->lock);
  for (size_t i = 0; i < m->count; i++)
    if (strcmp(m->entries[i].key, key) == 0) {
      m->entries[i].plan = *plan; /* a racing tuner's choice: either is measured */
      goto out;
    }
  if (m->count == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 16;
    eng_tuned_entry *grown = realloc(m->entries, cap * sizeof *grown);
    if (!grown) {
      rc = -1;
      goto out;
    }
    m->entries = grown;
    m->cap = cap;
  }
  if (!(m->entries[m->count].key = strdup(key))) {
    rc = -1;
    goto out;
  }
  m->entries[m->count++].plan = *plan;
out:
  pthread_mutex_unlock(&m->lock);
  return rc;
}

/* ---- disk ---------------------------------------------------------------------------- */

/* cache_disk_get for a tuned entry: the disk counts every lookup in the kernel counters of
 * tcj_stats (kernels loaded, kernel misses); a tuned choice is not a kernel, so the count is
 * taken back. A damaged entry stays counted in bad_entries. */
static int disk_get_choice(tcj_engine *e, const char *key, void **payload, size_t *size) {
  if (!e->disk) return 0;
  int hit = cache_disk_get(e->disk, key, payload, size);
  atomic_fetch_sub_explicit(hit ? &e->stats.disk_hits : &e->stats.disk_misses, 1, memory_order_relaxed);
  return hit;
}

/* The candidate a disk payload names, or -1 (the payload is freed). */
static int pick_payload(const eng_plan *cands, int n, void *payload, size_t size) {
  int i = eng_autotune_pick(cands, n, payload, size);
  free(payload);
  return i;
}

static tcj_status key_of(tcj_engine *e, const eng_problem *p, char *key, size_t size) {
  if (eng_autotune_key(p, &e->caps, e->arch, e->device_name, key, size) < 0)
    return eng_set_error(TCJ_ERROR_INTERNAL, "autotune key exceeds %zu bytes", size);
  return TCJ_SUCCESS;
}

int eng_autotune_known(tcj_engine *e, const eng_problem *p, eng_plan *plan) {
  char key[ENG_AUTOTUNE_KEY_MAX];
  if (key_of(e, p, key, sizeof key) != TCJ_SUCCESS) return 0;
  if (eng_tuned_memo_find(&e->tuned, key, plan)) return 1;
  eng_plan cands[ENG_AUTOTUNE_MAX];
  int n = eng_autotune_candidates(p, &e->caps, e->allow_packing, plan, cands, ENG_AUTOTUNE_MAX);
  void *payload = NULL;
  size_t size = 0;
  int i = n > 1 && disk_get_choice(e, key, &payload, &size) ? pick_payload(cands, n, payload, size) : -1;
  if (i < 0) return 0;
  *plan = cands[i];
  eng_tuned_memo_put(&e->tuned, key, plan);
  return 1;
}

/* ---- timing ---------------------------------------------------------------------------- */

int eng_autotune_driver_ok(const eng_cuda_api *cu) {
  return cu->cuEventCreate && cu->cuEventRecord && cu->cuEventSynchronize && cu->cuEventElapsedTime &&
         cu->cuEventDestroy;
}

const char *eng_autotune_cannot_time(tcj_engine *e, CUstream stream) {
  CUstreamCaptureStatus cap = CU_STREAM_CAPTURE_STATUS_NONE;
  if (e->cu->cuStreamIsCapturing(stream, &cap) != CUDA_SUCCESS || cap != CU_STREAM_CAPTURE_STATUS_NONE)
    return "the stream is being captured";
  return NULL;
}

/* Loads every candidate's kernel (compiling what the caches lack), then times them together.
 * Returns the index of the plan to keep: the fastest, unless it beats the selected plan (0) by
 * less than ENG_AUTOTUNE_MARGIN; -1 when the selected plan failed (*st: why). Candidates that
 * fail to build or launch drop out with a warning. */
static int time_candidates(tcj_engine *e, const eng_plan *cands, int n, const char *user_source, eng_tune_timer *t,
                           eng_tune_run_fn run, void *ctx, double *us, tcj_status *st) {
  eng_plan live[ENG_AUTOTUNE_MAX];
  int index[ENG_AUTOTUNE_MAX], m = 0;
  char text[PLAN_TEXT_MAX];
  for (int i = 0; i < n; i++) {
    cache_kernel k;
    us[i] = -1;
    tcj_status s = eng_kernel_get_user(e, &cands[i].cfg, user_source, &k, NULL);
    if (s == TCJ_SUCCESS) {
      live[m] = cands[i];
      index[m++] = i;
    } else if (i == 0) {
      *st = s;
      return -1;
    } else {
      eng_autotune_plan_text(&cands[i], text, sizeof text);
      eng_log(e->log, ENG_LOG_WARN, "autotune: candidate %s failed to build (%s); not considered", text,
              tcj_last_error(e));
    }
  }
  double got[ENG_AUTOTUNE_MAX];
  tcj_status failed[ENG_AUTOTUNE_MAX];
  if ((*st = eng_tune_timer_run(t, live, m, run, ctx, got, failed)) != TCJ_SUCCESS) return -1;
  int best = 0;
  for (int j = 0; j < m; j++) {
    int i = index[j];
    us[i] = got[j];
    eng_autotune_plan_text(&cands[i], text, sizeof text);
    if (got[j] < 0) {
      eng_log(e->log, ENG_LOG_WARN, "autotune: candidate %s failed (%s); not considered", text,
              tcj_status_string(failed[j]));
      continue;
    }
    eng_log(e->log, ENG_LOG_DEBUG, "autotune: %8.2f us  %s", got[j], text);
    if (us[i] < us[best]) best = i;
  }
  return us[best] < ENG_AUTOTUNE_MARGIN * us[0] ? best : 0;
}

/* The L2 flush kernel of e, built at the first tuning (NULL, with a warning, where it cannot
 * be: the tuner then times without flushing). */
static CUfunction flush_function(tcj_engine *e) {
  pthread_mutex_lock(&e->flush_lock);
  if (!e->flush_fn && !e->flush_failed) {
    char *ptx = NULL, err[ENG_ERROR_MAX];
    size_t len = 0;
    CUmodule mod = NULL;
    tcj_status st = ptx_gen_l2_flush(e->caps.sm, e->caps.arch_suffix, &ptx, &len, err, sizeof err) == 0
                    ? eng_module_from_ptx(e, ptx, len, &mod) : TCJ_ERROR_INTERNAL;
    free(ptx);
    CUfunction fn = NULL;
    if (st == TCJ_SUCCESS && e->cu->cuModuleGetFunction(&fn, mod, PTX_L2_FLUSH_ENTRY) == CUDA_SUCCESS) {
      e->flush_module = mod;
      e->flush_fn = fn;
    } else {
      if (mod) e->cu->cuModuleUnload(mod);
      e->flush_failed = 1;
      eng_log(e->log, ENG_LOG_WARN, "autotune: no L2 flush kernel (%s); timing with whatever L2 holds",
              st == TCJ_SUCCESS ? "no entry" : tcj_last_error(e));
    }
  }
  CUfunction fn = e->flush_fn;
  pthread_mutex_unlock(&e->flush_lock);
  return fn;
}

tcj_status eng_autotune(tcj_engine *e, const eng_problem *p, const char *user_source, CUstream stream,
                        eng_tune_run_fn run, void *ctx, CUdeviceptr flush, size_t flush_bytes, eng_plan *plan) {
  char key[ENG_AUTOTUNE_KEY_MAX];
  tcj_status st = key_of(e, p, key, sizeof key);
  if (st != TCJ_SUCCESS) return st;
  eng_plan cands[ENG_AUTOTUNE_MAX];
  int n = eng_autotune_candidates(p, &e->caps, e->allow_packing, plan, cands, ENG_AUTOTUNE_MAX);
  if (n < 2) return eng_tuned_memo_put(&e->tuned, key, plan) == 0 ? TCJ_SUCCESS
         : eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "out of host memory");
  void *payload = NULL;
  size_t size = 0;
  int chosen = -1;
  /* One tuner per problem class across processes sharing the cache: two timing at once on one
   * GPU would measure each other. The others wait and take its entry. */
  cache_lock *lock = NULL;
  if (e->disk && cache_disk_lock_or_get(e->disk, key, &payload, &size, &lock)) {
    if ((chosen = pick_payload(cands, n, payload, size)) >= 0) {
      *plan = cands[chosen];
      eng_tuned_memo_put(&e->tuned, key, plan);
      return TCJ_SUCCESS;
    }
  }
  eng_tune_timer t;
  double us[ENG_AUTOTUNE_MAX];
  st = eng_tune_timer_open(&t, e->cu, stream, flush_function(e), flush, flush_bytes, flush + flush_bytes,
                           e->caps.sm_count);
  if (st != TCJ_SUCCESS) { /* not the call's fault: it runs untuned */
    eng_log(e->log, ENG_LOG_WARN, "autotune: %s; the model's choice runs", tcj_last_error(e));
    st = TCJ_SUCCESS;
  } else {
    chosen = time_candidates(e, cands, n, user_source, &t, run, ctx, us, &st);
    eng_tune_timer_close(&t);
  }
  if (chosen >= 0) {
    char text[PLAN_TEXT_MAX], summary[128];
    int len = eng_autotune_plan_text(&cands[chosen], text, sizeof text);
    snprintf(summary, sizeof summary, "autotune: %.2f us of %d timed (selected %.2f us)", us[chosen], n, us[0]);
    if (e->disk && len > 0) cache_disk_put_by(e->disk, key, summary, text, (size_t)len, NULL, 0);
    eng_log(e->log, ENG_LOG_INFO, "autotune: %s: %s", text, summary + 10);
    *plan = cands[chosen];
    if (eng_tuned_memo_put(&e->tuned, key, plan) != 0) st = eng_set_error(TCJ_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  cache_disk_unlock(lock);
  return st;
}
