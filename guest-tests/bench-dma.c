// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-dma: bandwidth of the DMA engine, next to the guest's own memcpy.
 * Prints "BENCH key value unit" lines that scripts/bench --dma turns into
 * a table (with the host's memcpy, measured by tools/host-memcpy in the
 * same run). Every transfer's data is checked once, so a fast wrong
 * engine cannot win; otherwise not a test.
 *
 *   hsagpu_test.mb=N     transfer size in MiB (default 64)
 *   hsagpu_test.reps=N   repetitions, the best and the median are shown
 *                        (default 5)
 *
 * Rows: sys->vram, vram->sys, vram->vram, sys->sys on device 0; P2P
 * vram0->vram1 and sys0->vram1 (two or more devices); aggregate: 1, 2,
 * 4, 8 devices each copying its own system buffer into its own VRAM at
 * once; guest memcpy sys->sys and sys->VRAM mapping.
 *
 * The four directions on device 0 run twice more, alternating, on a
 * file with GPU virtual memory (keys ending in _vm: every page of the
 * transfer translated in the file's VMID) and on one without (hsagpu.ko
 * vm=0 at open, keys ending in _vmid0: bus addresses), for the
 * comparison within one boot. The other rows use the default (GPU VM).
 *
 * The built-in streaming kernels (fill, copy, vector add, saxpy) run in
 * the same rounds on three buffers of the same size in device 0's VRAM,
 * 1-D grids of 256-item workgroups, one 32-bit item per 4 bytes: keys
 * kern_*, in GB/s of traffic, bytes read plus bytes written (fill 1x
 * the size, copy 2x, vector add and saxpy 3x), to be compared with
 * twice the host's memcpy figure (which counts the bytes copied).
 */
#include <stdlib.h>

#include "gtdma.h"

static uint64_t mb = 64, reps = 5;

struct bdev {
	struct gtq_dev d;
	hsagpu_queue_t *q;
	hsagpu_dma_list_t *list;
	uint8_t *sys, *sys2;
	volatile uint8_t *vram, *vram2;
	hsagpu_signal_t sig;
};

static struct bdev devs[GT_MAX_DEVS];

/* GB/s (1e9 bytes per second) for @bytes in @ns. */
static double gbs(uint64_t bytes, uint64_t ns)
{
	return ns ? bytes / (double)ns : 0;
}

static void report(const char *key, uint64_t bytes, uint64_t *ns, int n)
{
	gt_sort_u64(ns, n);
	printf("BENCH %s_best %.2f GB/s\n", key, gbs(bytes, ns[0]));
	printf("BENCH %s_median %.2f GB/s\n", key, gbs(bytes, ns[n / 2]));
	fflush(stdout);
}

/*
 * Copy on each device of @set at once; wall time from the first submit
 * to the last signal. Blocked waits: a spinning vCPU would take a host
 * core from the device threads (the host has two).
 */
static uint64_t copy_at_once(struct bdev **set, void **dst, void **src, int n,
			     size_t size)
{
	uint64_t t0, t1;

	for (int i = 0; i < n; i++)
		hsagpu_signal_store_release(set[i]->sig, 1);
	t0 = gtq_now_ns();
	for (int i = 0; i < n; i++) {
		int64_t id = hsagpu_dma_copy(set[i]->q, set[i]->list, dst[i], src[i],
					     size, set[i]->sig);

		CHECK(id >= 0, "%s: copy %lld", set[i]->d.pci, (long long)id);
	}
	for (int i = 0; i < n; i++)
		CHECK(hsagpu_signal_wait_acquire(set[i]->sig, HSAGPU_SIGNAL_CONDITION_EQ, 0,
						 60000 * GTQ_MS,
						 HSAGPU_WAIT_STATE_BLOCKED) == 0,
		      "%s: copy did not finish", set[i]->d.pci);
	t1 = gtq_now_ns();
	return t1 - t0;
}

static void bench_copy(const char *key, struct bdev *b, void *dst, void *src,
		       size_t size)
{
	uint64_t ns[64];
	struct bdev *set[1] = { b };

	memset(dst, 0, size);
	__sync_synchronize();
	for (uint64_t r = 0; r < reps; r++)
		ns[r] = copy_at_once(set, &dst, &src, 1, size);
	CHECK(gtd_diff(dst, src, size) == size, "%s: data wrong", key);
	report(key, size, ns, reps);
}

static void bench_memcpy(const char *key, void *dst, const void *src, size_t size)
{
	uint64_t ns[64];

	for (uint64_t r = 0; r < reps; r++) {
		uint64_t t0 = gtq_now_ns();

		memcpy(dst, src, size);
		__sync_synchronize();
		ns[r] = gtq_now_ns() - t0;
	}
	report(key, size, ns, reps);
}

/* Wait for @sig to reach 0 (blocked, like the copies). */
static int wait_done(hsagpu_signal_t sig)
{
	return hsagpu_signal_wait_acquire(sig, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					  60000 * GTQ_MS,
					  HSAGPU_WAIT_STATE_BLOCKED) == 0;
}

/* Index of the first 32-bit item of @p != @v, or @n */
static size_t find_not32(const volatile void *p, size_t n, uint32_t v)
{
	const volatile uint32_t *w = p;

	for (size_t i = 0; i < n; i++)
		if (w[i] != v)
			return i;
	return n;
}

/*
 * The built-in streaming kernels over @size-byte VRAM buffers @a, @b,
 * @c of @b's device: a = 1.0f and b = 2.0f (DMA fills), then fill c,
 * copy a to c, c = a + b, c = 0.5 a + c, each @reps times, wall time
 * from submit to signal; every result checked once.
 */
static void bench_kernels(struct bdev *b, const char *suffix, void *va,
			  void *vb, void *vc, size_t size)
{
	static const struct {
		const char *key;
		uint64_t obj;
		unsigned traffic;       /* buffers read + written */
	} kern[] = {
		{ "kern_fill", HSAGPU_KERNEL_FILL, 1 },
		{ "kern_copy", HSAGPU_KERNEL_COPY, 2 },
		{ "kern_vadd", HSAGPU_KERNEL_VADD, 3 },
		{ "kern_saxpy", HSAGPU_KERNEL_SAXPY, 3 },
	};
	static const uint16_t wg[3] = { 256, 1, 1 };
	const uint32_t grid[3] = { size / 4, 1, 1 };
	union {
		struct hsagpu_kargs_fill fill;
		struct hsagpu_kargs_copy copy;
		struct hsagpu_kargs_vadd vadd;
		struct hsagpu_kargs_saxpy saxpy;
	} *ka = gtq_alloc(&b->d, 4096, HSAGPU_RT_MEM_SYSTEM);
	uint64_t a = gtq_ptr(b->d.agent, va), bb = gtq_ptr(b->d.agent, vb);
	uint64_t c = gtq_ptr(b->d.agent, vc);
	char key[64];

	if (!ka)
		return;
	/* one signal for both: the queue runs them in order */
	hsagpu_signal_store_release(b->sig, 1);
	gtd_fill(b->q, a, 0x3f800000, size, GTD_NONE);        /* 1.0f */
	gtd_fill(b->q, bb, 0x40000000, size, b->sig);         /* 2.0f */
	CHECK(wait_done(b->sig), "kernels: input fills did not finish");
	for (unsigned i = 0; i < sizeof(kern) / sizeof(kern[0]); i++) {
		uint64_t ns[64];
		uint32_t want;

		memset(ka, 0, sizeof(*ka));
		switch (kern[i].obj) {
		case HSAGPU_KERNEL_FILL:
			ka->fill.dst = c;
			ka->fill.value = 0x12345678;
			want = 0x12345678;
			break;
		case HSAGPU_KERNEL_COPY:
			ka->copy.dst = c;
			ka->copy.src = a;
			want = 0x3f800000;
			break;
		case HSAGPU_KERNEL_VADD:
			ka->vadd.a = a;
			ka->vadd.b = bb;
			ka->vadd.c = c;
			want = 0x40400000;      /* 3.0f */
			break;
		default: {
			float y = 3.0f + 0.5f * reps;

			ka->saxpy.a = 0.5f;
			ka->saxpy.x = a;
			ka->saxpy.y = c;
			memcpy(&want, &y, 4);
			break;
		}
		}
		__sync_synchronize();
		for (uint64_t r = 0; r < reps; r++) {
			struct hsagpu_kernel_dispatch_packet pkt;
			uint64_t t0;

			hsagpu_signal_store_release(b->sig, 1);
			hsagpu_packet_dispatch(&pkt, kern[i].obj,
					       gtq_ptr(b->d.agent, ka), grid, wg, 1,
					       b->sig);
			t0 = gtq_now_ns();
			CHECK(hsagpu_queue_submit(b->q, &pkt,
				GTQ_HDR(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, 0)) >= 0,
			      "%s: submit", kern[i].key);
			CHECK(wait_done(b->sig), "%s did not finish", kern[i].key);
			ns[r] = gtq_now_ns() - t0;
		}
		CHECK(find_not32(vc, size / 4, want) == size / 4,
		      "%s%s: wrong result at item %zu", kern[i].key, suffix,
		      find_not32(vc, size / 4, want));
		snprintf(key, sizeof(key), "%s%s", kern[i].key, suffix);
		report(key, (uint64_t)kern[i].traffic * size, ns, reps);
	}
	hsagpu_memory_free(b->d.agent, ka);
}

/* Device 0's four directions on a file with (@vm) or without GPU VM. */
static void bench_mode(int vm, size_t size, int round)
{
	static const char *const key[4] = {
		"dma_sys_to_vram", "dma_vram_to_sys", "dma_vram_to_vram",
		"dma_sys_to_sys",
	};
	struct bdev b = { 0 };
	char k[64];
	void *dst[4], *src[4], *vram3;

	if (gtq_open_vm(0, &b.d, vm) != 1)
		goto out;
	b.q = gtq_queue(&b.d, 64, 0);
	b.sig = gtq_signal(&b.d, 1);
	b.sys = gtq_alloc(&b.d, size, HSAGPU_RT_MEM_SYSTEM);
	b.sys2 = gtq_alloc(&b.d, size, HSAGPU_RT_MEM_SYSTEM);
	b.vram = gtq_alloc(&b.d, size, HSAGPU_RT_MEM_VRAM);
	b.vram2 = gtq_alloc(&b.d, size, HSAGPU_RT_MEM_VRAM);
	vram3 = gtq_alloc(&b.d, size, HSAGPU_RT_MEM_VRAM);
	CHECK(hsagpu_dma_list_create(b.d.agent, 20000, &b.list) == 0, "list");
	if (!b.q || !b.sys || !b.sys2 || !b.vram || !b.vram2 || !vram3 ||
	    !b.list)
		goto out;
	gtd_pattern(b.sys, size, 7);
	dst[0] = (void *)b.vram;
	src[0] = b.sys;
	dst[1] = b.sys2;
	src[1] = (void *)b.vram;
	dst[2] = (void *)b.vram2;
	src[2] = (void *)b.vram;
	dst[3] = b.sys2;
	src[3] = b.sys;
	for (int i = 0; i < 4; i++) {
		snprintf(k, sizeof(k), "%s%s_r%d", key[i], vm ? "_vm" : "_vmid0",
			 round);
		bench_copy(k, &b, dst[i], src[i], size);
	}
	snprintf(k, sizeof(k), "%s_r%d", vm ? "_vm" : "_vmid0", round);
	bench_kernels(&b, k, (void *)b.vram, (void *)b.vram2, vram3, size);
out:
	if (b.list)
		hsagpu_dma_list_destroy(b.list);
	gtq_close(&b.d);
}

int main(void)
{
	int n = hsagpu_agent_count(), ndev = 0;
	size_t size;

	gt_param_u64("mb", 0, &mb);
	gt_param_u64("reps", 0, &reps);
	if (reps < 1 || reps > 64)
		reps = 5;
	size = mb << 20;
	if (n > GT_MAX_DEVS)
		n = GT_MAX_DEVS;
	/* GPU VM against VMID 0 on device 0, alternating, before the rest */
	if (n > 0) {
		printf("BENCH size %llu MiB\n", (unsigned long long)mb);
		for (int round = 0; round < 2; round++) {
			bench_mode(1, size, round);
			bench_mode(0, size, round);
		}
	}
	for (int i = 0; i < n; i++) {
		struct bdev *b = &devs[ndev];

		if (gtq_open(i, &b->d) != 1 || !(b->d.info->caps & HSAGPU_CAP_DMA)) {
			gtq_close(&b->d);
			continue;
		}
		b->q = gtq_queue(&b->d, 64, 0);
		CHECK(hsagpu_dma_list_create(b->d.agent, 20000, &b->list) == 0, "list");
		b->sys = gtq_alloc(&b->d, size, HSAGPU_RT_MEM_SYSTEM);
		b->vram = gtq_alloc(&b->d, size, HSAGPU_RT_MEM_VRAM);
		b->sig = gtq_signal(&b->d, 1);
		if (!ndev) {
			b->sys2 = gtq_alloc(&b->d, size, HSAGPU_RT_MEM_SYSTEM);
			b->vram2 = gtq_alloc(&b->d, size, HSAGPU_RT_MEM_VRAM);
			if (!b->sys2 || !b->vram2)
				return gt_result();
		}
		if (!b->q || !b->list || !b->sys || !b->vram)
			return gt_result();
		gtd_pattern(b->sys, size, 7 + i);
		ndev++;
	}
	if (!ndev) {
		DIAG("no device with queues and DMA");
		return gt_result();
	}
	printf("BENCH devices %d count\n", ndev);
	printf("BENCH size %llu MiB\n", (unsigned long long)mb);
	/* device 0, every direction */
	{
		struct bdev *b = &devs[0];

		bench_copy("dma_sys_to_vram", b, (void *)b->vram, b->sys, size);
		bench_copy("dma_vram_to_sys", b, b->sys2, (void *)b->vram, size);
		bench_copy("dma_vram_to_vram", b, (void *)b->vram2, (void *)b->vram, size);
		bench_copy("dma_sys_to_sys", b, b->sys2, b->sys, size);
		bench_memcpy("guest_memcpy_sys_to_sys", b->sys2, b->sys, size);
		bench_memcpy("guest_memcpy_sys_to_vram", (void *)b->vram2, b->sys, size);
	}
	if (ndev >= 2) {
		struct bdev *a = &devs[0], *b = &devs[1];
		uint32_t flags = 0;

		if (hsagpu_agent_enable_peer(a->d.agent, b->d.agent, &flags) == 0) {
			printf("BENCH p2p_flags %u flags\n", flags);
			bench_copy("dma_p2p_vram_to_peer_vram", a, (void *)b->vram,
				   (void *)a->vram, size);
			bench_copy("dma_p2p_sys_to_peer_vram", a, (void *)b->vram, a->sys, size);
			bench_copy("dma_p2p_peer_vram_to_vram", a, (void *)a->vram2,
				   (void *)b->vram, size);
		} else {
			CHECK(0, "enable peer %s -> %s", a->d.pci, b->d.pci);
		}
	}
	/* aggregate: k devices at once, each sys -> own VRAM */
	for (int k = 1; k <= ndev; k *= 2) {
		struct bdev *set[GT_MAX_DEVS];
		void *dst[GT_MAX_DEVS], *src[GT_MAX_DEVS];
		uint64_t ns[64];
		char key[64];

		for (int i = 0; i < k; i++) {
			set[i] = &devs[i];
			dst[i] = (void *)devs[i].vram;
			src[i] = devs[i].sys;
		}
		for (uint64_t r = 0; r < reps; r++)
			ns[r] = copy_at_once(set, dst, src, k, size);
		for (int i = 0; i < k; i++)
			CHECK(gtd_diff(dst[i], src[i], size) == size, "aggregate %d: %s data wrong",
			      k, devs[i].d.pci);
		snprintf(key, sizeof(key), "dma_aggregate_%d", k);
		report(key, (uint64_t)k * size, ns, reps);
	}
	for (int i = 0; i < ndev; i++) {
		hsagpu_dma_list_destroy(devs[i].list);
		gtq_close(&devs[i].d);
	}
	return gt_result();
}
