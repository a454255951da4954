/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-prof --groups-out: a grouped row as one JSON line (prof_groups.h). The sizes come from
 * manifest_group_sizes, the call tcj-prof's run makes for the row, and the flops from prof_flops,
 * so that a consumer's TFLOP/s count what tcj-prof's do. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/gemm_problem.h"
#include "tools/prof_groups.h"
#include "tools/prof_report.h"

static const char *const mode_names[] = {
  [TCJ_GROUP_M_CONTIGUOUS] = "contiguous", [TCJ_GROUP_M_MASKED] = "masked", [TCJ_GROUP_K_CONTIGUOUS] = "k"};
static const char *const skew_names[] = {
  [MANIFEST_SKEW_UNIFORM] = "uniform", [MANIFEST_SKEW_ZIPF] = "zipf", [MANIFEST_SKEW_EVEN] = "even"};
static const char *const scale_names[] = {[TCJ_SCALE_TENSOR] = "tensor", [TCJ_SCALE_BLOCK] = "block",
                                          [TCJ_SCALE_ROW] = "row"};

static void key_str(FILE *f, const char *key, const char *s) {
  fprintf(f, ", \"%s\": ", key);
  if (s) prof_json_str(f, s, strlen(s));
  else fputs("null", f);
}

static const char *op_name(tcj_op op) { return op == TCJ_OP_T ? "T" : "N"; }
static const char *flag(int v) { return v ? "true" : "false"; }

int prof_groups_write(FILE *f, const char *row, const manifest_problem *p, int fast_accum) {
  const manifest_group *g = &p->group;
  if (g->mode == TCJ_GROUP_NONE || g->count < 1) return 0;
  int64_t *sizes = calloc((size_t)g->count, sizeof *sizes);
  if (!sizes) {
    errno = ENOMEM;
    return -1;
  }
  manifest_group_sizes(g, sizes);
  /* The figures tcj-prof reports the row with (prof_one's group_rows and group_nonempty). */
  prof_row r = {.m = p->m, .n = p->n, .k = p->k, .act = manifest_epilogue_act(p->epilogue),
                .group_mode = g->mode, .groups = g->count};
  for (int64_t i = 0; i < g->count; i++) {
    r.group_rows += sizes[i];
    r.group_nonempty += sizes[i] > 0;
  }
  int fp8 = gemm_dtype_is_fp8(p->ab);

  fputs("{\"name\": ", f);
  prof_json_str(f, row, strlen(row));
  key_str(f, "problem", p->name);
  key_str(f, "mode", mode_names[g->mode]);
  key_str(f, "ab", tcj_dtype_name(p->ab));
  key_str(f, "b", tcj_dtype_name(p->b));
  key_str(f, "c", tcj_dtype_name(p->c));
  key_str(f, "d", tcj_dtype_name(p->d));
  key_str(f, "op_a", op_name(p->op_a));
  key_str(f, "op_b", op_name(p->op_b));
  fprintf(f, ", \"m\": %lld, \"n\": %lld, \"k\": %lld, \"b_cols\": %lld", (long long)p->m, (long long)p->n,
          (long long)p->k, (long long)(r.act == TCJ_ACT_SWIGLU ? 2 * p->n : p->n));
  fprintf(f, ", \"groups\": %lld, \"experts\": %lld, \"ep\": %lld, \"tokens\": %lld, \"topk\": %lld, "
          "\"routed_rows\": %lld", (long long)g->count, (long long)g->experts, (long long)g->ep,
          (long long)g->tokens, (long long)g->topk, (long long)g->rows);
  key_str(f, "skew", skew_names[g->skew]);
  fprintf(f, ", \"exponent\": %.17g, \"seed\": %llu", g->exponent, (unsigned long long)g->seed);
  key_str(f, "ends", g->mode == TCJ_GROUP_M_MASKED ? NULL : g->ends64 ? "int64" : "int32");
  if (g->mode == TCJ_GROUP_M_MASKED) fprintf(f, ", \"max_rows\": %lld", (long long)g->max_rows);
  else fputs(", \"max_rows\": null", f);
  fprintf(f, ", \"rows\": %lld, \"nonempty\": %lld, \"flops\": %.0f", (long long)r.group_rows,
          (long long)r.group_nonempty, prof_flops(&r));
  key_str(f, "scale", fp8 ? scale_names[p->scale] : NULL);
  fprintf(f, ", \"fast_accum\": %d", fp8 ? fast_accum : 0);
  key_str(f, "epilogue", manifest_epilogue_name(p->epilogue));
  fprintf(f, ", \"row_scale\": %s, \"b_ptrs\": %s, \"gather\": %s, \"gather_rows\": %lld", flag(p->row_scale),
          flag(p->b_ptrs), flag(p->gather), (long long)(p->gather ? g->tokens : 0));
  key_str(f, "scatter", gemm_scatter_name(p->scatter));
  fputs(", \"sizes\": [", f);
  for (int64_t i = 0; i < g->count; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)sizes[i]);
  fputs("]}\n", f);
  free(sizes);
  return ferror(f) ? -1 : 0;
}
