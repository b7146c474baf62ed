/* SPDX-License-Identifier: MIT */
/*
 * The simulation engine: a task set run on the real kernel (the sim port), configured at run
 * time, for `tacet simulate` (tools/tacet/sim/engine.py loads it with ctypes) and for C programs.
 *
 * One call, tsim_run(), makes one simulation: it initialises the kernel, creates a thread per
 * task, a counting semaphore per thread that releases its jobs and the mutexes of the critical
 * sections; raises one simulated interrupt -- a hardware timer's compare -- at every release
 * time, whose handler gives the released threads' semaphores; lets the kernel schedule until
 * the horizon; and returns per thread what the jobs did and what the kernel counted. Each
 * job spends its execution time with tc_sim_consume(), locking its mutexes where its critical
 * sections begin. Everything is in cycles of the virtual clock; docs/simulator.md describes
 * the model.
 *
 * Deterministic: the same configuration and seed give the same results, byte for byte, in
 * the same build. Each thread draws its execution times from its own random stream, in job
 * order, so that job k of a thread takes the same time whatever the schedule (the same seed
 * under another threshold assignment runs the same work). Release jitter comes from another
 * stream per thread.
 *
 * Context: the host program's own thread, never from inside a simulation (the kernel is one
 * per process: tsim_run is not reentrant and not thread-safe).
 */
#ifndef TACET_SIM_ENGINE_H
#define TACET_SIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* Bumped when a structure below changes: tools/tacet/sim/engine.py refuses another. */
#define TSIM_ABI_VERSION 1u

/* Critical sections per thread. */
#define TSIM_MAX_SECTIONS 4u

/* Execution-time models (tsim_thread.exec). Every model stays within [bcet, wcet]. */
enum {
  TSIM_EXEC_FIXED = 0,   /* every job takes wcet */
  TSIM_EXEC_UNIFORM = 1, /* uniform over the integers of [bcet, wcet] */
  TSIM_EXEC_NORMAL = 2,  /* normal (mean, stddev) truncated to [bcet, wcet], rounded to a cycle */
  TSIM_EXEC_TRACE = 3,   /* job k takes trace[k % trace_len] */
};

/* A job holds `mutex` (an index into tsim_config.mutexes) from `offset` cycles of its work
 * for `length` cycles of work. A job that takes fewer cycles than offset + length holds it for
 * what is left of its work after offset (none when that is nothing). Sections are in
 * increasing order of offset and do not overlap (nested sections are not modelled). */
typedef struct {
  uint32_t mutex;
  uint32_t reserved; /* 0 */
  uint64_t offset;
  uint64_t length;
} tsim_section;

typedef struct {
  const char *name;        /* the kernel thread's name; kept by the caller during the run */
  uint32_t priority;       /* 0 the most urgent, below TSIM_PRIORITIES */
  uint32_t threshold;      /* <= priority */
  uint64_t period;         /* cycles between releases, > 0 */
  uint64_t deadline;       /* relative to the release, > 0 */
  uint64_t offset;         /* the first release */
  uint64_t jitter;         /* release k comes in [offset + k*period, ... + jitter], in order */
  uint32_t exec;           /* TSIM_EXEC_* */
  uint32_t n_sections;     /* <= TSIM_MAX_SECTIONS */
  uint64_t wcet, bcet;     /* cycles; bcet <= wcet (FIXED ignores bcet) */
  double mean, stddev;     /* TSIM_EXEC_NORMAL: mean in [bcet, wcet], stddev > 0 */
  const uint64_t *trace;   /* TSIM_EXEC_TRACE: trace_len values, each <= wcet */
  uint64_t trace_len;
  tsim_section sections[TSIM_MAX_SECTIONS];
} tsim_thread;

typedef struct {
  const char *name;
  uint32_t inherit; /* 1: priority inheritance (TC_INHERIT) */
  uint32_t reserved;
} tsim_mutex;

/* A switch cost model: the cycles a context switch costs when the CPU begins thread `to`
 * after thread `from` (indices into tsim_config.threads; -1 for none: the first switch).
 * Asked where the sim port charges a switch (tc_sim_set_switch_cost_fn in tacet/sim.h): each
 * time the CPU begins a thread other than the last one it ran. */
typedef uint64_t (*tsim_switch_cost_fn)(int32_t from, int32_t to, void *arg);

typedef struct {
  uint32_t abi;          /* TSIM_ABI_VERSION */
  uint32_t n_threads;    /* >= 1 */
  uint32_t n_mutexes;
  uint32_t reserved;     /* 0 */
  const tsim_thread *threads;
  const tsim_mutex *mutexes;
  uint64_t horizon;      /* releases at times in [0, horizon); the run ends at horizon */
  uint64_t seed;
  uint64_t switch_cost;  /* cycles per context switch (a constant model) ... */
  tsim_switch_cost_fn switch_fn; /* ... or, when not NULL, this model */
  void *switch_arg;
  uint64_t release_cost; /* cycles of interrupt-level work per release (each released job) */
} tsim_config;

/* Per thread. Response times are from the job's nominal release, offset + k*period (its
 * release jitter included, as the analysis counts it); only completed jobs have one. */
typedef struct {
  uint64_t released;       /* jobs released before the horizon */
  uint64_t completed;      /* of them, jobs completed before the horizon */
  uint64_t missed;         /* completed after their deadline, or unfinished at the horizon
                              with their deadline at or before it */
  uint64_t unfinished;     /* released, not completed at the horizon */
  uint64_t oldest_unfinished; /* horizon - nominal release of the oldest unfinished job: how
                                 long it had been waiting (0 with none) */
  uint64_t response_min, response_max, response_sum;
  uint64_t response_p99;   /* nearest rank: the smallest response with at least 99 % of the
                              completed jobs at or below it; exact (the top 1 % are kept) */
  uint64_t exec_min, exec_max, exec_sum; /* the execution times drawn for started jobs */
  uint64_t blocking_max, blocking_sum;   /* per completed job: time threads of lower priority
                                            ran while it was pending (see docs/simulator.md) */
  uint64_t lock_waits;     /* times a job found its mutex held and waited for it */
  uint64_t preemptions_max; /* most preemptions of one completed job (the kernel's counter,
                               from the job's start to the end of its work) */
  uint64_t yields;         /* times the thread gave the CPU up at the end of a job, its next
                              job already released (the kernel counts them as preemptions) */
  /* The kernel's counters for the thread, over the run (tc_thread_info, start-up excluded). */
  uint64_t switches_in;
  uint64_t preemptions;
  uint64_t cycles;
} tsim_thread_result;

typedef struct {
  uint64_t end;            /* virtual time at the end: the horizon */
  uint64_t released, completed, missed;
  /* tc_kernel_stats over the run (start-up excluded). */
  uint64_t context_switches;
  uint64_t preemptions;
  uint64_t interrupts;
  uint64_t idle_cycles;
  uint64_t switch_cycles;
  uint64_t release_cycles; /* cycles spent releasing jobs (release_cost each) */
} tsim_result;

/* Run the task set. `threads` receives n_threads results, in the order of cfg->threads.
 * Returns 0, or -1 with a message in `error` (error_size bytes, may be 0) for a configuration
 * the engine cannot run (the Python side checks descriptions before; this is the last line)
 * or memory it cannot get. */
int tsim_run(const tsim_config *cfg, tsim_thread_result *threads, tsim_result *out, char *error,
             size_t error_size);

/* Sizes of the structures above and the ABI version, for a binding to check its layout:
 * sizes[0..4] = tsim_section, tsim_thread, tsim_mutex, tsim_config, tsim_thread_result;
 * sizes[5] = tsim_result. Returns TSIM_ABI_VERSION. */
uint32_t tsim_abi(uint32_t sizes[6]);

/* The number of priorities of the kernel the engine runs (TC_PRIORITIES). */
uint32_t tsim_priorities(void);

/* ---- Kim et al.: multiple register files ----------------------------------------------------
 * Kim, Kwon, Han & Cho, "Improving the performance of RTOS using multiple register files
 * architecture": a processor with n register files, the last reserved for interrupts. A task
 * with a file of its own switches without saving or restoring its general registers; tasks
 * sharing a file pay the full save and restore. docs/simulator.md describes the model. */

/* The paper's mapping: rate-monotonic order (the shortest period first, ties by index), the
 * first n_files - 2 tasks get files 0 .. n_files - 3 of their own, every other task shares file
 * n_files - 2; the file n_files - 1 is the interrupts'. With n_files 1 (the original processor)
 * or 2, every task is on file 0. `file` receives n_threads indices. Returns the number of tasks
 * on the shared file n_files - 2 (0 when n_files < 2). Context: any; no side effect. */
uint32_t tsim_regfile_map(const uint64_t *periods, uint32_t n_threads, uint32_t n_files, uint32_t *file);

/* The switch cost model of the paper's eqs. 1-4 (tsim_config.switch_arg points at one, with
 * tsim_config.switch_fn = tsim_regfile_cost). Saving or restoring k registers takes
 * t_str * n_str * k cycles; a switch saves the outgoing context and restores the incoming one:
 *   one file (n_files 1), eq. 1 both ways:  2 t_str n_str (n_greg + n_sreg)
 *   the incoming task alone on its file, eq. 3:  2 t_str n_str n_sreg + n_ch + t_chk
 *   the incoming task on a shared file, eq. 4:   2 t_str n_str (n_sreg + n_greg) + n_ch + t_chk
 * plus `base`, the rest of the switch, the same whatever the files. */
typedef struct {
  uint32_t n_threads;   /* the length of `file`: tsim_config.n_threads */
  uint32_t n_files;     /* >= 1, the interrupts' file included */
  const uint32_t *file; /* per thread: its register file (tsim_regfile_map) */
  uint64_t t_str;       /* cycles of one store (or load) */
  uint64_t n_str;       /* store instructions per register */
  uint64_t n_greg;      /* general-purpose registers */
  uint64_t n_sreg;      /* status registers (saved and restored on every switch) */
  uint64_t n_ch;        /* cycles to write the file's number to the select buffer */
  uint64_t t_chk;       /* cycles to check whether the incoming task has a file of its own */
  uint64_t base;        /* cycles of the switch besides registers */
} tsim_regfiles;

/* A tsim_switch_cost_fn: `model` is a tsim_regfiles. Context: the engine's switch hook. */
uint64_t tsim_regfile_cost(int32_t from, int32_t to, void *model);

/* ---- A switch cost from measurements ----------------------------------------------------
 * Each switch costs one of `costs` (cycles), drawn uniformly by a generator whose state the
 * caller seeds: the measured distribution of a target's switch (tacet bench's samples, turned
 * into the cycles of the simulated clock), rather than one constant. */
typedef struct {
  uint32_t n;            /* >= 1 */
  const uint64_t *costs; /* n samples, cycles */
  uint64_t state;        /* the generator's state: seed it per run for reproducible draws */
} tsim_measured;

/* A tsim_switch_cost_fn: `model` is a tsim_measured; every call advances its state. Context:
 * the engine's switch hook. */
uint64_t tsim_measured_cost(int32_t from, int32_t to, void *model);

#endif /* TACET_SIM_ENGINE_H */
