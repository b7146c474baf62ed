/* SPDX-License-Identifier: MIT */
/* CMSIS-RTOS2 threads and thread flags on Tacet. */
#include <string.h>

#include "os2_fixture.h"

static volatile int runs;
static volatile uint32_t got;

static void count(void *arg)
{
  (void)arg;
  runs++;
}

static void spin(void *arg)
{
  (void)arg;
  for (;;) osDelay(1000);
}

static void exits(void *arg)
{
  runs++;
  if (arg != NULL) osThreadExit();
  runs += 100; /* not reached with an argument */
}

static uint8_t cb_mem[TC_OS2_THREAD_CB_SIZE + 8] __attribute__((aligned(8)));
static uint64_t stack_mem[(TC_OS2_STACK_MIN + 256u) / 8u];

static void create_body(void)
{
  /* Defaults: osPriorityNormal, detached, stack of TC_OS2_STACK_SIZE, unnamed. */
  osThreadId_t id = osThreadNew(spin, NULL, NULL);
  CHECK(id != NULL);
  STEP();
  CHECK_EQ(osThreadGetPriority(id), osPriorityNormal);
  CHECK(osThreadGetName(id) == NULL);
  CHECK_EQ(osThreadGetStackSize(id), TC_OS2_STACK_SIZE);
  CHECK_EQ(osThreadGetState(id), osThreadReady);
  OS2_OK(osThreadTerminate(id));
  CHECK_EQ(osThreadGetState(id), osThreadError); /* detached: gone */
  OS2_EXPECT(osThreadTerminate(id), osErrorParameter);

  /* The caller's memory, exact sizes: one byte short or misaligned is refused. */
  osThreadAttr_t a = os2_prio(osPriorityHigh);
  a.name = "static";
  a.cb_mem = cb_mem;
  a.cb_size = (uint32_t)TC_OS2_THREAD_CB_SIZE - 1u;
  a.stack_mem = stack_mem;
  a.stack_size = sizeof stack_mem;
  CHECK(osThreadNew(count, NULL, &a) == NULL);
  a.cb_mem = cb_mem + 1;
  a.cb_size = (uint32_t)TC_OS2_THREAD_CB_SIZE;
  CHECK(osThreadNew(count, NULL, &a) == NULL);
  a.cb_mem = NULL; /* a size without memory */
  CHECK(osThreadNew(count, NULL, &a) == NULL);
  a.cb_mem = cb_mem;
  a.stack_mem = (uint8_t *)stack_mem + 4; /* stack not 8-aligned */
  a.stack_size = sizeof stack_mem - 8u;
  CHECK(osThreadNew(count, NULL, &a) == NULL);
  a.stack_mem = stack_mem;
  a.stack_size = sizeof stack_mem - 4u; /* not a multiple of 8 */
  CHECK(osThreadNew(count, NULL, &a) == NULL);
  a.stack_size = 0; /* stack memory without its size */
  CHECK(osThreadNew(count, NULL, &a) == NULL);
  a.stack_size = sizeof stack_mem;
  STEP();
  runs = 0;
  id = osThreadNew(count, NULL, &a);
  CHECK(id == (osThreadId_t)cb_mem);
  CHECK_EQ(runs, 1); /* higher priority: it ran to its end already */
  STEP();
  /* The same memory again, once the ended thread is removed. */
  id = osThreadNew(count, NULL, &a);
  CHECK(id == (osThreadId_t)cb_mem);
  CHECK_EQ(runs, 2);

  /* Priorities out of range; no function. */
  a = os2_prio((osPriority_t)(osPriorityISR + 1));
  CHECK(osThreadNew(count, NULL, &a) == NULL);
  a = os2_prio(osPriorityError);
  CHECK(osThreadNew(count, NULL, &a) == NULL);
  CHECK(osThreadNew(NULL, NULL, NULL) == NULL);
  STEP();
}

static void test_create(void) { os2_run(create_body); }

static void prio_body(void)
{
  osThreadId_t self = osThreadGetId();
  CHECK(self != NULL);
  CHECK(tacetOsThread(self) == tc_thread_self());
  CHECK(strcmp(osThreadGetName(self), "main") == 0);
  CHECK_EQ(osThreadGetState(self), osThreadRunning);
  /* The mapping: osPriority_t p at Tacet priority BASE + 56 - p. */
  tc_thread_info_t info;
  OS2_OK(osThreadSetPriority(self, osPriorityLow));
  CHECK_EQ(osThreadGetPriority(self), osPriorityLow);
  CHECK_EQ(tc_thread_info(tc_thread_self(), &info), TC_OK);
  CHECK_EQ(info.priority, TC_OS2_PRIORITY_BASE + 48u);
  OS2_OK(osThreadSetPriority(self, osPriorityISR));
  CHECK_EQ(tc_thread_info(tc_thread_self(), &info), TC_OK);
  CHECK_EQ(info.priority, TC_OS2_PRIORITY_BASE);
  OS2_OK(osThreadSetPriority(self, osPriorityIdle));
  CHECK_EQ(tc_thread_info(tc_thread_self(), &info), TC_OK);
  CHECK_EQ(info.priority, TC_OS2_PRIORITY_BASE + 55u);
  OS2_EXPECT(osThreadSetPriority(self, osPriorityNone), osErrorParameter);
  OS2_EXPECT(osThreadSetPriority(self, (osPriority_t)57), osErrorParameter);
  OS2_EXPECT(osThreadSetPriority(NULL, osPriorityNormal), osErrorParameter);
  CHECK_EQ(osThreadGetPriority(NULL), osPriorityError);
  OS2_OK(osThreadSetPriority(self, osPriorityNormal));

  /* A raised thread preempts at once; yield hands over to an equal one. */
  runs = 0;
  osThreadAttr_t a = os2_prio(osPriorityBelowNormal);
  osThreadId_t id = osThreadNew(count, NULL, &a);
  CHECK_EQ(runs, 0);
  CHECK_EQ(osThreadGetState(id), osThreadReady);
  OS2_OK(osThreadSetPriority(id, osPriorityNormal));
  CHECK_EQ(runs, 0);
  OS2_OK(osThreadYield());
  CHECK_EQ(runs, 1);

  /* Preemption threshold (Tacet's extension): a thread above the caller's priority but not
   * above its threshold waits for the caller to block. */
  CHECK_EQ(tacetOsThreadGetThreshold(self), osPriorityNormal);
  OS2_OK(tacetOsThreadSetThreshold(self, osPriorityHigh));
  CHECK_EQ(tacetOsThreadGetThreshold(self), osPriorityHigh);
  OS2_EXPECT(tacetOsThreadSetThreshold(self, osPriorityLow), osErrorParameter); /* below its priority */
  OS2_EXPECT(tacetOsThreadSetThreshold(NULL, osPriorityHigh), osErrorParameter);
  a = os2_prio(osPriorityAboveNormal);
  runs = 0;
  id = osThreadNew(count, NULL, &a);
  CHECK_EQ(runs, 0); /* held off by the threshold */
  CHECK_EQ(osDelay(1), osOK);
  CHECK_EQ(runs, 1);
  OS2_OK(tacetOsThreadSetThreshold(self, osPriorityNormal));
  tacetOsThreadStats_t st;
  OS2_OK(tacetOsThreadGetStats(self, &st));
#if TC_STATS /* the kernel's counters */
  CHECK(st.switches_in >= 2u);
#endif
#if TC_STACK_CHECK /* the painted stack's high-water mark */
  CHECK(st.stack_high_water > 0u);
#endif
  CHECK(st.preempted <= st.switches_in);
  OS2_EXPECT(tacetOsThreadGetStats(self, NULL), osErrorParameter);
}

static void test_priority(void) { os2_run(prio_body); }

static void suspend_body(void)
{
  osThreadAttr_t a = os2_prio(osPriorityHigh);
  osThreadId_t id = osThreadNew(spin, NULL, &a);
  CHECK_EQ(osThreadGetState(id), osThreadBlocked);
  /* A blocked thread: its wait ends when resumed. */
  OS2_OK(osThreadResume(id));
  CHECK_EQ(osThreadGetState(id), osThreadBlocked); /* it ran, and sleeps again */
  OS2_OK(osThreadSuspend(id));
  OS2_EXPECT(osThreadSuspend(id), osErrorResource);
  OS2_OK(osThreadResume(id));
  OS2_EXPECT(osThreadResume(osThreadGetId()), osErrorResource); /* running */
  OS2_EXPECT(osThreadSuspend(NULL), osErrorParameter);
  /* A stack smaller than the port's smallest, from the pool: the size asked for is kept. */
  osThreadAttr_t small = os2_prio(osPriorityLow);
  small.stack_size = 64;
  osThreadId_t s = osThreadNew(spin, NULL, &small);
  CHECK(s != NULL);
  CHECK_EQ(osThreadGetStackSize(s), 64u);
  CHECK(osThreadGetStackSpace(s) <= 64u);
  OS2_OK(osThreadTerminate(s));
  small.stack_mem = stack_mem; /* the caller's memory must be large enough */
  CHECK(osThreadNew(spin, NULL, &small) == NULL);
  OS2_EXPECT(osThreadResume(NULL), osErrorParameter);
  OS2_OK(osThreadTerminate(id));
}

static void test_suspend(void) { os2_run(suspend_body); }

static void join_body(void)
{
  osThreadAttr_t a = os2_prio(osPriorityBelowNormal);
  a.attr_bits = osThreadJoinable;
  runs = 0;
  osThreadId_t id = osThreadNew(exits, (void *)1, &a);
  CHECK_EQ(osThreadGetCount(), 2u);
  osThreadId_t all[4];
  CHECK_EQ(osThreadEnumerate(all, 4), 2u);
  CHECK_EQ(osThreadEnumerate(all, 1), 1u);
  CHECK_EQ(osThreadEnumerate(NULL, 4), 0u);
  OS2_OK(osThreadJoin(id)); /* waits for it: osThreadExit */
  CHECK_EQ(runs, 1);
  CHECK_EQ(osThreadGetState(id), osThreadError);
  CHECK_EQ(osThreadGetCount(), 1u);

  /* A joinable thread that ended stays until joined; joining twice, oneself, a detached one:
   * refused. */
  a.priority = osPriorityHigh;
  id = osThreadNew(exits, NULL, &a);
  CHECK_EQ(runs, 102);
  CHECK_EQ(osThreadGetState(id), osThreadTerminated);
  OS2_EXPECT(osThreadTerminate(id), osErrorResource);
  OS2_EXPECT(osThreadJoin(osThreadGetId()), osErrorResource);
  OS2_OK(osThreadJoin(id));
  OS2_EXPECT(osThreadJoin(id), osErrorParameter);
  a.attr_bits = osThreadDetached;
  id = osThreadNew(spin, NULL, &a);
  OS2_EXPECT(osThreadJoin(id), osErrorResource);
  OS2_EXPECT(osThreadDetach(id), osErrorResource);
  OS2_OK(osThreadTerminate(id));

  /* Detaching a joinable thread that ended removes it. */
  a.attr_bits = osThreadJoinable;
  id = osThreadNew(exits, NULL, &a);
  CHECK_EQ(osThreadGetState(id), osThreadTerminated);
  OS2_OK(osThreadDetach(id));
  CHECK_EQ(osThreadGetState(id), osThreadError);
  /* Terminating a joinable thread, then joining it. */
  id = osThreadNew(spin, NULL, &a);
  OS2_OK(osThreadTerminate(id));
  CHECK_EQ(osThreadGetState(id), osThreadTerminated);
  OS2_OK(osThreadJoin(id));
  OS2_EXPECT(osThreadJoin(NULL), osErrorParameter);
  OS2_EXPECT(osThreadDetach(NULL), osErrorParameter);
  CHECK(osThreadGetStackSpace(osThreadGetId()) > 0u);
#if TC_STACK_CHECK /* without the painted stack, no use is known: the whole size */
  CHECK(osThreadGetStackSpace(osThreadGetId()) < TC_OS2_STACK_SIZE);
#endif
  CHECK_EQ(osThreadGetStackSpace(NULL), 0u);
  CHECK_EQ(osThreadGetStackSize(NULL), 0u);
}

static void test_join(void) { os2_run(join_body); }

/* ---- from a handler --------------------------------------------------------------------- */

static osThreadId_t isr_target;

static void isr_thread_calls(void)
{
  CHECK(osThreadNew(count, NULL, NULL) == NULL);
  CHECK(osThreadGetId() == isr_target); /* the thread it interrupted */
  CHECK(strcmp(osThreadGetName(isr_target), "main") == 0);
  CHECK_EQ(osThreadGetState(isr_target), osThreadError);
  CHECK_EQ(osThreadSetPriority(isr_target, osPriorityLow), osErrorISR);
  CHECK_EQ(osThreadGetPriority(isr_target), osPriorityError);
  CHECK_EQ(osThreadYield(), osErrorISR);
  CHECK_EQ(osThreadSuspend(isr_target), osErrorISR);
  CHECK_EQ(osThreadResume(isr_target), osErrorISR);
  CHECK_EQ(osThreadDetach(isr_target), osErrorISR);
  CHECK_EQ(osThreadJoin(isr_target), osErrorISR);
  CHECK_EQ(osThreadTerminate(isr_target), osErrorISR);
  CHECK_EQ(osThreadGetCount(), 0u);
  CHECK_EQ(osThreadGetStackSpace(isr_target), 0u);
  CHECK_EQ(osThreadFlagsClear(1), osFlagsErrorISR);
  CHECK_EQ(osThreadFlagsGet(), 0u);
  CHECK_EQ(osThreadFlagsWait(1, 0, 0), osFlagsErrorISR);
  got = osThreadFlagsSet(isr_target, 0x5);
}

static void flags_waiter(void *arg)
{
  (void)arg;
  got = osThreadFlagsWait(0x3, osFlagsWaitAll, osWaitForever);
}

static void flags_body(void)
{
  osThreadId_t self = osThreadGetId();
  isr_target = self;
  CHECK_EQ(osThreadFlagsGet(), 0u);
  OS2_EXPECT(osThreadFlagsSet(self, 0x9), 0x9u);
  OS2_EXPECT(osThreadFlagsClear(0x1), 0x9u); /* before the clear */
  CHECK_EQ(osThreadFlagsGet(), 0x8u);
  OS2_EXPECT(osThreadFlagsWait(0x8, osFlagsWaitAny | osFlagsNoClear, 0), 0x8u);
  OS2_EXPECT(osThreadFlagsWait(0x8, osFlagsWaitAny, 0), 0x8u);
  CHECK_EQ(osThreadFlagsGet(), 0u);
  OS2_EXPECT(osThreadFlagsWait(0x1, osFlagsWaitAny, 0), osFlagsErrorResource);
  OS2_EXPECT(osThreadFlagsWait(0x1, osFlagsWaitAny, 2), osFlagsErrorTimeout);
  OS2_EXPECT(osThreadFlagsWait(0x80000000u, 0, 0), osFlagsErrorParameter);
  OS2_EXPECT(osThreadFlagsWait(0x1, 0x4, 0), osFlagsErrorParameter);
  OS2_EXPECT(osThreadFlagsSet(self, 0x80000000u), osFlagsErrorParameter);
  OS2_EXPECT(osThreadFlagsSet(NULL, 1), osFlagsErrorParameter);
  OS2_EXPECT(osThreadFlagsClear(0x80000000u), osFlagsErrorParameter);

  /* From a handler: set works, with its result; the rest is refused. */
  os2_isr(isr_thread_calls);
  STEP();
  CHECK_EQ(got, 0x5u);
  CHECK_EQ(osThreadFlagsGet(), 0x5u);
  OS2_EXPECT(osThreadFlagsClear(0x7), 0x5u);

  /* A waiter released by a set: the set returns the flags after the waiter's clear. */
  osThreadAttr_t a = os2_prio(osPriorityHigh);
  got = 0;
  osThreadId_t id = osThreadNew(flags_waiter, NULL, &a);
  OS2_EXPECT(osThreadFlagsSet(id, 0x1), 0x1u);
  CHECK_EQ(got, 0u);
  OS2_EXPECT(osThreadFlagsSet(id, 0x6), 0x4u);
  CHECK_EQ(got, 0x7u);
}

static void test_flags_and_isr(void) { os2_run(flags_body); }

TCT_MAIN("cmsis_os2_thread", TCT_CASE(test_create), TCT_CASE(test_priority), TCT_CASE(test_suspend),
         TCT_CASE(test_join), TCT_CASE(test_flags_and_isr))
