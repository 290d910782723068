// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host-syscalls: what the host charges for the calls on the queue path's
 * wake-up (scripts/bench prints it next to the doorbell figures): a
 * clock read, a non-blocking poll of an eventfd, an eventfd write (what
 * an ioeventfd costs the vCPU under TCG), sched_yield. On a nested or
 * paravirtualised host a system call can cost several MMIO writes.
 *
 *   host-syscalls [N]            default 100000 calls of each
 *
 * Prints "BENCH host_<call>_ns X" lines (mean nanoseconds per call).
 */
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 100000;
	int fd = eventfd(0, EFD_NONBLOCK);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t one = 1, t0;

	if (n < 1 || fd < 0) {
		fprintf(stderr, "usage: host-syscalls [N >= 1]\n");
		return 2;
	}
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		now_ns();
	printf("BENCH host_clock_gettime_ns %.1f\n", (double)(now_ns() - t0) / n);
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		if (poll(&p, 1, 0) < 0)
			return 1;
	printf("BENCH host_poll0_ns %.1f\n", (double)(now_ns() - t0) / n);
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		if (write(fd, &one, 8) != 8)
			return 1;
	printf("BENCH host_eventfd_write_ns %.1f\n",
	       (double)(now_ns() - t0) / n);
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		sched_yield();
	printf("BENCH host_sched_yield_ns %.1f\n", (double)(now_ns() - t0) / n);
	close(fd);
	return 0;
}
