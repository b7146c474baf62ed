/* SPDX-License-Identifier: MIT */
/*
 * cmsis_producer_consumer: Carbone's producer/consumer experiment (examples/producer_consumer)
 * written against CMSIS-RTOS2 alone -- cmsis_os2.h and nothing of Tacet's API -- so that it
 * builds unchanged on any CMSIS-RTOS2 kernel. One producer D feeds three consumers A, B, C
 * (each more urgent than D), one message queue of three messages each. D writes three
 * messages into each queue, then relinquishes the CPU (osThreadYield); each consumer reads
 * until its queue is empty and blocks. Two cases, the same application code:
 *   case 1, fully preemptive: every message preempts D -> 18 switches per 9 messages;
 *   case 2, D holds the kernel lock (osKernelLock) while it fills the queues, CMSIS's way of
 *   keeping the consumers from preempting it, as a preemption threshold above theirs does in
 *   Carbone's case 2 -> 4 switches per 9.
 * CMSIS has no switch counter: each thread notes, after every call that may switch, whether
 * it was the last to run; on this program, whose threads lose the CPU only inside those
 * calls, that counts every switch. Elapsed time is osKernelGetSysTimerCount's.
 * Usage: cmsis_producer_consumer [rounds]
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmsis_os2.h"
#include "work.h"

#define CONSUMERS      3u
#define MSGS_PER_QUEUE 3u
#define PRODUCE_CYCLES 150u
#define CONSUME_CYCLES 150u
#define DEFAULT_ROUNDS 1000u

typedef struct {
  uint32_t seq;
  uint32_t round;
} message;

typedef struct {
  uint64_t sent, received, switches, elapsed;
} result;

static osMessageQueueId_t queues[CONSUMERS];
static unsigned rounds;
static bool lock_while_producing;
static result res;
static uint64_t switches;
static osThreadId_t last_to_run;
static volatile int failure;

/* After a call that may have switched: one switch if another thread ran last. */
static void ran(void)
{
  osThreadId_t me = osThreadGetId();
  if (me != last_to_run) switches++;
  last_to_run = me;
}

static void consumer(void *arg)
{
  osMessageQueueId_t q = queues[(uintptr_t)arg];
  uint32_t expect = 0;
  ran();
  for (;;) {
    message m;
    osStatus_t st = osMessageQueueGet(q, &m, NULL, osWaitForever);
    ran();
    if (st != osOK) failure = 1;
    if (m.seq != expect++) failure = 2; /* FIFO, nothing lost */
    work(CONSUME_CYCLES);
    res.received++;
  }
}

static void producer(void *arg)
{
  (void)arg;
  uint32_t seq[CONSUMERS] = {0};
  uint64_t switches0 = 0;
  uint32_t t0 = 0;
  ran();
  for (unsigned round = 0; round <= rounds; round++) {
    if (round == 1) { /* round 0 warms up: every consumer has run and blocked once */
      switches0 = switches;
      t0 = osKernelGetSysTimerCount();
      res.sent = res.received = 0;
    }
    int32_t held = lock_while_producing ? osKernelLock() : 0;
    /* No waiting with the kernel locked: the queues are empty at the start of a round. */
    uint32_t timeout = lock_while_producing ? 0u : osWaitForever;
    for (unsigned c = 0; c < CONSUMERS; c++) {
      for (unsigned i = 0; i < MSGS_PER_QUEUE; i++) {
        work(PRODUCE_CYCLES);
        message m = {seq[c]++, round};
        if (osMessageQueuePut(queues[c], &m, 0, timeout) != osOK) failure = 3;
        ran();
        res.sent++;
      }
    }
    if (lock_while_producing) {
      if (osKernelRestoreLock(held) < 0) failure = 4; /* the consumers run here */
      ran();
    }
    (void)osThreadYield(); /* "relinquish": the consumers empty their queues */
    ran();
  }
  /* The 32-bit system timer wraps: a measured span of a few seconds at most fits. */
  res.elapsed = (uint32_t)(osKernelGetSysTimerCount() - t0);
  res.switches = switches - switches0;
}

/* One case on a fresh kernel: osKernelStart() returns when nothing can run any more (the
 * producer has returned, the consumers wait on empty queues). */
static int run_case(bool lock, result *out)
{
  static const char *names[CONSUMERS] = {"A", "B", "C"};
  static const osPriority_t prio[CONSUMERS] = {osPriorityAboveNormal2, osPriorityAboveNormal1,
                                               osPriorityAboveNormal};
  lock_while_producing = lock;
  res = (result){0};
  switches = 0;
  last_to_run = NULL;
  failure = 0;
  if (osKernelInitialize() != osOK) return 10;
  for (unsigned c = 0; c < CONSUMERS; c++) {
    const osMessageQueueAttr_t qa = {.name = names[c]};
    const osThreadAttr_t ta = {.name = names[c], .priority = prio[c]};
    queues[c] = osMessageQueueNew(MSGS_PER_QUEUE, sizeof(message), &qa);
    if (queues[c] == NULL || osThreadNew(consumer, (void *)(uintptr_t)c, &ta) == NULL) return 11;
  }
  const osThreadAttr_t da = {.name = "D", .priority = osPriorityNormal};
  if (osThreadNew(producer, NULL, &da) == NULL) return 12;
  if (osKernelStart() != osOK) return 13;
  *out = res;
  return failure;
}

int main(int argc, char **argv)
{
  rounds = DEFAULT_ROUNDS;
  if (argc > 1) {
    char *end;
    unsigned long n = strtoul(argv[1], &end, 10);
    if (argc > 2 || *end != '\0' || n < 1 || n > 100000) {
      fprintf(stderr, "usage: cmsis_producer_consumer [rounds 1..100000]\n");
      return 2;
    }
    rounds = (unsigned)n;
  }
  result r[2];
  for (int i = 0; i < 2; i++) {
    int code = run_case(i == 1, &r[i]);
    if (code != 0) {
      fprintf(stderr, "cmsis_producer_consumer: case %d failed (code %d)\n", i + 1, code);
      return 1;
    }
  }
  char id[32];
  osVersion_t v;
  (void)osKernelGetInfo(&v, id, sizeof id);
  printf("Carbone, \"Reducing Context Switching with Preemption-Threshold\": the producer/consumer\n"
         "experiment through CMSIS-RTOS2 (%s, API %" PRIu32 ".%" PRIu32 "): %u rounds of 9 messages,\n",
         id, v.api / 10000000u, (v.api / 10000u) % 1000u, rounds);
  printf("%u cycles of work to produce and %u to consume a message; elapsed time in system-timer\n"
         "counts (%" PRIu32 " Hz). Case 2 holds the kernel lock while the producer fills the queues.\n\n",
         PRODUCE_CYCLES, CONSUME_CYCLES, osKernelGetSysTimerFreq());
  printf("%-22s %22s %26s %8s\n", "Measurement", "Case 1 (fully preempt.)", "Case 2 (kernel lock)", "Ratio");
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %7.0f%%\n", "Context switches", r[0].switches, r[1].switches,
         100.0 * (double)r[0].switches / (double)r[1].switches);
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %7.0f%%\n", "Elapsed time", r[0].elapsed, r[1].elapsed,
         100.0 * (double)r[0].elapsed / (double)r[1].elapsed);
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %8s\n", "Messages sent", r[0].sent, r[1].sent,
         r[0].sent == r[1].sent ? "same" : "DIFFER");
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %8s\n", "Messages received", r[0].received, r[1].received,
         r[0].received == r[1].received ? "same" : "DIFFER");
  printf("\nPer 9 messages: %.2f vs %.2f context switches (Carbone: 18 vs 4).\n",
         9.0 * (double)r[0].switches / (double)r[0].sent, 9.0 * (double)r[1].switches / (double)r[1].sent);
  bool ok = r[0].sent == 9u * rounds && r[1].sent == 9u * rounds && r[0].received == r[0].sent &&
            r[1].received == r[1].sent;
  printf("cmsis_producer_consumer: %s\n", ok ? "every message received, in order" : "FAILED: messages lost");
  return ok ? 0 : 1;
}
