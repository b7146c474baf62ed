/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric's porting interface: what the eight test programs (tests.c) need of a kernel,
 * and all they call. One porting layer per kernel API implements it -- port_tacet.c,
 * port_threadx.c, port_freertos.c, and port_cmsis_os2.c on CMSIS-RTOS2 for every kernel that
 * has it -- on that API alone; adding a kernel is adding one file (and its line in
 * CMakeLists.txt).
 *
 * The interface has the shape of the public Thread-Metric suite's, so that the programs cost
 * what they cost there: objects are named by small integers (thread 0..5, one queue, one
 * semaphore, one pool), every service is a real call into the layer (never a macro: the
 * layer's own work, an id check and a status translation, is part of every kernel's figure,
 * as it is in the suite), and services never wait. Priorities are the suite's: 1 is the
 * most urgent, 31 the least; the layer maps them onto its kernel's.
 *
 * Statuses: TMK_OK or TMK_ERROR.
 */
#ifndef TM_PORT_H
#define TM_PORT_H

#include <stdint.h>

#define TMK_OK    0
#define TMK_ERROR 1

#define TMK_THREADS 6 /* ids 0..4 the test threads, 5 the reporter */

/* ---- what the layer says about itself -------------------------------------------------- */

extern const char tmk_kernel[];  /* "Tacet", "ThreadX", "FreeRTOS", "RTX5 through CMSIS-RTOS2" */
extern const char tmk_port[];    /* the kernel's port, e.g. "cortex-m" or "sim" */
extern const char tmk_config[];  /* KEY=VALUE words: the build's options and the kernel's version */
extern const int tmk_restartable; /* 1: tmk_run() returns after tmk_stop() and may run again */

/* ---- running a test ------------------------------------------------------------------------ */

/* Start the kernel afresh, call `setup` where the kernel lets an application create its
 * threads and objects (they start only when setup returns), and schedule. Returns the status
 * given to tmk_stop() when the layer is restartable; otherwise never returns. */
int tmk_run(void (*setup)(void));

/* End the test: tmk_run() returns `status` (restartable layers), or the program ends with it.
 * Called by the reporter thread. */
void tmk_stop(int status);

/* ---- threads -------------------------------------------------------------------------------- */

/* Create thread `id` at `priority` (1..31), suspended; `entry` runs when it is resumed. */
int tmk_thread_create(int id, int priority, void (*entry)(void));
int tmk_thread_resume(int id);  /* from a thread or an interrupt handler */
int tmk_thread_suspend(int id); /* a thread suspends itself */
void tmk_thread_relinquish(void); /* to the other ready threads of the caller's priority */
void tmk_thread_sleep(uint32_t ticks);

/* The tick: its rate and the ticks since tmk_run() started the kernel. */
uint32_t tmk_tick_hz(void);
uint32_t tmk_ticks(void);

/* ---- objects, never waiting --------------------------------------------------------------- */

int tmk_queue_create(int id); /* messages of 4 unsigned longs */
int tmk_queue_send(int id, const unsigned long *message);
int tmk_queue_receive(int id, unsigned long *message);

int tmk_semaphore_create(int id); /* a counting semaphore with one unit */
int tmk_semaphore_get(int id);
int tmk_semaphore_put(int id); /* from a thread or an interrupt handler */

int tmk_pool_create(int id); /* 128-byte blocks */
int tmk_pool_allocate(int id, unsigned char **block);
int tmk_pool_free(int id, unsigned char *block);

/* ---- interrupts ------------------------------------------------------------------------------ */

/* tmk_interrupt_raise() makes a device interrupt pending in the interrupt controller; its
 * handler calls tm_interrupt_handler() as a real exception, and a thread that makes ready runs
 * before this returns when it is more urgent than the caller. tmk_interrupt_inline() calls
 * tm_interrupt_inline_handler() in-line on the caller's stack, as the kernel lets a thread
 * play an interrupt handler (no exception; the kernel's services see an interrupt context
 * all the same). */
void tmk_interrupt_raise(void);
void tmk_interrupt_inline(void);

/* Defined by the programs: the device interrupt's body (the running test's handler, as the
 * suite's interrupt calls the handlers of both its interrupt tests), and the in-line one. */
void tm_interrupt_handler(void);
void tm_interrupt_inline_handler(void);

/* ---- the sim port only --------------------------------------------------------------------- */

/* Virtual time the calling thread spends per operation (kernel code takes none on the sim
 * port: without it the tick would never come). Not called on other ports. */
void tmk_work(void);

#endif /* TM_PORT_H */
