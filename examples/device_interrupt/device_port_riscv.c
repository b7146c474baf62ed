/* SPDX-License-Identifier: MIT */
/*
 * RISC-V glue of examples/device_interrupt: the device is QEMU virt's real-time clock (a
 * Goldfish RTC at 0x101000, PLIC source 11), whose alarm interrupt is re-armed one period later
 * each time it fires. Its handler is the port's one for device interrupts,
 * tc_rv_external_handler(source), which calls device_interrupt() (tacet/riscv.h: every
 * interrupt is at the kernel's level on this port, so any handler may call the services whose
 * context is "any"). QEMU's option -rtc clock=vm (the board's command line) makes the clock
 * count virtual time, so a run is reproducible under -icount.
 */
#include "device.h"
#include "tacet/riscv.h"

#define RTC_BASE   0x00101000u
#define RTC_SOURCE 11u
#define RTC(off)   (*(volatile uint32_t *)(RTC_BASE + (off)))
#define RTC_TIME_LOW        0x00u /* reading it latches TIME_HIGH */
#define RTC_TIME_HIGH       0x04u
#define RTC_ALARM_LOW       0x08u /* writing it arms the alarm at ALARM_HIGH:ALARM_LOW */
#define RTC_ALARM_HIGH      0x0Cu
#define RTC_IRQ_ENABLED     0x10u
#define RTC_CLEAR_ALARM     0x14u
#define RTC_CLEAR_INTERRUPT 0x1Cu

static uint64_t next_alarm; /* ns of the RTC */
static uint64_t period_ns;

const char *device_name(void) { return "Goldfish RTC alarm (PLIC source 11)"; }

static uint64_t rtc_now(void)
{
  uint32_t lo = RTC(RTC_TIME_LOW);
  return (uint64_t)RTC(RTC_TIME_HIGH) << 32 | lo;
}

static void alarm_at(uint64_t at)
{
  RTC(RTC_ALARM_HIGH) = (uint32_t)(at >> 32);
  RTC(RTC_ALARM_LOW) = (uint32_t)at;
}

void tc_rv_external_handler(unsigned source)
{
  if (source != RTC_SOURCE) return;
  RTC(RTC_CLEAR_INTERRUPT) = 1u; /* acknowledge first: the next alarm raises the line again */
  next_alarm += period_ns;
  alarm_at(next_alarm);
  device_interrupt();
}

void device_start(uint32_t period_us)
{
  period_ns = (uint64_t)period_us * 1000u;
  next_alarm = rtc_now() + period_ns;
  RTC(RTC_IRQ_ENABLED) = 1u;
  tc_rv_irq_enable(RTC_SOURCE, 1u);
  alarm_at(next_alarm);
}

void device_stop(void)
{
  RTC(RTC_CLEAR_ALARM) = 1u;
  RTC(RTC_IRQ_ENABLED) = 0u;
  RTC(RTC_CLEAR_INTERRUPT) = 1u;
  tc_rv_irq_disable(RTC_SOURCE);
}

void device_work(uint32_t cycles) { tc_rv_spin(cycles); }

void device_end_run(void) { tc_rv_stop(0); }

const char *device_time_unit(void) { return "instructions (QEMU icount)"; }
uint64_t device_time(uint64_t cycles) { return tc_rv_cycles_to_instructions(cycles); }
