/* SPDX-License-Identifier: Apache-2.0 */
/* Error recording for the engine: each thread keeps the message of its last failure, so
 * concurrent tcj_gemm calls on one engine never overwrite each other's reasons. */
#ifndef TCJ_ENG_ERROR_H
#define TCJ_ENG_ERROR_H

#include "tcj.h"

#define ENG_ERROR_MAX 4096 /* room for an NVRTC log of a user epilogue */

/* Records a message for this thread and returns status, so callers can `return eng_set_error(..)`. */
tcj_status eng_set_error(tcj_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* This thread's last message ("" if none). */
const char *eng_last_error(void);

/* Records "<call>: <CUDA error name>" and maps the driver result onto a tcj status. */
tcj_status eng_cuda_error(CUresult r, const char *call);

#endif
