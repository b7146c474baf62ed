/* SPDX-License-Identifier: MIT */
/* The command line's words and the fault reports of the ports under QEMU (report.h). */
#include "report.h"

#include <string.h>

int tc__split_words(char *line, char **args, int max)
{
  int n = 0;
  char *p = line;
  for (;;) {
    while (*p == ' ' || *p == '\t') *p++ = '\0';
    if (*p == '\0' || n == max) break;
    args[n++] = p;
    while (*p != '\0' && *p != ' ' && *p != '\t') p++;
  }
  args[n] = NULL;
  return n;
}

void tc__report(const char *s) { tc__report_write(s, strlen(s)); }

void tc__report_hex(const char *label, uint32_t v)
{
  char b[12] = " ";
  strncat(b, label, sizeof b - 2u);
  tc__report(b);
  char h[12] = "=0x";
  for (int i = 0; i < 8; i++) h[3 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 0xFu];
  h[11] = '\0';
  tc__report(h);
}

void tc__report_decimal(uint32_t v)
{
  char b[11];
  unsigned i = sizeof b - 1;
  b[i] = '\0';
  do {
    b[--i] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v != 0);
  tc__report(&b[i]);
}

void tc__report_panic(const char *msg, const char *detail)
{
  tc__report("tacet: panic: ");
  tc__report(msg);
  if (detail != NULL) {
    tc__report(": ");
    tc__report(detail);
  }
}
