// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for SDMA rings (hsagpu-sdma.c) driven through the
 * queue processor over the fake bus: every packet ROCr's BlitSdmaV4
 * emits, ROCr's submission sequence, ring wrap and NOP padding, slicing
 * of rect copies, scheduling next to an AQL queue, and every error.
 * TAP output.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"

#include "tap.h"
#include "fakebus.h"

#define SRING   (MEM_BASE + 0x4000)     /* SDMA ring, up to 48 KiB */
#define SRPTR   (MEM_BASE + 0x18000)
#define SWPTR   (MEM_BASE + 0x18008)
#define WORD(n) (MEM_BASE + 0x3c000 + 8 * (n))  /* poll words, fences */

static HsaGpuQueue sq;
static uint64_t swp;            /* write pointer, bytes */

static void s_setup(uint32_t ring_size)
{
	memset(mem, 0, MEM_SIZE);
	memset(&sq, 0, sizeof(sq));
	sq.ring_lo = (uint32_t)SRING;
	sq.ring_size = ring_size;
	sq.rptr_lo = (uint32_t)SRPTR;
	sq.wptr_lo = (uint32_t)SWPTR;
	sq.vector = 2;
	sq.flags = HSAGPU_QF_SDMA;
	hsagpu_queue_start(&sq, 0);
	swp = 0;
	irqs = 0;
	now = 1000;
	now_step = 0;
}

/* Write dwords at the write pointer (wrapping), without publishing. */
static void put(const uint32_t *dw, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		*(uint32_t *)at(SRING + (swp & (sq.ring_size - 1))) = dw[i];
		swp += 4;
	}
}

static void publish(void)
{
	*(uint64_t *)at(SWPTR) = swp;
	hsagpu_queue_doorbell(&sq);
}

static void emit(const uint32_t *dw, unsigned n)
{
	put(dw, n);
	publish();
}

#define EMIT(...) do { \
	const uint32_t p_[] = { __VA_ARGS__ }; \
	emit(p_, sizeof(p_) / 4); \
} while (0)

#define LO(a) ((uint32_t)(a))
#define HI(a) ((uint32_t)((uint64_t)(a) >> 32))

static void copy_pkt(uint64_t dst, uint64_t src, uint32_t n)
{
	EMIT(HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_COPY, HSAGPU_SDMA_SUBOP_COPY_LINEAR),
	     n - 1, 0, LO(src), HI(src), LO(dst), HI(dst));
}

static void fence_pkt(uint64_t addr, uint32_t v)
{
	EMIT(HSAGPU_SDMA_OP_FENCE, LO(addr), HI(addr), v);
}

static void atomic_pkt(uint64_t addr, uint64_t v)
{
	EMIT(HSAGPU_SDMA_OP_ATOMIC | HSAGPU_SDMA_ATOMIC_ADD64 << 25,
	     LO(addr), HI(addr), LO(v), HI(v), 0, 0, 0);
}

static void poll_pkt(uint64_t addr, uint32_t ref, uint32_t mask,
		     unsigned func)
{
	EMIT(HSAGPU_SDMA_OP_POLL_REGMEM | HSAGPU_SDMA_POLL_MEM | func << 28,
	     LO(addr), HI(addr), ref, mask, 0x0fff0004);
}

static void ts_pkt(uint64_t addr)
{
	EMIT(HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_TIMESTAMP,
			     HSAGPU_SDMA_SUBOP_TIMESTAMP_GET_GLOBAL),
	     LO(addr), HI(addr));
}

static void fill_pkt(uint64_t dst, uint32_t v, uint32_t count)
{
	EMIT(HSAGPU_SDMA_OP_CONST_FILL | HSAGPU_SDMA_FILL_DWORD << 30,
	     LO(dst), HI(dst), v, count);
}

static HsaGpuRunResult srun(unsigned quantum)
{
	HsaGpuRunResult r;

	hsagpu_queue_run(&sq, &proc, quantum, &r);
	return r;
}

/* Run until idle or failed; the number of calls. */
static unsigned srun_all(void)
{
	unsigned calls = 0;
	HsaGpuRunResult r;

	do {
		r = srun(64);
		calls++;
	} while (r.progress && !r.error && calls < 100000);
	return calls;
}

static uint64_t rptr(void)
{
	return *(uint64_t *)at(SRPTR);
}

static uint32_t word(int n)
{
	return *(uint32_t *)at(WORD(n));
}

static void seq(uint64_t addr, uint64_t len, unsigned seed)
{
	uint8_t *p = at(addr);

	for (uint64_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 13 + seed + (i >> 9));
}

static int all_bytes(uint64_t addr, uint64_t len, uint8_t v)
{
	const uint8_t *p = at(addr);

	for (uint64_t i = 0; i < len; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/* Expect the queue in error @err at the packet at byte offset @off. */
static int failed_with(unsigned err, uint64_t off)
{
	return sq.state == HSAGPU_QSTATE_ERROR && sq.error == err &&
	       sq.error_id == off;
}

static void test_registration(void)
{
	HsaGpuQueue all[1];

	memset(all, 0, sizeof(all));
	all[0].ring_lo = (uint32_t)SRING;
	all[0].rptr_lo = (uint32_t)SRPTR;
	all[0].wptr_lo = (uint32_t)SWPTR;
	all[0].flags = HSAGPU_QF_SDMA;
	all[0].ring_size = 1024;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_OK);
	all[0].ring_size = 16U << 20;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_OK);
	all[0].ring_size = 512;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_BAD_RING);
	all[0].ring_size = 32U << 20;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_BAD_RING);
	all[0].ring_size = 3072;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_BAD_RING);
	/* An AQL queue of 1024 packets is fine; as SDMA bytes it is too. */
	all[0].ring_size = 1U << 20;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_OK);
	all[0].ring_lo = (uint32_t)SRING + 64;  /* AQL-aligned, not 256 */
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_BAD_RING);
	all[0].flags = 0;
	all[0].ring_size = 1024;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_OK);
	all[0].flags = HSAGPU_QF_SDMA;
	all[0].ring_lo = 0xffffff00;
	all[0].ring_hi = 0xffffffff;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) == HSAGPU_QRES_BAD_RING);
	all[0].ring_lo = (uint32_t)SRING;
	all[0].ring_hi = 0;
	all[0].rptr_lo = (uint32_t)SRPTR + 4;
	T(hsagpu_queue_check(&all[0], &ident, all, 1) ==
	  HSAGPU_QRES_BAD_POINTER);
	/* Ring bytes: what ENABLE checks is memory. */
	all[0].ring_size = 4096;
	T(hsagpu_queue_ring_bytes(&all[0]) == 4096);
	all[0].flags = 0;
	T(hsagpu_queue_ring_bytes(&all[0]) == 4096 * 64);
}

static void test_copy_linear(void)
{
	static const uint32_t sizes[] = { 1, 3, 4096, 100001, 0x3fffe0,
					  1U << 22 };

	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t n = sizes[i];
		uint64_t src = BUF(0) + 1, dst = BUF(5) + 7;

		s_setup(4096);
		seq(src, n, i);
		memset(at(dst - 64), 0xcc, n + 128);
		dma_dones = 0;
		copy_pkt(dst, src, n);
		srun_all();
		TM(sq.state == HSAGPU_QSTATE_ACTIVE && rptr() == 28 &&
		   sq.retired == 1, "copy of %u bytes consumed", n);
		TM(!memcmp(at(dst), at(src), n), "copy of %u bytes", n);
		T(all_bytes(dst - 64, 64, 0xcc) && all_bytes(dst + n, 64, 0xcc));
		T(dma_dones == 1 && dma_last_err == 0);
	}
}

/*
 * COPY_LINEAR with the broadcast bit (kfdtest's two-destination
 * SDMACopyDataPacket): 9 dwords, the same bytes at both destinations,
 * nothing around them; a swap of the second one is refused
 */
static void test_copy_broadcast(void)
{
	uint64_t src = BUF(0) + 3, d1 = BUF(5) + 1, d2 = BUF(7) + 9;
	uint32_t n = 100001;

	s_setup(4096);
	seq(src, n, 3);
	memset(at(d1 - 64), 0xcc, n + 128);
	memset(at(d2 - 64), 0xcc, n + 128);
	EMIT(HSAGPU_SDMA_OP_COPY | HSAGPU_SDMA_COPY_BROADCAST, n - 1, 0,
	     LO(src), HI(src), LO(d1), HI(d1), LO(d2), HI(d2));
	srun_all();
	TM(sq.state == HSAGPU_QSTATE_ACTIVE && rptr() == 36 &&
	   !memcmp(at(d1), at(src), n) && !memcmp(at(d2), at(src), n),
	   "broadcast copy of %u bytes: state %u, rptr %llu", n, sq.state,
	   (unsigned long long)rptr());
	T(all_bytes(d1 - 64, 64, 0xcc) && all_bytes(d1 + n, 64, 0xcc) &&
	  all_bytes(d2 - 64, 64, 0xcc) && all_bytes(d2 + n, 64, 0xcc));

	s_setup(4096);
	EMIT(HSAGPU_SDMA_OP_COPY | HSAGPU_SDMA_COPY_BROADCAST, 15, 1 << 8,
	     LO(src), HI(src), LO(d1), HI(d1), LO(d2), HI(d2));
	srun_all();
	T(sq.state == HSAGPU_QSTATE_ERROR &&
	  sq.error == HSAGPU_QERR_SDMA_PACKET);
}

/*
 * What BlitSdmaV4::SubmitCommand writes for a copy with one dependency
 * signal, profiling and an interrupt signal: two polls (signal value
 * high, then low dword, == 0), TIMESTAMP, HDP flush, the copy, TIMESTAMP,
 * ATOMIC add -1 on the completion signal, FENCE of the event id into the
 * mailbox, TRAP.
 */
static void test_rocr_sequence(void)
{
	uint64_t dep = SIG(0) + 8, out = SIG(1) + 8, ts = SIG(2);
	HsaGpuRunResult r;
	uint64_t after_polls;

	s_setup(4096);
	now_step = 10;
	*(int64_t *)at(dep) = 1;
	*(int64_t *)at(out) = 1;
	seq(BUF(0), 8192, 5);
	poll_pkt(dep + 4, 0, 0xffffffff, HSAGPU_SDMA_FUNC_EQ);
	poll_pkt(dep, 0, 0xffffffff, HSAGPU_SDMA_FUNC_EQ);
	after_polls = swp;
	ts_pkt(ts);
	EMIT(HSAGPU_SDMA_OP_POLL_REGMEM | HSAGPU_SDMA_POLL_HDP_FLUSH |
	     HSAGPU_SDMA_FUNC_EQ << 28, 0, 0, 0, 0, 0x0fff000a);
	copy_pkt(BUF(1), BUF(0), 8192);
	ts_pkt(ts + 8);
	atomic_pkt(out, (uint64_t)-1);
	fence_pkt(MBOX, 77);
	EMIT(HSAGPU_SDMA_OP_TRAP, 77);

	r = srun(64);
	T(r.poll && !r.error && sq.state == HSAGPU_QSTATE_ACTIVE);
	T(rptr() == 24 && sq.read_index == 24);   /* first poll passed */
	T(all_bytes(BUF(1), 8192, 0) && irqs == 0);
	sdma_pkts = 0;
	r = srun(64);
	T(r.poll && r.progress == 0 && rptr() == 24 && sdma_pkts == 0);
	*(int64_t *)at(dep) = 0;
	r = srun(64);
	T(!r.poll && !r.error && rptr() == swp && sq.read_index == swp);
	T(r.completed == 8 && sq.retired == 9 && sdma_pkts == 8);
	T(HSAGPU_SDMA_HDR_OP(sdma_last_hdr) == HSAGPU_SDMA_OP_TRAP &&
	  sdma_last_off == swp - 8);
	T(!memcmp(at(BUF(1)), at(BUF(0)), 8192));
	T(*(int64_t *)at(out) == 0);
	T(*(uint32_t *)at(MBOX) == 77);
	T(irqs == 1 && last_vector == 2);
	T(*(uint64_t *)at(ts) > 1000 &&
	  *(uint64_t *)at(ts + 8) > *(uint64_t *)at(ts));
	T(after_polls == 48);
	/* Idle: nothing more happens. */
	r = srun(64);
	T(r.progress == 0 && !r.poll && irqs == 1);
}

/* Without platform atomics ROCr completes signals with FENCEs. */
static void test_fence(void)
{
	s_setup(1024);
	*(uint64_t *)at(WORD(0)) = 0x1111111122222222ULL;
	fence_pkt(WORD(0) + 4, 0xaabbccdd);
	fence_pkt(WORD(0), 5);
	srun_all();
	T(*(uint64_t *)at(WORD(0)) == 0xaabbccdd00000005ULL);
	T(rptr() == 32 && sq.state == HSAGPU_QSTATE_ACTIVE);
}

static void test_fill(void)
{
	s_setup(1024);
	memset(at(BUF(0)), 0xee, 4096);
	/* ROCr: (n - 1) * 4 for n dwords; Linux amdgpu: n * 4 - 1 */
	fill_pkt(BUF(0), 0x44332211, (10 - 1) * 4);
	fill_pkt(BUF(0) + 1024, 0x88776655, 10 * 4 - 1);
	/* Byte fill: count + 1 bytes of the low byte */
	EMIT(HSAGPU_SDMA_OP_CONST_FILL, LO(BUF(0) + 2049), HI(BUF(0)),
	     0x1234567f, 6);
	srun_all();
	T(sq.state == HSAGPU_QSTATE_ACTIVE && sq.retired == 3);
	T(*(uint32_t *)at(BUF(0)) == 0x44332211 &&
	  *(uint32_t *)at(BUF(0) + 36) == 0x44332211 &&
	  all_bytes(BUF(0) + 40, 64, 0xee));
	T(*(uint32_t *)at(BUF(0) + 1024 + 36) == 0x88776655 &&
	  all_bytes(BUF(0) + 1024 + 40, 64, 0xee));
	T(all_bytes(BUF(0) + 2049, 7, 0x7f) && all_bytes(BUF(0) + 2048, 1, 0xee) &&
	  all_bytes(BUF(0) + 2056, 8, 0xee));
	/* The largest dword fill ROCr emits: 0x3fffe0 bytes */
	s_setup(1024);
	fill_pkt(BUF(0), 0x01020304, 0x3fffe0 - 4);
	srun_all();
	T(sq.retired == 1 && *(uint32_t *)at(BUF(0) + 0x3fffe0 - 4) ==
	  0x01020304 && *(uint32_t *)at(BUF(0) + 0x3fffe0) == 0);
}

static void test_poll_funcs(void)
{
	static const struct {
		unsigned func;
		uint32_t ref, hold, wait;
	} c[] = {
		{ HSAGPU_SDMA_FUNC_LT, 10, 9, 10 },
		{ HSAGPU_SDMA_FUNC_LE, 10, 10, 11 },
		{ HSAGPU_SDMA_FUNC_EQ, 10, 10, 9 },
		{ HSAGPU_SDMA_FUNC_NE, 10, 11, 10 },
		{ HSAGPU_SDMA_FUNC_GE, 10, 10, 9 },
		{ HSAGPU_SDMA_FUNC_GT, 10, 11, 10 },
	};

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		HsaGpuRunResult r;

		s_setup(1024);
		/* The mask drops bits 31:16 before comparing. */
		*(uint32_t *)at(WORD(1)) = c[i].wait | 0xabcd0000;
		poll_pkt(WORD(1), c[i].ref, 0xffff, c[i].func);
		fence_pkt(WORD(2), 1);
		r = srun(64);
		TM(r.poll && word(2) == 0 && rptr() == 0,
		   "func %u waits on %u", c[i].func, c[i].wait);
		*(uint32_t *)at(WORD(1)) = c[i].hold | 0xabcd0000;
		r = srun(64);
		TM(!r.poll && word(2) == 1 && rptr() == 40,
		   "func %u passes on %u", c[i].func, c[i].hold);
	}
	/* ALWAYS, and the register-poll forms of the HDP flush: no-ops */
	s_setup(1024);
	EMIT(HSAGPU_SDMA_OP_POLL_REGMEM | HSAGPU_SDMA_POLL_MEM, LO(WORD(1)),
	     HI(WORD(1)), 0, 0, 0);
	EMIT(HSAGPU_SDMA_OP_POLL_REGMEM, 0, 0x80000000, 0, 0, 0);
	fence_pkt(WORD(2), 3);
	srun_all();
	T(word(2) == 3 && sq.state == HSAGPU_QSTATE_ACTIVE);
}

static void test_timestamp(void)
{
	s_setup(1024);
	now = 123456789;
	ts_pkt(WORD(0));
	srun_all();
	T(*(uint64_t *)at(WORD(0)) == 123456789);
}

/* ROCr pads to the end of the ring with zero dwords and goes on at 0. */
static void test_wrap_nop_padding(void)
{
	HsaGpuRunResult r;
	uint64_t first;

	s_setup(1024);
	*(uint32_t *)at(WORD(0)) = 0;
	for (unsigned i = 0; i < 20; i++)
		fence_pkt(WORD(0), i);          /* 320 bytes */
	srun_all();
	T(word(0) == 19 && rptr() == 320);
	/* Garbage where the padding goes, then the padding: 176 zeroes */
	memset(at(SRING + 320), 0xff, 1024 - 320);
	while (swp & 1023) {
		static const uint32_t nop;

		emit(&nop, 1);
	}
	fence_pkt(WORD(0), 100);
	first = sq.retired;
	r = srun(2);
	T(r.completed == 2 && word(0) == 100 && rptr() == 1024 + 16);
	T(sq.retired == first + 2);     /* the padding counts once */
	/* A NOP with a count skips what follows it. */
	EMIT(HSAGPU_SDMA_OP_NOP | 3 << 16, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef);
	fence_pkt(WORD(0), 101);
	srun_all();
	T(word(0) == 101 && sq.state == HSAGPU_QSTATE_ACTIVE);
	/* A packet across the end of the ring is read in two parts. */
	while ((swp & 1023) != 1024 - 8) {
		static const uint32_t nop;

		emit(&nop, 1);
	}
	atomic_pkt(WORD(3), 41);
	srun_all();
	T(*(uint64_t *)at(WORD(3)) == 41 && rptr() == swp &&
	  sq.state == HSAGPU_QSTATE_ACTIVE);
	/* Many laps. */
	for (unsigned i = 0; i < 200; i++) {
		fence_pkt(WORD(0), 1000 + i);
		srun_all();
	}
	T(word(0) == 1199 && rptr() == swp && swp > 3 * 1024);
}

/* A packet the producer has not finished publishing waits for the rest. */
static void test_partial_packet(void)
{
	const uint32_t f[] = { HSAGPU_SDMA_OP_FENCE, LO(WORD(0)), HI(WORD(0)),
			       9 };
	HsaGpuRunResult r;

	s_setup(1024);
	put(f, 4);
	*(uint64_t *)at(SWPTR) = 8;
	hsagpu_queue_doorbell(&sq);
	r = srun(64);
	T(!r.error && r.progress == 0 && word(0) == 0 && rptr() == 0);
	publish();
	r = srun(64);
	T(!r.error && word(0) == 9 && rptr() == 16);
}

/*
 * COPY_LINEAR_RECT as BuildCopyRectCommand encodes it: pitches and
 * slices minus one in elements, offsets in elements from dword-aligned
 * bases. Checked element by element against the definition.
 */
static void rect_pkt(unsigned el, uint64_t src, uint32_t sx, uint32_t sy,
		     uint32_t sz, uint32_t sp, uint32_t ss, uint64_t dst,
		     uint32_t dx, uint32_t dy, uint32_t dz, uint32_t dp,
		     uint32_t ds, uint32_t rx, uint32_t ry, uint32_t rz)
{
	EMIT(HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_COPY,
			     HSAGPU_SDMA_SUBOP_COPY_LINEAR_RECT) | el << 29,
	     LO(src), HI(src), sx | sy << 16, sz | (sp - 1) << 13, ss - 1,
	     LO(dst), HI(dst), dx | dy << 16, dz | (dp - 1) << 13, ds - 1,
	     (rx - 1) | (ry - 1) << 16, rz - 1);
}

static void test_rect(void)
{
	const unsigned el = 2, e = 1 << el;
	const uint32_t sp = 40, ss = 40 * 30, dp = 24, ds = 24 * 20;
	const uint32_t rx = 17, ry = 11, rz = 3;
	unsigned bad = 0;

	s_setup(1024);
	seq(BUF(0), 1 << 20, 3);
	memset(at(BUF(2)), 0xcc, 1 << 20);
	rect_pkt(el, BUF(0), 5, 7, 2, sp, ss, BUF(2), 3, 4, 1, dp, ds,
		 rx, ry, rz);
	srun_all();
	T(sq.state == HSAGPU_QSTATE_ACTIVE && rptr() == 52);
	for (uint32_t z = 0; z < 4 + rz; z++)
		for (uint32_t y = 0; y < 20; y++)
			for (uint32_t x = 0; x < dp; x++) {
				uint64_t d = BUF(2) + (uint64_t)e *
					     (x + y * dp + z * ds);
				int in = x >= 3 && x < 3 + rx && y >= 4 &&
					 y < 4 + ry && z >= 1 && z < 1 + rz;
				uint64_t s = BUF(0) + (uint64_t)e *
					     ((x - 3 + 5) + (y - 4 + 7) * sp +
					      (z - 1 + 2) * ss);

				if (in ? memcmp(at(d), at(s), e) :
				    !all_bytes(d, e, 0xcc))
					bad++;
			}
	TM(!bad, "%u elements wrong", bad);
}

/*
 * A rect larger than a slice: several turns, the queue's cursor in
 * between; the ring slot rewritten mid-way does not change what runs.
 */
static void test_rect_slices(void)
{
	const uint32_t w = 64, ry = 2458, rz = 5, rows = ry * rz;
	uint32_t saved[13];
	HsaGpuRunResult r;
	unsigned turns = 0;

	s_setup(1024);
	seq(BUF(0), (uint64_t)rows * w, 9);
	memset(at(BUF(8)), 0, (uint64_t)rows * w);
	/* 12290 rows of 64 bytes: 4096 rows a slice, 4 slices */
	rect_pkt(0, BUF(0), 0, 0, 0, w, w * ry, BUF(8), 0, 0, 0, w, w * ry,
		 w, ry, rz);
	memcpy(saved, at(SRING), sizeof(saved));
	r = srun(64);
	T(r.progress == 1 && r.completed == 0 && r.slices == 1 &&
	  sq.sdma_active && sq.sdma_row == 4096 && rptr() == 0);
	T(hsagpu_sdma_cursor_ok(&sq));
	T(hsagpu_queue_loaded_ok(&sq, &ident, &sq, 1));
	/* The guest scribbles over the slot: the latched packet goes on. */
	memset(at(SRING), 0xff, 52);
	do {
		r = srun(64);
		turns++;
	} while (r.progress && !r.completed && turns < 100);
	T(turns == 3 && r.completed == 1 && !sq.sdma_active &&
	  rptr() == 52 && sq.state == HSAGPU_QSTATE_ACTIVE);
	T(!memcmp(at(BUF(8)), at(BUF(0)), (uint64_t)rows * w));
	/* Cursor checks for migration */
	sq.sdma_active = 1;
	memcpy(sq.sdma_pkt, saved, sizeof(saved));
	sq.sdma_row = rows;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_row = rows - 1;
	T(hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_pkt[0] |= 7U << 29;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_pkt[0] = HSAGPU_SDMA_OP_FENCE;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_active = 0;
	sq.read_index = 2;
	T(!hsagpu_sdma_cursor_ok(&sq));
	T(!hsagpu_queue_loaded_ok(&sq, &ident, &sq, 1));
}

static void test_atomic(void)
{
	s_setup(1024);
	*(uint64_t *)at(WORD(4)) = 5;
	atomics = 0;
	atomic_pkt(WORD(4), (uint64_t)-1);
	atomic_pkt(WORD(4), 0x100000000ULL);
	srun_all();
	T(*(uint64_t *)at(WORD(4)) == 0x100000004ULL && atomics == 2);
	/* A refused AtomicOp fails the queue with the AtomicOp's reason. */
	atomic_pkt(FAR_PEER, (uint64_t)-1);
	srun_all();
	T(failed_with(HSAGPU_QERR_P2P_LIMIT, 64));
}

/* Each malformed packet: the queue error and the packet's byte offset. */
static void test_errors(void)
{
	static const struct {
		const char *what;
		uint32_t dw[8];
		unsigned n, err;
	} c[] = {
		{ "unknown opcode 3", { 3 }, 1, HSAGPU_QERR_SDMA_OPCODE },
		{ "opcode 0xff", { 0xff }, 1, HSAGPU_QERR_SDMA_OPCODE },
		{ "COPY sub-op 1 (tiled)", { 0x101, 0, 0, 0, 0, 0, 0 }, 7,
		  HSAGPU_QERR_SDMA_OPCODE },
		{ "NOP sub-op 1", { 0x100 }, 1, HSAGPU_QERR_SDMA_OPCODE },
		{ "TIMESTAMP GET_LOCAL", { 0x10d, 0, 0 }, 3,
		  HSAGPU_QERR_SDMA_OPCODE },
		{ "FENCE sub-op 1", { 0x105, 0, 0, 0 }, 4,
		  HSAGPU_QERR_SDMA_OPCODE },
		{ "COPY_LINEAR with swap", { 1, 3, 1 << 16, LO(BUF(0)), 0,
		  LO(BUF(1)), 0 }, 7, HSAGPU_QERR_SDMA_PACKET },
		{ "COPY_LINEAR header bits", { 1 | 1 << 18, 3, 0, LO(BUF(0)), 0,
		  LO(BUF(1)), 0 }, 7, HSAGPU_QERR_SDMA_PACKET },
		{ "COPY_LINEAR count reserved", { 1, 1 << 22, 0, LO(BUF(0)), 0,
		  LO(BUF(1)), 0 }, 7, HSAGPU_QERR_SDMA_PACKET },
		{ "COPY_LINEAR overlap", { 1, 99, 0, LO(BUF(0)), 0,
		  LO(BUF(0) + 50), 0 }, 7, HSAGPU_QERR_DMA_OVERLAP },
		{ "COPY_LINEAR to a hole", { 1, 99, 0, LO(BUF(0)), 0, 0x1000, 0 },
		  7, HSAGPU_QERR_ADDRESS },
		{ "COPY_LINEAR wrapping", { 1, 99, 0, LO(BUF(0)), 0,
		  0xffffffc0, 0xffffffff }, 7, HSAGPU_QERR_ADDRESS },
		{ "FILL word size", { 11 | 1U << 30, LO(BUF(0)), 0, 0, 8 }, 5,
		  HSAGPU_QERR_SDMA_PACKET },
		{ "FILL swap", { 11 | 2U << 30 | 1 << 16, LO(BUF(0)), 0, 0, 8 },
		  5, HSAGPU_QERR_SDMA_PACKET },
		{ "FILL misaligned", { 11 | 2U << 30, LO(BUF(0)) + 2, 0, 0, 8 },
		  5, HSAGPU_QERR_ALIGNMENT },
		{ "FENCE misaligned", { 5, LO(WORD(0)) + 2, 0, 1 }, 4,
		  HSAGPU_QERR_ALIGNMENT },
		{ "FENCE to a hole", { 5, 0x1000, 0, 1 }, 4,
		  HSAGPU_QERR_ADDRESS },
		{ "TIMESTAMP misaligned", { 0x20d, LO(WORD(0)) + 4, 0 }, 3,
		  HSAGPU_QERR_ALIGNMENT },
		{ "ATOMIC CMPSWAP", { 10 | 48U << 25, LO(WORD(0)), 0, 0, 0, 0,
		  0, 0 }, 8, HSAGPU_QERR_SDMA_PACKET },
		{ "ATOMIC misaligned", { 10 | 47U << 25, LO(WORD(0)) + 4, 0, 1,
		  0, 0, 0, 0 }, 8, HSAGPU_QERR_ALIGNMENT },
		{ "ATOMIC in a hole", { 10 | 47U << 25, 0x1000, 0, 1, 0, 0, 0,
		  0 }, 8, HSAGPU_QERR_ADDRESS },
		{ "POLL register", { 8 | 3U << 28, 0x1234, 0, 0, ~0U, 0 }, 6,
		  HSAGPU_QERR_SDMA_PACKET },
		{ "POLL func 7", { 8 | 7U << 28 | 1U << 31, LO(WORD(0)), 0, 0,
		  ~0U, 0 }, 6, HSAGPU_QERR_SDMA_PACKET },
		{ "POLL memory + HDP", { 8 | 3U << 28 | 1U << 31 | 1U << 26,
		  LO(WORD(0)), 0, 0, ~0U, 0 }, 6, HSAGPU_QERR_SDMA_PACKET },
		{ "POLL misaligned", { 8 | 3U << 28 | 1U << 31, LO(WORD(0)) + 1,
		  0, 0, ~0U, 0 }, 6, HSAGPU_QERR_ALIGNMENT },
		{ "POLL in a hole", { 8 | 3U << 28 | 1U << 31, 0x1000, 0, 0,
		  ~0U, 0 }, 6, HSAGPU_QERR_ADDRESS },
	};

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		s_setup(1024);
		fence_pkt(WORD(7), 1);
		emit(c[i].dw, c[i].n);
		fence_pkt(WORD(7), 2);
		srun_all();
		TM(failed_with(c[i].err, 16) && word(7) == 1 && rptr() == 16,
		   "%s: error %u at %llu (want %u at 16)", c[i].what, sq.error,
		   (unsigned long long)sq.error_id, c[i].err);
	}
	/* Rect: element size 32, reserved bits, misaligned base */
	for (unsigned k = 0; k < 3; k++) {
		s_setup(1024);
		rect_pkt(k == 0 ? 5 : 0, BUF(0) + (k == 2 ? 2 : 0), 0, 0, 0,
			 64, 64, BUF(1), 0, 0, 0, 64, 64, 4, 4, 1);
		if (k == 1)
			*(uint32_t *)at(SRING + 48) |= 1 << 16;  /* dst_swap */
		srun_all();
		TM(failed_with(HSAGPU_QERR_SDMA_PACKET, 0), "rect case %u", k);
	}
	/* VM fault on the destination: the address and the client */
	s_setup(1024);
	vmf_page = BUF(3);
	copy_pkt(BUF(3) + 64, BUF(0), 64);
	srun_all();
	T(failed_with(HSAGPU_QERR_VM_FAULT, 0) && dma_last_bad == BUF(3) + 64 &&
	  vmf_client == HSAGPU_VM_CLIENT_DMA);
	vmf_page = 0;
}

/* Write pointers the device refuses; a DESTROYed-then-failed ring stays. */
static void test_bad_wptr(void)
{
	HsaGpuRunResult r;

	s_setup(1024);
	fence_pkt(WORD(0), 1);
	*(uint64_t *)at(SWPTR) = 18;    /* not whole dwords */
	hsagpu_queue_doorbell(&sq);
	r = srun(64);
	T(r.error && failed_with(HSAGPU_QERR_RING_OVERRUN, 0));
	s_setup(1024);
	*(uint64_t *)at(SWPTR) = 1028;  /* more than a ring ahead */
	hsagpu_queue_doorbell(&sq);
	srun(64);
	T(failed_with(HSAGPU_QERR_RING_OVERRUN, 0));
	s_setup(1024);
	fence_pkt(WORD(0), 1);
	srun_all();
	*(uint64_t *)at(SWPTR) = 8;     /* behind the read pointer */
	hsagpu_queue_doorbell(&sq);
	srun(64);
	T(failed_with(HSAGPU_QERR_RING_OVERRUN, 16));
	/* Exactly a full ring is fine. */
	s_setup(1024);
	for (unsigned i = 0; i < 64; i++)
		fence_pkt(WORD(0), i);
	srun_all();
	T(sq.state == HSAGPU_QSTATE_ACTIVE && word(0) == 63 && rptr() == 1024);
	/* The ring itself not memory */
	s_setup(1024);
	fence_pkt(WORD(0), 1);
	sq.ring_base = 0x2000;
	srun(64);
	T(failed_with(HSAGPU_QERR_ADDRESS, 0));
}

/* Suspend, drain and error: like AQL queues. */
static void test_states(void)
{
	HsaGpuRunResult r;

	s_setup(1024);
	fence_pkt(WORD(0), 1);
	sq.state = HSAGPU_QSTATE_SUSPENDED;
	r = srun(64);
	T(r.progress == 0 && word(0) == 0);
	sq.state = HSAGPU_QSTATE_DRAINING;
	srun(64);
	T(word(0) == 1 && sq.state == HSAGPU_QSTATE_SUSPENDED);
	/* A drain waiting on a poll stays DRAINING. */
	sq.state = HSAGPU_QSTATE_ACTIVE;
	poll_pkt(WORD(1), 1, ~0U, HSAGPU_SDMA_FUNC_EQ);
	sq.state = HSAGPU_QSTATE_DRAINING;
	r = srun(64);
	T(r.poll && sq.state == HSAGPU_QSTATE_DRAINING);
	*(uint32_t *)at(WORD(1)) = 1;
	srun(64);
	T(sq.state == HSAGPU_QSTATE_SUSPENDED && rptr() == 40);
	/* Quantum: at most that many packets per turn */
	s_setup(1024);
	for (unsigned i = 0; i < 5; i++)
		fence_pkt(WORD(0), i + 1);
	r = srun(2);
	T(r.progress == 2 && word(0) == 2 && rptr() == 32);
	/* A queue in error does nothing more. */
	EMIT(3);
	srun_all();
	T(sq.state == HSAGPU_QSTATE_ERROR);
	fence_pkt(WORD(5), 1);
	r = srun(64);
	T(r.progress == 0 && word(5) == 0);
}

/*
 * One scheduling pass serves an SDMA ring next to an AQL queue: a poll
 * that waits does not hold up the AQL queue, and copies use the pass's
 * slice budget like DMA packets.
 */
static void noop_failed(void *opaque, unsigned qi)
{
}

static void test_sched(void)
{
	HsaGpuQueue qs[2];
	const uint16_t active[2] = { 0, 1 };
	unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1] = { 0 };
	struct hsagpu_agent_dispatch_packet a;
	HsaGpuBudget b = { 0 };
	HsaGpuProc pb = proc;
	HsaGpuPassResult pr;

	s_setup(1024);
	q_setup(0);             /* the AQL queue; keeps the SDMA ring */
	sig_init(0, 1);
	poll_pkt(WORD(1), 1, ~0U, HSAGPU_SDMA_FUNC_EQ);
	fence_pkt(WORD(2), 1);
	memset(&a, 0, sizeof(a));
	a.header = hdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0);
	a.type = HSAGPU_AGENT_NOP;
	a.completion_signal = SIG(0);
	submit(&a);
	qs[0] = sq;
	qs[1] = q;
	hsagpu_sched_pass(qs, active, 2, rr, &proc, 64, true, noop_failed,
			  NULL, &pr);
	T(pr.poll && sig_val(0) == 0 && word(2) == 0);
	*(uint32_t *)at(WORD(1)) = 1;
	hsagpu_sched_pass(qs, active, 2, rr, &proc, 64, true, noop_failed,
			  NULL, &pr);
	T(!pr.poll && word(2) == 1 && qs[0].state == HSAGPU_QSTATE_ACTIVE);
	/* Five copies, a budget of two slices: two copies this pass */
	for (unsigned i = 0; i < 5; i++)
		copy_pkt(BUF(1) + 64 * i, BUF(0) + 64 * i, 64);
	hsagpu_queue_doorbell(&qs[0]);  /* emit() rang sq, not its copy */
	b.slices = 2;
	b.packets = 64;
	pb.budget = &b;
	hsagpu_sched_pass(qs, active, 1, rr, &pb, 64, true, noop_failed, NULL,
			  &pr);
	T(pr.slices == 2 && pr.completed == 2 && pr.ended &&
	  rptr() == 40 + 2 * 28);
}

int main(void)
{
	mem = calloc(1, MEM_SIZE);
	test_registration();
	test_copy_linear();
	test_copy_broadcast();
	test_rocr_sequence();
	test_fence();
	test_fill();
	test_poll_funcs();
	test_timestamp();
	test_wrap_nop_padding();
	test_partial_packet();
	test_rect();
	test_rect_slices();
	test_atomic();
	test_errors();
	test_bad_wptr();
	test_states();
	test_sched();
	free(mem);
	return tap_done();
}
