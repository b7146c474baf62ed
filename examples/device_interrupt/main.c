/* SPDX-License-Identifier: MIT */
/*
 * device_interrupt: a device's interrupt handler wakes a thread. The same program runs on the
 * sim port and on the Cortex-M boards (tacet run --target sim|qemu-m3|qemu-m4
 * examples/device_interrupt).
 *
 * A device raises an interrupt every millisecond (device.h: CMSDK timer 1's TIMER1_Handler on
 * mps2, TIM2_IRQHandler on the STM32F407, a simulated interrupt on the sim port). Its handler
 * does the urgent minimum: it stamps the sample with the time and puts it into a queue with
 * TC_NO_WAIT -- a handler never waits -- counting the ones the full queue refuses. The
 * `sampler` thread waits on the queue and so sleeps between interrupts; a background thread of
 * lower priority computes all the while. Each interrupt makes the sampler ready, and the
 * switch to it happens when the handler returns, preempting the background thread. The
 * sampler checks that no sample was lost or reordered and measures the time from the
 * handler's stamp to its own wake-up.
 *
 * The handler may call the kernel because its priority is one the kernel's critical sections
 * mask (the rule: tacet/kernel.h, "Interrupt handlers"; on Cortex-M, tacet/cortex_m.h). The
 * last line says whether every sample arrived; ctest runs the program on every port.
 */
#include <inttypes.h>
#include <stdio.h>

#include "device.h"
#include "tacet/tacet.h"

#define SAMPLES    100u
#define PERIOD_US  1000u
/* A sampler that hears nothing for this long reports the device silent. */
#define SILENCE_TICKS (10u * TC_TICK_HZ / 1000u + 2u)
#define STACK_SIZE (TC_PORT_STACK_MIN > 4096u ? 4u * TC_PORT_STACK_MIN : 2048u)

typedef struct {
  uint32_t sequence;
  uint32_t stamp; /* the low word of tc_cycles() when the handler ran */
} sample;

static tc_queue samples;
static sample ring[8];
static tc_thread sampler_thread, background_thread;
static uint8_t stacks[2][STACK_SIZE] __attribute__((aligned(16)));

/* Written by the handler only. */
static volatile uint32_t raised, lost;

/* The handler's work (called by the port's handler). */
void device_interrupt(void)
{
  sample s = {raised++, (uint32_t)tc_cycles()};
  if (tc_queue_send(&samples, &s, TC_NO_WAIT) != TC_OK) lost++; /* TC_FULL: the sampler fell behind */
}

static uint32_t received, out_of_order, latency_min = UINT32_MAX, latency_max;
static uint64_t latency_sum;
static tc_kernel_stats_t at_start;

static void report(bool silent)
{
  tc_kernel_stats_t end;
  tc_kernel_stats(&end);
  printf("  %" PRIu32 " samples received, %" PRIu32 " out of order, %" PRIu32 " lost (queue full)\n",
         received, out_of_order, lost);
  if (received != 0) {
    printf("  interrupt to sampler: min %" PRIu64 ", mean %" PRIu64 ", max %" PRIu64 " %s\n",
           device_time(latency_min), device_time(latency_sum / received), device_time(latency_max),
           device_time_unit());
  }
  printf("  context switches: %" PRIu64 ", preemptions: %" PRIu64 "\n",
         end.context_switches - at_start.context_switches, end.preemptions - at_start.preemptions);
  if (!silent && received == SAMPLES && out_of_order == 0 && lost == 0)
    printf("device_interrupt: all %u samples received in order\n", SAMPLES);
  else
    printf("device_interrupt: FAILED\n");
}

static void sampler(void *arg)
{
  (void)arg;
  tc_kernel_stats(&at_start);
  device_start(PERIOD_US);
  while (received < SAMPLES) {
    sample s;
    tc_status st = tc_queue_receive(&samples, &s, SILENCE_TICKS); /* sleeps until an interrupt */
    if (st != TC_OK) {
      printf("  no sample for %u ticks (%d): the device is silent\n", SILENCE_TICKS, (int)st);
      device_stop();
      report(true);
      device_end_run();
    }
    uint32_t latency = (uint32_t)tc_cycles() - s.stamp;
    if (latency < latency_min) latency_min = latency;
    if (latency > latency_max) latency_max = latency;
    latency_sum += latency;
    if (s.sequence != received) out_of_order++;
    received++;
  }
  device_stop();
  report(false);
  device_end_run();
}

/* Lower priority: it runs whenever the sampler waits, and each interrupt preempts it. */
static void background(void *arg)
{
  (void)arg;
  for (;;) device_work(1000);
}

int main(void)
{
  tc_kernel_init();
  printf("device_interrupt: %s wakes a thread through a queue, every %u us, %u samples\n", device_name(),
         PERIOD_US, SAMPLES);
  if (tc_queue_create(&samples, "samples", sizeof(sample), ring, sizeof ring) != TC_OK ||
      tc_thread_create(&sampler_thread, "sampler", sampler, NULL, stacks[0], STACK_SIZE, 5, 5, 0, TC_AUTO_START) != TC_OK ||
      tc_thread_create(&background_thread, "background", background, NULL, stacks[1], STACK_SIZE, 20, 20, 0,
                       TC_AUTO_START) != TC_OK) {
    printf("device_interrupt: FAILED to create the objects\n");
    return 1;
  }
  return tc_kernel_start();
}
