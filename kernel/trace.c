/* SPDX-License-Identifier: MIT */
/*
 * The event trace (TC_TRACE=1; include/tacet/trace.h, docs/trace.md): the buffer, its object
 * registry and the one function every trace point calls.
 *
 * The buffer's header is the recorder's state: `next`, `laps` and the flags live there,
 * not in a copy, so that the buffer in memory is a complete dump at every moment (a debugger
 * may read it, a port writes it out at the end). tc__k.trace points at the header while
 * recording and is NULL otherwise, which is the one load and one branch a trace point costs
 * when tracing is off.
 */
#include "internal.h"

#if TC_TRACE

#include "tacet/block_pool.h"
#include "tacet/byte_pool.h"
#include "tacet/event.h"
#include "tacet/hisr.h"
#include "tacet/msgport.h"
#include "tacet/mutex.h"
#include "tacet/queue.h"
#include "tacet/sem.h"
#include "tacet/timer.h"

#ifndef TC_PORT_CPU_NAME
#define TC_PORT_CPU_NAME "host"
#endif
/* The interrupt a trace point runs in (tc_trace_event.irq): the port's own number where it has
 * one (Cortex-M: the exception number), else the depth of the LISR bracket. */
#ifndef TC_PORT_IRQ_NUMBER
#define TC_PORT_IRQ_NUMBER() tc__k.isr_nesting
#endif

#define MIN_EVENTS  8u
#define MIN_OBJECTS 8u
#define MAX_OBJECTS 1024u /* the registry is searched linearly when an object is deleted */

/* A name into a NUL-padded field, cut to its size (the field needs no terminator). */
static void copy_name(char *dst, size_t n, const char *src)
{
  for (size_t i = 0; i < n && src[i] != '\0'; i++) dst[i] = src[i];
}

static inline tc_trace_object *objects(tc_trace_header *h)
{
  return (tc_trace_object *)(void *)((char *)h + h->header_size);
}

/* The end of the event slots, reached by put() below (never inlined: once per lap). A ring
 * starts again at slot 0. A TC_TRACE_STOP buffer stays at its end: its `next` is `events`
 * from then on, so every later event goes to the spare slot after the last one (which no dump
 * includes) and is counted as lost here. The spare slot is what spares put() a test for a full
 * buffer before it writes. */
static __attribute__((noinline)) uint32_t end_of_slots(tc_trace_header *h, uint32_t i)
{
  if (!(h->flags & TC_TRACE_F_STOP)) {
    h->laps++;
    h->flags |= TC_TRACE_F_WRAPPED;
    return 0;
  }
  if (i > h->events)
    h->lost++;
  else
    h->flags = (uint8_t)((h->flags | TC_TRACE_F_FULL) & ~TC_TRACE_F_ON);
  return h->events;
}

/* One event, with the kernel lock held. This is the path whose length the trace's cost is
 * (bench/trace_cost): a handful of loads, the event's eight words stored, the slot advanced.
 * The time is the port's down-counter as it reads (the decoder complements it), which saves
 * the instruction that would turn it round on every event. */
static inline __attribute__((always_inline)) void put_as(const tc_thread *c, uint32_t id, uintptr_t a0,
                                                         uintptr_t a1, uintptr_t a2, uintptr_t a3)
{
  tc_trace_header *h = tc__k.trace;
  uint32_t i = h->next;
  tc_trace_event *e = tc__k.trace_events + i;
  __asm__("" : "+r"(e)); /* one address for every store: GCC would index the first one apart */
  e->time = TC_PORT_CYCLES32_DOWN();
  e->id = (uint16_t)id;
  e->irq = (uint8_t)TC_PORT_IRQ_NUMBER();
  uint32_t pt = 0xFFFFFFFFu;
  if (c != NULL) memcpy(&pt, &c->priority, sizeof pt); /* priority, threshold: adjacent */
  memcpy(&e->priority, &pt, sizeof pt);
  e->ctx = (uintptr_t)c;
  e->arg[0] = a0;
  e->arg[1] = a1;
  e->arg[2] = a2;
  e->arg[3] = a3;
  if (++i >= h->events) i = end_of_slots(h, i);
  h->next = i;
}

/* An event of the running context: every event but a switch. */
static inline __attribute__((always_inline)) void put(uint32_t id, uintptr_t a0, uintptr_t a1,
                                                      uintptr_t a2, uintptr_t a3)
{
  put_as(tc__k.current, id, a0, a1, a2, a3);
}

/* The kernel's events with the lock held (TC_TRACE_EVENT): three arguments, all in registers. */
void tc__trace_put(uint32_t id, uintptr_t a0, uintptr_t a1, uintptr_t a2)
{
  put(id, a0, a1, a2, 0);
}

#if TC_POWER
/* The records of the energy snapshot (power.c, from tc_trace_disable), with the lock held:
 * four arguments. Not on any switch or service path. */
void tc__trace_put4(uint32_t id, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3)
{
  put(id, a0, a1, a2, a3);
}
#endif

/* READY (TC_TRACE_READY): the fourth argument is the thread's priority and threshold, loaded
 * here rather than at every call site. */
void tc__trace_ready(const tc_thread *t, uintptr_t object, uintptr_t status)
{
  put(TC_TRACE_EV_READY, (uintptr_t)t, object, status, (uint32_t)t->priority | (uint32_t)t->threshold << 16);
}

/* One event from outside the kernel lock (a service returning, tc_trace_user): the id in the
 * low half of `id_a3`, the fourth argument (a status, or 0) in the high half, so that every
 * argument comes in a register. */
void tc__trace_record(uint32_t id_a3, uintptr_t a0, uintptr_t a1, uintptr_t a2)
{
  unsigned s = tc__lock();
  /* Tested again with the lock held: an interrupt between the caller's test and the lock
   * may have stopped the trace. */
  if (tc__k.trace != NULL) put(id_a3 & 0xFFFFu, a0, a1, a2, id_a3 >> 16);
  tc__unlock(s);
}

/* Events recorded since the trace was enabled (modulo 2^32), the lost ones included. */
static uint32_t recorded(const tc_trace_header *h)
{
  return h->laps * h->events + h->next + h->lost;
}

/* ---- the registry ----------------------------------------------------------------------- */

/* A registry entry for `object`, with the lock held; false when none is free (counted). */
static bool register_object(tc_trace_header *h, unsigned type, const void *object, const char *name,
                            unsigned extra)
{
  tc_trace_object *o = NULL;
  if (tc__k.trace_objects < h->objects) {
    o = &objects(h)[tc__k.trace_objects++];
  } else {
    /* Full: the oldest entry of a deleted object (earlier events still name it wrongly
     * only if they survive in the buffer, which the entry's `created` tells a decoder). */
    tc_trace_object *all = objects(h);
    for (uint32_t i = 0; i < h->objects; i++)
      if (all[i].deleted && (o == NULL || (int32_t)(all[i].created - o->created) < 0)) o = &all[i];
  }
  if (o == NULL) {
    h->objects_lost++;
    return false;
  }
  memset(o, 0, sizeof *o);
  o->address = (uintptr_t)object;
  o->type = (uint8_t)type;
  o->extra = (uint16_t)extra;
  o->created = recorded(h);
  if (name != NULL) copy_name(o->name, sizeof o->name, name);
  return true;
}

void tc__trace_object(unsigned type, const void *object, const char *name, unsigned extra)
{
  unsigned s = tc__lock();
  /* The caller (TC_TRACE_OBJECT) has seen the trace on; read again with the lock held: an
   * interrupt may have stopped it in between. */
  tc_trace_header *h = tc__k.trace;
  if (h != NULL) (void)register_object(h, type, object, name, extra);
  tc__unlock(s);
}

void tc__trace_forget(const void *object)
{
  unsigned s = tc__lock();
  tc_trace_header *h = tc__k.trace; /* as in tc__trace_object (TC_TRACE_FORGET tested it) */
  if (h == NULL) {
    tc__unlock(s);
    return;
  }
  tc_trace_object *all = objects(h);
  /* The newest entry of that address: older ones name deleted objects. */
  for (uint32_t i = tc__k.trace_objects; i-- > 0;) {
    if (all[i].address == (uintptr_t)object && all[i].type != TC_TRACE_OBJ_FREE && !all[i].deleted) {
      all[i].deleted = 1;
      break;
    }
  }
  tc__unlock(s);
}

/* The objects that exist when tracing starts, from the kernel's created lists. */
typedef struct {
  size_t list;    /* offset of the created list in tc__k */
  uint8_t type;
  uint16_t node;  /* offset of created_node in the control block */
  uint16_t name;  /* offset of the name pointer */
} existing_kind;

#define KIND(field, t, type) {offsetof(tc_kernel, field), t, offsetof(type, created_node), offsetof(type, name)}
static const existing_kind kinds[] = {
    {offsetof(tc_kernel, threads), TC_TRACE_OBJ_THREAD, offsetof(tc_thread, created_node), offsetof(tc_thread, name)},
    {offsetof(tc_kernel, hisrs), TC_TRACE_OBJ_HISR, offsetof(tc_hisr, created_node), offsetof(tc_hisr, ctx.name)},
    KIND(sems, TC_TRACE_OBJ_SEM, tc_sem),
    KIND(mutexes, TC_TRACE_OBJ_MUTEX, tc_mutex),
    KIND(queues, TC_TRACE_OBJ_QUEUE, tc_queue),
    KIND(ports, TC_TRACE_OBJ_PORT, tc_port),
    KIND(events, TC_TRACE_OBJ_EVENT, tc_event),
    KIND(timers, TC_TRACE_OBJ_TIMER, tc_timer),
    KIND(block_pools, TC_TRACE_OBJ_BLOCK_POOL, tc_block_pool),
    KIND(byte_pools, TC_TRACE_OBJ_BYTE_POOL, tc_byte_pool),
};

static void register_existing(void)
{
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    const tc_list *l = (const tc_list *)(const void *)((const char *)&tc__k + kinds[k].list);
    const tc_node *n = l->head;
    if (n == NULL) continue;
    do {
      const char *cb = (const char *)n - kinds[k].node;
      const char *name;
      memcpy(&name, cb + kinds[k].name, sizeof name);
      unsigned extra = 0;
      if (kinds[k].type == TC_TRACE_OBJ_THREAD) extra = ((const tc_thread *)(const void *)cb)->user_priority;
      if (kinds[k].type == TC_TRACE_OBJ_HISR) extra = ((const tc_hisr *)(const void *)cb)->priority;
      tc__trace_object(kinds[k].type, cb, name, extra);
      n = n->next;
    } while (n != l->head);
  }
}

/* ---- time marks ------------------------------------------------------------------------- */

/* A TIME event: the full clock, so that a decoder can rebuild the high bits of the 32-bit
 * timestamps, which it can only as long as no two events lie 2^32 units apart. */
void tc__trace_time(uint64_t now)
{
  unsigned s = tc__lock();
  tc_trace_header *h = tc__k.trace;
  if (h == NULL) { /* stopped by an interrupt since the caller looked */
    tc__unlock(s);
    return;
  }
  uint32_t slot = h->next;
  tc__k.trace_mark = (uint32_t)now;
  put(TC_TRACE_EV_TIME, (uintptr_t)(uint32_t)(now >> 32), (uintptr_t)(uint32_t)now, 0, 0);
  /* Stamped with `now` itself, which may lie ahead of the clock (an idle gap about to be
   * crossed): the TIME event's own time is always the low word of its a0:a1, complemented as
   * every event's is. (A full stop-mode buffer has put it in the spare slot.) */
  tc__k.trace_events[slot].time = ~(uint32_t)now;
  tc__unlock(s);
}

/* ---- kernel events recorded out of line ------------------------------------------------- */

/* The stack high water of `t` as the trace follows it: from the last one reported downwards
 * while the words are no longer the paint, across gaps of up to three painted words (locals
 * a frame never wrote), so that the cost is the growth, not the stack. A deeper use beyond a
 * larger untouched gap shows later, or in tc_thread_info(), which scans the whole stack.
 * Sets the mark the switch compares: the word below the new high water (NULL: none left). */
static TC_NO_ASAN __attribute__((noinline)) void stack_grew(tc_thread *t)
{
  const uint8_t *top = t->stack_base + t->stack_size;
  uint32_t used = t->trace_stack_used, gap = 0;
  while (used + gap + 4u <= t->stack_size) {
    uint32_t w;
    memcpy(&w, top - used - gap - 4u, sizeof w);
    if (w != TC__PATTERN_WORD) {
      used += gap + 4u;
      gap = 0;
    } else if ((gap += 4u) == 16u) {
      break;
    }
  }
  t->trace_stack_used = used;
  /* The stack need not be word-aligned (memcpy above); the mark is compared as a word only
   * where it is aligned, else the scan runs at every switch. */
  t->trace_stack_mark = used + 4u <= t->stack_size ? (const uint32_t *)(const void *)(top - used - 4u) : NULL;
  put(TC_TRACE_EV_STACK, (uintptr_t)t, used, t->stack_size, 0);
}

/* A switch from `from` to `to` (tc__commit_state), recorded as an event of `to`: its
 * priority and threshold are the event's own fields, not an argument loaded apart. Also the
 * stack high water of `from` when it has grown: one word compared per switch. */
TC_NO_ASAN void tc__trace_switch(tc_thread *from, tc_thread *to)
{
  uintptr_t state = 0, object = 0;
  if (from != NULL) {
    state = from->state;
    if (from->wait_q != NULL) object = (uintptr_t)from->wait_q->trace_object;
#if TC_STACK_CHECK
    const uint32_t *m = from->trace_stack_mark;
    if (m == NULL ? from->trace_stack_used == 0 : *m != TC__PATTERN_WORD) stack_grew(from);
#endif
  }
  put_as(to, TC_TRACE_EV_SWITCH, (uintptr_t)from, state, object, 0);
}

/* From the tick, tracing on: the tick itself when asked for, and a TIME event whenever 2^30
 * units have passed since the last one, so that timestamps never lie 2^32 apart. */
void tc__trace_tick(void)
{
  tc_trace_header *h = tc__k.trace;
  if (h->flags & TC_TRACE_F_TICKS) put(TC_TRACE_EV_TICK, tc__k.tick, 0, 0, 0);
  uint32_t now = (uint32_t)~TC_PORT_CYCLES32_DOWN();
  if (now - tc__k.trace_mark >= 0x40000000u) tc__trace_time(TC_PORT_CYCLES());
}

/* ---- the API ------------------------------------------------------------------------------ */

tc_status tc_trace_enable(void *buf, size_t size, unsigned mode)
{
  TC_ISR_CHECK("tc_trace_enable");
  TC_ARG_CHECK(!tc__in_isr(), TC_CALLER_ERROR);
  TC_ARG_CHECK(buf != NULL, TC_INVALID);
  TC_ARG_CHECK((mode & ~(TC_TRACE_STOP | TC_TRACE_TICKS)) == 0u, TC_INVALID);
  uintptr_t start = ((uintptr_t)buf + 7u) & ~(uintptr_t)7u;
  size_t skip = start - (uintptr_t)buf;
  if (size < skip + sizeof(tc_trace_header)) return TC_INVALID;
  size_t room = size - skip - sizeof(tc_trace_header);
  size_t n_objects = room / 8u / sizeof(tc_trace_object);
  if (n_objects < MIN_OBJECTS) n_objects = MIN_OBJECTS;
  if (n_objects > MAX_OBJECTS) n_objects = MAX_OBJECTS;
  size_t events_offset = (sizeof(tc_trace_header) + n_objects * sizeof(tc_trace_object) + 7u) & ~(size_t)7u;
  /* The slots and, after them, the spare one (end_of_slots). */
  if (size - skip < events_offset + (MIN_EVENTS + 1u) * sizeof(tc_trace_event)) return TC_INVALID;
  size_t n_events = (size - skip - events_offset) / sizeof(tc_trace_event) - 1u;
  if (n_events > UINT32_MAX - 2u) n_events = UINT32_MAX - 2u;

  tc_trace_header *h = (tc_trace_header *)start;
  unsigned s = tc__lock();
  tc__k.trace = NULL; /* no event into a buffer being laid out */
  memset(h, 0, events_offset);
  h->magic = TC_TRACE_MAGIC;
  h->version = TC_TRACE_VERSION;
  h->ptr_size = (uint8_t)sizeof(uintptr_t);
  h->flags = (uint8_t)(TC_TRACE_F_ON | ((mode & TC_TRACE_STOP) ? TC_TRACE_F_STOP : 0u) |
                       ((mode & TC_TRACE_TICKS) ? TC_TRACE_F_TICKS : 0u));
  h->endian = TC_TRACE_ENDIAN;
  h->clock_hz = TC_PORT_CYCLES_HZ();
  h->tick_hz = TC_TICK_HZ;
  h->header_size = (uint16_t)sizeof(tc_trace_header);
  h->object_size = (uint16_t)sizeof(tc_trace_object);
  h->event_size = (uint16_t)sizeof(tc_trace_event);
  h->priorities = (uint16_t)TC_PRIORITIES;
  h->objects = (uint32_t)n_objects;
  h->events = (uint32_t)n_events;
  h->events_offset = (uint32_t)events_offset;
  uint64_t now = TC_PORT_CYCLES();
  h->start_hi = (uint32_t)(now >> 32);
  h->start_lo = (uint32_t)now;
  copy_name(h->port, sizeof h->port, TC_PORT_NAME);
  copy_name(h->cpu, sizeof h->cpu, TC_PORT_CPU_NAME);
  tc__k.trace_header = h;
  tc__k.trace_events = (tc_trace_event *)(void *)((char *)h + events_offset);
  tc__k.trace_objects = 0;
  tc__k.trace = h;
  register_existing();
  tc__trace_time(now);
  put(TC_TRACE_EV_ENABLE, mode, 0, 0, 0);
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_trace_disable(void)
{
  TC_ISR_CHECK("tc_trace_disable");
  unsigned s = tc__lock();
  tc_trace_header *h = tc__k.trace;
  if (h != NULL) {
#if TC_POWER
    tc__power_trace_snapshot(); /* the energy books, so that a dump carries its energy */
#endif
    /* The clock in full as the last event: a ring whose TIME events were all overwritten
     * still has its times anchored. */
    tc__trace_time(TC_PORT_CYCLES());
  }
  tc__k.trace = NULL;
  if (h != NULL) h->flags &= (uint8_t)~TC_TRACE_F_ON;
  tc__unlock(s);
  return h != NULL ? TC_OK : TC_STATE_ERROR;
}

tc_status tc_trace_user(uint16_t id, uint32_t a, uint32_t b)
{
  TC_ISR_CHECK("tc_trace_user");
  TC_ARG_CHECK(id >= TC_TRACE_USER_FIRST, TC_INVALID);
  tc_trace_header *h = tc__k.trace;
  if (h == NULL) return TC_STATE_ERROR;
  bool full = (h->flags & TC_TRACE_F_FULL) != 0u;
  tc__trace_record(id, a, b, 0); /* when full, counted as lost */
  return full ? TC_STATE_ERROR : TC_OK;
}

tc_status tc_trace_label(const char *label)
{
  TC_ISR_CHECK("tc_trace_label");
  TC_ARG_CHECK(label != NULL && label[0] != '\0', TC_INVALID);
  unsigned s = tc__lock();
  tc_trace_header *h = tc__k.trace;
  tc_status status = TC_STATE_ERROR;
  if (h != NULL) status = register_object(h, TC_TRACE_OBJ_LABEL, NULL, label, 0) ? TC_OK : TC_FULL;
  tc__unlock(s);
  return status;
}

const void *tc_trace_buffer(size_t *size)
{
  const tc_trace_header *h = tc__k.trace_header;
  /* Up to the newest event: every slot once the ring has wrapped. */
  if (size != NULL) {
    size_t slots = h == NULL ? 0 : (h->flags & TC_TRACE_F_WRAPPED) ? h->events : h->next;
    *size = h != NULL ? h->events_offset + slots * sizeof(tc_trace_event) : 0;
  }
  return h;
}

#else /* !TC_TRACE: the API is there, checks its arguments as the real one does, and says that
       * nothing can be recorded. */

/* cppcheck-suppress constParameter ; the API's signature: the traced build writes into buf */
tc_status tc_trace_enable(void *buf, size_t size, unsigned mode)
{
  TC_ISR_CHECK("tc_trace_enable");
  (void)size;
  TC_ARG_CHECK(!tc__in_isr(), TC_CALLER_ERROR);
  TC_ARG_CHECK(buf != NULL, TC_INVALID);
  TC_ARG_CHECK((mode & ~(TC_TRACE_STOP | TC_TRACE_TICKS)) == 0u, TC_INVALID);
  return TC_STATE_ERROR;
}

tc_status tc_trace_disable(void)
{
  TC_ISR_CHECK("tc_trace_disable");
  return TC_STATE_ERROR;
}

tc_status tc_trace_user(uint16_t id, uint32_t a, uint32_t b)
{
  TC_ISR_CHECK("tc_trace_user");
  (void)a;
  (void)b;
  TC_ARG_CHECK(id >= TC_TRACE_USER_FIRST, TC_INVALID);
  return TC_STATE_ERROR;
}

tc_status tc_trace_label(const char *label)
{
  TC_ISR_CHECK("tc_trace_label");
  TC_ARG_CHECK(label != NULL && label[0] != '\0', TC_INVALID);
  return TC_STATE_ERROR;
}

const void *tc_trace_buffer(size_t *size)
{
  if (size != NULL) *size = 0;
  return NULL;
}

#endif /* TC_TRACE */
