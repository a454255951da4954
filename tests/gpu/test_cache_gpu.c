/* SPDX-License-Identifier: Apache-2.0 */
/* GPU test of the persistent cache: tcj-warmup fills a cache directory with no GPU visible
 * (CUDA_VISIBLE_DEVICES=""), then an engine on the GPU serves every kernel of the manifest
 * from that directory without compiling (by tcj_get_stats), with correct results; a read-only
 * root (TCJ_CACHE_PATH) serves the same hits to an engine whose own directory is empty; the
 * driver-JIT compile path works and caches under its own identity.
 * Without a GPU it prints SKIP and exits 77 (CTest: skipped). */
#include <cuda_runtime.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tcj.h"
#include "tests/gpu/gpu_test.h"
#include "tests/gpu/oracle.h"

/* The manifest: one problem per kernel class, sizes small enough for a host reference. */
static const char MANIFEST[] =
    "dtype: bf16\n"
    "problems:\n"
    "  - {name: bf16_nn, m: [64, 300], n: 384, k: 200}\n"
    "  - {name: f16_nt, dtype: f16, c_dtype: f32, m: 129, n: 256, k: 96, op_b: T}\n"
    "  - {name: decode, m: 1, n: 1024, k: 512}\n"
    "  - {name: tf32_tn, dtype: tf32, m: 96, n: 160, k: 64, op_a: T}\n"
    "  - {name: s8_nt, dtype: s8, m: 128, n: 256, k: 128, op_b: T}\n";

typedef struct gemm { const char *name; tcj_dtype ab, c; tcj_op op_a, op_b; int64_t m, n, k; } gemm;
static const gemm PROBLEMS[] = {
  {"bf16_nn", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 64, 384, 200},
  {"bf16_nn", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 300, 384, 200},
  {"f16_nt", TCJ_F16, TCJ_F32, TCJ_OP_N, TCJ_OP_T, 129, 256, 96},
  {"decode", TCJ_BF16, TCJ_BF16, TCJ_OP_N, TCJ_OP_N, 1, 1024, 512},
  {"tf32_tn", TCJ_TF32, TCJ_F32, TCJ_OP_T, TCJ_OP_N, 96, 160, 64},
  {"s8_nt", TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_T, 128, 256, 128},
};
#define NPROBLEMS (int)(sizeof PROBLEMS / sizeof *PROBLEMS)

static char g_arch[16], g_dir[64], g_manifest[96];
static long g_warmed; /* kernels tcj-warmup compiled */

static void fill(tcj_dtype t, void *p, size_t n, unsigned seed) {
  srand(seed);
  for (size_t i = 0; i < n; i++) {
    float v = (float)rand() / (float)RAND_MAX * 2 - 1;
    switch (t) {
    case TCJ_F16: ((uint16_t *)p)[i] = f32_to_f16(v); break;
    case TCJ_BF16: ((uint16_t *)p)[i] = f32_to_bf16(v); break;
    case TCJ_S8: ((int8_t *)p)[i] = (int8_t)(rand() % 17 - 8); break;
    default: ((float *)p)[i] = v; break;
    }
  }
}

/* Runs g through e and checks every element against a float64 host reference. */
static void run_and_check(tcj_engine *e, const gemm *g, unsigned seed) {
  size_t es = gpu_esize(g->ab), ec = gpu_esize(g->c), na = (size_t)(g->m * g->k), nb = (size_t)(g->k * g->n),
         nc = (size_t)(g->m * g->n);
  void *ha = malloc(na * es), *hb = malloc(nb * es), *hc = malloc(nc * ec);
  assert_non_null(ha);
  assert_non_null(hb);
  assert_non_null(hc);
  fill(g->ab, ha, na, seed);
  fill(g->ab, hb, nb, seed + 1);
  void *da = gpu_upload(ha, na * es), *db = gpu_upload(hb, nb * es);
  void *dc = gpu_poisoned(nc * ec, 0xff); /* poison: beta == 0, every element must be written */
  int64_t lda = g->op_a ? g->m : g->k, ldb = g->op_b ? g->k : g->n;
  tcj_status st = tcj_gemm(e, g->op_a, g->op_b, g->m, g->n, g->k, 1.f, da, g->ab, lda, db, g->ab, ldb,
                           0.f, dc, g->c, g->n, NULL);
  if (st != TCJ_SUCCESS) print_error("%s: %s\n", g->name, tcj_last_error(e));
  assert_int_equal(st, TCJ_SUCCESS);
  gpu_download(hc, dc, nc * ec);
  /* Every element within its own bound (tests/gpu/oracle.h); tf32 inputs as the tensor cores
   * take them, truncated or rounded: either model must hold for the whole result. */
  double *a = malloc(sizeof *a * (na + 1)), *bt = malloc(sizeof *bt * (nb + 1)), *got = malloc(sizeof *got * (nc + 1));
  assert_non_null(a);
  assert_non_null(bt);
  assert_non_null(got);
  for (int64_t i = 0; i < g->m * g->n; i++) got[i] = gpu_get(g->c, hc, (size_t)i);
  oracle_result r = {0};
  for (int model = g->ab == TCJ_TF32 ? 1 : -1; model >= (g->ab == TCJ_TF32 ? 0 : -1); model--) {
    for (int64_t i = 0; i < g->m; i++)
      for (int64_t l = 0; l < g->k; l++) {
        double x = gpu_get(g->ab, ha, (size_t)(g->op_a ? l * lda + i : i * lda + l));
        a[i * g->k + l] = model >= 0 ? oracle_tf32((float)x, model) : x;
      }
    for (int64_t j = 0; j < g->n; j++)
      for (int64_t l = 0; l < g->k; l++) {
        double y = gpu_get(g->ab, hb, (size_t)(g->op_b ? j * ldb + l : l * ldb + j));
        bt[j * g->k + l] = model >= 0 ? oracle_tf32((float)y, model) : y;
      }
    oracle_gemm og = {g->m, g->n, g->k, 1.f, 0.f, g->c, a, bt, NULL, got, 0};
    oracle_check(&og, &r);
    if (r.bad == 0) break;
  }
  if (r.bad)
    print_error("%s m=%lld: %lld elements outside their bound, worst C[%lld][%lld] = %.9g, want %.9g, "
                "|error| / bound = %.3g\n", g->name, (long long)g->m, (long long)r.bad, (long long)r.worst_i,
                (long long)r.worst_j, r.worst_got, r.worst_ref, r.worst_ratio);
  assert_int_equal(r.bad, 0);
  free(a);
  free(bt);
  free(got);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(ha);
  free(hb);
  free(hc);
}

static void gpu_less_warmup_fills_the_cache(void **state) {
  (void)state;
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "CUDA_VISIBLE_DEVICES= '%s' --arch %s --cache-dir '%s' '%s'", TCJ_WARMUP_BIN, g_arch,
           g_dir, g_manifest);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  char line[512], last[512] = "";
  while (fgets(line, sizeof line, p)) snprintf(last, sizeof last, "%s", line);
  int rc = pclose(p);
  print_message("warmup: %s", last);
  long hit = -1, failed = -1;
  double secs = 0;
  assert_int_equal(sscanf(last, "compiled=%ld hit=%ld failed=%ld seconds=%lf", &g_warmed, &hit, &failed, &secs), 4);
  assert_int_equal(rc, 0);
  assert_int_equal(failed, 0);
  assert_true(g_warmed > 0);
}

static void engine_hits_every_warmed_kernel_without_compiling(void **state) {
  (void)state;
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_SYNC; /* these tests count the specialised kernels' compiles and disk hits */
  o.cache_dir = g_dir;
  tcj_engine *e;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  for (int i = 0; i < NPROBLEMS; i++) run_and_check(e, &PROBLEMS[i], 100u + (unsigned)i);
  tcj_stats s = TCJ_STATS_INIT;
  assert_int_equal(tcj_get_stats(e, &s), TCJ_SUCCESS);
  print_message("stats: disk_hits=%llu compiles=%llu memory_hits=%llu bad=%llu (warmup compiled %ld)\n",
                (unsigned long long)s.disk_hits, (unsigned long long)s.compiles,
                (unsigned long long)s.memory_hits, (unsigned long long)s.bad_entries, g_warmed);
  assert_int_equal(s.compiles, 0);
  assert_int_equal(s.bad_entries, 0);
  assert_int_equal(s.disk_hits, g_warmed);
  /* tcj_stats_init's struct gets the same counters. A zeroed one (struct_size 0, which once
   * meant the first layout and left the later counters 0) is refused; a struct of the first
   * layout's size gets the counters it has and nothing past them. */
  tcj_stats z;
  assert_int_equal(tcj_stats_init(&z, sizeof z), TCJ_SUCCESS);
  assert_int_equal(tcj_get_stats(e, &z), TCJ_SUCCESS);
  assert_memory_equal(&z, &s, sizeof s);
  memset(&z, 0, sizeof z);
  assert_int_equal(tcj_get_stats(e, &z), TCJ_ERROR_INVALID_VALUE);
  assert_non_null(strstr(tcj_last_error(e), "struct_size"));
  size_t v1 = offsetof(tcj_stats, write_failures) + sizeof(uint64_t);
  memset(&z, 0xA5, sizeof z);
  z.struct_size = v1;
  assert_int_equal(tcj_get_stats(e, &z), TCJ_SUCCESS);
  assert_int_equal(z.struct_size, v1);
  assert_memory_equal((char *)&z + sizeof z.struct_size, (char *)&s + sizeof s.struct_size, v1 - sizeof s.struct_size);
  assert_true(z.compiles_background == 0xA5A5A5A5A5A5A5A5ull);
  tcj_destroy(e);
}

/* A cache warmed by nvJitLink on a machine without a GPU serves a process that compiles with
 * the driver alone: the key names no compiler, the entry records nvJitLink. */
static void driver_only_engine_hits_the_nvjitlink_warmed_kernels(void **state) {
  (void)state;
  tcj_options o = TCJ_OPTIONS_INIT;
  o.cache_dir = g_dir;
  o.force_driver_jit = 1;
  o.jit_mode = TCJ_JIT_SYNC;
  tcj_engine *e;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  for (int i = 0; i < NPROBLEMS; i++) run_and_check(e, &PROBLEMS[i], 300u + (unsigned)i);
  tcj_stats s = TCJ_STATS_INIT;
  assert_int_equal(tcj_get_stats(e, &s), TCJ_SUCCESS);
  print_message("driver-only engine: disk_hits=%llu compiles=%llu bad=%llu (warmup compiled %ld)\n",
                (unsigned long long)s.disk_hits, (unsigned long long)s.compiles, (unsigned long long)s.bad_entries,
                g_warmed);
  assert_int_equal(s.compiles, 0);
  assert_int_equal(s.bad_entries, 0);
  assert_int_equal(s.disk_hits, g_warmed);
  tcj_destroy(e);
}

static void read_only_root_serves_hits(void **state) {
  (void)state;
  char empty[] = "/tmp/tcj-cache-gpu-own-XXXXXX";
  assert_non_null(mkdtemp(empty));
  setenv("TCJ_CACHE_PATH", g_dir, 1);
  tcj_options o = TCJ_OPTIONS_INIT;
  o.jit_mode = TCJ_JIT_SYNC; /* these tests count the specialised kernels' compiles and disk hits */
  o.cache_dir = empty;
  tcj_engine *e;
  assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
  unsetenv("TCJ_CACHE_PATH");
  run_and_check(e, &PROBLEMS[0], 7);
  tcj_stats s = TCJ_STATS_INIT;
  tcj_get_stats(e, &s);
  assert_int_equal(s.compiles, 0);
  assert_int_equal(s.disk_hits, 1);
  tcj_destroy(e);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", empty);
  assert_int_equal(system(cmd), 0);
}

/* The driver's cuLink* path (no nvJitLink): compiles, runs right, and publishes under the
 * driver's identity, so a second such engine hits the disk instead of compiling. */
static void driver_jit_compiles_and_its_cubins_are_cached(void **state) {
  (void)state;
  char dir[] = "/tmp/tcj-cache-gpu-drv-XXXXXX";
  assert_non_null(mkdtemp(dir));
  for (int round = 0; round < 2; round++) {
    tcj_options o = TCJ_OPTIONS_INIT;
    o.jit_mode = TCJ_JIT_SYNC; /* these tests count the specialised kernels' compiles and disk hits */
    o.cache_dir = dir;
    o.force_driver_jit = 1;
    tcj_engine *e;
    assert_int_equal(tcj_create(&e, &o), TCJ_SUCCESS);
    run_and_check(e, &PROBLEMS[2], 11u + (unsigned)round); /* f16 NT, f32 out */
    run_and_check(e, &PROBLEMS[5], 21u + (unsigned)round); /* s8 NT */
    tcj_stats s = TCJ_STATS_INIT;
    tcj_get_stats(e, &s);
    print_message("driver JIT round %d: compiles=%llu disk_hits=%llu\n", round, (unsigned long long)s.compiles,
                  (unsigned long long)s.disk_hits);
    assert_int_equal(s.compiles, round == 0 ? 2 : 0);
    assert_int_equal(s.disk_hits, round == 0 ? 0 : 2);
    tcj_destroy(e);
  }
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

int main(void) {
  struct cudaDeviceProp prop;
  int go = gpu_test_device("GPU cache checks", &prop); /* each test makes its engine */
  if (go != GPU_START_GO_ON) return go;
  int sm = prop.major * 10 + prop.minor;
  snprintf(g_arch, sizeof g_arch, "sm_%d%s", sm, sm == 90 ? "a" : "");
  snprintf(g_dir, sizeof g_dir, "/tmp/tcj-cache-gpu-XXXXXX");
  if (!mkdtemp(g_dir)) return 1;
  snprintf(g_manifest, sizeof g_manifest, "%s.yaml", g_dir);
  FILE *f = fopen(g_manifest, "w");
  if (!f || fputs(MANIFEST, f) < 0 || fclose(f) != 0) return 1;
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(gpu_less_warmup_fills_the_cache),
    cmocka_unit_test(engine_hits_every_warmed_kernel_without_compiling),
    cmocka_unit_test(driver_only_engine_hits_the_nvjitlink_warmed_kernels),
    cmocka_unit_test(read_only_root_serves_hits),
    cmocka_unit_test(driver_jit_compiles_and_its_cubins_are_cached),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", g_dir, g_manifest);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
  return failed ? 1 : 0;
}
