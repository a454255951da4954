/* SPDX-License-Identifier: Apache-2.0 */
/* The engine facts and steps that tools may use (engine/tools_api.h). Layer: an entry point
 * beside gemm.c and engine.c: it calls the files below it, none calls it. */
#include "engine/tools_api.h"

#include "engine/autotune.h"
#include "engine/engine.h"

const char *eng_engine_arch(const tcj_engine *e) { return e->arch; }

void eng_engine_caps(const tcj_engine *e, eng_device_caps *caps) { *caps = e->caps; }

tcj_status eng_engine_select(const tcj_engine *e, const eng_problem *p, eng_plan *plan, const char **why) {
  return eng_select_tuned(p, &e->caps, e->allow_packing, &e->tuning, plan, why);
}

int eng_engine_tunes(const tcj_engine *e) { return e->autotune; }

int eng_engine_tuned_plan(tcj_engine *e, const eng_problem *p, eng_plan *plan) {
  return e->autotune && eng_autotune_known(e, p, plan);
}

const eng_cuda_api *eng_engine_driver(const tcj_engine *e) { return e->cu; }

tcj_status eng_engine_enter(tcj_engine *e, int *pushed) { return eng_ctx_enter(e, pushed); }

void eng_engine_leave(tcj_engine *e, int pushed) { eng_ctx_leave(e, pushed); }
