/* SPDX-License-Identifier: Apache-2.0 */
/* Selection's arch caps: the built-in table of what each arch offers, for tools that select
 * without a GPU (eng_caps_for_arch). */
#include <string.h>

#include "engine/select.h"

/* Built-in caps for GPU-less selection. SM counts are the flagship part of each arch;
 * shared memory is cudaDevAttrMaxSharedMemoryPerBlockOptin. */
static const struct arch_caps {
  int sm, sm_count, max_smem_optin, has_a; /* has_a: an sm_NNa target exists */
} arch_table[] = {
  {80, 108, 166912, 0},  /* A100 */
  {86, 84, 101376, 0},   /* RTX 3090 / A40 */
  {87, 16, 166912, 0},   /* Jetson AGX Orin */
  {89, 128, 101376, 0},  /* RTX 4090 / L40 */
  {90, 132, 232448, 1},  /* H100 / H200 */
  {100, 148, 232448, 1}, /* B200 */
  {120, 170, 101376, 1}, /* RTX 5090 */
};

int eng_caps_for_arch(const char *arch, eng_device_caps *caps) {
  /* Canonical names only: "sm_", digits without sign, space or leading zero, an optional "a".
   * sscanf's %d would take "sm_+80" and "sm_ 80", which then compare unequal to "sm_80". */
  if (!arch || strncmp(arch, "sm_", 3) != 0 || arch[3] < '1' || arch[3] > '9') return -1;
  int sm = 0, used = 3;
  while (arch[used] >= '0' && arch[used] <= '9' && used < 6) sm = sm * 10 + (arch[used++] - '0');
  int suffix = 0;
  if (arch[used] == 'a' && arch[used + 1] == '\0') suffix = 'a';
  else if (arch[used] != '\0') return -1;
  for (size_t i = 0; i < sizeof arch_table / sizeof *arch_table; i++) {
    const struct arch_caps *t = &arch_table[i];
    if (t->sm != sm) continue;
    if (suffix && !t->has_a) return -1;
    caps->sm = sm;
    caps->arch_suffix = suffix;
    caps->sm_count = t->sm_count;
    caps->max_smem_optin = t->max_smem_optin;
    return 0;
  }
  return -1;
}
