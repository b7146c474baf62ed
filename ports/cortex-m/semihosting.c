/*
 * Console and exit code through ARM semihosting (a BKPT 0xAB trap that the debugger or QEMU
 * serves), and the newlib system calls built on them, so printf() and exit() work.
 *
 * Output: the console is opened as ":tt" twice, for writing (QEMU: its stdout) and for
 * appending (QEMU: its stderr), which become file descriptors 1 and 2. Exit:
 * SYS_EXIT_EXTENDED carries the status, so a program's exit status is QEMU's.
 * A semihosting call is one instruction for QEMU's instruction counter, so printing does
 * not disturb `-icount` measurements beyond the code that formats the text.
 *
 * On a chip without a debugger attached BKPT faults: a board for real hardware replaces this
 * file with a UART console.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "cm_private.h"

#define SYS_OPEN          0x01
#define SYS_WRITE         0x05
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static int console_out = -1, console_err = -1;

static int semihost(int op, const void *arg)
{
  register int r0 __asm("r0") = op;
  register const void *r1 __asm("r1") = arg;
  __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static int open_console(unsigned mode)
{
  static const char tt[] = ":tt";
  uint32_t block[3] = {(uint32_t)(uintptr_t)tt, mode, sizeof tt - 1};
  return semihost(SYS_OPEN, block);
}

void tc__cm_console_init(void)
{
  console_out = open_console(4); /* "w" */
  console_err = open_console(8); /* "a" */
}

int tc__cm_console_write(int fd, const void *buf, size_t n)
{
  int h = fd == 2 ? console_err : console_out;
  if (h < 0) return -1;
  uint32_t block[3] = {(uint32_t)h, (uint32_t)(uintptr_t)buf, (uint32_t)n};
  int not_written = semihost(SYS_WRITE, block);
  return (int)n - not_written;
}

_Noreturn void tc__cm_exit(int code)
{
  uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)code};
  for (;;) semihost(SYS_EXIT_EXTENDED, block);
}

/* ---- newlib system calls ---------------------------------------------------------------- */

int _write(int fd, const void *buf, size_t n);
int _read(int fd, void *buf, size_t n);
int _close(int fd);
int _lseek(int fd, int off, int whence);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _getpid(void);
int _kill(int pid, int sig);
void *_sbrk(ptrdiff_t incr);
_Noreturn void _exit(int code);

int _write(int fd, const void *buf, size_t n)
{
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  return tc__cm_console_write(fd, buf, n);
}

int _read(int fd, void *buf, size_t n)
{
  (void)fd;
  (void)buf;
  (void)n;
  return 0; /* no console input */
}

int _close(int fd)
{
  (void)fd;
  return 0;
}

int _lseek(int fd, int off, int whence)
{
  (void)fd;
  (void)off;
  (void)whence;
  return 0;
}

int _fstat(int fd, struct stat *st)
{
  (void)fd;
  st->st_mode = S_IFCHR;
  return 0;
}

int _isatty(int fd)
{
  (void)fd;
  return 1; /* line-buffered stdout: one semihosting call per line */
}

int _getpid(void) { return 1; }

int _kill(int pid, int sig)
{
  (void)pid;
  (void)sig;
  errno = EINVAL;
  return -1;
}

/* The heap lies between the end of .bss and the stacks (linker script). */
extern char __heap_start[], __heap_end[];

void *_sbrk(ptrdiff_t incr)
{
  static char *brk = __heap_start;
  if (incr > __heap_end - brk || incr < __heap_start - brk) {
    errno = ENOMEM;
    return (void *)-1;
  }
  char *old = brk;
  brk += incr;
  return old;
}

void _exit(int code) { tc__cm_exit(code); }
