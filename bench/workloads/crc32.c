/* SPDX-License-Identifier: MIT */
/*
 * CRC-32 as Ethernet, zip and PNG use it (polynomial 0x04C11DB7, bits reflected, so the
 * register shifts right with 0xEDB88320; initial value and final xor 0xFFFFFFFF): once bit by
 * bit from the definition, once by a 256-entry table built from the same definition.
 *
 * Self-check: the catalogue's check value (the CRC of the nine bytes "123456789" is
 * 0xCBF43926), and both methods agreeing on 1 KB of pseudo-random bytes. The middle point
 * falls half-way through the bitwise pass.
 */
#include "workloads.h"

#define POLY 0xEDB88320u /* 0x04C11DB7 bit-reversed */
#define DATA 1024u

static uint32_t bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    crc ^= p[i];
    for (unsigned b = 0; b < 8; b++) crc = (crc >> 1) ^ (POLY & (0u - (crc & 1u)));
  }
  return crc;
}

static uint32_t by_table(const uint32_t table[256], uint32_t crc, const uint8_t *p, size_t n)
{
  for (size_t i = 0; i < n; i++) crc = (crc >> 8) ^ table[(crc ^ p[i]) & 0xFFu];
  return crc;
}

bool wl_crc32(wl_hook hook, void *ctx)
{
  uint32_t table[256];
  uint8_t data[DATA];
  hook(WL_START, ctx);
  /* Entry i: the register after shifting the byte i through it alone. */
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t r = i;
    for (unsigned b = 0; b < 8; b++) r = (r >> 1) ^ (POLY & (0u - (r & 1u)));
    table[i] = r;
  }
  uint32_t seed = 0x1234567u;
  for (unsigned i = 0; i < DATA; i += 4) {
    uint32_t r = wl_random(&seed);
    for (unsigned j = 0; j < 4; j++) data[i + j] = (uint8_t)(r >> (8 * j));
  }
  static const uint8_t check[] = "123456789";
  uint32_t check_table = by_table(table, 0xFFFFFFFFu, check, 9) ^ 0xFFFFFFFFu;
  uint32_t check_bits = bitwise(0xFFFFFFFFu, check, 9) ^ 0xFFFFFFFFu;
  uint32_t fast = by_table(table, 0xFFFFFFFFu, data, DATA) ^ 0xFFFFFFFFu;
  uint32_t slow = bitwise(0xFFFFFFFFu, data, DATA / 2);
  hook(WL_MIDDLE, ctx);
  slow = bitwise(slow, data + DATA / 2, DATA / 2) ^ 0xFFFFFFFFu;
  hook(WL_END, ctx);
  return check_table == 0xCBF43926u && check_bits == 0xCBF43926u && fast == slow;
}
