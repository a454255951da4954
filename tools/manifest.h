/* Problem manifests (the format of bench/suite.yaml), shared by tcj-warmup and the profiler:
 * a YAML file of GEMM problems whose sizes may be lists or grids, expanded here into a flat
 * array. Every error names FILE:LINE:COL (1-based) and the offending key or value. */
#ifndef TCJ_TOOLS_MANIFEST_H
#define TCJ_TOOLS_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "tcj.h"

#define MANIFEST_MAX_SIZE 2147483647LL  /* m, n, k: the engine passes M as a 32-bit value */
#define MANIFEST_MAX_PROBLEMS (1u << 20) /* after expansion: a typo in a grid must not eat RAM */

/* A reference number given with a problem (`cublas_h200: 23.6`), kept for tools that report
 * against it. */
typedef struct manifest_ref {
  char *key;
  double value;
} manifest_ref;

/* One `problems:` item as written. */
typedef struct manifest_entry {
  char *name;     /* `name:`, else "#<1-based position in problems:>" */
  int line, col;  /* of the item, 1-based */
  manifest_ref *refs;
  size_t nrefs;
} manifest_entry;

/* One problem after expansion of list- or grid-valued m, n, k (m outermost, k innermost). */
typedef struct manifest_problem {
  const char *name; /* the entry's name */
  size_t entry;     /* index into manifest.entries */
  int64_t m, n, k;
  tcj_dtype ab, c;  /* ab: F16 BF16 TF32 E4M3 E5M2 S8; c: F16 BF16 F32 S32 */
  tcj_op op_a, op_b;
} manifest_problem;

typedef struct manifest {
  char *suite; /* `suite:`, or NULL */
  manifest_entry *entries;
  size_t nentries;
  manifest_problem *problems;
  size_t nproblems;
  char **targets; /* `targets:` archs ("sm_80", "sm_90a"), each known to eng_caps_for_arch */
  size_t ntargets;
} manifest;

/* Parses the manifest at path. Returns 0, or -1 with "FILE:LINE:COL: message" (or "FILE:
 * message" when it cannot be read) in err; *out is then empty and needs no manifest_free. */
int manifest_load(const char *path, manifest *out, char *err, size_t err_size);

/* The same from memory; file names the text in messages. */
int manifest_parse(const char *text, size_t len, const char *file, manifest *out, char *err,
                   size_t err_size);

void manifest_free(manifest *m); /* NULL or an empty manifest: no-op */

/* "bf16", "e4m3", "s32", ...; "?" for a type manifests do not use. */
const char *manifest_dtype_name(tcj_dtype t);

#endif
