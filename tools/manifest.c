/* SPDX-License-Identifier: Apache-2.0 */
/* Manifest parser: libyaml's document API builds the node tree, then one walk checks every key
 * and value against its position and expands list- and grid-valued sizes into problems. libyaml
 * keeps plain and quoted scalars apart, so `m: "12"` is a string here, as in any YAML reader. */
#include "tools/manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/tools_api.h"

#include <yaml.h>

#include "engine/tools_api.h"

typedef struct ctx {
  const char *file;
  size_t dir_len; /* file's directory: its first dir_len bytes (0: none, paths stay as given) */
  yaml_document_t *doc;
  char *err;
  size_t err_size;
} ctx;

typedef struct sizes {
  int64_t *v;
  size_t n, cap;
} sizes;

/* The types each key takes, by name (tcj_dtype_name). f32 operands are TCJ_F32 (fp32 accuracy:
 * 3xTF32), tf32 ones TCJ_TF32 (the fast tf32 path). */
typedef struct type_set { const tcj_dtype *t; size_t count, shown; } type_set;
static const tcj_dtype ab_list[] = {TCJ_F16, TCJ_BF16, TCJ_F32, TCJ_TF32, TCJ_F64, TCJ_E4M3, TCJ_E5M2, TCJ_S8};
/* C's and D's; fp8 only for a D apart from C (never a C that is read: c_dtype names the first
 * five, and an fp8 C is refused with its own message). */
static const tcj_dtype out_list[] = {TCJ_F16, TCJ_BF16, TCJ_F32, TCJ_F64, TCJ_S32, TCJ_E4M3, TCJ_E5M2};
static const tcj_dtype b_list[] = {TCJ_E4M3, TCJ_E5M2}; /* b_dtype: the other operand of an fp8 pair */
#define SET(list, shown) {list, sizeof list / sizeof *list, shown}
static const type_set ab_set = SET(ab_list, 8), c_set = SET(out_list, 5), d_set = SET(out_list, 7),
                      b_set = SET(b_list, 2);
#define PROBLEM_KEYS \
  "name, m, n, k, dtype, b_dtype, c_dtype, d_dtype, op_a, op_b, epilogue, batch, broadcast_b, epilogue_source, " \
  "fast_accum, scale, group, row_scale, b_ptrs, gather, scatter, cublas_*"
#define EPILOGUE_LIST "none bias bias_relu bias_gelu bias_gelu_tanh bias_silu swiglu bias_swiglu"
#define TOP_KEYS "suite, dtype, targets, problems"
#define GROUP_KEYS "mode, experts, ep, tokens, topk, max_rows, skew, exponent, seed, ends"
#define ARCH_LIST "sm_80 sm_86 sm_87 sm_89 sm_90[a] sm_100[a] sm_120[a]"

static const struct epilogue_info {
  const char *name;
  tcj_bias_kind bias;
  tcj_activation act;
} epilogues[MANIFEST_EPI_COUNT] = {
#define MANIFEST_EPI_INFO(name, e, bias, act) [e] = {name, bias, act},
  MANIFEST_EPILOGUE_LIST(MANIFEST_EPI_INFO)
#undef MANIFEST_EPI_INFO
};

const char *manifest_epilogue_name(manifest_epilogue e) {
  return (unsigned)e < MANIFEST_EPI_COUNT ? epilogues[e].name : "?";
}
tcj_bias_kind manifest_epilogue_bias(manifest_epilogue e) {
  return (unsigned)e < MANIFEST_EPI_COUNT ? epilogues[e].bias : TCJ_BIAS_NONE;
}
tcj_activation manifest_epilogue_act(manifest_epilogue e) {
  return (unsigned)e < MANIFEST_EPI_COUNT ? epilogues[e].act : TCJ_ACT_NONE;
}

static int failf(ctx *c, yaml_mark_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int failf(ctx *c, yaml_mark_t at, const char *fmt, ...) {
  if (!c->err || c->err_size == 0) return -1;
  int len = snprintf(c->err, c->err_size, "%s:%zu:%zu: ", c->file, at.line + 1, at.column + 1);
  if (len >= 0 && (size_t)len < c->err_size) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + len, c->err_size - (size_t)len, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static int oom(ctx *c) {
  if (c->err && c->err_size) snprintf(c->err, c->err_size, "%s: out of memory", c->file);
  return -1;
}

static yaml_node_t *node(ctx *c, int index) { return yaml_document_get_node(c->doc, index); }
static const char *text(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }
static int plain(const yaml_node_t *n) { return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE; }

/* YAML's null spellings: `m:` with nothing after it reads as an empty plain scalar. */
static int is_null(const yaml_node_t *n) {
  static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
  if (n->type != YAML_SCALAR_NODE || !plain(n)) return 0;
  for (size_t i = 0; i < sizeof nulls / sizeof *nulls; i++)
    if (strcmp(text(n), nulls[i]) == 0) return 1;
  return 0;
}

/* A node as messages show it: the scalar (quoted when it was quoted), else its kind. */
static const char *show(const yaml_node_t *n, char *buf, size_t size) {
  if (n->type == YAML_MAPPING_NODE) return "a mapping";
  if (n->type == YAML_SEQUENCE_NODE) return "a list";
  if (is_null(n)) return "nothing (null)";
  const char *q = plain(n) ? "" : "\"";
  snprintf(buf, size, "%s%.40s%s%s", q, text(n), strlen(text(n)) > 40 ? "..." : "", q);
  return buf;
}

/* Keys of a mapping must be scalars and distinct: libyaml itself accepts duplicates. */
static int check_keys(ctx *c, const yaml_node_t *map) {
  char shown[64];
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(c, p->key);
    if (k->type != YAML_SCALAR_NODE)
      return failf(c, k->start_mark, "a key must be a name, got %s", show(k, shown, sizeof shown));
    for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
      yaml_node_t *first = node(c, q->key);
      if (strcmp(text(first), text(k)) == 0)
        return failf(c, k->start_mark, "duplicate key '%s' (first at line %zu, column %zu)", text(k),
                     first->start_mark.line + 1, first->start_mark.column + 1);
    }
  }
  return 0;
}

static int parse_size(ctx *c, const char *key, const yaml_node_t *n, int64_t *out) {
  char shown[64];
  if (n->type != YAML_SCALAR_NODE || !plain(n) || is_null(n))
    return failf(c, n->start_mark, "%s: expected a non-negative integer, got %s", key,
                 show(n, shown, sizeof shown));
  const char *s = text(n), *d = s + (*s == '+' || *s == '-');
  size_t digits = strspn(d, "0123456789");
  if (digits == 0 || d[digits] != '\0') {
    char *end;
    (void)strtod(s, &end);
    return failf(c, n->start_mark, "%s: expected a%s integer, got %s", key,
                 *end == '\0' ? "n" : " non-negative", show(n, shown, sizeof shown));
  }
  if (*s == '-' && d[strspn(d, "0")] != '\0') return failf(c, n->start_mark, "%s: negative size %s", key, s);
  errno = 0;
  unsigned long long v = strtoull(d, NULL, 10);
  if (errno == ERANGE || v > (unsigned long long)MANIFEST_MAX_SIZE)
    return failf(c, n->start_mark, "%s: %s is larger than %lld (2^31-1)", key, show(n, shown, sizeof shown),
                 MANIFEST_MAX_SIZE);
  *out = (int64_t)v;
  return 0;
}

static int push_size(ctx *c, const char *key, const yaml_node_t *at, sizes *s, int64_t v) {
  if (s->n >= MANIFEST_MAX_PROBLEMS)
    return failf(c, at->start_mark, "%s: more than %u values", key, MANIFEST_MAX_PROBLEMS);
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    int64_t *v2 = realloc(s->v, cap * sizeof *v2);
    if (!v2) return oom(c);
    s->v = v2;
    s->cap = cap;
  }
  s->v[s->n++] = v;
  return 0;
}

/* {from: A, to: B, mul: M} -> A, A*M, A*M^2, ... <= B; {from, to, add: D} -> A, A+D, ... <= B. */
static int parse_grid(ctx *c, const char *key, const yaml_node_t *map, sizes *out) {
  const yaml_node_t *from = NULL, *to = NULL, *mul = NULL, *add = NULL;
  if (check_keys(c, map)) return -1;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
    const char *name = text(k);
    if (strcmp(name, "from") == 0) from = v;
    else if (strcmp(name, "to") == 0) to = v;
    else if (strcmp(name, "mul") == 0) mul = v;
    else if (strcmp(name, "add") == 0) add = v;
    else return failf(c, k->start_mark, "%s: unknown grid key '%s' (from, to, mul, add)", key, name);
  }
  if (!from || !to) return failf(c, map->start_mark, "%s: a grid needs from: and to:", key);
  if (!mul == !add) return failf(c, map->start_mark, "%s: a grid needs one of mul: or add:", key);
  char label[32];
  int64_t f, t, step;
  snprintf(label, sizeof label, "%s: from", key);
  if (parse_size(c, label, from, &f)) return -1;
  snprintf(label, sizeof label, "%s: to", key);
  if (parse_size(c, label, to, &t)) return -1;
  snprintf(label, sizeof label, "%s: %s", key, mul ? "mul" : "add");
  if (parse_size(c, label, mul ? mul : add, &step)) return -1;
  if (t < f) return failf(c, to->start_mark, "%s: to: %lld is below from: %lld", key, (long long)t, (long long)f);
  if (mul && step < 2) return failf(c, mul->start_mark, "%s: mul: %lld, must be 2 or more", key, (long long)step);
  if (mul && f == 0) return failf(c, from->start_mark, "%s: from: 0 never grows with mul:", key);
  if (add && step < 1) return failf(c, add->start_mark, "%s: add: 0, must be 1 or more", key);
  /* v <= 2^31-1 and step <= 2^31-1: v * step stays far inside int64. */
  for (int64_t v = f; v <= t; v = mul ? v * step : v + step)
    if (push_size(c, key, map, out, v)) return -1;
  return 0;
}

/* m, n or k: an integer, a list of integers or a grid. */
static int parse_sizes(ctx *c, const char *key, const yaml_node_t *n, sizes *out) {
  if (n->type == YAML_MAPPING_NODE) return parse_grid(c, key, n, out);
  if (n->type == YAML_SEQUENCE_NODE) {
    if (n->data.sequence.items.start == n->data.sequence.items.top)
      return failf(c, n->start_mark, "%s: empty list", key);
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
      int64_t v;
      yaml_node_t *item = node(c, *i);
      if (parse_size(c, key, item, &v) || push_size(c, key, item, out, v)) return -1;
    }
    return 0;
  }
  int64_t v;
  return parse_size(c, key, n, &v) || push_size(c, key, n, out, v) ? -1 : 0;
}

static int parse_name(ctx *c, const char *key, const yaml_node_t *n, type_set set, tcj_dtype *out) {
  char shown[64], list[64] = "";
  if (n->type == YAML_SCALAR_NODE && !is_null(n))
    for (size_t i = 0; i < set.count; i++)
      if (strcmp(text(n), tcj_dtype_name(set.t[i])) == 0) {
        *out = set.t[i];
        return 0;
      }
  for (size_t i = 0, len = 0; i < set.shown; i++)
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? " " : "", tcj_dtype_name(set.t[i]));
  return failf(c, n->start_mark, "%s: unknown type %s (%s)", key, show(n, shown, sizeof shown), list);
}

static int parse_string(ctx *c, const char *key, const yaml_node_t *n, char **out) {
  char shown[64];
  if (n->type != YAML_SCALAR_NODE || is_null(n))
    return failf(c, n->start_mark, "%s: expected a string, got %s", key, show(n, shown, sizeof shown));
  free(*out);
  if (!(*out = strdup(text(n)))) return oom(c);
  return 0;
}

static int parse_op(ctx *c, const char *key, const yaml_node_t *n, tcj_op *out) {
  char shown[64];
  if (n->type == YAML_SCALAR_NODE && strcmp(text(n), "N") == 0) *out = TCJ_OP_N;
  else if (n->type == YAML_SCALAR_NODE && strcmp(text(n), "T") == 0) *out = TCJ_OP_T;
  else return failf(c, n->start_mark, "%s: expected N or T, got %s", key, show(n, shown, sizeof shown));
  return 0;
}

static int parse_ref(ctx *c, const char *key, const yaml_node_t *n, manifest_entry *e) {
  char shown[64], *end = NULL;
  double v = 0;
  if (n->type == YAML_SCALAR_NODE && plain(n) && !is_null(n)) v = strtod(text(n), &end);
  if (!end || *end != '\0' || !isfinite(v))
    return failf(c, n->start_mark, "%s: expected a number, got %s", key, show(n, shown, sizeof shown));
  manifest_ref *refs = realloc(e->refs, (e->nrefs + 1) * sizeof *refs);
  if (!refs) return oom(c);
  e->refs = refs;
  if (!(refs[e->nrefs].key = strdup(key))) return oom(c);
  refs[e->nrefs++].value = v;
  return 0;
}

static int parse_epilogue(ctx *c, const char *key, const yaml_node_t *n, manifest_epilogue *out) {
  char shown[64];
  if (n->type == YAML_SCALAR_NODE && !is_null(n))
    for (int i = 0; i < MANIFEST_EPI_COUNT; i++)
      if (strcmp(text(n), epilogues[i].name) == 0) {
        *out = (manifest_epilogue)i;
        return 0;
      }
  return failf(c, n->start_mark, "%s: unknown epilogue %s (" EPILOGUE_LIST ")", key, show(n, shown, sizeof shown));
}

static int parse_batch(ctx *c, const char *key, const yaml_node_t *n, int64_t *out) {
  char shown[64];
  if (n->type != YAML_SCALAR_NODE)
    return failf(c, n->start_mark, "%s: expected a count from 1 to %lld, got %s", key, MANIFEST_MAX_BATCH,
                 show(n, shown, sizeof shown));
  if (parse_size(c, key, n, out)) return -1;
  if (*out < 1) return failf(c, n->start_mark, "%s: 0, must be 1 or more (1: one GEMM)", key);
  return 0;
}

static int parse_scale(ctx *c, const char *key, const yaml_node_t *n, tcj_scale_mode *out) {
  char shown[64];
  if (n->type == YAML_SCALAR_NODE && !is_null(n)) {
    if (strcmp(text(n), "tensor") == 0) return *out = TCJ_SCALE_TENSOR, 0;
    if (strcmp(text(n), "block") == 0) return *out = TCJ_SCALE_BLOCK, 0;
    if (strcmp(text(n), "row") == 0) return *out = TCJ_SCALE_ROW, 0;
  }
  return failf(c, n->start_mark, "%s: unknown scale mode %s (" MANIFEST_SCALE_LIST ")", key,
               show(n, shown, sizeof shown));
}

/* `scatter: store` or `scatter: add`: the MoE combine (tcj_gemm_desc.scatter_mode); *out 1 +
 * the mode (0: no scatter). */
static int parse_scatter(ctx *c, const char *key, const yaml_node_t *n, int *out) {
  char shown[64];
  if (n->type == YAML_SCALAR_NODE && !is_null(n)) {
    if (strcmp(text(n), "store") == 0) return *out = 1 + TCJ_SCATTER_STORE, 0;
    if (strcmp(text(n), "add") == 0) return *out = 1 + TCJ_SCATTER_ADD, 0;
  }
  return failf(c, n->start_mark, "%s: expected store or add, got %s", key, show(n, shown, sizeof shown));
}

/* YAML's booleans (the core schema's spellings). */
static int parse_bool(ctx *c, const char *key, const yaml_node_t *n, int *out) {
  static const char *const yes[] = {"true", "True", "TRUE"}, *const no[] = {"false", "False", "FALSE"};
  char shown[64];
  if (n->type == YAML_SCALAR_NODE && plain(n))
    for (int i = 0; i < 3; i++) {
      if (strcmp(text(n), yes[i]) == 0) return *out = 1, 0;
      if (strcmp(text(n), no[i]) == 0) return *out = 0, 0;
    }
  return failf(c, n->start_mark, "%s: expected true or false, got %s", key, show(n, shown, sizeof shown));
}

/* `epilogue_source: FILE`: the path relative to the manifest's directory, and the file's text,
 * read now so that a missing or unreadable file is an error at its line. Only a regular file of
 * at most MANIFEST_MAX_SOURCE bytes without NUL bytes is read (opened non-blocking, so that a
 * FIFO cannot hang the parser). */
static int parse_source(ctx *c, const char *key, const yaml_node_t *n, manifest_entry *e) {
  char shown[64];
  if (n->type != YAML_SCALAR_NODE || is_null(n) || text(n)[0] == '\0')
    return failf(c, n->start_mark, "%s: expected a file name, got %s", key, show(n, shown, sizeof shown));
  const char *name = text(n);
  size_t dir = name[0] == '/' ? 0 : c->dir_len, len = strlen(name);
  const char *sep = dir && c->file[dir - 1] != '/' ? "/" : "";
  char *path = malloc(dir + 1 + len + 1);
  if (!path) return oom(c);
  snprintf(path, dir + 1 + len + 1, "%.*s%s%s", (int)dir, c->file, sep, name);
  free(e->epilogue_path);
  e->epilogue_path = path;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return failf(c, n->start_mark, "%s: cannot read %s: %s", key, path, strerror(errno));
  struct stat st;
  char *buf = NULL;
  int rc = -1;
  if (fstat(fd, &st) != 0) {
    failf(c, n->start_mark, "%s: cannot read %s: %s", key, path, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    failf(c, n->start_mark, "%s: %s is not a regular file", key, path);
  } else if (st.st_size == 0 || st.st_size > (off_t)MANIFEST_MAX_SOURCE) {
    failf(c, n->start_mark, "%s: %s has %lld bytes (a user epilogue source has 1 to %u)", key, path,
          (long long)st.st_size, MANIFEST_MAX_SOURCE);
  } else if (!(buf = malloc((size_t)st.st_size + 1))) {
    oom(c);
  } else {
    size_t got = 0, want = (size_t)st.st_size;
    ssize_t r = 1;
    while (got < want && (r = read(fd, buf + got, want - got)) > 0) got += (size_t)r;
    if (r < 0 || got != want)
      failf(c, n->start_mark, "%s: cannot read %s: %s", key, path, r < 0 ? strerror(errno) : "it changed size");
    else if (memchr(buf, '\0', want))
      failf(c, n->start_mark, "%s: %s holds a NUL byte: not CUDA C source", key, path);
    else {
      buf[want] = '\0';
      free(e->epilogue_text);
      e->epilogue_text = buf;
      buf = NULL;
      rc = 0;
    }
  }
  free(buf);
  close(fd);
  return rc;
}

static int is_fp8(tcj_dtype t) { return t == TCJ_E4M3 || t == TCJ_E5M2; }

/* Whether operands of type ab may write `out` as C (d 0) or as a D apart from C (d 1): the
 * element table's rule, the one tcj_gemm_ex checks (a D apart from C may be fp8 where the
 * operands are). */
static int output_allowed(tcj_dtype ab, tcj_dtype out, int d) {
  ptx_elem e = ptx_elem_of_dtype((int)ab), kernel_ab;
  int b_other;
  return ptx_elem_combination(e, e, ptx_elem_of_dtype((int)out), d, &kernel_ab, &b_other);
}
static int c_allowed(tcj_dtype ab, tcj_dtype cd) { return output_allowed(ab, cd, 0); }
static int d_allowed(tcj_dtype ab, tcj_dtype dd) { return output_allowed(ab, dd, 1); }

/* What operands of type ab give (d: as a D apart from C), for messages: "f16, bf16 or f32". */
static const char *outputs_of(tcj_dtype ab, int d) {
  static _Thread_local char list[96];
  int allowed[TCJ_F64 + 1], count = 0, len = 0;
  for (int t = 0; t <= TCJ_F64; t++) count += allowed[t] = output_allowed(ab, (tcj_dtype)t, d);
  list[0] = '\0';
  for (int t = 0, seen = 0; t <= TCJ_F64; t++) {
    if (!allowed[t]) continue;
    const char *sep = seen == 0 ? "" : seen == count - 1 ? " or " : ", ";
    len += snprintf(list + len, sizeof list - (size_t)len, "%s%s", sep, tcj_dtype_name((tcj_dtype)t));
    seen++;
  }
  return list;
}

static tcj_dtype c_default(tcj_dtype ab) {
  switch (ab) {
  case TCJ_F16: return TCJ_F16;
  case TCJ_F32: case TCJ_TF32: return TCJ_F32;
  case TCJ_F64: return TCJ_F64;
  case TCJ_S8: return TCJ_S32;
  default: return TCJ_BF16; /* bf16, and fp8 as suite.yaml measures it */
  }
}

/* ---- group: ------------------------------------------------------------------------------ */

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in [0, 1) from 53 random bits. */
static double unit_draw(uint64_t *s) { return (double)(splitmix(s) >> 11) * 0x1.0p-53; }

void manifest_group_sizes(const manifest_group *g, int64_t *sizes) {
  int64_t G = g->count, rows = g->rows;
  if (G < 1) return;
  for (int64_t i = 0; i < G; i++) sizes[i] = 0;
  if (g->skew == MANIFEST_SKEW_EVEN) {
    for (int64_t i = 0; i < G; i++) sizes[i] = rows / G + (i < rows % G);
  } else {
    /* Weights by rank; the ranks a seeded permutation, so that the heaviest group is not always
     * group 0. Each routed row then picks a group from the cumulative weights. */
    uint64_t state = g->seed;
    double *cum = malloc((size_t)G * sizeof *cum);
    int64_t *rank = malloc((size_t)G * sizeof *rank);
    if (!cum || !rank) { /* no memory for the draw: as even, rather than nothing */
      free(cum);
      free(rank);
      for (int64_t i = 0; i < G; i++) sizes[i] = rows / G + (i < rows % G);
    } else {
      for (int64_t i = 0; i < G; i++) rank[i] = i;
      for (int64_t i = G - 1; i > 0; i--) { /* Fisher-Yates */
        int64_t j = (int64_t)(splitmix(&state) % (uint64_t)(i + 1)), t = rank[i];
        rank[i] = rank[j];
        rank[j] = t;
      }
      double total = 0;
      for (int64_t i = 0; i < G; i++) {
        total += g->skew == MANIFEST_SKEW_ZIPF ? pow((double)(rank[i] + 1), -g->exponent) : 1.0;
        cum[i] = total;
      }
      for (int64_t r = 0; r < rows; r++) {
        double u = unit_draw(&state) * total;
        int64_t lo = 0, hi = G - 1; /* the first group whose cumulative weight is above u */
        while (lo < hi) {
          int64_t mid = lo + (hi - lo) / 2;
          if (cum[mid] > u) hi = mid;
          else lo = mid + 1;
        }
        sizes[lo]++;
      }
      free(cum);
      free(rank);
    }
  }
  if (g->mode == TCJ_GROUP_M_MASKED) /* the K mode's split is the contiguous one's, along K */
    for (int64_t i = 0; i < G; i++)
      if (sizes[i] > g->max_rows) sizes[i] = g->max_rows;
}

static int parse_group(ctx *c, const yaml_node_t *n, manifest_group *out) {
  char shown[64];
  const yaml_node_t *mode = NULL, *experts = NULL, *ep = NULL, *tokens = NULL, *topk = NULL, *max_rows = NULL,
                    *skew = NULL, *exponent = NULL, *ends = NULL;
  manifest_group g = {.ep = 1, .seed = 1};
  if (n->type != YAML_MAPPING_NODE)
    return failf(c, n->start_mark, "group: expected a mapping (" GROUP_KEYS "), got %s", show(n, shown, sizeof shown));
  if (check_keys(c, n)) return -1;
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
    const char *key = text(k);
    int bad = 0;
    int64_t seed;
    if (strcmp(key, "mode") == 0) mode = v;
    else if (strcmp(key, "experts") == 0) bad = parse_size(c, "group: experts", v, &g.experts), experts = v;
    else if (strcmp(key, "ep") == 0) bad = parse_size(c, "group: ep", v, &g.ep), ep = v;
    else if (strcmp(key, "tokens") == 0) bad = parse_size(c, "group: tokens", v, &g.tokens), tokens = v;
    else if (strcmp(key, "topk") == 0) bad = parse_size(c, "group: topk", v, &g.topk), topk = v;
    else if (strcmp(key, "max_rows") == 0) bad = parse_size(c, "group: max_rows", v, &g.max_rows), max_rows = v;
    else if (strcmp(key, "skew") == 0) skew = v;
    else if (strcmp(key, "exponent") == 0) exponent = v;
    else if (strcmp(key, "seed") == 0) bad = parse_size(c, "group: seed", v, &seed), g.seed = (uint64_t)seed;
    else if (strcmp(key, "ends") == 0) ends = v;
    else bad = failf(c, k->start_mark, "group: unknown key '%s' (" GROUP_KEYS ")", key);
    if (bad) return -1;
  }
  if (!mode) return failf(c, n->start_mark, "group: needs mode: (contiguous, masked or k)");
  if (mode->type == YAML_SCALAR_NODE && strcmp(text(mode), "contiguous") == 0) g.mode = TCJ_GROUP_M_CONTIGUOUS;
  else if (mode->type == YAML_SCALAR_NODE && strcmp(text(mode), "masked") == 0) g.mode = TCJ_GROUP_M_MASKED;
  else if (mode->type == YAML_SCALAR_NODE && strcmp(text(mode), "k") == 0) g.mode = TCJ_GROUP_K_CONTIGUOUS;
  else return failf(c, mode->start_mark, "group: mode: expected contiguous, masked or k, got %s",
                    show(mode, shown, sizeof shown));
  if (!experts || !tokens || !topk)
    return failf(c, n->start_mark, "group: needs experts:, tokens: and topk: (%s missing)",
                 !experts ? "experts:" : !tokens ? "tokens:" : "topk:");
  if (g.experts < 1 || g.experts > MANIFEST_MAX_EXPERTS)
    return failf(c, experts->start_mark, "group: experts: %lld, must be 1 to %d", (long long)g.experts,
                 MANIFEST_MAX_EXPERTS);
  if (ep && (g.ep < 1 || g.experts % g.ep != 0))
    return failf(c, ep->start_mark, "group: ep: %lld does not divide experts: %lld (each GPU holds experts / ep of them)",
                 (long long)g.ep, (long long)g.experts);
  if (g.topk < 1 || g.topk > g.experts)
    return failf(c, topk->start_mark, "group: topk: %lld, must be 1 to experts: %lld", (long long)g.topk,
                 (long long)g.experts);
  /* tokens, topk <= 2^31 - 1: their product fits int64. */
  if (g.tokens * g.topk % g.ep != 0)
    return failf(c, tokens->start_mark, "group: tokens * topk = %lld routed rows do not divide by ep: %lld",
                 (long long)(g.tokens * g.topk), (long long)g.ep);
  g.count = g.experts / g.ep;
  g.rows = g.tokens * g.topk / g.ep;
  if (g.rows > MANIFEST_MAX_ROUTED)
    return failf(c, tokens->start_mark, "group: tokens * topk / ep = %lld routed rows, more than %lld (2^26)",
                 (long long)g.rows, MANIFEST_MAX_ROUTED);
  if (g.mode == TCJ_GROUP_M_MASKED && !max_rows)
    return failf(c, n->start_mark, "group: mode: masked needs max_rows: (the rows of each entry, m)");
  if (g.mode != TCJ_GROUP_M_MASKED && max_rows)
    return failf(c, max_rows->start_mark, "group: max_rows: is for mode: masked (contiguous groups have m = "
                 "tokens * topk / ep rows in all, k groups k = tokens * topk / ep)");
  if (max_rows && g.max_rows < 1)
    return failf(c, max_rows->start_mark, "group: max_rows: 0, must be 1 or more");
  if (!skew || (skew->type == YAML_SCALAR_NODE && strcmp(text(skew), "uniform") == 0)) g.skew = MANIFEST_SKEW_UNIFORM;
  else if (skew->type == YAML_SCALAR_NODE && strcmp(text(skew), "zipf") == 0) g.skew = MANIFEST_SKEW_ZIPF;
  else if (skew->type == YAML_SCALAR_NODE && strcmp(text(skew), "even") == 0) g.skew = MANIFEST_SKEW_EVEN;
  else return failf(c, skew->start_mark, "group: skew: unknown routing %s (" MANIFEST_SKEW_LIST ")",
                    show(skew, shown, sizeof shown));
  if (g.skew == MANIFEST_SKEW_ZIPF) g.exponent = MANIFEST_ZIPF_EXPONENT;
  if (exponent) {
    char *end = NULL;
    double v = 0;
    if (g.skew != MANIFEST_SKEW_ZIPF)
      return failf(c, exponent->start_mark, "group: exponent: is zipf's (skew: zipf)");
    if (exponent->type == YAML_SCALAR_NODE && plain(exponent) && !is_null(exponent)) v = strtod(text(exponent), &end);
    if (!end || *end != '\0' || !(v > 0 && v <= 16))
      return failf(c, exponent->start_mark, "group: exponent: expected a number above 0 and at most 16, got %s",
                   show(exponent, shown, sizeof shown));
    g.exponent = v;
  }
  if (ends) {
    if (g.mode == TCJ_GROUP_M_MASKED)
      return failf(c, ends->start_mark, "group: ends: is for mode: contiguous or k (masked groups take int32 counts)");
    if (ends->type == YAML_SCALAR_NODE && strcmp(text(ends), "int64") == 0) g.ends64 = 1;
    else if (!(ends->type == YAML_SCALAR_NODE && strcmp(text(ends), "int32") == 0))
      return failf(c, ends->start_mark, "group: ends: expected int32 or int64, got %s", show(ends, shown, sizeof shown));
  }
  *out = g;
  return 0;
}

static int parse_problem(ctx *c, const yaml_node_t *n, size_t index, const tcj_dtype *top_dtype,
                         manifest *out) {
  static const char *const dim_keys[3] = {"m", "n", "k"};
  char shown[64];
  sizes dim[3] = {{0}};
  const yaml_node_t *dim_node[3] = {0}, *c_node = NULL, *d_node = NULL, *bcast_node = NULL, *b_node = NULL,
                    *fast_node = NULL, *scale_node = NULL, *group_node = NULL, *batch_node = NULL,
                    *op_b_node = NULL, *op_a_node = NULL, *row_scale_node = NULL, *b_ptrs_node = NULL,
                    *gather_node = NULL, *scatter_node = NULL;
  manifest_group group = {0};
  int have_ab = top_dtype != NULL, have_c = 0, broadcast_b = 0, fast_accum = 0, rc = -1, row_scale = 0, b_ptrs = 0,
      gather = 0, scatter = 0;
  tcj_dtype ab = top_dtype ? *top_dtype : TCJ_BF16, bd = TCJ_BF16, cd = TCJ_BF16, dd = TCJ_BF16;
  tcj_scale_mode scale = TCJ_SCALE_TENSOR;
  tcj_op op_a = TCJ_OP_N, op_b = TCJ_OP_N;
  manifest_epilogue epi = MANIFEST_EPI_NONE;
  int64_t batch = 1;

  if (n->type != YAML_MAPPING_NODE)
    return failf(c, n->start_mark, "problems: an item must be a mapping (m:, n:, k:, ...), got %s",
                 show(n, shown, sizeof shown));
  if (check_keys(c, n)) return -1;
  manifest_entry *entries = realloc(out->entries, (out->nentries + 1) * sizeof *entries);
  if (!entries) return oom(c);
  out->entries = entries;
  manifest_entry *e = &entries[out->nentries++];
  memset(e, 0, sizeof *e);
  e->line = (int)n->start_mark.line + 1;
  e->col = (int)n->start_mark.column + 1;

  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
    const char *key = text(k);
    int d = -1, bad;
    for (int i = 0; i < 3; i++)
      if (strcmp(key, dim_keys[i]) == 0) d = i;
    if (d >= 0) {
      dim_node[d] = v;
      bad = parse_sizes(c, key, v, &dim[d]);
    } else if (strcmp(key, "name") == 0) bad = parse_string(c, key, v, &e->name);
    else if (strcmp(key, "dtype") == 0) bad = parse_name(c, key, v, ab_set, &ab), have_ab = 1;
    else if (strcmp(key, "b_dtype") == 0)
      bad = parse_name(c, key, v, b_set, &bd), b_node = v;
    else if (strcmp(key, "c_dtype") == 0) bad = parse_name(c, key, v, c_set, &cd), have_c = 1, c_node = v;
    else if (strcmp(key, "d_dtype") == 0) bad = parse_name(c, key, v, d_set, &dd), d_node = v;
    else if (strcmp(key, "op_a") == 0) bad = parse_op(c, key, v, &op_a), op_a_node = v;
    else if (strcmp(key, "op_b") == 0) bad = parse_op(c, key, v, &op_b), op_b_node = v;
    else if (strcmp(key, "epilogue") == 0) bad = parse_epilogue(c, key, v, &epi);
    else if (strcmp(key, "batch") == 0) bad = parse_batch(c, key, v, &batch), batch_node = v;
    else if (strcmp(key, "group") == 0) bad = parse_group(c, v, &group), group_node = v;
    else if (strcmp(key, "broadcast_b") == 0) bad = parse_bool(c, key, v, &broadcast_b), bcast_node = v;
    else if (strcmp(key, "epilogue_source") == 0) bad = parse_source(c, key, v, e);
    else if (strcmp(key, "fast_accum") == 0) bad = parse_bool(c, key, v, &fast_accum), fast_node = v;
    else if (strcmp(key, "scale") == 0) bad = parse_scale(c, key, v, &scale), scale_node = v;
    else if (strcmp(key, "row_scale") == 0) bad = parse_bool(c, key, v, &row_scale), row_scale_node = v;
    else if (strcmp(key, "b_ptrs") == 0) bad = parse_bool(c, key, v, &b_ptrs), b_ptrs_node = v;
    else if (strcmp(key, "gather") == 0) bad = parse_bool(c, key, v, &gather), gather_node = v;
    else if (strcmp(key, "scatter") == 0) bad = parse_scatter(c, key, v, &scatter), scatter_node = v;
    else if (strncmp(key, "cublas_", 7) == 0) bad = parse_ref(c, key, v, e);
    else bad = failf(c, k->start_mark, "unknown key '%s' in a problem (" PROBLEM_KEYS ")", key);
    if (bad) goto done;
  }
  if (!e->name) {
    char def[32];
    snprintf(def, sizeof def, "#%zu", index + 1);
    if (!(e->name = strdup(def))) {
      oom(c);
      goto done;
    }
  }
  /* A grouped problem's m is its group's: R rows (contiguous) or max_rows (masked). */
  const yaml_node_t *m_node = group.mode == TCJ_GROUP_K_CONTIGUOUS ? NULL : dim_node[0]; /* the K mode takes m: */
  if (group_node && (m_node || batch_node || bcast_node)) {
    const yaml_node_t *at = m_node ? m_node : batch_node ? batch_node : bcast_node;
    failf(c, at->start_mark, "%s: a grouped problem (group:) takes its rows from group: (contiguous: tokens * "
          "topk / ep, masked: max_rows) and its groups from experts / ep (problem %s)",
          m_node ? "m" : batch_node ? "batch" : "broadcast_b", e->name);
    goto done;
  }
  if (group_node && group.mode == TCJ_GROUP_K_CONTIGUOUS) { /* the K mode takes m: and its k from group: */
    if (dim_node[2]) {
      failf(c, dim_node[2]->start_mark, "k: a K-grouped problem (group: mode: k) takes k from group: (tokens * "
            "topk / ep, split into the groups) (problem %s)", e->name);
      goto done;
    }
    if (push_size(c, "k", group_node, &dim[2], group.rows)) goto done;
    dim_node[2] = group_node;
    if (!op_a_node) op_a = TCJ_OP_T; /* dY [tokens, m] */
  } else if (group_node) {
    int64_t m = group.mode == TCJ_GROUP_M_MASKED ? group.max_rows : group.rows;
    if (push_size(c, "m", group_node, &dim[0], m)) goto done;
    dim_node[0] = group_node;
    if (!op_b_node) op_b = TCJ_OP_T; /* nn.Linear's [G, N, K] */
  }
  for (int i = 0; i < 3; i++)
    if (!dim_node[i]) {
      failf(c, n->start_mark, "problem %s has no %s:", e->name, dim_keys[i]);
      goto done;
    }
  if (!have_ab) {
    failf(c, n->start_mark, "problem %s has no dtype: and there is no top-level dtype:", e->name);
    goto done;
  }
  if (!have_c) cd = c_default(ab);
  else if (is_fp8(cd)) { /* a C that is read is never fp8: that output is a D apart from C */
    failf(c, c_node->start_mark, "c_dtype: %s: C is f16, bf16, f32, f64 or s32; an fp8 output is a D apart from C "
          "(d_dtype: %s)", tcj_dtype_name(cd), tcj_dtype_name(cd));
    goto done;
  } else if (!c_allowed(ab, cd)) {
    failf(c, c_node->start_mark, "c_dtype: %s cannot be the output of dtype %s (%s gives %s)",
          tcj_dtype_name(cd), tcj_dtype_name(ab), tcj_dtype_name(ab), outputs_of(ab, 0));
    goto done;
  }
  if (d_node && !d_allowed(ab, dd)) {
    failf(c, d_node->start_mark, "d_dtype: %s cannot be the output of dtype %s (%s gives %s)",
          tcj_dtype_name(dd), tcj_dtype_name(ab), tcj_dtype_name(ab), outputs_of(ab, 1));
    goto done;
  }
  /* The fp8 keys: only fp8 operands take b_dtype (e4m3 with e5m2), fast_accum: true and
   * scale: block; the last two exclude each other (block scales are applied where the partial sums
   * are promoted, which fast accumulation skips). */
  if (!is_fp8(ab) && (b_node || fast_accum || scale == TCJ_SCALE_BLOCK)) {
    const yaml_node_t *at = b_node ? b_node : fast_accum ? fast_node : scale_node;
    failf(c, at->start_mark, "%s%s needs fp8 operands, dtype: e4m3 or e5m2 (problem %s is %s)",
          b_node ? "b_dtype: " : fast_accum ? "fast_accum: true" : "scale: block",
          b_node ? tcj_dtype_name(bd) : "", e->name, tcj_dtype_name(ab));
    goto done;
  }
  if (!is_fp8(ab) && scale == TCJ_SCALE_ROW) {
    failf(c, scale_node->start_mark, "scale: row needs fp8 operands, dtype: e4m3 or e5m2 (problem %s is %s)", e->name,
          tcj_dtype_name(ab));
    goto done;
  }
  /* The MoE extras' keys, each where tcj.h defines it. */
  if (b_ptrs && !(group_node && group.mode != TCJ_GROUP_K_CONTIGUOUS)) {
    failf(c, b_ptrs_node->start_mark, "b_ptrs: true needs group: mode: contiguous or masked (problem %s)", e->name);
    goto done;
  }
  if (gather && !(group_node && group.mode == TCJ_GROUP_M_CONTIGUOUS && op_a == TCJ_OP_N)) {
    failf(c, gather_node->start_mark, "gather: true needs group: mode: contiguous and op_a: N (problem %s)", e->name);
    goto done;
  }
  /* scatter: D's rows through indices, D apart from C (C is not read); adds are f32 atomics. */
  if (scatter && !(group_node && group.mode == TCJ_GROUP_M_CONTIGUOUS)) {
    failf(c, scatter_node->start_mark, "scatter: needs group: mode: contiguous (problem %s)", e->name);
    goto done;
  }
  if (scatter == 1 + TCJ_SCATTER_ADD && (d_node ? dd : cd) != TCJ_F32) {
    failf(c, scatter_node->start_mark, "scatter: add adds into an f32 D: give d_dtype: f32 (problem %s has %s)", e->name,
          tcj_dtype_name(d_node ? dd : cd));
    goto done;
  }
  (void)row_scale_node; /* every problem takes row_scale: true (the library refuses where it must) */
  if (fast_accum && scale == TCJ_SCALE_BLOCK) {
    failf(c, scale_node->start_mark, "scale: block with fast_accum: true: block scales are applied where the "
          "partial sums are promoted, which fast accumulation skips (problem %s)", e->name);
    goto done;
  }
  if (broadcast_b && batch < 2) {
    failf(c, bcast_node->start_mark, "broadcast_b: true needs batch: 2 or more (problem %s has one entry)", e->name);
    goto done;
  }

  size_t count = dim[0].n;
  for (int i = 1; i < 3; i++)
    count = count > MANIFEST_MAX_PROBLEMS / dim[i].n ? MANIFEST_MAX_PROBLEMS + 1u : count * dim[i].n;
  if (count > MANIFEST_MAX_PROBLEMS - out->nproblems) {
    failf(c, n->start_mark, "problem %s: the manifest expands to more than %u problems", e->name,
          MANIFEST_MAX_PROBLEMS);
    goto done;
  }
  manifest_problem *probs = realloc(out->problems, (out->nproblems + count) * sizeof *probs);
  if (!probs) {
    oom(c);
    goto done;
  }
  out->problems = probs;
  for (size_t i = 0; i < dim[0].n; i++)
    for (size_t j = 0; j < dim[1].n; j++)
      for (size_t l = 0; l < dim[2].n; l++)
        probs[out->nproblems++] = (manifest_problem){
          .name = e->name, .entry = out->nentries - 1, .m = dim[0].v[i], .n = dim[1].v[j],
          .k = dim[2].v[l], .ab = ab, .has_b = b_node != NULL, .b = b_node ? bd : ab, .c = cd, .op_a = op_a,
          .op_b = op_b, .epilogue = epi, .batch = batch, .broadcast_b = broadcast_b, .has_d = d_node != NULL,
          .d = d_node ? dd : cd, .fast_accum = fast_accum, .scale = scale, .epilogue_path = e->epilogue_path,
          .epilogue_source = e->epilogue_text, .group = group, .row_scale = row_scale, .b_ptrs = b_ptrs,
          .gather = gather, .scatter = scatter};
  rc = 0;
done:
  for (int i = 0; i < 3; i++) free(dim[i].v);
  return rc;
}

static int parse_targets(ctx *c, const yaml_node_t *n, manifest *out) {
  char shown[64];
  if (n->type != YAML_SEQUENCE_NODE)
    return failf(c, n->start_mark, "targets: expected a list of archs (" ARCH_LIST "), got %s",
                 show(n, shown, sizeof shown));
  if (n->data.sequence.items.start == n->data.sequence.items.top)
    return failf(c, n->start_mark, "targets: empty list (leave it out to use --arch or the GPU's arch)");
  for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
    yaml_node_t *t = node(c, *i), *arch = t;
    int64_t sm_count = 0;
    /* An arch, or {arch: sm_90a, sm_count: 114}: that arch on a part with that many SMs (the
     * SM count decides split factors and tiles, so each SKU of a fleet gets its own kernels). */
    if (t->type == YAML_MAPPING_NODE) {
      arch = NULL;
      for (yaml_node_pair_t *pr = t->data.mapping.pairs.start; pr < t->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = node(c, pr->key), *v = node(c, pr->value);
        if (k->type == YAML_SCALAR_NODE && strcmp(text(k), "arch") == 0) {
          arch = v;
        } else if (k->type == YAML_SCALAR_NODE && strcmp(text(k), "sm_count") == 0) {
          if (parse_size(c, "sm_count", v, &sm_count)) return -1;
          if (sm_count < 1 || sm_count > 1024)
            return failf(c, v->start_mark, "targets: sm_count %lld is not an SM count from 1 to 1024", (long long)sm_count);
        } else {
          return failf(c, k->start_mark, "targets: unknown key %s (arch, sm_count)", show(k, shown, sizeof shown));
        }
      }
      if (!arch) return failf(c, t->start_mark, "targets: an entry with sm_count needs arch:");
    }
    eng_device_caps caps;
    if (arch->type != YAML_SCALAR_NODE || eng_caps_for_arch(text(arch), &caps) != 0)
      return failf(c, arch->start_mark, "targets: unknown arch %s (" ARCH_LIST ")", show(arch, shown, sizeof shown));
    char **targets = realloc(out->targets, (out->ntargets + 1) * sizeof *targets);
    if (!targets) return oom(c);
    out->targets = targets;
    int *counts = realloc(out->target_sm_counts, (out->ntargets + 1) * sizeof *counts);
    if (!counts) return oom(c);
    out->target_sm_counts = counts;
    counts[out->ntargets] = (int)sm_count;
    if (!(targets[out->ntargets] = strdup(text(arch)))) return oom(c);
    out->ntargets++;
  }
  return 0;
}

static int parse_root(ctx *c, manifest *out) {
  char shown[64];
  yaml_node_t *root = yaml_document_get_root_node(c->doc);
  if (!root) {
    yaml_mark_t start = {0, 0, 0};
    return failf(c, start, "empty manifest: expected a mapping with problems:");
  }
  if (root->type != YAML_MAPPING_NODE)
    return failf(c, root->start_mark, "expected a mapping with problems:, got %s", show(root, shown, sizeof shown));
  if (check_keys(c, root)) return -1;
  const yaml_node_t *problems = NULL;
  tcj_dtype top = TCJ_BF16;
  int have_top = 0;
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
    const char *key = text(k);
    int bad = 0;
    if (strcmp(key, "problems") == 0) problems = v;
    else if (strcmp(key, "suite") == 0) bad = parse_string(c, key, v, &out->suite);
    else if (strcmp(key, "dtype") == 0) bad = parse_name(c, key, v, ab_set, &top), have_top = 1;
    else if (strcmp(key, "targets") == 0) bad = parse_targets(c, v, out);
    else bad = failf(c, k->start_mark, "unknown top-level key '%s' (" TOP_KEYS ")", key);
    if (bad) return -1;
  }
  if (!problems) return failf(c, root->start_mark, "no problems: list");
  if (problems->type != YAML_SEQUENCE_NODE)
    return failf(c, problems->start_mark, "problems: expected a list, got %s", show(problems, shown, sizeof shown));
  if (problems->data.sequence.items.start == problems->data.sequence.items.top)
    return failf(c, problems->start_mark, "problems: empty list");
  size_t index = 0;
  for (yaml_node_item_t *i = problems->data.sequence.items.start; i < problems->data.sequence.items.top; i++)
    if (parse_problem(c, node(c, *i), index++, have_top ? &top : NULL, out)) return -1;
  return 0;
}

static int yaml_fail(ctx *c, const yaml_parser_t *p) {
  if (!c->err || !c->err_size) return -1;
  if (p->error == YAML_MEMORY_ERROR) return oom(c);
  if (p->error == YAML_READER_ERROR) { /* bad encoding: libyaml gives a byte offset only */
    snprintf(c->err, c->err_size, "%s: YAML: %s at byte %zu", c->file, p->problem ? p->problem : "read error",
             p->problem_offset);
    return -1;
  }
  const char *problem = p->problem ? p->problem : "syntax error";
  if (p->context)
    return failf(c, p->problem_mark, "YAML: %s (%s at line %zu, column %zu)", problem, p->context,
                 p->context_mark.line + 1, p->context_mark.column + 1);
  return failf(c, p->problem_mark, "YAML: %s", problem);
}

static int parse(yaml_parser_t *parser, const char *file, manifest *out, char *err, size_t err_size) {
  yaml_document_t doc, extra;
  const char *slash = strrchr(file, '/');
  ctx c = {file, slash ? (slash == file ? 1 : (size_t)(slash - file)) : 0, &doc, err, err_size};
  memset(out, 0, sizeof *out);
  if (!yaml_parser_load(parser, &doc)) return yaml_fail(&c, parser);
  int rc = parse_root(&c, out);
  if (rc == 0) { /* a second document would be silently ignored: refuse it */
    if (!yaml_parser_load(parser, &extra)) rc = yaml_fail(&c, parser);
    else {
      yaml_node_t *root = yaml_document_get_root_node(&extra);
      if (root) rc = failf(&c, root->start_mark, "a second YAML document: a manifest is one document");
      yaml_document_delete(&extra);
    }
  }
  yaml_document_delete(&doc);
  if (rc) manifest_free(out);
  return rc;
}

int manifest_parse(const char *text, size_t len, const char *file, manifest *out, char *err, size_t err_size) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    memset(out, 0, sizeof *out);
    if (err && err_size) snprintf(err, err_size, "%s: out of memory", file);
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  int rc = parse(&parser, file, out, err, err_size);
  yaml_parser_delete(&parser);
  return rc;
}

int manifest_load(const char *path, manifest *out, char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err && err_size) snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) { /* fopen opens one; reading it fails */
    if (err && err_size) snprintf(err, err_size, "%s: is a directory, not a manifest file", path);
    fclose(f);
    return -1;
  }
  yaml_parser_t parser;
  int rc = -1;
  if (!yaml_parser_initialize(&parser)) {
    if (err && err_size) snprintf(err, err_size, "%s: out of memory", path);
  } else {
    yaml_parser_set_input_file(&parser, f);
    rc = parse(&parser, path, out, err, err_size);
    yaml_parser_delete(&parser);
  }
  fclose(f);
  return rc;
}

void manifest_free(manifest *m) {
  if (!m) return;
  for (size_t i = 0; i < m->nentries; i++) {
    for (size_t j = 0; j < m->entries[i].nrefs; j++) free(m->entries[i].refs[j].key);
    free(m->entries[i].refs);
    free(m->entries[i].name);
    free(m->entries[i].epilogue_path);
    free(m->entries[i].epilogue_text);
  }
  for (size_t i = 0; i < m->ntargets; i++) free(m->targets[i]);
  free(m->entries);
  free(m->problems);
  free(m->targets);
  free(m->target_sm_counts);
  free(m->suite);
  memset(m, 0, sizeof *m);
}
