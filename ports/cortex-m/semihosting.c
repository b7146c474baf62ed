/* SPDX-License-Identifier: MIT */
/*
 * Console, exit code, command line and host files through ARM semihosting (a BKPT 0xAB trap
 * that the debugger or QEMU serves), and the newlib system calls built on them, so printf(),
 * exit(), main(argc, argv) and fopen() work.
 *
 * Output: the console is opened as ":tt" twice, for writing (QEMU: its stdout) and for
 * appending (QEMU: its stderr), which become file descriptors 1 and 2. Exit:
 * SYS_EXIT_EXTENDED carries the status, so a program's exit status is QEMU's.
 * A semihosting call is one instruction for QEMU's instruction counter, so printing does
 * not disturb `-icount` measurements beyond the code that formats the text.
 *
 * Files: _open() opens a host file (SYS_OPEN) and gives it a descriptor >= 3 from a table of
 * TC_CM_FILES; the table keeps the position, because semihosting has no "tell" and newlib's
 * stdio seeks relative to it. Descriptors 0, 1 and 2 are the console, as before: stdin reads
 * nothing, and seeking or closing them does nothing.
 *
 * On a chip without a debugger attached BKPT faults: a board for real hardware replaces this
 * file with a UART console.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* SEEK_SET, SEEK_CUR, SEEK_END */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cm_private.h"
#include "tacet/trace.h"

#define SYS_OPEN          0x01
#define SYS_CLOSE         0x02
#define SYS_WRITE         0x05
#define SYS_READ          0x06
#define SYS_SEEK          0x0A
#define SYS_FLEN          0x0C
#define SYS_ERRNO         0x13
#define SYS_GET_CMDLINE   0x15
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

/* SYS_OPEN modes: fopen()'s "r", "w" and "a", each +2 for "+" (read and write) and +1 for "b"
 * (no newline translation on hosts that do it). */
#define MODE_R      0u
#define MODE_PLUS   2u
#define MODE_W      4u
#define MODE_A      8u
#define MODE_BINARY 1u

static int console_out = -1, console_err = -1;

static int semihost(int op, const void *arg)
{
  register int r0 __asm("r0") = op;
  register const void *r1 __asm("r1") = arg;
  __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

/* SYS_WRITE or SYS_READ of `n` bytes on host handle `h`; returns the number transferred (the
 * host answers with the number it did not transfer). */
static int transfer(int op, int h, const void *buf, size_t n)
{
  uint32_t block[3] = {(uint32_t)h, (uint32_t)(uintptr_t)buf, (uint32_t)n};
  return (int)n - semihost(op, block);
}

static int open_host(const char *name, unsigned mode)
{
  uint32_t block[3] = {(uint32_t)(uintptr_t)name, mode, (uint32_t)strlen(name)};
  return semihost(SYS_OPEN, block);
}

void tc__cm_console_init(void)
{
  console_out = open_host(":tt", MODE_W);
  console_err = open_host(":tt", MODE_A);
}

int tc__cm_console_write(int fd, const void *buf, size_t n)
{
  int h = fd == 2 ? console_err : console_out;
  if (h < 0) return -1;
  return transfer(SYS_WRITE, h, buf, n);
}

/* ---- the trace dump (TC_TRACE) ----------------------------------------------------------
 * `--tacet-trace=FILE` on the command line (tacet run --trace FILE passes it; the program
 * never sees it) makes every tc_kernel_init() start a trace, and the end of each kernel run
 * (TC_PORT_RUN_END: tc_kernel_start() returning, its books closed) write it to the host FILE through SYS_OPEN and SYS_WRITE: the
 * first run replaces the file, later runs add theirs at its end, one dump per run in order; a
 * run still recording at exit is written then. `--tacet-trace-size=BYTES` sizes the buffer
 * (by default the heap's free space less TC_CM_TRACE_RESERVE, taken from the heap at the first
 * run) and `--tacet-trace-mode=stop` keeps the first events instead of the newest (a ring). */
#if TC_TRACE
#ifndef TC_CM_TRACE_RESERVE
#define TC_CM_TRACE_RESERVE (64u * 1024u) /* heap bytes the default size leaves to malloc() */
#endif
#define TRACE_OPTION      "--tacet-trace="
#define TRACE_SIZE_OPTION "--tacet-trace-size="
#define TRACE_MODE_OPTION "--tacet-trace-mode="

extern char __heap_end[];

static const char *trace_path;
static size_t trace_size; /* 0: the default */
static unsigned trace_mode = TC_TRACE_WRAP;
static void *trace_buffer;
static bool trace_pending; /* a run's trace not written yet */
static bool trace_written; /* an earlier run's dump is in the file: append */

static _Noreturn void trace_fail(const char *what)
{
  static const char head[] = "tacet: the trace: ";
  (void)tc__cm_console_write(2, head, sizeof head - 1u);
  (void)tc__cm_console_write(2, what, strlen(what));
  (void)tc__cm_console_write(2, "\n", 1u);
  tc__cm_exit(1);
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

int tc__cm_trace_args(int argc, char **argv)
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

void tc__cm_trace_init(void)
{
  if (trace_path == NULL) return;
  if (trace_buffer == NULL) {
    if (trace_size == 0) {
      const char *brk = _sbrk(0);
      size_t free_bytes = (size_t)(__heap_end - brk);
      if (free_bytes <= TC_CM_TRACE_RESERVE) trace_fail("no heap left for the buffer");
      trace_size = free_bytes - TC_CM_TRACE_RESERVE;
    }
    trace_buffer = malloc(trace_size);
    if (trace_buffer == NULL) trace_fail("no memory for a buffer of that size (" TRACE_SIZE_OPTION ")");
  }
  if (tc_trace_enable(trace_buffer, trace_size, trace_mode) != TC_OK) trace_fail("the buffer is too small");
  trace_pending = true;
}

void tc__cm_trace_end_of_run(void)
{
  if (!trace_pending) return;
  trace_pending = false;
  (void)tc_trace_disable(); /* first: it records the last TIME event */
  size_t n;
  const void *buf = tc_trace_buffer(&n);
  if (buf == NULL) return;
  int h = open_host(trace_path, (trace_written ? MODE_R | MODE_PLUS : MODE_W) | MODE_BINARY);
  bool ok = h >= 0;
  if (ok && trace_written) {
    /* Appended at the length the host reports: a host may open "a" at the start of the file
     * (QEMU 7.2 does), and SYS_SEEK takes an absolute position. */
    uint32_t file[1] = {(uint32_t)h};
    int32_t length = semihost(SYS_FLEN, file);
    uint32_t seek[2] = {(uint32_t)h, (uint32_t)length};
    ok = length >= 0 && semihost(SYS_SEEK, seek) == 0;
  }
  trace_written = true;
  ok = ok && transfer(SYS_WRITE, h, buf, n) == (int)n;
  if (h >= 0) (void)semihost(SYS_CLOSE, &h);
  if (!ok) {
    static const char msg[] = "tacet: cannot write the trace to the host file\n";
    (void)tc__cm_console_write(2, msg, sizeof msg - 1u);
  }
}
#endif

_Noreturn void tc__cm_exit(int code)
{
#if TC_TRACE
  tc__cm_trace_end_of_run(); /* a run still recording */
#endif
  uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)code};
  for (;;) semihost(SYS_EXIT_EXTENDED, block);
}

/* ---- command line ----------------------------------------------------------------------- */

#ifndef TC_CM_CMDLINE_SIZE
#define TC_CM_CMDLINE_SIZE 256u /* bytes, with the terminating NUL */
#endif
#ifndef TC_CM_ARGS
#define TC_CM_ARGS 16u /* words of the command line that reach argv */
#endif

int tc__cm_command_line(char ***argv)
{
  static char line[TC_CM_CMDLINE_SIZE];
  static char *args[TC_CM_ARGS + 1];
  uint32_t block[2] = {(uint32_t)(uintptr_t)line, sizeof line};
  int argc = 0;
  /* A host may refuse a line longer than the buffer rather than truncate it (QEMU does):
   * then there is no argument at all, as on a host without a command line. */
  if (semihost(SYS_GET_CMDLINE, block) == 0) {
    line[sizeof line - 1] = '\0'; /* do not trust the host to terminate it */
    char *p = line;
    for (;;) {
      while (*p == ' ' || *p == '\t') *p++ = '\0';
      if (*p == '\0' || argc == (int)TC_CM_ARGS) break;
      args[argc++] = p;
      while (*p != '\0' && *p != ' ' && *p != '\t') p++;
    }
  }
  args[argc] = NULL;
  *argv = args;
  return argc;
}

/* ---- host files ------------------------------------------------------------------------- */

#ifndef TC_CM_FILES
#define TC_CM_FILES 4u /* host files open at the same time */
#endif
#define FIRST_FILE_FD 3 /* 0, 1, 2: the console */

typedef struct {
  bool open;
  bool append; /* every write goes to the end, wherever the position was */
  int handle;  /* the host's */
  int32_t pos; /* the host's file position, which semihosting cannot report */
} host_file;

static host_file files[TC_CM_FILES];

/* The host's reason for the last failed call, for errno (newlib and the hosts share the
 * POSIX numbers of the common errors: ENOENT, EACCES, EBADF, ...). */
static void set_host_errno(void)
{
  int e = semihost(SYS_ERRNO, NULL);
  errno = e > 0 ? e : EIO;
}

/* The open file of descriptor `fd`, or NULL with errno EBADF. */
static host_file *file_of(int fd)
{
  unsigned i = (unsigned)fd - FIRST_FILE_FD;
  if (i < TC_CM_FILES && files[i].open) return &files[i];
  errno = EBADF;
  return NULL;
}

/* The host's length of file `f` in bytes, or -1 with errno set. */
static int32_t file_length(const host_file *f)
{
  uint32_t block[1] = {(uint32_t)f->handle};
  int32_t n = semihost(SYS_FLEN, block);
  if (n < 0) set_host_errno();
  return n;
}

/* ---- newlib system calls ---------------------------------------------------------------- */

/* newlib's contracts: -1 with errno set on failure. Context: threads and main(), not
 * interrupt handlers (the file table is not protected; a semihosting call stops the core
 * until the host answers). */

/* Semihosting has the six modes of fopen(), not open()'s flags: O_TRUNC selects "w",
 * O_APPEND "a", neither "r" (so O_CREAT alone creates nothing); write access without read
 * access is "r+", the one mode that writes into an existing file without truncating it.
 * The mode argument (permissions) is the host's business. */
int _open(const char *path, int flags, ...)
{
  unsigned i = 0;
  while (i < TC_CM_FILES && files[i].open) i++;
  if (i == TC_CM_FILES) {
    errno = ENFILE;
    return -1;
  }
  int access = flags & O_ACCMODE;
  unsigned mode = (flags & O_APPEND) ? MODE_A : (flags & O_TRUNC) ? MODE_W : MODE_R;
  if (access == O_RDWR || (access == O_WRONLY && mode == MODE_R)) mode += MODE_PLUS;
  int h = open_host(path, mode | MODE_BINARY);
  if (h < 0) {
    set_host_errno();
    return -1;
  }
  files[i] = (host_file){.open = true, .append = (flags & O_APPEND) != 0, .handle = h};
  return FIRST_FILE_FD + (int)i;
}

int _write(int fd, const void *buf, size_t n)
{
  if (fd == 1 || fd == 2) return tc__cm_console_write(fd, buf, n);
  host_file *f = file_of(fd);
  if (f == NULL) return -1;
  int done = transfer(SYS_WRITE, f->handle, buf, n);
  f->pos = f->append ? file_length(f) : f->pos + done;
  return done;
}

int _read(int fd, void *buf, size_t n)
{
  if (fd >= 0 && fd < FIRST_FILE_FD) return 0; /* no console input */
  host_file *f = file_of(fd);
  if (f == NULL) return -1;
  int done = transfer(SYS_READ, f->handle, buf, n);
  f->pos += done;
  return done;
}

int _close(int fd)
{
  if (fd >= 0 && fd < FIRST_FILE_FD) return 0;
  host_file *f = file_of(fd);
  if (f == NULL) return -1;
  f->open = false; /* the descriptor is free even if the host reports an error */
  uint32_t block[1] = {(uint32_t)f->handle};
  if (semihost(SYS_CLOSE, block) != 0) {
    set_host_errno();
    return -1;
  }
  return 0;
}

/* SYS_SEEK only knows absolute positions: SEEK_CUR counts from the position kept here,
 * SEEK_END from the host's file length. */
int _lseek(int fd, int off, int whence)
{
  if (fd >= 0 && fd < FIRST_FILE_FD) return 0;
  host_file *f = file_of(fd);
  if (f == NULL) return -1;
  int32_t base;
  switch (whence) {
  case SEEK_SET: base = 0; break;
  case SEEK_CUR: base = f->pos; break;
  case SEEK_END:
    base = file_length(f);
    if (base < 0) return -1;
    break;
  default: errno = EINVAL; return -1;
  }
  int64_t pos = (int64_t)base + off;
  if (pos < 0 || pos > INT32_MAX) {
    errno = EINVAL;
    return -1;
  }
  uint32_t block[2] = {(uint32_t)f->handle, (uint32_t)pos};
  if (semihost(SYS_SEEK, block) != 0) {
    set_host_errno();
    return -1;
  }
  f->pos = (int32_t)pos;
  return f->pos;
}

int _fstat(int fd, struct stat *st)
{
  memset(st, 0, sizeof *st);
  if (fd >= 0 && fd < FIRST_FILE_FD) {
    st->st_mode = S_IFCHR;
    return 0;
  }
  host_file *f = file_of(fd);
  if (f == NULL) return -1;
  int32_t n = file_length(f);
  if (n < 0) return -1;
  st->st_mode = S_IFREG;
  st->st_size = n;
  return 0;
}

int _isatty(int fd)
{
  /* The console is line-buffered (one semihosting call per line); host files are not. */
  return fd >= 0 && fd < FIRST_FILE_FD;
}
