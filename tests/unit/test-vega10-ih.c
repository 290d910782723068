// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the Vega10 personality's IH ring
 * (hw/hsagpu/vega10/vega10-ih.c): ring 0 programmed as vega10_ih_irq_init
 * does (its exact register values), entries read back by a decoder
 * written here from amdgpu_ih_decode_iv_helper's and kfd_int_process_v9's
 * layout, wrap-around, the wptr write-back, overflow as
 * vega10_ih_get_wptr handles it, the rptr doorbell, the MSI rule (a model
 * of amdgpu_ih_process sees every entry once), the IV encoders against
 * the kernel's decoders, and hostile register values, with every memory
 * write checked to stay inside the ring or the write-back slot. TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/vega10/vega10.h"

#include "tap.h"

/*
 * The kernel's field values (osssys_4_0_sh_mask.h), written out here so
 * that a wrong one in vega10_regs.h fails a test.
 */
#define K_RB_ENABLE		0x00000001u
#define K_RB_SIZE_MASK		0x0000003eu
#define K_RB_GPU_TS_ENABLE	0x00000080u
#define K_WPTR_WRITEBACK_ENABLE	0x00000100u
#define K_RB_FULL_DRAIN_ENABLE	0x00000200u
#define K_WPTR_OVERFLOW_ENABLE	0x00010000u
#define K_ENABLE_INTR		0x00020000u
#define K_MC_SNOOP		0x00100000u
#define K_RPTR_REARM		0x00200000u
#define K_MC_RO			0x00400000u
#define K_MC_VMID_MASK		0x0f000000u
#define K_MC_SPACE_MASK		0x70000000u
#define K_WPTR_OVERFLOW_CLEAR	0x80000000u
#define K_RB_OVERFLOW		0x00000001u
#define K_DOORBELL_ENABLE	0x10000000u
/* Vega10's IH doorbells: AMDGPU_DOORBELL64_IH (0xF4) << 1, + 2, + 4 */
#define K_IH_DOORBELL		0x1e8u

/* Guest memory: bus addresses [0, 2 MiB) */
#define MEM_SIZE	(2u << 20)
#define RING		0x100000ull	/* ring 0, 256 KiB as amdgpu's */
#define RING_LOG2	16
#define WB		(RING + (256u << 10)) /* after the ring, as amdgpu */

static uint8_t mem[MEM_SIZE];
static uint64_t now = 0xabcd123456789abcULL;

/* The write callback: every write must hit the ring or the slot */
static struct {
	uint64_t ring, wb;
	uint32_t size;
	bool fail;
	unsigned ring_writes, wb_writes, bad;
	bool bus;
	unsigned vmid;
	char order[8];	/* the first writes: 'r'ing, 'w'rite-back */
	unsigned norder;
} fk;

static bool fake_write(void *opaque, uint64_t addr, bool bus, unsigned vmid,
		       const void *buf, uint32_t len)
{
	fk.bus = bus;
	fk.vmid = vmid;
	if (len == 32 && addr >= fk.ring && addr - fk.ring < fk.size &&
	    fk.size - (addr - fk.ring) >= 32 && !((addr - fk.ring) & 31)) {
		fk.ring_writes++;
	} else if (len == 4 && addr == fk.wb) {
		fk.wb_writes++;
	} else {
		fk.bad++;
		return false;
	}
	if (fk.norder < sizeof(fk.order) - 1)
		fk.order[fk.norder++] = len == 32 ? 'r' : 'w';
	if (fk.fail)
		return false;
	if (addr < MEM_SIZE && len <= MEM_SIZE - addr)
		memcpy(mem + addr, buf, len);
	return true;
}

static uint32_t mem32(uint64_t addr)
{
	const uint8_t *p = mem + addr;

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* amdgpu_ih_decode_iv_helper (6.12; 6.1 reads dw3[31] as pasid_src) */
struct iv {
	unsigned client_id, src_id, ring_id, vmid, vmid_src;
	uint64_t timestamp;
	unsigned timestamp_src, pasid, node_id, pasid_src;
	uint32_t src_data[4];
};

static struct iv decode(uint64_t addr)
{
	uint32_t dw[8];
	struct iv e;

	for (int i = 0; i < 8; i++)
		dw[i] = mem32(addr + 4 * i);
	e.client_id = dw[0] & 0xff;
	e.src_id = (dw[0] >> 8) & 0xff;
	e.ring_id = (dw[0] >> 16) & 0xff;
	e.vmid = (dw[0] >> 24) & 0xf;
	e.vmid_src = dw[0] >> 31;
	e.timestamp = dw[1] | ((uint64_t)(dw[2] & 0xffff) << 32);
	e.timestamp_src = dw[2] >> 31;
	e.pasid = dw[3] & 0xffff;
	e.node_id = (dw[3] >> 16) & 0xff;
	e.pasid_src = dw[3] >> 31;
	for (int i = 0; i < 4; i++)
		e.src_data[i] = dw[4 + i];
	return e;
}

static HsaGpuV10 *v;
static bool msi_pending;
static unsigned msis;

#define RD(r) hsagpu_v10_ih_read(v, r)

static bool wr(uint32_t dw, uint32_t val)
{
	bool m = hsagpu_v10_ih_write(v, dw, val);

	msi_pending |= m;
	msis += m;
	return m;
}

static const uint32_t r_cntl[3] = { V10_IH_RB_CNTL, V10_IH_RB_CNTL_RING1,
				    V10_IH_RB_CNTL_RING2 };
static const uint32_t r_base[3] = { V10_IH_RB_BASE, V10_IH_RB_BASE_RING1,
				    V10_IH_RB_BASE_RING2 };
static const uint32_t r_base_hi[3] = { V10_IH_RB_BASE_HI,
				       V10_IH_RB_BASE_HI_RING1,
				       V10_IH_RB_BASE_HI_RING2 };
static const uint32_t r_rptr[3] = { V10_IH_RB_RPTR, V10_IH_RB_RPTR_RING1,
				    V10_IH_RB_RPTR_RING2 };
static const uint32_t r_wptr[3] = { V10_IH_RB_WPTR, V10_IH_RB_WPTR_RING1,
				    V10_IH_RB_WPTR_RING2 };
static const uint32_t r_db[3] = { V10_IH_DOORBELL_RPTR,
				  V10_IH_DOORBELL_RPTR_RING1,
				  V10_IH_DOORBELL_RPTR_RING2 };

/* vega10_ih_toggle_interrupts: three read-modify-writes */
static bool toggle(bool enable)
{
	bool m = false;

	for (int i = 0; i < 3; i++) {
		uint32_t tmp = RD(r_cntl[i]);

		tmp = (tmp & ~K_RB_ENABLE) | (enable ? K_RB_ENABLE : 0);
		tmp |= K_RB_GPU_TS_ENABLE;
		if (i == 0)
			tmp = (tmp & ~K_ENABLE_INTR) | (enable ? K_ENABLE_INTR : 0);
		m |= wr(r_cntl[i], tmp);
		if (!enable) {
			m |= wr(r_rptr[i], 0);
			m |= wr(r_wptr[i], 0);
		}
	}
	return m;
}

/*
 * vega10_ih_irq_init with use_bus_addr, MSI (RPTR_REARM = @rearm) and
 * ring 0 of 4 << @log2 bytes at @ring, write-back at @wb; rings 1 and 2
 * of a page. Returns whether any write asked for the MSI.
 */
static bool irq_init(uint64_t ring, unsigned log2, uint64_t wb, bool rearm)
{
	const uint64_t addr[3] = { ring, 0x150000, 0x152000 };
	const unsigned sz[3] = { log2, 10, 10 };
	bool m = toggle(false);

	for (int i = 0; i < 3; i++) {
		uint32_t tmp;

		m |= wr(r_base[i], (uint32_t)(addr[i] >> 8));
		m |= wr(r_base_hi[i], (addr[i] >> 40) & 0xff);
		tmp = RD(r_cntl[i]);
		tmp = (tmp & ~K_MC_SPACE_MASK) | 1u << 28;
		tmp |= K_WPTR_OVERFLOW_CLEAR | K_WPTR_OVERFLOW_ENABLE;
		tmp = (tmp & ~K_RB_SIZE_MASK) | sz[i] << 1;
		tmp |= K_WPTR_WRITEBACK_ENABLE | K_MC_SNOOP;
		tmp &= ~(K_MC_RO | K_MC_VMID_MASK);
		if (i == 0)
			tmp = (tmp & ~K_RPTR_REARM) | (rearm ? K_RPTR_REARM : 0);
		if (i == 1)
			tmp |= K_RB_FULL_DRAIN_ENABLE;
		m |= wr(r_cntl[i], tmp);
		if (i == 0) {
			m |= wr(V10_IH_RB_WPTR_ADDR_LO, (uint32_t)wb);
			m |= wr(V10_IH_RB_WPTR_ADDR_HI, (wb >> 32) & 0xffff);
		}
		m |= wr(r_wptr[i], 0);
		m |= wr(r_rptr[i], 0);
		m |= wr(r_db[i], (K_IH_DOORBELL + 2 * i) | K_DOORBELL_ENABLE);
	}
	m |= toggle(true);
	return m;
}

/* A device with ring 0 as amdgpu sets it up, of 4 << @log2 bytes */
static void setup(unsigned log2, bool rearm)
{
	if (!v)
		v = calloc(1, sizeof(*v));
	memset(v->reg, 0, sizeof(v->reg));
	hsagpu_v10_ih_reset(v);
	memset(mem, 0, sizeof(mem));
	memset(&fk, 0, sizeof(fk));
	fk.ring = RING;
	fk.wb = WB;
	fk.size = 4u << log2;
	msi_pending = false;
	msis = 0;
	irq_init(RING, log2, WB, rearm);
}

/* The device raises a CP EOP with context id @id; true if written */
static bool push_id(uint32_t id)
{
	HsaGpuV10Iv iv;
	uint32_t before = v->ih.entries;
	bool m;

	hsagpu_v10_iv_cp_eop(&iv, 1, 0, 0, 0, id);
	m = hsagpu_v10_ih_push(v, &iv, now++, fake_write, NULL);
	msi_pending |= m;
	msis += m;
	return v->ih.entries != before;
}

static bool doorbell(uint32_t index, uint32_t val)
{
	bool m = true;
	bool ours = hsagpu_v10_ih_doorbell(v, index, val, &m);

	msi_pending |= m;
	msis += m;
	return ours;
}

/*
 * A model of amdgpu's side: amdgpu_ih_process over vega10_ih_get_wptr
 * and vega10_ih_set_rptr (the doorbell). @recheck: re-read the wptr
 * after writing the rptr, as amdgpu does; without, the device's MSI on
 * the rptr write is all that brings the driver back.
 */
#define MAX_SEEN 100000
static unsigned storms;	/* a driver looping without end: a failure */
static struct drv {
	uint32_t rptr, mask;
	bool recheck;
	uint32_t seen[MAX_SEEN];
	unsigned nseen, overflow_warnings;
	void (*during)(void);	/* the device, between two entries */
} d;

static uint32_t drv_get_wptr(void)
{
	uint32_t wptr = mem32(WB), tmp;

	if (!(wptr & K_RB_OVERFLOW))
		return wptr & d.mask;
	wptr = RD(V10_IH_RB_WPTR);
	if (!(wptr & K_RB_OVERFLOW))
		return wptr & d.mask;
	wptr &= ~K_RB_OVERFLOW;
	d.rptr = (wptr + 32) & d.mask;
	d.overflow_warnings++;
	tmp = RD(V10_IH_RB_CNTL);
	wr(V10_IH_RB_CNTL, tmp | K_WPTR_OVERFLOW_CLEAR);
	wr(V10_IH_RB_CNTL, tmp & ~K_WPTR_OVERFLOW_CLEAR);
	return wptr & d.mask;
}

static void drv_handler(void)
{
	uint32_t wptr = drv_get_wptr();
	unsigned count;

restart:
	count = 32;	/* AMDGPU_IH_MAX_NUM_IVS */
	if (d.nseen >= MAX_SEEN) {
		storms++;
		return;
	}
	while (d.rptr != wptr && --count) {
		struct iv e = decode(RING + d.rptr);

		if (d.nseen < MAX_SEEN)
			d.seen[d.nseen++] = e.src_data[0];
		d.rptr = (d.rptr + 32) & d.mask;
		if (d.during)
			d.during();
	}
	doorbell(K_IH_DOORBELL, d.rptr);
	if (d.recheck) {
		wptr = drv_get_wptr();
		if (wptr != d.rptr)
			goto restart;
	}
}

static void drv_reset(bool recheck)
{
	memset(&d, 0, sizeof(d));
	d.mask = fk.size - 1;
	d.recheck = recheck;
}

/* Run the handler while an MSI is pending, as the kernel would */
static void drv_run(void)
{
	for (int n = 0; msi_pending; n++) {
		if (n == 10000) {
			storms++;
			break;
		}
		msi_pending = false;
		drv_handler();
	}
}

static void test_init_values(void)
{
	setup(RING_LOG2, true);
	/* vega10_ih_irq_init asked for no MSI: the ring is empty */
	T(msis == 0);
	/* what amdgpu's read-modify-writes leave: OVERFLOW_CLEAR reads 0 */
	T(RD(V10_IH_RB_CNTL) == 0x103301a1);
	T(RD(V10_IH_RB_BASE) == RING >> 8);
	T(RD(V10_IH_RB_BASE_HI) == 0);
	T(RD(V10_IH_RB_WPTR_ADDR_LO) == (uint32_t)WB);
	T(RD(V10_IH_RB_WPTR_ADDR_HI) == 0);
	T(RD(V10_IH_RB_RPTR) == 0);
	T(RD(V10_IH_RB_WPTR) == 0);
	T(RD(V10_IH_DOORBELL_RPTR) == 0x100001e8);
	/* rings 1 and 2: stored as written */
	T(RD(V10_IH_RB_CNTL_RING1) == 0x90110395);
	T(RD(V10_IH_RB_CNTL_RING2) == 0x90110195);
	T(RD(V10_IH_RB_BASE_RING1) == 0x1500);
	T(RD(V10_IH_RB_BASE_RING2) == 0x1520);
	T(RD(V10_IH_DOORBELL_RPTR_RING1) == 0x100001ea);
	T(RD(V10_IH_DOORBELL_RPTR_RING2) == 0x100001ec);
	T(fk.ring_writes == 0 && fk.wb_writes == 0 && fk.bad == 0);
	/* plain storage around the ring's registers */
	wr(V10_IH_CNTL, 0x12345);
	T(RD(V10_IH_CNTL) == 0x12345);
	T(hsagpu_v10_ih_read(v, V10_NREGS) == 0);
	T(!hsagpu_v10_ih_write(v, V10_NREGS, 1));
}

static void test_push_decode(void)
{
	HsaGpuV10Iv iv;
	struct iv e;
	bool m;

	setup(RING_LOG2, true);
	/* set_pasid_vmid_mapping's values: the PASID and a valid bit */
	wr(V10_IH_VMID_0_LUT + 9, 0x80004321);
	wr(V10_IH_VMID_0_LUT_MM + 9, 0x80000077);
	hsagpu_v10_iv_cp_eop(&iv, 1, 2, 5, 9, 0x1234);
	iv.timestamp = 5;	/* stamped by the IH instead */
	m = hsagpu_v10_ih_push(v, &iv, 0xabcd123456789abcULL, fake_write, NULL);
	T(m);
	T(fk.bus && fk.vmid == 0);
	e = decode(RING);
	T(e.client_id == 0x14 && e.src_id == 181);
	T(e.vmid == 9 && e.vmid_src == 0);
	T(e.pasid == 0x4321);
	T(e.timestamp == 0x123456789abcULL && e.timestamp_src == 0);
	T(e.node_id == 0 && e.pasid_src == 0);
	T(e.src_data[0] == 0x1234 && !e.src_data[1] && !e.src_data[2] &&
	  !e.src_data[3]);
	/* the write pointer, in its register and written back */
	T(RD(V10_IH_RB_WPTR) == 32);
	T(mem32(WB) == 32);
	T(fk.ring_writes == 1 && fk.wb_writes == 1 && fk.bad == 0);
	/* the entry, then the wptr that shows it (then the MSI) */
	T(strcmp(fk.order, "rw") == 0);

	/* the MMHUB's LUT for SDMA; a PASID given is kept */
	hsagpu_v10_iv_sdma_trap(&iv, 1, 0, 9, 0xf1234567);
	T(!hsagpu_v10_ih_push(v, &iv, 7, fake_write, NULL));
	e = decode(RING + 32);
	T(e.client_id == 0x09 && e.src_id == 224 && e.ring_id == 0);
	T(e.vmid == 9 && e.vmid_src == 1 && e.pasid == 0x77);
	/* kfd_int_process_v9: context_id0 & 0xfffffff */
	T(e.src_data[0] == 0x01234567);
	T(e.timestamp == 7);
	iv.pasid = 0x99;
	hsagpu_v10_ih_push(v, &iv, 8, fake_write, NULL);
	T(decode(RING + 64).pasid == 0x99);
	/* VMID 0 is the kernel's: no PASID, whatever LUT 0 holds */
	wr(V10_IH_VMID_0_LUT, 0x1111);
	hsagpu_v10_iv_cp_eop(&iv, 0, 0, 0, 0, 0);
	hsagpu_v10_ih_push(v, &iv, 9, fake_write, NULL);
	T(decode(RING + 96).pasid == 0);
	T(RD(V10_IH_RB_WPTR) == 128 && mem32(WB) == 128);
	/* node_id (6.12 reads it; 0 on Vega10) and timestamp_src pass */
	iv.node_id = 0x5a;
	iv.timestamp_src = 1;
	hsagpu_v10_ih_push(v, &iv, 9, fake_write, NULL);
	e = decode(RING + 128);
	T(e.node_id == 0x5a && e.timestamp_src == 1 && e.pasid_src == 0);
	iv.node_id = 0;
	iv.timestamp_src = 0;
	/* the timestamp wraps at 48 bits */
	hsagpu_v10_ih_push(v, &iv, 0xffffffffffffULL + 3, fake_write, NULL);
	T(decode(RING + 160).timestamp == 2);
}

/* gfx_v9_0_eop_irq's decoding of ring_id, for every queue */
static void test_eop_ring_id(void)
{
	HsaGpuV10Iv iv;
	unsigned bad = 0;

	for (unsigned me = 0; me < 3; me++)
		for (unsigned pipe = 0; pipe < 4; pipe++)
			for (unsigned q = 0; q < 8; q++) {
				hsagpu_v10_iv_cp_eop(&iv, me, pipe, q, 8, 1);
				bad += ((iv.ring_id & 0x0c) >> 2) != me;
				bad += (iv.ring_id & 0x03) != pipe;
				bad += ((iv.ring_id & 0x70) >> 4) != q;
				bad += iv.client_id != 0x14 || iv.src_id != 181;
			}
	T(bad == 0);
	/* amdgpu's compute ring 0: MEC1 (me 1), pipe 0, queue 0 */
	hsagpu_v10_iv_cp_eop(&iv, 1, 0, 0, 0, 0);
	T(iv.ring_id == 0x04);
}

static void test_encoders(void)
{
	HsaGpuV10Iv iv;
	uint64_t addr = 0xabcde1234000ULL, a;
	uint64_t page;
	uint32_t sq;

	/* sdma_v4_0_process_trap_irq: client -> instance, ring 0 / 3 */
	hsagpu_v10_iv_sdma_trap(&iv, 0, V10_IV_SDMA_RING_PAGE, 0, 0);
	T(iv.client_id == 0x08 && iv.src_id == 224 && iv.ring_id == 3);
	T(V10_IV_SDMA_RING_GFX == 0 && V10_IV_SDMA_RING_RLC == 2);
	hsagpu_v10_iv_sdma_trap(&iv, 1, V10_IV_SDMA_RING_RLC, 12, 0x0abcdef1);
	T(iv.client_id == 0x09 && iv.ring_id == 2 && iv.vmid == 12 &&
	  iv.vmid_src == 1 && iv.src_data[0] == 0x0abcdef1 && iv.pasid == 0);

	/* gmc_v9_0_process_interrupt's address, write and retry bits */
	hsagpu_v10_iv_vm_fault(&iv, false, 10, addr | 0x123,
			       V10_IV_FAULT_WRITE | V10_IV_FAULT_NOT_PRESENT);
	a = (uint64_t)iv.src_data[0] << 12 |
	    ((uint64_t)iv.src_data[1] & 0xf) << 44;
	T(a == addr);
	T(iv.client_id == 0x1b && iv.src_id == 0 && iv.vmid == 10 &&
	  iv.vmid_src == 0);
	T(!!(iv.src_data[1] & 0x20) && !(iv.src_data[1] & 0x80));
	/* kfd_int_process_v9: page number, prot_valid (NotPresent) */
	page = iv.src_data[0] | (uint64_t)(iv.src_data[1] & 0xf) << 32;
	T(page == addr >> 12);
	T(iv.ring_id == 0x08);
	hsagpu_v10_iv_vm_fault(&iv, true, 3, addr, V10_IV_FAULT_RETRY |
			       V10_IV_FAULT_READ_DENIED |
			       V10_IV_FAULT_WRITE_DENIED);
	T(iv.client_id == 0x12 && iv.vmid_src == 1 && iv.vmid == 3);
	T(!(iv.src_data[1] & 0x20) && !!(iv.src_data[1] & 0x80));
	T(iv.ring_id == 0x30);

	/* 6.12's KFD_CONTEXT_ID_GET_SQ_INT_DATA gets the 24 bits back */
	hsagpu_v10_iv_sq_msg(&iv, 2, 8, 0xabcdef);
	sq = (iv.src_data[0] & 0xfff) | ((iv.src_data[0] >> 16) & 0xf000) |
	     ((iv.src_data[1] << 16) & 0xff0000);
	T(sq == 0xabcdef);
	T(iv.client_id == 0x0c && iv.src_id == 239 && iv.vmid == 8);
	/* ENCODING (27:26) 1, an instruction's; PRIV (13) clear */
	T(((iv.src_data[0] >> 26) & 3) == 1 && !(iv.src_data[0] & 0x2000));
	/* 6.1 takes context_id0 & 0xffffff: the same for an id < 4096 */
	hsagpu_v10_iv_sq_msg(&iv, 0, 8, 0x7c5);
	T((iv.src_data[0] & 0xffffff) == 0x7c5);
}

/* Entries fill the ring, wrap, and reach a model driver in order */
static void test_wrap(void)
{
	unsigned bad = 0;

	setup(10, true);	/* 4 KiB: 128 slots */
	drv_reset(true);
	for (uint32_t i = 0; i < 100; i++)
		push_id(i + 1);
	T(RD(V10_IH_RB_WPTR) == 3200 && mem32(WB) == 3200);
	T(msis == 1);
	drv_run();
	for (uint32_t i = 0; i < 100; i++)
		push_id(i + 101);
	/* the 29th entry after those went to offset 0 */
	T(decode(RING).src_data[0] == 129);
	T(RD(V10_IH_RB_WPTR) == (200 * 32) % 4096);
	drv_run();
	T(d.nseen == 200);
	for (unsigned i = 0; i < d.nseen; i++)
		bad += d.seen[i] != i + 1;
	T(bad == 0);
	T(RD(V10_IH_RB_RPTR) == RD(V10_IH_RB_WPTR));
	T(fk.bad == 0 && v->ih.overflows == 0);
}

static void test_overflow(void)
{
	uint8_t snap[256];
	uint32_t cntl;
	unsigned bad = 0;

	setup(6, true);		/* 256 bytes: 8 slots, 7 entries */
	drv_reset(true);
	for (uint32_t i = 0; i < 7; i++)
		T(push_id(i + 1));
	T(RD(V10_IH_RB_WPTR) == 224);
	memcpy(snap, mem + RING, sizeof(snap));
	/* full: dropped, RB_OVERFLOW in the register and written back */
	T(!push_id(8));
	T(!push_id(9));
	T(RD(V10_IH_RB_WPTR) == (224 | K_RB_OVERFLOW));
	T(mem32(WB) == (224 | K_RB_OVERFLOW));
	T(v->ih.overflows == 2);
	T(memcmp(snap, mem + RING, sizeof(snap)) == 0);
	/* vega10_ih_get_wptr restarts at wptr + 32: the read pointer */
	T(((224 + 32) & 255) == RD(V10_IH_RB_RPTR));
	T(msis == 1);
	drv_run();
	T(d.overflow_warnings == 1);
	T(d.nseen == 7);
	for (unsigned i = 0; i < d.nseen; i++)
		bad += d.seen[i] != i + 1;
	T(bad == 0);
	/* WPTR_OVERFLOW_CLEAR cleared it; it never reads back */
	T(RD(V10_IH_RB_WPTR) == 224);
	T(!(RD(V10_IH_RB_CNTL) & K_WPTR_OVERFLOW_CLEAR));
	T(push_id(10));
	T(decode(RING + 224).src_data[0] == 10);
	T(fk.bad == 0);

	/*
	 * The overflow while the driver is inside its handler: it has
	 * read 3 entries and not yet written the rptr when the ring
	 * fills. Its rptr write leaves room, which ends RB_OVERFLOW: the
	 * stale write-back sends it to the register, which shows none, so
	 * it reads the 4 newer entries once each.
	 */
	setup(6, true);
	drv_reset(true);
	for (uint32_t i = 0; i < 3; i++)
		push_id(i + 1);
	d.rptr = 96;
	d.nseen = 3;
	for (uint32_t i = 0; i < 3; i++)
		d.seen[i] = i + 1;
	for (uint32_t i = 0; i < 4; i++)
		T(push_id(i + 4));
	T(!push_id(8));
	T(mem32(WB) == (224 | K_RB_OVERFLOW));
	doorbell(K_IH_DOORBELL, d.rptr);
	T(RD(V10_IH_RB_WPTR) == 224);
	T(drv_get_wptr() == 224);
	T(d.overflow_warnings == 0);
	msi_pending = true;
	drv_handler();
	drv_run();
	T(d.nseen == 7);
	bad = 0;
	for (unsigned i = 0; i < d.nseen; i++)
		bad += d.seen[i] != i + 1;
	T(bad == 0);

	/* WPTR_OVERFLOW_ENABLE off: dropped, no flag, no write-back */
	setup(6, true);
	cntl = RD(V10_IH_RB_CNTL);
	wr(V10_IH_RB_CNTL, cntl & ~K_WPTR_OVERFLOW_ENABLE);
	for (uint32_t i = 0; i < 7; i++)
		push_id(i + 1);
	T(fk.wb_writes == 7);
	T(!push_id(8));
	T(RD(V10_IH_RB_WPTR) == 224 && mem32(WB) == 224);
	T(fk.wb_writes == 7 && v->ih.overflows == 1);

	/* a wptr write (the driver's reset) clears it too */
	setup(6, true);
	for (uint32_t i = 0; i < 8; i++)
		push_id(i + 1);
	T(RD(V10_IH_RB_WPTR) & K_RB_OVERFLOW);
	wr(V10_IH_RB_RPTR, 0);
	T(RD(V10_IH_RB_WPTR) & K_RB_OVERFLOW);	/* still full */
	wr(V10_IH_RB_WPTR, 0);
	T(RD(V10_IH_RB_WPTR) == 0);
	/* so does a bigger ring (room), and an explicit clear */
	for (uint32_t i = 0; i < 8; i++)
		push_id(i + 1);
	cntl = RD(V10_IH_RB_CNTL);
	T(RD(V10_IH_RB_WPTR) == (224 | K_RB_OVERFLOW));
	wr(V10_IH_RB_CNTL, (cntl & ~K_RB_SIZE_MASK) | 7 << 1);
	T(RD(V10_IH_RB_WPTR) == 224);
	wr(V10_IH_RB_CNTL, cntl);
	push_id(9);
	T(RD(V10_IH_RB_WPTR) & K_RB_OVERFLOW);
	wr(V10_IH_RB_CNTL, cntl | K_WPTR_OVERFLOW_CLEAR);
	T(RD(V10_IH_RB_WPTR) == 224);
	T(RD(V10_IH_RB_CNTL) == cntl);
	T(fk.bad == 0);
}

static void test_doorbell(void)
{
	setup(10, true);
	for (uint32_t i = 0; i < 3; i++)
		push_id(i + 1);
	T(doorbell(K_IH_DOORBELL, 64));
	T(RD(V10_IH_RB_RPTR) == 64);
	/* vega10_ih_irq_rearm's check: the rptr reads back */
	T(RD(V10_IH_RB_RPTR) < 4096);
	/* the upper half of the 64-bit doorbell is not the IH's */
	T(!doorbell(K_IH_DOORBELL + 1, 0));
	T(RD(V10_IH_RB_RPTR) == 64);
	/* rings 1 and 2: stored, no MSI, ring 0 untouched */
	msis = 0;
	T(doorbell(K_IH_DOORBELL + 2, 0x40));
	T(RD(V10_IH_RB_RPTR_RING1) == 0x40 && RD(V10_IH_RB_RPTR) == 64);
	T(doorbell(K_IH_DOORBELL + 4, 0xffffffff));
	T(RD(V10_IH_RB_RPTR_RING2) == 0x3fffc);
	T(msis == 0);
	/* a disabled doorbell is not routed */
	wr(V10_IH_DOORBELL_RPTR, K_IH_DOORBELL);
	T(!doorbell(K_IH_DOORBELL, 96));
	T(RD(V10_IH_RB_RPTR) == 64);
	/* moved elsewhere: routed there */
	wr(V10_IH_DOORBELL_RPTR, 0x3ffffff | K_DOORBELL_ENABLE);
	T(doorbell(0x3ffffff, 96));
	T(RD(V10_IH_RB_RPTR) == 96);
	/* the register route gives the same */
	wr(V10_IH_RB_RPTR, 0xffffffff);
	T(RD(V10_IH_RB_RPTR) == 0x3fffc);
}

static void test_moderation(void)
{
	uint32_t cntl;

	/* RPTR_REARM: one MSI, then none until the rptr is written */
	setup(10, true);
	T(push_id(1) && msis == 1);
	for (uint32_t i = 2; i <= 5; i++)
		push_id(i);
	T(msis == 1);
	/* entries left behind: a new MSI at once */
	doorbell(K_IH_DOORBELL, 32);
	T(msis == 2);
	push_id(6);
	T(msis == 2);
	/* all read: none */
	doorbell(K_IH_DOORBELL, 192);
	T(msis == 2);
	push_id(7);
	T(msis == 3);
	doorbell(K_IH_DOORBELL, 224);
	/* the same rptr again re-arms, and an entry asks */
	doorbell(K_IH_DOORBELL, 224);
	T(msis == 3);
	push_id(8);
	T(msis == 4);

	/* without RPTR_REARM: every entry, never an rptr write */
	setup(10, false);
	for (uint32_t i = 0; i < 5; i++)
		push_id(i + 1);
	T(msis == 5);
	doorbell(K_IH_DOORBELL, 32);
	T(msis == 5);

	/* ENABLE_INTR off: entries, no MSI; on with entries: one */
	setup(10, true);
	cntl = RD(V10_IH_RB_CNTL);
	wr(V10_IH_RB_CNTL, cntl & ~K_ENABLE_INTR);
	push_id(1);
	push_id(2);
	T(msis == 0 && v->ih.entries == 2);
	doorbell(K_IH_DOORBELL, 32);
	T(msis == 0);
	T(wr(V10_IH_RB_CNTL, cntl));
	T(msis == 1);
	/* already on: writing it again asks nothing */
	T(!wr(V10_IH_RB_CNTL, cntl));
	/* on with nothing unread: nothing */
	doorbell(K_IH_DOORBELL, 64);
	wr(V10_IH_RB_CNTL, cntl & ~K_ENABLE_INTR);
	T(!wr(V10_IH_RB_CNTL, cntl));
	/* turning off forgets the outstanding MSI */
	push_id(3);
	T(msis == 2 && v->ih.msi_outstanding);
	wr(V10_IH_RB_CNTL, cntl & ~K_ENABLE_INTR);
	T(!v->ih.msi_outstanding);
	/* ...and on again announces what was left */
	T(wr(V10_IH_RB_CNTL, cntl));

	/* RB_ENABLE off: nothing written, nothing asked */
	setup(10, true);
	cntl = RD(V10_IH_RB_CNTL);
	wr(V10_IH_RB_CNTL, cntl & ~K_RB_ENABLE);
	T(!push_id(1));
	T(fk.ring_writes == 0 && fk.wb_writes == 0 && msis == 0);
	T(v->ih.discarded == 1 && RD(V10_IH_RB_WPTR) == 0);

	/* state lost (reset, migration): at worst one extra MSI */
	setup(10, true);
	push_id(1);
	push_id(2);
	T(msis == 1);
	hsagpu_v10_ih_reset(v);
	push_id(3);
	T(msis == 2);
	/* a full ring with the state lost asks again */
	setup(6, true);
	for (uint32_t i = 0; i < 7; i++)
		push_id(i + 1);
	hsagpu_v10_ih_reset(v);
	T(!push_id(8) && msis == 2);
}

static uint32_t rng = 12345, next_id, accepted[MAX_SEEN];
static unsigned naccepted;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 1103515245 + 12345;
	return (rng >> 16) % n;
}

static void device_step(void)
{
	unsigned n = rnd(4) ? 0 : 1 + rnd(3);

	for (unsigned i = 0; i < n && naccepted < MAX_SEEN; i++) {
		if (push_id(++next_id))
			accepted[naccepted++] = next_id;
	}
}

/*
 * Random interleavings of the device and the model driver (with and
 * without amdgpu's re-read of the wptr, rings big and small enough to
 * overflow): every entry written is seen exactly once, in order, and
 * nothing is left unread without an MSI on the way.
 */
static void test_no_lost_interrupt(void)
{
	static const unsigned log2[] = { 10, 6, 4 };

	for (int recheck = 0; recheck < 2; recheck++)
		for (unsigned s = 0; s < 3; s++) {
			unsigned bad = 0;

			setup(log2[s], true);
			drv_reset(recheck);
			d.during = device_step;
			next_id = 0;
			naccepted = 0;
			for (int step = 0; step < 3000; step++) {
				device_step();
				if (msi_pending && rnd(3) == 0) {
					msi_pending = false;
					drv_handler();
				}
			}
			d.during = NULL;
			drv_run();
			for (unsigned i = 0; i < naccepted && i < d.nseen; i++)
				bad += d.seen[i] != accepted[i];
			TM(naccepted > 100 && d.nseen == naccepted && !bad,
			   "recheck %d, ring %u bytes: %u written, %u seen, %u out of order",
			   recheck, 4u << log2[s], naccepted, d.nseen, bad);
			T(RD(V10_IH_RB_RPTR) == RD(V10_IH_RB_WPTR));
			T(fk.bad == 0);
			TM(s == 0 || v->ih.overflows > 0, "%u overflows",
			   v->ih.overflows);
		}
}

static void test_hostile(void)
{
	uint32_t cntl;

	/* rings too small for an entry and a gap: nothing is written */
	for (unsigned log2 = 0; log2 <= 3; log2++) {
		setup(log2, true);
		push_id(1);
		TM(fk.ring_writes == 0 && fk.bad == 0 &&
		   (RD(V10_IH_RB_WPTR) & K_RB_OVERFLOW),
		   "RB_SIZE %u", log2);
	}
	/* 64 bytes: one entry */
	setup(4, true);
	T(push_id(1) && !push_id(2));
	T(fk.ring_writes == 1 && fk.bad == 0);

	/* RB_SIZE 31: as 16 (the pointers' 18 bits): 256 KiB */
	setup(31, true);
	fk.size = 256u << 10;
	wr(V10_IH_RB_WPTR, 0x3ffe0);
	wr(V10_IH_RB_RPTR, 0x3ffe0);
	push_id(1);
	push_id(2);
	T(decode(RING + 0x3ffe0).src_data[0] == 1);
	T(decode(RING).src_data[0] == 2);
	T(RD(V10_IH_RB_WPTR) == 32 && fk.bad == 0);
	/* ...and holds 8191 entries: full when the wptr is 32 short */
	setup(31, true);
	fk.size = 256u << 10;
	for (uint32_t i = 0; i < 8192; i++)
		push_id(i + 1);
	T(v->ih.entries == 8191 && v->ih.overflows == 1);
	T(RD(V10_IH_RB_WPTR) == (0x3ffe0 | K_RB_OVERFLOW));
	T(fk.bad == 0);

	/* base 0, and an address with garbage above BASE_HI's 8 bits */
	setup(10, true);
	fk.ring = 0;
	wr(V10_IH_RB_BASE, 0);
	push_id(1);
	T(decode(0).src_data[0] == 1 && fk.bad == 0);
	fk.ring = 0x12ffffffff00ULL;
	wr(V10_IH_RB_BASE, 0xffffffff);
	wr(V10_IH_RB_BASE_HI, 0xffffff12);
	push_id(2);
	T(fk.ring_writes == 2 && fk.bad == 0);

	/* pointers out of range or misaligned: masked into the ring */
	setup(10, true);
	wr(V10_IH_RB_WPTR, 0xffffffff);
	T(RD(V10_IH_RB_WPTR) == 0x3ffe0);
	wr(V10_IH_RB_RPTR, 0x3ffe0);
	push_id(1);
	T(decode(RING + 0xfe0).src_data[0] == 1);
	/* an rptr inside an entry: the slot holding it is never written */
	setup(10, true);
	wr(V10_IH_RB_RPTR, 0xffc);
	for (uint32_t i = 0; i < 200; i++)
		push_id(i + 1);
	T(v->ih.entries == 127 && RD(V10_IH_RB_WPTR) == (0xfe0 | 1));
	T(fk.bad == 0);

	/* write-back address with garbage above its fields */
	setup(10, true);
	fk.wb = 0xfffffffffffcULL;
	wr(V10_IH_RB_WPTR_ADDR_LO, 0xffffffff);
	wr(V10_IH_RB_WPTR_ADDR_HI, 0xffffffff);
	push_id(1);
	T(fk.wb_writes == 1 && fk.bad == 0);
	/* write-back off: none */
	cntl = RD(V10_IH_RB_CNTL);
	wr(V10_IH_RB_CNTL, cntl & ~K_WPTR_WRITEBACK_ENABLE);
	push_id(2);
	T(fk.wb_writes == 1 && fk.ring_writes == 2);

	/* MC_SPACE other than 1: a GPU address in MC_VMID's space */
	wr(V10_IH_RB_CNTL, (cntl & ~K_MC_SPACE_MASK) | 4u << 28 | 3u << 24);
	push_id(3);
	T(!fk.bus && fk.vmid == 3);

	/* a failed memory write: no entry, the pointer stays, no MSI */
	setup(10, true);
	fk.fail = true;
	T(!push_id(1));
	T(RD(V10_IH_RB_WPTR) == 0 && msis == 0 && v->ih.write_errors == 1);
	fk.fail = false;
	T(push_id(2) && msis == 1);
	T(decode(RING).src_data[0] == 2);

	/* every register of the block written with all ones, then used */
	setup(10, true);
	for (uint32_t dw = V10_IH_VMID_0_LUT; dw <= V10_IH_CNTL; dw++)
		wr(dw, 0xffffffff);
	fk.ring = 0xffffffffff00ULL;
	fk.size = 256u << 10;
	fk.wb = 0xfffffffffffcULL;
	for (uint32_t i = 0; i < 20; i++)
		push_id(i + 1);
	T(fk.bad == 0);
}

int main(void)
{
	test_init_values();
	test_push_decode();
	test_eop_ring_id();
	test_encoders();
	test_wrap();
	test_overflow();
	test_doorbell();
	test_moderation();
	test_no_lost_interrupt();
	test_hostile();
	T(storms == 0);
	return tap_done();
}
