/* SPDX-License-Identifier: MIT */
/*
 * The event trace (TC_TRACE=1): the kernel records what it does into a buffer the application
 * provides, in a format that decodes without the program's ELF file (`tacet trace`,
 * docs/trace.md). TC_TRACE=0 (the default) compiles every trace point away; with it compiled
 * in and disabled, a trace point costs one load and one branch.
 *
 * The buffer, in the target's byte order and pointer width (both stated in the header):
 *
 *   tc_trace_header   what the buffer is: format, clock, port, geometry, where the next event
 *                     goes, how many were recorded and lost
 *   tc_trace_object   x objects: the registry, one entry per kernel object (name, type,
 *                     address), added at create (or at tc_trace_enable() for objects created
 *                     before) and marked deleted at delete
 *   tc_trace_event    x events: fixed size, in a ring (TC_TRACE_WRAP) or until full
 *                     (TC_TRACE_STOP)
 *
 * Everything in it is written by the kernel with interrupts masked, one event at a time, so a
 * debugger may copy the buffer out at any moment between two events.
 */
#ifndef TACET_TRACE_H
#define TACET_TRACE_H

#include "tacet/types.h"

/* tc_trace_enable() modes. */
#define TC_TRACE_WRAP  0u    /* a ring: when full, the newest event replaces the oldest */
#define TC_TRACE_STOP  1u    /* when full, stop recording (later events are counted as lost) */
#define TC_TRACE_TICKS 0x10u /* OR-ed in: record every system tick too (off by default) */

/* The header's `magic` and `version`. */
#define TC_TRACE_MAGIC   0x52544354u /* "TCTR" in a little-endian dump */
#define TC_TRACE_VERSION 2u
#define TC_TRACE_ENDIAN  0x01020304u /* as the target stores it: tells the byte order */
#define TC_TRACE_NAME    20u         /* bytes of a registry name, NUL-padded, truncated */

/* tc_trace_header.flags */
#define TC_TRACE_F_STOP    0x01u /* mode TC_TRACE_STOP */
#define TC_TRACE_F_TICKS   0x02u /* tick events recorded */
#define TC_TRACE_F_ON      0x04u /* recording (cleared by tc_trace_disable and when full) */
#define TC_TRACE_F_WRAPPED 0x08u /* the ring has wrapped: the oldest events are gone */
#define TC_TRACE_F_FULL    0x10u /* TC_TRACE_STOP: the buffer filled, later events lost */
#define TC_TRACE_F_ENERGY  0x20u /* TC_POWER: tc_trace_disable() recorded the energy snapshot
                                    (TC_TRACE_EV_ENERGY); events that are not in the dump
                                    (lost) may be part of it */

typedef struct {
  uint32_t magic;          /* TC_TRACE_MAGIC */
  uint16_t version;        /* TC_TRACE_VERSION */
  uint8_t ptr_size;        /* sizeof(uintptr_t): 4 (Cortex-M) or 8 (sim on a 64-bit host) */
  uint8_t flags;           /* TC_TRACE_F_* */
  uint32_t endian;         /* TC_TRACE_ENDIAN, stored in the target's byte order */
  uint32_t clock_hz;       /* event timestamps: tc_cycles() units per second */
  uint32_t tick_hz;        /* TC_TICK_HZ */
  uint16_t header_size;    /* sizeof(tc_trace_header): where the registry begins */
  uint16_t object_size;    /* sizeof(tc_trace_object) */
  uint16_t event_size;     /* sizeof(tc_trace_event) */
  uint16_t priorities;     /* TC_PRIORITIES */
  uint32_t objects;        /* registry entries */
  uint32_t events;         /* event slots */
  uint32_t events_offset;  /* from the start of the buffer to the first event slot */
  uint32_t next;           /* the slot the next event goes to; the newest is the one before */
  uint32_t laps;           /* times the ring wrapped: laps * events + next events were
                              recorded (modulo 2^32), the first laps * events of them lost */
  uint32_t lost;           /* events dropped when full (TC_TRACE_STOP; written to a spare slot
                              after the last, which no dump includes) */
  uint32_t objects_lost;   /* objects created with no registry entry free (not named) */
  uint32_t start_hi, start_lo; /* tc_cycles() when tracing was enabled */
  char port[12];           /* TC_PORT_NAME: "sim", "cortex-m" */
  char cpu[12];            /* "host", "cortex-m3", "cortex-m4f" */
} tc_trace_header;

/* Registry entry types (tc_trace_object.type). */
enum {
  TC_TRACE_OBJ_FREE = 0,
  TC_TRACE_OBJ_THREAD,
  TC_TRACE_OBJ_HISR,
  TC_TRACE_OBJ_SEM,
  TC_TRACE_OBJ_MUTEX,
  TC_TRACE_OBJ_QUEUE,
  TC_TRACE_OBJ_PORT,
  TC_TRACE_OBJ_EVENT,
  TC_TRACE_OBJ_TIMER,
  TC_TRACE_OBJ_BLOCK_POOL,
  TC_TRACE_OBJ_BYTE_POOL,
  TC_TRACE_OBJ_LABEL, /* not an object: the trace's name (tc_trace_label), address 0 */
};

typedef struct {
  uintptr_t address;  /* the control block (an HISR's: the tc_hisr, whose context is at 0) */
  uint8_t type;       /* TC_TRACE_OBJ_* (FREE: unused entry) */
  uint8_t deleted;    /* 1 once deleted: the address may then name a later object */
  uint16_t extra;     /* thread: priority at creation | HISR: its priority; else 0 */
  uint32_t created;   /* events recorded before it was registered: older events are of an
                         older object at that address */
  char name[TC_TRACE_NAME];
} tc_trace_object;

/* One event. `ctx` is the context running when it was recorded: a thread, an HISR's context
 * (the tc_hisr's address), or 0 for idle and start-up code; `priority` and `threshold` are
 * its effective values then (0xFFFF for none). `irq` is non-zero in an interrupt handler
 * (LISR): on Cortex-M the exception number (IPSR), on the sim port the bracket depth. */
typedef struct {
  uint32_t time;      /* TC_PORT_CYCLES32_DOWN(): ~tc_cycles(), low 32 bits (TC_TRACE_EV_TIME
                         gives the full time) */
  uint16_t id;        /* TC_TRACE_EV_*, a service (TC_TRACE_SVC_*) or a user event */
  uint8_t irq;
  uint8_t reserved;
  uint16_t priority, threshold;
  uintptr_t ctx;
  uintptr_t arg[4];
} tc_trace_event;

/* Kernel event ids. The arguments of each are in docs/trace.md ("Events"). */
enum {
  TC_TRACE_EV_TIME = 1,     /* tc_cycles() in full: a0 high, a1 low (at enable and disable, at least
                               every 2^30 cycles while the tick runs, and after idle jumps) */
  TC_TRACE_EV_SWITCH,       /* ctx switched in (0 idle), with its priority and threshold:
                               a0 the context switched out (0 idle), a1 its state (its
                               tc_thread state: 0 still ready), a2 the object it waits on
                               (0 none) */
  TC_TRACE_EV_READY,        /* a0 the thread made ready, a1 the object it waited on (0: none:
                               resumed, slept), a2 how its wait ended (tc_status), a3 its
                               priority | threshold << 16 */
  TC_TRACE_EV_BLOCK,        /* ctx begins to wait: a0 the object (0: a sleep), a1 the timeout,
                               a2 the state it waits in (TC_PENDING, TC_SLEEPING) */
  TC_TRACE_EV_ISR_ENTER,    /* a0 the nesting depth after */
  TC_TRACE_EV_ISR_EXIT,     /* a0 the nesting depth after */
  TC_TRACE_EV_HISR_RUN,     /* ctx, an HISR, begins a run of its function: a0 the HISR */
  TC_TRACE_EV_TIMER_EXPIRE, /* a0 the timer whose callback is due, a1 its period */
  TC_TRACE_EV_TICK,         /* a0 the tick count (TC_TRACE_TICKS only) */
  TC_TRACE_EV_STACK,        /* a0 the thread, a1 its new stack high water (bytes), a2 its stack
                               size: seen at a switch away from it */
  TC_TRACE_EV_YIELD,        /* ctx gives its turn away: a0 1 yield, 2 end of its time slice */
  TC_TRACE_EV_ENABLE,       /* tracing (re)started: a0 the mode */
  TC_TRACE_EV_POWER,        /* the operating point changed (TC_POWER; also when a table is
                               installed): a0 its index, a1 its frequency (Hz), a2 its voltage
                               (mV), a3 TC_TRACE_POWER_CLOCK | the point before << 8
                               (TC_TRACE_NO_POINT at the install) */
  TC_TRACE_EV_ENERGY,       /* one record of the energy snapshot tc_trace_disable() takes
                               (TC_POWER, a table installed): a0 the record
                               (TC_TRACE_ENERGY_*) | its point << 8 | its part << 16, a1 as
                               the record says, a2:a3 a 64-bit value (high word in a2) */
  TC_TRACE_EV_POLICY,       /* tc_power_policy() chose a policy (TC_POWER): a0 the policy
                               (TC_POLICY_*), a1 the point in force after it */
  TC_TRACE_EV_LOCK,         /* ctx took or released the scheduler lock (tc_sched_lock,
                               tc_sched_unlock): a0 its nesting after the call (0: released);
                               a thread that ends holds it no more */
};

/* TC_TRACE_EV_POWER's a3: the port changed its clock to the point's frequency (the sim
 * port): timestamps from this event on count at a1 Hz, not at the header's clock_hz. Without
 * it the point is accounted by the model only and the clock stays. */
#define TC_TRACE_POWER_CLOCK 0x1u
#define TC_TRACE_NO_POINT    0xFFu /* a3's point before, when the table was just installed */

/* The records of the energy snapshot, in the order they are recorded (docs/trace.md, "The
 * energy snapshot"): what tc_energy_report() computes from, so that a decoder computes the
 * same without the program or the board's table. Cycles are tc_cycles() units; a record of
 * cycles is there only where they are not zero. */
enum {
  TC_TRACE_ENERGY_BEGIN = 0, /* a0 | points << 8 | policy << 16 | 1 << 24 when modelled (the
                                port cannot change its clock); a1 the point in force; value:
                                point changes */
  TC_TRACE_ENERGY_POINT,     /* a0 | index << 8; a1 frequency (Hz); value: voltage (mV) */
  TC_TRACE_ENERGY_C_EFF,     /* value: C_eff in farads, an IEEE-754 double's bits */
  TC_TRACE_ENERGY_P_STATIC,  /* value: the static power in watts, a double's bits */
  TC_TRACE_ENERGY_ELAPSED,   /* a0 | point << 8; value: elapsed cycles at that point */
  TC_TRACE_ENERGY_IDLE,      /* a0 | point << 8; value: idle's cycles */
  TC_TRACE_ENERGY_DELETED,   /* a0 | point << 8 | part << 16 (0 threads, 1 HISRs); value: the
                                cycles of deleted contexts */
  TC_TRACE_ENERGY_CONTEXT,   /* a0 | point << 8 | part << 16 (0 thread, 1 HISR); a1 the
                                context (as `ctx`); value: its cycles */
  TC_TRACE_ENERGY_SWITCHES,  /* value: the context switches tc_energy_report() divides by */
  TC_TRACE_ENERGY_END,       /* a1: the snapshot's records, BEGIN and END included */
};

/* Service events: the call's context; a0 the object (0 when the service takes none), a1 and
 * a2 its arguments (or what it hands back: docs/trace.md lists them), a3 its status. Recorded
 * when the call returns; a call that waits records TC_TRACE_EV_BLOCK when it begins to. */
enum {
  TC_TRACE_SVC_THREAD_CREATE = 0x100, /* a1 priority, a2 threshold */
  TC_TRACE_SVC_THREAD_DELETE,
  TC_TRACE_SVC_THREAD_TERMINATE,
  TC_TRACE_SVC_THREAD_SUSPEND,
  TC_TRACE_SVC_THREAD_RESUME,
  TC_TRACE_SVC_THREAD_SLEEP,          /* a1 ticks */
  TC_TRACE_SVC_THREAD_YIELD,          /* a3 TC_OK */
  TC_TRACE_SVC_THREAD_PRIORITY_CHANGE, /* a1 new priority, a2 old */
  TC_TRACE_SVC_THREAD_THRESHOLD_CHANGE, /* a1 new threshold, a2 old */
  TC_TRACE_SVC_THREAD_WAIT_ABORT,
  TC_TRACE_SVC_THREAD_POST,           /* a0 the thread posted to, a1 word, a2 timeout */
  TC_TRACE_SVC_THREAD_RECEIVE,        /* a1 the word received, a2 timeout */
  TC_TRACE_SVC_SEM_CREATE = 0x120,    /* a1 initial, a2 max */
  TC_TRACE_SVC_SEM_TAKE,              /* a1 timeout */
  TC_TRACE_SVC_SEM_GIVE,
  TC_TRACE_SVC_SEM_DELETE,
  TC_TRACE_SVC_MUTEX_CREATE = 0x130,  /* a1 options */
  TC_TRACE_SVC_MUTEX_LOCK,            /* a1 timeout */
  TC_TRACE_SVC_MUTEX_UNLOCK,
  TC_TRACE_SVC_MUTEX_DELETE,
  TC_TRACE_SVC_QUEUE_CREATE = 0x140,  /* a1 message size, a2 buffer size */
  TC_TRACE_SVC_QUEUE_SEND,            /* a1 timeout */
  TC_TRACE_SVC_QUEUE_SEND_FRONT,      /* a1 timeout */
  TC_TRACE_SVC_QUEUE_RECEIVE,         /* a1 timeout */
  TC_TRACE_SVC_QUEUE_FLUSH,
  TC_TRACE_SVC_QUEUE_DELETE,
  TC_TRACE_SVC_PORT_CREATE = 0x150,   /* a1 slots */
  TC_TRACE_SVC_PORT_SEND,             /* a1 message, a2 timeout */
  TC_TRACE_SVC_PORT_RECEIVE,          /* a1 message received, a2 timeout */
  TC_TRACE_SVC_PORT_DELETE,
  TC_TRACE_SVC_EVENT_CREATE = 0x160,
  TC_TRACE_SVC_EVENT_SET,             /* a1 flags */
  TC_TRACE_SVC_EVENT_CLEAR,           /* a1 flags */
  TC_TRACE_SVC_EVENT_WAIT,            /* a1 flags requested, a2 timeout */
  TC_TRACE_SVC_EVENT_DELETE,
  TC_TRACE_SVC_TIMER_CREATE = 0x170,  /* a1 initial, a2 period */
  TC_TRACE_SVC_TIMER_ACTIVATE,
  TC_TRACE_SVC_TIMER_DEACTIVATE,
  TC_TRACE_SVC_TIMER_CHANGE,          /* a1 initial, a2 period */
  TC_TRACE_SVC_TIMER_DELETE,
  TC_TRACE_SVC_BLOCK_POOL_CREATE = 0x180, /* a1 block size, a2 memory size */
  TC_TRACE_SVC_BLOCK_ALLOC,           /* a1 the block handed out, a2 timeout */
  TC_TRACE_SVC_BLOCK_FREE,            /* a0 0, a1 the block */
  TC_TRACE_SVC_BLOCK_POOL_DELETE,
  TC_TRACE_SVC_BYTE_POOL_CREATE = 0x190, /* a1 memory size */
  TC_TRACE_SVC_BYTE_ALLOC,            /* a1 the memory handed out, a2 size */
  TC_TRACE_SVC_BYTE_FREE,             /* a0 0, a1 the memory */
  TC_TRACE_SVC_BYTE_POOL_DELETE,
  TC_TRACE_SVC_HISR_CREATE = 0x1a0,   /* a1 HISR priority */
  TC_TRACE_SVC_HISR_ACTIVATE,
  TC_TRACE_SVC_HISR_DELETE,
  TC_TRACE_SVC_SIGNAL_HANDLER_SET = 0x1b0,
  TC_TRACE_SVC_SIGNAL_SEND,           /* a0 the thread, a1 signals */
  TC_TRACE_SVC_SIGNAL_ABORT_WAIT,
};

/* Application events: ids from here on (tc_trace_user). */
#define TC_TRACE_USER_FIRST 4096u

/* Start recording into `buf` (any alignment; the kernel aligns inside it) of `size` bytes,
 * mode TC_TRACE_WRAP or TC_TRACE_STOP, optionally | TC_TRACE_TICKS. The buffer is
 * initialised (header, registry of the objects that exist now, events from the next one on);
 * enabling again restarts it, the same buffer or another. Keep the buffer until
 * tc_trace_disable() (or for good: a debugger or tc_trace_buffer() may read it later).
 * The registry takes an eighth of the space (at least 8 entries), the events the rest.
 * Context: any but a LISR.
 * Returns TC_OK; TC_INVALID (buf NULL, a size that leaves fewer than 8 events, unknown mode
 * bits); TC_CALLER_ERROR (from a LISR); TC_STATE_ERROR (built with TC_TRACE=0: no trace
 * points to record). */
tc_status tc_trace_enable(void *buf, size_t size, unsigned mode);

/* Stop recording. The buffer keeps what was recorded (its header says so) and may be read.
 * With TC_POWER and a table installed, the energy books are first brought up to date and
 * recorded (TC_TRACE_EV_ENERGY events, TC_TRACE_F_ENERGY); then a last TIME event.
 * Context: any.
 * Returns TC_OK; TC_STATE_ERROR (not recording, or built with TC_TRACE=0). */
tc_status tc_trace_disable(void);

/* Record an application event `id` (>= TC_TRACE_USER_FIRST) with two arguments.
 * Context: any.
 * Returns TC_OK; TC_INVALID (id below TC_TRACE_USER_FIRST); TC_STATE_ERROR (not recording:
 * disabled, full in TC_TRACE_STOP mode, or built with TC_TRACE=0). */
tc_status tc_trace_user(uint16_t id, uint32_t a, uint32_t b);

/* Name the trace being recorded: what it shows, e.g. the case of a program that runs the
 * kernel several times ("case 2: threshold 1"). The name is a registry entry of type
 * TC_TRACE_OBJ_LABEL (the string copied, cut to TC_TRACE_NAME bytes); `tacet trace` shows it
 * as the trace's name. Naming it again adds an entry: the newest is the name.
 * Context: any.
 * Returns TC_OK; TC_INVALID (label NULL or empty); TC_STATE_ERROR (not recording, or built
 * with TC_TRACE=0); TC_FULL (no registry entry free: counted in objects_lost). */
tc_status tc_trace_label(const char *label);

/* The buffer handed to the last tc_trace_enable() and the bytes of it in use (from the header
 * to the newest event: every slot once a ring has wrapped), NULL and 0 when none: for a port or an application that writes the dump
 * out (the Cortex-M port through semihosting at exit, the sim port to a file).
 * Context: any. */
const void *tc_trace_buffer(size_t *size);

#endif /* TACET_TRACE_H */
