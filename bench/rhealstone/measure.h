/* SPDX-License-Identifier: MIT */
/*
 * What bench/rhealstone and bench/scaling share: the time stamp, the sample store and the
 * output format that `tacet bench` reads (tools/tacet/bench/format.py checks it).
 *
 * Time stamps. On Cortex-M: the MPS2 timer 0 that tc_cycles() reads, counting down at 25 MHz,
 * read with one load (TC_BOARD_CYCLES32_DOWN, the switch path's own); a difference of two
 * stamps is in timer cycles, 1.25 instructions each under QEMU `-icount shift=5` (the
 * figure is exact to one timer cycle). On RISC-V (virt): the hart's mcycle, the switch path's
 * own clock, one per instruction under QEMU `-icount shift=0`. On the sim port: virtual cycles (tc_sim_now()), and
 * beside them the host's monotonic clock in ns, for the simulator's own speed.
 *
 * Output (version 1), one record per line, every field a word:
 *
 *   tacet-bench 1 PROGRAM
 *   config KEY=VALUE ...                      the kernel's options, the port, the units
 *   S param=P case=C [KEY=VALUE ...] unit=U n=N   a series of N samples follows
 *   V v1 v2 ...                               up to 16 samples (unsigned integers) a line
 *   E N SUM                                   the series' count again and its sum mod 2^32
 *   end SERIES STATUS                         the number of series; ok or FAILED
 *
 * The count and sum make a truncated or garbled output an error, not a figure.
 */
#ifndef TACET_BENCH_MEASURE_H
#define TACET_BENCH_MEASURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tacet/tacet.h"

#if __has_include("tacet/sim.h")
#include <time.h> /* clock_gettime: the including file defines _POSIX_C_SOURCE first */

#include "tacet/sim.h"
#define BM_SIM 1
#elif defined(__riscv)
#include "tacet/riscv.h"
#define BM_SIM 0
#define BM_RV  1
#else
#include "tacet/cortex_m.h"
#define BM_SIM 0
#endif
#ifndef BM_RV
#define BM_RV 0
#endif

/* ---- time stamps -------------------------------------------------------------------------- */

typedef struct {
  uint32_t cycles;
#if BM_SIM
  uint32_t host_ns; /* modulo 2^32 ns (4.3 s): a difference is right below that */
#endif
} bm_time;

static inline bm_time bm_now(void)
{
  bm_time t;
#if BM_SIM
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  t.host_ns = (uint32_t)((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
  t.cycles = (uint32_t)tc_sim_now();
#elif BM_RV
  uint32_t c;
  __asm volatile("csrr %0, mcycle" : "=r"(c)::"memory");
  t.cycles = c;
#else
  t.cycles = ~(uint32_t)TC_BOARD_CYCLES32_DOWN();
#endif
  return t;
}

/* The sim port charges this many virtual cycles per context switch in the benchmarks (its
 * kernel code takes none): a model, not a measurement. */
#define BM_SIM_SWITCH_COST 100u

/* ---- series of samples ------------------------------------------------------------------- */

#define BM_MAX_SERIES 512u
#ifndef BM_POOL
#define BM_POOL (128u * 1024u) /* samples of all series together */
#endif

typedef struct bm_series {
  char tags[160]; /* "param=P case=C ... unit=U" */
  uint32_t *v;
  unsigned n, cap;
#if BM_SIM
  struct bm_series *host; /* the same samples in host ns */
#endif
} bm_series;

static uint32_t bm_pool[BM_POOL];
static unsigned bm_pool_used, bm_count;
static bm_series bm_all[BM_MAX_SERIES];
static bool bm_failed;

/* Stop with a message (bad arguments, no room): exit status 2. */
static void bm_die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  exit(2);
}

static bm_series *bm_new(unsigned cap, const char *unit, const char *fmt, ...)
{
  if (bm_count == BM_MAX_SERIES || BM_POOL - bm_pool_used < cap)
    bm_die("error: no room for %u more samples (BM_POOL %u, used %u): ask for fewer", cap, BM_POOL, bm_pool_used);
  bm_series *s = &bm_all[bm_count++];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(s->tags, sizeof s->tags, fmt, ap);
  va_end(ap);
  if (len < 0 || (size_t)len + strlen(unit) + 6u >= sizeof s->tags) bm_die("error: the tags of a series are too long");
  snprintf(s->tags + len, sizeof s->tags - (size_t)len, " unit=%s", unit);
  s->v = bm_pool + bm_pool_used;
  s->n = 0;
  s->cap = cap;
  bm_pool_used += cap;
  return s;
}

/* A series of `cap` samples with these tags ("param=... case=..."), in cycles (and on the sim
 * port a twin in host ns). */
#define bm_series_new(cap, ...) bm_series_pair(bm_new(cap, "cycles", __VA_ARGS__), cap, __VA_ARGS__)

static inline bm_series *bm_series_pair(bm_series *s, unsigned cap, const char *fmt, ...)
{
#if BM_SIM
  char tags[sizeof s->tags];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tags, sizeof tags, fmt, ap);
  va_end(ap);
  s->host = bm_new(cap, "host_ns", "%s", tags);
#else
  (void)cap, (void)fmt;
#endif
  return s;
}

static inline bool bm_full(const bm_series *s) { return s->n >= s->cap; }

/* The time from `from` to `to`, as one sample (dropped when the series is full). */
static inline void bm_record(bm_series *s, bm_time from, bm_time to)
{
  if (s->n >= s->cap) return;
  s->v[s->n++] = to.cycles - from.cycles;
#if BM_SIM
  s->host->v[s->host->n++] = to.host_ns - from.host_ns;
#endif
}

/* A sample in cycles counted otherwise (an interrupt's assertion read from its timer). */
static inline void bm_record_cycles(bm_series *s, uint32_t cycles, bm_time from, bm_time to)
{
  if (s->n >= s->cap) return;
  s->v[s->n++] = cycles;
#if BM_SIM
  s->host->v[s->host->n++] = to.host_ns - from.host_ns;
#else
  (void)from, (void)to;
#endif
}

static void bm_header(const char *program, unsigned repeat)
{
  printf("tacet-bench 1 %s\n", program);
  printf("config port=%s priorities=%u checks=%d stats=%d stack_check=%d tick_hz=%u cycles_hz=%lu repeat=%u",
         TC_PORT_NAME, (unsigned)TC_PRIORITIES, TC_CHECKS, TC_STATS, TC_STACK_CHECK, (unsigned)TC_TICK_HZ,
         (unsigned long)tc_cycles_hz(), repeat);
#if BM_SIM
  printf(" clock=virtual\n");
#elif BM_RV
  printf(" clock=qemu-icount icount_shift=0 cpu=%s\n",
#if defined(__riscv_flen)
         "rv32imafc"
#else
         "rv32imac"
#endif
  );
#else
  printf(" clock=qemu-icount icount_shift=%u cpu=%s\n", (unsigned)TC_CM_ICOUNT_SHIFT,
#if defined(__ARM_FP)
         "cortex-m4f"
#else
         "cortex-m3"
#endif
  );
#endif
}

/* Every series, then the end line; the exit status: 0, or 1 when a check failed or a series
 * is short of its samples. */
static int bm_print(void)
{
  for (unsigned i = 0; i < bm_count; i++) {
    bm_series *s = &bm_all[i];
    if (s->n != s->cap) bm_failed = true;
    printf("S %s n=%u\n", s->tags, s->n);
    uint32_t sum = 0;
    for (unsigned j = 0; j < s->n; j++) {
      sum += s->v[j];
      printf(j % 16u == 0 ? "V %lu" : " %lu", (unsigned long)s->v[j]);
      if (j % 16u == 15u || j + 1u == s->n) putchar('\n');
    }
    printf("E %u %lu\n", s->n, (unsigned long)sum);
  }
  printf("end %u %s\n", bm_count, bm_failed ? "FAILED" : "ok");
  return bm_failed ? 1 : 0;
}

/* The repetitions asked for on the command line (argv[1]), within 1..max. */
static unsigned bm_repeat_arg(int argc, char **argv, unsigned dflt, unsigned max)
{
  if (argc < 2) return dflt;
  char *end;
  unsigned long k = strtoul(argv[1], &end, 10);
  if (*end != '\0' || k < 1 || k > max) bm_die("error: repetitions '%s': expected 1 to %u", argv[1], max);
  return (unsigned)k;
}

static void bm_stop(int code)
{
#if BM_SIM
  tc_sim_stop(code);
#elif BM_RV
  tc_rv_stop(code);
#else
  tc_cm_stop(code);
#endif
}

#endif /* TACET_BENCH_MEASURE_H */
