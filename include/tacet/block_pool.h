/* SPDX-License-Identifier: MIT */
/*
 * Block pools: fixed-size blocks carved from memory the application gives, allocated and
 * freed in constant time (Ahn et al.'s memory pool level: deterministic, no fragmentation).
 *
 * Layout. The memory is cut into equal slots of TC_BLOCK_HEADER + block_size bytes (the
 * block size rounded up to 8); the block handed out is 8-byte aligned (so it may hold any
 * object that needs 8-byte alignment, uint64_t and double included, on every port) and is
 * preceded by one header word:
 *
 *   - free block: the header is the free-list link (the next free block's header, or 0);
 *     free blocks are a LIFO list, so allocating and freeing are O(1);
 *   - allocated block: the header is the pool's address XOR an odd tag.
 *
 * The free list is threaded through the headers, never through the blocks themselves, so
 * what the application writes into its block cannot break the pool.
 *
 * tc_block_free(ptr) finds the pool from the pointer alone: it reads the word before ptr.
 * With TC_CHECKS=1 ptr must be 8-byte aligned (checked before that read), the header must be
 * the allocated tag of a pool that exists (looked for among the created pools by address,
 * never followed before it is found), and ptr must be the start of one of that pool's
 * blocks (address range and slot position). A free-list link is never a tag, so freeing a
 * block twice, a pointer that is not a block, or a block of a deleted pool is refused
 * (TC_INVALID) and changes nothing. O(1) with one pool. With TC_CHECKS=0 the header alone
 * names the pool (one load), and a double free is still refused (its header is a link).
 *
 * Waiting. tc_block_alloc() with a timeout blocks while the pool is empty; waiters are served
 * in priority order (FIFO among equal priorities), and a free with waiters hands the block
 * straight to the first of them (the pool's count stays 0 while threads wait).
 */
#ifndef TACET_BLOCK_POOL_H
#define TACET_BLOCK_POOL_H

#include "tacet/types.h"

/* Bytes that precede every block (its header word, in an 8-byte slot). */
#define TC_BLOCK_HEADER 8u

/* Memory for `n` blocks of `block_size` bytes, when that memory is 8-byte aligned. */
#define TC_BLOCK_POOL_MEM(block_size, n) \
  ((size_t)(n) * (TC_BLOCK_HEADER + (((size_t)(block_size) + 7u) & ~(size_t)7u)))

/* The block pool control block. Allocated by the application; all fields are private. */
typedef struct tc_block_pool {
  uint32_t magic;
  const char *name;
  tc_node created_node; /* in the kernel's list of created block pools */
  uint8_t *start, *end; /* the slots, [start, end) */
  size_t block_size;    /* usable bytes per block, a multiple of 8 */
  size_t slot;          /* TC_BLOCK_HEADER + block_size */
  uint32_t total;       /* blocks */
  uint32_t available;   /* free blocks */
  uintptr_t *free_list; /* header of the first free block (NULL: none) */
  tc_waitq waiters;     /* threads waiting for a block */
} tc_block_pool;

typedef struct {
  const char *name;
  size_t block_size; /* usable bytes per block (the size asked for, rounded up to 8) */
  uint32_t total;    /* blocks */
  uint32_t available;
  uint32_t waiting;  /* threads waiting for a block */
} tc_block_pool_info_t;

/* Create a pool of blocks of `block_size` bytes in `mem` (mem_size bytes; unaligned memory
 * loses its first bytes to alignment; TC_BLOCK_POOL_MEM gives the size for n blocks).
 * Context: thread or startup. Does not reschedule.
 * Returns TC_OK; TC_INVALID (bp or mem NULL, block_size 0, room for no block, bp already
 * created, memory overlapping another pool's); TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_block_pool_create(tc_block_pool *bp, const char *name, size_t block_size, void *mem,
                               size_t mem_size);

/* Take a block; *block receives it (NULL on failure). When the pool is empty, wait up to
 * `timeout` ticks (TC_NO_WAIT: return at once, TC_WAIT_FOREVER: no limit).
 * Context: any with TC_NO_WAIT; otherwise thread, scheduler unlocked. Blocks.
 * Returns TC_OK; TC_NO_INSTANCE (empty, TC_NO_WAIT); TC_TIMEOUT; TC_DELETED (the pool was
 * deleted while waiting); TC_WAIT_ABORTED (tc_thread_wait_abort, or a signal handler's
 * tc_signal_abort_wait); TC_INVALID (not a pool, block NULL); TC_CALLER_ERROR (a timeout from
 * an interrupt, an HISR or timer callback, with the scheduler locked, or before the kernel
 * runs). */
tc_status tc_block_alloc(tc_block_pool *bp, void **block, uint32_t timeout);

/* Give a block back to its pool; with threads waiting it goes straight to the first of them.
 * Context: any. May reschedule.
 * Returns TC_OK; TC_INVALID (NULL, not a block of a pool that exists, already free). */
tc_status tc_block_free(void *block);

/* Remove a pool from the kernel; its waiters return TC_DELETED. Blocks still allocated stay
 * the application's memory (freeing them afterwards returns TC_INVALID).
 * Context: thread or startup. May reschedule.
 * Returns TC_OK; TC_INVALID (not a pool); TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_block_pool_delete(tc_block_pool *bp);

/* A snapshot of a pool. Context: any. Returns TC_OK; TC_INVALID (not a pool, out NULL). */
tc_status tc_block_pool_info(const tc_block_pool *bp, tc_block_pool_info_t *out);

#endif /* TACET_BLOCK_POOL_H */
