// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The demo workload: what a small HSA-style program does on hsa-gpu.
 * Creates a queue, runs vector add and saxpy over a million elements in
 * VRAM, fills malloc'd memory registered by pointer, chains two queues
 * with a barrier packet, streams packets, checks every result and prints
 * device timestamps. Exit status 0 when all results are right.
 *
 * With GPU virtual memory (the default) the device sees the process's
 * own addresses: kernel arguments hold plain pointers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hsagpu_rt.h"

#define N (1U << 20)

static uint16_t hdr(unsigned type, int barrier)
{
	return hsagpu_packet_header(type, barrier, HSAGPU_FENCE_SCOPE_SYSTEM,
				    HSAGPU_FENCE_SCOPE_SYSTEM);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Dispatch one kernel over N work-items and wait for it. */
static int run(hsagpu_queue_t *q, uint64_t kernel, void *kargs,
	       hsagpu_signal_t sig, const char *what)
{
	static const uint32_t grid[3] = { N, 1, 1 };
	static const uint16_t wg[3] = { 256, 1, 1 };
	struct hsagpu_kernel_dispatch_packet pkt;
	uint64_t start, end;

	hsagpu_signal_store_relaxed(sig, 1);
	hsagpu_packet_dispatch(&pkt, kernel, (uintptr_t)kargs, grid, wg, 1,
			       sig);
	if (hsagpu_queue_submit(q, &pkt,
				hdr(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, 0)) < 0)
		return -1;
	if (hsagpu_signal_wait_acquire(sig, HSAGPU_SIGNAL_CONDITION_EQ, 0,
				       5000000000ULL,
				       HSAGPU_WAIT_STATE_BLOCKED) != 0)
		return -1;
	hsagpu_signal_timestamps(sig, &start, &end);
	printf("  %-28s %8.3f ms on the device (%u work-items)\n", what,
	       (end - start) / 1e6, N);
	return 0;
}

int main(void)
{
	hsagpu_agent_t *a;
	hsagpu_queue_t *q, *q2;
	hsagpu_signal_t sig, gate, chained;
	struct hsagpu_kargs_vadd *kv;
	struct hsagpu_kargs_saxpy *ks;
	struct hsagpu_kargs_fill *kf;
	float *x, *y, *z;
	uint32_t *heap;
	int bad = 0, ret;

	ret = hsagpu_agent_open(0, &a);
	if (ret) {
		printf("cannot open /dev/hsagpu0: %s\n", strerror(-ret));
		return 1;
	}
	printf("agent: %s, %llu MiB VRAM, %u queues, GPU virtual memory %s\n",
	       hsagpu_agent_info(a)->name,
	       (unsigned long long)hsagpu_agent_info(a)->vram_size >> 20,
	       hsagpu_agent_info(a)->num_queues,
	       hsagpu_agent_info(a)->vm_flags & HSAGPU_VM_INFO_ENABLED ?
	       "on" : "off");
	if (!(hsagpu_agent_info(a)->vm_flags & HSAGPU_VM_INFO_ENABLED)) {
		printf("this demo puts pointers into packets: it needs GPU virtual memory (hsagpu.ko vm=1)\n");
		return 1;
	}
	ret = hsagpu_queue_create(a, 1024, 0, HSAGPU_QUEUE_PROFILE, &q);
	if (ret) {
		printf("queue: %s%s\n", strerror(-ret), ret == -95 ?
		       " (no PCIe AtomicOps to system memory on this platform: "
		       "use an AtomicOp-routing preset such as rp-atomics)" : "");
		return 1;
	}
	if (hsagpu_queue_create(a, 64, 0, 0, &q2) ||
	    hsagpu_memory_allocate(a, N * 4, HSAGPU_RT_MEM_VRAM, (void **)&x) ||
	    hsagpu_memory_allocate(a, N * 4, HSAGPU_RT_MEM_VRAM, (void **)&y) ||
	    hsagpu_memory_allocate(a, N * 4, HSAGPU_RT_MEM_VRAM, (void **)&z) ||
	    hsagpu_memory_allocate(a, 4096, HSAGPU_RT_MEM_SYSTEM, (void **)&kv) ||
	    hsagpu_signal_create(a, 0, &sig) ||
	    hsagpu_signal_create(a, 1, &gate) ||
	    hsagpu_signal_create(a, 1, &chained)) {
		printf("setup failed\n");
		return 1;
	}
	ks = (void *)((char *)kv + 64);
	kf = (void *)((char *)kv + 128);
	printf("queue %u: 1024 packets, doorbell mapped; buffers in VRAM\n",
	       q->id);
	for (uint32_t i = 0; i < N; i++) {
		x[i] = (float)i;
		y[i] = 2.0f * i;
	}

	kv->a = (uintptr_t)x;
	kv->b = (uintptr_t)y;
	kv->c = (uintptr_t)z;
	if (run(q, HSAGPU_KERNEL_VADD, kv, sig, "vector add z = x + y"))
		return 1;
	for (uint32_t i = 0; i < N; i++)
		bad += z[i] != 3.0f * i;
	ks->a = 0.5f;
	ks->x = (uintptr_t)x;
	ks->y = (uintptr_t)y;
	if (run(q, HSAGPU_KERNEL_SAXPY, ks, sig, "saxpy y = 0.5 x + y"))
		return 1;
	for (uint32_t i = 0; i < N; i++)
		bad += y[i] != 2.5f * i;

	/* Ordinary malloc'd memory, registered by pointer */
	heap = malloc(N * 4);
	if (!heap || hsagpu_memory_register(a, heap, N * 4, 0)) {
		printf("register malloc'd memory failed\n");
		return 1;
	}
	kf->dst = (uintptr_t)heap;
	kf->value = 0x600d;
	if (run(q, HSAGPU_KERNEL_FILL, kf, sig, "fill of malloc'd memory"))
		return 1;
	for (uint32_t i = 0; i < N; i++)
		bad += heap[i] != 0x600d;
	hsagpu_memory_unregister(a, heap);
	free(heap);
	printf("  results checked: %s\n", bad ? "WRONG" : "all correct");

	/* Queue 2 waits (BARRIER_AND) for a signal the CPU releases. */
	{
		struct hsagpu_barrier_packet b;

		hsagpu_packet_barrier(&b, &gate, 1, chained);
		hsagpu_queue_submit(q2, &b, hdr(HSAGPU_PKT_TYPE_BARRIER_AND, 0));
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
		printf("barrier: queue %u waits on a signal: value %lld after 20 ms\n",
		       q2->id, (long long)hsagpu_signal_load_acquire(chained));
		bad += hsagpu_signal_load_acquire(chained) != 1;
		hsagpu_signal_store_release(gate, 0);
		hsagpu_signal_wait_acquire(chained, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					   1000000000ULL,
					   HSAGPU_WAIT_STATE_BLOCKED);
		printf("barrier: released by the CPU, completed: value %lld\n",
		       (long long)hsagpu_signal_load_acquire(chained));
		bad += hsagpu_signal_load_acquire(chained) != 0;
	}

	/* A stream of barrier packets, one signal at the end. */
	{
		const int n = 100000;
		struct hsagpu_barrier_packet b;
		double t0 = now_s();

		hsagpu_signal_store_relaxed(sig, 1);
		for (int i = 0; i < n; i++) {
			hsagpu_packet_barrier(&b, NULL, 0, (hsagpu_signal_t){
					      i == n - 1 ? sig.handle : 0 });
			hsagpu_queue_submit(q, &b,
					    hdr(HSAGPU_PKT_TYPE_BARRIER_AND, 0));
		}
		hsagpu_signal_wait_acquire(sig, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					   10000000000ULL,
					   HSAGPU_WAIT_STATE_BLOCKED);
		printf("stream: %d packets in %.3f s (%.0f packets/s, one doorbell each)\n",
		       n, now_s() - t0, n / (now_s() - t0));
		bad += hsagpu_queue_load_read_index(q) !=
		       hsagpu_queue_load_write_index(q);
	}
	hsagpu_agent_close(a);
	printf("demo %s\n", bad ? "FAILED" : "passed");
	return bad ? 1 : 0;
}
