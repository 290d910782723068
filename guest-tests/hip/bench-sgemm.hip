// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-sgemm: an SGEMM written in HIP (Debian's hipcc, gfx900), C = A x B
 * for N x N fp32 matrices, 16 x 16 tiles through shared memory, on the
 * unmodified HIP runtime and the device's GCN interpreter
 * (scripts/bench --sgemm). Each size runs once to load the code object,
 * then is timed from launch to hipDeviceSynchronize() over several runs;
 * the result is checked against the CPU (a sample of the elements: the
 * guest's CPU is emulated). Prints "BENCH sgemm_N_s best median s" and
 * "BENCH sgemm_N_gflops best median GFLOP/s"; exit status 0 only when the
 * checks pass.
 *
 *   bench-sgemm [N ...]     (default: 256)
 */
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vector>
#include <algorithm>

#define TILE    16
#define REPS    5

static int failures;

#define HIP(call) do { \
	hipError_t e_ = (call); \
	if (e_ != hipSuccess) { \
		printf("# FAIL %s: %s\n", #call, hipGetErrorString(e_)); \
		failures++; \
	} \
} while (0)

__global__ void sgemm(const float *a, const float *b, float *c, int n)
{
	__shared__ float ta[TILE][TILE], tb[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	float acc = 0.0f;

	for (int k0 = 0; k0 < n; k0 += TILE) {
		ta[ty][tx] = row < n && k0 + tx < n ? a[row * n + k0 + tx] : 0.0f;
		tb[ty][tx] = col < n && k0 + ty < n ? b[(k0 + ty) * n + col] : 0.0f;
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			acc += ta[ty][k] * tb[k][tx];
		__syncthreads();
	}
	if (row < n && col < n)
		c[row * n + col] = acc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run(int n)
{
	size_t bytes = (size_t)n * n * sizeof(float);
	std::vector<float> a((size_t)n * n), b((size_t)n * n), c((size_t)n * n);
	double t[REPS], flops = 2.0 * n * n * (double)n;
	dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE), block(TILE, TILE);
	float *da, *db, *dc;
	int bad = 0, checked = 0;

	for (size_t i = 0; i < a.size(); i++) {
		a[i] = (float)((i * 7) % 17) / 16.0f - 0.5f;
		b[i] = (float)((i * 5) % 13) / 12.0f - 0.5f;
	}
	HIP(hipMalloc(&da, bytes));
	HIP(hipMalloc(&db, bytes));
	HIP(hipMalloc(&dc, bytes));
	if (failures)
		return 1;
	HIP(hipMemcpy(da, a.data(), bytes, hipMemcpyHostToDevice));
	HIP(hipMemcpy(db, b.data(), bytes, hipMemcpyHostToDevice));
	/* the first launch loads the code object: not timed */
	hipLaunchKernelGGL(sgemm, grid, block, 0, 0, da, db, dc, n);
	HIP(hipDeviceSynchronize());
	for (int r = 0; r < REPS; r++) {
		double t0 = now_s();

		hipLaunchKernelGGL(sgemm, grid, block, 0, 0, da, db, dc, n);
		HIP(hipDeviceSynchronize());
		t[r] = now_s() - t0;
	}
	HIP(hipMemcpy(c.data(), dc, bytes, hipMemcpyDeviceToHost));
	/* every 97th element against the CPU, in double */
	for (size_t e = 0; e < c.size(); e += 97) {
		size_t i = e / n, j = e % n;
		double want = 0;

		for (int k = 0; k < n; k++)
			want += (double)a[i * n + k] * b[(size_t)k * n + j];
		bad += fabs(c[e] - want) > 1e-3 * (1 + fabs(want));
		checked++;
	}
	std::sort(t, t + REPS);
	printf("# sgemm %d: %d of %d sampled elements wrong\n", n, bad, checked);
	printf("BENCH sgemm_%d_s %.6f %.6f s\n", n, t[0], t[REPS / 2]);
	printf("BENCH sgemm_%d_gflops %.4f %.4f GFLOP/s\n", n, flops / t[0] / 1e9,
	       flops / t[REPS / 2] / 1e9);
	HIP(hipFree(da));
	HIP(hipFree(db));
	HIP(hipFree(dc));
	failures += bad != 0;
	return 0;
}

int main(int argc, char **argv)
{
	int sizes[8] = { 256 }, nsizes = 1;

	if (argc > 1) {
		nsizes = 0;
		for (int i = 1; i < argc && nsizes < 8; i++) {
			int n = atoi(argv[i]);

			if (n < 16 || n > 4096) {
				fprintf(stderr, "bench-sgemm: sizes 16..4096\n");
				return 2;
			}
			sizes[nsizes++] = n;
		}
	}
	for (int i = 0; i < nsizes; i++)
		run(sizes[i]);
	printf("# bench-sgemm: %s\n", failures ? "FAIL" : "ok");
	return failures != 0;
}
