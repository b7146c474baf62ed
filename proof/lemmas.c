/* SPDX-License-Identifier: MIT */
/*
 * The ACSL statements of the lemmas proved by induction in proof/reach.mlw, as axiomatic blocks
 * over the kernel's own predicates (reach, in kernel/internal.h). They are kept here, outside
 * the kernel's sources, until a contract uses them: WP reads kernel/sched.c and what it
 * includes, and these blocks then move into kernel/internal.h (as all of them have: RingRemoval,
 * RingInsertion, RingOfOne, RingFrame and RingSelf, for the behaviours `ring` of
 * tc__list_remove and tc__list_insert, for ready_insert_flagged and for displace_for). tacet prove parses this file with Frama-C (so
 * the statements type-check against the kernel's predicates) and proves the lemmas of the same
 * names with Why3 (docs/proof.md, "Induction, in Why3").
 */
#include "internal.h"
