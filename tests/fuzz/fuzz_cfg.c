/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer harness of the two config-text parsers: tcj_cfg_parse() (the canonical kernel config
 * text of cache keys and tcj-ptx) and eng_tile_override_parse() (TCJ_TILE). A config that parses
 * and passes tcj_cfg_check must format back to the same text and parse back to the same struct. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/select.h"
#include "fuzz/fuzz_check.h"
#include "ptxgen/kernel_cfg.h"

/* Every field is compared below: a new one must be added there (then update this size). */
_Static_assert(sizeof(tcj_kernel_cfg) == 184, "tcj_kernel_cfg changed: compare its new fields in fuzz_cfg_text");

/* The kernel config text: parse, check, and when it passes, format -> parse -> same config. */
static void fuzz_cfg_text(const char *text) {
  tcj_kernel_cfg a, b;
  memset(&a, 0, sizeof a);
  if (tcj_cfg_parse(text, &a) != 0) return;
  /* Only the canonical spelling parses, so the text formats back to itself even unchecked. */
  char canon[512], again[512];
  int len = tcj_cfg_format(&a, canon, sizeof canon);
  CHECK(len >= 0 && strcmp(canon, text) == 0);
  if (tcj_cfg_check(&a) != NULL) return;
  (void)tcj_cfg_threads(&a);
  CHECK(tcj_cfg_smem_bytes(&a) > 0);
  CHECK(tcj_cfg_slice_tiles(&a) >= 0);
  /* A generic kernel bakes nothing of n and k: they are 0, and no split or cluster along N. */
  if (a.generic) CHECK(a.n == 0 && a.k == 0 && a.split_k == 0 && a.cluster_n == 0);
  /* Field by field: struct padding may differ between two parses. */
  memset(&b, 0xa5, sizeof b);
  CHECK(tcj_cfg_parse(canon, &b) == 0);
#define SAME(field) CHECK(a.field == b.field)
  SAME(recipe); SAME(sm); SAME(arch_suffix); SAME(ab); SAME(c); SAME(op_a_t); SAME(op_b_t);
  SAME(n); SAME(k); SAME(bm); SAME(bn); SAME(bk); SAME(warps_m); SAME(warps_n); SAME(stages);
  SAME(align_a); SAME(align_b); SAME(vec_c); SAME(split_k); SAME(cluster_m); SAME(cluster_n); SAME(pingpong);
  SAME(d); SAME(bias); SAME(act); SAME(batched); SAME(user); SAME(b_other); SAME(fast_accum); SAME(block_scale);
  SAME(generic); SAME(split_cluster); SAME(user_t); SAME(tf32x3); SAME(grouped); SAME(scale_row);
  SAME(row_scale); SAME(b_ptrs); SAME(gather); SAME(scatter);
  if (a.bias) SAME(bias_t);
#undef SAME
  CHECK(tcj_cfg_format(&b, again, sizeof again) == len && strcmp(again, canon) == 0);
}

/* TCJ_TILE: parse, then force the tile onto the plans select makes for one problem on sm_80
 * and sm_90a, as the engine does with the variable's value. */
static void fuzz_tile_text(const char *text) {
  eng_tile_override o, before;
  memset(&o, 0x5a, sizeof o);
  before = o;
  if (eng_tile_override_parse(text, &o) != 0) {
    CHECK(memcmp(&o, &before, sizeof o) == 0); /* a failed parse leaves the output alone */
    return;
  }
  CHECK(o.valid == 1);
  CHECK(o.cluster_m == 0 || o.cluster_m == 2 || o.cluster_m == 4);
  CHECK(o.cluster_n == 0 || o.cluster_n == 2 || o.cluster_n == 4);
  CHECK(!(o.cluster_m && o.cluster_n));
  CHECK(o.pingpong == 0 || o.pingpong == 1);
  static const char *const archs[] = {"sm_80", "sm_90a"};
  for (size_t i = 0; i < sizeof archs / sizeof *archs; i++) {
    eng_device_caps caps;
    CHECK(eng_caps_for_arch(archs[i], &caps) == 0);
    eng_problem p = {.op_a_t = 0, .op_b_t = 0, .m = 4096, .n = 4096, .k = 4096, .lda = 4096,
                     .ldb = 4096, .ldc = 4096, .ab = PTX_E_BF16, .c = PTX_E_BF16,
                     .align_a = 16, .align_b = 16, .align_c = 16};
    eng_problem_plain_epilogue(&p);
    eng_tuning t = {NULL, o, 0};
    eng_plan plan;
    const char *why = NULL;
    if (eng_select_tuned(&p, &caps, 1, &t, &plan, &why) == TCJ_SUCCESS) {
      CHECK(tcj_cfg_check(&plan.cfg) == NULL);
      CHECK(plan.cfg.bm == o.bm && plan.cfg.bn == o.bn && plan.cfg.stages == o.stages);
      CHECK(tcj_cfg_smem_bytes(&plan.cfg) <= caps.max_smem_optin);
    } else {
      CHECK(why != NULL && strstr(why, "TCJ_TILE: ") != NULL);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  fuzz_cfg_text(text);
  fuzz_tile_text(text);
  free(text);
  return 0;
}
