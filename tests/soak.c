/* SPDX-License-Identifier: MIT */
/*
 * soak: the random load of tests/random_load.c for millions of service calls, on any port.
 *
 *   soak [--seed N] [--calls N] [--every N]
 *
 * Prints the seed first, so a failure is reproduced by running the same build with the same
 * seed (the sim port is deterministic; so is QEMU with -icount). `make soak` runs it on the
 * sim port and on qemu-m3. Exit status 0 when every check held.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "random_load.h"
#include "tct.h"

static uint32_t seed = 1;
static uint64_t calls = 10000000u, every = 1000000u;

static const char *const op_names[RL_OBJECT_OPS] = {
  [RL_SEM_GIVE] = "semaphore give", [RL_QUEUE_SEND] = "queue send",
  [RL_EVENT_SET] = "event set/clear", [RL_SEM_TAKE] = "semaphore take",
  [RL_MUTEX] = "mutex lock/unlock", [RL_QUEUE_RECEIVE] = "queue receive",
  [RL_EVENT_WAIT] = "event wait", [RL_BLOCK] = "block alloc/free",
  [RL_BYTE] = "byte alloc/free", [RL_PORT_SEND] = "port send",
  [RL_PORT_RECEIVE] = "port receive", [RL_POST] = "task port post",
  [RL_RECEIVE] = "task port receive", [RL_SIGNAL] = "signal send",
  [RL_TIMER] = "timer activate/deactivate/change", [RL_HISR] = "HISR activate",
};

static void progress(const rl_stats *s)
{
  printf("soak: %" PRIu64 " calls, %" PRIu64 " steps\n", s->calls, s->steps);
  fflush(stdout);
}

static void soak(void)
{
  rl_stats s;
  rl_run(seed, calls, progress, every, &s);
  printf("soak: seed %" PRIu32 ": %" PRIu64 " service calls in %" PRIu64 " steps, %" PRIu64
         " context switches (%" PRIu64 " preemptions), %" PRIu64 " HISR runs, %" PRIu64
         " timer callbacks, %" PRIu64 " signal handlers, %" PRIu64 " objects deleted under load"
         " and created again\n",
         seed, s.calls, s.steps, s.context_switches, s.preemptions, s.hisr_runs,
         s.timer_callbacks, s.signal_handlers, s.recreated);
  printf("soak: object services served: ");
  for (unsigned op = 0; op < RL_OBJECT_OPS; op++)
    printf("%s %" PRIu64 "%s", op_names[op], s.served[op], op + 1 < RL_OBJECT_OPS ? ", " : "");
  printf("; not served (empty, full, timed out, aborted, deleted): %" PRIu64 "\n", s.not_served);
  CHECK(s.calls >= calls);
}

static bool number(const char *text, uint64_t max, uint64_t *out)
{
  char *end = NULL;
  if (text == NULL || *text < '0' || *text > '9') return false;
  unsigned long long v = strtoull(text, &end, 0);
  if (*end != '\0' || v > max) return false;
  *out = v;
  return true;
}

int main(int argc, char **argv)
{
  for (int i = 1; i < argc; i += 2) { /* options come in pairs: --name value */
    uint64_t v = 0;
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--seed") == 0 && number(value, UINT32_MAX, &v)) {
      seed = (uint32_t)v;
    } else if (strcmp(argv[i], "--calls") == 0 && number(value, UINT64_MAX / 2, &v) && v > 0) {
      calls = v;
    } else if (strcmp(argv[i], "--every") == 0 && number(value, UINT64_MAX, &v)) {
      every = v;
    } else {
      fprintf(stderr, "soak: bad argument '%s'%s%s\nusage: soak [--seed N] [--calls N>0] "
              "[--every N]\n", argv[i], value != NULL ? " " : "", value != NULL ? value : "");
      return 2;
    }
  }
  printf("soak: seed %" PRIu32 ", at least %" PRIu64 " service calls on the %s port "
         "(reproduce: soak --seed %" PRIu32 " --calls %" PRIu64 ")\n",
         seed, calls, TC_PORT_NAME, seed, calls);
  fflush(stdout);
  static const tct_case cases[] = {{"soak", soak}};
  return tct_main("soak", cases, 1);
}
