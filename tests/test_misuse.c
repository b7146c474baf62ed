/* SPDX-License-Identifier: MIT */
/* Misuse and every status: every error status of every public service, provoked once each,
 * from a thread, on
 * the shared fixture (fixture.h). The call must return that status and leave every object of
 * the fixture byte for byte as it was, the kernel consistent (tc_check). A case is a kernel
 * run of its own: `prep` brings the fixture to the state the misuse needs, then the snapshot,
 * then the call.
 *
 * TC_CALLER_ERROR is test_context's (every service from every context). The statuses that end
 * a wait (TC_TIMEOUT, TC_WAIT_ABORTED, TC_DELETED) are provoked for every blocking service by
 * every_wait_ending, below.
 * tools/tests/test_statuses.py reads the headers and fails when a documented status of a
 * service is provoked by no test. */
#include <stdio.h>
#include <string.h>

#include "fixture.h"
#include "tct.h"

static tc_thread runner, owner;
static void *ptr;
static uint32_t got;
static unsigned old;
static tc_thread_info_t ti;
static tc_hisr_info_t hi;
static tc_timer_info_t tmi;
static tc_block_pool_info_t bpi;
static tc_byte_pool_info_t ypi;

/* ---- preparations ---------------------------------------------------------------------------- */

static void nothing(void) {}
static void sem_empty(void) { OK(tc_sem_take(&fx.sem, TC_NO_WAIT)); }
static void sem_full(void)
{
  for (int i = 0; i < 4; i++) OK(tc_sem_give(&fx.sem));
}
static void queue_full(void)
{
  for (int i = 0; i < 3; i++) OK(tc_queue_send(&fx.queue, &fx_word, TC_NO_WAIT));
}
static void queue_empty(void) { OK(tc_queue_flush(&fx.queue)); }
static void port_full(void)
{
  for (int i = 0; i < 3; i++) OK(tc_port_send(&fx.port, &fx_word, TC_NO_WAIT));
}
static void port_empty(void) { OK(tc_port_receive(&fx.port, &ptr, TC_NO_WAIT)); }
static void bpool_empty(void)
{
  for (int i = 0; i < 4; i++) OK(tc_block_alloc(&fx.bpool, &ptr, TC_NO_WAIT));
}
static void block_freed(void)
{
  OK(tc_block_alloc(&fx.bpool, &ptr, TC_NO_WAIT));
  OK(tc_block_free(ptr));
}
static void bytes_freed(void)
{
  OK(tc_byte_alloc(&fx.ypool, &ptr, 8, TC_NO_WAIT));
  OK(tc_byte_free(ptr));
}
static void ypool_half(void) { OK(tc_byte_alloc(&fx.ypool, &ptr, sizeof fx.ymem[0] / 2 + 32, TC_NO_WAIT)); }
static void own_slot_full(void) { OK(tc_thread_post(&runner, 1, TC_NO_WAIT)); }
static void timer_active(void) { OK(tc_timer_activate(&fx.timer)); }
static void slot_full(void) { OK(tc_thread_post(&fx.victim, 1, TC_NO_WAIT)); }
static void hisr_activated(void)
{
  tc_sched_lock(); /* keeps it activated: held back, queued */
  OK(tc_hisr_activate(&fx.hisr));
}
/* 2^32 - 1 activations pending: the counters set as that many activations would leave them. */
static void hisr_saturated(void)
{
  hisr_activated();
  fx.hisr.pending = UINT32_MAX;
  fx.hisr.activations = UINT32_MAX;
  STEP();
}
static void take_and_suspend(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&fx.mutex, TC_NO_WAIT));
  OK(tc_thread_suspend(&owner));
}
static void mutex_owned_by_another(void)
{
  OK(tc_thread_create(&owner, "owner", take_and_suspend, NULL, TCT_STACK(8), 1, 1, 0, TC_AUTO_START));
}

/* ---- the cases -------------------------------------------------------------------------------- */

/* X(id, service, status, prep, call): one per line, read by tools/tests/test_statuses.py. */
#define MISUSES(X)                                                                                         \
  X(thread_create_null, "tc_thread_create", TC_INVALID, nothing,                                         \
    tc_thread_create(NULL, "x", fx_nop_entry, NULL, TCT_STACK(2), 5, 5, 0, 0))                            \
  X(thread_create_again, "tc_thread_create", TC_INVALID, nothing,                                        \
    tc_thread_create(&fx.victim, "x", fx_nop_entry, NULL, TCT_STACK(2), 5, 5, 0, 0))                      \
  X(thread_create_small, "tc_thread_create", TC_INVALID, nothing,                                        \
    tc_thread_create(&fx.fresh, "x", fx_nop_entry, NULL, tct_stacks[2], TC_PORT_STACK_MIN - 1, 5, 5, 0, 0)) \
  X(thread_create_option, "tc_thread_create", TC_INVALID, nothing,                                       \
    tc_thread_create(&fx.fresh, "x", fx_nop_entry, NULL, TCT_STACK(2), 5, 5, 0, 0x80))                    \
  X(thread_create_prio, "tc_thread_create", TC_PRIORITY_ERROR, nothing,                                  \
    tc_thread_create(&fx.fresh, "x", fx_nop_entry, NULL, TCT_STACK(2), TC_PRIORITIES, 0, 0, 0))           \
  X(thread_create_thresh, "tc_thread_create", TC_PRIORITY_ERROR, nothing,                                \
    tc_thread_create(&fx.fresh, "x", fx_nop_entry, NULL, TCT_STACK(2), 5, 6, 0, 0))                       \
  X(thread_delete_invalid, "tc_thread_delete", TC_INVALID, nothing, tc_thread_delete(&fx.fresh))         \
  X(thread_delete_live, "tc_thread_delete", TC_STATE_ERROR, nothing, tc_thread_delete(&fx.victim))       \
  X(thread_terminate_invalid, "tc_thread_terminate", TC_INVALID, nothing, tc_thread_terminate(NULL))     \
  X(thread_suspend_invalid, "tc_thread_suspend", TC_INVALID, nothing, tc_thread_suspend(&fx.fresh))      \
  X(thread_suspend_done, "tc_thread_suspend", TC_STATE_ERROR, nothing, tc_thread_suspend(&fx.done))      \
  X(thread_resume_invalid, "tc_thread_resume", TC_INVALID, nothing, tc_thread_resume(NULL))              \
  X(thread_resume_done, "tc_thread_resume", TC_STATE_ERROR, nothing, tc_thread_resume(&fx.done))         \
  X(prio_invalid, "tc_thread_priority_change", TC_INVALID, nothing,                                      \
    tc_thread_priority_change(&fx.fresh, 3, &old))                                                        \
  X(prio_range, "tc_thread_priority_change", TC_PRIORITY_ERROR, nothing,                                 \
    tc_thread_priority_change(&fx.victim, TC_PRIORITIES, &old))                                           \
  X(prio_done, "tc_thread_priority_change", TC_STATE_ERROR, nothing,                                     \
    tc_thread_priority_change(&fx.done, 3, &old))                                                         \
  X(thresh_invalid, "tc_thread_threshold_change", TC_INVALID, nothing,                                   \
    tc_thread_threshold_change(NULL, 3, &old))                                                            \
  X(thresh_above_prio, "tc_thread_threshold_change", TC_PRIORITY_ERROR, nothing,                         \
    tc_thread_threshold_change(&fx.victim, 21, &old))                                                     \
  X(thresh_done, "tc_thread_threshold_change", TC_STATE_ERROR, nothing,                                  \
    tc_thread_threshold_change(&fx.done, 3, &old))                                                        \
  X(wait_abort_invalid, "tc_thread_wait_abort", TC_INVALID, nothing, tc_thread_wait_abort(&fx.fresh))    \
  X(wait_abort_not_waiting, "tc_thread_wait_abort", TC_STATE_ERROR, nothing,                             \
    tc_thread_wait_abort(&fx.victim))                                                                     \
  X(thread_info_invalid, "tc_thread_info", TC_INVALID, nothing, tc_thread_info(&fx.fresh, &ti))          \
  X(thread_info_out, "tc_thread_info", TC_INVALID, nothing, tc_thread_info(&fx.victim, NULL))            \
  X(sem_create_again, "tc_sem_create", TC_INVALID, nothing, tc_sem_create(&fx.sem, "x", 0, 1))           \
  X(sem_create_max0, "tc_sem_create", TC_INVALID, nothing, tc_sem_create(&fx.sem_new, "x", 0, 0))        \
  X(sem_create_above, "tc_sem_create", TC_INVALID, nothing, tc_sem_create(&fx.sem_new, "x", 3, 2))       \
  X(sem_take_empty, "tc_sem_take", TC_NO_INSTANCE, sem_empty, tc_sem_take(&fx.sem, TC_NO_WAIT))          \
  X(sem_take_invalid, "tc_sem_take", TC_INVALID, nothing, tc_sem_take(&fx.sem_new, TC_NO_WAIT))          \
  X(sem_give_full, "tc_sem_give", TC_FULL, sem_full, tc_sem_give(&fx.sem))                               \
  X(sem_give_invalid, "tc_sem_give", TC_INVALID, nothing, tc_sem_give(NULL))                             \
  X(sem_delete_invalid, "tc_sem_delete", TC_INVALID, nothing, tc_sem_delete(&fx.sem_new))                \
  X(mutex_create_option, "tc_mutex_create", TC_INVALID, nothing, tc_mutex_create(&fx.mutex_new, "x", 8)) \
  X(mutex_create_again, "tc_mutex_create", TC_INVALID, nothing, tc_mutex_create(&fx.mutex, "x", 0))     \
  X(mutex_lock_owned, "tc_mutex_lock", TC_NO_INSTANCE, mutex_owned_by_another,                           \
    tc_mutex_lock(&fx.mutex, TC_NO_WAIT))                                                                 \
  X(mutex_lock_invalid, "tc_mutex_lock", TC_INVALID, nothing, tc_mutex_lock(&fx.mutex_new, TC_NO_WAIT))  \
  X(mutex_unlock_free, "tc_mutex_unlock", TC_NOT_OWNER, nothing, tc_mutex_unlock(&fx.mutex))             \
  X(mutex_unlock_other, "tc_mutex_unlock", TC_NOT_OWNER, mutex_owned_by_another,                         \
    tc_mutex_unlock(&fx.mutex))                                                                           \
  X(mutex_unlock_invalid, "tc_mutex_unlock", TC_INVALID, nothing, tc_mutex_unlock(NULL))                 \
  X(mutex_delete_invalid, "tc_mutex_delete", TC_INVALID, nothing, tc_mutex_delete(&fx.mutex_new))        \
  X(queue_create_small, "tc_queue_create", TC_INVALID, nothing,                                          \
    tc_queue_create(&fx.queue_new, "x", 8, fx.qbuf[2], 4))                                                \
  X(queue_create_again, "tc_queue_create", TC_INVALID, nothing,                                          \
    tc_queue_create(&fx.queue, "x", 4, fx.qbuf[2], sizeof fx.qbuf[2]))                                    \
  X(queue_send_full, "tc_queue_send", TC_FULL, queue_full, tc_queue_send(&fx.queue, &fx_word, TC_NO_WAIT)) \
  X(queue_send_msg, "tc_queue_send", TC_INVALID, nothing, tc_queue_send(&fx.queue, NULL, TC_NO_WAIT))    \
  X(queue_front_full, "tc_queue_send_front", TC_FULL, queue_full,                                        \
    tc_queue_send_front(&fx.queue, &fx_word, TC_NO_WAIT))                                                 \
  X(queue_front_invalid, "tc_queue_send_front", TC_INVALID, nothing,                                     \
    tc_queue_send_front(&fx.queue_new, &fx_word, TC_NO_WAIT))                                             \
  X(queue_receive_empty, "tc_queue_receive", TC_NO_INSTANCE, queue_empty,                                \
    tc_queue_receive(&fx.queue, &got, TC_NO_WAIT))                                                        \
  X(queue_receive_msg, "tc_queue_receive", TC_INVALID, nothing, tc_queue_receive(&fx.queue, NULL, TC_NO_WAIT)) \
  X(queue_flush_invalid, "tc_queue_flush", TC_INVALID, nothing, tc_queue_flush(&fx.queue_new))           \
  X(queue_delete_invalid, "tc_queue_delete", TC_INVALID, nothing, tc_queue_delete(NULL))                 \
  X(port_create_zero, "tc_port_create", TC_INVALID, nothing, tc_port_create(&fx.port_new, "x", fx.slots[2], 0)) \
  X(port_create_again, "tc_port_create", TC_INVALID, nothing, tc_port_create(&fx.port, "x", fx.slots[2], 4)) \
  X(port_send_full, "tc_port_send", TC_FULL, port_full, tc_port_send(&fx.port, &fx_word, TC_NO_WAIT))    \
  X(port_send_invalid, "tc_port_send", TC_INVALID, nothing, tc_port_send(&fx.port_new, &fx_word, TC_NO_WAIT)) \
  X(port_receive_empty, "tc_port_receive", TC_NO_INSTANCE, port_empty,                                   \
    tc_port_receive(&fx.port, &ptr, TC_NO_WAIT))                                                          \
  X(port_receive_msg, "tc_port_receive", TC_INVALID, nothing, tc_port_receive(&fx.port, NULL, TC_NO_WAIT)) \
  X(port_delete_invalid, "tc_port_delete", TC_INVALID, nothing, tc_port_delete(&fx.port_new))            \
  X(event_create_again, "tc_event_create", TC_INVALID, nothing, tc_event_create(&fx.event, "x"))         \
  X(event_set_invalid, "tc_event_set", TC_INVALID, nothing, tc_event_set(&fx.event_new, 1))              \
  X(event_clear_invalid, "tc_event_clear", TC_INVALID, nothing, tc_event_clear(NULL, 1))                 \
  X(event_wait_unmet, "tc_event_wait", TC_NO_INSTANCE, nothing,                                          \
    tc_event_wait(&fx.event, 6, TC_EVENT_ALL, &got, TC_NO_WAIT))                                          \
  X(event_wait_mode, "tc_event_wait", TC_INVALID, nothing,                                               \
    tc_event_wait(&fx.event, 1, TC_EVENT_ANY | TC_EVENT_ALL, &got, TC_NO_WAIT))                           \
  X(event_delete_invalid, "tc_event_delete", TC_INVALID, nothing, tc_event_delete(&fx.event_new))        \
  X(timer_create_zero, "tc_timer_create", TC_INVALID, nothing,                                           \
    tc_timer_create(&fx.timer_new, "x", fx_nop_cb, NULL, 0, 0, 0))                                        \
  X(timer_create_again, "tc_timer_create", TC_INVALID, nothing,                                          \
    tc_timer_create(&fx.timer, "x", fx_nop_cb, NULL, 5, 0, 0))                                            \
  X(timer_activate_invalid, "tc_timer_activate", TC_INVALID, nothing, tc_timer_activate(&fx.timer_new))  \
  X(timer_activate_active, "tc_timer_activate", TC_STATE_ERROR, timer_active, tc_timer_activate(&fx.timer)) \
  X(timer_deactivate_invalid, "tc_timer_deactivate", TC_INVALID, nothing, tc_timer_deactivate(NULL))     \
  X(timer_change_invalid, "tc_timer_change", TC_INVALID, nothing, tc_timer_change(&fx.timer, 0, 5))      \
  X(timer_change_active, "tc_timer_change", TC_STATE_ERROR, timer_active, tc_timer_change(&fx.timer, 5, 5)) \
  X(timer_delete_invalid, "tc_timer_delete", TC_INVALID, nothing, tc_timer_delete(&fx.timer_new))        \
  X(timer_info_out, "tc_timer_info", TC_INVALID, nothing, tc_timer_info(&fx.timer, NULL))                \
  X(timer_info_invalid, "tc_timer_info", TC_INVALID, nothing, tc_timer_info(&fx.timer_new, &tmi))        \
  X(bpool_create_again, "tc_block_pool_create", TC_INVALID, nothing,                                     \
    tc_block_pool_create(&fx.bpool, "x", 16, fx.bmem[2], sizeof fx.bmem[2]))                              \
  X(bpool_create_null, "tc_block_pool_create", TC_INVALID, nothing,                                      \
    tc_block_pool_create(&fx.bpool_new, "x", 16, NULL, sizeof fx.bmem[2]))                                \
  X(block_alloc_empty, "tc_block_alloc", TC_NO_INSTANCE, bpool_empty, tc_block_alloc(&fx.bpool, &ptr, TC_NO_WAIT)) \
  X(block_alloc_invalid, "tc_block_alloc", TC_INVALID, nothing, tc_block_alloc(&fx.bpool_new, &ptr, TC_NO_WAIT)) \
  X(block_free_twice, "tc_block_free", TC_INVALID, block_freed, tc_block_free(ptr))                      \
  X(block_free_stranger, "tc_block_free", TC_INVALID, nothing, tc_block_free(&fx.ymem[2][2]))            \
  X(bpool_delete_invalid, "tc_block_pool_delete", TC_INVALID, nothing, tc_block_pool_delete(&fx.bpool_new)) \
  X(bpool_info_out, "tc_block_pool_info", TC_INVALID, nothing, tc_block_pool_info(&fx.bpool, NULL))      \
  X(bpool_info_invalid, "tc_block_pool_info", TC_INVALID, nothing, tc_block_pool_info(NULL, &bpi))       \
  X(ypool_create_small, "tc_byte_pool_create", TC_INVALID, nothing,                                      \
    tc_byte_pool_create(&fx.ypool_new, "x", fx.ymem[2], TC_BYTE_MIN_BLOCK - 1))                           \
  X(ypool_create_overlap, "tc_byte_pool_create", TC_INVALID, nothing,                                    \
    tc_byte_pool_create(&fx.ypool_new, "x", fx.ymem[0], sizeof fx.ymem[0]))                               \
  X(byte_alloc_too_big, "tc_byte_alloc", TC_INVALID, nothing,                                            \
    tc_byte_alloc(&fx.ypool, &ptr, sizeof fx.ymem[0], TC_NO_WAIT))                                        \
  X(byte_alloc_no_room, "tc_byte_alloc", TC_NO_INSTANCE, ypool_half,                                     \
    tc_byte_alloc(&fx.ypool, &ptr, sizeof fx.ymem[0] / 2 + 32, TC_NO_WAIT))                               \
  X(byte_alloc_invalid, "tc_byte_alloc", TC_INVALID, nothing, tc_byte_alloc(&fx.ypool_new, &ptr, 8, TC_NO_WAIT)) \
  X(byte_free_twice, "tc_byte_free", TC_INVALID, bytes_freed, tc_byte_free(ptr))                         \
  X(byte_free_stranger, "tc_byte_free", TC_INVALID, nothing, tc_byte_free(&fx.bmem[2][2]))               \
  X(ypool_delete_invalid, "tc_byte_pool_delete", TC_INVALID, nothing, tc_byte_pool_delete(&fx.ypool_new)) \
  X(ypool_info_out, "tc_byte_pool_info", TC_INVALID, nothing, tc_byte_pool_info(&fx.ypool, NULL))        \
  X(ypool_info_invalid, "tc_byte_pool_info", TC_INVALID, nothing, tc_byte_pool_info(NULL, &ypi))         \
  X(hisr_create_again, "tc_hisr_create", TC_INVALID, nothing,                                            \
    tc_hisr_create(&fx.hisr, "x", fx_nop_hisr, 1, TCT_STACK(5)))                                          \
  X(hisr_create_prio, "tc_hisr_create", TC_PRIORITY_ERROR, nothing,                                      \
    tc_hisr_create(&fx.hisr_new, "x", fx_nop_hisr, 3, TCT_STACK(5)))                                      \
  X(hisr_activate_invalid, "tc_hisr_activate", TC_INVALID, nothing, tc_hisr_activate(&fx.hisr_new))      \
  X(hisr_activate_full, "tc_hisr_activate", TC_FULL, hisr_saturated, tc_hisr_activate(&fx.hisr))         \
  X(hisr_delete_invalid, "tc_hisr_delete", TC_INVALID, nothing, tc_hisr_delete(&fx.hisr_new))            \
  X(hisr_delete_active, "tc_hisr_delete", TC_STATE_ERROR, hisr_activated, tc_hisr_delete(&fx.hisr))      \
  X(hisr_info_out, "tc_hisr_info", TC_INVALID, nothing, tc_hisr_info(&fx.hisr, NULL))                    \
  X(hisr_info_invalid, "tc_hisr_info", TC_INVALID, nothing, tc_hisr_info(&fx.hisr_new, &hi))             \
  X(handler_invalid, "tc_signal_handler_set", TC_INVALID, nothing,                                       \
    tc_signal_handler_set(&fx.fresh, fx_nop_handler))                                                     \
  X(handler_done, "tc_signal_handler_set", TC_STATE_ERROR, nothing,                                      \
    tc_signal_handler_set(&fx.done, fx_nop_handler))                                                      \
  X(signal_none, "tc_signal_send", TC_INVALID, nothing, tc_signal_send(&fx.victim, 0))                   \
  X(signal_no_handler, "tc_signal_send", TC_STATE_ERROR, nothing, tc_signal_send(&runner, 1))            \
  X(abort_wait_outside, "tc_signal_abort_wait", TC_CALLER_ERROR, nothing, tc_signal_abort_wait())        \
  X(post_full, "tc_thread_post", TC_FULL, slot_full, tc_thread_post(&fx.victim, 2, TC_NO_WAIT))          \
  X(post_self, "tc_thread_post", TC_FULL, own_slot_full, tc_thread_post(&runner, 2, 5))                   \
  X(post_invalid, "tc_thread_post", TC_INVALID, nothing, tc_thread_post(&fx.fresh, 2, TC_NO_WAIT))       \
  X(post_done, "tc_thread_post", TC_STATE_ERROR, nothing, tc_thread_post(&fx.done, 2, TC_NO_WAIT))       \
  X(receive_empty, "tc_thread_receive", TC_NO_INSTANCE, nothing, tc_thread_receive(&got, TC_NO_WAIT))    \
  X(receive_word, "tc_thread_receive", TC_INVALID, nothing, tc_thread_receive(NULL, TC_NO_WAIT))

#define DEFINE(id, service, status, prep, call) \
  static tc_status id(void) { return call; }
MISUSES(DEFINE)

typedef struct {
  const char *id, *service;
  tc_status status;
  void (*prep)(void);
  tc_status (*call)(void);
} misuse;

#define ENTRY(id, service, status, prep, call) {#id, service, status, prep, id},
static const misuse misuses[] = {MISUSES(ENTRY)};
#define COUNT (sizeof misuses / sizeof misuses[0])

static const misuse *current;

static void runner_entry(void *arg)
{
  (void)arg;
  current->prep();
  FX_SNAPSHOT();
  tc_status st = current->call();
  static char msg[160];
  if (st != current->status) {
    snprintf(msg, sizeof msg, "%s (%s): got status %d, want %d", current->id, current->service, st,
             current->status);
    tct_fail(__FILE__, __LINE__, msg);
  }
  if (!FX_UNCHANGED()) {
    snprintf(msg, sizeof msg, "%s (%s): the error changed an object", current->id, current->service);
    tct_fail(__FILE__, __LINE__, msg);
  }
  STEP();
  tct_end(0);
}

static void every_error_changes_nothing(void)
{
  for (size_t i = 0; i < COUNT; i++) {
    current = &misuses[i];
    tct_begin();
    fx_setup();
    OK(tc_thread_create(&runner, "runner", runner_entry, NULL, TCT_STACK(6), 5, 5, 0, TC_AUTO_START));
    CHECK_EQ(tct_run_kernel(), 0);
  }
  printf("    %u misuses\n", (unsigned)COUNT);
}

/* ---- every way a wait ends ------------------------------------------------------------------ */

/* W(id, service, prep, call, end): `prep` (in the runner thread) makes the object unable to
 * serve; a higher-priority waiter then makes `call` with the timeout `wait_ticks` and blocks;
 * the runner ends the wait by a timeout, tc_thread_wait_abort or `end` (deleting the object or,
 * for a post, ending the receiver: TC_DELETED; NO_END where the header documents no
 * TC_DELETED). One per line, read by tools/tests/test_statuses.py. */
static uint32_t wait_ticks;
#define NO_END TC_OK /* a wait with nothing to delete */
static void runner_holds_mutex(void) { OK(tc_mutex_lock(&fx.mutex, TC_NO_WAIT)); }
static void event_unmet(void) { OK(tc_event_clear(&fx.event, 1)); }
#define WAITS(W)                                                                                          \
  W(w_sem_take, "tc_sem_take", sem_empty, tc_sem_take(&fx.sem, wait_ticks), tc_sem_delete(&fx.sem))      \
  W(w_mutex_lock, "tc_mutex_lock", runner_holds_mutex, tc_mutex_lock(&fx.mutex, wait_ticks),             \
    tc_mutex_delete(&fx.mutex))                                                                           \
  W(w_queue_send, "tc_queue_send", queue_full, tc_queue_send(&fx.queue, &fx_word, wait_ticks),           \
    tc_queue_delete(&fx.queue))                                                                           \
  W(w_queue_front, "tc_queue_send_front", queue_full, tc_queue_send_front(&fx.queue, &fx_word, wait_ticks), \
    tc_queue_delete(&fx.queue))                                                                           \
  W(w_queue_receive, "tc_queue_receive", queue_empty, tc_queue_receive(&fx.queue, &got, wait_ticks),     \
    tc_queue_delete(&fx.queue))                                                                           \
  W(w_port_send, "tc_port_send", port_full, tc_port_send(&fx.port, &fx_word, wait_ticks),                \
    tc_port_delete(&fx.port))                                                                             \
  W(w_port_receive, "tc_port_receive", port_empty, tc_port_receive(&fx.port, &ptr, wait_ticks),          \
    tc_port_delete(&fx.port))                                                                             \
  W(w_event_wait, "tc_event_wait", event_unmet, tc_event_wait(&fx.event, 1, TC_EVENT_ANY, &got, wait_ticks), \
    tc_event_delete(&fx.event))                                                                           \
  W(w_block_alloc, "tc_block_alloc", bpool_empty, tc_block_alloc(&fx.bpool, &ptr, wait_ticks),           \
    tc_block_pool_delete(&fx.bpool))                                                                      \
  W(w_byte_alloc, "tc_byte_alloc", ypool_half,                                                           \
    tc_byte_alloc(&fx.ypool, &ptr, sizeof fx.ymem[0] / 2 + 32, wait_ticks), tc_byte_pool_delete(&fx.ypool)) \
  W(w_thread_post, "tc_thread_post", slot_full, tc_thread_post(&fx.victim, 2, wait_ticks),               \
    tc_thread_terminate(&fx.victim))                                                                      \
  W(w_thread_receive, "tc_thread_receive", nothing, tc_thread_receive(&got, wait_ticks), NO_END)

#define DEFINE_WAIT(id, service, prep, call, end) \
  static tc_status id##_call(void) { return call; } \
  static tc_status id##_end(void) { return end; }
WAITS(DEFINE_WAIT)

typedef struct {
  const char *id, *service;
  void (*prep)(void);
  tc_status (*call)(void), (*end)(void);
} wait_case;
#define WAIT_ENTRY(id, service, prep, call, end) {#id, service, prep, id##_call, id##_end},
static const wait_case waits[] = {WAITS(WAIT_ENTRY)};

enum { BY_TIMEOUT, BY_ABORT, BY_END };
static const wait_case *wcase;
static unsigned ending;
static tc_status wait_result;
static tc_thread waiter;

static void waiter_entry(void *arg)
{
  (void)arg;
  wait_result = wcase->call();
}

static void wait_runner(void *arg)
{
  (void)arg;
  wcase->prep();
  wait_ticks = ending == BY_TIMEOUT ? 3 : TC_WAIT_FOREVER;
  wait_result = (tc_status)-1;
  OK(tc_thread_create(&waiter, "waiter", waiter_entry, NULL, TCT_STACK(9), 3, 3, 0, TC_AUTO_START));
  tc_thread_info_t i;
  OK(tc_thread_info(&waiter, &i));
  CHECK_EQ(i.state, TC_PENDING); /* it waits */
  tc_status want = TC_TIMEOUT;
  if (ending == BY_TIMEOUT) OK(tc_thread_sleep(5));
  if (ending == BY_ABORT) {
    OK(tc_thread_wait_abort(&waiter));
    want = TC_WAIT_ABORTED;
  }
  if (ending == BY_END) {
    OK(wcase->end());
    want = TC_DELETED;
  }
  STEP();
  static char msg[120];
  if (wait_result != want) {
    snprintf(msg, sizeof msg, "%s (%s), ending %u: got status %d, want %d", wcase->id, wcase->service, ending,
             wait_result, want);
    tct_fail(__FILE__, __LINE__, msg);
  }
  tct_end(0);
}

static void every_wait_ending(void)
{
  for (size_t i = 0; i < sizeof waits / sizeof waits[0]; i++) {
    wcase = &waits[i];
    for (ending = BY_TIMEOUT; ending <= BY_END; ending++) {
      if (ending == BY_END && wcase->end == w_thread_receive_end) continue; /* nothing to delete */
      tct_begin();
      fx_setup();
      OK(tc_thread_create(&runner, "runner", wait_runner, NULL, TCT_STACK(6), 5, 5, 0, TC_AUTO_START));
      CHECK_EQ(tct_run_kernel(), 0);
    }
  }
  printf("    %u blocking services x 3 endings\n", (unsigned)(sizeof waits / sizeof waits[0]));
}

#if TC_CHECKS
TCT_MAIN("test_misuse", TCT_CASE(every_error_changes_nothing), TCT_CASE(every_wait_ending))
#else
/* Argument errors are the checking layer's: without it the kernel trusts its caller. */
static void skipped(void) { (void)every_error_changes_nothing; }
TCT_MAIN("test_misuse", TCT_CASE(skipped), TCT_CASE(every_wait_ending))
#endif
