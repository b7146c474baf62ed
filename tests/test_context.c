/* SPDX-License-Identifier: MIT */
/* Calling contexts: every cell of the table in docs/services.md ("Calling contexts"), service
 * by context. A cell is one kernel run: fresh objects, then the service called once in one
 * context -- a thread, start-up code, a LISR (tct_interrupt: a simulated interrupt on the sim
 * port, a real NVIC one on Cortex-M), an HISR, a timer callback, a thread holding the
 * scheduler lock. An allowed call returns the status of its row; a refused one returns
 * TC_CALLER_ERROR and leaves every object byte for byte as it was. tc_check() runs after
 * each call. On Cortex-M every row is also called from handlers above the kernel's mask, where
 * each is refused (unmasked_handler_refuses_every_service).
 *
 * The rows below and the table in the documentation are the same table: tests/python
 * (test_context_table.py) compares them, row by row and cell by cell. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "fixture.h"
#include "tct.h"

/* The harness does not start a trace for this test's cases: it checks the trace's API from
 * the state where nothing records (tct.c, the `trace` configuration). */
const bool tct_no_trace = true;

enum { CX_THREAD, CX_STARTUP, CX_LISR, CX_HISR, CX_TIMER, CX_LOCKED, CX_COUNT };
static const char *const cx_names[CX_COUNT] = {"thread", "startup", "LISR", "HISR", "timer callback", "locked"};

static tc_thread runner;
static tc_hisr ctx_hisr;
static tc_timer ctx_timer;


/* ---- the rows ----------------------------------------------------------------------------- */

static void *ptr;

/* clang-format off */
static tc_status thread_create(void) { return tc_thread_create(&fx.fresh, "new", fx_nop_entry, NULL, TCT_STACK(2), 30, 30, 0, 0); }
static tc_status thread_delete(void) { return tc_thread_delete(&fx.done); }
static tc_status thread_terminate(void) { return tc_thread_terminate(&fx.victim); }
static tc_status thread_suspend(void) { return tc_thread_suspend(&fx.victim); }
static tc_status thread_resume(void) { return tc_thread_resume(&fx.victim); }
static tc_status thread_priority_change(void) { unsigned o; return tc_thread_priority_change(&fx.victim, 21, &o); }
static tc_status thread_threshold_change(void) { unsigned o; return tc_thread_threshold_change(&fx.victim, 15, &o); }
static tc_status thread_wait_abort(void) { return tc_thread_wait_abort(&fx.victim); }
static tc_status thread_info(void) { tc_thread_info_t i; return tc_thread_info(&fx.victim, &i); }
static tc_status thread_sleep(void) { return tc_thread_sleep(1); }
static tc_status sem_create(void) { return tc_sem_create(&fx.sem_new, "new", 0, 5); }
static tc_status sem_delete(void) { return tc_sem_delete(&fx.sem_del); }
static tc_status sem_take_now(void) { return tc_sem_take(&fx.sem, TC_NO_WAIT); }
static tc_status sem_take_wait(void) { return tc_sem_take(&fx.sem, 1); }
static tc_status sem_give(void) { return tc_sem_give(&fx.sem); }
static tc_status mutex_create(void) { return tc_mutex_create(&fx.mutex_new, "new", TC_INHERIT); }
static tc_status mutex_delete(void) { return tc_mutex_delete(&fx.mutex_del); }
static tc_status mutex_lock_now(void) { return tc_mutex_lock(&fx.mutex, TC_NO_WAIT); }
static tc_status mutex_lock_wait(void) { return tc_mutex_lock(&fx.mutex, 1); }
/* Unlocking needs the mutex: taken first where the context may take it. */
static tc_status mutex_unlock(void) { (void)tc_mutex_lock(&fx.mutex, TC_NO_WAIT); return tc_mutex_unlock(&fx.mutex); }
static tc_status queue_create(void) { return tc_queue_create(&fx.queue_new, "new", 4, fx.qbuf[2], sizeof fx.qbuf[2]); }
static tc_status queue_delete(void) { return tc_queue_delete(&fx.queue_del); }
static tc_status queue_send_now(void) { return tc_queue_send(&fx.queue, &fx_word, TC_NO_WAIT); }
static tc_status queue_send_wait(void) { return tc_queue_send(&fx.queue, &fx_word, 1); }
static tc_status queue_front_now(void) { return tc_queue_send_front(&fx.queue, &fx_word, TC_NO_WAIT); }
static tc_status queue_front_wait(void) { return tc_queue_send_front(&fx.queue, &fx_word, 1); }
static tc_status queue_receive_now(void) { return tc_queue_receive(&fx.queue, &fx_word, TC_NO_WAIT); }
static tc_status queue_receive_wait(void) { return tc_queue_receive(&fx.queue, &fx_word, 1); }
static tc_status queue_flush(void) { return tc_queue_flush(&fx.queue); }
static tc_status port_create(void) { return tc_port_create(&fx.port_new, "new", fx.slots[2], 4); }
static tc_status port_delete(void) { return tc_port_delete(&fx.port_del); }
static tc_status port_send_now(void) { return tc_port_send(&fx.port, &fx_word, TC_NO_WAIT); }
static tc_status port_send_wait(void) { return tc_port_send(&fx.port, &fx_word, 1); }
static tc_status port_receive_now(void) { return tc_port_receive(&fx.port, &ptr, TC_NO_WAIT); }
static tc_status port_receive_wait(void) { return tc_port_receive(&fx.port, &ptr, 1); }
static tc_status event_create(void) { return tc_event_create(&fx.event_new, "new"); }
static tc_status event_delete(void) { return tc_event_delete(&fx.event_del); }
static tc_status event_set(void) { return tc_event_set(&fx.event, 0x10); }
static tc_status event_clear(void) { return tc_event_clear(&fx.event, 0x10); }
static tc_status event_wait_now(void) { uint32_t a; return tc_event_wait(&fx.event, 1, TC_EVENT_ANY, &a, TC_NO_WAIT); }
static tc_status event_wait_wait(void) { uint32_t a; return tc_event_wait(&fx.event, 1, TC_EVENT_ANY, &a, 1); }
static tc_status timer_create(void) { return tc_timer_create(&fx.timer_new, "new", fx_nop_cb, NULL, 5, 0, 0); }
static tc_status timer_delete(void) { return tc_timer_delete(&fx.timer_del); }
static tc_status timer_activate(void) { return tc_timer_activate(&fx.timer); }
static tc_status timer_deactivate(void) { return tc_timer_deactivate(&fx.timer); }
static tc_status timer_change(void) { return tc_timer_change(&fx.timer, 7, 7); }
static tc_status timer_info(void) { tc_timer_info_t i; return tc_timer_info(&fx.timer, &i); }
static tc_status block_pool_create(void) { return tc_block_pool_create(&fx.bpool_new, "new", 16, fx.bmem[2], sizeof fx.bmem[2]); }
static tc_status block_pool_delete(void) { return tc_block_pool_delete(&fx.bpool_del); }
static tc_status block_alloc_now(void) { return tc_block_alloc(&fx.bpool, &ptr, TC_NO_WAIT); }
static tc_status block_alloc_wait(void) { return tc_block_alloc(&fx.bpool, &ptr, 1); }
static tc_status block_free(void) { (void)tc_block_alloc(&fx.bpool, &ptr, TC_NO_WAIT); return tc_block_free(ptr); }
static tc_status block_pool_info(void) { tc_block_pool_info_t i; return tc_block_pool_info(&fx.bpool, &i); }
static tc_status byte_pool_create(void) { return tc_byte_pool_create(&fx.ypool_new, "new", fx.ymem[2], sizeof fx.ymem[2]); }
static tc_status byte_pool_delete(void) { return tc_byte_pool_delete(&fx.ypool_del); }
static tc_status byte_alloc_now(void) { return tc_byte_alloc(&fx.ypool, &ptr, 8, TC_NO_WAIT); }
static tc_status byte_alloc_wait(void) { return tc_byte_alloc(&fx.ypool, &ptr, 8, 1); }
static tc_status byte_free(void) { (void)tc_byte_alloc(&fx.ypool, &ptr, 8, TC_NO_WAIT); return tc_byte_free(ptr); }
static tc_status byte_pool_info(void) { tc_byte_pool_info_t i; return tc_byte_pool_info(&fx.ypool, &i); }
static tc_status hisr_create(void) { return tc_hisr_create(&fx.hisr_new, "new", fx_nop_hisr, 1, TCT_STACK(5)); }
static tc_status hisr_delete(void) { return tc_hisr_delete(&fx.hisr_del); }
static tc_status hisr_activate(void) { return tc_hisr_activate(&fx.hisr); }
static tc_status hisr_info(void) { tc_hisr_info_t i; return tc_hisr_info(&fx.hisr, &i); }
/* The trace: enabled on a buffer of its own (a refused enable leaves the fixture as it was);
 * disabling and user events find no trace running. */
static uint64_t trace_buf[512];
static tc_status trace_enable(void) { return tc_trace_enable(trace_buf, sizeof trace_buf, TC_TRACE_WRAP); }
static tc_status trace_disable(void) { return tc_trace_disable(); }
static tc_status trace_user(void) { return tc_trace_user(TC_TRACE_USER_FIRST, 0, 0); }
static tc_status trace_label(void) { return tc_trace_label("case"); }

static tc_status signal_handler_set(void) { return tc_signal_handler_set(&fx.victim, fx_nop_handler); }
static tc_status signal_send(void) { return tc_signal_send(&fx.victim, 1); }
static tc_status signal_abort_wait(void) { return tc_signal_abort_wait(); }
static tc_status thread_post_now(void) { return tc_thread_post(&fx.victim, 1, TC_NO_WAIT); }
static tc_status thread_post_wait(void) { return tc_thread_post(&fx.victim, 1, 1); }
static tc_status thread_receive_now(void) { return tc_thread_receive(&fx_word, TC_NO_WAIT); }
static tc_status thread_receive_wait(void) { return tc_thread_receive(&fx_word, 1); }
/* clang-format on */

typedef struct {
  const char *name;     /* as in the documentation's table */
  tc_status (*call)(void);
  const char *allowed;  /* per context, in cx_names order: 'y' allowed, '-' TC_CALLER_ERROR */
  tc_status ok;         /* what an allowed call returns with the fixture's objects */
} row;

/* Each row on one line, `ROW(name, call, allowed, status)`: the Python test reads them.
 *                                                         thread, startup, LISR, HISR, timer, locked */
#define ROW(name, call, allowed, ok) {name, call, allowed, ok}
static const row rows[] = {
    ROW("tc_thread_create", thread_create, "yy---y", TC_OK),
    ROW("tc_thread_delete", thread_delete, "yy---y", TC_OK),
    ROW("tc_thread_terminate", thread_terminate, "yy-yyy", TC_OK),
    ROW("tc_thread_suspend", thread_suspend, "yyyyyy", TC_OK),
    ROW("tc_thread_resume", thread_resume, "yyyyyy", TC_OK),
    ROW("tc_thread_priority_change", thread_priority_change, "yy-yyy", TC_OK),
    ROW("tc_thread_threshold_change", thread_threshold_change, "yy-yyy", TC_OK),
    ROW("tc_thread_wait_abort", thread_wait_abort, "yyyyyy", TC_STATE_ERROR),
    ROW("tc_thread_info", thread_info, "yyyyyy", TC_OK),
    ROW("tc_thread_sleep", thread_sleep, "y-----", TC_OK),
    ROW("tc_sem_create", sem_create, "yy---y", TC_OK),
    ROW("tc_sem_delete", sem_delete, "yy---y", TC_OK),
    ROW("tc_sem_take(TC_NO_WAIT)", sem_take_now, "yyyyyy", TC_OK),
    ROW("tc_sem_take(timeout)", sem_take_wait, "y-----", TC_OK),
    ROW("tc_sem_give", sem_give, "yyyyyy", TC_OK),
    ROW("tc_mutex_create", mutex_create, "yy---y", TC_OK),
    ROW("tc_mutex_delete", mutex_delete, "yy---y", TC_OK),
    ROW("tc_mutex_lock(TC_NO_WAIT)", mutex_lock_now, "y----y", TC_OK),
    ROW("tc_mutex_lock(timeout)", mutex_lock_wait, "y-----", TC_OK),
    ROW("tc_mutex_unlock", mutex_unlock, "y----y", TC_OK),
    ROW("tc_queue_create", queue_create, "yy---y", TC_OK),
    ROW("tc_queue_delete", queue_delete, "yy---y", TC_OK),
    ROW("tc_queue_send(TC_NO_WAIT)", queue_send_now, "yyyyyy", TC_OK),
    ROW("tc_queue_send(timeout)", queue_send_wait, "y-----", TC_OK),
    ROW("tc_queue_send_front(TC_NO_WAIT)", queue_front_now, "yyyyyy", TC_OK),
    ROW("tc_queue_send_front(timeout)", queue_front_wait, "y-----", TC_OK),
    ROW("tc_queue_receive(TC_NO_WAIT)", queue_receive_now, "yyyyyy", TC_OK),
    ROW("tc_queue_receive(timeout)", queue_receive_wait, "y-----", TC_OK),
    ROW("tc_queue_flush", queue_flush, "yyyyyy", TC_OK),
    ROW("tc_port_create", port_create, "yy---y", TC_OK),
    ROW("tc_port_delete", port_delete, "yy---y", TC_OK),
    ROW("tc_port_send(TC_NO_WAIT)", port_send_now, "yyyyyy", TC_OK),
    ROW("tc_port_send(timeout)", port_send_wait, "y-----", TC_OK),
    ROW("tc_port_receive(TC_NO_WAIT)", port_receive_now, "yyyyyy", TC_OK),
    ROW("tc_port_receive(timeout)", port_receive_wait, "y-----", TC_OK),
    ROW("tc_event_create", event_create, "yy---y", TC_OK),
    ROW("tc_event_delete", event_delete, "yy---y", TC_OK),
    ROW("tc_event_set", event_set, "yyyyyy", TC_OK),
    ROW("tc_event_clear", event_clear, "yyyyyy", TC_OK),
    ROW("tc_event_wait(TC_NO_WAIT)", event_wait_now, "yyyyyy", TC_OK),
    ROW("tc_event_wait(timeout)", event_wait_wait, "y-----", TC_OK),
    ROW("tc_timer_create", timer_create, "yy--yy", TC_OK),
    ROW("tc_timer_delete", timer_delete, "yy--yy", TC_OK),
    ROW("tc_timer_activate", timer_activate, "yyyyyy", TC_OK),
    ROW("tc_timer_deactivate", timer_deactivate, "yyyyyy", TC_OK),
    ROW("tc_timer_change", timer_change, "yyyyyy", TC_OK),
    ROW("tc_timer_info", timer_info, "yyyyyy", TC_OK),
    ROW("tc_block_pool_create", block_pool_create, "yy---y", TC_OK),
    ROW("tc_block_pool_delete", block_pool_delete, "yy---y", TC_OK),
    ROW("tc_block_alloc(TC_NO_WAIT)", block_alloc_now, "yyyyyy", TC_OK),
    ROW("tc_block_alloc(timeout)", block_alloc_wait, "y-----", TC_OK),
    ROW("tc_block_free", block_free, "yyyyyy", TC_OK),
    ROW("tc_block_pool_info", block_pool_info, "yyyyyy", TC_OK),
    ROW("tc_byte_pool_create", byte_pool_create, "yy---y", TC_OK),
    ROW("tc_byte_pool_delete", byte_pool_delete, "yy---y", TC_OK),
    ROW("tc_byte_alloc(TC_NO_WAIT)", byte_alloc_now, "yyyyyy", TC_OK),
    ROW("tc_byte_alloc(timeout)", byte_alloc_wait, "y-----", TC_OK),
    ROW("tc_byte_free", byte_free, "yyyyyy", TC_OK),
    ROW("tc_byte_pool_info", byte_pool_info, "yyyyyy", TC_OK),
    ROW("tc_hisr_create", hisr_create, "yy---y", TC_OK),
    ROW("tc_hisr_delete", hisr_delete, "yy---y", TC_OK),
    ROW("tc_hisr_activate", hisr_activate, "yyyyyy", TC_OK),
    ROW("tc_hisr_info", hisr_info, "yyyyyy", TC_OK),
    ROW("tc_signal_handler_set", signal_handler_set, "yyyyyy", TC_OK),
    ROW("tc_signal_send", signal_send, "yyyyyy", TC_OK),
    ROW("tc_signal_abort_wait", signal_abort_wait, "------", TC_OK),
    ROW("tc_thread_post(TC_NO_WAIT)", thread_post_now, "yyyyyy", TC_OK),
    ROW("tc_thread_post(timeout)", thread_post_wait, "y-----", TC_OK),
    ROW("tc_thread_receive(TC_NO_WAIT)", thread_receive_now, "y----y", TC_NO_INSTANCE),
    ROW("tc_thread_receive(timeout)", thread_receive_wait, "y-----", TC_TIMEOUT),
#if TC_TRACE
    ROW("tc_trace_enable", trace_enable, "yy-yyy", TC_OK),
#else
    ROW("tc_trace_enable", trace_enable, "yy-yyy", TC_STATE_ERROR), /* the trace compiled out */
#endif
    ROW("tc_trace_disable", trace_disable, "yyyyyy", TC_STATE_ERROR),
    ROW("tc_trace_user", trace_user, "yyyyyy", TC_STATE_ERROR),
    ROW("tc_trace_label", trace_label, "yyyyyy", TC_STATE_ERROR),
};
#define ROWS (sizeof rows / sizeof rows[0])

/* ---- one cell ----------------------------------------------------------------------------- */

static const row *cell_row;
static unsigned cell_cx;
static bool cell_done;

static void fail_cell(int line, const char *what, long long got)
{
  static char msg[160];
  snprintf(msg, sizeof msg, "%s from %s: %s (got %lld)", cell_row->name, cx_names[cell_cx], what, got);
  tct_fail(__FILE__, line, msg);
}

/* The call, in whatever context runs this. */
static void do_cell(void)
{
  cell_done = true;
  bool allowed = cell_row->allowed[cell_cx] == 'y';
#if TC_CHECKS
  tc_status want = allowed ? cell_row->ok : TC_CALLER_ERROR;
#else
  /* Without the checking layer the kernel trusts its caller: a refused call is not made. */
  if (!allowed) return;
  tc_status want = cell_row->ok;
#endif
  FX_SNAPSHOT();
  tc_status st = cell_row->call();
  if (st != want) fail_cell(__LINE__, allowed ? "allowed call, wrong status" : "not refused", st);
  if (!allowed && !FX_UNCHANGED()) fail_cell(__LINE__, "refused, yet it changed an object", st);
  STEP();
}

static void ctx_hisr_fn(void) { do_cell(); }
static void ctx_timer_cb(void *arg) { (void)arg; do_cell(); }
static void lisr_cell(void *arg) { (void)arg; do_cell(); }

static void runner_entry(void *arg)
{
  (void)arg;
  switch (cell_cx) {
  case CX_THREAD:
    do_cell();
    break;
  case CX_LISR:
    tct_interrupt(lisr_cell, NULL); /* on Cortex-M a real NVIC interrupt */
    break;
  case CX_HISR:
    OK(tc_hisr_activate(&ctx_hisr)); /* above every thread: runs at once */
    break;
  case CX_TIMER:
    OK(tc_timer_activate(&ctx_timer));
    OK(tc_thread_sleep(3));
    break;
  case CX_LOCKED:
    tc_sched_lock();
    do_cell();
    tc_sched_unlock();
    break;
  default:
    break;
  }
  tct_end(0);
}

static void run_cell(const row *r, unsigned cx)
{
  tct_begin();
  cell_row = r;
  cell_cx = cx;
  cell_done = false;
  fx_setup();
  if (cx == CX_STARTUP) {
    do_cell();
    return;
  }
  OK(tc_hisr_create(&ctx_hisr, "ctx", ctx_hisr_fn, 0, TCT_STACK(7)));
  OK(tc_timer_create(&ctx_timer, "ctx", ctx_timer_cb, NULL, 1, 0, 0));
  OK(tc_thread_create(&runner, "runner", runner_entry, NULL, TCT_STACK(6), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  if (!cell_done) fail_cell(__LINE__, "the context never ran the call", 0);
}

static void every_cell(void)
{
  for (size_t i = 0; i < ROWS; i++) {
    for (unsigned cx = 0; cx < CX_COUNT; cx++) run_cell(&rows[i], cx);
  }
  printf("    %u services x %u contexts\n", (unsigned)ROWS, (unsigned)CX_COUNT);
}

/* ---- a handler above the kernel's mask ---------------------------------------------------- */

#if defined(TC_PORT_IN_UNMASKED_ISR) && TC_CHECKS
/* Every row, called from a real NVIC interrupt whose priority the kernel's BASEPRI mask
 * (TC_CM_BASEPRI, 0x40) does not hold back: 0x00 (every line's reset priority), 0x20, and
 * 0x3F, the most urgent value below the mask (0x20 on a core with 3 priority bits). Each is
 * refused: TC_CALLER_ERROR after tc_isr_priority_hook() named the service, and neither the
 * fixture nor anything of the kernel (tc__k, byte for byte) changed. At 0x40, the kernel's
 * level itself, the handler is an ordinary LISR: the row's LISR cell, and no hook. */

static unsigned hook_calls;
static const char *hook_service;

/* Instead of the default (a panic): record, and let the service refuse. */
void tc_isr_priority_hook(const char *service)
{
  hook_calls++;
  hook_service = service;
}

static tc_kernel k_before;
static tc_status unmasked_status;
static bool unmasked_unchanged;

static void unmasked_cell(void *arg)
{
  (void)arg;
  cell_done = true;
  FX_SNAPSHOT();
  memcpy(&k_before, &tc__k, sizeof tc__k);
  unmasked_status = cell_row->call();
  unmasked_unchanged = FX_UNCHANGED() && memcmp(&k_before, &tc__k, sizeof tc__k) == 0;
}

static unsigned unmasked_priority;

static void unmasked_runner(void *arg)
{
  (void)arg;
  tct_interrupt_at(unmasked_priority, unmasked_cell, NULL); /* runs before this returns */
  tct_end(0);
}

/* The service a row calls last: its name without the "(...)" of the table. */
static bool names_row(const char *service, const row *r)
{
  size_t n = strcspn(r->name, "(");
  return service != NULL && strlen(service) == n && strncmp(service, r->name, n) == 0;
}

static void unmasked_handler_refuses_every_service(void)
{
  static const unsigned priorities[] = {0x00, 0x20, 0x3F, TC_CM_BASEPRI};
  for (size_t p = 0; p < sizeof priorities / sizeof priorities[0]; p++) {
    bool above = priorities[p] < TC_CM_BASEPRI;
    for (size_t i = 0; i < ROWS; i++) {
      tct_begin();
      cell_row = &rows[i];
      cell_cx = CX_LISR;
      cell_done = false;
      hook_calls = 0;
      hook_service = NULL;
      unmasked_priority = priorities[p];
      fx_setup();
      OK(tc_thread_create(&runner, "runner", unmasked_runner, NULL, TCT_STACK(6), 5, 5, 0, TC_AUTO_START));
      CHECK_EQ(tct_run_kernel(), 0);
      STEP();
      if (!cell_done) fail_cell(__LINE__, "the handler never ran", (long long)priorities[p]);
      if (above) {
        if (unmasked_status != TC_CALLER_ERROR) fail_cell(__LINE__, "not refused above the mask", unmasked_status);
        if (!unmasked_unchanged) fail_cell(__LINE__, "refused above the mask, yet it changed the kernel", 0);
        if (hook_calls == 0 || !names_row(hook_service, &rows[i]))
          fail_cell(__LINE__, "tc_isr_priority_hook not called with the service's name", hook_calls);
      } else {
        tc_status want = rows[i].allowed[CX_LISR] == 'y' ? rows[i].ok : TC_CALLER_ERROR;
        if (unmasked_status != want) fail_cell(__LINE__, "at the kernel's level: not the LISR's status", unmasked_status);
        if (hook_calls != 0) fail_cell(__LINE__, "at the kernel's level: the hook was called", hook_calls);
      }
    }
  }
  printf("    %u services x %u priorities\n", (unsigned)ROWS, (unsigned)(sizeof priorities / sizeof priorities[0]));
}

/* The bracket, whose functions return nothing: above the mask each calls the hook and
 * returns, without counting the interrupt or opening a bracket. */
static void unmasked_bracket(void *arg)
{
  (void)arg;
  memcpy(&k_before, &tc__k, sizeof tc__k);
  tc_isr_enter();
  unmasked_unchanged = memcmp(&k_before, &tc__k, sizeof tc__k) == 0 && hook_calls == 1 &&
                       hook_service != NULL && strcmp(hook_service, "tc_isr_enter") == 0;
  tc_isr_exit();
  unmasked_unchanged = unmasked_unchanged && memcmp(&k_before, &tc__k, sizeof tc__k) == 0 &&
                       hook_calls == 2 && strcmp(hook_service, "tc_isr_exit") == 0;
}

static void bracket_runner(void *arg)
{
  (void)arg;
  tct_interrupt_at(0x00, unmasked_bracket, NULL);
  CHECK(unmasked_unchanged);
  tct_end(0);
}

static void unmasked_handler_bracket_changes_nothing(void)
{
  tct_begin();
  hook_calls = 0;
  hook_service = NULL;
  unmasked_unchanged = false;
  OK(tc_thread_create(&runner, "runner", bracket_runner, NULL, TCT_STACK(6), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  CHECK_EQ(hook_calls, 2);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.interrupts, 0);
}
#endif

/* ---- what has no status: who am I, the scheduler lock, yield ------------------------------ */

static tc_thread *self_seen;
static tc_hisr *hisr_seen;
static unsigned nesting_seen;

static void probe(void)
{
  self_seen = tc_thread_self();
  hisr_seen = tc_hisr_self();
  tc_sched_lock(); /* a thread's: elsewhere no effect */
  nesting_seen = tc__k.lock_nesting;
  tc_sched_unlock();
  CHECK_EQ(tc__k.lock_nesting, cell_cx == CX_LOCKED ? 1 : 0);
#if TC_CHECKS
  tc_thread_yield(); /* a no-op outside a thread: returns */
#endif
  STEP();
}

static tc_status probe_call(void)
{
  probe();
  return TC_OK;
}

static void queries(void)
{
  static const row probe_row = {"queries", probe_call, "yyyyyy", TC_OK};
  for (unsigned cx = 0; cx < CX_COUNT; cx++) {
    self_seen = NULL;
    hisr_seen = NULL;
    nesting_seen = 99;
    run_cell(&probe_row, cx);
    CHECK(self_seen == (cx == CX_THREAD || cx == CX_LOCKED ? &runner : NULL));
    CHECK(hisr_seen == (cx == CX_HISR ? &ctx_hisr : NULL)); /* a timer callback's is the kernel's */
    CHECK_EQ(nesting_seen, cx == CX_THREAD ? 1 : cx == CX_LOCKED ? 2 : 0);
  }
}

/* ---- the calling thread with the scheduler locked ---------------------------------------- */

static void self_locked(void *arg)
{
  (void)arg;
  tc_sched_lock();
  EXPECT(tc_thread_terminate(&runner), TC_CALLER_ERROR);
  EXPECT(tc_thread_suspend(&runner), TC_CALLER_ERROR);
  tc_thread_info_t i;
  OK(tc_thread_info(&runner, &i));
  CHECK_EQ(i.state, TC_RUNNING);
  tc_sched_unlock();
  tct_log("alive");
  OK(tc_thread_terminate(&runner)); /* unlocked: does not return */
  tct_log("not reached");
}

static void terminate_or_suspend_self_locked(void)
{
  tct_begin();
  OK(tc_thread_create(&runner, "runner", self_locked, NULL, TCT_STACK(6), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("alive");
  tc_thread_info_t i;
  OK(tc_thread_info(&runner, &i));
  CHECK_EQ(i.state, TC_TERMINATED);
}

/* ---- an HISR or a timer callback ends the thread it interrupted --------------------------- */

static tc_thread worker;

static void terminate_worker(void)
{
  OK(tc_thread_terminate(&worker));
  tct_log("terminated");
}
static void terminate_worker_cb(void *arg) { (void)arg; terminate_worker(); }

static void working(void *arg)
{
  (void)arg;
  tct_log("working");
  if (cell_cx == CX_HISR) OK(tc_hisr_activate(&ctx_hisr));
  for (;;) tct_work(1000); /* until the timer's callback ends it */
}

static void other(void *arg)
{
  (void)arg;
  tct_log("other");
  tct_end(0);
}

static void handler_terminates_running_thread(void)
{
  for (unsigned cx = CX_HISR; cx <= CX_TIMER; cx++) {
    tct_begin();
    cell_cx = cx;
    OK(tc_hisr_create(&ctx_hisr, "ctx", terminate_worker, 0, TCT_STACK(7)));
    OK(tc_timer_create(&ctx_timer, "ctx", terminate_worker_cb, NULL, 2, 0, cx == CX_TIMER ? TC_AUTO_ACTIVATE : 0));
    OK(tc_thread_create(&worker, "worker", working, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
    OK(tc_thread_create(&runner, "other", other, NULL, TCT_STACK(6), 9, 9, 0, TC_AUTO_START));
    CHECK_EQ(tct_run_kernel(), 0);
    CHECK_LOG("working terminated other");
  }
}

TCT_MAIN("test_context",
         TCT_CASE(every_cell),
#if defined(TC_PORT_IN_UNMASKED_ISR) && TC_CHECKS
         TCT_CASE(unmasked_handler_refuses_every_service),
         TCT_CASE(unmasked_handler_bracket_changes_nothing),
#endif
         TCT_CASE(queries),
         TCT_CASE(terminate_or_suspend_self_locked),
         TCT_CASE(handler_terminates_running_thread))
