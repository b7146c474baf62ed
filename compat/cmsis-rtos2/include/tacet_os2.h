/* SPDX-License-Identifier: MIT */
/*
 * Tacet's side of the CMSIS-RTOS2 layer (compat/cmsis-rtos2, docs/cmsis-rtos2.md): its
 * configuration, the sizes of its control blocks and data areas, and Tacet's own services
 * reachable from CMSIS code (preemption threshold, per-thread counters, the Tacet object
 * behind a CMSIS id).
 *
 * Control blocks. Every CMSIS object is a Tacet object plus a few words of the layer's: a
 * thread is a tc_thread with an event group for its thread flags and a semaphore to join it,
 * a mutex a tc_mutex, and so on. Their layout is public only so that their sizes are
 * constants a configuration can use (ARM's validation suite's RV2_Config.h, a project's
 * static buffers): `uint8_t cb[TC_OS2_THREAD_CB_SIZE]` passed as osThreadAttr_t.cb_mem with
 * cb_size = sizeof cb. The fields are private. A cb_mem must be 4-byte aligned (8 on a 64-bit
 * host) and at least that large, or the object is not created (NULL); a cb_size other than 0
 * with no cb_mem is refused too.
 *
 * Memory from the layer. An object created without cb_mem (or a thread without stack_mem, a
 * pool or queue without its data memory) takes it from the layer's byte pool of
 * TC_OS2_HEAP_SIZE bytes, made by osKernelInitialize(); deleting the object gives it back.
 */
#ifndef TACET_OS2_H
#define TACET_OS2_H

#include "cmsis_os2.h"
#include "tacet/tacet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- configuration (compile definitions, or tacet_app_config.h) --------------------------- */

/* The smallest stack a thread may be given (a multiple of 8). */
#define TC_OS2_STACK_MIN ((TC_PORT_STACK_MIN + 7u) & ~7u)

/* Stack of a thread created with stack_size 0 and no stack_mem, in bytes: 1 KB, or the
 * port's smallest stack where that is more (the sim port's host C code needs 8 KB). */
#ifndef TC_OS2_STACK_SIZE
#define TC_OS2_STACK_SIZE (TC_OS2_STACK_MIN > 1024u ? TC_OS2_STACK_MIN : 1024u)
#endif

/* Bytes of the byte pool that objects created without memory of their own come from: by
 * default room for 16 default stacks and 16 KB of control blocks and data. */
#ifndef TC_OS2_HEAP_SIZE
#define TC_OS2_HEAP_SIZE (16u * TC_OS2_STACK_SIZE + 16384u)
#endif

/* Tacet priority of osPriorityISR, the most urgent CMSIS level: osPriority_t p runs at Tacet
 * priority TC_OS2_PRIORITY_BASE + (osPriorityISR - p), so osPriorityRealtime7 (55) lands at
 * BASE + 1, osPriorityNormal (24) at BASE + 32 and osPriorityIdle (1) at BASE + 55. The
 * default 8 leaves Tacet priorities 0..7 for threads of Tacet's own API that must run ahead
 * of every CMSIS thread (docs/cmsis-rtos2.md has the whole table). */
#ifndef TC_OS2_PRIORITY_BASE
#define TC_OS2_PRIORITY_BASE 8u
#endif

/* Time slice of every CMSIS thread, in ticks (0: none; threads of equal priority run until
 * they block or yield, as the specification leaves it to the kernel). */
#ifndef TC_OS2_TIME_SLICE
#define TC_OS2_TIME_SLICE 0u
#endif

#if TC_OS2_PRIORITY_BASE + 55u >= TC_PRIORITIES
#error "the CMSIS-RTOS2 layer needs TC_OS2_PRIORITY_BASE + 56 Tacet priorities: TC_PRIORITIES >= 64"
#endif

/* Tacet priority of a CMSIS priority (osPriorityIdle .. osPriorityISR) and back. */
#define TC_OS2_PRIORITY(p) (TC_OS2_PRIORITY_BASE + (unsigned)(osPriorityISR - (p)))
#define TC_OS2_CMSIS_PRIORITY(tp) ((osPriority_t)((int)osPriorityISR - (int)((tp) - TC_OS2_PRIORITY_BASE)))

/* ---- control blocks (fields private) ------------------------------------------------------ */

typedef struct tc_os2_thread {
  tc_thread thread;            /* first: the osThreadId_t is its address */
  uint32_t magic;
  uint8_t flags;               /* memory from the pool, joinable, finished ... */
  uint8_t joiners;             /* threads in osThreadJoin() on it: 0 or 1 */
  void (*func)(void *argument);
  void *argument;
  uint32_t stack_size;         /* as asked for */
  void *stack_mem;             /* the stack, the caller's or the pool's */
  tc_event thread_flags;       /* the thread flags: an event group of its own */
  tc_sem ended;                /* given once when the thread ends, for osThreadJoin() */
  struct tc_os2_thread *next;  /* in the layer's list of threads */
} tc_os2_thread;

typedef struct {
  tc_timer timer;
  uint32_t magic;
  uint8_t flags;
  uint8_t periodic;
  void (*func)(void *argument);
  void *argument;
} tc_os2_timer;

typedef struct {
  tc_event event;
  uint32_t magic;
  uint8_t flags;
} tc_os2_event_flags;

typedef struct {
  tc_mutex mutex;
  uint32_t magic;
  uint8_t flags;
  uint32_t attr_bits;
} tc_os2_mutex;

typedef struct {
  tc_sem sem;
  uint32_t magic;
  uint8_t flags;
} tc_os2_semaphore;

typedef struct {
  tc_block_pool pool;
  uint32_t magic;
  uint8_t flags;
  uint32_t block_count, block_size; /* as asked for */
  uint8_t *mem;                     /* the blocks' memory, the caller's or the layer's */
  uint32_t mem_size;
} tc_os2_memory_pool;

/* A message queue is two semaphores (messages, free slots) over slots linked in priority
 * order; each slot is a header and the message. */
typedef struct tc_os2_msg {
  struct tc_os2_msg *next;
  uint8_t prio;
} tc_os2_msg;

typedef struct {
  uint32_t magic;      /* first: not a semaphore's id (a semaphore's is its tc_sem) */
  tc_sem messages;     /* one unit per message in the queue */
  tc_sem slots;        /* one unit per free slot */
  uint8_t flags;
  uint32_t msg_count, msg_size;
  uint32_t slot_size;  /* header + message, rounded up to the header's alignment */
  uint8_t *mem;
  tc_os2_msg *queued;  /* highest priority first, FIFO within a priority */
  tc_os2_msg *last;    /* the last of `queued` (a put of its priority or below goes after it) */
  tc_os2_msg *free;
  uint32_t queued_n;   /* messages in `queued` */
} tc_os2_message_queue;

/* Sizes for cb_size (and static buffers). */
#define TC_OS2_THREAD_CB_SIZE        sizeof(tc_os2_thread)
#define TC_OS2_TIMER_CB_SIZE         sizeof(tc_os2_timer)
#define TC_OS2_EVENT_FLAGS_CB_SIZE   sizeof(tc_os2_event_flags)
#define TC_OS2_MUTEX_CB_SIZE         sizeof(tc_os2_mutex)
#define TC_OS2_SEMAPHORE_CB_SIZE     sizeof(tc_os2_semaphore)
#define TC_OS2_MEMORY_POOL_CB_SIZE   sizeof(tc_os2_memory_pool)
#define TC_OS2_MESSAGE_QUEUE_CB_SIZE sizeof(tc_os2_message_queue)

/* Data memory (mp_mem, mq_mem) for `count` blocks or messages of `size` bytes, 8-byte
 * aligned memory assumed (unaligned memory needs up to 7 more bytes for a pool). A stack
 * (stack_mem) must be 8-byte aligned, its size a multiple of 8 and at least
 * TC_OS2_STACK_MIN. */
#define TC_OS2_MEMORY_POOL_MEM_SIZE(count, size) TC_BLOCK_POOL_MEM((size), (count))
#define TC_OS2_MSG_SLOT(size) \
  ((sizeof(tc_os2_msg) + (size_t)(size) + sizeof(void *) - 1u) & ~(sizeof(void *) - 1u))
#define TC_OS2_MESSAGE_QUEUE_MEM_SIZE(count, size) ((size_t)(count) * TC_OS2_MSG_SLOT(size))

/* ---- Tacet's services for CMSIS threads --------------------------------------------------- */

/* The Tacet thread behind a CMSIS thread id, for every service of tacet/thread.h (NULL: not a
 * thread of the layer's). Context: any. */
tc_thread *tacetOsThread(osThreadId_t thread_id);

/* Preemption threshold (tacet/thread.h): while it runs, the thread is preempted only by
 * threads whose priority is above `threshold`, an osPriority_t at or above its own priority
 * (its own priority: fully preemptive, the default). Context: thread (osErrorISR elsewhere).
 * Returns osOK; osErrorParameter (not a thread, threshold out of range or below the thread's
 * priority); osErrorResource (the thread has ended). */
osStatus_t tacetOsThreadSetThreshold(osThreadId_t thread_id, osPriority_t threshold);

/* The thread's preemption threshold as an osPriority_t (its priority when fully preemptive);
 * osPriorityError for something that is not a thread. Context: any. */
osPriority_t tacetOsThreadGetThreshold(osThreadId_t thread_id);

/* Tacet's counters of a thread (tc_thread_info): switches to it, preemptions, run time. */
typedef struct {
  uint64_t switches_in; /* times the CPU was switched to it */
  uint64_t preempted;   /* times it was switched away from while still ready */
  uint64_t cycles;      /* time it ran, in osKernelGetSysTimerFreq() units */
  uint32_t stack_high_water; /* most stack ever used, bytes */
} tacetOsThreadStats_t;

/* Fill *stats. Context: any. Returns osOK; osErrorParameter (not a thread, stats NULL). */
osStatus_t tacetOsThreadGetStats(osThreadId_t thread_id, tacetOsThreadStats_t *stats);

#ifdef __cplusplus
}
#endif

#endif /* TACET_OS2_H */
