// SPDX-License-Identifier: GPL-2.0
/*
 * make cost: the page record's layout as the compiler sees it for one
 * configuration. Compiled to assembly as an external module's file; each
 * COST() line leaves "->NAME VALUE" in the .s, the way asm-offsets and
 * kernel/bounds.c hand constants to the build.
 */
#include <linux/mm.h>

#define COST(sym, val) \
	asm volatile("\n.ascii \"->" #sym " %0\"" : : "i" (val))

#ifdef LAST_CPUPID_NOT_IN_PAGE_FLAGS
#define COST_NOT_IN_FLAGS 1
#else
#define COST_NOT_IN_FLAGS 0
#endif

void cost_probe(void);
void cost_probe(void)
{
	COST(LAST_CPUPID_SHIFT, LAST_CPUPID_SHIFT);
	COST(NOT_IN_FLAGS, COST_NOT_IN_FLAGS);
	COST(NR_CPUS_BITS, NR_CPUS_BITS);
	COST(NODES_SHIFT, NODES_SHIFT);
}
