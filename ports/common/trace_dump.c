/* SPDX-License-Identifier: MIT */
/*
 * The trace dump of a port under QEMU (trace_dump.h). `--tacet-trace=FILE` on the command line
 * (tacet run --trace FILE passes it; the program never sees it) makes every tc_kernel_init()
 * start a trace, and the end of each kernel run (TC_PORT_RUN_END: tc_kernel_start() returning,
 * its books closed) write it to the host FILE: the first run replaces the file, later runs add
 * theirs at its end, one dump per run in order; a run still recording at exit is written then.
 * `--tacet-trace-size=BYTES` sizes the buffer (by default the heap's free space less
 * TC_TRACE_DUMP_RESERVE, taken from the heap at the first run) and `--tacet-trace-mode=stop`
 * keeps the first events instead of the newest (a ring).
 *
 * The file is written with open(), lseek() and write(), which the C library of each port
 * serves over semihosting (Cortex-M: semihosting.c; RISC-V: picolibc's libsemihost). A dump is
 * appended at the end the host reports (SEEK_END: semihosting's SYS_FLEN), not by opening in
 * append mode: a host may open "a" at the start of the file (QEMU 7.2 does).
 */
#include "trace_dump.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tacet/trace.h"

#ifndef TC_TRACE_DUMP_RESERVE
#define TC_TRACE_DUMP_RESERVE (64u * 1024u) /* heap bytes the default size leaves to malloc() */
#endif
#define TRACE_OPTION      "--tacet-trace="
#define TRACE_SIZE_OPTION "--tacet-trace-size="
#define TRACE_MODE_OPTION "--tacet-trace-mode="

static const char *trace_path;
static size_t trace_size; /* 0: the default */
static unsigned trace_mode = TC_TRACE_WRAP;
static void *trace_buffer;
static bool trace_pending; /* a run's trace not written yet */
static bool trace_written; /* an earlier run's dump is in the file: append */

static _Noreturn void trace_fail(const char *what)
{
  fflush(stdout);
  fprintf(stderr, "tacet: the trace: %s\n", what);
  exit(1);
}

/* A whole decimal number of bytes, or 0 when `text` is not one. */
static size_t parse_size(const char *text)
{
  size_t v = 0;
  if (*text == '\0') return 0;
  for (; *text != '\0'; text++) {
    if (*text < '0' || *text > '9' || v > (SIZE_MAX - 9u) / 10u) return 0;
    v = v * 10u + (size_t)(*text - '0');
  }
  return v;
}

static bool has_prefix(const char *word, const char *prefix)
{
  return strncmp(word, prefix, strlen(prefix)) == 0;
}

int tc__trace_dump_args(int argc, char **argv)
{
  int kept = 0;
  for (int i = 0; i < argc; i++) {
    const char *w = argv[i];
    if (has_prefix(w, TRACE_OPTION)) {
      trace_path = w + sizeof TRACE_OPTION - 1u;
    } else if (has_prefix(w, TRACE_SIZE_OPTION)) {
      trace_size = parse_size(w + sizeof TRACE_SIZE_OPTION - 1u);
      if (trace_size == 0) trace_fail(TRACE_SIZE_OPTION ": expected a number of bytes");
    } else if (has_prefix(w, TRACE_MODE_OPTION)) {
      const char *mode = w + sizeof TRACE_MODE_OPTION - 1u;
      if (strcmp(mode, "stop") != 0 && strcmp(mode, "wrap") != 0)
        trace_fail(TRACE_MODE_OPTION ": expected wrap or stop");
      trace_mode = strcmp(mode, "stop") == 0 ? TC_TRACE_STOP : TC_TRACE_WRAP;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argv[kept] = NULL;
  return kept;
}

void tc__trace_dump_start(size_t heap_free)
{
  if (trace_path == NULL) return;
  if (trace_buffer == NULL) {
    if (trace_size == 0) {
      if (heap_free <= TC_TRACE_DUMP_RESERVE) trace_fail("no heap left for the buffer");
      trace_size = heap_free - TC_TRACE_DUMP_RESERVE;
    }
    trace_buffer = malloc(trace_size);
    if (trace_buffer == NULL) trace_fail("no memory for a buffer of that size (" TRACE_SIZE_OPTION ")");
  }
  if (tc_trace_enable(trace_buffer, trace_size, trace_mode) != TC_OK) trace_fail("the buffer is too small");
  trace_pending = true;
}

void tc__trace_dump_end_of_run(void)
{
  if (!trace_pending) return;
  trace_pending = false;
  (void)tc_trace_disable(); /* first: it records the last TIME event */
  size_t n;
  const void *buf = tc_trace_buffer(&n);
  if (buf == NULL) return;
  int fd = open(trace_path, trace_written ? O_RDWR : O_WRONLY | O_CREAT | O_TRUNC, 0644);
  bool ok = fd >= 0;
  if (ok && trace_written) ok = lseek(fd, 0, SEEK_END) >= 0;
  trace_written = true;
  ok = ok && write(fd, buf, n) == (ssize_t)n;
  if (fd >= 0 && close(fd) != 0) ok = false;
  if (!ok) fprintf(stderr, "tacet: cannot write the trace to the host file\n");
}
