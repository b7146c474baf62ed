/* SPDX-License-Identifier: MIT */
/*
 * Message queues (tacet/queue.h): a ring of fixed-size slots in the caller's buffer.
 *
 * One wait queue serves both directions: receivers wait only while the ring is empty and
 * senders only while it is full, and since a queue has at least one slot the two never
 * coexist. What a waiter is doing is in its wait_info: [0] its message buffer, [1] the kind
 * below. A waiting receiver gets its message copied straight into its buffer; a waiting
 * sender's message is copied from its buffer (still valid: the sender is blocked) into the
 * ring by the call that made room.
 */
#include <string.h>

#include "internal.h"
#include "tacet/queue.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_queue_create, (tc_queue *q, const char *name, size_t msg_size, void *buf, size_t buf_size), (q, name, msg_size, buf, buf_size),
          TC_TRACE_SVC_QUEUE_CREATE, q, msg_size, buf_size, (void)0)
TC_TRACED(tc_queue_send, (tc_queue *q, const void *msg, uint32_t timeout), (q, msg, timeout),
          TC_TRACE_SVC_QUEUE_SEND, q, timeout, 0, (void)0)
TC_TRACED(tc_queue_send_front, (tc_queue *q, const void *msg, uint32_t timeout), (q, msg, timeout),
          TC_TRACE_SVC_QUEUE_SEND_FRONT, q, timeout, 0, (void)0)
TC_TRACED(tc_queue_receive, (tc_queue *q, void *msg, uint32_t timeout), (q, msg, timeout),
          TC_TRACE_SVC_QUEUE_RECEIVE, q, timeout, 0, (void)0)
TC_TRACED(tc_queue_flush, (tc_queue *q), (q),
          TC_TRACE_SVC_QUEUE_FLUSH, q, 0, 0, (void)0)
TC_TRACED(tc_queue_delete, (tc_queue *q), (q),
          TC_TRACE_SVC_QUEUE_DELETE, q, 0, 0, TC_TRACE_FORGET(q))

enum { RECEIVER, SENDER_BACK, SENDER_FRONT };

static inline bool queue_valid(const tc_queue *q) { return q != NULL && q->magic == TC_MAGIC_QUEUE; }

/* Whether a word load or store may be unaligned: then the caller's message buffer is copied a
 * word at a time wherever it is (ARMv7-M: plain LDR/STR accept any address, as long as the
 * application leaves CCR.UNALIGN_TRP clear). Elsewhere only word-aligned buffers are. */
#if defined(__ARM_FEATURE_UNALIGNED) || defined(__x86_64__) || defined(__i386__) || \
    defined(__aarch64__)
#define ANY_ALIGNMENT 1
#else
#define ANY_ALIGNMENT 0
#endif

/* One word, at any address where ANY_ALIGNMENT allows it (memcpy of 4 bytes is a single load
 * or store there). */
static inline void copy_word(uint8_t *d, const uint8_t *s) { (void)memcpy(d, s, 4); }

/* One message of `q` from `src` to `dst`. Messages of whole words are copied word by word,
 * inline and unrolled for the usual sizes (a 16-byte message is four loads and four stores);
 * anything else goes to memcpy. */
/* Built for size (-Os): one copy of copy_msg serves every path, without the unrolled sizes
 * (see TC_HOT, internal.h). */
#ifdef __OPTIMIZE_SIZE__
#define SIZE_FIRST 1
#define ONE_COPY __attribute__((noinline))
#else
#define SIZE_FIRST 0
#define ONE_COPY
#endif
ONE_COPY static inline void copy_msg(const tc_queue *q, void *dst, const void *src)
{
  size_t n = q->words;
  if (n != 0 && (ANY_ALIGNMENT || (((uintptr_t)dst | (uintptr_t)src) & 3u) == 0)) {
    uint8_t *d = dst;
    const uint8_t *w = src;
    if (!SIZE_FIRST && n == 4) { /* Thread-Metric's size, and a common one */
      copy_word(d, w);
      copy_word(d + 4, w + 4);
      copy_word(d + 8, w + 8);
      copy_word(d + 12, w + 12);
    } else if (!SIZE_FIRST && n == 1) {
      copy_word(d, w);
    } else {
      for (; n != 0; n--, d += 4, w += 4) copy_word(d, w);
    }
    return;
  }
  (void)memcpy(dst, src, q->msg_size);
}

static inline void ring_put(tc_queue *q, const void *msg, bool front)
{
  if (front) {
    if (q->read == q->start) q->read = q->end;
    q->read -= q->msg_size;
    copy_msg(q, q->read, msg);
  } else {
    copy_msg(q, q->write, msg);
    q->write += q->msg_size;
    if (q->write == q->end) q->write = q->start;
  }
  q->count++;
}

static inline void ring_get(tc_queue *q, void *msg)
{
  copy_msg(q, msg, q->read);
  q->read += q->msg_size;
  if (q->read == q->end) q->read = q->start;
  q->count--;
}

/* Room was made: the first waiting sender's message moves into the ring and it returns. */
static void admit_sender(tc_queue *q)
{
  tc_thread *s = TC_THREAD_OF(q->waiters.threads.head);
  ring_put(q, (const void *)s->wait_info[0], s->wait_info[1] == SENDER_FRONT);
  tc__thread_wake(s, TC_OK);
}

tc_status TC_BODY(tc_queue_create)(tc_queue *q, const char *name, size_t msg_size, void *buf, size_t buf_size)
{
  TC_ISR_CHECK("tc_queue_create");
  TC_ARG_CHECK(q != NULL && buf != NULL && msg_size != 0 && buf_size >= msg_size, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
#if TC_CHECKS
  if (q->magic == TC_MAGIC_QUEUE && tc__list_contains(&tc__k.queues, &q->created_node)) {
    tc__unlock(k);
    return TC_INVALID;
  }
#endif
  q->name = name;
  q->waiters.threads.head = NULL;
  q->waiters.reprioritized = NULL;
  TC_TRACE_WAITQ(&q->waiters, q);
  q->msg_size = msg_size;
  q->capacity = buf_size / msg_size;
  q->start = q->read = q->write = buf;
  q->end = q->start + q->capacity * msg_size;
  q->count = 0;
  q->words = msg_size % 4 == 0 ? msg_size / 4 : 0;
  q->magic = TC_MAGIC_QUEUE;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_QUEUE, q, name, 0);
  tc__list_push_back(&tc__k.queues, &q->created_node);
  tc__unlock(k);
  return TC_OK;
}

/* The rest of a send that found the ring full, with the lock taken as `k`: wait, and after a
 * signal handler ran, try again for the time left. Out of line: the common send never gets
 * here. */
static tc_status __attribute__((noinline)) send_slow(tc_queue *q, const void *msg, uint32_t timeout,
                                                     bool front, unsigned k);
/* The same with `front` in the name: four arguments travel in registers, so the common send
 * needs no stack frame for a fifth. */
static tc_status __attribute__((noinline)) send_back_slow(tc_queue *q, const void *msg,
                                                          uint32_t timeout, unsigned k)
{
  return send_slow(q, msg, timeout, false, k);
}
static tc_status __attribute__((noinline)) send_front_slow(tc_queue *q, const void *msg,
                                                           uint32_t timeout, unsigned k)
{
  return send_slow(q, msg, timeout, true, k);
}

/* The send that needs no wait, with the lock taken as `k`: to a waiting receiver, or into the
 * ring. True when done (and unlocked); false when the ring is full. The common send and the
 * waiting one share it (one copy in a build for size). */
ONE_COPY static inline bool send_now(tc_queue *q, const void *msg, bool front, unsigned k)
{
  if (q->count == 0 && q->waiters.threads.head != NULL) {
    /* A receiver waits: the message goes straight to it. */
    tc_thread *r = TC_THREAD_OF(q->waiters.threads.head);
    copy_msg(q, (void *)r->wait_info[0], msg);
    tc__thread_wake(r, TC_OK);
    tc__sched_dispatch();
    tc__unlock(k);
    return true;
  }
  if (q->count >= q->capacity) return false;
  ring_put(q, msg, front);
  tc__unlock_quiet(k);
  return true;
}

static inline tc_status send(tc_queue *q, const void *msg, uint32_t timeout, bool front)
{
  TC_ARG_CHECK(queue_valid(q) && msg != NULL, TC_INVALID);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__may_block(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  if (send_now(q, msg, front, k)) return TC_OK;
  return front ? send_front_slow(q, msg, timeout, k) : send_back_slow(q, msg, timeout, k);
}

static tc_status send_slow(tc_queue *q, const void *msg, uint32_t timeout, bool front, unsigned k)
{
  for (;;) {
    if (timeout == TC_NO_WAIT) {
      tc__unlock(k);
      return TC_FULL;
    }
    tc_thread *self = tc__k.current;
    self->wait_info[0] = (uintptr_t)msg;
    self->wait_info[1] = front ? SENDER_FRONT : SENDER_BACK;
    /* TC_OK means a receive has moved the message into the ring. */
    tc_status st = tc__thread_wait(&q->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left. */
    if (!tc__wait_restart(&q->magic, TC_MAGIC_QUEUE, &timeout, &k)) return TC_DELETED;
    if (send_now(q, msg, front, k)) return TC_OK;
  }
}

tc_status TC_BODY(tc_queue_send)(tc_queue *q, const void *msg, uint32_t timeout)
{
  TC_ISR_CHECK("tc_queue_send");
  return send(q, msg, timeout, false);
}

tc_status TC_BODY(tc_queue_send_front)(tc_queue *q, const void *msg, uint32_t timeout)
{
  TC_ISR_CHECK("tc_queue_send_front");
  return send(q, msg, timeout, true);
}

/* The receive that needs no wait, with the lock taken as `k`: a message from the ring, and
 * the first waiting sender's into the slot it freed. True when done (and unlocked); false
 * when the ring is empty. Shared as send_now. */
ONE_COPY static inline bool receive_now(tc_queue *q, void *msg, unsigned k)
{
  if (q->count == 0) return false;
  ring_get(q, msg);
  /* Senders wait only on a full ring: the one slot just freed is theirs. */
  if (q->waiters.threads.head != NULL) {
    admit_sender(q);
    tc__sched_dispatch();
    tc__unlock(k);
    return true;
  }
  tc__unlock_quiet(k);
  return true;
}

/* A receive that found the ring empty, with the lock taken as `k` (see send_slow). */
static tc_status __attribute__((noinline)) receive_slow(tc_queue *q, void *msg, uint32_t timeout,
                                                        unsigned k)
{
  for (;;) {
    if (timeout == TC_NO_WAIT) {
      tc__unlock(k);
      return TC_NO_INSTANCE;
    }
    tc_thread *self = tc__k.current;
    self->wait_info[0] = (uintptr_t)msg;
    self->wait_info[1] = RECEIVER;
    /* TC_OK means a sender has already copied the message into `msg`. */
    tc_status st = tc__thread_wait(&q->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left. */
    if (!tc__wait_restart(&q->magic, TC_MAGIC_QUEUE, &timeout, &k)) return TC_DELETED;
    if (receive_now(q, msg, k)) return TC_OK;
  }
}

tc_status TC_BODY(tc_queue_receive)(tc_queue *q, void *msg, uint32_t timeout)
{
  TC_ISR_CHECK("tc_queue_receive");
  TC_ARG_CHECK(queue_valid(q) && msg != NULL, TC_INVALID);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__may_block(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  if (receive_now(q, msg, k)) return TC_OK;
  return receive_slow(q, msg, timeout, k);
}

tc_status TC_BODY(tc_queue_flush)(tc_queue *q)
{
  TC_ISR_CHECK("tc_queue_flush");
  TC_ARG_CHECK(queue_valid(q), TC_INVALID);
  unsigned k = tc__lock();
  if (q->count != 0) {
    q->count = 0;
    q->read = q->write = q->start;
    /* Waiting senders (the ring was full) are not discarded with the ring: they fill it. */
    while (q->count < q->capacity && q->waiters.threads.head != NULL) admit_sender(q);
    tc__sched_dispatch();
  }
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_queue_delete)(tc_queue *q)
{
  TC_ISR_CHECK("tc_queue_delete");
  TC_ARG_CHECK(queue_valid(q), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  tc__object_delete(&q->waiters, &q->magic, &tc__k.queues, &q->created_node);
  tc__unlock(k);
  return TC_OK;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

static const char *check_queue(const tc_queue *q)
{
  if (q->magic != TC_MAGIC_QUEUE) return "queue list holds something that is not a queue";
  if (q->start == NULL || q->msg_size == 0 || q->capacity == 0 ||
      q->end != q->start + q->capacity * q->msg_size || q->words != (q->msg_size % 4 == 0 ? q->msg_size / 4 : 0))
    return "queue geometry invalid";
  if (q->count > q->capacity) return "queue count out of range";
  size_t span = (size_t)(q->end - q->start);
  size_t r = (size_t)(q->read - q->start), w = (size_t)(q->write - q->start);
  if (q->read < q->start || r >= span || r % q->msg_size != 0) return "queue read position off its slots";
  /* The newest message is `count` slots after the oldest. */
  if (q->write < q->start || w >= span || w % q->msg_size != 0 ||
      (r / q->msg_size + q->count) % q->capacity != w / q->msg_size)
    return "queue write position disagrees with the read position and the count";
  size_t waiting;
  const char *e = tc__waitq_check(&q->waiters, &waiting);
  if (e != NULL) return e;
  if (waiting == 0) return NULL;
  if (q->count != 0 && q->count != q->capacity) return "queue has waiters while neither empty nor full";
  const tc_node *x = q->waiters.threads.head;
  do {
    const tc_thread *t = TC_CONST_THREAD_OF(x);
    if (t->wait_info[0] == 0) return "queue waiter without a message buffer";
    if (q->count == 0 && t->wait_info[1] != RECEIVER) return "sender waits on an empty queue";
    if (q->count != 0 && t->wait_info[1] != SENDER_BACK && t->wait_info[1] != SENDER_FRONT)
      return "receiver waits on a full queue";
    x = x->next;
  } while (x != q->waiters.threads.head);
  return NULL;
}

const char *tc__queue_check(void)
{
  const tc_node *n = tc__k.queues.head;
  if (n == NULL) return NULL;
  do {
    const char *e = check_queue(TC_CONST_CONTAINER_OF(n, tc_queue, created_node));
    if (e != NULL) return e;
    n = n->next;
  } while (n != tc__k.queues.head);
  return NULL;
}
