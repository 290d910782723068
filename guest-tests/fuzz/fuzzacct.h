/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the guest fuzzers (hsagpu-fuzz, hsagpu-fuzz-kfd) check after their
 * run, with every file closed: the driver's counters back exactly where
 * they were, the kernel's memory within margins, no kernel trouble.
 */
#ifndef HSAGPU_FUZZACCT_H
#define HSAGPU_FUZZACCT_H

#include "gt.h"

#define FUZZ_MEMINFO_MAX 64

struct fuzz_acct {
	long slab_kb, avail_kb, unreclaim_kb;
	/* the driver's: queues in use, SYSTEM bytes allocated, pages pinned */
	long queues[GT_MAX_DEVS], sysmem[GT_MAX_DEVS], pinned[GT_MAX_DEVS];
	/* every /proc/meminfo line, to say where memory went */
	char key[FUZZ_MEMINFO_MAX][32];
	long kb[FUZZ_MEMINFO_MAX];
	int n;
};

/* One /proc/meminfo value in kB, or -1. */
long fuzz_meminfo_kb(const char *key);

/*
 * The state of the kernel and of the driver on devices @pcis[0..@ndevs),
 * once deferred frees settled and caches were dropped.
 */
void fuzz_account(struct fuzz_acct *a, char pcis[][16], int ndevs);

/* Print the changes from @b to @a and check them (failed checks). */
void fuzz_acct_check(const struct fuzz_acct *b, const struct fuzz_acct *a,
		     char pcis[][16], int ndevs);

/*
 * Kernel log lines past @lines that mean trouble (as the host's console
 * scan), printed; @lines becomes the log's length. Returns how many.
 */
int fuzz_kernel_trouble(unsigned long *lines);

/*
 * Run @fn(@arg) in a child process and wait for it: once it has exited,
 * what the kernel still holds is the driver's, not pages a mapping the
 * fuzzer lost track of keeps alive. A failed or dead child is a failed
 * check.
 */
void fuzz_run_child(void (*fn)(void *), void *arg);

#endif
