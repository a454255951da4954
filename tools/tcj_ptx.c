/* tcj-ptx: prints the kernel config and PTX that tcj would use for a problem, for any arch,
 * without a GPU: the same select and ptxgen calls as tcj_gemm, fed with an assumed alignment. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/select.h"
#include "ptxgen/ptxgen.h"

static const char usage[] =
  "usage: tcj-ptx --arch sm_80 --dtype bf16 --m M --n N --k K [--op-a N|T] [--op-b N|T]\n"
  "               [--lda L] [--ldb L] [--ldc L] [--c-dtype T] [--align-a B] [--align-b B]\n"
  "               [--no-pack] [--recipe sm80|sm90|auto]\n"
  "  dtypes: f16 bf16 tf32 f32 s8 s32; c dtype defaults to the operand type for 16-bit,\n"
  "  f32 for tf32/f32, s32 for s8. Leading dimensions default to packed rows; base pointers\n"
  "  are assumed 16-byte aligned unless --align-a/--align-b say otherwise.\n"
  "  TCJ_RECIPE and TCJ_TILE apply as in tcj_gemm; --recipe overrides TCJ_RECIPE.\n"
  "  Prints \"// <cfg>\" (plus pack_a=1 / pack_b=1) and then the PTX.\n";

static int bad(const char *msg, const char *arg) {
  fprintf(stderr, "tcj-ptx: %s%s%s\n%s", msg, arg ? ": " : "", arg ? arg : "", usage);
  return 2;
}

static int parse_elem(const char *s, ptx_elem *e) {
  if (strcmp(s, "f32") == 0) s = "tf32"; /* f32 data runs on tf32 tensor cores */
  for (int i = 0; i < PTX_E_COUNT; i++)
    if (strcmp(s, ptx_elem_name((ptx_elem)i)) == 0) { *e = (ptx_elem)i; return 0; }
  return -1;
}

static int parse_i64(const char *s, int64_t *v) {
  char *end;
  long long x = strtoll(s, &end, 10);
  if (*s == '\0' || *end != '\0' || x < 0) return -1;
  *v = x;
  return 0;
}

/* Largest power of two <= 16 dividing both the base alignment and the row pitch in bytes. */
static int row_align(int64_t base, int64_t ld, int es) {
  uint64_t bits = (uint64_t)base | (uint64_t)(ld * es) | 16;
  return (int)(bits & (~bits + 1));
}

int main(int argc, char **argv) {
  enum { O_ARCH = 256, O_DTYPE, O_CDTYPE, O_M, O_N, O_K, O_OPA, O_OPB, O_LDA, O_LDB, O_LDC, O_ALA, O_ALB, O_NOPACK, O_RECIPE, O_HELP };
  static const struct option opts[] = {
    {"arch", required_argument, 0, O_ARCH},     {"dtype", required_argument, 0, O_DTYPE},
    {"c-dtype", required_argument, 0, O_CDTYPE}, {"m", required_argument, 0, O_M},
    {"n", required_argument, 0, O_N},           {"k", required_argument, 0, O_K},
    {"op-a", required_argument, 0, O_OPA},      {"op-b", required_argument, 0, O_OPB},
    {"lda", required_argument, 0, O_LDA},       {"ldb", required_argument, 0, O_LDB},
    {"ldc", required_argument, 0, O_LDC},       {"align-a", required_argument, 0, O_ALA},
    {"align-b", required_argument, 0, O_ALB},   {"no-pack", no_argument, 0, O_NOPACK},
    {"recipe", required_argument, 0, O_RECIPE}, {"help", no_argument, 0, O_HELP},
    {0, 0, 0, 0}};
  const char *arch = NULL;
  int have_ab = 0, have_c = 0, allow_packing = 1, have_recipe = 0;
  eng_recipe_choice recipe = ENG_RECIPE_AUTO;
  ptx_elem ab = PTX_E_BF16, ce = PTX_E_BF16;
  int64_t m = -1, n = -1, k = -1, lda = 0, ldb = 0, ldc = 0, align_a = 16, align_b = 16;
  eng_problem p;
  memset(&p, 0, sizeof p);
  int o;
  opterr = 0;
  while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    int64_t *dst = NULL;
    switch (o) {
    case 'h': case O_HELP: fputs(usage, stdout); return 0;
    case O_ARCH: arch = optarg; break;
    case O_DTYPE: if (parse_elem(optarg, &ab)) return bad("unknown dtype", optarg); have_ab = 1; break;
    case O_CDTYPE: if (parse_elem(optarg, &ce)) return bad("unknown c dtype", optarg); have_c = 1; break;
    case O_OPA: case O_OPB: {
      int t = strcmp(optarg, "T") == 0 || strcmp(optarg, "t") == 0;
      if (!t && strcmp(optarg, "N") != 0 && strcmp(optarg, "n") != 0) return bad("op must be N or T", optarg);
      *(o == O_OPA ? &p.op_a_t : &p.op_b_t) = t;
      break;
    }
    case O_M: dst = &m; break;
    case O_N: dst = &n; break;
    case O_K: dst = &k; break;
    case O_LDA: dst = &lda; break;
    case O_LDB: dst = &ldb; break;
    case O_LDC: dst = &ldc; break;
    case O_ALA: dst = &align_a; break;
    case O_ALB: dst = &align_b; break;
    case O_NOPACK: allow_packing = 0; break;
    case O_RECIPE:
      if (eng_recipe_parse(optarg, &recipe)) return bad("recipe must be sm80, sm90 or auto", optarg);
      have_recipe = 1;
      break;
    default: return bad("unknown or incomplete option", argv[optind - 1]);
    }
    if (dst && parse_i64(optarg, dst)) return bad("expected a non-negative integer", optarg);
  }
  if (optind < argc) return bad("unexpected argument", argv[optind]);
  if (!arch || !have_ab || m < 0 || n < 0 || k < 0) return bad("--arch, --dtype, --m, --n and --k are required", NULL);
  if (ab == PTX_E_S32 || ab == PTX_E_F32) return bad("not an operand dtype", ptx_elem_name(ab));
  if (!have_c) ce = ab == PTX_E_TF32 ? PTX_E_F32 : ab == PTX_E_S8 ? PTX_E_S32 : ab;
  if (have_c && ce == PTX_E_TF32) ce = PTX_E_F32; /* "--c-dtype f32" parses as tf32 */
  if (align_a < 1 || align_a > 16 || (align_a & (align_a - 1)) || align_b < 1 || align_b > 16 ||
      (align_b & (align_b - 1)))
    return bad("alignment must be 1, 2, 4, 8 or 16", NULL);

  eng_device_caps caps;
  if (eng_caps_for_arch(arch, &caps) != 0) {
    fprintf(stderr, "tcj-ptx: unknown arch %s (sm_80 sm_86 sm_87 sm_89 sm_90[a] sm_100[a] sm_120[a])\n", arch);
    return 1;
  }
  int es = ptx_elem_size(ab), es_c = ptx_elem_size(ce);
  p.m = m; p.n = n; p.k = k; p.ab = ab; p.c = ce;
  p.lda = lda ? lda : (p.op_a_t ? m : k);
  p.ldb = ldb ? ldb : (p.op_b_t ? k : n);
  p.ldc = ldc ? ldc : n;
  if (p.lda < (p.op_a_t ? m : k) || p.ldb < (p.op_b_t ? k : n) || p.ldc < n)
    return bad("a leading dimension is below its minimum", NULL);
  p.align_a = row_align(align_a, p.lda, es);
  p.align_b = row_align(align_b, p.ldb, es);
  p.align_c = row_align(16, p.ldc, es_c);

  eng_tuning tuning;
  const char *why = eng_tuning_from_env(&tuning);
  if (why) return bad(why, NULL);
  if (have_recipe) tuning.recipe = recipe;
  eng_plan plan;
  if (eng_select_tuned(&p, &caps, allow_packing, &tuning, &plan, &why) != TCJ_SUCCESS) {
    fprintf(stderr, "tcj-ptx: %s\n", why);
    return 1;
  }
  const char *reason = tcj_cfg_check(&plan.cfg);
  if (reason) {
    fprintf(stderr, "tcj-ptx: selected config is invalid: %s\n", reason);
    return 1;
  }
  char text[256], err[512];
  char *ptx = NULL;
  size_t len = 0;
  if (tcj_cfg_format(&plan.cfg, text, sizeof text) < 0) {
    fprintf(stderr, "tcj-ptx: config text too long\n");
    return 1;
  }
  if (ptx_gen_gemm(&plan.cfg, &ptx, &len, err, sizeof err) != 0) {
    fprintf(stderr, "tcj-ptx: ptxgen: %s\n", err);
    return 1;
  }
  printf("// %s%s%s\n", text, plan.pack_a ? " pack_a=1" : "", plan.pack_b ? " pack_b=1" : "");
  fwrite(ptx, 1, len, stdout);
  free(ptx);
  return ferror(stdout) ? 1 : 0;
}
