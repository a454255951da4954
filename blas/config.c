/* SPDX-License-Identifier: Apache-2.0 */
/* Settings, in nvblas.conf's spirit: a file of `key value` lines, then environment variables
 * over it. Read once per process; a bad line or value is reported (file and line) and ignored.
 *
 *   file:  $TCJBLAS_CONFIG when set (empty: no file), else ./tcjblas.conf when it exists
 *   keys:  cpu_blas PATH         the CPU BLAS to dlopen        env TCJBLAS_CPU_BLAS
 *          gpu_threshold FLOPS   2mnk from which host arrays go to the GPU (inf: never)
 *                                                              env TCJBLAS_GPU_THRESHOLD
 *          gpu_min_intensity F   ... when they also do F flops per byte they send over the
 *                                bus (default 16; 0: any)      env TCJBLAS_GPU_MIN_INTENSITY
 *          gpu_device N          the CUDA device used (default 0)
 *          report 0|1            say where the calls ran, at exit     env TCJBLAS_REPORT
 *          pinned_mb N           pinned staging for host arrays, MiB, fractions allowed
 *                                (default 128; 0: copy them whole from pageable memory)
 *                                                                   env TCJBLAS_PINNED_MB
 *          copy_threads N        threads that stage one copy (default 0: half the CPUs, at
 *                                most 8)                            env TCJBLAS_COPY_THREADS
 *   Keys in any case. Lines whose first non-blank character is # are comments; a value runs
 *   to the end of its line (a path may hold blanks or #), with blanks around it dropped. */
#include "blas/tcjblas_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int parse_flops(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno == ERANGE || isnan(v) || v < 0) return -1;
  *out = v;
  return 0;
}

static int parse_device(const char *s, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno == ERANGE || v < 0 || v > 1023) return -1;
  *out = (int)v;
  return 0;
}

static int parse_count(const char *s, int max, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno == ERANGE || v < 0 || v > max) return -1;
  *out = (int)v;
  return 0;
}

static int parse_mib(const char *s, double *out) {
  double v;
  if (parse_flops(s, &v) || v > 1048576) return -1; /* up to 1 TiB; fractions allowed */
  *out = v;
  return 0;
}

static int parse_flag(const char *s, int *out) {
  if (strcmp(s, "0") && strcmp(s, "1")) return -1;
  *out = s[0] == '1';
  return 0;
}

static int set_path(char *dst, size_t size, const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n >= size) return -1;
  memcpy(dst, s, n + 1);
  return 0;
}

/* 0: set; -1: bad value; -2: unknown key. */
static int set_key(tb_config *cfg, const char *key, const char *value) {
  if (!strcasecmp(key, "cpu_blas")) return set_path(cfg->cpu_blas, sizeof cfg->cpu_blas, value);
  if (!strcasecmp(key, "gpu_threshold")) return parse_flops(value, &cfg->gpu_threshold);
  if (!strcasecmp(key, "gpu_min_intensity")) return parse_flops(value, &cfg->gpu_min_intensity);
  if (!strcasecmp(key, "gpu_device")) return parse_device(value, &cfg->gpu_device);
  if (!strcasecmp(key, "report")) return parse_flag(value, &cfg->report);
  if (!strcasecmp(key, "pinned_mb")) return parse_mib(value, &cfg->pinned_mb);
  if (!strcasecmp(key, "copy_threads")) return parse_count(value, 64, &cfg->copy_threads);
  return -2;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

static void read_file(tb_config *cfg, const char *path, FILE *msgs) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(msgs, "tcjblas: cannot read the config file %s: %s (ignored)\n", path, strerror(errno));
    return;
  }
  char line[8192];
  for (int lineno = 1; fgets(line, sizeof line, f); lineno++) {
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f)) {
      fprintf(msgs, "tcjblas: %s:%d: line longer than %zu characters (ignored)\n", path, lineno,
              sizeof line - 2);
      int c;
      while ((c = fgetc(f)) != EOF && c != '\n') {}
      continue;
    }
    char *key = trim(line);
    if (!*key || *key == '#') continue;
    char *value = key;
    while (*value && !isspace((unsigned char)*value)) value++;
    if (*value) *value++ = 0;
    value = trim(value);
    int r = set_key(cfg, key, value);
    if (r == -2)
      fprintf(msgs, "tcjblas: %s:%d: unknown key '%s' (ignored; keys: cpu_blas, gpu_threshold, "
                    "gpu_min_intensity, gpu_device, report, pinned_mb, copy_threads)\n", path, lineno, key);
    else if (r)
      fprintf(msgs, "tcjblas: %s:%d: bad value '%s' for %s (ignored)\n", path, lineno, value, key);
  }
  fclose(f);
}

static void read_env(tb_config *cfg, FILE *msgs) {
  static const struct { const char *var, *key; } vars[] = {
    {"TCJBLAS_CPU_BLAS", "cpu_blas"},
    {"TCJBLAS_GPU_THRESHOLD", "gpu_threshold"},
    {"TCJBLAS_GPU_MIN_INTENSITY", "gpu_min_intensity"},
    {"TCJBLAS_REPORT", "report"},
    {"TCJBLAS_PINNED_MB", "pinned_mb"},
    {"TCJBLAS_COPY_THREADS", "copy_threads"},
  };
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i].var);
    if (!v || !*v) continue;
    char value[sizeof cfg->cpu_blas];
    snprintf(value, sizeof value, "%s", v);
    if (set_key(cfg, vars[i].key, trim(value)))
      fprintf(msgs, "tcjblas: bad value '%s' in %s (ignored)\n", v, vars[i].var);
  }
}

void tb_config_load(tb_config *cfg, FILE *msgs) {
  memset(cfg, 0, sizeof *cfg);
  cfg->gpu_threshold = TB_DEFAULT_GPU_THRESHOLD;
  cfg->gpu_min_intensity = TB_DEFAULT_GPU_MIN_INTENSITY;
  cfg->pinned_mb = TB_DEFAULT_PINNED_MB;
  const char *path = getenv("TCJBLAS_CONFIG");
  if (path) {
    if (*path) read_file(cfg, path, msgs);
  } else {
    FILE *f = fopen("tcjblas.conf", "r"); /* optional: absent is not worth a message */
    if (f) {
      fclose(f);
      read_file(cfg, "tcjblas.conf", msgs);
    }
  }
  read_env(cfg, msgs);
}

static tb_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

static void load_once(void) { tb_config_load(&config, stderr); }

const tb_config *tb_config_get(void) {
  pthread_once(&config_once, load_once);
  return &config;
}
