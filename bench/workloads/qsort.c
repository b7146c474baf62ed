/* SPDX-License-Identifier: MIT */
/*
 * Quicksort (Hoare 1962; MiBench's automotive group sorts too) of 600 pseudo-random words:
 * partitions around the median of the first, middle and last element (Hoare's scheme), the
 * larger part kept on an explicit stack and the smaller sorted next, so the stack never holds
 * more than log2(n) ranges; ranges of 8 or fewer elements by insertion sort.
 *
 * Self-check: the result is in order and is a permutation of the input (its sum, xor and sum
 * of squares modulo 2^32 are the input's). The middle point falls when half of the elements
 * are in their final place.
 */
#include "workloads.h"

#define COUNT 600u
#define SMALL 8u

typedef struct {
  uint32_t sum, xor, squares;
} fingerprint;

static fingerprint fingerprint_of(const uint32_t *a, unsigned n)
{
  fingerprint f = {0, 0, 0};
  for (unsigned i = 0; i < n; i++) f.sum += a[i], f.xor ^= a[i], f.squares += a[i] * a[i];
  return f;
}

static void insertion_sort(uint32_t *a, unsigned lo, unsigned hi)
{
  for (unsigned i = lo + 1; i <= hi; i++) {
    uint32_t v = a[i];
    unsigned j = i;
    for (; j > lo && a[j - 1] > v; j--) a[j] = a[j - 1];
    a[j] = v;
  }
}

static uint32_t median3(uint32_t a, uint32_t b, uint32_t c)
{
  if (a > b) {
    uint32_t t = a;
    a = b, b = t;
  }
  return c < a ? a : c > b ? b : c;
}

/* Hoare's partition of a[lo..hi] around `pivot`: returns j with a[lo..j] <= pivot <= a[j+1..hi]. */
static unsigned partition(uint32_t *a, unsigned lo, unsigned hi, uint32_t pivot)
{
  unsigned i = lo - 1u, j = hi + 1u;
  for (;;) {
    do i++;
    while (a[i] < pivot);
    do j--;
    while (a[j] > pivot);
    if (i >= j) return j;
    uint32_t t = a[i];
    a[i] = a[j], a[j] = t;
  }
}

bool wl_qsort(wl_hook hook, void *ctx)
{
  uint32_t a[COUNT];
  struct {
    unsigned lo, hi;
  } stack[32];
  uint32_t seed = 0x9E3779B9u;
  hook(WL_START, ctx);
  for (unsigned i = 0; i < COUNT; i++) a[i] = wl_random(&seed);
  fingerprint before = fingerprint_of(a, COUNT);
  unsigned depth = 0, placed = 0, lo = 0, hi = COUNT - 1u;
  bool middle = false;
  for (;;) {
    if (hi - lo + 1u <= SMALL) {
      insertion_sort(a, lo, hi);
      placed += hi - lo + 1u;
      if (!middle && placed >= COUNT / 2u) {
        hook(WL_MIDDLE, ctx);
        middle = true;
      }
      if (depth == 0) break;
      depth--;
      lo = stack[depth].lo, hi = stack[depth].hi;
      continue;
    }
    unsigned j = partition(a, lo, hi, median3(a[lo], a[lo + (hi - lo) / 2u], a[hi]));
    /* The larger part waits on the stack. */
    if (j - lo < hi - j) {
      stack[depth].lo = j + 1u, stack[depth].hi = hi;
      hi = j;
    } else {
      stack[depth].lo = lo, stack[depth].hi = j;
      lo = j + 1u;
    }
    depth++;
  }
  hook(WL_END, ctx);
  bool sorted = true;
  for (unsigned i = 1; i < COUNT; i++) sorted &= a[i - 1] <= a[i];
  fingerprint after = fingerprint_of(a, COUNT);
  return sorted && middle && before.sum == after.sum && before.xor == after.xor && before.squares == after.squares;
}
