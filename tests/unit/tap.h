/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Minimal TAP output for the host unit tests: T(cond) is one test. */
#ifndef HSAGPU_UNIT_TAP_H
#define HSAGPU_UNIT_TAP_H

#include <stdio.h>

static int tests, failed;

#define T(cond)                                                         \
	do {                                                            \
		tests++;                                                \
		if (cond) {                                             \
			printf("ok %d - %s: %s\n", tests, __func__, #cond); \
		} else {                                                \
			failed++;                                       \
			printf("not ok %d - %s: %s (%s:%d)\n", tests, __func__, \
			       #cond, __FILE__, __LINE__);              \
		}                                                       \
	} while (0)

/* Print the plan; the exit status of main(). */
static inline int tap_done(void)
{
	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}

#endif
