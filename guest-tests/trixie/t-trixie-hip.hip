// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-trixie-hip: a HIP program built by bookworm's hipcc (clang 15,
 * gfx900) runs on Debian trixie's HIP runtime (libamdhip64.so.5, HIP
 * 5.7.1, over ROCr 6.1 and libhsakmt 6.2) on Linux's own amdkfd of the
 * 6.12 kernel (the Vega10 personality; guest-tests/trixie/trixie.sh runs
 * it chrooted in the trixie image): the device is a gfx900, copies both
 * ways and device to device, memset, a vector add over a partial last
 * block with nothing written past it, a reduction through shared memory
 * with __syncthreads and atomicAdd between two events. Every result
 * against the CPU; and the kernel log must show no GPU page fault
 * (amdgpu's "page fault" lines) from the start of the run to its end.
 * Exit status 0 when every check passed, 1 otherwise.
 */
#include <hip/hip_runtime.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <vector>

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

/* GPU page faults amdgpu logged since the mark (/dev/kmsg at its end) */
static int page_faults(int fd)
{
	char rec[2048];
	int n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, rec, sizeof(rec) - 1)) > 0 || (r < 0 && errno == EPIPE)) {
		if (r <= 0)
			continue;
		rec[r] = 0;
		if (strstr(rec, "page fault") || strstr(rec, "VM fault")) {
			printf("# kernel: %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
			n++;
		}
	}
	close(fd);
	return n;
}

int main()
{
	hipDeviceProp_t prop;
	int count = 0, kmsg, faults;

	setvbuf(stdout, NULL, _IOLBF, 0);
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	HIP(hipGetDeviceCount(&count));
	CHECK(count == 1, "%d devices", count);
	if (count < 1)
		return 1;
	{
		int rt = 0, drv = 0;

		HIP(hipRuntimeGetVersion(&rt));
		HIP(hipDriverGetVersion(&drv));
		printf("# HIP runtime %d, driver %d\n", rt, drv);
	}
	HIP(hipGetDeviceProperties(&prop, 0));
	printf("# device 0: %s, %s, %d compute units, %zu MiB\n", prop.name,
	       prop.gcnArchName, prop.multiProcessorCount,
	       (size_t)(prop.totalGlobalMem >> 20));
	CHECK(!strncmp(prop.gcnArchName, "gfx900", 6), "arch %s", prop.gcnArchName);

	/* vector add: 1000 items in blocks of 256 */
	{
		const int n = 1000;
		std::vector<float> a(n), b(n), c(n, -1);
		std::vector<uint32_t> tail(24);
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
		HIP(hipMemcpy(da, dc, n * 4, hipMemcpyDeviceToDevice));
		HIP(hipMemcpy(c.data(), da, n * 4, hipMemcpyDeviceToHost));
		HIP(hipMemcpy(tail.data(), dc + n, 24 * 4, hipMemcpyDeviceToHost));
		bad = 0;
		for (int i = 0; i < n; i++)
			bad += c[i] != a[i] + b[i];
		for (int i = 0; i < 24; i++)
			bad += tail[i] != 0xffffffffu;
		CHECK(!bad, "device-to-device copy and tail: %d wrong", bad);
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
	faults = page_faults(kmsg);
	CHECK(faults == 0, "%d GPU page faults in the kernel log during the run "
	      "(-1: /dev/kmsg unreadable)", faults);
	printf("# %s (%d failed checks)\n", failures ? "FAILED" : "passed", failures);
	return failures ? 1 : 0;
}
