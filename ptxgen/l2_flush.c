/* SPDX-License-Identifier: Apache-2.0 */
/* The L2 flush the autotuner runs before each timed call (engine/autotune.h): every thread reads
 * 16-byte chunks of a buffer twice the L2, a grid-stride loop, so that the lines it leaves in L2
 * are clean, as the lines of other kernels' operands are. A memset flush leaves L2 dirty: each
 * line the timed call then brings in first writes one back, which slowed the weight-streaming
 * decode candidates unevenly (on an H100 its tuned qkv 16x6144x4096 NT ran 14% slower than the
 * untuned one). The XOR of what was read is stored only if it equals a value the buffer never
 * gives (it is zeroed), so the loads stay live and nothing is written. */
#include "ptxgen.h"

#include "ptx_builder.h"

int ptx_gen_l2_flush(int sm, int arch_suffix, char **ptx, size_t *len, char *err, size_t err_size) {
  ptx_builder b;
  ptx_init(&b);
  ptx_module_header(&b, sm, arch_suffix);
  ptx_entry_begin(&b, PTX_L2_FLUSH_ENTRY);
  ptx_entry_param(&b, "f_buf", ".u64");
  ptx_entry_param(&b, "f_chunks", ".u64");
  ptx_entry_param(&b, "f_sink", ".u64");
  ptx_entry_body(&b, PTX_L2_FLUSH_THREADS);
  ptx_reg buf = ptx_new(&b, PTX_B64), chunks = ptx_new(&b, PTX_B64), sink = ptx_new(&b, PTX_B64);
  ptx_reg i = ptx_new(&b, PTX_B64), stride = ptx_new(&b, PTX_B64), addr = ptx_new(&b, PTX_B64);
  ptx_reg t = ptx_new(&b, PTX_B32), n = ptx_new(&b, PTX_B32), acc = ptx_new(&b, PTX_B32), done = ptx_new(&b, PTX_PRED);
  ptx_reg v[4] = {ptx_new(&b, PTX_B32), ptx_new(&b, PTX_B32), ptx_new(&b, PTX_B32), ptx_new(&b, PTX_B32)};
  ptx_text(&b, "\tld.param.u64 %R, [f_buf];\n", buf);
  ptx_text(&b, "\tld.param.u64 %R, [f_chunks];\n", chunks);
  ptx_text(&b, "\tld.param.u64 %R, [f_sink];\n", sink);
  ptx_ins(&b, "cvta.to.global.u64 %R, %R", buf, buf);
  ptx_ins(&b, "cvta.to.global.u64 %R, %R", sink, sink);
  ptx_ins(&b, "mov.u32 %R, %%ctaid.x", t);
  ptx_ins(&b, "mov.u32 %R, %%ntid.x", n);
  ptx_ins(&b, "mul.wide.u32 %R, %R, %R", i, t, n);
  ptx_ins(&b, "mov.u32 %R, %%tid.x", t);
  ptx_ins(&b, "cvt.u64.u32 %R, %R", stride, t);
  ptx_ins(&b, "add.u64 %R, %R, %R", i, i, stride);
  ptx_ins(&b, "mov.u32 %R, %%nctaid.x", t);
  ptx_ins(&b, "mul.wide.u32 %R, %R, %R", stride, t, n);
  ptx_ins(&b, "mov.u32 %R, 0", acc);
  int loop = ptx_new_label(&b), out = ptx_new_label(&b), end = ptx_new_label(&b);
  ptx_label(&b, loop);
  ptx_ins(&b, "setp.ge.u64 %R, %R, %R", done, i, chunks);
  ptx_ins_if(&b, done, 0, "bra.uni %L", out);
  ptx_ins(&b, "mad.lo.u64 %R, %R, 16, %R", addr, i, buf);
  ptx_ins(&b, "ld.global.cg.v4.u32 {%R, %R, %R, %R}, [%R]", v[0], v[1], v[2], v[3], addr);
  for (int k = 0; k < 4; k++) ptx_ins(&b, "xor.b32 %R, %R, %R", acc, acc, v[k]);
  ptx_ins(&b, "add.u64 %R, %R, %R", i, i, stride);
  ptx_ins(&b, "bra.uni %L", loop);
  ptx_label(&b, out);
  ptx_ins(&b, "setp.ne.u32 %R, %R, %d", done, acc, PTX_L2_FLUSH_NEVER);
  ptx_ins_if(&b, done, 0, "bra.uni %L", end);
  ptx_ins(&b, "st.global.u32 [%R], %R", sink, acc);
  ptx_label(&b, end);
  ptx_ins(&b, "ret");
  ptx_finish(&b);
  return ptx_take(&b, ptx, len, err, err_size);
}
