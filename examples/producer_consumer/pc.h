/* SPDX-License-Identifier: MIT */
/*
 * The producer/consumer experiment of Carbone ("Reducing context switching with
 * preemption-threshold"): one producer D (priority 4) feeds three consumers A, B, C
 * (priorities 1, 2, 3), one queue of three messages each. D writes three messages into each
 * queue, then relinquishes the CPU (tc_thread_yield); each consumer reads until its queue is
 * empty and blocks. The application code is the same in both cases; only D's preemption
 * threshold changes:
 *   case 1, threshold 4 (fully preemptive): every message preempts D -> 18 switches per 9;
 *   case 2, threshold 1: A, B, C cannot preempt D -> D fills the queues, yields -> 4 per 9.
 */
#ifndef PC_H
#define PC_H

#include <stdbool.h>
#include <stdint.h>

#include "tacet/thread.h"

typedef struct {
  unsigned producer_threshold;
  unsigned rounds;           /* rounds of 9 messages measured (after a warm-up round) */
  uint32_t produce_cycles;   /* work to make one message */
  uint32_t consume_cycles;   /* work to use one message */
} pc_params;

typedef struct {
  uint64_t sent, received;
  uint64_t context_switches; /* during the measured rounds */
  uint64_t preemptions;
  uint64_t elapsed;          /* tc_cycles() units during the measured rounds */
} pc_result;

/* Run one case on a freshly initialised kernel (the caller calls tc_kernel_init() and sets
 * its port's options first); returns 0, or a failure code when a message was lost, reordered
 * or a service failed. */
int pc_run(const pc_params *p, pc_result *out);

/* The threads of the last run, for reports: 0 the producer D, 1 .. 3 the consumers A, B, C. */
#define PC_THREADS 4u
const tc_thread *pc_thread(unsigned index);

/* Port glue (pc_port_<port>.c). */
void pc_work(uint32_t cycles); /* spend CPU time preemptibly */
void pc_end_run(void);         /* end the run: tc_kernel_start() returns */
/* After tc_kernel_init(): the port's settings for a case. The sim port charges `switch_cost`
 * cycles per context switch and returns true; hardware ignores it (its switches cost what
 * they cost) and returns false. */
bool pc_port_setup(uint64_t switch_cost);
/* How elapsed time is reported: the unit's name, and tc_cycles() units converted to it. */
const char *pc_port_time_unit(void);
uint64_t pc_port_elapsed(uint64_t cycles);

#endif
