/* SPDX-License-Identifier: Apache-2.0 */
/* Finds the preprocessing directives of a user epilogue that read files (epilogue_source.h).
 *
 * Why a scan and not an NVRTC option: NVRTC 13 has none that forbids reading files. With no
 * include path, <name> finds nothing, but "name" is looked up in the directory of the
 * program's name (the working directory for a bare name, even with --no-source-include), and
 * an absolute "/path/name" is opened as it is. Only directives read files, and macros cannot
 * make directives (C++17 [cpp.rescan]), so finding every directive is enough: this reads the
 * source as translation phases 1-3 do (line splices, comments, literals, pp-numbers) and
 * looks at the name after each '#' or '%:' that starts a logical line. A directive in a group
 * #if skips is refused too: simpler to explain, and no epilogue needs one. */
#include "engine/epilogue_source.h"

#include <stdio.h>
#include <string.h>

/* A position in the source that steps over line splices (phase 2) as it goes. */
typedef struct cursor {
  const char *s;
  size_t i;
  int line; /* the physical line of s[i], from 1 */
} cursor;

static void splice(cursor *c) {
  for (;;) {
    const char *p = c->s + c->i;
    size_t n = p[0] != '\\' ? 0 : p[1] == '\n' ? 2 : p[1] == '\r' && p[2] == '\n' ? 3 : 0;
    if (!n) return;
    c->i += n;
    c->line++;
  }
}

static int cur(cursor *c) {
  splice(c);
  return (unsigned char)c->s[c->i];
}

static void step(cursor *c) {
  int ch = cur(c);
  if (!ch) return;
  if (ch == '\n') c->line++;
  c->i++;
}

static int next(cursor c) { /* the character after the current one; c is a copy */
  step(&c);
  return cur(&c);
}

static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }
/* Letters, digits, '_', '$' (an extension NVRTC takes) and UTF-8 bytes of extended characters. */
static int ident_char(int ch) {
  return is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$' || ch >= 0x80;
}
static int blank(int ch) { return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f' || ch == '\r'; }

/* 1, with c past it, when a comment starts at c: it counts as one space (phase 3). */
static int skip_comment(cursor *c) {
  if (cur(c) != '/') return 0;
  int second = next(*c);
  if (second == '/') {
    while (cur(c) && cur(c) != '\n') step(c);
    return 1;
  }
  if (second != '*') return 0;
  step(c);
  step(c);
  while (cur(c) && !(cur(c) == '*' && next(*c) == '/')) step(c);
  step(c);
  step(c);
  return 1;
}

/* An identifier (its first character is ident_char and no digit) into name; returns its
 * length, which may exceed what name holds (then name is truncated). */
static size_t read_ident(cursor *c, char *name, size_t size) {
  size_t n = 0;
  for (int ch; ident_char(ch = cur(c)); n++) {
    if (n + 1 < size) name[n] = (char)ch;
    step(c);
  }
  name[n + 1 < size ? n : size - 1] = '\0';
  return n;
}

/* A string or character literal from its quote; one left open ends with its line, as
 * compilers read it (it is an error then anyway). */
static void skip_quoted(cursor *c, int quote) {
  step(c);
  for (int ch; (ch = cur(c)) && ch != '\n';) {
    step(c);
    if (ch == quote) return;
    if (ch == '\\' && cur(c) && cur(c) != '\n') step(c);
  }
}

/* A raw string R"delim( ... )delim" from its quote; splices inside it are not splices, so it
 * is read byte by byte. Returns 0 (nothing read) when no valid delimiter follows. */
static int skip_raw(cursor *c) {
  const char *open = c->s + c->i + 1;
  size_t d = strcspn(open, " ()\\\t\v\f\n\"");
  if (d > 16 || open[d] != '(') return 0;
  const char *p = open + d + 1;
  for (; *p; p++) {
    if (*p == '\n') c->line++;
    if (*p == ')' && strncmp(p + 1, open, d) == 0 && p[1 + d] == '"') {
      p += d + 2;
      break;
    }
  }
  c->i = (size_t)(p - c->s);
  return 1;
}

/* A pp-number: digits, letters, '.', e+ e- p+ p-, and ' between digits (C++14 separators,
 * which must not be read as character literals). */
static void skip_number(cursor *c) {
  step(c);
  for (;;) {
    int ch = cur(c);
    if (ch == 'e' || ch == 'E' || ch == 'p' || ch == 'P') {
      step(c);
      if (cur(c) == '+' || cur(c) == '-') step(c);
    } else if (ident_char(ch) || ch == '.') {
      step(c);
    } else if (ch == '\'' && ident_char(next(*c))) {
      step(c);
      step(c);
    } else {
      return;
    }
  }
}

static int one_of(const char *name, const char *const *list) {
  for (; *list; list++)
    if (strcmp(name, *list) == 0) return 1;
  return 0;
}

static const char *const file_directives[] = {"include", "include_next", "import", "embed", NULL};
static const char *const file_queries[] = {"__has_include", "__has_include_next", "__has_embed", NULL};
static const char *const raw_prefixes[] = {"R", "LR", "uR", "UR", "u8R", NULL};
static const char *const literal_prefixes[] = {"L", "u", "U", "u8", NULL};

static int refuse(char *why, size_t why_size, int line, const char *what) {
  snprintf(why, why_size,
           "line %d: %s reads the file system, and tcj keys a user epilogue's kernel by its source text alone "
           "(a changed file would not rebuild it); NVRTC has no built-in headers: write what the epilogue needs "
           "into its source", line, what);
  return -1;
}

/* The directive whose '#' (or '%:') is at c: -1 when it reads a file. */
static int directive(cursor *c, char *why, size_t why_size) {
  int line = c->line;
  if (cur(c) == '%') step(c);
  step(c);
  while (blank(cur(c)) || skip_comment(c))
    if (blank(cur(c))) step(c);
  char name[16], what[32];
  if (read_ident(c, name, sizeof name) < sizeof name && one_of(name, file_directives)) {
    snprintf(what, sizeof what, "#%s", name);
    return refuse(why, why_size, line, what);
  }
  return 0;
}

int eng_epilogue_source_check(const char *source, char *why, size_t why_size) {
  if (!source) return 0;
  cursor c = {source, 0, 1};
  int line_start = 1; /* only white space and comments so far on this logical line */
  for (int ch; (ch = cur(&c));) {
    if (ch == '\n') {
      line_start = 1;
      step(&c);
    } else if (blank(ch)) {
      step(&c);
    } else if (skip_comment(&c)) {
      /* white space */
    } else if (line_start && ((ch == '#' && next(c) != '#') || (ch == '%' && next(c) == ':'))) {
      /* "##" and "%:%:" are the paste operator, not a directive */
      cursor after = c;
      step(&after);
      step(&after);
      line_start = 0;
      if (ch == '%' && cur(&after) == '%' && next(after) == ':') {
        c = after;
        continue;
      }
      if (directive(&c, why, why_size) != 0) return -1;
    } else if (ident_char(ch) && !is_digit(ch)) {
      line_start = 0;
      int line = c.line;
      char name[24];
      size_t n = read_ident(&c, name, sizeof name);
      if (n >= sizeof name) continue;
      if (one_of(name, file_queries)) return refuse(why, why_size, line, name);
      if (cur(&c) == '"' && one_of(name, raw_prefixes) && skip_raw(&c)) continue;
      if ((cur(&c) == '"' || cur(&c) == '\'') && (one_of(name, literal_prefixes) || one_of(name, raw_prefixes)))
        skip_quoted(&c, cur(&c));
    } else if (is_digit(ch) || (ch == '.' && is_digit(next(c)))) {
      line_start = 0;
      skip_number(&c);
    } else if (ch == '"' || ch == '\'') {
      line_start = 0;
      skip_quoted(&c, ch);
    } else {
      line_start = 0;
      step(&c);
    }
  }
  return 0;
}
