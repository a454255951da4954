/* SPDX-License-Identifier: Apache-2.0 */
/* engine/epilogue_source.c: the directives of a user epilogue that read files are found in
 * every spelling the preprocessor accepts, and the same text inside comments and literals is
 * not taken for one. No NVRTC needed (test_nvrtc.c checks the refusal through a compile). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/epilogue_source.h"

static void expect_refused(const char *source, int line, const char *what) {
  char why[1024] = "", expect[64];
  if (eng_epilogue_source_check(source, why, sizeof why) != -1) fail_msg("accepted:\n%s", source);
  snprintf(expect, sizeof expect, "line %d: %s reads the file system", line, what);
  if (strncmp(why, expect, strlen(expect)) != 0) fail_msg("'%s' is not '%s...' for:\n%s", why, expect, source);
}

static void expect_accepted(const char *source) {
  char why[1024] = "";
  if (eng_epilogue_source_check(source, why, sizeof why) != 0) fail_msg("refused (%s):\n%s", why, source);
}

static void include_in_every_spelling_is_refused_with_its_line(void **state) {
  (void)state;
  expect_refused("#include \"helper.h\"\n", 1, "#include");
  expect_refused("#include <cuda_fp16.h>\n", 1, "#include");
  expect_refused("#include \"/abs/path/helper.h\"\n", 1, "#include");
  expect_refused("  #  include \"helper.h\"\n", 1, "#include");
  expect_refused("\t# \t include\"helper.h\"\n", 1, "#include");
  expect_refused("#define H \"helper.h\"\n#include H\n", 2, "#include");
  expect_refused("%:include \"helper.h\"\n", 1, "#include");
  expect_refused("/* a comment first */ # /* and one here */ include \"x.h\"\n", 1, "#include");
  expect_refused("/* a comment\n   over lines */ #include \"x.h\"\n", 2, "#include");
  expect_refused("#\\\ninclude \"x.h\"\n", 1, "#include");
  expect_refused("#inc\\\nlude \"x.h\"\n", 1, "#include");
  expect_refused("#inc\\\r\nlude \"x.h\"\n", 1, "#include");
  expect_refused("\\\n#include \"x.h\"\n", 2, "#include");
  expect_refused("#include_next \"x.h\"\n", 1, "#include_next");
  expect_refused("#import \"x.h\"\n", 1, "#import");
  expect_refused("#embed \"x.bin\"\n", 1, "#embed");
  expect_refused("#if 0\n#include \"x.h\"\n#endif\n", 2, "#include");
  /* after everything the scanner must step over correctly */
  expect_refused("const char *s = \"// not a comment\";\n"
                 "const char *r = R\"x(a \" quote and )\" inside)x\";\n"
                 "int n = 1'000'000 + 0x1'0p+1 + 'a' + '\\'' + L'b' + u8\"c\"[0];\n"
                 "/* \" */ // '\n"
                 "#include \"x.h\"\n",
                 5, "#include");
}

static void has_include_anywhere_is_refused(void **state) {
  (void)state;
  expect_refused("#if __has_include(\"x.h\")\n#endif\n", 1, "__has_include");
  expect_refused("#if defined(__has_include) && __has_include(<x.h>)\n#endif\n", 1, "__has_include");
  expect_refused("#define HAS __has_include\n", 1, "__has_include");
  expect_refused("#ifdef __has_include_next\n#endif\n", 1, "__has_include_next");
  expect_refused("\n\n#if __has_embed(\"x\")\n#endif\n", 3, "__has_embed");
  expect_refused("#if __has_\\\ninclude(\"x.h\")\n#endif\n", 1, "__has_include");
}

static void include_text_in_comments_and_literals_is_accepted(void **state) {
  (void)state;
  expect_accepted(NULL);
  expect_accepted("");
  expect_accepted("// #include \"x.h\"\n");
  expect_accepted("/* #include \"x.h\"\n#include \"y.h\" */\n");
  expect_accepted("const char *s = \"#include \\\"x.h\\\"\";\n");
  expect_accepted("const char *s = \"\\\n#include\";\n");
  expect_accepted("const char *r = R\"(\n#include \"x.h\"\n)\";\n");
  expect_accepted("const char *r = u8R\"--(\n#include )\" )--\";\n");
  expect_accepted("const char c = '#';\n#define X 1\n");
  expect_accepted("#define STR(x) #x\nconst char *s = STR(include);\n");
  expect_accepted("#define CAT(a, b) a ## b\n#define CAT2(a, b) a %:%: b\n");
  expect_accepted("int x = 1; # include\n"); /* not at the start of its line: no directive */
  expect_accepted("int has_include_count, __has_includes, include;\n#pragma unroll\n#line 7 \"x.h\"\n");
  expect_accepted("#define X(a) a % 2\n");
  expect_accepted("int n = 1'2'3;\n#define Y 1\n");
  expect_accepted("int n = 1'0; /* a quote ' that a digit separator is not\n#include \"x.h\"\n*/\n");
}

/* A typical epilogue, with macros and modulo, passes. */
static void residual_add_with_macros_is_accepted(void **state) {
  (void)state;
  expect_accepted("#define SCALE 0.5f\n"
                  "#pragma once\n"
                  "struct residual { const float *r; long long ld; };\n"
                  "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n"
                  "                                         long long batch, const void *params) {\n"
                  "  const residual *p = (const residual *)params;\n"
                  "  return (row % 2 ? v : c) + SCALE * p->r[row * p->ld + col];\n"
                  "}\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(include_in_every_spelling_is_refused_with_its_line),
    cmocka_unit_test(has_include_anywhere_is_refused),
    cmocka_unit_test(include_text_in_comments_and_literals_is_accepted),
    cmocka_unit_test(residual_add_with_macros_is_accepted),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
