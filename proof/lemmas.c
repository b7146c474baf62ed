/* SPDX-License-Identifier: MIT */
/*
 * The ACSL statements of the lemmas proved by induction in proof/reach.mlw, as axiomatic blocks
 * over the kernel's own predicates (reach, in kernel/internal.h). They are kept here, outside
 * the kernel's sources, until a contract uses them: WP reads kernel/sched.c and what it
 * includes, and these blocks then move into kernel/internal.h (as RingRemoval has, for
 * tc__list_remove's behaviour `ring`). tacet prove parses this file
 * with Frama-C (so the statements type-check against the kernel's predicates) and proves the
 * lemmas of the same names with Why3 (docs/proof.md, "Induction, in Why3").
 */
#include "internal.h"

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
