/* SPDX-License-Identifier: MIT */
/*
 * Realistic workloads for the Rhealstone measurements (bench/rhealstone), in the spirit of
 * MiBench's groups (Wang and Liu take one program from each): security (SHA-256), network and
 * telecomm (CRC-32, fixed-point FFT), automotive (bit counting, quicksort), network
 * (Dijkstra on a small graph) and office (string search). Each is written here from the
 * algorithm's definition, with no heap and no library call beyond memcpy/memset, so it runs
 * on the sim port and on Cortex-M alike.
 *
 * A workload runs once per call and checks its own result (a published test vector, or two
 * independent computations that must agree, or the result's defining property), so the
 * compiler cannot drop the work and a wrong port or compiler shows. It calls `hook` at three
 * places its code chose (Wang and Liu: "codes are inserted into ... initial segment, middle
 * segment and ending segment of program running"): before any work, roughly half-way through
 * it, and after the last of it but before the self-check. The benchmark makes its measured
 * kernel event happen there.
 *
 * Reentrant: all data is on the caller's stack (at most WL_STACK_BYTES of it), so two threads
 * may run the same workload at once.
 */
#ifndef TACET_BENCH_WORKLOADS_H
#define TACET_BENCH_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { WL_START, WL_MIDDLE, WL_END, WL_POINTS } wl_point;

typedef void (*wl_hook)(wl_point point, void *ctx);

typedef struct {
  const char *name;
  /* Run once, calling hook(point, ctx) at each of the three points in order; true when the
   * self-check passed. */
  bool (*run)(wl_hook hook, void *ctx);
  /* Bytes of data the run works on: what a cache would have to hold (the sim port's refill
   * model in bench/rhealstone). */
  uint32_t footprint;
} wl_workload;

#define WL_COUNT 7
extern const wl_workload wl_workloads[WL_COUNT];

/* The most stack a run takes for its data (the benchmark's threads add this to their own). */
#define WL_STACK_BYTES 4096u

extern const char *const wl_point_names[WL_POINTS];

/* A deterministic pseudo-random sequence (xorshift32, Marsaglia 2003): the workloads' inputs
 * are the same on every run and every port. `state` must not be 0. */
static inline uint32_t wl_random(uint32_t *state)
{
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

bool wl_sha256(wl_hook hook, void *ctx);
bool wl_crc32(wl_hook hook, void *ctx);
bool wl_bitcount(wl_hook hook, void *ctx);
bool wl_fft(wl_hook hook, void *ctx);
bool wl_qsort(wl_hook hook, void *ctx);
bool wl_dijkstra(wl_hook hook, void *ctx);
bool wl_strsearch(wl_hook hook, void *ctx);

#endif /* TACET_BENCH_WORKLOADS_H */
