/* SPDX-License-Identifier: MIT */
/*
 * The C headers generated from the board power tables (power/NAME.yaml, tacet_power_table) compile
 * with the project's warnings and hold what tc_power_init() takes: a point count within
 * TC_POWER_POINTS, points in increasing frequency, and load-scaling rows whose indices name a
 * point. Compiled only: it prints the tables if run, and calls no kernel function (the
 * power API need not be linked).
 */
#include <stdio.h>

#include "tacet_power_lpc2148.h"
#include "tacet_power_mps2_an385.h"
#include "tacet_power_mps2_an386.h"
#include "tacet_power_s3c2440.h"
#include "tacet_power_sim.h"
#include "tacet_power_virt_rv32.h"

_Static_assert(TC_POWER_LPC2148_COUNT == 5u, "Pillai and Isha's table 1 has five points");
_Static_assert(TC_POWER_S3C2440_COUNT == 3u, "Ahn et al.'s board has three points");
_Static_assert(sizeof TC_POWER_LPC2148_POINTS / sizeof TC_POWER_LPC2148_POINTS[0] ==
                   TC_POWER_LPC2148_COUNT,
               "the array holds COUNT points");
_Static_assert(TC_POWER_S3C2440_POINT_F399 == TC_POWER_S3C2440_COUNT - 1u,
               "399 MHz is the highest point");
_Static_assert(sizeof TC_POWER_S3C2440_LS96 == TC_LOAD_CLASSES, "a row per load class");

static void print_table(const char *name, const tc_opp *points, unsigned n, double c_eff,
                        double p_static)
{
  printf("%s: C_eff %g F, static %g W\n", name, c_eff, p_static);
  for (unsigned i = 0; i < n; i++) {
    printf("  %u: %lu Hz, %lu mV\n", i, (unsigned long)points[i].freq_hz,
           (unsigned long)points[i].millivolt);
  }
}

static void print_row(const char *name, const uint8_t row[TC_LOAD_CLASSES])
{
  printf("  %s: Task+ %u, Task %u, Task- %u, idle %u\n", name, row[TC_LOAD_HIGH],
         row[TC_LOAD_NORMAL], row[TC_LOAD_LOW], row[TC_LOAD_IDLE]);
}

int main(void)
{
  print_table("lpc2148", TC_POWER_LPC2148_POINTS, TC_POWER_LPC2148_COUNT, TC_POWER_LPC2148_C_EFF,
              TC_POWER_LPC2148_P_STATIC);
  print_table("s3c2440", TC_POWER_S3C2440_POINTS, TC_POWER_S3C2440_COUNT, TC_POWER_S3C2440_C_EFF,
              TC_POWER_S3C2440_P_STATIC);
  print_row("default", TC_POWER_S3C2440_DEFAULT);
  print_row("idle_scaling", TC_POWER_S3C2440_IDLE_SCALING);
  print_row("ls399", TC_POWER_S3C2440_LS399);
  print_row("ls266", TC_POWER_S3C2440_LS266);
  print_row("ls96", TC_POWER_S3C2440_LS96);
  printf("  pushpush: C_eff %g F, static %g W\n", TC_POWER_S3C2440_PUSHPUSH_C_EFF,
         TC_POWER_S3C2440_PUSHPUSH_P_STATIC);
  print_table("mps2-an385", TC_POWER_MPS2_AN385_POINTS, TC_POWER_MPS2_AN385_COUNT,
              TC_POWER_MPS2_AN385_C_EFF, TC_POWER_MPS2_AN385_P_STATIC);
  print_table("mps2-an386", TC_POWER_MPS2_AN386_POINTS, TC_POWER_MPS2_AN386_COUNT,
              TC_POWER_MPS2_AN386_C_EFF, TC_POWER_MPS2_AN386_P_STATIC);
  print_table("virt-rv32", TC_POWER_VIRT_RV32_POINTS, TC_POWER_VIRT_RV32_COUNT,
              TC_POWER_VIRT_RV32_C_EFF, TC_POWER_VIRT_RV32_P_STATIC);
  print_table("sim", TC_POWER_SIM_POINTS, TC_POWER_SIM_COUNT, TC_POWER_SIM_C_EFF,
              TC_POWER_SIM_P_STATIC);
  return 0;
}
