// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-alias: reading N MiB of results the device wrote into VRAM,
 * three ways, on device 0 (which needs read-alias-size >= N MiB):
 *
 *   bar0       memcpy out of the usual VRAM mapping (BAR0,
 *              write-combining: uncached loads on hardware)
 *   cached     hsagpu_memory_read_cached() (directory query and clear,
 *              clflushopt of every dirty line) then memcpy out of the
 *              cached BAR4 mapping; every line is dirty (the device just
 *              rewrote the whole buffer)
 *   cached_clean  the same right again: no line dirty, nothing flushed
 *              (the directory query alone, then cached loads)
 *   dma        a DMA copy VRAM -> system memory, submit to signal
 *
 * Each repetition the device first fills the buffer with a new pattern
 * (DMA fill), so every method reads fresh device data; each result is
 * checked (a fast wrong path cannot win). Prints "BENCH key value MB/s"
 * lines for scripts/bench --alias, which runs the host's memcpy in the
 * same run. Not a test: timings depend on the host.
 *
 *   hsagpu_test.mb=N     MiB (default 64)
 *   hsagpu_test.reps=N   repetitions (default 5)
 */
#include <stdlib.h>
#include <string.h>

#include "gtdma.h"

static uint64_t mb = 64, reps = 5;

static void report(const char *key, uint64_t bytes, uint64_t *ns, int n)
{
	gt_sort_u64(ns, n);
	/* MB/s: 1e6 bytes per second */
	printf("BENCH %s_best %.1f MB/s\n", key, ns[0] ? bytes * 1e3 / ns[0] : 0);
	printf("BENCH %s_median %.1f MB/s\n", key, ns[n / 2] ? bytes * 1e3 / ns[n / 2] : 0);
	fflush(stdout);
}

static int wait_done(hsagpu_signal_t sig)
{
	return hsagpu_signal_wait_acquire(sig, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					  60000 * GTQ_MS,
					  HSAGPU_WAIT_STATE_BLOCKED) == 0;
}

int main(void)
{
	uint64_t ns_bar0[64], ns_cached[64], ns_clean[64], ns_dma[64];
	uint64_t alias, t0;
	size_t size, flushed = 0, flushed_clean = 0;
	hsagpu_signal_t sig;
	hsagpu_queue_t *q;
	struct gtq_dev d;
	uint8_t *vram, *out, *dst;
	const uint8_t *view;

	setvbuf(stdout, NULL, _IOLBF, 0);
	gt_param_u64("mb", 0, &mb);
	gt_param_u64("reps", 0, &reps);
	reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
	size = (size_t)mb << 20;
	if (gtq_open(0, &d) != 1)
		return gt_result();
	if (!(d.info->caps & HSAGPU_CAP_READ_ALIAS))
		return gt_skip("device 0 has no read alias");
	alias = gtq_reg(&d, HSAGPU_REG_RALIAS_SIZE_LO) |
		(uint64_t)gtq_reg(&d, HSAGPU_REG_RALIAS_SIZE_HI) << 32;
	q = gtq_queue(&d, 64, 0);
	vram = gtq_alloc(&d, size, HSAGPU_RT_MEM_VRAM);
	out = malloc(size);
	dst = gtq_alloc(&d, size, HSAGPU_RT_MEM_SYSTEM);
	sig = gtq_signal(&d, 1);
	if (!q || !vram || !out || !dst)
		return gt_result();
	printf("BENCH size %llu MiB\n", (unsigned long long)mb);
	printf("BENCH alias %llu MiB\n", (unsigned long long)(alias >> 20));
	for (uint64_t r = 0; r < reps; r++) {
		uint32_t pat = 0x01020304u * (uint32_t)(r + 1);

		/* the device's results: a fresh pattern over the buffer */
		hsagpu_signal_store_release(sig, 1);
		CHECK(hsagpu_dma_fill(q, NULL, vram, pat, size, sig) >= 0, "fill");
		CHECK(wait_done(sig), "fill did not finish");

		t0 = gtq_now_ns();
		memcpy(out, vram, size);
		ns_bar0[r] = gtq_now_ns() - t0;
		CHECK(gtd_check_fill(out, size, pat) == size, "bar0: data wrong");

		memset(out, 0, size);
		t0 = gtq_now_ns();
		CHECK(hsagpu_memory_read_cached(d.agent, vram, size, (const void **)&view,
						&flushed) == 0, "read_cached");
		memcpy(out, view, size);
		ns_cached[r] = gtq_now_ns() - t0;
		CHECK(gtd_check_fill(out, size, pat) == size, "cached: data wrong");

		memset(out, 0, size);
		t0 = gtq_now_ns();
		CHECK(hsagpu_memory_read_cached(d.agent, vram, size, (const void **)&view,
						&flushed_clean) == 0, "read_cached");
		memcpy(out, view, size);
		ns_clean[r] = gtq_now_ns() - t0;
		CHECK(gtd_check_fill(out, size, pat) == size, "cached clean: data wrong");

		memset(dst, 0, size);
		hsagpu_signal_store_release(sig, 1);
		t0 = gtq_now_ns();
		CHECK(hsagpu_dma_copy(q, NULL, dst, vram, size, sig) >= 0, "copy");
		CHECK(wait_done(sig), "copy did not finish");
		ns_dma[r] = gtq_now_ns() - t0;
		CHECK(gtd_check_fill(dst, size, pat) == size, "dma: data wrong");
	}
	printf("BENCH flushed_lines %zu lines\n", flushed);
	printf("BENCH flushed_lines_clean %zu lines\n", flushed_clean);
	report("alias_bar0", size, ns_bar0, reps);
	report("alias_cached", size, ns_cached, reps);
	report("alias_cached_clean", size, ns_clean, reps);
	report("alias_dma", size, ns_dma, reps);
	hsagpu_signal_destroy(sig);
	hsagpu_queue_destroy(q);
	gtq_close(&d);
	free(out);
	return gt_result();
}
