/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-RTOS2 message queues: messages copied into slots, received highest priority first
 * and in order within a priority -- on two Tacet semaphores, `messages` (one unit per message
 * queued) and `slots` (one per free slot). A put takes a slot unit (it waits there while the
 * queue is full), links its message in priority order and gives a message unit; a get takes
 * a message unit (it waits there while the queue is empty), unlinks the first message and
 * gives a slot unit. Waiters are served in thread-priority order, and a unit given while one
 * waits is handed to it: a thread that comes later cannot take its message or its room.
 *
 * Only the links are changed under the kernel lock; the message is copied outside it, into a
 * slot that the semaphore units make the caller's alone, so a long message adds nothing to
 * interrupt latency. A put of the last message's priority or below (every put, when all
 * messages have one priority) goes after it without a walk of the list.
 */
#include "os2.h"

static tc_os2_message_queue *queue(osMessageQueueId_t id)
{
  tc_os2_message_queue *q = id;
  return q != NULL && q->magic == OS2_MAGIC_QUEUE ? q : NULL;
}

static inline uint8_t *msg_data(tc_os2_msg *m) { return (uint8_t *)(m + 1); }

/* A message copied word by word when both ends and its size allow (structures, the common
 * case), else by memcpy, which spends as long again on its set-up for a short message. */
static inline void msg_copy(uint8_t *dst, const uint8_t *src, uint32_t size)
{
  if ((((uintptr_t)dst | (uintptr_t)src | size) & 3u) != 0u) {
    memcpy(dst, src, size);
    return;
  }
  for (uint32_t i = 0; i < size; i += 4u) {
    uint32_t w;
    memcpy(&w, src + i, 4u);
    memcpy(dst + i, &w, 4u);
  }
}

osMessageQueueId_t osMessageQueueNew(uint32_t msg_count, uint32_t msg_size, const osMessageQueueAttr_t *attr)
{
  if (os2_refused("osMessageQueueNew") || os2_in_isr() || !os2_may_create()) return NULL;
  if (os2.state == osKernelInactive || msg_count == 0u || msg_size == 0u) return NULL;
  size_t need = TC_OS2_MESSAGE_QUEUE_MEM_SIZE(msg_count, msg_size);
  void *mem = attr != NULL ? attr->mq_mem : NULL;
  uint32_t mem_size = attr != NULL ? attr->mq_size : 0u;
  if (mem != NULL && (((uintptr_t)mem & (sizeof(void *) - 1u)) != 0u || mem_size < need)) return NULL;
  if (mem == NULL && mem_size != 0u) return NULL;
  uint8_t flags;
  tc_os2_message_queue *q = OS2_CB_ALLOC(attr, sizeof *q, &flags);
  if (q == NULL) return NULL;
  if (!os2_data_alloc(&mem, need, &flags)) {
    os2_release(q, flags, NULL);
    return NULL;
  }
  q->flags = flags;
  q->mem = mem;
  q->msg_count = msg_count;
  q->msg_size = msg_size;
  q->slot_size = (uint32_t)TC_OS2_MSG_SLOT(msg_size);
  q->queued = q->last = NULL;
  q->queued_n = 0;
  q->free = NULL;
  for (uint32_t i = msg_count; i-- > 0;) {
    tc_os2_msg *m = (tc_os2_msg *)(q->mem + (size_t)i * q->slot_size);
    m->next = q->free;
    q->free = m;
  }
  const char *name = OS2_ATTR_NAME(attr);
  if (tc_sem_create(&q->messages, name, 0, msg_count) != TC_OK) goto fail;
  if (tc_sem_create(&q->slots, name, msg_count, msg_count) != TC_OK) {
    (void)tc_sem_delete(&q->messages);
    goto fail;
  }
  q->magic = OS2_MAGIC_QUEUE;
  return q;
fail:
  os2_release(q, q->flags, q->mem);
  return NULL;
}

const char *osMessageQueueGetName(osMessageQueueId_t mq_id)
{
  if (os2_refused("osMessageQueueGetName")) return NULL;
  tc_os2_message_queue *q = queue(mq_id);
  return q != NULL ? q->messages.name : NULL;
}

/* Take the first message off the list (a unit of `messages` held), with the lock held. */
static inline tc_os2_msg *unlink_first(tc_os2_message_queue *q)
{
  tc_os2_msg *m = q->queued;
  q->queued = m->next;
  if (q->queued == NULL) q->last = NULL;
  q->queued_n--;
  return m;
}

/* A handler above the kernel's mask is refused by the semaphore service (os2.h,
 * OS2_OWN_CHECKS): what the layer does before it only reads. */
osStatus_t osMessageQueuePut(osMessageQueueId_t mq_id, const void *msg_ptr, uint8_t msg_prio, uint32_t timeout)
{
  tc_os2_message_queue *q = queue(mq_id);
  if (q == NULL || msg_ptr == NULL || (OS2_OWN_CHECKS && timeout != 0u && os2_in_isr()))
    return os2_refused("osMessageQueuePut") ? osErrorISR : osErrorParameter;
  tc_status st = tc_sem_take(&q->slots, timeout);
  if (__builtin_expect(st != TC_OK, 0)) return os2_wait_status(st, timeout);
  unsigned k = os2_lock();
  tc_os2_msg *m = q->free;
  q->free = m->next;
  os2_unlock_quiet(k);
  msg_copy(msg_data(m), msg_ptr, q->msg_size);
  m->prio = msg_prio;
  m->next = NULL;
  k = os2_lock();
  if (q->last == NULL) {
    q->queued = q->last = m;
  } else if (q->last->prio >= msg_prio) {
    q->last->next = m;
    q->last = m;
  } else {
    tc_os2_msg **p = &q->queued;
    while ((*p)->prio >= msg_prio) p = &(*p)->next; /* the last's priority is below: it stops */
    m->next = *p;
    *p = m;
  }
  q->queued_n++;
  os2_unlock_quiet(k);
  st = tc_sem_give(&q->messages);
  return __builtin_expect(st == TC_OK, 1) ? osOK : os2_status(st);
}

osStatus_t osMessageQueueGet(osMessageQueueId_t mq_id, void *msg_ptr, uint8_t *msg_prio, uint32_t timeout)
{
  tc_os2_message_queue *q = queue(mq_id);
  if (q == NULL || msg_ptr == NULL || (OS2_OWN_CHECKS && timeout != 0u && os2_in_isr()))
    return os2_refused("osMessageQueueGet") ? osErrorISR : osErrorParameter;
  tc_status st = tc_sem_take(&q->messages, timeout);
  if (__builtin_expect(st != TC_OK, 0)) return os2_wait_status(st, timeout);
  unsigned k = os2_lock();
  tc_os2_msg *m = unlink_first(q);
  os2_unlock_quiet(k);
  msg_copy(msg_ptr, msg_data(m), q->msg_size);
  if (msg_prio != NULL) *msg_prio = m->prio;
  k = os2_lock();
  m->next = q->free;
  q->free = m;
  os2_unlock_quiet(k);
  st = tc_sem_give(&q->slots);
  return __builtin_expect(st == TC_OK, 1) ? osOK : os2_status(st);
}

uint32_t osMessageQueueGetCapacity(osMessageQueueId_t mq_id)
{
  if (os2_refused("osMessageQueueGetCapacity")) return 0u;
  tc_os2_message_queue *q = queue(mq_id);
  return q != NULL ? q->msg_count : 0u;
}

uint32_t osMessageQueueGetMsgSize(osMessageQueueId_t mq_id)
{
  if (os2_refused("osMessageQueueGetMsgSize")) return 0u;
  tc_os2_message_queue *q = queue(mq_id);
  return q != NULL ? q->msg_size : 0u;
}

uint32_t osMessageQueueGetCount(osMessageQueueId_t mq_id)
{
  if (os2_refused("osMessageQueueGetCount")) return 0u;
  tc_os2_message_queue *q = queue(mq_id);
  if (q == NULL) return 0u;
  unsigned k = os2_lock();
  uint32_t n = q->queued_n;
  os2_unlock(k);
  return n;
}

/* Free slots: units of `slots` not taken by a put under way. */
uint32_t osMessageQueueGetSpace(osMessageQueueId_t mq_id)
{
  if (os2_refused("osMessageQueueGetSpace")) return 0u;
  tc_os2_message_queue *q = queue(mq_id);
  if (q == NULL) return 0u;
  unsigned k = os2_lock();
  uint32_t n = q->slots.count;
  os2_unlock(k);
  return n;
}

/* Every queued message is discarded; a sender waiting for room then puts its message. */
osStatus_t osMessageQueueReset(osMessageQueueId_t mq_id)
{
  if (os2_refused("osMessageQueueReset") || os2_in_isr()) return osErrorISR;
  tc_os2_message_queue *q = queue(mq_id);
  if (q == NULL) return osErrorParameter;
  tc_sched_lock(); /* released senders run after the whole reset */
  while (tc_sem_take(&q->messages, TC_NO_WAIT) == TC_OK) {
    unsigned k = os2_lock();
    tc_os2_msg *m = unlink_first(q);
    m->next = q->free;
    q->free = m;
    os2_unlock(k);
    (void)tc_sem_give(&q->slots);
  }
  tc_sched_unlock();
  return osOK;
}

osStatus_t osMessageQueueDelete(osMessageQueueId_t mq_id)
{
  if (os2_refused("osMessageQueueDelete") || os2_in_isr()) return osErrorISR;
  tc_os2_message_queue *q = queue(mq_id);
  if (q == NULL) return osErrorParameter;
  tc_status st = tc_sem_delete(&q->messages);
  if (st != TC_OK) return os2_status(st);
  (void)tc_sem_delete(&q->slots);
  q->magic = 0;
  os2_release(q, q->flags, q->mem);
  return osOK;
}
