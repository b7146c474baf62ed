/* SPDX-License-Identifier: MIT */
/* CMSIS-RTOS2 memory pools, message queues and timers on Tacet. */
#include <string.h>

#include "os2_fixture.h"

static volatile uint32_t got;
static volatile int32_t got_status;
static void *isr_obj;

/* ---- memory pools ----------------------------------------------------------------------- */

static void pool_taker(void *arg)
{
  got_status = osMemoryPoolAlloc(arg, osWaitForever) != NULL ? osOK : osErrorResource;
  got++;
}

static void isr_pool(void)
{
  CHECK(osMemoryPoolNew(1, 4, NULL) == NULL);
  CHECK(osMemoryPoolAlloc(isr_obj, 1) == NULL);
  void *b = osMemoryPoolAlloc(isr_obj, 0);
  CHECK(b != NULL);
  CHECK_EQ(osMemoryPoolGetCount(isr_obj), 1u);
  CHECK_EQ(osMemoryPoolGetSpace(isr_obj), 1u);
  CHECK_EQ(osMemoryPoolGetCapacity(isr_obj), 2u);
  CHECK_EQ(osMemoryPoolGetBlockSize(isr_obj), 12u);
  CHECK_EQ(osMemoryPoolFree(isr_obj, b), osOK);
  CHECK_EQ(osMemoryPoolDelete(isr_obj), osErrorISR);
  CHECK(strcmp(osMemoryPoolGetName(isr_obj), "mp") == 0);
}

static void pool_body(void)
{
  static uint8_t cb[TC_OS2_MEMORY_POOL_CB_SIZE] __attribute__((aligned(8)));
  static uint8_t mem[TC_OS2_MEMORY_POOL_MEM_SIZE(2, 12)] __attribute__((aligned(8)));
  osMemoryPoolAttr_t attr = {"mp", 0, cb, sizeof cb, mem, sizeof mem - 1u};
  CHECK(osMemoryPoolNew(2, 12, &attr) == NULL); /* data one byte short */
  attr.mp_size = sizeof mem;
  CHECK(osMemoryPoolNew(0, 12, &attr) == NULL);
  CHECK(osMemoryPoolNew(2, 0, &attr) == NULL);
  osMemoryPoolId_t mp = osMemoryPoolNew(2, 12, &attr);
  CHECK(mp == (void *)cb);
  STEP();
  CHECK_EQ(osMemoryPoolGetCapacity(mp), 2u);
  CHECK_EQ(osMemoryPoolGetBlockSize(mp), 12u);
  CHECK_EQ(osMemoryPoolGetCount(mp), 0u);
  CHECK_EQ(osMemoryPoolGetSpace(mp), 2u);
  isr_obj = mp;
  os2_isr(isr_pool);
  STEP();
  void *b1 = osMemoryPoolAlloc(mp, 0);
  void *b2 = osMemoryPoolAlloc(mp, osWaitForever);
  CHECK(b1 != NULL && b2 != NULL && b1 != b2);
  CHECK(osMemoryPoolAlloc(mp, 0) == NULL);
  CHECK(osMemoryPoolAlloc(mp, 2) == NULL); /* timeout */
  CHECK_EQ(osMemoryPoolGetCount(mp), 2u);
  OS2_OK(osMemoryPoolFree(mp, b1));
  OS2_EXPECT(osMemoryPoolFree(mp, b1), osErrorResource); /* twice */
  OS2_EXPECT(osMemoryPoolFree(mp, NULL), osErrorParameter);
  OS2_EXPECT(osMemoryPoolFree(mp, (uint8_t *)cb), osErrorParameter); /* not its block */
  OS2_EXPECT(osMemoryPoolFree(NULL, b2), osErrorParameter);
  b1 = osMemoryPoolAlloc(mp, 0);
  osThreadAttr_t a = os2_prio(osPriorityHigh);
  got = 0;
  (void)osThreadNew(pool_taker, mp, &a);
  CHECK_EQ(got, 0u);
  OS2_OK(osMemoryPoolFree(mp, b1)); /* handed to the waiter */
  CHECK_EQ(got, 1u);
  CHECK_EQ(got_status, osOK);
  (void)osThreadNew(pool_taker, mp, &a);
  OS2_OK(osMemoryPoolDelete(mp));
  CHECK_EQ(got, 2u);
  CHECK_EQ(got_status, osErrorResource);
  OS2_EXPECT(osMemoryPoolDelete(mp), osErrorParameter);
  CHECK_EQ(osMemoryPoolGetCapacity(NULL), 0u);
  CHECK_EQ(osMemoryPoolGetBlockSize(NULL), 0u);
  CHECK_EQ(osMemoryPoolGetCount(NULL), 0u);
  CHECK_EQ(osMemoryPoolGetSpace(NULL), 0u);
  CHECK(osMemoryPoolGetName(NULL) == NULL);
  CHECK(osMemoryPoolAlloc(NULL, 0) == NULL);
  /* From the layer's pool, and back. */
  mp = osMemoryPoolNew(4, 100, NULL);
  CHECK(mp != NULL);
  CHECK(osMemoryPoolGetName(mp) == NULL);
  OS2_OK(osMemoryPoolDelete(mp));
}

static void test_memory_pool(void) { os2_run(pool_body); }

/* ---- message queues --------------------------------------------------------------------- */

static void queue_sender(void *arg)
{
  uint32_t v = 99;
  got_status = osMessageQueuePut(arg, &v, 0, osWaitForever);
  got++;
}

static void queue_receiver(void *arg)
{
  uint32_t v = 0;
  got_status = osMessageQueueGet(arg, &v, NULL, osWaitForever);
  got = v;
}

static void isr_queue(void)
{
  uint32_t v = 7;
  CHECK(osMessageQueueNew(1, 4, NULL) == NULL);
  CHECK_EQ(osMessageQueuePut(isr_obj, &v, 0, 1), osErrorParameter);
  CHECK_EQ(osMessageQueueGet(isr_obj, &v, NULL, 1), osErrorParameter);
  CHECK_EQ(osMessageQueuePut(isr_obj, &v, 1, 0), osOK);
  CHECK_EQ(osMessageQueueGetCount(isr_obj), 1u);
  CHECK_EQ(osMessageQueueGetSpace(isr_obj), 1u);
  CHECK_EQ(osMessageQueueGetCapacity(isr_obj), 2u);
  CHECK_EQ(osMessageQueueGetMsgSize(isr_obj), 4u);
  CHECK_EQ(osMessageQueueReset(isr_obj), osErrorISR);
  CHECK_EQ(osMessageQueueDelete(isr_obj), osErrorISR);
  uint8_t prio = 0;
  v = 0;
  CHECK_EQ(osMessageQueueGet(isr_obj, &v, &prio, 0), osOK);
  CHECK_EQ(v, 7u);
  CHECK_EQ(prio, 1u);
  CHECK_EQ(osMessageQueueGet(isr_obj, &v, &prio, 0), osErrorResource);
  CHECK(strcmp(osMessageQueueGetName(isr_obj), "q") == 0);
}

static void queue_body(void)
{
  static uint8_t cb[TC_OS2_MESSAGE_QUEUE_CB_SIZE] __attribute__((aligned(8)));
  static uint8_t mem[TC_OS2_MESSAGE_QUEUE_MEM_SIZE(3, 4)] __attribute__((aligned(8)));
  osMessageQueueAttr_t attr = {"q", 0, cb, sizeof cb, mem, sizeof mem - 1u};
  CHECK(osMessageQueueNew(3, 4, &attr) == NULL);
  attr.mq_size = sizeof mem;
  CHECK(osMessageQueueNew(0, 4, &attr) == NULL);
  CHECK(osMessageQueueNew(3, 0, &attr) == NULL);
  osMessageQueueId_t q = osMessageQueueNew(3, 4, &attr);
  CHECK(q == (void *)cb);
  STEP();
  /* Higher priority first, FIFO within a priority. */
  uint32_t v;
  uint8_t prio;
  v = 1;
  OS2_OK(osMessageQueuePut(q, &v, 0, 0));
  v = 2;
  OS2_OK(osMessageQueuePut(q, &v, 5, 0));
  v = 3;
  OS2_OK(osMessageQueuePut(q, &v, 5, osWaitForever));
  OS2_EXPECT(osMessageQueuePut(q, &v, 9, 0), osErrorResource);
  OS2_EXPECT(osMessageQueuePut(q, &v, 9, 2), osErrorTimeout);
  CHECK_EQ(osMessageQueueGetCount(q), 3u);
  CHECK_EQ(osMessageQueueGetSpace(q), 0u);
  const uint32_t want[3] = {2, 3, 1};
  const uint8_t want_prio[3] = {5, 5, 0};
  for (int i = 0; i < 3; i++) {
    OS2_OK(osMessageQueueGet(q, &v, &prio, 0));
    CHECK_EQ(v, want[i]);
    CHECK_EQ(prio, want_prio[i]);
  }
  OS2_EXPECT(osMessageQueueGet(q, &v, NULL, 0), osErrorResource);
  OS2_EXPECT(osMessageQueueGet(q, &v, NULL, 2), osErrorTimeout);
  isr_obj = (void *)0;
  (void)isr_obj;

  /* A waiting receiver gets the message; a waiting sender puts after a reset. */
  osThreadAttr_t a = os2_prio(osPriorityHigh);
  got = 0;
  (void)osThreadNew(queue_receiver, q, &a);
  v = 42;
  OS2_OK(osMessageQueuePut(q, &v, 0, 0));
  CHECK_EQ(got, 42u);
  for (uint32_t i = 0; i < 3; i++) OS2_OK(osMessageQueuePut(q, &i, 0, 0));
  got = 0;
  (void)osThreadNew(queue_sender, q, &a);
  CHECK_EQ(got, 0u);
  OS2_OK(osMessageQueueReset(q));
  CHECK_EQ(got, 1u);
  CHECK_EQ(got_status, osOK);
  CHECK_EQ(osMessageQueueGetCount(q), 1u);
  OS2_OK(osMessageQueueGet(q, &v, NULL, 0));
  CHECK_EQ(v, 99u);

  /* Errors, and a waiter when the queue is deleted. */
  OS2_EXPECT(osMessageQueuePut(q, NULL, 0, 0), osErrorParameter);
  OS2_EXPECT(osMessageQueueGet(q, NULL, NULL, 0), osErrorParameter);
  OS2_EXPECT(osMessageQueuePut(NULL, &v, 0, 0), osErrorParameter);
  OS2_EXPECT(osMessageQueueGet(NULL, &v, NULL, 0), osErrorParameter);
  OS2_EXPECT(osMessageQueueReset(NULL), osErrorParameter);
  CHECK_EQ(osMessageQueueGetCapacity(NULL), 0u);
  CHECK_EQ(osMessageQueueGetMsgSize(NULL), 0u);
  CHECK_EQ(osMessageQueueGetCount(NULL), 0u);
  CHECK_EQ(osMessageQueueGetSpace(NULL), 0u);
  got = 0;
  (void)osThreadNew(queue_receiver, q, &a);
  OS2_OK(osMessageQueueDelete(q));
  CHECK_EQ(got_status, osErrorResource);
  OS2_EXPECT(osMessageQueueDelete(q), osErrorParameter);

  /* From a handler, on a queue from the layer's pool. */
  osMessageQueueAttr_t named = {"q", 0, NULL, 0, NULL, 0};
  q = osMessageQueueNew(2, 4, &named);
  CHECK(q != NULL);
  isr_obj = q;
  os2_isr(isr_queue);
  STEP();
  OS2_OK(osMessageQueueDelete(q));
}

static void test_message_queue(void) { os2_run(queue_body); }

/* ---- timers ----------------------------------------------------------------------------- */

static volatile uint32_t fired;

static void on_timer(void *arg)
{
  fired++;
  got = (uint32_t)(uintptr_t)arg;
}

static void isr_timer(void)
{
  CHECK(osTimerNew(on_timer, osTimerOnce, NULL, NULL) == NULL);
  CHECK_EQ(osTimerStart(isr_obj, 1), osErrorISR);
  CHECK_EQ(osTimerStop(isr_obj), osErrorISR);
  CHECK_EQ(osTimerIsRunning(isr_obj), 0u);
  CHECK_EQ(osTimerDelete(isr_obj), osErrorISR);
  CHECK(strcmp(osTimerGetName(isr_obj), "t") == 0);
}

static void timer_body(void)
{
  static uint8_t cb[TC_OS2_TIMER_CB_SIZE] __attribute__((aligned(8)));
  osTimerAttr_t attr = {"t", 0, cb, sizeof cb};
  CHECK(osTimerNew(NULL, osTimerOnce, NULL, &attr) == NULL);
  CHECK(osTimerNew(on_timer, (osTimerType_t)2, NULL, &attr) == NULL);
  osTimerId_t once = osTimerNew(on_timer, osTimerOnce, (void *)7, &attr);
  CHECK(once == (void *)cb);
  STEP();
  CHECK_EQ(osTimerIsRunning(once), 0u);
  OS2_EXPECT(osTimerStop(once), osErrorResource);
  OS2_EXPECT(osTimerStart(once, 0), osErrorParameter);
  fired = 0;
  CHECK_EQ(osDelay(1), osOK);
  OS2_OK(osTimerStart(once, 5));
  CHECK_EQ(osTimerIsRunning(once), 1u);
  CHECK_EQ(osDelay(4), osOK);
  CHECK_EQ(fired, 0u);
  CHECK_EQ(osDelay(2), osOK);
  CHECK_EQ(fired, 1u);
  CHECK_EQ(got, 7u);
  CHECK_EQ(osTimerIsRunning(once), 0u);
  STEP();

  osTimerId_t per = osTimerNew(on_timer, osTimerPeriodic, NULL, NULL);
  CHECK(per != NULL);
  CHECK(osTimerGetName(per) == NULL);
  fired = 0;
  CHECK_EQ(osDelay(1), osOK);
  OS2_OK(osTimerStart(per, 3));
  CHECK_EQ(osDelay(10), osOK);
  CHECK_EQ(fired, 3u);
  OS2_OK(osTimerStart(per, 3)); /* restarted from now */
  CHECK_EQ(osDelay(2), osOK);
  CHECK_EQ(fired, 3u);
  OS2_OK(osTimerStop(per));
  CHECK_EQ(osDelay(5), osOK);
  CHECK_EQ(fired, 3u);
  isr_obj = once;
  os2_isr(isr_timer);
  STEP();
  OS2_OK(osTimerDelete(per));
  OS2_OK(osTimerDelete(once));
  OS2_EXPECT(osTimerDelete(once), osErrorParameter);
  OS2_EXPECT(osTimerStart(NULL, 1), osErrorParameter);
  OS2_EXPECT(osTimerStop(NULL), osErrorParameter);
  CHECK_EQ(osTimerIsRunning(NULL), 0u);
  CHECK(osTimerGetName(NULL) == NULL);
}

static void test_timer(void) { os2_run(timer_body); }

TCT_MAIN("cmsis_os2_data", TCT_CASE(test_memory_pool), TCT_CASE(test_message_queue), TCT_CASE(test_timer))
