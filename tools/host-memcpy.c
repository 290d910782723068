// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host-memcpy: the host's memcpy bandwidth, the ceiling for emulated DMA
 * (the device moves guest data with memcpy/memmove on the host).
 * scripts/bench --dma runs it in the same run as the guest benchmark.
 *
 *   host-memcpy [MiB [reps]]     defaults: 64 MiB, 5 repetitions
 *
 * Prints "BENCH host_memcpy_best X GB/s" and "..._median" (1e9 bytes/s),
 * buffers touched and one untimed copy before timing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	int reps = argc > 2 ? atoi(argv[2]) : 5;
	size_t size = mib << 20;
	uint64_t ns[64];
	char *src, *dst;

	if (!mib || reps < 1 || reps > 64) {
		fprintf(stderr, "usage: host-memcpy [MiB [reps 1..64]]\n");
		return 2;
	}
	src = malloc(size);
	dst = malloc(size);
	if (!src || !dst) {
		perror("malloc");
		return 1;
	}
	memset(src, 0x5a, size);
	memset(dst, 0, size);
	memcpy(dst, src, size);         /* warm up: page tables, caches */
	for (int r = 0; r < reps; r++) {
		uint64_t t0 = now_ns();

		memcpy(dst, src, size);
		ns[r] = now_ns() - t0;
		src[r] ^= dst[size - 1 - r];    /* keep the copies observable */
	}
	qsort(ns, reps, sizeof(ns[0]), cmp);
	printf("BENCH host_memcpy_best %.2f GB/s\n", size / (double)ns[0]);
	printf("BENCH host_memcpy_median %.2f GB/s\n", size / (double)ns[reps / 2]);
	free(src);
	free(dst);
	return 0;
}
