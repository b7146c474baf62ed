/* SPDX-License-Identifier: MIT */
/*
 * Byte pools (tacet/byte_pool.h): first fit over an address-ordered free list, boundary tags.
 *
 * Block layout (all blocks 8-byte aligned, sizes multiples of 8, headers included):
 *
 *   word 0  head   size | IN_USE | PREV_IN_USE
 *   word 1  tag    (uintptr_t)pool ^ TAG_USED or ^ TAG_FREE; 0 once merged into a neighbour
 *   -- used block: the application's memory from here (TC_BYTE_HEADER)
 *   -- free block: next, prev (free-list links, address order), ..., size copy in its last word
 *
 * PREV_IN_USE lets a freed block know whether its left neighbour is free, and that
 * neighbour's size copy (its last word, right before the freed block) then locates it: both
 * merges are O(1). The first block has PREV_IN_USE set, so nothing is looked for before it.
 *
 * Invariants (tc__byte_pool_check): the blocks tile [start, end) exactly; every header has
 * this pool's tag for its state; PREV_IN_USE is the previous block's IN_USE; no two free
 * blocks are adjacent; a free block's size copy is its size; the free list is exactly the
 * free blocks in address order; the counters agree; and the first waiter does not fit in any
 * free block (else it would have been served).
 */
#include "internal.h"
#include "tacet/byte_pool.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_byte_pool_create, (tc_byte_pool *bp, const char *name, void *mem, size_t mem_size), (bp, name, mem, mem_size),
          TC_TRACE_SVC_BYTE_POOL_CREATE, bp, mem_size, 0, (void)0)
TC_TRACED(tc_byte_alloc, (tc_byte_pool *bp, void **mem, size_t size, uint32_t timeout), (bp, mem, size, timeout),
          TC_TRACE_SVC_BYTE_ALLOC, bp, (st_ == TC_OK && mem != NULL ? (uintptr_t)*mem : 0), size, (void)0)
TC_TRACED(tc_byte_free, (void *mem), (mem),
          TC_TRACE_SVC_BYTE_FREE, 0, mem, 0, (void)0)
TC_TRACED(tc_byte_pool_delete, (tc_byte_pool *bp), (bp),
          TC_TRACE_SVC_BYTE_POOL_DELETE, bp, 0, 0, TC_TRACE_FORGET(bp))

#define IN_USE      ((size_t)1u)
#define PREV_IN_USE ((size_t)2u)
#define FLAGS       ((size_t)7u)
#define TAG_USED    ((uintptr_t)0xA110CA7Eu)
#define TAG_FREE    ((uintptr_t)0xF4EEB10Cu)
#define H           ((size_t)TC_BYTE_HEADER)
#define MIN_BLOCK   ((size_t)TC_BYTE_MIN_BLOCK)

typedef struct block {
  size_t head;
  uintptr_t tag;
  struct block *next, *prev; /* free blocks only */
} block;

_Static_assert(sizeof(block) == 4 * sizeof(void *) && offsetof(block, next) == TC_BYTE_HEADER,
               "byte pool header is two words");
_Static_assert(sizeof(size_t) == sizeof(void *), "size copy is one word");

static inline bool pool_valid(const tc_byte_pool *bp) { return bp != NULL && bp->magic == TC_MAGIC_BYTE_POOL; }

static inline size_t bsize(const block *b) { return b->head & ~FLAGS; }
static inline block *right_of(block *b) { return (block *)((uint8_t *)b + bsize(b)); }
static inline size_t *size_copy(block *b) { return (size_t *)right_of(b) - 1; }
static inline uintptr_t used_tag(const tc_byte_pool *bp) { return (uintptr_t)bp ^ TAG_USED; }
static inline uintptr_t free_tag(const tc_byte_pool *bp) { return (uintptr_t)bp ^ TAG_FREE; }
static inline bool below_end(const tc_byte_pool *bp, const block *b) { return (const uint8_t *)b < bp->end; }

/* The block size a request of `size` bytes needs (size <= the pool's size, so no overflow). */
static inline size_t needed(size_t size)
{
  size_t n = ((size + 7u) & ~(size_t)7u) + H;
  return n < MIN_BLOCK ? MIN_BLOCK : n;
}

/* ---- the free list ---------------------------------------------------------------------- */

static void free_list_unlink(tc_byte_pool *bp, block *b)
{
  if (b->prev != NULL) b->prev->next = b->next; else bp->free_list = b->next;
  if (b->next != NULL) b->next->prev = b->prev;
}

/* `n` takes the place of `old` in the list (they are address neighbours, so the order holds). */
static void free_list_replace(tc_byte_pool *bp, block *old, block *n)
{
  n->next = old->next;
  n->prev = old->prev;
  if (n->prev != NULL) n->prev->next = n; else bp->free_list = n;
  if (n->next != NULL) n->next->prev = n;
}

static void free_list_insert(tc_byte_pool *bp, block *b)
{
  block *prev = NULL, *x = bp->free_list;
  while (x != NULL && x < b) {
    prev = x;
    x = x->next;
  }
  b->prev = prev;
  b->next = x;
  if (prev != NULL) prev->next = b; else bp->free_list = b;
  if (x != NULL) x->prev = b;
}

/* ---- allocation and release, kernel locked ---------------------------------------------- */

/* First fit: the low part of the first free block of at least `need` bytes. */
static block *take(tc_byte_pool *bp, size_t need)
{
  block *b = bp->free_list;
  while (b != NULL && bsize(b) < need) b = b->next;
  if (b == NULL) return NULL;
  size_t size = bsize(b);
  if (size - need >= MIN_BLOCK) {
    block *rest = (block *)((uint8_t *)b + need);
    rest->head = (size - need) | PREV_IN_USE;
    rest->tag = free_tag(bp);
    *size_copy(rest) = size - need;
    free_list_replace(bp, b, rest);
    b->head = need | (b->head & PREV_IN_USE);
  } else {
    free_list_unlink(bp, b);
    if (below_end(bp, right_of(b))) right_of(b)->head |= PREV_IN_USE;
    bp->free_blocks--;
  }
  b->head |= IN_USE;
  b->tag = used_tag(bp);
  bp->available -= bsize(b);
  bp->used_blocks++;
  return b;
}

static void give_back(tc_byte_pool *bp, block *b)
{
  size_t size = bsize(b);
  bp->available += size;
  bp->used_blocks--;
  b->head &= ~IN_USE;
  bool merged_left = false;
  if (!(b->head & PREV_IN_USE)) {
    block *left = (block *)((uint8_t *)b - ((size_t *)b)[-1]);
    left->head += size; /* its flags stay: free, previous in use */
    b->head = 0;        /* erased: a second free of this pointer finds no block */
    b->tag = 0;
    b = left;
    merged_left = true;
  }
  block *right = right_of(b);
  if (below_end(bp, right) && !(right->head & IN_USE)) {
    if (merged_left) {
      free_list_unlink(bp, right);
      bp->free_blocks--;
    } else {
      free_list_replace(bp, right, b);
    }
    b->head += bsize(right);
    right->head = 0;
    right->tag = 0;
  } else if (!merged_left) {
    free_list_insert(bp, b);
    bp->free_blocks++;
  }
  b->tag = free_tag(bp);
  *size_copy(b) = bsize(b);
  if (below_end(bp, right_of(b))) right_of(b)->head &= ~PREV_IN_USE;
}

/* Serve waiters in priority order while the first of them fits. */
static void serve(tc_byte_pool *bp)
{
  tc_node *w;
  while ((w = bp->waiters.threads.head) != NULL) {
    tc_thread *t = TC_THREAD_OF(w);
    block *b = take(bp, (size_t)t->wait_info[0]);
    if (b == NULL) return;
    t->wait_info[1] = (uintptr_t)b + H;
    /* Taken off the queue first: the queue's hook is for waiters that leave on their own. */
    tc__list_remove(&bp->waiters.threads, w);
    t->wait_q = NULL;
    tc__thread_wake(t, TC_OK);
  }
}

/* The waiters changed behind the pool's back (the first left, or a priority changed): the
 * new first waiter may fit. */
static void waiters_changed(tc_waitq *q, tc_thread *t)
{
  (void)t;
  serve(TC_CONTAINER_OF(q, tc_byte_pool, waiters));
}

#if TC_CHECKS
/* The live pool whose blocks `mem` lies among, by address only; NULL if none. */
static tc_byte_pool *pool_of(const void *mem)
{
  const uint8_t *p = mem;
  tc_node *n = tc__k.byte_pools.head; /* not const: the pool found is the caller's to change */
  if (n == NULL) return NULL;
  do {
    tc_byte_pool *bp = TC_CONTAINER_OF(n, tc_byte_pool, created_node);
    if (p >= bp->start + H && p < bp->end) return bp;
    n = n->next;
  } while (n != tc__k.byte_pools.head);
  return NULL;
}

/* right_of for a block only read (the checks below). */
static inline const block *right_of_const(const block *b)
{
  return (const block *)((const uint8_t *)b + bsize(b));
}

/* `b` is a block in use of `bp`: its header and both neighbours' boundary tags agree. */
static bool in_use_block(const tc_byte_pool *bp, const block *b)
{
  if (((uintptr_t)b & 7u) != 0 || b->tag != used_tag(bp) || !(b->head & IN_USE)) return false;
  size_t size = bsize(b);
  if (size < MIN_BLOCK || size > (size_t)(bp->end - (const uint8_t *)b)) return false;
  const block *right = right_of_const(b);
  if (below_end(bp, right) &&
      (!(right->head & PREV_IN_USE) || (right->tag != used_tag(bp) && right->tag != free_tag(bp))))
    return false;
  if (!(b->head & PREV_IN_USE)) {
    /* The first block has no left neighbour: its size copy would lie before the pool. */
    if ((const uint8_t *)b == bp->start) return false;
    size_t left_size = ((const size_t *)b)[-1];
    if (left_size < MIN_BLOCK || left_size % 8 != 0 || left_size > (size_t)((const uint8_t *)b - bp->start))
      return false;
    const block *left = (const block *)((const uint8_t *)b - left_size);
    if (left->tag != free_tag(bp) || left->head != (left_size | PREV_IN_USE)) return false;
  }
  return true;
}
#endif

/* ---- services --------------------------------------------------------------------------- */

tc_status TC_BODY(tc_byte_pool_create)(tc_byte_pool *bp, const char *name, void *mem, size_t mem_size)
{
  TC_ISR_CHECK("tc_byte_pool_create");
  TC_ARG_CHECK(bp != NULL && mem != NULL, TC_INVALID);
  TC_ARG_CHECK(mem_size <= UINTPTR_MAX - (uintptr_t)mem, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  uintptr_t lo = ((uintptr_t)mem + 7u) & ~(uintptr_t)7u;
  uintptr_t hi = ((uintptr_t)mem + mem_size) & ~(uintptr_t)7u;
  TC_ARG_CHECK(hi > lo && hi - lo >= MIN_BLOCK, TC_INVALID);
  uint8_t *start = (uint8_t *)lo, *end = (uint8_t *)hi;

#if TC_CHECKS
  {
    unsigned s = tc__lock();
    bool bad = bp->magic == TC_MAGIC_BYTE_POOL && tc__list_contains(&tc__k.byte_pools, &bp->created_node);
    const tc_node *x = tc__k.byte_pools.head;
    if (!bad && x != NULL) {
      do {
        const tc_byte_pool *o = TC_CONST_CONTAINER_OF(x, tc_byte_pool, created_node);
        if (start < o->end && o->start < end) bad = true;
        x = x->next;
      } while (x != tc__k.byte_pools.head);
    }
    tc__unlock(s);
    if (bad) return TC_INVALID;
  }
#endif

  block *b = (block *)start;
  b->head = (size_t)(end - start) | PREV_IN_USE;
  b->tag = free_tag(bp);
  b->next = b->prev = NULL;
  *size_copy(b) = bsize(b);
  bp->name = name;
  bp->start = start;
  bp->end = end;
  bp->free_list = b;
  bp->available = bsize(b);
  bp->free_blocks = 1;
  bp->used_blocks = 0;
  bp->waiters.threads.head = NULL;
  bp->waiters.reprioritized = waiters_changed;
  TC_TRACE_WAITQ(&bp->waiters, bp);
  unsigned s = tc__lock();
  bp->magic = TC_MAGIC_BYTE_POOL;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_BYTE_POOL, bp, name, 0);
  tc__list_push_back(&tc__k.byte_pools, &bp->created_node);
  tc__unlock(s);
  return TC_OK;
}

tc_status TC_BODY(tc_byte_alloc)(tc_byte_pool *bp, void **mem, size_t size, uint32_t timeout)
{
  TC_ISR_CHECK("tc_byte_alloc");
  TC_ARG_CHECK(mem != NULL, TC_INVALID);
  *mem = NULL;
  TC_ARG_CHECK(pool_valid(bp) && size != 0, TC_INVALID);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__may_block(), TC_CALLER_ERROR);
  /* A request larger than the whole pool could never be served: refuse it rather than let
   * it wait for ever (this also keeps needed() from overflowing). */
  if (size > (size_t)(bp->end - bp->start) - H) return TC_INVALID;
  size_t need = needed(size);
  unsigned s = tc__lock();
  for (;;) {
    block *b = take(bp, need);
    if (b != NULL) {
      tc__unlock(s);
      *mem = (uint8_t *)b + H;
      return TC_OK;
    }
    if (timeout == TC_NO_WAIT) {
      tc__unlock(s);
      return TC_NO_INSTANCE;
    }
    tc_thread *t = tc__k.current;
    t->wait_info[0] = need;
    tc_status st = tc__thread_wait(&bp->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, s);
    if (st == TC_OK) {
      *mem = (void *)t->wait_info[1]; /* served by serve() */
      return TC_OK;
    }
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile: look at the pool again, for the time left. */
    if (!tc__wait_restart(&bp->magic, TC_MAGIC_BYTE_POOL, &timeout, &s)) return TC_DELETED;
  }
}

tc_status TC_BODY(tc_byte_free)(void *mem)
{
  TC_ISR_CHECK("tc_byte_free");
  TC_ARG_CHECK(mem != NULL, TC_INVALID);
  block *b = (block *)((uint8_t *)mem - H);
  unsigned s = tc__lock();
#if TC_CHECKS
  tc_byte_pool *bp = pool_of(mem);
  if (bp == NULL || !in_use_block(bp, b)) {
    tc__unlock(s);
    return TC_INVALID; /* not memory of a live pool, or not in use (a double free) */
  }
#else
  if (!(b->head & IN_USE)) {
    tc__unlock(s);
    return TC_INVALID; /* free, or erased by a merge: a double free */
  }
  tc_byte_pool *bp = (tc_byte_pool *)(b->tag ^ TAG_USED);
#endif
  give_back(bp, b);
  serve(bp);
  tc__sched_dispatch();
  tc__unlock(s);
  return TC_OK;
}

tc_status TC_BODY(tc_byte_pool_delete)(tc_byte_pool *bp)
{
  TC_ISR_CHECK("tc_byte_pool_delete");
  TC_ARG_CHECK(pool_valid(bp), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  /* The headers of the blocks name this control block and say "in use": erase them, or a
   * pool created later with the same control block on the same memory would take back a
   * pointer this one lent out (tc_byte_free) and break. O(blocks), as info and check are. */
  for (block *b = (block *)bp->start; below_end(bp, b); b = right_of(b)) {
    b->head &= ~IN_USE;
    b->tag = 0;
  }
  bp->waiters.reprioritized = NULL; /* the waiters leave because of us: nothing to serve */
  tc__object_delete(&bp->waiters, &bp->magic, &tc__k.byte_pools, &bp->created_node);
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_byte_pool_info(const tc_byte_pool *bp, tc_byte_pool_info_t *out)
{
  TC_ISR_CHECK("tc_byte_pool_info");
  TC_ARG_CHECK(pool_valid(bp) && out != NULL, TC_INVALID);
  unsigned s = tc__lock();
  out->name = bp->name;
  out->size = (size_t)(bp->end - bp->start);
  out->available = bp->available;
  out->largest = 0;
  for (const block *b = bp->free_list; b != NULL; b = b->next)
    if (bsize(b) - H > out->largest) out->largest = bsize(b) - H;
  out->free_blocks = bp->free_blocks;
  out->used_blocks = bp->used_blocks;
  out->waiting = 0;
  const tc_node *w = bp->waiters.threads.head;
  if (w != NULL) {
    do {
      out->waiting++;
      w = w->next;
    } while (w != bp->waiters.threads.head);
  }
  tc__unlock(s);
  return TC_OK;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

static const char *check_pool(const tc_byte_pool *bp)
{
  if (bp->magic != TC_MAGIC_BYTE_POOL) return "byte pool list holds something that is not a byte pool";
  if (((uintptr_t)bp->start & 7u) != 0 || bp->end <= bp->start || ((uintptr_t)bp->end & 7u) != 0)
    return "byte pool bounds corrupted";

  /* Walk the blocks; the free list must be exactly the free blocks, in address order. */
  const block *expected_free = bp->free_list, *prev_free = NULL;
  size_t free_bytes = 0, largest = 0;
  uint32_t n_free = 0, n_used = 0;
  bool prev_used = true; /* the first block is marked as if its left neighbour were in use */
  const uint8_t *p = bp->start;
  while (p < bp->end) {
    const block *b = (const block *)p;
    size_t size = bsize(b);
    /* (bsize() is a multiple of 8; a size past the end stops the walk, so p ends at end.) */
    if (size < MIN_BLOCK || size > (size_t)(bp->end - p)) return "byte pool block size corrupted";
    if (((b->head & PREV_IN_USE) != 0) != prev_used) return "byte pool PREV_IN_USE disagrees with its neighbour";
    if ((b->head & IN_USE) != 0u) {
      if (b->tag != used_tag(bp)) return "byte pool block header overwritten";
      n_used++;
      prev_used = true;
    } else {
      if (b->tag != free_tag(bp)) return "byte pool free block header overwritten";
      if (!prev_used) return "two free byte pool blocks are adjacent";
      if (((const size_t *)(p + size))[-1] != size) return "byte pool free block size copy disagrees";
      if (b != expected_free) return "byte pool free list is not the free blocks in address order";
      if (b->prev != prev_free) return "byte pool free list back link wrong";
      prev_free = b;
      expected_free = b->next;
      free_bytes += size;
      if (size - H > largest) largest = size - H;
      n_free++;
      prev_used = false;
    }
    p += size;
  }
  if (expected_free != NULL) return "byte pool free list continues past the free blocks";
  if (free_bytes != bp->available || n_free != bp->free_blocks || n_used != bp->used_blocks)
    return "byte pool counters disagree with its blocks";

  size_t waiting;
  const char *e = tc__waitq_check(&bp->waiters, &waiting);
  if (e != NULL) return e;
  if (waiting != 0 && TC_CONST_THREAD_OF(bp->waiters.threads.head)->wait_info[0] <= largest + H)
    return "the first byte pool waiter fits and was not served";
  return NULL;
}

const char *tc__byte_pool_check(void)
{
  const tc_node *n = tc__k.byte_pools.head;
  if (n == NULL) return NULL;
  do {
    const char *e = check_pool(TC_CONST_CONTAINER_OF(n, tc_byte_pool, created_node));
    if (e != NULL) return e;
    n = n->next;
  } while (n != tc__k.byte_pools.head);
  return NULL;
}
