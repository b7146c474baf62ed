/* SPDX-License-Identifier: MIT */
/* The experiment itself: port-neutral (see pc.h). */
#include "pc.h"

#include "tacet/queue.h"
#include "tacet/tacet.h"

#define MSGS_PER_QUEUE 3u
#define CONSUMERS      3u
#define STACK_SIZE     16384u

typedef struct {
  uint32_t seq;
  uint32_t payload;
} message;

static tc_thread producer_thread, consumer_thread[CONSUMERS];
static tc_queue queues[CONSUMERS];
static message queue_mem[CONSUMERS][MSGS_PER_QUEUE];
static uint8_t stacks[CONSUMERS + 1][STACK_SIZE] __attribute__((aligned(16)));

static const pc_params *params;
static pc_result *result;
static tc_kernel_stats_t at_start;
static uint64_t started_at;
static volatile int failure;

static void consumer(void *arg)
{
  tc_queue *q = &queues[(uintptr_t)arg];
  uint32_t expect = 0;
  for (;;) {
    message m;
    if (tc_queue_receive(q, &m, TC_WAIT_FOREVER) != TC_OK) failure = 1;
    if (m.seq != expect++) failure = 2; /* FIFO, nothing lost */
    pc_work(params->consume_cycles);
    result->received++;
  }
}

static void producer(void *arg)
{
  (void)arg;
  uint32_t seq[CONSUMERS] = {0};
  for (unsigned round = 0; round <= params->rounds; round++) {
    if (round == 1) { /* round 0 warms up: every consumer has run and blocked once */
      tc_kernel_stats(&at_start);
      started_at = tc_cycles();
      result->sent = result->received = 0;
    }
    for (unsigned c = 0; c < CONSUMERS; c++) {
      for (unsigned i = 0; i < MSGS_PER_QUEUE; i++) {
        pc_work(params->produce_cycles);
        message m = {seq[c]++, round};
        if (tc_queue_send(&queues[c], &m, TC_WAIT_FOREVER) != TC_OK) failure = 3;
        result->sent++;
      }
    }
    tc_thread_yield(); /* "relinquish": the consumers empty their queues */
  }
  tc_kernel_stats_t end;
  tc_kernel_stats(&end);
  result->elapsed = tc_cycles() - started_at;
  result->context_switches = end.context_switches - at_start.context_switches;
  result->preemptions = end.preemptions - at_start.preemptions;
  pc_end_run();
}

const tc_thread *pc_thread(unsigned index)
{
  return index == 0 ? &producer_thread : &consumer_thread[(index - 1u) % CONSUMERS];
}

int pc_run(const pc_params *p, pc_result *out)
{
  static const char *names[CONSUMERS] = {"A", "B", "C"};
  params = p;
  result = out;
  *out = (pc_result){0};
  failure = 0;
  for (unsigned c = 0; c < CONSUMERS; c++) {
    if (tc_queue_create(&queues[c], names[c], sizeof(message), queue_mem[c], sizeof queue_mem[c]) != TC_OK) return 10;
    if (tc_thread_create(&consumer_thread[c], names[c], consumer, (void *)(uintptr_t)c, stacks[c], STACK_SIZE, 1 + c,
                         1 + c, 0, TC_AUTO_START) != TC_OK)
      return 11;
  }
  if (tc_thread_create(&producer_thread, "D", producer, NULL, stacks[CONSUMERS], STACK_SIZE, 4, p->producer_threshold,
                       0, TC_AUTO_START) != TC_OK)
    return 12;
  int code = tc_kernel_start();
  return failure != 0 ? failure : code;
}
