/* SPDX-License-Identifier: MIT */
/*
 * A switch cost drawn from measurements (engine.h, tsim_measured): the samples a benchmark took
 * on a target (`tacet bench`'s results.json, tools/tacet/sim/switchcost.py), one drawn per switch,
 * in C so that a sweep prices every switch at the engine's speed.
 */
#include "engine.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT uint64_t tsim_measured_cost(int32_t from, int32_t to, void *model)
{
  (void)from;
  (void)to;
  tsim_measured *m = model;
  /* SplitMix64: one step per switch, so a run's draws follow from the state the binding seeds
   * (the run's seed), whatever ran before in the process. */
  uint64_t z = (m->state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  z ^= z >> 31;
  /* The high half of z * n: an index in [0, n) without the modulo's bias toward low indices. */
  uint64_t index = (uint64_t)(((unsigned __int128)z * m->n) >> 64);
  return m->costs[index];
}
