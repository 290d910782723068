// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the Vega10 hubs' address translation
 * (hw/hsagpu/vega10/vega10-gmc.c): the registers programmed through the
 * front end as amdgpu's gfxhub_v1_0/mmhub_v1_0 program them (6.1 with
 * its AGP aperture, 6.12 without), page tables built in plain buffers
 * as amdgpu builds them (a flat GART in VRAM, a 4-level VMID 8 table,
 * a depth-2 block-size-12 context), every aperture's edges, faults and
 * their registers, the TLB's invalidation, and hostile registers and
 * tables that must end in a clean fault, never a read outside the
 * buffers. TAP output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/vega10/vega10-gmc.h"

#include "tap.h"

#define VRAM		(64ULL << 20)
#define SYS_BASE	0x100000000ULL	/* bus address of the fake RAM */
#define SYS_SIZE	(4ULL << 20)
#define DUMMY_PAGE	(SYS_BASE + SYS_SIZE - 4096)	/* adev->dummy_page */

/* amdgpu's placement (gmc_v9_0_vram_gtt_location) for this board */
#define FB_START	0xf400000000ULL
#define FB_END		(FB_START + VRAM - 1)
#define GART_SIZE	(512ULL << 20)
#define GART_END	(GART_SIZE - 1)
#define AGP_START	0xf800000000ULL		/* 6.1: ALIGN(fb_end + 1, 16G) */
#define AGP_END		0xffffffffffffULL	/* ... to mc_mask */

/* Where things are in the fake VRAM (offsets) */
#define GART_TABLE	0x100000ULL	/* 512 MiB of GART: 1 MiB of PTEs */
#define SCRATCH		0x300000ULL	/* adev->mem_scratch: default page */
#define PT_ROOT		0x400000ULL	/* VMID 8: PDB2, PDB1, PDB0, PTB */
#define PT_PDB1		0x401000ULL
#define PT_PDB0		0x402000ULL
#define PT_PTB		0x403000ULL
#define BS_ROOT		0x500000ULL	/* block size 12: PDB1, PDB0, PTB */
#define BS_PDB0		0x501000ULL
#define BS_PTB		0x508000ULL
#define DATA		0x800000ULL	/* 2 MiB aligned */

/* amdgpu_vm.h's PTE/PDE bits (gmc v9) */
#define P_VALID		(1ULL << 0)
#define P_SYSTEM	(1ULL << 1)
#define P_SNOOPED	(1ULL << 2)
#define P_EXEC		(1ULL << 4)
#define P_READ		(1ULL << 5)
#define P_WRITE		(1ULL << 6)
#define P_FRAG(x)	((uint64_t)(x) << 7)
#define P_PRT		(1ULL << 51)
#define P_PDE_PTE	(1ULL << 54)
#define P_MTYPE(x)	((uint64_t)(x) << 57)
#define MTYPE_UC	3
/* gmc_v9_0_gart_init: adev->gart.gart_pte_flags */
#define GART_PTE_FLAGS	(P_MTYPE(MTYPE_UC) | P_EXEC)
/* amdgpu_ttm_tt_pte_flags for a cached TT page, and for VRAM */
#define GART_SYS	(P_VALID | P_SYSTEM | P_SNOOPED | P_READ | P_WRITE | \
			 GART_PTE_FLAGS)
#define GART_VRAM	(P_VALID | P_READ | P_WRITE | GART_PTE_FLAGS)

#define A_R		HSAGPU_VM_ACCESS_READ
#define A_W		HSAGPU_VM_ACCESS_WRITE
#define A_ATOM		HSAGPU_VM_ACCESS_ATOMIC
#define A_X		HSAGPU_VM_ACCESS_EXECUTE

static uint8_t *vram, *sys;
static unsigned reads, vram_oob, sys_refused;

/*
 * The table reader: VRAM offsets must be inside VRAM (the walker checks
 * before it asks: any other request is a bug, counted); bus addresses
 * outside the fake RAM are refused, as the bus would.
 */
static int rd(void *opaque, bool system, uint64_t addr, uint64_t *val)
{
	reads++;
	if (system) {
		if (addr < SYS_BASE || addr > SYS_BASE + SYS_SIZE - 8) {
			sys_refused++;
			return -1;
		}
		memcpy(val, sys + (addr - SYS_BASE), 8);
		return 0;
	}
	if (addr > VRAM - 8) {
		vram_oob++;
		return -1;
	}
	memcpy(val, vram + addr, 8);
	return 0;
}

static void setv(uint64_t table, uint64_t idx, uint64_t e)
{
	memcpy(vram + table + 8 * idx, &e, 8);
}

static void sets(uint64_t table, uint64_t idx, uint64_t e)
{
	memcpy(sys + (table - SYS_BASE) + 8 * idx, &e, 8);
}

#define RD(v, r)	hsagpu_v10_read(v, r)
#define WR(v, r, x)	hsagpu_v10_write(v, r, x)
/* @hub's copy of a GFXHUB register */
#define MC(hub, r)	((r) + ((hub) ? V10_MMHUB_MC_DIST : 0))
#define VM(hub, r)	((r) + ((hub) ? V10_MMHUB_VM_DIST : 0))
#define CTX_CNTL(hub, n) VM(hub, V10_GFXHUB_CONTEXT0_CNTL + (n))
#define CTX_REG(hub, r, n) VM(hub, (r) + 2 * (n))

static HsaGpuV10 *dev(void)
{
	static HsaGpuV10 *v;
	HsaGpuV10Ops ops = { 0 };

	if (!v)
		v = calloc(1, sizeof(*v));
	hsagpu_v10_init(v, VRAM, 0, &ops);
	return v;
}

static void rmw(HsaGpuV10 *v, uint32_t r, uint32_t clear, uint32_t set)
{
	WR(v, r, (RD(v, r) & ~clear) | set);
}

static void set_page(HsaGpuV10 *v, uint32_t lo, uint64_t addr)
{
	WR(v, lo, (uint32_t)(addr >> 12));
	WR(v, lo + 1, (uint32_t)(addr >> 44));
}

/*
 * gfxhub_v1_0_gart_enable / mmhub_v1_0_gart_enable as amdgpu runs them
 * on this board (@agp: 6.1's AGP aperture; 6.12 leaves it off), then
 * gmc_v9_0_hw_init's set_fault_enable_default(true) and the VM fault
 * interrupt's enable (gmc_v9_0_vm_fault_interrupt_state).
 */
static void gart_enable(HsaGpuV10 *v, unsigned hub, bool agp)
{
	uint64_t agp_start = agp ? AGP_START : 0xffffffffffffULL;
	uint64_t agp_end = agp ? AGP_END : 0;
	uint64_t lo = FB_START < agp_start ? FB_START : agp_start;
	uint64_t hi = FB_END > agp_end ? FB_END : agp_end;
	uint32_t all_default = 0, all_int = 0;
	unsigned c, n;

	/* init_gart_aperture_regs: amdgpu_gmc_pd_addr(gart.bo) */
	WR(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_BASE_LO32, 0),
	   (uint32_t)(GART_TABLE | P_VALID));
	WR(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_BASE_HI32, 0), 0);
	set_page(v, VM(hub, V10_GFXHUB_CONTEXT0_START_LO32), 0);
	set_page(v, VM(hub, V10_GFXHUB_CONTEXT0_END_LO32), GART_END);
	/* init_system_aperture_regs */
	WR(v, MC(hub, V10_GFXHUB_AGP_BASE), 0);
	WR(v, MC(hub, V10_GFXHUB_AGP_BOT), (uint32_t)(agp_start >> 24));
	WR(v, MC(hub, V10_GFXHUB_AGP_TOP), (uint32_t)(agp_end >> 24));
	WR(v, MC(hub, V10_GFXHUB_SYSTEM_APERTURE_LOW), (uint32_t)(lo >> 18));
	WR(v, MC(hub, V10_GFXHUB_SYSTEM_APERTURE_HIGH), (uint32_t)(hi >> 18));
	set_page(v, MC(hub, V10_GFXHUB_SYSTEM_DEFAULT_LSB), SCRATCH);
	set_page(v, VM(hub, V10_GFXHUB_FAULT_DEFAULT_LO32), DUMMY_PAGE);
	/* enable_system_domain: a flat table */
	rmw(v, CTX_CNTL(hub, 0), V10_CTX_CNTL_DEPTH_MASK |
	    V10_CTX_CNTL_BLOCK_SIZE_MASK | V10_CTX_CNTL_RETRY_PERM_INVALID,
	    V10_CTX_CNTL_ENABLE);
	/* setup_vmid_config: 4 levels, block size 9, no retry */
	for (c = V10_FAULT_CLASS_RANGE; c <= V10_FAULT_CLASS_EXECUTE; c++) {
		all_default |= V10_CTX_CNTL_DEFAULT(c);
		all_int |= V10_CTX_CNTL_INT(c);
	}
	for (n = 1; n < 16; n++) {
		rmw(v, CTX_CNTL(hub, n), V10_CTX_CNTL_DEPTH_MASK |
		    V10_CTX_CNTL_BLOCK_SIZE_MASK |
		    V10_CTX_CNTL_RETRY_PERM_INVALID,
		    V10_CTX_CNTL_ENABLE | 3 << V10_CTX_CNTL_DEPTH_SHIFT |
		    all_default);
		set_page(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_START_LO32, n), 0);
		set_page(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_END_LO32, n),
			 ((1ULL << 36) - 1) << 12);
	}
	/* set_fault_enable_default(true), then the interrupt's enable */
	rmw(v, VM(hub, V10_GFXHUB_FAULT_CNTL), 0, 0x1ffc);
	for (n = 0; n < 16; n++)
		rmw(v, CTX_CNTL(hub, n), 0, all_int);
}

/* amdgpu_gart_table_vram_alloc's memset_io of gart_pte_flags' low byte */
static void gart_clear(void)
{
	memset(vram + GART_TABLE, (uint8_t)GART_PTE_FLAGS, GART_SIZE / 4096 * 8);
}

static HsaGpuV10 *board(bool agp)
{
	HsaGpuV10 *v = dev();

	memset(vram, 0, VRAM);
	memset(sys, 0, SYS_SIZE);
	gart_clear();
	gart_enable(v, V10_GFXHUB, agp);
	gart_enable(v, V10_MMHUB, agp);
	reads = vram_oob = sys_refused = 0;
	return v;
}

static unsigned xl(HsaGpuV10 *v, unsigned hub, unsigned vmid, uint64_t a,
		   unsigned acc, HsaGpuV10Xlat *x, HsaGpuV10Fault *f)
{
	return hsagpu_v10_gmc_translate(v, hub, vmid, a, acc,
					hub ? V10_MMHUB_CID_SDMA0_READ
					    : V10_GFXHUB_CID_CPC,
					rd, NULL, x, f);
}

static uint32_t status(HsaGpuV10 *v, unsigned hub)
{
	return RD(v, VM(hub, V10_GFXHUB_FAULT_STATUS));
}

static void clear_fault(HsaGpuV10 *v, unsigned hub)
{
	/* gmc_v9_0_process_interrupt: WREG32_P(fault_cntl, 1, ~1) */
	rmw(v, VM(hub, V10_GFXHUB_FAULT_CNTL), 0, V10_FAULT_CNTL_CLEAR);
}

/* VM_INVALIDATE_ENG17 of @hub, as gmc_v9_0_flush_gpu_tlb writes it */
static void invalidate(HsaGpuV10 *v, unsigned hub, uint32_t vmids)
{
	uint32_t sem = hub ? V10_MMHUB_INV_ENG0_SEM : V10_GFXHUB_INV_ENG0_SEM;

	T(RD(v, sem + 17) == 1);
	WR(v, sem + V10_HUB_INV_REQ + 17, vmids | 0x7c0000);
	T(RD(v, sem + V10_HUB_INV_ACK + 17) == vmids);
	WR(v, sem + 17, 0);
}

static void test_reset_values(void)
{
	HsaGpuV10 *v = dev();
	unsigned hub, n;

	for (hub = 0; hub < V10_NUM_HUBS; hub++) {
		for (n = 0; n < 16; n++)
			TM(RD(v, CTX_CNTL(hub, n)) == 0x007ffe80,
			   "hub %u VM_CONTEXT%u_CNTL power-on value", hub, n);
		T(RD(v, VM(hub, V10_GFXHUB_FAULT_CNTL)) == 0x3ffffffc);
		T(RD(v, VM(hub, V10_GFXHUB_FAULT_CNTL2)) == 0x000a0000);
		T(status(v, hub) == 0);
		T(v->hub_vm[hub].vram_size == VRAM);
	}
	/* the two hubs' copies are distinct registers */
	WR(v, CTX_CNTL(V10_MMHUB, 3), 0x1234);
	T(RD(v, CTX_CNTL(V10_GFXHUB, 3)) == 0x007ffe80);
	T(RD(v, 0x1a6c3) == 0x1234);	/* mmhub's mmVM_CONTEXT3_CNTL */
}

/* 6.1: FB, AGP and the default page inside the system aperture */
static void test_apertures_61(void)
{
	HsaGpuV10 *v = board(true);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	unsigned hub;

	for (hub = 0; hub < V10_NUM_HUBS; hub++) {
		/* FB: first and last byte, then the next one */
		T(xl(v, hub, 0, FB_START, A_R, &x, &f) == 0);
		T(x.how == V10_GMC_FB && x.addr == 0 && !x.system &&
		  x.len == VRAM);
		T(xl(v, hub, 0, FB_START + 0x123456, A_W, &x, &f) == 0);
		T(x.addr == 0x123456 && x.len == VRAM - 0x123456);
		T(xl(v, hub, 0, FB_END, A_W, &x, &f) == 0);
		T(x.how == V10_GMC_FB && x.addr == VRAM - 1 && x.len == 1);
		T(xl(v, hub, 0, FB_END + 1, A_R, &x, &f) == 0);
		T(x.how == V10_GMC_SYSTEM_DEFAULT && x.addr == SCRATCH);
		/* the low edge is the system aperture's too */
		T(xl(v, hub, 0, FB_START - 1, A_R, &x, &f) ==
		  HSAGPU_VM_REASON_RANGE);
		/* AGP: bus address = offset from its start (AGP_BASE 0) */
		T(xl(v, hub, 0, AGP_START, A_R, &x, &f) == 0);
		T(x.how == V10_GMC_AGP && x.system && x.addr == 0);
		T(xl(v, hub, 0, AGP_START + SYS_BASE + 0x10, A_W, &x, &f) == 0);
		T(x.addr == SYS_BASE + 0x10 && (x.flags & HSAGPU_PTE_SYSTEM));
		T(xl(v, hub, 0, AGP_END, A_R, &x, &f) == 0);
		T(x.how == V10_GMC_AGP && x.addr == AGP_END - AGP_START &&
		  x.len == 1);
		T(xl(v, hub, 0, AGP_START - 1, A_R, &x, &f) == 0);
		T(x.how == V10_GMC_SYSTEM_DEFAULT &&
		  x.addr == SCRATCH + 0xfff && x.len == 1);
		/* the default page keeps the offset in the page */
		T(xl(v, hub, 0, FB_END + 1 + 0x10234, A_R, &x, &f) == 0);
		T(x.addr == SCRATCH + 0x234 && x.len == 4096 - 0x234);
		/* apertures are VMID 0's: VMID 8 walks its tables */
		T(xl(v, hub, 8, FB_START, A_R, &x, &f) ==
		  HSAGPU_VM_REASON_NOT_PRESENT);
		clear_fault(v, hub);
	}
	/* AGP_BASE moves the bus address */
	WR(v, MC(V10_GFXHUB, V10_GFXHUB_AGP_BASE), 1);
	T(xl(v, V10_GFXHUB, 0, AGP_START + 5, A_R, &x, &f) == 0);
	T(x.addr == (1ULL << 24) + 5);
	T(xl(v, V10_MMHUB, 0, AGP_START + 5, A_R, &x, &f) == 0 && x.addr == 5);
	/* bits 63:48 are not the hub's: 2^48 is address 0, in the GART */
	T(xl(v, V10_GFXHUB, 0, 1ULL << 48, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(f.addr == 0);
	T(vram_oob == 0);
}

/* 6.12: no AGP, the system aperture is the FB's */
static void test_apertures_612(void)
{
	HsaGpuV10 *v = board(false);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;

	T(RD(v, MC(V10_MMHUB, V10_GFXHUB_AGP_BOT)) == 0xffffff);
	T(RD(v, MC(V10_MMHUB, V10_GFXHUB_SYSTEM_APERTURE_HIGH)) ==
	  FB_END >> 18);
	T(xl(v, V10_MMHUB, 0, FB_END, A_R, &x, &f) == 0);
	T(x.how == V10_GMC_FB && x.addr == VRAM - 1);
	/* past the system aperture: the GART's range check */
	T(xl(v, V10_MMHUB, 0, FB_END + 1, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_RANGE);
	T(f.status & V10_FAULT_STATUS_MAPPING_ERROR);
	T(xl(v, V10_GFXHUB, 0, AGP_START, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_RANGE);
	/*
	 * One more 256 KiB unit of system aperture, 16 MiB more FB: past
	 * VRAM the FB aperture is "neither", up to the aperture's last byte
	 */
	WR(v, MC(V10_GFXHUB, V10_GFXHUB_SYSTEM_APERTURE_HIGH),
	   (uint32_t)(FB_END >> 18) + 1);
	WR(v, MC(V10_GFXHUB, V10_GFXHUB_FB_LOCATION_TOP),
	   (uint32_t)(FB_END >> 24) + 1);
	T(xl(v, V10_GFXHUB, 0, FB_END, A_R, &x, &f) == 0 &&
	  x.how == V10_GMC_FB && x.len == 1);
	T(xl(v, V10_GFXHUB, 0, FB_END + 1, A_R, &x, &f) == 0);
	T(x.how == V10_GMC_SYSTEM_DEFAULT && x.addr == SCRATCH);
	T(xl(v, V10_GFXHUB, 0, FB_END + 0x40000, A_R, &x, &f) == 0);
	T(x.how == V10_GMC_SYSTEM_DEFAULT && x.addr == SCRATCH + 0xfff);
	T(xl(v, V10_GFXHUB, 0, FB_END + 0x40001, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_RANGE);
	T(vram_oob == 0);
}

static void test_gart(void)
{
	HsaGpuV10 *v = board(true);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	unsigned hub;

	/* amdgpu_gart_map: system pages' DMA addresses, VRAM physical */
	setv(GART_TABLE, 0, (SYS_BASE + 0x5000) | GART_SYS);
	setv(GART_TABLE, 7, (DATA + 0x3000) | GART_VRAM);
	setv(GART_TABLE, GART_SIZE / 4096 - 1, (SYS_BASE + 0x6000) | GART_SYS);
	for (hub = 0; hub < V10_NUM_HUBS; hub++) {
		reads = 0;
		T(xl(v, hub, 0, 0, A_W, &x, &f) == 0);
		T(x.how == V10_GMC_PAGE_TABLE && x.system &&
		  x.addr == SYS_BASE + 0x5000 && x.len == 4096);
		T(x.flags & HSAGPU_PTE_SNOOPED);
		T(reads == 1);	/* a flat table: one entry */
		T(xl(v, hub, 0, 7 * 4096 + 0xabc, A_X, &x, &f) == 0);
		T(!x.system && x.addr == DATA + 0x3abc && x.len == 0x544);
		T(xl(v, hub, 0, GART_END, A_R, &x, &f) == 0);
		T(x.addr == SYS_BASE + 0x6fff && x.len == 1);
		/* cached: no read the second time */
		reads = 0;
		T(xl(v, hub, 0, 0x10, A_R, &x, &f) == 0 && reads == 0);
		/* an entry of the memset table: not valid */
		T(xl(v, hub, 0, 3 * 4096, A_R, &x, &f) ==
		  HSAGPU_VM_REASON_NOT_PRESENT);
		T(f.fault_class == V10_FAULT_CLASS_VALID && f.redirected);
		T(x.how == V10_GMC_FAULT_DEFAULT && x.system &&
		  x.addr == DUMMY_PAGE);
		/* the first byte after the GART */
		T(xl(v, hub, 0, GART_END + 1, A_R, &x, &f) ==
		  HSAGPU_VM_REASON_RANGE);
		T(f.fault_class == V10_FAULT_CLASS_RANGE && f.redirected &&
		  x.addr == DUMMY_PAGE);
		clear_fault(v, hub);
	}
	/* Invalidation: a changed PTE is seen after the hub's flush only */
	setv(GART_TABLE, 0, (SYS_BASE + 0x9000) | GART_SYS);
	T(xl(v, V10_GFXHUB, 0, 0, A_R, &x, &f) == 0 &&
	  x.addr == SYS_BASE + 0x5000);
	invalidate(v, V10_MMHUB, 1);
	T(xl(v, V10_GFXHUB, 0, 0, A_R, &x, &f) == 0 &&
	  x.addr == SYS_BASE + 0x5000);
	T(xl(v, V10_MMHUB, 0, 0, A_R, &x, &f) == 0 &&
	  x.addr == SYS_BASE + 0x9000);
	invalidate(v, V10_GFXHUB, 1 << 3);	/* another VMID's */
	T(xl(v, V10_GFXHUB, 0, 0, A_R, &x, &f) == 0 &&
	  x.addr == SYS_BASE + 0x5000);
	invalidate(v, V10_GFXHUB, 1);
	T(xl(v, V10_GFXHUB, 0, 0, A_R, &x, &f) == 0 &&
	  x.addr == SYS_BASE + 0x9000);
	T(v->hub_vm[V10_GFXHUB].invalidations == 2);
	/* a new GART base drops VMID 0's entries too */
	setv(GART_TABLE + 0x100000, 0, (SYS_BASE + 0xa000) | GART_SYS);
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_BASE_LO32, 0),
	   (uint32_t)((GART_TABLE + 0x100000) | P_VALID));
	T(xl(v, V10_GFXHUB, 0, 0, A_R, &x, &f) == 0 &&
	  x.addr == SYS_BASE + 0xa000);
	T(vram_oob == 0);
}

/* MC_VM_FB_OFFSET: entries and default page are physical addresses */
static void test_fb_offset(void)
{
	HsaGpuV10 *v = board(true);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	uint64_t base = 2ULL << 24;	/* vram_base_offset */

	WR(v, MC(V10_GFXHUB, V10_GFXHUB_FB_OFFSET), 2);
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_BASE_LO32, 0),
	   (uint32_t)((base + GART_TABLE) | P_VALID));
	set_page(v, MC(V10_GFXHUB, V10_GFXHUB_SYSTEM_DEFAULT_LSB),
		 base + SCRATCH);
	setv(GART_TABLE, 1, (base + DATA) | GART_VRAM);
	setv(GART_TABLE, 2, DATA | GART_VRAM);		/* below VRAM */
	setv(GART_TABLE, 3, (base + VRAM) | GART_VRAM);	/* past it */
	T(xl(v, V10_GFXHUB, 0, 4096 + 8, A_R, &x, &f) == 0);
	T(x.addr == DATA + 8);
	T(xl(v, V10_GFXHUB, 0, 2 * 4096, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_BAD_ENTRY);
	T((f.status & V10_FAULT_STATUS_WALKER_MASK) >>
	  V10_FAULT_STATUS_WALKER_SHIFT == 2);
	T(xl(v, V10_GFXHUB, 0, 3 * 4096, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_BAD_ENTRY);
	/* the FB aperture still starts at VRAM's first byte */
	T(xl(v, V10_GFXHUB, 0, FB_START + 4, A_R, &x, &f) == 0 && x.addr == 4);
	T(xl(v, V10_GFXHUB, 0, FB_END + 1, A_R, &x, &f) == 0);
	T(x.how == V10_GMC_SYSTEM_DEFAULT && x.addr == SCRATCH);
	/* the MMHUB has its own */
	T(xl(v, V10_MMHUB, 0, FB_END + 1, A_R, &x, &f) == 0 &&
	  x.addr == SCRATCH);
	/* a new FB_OFFSET is not hidden by a cached translation */
	T(xl(v, V10_GFXHUB, 0, 4096, A_R, &x, &f) == 0 && x.addr == DATA);
	WR(v, MC(V10_GFXHUB, V10_GFXHUB_FB_OFFSET), 1);
	/* (the table is now read 16 MiB further on, where nothing is) */
	T(xl(v, V10_GFXHUB, 0, 4096, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(vram_oob == 0);
}

/*
 * A GART placed high (6.12's AMDGPU_GART_PLACEMENT_HIGH: the top 4 GiB
 * aligned below the hole): its PTE index counts from START.
 */
static void test_gart_high(void)
{
	HsaGpuV10 *v = board(false);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	uint64_t start = (0x7fffffffffffULL - GART_SIZE + 1) & ~0xffffffffULL;

	set_page(v, VM(V10_GFXHUB, V10_GFXHUB_CONTEXT0_START_LO32), start);
	set_page(v, VM(V10_GFXHUB, V10_GFXHUB_CONTEXT0_END_LO32),
		 start + GART_SIZE - 1);
	setv(GART_TABLE, 0, (SYS_BASE + 0x1000) | GART_SYS);
	setv(GART_TABLE, 1, (SYS_BASE + 0x2000) | GART_SYS);
	T(xl(v, V10_GFXHUB, 0, start + 5, A_R, &x, &f) == 0);
	T(x.addr == SYS_BASE + 0x1005);
	T(xl(v, V10_GFXHUB, 0, start + 4096, A_R, &x, &f) == 0);
	T(x.addr == SYS_BASE + 0x2000);
	T(xl(v, V10_GFXHUB, 0, start - 1, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_RANGE);
	T(xl(v, V10_GFXHUB, 0, start + GART_SIZE - 1, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(xl(v, V10_GFXHUB, 0, start + GART_SIZE, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_RANGE);
	/* moving START moves the index, cached or not */
	set_page(v, VM(V10_GFXHUB, V10_GFXHUB_CONTEXT0_START_LO32),
		 start + 4096);
	T(xl(v, V10_GFXHUB, 0, start + 4096, A_R, &x, &f) == 0);
	T(x.addr == SYS_BASE + 0x1000);
	T(vram_oob == 0);
}

/*
 * VMID 8 as amdgpu builds a VM: PDB2 (root), PDB1, PDB0, PTB in VRAM;
 * PDE addresses physical (amdgpu_gmc_vram_mc2pa), a 2 MiB PDE-as-PTE
 * with its fragment, 4 KiB pages in VRAM and system memory, cleared
 * entries as amdgpu_vm_pt_clear_bo writes them.
 */
#define VA8(l3, l2, l1, l0, off) \
	(((uint64_t)(l3) << 39) | ((uint64_t)(l2) << 30) | \
	 ((uint64_t)(l1) << 21) | ((uint64_t)(l0) << 12) | (off))

static void build_vmid8(HsaGpuV10 *v, unsigned hub)
{
	setv(PT_ROOT, 1, PT_PDB1 | P_VALID);
	setv(PT_ROOT, 256, PT_PDB1 | P_VALID);	/* the upper half */
	setv(PT_PDB1, 2, PT_PDB0 | P_VALID);
	setv(PT_PDB0, 3, PT_PTB | P_VALID);
	setv(PT_PDB0, 4, DATA | P_VALID | P_READ | P_WRITE | P_EXEC |
	     P_PDE_PTE | P_FRAG(9) | P_MTYPE(0));
	setv(PT_PDB0, 5, P_PDE_PTE);			/* cleared PDB0 entry */
	setv(PT_PDB0, 6, (DATA + 0x1000) | P_VALID | P_READ | P_PDE_PTE);
	/* a run of system pages, contiguous from off a 2 MiB boundary */
	setv(PT_PDB0, 7, (SYS_BASE + 0x52000) | P_VALID | P_SYSTEM | P_SNOOPED |
	     P_READ | P_WRITE | P_PDE_PTE | P_FRAG(9) | P_MTYPE(MTYPE_UC));
	/* one whose page would end past VRAM */
	setv(PT_PDB0, 8, (VRAM - 0x1000) | P_VALID | P_READ | P_PDE_PTE);
	setv(PT_PTB, 0, (DATA + 0x400000) | P_VALID | P_READ | P_WRITE);
	setv(PT_PTB, 1, (SYS_BASE + 0x2000) | P_VALID | P_SYSTEM |
	     P_SNOOPED | P_READ | P_WRITE);
	setv(PT_PTB, 2, (DATA + 0x401000) | P_VALID | P_READ);	/* read-only */
	setv(PT_PTB, 3, P_EXEC);		/* cleared PTE (GMC9 workaround) */
	setv(PT_PTB, 4, (DATA + 0x402000) | P_PRT);	/* PRT: VALID clear */
	/* amdgpu_gmc_pd_addr of the root: physical, VALID */
	WR(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_BASE_LO32, 8),
	   (uint32_t)(PT_ROOT | P_VALID));
	WR(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_BASE_HI32, 8), 0);
}

static void test_vmid8(void)
{
	HsaGpuV10 *v = board(true);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;

	build_vmid8(v, V10_GFXHUB);
	reads = 0;
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 3, 0, 0x10), A_W, &x, &f) == 0);
	T(reads == 4 && x.how == V10_GMC_PAGE_TABLE);
	T(!x.system && x.addr == DATA + 0x400010 && x.len == 4096 - 0x10);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 3, 1, 0), A_ATOM, &x, &f) == 0);
	T(x.system && x.addr == SYS_BASE + 0x2000 &&
	  (x.flags & HSAGPU_PTE_SNOOPED));
	/* one read for the next page in the 2 MiB region */
	reads = 0;
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 3, 2, 4), A_R, &x, &f) == 0);
	T(reads == 1 && x.addr == DATA + 0x401004);
	/* the 2 MiB page, from its first to its last byte */
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 4, 0, 0), A_X, &x, &f) == 0);
	T(x.addr == DATA && x.len == 2ULL << 20);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 4, 511, 0xfff), A_W, &x, &f) == 0);
	T(x.addr == DATA + (2ULL << 20) - 1 && x.len == 1);
	/* a sign-extended address above the hole: 48 bits of it */
	T(xl(v, V10_GFXHUB, 8, 0xffff000000000000ULL | VA8(256, 2, 3, 0, 8),
	     A_R, &x, &f) == 0);
	T(x.addr == DATA + 0x400008);
	/* the MMHUB's VMID 8 has no root yet: VALID clear */
	T(xl(v, V10_MMHUB, 8, VA8(1, 2, 3, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(f.fault_class == V10_FAULT_CLASS_PDE0 && f.hub == V10_MMHUB &&
	  f.ih_client == V10_GMC_IH_CLIENT_VMC);
	T(status(v, V10_GFXHUB) == 0);
	T(RD(v, VM(V10_MMHUB, V10_GFXHUB_FAULT_ADDR_LO32)) ==
	  (uint32_t)(VA8(1, 2, 3, 0, 0) >> 12));
	/* the root PDE's VALID bit is checked too */
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_BASE_LO32, 8),
	   (uint32_t)PT_ROOT);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 3, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(f.fault_class == V10_FAULT_CLASS_PDE0);
	T(vram_oob == 0);
}

/* Faults of VMID 8 and what the hub's registers and the IH get */
static void test_faults(void)
{
	HsaGpuV10 *v = board(true);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	uint64_t a = VA8(1, 2, 3, 2, 0x40);
	uint32_t st;

	build_vmid8(v, V10_GFXHUB);
	/* a write to a read-only page */
	T(xl(v, V10_GFXHUB, 8, a, A_W, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	st = V10_FAULT_STATUS_PERM_WRITE | V10_FAULT_STATUS_RW |
	     V10_GFXHUB_CID_CPC << V10_FAULT_STATUS_CID_SHIFT |
	     8 << V10_FAULT_STATUS_VMID_SHIFT;
	TM(f.status == st, "status %#x, want %#x", f.status, st);
	T(status(v, V10_GFXHUB) == st);
	T(RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_LO32)) ==
	  (uint32_t)(a >> 12));
	T(RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_HI32)) == 0);
	T(f.latched && f.interrupt && f.write && !f.retry && f.redirected);
	T(f.fault_class == V10_FAULT_CLASS_WRITE && f.vmid == 8 &&
	  f.addr == a && f.ih_client == V10_GMC_IH_CLIENT_UTCL2);
	T(x.how == V10_GMC_FAULT_DEFAULT && x.addr == DUMMY_PAGE + 0x40 &&
	  x.system);
	/* the second is MORE_FAULTS: status and address stay */
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 3, 3, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(!f.latched && f.status == (V10_FAULT_STATUS_PERM_VALID |
				     V10_GFXHUB_CID_CPC << 9 | 8 << 20));
	T(status(v, V10_GFXHUB) == (st | V10_FAULT_STATUS_MORE_FAULTS));
	T(RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_LO32)) ==
	  (uint32_t)(a >> 12));
	/* the register is the hub's: writes do not change it */
	WR(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_STATUS), 0);
	WR(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_LO32), 0);
	T(status(v, V10_GFXHUB) == (st | V10_FAULT_STATUS_MORE_FAULTS));
	T(RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_LO32)) ==
	  (uint32_t)(a >> 12));
	/* the handler's clear, then the next fault latches */
	clear_fault(v, V10_GFXHUB);
	T(status(v, V10_GFXHUB) == 0 &&
	  RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_LO32)) == 0);
	T(RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_CNTL)) & V10_FAULT_CNTL_CLEAR);
	/* an atomic on a read-only page; execute on a non-executable one */
	T(xl(v, V10_GFXHUB, 8, a, A_ATOM, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T(f.status == (V10_FAULT_STATUS_PERM_WRITE | V10_FAULT_STATUS_RW |
		       V10_FAULT_STATUS_ATOMIC | 5 << 9 | 8 << 20));
	T(f.latched && status(v, V10_GFXHUB) == f.status);
	T(xl(v, V10_GFXHUB, 8, a, A_X, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T((f.status & 0x1ff) == V10_FAULT_STATUS_PERM_EXECUTE &&
	  f.fault_class == V10_FAULT_CLASS_EXECUTE && !f.write);
	/* the invalidation request's clear bit */
	WR(v, V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_REQ,
	   V10_HUB_INV_REQ_CLEAR_FAULT);
	T(status(v, V10_GFXHUB) == 0);
	/* a cleared PDB0 entry (PDE_PTE, not valid): a PDE0 fault */
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 5, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(f.fault_class == V10_FAULT_CLASS_PDE0 &&
	  (f.status & 0x1ff) == V10_FAULT_STATUS_PERM_VALID);
	/* a PRT page is not valid either (not modelled) */
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 3, 4, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT && f.fault_class ==
	  V10_FAULT_CLASS_VALID);
	/*
	 * a 2 MiB page whose base is not 2 MiB aligned: base + offset (as
	 * amdgpu maps a contiguous run of system pages that starts off a
	 * 2 MiB boundary); the whole page must still lie in VRAM
	 */
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 6, 0, 0), A_R, &x, &f) == 0);
	T(!x.system && x.addr == DATA + 0x1000 && x.len == 2ULL << 20);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 6, 511, 0xffc), A_R, &x, &f) == 0);
	T(x.addr == DATA + 0x1000 + (2ULL << 20) - 4 && x.len == 4);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 7, 3, 8), A_W, &x, &f) == 0);
	T(x.system && x.addr == SYS_BASE + 0x52000 + 0x3008);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 8, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_BAD_ENTRY);
	T((f.status & 0x1ff) == 2 << V10_FAULT_STATUS_WALKER_SHIFT &&
	  f.fault_class == V10_FAULT_CLASS_PDE0);
	/* an address ≥ 2^44 fills ADDR_HI32 */
	clear_fault(v, V10_GFXHUB);
	T(xl(v, V10_GFXHUB, 8, 0x765432100abcULL, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_LO32)) == 0x65432100);
	T(RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_HI32)) == 0x7);
	T(f.addr == 0x765432100abcULL);
	/* ALLOW_SUBSEQUENT_..._UPDATES: the last fault, and MORE_FAULTS */
	rmw(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_CNTL), V10_FAULT_CNTL_CLEAR,
	    V10_FAULT_CNTL_ALLOW_UPDATES);
	T(xl(v, V10_GFXHUB, 8, a, A_W, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T(f.latched && status(v, V10_GFXHUB) ==
	  (st | V10_FAULT_STATUS_MORE_FAULTS));
	T(RD(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_ADDR_HI32)) == 0);
	T(vram_oob == 0);
}

/* The context's and the hub's enables: interrupt, default page, retry */
static void test_fault_enables(void)
{
	HsaGpuV10 *v = board(true);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	uint64_t ro = VA8(1, 2, 3, 2, 0);

	build_vmid8(v, V10_GFXHUB);
	build_vmid8(v, V10_MMHUB);
	/* interrupts off in the context (AMDGPU_IRQ_STATE_DISABLE) */
	rmw(v, CTX_CNTL(V10_GFXHUB, 8), V10_CTX_CNTL_INT(V10_FAULT_CLASS_WRITE),
	    0);
	T(xl(v, V10_GFXHUB, 8, ro, A_W, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T(!f.interrupt && f.latched && f.redirected);
	T(xl(v, V10_GFXHUB, 8, ro, A_X, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T(f.interrupt);
	/* the client's no-retry interrupt bit (CPC: 5) */
	rmw(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_CNTL), 1u << (13 + 5), 0);
	T(xl(v, V10_GFXHUB, 8, ro, A_X, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T(!f.interrupt);
	T(hsagpu_v10_gmc_translate(v, V10_GFXHUB, 8, ro, A_X,
				   V10_GFXHUB_CID_TCP, rd, NULL, &x, &f) ==
	  HSAGPU_VM_REASON_PERMISSION && f.interrupt);
	/* MMHUB's SDMA0 reads are client 46: the "other clients" bit */
	T(xl(v, V10_MMHUB, 8, ro, A_X, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T(f.interrupt &&
	  (f.status & V10_FAULT_STATUS_CID_MASK) >> 9 == 46);
	rmw(v, VM(V10_MMHUB, V10_GFXHUB_FAULT_CNTL),
	    V10_FAULT_CNTL_OTHER_CID_INT, 0);
	T(xl(v, V10_MMHUB, 8, ro, A_X, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T(!f.interrupt);
	/* set_fault_enable_default(false): refused, latched */
	clear_fault(v, V10_GFXHUB);
	rmw(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_CNTL), 0x1ffc | 1, 0xc0000000);
	T(xl(v, V10_GFXHUB, 8, ro, A_W, &x, &f) == HSAGPU_VM_REASON_PERMISSION);
	T(!f.redirected && f.latched && x.how == 0 && x.len == 0);
	/* the context's own default bit alone, too */
	rmw(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_CNTL), 0, 0x1ffc);
	rmw(v, CTX_CNTL(V10_GFXHUB, 8),
	    V10_CTX_CNTL_DEFAULT(V10_FAULT_CLASS_READ), 0);
	setv(PT_PTB, 5, (DATA + 0x5000) | P_VALID | P_WRITE);	/* no read */
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 3, 5, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_PERMISSION);
	T(f.fault_class == V10_FAULT_CLASS_READ && !f.redirected);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 3, 5, 0), A_W, &x, &f) == 0);
	/* the L2's PDE enables go by level: PDE1 for a PDB1 entry */
	setv(PT_PDB1, 7, 0);
	rmw(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_CNTL),
	    V10_FAULT_CNTL_PDE0_DEFAULT << 1, 0);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 7, 0, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(f.fault_class == V10_FAULT_CLASS_PDE0 && !f.redirected);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 5, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT && f.redirected);
	/* retry (noretry=0): not latched, not redirected; IH if enabled */
	clear_fault(v, V10_GFXHUB);
	rmw(v, CTX_CNTL(V10_GFXHUB, 8), 0, V10_CTX_CNTL_RETRY_PERM_INVALID);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 5, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(f.retry && !f.latched && !f.redirected && f.interrupt);
	T(status(v, V10_GFXHUB) == 0 && x.len == 0);
	rmw(v, VM(V10_GFXHUB, V10_GFXHUB_FAULT_CNTL2),
	    V10_FAULT_CNTL2_RETRY_INT, 0);
	T(xl(v, V10_GFXHUB, 8, VA8(1, 2, 5, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT && f.retry && !f.interrupt);
	/* a range fault is "other": RETRY_OTHER_FAULT decides */
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_END_LO32, 8), 0xfff);
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_END_HI32, 8), 0);
	T(xl(v, V10_GFXHUB, 8, 0x1000000, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_RANGE);
	T(!f.retry && f.latched && f.fault_class == V10_FAULT_CLASS_RANGE);
	T(f.status == (V10_FAULT_STATUS_MAPPING_ERROR | 5 << 9 | 8 << 20));
	T(f.redirected && x.addr == DUMMY_PAGE);
	T(xl(v, V10_GFXHUB, 8, 0xfff000, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(vram_oob == 0);
}

/*
 * amdgpu.vm_block_size=12 with a 64 GiB VM (amdgpu_vm_adjust_size):
 * num_level 2, block_size 12: PAGE_TABLE_DEPTH 2, BLOCK_SIZE 3. Page
 * tables of 4096 entries, 16 MiB per PDB0 entry, 8 GiB per root entry.
 */
static void test_block_size(void)
{
	HsaGpuV10 *v = board(false);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	uint64_t va = (3ULL << 33) + (7ULL << 24) + (4000ULL << 12) + 0x21;

	setv(BS_ROOT, 3, BS_PDB0 | P_VALID);
	setv(BS_PDB0, 7, BS_PTB | P_VALID);
	setv(BS_PDB0, 8, (32ULL << 20) | P_VALID | P_READ | P_PDE_PTE);
	setv(BS_PTB, 4000, (DATA + 0x7000) | P_VALID | P_READ | P_WRITE);
	rmw(v, CTX_CNTL(V10_MMHUB, 3), V10_CTX_CNTL_DEPTH_MASK |
	    V10_CTX_CNTL_BLOCK_SIZE_MASK, 2 << V10_CTX_CNTL_DEPTH_SHIFT |
	    3 << V10_CTX_CNTL_BLOCK_SIZE_SHIFT);
	set_page(v, CTX_REG(V10_MMHUB, V10_GFXHUB_CONTEXT0_END_LO32, 3),
		 (64ULL << 30) - 4096);
	WR(v, CTX_REG(V10_MMHUB, V10_GFXHUB_CONTEXT0_BASE_LO32, 3),
	   (uint32_t)(BS_ROOT | P_VALID));
	reads = 0;
	T(xl(v, V10_MMHUB, 3, va, A_W, &x, &f) == 0);
	T(reads == 3 && x.addr == DATA + 0x7021);
	/* a 16 MiB PDE-as-PTE */
	T(xl(v, V10_MMHUB, 3, (3ULL << 33) + (8ULL << 24) + 0xabcdef, A_R, &x,
	     &f) == 0);
	T(x.addr == (32ULL << 20) + 0xabcdef &&
	  x.len == (16ULL << 20) - 0xabcdef);
	/* the same VA with block size 9 reads other entries */
	rmw(v, CTX_CNTL(V10_MMHUB, 3), V10_CTX_CNTL_BLOCK_SIZE_MASK, 0);
	T(xl(v, V10_MMHUB, 3, va, A_W, &x, &f) != 0);
	/* the first byte past END */
	T(xl(v, V10_MMHUB, 3, 64ULL << 30, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_RANGE);
	T(vram_oob == 0);
}

/* A root in system memory (a GTT page directory), depth 1 */
static void test_system_root(void)
{
	HsaGpuV10 *v = board(true);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	uint64_t root = SYS_BASE + 0x10000, ptb = SYS_BASE + 0x20000;

	sets(root, 2, ptb | P_VALID | P_SYSTEM);
	sets(ptb, 9, (SYS_BASE + 0x3000) | P_VALID | P_SYSTEM | P_READ);
	sets(root, 3, 0x7fff0000000ULL | P_VALID | P_SYSTEM);	/* no RAM */
	rmw(v, CTX_CNTL(V10_GFXHUB, 12), V10_CTX_CNTL_DEPTH_MASK,
	    1 << V10_CTX_CNTL_DEPTH_SHIFT);
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_BASE_LO32, 12),
	   (uint32_t)(root | P_VALID | P_SYSTEM));
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_BASE_HI32, 12),
	   (uint32_t)(root >> 32));
	T(xl(v, V10_GFXHUB, 12, (2ULL << 21) + (9 << 12) + 1, A_R, &x, &f) ==
	  0);
	T(x.system && x.addr == SYS_BASE + 0x3001);
	T(xl(v, V10_GFXHUB, 12, 3ULL << 21, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_WALK);
	/* the page table could not be read: a PTE's fault (level 0) */
	T((f.status & 0x1ff) == 1 << V10_FAULT_STATUS_WALKER_SHIFT &&
	  f.fault_class == V10_FAULT_CLASS_VALID && sys_refused == 1);
	T(vram_oob == 0);
}

static uint32_t rnd(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 33;
}

static uint64_t rnd64(uint64_t *seed)
{
	return (uint64_t)rnd(seed) << 32 | rnd(seed);
}

/* Hostile registers and tables: clean faults, never a read outside */
static void test_hostile(void)
{
	HsaGpuV10 *v = board(true);
	HsaGpuV10Xlat x;
	HsaGpuV10Fault f;
	unsigned hub, n, i, r, hist[8];
	uint64_t seed = 12345;

	/* a root past VRAM; a PDE pointing past VRAM */
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_BASE_LO32, 4),
	   (uint32_t)(VRAM | P_VALID));
	T(xl(v, V10_GFXHUB, 4, 0, A_R, &x, &f) == HSAGPU_VM_REASON_WALK);
	T(f.fault_class == V10_FAULT_CLASS_PDE0 && f.latched);
	setv(PT_ROOT, 0, (VRAM - 8) | P_VALID);
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_BASE_LO32, 5),
	   (uint32_t)(PT_ROOT | P_VALID));
	/* (the PDE's address is 64-byte aligned: VRAM - 64) */
	T(xl(v, V10_GFXHUB, 5, VA8(0, 8, 0, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_WALK);
	T(xl(v, V10_GFXHUB, 5, VA8(0, 0, 0, 0, 0), A_R, &x, &f) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	/* a flat GART whose END runs past VRAM */
	set_page(v, VM(V10_MMHUB, V10_GFXHUB_CONTEXT0_END_LO32),
		 (1ULL << 48) - 4096);
	T(xl(v, V10_MMHUB, 0, 0xf000000000ULL, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_WALK);
	/* END below START: nothing is in range */
	set_page(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_START_LO32, 6),
		 0x100000);
	set_page(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_END_LO32, 6),
		 0x50000);
	WR(v, CTX_REG(V10_GFXHUB, V10_GFXHUB_CONTEXT0_BASE_LO32, 6),
	   (uint32_t)(PT_ROOT | P_VALID));
	T(xl(v, V10_GFXHUB, 6, 0x50000, A_R, &x, &f) == HSAGPU_VM_REASON_RANGE);
	T(xl(v, V10_GFXHUB, 6, 0x100000, A_R, &x, &f) ==
	  HSAGPU_VM_REASON_RANGE);
	/* a disabled context */
	WR(v, CTX_CNTL(V10_GFXHUB, 7), 0);
	T(xl(v, V10_GFXHUB, 7, 0, A_R, &x, &f) == HSAGPU_VM_REASON_CONTEXT);
	T(f.status & V10_FAULT_STATUS_MAPPING_ERROR && !f.redirected);
	/* no such hub or VMID: nothing recorded */
	clear_fault(v, V10_GFXHUB);
	clear_fault(v, V10_MMHUB);
	T(xl(v, 2, 0, 0, A_R, &x, &f) == HSAGPU_VM_REASON_CONTEXT);
	T(xl(v, 0, 16, 0, A_R, &x, &f) == HSAGPU_VM_REASON_CONTEXT);
	T(status(v, 0) == 0 && status(v, 1) == 0 && !f.latched);
	T(hsagpu_v10_gmc_translate(v, 0, 4, 0, A_R, 0, rd, NULL, &x, NULL) ==
	  HSAGPU_VM_REASON_WALK && status(v, 0) != 0);

	/* every hub register all ones */
	for (hub = 0; hub < V10_NUM_HUBS; hub++) {
		for (r = V10_GFXHUB_FAULT_CNTL; r <= V10_GFXHUB_CONTEXT0_END_HI32
		     + 30; r++)
			WR(v, VM(hub, r), 0xffffffff);
		for (r = V10_GFXHUB_FB_OFFSET; r <= V10_GFXHUB_SYSTEM_APERTURE_HIGH;
		     r++)
			WR(v, MC(hub, r), 0xffffffff);
		for (n = 0; n < 16; n++) {
			uint64_t as[] = { 0, 0xfff, 0x123456789000ULL,
					  0xfffffffff000ULL, 0xffffffffffffULL,
					  0xffffff000000ULL, FB_START };

			for (i = 0; i < sizeof(as) / sizeof(as[0]); i++) {
				unsigned res = xl(v, hub, n, as[i], A_ATOM, &x,
						  &f);

				TM(res ? res <= HSAGPU_VM_REASON_CONTEXT :
				   (x.system || x.addr + x.len <= VRAM),
				   "all ones: hub %u vmid %u %#llx: %u", hub,
				   n, (unsigned long long)as[i], res);
			}
		}
	}
	T(vram_oob == 0);

	/*
	 * Random tables (entries into the table zone, past VRAM, into and
	 * out of system memory, leaves and directories) and random context
	 * and aperture registers: every result stays in bounds.
	 */
	v = board(true);
	for (i = 0; i < 0x10000; i++) {
		uint64_t e = rnd(&seed) % 0x80000 + PT_ROOT;

		e |= rnd(&seed) % 8 ? P_VALID : 0;
		e |= rnd(&seed) % 4 ? 0 : P_PDE_PTE;
		e |= rnd(&seed) & (P_READ | P_WRITE | P_EXEC);
		if (rnd(&seed) % 8 == 0)
			e = (e & ~0xfffffffffffULL) | P_SYSTEM |
			    (SYS_BASE + rnd(&seed) % (2 * SYS_SIZE));
		if (rnd(&seed) % 16 == 0)
			e += VRAM;
		setv(PT_ROOT, i, e);
	}
	memset(hist, 0, sizeof(hist));
	for (i = 0; i < 50000; i++) {
		unsigned res, bad;
		uint64_t a;
		uint32_t val = rnd(&seed);

		hub = rnd(&seed) & 1;
		n = rnd(&seed) & 15;
		switch (rnd(&seed) % 8) {
		case 0:
			val = (val & 0x7ffffe) |
			      (rnd(&seed) % 8 ? V10_CTX_CNTL_ENABLE : 0);
			WR(v, CTX_CNTL(hub, n), val & ~(rnd(&seed) % 4 ? 0x78 :
						     0));
			break;
		case 1:
			WR(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_BASE_LO32, n),
			   (uint32_t)(PT_ROOT + val % 0x80000) | P_VALID |
			   (rnd(&seed) % 16 ? 0 : P_SYSTEM));
			break;
		case 2:
			set_page(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_START_LO32,
					    n), val % 4 ? 0 : rnd64(&seed));
			break;
		case 3:
			set_page(v, CTX_REG(hub, V10_GFXHUB_CONTEXT0_END_LO32,
					    n), val % 4 ? ~0ULL : rnd64(&seed));
			break;
		case 4:
			r = V10_GFXHUB_FB_OFFSET + rnd(&seed) % 28;
			/* VRAM's physical base: mostly 0, as on a board */
			if (r == V10_GFXHUB_FB_OFFSET && val % 4)
				val = 0;
			WR(v, MC(hub, r), val % 4 ? val >> 8 : val);
			break;
		default:
			break;
		}
		a = rnd64(&seed) >> rnd(&seed) % 64;
		res = xl(v, hub, n, a, rnd(&seed) % 4, &x, &f);
		hist[res < 8 ? res : 7]++;
		bad = res ? res > HSAGPU_VM_REASON_CONTEXT ||
			    (f.latched && !f.status) ||
			    (f.redirected && !x.len) :
			    !x.len || (!x.system && x.addr + x.len > VRAM);
		if (bad || vram_oob) {
			TM(0, "random %u: hub %u vmid %u %#llx: %u", i, hub, n,
			   (unsigned long long)a, res);
			break;
		}
	}
	TM(i == 50000 && vram_oob == 0, "50000 random translations in bounds");
	/* and they were not all one kind */
	for (r = 0; r <= HSAGPU_VM_REASON_CONTEXT; r++)
		TM(hist[r] > 100, "random: %u results %u", hist[r], r);
}

int main(void)
{
	vram = calloc(1, VRAM);
	sys = calloc(1, SYS_SIZE);
	test_reset_values();
	test_apertures_61();
	test_apertures_612();
	test_gart();
	test_fb_offset();
	test_gart_high();
	test_vmid8();
	test_faults();
	test_fault_enables();
	test_block_size();
	test_system_root();
	test_hostile();
	free(vram);
	free(sys);
	return tap_done();
}
