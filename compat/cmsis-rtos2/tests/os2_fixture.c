/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "os2_fixture.h"

static void (*body_fn)(void);

#if TC_TRACE
/* osKernelInitialize() initialises the kernel again, which stops the trace tct_begin() started
 * (the `trace` configuration records every case, tests/tct.c): it starts again here. */
static uint64_t trace_ring[8192];
#endif

static void main_thread(void *arg)
{
  (void)arg;
  body_fn();
  STEP();
  tct_end(0);
}

void os2_run(void (*body)(void))
{
  tct_begin();
  CHECK_EQ(osKernelGetState(), osKernelInactive);
  CHECK_EQ(osKernelInitialize(), osOK);
  CHECK_EQ(osKernelGetState(), osKernelReady);
#if TC_TRACE
  CHECK_EQ(tc_trace_enable(trace_ring, sizeof trace_ring, TC_TRACE_WRAP), TC_OK);
#endif
  body_fn = body;
  osThreadAttr_t attr = {0};
  attr.name = "main";
  CHECK(osThreadNew(main_thread, NULL, &attr) != NULL);
  STEP();
  CHECK_EQ(osKernelStart(), osOK); /* returns when the run ends (tct_end) */
  CHECK_EQ(osKernelGetState(), osKernelInactive);
}

static void isr_trampoline(void *arg)
{
  void (*fn)(void);
  memcpy(&fn, &arg, sizeof fn);
  fn();
}

void os2_isr(void (*fn)(void))
{
  void *arg;
  memcpy(&arg, &fn, sizeof arg);
  tct_interrupt(isr_trampoline, arg);
}
