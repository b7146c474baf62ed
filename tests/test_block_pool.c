/* SPDX-License-Identifier: MIT */
/* Block pools: geometry and alignment, exhaustion and refill, double frees and foreign
 * pointers refused with the pool intact, waiters in priority order with direct hand-over,
 * timeouts, deletion with waiters, interrupt use, caller errors. */
#include <string.h>

#include "tct.h"

static tc_thread th[6];
static tc_block_pool bp, bp2;
static tc_block_pool bp3 __attribute__((unused)); /* only the front layer's refusals use it */
static uint64_t mem[256] __attribute__((aligned(8)));
static uint64_t mem2[64] __attribute__((aligned(8)));

#define N_SMALL 4u
#define SMALL_SIZE 24u

static void small_pool(void)
{
  OK(tc_block_pool_create(&bp, "bp", SMALL_SIZE, mem, TC_BLOCK_POOL_MEM(SMALL_SIZE, N_SMALL)));
}

static uint32_t available(const tc_block_pool *p)
{
  tc_block_pool_info_t i;
  OK(tc_block_pool_info(p, &i));
  return i.available;
}

/* ---- creation ---------------------------------------------------------------------------- */

static void create_and_geometry(void)
{
  tct_begin();
  static uint64_t local[4];
  (void)local; /* unused when TC_CHECKS=0 */
  EXPECT_ARG(tc_block_free(&local[2]), TC_INVALID); /* no pool at all */
  EXPECT_ARG(tc_block_pool_create(&bp, "x", SIZE_MAX / 2 + 1, mem, sizeof mem), TC_INVALID);
  /* Memory that would wrap around the address space, or end before its first aligned byte. */
  EXPECT_ARG(tc_block_pool_create(&bp, "x", 8, mem, UINTPTR_MAX - (uintptr_t)mem + 1), TC_INVALID);
  EXPECT_ARG(tc_block_pool_create(&bp, "x", 8, (uint8_t *)mem + 1, 3), TC_INVALID);
  EXPECT_ARG(tc_block_pool_create(NULL, "x", 8, mem, sizeof mem), TC_INVALID);
  EXPECT_ARG(tc_block_pool_create(&bp, "x", 8, NULL, sizeof mem), TC_INVALID);
  EXPECT_ARG(tc_block_pool_create(&bp, "x", 0, mem, sizeof mem), TC_INVALID);
  EXPECT_ARG(tc_block_pool_create(&bp, "x", 8, mem, TC_BLOCK_POOL_MEM(8, 1) - 1), TC_INVALID); /* no block */
  EXPECT_ARG(tc_block_pool_info(NULL, &(tc_block_pool_info_t){0}), TC_INVALID);

  /* Exactly N blocks in TC_BLOCK_POOL_MEM(size, N); the size is rounded up to 8. */
  OK(tc_block_pool_create(&bp, "bp", 13, mem, TC_BLOCK_POOL_MEM(13, 5)));
  tc_block_pool_info_t i;
  OK(tc_block_pool_info(&bp, &i));
  CHECK(i.name != NULL && strcmp(i.name, "bp") == 0);
  CHECK_EQ(i.block_size, 16);
  CHECK_EQ(i.total, 5);
  CHECK_EQ(i.available, 5);
  CHECK_EQ(i.waiting, 0);
  EXPECT_ARG(tc_block_pool_info(&bp, NULL), TC_INVALID);
  EXPECT_ARG(tc_block_pool_create(&bp, "again", 8, mem2, sizeof mem2), TC_INVALID);
  /* Overlapping another pool's memory: the owner of a block would be ambiguous. */
  EXPECT_ARG(tc_block_pool_create(&bp2, "overlap", 8, (uint8_t *)mem + 40, 200), TC_INVALID);

  /* Unaligned memory loses its first bytes: the blocks are still 8-byte aligned. */
  OK(tc_block_pool_create(&bp2, "odd", 8, (uint8_t *)mem2 + 3, sizeof mem2 - 3));
  OK(tc_block_pool_info(&bp2, &i));
  CHECK_EQ(i.total, (sizeof mem2 - 8) / (TC_BLOCK_HEADER + 8));
  void *b;
  for (uint32_t k = 0; k < i.total; k++) {
    OK(tc_block_alloc(&bp2, &b, TC_NO_WAIT));
    CHECK(((uintptr_t)b & 7u) == 0);
    CHECK((uint8_t *)b >= (uint8_t *)mem2 + 3 && (uint8_t *)b + 8 <= (uint8_t *)mem2 + sizeof mem2);
  }
  EXPECT(tc_block_alloc(&bp2, &b, TC_NO_WAIT), TC_NO_INSTANCE);
  CHECK(b == NULL);
  OK(tc_block_pool_delete(&bp2));
  OK(tc_block_pool_delete(&bp));
  EXPECT_ARG(tc_block_pool_delete(&bp), TC_INVALID);
  OK(tc_block_pool_create(&bp, "bp", 8, mem, sizeof mem)); /* the block can be used again */
}

/* Pools side by side in one buffer, the second created below the first: each block goes
 * back to its own pool. */
static void pools_side_by_side(void)
{
  tct_begin();
  size_t half = sizeof mem2 / 2;
  OK(tc_block_pool_create(&bp2, "upper", 8, (uint8_t *)mem2 + half, half));
  OK(tc_block_pool_create(&bp, "lower", 8, mem2, half));
  EXPECT_ARG(tc_block_pool_create(&bp3, "across", 8, (uint8_t *)mem2 + half - 16, 32), TC_INVALID);
  void *lo, *hi;
  OK(tc_block_alloc(&bp, &lo, TC_NO_WAIT));
  OK(tc_block_alloc(&bp2, &hi, TC_NO_WAIT));
  CHECK((uint8_t *)lo < (uint8_t *)mem2 + half && (uint8_t *)hi >= (uint8_t *)mem2 + half);
  uint32_t total = available(&bp) + 1u;
  OK(tc_block_free(hi));
  OK(tc_block_free(lo));
  CHECK_EQ(available(&bp), total);
  CHECK_EQ(available(&bp2), total);
}

/* ---- allocation ---------------------------------------------------------------------------- */

static void exhaust_and_refill(void)
{
  tct_begin();
  small_pool();
  void *blk[N_SMALL], *extra = (void *)1;
  for (unsigned round = 0; round < 3; round++) {
    for (unsigned k = 0; k < N_SMALL; k++) {
      OK(tc_block_alloc(&bp, &blk[k], TC_NO_WAIT));
      CHECK(((uintptr_t)blk[k] & 7u) == 0);
      for (unsigned j = 0; j < k; j++) CHECK(blk[j] != blk[k]);
      memset(blk[k], 0xFF, SMALL_SIZE); /* the whole block is the application's */
    }
    CHECK_EQ(available(&bp), 0);
    EXPECT(tc_block_alloc(&bp, &extra, TC_NO_WAIT), TC_NO_INSTANCE);
    CHECK(extra == NULL);
    /* Free in a scrambled order; LIFO reuse must still hand out every block. */
    static const unsigned order[N_SMALL] = {2, 0, 3, 1};
    for (unsigned k = 0; k < N_SMALL; k++) OK(tc_block_free(blk[order[k]]));
    CHECK_EQ(available(&bp), N_SMALL);
  }
  EXPECT_ARG(tc_block_alloc(NULL, &extra, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_block_alloc(&bp, NULL, TC_NO_WAIT), TC_INVALID);
}

static void bad_frees_change_nothing(void)
{
  tct_begin();
  small_pool();
  OK(tc_block_pool_create(&bp2, "bp2", 8, mem2, sizeof mem2));
  void *a, *b, *c;
  OK(tc_block_alloc(&bp, &a, TC_NO_WAIT));
  OK(tc_block_alloc(&bp, &b, TC_NO_WAIT));
  OK(tc_block_alloc(&bp2, &c, TC_NO_WAIT));
  OK(tc_block_free(b));
  EXPECT(tc_block_free(b), TC_INVALID); /* double free: its header is a link now */
  CHECK_EQ(available(&bp), N_SMALL - 1);
  EXPECT_ARG(tc_block_free(NULL), TC_INVALID);
  static uint64_t local[4];
  (void)local; /* unused when TC_CHECKS=0 */
  EXPECT_ARG(tc_block_free(&local[2]), TC_INVALID);                  /* not pool memory */
  EXPECT_ARG(tc_block_free((uint8_t *)a + 8), TC_INVALID);           /* inside a block */
  EXPECT_ARG(tc_block_free((uint8_t *)a + 4), TC_INVALID);           /* unaligned */
  EXPECT_ARG(tc_block_free((uint8_t *)a - TC_BLOCK_HEADER), TC_INVALID); /* its slot start */
  EXPECT_ARG(tc_block_free((uint8_t *)mem + TC_BLOCK_POOL_MEM(SMALL_SIZE, N_SMALL) + 8), TC_INVALID);
  /* A block of another pool goes back to that pool. */
  OK(tc_block_free(c));
  EXPECT(tc_block_free(c), TC_INVALID);
  /* Once its pool is gone, a block is just memory. */
  OK(tc_block_alloc(&bp2, &c, TC_NO_WAIT));
  OK(tc_block_pool_delete(&bp2));
  EXPECT_ARG(tc_block_free(c), TC_INVALID);
  OK(tc_block_free(a));
  CHECK_EQ(available(&bp), N_SMALL);
}

/* An application that writes before its block breaks the pool: tc_check() says so, and the
 * damaged block cannot be freed (it is no longer recognisably allocated). */
static void corruption_is_detected(void)
{
  tct_begin();
  small_pool();
  void *a;
  OK(tc_block_alloc(&bp, &a, TC_NO_WAIT));
  uintptr_t *header = (uintptr_t *)a - 1;
  uintptr_t saved = *header;
  *header ^= 2u; /* still odd: neither a link nor this pool's tag */
  CHECK(tc_check() != NULL);
#if TC_CHECKS /* without the front layer a damaged header is trusted */
  CHECK_EQ(tc_block_free(a), TC_INVALID);
#endif
  *header = saved;
  STEP();
  OK(tc_block_free(a));
}

/* ---- waiting ------------------------------------------------------------------------------ */

static void *held[N_SMALL];

static void waiter(void *arg)
{
  void *blk = NULL;
  tc_status st = tc_block_alloc(&bp, &blk, TC_WAIT_FOREVER);
  tct_log("%s:%d", (const char *)arg, (int)st);
  if (st == TC_OK) {
    CHECK(blk != NULL);
    OK(tc_block_free(blk));
  } else {
    CHECK(blk == NULL);
  }
}

static void giver(void *arg)
{
  (void)arg;
  for (unsigned k = 0; k < N_SMALL; k++) OK(tc_block_alloc(&bp, &held[k], TC_NO_WAIT));
  OK(tc_thread_resume(&th[1])); /* priorities 4, 2, 6, 2: they all block */
  OK(tc_thread_resume(&th[2]));
  OK(tc_thread_resume(&th[3]));
  OK(tc_thread_resume(&th[4]));
  tc_block_pool_info_t i;
  OK(tc_block_pool_info(&bp, &i));
  CHECK_EQ(i.waiting, 4);
  tct_log("free");
  /* Each free goes straight to the first waiter (the pool's count stays 0), which runs at
   * once (all are above the giver), frees its block into the next waiter's hands ... */
  OK(tc_block_free(held[0]));
  CHECK_EQ(available(&bp), 1);
  tct_log("end");
}

static void priority_order_and_hand_over(void)
{
  tct_begin();
  small_pool();
  OK(tc_thread_create(&th[0], "g", giver, NULL, TCT_STACK(0), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "w4", waiter, "w4", TCT_STACK(1), 4, 4, 0, 0));
  OK(tc_thread_create(&th[2], "w2a", waiter, "w2a", TCT_STACK(2), 2, 2, 0, 0));
  OK(tc_thread_create(&th[3], "w6", waiter, "w6", TCT_STACK(3), 6, 6, 0, 0));
  OK(tc_thread_create(&th[4], "w2b", waiter, "w2b", TCT_STACK(4), 2, 2, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("free w2a:0 w2b:0 w4:0 w6:0 end");
}

static void timed_waiter(void *arg)
{
  (void)arg;
  void *blk;
  uint32_t t0 = tc_tick_get();
  EXPECT(tc_block_alloc(&bp, &blk, 7), TC_TIMEOUT);
  CHECK_EQ(tc_tick_get() - t0, 7);
  CHECK(blk == NULL);
  EXPECT(tc_block_alloc(&bp, &blk, TC_WAIT_FOREVER), TC_WAIT_ABORTED);
  tct_log("aborted@%u", (unsigned)tc_tick_get());
  EXPECT(tc_block_alloc(&bp, &blk, TC_WAIT_FOREVER), TC_DELETED);
  tct_log("deleted@%u", (unsigned)tc_tick_get());
}

static void timer_of_events(void *arg)
{
  (void)arg;
  for (unsigned k = 0; k < N_SMALL; k++) OK(tc_block_alloc(&bp, &held[k], TC_NO_WAIT));
  OK(tc_thread_resume(&th[1]));
  OK(tc_thread_resume(&th[2])); /* another waiter, lower */
  OK(tc_thread_sleep(10));
  OK(tc_thread_wait_abort(&th[1]));
  OK(tc_thread_sleep(5));
  OK(tc_block_pool_delete(&bp)); /* both waiters return TC_DELETED */
  tct_log("end");
}

static void timeout_abort_delete(void)
{
  tct_begin();
  small_pool();
  OK(tc_thread_create(&th[0], "e", timer_of_events, NULL, TCT_STACK(0), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "t", timed_waiter, NULL, TCT_STACK(1), 3, 3, 0, 0));
  OK(tc_thread_create(&th[2], "w", waiter, "w", TCT_STACK(2), 5, 5, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("aborted@10 deleted@15 w:4 end"); /* TC_DELETED == 4 */
}

/* ---- contexts ------------------------------------------------------------------------------ */

static void isr_user(void *arg)
{
  (void)arg;
  void *a, *b;
  OK(tc_block_alloc(&bp, &a, TC_NO_WAIT));
  tc_isr_enter();
  OK(tc_block_alloc(&bp, &b, TC_NO_WAIT)); /* ISR-safe without a timeout */
  void *c = &c;
  EXPECT_ARG(tc_block_alloc(&bp, &c, 1), TC_CALLER_ERROR);
#if TC_CHECKS
  CHECK(c == NULL); /* a failed call leaves NULL */
#endif
  EXPECT_ARG(tc_block_pool_create(&bp2, "x", 8, mem2, sizeof mem2), TC_CALLER_ERROR);
  EXPECT_ARG(tc_block_pool_delete(&bp), TC_CALLER_ERROR);
  OK(tc_block_free(b));
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_block_alloc(&bp, &c, TC_WAIT_FOREVER), TC_CALLER_ERROR);
  tc_sched_unlock();
  /* Empty the pool; a higher waiter gets the block an "interrupt" frees, at the exit. */
  for (unsigned k = 0; k + 1 < N_SMALL; k++) OK(tc_block_alloc(&bp, &held[k], TC_NO_WAIT));
  OK(tc_thread_resume(&th[1]));
  tc_isr_enter();
  OK(tc_block_free(a));
  tct_log("isr");
  tc_isr_exit();
  tct_log("a");
}

static void interrupts_and_locks(void)
{
  tct_begin();
  small_pool();
  void *b;
  EXPECT_ARG(tc_block_alloc(&bp, &b, 5), TC_CALLER_ERROR); /* before the kernel runs */
  OK(tc_block_alloc(&bp, &b, TC_NO_WAIT));
  OK(tc_block_free(b));
  OK(tc_thread_create(&th[0], "a", isr_user, NULL, TCT_STACK(0), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "w", waiter, "w", TCT_STACK(1), 3, 3, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("isr w:0 a");
}

TCT_MAIN("test_block_pool",
         TCT_CASE(create_and_geometry),
         TCT_CASE(pools_side_by_side),
         TCT_CASE(exhaust_and_refill),
         TCT_CASE(bad_frees_change_nothing),
         TCT_CASE(corruption_is_detected),
         TCT_CASE(priority_order_and_hand_over),
         TCT_CASE(timeout_abort_delete),
         TCT_CASE(interrupts_and_locks))
