/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-decode: the number an inference runtime sees for its decode step. The linear layers of a
 * Llama-3-8B-like layer stack (qkv, o, gate+up, down; nn.Linear's layout y = x W^T) at a few
 * small batch sizes, captured into one CUDA graph with tcj and into another with cuBLAS (as
 * PyTorch calls it: cublasGemmEx, compute 32F, on a stream with its own workspace), both
 * replayed and timed in alternation on one stream, and both results checked element by element.
 * Attention, norms and activations are left out: the graph holds the GEMMs only, so the ratio
 * is the GEMMs' alone. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/gemm_runner.h"
#include "tools/host_half.h"

static const char USAGE[] =
    "usage: tcj-decode [--m LIST] [--layers N] [--dtype bf16|f16] [--repeat N]\n"
    "                  [--bandwidth-gbs X] [--help]\n"
    "  Needs a GPU. The linear layers of a Llama-3-8B-like stack (per layer: qkv 6144x4096,\n"
    "  o 4096x4096, gate+up 28672x4096, down 4096x14336; weights n x k row-major as nn.Linear\n"
    "  keeps them, y = x W^T) at each batch size m, captured into one CUDA graph with tcj_gemm\n"
    "  and into another with cublasGemmEx (compute 32F, as PyTorch calls it), replayed in\n"
    "  alternation and timed with events (median). Every output is checked: all of it against\n"
    "  the other library's, and up to three rows against a float64 reference, element by\n"
    "  element, with a bound from the rows' norms (|x||w|) and the output's rounding.\n"
    "  Prints, per m, both replay times, the ratio (cuBLAS time / tcj time: >1 tcj faster), the\n"
    "  weight bandwidth each reaches and its share of the measured copy bandwidth, and the\n"
    "  largest error of each library as a fraction of its bound; then the geometric mean.\n"
    "  --m LIST          batch sizes, comma-separated, each 1..4096 (default 1,4,16,64)\n"
    "  --layers N        layers in the graph, 1..32 (default 4: 1.7 GiB of bf16 weights, far\n"
    "                    beyond L2, so each replay streams every weight from memory)\n"
    "  --dtype T         bf16 (default) or f16: weights, activations and outputs\n"
    "  --repeat N        timed replays of each graph (default 50)\n"
    "  --bandwidth-gbs X the memory bandwidth for the share column instead of measuring it\n"
    "  Exit status: 0 all checks passed; 1 a check failed or a CUDA, cuBLAS or tcj call did; 2\n"
    "  usage.\n";

enum { MAX_LAYERS = 32, MAX_M = 8, LINEARS = 4, MAX_CHECK_ROWS = 3, WARM_REPLAYS = 3 };

/* Llama-3-8B: hidden 4096, 32 query heads and 8 key/value heads of 128, FFN 14336. */
static const struct linear { const char *name; int64_t n, k; } LINEAR[LINEARS] = {
  {"qkv", 4096 + 2 * 1024, 4096}, {"o", 4096, 4096}, {"gate_up", 2 * 14336, 4096}, {"down", 4096, 14336},
};

typedef struct options {
  int ms[MAX_M], nm, layers, repeat;
  tcj_dtype dt;
  double bandwidth_gbs;
} options;

/* Weights on the device and their host copies (for the reference); x and y per batch size. */
typedef struct stack {
  void *w[MAX_LAYERS][LINEARS];
  uint16_t *host_w[MAX_LAYERS][LINEARS];
  double *w_norm[MAX_LAYERS][LINEARS]; /* 2-norm of each row of W (each output column) */
  void *x[LINEARS];                    /* m x k inputs, one per linear, shared by the layers */
  uint16_t *host_x[LINEARS];
  double *x_norm[LINEARS];
  void *y[2][MAX_LAYERS][LINEARS]; /* [tcj, cuBLAS] m x n outputs */
} stack;

#define FAIL(...) (fprintf(stderr, "tcj-decode: " __VA_ARGS__), fputc('\n', stderr), 1)
#define CUDA_OK(call) ((call) == cudaSuccess)

static double to_f(tcj_dtype t, uint16_t v) { return t == TCJ_BF16 ? bf16_to_f32(v) : f16_to_f32(v); }

static double *row_norms(tcj_dtype t, const uint16_t *m, int64_t rows, int64_t cols) {
  double *norm = malloc((size_t)rows * sizeof *norm);
  if (!norm) return NULL;
  for (int64_t r = 0; r < rows; r++) {
    double s = 0;
    for (int64_t c = 0; c < cols; c++) {
      double v = to_f(t, m[r * cols + c]);
      s += v * v;
    }
    norm[r] = sqrt(s);
  }
  return norm;
}

/* Random host data (uniform in [-1, 1], never all zeros), uploaded; the host copy is kept. */
static int upload_random(tcj_dtype t, size_t elems, uint64_t seed, void **dev, uint16_t **host) {
  *host = malloc(elems * 2);
  if (!*host) return FAIL("out of host memory (%zu MiB)", elems * 2 >> 20);
  gr_fill_host(t, *host, elems, seed);
  if (!CUDA_OK(cudaMalloc(dev, elems * 2)) || !CUDA_OK(cudaMemcpy(*dev, *host, elems * 2, cudaMemcpyHostToDevice)))
    return FAIL("cannot allocate or fill %zu MiB of device memory", elems * 2 >> 20);
  return 0;
}

static int make_weights(const options *o, stack *s) {
  for (int l = 0; l < o->layers; l++)
    for (int i = 0; i < LINEARS; i++) {
      const struct linear *li = &LINEAR[i];
      if (upload_random(o->dt, (size_t)(li->n * li->k), 1000 + 10 * l + i, &s->w[l][i], &s->host_w[l][i])) return 1;
      if (!(s->w_norm[l][i] = row_norms(o->dt, s->host_w[l][i], li->n, li->k))) return FAIL("out of host memory");
    }
  return 0;
}

static int make_activations(const options *o, int m, stack *s) {
  for (int i = 0; i < LINEARS; i++) {
    if (upload_random(o->dt, (size_t)(m * LINEAR[i].k), 7 + i, &s->x[i], &s->host_x[i])) return 1;
    if (!(s->x_norm[i] = row_norms(o->dt, s->host_x[i], m, LINEAR[i].k))) return FAIL("out of host memory");
    for (int lib = 0; lib < 2; lib++)
      for (int l = 0; l < o->layers; l++)
        if (!CUDA_OK(cudaMalloc(&s->y[lib][l][i], (size_t)(m * LINEAR[i].n) * 2)))
          return FAIL("cannot allocate the outputs");
  }
  return 0;
}

static void free_activations(const options *o, stack *s) {
  for (int i = 0; i < LINEARS; i++) {
    cudaFree(s->x[i]);
    free(s->host_x[i]);
    free(s->x_norm[i]);
    s->x[i] = NULL, s->host_x[i] = NULL, s->x_norm[i] = NULL;
    for (int lib = 0; lib < 2; lib++)
      for (int l = 0; l < o->layers; l++) cudaFree(s->y[lib][l][i]), s->y[lib][l][i] = NULL;
  }
}

/* One linear layer, y = x W^T, on g->stream: row-major for tcj (A = x, op N; B = W, op T), and
 * its column-major transpose for cuBLAS (y^T = W x^T: W op T, x^T op N), as PyTorch calls it. */
static int linear_call(const gr_gpu *g, int lib, tcj_dtype dt, int64_t m, const struct linear *li, const void *x,
                       const void *w, void *y) {
  if (lib == 0) {
    tcj_status st = tcj_gemm(g->eng, TCJ_OP_N, TCJ_OP_T, m, li->n, li->k, 1.f, x, dt, li->k, w, dt, li->k, 0.f,
                             y, dt, li->n, (CUstream)g->stream);
    return st == TCJ_SUCCESS ? 0 : FAIL("tcj_gemm (%s, m %lld): %s", li->name, (long long)m, tcj_last_error(g->eng));
  }
  const float one = 1.f, zero = 0.f;
  cudaDataType_t t = dt == TCJ_BF16 ? CUDA_R_16BF : CUDA_R_16F;
  cublasStatus_t st = cublasGemmEx(g->blas, CUBLAS_OP_T, CUBLAS_OP_N, (int)li->n, (int)m, (int)li->k, &one, w, t,
                                   (int)li->k, x, t, (int)li->k, &zero, y, t, (int)li->n, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : FAIL("cublasGemmEx (%s, m %lld): status %d", li->name, (long long)m, (int)st);
}

/* Every linear of every layer, in model order, captured into one graph. */
static int capture(const gr_gpu *g, int lib, const options *o, int m, const stack *s, cudaGraphExec_t *exec) {
  cudaGraph_t graph = NULL;
  if (!CUDA_OK(cudaStreamBeginCapture(g->stream, cudaStreamCaptureModeGlobal))) return FAIL("begin capture");
  int bad = 0;
  for (int l = 0; l < o->layers && !bad; l++)
    for (int i = 0; i < LINEARS && !bad; i++) bad = linear_call(g, lib, o->dt, m, &LINEAR[i], s->x[i], s->w[l][i], s->y[lib][l][i]);
  cudaError_t ce = cudaStreamEndCapture(g->stream, &graph);
  if (bad) {
    if (graph) cudaGraphDestroy(graph);
    return 1;
  }
  if (ce != cudaSuccess) return FAIL("end capture (%s): %s", lib ? "cuBLAS" : "tcj", cudaGetErrorString(ce));
  ce = cudaGraphInstantiate(exec, graph, 0);
  cudaGraphDestroy(graph);
  return ce == cudaSuccess ? 0 : FAIL("instantiate (%s): %s", lib ? "cuBLAS" : "tcj", cudaGetErrorString(ce));
}

/* The error allowed for an output of magnitude about |ref| whose row of x and column of W have
 * 2-norms xn and wn: twice the output type's largest rounding error (half an ulp: 2^-8 |v| in
 * bf16, 2^-11 |v| in f16) plus 2^-14 |x||w| for fp32 sums in any order. With operands uniform
 * in [-1, 1] an output is about |x||w| / sqrt(k): a wrong one, or one that lost a K slice,
 * misses the bound by a factor of about 2^14 / sqrt(k) (over 100 at k = 14336). */
static double bound(tcj_dtype dt, double ref, double xn, double wn) {
  return (dt == TCJ_BF16 ? 0x1p-7 : 0x1p-10) * fabs(ref) + 0x1p-14 * xn * wn;
}

typedef struct check { double worst[2]; char note[256]; } check; /* worst error / bound: tcj, cuBLAS */

/* Layer l's linear i: all of both outputs against each other, sampled rows against float64. */
static int check_linear(const options *o, int m, const stack *s, int l, int i, check *c) {
  const struct linear *li = &LINEAR[i];
  size_t elems = (size_t)(m * li->n);
  uint16_t *y[2] = {malloc(elems * 2), malloc(elems * 2)};
  int bad = !y[0] || !y[1];
  for (int lib = 0; lib < 2 && !bad; lib++)
    bad = !CUDA_OK(cudaMemcpy(y[lib], s->y[lib][l][i], elems * 2, cudaMemcpyDeviceToHost));
  if (bad) {
    free(y[0]), free(y[1]);
    return FAIL("cannot read the outputs back");
  }
  int rows[MAX_CHECK_ROWS] = {0, m / 2, m - 1}, failed = 0;
  for (int64_t r = 0; r < m && !failed; r++)
    for (int64_t j = 0; j < li->n && !failed; j++) {
      double a = to_f(o->dt, y[0][r * li->n + j]), b = to_f(o->dt, y[1][r * li->n + j]);
      double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
      if (!(fabs(a - b) <= 2 * bound(o->dt, big, s->x_norm[i][r], s->w_norm[l][i][j]))) {
        snprintf(c->note, sizeof c->note, "layer %d %s: y[%lld][%lld] tcj %g, cuBLAS %g", l, li->name, (long long)r,
                 (long long)j, a, b);
        failed = 1;
      }
    }
  for (int q = 0; q < MAX_CHECK_ROWS && !failed; q++) {
    int r = rows[q];
    if (q > 0 && r == rows[q - 1]) continue;
    const uint16_t *x = s->host_x[i] + (size_t)r * li->k;
    for (int64_t j = 0; j < li->n && !failed; j++) {
      const uint16_t *w = s->host_w[l][i] + (size_t)j * li->k;
      double ref = 0;
      for (int64_t k = 0; k < li->k; k++) ref += to_f(o->dt, x[k]) * to_f(o->dt, w[k]); /* exact products */
      double lim = bound(o->dt, ref, s->x_norm[i][r], s->w_norm[l][i][j]);
      for (int lib = 0; lib < 2; lib++) {
        double v = to_f(o->dt, y[lib][(size_t)r * li->n + j]), e = fabs(v - ref) / lim;
        if (!(e <= 1)) {
          snprintf(c->note, sizeof c->note, "layer %d %s: y[%d][%lld] %s %g, float64 %g (bound %.3g)", l, li->name, r,
                   (long long)j, lib ? "cuBLAS" : "tcj", v, ref, lim);
          failed = 1;
        } else if (e > c->worst[lib]) {
          c->worst[lib] = e;
        }
      }
    }
  }
  free(y[0]), free(y[1]);
  return failed;
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Median replay time of each graph in microseconds. The two alternate (clock and temperature
 * drift falls on both) and are all queued before the first is waited for, so the stream never
 * idles between them and no replay's time includes the host's launch of it; one event sits
 * between each pair of replays. */
static int time_graphs(const gr_gpu *g, cudaGraphExec_t exec[2], int repeat, double us[2]) {
  int runs = WARM_REPLAYS + repeat, nev = 2 * runs + 1, bad = 0;
  float *t[2] = {malloc(repeat * sizeof(float)), malloc(repeat * sizeof(float))};
  cudaEvent_t *ev = calloc(nev, sizeof *ev);
  if (!t[0] || !t[1] || !ev) bad = 1;
  for (int e = 0; e < nev && !bad; e++) bad = !CUDA_OK(cudaEventCreate(&ev[e]));
  if (!bad) bad = !CUDA_OK(cudaEventRecord(ev[0], g->stream));
  for (int r = 0; r < runs && !bad; r++)
    for (int lib = 0; lib < 2 && !bad; lib++)
      bad = !CUDA_OK(cudaGraphLaunch(exec[lib], g->stream)) || !CUDA_OK(cudaEventRecord(ev[2 * r + lib + 1], g->stream));
  if (!bad) bad = !CUDA_OK(cudaEventSynchronize(ev[nev - 1]));
  for (int r = 0; r < repeat && !bad; r++)
    for (int lib = 0; lib < 2 && !bad; lib++) {
      int e = 2 * (WARM_REPLAYS + r) + lib;
      bad = !CUDA_OK(cudaEventElapsedTime(&t[lib][r], ev[e], ev[e + 1]));
    }
  for (int lib = 0; lib < 2 && !bad; lib++) {
    qsort(t[lib], repeat, sizeof(float), cmp_float);
    us[lib] = 1e3 * (repeat % 2 ? t[lib][repeat / 2] : 0.5 * (t[lib][repeat / 2 - 1] + t[lib][repeat / 2]));
  }
  for (int e = 0; ev && e < nev; e++)
    if (ev[e]) cudaEventDestroy(ev[e]);
  free(ev), free(t[0]), free(t[1]);
  return bad ? FAIL("replay or timing failed: %s", cudaGetErrorString(cudaGetLastError())) : 0;
}

/* One batch size: warm both libraries eagerly (tcj compiles or loads its kernels, cuBLAS picks
 * its algorithms), capture, poison the outputs, replay once and check, then time. */
static int run_m(const gr_gpu *g, const options *o, int m, stack *s, double us[2], check *c) {
  cudaGraphExec_t exec[2] = {0};
  int bad = make_activations(o, m, s);
  for (int lib = 0; lib < 2 && !bad; lib++)
    for (int i = 0; i < LINEARS && !bad; i++) bad = linear_call(g, lib, o->dt, m, &LINEAR[i], s->x[i], s->w[0][i], s->y[lib][0][i]);
  if (!bad) bad = !CUDA_OK(cudaStreamSynchronize(g->stream)) && FAIL("eager calls failed");
  for (int lib = 0; lib < 2 && !bad; lib++) bad = capture(g, lib, o, m, s, &exec[lib]);
  for (int lib = 0; lib < 2 && !bad; lib++)
    for (int l = 0; l < o->layers && !bad; l++)
      for (int i = 0; i < LINEARS && !bad; i++) /* all ones bits: NaN in bf16 and f16 */
        bad = !CUDA_OK(cudaMemset(s->y[lib][l][i], 0xff, (size_t)(m * LINEAR[i].n) * 2));
  for (int lib = 0; lib < 2 && !bad; lib++) bad = !CUDA_OK(cudaGraphLaunch(exec[lib], g->stream));
  if (!bad) bad = !CUDA_OK(cudaStreamSynchronize(g->stream)) && FAIL("replay failed");
  for (int l = 0; l < o->layers && !bad; l++)
    for (int i = 0; i < LINEARS && !bad; i++) bad = check_linear(o, m, s, l, i, c);
  if (!bad) bad = time_graphs(g, exec, o->repeat, us);
  for (int lib = 0; lib < 2; lib++)
    if (exec[lib]) cudaGraphExecDestroy(exec[lib]);
  free_activations(o, s);
  return bad;
}

static int parse_int(const char *s, int lo, int hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

/* "1,4,16": every item a size (an empty one, as in "1,,4", is an error). */
static int parse_ms(char *list, options *o) {
  o->nm = 0;
  for (char *tok = list;; tok++) {
    char *comma = strchr(tok, ',');
    if (comma) *comma = '\0';
    if (o->nm == MAX_M || parse_int(tok, 1, 4096, &o->ms[o->nm++])) return -1;
    if (!comma) return 0;
    tok = comma;
  }
}

static int usage_error(const char *what, const char *arg) {
  fprintf(stderr, "tcj-decode: %s%s%s\n%s", what, arg ? ": " : "", arg ? arg : "", USAGE);
  return 2;
}

int main(int argc, char **argv) {
  options o = {{1, 4, 16, 64}, 4, 4, 50, TCJ_BF16, 0};
  static const struct option longs[] = {{"m", required_argument, 0, 'm'},          {"layers", required_argument, 0, 'l'},
                                        {"dtype", required_argument, 0, 'd'},      {"repeat", required_argument, 0, 'r'},
                                        {"bandwidth-gbs", required_argument, 0, 'b'}, {"help", no_argument, 0, 'h'},
                                        {0, 0, 0, 0}};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
    char *end;
    switch (opt) {
    case 'm': {
      char list[256]; /* parse_ms cuts its text at the commas; the message quotes all of it */
      snprintf(list, sizeof list, "%s", optarg);
      if (strlen(optarg) >= sizeof list || parse_ms(list, &o)) return usage_error("--m wants up to 8 sizes in 1..4096", optarg);
      break;
    }
    case 'l': if (parse_int(optarg, 1, MAX_LAYERS, &o.layers)) return usage_error("--layers wants 1..32", optarg); break;
    case 'r': if (parse_int(optarg, 1, 100000, &o.repeat)) return usage_error("--repeat wants 1..100000", optarg); break;
    case 'd':
      if (!strcmp(optarg, tcj_dtype_name(TCJ_BF16))) o.dt = TCJ_BF16;
      else if (!strcmp(optarg, tcj_dtype_name(TCJ_F16))) o.dt = TCJ_F16;
      else return usage_error("--dtype wants bf16 or f16", optarg);
      break;
    case 'b':
      o.bandwidth_gbs = strtod(optarg, &end);
      if (end == optarg || *end || !(o.bandwidth_gbs > 0)) return usage_error("--bandwidth-gbs wants a positive number", optarg);
      break;
    case 'h': fputs(USAGE, stdout); return 0;
    default: return usage_error("unknown option", NULL);
    }
  }
  if (optind < argc) return usage_error("unexpected argument", argv[optind]);

  int ndev = 0;
  if (!CUDA_OK(cudaGetDeviceCount(&ndev)) || ndev == 0) return FAIL("no GPU: these are device measurements");
  gr_gpu g = {0};
  char err[256];
  if (!CUDA_OK(cudaFree(0)) || gr_open(&g, err, sizeof err)) return FAIL("%s", err);
  /* cuBLAS with a workspace of its own, as PyTorch gives every handle and stream. */
  void *blas_ws = NULL;
  if (!CUDA_OK(cudaMalloc(&blas_ws, GR_LT_WORKSPACE)) || cublasSetWorkspace(g.blas, blas_ws, GR_LT_WORKSPACE))
    return FAIL("cannot give cuBLAS its workspace");
  tcj_options opts = TCJ_OPTIONS_INIT;
  opts.jit_mode = gr_jit_mode_for_timing();
  if (tcj_create(&g.eng, &opts) != TCJ_SUCCESS) return FAIL("tcj_create: %s", tcj_last_error(NULL));
  if (o.bandwidth_gbs <= 0) {
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    size_t bytes = free_b / 8 > ((size_t)1 << 30) ? (size_t)1 << 30 : free_b / 8;
    o.bandwidth_gbs = gr_copy_gbs(&g, bytes, 20, err, sizeof err);
    if (o.bandwidth_gbs <= 0) return FAIL("bandwidth: %s", err);
  }

  struct cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  time_t now = time(NULL);
  struct tm tm;
  char date[32];
  strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime_r(&now, &tm));
  double weight_bytes = 0;
  for (int i = 0; i < LINEARS; i++) weight_bytes += 2.0 * (double)(LINEAR[i].n * LINEAR[i].k) * o.layers;
  printf("tcj-decode: %s, %s; %s; %d layers x (qkv 6144x4096, o 4096x4096, gate_up 28672x4096, down 4096x14336), "
         "%.2f GiB of weights; copy bandwidth %.0f GB/s; median of %d replays\n",
         prop.name, date, tcj_dtype_name(o.dt), o.layers, weight_bytes / (1 << 30), o.bandwidth_gbs,
         o.repeat);
  fprintf(stderr, "tcj-decode: making %.2f GiB of weights\n", weight_bytes / (1 << 30));

  static stack s;
  if (make_weights(&o, &s)) return 1;
  printf("%5s %6s %10s %10s %7s %9s %6s %8s %10s %10s  %s\n", "m", "gemms", "tcj us", "cuBLAS us", "ratio", "tcj GB/s",
         "%bw", "cub %bw", "tcj err", "cub err", "check");
  int failed = 0, timed = 0;
  double log_sum = 0;
  for (int q = 0; q < o.nm; q++) {
    int m = o.ms[q];
    fprintf(stderr, "tcj-decode: m = %d: warm, capture, check, replay\n", m);
    double us[2] = {0, 0};
    check c = {{0, 0}, ""};
    if (run_m(&g, &o, m, &s, us, &c)) {
      failed = 1;
      printf("%5d %6d %10s %10s %7s %9s %6s %8s %10s %10s  FAIL %s\n", m, o.layers * LINEARS, "-", "-", "-", "-", "-", "-",
             "-", "-", c.note);
      continue;
    }
    double gbs[2] = {weight_bytes / us[0] / 1e3, weight_bytes / us[1] / 1e3};
    log_sum += log(us[1] / us[0]);
    timed++;
    printf("%5d %6d %10.1f %10.1f %7.3f %9.0f %6.1f %8.1f %10.3f %10.3f  ok\n", m, o.layers * LINEARS, us[0], us[1],
           us[1] / us[0], gbs[0], 100 * gbs[0] / o.bandwidth_gbs, 100 * gbs[1] / o.bandwidth_gbs, c.worst[0], c.worst[1]);
  }
  if (timed) printf("geomean ratio (cuBLAS time / tcj time) over %d batch sizes: %.3f\n", timed, exp(log_sum / timed));
  printf("err: the largest |error| / bound against float64 on the checked rows (<= 1 passes)\n");
  tcj_destroy(g.eng);
  g.eng = NULL;
  gr_close(&g);
  cudaFree(blas_ws);
  return failed;
}
