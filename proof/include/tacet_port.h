/* SPDX-License-Identifier: MIT */
/*
 * The port as the proof of the scheduler sees it (proof/, docs/proof.md): every macro of the
 * port contract (include/tacet/port.h) as a plain declaration, so that Frama-C's WP reads
 * kernel/sched.c unchanged. Interrupt masking is the assumption the proof rests on: the
 * scheduler's functions run with interrupts masked and nothing else touches the kernel state
 * meanwhile, so these calls are opaque and the proof asks nothing of them beyond their
 * contracts below.
 */
#ifndef TACET_PORT_PROOF_H
#define TACET_PORT_PROOF_H

#include <stdint.h>

typedef struct {
  void *sp;
} tc_proof_context;

struct tc_thread;

/*@ assigns \nothing; */
unsigned tc__proof_irq_disable(void);
/*@ assigns \nothing; */
void tc__proof_irq_restore(unsigned s);
/*@ assigns \nothing; */
void tc__proof_switch(struct tc_thread *from, struct tc_thread *to);
/*@ assigns \nothing; */
uint64_t tc__proof_cycles(void);
void tc__proof_init(void);
void tc__proof_stack_init(struct tc_thread *t);
int tc__proof_start(void);
void tc__proof_panic(const char *msg, const char *detail);

/* The compiler's builtins the scheduler uses, with what the proof assumes of them:
 * count-leading-zeros finds the most significant set bit. */
/*@ requires x != 0;
    assigns \nothing;
    ensures 0 <= \result < 32;
    ensures (x & (1 << (31 - \result))) != 0;
    ensures \forall integer k; 0 <= k < \result ==> (x & (1 << (31 - k))) == 0;
*/
int __builtin_clz(unsigned int x);
/*@ assigns \nothing; ensures \result == e; */
long __builtin_expect(long e, long c);

#define TC_PORT_NAME               "proof"
#define TC_PORT_STACK_ALIGN        8u
#define TC_PORT_STACK_MIN          256u
#define TC_PORT_CONTEXT            tc_proof_context
#define TC_PORT_INIT()             tc__proof_init()
#define TC_PORT_IRQ_DISABLE()      tc__proof_irq_disable()
#define TC_PORT_IRQ_RESTORE(s)     tc__proof_irq_restore(s)
#define TC_PORT_STACK_INIT(t)      tc__proof_stack_init(t)
#define TC_PORT_SWITCH(from, to)   tc__proof_switch((from), (to))
#define TC_PORT_START()            tc__proof_start()
#define TC_PORT_CYCLES()           tc__proof_cycles()
#define TC_PORT_CYCLES_HZ()        1000000u
#define TC_PORT_PANIC(msg, detail) tc__proof_panic((msg), (detail))

#endif /* TACET_PORT_PROOF_H */
