/* SPDX-License-Identifier: Apache-2.0 */
/* tcj-cache: look into and look after a kernel cache directory (ls, du, verify, prune, clear),
 * as ccache's -s, --evict-older-than and -C do for its cache. The directory is the one tcj uses
 * (--cache-dir, else $TCJ_CACHE_DIR, else $XDG_CACHE_HOME/tcj, else ~/.cache/tcj). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/tools_api.h"

static const char usage[] =
  "usage: tcj-cache [--cache-dir DIR] COMMAND\n"
  "  ls                 one line per entry: arch, compiler, bytes, last use, kernel config\n"
  "  du                 entries and their bytes; temp and lock files in DIR/tmp\n"
  "  verify             reads every entry whole and checks it; exit 1 when one is damaged\n"
  "  prune --max-bytes N[K|M|G]   removes least recently used entries down to N bytes\n"
  "  prune --older-than D[s|m|h|d] removes entries unused for longer than D (both may be given)\n"
  "  clear              removes every entry (and temp files of writers dead for an hour)\n"
  "All of these are safe while processes use the cache: they keep their kernels in memory, a\n"
  "removed entry is compiled again by the next process that needs it, and a write in flight\n"
  "still lands. Exit status: 0 ok, 1 failure (or a damaged entry for verify), 2 bad usage.\n";

static int bad(const char *what, const char *arg) {
  fprintf(stderr, "tcj-cache: %s%s%s\n%s", what, arg ? ": " : "", arg ? arg : "", usage);
  return 2;
}

/* "30", "90s", "15m", "12h", "7d" -> seconds; -1 when malformed. */
static int64_t parse_age(const char *s) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (s[0] < '0' || s[0] > '9' || errno || v < 0) return -1;
  int64_t unit = *end == 'd' ? 86400 : *end == 'h' ? 3600 : *end == 'm' ? 60 : 1;
  if (*end && strchr("smhd", *end)) end++;
  if (*end || v > INT64_MAX / unit) return -1;
  return (int64_t)v * unit;
}

static void human_age(time_t t, char *out, size_t size) {
  long long s = (long long)(time(NULL) - t);
  if (s < 0) s = 0;
  if (s < 120) snprintf(out, size, "%llds", s);
  else if (s < 7200) snprintf(out, size, "%lldm", s / 60);
  else if (s < 172800) snprintf(out, size, "%lldh", s / 3600);
  else snprintf(out, size, "%lldd", s / 86400);
}

typedef struct tally { uint64_t ok, bad; int list, verify; } tally;

static int on_entry(void *ctx, const cache_entry_info *e) {
  tally *t = ctx;
  if (!e->ok) {
    t->bad++;
    /* stdout for ls (a listing shows everything), stderr for verify's verdicts. */
    fprintf(t->verify ? stderr : stdout, "%s: %s\n", e->name, e->problem);
    return 0;
  }
  t->ok++;
  if (t->list) {
    char age[32];
    human_age(e->mtime, age, sizeof age);
    printf("%-8s %-44s %10" PRIu64 " %5s  %s\n", e->arch, e->compiler[0] ? e->compiler : "?", e->file_bytes,
           age, e->cfg);
  }
  return 0;
}

int main(int argc, char **argv) {
  static const struct option opts[] = {{"cache-dir", required_argument, 0, 'd'}, {"max-bytes", required_argument, 0, 'b'},
                                       {"older-than", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
  const char *dir = NULL;
  uint64_t max_bytes = UINT64_MAX;
  int64_t older = -1;
  int o;
  opterr = 0;
  while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    switch (o) {
    case 'h': fputs(usage, stdout); return 0;
    case 'd': dir = optarg; break;
    case 'b': if (cache_parse_bytes(optarg, &max_bytes)) return bad("--max-bytes takes a byte count with K, M or G", optarg); break;
    case 'o': if ((older = parse_age(optarg)) < 0) return bad("--older-than takes an age like 90s, 30m, 12h or 7d", optarg); break;
    default: return bad("unknown or incomplete option", argv[optind - 1]);
    }
  }
  if (optind != argc - 1) return bad(optind < argc ? "one command, please" : "no command", optind < argc ? argv[optind + 1] : NULL);
  const char *cmd = argv[optind];
  int is_prune = strcmp(cmd, "prune") == 0;
  if (!is_prune && (max_bytes != UINT64_MAX || older >= 0)) return bad("--max-bytes and --older-than go with prune", cmd);
  if (is_prune && max_bytes == UINT64_MAX && older < 0) return bad("prune needs --max-bytes or --older-than", NULL);

  char buf[4096];
  if (!dir) {
    cache_disk_config cfg;
    const char *why = NULL;
    int r = cache_disk_config_from_env(&cfg, buf, sizeof buf, &why);
    if (r < 0) return bad(why, NULL);
    if (!cfg.dir) return bad("no cache directory: pass --cache-dir or set TCJ_CACHE_DIR", NULL);
    dir = cfg.dir;
  }

  if (strcmp(cmd, "ls") == 0 || strcmp(cmd, "verify") == 0) {
    tally t = {0, 0, cmd[0] == 'l', cmd[0] == 'v'};
    if (cache_admin_scan(dir, on_entry, &t) != 0) {
      fprintf(stderr, "tcj-cache: cannot read %s: %s\n", dir, strerror(errno));
      return 1;
    }
    if (t.verify) printf("%" PRIu64 " entries good, %" PRIu64 " damaged in %s\n", t.ok, t.bad, dir);
    return t.verify && t.bad ? 1 : 0;
  }
  if (strcmp(cmd, "du") == 0) {
    cache_dir_usage u;
    if (cache_admin_usage(dir, &u) != 0) {
      fprintf(stderr, "tcj-cache: cannot read %s: %s\n", dir, strerror(errno));
      return 1;
    }
    printf("%s\n  entries     %" PRIu64 "\n  bytes       %" PRIu64 " (%.1f MiB)\n  temp files  %" PRIu64
           " (%" PRIu64 " bytes)\n  lock files  %" PRIu64 "\n",
           dir, u.entries, u.entry_bytes, (double)u.entry_bytes / (1 << 20), u.temp_files, u.temp_bytes, u.lock_files);
    return 0;
  }
  if (is_prune || strcmp(cmd, "clear") == 0) {
    uint64_t removed = 0, freed = 0;
    int r = is_prune ? cache_admin_prune(dir, older, max_bytes, &removed, &freed) : cache_admin_clear(dir, &removed, &freed);
    if (r != 0) {
      fprintf(stderr, "tcj-cache: cannot %s %s: %s\n", cmd, dir, strerror(errno));
      return 1;
    }
    printf("removed %" PRIu64 " entries, %" PRIu64 " bytes, from %s\n", removed, freed, dir);
    return 0;
  }
  return bad("unknown command", cmd);
}
