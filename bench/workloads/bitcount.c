/* SPDX-License-Identifier: MIT */
/*
 * Bit counting (MiBench's automotive group counts bits several ways): the set bits of 256
 * pseudo-random words by four methods -- shifting through every bit, clearing the lowest set
 * bit until none is left (Wegner 1960), looking up each byte in a 256-entry table the
 * workload builds, and adding bit fields in parallel (pairs, nibbles, bytes, then a multiply
 * that sums the bytes).
 *
 * Self-check: the four totals agree, and the total is that of the words' complements
 * subtracted from 32 per word (the first method on the complements). The middle point falls
 * after the first two methods.
 */
#include "workloads.h"

#define WORDS 256u

static unsigned by_shift(uint32_t x)
{
  unsigned n = 0;
  for (; x != 0; x >>= 1) n += x & 1u;
  return n;
}

static unsigned by_clearing(uint32_t x)
{
  unsigned n = 0;
  for (; x != 0; x &= x - 1u) n++;
  return n;
}

static unsigned by_table(const uint8_t table[256], uint32_t x)
{
  return (unsigned)table[x & 0xFFu] + table[(x >> 8) & 0xFFu] + table[(x >> 16) & 0xFFu] + table[x >> 24];
}

static unsigned in_parallel(uint32_t x)
{
  x = x - ((x >> 1) & 0x55555555u);                 /* 16 two-bit counts */
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u); /* 8 nibble counts */
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;                 /* 4 byte counts */
  return (unsigned)((x * 0x01010101u) >> 24);       /* their sum in the top byte */
}

bool wl_bitcount(wl_hook hook, void *ctx)
{
  uint32_t words[WORDS];
  uint8_t table[256];
  uint32_t seed = 0xB17C0u;
  hook(WL_START, ctx);
  for (unsigned i = 0; i < WORDS; i++) words[i] = wl_random(&seed) >> (i % 7u); /* sparse ones too */
  table[0] = 0;
  for (unsigned i = 1; i < 256; i++) table[i] = (uint8_t)(table[i >> 1] + (i & 1u));
  unsigned shift = 0, clearing = 0, looked_up = 0, parallel = 0, complement = 0;
  for (unsigned i = 0; i < WORDS; i++) shift += by_shift(words[i]);
  for (unsigned i = 0; i < WORDS; i++) clearing += by_clearing(words[i]);
  hook(WL_MIDDLE, ctx);
  for (unsigned i = 0; i < WORDS; i++) looked_up += by_table(table, words[i]);
  for (unsigned i = 0; i < WORDS; i++) parallel += in_parallel(words[i]);
  for (unsigned i = 0; i < WORDS; i++) complement += 32u - by_shift(~words[i]);
  hook(WL_END, ctx);
  return shift == clearing && shift == looked_up && shift == parallel && shift == complement && shift != 0;
}
