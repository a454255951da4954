/* SPDX-License-Identifier: Apache-2.0 */
/* Selection's tuning knobs: TCJ_RECIPE, TCJ_TILE and TCJ_JIT parsed, and a forced tile applied
 * to a plan (or spelled back from a config), so that other choices are measured without
 * rebuilding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/select.h"
#include "ptxgen/ptxgen.h"

int eng_recipe_parse(const char *text, const ptx_recipe_row **out) {
  if (strcmp(text, "auto") == 0) {
    *out = NULL;
    return 0;
  }
  const ptx_recipe_row *row = ptx_recipe_named(text);
  if (!row || !row->forceable) return -1;
  *out = row;
  return 0;
}

const char *eng_recipe_check(const ptx_recipe_row *recipe, const eng_device_caps *caps) {
  return recipe && recipe->arch_check ? recipe->arch_check(caps->sm, caps->arch_suffix) : NULL;
}

int eng_tile_override_parse(const char *text, eng_tile_override *out) {
  eng_tile_override o;
  memset(&o, 0, sizeof o);
  int used = 0;
  if (sscanf(text, "%dx%dx%d/%dx%d/%d%n", &o.bm, &o.bn, &o.bk_bytes, &o.warps_m, &o.warps_n,
             &o.stages, &used) != 6)
    return -1;
  /* Optional suffixes, in this order: /c2, /c4, /cn2 or /cn4 (clusters along M or N), /pp (ping-pong
   * consumers), /sN or /scN (K slices). */
  const char *rest = text + used;
  if (strncmp(rest, "/c2", 3) == 0) { o.cluster_m = 2; rest += 3; }
  else if (strncmp(rest, "/c4", 3) == 0) { o.cluster_m = 4; rest += 3; }
  else if (strncmp(rest, "/cn2", 4) == 0) { o.cluster_n = 2; rest += 4; }
  else if (strncmp(rest, "/cn4", 4) == 0) { o.cluster_n = 4; rest += 4; }
  if (strncmp(rest, "/pp", 3) == 0) { o.pingpong = 1; rest += 3; }
  if (strncmp(rest, "/ew", 3) == 0) { o.epi_whole = 1; rest += 3; }
  if (strncmp(rest, "/s", 2) == 0) {
    rest += 2;
    if (*rest == 'c') { o.split_cluster = 1; rest++; }
    if (*rest < '0' || *rest > '9' || sscanf(rest, "%2d%n", &o.split_k, &used) != 1) return -1;
    rest += used;
    o.split_set = 1;
    if (o.split_k < 2) o.split_k = o.split_cluster = 0;
  }
  if (*rest != '\0') return -1;
  o.valid = 1;
  *out = o;
  return 0;
}

int eng_tile_override_format(const tcj_kernel_cfg *c, char *buf, size_t size) {
  const char *split = c->split_k >= 2 ? (c->split_cluster ? "/sc" : "/s") : "/s";
  char cluster[16] = "";
  if (c->cluster_m >= 2 || c->cluster_n >= 2)
    snprintf(cluster, sizeof cluster, "/c%s%d", c->cluster_n >= 2 ? "n" : "", tcj_cfg_cluster_ctas(c));
  int n = snprintf(buf, size, "%dx%dx%d/%dx%d/%d%s%s%s%s%d", c->bm, c->bn, c->bk * ptx_elem_size(c->ab), c->warps_m,
                   c->warps_n, c->stages, cluster, c->pingpong ? "/pp" : "", c->epi_whole ? "/ew" : "", split,
                   c->split_k >= 2 ? c->split_k : 0);
  return n >= 0 && (size_t)n < size ? n : -1;
}

const char *eng_tile_override_apply(const eng_tile_override *ov, const eng_device_caps *caps,
                                    eng_plan *plan) {
  if (!ov->valid) return NULL;
  tcj_kernel_cfg *c = &plan->cfg;
  c->bm = ov->bm;
  c->bn = ov->bn;
  c->bk = ov->bk_bytes / ptx_elem_size(c->ab);
  c->warps_m = ov->warps_m;
  c->warps_n = ov->warps_n;
  c->stages = ov->stages;
  c->cluster_m = ov->cluster_m;
  c->cluster_n = ov->cluster_n;
  c->pingpong = ov->pingpong;
  c->epi_whole = 0;
  const char *why;
  if (ov->split_set) {
    c->split_k = ov->split_k;
    c->split_cluster = ov->split_cluster;
    why = tcj_cfg_check(c);
  } else {
    why = tcj_cfg_check(c);
    /* A K split chosen for the selected tile stays where the forced tile can take it; ping-pong
     * or another K tile may not (sm90 splits run cooperative consumers, alone or in pairs). */
    if (why && c->split_k) {
      c->split_k = c->split_cluster = 0;
      why = tcj_cfg_check(c);
    }
  }
  if (!why && tcj_cfg_smem_bytes(c) > caps->max_smem_optin) why = "needs more shared memory than the device has";
  /* /ew is a mode of the TMA store path: kernels that store D otherwise (user epilogues,
   * scattered rows, fp8), or whose whole tile of D does not fit beside the stages (f32 D), keep
   * their own epilogue, so one forced tile runs every problem. */
  if (!why && ov->epi_whole && c->recipe != PTX_RECIPE_SM90) why = "/ew is the sm90 recipe's TMA store epilogue";
  if (!why && ov->epi_whole) { /* the check refuses it where D does not store through TMA */
    c->epi_whole = 1;
    if (tcj_cfg_check(c) || tcj_cfg_smem_bytes(c) > caps->max_smem_optin) c->epi_whole = 0;
  }
  return why;
}

int eng_jit_mode_parse(const char *text) {
  if (!text || !*text) return TCJ_JIT_DEFAULT;
  if (strcmp(text, "sync") == 0) return TCJ_JIT_SYNC;
  if (strcmp(text, "generic") == 0) return TCJ_JIT_GENERIC;
  if (strcmp(text, "async") == 0) return TCJ_JIT_ASYNC;
  return -1;
}

const char *eng_tuning_from_env(eng_tuning *out) {
  static _Thread_local char msg[200];
  memset(out, 0, sizeof *out);
  const char *recipe = getenv("TCJ_RECIPE"), *tile = getenv("TCJ_TILE");
  if (recipe && *recipe && eng_recipe_parse(recipe, &out->recipe) != 0) {
    snprintf(msg, sizeof msg, "TCJ_RECIPE=\"%.64s\" is not sm80, sm90 or auto", recipe);
    return msg;
  }
  if (tile && *tile && eng_tile_override_parse(tile, &out->tile) != 0) {
    snprintf(msg, sizeof msg, "TCJ_TILE=\"%.64s\" is not BMxBNxBK_BYTES/WMxWN/STAGES[/c2|/c4|/cn2|/cn4][/pp][/ew][/sN|/scN]", tile);
    return msg;
  }
  const char *jit = getenv("TCJ_JIT");
  int mode = eng_jit_mode_parse(jit);
  if (mode < 0) {
    snprintf(msg, sizeof msg, "TCJ_JIT=\"%.64s\" is not sync, generic or async", jit);
    return msg;
  }
  out->generic = mode == TCJ_JIT_GENERIC;
  return NULL;
}
