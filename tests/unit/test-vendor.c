// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for AMD's vendor AQL packets (hsagpu-pm4.c and
 * the vendor part of hsagpu-queue.c): PM4_IB as ROCr 5.2.3 emits it
 * (AqlQueue::ExecutePM4 with GpuAgent::InvalidateCodeCaches' ACQUIRE_MEM)
 * and BARRIER_VALUE (hsa_amd_barrier_value_packet_t), against the fake
 * bus. TAP output.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"

#include "tap.h"

#include "fakebus.h"

#define IB      BUF(0)
#define RING2   BUF(2)
#define DESC2   (BUF(2) + 0x10000)

/* The ACQUIRE_MEM ROCr builds for gfx9 (InvalidateCodeCaches). */
static const uint32_t rocr_acquire_mem[7] = {
	HSAGPU_PM4_HDR(HSAGPU_PM4_OP_ACQUIRE_MEM, 7),
	(1U << 29) | (1U << 27) | (1U << 23) | (1U << 18),  /* SH I/K, TC, WB */
	0xffffffffU, 0xff, 0, 0, 0,
};

/* The AQL packet AqlQueue::ExecutePM4 writes on gfx9. */
static struct hsagpu_pm4_ib_packet pm4_pkt(uint64_t ib, uint32_t ndw,
					   uint64_t sig)
{
	struct hsagpu_pm4_ib_packet p;

	memset(&p, 0, sizeof(p));
	p.header = HSAGPU_PKT_TYPE_VENDOR_SPECIFIC;    /* ROCr: no fences */
	p.format = HSAGPU_VENDOR_FORMAT_PM4_IB;
	p.ib_jump_cmd[0] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4);
	p.ib_jump_cmd[1] = (uint32_t)ib & ~3U;
	p.ib_jump_cmd[2] = (uint32_t)(ib >> 32) & 0xffff;
	p.ib_jump_cmd[3] = ndw | HSAGPU_PM4_IB_VALID;
	p.dw_cnt_remain = 0xa;
	p.completion_signal = sig;
	return p;
}

/* ROCr's header check: the packet header word as published is 0x00010000. */
static void test_pm4_layout(void)
{
	struct hsagpu_pm4_ib_packet p = pm4_pkt(0x123456789abcULL, 7, 0);
	uint32_t w0;

	memcpy(&w0, &p, 4);
	T(w0 == 0x00010000);
	/* PM4_HDR(INDIRECT_BUFFER, 4, gfx9) as amd_gpu_pm4.h composes it */
	T(p.ib_jump_cmd[0] == 0xc0023f00);
	T(rocr_acquire_mem[0] == 0xc0055800);
	T(offsetof(struct hsagpu_pm4_ib_packet, dw_cnt_remain) == 20);
	T(offsetof(struct hsagpu_barrier_value_packet, signal) == 8 &&
	  offsetof(struct hsagpu_barrier_value_packet, value) == 16 &&
	  offsetof(struct hsagpu_barrier_value_packet, mask) == 24 &&
	  offsetof(struct hsagpu_barrier_value_packet, cond) == 32);
}

/* ROCr's code-cache invalidation completes, read index and signal. */
static void test_pm4_rocr(void)
{
	struct hsagpu_pm4_ib_packet p;
	HsaGpuRunResult r;

	q_setup(0);
	sig_init(0, 1);
	memcpy(at(IB), rocr_acquire_mem, sizeof(rocr_acquire_mem));
	/* ROCr waits on the read index: no completion signal */
	p = pm4_pkt(IB, 7, 0);
	submit(&p);
	r = run();
	T(!r.error && q.state == HSAGPU_QSTATE_ACTIVE);
	T(*(uint64_t *)at(RPTR) == 1);
	T(*(uint16_t *)at(RING) == HSAGPU_PKT_TYPE_INVALID);
	T(r.pm4_ibs == 1 && r.cache_invs == 1 && r.completed == 1);

	/* With a completion signal (and NOPs around it): decremented */
	{
		uint32_t *ib = at(IB + 0x100);

		ib[0] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 3);
		memcpy(&ib[3], rocr_acquire_mem, sizeof(rocr_acquire_mem));
		memcpy(&ib[10], rocr_acquire_mem, sizeof(rocr_acquire_mem));
		ib[17] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 2);
	}
	p = pm4_pkt(IB + 0x100, 19, SIG(0));
	submit(&p);
	r = run();
	T(!r.error && sig_val(0) == 0 && *(uint64_t *)at(RPTR) == 2);
	T(r.pm4_ibs == 1 && r.cache_invs == 2);
}

/* Malformed PM4: a queue error naming it, nothing completed, no hang. */
static void test_pm4_errors(void)
{
	static const struct {
		const char *what;
		unsigned err;
	} cases[] = {
		{ "jump opcode not INDIRECT_BUFFER", HSAGPU_QERR_PM4_IB },
		{ "jump of 5 dwords", HSAGPU_QERR_PM4_IB },
		{ "jump is a type-2 packet", HSAGPU_QERR_PM4_IB },
		{ "IB valid bit clear", HSAGPU_QERR_PM4_IB },
		{ "IB size 0", HSAGPU_QERR_PM4_IB },
		{ "IB size above 4 KiB", HSAGPU_QERR_PM4_IB },
		{ "IB base bits 1:0 set", HSAGPU_QERR_PM4_IB },
		{ "IB base above 48 bits", HSAGPU_QERR_PM4_IB },
		{ "IB base 0", HSAGPU_QERR_PM4_IB },
		{ "IB not memory", HSAGPU_QERR_ADDRESS },
		{ "IB runs past memory", HSAGPU_QERR_ADDRESS },
		{ "IB not mapped in the VM", HSAGPU_QERR_VM_FAULT },
		{ "type-0 register write", HSAGPU_QERR_PM4_PACKET },
		{ "type-1 packet", HSAGPU_QERR_PM4_PACKET },
		{ "SET_UCONFIG_REG: no registers", HSAGPU_QERR_PM4_PACKET },
		{ "unknown opcode 0xff", HSAGPU_QERR_PM4_PACKET },
		{ "gfx10 ACQUIRE_MEM (8 dwords)", HSAGPU_QERR_PM4_PACKET },
		{ "packet longer than the IB", HSAGPU_QERR_PM4_PACKET },
		{ "good ACQUIRE_MEM, then junk", HSAGPU_QERR_PM4_PACKET },
		{ "signal misaligned", HSAGPU_QERR_SIGNAL },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* The bad packet's IB is its own page. */
		struct hsagpu_pm4_ib_packet good = pm4_pkt(IB, 7, 0),
			p = pm4_pkt(IB + 0x1000, 7, SIG(0));
		uint32_t *ib = at(IB + 0x1000);
		HsaGpuRunResult r;

		q_setup(0);
		sig_init(0, 1);
		memcpy(at(IB), rocr_acquire_mem, sizeof(rocr_acquire_mem));
		memcpy(ib, rocr_acquire_mem, sizeof(rocr_acquire_mem));
		submit(&good);         /* the error id must be 1 */
		switch (i) {
		case 0: p.ib_jump_cmd[0] = HSAGPU_PM4_HDR(0x3e, 4); break;
		case 1: p.ib_jump_cmd[0] =
			HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 5); break;
		case 2: p.ib_jump_cmd[0] = 0x80000000; break;
		case 3: p.ib_jump_cmd[3] &= ~HSAGPU_PM4_IB_VALID; break;
		case 4: p.ib_jump_cmd[3] = HSAGPU_PM4_IB_VALID; break;
		case 5: p.ib_jump_cmd[3] = HSAGPU_PM4_IB_VALID |
			(HSAGPU_PM4_IB_MAX_DW + 1); break;
		case 6: p.ib_jump_cmd[1] |= 2; break;
		case 7: p.ib_jump_cmd[2] |= 0x10000; break;
		case 8: p.ib_jump_cmd[1] = 0; p.ib_jump_cmd[2] = 0; break;
		case 9: p.ib_jump_cmd[1] = 0x8000; break;
		case 10: /* an ACQUIRE_MEM whose body is past memory */
			*(uint32_t *)at(MEM_BASE + MEM_SIZE - 8) =
				rocr_acquire_mem[0];
			p = pm4_pkt(MEM_BASE + MEM_SIZE - 8, 7, SIG(0)); break;
		case 11: vmf_page = IB + 0x1000; break;
		case 12: ib[0] = 0x00001234; break;
		case 13: ib[0] = 0x40000000; break;
		case 14: ib[0] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3);
			ib[1] = 0x40; break;
		case 15: ib[0] = HSAGPU_PM4_HDR(0xff, 7); break;
		case 16: ib[0] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_ACQUIRE_MEM, 8);
			p.ib_jump_cmd[3] = HSAGPU_PM4_IB_VALID | 8; break;
		case 17: p.ib_jump_cmd[3] = HSAGPU_PM4_IB_VALID | 6; break;
		case 18: ib[7] = 0; p.ib_jump_cmd[3] = HSAGPU_PM4_IB_VALID | 8;
			break;
		case 19: p.completion_signal = SIG(0) + 4; break;
		}
		submit(&p);
		r = run();
		vmf_page = 0;
		TM(r.error && q.state == HSAGPU_QSTATE_ERROR &&
		   q.error == cases[i].err && q.error_id == 1,
		   "%s: error %u id %llu", cases[i].what, q.error,
		   (unsigned long long)q.error_id);
		T(sig_val(0) == 1 && *(uint64_t *)at(RPTR) == 1);
		/* The bad packet is still in its slot: it was not consumed. */
		T(*(uint16_t *)at(RING + 64) != HSAGPU_PKT_TYPE_INVALID);
	}
}

/*
 * The buffer runs on the device's one PM4 engine, as a compute ring's IB:
 * memory packets in the queue's space work (a WRITE_DATA, a COPY_DATA of
 * an immediate, a RELEASE_MEM fence without interrupt, a type-2 filler,
 * a COND_EXEC that skips), packets before a refused one have run, and a
 * wait that does not hold yet fails the queue instead of blocking it.
 */
static void test_pm4_engine(void)
{
	uint32_t *ib = at(IB + 0x200);
	struct hsagpu_pm4_ib_packet p;
	HsaGpuRunResult r;
	uint32_t n = 0;

	q_setup(0);
	sig_init(0, 1);
	memset(at(IB + 0x800), 0, 64);
	ib[n++] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5);
	ib[n++] = HSAGPU_PM4_SEL_MEM << 8 | 1u << 20;
	ib[n++] = (uint32_t)(IB + 0x800);
	ib[n++] = (uint32_t)((IB + 0x800) >> 32);
	ib[n++] = 0x600d;
	ib[n++] = 0x80000000;                   /* type-2 filler */
	ib[n++] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_COPY_DATA, 6);
	ib[n++] = HSAGPU_PM4_SEL_IMM | HSAGPU_PM4_SEL_MEM << 8;
	ib[n++] = 0xc0de;
	ib[n++] = 0;
	ib[n++] = (uint32_t)(IB + 0x808);
	ib[n++] = (uint32_t)((IB + 0x808) >> 32);
	/* COND_EXEC on a zero word: the next 5 dwords (a WRITE_DATA) skipped */
	ib[n++] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_COND_EXEC, 5);
	ib[n++] = (uint32_t)(IB + 0x830);
	ib[n++] = (uint32_t)((IB + 0x830) >> 32);
	ib[n++] = 0;
	ib[n++] = 5;
	ib[n++] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5);
	ib[n++] = HSAGPU_PM4_SEL_MEM << 8;
	ib[n++] = (uint32_t)(IB + 0x80c);
	ib[n++] = (uint32_t)((IB + 0x80c) >> 32);
	ib[n++] = 0xbad;
	ib[n++] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8);
	ib[n++] = 0x14 | 5 << 8;
	ib[n++] = HSAGPU_PM4_DATA_32 << 29;
	ib[n++] = (uint32_t)(IB + 0x810);
	ib[n++] = (uint32_t)((IB + 0x810) >> 32);
	ib[n++] = 42;
	ib[n++] = 0;
	ib[n++] = 0;
	memcpy(&ib[n], rocr_acquire_mem, sizeof(rocr_acquire_mem));
	n += 7;
	p = pm4_pkt(IB + 0x200, n, SIG(0));
	submit(&p);
	r = run();
	T(!r.error && q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0);
	T(*(uint32_t *)at(IB + 0x800) == 0x600d &&
	  *(uint32_t *)at(IB + 0x808) == 0xc0de &&
	  *(uint32_t *)at(IB + 0x80c) == 0 &&
	  *(uint32_t *)at(IB + 0x810) == 42);
	T(r.pm4_ibs == 1 && r.cache_invs == 1);

	/* a wait on memory that does not hold: error 22, the write ran */
	q_setup(0);
	sig_init(0, 1);
	memset(at(IB + 0x800), 0, 64);
	n = 0;
	ib[n++] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5);
	ib[n++] = HSAGPU_PM4_SEL_MEM << 8;
	ib[n++] = (uint32_t)(IB + 0x800);
	ib[n++] = (uint32_t)((IB + 0x800) >> 32);
	ib[n++] = 7;
	ib[n++] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WAIT_REG_MEM, 7);
	ib[n++] = HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_MEM;
	ib[n++] = (uint32_t)(IB + 0x820);
	ib[n++] = (uint32_t)((IB + 0x820) >> 32);
	ib[n++] = 1;
	ib[n++] = 0xffffffff;
	ib[n++] = 4;
	p = pm4_pkt(IB + 0x200, n, SIG(0));
	submit(&p);
	r = run();
	T(r.error && q.error == HSAGPU_QERR_PM4_PACKET && sig_val(0) == 1);
	T(*(uint32_t *)at(IB + 0x800) == 7);
	/* the same wait, its condition holding: it goes on */
	{
		uint32_t saved[16];

		memcpy(saved, ib, n * 4);
		q_setup(0);
		memcpy(ib, saved, n * 4);
	}
	sig_init(0, 1);
	*(uint32_t *)at(IB + 0x820) = 1;
	submit(&p);
	r = run();
	T(!r.error && sig_val(0) == 0);
}

static struct hsagpu_barrier_value_packet bv_pkt(uint64_t signal, int64_t value,
						 int64_t mask, uint32_t cond,
						 uint64_t sig)
{
	struct hsagpu_barrier_value_packet b;

	memset(&b, 0, sizeof(b));
	b.header = hdr(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC, 1);
	b.format = HSAGPU_VENDOR_FORMAT_BARRIER_VALUE;
	b.signal = signal;
	b.value = value;
	b.mask = mask;
	b.cond = cond;
	b.completion_signal = sig;
	return b;
}

static void set_sig(int n, int64_t v)
{
	((struct hsagpu_signal *)at(SIG(n)))->value = v;
}

/* Each condition holds the queue until it is met, masked and signed. */
static void test_barrier_value_conditions(void)
{
	static const struct {
		uint32_t cond;
		int64_t value, mask, before, after;
	} cases[] = {
		{ HSAGPU_SIGNAL_COND_EQ, 3, 0xff, 0x104, 0x503 },
		{ HSAGPU_SIGNAL_COND_NE, 0, -1, 0, -7 },
		{ HSAGPU_SIGNAL_COND_LT, 0, -1, 0, -1 },        /* signed */
		{ HSAGPU_SIGNAL_COND_LT, 10, 0xf, 0x1f, 0x19 },
		{ HSAGPU_SIGNAL_COND_GTE, 1, -1, -5, 1 },
		{ HSAGPU_SIGNAL_COND_GTE, 0x100, 0xf00, 0xff, 0x100 },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hsagpu_barrier_value_packet b =
			bv_pkt(SIG(1), cases[i].value, cases[i].mask,
			       cases[i].cond, SIG(0));
		HsaGpuRunResult r;

		q_setup(0);
		sig_init(0, 1);
		sig_init(1, cases[i].before);
		submit(&b);
		r = run();
		TM(!r.error && r.poll && !r.completed && sig_val(0) == 1 &&
		   *(uint64_t *)at(RPTR) == 0,
		   "case %u waits: error %d poll %d completed %u", i, r.error,
		   r.poll, r.completed);
		r = run();      /* re-checked, still not met */
		T(!r.error && sig_val(0) == 1);
		set_sig(1, cases[i].after);
		r = run();
		TM(!r.error && r.completed == 1 && sig_val(0) == 0 &&
		   *(uint64_t *)at(RPTR) == 1 &&
		   *(uint16_t *)at(RING) == HSAGPU_PKT_TYPE_INVALID,
		   "case %u completes once met", i);
	}

	/* Signal 0: a satisfied dependency */
	{
		struct hsagpu_barrier_value_packet b =
			bv_pkt(0, 5, -1, HSAGPU_SIGNAL_COND_EQ, SIG(0));

		q_setup(0);
		sig_init(0, 1);
		submit(&b);
		T(run().completed == 1 && sig_val(0) == 0);
	}
}

static void test_barrier_value_errors(void)
{
	static const struct {
		const char *what;
		unsigned err;
		uint64_t signal;
		uint32_t cond;
	} cases[] = {
		{ "condition 4", HSAGPU_QERR_CONDITION, SIG(1), 4 },
		{ "condition ~0", HSAGPU_QERR_CONDITION, 0, ~0U },
		{ "signal misaligned", HSAGPU_QERR_SIGNAL, SIG(1) + 4, 0 },
		{ "signal not memory", HSAGPU_QERR_ADDRESS, 0x8000, 0 },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hsagpu_barrier_value_packet b =
			bv_pkt(cases[i].signal, 0, -1, cases[i].cond, SIG(0));
		HsaGpuRunResult r;

		q_setup(0);
		sig_init(0, 1);
		sig_init(1, 0);
		submit(&b);
		r = run();
		TM(r.error && q.error == cases[i].err && q.error_id == 0 &&
		   sig_val(0) == 1, "%s: error %u", cases[i].what, q.error);
	}
}

static void noop_failed(void *opaque, unsigned qi)
{
	(*(unsigned *)opaque)++;
}

/* A queue held by BARRIER_VALUE does not hold the others of its level. */
static void test_barrier_value_fairness(void)
{
	static HsaGpuQueue qs[2];
	const uint16_t active[2] = { 0, 1 };
	unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1] = { 0 }, nfailed = 0;
	struct hsagpu_barrier_value_packet b =
		bv_pkt(SIG(1), 0, -1, HSAGPU_SIGNAL_COND_EQ, SIG(0));
	struct hsagpu_agent_dispatch_packet a;
	HsaGpuPassResult pr;
	uint8_t *slot;

	q_setup(0);
	sig_init(0, 1);
	sig_init(1, 1);
	sig_init(2, 3);
	submit(&b);
	qs[0] = q;
	/* The second queue: its own ring and descriptor, three NOPs */
	memset(&qs[1], 0, sizeof(qs[1]));
	qs[1].ring_lo = (uint32_t)RING2;
	qs[1].ring_size = RING_SZ;
	qs[1].rptr_lo = (uint32_t)(DESC2 + HSAGPU_QUEUE_DESC_RPTR);
	qs[1].wptr_lo = (uint32_t)(DESC2 + HSAGPU_QUEUE_DESC_WPTR);
	qs[1].doorbell = 2;
	qs[1].vector = 1;
	hsagpu_queue_start(&qs[1], 0);
	memset(&a, 0, sizeof(a));
	a.header = hdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0);
	a.type = HSAGPU_AGENT_NOP;
	a.completion_signal = SIG(2);
	for (unsigned n = 0; n < 3; n++) {
		slot = at(RING2 + 64 * n);
		memcpy(slot, &a, sizeof(a));
	}
	*(uint64_t *)at(DESC2 + HSAGPU_QUEUE_DESC_WPTR) = 3;
	hsagpu_queue_doorbell(&qs[1]);

	hsagpu_sched_pass(qs, active, 2, rr, &proc, 64, true, noop_failed,
			  &nfailed, &pr);
	T(sig_val(2) == 0 && sig_val(0) == 1 && pr.poll && !nfailed);
	T(qs[0].state == HSAGPU_QSTATE_ACTIVE && qs[0].read_index == 0);
	set_sig(1, 0);
	hsagpu_sched_pass(qs, active, 2, rr, &proc, 64, true, noop_failed,
			  &nfailed, &pr);
	T(sig_val(0) == 0 && qs[0].read_index == 1 && !nfailed);
}

#define AMDQ            (RPTR - HSAGPU_QUEUE_DESC_RPTR)    /* amd_queue_t */
#define AMDQ_PROPS      ((uint32_t *)at(AMDQ + HSAGPU_AMD_QUEUE_PROPERTIES))
#define AMDQ_INACTIVE   ((uint64_t *)at(AMDQ + HSAGPU_AMD_QUEUE_INACTIVE_SIGNAL))

static struct hsagpu_agent_dispatch_packet nop(unsigned type, uint64_t sig)
{
	struct hsagpu_agent_dispatch_packet a;

	memset(&a, 0, sizeof(a));
	a.header = hdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0);
	a.type = type;
	a.completion_signal = sig;
	return a;
}

/* amd_queue_t as ROCr 5.2.3 lays it out (amd_hsa_queue.h) */
static void test_amd_queue_layout(void)
{
	T(HSAGPU_QUEUE_DESC_WPTR == 56 && HSAGPU_QUEUE_DESC_RPTR == 128);
	T(HSAGPU_AMD_QUEUE_PROPERTIES == 180);
	T(HSAGPU_AMD_QUEUE_INACTIVE_SIGNAL == 192);
	/* The error codes ROCr's handler tells apart */
	T(hsagpu_amd_queue_code(HSAGPU_QERR_KERNEL_OBJECT) == 8);
	T(hsagpu_amd_queue_code(HSAGPU_QERR_DIMENSIONS) == 2);
	T(hsagpu_amd_queue_code(HSAGPU_QERR_PACKET_TYPE) == 32);
	T(hsagpu_amd_queue_code(HSAGPU_QERR_PM4_PACKET) == 256);
	T(hsagpu_amd_queue_code(HSAGPU_QERR_VENDOR_FORMAT) == 256);
	T(hsagpu_amd_queue_code(HSAGPU_QERR_DMA_OP) == 256);
	T(hsagpu_amd_queue_code(HSAGPU_QERR_VM_FAULT) == 0x20000000);
	T(hsagpu_amd_queue_code(HSAGPU_QERR_DEVICE_FATAL) == 0x80000000);
	/*
	 * None may have bits 0 or 10 (ROCr: insufficient scratch, a retry)
	 * or be 512 (scratch reclaim): the handler would resume the queue.
	 */
	for (unsigned e = 1; e < HSAGPU_QERR_COUNT + 4; e++) {
		uint32_t c = hsagpu_amd_queue_code(e);

		TM(c && !(c & 0x401) && c != 512, "code %u -> 0x%x", e, c);
	}
}

/* A queue error reaches ROCr through queue_inactive_signal. */
static void test_amd_queue_inactive(void)
{
	static const struct {
		const char *what;
		unsigned qerr;
	} cases[] = {
		{ "agent function", HSAGPU_QERR_AGENT_FUNCTION },
		{ "PM4", HSAGPU_QERR_PM4_IB },
		{ "VM fault", HSAGPU_QERR_VM_FAULT },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hsagpu_agent_dispatch_packet a = nop(99, SIG(0));
		struct hsagpu_pm4_ib_packet pm = pm4_pkt(IB, 0, SIG(0));
		struct hsagpu_signal *is = at(SIG(3));
		HsaGpuRunResult r;

		q_setup(HSAGPU_QF_AMD_QUEUE);
		sig_init(0, 1);
		sig_init(3, 0);
		is->event_mailbox_ptr = MBOX;
		is->event_id = 77;
		*(uint64_t *)at(MBOX) = 0;
		*AMDQ_INACTIVE = SIG(3);
		if (i == 0)
			submit(&a);
		else if (i == 1)
			submit(&pm);
		else {
			a = nop(HSAGPU_AGENT_WRITE_VALUE, SIG(0));
			a.return_address = BUF(4);
			vmf_page = BUF(4);
			submit(&a);
		}
		r = run();
		vmf_page = 0;
		T(r.error && q.error == cases[i].qerr);
		TM((uint64_t)is->value ==
		   (HSAGPU_AMD_QUEUE_ERROR | hsagpu_amd_queue_code(q.error)),
		   "%s: inactive signal 0x%llx", cases[i].what,
		   (unsigned long long)is->value);
		T(*(uint64_t *)at(MBOX) == 77 && irqs == 1 && last_vector == 3);
		T(sig_val(0) == 1);
	}

	/* Without the flag the descriptor is ours: nothing written there */
	{
		struct hsagpu_agent_dispatch_packet a = nop(99, 0);

		q_setup(0);
		sig_init(3, 0);
		*AMDQ_INACTIVE = SIG(3);
		submit(&a);
		T(run().error && sig_val(3) == 0 && irqs == 0);
	}
	/* A handle the device cannot reach: the queue still just fails */
	{
		struct hsagpu_agent_dispatch_packet a = nop(99, 0);

		q_setup(HSAGPU_QF_AMD_QUEUE);
		*AMDQ_INACTIVE = 0x8000;
		submit(&a);
		T(run().error && q.error == HSAGPU_QERR_AGENT_FUNCTION);
		q_setup(HSAGPU_QF_AMD_QUEUE);
		*AMDQ_INACTIVE = SIG(3) + 1;
		sig_init(3, 0);
		submit(&a);
		T(run().error && sig_val(3) == 0);
	}
}

/* Profiling follows queue_properties.ENABLE_PROFILING, read each time. */
static void test_amd_queue_profiling(void)
{
	struct hsagpu_agent_dispatch_packet a = nop(HSAGPU_AGENT_NOP, SIG(0));
	struct hsagpu_signal *s = at(SIG(0));

	q_setup(HSAGPU_QF_AMD_QUEUE);
	now_step = 10;
	sig_init(0, 1);
	*AMDQ_PROPS = HSAGPU_AMD_QUEUE_PROP_PROFILING | 1;
	submit(&a);
	run();
	T(sig_val(0) == 0 && s->start_ts && s->end_ts >= s->start_ts);
	sig_init(0, 1);
	*AMDQ_PROPS = 1;        /* trap handler bit only */
	submit(&a);
	run();
	T(sig_val(0) == 0 && !s->start_ts && !s->end_ts);
	/* Without the flag the descriptor's bit means nothing */
	q_setup(0);
	sig_init(0, 1);
	*AMDQ_PROPS = HSAGPU_AMD_QUEUE_PROP_PROFILING;
	submit(&a);
	run();
	T(sig_val(0) == 0 && !s->start_ts);
	now_step = 0;
}

/* ENABLE: amd_queue_t must be 64-byte aligned around the read index. */
static void test_amd_queue_registration(void)
{
	HsaGpuQueue r;

	memset(&r, 0, sizeof(r));
	r.ring_lo = (uint32_t)RING;
	r.ring_size = RING_SZ;
	r.rptr_lo = (uint32_t)RPTR;
	r.wptr_lo = (uint32_t)WPTR;
	r.flags = HSAGPU_QF_AMD_QUEUE;
	T(hsagpu_queue_check(&r, &ident, &r, 1) == HSAGPU_QRES_OK);
	r.rptr_lo = (uint32_t)RPTR + 8;
	T(hsagpu_queue_check(&r, &ident, &r, 1) == HSAGPU_QRES_BAD_POINTER);
	r.rptr_lo = 0x40;
	T(hsagpu_queue_check(&r, &ident, &r, 1) == HSAGPU_QRES_BAD_POINTER);
	r.flags = 0;
	T(hsagpu_queue_check(&r, &ident, &r, 1) == HSAGPU_QRES_OK);
	r.flags = 1U << 3;
	T(hsagpu_queue_check(&r, &ident, &r, 1) == HSAGPU_QRES_BAD_FLAGS);
}

int main(void)
{
	mem = calloc(1, MEM_SIZE);
	if (!mem)
		return 1;
	test_pm4_layout();
	test_pm4_rocr();
	test_pm4_errors();
	test_pm4_engine();
	test_barrier_value_conditions();
	test_barrier_value_errors();
	test_barrier_value_fairness();
	test_amd_queue_layout();
	test_amd_queue_inactive();
	test_amd_queue_profiling();
	test_amd_queue_registration();
	free(mem);
	return tap_done();
}
