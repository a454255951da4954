/* SPDX-License-Identifier: Apache-2.0 */
/* Chained hash map behind a rwlock. Lookups (every tcj_gemm) take the read lock; inserts
 * (first call per kernel) the write lock, and re-check so racing compilers store one kernel. */
#include "cache/kernel_table.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

typedef struct entry {
  struct entry *next;
  uint64_t hash;
  cache_kernel k;
  char key[]; /* NUL-terminated */
} entry;

struct cache_kernel_table {
  pthread_rwlock_t lock;
  entry **buckets;
  size_t nbuckets, count; /* nbuckets is a power of two */
  cache_unload_fn unload;
  void *ctx;
};

/* Every call hashes its kernel's text (some 150 bytes): XXH3 takes a tenth of the time
 * byte-wise FNV-1a took. In memory only: nothing on disk holds these hashes. */
static uint64_t text_hash(const char *s) { return XXH3_64bits(s, strlen(s)); }

cache_kernel_table *cache_kernel_table_create(cache_unload_fn unload, void *ctx) {
  cache_kernel_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->nbuckets = 64;
  t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
  if (!t->buckets || pthread_rwlock_init(&t->lock, NULL) != 0) {
    free(t->buckets);
    free(t);
    return NULL;
  }
  t->unload = unload;
  t->ctx = ctx;
  return t;
}

void cache_kernel_table_destroy(cache_kernel_table *t) {
  if (!t) return;
  for (size_t i = 0; i < t->nbuckets; i++)
    for (entry *e = t->buckets[i], *next; e; e = next) {
      next = e->next;
      if (t->unload && e->k.module) t->unload(e->k.module, t->ctx);
      free(e);
    }
  pthread_rwlock_destroy(&t->lock);
  free(t->buckets);
  free(t);
}

static entry *lookup(cache_kernel_table *t, const char *key, uint64_t h) {
  for (entry *e = t->buckets[h & (t->nbuckets - 1)]; e; e = e->next)
    if (e->hash == h && strcmp(e->key, key) == 0) return e;
  return NULL;
}

uint64_t cache_kernel_table_hash(const char *key) { return text_hash(key); }

int cache_kernel_table_find(cache_kernel_table *t, const char *key, cache_kernel *out) {
  return cache_kernel_table_find_hashed(t, key, text_hash(key), out);
}

int cache_kernel_table_find_hashed(cache_kernel_table *t, const char *key, uint64_t h, cache_kernel *out) {
  pthread_rwlock_rdlock(&t->lock);
  entry *e = lookup(t, key, h);
  if (e) *out = e->k;
  pthread_rwlock_unlock(&t->lock);
  return e != NULL;
}

/* Doubles the bucket array at load factor 1; on allocation failure keeps the old one. */
static void grow(cache_kernel_table *t) {
  size_t n = t->nbuckets * 2;
  entry **b = calloc(n, sizeof *b);
  if (!b) return;
  for (size_t i = 0; i < t->nbuckets; i++)
    for (entry *e = t->buckets[i], *next; e; e = next) {
      next = e->next;
      e->next = b[e->hash & (n - 1)];
      b[e->hash & (n - 1)] = e;
    }
  free(t->buckets);
  t->buckets = b;
  t->nbuckets = n;
}

int cache_kernel_table_insert(cache_kernel_table *t, const char *key, const cache_kernel *k,
                              cache_kernel *winner) {
  uint64_t h = text_hash(key);
  size_t len = strlen(key);
  entry *fresh = malloc(sizeof *fresh + len + 1);
  if (!fresh) return -1;
  fresh->hash = h;
  fresh->k = *k;
  memcpy(fresh->key, key, len + 1);
  pthread_rwlock_wrlock(&t->lock);
  entry *e = lookup(t, key, h);
  if (e) {
    *winner = e->k;
    pthread_rwlock_unlock(&t->lock);
    free(fresh);
    return 0;
  }
  if (t->count >= t->nbuckets) grow(t);
  size_t i = h & (t->nbuckets - 1);
  fresh->next = t->buckets[i];
  t->buckets[i] = fresh;
  t->count++;
  *winner = *k;
  pthread_rwlock_unlock(&t->lock);
  return 1;
}

int cache_kernel_table_count(cache_kernel_table *t) {
  pthread_rwlock_rdlock(&t->lock);
  int n = (int)t->count;
  pthread_rwlock_unlock(&t->lock);
  return n;
}
