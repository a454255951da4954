/* SPDX-License-Identifier: Apache-2.0 */
/* A user epilogue's PTX (NVRTC's module for TCJ_EPILOGUE_SIGNATURE) made ready to join tcj's
 * own module: its header goes, its functions stay (PTX_USER_EPILOGUE_PROTO declares the
 * function where a call comes before them). Pure text, no CUDA. */
#ifndef TCJ_PTX_USER_EPILOGUE_H
#define TCJ_PTX_USER_EPILOGUE_H

#include <stddef.h>

#define PTX_USER_EPILOGUE_NAME "tcj_epilogue"

/* The declaration of tcj_epilogue for a module that calls it before the body comes (a module
 * that has the body before its kernels needs none). The parameter types are NVRTC 13.0's for
 * TCJ_EPILOGUE_SIGNATURE, which ptx_user_epilogue_body insists on (floats as .b32, long long
 * and pointers as .b64):
 *   .visible .func (.param .b32 func_retval0) tcj_epilogue(.param .b32 v, .param .b32 c,
 *       .param .b64 row, .param .b64 col, .param .b64 batch, .param .b64 params);
 * A call, inside a { } scope of its own so that the .param names can be reused per call:
 *   {
 *     .param .b32 ep_v; .param .b32 ep_c; .param .b64 ep_row; .param .b64 ep_col;
 *     .param .b64 ep_batch; .param .b64 ep_params; .param .b32 ep_ret;
 *     st.param.f32 [ep_v], %f_v;      st.param.f32 [ep_c], %f_c;
 *     st.param.b64 [ep_row], %rd_row; st.param.b64 [ep_col], %rd_col;
 *     st.param.b64 [ep_batch], %rd_z; st.param.b64 [ep_params], %rd_params;
 *     call.uni (ep_ret), tcj_epilogue, (ep_v, ep_c, ep_row, ep_col, ep_batch, ep_params);
 *     ld.param.f32 %f_out, [ep_ret];
 *   }
 * call.uni only where the whole warp makes the call together (otherwise plain call). The call
 * is not inlined: nvJitLink 13.0 emits a CALL.ABS to one copy of the function, arguments and
 * result in registers (standalone ptxas: a CALL.REL to a per-kernel copy). Ends with ";\n". */
extern const char PTX_USER_EPILOGUE_PROTO[];

/* Takes NVRTC's PTX module for a user epilogue and returns in *body (malloc'ed, NUL-terminated,
 * *body_len bytes, caller frees) everything but its .version, .target and .address_size
 * directives and its // comment lines; *version_x10 gets its .version as major * 10 + minor
 * (90 for 9.0), which the joined module must declare at least. Returns 0, or -1 with a reason
 * in err when the text is not such a module: no .version or not 64-bit addresses, no .func
 * definition of tcj_epilogue, a kernel (.entry), or a name of tcj's own (tcj_*) besides
 * tcj_epilogue, which would collide with the module it joins. */
int ptx_user_epilogue_body(const char *nvrtc_ptx, int *version_x10, char **body, size_t *body_len, char *err,
                           size_t err_size);

#endif
