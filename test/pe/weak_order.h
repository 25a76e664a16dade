/*
 * weak_order.h: the weak-ordering emulation of UCX for the ordering tests (weak_order.c).
 * A program linked with it must export its symbols (-rdynamic); call before shmem_init.
 */
#ifndef SSHMEM_TEST_WEAK_ORDER_H
#define SSHMEM_TEST_WEAK_ORDER_H
#include <stddef.h>

/* Hold back every put of at least min_bytes until its endpoint's next flush (0: off). */
void weak_order_setup(size_t min_bytes);
/* Report this UCX version to the library (its version quirks follow it). */
void weak_order_fake_version(unsigned major, unsigned minor, unsigned release);
/* How many puts are held back right now (all PEs' tests: nonzero shows the emulation acts). */
unsigned long weak_order_held(void);

#endif
