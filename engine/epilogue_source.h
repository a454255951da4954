/* SPDX-License-Identifier: Apache-2.0 */
/* What a user epilogue's source may contain. Its kernel is keyed by a hash of the source text
 * alone (eng_epilogue_hash), which is sound only while that text is all NVRTC reads: an
 * #include'd file that changes would leave the same key on another kernel, in every process
 * that shares the cache. NVRTC 13 has no built-in headers (with no include path, every
 * standard and CUDA header is "not found"), so every include that compiles reads the file
 * system, and every one is refused. Pure C: no NVRTC needed. */
#ifndef TCJ_ENG_EPILOGUE_SOURCE_H
#define TCJ_ENG_EPILOGUE_SOURCE_H

#include <stddef.h>

/* 0 when source reads no file; -1 (why: "line N: ...") when a preprocessing directive of it
 * includes or embeds one (#include, #include_next, #import, #embed, in any spelling the
 * preprocessor accepts: spaces, comments and line splices around the name, the %: digraph)
 * or it asks whether one exists (__has_include, __has_include_next, __has_embed). Directives
 * inside comments, string literals (raw ones too) and character literals are not directives,
 * and are accepted. A NULL source is accepted (nothing to read). */
int eng_epilogue_source_check(const char *source, char *why, size_t why_size);

#endif
