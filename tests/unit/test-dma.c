// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the DMA engine's packet logic (hsagpu-dma.c)
 * driven through the queue processor over the fake bus: copies, fills,
 * scatter-gather lists, slicing of long transfers, malformed packets,
 * and the TLP arithmetic behind the traffic counters. TAP output.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"

#include "tap.h"
#include "fakebus.h"

#define LIST   (MEM_BASE + 0x40000)    /* descriptors, up to 0xc0000 */
#define BIG(n) (MEM_BASE + (4U << 20) + (9U << 20) * (n))   /* 9 MiB each */

static struct hsagpu_dma_packet dpkt(uint8_t op, uint64_t dst, uint64_t src,
				     uint64_t size, uint64_t sig)
{
	struct hsagpu_dma_packet d;

	memset(&d, 0, sizeof(d));
	d.header = hdr(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC, 0);
	d.format = HSAGPU_VENDOR_FORMAT_DMA;
	d.op = op;
	d.dst = dst;
	d.src = src;
	d.size = size;
	d.completion_signal = sig;
	return d;
}

static void pattern(uint64_t addr, uint64_t len, unsigned seed)
{
	uint8_t *p = at(addr);

	for (uint64_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + seed + (i >> 8));
}

/* Run until the queue is idle or failed; the number of passes. */
static unsigned run_all(void)
{
	unsigned passes = 0;
	HsaGpuRunResult r;

	do {
		hsagpu_queue_run(&q, &proc, 64, &r);
		passes++;
	} while (r.progress && !r.error && passes < 100000);
	return passes;
}

static int all_bytes(uint64_t addr, uint64_t len, uint8_t v)
{
	const uint8_t *p = at(addr);

	for (uint64_t i = 0; i < len; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

static void test_tlp_count(void)
{
	T(hsagpu_tlp_count(0, 0, 128) == 0);
	T(hsagpu_tlp_count(0, 1, 128) == 1);
	T(hsagpu_tlp_count(0, 256, 128) == 2);
	T(hsagpu_tlp_count(1, 256, 128) == 3);
	T(hsagpu_tlp_count(127, 2, 128) == 2);
	T(hsagpu_tlp_count(4095, 2, 4096) == 2);
	T(hsagpu_tlp_count(0x1000, 64 << 20, 256) == (64 << 20) / 256);
}

static void test_fill_host(void)
{
	uint8_t buf[64], want[64];

	for (unsigned phase = 0; phase < 4; phase++) {
		for (unsigned off = 0; off < 9; off++) {
			memset(buf, 0xee, sizeof(buf));
			memset(want, 0xee, sizeof(want));
			for (unsigned k = 0; k < 40; k++)
				want[off + k] = 0x11 * (1 + (phase + k) % 4);
			hsagpu_dma_fill_host(buf + off, 40, 0x44332211, phase);
			if (memcmp(buf, want, sizeof(buf)))
				break;
		}
		T(!memcmp(buf, want, sizeof(buf)));
	}
	hsagpu_dma_fill_host(buf, 64, 0x5a5a5a5a, 3);
	T(buf[0] == 0x5a && buf[63] == 0x5a);
}

static void test_copy(void)
{
	static const uint64_t sizes[] = { 1, 3, 64, 4095, 4097, 100000 };

	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i], src = BUF(0) + 3, dst = BUF(2) + 5;
		struct hsagpu_dma_packet d;

		q_setup(0);
		sig_init(0, 1);
		pattern(src, n, i);
		memset(at(dst - 64), 0xcc, n + 128);
		d = dpkt(HSAGPU_DMA_OP_COPY, dst, src, n, SIG(0));
		submit(&d);
		run_all();
		T(q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0);
		T(!memcmp(at(dst), at(src), n));
		T(all_bytes(dst - 64, 64, 0xcc) && all_bytes(dst + n, 64, 0xcc));
	}
	T(dma_dones && dma_last_err == 0);
}

/* A VM fault on either side: the queue error and the address behind it. */
static void test_vm_fault(void)
{
	struct hsagpu_dma_packet d;

	q_setup(0);
	sig_init(0, 1);
	vmf_page = BUF(2);
	vmf_client = 0;
	d = dpkt(HSAGPU_DMA_OP_COPY, BUF(2) + 8, BUF(0), 64, SIG(0));
	submit(&d);
	run_all();
	T(q.state == HSAGPU_QSTATE_ERROR && q.error == HSAGPU_QERR_VM_FAULT);
	T(vmf_client == HSAGPU_VM_CLIENT_DMA && dma_last_bad == BUF(2) + 8);
	T(dma_last_err == HSAGPU_QERR_VM_FAULT && sig_val(0) == 1);
	vmf_page = 0;
}

/* A copy longer than a slice takes several passes and completes once. */
static void test_slices(void)
{
	uint64_t n = 2 * HSAGPU_DMA_SLICE_BYTES + 12345;
	struct hsagpu_dma_packet d;
	HsaGpuRunResult r;
	unsigned dones;

	q_setup(0);
	sig_init(0, 1);
	pattern(BIG(0), n, 9);
	d = dpkt(HSAGPU_DMA_OP_COPY, BIG(1), BIG(0), n, SIG(0));
	submit(&d);
	dones = dma_dones;
	hsagpu_queue_run(&q, &proc, 64, &r);
	T(r.progress == 1 && !r.completed && q.read_index == 0);
	T(q.dma_active && q.dma_off == HSAGPU_DMA_SLICE_BYTES);
	T(sig_val(0) == 1 && dma_dones == dones);
	T(run_all() == 3);
	T(sig_val(0) == 0 && q.read_index == 1 && !q.dma_active);
	T(!memcmp(at(BIG(1)), at(BIG(0)), n) && dma_dones == dones + 1);

	/* A long fill keeps the pattern's phase across slices. */
	q_setup(0);
	sig_init(0, 1);
	d = dpkt(HSAGPU_DMA_OP_FILL, BIG(0) + 1, 0, n, SIG(0));
	d.pattern = 0x04030201;
	submit(&d);
	T(run_all() == 4 && sig_val(0) == 0);
	{
		const uint8_t *p = at(BIG(0) + 1);
		uint64_t bad = 0;

		for (uint64_t k = 0; k < n; k++)
			bad += p[k] != 1 + k % 4;
		T(bad == 0);
	}
}

static void test_fill(void)
{
	struct hsagpu_dma_packet d;
	const uint8_t *p = at(BUF(0) + 1);

	q_setup(0);
	sig_init(0, 1);
	memset(at(BUF(0)), 0xcc, 64);
	d = dpkt(HSAGPU_DMA_OP_FILL, BUF(0) + 1, 0, 13, SIG(0));
	d.pattern = 0xddccbbaa;
	submit(&d);
	run_all();
	T(sig_val(0) == 0 && p[0] == 0xaa && p[1] == 0xbb && p[3] == 0xdd &&
	  p[4] == 0xaa && p[12] == 0xaa && p[13] == 0xcc && p[-1] == 0xcc);
}

static void test_sg(void)
{
	struct hsagpu_dma_desc *list = at(LIST);
	struct hsagpu_dma_packet d;
	unsigned n = 10000, bad = 0;

	/* 10,000 one-byte descriptors scattering a buffer backwards */
	q_setup(0);
	sig_init(0, 1);
	pattern(BUF(0), n, 1);
	memset(at(BUF(1)), 0, n + 64);
	for (unsigned i = 0; i < n; i++)
		list[i] = (struct hsagpu_dma_desc){
			.src = BUF(0) + i, .dst = BUF(1) + n - 1 - i, .size = 1 };
	d = dpkt(HSAGPU_DMA_OP_COPY_SG, 0, LIST, n, SIG(0));
	submit(&d);
	T(run_all() > n / HSAGPU_DMA_SLICE_DESCS);
	for (unsigned i = 0; i < n; i++)
		bad += *(uint8_t *)at(BUF(1) + n - 1 - i) !=
		       *(uint8_t *)at(BUF(0) + i);
	T(sig_val(0) == 0 && bad == 0 && all_bytes(BUF(1) + n, 64, 0));

	/* Gather with sizes crossing slices, then a fill list. */
	q_setup(0);
	sig_init(0, 1);
	pattern(BIG(0), 9 << 20, 3);
	list[0] = (struct hsagpu_dma_desc){ BIG(0), BIG(1), 5 << 20, 0 };
	list[1] = (struct hsagpu_dma_desc){ BIG(0) + (5 << 20) + 7,
					    BIG(1) + (5 << 20), 3 << 20, 0 };
	d = dpkt(HSAGPU_DMA_OP_COPY_SG, 0, LIST, 2, SIG(0));
	submit(&d);
	run_all();
	T(sig_val(0) == 0 && !memcmp(at(BIG(1)), at(BIG(0)), 5 << 20) &&
	  !memcmp(at(BIG(1) + (5 << 20)), at(BIG(0) + (5 << 20) + 7), 3 << 20));

	q_setup(0);
	sig_init(0, 1);
	memset(at(BUF(0)), 0, 64);
	list[0] = (struct hsagpu_dma_desc){ 0x07060504, BUF(0) + 1, 5, 0 };
	list[1] = (struct hsagpu_dma_desc){ 0x09090909, BUF(0) + 10, 2, 0 };
	d = dpkt(HSAGPU_DMA_OP_FILL_SG, 0, LIST, 2, SIG(0));
	submit(&d);
	run_all();
	{
		const uint8_t *p = at(BUF(0));

		T(sig_val(0) == 0 && p[0] == 0 && p[1] == 4 && p[4] == 7 &&
		  p[5] == 4 && p[6] == 0 && p[10] == 9 && p[11] == 9 &&
		  p[12] == 0);
	}
}

static void test_errors(void)
{
	struct hsagpu_dma_desc *list = at(LIST);
	static const struct {
		const char *what;
		unsigned err;
	} cases[] = {
		{ "op 0", HSAGPU_QERR_DMA_OP },
		{ "op 5", HSAGPU_QERR_DMA_OP },
		{ "flags", HSAGPU_QERR_DMA_OP },
		{ "reserved", HSAGPU_QERR_DMA_OP },
		{ "size 0", HSAGPU_QERR_DMA_SIZE },
		{ "size too big", HSAGPU_QERR_DMA_SIZE },
		{ "overlap", HSAGPU_QERR_DMA_OVERLAP },
		{ "dst unmapped", HSAGPU_QERR_ADDRESS },
		{ "src wraps", HSAGPU_QERR_ADDRESS },
		{ "sg count 0", HSAGPU_QERR_DMA_SIZE },
		{ "sg count too big", HSAGPU_QERR_DMA_SIZE },
		{ "sg list misaligned", HSAGPU_QERR_ALIGNMENT },
		{ "sg list unmapped", HSAGPU_QERR_ADDRESS },
		{ "sg dst field set", HSAGPU_QERR_DMA_OP },
		{ "desc size 0", HSAGPU_QERR_DMA_SIZE },
		{ "desc reserved", HSAGPU_QERR_DMA_OP },
		{ "desc src unmapped", HSAGPU_QERR_ADDRESS },
		{ "fill pattern > 32 bits", HSAGPU_QERR_DMA_OP },
		{ "signal misaligned", HSAGPU_QERR_SIGNAL },
		/* The format byte, not the op, says it is a DMA packet. */
		{ "format 0", HSAGPU_QERR_VENDOR_FORMAT },
		{ "format 0x81", HSAGPU_QERR_VENDOR_FORMAT },
		{ "format 0xff", HSAGPU_QERR_VENDOR_FORMAT },
		{ "op 0xff", HSAGPU_QERR_DMA_OP },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hsagpu_dma_packet d =
			dpkt(HSAGPU_DMA_OP_COPY, BUF(1), BUF(0), 16, SIG(0));
		struct hsagpu_dma_packet sg =
			dpkt(HSAGPU_DMA_OP_COPY_SG, 0, LIST, 3, SIG(0));
		uint64_t want_bad = 0;

		q_setup(0);
		sig_init(0, 1);
		*(uint8_t *)at(BUF(1)) = 0;
		*(uint8_t *)at(BUF(0)) = 0x5a;
		for (unsigned k = 0; k < 3; k++)
			list[k] = (struct hsagpu_dma_desc){
				BUF(0), BUF(1) + 16 * k, 16, 0 };
		*(uint8_t *)at(BUF(1) + 0x800) = 0;
		/* A good packet first: the error id must be 1. */
		submit(&d);
		switch (i) {
		case 0: d.op = 0; break;
		case 1: d.op = 5; break;
		case 2: d.flags = 1; break;
		case 3: d.reserved[1] = 1; break;
		case 4: d.size = 0; break;
		case 5: d.size = HSAGPU_DMA_SIZE_MAX + 1; break;
		case 6: d.src = BUF(1) + 8; break;
		case 7: d.dst = 0x7000; want_bad = 0x7000; break;
		case 8: d.src = ~0ULL - 4; want_bad = d.src; break;
		case 9: d = sg; d.size = 0; break;
		case 10: d = sg; d.size = HSAGPU_DMA_SG_MAX + 1; break;
		case 11: d = sg; d.src = LIST + 4; break;
		case 12: d = sg; d.src = 0x8000; want_bad = 0x8000; break;
		case 13: d = sg; d.dst = BUF(1); break;
		case 14: d = sg; list[2].size = 0;
			want_bad = LIST + 2 * sizeof(*list); break;
		case 15: d = sg; list[1].reserved = 1;
			want_bad = LIST + sizeof(*list); break;
		case 16: d = sg; list[2].src = 0x9000; want_bad = 0x9000; break;
		case 17: d.op = HSAGPU_DMA_OP_FILL; d.src = 0;
			d.pattern = 1ULL << 32; break;
		case 18: d.completion_signal = SIG(0) + 4; break;
		case 19: d.format = 0; d.dst = BUF(1) + 0x800; break;
		case 20: d.format = 0x81; d.dst = BUF(1) + 0x800; break;
		case 21: d.format = 0xff; d.dst = BUF(1) + 0x800; break;
		case 22: d.op = 0xff; break;
		}
		submit(&d);
		run_all();
		T(q.state == HSAGPU_QSTATE_ERROR && q.error == cases[i].err &&
		  q.error_id == 1);
		if (want_bad)
			T(dma_last_err == cases[i].err && dma_last_bad == want_bad);
		/* A packet of an unknown format never reached the engine. */
		if (cases[i].err == HSAGPU_QERR_VENDOR_FORMAT)
			T(*(uint8_t *)at(BUF(1) + 0x800) == 0);
		/* Descriptors before the bad one were done. */
		if (i == 16)
			T(*(uint8_t *)at(BUF(1) + 16) == 0x5a);
	}
}

/* Could a migrated copy of q be loaded (what post_load checks)? */
static int q_loadable(void)
{
	return hsagpu_queue_loaded_ok(&q, &ident, &q, 1);
}

/*
 * The device fetches a DMA packet once: rewriting a half-done packet in
 * the ring changes nothing (size, op), and the queue never reaches a
 * state a destination would refuse. A packet consumed otherwise (its
 * slot rewritten as another type) leaves no cursor behind.
 */
static void test_rewrite_in_flight(void)
{
	struct hsagpu_dma_desc *list = at(BIG(0));
	struct hsagpu_dma_packet d, *slot = at(RING);
	struct hsagpu_agent_dispatch_packet a;
	unsigned n = 3000, total = HSAGPU_DMA_SG_MAX + 4096, passes = 0;
	int loadable = 1;
	HsaGpuRunResult r;

	q_setup(0);
	sig_init(0, 1);
	pattern(BUF(0), 4096, 5);
	for (unsigned i = 0; i < total; i++)
		list[i] = (struct hsagpu_dma_desc){
			.src = BUF(0) + i % 4096, .dst = BIG(1) + i, .size = 1 };
	d = dpkt(HSAGPU_DMA_OP_COPY_SG, 0, BIG(0), n, SIG(0));
	submit(&d);
	hsagpu_queue_run(&q, &proc, 64, &r);
	T(q.dma_active && q.dma_desc == HSAGPU_DMA_SLICE_DESCS);
	slot->size = 0x10000000;
	do {
		hsagpu_queue_run(&q, &proc, 64, &r);
		loadable &= q_loadable();
	} while (r.progress && !r.error && ++passes < 1000);
	TM(q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0,
	   "state %u error %u signal %lld", q.state, q.error,
	   (long long)sig_val(0));
	T(loadable);
	T(*(uint8_t *)at(BIG(1) + n - 1) == *(uint8_t *)at(BUF(0) + n - 1) &&
	  *(uint8_t *)at(BIG(1) + n) == 0);

	/* An invalid op written over a packet in flight: still the old one. */
	q_setup(0);
	sig_init(0, 1);
	for (unsigned i = 0; i < n; i++)
		list[i] = (struct hsagpu_dma_desc){
			.src = BUF(0), .dst = BIG(1) + i, .size = 1 };
	d = dpkt(HSAGPU_DMA_OP_COPY_SG, 0, BIG(0), n, SIG(0));
	submit(&d);
	hsagpu_queue_run(&q, &proc, 64, &r);
	slot->op = 99;
	run_all();
	T(q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0);

	/* Nor does another format byte: the cursor runs the latched packet. */
	q_setup(0);
	sig_init(0, 1);
	for (unsigned i = 0; i < n; i++)
		list[i] = (struct hsagpu_dma_desc){
			.src = BUF(0), .dst = BIG(1) + i, .size = 1 };
	d = dpkt(HSAGPU_DMA_OP_COPY_SG, 0, BIG(0), n, SIG(0));
	submit(&d);
	hsagpu_queue_run(&q, &proc, 64, &r);
	T(q.dma_active);
	slot->format = 0x55;
	run_all();
	T(q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0);

	/* The slot becomes a NOP: consumed, and the cursor goes with it. */
	q_setup(0);
	sig_init(0, 1);
	d = dpkt(HSAGPU_DMA_OP_COPY, BIG(1), BIG(0),
		 HSAGPU_DMA_SLICE_BYTES + 1, 0);
	submit(&d);
	hsagpu_queue_run(&q, &proc, 64, &r);
	T(q.dma_active);
	memset(&a, 0, sizeof(a));
	a.header = hdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0);
	a.type = HSAGPU_AGENT_NOP;
	memcpy(slot, &a, sizeof(a));
	hsagpu_queue_run(&q, &proc, 1, &r);
	T(q.read_index == 1 && !q.dma_active);
	d = dpkt(99, BUF(1), BUF(0), 16, SIG(0));
	submit(&d);
	run_all();
	TM(q.state == HSAGPU_QSTATE_ERROR && q.error == HSAGPU_QERR_DMA_OP &&
	   q.error_id == 1, "state %u error %u id %llu", q.state, q.error,
	   (unsigned long long)q.error_id);
}

/*
 * The link model on: a copy moves its data at once but completes (signal,
 * profiling timestamps) when the model says its data arrived; a sharer
 * may push that later; 16 timed packets fill the queue's slots and the
 * next waits; without link traffic it completes at once; model off,
 * nothing changes.
 */
static void test_link_timed(void)
{
	struct hsagpu_dma_packet d;
	struct hsagpu_signal *s = at(SIG(0));
	HsaGpuRunResult r;

	q_setup(HSAGPU_QF_PROFILE);
	sig_init(0, 1);
	link_on = 1;
	link_delay = 5000;
	link_arrive = 0;
	pattern(BUF(0), 4096, 7);
	d = dpkt(HSAGPU_DMA_OP_COPY, BUF(2), BUF(0), 4096, SIG(0));
	submit(&d);
	r = run();
	T(!memcmp(at(BUF(2)), at(BUF(0)), 4096));
	T(link_begun_at == 1000 && q.dma_start_ns == 1000);
	T(r.completed == 0 && sig_val(0) == 1 && q.ninflight == 1);
	T(q.read_index == 1 && r.deadline == 6000);
	now = 5999;
	r = run();
	T(sig_val(0) == 1);
	/* A sharer slowed it down: asked again at its time, it moves on. */
	link_arrive = 7000;
	now = 6000;
	r = run();
	T(sig_val(0) == 1 && q.ninflight == 1 && r.deadline == 7000);
	now = 7300;
	r = run();
	T(r.completed == 1 && sig_val(0) == 0 && q.ninflight == 0);
	TM(s->start_ts == 1000 && s->end_ts == 7000,
	   "timestamps %llu..%llu: the start and the arrival",
	   (unsigned long long)s->start_ts, (unsigned long long)s->end_ts);

	/* Seventeen packets: sixteen slots, the last waits for one. */
	q_setup(0);
	link_arrive = 0;
	sig_init(0, 1);
	for (int i = 0; i < 16; i++) {
		d = dpkt(HSAGPU_DMA_OP_FILL, BUF(2) + 64 * i, 0, 64, 0);
		submit(&d);
	}
	r = run();
	T(q.ninflight == HSAGPU_QUEUE_INFLIGHT_MAX && q.read_index == 16);
	d = dpkt(HSAGPU_DMA_OP_FILL, BUF(3), 0, 64, SIG(0));
	submit(&d);
	link_cancels = 0;
	r = run();
	T(q.ninflight == HSAGPU_QUEUE_INFLIGHT_MAX && q.read_index == 16);
	/* what link_begin() added is taken back while it waits */
	T(link_cancels == 1);
	now += link_delay;
	r = run();
	TM(q.read_index == 17 && q.ninflight == 1 && sig_val(0) == 1,
	   "read_index %llu inflight %u signal %lld state %u err %u",
	   (unsigned long long)q.read_index, q.ninflight, (long long)sig_val(0),
	   q.state, q.error);
	now += link_delay;
	r = run();
	T(sig_val(0) == 0 && q.ninflight == 0);

	/* A timed packet that fails takes its transfer back. */
	q_setup(0);
	link_cancels = 0;
	d = dpkt(HSAGPU_DMA_OP_COPY, BUF(2), 0x10, 64, 0);
	submit(&d);
	r = run();
	T(q.state != HSAGPU_QSTATE_ACTIVE && link_cancels == 1 &&
	  q.ninflight == 0);
	/* A malformed one is not timed at all. */
	q_setup(0);
	link_cancels = link_ends = 0;
	link_begun_at = 0;
	d = dpkt(HSAGPU_DMA_OP_COPY, BUF(2), BUF(0), 64, 0);
	d.reserved[0] = 1;
	submit(&d);
	r = run();
	T(q.state != HSAGPU_QSTATE_ACTIVE && link_begun_at == 0 &&
	  link_cancels == 0);

	/* Nothing on a link (link_end() says 0): complete at once. */
	q_setup(0);
	sig_init(0, 1);
	link_delay = 0;
	d = dpkt(HSAGPU_DMA_OP_FILL, BUF(2), 0, 64, SIG(0));
	submit(&d);
	r = run();
	T(r.completed == 1 && sig_val(0) == 0 && q.ninflight == 0);

	/* Model off: link_end() is not even asked. */
	q_setup(0);
	sig_init(0, 1);
	link_on = 0;
	link_delay = 5000;
	link_ends = 0;
	d = dpkt(HSAGPU_DMA_OP_FILL, BUF(2), 0, 64, SIG(0));
	submit(&d);
	r = run();
	T(r.completed == 1 && sig_val(0) == 0 && link_ends == 0);
}

int main(void)
{
	mem = calloc(1, MEM_SIZE);
	test_tlp_count();
	test_fill_host();
	test_copy();
	test_vm_fault();
	test_slices();
	test_fill();
	test_sg();
	test_errors();
	test_rewrite_in_flight();
	test_link_timed();
	free(mem);
	return tap_done();
}
