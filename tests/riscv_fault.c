/* SPDX-License-Identifier: MIT */
/* A fault stops the run with a report (ports/riscv/startup.c): an illegal instruction (the
 * all-zero word is one on every RISC-V) in a thread, the kernel running. ctest passes on the
 * report's first words (ports/riscv/tests.cmake); the exit status is 136. */
#include <stdio.h>

#include "tct.h"

static tc_thread t;

static void faulting(void *arg)
{
  (void)arg;
  __asm volatile(".word 0");
  puts("not stopped");
}

int main(void)
{
  tc_kernel_init();
  if (tc_thread_create(&t, "faulting", faulting, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START) != TC_OK)
    return 1;
  tc_kernel_start();
  puts("not stopped");
  return 0;
}
