/* SPDX-License-Identifier: MIT */
/* The RISC-V port's own cases: what only it does. */
#include "tacet/riscv.h"
#include "tct.h"

static tc_thread th[2];

static void hello(void *arg)
{
  tct_log("%s", (const char *)arg);
}

static void two_threads(void)
{
  tct_begin();
  OK(tc_thread_create(&th[0], "a", hello, "a", TCT_STACK(0), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "b", hello, "b", TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b a");
}

TCT_MAIN("riscv", TCT_CASE(two_threads))
