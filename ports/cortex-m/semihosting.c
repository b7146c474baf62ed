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

#include "../common/report.h"
#include "cm_private.h"
#if TC_TRACE
#include "../common/trace_dump.h"
#endif

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

_Noreturn void tc__cm_exit(int code)
{
#if TC_TRACE
  tc__trace_dump_end_of_run(); /* a run still recording (ports/common/trace_dump.c) */
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
    argc = tc__split_words(line, args, (int)TC_CM_ARGS);
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
