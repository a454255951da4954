/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the cache key (engine/warm): every input of a cubin changes the key and its
 * entry name, equal inputs give equal keys, the compiler identity, and offline warming into a
 * temp dir through nvJitLink (no GPU): miss, hit, and a corrupt entry rebuilt; a user
 * epilogue's kernel warmed with NVRTC and served without it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unit/sm90_fixture.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/disk_cache.h"
#include "engine/build.h" /* ENG_CACHE_KEY_MAX */
#include "engine/jit.h"
#include "engine/nvrtc.h"
#include "engine/select.h"
#include "engine/warm.h"

/* A valid sm_80 config: the skinny tile for a bf16 decode-like problem. */
static tcj_kernel_cfg skinny_cfg(void) {
  eng_device_caps caps;
  assert_int_equal(eng_caps_for_arch("sm_80", &caps), 0);
  eng_problem p;
  memset(&p, 0, sizeof p);
  p.ab = PTX_E_BF16;
  p.c = PTX_E_BF16;
  p.m = 1;
  p.n = 256;
  p.k = 256;
  p.lda = p.k;
  p.ldb = p.n;
  p.ldc = p.n;
  p.align_a = p.align_b = p.align_c = 16;
  eng_problem_plain_epilogue(&p);
  eng_plan plan;
  const char *why = NULL;
  tcj_status st = eng_select(&p, &caps, 0, &plan, &why);
  if (st != TCJ_SUCCESS) print_error("eng_select: %s\n", why);
  assert_int_equal(st, TCJ_SUCCESS);
  const char *reason = tcj_cfg_check(&plan.cfg);
  if (reason) print_error("tcj_cfg_check: %s\n", reason);
  assert_null(reason);
  return plan.cfg;
}

static void key_of(const tcj_kernel_cfg *cfg, const char *arch, char *out) {
  int n = eng_cache_key(cfg, arch, out, ENG_CACHE_KEY_MAX);
  assert_true(n > 0);
  assert_int_equal((size_t)n, strlen(out));
}

/* One change of each cfg field; every one must move the key. */
#define FIELD_CHANGES(X)                                    \
  X(ab, c->ab = c->ab == PTX_E_F16 ? PTX_E_BF16 : PTX_E_F16) \
  X(c, c->c = c->c == PTX_E_F32 ? PTX_E_BF16 : PTX_E_F32)    \
  X(op_a_t, c->op_a_t = !c->op_a_t)                          \
  X(op_b_t, c->op_b_t = !c->op_b_t)                          \
  X(n, c->n += 8)                                            \
  X(k, c->k += 8)                                            \
  X(bm, c->bm *= 2)                                          \
  X(bn, c->bn *= 2)                                          \
  X(bk, c->bk *= 2)                                          \
  X(warps_m, c->warps_m *= 2)                                \
  X(warps_n, c->warps_n *= 2)                                \
  X(stages, c->stages += 1)                                  \
  X(align_a, c->align_a = c->align_a == 16 ? 8 : 16)         \
  X(align_b, c->align_b = c->align_b == 16 ? 8 : 16)         \
  X(vec_c, c->vec_c = 3 - c->vec_c)                             \
  X(split_k, c->split_k = c->split_k ? 0 : 2)                \
  X(sm, c->sm = c->sm == 80 ? 86 : 80)                       \
  X(arch_suffix, c->arch_suffix = c->arch_suffix ? 0 : 'a')  \
  X(recipe, c->recipe = c->recipe == PTX_RECIPE_SM80 ? PTX_RECIPE_SM90 : PTX_RECIPE_SM80) \
  X(cluster_m, c->cluster_m = c->cluster_m ? 0 : 2)          \
  X(pingpong, c->pingpong = !c->pingpong)                    \
  X(d, c->d = c->d == PTX_E_F32 ? PTX_E_F16 : PTX_E_F32)     \
  X(bias, c->bias = c->bias == PTX_BIAS_COL ? PTX_BIAS_ROW : PTX_BIAS_COL) \
  X(bias_t, (c->bias = PTX_BIAS_COL, c->bias_t = PTX_E_BF16)) \
  X(act, c->act = c->act == PTX_ACT_GELU ? PTX_ACT_SILU : PTX_ACT_GELU) \
  X(act2, c->act = PTX_ACT_GELU_TANH)                         \
  X(batched, c->batched = !c->batched)                        \
  X(user, c->user = 0x0123456789abcdefull)                    \
  X(user2, c->user = 0x0123456789abcdeeull)

#define MUTATOR(field, change) \
  static void change_##field(tcj_kernel_cfg *c) { change; }
FIELD_CHANGES(MUTATOR)
#undef MUTATOR

static const struct { const char *field; void (*change)(tcj_kernel_cfg *); } changes[] = {
#define CHANGE_ROW(field, change) {#field, change_##field},
  FIELD_CHANGES(CHANGE_ROW)
#undef CHANGE_ROW
};
enum { N_CHANGES = sizeof changes / sizeof *changes };

static void key_changes_when_any_cfg_field_changes(void **state) {
  (void)state;
  tcj_kernel_cfg base = skinny_cfg();
  static char keys[N_CHANGES + 1][ENG_CACHE_KEY_MAX];
  char names[N_CHANGES + 1][32];
  key_of(&base, "sm_80", keys[N_CHANGES]);
  cache_entry_name(keys[N_CHANGES], names[N_CHANGES]);
  for (int i = 0; i < N_CHANGES; i++) {
    tcj_kernel_cfg c = base;
    changes[i].change(&c);
    key_of(&c, "sm_80", keys[i]);
    cache_entry_name(keys[i], names[i]);
  }
  /* Pairwise distinct: no two one-field changes land on the same key or file name. */
  for (int i = 0; i <= N_CHANGES; i++)
    for (int j = i + 1; j <= N_CHANGES; j++) {
      const char *a = i < N_CHANGES ? changes[i].field : "(base)", *b = j < N_CHANGES ? changes[j].field : "(base)";
      if (!strcmp(keys[i], keys[j])) print_error("changing %s and changing %s give the same key\n", a, b);
      assert_string_not_equal(keys[i], keys[j]);
      if (!strcmp(names[i], names[j])) print_error("%s and %s give the same entry name %s\n", a, b, names[i]);
      assert_string_not_equal(names[i], names[j]);
    }
}

/* A valid sm90 config: 2 consumers of 64 rows, 2-CTA clusters. */
static tcj_kernel_cfg sm90_cfg(void) {
  tcj_kernel_cfg c = sm90_fixture_cfg();
  const char *why = tcj_cfg_check(&c);
  if (why) print_error("tcj_cfg_check: %s\n", why);
  assert_null(why);
  return c;
}

/* The same tile under the two recipes, and an sm90 config with and without a cluster, are
 * four different kernels: four keys, four entry names, and the key text says which. */
static void key_names_the_recipe_and_the_cluster(void **state) {
  (void)state;
  tcj_kernel_cfg v[4];
  v[0] = sm90_cfg();
  v[1] = v[0];
  v[1].cluster_m = 0;
  v[2] = v[1];
  v[2].recipe = PTX_RECIPE_SM80;
  v[3] = v[0];
  v[3].recipe = PTX_RECIPE_SM80;
  static char keys[4][ENG_CACHE_KEY_MAX];
  char names[4][32];
  for (int i = 0; i < 4; i++) {
    key_of(&v[i], "sm_90a", keys[i]);
    cache_entry_name(keys[i], names[i]);
  }
  for (int i = 0; i < 4; i++)
    for (int j = i + 1; j < 4; j++) {
      if (!strcmp(keys[i], keys[j])) print_error("configs %d and %d share the key\n%s", i, j, keys[i]);
      assert_string_not_equal(keys[i], keys[j]);
      assert_string_not_equal(names[i], names[j]);
    }
  assert_non_null(strstr(keys[0], "cfg=recipe=sm90 "));
  assert_non_null(strstr(keys[0], " cluster=2\n"));
  assert_non_null(strstr(keys[1], "cfg=recipe=sm90 "));
  assert_null(strstr(keys[1], "cluster="));
  assert_non_null(strstr(keys[2], "cfg=recipe=sm80 "));
  assert_non_null(strstr(keys[3], " cluster=2\n"));
  /* Every cluster size the text can carry gives its own key. */
  char k4[ENG_CACHE_KEY_MAX];
  tcj_kernel_cfg c4 = v[0];
  c4.cluster_m = 4;
  key_of(&c4, "sm_90a", k4);
  assert_string_not_equal(k4, keys[0]);
  assert_string_not_equal(k4, keys[1]);
}

/* Ping-pong consumers are another kernel for the same tile: the cooperative and ping-pong
 * configs of one tile, each with and without a cluster, and the ping-pong 64x256 tile select
 * switches to, all have their own key and entry name, and the key text says which. */
static void key_changes_with_pingpong(void **state) {
  (void)state;
  enum { N = 6 };
  tcj_kernel_cfg v[N];
  v[0] = sm90_cfg();       /* 128x256, two cooperative consumers, cluster */
  v[0].bn = 128;           /* 128x128: valid both ways */
  v[1] = v[0];
  v[1].pingpong = 1;       /* ping-pong, cluster */
  v[2] = v[0];
  v[2].cluster_m = 0;      /* cooperative, no cluster */
  v[3] = v[1];
  v[3].cluster_m = 0;      /* ping-pong, no cluster */
  v[4] = v[1];
  v[4].bm = 64;
  v[4].bn = 256;
  v[4].stages = 5;         /* the ping-pong 64x256 of short-K selection, cluster */
  v[5] = v[4];
  v[5].cluster_m = 0;
  static char keys[N][ENG_CACHE_KEY_MAX];
  char names[N][32];
  for (int i = 0; i < N; i++) {
    const char *why = tcj_cfg_check(&v[i]);
    if (why) print_error("config %d: %s\n", i, why);
    assert_null(why);
    key_of(&v[i], "sm_90a", keys[i]);
    cache_entry_name(keys[i], names[i]);
  }
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      if (!strcmp(keys[i], keys[j])) print_error("configs %d and %d share the key\n%s", i, j, keys[i]);
      assert_string_not_equal(keys[i], keys[j]);
      assert_string_not_equal(names[i], names[j]);
    }
  assert_null(strstr(keys[0], "pingpong"));
  assert_non_null(strstr(keys[0], " cluster=2\n"));
  assert_non_null(strstr(keys[1], " cluster=2 pingpong=1\n"));
  assert_null(strstr(keys[2], "pingpong"));
  assert_non_null(strstr(keys[3], " align=16,16,8 pingpong=1\n"));
  assert_non_null(strstr(keys[4], " tile=64x256x64 warps=2x1 stages=5 align=16,16,8 cluster=2 pingpong=1\n"));
  assert_non_null(strstr(keys[5], " tile=64x256x64 warps=2x1 stages=5 align=16,16,8 pingpong=1\n"));
  /* Equal ping-pong configs, equal keys. */
  char again[ENG_CACHE_KEY_MAX];
  tcj_kernel_cfg copy = v[1];
  key_of(&copy, "sm_90a", again);
  assert_string_equal(again, keys[1]);
}

static void key_changes_with_the_arch(void **state) {
  (void)state;
  tcj_kernel_cfg cfg = skinny_cfg();
  const char *arches[] = {"sm_90", "sm_90a", "sm_80", "sm_89"};
  enum { NA = sizeof arches / sizeof *arches };
  static char keys[NA][ENG_CACHE_KEY_MAX];
  for (int a = 0; a < NA; a++) key_of(&cfg, arches[a], keys[a]);
  for (int i = 0; i < NA; i++)
    for (int j = i + 1; j < NA; j++) {
      if (!strcmp(keys[i], keys[j])) print_error("%s and %s give the same key\n", arches[i], arches[j]);
      assert_string_not_equal(keys[i], keys[j]);
    }
}

static void key_text_names_every_input(void **state) {
  (void)state;
  tcj_kernel_cfg cfg = skinny_cfg();
  char key[ENG_CACHE_KEY_MAX], text[256];
  key_of(&cfg, "sm_90a", key);
  assert_true(tcj_cfg_format(&cfg, text, sizeof text) > 0);
  const char *labels[] = {"format=", "codegen=", "cfg=", "arch="};
  for (size_t i = 0; i < sizeof labels / sizeof *labels; i++) {
    if (!strstr(key, labels[i])) print_error("key has no '%s': %s\n", labels[i], key);
    assert_non_null(strstr(key, labels[i]));
  }
  char want[64];
  snprintf(want, sizeof want, "format=%u\n", CACHE_FORMAT_VERSION);
  assert_non_null(strstr(key, want));
  assert_non_null(strstr(key, text));
  assert_non_null(strstr(key, "arch=sm_90a\n"));
  /* A cubin is the kernel whoever compiled it: the key names no compiler (the entry does). */
  assert_null(strstr(key, "compiler"));
  /* codegen= carries an actual id, not an empty value. */
  const char *cg = strstr(key, "codegen=") + strlen("codegen=");
  assert_true(*cg != '\n' && *cg != 0);
}

static void equal_inputs_give_equal_keys(void **state) {
  (void)state;
  tcj_kernel_cfg a = skinny_cfg(), b;
  memset(&b, 0, sizeof b); /* a separately built copy, padding and all different */
  b.recipe = a.recipe; b.sm = a.sm; b.arch_suffix = a.arch_suffix; b.ab = a.ab; b.c = a.c;
  b.op_a_t = a.op_a_t; b.op_b_t = a.op_b_t; b.n = a.n; b.k = a.k; b.bm = a.bm; b.bn = a.bn; b.bk = a.bk;
  b.warps_m = a.warps_m; b.warps_n = a.warps_n; b.stages = a.stages; b.align_a = a.align_a;
  b.align_b = a.align_b; b.vec_c = a.vec_c; b.split_k = a.split_k; b.cluster_m = a.cluster_m;
  b.pingpong = a.pingpong; b.d = a.d; b.bias = a.bias; b.bias_t = a.bias_t; b.act = a.act; b.batched = a.batched;
  b.user = a.user;
  char ka[ENG_CACHE_KEY_MAX], kb[ENG_CACHE_KEY_MAX];
  key_of(&a, "sm_80", ka);
  key_of(&b, "sm_80", kb);
  assert_string_equal(ka, kb);
  char na[32], nb[32];
  cache_entry_name(ka, na);
  cache_entry_name(kb, nb);
  assert_string_equal(na, nb);
}

static void key_that_does_not_fit_is_an_error(void **state) {
  (void)state;
  tcj_kernel_cfg cfg = skinny_cfg();
  char small[32];
  assert_int_equal(eng_cache_key(&cfg, "sm_80", small, sizeof small), -1);
  char full[ENG_CACHE_KEY_MAX];
  int n = eng_cache_key(&cfg, "sm_80", full, sizeof full);
  assert_true(n > 0);
  assert_int_equal(eng_cache_key(&cfg, "sm_80", full, (size_t)n), -1);
  assert_int_equal(eng_cache_key(&cfg, "sm_80", full, (size_t)n + 1), n);
}

static void entry_name_is_16_hex_digits_and_tcjc(void **state) {
  (void)state;
  const char *keys[] = {"", "a", "b", "tcj-cache format=1\n", "tcj-cache format=2\n"};
  char names[5][32];
  for (int i = 0; i < 5; i++) {
    cache_entry_name(keys[i], names[i]);
    assert_int_equal(strlen(names[i]), 16 + strlen(".tcjc"));
    for (int j = 0; j < 16; j++) {
      char ch = names[i][j];
      if (!isxdigit((unsigned char)ch) || isupper((unsigned char)ch)) print_error("bad name %s\n", names[i]);
      assert_true(isxdigit((unsigned char)ch) && !isupper((unsigned char)ch));
    }
    assert_string_equal(names[i] + 16, ".tcjc");
    for (int j = 0; j < i; j++) assert_string_not_equal(names[i], names[j]);
  }
}

static int in_ci(void) {
  const char *ci = getenv("CI");
  return ci && *ci;
}

static void compiler_identity_names_the_driver_or_nvjitlink(void **state) {
  (void)state;
  char id[256];
  eng_compiler_identity(1, 12080, id, sizeof id);
  assert_string_equal(id, "driver 12080");
  eng_compiler_identity(1, 0, id, sizeof id);
  assert_string_equal(id, "driver 0");

  char nvjl[256];
  eng_compiler_identity(0, 12080, id, sizeof id);
  if (!eng_nvjitlink_identity(nvjl, sizeof nvjl)) {
    if (in_ci()) fail_msg("nvJitLink not found, and CI is set: CI must have it");
    assert_string_equal(id, "driver 12080");
    print_message("nvJitLink not found: only the driver identity was checked\n");
    skip();
  }
  if (strncmp(id, "nvJitLink", 9) != 0) print_error("identity '%s'\n", id);
  assert_int_equal(strncmp(id, "nvJitLink", 9), 0);
  assert_string_equal(id, nvjl);
}

/* ---- offline warming ---- */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st; (void)flag; (void)ftw;
  return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

static int count_entries(const char *dir, char *last, size_t size) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t len = strlen(de->d_name);
    if (len > 5 && !strcmp(de->d_name + len - 5, ".tcjc")) {
      snprintf(last, size, "%s/%s", dir, de->d_name);
      n++;
    }
  }
  closedir(d);
  return n;
}

static void warm(cache_disk *disk, const tcj_kernel_cfg *cfg, int want_hit) {
  char err[1024] = "";
  int hit = -1;
  tcj_status st = eng_warm_offline(disk, cfg, NULL, &hit, err, sizeof err);
  if (st != TCJ_SUCCESS) print_error("eng_warm_offline: %s: %s\n", tcj_status_string(st), err);
  assert_int_equal(st, TCJ_SUCCESS);
  assert_int_equal(hit, want_hit);
}

static void offline_warm_compiles_once_then_hits_and_rebuilds_a_corrupt_entry(void **state) {
  (void)state;
  char id[256];
  if (!eng_nvjitlink_identity(id, sizeof id)) {
    if (in_ci()) fail_msg("nvJitLink not found, and CI is set: CI must have it");
    print_message("nvJitLink not found: offline warming not tested\n");
    skip();
  }
  char root[] = "/tmp/tcj-test-warm-XXXXXX";
  assert_non_null(mkdtemp(root));
  char dir[64];
  snprintf(dir, sizeof dir, "%s/cache", root);
  cache_disk_config dc = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  cache_stats stats = {0};
  cache_disk *disk = cache_disk_open(&dc, &stats);
  assert_non_null(disk);
  tcj_kernel_cfg cfg = skinny_cfg();
  char path[256];

  warm(disk, &cfg, 0);
  assert_int_equal(count_entries(dir, path, sizeof path), 1);
  /* The entry is where the key says. */
  char key[ENG_CACHE_KEY_MAX], name[32];
  key_of(&cfg, "sm_80", key);
  cache_entry_name(key, name);
  assert_non_null(strstr(path, name));
  /* The entry records who compiled it: nvJitLink, named as eng_nvjitlink_identity names it. */
  FILE *rf = fopen(path, "rb");
  assert_non_null(rf);
  static unsigned char whole[1 << 22];
  size_t got = fread(whole, 1, sizeof whole, rf);
  fclose(rf);
  cache_entry_view v;
  assert_int_equal(cache_entry_read(whole, got, key, &v), 1);
  assert_int_equal(v.compiler_len, strlen(id));
  assert_memory_equal(v.compiler, id, v.compiler_len);
  warm(disk, &cfg, 1);
  assert_int_equal(count_entries(dir, path, sizeof path), 1);

  /* Flip a byte in the middle of the cubin. */
  FILE *f = fopen(path, "r+b");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long size = ftell(f);
  assert_true(size > 1000);
  assert_int_equal(fseek(f, size / 2, SEEK_SET), 0);
  int ch = fgetc(f);
  assert_true(ch != EOF);
  assert_int_equal(fseek(f, size / 2, SEEK_SET), 0);
  assert_int_equal(fputc(ch ^ 0x10, f), ch ^ 0x10);
  assert_int_equal(fclose(f), 0);

  warm(disk, &cfg, 0);
  assert_int_equal(count_entries(dir, path, sizeof path), 1);
  void *bin = NULL;
  size_t bin_size = 0;
  assert_int_equal(cache_disk_get(disk, key, &bin, &bin_size), 1);
  assert_true(bin_size > 4);
  assert_memory_equal(bin, "\177ELF", 4); /* a real cubin from nvJitLink */
  free(bin);
  warm(disk, &cfg, 1);
  assert_int_equal(atomic_load(&stats.bad_entries), 1);

  cache_disk_close(disk);
  nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- user epilogues: a key without NVRTC finds the kernel NVRTC built elsewhere ---- */

static const char user_source[] =
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
    "                                         long long batch, const void *params) { return 2.0f * v + c; }\n";

static void key_of_a_user_epilogue_names_its_nvrtc_or_any_without_one(void **state) {
  (void)state;
  tcj_kernel_cfg cfg = skinny_cfg();
  char key[ENG_CACHE_KEY_MAX], any[ENG_CACHE_KEY_MAX], hidden[ENG_CACHE_KEY_MAX];
  key_of(&cfg, "sm_80", key);
  assert_null(strstr(key, "epilogue compiler="));
  assert_int_equal(eng_cache_key_any_nvrtc(&cfg, "sm_80", any, sizeof any), -1);

  cfg.user = eng_epilogue_hash(user_source);
  key_of(&cfg, "sm_80", key);
  assert_true(eng_cache_key_any_nvrtc(&cfg, "sm_80", any, sizeof any) > 0);
  eng_nvrtc_hide(1);
  key_of(&cfg, "sm_80", hidden);
  eng_nvrtc_hide(0);
  assert_string_equal(hidden, any);
  if (!strstr(any, "\nepilogue compiler=any\n")) fail_msg("key without NVRTC:\n%s", any);
  char version[64], line[96];
  if (!eng_nvrtc_available(version, sizeof version)) {
    if (in_ci()) fail_msg("NVRTC not found, and CI is set: CI must have it");
    assert_string_equal(key, any);
    print_message("NVRTC not found: the key with NVRTC was not checked\n");
    return;
  }
  snprintf(line, sizeof line, "\nepilogue compiler=%s\n", version);
  if (!strstr(key, line)) fail_msg("no '%s' in the key:\n%s", version, key);
  assert_string_not_equal(key, any);
  /* Nothing else differs: the copy is the same kernel. */
  assert_int_equal(strlen(key) - strlen(version), strlen(any) - strlen("any"));
  assert_memory_equal(key, any, (size_t)(strstr(key, line) - key));
}

/* eng_warm_offline of cfg with source: expect, and (on success) whether it was a hit. */
static void warm_user(cache_disk *disk, const tcj_kernel_cfg *cfg, const char *source, tcj_status expect,
                      int want_hit, char *err, size_t err_size) {
  int hit = -1;
  err[0] = '\0';
  tcj_status st = eng_warm_offline(disk, cfg, source, &hit, err, err_size);
  if (st != expect) fail_msg("eng_warm_offline: %s, expected %s: %s", tcj_status_string(st), tcj_status_string(expect), err);
  if (st == TCJ_SUCCESS) assert_int_equal(hit, want_hit);
}

/* A cache warmed where NVRTC is (tcj-warmup on a build host) serves an image without it: the
 * kernel is found, not compiled (a source never warmed fails for want of NVRTC). */
static void user_epilogue_kernel_warmed_with_nvrtc_is_served_without_it(void **state) {
  (void)state;
  char id[256], version[64];
  if (!eng_nvjitlink_identity(id, sizeof id) || !eng_nvrtc_available(version, sizeof version)) {
    if (in_ci()) fail_msg("nvJitLink or NVRTC not found, and CI is set: CI must have both");
    print_message("nvJitLink or NVRTC not found: not tested\n");
    skip();
  }
  char root[] = "/tmp/tcj-test-warm-user-XXXXXX";
  assert_non_null(mkdtemp(root));
  char dir[64], path[256], err[4096];
  snprintf(dir, sizeof dir, "%s/cache", root);
  cache_disk_config dc = {.dir = dir, .max_bytes = CACHE_DEFAULT_MAX_BYTES};
  cache_stats stats = {0};
  cache_disk *disk = cache_disk_open(&dc, &stats);
  assert_non_null(disk);
  tcj_kernel_cfg cfg = skinny_cfg();
  cfg.user = eng_epilogue_hash(user_source);

  warm_user(disk, &cfg, user_source, TCJ_SUCCESS, 0, err, sizeof err);
  assert_int_equal(count_entries(dir, path, sizeof path), 2); /* the kernel and its copy */
  warm_user(disk, &cfg, user_source, TCJ_SUCCESS, 1, err, sizeof err);

  eng_nvrtc_hide(1);
  warm_user(disk, &cfg, user_source, TCJ_SUCCESS, 1, err, sizeof err);
  tcj_kernel_cfg other = cfg;
  other.user = eng_epilogue_hash("/* another */");
  warm_user(disk, &other, "/* another */", TCJ_ERROR_NOT_SUPPORTED, 0, err, sizeof err);
  eng_nvrtc_hide(0);
  if (!strstr(err, "user epilogues need NVRTC")) fail_msg("message: %s", err);

  /* The copy dropped (the LRU may take it while the versioned entry is in use): warming again
   * hits, and writes it back for the images without NVRTC. */
  char any[ENG_CACHE_KEY_MAX], name[32];
  assert_true(eng_cache_key_any_nvrtc(&cfg, "sm_80", any, sizeof any) > 0);
  cache_entry_name(any, name);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  assert_int_equal(remove(path), 0);
  warm_user(disk, &cfg, user_source, TCJ_SUCCESS, 1, err, sizeof err);
  assert_int_equal(count_entries(dir, path, sizeof path), 2);
  eng_nvrtc_hide(1);
  warm_user(disk, &cfg, user_source, TCJ_SUCCESS, 1, err, sizeof err);
  eng_nvrtc_hide(0);

  cache_disk_close(disk);
  nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(key_changes_when_any_cfg_field_changes),
    cmocka_unit_test(key_names_the_recipe_and_the_cluster),
    cmocka_unit_test(key_changes_with_pingpong),
    cmocka_unit_test(key_changes_with_the_arch),
    cmocka_unit_test(key_text_names_every_input),
    cmocka_unit_test(equal_inputs_give_equal_keys),
    cmocka_unit_test(key_that_does_not_fit_is_an_error),
    cmocka_unit_test(entry_name_is_16_hex_digits_and_tcjc),
    cmocka_unit_test(compiler_identity_names_the_driver_or_nvjitlink),
    cmocka_unit_test(offline_warm_compiles_once_then_hits_and_rebuilds_a_corrupt_entry),
    cmocka_unit_test(key_of_a_user_epilogue_names_its_nvrtc_or_any_without_one),
    cmocka_unit_test(user_epilogue_kernel_warmed_with_nvrtc_is_served_without_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
