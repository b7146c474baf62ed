/* SPDX-License-Identifier: MIT */
/*
 * The scenario interpreter: runs scenarios on the kernel and prints what happened, for
 * `tacet conformance` to compare with the reference model (tools/tacet/conformance/model.py). The text
 * forms of a scenario and of its outcome are stated in tools/tacet/conformance/scenario.py.
 *
 *   conformance [FILE]    reads scenarios from FILE (default: standard input) and writes one
 *                         outcome per scenario to standard output, flushed after each, so a
 *                         host program can drive it one scenario at a time through a pipe.
 *
 * Each scenario is a fresh run of the kernel: the threads and objects are created in the
 * order the scenario lists them, tc_kernel_start() runs until no thread can run any more,
 * and the final state is read back. Every call is followed by tc_check(); the first
 * invariant it reports is printed as a `check` line, which the model never produces.
 *
 * Interrupts are real ones for the port: a simulated interrupt raised at the current cycle
 * on the sim port, an NVIC interrupt triggered from software on Cortex-M, the machine software
 * interrupt on RISC-V. Exit status: 0, or
 * 2 for input that does not follow the format (named by line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tacet/tacet.h"

#if __has_include("tacet/sim.h")
#include "tacet/sim.h"
#define STACK_SIZE 16384u
#elif __has_include("tacet/riscv.h")
#include "tacet/riscv.h"
#define STACK_SIZE 4096u
#else
#include "tacet/cortex_m.h"
#define STACK_SIZE 4096u
#define ISR_IRQ 30u
#endif

#define MAX_THREADS  8u
#define MAX_CALLS    16u
#define MAX_OBJECTS  4u
#define MAX_LOG      16384u
#define MAX_HISR_RUN 64u

enum op {
  OP_TAKE, OP_GIVE, OP_SEND, OP_SENDF, OP_RECV, OP_FLUSH, OP_SET, OP_CLEAR, OP_WAIT, OP_LOCK,
  OP_UNLOCK, OP_RESUME, OP_SUSPEND, OP_TERM, OP_ABORT, OP_PRIO, OP_THR, OP_YIELD, OP_SLEEP,
  OP_SLOCK, OP_SUNLOCK, OP_ISR, OP_HISR, OP_COUNT
};

/* Name and argument count of each call, in enum order. */
static const struct {
  const char *name;
  unsigned args;
} ops[OP_COUNT] = {
    {"take", 2},   {"give", 1},    {"send", 3},   {"sendf", 3}, {"recv", 2},    {"flush", 1},
    {"set", 2},    {"clear", 2},   {"wait", 4},   {"lock", 2},  {"unlock", 1},  {"resume", 1},
    {"suspend", 1}, {"term", 1},   {"abort", 1},  {"prio", 2},  {"thr", 2},     {"yield", 0},
    {"sleep", 0},  {"slock", 0},   {"sunlock", 0}, {"isr", 0},  {"hisr", 1},
};

typedef struct {
  uint8_t op;
  uint32_t a[4];
  uint8_t n_sub; /* OP_ISR: the handler's calls */
  uint8_t sub;   /* index of the first of them in `subs` */
} call;

/* One scenario. */
static struct {
  long ident;
  unsigned n_threads, n_sems, n_queues, n_events, n_mutexes, n_hisr_lists, n_subs;
  struct {
    unsigned priority, threshold, started, n_calls;
    call calls[MAX_CALLS];
  } thread[MAX_THREADS];
  uint32_t sem_init[MAX_OBJECTS], sem_max[MAX_OBJECTS], queue_depth[MAX_OBJECTS];
  bool mutex_inherit[MAX_OBJECTS];
  uint8_t hisr_first[MAX_OBJECTS], hisr_n[MAX_OBJECTS]; /* a list's calls in `subs` */
  call subs[MAX_THREADS * MAX_CALLS + MAX_OBJECTS * MAX_CALLS];
} sc;

/* The kernel objects of a run. */
static tc_thread threads[MAX_THREADS];
static uint8_t stacks[MAX_THREADS + 1][STACK_SIZE] __attribute__((aligned(16)));
static tc_sem sems[MAX_OBJECTS];
static tc_queue queues[MAX_OBJECTS];
static uint32_t queue_buf[MAX_OBJECTS][8];
static tc_event events[MAX_OBJECTS];
static tc_mutex mutexes[MAX_OBJECTS];
static tc_hisr hisr;

/* The HISR's activations not yet run (their list numbers), and its runs so far. */
static uint8_t hisr_fifo[MAX_HISR_RUN];
static unsigned hisr_in, hisr_out;

static char log_buf[MAX_LOG];
static size_t log_len;
static char check_failure[160];

/* ---- recording -------------------------------------------------------------------------- */

static void log_result(const char *tag, tc_status st, bool has_value, uint32_t value)
{
  if (log_len > MAX_LOG - 64) return; /* the model's log would differ: reported as a divergence */
  int n = snprintf(log_buf + log_len, MAX_LOG - log_len, "%s%s=%d", log_len ? " " : "", tag, (int)st);
  if (n > 0) log_len += (size_t)n;
  if (st == TC_OK && has_value) {
    n = snprintf(log_buf + log_len, MAX_LOG - log_len, "/%lu", (unsigned long)value);
    if (n > 0) log_len += (size_t)n;
  }
}

static void check(const char *after)
{
  const char *why = tc_check();
  if (why != NULL && check_failure[0] == '\0')
    snprintf(check_failure, sizeof check_failure, "check after %s: %s", after, why);
}

/* ---- making one call ---------------------------------------------------------------------- */

static uint32_t wait_of(uint32_t w) { return w ? TC_WAIT_FOREVER : TC_NO_WAIT; }

static void raise_isr(const call *c, const char *tag);

/* Make call `c` from whatever context this is; *has_value tells whether *value is reported. */
static tc_status do_call(const call *c, bool *has_value, uint32_t *value)
{
  const uint32_t *a = c->a;
  tc_thread *t = &threads[a[0] < MAX_THREADS ? a[0] : 0];
  *has_value = false;
  switch ((enum op)c->op) {
  case OP_TAKE: return tc_sem_take(&sems[a[0]], wait_of(a[1]));
  case OP_GIVE: return tc_sem_give(&sems[a[0]]);
  case OP_SEND: return tc_queue_send(&queues[a[0]], &a[1], wait_of(a[2]));
  case OP_SENDF: return tc_queue_send_front(&queues[a[0]], &a[1], wait_of(a[2]));
  case OP_RECV:
    *has_value = true;
    return tc_queue_receive(&queues[a[0]], value, wait_of(a[1]));
  case OP_FLUSH: return tc_queue_flush(&queues[a[0]]);
  case OP_SET: return tc_event_set(&events[a[0]], a[1]);
  case OP_CLEAR: return tc_event_clear(&events[a[0]], a[1]);
  case OP_WAIT:
    *has_value = true;
    return tc_event_wait(&events[a[0]], a[1], a[2], value, wait_of(a[3]));
  case OP_LOCK: return tc_mutex_lock(&mutexes[a[0]], wait_of(a[1]));
  case OP_UNLOCK: return tc_mutex_unlock(&mutexes[a[0]]);
  case OP_RESUME: return tc_thread_resume(t);
  case OP_SUSPEND: return tc_thread_suspend(t);
  case OP_TERM: return tc_thread_terminate(t);
  case OP_ABORT: return tc_thread_wait_abort(t);
  case OP_PRIO: return tc_thread_priority_change(t, a[1], NULL);
  case OP_THR: return tc_thread_threshold_change(t, a[1], NULL);
  case OP_YIELD: tc_thread_yield(); return TC_OK;
  case OP_SLEEP: return tc_thread_sleep(TC_WAIT_FOREVER);
  case OP_SLOCK: tc_sched_lock(); return TC_OK;
  case OP_SUNLOCK: tc_sched_unlock(); return TC_OK;
  case OP_HISR:
    if (hisr_in - hisr_out == MAX_HISR_RUN) return TC_FULL;
    hisr_fifo[hisr_in++ % MAX_HISR_RUN] = (uint8_t)a[0];
    return tc_hisr_activate(&hisr);
  case OP_ISR:
  case OP_COUNT: break;
  }
  return TC_INVALID;
}

/* Make calls subs[first .. first+n) and record each as <prefix>.<j>. */
static void run_calls(unsigned first, unsigned n, const char *prefix)
{
  for (unsigned j = 0; j < n; j++) {
    char tag[32];
    snprintf(tag, sizeof tag, "%s.%u", prefix, j);
    bool has_value;
    uint32_t value = 0;
    tc_status st = do_call(&sc.subs[first + j], &has_value, &value);
    log_result(tag, st, has_value, value);
    check(tag);
  }
}

/* ---- interrupts and the HISR ------------------------------------------------------------ */

static const call *isr_call;
static const char *isr_tag;

static void isr_body(void) { run_calls(isr_call->sub, isr_call->n_sub, isr_tag); }

#if __has_include("tacet/sim.h")
/* The port brackets a simulated interrupt with tc_isr_enter/exit itself. Raised at the
 * current cycle with interrupts unmasked, it is taken before tc_sim_irq_at() returns. */
static void raise_isr(const call *c, const char *tag)
{
  isr_call = c;
  isr_tag = tag;
  if (tc_sim_irq_at(tc_sim_now(), isr_body) != TC_OK) {
    fprintf(stderr, "conformance: tc_sim_irq_at failed\n");
    exit(3);
  }
}
#elif __has_include("tacet/riscv.h")
/* Without the bracket: on RISC-V the port tells a trap from mscratch, and the trap's end commits
 * the handler's last decision. Taken before the instruction after the raise. */
void tc_rv_software_handler(void) { isr_body(); }

static void raise_isr(const call *c, const char *tag)
{
  isr_call = c;
  isr_tag = tag;
  tc_rv_software_interrupt();
}
#else
/* Without the bracket: on Cortex-M the hardware tells handler mode, and PendSV commits the
 * handler's last decision (the bracketed form is exercised by the port-neutral tests). */
void PORT0_6_Handler(void) { isr_body(); } /* line 30 (GPIO 0 pin 6: nothing drives it) */

/* Taken before the instruction after the trigger: the kernel's interrupt priority is not
 * masked in a thread. */
static void raise_isr(const call *c, const char *tag)
{
  isr_call = c;
  isr_tag = tag;
  tc_cm_irq_trigger(ISR_IRQ);
}
#endif

static unsigned hisr_runs;

static void hisr_fn(void)
{
  unsigned list = hisr_fifo[hisr_out++ % MAX_HISR_RUN];
  char prefix[16];
  snprintf(prefix, sizeof prefix, "h%u", hisr_runs++);
  run_calls(sc.hisr_first[list], sc.hisr_n[list], prefix);
}

/* ---- threads ------------------------------------------------------------------------------- */

static void thread_entry(void *arg)
{
  unsigned i = (unsigned)(uintptr_t)arg;
  for (unsigned k = 0; k < sc.thread[i].n_calls; k++) {
    const call *c = &sc.thread[i].calls[k];
    char tag[24];
    snprintf(tag, sizeof tag, "t%u.%u", i, k);
    bool has_value = false;
    uint32_t value = 0;
    tc_status st = TC_OK;
    if (c->op == OP_ISR) {
      char itag[24];
      snprintf(itag, sizeof itag, "i%u.%u", i, k);
      raise_isr(c, itag);
    } else {
      st = do_call(c, &has_value, &value);
    }
    log_result(tag, st, has_value, value);
    check(tag);
  }
}

/* ---- the run and its outcome ------------------------------------------------------------- */

static const char *state_name(unsigned s)
{
  static const char *const names[] = {"ready", "running", "suspended", "sleeping", "pending",
                                      "completed", "terminated"};
  return s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static void print_waiters(const tc_waitq *q)
{
  fputs(" w", stdout);
  const tc_node *n = q->threads.head;
  if (n == NULL) return;
  do {
    printf(" %u", (unsigned)(TC_THREAD_OF(n) - threads));
    n = n->next;
  } while (n != q->threads.head);
}

static void run_scenario(void)
{
  tc_kernel_init();
  log_len = 0;
  log_buf[0] = '\0';
  check_failure[0] = '\0';
  hisr_in = hisr_out = hisr_runs = 0;
  bool ok = true;
  for (unsigned i = 0; i < sc.n_sems; i++) ok &= tc_sem_create(&sems[i], "s", sc.sem_init[i], sc.sem_max[i]) == TC_OK;
  for (unsigned i = 0; i < sc.n_queues; i++)
    ok &= tc_queue_create(&queues[i], "q", sizeof(uint32_t), queue_buf[i], sc.queue_depth[i] * sizeof(uint32_t)) == TC_OK;
  for (unsigned i = 0; i < sc.n_events; i++) ok &= tc_event_create(&events[i], "e") == TC_OK;
  for (unsigned i = 0; i < sc.n_mutexes; i++)
    ok &= tc_mutex_create(&mutexes[i], "m", sc.mutex_inherit[i] ? TC_INHERIT : 0u) == TC_OK;
  if (sc.n_hisr_lists != 0) ok &= tc_hisr_create(&hisr, "h", hisr_fn, 0, stacks[MAX_THREADS], STACK_SIZE) == TC_OK;
  for (unsigned i = 0; i < sc.n_threads; i++)
    ok &= tc_thread_create(&threads[i], "t", thread_entry, (void *)(uintptr_t)i, stacks[i], STACK_SIZE,
                           sc.thread[i].priority, sc.thread[i].threshold, 0,
                           sc.thread[i].started ? TC_AUTO_START : 0u) == TC_OK;
  if (!ok) snprintf(check_failure, sizeof check_failure, "creating the scenario's objects failed");
  check("creation");
  tc_kernel_start();
  check("the run");

  printf("scenario %ld\nlog %s\n", sc.ident, log_buf);
  for (unsigned i = 0; i < sc.n_threads; i++) {
    tc_thread_info_t ti;
    tc_thread_info(&threads[i], &ti);
    printf("thread %u %s %u %u %u %u\n", i, state_name(ti.state), ti.priority, ti.threshold,
           ti.user_priority, ti.user_threshold);
  }
  for (unsigned i = 0; i < sc.n_sems; i++) {
    printf("sem %u %lu", i, (unsigned long)sems[i].count);
    print_waiters(&sems[i].waiters);
    putchar('\n');
  }
  for (unsigned i = 0; i < sc.n_queues; i++) {
    const tc_queue *q = &queues[i];
    printf("queue %u m", i);
    for (size_t k = 0; k < q->count; k++) {
      uint32_t m;
      const uint8_t *slot = q->read + k * q->msg_size;
      if (slot >= q->end) slot -= q->end - q->start;
      memcpy(&m, slot, sizeof m);
      printf(" %lu", (unsigned long)m);
    }
    print_waiters(&q->waiters);
    putchar('\n');
  }
  for (unsigned i = 0; i < sc.n_events; i++) {
    printf("event %u %lu", i, (unsigned long)events[i].flags);
    print_waiters(&events[i].waiters);
    putchar('\n');
  }
  for (unsigned i = 0; i < sc.n_mutexes; i++) {
    const tc_mutex *m = &mutexes[i];
    if (m->owner == NULL)
      printf("mutex %u - 0", i);
    else
      printf("mutex %u %u %lu", i, (unsigned)(m->owner - threads), (unsigned long)m->count);
    print_waiters(&m->waiters);
    putchar('\n');
  }
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  printf("stats %llu %llu\n", (unsigned long long)k.context_switches, (unsigned long long)k.preemptions);
  if (check_failure[0] != '\0') printf("check %s\n", check_failure);
  puts("end");
  fflush(stdout);
}

/* ---- reading scenarios ------------------------------------------------------------------ */

static unsigned line_no;

static _Noreturn void bad(const char *what)
{
  fflush(stdout);
  fprintf(stderr, "conformance: line %u: %s\n", line_no, what);
  exit(2);
}

static unsigned number(const char *tok, unsigned limit)
{
  if (tok == NULL) bad("missing number");
  char *end;
  unsigned long v = strtoul(tok, &end, 10);
  if (*end != '\0' || v > limit) bad("number out of range");
  return (unsigned)v;
}

/* Parse call `first` and its arguments from the rest of the line (strtok state); an isr takes
 * every call after it, separated by ";". */
static void parse_call(call *c, const char *first, bool in_isr)
{
  unsigned op = 0;
  while (op < OP_COUNT && strcmp(ops[op].name, first) != 0) op++;
  if (op == OP_COUNT) bad("unknown call");
  c->op = (uint8_t)op;
  c->n_sub = 0;
  if (op == OP_ISR) {
    if (in_isr) bad("isr inside an interrupt");
    c->sub = (uint8_t)sc.n_subs;
    char *tok;
    while ((tok = strtok(NULL, " \t\r\n")) != NULL) {
      if (strcmp(tok, ";") == 0) continue;
      if (sc.n_subs == sizeof sc.subs / sizeof sc.subs[0] || c->n_sub == MAX_CALLS) bad("too many calls");
      parse_call(&sc.subs[sc.n_subs++], tok, true);
      c->n_sub++;
    }
    return;
  }
  for (unsigned k = 0; k < ops[op].args; k++) c->a[k] = number(strtok(NULL, " \t\r\n"), 0xFFFFFFFFu);
  /* Object references are checked here so that a wrong index cannot reach the kernel. */
  unsigned limit = 0;
  switch ((enum op)op) {
  case OP_TAKE: case OP_GIVE: limit = sc.n_sems; break;
  case OP_SEND: case OP_SENDF: case OP_RECV: case OP_FLUSH: limit = sc.n_queues; break;
  case OP_SET: case OP_CLEAR: case OP_WAIT: limit = sc.n_events; break;
  case OP_LOCK: case OP_UNLOCK: limit = sc.n_mutexes; break;
  case OP_RESUME: case OP_SUSPEND: case OP_TERM: case OP_ABORT: case OP_PRIO: case OP_THR:
    limit = sc.n_threads;
    break;
  case OP_HISR: limit = sc.n_hisr_lists; break;
  default: limit = 1; break;
  }
  if (ops[op].args != 0 && c->a[0] >= limit) bad("object or thread out of range");
}

/* Read the next scenario; false at the end of the input. */
static bool read_scenario(FILE *in)
{
  static char line[2048];
  bool inside = false;
  while (fgets(line, sizeof line, in) != NULL) {
    line_no++;
    char *hash = strchr(line, '#');
    if (hash != NULL) *hash = '\0';
    char *word = strtok(line, " \t\r\n");
    if (word == NULL) continue;
    if (strcmp(word, "scenario") == 0) {
      if (inside) bad("scenario before end");
      memset(&sc, 0, sizeof sc);
      const char *id = strtok(NULL, " \t\r\n");
      sc.ident = (long)number(id, 0x7FFFFFFFu);
      inside = true;
    } else if (!inside) {
      bad("outside a scenario");
    } else if (strcmp(word, "thread") == 0) {
      if (sc.n_threads == MAX_THREADS) bad("too many threads");
      unsigned p = number(strtok(NULL, " \t\r\n"), TC_PRIORITIES - 1);
      unsigned t = number(strtok(NULL, " \t\r\n"), p);
      unsigned s = number(strtok(NULL, " \t\r\n"), 1);
      sc.thread[sc.n_threads].priority = p;
      sc.thread[sc.n_threads].threshold = t;
      sc.thread[sc.n_threads++].started = s;
    } else if (strcmp(word, "sem") == 0) {
      if (sc.n_sems == MAX_OBJECTS) bad("too many semaphores");
      sc.sem_init[sc.n_sems] = number(strtok(NULL, " \t\r\n"), 0xFFFFFFFFu);
      sc.sem_max[sc.n_sems++] = number(strtok(NULL, " \t\r\n"), 0xFFFFFFFFu);
    } else if (strcmp(word, "queue") == 0) {
      if (sc.n_queues == MAX_OBJECTS) bad("too many queues");
      unsigned d = number(strtok(NULL, " \t\r\n"), 8);
      if (d == 0) bad("queue depth 0");
      sc.queue_depth[sc.n_queues++] = d;
    } else if (strcmp(word, "event") == 0) {
      if (sc.n_events == MAX_OBJECTS) bad("too many event groups");
      sc.n_events++;
    } else if (strcmp(word, "mutex") == 0) {
      if (sc.n_mutexes == MAX_OBJECTS) bad("too many mutexes");
      sc.mutex_inherit[sc.n_mutexes++] = number(strtok(NULL, " \t\r\n"), 1) != 0;
    } else if (strcmp(word, "hisr") == 0) {
      if (sc.n_hisr_lists == MAX_OBJECTS) bad("too many HISR lists");
      call list;
      parse_call(&list, "isr", false); /* the rest of the line, as an interrupt's calls */
      for (unsigned j = 0; j < list.n_sub; j++)
        if (sc.subs[list.sub + j].op == OP_HISR) bad("an HISR list activates the HISR");
      sc.hisr_first[sc.n_hisr_lists] = list.sub;
      sc.hisr_n[sc.n_hisr_lists++] = list.n_sub;
    } else if (strcmp(word, "do") == 0) {
      unsigned i = number(strtok(NULL, " \t\r\n"), sc.n_threads ? sc.n_threads - 1 : 0);
      if (i >= sc.n_threads) bad("no such thread");
      if (sc.thread[i].n_calls == MAX_CALLS) bad("too many calls");
      const char *first = strtok(NULL, " \t\r\n");
      if (first == NULL) bad("missing call");
      call *c = &sc.thread[i].calls[sc.thread[i].n_calls++];
      parse_call(c, first, false);
      if (c->op == OP_HISR) bad("hisr outside an interrupt");
    } else if (strcmp(word, "end") == 0) {
      return true;
    } else {
      bad("unknown directive");
    }
  }
  if (inside) bad("missing end");
  return false;
}

int main(int argc, char **argv)
{
  FILE *in = stdin;
  if (argc > 1 && (in = fopen(argv[1], "r")) == NULL) {
    fprintf(stderr, "conformance: cannot open %s\n", argv[1]);
    return 2;
  }
#if !__has_include("tacet/sim.h") && !__has_include("tacet/riscv.h")
  tc_cm_irq_priority(ISR_IRQ, 0xC0);
  tc_cm_irq_enable(ISR_IRQ);
#endif
  while (read_scenario(in)) run_scenario();
  return 0;
}
