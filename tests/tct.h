/* SPDX-License-Identifier: MIT */
/*
 * tct: the kernel test harness. Port-neutral: the same test sources build for the sim port
 * and for the Cortex-M boards; the few port-specific pieces are in tct_<port>.c.
 *
 * A test program is a list of cases. Each case initialises the kernel, creates threads,
 * runs the kernel until the threads end the run (tct_end) or nothing can run any more, and
 * checks what happened. Threads record what they do in an event log (tct_log) that cases
 * compare with the expected sequence (CHECK_LOG); STEP() runs the kernel's invariant checker.
 * The summary line is "N passed, N failed"; the exit status is non-zero on any failure.
 */
#ifndef TCT_H
#define TCT_H

#include <stddef.h>
#include <stdint.h>

#include "tacet/tacet.h"

#ifndef TCT_STACK_SIZE
#define TCT_STACK_SIZE 16384u
#endif
#ifndef TCT_MAX_STACKS
#define TCT_MAX_STACKS 16u
#endif
/* The event log (tct_log): a board with little RAM takes a smaller one. */
#ifndef TCT_LOG_SIZE
#define TCT_LOG_SIZE 4096u
#endif

/* The stacks are aligned for the MPU stack guard's region too (TC_MPU_STACK_GUARD), so that a
 * stack loses the region's size to it and nothing more. */
#if TC_MPU_STACK_GUARD && TC_PORT_STACK_GUARD > 16
#define TCT_STACK_ALIGN TC_PORT_STACK_GUARD
#else
#define TCT_STACK_ALIGN 16
#endif
extern uint8_t tct_stacks[TCT_MAX_STACKS][TCT_STACK_SIZE];
#define TCT_STACK(i) tct_stacks[(i)], TCT_STACK_SIZE
/* The smallest stack tc_thread_create() and tc_hisr_create() accept at one of tct_stacks:
 * TC_PORT_STACK_MIN usable bytes, above the guard region with TC_MPU_STACK_GUARD. */
#if TC_MPU_STACK_GUARD
#define TCT_STACK_MIN (TC_PORT_STACK_GUARD + TC_PORT_STACK_MIN)
#else
#define TCT_STACK_MIN TC_PORT_STACK_MIN
#endif

void tct_fail(const char *file, int line, const char *what);
/* Called after every failure is reported, when set: the fuzz harnesses (fuzz/) abort there,
 * so that libFuzzer keeps the input that made a check fail. */
extern void (*tct_fail_hook)(void);
void tct_fail_eq(const char *file, int line, const char *expr, long long got, long long want);
/* Checks failed so far in the running case (a long run stops at the first). */
unsigned tct_failures(void);

#define CHECK(cond)                                          \
  do {                                                       \
    if (!(cond)) tct_fail(__FILE__, __LINE__, #cond);        \
  } while (0)

#define CHECK_EQ(got, want)                                                               \
  do {                                                                                    \
    long long got_ = (long long)(got), want_ = (long long)(want);                         \
    if (got_ != want_) tct_fail_eq(__FILE__, __LINE__, #got " == " #want, got_, want_);   \
  } while (0)

/* The kernel's invariants hold. Call after every step. */
#define STEP()                                        \
  do {                                                \
    const char *why_ = tc_check();                    \
    if (why_ != NULL) tct_fail(__FILE__, __LINE__, why_); \
  } while (0)

/* A service call returns `status`, and the kernel is consistent afterwards. */
#define EXPECT(call, status)      \
  do {                            \
    CHECK_EQ((call), (status));   \
    STEP();                       \
  } while (0)
#define OK(call) EXPECT(call, TC_OK)

/* Argument errors are only reported by the checking front layer (TC_CHECKS=1). */
#if TC_CHECKS
#define EXPECT_ARG(call, status) EXPECT(call, status)
#else
#define EXPECT_ARG(call, status) ((void)0)
#endif

/* Event log: space-separated tokens. */
void tct_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tct_log_reset(void);
const char *tct_log_text(void);
void tct_check_log(const char *file, int line, const char *want);
#define CHECK_LOG(want) tct_check_log(__FILE__, __LINE__, (want))

/* Marks: a cheap event record for masked sections and handlers, one letter per event, logged
 * afterwards (tct_log_marks logs them as one token and starts again; tct_begin clears them). */
void tct_mark(char c);
void tct_log_marks(void);
unsigned tct_marks(void); /* how many since the last start */

/* Run the kernel (tc_kernel_start) and return its exit code; end the run from a thread. */
int tct_run_kernel(void);
void tct_end(int code);
/* Spend `cycles` of CPU time in the calling thread, preemptibly. */
void tct_work(uint64_t cycles);

/* Run fn(arg) as an interrupt handler (a LISR), now, from the calling thread's point of view:
 * on the sim port a simulated interrupt (tc_sim_irq_at) taken at once; on Cortex-M a real
 * NVIC interrupt at a kernel priority, pended from software (a plain handler there, no
 * tc_isr_enter/tc_isr_exit). What it makes ready runs when it returns. */
void tct_interrupt(void (*fn)(void *), void *arg);

#ifdef TC_PORT_IN_UNMASKED_ISR
/* A port whose interrupts have priorities (Cortex-M): the same at interrupt priority
 * `priority` (8-bit NVIC value; tct_interrupt uses TCT_IRQ_PRIORITY, a kernel priority), so
 * that a test can run a handler above the kernel's mask. */
#define TCT_IRQ_PRIORITY 0xC0u
void tct_interrupt_at(unsigned priority, void (*fn)(void *), void *arg);
#endif

/* Ports under QEMU (tct_qemu.c prints the longest interrupt-masked stretch with it): the
 * port's conversion of tc_cycles() units into the instructions QEMU counts (-icount). */
uint64_t tct_cycles_to_instructions(uint64_t cycles);

/* Fresh kernel and log for a case. */
void tct_begin(void);

typedef struct {
  const char *name;
  void (*fn)(void);
} tct_case;

int tct_main(const char *suite, const tct_case *cases, size_t n);

#define TCT_CASE(fn) {#fn, fn}
#define TCT_MAIN(suite, ...)                                                       \
  static const tct_case tct_cases_[] = {__VA_ARGS__};                              \
  int main(void) { return tct_main(suite, tct_cases_, sizeof tct_cases_ / sizeof tct_cases_[0]); }

#endif /* TCT_H */
