/* SPDX-License-Identifier: MIT */
/*
 * What the ports under QEMU share for talking to the host (report.c): the words of the
 * command line, and the fault and panic reports, written with no C library state (they run
 * after a fault, with interrupts masked).
 */
#ifndef TACET_REPORT_H
#define TACET_REPORT_H

#include <stddef.h>
#include <stdint.h>

/* Split `line` (NUL-terminated; the separators are overwritten) at spaces and tabs into at most
 * `max` words in args[], which ends with NULL (args holds max + 1 entries); returns how many. */
int tc__split_words(char *line, char **args, int max);

/* A report's pieces: text, " label=0x%08x", a decimal number. */
void tc__report(const char *s);
void tc__report_hex(const char *label, uint32_t v);
void tc__report_decimal(uint32_t v);

/* A panic's report up to where the port adds what it knows of the context: "tacet: panic: "
 * msg, then ": " detail unless it is NULL. */
void tc__report_panic(const char *msg, const char *detail);

/* The port's: write `n` bytes of a report to its console (stderr), from any context. */
void tc__report_write(const char *s, size_t n);

#endif /* TACET_REPORT_H */
