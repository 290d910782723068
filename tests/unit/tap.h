/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TAP output for the host tests (tests/unit, tests/runtime): every check
 * is one TAP test point, "ok N - desc" or "not ok N - desc (file:line)".
 *
 *   T(cond)                  description: the function and the condition
 *   TM(cond, fmt, ...)       description: the function and a message
 *   return tap_done();       prints the plan "1..N"; 1 if any check failed
 *
 * Checks are made from the main thread only (no locking).
 */
#ifndef HSAGPU_TAP_H
#define HSAGPU_TAP_H

#include <stdio.h>

static int tap_tests, tap_failed;

static inline void tap_result(int ok, const char *func, const char *desc,
			      const char *file, int line)
{
	tap_tests++;
	if (ok) {
		printf("ok %d - %s: %s\n", tap_tests, func, desc);
	} else {
		tap_failed++;
		printf("not ok %d - %s: %s (%s:%d)\n", tap_tests, func, desc,
		       file, line);
	}
	fflush(stdout);
}

#define T(cond) tap_result(!!(cond), __func__, #cond, __FILE__, __LINE__)

#define TM(cond, ...)                                                   \
	do {                                                            \
		char tap_msg_[256];                                     \
		int tap_ok_ = !!(cond);                                 \
		snprintf(tap_msg_, sizeof(tap_msg_), __VA_ARGS__);      \
		tap_result(tap_ok_, __func__, tap_msg_, __FILE__, __LINE__); \
	} while (0)

/* Print the plan; the exit status of main(). */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_tests);
	return tap_failed ? 1 : 0;
}

#endif
