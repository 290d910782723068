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
	HsaGpuV10Ops ops = { .vram_rw = fake_vram_rw, .clock = fake_clock };

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

int main(void)
{
	test_post_values();
	test_plain_storage();
	test_hdp_flush();
	test_invalidation();
	test_rlc();
	test_windows();
	test_banks();
	test_every_register();
	return tap_done();
}
