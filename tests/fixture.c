/* SPDX-License-Identifier: MIT */
/* The shared test fixture (fixture.h). */
#include <string.h>

#include "fixture.h"

tct_fixture fx, fx_before;
uint32_t fx_word;

void fx_nop_entry(void *arg) { (void)arg; }
void fx_nop_hisr(void) {}
void fx_nop_cb(void *arg) { (void)arg; }
void fx_nop_handler(uint32_t signals) { (void)signals; }

void fx_setup(void)
{
  memset(&fx, 0, sizeof fx);
  fx_word = 0x5a5a5a5au;
  OK(tc_thread_create(&fx.victim, "victim", fx_nop_entry, NULL, TCT_STACK(0), 20, 20, 0, 0));
  OK(tc_thread_create(&fx.done, "done", fx_nop_entry, NULL, TCT_STACK(1), 20, 20, 0, 0));
  OK(tc_thread_terminate(&fx.done));
  OK(tc_signal_handler_set(&fx.victim, fx_nop_handler)); /* signals to it are accepted */
  OK(tc_sem_create(&fx.sem, "sem", 1, 5));
  OK(tc_sem_create(&fx.sem_del, "sem_del", 0, 5));
  OK(tc_mutex_create(&fx.mutex, "mutex", TC_INHERIT));
  OK(tc_mutex_create(&fx.mutex_del, "mutex_del", 0));
  OK(tc_queue_create(&fx.queue, "queue", 4, fx.qbuf[0], sizeof fx.qbuf[0]));
  OK(tc_queue_send(&fx.queue, &fx_word, TC_NO_WAIT)); /* one message in, room for more */
  OK(tc_queue_create(&fx.queue_del, "queue_del", 4, fx.qbuf[1], sizeof fx.qbuf[1]));
  OK(tc_port_create(&fx.port, "port", fx.slots[0], 4));
  OK(tc_port_send(&fx.port, &fx_word, TC_NO_WAIT));
  OK(tc_port_create(&fx.port_del, "port_del", fx.slots[1], 4));
  OK(tc_event_create(&fx.event, "event"));
  OK(tc_event_set(&fx.event, 1));
  OK(tc_event_create(&fx.event_del, "event_del"));
  OK(tc_timer_create(&fx.timer, "timer", fx_nop_cb, NULL, 50, 0, 0));
  OK(tc_timer_create(&fx.timer_del, "timer_del", fx_nop_cb, NULL, 50, 0, 0));
  OK(tc_block_pool_create(&fx.bpool, "bpool", 16, fx.bmem[0], sizeof fx.bmem[0]));
  OK(tc_block_pool_create(&fx.bpool_del, "bpool_del", 16, fx.bmem[1], sizeof fx.bmem[1]));
  OK(tc_byte_pool_create(&fx.ypool, "ypool", fx.ymem[0], sizeof fx.ymem[0]));
  OK(tc_byte_pool_create(&fx.ypool_del, "ypool_del", fx.ymem[1], sizeof fx.ymem[1]));
  OK(tc_hisr_create(&fx.hisr, "hisr", fx_nop_hisr, 1, TCT_STACK(3)));
  OK(tc_hisr_create(&fx.hisr_del, "hisr_del", fx_nop_hisr, 1, TCT_STACK(4)));
}

