/* SPDX-License-Identifier: MIT */
/*
 * trace_known: a run whose trace is known in advance, for the decoder's round trip
 * (tools/tests/test_trace_roundtrip.py runs it with `tacet run --trace` on sim, qemu-m3 and
 * qemu-m4 and checks every event below in the decoded dump).
 *
 * Two threads: "producer" (priority 10, threshold 8) sends KNOWN messages on "known.q" and
 * marks each with a user event (id 4096 + i, a = i * 3, b = ~i); "consumer" (priority 5)
 * receives them, so every send wakes it and it preempts the producer. Then the producer takes
 * "known.sem" without waiting (TC_NO_INSTANCE), gives it, takes it (TC_OK) and deletes it.
 */
#include <stdio.h>

#include "tacet/tacet.h"

#define KNOWN 20u

static tc_thread producer, consumer;
static tc_queue q;
static tc_sem sem;
static uint32_t q_buf[4];
static uint8_t stacks[2][16384] __attribute__((aligned(8)));
static unsigned received;

static void consumer_entry(void *arg)
{
  (void)arg;
  for (uint32_t i = 0; i < KNOWN; i++) {
    uint32_t m;
    if (tc_queue_receive(&q, &m, TC_WAIT_FOREVER) == TC_OK && m == i) received++;
  }
}

static void producer_entry(void *arg)
{
  (void)arg;
  for (uint32_t i = 0; i < KNOWN; i++) {
    (void)tc_trace_user((uint16_t)(TC_TRACE_USER_FIRST + i), i * 3u, ~i);
    (void)tc_queue_send(&q, &i, TC_WAIT_FOREVER);
  }
  (void)tc_sem_take(&sem, TC_NO_WAIT);
  (void)tc_sem_give(&sem);
  (void)tc_sem_take(&sem, TC_NO_WAIT);
  (void)tc_sem_delete(&sem);
}

int main(void)
{
  tc_kernel_init();
  tc_queue_create(&q, "known.q", sizeof(uint32_t), q_buf, sizeof q_buf);
  tc_sem_create(&sem, "known.sem", 0, 1);
  tc_thread_create(&consumer, "consumer", consumer_entry, NULL, stacks[0], sizeof stacks[0], 5, 5, 0,
                   TC_AUTO_START);
  tc_thread_create(&producer, "producer", producer_entry, NULL, stacks[1], sizeof stacks[1], 10, 8, 0,
                   TC_AUTO_START);
  tc_kernel_start();
  printf("trace_known: %u of %u messages received\n", received, KNOWN);
  return received == KNOWN ? 0 : 1;
}
