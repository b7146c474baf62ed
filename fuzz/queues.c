/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: message queues and message ports (kernel/queue.c, kernel/msgport.c) against
 * a model FIFO of each, as their headers describe them.
 *
 * The input is a sequence of operations on two queues and two ports: create (messages of 1
 * to 40 bytes, 0 to 6 of them, in a buffer at any alignment with a remainder the queue does
 * not use), send, send to the front, receive (from the driver with TC_NO_WAIT, in a thread,
 * a LISR or with the scheduler locked; or from an actor thread that may wait), flush, delete,
 * time passing, wait aborts, priority changes of waiting actors, and misuse (NULL buffers,
 * an object of the other type, deleted objects).
 *
 * Each message is unique: the model knows which one every receive gets, including messages
 * copied straight to a waiting receiver and the messages of waiting senders moved into the
 * ring when room is made, or when a flush empties it. Bytes around each ring and after each
 * received message keep a canary. After every step: the model agrees (statuses, messages,
 * the count in each control block) and tc_check() passes.
 */
#include <string.h>

#include "fuzz.h"

#define N_QUEUES       2u
#define N_PORTS        2u
#define MAX_MSG        40u
#define MAX_CAPACITY   6u
#define CANARY         0xEEu
#define PORT_OBJECT(k) (N_QUEUES + (k))

static tc_queue queues[N_QUEUES];
static uint8_t rings[N_QUEUES][MAX_CAPACITY * MAX_MSG + 16];
static tc_port ports[N_PORTS];
static void *slots[N_PORTS][MAX_CAPACITY + 2];
static void *const slot_canary = (void *)(uintptr_t)0xEEEEEEEEu;

/* ---- the model -------------------------------------------------------------------------- */

/* A FIFO of message numbers (a port's message is the number as a pointer). */
typedef struct {
  bool live;
  size_t capacity;
  uintptr_t msg[MAX_CAPACITY];
  size_t count;
} fifo;

static fifo mq[N_QUEUES], mp[N_PORTS];
static size_t msg_size[N_QUEUES];
static uint8_t *ring_of[N_QUEUES];
static uint32_t next_msg;

/* What a waiting actor is doing (fz_model[i].arg: message number << 2 | kind). */
enum { RECEIVER, SENDER_BACK, SENDER_FRONT };

static void put(fifo *f, uintptr_t msg, bool front)
{
  if (front) {
    memmove(&f->msg[1], &f->msg[0], f->count * sizeof f->msg[0]);
    f->msg[0] = msg;
  } else {
    f->msg[f->count] = msg;
  }
  f->count++;
}

static uintptr_t get(fifo *f)
{
  uintptr_t msg = f->msg[0];
  f->count--;
  memmove(&f->msg[0], &f->msg[1], f->count * sizeof f->msg[0]);
  return msg;
}

/* The first waiting sender's message moves into the room just made, and its call returns. */
static void admit_sender(fifo *f, unsigned object)
{
  int w = fz_model_first(object);
  put(f, fz_model[w].arg >> 2, (fz_model[w].arg & 3u) == SENDER_FRONT);
  fz_model_returns((unsigned)w, TC_OK, 0);
}

/* A send of `msg` to `f`, made where a wait is allowed or not. TC_OK with *waits: the call
 * waits (the caller records it). */
static tc_status send_model(fifo *f, unsigned object, uintptr_t msg, bool front, bool wait, bool may_wait,
                            bool *waits)
{
  *waits = false;
  if (!f->live) return TC_INVALID;
  if (wait && !may_wait) return TC_CALLER_ERROR;
  int w = fz_model_first(object);
  if (f->count == 0 && w >= 0) {
    fz_model_returns((unsigned)w, TC_OK, msg); /* straight to the waiting receiver */
    return TC_OK;
  }
  if (f->count < f->capacity) {
    put(f, msg, front);
    return TC_OK;
  }
  if (!wait) return TC_FULL;
  *waits = true;
  return TC_OK;
}

static tc_status receive_model(fifo *f, unsigned object, bool wait, bool may_wait, uintptr_t *msg, bool *waits)
{
  *waits = false;
  *msg = 0;
  if (!f->live) return TC_INVALID;
  if (wait && !may_wait) return TC_CALLER_ERROR;
  if (f->count != 0) {
    *msg = get(f);
    if (fz_model_first(object) >= 0) admit_sender(f, object); /* senders wait on a full one */
    return TC_OK;
  }
  if (!wait) return TC_NO_INSTANCE;
  *waits = true;
  return TC_OK;
}

static void delete_model(fifo *f, unsigned object)
{
  int w;
  while ((w = fz_model_first(object)) >= 0) fz_model_returns((unsigned)w, TC_DELETED, 0);
  f->live = false;
}

/* The bytes of message `msg` of a queue (unique while the number fits them). */
static void content(uintptr_t msg, uint8_t *out, size_t n)
{
  for (size_t k = 0; k < n; k++) out[k] = (uint8_t)((msg >> (8 * (k % 4))) ^ (k * 0x3bu));
}

static bool same_content(uintptr_t msg, const uint8_t *got, size_t n)
{
  uint8_t want[MAX_MSG];
  content(msg, want, n);
  return memcmp(want, got, n) == 0;
}

static bool canary_after(const uint8_t *buf, size_t from, size_t size)
{
  for (size_t k = from; k < size; k++)
    if (buf[k] != CANARY) return false;
  return true;
}

/* ---- actors ----------------------------------------------------------------------------- */

enum { NO_CALL, QUEUE_SEND, QUEUE_SEND_FRONT, QUEUE_RECEIVE, PORT_SEND, PORT_RECEIVE };
static unsigned actor_call[FZ_ACTORS];

static tc_status call_queue_send(fz_actor *a) { return tc_queue_send(&queues[a->object], a->msg, a->timeout); }
static tc_status call_queue_send_front(fz_actor *a)
{
  return tc_queue_send_front(&queues[a->object], a->msg, a->timeout);
}
static tc_status call_queue_receive(fz_actor *a) { return tc_queue_receive(&queues[a->object], a->msg, a->timeout); }
static tc_status call_port_send(fz_actor *a) { return tc_port_send(&ports[a->object], a->ptr, a->timeout); }
static tc_status call_port_receive(fz_actor *a) { return tc_port_receive(&ports[a->object], &a->ptr, a->timeout); }

/* What an actor's receive got is the message the model says; nothing was written past it. */
static bool same_result(unsigned i, const fz_actor *a)
{
  const fz_model_actor *m = &fz_model[i];
  if (actor_call[i] == QUEUE_RECEIVE) {
    if (!canary_after(a->msg, m->status == TC_OK ? a->size : 0, sizeof a->msg)) return false;
    return m->status != TC_OK || same_content(m->result, a->msg, a->size);
  }
  if (actor_call[i] == PORT_RECEIVE && m->status == TC_OK) return (uintptr_t)a->ptr == m->result;
  return true;
}

/* Start a's call as the model predicts it (fz_actor_call), remembering what it calls. */
static void start(fz_actor *a, unsigned call, unsigned object, tc_status st, bool waits, uintptr_t result, uintptr_t arg)
{
  static const fz_call calls[] = {NULL, call_queue_send, call_queue_send_front, call_queue_receive, call_port_send,
                                  call_port_receive};
  actor_call[a - fz_actors] = call;
  fz_actor_call(a, calls[call], object, waits, st, result, arg);
}

/* ---- the kernel and the model agree ----------------------------------------------------- */

static void agree(void)
{
  fz_model_agree(same_result);
  for (unsigned k = 0; k < N_QUEUES; k++) {
    if (!mq[k].live) continue;
    CHECK_EQ(queues[k].count, mq[k].count);
    size_t used = (size_t)(ring_of[k] - rings[k]) + mq[k].capacity * msg_size[k];
    CHECK(canary_after(rings[k], 0, (size_t)(ring_of[k] - rings[k])));
    CHECK(canary_after(rings[k], used, sizeof rings[k]));
  }
  for (unsigned k = 0; k < N_PORTS; k++) {
    if (!mp[k].live) continue;
    CHECK_EQ(ports[k].count, mp[k].count);
    for (size_t s = mp[k].capacity; s < MAX_CAPACITY + 2; s++) CHECK(slots[k][s] == slot_canary);
  }
}

/* ---- queues ----------------------------------------------------------------------------- */

static void queue_create(void)
{
  unsigned k = fz_below(N_QUEUES);
  size_t size = fz_below(10) == 0 ? 0 : 1u + fz_below(MAX_MSG);
  size_t capacity = fz_below(MAX_CAPACITY + 1);
  size_t buf_size = size * capacity + (size != 0 ? fz_below((unsigned)size) : 0);
  uint8_t *buf = rings[k] + fz_below(4);
  bool ok = !mq[k].live && size != 0 && buf_size >= size;
  fz_trace("  queue %u of %zu x %zu bytes (buffer %zu at +%u): %s", k, capacity, size, buf_size,
           (unsigned)(buf - rings[k]), ok ? "ok" : "invalid");
  if (!mq[k].live) memset(rings[k], CANARY, sizeof rings[k]);
  EXPECT(tc_queue_create(&queues[k], "queue", size, buf, buf_size), ok ? TC_OK : TC_INVALID);
  if (!ok) return;
  mq[k] = (fifo){.live = true, .capacity = capacity};
  msg_size[k] = size;
  ring_of[k] = buf;
}

/* The driver's buffers: a message to send, and room for one received, with a canary. */
static uint8_t send_buf[MAX_MSG], receive_buf[MAX_MSG + 8];

static void queue_send_driver(void)
{
  unsigned k = fz_below(N_QUEUES);
  bool front = fz_below(2);
  uintptr_t msg = ++next_msg;
  content(msg, send_buf, sizeof send_buf);
  unsigned where = fz_enter();
  bool wait = where != FZ_IN_THREAD && fz_below(2) == 0; /* a wait where none is allowed */
  uint32_t timeout = wait ? 1u : TC_NO_WAIT;
  tc_status st = front ? tc_queue_send_front(&queues[k], send_buf, timeout) : tc_queue_send(&queues[k], send_buf, timeout);
  fz_leave(where);
  STEP();
  bool waits;
  fz_trace("  queue %u message %u front %d where %u: %d", k, (unsigned)msg, front, where, st);
  CHECK_EQ(st, send_model(&mq[k], k, msg, front, wait, false, &waits));
}

static void queue_send_actor(void)
{
  fz_actor *a = fz_take_actor(N_QUEUES);
  bool front = fz_below(2);
  if (a == NULL) return;
  unsigned k = a->object;
  uintptr_t msg = ++next_msg;
  content(msg, a->msg, sizeof a->msg);
  bool waits;
  tc_status st = send_model(&mq[k], k, msg, front, a->timeout != TC_NO_WAIT, true, &waits);
  start(a, front ? QUEUE_SEND_FRONT : QUEUE_SEND, k, st, waits, 0, msg << 2 | (front ? SENDER_FRONT : SENDER_BACK));
}

static void queue_receive_driver(void)
{
  unsigned k = fz_below(N_QUEUES);
  memset(receive_buf, CANARY, sizeof receive_buf);
  unsigned where = fz_enter();
  bool wait = where != FZ_IN_THREAD && fz_below(2) == 0;
  tc_status st = tc_queue_receive(&queues[k], receive_buf, wait ? 1u : TC_NO_WAIT);
  fz_leave(where);
  STEP();
  size_t size = msg_size[k];
  uintptr_t msg;
  bool waits;
  fz_trace("  queue %u where %u: %d", k, where, st);
  CHECK_EQ(st, receive_model(&mq[k], k, wait, false, &msg, &waits));
  if (st == TC_OK) CHECK(same_content(msg, receive_buf, size));
  CHECK(canary_after(receive_buf, st == TC_OK ? size : 0, sizeof receive_buf));
}

static void queue_receive_actor(void)
{
  fz_actor *a = fz_take_actor(N_QUEUES);
  if (a == NULL) return;
  unsigned k = a->object;
  a->size = msg_size[k];
  memset(a->msg, CANARY, sizeof a->msg);
  uintptr_t msg;
  bool waits;
  tc_status st = receive_model(&mq[k], k, a->timeout != TC_NO_WAIT, true, &msg, &waits);
  start(a, QUEUE_RECEIVE, k, st, waits, msg, RECEIVER);
}

static void queue_flush(void)
{
  unsigned k = fz_below(N_QUEUES);
  unsigned where = fz_enter();
  tc_status st = tc_queue_flush(&queues[k]);
  fz_leave(where);
  STEP();
  fz_trace("  queue %u where %u: %d", k, where, st);
  if (!mq[k].live) {
    CHECK_EQ(st, TC_INVALID);
    return;
  }
  CHECK_EQ(st, TC_OK);
  if (mq[k].count == 0) return;
  mq[k].count = 0;
  while (mq[k].count < mq[k].capacity && fz_model_first(k) >= 0) admit_sender(&mq[k], k);
}

/* Delete queue or port `object`, from the driver or from a LISR (refused). */
static void delete_object(void)
{
  bool port = fz_below(2);
  unsigned k = fz_below(2);
  bool in_lisr = fz_below(4) == 0;
  fifo *f = port ? &mp[k] : &mq[k];
  if (in_lisr) tc_isr_enter();
  tc_status st = port ? tc_port_delete(&ports[k]) : tc_queue_delete(&queues[k]);
  if (in_lisr) tc_isr_exit();
  STEP();
  fz_trace("  %s %u in LISR %d: %d", port ? "port" : "queue", k, in_lisr, st);
  CHECK_EQ(st, !f->live ? TC_INVALID : in_lisr ? TC_CALLER_ERROR : TC_OK);
  if (st == TC_OK) delete_model(f, port ? PORT_OBJECT(k) : k);
}

/* ---- ports ------------------------------------------------------------------------------ */

static void port_create(void)
{
  unsigned k = fz_below(N_PORTS);
  size_t n = fz_below(MAX_CAPACITY + 1);
  bool ok = !mp[k].live && n != 0;
  fz_trace("  port %u of %zu: %s", k, n, ok ? "ok" : "invalid");
  if (!mp[k].live)
    for (size_t s = 0; s < MAX_CAPACITY + 2; s++) slots[k][s] = slot_canary;
  EXPECT(tc_port_create(&ports[k], "port", slots[k], n), ok ? TC_OK : TC_INVALID);
  if (ok) mp[k] = (fifo){.live = true, .capacity = n};
}

/* A pointer to send: a message number, now and then NULL (a port carries any value). */
static uintptr_t port_message(void) { return fz_below(8) == 0 ? 0 : ++next_msg; }

static void port_send_driver(void)
{
  unsigned k = fz_below(N_PORTS);
  uintptr_t msg = port_message();
  unsigned where = fz_enter();
  bool wait = where != FZ_IN_THREAD && fz_below(2) == 0;
  tc_status st = tc_port_send(&ports[k], (void *)msg, wait ? 1u : TC_NO_WAIT);
  fz_leave(where);
  STEP();
  bool waits;
  fz_trace("  port %u message %u where %u: %d", k, (unsigned)msg, where, st);
  CHECK_EQ(st, send_model(&mp[k], PORT_OBJECT(k), msg, false, wait, false, &waits));
}

static void port_send_actor(void)
{
  fz_actor *a = fz_take_actor(N_PORTS);
  if (a == NULL) return;
  unsigned k = a->object;
  uintptr_t msg = port_message();
  a->ptr = (void *)msg;
  bool waits;
  tc_status st = send_model(&mp[k], PORT_OBJECT(k), msg, false, a->timeout != TC_NO_WAIT, true, &waits);
  start(a, PORT_SEND, PORT_OBJECT(k), st, waits, 0, msg << 2 | SENDER_BACK);
}

static void port_receive_driver(void)
{
  unsigned k = fz_below(N_PORTS);
  unsigned where = fz_enter();
  bool wait = where != FZ_IN_THREAD && fz_below(2) == 0;
  void *got = slot_canary;
  tc_status st = tc_port_receive(&ports[k], &got, wait ? 1u : TC_NO_WAIT);
  fz_leave(where);
  STEP();
  uintptr_t msg;
  bool waits;
  fz_trace("  port %u where %u: %d %p", k, where, st, got);
  CHECK_EQ(st, receive_model(&mp[k], PORT_OBJECT(k), wait, false, &msg, &waits));
  if (st == TC_OK) CHECK((uintptr_t)got == msg);
}

static void port_receive_actor(void)
{
  fz_actor *a = fz_take_actor(N_PORTS);
  if (a == NULL) return;
  unsigned k = a->object;
  a->ptr = slot_canary;
  uintptr_t msg;
  bool waits;
  tc_status st = receive_model(&mp[k], PORT_OBJECT(k), a->timeout != TC_NO_WAIT, true, &msg, &waits);
  start(a, PORT_RECEIVE, PORT_OBJECT(k), st, waits, msg, RECEIVER);
}

/* ---- misuse ----------------------------------------------------------------------------- */

/* Calls the checking layer refuses, whatever the state: nothing may change. */
static void misuse(void)
{
  unsigned k = fz_below(2);
  void *out;
  tc_status st = TC_INVALID;
  switch (fz_below(7)) {
  case 0: st = tc_queue_send(&queues[k], NULL, TC_NO_WAIT); break;
  case 1: st = tc_queue_send_front(&queues[k], NULL, TC_NO_WAIT); break;
  case 2: st = tc_queue_receive(&queues[k], NULL, TC_NO_WAIT); break;
  case 3: st = tc_port_receive(&ports[k], NULL, TC_NO_WAIT); break;
  case 4: st = tc_queue_send((tc_queue *)(void *)&ports[k], send_buf, TC_NO_WAIT); break; /* a port */
  case 5: st = tc_port_receive((tc_port *)(void *)&queues[k], &out, TC_NO_WAIT); break;  /* a queue */
  default: st = tc_queue_flush(NULL); break;
  }
  STEP();
  CHECK_EQ(st, TC_INVALID);
}

/* ---- the run ---------------------------------------------------------------------------- */


static void step(void)
{
  static const fz_op ops[] = {
      {"queue_create", queue_create},
      {"queue_send_driver", queue_send_driver},
      {"queue_send_actor", queue_send_actor},
      {"queue_receive_driver", queue_receive_driver},
      {"queue_receive_actor", queue_receive_actor},
      {"queue_flush", queue_flush},
      {"delete_object", delete_object},
      {"port_create", port_create},
      {"port_send_driver", port_send_driver},
      {"port_send_actor", port_send_actor},
      {"port_receive_driver", port_receive_driver},
      {"port_receive_actor", port_receive_actor},
      {"misuse", misuse},
  };
  fz_step(ops, sizeof ops / sizeof ops[0], NULL, agree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_begin(data, size);
  /* Every input starts from the same memory: a finding reproduces from its input alone. */
  memset(queues, 0, sizeof queues);
  memset(ports, 0, sizeof ports);
  memset(mq, 0, sizeof mq);
  memset(mp, 0, sizeof mp);
  memset(msg_size, 0, sizeof msg_size);
  memset(actor_call, 0, sizeof actor_call);
  next_msg = 0;
  fz_run(step);
  return 0;
}
