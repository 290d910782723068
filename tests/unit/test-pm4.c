// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the PM4 ring engine (hw/hsagpu/cp/hsagpu-pm4.c,
 * hsagpu_pm4_ring_run): the packets amdgpu's gfx9 rings carry, in the
 * forms gfx_v9_0.c emits them (ring and IB tests, fences, register
 * writes and waits, the KIQ's packets), framing (fillers, wrap, packets
 * not all written yet, budgets), and what stops a ring. TAP output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"

#include "tap.h"

/* GPU memory: one 1 MiB space per VMID, addresses from MEM_BASE */
#define MEM_BASE        0x400000ULL
#define MEM_SIZE        (1u << 20)
#define NVMID           4
#define RING            (MEM_BASE + 0x1000)
#define RING_DW         64u
#define NREG            0x10000

static uint8_t mem[NVMID][MEM_SIZE];
static uint32_t regs[NREG];
static unsigned reg_writes[NREG];
static uint32_t eops[16], neops;
static uint32_t kiq_pkt[64], kiq_n, kiq_calls;
static uint64_t clk = 0x1122334455667788ULL;
static unsigned bad_accesses;

static uint8_t *at(uint32_t vmid, uint64_t addr, uint32_t len)
{
	if (vmid >= NVMID || addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE ||
	    len > MEM_SIZE - (addr - MEM_BASE))
		return NULL;
	return &mem[vmid][addr - MEM_BASE];
}

static unsigned f_read(void *o, uint32_t vmid, uint64_t addr, void *buf,
		       uint32_t len)
{
	uint8_t *p = at(vmid, addr, len);

	if (!p) {
		bad_accesses++;
		return 1;
	}
	memcpy(buf, p, len);
	return 0;
}

static unsigned f_write(void *o, uint32_t vmid, uint64_t addr,
			const void *buf, uint32_t len)
{
	uint8_t *p = at(vmid, addr, len);

	if (!p) {
		bad_accesses++;
		return 1;
	}
	memcpy(p, buf, len);
	return 0;
}

static uint32_t f_reg_read(void *o, uint32_t reg)
{
	return reg < NREG ? regs[reg] : 0;
}

static void f_reg_write(void *o, uint32_t reg, uint32_t val)
{
	if (reg < NREG) {
		regs[reg] = val;
		reg_writes[reg]++;
	}
	/* an HDP flush: DONE (reg 0x101) follows REQ (0x100) */
	if (reg == 0x100)
		regs[0x101] = val;
}

static void f_eop(void *o, uint32_t ctx)
{
	if (neops < 16)
		eops[neops++] = ctx;
}

static uint64_t f_clock(void *o)
{
	return clk;
}

static unsigned f_kiq(void *o, const uint32_t *pk, uint32_t n)
{
	kiq_calls++;
	kiq_n = n;
	memcpy(kiq_pkt, pk, n * 4 < sizeof(kiq_pkt) ? n * 4 : sizeof(kiq_pkt));
	return 0;
}

static HsaGpuPm4Ops ops = {
	.read = f_read, .write = f_write, .reg_read = f_reg_read,
	.reg_write = f_reg_write, .eop = f_eop, .gpu_clock = f_clock,
};

static HsaGpuPm4Ring ring;
static uint64_t wptr;

static void reset(void)
{
	memset(mem, 0, sizeof(mem));
	memset(regs, 0, sizeof(regs));
	memset(reg_writes, 0, sizeof(reg_writes));
	neops = kiq_calls = kiq_n = bad_accesses = 0;
	memset(&ring, 0, sizeof(ring));
	ring.base = RING;
	ring.size_dw = RING_DW;
	wptr = 0;
	ops.queue_packet = NULL;
	ops.reg_read = f_reg_read;
	ops.reg_write = f_reg_write;
}

/* amdgpu_ring_write: a dword at the write pointer, wrapping */
static void emit(uint32_t v)
{
	uint32_t *r = (uint32_t *)at(0, RING, RING_DW * 4);

	r[wptr % RING_DW] = v;
	wptr++;
}

#define HDR(op, ndw) HSAGPU_PM4_HDR(op, ndw)

static uint32_t *m32(uint32_t vmid, uint64_t addr)
{
	return (uint32_t *)at(vmid, addr, 4);
}

static HsaGpuPm4Outcome run(void)
{
	return hsagpu_pm4_ring_run(&ring, wptr, &ops, 1000);
}

/* gfx_v9_0_ring_test_ring: SET_UCONFIG_REG of SCRATCH_REG0 */
static void test_ring_test(void)
{
	reset();
	regs[0xc040] = 0xcafedead;
	emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
	emit(0xc040 - HSAGPU_PM4_UCONFIG_REG_START);
	emit(0xdeadbeef);
	T(run() == HSAGPU_PM4_IDLE);
	T(regs[0xc040] == 0xdeadbeef);
	T(ring.rptr == 3);
	T(ring.packets == 1);
	/* a register range overrun stops the ring */
	emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 4));
	emit(0x3ff);
	emit(1);
	emit(2);
	T(run() == HSAGPU_PM4_STOPPED);
	T(ring.error == HSAGPU_PM4_ERR_PACKET);
	T(regs[0xc3ff] == 0);
	/* and it stays stopped */
	T(run() == HSAGPU_PM4_STOPPED);
	T(ring.rptr == 3);
}

static void test_framing(void)
{
	reset();
	/* amdgpu's one-dword filler, then a NOP whose body is not read */
	emit(HDR(HSAGPU_PM4_OP_NOP, HSAGPU_PM4_NOP_FILLER + 2));
	emit(0x80000000u);                  /* type 2 */
	emit(HDR(HSAGPU_PM4_OP_NOP, 5));
	emit(0xffffffff);
	emit(0x00000000);                   /* a type-0 header: skipped */
	emit(0x12345678);
	emit(0xffffffff);
	T(run() == HSAGPU_PM4_IDLE);
	T(ring.rptr == 7);
	T(ring.packets == 3);

	/* a packet that wraps over the ring's end */
	reset();
	ring.rptr = RING_DW - 2;
	wptr = RING_DW - 2;
	emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 4));
	emit(0x41);
	emit(0x11);
	emit(0x22);
	T(run() == HSAGPU_PM4_IDLE);
	T(regs[0xc041] == 0x11 && regs[0xc042] == 0x22);
	T(ring.rptr == 2);

	/* a packet not all written yet waits, then runs */
	reset();
	emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
	emit(0x40);
	T(run() == HSAGPU_PM4_WAIT);
	T(ring.rptr == 0);
	emit(7);
	T(run() == HSAGPU_PM4_IDLE);
	T(regs[0xc040] == 7);

	/* budget: two of three, then the third */
	reset();
	for (int i = 0; i < 3; i++) {
		emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
		emit(0x40 + i);
		emit(i + 1);
	}
	T(hsagpu_pm4_ring_run(&ring, wptr, &ops, 2) == HSAGPU_PM4_BUDGET);
	T(regs[0xc041] == 2 && regs[0xc042] == 0);
	T(run() == HSAGPU_PM4_IDLE);
	T(regs[0xc042] == 3);

	/* type 0, an unknown opcode, a packet longer than the ring */
	reset();
	emit(0x00010000);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_TYPE);
	reset();
	emit(HDR(0x15, 5));                 /* DISPATCH_DIRECT */
	for (int i = 0; i < 4; i++)
		emit(0);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_OPCODE);
	T(ring.error_hdr == HDR(0x15, 5));
	reset();
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, RING_DW + 2));
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PACKET);
	/* a ring the engine cannot read */
	reset();
	ring.base = 0x1000;
	wptr = 4;
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_MEMORY);
	/* sizes that are not a ring */
	reset();
	ring.size_dw = 48;
	wptr = 1;
	T(run() == HSAGPU_PM4_STOPPED);
}

static void test_write_data(void)
{
	reset();
	/* gfx_v9_0_ring_emit_fence_kiq: memory, then CPC_INT_STATUS */
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	emit(HSAGPU_PM4_SEL_MEM << 8 | 1u << 20);
	emit((uint32_t)(MEM_BASE + 0x100));
	emit((uint32_t)((MEM_BASE + 0x100) >> 32));
	emit(42);
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	emit(HSAGPU_PM4_SEL_REG << 8 | 1u << 20);
	emit(0x3100);
	emit(0);
	emit(0x20000000);
	/* three dwords in a row, then three to one address */
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 7));
	emit(HSAGPU_PM4_SEL_MEM << 8);
	emit((uint32_t)(MEM_BASE + 0x200));
	emit(0);
	emit(1);
	emit(2);
	emit(3);
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 7));
	emit(HSAGPU_PM4_SEL_MEM << 8 | HSAGPU_PM4_WD_ONE_ADDR);
	emit((uint32_t)(MEM_BASE + 0x300));
	emit(0);
	emit(4);
	emit(5);
	emit(6);
	T(run() == HSAGPU_PM4_IDLE);
	T(*m32(0, MEM_BASE + 0x100) == 42);
	T(regs[0x3100] == 0x20000000);
	T(*m32(0, MEM_BASE + 0x200) == 1 && *m32(0, MEM_BASE + 0x208) == 3);
	T(*m32(0, MEM_BASE + 0x300) == 6 && *m32(0, MEM_BASE + 0x304) == 0);
	/* unaligned, and a fault */
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	emit(HSAGPU_PM4_SEL_MEM << 8);
	emit((uint32_t)(MEM_BASE + 0x102));
	emit(0);
	emit(1);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PACKET);
	reset();
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	emit(HSAGPU_PM4_SEL_MEM << 8);
	emit(0x100);
	emit(0);
	emit(1);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_MEMORY);
	/* no registers on this ring: register packets are refused */
	reset();
	ops.reg_write = NULL;
	emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
	emit(0x40);
	emit(1);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_OPCODE);
}

static void wait_pkt(uint32_t ctl, uint32_t a0, uint32_t a1, uint32_t ref,
		     uint32_t mask)
{
	emit(HDR(HSAGPU_PM4_OP_WAIT_REG_MEM, 7));
	emit(ctl);
	emit(a0);
	emit(a1);
	emit(ref);
	emit(mask);
	emit(0x20);
}

static void test_wait_reg_mem(void)
{
	reset();
	/* memory, equal: waits until the value is there */
	wait_pkt(HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_MEM,
		 (uint32_t)(MEM_BASE + 0x40), 0, 5, 0xff);
	emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
	emit(0x40);
	emit(9);
	T(run() == HSAGPU_PM4_WAIT);
	T(ring.rptr == 0 && regs[0xc040] == 0);
	*m32(0, MEM_BASE + 0x40) = 0x1205;          /* masked: 5 */
	T(run() == HSAGPU_PM4_IDLE);
	T(regs[0xc040] == 9);

	/* HDP flush: write REQ once, wait for DONE; polled three times */
	reset();
	ops.reg_write = f_reg_write;
	wait_pkt(HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_WRITE_FIRST, 0x100,
		 0x101, 0x4, 0x4);
	T(run() == HSAGPU_PM4_IDLE);
	T(regs[0x100] == 4 && reg_writes[0x100] == 1);
	/* a wait that holds only later writes its request once */
	wait_pkt(HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_WRITE_FIRST, 0x200,
		 0x201, 0x1, 0x1);
	T(run() == HSAGPU_PM4_WAIT);
	T(run() == HSAGPU_PM4_WAIT);
	T(reg_writes[0x200] == 1);
	regs[0x201] = 1;
	T(run() == HSAGPU_PM4_IDLE);
	T(reg_writes[0x200] == 1);
	/*
	 * amdgpu's TLB flush through the KIQ: the request is written whole,
	 * the wait is for its VMID's bit of the acknowledgement
	 */
	wait_pkt(HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_WRITE_FIRST, 0x400,
		 0x401, 0x00f80100 | 1u << 8, 1u << 8);
	T(run() == HSAGPU_PM4_WAIT);
	T(regs[0x400] == (0x00f80100 | 1u << 8));
	regs[0x401] = 1u << 8;
	T(run() == HSAGPU_PM4_IDLE);
	/* functions: greater-or-equal on a register */
	regs[0x300] = 10;
	wait_pkt(HSAGPU_PM4_FUNC_GE, 0x300, 0, 11, ~0u);
	T(run() == HSAGPU_PM4_WAIT);
	regs[0x300] = 11;
	T(run() == HSAGPU_PM4_IDLE);
	/* function 7 does not exist; write-then-wait on memory neither */
	wait_pkt(7, 0x300, 0, 0, 0);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PACKET);
	reset();
	wait_pkt(HSAGPU_PM4_WAIT_MEM | HSAGPU_PM4_WAIT_WRITE_FIRST | 3,
		 (uint32_t)MEM_BASE, 0, 0, 0);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PACKET);
}

static void release_mem(uint32_t data, uint32_t irq, uint64_t addr,
			uint64_t seq, uint32_t ctx)
{
	emit(HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8));
	emit(0x14 | 5 << 8);
	emit(data << 29 | irq << 24);
	emit((uint32_t)addr);
	emit((uint32_t)(addr >> 32));
	emit((uint32_t)seq);
	emit((uint32_t)(seq >> 32));
	emit(ctx);
}

static void test_release_mem(void)
{
	uint64_t v;

	reset();
	/* gfx_v9_0_ring_emit_fence: 32-bit, 64-bit with an interrupt */
	release_mem(HSAGPU_PM4_DATA_32, HSAGPU_PM4_INT_NONE, MEM_BASE + 0x10,
		    0xaaaabbbbccccddddULL, 0);
	release_mem(HSAGPU_PM4_DATA_64, HSAGPU_PM4_INT_CONFIRMED,
		    MEM_BASE + 0x20, 0x0102030405060708ULL, 77);
	release_mem(HSAGPU_PM4_DATA_GPU_CLOCK, HSAGPU_PM4_INT_NONE,
		    MEM_BASE + 0x30, 0, 0);
	release_mem(HSAGPU_PM4_DATA_NONE, HSAGPU_PM4_INT_ONLY, 0, 0, 78);
	T(run() == HSAGPU_PM4_IDLE);
	T(*m32(0, MEM_BASE + 0x10) == 0xccccdddd);
	T(*m32(0, MEM_BASE + 0x14) == 0);
	memcpy(&v, at(0, MEM_BASE + 0x20, 8), 8);
	T(v == 0x0102030405060708ULL);
	memcpy(&v, at(0, MEM_BASE + 0x30, 8), 8);
	T(v == clk);
	T(neops == 2 && eops[0] == 77 && eops[1] == 78);
	/*
	 * the MEC's other INT_SELs (kfdtest's): the data with no
	 * interrupt; an interrupt unconditionally
	 */
	release_mem(HSAGPU_PM4_DATA_32, HSAGPU_PM4_INT_DATA_CONFIRMED,
		    MEM_BASE + 0x38, 0xdeadbeef, 79);
	release_mem(HSAGPU_PM4_DATA_NONE, HSAGPU_PM4_INT_ALWAYS, 0, 0, 80);
	T(run() == HSAGPU_PM4_IDLE);
	T(*m32(0, MEM_BASE + 0x38) == 0xdeadbeef);
	T(neops == 3 && eops[2] == 80);
	/* a conditional interrupt (INT_SEL 5) is refused */
	release_mem(HSAGPU_PM4_DATA_32, 5, MEM_BASE + 0x3c, 1, 81);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PACKET);
	T(neops == 3);
	/* a 64-bit write must be 8-byte aligned */
	reset();
	release_mem(HSAGPU_PM4_DATA_64, 0, MEM_BASE + 0x44, 1, 0);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PACKET);
	T(neops == 0);
}

static void ib_pkt(uint32_t op, uint64_t addr, uint32_t ndw, uint32_t vmid,
		   bool valid)
{
	emit(HDR(op, 4));
	emit((uint32_t)addr);
	emit((uint32_t)(addr >> 32));
	emit(ndw | vmid << 24 | (valid ? HSAGPU_PM4_IB_VALID : 0));
}

static void test_indirect_buffer(void)
{
	uint32_t *ib;

	reset();
	/* gfx_v9_0_ring_test_ib: an IB of WRITE_DATA in VMID 2's space */
	ib = (uint32_t *)at(2, MEM_BASE + 0x8000, 64);
	ib[0] = HDR(HSAGPU_PM4_OP_WRITE_DATA, 5);
	ib[1] = HSAGPU_PM4_SEL_MEM << 8 | 1u << 20;
	ib[2] = (uint32_t)(MEM_BASE + 0x500);
	ib[3] = 0;
	ib[4] = 0xdeadbeef;
	ib[5] = 0x80000000u;
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 6, 2, true);
	release_mem(HSAGPU_PM4_DATA_32, HSAGPU_PM4_INT_CONFIRMED,
		    MEM_BASE + 0x600, 5, 9);
	T(run() == HSAGPU_PM4_IDLE);
	T(*m32(2, MEM_BASE + 0x500) == 0xdeadbeef);
	T(*m32(0, MEM_BASE + 0x500) == 0);
	T(*m32(0, MEM_BASE + 0x600) == 5 && neops == 1);
	T(!ring.ib_active && ring.rptr == 12);

	/* an IB that waits, then goes on where it stopped */
	reset();
	ib = (uint32_t *)at(0, MEM_BASE + 0x8000, 64);
	ib[0] = HDR(HSAGPU_PM4_OP_WAIT_REG_MEM, 7);
	ib[1] = HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_MEM;
	ib[2] = (uint32_t)(MEM_BASE + 0x40);
	ib[3] = 0;
	ib[4] = 1;
	ib[5] = 1;
	ib[6] = 0;
	ib[7] = HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3);
	ib[8] = 0x40;
	ib[9] = 3;
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 10, 0, true);
	T(run() == HSAGPU_PM4_WAIT);
	T(ring.ib_active && ring.ib_pos == 0 && ring.rptr == 4);
	*m32(0, MEM_BASE + 0x40) = 1;
	T(run() == HSAGPU_PM4_IDLE);
	T(regs[0xc040] == 3 && !ring.ib_active);

	/* gfx_v9_0_ring_emit_ib_gfx: the graphics ME's IB has no VALID */
	reset();
	ring.gfx_me = 1;
	ib = (uint32_t *)at(0, MEM_BASE + 0x8000, 64);
	ib[0] = HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3);
	ib[1] = 0x40;
	ib[2] = 4;
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 3, 0, false);
	T(run() == HSAGPU_PM4_IDLE && regs[0xc040] == 4);

	/*
	 * 6.12's frame of a user job: the CE payload (gfx_v9_ring_emit_
	 * cntxcntl) and the DE payload (gfx_v9_0_ring_emit_de_meta) to the
	 * preemption meta memory, an address of the process's VM: written
	 * in the VMID of the IB that follows, when it starts
	 */
	reset();
	ring.gfx_me = 1;
	ib = (uint32_t *)at(3, MEM_BASE + 0x8000, 64);
	ib[0] = HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3);
	ib[1] = 0x40;
	ib[2] = 5;
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 7));
	emit(2u << 30 | HSAGPU_PM4_SEL_PREEMPT_META << 8 | 1u << 20);
	emit((uint32_t)(MEM_BASE + 0x400));
	emit(0);
	emit(0xce00);
	emit(0xce01);
	emit(0xce02);
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 14));
	emit(1u << 30 | HSAGPU_PM4_SEL_PREEMPT_META << 8 | 1u << 20);
	emit((uint32_t)(MEM_BASE + 0x440));
	emit(0);
	for (uint32_t i = 0; i < 10; i++)
		emit(0xde00 + i);
	T(run() == HSAGPU_PM4_IDLE && ring.meta_n == 2);
	T(*m32(0, MEM_BASE + 0x400) == 0 && *m32(3, MEM_BASE + 0x400) == 0);
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 3, 3, false);
	T(run() == HSAGPU_PM4_IDLE && regs[0xc040] == 5 && ring.meta_n == 0);
	T(*m32(3, MEM_BASE + 0x400) == 0xce00 &&
	  *m32(3, MEM_BASE + 0x408) == 0xce02);
	T(*m32(3, MEM_BASE + 0x440) == 0xde00 &&
	  *m32(3, MEM_BASE + 0x464) == 0xde09);
	T(*m32(0, MEM_BASE + 0x400) == 0 && *m32(0, MEM_BASE + 0x440) == 0);
	/* more than the engine keeps for one IB stops the ring */
	for (int k = 0; k < 5; k++) {
		emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
		emit(HSAGPU_PM4_SEL_PREEMPT_META << 8);
		emit((uint32_t)(MEM_BASE + 0x400));
		emit(0);
		emit(k);
	}
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PACKET);
	/* an IB whose VMID cannot take the meta data stops there */
	reset();
	ring.gfx_me = 1;
	emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	emit(HSAGPU_PM4_SEL_PREEMPT_META << 8);
	emit(0x100);
	emit(0);
	emit(1);
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 3, 3, false);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_MEMORY);

	/* the constant engine's IB is skipped; invalid and nested stop */
	reset();
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER_CONST, 0xdead0000, 100, 0, true);
	T(run() == HSAGPU_PM4_IDLE && bad_accesses == 0);
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 4, 0, false);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_IB);
	reset();
	ib = (uint32_t *)at(0, MEM_BASE + 0x8000, 64);
	ib[0] = HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4);
	ib[1] = (uint32_t)(MEM_BASE + 0x8000);
	ib[2] = 0;
	ib[3] = 4 | HSAGPU_PM4_IB_VALID;
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 4, 0, true);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_IB);
	/* a packet cut by the IB's end */
	reset();
	ib = (uint32_t *)at(0, MEM_BASE + 0x8000, 64);
	ib[0] = HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3);
	ib[1] = 0x40;
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 2, 0, true);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PACKET);
	T(regs[0xc040] == 0);
}

/*
 * Packets from a process's address space run unprivileged (a user queue's
 * ring: amdkfd's PM4 compute queues; a user IB: amdgpu's command
 * submission): config registers, register writes outside the shader,
 * context and user-config ranges, queue packets refused with
 * HSAGPU_PM4_ERR_PRIV and nothing written; a user ring's IB runs in the
 * ring's own VMID whatever its VMID field says. Before, a process could
 * write any register, or read and write the kernel's memory through an
 * IB naming VMID 0.
 */
static void user_emit(uint32_t v)
{
	uint32_t *r = (uint32_t *)at(1, RING, RING_DW * 4);

	r[wptr % RING_DW] = v;
	wptr++;
}

static void user_reset(void)
{
	reset();
	ring.vmid = 1;
}

static void test_user_packets(void)
{
	uint32_t *ib;

	/* SET_SH_REG is the user's; SET_CONFIG_REG is not */
	user_reset();
	user_emit(HDR(HSAGPU_PM4_OP_SET_SH_REG, 3));
	user_emit(0x40);
	user_emit(7);
	user_emit(HDR(HSAGPU_PM4_OP_SET_CONFIG_REG, 3));
	user_emit(0x10);
	user_emit(9);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PRIV);
	T(regs[HSAGPU_PM4_SH_REG_START + 0x40] == 7 &&
	  regs[HSAGPU_PM4_CONFIG_REG_START + 0x10] == 0);

	/* WRITE_DATA to a config register; to a user-config one */
	user_reset();
	user_emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	user_emit(HSAGPU_PM4_SEL_REG << 8);
	user_emit(HSAGPU_PM4_UCONFIG_REG_START + 0x40);
	user_emit(0);
	user_emit(5);
	user_emit(HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	user_emit(HSAGPU_PM4_SEL_REG << 8);
	user_emit(0x1000);
	user_emit(0);
	user_emit(6);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PRIV);
	T(regs[HSAGPU_PM4_UCONFIG_REG_START + 0x40] == 5 && regs[0x1000] == 0);

	/* COPY_DATA from a memory word into a register below the ranges */
	user_reset();
	*m32(1, MEM_BASE + 0x40) = 0x1234;
	user_emit(HDR(HSAGPU_PM4_OP_COPY_DATA, HSAGPU_PM4_COPY_DW));
	user_emit(HSAGPU_PM4_SEL_MEM_GRBM | HSAGPU_PM4_SEL_REG << 8);
	user_emit((uint32_t)(MEM_BASE + 0x40));
	user_emit(0);
	user_emit(0x2000 - 1);
	user_emit(0);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PRIV &&
	  regs[0x2000 - 1] == 0);

	/* WAIT_REG_MEM polling a config register */
	user_reset();
	user_emit(HDR(HSAGPU_PM4_OP_WAIT_REG_MEM, 7));
	user_emit(HSAGPU_PM4_FUNC_EQ);
	user_emit(HSAGPU_PM4_CONFIG_REG_START + 4);
	user_emit(0);
	user_emit(0);
	user_emit(0xffffffff);
	user_emit(0);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PRIV);

	/* a queue packet, even where the ring has a scheduler */
	user_reset();
	ops.queue_packet = f_kiq;
	user_emit(HDR(HSAGPU_PM4_OP_QUERY_STATUS, 7));
	for (int i = 0; i < 6; i++)
		user_emit(0);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PRIV &&
	  kiq_calls == 0);

	/* an IB naming VMID 0 from a user ring runs in the ring's VMID 1 */
	user_reset();
	for (uint32_t v = 0; v < 2; v++) {
		ib = (uint32_t *)at(v, MEM_BASE + 0x8000, 64);
		ib[0] = HDR(HSAGPU_PM4_OP_WRITE_DATA, 5);
		ib[1] = HSAGPU_PM4_SEL_MEM << 8 | 1u << 20;
		ib[2] = (uint32_t)(MEM_BASE + 0x500);
		ib[3] = 0;
		ib[4] = 0xa0 + v;
	}
	user_emit(HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4));
	user_emit((uint32_t)(MEM_BASE + 0x8000));
	user_emit(0);
	user_emit(5 | HSAGPU_PM4_IB_VALID);        /* VMID field 0 */
	T(run() == HSAGPU_PM4_IDLE);
	T(*m32(1, MEM_BASE + 0x500) == 0xa1 && *m32(0, MEM_BASE + 0x500) == 0);

	/* a user IB on a kernel ring: config registers refused there too */
	reset();
	ib = (uint32_t *)at(2, MEM_BASE + 0x8000, 64);
	ib[0] = HDR(HSAGPU_PM4_OP_SET_CONFIG_REG, 3);
	ib[1] = 0x10;
	ib[2] = 9;
	ib_pkt(HSAGPU_PM4_OP_INDIRECT_BUFFER, MEM_BASE + 0x8000, 3, 2, true);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_PRIV &&
	  regs[HSAGPU_PM4_CONFIG_REG_START + 0x10] == 0);
}

static void test_cond_exec_copy(void)
{
	reset();
	/* amdgpu's COND_EXEC: 0 at the address drops what follows */
	emit(HDR(HSAGPU_PM4_OP_COND_EXEC, 5));
	emit((uint32_t)(MEM_BASE + 0x80));
	emit(0);
	emit(0);
	emit(3);
	emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
	emit(0x40);
	emit(1);
	emit(HDR(HSAGPU_PM4_OP_COND_EXEC, 5));
	emit((uint32_t)(MEM_BASE + 0x84));
	emit(0);
	emit(0);
	emit(3);
	emit(HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
	emit(0x41);
	emit(2);
	*m32(0, MEM_BASE + 0x84) = 1;
	T(run() == HSAGPU_PM4_IDLE);
	T(regs[0xc040] == 0 && regs[0xc041] == 2);

	/* gfx_v9_0_ring_emit_rreg: a register to memory */
	regs[0x2004] = 0x5555;
	emit(HDR(HSAGPU_PM4_OP_COPY_DATA, 6));
	emit(HSAGPU_PM4_SEL_REG | HSAGPU_PM4_SEL_MEM << 8 | 1u << 20);
	emit(0x2004);
	emit(0);
	emit((uint32_t)(MEM_BASE + 0x90));
	emit(0);
	/* the GPU clock, 64 bits, to memory; immediate data to a register */
	emit(HDR(HSAGPU_PM4_OP_COPY_DATA, 6));
	emit(HSAGPU_PM4_SEL_GPU_CLOCK | HSAGPU_PM4_SEL_MEM << 8 |
	     HSAGPU_PM4_CD_64);
	emit(0);
	emit(0);
	emit((uint32_t)(MEM_BASE + 0x98));
	emit(0);
	emit(HDR(HSAGPU_PM4_OP_COPY_DATA, 6));
	emit(HSAGPU_PM4_SEL_IMM | HSAGPU_PM4_SEL_REG << 8);
	emit(0x77);
	emit(0);
	emit(0x2005);
	emit(0);
	TM(run() == HSAGPU_PM4_IDLE, "error %u at %u", ring.error, ring.rptr);
	T(*m32(0, MEM_BASE + 0x90) == 0x5555);
	T(*m32(0, MEM_BASE + 0x98) == (uint32_t)clk);
	T(*m32(0, MEM_BASE + 0x9c) == (uint32_t)(clk >> 32));
	T(regs[0x2005] == 0x77);
}

static void test_kiq(void)
{
	reset();
	/* a MAP_QUEUES on a ring that is not a KIQ */
	emit(HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	for (int i = 0; i < 6; i++)
		emit(i);
	T(run() == HSAGPU_PM4_STOPPED && ring.error == HSAGPU_PM4_ERR_OPCODE);
	reset();
	ops.queue_packet = f_kiq;
	emit(HDR(HSAGPU_PM4_OP_SET_RESOURCES, 8));
	for (int i = 0; i < 7; i++)
		emit(0x100 + i);
	emit(HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	for (int i = 0; i < 6; i++)
		emit(0x200 + i);
	T(run() == HSAGPU_PM4_IDLE);
	T(kiq_calls == 2 && kiq_n == 7);
	T(kiq_pkt[0] == HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	T(kiq_pkt[6] == 0x205);
}

/* Random bytes in the ring: the engine stops or finishes, in bounds */
static void test_garbage(void)
{
	unsigned stopped = 0, idle = 0;

	srand(7);
	for (int round = 0; round < 2000; round++) {
		HsaGpuPm4Outcome o;

		reset();
		ops.queue_packet = round & 1 ? f_kiq : NULL;
		for (int i = 0; i < (int)RING_DW; i++) {
			uint32_t v = (uint32_t)rand() << 16 ^ (uint32_t)rand();

			/* plausible headers more often than not */
			if (rand() % 2)
				v = HDR(rand() % 0xb0, 2 + rand() % 10);
			emit(v);
		}
		ring.rptr = rand() % RING_DW;
		wptr = rand() % RING_DW;
		o = hsagpu_pm4_ring_run(&ring, wptr, &ops, 200);
		stopped += o == HSAGPU_PM4_STOPPED;
		idle += o == HSAGPU_PM4_IDLE;
		if (ring.rptr >= RING_DW || ring.ib_pos > ring.ib_size)
			break;
	}
	TM(stopped > 0 && idle > 0, "%u stopped, %u idle of 2000", stopped,
	   idle);
	T(ring.rptr < RING_DW);
}

int main(void)
{
	test_ring_test();
	test_framing();
	test_write_data();
	test_wait_reg_mem();
	test_release_mem();
	test_indirect_buffer();
	test_user_packets();
	test_cond_exec_copy();
	test_kiq();
	test_garbage();
	return tap_done();
}
