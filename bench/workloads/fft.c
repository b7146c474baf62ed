/* SPDX-License-Identifier: MIT */
/*
 * Fixed-point FFT (MiBench's telecomm group): a 256-point radix-2 decimation-in-time FFT in
 * Q15, each butterfly stage scaled by 1/2 so that nothing overflows (the result is X[k] / N).
 * The twiddle factors are computed by the workload: a rotation by 2*pi/N applied N/2 times in
 * Q30 from cos and sin of 2*pi/256 (two constants), which keeps the error far below a Q15
 * step over the 128 rotations.
 *
 * Self-check from the transform's definition: the input A cos(2 pi k1 n / N) +
 * B sin(2 pi k2 n / N) has, scaled by 1/N, the real value A/2 at bins k1 and N-k1, the
 * imaginary value -B/2 at k2 and +B/2 at N-k2, and nothing elsewhere -- each within a few
 * Q15 steps of rounding. The middle point falls after four of the eight stages.
 */
#include "workloads.h"

#define N      256u
#define STAGES 8u
#define K1     5u
#define K2     37u
#define A      12000
#define B      8000
#define TOLERANCE 16 /* Q15 steps: a rounding per stage and the twiddles' own */

/* cos and sin of 2 pi / 256 in Q30, rounded. */
#define COS_STEP 1073418433
#define SIN_STEP 26350943

typedef struct {
  int16_t re, im;
} cq15;

/* Q30 to Q15, rounded; 1.0 saturates to the largest Q15 value. */
static int16_t q15(int64_t q30)
{
  int64_t v = (q30 + (1 << 14)) >> 15;
  return (int16_t)(v > 32767 ? 32767 : v);
}

/* cos and sin of 2 pi k / N, 0 <= k < N, from the table of the first half. */
static cq15 unit(const cq15 half[N / 2], unsigned k)
{
  k %= N;
  if (k < N / 2) return half[k];
  cq15 w = half[k - N / 2];
  return (cq15){(int16_t)-w.re, (int16_t)-w.im};
}

bool wl_fft(wl_hook hook, void *ctx)
{
  cq15 twiddle[N / 2], x[N];
  hook(WL_START, ctx);
  int64_t c = 1 << 30, s = 0;
  for (unsigned k = 0; k < N / 2; k++) {
    twiddle[k] = (cq15){q15(c), q15(s)};
    int64_t nc = (c * COS_STEP - s * SIN_STEP) >> 30;
    s = (s * COS_STEP + c * SIN_STEP) >> 30;
    c = nc;
  }
  /* The input, in bit-reversed order: the butterflies then work in place in natural order. */
  for (unsigned n = 0; n < N; n++) {
    unsigned r = 0;
    for (unsigned b = 0; b < STAGES; b++) r |= ((n >> b) & 1u) << (STAGES - 1u - b);
    int32_t v = (A * unit(twiddle, K1 * n).re + B * unit(twiddle, K2 * n + N * 3 / 4).re) >> 15;
    x[r] = (cq15){(int16_t)v, 0}; /* sin(t) = cos(t - pi/2) = cos(t + 3 pi/2) */
  }
  for (unsigned stage = 0; stage < STAGES; stage++) {
    if (stage == STAGES / 2) hook(WL_MIDDLE, ctx);
    unsigned half = 1u << stage, step = N / (2u * half);
    for (unsigned start = 0; start < N; start += 2u * half) {
      for (unsigned j = 0; j < half; j++) {
        /* w = exp(-2 pi i j step / N): cos, -sin. */
        cq15 w = twiddle[j * step];
        cq15 *p = &x[start + j], *q = &x[start + j + half];
        int32_t tr = (q->re * w.re + q->im * w.im) >> 15;
        int32_t ti = (q->im * w.re - q->re * w.im) >> 15;
        int32_t pr = p->re, pi = p->im;
        p->re = (int16_t)((pr + tr) >> 1);
        p->im = (int16_t)((pi + ti) >> 1);
        q->re = (int16_t)((pr - tr) >> 1);
        q->im = (int16_t)((pi - ti) >> 1);
      }
    }
  }
  hook(WL_END, ctx);
  bool ok = true;
  for (unsigned k = 0; k < N; k++) {
    int32_t re = k == K1 || k == N - K1 ? A / 2 : 0;
    int32_t im = k == K2 ? -B / 2 : k == N - K2 ? B / 2 : 0;
    int32_t dr = x[k].re - re, di = x[k].im - im;
    if (dr > TOLERANCE || dr < -TOLERANCE || di > TOLERANCE || di < -TOLERANCE) ok = false;
  }
  return ok;
}
