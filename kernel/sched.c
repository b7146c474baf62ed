/* SPDX-License-Identifier: MIT */
/*
 * The scheduler: ready set, choice of the next thread, preemption threshold, waiting.
 *
 * Ready set. One FIFO list per priority and a two-level bitmap over them: bit p of
 * `ready_map` says list p is non-empty, bit w of `ready_group` says word w of the map is
 * non-zero (kept above 32 priorities only: 32 fit in one word, which needs no group). Bits
 * are numbered from the most significant end, so count-leading-zeros of the group and then
 * of one map word gives the highest ready priority in two instructions on ARMv7-M and x86
 * alike, whatever the number of threads (O(1); up to 1024 levels).
 *
 * Preemption threshold (ThreadX semantics; docs/kernel.md states the rules, the model in
 * tests/model/ executes them). The chosen thread R -- the running thread of the rules,
 * tc__k.chosen -- holds the CPU against any ready thread whose priority is not numerically
 * below R's threshold. When R is preempted while its threshold is in force (threshold <
 * priority), it is flagged TC_TF_PREEMPTED, moved to the head of its ready list and entered in
 * the `preempted` list, which is kept in order of threshold. Preempted threads do not compete
 * while R is ready: only when R leaves the CPU (blocks, suspends, ends) does the head of that
 * list -- the innermost preemption, the strictest threshold -- compete again with its
 * threshold, not its priority. A yield or the end of a time slice is not leaving: R's turn
 * goes to the head of the highest ready list, R itself if it is alone there.
 * Example: L (10, threshold 5) runs, M (7) becomes ready: no switch; H (3) becomes ready: H
 * runs and L is flagged; H blocks: the highest ready priority is 7, which does not beat L's
 * threshold 5, so L resumes, not M. Nested preemptions unwind innermost first. (The innermost
 * is also the highest-priority preempted thread while nothing changes priorities; after
 * tc_thread_priority_change() of a preempted thread only the threshold order is right, so the
 * list is ordered by threshold.) Choosing stays O(1); entering a preempted thread walks the
 * other preempted threads, at most one per level of nested thresholds.
 *
 * Waiting. A wait queue is ordered by priority and, among equal priorities, by the order the
 * waits began (a sequence number taken when the wait starts), so a waiter whose priority or
 * threshold changes keeps its turn among the waiters of its new priority.
 *
 * Invariants (verified by tc_check): flagged threads form a prefix of their ready list; a
 * ready thread is in exactly one ready list, the one of its effective priority; the chosen
 * thread is never flagged and is the one choose_thread() returns; `next` is the first activated
 * HISR or else the chosen thread.
 */
#include <string.h>

#include "internal.h"

tc_kernel tc__k;

/* ---- lists and calling context (internal.h) --------------------------------------------- */

/* `exits \false` (here, on list_next, tc__node_preempted and preempted_add): the call does not
 * end the program. WP otherwise proves a caller's assigns on the path where a call exits too,
 * where the callee's locations are compared with the caller's in a state the walk of a list
 * does not name, and tc__ready_insert's flagged path does not prove. */
/*@ requires list_ok(l) && \valid(n) && \separated(l, n);
    requires l->head == \null ? pos == \null :
             apart(n, l->head) && (pos == \null || (in_list(l, pos) && apart(n, pos)));
    requires l->head != \null ==> five_apart(l->head, l->head->next, l->head->prev,
        pos == \null ? l->head : pos, pos == \null ? l->head->prev : pos->prev);
    assigns l->head, n->next, n->prev,
            { l->head->prev | tc_node *x; l->head != \null },
            { pos->prev | tc_node *x; pos != \null },
            { l->head->prev->next | tc_node *x; l->head != \null },
            { pos->prev->next | tc_node *x; pos != \null };
    exits \false;
    ensures l->head != \null && in_list(l, n);
    ensures head_linked: list_ok(l);
    behavior empty:
      assumes l->head == \null;
      ensures l->head == n && n->next == n && n->prev == n;
    behavior back:
      assumes l->head != \null && pos == \null;
      ensures l->head == \old(l->head) && n->next == l->head && n->prev == \old(l->head->prev);
    behavior before:
      assumes l->head != \null && pos != \null;
      ensures l->head == (pos == \old(l->head) ? n : \old(l->head));
      ensures n->next == pos && n->prev == \old(pos->prev);
    behavior ring:
      assumes ring_ok(l) && off_ring(l, n) && \separated(n, &tc__k) &&
              (pos == \null || on_ring(l, pos));
      ensures ring: ring_ok(l);
      ensures nodes: \forall tc_node *x; on_ring(l, x) ==> \old(on_ring(l, x)) || x == n;
      ensures kept: \forall tc_node *x; \old(on_ring(l, x)) ==> on_ring(l, x);
      ensures joins: on_ring(l, n);
    complete behaviors empty, back, before;
    disjoint behaviors empty, back, before;
*/
void tc__list_insert(tc_list *l, tc_node *pos, tc_node *n)
{
  /*@ for ring: assert around: l->head != \null ==> reach(l->head, l->head->prev) &&
        (pos != \null ==> reach(l->head, pos->prev)); */
  /*@ for ring: assert apart_around: l->head != \null ==> \forall tc_node *y;
        reach(l->head, y) ==> apart(n, y) && \separated(l, y) && same_or_apart(y, l->head) &&
        same_or_apart(y, l->head->prev) &&
        (pos != \null ==> same_or_apart(y, pos) && same_or_apart(y, pos->prev)); */
  /*@ for ring: assert not_on_ring: l->head != \null ==> !reach(l->head, n); */
  /*@ for ring: assert back_links: l->head != \null ==> \forall tc_node *y;
        reach(l->head, y) ==> y->next->prev == y; */
  tc_node *h = l->head;
  if (h == NULL) {
    n->next = n->prev = n;
    l->head = n;
    /*@ for ring: assert self_linked(n); */
    /*@ for ring: assert alone: \forall tc_node *x; reach(l->head, x) ==> x == n; */
    return;
  }
  if (pos == NULL)
    pos = h; /* before the head of a circular list: at the back */
  else if (pos == h)
    l->head = n;
  /* The fields written apart from the list's head, and the old head still linked after the
   * writes, whichever it neighbours: the second postcondition across the three paths, without
   * them, took the provers most of their step budget (docs/proof.md, "Where the proof is
   * tight"). */
  //@ assert head_field: \separated(&l->head, &n->next, &n->prev, &pos->prev->next, &pos->prev);
  /*@ for ring: assert next_fields: \forall tc_node *y; reach{Pre}(h, y) && y != pos->prev ==>
        \separated(&y->next, &n->next, &n->prev, &pos->prev->next, &pos->prev); */
  /*@ for ring: assert prev_fields: \forall tc_node *y; reach{Pre}(h, y) && y != pos ==>
        \separated(&y->prev, &n->next, &n->prev, &pos->prev->next, &pos->prev); */
  n->next = pos;
  n->prev = pos->prev;
  pos->prev->next = n;
  pos->prev = n;
  //@ assert h_linked: linked(h) && (l->head == h || l->head == n);
  /*@ for ring: assert next_kept: \forall tc_node *y; reach{Pre}(h, y) && y != n->prev ==>
        y->next == \at(y->next, Pre); */
  /*@ for ring: assert linked_in: linked_in{Pre, Here}(h, l->head, n, n->prev, pos); */
  /*@ for ring: assert new_nodes: \forall tc_node *x;
        reach(l->head, x) ==> reach{Pre}(h, x) || x == n; */
  /*@ for ring: assert kept_nodes: \forall tc_node *x; reach{Pre}(h, x) ==> reach(l->head, x); */
  /*@ for ring: assert new_node: reach(l->head, n); */
  /*@ for ring: assert next_links: \forall tc_node *x; reach(l->head, x) ==>
        x->next == (x == n ? pos : x == n->prev ? n : \at(x->next, Pre)); */
  /*@ for ring: assert prev_kept: \forall tc_node *y; reach{Pre}(h, y) && y != pos ==>
        y->prev == \at(y->prev, Pre); */
  /*@ for ring: assert prev_links: \forall tc_node *x; reach(l->head, x) ==>
        x->prev == (x == n ? n->prev : x == pos ? n : \at(x->prev, Pre)); */
  /*@ for ring: assert linked_next: \forall tc_node *x; reach(l->head, x) ==> x->next->prev == x; */
  /*@ for ring: assert linked_prev: \forall tc_node *x; reach(l->head, x) ==> x->prev->next == x; */
  /*@ for ring: assert in_list: \forall tc_node *x; reach(l->head, x) ==> in_list(l, x); */
  /*@ for ring: assert outside: \forall tc_node *x; reach(l->head, x) ==> outside(x); */
  /*@ for ring: assert prev_on_ring: \forall tc_node *x;
        reach(l->head, x) ==> reach(l->head, x->prev); */
  /*@ for ring: assert apart: \forall tc_node *x, *y;
        reach(l->head, x) && reach(l->head, y) ==> same_or_apart(x, y); */
}

/* A node alone in its list is the list's head (the second precondition). That the list is
 * whole again after the removal is the behaviour `ring`'s, from a whole list: the head's links
 * afterwards (when the head itself leaves, its successor's) lie beyond the local view of the
 * precondition, which names the node and its neighbours, not theirs. */
/*@ requires list_ok(l) && l->head != \null && in_list(l, n);
    requires n->next == n ==> l->head == n;
    assigns l->head, n->next, n->prev, n->prev->next, n->next->prev;
    ensures n->next == \null && n->prev == \null;
    ensures l->head == \null <==> \old(n->next) == n;
    ensures \old(l->head) != n ==> l->head == \old(l->head);
    behavior ring:
      assumes ring_ok(l) && on_ring(l, n);
      ensures ring: ring_ok(l);
      ensures nodes: \forall tc_node *x; on_ring(l, x) ==> \old(on_ring(l, x)) && x != n;
      ensures kept: \forall tc_node *x; \old(on_ring(l, x)) && x != n ==> on_ring(l, x);
*/
void tc__list_remove(tc_list *l, tc_node *n)
{
  /* Behaviour `ring`: n and its neighbours are nodes of the ring, each the same as or apart
   * from every node of it, which ring_ok says and these two assertions pick out for the
   * writes below. */
  /*@ for ring: assert around: reach(l->head, n->prev) && reach(l->head, n->next); */
  /*@ for ring: assert apart_around: \forall tc_node *y; reach(l->head, y) ==>
        same_or_apart(y, n) && same_or_apart(y, n->prev) && same_or_apart(y, n->next) &&
        \separated(l, y); */
  if (n->next == n) {
    l->head = NULL;
  } else {
    n->prev->next = n->next;
    n->next->prev = n->prev;
    if (l->head == n) l->head = n->next;
  }
  n->next = n->prev = NULL;
  /* Behaviour `ring`, when n had neighbours (else the list is empty now): the premises of the
   * axioms of RingRemoval one by one, then what they give, then ring_ok piece by piece. */
  /*@ for ring: assert was_on_ring: \at(n->next, Pre) != n ==> reach{Pre}(\at(l->head, Pre), n); */
  /*@ for ring: assert was_linked: \at(n->next, Pre) != n ==>
        \at(n->prev->next, Pre) == n && \at(n->prev, Pre) != n; */
  /*@ for ring: assert bridged: \at(n->next, Pre) != n ==>
        \at(n->prev, Pre)->next == \at(n->next, Pre); */
  /*@ for ring: assert back_links: \at(n->next, Pre) != n ==> \forall tc_node *y;
        reach{Pre}(\at(l->head, Pre), y) ==> \at(y->next->prev, Pre) == y; */
  /*@ for ring: assert next_kept: \at(n->next, Pre) != n ==> \forall tc_node *y;
        reach{Pre}(\at(l->head, Pre), y) && y != \at(n->prev, Pre) && y != n ==>
        y->next == \at(y->next, Pre); */
  /*@ for ring: assert new_head: \at(n->next, Pre) != n ==>
        l->head == (\at(l->head, Pre) == n ? \at(n->next, Pre) : \at(l->head, Pre)); */
  /*@ for ring: assert unlinked: \at(n->next, Pre) != n ==>
        unlinked{Pre, Here}(\at(l->head, Pre), l->head, n, \at(n->prev, Pre)); */
  /*@ for ring: assert old_nodes: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach(l->head, x) ==> reach{Pre}(\at(l->head, Pre), x) && x != n; */
  /*@ for ring: assert kept_nodes: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach{Pre}(\at(l->head, Pre), x) && x != n ==> reach(l->head, x); */
  /*@ for ring: assert was_alone: \at(n->next, Pre) == n ==>
        self_linked{Pre}(n) && \at(l->head, Pre) == n; */
  /*@ for ring: assert alone_kept: \at(n->next, Pre) == n ==> \forall tc_node *x;
        reach{Pre}(\at(l->head, Pre), x) ==> x == n; */
  /*@ for ring: assert next_links: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach(l->head, x) ==>
        x->next == (x == \at(n->prev, Pre) ? \at(n->next, Pre) : \at(x->next, Pre)); */
  /*@ for ring: assert prev_links: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach(l->head, x) ==>
        x->prev == (x == \at(n->next, Pre) ? \at(n->prev, Pre) : \at(x->prev, Pre)); */
  /*@ for ring: assert linked_next: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach(l->head, x) ==> x->next->prev == x; */
  /*@ for ring: assert linked_prev: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach(l->head, x) ==> x->prev->next == x; */
  /*@ for ring: assert in_list: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach(l->head, x) ==> in_list(l, x); */
  /*@ for ring: assert outside: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach(l->head, x) ==> outside(x); */
  /*@ for ring: assert prev_on_ring: \at(n->next, Pre) != n ==> \forall tc_node *x;
        reach(l->head, x) ==> reach(l->head, x->prev); */
  /*@ for ring: assert apart: \at(n->next, Pre) != n ==> \forall tc_node *x, *y;
        reach(l->head, x) && reach(l->head, y) ==> same_or_apart(x, y); */
}

bool tc__list_contains(const tc_list *l, const tc_node *n)
{
  const tc_node *x = l->head;
  if (x == NULL) return false;
  do {
    if (x == n) return true;
    x = x->next;
  } while (x != l->head);
  return false;
}

/* The node after `n` in `l`, NULL past the back: for walks that stop at an insertion point. */
/*@ requires \valid_read(n) && \valid_read(l);
    assigns \nothing;
    exits \false;
    ensures n->next == l->head ==> \result == \null;
    ensures n->next != l->head ==> \result == n->next;
*/
static inline tc_node *list_next(const tc_list *l, const tc_node *n)
{
  return n->next == l->head ? NULL : n->next;
}

extern inline bool tc__in_isr(void);
extern inline bool tc__in_thread(void);

/* ---- ready set ---------------------------------------------------------------------------- */

/*@ requires \valid_read(map + (0 .. TC_MAP_WORDS - 1));
    requires TC_MAP_WORDS > 1 ? group != 0 && \forall integer w; 0 <= w < 32 ==>
               (top_bit(group, w) <==> (w < TC_MAP_WORDS && map[w] != 0)) : map[0] != 0;
    assigns \nothing;
    ensures \result < TC_PRIORITIES && top_bit(map[\result / 32], \result % 32);
    ensures \forall integer q; 0 <= q < \result ==> !top_bit(map[q / 32], q % 32);
*/
static inline unsigned map_first(uint32_t group, const uint32_t *map) { return tc__map_first(group, map); }

/*@ requires p < TC_PRIORITIES;
    assigns \nothing;
    ensures \result == thread_of(tc__k.ready[p].head);
*/
static inline tc_thread *ready_head(unsigned p) { return tc__node_thread(tc__k.ready[p].head); }

#define PREEMPTED_OF(n) tc__node_preempted(n)

/* The fields an insertion before x writes (x's prev, and the next of the node before x) lie
 * apart from t's cached list and map word, which its callers read after it. */
/*@ predicate fields_before_apart{L}(tc_node *x, tc_thread *t) = x != \null ==>
      \separated(&x->prev, &t->ready_list, &t->ready_word) &&
      \separated(&x->prev->next, &t->ready_list, &t->ready_word);
*/

/* Enter a flagged thread in the preempted list, before every entry whose threshold is not
 * stricter: among equal thresholds the most recently preempted comes first. */
/* Its proof, and tc__ready_insert's, take the lists as a walk from their heads finds them
 * (ring_ok) as given: the proofs of their callers, which would establish that, are not
 * written (docs/proof.md). Besides joining the list, it says what it leaves alone (the last
 * three postconditions, the third proved case by case): the frame tc__ready_insert needs. */
/*@ requires thread_ok(t) && ring_ok(&tc__k.preempted) && outside(&t->preempt_node);
    requires off_ring(&tc__k.preempted, &t->preempt_node);
    requires ring_preempted(&tc__k.preempted) && ring_apart(&tc__k.preempted, t);
    assigns TC__ACSL_PREEMPTED_WRITES(t);
    ensures joined: tc__k.preempted.head != \null && in_list(&tc__k.preempted, &t->preempt_node);
    ensures head_linked: list_ok(&tc__k.preempted);
    ensures ring: ring_ok(&tc__k.preempted);
    ensures nodes: \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
              \old(on_ring(&tc__k.preempted, x)) || x == &t->preempt_node;
    ensures kept: \forall tc_node *x;
              \old(on_ring(&tc__k.preempted, x)) ==> on_ring(&tc__k.preempted, x);
    ensures kept_heads: \forall integer p; 0 <= p < TC_PRIORITIES ==>
              tc__k.ready[p].head == \old(tc__k.ready[p].head);
    ensures kept_thread: t->ready_list == \old(t->ready_list) &&
              t->ready_word == \old(t->ready_word);
    ensures by_cases: \forall tc_node *y; \old(off_ring(&tc__k.preempted, y)) &&
              \separated(y, &t->preempt_node) && \separated(y, &tc__k) ==>
              y->next == \old(y->next) && y->prev == \old(y->prev);
    exits \false;
*/
static void preempted_add(tc_thread *t)
{
  tc_list *l = &tc__k.preempted;
  tc_node *pos = l->head;
  /*@ loop invariant pos == \null || (l->head != \null && reach(l->head, pos));
      loop assigns pos; */
  while (pos != NULL && PREEMPTED_OF(pos)->threshold < t->threshold) pos = list_next(l, pos);
  /* The nodes the insertion writes through lie apart from the kernel's state, from t and
   * from every node off the ring. */
  /*@ assert writes_apart: l->head != \null ==>
        \forall tc_node *x; x == l->head || (pos != \null && x == pos) ==>
          \separated(x, &tc__k) && \separated(x->prev, &tc__k) &&
          \separated(x, t) && \separated(x->prev, t) &&
          \forall tc_node *y; \separated(y, &t->preempt_node) && off_ring(l, y) ==>
            \separated(x, y) && \separated(x->prev, y); */
  /* The same, at the fields the insertion writes: what the third postcondition needs. */
  /*@ assert by_cases: \forall tc_node *y;
        \separated(y, &t->preempt_node) && \separated(y, &tc__k) && off_ring(l, y) ==>
          (l->head != \null ==> \separated(&y->prev, &l->head->prev, &l->head->prev->next) &&
                                \separated(&y->next, &l->head->prev, &l->head->prev->next)) &&
          (pos != \null ==> \separated(&y->prev, &pos->prev, &pos->prev->next) &&
                            \separated(&y->next, &pos->prev, &pos->prev->next)); */
  /* And the fields it writes, apart from those the other postconditions read: the ready lists'
   * heads, t's list and map word. Given only at the nodes, the frame after the call took the
   * provers most of their step budget (docs/proof.md, "Where the proof is tight"). */
  /*@ assert heads_apart: \forall integer p; 0 <= p < TC_PRIORITIES ==>
        \separated(&tc__k.ready[p].head, &l->head) &&
        \separated(&tc__k.ready[p].head, &t->preempt_node.next) &&
        \separated(&tc__k.ready[p].head, &t->preempt_node.prev) &&
        (l->head != \null ==> \separated(&tc__k.ready[p].head, &l->head->prev) &&
                              \separated(&tc__k.ready[p].head, &l->head->prev->next)) &&
        (pos != \null ==> \separated(&tc__k.ready[p].head, &pos->prev) &&
                          \separated(&tc__k.ready[p].head, &pos->prev->next)); */
  /*@ assert fields_apart: fields_before_apart(l->head, t) && fields_before_apart(pos, t); */
  /*@ assert ring_insert: \separated(&t->preempt_node, &tc__k) &&
        (pos == \null || on_ring(l, pos)); */
  tc__list_insert(l, pos, &t->preempt_node);
}

/*@ requires \valid_read(thread_of((tc_node *)n));
    assigns \nothing;
    ensures \result <==> (thread_of((tc_node *)n)->flags & TC_TF_PREEMPTED) != 0;
*/
static inline bool flagged(const tc_node *n) { return (tc__node_thread_const(n)->flags & TC_TF_PREEMPTED) != 0; }

/* x, when not NULL, and the node before it lie apart from the kernel's state and from t. */
/*@ predicate writable_before{L}(tc_node *x, tc_thread *t) = x != \null ==>
      \separated(x, &tc__k) && \separated(x->prev, &tc__k) &&
      \separated(x, t) && \separated(x->prev, t);
*/

/* The links of y lie apart from the fields an insertion of t before pos writes (pos's and the
 * list head's prev, and the next of the nodes before them), which therefore keep them. */
/*@ predicate links_apart{L}(tc_node *y, tc_thread *t, tc_node *pos) =
      \separated(&y->next, &t->ready_list->head, &t->sched_node.next, &t->sched_node.prev) &&
      \separated(&y->prev, &t->ready_list->head, &t->sched_node.next, &t->sched_node.prev) &&
      (pos != \null ==> \separated(&y->next, &pos->prev, &pos->prev->next) &&
                        \separated(&y->prev, &pos->prev, &pos->prev->next)) &&
      (t->ready_list->head != \null ==>
         \separated(&y->next, &t->ready_list->head->prev, &t->ready_list->head->prev->next) &&
         \separated(&y->prev, &t->ready_list->head->prev, &t->ready_list->head->prev->next));
*/

/* `t` joins its list before `pos` (at the back when NULL) and its bit in the map is set: the
 * part of tc__ready_insert that comes after the choice of the place. Its contract names only
 * the nodes it writes, so that its callers' frames are small. */
/*@ requires thread_ok(t) && map_agrees_but(t->priority) && group_agrees;
    requires list_ok(t->ready_list) && \valid(&t->sched_node) &&
             \separated(t->ready_list, &t->sched_node);
    requires t->ready_list->head == \null ? pos == \null :
             apart(&t->sched_node, t->ready_list->head) &&
             (pos == \null || (in_list(t->ready_list, pos) && apart(&t->sched_node, pos)));
    requires t->ready_list->head != \null ==>
             five_apart(t->ready_list->head, t->ready_list->head->next, t->ready_list->head->prev,
                        pos == \null ? t->ready_list->head : pos,
                        pos == \null ? t->ready_list->head->prev : pos->prev);
    requires writable_before(t->ready_list->head, t) && writable_before(pos, t);
    assigns t->ready_list->head, t->sched_node.next, t->sched_node.prev,
            { t->ready_list->head->prev | tc_node *x; t->ready_list->head != \null },
            { pos->prev | tc_node *x; pos != \null },
            { t->ready_list->head->prev->next | tc_node *x; t->ready_list->head != \null },
            { pos->prev->next | tc_node *x; pos != \null },
            tc__k.ready_map[t->priority / 32], tc__k.ready_group;
    TC__ACSL_READY_JOINED(t)
    ensures kept_preempted: tc__k.preempted.head == \old(tc__k.preempted.head);
    ensures kept_list: t->ready_list == \old(t->ready_list);
    ensures kept_links: \forall tc_node *y; \old(links_apart(y, t, pos)) ==>
              y->next == \old(y->next) && y->prev == \old(y->prev);
    behavior ring:
      assumes ring_ok(t->ready_list) && off_ring(t->ready_list, &t->sched_node) &&
              (pos == \null || on_ring(t->ready_list, pos));
      ensures ring: ring_ok(t->ready_list);
      ensures nodes: \forall tc_node *x; on_ring(t->ready_list, x) ==>
              \old(on_ring(t->ready_list, x)) || x == &t->sched_node;
      ensures kept: \forall tc_node *x;
            \old(on_ring(t->ready_list, x)) ==> on_ring(t->ready_list, x);
      ensures joins: on_ring(t->ready_list, &t->sched_node);
*/
static inline void ready_insert_at(tc_thread *t, tc_node *pos)
{
  tc_list *l = t->ready_list;
  /*@ assert heads_apart: \forall integer p; 0 <= p < TC_PRIORITIES && p != t->priority ==>
        \separated(&l->head, &tc__k.ready[p].head) &&
        \separated(&t->sched_node.next, &tc__k.ready[p].head) &&
        \separated(&t->sched_node.prev, &tc__k.ready[p].head) &&
        (pos != \null ==> \separated(&pos->prev, &tc__k.ready[p].head) &&
                          \separated(&pos->prev->next, &tc__k.ready[p].head)) &&
        (l->head != \null ==> \separated(&l->head->prev, &tc__k.ready[p].head) &&
                              \separated(&l->head->prev->next, &tc__k.ready[p].head)); */
  /*@ assert fields_apart: fields_before_apart(l->head, t) && fields_before_apart(pos, t); */
  //@ assert node_apart: \separated(&t->sched_node, &tc__k);
  /*@ assert preempted_apart: \separated(&tc__k.preempted.head, &l->head, &t->sched_node.next,
        &t->sched_node.prev) &&
        (pos != \null ==> \separated(&tc__k.preempted.head, &pos->prev, &pos->prev->next)) &&
        (l->head != \null ==>
           \separated(&tc__k.preempted.head, &l->head->prev, &l->head->prev->next)); */
  tc__list_insert(l, pos, &t->sched_node);
  /*@ assert kept_heads: \forall integer p; 0 <= p < TC_PRIORITIES && p != t->priority ==>
        tc__k.ready[p].head == \at(tc__k.ready[p].head, Pre); */
  //@ assert kept_fields: t->ready_list == l && t->ready_word == \at(t->ready_word, Pre);
  tc__ready_map_set(t);
}

/* The nodes t's ready list has after t joined it (ready_insert_flagged, tc__ready_insert):
 * the old ones, all kept, and t's; and t's list is the one it had. */
#define TC__ACSL_READY_NODES(t)                                                                   \
  ensures nodes: \forall tc_node *x; on_ring((t)->ready_list, x) ==>                            \
      \old(on_ring((t)->ready_list, x)) || x == &(t)->sched_node;                               \
  ensures kept: \forall tc_node *x;                                                              \
      \old(on_ring((t)->ready_list, x)) ==> on_ring((t)->ready_list, x);                        \
  ensures joins: on_ring((t)->ready_list, &(t)->sched_node);                                     \
  ensures kept_list: (t)->ready_list == \old((t)->ready_list);

/* A node apart from the kernel's state is apart from each of its lists (a lemma WP proves;
 * left to the provers in a large goal, the step from the whole to its part ran out of steps). */
/*@ axiomatic KernelApart {
  predicate kernel_apart(tc_node *y) = \separated(y, &tc__k);
  lemma lists_apart: \forall tc_node *y, integer p; kernel_apart(y) ==> 0 <= p < TC_PRIORITIES ==>
      \separated(y, &tc__k.ready[p]) && \separated(y, &tc__k.preempted);
  }
*/
/* The preempted list's nodes after t's preempted node joined it: the old ones, all kept, and
 * t's. */
#define TC__ACSL_PREEMPTED_NODES(t)                                                               \
  ensures preempted_nodes: \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>                 \
      \old(on_ring(&tc__k.preempted, x)) || x == &(t)->preempt_node;                             \
  ensures preempted_kept: \forall tc_node *x;                                                    \
      \old(on_ring(&tc__k.preempted, x)) ==> on_ring(&tc__k.preempted, x);

/* A flagged thread enters the preempted list, then the front of its ready list. What it
 * needs of the ready list is the local view of its head (which the preempted list's change
 * leaves alone: the head and its neighbours lie off the preempted ring). */
/*@ requires thread_ok(t) && map_agrees_but(t->priority) && group_agrees;
    requires ring_ok(&tc__k.preempted) && ring_preempted(&tc__k.preempted) &&
             outside(&t->preempt_node) && off_ring(&tc__k.preempted, &t->preempt_node) &&
             ring_apart(&tc__k.preempted, t);
    requires list_ok(t->ready_list) && \valid(&t->sched_node) &&
             \separated(t->ready_list, &t->sched_node);
    requires t->ready_list->head != \null ==>
             in_list(t->ready_list, t->ready_list->head) &&
             apart(&t->sched_node, t->ready_list->head) &&
             local_apart(t->ready_list->head) &&
             \forall tc_node *y; y == t->ready_list->head || y == t->ready_list->head->next ||
               y == t->ready_list->head->prev ==>
               off_ring(&tc__k.preempted, y) && \separated(y, &t->preempt_node) &&
               \separated(y, &tc__k) && \separated(y, t);
    requires ring_ok(t->ready_list) && off_ring(t->ready_list, &t->sched_node) &&
             ring_apart(t->ready_list, t) && rings_apart(t->ready_list, &tc__k.preempted);
    assigns t->ready_list->head, t->sched_node.next, t->sched_node.prev,
            { t->ready_list->head->prev | tc_node *x; t->ready_list->head != \null },
            { t->ready_list->head->prev->next | tc_node *x; t->ready_list->head != \null },
            tc__k.ready_map[t->priority / 32], tc__k.ready_group,
            TC__ACSL_PREEMPTED_WRITES(t);
    TC__ACSL_READY_JOINED(t)
    ensures ring: ring_ok(t->ready_list);
    ensures preempted_ring: ring_ok(&tc__k.preempted);
    TC__ACSL_READY_NODES(t)
    TC__ACSL_PREEMPTED_NODES(t)
*/
static void ready_insert_flagged(tc_thread *t)
{
  tc_list *l = t->ready_list;
  tc_node *pos = l->head;
  //@ assert own_list: l == &tc__k.ready[t->priority];
  /*@ assert ring_off: pos != \null ==> \forall tc_node *y; reach(pos, y) ==>
        off_ring(&tc__k.preempted, y) && \separated(y, &t->preempt_node) && \separated(y, &tc__k); */
  /*@ assert preempted_apart: \forall tc_node *y; on_ring(&tc__k.preempted, y) ==>
        \separated(y, &tc__k) && \separated(y, t) &&
        (pos != \null ==> \separated(y, pos) && \separated(y, pos->prev)); */
  /*@ assert node_apart: \separated(&t->preempt_node, &tc__k) &&
        (pos != \null ==> \separated(&t->preempt_node, pos) &&
                          \separated(&t->preempt_node, pos->prev)); */
  preempted_add(t);
  /* What ready_insert_at needs, restated right after the call one fact at a time: left to
   * the call's precondition, with the rings among the hypotheses, it ran out of steps. */
  //@ assert kept_thread: thread_ok(t);
  //@ assert kept_group: group_agrees;
  //@ assert kept_map: map_agrees_but(t->priority);
  //@ assert kept_head: l->head == pos;
  /*@ assert kept_links: pos != \null ==> \let q = pos; q->next == \at(q->next, Pre) &&
        q->prev == \at(q->prev, Pre) && q->next->prev == q && q->prev->next == q; */
  /* The ready ring lies off the preempted ring (rings_apart), and so keeps its links across
   * preempted_add (its by_cases): its walk finds the nodes it found (RingFrame). */
  /*@ assert ring_links: pos != \null ==> \forall tc_node *y; reach{Pre}(pos, y) ==>
        y->next == \at(y->next, Pre) && y->prev == \at(y->prev, Pre); */
  //@ assert steps: pos != \null ==> steps_kept{Pre, Here}(pos);
  //@ assert ring_frame: ring_frame{Pre, Here}(l);
  /*@ assert ring_kept: pos != \null ==> \forall tc_node *y;
        reach(pos, y) <==> reach{Pre}(pos, y); */
  /*@ assert off_again: pos != \null ==> \forall tc_node *x; reach(pos, x) ==>
        apart(&t->sched_node, x); */
  /*@ assert ring_again: ring_ok(l) && off_ring(l, &t->sched_node); */
  /* The preempted ring after preempted_add: its nodes are those it had (apart from the ready
   * list's head, its neighbours and t) and t's preempt_node. The fields ready_insert_at
   * writes lie apart from the links of each of them, which it therefore keeps. */
  /*@ ghost Added: ; */
  //@ ghost tc_node *ph = tc__k.preempted.head;
  //@ assert at_head: t->ready_list == l && t->ready_list->head == pos;
  /*@ assert preempted_old: \forall tc_node *y; on_ring(&tc__k.preempted, y) ==>
        y == &t->preempt_node || on_ring{Pre}(&tc__k.preempted, y); */
  /*@ assert preempted_nodes: \forall tc_node *y; on_ring(&tc__k.preempted, y) ==>
        \separated(y, &tc__k) && \separated(y, &t->sched_node) &&
        (pos != \null ==> \separated(y, pos) && \separated(y, pos->prev)); */
  /* links_apart's body, then the predicate: asserted folded alone, it does not prove (the
   * provers do not unfold it over the quantifier). */
  /*@ assert preempted_fields: \forall tc_node *y; on_ring(&tc__k.preempted, y) ==>
        \separated(&y->next, &t->ready_list->head, &t->sched_node.next, &t->sched_node.prev) &&
        \separated(&y->prev, &t->ready_list->head, &t->sched_node.next, &t->sched_node.prev) &&
        (pos != \null ==> \separated(&y->next, &pos->prev, &pos->prev->next) &&
                          \separated(&y->prev, &pos->prev, &pos->prev->next)) &&
        (t->ready_list->head != \null ==>
           \separated(&y->next, &t->ready_list->head->prev, &t->ready_list->head->prev->next) &&
           \separated(&y->prev, &t->ready_list->head->prev, &t->ready_list->head->prev->next)); */
  /*@ assert preempted_writes: \forall tc_node *y; on_ring(&tc__k.preempted, y) ==>
        links_apart(y, t, pos); */
  /*@ assert preempted_reach: \forall tc_node *y;
        reach(tc__k.preempted.head, y) ==> on_ring(&tc__k.preempted, y); */
  /* ready_insert_at's behaviour `ring` holds: pos, the head, is on the ring. */
  //@ assert at_pos: pos == \null || on_ring(t->ready_list, pos);
  ready_insert_at(t, pos);
  /* ready_insert_at keeps the preempted list's head and the links of its nodes (kept_links),
   * so the list is whole after it (ring_frame, lemma ring_ok_kept). Each step is stated in
   * the form (on_ring or reach, of one state) in which the next one reads it. */
  //@ assert preempted_head: tc__k.preempted.head == ph;
  /*@ assert preempted_links: \forall tc_node *y; reach{Added}(ph, y) ==>
        y->next == \at(y->next, Added) && y->prev == \at(y->prev, Added); */
  //@ assert preempted_frame: ring_frame{Added, Here}(&tc__k.preempted);
  /* The ready list's nodes: those before preempted_add (ring_kept), and t's. */
  //@ assert ready_same: t->ready_list == l;
  //@ assert ready_joins: on_ring(l, &t->sched_node);
  /*@ assert ready_then: \forall tc_node *x; on_ring{Added}(l, x) <==> on_ring{Pre}(l, x); */
  /*@ assert ready_nodes: \forall tc_node *x; on_ring(l, x) ==>
        on_ring{Pre}(l, x) || x == &t->sched_node; */
  /*@ assert ready_kept: \forall tc_node *x; on_ring{Pre}(l, x) ==> on_ring(l, x); */
  /* The preempted list's nodes: those after preempted_add (its frame since), which are the
   * old ones and t's. */
  /*@ assert preempted_walk: \forall tc_node *x;
        on_ring(&tc__k.preempted, x) <==> on_ring{Added}(&tc__k.preempted, x); */
}

/*@ requires thread_ok(t) && ring_ok(t->ready_list) && ring_threads(t->ready_list);
    requires outside(&t->sched_node) && off_ring(t->ready_list, &t->sched_node);
    requires ring_apart(t->ready_list, t) && map_agrees_but(t->priority) && group_agrees;
    requires (t->flags & TC_TF_PREEMPTED) != 0 ==>
             ring_ok(&tc__k.preempted) && ring_preempted(&tc__k.preempted) &&
             outside(&t->preempt_node) && off_ring(&tc__k.preempted, &t->preempt_node) &&
             ring_apart(&tc__k.preempted, t) && rings_apart(t->ready_list, &tc__k.preempted);
    assigns t->ready_list->head, t->sched_node.next, t->sched_node.prev,
            { x->prev | tc_node *x; on_ring(t->ready_list, x) },
            { x->prev->next | tc_node *x; on_ring(t->ready_list, x) },
            tc__k.ready_map[t->priority / 32], tc__k.ready_group,
            TC__ACSL_PREEMPTED_WRITES_IF(t, (t->flags & TC_TF_PREEMPTED) != 0);
    TC__ACSL_READY_JOINED(t)
    ensures ring: ring_ok(t->ready_list);
    ensures preempted_ring: (t->flags & TC_TF_PREEMPTED) != 0 ==> ring_ok(&tc__k.preempted);
    TC__ACSL_READY_NODES(t)
    behavior flagged:
      assumes (t->flags & TC_TF_PREEMPTED) != 0;
      TC__ACSL_PREEMPTED_NODES(t)
    behavior keeps:
      assumes (t->flags & TC_TF_PREEMPTED) == 0;
      assumes ring_ok(&tc__k.preempted) && rings_apart(t->ready_list, &tc__k.preempted) &&
              ring_sep(&tc__k.preempted, &t->sched_node) &&
              \forall tc_node *y; on_ring(&tc__k.preempted, y) ==> kernel_apart(y);
      ensures preempted_kept: ring_frame{Pre, Post}(&tc__k.preempted);
*/
void tc__ready_insert(tc_thread *t, bool at_front)
{
  if ((t->flags & TC_TF_PREEMPTED) != 0u) {
    /* The nodes the flagged path writes through besides t's: the ready list's head, a node of
     * the ring (its prev and that node's next are in this function's assigns). */
    /*@ assert head_on: t->ready_list->head != \null ==>
          on_ring(t->ready_list, t->ready_list->head); */
    ready_insert_flagged(t);
  } else {
    tc_list *l = t->ready_list;
    tc_node *pos = NULL; /* the back */
    if (at_front) {
      /* Right behind the flagged threads: where a thread that was running belongs, so that
       * it resumes before the threads that have not run yet. */
      pos = l->head;
      /*@ loop invariant pos == \null || on_ring(l, pos);
          loop assigns pos; */
      while (pos != NULL && flagged(pos)) pos = list_next(l, pos);
    }
    /* Behaviour `keeps`: the preempted list's nodes lie apart from the ready list, its nodes
     * and t's node, so their links are none of the fields ready_insert_at writes (its
     * kept_links), and its head is not written (kept_preempted). */
    /*@ for keeps: assert k_list: \forall tc_node *y; on_ring(&tc__k.preempted, y) ==>
          \separated(y, l); */
    /*@ for keeps: assert k_on: (l->head != \null ==> on_ring(l, l->head) &&
          on_ring(l, l->head->prev)) && (pos != \null ==> on_ring(l, pos->prev)); */
    /*@ for keeps: assert k_sep: \forall tc_node *x, *y;
          on_ring(l, x) && on_ring(&tc__k.preempted, y) ==> \separated(y, x); */
    /*@ for keeps: assert k_nodes: \forall tc_node *y; on_ring(&tc__k.preempted, y) ==>
          \separated(y, &t->sched_node) &&
          (l->head != \null ==> \separated(y, l->head) && \separated(y, l->head->prev)) &&
          (pos != \null ==> \separated(y, pos) && \separated(y, pos->prev)); */
    /*@ for keeps: assert k_apart: \forall tc_node *y; on_ring(&tc__k.preempted, y) ==>
          links_apart(y, t, pos); */
    /*@ ghost Before: ; */
    ready_insert_at(t, pos);
    /*@ for keeps: assert k_links: \forall tc_node *y; on_ring{Before}(&tc__k.preempted, y) ==>
          y->next == \at(y->next, Before) && y->prev == \at(y->prev, Before); */
  }
}

/* y's links are not the pointer field at a: none of a node's links when y is apart from that
 * node, nor a list's head when y is apart from the list. The lemmas take the step from nodes
 * to fields, which, left to the provers in a goal with many hypotheses, ran out of steps. */
/*@ axiomatic LinksOff {
  predicate links_off(tc_node *y, tc_node **a) = \separated(&y->next, a) && \separated(&y->prev, a);
  lemma links_off_node: \forall tc_node *y, *x;
      \separated(y, x) ==> links_off(y, &x->next) && links_off(y, &x->prev);
  lemma links_off_list: \forall tc_node *y, tc_list *l; \separated(y, l) ==> links_off(y, &l->head);
  }
*/
/* The same for the fields of a thread its membership of a ready list reads (thread_ok): none
 * is a link of a node apart from the thread, nor of its own preempted node; and the nodes of
 * a thread lie apart from every thread apart from it. */
/*@ axiomatic FieldsOff {
  predicate fields_off(tc_node *y, tc_thread *t) =
      \separated(&y->next, &t->ready_list) && \separated(&y->prev, &t->ready_list) &&
      \separated(&y->next, &t->ready_word) && \separated(&y->prev, &t->ready_word);
  lemma fields_off_thread: \forall tc_node *y, tc_thread *t; \separated(y, t) ==> fields_off(y, t);
  lemma fields_off_own: \forall tc_thread *t; fields_off(&t->preempt_node, t);
  lemma nodes_apart: \forall tc_thread *t, *u; \separated(t, u) ==>
      \separated(&t->sched_node, u) && \separated(&t->preempt_node, u);
  }
*/

/* Behaviour `ring`: from lists a walk finds whole, apart from each other, it leaves them
 * whole, with the nodes they had but t's, and t's nodes off them (what an insertion of t
 * afterwards needs: tc__displace). Each removal keeps the other list whole: it writes no
 * link of a node of that list, which keeps its head and links (ring_frame, lemma
 * ring_ok_kept). What the state before
 * the first removal gives is asserted at the start, in that state; the rest in the flagged
 * branch, after kept_preempt, whose cost (docs/proof.md) they leave as it was. */
/*@ TC__ACSL_READY_LEAVES(t)
    behavior ring:
      assumes ring_ok(t->ready_list) && on_ring(t->ready_list, &t->sched_node);
      assumes (t->flags & TC_TF_PREEMPTED) != 0 ==> ring_ok(&tc__k.preempted) &&
              on_ring(&tc__k.preempted, &t->preempt_node) &&
              rings_apart(t->ready_list, &tc__k.preempted);
      ensures ring: ring_ok(t->ready_list);
      ensures preempted_ring: (\old(t->flags) & TC_TF_PREEMPTED) != 0 ==>
              ring_ok(&tc__k.preempted);
      ensures off: off_ring(t->ready_list, &t->sched_node);
      ensures nodes: \forall tc_node *x; on_ring(t->ready_list, x) ==>
              \old(on_ring(t->ready_list, x)) && x != &t->sched_node;
      ensures preempted_off: (\old(t->flags) & TC_TF_PREEMPTED) != 0 ==>
              off_ring(&tc__k.preempted, &t->preempt_node);
      ensures preempted_nodes: (\old(t->flags) & TC_TF_PREEMPTED) != 0 ==>
              \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
              \old(on_ring(&tc__k.preempted, x)) && x != &t->preempt_node;
      ensures kept: \forall tc_node *x; \old(on_ring(t->ready_list, x)) && x != &t->sched_node ==>
              on_ring(t->ready_list, x);
      ensures unlinked_prev: t->sched_node.prev == \null;
    behavior own:
      assumes (t->flags & TC_TF_PREEMPTED) == 0;
      assumes ring_ok(t->ready_list) && on_ring(t->ready_list, &t->sched_node);
      assumes \forall tc_node *x; on_ring(t->ready_list, x) && x != &t->sched_node ==>
              \separated(x, t);
      ensures thread_kept: thread_ok(t) && t->ready_list == \old(t->ready_list) &&
              t->priority == \old(t->priority) && t->threshold == \old(t->threshold);
      ensures preempt_node_kept: t->preempt_node.next == \old(t->preempt_node.next) &&
              t->preempt_node.prev == \old(t->preempt_node.prev);
    behavior keeps:
      assumes (t->flags & TC_TF_PREEMPTED) == 0;
      assumes ring_ok(t->ready_list) && on_ring(t->ready_list, &t->sched_node) &&
              ring_ok(&tc__k.preempted) && rings_apart(t->ready_list, &tc__k.preempted);
      ensures preempted_kept: ring_frame{Pre, Post}(&tc__k.preempted);
*/
void tc__ready_remove(tc_thread *t)
{
  tc_list *l = t->ready_list;
  /*@ assert preempt_apart: leave_apart(t); */
  /* Behaviour `ring`, flagged: the preempted list's links lie apart from what the first
   * removal writes. */
  /*@ for ring: assert n_around: (t->flags & TC_TF_PREEMPTED) != 0 ==>
        on_ring(l, t->sched_node.prev) && on_ring(l, t->sched_node.next); */
  /*@ for ring: assert p_apart: (t->flags & TC_TF_PREEMPTED) != 0 ==> \forall tc_node *y;
        on_ring(&tc__k.preempted, y) ==> \separated(y, l) && \separated(y, &t->sched_node) &&
        \separated(y, t->sched_node.prev) && \separated(y, t->sched_node.next); */
  /*@ for ring: assert p_fields: (t->flags & TC_TF_PREEMPTED) != 0 ==> \forall tc_node *y;
        on_ring(&tc__k.preempted, y) ==>
        links_off(y, &l->head) && links_off(y, &t->sched_node.next) &&
        links_off(y, &t->sched_node.prev) && links_off(y, &t->sched_node.prev->next) &&
        links_off(y, &t->sched_node.next->prev); */
  /*@ for ring: assert p_reach: (t->flags & TC_TF_PREEMPTED) != 0 ==> \forall tc_node *y;
        reach(tc__k.preempted.head, y) ==> on_ring(&tc__k.preempted, y); */
  /*@ for ring: assert r_apart_pre: (t->flags & TC_TF_PREEMPTED) != 0 ==> \forall tc_node *y;
        on_ring(l, y) ==> \separated(y, &tc__k.preempted) && \separated(y, &t->preempt_node) &&
        \separated(y, t->preempt_node.next) && \separated(y, t->preempt_node.prev); */
  tc__list_remove(l, &t->sched_node);
  if (l->head == NULL) tc__ready_map_clear(t);
  //@ assert map_agrees;
  if ((t->flags & TC_TF_PREEMPTED) != 0u) {
    /*@ assert kept_preempt: preempt_kept{Pre, Here}(t); */
    t->flags &= (uint8_t)~TC_TF_PREEMPTED;
    /*@ assert preempt_member: member(&tc__k.preempted, &t->preempt_node); */
    /*@ assert heads_apart: heads_off_preempt(t); */
    /* The preempted list across the first removal, whose writes its nodes' links miss. */
    /*@ for ring: assert p_links: \forall tc_node *y;
          reach{Pre}(\at(tc__k.preempted.head, Pre), y) ==>
          y->next == \at(y->next, Pre) && y->prev == \at(y->prev, Pre); */
    //@ for ring: assert p_frame: ring_frame{Pre, Here}(&tc__k.preempted);
    /*@ for ring: assert p_whole: ring_ok(&tc__k.preempted) &&
          on_ring(&tc__k.preempted, &t->preempt_node); */
    /* The ready list, whole after the first removal, across the second. */
    /*@ for ring: assert r_old: \forall tc_node *y; on_ring(l, y) ==>
          on_ring{Pre}(l, y) && y != &t->sched_node; */
    /*@ for ring: assert r_apart: \forall tc_node *y; on_ring(l, y) ==>
          \separated(y, &tc__k.preempted) && \separated(y, &t->preempt_node) &&
          \separated(y, t->preempt_node.next) && \separated(y, t->preempt_node.prev); */
    /*@ for ring: assert r_fields: \forall tc_node *y; on_ring(l, y) ==>
          links_off(y, &tc__k.preempted.head) && links_off(y, &t->preempt_node.next) &&
          links_off(y, &t->preempt_node.prev) && links_off(y, &t->preempt_node.prev->next) &&
          links_off(y, &t->preempt_node.next->prev); */
    /*@ for ring: assert r_reach: l->head != \null ==> \forall tc_node *y;
          reach(l->head, y) ==> on_ring(l, y); */
    /*@ for ring: assert p_back: \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
          on_ring{Pre}(&tc__k.preempted, x); */
    /*@ ghost Popped: ; */
    tc__list_remove(&tc__k.preempted, &t->preempt_node);
    /*@ assert kept_heads: heads_kept{Popped, Here}; */
    /*@ assert map_after: map_agrees; */
    /*@ for ring: assert r_links: \at(l->head, Popped) != \null ==> \forall tc_node *y;
          reach{Popped}(\at(l->head, Popped), y) ==>
          y->next == \at(y->next, Popped) && y->prev == \at(y->prev, Popped); */
    //@ for ring: assert r_frame: ring_frame{Popped, Here}(l);
    /* Each list's nodes: those it had but t's, and each apart from t's (RingOff). */
    /*@ for ring: assert r_walk: l->head != \null ==> \forall tc_node *x;
          reach(l->head, x) ==> reach{Popped}(\at(l->head, Popped), x); */
    //@ for ring: assert r_whole: ring_ok(l);
    /*@ for ring: assert r_was: \forall tc_node *x; on_ring(l, x) ==>
          on_ring{Pre}(l, x) && x != &t->sched_node; */
    //@ for ring: assert r_pre_sep: ring_sep_but{Pre}(l, &t->sched_node);
    //@ for ring: assert r_sep: ring_sep(l, &t->sched_node);
    //@ for ring: assert r_off: off_ring(l, &t->sched_node);
    /* The preempted list likewise, after the second removal. */
    //@ for ring: assert p_pre_sep: ring_sep_but{Popped}(&tc__k.preempted, &t->preempt_node);
    //@ for ring: assert p_sep: ring_sep(&tc__k.preempted, &t->preempt_node);
    //@ for ring: assert p_off: off_ring(&tc__k.preempted, &t->preempt_node);
    /*@ for ring: assert p_left: \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
          on_ring{Pre}(&tc__k.preempted, x) && x != &t->preempt_node; */
    /*@ for ring: assert r_kept: \forall tc_node *x; on_ring{Pre}(l, x) && x != &t->sched_node ==>
          on_ring(l, x); */
  }
  /* Behaviour `ring`, not flagged: t's node is off its ready list after the removal, whose
   * walk finds only nodes it found before, apart from t's (lemmas ring_sep_on, then
   * off_ring_sep). The flagged branch shows the same for both lists at its end. */
  /*@ for ring: assert off_sep: (\at(t->flags, Pre) & TC_TF_PREEMPTED) == 0 ==>
        ring_sep(l, &t->sched_node); */
  /*@ for ring: assert off_unflagged: (\at(t->flags, Pre) & TC_TF_PREEMPTED) == 0 ==>
        off_ring(l, &t->sched_node); */
  //@ for ring: assert same_list: t->ready_list == l;
  /*@ for ring: assert left: \forall tc_node *x; on_ring(l, x) ==>
        on_ring{Pre}(l, x) && x != &t->sched_node; */
  /*@ for ring: assert kept: \forall tc_node *x; on_ring{Pre}(l, x) && x != &t->sched_node ==>
        on_ring(l, x); */
  /* Behaviour `keeps`: the preempted list, which a thread not flagged does not touch, keeps
   * its head and its nodes' links: each lies apart from what the removal writes. */
  /*@ for keeps: assert k_around: on_ring{Pre}(l, \at(t->sched_node.prev, Pre)) &&
        on_ring{Pre}(l, \at(t->sched_node.next, Pre)); */
  /* Behaviour `own`: t's neighbours are t's node or apart from t, so the removal's writes
   * through them leave t's other fields alone. */
  /*@ for own: assert o_around: on_ring{Pre}(l, \at(t->sched_node.prev, Pre)) &&
        on_ring{Pre}(l, \at(t->sched_node.next, Pre)); */
  /*@ for own: assert o_apart:
        (\at(t->sched_node.prev, Pre) == &t->sched_node ||
         \separated(\at(t->sched_node.prev, Pre), t)) &&
        (\at(t->sched_node.next, Pre) == &t->sched_node ||
         \separated(\at(t->sched_node.next, Pre), t)); */
  /*@ for own: assert o_node_links: t->preempt_node.next == \at(t->preempt_node.next, Pre) &&
        t->preempt_node.prev == \at(t->preempt_node.prev, Pre); */
  /*@ for own: assert o_fields: t->ready_list == \at(t->ready_list, Pre) &&
        t->priority == \at(t->priority, Pre) && t->threshold == \at(t->threshold, Pre) &&
        t->ready_word == \at(t->ready_word, Pre) && t->ready_bit == \at(t->ready_bit, Pre); */
  /*@ for keeps: assert k_off: off_ring{Pre}(&tc__k.preempted, &t->sched_node) &&
        off_ring{Pre}(&tc__k.preempted, \at(t->sched_node.prev, Pre)) &&
        off_ring{Pre}(&tc__k.preempted, \at(t->sched_node.next, Pre)); */
  /*@ for keeps: assert k_list: \forall tc_node *y; on_ring{Pre}(&tc__k.preempted, y) ==>
        \separated(y, l); */
  /*@ for keeps: assert k_apart: \forall tc_node *y; on_ring{Pre}(&tc__k.preempted, y) ==>
        \separated(y, l) && \separated(y, &t->sched_node) &&
        \separated(y, \at(t->sched_node.prev, Pre)) &&
        \separated(y, \at(t->sched_node.next, Pre)); */
  /*@ for keeps: assert k_fields: \forall tc_node *y; on_ring{Pre}(&tc__k.preempted, y) ==>
        links_off(y, &l->head) && links_off(y, &t->sched_node.next) &&
        links_off(y, &t->sched_node.prev) && links_off(y, &\at(t->sched_node.prev, Pre)->next) &&
        links_off(y, &\at(t->sched_node.next, Pre)->prev); */
  //@ for keeps: assert k_head: tc__k.preempted.head == \at(tc__k.preempted.head, Pre);
  /*@ for keeps: assert k_links: \at(tc__k.preempted.head, Pre) != \null ==> \forall tc_node *y;
        reach{Pre}(\at(tc__k.preempted.head, Pre), y) ==>
        y->next == \at(y->next, Pre) && y->prev == \at(y->prev, Pre); */
}

void tc__ready_rotate(tc_thread *t)
{
  tc_list *l = t->ready_list;
  if (l->head == &t->sched_node && !(t->flags & TC_TF_PREEMPTED)) {
    l->head = t->sched_node.next; /* the list is circular: its head goes to the back */
  } else {
    tc__ready_remove(t);
    tc__ready_insert(t, false);
  }
}

/* Its contract is not proved yet: as tc__displace's, its proof needs its thread's lists
 * whole, which tc__sched_reschedule could now give from rings_ok (as displace_for shows for
 * the thread it is called for) but tc__sched_chosen_left does not assume. The proofs of both
 * take it as given (docs/proof.md). */
/*@ requires flagged_ready:
      thread_ok(t) && ready_ok && is_ready(t) && (t->flags & TC_TF_PREEMPTED) != 0;
    assigns t->flags, t->ready_list->head, t->sched_node.next, t->sched_node.prev,
            t->sched_node.next->prev, t->sched_node.prev->next,
            { x->next | tc_node *x; ring_node(t->ready_list, x) },
            { x->prev | tc_node *x; ring_node(t->ready_list, x) },
            tc__k.ready_map[t->priority / 32], tc__k.ready_group,
            tc__k.preempted.head, t->preempt_node.next, t->preempt_node.prev,
            t->preempt_node.next->prev, t->preempt_node.prev->next,
            { x->next | tc_node *x; ring_node(&tc__k.preempted, x) },
            { x->prev | tc_node *x; ring_node(&tc__k.preempted, x) };
    ensures ready_ok;
    ensures unflagged: (t->flags & TC_TF_PREEMPTED) == 0;
    ensures joined: t->ready_list->head != \null && in_list(t->ready_list, &t->sched_node);
    ensures same: t->priority == \old(t->priority) && t->threshold == \old(t->threshold);
*/
void tc__ready_unflag(tc_thread *t)
{
  tc_node *n = &t->sched_node;
  t->flags &= (uint8_t)~TC_TF_PREEMPTED;
  tc__list_remove(&tc__k.preempted, &t->preempt_node);
  /* Flagged threads form a prefix of the list: unless `t` was its only member (at the head,
   * followed by no flagged thread), it moves behind the others. */
  tc_list *l = t->ready_list;
  if (l->head != n || flagged(n->next)) {
    tc__list_remove(l, n);
    tc__ready_insert(t, true);
  }
}

/* What tc__displace(t) writes: t's flags and node, the nodes of its ready list and of the
 * preempted list, and the list's head, map word and group. */
#define TC__ACSL_DISPLACE_WRITES(t)                                                              \
  (t)->flags, (t)->ready_list->head, (t)->sched_node.next, (t)->sched_node.prev,                 \
      (t)->sched_node.next->prev, (t)->sched_node.prev->next,                                    \
      { x->next | tc_node *x; on_ring((t)->ready_list, x) },                                     \
      { x->prev | tc_node *x; on_ring((t)->ready_list, x) },                                     \
      tc__k.ready_map[(t)->priority / 32], tc__k.ready_group, TC__ACSL_PREEMPTED_WRITES(t)

/* `t`, the chosen thread, loses the CPU while still ready. With its threshold in force it is
 * flagged so that it competes again with its threshold; either way it moves to the front of
 * its list (behind other flagged threads) so that it resumes before equal-priority threads. */
/* Its proof: tc__ready_remove's behaviours give back the lists whole, t's nodes off them and
 * t's other fields kept; what tc__ready_insert needs is then asserted one fact at a time, each
 * in the form the next reads (the r_ assertions), and before the call the nodes it writes
 * through as this function's assigns name them, in the form of WP's goal for the call's
 * assigns (w_ready, w_preempted: docs/proof.md, "Where the proof is tight"). */
/*@ requires thread_ok(t) && ready_ok && is_ready(t) && (t->flags & TC_TF_PREEMPTED) == 0;
    requires t->threshold < t->priority ==> may_preempt(t);
    requires rings: displace_rings(t);
    assigns TC__ACSL_DISPLACE_WRITES(t);
    ensures ready_ok;
    ensures flagged: (t->flags & TC_TF_PREEMPTED) != 0 <==> t->threshold < t->priority;
    ensures joined: t->ready_list->head != \null && in_list(t->ready_list, &t->sched_node);
    ensures ring: ring_ok(t->ready_list);
    ensures preempted_ring: ring_ok(&tc__k.preempted);
    ensures nodes: \forall tc_node *x;
            on_ring(t->ready_list, x) <==> \old(on_ring(t->ready_list, x));
    TC__ACSL_PREEMPTED_NODES(t)
*/
void tc__displace(tc_thread *t)
{
  //@ ghost tc_list *l = t->ready_list;
  if (t->ready_list->head != &t->sched_node) {
    /* t's neighbours are nodes of other threads, or t's own node: the removal's writes
     * through them miss t's fields but its node's links. */
    /*@ assert around: on_ring(l, t->sched_node.next) && on_ring(l, t->sched_node.prev); */
    /*@ assert rings_pre: \forall tc_node *x, *y;
          on_ring(l, x) && on_ring(&tc__k.preempted, y) ==> \separated(y, x); */
    /*@ assert around_apart:
          (t->sched_node.next == &t->sched_node || \separated(t->sched_node.next, t)) &&
          (t->sched_node.prev == &t->sched_node || \separated(t->sched_node.prev, t)); */
    tc__ready_remove(t);
    /* What tc__ready_insert needs, one fact at a time: t's nodes off the lists, which are
     * whole (the preempted one untouched: tc__ready_remove's behaviour `keeps`), with the
     * nodes they had but t's. */
    //@ assert r_list: t->ready_list == l;
    //@ assert r_thread: thread_ok(t);
    //@ assert r_ring: ring_ok(l) && off_ring(l, &t->sched_node);
    //@ assert r_back: ring_back(l);
    /*@ assert r_nodes: \forall tc_node *x; on_ring(l, x) ==>
          on_ring{Pre}(l, x) && x != &t->sched_node; */
    //@ assert r_threads: ring_threads(l);
    //@ assert r_apart: ring_apart(l, t);
    //@ assert r_outside: outside(&t->sched_node);
    /*@ assert r_preempted: ring_frame{Pre, Here}(&tc__k.preempted); */
    //@ assert r_p_ring: ring_ok(&tc__k.preempted);
    /*@ assert r_p_walk: \forall tc_node *x;
          on_ring(&tc__k.preempted, x) <==> on_ring{Pre}(&tc__k.preempted, x); */
    //@ assert r_p_threads: t->threshold < t->priority ==> ring_preempted(&tc__k.preempted);
    //@ assert r_p_outside: t->threshold < t->priority ==> outside(&t->preempt_node);
    /*@ assert r_p_pre_sep: t->threshold < t->priority ==> \forall tc_node *x;
          on_ring{Pre}(&tc__k.preempted, x) ==> \separated(x, &t->preempt_node); */
    /*@ assert r_p_sep_body: t->threshold < t->priority ==> \forall tc_node *x;
          on_ring(&tc__k.preempted, x) ==> \separated(x, &t->preempt_node); */
    /*@ assert r_p_sep: t->threshold < t->priority ==>
          ring_sep(&tc__k.preempted, &t->preempt_node); */
    /*@ assert r_p_rings_pre: \forall tc_node *x, *y;
          on_ring(l, x) && on_ring{Pre}(&tc__k.preempted, y) ==> \separated(y, x); */
    /*@ assert r_p_rings_body: \forall tc_node *x, *y;
          on_ring(l, x) && on_ring(&tc__k.preempted, y) ==> \separated(y, x); */
    /*@ assert r_p_rings_sep: \forall tc_node *x;
          on_ring(l, x) ==> ring_sep(&tc__k.preempted, x); */
    /*@ assert r_p_off: t->threshold < t->priority ==>
          off_ring(&tc__k.preempted, &t->preempt_node); */
    //@ assert r_p_apart: t->threshold < t->priority ==> ring_apart(&tc__k.preempted, t);
    //@ assert r_p_rings: rings_apart(l, &tc__k.preempted);
    if (t->threshold < t->priority) t->flags |= TC_TF_PREEMPTED;
    /*@ ghost Flagged: ; */
    /* The nodes the insertion writes through, as this function's assigns name them: nodes of
     * the lists in the state before the removal (the witnesses of its assigns goals). */
    //@ assert f_prev: \forall tc_node *x; on_ring(l, x) ==> on_ring(l, x->prev);
    /*@ assert f_pre: \forall tc_node *x; on_ring(l, x) ==>
          on_ring{Pre}(l, x) && on_ring{Pre}(l, x->prev); */
    /*@ assert f_pre_nodes: \forall tc_node *x; on_ring{Pre}(l, x) ==> ring_node{Pre}(l, x); */
    /*@ assert f_ready: \forall tc_node *x; on_ring(l, x) ==>
          ring_node{Pre}(l, x) && ring_node{Pre}(l, x->prev); */
    /*@ assert f_p_links: \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
          on_ring{Pre}(&tc__k.preempted, x) && x->prev == \at(x->prev, Pre); */
    /*@ assert f_preempted: \forall tc_node *x;
          on_ring(&tc__k.preempted, x) ==> ring_node{Pre}(&tc__k.preempted, x) &&
          ring_node{Pre}(&tc__k.preempted, x->prev); */
    /*@ assert w_ready: \forall tc_node *x; on_ring(l, x) ==>
          (\exists tc_node *y; on_ring{Pre}(l, y) && &x->prev == &y->prev) &&
          (\exists tc_node *y; on_ring{Pre}(l, y) && &x->prev->next == &y->next); */
    /*@ assert w_preempted: t->threshold < t->priority ==> \forall tc_node *x;
          on_ring(&tc__k.preempted, x) ==>
          (\exists tc_node *y; on_ring{Pre}(&tc__k.preempted, y) && &x->prev == &y->prev) &&
          (\exists tc_node *y; on_ring{Pre}(&tc__k.preempted, y) &&
             &x->prev->next == &\at(y->prev, Pre)->next); */
    //@ assert i_flag: (t->flags & TC_TF_PREEMPTED) != 0 <==> t->threshold < t->priority;
    /* Not flagged, t leaves the preempted list alone (tc__ready_insert's behaviour `keeps`). */
    /*@ assert i_p_keeps: t->threshold >= t->priority ==>
          ring_sep(&tc__k.preempted, &t->sched_node) &&
          \forall tc_node *y; on_ring(&tc__k.preempted, y) ==> kernel_apart(y); */
    tc__ready_insert(t, true);
    //@ assert i_list: t->ready_list == l;
    //@ assert i_ready: ready_ok;
    /*@ assert i_new: \forall tc_node *x; on_ring(l, x) ==>
          on_ring{Flagged}(l, x) || x == &t->sched_node; */
    /*@ assert i_kept: \forall tc_node *x; on_ring{Flagged}(l, x) ==> on_ring(l, x); */
    /*@ assert i_nodes: \forall tc_node *x; on_ring(l, x) <==> on_ring{Pre}(l, x); */
    /* The preempted list: left alone by the insertion of a thread not flagged (its
     * assigns), else with t's node joined. */
    /*@ assert i_p_frame: t->threshold >= t->priority ==>
          ring_frame{Flagged, Here}(&tc__k.preempted); */
    /*@ assert i_p_walk: t->threshold >= t->priority ==> \forall tc_node *x;
          on_ring(&tc__k.preempted, x) <==> on_ring{Pre}(&tc__k.preempted, x); */
  } else if (t->threshold < t->priority) {
    /* Already in front, where it belongs (the chosen thread is never flagged). */
    t->flags |= TC_TF_PREEMPTED;
    /* The ready list lies off the preempted one and apart from t's preempted node and the
     * kernel's state: preempted_add keeps its links (its by_cases), so it stays whole with
     * the same nodes (ring_frame, lemma ring_ok_kept). */
    /*@ assert a_off: \forall tc_node *y; on_ring(l, y) ==> off_ring(&tc__k.preempted, y) &&
          \separated(y, &t->preempt_node) && \separated(y, &tc__k); */
    /*@ assert a_preempted: \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
          (\exists tc_node *y; on_ring{Pre}(&tc__k.preempted, y) && &x->prev == &y->prev) &&
          (\exists tc_node *y; on_ring{Pre}(&tc__k.preempted, y) &&
             &x->prev->next == &\at(y->prev, Pre)->next); */
    preempted_add(t);
    /*@ assert a_links: \forall tc_node *y; reach{Pre}(\at(t->ready_list->head, Pre), y) ==>
          y->next == \at(y->next, Pre) && y->prev == \at(y->prev, Pre); */
    //@ assert a_frame: ring_frame{Pre, Here}(l);
    /*@ assert a_nodes: \forall tc_node *x; on_ring(l, x) <==> on_ring{Pre}(l, x); */
    //@ assert a_ready: ready_ok;
  }
}

/* The pointer fields tc__displace(t) may write, in the form of its assigns clause: a field
 * none of them is keeps its value across the call. Stated field by field, the frame after the
 * call proves within the provers' budget; left to their search over the clause's sets, it did
 * not. */
/*@
  predicate not_displaced{L}(tc_thread *t, tc_node **a) =
      (\forall tc_node *x; on_ring(t->ready_list, x) ==> a != &x->next && a != &x->prev) &&
      (\forall tc_node *x; on_ring(&tc__k.preempted, x) ==> a != &x->prev && a != &x->prev->next) &&
      a != &t->sched_node.next && a != &t->sched_node.prev &&
      a != &t->sched_node.next->prev && a != &t->sched_node.prev->next &&
      a != &t->preempt_node.next && a != &t->preempt_node.prev &&
      a != &tc__k.preempted.head && a != &t->ready_list->head;
  predicate fields_not_displaced{L}(tc_thread *t, tc_thread *u) =
      (\forall tc_node *x; on_ring(t->ready_list, x) ==> fields_off(x, u)) &&
      (\forall tc_node *x; on_ring(&tc__k.preempted, x) ==> fields_off(x, u) && fields_off(x->prev, u)) &&
      fields_off(&t->sched_node, u) && fields_off(&t->preempt_node, u) &&
      fields_off(t->sched_node.next, u) && fields_off(t->sched_node.prev, u) &&
      \separated(&u->ready_list, &t->ready_list->head) &&
      \separated(&u->ready_list, &tc__k.preempted.head) &&
      \separated(&u->ready_word, &t->ready_list->head) &&
      \separated(&u->ready_word, &tc__k.preempted.head) &&
      \separated(&u->ready_bit, &tc__k.ready_map[t->priority / 32], &tc__k.ready_group)
#if TC_PRIORITIES > 32
      && \separated(&u->ready_group_bit, &tc__k.ready_map[t->priority / 32], &tc__k.ready_group)
#endif
      ;
*/
/* What `old`'s displacement must leave of `n`, flagged, ready in another list: the links that
 * n's membership of its list reads (its list's head, n's links and its neighbours' back
 * links) and n's fields are none of what tc__displace(old) writes; n's preempted node is on
 * the preempted list, and n's node and neighbours lie apart from each node of that list and
 * from old's preempted node, which may join it. */
/*@
  predicate not_at{L}(tc_node **w, tc_thread *n) =
      w != &n->ready_list->head && w != &n->sched_node.next && w != &n->sched_node.prev &&
      w != &n->sched_node.next->prev && w != &n->sched_node.prev->next;
  predicate spared{L}(tc_thread *old, tc_thread *n) =
      \let a = n->sched_node.next; \let b = n->sched_node.prev;
      n->ready_list->head == &n->sched_node &&
      not_displaced(old, &n->ready_list->head) &&
      not_displaced(old, &n->sched_node.next) && not_displaced(old, &n->sched_node.prev) &&
      not_displaced(old, &a->prev) && not_displaced(old, &b->next) &&
      fields_not_displaced(old, n) &&
      on_ring(&tc__k.preempted, &n->preempt_node) &&
      ring_sep(&tc__k.preempted, &n->sched_node) && ring_sep(&tc__k.preempted, a) &&
      ring_sep(&tc__k.preempted, b) && \separated(&old->preempt_node, &n->sched_node) &&
      \separated(&old->preempt_node, a) && \separated(&old->preempt_node, b);
*/
/* `old`, the chosen thread, loses the CPU to `n` while still ready (tc__displace). A function
 * of its own so that the proof that `n`, when flagged, is ready after it (tc__ready_unflag's
 * precondition) has a context of its own, smaller than tc__sched_reschedule's: within the
 * latter the frames after the call ran out of steps. GCC compiles it inline. */
/*@ requires thread_ok(old) && ready_ok && is_ready(old) && (old->flags & TC_TF_PREEMPTED) == 0;
    requires old->threshold < old->priority ==> may_preempt(old);
    requires displace_rings(old);
    requires thread_ok(n) && is_ready(n) && n != old;
    requires (n->flags & TC_TF_PREEMPTED) != 0 ==> spared(old, n);
    assigns TC__ACSL_DISPLACE_WRITES(old);
    ensures ready_ok;
    ensures n_flags: n->flags == \old(n->flags);
    ensures n_ready: (n->flags & TC_TF_PREEMPTED) != 0 ==> thread_ok(n) && is_ready(n);
*/
static inline void displace_for(tc_thread *old, tc_thread *n)
{
  (void)n;
  //@ ghost int f = (n->flags & TC_TF_PREEMPTED) != 0;
  //@ ghost tc_list *ln = n->ready_list;
  //@ ghost tc_node *a = n->sched_node.next;
  //@ ghost tc_node *b = n->sched_node.prev;
  //@ assert p_flags: \separated(&n->flags, &old->flags);
  //@ assert p_member: f ==> member(ln, &n->sched_node);
  /* spared's facts on n's fields, one set of tc__displace's writes at a time. */
  /*@ assert p_lo: f ==> \forall tc_node *x; on_ring(old->ready_list, x) ==> fields_off(x, n); */
  /*@ assert p_p: f ==> \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
        fields_off(x, n) && fields_off(x->prev, n); */
  /*@ assert p_one: f ==> fields_off(&old->sched_node, n) && fields_off(&old->preempt_node, n) &&
        fields_off(old->sched_node.next, n) && fields_off(old->sched_node.prev, n); */
  /*@ assert p_word: f ==> \separated(&n->ready_word, &old->ready_list->head) &&
        \separated(&n->ready_word, &tc__k.preempted.head); */
  /* And spared's facts on the links n's membership reads, likewise. */
  /*@ assert p_lo_links: f ==> \forall tc_node *x; on_ring(old->ready_list, x) ==>
        not_at(&x->next, n) && not_at(&x->prev, n); */
  /*@ assert p_p_links: f ==> \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
        not_at(&x->prev, n) && not_at(&x->prev->next, n); */
  /*@ assert p_one_links: f ==> not_at(&old->sched_node.next, n) &&
        not_at(&old->sched_node.prev, n) && not_at(&old->sched_node.next->prev, n) &&
        not_at(&old->sched_node.prev->next, n) && not_at(&old->preempt_node.next, n) &&
        not_at(&old->preempt_node.prev, n) && not_at(&tc__k.preempted.head, n) &&
        not_at(&old->ready_list->head, n); */
  tc__displace(old);
  //@ assert o_flags: n->flags == \at(n->flags, Pre);
  /* n's fields that thread_ok reads, then what n's membership of its list reads: the list's
   * head, n's links and its neighbours' back links, all as they were. */
  //@ assert o_list: f ==> n->ready_list == ln;
  //@ assert o_word: f ==> n->ready_word == \at(n->ready_word, Pre);
  //@ assert o_bit: f ==> n->ready_bit == \at(n->ready_bit, Pre);
#if TC_PRIORITIES > 32
  //@ assert o_group_bit: f ==> n->ready_group_bit == \at(n->ready_group_bit, Pre);
#endif
  //@ assert o_thread: f ==> thread_ok(n);
  //@ assert o_head: f ==> ln->head == \at(n->ready_list->head, Pre);
  //@ assert o_next: f ==> n->sched_node.next == a;
  //@ assert o_prev: f ==> n->sched_node.prev == b;
  /*@ assert o_next_back: f ==> \let a0 = \at(n->sched_node.next, Pre);
        a0->prev == \at(a0->prev, Pre); */
  /*@ assert o_prev_back: f ==> \let b0 = \at(n->sched_node.prev, Pre);
        b0->next == \at(b0->next, Pre); */
  //@ assert o_linked: f ==> linked(&n->sched_node) && in_list(ln, &n->sched_node);
  //@ assert o_member: f ==> member(ln, &n->sched_node);
  /* The preempted list, whole, with n's preempted node still on it (tc__displace's
   * preempted_kept); its nodes now are those it had, or old's preempted node, each apart from
   * n's node and its neighbours. */
  //@ assert o_p_on: f ==> on_ring(&tc__k.preempted, &n->preempt_node);
  //@ assert o_p_member: f ==> ring_member(&tc__k.preempted, &n->preempt_node);
  //@ ghost tc_node *pn = &n->preempt_node;
  //@ ghost tc_node *ph = tc__k.preempted.head;
  //@ assert o_pn_next: f ==> on_ring(&tc__k.preempted, pn->next);
  //@ assert o_pn_prev: f ==> on_ring(&tc__k.preempted, pn->prev);
  //@ assert o_ph: f ==> on_ring(&tc__k.preempted, ph);
  //@ assert o_ph_step: f ==> ph != \null && reach(ph, ph) && reach(ph, ph->next);
  //@ assert o_ph_next: f ==> on_ring(&tc__k.preempted, ph->next);
  //@ assert o_ph_prev: f ==> on_ring(&tc__k.preempted, ph->prev);
  /*@ assert o_p_was: f ==> \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
        on_ring{Pre}(&tc__k.preempted, x) || x == &old->preempt_node; */
  /*@ assert o_p_apart: f ==> \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
        \separated(x, &n->sched_node) && \separated(x, a) && \separated(x, b); */
  /*@ assert o_p_apart2: f ==> \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
        \separated(&n->sched_node, x) && \separated(a, x) && \separated(b, x); */
  //@ assert o_own_n: f ==> apart(&n->sched_node, pn);
  //@ assert o_own_a: f ==> apart(a, pn);
  //@ assert o_own_b: f ==> apart(b, pn);
  //@ assert o_disjoint_own: f ==> disjoint(&n->sched_node, pn);
  //@ assert o_apart_n: f ==> apart(&n->sched_node, ph);
  //@ assert o_apart_a: f ==> apart(a, ph);
  //@ assert o_apart_b: f ==> apart(b, ph);
  //@ assert o_disjoint: f ==> disjoint(&n->sched_node, ph);
  //@ assert o_ready: f ==> is_ready(n);
}

/* The thread the scheduling rules give the CPU to, HISRs aside (tc__k.chosen is the one they
 * gave it to last). While the chosen thread is ready it holds the CPU against every thread
 * that is not above its threshold (rule 1), unless it gave its turn away (`keep_running`
 * false: a yield or the end of its time slice), when the head of the highest ready list runs:
 * the thread itself if nothing of its priority or above is ready. Only when it has left the
 * ready set (blocked, suspended, ended) do the preempted threads compete again, the innermost
 * one with its threshold. */
/*@ requires ready_ok && choice_ok;
    assigns \nothing;
    ensures rule: chooses(\result, keep_running);
    ensures ready: \result != \null ==> thread_ok(\result) && is_ready(\result);
    ensures above: keep_running && tc__k.chosen != \null && tc__k.chosen->state == TC_READY &&
            \result != \null && \result != tc__k.chosen ==>
            \result->priority < tc__k.chosen->threshold &&
            &\result->sched_node == \result->ready_list->head;
*/
static tc_thread *choose_thread(bool keep_running)
{
  if (!tc__sched_any_ready()) return NULL;
  unsigned h = map_first(tc__k.ready_group, tc__k.ready_map);
  //@ assert highest: highest_ready(h);
  //@ assert any_ready;
  //@ assert only: \forall integer g; highest_ready(g) ==> g == h;
  //@ assert head_ok(h);
  tc_thread *r = tc__k.chosen;
  if (r != NULL && r->state == TC_READY) return keep_running && h >= r->threshold ? r : ready_head(h);
  if (tc__k.preempted.head != NULL) {
    tc_thread *p = PREEMPTED_OF(tc__k.preempted.head);
    if (h >= p->threshold) return p;
  }
  return ready_head(h);
}

/*@ requires ready_ok && choice_ok;
    assigns \nothing;
    ensures hisr: tc__k.hisr_top != \null ==> \result == tc__k.hisr_top;
    ensures rule: tc__k.hisr_top == \null ==> chooses(\result, keep_running);
    ensures ready: tc__k.hisr_top == \null && \result != \null ==> thread_ok(\result) && is_ready(\result);
*/
tc_thread *tc__sched_choose(bool keep_running)
{
  /* An activated HISR runs before any thread; hisr.c keeps the one to run. */
  if (tc__k.hisr_top != NULL) return tc__k.hisr_top;
  return choose_thread(keep_running);
}

/*@ requires ready_ok && choice_ok;
    requires displaceable && rings_ok;
    ensures by_cases: ready_ok;
    ensures rule: \old(tc__k.started) ==> \let c = tc__k.chosen; \at(chooses(c, keep_running), Pre);
    ensures unflagged: tc__k.chosen != \null ==> (tc__k.chosen->flags & TC_TF_PREEMPTED) == 0;
    ensures next: \old(tc__k.started) ==> next_ok;
*/
void tc__sched_reschedule(bool keep_running)
{
  /* No decisions before the start: the threads made ready by then compete when it starts,
   * the highest priority first, with no threshold in force yet. */
  if (!tc__k.started) return;
  tc_thread *old = tc__k.chosen;
  tc_thread *n = choose_thread(keep_running);
  //@ assert chose: chooses(n, keep_running);
  if (n != old) {
    /* Preempted while still ready: its threshold was in force from the moment it was chosen,
     * whether or not the switch to it has happened yet (an interrupt handler or a locked
     * section may choose twice before any switch), as ThreadX's execute pointer. */
    if (keep_running && old != NULL && old->state == TC_READY) {
      /* n, when flagged, is the head of a list above old's threshold (choose_thread's
       * `above`): its list, and n itself, lie apart from what tc__displace writes (rings_ok),
       * and its preempted node stays on the preempted list (tc__displace's preempted_kept).
       * Each fact is stated in the state and form the next one reads. */
      //@ ghost tc_list *ln = n->ready_list;
      //@ ghost int f = (n->flags & TC_TF_PREEMPTED) != 0;
      //@ ghost tc_list *lo = old->ready_list;
      /*@ assert o_n: f ==>
            n->priority < old->priority && ln == &tc__k.ready[n->priority] &&
            lo == &tc__k.ready[old->priority] && &n->sched_node == ln->head; */
      /*@ assert o_rings: f ==>
            ring_ok(ln) && on_ring(ln, &n->sched_node) && rings_apart(ln, lo) &&
            rings_apart(ln, &tc__k.preempted) && on_ring(lo, &old->sched_node); */
      //@ assert o_old: f ==> thread_apart(old) && thread_apart(n);
      //@ assert o_threads: f ==> \separated(n, old);
      /*@ assert o_ln_ids: f ==> \forall tc_node *y; on_ring(ln, y) ==>
            &thread_of(y)->sched_node == y; */
      /*@ assert o_ln_off: f ==> \forall tc_node *y; on_ring(ln, y) ==>
            off_ring(lo, y) && y != &old->sched_node; */
      /*@ assert o_ln_nodes: f ==> \forall tc_node *y; on_ring(ln, y) ==>
            \separated(thread_of(y), old); */
      /*@ assert o_apart: f ==> \forall tc_node *y; on_ring(ln, y) ==>
            off_ring(lo, y) && off_ring(&tc__k.preempted, y) && \separated(y, old) &&
            \separated(y, &old->preempt_node); */
      /*@ assert o_lo_nodes: f ==> \forall tc_node *x; on_ring(lo, x) ==>
            &thread_of(x)->sched_node == x && x != &n->sched_node &&
            \separated(thread_of(x), n); */
      /*@ assert o_lo_sep: f ==> \forall tc_node *x; on_ring(lo, x) ==>
            \separated(x, n) && on_ring(lo, x->next) && on_ring(lo, x->prev); */
      /*@ assert o_p_nodes: f ==> \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
            &preempt_of(x)->preempt_node == x &&
            on_ring(&tc__k.ready[preempt_of(x)->priority], &preempt_of(x)->sched_node) &&
            (preempt_of(x) == n || \separated(preempt_of(x), n)); */
      /*@ assert o_p_sep: f ==> \forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
            (x == &n->preempt_node || \separated(x, n)) &&
            on_ring(&tc__k.preempted, x->prev); */
      //@ assert o_pn: f ==> on_ring(&tc__k.preempted, &n->preempt_node);
      /* What tc__displace writes, field by field: apart from ln's head, from the links of
       * ln's nodes and from the fields of n that thread_ok reads. */
      /*@ assert o_old_nodes: f ==> \separated(&old->sched_node, n) &&
            \separated(&old->preempt_node, n); */
      /*@ assert o_w_head: f ==> (\forall tc_node *x; on_ring(lo, x) ==>
              links_off(x, &ln->head)) &&
            (\forall tc_node *x; on_ring(&tc__k.preempted, x) ==> links_off(x, &ln->head)) &&
            links_off(&old->sched_node, &ln->head) && links_off(&old->preempt_node, &ln->head) &&
            \separated(&ln->head, &lo->head, &tc__k.preempted.head); */
      /*@ assert o_w_links: f ==> \forall tc_node *y; on_ring(ln, y) ==>
            (\forall tc_node *x; on_ring(lo, x) ==>
               links_off(y, &x->next) && links_off(y, &x->prev)) &&
            (\forall tc_node *x; on_ring(&tc__k.preempted, x) ==>
               links_off(y, &x->next) && links_off(y, &x->prev)) &&
            links_off(y, &old->sched_node.next) && links_off(y, &old->sched_node.prev) &&
            links_off(y, &old->preempt_node.next) && links_off(y, &old->preempt_node.prev) &&
            links_off(y, &lo->head) && links_off(y, &tc__k.preempted.head); */
      /*@ assert o_w_fields: f ==>
            (\forall tc_node *x; on_ring(lo, x) ==> fields_off(x, n)) &&
            (\forall tc_node *x; on_ring(&tc__k.preempted, x) ==> fields_off(x, n)) &&
            fields_off(&old->sched_node, n) && fields_off(&old->preempt_node, n) &&
            \separated(&n->ready_list, &lo->head) &&
            \separated(&n->ready_list, &tc__k.preempted.head) &&
            \separated(&n->ready_word, &lo->head) &&
            \separated(&n->ready_word, &tc__k.preempted.head) &&
            \separated(&n->ready_bit, &tc__k.ready_map[old->priority / 32],
                       &tc__k.ready_group); */
      /*@ assert o_around: f ==>
            on_ring(ln, n->sched_node.next) && on_ring(ln, n->sched_node.prev); */
      /*@ assert o_w_x: f ==> not_displaced(old, &n->sched_node.next) &&
            not_displaced(old, &n->sched_node.prev); */
      /*@ assert o_w_y: f ==> not_displaced(old, &n->sched_node.next->prev) &&
            not_displaced(old, &n->sched_node.prev->next); */
      //@ assert o_w_h: f ==> not_displaced(old, &ln->head);
      //@ assert o_w_n: f ==> fields_not_displaced(old, n);
      /*@ assert o_p_apart: f ==> \forall tc_node *z, *x;
            on_ring(ln, z) && on_ring(&tc__k.preempted, x) ==> \separated(z, x); */
      /*@ assert o_p_ring_sep: f ==> ring_sep(&tc__k.preempted, &n->sched_node) &&
            ring_sep(&tc__k.preempted, n->sched_node.next) &&
            ring_sep(&tc__k.preempted, n->sched_node.prev); */
      //@ assert o_spared: f ==> spared(old, n);
      displace_for(old, n);
      //@ assert o_ready: f ==> thread_ok(n) && is_ready(n);
    }
    //@ assert displaced: ready_ok;
    /* A preempted thread is chosen only as the innermost one (or as the head of the highest
     * list, which it then is): its threshold is in force again. */
    if (n != NULL && (n->flags & TC_TF_PREEMPTED)) tc__ready_unflag(n);
    //@ assert unflagged: ready_ok && (n == \null || (n->flags & TC_TF_PREEMPTED) == 0);
  }
  /*@ assert rule_kept: \let c = n; \at(chooses(c, keep_running), Pre); */
  /* Written after the moves above, which do not read it. An HISR runs above the threads
   * without changing which of them holds the CPU. */
  tc__sched_set_chosen(n);
}

/* The external definitions of the inline core (internal.h). */
extern inline unsigned tc__map_first(uint32_t group, const uint32_t *map);
extern inline tc_thread *tc__node_thread(tc_node *n);
extern inline tc_thread *tc__node_preempted(tc_node *n);
extern inline void tc__set_priority(tc_thread *t, unsigned priority);
extern inline void tc__ready_map_set(const tc_thread *t);
extern inline void tc__ready_map_clear(const tc_thread *t);
extern inline unsigned tc__sched_highest_ready(void);
extern inline void tc__ready_append(tc_thread *t);
extern inline void tc__sched_set_chosen(tc_thread *t);
extern inline void tc__sched_made_ready(tc_thread *t);
extern inline void tc__ready_unlink(tc_thread *t);
extern inline void tc__sched_chosen_left(void);
extern inline void tc__sched_dispatch(void);

/* A new threshold for `t` at an unchanged priority. A ready thread keeps its place (as a
 * waiting one keeps its place in its queue); only a preempted thread's bookkeeping depends on
 * the threshold: its rank in the preempted list, or, at a threshold equal to its priority,
 * whether it is a preempted thread at all. */
static void set_threshold(tc_thread *t, unsigned threshold)
{
  if (!(t->flags & TC_TF_PREEMPTED)) {
    t->threshold = (uint16_t)threshold;
  } else if (threshold < t->priority) {
    tc__list_remove(&tc__k.preempted, &t->preempt_node);
    t->threshold = (uint16_t)threshold;
    preempted_add(t);
  } else {
    tc__ready_unflag(t);
    t->threshold = (uint16_t)threshold;
  }
}

void tc__sched_set_effective(tc_thread *t, unsigned priority, unsigned threshold)
{
  if (priority == t->priority) {
    set_threshold(t, threshold);
  } else if (t->state == TC_READY) {
    bool was_flagged = (t->flags & TC_TF_PREEMPTED) != 0;
    tc__ready_remove(t);
    tc__set_priority(t, priority);
    t->threshold = (uint16_t)threshold;
    if (was_flagged && t->threshold < t->priority) t->flags |= TC_TF_PREEMPTED;
    /* The chosen thread and a preempted one keep their claim to resume first; others queue
     * at the back of their new priority. */
    tc__ready_insert(t, was_flagged || t == tc__k.chosen);
  } else {
    tc__set_priority(t, priority);
    t->threshold = (uint16_t)threshold;
    if (t->wait_q != NULL) {
      /* Keep the wait queue in order, and let its object react (inheritance). */
      tc_waitq *q = t->wait_q;
      tc__list_remove(&q->threads, &t->sched_node);
      tc__waitq_insert(q, t);
      if (q->reprioritized != NULL) q->reprioritized(q, t);
    }
  }
  tc__sched_reschedule(true);
}

/* ---- waiting ---------------------------------------------------------------------------- */

/* `a` is served before `b`: higher priority, or equal priority and it began to wait first.
 * Wait sequence numbers wrap; they compare right while fewer than 2^31 waits separate two
 * waiters of one queue. */
static inline bool served_before(const tc_thread *a, const tc_thread *b)
{
  return a->priority < b->priority ||
         (a->priority == b->priority && (int32_t)(a->wait_seq - b->wait_seq) < 0);
}

void tc__waitq_insert(tc_waitq *q, tc_thread *t)
{
  tc_list *l = &q->threads;
  tc_node *pos = l->head;
  while (pos != NULL && served_before(TC_THREAD_OF(pos), t)) pos = list_next(l, pos);
  tc__list_insert(l, pos, &t->sched_node);
}

const char *tc__waitq_check(const tc_waitq *q, size_t *n)
{
  *n = 0;
  const tc_node *x = q->threads.head;
  if (x == NULL) return NULL;
  const tc_thread *last = NULL;
  do {
    const tc_thread *t = TC_CONST_THREAD_OF(x);
    if (x->next == NULL || x->next->prev != x) return "wait queue links disagree";
    if (t->magic != TC_MAGIC_THREAD || t->state != TC_PENDING || t->wait_q != q)
      return "wait queue holds a thread that does not wait on it";
    if (last != NULL && t->priority < last->priority) return "wait queue out of priority order";
    if (last != NULL && !served_before(last, t)) return "equal-priority waiters out of the order they began to wait";
    last = t;
    ++*n; /* no bound needed: see check_links() in check.c */
    x = x->next;
  } while (x != q->threads.head);
  return NULL;
}

static void thread_timeout_expired(tc_timeout *to)
{
  tc_thread *t = TC_CONTAINER_OF(to, tc_thread, timeout);
  tc__thread_wake(t, t->state == TC_SLEEPING ? TC_OK : TC_TIMEOUT);
}

tc_status tc__thread_wait(tc_waitq *q, unsigned state, uint32_t timeout, unsigned s)
{
  tc_thread *t = tc__k.current;
  bool sleeping = (uint8_t)state == TC_SLEEPING;
  for (;;) {
    uint32_t start = tc__k.tick;
    tc__ready_unlink(t); /* the caller, a thread with the scheduler unlocked: the chosen one */
    t->state = (uint8_t)state;
    t->wait_q = q;
    t->wait_status = TC_OK;
    t->wait_seq = tc__k.wait_seq++;
    if (sleeping || (state & TC__WAIT_RESTARTABLE)) t->flags |= TC_TF_SIGNAL_WAKE;
    if (q != NULL) tc__waitq_insert(q, t);
    TC_TRACE_EVENT(TC_TRACE_EV_BLOCK, q != NULL ? q->trace_object : NULL, timeout, (uint8_t)state);
    if (timeout != TC_WAIT_FOREVER) {
      t->timeout.expire = thread_timeout_expired;
      tc__timeout_add(&t->timeout, timeout);
    }
    tc__sched_chosen_left();
    tc__sched_dispatch();
    tc__unlock(s); /* a port that switches in an exception (PendSV) switches here */
    tc_status st = t->wait_status;
    /* Signals (signal.c, see above): pending handlers run before the service returns; a
     * wait that a signal interrupted goes on (a sleep) or starts over (an object's service). */
    if (st == TC__WAIT_SIGNALED || t->signals != 0) st = tc__signal_wait_end(sleeping, start, &timeout);
    if (st != TC__WAIT_RESTART) return st;
    if ((state & TC__WAIT_RESTARTABLE) != 0u) {
      t->timeout.delta = timeout; /* tc__wait_left() */
      return st;
    }
    s = tc__lock();
  }
}

void tc__object_delete(tc_waitq *q, uint32_t *magic, tc_list *created, tc_node *node)
{
  while (q->threads.head != NULL) tc__thread_wake(TC_THREAD_OF(q->threads.head), TC_DELETED);
  *magic = 0;
  tc__list_remove(created, node);
  tc__sched_dispatch();
}

void tc__thread_wake(tc_thread *t, tc_status status)
{
#if TC_TRACE
  const void *object = t->wait_q != NULL ? t->wait_q->trace_object : NULL;
#endif
  if (t->wait_q != NULL) {
    /* Still queued: the wait ends by timeout or abort, and the object is told. */
    tc_waitq *q = t->wait_q;
    tc__list_remove(&q->threads, &t->sched_node);
    t->wait_q = NULL;
    if (q->reprioritized != NULL) q->reprioritized(q, t);
  }
  if (t->timeout.linked) tc__timeout_remove(&t->timeout);
  t->wait_status = status;
  t->flags &= (uint8_t)~TC_TF_SIGNAL_WAKE;
  if ((t->flags & TC_TF_SUSPEND_AFTER) != 0u) {
    t->flags &= (uint8_t)~TC_TF_SUSPEND_AFTER;
    t->state = TC_SUSPENDED;
    return;
  }
  t->state = TC_READY;
  t->slice_left = t->time_slice;
  tc__ready_append(t);
  TC_TRACE_READY(t, object, status);
  tc__sched_made_ready(t);
}

/* ---- round robin ------------------------------------------------------------------------ */

/* One tick of the running thread's time slice. A thread whose threshold is in force is not
 * time-sliced (no equal-priority thread can preempt it), as in ThreadX. */
void tc__sched_tick(void)
{
  tc_thread *r = tc__k.current;
  /* (next is always a ready context: tc_check.) */
  if (r == NULL || r != tc__k.next || r->time_slice == 0) return;
  if (--r->slice_left != 0) return;
  r->slice_left = r->time_slice;
  if (r->threshold < r->priority) return;
  tc_node *h = r->ready_list->head;
  if (h->next == h) return; /* alone at its priority */
  tc__ready_rotate(r);
#if TC_STATS
  tc__k.stats.time_slices++;
#endif
  TC_TRACE_EVENT(TC_TRACE_EV_YIELD, 2, 0, 0);
  tc__sched_reschedule(false);
}

/* ---- kernel start-up and scheduler lock ------------------------------------------------ */

void tc_kernel_init(void)
{
  (void)TC_PORT_IRQ_DISABLE();
  (void)memset(&tc__k, 0, sizeof tc__k);
  tc__time_init();
  TC_PORT_INIT();
#if TC_POWER
  tc__power_reset();
#endif
}

int tc_kernel_start(void)
{
  (void)tc__lock();
  tc__k.started = true;
#if TC_STATS
  TC__STAMP = TC_PORT_CYCLES32_DOWN();
  tc__k.last_ran = NULL;
#endif
#if TC_POWER
  tc__power_start();
#endif
  tc__sched_reschedule(false);
  int code = TC_PORT_START();
  /* Only the sim port returns: close the books on the context that was running, which runs
   * no more. */
  tc__account_end_of_run();
#if TC_POWER
  tc__power_stop();
#endif
  tc__k.started = false;
  tc__k.current = NULL;
  TC_PORT_RUN_END(); /* the books closed: what the port records of the run sees them so */
  return code;
}

void tc_sched_lock(void)
{
  if (!tc__in_thread()) return;
  unsigned s = tc__lock();
  tc__k.lock_nesting++;
  TC_TRACE_EVENT(TC_TRACE_EV_LOCK, tc__k.lock_nesting, 0, 0);
  tc__unlock(s);
}

void tc_sched_unlock(void)
{
  if (!tc__in_thread()) return;
  unsigned s = tc__lock();
  if (tc__k.lock_nesting != 0) {
    tc__k.lock_nesting--;
    TC_TRACE_EVENT(TC_TRACE_EV_LOCK, tc__k.lock_nesting, 0, 0);
    if (tc__k.lock_nesting == 0) tc__sched_dispatch();
  }
  tc__unlock(s);
}
