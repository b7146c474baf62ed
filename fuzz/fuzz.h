/* SPDX-License-Identifier: MIT */
/*
 * What the libFuzzer harnesses share (docs/fuzzing.md): the input as a stream of choices, a
 * kernel run per input, and actors -- threads that make a blocking call on the driver's
 * behalf, so that a harness can predict every wait exactly.
 *
 * A harness is one kernel run per input, in the fuzzer's process: tct_begin() resets the
 * kernel (tc_kernel_init), the harness creates its objects and a driver thread, and
 * fz_run() runs the kernel until the driver has read the whole input (tc_kernel_start
 * returns; the sim port allows any number of runs in one process). The checks are the
 * tests' (tct.h: CHECK, EXPECT, STEP ...); a failed one aborts, so libFuzzer keeps the input.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tct.h"

/* ---- the input -------------------------------------------------------------------------- */

void fz_input(const uint8_t *data, size_t size);
/* The whole input has been read. */
bool fz_done(void);
/* The next byte; 0 once the input is read. */
unsigned fz_byte(void);
/* A choice among n (n <= 256). */
unsigned fz_below(unsigned n);

/* With FZ_TRACE=1 in the environment, a harness says what it does (to read a finding). */
void fz_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- the run ---------------------------------------------------------------------------- */

/* Priority of the driver: the lowest, below every actor (and every thread of a harness), so
 * that an actor's call runs as soon as it is started and has returned (or blocked) when the
 * driver takes its next step. */
#define FZ_DRIVER_PRIORITY (TC_PRIORITIES - 1u)
/* Actors run at 1 .. FZ_ACTOR_PRIORITIES (the harness may change it within that range). */
#define FZ_ACTOR_PRIORITIES 8u

/* A fresh kernel for an input (tct_begin), with FZ_ACTORS suspended actors on stacks
 * 0 .. FZ_ACTORS-1 at priorities the input chooses, and a fresh model (below). */
void fz_begin(const uint8_t *data, size_t size);

/* Create the driver thread (stack TCT_MAX_STACKS - 1) running `step` until the input is read,
 * each step followed by tc_check(); run the kernel; check that the driver finished and the
 * kernel is consistent after the run. Call after fz_begin() (or, without actors, fz_input()
 * and tct_begin()) and the harness's set-up. */
void fz_run(void (*step)(void));

/* ---- actors ----------------------------------------------------------------------------- */

typedef struct fz_actor fz_actor;
typedef tc_status (*fz_call)(fz_actor *a);

/* A thread that makes `call` each time the driver starts it, records the status and suspends
 * itself again. The arguments and results below are the harness's to use. */
struct fz_actor {
  tc_thread thread;
  fz_call call;
  bool busy;        /* started, and its call has not returned */
  tc_status status; /* what the last call returned */
  /* Arguments and results of the call. */
  unsigned object;
  size_t size;
  uint32_t timeout;
  void *ptr;
  uint8_t msg[72];
};

#define FZ_ACTORS 6u
extern fz_actor fz_actors[FZ_ACTORS];

/* An actor chosen by the input for a call on one of `n_objects` objects, with a timeout
 * (fz_timeout), both also chosen, in a->object and a->timeout; NULL when that actor is busy. */
fz_actor *fz_take_actor(unsigned n_objects);
/* Make `call` in `a` (taken as above): from the driver, it runs at once. The model learns
 * what it predicts (below): the call waits on the model's `object` (remembering `arg`), or
 * returns `status` and `result`. */
void fz_actor_call(fz_actor *a, fz_call call, unsigned object, bool waits, tc_status status, uintptr_t result,
                   uintptr_t arg);

/* A timeout for a call that may wait: no wait, 1 to 4 ticks, or for ever. */
uint32_t fz_timeout(void);

/* ---- the model of waiting --------------------------------------------------------------- */

/* What a harness predicts about its actors: which of them wait on which object, in the order
 * the kernel serves them (priority, then the order they began to wait), when their timeouts
 * expire (by tick; equal ticks in the order the timeouts were set), and what each call is to
 * return. The harness tells it what the kernel is asked to do; fz_model_agree() compares the
 * prediction with the actors after every step.
 *
 * `changed(object)` is told (may be NULL) when the waiters of an object changed behind its
 * back -- one left by timeout or abort, or changed priority -- as the kernel tells the object
 * (tc_waitq.reprioritized); a byte pool then serves the next. */
typedef void (*fz_changed)(unsigned object);

typedef struct {
  unsigned priority;
  bool busy;        /* the call has not returned */
  bool waiting;     /* busy, and in the wait queue of `object` */
  unsigned object;
  uint32_t seq;     /* order the waits began */
  bool timed;       /* its timeout is set: expires at `deadline` */
  uint32_t deadline;
  uint32_t timed_seq;
  tc_status status; /* once returned: what the call returns */
  uintptr_t result; /* and what it hands out, as the harness defines it */
  uintptr_t arg;    /* what the harness remembers of the call (size, message ...) */
} fz_model_actor;

extern fz_model_actor fz_model[FZ_ACTORS];
extern uint32_t fz_model_tick; /* the tick the kernel is expected to be at */

/* Actor i's call returns `status` with `result`. */
void fz_model_returns(unsigned i, tc_status status, uintptr_t result);
/* Actor i's call waits on `object` for `timeout` ticks. */
void fz_model_wait(unsigned i, unsigned object, uint32_t timeout);
/* The first waiter on `object`, or -1. */
int fz_model_first(unsigned object);
/* Waiters on `object`. */
unsigned fz_model_waiting(unsigned object);
/* Actor i's priority changes (a waiter keeps its place among equals: the order its wait began). */
void fz_model_priority(unsigned i, unsigned priority);
/* One tick: each waiter whose timeout expires leaves with TC_TIMEOUT, in the kernel's order,
 * and `expired` (may be NULL) is told its object, e.g. to serve the next waiters. */
void fz_model_tick_once(fz_changed expired);
/* The actors agree with the model: busy or not, and each call that returned since the last
 * look returned what the model says (`same_result` compares the result, may be NULL). */
void fz_model_agree(bool (*same_result)(unsigned i, const fz_actor *a));

/* ---- driver steps the harnesses share --------------------------------------------------- */

/* Where a call from the driver is made, chosen by the input: the driver itself (FZ_IN_THREAD),
 * a LISR it simulates (tc_isr_enter/exit around the call, as the tests do), or the driver with
 * the scheduler locked. Only the first may wait. */
enum { FZ_IN_THREAD, FZ_IN_LISR, FZ_IN_LOCKED };
unsigned fz_enter(void);
void fz_leave(unsigned where);

/* One operation of a harness, named for FZ_TRACE. */
typedef struct {
  const char *name;
  void (*fn)(void);
} fz_op;

/* A driver step of a harness with actors: one of its n operations, or one of those the
 * harnesses share -- the driver sleeps 1 to 4 ticks (the model's timeouts expire), an actor's
 * wait is aborted (tc_thread_wait_abort), an actor's priority changes within
 * 1 .. FZ_ACTOR_PRIORITIES -- chosen by the input; then `agree` compares. */
void fz_step(const fz_op *ops, size_t n, fz_changed changed, void (*agree)(void));

#endif /* FUZZ_H */
