/* SPDX-License-Identifier: MIT */
/* The objects of a test fixture: one of each kind, each in a known state, compared byte for
 * byte around a call that must change nothing (test_context, test_misuse). */
#ifndef TCT_FIXTURE_H
#define TCT_FIXTURE_H

#include "tct.h"

/* The objects a call may touch. Compared byte for byte around a refused call, so the context
 * that makes the call (runner thread, HISR, timer) is kept outside. */
typedef struct {
  tc_thread victim; /* suspended, never runs */
  tc_thread done;   /* terminated: may be deleted */
  tc_thread fresh;  /* to create */
  tc_sem sem, sem_del, sem_new;
  tc_mutex mutex, mutex_del, mutex_new;
  tc_queue queue, queue_del, queue_new;
  uint32_t qbuf[3][4];
  tc_port port, port_del, port_new;
  void *slots[3][4];
  tc_event event, event_del, event_new;
  tc_timer timer, timer_del, timer_new;
  tc_block_pool bpool, bpool_del, bpool_new;
  uint64_t bmem[3][TC_BLOCK_POOL_MEM(16, 4) / 8];
  tc_byte_pool ypool, ypool_del, ypool_new;
  uint64_t ymem[3][32];
  tc_hisr hisr, hisr_del, hisr_new;
} tct_fixture;

extern tct_fixture fx, fx_before;
extern uint32_t fx_word; /* a message */

void fx_nop_entry(void *arg);
void fx_nop_hisr(void);
void fx_nop_cb(void *arg);
void fx_nop_handler(uint32_t signals);

/* Fresh objects (after tct_begin): a suspended victim thread with a signal handler, a
 * terminated thread, a semaphore with one unit of five, a free mutex, a queue and a message
 * port holding one message with room for more, an event group with flag 1 set, an inactive
 * timer, block and byte pools with everything free, an inactive HISR; for each kind one more
 * to delete, and a fresh control block to create. Stacks 0..5 of tct_stacks. */
void fx_setup(void);

/* The fixture is as it was when fx_before was taken. */
#define FX_SNAPSHOT() memcpy(&fx_before, &fx, sizeof fx)
#define FX_UNCHANGED() (memcmp(&fx_before, &fx, sizeof fx) == 0)

#endif
