/* SPDX-License-Identifier: MIT */
/*
 * The event trace (include/tacet/trace.h): every status of tc_trace_enable, tc_trace_disable,
 * tc_trace_user and tc_trace_label; and, in a build with the trace compiled in (the `trace` configuration),
 * what the buffer holds: the header, the registry (objects made before and after enabling,
 * deletion, a full registry), events with their fields (a switch with its reason and the
 * object waited on, READY, BLOCK, service events with their statuses, user events), the ring
 * wrapping and the stop mode dropping. Without the trace compiled in the API refuses
 * everything with TC_STATE_ERROR after the same argument checks.
 */
#include <string.h>

#include "internal.h" /* the recorders, called as an interrupt would leave them (below) */
#include "tct.h"
#if __has_include("tacet/sim.h")
#include "tacet/sim.h"
#endif

/* The harness does not start a trace for this test's cases: it checks the trace's API from
 * the state where nothing records (tct.c, the `trace` configuration). */
const bool tct_no_trace = true;

static tc_thread th[3];
static uint64_t buf[4096]; /* 32 KB */

#if TC_TRACE
static tc_sem sem;
static tc_mutex mtx;

static const tc_trace_header *header(void)
{
  size_t n;
  const tc_trace_header *h = tc_trace_buffer(&n);
  CHECK(h != NULL && n >= sizeof *h);
  return h;
}

static const tc_trace_event *events(const tc_trace_header *h)
{
  return (const tc_trace_event *)(const void *)((const char *)h + h->events_offset);
}

static const tc_trace_object *registry(const tc_trace_header *h)
{
  return (const tc_trace_object *)(const void *)((const char *)h + h->header_size);
}

/* The registry entry of `address` that is not deleted, NULL when none. */
static const tc_trace_object *entry(const tc_trace_header *h, const void *address)
{
  for (uint32_t i = 0; i < h->objects; i++) {
    const tc_trace_object *o = &registry(h)[i];
    if (o->type != TC_TRACE_OBJ_FREE && !o->deleted && o->address == (uintptr_t)address) return o;
  }
  return NULL;
}

/* The index of the first event `id` from slot `from` on (in a trace that has not wrapped), or
 * -1 when there is none. */
static int find(const tc_trace_header *h, uint16_t id, int from)
{
  for (uint32_t i = (uint32_t)from; i < h->next; i++)
    if (events(h)[i].id == id) return (int)i;
  return -1;
}

/* Timestamps never go back (the port's counter goes down), and a TIME event's own is its low
 * word, complemented (also one stamped ahead of the clock, across the sim port's idle gaps). */
static void check_times(const tc_trace_header *h)
{
  for (uint32_t i = 1; i < h->next; i++) CHECK((int32_t)(events(h)[i - 1].time - events(h)[i].time) >= 0);
  for (int i = find(h, TC_TRACE_EV_TIME, 0); i >= 0; i = find(h, TC_TRACE_EV_TIME, i + 1))
    CHECK_EQ(events(h)[i].time, ~(uint32_t)events(h)[i].arg[1]);
}
#endif

/* ---- statuses, in every build -------------------------------------------------------------- */

static void lisr_enable(void *arg)
{
  (void)arg;
  EXPECT_ARG(tc_trace_enable(buf, sizeof buf, TC_TRACE_WRAP), TC_CALLER_ERROR);
}

static void statuses_thread(void *arg)
{
  (void)arg;
  EXPECT_ARG(tc_trace_enable(NULL, sizeof buf, TC_TRACE_WRAP), TC_INVALID);
  EXPECT_ARG(tc_trace_enable(buf, sizeof buf, 0x100u), TC_INVALID);
  EXPECT_ARG(tc_trace_user(TC_TRACE_USER_FIRST - 1u, 0, 0), TC_INVALID);
  tct_interrupt(lisr_enable, NULL);
  EXPECT(tc_trace_disable(), TC_STATE_ERROR); /* not recording */
  EXPECT(tc_trace_user(TC_TRACE_USER_FIRST, 1, 2), TC_STATE_ERROR);
  EXPECT_ARG(tc_trace_label(NULL), TC_INVALID);
  EXPECT_ARG(tc_trace_label(""), TC_INVALID);
  EXPECT(tc_trace_label("case 1"), TC_STATE_ERROR); /* not recording */
#if TC_TRACE
  size_t n0 = 1; /* no trace since tc_kernel_init(): no buffer */
  CHECK(tc_trace_buffer(&n0) == NULL && n0 == 0);
#endif
#if TC_TRACE
  EXPECT(tc_trace_enable(buf, 100, TC_TRACE_WRAP), TC_INVALID); /* not even the header */
  EXPECT(tc_trace_enable(buf, sizeof(tc_trace_header) + 8u * sizeof(tc_trace_object) + 64u, TC_TRACE_WRAP),
         TC_INVALID); /* fewer than 8 events */
  OK(tc_trace_enable(buf, sizeof buf, TC_TRACE_WRAP));
  OK(tc_trace_user(TC_TRACE_USER_FIRST, 1, 2));
  OK(tc_trace_label("case 1"));
  OK(tc_trace_disable());
  EXPECT(tc_trace_disable(), TC_STATE_ERROR);
  EXPECT(tc_trace_user(TC_TRACE_USER_FIRST, 1, 2), TC_STATE_ERROR);
  EXPECT(tc_trace_label("case 1"), TC_STATE_ERROR);
  /* Stop mode: once full, tc_trace_user says so, and counts what it could not keep. */
  OK(tc_trace_enable(buf, sizeof buf, TC_TRACE_STOP));
  const tc_trace_header *h = header();
  uint32_t k = 0;
  while (!(h->flags & TC_TRACE_F_FULL)) OK(tc_trace_user(TC_TRACE_USER_FIRST + 1u, k++, 0));
  CHECK_EQ(h->next, h->events);
  EXPECT(tc_trace_user(TC_TRACE_USER_FIRST + 1u, 1000, 0), TC_STATE_ERROR);
  EXPECT(tc_trace_user(TC_TRACE_USER_FIRST + 1u, 1001, 0), TC_STATE_ERROR);
  CHECK_EQ(h->lost, 2);
  /* The last kept event is the last one recorded before it filled; the lost ones went to the
   * spare slot after it. */
  CHECK_EQ(events(h)[h->events - 1u].arg[0], k - 1u);
  CHECK_EQ(events(h)[h->events].arg[0], 1001);
  CHECK(!(h->flags & TC_TRACE_F_ON));
  OK(tc_trace_disable());
#else
  EXPECT(tc_trace_enable(buf, sizeof buf, TC_TRACE_WRAP), TC_STATE_ERROR); /* compiled out */
  size_t n = 1;
  CHECK(tc_trace_buffer(&n) == NULL && n == 0);
  CHECK(tc_trace_buffer(NULL) == NULL);
#endif
  tct_log("done");
}

static void statuses(void)
{
  tct_begin();
  OK(tc_thread_create(&th[0], "t", statuses_thread, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("done");
}

#if TC_TRACE
/* ---- the buffer's content ----------------------------------------------------------------- */

static void high_entry(void *arg)
{
  (void)arg;
  OK(tc_sem_take(&sem, TC_WAIT_FOREVER)); /* blocks: BLOCK, then SWITCH away in state pending */
  OK(tc_mutex_lock(&mtx, TC_NO_WAIT));
  OK(tc_mutex_unlock(&mtx));
}

static void low_entry(void *arg)
{
  (void)arg;
  OK(tc_trace_user(TC_TRACE_USER_FIRST + 7u, 0xDEADBEEFu, 42));
  OK(tc_sem_give(&sem)); /* READY of high, SWITCH to it */
  EXPECT(tc_sem_take(&sem, TC_NO_WAIT), TC_NO_INSTANCE);
  OK(tc_sem_delete(&sem));
  tc_sched_lock(); /* LOCK events with the nesting after each call */
  tc_sched_lock();
  tc_sched_unlock();
  tc_sched_unlock();
  tct_log("done");
}

static void content(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "made before", 0, 3)); /* registered at enable */
  OK(tc_trace_enable(buf, sizeof buf, TC_TRACE_WRAP));
  const tc_trace_header *h = header();
  CHECK_EQ(h->magic, TC_TRACE_MAGIC);
  CHECK_EQ(h->version, TC_TRACE_VERSION);
  CHECK_EQ(h->ptr_size, sizeof(uintptr_t));
  CHECK_EQ(h->endian, TC_TRACE_ENDIAN);
  CHECK_EQ(h->clock_hz, tc_cycles_hz());
  CHECK_EQ(h->tick_hz, TC_TICK_HZ);
  CHECK_EQ(h->event_size, sizeof(tc_trace_event));
  CHECK_EQ(h->object_size, sizeof(tc_trace_object));
  CHECK_EQ(h->priorities, TC_PRIORITIES);
  CHECK(strcmp(h->port, TC_PORT_NAME) == 0);
  CHECK(h->flags & TC_TRACE_F_ON);
  CHECK_EQ(((uintptr_t)h) % 8u, 0);
  CHECK(h->events_offset >= h->header_size + h->objects * h->object_size);
  CHECK_EQ(events(h)[0].id, TC_TRACE_EV_TIME);
  CHECK_EQ(events(h)[1].id, TC_TRACE_EV_ENABLE);
  CHECK(entry(h, &sem) != NULL && strcmp(entry(h, &sem)->name, "made before") == 0);

  OK(tc_mutex_create(&mtx, "a mutex with a long name", 0));
  OK(tc_thread_create(&th[0], "high", high_entry, NULL, TCT_STACK(0), 3, 3, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "low", low_entry, NULL, TCT_STACK(1), 8, 6, 0, TC_AUTO_START));
  const tc_trace_object *m = entry(h, &mtx), *hi = entry(h, &th[0]), *lo = entry(h, &th[1]);
  CHECK(m != NULL && m->type == TC_TRACE_OBJ_MUTEX && memcmp(m->name, "a mutex with a long ", TC_TRACE_NAME) == 0);
  CHECK(hi != NULL && hi->type == TC_TRACE_OBJ_THREAD && hi->extra == 3 && strcmp(hi->name, "high") == 0);
  CHECK(lo != NULL && lo->extra == 8);
  tct_run_kernel();
  CHECK_LOG("done");
  CHECK(entry(h, &sem) == NULL); /* deleted: marked so */
  CHECK(!(h->flags & TC_TRACE_F_WRAPPED));

  /* high blocks on the semaphore: BLOCK, then a switch away in state pending naming it. */
  int b = find(h, TC_TRACE_EV_BLOCK, 0);
  CHECK(b >= 0);
  if (b < 0) return;
  const tc_trace_event *e = &events(h)[b];
  CHECK_EQ(e->ctx, (uintptr_t)&th[0]);
  CHECK_EQ(e->arg[0], (uintptr_t)&sem);
  CHECK_EQ(e->arg[1], TC_WAIT_FOREVER);
  CHECK_EQ(e->arg[2], TC_PENDING);
  CHECK_EQ(e->priority, 3);
  CHECK_EQ(e->threshold, 3);
  int s = find(h, TC_TRACE_EV_SWITCH, b);
  CHECK(s >= 0);
  if (s < 0) return;
  e = &events(h)[s]; /* an event of low, switched in: high is the one that leaves */
  CHECK_EQ(e->ctx, (uintptr_t)&th[1]);
  CHECK_EQ(e->priority, 8);
  CHECK_EQ(e->threshold, 6);
  CHECK_EQ(e->arg[0], (uintptr_t)&th[0]);
  CHECK_EQ(e->arg[1], TC_PENDING);
  CHECK_EQ(e->arg[2], (uintptr_t)&sem);
  CHECK_EQ(e->arg[3], 0);
  /* low's user event, then its give: high made ready, by low, with its wait's end. */
  int u = find(h, TC_TRACE_USER_FIRST + 7u, s);
  CHECK(u >= 0);
  if (u < 0) return;
  CHECK_EQ(events(h)[u].ctx, (uintptr_t)&th[1]);
  CHECK_EQ(events(h)[u].arg[0], 0xDEADBEEFu);
  CHECK_EQ(events(h)[u].arg[1], 42);
  CHECK_EQ(events(h)[u].priority, 8);
  CHECK_EQ(events(h)[u].threshold, 6);
  int r = find(h, TC_TRACE_EV_READY, u);
  CHECK(r >= 0);
  if (r < 0) return;
  e = &events(h)[r];
  CHECK_EQ(e->ctx, (uintptr_t)&th[1]);
  CHECK_EQ(e->arg[0], (uintptr_t)&th[0]);
  CHECK_EQ(e->arg[1], (uintptr_t)&sem);
  CHECK_EQ(e->arg[2], TC_OK);
  CHECK_EQ(e->arg[3], 3u | 3u << 16);
  /* high's take returns (its service event, in its own context) before low's give does. */
  int take = find(h, TC_TRACE_SVC_SEM_TAKE, r), give = find(h, TC_TRACE_SVC_SEM_GIVE, r);
  CHECK(take >= 0 && give > take);
  if (take < 0 || give < 0) return;
  CHECK_EQ(events(h)[take].ctx, (uintptr_t)&th[0]);
  CHECK_EQ(events(h)[take].arg[0], (uintptr_t)&sem);
  CHECK_EQ(events(h)[take].arg[3], TC_OK);
  CHECK_EQ(events(h)[give].ctx, (uintptr_t)&th[1]);
  /* low's TC_NO_WAIT take: its status recorded. */
  int none = find(h, TC_TRACE_SVC_SEM_TAKE, give);
  CHECK(none >= 0 && events(h)[none].arg[3] == TC_NO_INSTANCE);
  /* low's scheduler lock, twice taken and twice released: the nesting after each call. */
  int lock = find(h, TC_TRACE_EV_LOCK, none);
  for (uint32_t k = 0; k < 4; k++) {
    static const uintptr_t nesting[4] = {1, 2, 1, 0};
    CHECK(lock >= 0);
    if (lock < 0) return;
    CHECK_EQ(events(h)[lock].ctx, (uintptr_t)&th[1]);
    CHECK_EQ(events(h)[lock].arg[0], nesting[k]);
    lock = find(h, TC_TRACE_EV_LOCK, lock + 1);
  }
  CHECK(lock < 0);
  check_times(h);
}

/* ---- the ring, the registry when full -------------------------------------------------------- */

static void ring_and_registry(void)
{
  tct_begin();
  /* The smallest buffer: 8 registry entries, 8 events and the spare slot after them. */
  size_t size = 8u + sizeof(tc_trace_header) + 8u * sizeof(tc_trace_object) + 8u * sizeof(tc_trace_event);
  EXPECT(tc_trace_enable(buf, size, TC_TRACE_WRAP), TC_INVALID);
  size += sizeof(tc_trace_event);
  OK(tc_trace_enable(buf, size, TC_TRACE_WRAP));
  const tc_trace_header *h = header();
  CHECK_EQ(h->objects, 8);
  CHECK_EQ(h->events, 8);
  for (uint32_t i = 0; i < 20; i++) OK(tc_trace_user(TC_TRACE_USER_FIRST, i, 0));
  /* 2 events of the enable and 20: two and a half laps, the newest 8 kept. */
  CHECK(h->flags & TC_TRACE_F_WRAPPED);
  CHECK_EQ(h->laps, 2);
  CHECK_EQ(h->next, 6);
  CHECK_EQ(h->lost, 0);
  CHECK_EQ(events(h)[5].arg[0], 19);
  CHECK_EQ(events(h)[6].arg[0], 12); /* the oldest kept */
  size_t n;
  CHECK(tc_trace_buffer(&n) == h && n == h->events_offset + 8u * sizeof(tc_trace_event));

  /* Nine semaphores into eight entries: the ninth has none, until one is deleted. */
  static tc_sem s[10];
  for (unsigned i = 0; i < 9; i++) OK(tc_sem_create(&s[i], "s", 0, 1));
  CHECK_EQ(h->objects_lost, 1);
  CHECK(entry(h, &s[8]) == NULL);
  EXPECT(tc_trace_label("full"), TC_FULL); /* no entry for the name either */
  CHECK_EQ(h->objects_lost, 2);
  OK(tc_sem_delete(&s[5]));
  OK(tc_sem_delete(&s[2]));
  OK(tc_sem_create(&s[9], "again", 0, 1));
  /* It took the entry of the older of the two deleted objects (s[2] was registered first). */
  CHECK(entry(h, &s[9]) != NULL && strcmp(entry(h, &s[9])->name, "again") == 0);
  CHECK(entry(h, &s[9]) == &registry(h)[2]);
  /* The trace's name takes the other one (s[5]'s), at address 0, cut to TC_TRACE_NAME bytes. */
  OK(tc_trace_label("a name longer than the field"));
  const tc_trace_object *label = entry(h, NULL);
  CHECK(label == &registry(h)[5]);
  CHECK_EQ(label->type, TC_TRACE_OBJ_LABEL);
  CHECK(memcmp(label->name, "a name longer than t", TC_TRACE_NAME) == 0);
  CHECK_EQ(h->objects_lost, 2);
  CHECK(tc_trace_buffer(NULL) == h);
  OK(tc_trace_disable());
  CHECK(!(h->flags & TC_TRACE_F_ON));
}

/* ---- ticks, a large buffer ------------------------------------------------------------------ */

static void sleeper(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(3));
  tct_log("slept");
}

static uint64_t big[48000]; /* 384 KB: an eighth of it would be more than 1,024 entries */

static void ticks_and_a_large_buffer(void)
{
  tct_begin();
  OK(tc_trace_enable(big, sizeof big, TC_TRACE_WRAP | TC_TRACE_TICKS));
  const tc_trace_header *h = header();
  CHECK(h->flags & TC_TRACE_F_TICKS);
  CHECK_EQ(h->objects, 1024); /* the registry is capped: deletion searches it */
  OK(tc_thread_create(&th[0], "sleeper", sleeper, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("slept");
  int ticks = 0;
  for (int i = find(h, TC_TRACE_EV_TICK, 0); i >= 0; i = find(h, TC_TRACE_EV_TICK, i + 1)) ticks++;
  CHECK(ticks >= 1); /* the tick that ends the sleep (idle ticks that expire nothing are skipped) */
  check_times(h);
  OK(tc_trace_disable());
}

/* ---- an interrupt that stops the trace between a trace point's test and the lock ------------ */

/* The recorders test the trace pointer again with the lock held. Called with the trace
 * stopped, as such an interrupt would leave them, they write nothing: not an event, not a
 * registry entry, not a deletion mark. */
static uint64_t before[sizeof buf / sizeof buf[0]];

static void stopped_in_between(void)
{
  tct_begin();
  static tc_sem s;
  OK(tc_trace_enable(buf, sizeof buf, TC_TRACE_WRAP));
  OK(tc_sem_create(&s, "s", 0, 1));
  OK(tc_trace_disable());
  memcpy(before, buf, sizeof buf);
  tc__trace_record(TC_TRACE_USER_FIRST, 1, 2, 3);
  tc__trace_object(TC_TRACE_OBJ_SEM, &before, "late", 0);
  tc__trace_forget(&s);
  tc__trace_time(tc_cycles());
  CHECK(memcmp(before, buf, sizeof buf) == 0);
  CHECK(tc_trace_buffer(NULL) == header());
}

#if defined(TC_PORT_IN_UNMASKED_ISR) && TC_CHECKS
/* A call refused above the kernel's mask (Cortex-M: a handler at priority 0) leaves the
 * trace as it was: the buffer is the kernel's, and such a handler may run in the middle of
 * the kernel's own recording. This program's hook returns, so the service does too. */
static unsigned hook_calls;
void tc_isr_priority_hook(const char *service)
{
  (void)service;
  hook_calls++;
}

static tc_sem refused_sem;

static void unmasked_give(void *arg)
{
  (void)arg;
  memcpy(before, buf, sizeof buf);
  tc_status st = tc_sem_give(&refused_sem);
  CHECK_EQ(st, TC_CALLER_ERROR);
  CHECK(memcmp(before, buf, sizeof buf) == 0);
}

static void giver(void *arg)
{
  (void)arg;
  tct_interrupt_at(0x00, unmasked_give, NULL);
  OK(tc_sem_give(&refused_sem)); /* recorded, as a thread's */
}

static void refused_above_the_mask_is_not_recorded(void)
{
  tct_begin();
  hook_calls = 0;
  OK(tc_sem_create(&refused_sem, "s", 0, 1));
  OK(tc_trace_enable(buf, sizeof buf, TC_TRACE_WRAP));
  const tc_trace_header *h = header();
  OK(tc_thread_create(&th[0], "giver", giver, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_EQ(hook_calls, 1);
  int give = find(h, TC_TRACE_SVC_SEM_GIVE, 0);
  CHECK(give >= 0);
  if (give >= 0) CHECK_EQ(events(h)[give].arg[3], TC_OK); /* the thread's; the refused one left none */
  CHECK_EQ(find(h, TC_TRACE_SVC_SEM_GIVE, give + 1), -1);
  OK(tc_trace_disable());
}
#endif

#if __has_include("tacet/sim.h")
/* ---- TIME events from the tick ---------------------------------------------------------------- */

/* A thread that runs for more than 2^30 units without a pause: the tick records a TIME event
 * before the 32-bit timestamps could lie 2^32 apart (sim only: on QEMU that is 43 s at 25 MHz). */
static void busy(void *arg)
{
  (void)arg;
  tc_sim_consume(0x50000000u);
  tct_log("busy");
}

static void time_from_the_tick(void)
{
  tct_begin();
  OK(tc_trace_enable(big, sizeof big, TC_TRACE_WRAP)); /* 2^28 units of the newest ticks */
  const tc_trace_header *h = header();
  OK(tc_thread_create(&th[0], "busy", busy, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("busy");
  /* The ring has wrapped (a tick's ISR events every 10^5 units): look at every slot. The
   * enable's TIME event is near 0; the tick's, 2^30 units later. */
  CHECK(h->flags & TC_TRACE_F_WRAPPED);
  bool found = false;
  for (uint32_t i = 0; i < h->events; i++)
    found |= events(h)[i].id == TC_TRACE_EV_TIME && events(h)[i].arg[1] >= 0x40000000u;
  CHECK(found);
  OK(tc_trace_disable());
}
#endif
#endif

TCT_MAIN("trace", TCT_CASE(statuses)
#if TC_TRACE
         , TCT_CASE(content), TCT_CASE(ring_and_registry), TCT_CASE(ticks_and_a_large_buffer),
         TCT_CASE(stopped_in_between)
#if defined(TC_PORT_IN_UNMASKED_ISR) && TC_CHECKS
         , TCT_CASE(refused_above_the_mask_is_not_recorded)
#endif
#if __has_include("tacet/sim.h")
         , TCT_CASE(time_from_the_tick)
#endif
#endif
)
