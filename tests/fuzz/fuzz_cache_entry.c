/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer harness of the kernel cache's entry readers, cache_entry_parse() and
 * cache_entry_read() (tcj-cache's): they read files other processes and hosts wrote. The first
 * byte picks a mode (see below), the rest is the entry file; what they accept must lie inside it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/disk_cache.h"
#include "fuzz/fuzz_check.h"

/* A key of the shape the engine writes (engine/build.c); the seed entries carry it. */
static const char fixed_key[] =
  "tcj-cache format=2\n"
  "codegen=0123456789abcdef\n"
  "cfg=recipe=sm80 arch=sm_80 ab=f16 c=f32 op=NT n=4096 k=4096 tile=128x256x32 warps=2x4 stages=3 "
  "align=16,16,2\n"
  "arch=sm_80\n";

/* Mode bits of the first byte. */
enum {
  MODE_RESEAL = 1, /* write the right checksum into a copy first: a random input almost never
                      carries it, and the size and key checks after it would go unexercised */
  MODE_OWN_KEY = 2, /* compare against the key text the entry itself holds (when its length
                       field fits the file), not the fixed key */
};

static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}
static uint32_t get_u32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  unsigned mode = data[0];
  size_t n = size - 1;
  /* An exact-size heap copy: any read past the entry is an ASan report. */
  unsigned char *e = malloc(n ? n : 1);
  if (!e) return 0;
  memcpy(e, data + 1, n);
  if ((mode & MODE_RESEAL) && n >= CACHE_ENTRY_HEADER_BYTES)
    put_u64(e + CACHE_ENTRY_CHECKSUM_AT, cache_entry_checksum(e, n));

  char *own = NULL;
  const char *key = fixed_key;
  int own_is_text = 0;
  if (mode & MODE_OWN_KEY) {
    if (n < CACHE_ENTRY_HEADER_BYTES || get_u32(e + 16) > n - CACHE_ENTRY_HEADER_BYTES) goto done;
    size_t key_len = get_u32(e + 16);
    if (!(own = malloc(key_len + 1))) goto done;
    memcpy(own, e + CACHE_ENTRY_HEADER_BYTES, key_len);
    own[key_len] = '\0'; /* a NUL inside makes a shorter key: a mismatch the parser must see */
    own_is_text = strlen(own) == key_len;
    key = own;
  }

  size_t off = 0, cubin = 0;
  int ok = cache_entry_parse(e, n, key, &off, &cubin);
  if (ok) {
    size_t key_len = strlen(key), compiler_len = get_u32(e + 48); /* the compiler follows the key */
    CHECK(n >= CACHE_ENTRY_HEADER_BYTES);
    CHECK(cubin > 0);
    CHECK(off == CACHE_ENTRY_HEADER_BYTES + key_len + compiler_len);
    CHECK(off <= n && cubin <= n - off);
    CHECK(memcmp(e + CACHE_ENTRY_HEADER_BYTES, key, key_len) == 0);
    CHECK(get_u64(e + CACHE_ENTRY_CHECKSUM_AT) == cache_entry_checksum(e, n));
    /* The reader hands back exactly these bytes: touch them all. */
    volatile unsigned char sum = 0;
    for (size_t i = 0; i < cubin; i++) sum ^= e[off + i];
    (void)sum;
  }

  /* cache_entry_read agrees for the same key; without one it reads an intact entry whose own
   * key is text, and its parts tile the file. */
  cache_entry_view v;
  CHECK(cache_entry_read(e, n, key, &v) == ok);
  CHECK(!ok || (v.cubin == e + off && v.cubin_size == cubin));
  int any = cache_entry_read(e, n, NULL, &v);
  if (own_is_text) CHECK(any == ok);
  if (any) {
    CHECK(v.key == (const char *)e + CACHE_ENTRY_HEADER_BYTES && memchr(v.key, 0, v.key_len) == NULL);
    CHECK(v.compiler == v.key + v.key_len);
    CHECK(v.cubin == (const unsigned char *)v.compiler + v.compiler_len && v.cubin_size > 0);
    CHECK(v.ptx == (const char *)v.cubin + v.cubin_size);
    CHECK(CACHE_ENTRY_HEADER_BYTES + v.key_len + v.compiler_len + v.cubin_size + v.ptx_len == n);
  }
done:
  free(own);
  free(e);
  return 0;
}
