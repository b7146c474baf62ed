/* SPDX-License-Identifier: MIT */
/* CMSIS-RTOS2 event flags, mutexes and semaphores on Tacet. */
#include <string.h>

#include "os2_fixture.h"

static volatile uint32_t got;
static volatile int32_t got_status;
static void *isr_obj;

/* ---- event flags ------------------------------------------------------------------------ */

static void ef_waiter(void *arg)
{
  got = osEventFlagsWait(arg, 0x6, osFlagsWaitAny, osWaitForever);
}

static void isr_event_flags(void)
{
  CHECK(osEventFlagsNew(NULL) == NULL);
  CHECK_EQ(osEventFlagsDelete(isr_obj), osErrorISR);
  CHECK(strcmp(osEventFlagsGetName(isr_obj), "ef") == 0);
  CHECK_EQ(osEventFlagsWait(isr_obj, 1, 0, 5), osFlagsErrorParameter);
  CHECK_EQ(osEventFlagsWait(isr_obj, 0x10, 0, 0), osFlagsErrorResource);
  CHECK_EQ(osEventFlagsClear(isr_obj, 0x1), 0x3u);
  CHECK_EQ(osEventFlagsGet(isr_obj), 0x2u);
  got = osEventFlagsSet(isr_obj, 0x4);
}

static void event_flags_body(void)
{
  static uint8_t cb[TC_OS2_EVENT_FLAGS_CB_SIZE] __attribute__((aligned(8)));
  osEventFlagsAttr_t attr = {"ef", 0, cb, sizeof cb};
  attr.cb_size = sizeof cb - 1u;
  CHECK(osEventFlagsNew(&attr) == NULL);
  attr.cb_size = sizeof cb;
  osEventFlagsId_t ef = osEventFlagsNew(&attr);
  CHECK(ef == (void *)cb);
  STEP();
  CHECK(strcmp(osEventFlagsGetName(ef), "ef") == 0);
  CHECK_EQ(osEventFlagsGet(ef), 0u);
  OS2_EXPECT(osEventFlagsSet(ef, 0x3), 0x3u);
  OS2_EXPECT(osEventFlagsWait(ef, 0x3, osFlagsWaitAll | osFlagsNoClear, 0), 0x3u);
  OS2_EXPECT(osEventFlagsWait(ef, 0x5, osFlagsWaitAll, 0), osFlagsErrorResource);
  OS2_EXPECT(osEventFlagsWait(ef, 0x5, osFlagsWaitAll, 3), osFlagsErrorTimeout);
  isr_obj = ef;
  os2_isr(isr_event_flags);
  STEP();
  CHECK_EQ(got, 0x6u);
  OS2_EXPECT(osEventFlagsWait(ef, 0x6, osFlagsWaitAny, 0), 0x6u); /* cleared */
  CHECK_EQ(osEventFlagsGet(ef), 0u);

  /* A waiter released by a set: the set returns what is left after its clear. */
  osThreadAttr_t a = os2_prio(osPriorityHigh);
  got = 0;
  (void)osThreadNew(ef_waiter, ef, &a);
  OS2_EXPECT(osEventFlagsSet(ef, 0x9), 0x9u);
  OS2_EXPECT(osEventFlagsSet(ef, 0x2), 0x9u);
  CHECK_EQ(got, 0xBu);

  /* Errors. */
  OS2_EXPECT(osEventFlagsSet(ef, 0x80000000u), osFlagsErrorParameter);
  OS2_EXPECT(osEventFlagsClear(ef, 0x80000000u), osFlagsErrorParameter);
  OS2_EXPECT(osEventFlagsWait(ef, 0x80000000u, 0, 0), osFlagsErrorParameter);
  OS2_EXPECT(osEventFlagsSet(NULL, 1), osFlagsErrorParameter);
  OS2_EXPECT(osEventFlagsClear(NULL, 1), osFlagsErrorParameter);
  OS2_EXPECT(osEventFlagsWait(NULL, 1, 0, 0), osFlagsErrorParameter);
  CHECK_EQ(osEventFlagsGet(NULL), 0u);
  CHECK(osEventFlagsGetName(NULL) == NULL);
  OS2_OK(osEventFlagsDelete(ef));
  OS2_EXPECT(osEventFlagsDelete(ef), osErrorParameter);
  OS2_EXPECT(osEventFlagsSet(ef, 1), osFlagsErrorParameter);
  ef = osEventFlagsNew(NULL);
  CHECK(ef != NULL);
  CHECK(osEventFlagsGetName(ef) == NULL);
  OS2_OK(osEventFlagsDelete(ef));
}

static void test_event_flags(void) { os2_run(event_flags_body); }

/* ---- mutexes ---------------------------------------------------------------------------- */

static void mutex_taker(void *arg)
{
  got_status = osMutexAcquire(arg, osWaitForever);
  got++;
  if (got_status == osOK) (void)osMutexRelease(arg);
}

static void mutex_holder(void *arg)
{
  (void)osMutexAcquire(arg, osWaitForever);
  osDelay(osWaitForever);
}

static void isr_mutex(void)
{
  CHECK(osMutexNew(NULL) == NULL);
  CHECK_EQ(osMutexAcquire(isr_obj, 0), osErrorISR);
  CHECK_EQ(osMutexRelease(isr_obj), osErrorISR);
  CHECK(osMutexGetOwner(isr_obj) == NULL);
  CHECK_EQ(osMutexDelete(isr_obj), osErrorISR);
  CHECK(osMutexGetName(isr_obj) == NULL); /* unnamed */
}

static void mutex_body(void)
{
  osThreadId_t self = osThreadGetId();
  /* Recursive, with priority inheritance. */
  osMutexAttr_t attr = {"m", osMutexRecursive | osMutexPrioInherit | osMutexRobust, NULL, 0};
  osMutexId_t m = osMutexNew(&attr);
  CHECK(m != NULL);
  CHECK(strcmp(osMutexGetName(m), "m") == 0);
  CHECK(osMutexGetOwner(m) == NULL);
  OS2_OK(osMutexAcquire(m, 0));
  OS2_OK(osMutexAcquire(m, osWaitForever));
  CHECK(osMutexGetOwner(m) == self);
  osThreadAttr_t a = os2_prio(osPriorityHigh);
  got = 0;
  osThreadId_t id = osThreadNew(mutex_taker, m, &a);
  CHECK_EQ(got, 0u);
  /* The owner runs at the waiter's priority, and says so. */
  tc_thread_info_t info;
  CHECK_EQ(tc_thread_info(tc_thread_self(), &info), TC_OK);
  CHECK_EQ(info.priority, TC_OS2_PRIORITY(osPriorityHigh));
  CHECK_EQ(info.user_priority, TC_OS2_PRIORITY(osPriorityNormal));
  CHECK_EQ(osThreadGetPriority(self), osPriorityHigh);
  OS2_OK(osMutexRelease(m));
  CHECK_EQ(got, 0u);
  OS2_OK(osMutexRelease(m)); /* the last: the waiter takes it and runs */
  CHECK_EQ(got, 1u);
  CHECK_EQ(got_status, osOK);
  CHECK_EQ(tc_thread_info(tc_thread_self(), &info), TC_OK);
  CHECK_EQ(info.priority, TC_OS2_PRIORITY(osPriorityNormal));
  CHECK_EQ(osThreadGetPriority(self), osPriorityNormal);
  OS2_EXPECT(osMutexRelease(m), osErrorResource); /* not the owner */
  (void)id;

  /* Not recursive: the owner's second acquire is refused. */
  osMutexId_t n = osMutexNew(NULL);
  CHECK(osMutexGetName(n) == NULL);
  OS2_OK(osMutexAcquire(n, 0));
  OS2_EXPECT(osMutexAcquire(n, 0), osErrorResource);
  OS2_EXPECT(osMutexAcquire(n, 5), osErrorResource);
  isr_obj = n;
  os2_isr(isr_mutex);
  STEP();
  OS2_OK(osMutexRelease(n));

  /* Busy: no wait, a timeout; the owner's end releases it (robust). */
  id = osThreadNew(mutex_holder, n, &a);
  CHECK(osMutexGetOwner(n) == id);
  OS2_EXPECT(osMutexAcquire(n, 0), osErrorResource);
  OS2_EXPECT(osMutexAcquire(n, 2), osErrorTimeout);
  OS2_OK(osThreadTerminate(id));
  CHECK(osMutexGetOwner(n) == NULL);
  OS2_OK(osMutexAcquire(n, 0));
  OS2_OK(osMutexRelease(n));

  /* A waiter when the mutex is deleted. */
  OS2_OK(osMutexAcquire(n, 0));
  got = 0;
  (void)osThreadNew(mutex_taker, n, &a);
  OS2_OK(osMutexDelete(n));
  CHECK_EQ(got, 1u);
  CHECK_EQ(got_status, osErrorResource);
  OS2_EXPECT(osMutexDelete(n), osErrorParameter);
  OS2_EXPECT(osMutexAcquire(NULL, 0), osErrorParameter);
  OS2_EXPECT(osMutexRelease(NULL), osErrorParameter);
  CHECK(osMutexGetOwner(NULL) == NULL);
  OS2_OK(osMutexDelete(m));
}

static void test_mutex(void) { os2_run(mutex_body); }

/* ---- semaphores ------------------------------------------------------------------------- */

static void sem_taker(void *arg)
{
  got_status = osSemaphoreAcquire(arg, osWaitForever);
  got++;
}

static void isr_semaphore(void)
{
  CHECK(osSemaphoreNew(1, 1, NULL) == NULL);
  CHECK_EQ(osSemaphoreAcquire(isr_obj, 1), osErrorParameter);
  CHECK_EQ(osSemaphoreAcquire(isr_obj, 0), osOK);
  CHECK_EQ(osSemaphoreAcquire(isr_obj, 0), osErrorResource);
  CHECK_EQ(osSemaphoreGetCount(isr_obj), 0u);
  CHECK_EQ(osSemaphoreRelease(isr_obj), osOK);
  CHECK_EQ(osSemaphoreRelease(isr_obj), osOK);
  CHECK_EQ(osSemaphoreDelete(isr_obj), osErrorISR);
  got = osSemaphoreGetCount(isr_obj);
}

static void semaphore_body(void)
{
  CHECK(osSemaphoreNew(0, 0, NULL) == NULL);
  CHECK(osSemaphoreNew(2, 3, NULL) == NULL);
  static uint8_t cb[TC_OS2_SEMAPHORE_CB_SIZE] __attribute__((aligned(8)));
  osSemaphoreAttr_t attr = {"s", 0, cb, sizeof cb};
  osSemaphoreId_t s = osSemaphoreNew(2, 1, &attr);
  CHECK(s == (void *)cb);
  CHECK(strcmp(osSemaphoreGetName(s), "s") == 0);
  CHECK_EQ(osSemaphoreGetCount(s), 1u);
  isr_obj = s;
  got = 0;
  os2_isr(isr_semaphore);
  STEP();
  CHECK_EQ(got, 2u);
  OS2_EXPECT(osSemaphoreRelease(s), osErrorResource); /* at its maximum */
  OS2_OK(osSemaphoreAcquire(s, 0));
  OS2_OK(osSemaphoreAcquire(s, osWaitForever));
  OS2_EXPECT(osSemaphoreAcquire(s, 0), osErrorResource);
  OS2_EXPECT(osSemaphoreAcquire(s, 2), osErrorTimeout);
  osThreadAttr_t a = os2_prio(osPriorityHigh);
  got = 0;
  (void)osThreadNew(sem_taker, s, &a);
  OS2_OK(osSemaphoreRelease(s)); /* handed to the waiter */
  CHECK_EQ(got, 1u);
  CHECK_EQ(osSemaphoreGetCount(s), 0u);
  (void)osThreadNew(sem_taker, s, &a);
  OS2_OK(osSemaphoreDelete(s));
  CHECK_EQ(got, 2u);
  CHECK_EQ(got_status, osErrorResource);
  OS2_EXPECT(osSemaphoreDelete(s), osErrorParameter);
  OS2_EXPECT(osSemaphoreAcquire(NULL, 0), osErrorParameter);
  OS2_EXPECT(osSemaphoreRelease(NULL), osErrorParameter);
  CHECK_EQ(osSemaphoreGetCount(NULL), 0u);
  CHECK(osSemaphoreGetName(NULL) == NULL);
}

static void test_semaphore(void) { os2_run(semaphore_body); }

TCT_MAIN("cmsis_os2_sync", TCT_CASE(test_event_flags), TCT_CASE(test_mutex), TCT_CASE(test_semaphore))
