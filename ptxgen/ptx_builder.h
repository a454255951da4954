/* SPDX-License-Identifier: Apache-2.0 */
/* ptx_builder: PTX text with typed virtual registers and sticky errors.
 * Every emit function writes one instruction. The first failure (out of memory, bad operand)
 * is recorded and turns later calls into no-ops; ptx_finish() reports it once. Register
 * declarations are written at finish, so recipes allocate registers as they go. */
#ifndef TCJ_PTX_BUILDER_H
#define TCJ_PTX_BUILDER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Register classes: PTX declaration type and the name prefix of its virtual registers. */
#define PTX_REG_LIST(X)        \
  X(PTX_PRED, ".pred", "p")    \
  X(PTX_B16, ".b16", "h")      \
  X(PTX_B32, ".b32", "r")      \
  X(PTX_B64, ".b64", "rd")     \
  X(PTX_F32, ".f32", "f")      \
  X(PTX_F64, ".f64", "fd")

typedef enum ptx_reg_class {
#define PTX_REG_ENUM(cls, decl, prefix) cls,
  PTX_REG_LIST(PTX_REG_ENUM)
#undef PTX_REG_ENUM
  PTX_REG_CLASS_COUNT
} ptx_reg_class;

typedef struct ptx_reg {
  uint8_t cls;
  uint32_t id; /* 0 = invalid register */
} ptx_reg;

/* An operand that is a register or an immediate: a problem dimension a specialised kernel bakes
 * in and a generic kernel reads from its parameters (tcj_kernel_cfg.generic). */
typedef struct ptx_val {
  ptx_reg reg;  /* valid (id != 0): the register */
  int64_t imm;  /* else this immediate */
} ptx_val;
static inline ptx_val ptx_imm(int64_t x) { ptx_val v = {{0, 0}, x}; return v; }
static inline ptx_val ptx_in_reg(ptx_reg r) { ptx_val v = {r, 0}; return v; }

typedef struct ptx_builder {
  char *buf;
  size_t len, cap;
  uint32_t next_id[PTX_REG_CLASS_COUNT];
  size_t decl_at; /* where register declarations go */
  int labels;
  char error[256]; /* first error; empty if none */
} ptx_builder;

void ptx_init(ptx_builder *b);
void ptx_free(ptx_builder *b);
/* Sticky failure: records msg unless an earlier error is already recorded. */
void ptx_fail(ptx_builder *b, const char *fmt, ...);
static inline int ptx_failed(const ptx_builder *b) { return b->error[0] != 0; }

ptx_reg ptx_new(ptx_builder *b, ptx_reg_class cls);
const char *ptx_reg_decl_type(ptx_reg_class cls);
int ptx_new_label(ptx_builder *b);

/* Raw text. Format directives: %R register, %V ptx_val (its register or immediate), %L label number, %d int, %lld int64_t, %u unsigned,
 * %s string, %x unsigned in hex, %% percent. Anything else is an error (never silent output). */
void ptx_text(ptx_builder *b, const char *fmt, ...);
void ptx_vtext(ptx_builder *b, const char *fmt, va_list ap);
/* One instruction line: indented, ';' and newline appended. */
void ptx_ins(ptx_builder *b, const char *fmt, ...);
/* Optional guard: "@%p " / "@!%p " prefix for the next instruction. */
void ptx_ins_if(ptx_builder *b, ptx_reg pred, int negate, const char *fmt, ...);
void ptx_label(ptx_builder *b, int label);

/* Module and kernel framing. */
void ptx_module_header(ptx_builder *b, int sm, int arch_suffix);
/* The same, declaring at least PTX ISA min_version_x10 (major * 10 + minor): a joined user
 * epilogue may need a newer ISA than tcj's own code. */
void ptx_module_header_min(ptx_builder *b, int sm, int arch_suffix, int min_version_x10);
void ptx_entry_begin(ptx_builder *b, const char *name);
void ptx_entry_param(ptx_builder *b, const char *name, const char *type); /* between begin/end */
void ptx_entry_body(ptx_builder *b, int max_threads); /* closes the param list, opens the body */
/* The same, with further directives before the body (".maxnreg 128\n", ...). */
void ptx_entry_body_directives(ptx_builder *b, int max_threads, const char *directives);
/* Finishes the kernel: inserts .reg declarations. Returns 0, or -1 with b->error set. Another
 * kernel of the same module may follow (ptx_entry_begin again); labels stay unique. */
int ptx_finish(ptx_builder *b);
/* Hands the finished module to the caller: 0 with *ptx (malloc'ed, NUL-terminated) and *len, or
 * -1 with the builder's error in err (the buffer is freed). */
int ptx_take(ptx_builder *b, char **ptx, size_t *len, char *err, size_t err_size);

#endif
