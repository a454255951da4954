/* SPDX-License-Identifier: Apache-2.0 */
/* What the tools (tools/) may use of the library's internals, beside the public tcj.h: the one
 * internal header they include. Internals not named here may change without a tool noticing;
 * a tool that needs another call adds it here first (tests/tools/tools_api.sh checks that the
 * tools include no other internal header and call nothing that is not listed here).
 *
 *   validate     eng_validate_desc, eng_dtype_name, eng_last_error, eng_epilogue_hash
 *   types        ptx_elem_of_dtype, ptx_elem_combination (ptxgen/elem.h: the type rules)
 *   select       eng_caps_for_arch, eng_tuning_from_env, eng_recipe_parse, eng_select_tuned,
 *                eng_sm90_candidates, eng_tile_override_format, eng_generic_set,
 *                eng_generic_pairs
 *   generate     eng_generate_ptx, ptx_gen_gemm, ptx_elem_name, tcj_cfg_format, tcj_cfg_parse,
 *                tcj_cfg_check, tcj_cfg_kernel_form
 *   compile      eng_jit_compile, eng_jit_compile_nvjitlink, eng_cubin_compiler, eng_cubin_free,
 *                eng_info_log_spills,
 *                eng_nvjitlink_available, eng_nvrtc_available
 *   cache        eng_cache_key, eng_cache_publish, eng_compiler_identity (engine/build.h);
 *                cache_disk_config_from_env, cache_disk_config_with_dir, cache_disk_open,
 *                cache_disk_close, cache_disk_dir, cache_disk_prepare, cache_disk_set_warn;
 *                cache_admin_scan, cache_admin_usage, cache_admin_prune, cache_admin_clear,
 *                cache_parse_bytes (cache/disk_admin.h)
 *   warmup       eng_warm_offline, eng_warm_engine (engine/warm.h), eng_create_tuned
 *   an engine    eng_engine_arch, eng_engine_caps, eng_engine_select, eng_engine_tunes,
 *                eng_engine_tuned_plan, eng_engine_driver, eng_engine_enter, eng_engine_leave
 *   the driver   eng_cuda_load, eng_cuda_error_name, eng_libfile_find
 *
 * Tools never steer the engine through the environment: a setting a tool needs is a call
 * here (tcj-warmup --tune: eng_create_tuned, not setenv("TCJ_TUNE")). */
#ifndef TCJ_ENG_TOOLS_API_H
#define TCJ_ENG_TOOLS_API_H

#include <stddef.h>

#include "cache/disk_admin.h"
#include "cache/disk_cache.h"
#include "engine/build.h"
#include "engine/cuda_api.h"
#include "engine/error.h"
#include "engine/generate.h"
#include "engine/generic_set.h"
#include "engine/jit.h"
#include "engine/libfile.h"
#include "engine/nvrtc.h"
#include "engine/select.h"
#include "engine/validate.h"
#include "engine/warm.h"
#include "ptxgen/kernel_cfg.h"
#include "ptxgen/ptxgen.h"
#include "tcj.h"

/* tcj_create as if TCJ_TUNE=1 were set, without reading or writing the variable (engine.c). */
tcj_status eng_create_tuned(tcj_engine **engine, const tcj_options *opts);

/* The arch an engine compiles for ("sm_90a"). */
const char *eng_engine_arch(const tcj_engine *e);
/* The caps an engine selects with: its GPU's SM count and shared memory (and arch). */
void eng_engine_caps(const tcj_engine *e, eng_device_caps *caps);
/* The plan e selects for p before any tuning: its caps, packing and knobs (TCJ_RECIPE, ...).
 * *why: the reason when it fails. */
tcj_status eng_engine_select(const tcj_engine *e, const eng_problem *p, eng_plan *plan, const char **why);
/* Whether e tunes (TCJ_TUNE=1 at tcj_create, or eng_create_tuned; no TCJ_RECIPE or TCJ_TILE). */
int eng_engine_tunes(const tcj_engine *e);
/* Under tuning: the tuned choice e now runs p with (*plan: in, the plan select chose; out,
 * the choice). Returns 1 when e tunes and knows a choice for p, else 0 (*plan unchanged). */
int eng_engine_tuned_plan(tcj_engine *e, const eng_problem *p, eng_plan *plan);

/* The driver table of e, for a tool that allocates on e's GPU, between eng_engine_enter (which
 * makes e's context current on this thread; *pushed says whether eng_engine_leave pops it)
 * and eng_engine_leave. Errors: see tcj_last_error. */
const eng_cuda_api *eng_engine_driver(const tcj_engine *e);
tcj_status eng_engine_enter(tcj_engine *e, int *pushed);
void eng_engine_leave(tcj_engine *e, int pushed);

#endif
