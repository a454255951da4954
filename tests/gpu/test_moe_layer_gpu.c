/* SPDX-License-Identifier: Apache-2.0 */
/* A whole Mixture-of-Experts FFN layer (Qwen3-MoE, Mixtral) end to end through the public API:
 * host routing (seeded router logits -> top-k experts per token, softmax weights, tokens sorted
 * by expert), then moe_layer_forward (below, the README's example): one grouped call for the
 * up-projection with fused SwiGLU, one for the down-projection scaled by the router weights;
 * then the combine (each token's top-k rows of y summed, on the host). Every element of the
 * layer's output is judged against a float64 reference of the whole layer with a bound carried
 * through both GEMMs (layer_bound_note below), and again against a reference of the
 * down-projection and combine from the h the GPU computed (a sharp check of the second call);
 * every element of h against its own bound.
 *
 * Shapes: a small layer (T 300, H 256, I 128, E 16, top-2), a Qwen3-30B-A3B slice (T 512,
 * H 2048, I 768, E 128, top-8) and decode (T 4, E 128, top-8: most experts empty), each under
 * the default selection, TCJ_RECIPE=sm80 and, on compute capability 9.0, TCJ_RECIPE=sm90 (which
 * refuses no group size: select_recipe.c steers by group_rows only when no recipe is forced, so
 * no case is left out there; elsewhere the sm90 pass is counted as not run), and there again with
 * ping-pong consumers forced (TCJ_TILE: two 64-row tiles in turn). Each pass runs the
 * layer eagerly, captures it in a CUDA graph, and replays the graph with a new routing (new
 * tokens, offsets and row weights written into the same buffers) and then the first routing
 * again, checking every replay.
 *
 * Every buffer ends where its mapping ends with poison before it (guard_buf.h); h and y are
 * poisoned before every run. Without a GPU: SKIP, exit 77. TCJ_TEST_SEED changes the data,
 * TCJ_TEST_FILTER / TCJ_TEST_SKIP select tests (cmocka patterns). */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda_runtime.h>

#include "gpu_test.h"
#include "guard_buf.h"
#include "oracle.h"
#include "tcj.h"

/* ---- the layer (README: "An MoE layer end to end") ------------------------------------------- */

/* One MoE FFN layer after routing: two grouped GEMMs, all experts in each.
   x_sorted [rows, H] bf16: the tokens' rows sorted by expert (rows = tokens * top-k)
   offs     [E] int32:      offs[e] = the row where expert e's rows end (torch._grouped_mm's offs)
   route_w  [rows] f32:     the router weight of each sorted row
   w13 [E, 2I, H] bf16 (gate rows, then up rows) and w2 [E, H, I] bf16: nn.Linear weights.
   h [rows, I] bf16 is the intermediate; y [rows, H] f32 gets route_w[r] * expert(x_sorted[r]),
   and out[t] is the sum of token t's top-k rows of y (the combine). The group sizes stay on the
   device: no host sync, and a captured graph replays whatever routing the buffers hold. */
static tcj_status moe_layer_forward(tcj_engine *e, int64_t rows, int64_t H, int64_t I, int64_t E,
                                    const void *x_sorted, const int32_t *offs, const float *route_w,
                                    const void *w13, const void *w2, void *h, float *y, CUstream stream) {
  /* Up-projection with fused SwiGLU: h = silu(x W_gate^T) * (x W_up^T), expert e's rows
     against w13[e]. n counts h's columns; op(B) has 2I, gate then up. */
  tcj_gemm_desc up = TCJ_GEMM_DESC_INIT;
  up.op_a = TCJ_OP_N;  up.op_b = TCJ_OP_T;
  up.m = rows;  up.n = I;  up.k = H;
  up.a = x_sorted;  up.a_type = TCJ_BF16;  up.lda = H;
  up.b = w13;  up.b_type = TCJ_BF16;  up.ldb = H;  up.stride_b = 2 * I * H;
  up.d = h;  up.c_type = up.d_type = TCJ_BF16;  up.ldc = up.ldd = I;
  up.activation = TCJ_ACT_SWIGLU;
  up.group_mode = TCJ_GROUP_M_CONTIGUOUS;  up.group_count = E;  up.group_ends32 = offs;
  tcj_status s = tcj_gemm_ex(e, &up, stream);
  if (s != TCJ_SUCCESS) return s;

  /* Down-projection, each row scaled by its router weight: y = route_w * (h W2^T). */
  tcj_gemm_desc down = TCJ_GEMM_DESC_INIT;
  down.op_a = TCJ_OP_N;  down.op_b = TCJ_OP_T;
  down.m = rows;  down.n = H;  down.k = I;
  down.a = h;  down.a_type = TCJ_BF16;  down.lda = I;
  down.b = w2;  down.b_type = TCJ_BF16;  down.ldb = I;  down.stride_b = H * I;
  down.d = y;  down.c_type = down.d_type = TCJ_F32;  down.ldc = down.ldd = H;
  down.row_scale = route_w;
  down.group_mode = TCJ_GROUP_M_CONTIGUOUS;  down.group_count = E;  down.group_ends32 = offs;
  return tcj_gemm_ex(e, &down, stream);
}

/* ---- state -------------------------------------------------------------------------------- */

static tcj_engine *g_default, *g_sm80, *g_sm90, *g_sm90_pp; /* sm90: compute capability 9.0 only */
static uint64_t g_seed_base = 0x30e1a7e5ull;
static guard_ctx g_ctx; /* the buffers' vmm API, device, guard and stream */
static int g_cc, g_threads, g_not_run;

/* ---- routing (on the host, as a serving stack's router kernel would on the device) ------------ */

typedef struct layer_case {
  const char *name;
  int64_t T, H, I, E, topk;
} layer_case;

typedef struct routing {
  uint16_t *x;        /* [T, H] bf16 tokens */
  uint16_t *x_sorted; /* [rows, H] bf16: x's rows sorted by expert */
  int32_t *offs;      /* [E] end rows */
  float *weight;      /* [rows] the router weight of each sorted row */
  int64_t *expert;    /* [rows] */
  int64_t *row_of;    /* [T * topk]: the sorted row of token t's j-th choice */
  int64_t empty;      /* experts with no row */
} routing;

static void routing_free(routing *r) {
  free(r->x);
  free(r->x_sorted);
  free(r->offs);
  free(r->weight);
  free(r->expert);
  free(r->row_of);
  memset(r, 0, sizeof *r);
}

/* New tokens and router logits from seed; each token's top-k experts (ties to the lower index)
 * with softmax weights over the chosen logits (Qwen3's normalised top-k), sorted by expert and
 * by token within an expert. Expert bias skews the loads; experts 0 and E / 2 never win (two
 * empty groups, one of them the first). */
static void route(const layer_case *c, uint64_t seed, routing *r) {
  int64_t T = c->T, H = c->H, E = c->E, K = c->topk, rows = T * K;
  memset(r, 0, sizeof *r);
  r->x = malloc(sizeof *r->x * (size_t)(T * H));
  r->x_sorted = malloc(sizeof *r->x_sorted * (size_t)(rows * H));
  r->offs = calloc((size_t)E, sizeof *r->offs);
  r->weight = malloc(sizeof *r->weight * (size_t)rows);
  r->expert = malloc(sizeof *r->expert * (size_t)rows);
  r->row_of = malloc(sizeof *r->row_of * (size_t)rows);
  double *bias = malloc(sizeof *bias * (size_t)E), *logit = malloc(sizeof *logit * (size_t)E);
  int64_t *choice = malloc(sizeof *choice * (size_t)rows), *cursor = calloc((size_t)E, sizeof *cursor);
  float *w = malloc(sizeof *w * (size_t)rows);
  assert_true(r->x && r->x_sorted && r->offs && r->weight && r->expert && r->row_of && bias && logit && choice &&
              cursor && w);
  rng g = {seed};
  for (int64_t i = 0; i < T * H; i++) r->x[i] = f32_to_bf16((float)rng_sym(&g));
  for (int64_t e = 0; e < E; e++) bias[e] = e == 0 || e == E / 2 ? -50 : 1.5 * rng_sym(&g);
  int64_t *count = calloc((size_t)E, sizeof *count);
  assert_non_null(count);
  for (int64_t t = 0; t < T; t++) {
    for (int64_t e = 0; e < E; e++) logit[e] = 2 * rng_sym(&g) + bias[e];
    double top = 0, sum = 0;
    for (int64_t j = 0; j < K; j++) {
      int64_t best = -1;
      for (int64_t e = 0; e < E; e++)
        if (logit[e] > -INFINITY && (best < 0 || logit[e] > logit[best])) best = e;
      if (j == 0) top = logit[best];
      choice[t * K + j] = best;
      w[t * K + j] = (float)(logit[best] - top); /* the exponent, for now */
      logit[best] = -INFINITY;
      count[best]++;
    }
    for (int64_t j = 0; j < K; j++) sum += exp((double)w[t * K + j]);
    for (int64_t j = 0; j < K; j++) w[t * K + j] = (float)(exp((double)w[t * K + j]) / sum);
  }
  int64_t end = 0;
  for (int64_t e = 0; e < E; e++) {
    cursor[e] = end;
    end += count[e];
    r->offs[e] = (int32_t)end;
    r->empty += count[e] == 0;
  }
  for (int64_t t = 0; t < T; t++)
    for (int64_t j = 0; j < K; j++) {
      int64_t e = choice[t * K + j], row = cursor[e]++;
      r->row_of[t * K + j] = row;
      r->expert[row] = e;
      r->weight[row] = w[t * K + j];
      memcpy(r->x_sorted + row * H, r->x + t * H, sizeof *r->x * (size_t)H); /* the permute copy */
    }
  free(count);
  free(bias);
  free(logit);
  free(choice);
  free(cursor);
  free(w);
}

/* ---- the float64 reference ------------------------------------------------------------------- */

/* The bound of the whole layer (layer_bound_note). Notation: u32 = 2^-24, u_h = 2^-8 (bf16),
 * c_k = oracle_ck(k) = (k + 2) 2^-23 (fp32 accumulation over k products, tensor cores possibly
 * truncating, alpha's product included).
 * 1. h, row r, column j: g = x_r . w13_gate_j, u = x_r . w13_up_j in fp64 (the exact sums),
 *    t_g, t_u the sums of |x||w13|. As test_swiglu_gpu's swiglu_judge with alpha 1 and no bias:
 *      e_g = c_H t_g + 3 u32 |g|,  e_u likewise,  e_s = 1.1 e_g + 2^-20 (|g| + e_g + 1)
 *      (SiLU's Lipschitz constant and its exp and division),
 *      e = |silu g| e_u + (|u| + e_u) e_s + u32 |silu(g) u|
 *    and h is stored in bf16: eh = e (1 + u_h) + 2 u_h |h| + bf16's floor. The GPU's h~ is
 *    checked to be within eh of the exact h, element by element, so the next step may use it.
 * 2. y, row r, column c: the GPU sums h~_p w2_cp in fp32 and multiplies by w_r (row_scale):
 *      |sum h~ w2 - sum h w2| <= E1 = sum_p eh_p |w2_cp|                   (h's error, step 1)
 *      accumulation          <= E2 = c_I sum_p (|h_p| + eh_p) |w2_cp|     (|h~||w2|)
 *      bound_y = |w_r| ((E1 + E2)(1 + u32) + 2 u32 (|S| + E1 + E2)) + f32's floor,
 *    S = sum h w2 (fp64): the row scale's product and the f32 store.
 * 3. out[t, c] = the sum of token t's top-k rows of y, added on the host in fp64:
 *      bound = sum of their bound_y + topk 2^-53 sum |y~|.
 * The bound is worst-case (c_k's every-step rounding, E1's aligned signs), so it is loose where
 * h's rounding dominates; the stage check (the same steps 2-3 from the GPU's h~ itself, where
 * E1 = 0) is the sharp judge of the down-projection, the row scale and the combine. */
static const char layer_bound_note[] = "bound from |x||w13| and |h||w2|, h's bf16 rounding carried";

typedef struct layer_ref {
  double *h, *h_bound;     /* [rows, I] */
  double *out, *out_bound; /* [T, H] */
} layer_ref;

static void ref_free(layer_ref *r) {
  free(r->h);
  free(r->h_bound);
  free(r->out);
  free(r->out_bound);
  memset(r, 0, sizeof *r);
}

/* What the workers compute: the up-projection (h, h_bound from x_sorted) unless h_given, then
 * y and its bound (step 2) from h (and h_bound, or 0 for h_given, the GPU's h~ as stored). */
typedef struct ref_job {
  const layer_case *c;
  const routing *rt;
  const uint16_t *w13, *w2;
  const uint16_t *h_given; /* the GPU's h, or NULL */
  double *h, *h_bound;     /* [rows, I] */
  double *y, *y_bound;     /* [rows, H] */
  int64_t next;            /* the next expert to take (atomic) */
  int oom;
} ref_job;

static void bf16_row(const uint16_t *src, int64_t n, double *dst) {
  for (int64_t i = 0; i < n; i++) dst[i] = bf16_to_f32(src[i]);
}

/* s = sum a b, t = sum |a b|, four chains (the products are exact: bf16 x bf16 in fp64). */
static void dot2(const double *a, const double *b, int64_t k, double *s, double *t) {
  double s4[4] = {0, 0, 0, 0}, t4[4] = {0, 0, 0, 0};
  int64_t p = 0;
  for (; p + 4 <= k; p += 4)
    for (int q = 0; q < 4; q++) {
      double x = a[p + q] * b[p + q];
      s4[q] += x;
      t4[q] += fabs(x);
    }
  for (; p < k; p++) {
    double x = a[p] * b[p];
    s4[0] += x;
    t4[0] += fabs(x);
  }
  *s = (s4[0] + s4[1]) + (s4[2] + s4[3]);
  *t = (t4[0] + t4[1]) + (t4[2] + t4[3]);
}

static void ref_expert(ref_job *j, int64_t e, double *wa, double *wb, double *xs) {
  const layer_case *c = j->c;
  int64_t H = c->H, I = c->I, lo = e ? j->rt->offs[e - 1] : 0, hi = j->rt->offs[e], n = hi - lo;
  if (n <= 0) return;
  const double u32 = 0x1p-24, uh = oracle_unit_roundoff(TCJ_BF16);
  if (!j->h_given) {
    bf16_row(j->w13 + e * 2 * I * H, 2 * I * H, wa);
    bf16_row(j->rt->x_sorted + lo * H, n * H, xs);
    for (int64_t col = 0; col < I; col++)
      for (int64_t r = 0; r < n; r++) {
        double g, tg, u, tu;
        dot2(xs + r * H, wa + col * H, H, &g, &tg);
        dot2(xs + r * H, wa + (I + col) * H, H, &u, &tu);
        double sig = g / (1 + exp(-g)), h = sig * u;
        double eg = oracle_ck(H) * tg + 3 * u32 * fabs(g), eu = oracle_ck(H) * tu + 3 * u32 * fabs(u);
        double es = 1.1 * eg + 0x1p-20 * (fabs(g) + eg + 1);
        double err = fabs(sig) * eu + (fabs(u) + eu) * es + u32 * fabs(h);
        j->h[(lo + r) * I + col] = h;
        j->h_bound[(lo + r) * I + col] = err * (1 + uh) + 2 * uh * fabs(h) + oracle_abs_floor(TCJ_BF16);
      }
  }
  bf16_row(j->w2 + e * H * I, H * I, wb);
  double *hrow = xs; /* this expert's rows of h, in the scratch x's rows were in */
  if (j->h_given) bf16_row(j->h_given + lo * I, n * I, hrow);
  else memcpy(hrow, j->h + lo * I, sizeof *hrow * (size_t)(n * I));
  const double *hb = j->h_given ? NULL : j->h_bound + lo * I;
  for (int64_t col = 0; col < H; col++) {
    const double *w = wb + col * I;
    for (int64_t r = 0; r < n; r++) {
      const double *hr = hrow + r * I;
      double s = 0, ah = 0, e1 = 0;
      for (int64_t p = 0; p < I; p++) {
        s += hr[p] * w[p];
        ah += fabs(hr[p] * w[p]);
        if (hb) e1 += hb[r * I + p] * fabs(w[p]);
      }
      double wr = j->rt->weight[lo + r], e2 = oracle_ck(I) * (ah + e1);
      j->y[(lo + r) * H + col] = wr * s;
      j->y_bound[(lo + r) * H + col] =
          fabs(wr) * ((e1 + e2) * (1 + u32) + 2 * u32 * (fabs(s) + e1 + e2)) + oracle_abs_floor(TCJ_F32);
    }
  }
}

static void *ref_worker(void *arg) {
  ref_job *j = arg;
  const layer_case *c = j->c;
  int64_t most = 0;
  for (int64_t e = 0; e < c->E; e++) {
    int64_t n = j->rt->offs[e] - (e ? j->rt->offs[e - 1] : 0);
    if (n > most) most = n;
  }
  /* xs holds an expert's x rows (n * H) or its h rows (n * I) */
  int64_t xs_len = most * (c->H > c->I ? c->H : c->I) + 1;
  double *wa = j->h_given ? NULL : malloc(sizeof *wa * (size_t)(2 * c->I * c->H)), *wb = malloc(sizeof *wb * (size_t)(c->H * c->I));
  double *xs = malloc(sizeof *xs * (size_t)xs_len);
  if ((!wa && !j->h_given) || !wb || !xs) {
    __atomic_store_n(&j->oom, 1, __ATOMIC_RELAXED);
  } else {
    for (;;) {
      int64_t e = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
      if (e >= c->E) break;
      ref_expert(j, e, wa, wb, xs);
    }
  }
  free(wa);
  free(wb);
  free(xs);
  return NULL;
}

/* Runs the job on g_threads threads; then sums y into out (step 3's reference part). */
static void ref_run(ref_job *j, double *out, double *out_bound) {
  const layer_case *c = j->c;
  int64_t rows = c->T * c->topk;
  j->y = malloc(sizeof *j->y * (size_t)(rows * c->H));
  j->y_bound = malloc(sizeof *j->y_bound * (size_t)(rows * c->H));
  assert_true(j->y && j->y_bound);
  pthread_t *tid = calloc((size_t)g_threads, sizeof *tid);
  assert_non_null(tid);
  int started = 0;
  for (; started < g_threads; started++)
    if (pthread_create(&tid[started], NULL, ref_worker, j) != 0) break;
  if (started == 0) ref_worker(j);
  for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
  free(tid);
  assert_false(j->oom);
  for (int64_t t = 0; t < c->T; t++)
    for (int64_t col = 0; col < c->H; col++) {
      double s = 0, b = 0;
      for (int64_t k = 0; k < c->topk; k++) {
        int64_t row = j->rt->row_of[t * c->topk + k];
        s += j->y[row * c->H + col];
        b += j->y_bound[row * c->H + col];
      }
      out[t * c->H + col] = s;
      out_bound[t * c->H + col] = b;
    }
  free(j->y);
  free(j->y_bound);
  j->y = j->y_bound = NULL;
}

/* The whole layer's reference of routing rt. */
static void ref_layer(const layer_case *c, const routing *rt, const uint16_t *w13, const uint16_t *w2, layer_ref *ref) {
  int64_t rows = c->T * c->topk;
  memset(ref, 0, sizeof *ref);
  ref->h = malloc(sizeof *ref->h * (size_t)(rows * c->I));
  ref->h_bound = malloc(sizeof *ref->h_bound * (size_t)(rows * c->I));
  ref->out = malloc(sizeof *ref->out * (size_t)(c->T * c->H));
  ref->out_bound = malloc(sizeof *ref->out_bound * (size_t)(c->T * c->H));
  assert_true(ref->h && ref->h_bound && ref->out && ref->out_bound);
  ref_job j = {.c = c, .rt = rt, .w13 = w13, .w2 = w2, .h = ref->h, .h_bound = ref->h_bound};
  ref_run(&j, ref->out, ref->out_bound);
}

/* ---- one layer on the GPU ---------------------------------------------------------------------- */

typedef struct layer_dev {
  const layer_case *c;
  int64_t rows;
  guard_buf w13, w2, xs, offs, rw, h, y;
} layer_dev;

static void layer_dev_free(layer_dev *d) {
  guard_buf *all[] = {&d->w13, &d->w2, &d->xs, &d->offs, &d->rw, &d->h, &d->y};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) guard_buf_free(&g_ctx, all[i]);
}

static tcj_status layer_run(tcj_engine *e, const layer_dev *d) {
  const layer_case *c = d->c;
  return moe_layer_forward(e, d->rows, c->H, c->I, c->E, guard_buf_dev(&d->xs),
                           (const int32_t *)guard_buf_dev(&d->offs), (const float *)guard_buf_dev(&d->rw),
                           guard_buf_dev(&d->w13), guard_buf_dev(&d->w2), guard_buf_dev(&d->h),
                           (float *)guard_buf_dev(&d->y), (CUstream)g_ctx.stream);
}

/* Writes routing rt into the layer's input buffers and poisons h and y (host images, uploaded on
 * g_ctx.stream before whatever runs next there). */
static cudaError_t layer_load(layer_dev *d, const routing *rt) {
  memcpy(guard_buf_data(&d->xs), rt->x_sorted, d->xs.bytes);
  memcpy(guard_buf_data(&d->offs), rt->offs, d->offs.bytes);
  memcpy(guard_buf_data(&d->rw), rt->weight, d->rw.bytes);
  memset(guard_buf_data(&d->h), 0xFF, d->h.bytes);
  memset(guard_buf_data(&d->y), 0xFF, d->y.bytes);
  guard_buf *in[] = {&d->xs, &d->offs, &d->rw, &d->h, &d->y};
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; i < sizeof in / sizeof *in && !e; i++) e = guard_buf_upload(&g_ctx, in[i]);
  return e;
}

typedef struct judge {
  int64_t bad, checked;
  double worst, got, want, bound;
  int64_t at_row, at_col;
} judge;

static void judge_one(judge *j, int64_t row, int64_t col, double got, double want, double bound) {
  double diff = fabs(got - want), ratio = diff != diff ? INFINITY : diff == 0 ? 0 : diff / bound;
  j->checked++;
  if (!(ratio <= 1)) j->bad++;
  if (j->checked == 1 || !(ratio <= j->worst)) {
    j->worst = ratio != ratio ? INFINITY : ratio;
    j->got = got, j->want = want, j->bound = bound, j->at_row = row, j->at_col = col;
  }
}

static int judge_report(const judge *j, const char *pass, const char *what, const char *row_name) {
  if (!j->bad) return 1;
  printf("  FAIL %s: %s: %lld of %lld elements outside their bound; worst %s %lld col %lld: got %.9g, want %.9g, "
         "|error| / bound %.3g (bound %.3g)\n",
         pass, what, (long long)j->bad, (long long)j->checked, row_name, (long long)j->at_row, (long long)j->at_col,
         j->got, j->want, j->worst, j->bound);
  return 0;
}

/* Reads h and y back after a run of routing rt and judges: h against the exact h (its bound:
 * step 1), out against the whole layer's reference (steps 1-3), and out against steps 2-3
 * recomputed from the GPU's own h (the stage check). Returns 1, or 0 having printed why. */
static int layer_check(layer_dev *d, const routing *rt, const layer_ref *ref, const char *pass, double worst[3]) {
  const layer_case *c = d->c;
  int64_t H = c->H, I = c->I, K = c->topk;
  cudaError_t e = guard_buf_download(&g_ctx, &d->h);
  if (!e) e = guard_buf_download(&g_ctx, &d->y);
  if (!e) e = cudaStreamSynchronize(g_ctx.stream);
  if (e) {
    printf("  FAIL %s: the run or the read-back failed: %s (%s)\n", pass, cudaGetErrorName(e), cudaGetErrorString(e));
    return 0;
  }
  if (!guard_buf_guard_intact(&d->h) || !guard_buf_guard_intact(&d->y)) {
    printf("  FAIL %s: a write before h or y (their guard bytes changed)\n", pass);
    return 0;
  }
  const uint16_t *hg = (const uint16_t *)guard_buf_back(&d->h);
  const float *yg = (const float *)guard_buf_back(&d->y);
  judge jh = {0}, jl = {0}, js = {0};
  for (int64_t r = 0; r < d->rows; r++)
    for (int64_t col = 0; col < I; col++)
      judge_one(&jh, r, col, bf16_to_f32(hg[r * I + col]), ref->h[r * I + col], ref->h_bound[r * I + col]);
  double *stage = malloc(sizeof *stage * (size_t)(c->T * H)), *stage_bound = malloc(sizeof *stage_bound * (size_t)(c->T * H));
  assert_true(stage && stage_bound);
  ref_job sj = {.c = c, .rt = rt, .w2 = (const uint16_t *)guard_buf_data(&d->w2), .h_given = hg};
  ref_run(&sj, stage, stage_bound);
  for (int64_t t = 0; t < c->T; t++)
    for (int64_t col = 0; col < H; col++) {
      double got = 0, mag = 0;
      for (int64_t k = 0; k < K; k++) {
        double v = yg[rt->row_of[t * K + k] * H + col];
        got += v;
        mag += fabs(v);
      }
      double sum_err = (double)K * 0x1p-53 * mag; /* the host's fp64 combine */
      judge_one(&jl, t, col, got, ref->out[t * H + col], ref->out_bound[t * H + col] + sum_err);
      judge_one(&js, t, col, got, stage[t * H + col], stage_bound[t * H + col] + sum_err);
    }
  free(stage);
  free(stage_bound);
  int ok = judge_report(&jh, pass, "h against the exact h", "row");
  ok &= judge_report(&jl, pass, "out against the whole layer's reference", "token");
  ok &= judge_report(&js, pass, "out against the down-projection of the GPU's h", "token");
  if (jh.worst > worst[0]) worst[0] = jh.worst;
  if (jl.worst > worst[1]) worst[1] = jl.worst;
  if (js.worst > worst[2]) worst[2] = js.worst;
  return ok;
}

/* One engine's pass: eager run of routing a, a graph captured of the forward, replays of routing
 * b and of a again. Returns the failures. */
static int layer_pass(tcj_engine *eng, const char *name, layer_dev *d, const routing *rt[2], const layer_ref *ref[2]) {
  const layer_case *c = d->c;
  char pass[160];
  double worst[3] = {0, 0, 0};
  int failed = 0;
  snprintf(pass, sizeof pass, "%s, %s, eager", c->name, name);
  cudaError_t ce = layer_load(d, rt[0]);
  tcj_status st = ce ? TCJ_SUCCESS : layer_run(eng, d);
  if (ce || st != TCJ_SUCCESS) {
    printf("  FAIL %s: %s %s\n", pass, ce ? cudaGetErrorName(ce) : tcj_status_string(st), ce ? "" : tcj_last_error(eng));
    return 1;
  }
  failed += !layer_check(d, rt[0], ref[0], pass, worst);
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  ce = cudaStreamBeginCapture(g_ctx.stream, cudaStreamCaptureModeGlobal);
  st = ce ? TCJ_SUCCESS : layer_run(eng, d);
  cudaError_t end = ce ? ce : cudaStreamEndCapture(g_ctx.stream, &graph);
  if (!ce && !end && st == TCJ_SUCCESS) ce = cudaGraphInstantiate(&exec, graph, 0);
  if (ce || end || st != TCJ_SUCCESS) {
    printf("  FAIL %s, %s: capture: %s, tcj %s %s, end capture %s\n", c->name, name, cudaGetErrorName(ce),
           tcj_status_string(st), st ? tcj_last_error(eng) : "", cudaGetErrorName(end));
    if (graph) cudaGraphDestroy(graph);
    return failed + 1;
  }
  static const char *const replay[2] = {"graph replay, the first routing again", "graph replay, a new routing"};
  for (int i = 1; i >= 0; i--) { /* the new routing, then the first one again */
    snprintf(pass, sizeof pass, "%s, %s, %s", c->name, name, replay[i]);
    ce = layer_load(d, rt[i]);
    if (!ce) ce = cudaGraphLaunch(exec, g_ctx.stream);
    if (ce) {
      printf("  FAIL %s: %s\n", pass, cudaGetErrorName(ce));
      failed++;
      continue;
    }
    failed += !layer_check(d, rt[i], ref[i], pass, worst);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  printf("  %s, %s: eager and 2 graph replays %s; worst |err|/bound: h %.3g, out (whole layer) %.3g, out (from the "
         "GPU's h) %.3g\n",
         c->name, name, failed ? "FAILED" : "pass", worst[0], worst[1], worst[2]);
  fflush(stdout);
  return failed;
}

/* The layer of case c: weights and two routings drawn, their references, then a pass under each
 * engine. */
static void run_layer(const layer_case *c, uint64_t salt) {
  int64_t T = c->T, H = c->H, I = c->I, E = c->E, rows = T * c->topk;
  uint64_t seed = g_seed_base + salt;
  layer_dev d;
  memset(&d, 0, sizeof d);
  d.c = c;
  d.rows = rows;
  int ok = guard_buf_alloc(&g_ctx, &d.w13, (size_t)(E * 2 * I * H) * 2, 0xFF) &&
           guard_buf_alloc(&g_ctx, &d.w2, (size_t)(E * H * I) * 2, 0xFF) &&
           guard_buf_alloc(&g_ctx, &d.xs, (size_t)(rows * H) * 2, 0xFF) &&
           guard_buf_alloc(&g_ctx, &d.offs, (size_t)E * 4, 0xA5) &&
           guard_buf_alloc(&g_ctx, &d.rw, (size_t)rows * 4, 0xFF) &&
           guard_buf_alloc(&g_ctx, &d.h, (size_t)(rows * I) * 2, 0xFF) &&
           guard_buf_alloc(&g_ctx, &d.y, (size_t)(rows * H) * 4, 0xFF);
  if (!ok) {
    layer_dev_free(&d);
    fail_msg("%s: cannot allocate (host or device)", c->name);
  }
  /* Weights of unit-variance products: x in [-1, 1), w in [-sqrt(3/k), sqrt(3/k)). */
  rng g = {seed};
  uint16_t *w13 = (uint16_t *)guard_buf_data(&d.w13), *w2 = (uint16_t *)guard_buf_data(&d.w2);
  double s13 = sqrt(3.0 / (double)H), s2 = sqrt(3.0 / (double)I);
  for (int64_t i = 0; i < E * 2 * I * H; i++) w13[i] = f32_to_bf16((float)(s13 * rng_sym(&g)));
  for (int64_t i = 0; i < E * H * I; i++) w2[i] = f32_to_bf16((float)(s2 * rng_sym(&g)));
  cudaError_t ce = guard_buf_upload(&g_ctx, &d.w13);
  if (!ce) ce = guard_buf_upload(&g_ctx, &d.w2);
  if (ce) {
    layer_dev_free(&d);
    fail_msg("%s: weight upload: %s", c->name, cudaGetErrorName(ce));
  }
  routing r0, r1;
  layer_ref f0, f1;
  route(c, seed + 1, &r0);
  route(c, seed + 2, &r1);
  ref_layer(c, &r0, w13, w2, &f0);
  ref_layer(c, &r1, w13, w2, &f1);
  printf("  %s: T %lld, H %lld, I %lld, E %lld, top-%lld: %lld sorted rows; empty experts %lld and %lld of the two "
         "routings; seed 0x%llx\n",
         c->name, (long long)T, (long long)H, (long long)I, (long long)E, (long long)c->topk, (long long)rows,
         (long long)r0.empty, (long long)r1.empty, (unsigned long long)seed);
  assert_true(r0.empty >= 2 && r1.empty >= 2); /* experts 0 and E / 2: empty groups, the first one too */
  const routing *rt[2] = {&r0, &r1};
  const layer_ref *ref[2] = {&f0, &f1};
  int failed = layer_pass(g_default, "default selection", &d, rt, ref);
  failed += layer_pass(g_sm80, "TCJ_RECIPE=sm80", &d, rt, ref);
  if (g_sm90) {
    failed += layer_pass(g_sm90, "TCJ_RECIPE=sm90", &d, rt, ref);
    failed += layer_pass(g_sm90_pp, "TCJ_RECIPE=sm90 TCJ_TILE=" GPU_SM90_PINGPONG_TILE, &d, rt, ref);
  } else {
    printf("  %s, TCJ_RECIPE=sm90: not run (the sm90 recipe needs compute capability 9.0; this GPU is %d.%d)\n",
           c->name, g_cc / 10, g_cc % 10);
    g_not_run++;
  }
  routing_free(&r0);
  routing_free(&r1);
  ref_free(&f0);
  ref_free(&f1);
  layer_dev_free(&d);
  if (failed) fail_msg("%s: %d runs failed (see FAIL lines above)", c->name, failed);
}

/* ---- the tests ---------------------------------------------------------------------------------- */

static void small_layer_matches_reference_eager_and_replayed(void **state) {
  (void)state;
  static const layer_case c = {"small layer", 300, 256, 128, 16, 2};
  run_layer(&c, 0x100);
}

static void qwen3_30b_a3b_slice_matches_reference_eager_and_replayed(void **state) {
  (void)state;
  static const layer_case c = {"Qwen3-30B-A3B slice", 512, 2048, 768, 128, 8};
  run_layer(&c, 0x200);
}

static void decode_with_most_experts_empty_matches_reference_eager_and_replayed(void **state) {
  (void)state;
  static const layer_case c = {"decode", 4, 2048, 768, 128, 8};
  run_layer(&c, 0x300);
}

int main(void) {
  struct cudaDeviceProp prop;
  int rc = gpu_test_start("MoE layer checks", &g_default, &g_seed_base, &prop);
  if (rc != GPU_START_GO_ON) return rc;
  if (!guard_ctx_init(&g_ctx, GUARD_BYTES)) return 1;
  g_cc = 10 * prop.major + prop.minor;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  g_threads = cores < 1 ? 1 : cores > 32 ? 32 : (int)cores;
  g_sm80 = gpu_engine_under("sm80");
  g_sm90 = g_cc == 90 ? gpu_engine_under("sm90") : NULL;
  g_sm90_pp = g_cc == 90 ? gpu_engine_with("sm90", GPU_SM90_PINGPONG_TILE) : NULL;
  if (!g_sm80 || (g_cc == 90 && (!g_sm90 || !g_sm90_pp))) return 1;
  printf("GPU: %s (sm_%d%d); seed base 0x%llx (TCJ_TEST_SEED); reference on %d threads; %s\n", prop.name, prop.major,
         prop.minor, (unsigned long long)g_seed_base, g_threads, layer_bound_note);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(small_layer_matches_reference_eager_and_replayed),
      cmocka_unit_test(qwen3_30b_a3b_slice_matches_reference_eager_and_replayed),
      cmocka_unit_test(decode_with_most_experts_empty_matches_reference_eager_and_replayed),
  };
  int failures = cmocka_run_group_tests_name("moe_layer_gpu", tests, guard_group_setup, guard_group_teardown);
  if (g_not_run) printf("TCJ_RECIPE=sm90: %d layer passes not run (not compute capability 9.0)\n", g_not_run);
  tcj_destroy(g_sm90_pp);
  tcj_destroy(g_sm90);
  tcj_destroy(g_sm80);
  tcj_destroy(g_default);
  return failures ? 1 : 0;
}
