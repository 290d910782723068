// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the Vega10 personality's register front end
 * (hw/hsagpu/vega10/vega10-regs.c): the values amdgpu reads after a
 * POST that never ran, every handshake it waits on (HDP flush, the
 * hubs' invalidation engines and semaphores, the RLC's safe mode and
 * SERDES, the clock capture), the VRAM and register windows, and the
 * banks GRBM_GFX_CNTL selects. TAP output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/vega10/vega10.h"

#include "tap.h"
#include "v10-fakemem.h"

#define VRAM (64u << 20)

static uint8_t *vram;
static uint64_t now = 0x123456789abcULL;

static bool fake_vram_rw(void *opaque, uint64_t off, uint32_t *val,
			 bool write)
{
	if (off > VRAM - 4)
		return false;
	if (write)
		memcpy(vram + off, val, 4);
	else
		memcpy(val, vram + off, 4);
	return true;
}

static uint64_t fake_clock(void *opaque)
{
	return now;
}

static HsaGpuV10 *dev(void)
{
	static HsaGpuV10 *v;
	HsaGpuV10Ops ops = { .vram_rw = fake_vram_rw, .clock = fake_clock,
			     .mem = g_mem };

	if (!v)
		v = calloc(1, sizeof(*v));
	hsagpu_v10_init(v, VRAM, 0x3, &ops);
	return v;
}

#define RD(v, r) hsagpu_v10_read(v, r)
#define WR(v, r, x) hsagpu_v10_write(v, r, x)

static void test_post_values(void)
{
	HsaGpuV10 *v = dev();

	T(RD(v, V10_RCC_CONFIG_MEMSIZE) == VRAM >> 20);
	/* the vBIOS ran its AsicInit; vram_info module 0 */
	T(RD(v, V10_BIOS_SCRATCH_7) & V10_S7_ASIC_INIT_COMPLETE);
	T((RD(v, V10_BIOS_SCRATCH_4) >> 16 & 0xff) == 0);
	T(RD(v, V10_RCC_DEV0_EPF0_STRAP0) >> 24 == 0x3);
	T(RD(v, V10_RCC_IOV_FUNC_IDENTIFIER) == 0);
	T(RD(v, V10_MP0_C2PMSG_81) == 0);
	T(RD(v, V10_MMHUB_FB_LOCATION_BASE) == V10_FB_LOCATION_BASE);
	T(RD(v, V10_MMHUB_FB_LOCATION_TOP) ==
	  V10_FB_LOCATION_BASE + (VRAM >> 24) - 1);
	T(RD(v, V10_GFXHUB_FB_LOCATION_BASE) == V10_FB_LOCATION_BASE);
	T(RD(v, V10_GFXHUB_FB_LOCATION_TOP) ==
	  V10_FB_LOCATION_BASE + (VRAM >> 24) - 1);
	T(RD(v, V10_MMHUB_FB_OFFSET) == 0);
	/* idle */
	T(RD(v, V10_GRBM_STATUS) == 0);
	WR(v, V10_GRBM_STATUS, 0x80000000u);
	T(RD(v, V10_GRBM_STATUS) == 0);

	/* a reset puts back what the driver changed */
	WR(v, V10_RCC_CONFIG_MEMSIZE, 1);
	WR(v, V10_SCRATCH_REG0, 0xcafedead);
	hsagpu_v10_reset(v);
	T(RD(v, V10_RCC_CONFIG_MEMSIZE) == VRAM >> 20);
	T(RD(v, V10_SCRATCH_REG0) == 0);
}

static void test_plain_storage(void)
{
	HsaGpuV10 *v = dev();

	WR(v, V10_SCRATCH_REG0 + 7, 0xdeadbeef);
	T(RD(v, V10_SCRATCH_REG0 + 7) == 0xdeadbeef);
	/* an SDMA0 register the front end has no rule for */
	WR(v, 0x12e0, 0x1234);
	T(RD(v, 0x12e0) == 0x1234);
}

static void test_hdp_flush(void)
{
	HsaGpuV10 *v = dev();
	uint32_t n = v->hdp_flushes;

	WR(v, V10_GPU_HDP_FLUSH_REQ, 1u << 5);
	T(RD(v, V10_GPU_HDP_FLUSH_DONE) == 1u << 5);
	WR(v, V10_GPU_HDP_FLUSH_REQ, 1u << 0 | 1u << 12);
	T(RD(v, V10_GPU_HDP_FLUSH_DONE) == (1u << 0 | 1u << 12));
	/* DONE is not the driver's to write */
	WR(v, V10_GPU_HDP_FLUSH_DONE, 0);
	T(RD(v, V10_GPU_HDP_FLUSH_DONE) == (1u << 0 | 1u << 12));
	/* the remap page KFD maps into processes: writes flush */
	WR(v, V10_MMIO_REMAP_OFFSET / 4, 0);
	WR(v, V10_MMIO_REMAP_OFFSET / 4 + 1, 0);
	T(RD(v, V10_MMIO_REMAP_OFFSET / 4) == 0);
	T(v->hdp_flushes == n + 4);
}

/*
 * kgd_gfx_v9_set_pasid_vmid_mapping (6.1 waits for ever, without a
 * timeout): each VMID's mapping is acknowledged in UPDATE_STATUS, GFXHUB
 * VMID n in bit n, MMHUB's in bit 16 + n; the driver clears it by
 * writing the bit; the mapping reads back
 */
static void test_pasid_mapping(void)
{
	HsaGpuV10 *v = dev();
	uint32_t map = V10_ATC_PASID_MAPPING_VALID | 0x8001;

	T(RD(v, V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS) == 0);
	WR(v, V10_ATC_VMID0_PASID_MAPPING + 9, map);
	T(RD(v, V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS) == 1u << 9);
	WR(v, V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS, 1u << 9);
	T(RD(v, V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS) == 0);
	WR(v, V10_ATC_VMID16_PASID_MAPPING + 9, map);
	T(RD(v, V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS) == 1u << 25);
	WR(v, V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS, 1u << 25);
	T(RD(v, V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS) == 0);
	T(RD(v, V10_ATC_VMID0_PASID_MAPPING + 9) == map &&
	  RD(v, V10_ATC_VMID16_PASID_MAPPING + 9) == map);
}

static void test_invalidation(void)
{
	static const uint32_t hub[2] = {
		V10_GFXHUB_INV_ENG0_SEM, V10_MMHUB_INV_ENG0_SEM
	};

	for (int h = 0; h < 2; h++) {
		HsaGpuV10 *v = dev();
		uint32_t eng = 17, sem = hub[h] + eng;
		uint32_t req = hub[h] + V10_HUB_INV_REQ + eng;
		uint32_t ack = hub[h] + V10_HUB_INV_ACK + eng;

		/* amdgpu: take the semaphore, request, poll ACK, release */
		TM(RD(v, sem) == 1, "hub %d: semaphore taken", h);
		T(RD(v, ack) == 0);
		WR(v, req, 1u << 8 | 0x7u << 19);
		TM(RD(v, ack) == 1u << 8, "hub %d: VMID 8 acknowledged", h);
		WR(v, sem, 0);
		TM(RD(v, sem) == 1, "hub %d: free again", h);
		WR(v, ack, 0);
		TM(RD(v, ack) == 1u << 8, "hub %d: ACK read-only", h);
		WR(v, req, 1u << 3);
		TM(RD(v, ack) == 1u << 3, "hub %d: next request", h);
		TM(v->tlb_invalidations == 2, "hub %d: two invalidations", h);
		/* engine 0 too, and engine 17's neighbours are not engines */
		WR(v, hub[h] + V10_HUB_INV_REQ, 1);
		TM(RD(v, hub[h] + V10_HUB_INV_ACK) == 1, "hub %d: eng 0", h);
		WR(v, hub[h] + V10_HUB_INV_ACK + V10_HUB_INV_ENGINES, 77);
		TM(RD(v, hub[h] + V10_HUB_INV_ACK + V10_HUB_INV_ENGINES) == 77,
		   "hub %d: past the last ACK is plain storage", h);
	}
}

static void test_rlc(void)
{
	HsaGpuV10 *v = dev();

	WR(v, V10_RLC_SAFE_MODE, 1 | 1u << 1);
	T(RD(v, V10_RLC_SAFE_MODE) == 1u << 1);
	WR(v, V10_RLC_SERDES_CU_MASTER_BUSY, 0xffffffff);
	T(RD(v, V10_RLC_SERDES_CU_MASTER_BUSY) == 0);
	T(RD(v, V10_RLC_SERDES_NONCU_MASTER_BUSY) == 0);

	/* the counter is latched by the capture, not read live */
	T(RD(v, V10_RLC_GPU_CLOCK_COUNT_LSB) == 0);
	WR(v, V10_RLC_CAPTURE_GPU_CLOCK_COUNT, 1);
	now += 1000;
	T(RD(v, V10_RLC_GPU_CLOCK_COUNT_LSB) == 0x56789abc);
	T(RD(v, V10_RLC_GPU_CLOCK_COUNT_MSB) == 0x1234);
	T(RD(v, V10_RLC_CAPTURE_GPU_CLOCK_COUNT) == 0);
	WR(v, V10_RLC_CAPTURE_GPU_CLOCK_COUNT, 1);
	T(RD(v, V10_RLC_GPU_CLOCK_COUNT_LSB) == 0x56789abc + 1000);
}

static void test_windows(void)
{
	HsaGpuV10 *v = dev();
	uint32_t x;

	vram = calloc(1, VRAM);
	/* amdgpu_device_mm_access: bit 31 and MM_INDEX_HI, a VRAM offset */
	WR(v, V10_MM_INDEX, 0x80000000u | 0x100000);
	WR(v, V10_MM_INDEX_HI, 0);
	WR(v, V10_MM_DATA, 0x11223344);
	memcpy(&x, vram + 0x100000, 4);
	T(x == 0x11223344);
	x = 0x55667788;
	memcpy(vram + VRAM - 4, &x, 4);
	WR(v, V10_MM_INDEX, 0x80000000u | (VRAM - 4));
	T(RD(v, V10_MM_DATA) == 0x55667788);
	/* beyond VRAM: reads 0, writes go nowhere */
	WR(v, V10_MM_INDEX_HI, 1);
	T(RD(v, V10_MM_DATA) == 0);
	WR(v, V10_MM_DATA, 1);
	/* bit 31 clear: a register's byte offset */
	WR(v, V10_MM_INDEX, V10_SCRATCH_REG0 * 4 + 4);
	WR(v, V10_MM_DATA, 0xabcd);
	T(RD(v, V10_SCRATCH_REG0 + 1) == 0xabcd);
	T(RD(v, V10_MM_DATA) == 0xabcd);
	/* ... but not the window itself */
	WR(v, V10_MM_INDEX, V10_MM_DATA * 4);
	T(RD(v, V10_MM_DATA) == 0);
	WR(v, V10_MM_DATA, 5);
	/* the SMN windows read 0 */
	WR(v, V10_PCIE_INDEX2, 0x11180);
	WR(v, V10_PCIE_DATA2, 0xffffffff);
	T(RD(v, V10_PCIE_DATA2) == 0);
	free(vram);
	vram = NULL;
}

static uint32_t grbm(unsigned me, unsigned pipe, unsigned queue,
		     unsigned vmid)
{
	return pipe | me << 2 | vmid << 4 | queue << 8;
}

static void test_banks(void)
{
	HsaGpuV10 *v = dev();
	uint32_t pq_base = V10_CP_MQD_BASE_ADDR + 8;

	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 2, 3, 0));
	WR(v, pq_base, 0xaaaa);
	WR(v, V10_CP_HQD_ACTIVE, 1);
	WR(v, V10_GRBM_GFX_CNTL, grbm(2, 1, 7, 0));
	T(RD(v, pq_base) == 0);
	T(RD(v, V10_CP_HQD_ACTIVE) == 0);
	WR(v, pq_base, 0xbbbb);
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 2, 3, 0));
	T(RD(v, pq_base) == 0xaaaa);
	T(RD(v, V10_CP_HQD_ACTIVE) == 1);
	T(v->hqd[V10_HQD_INDEX(1, 2, 3)][8] == 0xaaaa);
	T(v->hqd[V10_HQD_INDEX(2, 1, 7)][8] == 0xbbbb);
	/* dequeue: the queue goes inactive */
	WR(v, V10_CP_HQD_DEQUEUE_REQUEST, 1);
	T(RD(v, V10_CP_HQD_ACTIVE) == 0);
	WR(v, V10_GRBM_GFX_CNTL, grbm(2, 1, 7, 0));
	T(RD(v, pq_base) == 0xbbbb);
	/* SH_MEM per VMID */
	for (unsigned vmid = 0; vmid < 16; vmid++) {
		WR(v, V10_GRBM_GFX_CNTL, grbm(0, 0, 0, vmid));
		WR(v, V10_SH_MEM_CONFIG, 100 + vmid);
		WR(v, V10_SH_MEM_BASES, 200 + vmid);
	}
	WR(v, V10_GRBM_GFX_CNTL, grbm(0, 0, 0, 9));
	T(RD(v, V10_SH_MEM_CONFIG) == 109);
	T(RD(v, V10_SH_MEM_BASES) == 209);
	T(v->sh_mem_config[15] == 115);
}

/* Every dword of the BAR, any value: stays inside the state */
static void test_every_register(void)
{
	HsaGpuV10 *v = dev();
	unsigned bad = 0;

	for (uint32_t dw = 0; dw < V10_NREGS; dw++) {
		if (dw == V10_GRBM_GFX_CNTL)
			continue;
		hsagpu_v10_write(v, dw, 0xffffffff);
		(void)hsagpu_v10_read(v, dw);
		bad += hsagpu_v10_reg_slot(v, dw) == NULL;
	}
	T(bad == 0);
	T(hsagpu_v10_reg_slot(v, V10_NREGS) == NULL);
	T(hsagpu_v10_read(v, V10_NREGS) == 0);
	hsagpu_v10_write(v, V10_NREGS + 100, 1);
	T(RD(v, V10_GPU_HDP_FLUSH_DONE) == 0xffffffff);
}

/*
 * The CP's rings as gfx_v9_0.c starts them, on a fake GPU memory where
 * VMID 0 addresses are offsets into one buffer
 */
static unsigned n_eop, eop_me, eop_pipe, eop_queue, eop_vmid;
static uint32_t eop_ctx;
/* the CP's other interrupts: a bad packet's */
static unsigned n_fault, fault_src;

static void g_irq(void *o, unsigned src, unsigned me, unsigned pipe,
		  unsigned queue, unsigned vmid, uint32_t ctx)
{
	if (src != V10_IV_SRC_CP_EOP) {
		n_fault++;
		fault_src = src;
	} else {
		n_eop++;
	}
	eop_me = me;
	eop_pipe = pipe;
	eop_queue = queue;
	eop_vmid = vmid;
	eop_ctx = ctx;
}

static HsaGpuV10CpOps cp_ops = {
	.read = g_read, .write = g_write, .reg_read = g_reg_read,
	.reg_write = g_reg_write, .irq = g_irq, .stopped = g_stopped,
};

static uint64_t cp_ran;

static unsigned cp_pass(HsaGpuV10 *v)
{
	cp_ops.opaque = v;
	return hsagpu_v10_cp_pass(v, &cp_ops, 64, &cp_ran);
}

/* A ring at @base written from dword @w on */
static void put(uint64_t base, uint32_t *w, uint32_t val)
{
	g32(base)[(*w)++] = val;
}

#define GFX_RING        0x10000
#define GFX_RPTR        0x20000
#define KIQ_RING        0x30000
#define KIQ_RPTR        0x20010
#define KCQ_RING        0x40000
#define KCQ_RPTR        0x20020
#define KCQ_MQD         0x50000
#define FENCE           0x20100

static void test_cp_gfx_ring(void)
{
	HsaGpuV10 *v = dev();
	uint32_t w = 0;

	memset(gmem, 0, sizeof(gmem));
	n_eop = n_stopped = 0;
	/* gfx_v9_0_cp_gfx_resume: a 4 KiB ring on doorbell 0x8b * 2 */
	WR(v, V10_CP_ME_CNTL, V10_CP_ME_HALTS);
	WR(v, V10_CP_RB0_CNTL, 9);                  /* 2^10 dwords */
	WR(v, V10_CP_RB0_WPTR, 0);
	WR(v, V10_CP_RB0_RPTR_ADDR, GFX_RPTR);
	WR(v, V10_CP_RB0_BASE, GFX_RING >> 8);
	WR(v, V10_CP_RB_DOORBELL_CONTROL, 0x116 << 2 | V10_DOORBELL_EN);
	T(!v->ring[V10_RING_GFX].active);
	WR(v, V10_CP_ME_CNTL, 0);
	T(v->ring[V10_RING_GFX].active);
	T(v->ring[V10_RING_GFX].pm4.size_dw == 1024);
	T(v->ring[V10_RING_GFX].doorbell == 0x116);

	/* the ring test, and a fence with an interrupt */
	WR(v, V10_SCRATCH_REG0, 0xcafedead);
	put(GFX_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
	put(GFX_RING, &w, V10_SCRATCH_REG0 - HSAGPU_PM4_UCONFIG_REG_START);
	put(GFX_RING, &w, 0xdeadbeef);
	put(GFX_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8));
	put(GFX_RING, &w, 0);
	put(GFX_RING, &w, HSAGPU_PM4_DATA_32 << 29 |
	    HSAGPU_PM4_INT_CONFIRMED << 24);
	put(GFX_RING, &w, FENCE);
	put(GFX_RING, &w, 0);
	put(GFX_RING, &w, 7);
	put(GFX_RING, &w, 0);
	put(GFX_RING, &w, 0);
	v->kick = false;
	T(!hsagpu_v10_cp_doorbell(v, 0x117, w));
	T(hsagpu_v10_cp_doorbell(v, 0x116, w));
	T(v->kick);
	cp_ran = 0;
	T(cp_pass(v) == 0);
	T(cp_ran == 2);
	T(RD(v, V10_SCRATCH_REG0) == 0xdeadbeef);
	T(*g32(FENCE) == 7);
	T(*g32(GFX_RPTR) == w && RD(v, V10_CP_RB0_RPTR) == w);
	/* the interrupt is off until the driver enables it */
	T(n_eop == 0 && v->eops == 1);
	WR(v, V10_CP_INT_CNTL_RING0, V10_CP_TIME_STAMP_INT_ENABLE);
	for (int i = 0; i < 8; i++)
		put(GFX_RING, &w, g32(GFX_RING)[3 + i]);
	*g32(GFX_RING + (w - 3) * 4) = 8;
	hsagpu_v10_cp_doorbell(v, 0x116, w);
	cp_pass(v);
	T(n_eop == 1 && eop_me == 0 && *g32(FENCE) == 8);

	/* a packet it does not run (DRAW_INDEX_AUTO) stops the ring, once */
	put(GFX_RING, &w, HSAGPU_PM4_HDR(0x2d, 3));
	put(GFX_RING, &w, 0);
	put(GFX_RING, &w, 0);
	hsagpu_v10_cp_doorbell(v, 0x116, w);
	cp_pass(v);
	cp_pass(v);
	T(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_OPCODE);
	/* halting the ME stops the ring; a new start latches afresh */
	WR(v, V10_CP_ME_CNTL, V10_CP_ME_HALTS);
	T(!v->ring[V10_RING_GFX].active);
	WR(v, V10_CP_ME_CNTL, 0);
	T(v->ring[V10_RING_GFX].active && !v->ring[V10_RING_GFX].pm4.error);
	/* no ring of 2^64 dwords */
	WR(v, V10_CP_ME_CNTL, V10_CP_ME_HALTS);
	WR(v, V10_CP_RB0_CNTL, 63);
	WR(v, V10_CP_ME_CNTL, 0);
	T(!v->ring[V10_RING_GFX].active);
}

static uint32_t grbm(unsigned me, unsigned pipe, unsigned queue,
		     unsigned vmid);

/* An HQD programmed by MMIO, as gfx_v9_0_kiq_init_register does */
static void hqd_mmio(HsaGpuV10 *v, unsigned me, unsigned pipe,
		     unsigned queue, uint64_t ring, uint64_t rptr,
		     uint32_t doorbell)
{
	WR(v, V10_GRBM_GFX_CNTL, grbm(me, pipe, queue, 0));
	WR(v, V10_CP_HQD_PQ_BASE, ring >> 8);
	WR(v, V10_CP_HQD_PQ_CONTROL, 9);
	WR(v, V10_CP_HQD_PQ_RPTR_REPORT_ADDR, rptr);
	WR(v, V10_CP_HQD_PQ_DOORBELL_CONTROL, doorbell << 2 | V10_DOORBELL_EN);
	WR(v, V10_CP_HQD_PQ_WPTR_LO, 0);
	WR(v, V10_CP_HQD_ACTIVE, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);
}

static void test_cp_kiq(void)
{
	HsaGpuV10 *v = dev();
	unsigned kiq = V10_HQD_INDEX(2, 1, 7), kcq = V10_HQD_INDEX(1, 0, 0);
	uint32_t w = 0, k = 0, *mqd;

	memset(gmem, 0, sizeof(gmem));
	n_eop = n_stopped = 0;
	/* the KIQ: RLC_CP_SCHEDULERS names it, then its HQD registers */
	WR(v, V10_RLC_CP_SCHEDULERS, 2 << 5 | 1 << 3 | 7 | 0x80);
	hqd_mmio(v, 2, 1, 7, KIQ_RING, KIQ_RPTR, 0);
	T(v->ring[kiq].active && v->ring[kiq].doorbell == 0);

	/* a KCQ's MQD, as gfx_v9_0_mqd_init fills it */
	mqd = g32(KCQ_MQD);
	mqd[V10_MQD_HQD_DW + V10_CP_HQD_ACTIVE - V10_HQD_FIRST] = 1;
	mqd[V10_MQD_HQD_DW + V10_CP_HQD_PQ_BASE - V10_HQD_FIRST] =
		KCQ_RING >> 8;
	mqd[V10_MQD_HQD_DW + V10_CP_HQD_PQ_CONTROL - V10_HQD_FIRST] = 9;
	mqd[V10_MQD_HQD_DW + V10_CP_HQD_PQ_RPTR_REPORT_ADDR - V10_HQD_FIRST] =
		KCQ_RPTR;
	/* SET_RESOURCES, MAP_QUEUES (gfx_v9_0_kiq_map_queues) */
	put(KIQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_RESOURCES, 8));
	for (int i = 0; i < 7; i++)
		put(KIQ_RING, &w, 0);
	put(KIQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	put(KIQ_RING, &w, 0 << 13 | 0 << 16 | 0 << 18 | 1u << 29);
	put(KIQ_RING, &w, 0x6 << 2);
	put(KIQ_RING, &w, KCQ_MQD);
	put(KIQ_RING, &w, 0);
	put(KIQ_RING, &w, 0x20200);
	put(KIQ_RING, &w, 0);
	hsagpu_v10_cp_doorbell(v, 0, w);
	cp_pass(v);
	T(n_stopped == 0);
	T(v->maps == 1 && v->ring[kcq].active);
	T(v->ring[kcq].doorbell == 6 && v->ring[kcq].pm4.size_dw == 1024);
	T(*g32(KIQ_RPTR) == w);
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, 0, 0));
	T(RD(v, V10_CP_HQD_ACTIVE) == 1);
	T(RD(v, V10_CP_HQD_PQ_BASE) == KCQ_RING >> 8);
	WR(v, V10_GRBM_GFX_CNTL, 0);

	/* the KCQ runs its ring test; its fence interrupt names it */
	WR(v, V10_CP_ME1_PIPE0_INT_CNTL, V10_CP_TIME_STAMP_INT_ENABLE);
	put(KCQ_RING, &k, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3));
	put(KCQ_RING, &k, V10_SCRATCH_REG0 + 1 - HSAGPU_PM4_UCONFIG_REG_START);
	put(KCQ_RING, &k, 0x600d);
	put(KCQ_RING, &k, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8));
	put(KCQ_RING, &k, 0);
	put(KCQ_RING, &k, HSAGPU_PM4_DATA_32 << 29 |
	    HSAGPU_PM4_INT_CONFIRMED << 24);
	put(KCQ_RING, &k, FENCE);
	put(KCQ_RING, &k, 0);
	put(KCQ_RING, &k, 9);
	put(KCQ_RING, &k, 0);
	put(KCQ_RING, &k, 0);
	hsagpu_v10_cp_doorbell(v, 6, k);
	cp_pass(v);
	T(RD(v, V10_SCRATCH_REG0 + 1) == 0x600d);
	T(*g32(FENCE) == 9 && *g32(KCQ_RPTR) == k);
	T(n_eop == 1 && eop_me == 1 && eop_pipe == 0 && eop_queue == 0);

	/* UNMAP_QUEUES by doorbell: the KCQ stops, its rptr is kept */
	put(KIQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_UNMAP_QUEUES, 6));
	put(KIQ_RING, &w, 1u << 29);
	put(KIQ_RING, &w, 6 << 2);
	put(KIQ_RING, &w, 0);
	put(KIQ_RING, &w, 0);
	put(KIQ_RING, &w, 0);
	hsagpu_v10_cp_doorbell(v, 0, w);
	cp_pass(v);
	T(!v->ring[kcq].active && v->unmaps == 1);
	T(v->ring[kiq].active);
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, 0, 0));
	T(RD(v, V10_CP_HQD_ACTIVE) == 0);
	T(RD(v, V10_CP_HQD_PQ_RPTR) == k);

	/* MAP_QUEUES on a ring that is not the KIQ stops that ring */
	WR(v, V10_CP_HQD_ACTIVE, 1);
	T(v->ring[kcq].active);
	put(KCQ_RING, &k, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	for (int i = 0; i < 6; i++)
		put(KCQ_RING, &k, 0);
	hsagpu_v10_cp_doorbell(v, 6, k);
	cp_pass(v);
	T(v->ring[kcq].pm4.error == HSAGPU_PM4_ERR_OPCODE);
	/*
	 * DEQUEUE_REQUEST stops it; a kernel queue's MQD stays as amdgpu
	 * wrote it (gfx_v9_0_kiq_init_register reads it back after
	 * dequeuing an active KIQ), and the request is consumed
	 */
	WR(v, V10_CP_HQD_DEQUEUE_REQUEST, 1);
	T(RD(v, V10_CP_HQD_ACTIVE) == 0 && !v->ring[kcq].active);
	T(RD(v, V10_CP_HQD_DEQUEUE_REQUEST) == 0);
	TM(g32(KCQ_MQD + (V10_MQD_HQD_DW + V10_CP_HQD_PQ_RPTR -
			  V10_HQD_FIRST) * 4)[0] == 0,
	   "a kernel queue dequeued: its MQD's read pointer %u",
	   g32(KCQ_MQD + (V10_MQD_HQD_DW + V10_CP_HQD_PQ_RPTR -
			  V10_HQD_FIRST) * 4)[0]);
	/*
	 * kgd_gfx_v9_hiq_mqd_load: amdkfd's HIQ (engine 1) is mapped too.
	 * amdkfd does not wait for the KIQ: its first packet (here the
	 * ring's first, 3 dwords) and doorbell may come before the map
	 * runs, and the doorbell then finds no HQD; the map takes the
	 * write pointer from its poll address (the flake of amdkfd's
	 * first preemption after a GPU reset under load)
	 */
	*(uint64_t *)(gmem + 0x20200) = 3;
	T(!hsagpu_v10_cp_doorbell(v, 0x8, 3));
	put(KIQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	put(KIQ_RING, &w, 1 << 13 | 0 << 16 | 0 << 18 | 1 << 26 | 1u << 29);
	put(KIQ_RING, &w, 0x8 << 2);
	put(KIQ_RING, &w, KCQ_MQD);
	put(KIQ_RING, &w, 0);
	put(KIQ_RING, &w, 0x20200);
	put(KIQ_RING, &w, 0);
	hsagpu_v10_cp_doorbell(v, 0, w);
	cp_pass(v);
	T(v->ring[V10_HQD_INDEX(1, 0, 1)].active && !v->ring[kiq].pm4.error);
	cp_pass(v);
	TM(v->ring[V10_HQD_INDEX(1, 0, 1)].wptr == 3 &&
	   v->ring[V10_HQD_INDEX(1, 0, 1)].pm4.rptr == 3,
	   "HIQ mapped after its doorbell: write pointer %llu, read %u",
	   (unsigned long long)v->ring[V10_HQD_INDEX(1, 0, 1)].wptr,
	   v->ring[V10_HQD_INDEX(1, 0, 1)].pm4.rptr);
	*(uint64_t *)(gmem + 0x20200) = 0;
	/* a MAP_QUEUES the KIQ cannot do stops the KIQ */
	put(KIQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	put(KIQ_RING, &w, 3 << 18 | 1u << 29);
	for (int i = 0; i < 5; i++)
		put(KIQ_RING, &w, 0);
	hsagpu_v10_cp_doorbell(v, 0, w);
	cp_pass(v);
	T(v->ring[kiq].pm4.error == HSAGPU_PM4_ERR_PACKET);
	/*
	 * An AQL queue is not a PM4 ring: the CP's pass leaves it alone, its
	 * doorbell is not the CP's, and the glue is told to start it on the
	 * queue processor (aql_dirty); its dequeue tells it to stop it
	 */
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 3, 3, 0));
	WR(v, V10_CP_HQD_AQL_CONTROL, 1);
	WR(v, V10_CP_HQD_PQ_CONTROL, 9);
	WR(v, V10_CP_HQD_PQ_DOORBELL_CONTROL, 0x40 << 2 | V10_DOORBELL_EN);
	v->aql_dirty = false;
	WR(v, V10_CP_HQD_ACTIVE, 1);
	{
		HsaGpuV10Ring *r = &v->ring[V10_HQD_INDEX(1, 3, 3)];
		uint64_t packets = r->pm4.packets;

		T(r->active && r->aql && v->aql_dirty);
		T(!hsagpu_v10_cp_doorbell(v, 0x40, 5));
		cp_pass(v);
		T(r->pm4.packets == packets && !r->pm4.error);
		v->aql_dirty = false;
		WR(v, V10_CP_HQD_DEQUEUE_REQUEST, 1);
		T(!r->active && v->aql_dirty);
	}
}

/*
 * A ring's packet that restarts that very ring (found by the vega10
 * fuzzer): the run ends there and the new ring is left as started, its
 * read pointer inside it, instead of the old run going on over it
 */
/*
 * DISPATCH_DIRECT on a compute ring (issue 30: the PM4 queues kfdtest
 * dispatches through): SET_SH_REG writes the ring's program state, the
 * dispatch runs 4 workgroups of 64 on the interpreter, each work-item
 * storing its global id at s[0:1] + 4 x id; its compute state is the
 * ring's own; a dispatch the interpreter cannot run stops the ring with
 * HSAGPU_PM4_ERR_DISPATCH. Before, DISPATCH_DIRECT was an unknown opcode.
 */
#define DISP_CODE       0x60000
#define DISP_BUF        0x61000
static void sh_regs(uint64_t ring, uint32_t *w, uint32_t reg,
		    const uint32_t *val, uint32_t n)
{
	put(ring, w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, n + 2));
	put(ring, w, reg - HSAGPU_PM4_SH_REG_START);
	for (uint32_t i = 0; i < n; i++)
		put(ring, w, val[i]);
}

/* DISPATCH_DIRECT of @x (initiator @di), then the doorbell */
static void dispatch_di(HsaGpuV10 *v, uint32_t *w, uint32_t x, uint32_t di)
{
	put(KCQ_RING, w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_DISPATCH_DIRECT, 5));
	put(KCQ_RING, w, x);
	put(KCQ_RING, w, 1);
	put(KCQ_RING, w, 1);
	put(KCQ_RING, w, di);
	hsagpu_v10_cp_doorbell(v, 0x10, *w);
}

/* DISPATCH_DIRECT of @x workgroups, then the doorbell */
static void dispatch_pkt(HsaGpuV10 *v, uint32_t *w, uint32_t x)
{
	dispatch_di(v, w, x, HSAGPU_PM4_DI_ENABLE);
}

static void test_cp_dispatch(void)
{
	/*
	 * llvm-mc -mcpu=gfx900: s_lshl_b32 s3, s2, 6; v_add_u32 v1, s3, v0;
	 * v_lshlrev_b32 v2, 2, v1; v_mov_b32 v3, s1; v_add_co_u32 v2, vcc,
	 * s0, v2; v_addc_co_u32 v3, vcc, v3, 0, vcc; flat_store_dword
	 * v[2:3], v1; s_waitcnt vmcnt(0) lgkmcnt(0); s_endpgm
	 */
	static const uint32_t code[] = {
		0x8e038602, 0x68020003, 0x24040282, 0x7e060201, 0x32040400,
		0xd11c6a03, 0x01a90103, 0xdc700000, 0x00000102, 0xbf8c0070,
		0xbf810000,
	};
	HsaGpuV10 *v = dev();
	unsigned kcq = V10_HQD_INDEX(1, 0, 0);
	const uint32_t pgm[2] = { DISP_CODE >> 8, 0 };
	/* rsrc1: 4 VGPRs, fp denormals kept; rsrc2: 2 user SGPRs, TGID_X */
	const uint32_t rsrc[2] = { 0x000f0000, 2 << 1 | 1 << 7 };
	const uint32_t nthr[3] = { 64, 1, 1 }, user[2] = { DISP_BUF, 0 };
	uint32_t w = 0, bad = 0;
	int n;

	memset(gmem, 0, sizeof(gmem));
	n_stopped = 0;
	memcpy(g32(DISP_CODE), code, sizeof(code));
	hqd_mmio(v, 1, 0, 0, KCQ_RING, KCQ_RPTR, 0x10);
	T(v->ring[kcq].active && !v->ring[kcq].aql);
	sh_regs(KCQ_RING, &w, V10_COMPUTE_PGM_LO, pgm, 2);
	sh_regs(KCQ_RING, &w, V10_COMPUTE_PGM_RSRC1, rsrc, 2);
	sh_regs(KCQ_RING, &w, V10_COMPUTE_NUM_THREAD_X, nthr, 3);
	sh_regs(KCQ_RING, &w, V10_COMPUTE_USER_DATA_0, user, 2);
	dispatch_pkt(v, &w, 4);
	for (n = 0; n < 100 && v->ring[kcq].pm4.rptr != w; n++)
		cp_pass(v);
	for (uint32_t i = 0; i < 256; i++)
		bad += g32(DISP_BUF)[i] != i;
	TM(!bad && !n_stopped && v->disp_done == 1 && !v->ring[kcq].disp_on,
	   "DISPATCH_DIRECT of 4 x 64: %u of 256 words wrong, %u stopped, "
	   "%u done", bad, n_stopped, v->disp_done);
	/* the state is the ring's: the global register file never saw it */
	T(v->ring[kcq].compute[V10_COMPUTE_PGM_LO - V10_COMPUTE_FIRST] ==
	  DISP_CODE >> 8 && v->reg[V10_COMPUTE_PGM_LO] == 0);

	/*
	 * USE_THREAD_DIMENSIONS (kfdtest's initiator): 100 work-items are
	 * two workgroups of 64, the second partial with PARTIAL_TG_EN and
	 * whole without it
	 */
	for (unsigned partial = 0; partial < 2; partial++) {
		unsigned want = partial ? 100 : 128;

		memset(g32(DISP_BUF), 0xff, 256 * 4);
		dispatch_di(v, &w, 100, HSAGPU_PM4_DI_ENABLE |
			    HSAGPU_PM4_DI_THREAD_DIMS |
			    (partial ? HSAGPU_PM4_DI_PARTIAL_TG : 0));
		for (n = 0; n < 100 && v->ring[kcq].pm4.rptr != w; n++)
			cp_pass(v);
		bad = 0;
		for (uint32_t i = 0; i < 256; i++)
			bad += g32(DISP_BUF)[i] != (i < want ? i : ~0u);
		TM(!bad && !n_stopped,
		   "100 work-items, partial %u: %u of 256 words wrong, %u stopped",
		   partial, bad, n_stopped);
	}

	/* a start offset (not modelled): the ring stops, named */
	sh_regs(KCQ_RING, &w, V10_COMPUTE_START_X, (const uint32_t[]){ 1 }, 1);
	dispatch_pkt(v, &w, 1);
	cp_pass(v);
	TM(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_DISPATCH &&
	   v->disp_what && strstr(v->disp_what, "start offset"),
	   "a dispatch with a start offset: stopped %u, error %u (%s)",
	   n_stopped, stop_err, v->disp_what ? v->disp_what : "-");
	hsagpu_v10_dispatch_free(v);
}

/*
 * Scratch on a PM4 dispatch (kfdtest's FlatScratchAccess): with
 * COMPUTE_PGM_RSRC2.SCRATCH_EN a wave's private memory is the queue's
 * address space where its FLAT_SCRATCH points, swizzled as gfx9's (lane
 * l's dword k at 256 k + 4 l), so it outlives the dispatch: one
 * dispatch writes each lane's two dwords, the next reads the second
 * back. Past the wave's COMPUTE_TMPRING_SIZE.WAVESIZE a lane's access
 * fails the dispatch. Before, SCRATCH_EN stopped the ring.
 */
#define SCR_BASE        0x64000
static void scratch_run(HsaGpuV10 *v, uint32_t *w, uint64_t code,
			uint32_t tmpring)
{
	const uint32_t pgm[2] = { code >> 8, 0 };
	/* rsrc1: 8 VGPRs, fp denormals kept; rsrc2: SCRATCH_EN, 4 user */
	const uint32_t rsrc[2] = { 0x000f0001, V10_RSRC2_SCRATCH_EN | 4 << 1 };
	const uint32_t nthr[3] = { 64, 1, 1 };
	const uint32_t user[4] = { SCR_BASE, 0, DISP_BUF, 0 };
	unsigned kcq = V10_HQD_INDEX(1, 0, 0);

	sh_regs(KCQ_RING, w, V10_COMPUTE_PGM_LO, pgm, 2);
	sh_regs(KCQ_RING, w, V10_COMPUTE_PGM_RSRC1, rsrc, 2);
	sh_regs(KCQ_RING, w, V10_COMPUTE_NUM_THREAD_X, nthr, 3);
	sh_regs(KCQ_RING, w, V10_COMPUTE_TMPRING_SIZE, &tmpring, 1);
	sh_regs(KCQ_RING, w, V10_COMPUTE_USER_DATA_0, user, 4);
	dispatch_pkt(v, w, 1);
	for (int n = 0; n < 100 && v->ring[kcq].pm4.rptr != *w &&
	     !v->ring[kcq].pm4.error; n++)
		cp_pass(v);
}

static void test_cp_scratch(void)
{
	/*
	 * llvm-mc -mcpu=gfx900: s_mov_b32 flat_scratch_lo, s0;
	 * s_mov_b32 flat_scratch_hi, s1; v_mov_b32 v2, 0; v_mov_b32 v3,
	 * 0x20000 (the private aperture); v_add_u32 v4, 100, v0;
	 * flat_store_dword v[2:3], v4; flat_store_dword v[2:3], v0
	 * offset:4; s_waitcnt vmcnt(0) lgkmcnt(0); s_endpgm
	 */
	static const uint32_t put_code[] = {
		0xbee60000, 0xbee70001, 0x7e040280, 0x7e0602ff, 0x00020000,
		0x680800ff, 0x00000064, 0xdc700000, 0x00000402, 0xdc700004,
		0x00000002, 0xbf8c0070, 0xbf810000,
	};
	/*
	 * ... then flat_load_dword v4, v[2:3] offset:4 and store it at
	 * s[2:3] + 4 x the work-item id
	 */
	static const uint32_t get_code[] = {
		0xbee60000, 0xbee70001, 0x7e040280, 0x7e0602ff, 0x00020000,
		0xdc500004, 0x04000002, 0x240a0082, 0x7e0c0203, 0x320a0a02,
		0xd11c6a06, 0x01a90106, 0xbf8c0070, 0xdc700000, 0x00000405,
		0xbf8c0070, 0xbf810000,
	};
	HsaGpuV10 *v = dev();
	unsigned kcq = V10_HQD_INDEX(1, 0, 0);
	/* 1 KiB a wave (16 bytes a lane), 4 waves of scratch */
	const uint32_t tmpring = 1 << V10_TMPRING_WAVESIZE_SHIFT | 4;
	uint32_t w = 0, bad = 0;

	memset(gmem, 0, sizeof(gmem));
	n_stopped = 0;
	memcpy(g32(DISP_CODE), put_code, sizeof(put_code));
	memcpy(g32(DISP_CODE + 0x100), get_code, sizeof(get_code));
	hqd_mmio(v, 1, 0, 0, KCQ_RING, KCQ_RPTR, 0x10);
	scratch_run(v, &w, DISP_CODE, tmpring);
	for (uint32_t l = 0; l < 64; l++)
		bad += g32(SCR_BASE)[l] != 100 + l || g32(SCR_BASE + 256)[l] != l;
	TM(!bad && !n_stopped && v->ring[kcq].pm4.rptr == w,
	   "scratch written: %u of 64 lanes wrong, %u stopped", bad,
	   n_stopped);

	/* the next dispatch finds it there */
	scratch_run(v, &w, DISP_CODE + 0x100, tmpring);
	bad = 0;
	for (uint32_t l = 0; l < 64; l++)
		bad += g32(DISP_BUF)[l] != l;
	TM(!bad && !n_stopped, "scratch read back: %u of 64 lanes wrong, "
	   "%u stopped", bad, n_stopped);

	/* no WAVESIZE: the first access is past the lane's bytes */
	memset(g32(SCR_BASE), 0, 512);
	scratch_run(v, &w, DISP_CODE, 4);
	TM(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_DISPATCH &&
	   !g32(SCR_BASE)[0],
	   "scratch past WAVESIZE: %u stopped (error %u), %x written",
	   n_stopped, stop_err, g32(SCR_BASE)[0]);
	hsagpu_v10_dispatch_free(v);
}

/*
 * A process's PM4 queue on ME1 pipe 0 @queue, VMID 5, its ring and read
 * pointer report at @ring and @rptr of the process's space (USER_BASE):
 * the HQD stays selected for the caller's other registers
 */
static void hqd_user(HsaGpuV10 *v, unsigned queue, uint64_t ring,
		     uint64_t rptr)
{
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, queue, 0));
	WR(v, V10_CP_HQD_VMID, 5);
	WR(v, V10_CP_HQD_PQ_BASE, (USER_BASE + ring) >> 8);
	WR(v, V10_CP_HQD_PQ_BASE + 1, (USER_BASE + ring) >> 40);
	WR(v, V10_CP_HQD_PQ_CONTROL, 9);
	WR(v, V10_CP_HQD_PQ_RPTR_REPORT_ADDR, (uint32_t)(USER_BASE + rptr));
	WR(v, V10_CP_HQD_PQ_RPTR_REPORT_ADDR + 1, (USER_BASE + rptr) >> 32);
}

/*
 * A user PM4 queue (kfdtest's, amdkfd's MQD in the HQD registers) lives
 * in its process's VMID: the CP reads its ring, polls its write pointer
 * and reports its read pointer there, never in the kernel's VMID 0,
 * whose addresses a process must not reach
 */
static void test_cp_user_vmid(void)
{
	HsaGpuV10 *v = dev();
	unsigned kcq = V10_HQD_INDEX(1, 0, 1);
	const uint64_t ring = 0x70000, rptr = 0x20100, wpoll = 0x20108;
	uint32_t w = 0;

	memset(gmem, 0, sizeof(gmem));
	n_stopped = 0;
	hqd_user(v, 1, ring, rptr);
	WR(v, V10_CP_HQD_PQ_WPTR_POLL_ADDR, (uint32_t)(USER_BASE + wpoll));
	WR(v, V10_CP_HQD_PQ_WPTR_POLL_ADDR + 1, (USER_BASE + wpoll) >> 32);
	WR(v, V10_CP_HQD_PQ_WPTR_LO, 0);
	WR(v, V10_CP_HQD_ACTIVE, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);
	T(v->ring[kcq].active && v->ring[kcq].pm4.vmid == 5);

	put(ring, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 3));
	put(ring, &w, 0);
	put(ring, &w, 0);
	/* no doorbell: the write pointer is polled in the queue's VMID */
	*(uint64_t *)(gmem + wpoll) = w;
	cp_pass(v);
	TM(v->ring[kcq].pm4.rptr == w && g32(rptr)[0] == w && !n_stopped,
	   "user queue in VMID 5: ran to %u of %u, reported %u, %u stopped",
	   v->ring[kcq].pm4.rptr, w, g32(rptr)[0], n_stopped);

	/*
	 * its end-of-pipe interrupt names the VMID, whose PASID amdkfd
	 * looks its event up by (kfdtest's Dispatch::Sync)
	 */
	WR(v, V10_CP_ME1_PIPE0_INT_CNTL, V10_CP_TIME_STAMP_INT_ENABLE);
	n_eop = 0;
	put(ring, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8));
	put(ring, &w, 0);
	put(ring, &w, HSAGPU_PM4_DATA_32 << 29 | HSAGPU_PM4_INT_CONFIRMED << 24);
	put(ring, &w, (uint32_t)(USER_BASE + rptr + 16));
	put(ring, &w, (USER_BASE + rptr + 16) >> 32);
	put(ring, &w, 0x77);
	put(ring, &w, 0);
	put(ring, &w, 0x77);
	*(uint64_t *)(gmem + wpoll) = w;
	cp_pass(v);
	TM(n_eop == 1 && eop_vmid == 5 && eop_ctx == 0x77 &&
	   g32(rptr + 16)[0] == 0x77 && !n_stopped,
	   "RELEASE_MEM in VMID 5: %u interrupts, VMID %u, context %#x, "
	   "data %#x", n_eop, eop_vmid, eop_ctx, g32(rptr + 16)[0]);
	WR(v, V10_CP_ME1_PIPE0_INT_CNTL, 0);

	/*
	 * amdkfd without its scheduler evicts it (kgd_gfx_v9_hqd_destroy)
	 * and reloads it (kgd_gfx_v9_hqd_load): the write pointer guessed
	 * from the read pointer, then CP_PQ_WPTR_POLL_CNTL1's one-shot read
	 * of the process's write pointer, which moved meanwhile (kfdtest's
	 * MemoryRegister: a dispatch submitted while evicted)
	 */
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, 1, 0));
	WR(v, V10_CP_HQD_DEQUEUE_REQUEST, 1);
	T(!v->ring[kcq].active);
	put(ring, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 3));
	put(ring, &w, 0);
	put(ring, &w, 0);
	*(uint64_t *)(gmem + wpoll) = w;
	WR(v, V10_CP_HQD_PQ_WPTR_LO, w - 3);
	/* (a doorbell now: the write pointer is no longer polled) */
	WR(v, V10_CP_HQD_PQ_DOORBELL_CONTROL, 0x30 << 2 | V10_DOORBELL_EN);
	WR(v, V10_CP_PQ_WPTR_POLL_CNTL1, 1u << (0 * 8 + 1));
	WR(v, V10_CP_HQD_ACTIVE, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);
	cp_pass(v);
	TM(v->ring[kcq].pm4.rptr == w && !n_stopped && !v->wptr_poll,
	   "reloaded with a guessed write pointer: ran to %u of %u",
	   v->ring[kcq].pm4.rptr, w);
}

/*
 * A user queue that hits a packet the CP refuses stops, and the CP says
 * which queue of which process: CP_BAD_OPCODE (183) with the queue's
 * doorbell index in its process's page and the runtime's exception code
 * (amdkfd's kfd_int_process_v9), or CP_PRIV_REG_FAULT (184) for a
 * register write an unprivileged queue may not make, each only when the
 * pipe's INT_CNTL enables it (amdkfd's init_interrupts writes it through
 * CPC_INT_CNTL under the GRBM selection). A memory error raises none
 * here: its VM fault is the hub's. Before, the ring stopped silently and
 * the process waited for ever.
 */
static void fault_queue(HsaGpuV10 *v, unsigned queue, uint64_t ring,
			uint32_t db, uint32_t *w)
{
	/* a fresh queue, its memory cleared, nothing stopped yet */
	hsagpu_v10_cp_hqd_stop(v, V10_HQD_INDEX(1, 0, queue), false);
	memset(gmem, 0, sizeof(gmem));
	*w = 0;
	n_stopped = 0;
	hqd_user(v, queue, ring, 0x20100 + queue * 16);
	WR(v, V10_CP_HQD_PQ_DOORBELL_CONTROL, db << 2 | V10_DOORBELL_EN);
	WR(v, V10_CP_HQD_PQ_RPTR, 0);
	WR(v, V10_CP_HQD_PQ_WPTR_LO, 0);
	WR(v, V10_CP_HQD_ACTIVE, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);
}

static void test_cp_fault(void)
{
	HsaGpuV10 *v = dev();
	/* doorbell 37 of a process's page two pages in (8-byte doorbells) */
	const uint32_t db = 2048 * 2 + 37 * 2;
	const uint64_t ring = 0x70000;
	unsigned q2 = V10_HQD_INDEX(1, 0, 2);
	uint32_t w = 0;

	n_fault = fault_src = 0;
	/* the interrupts enabled as amdkfd does, through CPC_INT_CNTL */
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, 0, 0));
	WR(v, V10_CPC_INT_CNTL, V10_CP_OPCODE_ERROR_INT_ENABLE |
	   V10_CP_PRIV_REG_INT_ENABLE | V10_CP_TIME_STAMP_INT_ENABLE);
	WR(v, V10_GRBM_GFX_CNTL, 0);
	T(RD(v, V10_CP_ME1_PIPE0_INT_CNTL) & V10_CP_OPCODE_ERROR_INT_ENABLE);
	T(!RD(v, V10_CP_ME1_PIPE0_INT_CNTL + 1));

	fault_queue(v, 2, ring, db, &w);
	put(ring, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 2));
	put(ring, &w, 0);
	put(ring, &w, HSAGPU_PM4_HDR(0xee, 2));         /* no such opcode */
	put(ring, &w, 0);
	T(hsagpu_v10_cp_doorbell(v, db, w));
	cp_pass(v);
	TM(n_stopped == 1 && n_fault == 1 &&
	   fault_src == V10_IV_SRC_CP_BAD_OPCODE,
	   "bad opcode: %u stopped, %u interrupts, source %u", n_stopped,
	   n_fault, fault_src);
	T(eop_me == 1 && eop_pipe == 0 && eop_queue == 2 && eop_vmid == 5);
	TM(eop_ctx == (37 | V10_EC_QUEUE_PACKET_UNSUPPORTED << 10),
	   "context 0x%x: doorbell 37, EC_QUEUE_PACKET_UNSUPPORTED", eop_ctx);
	T(v->ring[q2].pm4.error == HSAGPU_PM4_ERR_OPCODE && v->cp_faults == 1);
	/* a stopped ring says it once */
	cp_pass(v);
	T(n_fault == 1);

	/* a config register through WRITE_DATA: a privileged-register fault */
	fault_queue(v, 2, ring, db, &w);
	put(ring, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	put(ring, &w, HSAGPU_PM4_SEL_REG << 8);
	put(ring, &w, V10_CP_INT_CNTL_RING0);
	put(ring, &w, 0);
	put(ring, &w, 0xffffffff);
	T(hsagpu_v10_cp_doorbell(v, db, w));
	cp_pass(v);
	TM(n_fault == 2 && fault_src == V10_IV_SRC_CP_PRIV_REG && eop_ctx == 37,
	   "privileged register: %u interrupts, source %u, context 0x%x",
	   n_fault, fault_src, eop_ctx);
	T(v->ring[q2].pm4.error == HSAGPU_PM4_ERR_PRIV);
	T(RD(v, V10_CP_INT_CNTL_RING0) != 0xffffffff);

	/* a pipe without the enable: the ring stops, nothing is raised */
	WR(v, V10_CP_ME1_PIPE0_INT_CNTL, V10_CP_TIME_STAMP_INT_ENABLE);
	fault_queue(v, 2, ring, db, &w);
	put(ring, &w, HSAGPU_PM4_HDR(0xee, 2));
	put(ring, &w, 0);
	T(hsagpu_v10_cp_doorbell(v, db, w));
	cp_pass(v);
	T(n_stopped == 1 && n_fault == 2);

	/* a write outside the process's memory: its VM fault, no CP's */
	WR(v, V10_CP_ME1_PIPE0_INT_CNTL, V10_CP_OPCODE_ERROR_INT_ENABLE);
	fault_queue(v, 2, ring, db, &w);
	put(ring, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	put(ring, &w, HSAGPU_PM4_SEL_MEM << 8);
	put(ring, &w, 0x100);
	put(ring, &w, 0x7fff);
	put(ring, &w, 1);
	T(hsagpu_v10_cp_doorbell(v, db, w));
	cp_pass(v);
	TM(n_stopped == 1 && stop_err == HSAGPU_PM4_ERR_MEMORY && n_fault == 2,
	   "write past memory: %u stopped (error %u), %u interrupts", n_stopped,
	   stop_err, n_fault);
	hsagpu_v10_cp_hqd_stop(v, q2, false);
}

/*
 * A PM4 queue preempted in the middle of an IB's DISPATCH_DIRECT and
 * loaded again, as amdkfd without its scheduler evicts and restores it
 * (kgd_gfx_v9_hqd_destroy's drain and save, kgd_gfx_v9_hqd_load from
 * the MQD): the rest of the IB runs, the workgroups done before are not
 * run again, and the compute registers come back from the MQD. Each
 * workgroup adds 1 to a counter, so that either shows. Before, the
 * queue came back past its IB with its dispatch dropped.
 */
#define PRE_IB          0x62000
#define PRE_CTX         0x80000
#define PRE_COUNT       0x61000
/* kgd_gfx_v9_hqd_load: every HQD register of ME1/0/0 from its MQD */
static void hqd_reload(HsaGpuV10 *v)
{
	const uint32_t *img = g32(KCQ_MQD + V10_MQD_HQD_DW * 4);

	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, 0, 0));
	for (uint32_t r = V10_HQD_FIRST; r < V10_HQD_FIRST + V10_HQD_NREGS; r++)
		if (r != V10_CP_HQD_ACTIVE)
			WR(v, r, img[r - V10_HQD_FIRST]);
	WR(v, V10_CP_HQD_ACTIVE, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);
}

static void test_cp_preempt(void)
{
	/*
	 * llvm-mc -mcpu=gfx900: s_load_dword s4, s[0:1], 0x0 glc;
	 * s_waitcnt lgkmcnt(0); s_add_u32 s4, s4, 1; s_store_dword s4,
	 * s[0:1], 0x0 glc; s_waitcnt lgkmcnt(0); s_endpgm
	 */
	static const uint32_t code[] = {
		0xc0030100, 0, 0xbf8cc07f, 0x80048104, 0xc0430100, 0,
		0xbf8cc07f, 0xbf810000,
	};
	const uint32_t pgm[2] = { (USER_BASE + DISP_CODE) >> 8,
				  (USER_BASE + DISP_CODE) >> 40 };
	/* rsrc1: 1 VGPR block; rsrc2: 2 user SGPRs */
	const uint32_t rsrc[2] = { 0x000f0000, 2 << 1 };
	const uint32_t nthr[3] = { 64, 1, 1 };
	const uint32_t user[2] = { (uint32_t)(USER_BASE + PRE_COUNT),
				   (USER_BASE + PRE_COUNT) >> 32 };
	const uint32_t total = 20000, stack = 0x1000;
	HsaGpuV10 *v = dev();
	unsigned kcq = V10_HQD_INDEX(1, 0, 0);
	uint32_t w = 0, ib = 0, done, img[V10_HQD_NREGS];
	int n;

	memset(gmem, 0, sizeof(gmem));
	n_stopped = 0;
	v->ctx_lost = v->ctx_refused = 0;
	memcpy(g32(DISP_CODE), code, sizeof(code));
	sh_regs(PRE_IB, &ib, V10_COMPUTE_PGM_LO, pgm, 2);
	sh_regs(PRE_IB, &ib, V10_COMPUTE_PGM_RSRC1, rsrc, 2);
	sh_regs(PRE_IB, &ib, V10_COMPUTE_NUM_THREAD_X, nthr, 3);
	sh_regs(PRE_IB, &ib, V10_COMPUTE_USER_DATA_0, user, 2);
	put(PRE_IB, &ib, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_DISPATCH_DIRECT, 5));
	put(PRE_IB, &ib, total);
	put(PRE_IB, &ib, 1);
	put(PRE_IB, &ib, 1);
	put(PRE_IB, &ib, HSAGPU_PM4_DI_ENABLE);
	/* the ring: the IB, then a fence written once it is done */
	put(KCQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4));
	put(KCQ_RING, &w, (uint32_t)(USER_BASE + PRE_IB));
	put(KCQ_RING, &w, (USER_BASE + PRE_IB) >> 32);
	put(KCQ_RING, &w, ib | HSAGPU_PM4_IB_VALID);
	put(KCQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	put(KCQ_RING, &w, HSAGPU_PM4_SEL_MEM << 8);
	put(KCQ_RING, &w, (uint32_t)(USER_BASE + FENCE));
	put(KCQ_RING, &w, (USER_BASE + FENCE) >> 32);
	put(KCQ_RING, &w, 0x77);

	hqd_user(v, 0, KCQ_RING, KCQ_RPTR);
	WR(v, V10_CP_MQD_BASE_ADDR, KCQ_MQD);
	WR(v, V10_CP_HQD_PQ_DOORBELL_CONTROL, 0x10 << 2 | V10_DOORBELL_EN);
	WR(v, V10_CP_HQD_CTX_SAVE_BASE_ADDR, (uint32_t)(USER_BASE + PRE_CTX));
	WR(v, V10_CP_HQD_CTX_SAVE_BASE_ADDR + 1, (USER_BASE + PRE_CTX) >> 32);
	WR(v, V10_CP_HQD_CNTL_STACK_SIZE, stack);
	WR(v, V10_CP_HQD_WG_STATE_OFFSET, stack);
	WR(v, V10_CP_HQD_CTX_SAVE_SIZE, 0x40000);
	WR(v, V10_CP_HQD_PQ_WPTR_LO, 0);
	WR(v, V10_CP_HQD_ACTIVE, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);
	hsagpu_v10_cp_doorbell(v, 0x10, w);
	cp_pass(v);
	done = g32(PRE_COUNT)[0];
	TM(v->ring[kcq].disp_on && done && done < total &&
	   v->ring[kcq].pm4.ib_active,
	   "a slice of the dispatch ran: %u of %u workgroups", done, total);

	/* evicted: drained and saved */
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, 0, 0));
	WR(v, V10_CP_HQD_DEQUEUE_REQUEST, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);
	memcpy(img, g32(KCQ_MQD + V10_MQD_HQD_DW * 4), sizeof(img));
	TM(!v->ring[kcq].active &&
	   (img[V10_CP_HQD_IB_CONTROL - V10_HQD_FIRST] & V10_IB_PROCESSING) &&
	   img[V10_CP_HQD_WG_STATE_OFFSET - V10_HQD_FIRST] > stack &&
	   g32(KCQ_MQD + (V10_MQD_COMPUTE_DW + V10_COMPUTE_PGM_LO -
			  V10_COMPUTE_FIRST) * 4)[0] == pgm[0] &&
	   !v->ctx_lost,
	   "saved to the MQD: IB control %#x, workgroup data to %#x, %u lost",
	   img[V10_CP_HQD_IB_CONTROL - V10_HQD_FIRST],
	   img[V10_CP_HQD_WG_STATE_OFFSET - V10_HQD_FIRST], v->ctx_lost);
	T(g32(PRE_COUNT)[0] == done && !g32(FENCE)[0]);

	/* restored: every register from the MQD, then active */
	hqd_reload(v);
	T(v->ring[kcq].active && v->ring[kcq].disp_on &&
	  v->ring[kcq].compute[V10_COMPUTE_PGM_LO - V10_COMPUTE_FIRST] ==
	  pgm[0]);
	for (n = 0; n < 1000 && v->ring[kcq].pm4.rptr != w; n++)
		cp_pass(v);
	TM(g32(PRE_COUNT)[0] == total && g32(FENCE)[0] == 0x77 &&
	   !n_stopped && !v->ctx_refused,
	   "after the reload: %u of %u workgroups counted, fence %#x, %u "
	   "stopped, %u refused (%s)", g32(PRE_COUNT)[0], total,
	   g32(FENCE)[0], n_stopped, v->ctx_refused,
	   v->ctx_why ? v->ctx_why : "-");
	/* the area is taken once: a second reload starts nothing again */
	T(g32(KCQ_MQD + (V10_MQD_HQD_DW + V10_CP_HQD_WG_STATE_OFFSET -
			 V10_HQD_FIRST) * 4)[0] == stack);

	/*
	 * A context whose packet was rewritten meanwhile is refused, and
	 * the dispatch (now a different one) runs whole
	 */
	g32(PRE_COUNT)[0] = 0;
	g32(FENCE)[0] = 0;
	put(KCQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4));
	put(KCQ_RING, &w, (uint32_t)(USER_BASE + PRE_IB));
	put(KCQ_RING, &w, (USER_BASE + PRE_IB) >> 32);
	put(KCQ_RING, &w, ib | HSAGPU_PM4_IB_VALID);
	hsagpu_v10_cp_doorbell(v, 0x10, w);
	cp_pass(v);
	done = g32(PRE_COUNT)[0];
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, 0, 0));
	WR(v, V10_CP_HQD_DEQUEUE_REQUEST, 1);
	WR(v, V10_GRBM_GFX_CNTL, 0);
	g32(PRE_IB)[ib - 4] = total / 2;
	hqd_reload(v);
	for (n = 0; n < 1000 && (v->ring[kcq].pm4.rptr != w ||
				 v->ring[kcq].pm4.ib_active); n++)
		cp_pass(v);
	TM(done && done < total && v->ctx_refused == 1 &&
	   g32(PRE_COUNT)[0] == done + total / 2 && !n_stopped,
	   "a rewritten dispatch after %u workgroups: refused %u, counted %u",
	   done, v->ctx_refused, g32(PRE_COUNT)[0]);
	WR(v, V10_GRBM_GFX_CNTL, grbm(1, 0, 0, 0));
	WR(v, V10_CP_HQD_DEQUEUE_REQUEST, 2);
	WR(v, V10_GRBM_GFX_CNTL, 0);
	hsagpu_v10_dispatch_free(v);
}

static void test_cp_self_restart(void)
{
	HsaGpuV10 *v = dev();
	unsigned kiq = V10_HQD_INDEX(2, 1, 7);
	uint32_t w = 0, *mqd;

	memset(gmem, 0, sizeof(gmem));
	n_stopped = 0;
	/* the GFX ring shrinks and restarts itself through CP_ME_CNTL */
	WR(v, V10_CP_ME_CNTL, V10_CP_ME_HALTS);
	WR(v, V10_CP_RB0_CNTL, 9);
	WR(v, V10_CP_RB0_RPTR_ADDR, GFX_RPTR);
	WR(v, V10_CP_RB0_BASE, GFX_RING >> 8);
	WR(v, V10_CP_RB_DOORBELL_CONTROL, 0x116 << 2 | V10_DOORBELL_EN);
	WR(v, V10_CP_ME_CNTL, 0);
	for (int i = 0; i < 40; i++)
		put(GFX_RING, &w, 0x80000000u);
	put(GFX_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
	put(GFX_RING, &w, HSAGPU_PM4_SEL_REG << 8);
	put(GFX_RING, &w, V10_CP_RB0_CNTL);
	put(GFX_RING, &w, 0);
	put(GFX_RING, &w, 2);                   /* 8 dwords */
	put(GFX_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 6));
	put(GFX_RING, &w, HSAGPU_PM4_SEL_REG << 8 | HSAGPU_PM4_WD_ONE_ADDR);
	put(GFX_RING, &w, V10_CP_ME_CNTL);
	put(GFX_RING, &w, 0);
	put(GFX_RING, &w, V10_CP_ME_HALTS);
	put(GFX_RING, &w, 0);
	for (int i = 0; i < 20; i++)
		put(GFX_RING, &w, 0x80000000u);
	hsagpu_v10_cp_doorbell(v, 0x116, w);
	cp_pass(v);
	cp_pass(v);
	T(v->ring[V10_RING_GFX].active);
	T(v->ring[V10_RING_GFX].pm4.size_dw == 8);
	T(v->ring[V10_RING_GFX].pm4.rptr < 8);

	/* the KIQ maps a queue onto itself */
	w = 0;
	WR(v, V10_RLC_CP_SCHEDULERS, 2 << 5 | 1 << 3 | 7 | 0x80);
	hqd_mmio(v, 2, 1, 7, KIQ_RING, KIQ_RPTR, 0);
	mqd = g32(KCQ_MQD);
	memset(mqd, 0, 512 * 4);
	mqd[V10_MQD_HQD_DW + V10_CP_HQD_PQ_BASE - V10_HQD_FIRST] =
		KCQ_RING >> 8;
	mqd[V10_MQD_HQD_DW + V10_CP_HQD_PQ_CONTROL - V10_HQD_FIRST] = 1;
	for (int i = 0; i < 30; i++)
		put(KIQ_RING, &w, 0x80000000u);
	put(KIQ_RING, &w, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7));
	put(KIQ_RING, &w, 7 << 13 | 1 << 16 | 1 << 18 | 1u << 29);
	put(KIQ_RING, &w, 0);
	put(KIQ_RING, &w, KCQ_MQD);
	put(KIQ_RING, &w, 0);
	put(KIQ_RING, &w, 0x20200);
	put(KIQ_RING, &w, 0);
	for (int i = 0; i < 30; i++)
		put(KIQ_RING, &w, 0x80000000u);
	hsagpu_v10_cp_doorbell(v, 0, w);
	cp_pass(v);
	cp_pass(v);
	T(v->ring[kiq].pm4.size_dw == 4);
	T(v->ring[kiq].pm4.rptr < 4);
	T(v->ring[kiq].pm4.base == KCQ_RING);
}

/* SDMA1's PAGE queue as sdma_v4_0_page_resume programs it */
static void test_sdma_rings(void)
{
	HsaGpuV10 *v = dev();
	HsaGpuV10SdmaRing r;
#define SREG(off) hsagpu_v10_sdma_reg(1, 1, (off))

	T(SREG(0) == 0x1540);
	T(hsagpu_v10_sdma_is_reg(0x1540) && hsagpu_v10_sdma_is_reg(0x148a));
	T(!hsagpu_v10_sdma_is_reg(0x1460) && !hsagpu_v10_sdma_is_reg(0x1660));
	v->sdma_dirty = false;
	WR(v, SREG(V10_SDMA_RB_CNTL), 9 << 1);          /* 2^9 dwords */
	T(v->sdma_dirty);
	WR(v, SREG(V10_SDMA_RB_RPTR), 0);
	WR(v, SREG(V10_SDMA_RB_RPTR_ADDR_HI), 0x1);
	WR(v, SREG(V10_SDMA_RB_RPTR_ADDR_LO), 0x2003);
	WR(v, SREG(V10_SDMA_RB_BASE), 0x123400);
	WR(v, SREG(V10_SDMA_RB_BASE + 1), 0x5);
	WR(v, SREG(V10_SDMA_DOORBELL_OFFSET), 0x1e4 << 2);
	WR(v, SREG(V10_SDMA_DOORBELL), V10_SDMA_DOORBELL_ENABLE);
	WR(v, SREG(V10_SDMA_RB_WPTR_POLL_ADDR_LO), 0x3008);
	WR(v, SREG(V10_SDMA_RB_CNTL), 9 << 1 | 1);
	/* the engine is still halted (sdma_v4_0_enable comes last) */
	WR(v, V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 1);
	T(!hsagpu_v10_sdma_ring(v, 1, 1, &r));
	WR(v, V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 0);
	T(hsagpu_v10_sdma_ring(v, 1, 1, &r));
	T(r.base == (0x123400ULL << 8 | 0x5ULL << 40));
	T(r.size == 2048 && r.doorbell == 0x1e4);
	T(r.rptr_addr == 0x100002000ULL && r.wptr_addr == 0x3008);
	T(!hsagpu_v10_sdma_ring(v, 0, 1, &r));
	/* no doorbell, or an absurd size: not a ring the device runs */
	WR(v, SREG(V10_SDMA_DOORBELL), 0);
	T(!hsagpu_v10_sdma_ring(v, 1, 1, &r));
	WR(v, SREG(V10_SDMA_DOORBELL), V10_SDMA_DOORBELL_ENABLE);
	WR(v, SREG(V10_SDMA_RB_CNTL), 63 << 1 | 1);
	T(!hsagpu_v10_sdma_ring(v, 1, 1, &r) && r.size == 0);
	/* both engines report idle */
	T(RD(v, V10_SDMA0_STATUS_REG) & 1);
	T(RD(v, V10_SDMA0_STATUS_REG + V10_SDMA_ENGINE_STRIDE) & 1);
#undef SREG
}

/*
 * The device around the SDMA queues, as vega10-pci.c is: which queues
 * run, with what, the write pointers given to them, the refusals told;
 * fake_rptr[qi] is where a running queue has got to
 */
static struct {
	unsigned starts, stops, wptrs, refusals;
	HsaGpuV10SdmaRing r[V10_SDMA_RINGS];
	uint64_t wptr[V10_SDMA_RINGS];
	const char *why;
	unsigned why_qi;
} sd;
static uint64_t fake_rptr[V10_SDMA_RINGS];

static void sd_stop(void *o, unsigned qi)
{
	sd.stops++;
	sd.r[qi].run = false;
}

static bool sd_start(void *o, unsigned qi, const HsaGpuV10SdmaRing *r)
{
	sd.starts++;
	sd.r[qi] = *r;
	sd.wptr[qi] = r->wptr;
	fake_rptr[qi] = r->rptr;
	return true;
}

static void sd_wptr(void *o, unsigned qi, uint64_t wptr)
{
	sd.wptrs++;
	sd.wptr[qi] = wptr;
}

static void sd_refused(void *o, unsigned qi, const char *why)
{
	sd.refusals++;
	sd.why = why;
	sd.why_qi = qi;
}

static uint64_t sd_rptr(void *o, unsigned qi)
{
	return fake_rptr[qi];
}

static void sd_sync(HsaGpuV10 *v)
{
	HsaGpuV10SdmaSync ops = {
		.stop = sd_stop, .start = sd_start, .wptr = sd_wptr,
		.refused = sd_refused,
	};

	hsagpu_v10_sdma_sync(v, &ops);
}

static HsaGpuV10 *sd_dev(void)
{
	HsaGpuV10 *v = dev();

	memset(&sd, 0, sizeof(sd));
	memset(fake_rptr, 0, sizeof(fake_rptr));
	v->ops.sdma_rptr = sd_rptr;
	return v;
}

/* SDMA1's RLC1 queue (3): the queue kgd_hqd_sdma_load loads */
#define RREG(off) hsagpu_v10_sdma_reg(1, 3, (off))
#define RQI	(1 * V10_SDMA_QUEUES + 3)
#define RLC_CNTL (10 << 1 | 1 << 12 | 6 << 16 | 7 << 24)	/* VMID 7 */
#define RLC_DB	0x1804		/* a process's doorbell page, slot 2 */

/*
 * kgd_hqd_sdma_load (6.1 and 6.12): RB_CNTL without enable, the idle
 * wait, doorbell, RB_RPTR, RB_WPTR (the user's) inside MINOR_PTR_UPDATE,
 * the ring, the read pointer's address, RB_CNTL with enable
 */
static void sd_kfd_load(HsaGpuV10 *v, uint64_t rptr, uint64_t wptr)
{
	WR(v, RREG(V10_SDMA_RB_CNTL), RLC_CNTL);
	sd_sync(v);
	T(RD(v, RREG(V10_SDMA_CONTEXT_STATUS)) & V10_SDMA_CONTEXT_STATUS_IDLE);
	WR(v, RREG(V10_SDMA_DOORBELL_OFFSET), RLC_DB << 2);
	WR(v, RREG(V10_SDMA_DOORBELL), V10_SDMA_DOORBELL_ENABLE);
	WR(v, RREG(V10_SDMA_RB_RPTR), rptr);
	WR(v, RREG(V10_SDMA_RB_RPTR + 1), rptr >> 32);
	WR(v, RREG(V10_SDMA_MINOR_PTR_UPDATE), 1);
	WR(v, RREG(V10_SDMA_RB_WPTR), wptr);
	WR(v, RREG(V10_SDMA_RB_WPTR + 1), wptr >> 32);
	WR(v, RREG(V10_SDMA_MINOR_PTR_UPDATE), 0);
	WR(v, RREG(V10_SDMA_RB_BASE), 0x7f001234);
	WR(v, RREG(V10_SDMA_RB_BASE + 1), 0);
	WR(v, RREG(V10_SDMA_RB_RPTR_ADDR_LO), 0x5000);
	WR(v, RREG(V10_SDMA_RB_RPTR_ADDR_HI), 0x7f);
	WR(v, RREG(V10_SDMA_RB_CNTL), RLC_CNTL | 1);
	sd_sync(v);
}

/*
 * kgd_hqd_sdma_destroy: RB_CNTL's enable cleared, the idle wait, the
 * doorbell off, the enable set again, RB_RPTR read back into the MQD
 */
static uint64_t sd_kfd_destroy(HsaGpuV10 *v)
{
	uint32_t cntl = RD(v, RREG(V10_SDMA_RB_CNTL));

	WR(v, RREG(V10_SDMA_RB_CNTL), cntl & ~1u);
	T(RD(v, RREG(V10_SDMA_CONTEXT_STATUS)) & V10_SDMA_CONTEXT_STATUS_IDLE);
	sd_sync(v);
	T(RD(v, RREG(V10_SDMA_CONTEXT_STATUS)) & V10_SDMA_CONTEXT_STATUS_IDLE);
	WR(v, RREG(V10_SDMA_DOORBELL), 0);
	sd_sync(v);
	WR(v, RREG(V10_SDMA_RB_CNTL), RD(v, RREG(V10_SDMA_RB_CNTL)) | 1);
	sd_sync(v);
	return (uint64_t)RD(v, RREG(V10_SDMA_RB_RPTR + 1)) << 32 |
	       RD(v, RREG(V10_SDMA_RB_RPTR));
}

/*
 * An RLC queue loaded as amdkfd does without the scheduler: it runs with
 * no write pointer in memory, from RB_WPTR; its doorbell's 64-bit value
 * is its write pointer; destroy leaves in RB_RPTR where it stopped
 */
static void test_sdma_rlc_load(void)
{
	HsaGpuV10 *v = sd_dev();
	const HsaGpuV10SdmaRing *r = &sd.r[RQI];

	T(RREG(0) == 0x1600);		/* SDMA1_RLC1_RB_CNTL */
	WR(v, V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 0);
	sd_kfd_load(v, 0x100, 0x180);
	T(sd.starts == 1 && sd.stops == 0 && v->sdma_running[RQI].run);
	T(r->base == 0x7f00123400ULL && r->size == 4096 && r->vmid == 7);
	T(r->rptr == 0x100 && r->wptr == 0x180 && r->wptr_addr == 0);
	T(r->rptr_addr == 0x7f00005000ULL && r->doorbell == RLC_DB);
	T(v->kick);
	/* running: not idle, RB_RPTR where it is */
	T(!(RD(v, RREG(V10_SDMA_CONTEXT_STATUS)) &
	    V10_SDMA_CONTEXT_STATUS_IDLE));
	fake_rptr[RQI] = 0x140;
	T(RD(v, RREG(V10_SDMA_RB_RPTR)) == 0x140);
	T(RD(v, RREG(V10_SDMA_RB_RPTR + 1)) == 0);

	/* ROCr's doorbell: 64 bits, bytes; not a restart */
	T(hsagpu_v10_sdma_doorbell(v, RLC_DB, 0x1c0, 8));
	T(RD(v, RREG(V10_SDMA_RB_WPTR)) == 0x1c0);
	sd_sync(v);
	T(sd.wptrs == 1 && sd.wptr[RQI] == 0x1c0 && sd.starts == 1 &&
	  sd.stops == 0);
	T(hsagpu_v10_sdma_doorbell(v, RLC_DB, 0x100000000ULL | 0x40, 8));
	T(RD(v, RREG(V10_SDMA_RB_WPTR + 1)) == 1);
	/* a 4-byte write is the low half */
	T(hsagpu_v10_sdma_doorbell(v, RLC_DB, 0x80, 4));
	sd_sync(v);
	T(sd.wptr[RQI] == 0x100000080ULL && sd.wptrs == 2);
	/* another doorbell is not this queue's; nor is a GFX queue's value */
	T(!hsagpu_v10_sdma_doorbell(v, RLC_DB + 2, 0x300, 8));
	/* MINOR_PTR_UPDATE holds RB_WPTR's halves back until cleared */
	WR(v, RREG(V10_SDMA_MINOR_PTR_UPDATE), 1);
	WR(v, RREG(V10_SDMA_RB_WPTR), 0x200);
	sd_sync(v);
	WR(v, RREG(V10_SDMA_RB_WPTR + 1), 0);
	sd_sync(v);
	T(sd.wptrs == 2);
	WR(v, RREG(V10_SDMA_MINOR_PTR_UPDATE), 0);
	sd_sync(v);
	T(sd.wptrs == 3 && sd.wptr[RQI] == 0x200 && sd.stops == 0);

	/* destroy: stopped at 0x1e0, which RB_RPTR keeps */
	fake_rptr[RQI] = 0x1e0;
	T(sd_kfd_destroy(v) == 0x1e0);
	T(sd.stops == 1 && sd.starts == 1 && !v->sdma_running[RQI].run);
	/* enabled without its doorbell: parked, not refused */
	T(RD(v, RREG(V10_SDMA_RB_CNTL)) & 1);
	T(sd.refusals == 0);
	T(!hsagpu_v10_sdma_doorbell(v, RLC_DB, 0x240, 8));
	T(RD(v, RREG(V10_SDMA_RB_RPTR)) == 0x1e0);
	/* restored (amdkfd's eviction and restore): on from there */
	sd_kfd_load(v, 0x1e0, 0x240);
	T(sd.starts == 2 && r->rptr == 0x1e0 && r->wptr == 0x240);
	/* the engine halted stops it too, keeping where it was */
	fake_rptr[RQI] = 0x220;
	WR(v, V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 1);
	sd_sync(v);
	T(sd.stops == 2 && RD(v, RREG(V10_SDMA_RB_RPTR)) == 0x220);
	T(RD(v, RREG(V10_SDMA_CONTEXT_STATUS)) & V10_SDMA_CONTEXT_STATUS_IDLE);
	/* a reset forgets every queue */
	WR(v, V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 0);
	sd_sync(v);
	T(v->sdma_running[RQI].run);
	hsagpu_v10_reset(v);
	T(!v->sdma_running[RQI].run && RD(v, RREG(V10_SDMA_RB_CNTL)) == 0);
	T(!hsagpu_v10_sdma_doorbell(v, RLC_DB, 0x240, 8));
}

/*
 * The kernel's GFX queue next to an RLC queue on the same doorbell: the
 * GFX queue still polls its write pointer (the doorbell's value is not
 * its), and needs the poll address
 */
static void test_sdma_rlc_gfx(void)
{
	HsaGpuV10 *v = sd_dev();
	uint32_t g = hsagpu_v10_sdma_reg(1, 0, 0);

	WR(v, V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 0);
	WR(v, g + V10_SDMA_RB_RPTR_ADDR_LO, 0x2000);
	WR(v, g + V10_SDMA_RB_BASE, 0x1000);
	WR(v, g + V10_SDMA_DOORBELL_OFFSET, 0x1e2 << 2);
	WR(v, g + V10_SDMA_DOORBELL, V10_SDMA_DOORBELL_ENABLE);
	WR(v, g + V10_SDMA_RB_CNTL, 8 << 1 | 1);
	sd_sync(v);
	T(sd.starts == 0 && sd.refusals == 1 && sd.why_qi == 4 &&
	  strstr(sd.why, "poll"));
	WR(v, g + V10_SDMA_RB_WPTR_POLL_ADDR_LO, 0x2008);
	sd_sync(v);
	T(sd.starts == 1 && sd.r[4].wptr_addr == 0x2008 && sd.r[4].wptr == 0);
	T(!hsagpu_v10_sdma_doorbell(v, 0x1e2, 0x40, 8));
	T(RD(v, g + V10_SDMA_RB_WPTR) == 0);
	sd_kfd_load(v, 0, 0);
	T(sd.starts == 2 && sd.refusals == 1);
}

/*
 * What the driver (or a guest) can get wrong: each refused with its
 * reason, told once; none runs
 */
static void test_sdma_rlc_hostile(void)
{
	HsaGpuV10 *v = sd_dev();

	WR(v, V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 0);
	sd_kfd_load(v, 0, 0);
	T(sd.starts == 1);
	/* RB_SIZE 40: no such ring */
	WR(v, RREG(V10_SDMA_RB_CNTL), (RLC_CNTL & ~0x7eu) | 40 << 1 | 1);
	sd_sync(v);
	T(sd.stops == 1 && sd.starts == 1 && sd.refusals == 1 &&
	  sd.why_qi == RQI && strstr(sd.why, "RB_SIZE"));
	WR(v, RREG(V10_SDMA_RB_BASE), 0x7f001234);
	sd_sync(v);
	T(sd.refusals == 1);
	/* a ring at 0, then no read pointer address */
	WR(v, RREG(V10_SDMA_RB_CNTL), RLC_CNTL | 1);
	WR(v, RREG(V10_SDMA_RB_BASE), 0);
	sd_sync(v);
	T(sd.refusals == 2 && strstr(sd.why, "base") && sd.starts == 1);
	WR(v, RREG(V10_SDMA_RB_BASE), 0x7f001234);
	WR(v, RREG(V10_SDMA_RB_RPTR_ADDR_LO), 0);
	WR(v, RREG(V10_SDMA_RB_RPTR_ADDR_HI), 0);
	sd_sync(v);
	T(sd.refusals == 3 && strstr(sd.why, "read pointer"));
	/* a doorbell past BAR2 (2 MiB: dword 0x80000) */
	WR(v, RREG(V10_SDMA_RB_RPTR_ADDR_LO), 0x5000);
	WR(v, RREG(V10_SDMA_DOORBELL_OFFSET), 0x80000 << 2);
	sd_sync(v);
	T(sd.refusals == 4 && strstr(sd.why, "BAR2") && sd.starts == 1);
	WR(v, RREG(V10_SDMA_DOORBELL_OFFSET), RLC_DB << 2);
	sd_sync(v);
	T(sd.starts == 2 && v->sdma_running[RQI].run);
	/* disabled, then the same mistake again: told again */
	WR(v, RREG(V10_SDMA_RB_CNTL), RLC_CNTL);
	sd_sync(v);
	WR(v, RREG(V10_SDMA_RB_BASE), 0);
	WR(v, RREG(V10_SDMA_RB_CNTL), RLC_CNTL | 1);
	sd_sync(v);
	T(sd.refusals == 5 && !v->sdma_running[RQI].run);
	/* a doorbell value the queue cannot take is the processor's to refuse */
	WR(v, RREG(V10_SDMA_RB_BASE), 0x7f001234);
	sd_sync(v);
	T(hsagpu_v10_sdma_doorbell(v, RLC_DB, 0x3, 8));
	sd_sync(v);
	T(sd.wptr[RQI] == 3);
}

/* An MQD as amdkfd's update_mqd_sdma fills it, on SDMA0's RLC0 (2) */
static void sd_mqd(uint32_t *m)
{
	memset(m, 0, 4 * V10_SDMA_MQD_DW);
	m[V10_SDMA_MQD_RB_CNTL] = 10 << 1 | 1 << 12 | 6 << 16;
	m[V10_SDMA_MQD_RB_BASE] = 0x7f002000;
	m[V10_SDMA_MQD_RB_BASE_HI] = 0;
	m[V10_SDMA_MQD_RB_RPTR_ADDR_LO] = 0x6000;
	m[V10_SDMA_MQD_RB_RPTR_ADDR_HI] = 0x7f;
	m[V10_SDMA_MQD_DOORBELL_OFFSET] = 0x1000 << 2;
	m[27] = 0xf;				/* dummy_reg */
	m[V10_SDMA_MQD_ENGINE_ID] = 0;
	m[V10_SDMA_MQD_QUEUE_ID] = 0;
}

/*
 * The hardware scheduler's MAP_QUEUES and UNMAP_QUEUES of an SDMA queue
 * (vega10-hws.c): the image loaded into RLC0's registers with the
 * packet's VMID, doorbell and write pointer; on unmap the queue stops
 * and the MQD gets where it stopped
 */
static void test_sdma_mqd(void)
{
	HsaGpuV10 *v = sd_dev();
	uint32_t m[V10_SDMA_MQD_DW], keep[V10_SDMA_MQD_DW];
	const HsaGpuV10SdmaRing *r = &sd.r[2];
#define QREG(off) hsagpu_v10_sdma_reg(0, 2, (off))

	WR(v, V10_SDMA0_F32_CNTL, 0);
	sd_mqd(m);
	m[V10_SDMA_MQD_RB_RPTR] = 0x40;
	hsagpu_v10_sdma_mqd_load(v, 0, 2, m, 9, 0x1802, 0x80);
	T(v->sdma_dirty);
	T(RD(v, QREG(V10_SDMA_RB_CNTL)) == (m[0] | 9 << 24 | 1));
	T(RD(v, QREG(V10_SDMA_DOORBELL_OFFSET)) == 0x1802 << 2);
	T(RD(v, QREG(0x31)) == 0xf);		/* DUMMY_REG, from dword 27 */
	T(RD(v, QREG(V10_SDMA_RB_WPTR)) == 0x80);
	sd_sync(v);
	T(sd.starts == 1 && r->vmid == 9 && r->doorbell == 0x1802 &&
	  r->rptr == 0x40 && r->wptr == 0x80 && r->size == 4096 &&
	  r->base == 0x7f00200000ULL && r->rptr_addr == 0x7f00006000ULL);
	T(hsagpu_v10_sdma_doorbell(v, 0x1802, 0xc0, 8));
	sd_sync(v);
	T(sd.wptr[2] == 0xc0);

	/* unmapped where it got to: the MQD has it, the queue stops */
	fake_rptr[2] = 0xa0;
	memcpy(keep, m, sizeof(m));
	hsagpu_v10_sdma_mqd_save(v, 0, 2, m);
	T(m[V10_SDMA_MQD_RB_RPTR] == 0xa0 && m[V10_SDMA_MQD_RB_RPTR_HI] == 0);
	T(m[V10_SDMA_MQD_RB_WPTR] == 0xc0 && m[V10_SDMA_MQD_RB_WPTR_HI] == 0);
	T(m[V10_SDMA_MQD_CONTEXT_STATUS] & V10_SDMA_CONTEXT_STATUS_IDLE);
	/* the driver's fields are left alone */
	T(m[V10_SDMA_MQD_RB_CNTL] == keep[V10_SDMA_MQD_RB_CNTL] &&
	  m[V10_SDMA_MQD_DOORBELL_OFFSET] ==
	  keep[V10_SDMA_MQD_DOORBELL_OFFSET] && m[27] == 0xf);
	sd_sync(v);
	T(sd.stops == 1 && !v->sdma_running[2].run);
	T(RD(v, QREG(V10_SDMA_RB_RPTR)) == 0xa0);
	T(!hsagpu_v10_sdma_doorbell(v, 0x1802, 0x100, 8));
	/* mapped again, on from there */
	hsagpu_v10_sdma_mqd_load(v, 0, 2, m, 9, 0x1802, 0x100);
	sd_sync(v);
	T(sd.starts == 2 && r->rptr == 0xa0 && r->wptr == 0x100);

	/* a VMID past 15, a doorbell DOORBELL_OFFSET cannot hold: off */
	hsagpu_v10_sdma_mqd_load(v, 0, 2, m, 16, 0x1802, 0x100);
	sd_sync(v);
	T(sd.stops == 2 && sd.refusals == 1 && sd.why_qi == 2 &&
	  strstr(sd.why, "VMID") && !v->sdma_running[2].run);
	sd_sync(v);
	T(sd.refusals == 1);
	hsagpu_v10_sdma_mqd_load(v, 0, 2, m, 3, 1u << 26, 0x100);
	v->sdma_dirty = true;
	sd_sync(v);
	T(sd.refusals == 2 && strstr(sd.why, "BAR2") &&
	  !v->sdma_running[2].run);
	/* no such queue: nothing happens */
	v->sdma_dirty = false;
	hsagpu_v10_sdma_mqd_load(v, 2, 2, m, 3, 0x10, 0);
	hsagpu_v10_sdma_mqd_load(v, 0, 1, m, 3, 0x10, 0);
	hsagpu_v10_sdma_mqd_load(v, 0, 4, m, 3, 0x10, 0);
	hsagpu_v10_sdma_mqd_save(v, 0, 0, m);
	T(!v->sdma_dirty && m[V10_SDMA_MQD_RB_RPTR] == 0xa0);
#undef QREG
}
#undef RREG
#undef RQI

int main(void)
{
	test_post_values();
	test_plain_storage();
	test_hdp_flush();
	test_pasid_mapping();
	test_invalidation();
	test_rlc();
	test_windows();
	test_banks();
	test_every_register();
	test_cp_gfx_ring();
	test_cp_kiq();
	test_cp_dispatch();
	test_cp_scratch();
	test_cp_user_vmid();
	test_cp_fault();
	test_cp_preempt();
	test_cp_self_restart();
	test_sdma_rings();
	test_sdma_rlc_load();
	test_sdma_rlc_gfx();
	test_sdma_rlc_hostile();
	test_sdma_mqd();
	return tap_done();
}
