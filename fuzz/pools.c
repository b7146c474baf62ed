/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: byte pools and block pools (kernel/byte_pool.c, kernel/block_pool.c) against
 * a model of each, as their headers describe them.
 *
 * The input is a sequence of operations on two byte pools and two block pools: create (on
 * memory the input places, overlapping or not), allocate (from the driver with TC_NO_WAIT, in
 * a thread, a LISR or with the scheduler locked; or from an actor thread that may wait),
 * free, delete, info, time passing (timeouts expire), wait aborts and priority changes of
 * waiting actors, and misuse: freeing NULL, twice, a pointer inside a block, off by a few
 * bytes, of the other kind of pool, of a deleted pool, or not from a pool at all.
 *
 * The model predicts every status and every pointer handed out (first fit with splitting and
 * immediate merging for byte pools, a LIFO free list for block pools, waiters served in
 * priority order), and every figure of the info services. The memory handed out is filled
 * with a pattern that must be intact when it is freed. After every step: the model agrees,
 * and tc_check() passes.
 */
#include <string.h>

#include "fuzz.h"

#define N_BYTE      2u
#define N_BLOCK     2u
#define BYTE_ARENA  2048u
#define BLOCK_ARENA 1024u
#define H           ((size_t)TC_BYTE_HEADER)
#define MIN_BLOCK   ((size_t)TC_BYTE_MIN_BLOCK)
#define MAX_BLOCKS  (BYTE_ARENA / TC_BYTE_MIN_BLOCK + 1u)
#define MAX_SLOTS   (BLOCK_ARENA / 16u)
#define MAX_ALLOCS  256u

static uint64_t byte_arena[BYTE_ARENA / 8];
static uint64_t block_arena[BLOCK_ARENA / 8];
static tc_byte_pool bytes[N_BYTE];
static tc_block_pool blocks[N_BLOCK];
static uint64_t not_a_pool[4]; /* memory of no pool */

/* Model object numbers (fz_model): byte pools 0.., block pools N_BYTE.. */
#define BLOCK_OBJECT(i) (N_BYTE + (i))

/* ---- the model -------------------------------------------------------------------------- */

typedef struct {
  size_t off, size; /* from lo; sizes include the header */
  bool used;
} mblk;

/* A byte pool: its blocks in address order, tiling [lo, hi). */
static struct {
  bool live;
  uintptr_t lo, hi;
  mblk b[MAX_BLOCKS];
  unsigned n;
} mbyte[N_BYTE];

/* A block pool: its free slots as a stack (the top is allocated next). */
static struct {
  bool live;
  uintptr_t start;
  size_t size, slot;
  unsigned total, n_free;
  unsigned free[MAX_SLOTS];
} mblock[N_BLOCK];

/* Every pointer handed out in this run; `live` while its pool still lends it. */
static struct {
  uint8_t *p;
  size_t size;   /* bytes the application may write */
  bool block;    /* of a block pool (else a byte pool) */
  unsigned pool;
  bool live;
  bool filled;   /* the pattern is written (after the model's pointer is confirmed) */
  uint8_t fill;
} allocs[MAX_ALLOCS];
static unsigned n_allocs, fills;

static void record(uint8_t *p, size_t size, bool block, unsigned pool)
{
  unsigned i = n_allocs;
  if (i == MAX_ALLOCS) {
    /* Full: forget the oldest pointer that is no longer lent. */
    for (i = 0; i < MAX_ALLOCS && allocs[i].live; i++) {
    }
    CHECK(i < MAX_ALLOCS);
    if (i == MAX_ALLOCS) return;
  } else {
    n_allocs++;
  }
  allocs[i].p = p;
  allocs[i].size = size;
  allocs[i].block = block;
  allocs[i].pool = pool;
  allocs[i].live = true;
  allocs[i].filled = false;
}

static int live_alloc(const void *p, bool block)
{
  for (unsigned i = 0; i < n_allocs; i++)
    if (allocs[i].live && allocs[i].p == p && allocs[i].block == block) return (int)i;
  return -1;
}

/* The memory lent out is the application's: fill it, and find it unchanged when it returns. */
static void fill_new(void)
{
  for (unsigned i = 0; i < n_allocs; i++) {
    if (!allocs[i].live || allocs[i].filled) continue;
    allocs[i].fill = (uint8_t)(++fills * 29u + 1u);
    memset(allocs[i].p, allocs[i].fill, allocs[i].size);
    allocs[i].filled = true;
  }
}

static void check_fill(unsigned i)
{
  if (!allocs[i].filled) return;
  for (size_t k = 0; k < allocs[i].size; k++) {
    if (allocs[i].p[k] != allocs[i].fill) {
      fz_trace("  %p: byte %zu of %zu is %#x, not %#x", (void *)allocs[i].p, k, allocs[i].size, allocs[i].p[k], allocs[i].fill);
      CHECK(!"memory lent out was changed by the pool");
      return;
    }
  }
}

static size_t round8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static size_t needed(size_t size)
{
  size_t n = round8(size) + H;
  return n < MIN_BLOCK ? MIN_BLOCK : n;
}

/* First fit, low part, the rest split off when it can be a block by itself. */
static uint8_t *mbyte_take(unsigned k, size_t need)
{
  for (unsigned i = 0; i < mbyte[k].n; i++) {
    mblk *b = &mbyte[k].b[i];
    if (b->used || b->size < need) continue;
    if (b->size - need >= MIN_BLOCK) {
      memmove(&mbyte[k].b[i + 2], &mbyte[k].b[i + 1], (mbyte[k].n - i - 1) * sizeof *b);
      mbyte[k].b[i + 1] = (mblk){b->off + need, b->size - need, false};
      mbyte[k].n++;
      b->size = need;
    }
    b->used = true;
    return (uint8_t *)(mbyte[k].lo + b->off + H);
  }
  return NULL;
}

static void mbyte_give(unsigned k, const uint8_t *p)
{
  size_t off = (size_t)((uintptr_t)p - H - mbyte[k].lo);
  unsigned i = 0;
  while (mbyte[k].b[i].off != off) i++;
  mblk *b = mbyte[k].b;
  b[i].used = false;
  if (i + 1 < mbyte[k].n && !b[i + 1].used) {
    b[i].size += b[i + 1].size;
    memmove(&b[i + 1], &b[i + 2], (mbyte[k].n - i - 2) * sizeof *b);
    mbyte[k].n--;
  }
  if (i > 0 && !b[i - 1].used) {
    b[i - 1].size += b[i].size;
    memmove(&b[i], &b[i + 1], (mbyte[k].n - i - 1) * sizeof *b);
    mbyte[k].n--;
  }
}

/* Serve the waiters of byte pool k in order while the first of them fits. */
static void mbyte_serve(unsigned k)
{
  int w;
  while ((w = fz_model_first(k)) >= 0) {
    uint8_t *p = mbyte_take(k, needed(fz_model[w].arg));
    if (p == NULL) return;
    fz_model_returns((unsigned)w, TC_OK, (uintptr_t)p);
    record(p, fz_model[w].arg, false, k);
  }
}

/* The waiters of `object` changed behind its back: a byte pool serves the next that fits. */
static void waiters_changed(unsigned object)
{
  if (object < N_BYTE) mbyte_serve(object);
}



static uint8_t *mblock_ptr(unsigned k, unsigned slot)
{
  return (uint8_t *)(mblock[k].start + slot * mblock[k].slot + TC_BLOCK_HEADER);
}

static uint8_t *mblock_take(unsigned k)
{
  return mblock[k].n_free == 0 ? NULL : mblock_ptr(k, mblock[k].free[--mblock[k].n_free]);
}

/* A block comes back: to the first waiter, else onto the free list. */
static void mblock_give(unsigned k, uint8_t *p)
{
  int w = fz_model_first(BLOCK_OBJECT(k));
  if (w >= 0) {
    fz_model_returns((unsigned)w, TC_OK, (uintptr_t)p);
    record(p, mblock[k].size, true, k);
    return;
  }
  mblock[k].free[mblock[k].n_free++] = (unsigned)((uintptr_t)(p - TC_BLOCK_HEADER) - mblock[k].start) / (unsigned)mblock[k].slot;
}

/* The pool of `object` is deleted: its waiters return TC_DELETED, its memory is lent no more. */
static void model_delete(unsigned object)
{
  int w;
  while ((w = fz_model_first(object)) >= 0) fz_model_returns((unsigned)w, TC_DELETED, 0);
  bool block = object >= N_BYTE;
  unsigned k = block ? object - N_BYTE : object;
  for (unsigned i = 0; i < n_allocs; i++)
    if (allocs[i].live && allocs[i].block == block && allocs[i].pool == k) allocs[i].live = false;
  if (block)
    mblock[k].live = false;
  else
    mbyte[k].live = false;
}

/* ---- the kernel and the model agree ----------------------------------------------------- */

static bool same_ptr(unsigned i, const fz_actor *a) { return (uintptr_t)a->ptr == fz_model[i].result; }

static void check_byte_info(unsigned k)
{
  tc_byte_pool_info_t info;
  if (!mbyte[k].live) {
    EXPECT(tc_byte_pool_info(&bytes[k], &info), TC_INVALID);
    return;
  }
  OK(tc_byte_pool_info(&bytes[k], &info));
  size_t available = 0, largest = 0;
  unsigned n_free = 0, n_used = 0;
  for (unsigned i = 0; i < mbyte[k].n; i++) {
    const mblk *b = &mbyte[k].b[i];
    if (b->used) {
      n_used++;
      continue;
    }
    n_free++;
    available += b->size;
    if (b->size - H > largest) largest = b->size - H;
  }
  CHECK_EQ(info.size, mbyte[k].hi - mbyte[k].lo);
  CHECK_EQ(info.available, available);
  CHECK_EQ(info.largest, largest);
  CHECK_EQ(info.free_blocks, n_free);
  CHECK_EQ(info.used_blocks, n_used);
  CHECK_EQ(info.waiting, fz_model_waiting(k));
}

static void check_block_info(unsigned k)
{
  tc_block_pool_info_t info;
  if (!mblock[k].live) {
    EXPECT(tc_block_pool_info(&blocks[k], &info), TC_INVALID);
    return;
  }
  OK(tc_block_pool_info(&blocks[k], &info));
  CHECK_EQ(info.block_size, mblock[k].size);
  CHECK_EQ(info.total, mblock[k].total);
  CHECK_EQ(info.available, mblock[k].n_free);
  CHECK_EQ(info.waiting, fz_model_waiting(BLOCK_OBJECT(k)));
}

static void agree(void)
{
  fz_model_agree(same_ptr);
  fill_new();
}

/* ---- operations ------------------------------------------------------------------------- */

/* Memory for a pool: `size` bytes at `off` in `arena`, both from the input, unaligned at
 * will; or, as an application re-creating a pool would, where `last` placed the last one. */
typedef struct {
  size_t off, size;
} placement;

static void place(size_t arena, placement *last, size_t *off, size_t *size)
{
  if (fz_below(2) == 0) {
    last->off = fz_byte() * 8u % arena + fz_below(8);
    last->size = fz_byte() * 8u + fz_below(8);
    if (last->off + last->size > arena) last->size = arena - last->off;
  }
  *off = last->off;
  *size = last->size;
}

static placement byte_placed[N_BYTE], block_placed[N_BLOCK];

static void byte_create(void)
{
  unsigned k = fz_below(N_BYTE);
  size_t off, size;
  place(BYTE_ARENA, &byte_placed[k], &off, &size);
  uint8_t *mem = (uint8_t *)byte_arena + off;
  uintptr_t lo = round8((uintptr_t)mem), hi = ((uintptr_t)mem + size) & ~(uintptr_t)7u;
  bool ok = !mbyte[k].live && hi > lo && hi - lo >= MIN_BLOCK;
  for (unsigned j = 0; j < N_BYTE; j++)
    if (mbyte[j].live && lo < mbyte[j].hi && mbyte[j].lo < hi) ok = false;
  fz_trace("  pool %u at %zu size %zu: %s", k, off, size, ok ? "ok" : "invalid");
  EXPECT(tc_byte_pool_create(&bytes[k], "bytes", mem, size), ok ? TC_OK : TC_INVALID);
  if (!ok) return;
  mbyte[k].live = true;
  mbyte[k].lo = lo;
  mbyte[k].hi = hi;
  mbyte[k].n = 1;
  mbyte[k].b[0] = (mblk){0, hi - lo, false};
}

static size_t byte_request(void)
{
  return fz_below(4) == 0 ? fz_byte() * 8u + fz_below(8) : fz_below(128);
}

/* What an allocation of `size` bytes from byte pool k returns, made where `may_wait` says
 * whether a wait is allowed: in *p the pointer the model hands out (NULL if none); TC_OK
 * with no pointer when the call would wait. */
static tc_status byte_alloc_model(unsigned k, size_t size, bool wait, bool may_wait, uint8_t **p)
{
  *p = NULL;
  if (!mbyte[k].live || size == 0) return TC_INVALID;
  if (wait && !may_wait) return TC_CALLER_ERROR;
  if (size > mbyte[k].hi - mbyte[k].lo - H) return TC_INVALID;
  *p = mbyte_take(k, needed(size));
  if (*p != NULL) record(*p, size, false, k);
  return *p != NULL || wait ? TC_OK : TC_NO_INSTANCE;
}

static void byte_alloc_driver(void)
{
  unsigned k = fz_below(N_BYTE);
  size_t size = byte_request();
  unsigned where = fz_enter();
  bool wait = where != FZ_IN_THREAD && fz_below(2) == 0; /* a wait where none is allowed */
  void *p = &p;
  tc_status st = tc_byte_alloc(&bytes[k], &p, size, wait ? 1u : TC_NO_WAIT);
  fz_leave(where);
  STEP();
  uint8_t *want;
  CHECK_EQ(st, byte_alloc_model(k, size, wait, false, &want));
  CHECK(p == want);
  fz_trace("  pool %u size %zu where %u wait %d: %d %p", k, size, where, wait, st, p);
}

static tc_status call_byte_alloc(fz_actor *a) { return tc_byte_alloc(&bytes[a->object], &a->ptr, a->size, a->timeout); }

static void byte_alloc_actor(void)
{
  fz_actor *a = fz_take_actor(N_BYTE);
  size_t size = byte_request();
  if (a == NULL) return;
  a->size = size;
  uint8_t *want;
  tc_status st = byte_alloc_model(a->object, size, a->timeout != TC_NO_WAIT, true, &want);
  fz_actor_call(a, call_byte_alloc, a->object, st == TC_OK && want == NULL, st, (uintptr_t)want, size);
}

static void block_create(void)
{
  unsigned k = fz_below(N_BLOCK);
  size_t block_size = fz_below(8) == 0 ? 0 : 1u + fz_below(64);
  size_t off, size;
  place(BLOCK_ARENA, &block_placed[k], &off, &size);
  uint8_t *mem = (uint8_t *)block_arena + off;
  uintptr_t lo = round8((uintptr_t)mem), hi = (uintptr_t)mem + size;
  size_t bsize = round8(block_size), slot = TC_BLOCK_HEADER + bsize;
  size_t n = hi > lo ? (hi - lo) / slot : 0;
  bool ok = !mblock[k].live && block_size != 0 && n != 0;
  for (unsigned j = 0; j < N_BLOCK; j++)
    if (mblock[j].live && lo < mblock[j].start + mblock[j].total * mblock[j].slot && mblock[j].start < lo + n * slot)
      ok = false;
  fz_trace("  pool %u blocks of %zu at %zu size %zu: %s", k, block_size, off, size, ok ? "ok" : "invalid");
  EXPECT(tc_block_pool_create(&blocks[k], "blocks", block_size, mem, size), ok ? TC_OK : TC_INVALID);
  if (!ok) return;
  mblock[k].live = true;
  mblock[k].start = lo;
  mblock[k].size = bsize;
  mblock[k].slot = slot;
  mblock[k].total = mblock[k].n_free = (unsigned)n;
  for (unsigned j = 0; j < n; j++) mblock[k].free[j] = (unsigned)n - 1u - j; /* the lowest first */
}

/* As byte_alloc_model, for block pool k. */
static tc_status block_alloc_model(unsigned k, bool wait, bool may_wait, uint8_t **p)
{
  *p = NULL;
  if (!mblock[k].live) return TC_INVALID;
  if (wait && !may_wait) return TC_CALLER_ERROR;
  *p = mblock_take(k);
  if (*p != NULL) record(*p, mblock[k].size, true, k);
  return *p != NULL || wait ? TC_OK : TC_NO_INSTANCE;
}

static void block_alloc_driver(void)
{
  unsigned k = fz_below(N_BLOCK);
  unsigned where = fz_enter();
  bool wait = where != FZ_IN_THREAD && fz_below(2) == 0;
  void *p = &p;
  tc_status st = tc_block_alloc(&blocks[k], &p, wait ? 1u : TC_NO_WAIT);
  fz_leave(where);
  STEP();
  uint8_t *want;
  CHECK_EQ(st, block_alloc_model(k, wait, false, &want));
  CHECK(p == want);
  fz_trace("  pool %u where %u wait %d: %d %p", k, where, wait, st, p);
}

static tc_status call_block_alloc(fz_actor *a) { return tc_block_alloc(&blocks[a->object], &a->ptr, a->timeout); }

static void block_alloc_actor(void)
{
  fz_actor *a = fz_take_actor(N_BLOCK);
  if (a == NULL) return;
  uint8_t *want;
  tc_status st = block_alloc_model(a->object, a->timeout != TC_NO_WAIT, true, &want);
  fz_actor_call(a, call_block_alloc, BLOCK_OBJECT(a->object), st == TC_OK && want == NULL, st, (uintptr_t)want, 0);
}

/* Free `p` with the byte (or block) pool service; the model says whether it is lent out. */
static void free_ptr(void *p, bool block)
{
  int i = live_alloc(p, block);
  if (i >= 0) check_fill((unsigned)i); /* before the pool takes the memory back */
  unsigned where = fz_enter();
  tc_status st = block ? tc_block_free(p) : tc_byte_free(p);
  fz_leave(where);
  STEP();
  fz_trace("  %s %p where %u: %d (lent: %d)", block ? "block" : "byte", p, where, st, i >= 0);
  if (i < 0) {
    CHECK_EQ(st, TC_INVALID);
    return;
  }
  CHECK_EQ(st, TC_OK);
  allocs[i].live = false;
  unsigned k = allocs[i].pool;
  if (block) {
    mblock_give(k, p);
  } else {
    mbyte_give(k, p);
    mbyte_serve(k);
  }
}

/* A pointer lent out now, of the given kind, or NULL. */
static void *some_live(bool block)
{
  unsigned n = 0;
  for (unsigned i = 0; i < n_allocs; i++) n += allocs[i].live && allocs[i].block == block;
  if (n == 0) return NULL;
  unsigned pick = fz_below(n < 256 ? n : 256);
  for (unsigned i = 0; i < n_allocs; i++)
    if (allocs[i].live && allocs[i].block == block && pick-- == 0) return allocs[i].p;
  return NULL;
}

static void free_live(void)
{
  bool block = fz_below(2);
  void *p = some_live(block);
  if (p != NULL) free_ptr(p, block);
}

/* Misuse: a pointer that may or may not be one the pool lent out. */
static void free_misuse(void)
{
  bool block = fz_below(2);
  uint8_t *p = NULL;
  switch (fz_below(6)) {
  case 0: /* NULL */
    break;
  case 1: /* any pointer of this run: lent now, freed, or of a pool deleted since */
    if (n_allocs != 0) p = allocs[fz_below(n_allocs < 256 ? n_allocs : 256)].p;
    break;
  case 2: /* near a pointer lent now, of either kind */
    p = some_live(fz_below(2));
    if (p != NULL) p += (int)fz_below(48) - 24;
    break;
  case 3: /* anywhere in the pools' memory */
    p = fz_below(2) ? (uint8_t *)byte_arena + fz_byte() * 8u + fz_below(8)
                    : (uint8_t *)block_arena + fz_byte() * 4u;
    break;
  case 4: /* memory of no pool */
    p = (uint8_t *)&not_a_pool[1 + fz_below(3)];
    break;
  default: /* the other kind of pool's */
    p = some_live(!block);
    break;
  }
  free_ptr(p, block);
}

static void delete_pool(void)
{
  bool block = fz_below(2);
  unsigned k = fz_below(block ? N_BLOCK : N_BYTE);
  bool live = block ? mblock[k].live : mbyte[k].live;
  unsigned where = fz_below(4) == 0 ? FZ_IN_LISR : FZ_IN_THREAD;
  if (where == FZ_IN_LISR) tc_isr_enter();
  tc_status st = block ? tc_block_pool_delete(&blocks[k]) : tc_byte_pool_delete(&bytes[k]);
  if (where == FZ_IN_LISR) tc_isr_exit();
  STEP();
  if (!live) {
    CHECK_EQ(st, TC_INVALID);
    return;
  }
  if (where == FZ_IN_LISR) {
    CHECK_EQ(st, TC_CALLER_ERROR);
    return;
  }
  CHECK_EQ(st, TC_OK);
  model_delete(block ? BLOCK_OBJECT(k) : k);
}

static void info(void)
{
  for (unsigned k = 0; k < N_BYTE; k++) check_byte_info(k);
  for (unsigned k = 0; k < N_BLOCK; k++) check_block_info(k);
  for (unsigned i = 0; i < n_allocs; i++)
    if (allocs[i].live) check_fill(i);
}

static void step(void)
{
  static const fz_op ops[] = {
      {"byte_create", byte_create},
      {"byte_alloc_driver", byte_alloc_driver},
      {"byte_alloc_actor", byte_alloc_actor},
      {"block_create", block_create},
      {"block_alloc_driver", block_alloc_driver},
      {"block_alloc_actor", block_alloc_actor},
      {"free_live", free_live},
      {"free_live", free_live},
      {"free_misuse", free_misuse},
      {"delete_pool", delete_pool},
      {"info", info},
  };
  fz_step(ops, sizeof ops / sizeof ops[0], waiters_changed, agree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_begin(data, size);
  /* Every input starts from the same memory: a finding reproduces from its input alone. */
  memset(byte_arena, 0, sizeof byte_arena);
  memset(block_arena, 0, sizeof block_arena);
  memset(bytes, 0, sizeof bytes);
  memset(blocks, 0, sizeof blocks);
  memset(mbyte, 0, sizeof mbyte);
  memset(mblock, 0, sizeof mblock);
  memset(byte_placed, 0, sizeof byte_placed);
  memset(block_placed, 0, sizeof block_placed);
  n_allocs = fills = 0;
  fz_run(step);
  return 0;
}
