/* SPDX-License-Identifier: Apache-2.0 */
/* NVRTC's PTX for a user epilogue -> text to join into tcj's module. A PTX module has one
 * header (.version, .target, .address_size), so the user's goes and tcj's module declares
 * the larger of the two ISA versions; everything else (functions, constants) is kept as is. */
#include "ptxgen/user_epilogue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The types NVRTC 13.0 writes for TCJ_EPILOGUE_SIGNATURE (float -> .b32, long long and
 * const void * -> .b64, the float result -> .b32 func_retval0); a body with others is refused
 * (check_body), since ptxas rejects a declaration whose types differ from the definition's. */
const char PTX_USER_EPILOGUE_PROTO[] =
    ".visible .func (.param .b32 func_retval0) " PTX_USER_EPILOGUE_NAME "("
    ".param .b32 " PTX_USER_EPILOGUE_NAME "_param_0, .param .b32 " PTX_USER_EPILOGUE_NAME "_param_1, "
    ".param .b64 " PTX_USER_EPILOGUE_NAME "_param_2, .param .b64 " PTX_USER_EPILOGUE_NAME "_param_3, "
    ".param .b64 " PTX_USER_EPILOGUE_NAME "_param_4, .param .b64 " PTX_USER_EPILOGUE_NAME "_param_5);\n";

/* The characters of a PTX identifier after its first (PTX ISA, "Identifiers"), plus '.' and
 * '%' so that directive suffixes and register names never read as the start of a name. */
static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '.' || c == '%';
}

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
  return p;
}

/* p starts with the word w (a directive or a name), not merely a longer word beginning so. */
static int word_at(const char *p, const char *w) {
  size_t n = strlen(w);
  return strncmp(p, w, n) == 0 && !ident_char(p[n]);
}

/* p at '(': past the matching ')', or NULL when it does not close. */
static const char *skip_parens(const char *p) {
  int depth = 0;
  for (; *p; p++) {
    if (*p == '(') depth++;
    else if (*p == ')' && --depth == 0) return p + 1;
  }
  return NULL;
}

/* The next occurrence of word w in text at a word start, or NULL. */
static const char *find_word(const char *text, const char *w) {
  for (const char *p = text; (p = strstr(p, w)) != NULL; p++)
    if ((p == text || !ident_char(p[-1])) && word_at(p, w)) return p;
  return NULL;
}

/* The `.func [(return param)] tcj_epilogue(params) ... {` that defines the function in text
 * (not the `.extern .func ...;` NVRTC writes for a function it only calls), at its ".func";
 * *header_end gets the end of its parameter list. NULL when there is none. */
static const char *epilogue_definition(const char *text, const char **header_end) {
  for (const char *p = text; (p = find_word(p, ".func")) != NULL; p++) {
    const char *q = skip_space(p + strlen(".func"));
    if (*q == '(' && !(q = skip_parens(q))) return NULL;
    q = skip_space(q);
    if (!word_at(q, PTX_USER_EPILOGUE_NAME)) continue;
    q = skip_space(q + strlen(PTX_USER_EPILOGUE_NAME));
    if (*q != '(' || !(q = skip_parens(q))) return NULL;
    *header_end = q;
    q += strcspn(q, "{;"); /* performance directives may stand between the params and the body */
    if (*q == '{') return p;
  }
  return NULL;
}

/* The types of a function header [from, end): its directives (.param, .b32, .align, ...),
 * numbers and punctuation, without names, so that two headers compare as ptxas compares
 * prototypes ("Inconsistent prototypes ... parameter types differ"):
 * ".func (.param .b32) (.param .b32, .param .b64)". */
static void header_types(const char *from, const char *end, char *out, size_t size) {
  size_t n = 0;
  out[0] = '\0';
  for (const char *p = from; p < end;) {
    const char *w = p;
    if (ident_char(*p)) {
      do p++;
      while (p < end && ident_char(*p) && *p != '.' && *p != '%');
      if (*w != '.' && (*w < '0' || *w > '9')) continue; /* a name */
    } else if (*p && strchr("(),[]", *p)) {
      p++;
    } else {
      p++;
      continue;
    }
    int space = n > 0 && out[n - 1] != '(' && out[n - 1] != '[' && !strchr("),]", *w);
    int wrote = snprintf(out + n, size - n, "%s%.*s", space ? " " : "", (int)(p - w), w);
    if (wrote < 0 || (size_t)wrote >= size - n) return; /* truncated: still differs from the other */
    n += (size_t)wrote;
  }
}

/* A name beginning with tcj_ other than tcj_epilogue and NVRTC's tcj_epilogue_param_N: tcj's
 * module names its own symbols so (tcj_smem, tcj_gemm_sm80, ...), and a user global or
 * extern "C" function of such a name would collide with them or with later ones. */
static const char *reserved_name(const char *text, size_t *len) {
  static const char param[] = PTX_USER_EPILOGUE_NAME "_param_";
  for (const char *p = text; (p = strstr(p, "tcj_")) != NULL; p++) {
    if (p > text && ident_char(p[-1])) continue;
    size_t n = 0;
    while (ident_char(p[n]) && p[n] != '.' && p[n] != '%') n++;
    if (n == strlen(PTX_USER_EPILOGUE_NAME) && strncmp(p, PTX_USER_EPILOGUE_NAME, n) == 0) continue;
    size_t d = strlen(param);
    if (n > d && strncmp(p, param, d) == 0 && strspn(p + d, "0123456789") == n - d) continue;
    *len = n;
    return p;
  }
  return NULL;
}

/* The checks on a stripped body; 0 or -1 with err. */
static int check_body(const char *body, char *err, size_t err_size) {
  const char *def, *def_end, *name;
  size_t name_len = 0;
  if (find_word(body, ".entry")) {
    snprintf(err, err_size, "the user epilogue defines a kernel (.entry): it may define device functions only");
    return -1;
  }
  if (!(def = epilogue_definition(body, &def_end))) {
    /* NVRTC emits no function that is inline, static or a template and not called */
    snprintf(err, err_size, "the user epilogue's PTX defines no function " PTX_USER_EPILOGUE_NAME
             " (is it static, inline or a template?)");
    return -1;
  }
  /* An NVRTC that lowered the signature otherwise would not assemble against tcj's declaration:
   * say so here rather than through ptxas. */
  char got[256], want[256];
  const char *proto = strstr(PTX_USER_EPILOGUE_PROTO, ".func");
  header_types(def, def_end, got, sizeof got);
  header_types(proto, proto + strlen(proto), want, sizeof want);
  if (strcmp(got, want) != 0) {
    snprintf(err, err_size, "NVRTC wrote " PTX_USER_EPILOGUE_NAME " as %s; tcj declares and calls %s", got, want);
    return -1;
  }
  if ((name = reserved_name(body, &name_len)) != NULL) {
    snprintf(err, err_size,
             "the user epilogue defines or uses the name %.*s: names beginning with tcj_ are tcj's own "
             "(rename it)", (int)name_len, name);
    return -1;
  }
  return 0;
}

int ptx_user_epilogue_body(const char *ptx, int *version_x10, char **body, size_t *body_len, char *err,
                           size_t err_size) {
  *body = NULL;
  *body_len = 0;
  *version_x10 = 0;
  if (!ptx) {
    snprintf(err, err_size, "no PTX");
    return -1;
  }
  char *out = malloc(strlen(ptx) + 1);
  if (!out) {
    snprintf(err, err_size, "out of host memory for a %zu-byte PTX module", strlen(ptx));
    return -1;
  }
  size_t n = 0;
  int version = 0, address_size = 0;
  for (const char *line = ptx; *line;) {
    const char *eol = strchr(line, '\n');
    const char *next = eol ? eol + 1 : line + strlen(line);
    const char *q = line + strspn(line, " \t\r");
    if (word_at(q, ".version")) {
      /* major.minor, the minor one digit (PTX ISA 1.0 ... 9.x): 9.0 -> 90 */
      char *end;
      long major = strtol(q + strlen(".version"), &end, 10);
      if (*end != '.' || end[1] < '0' || end[1] > '9' || (end[2] >= '0' && end[2] <= '9') || major < 1 ||
          major > 99) {
        snprintf(err, err_size, "cannot read the PTX module's .version line: %.*s", (int)strcspn(q, "\r\n"), q);
        goto fail;
      }
      version = (int)major * 10 + (end[1] - '0');
    } else if (word_at(q, ".address_size")) {
      address_size = atoi(q + strlen(".address_size"));
    } else if (!word_at(q, ".target") && strncmp(q, "//", 2) != 0 && (n > 0 || *q != '\n')) {
      memcpy(out + n, line, (size_t)(next - line));
      n += (size_t)(next - line);
    }
    line = next;
  }
  out[n] = '\0';
  if (!version) {
    snprintf(err, err_size, "not a PTX module: no .version directive");
    goto fail;
  }
  if (address_size != 64) { /* without the directive PTX is 32-bit; tcj's modules are 64-bit */
    if (address_size) snprintf(err, err_size, "the user epilogue's PTX is not 64-bit (.address_size %d)", address_size);
    else snprintf(err, err_size, "the user epilogue's PTX is not 64-bit (no .address_size)");
    goto fail;
  }
  if (check_body(out, err, err_size) != 0) goto fail;
  *body = out;
  *body_len = n;
  *version_x10 = version;
  return 0;
fail:
  free(out);
  return -1;
}
