/* SPDX-License-Identifier: MIT */
/*
 * random_load: a seeded random load of kernel services on every object type, issued from
 * threads, from interrupt handlers (the tc_isr_enter/tc_isr_exit bracket), from an HISR, from
 * timer callbacks and from signal handlers, with the invariant checker after every step, the
 * post-condition of every call checked where nothing else can have run in between, and at the
 * end, once every thread has come to rest, the books balanced: every semaphore token, queued
 * message, port pointer, posted word and memory block given is either taken or still there,
 * and no byte of an allocation was touched by anyone but its owner.
 *
 * test_random runs it briefly on three seeds in `make test`; soak runs it for millions of
 * calls (`make soak`). The same seed gives the same run on the sim port; under QEMU
 * (-icount) too, on the same build.
 */
#ifndef RANDOM_LOAD_H
#define RANDOM_LOAD_H

#include <stdint.h>

/* Object services, by kind: rl_stats.served counts those that returned TC_OK. */
enum {
  RL_SEM_GIVE, RL_QUEUE_SEND, RL_EVENT_SET, RL_SEM_TAKE, RL_MUTEX, RL_QUEUE_RECEIVE,
  RL_EVENT_WAIT, RL_BLOCK, RL_BYTE, RL_PORT_SEND, RL_PORT_RECEIVE, RL_POST, RL_RECEIVE,
  RL_SIGNAL, RL_TIMER, RL_HISR, RL_OBJECT_OPS
};

typedef struct {
  uint64_t calls;                   /* kernel services called, every context together */
  uint64_t steps;                   /* random steps of the worker threads */
  uint64_t served[RL_OBJECT_OPS];   /* object services that returned TC_OK */
  uint64_t not_served;              /* ... and those that did not (empty, full, timeout...) */
  uint64_t hisr_runs, timer_callbacks, signal_handlers;
  uint64_t recreated;               /* objects deleted (waiters released) and created again */
  uint64_t context_switches, preemptions;
} rl_stats;

/* Run a fresh kernel under the random load of `seed` until at least `calls` services have
 * been called; `progress` (may be NULL) is called from a thread about every `every` calls.
 * Failed checks are reported through tct (the run stops at the first one). */
void rl_run(uint32_t seed, uint64_t calls, void (*progress)(const rl_stats *), uint64_t every,
            rl_stats *out);

#endif /* RANDOM_LOAD_H */
