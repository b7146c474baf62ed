/* SPDX-License-Identifier: MIT */
/*
 * Block pools (tacet/block_pool.h).
 *
 * Slot i of a pool starts at start + i * slot and holds TC_BLOCK_HEADER bytes, whose last
 * word is the block's header, then the block. A header is even when the block is free (the
 * address of the next free block's header, or 0: free blocks are 8-byte aligned) and odd
 * when it is allocated ((uintptr_t)pool ^ ALLOCATED, the tag being odd and the pool's
 * address aligned). Allocation pops the free list, freeing pushes it: O(1) either way.
 *
 * Invariants (tc__block_pool_check): the free list has `available` entries, each the header
 * of a slot of its pool; every other slot's header is the pool's allocated tag; the pool
 * has waiters only while it has no free block.
 */
#include "internal.h"
#include "tacet/block_pool.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_block_pool_create, (tc_block_pool *bp, const char *name, size_t block_size, void *mem, size_t mem_size), (bp, name, block_size, mem, mem_size),
          TC_TRACE_SVC_BLOCK_POOL_CREATE, bp, block_size, mem_size, (void)0)
TC_TRACED(tc_block_alloc, (tc_block_pool *bp, void **block, uint32_t timeout), (bp, block, timeout),
          TC_TRACE_SVC_BLOCK_ALLOC, bp, (st_ == TC_OK && block != NULL ? (uintptr_t)*block : 0), timeout, (void)0)
TC_TRACED(tc_block_free, (void *block), (block),
          TC_TRACE_SVC_BLOCK_FREE, 0, block, 0, (void)0)
TC_TRACED(tc_block_pool_delete, (tc_block_pool *bp), (bp),
          TC_TRACE_SVC_BLOCK_POOL_DELETE, bp, 0, 0, TC_TRACE_FORGET(bp))

/* Odd, so that an allocated header never looks like a free-list link. */
#define ALLOCATED ((uintptr_t)0xB10C5EEDu | 1u)

static inline bool pool_valid(const tc_block_pool *bp) { return bp != NULL && bp->magic == TC_MAGIC_BLOCK_POOL; }

static inline uintptr_t *header_of(void *block) { return (uintptr_t *)block - 1; }

static inline uintptr_t allocated_tag(const tc_block_pool *bp) { return (uintptr_t)bp ^ ALLOCATED; }

#if TC_CHECKS
/* The pool that `block` is a block of, when that pool exists, `block` is the start of one of
 * its blocks and that block is allocated; NULL otherwise. The pool is found by address among
 * the created ones before the header is read, so a pointer that is no block of a pool makes
 * the kernel read nothing outside the pools' memory. O(number of block pools). */
static tc_block_pool *owner_of(const void *block)
{
  const uint8_t *p = block;
  tc_node *n = tc__k.block_pools.head; /* not const: the pool found is the caller's to change */
  if (n == NULL) return NULL;
  do {
    tc_block_pool *bp = TC_CONTAINER_OF(n, tc_block_pool, created_node);
    if (p >= bp->start + TC_BLOCK_HEADER && p < bp->end) {
      if ((size_t)(p - (bp->start + TC_BLOCK_HEADER)) % bp->slot != 0) return NULL;
      return *header_of((void *)(uintptr_t)block) == allocated_tag(bp) ? bp : NULL;
    }
    n = n->next;
  } while (n != tc__k.block_pools.head);
  return NULL;
}
#endif

tc_status TC_BODY(tc_block_pool_create)(tc_block_pool *bp, const char *name, size_t block_size, void *mem,
                               size_t mem_size)
{
  TC_ISR_CHECK("tc_block_pool_create");
  TC_ARG_CHECK(bp != NULL && mem != NULL && block_size != 0, TC_INVALID);
  TC_ARG_CHECK(block_size <= SIZE_MAX / 2 && mem_size <= UINTPTR_MAX - (uintptr_t)mem, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  uintptr_t lo = ((uintptr_t)mem + 7u) & ~(uintptr_t)7u;
  uintptr_t hi = (uintptr_t)mem + mem_size;
  size_t size = (block_size + 7u) & ~(size_t)7u;
  size_t slot = TC_BLOCK_HEADER + size;
  size_t n = hi > lo ? (size_t)(hi - lo) / slot : 0;
  if (n > UINT32_MAX) n = UINT32_MAX;
  TC_ARG_CHECK(n != 0, TC_INVALID);
  uint8_t *start = (uint8_t *)lo, *end = start + n * slot;

#if TC_CHECKS
  {
    unsigned s = tc__lock();
    bool bad = bp->magic == TC_MAGIC_BLOCK_POOL && tc__list_contains(&tc__k.block_pools, &bp->created_node);
    /* Overlapping pools would make the pool of a block ambiguous. */
    const tc_node *x = tc__k.block_pools.head;
    if (!bad && x != NULL) {
      do {
        const tc_block_pool *o = TC_CONST_CONTAINER_OF(x, tc_block_pool, created_node);
        if (start < o->end && o->start < end) bad = true;
        x = x->next;
      } while (x != tc__k.block_pools.head);
    }
    tc__unlock(s);
    if (bad) return TC_INVALID;
  }
#endif

  /* Thread the free list through the headers, lowest block first. Not yet visible to
   * anyone, so this O(n) pass runs with interrupts enabled. */
  for (size_t i = 0; i < n; i++) {
    uintptr_t *h = (uintptr_t *)(start + i * slot + TC_BLOCK_HEADER) - 1;
    *h = i + 1 < n ? (uintptr_t)((uintptr_t *)(start + (i + 1) * slot + TC_BLOCK_HEADER) - 1) : 0;
  }
  bp->name = name;
  bp->start = start;
  bp->end = end;
  bp->block_size = size;
  bp->slot = slot;
  bp->total = bp->available = (uint32_t)n;
  bp->free_list = (uintptr_t *)(start + TC_BLOCK_HEADER) - 1;
  bp->waiters.threads.head = NULL;
  bp->waiters.reprioritized = NULL;
  TC_TRACE_WAITQ(&bp->waiters, bp);
  unsigned s = tc__lock();
  bp->magic = TC_MAGIC_BLOCK_POOL;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_BLOCK_POOL, bp, name, 0);
  tc__list_push_back(&tc__k.block_pools, &bp->created_node);
  tc__unlock(s);
  return TC_OK;
}

/* The rest of an allocation that found the pool empty, with the lock taken as `s`: wait, or
 * start over after a signal handler ran. Out of line: the common allocation never gets here. */
static tc_status __attribute__((noinline)) alloc_slow(tc_block_pool *bp, void **block, uint32_t timeout,
                                                      unsigned s)
{
  *block = NULL; /* until a block is handed over */
  for (;;) {
    if (timeout == TC_NO_WAIT) {
      tc__unlock(s);
      return TC_NO_INSTANCE;
    }
    tc_thread *t = tc__k.current;
    tc_status st = tc__thread_wait(&bp->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, s);
    if (st == TC_OK) {
      *block = (void *)t->wait_info[0]; /* handed over by tc_block_free() */
      return TC_OK;
    }
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile: look at the pool again, for the time left. */
    if (!tc__wait_restart(&bp->magic, TC_MAGIC_BLOCK_POOL, &timeout, &s)) return TC_DELETED;
    uintptr_t *h = bp->free_list;
    if (h != NULL) {
      bp->free_list = (uintptr_t *)*h;
      *h = allocated_tag(bp);
      bp->available--;
      tc__unlock(s);
      *block = h + 1;
      return TC_OK;
    }
  }
}

tc_status TC_BODY(tc_block_alloc)(tc_block_pool *bp, void **block, uint32_t timeout)
{
  TC_ISR_CHECK("tc_block_alloc");
  TC_ARG_CHECK(block != NULL, TC_INVALID);
#if TC_CHECKS
  /* *block is NULL after every failure; set here only on the paths that fail. */
  tc_status bad = !pool_valid(bp) ? TC_INVALID
                  : timeout != TC_NO_WAIT && !tc__may_block() ? TC_CALLER_ERROR
                                                              : TC_OK;
  if (bad != TC_OK) {
    *block = NULL;
    return bad;
  }
#endif
  unsigned s = tc__lock();
  uintptr_t *h = bp->free_list;
  if (h == NULL) return alloc_slow(bp, block, timeout, s);
  bp->free_list = (uintptr_t *)*h;
  *h = allocated_tag(bp);
  bp->available--;
  tc__unlock_quiet(s);
  *block = h + 1;
  return TC_OK;
}

tc_status TC_BODY(tc_block_free)(void *block)
{
  TC_ISR_CHECK("tc_block_free");
  /* Blocks are 8-byte aligned: anything else is refused before the header is read. */
  TC_ARG_CHECK(block != NULL && ((uintptr_t)block & 7u) == 0, TC_INVALID);
  uintptr_t *h = header_of(block);
  unsigned s = tc__lock();
#if TC_CHECKS
  tc_block_pool *bp = owner_of(block);
  if (bp == NULL) {
    tc__unlock_quiet(s);
    return TC_INVALID; /* not a block of a live pool, or not allocated (a double free) */
  }
#else
  uintptr_t tag = *h;
  if (!(tag & 1u)) {
    tc__unlock_quiet(s);
    return TC_INVALID; /* a free-list link: the block is already free */
  }
  tc_block_pool *bp = (tc_block_pool *)(tag ^ ALLOCATED);
#endif
  tc_node *w = bp->waiters.threads.head;
  if (w != NULL) {
    /* Straight to the first waiter; its header stays "allocated". */
    tc_thread *t = TC_THREAD_OF(w);
    t->wait_info[0] = (uintptr_t)block;
    tc__thread_wake(t, TC_OK);
    tc__sched_dispatch();
    tc__unlock(s);
    return TC_OK;
  }
  *h = (uintptr_t)bp->free_list;
  bp->free_list = h;
  bp->available++;
  tc__unlock_quiet(s);
  return TC_OK;
}

tc_status TC_BODY(tc_block_pool_delete)(tc_block_pool *bp)
{
  TC_ISR_CHECK("tc_block_pool_delete");
  TC_ARG_CHECK(pool_valid(bp), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  tc__object_delete(&bp->waiters, &bp->magic, &tc__k.block_pools, &bp->created_node);
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_block_pool_info(const tc_block_pool *bp, tc_block_pool_info_t *out)
{
  TC_ISR_CHECK("tc_block_pool_info");
  TC_ARG_CHECK(pool_valid(bp) && out != NULL, TC_INVALID);
  unsigned s = tc__lock();
  out->name = bp->name;
  out->block_size = bp->block_size;
  out->total = bp->total;
  out->available = bp->available;
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

static const char *check_pool(const tc_block_pool *bp)
{
  if (bp->magic != TC_MAGIC_BLOCK_POOL) return "block pool list holds something that is not a block pool";
  if (bp->block_size == 0 || bp->block_size % 8 != 0 || bp->slot != TC_BLOCK_HEADER + bp->block_size)
    return "block pool geometry corrupted";
  if (((uintptr_t)bp->start & 7u) != 0 || (size_t)(bp->end - bp->start) != (size_t)bp->total * bp->slot)
    return "block pool bounds corrupted";
  if (bp->available > bp->total) return "block pool has more free blocks than blocks";

  /* Every header is a link (free) or this pool's tag (allocated); count both kinds. */
  uint32_t free_headers = 0;
  for (const uint8_t *slot = bp->start; slot < bp->end; slot += bp->slot) {
    uintptr_t h = ((const uintptr_t *)(slot + TC_BLOCK_HEADER))[-1];
    if (h == allocated_tag(bp)) continue;
    if ((h & 1u) != 0u) return "block header overwritten (neither free nor allocated)";
    free_headers++;
  }
  if (free_headers != bp->available) return "block pool free count disagrees with its headers";

  /* The free list visits exactly the free slots, each once. */
  uint32_t listed = 0;
  for (const uintptr_t *h = bp->free_list; h != NULL; h = (const uintptr_t *)*h) {
    const uint8_t *blk = (const uint8_t *)(h + 1);
    if (blk < bp->start + TC_BLOCK_HEADER || blk >= bp->end ||
        (size_t)(blk - (bp->start + TC_BLOCK_HEADER)) % bp->slot != 0)
      return "block free list leaves its pool";
    if (++listed > bp->available) return "block free list longer than the free count (a cycle?)";
  }
  if (listed != bp->available) return "block free list shorter than the free count";

  size_t waiting;
  const char *e = tc__waitq_check(&bp->waiters, &waiting);
  if (e != NULL) return e;
  if (waiting != 0 && bp->available != 0) return "threads wait on a block pool that has free blocks";
  return NULL;
}

const char *tc__block_pool_check(void)
{
  const tc_node *n = tc__k.block_pools.head;
  if (n == NULL) return NULL;
  do {
    const char *e = check_pool(TC_CONST_CONTAINER_OF(n, tc_block_pool, created_node));
    if (e != NULL) return e;
    n = n->next;
  } while (n != tc__k.block_pools.head);
  return NULL;
}
