// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hip: a HIP program built by Debian's hipcc (clang 15, gfx900) runs
 * unmodified on Debian's HIP runtime (libamdhip64 5.2.3) over ROCr and
 * the KFD facade, its kernels on the device's GCN interpreter: device
 * properties, copies both ways and device to device, memset, a vector
 * add over a partial last block, a reduction through shared memory with
 * __syncthreads and atomicAdd, a 2-D transpose with partial blocks in
 * both dimensions, events. Every result against the CPU; exit status 0
 * only when all checks pass. The tests run in a child process, and its
 * exit must leave no VM fault behind (hipt-teardown.h).
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>
#include <vector>

#include "hipt-teardown.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		failures++; \
		printf("# FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

#define HIP(call) do { \
	hipError_t e_ = (call); \
	CHECK(e_ == hipSuccess, "%s: %s", #call, hipGetErrorString(e_)); \
} while (0)

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

/* each block sums its 256 items in shared memory, then adds to *total */
__global__ void block_sum(const int *in, int n, int *total)
{
	__shared__ int s[256];
	int l = threadIdx.x, i = blockIdx.x * blockDim.x + l;

	s[l] = i < n ? in[i] : 0;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (l < k)
			s[l] += s[l + k];
		__syncthreads();
	}
	if (l == 0)
		atomicAdd(total, s[0]);
}

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x < cols && y < rows)
		out[x * rows + y] = in[y * cols + x];
}

static int run_tests(void)
{
	hipDeviceProp_t prop;
	int count = 0;

	HIP(hipGetDeviceCount(&count));
	CHECK(count >= 1, "%d devices", count);
	if (count < 1)
		return 1;
	HIP(hipGetDeviceProperties(&prop, 0));
	printf("# device 0: %s, %s, %d compute units, %zu MiB\n", prop.name,
	       prop.gcnArchName, prop.multiProcessorCount,
	       (size_t)(prop.totalGlobalMem >> 20));
	CHECK(!strncmp(prop.gcnArchName, "gfx900", 6), "arch %s", prop.gcnArchName);

	/* vector add: 1000 items in blocks of 256 */
	{
		const int n = 1000;
		std::vector<float> a(n), b(n), c(n, -1);
		float *da, *db, *dc;
		int bad = 0;

		for (int i = 0; i < n; i++) {
			a[i] = i * 0.5f;
			b[i] = 1000.0f - i;
		}
		HIP(hipMalloc(&da, n * 4));
		HIP(hipMalloc(&db, n * 4));
		HIP(hipMalloc(&dc, (n + 24) * 4));
		HIP(hipMemset(dc, 0xff, (n + 24) * 4));
		HIP(hipMemcpy(da, a.data(), n * 4, hipMemcpyHostToDevice));
		HIP(hipMemcpy(db, b.data(), n * 4, hipMemcpyHostToDevice));
		hipLaunchKernelGGL(vadd, dim3((n + 255) / 256), dim3(256), 0, 0,
				   da, db, dc, n);
		HIP(hipGetLastError());
		HIP(hipDeviceSynchronize());
		HIP(hipMemcpy(c.data(), dc, n * 4, hipMemcpyDeviceToHost));
		for (int i = 0; i < n; i++)
			bad += c[i] != a[i] + b[i];
		CHECK(!bad, "vadd: %d of %d wrong", bad, n);
		/* device to device, and nothing written past the grid */
		{
			std::vector<uint32_t> tail(24);

			HIP(hipMemcpy(da, dc, n * 4, hipMemcpyDeviceToDevice));
			HIP(hipMemcpy(c.data(), da, n * 4, hipMemcpyDeviceToHost));
			HIP(hipMemcpy(tail.data(), dc + n, 24 * 4,
				      hipMemcpyDeviceToHost));
			bad = 0;
			for (int i = 0; i < n; i++)
				bad += c[i] != a[i] + b[i];
			for (int i = 0; i < 24; i++)
				bad += tail[i] != 0xffffffffu;
			CHECK(!bad, "device-to-device copy and tail: %d wrong", bad);
		}
		HIP(hipFree(da));
		HIP(hipFree(db));
		HIP(hipFree(dc));
	}

	/* reduction: 100000 ints, shared memory and atomics, timed */
	{
		const int n = 100000;
		std::vector<int> in(n);
		long long want = 0;
		int *din, *dtotal, total = 0;
		hipEvent_t t0, t1;
		float ms = -1;

		for (int i = 0; i < n; i++) {
			in[i] = (i * 7919) % 2001 - 1000;
			want += in[i];
		}
		HIP(hipMalloc(&din, n * 4));
		HIP(hipMalloc(&dtotal, 4));
		HIP(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
		HIP(hipMemset(dtotal, 0, 4));
		HIP(hipEventCreate(&t0));
		HIP(hipEventCreate(&t1));
		HIP(hipEventRecord(t0, 0));
		hipLaunchKernelGGL(block_sum, dim3((n + 255) / 256), dim3(256), 0, 0,
				   din, n, dtotal);
		HIP(hipEventRecord(t1, 0));
		HIP(hipEventSynchronize(t1));
		HIP(hipEventElapsedTime(&ms, t0, t1));
		HIP(hipMemcpy(&total, dtotal, 4, hipMemcpyDeviceToHost));
		CHECK(total == want, "sum %d, want %lld", total, want);
		CHECK(ms >= 0, "event time %f ms", ms);
		printf("# reduction of %d ints: %.3f ms between the events\n", n, ms);
		HIP(hipEventDestroy(t0));
		HIP(hipEventDestroy(t1));
		HIP(hipFree(din));
		HIP(hipFree(dtotal));
	}

	/* transpose 37 x 45 in 16 x 16 blocks */
	{
		const int rows = 37, cols = 45;
		std::vector<float> in(rows * cols), out(rows * cols, -1);
		float *din, *dout;
		int bad = 0;

		for (int i = 0; i < rows * cols; i++)
			in[i] = i;
		HIP(hipMalloc(&din, rows * cols * 4));
		HIP(hipMalloc(&dout, rows * cols * 4));
		HIP(hipMemcpy(din, in.data(), rows * cols * 4, hipMemcpyHostToDevice));
		hipLaunchKernelGGL(transpose, dim3((cols + 15) / 16, (rows + 15) / 16),
				   dim3(16, 16), 0, 0, din, dout, rows, cols);
		HIP(hipDeviceSynchronize());
		HIP(hipMemcpy(out.data(), dout, rows * cols * 4, hipMemcpyDeviceToHost));
		for (int y = 0; y < rows; y++)
			for (int x = 0; x < cols; x++)
				bad += out[x * rows + y] != in[y * cols + x];
		CHECK(!bad, "transpose: %d of %d wrong", bad, rows * cols);
		HIP(hipFree(din));
		HIP(hipFree(dout));
	}
	printf("# %s (%d failed checks)\n", failures ? "FAILED" : "passed",
	       failures);
	return failures ? 1 : 0;
}

int main()
{
	int f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* HIP is initialised in the child only: no runtime state is forked */
	f = hipt_run_checked(run_tests, "t-hip");
	printf("%s t-hip\n", f ? "FAIL" : "PASS");
	return f ? 1 : 0;
}
