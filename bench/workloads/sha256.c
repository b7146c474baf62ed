/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 (FIPS 180-4, sections 4.1.2, 4.2.2, 5.1.1, 5.3.3 and 6.2), written from the
 * standard: the message padded to 512-bit blocks, each block expanded to 64 words and
 * compressed into the eight-word state.
 *
 * Self-check: the standard's two example messages ("abc", one block; the 448-bit
 * "abcdbcde...nopq", two blocks) against their published digests, and a 1008-byte message
 * (the 896-bit example string nine times: 16 blocks, most of the work) against the digest of
 * an independent implementation (Python's hashlib). The middle point falls after the eighth
 * block of the long message.
 */
#include <string.h>

#include "workloads.h"

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

/* The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
static const uint32_t H0[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                               0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32u - n)); }

static void compress(uint32_t h[8], const uint8_t block[64])
{
  uint32_t w[64];
  for (unsigned t = 0; t < 16; t++)
    w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 | (uint32_t)block[4 * t + 2] << 8 |
           block[4 * t + 3];
  for (unsigned t = 16; t < 64; t++) {
    uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (unsigned t = 0; t < 64; t++) {
    uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

/* The digest of `len` bytes of `msg`; `middle` (if not NULL) is called after block `at`. */
static void sha256(const uint8_t *msg, size_t len, uint8_t out[32], size_t at, wl_hook middle, void *ctx)
{
  uint32_t h[8];
  memcpy(h, H0, sizeof h);
  size_t blocks = 0, done = 0;
  for (; len - done >= 64; done += 64) {
    compress(h, msg + done);
    if (middle != NULL && ++blocks == at) middle(WL_MIDDLE, ctx);
  }
  /* The tail, the 1 bit, zeros, and the length in bits: one or two blocks (5.1.1). */
  uint8_t tail[128];
  size_t rest = len - done, n = rest + 9 <= 64 ? 64 : 128;
  memset(tail, 0, sizeof tail);
  memcpy(tail, msg + done, rest);
  tail[rest] = 0x80;
  uint64_t bits = (uint64_t)len * 8u;
  for (unsigned i = 0; i < 8; i++) tail[n - 1 - i] = (uint8_t)(bits >> (8 * i));
  compress(h, tail);
  if (n == 128) compress(h, tail + 64);
  for (unsigned i = 0; i < 8; i++) {
    out[4 * i] = (uint8_t)(h[i] >> 24);
    out[4 * i + 1] = (uint8_t)(h[i] >> 16);
    out[4 * i + 2] = (uint8_t)(h[i] >> 8);
    out[4 * i + 3] = (uint8_t)h[i];
  }
}

static bool digest_is(const uint8_t d[32], const char *hex)
{
  for (unsigned i = 0; i < 32; i++) {
    unsigned v = 0;
    for (unsigned j = 0; j < 2; j++) {
      char c = hex[2 * i + j];
      v = v * 16u + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    if (d[i] != v) return false;
  }
  return true;
}

static const char example896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                                 "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

bool wl_sha256(wl_hook hook, void *ctx)
{
  static const char abc[] = "abc";
  static const char example448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  uint8_t d1[32], d2[32], d3[32];
  uint8_t long_msg[9 * (sizeof example896 - 1)];
  hook(WL_START, ctx);
  for (unsigned i = 0; i < 9; i++) memcpy(long_msg + i * (sizeof example896 - 1), example896, sizeof example896 - 1);
  sha256((const uint8_t *)abc, sizeof abc - 1, d1, 0, NULL, NULL);
  sha256((const uint8_t *)example448, sizeof example448 - 1, d2, 0, NULL, NULL);
  sha256(long_msg, sizeof long_msg, d3, 8, hook, ctx);
  hook(WL_END, ctx);
  return digest_is(d1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") &&
         digest_is(d2, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1") &&
         digest_is(d3, "3eab413dd0b40d2f93f340052af53e630ab4c895e14a12743877368cb5b23d77");
}
