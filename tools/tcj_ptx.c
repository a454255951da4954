/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-ptx: prints the kernel config and PTX that tcj would use for a problem, for any arch,
 * without a GPU: the same validate, select and generate calls as tcj_gemm_ex, fed with an
 * assumed alignment. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/tools_api.h"
#include "tools/gemm_problem.h"

static const char usage[] =
  "usage: tcj-ptx --arch sm_80 --dtype bf16 --m M --n N --k K [--op-a N|T] [--op-b N|T]\n"
  "               [--lda L] [--ldb L] [--ldc L] [--c-dtype T] [--align-a B] [--align-b B]\n"
  "               [--no-pack] [--recipe sm80|sm90|auto] [--epilogue NAME] [--batch N]\n"
  "               [--broadcast-b] [--d-dtype T] [--epilogue-source FILE.cu] [--sm-count N]\n"
  "               [--b-dtype T] [--fast-accum] [--block-scales] [--candidates] [--generic]\n"
  "               [--group MODE:G[:ROWS]]\n"
  "  --sm-count N: select as on a part with N SMs (default: the arch's flagship count)\n"
  "  dtypes: f16 bf16 tf32 f32 f64 e4m3 e5m2 s8 s32; c dtype defaults to the operand type for\n"
  "  16-bit and f64, f32 for tf32/f32, s32 for s8, bf16 for e4m3/e5m2. f32 operands (TCJ_F32) are\n"
  "  computed to fp32 accuracy by 3xTF32: the config shows x3=1, and its k is the three tf32\n"
  "  products' K laid end to end (3 k, each part's K rounded up); tf32 runs the fast tf32 path.\n"
  "  f64 runs on the fp64 tensor cores (the dmma recipe: f64 mma.sync, every arch from sm_80).\n"
  "  Leading dimensions default to packed rows; base pointers are assumed 16-byte aligned\n"
  "  unless --align-a/--align-b say otherwise. The problem is checked as tcj_gemm_ex checks it\n"
  "  (same messages).\n"
  "  TCJ_RECIPE and TCJ_TILE apply as in tcj_gemm; --recipe overrides TCJ_RECIPE.\n"
  "  tcj_gemm_ex (as tcj-warmup's and tcj-prof's manifest keys):\n"
  "  --epilogue NAME   none (default), bias, bias_relu, bias_gelu, bias_gelu_tanh, bias_silu,\n"
  "                    swiglu or bias_swiglu (--n is D's columns; op(B) has 2n, gate then up):\n"
  "                    a per-column bias (n values of D's type, f32 when D is s32, C's type\n"
  "                    when D is fp8) and the activation\n"
  "  --batch N         a strided batch of N >= 1 entries, each operand packed after the last\n"
  "  --broadcast-b     with --batch N >= 2: one B (and one bias) for every entry (stride 0)\n"
  "  --group MODE:G[:ROWS]\n"
  "                    a grouped GEMM (tcj_gemm_desc.group_mode) of G >= 1 groups, MODE contiguous32\n"
  "                    or contiguous64 (m rows in all; int32 or int64 ends) or masked (entries of m\n"
  "                    rows, packed one after the other); B and the bias per group (one for all\n"
  "                    with --broadcast-b); ROWS: group_rows_hint (default m / G, masked m).\n"
  "                    k32 or k64: K groups (weight gradients; --op-a T --op-b N), int32 or int64\n"
  "                    ends along k, one D of m x n per group; ROWS is then the expected K\n"
  "  --d-dtype T       D of type T apart from C; C is then not read (beta 0), and D's leading\n"
  "                    dimension is --ldc's\n"
  "  --epilogue-source FILE.cu\n"
  "                    a user epilogue, CUDA C that defines (tcj.h)\n"
  "                      " TCJ_EPILOGUE_SIGNATURE "\n"
  "                    compiled by NVRTC and joined into the module; without NVRTC: exit 1;\n"
  "                    a file that cannot be read: exit 2\n"
  "  fp8 operands (--dtype e4m3 or e5m2; sm_89 and newer, wgmma on sm_90a), as tcj_gemm_ex's\n"
  "  fields:\n"
  "  --b-dtype T       B of type T where it differs from --dtype (e4m3 with e5m2, either way)\n"
  "  --fast-accum      fast_accum = 1: no fp32 promotion of the partial sums (sm90 recipe)\n"
  "  --block-scales    scale_mode = TCJ_SCALE_BLOCK (scale_a per row and 128 K, scale_b per\n"
  "                    128 x 128 block; assumed at aligned addresses apart from every operand)\n"
  "  Per-tensor scales, scale_d and amax_d are read at run time: they select no other kernel.\n"
  "  --candidates      instead of the PTX: the selected config, then the sm90 recipe's configs\n"
  "                    (sm_90a) in its time model's order with their estimates, each with the\n"
  "                    TCJ_RECIPE and TCJ_TILE values that force it (to time it with tcj-prof)\n"
  "  --generic         the generic kernel of the problem's class, as TCJ_JIT=generic (which\n"
  "                    applies too) runs it: n and k are run-time arguments (n=0 k=0 generic=1)\n"
  "  Prints \"// <cfg>\" and then the PTX; after the config, pack_a=1 / pack_b=1 for an operand\n"
  "  packed into aligned scratch, pack_a=transpose / pack_b=transpose for an MN-major one\n"
  "  transposed into K-major scratch for wgmma (the config is then the K-major problem's, op NT).\n"
  "  Exit status: 0, 1 when tcj cannot run the problem, 2 on bad usage or arguments tcj_gemm_ex\n"
  "  would call invalid.\n"
  "\n"
  "usage: tcj-ptx --hash-configs FILE [--epilogue-source FILE.cu]\n"
  "  For each kernel config in FILE (one per line, as printed after \"// \"; user=1 configs take\n"
  "  --epilogue-source), prints a 64-bit FNV-1a hash and the length of the module tcj generates\n"
  "  for it, then the config; \"error: ...\" where it generates none. Two trees that print the\n"
  "  same lines emit byte-identical PTX (scripts/ptx-identical.sh). Exit status 0, 2 when FILE\n"
  "  cannot be read or holds a line that is not a config.\n";

static int bad(const char *msg, const char *arg) {
  fprintf(stderr, "tcj-ptx: %s%s%s\n%s", msg, arg ? ": " : "", arg ? arg : "", usage);
  return 2;
}

/* A public dtype by its name ("bf16", "e4m3", ...), so that validation names what it refuses. */
static int parse_dtype(const char *s, tcj_dtype *t) {
  for (int i = 0; i <= TCJ_F64; i++)
    if (strcmp(s, tcj_dtype_name((tcj_dtype)i)) == 0) { *t = (tcj_dtype)i; return 0; }
  return -1;
}

/* tcj-warmup's and tcj-prof's `epilogue:` values: name, bias, activation. */
static const struct { const char *name; tcj_bias_kind bias; tcj_activation act; } epilogues[] = {
  {"none", TCJ_BIAS_NONE, TCJ_ACT_NONE},          {"bias", TCJ_BIAS_COL, TCJ_ACT_NONE},
  {"bias_relu", TCJ_BIAS_COL, TCJ_ACT_RELU},       {"bias_gelu", TCJ_BIAS_COL, TCJ_ACT_GELU},
  {"bias_gelu_tanh", TCJ_BIAS_COL, TCJ_ACT_GELU_TANH}, {"bias_silu", TCJ_BIAS_COL, TCJ_ACT_SILU},
  {"swiglu", TCJ_BIAS_NONE, TCJ_ACT_SWIGLU},      {"bias_swiglu", TCJ_BIAS_COL, TCJ_ACT_SWIGLU},
};

/* The whole of a source file, NUL-terminated (caller frees); NULL with the reason printed. */
static char *read_source(const char *path) {
  FILE *f = fopen(path, "rb");
  struct stat st;
  char *text = NULL;
  if (!f || fstat(fileno(f), &st) != 0) {
    fprintf(stderr, "tcj-ptx: --epilogue-source %s: %s\n", path, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    fprintf(stderr, "tcj-ptx: --epilogue-source %s: not a regular file\n", path);
  } else if (!(text = malloc((size_t)st.st_size + 1)) || fread(text, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
    fprintf(stderr, "tcj-ptx: --epilogue-source %s: cannot read it\n", path);
    free(text);
    text = NULL;
  } else {
    text[st.st_size] = '\0';
    if (strlen(text) != (size_t)st.st_size) {
      fprintf(stderr, "tcj-ptx: --epilogue-source %s holds a NUL byte: not CUDA C source\n", path);
      free(text);
      text = NULL;
    }
  }
  if (f) fclose(f);
  return text;
}

static int parse_i64(const char *s, int64_t *v) {
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (*s == '\0' || *end != '\0' || errno == ERANGE || x < 0) return -1;
  *v = x;
  return 0;
}

/* --group MODE:G[:ROWS]. Returns 0, or -1 when malformed. */
static int parse_group(const char *s, tcj_group_mode *mode, int *ends64, int64_t *groups, int64_t *rows) {
  static const struct { const char *name; tcj_group_mode mode; int ends64; } modes[] = {
    {"contiguous32:", TCJ_GROUP_M_CONTIGUOUS, 0},
    {"contiguous64:", TCJ_GROUP_M_CONTIGUOUS, 1},
    {"masked:", TCJ_GROUP_M_MASKED, 0},
    {"k32:", TCJ_GROUP_K_CONTIGUOUS, 0},
    {"k64:", TCJ_GROUP_K_CONTIGUOUS, 1},
  };
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
    size_t len = strlen(modes[i].name);
    if (strncmp(s, modes[i].name, len) != 0) continue;
    char count[32];
    const char *colon = strchr(s + len, ':');
    size_t count_len = colon ? (size_t)(colon - (s + len)) : strlen(s + len);
    if (count_len == 0 || count_len >= sizeof count) return -1;
    memcpy(count, s + len, count_len);
    count[count_len] = '\0';
    *rows = 0;
    if (parse_i64(count, groups) || *groups < 1 || (colon && parse_i64(colon + 1, rows))) return -1;
    *mode = modes[i].mode;
    *ends64 = modes[i].ends64;
    return 0;
  }
  return -1;
}

/* "TCJ_RECIPE=sm90: ..." is the library speaking of the variable; here the flag said it. */
static void print_select_error(const char *why, int recipe_from_flag) {
  const char *var = recipe_from_flag ? strstr(why, "TCJ_RECIPE") : NULL;
  if (!var) {
    fprintf(stderr, "tcj-ptx: %s\n", why);
    return;
  }
  const char *after = var + strlen("TCJ_RECIPE");
  if (*after == '=') after++;
  fprintf(stderr, "tcj-ptx: %.*s--recipe %s\n", (int)(var - why), why, after);
}

/* --candidates: the selected plan, then the sm90 recipe's plans in its time model's order, each
 * with the variables that force it (so that tcj-prof can time it). */
static int print_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            const eng_plan *selected, const char *selected_text) {
  char tile[96], text[512];
  if (eng_tile_override_format(&selected->cfg, tile, sizeof tile) < 0) return 1;
  printf("selected: %s\n  force: TCJ_RECIPE=%s TCJ_TILE=%s\n", selected_text, tcj_recipe_name(selected->cfg.recipe),
         tile);
  eng_candidate all[ENG_MAX_CANDIDATES];
  const char *why = NULL;
  int n = eng_sm90_candidates(p, caps, allow_packing, all, ENG_MAX_CANDIDATES, &why);
  if (n < 0) {
    printf("sm90 candidates: none (%s)\n", why);
    return ferror(stdout) ? 1 : 0;
  }
  printf("sm90 candidates, best first by the time model (estimate, config, variables that force it)%s:\n",
         strcmp(tcj_recipe_name(selected->cfg.recipe), "sm90") == 0 ? "" : "; the sm80 recipe is selected by rule");
  for (int i = 0; i < n; i++) {
    if (gemm_plan_format(&all[i].plan, text, sizeof text) < 0 ||
        eng_tile_override_format(&all[i].plan.cfg, tile, sizeof tile) < 0)
      return 1;
    printf("%3d %10.2f us  %s\n  force: TCJ_RECIPE=sm90 TCJ_TILE=%s\n", i + 1, all[i].est_us, text, tile);
  }
  return ferror(stdout) ? 1 : 0;
}

/* --hash-configs: one line per config, so that two builds' outputs can be diffed. */
static int hash_configs(const char *path, const char *source) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "tcj-ptx: --hash-configs %s: %s\n", path, strerror(errno));
    return 2;
  }
  char line[1024], arch_name[16], err[8192];
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    tcj_kernel_cfg cfg;
    if (line[0] == '\0') continue;
    if (tcj_cfg_parse(line, &cfg) != 0) {
      fprintf(stderr, "tcj-ptx: --hash-configs %s: not a kernel config: %s\n", path, line);
      rc = 2;
      break;
    }
    snprintf(arch_name, sizeof arch_name, "sm_%d%s", cfg.sm, cfg.arch_suffix == 'a' ? "a" : "");
    char *ptx = NULL;
    size_t len = 0;
    if (eng_generate_ptx(&cfg, cfg.user ? source : NULL, arch_name, &ptx, &len, err, sizeof err) != TCJ_SUCCESS) {
      err[strcspn(err, "\n")] = '\0';
      printf("error: %s  %s\n", err, line);
    } else {
      uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
      for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)ptx[i]) * 0x100000001b3ull;
      printf("%016llx %8zu  %s\n", (unsigned long long)h, len, line);
    }
    free(ptx);
  }
  fclose(f);
  return rc ? rc : ferror(stdout) ? 1 : 0;
}

int main(int argc, char **argv) {
  enum { O_ARCH = 256, O_DTYPE, O_CDTYPE, O_M, O_N, O_K, O_OPA, O_OPB, O_LDA, O_LDB, O_LDC, O_ALA, O_ALB, O_NOPACK,
         O_RECIPE, O_HELP, O_EPILOGUE, O_BATCH, O_BCAST, O_DDTYPE, O_SOURCE, O_SM_COUNT, O_BDTYPE, O_FAST,
         O_BLOCK, O_CANDIDATES, O_GENERIC, O_HASH, O_GROUP };
  static const struct option opts[] = {
    {"arch", required_argument, 0, O_ARCH},     {"dtype", required_argument, 0, O_DTYPE},
    {"c-dtype", required_argument, 0, O_CDTYPE}, {"m", required_argument, 0, O_M},
    {"n", required_argument, 0, O_N},           {"k", required_argument, 0, O_K},
    {"op-a", required_argument, 0, O_OPA},      {"op-b", required_argument, 0, O_OPB},
    {"lda", required_argument, 0, O_LDA},       {"ldb", required_argument, 0, O_LDB},
    {"ldc", required_argument, 0, O_LDC},       {"align-a", required_argument, 0, O_ALA},
    {"align-b", required_argument, 0, O_ALB},   {"no-pack", no_argument, 0, O_NOPACK},
    {"recipe", required_argument, 0, O_RECIPE}, {"help", no_argument, 0, O_HELP},
    {"epilogue", required_argument, 0, O_EPILOGUE}, {"batch", required_argument, 0, O_BATCH},
    {"broadcast-b", no_argument, 0, O_BCAST},   {"d-dtype", required_argument, 0, O_DDTYPE},
    {"epilogue-source", required_argument, 0, O_SOURCE}, {"sm-count", required_argument, 0, O_SM_COUNT},
    {"b-dtype", required_argument, 0, O_BDTYPE}, {"fast-accum", no_argument, 0, O_FAST},
    {"block-scales", no_argument, 0, O_BLOCK},  {"candidates", no_argument, 0, O_CANDIDATES},
    {"generic", no_argument, 0, O_GENERIC},     {"hash-configs", required_argument, 0, O_HASH},
    {"group", required_argument, 0, O_GROUP},
    {0, 0, 0, 0}};
  const char *arch = NULL, *source_path = NULL, *hash_path = NULL;
  int have_ab = 0, have_b = 0, have_c = 0, have_d = 0, allow_packing = 1, have_recipe = 0, broadcast_b = 0, epi = 0,
      sm_count = 0, fast_accum = 0, block_scales = 0, candidates = 0, generic = 0;
  const ptx_recipe_row *recipe = NULL;
  tcj_dtype ab = TCJ_BF16, be = TCJ_BF16, ce = TCJ_BF16, de = TCJ_BF16;
  tcj_op op_a = TCJ_OP_N, op_b = TCJ_OP_N;
  int64_t m = -1, n = -1, k = -1, lda = -1, ldb = -1, ldc = -1, align_a = 16, align_b = 16, batch = 1;
  tcj_group_mode group_mode = TCJ_GROUP_NONE;
  int group_ends64 = 0;
  int64_t groups = 0, group_rows = 0;
  int o;
  opterr = 0;
  while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    int64_t *dst = NULL;
    switch (o) {
    case 'h': case O_HELP: fputs(usage, stdout); return 0;
    case O_ARCH: arch = optarg; break;
    case O_CANDIDATES: candidates = 1; break;
    case O_GENERIC: generic = 1; break;
    case O_HASH: hash_path = optarg; break;
    case O_SM_COUNT:
      if (gemm_parse_sm_count(optarg, &sm_count)) return bad("--sm-count wants an SM count from 1 to 1024", optarg);
      break;
    case O_DTYPE: if (parse_dtype(optarg, &ab)) return bad("unknown dtype", optarg); have_ab = 1; break;
    case O_CDTYPE: if (parse_dtype(optarg, &ce)) return bad("unknown c dtype", optarg); have_c = 1; break;
    case O_DDTYPE: if (parse_dtype(optarg, &de)) return bad("unknown d dtype", optarg); have_d = 1; break;
    case O_BDTYPE: if (parse_dtype(optarg, &be)) return bad("unknown b dtype", optarg); have_b = 1; break;
    case O_FAST: fast_accum = 1; break;
    case O_BLOCK: block_scales = 1; break;
    case O_EPILOGUE: {
      int found = -1;
      for (int i = 0; i < (int)(sizeof epilogues / sizeof *epilogues); i++)
        if (strcmp(optarg, epilogues[i].name) == 0) found = i;
      if (found < 0)
        return bad("--epilogue wants none, bias, bias_relu, bias_gelu, bias_gelu_tanh, bias_silu, swiglu or "
                   "bias_swiglu", optarg);
      epi = found;
      break;
    }
    case O_BATCH: dst = &batch; break;
    case O_BCAST: broadcast_b = 1; break;
    case O_GROUP:
      if (parse_group(optarg, &group_mode, &group_ends64, &groups, &group_rows))
        return bad("--group wants contiguous32, contiguous64, masked, k32 or k64, a group count >= 1 and "
                   "optionally the rows (k32/k64: the depth) per group (MODE:G[:ROWS])", optarg);
      break;
    case O_SOURCE: source_path = optarg; break;
    case O_OPA: case O_OPB: {
      int t = strcmp(optarg, "T") == 0 || strcmp(optarg, "t") == 0;
      if (!t && strcmp(optarg, "N") != 0 && strcmp(optarg, "n") != 0) return bad("op must be N or T", optarg);
      *(o == O_OPA ? &op_a : &op_b) = t ? TCJ_OP_T : TCJ_OP_N;
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
    if (dst && parse_i64(optarg, dst)) return bad("expected a non-negative integer below 2^63", optarg);
  }
  if (optind < argc) return bad("unexpected argument", argv[optind]);
  if (hash_path) {
    char *text = source_path ? read_source(source_path) : NULL;
    if (source_path && !text) return 2;
    int rc = hash_configs(hash_path, text);
    free(text);
    return rc;
  }
  if (!arch || !have_ab || m < 0 || n < 0 || k < 0) return bad("--arch, --dtype, --m, --n and --k are required", NULL);
  if (!have_c) /* fp8: bf16, as in manifests */
    ce = ab == TCJ_TF32 || ab == TCJ_F32 ? TCJ_F32 : ab == TCJ_S8 ? TCJ_S32 : gemm_dtype_is_fp8(ab) ? TCJ_BF16 : ab;
  if (align_a < 1 || align_a > 16 || (align_a & (align_a - 1)) || align_b < 1 || align_b > 16 ||
      (align_b & (align_b - 1)))
    return bad("alignment must be 1, 2, 4, 8 or 16", NULL);
  if (batch < 1) return bad("--batch wants 1 or more entries", "0");
  if (group_mode != TCJ_GROUP_NONE && batch > 1) return bad("--group and --batch exclude each other", NULL);
  if (broadcast_b && batch < 2 && group_mode == TCJ_GROUP_NONE)
    return bad("--broadcast-b needs --batch 2 or more, or --group", NULL);

  eng_device_caps caps;
  if (eng_caps_for_arch(arch, &caps) != 0) {
    fprintf(stderr, "tcj-ptx: unknown arch %s (sm_80 sm_86 sm_87 sm_89 sm_90[a] sm_100[a] sm_120[a])\n", arch);
    return 2;
  }
  if (sm_count) caps.sm_count = sm_count;
  /* The problem as tcj_gemm_ex would see it, through the library's own checks: stand-in
   * device addresses 16 TiB apart with the asked alignment, leading dimensions packed unless
   * given, batch entries packed one after the other (B and the bias once when broadcast), block
   * scales after them. */
  if (lda < 0) lda = op_a == TCJ_OP_T ? m : k;
  int64_t b_cols = epilogues[epi].act == TCJ_ACT_SWIGLU ? 2 * n : n; /* op(B)'s columns */
  if (ldb < 0) ldb = op_b == TCJ_OP_T ? k : b_cols;
  if (ldc < 0) ldc = n;
  tcj_dtype out = have_d ? de : ce;
  tcj_gemm_desc g = TCJ_GEMM_DESC_INIT;
  g.op_a = op_a;
  g.op_b = op_b;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = (const void *)(uintptr_t)((1ull << 44) + (uint64_t)(align_a % 16));
  g.a_type = ab;
  g.lda = lda;
  g.b = (const void *)(uintptr_t)((2ull << 44) + (uint64_t)(align_b % 16));
  g.b_type = have_b ? be : ab;
  g.ldb = ldb;
  g.c_type = ce;
  g.ldc = ldc;
  if (have_d) { /* C is not given: beta 0 */
    g.d = (void *)(uintptr_t)(3ull << 44);
    g.d_type = de;
    g.ldd = ldc;
  } else {
    g.c = (void *)(uintptr_t)(3ull << 44);
  }
  g.beta = 0.0f;
  if (epilogues[epi].bias != TCJ_BIAS_NONE) {
    g.bias = (const void *)(uintptr_t)(4ull << 44);
    g.bias_type = out == TCJ_S32 ? TCJ_F32 : gemm_dtype_is_fp8(out) ? ce : out;
    g.bias_kind = epilogues[epi].bias;
  }
  g.activation = epilogues[epi].act;
  /* The fp8 fields, set as asked: validation refuses them for other operands, naming them. */
  g.fast_accum = fast_accum;
  if (block_scales) {
    g.scale_mode = TCJ_SCALE_BLOCK;
    g.scale_a = (const float *)(uintptr_t)(5ull << 44);
    g.scale_b = (const float *)(uintptr_t)(6ull << 44);
  }
  if (batch > 1) {
    g.batch_count = batch;
    g.stride_a = (op_a == TCJ_OP_T ? k : m) * lda;
    g.stride_b = broadcast_b ? 0 : (op_b == TCJ_OP_T ? b_cols : k) * ldb;
    *(have_d ? &g.stride_d : &g.stride_c) = m * ldc;
    g.stride_bias = broadcast_b ? 0 : b_cols;
  }
  if (group_mode != TCJ_GROUP_NONE) { /* the arrays at an aligned address apart from every operand */
    g.group_mode = group_mode;
    g.group_count = groups;
    g.group_rows_hint = group_rows;
    if (group_mode == TCJ_GROUP_M_MASKED) {
      g.group_counts = (const int32_t *)(uintptr_t)(7ull << 44);
      g.stride_a = (op_a == TCJ_OP_T ? k : m) * lda;
      *(have_d ? &g.stride_d : &g.stride_c) = m * ldc;
    } else if (group_ends64) {
      g.group_ends64 = (const int64_t *)(uintptr_t)(7ull << 44);
    } else {
      g.group_ends32 = (const int32_t *)(uintptr_t)(7ull << 44);
    }
    g.stride_b = broadcast_b ? 0 : (op_b == TCJ_OP_T ? b_cols : k) * ldb;
    g.stride_bias = broadcast_b ? 0 : b_cols;
    if (group_mode == TCJ_GROUP_K_CONTIGUOUS) { /* one A and one B along k; a D (and bias) per group */
      g.stride_b = 0;
      *(have_d ? &g.stride_d : &g.stride_c) = m * ldc;
    }
  }
  char *source = NULL;
  if (source_path) {
    if (!eng_nvrtc_available(NULL, 0)) {
      fprintf(stderr, "tcj-ptx: --epilogue-source needs NVRTC (libnvrtc.so.13 or .12) to compile %s, and it was not "
              "found\n", source_path);
      return 1;
    }
    if (!(source = read_source(source_path))) return 2;
    g.epilogue_source = source;
  }
  eng_problem p;
  tcj_status vs = eng_validate_desc(&g, &p);
  if (vs != TCJ_SUCCESS) {
    fprintf(stderr, "tcj-ptx: %s\n", eng_last_error());
    free(source);
    return vs == TCJ_ERROR_INVALID_VALUE ? 2 : 1;
  }
  if (p.user) p.user = eng_epilogue_hash(source); /* as the engine keys it */
  int rc = 1;

  eng_tuning tuning;
  const char *why = eng_tuning_from_env(&tuning);
  if (why) {
    free(source);
    return bad(why, NULL);
  }
  if (have_recipe) tuning.recipe = recipe;
  eng_plan plan;
  const char *reason;
  char text[512], arch_name[16], err[8192];
  char *ptx = NULL;
  size_t len = 0;
  if (generic) tuning.generic = 1;
  if (eng_select_tuned(&p, &caps, allow_packing, &tuning, &plan, &why) != TCJ_SUCCESS) {
    print_select_error(why, have_recipe);
  } else if ((reason = tcj_cfg_check(&plan.cfg)) != NULL) {
    fprintf(stderr, "tcj-ptx: selected config is invalid: %s\n", reason);
  } else if (gemm_plan_format(&plan, text, sizeof text) < 0) {
    fprintf(stderr, "tcj-ptx: config text too long\n");
  } else if (candidates) {
    rc = print_candidates(&p, &caps, allow_packing, &plan, text);
  } else {
    /* The module tcj would compile: NVRTC's code of a user epilogue joins it. */
    snprintf(arch_name, sizeof arch_name, "sm_%d%s", plan.cfg.sm, plan.cfg.arch_suffix == 'a' ? "a" : "");
    tcj_status st = eng_generate_ptx(&plan.cfg, source, arch_name, &ptx, &len, err, sizeof err);
    if (st != TCJ_SUCCESS) {
      fprintf(stderr, "tcj-ptx: %s\n", err);
    } else {
      printf("// %s\n", text);
      fwrite(ptx, 1, len, stdout);
      rc = ferror(stdout) ? 1 : 0;
    }
  }
  free(ptx);
  free(source);
  return rc;
}
