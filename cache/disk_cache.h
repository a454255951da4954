/* SPDX-License-Identifier: Apache-2.0 */
/* Content-addressed on-disk cubin cache. One file per entry: a header (magic, format version,
 * sizes, checksum of everything) followed by the full key text, the cubin and optionally the
 * PTX. Readers validate everything and treat any doubt as a miss; writers publish through a
 * unique temp file in <dir>/tmp, fsync and rename, so a reader never sees a torn entry and
 * concurrent writers of one key leave one valid entry. Plain libc + xxhash, no CUDA. */
#ifndef TCJ_CACHE_DISK_CACHE_H
#define TCJ_CACHE_DISK_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* 2: the compiler is recorded beside the key, not in it (a cubin for an arch is correct whoever
 * compiled it, so a cache warmed by nvJitLink serves a process that has only the driver). */
#define CACHE_FORMAT_VERSION 2u
#define CACHE_DEFAULT_MAX_BYTES (1ull << 30)
#define CACHE_TMP_MAX_AGE_S 3600 /* temp files older than this are debris of a dead writer */
/* How long a process waits for another that compiles the same kernel before compiling it
 * itself: compiles take 0.05-0.5 s; this bounds the cost of a holder that hangs. */
#define CACHE_LOCK_WAIT_MS 20000

/* Counters shared by the disk cache and the engine (atomics: many threads update them). */
typedef struct cache_stats {
  _Atomic uint64_t memory_hits, disk_hits, disk_misses, bad_entries, compiles, compile_ns,
      bytes_written, evictions, write_failures;
  /* The engine's tiers (engine/tiering.h; the cache leaves them alone): compiles made by the
   * background worker, calls that ran a generic kernel, specialised kernels the worker loaded. */
  _Atomic uint64_t compiles_background, generic_launches, swaps;
} cache_stats;

typedef struct cache_disk_config {
  const char *dir;             /* writable root, created on demand; NULL: none */
  const char *ro_roots;        /* ':'-separated read-only roots searched after dir; may be NULL */
  uint64_t max_bytes;          /* LRU cap of dir (entries only) */
  int store_ptx;               /* keep the PTX in entries too (off by default) */
  int lock_wait_ms;            /* cache_disk_lock_or_get's bound; 0: CACHE_LOCK_WAIT_MS */
  /* Trust (cache/trust.h). Zero: only what this user or root owns and no one else can write. */
  int trust_any;               /* trust every directory and entry whatever its owner and mode */
  int shared_group;            /* a cache shared by the members of shared_gid */
  gid_t shared_gid;
} cache_disk_config;

/* A byte count with an optional K, M or G (powers of 1024), as TCJ_CACHE_MAX_BYTES takes it.
 * Returns 0, or -1 for anything else. */
int cache_parse_bytes(const char *text, uint64_t *bytes);

/* Reads TCJ_CACHE_DIR (default $XDG_CACHE_HOME/tcj, else $HOME/.cache/tcj), TCJ_CACHE_PATH,
 * TCJ_CACHE_MAX_BYTES, TCJ_CACHE_STORE_PTX, TCJ_CACHE_TRUST_ANY and TCJ_CACHE_SHARED_GROUP (a
 * group name or number the user belongs to). Returns 0, or 1 when TCJ_CACHE_DISABLE is set
 * (no disk cache), or -1 with a reason when a value is malformed. Strings point into the
 * environment or into buf. */
int cache_disk_config_from_env(cache_disk_config *cfg, char *buf, size_t buf_size, const char **why);
/* The same with a directory the caller chose (an option), which wins over $TCJ_CACHE_DIR, and
 * then no default path is built from XDG_CACHE_HOME or HOME. NULL: as cache_disk_config_from_env. */
int cache_disk_config_with_dir(cache_disk_config *cfg, const char *explicit_dir, char *buf, size_t buf_size,
                               const char **why);

/* Test seam: the file operations a publish makes, so tests can fail or stall each one. */
typedef struct cache_io {
  ssize_t (*write)(int fd, const void *buf, size_t n);
  int (*fsync)(int fd);
  int (*rename)(const char *from, const char *to);
} cache_io;

typedef struct cache_disk cache_disk;

/* Never fails for a bad directory (that is found, and warned about, at the first use): NULL
 * only when out of memory. stats may be NULL.
 * Trust: the writable directory, its tmp/, each read-only root and each entry are used only
 * when cache/trust.h's rules hold for them and every directory above them. An untrusted
 * writable directory is not used at all and an untrusted root is skipped, each with one
 * warning naming the path and the reason; an untrusted entry is a miss. Directories tcj
 * creates are 0700, or 02770 in the shared group for a shared cache. */
cache_disk *cache_disk_open(const cache_disk_config *cfg, cache_stats *stats);
void cache_disk_close(cache_disk *d); /* NULL: no-op */
void cache_disk_set_io(cache_disk *d, const cache_io *io); /* NULL: the real calls */

/* Warnings (unwritable directory, full disk, ...) go to this callback, once per cause. */
typedef void (*cache_warn_fn)(void *ctx, const char *message);
void cache_disk_set_warn(cache_disk *d, cache_warn_fn fn, void *ctx);

/* The entry's file name for key: <16 hex digits of xxh64(key)>.tcjc. */
void cache_entry_name(const char *key, char out[32]);

/* Checks the bytes of one entry file against key. Returns 1 with the cubin's offset and size in
 * e when it is a whole, intact entry of key in this format, else 0. Any bytes are safe to pass:
 * this is the reader that faces files others may have written (fuzzed in tests/fuzz). */
int cache_entry_parse(const unsigned char *e, size_t size, const char *key, size_t *cubin_off,
                      size_t *cubin_size);
/* The parts of a valid entry, pointing into its bytes. */
typedef struct cache_entry_view {
  const char *key;         /* key text (not NUL-terminated) */
  size_t key_len;
  const char *compiler;    /* who compiled the cubin (not NUL-terminated); may be empty */
  size_t compiler_len;
  const unsigned char *cubin;
  size_t cubin_size;
  const char *ptx;         /* kept PTX, or ptx_len == 0 */
  size_t ptx_len;
} cache_entry_view;

/* cache_entry_parse with every part: key NULL accepts the entry's own key. Returns 1 or 0. */
int cache_entry_read(const unsigned char *e, size_t size, const char *key, cache_entry_view *v);

/* The xxh64 an entry of these bytes must carry in its header (its own field taken as zero);
 * 0 for fewer bytes than a header. */
uint64_t cache_entry_checksum(const unsigned char *e, size_t size);
#define CACHE_ENTRY_HEADER_BYTES 56 /* the key text starts here */
#define CACHE_ENTRY_CHECKSUM_AT 40
#define CACHE_ENTRY_MAX_BYTES (1ull << 30) /* larger files are not entries of ours */

/* Looks key up in dir, then in the read-only roots. Hit: returns 1 with a malloc'ed copy of
 * the cubin (caller frees) and, for a hit in dir, touches its mtime (LRU). Anything doubtful
 * (short, wrong magic, newer format, bad checksum, other key) is a miss: returns 0. */
int cache_disk_get(cache_disk *d, const char *key, void **cubin, size_t *size);

/* Creates the writable directory and its tmp/ when missing and checks their trust: 0 when
 * puts can go ahead, -1 when not (a warning went out). For tools that fill a cache. */
int cache_disk_prepare(cache_disk *d);

/* cache_disk_put recording who compiled the cubin (tcj-cache ls shows it; "" when unknown). */
int cache_disk_put_by(cache_disk *d, const char *key, const char *compiler, const void *cubin, size_t size,
                      const char *ptx, size_t ptx_len);

/* Publishes key -> cubin (and ptx when store_ptx) into dir. Returns 0, or -1 when it could
 * not (a warning went out; the caller carries on from memory). Evicts by LRU past the cap and
 * reaps stale temp files. */
int cache_disk_put(cache_disk *d, const char *key, const void *cubin, size_t size, const char *ptx,
                   size_t ptx_len);

/* One compile per kernel across processes (and threads) sharing the writable dir. Call after
 * a miss, before compiling key. Returns 1 when the entry appeared meanwhile (a hit: *cubin
 * and *size as for cache_disk_get; nothing to compile), else 0: compile, publish, then
 * cache_disk_unlock(*lock). *lock is NULL when no lock could be had (no writable trusted dir,
 * a read-only or full disk, a filesystem without locks, or the holder did not finish within
 * lock_wait_ms): the caller compiles anyway, never waits forever. A lock dies with its process. */
typedef struct cache_lock cache_lock;
int cache_disk_lock_or_get(cache_disk *d, const char *key, void **cubin, size_t *size, cache_lock **lock);
/* The same for a waiter that may be told to stop: while the lock is held by another, *cancel
 * (NULL: never) is read at every poll step (at most CACHE_LOCK_POLL_MS apart), and once it is
 * nonzero the wait ends: returns -1, *lock NULL, nothing to compile or publish. The engine's
 * background worker passes its stop flag, so that tcj_destroy and exit() never wait on
 * another process (one that hangs, or a stalled filesystem, held a destroy for the full bound). */
#define CACHE_LOCK_POLL_MS 32
int cache_disk_lock_or_get_cancellable(cache_disk *d, const char *key, void **cubin, size_t *size, cache_lock **lock,
                                       const _Atomic int *cancel);
void cache_disk_unlock(cache_lock *lock); /* NULL: no-op */

/* Removes key's entry from dir (a cubin the driver refused). Read-only roots are left alone.
 * Not an eviction in the counters' sense (those are the size cap's): the caller counts it. */
void cache_disk_evict(cache_disk *d, const char *key);

/* The writable directory, or NULL. */
const char *cache_disk_dir(const cache_disk *d);

#endif
