// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host-sgemm: the host's SGEMM on one thread, C = A x B for N x N fp32
 * matrices (a plain i-k-j loop the compiler vectorises, the inputs
 * bench-sgemm uses), for scale next to the device's (scripts/bench
 * --sgemm). Prints "BENCH host_sgemm_N_s best median s" and
 * "BENCH host_sgemm_N_gflops best median GFLOP/s".
 *
 *   host-sgemm [N] [reps]      (default: 256 5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 256;
	int reps = argc > 2 ? atoi(argv[2]) : 5;
	float *a, *b, *c;
	double t[32], flops, sum = 0;

	if (n < 16 || n > 4096 || reps < 1 || reps > 32) {
		fprintf(stderr, "usage: host-sgemm [16..4096] [1..32]\n");
		return 2;
	}
	a = malloc(sizeof(float) * n * n);
	b = malloc(sizeof(float) * n * n);
	c = malloc(sizeof(float) * n * n);
	if (!a || !b || !c)
		return 1;
	for (size_t i = 0; i < (size_t)n * n; i++) {
		a[i] = (float)((i * 7) % 17) / 16.0f - 0.5f;
		b[i] = (float)((i * 5) % 13) / 12.0f - 0.5f;
	}
	for (int r = 0; r < reps; r++) {
		double t0 = now_s();

		memset(c, 0, sizeof(float) * n * n);
		for (int i = 0; i < n; i++)
			for (int k = 0; k < n; k++) {
				float aik = a[(size_t)i * n + k];

				for (int j = 0; j < n; j++)
					c[(size_t)i * n + j] += aik * b[(size_t)k * n + j];
			}
		t[r] = now_s() - t0;
		sum += c[(size_t)r % n];
	}
	qsort(t, reps, sizeof(t[0]), cmp);
	flops = 2.0 * n * n * (double)n;
	printf("BENCH host_sgemm_%d_s %.6f %.6f s\n", n, t[0], t[reps / 2]);
	printf("BENCH host_sgemm_%d_gflops %.4f %.4f GFLOP/s\n", n,
	       flops / t[0] / 1e9, flops / t[reps / 2] / 1e9);
	printf("# checksum %g\n", sum);
	free(a);
	free(b);
	free(c);
	return 0;
}
