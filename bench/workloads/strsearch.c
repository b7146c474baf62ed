/* SPDX-License-Identifier: MIT */
/*
 * String search (MiBench's office group): the occurrences of 8 patterns in 1 KB of text made
 * of words from a small vocabulary, found by Horspool's simplification of Boyer-Moore
 * (Horspool 1980: shift by the last window character's distance from the pattern's end) and
 * counted again by comparing at every position.
 *
 * Self-check: both methods count the same for every pattern, and the patterns that are words
 * of the vocabulary are found at least once. The middle point falls after half the patterns.
 */
#include <string.h>

#include "workloads.h"

#define TEXT 1024u

static const char *const vocabulary[] = {"kernel", "thread", "switch", "priority", "queue",   "timer",
                                         "mutex",  "signal", "tick",   "ready",    "preempt", "idle"};
#define WORDS (sizeof vocabulary / sizeof vocabulary[0])

static const char *const patterns[] = {"thread", "preempt", "tick ready", "queue", "ex sig", "kernels",
                                       "idle idle", "priority"};
#define PATTERNS  (sizeof patterns / sizeof patterns[0])
#define IN_VOCAB(i) ((i) == 0 || (i) == 1 || (i) == 3 || (i) == 7) /* patterns that are words */

static unsigned horspool(const char *text, size_t n, const char *pat)
{
  size_t m = strlen(pat);
  size_t shift[256];
  for (unsigned c = 0; c < 256; c++) shift[c] = m;
  for (size_t i = 0; i + 1 < m; i++) shift[(uint8_t)pat[i]] = m - 1u - i;
  unsigned found = 0;
  for (size_t at = 0; at + m <= n; at += shift[(uint8_t)text[at + m - 1u]]) {
    size_t i = m;
    while (i > 0 && text[at + i - 1u] == pat[i - 1u]) i--;
    found += i == 0;
  }
  return found;
}

static unsigned everywhere(const char *text, size_t n, const char *pat)
{
  size_t m = strlen(pat);
  unsigned found = 0;
  for (size_t at = 0; at + m <= n; at++) {
    size_t i = 0;
    while (i < m && text[at + i] == pat[i]) i++;
    found += i == m;
  }
  return found;
}

bool wl_strsearch(wl_hook hook, void *ctx)
{
  char text[TEXT];
  uint32_t seed = 0x5EA4C4u;
  hook(WL_START, ctx);
  size_t n = 0;
  for (;;) {
    const char *w = vocabulary[wl_random(&seed) % WORDS];
    size_t len = strlen(w);
    if (n + len + 1u > TEXT) break;
    memcpy(text + n, w, len);
    n += len;
    text[n++] = ' ';
  }
  bool ok = true;
  for (unsigned p = 0; p < PATTERNS; p++) {
    if (p == PATTERNS / 2u) hook(WL_MIDDLE, ctx);
    unsigned fast = horspool(text, n, patterns[p]), slow = everywhere(text, n, patterns[p]);
    ok &= fast == slow && (!IN_VOCAB(p) || fast != 0);
  }
  hook(WL_END, ctx);
  return ok;
}
