/* SPDX-License-Identifier: MIT */
/*
 * Kim et al.'s multiple register files (engine.h): the paper's task-to-file mapping and its
 * switch cost model (eqs. 1-4), in C so that a sweep prices every switch at the engine's speed
 * rather than through a Python call.
 */
#include "engine.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT uint32_t tsim_regfile_map(const uint64_t *periods, uint32_t n_threads, uint32_t n_files, uint32_t *file)
{
  /* The files the tasks may own: RF_1 .. RF_{n-2} of the paper (the loop runs while more than
   * one of its n - 1 task files is left); RF_{n-1} takes the rest, RF_n is the interrupts'. */
  uint32_t own = n_files > 2u ? n_files - 2u : 0u;
  uint32_t shared = 0;
  for (uint32_t i = 0; i < n_threads; i++) {
    /* Rank in rate-monotonic order: how many tasks come before this one. */
    uint32_t rank = 0;
    for (uint32_t j = 0; j < n_threads; j++)
      if (periods[j] < periods[i] || (j < i && periods[j] == periods[i])) rank++;
    if (rank < own) {
      file[i] = rank;
    } else {
      file[i] = own;
      shared++;
    }
  }
  return n_files >= 2u ? shared : 0u;
}

/* Whether `to` shares its file with another task: then its context is not in the file and is
 * saved and restored in full (eq. 4). A file held alone is the task's own (eq. 3), even the
 * last one when no task is left to share it (the paper's m <= n case). */
static int shares(const tsim_regfiles *m, uint32_t to)
{
  for (uint32_t j = 0; j < m->n_threads; j++)
    if (j != to && m->file[j] == m->file[to]) return 1;
  return 0;
}

EXPORT uint64_t tsim_regfile_cost(int32_t from, int32_t to, void *model)
{
  (void)from; /* the paper prices a switch by the incoming task's file */
  const tsim_regfiles *m = model;
  uint64_t word = m->t_str * m->n_str;
  uint64_t full = 2u * word * (m->n_greg + m->n_sreg);
  if (m->n_files <= 1u) return m->base + full; /* eq. 1, saved and restored */
  uint64_t select = m->n_ch + m->t_chk;
  if (to < 0 || (uint32_t)to >= m->n_threads || shares(m, (uint32_t)to)) return m->base + full + select; /* eq. 4 */
  return m->base + 2u * word * m->n_sreg + select; /* eq. 3 */
}
