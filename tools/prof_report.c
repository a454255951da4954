/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-prof's arithmetic and writers: roofline floor, derived figures, the aligned table, CSV
 * and JSON. Missing figures (a time of 0 or NaN) print as "-" in the table, as an empty CSV
 * field and as JSON null, never as nan or inf. The one infinite figure, the accuracy of an
 * output with a NaN element, is "inf" in the table and missing elsewhere (the row's status and
 * note say what happened). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/prof_report.h"

#define NDTYPE (TCJ_F64 + 1)

/* Storage sizes (names are tcj_dtype_name's). */
static const int dtype_size[NDTYPE] = {
  [TCJ_F16] = 2, [TCJ_BF16] = 2, [TCJ_F32] = 4, [TCJ_TF32] = 4, [TCJ_E4M3] = 1,
  [TCJ_E5M2] = 1, [TCJ_S8] = 1, [TCJ_S32] = 4, [TCJ_F64] = 8,
};

static const char *const status_names[] = {
  [PROF_OK] = "ok", [PROF_MISMATCH] = "MISMATCH", [PROF_TCJ_ERROR] = "tcj-error",
  [PROF_UNSUPPORTED] = "unsupported", [PROF_BLAS_ERROR] = "cublas-error", [PROF_NO_BASELINE] = "no-baseline",
};

const char *prof_status_name(prof_status s) {
  return (unsigned)s < sizeof status_names / sizeof *status_names ? status_names[s] : "?";
}

static double dtype_bytes(tcj_dtype t) { return (unsigned)t < NDTYPE ? dtype_size[t] : 0; }

static int have(double v) { return isfinite(v) && v > 0; }

/* An error of 0 is a figure (exact results); an infinite one too (a NaN element). */
int prof_has_err(double err) { return err >= 0; }

tcj_dtype prof_out_dtype(const prof_row *r) { return r->has_d ? r->d : r->c; }

int64_t prof_batch(const prof_row *r) { return r->batch > 1 ? r->batch : 1; }

static int grouped(const prof_row *r) { return r->group_mode != TCJ_GROUP_NONE; }

int prof_fused(const prof_row *r) {
  if (grouped(r)) return 0; /* averaged apart */
  return r->bias != TCJ_BIAS_NONE || r->act != TCJ_ACT_NONE || r->user || prof_batch(r) > 1;
}

void prof_epilogue_label(const prof_row *r, char *out, size_t size) {
  static const char *const acts[] = {"", "relu", "gelu", "gelu_tanh", "silu", "swiglu"};
  const char *act = (unsigned)r->act < sizeof acts / sizeof *acts ? acts[r->act] : "?";
  const char *bias = r->bias == TCJ_BIAS_NONE ? "" : r->bias == TCJ_BIAS_ROW ? "bias_row" : "bias";
  if (!*bias && !*act) {
    snprintf(out, size, "%s", r->user ? "user" : "none");
    return;
  }
  snprintf(out, size, "%s%s%s%s", bias, *bias && *act ? "_" : "", act, r->user ? "+user" : "");
}

void prof_batch_label(const prof_row *r, char *out, size_t size) {
  if (grouped(r)) {
    snprintf(out, size, "G%lld/%s", (long long)r->groups, r->group_mode == TCJ_GROUP_M_MASKED ? "masked"
                                                                   : r->group_mode == TCJ_GROUP_K_CONTIGUOUS ? "k"
                                                                                                            : "contig");
    return;
  }
  snprintf(out, size, "%lld%s", (long long)prof_batch(r), r->broadcast_b && prof_batch(r) > 1 ? "/bcast_b" : "");
}

/* op(B)'s columns: SwiGLU's gate and up halves are 2n for D's n. */
static double b_cols(const prof_row *r) { return (r->act == TCJ_ACT_SWIGLU ? 2.0 : 1.0) * (double)r->n; }

double prof_flops(const prof_row *r) {
  /* K groups: group_rows is the routed rows, the K of all groups together */
  if (grouped(r) && r->group_mode == TCJ_GROUP_K_CONTIGUOUS) return 2.0 * (double)r->m * b_cols(r) * (double)r->group_rows;
  if (grouped(r)) return 2.0 * (double)r->group_rows * b_cols(r) * (double)r->k;
  return 2.0 * (double)r->m * b_cols(r) * (double)r->k * (double)prof_batch(r);
}

double prof_tflops(const prof_row *r, double us) {
  return have(us) ? prof_flops(r) / (us * 1e6) : 0;
}

double prof_ratio(const prof_row *r) {
  return have(r->tcj_us) && have(r->blas_us) ? r->blas_us / r->tcj_us : 0;
}

double prof_pct_floor(const prof_row *r, double us) {
  return have(us) && have(r->floor_us) ? 100.0 * r->floor_us / us : 0;
}

double prof_bytes(const prof_row *r) {
  double m = (double)r->m, n = (double)r->n, k = (double)r->k, z = (double)prof_batch(r), nb = b_cols(r);
  double z_b = r->broadcast_b ? 1 : z; /* entries of B and of the bias */
  tcj_dtype out = prof_out_dtype(r);
  double bias_len = r->bias == TCJ_BIAS_NONE ? 0 : r->bias == TCJ_BIAS_ROW ? m : nb;
  double bias = bias_len * dtype_bytes(out == TCJ_S32 ? TCJ_F32 : out);
  if (grouped(r) && r->group_mode == TCJ_GROUP_K_CONTIGUOUS) { /* the routed rows of A and B; every group's D */
    double rows = (double)r->group_rows, g = (double)r->groups;
    return rows * (m + n) * dtype_bytes(r->ab) + g * m * n * dtype_bytes(out) + g * bias;
  }
  if (grouped(r)) { /* the rows computed; the weights (and biases) of the non-empty groups only */
    double rows = (double)r->group_rows, g = (double)r->group_nonempty;
    return (rows * k + g * k * nb) * dtype_bytes(r->ab) + rows * n * dtype_bytes(out) + g * bias;
  }
  return (z * m * k + z_b * k * nb) * dtype_bytes(r->ab) + z * m * n * dtype_bytes(out) + z_b * bias;
}

double prof_floor_us(const prof_row *r, double peak_tflops, double bandwidth_gbs) {
  double compute = have(peak_tflops) ? prof_flops(r) / (peak_tflops * 1e12) * 1e6 : 0;
  double memory = have(bandwidth_gbs) ? prof_bytes(r) / (bandwidth_gbs * 1e9) * 1e6 : 0;
  return compute > memory ? compute : memory;
}

/* The averaging groups: plain, fused, and each of them with fp8's fast accumulation. */
enum { GROUP_FUSED = 1, GROUP_FAST = 2, GROUP_GROUPED = 4, NGROUP = 6 };
static const char *const group_names[NGROUP] = {"", " fused", " fastacc", " fused fastacc", " grouped",
                                                " grouped loop"};

static int group_of(const prof_row *r) {
  if (grouped(r)) return GROUP_GROUPED + (r->group_loop != 0);
  return (prof_fused(r) ? GROUP_FUSED : 0) | (r->fast_accum ? GROUP_FAST : 0);
}

static double geomean(const prof_row *rows, int n, tcj_dtype ab, int group, int *count) {
  double logsum = 0;
  int c = 0;
  for (int i = 0; i < n; i++) {
    double ratio = prof_ratio(&rows[i]);
    if (rows[i].status != PROF_OK || rows[i].ab != ab || !have(ratio) || group_of(&rows[i]) != group) continue;
    logsum += log(ratio);
    c++;
  }
  if (count) *count = c;
  return c ? exp(logsum / c) : 0;
}

double prof_geomean_ratio(const prof_row *rows, int n, tcj_dtype ab, int *count) {
  return geomean(rows, n, ab, 0, count);
}

double prof_geomean_ratio_fused(const prof_row *rows, int n, tcj_dtype ab, int *count) {
  return geomean(rows, n, ab, GROUP_FUSED, count);
}

double prof_geomean_ratio_group(const prof_row *rows, int n, tcj_dtype ab, int fused, int fast_accum, int *count) {
  return geomean(rows, n, ab, (fused ? GROUP_FUSED : 0) | (fast_accum ? GROUP_FAST : 0), count);
}

double prof_geomean_ratio_grouped(const prof_row *rows, int n, tcj_dtype ab, int loop, int *count) {
  return geomean(rows, n, ab, GROUP_GROUPED + (loop != 0), count);
}

/* Operand dtypes with rows of a group, as a mask over tcj_dtype. */
static unsigned group_present(const prof_row *rows, int n, int group) {
  unsigned mask = 0;
  for (int i = 0; i < n; i++)
    if ((unsigned)rows[i].ab < NDTYPE && group_of(&rows[i]) == group) mask |= 1u << rows[i].ab;
  return mask;
}

/* Operand dtypes that occur in rows, as a mask over tcj_dtype. */
static unsigned dtypes_present(const prof_row *rows, int n) {
  unsigned mask = 0;
  for (int i = 0; i < n; i++)
    if ((unsigned)rows[i].ab < NDTYPE) mask |= 1u << rows[i].ab;
  return mask;
}

/* A char array field of a caller's struct: bounded even when it is not terminated. */
#define FIELD(s) (s), strnlen((s), sizeof(s))

/* ---- table ---------------------------------------------------------------------------------- */

/* Copies a field for a table cell, control characters (a note with a newline) as spaces. */
static void cell_text(char *dst, size_t size, const char *s, size_t len) {
  size_t i = 0;
  for (; i < len && i + 1 < size; i++) dst[i] = (unsigned char)s[i] < 0x20 ? ' ' : s[i];
  dst[i] = 0;
}

static void cell_num(char *dst, size_t size, double v, int prec, const char *missing) {
  if (have(v))
    snprintf(dst, size, "%.*f", prec, v);
  else
    snprintf(dst, size, "%s", missing);
}

/* An accuracy figure: "1.2e-07", "0" for exact, "inf" for a NaN element, "-" when not measured. */
static void cell_err(char *dst, size_t size, double err) {
  if (!prof_has_err(err)) snprintf(dst, size, "-");
  else if (isinf(err)) snprintf(dst, size, "inf");
  else if (err == 0) snprintf(dst, size, "0");
  else snprintf(dst, size, "%.1e", err);
}

#define COLS(X)                                                                      \
  X(NAME, "name", 0) X(DTYPE, "dtype", 0) X(OP, "op", 0) X(M, "m", 1) X(N, "n", 1)   \
  X(K, "k", 1) X(EPILOGUE, "epilogue", 0) X(BATCH, "batch", 1)                       \
  X(TCJ_US, "tcj us", 1) X(BLAS_US, "cuBLAS us", 1)                                  \
  X(TCJ_TF, "tcj TFLOP/s", 1) X(BLAS_TF, "cuBLAS TFLOP/s", 1)                        \
  X(RATIO, "tcj/cuBLAS", 1) X(PCT_TCJ, "%floor tcj", 1) X(PCT_BLAS, "%floor cuBLAS", 1) \
  X(ERR_TCJ, "err tcj", 1) X(ERR_BLAS, "err cuBLAS", 1)                              \
  X(COLD, "cold ms", 1) X(STATUS, "status", 0) X(BASELINE, "baseline", 0) X(CFG, "cfg", 0)

enum {
#define COL_ENUM(id, head, right) COL_##id,
  COLS(COL_ENUM)
#undef COL_ENUM
  NCOL
};

static const struct {
  const char *head;
  int right; /* numbers align right */
} cols[NCOL] = {
#define COL_SPEC(id, head, right) {head, right},
  COLS(COL_SPEC)
#undef COL_SPEC
};

#define CELL 336 /* the widest field (cfg, 320) and room for numbers */

static void row_cells(const prof_row *r, char cell[NCOL][CELL]) {
  cell_text(cell[COL_NAME], CELL, FIELD(r->name));
  snprintf(cell[COL_DTYPE], CELL, "%s>%s", tcj_dtype_name(r->ab), tcj_dtype_name(prof_out_dtype(r)));
  snprintf(cell[COL_OP], CELL, "%c%c", r->op_a == TCJ_OP_T ? 'T' : 'N',
           r->op_b == TCJ_OP_T ? 'T' : 'N');
  snprintf(cell[COL_M], CELL, "%lld", (long long)r->m);
  snprintf(cell[COL_N], CELL, "%lld", (long long)r->n);
  snprintf(cell[COL_K], CELL, "%lld", (long long)r->k);
  prof_epilogue_label(r, cell[COL_EPILOGUE], CELL);
  prof_batch_label(r, cell[COL_BATCH], CELL);
  cell_num(cell[COL_TCJ_US], CELL, r->tcj_us, 2, "-");
  cell_num(cell[COL_BLAS_US], CELL, r->blas_us, 2, "-");
  cell_num(cell[COL_TCJ_TF], CELL, prof_tflops(r, r->tcj_us), 1, "-");
  cell_num(cell[COL_BLAS_TF], CELL, prof_tflops(r, r->blas_us), 1, "-");
  cell_num(cell[COL_RATIO], CELL, prof_ratio(r), 3, "-");
  cell_num(cell[COL_PCT_TCJ], CELL, prof_pct_floor(r, r->tcj_us), 1, "-");
  cell_num(cell[COL_PCT_BLAS], CELL, prof_pct_floor(r, r->blas_us), 1, "-");
  cell_err(cell[COL_ERR_TCJ], CELL, r->err_tcj);
  cell_err(cell[COL_ERR_BLAS], CELL, r->err_blas);
  cell_num(cell[COL_COLD], CELL, r->cold_ms, 1, "");
  snprintf(cell[COL_STATUS], CELL, "%s", prof_status_name(r->status));
  cell_text(cell[COL_BASELINE], CELL, FIELD(r->baseline));
  if (!cell[COL_BASELINE][0]) snprintf(cell[COL_BASELINE], CELL, "-");
  cell_text(cell[COL_CFG], CELL, FIELD(r->cfg));
}

/* One table line; the last column (cfg) is not padded. */
static void print_line(FILE *f, const int *width, char cell[NCOL][CELL]) {
  for (int c = 0; c < NCOL - 1; c++)
    fprintf(f, cols[c].right ? "%*s  " : "%-*s  ", width[c], cell[c]);
  fprintf(f, "%s\n", cell[NCOL - 1]);
}

/* A field for a header line: control characters as spaces, "?" when empty. */
static const char *fact(char *buf, size_t size, const char *s, size_t len) {
  cell_text(buf, size, s, len);
  return *buf ? buf : "?";
}

static void print_device(FILE *f, const prof_device *d, unsigned present) {
  char buf[sizeof d->command + 1];
  fprintf(f, "device:   %s, %d SMs, SM clock %d MHz, memory clock %d MHz\n",
          fact(buf, sizeof buf, FIELD(d->name)), d->sm_count, d->sm_clock_mhz, d->mem_clock_mhz);
  fprintf(f, "driver:   %s\n", fact(buf, sizeof buf, FIELD(d->driver)));
  fprintf(f, "cuda:     %s\n", fact(buf, sizeof buf, FIELD(d->cuda)));
  fprintf(f, "date:     %s\n", fact(buf, sizeof buf, FIELD(d->date)));
  fprintf(f, "command:  %s\n", fact(buf, sizeof buf, FIELD(d->command)));
  fprintf(f, "peaks:   ");
  for (int t = 0; t < NDTYPE; t++) {
    if (!(present & 1u << t)) continue;
    if (have(d->peak_tflops[t]))
      fprintf(f, " %s %.1f TFLOP/s,", tcj_dtype_name((tcj_dtype)t), d->peak_tflops[t]);
    else
      fprintf(f, " %s ? TFLOP/s,", tcj_dtype_name((tcj_dtype)t));
  }
  if (have(d->bandwidth_gbs))
    fprintf(f, " bandwidth %.1f GB/s\n", d->bandwidth_gbs);
  else
    fprintf(f, " bandwidth ? GB/s\n");
}

static int finish(FILE *f) { return fflush(f) == EOF || ferror(f) ? -1 : 0; }

static const prof_device no_device;

int prof_print_table(FILE *f, const prof_device *d, const prof_row *rows, int n) {
  static char cell[NCOL][CELL]; /* 6 KiB: off the stack; the tool is single-threaded */
  if (!d) d = &no_device;
  unsigned present = dtypes_present(rows, n);
  print_device(f, d, present);
  fputc('\n', f);

  int width[NCOL];
  for (int c = 0; c < NCOL; c++) width[c] = (int)strlen(cols[c].head);
  for (int i = 0; i < n; i++) {
    row_cells(&rows[i], cell);
    for (int c = 0; c < NCOL; c++)
      if ((int)strlen(cell[c]) > width[c]) width[c] = (int)strlen(cell[c]);
  }

  for (int c = 0; c < NCOL; c++) snprintf(cell[c], CELL, "%s", cols[c].head);
  print_line(f, width, cell);
  for (int c = 0; c < NCOL; c++) {
    int w = c == NCOL - 1 ? (int)strlen(cols[c].head) : width[c];
    memset(cell[c], '-', (size_t)w);
    cell[c][w] = 0;
  }
  print_line(f, width, cell);

  int nstatus[sizeof status_names / sizeof *status_names] = {0};
  for (int i = 0; i < n; i++) {
    const prof_row *r = &rows[i];
    row_cells(r, cell);
    print_line(f, width, cell);
    size_t note_len = strnlen(r->note, sizeof r->note);
    if (note_len) {
      char note[sizeof r->note + 1];
      cell_text(note, sizeof note, r->note, note_len);
      fprintf(f, "    %s\n", note);
    }
    if ((unsigned)r->status < sizeof nstatus / sizeof *nstatus) nstatus[r->status]++;
  }
  fputc('\n', f);

  /* A plain line for every dtype; epilogue and batch rows against their own baselines, and fp8's
   * fast accumulation against cuBLASLt's, apart, where there are such rows. */
  for (int group = 0; group < NGROUP; group++) {
    unsigned mask = group ? group_present(rows, n, group) : present;
    for (int t = 0; t < NDTYPE; t++) {
      if (!(mask & 1u << t)) continue;
      int count;
      double g = geomean(rows, n, (tcj_dtype)t, group, &count);
      if (count)
        fprintf(f, "geomean tcj/cuBLAS %s%s: %.3f over %d problem%s\n", tcj_dtype_name((tcj_dtype)t), group_names[group], g,
                count, count == 1 ? "" : "s");
      else
        fprintf(f, "geomean tcj/cuBLAS %s%s: - over 0 problems\n", tcj_dtype_name((tcj_dtype)t), group_names[group]);
    }
  }
  fprintf(f, "status:");
  const char *sep = " ";
  for (size_t s = 0; s < sizeof nstatus / sizeof *nstatus; s++) {
    if (!nstatus[s] && s != PROF_OK) continue;
    fprintf(f, "%s%d %s", sep, nstatus[s], status_names[s]);
    sep = ", ";
  }
  fputc('\n', f);
  return finish(f);
}

/* ---- CSV (RFC 4180; the run's facts first, as "# key: value" lines) ------------------------- */

static void csv_text(FILE *f, const char *s, size_t len) {
  size_t plain = 0;
  while (plain < len && !strchr(",\"\r\n", s[plain])) plain++;
  if (plain == len) {
    fwrite(s, 1, len, f);
    return;
  }
  fputc('"', f);
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '"') fputc('"', f);
    fputc(s[i], f);
  }
  fputc('"', f);
}

static void csv_num(FILE *f, double v) {
  if (have(v)) fprintf(f, "%.6g", v);
}

/* An accuracy figure, 0 included; nothing when it is missing or infinite. */
static int finite_err(double err) { return prof_has_err(err) && isfinite(err); }
static void csv_err(FILE *f, double err) {
  if (finite_err(err)) fprintf(f, "%.6g", err);
}

/* rel_err means something only where the results were compared. */
static int compared(const prof_row *r) {
  return (r->status == PROF_OK || r->status == PROF_MISMATCH) && isfinite(r->rel_err) &&
         r->rel_err >= 0;
}

static void comment_line(FILE *f, const char *key, const char *s, size_t len) {
  char clean[600];
  cell_text(clean, sizeof clean, s, len);
  fprintf(f, "# %s: %s\n", key, clean);
}

int prof_write_csv(FILE *f, const prof_device *d, const prof_row *rows, int n) {
  if (!d) d = &no_device;
  comment_line(f, "device", FIELD(d->name));
  comment_line(f, "driver", FIELD(d->driver));
  comment_line(f, "cuda", FIELD(d->cuda));
  fprintf(f, "# sm_count: %d\n# sm_clock_mhz: %d\n# mem_clock_mhz: %d\n", d->sm_count,
          d->sm_clock_mhz, d->mem_clock_mhz);
  comment_line(f, "date", FIELD(d->date));
  comment_line(f, "command", FIELD(d->command));
  fprintf(f, "# bandwidth_gbs: ");
  csv_num(f, d->bandwidth_gbs);
  fputc('\n', f);
  for (int t = 0; t < NDTYPE; t++) {
    if (!have(d->peak_tflops[t])) continue;
    fprintf(f, "# peak_tflops_%s: %.6g\n", tcj_dtype_name((tcj_dtype)t), d->peak_tflops[t]);
  }

  /* The tcj_gemm_ex columns come last, so that readers by position keep their columns. */
  fprintf(f, "name,ab,c,op_a,op_b,m,n,k,status,tcj_us,cublas_us,tcj_tflops,cublas_tflops,ratio,"
             "floor_us,pct_floor_tcj,pct_floor_cublas,cold_ms,rel_err,runs,cfg,note,"
             "d,epilogue,batch,broadcast_b,baseline,err_tcj,err_cublas\n");
  for (int i = 0; i < n; i++) {
    const prof_row *r = &rows[i];
    csv_text(f, FIELD(r->name));
    fprintf(f, ",%s,%s,%c,%c,%lld,%lld,%lld,%s,", tcj_dtype_name(r->ab), tcj_dtype_name(r->c),
            r->op_a == TCJ_OP_T ? 'T' : 'N', r->op_b == TCJ_OP_T ? 'T' : 'N', (long long)r->m,
            (long long)r->n, (long long)r->k, prof_status_name(r->status));
    const double nums[] = {
      r->tcj_us, r->blas_us, prof_tflops(r, r->tcj_us), prof_tflops(r, r->blas_us),
      prof_ratio(r), r->floor_us, prof_pct_floor(r, r->tcj_us), prof_pct_floor(r, r->blas_us),
      r->cold_ms,
    };
    for (size_t j = 0; j < sizeof nums / sizeof *nums; j++) {
      csv_num(f, nums[j]);
      fputc(',', f);
    }
    if (compared(r)) fprintf(f, "%.6g", r->rel_err);
    fprintf(f, ",%d,", r->runs);
    csv_text(f, FIELD(r->cfg));
    fputc(',', f);
    csv_text(f, FIELD(r->note));
    char epi[32];
    prof_epilogue_label(r, epi, sizeof epi);
    fprintf(f, ",%s,%s,%lld,%d,", tcj_dtype_name(prof_out_dtype(r)), epi, (long long)prof_batch(r),
            r->broadcast_b && prof_batch(r) > 1);
    csv_text(f, FIELD(r->baseline));
    fputc(',', f);
    csv_err(f, r->err_tcj);
    fputc(',', f);
    csv_err(f, r->err_blas);
    fputc('\n', f);
  }
  return finish(f);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (at most len bytes), 0 when it is not one. Bytes that
 * are not UTF-8 (argv, a driver message) are written as U+FFFD so that every reader accepts the
 * file. */
static size_t utf8_len(const unsigned char *s, size_t len) {
  /* Second-byte ranges exclude overlong forms, surrogates and code points above U+10FFFF. */
  unsigned char c = s[0], lo = 0x80, hi = 0xBF;
  size_t need;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (need > len || s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < need; i++)
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  return need;
}

void prof_json_str(FILE *f, const char *str, size_t len) {
  const unsigned char *s = (const unsigned char *)str;
  fputc('"', f);
  for (size_t i = 0; i < len; i++) {
    unsigned char c = s[i];
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\n') fputs("\\n", f);
    else if (c == '\r') fputs("\\r", f);
    else if (c == '\t') fputs("\\t", f);
    else if (c < 0x20 || c == 0x7F) fprintf(f, "\\u%04x", c);
    else if (c < 0x80) fputc(c, f);
    else {
      size_t u = utf8_len(s + i, len - i);
      if (u) {
        fwrite(s + i, 1, u, f);
        i += u - 1;
      } else {
        fputs("\\ufffd", f);
      }
    }
  }
  fputc('"', f);
}

/* A figure, or null when it is missing (0, negative, NaN, infinite). */
static void json_num(FILE *f, double v) {
  if (have(v))
    fprintf(f, "%.6g", v);
  else
    fputs("null", f);
}

static void json_key_str(FILE *f, const char *key, const char *s, size_t len) {
  fprintf(f, "\"%s\": ", key);
  prof_json_str(f, s, len);
}

int prof_write_json(FILE *f, const prof_device *d, const prof_row *rows, int n) {
  if (!d) d = &no_device;
  fputs("{\n  \"device\": {", f);
  json_key_str(f, "name", FIELD(d->name));
  fputs(", ", f);
  json_key_str(f, "driver", FIELD(d->driver));
  fputs(", ", f);
  json_key_str(f, "cuda", FIELD(d->cuda));
  fprintf(f, ", \"sm_count\": %d, \"sm_clock_mhz\": %d, \"mem_clock_mhz\": %d,\n    ",
          d->sm_count, d->sm_clock_mhz, d->mem_clock_mhz);
  json_key_str(f, "date", FIELD(d->date));
  fputs(", ", f);
  json_key_str(f, "command", FIELD(d->command));
  fputs(",\n    \"bandwidth_gbs\": ", f);
  json_num(f, d->bandwidth_gbs);
  fputs(", \"peak_tflops\": {", f);
  const char *sep = "";
  for (int t = 0; t < NDTYPE; t++) {
    if (!have(d->peak_tflops[t])) continue;
    fprintf(f, "%s\"%s\": %.6g", sep, tcj_dtype_name((tcj_dtype)t), d->peak_tflops[t]);
    sep = ", ";
  }
  fputs("}},\n  \"rows\": [", f);

  for (int i = 0; i < n; i++) {
    const prof_row *r = &rows[i];
    fputs(i ? ",\n    {" : "\n    {", f);
    json_key_str(f, "name", FIELD(r->name));
    fprintf(f, ", \"ab\": \"%s\", \"c\": \"%s\", \"op_a\": \"%c\", \"op_b\": \"%c\", "
               "\"m\": %lld, \"n\": %lld, \"k\": %lld, \"status\": \"%s\"",
            tcj_dtype_name(r->ab), tcj_dtype_name(r->c), r->op_a == TCJ_OP_T ? 'T' : 'N',
            r->op_b == TCJ_OP_T ? 'T' : 'N', (long long)r->m, (long long)r->n, (long long)r->k,
            prof_status_name(r->status));
    char epi[32];
    prof_epilogue_label(r, epi, sizeof epi);
    fprintf(f, ", \"d\": \"%s\", \"epilogue\": \"%s\", \"batch\": %lld, \"broadcast_b\": %s, ",
            tcj_dtype_name(prof_out_dtype(r)), epi, (long long)prof_batch(r),
            r->broadcast_b && prof_batch(r) > 1 ? "true" : "false");
    if (grouped(r))
      fprintf(f, "\"group_mode\": \"%s\", \"groups\": %lld, \"group_rows\": %lld, \"nonempty_groups\": %lld, "
                 "\"group_baseline\": \"%s\", ", r->group_mode == TCJ_GROUP_M_MASKED ? "masked"
                 : r->group_mode == TCJ_GROUP_K_CONTIGUOUS ? "k" : "contiguous",
              (long long)r->groups, (long long)r->group_rows, (long long)r->group_nonempty,
              r->group_loop ? "loop" : "grouped_batched");
    json_key_str(f, "baseline", FIELD(r->baseline));
    const struct {
      const char *key;
      double v;
    } nums[] = {
      {"tcj_us", r->tcj_us},
      {"cublas_us", r->blas_us},
      {"tcj_tflops", prof_tflops(r, r->tcj_us)},
      {"cublas_tflops", prof_tflops(r, r->blas_us)},
      {"ratio", prof_ratio(r)},
      {"floor_us", r->floor_us},
      {"pct_floor_tcj", prof_pct_floor(r, r->tcj_us)},
      {"pct_floor_cublas", prof_pct_floor(r, r->blas_us)},
      {"cold_ms", r->cold_ms},
    };
    for (size_t j = 0; j < sizeof nums / sizeof *nums; j++) {
      fprintf(f, ", \"%s\": ", nums[j].key);
      json_num(f, nums[j].v);
    }
    fputs(", \"rel_err\": ", f);
    if (compared(r))
      fprintf(f, "%.6g", r->rel_err);
    else
      fputs("null", f);
    const struct {
      const char *key;
      double v;
    } errs[] = {{"err_tcj", r->err_tcj}, {"err_cublas", r->err_blas}};
    for (size_t j = 0; j < sizeof errs / sizeof *errs; j++) {
      fprintf(f, ", \"%s\": ", errs[j].key);
      if (finite_err(errs[j].v))
        fprintf(f, "%.6g", errs[j].v);
      else
        fputs("null", f);
    }
    fprintf(f, ", \"runs\": %d, ", r->runs);
    json_key_str(f, "cfg", FIELD(r->cfg));
    fputs(", ", f);
    json_key_str(f, "note", FIELD(r->note));
    fputc('}', f);
  }
  fputs(n ? "\n  ],\n  \"geomean\": {" : "],\n  \"geomean\": {", f);

  unsigned present = dtypes_present(rows, n);
  sep = "";
  for (int group = 0; group < NGROUP; group++) {
    unsigned mask = group ? group_present(rows, n, group) : present;
    for (int t = 0; t < NDTYPE; t++) {
      if (!(mask & 1u << t)) continue;
      int count;
      double g = geomean(rows, n, (tcj_dtype)t, group, &count);
      fprintf(f, "%s\"%s%s\": {\"ratio\": ", sep, tcj_dtype_name((tcj_dtype)t), group_names[group]);
      json_num(f, g);
      fprintf(f, ", \"count\": %d}", count);
      sep = ", ";
    }
  }
  fputs("}\n}\n", f);
  return finish(f);
}
