/* SPDX-License-Identifier: Apache-2.0 */
/* User epilogues on the host side: engine/nvrtc.c (NVRTC's version, CUDA C -> PTX with the
 * user's line numbers in errors, the signature enforced, includes refused, the epilogue hash
 * and a call keyed without NVRTC) and
 * ptxgen/user_epilogue.c (NVRTC's module stripped to a body that joins tcj's module, and a
 * kernel calling tcj_epilogue through PTX_USER_EPILOGUE_PROTO assembles with nvJitLink). No GPU
 * needed. Without NVRTC (or nvJitLink) those tests are skipped with a message, and fail when
 * CI is set: CI's toolkit has both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/jit.h"
#include "engine/nvrtc.h"
#include "engine/select.h"
#include "ptxgen/user_epilogue.h"

/* D = acc + scale * R[batch][row][col]: the residual add of a transformer block. */
static const char residual_add[] =
    "struct residual { const float *r; long long ld, batch_stride; float scale; };\n"
    "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
    "                                         long long batch, const void *params) {\n"
    "  const residual *p = (const residual *)params;\n"
    "  return v + p->scale * p->r[batch * p->batch_stride + row * p->ld + col];\n"
    "}\n";

/* tcj's own modules declare PTX ISA 8.0 up to sm_90a (ptxgen); the join takes the larger. */
enum { TCJ_PTX_VERSION_X10 = 80, ERR_SIZE = 8192 };

static void skip_without(const char *what, int available) {
  if (available) return;
  if (getenv("CI")) fail_msg("%s is not available and CI is set: user epilogues must be tested in CI", what);
  print_message("[  SKIPPED ] %s is not available\n", what);
  skip();
}

static void skip_without_nvrtc(void) { skip_without("NVRTC", eng_nvrtc_available(NULL, 0)); }

/* Compiles source for arch, expecting status; returns the PTX (success) or NULL, err filled. */
static char *compile(const char *source, const char *arch, tcj_status expect, char *err) {
  char *ptx = (char *)1;
  size_t len = 1;
  err[0] = '\0';
  tcj_status st = eng_nvrtc_compile_epilogue(source, arch, &ptx, &len, err, ERR_SIZE);
  if (st != expect) print_error("%s: got %s, expected %s: %s\n", arch, tcj_status_string(st), tcj_status_string(expect), err);
  assert_int_equal(st, expect);
  if (st != TCJ_SUCCESS) {
    assert_null(ptx);
    assert_int_equal(len, 0);
    print_message("%s\n", err);
    return NULL;
  }
  assert_non_null(ptx);
  assert_int_equal(len, strlen(ptx));
  return ptx;
}

static void available_names_nvrtcs_version_and_hide_makes_it_unavailable(void **state) {
  (void)state;
  skip_without_nvrtc();
  char version[64] = "";
  assert_true(eng_nvrtc_available(version, sizeof version));
  print_message("%s\n", version);
  int major = 0, minor = -1;
  if (sscanf(version, "NVRTC %d.%d", &major, &minor) != 2 || major < 12 || minor < 0) fail_msg("version '%s'", version);
  eng_nvrtc_hide(1);
  char hidden[64] = "unchanged";
  assert_false(eng_nvrtc_available(hidden, sizeof hidden));
  assert_string_equal(hidden, "unchanged");
  char *ptx = (char *)1, err[ERR_SIZE];
  size_t len = 1;
  tcj_status st = eng_nvrtc_compile_epilogue(residual_add, "sm_80", &ptx, &len, err, sizeof err);
  eng_nvrtc_hide(0);
  assert_int_equal(st, TCJ_ERROR_NOT_SUPPORTED);
  assert_non_null(strstr(err, "user epilogues need NVRTC"));
  assert_true(eng_nvrtc_available(NULL, 0));
}

/* tcj_gemm_ex_workspace_size runs what a call runs before its memo and disk lookups
 * (validation, the epilogue's key, selection): with a user epilogue and no NVRTC it must
 * succeed, so that a warm cache can serve the kernel. An engine of the fields that path reads
 * stands in for a GPU. */
static void user_epilogue_call_is_keyed_and_selected_without_nvrtc(void **state) {
  (void)state;
  tcj_engine *e = calloc(1, sizeof *e);
  assert_non_null(e);
  assert_int_equal(eng_caps_for_arch("sm_80", &e->caps), 0);
  e->allow_packing = 1;
  tcj_gemm_desc g = TCJ_GEMM_DESC_INIT;
  g.m = 128;
  g.n = 256;
  g.k = 64;
  g.a = (const void *)(uintptr_t)0x10000000;
  g.b = (const void *)(uintptr_t)0x20000000;
  g.c = (const void *)(uintptr_t)0x30000000;
  g.a_type = g.b_type = g.c_type = TCJ_BF16;
  g.lda = g.k;
  g.ldb = g.n;
  g.ldc = g.n;
  g.epilogue_source = residual_add;
  size_t bytes = 1;
  eng_nvrtc_hide(1);
  tcj_status st = tcj_gemm_ex_workspace_size(e, &g, &bytes);
  eng_nvrtc_hide(0);
  if (st != TCJ_SUCCESS) fail_msg("without NVRTC: %s: %s", tcj_status_string(st), tcj_last_error(e));
  assert_int_equal(bytes, 0);
  free(e);
}

/* A caller kernel: thread x computes tcj_epilogue(x, 1, x, ctaid.x, 0, params) and stores it,
 * the call sequence PTX_USER_EPILOGUE_PROTO's comment gives, then the epilogue's body. */
static char *caller_module(const char *arch, int version_x10, const char *body) {
  int v = version_x10 > TCJ_PTX_VERSION_X10 ? version_x10 : TCJ_PTX_VERSION_X10;
  static const char kernel[] =
      ".visible .entry caller(.param .u64 out, .param .u64 prm)\n"
      "{\n"
      "  .reg .f32 %f<4>;\n"
      "  .reg .b64 %rd<8>;\n"
      "  .reg .b32 %r<3>;\n"
      "  ld.param.u64 %rd1, [out];\n"
      "  ld.param.u64 %rd2, [prm];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u32 %r2, %ctaid.x;\n"
      "  cvt.u64.u32 %rd3, %r1;\n"
      "  cvt.u64.u32 %rd7, %r2;\n"
      "  cvt.rn.f32.u32 %f1, %r1;\n"
      "  mov.f32 %f2, 0f3F800000;\n"
      "  {\n"
      "    .param .b32 ep_v;\n"
      "    .param .b32 ep_c;\n"
      "    .param .b64 ep_row;\n"
      "    .param .b64 ep_col;\n"
      "    .param .b64 ep_batch;\n"
      "    .param .b64 ep_params;\n"
      "    .param .b32 ep_ret;\n"
      "    st.param.f32 [ep_v], %f1;\n"
      "    st.param.f32 [ep_c], %f2;\n"
      "    st.param.b64 [ep_row], %rd3;\n"
      "    st.param.b64 [ep_col], %rd7;\n"
      "    st.param.b64 [ep_batch], 0;\n"
      "    st.param.b64 [ep_params], %rd2;\n"
      "    call.uni (ep_ret), tcj_epilogue, (ep_v, ep_c, ep_row, ep_col, ep_batch, ep_params);\n"
      "    ld.param.f32 %f3, [ep_ret];\n"
      "  }\n"
      "  cvta.to.global.u64 %rd4, %rd1;\n"
      "  mul.wide.u32 %rd5, %r1, 4;\n"
      "  add.s64 %rd6, %rd4, %rd5;\n"
      "  st.global.f32 [%rd6], %f3;\n"
      "  ret;\n"
      "}\n\n";
  size_t size = 128 + strlen(PTX_USER_EPILOGUE_PROTO) + sizeof kernel + strlen(body);
  char *m = malloc(size);
  assert_non_null(m);
  int n = snprintf(m, size, ".version %d.%d\n.target %s\n.address_size 64\n\n%s\n%s%s", v / 10, v % 10, arch,
                   PTX_USER_EPILOGUE_PROTO, kernel, body);
  assert_true(n > 0 && (size_t)n < size);
  return m;
}

/* source compiles for sm_80 and sm_90a, and its body joined after a calling kernel assembles. */
static void expect_joins(const char *source) {
  skip_without_nvrtc();
  skip_without("nvJitLink", eng_nvjitlink_available(NULL, 0));
  static const char *const archs[] = {"sm_80", "sm_90a"};
  for (size_t i = 0; i < sizeof archs / sizeof *archs; i++) {
    char *err = malloc(ERR_SIZE);
    assert_non_null(err);
    char *ptx = compile(source, archs[i], TCJ_SUCCESS, err);
    char target[32];
    snprintf(target, sizeof target, ".target %s", archs[i]);
    if (!strstr(ptx, target)) fail_msg("NVRTC's PTX for %s lacks '%s':\n%s", archs[i], target, ptx);

    int version = 0;
    char *body = NULL;
    size_t body_len = 0;
    if (ptx_user_epilogue_body(ptx, &version, &body, &body_len, err, ERR_SIZE) != 0) fail_msg("%s", err);
    assert_true(version >= 60 && version < 200);
    char *module = caller_module(archs[i], version, body);
    eng_cubin cubin;
    tcj_status st = eng_jit_compile_nvjitlink(module, strlen(module), archs[i], &cubin, err, ERR_SIZE);
    if (st != TCJ_SUCCESS) fail_msg("%s: the joined module does not assemble: %s\n%s", archs[i], err, module);
    assert_true(cubin.size > 0);
    /* ptxas reports tcj_epilogue as a function of its own when the call stays a call. */
    print_message("%s: PTX ISA %d.%d, tcj_epilogue %s\n", archs[i], version / 10, version % 10,
                  cubin.info_log && strstr(cubin.info_log, "Function properties for tcj_epilogue")
                      ? "kept as a called function" : "inlined");
    eng_cubin_free(&cubin);
    free(module);
    free(body);
    free(ptx);
    free(err);
  }
}

static void residual_add_compiles_and_its_body_joins_a_calling_kernel_for_sm80_and_sm90a(void **state) {
  (void)state;
  expect_joins(residual_add);
}

/* sinf brings a module-scope table (__cudart_i2opi_f) and a local stack array, the helper a
 * second function: all of it must join. */
static void epilogue_with_math_and_a_helper_joins_too(void **state) {
  (void)state;
  expect_joins("__device__ float twice(float x) { return 2.0f * x; }\n"
               "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
               "                                         long long batch, const void *params) {\n"
               "  return twice(sinf(v) + erff(c) + tanhf(v) + (float)(row + col + batch));\n"
               "}\n");
}

static void error_on_the_users_line_3_is_reported_as_epilogue_cu_3(void **state) {
  (void)state;
  skip_without_nvrtc();
  static const char source[] =
      "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
      "                                         long long batch, const void *params) {\n"
      "  return v + no_such_variable;\n"
      "}\n";
  char err[ERR_SIZE];
  compile(source, "sm_80", TCJ_ERROR_COMPILE, err);
  assert_true(strncmp(err, "user epilogue does not compile:\n", strlen("user epilogue does not compile:\n")) == 0);
  if (!strstr(err, "epilogue.cu(3)")) fail_msg("no 'epilogue.cu(3)' in: %s", err);
  if (strstr(err, "/dev/null")) fail_msg("the program's directory shows: %s", err);
  assert_non_null(strstr(err, "no_such_variable"));
}

static void definition_with_another_signature_does_not_compile(void **state) {
  (void)state;
  skip_without_nvrtc();
  static const char *const sources[] = {
      /* returns double */
      "extern \"C\" __device__ double tcj_epilogue(float v, float c, long long row, long long col,\n"
      "                                          long long batch, const void *params) { return v; }\n",
      /* int indices */
      "extern \"C\" __device__ float tcj_epilogue(float v, float c, int row, int col, int batch,\n"
      "                                         const void *params) { return v; }\n",
  };
  for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
    char err[ERR_SIZE];
    compile(sources[i], "sm_90a", TCJ_ERROR_COMPILE, err);
    assert_non_null(strstr(err, "user epilogue does not compile"));
    assert_non_null(strstr(err, "epilogue.cu(1)"));
    if (!strstr(err, TCJ_EPILOGUE_SIGNATURE)) fail_msg("the message does not give the signature: %s", err);
  }
}

static void source_that_defines_no_tcj_epilogue_is_a_compile_error(void **state) {
  (void)state;
  skip_without_nvrtc();
  static const char *const sources[] = {
      "extern \"C\" __device__ float my_epilogue(float v) { return 2.0f * v; }\n",
      "",
      /* inline: NVRTC emits no function nobody calls */
      ("extern \"C\" __device__ __forceinline__ float tcj_epilogue(float v, float c, long long row,\n"
       "    long long col, long long batch, const void *params) { return v; }\n"),
  };
  for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
    char err[ERR_SIZE];
    compile(sources[i], "sm_80", TCJ_ERROR_COMPILE, err);
    if (!strstr(err, "defines no function tcj_epilogue (is it static, inline or a template?)")) fail_msg("source %zu: %s", i, err);
    assert_non_null(strstr(err, TCJ_EPILOGUE_SIGNATURE));
  }
}

static void null_source_and_unknown_arch_are_invalid_values(void **state) {
  (void)state;
  char *ptx = (char *)1, err[256];
  size_t len = 1;
  assert_int_equal(eng_nvrtc_compile_epilogue(NULL, "sm_80", &ptx, &len, err, sizeof err), TCJ_ERROR_INVALID_VALUE);
  assert_null(ptx);
  assert_int_equal(len, 0);
  static const char *const archs[] = {"compute_80", "sm_", "sm_8", "sm_90b", "sm_1000", "80", ""};
  for (size_t i = 0; i < sizeof archs / sizeof *archs; i++) {
    tcj_status st = eng_nvrtc_compile_epilogue(residual_add, archs[i], &ptx, &len, err, sizeof err);
    if (st != TCJ_ERROR_INVALID_VALUE) fail_msg("arch '%s': %s", archs[i], tcj_status_string(st));
    assert_non_null(strstr(err, "arch"));
  }
  assert_int_equal(eng_nvrtc_compile_epilogue(residual_add, NULL, &ptx, &len, err, sizeof err),
                   TCJ_ERROR_INVALID_VALUE);
}

/* Every arch tcj targets; compute_100a needs NVRTC 12.8 or later, refused as not supported. */
static void every_tcj_arch_compiles_or_is_not_supported(void **state) {
  (void)state;
  skip_without_nvrtc();
  static const char *const archs[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_120"};
  for (size_t i = 0; i < sizeof archs / sizeof *archs; i++) {
    char *ptx = NULL, err[ERR_SIZE];
    size_t len = 0;
    tcj_status st = eng_nvrtc_compile_epilogue(residual_add, archs[i], &ptx, &len, err, sizeof err);
    if (st == TCJ_ERROR_NOT_SUPPORTED) {
      print_message("%s: %s\n", archs[i], err);
      continue;
    }
    if (st != TCJ_SUCCESS) fail_msg("%s: %s: %s", archs[i], tcj_status_string(st), err);
    free(ptx);
  }
}

typedef struct worker {
  pthread_t thread;
  const char *arch;
  tcj_status st;
  char *ptx;
  char err[512];
} worker;

static void *compile_worker(void *arg) {
  worker *w = arg;
  size_t len;
  w->st = eng_nvrtc_compile_epilogue(residual_add, w->arch, &w->ptx, &len, w->err, sizeof w->err);
  return NULL;
}

static void concurrent_compiles_all_succeed_and_agree(void **state) {
  (void)state;
  skip_without_nvrtc();
  enum { THREADS = 8 };
  worker w[THREADS];
  memset(w, 0, sizeof w);
  for (int i = 0; i < THREADS; i++) {
    w[i].arch = i % 2 ? "sm_90a" : "sm_80";
    assert_int_equal(pthread_create(&w[i].thread, NULL, compile_worker, &w[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(w[i].thread, NULL), 0);
  for (int i = 0; i < THREADS; i++) {
    if (w[i].st != TCJ_SUCCESS) fail_msg("thread %d (%s): %s", i, w[i].arch, w[i].err);
    assert_string_equal(w[i].ptx, w[i % 2].ptx);
  }
  for (int i = 0; i < THREADS; i++) free(w[i].ptx);
}

/* The key of the source alone: a process without NVRTC computes the one a process with it
 * did (the disk key names NVRTC: test_cache_key). */
static void epilogue_hash_changes_with_one_byte_of_source_and_needs_no_nvrtc(void **state) {
  (void)state;
  uint64_t h = eng_epilogue_hash(residual_add);
  assert_int_not_equal(h, 0);
  eng_nvrtc_hide(1);
  assert_int_equal(h, eng_epilogue_hash(residual_add));
  eng_nvrtc_hide(0);
  char *other = strdup(residual_add);
  assert_non_null(other);
  other[strlen(other) - 3] ^= 1; /* one bit of one byte */
  assert_int_not_equal(eng_epilogue_hash(other), h);
  free(other);
  assert_int_not_equal(eng_epilogue_hash(""), 0);
  assert_int_equal(eng_epilogue_hash(NULL), eng_epilogue_hash(""));
  /* XXH3-64 of the text, pinned: the key of a source must not change between builds. */
  assert_int_equal(eng_epilogue_hash("a"), 0xe6c632b61e964e1full);
}

/* The epilogue's kernel is keyed by its source text alone: an included file that changes
 * would leave the key on another kernel, so every include is refused, before NVRTC reads one
 * (the relative one from the working directory, where NVRTC looks for it). */
static void include_of_a_file_is_refused_before_nvrtc_reads_it(void **state) {
  (void)state;
  skip_without_nvrtc();
  char dir[] = "/tmp/tcj-epilogue-include-XXXXXX", cwd[4096], path[4200];
  assert_non_null(mkdtemp(dir));
  assert_non_null(getcwd(cwd, sizeof cwd));
  snprintf(path, sizeof path, "%s/helper.h", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("#define SCALE 2.0f\n", f);
  fclose(f);
  char relative[512], absolute[4600];
  static const char body[] =
      "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
      "                                         long long batch, const void *params) { return SCALE * v; }\n";
  snprintf(relative, sizeof relative, "// scaled\n#include \"helper.h\"\n%s", body);
  snprintf(absolute, sizeof absolute, "#include \"%s\"\n%s", path, body);
  assert_int_equal(chdir(dir), 0);
  char err[ERR_SIZE];
  compile(relative, "sm_80", TCJ_ERROR_NOT_SUPPORTED, err);
  assert_int_equal(chdir(cwd), 0);
  if (!strstr(err, "user epilogue: line 2: #include reads the file system")) fail_msg("message: %s", err);
  compile(absolute, "sm_90a", TCJ_ERROR_NOT_SUPPORTED, err);
  if (!strstr(err, "user epilogue: line 1: #include reads the file system")) fail_msg("message: %s", err);
  /* The same epilogue with the definition written into it compiles. */
  char inline_source[512];
  snprintf(inline_source, sizeof inline_source, "#define SCALE 2.0f\n%s", body);
  free(compile(inline_source, "sm_80", TCJ_SUCCESS, err));
  assert_int_equal(unlink(path), 0);
  assert_int_equal(rmdir(dir), 0);
}

/* NVRTC 13.0's module for a small epilogue, with a helper and a constant, as written. */
static const char nvrtc_module[] =
    "//\n"
    "// Generated by NVIDIA NVVM Compiler\n"
    "//\n"
    "// Cuda compilation tools, release 13.0, V13.0.88\n"
    "//\n"
    "\n"
    ".version 8.6\n"
    ".target sm_90a\n"
    ".address_size 64\n"
    "\n"
    "\t// .globl\ttcj_epilogue\n"
    ".global .align 4 .f32 half_scale = 0f3F000000;\n"
    "\n"
    ".func  (.param .b32 func_retval0) _Z4twicef(\n"
    "\t.param .b32 _Z4twicef_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .f32 \t%f<3>;\n"
    "\tld.param.f32 \t%f1, [_Z4twicef_param_0];\n"
    "\tadd.f32 \t%f2, %f1, %f1;\n"
    "\tst.param.f32 \t[func_retval0+0], %f2;\n"
    "\tret;\n"
    "}\n"
    ".visible .func  (.param .b32 func_retval0) tcj_epilogue(\n"
    "\t.param .b32 tcj_epilogue_param_0,\n"
    "\t.param .b32 tcj_epilogue_param_1,\n"
    "\t.param .b64 tcj_epilogue_param_2,\n"
    "\t.param .b64 tcj_epilogue_param_3,\n"
    "\t.param .b64 tcj_epilogue_param_4,\n"
    "\t.param .b64 tcj_epilogue_param_5\n"
    ")\n"
    "{\n"
    "\t.reg .f32 \t%f<2>;\n"
    "\tld.param.f32 \t%f1, [tcj_epilogue_param_0];\n"
    "\tst.param.f32 \t[func_retval0+0], %f1;\n"
    "\tret;\n"
    "}\n";

static void body_strips_the_header_and_comments_and_reports_the_version(void **state) {
  (void)state;
  int version = -1;
  char *body = NULL, err[512];
  size_t len = 0;
  if (ptx_user_epilogue_body(nvrtc_module, &version, &body, &len, err, sizeof err) != 0) fail_msg("%s", err);
  assert_int_equal(version, 86);
  assert_int_equal(len, strlen(body));
  assert_null(strstr(body, ".version"));
  assert_null(strstr(body, ".target"));
  assert_null(strstr(body, ".address_size"));
  assert_null(strstr(body, "//"));
  assert_non_null(strstr(body, ".global .align 4 .f32 half_scale = 0f3F000000;\n"));
  assert_non_null(strstr(body, ".func  (.param .b32 func_retval0) _Z4twicef("));
  assert_non_null(strstr(body, ".visible .func  (.param .b32 func_retval0) tcj_epilogue(\n"));
  /* the body ends as the module did, with the function's closing brace */
  assert_true(len >= 2 && strcmp(body + len - 2, "}\n") == 0);
  free(body);

  char *v90 = strdup(nvrtc_module);
  assert_non_null(v90);
  memcpy(strstr(v90, "8.6"), "9.0", 3);
  assert_int_equal(ptx_user_epilogue_body(v90, &version, &body, &len, err, sizeof err), 0);
  assert_int_equal(version, 90);
  free(body);
  free(v90);
}

/* nvrtc_module with the text `from` replaced by `to`, then ptx_user_epilogue_body must refuse it
 * with a message containing `why`. */
static void expect_refused(const char *from, const char *to, const char *why) {
  const char *at = strstr(nvrtc_module, from);
  assert_non_null(at);
  size_t head = (size_t)(at - nvrtc_module), size = sizeof nvrtc_module + strlen(to);
  char *text = malloc(size);
  assert_non_null(text);
  snprintf(text, size, "%.*s%s%s", (int)head, nvrtc_module, to, at + strlen(from));
  int version = -1;
  char *body = (char *)1, err[512] = "";
  size_t len = 1;
  if (ptx_user_epilogue_body(text, &version, &body, &len, err, sizeof err) != -1)
    fail_msg("accepted with '%s' for '%s'", to, from);
  assert_null(body);
  assert_int_equal(len, 0);
  if (!strstr(err, why)) fail_msg("'%s' for '%s': message '%s' lacks '%s'", to, from, err, why);
  print_message("%s\n", err);
  free(text);
}

static void body_refuses_text_without_the_function(void **state) {
  (void)state;
  const char *none = "defines no function tcj_epilogue";
  /* another name, a longer name, a declaration only */
  expect_refused(") tcj_epilogue(\n", ") my_epilogue(\n", none);
  expect_refused(") tcj_epilogue(\n", ") tcj_epilogue2(\n", none);
  expect_refused(".visible .func  (.param .b32 func_retval0) tcj_epilogue(",
                 ".extern .func (.param .b32 func_retval0) tcj_epilogue(.param .b32 a, .param .b32 b, .param "
                 ".b64 c, .param .b64 d, .param .b64 e, .param .b64 f);\n.func (.param .b32 r) unused(",
                 none);
  int version;
  char *body, err[256];
  size_t len;
  assert_int_equal(ptx_user_epilogue_body("", &version, &body, &len, err, sizeof err), -1);
  assert_int_equal(ptx_user_epilogue_body(NULL, &version, &body, &len, err, sizeof err), -1);
  assert_null(body);
}

static void body_refuses_bad_headers_other_types_kernels_and_tcj_names(void **state) {
  (void)state;
  expect_refused(".version 8.6\n", "", "no .version");
  expect_refused(".version 8.6\n", ".version 8\n", "cannot read");
  expect_refused(".address_size 64\n", ".address_size 32\n", "not 64-bit");
  expect_refused(".address_size 64\n", "", "not 64-bit");
  /* an NVRTC that wrote the floats as .f32: tcj's declaration would not assemble against it */
  expect_refused("\t.param .b32 tcj_epilogue_param_0,", "\t.param .f32 tcj_epilogue_param_0,",
                 ".func (.param .b32) (.param .f32, .param .b32, .param .b64");
  expect_refused(".param .b64 tcj_epilogue_param_5\n", ".param .b64 tcj_epilogue_param_5, .param .b64 x\n",
                 "tcj declares and calls");
  expect_refused(".param .b32 func_retval0) tcj_epilogue(", ".param .b64 func_retval0) tcj_epilogue(",
                 "tcj declares and calls");
  expect_refused("\n.func  (.param .b32 func_retval0) _Z4twicef(", "\n.visible .entry k(", "(.entry)");
  expect_refused("half_scale", "tcj_smem", "tcj_smem");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(available_names_nvrtcs_version_and_hide_makes_it_unavailable),
    cmocka_unit_test(user_epilogue_call_is_keyed_and_selected_without_nvrtc),
    cmocka_unit_test(residual_add_compiles_and_its_body_joins_a_calling_kernel_for_sm80_and_sm90a),
    cmocka_unit_test(epilogue_with_math_and_a_helper_joins_too),
    cmocka_unit_test(error_on_the_users_line_3_is_reported_as_epilogue_cu_3),
    cmocka_unit_test(definition_with_another_signature_does_not_compile),
    cmocka_unit_test(source_that_defines_no_tcj_epilogue_is_a_compile_error),
    cmocka_unit_test(null_source_and_unknown_arch_are_invalid_values),
    cmocka_unit_test(every_tcj_arch_compiles_or_is_not_supported),
    cmocka_unit_test(concurrent_compiles_all_succeed_and_agree),
    cmocka_unit_test(epilogue_hash_changes_with_one_byte_of_source_and_needs_no_nvrtc),
    cmocka_unit_test(include_of_a_file_is_refused_before_nvrtc_reads_it),
    cmocka_unit_test(body_strips_the_header_and_comments_and_reports_the_version),
    cmocka_unit_test(body_refuses_text_without_the_function),
    cmocka_unit_test(body_refuses_bad_headers_other_types_kernels_and_tcj_names),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
