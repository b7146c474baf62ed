/* SPDX-License-Identifier: MIT */
/* CMSIS-RTOS2 kernel functions and the generic waits on Tacet. */
#include <string.h>

#include "os2_fixture.h"

static volatile int32_t isr_i32;
static volatile uint32_t isr_u32;
static volatile osKernelState_t isr_state;

static void isr_kernel_calls(void)
{
  isr_i32 = osKernelInitialize();
  CHECK_EQ(isr_i32, osErrorISR);
  CHECK_EQ(osKernelStart(), osErrorISR);
  CHECK_EQ(osKernelLock(), osErrorISR);
  CHECK_EQ(osKernelUnlock(), osErrorISR);
  CHECK_EQ(osKernelRestoreLock(0), osErrorISR);
  CHECK_EQ(osKernelSuspend(), 0u);
  osKernelResume(5); /* no effect from a handler */
  isr_state = osKernelGetState();
  isr_u32 = osKernelGetTickCount();
  CHECK_EQ(osKernelGetTickFreq(), TC_TICK_HZ);
  CHECK_EQ(osKernelGetSysTimerFreq(), tc_cycles_hz());
  osVersion_t v;
  char id[4];
  CHECK_EQ(osKernelGetInfo(&v, id, sizeof id), osOK);
  CHECK_EQ(osDelay(1), osErrorISR);
  CHECK_EQ(osDelayUntil(osKernelGetTickCount() + 5u), osErrorISR);
}

static void kernel_body(void)
{
  osVersion_t v = {0, 0};
  char id[64];
  OS2_OK(osKernelGetInfo(&v, id, sizeof id));
  CHECK_EQ(v.api, 20020000u);
  CHECK(v.kernel != 0u);
  CHECK(strncmp(id, "Tacet", 5) == 0);
  char small[4] = "xxx";
  OS2_OK(osKernelGetInfo(NULL, small, sizeof small));
  CHECK(strcmp(small, "Tac") == 0); /* truncated, terminated */
  OS2_OK(osKernelGetInfo(&v, NULL, 0));

  /* Initialize and Start only once a run. */
  OS2_EXPECT(osKernelInitialize(), osError);
  OS2_EXPECT(osKernelStart(), osError);
  CHECK_EQ(osKernelGetState(), osKernelRunning);

  /* Lock: the previous state each time, not nested. */
  OS2_EXPECT(osKernelLock(), 0);
  CHECK_EQ(osKernelGetState(), osKernelLocked);
  OS2_EXPECT(osKernelLock(), 1);
  OS2_EXPECT(osKernelUnlock(), 1);
  CHECK_EQ(osKernelGetState(), osKernelRunning);
  OS2_EXPECT(osKernelUnlock(), 0);
  OS2_EXPECT(osKernelRestoreLock(1), 1);
  CHECK_EQ(osKernelGetState(), osKernelLocked);
#if TC_CHECKS
  /* No waiting with the scheduler locked: the kernel's check (TC_CHECKS=0 trusts the caller). */
  OS2_EXPECT(osDelay(1), osError);
#endif
  OS2_EXPECT(osKernelRestoreLock(0), 0);
  OS2_EXPECT(osKernelRestoreLock(2), osError);
  CHECK_EQ(osKernelGetState(), osKernelRunning);

  /* Frequencies and counters. */
  CHECK_EQ(osKernelGetTickFreq(), TC_TICK_HZ);
  CHECK_EQ(osKernelGetSysTimerFreq(), tc_cycles_hz());
  /* Right after a tick (no invariant check in between: under QEMU it takes time). */
  CHECK_EQ(osDelay(1), osOK);
  uint32_t t0 = osKernelGetTickCount(), c0 = osKernelGetSysTimerCount();
  CHECK_EQ(osDelay(3), osOK);
  CHECK_EQ(osKernelGetTickCount() - t0, 3u);
  STEP();
  uint32_t elapsed = osKernelGetSysTimerCount() - c0;
  uint32_t per_tick = osKernelGetSysTimerFreq() / osKernelGetTickFreq();
  /* Under QEMU the board timer and SysTick need not keep exact step (tacet/cortex_m.h). */
  CHECK(elapsed / per_tick >= 2u && elapsed / per_tick <= 5u);

  /* From a handler: the functions CMSIS reserves to threads answer osErrorISR. */
  os2_isr(isr_kernel_calls);
  STEP();
  CHECK_EQ(isr_state, osKernelRunning);
  CHECK_EQ(isr_u32, osKernelGetTickCount());
  CHECK_EQ(osKernelGetState(), osKernelRunning);
}

static void test_kernel(void) { os2_run(kernel_body); }

/* ---- suspend and resume ----------------------------------------------------------------- */

static volatile uint32_t ticker_runs;

static void ticker(void *arg)
{
  (void)arg;
  for (;;) {
    ticker_runs++;
    osDelay(50);
  }
}

static void suspend_body(void)
{
  OS2_EXPECT(osKernelSuspend(), osWaitForever); /* nothing due */
  CHECK_EQ(osKernelGetState(), osKernelSuspended);
  OS2_EXPECT(osKernelSuspend(), 0u);            /* already suspended */
  OS2_EXPECT(osKernelLock(), osError);
  osKernelResume(0);
  CHECK_EQ(osKernelGetState(), osKernelRunning);
  CHECK_EQ(osDelay(1), osOK);

  osThreadAttr_t a = os2_prio(osPriorityAboveNormal);
  osThreadId_t id = osThreadNew(ticker, NULL, &a);
  CHECK(id != NULL);
  CHECK_EQ(ticker_runs, 1u);
  OS2_EXPECT(osKernelSuspend(), 50u);
  uint32_t t0 = osKernelGetTickCount();
  osKernelResume(50);
  /* The 50 ticks slept are counted, and what fell due in them has run. */
  CHECK_EQ(osKernelGetTickCount() - t0, 50u);
  CHECK_EQ(ticker_runs, 2u);
  CHECK_EQ(osKernelGetState(), osKernelRunning);
  OS2_OK(osThreadTerminate(id));
  osKernelResume(3); /* not suspended: nothing */
  CHECK_EQ(osKernelGetState(), osKernelRunning);
}

static void test_suspend_resume(void)
{
  ticker_runs = 0;
  os2_run(suspend_body);
}

/* ---- delays ----------------------------------------------------------------------------- */

#if TC_TRACE
/* The newest event `id` in the trace the harness records (tests/tct.c), NULL when none. */
static const tc_trace_event *newest(uint16_t id)
{
  const tc_trace_header *h = tc_trace_buffer(NULL);
  if (h == NULL) return NULL;
  const tc_trace_event *ev = (const tc_trace_event *)(const void *)((const char *)h + h->events_offset);
  uint32_t kept = h->laps != 0u ? h->events : h->next;
  for (uint32_t i = 0; i < kept; i++) {
    uint32_t slot = (h->next + h->events - 1u - i) % h->events;
    if (ev[slot].id == id) return &ev[slot];
  }
  return NULL;
}

/* The newest sleep recorded was one of `ticks` that returned `status`. */
static void check_sleep_recorded(uint32_t ticks, tc_status status)
{
  const tc_trace_event *e = newest(TC_TRACE_SVC_THREAD_SLEEP);
  CHECK(e != NULL);
  if (e == NULL) return;
  CHECK_EQ(e->arg[1], ticks);
  CHECK_EQ(e->arg[3], status);
}
#else
static void check_sleep_recorded(uint32_t ticks, tc_status status)
{
  (void)ticks;
  (void)status;
}
#endif

static void delay_body(void)
{
  CHECK_EQ(osDelay(1), osOK);
  uint32_t t0 = osKernelGetTickCount();
  CHECK_EQ(osDelay(10), osOK);
  CHECK_EQ(osKernelGetTickCount() - t0, 10u);
  STEP();
  OS2_OK(osDelay(0));
  t0 = osKernelGetTickCount();
  OS2_OK(osDelayUntil(t0 + 20u));
  CHECK_EQ(osKernelGetTickCount(), t0 + 20u);
  check_sleep_recorded(20u, TC_OK); /* traced as the sleep it is, to the deadline */
  /* Not with the kernel locked: refused, and traced as tc_thread_sleep refuses it. */
  OS2_EXPECT(osKernelLock(), 0);
  OS2_EXPECT(osDelayUntil(osKernelGetTickCount() + 5u), osError);
  OS2_EXPECT(osKernelUnlock(), 1);
  check_sleep_recorded(5u, TC_CALLER_ERROR);
  /* Now and the past are not deadlines. */
  OS2_EXPECT(osDelayUntil(osKernelGetTickCount()), osErrorParameter);
  OS2_EXPECT(osDelayUntil(osKernelGetTickCount() - 1u), osErrorParameter);
}

static void test_delay(void) { os2_run(delay_body); }

TCT_MAIN("cmsis_os2_kernel", TCT_CASE(test_kernel), TCT_CASE(test_suspend_resume), TCT_CASE(test_delay))
