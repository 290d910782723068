// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the SDMA engine (hsagpu-sdma.c) on amdgpu's kernel
 * rings (the Vega10 personality: the ops reach registers): every packet
 * Linux's sdma_v4_0.c emits on Vega10, in 6.1 and in 6.12 (their emit
 * functions are the same), written out here dword by dword as those
 * functions build them (the function in a comment): the ring and IB
 * tests, fences, traps, the HDP flush, register writes and waits, VM
 * flushes, page table updates, TTM copies and fills, NOP padding; an IB
 * that waits and resumes; what a hostile ring gets. Registers are a
 * plain file with the few behaviours of vega10-regs.c the packets wait
 * on; VMID 3 is a second address space over the same fake memory. TAP
 * output.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"

#include "tap.h"
#include "fakebus.h"

#define SRING   (MEM_BASE + 0x4000)     /* the ring: 8 KiB */
#define SRING_SZ 8192U
#define SRPTR   (MEM_BASE + 0x18000)
#define SWPTR   (MEM_BASE + 0x18008)
#define WB(n)   (MEM_BASE + 0x3c000 + 4 * (n))  /* adev->wb slots */
#define FENCE   (MEM_BASE + 0x3d000)            /* the ring's fence */
#define UFENCE  (MEM_BASE + 0x3d100)            /* a job's user fence */
#define IB(n)   (MEM_BASE + 0x40000 + 0x1000 * (n))
/* VMID 3: GPU addresses from VA3 are the fake memory from MEM_BASE */
#define VA3     0x7f0000000000ULL
#define V3(a)   (VA3 + ((a) - MEM_BASE))

/* Vega10's registers the packets name (absolute dword offsets) */
#define HDP_FLUSH_REQ   0x0e26  /* BIF_BX_PF0_GPU_HDP_FLUSH_REQ */
#define HDP_FLUSH_DONE  0x0e27
#define HDP_READ_INV    0x0ff1  /* HDP_READ_CACHE_INVALIDATE */
#define IH_LUT_MM       0x10b0  /* IH_VMID_0_LUT_MM */
#define MM_INV_SEM      0x1a6d1 /* MMHUB VM_INVALIDATE_ENG0_SEM */
#define MM_INV_REQ      0x1a6e3
#define MM_INV_ACK      0x1a6f5
#define MM_PTB_LO       0x1a72b /* VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32 */
#define MM_PTB_HI       0x1a72c
#define SDMA0_HDP_BIT   0x400   /* nbio 6.1 ref_and_mask_sdma0 */

#define LO(a) ((uint32_t)(a))
#define HI(a) ((uint32_t)((uint64_t)(a) >> 32))

/* ------------------------------------------------------------------ */
/* The personality: registers, traps, address spaces                  */

#define NREGS   (HSAGPU_SDMA_REG_MASK + 1)
static uint32_t regs[NREGS];
static unsigned reg_reads, reg_bad;
static struct {
	uint32_t reg, val;
} wlog[64];
static unsigned nwlog;
/* The HDP flush and invalidation acks only come when these are 0 */
static int hdp_lag, ack_lag;

static uint32_t k_reg_read(void *o, uint32_t reg)
{
	reg_reads++;
	if (reg >= NREGS) {
		reg_bad++;
		return 0;
	}
	if (reg >= MM_INV_SEM && reg < MM_INV_SEM + 18)
		return 1;       /* the semaphore is free: reading takes it */
	return regs[reg];
}

static void k_reg_write(void *o, uint32_t reg, uint32_t val)
{
	if (reg >= NREGS) {
		reg_bad++;
		return;
	}
	if (nwlog < 64) {
		wlog[nwlog].reg = reg;
		wlog[nwlog].val = val;
		nwlog++;
	}
	regs[reg] = val;
	if (reg == HDP_FLUSH_REQ && !hdp_lag)
		regs[HDP_FLUSH_DONE] = val;
	if (reg >= MM_INV_REQ && reg < MM_INV_REQ + 18 && !ack_lag)
		regs[reg - MM_INV_REQ + MM_INV_ACK] |= val & 0xffff;
}

static unsigned traps;
static uint32_t trap_ctx;

static void k_trap(void *o, uint32_t int_ctx)
{
	traps++;
	trap_ctx = int_ctx;
}

/*
 * set_vmid(): the space the next accesses are made in. VMID 0 reaches
 * the fake memory's bus addresses and faults on VA3's; VMID 3 the other
 * way round. vmid_seq: the VMIDs set, in order.
 */
static uint32_t cur_vmid;
static uint32_t vmid_seq[16];
static unsigned nvmid_seq, xl_faults;

static void k_set_vmid(void *o, uint32_t vmid)
{
	if (nvmid_seq < 16)
		vmid_seq[nvmid_seq] = vmid;
	nvmid_seq++;
	cur_vmid = vmid;
}

/* The bus address of @addr in the current space, or 0 (a VM fault) */
static uint64_t xl(uint64_t addr)
{
	if (cur_vmid == 3) {
		if (addr < VA3) {
			xl_faults++;
			return 0;
		}
		return addr - VA3 + MEM_BASE;
	}
	if (addr >= VA3) {
		xl_faults++;
		return 0;
	}
	return addr;
}

static unsigned k_read(void *o, unsigned client, uint64_t addr, void *buf,
		       uint64_t len)
{
	uint64_t a = xl(addr);

	return a ? f_read(o, client, a, buf, len) : HSAGPU_QERR_VM_FAULT;
}

static unsigned k_write(void *o, unsigned client, uint64_t addr,
			const void *buf, uint64_t len)
{
	uint64_t a = xl(addr);

	return a ? f_write(o, client, a, buf, len) : HSAGPU_QERR_VM_FAULT;
}

static unsigned k_add(void *o, unsigned client, uint64_t addr, uint64_t val,
		      uint64_t *old)
{
	uint64_t a = xl(addr);

	return a ? f_add(o, client, a, val, old) : HSAGPU_ATOMIC_ST_VM_FAULT;
}

static unsigned k_dma(void *o, uint64_t dst, uint64_t src, uint64_t len,
		      const uint32_t *pattern, uint64_t *bad)
{
	uint64_t d = xl(dst), s = pattern ? 0 : xl(src);

	if (!d || (!pattern && !s)) {
		*bad = !d ? dst : src;
		return HSAGPU_QERR_VM_FAULT;
	}
	return f_dma(o, d, s, len, pattern, bad);
}

/* kproc: a kernel ring's ops; nproc: without trap(); hproc: hsa-gpu's */
static HsaGpuQueueOps kops, nops_;
static HsaGpuProc kproc, nproc;
static const HsaGpuProc *hproc = &proc;

static void k_init(void)
{
	kops = ops;
	kops.read = k_read;
	kops.write = k_write;
	kops.fetch_add64 = k_add;
	kops.dma = k_dma;
	kops.map = NULL;
	kops.unmap = NULL;
	kops.reg_read = k_reg_read;
	kops.reg_write = k_reg_write;
	kops.trap = k_trap;
	kops.set_vmid = k_set_vmid;
	kproc = proc;
	kproc.ops = &kops;
	nops_ = kops;
	nops_.trap = NULL;
	nproc = kproc;
	nproc.ops = &nops_;
}

/* ------------------------------------------------------------------ */
/* The ring, as amdgpu_ring.c fills it                                */

static HsaGpuQueue sq;
static uint64_t swp;            /* write pointer, bytes */
static const HsaGpuProc *cur;   /* the ops the ring runs with */
static int burst_nop;           /* the firmware's feature version >= 20 */

static void s_setup(const HsaGpuProc *p)
{
	memset(mem, 0, MEM_SIZE);
	memset(regs, 0, sizeof(regs));
	memset(&sq, 0, sizeof(sq));
	sq.ring_lo = (uint32_t)SRING;
	sq.ring_size = SRING_SZ;
	sq.rptr_lo = (uint32_t)SRPTR;
	sq.wptr_lo = (uint32_t)SWPTR;
	sq.vector = 2;
	sq.flags = HSAGPU_QF_SDMA;
	hsagpu_queue_start(&sq, 0);
	cur = p;
	swp = 0;
	irqs = 0;
	traps = 0;
	trap_ctx = ~0U;
	reg_reads = reg_bad = 0;
	nwlog = 0;
	hdp_lag = ack_lag = 0;
	cur_vmid = 0;
	nvmid_seq = 0;
	xl_faults = 0;
	now = 1000;
	burst_nop = 1;
}

/* amdgpu_ring_write */
static void rw(uint32_t v)
{
	*(uint32_t *)at(SRING + (swp & (SRING_SZ - 1))) = v;
	swp += 4;
}

#define RW(...) do { \
	const uint32_t p_[] = { __VA_ARGS__ }; \
	for (unsigned i_ = 0; i_ < sizeof(p_) / 4; i_++) \
		rw(p_[i_]); \
} while (0)

/* sdma_v4_0_ring_insert_nop: a burst NOP counts the zeros after it */
static void insert_nop(uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		rw(burst_nop && !i ? (count - 1) << 16 : 0);
}

/* amdgpu_ring_commit: pad to align_mask + 1 (256 dwords), set_wptr */
static void commit(void)
{
	uint32_t wdw = swp / 4;

	insert_nop((256 - (wdw & 0xff)) & 0xff);
	*(uint64_t *)at(SWPTR) = swp;
	hsagpu_queue_doorbell(&sq);
}

/* sdma_v4_0_ring_emit_ib */
static void emit_ib(uint32_t vmid, uint64_t ib, uint32_t length_dw)
{
	insert_nop((2 - (uint32_t)(swp / 4)) & 7);
	RW(4 | (vmid & 0xf) << 16, LO(ib) & 0xffffffe0, HI(ib), length_dw, 0,
	   0);
}

/* sdma_v4_0_ring_emit_fence (AMDGPU_FENCE_FLAG_64BIT: @wide) */
static void emit_fence(uint64_t addr, uint64_t seq, int wide)
{
	RW(5, LO(addr), HI(addr), LO(seq));
	if (wide)
		RW(5, LO(addr + 4), HI(addr + 4), HI(seq));
	RW(6, 0);
}

/* sdma_v4_0_ring_emit_hdp_flush on engine @me (via wait_reg_mem) */
static void emit_hdp_flush(unsigned me)
{
	uint32_t ref_and_mask = SDMA0_HDP_BIT << me;

	RW(8 | 1U << 26 | 3U << 28, HDP_FLUSH_DONE << 2, HDP_FLUSH_REQ << 2,
	   ref_and_mask, ref_and_mask, 0xfffU << 16 | 10);
}

/* sdma_v4_0_ring_emit_pipeline_sync */
static void emit_pipeline_sync(uint64_t addr, uint32_t seq)
{
	RW(8 | 3U << 28 | 1U << 31, LO(addr) & 0xfffffffc, HI(addr), seq,
	   0xffffffff, 0xfffU << 16 | 4);
}

/* sdma_v4_0_ring_emit_wreg */
static void emit_wreg(uint32_t reg, uint32_t val)
{
	RW(14 | 0xfU << 28, reg, val);
}

/* sdma_v4_0_ring_emit_reg_wait */
static void emit_reg_wait(uint32_t reg, uint32_t val, uint32_t mask)
{
	RW(8 | 3U << 28, reg << 2, 0, val, mask, 0xfffU << 16 | 10);
}

/*
 * sdma_v4_0_ring_emit_vm_flush: gmc_v9_0_emit_flush_gpu_tlb on the
 * MMHUB (semaphore, eng_distance 1, ctx_addr_distance 2), flush type 0
 */
static void emit_vm_flush(unsigned vmid, uint64_t pd, unsigned eng)
{
	uint32_t req = 1U << vmid | 0x1fU << 18;  /* L2 PTEs/PDE0-2, L1 */

	emit_reg_wait(MM_INV_SEM + eng, 1, 1);
	emit_wreg(MM_PTB_LO + 2 * vmid, LO(pd));
	emit_wreg(MM_PTB_HI + 2 * vmid, HI(pd));
	/* amdgpu_ring_emit_reg_write_reg_wait_helper */
	emit_wreg(MM_INV_REQ + eng, req);
	emit_reg_wait(MM_INV_ACK + eng, 1U << vmid, 1U << vmid);
	emit_wreg(MM_INV_SEM + eng, 0);
}

static HsaGpuRunResult srun(unsigned quantum)
{
	HsaGpuRunResult r;

	hsagpu_queue_run(&sq, cur, quantum, &r);
	return r;
}

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

static uint32_t rd32(uint64_t a)
{
	return *(uint32_t *)at(a);
}

static uint64_t rd64(uint64_t a)
{
	return *(uint64_t *)at(a);
}

static int failed_with(unsigned err, uint64_t off)
{
	return sq.state == HSAGPU_QSTATE_ERROR && sq.error == err &&
	       sq.error_id == off && !sq.sdma_ib_active;
}

/*
 * A migration: a new queue with only what the queue's VMState carries
 * (hw/hsagpu/hsagpu-queue.c), checked as a destination checks it.
 */
static void migrate(void)
{
	HsaGpuQueue d;

	memset(&d, 0, sizeof(d));
	d.ring_lo = sq.ring_lo;
	d.ring_hi = sq.ring_hi;
	d.ring_size = sq.ring_size;
	d.rptr_lo = sq.rptr_lo;
	d.wptr_lo = sq.wptr_lo;
	d.vector = sq.vector;
	d.flags = sq.flags;
	d.state = sq.state;
	d.retired = sq.retired;
	d.ring_base = sq.ring_base;
	d.rptr_addr = sq.rptr_addr;
	d.wptr_addr = sq.wptr_addr;
	d.read_index = sq.read_index;
	d.as_vmid = sq.as_vmid;
	d.sdma_active = sq.sdma_active;
	memcpy(d.sdma_pkt, sq.sdma_pkt, sizeof(d.sdma_pkt));
	d.sdma_row = sq.sdma_row;
	d.sdma_ib_active = sq.sdma_ib_active;
	d.sdma_ib_vmid = sq.sdma_ib_vmid;
	d.sdma_ib_base = sq.sdma_ib_base;
	d.sdma_ib_size = sq.sdma_ib_size;
	d.sdma_ib_pos = sq.sdma_ib_pos;
	d.seen_wptr = sq.seen_wptr;
	d.fetch_wptr = sq.fetch_wptr;
	T(hsagpu_queue_loaded_ok(&d, &ident, &d, 1));
	sq = d;
}

static int all_bytes(uint64_t addr, uint64_t len, uint8_t v)
{
	const uint8_t *p = at(addr);

	for (uint64_t i = 0; i < len; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* IBs, as the job's amdgpu_ib is filled                             */

static uint32_t *ibp;
static uint32_t ib_len;

static void ib_begin(uint64_t bus_addr)
{
	ibp = at(bus_addr);
	ib_len = 0;
}

#define IW(...) do { \
	const uint32_t p_[] = { __VA_ARGS__ }; \
	for (unsigned i_ = 0; i_ < sizeof(p_) / 4; i_++) \
		ibp[ib_len++] = p_[i_]; \
} while (0)

/* sdma_v4_0_ring_pad_ib */
static void pad_ib(void)
{
	uint32_t pad = (0U - ib_len) & 7;

	for (uint32_t i = 0; i < pad; i++)
		IW(burst_nop && !i ? (pad - 1) << 16 : 0);
}

/* sdma_v4_0_vm_write_pte */
static void vm_write_pte(uint64_t pe, uint64_t value, unsigned count,
			 uint32_t incr)
{
	IW(2, LO(pe), HI(pe), count * 2 - 1);
	for (unsigned i = 0; i < count; i++, value += incr)
		IW(LO(value), HI(value));
}

/* sdma_v4_0_vm_set_pte_pde */
static void vm_set_pte_pde(uint64_t pe, uint64_t addr, unsigned count,
			   uint32_t incr, uint64_t flags)
{
	IW(12, LO(pe), HI(pe), LO(flags), HI(flags), LO(addr), HI(addr), incr,
	   0, count - 1);
}

/* sdma_v4_0_vm_copy_pte and sdma_v4_0_emit_copy_buffer (tmz false) */
static void copy_buffer(uint64_t src, uint64_t dst, uint32_t bytes)
{
	IW(1, bytes - 1, 0, LO(src), HI(src), LO(dst), HI(dst));
}

/* sdma_v4_0_emit_fill_buffer */
static void fill_buffer(uint32_t data, uint64_t dst, uint32_t bytes)
{
	IW(11, LO(dst), HI(dst), data, bytes - 1);
}

/* ------------------------------------------------------------------ */

/*
 * sdma_v4_0_ring_test_ring: a WRITE of 0xDEADBEEF over 0xCAFEDEAD in a
 * write-back slot, then the commit's padding: one burst NOP, or zeros.
 * Without register ops (hsa-gpu's user rings) WRITE runs as well.
 */
static void test_ring_test(void)
{
	for (int b = 0; b < 2; b++) {
		s_setup(&kproc);
		burst_nop = b;
		*(uint32_t *)at(WB(3)) = 0xCAFEDEAD;
		RW(2, LO(WB(3)), HI(WB(3)), 0, 0xDEADBEEF);
		commit();
		srun_all();
		TM(rd32(WB(3)) == 0xDEADBEEF && rd32(WB(4)) == 0,
		   "burst %d: 0xDEADBEEF written", b);
		TM(sq.state == HSAGPU_QSTATE_ACTIVE && rptr() == 1024 &&
		   sq.read_index == 1024 && sq.retired == 2,
		   "burst %d: write and padding consumed (%u)", b, sq.retired);
	}
	/* twice more: the ring test runs again after every resume */
	RW(2, LO(WB(3)), HI(WB(3)), 0, 0x12345678);
	commit();
	RW(2, LO(WB(4)), HI(WB(4)), 0, 0x9abcdef0);
	commit();
	srun_all();
	T(rd32(WB(3)) == 0x12345678 && rd32(WB(4)) == 0x9abcdef0 &&
	  rptr() == 3072 && sq.state == HSAGPU_QSTATE_ACTIVE);

	/* a user ring's WRITE (kfdtest's) too: memory in its own space */
	s_setup(hproc);
	*(uint32_t *)at(WB(3)) = 0xCAFEDEAD;
	RW(2, LO(WB(3)), HI(WB(3)), 0, 0xDEADBEEF);
	commit();
	srun_all();
	T(sq.state == HSAGPU_QSTATE_ACTIVE && rd32(WB(3)) == 0xDEADBEEF);
}

/*
 * sdma_v4_0_ring_test_ib: the WRITE and three NOPs in an 8-dword IB,
 * through amdgpu_ib_schedule: emit_ib, then the ring fence (32 bits)
 * and its TRAP. VMID 0 as amdgpu's (a job-less IB); and VMID 3, a user
 * job's: its packets read and write VMID 3's addresses.
 */
static void test_ib_test(void)
{
	for (int v3 = 0; v3 < 2; v3++) {
		uint32_t vmid = v3 ? 3 : 0;
		uint64_t wb = v3 ? V3(WB(5)) : WB(5);
		uint64_t ib = v3 ? V3(IB(1)) : IB(1);

		s_setup(&kproc);
		*(uint32_t *)at(WB(5)) = 0xCAFEDEAD;
		ib_begin(IB(1));
		IW(2, LO(wb), HI(wb), 0, 0xDEADBEEF, 0, 0, 0);
		T(ib_len == 8);
		emit_ib(vmid, ib, 8);
		emit_fence(FENCE, 41, 0);
		commit();
		T(swp / 4 == 256 && rd32(SRING + 8) == (4 | vmid << 16));
		srun_all();
		TM(rd32(WB(5)) == 0xDEADBEEF && rd32(FENCE) == 41,
		   "vmid %u: IB ran, then the fence", vmid);
		TM(traps == 1 && trap_ctx == 0 && irqs == 0,
		   "vmid %u: one trap, int_context 0", vmid);
		TM(sq.state == HSAGPU_QSTATE_ACTIVE && !sq.sdma_ib_active &&
		   rptr() == 1024 && !xl_faults && cur_vmid == 0,
		   "vmid %u: all consumed, no fault, back in VMID 0", vmid);
		/* NOPs to 8-dword alignment, INDIRECT, FENCE, TRAP, padding */
		TM(sq.retired == 5, "vmid %u: retired %u", vmid, sq.retired);
		if (v3)
			T(nvmid_seq >= 2 && vmid_seq[0] == 3 &&
			  vmid_seq[nvmid_seq - 1] == 0);
		else
			T(nvmid_seq == 0);
	}
	/* Another VMID with no set_vmid(): refused at the INDIRECT */
	{
		HsaGpuQueueOps o = kops;
		HsaGpuProc p = kproc;

		o.set_vmid = NULL;
		p.ops = &o;
		s_setup(&p);
		ib_begin(IB(1));
		IW(2, LO(V3(WB(5))), HI(V3(WB(5))), 0, 1, 0, 0, 0);
		emit_ib(3, V3(IB(1)), 8);
		commit();
		srun_all();
		T(failed_with(HSAGPU_QERR_SDMA_PACKET, 8) && rd32(WB(5)) == 0);
	}
}

/*
 * sdma_v4_0_ring_emit_fence with AMDGPU_FENCE_FLAG_64BIT (a job's user
 * fence): two FENCEs, low then high dword, and the TRAP; with the trap
 * op and without it (the vector).
 */
static void test_fence_trap(void)
{
	s_setup(&kproc);
	*(uint64_t *)at(UFENCE) = ~0ULL;
	emit_fence(UFENCE, 0x123456789aULL, 1);
	emit_fence(FENCE, 7, 0);
	commit();
	srun_all();
	T(rd64(UFENCE) == 0x123456789aULL && rd32(FENCE) == 7);
	T(traps == 2 && trap_ctx == 0 && irqs == 0);

	s_setup(&nproc);
	emit_fence(UFENCE, 0xfedcba9876543210ULL, 1);
	commit();
	srun_all();
	T(rd64(UFENCE) == 0xfedcba9876543210ULL && traps == 0 && irqs == 1 &&
	  last_vector == 2);

	/* int_context: bits 27:0 of the packet's second dword */
	s_setup(&kproc);
	RW(6, 0xf2345678);
	commit();
	srun_all();
	T(traps == 1 && trap_ctx == 0x02345678);
}

/*
 * sdma_v4_0_ring_emit_hdp_flush: a register poll with hdp_flush, done
 * register in addr_lo, request register in addr_hi, both << 2, ref =
 * mask = the engine's bit: the request is written once, DONE polled.
 */
static void test_hdp_flush(void)
{
	HsaGpuRunResult r;

	s_setup(&kproc);
	emit_hdp_flush(0);
	emit_fence(FENCE, 1, 0);
	commit();
	T(rd32(SRING) == 0x34000008 && rd32(SRING + 4) == 0x389c &&
	  rd32(SRING + 8) == 0x3898 && rd32(SRING + 20) == 0x0fff000a);
	srun_all();
	T(nwlog == 1 && wlog[0].reg == HDP_FLUSH_REQ &&
	  wlog[0].val == SDMA0_HDP_BIT && rd32(FENCE) == 1);
	T(!sq.sdma_poll_written && sq.state == HSAGPU_QSTATE_ACTIVE);

	/* DONE late: the turn ends, the request is not written again */
	s_setup(&kproc);
	hdp_lag = 1;
	emit_hdp_flush(1);
	emit_fence(FENCE, 2, 0);
	commit();
	r = srun(64);
	T(r.poll && !r.error && rd32(FENCE) == 0 && rptr() == 0);
	r = srun(64);
	T(r.poll && r.progress == 0 && nwlog == 1 &&
	  wlog[0].val == SDMA0_HDP_BIT << 1 && sq.sdma_poll_written);
	regs[HDP_FLUSH_DONE] = SDMA0_HDP_BIT << 1;
	r = srun(64);
	T(!r.poll && rd32(FENCE) == 2 && !sq.sdma_poll_written && nwlog == 1);
	/* the next flush asks again */
	emit_hdp_flush(1);
	commit();
	srun(64);
	T(nwlog == 2 && wlog[1].reg == HDP_FLUSH_REQ);

	/* hsa-gpu (no register ops): amdgpu's form is a no-op, as ROCr's */
	s_setup(hproc);
	emit_hdp_flush(0);
	emit_fence(FENCE, 3, 0);
	commit();
	srun_all();
	T(rd32(FENCE) == 3 && nwlog == 0 && sq.state == HSAGPU_QSTATE_ACTIVE);
}

/* sdma_v4_0_ring_emit_reg_wait: waits, then holds under its mask */
static void test_reg_wait(void)
{
	HsaGpuRunResult r;

	s_setup(&kproc);
	regs[0x1234] = 0xabcd0005;
	emit_reg_wait(0x1234, 0x6, 0xff);
	emit_fence(FENCE, 9, 0);
	commit();
	T(rd32(SRING) == 0x30000008 && rd32(SRING + 4) == 0x48d0 &&
	  rd32(SRING + 8) == 0);
	r = srun(64);
	T(r.poll && !r.error && rd32(FENCE) == 0 && sq.read_index == 0 &&
	  reg_reads == 1);
	r = srun(64);
	T(r.poll && r.progress == 0 && reg_reads == 2);
	regs[0x1234] = 0x12345606;      /* bits outside the mask differ */
	r = srun(64);
	T(!r.poll && rd32(FENCE) == 9 && rptr() == 1024 && !reg_bad);
}

/*
 * SRBM_WRITE: sdma_v4_0_ring_emit_wreg, and the VM flush it makes with
 * the reg waits (gmc_v9_0_emit_flush_gpu_tlb on the MMHUB, engine 1,
 * VMID 3), the PASID mapping (gmc_v9_0_emit_pasid_mapping) and the HDP
 * invalidate (hdp_v4_0_invalidate_hdp): written in order; the flush
 * waits for its ACK.
 */
static void test_wreg_vm_flush(void)
{
	const uint64_t pd = 0x00000000f4001000ULL | 1;  /* PDB, valid */
	HsaGpuRunResult r;

	s_setup(&kproc);
	emit_wreg(HDP_READ_INV, 1);
	commit();
	T(rd32(SRING) == 0xf000000e && rd32(SRING + 4) == HDP_READ_INV);
	srun_all();
	T(nwlog == 1 && wlog[0].reg == HDP_READ_INV && wlog[0].val == 1 &&
	  regs[HDP_READ_INV] == 1);

	s_setup(&kproc);
	ack_lag = 1;
	emit_vm_flush(3, pd, 1);
	emit_wreg(IH_LUT_MM + 3, 0x8001);
	emit_fence(FENCE, 5, 0);
	commit();
	r = srun(64);
	/* lo, hi, request written; waiting on the ACK */
	T(r.poll && nwlog == 3 && wlog[0].reg == MM_PTB_LO + 6 &&
	  wlog[0].val == LO(pd) && wlog[1].reg == MM_PTB_HI + 6 &&
	  wlog[1].val == HI(pd) && wlog[2].reg == MM_INV_REQ + 1 &&
	  wlog[2].val == 0x007c0008 && rd32(FENCE) == 0);
	regs[MM_INV_ACK + 1] = 1U << 3;
	r = srun(64);
	T(!r.poll && nwlog == 5 && wlog[3].reg == MM_INV_SEM + 1 &&
	  wlog[3].val == 0 && wlog[4].reg == IH_LUT_MM + 3 &&
	  wlog[4].val == 0x8001 && rd32(FENCE) == 5);

	/* Partial byte enables keep the other bytes */
	s_setup(&kproc);
	regs[0x2000] = 0x11223344;
	RW(14 | 0x5U << 28, 0x2000, 0xaabbccdd);
	RW(14, 0x2000, 0);      /* no byte enabled: nothing */
	commit();
	srun_all();
	T(regs[0x2000] == 0x11bb33dd && nwlog == 1 &&
	  sq.state == HSAGPU_QSTATE_ACTIVE);
}

/*
 * Page table updates as amdgpu_vm_sdma.c builds a job's IB (VMID 0):
 * vm_set_pte_pde for contiguous ranges (count - 1 entries in the
 * packet), vm_write_pte below 3 entries, vm_copy_pte from PTEs put at
 * the end of the IB; pad_ib.
 */
static void test_ptes(void)
{
	const uint64_t flags = 0x0040000000000073ULL;
	const uint64_t addr = 0x000000f412345000ULL;
	const uint64_t pt = BUF(0), tail = IB(2) + 0xf00;
	unsigned bad = 0;

	s_setup(&kproc);
	memset(at(pt), 0xee, 0x2000);
	for (unsigned i = 0; i < 4; i++)
		*(uint64_t *)at(tail + 8 * i) = 0x5000000ULL * i | 0x71;
	ib_begin(IB(2));
	vm_set_pte_pde(pt + 8, addr, 5, 0x1000, flags);
	vm_set_pte_pde(pt + 0x100, addr, 512, 0x200000, flags);
	vm_write_pte(pt + 0x1200, addr | flags, 2, 0x1000);
	copy_buffer(tail, pt + 0x1300, 4 * 8);
	/* the flags are ORed in: a bit the address has stays one bit */
	vm_set_pte_pde(pt + 0x1400, 0x1001, 3, 0x1000, 0x3);
	pad_ib();
	T(ib_len == 10 + 10 + 8 + 7 + 10 + 3 && ibp[45] == 2U << 16);
	emit_ib(0, IB(2), ib_len);
	emit_fence(FENCE, 1, 0);
	commit();
	srun_all();
	T(sq.state == HSAGPU_QSTATE_ACTIVE && rd32(FENCE) == 1);
	for (unsigned i = 0; i < 5; i++)
		bad += rd64(pt + 8 + 8 * i) != ((addr + 0x1000ULL * i) | flags);
	for (unsigned i = 0; i < 512; i++)
		bad += rd64(pt + 0x100 + 8 * i) !=
		       ((addr + 0x200000ULL * i) | flags);
	TM(!bad, "%u entries wrong", bad);
	T(all_bytes(pt, 8, 0xee) && all_bytes(pt + 48, 8, 0xee) &&
	  all_bytes(pt + 0x100 + 4096, 8, 0xee));
	T(rd64(pt + 0x1200) == (addr | flags) &&
	  rd64(pt + 0x1208) == ((addr + 0x1000) | flags) &&
	  all_bytes(pt + 0x1210, 8, 0xee));
	T(!memcmp(at(pt + 0x1300), at(tail), 32) &&
	  all_bytes(pt + 0x1320, 8, 0xee));
	T(rd64(pt + 0x1400) == 0x1003 && rd64(pt + 0x1408) == 0x2003 &&
	  rd64(pt + 0x1410) == 0x3003 && all_bytes(pt + 0x1418, 8, 0xee));
}

/*
 * TTM: amdgpu_copy_buffer and amdgpu_ttm_fill_mem through
 * sdma_v4_0_emit_copy_buffer / _fill_buffer (counts bytes - 1; the fill
 * of fillsize 0 stores the data's low byte), copy_max_bytes 4 MiB, an
 * odd size; amdgpu_ttm_map_buffer's copy of PTEs from the IB into the
 * GART table.
 */
static void test_copy_fill(void)
{
	const uint64_t gart = BUF(12);

	s_setup(&kproc);
	for (uint32_t i = 0; i < (4U << 20) / 4; i++)
		((uint32_t *)at(BUF(1)))[i] = i * 2654435761U;
	memset(at(BUF(6) - 64), 0xcc, (4U << 20) + 128);
	memset(at(BUF(11)), 0xee, 8192);
	for (unsigned i = 0; i < 8; i++)
		*(uint64_t *)at(IB(3) + 64 + 8 * i) = 0x1000ULL * i | 0x3;
	ib_begin(IB(3));
	copy_buffer(IB(3) + 64, gart, 64);
	pad_ib();
	T(ib_len == 8);
	emit_ib(0, IB(3), ib_len);
	ib_begin(IB(4));
	copy_buffer(BUF(1), BUF(6), 0x400000);
	copy_buffer(BUF(1) + 3, BUF(5) + 1, 13);
	fill_buffer(0, BUF(11) + 8, 4096);
	fill_buffer(0xd0bed0be, BUF(11) + 4200, 100);
	pad_ib();
	emit_ib(0, IB(4), ib_len);
	emit_fence(FENCE, 3, 0);
	commit();
	srun_all();
	T(sq.state == HSAGPU_QSTATE_ACTIVE && rd32(FENCE) == 3);
	T(!memcmp(at(gart), at(IB(3) + 64), 64));
	T(!memcmp(at(BUF(6)), at(BUF(1)), 4U << 20) &&
	  all_bytes(BUF(6) - 64, 64, 0xcc) &&
	  all_bytes(BUF(6) + (4U << 20), 64, 0xcc));
	T(!memcmp(at(BUF(5) + 1), at(BUF(1) + 3), 13) &&
	  all_bytes(BUF(5) + 14, 8, 0));
	T(all_bytes(BUF(11), 8, 0xee) && all_bytes(BUF(11) + 8, 4096, 0) &&
	  all_bytes(BUF(11) + 4104, 8, 0xee));
	T(all_bytes(BUF(11) + 4200, 100, 0xbe) &&
	  all_bytes(BUF(11) + 4300, 8, 0xee));
}

/*
 * NOP padding: insert_nop before an INDIRECT (to end it on an 8-dword
 * boundary) and the commit's, both forms; pad_ib's in an IB; a burst
 * NOP's count skips what follows it, whatever it is.
 */
static void test_nops(void)
{
	for (int b = 0; b < 2; b++) {
		s_setup(&kproc);
		burst_nop = b;
		ib_begin(IB(1));
		IW(5, LO(WB(0)), HI(WB(0)), 0x77);
		pad_ib();
		T(ib_len == 8 && ibp[4] == (b ? 3U << 16 : 0));
		RW(5, LO(WB(1)), HI(WB(1)), 1);         /* 4 dwords */
		emit_ib(0, IB(1), 8);                   /* 6 NOPs first */
		T(swp == 4 * (4 + 6 + 6));
		commit();
		srun_all();
		TM(rd32(WB(0)) == 0x77 && rd32(WB(1)) == 1 && rptr() == 1024 &&
		   sq.state == HSAGPU_QSTATE_ACTIVE, "burst %d", b);
	}
	s_setup(&kproc);
	ib_begin(IB(1));
	IW(3U << 16, 0xffffffff, 0xdeadbeef, 0x12345678,
	   5, LO(WB(0)), HI(WB(0)), 0x55);
	emit_ib(0, IB(1), 8);
	commit();
	srun_all();
	T(rd32(WB(0)) == 0x55 && sq.state == HSAGPU_QSTATE_ACTIVE);
}

/*
 * A VMID 3 IB whose memory poll (emit_pipeline_sync's form) does not
 * hold: the turn ends inside the IB (its cursor in the queue, the
 * INDIRECT still at the read index, the queue's VMID back), the cursor
 * passes the migration checks, and the IB resumes at the poll.
 */
static void test_ib_poll_resume(void)
{
	HsaGpuRunResult r;

	s_setup(&kproc);
	ib_begin(IB(1));
	IW(2, LO(V3(WB(0))), HI(V3(WB(0))), 0, 0xaaaa);
	IW(8 | 3U << 28 | 1U << 31, LO(V3(WB(8))), HI(V3(WB(8))), 1,
	   0xffffffff, 0xfffU << 16 | 4);
	IW(2, LO(V3(WB(1))), HI(V3(WB(1))), 0, 0xbbbb);
	pad_ib();
	emit_ib(3, V3(IB(1)), ib_len);
	emit_fence(FENCE, 2, 0);
	commit();
	r = srun(64);
	T(r.poll && !r.error && rd32(WB(0)) == 0xaaaa && rd32(WB(1)) == 0 &&
	  rd32(FENCE) == 0);
	T(sq.sdma_ib_active && sq.sdma_ib_pos == 5 && sq.sdma_ib_vmid == 3 &&
	  sq.sdma_ib_size == 16 && sq.sdma_ib_base == V3(IB(1)));
	T(sq.read_index == 8 && rptr() == 8 && cur_vmid == 0 && !xl_faults);
	T(hsagpu_sdma_cursor_ok(&sq) &&
	  hsagpu_queue_loaded_ok(&sq, &ident, &sq, 1));
	migrate();
	r = srun(64);
	T(r.poll && r.progress == 0 && sq.sdma_ib_pos == 5);
	/* a drain waits for the IB too */
	sq.state = HSAGPU_QSTATE_DRAINING;
	r = srun(64);
	T(r.poll && sq.state == HSAGPU_QSTATE_DRAINING);
	*(uint32_t *)at(WB(8)) = 1;
	r = srun(64);
	T(!r.poll && rd32(WB(1)) == 0xbbbb && rd32(FENCE) == 2 &&
	  !sq.sdma_ib_active && rptr() == 1024 && cur_vmid == 0 &&
	  !xl_faults && traps == 1 && sq.state == HSAGPU_QSTATE_SUSPENDED);

	/*
	 * The write pointer taken back to the INDIRECT while its IB waits:
	 * the IB still ends, nothing stale after it runs, and the next
	 * fetch is a ring overrun.
	 */
	s_setup(&kproc);
	ib_begin(IB(1));
	IW(8 | 3U << 28 | 1U << 31, LO(WB(8)), HI(WB(8)), 1, 0xffffffff,
	   0xfffU << 16 | 4);
	IW(5, LO(WB(1)), HI(WB(1)), 3);
	pad_ib();
	emit_ib(0, IB(1), ib_len);
	emit_fence(FENCE, 4, 0);
	commit();
	r = srun(64);
	T(r.poll && sq.sdma_ib_active && sq.read_index == 8);
	*(uint64_t *)at(SWPTR) = 8;
	hsagpu_queue_doorbell(&sq);
	*(uint32_t *)at(WB(8)) = 1;
	r = srun(64);
	T(!r.error && rd32(WB(1)) == 3 && rd32(FENCE) == 0 &&
	  sq.read_index == 32 && !sq.sdma_ib_active);
	hsagpu_queue_doorbell(&sq);
	srun(64);
	T(failed_with(HSAGPU_QERR_RING_OVERRUN, 32) && rd32(FENCE) == 0);

	/* A rect copy in slices inside an IB: both cursors, then done */
	s_setup(&kproc);
	memset(at(BUF(0)), 0x5a, 12290 * 64);
	ib_begin(IB(1));
	IW(1 | 4 << 8, LO(BUF(0)), HI(BUF(0)), 0, 63 << 13, 64 * 2458 - 1,
	   LO(BUF(8)), HI(BUF(8)), 0, 63 << 13, 64 * 2458 - 1,
	   63 | 2457 << 16, 4);
	IW(5, LO(WB(2)), HI(WB(2)), 6);
	pad_ib();
	emit_ib(0, IB(1), ib_len);
	commit();
	r = srun(64);
	T(r.slices == 1 && sq.sdma_active && sq.sdma_ib_active &&
	  sq.sdma_ib_pos == 0 && hsagpu_sdma_cursor_ok(&sq));
	migrate();
	srun_all();
	T(all_bytes(BUF(8), 12290 * 64, 0x5a) && rd32(WB(2)) == 6 &&
	  !sq.sdma_active && !sq.sdma_ib_active &&
	  sq.state == HSAGPU_QSTATE_ACTIVE);
}

/*
 * The IB's packets count in the quantum and the pass's packet budget;
 * a large WRITE or PTEPDE is a DMA slice.
 */
static void test_budget(void)
{
	HsaGpuRunResult r;

	s_setup(&kproc);
	ib_begin(IB(1));
	for (unsigned i = 0; i < 10; i++)
		IW(5, LO(WB(0)), HI(WB(0)), i + 1);
	emit_ib(0, IB(1), ib_len);
	commit();
	/* the ring's NOPs, then four of the IB */
	r = srun(5);
	T(r.progress == 5 && rd32(WB(0)) == 4 && sq.sdma_ib_pos == 16 &&
	  sq.sdma_ib_active);
	srun_all();
	T(rd32(WB(0)) == 10 && !sq.sdma_ib_active);

	s_setup(&kproc);
	ib_begin(IB(1));
	vm_set_pte_pde(BUF(0), 0, 1024, 0x1000, 1);
	vm_set_pte_pde(BUF(0), 0, 16, 0x1000, 1);
	pad_ib();
	emit_ib(0, IB(1), ib_len);
	commit();
	r = srun(64);
	T(r.slices == 1 && rd64(BUF(0) + 8 * 1023) == (1023ULL << 12 | 1));
}

/* Each hostile form: the queue error at the offending ring packet */
static void test_hostile(void)
{
	static const struct {
		const char *what;
		uint32_t dw[12];
		unsigned n, err;
	} c[] = {
		{ "INDIRECT size 0", { 4, LO(IB(1)), 0, 0, 0, 0 }, 6,
		  HSAGPU_QERR_SDMA_PACKET },
		{ "INDIRECT size 2^20", { 4, LO(IB(1)), 0, 1U << 20, 0, 0 }, 6,
		  HSAGPU_QERR_SDMA_PACKET },
		{ "INDIRECT header bit 20", { 4 | 1U << 20, LO(IB(1)), 0, 8, 0,
		  0 }, 6, HSAGPU_QERR_SDMA_PACKET },
		{ "INDIRECT sub-op 1", { 0x104, LO(IB(1)), 0, 8, 0, 0 }, 6,
		  HSAGPU_QERR_SDMA_OPCODE },
		{ "INDIRECT base misaligned", { 4, LO(IB(1)) + 4, 0, 8, 0, 0 },
		  6, HSAGPU_QERR_ALIGNMENT },
		{ "INDIRECT wrapping", { 4, 0xffffffe0, 0xffffffff, 16, 0, 0 },
		  6, HSAGPU_QERR_ADDRESS },
		{ "INDIRECT to a hole", { 4, 0x1000, 0, 8, 0, 0 }, 6,
		  HSAGPU_QERR_ADDRESS },
		{ "INDIRECT past the end of memory",
		  { 4, LO(MEM_BASE + MEM_SIZE - 64), 0, 0xfffff, 0, 0 }, 6,
		  HSAGPU_QERR_ADDRESS },
		{ "WRITE longer than the ring", { 2, LO(WB(0)), 0, 0xfffff, 1 },
		  5, HSAGPU_QERR_SDMA_PACKET },
		{ "WRITE swap", { 2, LO(WB(0)), 0, 1U << 24, 1 }, 5,
		  HSAGPU_QERR_SDMA_PACKET },
		{ "WRITE tmz", { 2 | 1U << 18, LO(WB(0)), 0, 0, 1 }, 5,
		  HSAGPU_QERR_SDMA_PACKET },
		{ "WRITE tiled", { 0x102, LO(WB(0)), 0, 0, 1 }, 5,
		  HSAGPU_QERR_SDMA_OPCODE },
		{ "WRITE misaligned", { 2, LO(WB(0)) + 2, 0, 0, 1 }, 5,
		  HSAGPU_QERR_ALIGNMENT },
		{ "WRITE to a hole", { 2, 0x1000, 0, 0, 1 }, 5,
		  HSAGPU_QERR_ADDRESS },
		{ "WRITE wrapping", { 2, 0xfffffffc, 0xffffffff, 1, 1, 2 }, 6,
		  HSAGPU_QERR_ADDRESS },
		{ "PTEPDE count bit 19", { 12, LO(BUF(0)), 0, 0, 0, 0, 0, 0, 0,
		  1U << 19 }, 10, HSAGPU_QERR_SDMA_PACKET },
		{ "PTEPDE header bits", { 12 | 1U << 31, LO(BUF(0)), 0, 0, 0,
		  0, 0, 0, 0, 0 }, 10, HSAGPU_QERR_SDMA_PACKET },
		{ "PTEPDE copy", { 0x10c, LO(BUF(0)), 0, 0, 0, 0, 0, 0, 0, 0 },
		  10, HSAGPU_QERR_SDMA_OPCODE },
		{ "PTEPDE misaligned", { 12, LO(BUF(0)) + 4, 0, 0, 0, 0, 0, 0,
		  0, 0 }, 10, HSAGPU_QERR_ALIGNMENT },
		{ "PTEPDE past the end of memory", { 12,
		  LO(MEM_BASE + MEM_SIZE - 4096), 0, 1, 0, 0, 0, 8, 0,
		  0x7ffff }, 10, HSAGPU_QERR_ADDRESS },
		{ "SRBM_WRITE address bit 18", { 14 | 0xfU << 28, 1U << 18, 1 },
		  3, HSAGPU_QERR_SDMA_PACKET },
		{ "SRBM_WRITE header bits", { 14 | 0xfU << 28 | 1U << 16, 0x10,
		  1 }, 3, HSAGPU_QERR_SDMA_PACKET },
		{ "SRBM_WRITE sub-op 1", { 0x10e | 0xfU << 28, 0x10, 1 }, 3,
		  HSAGPU_QERR_SDMA_OPCODE },
		{ "POLL register misaligned", { 0x30000008, 0x1235, 0, 0, ~0U,
		  0 }, 6, HSAGPU_QERR_SDMA_PACKET },
		{ "POLL register above 18 bits", { 0x30000008, 1U << 20, 0, 0,
		  ~0U, 0 }, 6, HSAGPU_QERR_SDMA_PACKET },
		{ "POLL register, addr_hi set", { 0x30000008, 0x1234, 4, 0, ~0U,
		  0 }, 6, HSAGPU_QERR_SDMA_PACKET },
		{ "HDP flush, bad request register", { 0x34000008, 0x389c,
		  0x389e, 1, 1, 0 }, 6, HSAGPU_QERR_SDMA_PACKET },
		{ "POLL register func 7", { 0x70000008, 0x1234, 0, 0, ~0U, 0 },
		  6, HSAGPU_QERR_SDMA_PACKET },
	};

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		s_setup(&kproc);
		emit_fence(WB(7), 1, 0);
		for (unsigned k = 0; k < c[i].n; k++)
			rw(c[i].dw[k]);
		emit_fence(WB(7), 2, 0);
		*(uint64_t *)at(SWPTR) = swp;
		hsagpu_queue_doorbell(&sq);
		srun_all();
		TM(failed_with(c[i].err, 24) && rd32(WB(7)) == 1 && rptr() == 24 &&
		   !reg_bad && cur_vmid == 0,
		   "%s: error %u at %llu (want %u at 24)", c[i].what, sq.error,
		   (unsigned long long)sq.error_id, c[i].err);
	}
}

/* Hostile IBs: the error names the INDIRECT; what ran before stays */
static void test_hostile_ib(void)
{
	/* an IB inside an IB */
	s_setup(&kproc);
	ib_begin(IB(2));
	IW(5, LO(WB(0)), HI(WB(0)), 1);
	IW(4, LO(IB(1)), HI(IB(1)), 8, 0, 0);
	IW(5, LO(WB(1)), HI(WB(1)), 1);
	emit_ib(0, IB(2), ib_len);
	emit_fence(WB(2), 1, 0);
	commit();
	srun_all();
	T(failed_with(HSAGPU_QERR_SDMA_PACKET, 8) && rd32(WB(0)) == 1 &&
	  rd32(WB(1)) == 0 && rd32(WB(2)) == 0);

	/* a packet running past the IB's end (a FENCE in a 2-dword IB) */
	s_setup(&kproc);
	ib_begin(IB(2));
	IW(5, LO(WB(0)), HI(WB(0)), 1);
	emit_ib(0, IB(2), 2);
	commit();
	srun_all();
	T(failed_with(HSAGPU_QERR_SDMA_PACKET, 8) && rd32(WB(0)) == 0);

	/* a WRITE and a burst NOP whose counts run past the IB's end */
	s_setup(&kproc);
	ib_begin(IB(2));
	IW(2, LO(WB(0)), HI(WB(0)), 0xfffff, 1, 2, 3, 4);
	emit_ib(0, IB(2), 8);
	commit();
	srun_all();
	T(failed_with(HSAGPU_QERR_SDMA_PACKET, 8) && rd32(WB(0)) == 0);
	s_setup(&kproc);
	ib_begin(IB(2));
	IW(5, LO(WB(0)), HI(WB(0)), 1, 7U << 16, 0, 0, 0);
	emit_ib(0, IB(2), 8);
	commit();
	srun_all();
	T(failed_with(HSAGPU_QERR_SDMA_PACKET, 8) && rd32(WB(0)) == 1);

	/* an unknown opcode and a VM fault inside an IB; ring fence after */
	s_setup(&kproc);
	ib_begin(IB(2));
	IW(0xff, 0, 0, 0, 0, 0, 0, 0);
	emit_ib(0, IB(2), 8);
	emit_fence(WB(2), 1, 0);
	commit();
	srun_all();
	T(failed_with(HSAGPU_QERR_SDMA_OPCODE, 8) && rd32(WB(2)) == 0);
	s_setup(&kproc);
	ib_begin(IB(2));
	IW(5, LO(WB(0)), HI(WB(0)), 1, 0, 0, 0, 0);
	emit_ib(3, V3(IB(2)), 8);       /* a bus address in VMID 3 */
	commit();
	srun_all();
	T(failed_with(HSAGPU_QERR_VM_FAULT, 8) && rd32(WB(0)) == 0 &&
	  cur_vmid == 0);

	/* The cursor checks of a migrated queue */
	s_setup(&kproc);
	sq.sdma_ib_active = 1;
	sq.sdma_ib_vmid = 3;
	sq.sdma_ib_base = IB(1);
	sq.sdma_ib_size = 8;
	sq.sdma_ib_pos = 7;
	T(hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_ib_pos = 8;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_ib_pos = 0;
	sq.sdma_ib_active = 2;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_ib_active = 1;
	sq.sdma_ib_vmid = 16;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_ib_vmid = 0;
	sq.sdma_ib_size = 0;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_ib_size = 1U << 20;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_ib_size = 8;
	sq.sdma_ib_base = IB(1) + 16;
	T(!hsagpu_sdma_cursor_ok(&sq));
	sq.sdma_ib_base = 0xffffffffffffffe0ULL;
	T(!hsagpu_sdma_cursor_ok(&sq));
	T(!hsagpu_queue_loaded_ok(&sq, &ident, &sq, 1));
	sq.sdma_ib_base = IB(1);
	T(hsagpu_queue_loaded_ok(&sq, &ident, &sq, 1));
	/* a loaded IB in another VMID, where set_vmid() is missing */
	{
		HsaGpuQueueOps o = kops;
		HsaGpuProc p = kproc;

		o.set_vmid = NULL;
		p.ops = &o;
		s_setup(&p);
		ib_begin(IB(1));
		IW(5, LO(V3(WB(0))), HI(V3(WB(0))), 1, 0, 0, 0, 0);
		emit_ib(0, IB(1), 8);
		commit();
		sq.sdma_ib_active = 1;
		sq.sdma_ib_vmid = 3;
		sq.sdma_ib_base = V3(IB(1));
		sq.sdma_ib_size = 8;
		sq.sdma_ib_pos = 0;
		sq.read_index = 8;
		srun_all();
		T(failed_with(HSAGPU_QERR_SDMA_PACKET, 8) && rd32(WB(0)) == 0 &&
		  !xl_faults);
	}
}

/*
 * The kernel-ring packets a user's ring may not send (hsa-gpu's, without
 * register ops; amdkfd's RLC queues): unknown opcodes (24), a register
 * poll 25
 */
static const struct {
	const char *what;
	uint32_t dw[10];
	unsigned n, err;
} kernel_only[] = {
	{ "PTEPDE", { 12, LO(BUF(0)), 0, 0, 0, 0, 0, 0, 0, 0 }, 10,
	  HSAGPU_QERR_SDMA_OPCODE },
	{ "SRBM_WRITE", { 0xf000000e, 0x10, 1 }, 3, HSAGPU_QERR_SDMA_OPCODE },
	{ "reg wait", { 0x30000008, 0x1234 << 2, 0, 0, ~0U, 0x0fff000a }, 6,
	  HSAGPU_QERR_SDMA_PACKET },
};
#define NKERNEL_ONLY (sizeof(kernel_only) / sizeof(kernel_only[0]))

/* ... on a ring without register ops (hsa-gpu, fed by user space) */
static void test_no_reg_ops(void)
{
	for (unsigned i = 0; i < NKERNEL_ONLY; i++) {
		s_setup(hproc);
		emit_fence(WB(7), 1, 0);
		for (unsigned k = 0; k < kernel_only[i].n; k++)
			rw(kernel_only[i].dw[k]);
		emit_fence(WB(7), 2, 0);
		*(uint64_t *)at(SWPTR) = swp;
		hsagpu_queue_doorbell(&sq);
		srun_all();
		TM(failed_with(kernel_only[i].err, 24) && rd32(WB(7)) == 1 &&
		   nwlog == 0 && reg_reads == 0 && irqs == 1,
		   "%s: error %u at %llu (want %u at 24)", kernel_only[i].what,
		   sq.error, (unsigned long long)sq.error_id, kernel_only[i].err);
	}
	/* ... but an IB, in the ring's own space whatever VMID it names */
	s_setup(hproc);
	memset(at(WB(9)), 0, 4);
	ib_begin(IB(1));
	IW(2, LO(WB(9)), 0, 0, 0x4242);
	pad_ib();
	RW(4 | 5U << 16, LO(IB(1)), 0, ib_len, 0, 0);
	*(uint64_t *)at(SWPTR) = swp;
	hsagpu_queue_doorbell(&sq);
	srun_all();
	TM(sq.state == HSAGPU_QSTATE_ACTIVE && rd32(WB(9)) == 0x4242 &&
	   nwlog == 0 && reg_reads == 0,
	   "an IB on a user-fed ring: state %u error %u, 0x%x", sq.state,
	   sq.error, rd32(WB(9)));
}

/*
 * amdkfd's RLC queue on the same personality (HSAGPU_QF_OWN_USER, with
 * the register ops there): ROCr's packets run, its HDP flush touches no
 * register; the kernel-ring packets are refused as on hsa-gpu's user
 * rings. Its write pointer is given (HSAGPU_QF_OWN_WPTR), never read
 * from memory: the queue has no address for it.
 */
static void u_setup(void)
{
	s_setup(&kproc);
	memset(&sq, 0, sizeof(sq));
	sq.ring_lo = (uint32_t)SRING;
	sq.ring_size = SRING_SZ;
	sq.rptr_lo = (uint32_t)SRPTR;
	sq.doorbell = HSAGPU_DOORBELL_NONE;
	sq.flags = HSAGPU_QF_SDMA | HSAGPU_QF_OWN | HSAGPU_QF_OWN_WPTR |
		   HSAGPU_QF_OWN_USER;
	T(hsagpu_queue_check_registration(&sq, &ident, &sq, 1) ==
	  HSAGPU_QRES_OK);
	hsagpu_queue_start(&sq, 0);
}

/* the doorbell's value, as hsagpu_queue_own_wptr() gives it */
static void u_ring(void)
{
	sq.seen_wptr = swp;
	hsagpu_queue_doorbell(&sq);
}

static void test_user_ring(void)
{
	HsaGpuQueue d;

	/* BlitSdma's HDP flush (a register poll's flush form), fences, trap */
	u_setup();
	RW(8 | 1U << 26 | 3U << 28, 0, 0, 0, 0, 0xfffU << 16 | 10);
	emit_fence(WB(7), 5, 0);
	RW(6, 0x1234);
	u_ring();
	srun_all();
	TM(sq.state == HSAGPU_QSTATE_ACTIVE && rptr() == swp &&
	   rd32(WB(7)) == 5 && traps == 2 && trap_ctx == 0x1234,
	   "user ring: state %u error %u", sq.state, sq.error);
	T(nwlog == 0 && reg_reads == 0 && xl_faults == 0);
	/* nothing new without a new write pointer */
	hsagpu_queue_doorbell(&sq);
	srun_all();
	T(rptr() == swp && traps == 2);
	/*
	 * WRITE_LINEAR (kfdtest's SDMAWriteDataPacket): memory in the
	 * queue's space, a user's packet as on gfx9's RLC queues
	 */
	emit_fence(WB(8), 0, 0);
	RW(2, LO(WB(8)), 0, 1, 0x1111, 0x2222);
	u_ring();
	srun_all();
	TM(sq.state == HSAGPU_QSTATE_ACTIVE && rd32(WB(8)) == 0x1111 &&
	   rd32(WB(8) + 4) == 0x2222 && rptr() == swp,
	   "user ring WRITE_LINEAR of 2 dwords: state %u, 0x%x 0x%x",
	   sq.state, rd32(WB(8)), rd32(WB(8) + 4));
	/* it migrates without a write pointer address, and only so */
	d = sq;
	T(hsagpu_queue_loaded_ok(&d, &ident, &d, 1));
	d.wptr_lo = (uint32_t)SWPTR;
	T(!hsagpu_queue_loaded_ok(&d, &ident, &d, 1));
	d = sq;
	d.flags &= ~HSAGPU_QF_OWN;
	T(!hsagpu_queue_loaded_ok(&d, &ident, &d, 1));

	/*
	 * INDIRECT from a user's ring: its IB runs in the ring's own space
	 * whatever VMID the packet names (7 here: with no set_vmid() a
	 * kernel ring would be refused), one level deep. Before, a queue
	 * error.
	 */
	u_setup();
	memset(at(WB(9)), 0, 16);
	ib_begin(IB(1));
	IW(2, LO(WB(9)), 0, 0, 0xabcd);
	IW(4, LO(IB(2)), 0, 8, 0, 0);           /* nested: refused */
	pad_ib();
	RW(4 | 7U << 16, LO(IB(1)), 0, ib_len, 0, 0);
	u_ring();
	srun_all();
	TM(rd32(WB(9)) == 0xabcd && failed_with(HSAGPU_QERR_SDMA_PACKET, 0) &&
	   nwlog == 0 && reg_reads == 0,
	   "user INDIRECT: 0x%x written, state %u error %u", rd32(WB(9)),
	   sq.state, sq.error);
	u_setup();
	ib_begin(IB(1));
	IW(2, LO(WB(9)), 0, 0, 0x5678);
	pad_ib();
	RW(4 | 7U << 16, LO(IB(1)), 0, ib_len, 0, 0);
	emit_fence(WB(7), 9, 0);
	u_ring();
	srun_all();
	TM(sq.state == HSAGPU_QSTATE_ACTIVE && rd32(WB(9)) == 0x5678 &&
	   rd32(WB(7)) == 9 && rptr() == swp,
	   "user INDIRECT then a fence: state %u error %u, 0x%x", sq.state,
	   sq.error, rd32(WB(9)));

	for (unsigned i = 0; i < NKERNEL_ONLY; i++) {
		u_setup();
		emit_fence(WB(7), 1, 0);
		for (unsigned k = 0; k < kernel_only[i].n; k++)
			rw(kernel_only[i].dw[k]);
		emit_fence(WB(7), 2, 0);
		u_ring();
		srun_all();
		TM(failed_with(kernel_only[i].err, 24) && rd32(WB(7)) == 1 &&
		   nwlog == 0 && reg_reads == 0,
		   "%s: error %u at %llu (want %u at 24)", kernel_only[i].what,
		   sq.error, (unsigned long long)sq.error_id, kernel_only[i].err);
	}
}

/*
 * A whole frame of amdgpu_ib_schedule for a user job with a VM flush
 * (the same in 6.1 and 6.12): amdgpu_vm_flush (pipeline sync, VM flush,
 * PASID mapping, its fence), the HDP flush, the IB (VMID 3: a copy, a
 * fill), the HDP invalidate, the user fence (64-bit), the ring fence,
 * the commit's padding; then the next frame, across the ring's end.
 */
static void test_frame(void)
{
	s_setup(&kproc);
	for (unsigned f = 0; f < 10; f++) {
		for (unsigned i = 0; i < 4096; i++)
			*(uint8_t *)at(BUF(1) + i) = (uint8_t)(i * 7 + f);
		*(uint32_t *)at(FENCE) = 10 + 2 * f;
		ib_begin(IB(1));
		copy_buffer(V3(BUF(1)), V3(BUF(2)), 4096);
		fill_buffer(0, V3(BUF(3)), 8192);
		pad_ib();
		emit_pipeline_sync(FENCE, 10 + 2 * f);
		emit_vm_flush(3, 0xf400a000ULL | 1, 1);
		emit_wreg(IH_LUT_MM + 3, 0x8003);
		emit_fence(FENCE, 11 + 2 * f, 0);
		emit_hdp_flush(0);
		emit_ib(3, V3(IB(1)), ib_len);
		emit_wreg(HDP_READ_INV, 1);
		emit_fence(UFENCE, 0x100000000ULL + f, 1);
		emit_fence(FENCE, 12 + 2 * f, 0);
		commit();
		memset(at(BUF(3)), 0xff, 8192);
		nwlog = 0;
		traps = 0;
		srun_all();
		TM(rd32(FENCE) == 12 + 2 * f &&
		   rd64(UFENCE) == 0x100000000ULL + f && traps == 3,
		   "frame %u: fences and traps", f);
		TM(!memcmp(at(BUF(2)), at(BUF(1)), 4096) &&
		   all_bytes(BUF(3), 8192, 0), "frame %u: copy and fill", f);
		TM(nwlog == 7 && wlog[0].reg == MM_PTB_LO + 6 &&
		   wlog[3].reg == MM_INV_SEM + 1 &&
		   wlog[4].reg == IH_LUT_MM + 3 &&
		   wlog[5].reg == HDP_FLUSH_REQ && wlog[6].reg == HDP_READ_INV,
		   "frame %u: register writes in order", f);
		TM(sq.state == HSAGPU_QSTATE_ACTIVE && rptr() == swp &&
		   !sq.sdma_ib_active && !xl_faults && cur_vmid == 0,
		   "frame %u: all consumed", f);
	}
	T(swp > SRING_SZ);
}

/*
 * One scheduling pass serves the kernel ring next to an AQL queue: an
 * IB waiting on a poll holds up neither the AQL queue nor the pass; the
 * IB's packets use the pass's packet budget.
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
	HsaGpuProc pb = kproc;
	HsaGpuPassResult pr;

	s_setup(&kproc);
	q_setup(0);             /* clears memory: the SDMA ring is empty */
	sig_init(0, 1);
	ib_begin(IB(1));
	IW(8 | 3U << 28 | 1U << 31, LO(WB(8)), HI(WB(8)), 1, ~0U,
	   0xfffU << 16 | 4);
	IW(5, LO(WB(1)), HI(WB(1)), 7);
	pad_ib();
	emit_ib(0, IB(1), ib_len);
	commit();
	memset(&a, 0, sizeof(a));
	a.header = hdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0);
	a.type = HSAGPU_AGENT_NOP;
	a.completion_signal = SIG(0);
	submit(&a);
	qs[0] = sq;
	qs[1] = q;
	hsagpu_sched_pass(qs, active, 2, rr, &kproc, 64, true, noop_failed,
			  NULL, &pr);
	T(pr.poll && sig_val(0) == 0 && rd32(WB(1)) == 0 &&
	  qs[0].sdma_ib_active && cur_vmid == 0);
	*(uint32_t *)at(WB(8)) = 1;
	hsagpu_sched_pass(qs, active, 2, rr, &kproc, 64, true, noop_failed,
			  NULL, &pr);
	T(!pr.poll && rd32(WB(1)) == 7 && !qs[0].sdma_ib_active &&
	  qs[0].state == HSAGPU_QSTATE_ACTIVE);

	/* 20 fences in an IB, a budget of 8 packets a pass */
	s_setup(&kproc);
	ib_begin(IB(1));
	for (unsigned i = 0; i < 20; i++)
		IW(5, LO(WB(0)), HI(WB(0)), i + 1);
	emit_ib(0, IB(1), ib_len);
	commit();
	qs[0] = sq;
	b.slices = HSAGPU_PASS_SLICES;
	b.packets = 8;
	pb.budget = &b;
	hsagpu_sched_pass(qs, active, 1, rr, &pb, 64, true, noop_failed, NULL,
			  &pr);
	/* the ring's NOPs, then 7 of the IB */
	T(pr.ended && rd32(WB(0)) == 7 && qs[0].sdma_ib_pos == 28);
}

int main(void)
{
	mem = calloc(1, MEM_SIZE);
	k_init();
	test_ring_test();
	test_ib_test();
	test_fence_trap();
	test_hdp_flush();
	test_reg_wait();
	test_wreg_vm_flush();
	test_ptes();
	test_copy_fill();
	test_nops();
	test_ib_poll_resume();
	test_budget();
	test_hostile();
	test_hostile_ib();
	test_no_reg_ops();
	test_user_ring();
	test_frame();
	test_sched();
	free(mem);
	return tap_done();
}
