/* SPDX-License-Identifier: Apache-2.0 */
/* ptx_builder: growable text, virtual registers by class, sticky errors. See ptx_builder.h. */
#include "ptx_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *decl, *prefix; } reg_info[] = {
#define PTX_REG_INFO(cls, decl, prefix) {decl, prefix},
  PTX_REG_LIST(PTX_REG_INFO)
#undef PTX_REG_INFO
};

void ptx_init(ptx_builder *b) { memset(b, 0, sizeof *b); }

void ptx_free(ptx_builder *b) {
  free(b->buf);
  memset(b, 0, sizeof *b);
}

void ptx_fail(ptx_builder *b, const char *fmt, ...) {
  if (b->error[0]) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->error, sizeof b->error, fmt, ap);
  va_end(ap);
  if (!b->error[0]) strcpy(b->error, "ptx builder failure");
}

static void put(ptx_builder *b, const char *s, size_t n) {
  if (ptx_failed(b)) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (b->len + n + 1 > cap) cap *= 2;
    char *p = realloc(b->buf, cap);
    if (!p) { ptx_fail(b, "out of memory"); return; }
    b->buf = p;
    b->cap = cap;
  }
  memcpy(b->buf + b->len, s, n);
  b->len += n;
  b->buf[b->len] = 0;
}

ptx_reg ptx_new(ptx_builder *b, ptx_reg_class cls) {
  ptx_reg r = {(uint8_t)cls, 0};
  if ((unsigned)cls >= PTX_REG_CLASS_COUNT) { ptx_fail(b, "bad register class %d", (int)cls); return r; }
  r.id = ++b->next_id[cls];
  return r;
}

const char *ptx_reg_decl_type(ptx_reg_class cls) { return reg_info[cls].decl; }

int ptx_new_label(ptx_builder *b) { return ++b->labels; }

void ptx_vtext(ptx_builder *b, const char *fmt, va_list ap) {
  char tmp[64];
  for (const char *p = fmt; *p && !ptx_failed(b); p++) {
    const char *q = p;
    while (*q && *q != '%') q++;
    put(b, p, (size_t)(q - p));
    if (!*q) break;
    p = q + 1;
    int n = 0;
    switch (*p) {
    case 'R': {
      ptx_reg r = va_arg(ap, ptx_reg);
      if (r.id == 0 || r.cls >= PTX_REG_CLASS_COUNT) { ptx_fail(b, "use of an unallocated register in \"%s\"", fmt); return; }
      n = snprintf(tmp, sizeof tmp, "%%%s%u", reg_info[r.cls].prefix, r.id);
      break;
    }
    case 'V': {
      ptx_val v = va_arg(ap, ptx_val);
      if (v.reg.id == 0) { n = snprintf(tmp, sizeof tmp, "%lld", (long long)v.imm); break; }
      if (v.reg.cls >= PTX_REG_CLASS_COUNT) { ptx_fail(b, "use of an unallocated register in \"%s\"", fmt); return; }
      n = snprintf(tmp, sizeof tmp, "%%%s%u", reg_info[v.reg.cls].prefix, v.reg.id);
      break;
    }
    case 'L': n = snprintf(tmp, sizeof tmp, "$L%d", va_arg(ap, int)); break;
    case 'd': n = snprintf(tmp, sizeof tmp, "%d", va_arg(ap, int)); break;
    case 'u': n = snprintf(tmp, sizeof tmp, "%u", va_arg(ap, unsigned)); break;
    case 'x': n = snprintf(tmp, sizeof tmp, "%x", va_arg(ap, unsigned)); break;
    case 'l':
      if (p[1] == 'l' && p[2] == 'd') { n = snprintf(tmp, sizeof tmp, "%lld", (long long)va_arg(ap, int64_t)); p += 2; break; }
      ptx_fail(b, "bad format directive in \"%s\"", fmt);
      return;
    case 's': { const char *s = va_arg(ap, const char *); put(b, s, strlen(s)); continue; }
    case '%': tmp[0] = '%'; n = 1; break;
    default: ptx_fail(b, "bad format directive in \"%s\"", fmt); return;
    }
    put(b, tmp, (size_t)n);
  }
}

void ptx_text(ptx_builder *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ptx_vtext(b, fmt, ap);
  va_end(ap);
}

void ptx_ins(ptx_builder *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  put(b, "\t", 1);
  ptx_vtext(b, fmt, ap);
  put(b, ";\n", 2);
  va_end(ap);
}

void ptx_ins_if(ptx_builder *b, ptx_reg pred, int negate, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ptx_text(b, negate ? "\t@!%R " : "\t@%R ", pred);
  ptx_vtext(b, fmt, ap);
  put(b, ";\n", 2);
  va_end(ap);
}

/* The label spelling lives in %L alone. */
void ptx_label(ptx_builder *b, int label) { ptx_text(b, "%L:\n", label); }

/* The PTX ISA version a module for each target declares: the oldest that knows the target
 * (PTX ISA, "Release notes": sm_90a came with 8.0, sm_100/sm_101 with 8.6, sm_120 with 8.7,
 * sm_103/sm_121 with 8.8) and every instruction the recipes use on it (mma.sync, ldmatrix and
 * cp.async are older; wgmma and setmaxnreg need 8.0). The oldest version keeps the PTX loadable
 * by the oldest driver that can run the target at all. */
static const struct { int sm, major, minor; } ptx_isa[] = {
  {80, 8, 0}, {86, 8, 0}, {87, 8, 0}, {89, 8, 0}, {90, 8, 0},
  {100, 8, 6}, {101, 8, 6}, {103, 8, 8}, {120, 8, 7}, {121, 8, 8},
};

void ptx_module_header(ptx_builder *b, int sm, int arch_suffix) { ptx_module_header_min(b, sm, arch_suffix, 0); }

void ptx_module_header_min(ptx_builder *b, int sm, int arch_suffix, int min_version_x10) {
  for (size_t i = 0; i < sizeof ptx_isa / sizeof *ptx_isa; i++)
    if (ptx_isa[i].sm == sm) {
      int v = ptx_isa[i].major * 10 + ptx_isa[i].minor;
      if (min_version_x10 > v) v = min_version_x10;
      ptx_text(b, ".version %d.%d\n.target sm_%d%s\n.address_size 64\n\n", v / 10, v % 10, sm,
               arch_suffix == 'a' ? "a" : "");
      return;
    }
  ptx_fail(b, "no PTX ISA version is known for sm_%d", sm);
}

void ptx_entry_begin(ptx_builder *b, const char *name) {
  ptx_text(b, ".visible .entry %s(\n", name);
}

void ptx_entry_param(ptx_builder *b, const char *name, const char *type) {
  /* Parameters are separated by ",\n"; the first one has nothing before it. */
  if (!ptx_failed(b) && b->len >= 2 && b->buf[b->len - 2] != '(') ptx_text(b, ",\n");
  ptx_text(b, "\t.param %s %s", type, name);
}

void ptx_entry_body(ptx_builder *b, int max_threads) { ptx_entry_body_directives(b, max_threads, ""); }

void ptx_entry_body_directives(ptx_builder *b, int max_threads, const char *directives) {
  ptx_text(b, "\n)\n.maxntid %d, 1, 1\n%s{\n", max_threads, directives);
  b->decl_at = b->len;
}

int ptx_finish(ptx_builder *b) {
  put(b, "}\n", 2);
  if (ptx_failed(b)) return -1;
  char decl[1024];
  size_t n = 0;
  for (int c = 0; c < PTX_REG_CLASS_COUNT; c++)
    if (b->next_id[c])
      n += (size_t)snprintf(decl + n, sizeof decl - n, "\t.reg %s %%%s<%u>;\n", reg_info[c].decl, reg_info[c].prefix, b->next_id[c] + 1);
  /* Splice the declarations in at the start of the body. */
  size_t tail = b->len - b->decl_at;
  put(b, decl, n); /* grows the buffer by n */
  if (ptx_failed(b)) return -1;
  memmove(b->buf + b->decl_at + n, b->buf + b->decl_at, tail);
  memcpy(b->buf + b->decl_at, decl, n);
  /* A module may hold further kernels: each numbers and declares its own registers. */
  memset(b->next_id, 0, sizeof b->next_id);
  return 0;
}

int ptx_take(ptx_builder *b, char **ptx, size_t *len, char *err, size_t err_size) {
  if (ptx_failed(b)) {
    snprintf(err, err_size, "ptx generation failed: %s", b->error);
    ptx_free(b);
    return -1;
  }
  *ptx = b->buf;
  *len = b->len;
  return 0;
}
