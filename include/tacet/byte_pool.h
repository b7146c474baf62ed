/* SPDX-License-Identifier: MIT */
/*
 * Byte pools: variable-size allocation from memory the application gives (Ahn et al.'s heap
 * level), first fit with immediate coalescing (Knuth's boundary-tag method).
 *
 * Layout. The pool is a sequence of blocks that tile it exactly. Every block starts with a
 * header of TC_BYTE_HEADER bytes (two words: its size with "in use" and "previous in use"
 * bits, and the pool's address XOR a tag that says in use or free); the memory handed out
 * follows the header and is 8-byte aligned. A free block also holds, in the space it does
 * not lend, its links in the free list and a copy of its size in its last word, so that
 * freeing finds both neighbours in O(1) and merges with whichever is free: two free blocks
 * are never adjacent.
 *
 * Allocating walks the free list in address order and takes the low part of the first block
 * that is large enough, splitting off the rest when the rest can be a block by itself
 * (TC_BYTE_MIN_BLOCK). Time: O(free blocks) to allocate; freeing is O(1) except that a freed
 * block with no free neighbour is inserted in address order, O(free blocks). These walks run
 * with the kernel's interrupts masked, so their length -- bounded by the number of fragments --
 * adds to interrupt latency: where latency is tight, use block pools (O(1)).
 *
 * tc_byte_free(ptr) finds the pool from the pointer: with TC_CHECKS=1 by address range over
 * the created byte pools (no memory outside them is read), then it verifies the header
 * (in-use tag of that pool, sane size) and its agreement with both neighbours' boundary tags.
 * A double free is always refused (TC_INVALID, nothing changed): a freed block's header says
 * free, and the header of a block merged into a neighbour is erased. Deleting a pool erases
 * the headers of all its blocks, so memory it lent out is refused even by a pool created
 * later with the same control block on the same memory. A pointer into the
 * middle of memory handed out again is refused unless the bytes before it happen to repeat a
 * valid header and its neighbours' tags, which two tag words make vanishingly unlikely for
 * data that was not written to fool the pool. With TC_CHECKS=0 the header alone names the
 * pool.
 *
 * Waiting. tc_byte_alloc() with a timeout blocks while no free block is large enough.
 * Waiters are served in priority order (FIFO among equal priorities) whenever memory is
 * freed, for as long as the first of them fits: a request that does not fit yet holds back
 * the smaller requests behind it, so small allocations cannot starve a large one. When the
 * first waiter leaves (timeout, abort, priority change) the next are examined at once.
 */
#ifndef TACET_BYTE_POOL_H
#define TACET_BYTE_POOL_H

#include "tacet/types.h"

/* Bytes of header before every allocation (two words). */
#define TC_BYTE_HEADER (2u * sizeof(void *))
/* Smallest block: a header, two free-list links and the size copy, rounded up to 8. */
#define TC_BYTE_MIN_BLOCK ((TC_BYTE_HEADER + 3u * sizeof(void *) + 7u) & ~(size_t)7u)

/* The byte pool control block. Allocated by the application; all fields are private. */
typedef struct tc_byte_pool {
  uint32_t magic;
  const char *name;
  tc_node created_node;  /* in the kernel's list of created byte pools */
  uint8_t *start, *end;  /* the blocks, [start, end), 8-byte aligned */
  void *free_list;       /* first free block, in address order (NULL: none) */
  size_t available;      /* bytes in free blocks, headers included */
  uint32_t free_blocks, used_blocks;
  tc_waitq waiters;      /* threads waiting for memory */
} tc_byte_pool;

typedef struct {
  const char *name;
  size_t size;          /* bytes managed (after alignment) */
  size_t available;     /* bytes in free blocks, headers included */
  size_t largest;       /* largest single allocation that would succeed now */
  uint32_t free_blocks; /* fragments */
  uint32_t used_blocks; /* allocations outstanding */
  uint32_t waiting;     /* threads waiting for memory */
} tc_byte_pool_info_t;

/* Create a byte pool in `mem` (mem_size bytes; unaligned ends are trimmed to 8 bytes).
 * Context: thread or startup. Does not reschedule.
 * Returns TC_OK; TC_INVALID (bp or mem NULL, less than TC_BYTE_MIN_BLOCK bytes, bp already
 * created, memory overlapping another byte pool's); TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_byte_pool_create(tc_byte_pool *bp, const char *name, void *mem, size_t mem_size);

/* Allocate `size` bytes, 8-byte aligned; *mem receives them (NULL on failure). When no free
 * block is large enough, wait up to `timeout` ticks (see above for the order of service).
 * Context: any with TC_NO_WAIT; otherwise thread, scheduler unlocked. Blocks.
 * Returns TC_OK; TC_NO_INSTANCE (no room, TC_NO_WAIT); TC_TIMEOUT; TC_DELETED;
 * TC_WAIT_ABORTED; TC_INVALID (not a pool, mem NULL, size 0, or larger than the pool could
 * ever give); TC_CALLER_ERROR (a timeout from an interrupt, an HISR or timer callback, with
 * the scheduler locked, or before the kernel runs). */
tc_status tc_byte_alloc(tc_byte_pool *bp, void **mem, size_t size, uint32_t timeout);

/* Give memory back to its pool, merging it with free neighbours, then serve waiters.
 * Context: any. May reschedule.
 * Returns TC_OK; TC_INVALID (NULL, not memory handed out by a byte pool that exists, already
 * free). */
tc_status tc_byte_free(void *mem);

/* Remove a pool from the kernel; its waiters return TC_DELETED.
 * Context: thread or startup. May reschedule.
 * Returns TC_OK; TC_INVALID (not a pool); TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_byte_pool_delete(tc_byte_pool *bp);

/* A snapshot of a pool (`largest` walks the free list). Context: any.
 * Returns TC_OK; TC_INVALID (not a pool, out NULL). */
tc_status tc_byte_pool_info(const tc_byte_pool *bp, tc_byte_pool_info_t *out);

#endif /* TACET_BYTE_POOL_H */
