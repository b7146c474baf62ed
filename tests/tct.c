/* SPDX-License-Identifier: MIT */
/* Port-neutral part of the test harness. */
#include "tct.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

uint8_t tct_stacks[TCT_MAX_STACKS][TCT_STACK_SIZE] __attribute__((aligned(TCT_STACK_ALIGN)));

static unsigned failures_in_case;
static char log_buf[TCT_LOG_SIZE];
static size_t log_len;
void (*tct_fail_hook)(void);

static void failed(void)
{
  failures_in_case++;
  if (tct_fail_hook != NULL) tct_fail_hook();
}

void tct_fail(const char *file, int line, const char *what)
{
  printf("    %s:%d: check failed: %s\n", file, line, what);
  failed();
}

void tct_fail_eq(const char *file, int line, const char *expr, long long got, long long want)
{
  printf("    %s:%d: check failed: %s (got %lld, want %lld)\n", file, line, expr, got, want);
  failed();
}

unsigned tct_failures(void) { return failures_in_case; }

void tct_log(const char *fmt, ...)
{
  if (log_len != 0 && log_len < sizeof log_buf - 1) log_buf[log_len++] = ' ';
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(log_buf + log_len, sizeof log_buf - log_len, fmt, ap);
  va_end(ap);
  if (n > 0) log_len += (size_t)n;
  if (log_len > sizeof log_buf - 1) log_len = sizeof log_buf - 1;
}

void tct_log_reset(void)
{
  log_len = 0;
  log_buf[0] = '\0';
}

const char *tct_log_text(void) { return log_buf; }

void tct_check_log(const char *file, int line, const char *want)
{
  if (strcmp(log_buf, want) != 0) {
    printf("    %s:%d: event log differs\n      got:  %s\n      want: %s\n", file, line, log_buf, want);
    failed();
  }
  tct_log_reset();
}

#if TC_TRACE
/* With the trace compiled in (the `trace` configuration) every case runs recording, into a
 * ring, so that every trace point is taken under the same checks as the kernel itself; a test
 * of the trace's own API states (test_trace, test_context) opts out with tct_no_trace. */
extern const bool tct_no_trace __attribute__((weak));
static uint64_t trace_ring[8192]; /* 64 KB */
#endif

static char marks[32];
static volatile unsigned n_marks;

void tct_mark(char c)
{
  if (n_marks < sizeof marks - 1) marks[n_marks++] = c;
}

void tct_log_marks(void)
{
  marks[n_marks] = '\0';
  tct_log("%s", marks);
  n_marks = 0;
}

unsigned tct_marks(void) { return n_marks; }

void tct_begin(void)
{
  tct_log_reset();
  n_marks = 0;
  tc_kernel_init();
#if TC_TRACE
  if (&tct_no_trace == NULL || !tct_no_trace) CHECK_EQ(tc_trace_enable(trace_ring, sizeof trace_ring, TC_TRACE_WRAP), TC_OK);
#endif
}

int tct_main(const char *suite, const tct_case *cases, size_t n)
{
  unsigned passed = 0, failed = 0;
  printf("%s: %u cases\n", suite, (unsigned)n);
  for (size_t i = 0; i < n; i++) {
    failures_in_case = 0;
    cases[i].fn();
    if (failures_in_case == 0) {
      passed++;
      printf("  ok    %s\n", cases[i].name);
    } else {
      failed++;
      printf("  FAIL  %s\n", cases[i].name);
    }
  }
  printf("%s: %u passed, %u failed\n", suite, passed, failed);
  return failed == 0 ? 0 : 1;
}
