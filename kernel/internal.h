/* SPDX-License-Identifier: MIT */
/*
 * Kernel-private declarations: the kernel state, list primitives, the critical-section
 * helpers and the scheduler's internal interface used by every object file.
 *
 * Naming: `tc__` (two underscores) marks kernel-internal functions. Unless a function says
 * otherwise it assumes the caller holds the kernel lock (interrupts masked).
 */
#ifndef TACET_KERNEL_INTERNAL_H
#define TACET_KERNEL_INTERNAL_H

#include <string.h>

#include "tacet/kernel.h"
#include "tacet/port.h"
#include "tacet/thread.h"
#include "tacet/trace.h"

#define TC_MAP_WORDS ((TC_PRIORITIES + 31) / 32)

/* Control-block magic values: an object is valid when its magic matches. */
#define TC_MAGIC_THREAD     0x54687264u /* "Thrd" */
#define TC_MAGIC_SEM        0x53656d61u /* "Sema" */
#define TC_MAGIC_MUTEX      0x4d757478u /* "Mutx" */
#define TC_MAGIC_QUEUE      0x51756575u /* "Queu" */
#define TC_MAGIC_PORT       0x506f7274u /* "Port" */
#define TC_MAGIC_EVENT      0x45766e74u /* "Evnt" */
#define TC_MAGIC_TIMER      0x54696d72u /* "Timr" */
#define TC_MAGIC_BLOCK_POOL 0x426c6b50u /* "BlkP" */
#define TC_MAGIC_BYTE_POOL  0x42797450u /* "BytP" */
#define TC_MAGIC_HISR       0x48697372u /* "Hisr" */
/* The context embedded in an HISR: switched to like a thread's, but not a thread, so that no
 * thread service accepts it (the API hands it out, as tc_thread_info().last_preempted_by). */
#define TC_MAGIC_HISR_CTX   0x48437478u /* "HCtx" */

/* tc_thread.flags */
#define TC_TF_PREEMPTED     0x01u /* preempted while its threshold was in force */
#define TC_TF_SUSPEND_AFTER 0x02u /* delayed suspension: suspend when the wait ends */
#define TC_TF_HISR          0x04u /* not a thread: the embedded context of an HISR (hisr.c) */
#define TC_TF_SIGNAL_WAKE   0x08u /* the current wait may be interrupted by a signal (signal.c) */
#define TC_TF_SYSTEM        0x10u /* with TC_TF_HISR: the timers' HISR, whose functions are the
                                     application's timer callbacks (timer.c) */

/* Internal wait outcomes, never returned by a public service (signal.c, sched.c).
 * TC__WAIT_SIGNALED: tc_signal_send() ended the wait so that the handler runs at once.
 * TC__WAIT_RESTART: the handler has run and the wait goes on; tc__thread_wait() returns it
 * only to a service that passed TC__WAIT_RESTARTABLE (see there). */
#define TC__WAIT_SIGNALED ((tc_status)0x40)
#define TC__WAIT_RESTART  ((tc_status)0x41)

/* Number of HISR priorities (0 highest); every HISR runs before every thread. */
#define TC_HISR_PRIORITIES 3u

/* The argument-checking front layer: an argument check returns `status` when `cond` fails,
 * and compiles to nothing with TC_CHECKS=0. Only checks that protect the kernel from
 * misuse belong here; state checks that need the kernel lock stay in the core. */
#if TC_CHECKS
#define TC_ARG_CHECK(cond, status) \
  do {                             \
    if (!(cond)) return (status);  \
  } while (0)
#else
/* Without checks the check stays as dead code rather than vanishing: `0 &&` is folded away at
 * every optimisation level (-O0 included), so nothing is emitted, but the condition is still
 * compiled, and the static helpers only checks call (sem_valid ...) count as used. With
 * ((void)0) clang reports them as unused functions (-Wunused-function), and with an unevaluated
 * use such as sizeof(cond) as never emitted (-Wunneeded-internal-declaration). */
#define TC_ARG_CHECK(cond, status)      \
  do {                                  \
    if (0 && !(cond)) return (status);  \
  } while (0)
#endif

#if TC_POWER
#include "tacet/power.h"
/* The operating points and what was counted at each (power.c). */
typedef struct {
  tc_opp points[TC_POWER_POINTS];
  unsigned n;          /* 0: no table installed */
  double c_eff, p_static;
  unsigned point;      /* in force */
  unsigned policy;
  unsigned busy;       /* the point for contexts under every policy but load scaling */
  unsigned set;        /* tc_power_set_point's */
  uint8_t classes[TC_LOAD_CLASSES];
  bool scaled;         /* the port changes its clock (false: accounted by the model only) */
  uint64_t idle[TC_POWER_POINTS];    /* idle cycles per point */
  uint64_t deleted[2][TC_POWER_POINTS]; /* cycles of deleted threads [0] and HISRs [1] */
  tc_list tasks;       /* declared periodic tasks (tc_power_task), by period then priority */
  unsigned floor;      /* TC_POLICY_STATIC's point, the speed TC_POLICY_RT_DVS allocates at */
  uint64_t elapsed[TC_POWER_POINTS]; /* every cycle per point, up to `since` */
  uint64_t since;      /* TC_PORT_CYCLES() when `elapsed` was last brought up to date */
  bool open;           /* a run is counted: from tc_kernel_start to its end */
  uint64_t changes;
} tc__power_state;
#endif

typedef struct {
  /* Scheduling. */
  tc_thread *current;    /* the thread the kernel has handed the CPU to (NULL: idle) */
  tc_thread *next;       /* the context to run: the first activated HISR, else `chosen` */
  tc_thread *chosen;     /* the thread the scheduling rules give the CPU to (NULL: none ready):
                            the running thread of the rules, whose threshold is in force from
                            the moment it is chosen, even while the switch to it waits for an
                            interrupt handler's exit or the scheduler lock, or an HISR runs */
  tc_thread *last_ran;   /* the context that went idle not ready, to tell an idle gap that
                            ends with the same context from a switch (TC_STATS). Set when a
                            gap begins, read when it ends, and nothing is deleted in between
                            (only handlers run then, and they may not delete): a deletion
                            need not clear it */
  uint32_t ready_group;  /* bit w (from the top) set when ready_map[w] != 0; kept only when
                            TC_MAP_WORDS > 1 (with one word it would repeat ready_map[0]) */
  uint32_t ready_map[TC_MAP_WORDS];     /* bit p%32 (from the top) set when list p non-empty */
  tc_list preempted;     /* threads preempted with their threshold in force, by threshold */
  tc_list ready[TC_PRIORITIES];
  uint32_t wait_seq;     /* numbers the waits in the order they begin (FIFO among equals) */
  /* The two reasons to hold a switch back, in one word so that the switch path tests both
   * with one load (`holds` is zero when neither is). */
  union {
    struct {
      uint16_t lock_nesting; /* tc_sched_lock() depth */
      uint16_t isr_nesting;  /* tc_isr_enter() depth */
    };
    uint32_t holds;
  };
  bool started;

  /* Time. */
  uint32_t tick;
  tc_list timeouts; /* delta list of tc_timeout */

  /* Objects. */
  tc_list threads; /* every created thread, in creation order */
  /* Created objects of each type, kept by their modules (sem.c ...); here so that
   * tc_kernel_init() forgets the objects of a previous run. */
  tc_list sems, mutexes, queues, ports, events;
  tc_list timers, block_pools, byte_pools, hisrs;
  tc_list timers_due; /* timers expired whose callbacks have not run yet (timer.c) */

  /* HISRs (hisr.c): activated HISRs in FIFO order per HISR priority, and the context of the
   * one to run, which tc__sched_choose() takes before any thread (NULL: none activated). */
  tc_list hisr_ready[TC_HISR_PRIORITIES];
  tc_thread *hisr_top;

  /* Counters. */
  tc_kernel_stats_t stats;
  uint32_t stamp;               /* TC_PORT_CYCLES32_DOWN() when the current context's run time
                                   was last accounted (tc__stamp_advance), unless the port
                                   keeps it (TC__STAMP) */
  uint64_t deleted_switches_in; /* counters of deleted threads, so the totals still agree */
  uint64_t deleted_preempted;

#if TC_POWER
  /* Energy (power.c). `power_off` is where in a context the low word of the cycle counter of
   * the point in force lies, so that the switch adds to it with one load and one store. */
  uint32_t power_off;
  bool power_scaling;   /* a policy other than TC_POLICY_FIXED: idle's edges change the point */
  bool power_by_thread; /* TC_POLICY_LOAD_SCALING: a switch between threads may, too */
  tc__power_state power;
#endif
#if TC_TRACE
  /* The event trace (trace.c): the header of the buffer recorded into, NULL when not
   * recording (the one test of a trace point); its event slots; the last buffer enabled,
   * recording or not;
   * registry entries taken; the clock's low word at the last TIME event. */
  tc_trace_header *trace;
  tc_trace_event *trace_events; /* its first event slot */
  tc_trace_header *trace_header;
  uint32_t trace_objects;
  uint32_t trace_mark;
#endif
} tc_kernel;

extern tc_kernel tc__k;

/* The scheduler's invariants in ACSL, for Frama-C's WP (docs/proof.md; tc_check() tests the
 * same at run time). Compilers read these comments as comments. */
/* Bit k of a map word, counted from the most significant end as the kernel counts them. */
/*@
  predicate top_bit(uint32_t w, integer k) = (w & (1 << (31 - k))) != 0;
*/
/* A map word's bit as a shift of the top bit. */
/*@
  lemma top_shift: \forall integer k; 0 <= k < 32 ==> (0x80000000 >> k) == (1 << (31 - k));
*/
/* The ready map: bit p is set exactly when ready list p is non-empty (skipping p = x). */
/*@
  predicate map_agrees_but{L}(integer x) = \forall integer p; 0 <= p < TC_PRIORITIES && p != x ==>
      (top_bit(tc__k.ready_map[p / 32], p % 32) <==> tc__k.ready[p].head != \null);
  predicate map_agrees{L} = map_agrees_but(-1);
*/
/* The group: bit w is set exactly when map word w is non-zero; none beyond the map. With one
 * map word no group is kept. */
/*@
  predicate group_agrees{L} = TC_MAP_WORDS > 1 ?
      (\forall integer w; 0 <= w < 32 ==>
         (top_bit(tc__k.ready_group, w) <==> (w < TC_MAP_WORDS && tc__k.ready_map[w] != 0))) :
      tc__k.ready_group == 0;

  predicate ready_ok{L} = map_agrees && group_agrees;
*/
/* Some list is ready, and h is the most urgent non-empty one. */
/*@
  predicate highest_ready{L}(integer h) = 0 <= h < TC_PRIORITIES && tc__k.ready[h].head != \null &&
      \forall integer q; 0 <= q < h ==> tc__k.ready[q].head == \null;
*/
/* The map's summary is not empty: the group (or the one map word) is not zero. */
/*@
  predicate map_nonempty{L} = TC_MAP_WORDS > 1 ? tc__k.ready_group != 0 : tc__k.ready_map[0] != 0;
  predicate any_ready{L} = \exists integer p; 0 <= p < TC_PRIORITIES && tc__k.ready[p].head != \null;
*/
#if TC_PRIORITIES > 32
/*@ predicate group_bit_of{L}(tc_thread *t) = t->ready_group_bit == 1 << (31 - t->priority / 32); */
#define TC__ACSL_GROUP_BIT(t) , (t)->ready_group_bit /* for assigns clauses */
#else
/*@ predicate group_bit_of{L}(tc_thread *t) = \true; */
#define TC__ACSL_GROUP_BIT(t)
#endif
/* t's cached list, map word and bits are those of its priority (tc__set_priority). */
/*@
  predicate bits_of{L}(tc_thread *t) = t->priority < TC_PRIORITIES &&
      t->ready_list == &tc__k.ready[t->priority] &&
      t->ready_word == &tc__k.ready_map[t->priority / 32] &&
      t->ready_bit == 1 << (31 - t->priority % 32) && group_bit_of(t);
*/
/* A thread the scheduler may touch: valid, apart from the kernel's state. */
/*@
  predicate thread_ok{L}(tc_thread *t) = \valid(t) && \separated(t, &tc__k) && bits_of(t);
*/
/* n is linked into a circular list: valid, its neighbours point back at it. */
/*@
  predicate linked{L}(tc_node *n) = \valid(n) && \valid(n->next) && \valid(n->prev) &&
      n->next->prev == n && n->prev->next == n;
*/
/* x is a node of the list l, as far as the links around x show (docs/proof.md says what this
 * local view leaves out): linked, and neither x nor its neighbours overlap l. */
/*@
  predicate in_list{L}(tc_list *l, tc_node *x) = linked(x) &&
      \separated(l, x) && \separated(l, x->next) && \separated(l, x->prev);
*/
/* n, not in a list, is apart from x and x's neighbours. */
/*@
  predicate apart{L}(tc_node *n, tc_node *x) =
      \separated(n, x) && \separated(n, x->next) && \separated(n, x->prev);
*/
/* Two nodes are the same node or do not overlap. In WP's typed model two unequal node
 * pointers may still overlap (one may point into the other), which no list of the kernel's
 * builds: the nodes an operation reads and writes are said to be pairwise one or the other. */
/*@
  predicate same_or_apart(tc_node *a, tc_node *b) = a == b || \separated(a, b);
  predicate five_apart(tc_node *a, tc_node *b, tc_node *c, tc_node *d, tc_node *e) =
      same_or_apart(a, b) && same_or_apart(a, c) && same_or_apart(a, d) && same_or_apart(a, e) &&
      same_or_apart(b, c) && same_or_apart(b, d) && same_or_apart(b, e) &&
      same_or_apart(c, d) && same_or_apart(c, e) && same_or_apart(d, e);
  predicate local_apart{L}(tc_node *x) =
      same_or_apart(x, x->next) && same_or_apart(x, x->prev) && same_or_apart(x->next, x->prev);
*/
/* The nodes of a circular list as a walk from its head finds them: h, h->next, ... */
/*@
  inductive reach{L}(tc_node *h, tc_node *x) {
    case reach_head{L}: \forall tc_node *h; reach(h, h);
    case reach_next{L}: \forall tc_node *h, *x; reach(h, x) ==> reach(h, x->next);
  }
*/
/* A list is empty or its head is one of its nodes. */
/*@
  predicate list_ok{L}(tc_list *l) = \valid(l) && (l->head == \null || in_list(l, l->head));
*/
/* x and its neighbours lie outside the kernel's state (in threads). */
/*@
  predicate outside{L}(tc_node *x) = \separated(x, &tc__k) && \separated(x->next, &tc__k) &&
      \separated(x->prev, &tc__k);
*/
/* Every node a walk of l finds is linked, outside the kernel's state, and the same node as, or
 * apart from, every other; the walk backwards finds the same nodes. on_ring: x is a node a walk
 * of the non-empty list l finds (of an empty list, none: a walk from NULL would read nothing). */
/*@
  predicate ring_ok{L}(tc_list *l) = list_ok(l) && (l->head != \null ==>
      \forall tc_node *x; reach(l->head, x) ==> in_list(l, x) && outside(x) &&
        reach(l->head, x->prev) &&
        \forall tc_node *y; reach(l->head, y) ==> same_or_apart(x, y));
  predicate off_ring{L}(tc_list *l, tc_node *n) =
      l->head != \null ==> \forall tc_node *x; reach(l->head, x) ==> apart(n, x);
  predicate on_ring{L}(tc_list *l, tc_node *x) = l->head != \null && reach(l->head, x);
  predicate ring_apart{L}(tc_list *l, tc_thread *t) =
      \forall tc_node *x; on_ring(l, x) ==> \separated(x, t);
  predicate rings_apart{L}(tc_list *a, tc_list *b) =
      \forall tc_node *x; on_ring(a, x) ==> off_ring(b, x);
*/
/* A node n leaves a ring: in state L2, n's predecessor p (in L1) links to n's successor, no
 * other node of the ring has another successor, and the walk starts at h2, the old head or, if
 * n was the head, its successor. The walks of L2 from h2 then find the nodes the walks of L1
 * found from h but n (reach_remove_old), and all of them (reach_remove_kept). Both are proved
 * by induction over reach in proof/reach.mlw, which tacet prove checks with Why3; the SMT
 * provers WP runs do not do induction, so here they are axioms, stated as there. WP gives a
 * goal the axioms of a block only when the goal names one of its symbols (here `unlinked`,
 * which the assertions of tc__list_remove's behaviour `ring` name). */
/*@ axiomatic RingRemoval {
  predicate unlinked{L1,L2}(tc_node *h, tc_node *h2, tc_node *n, tc_node *p) =
      reach{L1}(h, n) && \at(p->next, L1) == n && \at(n->prev, L1) == p && p != n &&
      \at(n->next, L1) != n && \at(p->next, L2) == \at(n->next, L1) &&
      (\forall tc_node *y; reach{L1}(h, y) ==> \at(y->next->prev, L1) == y) &&
      (\forall tc_node *y; reach{L1}(h, y) && y != p && y != n ==>
         \at(y->next, L2) == \at(y->next, L1)) &&
      h2 == (h == n ? \at(n->next, L1) : h);
  axiom reach_remove_old{L1,L2}: \forall tc_node *h, *h2, *n, *p, *x;
      unlinked{L1,L2}(h, h2, n, p) ==> reach{L2}(h2, x) ==> reach{L1}(h, x) && x != n;
  axiom reach_remove_kept{L1,L2}: \forall tc_node *h, *h2, *n, *p, *z;
      unlinked{L1,L2}(h, h2, n, p) ==> reach{L1}(h, z) ==> z != n ==> reach{L2}(h2, z);
  }
*/
/* A node n joins a ring: in state L2, n, which the walk of L1 from h does not find, is linked
 * between p, a node it finds, and p's successor pos; no other node of the ring has another
 * successor, and the walk starts at h2, h or, when n went in before the head, n. The walks of
 * L2 from h2 then find every node the walks of L1 found from h (reach_insert_kept), n
 * (reach_insert_new), and no other (reach_insert_old). Proved by induction over reach in
 * proof/reach.mlw, as RingRemoval's are. */
/*@ axiomatic RingInsertion {
  predicate linked_in{L1,L2}(tc_node *h, tc_node *h2, tc_node *n, tc_node *p, tc_node *pos) =
      reach{L1}(h, p) && \at(p->next, L1) == pos && !reach{L1}(h, n) &&
      \at(p->next, L2) == n && \at(n->next, L2) == pos &&
      (\forall tc_node *y; reach{L1}(h, y) && y != p ==> \at(y->next, L2) == \at(y->next, L1)) &&
      (h2 == h || (h2 == n && pos == h));
  axiom reach_insert_kept{L1,L2}: \forall tc_node *h, *h2, *n, *p, *pos, *z;
      linked_in{L1,L2}(h, h2, n, p, pos) ==> reach{L1}(h, z) ==> reach{L2}(h2, z);
  axiom reach_insert_new{L1,L2}: \forall tc_node *h, *h2, *n, *p, *pos;
      linked_in{L1,L2}(h, h2, n, p, pos) ==> reach{L2}(h2, n);
  axiom reach_insert_old{L1,L2}: \forall tc_node *h, *h2, *n, *p, *pos, *x;
      reach{L2}(h2, x) ==> linked_in{L1,L2}(h, h2, n, p, pos) ==> reach{L1}(h, x) || x == n;
  }
*/
/* A ring of one node: the walk from a node that is its own successor finds only it
 * (reach_alone; proved by induction over reach in proof/reach.mlw). WP gives a goal the axioms
 * of a block whose symbols it names: self_linked is that symbol. */
/*@ axiomatic RingOfOne {
  predicate self_linked{L}(tc_node *n) = n->next == n;
  axiom reach_alone{L}: \forall tc_node *n, *x; reach(n, x) ==> self_linked(n) ==> x == n;
  }
*/
/* A ring left alone: when every node the walk of L1 from h finds has the same successor in L2,
 * the walks of L1 and L2 from h find the same nodes (reach_frame_kept, reach_frame_back;
 * proved by induction over reach in proof/reach.mlw). What a change to one list gives the
 * walk of another. */
/*@ axiomatic RingFrame {
  predicate steps_kept{L1,L2}(tc_node *h) =
      \forall tc_node *y; reach{L1}(h, y) ==> \at(y->next, L2) == \at(y->next, L1);
  axiom reach_frame_kept{L1,L2}: \forall tc_node *h, *x;
      reach{L1}(h, x) ==> steps_kept{L1,L2}(h) ==> reach{L2}(h, x);
  axiom reach_frame_back{L1,L2}: \forall tc_node *h, *x;
      reach{L2}(h, x) ==> steps_kept{L1,L2}(h) ==> reach{L1}(h, x);
  }
*/
/* A list kept whole: from L1 to L2 its head and the links of its nodes are kept (each next
 * through steps_kept, so that the walk finds the same nodes), and what was valid stays so. A
 * list a walk found whole in L1 is then found whole in L2 (ring_ok_kept, a lemma WP proves
 * from RingFrame's axioms). A block of its own: WP gives a goal the lemma only when the goal
 * names ring_frame, not wherever steps_kept is named. */
/*@ axiomatic RingKept {
  predicate ring_frame{L1,L2}(tc_list *l) =
      \at(l->head, L2) == \at(l->head, L1) &&
      (\at(l->head, L1) != \null ==> \forall tc_node *y; reach{L1}(\at(l->head, L1), y) ==>
         \at(y->next, L2) == \at(y->next, L1) && \at(y->prev, L2) == \at(y->prev, L1)) &&
      (\forall tc_node *x; \valid{L1}(x) ==> \valid{L2}(x)) && \valid{L2}(l);
  lemma ring_ok_kept{L1,L2}: \forall tc_list *l; ring_frame{L1,L2}(l) ==> ring_ok{L1}(l) ==>
      ring_ok{L2}(l) && (\at(l->head, L1) != \null ==> steps_kept{L1,L2}(\at(l->head, L1)));
  }
*/
/* A node n that no node of a whole list overlaps is off the list: apart from each node and
 * its neighbours, which are nodes of the list too (off_ring_sep). A node of a whole list is
 * apart from each of its other nodes (ring_sep_on), and its predecessor is a node of the list
 * (ring_back_ok). Lemmas WP proves, in a block of its own as RingKept's: WP gives a goal them
 * only when the goal names ring_sep, ring_sep_but or ring_back. */
/*@ axiomatic RingOff {
  predicate ring_sep{L}(tc_list *l, tc_node *n) =
      \forall tc_node *x; on_ring(l, x) ==> \separated(x, n);
  lemma off_ring_sep{L}: \forall tc_list *l, tc_node *n;
      ring_ok(l) ==> ring_sep(l, n) ==> off_ring(l, n);
  predicate ring_sep_but{L}(tc_list *l, tc_node *n) =
      \forall tc_node *x; on_ring(l, x) && x != n ==> \separated(x, n);
  lemma ring_sep_on{L}: \forall tc_list *l, tc_node *n;
      ring_ok(l) ==> on_ring(l, n) ==> ring_sep_but(l, n);
  predicate ring_back{L}(tc_list *l) = \forall tc_node *x; on_ring(l, x) ==> on_ring(l, x->prev);
  lemma ring_back_ok{L}: \forall tc_list *l; ring_ok(l) ==> ring_back(l);
  }
*/
/* Nodes a and b of two lists, and their neighbours, do not overlap. */
/*@
  predicate disjoint{L}(tc_node *a, tc_node *b) = apart(a, b) && apart(a->next, b) && apart(a->prev, b);
*/
/* n is a member of the non-empty list l (alone, it is the head), outside the kernel's state. */
/*@
  predicate member{L}(tc_list *l, tc_node *n) = list_ok(l) && l->head != \null && in_list(l, n) &&
      outside(n) && outside(l->head) && (n->next == n ==> l->head == n);
*/
/* A node a walk of a whole list finds is a member of it (ring_member_on, a lemma WP proves):
 * in particular a node that is its own successor is then the head, for a walk that reaches
 * such a node from elsewhere would have come from a node other than its predecessor, which
 * the list's back links rule out (reach_self_head; proved by induction over reach in
 * proof/reach.mlw, as RingRemoval's axioms are). A block of its own, as RingKept: WP gives a
 * goal these only when the goal names ring_member or back_linked. */
/*@ axiomatic RingSelf {
  predicate back_linked{L}(tc_node *h) = \forall tc_node *y; reach(h, y) ==> y->next->prev == y;
  axiom reach_self_head{L}: \forall tc_node *h, *n;
      reach(h, n) ==> n->next == n ==> back_linked(h) ==> h == n;
  predicate ring_member{L}(tc_list *l, tc_node *n) = member(l, n);
  lemma ring_member_on{L}: \forall tc_list *l, tc_node *n;
      ring_ok(l) ==> on_ring(l, n) ==> ring_member(l, n);
  }
*/
/* t is in its ready list; a preempted t is also in the preempted list, apart from it. */
/*@
  predicate is_ready{L}(tc_thread *t) = member(t->ready_list, &t->sched_node) &&
      ((t->flags & TC_TF_PREEMPTED) != 0 ==> member(&tc__k.preempted, &t->preempt_node) &&
         disjoint(&t->sched_node, &t->preempt_node) &&
         disjoint(&t->sched_node, tc__k.preempted.head));
*/
/* t may join its ready list: its node is apart from the list's head, both outside the kernel. */
/*@
  predicate may_join{L}(tc_thread *t) = list_ok(t->ready_list) && outside(&t->sched_node) &&
      (t->ready_list->head != \null ==> apart(&t->sched_node, t->ready_list->head) &&
         outside(t->ready_list->head) && local_apart(t->ready_list->head));
*/

/* Where the stamp is kept: in the port's switch state when its switch code stores it
 * (TC_PORT_STAMP, tacet/port.h), else in the kernel's. */
#ifdef TC_PORT_STAMP
#define TC__STAMP TC_PORT_STAMP
#else
#define TC__STAMP tc__k.stamp
#endif

/* The hot core of the scheduler and the switch commit (below) is C99 `inline`: a service's
 * common path carries it, decision and commit in one function. A build optimised for size
 * (-Os, as the footprint figures are) calls the one external definition of each instead:
 * every service carrying a copy would cost more flash than the calls cost time. */
#ifdef __OPTIMIZE_SIZE__
/* GCC keeps `inline` (C99 linkage: the one external definition) and honours `noinline`; it
 * warns that the two meet, which here is the point. */
#pragma GCC diagnostic ignored "-Wattributes"
#define TC_HOT inline __attribute__((noinline))
#else
#define TC_HOT inline
#endif

/* ---- lists ------------------------------------------------------------------------------ */

static inline bool tc__list_empty(const tc_list *l) { return l->head == NULL; }

/* Insert `n` into `l` before `pos`, a node of `l` or NULL for the back; inserted before the
 * head, `n` becomes the head. One out-of-line function serves every ordered insertion (ready,
 * wait, preempted, timeout lists), so the kernel carries the pointer surgery once. */
void tc__list_insert(tc_list *l, tc_node *pos, tc_node *n);
void tc__list_remove(tc_list *l, tc_node *n);

static inline void tc__list_push_back(tc_list *l, tc_node *n) { tc__list_insert(l, NULL, n); }

static inline void tc__list_push_front(tc_list *l, tc_node *n) { tc__list_insert(l, l->head, n); }

#define TC_CONTAINER_OF(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define TC_THREAD_OF(node) TC_CONTAINER_OF(node, tc_thread, sched_node)
/* The same from a const node: the object stays const (a read-only walk cannot write through it). */
#define TC_CONST_CONTAINER_OF(ptr, type, member) \
  ((const type *)((const char *)(ptr) - offsetof(type, member)))
#define TC_CONST_THREAD_OF(node) TC_CONST_CONTAINER_OF(node, tc_thread, sched_node)

/* The scheduler's casts from a node to its thread, as functions for its proof
 * (docs/proof.md, "Under which assumptions"): WP's typed memory model does not follow a cast
 * from a node to the structure around it, so it takes these contracts as given, as it takes
 * __builtin_clz's. thread_of and preempt_of are the casts in the logic: each gives back the
 * thread of its own node, and says nothing of a node of no thread. Inline, they compile to
 * the cast alone. */
/*@ axiomatic NodeToThread {
      logic tc_thread *thread_of(tc_node *n);
      logic tc_thread *preempt_of(tc_node *n);
      axiom thread_of_node: \forall tc_thread *t; thread_of(&t->sched_node) == t;
      axiom preempt_of_node: \forall tc_thread *t; preempt_of(&t->preempt_node) == t;
    }
*/
/*@ assigns \nothing;
    ensures \result == thread_of(n); */
inline tc_thread *tc__node_thread(tc_node *n) { return TC_THREAD_OF(n); }
/*@ assigns \nothing;
    ensures \result == thread_of((tc_node *)n); */
static inline const tc_thread *tc__node_thread_const(const tc_node *n) { return TC_CONST_THREAD_OF(n); }
/*@ assigns \nothing;
    exits \false;
    ensures \result == preempt_of(n); */
inline tc_thread *tc__node_preempted(tc_node *n) { return TC_CONTAINER_OF(n, tc_thread, preempt_node); }
/* The thread behind each node a walk of the preempted list l finds can be read. */
/*@
  predicate ring_preempted{L}(tc_list *l) =
      \forall tc_node *x; on_ring(l, x) ==> \valid_read(preempt_of(x));
  predicate ring_threads{L}(tc_list *l) =
      \forall tc_node *x; on_ring(l, x) ==> \valid_read(thread_of(x));
*/
/* The head of ready list p is a thread of priority p, ready in its list. */
/*@
  predicate head_ok{L}(integer p) = tc__k.ready[p].head != \null ==>
      &thread_of(tc__k.ready[p].head)->sched_node == tc__k.ready[p].head &&
      thread_ok(thread_of(tc__k.ready[p].head)) && thread_of(tc__k.ready[p].head)->priority == p &&
      is_ready(thread_of(tc__k.ready[p].head));
*/
/* The chosen thread, if any, can be read; while its state is ready, it is in its list. */
/*@
  predicate chosen_ok{L} = tc__k.chosen != \null ==> \valid_read(tc__k.chosen) &&
      (tc__k.chosen->state == TC_READY ==> thread_ok(tc__k.chosen) && is_ready(tc__k.chosen));
*/
/* The innermost preempted thread, if any, is a flagged thread ready in its list. */
/*@
  predicate preempted_ok{L} = tc__k.preempted.head != \null ==>
      &preempt_of(tc__k.preempted.head)->preempt_node == tc__k.preempted.head &&
      thread_ok(preempt_of(tc__k.preempted.head)) && is_ready(preempt_of(tc__k.preempted.head)) &&
      (preempt_of(tc__k.preempted.head)->flags & TC_TF_PREEMPTED) != 0;
*/
/* t has just joined the ready set, and before it did the chosen thread was the rules' choice
 * (tc_check() tests that the chosen thread is what the rules choose): with no thread chosen,
 * none was ready, so t is alone; while the chosen thread is ready, no list above its threshold
 * was non-empty, so t, if it is above, is alone in its list. */
/*@
  predicate alone{L}(tc_thread *t) =
      tc__k.ready[t->priority].head == &t->sched_node && t->sched_node.next == &t->sched_node;
  predicate settled_but{L}(tc_thread *t) =
      (tc__k.chosen == \null ==> tc__k.preempted.head == \null && alone(t) &&
         \forall integer p; 0 <= p < TC_PRIORITIES && p != t->priority ==> tc__k.ready[p].head == \null) &&
      (tc__k.chosen != \null && tc__k.chosen->state == TC_READY ==>
         \forall integer p; 0 <= p < tc__k.chosen->threshold && p < TC_PRIORITIES ==>
           tc__k.ready[p].head == \null || (p == t->priority && alone(t)));
*/
/* A flagged thread at the head of a ready list is not above the innermost preempted thread's
 * threshold (the preempted list is in order of threshold, and a flagged thread's threshold is
 * in force): the head of the highest ready list is chosen only when it is not flagged. */
/*@
  predicate preempted_first{L} = \forall integer p; 0 <= p < TC_PRIORITIES ==>
      tc__k.ready[p].head != \null && (thread_of(tc__k.ready[p].head)->flags & TC_TF_PREEMPTED) != 0 ==>
      tc__k.preempted.head != \null && preempt_of(tc__k.preempted.head)->threshold <= p;
*/
/* t's preempted node may join the preempted list: outside the kernel's state, apart from the
 * list's head. */
/*@
  predicate may_preempt{L}(tc_thread *t) = list_ok(&tc__k.preempted) && outside(&t->preempt_node) &&
      (tc__k.preempted.head != \null ==> apart(&t->preempt_node, tc__k.preempted.head) &&
         outside(tc__k.preempted.head));
*/
/* A node of list l outside the kernel's state: where an insertion into l may write. */
/*@
  predicate ring_node{L}(tc_list *l, tc_node *x) = in_list(l, x) && \separated(x, &tc__k);
*/
/* What the choice needs to return a ready thread. */
/*@
  predicate choice_ok{L} = (\forall integer p; 0 <= p < TC_PRIORITIES ==> head_ok(p)) &&
      chosen_ok && preempted_ok;
*/
/* The thread to switch to is the activated HISR, when there is one, else the chosen thread. */
/*@
  predicate next_ok{L} = tc__k.next == (tc__k.hisr_top != \null ? tc__k.hisr_top : tc__k.chosen);
*/
/* What tc__displace needs of the lists: t's ready list is whole, t's node on it, the thread
 * behind each of its nodes readable and apart from t but for t's own; the preempted list
 * whole and apart from the ready list; with a threshold of its own, t's preempted node off the
 * preempted list, whose threads are readable and apart from t. */
/*@
  predicate displace_rings{L}(tc_thread *t) =
      ring_ok(t->ready_list) && on_ring(t->ready_list, &t->sched_node) &&
      ring_threads(t->ready_list) &&
      (\forall tc_node *x; on_ring(t->ready_list, x) && x != &t->sched_node ==> \separated(x, t)) &&
      ring_ok(&tc__k.preempted) && rings_apart(t->ready_list, &tc__k.preempted) &&
      (t->threshold < t->priority ==> ring_preempted(&tc__k.preempted) &&
         off_ring(&tc__k.preempted, &t->preempt_node) && ring_apart(&tc__k.preempted, t));
*/
/* t lies apart from every thread of a ready list but itself. */
/*@
  predicate thread_apart{L}(tc_thread *t) = \forall integer q; 0 <= q < TC_PRIORITIES ==>
      \forall tc_node *y; on_ring(&tc__k.ready[q], y) ==>
        y == &t->sched_node || \separated(thread_of(y), t);
*/
/* The lists as tc_check() finds them (kernel/check.c), as far as the choice after
 * tc__displace needs them: the ready lists and the preempted list whole, apart from each
 * other; each node of a ready list the node of its thread, which lies apart from every other
 * thread of a ready list; each node of the preempted list the preempted node of a thread
 * whose node is on its ready list; and the preempted node of each flagged thread of a ready
 * list on the preempted list. */
/*@
  predicate rings_ok{L} = ring_ok(&tc__k.preempted) &&
      (\forall integer p; 0 <= p < TC_PRIORITIES ==> ring_ok(&tc__k.ready[p]) &&
        rings_apart(&tc__k.ready[p], &tc__k.preempted) &&
        (\forall integer q; 0 <= q < TC_PRIORITIES && q != p ==>
           rings_apart(&tc__k.ready[p], &tc__k.ready[q])) &&
        \forall tc_node *x; on_ring(&tc__k.ready[p], x) ==>
          &thread_of(x)->sched_node == x && thread_apart(thread_of(x)) &&
          ((thread_of(x)->flags & TC_TF_PREEMPTED) != 0 ==>
             on_ring(&tc__k.preempted, &thread_of(x)->preempt_node))) &&
      \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
        &preempt_of(x)->preempt_node == x && 0 <= preempt_of(x)->priority < TC_PRIORITIES &&
        on_ring(&tc__k.ready[preempt_of(x)->priority], &preempt_of(x)->sched_node);
*/
/* The chosen thread may be displaced (tc__displace): it is not flagged, and while ready its
 * lists are as tc__displace needs them, its threshold is not above its priority (tc_check()
 * tests both), and with a threshold of its own its preempted node may join the preempted
 * list. */
/*@
  predicate displaceable{L} = tc__k.chosen != \null ==>
      (tc__k.chosen->flags & TC_TF_PREEMPTED) == 0 &&
      (tc__k.chosen->state == TC_READY ==> displace_rings(tc__k.chosen) &&
         tc__k.chosen->threshold <= tc__k.chosen->priority) &&
      (tc__k.chosen->state == TC_READY && tc__k.chosen->threshold < tc__k.chosen->priority ==>
         may_preempt(tc__k.chosen));
*/
/* The scheduling rules (docs/kernel.md) as a relation: c is the thread they give the CPU to,
 * HISRs aside; keep is false after a yield or the end of a time slice. None when no thread is
 * ready. Else, with h the most urgent non-empty ready list: while the chosen thread r is ready,
 * r if it keeps its turn and nothing is above its threshold, else the head of list h; when r is
 * not ready, the innermost preempted thread if nothing is above its threshold, else the head of
 * list h. */
/*@
  predicate chooses{L}(tc_thread *c, integer keep) =
      (!any_ready ==> c == \null) &&
      (any_ready ==> c != \null && \forall integer h; highest_ready(h) ==>
         (tc__k.chosen != \null && tc__k.chosen->state == TC_READY ?
            c == (keep != 0 && h >= tc__k.chosen->threshold ? tc__k.chosen :
                  thread_of(tc__k.ready[h].head)) :
          tc__k.preempted.head != \null && h >= preempt_of(tc__k.preempted.head)->threshold ?
            c == preempt_of(tc__k.preempted.head) :
            c == thread_of(tc__k.ready[h].head)));
*/

/* Bits of the ready map are numbered from the most significant end. With 32 priorities the
 * map is one word and the group is not kept (the constant condition compiles the group's code
 * away): one count-leading-zeros finds the highest ready priority. */
#define TC__TOP_BIT 0x80000000u
#define TC__GROUPED (TC_MAP_WORDS > 1)

/* Set a thread's effective priority: the field, and the ready list and map bits that go with
 * it (the hot paths find each with one load). The word and bit are written as unsigned
 * division and remainder by 32, which compile to the same shift and mask, so that WP reads
 * them as the arithmetic its invariants state, without lemmas on bitwise operators. */
/*@ requires \valid(t) && \separated(t, &tc__k) && priority < TC_PRIORITIES;
    assigns t->priority, t->ready_list, t->ready_word, t->ready_bit TC__ACSL_GROUP_BIT(t);
    ensures t->priority == priority && bits_of(t);
*/
TC_HOT void tc__set_priority(tc_thread *t, unsigned priority)
{
  t->priority = (uint16_t)priority;
  t->ready_list = &tc__k.ready[priority];
  t->ready_word = &tc__k.ready_map[priority / 32u];
  t->ready_bit = TC__TOP_BIT >> (priority % 32u);
#if TC_PRIORITIES > 32
  t->ready_group_bit = TC__TOP_BIT >> (priority / 32u);
  //@ assert t->ready_group_bit == 1 << (31 - priority / 32);
#endif
}

/* `t`'s ready list has become non-empty / empty: its bit in the ready map (and the word's in
 * the group) follows. C99 `inline`, as the hot core below that uses them (sched.c holds the
 * external definitions). */
/*@ requires thread_ok(t) && tc__k.ready[t->priority].head != \null;
    requires map_agrees_but(t->priority) && group_agrees;
    assigns tc__k.ready_map[t->priority / 32], tc__k.ready_group;
    ensures map_agrees;
    ensures group_agrees;
*/
inline void tc__ready_map_set(const tc_thread *t)
{
  *t->ready_word |= t->ready_bit;
#if TC__GROUPED
  tc__k.ready_group |= t->ready_group_bit;
#endif
}

/*@ requires thread_ok(t) && tc__k.ready[t->priority].head == \null;
    requires map_agrees_but(t->priority) && group_agrees;
    assigns tc__k.ready_map[t->priority / 32], tc__k.ready_group;
    ensures map_agrees;
    ensures group_agrees;
*/
inline void tc__ready_map_clear(const tc_thread *t)
{
  uint32_t w = *t->ready_word & ~t->ready_bit;
  *t->ready_word = w;
#if TC__GROUPED
  if (w == 0) tc__k.ready_group &= ~t->ready_group_bit;
#endif
}

/* ---- critical sections ------------------------------------------------------------------ */

#ifndef TC_PORT_IRQ_RESTORE_QUIET
#define TC_PORT_IRQ_RESTORE_QUIET(s) TC_PORT_IRQ_RESTORE(s)
#endif

#if TC_IRQ_OFF_MEASURE
unsigned tc__lock(void);
void tc__unlock(unsigned s);
#define tc__unlock_quiet(s) tc__unlock(s)
#else
static inline unsigned tc__lock(void) { return TC_PORT_IRQ_DISABLE(); }
static inline void tc__unlock(unsigned s) { TC_PORT_IRQ_RESTORE(s); }
/* tc__unlock() after a section that neither blocked the caller nor asked for a switch (no
 * dispatch, no wait): nothing the caller does next depends on an interrupt being taken at
 * once, so the port may skip what makes it so (TC_PORT_IRQ_RESTORE_QUIET). */
static inline void tc__unlock_quiet(unsigned s) { TC_PORT_IRQ_RESTORE_QUIET(s); }
#endif

/* Branch hints whose value is essentially Boolean (MISRA C:2012 rule 14.4): __builtin_expect
 * returns a long, so the hint is compared with 0 rather than used as the condition itself.
 * The compiler folds both forms to the same code. */
#define TC_LIKELY(c) (__builtin_expect((c), 1) != 0L)
#define TC_UNLIKELY(c) (__builtin_expect((c), 0) != 0L)

/* ---- calling context -------------------------------------------------------------------- */

/* Every service's first check (TC_CHECKS=1): an interrupt handler above the kernel's mask
 * (tacet/kernel.h, "The rule") is refused -- tc_isr_priority_hook(service), then the service
 * returns TC_CALLER_ERROR (TC_ISR_CHECK) or, a void one, nothing (TC_ISR_CHECK_VOID). A thread
 * pays the port's test of handler mode (Cortex-M: a read of IPSR and a branch); the handler's
 * priority is looked up only in a handler, and the refusal is a tail call, so that the check
 * costs a service no stack frame. With TC_CHECKS=0 it is not compiled. */
#if TC_CHECKS && defined(TC_PORT_IN_UNMASKED_ISR)
tc_status tc__isr_refuse(const char *service) __attribute__((cold, noinline));
#define TC_ISR_CHECK(service)                                                   \
  do {                                                                          \
    if (TC_UNLIKELY(TC_PORT_IN_UNMASKED_ISR())) return tc__isr_refuse(service); \
  } while (0)
#define TC_ISR_CHECK_VOID(service)                                  \
  do {                                                              \
    if (TC_UNLIKELY(TC_PORT_IN_UNMASKED_ISR())) {                   \
      (void)tc__isr_refuse(service);                                \
      return;                                                       \
    }                                                               \
  } while (0)
#else
#define TC_ISR_CHECK(service) ((void)0)
#define TC_ISR_CHECK_VOID(service) ((void)0)
#endif

/* True in an interrupt handler (LISR): inside the bracket tc_isr_enter/exit, or, on a port
 * that defines TC_PORT_IN_ISR, whenever the hardware says so (there the bracket is optional;
 * code that brackets itself, as port-neutral tests do, still counts as a handler). */
inline bool tc__in_isr(void)
{
#ifdef TC_PORT_IN_ISR
  return TC_PORT_IN_ISR() || tc__k.isr_nesting != 0;
#else
  return tc__k.isr_nesting != 0;
#endif
}

/* True when the caller is a thread: not an interrupt (LISR), not an HISR or a timer callback
 * (they run in an HISR's context), not startup or idle code. */
inline bool tc__in_thread(void)
{
  return tc__k.started && !tc__in_isr() && tc__k.current != NULL &&
         !(tc__k.current->flags & TC_TF_HISR);
}

/* True in an HISR's context (hisr.c), timer callbacks included. */
static inline bool tc__in_hisr(void)
{
  return !tc__in_isr() && tc__k.current != NULL && (tc__k.current->flags & TC_TF_HISR);
}

/* True in a timer callback: the timers' system HISR is running (timer.c). */
static inline bool tc__in_timer_callback(void)
{
  return tc__in_hisr() && (tc__k.current->flags & TC_TF_SYSTEM);
}

/* True in a handler: a LISR, an HISR or a timer callback. Handlers neither create nor delete
 * objects (docs/services.md, "Calling contexts"). */
static inline bool tc__in_handler(void)
{
  return tc__in_isr() || (tc__k.current != NULL && (tc__k.current->flags & TC_TF_HISR));
}

/* A service may block its caller: a thread that does not hold the scheduler lock. Tested the
 * cheap way, as every waiting call tests it: no handler (bracket or hardware) and no lock
 * (`holds`), a context running (current is NULL before the start, in idle and after a run),
 * and no HISR activated -- an activated HISR runs before every thread, so with nothing held it
 * would be the caller. */
static inline bool tc__may_block(void)
{
  return tc__k.holds == 0 && tc__k.current != NULL && tc__k.hisr_top == NULL
#ifdef TC_PORT_IN_ISR
         && !TC_PORT_IN_ISR()
#endif
      ;
}

/* True when `n` is one of the nodes of `l` (O(n): for the front layer's "already created"). */
bool tc__list_contains(const tc_list *l, const tc_node *n);

/* ---- scheduler (sched.c) ---------------------------------------------------------------- */

/* What the preempted list's insertion may write (preempted_add, and the insertions of a
 * flagged thread that call it): the list's head, the thread's node, and links of nodes a walk
 * of the list finds. */
#define TC__ACSL_PREEMPTED_WRITES(t)                                                             \
  tc__k.preempted.head, (t)->preempt_node.next, (t)->preempt_node.prev,                          \
      { x->prev | tc_node *x; on_ring(&tc__k.preempted, x) },                                    \
      { x->prev->next | tc_node *x; on_ring(&tc__k.preempted, x) }
/* The same, only where c holds (tc__ready_insert: a thread not flagged leaves the preempted
 * list alone, which its callers' frames need). */
#define TC__ACSL_PREEMPTED_WRITES_IF(t, c)                                                       \
  { tc__k.preempted.head | tc_node *x; c }, { (t)->preempt_node.next | tc_node *x; c },          \
      { (t)->preempt_node.prev | tc_node *x; c },                                                \
      { x->prev | tc_node *x; c && on_ring(&tc__k.preempted, x) },                               \
      { x->prev->next | tc_node *x; c && on_ring(&tc__k.preempted, x) }
/* What a thread's joining its ready list gives back (tc__ready_insert, its two halves and
 * tc__ready_append): its node linked into a non-empty list whose head is still linked, and the
 * map and group invariants. */
#define TC__ACSL_READY_JOINED(t)                                                                 \
  ensures joined: (t)->ready_list->head != \null && in_list((t)->ready_list, &(t)->sched_node);  \
  ensures head_linked: list_ok((t)->ready_list);                                                 \
  ensures map: map_agrees;                                                                       \
  ensures group: group_agrees;

/* What tc__ready_remove and tc__ready_unlink assert, at the fields, before their writes: given
 * only at the nodes (is_ready's disjoint), each frame after a write took the provers most of
 * their step budget (docs/proof.md, "Where the proof is tight"). The fields the first removal
 * writes lie apart from those the preempted node's membership reads; */
/*@
  predicate leave_apart{L}(tc_thread *t) = (t->flags & TC_TF_PREEMPTED) != 0 ==>
      \let h = tc__k.preempted.head; \let n = &t->sched_node; \let pn = &t->preempt_node;
      \separated(\union(&t->ready_list->head, &n->next, &n->prev, &n->prev->next, &n->next->prev),
                 \union(&tc__k.preempted.head, &pn->next, &pn->prev, &pn->next->prev,
                         &pn->prev->next, &h->next, &h->prev, &h->next->prev, &h->prev->next));
*/
/* the preempted node's facts survive the first removal (asserted where t is known flagged,
 * so that no goal needs the flag's bit arithmetic to use them); */
/*@
  predicate preempt_kept{L1, L2}(tc_thread *t) =
      \at(member(&tc__k.preempted, &t->preempt_node), L2) &&
      \at(t->preempt_node.next, L2) == \at(t->preempt_node.next, L1) &&
      \at(t->preempt_node.prev, L2) == \at(t->preempt_node.prev, L1);
*/
/* no ready list's head is among the fields the second (the preempted list's) writes; */
/*@
  predicate heads_off_preempt{L}(tc_thread *t) = \forall integer p; 0 <= p < TC_PRIORITIES ==>
      \let pn = &t->preempt_node;
      \separated(&tc__k.ready[p].head, \union(&tc__k.preempted.head, &pn->next, &pn->prev,
                                              &pn->next->prev, &pn->prev->next));
*/
/* so every ready list's head is what it was before the second. */
/*@
  predicate heads_kept{L1, L2} = \forall integer p; 0 <= p < TC_PRIORITIES ==>
      \at(tc__k.ready[p].head, L2) == \at(tc__k.ready[p].head, L1);
*/

/* What a flagged thread's leaving the preempted list writes, only where c holds: a thread
 * not flagged leaves the list alone, whatever its preempted node's stale links point at. */
#define TC__ACSL_PREEMPT_LEAVES(t, c)                                                            \
  { tc__k.preempted.head | tc_node *x; c }, { (t)->preempt_node.next | tc_node *x; c },          \
      { (t)->preempt_node.prev | tc_node *x; c },                                                \
      { (t)->preempt_node.next->prev | tc_node *x; c },                                          \
      { (t)->preempt_node.prev->next | tc_node *x; c }
/* The contract of tc__ready_remove and of its inline twin tc__ready_unlink: `t`, ready, leaves
 * its list (and the preempted list if flagged), unflagged, with the map and group kept. */
#define TC__ACSL_READY_LEAVES(t)                                                                 \
  requires thread_ok(t) && ready_ok && is_ready(t);                                              \
  assigns (t)->ready_list->head, (t)->sched_node.next, (t)->sched_node.prev,                    \
      (t)->sched_node.next->prev, (t)->sched_node.prev->next, tc__k.ready_map[(t)->priority / 32], \
      tc__k.ready_group, (t)->flags,                                                             \
      TC__ACSL_PREEMPT_LEAVES(t, ((t)->flags & TC_TF_PREEMPTED) != 0);                           \
  ensures map: map_agrees;                                                                       \
  ensures group: group_agrees;                                                                   \
  ensures unflagged: ((t)->flags & TC_TF_PREEMPTED) == 0;                                        \
  ensures unlinked: (t)->sched_node.next == \null;
void tc__ready_insert(tc_thread *t, bool at_front);
void tc__ready_remove(tc_thread *t);
/* As tc__ready_remove(t) then tc__ready_insert(t, false): `t` goes to the back of its list
 * (a yield, the end of a time slice). */
void tc__ready_rotate(tc_thread *t);
/* `t`, flagged TC_TF_PREEMPTED, is dispatched or chosen again: its threshold is in force
 * again, so it is no longer a preempted thread. As tc__ready_remove(t) then
 * tc__ready_insert(t, true). */
void tc__ready_unflag(tc_thread *t);
/* Re-choose the thread to run after any change of the ready set, a priority or a threshold.
 * `keep_running`: the chosen thread, if still ready, competes with its threshold (false after
 * a yield or a time-slice rotation, where it has given its turn away and the head of the
 * highest ready list runs). Sets tc__k.chosen and tc__k.next; does not switch. */
void tc__sched_reschedule(bool keep_running);
/* Hand the CPU to tc__k.next if the context allows it now (thread context, scheduler
 * unlocked, kernel started); otherwise the switch happens at tc_isr_exit / tc_sched_unlock.
 * (Defined with the inline scheduler core below.) */
TC_HOT void tc__sched_dispatch(void);
/* The scheduling rules' choice now, without changing anything (for tc_check). */
tc_thread *tc__sched_choose(bool keep_running);
void tc__sched_set_effective(tc_thread *t, unsigned priority, unsigned threshold);
/* The numerically lowest priority set in a non-empty map. */
/*@ requires \valid_read(map + (0 .. TC_MAP_WORDS - 1));
    requires TC_MAP_WORDS > 1 ? group != 0 && \forall integer w; 0 <= w < 32 ==>
               (top_bit(group, w) <==> (w < TC_MAP_WORDS && map[w] != 0)) : map[0] != 0;
    assigns \nothing;
    ensures \result < TC_PRIORITIES && top_bit(map[\result / 32], \result % 32);
    ensures \forall integer q; 0 <= q < \result ==> !top_bit(map[q / 32], q % 32);
*/
inline unsigned tc__map_first(uint32_t group, const uint32_t *map)
{
  unsigned w = TC__GROUPED ? (unsigned)__builtin_clz(group) : 0;
  //@ assert w < TC_MAP_WORDS && map[w] != 0;
  //@ assert \forall integer v; 0 <= v < w ==> map[v] == 0;
  unsigned b = (unsigned)__builtin_clz(map[w]);
  //@ assert \forall integer q; 0 <= q < 32 * w ==> map[q / 32] == 0;
  //@ assert \forall integer q; 0 <= q < 32 * w ==> !top_bit(map[q / 32], q % 32);
  //@ assert \forall integer q; 32 * w <= q < 32 * w + b ==> q / 32 == w && q % 32 < b;
  //@ assert \forall integer k; 0 <= k < b ==> !top_bit(map[w], k);
  //@ assert in_word: \forall integer q; 32 * w <= q < 32 * w + b ==> !top_bit(map[q / 32], q % 32);
  return (w * 32u) + b; /* one shifted add, as (w << 5) | b was one shifted or: arithmetic WP reads */
}
/* The highest ready priority; some thread must be ready. */
/*@ requires ready_ok && map_nonempty;
    assigns \nothing;
    ensures highest_ready(\result);
*/
inline unsigned tc__sched_highest_ready(void) { return tc__map_first(tc__k.ready_group, tc__k.ready_map); }
/* Some thread is ready (the ready map is not empty). */
/*@ requires ready_ok;
    assigns \nothing;
    ensures \result <==> map_nonempty;
    ensures !\result ==> !any_ready;
*/
static inline bool tc__sched_any_ready(void)
{
  return TC_MAP_WORDS > 1 ? tc__k.ready_group != 0 : tc__k.ready_map[0] != 0;
}
/* The running thread's time slice, once per tick (from the tick interrupt). */
void tc__sched_tick(void);

/* Waiting (sched.c). `tc__thread_wait` blocks the calling thread on `q` (NULL: a plain
 * sleep) in `state`, releases the lock taken as `s`, and returns how the wait ended.
 *
 * Signals (signal.c). A signal sent to a sleeping thread runs its handler at once and the
 * sleep goes on for the time left. A thread pending on an object can be interrupted the same
 * way only if its service is ready to re-evaluate the object afterwards, because while the
 * handler ran the object may have become available (a give found no waiter) or been
 * deleted: such a service ORs TC__WAIT_RESTARTABLE into `state` and, when the call returns
 * TC__WAIT_RESTART, takes the lock again and starts over (NO_WAIT checks, availability,
 * the wait) with tc__wait_left() ticks. Without the flag a signal leaves the wait alone and
 * the handler runs when the wait has ended, before the service returns. */
#define TC__WAIT_RESTARTABLE 0x100u
tc_status tc__thread_wait(tc_waitq *q, unsigned state, uint32_t timeout, unsigned s);
/* After TC__WAIT_RESTART: the ticks left of the wait's timeout (TC_WAIT_FOREVER: none). */
static inline uint32_t tc__wait_left(void) { return tc__k.current->timeout.delta; }
/* After TC__WAIT_RESTART, for an object service about to start over: *timeout becomes the
 * ticks left and the lock is taken again into *k. Returns false, with the lock released, when
 * the object (its magic field at `magic`) was deleted while the signal handler ran: the
 * service then returns TC_DELETED. */
static inline bool tc__wait_restart(const uint32_t *magic, uint32_t expected, uint32_t *timeout, unsigned *k)
{
  *timeout = tc__wait_left();
  *k = tc__lock();
  if (*magic == expected) return true;
  tc__unlock(*k);
  return false;
}
/* End the wait of `t` with `status`; it becomes ready (or suspended). Does not dispatch. */
void tc__thread_wake(tc_thread *t, tc_status status);
/* The common end of an object's delete service, with the lock held: every thread waiting in
 * `q` gets TC_DELETED, the object's magic is cleared (so a wait that restarts after a signal
 * handler sees it gone), it leaves its created list, and the woken threads may run. */
void tc__object_delete(tc_waitq *q, uint32_t *magic, tc_list *created, tc_node *node);
void tc__waitq_insert(tc_waitq *q, tc_thread *t);

/* For the object checkers: every entry of `q` is a pending thread that waits on `q`, in
 * priority order; *n receives their number. NULL when all hold. */
const char *tc__waitq_check(const tc_waitq *q, size_t *n);

/* ---- time (time.c) ---------------------------------------------------------------------- */

void tc__time_init(void);
void tc__timeout_add(tc_timeout *to, uint32_t ticks);
void tc__timeout_remove(tc_timeout *to);
/* Ticks until the first timeout expires (UINT32_MAX when none is pending). */
uint32_t tc__time_ticks_to_expiry(void);
/* Account `n` ticks at once that are known to expire nothing (tick-suppressed idle). */
void tc__time_skip(uint32_t n);

/* ---- optional object modules ------------------------------------------------------------
 * Weak references: an object module's hooks are called only when the application links that
 * module (uses the object type), so an unused service costs neither flash nor time. */

/* mutex.c: a thread completes or is terminated: release what it owns. */
extern void tc__mutex_thread_exit(tc_thread *t) __attribute__((weak));
/* mutex.c: lower (raise the priority of) a user priority / threshold pair to what the
 * inheritance mutexes `t` owns impose, for a change of t's user priority or threshold. */
extern void tc__mutex_effective(const tc_thread *t, unsigned *priority, unsigned *threshold)
    __attribute__((weak));
/* taskport.c: a thread completes or is terminated: release the threads posting to it. */
extern void tc__taskport_thread_exit(tc_thread *t) __attribute__((weak));
/* taskport.c: invariants of every thread's task port, for tc_check(). */
extern const char *tc__taskport_check(void) __attribute__((weak));

/* Per-object-type invariant checkers for tc_check(): NULL when all hold. */
extern const char *tc__sem_check(void) __attribute__((weak));
extern const char *tc__mutex_check(void) __attribute__((weak));
extern const char *tc__queue_check(void) __attribute__((weak));
extern const char *tc__port_check(void) __attribute__((weak));
extern const char *tc__event_check(void) __attribute__((weak));
extern const char *tc__timer_check(void) __attribute__((weak));
extern const char *tc__block_pool_check(void) __attribute__((weak));
extern const char *tc__byte_pool_check(void) __attribute__((weak));
extern const char *tc__hisr_check(void) __attribute__((weak));
/* timer.c: how many timers are linked in the delta list (they share it with thread timeouts). */
extern size_t tc__timer_linked(void) __attribute__((weak));
/* signal.c: the calling thread's wait of *timeout ticks, begun at tick `start`, has ended
 * with signals pending or with TC__WAIT_SIGNALED. Runs the pending handlers (if the port has
 * not yet), then says how the wait goes on: its status if it had ended for another reason;
 * for TC__WAIT_SIGNALED, TC__WAIT_RESTART with *timeout set to the ticks left, or the status
 * that ends it (TC_WAIT_ABORTED when the handler called tc_signal_abort_wait(), TC_TIMEOUT --
 * TC_OK for a sleep -- when no time is left). Called without the lock. */
extern tc_status tc__signal_wait_end(bool sleeping, uint32_t start, uint32_t *timeout)
    __attribute__((weak));

/* signal.c: tc_thread_wait_abort() on a thread that is not waiting: if a signal has taken
 * it out of its wait to run the handler (the wait is interrupted, not over), make that wait
 * end with TC_WAIT_ABORTED once the handler is done, and return true. */
extern bool tc__signal_wait_abort(tc_thread *t) __attribute__((weak));

/* hisr.c: activate `h` with the lock held (as tc_hisr_activate, without dispatching). */
struct tc_hisr;
void tc__hisr_activate_locked(struct tc_hisr *h);
/* hisr.c: `h` was created in this run of the kernel. */
bool tc__hisr_created(const struct tc_hisr *h);

/* ---- trace points (trace.c; include/tacet/trace.h) ---------------------------------------
 * With TC_TRACE=0 each is nothing at all, so such a build is the kernel without the feature,
 * byte for byte. With it compiled in and no trace running, a point is one load and one branch
 * (tc__k.trace); its arguments are evaluated only when it records. */
#if TC_TRACE
void tc__trace_put(uint32_t id, uintptr_t a0, uintptr_t a1, uintptr_t a2);
void tc__trace_ready(const tc_thread *t, uintptr_t object, uintptr_t status);
void tc__trace_record(uint32_t id_a3, uintptr_t a0, uintptr_t a1, uintptr_t a2);
void tc__trace_object(unsigned type, const void *object, const char *name, unsigned extra);
void tc__trace_forget(const void *object);
void tc__trace_time(uint64_t now);
void tc__trace_switch(tc_thread *from, tc_thread *to);
void tc__trace_tick(void);
#if TC_POWER
void tc__trace_put4(uint32_t id, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3);
#endif
/* A kernel event, with the kernel lock held (every trace point inside the kernel): three
 * arguments, the fourth 0, all in registers. */
#define TC_TRACE_EVENT(id, a0, a1, a2)                                                  \
  do {                                                                                \
    if (tc__k.trace != NULL) tc__trace_put((id), (uintptr_t)(a0), (uintptr_t)(a1), (uintptr_t)(a2)); \
  } while (0)
/* Thread `t` made ready, its wait over with `status`: the event's fourth argument is its
 * priority and threshold, read by the recorder. */
#define TC_TRACE_READY(t, object, status)                                         \
  do {                                                                          \
    if (tc__k.trace != NULL) tc__trace_ready((t), (uintptr_t)(object), (uintptr_t)(status)); \
  } while (0)
/* The same from outside the lock (a service's wrapper); a3 is a status, below 2^16. */
#define TC_TRACE_CALL(id, a0, a1, a2, a3)                                                           \
  do {                                                                                             \
    if (tc__k.trace != NULL)                                                                       \
      tc__trace_record((uint32_t)(id) | (uint32_t)(a3) << 16, (uintptr_t)(a0), (uintptr_t)(a1), \
                       (uintptr_t)(a2));                                                           \
  } while (0)
/* An object enters the registry (at create, before it can run or be waited on). */
#define TC_TRACE_OBJECT(type, object, name, extra)                                   \
  do {                                                                               \
    if (tc__k.trace != NULL) tc__trace_object((type), (object), (name), (extra));    \
  } while (0)
/* An object leaves the registry (a delete's `after` in TC_TRACED). */
#define TC_TRACE_FORGET(object)                               \
  do {                                                        \
    if (tc__k.trace != NULL) tc__trace_forget(object);        \
  } while (0)
/* The object a wait queue belongs to, named by BLOCK events. */
#define TC_TRACE_WAITQ(q, object) ((q)->trace_object = (object))
/* A public service `name` recorded when it returns: the body is `TC_BODY(name)`, and this
 * wrapper, expanded before it, calls it and records event `ev` with x0 .. x2 (evaluated after
 * the call, so they may read what it handed back) and the status; `after` runs on TC_OK
 * (a delete takes the object out of the registry). The body is inlined into the wrapper, so
 * that with the trace off a service pays its one test and nothing else. A call refused above
 * the kernel's mask (TC_ISR_CHECK, after a hook that returned) is not recorded: the buffer is
 * the kernel's, which its lock does not protect from such a handler. */
#define TC_BODY(name) name##__body
#if TC_CHECKS && defined(TC_PORT_IN_UNMASKED_ISR)
#define TC__REFUSED_ABOVE_MASK(st) ((st) == TC_CALLER_ERROR && TC_PORT_IN_UNMASKED_ISR())
#else
#define TC__REFUSED_ABOVE_MASK(st) false
#endif
#define TC_TRACED(name, params, args, ev, x0, x1, x2, after)                            \
  static inline __attribute__((always_inline)) tc_status name##__body params;           \
  tc_status name params                                                                 \
  {                                                                                     \
    tc_status st_ = name##__body args;                                                  \
    if (tc__k.trace != NULL && !TC__REFUSED_ABOVE_MASK(st_))                            \
      tc__trace_record((uint32_t)(ev) | (uint32_t)st_ << 16, (uintptr_t)(x0), (uintptr_t)(x1), \
                       (uintptr_t)(x2));                                                \
    if (st_ == TC_OK) after;                                                            \
    return st_;                                                                         \
  }
#else
#define TC_TRACE_EVENT(id, a0, a1, a2) \
  do {                                 \
  } while (0)
#define TC_TRACE_READY(t, object, status) \
  do {                                    \
  } while (0)
#define TC_TRACE_OBJECT(type, object, name, extra) ((void)0)
#define TC_TRACE_WAITQ(q, object) ((void)0)
#define TC_BODY(name) name
#define TC_TRACED(name, params, args, ev, x0, x1, x2, after)
#endif

/* ---- counters (stats.c) ----------------------------------------------------------------- */

#if TC_POWER
/* power.c: the CPU goes from `from` to `to` (either NULL: idle) under a scaling policy;
 * tc__power_switch(): to another thread under load scaling. `to` runs at the point the
 * policy gives it. */
void tc__power_edge(const tc_thread *from, const tc_thread *to);
void tc__power_switch(const tc_thread *to);
/* power.c: the state of a fresh kernel (tc_kernel_init), the start and the end of a run
 * (tc_kernel_start; the end only on the sim port). */
void tc__power_reset(void);
void tc__power_start(void);
void tc__power_stop(void);
/* power.c: a thread or HISR is deleted: its cycles stay in the totals. */
void tc__power_forget(tc_thread *c);
#if TC_TRACE
/* power.c: the energy books recorded into the trace (tc_trace_disable, lock held, tracing
 * on); nothing without a table. */
void tc__power_trace_snapshot(void);
#endif
#endif

/* The points of a switch (TC_POWER), after the outgoing context's cycles went to the point
 * in force: every scaling policy changes it when idle begins or ends, load scaling also
 * between threads (of different classes). The general commit pays one test of a flag that is
 * clear under TC_POLICY_FIXED and leaves the rest to power.c; a yield, between threads, tests
 * for load scaling alone. */
#if TC_POWER
#define TC_POWER_EDGE(from, to)                                   \
  do {                                                            \
    if (tc__k.power_scaling) tc__power_edge((from), (to));        \
  } while (0)
#define TC_POWER_THREAD_EDGE(to)                     \
  do {                                               \
    if (tc__k.power_by_thread) tc__power_switch(to); \
  } while (0)
#else
#define TC_POWER_EDGE(from, to) ((void)0)
#define TC_POWER_THREAD_EDGE(to) ((void)0)
#endif

/* Make tc__k.next current and hand the CPU to it through the port: the single place where a
 * context switch is accounted and the outgoing stack is checked. tc__commit() is the inline
 * body, for the hot paths of the services; tc__switch_commit() the same out of line. */
void tc__switch_commit(void);
/* Charge `cycles` spent by the port in a context switch itself (not to any thread). */
void tc__account_switch_cycles(uint64_t cycles);
/* The port is about to move its clock `cycles` ahead at once while idle (a jump of virtual
 * time, longer than a 32-bit delta may be): charge them to idle. */
void tc__account_idle_jump(uint64_t cycles);
/* The cycles since the last accounting; the stamp moves to now. Called at every switch and
 * every tick, so that the 32-bit difference never wraps. TC_STATS only. */
TC_HOT uint32_t tc__stamp_advance(void)
{
  uint32_t now = TC_PORT_CYCLES32_DOWN();
  uint32_t ran = TC__STAMP - now; /* the clock counts down */
  TC__STAMP = now;
  return ran;
}
/* The counters a switch adds to: with TC_POWER those of the point in force, which lie at
 * offset tc__k.power_off in the context. */
TC_HOT struct tc_counts *tc__counts(tc_thread *c)
{
#if TC_POWER
  return (struct tc_counts *)(void *)((uint8_t *)c + tc__k.power_off);
#else
  return &c->counts[0];
#endif
}
/* A context ran `ran` more cycles. */
TC_HOT void tc__add_cycles(tc_thread *c, uint32_t ran)
{
  struct tc_counts *k = tc__counts(c);
  if (__builtin_add_overflow(k->cycles_lo, ran, &k->cycles_lo)) k->cycles_hi++;
}
/* Idle ran `ran` more cycles. */
TC_HOT void tc__add_idle(uint32_t ran)
{
  tc__k.stats.idle_cycles += ran;
#if TC_POWER
  tc__k.power.idle[tc__k.power.point] += ran;
#endif
}
/* The CPU is switched away from context `c`, which ran `ran` cycles since the last
 * accounting: the two counters of every switch, one pair of adjacent words. */
TC_HOT void tc__count_out(tc_thread *c, uint32_t ran)
{
  /* Both words stored together (STRD where the core has it); a carry is tested after the
   * store, from the flags or the zero it leaves. */
  struct tc_counts *k = tc__counts(c);
#if TC_POWER
  /* At a run-time offset, the pair is loaded and stored as one doubleword (LDRD/STRD), which
   * the compiler does not pair by itself there. Little-endian: switches_out is the low half. */
  uint64_t pair;
  memcpy(&pair, k, sizeof pair);
  uint32_t n = (uint32_t)pair + 1u, r;
  bool carry = __builtin_add_overflow((uint32_t)(pair >> 32), ran, &r);
  pair = (uint64_t)r << 32 | n;
  memcpy(k, &pair, sizeof pair);
#else
  uint32_t n = k->switches_out + 1u, r;
  bool carry = __builtin_add_overflow(k->cycles_lo, ran, &r);
  k->switches_out = n;
  k->cycles_lo = r;
#endif
  if (carry) k->cycles_hi++;
  /* cppcheck-suppress knownConditionTrueFalse ; n wraps to 0 every 2^32 switches */
  if (n == 0) k->switches_out_hi++;
}
/* Add the cycles since the last accounting to the current context (or to idle). */
TC_HOT void tc__account_run_time(void)
{
  uint32_t ran = tc__stamp_advance();
  if (tc__k.current != NULL)
    tc__add_cycles(tc__k.current, ran);
  else
    tc__add_idle(ran);
}
/* `c`'s switches away, made whole from the two words the switch path keeps. */
static inline uint64_t tc__switches_out(const tc_thread *c)
{
  uint64_t n = 0;
  for (unsigned p = 0; p < sizeof c->counts / sizeof c->counts[0]; p++)
    n += (uint64_t)c->counts[p].switches_out_hi << 32 | c->counts[p].switches_out;
  return n;
}
/* An idle gap ended with the context that went idle: that was no switch (stats.c). */
void tc__uncount_out(tc_thread *c);
/* `c`'s counters as tc_thread_info() and tc_hisr_info() report them (stats.c). */
void tc__thread_counters(const tc_thread *c, uint64_t *switches_in, uint64_t *preempted,
                         uint64_t *cycles);
/* tc_kernel_start() returns (sim): the current context's run is over (stats.c). */
void tc__account_end_of_run(void);
/* The TC_STACK_GUARD bytes at the bottom of `t`'s stack still hold the pattern. */
bool tc__stack_guard_intact(const tc_thread *t);
size_t tc__stack_high_water(const tc_thread *t);

/* AddressSanitizer (host builds of the sim port). The stack scans below read whole stacks,
 * the live frames' redzones included, which is what they are for: they are not instrumented. */
#if defined(__SANITIZE_ADDRESS__)
#define TC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TC_ASAN 1
#endif
#endif
#ifdef TC_ASAN
#define TC_NO_ASAN __attribute__((no_sanitize_address))
#else
#define TC_NO_ASAN
#endif

#define TC_STACK_PATTERN 0xA5u
#define TC_STACK_GUARD   16u /* bytes at the stack bottom that must keep the pattern */
/* The painted guard is compared (at each switch, by tc_check) unless the MPU guards stacks:
 * then the region below the stack is the guard, and the painted bytes are usable stack like
 * any other, which a thread may fill without overflowing. */
#define TC_STACK_PAINT_GUARD (TC_STACK_CHECK && !TC_MPU_STACK_GUARD)

/* The usable part of a stack handed to tc_thread_create() or tc_hisr_create(): the top
 * aligned down for the port's first frame and, with TC_MPU_STACK_GUARD, the bottom above the
 * guard region, which takes the first TC_PORT_STACK_GUARD bytes at an address aligned to
 * that size (the MPU's rule for a region). The bottom may lie above the top: too small. */
static inline uintptr_t tc__stack_bottom(const void *stack)
{
#if TC_MPU_STACK_GUARD
  const uintptr_t g = TC_PORT_STACK_GUARD;
  return (((uintptr_t)stack + g - 1u) & ~(g - 1u)) + g;
#else
  return (uintptr_t)stack;
#endif
}
static inline uintptr_t tc__stack_top(const void *stack, size_t size)
{
  return ((uintptr_t)stack + size) & ~(uintptr_t)(TC_PORT_STACK_ALIGN - 1);
}
/* With TC_MPU_STACK_GUARD: the stack holds the guard region and TC_PORT_STACK_MIN bytes above
 * it (the front layer's check in tc_thread_create and tc_hisr_create). */
static inline bool tc__stack_holds_guard(const void *stack, size_t size)
{
  return tc__stack_top(stack, size) >= tc__stack_bottom(stack) + TC_PORT_STACK_MIN;
}
#define TC__PATTERN_WORD (TC_STACK_PATTERN * 0x01010101u)

/* Make `size` bytes at `stack` a fresh stack: painted with TC_STACK_PATTERN (TC_STACK_CHECK)
 * and, under AddressSanitizer, cleared of the markers that frames left there when the memory
 * last served as a stack (a thread that ended or was terminated mid-call): the painting and
 * the port's first frame would otherwise be reported as overflows (stats.c). Without ASan it
 * is the painting alone, inline. */
#ifdef TC_ASAN
void tc__stack_prepare(void *stack, size_t size);
#else
static inline void tc__stack_prepare(void *stack, size_t size)
{
#if TC_STACK_CHECK
  (void)memset(stack, TC_STACK_PATTERN, size);
#else
  (void)stack;
  (void)size;
#endif
}
#endif

/* At a switch only the guard's top word is compared: a stack growing down into the guard
 * writes it first, and one load and compare is what a switch can afford. tc_check() and the
 * high-water mark look at every byte. (memcpy: the stack need not be word-aligned; it
 * compiles to one load where the core allows unaligned loads.) */
TC_HOT TC_NO_ASAN bool tc__guard_top_intact(const tc_thread *t)
{
  uint32_t w;
  (void)memcpy(&w, t->stack_base + TC_STACK_GUARD - 4, sizeof w);
  return w == TC__PATTERN_WORD;
}

/* The kernel's side of committing the switch from `from` (the current context) to `to`
 * (tc__k.next): the counters, the stack guard, `to` made current; tc__commit() then asks the
 * port to switch. A port that commits from its own switch code (Cortex-M's PendSV) calls this
 * part alone.
 *
 * Counting a switch costs a clock read and the counters of the context switched away from:
 * switches out and run time (one pair of words), and who took the CPU. What else a thread
 * reports is derived when asked (stats.c): switched in = switched out, plus one while it is
 * current; preempted = switched out - switched out while not ready (counted on the blocking
 * paths, not here). The kernel-wide totals are the sums of the per-thread counters, added up
 * when asked for (tc_kernel_stats). Run time is accumulated in 32-bit deltas of the clock
 * (the tick adds the running context's share every tick, so no delta can wrap). */
TC_HOT void tc__commit_state(tc_thread *from, tc_thread *to)
{
  (void)from; /* unused without counters and stack checks */
#if TC_TRACE
  if (tc__k.trace != NULL) tc__trace_switch(from, to);
#endif
#if TC_STATS
  uint32_t ran = tc__stamp_advance();
  if (from != NULL) {
    tc__count_out(from, ran);
    if (from->state == TC_READY)
      from->last_preempted_by = to;
    else
      from->left++;
  } else {
    tc__add_idle(ran);
    if (to != NULL && to == tc__k.last_ran) tc__uncount_out(to);
  }
  /* Only a context that goes idle not ready can come back as no switch. */
  if (to == NULL) tc__k.last_ran = from != NULL && from->state != TC_READY ? from : NULL;
  TC_POWER_EDGE(from, to);
#endif
#if TC_STACK_PAINT_GUARD
  if (from != NULL && !tc__guard_top_intact(from)) tc_stack_overflow_hook(from);
#endif
  /* `to` is never a preempted thread: tc__sched_reschedule() unflags the thread it chooses. */
  tc__k.current = to;
}

TC_HOT void tc__commit(void)
{
  tc_thread *from = tc__k.current;
  tc_thread *to = tc__k.next;
  tc__commit_state(from, to);
  TC_PORT_SWITCH(from, to);
}

/* tc__commit() where the caller knows that the running thread `from`, still ready, hands the
 * CPU to another thread `to` (a yield): the tests that do not apply are left out. */
TC_HOT void tc__commit_thread_to_thread(tc_thread *from, tc_thread *to)
{
#ifdef __OPTIMIZE_SIZE__
  (void)from; /* the general commit counts the same, in less flash */
  (void)to;
  tc__commit();
  return;
#endif
#if TC_TRACE
  if (tc__k.trace != NULL) tc__trace_switch(from, to);
#endif
#if TC_STATS
  tc__count_out(from, tc__stamp_advance());
  from->last_preempted_by = to;
#endif
  TC_POWER_THREAD_EDGE(to);
#if TC_STACK_PAINT_GUARD
  if (!tc__guard_top_intact(from)) tc_stack_overflow_hook(from);
#endif
  tc__k.current = to;
  TC_PORT_SWITCH(from, to);
}

/* ---- the scheduler's hot core, inline (sched.c holds the one external definition of each,
 * C99 `inline`): what the common service paths need, settled without the general choice.
 * Each says when it applies; the general path (tc__sched_reschedule) covers the rest. */

/* `t`, not ready and not a preempted thread, joins the back of its ready list. */
/*@ requires thread_ok(t) && ready_ok && may_join(t);
    assigns t->ready_list->head, t->sched_node.next, t->sched_node.prev, t->ready_list->head->prev,
            t->ready_list->head->prev->next, tc__k.ready_map[t->priority / 32], tc__k.ready_group;
    TC__ACSL_READY_JOINED(t)
*/
TC_HOT void tc__ready_append(tc_thread *t)
{
#ifdef __OPTIMIZE_SIZE__
  tc__ready_insert(t, false); /* the same for such a thread, in less flash */
  return;
#endif
  tc_list *l = t->ready_list;
  tc_node *n = &t->sched_node, *h = l->head;
  /* Alone at its priority is the common case (distinct priorities), laid out straight. */
  if (TC_LIKELY(h == NULL)) {
    n->next = n->prev = n;
    l->head = n;
    tc__ready_map_set(t);
    /* The postconditions' list facts, stated on each path: across the two paths' merged
     * states they took the provers most of their step budget (docs/proof.md, "Where the
     * proof is tight"). */
    //@ assert alone: list_ok(t->ready_list) && in_list(t->ready_list, n);
  } else {
    /* The fields written apart from the list's head and t's cached list, which the
     * postconditions read after the writes. */
    /*@ assert head_field:
          \separated(&l->head, &t->ready_list, &n->next, &n->prev, &h->prev->next, &h->prev); */
    n->next = h;
    n->prev = h->prev;
    h->prev->next = n;
    h->prev = n;
    /* The links around the head, stated for WP: left to find among the map's facts, the
     * provers ran out of steps at some priority counts. */
    //@ assert head_links: h->prev == n && n->next == h && n->prev->next == n && h->next->prev == h;
    //@ assert at_back: list_ok(t->ready_list) && in_list(t->ready_list, n);
  }
}

void tc__displace(tc_thread *t);
void tc__ready_unflag(tc_thread *t);

/* The choice made: `t` holds the CPU (NULL: none, idle) and runs unless an HISR is active. The
 * two writes in one place, so that the proof carries the ready structure across them once,
 * here, and not in each caller's larger context (there the provers ran out of steps on it). */
/*@ requires ready_ok;
    assigns tc__k.chosen, tc__k.next;
    ensures ready_ok;
    ensures chosen: tc__k.chosen == t;
    ensures next: tc__k.next == (tc__k.hisr_top != \null ? tc__k.hisr_top : t);
*/
inline __attribute__((always_inline)) void tc__sched_set_chosen(tc_thread *t)
{
  tc__k.chosen = t;
  tc__k.next = tc__k.hisr_top != NULL ? tc__k.hisr_top : t;
}

/* `t` has just been made ready (tc__ready_append): the decision. While the chosen thread is
 * ready (rule 1) it keeps the CPU unless `t` is above its threshold; then `t` is chosen: no
 * other ready thread is above that threshold (the decision before would have chosen it), so
 * `t` is alone in its list and heads the highest one. With none chosen (idle) `t` is the only
 * ready thread. A chosen thread that has left the ready set in the same service (its end
 * hands its mutexes over) takes the general path: rule 3. */
/*@ requires thread_ok(t) && ready_ok && choice_ok && is_ready(t) && (t->flags & TC_TF_PREEMPTED) == 0;
    requires new: t != tc__k.chosen;
    requires displaceable && rings_ok;
    requires settled: tc__k.started ==> settled_but(t);
    requires tc__k.started ==> next_ok;
    ensures by_cases: ready_ok;
    ensures rule: \old(tc__k.started) ==> \let c = tc__k.chosen; \at(chooses(c, 1), Pre);
    ensures unflagged: tc__k.chosen != \null ==> (tc__k.chosen->flags & TC_TF_PREEMPTED) == 0;
    ensures next: \old(tc__k.started) ==> next_ok;
*/
TC_HOT void tc__sched_made_ready(tc_thread *t)
{
  tc_thread *r = tc__k.chosen;
  if (!tc__k.started) return; /* no decisions before the start */
  /*@ assert idle: r == \null ==> chooses(t, 1); */
  if (r != NULL) {
    if (r->state != TC_READY) {
      tc__sched_reschedule(true);
      return;
    }
    /*@ assert holds: t->priority >= r->threshold ==> chooses(r, 1); */
    if (t->priority >= r->threshold) return;
    /*@ assert above: chooses(t, 1); */
    /*@ assert other: \separated(&r->flags, &t->flags); */
    /* tc__displace(r) has nothing to do for a thread at the front of its list without a
     * threshold of its own (the common case): tested here, it costs no call. */
    if (r->threshold < r->priority || r->ready_list->head != &r->sched_node) tc__displace(r);
    /*@ assert t_unflagged: (t->flags & TC_TF_PREEMPTED) == 0 && ready_ok; */
  }
  /*@ assert chose: \at(chooses(t, 1), Pre); */
  tc__sched_set_chosen(t);
}

/* `t`, ready, leaves the ready set (it blocks, is suspended or ends); the caller changes its
 * state. A preempted thread also leaves the preempted list. */
/*@ TC__ACSL_READY_LEAVES(t) */
TC_HOT void tc__ready_unlink(tc_thread *t)
{
#ifdef __OPTIMIZE_SIZE__
  tc__ready_remove(t); /* the same, in less flash */
  return;
#endif
  tc_list *l = t->ready_list;
  tc_node *n = &t->sched_node;
  /*@ assert preempt_apart: leave_apart(t); */
  if (n->next == n) {
    l->head = NULL;
    tc__ready_map_clear(t);
  } else {
    n->prev->next = n->next;
    n->next->prev = n->prev;
    if (l->head == n) l->head = n->next;
  }
  n->next = n->prev = NULL;
  //@ assert map_agrees;
  if ((t->flags & TC_TF_PREEMPTED) != 0u) {
    /*@ assert kept_preempt: preempt_kept{Pre, Here}(t); */
    t->flags &= (uint8_t)~TC_TF_PREEMPTED;
    /*@ assert preempt_member: member(&tc__k.preempted, &t->preempt_node); */
    /*@ assert heads_apart: heads_off_preempt(t); */
    /*@ ghost Popped: ; */
    tc__list_remove(&tc__k.preempted, &t->preempt_node);
    /*@ assert kept_heads: heads_kept{Popped, Here}; */
    /*@ assert map_after: map_agrees; */
  }
}

/* The chosen thread has left the ready set (tc__ready_unlink, state changed): rule 3. The
 * innermost preempted thread resumes unless a ready thread is above its threshold; else the
 * head of the highest ready list (which is never a preempted thread then). Its `next` is
 * next_ok written out: with the predicate, a case of its by_cases runs out of steps. */
/*@ requires ready_ok && choice_ok && preempted_first;
    requires gone: tc__k.chosen != \null ==> tc__k.chosen->state != TC_READY;
    ensures by_cases: ready_ok;
    ensures rule: \let c = tc__k.chosen; \at(chooses(c, 1), Pre);
    ensures unflagged: tc__k.chosen != \null ==> (tc__k.chosen->flags & TC_TF_PREEMPTED) == 0;
    ensures next: tc__k.next == (tc__k.hisr_top != \null ? tc__k.hisr_top : tc__k.chosen);
*/
TC_HOT void tc__sched_chosen_left(void)
{
  tc_thread *n = NULL;
  if (TC__GROUPED ? tc__k.ready_group != 0 : tc__k.ready_map[0] != 0) {
    unsigned h = tc__sched_highest_ready();
    n = tc__node_thread(tc__k.ready[h].head);
    /*@ assert only: \forall integer g; highest_ready(g) ==> g == h; */
    /*@ assert head_ok(h); */
    /*@ assert head_first: tc__k.preempted.head == \null || h < preempt_of(tc__k.preempted.head)->threshold ==>
          chooses(n, 1); */
    tc_node *p = tc__k.preempted.head;
    if (p != NULL) {
      tc_thread *pt = tc__node_preempted(p);
      if (h >= pt->threshold) {
        /*@ assert innermost: chooses(pt, 1) && (pt->flags & TC_TF_PREEMPTED) != 0; */
        n = pt;
        tc__ready_unflag(pt);
        /*@ assert unflagged: ready_ok && (n->flags & TC_TF_PREEMPTED) == 0; */
      }
    }
    /*@ assert chose: \let c = n; \at(chooses(c, 1), Pre); */
  }
  /*@ assert none: n == \null ==> \at(chooses(\null, 1), Pre); */
  /*@ assert at_end: ready_ok && (n == \null || (n->flags & TC_TF_PREEMPTED) == 0); */
  tc__sched_set_chosen(n);
}

/* (Before the start and after a port stopped the run nothing decides, so `next` equals
 * `current` and nothing is dispatched.) */
TC_HOT void tc__sched_dispatch(void)
{
  if (tc__k.next != tc__k.current && tc__k.holds == 0) {
#ifdef TC_PORT_IN_ISR
    /* In a handler without the bracket the port switches when the handlers are done: it
     * commits the last decision then. (Inside a bracket tc_isr_exit() dispatches.) */
    if (TC_PORT_IN_ISR()) {
      TC_PORT_SWITCH_LATER();
      return;
    }
#endif
    tc__commit();
  }
}

#endif /* TACET_KERNEL_INTERNAL_H */
