/* SPDX-License-Identifier: Apache-2.0 */
/* A tcj PTX module as CUDA C++ for NVRTC's whole-program compile: see ptx_cuda.h for why and
 * for the translation. The PTX is tcj's own (ptxgen's builder), so the parser knows its layout:
 * a header, an optional extern shared array, then entries written as
 *   .visible .entry NAME(
 *   \t.param TYPE NAME,
 *   ...
 *   )
 *   DIRECTIVES
 *   {
 *   BODY
 *   }
 * and refuses anything else. */
#include "engine/ptx_cuda.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PARAMS = 64, NAME_MAX_LEN = 64 };

typedef struct text {
  char *buf;
  size_t len, cap;
  int failed;
} text;

static void put(text *t, const char *s, size_t n) {
  if (t->failed) return;
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->len + n + 1) cap *= 2;
    char *p = realloc(t->buf, cap);
    if (!p) {
      t->failed = 1;
      return;
    }
    t->buf = p;
    t->cap = cap;
  }
  memcpy(t->buf + t->len, s, n);
  t->len += n;
  t->buf[t->len] = '\0';
}

static void putf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(text *t, const char *fmt, ...) {
  char s[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(s, sizeof s, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof s) t->failed = 1;
  else put(t, s, (size_t)n);
}

typedef struct line {
  const char *s;
  size_t n;
} line;

/* The next line of [*at, end) without its '\n'; 0 at the end. */
static int next_line(const char **at, const char *end, line *out) {
  if (*at >= end) return 0;
  const char *nl = memchr(*at, '\n', (size_t)(end - *at));
  out->s = *at;
  out->n = (size_t)((nl ? nl : end) - *at);
  *at = nl ? nl + 1 : end;
  return 1;
}

static int starts(line l, const char *prefix) {
  size_t n = strlen(prefix);
  return l.n >= n && memcmp(l.s, prefix, n) == 0;
}

static int blank(line l) {
  for (size_t i = 0; i < l.n; i++)
    if (l.s[i] != ' ' && l.s[i] != '\t' && l.s[i] != '\r') return 0;
  return 1;
}

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* The line as a NUL-terminated copy in buf (lines longer than buf are refused by the caller). */
static int copy_line(line l, char *buf, size_t size) {
  if (l.n >= size) return -1;
  memcpy(buf, l.s, l.n);
  buf[l.n] = '\0';
  return 0;
}

typedef struct param {
  char name[NAME_MAX_LEN];
  char ctype[NAME_MAX_LEN]; /* the C type, or "" for a byte array */
  int align, bytes;         /* a byte array's */
} param;

/* "\t.param .u64 p_a," or "\t.param .align 64 .b8 p_tmap_a[128]" -> p. */
static int parse_param(line l, param *p, char *why, size_t why_size) {
  static const struct {
    const char *ptx, *c;
  } scalars[] = {{".u32", "unsigned int"},          {".s32", "int"},    {".u64", "unsigned long long"},
                 {".s64", "long long"},             {".f32", "float"},  {".f64", "double"},
                 {".b32", "unsigned int"},          {".b64", "unsigned long long"}};
  char s[256], type[32], name[NAME_MAX_LEN + 8];
  memset(p, 0, sizeof *p);
  if (copy_line(l, s, sizeof s) != 0) goto bad;
  char *comma = strrchr(s, ',');
  if (comma && comma[1] == '\0') *comma = '\0';
  if (sscanf(s, " .param .align %d .b8 %70[A-Za-z0-9_$][%d]", &p->align, name, &p->bytes) == 3) {
    if (p->align < 1 || p->align > 256 || (p->align & (p->align - 1)) || p->bytes < 1 || p->bytes > 4096) goto bad;
    if (strlen(name) >= sizeof p->name) goto bad;
    strcpy(p->name, name);
    return 0;
  }
  int used = 0;
  if (sscanf(s, " .param %31s %70[A-Za-z0-9_$]%n", type, name, &used) != 2 || s[used] != '\0') goto bad;
  if (strlen(name) >= sizeof p->name) goto bad;
  for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
    if (strcmp(type, scalars[i].ptx) == 0) {
      strcpy(p->name, name);
      strcpy(p->ctype, scalars[i].c);
      return 0;
    }
bad:
  snprintf(why, why_size, "parameter line '%.*s' is not one the translation knows", (int)(l.n > 120 ? 120 : l.n), l.s);
  return -1;
}

/* The body line as C string content, with the entry's parameters renamed FUNC_param_I: each
 * identifier that stands alone (not a register's %name, a .directive or part of a longer name). */
static void put_body_line(text *t, line l, const char *entry, const param *params, int count) {
  put(t, "\"", 1);
  size_t i = 0;
  while (i < l.n) {
    char c = l.s[i];
    if (ident_char(c) && !(c >= '0' && c <= '9') && (i == 0 || (!ident_char(l.s[i - 1]) && l.s[i - 1] != '%' && l.s[i - 1] != '.'))) {
      size_t j = i;
      while (j < l.n && ident_char(l.s[j])) j++;
      int k = 0;
      for (; k < count; k++)
        if (strlen(params[k].name) == j - i && memcmp(params[k].name, l.s + i, j - i) == 0) break;
      if (k < count) putf(t, "%s_param_%d", entry, k);
      else put(t, l.s + i, j - i);
      i = j;
      continue;
    }
    if (c == '"' || c == '\\') put(t, "\\", 1);
    if (c != '\r') put(t, &c, 1);
    i++;
  }
  put(t, "\\n\"\n", 4);
}

/* Braces opened minus closed on a line (PTX vector operands open and close on one line). */
static int brace_delta(line l) {
  int d = 0;
  for (size_t i = 0; i < l.n; i++) {
    if (l.s[i] == '/' && i + 1 < l.n && l.s[i + 1] == '/') break;
    d += l.s[i] == '{' ? 1 : l.s[i] == '}' ? -1 : 0;
  }
  return d;
}

/* One entry, from the line after ".visible .entry NAME(" to its closing brace. */
static int translate_entry(text *t, const char *entry, const char **at, const char *end, const char *smem, char *why,
                           size_t why_size) {
  param params[MAX_PARAMS];
  int count = 0;
  line l;
  for (;;) {
    if (!next_line(at, end, &l)) goto truncated;
    if (starts(l, ")")) break;
    if (count == MAX_PARAMS) {
      snprintf(why, why_size, "entry %s has more than %d parameters", entry, MAX_PARAMS);
      return -1;
    }
    if (parse_param(l, &params[count], why, why_size) != 0) return -1;
    count++;
  }
  char attrs[256] = "";
  int maxntid = 0, maxnreg = 0, cx = 0, cy = 0, cz = 0;
  for (;;) {
    if (!next_line(at, end, &l)) goto truncated;
    if (starts(l, "{")) break;
    char s[128] = "";
    int x, y, z, used = 0, copied = copy_line(l, s, sizeof s) == 0;
    if (copied && sscanf(s, ".maxntid %d, %d, %d%n", &x, &y, &z, &used) == 3 && !s[used] && y == 1 && z == 1)
      maxntid = x;
    else if (copied && sscanf(s, ".maxnreg %d%n", &x, &used) == 1 && !s[used])
      maxnreg = x;
    else if (copied && sscanf(s, ".reqnctapercluster %d, %d, %d%n", &cx, &cy, &cz, &used) == 3 && !s[used])
      ;
    else {
      snprintf(why, why_size, "entry %s: directive '%.*s' is not one the translation knows", entry,
               (int)(l.n > 80 ? 80 : l.n), l.s);
      return -1;
    }
  }
  size_t n = 0;
  if (maxnreg) n += (size_t)snprintf(attrs + n, sizeof attrs - n, " __maxnreg__(%d)", maxnreg);
  else if (maxntid) n += (size_t)snprintf(attrs + n, sizeof attrs - n, " __launch_bounds__(%d)", maxntid);
  if (cx) snprintf(attrs + n, sizeof attrs - n, " __cluster_dims__(%d, %d, %d)", cx, cy, cz);

  for (int i = 0; i < count; i++)
    if (!params[i].ctype[0])
      putf(t, "struct __align__(%d) %s_param_%d_bytes { unsigned char b[%d]; };\n", params[i].align, entry, i,
           params[i].bytes);
  putf(t, "extern \"C\" __global__ void%s %s(", attrs, entry);
  for (int i = 0; i < count; i++) {
    if (i) put(t, ",", 1);
    if (params[i].ctype[0]) putf(t, "\n    %s %s", params[i].ctype, params[i].name);
    else
      putf(t, "\n    const __grid_constant__ %s_param_%d_bytes %s", entry, i, params[i].name);
  }
  put(t, ") {\n", 4);
  if (smem) putf(t, "  asm volatile(\"\" ::\"l\"(%s)); /* keeps the extern shared array the body names */\n", smem);
  static const char open[] = "  asm volatile(\n\"{\\n\"\n", close[] = "\"}\\n\");\n}\n\n";
  put(t, open, sizeof open - 1);
  int depth = brace_delta(l); /* the "{" line: 1 */
  for (;;) {
    if (!next_line(at, end, &l)) goto truncated;
    depth += brace_delta(l);
    if (depth == 0) break;
    put_body_line(t, l, entry, params, count);
  }
  put(t, close, sizeof close - 1);
  return 0;
truncated:
  snprintf(why, why_size, "entry %s ends before its body does", entry);
  return -1;
}

int eng_ptx_as_cuda(const char *ptx, size_t len, char **source, char *why, size_t why_size) {
  *source = NULL;
  text t = {0};
  const char *at = ptx, *end = ptx + len;
  while (end > ptx && end[-1] == '\0') end--;
  char smem[NAME_MAX_LEN] = "";
  int entries = 0;
  static const char banner[] = "/* A tcj PTX module as CUDA C++ for a whole-program compile (engine/ptx_cuda.h). */\n";
  put(&t, banner, sizeof banner - 1);
  line l;
  while (next_line(&at, end, &l)) {
    char s[256], name[NAME_MAX_LEN + 8];
    int align, used = 0;
    if (blank(l) || starts(l, "//") || starts(l, ".version ") || starts(l, ".target ") || starts(l, ".address_size "))
      continue;
    if (copy_line(l, s, sizeof s) == 0 &&
        sscanf(s, ".extern .shared .align %d .b8 %70[A-Za-z0-9_$][]%n", &align, name, &used) == 2 &&
        strcmp(s + used, ";") == 0 && !smem[0] && strlen(name) < sizeof smem && align >= 1 && align <= 4096) {
      strcpy(smem, name);
      putf(&t, "extern __shared__ __align__(%d) unsigned char %s[];\n\n", align, name);
      continue;
    }
    if (copy_line(l, s, sizeof s) == 0 && sscanf(s, ".visible .entry %70[A-Za-z0-9_$](%n", name, &used) == 1 &&
        s[used] == '\0' && strlen(name) < NAME_MAX_LEN) {
      if (translate_entry(&t, name, &at, end, smem[0] ? smem : NULL, why, why_size) != 0) goto fail;
      entries++;
      continue;
    }
    snprintf(why, why_size, "module line '%.*s' is not one the translation knows", (int)(l.n > 80 ? 80 : l.n), l.s);
    goto fail;
  }
  if (!entries) {
    snprintf(why, why_size, "the module has no entry");
    goto fail;
  }
  if (t.failed) {
    snprintf(why, why_size, "out of host memory for the CUDA C++ of a %zu-byte module", len);
    goto fail;
  }
  *source = t.buf;
  return 0;
fail:
  free(t.buf);
  return -1;
}
