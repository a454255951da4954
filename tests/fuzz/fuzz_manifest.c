/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer harness of the problem-manifest parser, manifest_parse() (tools/manifest.c over
 * libyaml): tcj-warmup and tcj-prof read manifests users write. Whatever the bytes, it returns a
 * manifest within its limits, or -1 with a NUL-terminated message and nothing to free. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz_check.h"
#include "tools/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  manifest m;
  char err[512];
  memset(err, 'x', sizeof err); /* no NUL: the parser must write one */
  /* The bytes as they are, without a terminating NUL: the parser must go by the length. */
  if (manifest_parse((const char *)data, size, "fuzz.yaml", &m, err, sizeof err) != 0) {
    CHECK(memchr(err, '\0', sizeof err) != NULL);
    CHECK(strncmp(err, "fuzz.yaml:", 10) == 0);
    CHECK(m.nproblems == 0 && m.problems == NULL && m.nentries == 0 && m.entries == NULL);
    CHECK(m.ntargets == 0 && m.targets == NULL && m.suite == NULL);
    return 0;
  }
  CHECK(m.nproblems >= 1 && m.nproblems <= MANIFEST_MAX_PROBLEMS);
  CHECK(m.nentries >= 1 && m.entries != NULL && m.problems != NULL);
  for (size_t i = 0; i < m.nproblems; i++) {
    const manifest_problem *p = &m.problems[i];
    CHECK(p->m >= 0 && p->m <= MANIFEST_MAX_SIZE);
    CHECK(p->n >= 0 && p->n <= MANIFEST_MAX_SIZE);
    CHECK(p->k >= 0 && p->k <= MANIFEST_MAX_SIZE);
    CHECK(p->entry < m.nentries && p->name == m.entries[p->entry].name && p->name != NULL);
    CHECK(strcmp(tcj_dtype_name(p->ab), "unknown dtype") != 0 && strcmp(tcj_dtype_name(p->c), "unknown dtype") != 0);
    CHECK(p->op_a == TCJ_OP_N || p->op_a == TCJ_OP_T);
    CHECK(p->op_b == TCJ_OP_N || p->op_b == TCJ_OP_T);
    CHECK((unsigned)p->epilogue < MANIFEST_EPI_COUNT && strcmp(manifest_epilogue_name(p->epilogue), "?") != 0);
    CHECK(p->batch >= 1 && p->batch <= MANIFEST_MAX_BATCH);
    CHECK(!p->broadcast_b || p->batch >= 2);
    CHECK(strcmp(tcj_dtype_name(p->d), "unknown dtype") != 0 && (p->has_d || p->d == p->c));
    CHECK(p->epilogue_source == m.entries[p->entry].epilogue_text && p->epilogue_path == m.entries[p->entry].epilogue_path);
    CHECK(!p->epilogue_source || (p->epilogue_path && strlen(p->epilogue_source) >= 1 &&
                                  strlen(p->epilogue_source) <= MANIFEST_MAX_SOURCE));
  }
  for (size_t i = 0; i < m.nentries; i++) {
    const manifest_entry *e = &m.entries[i];
    CHECK(e->name != NULL && e->line >= 1 && e->col >= 1);
    for (size_t j = 0; j < e->nrefs; j++) CHECK(strncmp(e->refs[j].key, "cublas_", 7) == 0);
  }
  for (size_t i = 0; i < m.ntargets; i++) CHECK(m.targets[i] != NULL && m.targets[i][0] != '\0');
  manifest_free(&m);
  CHECK(m.nproblems == 0 && m.problems == NULL);
  return 0;
}
