/* SPDX-License-Identifier: MIT */
/* Byte pools: alignment and sizes, first fit, coalescing with either and both neighbours,
 * fragmentation then one large allocation, double frees, foreign pointers and headers forged
 * in an allocation refused with the pool intact, a randomized workout with the invariants checked after every step,
 * waiters in priority order (a large first waiter holds back smaller ones; when it leaves
 * the next are served at once), timeouts, deletion, interrupt use, caller errors. */
#include <string.h>

#include "tct.h"

static tc_thread th[6];
static tc_byte_pool bp, bp2;
static uint64_t mem[512];  /* 4 KiB */
static uint64_t mem2[64];

static tc_byte_pool_info_t info(const tc_byte_pool *p)
{
  tc_byte_pool_info_t i;
  OK(tc_byte_pool_info(p, &i));
  return i;
}

/* ---- creation and sizes ------------------------------------------------------------------- */

static void create_and_sizes(void)
{
  tct_begin();
  static uint64_t local[4];
  (void)local; /* unused when TC_CHECKS=0 */
  EXPECT_ARG(tc_byte_free(&local[2]), TC_INVALID); /* no pool at all */
  /* Memory that would wrap around the address space, or holds no aligned block. */
  EXPECT_ARG(tc_byte_pool_create(&bp, "x", mem, UINTPTR_MAX - (uintptr_t)mem + 1), TC_INVALID);
  EXPECT_ARG(tc_byte_pool_create(&bp, "x", (uint8_t *)mem + 1, 3), TC_INVALID);
  EXPECT_ARG(tc_byte_pool_create(NULL, "x", mem, sizeof mem), TC_INVALID);
  EXPECT_ARG(tc_byte_pool_create(&bp, "x", NULL, sizeof mem), TC_INVALID);
  EXPECT_ARG(tc_byte_pool_create(&bp, "x", mem, TC_BYTE_MIN_BLOCK - 1), TC_INVALID);
  EXPECT_ARG(tc_byte_pool_info(NULL, &(tc_byte_pool_info_t){0}), TC_INVALID);
  OK(tc_byte_pool_create(&bp, "bp", (uint8_t *)mem + 3, sizeof mem - 3)); /* trimmed to 8 */
  tc_byte_pool_info_t i = info(&bp);
  CHECK(strcmp(i.name, "bp") == 0);
  CHECK_EQ(i.size, sizeof mem - 8);
  CHECK_EQ(i.available, sizeof mem - 8);
  CHECK_EQ(i.largest, sizeof mem - 8 - TC_BYTE_HEADER);
  CHECK_EQ(i.free_blocks, 1);
  CHECK_EQ(i.used_blocks, 0);
  EXPECT_ARG(tc_byte_pool_info(&bp, NULL), TC_INVALID);
  EXPECT_ARG(tc_byte_pool_create(&bp, "again", mem2, sizeof mem2), TC_INVALID);
  EXPECT_ARG(tc_byte_pool_create(&bp2, "overlap", (uint8_t *)mem + 512, 1024), TC_INVALID);

  void *p, *q;
  EXPECT_ARG(tc_byte_alloc(NULL, &p, 8, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_byte_alloc(&bp, NULL, 8, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_byte_alloc(&bp, &p, 0, TC_NO_WAIT), TC_INVALID);
  EXPECT(tc_byte_alloc(&bp, &p, sizeof mem, TC_NO_WAIT), TC_INVALID); /* could never fit */
  CHECK(p == NULL);
  /* Every size from 1 byte: 8-byte aligned, writable to its last byte, distinct. */
  for (size_t size = 1; size <= 40; size++) {
    OK(tc_byte_alloc(&bp, &p, size, TC_NO_WAIT));
    CHECK(((uintptr_t)p & 7u) == 0);
    memset(p, 0xEE, size);
    OK(tc_byte_alloc(&bp, &q, size, TC_NO_WAIT));
    CHECK((uint8_t *)q >= (uint8_t *)p + size);
    OK(tc_byte_free(p));
    OK(tc_byte_free(q));
  }
  i = info(&bp);
  CHECK_EQ(i.free_blocks, 1);
  CHECK_EQ(i.available, i.size);
  /* The whole pool in one allocation, then nothing. */
  OK(tc_byte_alloc(&bp, &p, i.largest, TC_NO_WAIT));
  EXPECT(tc_byte_alloc(&bp, &q, 1, TC_NO_WAIT), TC_NO_INSTANCE);
  CHECK(q == NULL);
  OK(tc_byte_free(p));
  OK(tc_byte_pool_delete(&bp));
  EXPECT_ARG(tc_byte_pool_delete(&bp), TC_INVALID);
  EXPECT_ARG(tc_byte_alloc(&bp, &p, 8, TC_NO_WAIT), TC_INVALID);
}

/* ---- first fit and coalescing -------------------------------------------------------------- */

static void first_fit_and_coalescing(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  const size_t total = info(&bp).size;
  void *b[10];
  for (unsigned k = 0; k < 10; k++) OK(tc_byte_alloc(&bp, &b[k], 100, TC_NO_WAIT));
  CHECK(b[0] < b[1] && b[8] < b[9]); /* first fit: from the bottom up */
  tc_byte_pool_info_t i = info(&bp);
  CHECK_EQ(i.used_blocks, 10);
  CHECK_EQ(i.free_blocks, 1); /* the tail */

  /* Free every other block: five holes that do not touch. */
  for (unsigned k = 0; k < 10; k += 2) OK(tc_byte_free(b[k]));
  i = info(&bp);
  CHECK_EQ(i.free_blocks, 6);
  /* A request that fits a hole takes the lowest hole. */
  void *p;
  OK(tc_byte_alloc(&bp, &p, 50, TC_NO_WAIT));
  CHECK(p == b[0]);
  OK(tc_byte_free(p));

  OK(tc_byte_free(b[3])); /* merges with both neighbours (2 and 4) */
  CHECK_EQ(info(&bp).free_blocks, 5);
  OK(tc_byte_free(b[1])); /* with both (0 and 2..4) */
  CHECK_EQ(info(&bp).free_blocks, 4);
  OK(tc_byte_free(b[9])); /* with 8 on the left and the tail on the right */
  CHECK_EQ(info(&bp).free_blocks, 3);
  OK(tc_byte_free(b[5])); /* with 4.. on the left and 6 on the right */
  CHECK_EQ(info(&bp).free_blocks, 2);
  OK(tc_byte_free(b[7])); /* the last gap: one block again */
  i = info(&bp);
  CHECK_EQ(i.free_blocks, 1);
  CHECK_EQ(i.used_blocks, 0);
  CHECK_EQ(i.available, total);
  /* So one allocation of (almost) everything succeeds. */
  OK(tc_byte_alloc(&bp, &p, total - TC_BYTE_HEADER, TC_NO_WAIT));
  OK(tc_byte_free(p));

  /* Left-only and right-only merges. */
  void *x, *y, *z;
  OK(tc_byte_alloc(&bp, &x, 64, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp, &y, 64, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp, &z, 64, TC_NO_WAIT));
  OK(tc_byte_free(x));
  OK(tc_byte_free(y)); /* left neighbour free, right (z) in use */
  CHECK_EQ(info(&bp).free_blocks, 2);
  OK(tc_byte_alloc(&bp, &x, 128, TC_NO_WAIT));
  CHECK(x == y || (uint8_t *)x < (uint8_t *)z); /* the merged hole serves it */
  OK(tc_byte_free(z)); /* right neighbour (the tail) free */
  OK(tc_byte_free(x));
  CHECK_EQ(info(&bp).free_blocks, 1);
}

/* A small remainder is not split off: the block is handed out whole. */
static void no_tiny_fragments(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem2, sizeof mem2));
  size_t largest = info(&bp).largest;
  void *p, *q;
  OK(tc_byte_alloc(&bp, &p, largest - 8, TC_NO_WAIT)); /* leaves 8 bytes: too few for a block */
  tc_byte_pool_info_t i = info(&bp);
  CHECK_EQ(i.free_blocks, 0);
  CHECK_EQ(i.available, 0);
  EXPECT(tc_byte_alloc(&bp, &q, 1, TC_NO_WAIT), TC_NO_INSTANCE);
  OK(tc_byte_free(p));
  CHECK_EQ(info(&bp).largest, largest);
}

/* ---- bad frees ---------------------------------------------------------------------------- */

static void bad_frees_change_nothing(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  OK(tc_byte_pool_create(&bp2, "bp2", mem2, sizeof mem2));
  void *a, *b, *c, *d;
  OK(tc_byte_alloc(&bp, &a, 40, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp, &b, 40, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp, &c, 40, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp2, &d, 16, TC_NO_WAIT));
  OK(tc_byte_free(b));
  EXPECT(tc_byte_free(b), TC_INVALID); /* its header says free */
  OK(tc_byte_free(a));                 /* merges with b: b's header is erased */
  EXPECT(tc_byte_free(b), TC_INVALID);
  EXPECT(tc_byte_free(a), TC_INVALID);
  EXPECT_ARG(tc_byte_free(NULL), TC_INVALID);
  static uint64_t local[4];
  (void)local; /* unused when TC_CHECKS=0 */
  EXPECT_ARG(tc_byte_free(&local[2]), TC_INVALID);      /* not pool memory */
  EXPECT_ARG(tc_byte_free((uint8_t *)c + 8), TC_INVALID); /* inside an allocation */
  EXPECT_ARG(tc_byte_free((uint8_t *)c + 3), TC_INVALID); /* unaligned */
  EXPECT_ARG(tc_byte_free(mem), TC_INVALID);              /* the pool's first header */
  /* A forged header inside an allocation: the neighbours' tags do not agree with it. */
  uint64_t *inner = (uint64_t *)c;
  memcpy(inner, (uint8_t *)c - TC_BYTE_HEADER, TC_BYTE_HEADER);
  EXPECT_ARG(tc_byte_free((uint8_t *)c + TC_BYTE_HEADER), TC_INVALID);
  tc_byte_pool_info_t i = info(&bp);
  CHECK_EQ(i.used_blocks, 1);
  OK(tc_byte_free(d)); /* to its own pool */
  CHECK_EQ(info(&bp2).used_blocks, 0);
  OK(tc_byte_alloc(&bp2, &d, 16, TC_NO_WAIT));
  OK(tc_byte_pool_delete(&bp2));
  EXPECT_ARG(tc_byte_free(d), TC_INVALID); /* its pool is gone */
  OK(tc_byte_free(c));
  CHECK_EQ(info(&bp).free_blocks, 1);
}

/* Headers forged in an allocation (the application's memory, which it may fill with anything)
 * are refused at every check of the block and its neighbours, the pool untouched. The
 * header layout is byte_pool.c's: size and flags (1 in use, 2 previous in use), then the
 * tag; a free block ends with a copy of its size. */
typedef struct {
  size_t head;
  uintptr_t tag;
} forged;

static void forged_headers_refused(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  void *first, *u;
  OK(tc_byte_alloc(&bp, &first, 64, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp, &u, 1024, TC_NO_WAIT));
  tc_byte_pool_info_t before = info(&bp);
  const forged *real = (const forged *)((uint8_t *)u - TC_BYTE_HEADER);
  const uintptr_t used_tag = real->tag;
  const forged *rest = (const forged *)((const uint8_t *)real + (real->head & ~(size_t)7u));
  const uintptr_t free_tag = rest->tag; /* the free block after u */
  CHECK(used_tag != free_tag && (rest->head & 1u) == 0);

  /* In u: a left block L (64 bytes), the forged block F (64), its right neighbour R. */
  uint8_t *l = (uint8_t *)u + 64, *f = l + 64, *r = f + 64;
  forged *F = (forged *)f, *R = (forged *)r, *L = (forged *)l;
  size_t *left_size = (size_t *)f - 1;
  void *victim = f + TC_BYTE_HEADER;
  R->head = 64u | 2u | 1u;
  R->tag = used_tag;
  F->tag = used_tag;
  (void)victim, (void)L, (void)left_size; /* unused when TC_CHECKS=0 */

  F->head = 64u | 2u; /* not in use */
  EXPECT_ARG(tc_byte_free(victim), TC_INVALID);
  F->head = 8u | 2u | 1u; /* smaller than any block */
  EXPECT_ARG(tc_byte_free(victim), TC_INVALID);
  F->head = sizeof mem | 2u | 1u; /* past the pool's end */
  EXPECT_ARG(tc_byte_free(victim), TC_INVALID);
  F->head = 64u | 2u | 1u;
  R->head = 64u | 1u; /* the right neighbour says F is free */
  EXPECT_ARG(tc_byte_free(victim), TC_INVALID);
  R->head = 64u | 2u | 1u;
  R->tag = 0x5a5a5a5au; /* the right neighbour is no block */
  EXPECT_ARG(tc_byte_free(victim), TC_INVALID);
  R->tag = free_tag;

  /* F says its left neighbour is free: L, found through the size copy before F. */
  F->head = 64u | 1u;
  static const size_t bad_left[3] = {8u, 68u, sizeof mem};
  for (unsigned i = 0; i < 3; i++) {
    *left_size = bad_left[i]; /* too small, not a multiple of 8, before the pool */
    EXPECT_ARG(tc_byte_free(victim), TC_INVALID);
  }
  *left_size = 64u;
  L->head = 64u | 2u;
  L->tag = used_tag; /* no free block */
  EXPECT_ARG(tc_byte_free(victim), TC_INVALID);
  L->tag = free_tag;
  L->head = 64u; /* a free block whose left neighbour is free too */
  EXPECT_ARG(tc_byte_free(victim), TC_INVALID);

  /* The pool's first block claims a free left neighbour: there is none, and no size copy of
   * one to read before the pool (the check once read it: AddressSanitizer, build/sim-asan). */
  forged *head = (forged *)((uint8_t *)first - TC_BYTE_HEADER);
  head->head &= ~(size_t)2u;
#if TC_CHECKS /* without the front layer a damaged header is trusted */
  CHECK_EQ(tc_byte_free(first), TC_INVALID);
#endif
  head->head |= 2u;
  STEP();

  tc_byte_pool_info_t after = info(&bp);
  CHECK_EQ(after.used_blocks, before.used_blocks);
  CHECK_EQ(after.available, before.available);
  OK(tc_byte_free(u));
  OK(tc_byte_free(first));
  CHECK_EQ(info(&bp).free_blocks, 1);
}

/* Found by fuzz/pools.c: memory lent out by a pool that was deleted is refused even by a new
 * pool created with the same control block on the same memory. The old block headers name
 * that control block: left in place they made the new pool take a stale pointer back, and
 * its blocks no longer tiled it. Refused with the checks; without them the kernel trusts its
 * caller, but a block the deletion has erased still does not pass for one in use. */
static void pointer_of_a_deleted_pool_refused_by_its_successor(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem2, sizeof mem2));
  void *a, *b;
  OK(tc_byte_alloc(&bp, &a, 16, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp, &b, 16, TC_NO_WAIT));
  OK(tc_byte_pool_delete(&bp));
  OK(tc_byte_pool_create(&bp, "bp", mem2, sizeof mem2));
  EXPECT(tc_byte_free(b), TC_INVALID);
  EXPECT(tc_byte_free(a), TC_INVALID); /* where the new pool's first block starts: free */
  tc_byte_pool_info_t i = info(&bp);
  CHECK_EQ(i.used_blocks, 0);
  CHECK_EQ(i.free_blocks, 1);
  CHECK_EQ(i.available, sizeof mem2);
}

/* An application that writes before its allocation breaks the pool: tc_check() says so, and
 * the damaged allocation cannot be freed. */
static void corruption_is_detected(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  void *a, *b;
  OK(tc_byte_alloc(&bp, &a, 32, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp, &b, 32, TC_NO_WAIT));
  uintptr_t *tag = (uintptr_t *)b - 1;
  uintptr_t saved = *tag;
  *tag = 0x1234u;
  CHECK(tc_check() != NULL);
#if TC_CHECKS /* without the front layer a damaged header is trusted */
  CHECK_EQ(tc_byte_free(b), TC_INVALID);
#endif
  *tag = saved;
  STEP();
  OK(tc_byte_free(a));
  OK(tc_byte_free(b));
  CHECK_EQ(info(&bp).free_blocks, 1);
}

/* ---- random workout ------------------------------------------------------------------------ */

static uint32_t rng = 12345u;
static uint32_t next_rand(void)
{
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static void random_workout(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  enum { SLOTS = 24 };
  static uint8_t *slot[SLOTS];
  static size_t len[SLOTS];
  memset(slot, 0, sizeof slot);
  unsigned failures = 0, allocations = 0;
  for (unsigned step = 0; step < 3000; step++) {
    unsigned k = next_rand() % SLOTS;
    if (slot[k] == NULL) {
      size_t size = 1 + next_rand() % (next_rand() % 8 == 0 ? 900 : 120);
      void *p;
      tc_status st = tc_byte_alloc(&bp, &p, size, TC_NO_WAIT);
      CHECK(st == TC_OK || st == TC_NO_INSTANCE);
      if (st == TC_OK) {
        slot[k] = p;
        len[k] = size;
        memset(p, (int)k, size); /* a pattern that must survive every other operation */
        allocations++;
      } else {
        failures++;
      }
    } else {
      for (size_t j = 0; j < len[k]; j++)
        if (slot[k][j] != (uint8_t)k) {
          tct_fail(__FILE__, __LINE__, "allocation content damaged");
          break;
        }
      OK(tc_byte_free(slot[k]));
      slot[k] = NULL;
    }
    STEP();
  }
  for (unsigned k = 0; k < SLOTS; k++)
    if (slot[k] != NULL) OK(tc_byte_free(slot[k]));
  tc_byte_pool_info_t i = info(&bp);
  CHECK_EQ(i.free_blocks, 1);
  CHECK_EQ(i.available, i.size);
  CHECK(allocations > 1000);
  CHECK(failures > 0); /* the pool did run full */
}

/* ---- waiting ------------------------------------------------------------------------------ */

static void *big_hold, *small_hold;

/* Take the whole pool in two allocations, the second of `second` bytes. */
static void fill_pool(size_t second)
{
  size_t largest = info(&bp).largest;
  OK(tc_byte_alloc(&bp, &big_hold, largest - second - TC_BYTE_HEADER, TC_NO_WAIT));
  OK(tc_byte_alloc(&bp, &small_hold, second, TC_NO_WAIT));
  CHECK_EQ(info(&bp).available, 0);
}

static void sized_waiter(void *arg)
{
  size_t size = (size_t)(uintptr_t)arg;
  void *p = NULL;
  tc_status st = tc_byte_alloc(&bp, &p, size, size == 2000 ? 20 : TC_WAIT_FOREVER);
  tct_log("%u:%d@%u", (unsigned)size, (int)st, (unsigned)tc_tick_get());
  if (st == TC_OK) {
    CHECK(p != NULL);
    OK(tc_thread_sleep(100));
    OK(tc_byte_free(p));
  }
}

static void pool_owner(void *arg)
{
  (void)arg;
  fill_pool(1000);
  OK(tc_thread_resume(&th[1])); /* 2000 bytes, priority 2: waits up to 20 ticks */
  OK(tc_thread_resume(&th[2])); /* 100 bytes, priority 4 */
  OK(tc_thread_resume(&th[3])); /* 200 bytes, priority 4 */
  OK(tc_thread_resume(&th[4])); /* 3000 bytes, priority 6 */
  CHECK_EQ(info(&bp).waiting, 4);
  OK(tc_thread_sleep(10));
  /* Make 1000 bytes free: the first waiter (2000) does not fit, so nobody is served. */
  OK(tc_byte_free(small_hold));
  CHECK_EQ(info(&bp).waiting, 4);
  tct_log("owner@%u", (unsigned)tc_tick_get());
  /* At 20 the first waiter times out: the next two (100, 200) fit and are served at once,
   * in FIFO order; 3000 still waits. At 120 they free, 3000 still does not fit. */
  OK(tc_thread_sleep(150));
  OK(tc_byte_free(big_hold)); /* now it fits */
  tct_log("end@%u", (unsigned)tc_tick_get());
}

static void large_waiter_first_then_the_rest(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  OK(tc_thread_create(&th[0], "o", pool_owner, NULL, TCT_STACK(0), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "w2000", sized_waiter, (void *)2000u, TCT_STACK(1), 2, 2, 0, 0));
  OK(tc_thread_create(&th[2], "w100", sized_waiter, (void *)100u, TCT_STACK(2), 4, 4, 0, 0));
  OK(tc_thread_create(&th[3], "w200", sized_waiter, (void *)200u, TCT_STACK(3), 4, 4, 0, 0));
  OK(tc_thread_create(&th[4], "w3000", sized_waiter, (void *)3000u, TCT_STACK(4), 6, 6, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("owner@10 2000:1@20 100:0@20 200:0@20 3000:0@160 end@160");
}

static void terminate_first(void *arg)
{
  (void)arg;
  fill_pool(496);
  OK(tc_thread_resume(&th[1])); /* 1000 bytes, priority 5 */
  OK(tc_thread_resume(&th[2])); /* 100 bytes, priority 6 */
  OK(tc_thread_sleep(1));
  OK(tc_byte_free(small_hold)); /* the first (1000) does not fit: 100 waits behind it */
  CHECK_EQ(info(&bp).waiting, 2);
  OK(tc_thread_terminate(&th[1])); /* the first leaves: 100 is served at once */
  CHECK_EQ(info(&bp).waiting, 0);
  OK(tc_thread_sleep(200));
  tct_log("end");
}

static void terminated_first_waiter_lets_the_next_in(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  OK(tc_thread_create(&th[0], "o", terminate_first, NULL, TCT_STACK(0), 3, 3, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "big", sized_waiter, (void *)1000u, TCT_STACK(1), 5, 5, 0, 0));
  OK(tc_thread_create(&th[2], "small", sized_waiter, (void *)100u, TCT_STACK(2), 6, 6, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("100:0@1 end");
}

static void raise_waiter(void *arg)
{
  (void)arg;
  fill_pool(496);
  OK(tc_thread_resume(&th[1])); /* 1000 bytes, priority 5 */
  OK(tc_thread_resume(&th[2])); /* 100 bytes, priority 6 */
  OK(tc_thread_sleep(1));       /* they run and wait */
  OK(tc_byte_free(small_hold)); /* 496 bytes free: the first (1000) does not fit, 100 waits */
  CHECK_EQ(info(&bp).waiting, 2);
  /* Raising the small one above the large one makes it first: it fits and is served. */
  OK(tc_thread_priority_change(&th[2], 1, NULL));
  OK(tc_thread_priority_change(&th[1], 7, NULL));
  CHECK_EQ(info(&bp).waiting, 1);
  OK(tc_thread_sleep(200));     /* the small one frees its memory at 101 */
  OK(tc_byte_pool_delete(&bp)); /* the large one returns TC_DELETED */
  tct_log("end");
}

static void priority_change_serves_the_new_first(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  OK(tc_thread_create(&th[0], "o", raise_waiter, NULL, TCT_STACK(0), 3, 3, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "big", sized_waiter, (void *)1000u, TCT_STACK(1), 5, 5, 0, 0));
  OK(tc_thread_create(&th[2], "small", sized_waiter, (void *)100u, TCT_STACK(2), 6, 6, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("100:0@1 end 1000:4@201");
}

/* ---- contexts ------------------------------------------------------------------------------ */

static void isr_user(void *arg)
{
  (void)arg;
  void *a, *b;
  size_t largest = info(&bp).largest;
  OK(tc_byte_alloc(&bp, &a, largest, TC_NO_WAIT));
  OK(tc_thread_resume(&th[1])); /* waits for 100 bytes */
  tc_isr_enter();
  EXPECT(tc_byte_alloc(&bp, &b, 8, TC_NO_WAIT), TC_NO_INSTANCE);
  EXPECT_ARG(tc_byte_alloc(&bp, &b, 8, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_byte_pool_create(&bp2, "x", mem2, sizeof mem2), TC_CALLER_ERROR);
  EXPECT_ARG(tc_byte_pool_delete(&bp), TC_CALLER_ERROR);
  OK(tc_byte_free(a)); /* serves the waiter; it runs at the exit */
  tct_log("isr");
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_byte_alloc(&bp, &b, 8, TC_WAIT_FOREVER), TC_CALLER_ERROR);
  tc_sched_unlock();
  tct_log("a");
}

static void interrupts_and_locks(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bp, "bp", mem, sizeof mem));
  void *p = NULL;
  (void)p;
  EXPECT_ARG(tc_byte_alloc(&bp, &p, 8, 5), TC_CALLER_ERROR); /* before the kernel runs */
  OK(tc_thread_create(&th[0], "a", isr_user, NULL, TCT_STACK(0), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "w", sized_waiter, (void *)100u, TCT_STACK(1), 3, 3, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("isr 100:0@0 a");
}

TCT_MAIN("test_byte_pool",
         TCT_CASE(create_and_sizes),
         TCT_CASE(first_fit_and_coalescing),
         TCT_CASE(no_tiny_fragments),
         TCT_CASE(bad_frees_change_nothing),
         TCT_CASE(forged_headers_refused),
         TCT_CASE(pointer_of_a_deleted_pool_refused_by_its_successor),
         TCT_CASE(corruption_is_detected),
         TCT_CASE(random_workout),
         TCT_CASE(large_waiter_first_then_the_rest),
         TCT_CASE(priority_change_serves_the_new_first),
         TCT_CASE(terminated_first_waiter_lets_the_next_in),
         TCT_CASE(interrupts_and_locks))
