// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for GPU virtual memory (hsagpu-vm.c): tables built
 * by hand in a fake VRAM and a fake system memory, walked at every level,
 * large pages, permission bits, each fault class, the TLB and its
 * invalidation, the fault latch and the register block. TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/core/hsagpu-vm.h"

#include "tap.h"

#define VRAM_SIZE       (64ULL << 20)
#define SYS_BASE        0x100000000ULL  /* bus address of fake RAM */
#define SYS_SIZE        (4ULL << 20)

static uint8_t *vram, *sys;
static unsigned reads;

static int rd(void *opaque, bool system, uint64_t addr, uint64_t *val)
{
	reads++;
	if (system) {
		if (addr < SYS_BASE || addr + 8 > SYS_BASE + SYS_SIZE)
			return -1;
		memcpy(val, sys + (addr - SYS_BASE), 8);
		return 0;
	}
	if (addr + 8 > VRAM_SIZE)
		return -1;
	memcpy(val, vram + addr, 8);
	return 0;
}

/* A table entry in VRAM (tables at VRAM offsets) */
static void setv(uint64_t table, unsigned idx, uint64_t e)
{
	memcpy(vram + table + 8 * idx, &e, 8);
}

static void sets(uint64_t table, unsigned idx, uint64_t e)
{
	memcpy(sys + (table - SYS_BASE) + 8 * idx, &e, 8);
}

#define RW      (HSAGPU_PTE_READABLE | HSAGPU_PTE_WRITEABLE)
#define V       HSAGPU_PTE_VALID
#define SYSB    HSAGPU_PTE_SYSTEM

/* VA used throughout: indices 1, 2, 3, 4 at levels 3..0 */
#define VA(l3, l2, l1, l0, off) \
	(((uint64_t)(l3) << 39) | ((uint64_t)(l2) << 30) | \
	 ((uint64_t)(l1) << 21) | ((uint64_t)(l0) << 12) | (off))

/* Root at VRAM 0x1000, then 0x2000, 0x3000, 0x4000 */
static void build_vram_tables(void)
{
	memset(vram, 0, 0x10000);
	setv(0x1000, 1, 0x2000 | V);
	setv(0x2000, 2, 0x3000 | V);
	setv(0x3000, 3, 0x4000 | V);
	setv(0x4000, 4, 0x123000 | V | RW);                     /* VRAM page */
	setv(0x4000, 5, 0x7654321000ULL | V | SYSB | HSAGPU_PTE_READABLE);
	setv(0x4000, 6, 0x200000 | V | HSAGPU_PTE_EXECUTABLE);
	setv(0x4000, 7, 0x300000);                              /* not valid */
	setv(0x4000, 8, (VRAM_SIZE - 0x1000) | V | RW);         /* last page */
	setv(0x4000, 9, VRAM_SIZE | V | RW);                    /* beyond */
}

static void ctx_on(HsaGpuVm *vm, unsigned vmid, uint64_t pt_base)
{
	vm->ctx[vmid].pt_base = pt_base;
	vm->ctx[vmid].start = 0;
	vm->ctx[vmid].end = (1ULL << 36) - 1;
	vm->ctx[vmid].cntl = HSAGPU_VM_CNTL_ENABLE;
}

static unsigned xl(HsaGpuVm *vm, unsigned vmid, uint64_t va, unsigned acc,
		   HsaGpuVmXlat *x)
{
	return hsagpu_vm_translate(vm, vmid, va, acc, true, rd, NULL, x);
}

static void test_levels(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	build_vram_tables();
	ctx_on(&vm, 1, 0x1000);

	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0x567), HSAGPU_VM_ACCESS_WRITE, &x) == 0);
	T(reads == 4);                  /* one entry per level */
	T(x.va == VA(1, 2, 3, 4, 0) && x.size == 4096);
	T(x.pa == 0x123000 && !(x.flags & SYSB));

	T(xl(&vm, 1, VA(1, 2, 3, 5, 8), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x7654321000ULL && (x.flags & SYSB));

	/* A miss at each level: root, level 2, level 1, level 0 */
	T(xl(&vm, 1, VA(0, 2, 3, 4, 0), 0, &x) == HSAGPU_VM_REASON_NOT_PRESENT);
	T(xl(&vm, 1, VA(1, 1, 3, 4, 0), 0, &x) == HSAGPU_VM_REASON_NOT_PRESENT);
	T(xl(&vm, 1, VA(1, 2, 2, 4, 0), 0, &x) == HSAGPU_VM_REASON_NOT_PRESENT);
	T(xl(&vm, 1, VA(1, 2, 3, 7, 0), 0, &x) == HSAGPU_VM_REASON_NOT_PRESENT);

	/* Local pages must lie inside VRAM */
	T(xl(&vm, 1, VA(1, 2, 3, 8, 0xfff), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(xl(&vm, 1, VA(1, 2, 3, 9, 0), 0, &x) == HSAGPU_VM_REASON_BAD_ENTRY);
}

static void test_permissions(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	build_vram_tables();
	ctx_on(&vm, 2, 0x1000);

	/* Read-only system page */
	T(xl(&vm, 2, VA(1, 2, 3, 5, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(xl(&vm, 2, VA(1, 2, 3, 5, 0), HSAGPU_VM_ACCESS_WRITE, &x) ==
	  HSAGPU_VM_REASON_PERMISSION);
	T(xl(&vm, 2, VA(1, 2, 3, 5, 0), HSAGPU_VM_ACCESS_ATOMIC, &x) ==
	  HSAGPU_VM_REASON_PERMISSION);
	T(xl(&vm, 2, VA(1, 2, 3, 5, 0), HSAGPU_VM_ACCESS_EXECUTE, &x) ==
	  HSAGPU_VM_REASON_PERMISSION);
	/* Execute-only page */
	T(xl(&vm, 2, VA(1, 2, 3, 6, 0), HSAGPU_VM_ACCESS_EXECUTE, &x) == 0);
	T(xl(&vm, 2, VA(1, 2, 3, 6, 0), HSAGPU_VM_ACCESS_READ, &x) ==
	  HSAGPU_VM_REASON_PERMISSION);
	/* Read-write page: atomics need both */
	T(xl(&vm, 2, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_ATOMIC, &x) == 0);
	T(xl(&vm, 2, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_EXECUTE, &x) ==
	  HSAGPU_VM_REASON_PERMISSION);
}

static void test_large_pages(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	build_vram_tables();
	ctx_on(&vm, 1, 0x1000);
	/* 2 MiB page in VRAM at level 1 */
	setv(0x3000, 10, 0x400000 | V | RW | HSAGPU_PDE_PTE);
	/* 1 GiB system page at level 2 */
	setv(0x2000, 5, 0x80000000ULL | V | SYSB | RW | HSAGPU_PDE_PTE);
	/* misaligned 2 MiB leaf, and a leaf at the root */
	setv(0x3000, 11, 0x401000 | V | RW | HSAGPU_PDE_PTE);
	setv(0x1000, 3, 0x40000000ULL | V | SYSB | RW | HSAGPU_PDE_PTE);
	/* 2 MiB local page that would run past the end of VRAM */
	setv(0x3000, 12, (VRAM_SIZE - 0x100000) | V | RW | HSAGPU_PDE_PTE);

	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 10, 0x1ab, 0x10), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(reads == 3);
	T(x.size == 2ULL << 20 && x.va == VA(1, 2, 10, 0, 0) && x.pa == 0x400000);

	reads = 0;
	T(xl(&vm, 1, VA(1, 5, 0x17, 0x33, 0x44), HSAGPU_VM_ACCESS_WRITE, &x) == 0);
	T(reads == 2);
	T(x.size == 1ULL << 30 && x.va == VA(1, 5, 0, 0, 0) &&
	  x.pa == 0x80000000ULL && (x.flags & SYSB));

	T(xl(&vm, 1, VA(1, 2, 11, 0, 0), 0, &x) == HSAGPU_VM_REASON_BAD_ENTRY);
	T(xl(&vm, 1, VA(3, 0, 0, 0, 0), 0, &x) == HSAGPU_VM_REASON_BAD_ENTRY);
	T(xl(&vm, 1, VA(1, 2, 12, 0, 0), 0, &x) == HSAGPU_VM_REASON_BAD_ENTRY);
}

static void test_system_tables(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;
	uint64_t root = SYS_BASE, l2 = SYS_BASE + 0x1000;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	build_vram_tables();
	memset(sys, 0, SYS_SIZE);
	/* root and level 2 in system memory, then VRAM tables */
	sets(root, 1, l2 | V | SYSB);
	sets(l2, 2, 0x3000 | V);
	ctx_on(&vm, 3, root | HSAGPU_VM_PT_SYSTEM);
	T(xl(&vm, 3, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x123000);
	/* A table nobody can read: walk error */
	sets(root, 2, (SYS_BASE + SYS_SIZE) | V | SYSB);
	T(xl(&vm, 3, VA(2, 0, 0, 0, 0), 0, &x) == HSAGPU_VM_REASON_WALK);
	/* A VRAM table beyond VRAM */
	sets(root, 4, VRAM_SIZE | V);
	T(xl(&vm, 3, VA(4, 0, 0, 0, 0), 0, &x) == HSAGPU_VM_REASON_WALK);
	/* The root in VRAM beyond its end */
	ctx_on(&vm, 4, VRAM_SIZE + 0x1000);
	T(xl(&vm, 4, VA(1, 2, 3, 4, 0), 0, &x) == HSAGPU_VM_REASON_WALK);
}

static void test_context_and_range(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	build_vram_tables();
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), 0, &x) == HSAGPU_VM_REASON_CONTEXT);
	T(xl(&vm, 0, 0, 0, &x) == HSAGPU_VM_REASON_CONTEXT);
	T(xl(&vm, 16, 0, 0, &x) == HSAGPU_VM_REASON_CONTEXT);
	ctx_on(&vm, 1, 0x1000);
	vm.ctx[1].start = VA(1, 2, 3, 4, 0) >> 12;
	vm.ctx[1].end = VA(1, 2, 3, 4, 0) >> 12;
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0xfff), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(xl(&vm, 1, VA(1, 2, 3, 5, 0), 0, &x) == HSAGPU_VM_REASON_RANGE);
	T(xl(&vm, 1, VA(1, 2, 3, 3, 0xfff), 0, &x) == HSAGPU_VM_REASON_RANGE);
	/* beyond 48 bits, even with a full range */
	vm.ctx[1].end = (1ULL << 36) - 1;
	T(xl(&vm, 1, 1ULL << 48, 0, &x) == HSAGPU_VM_REASON_RANGE);
	T(xl(&vm, 1, ~0ULL, 0, &x) == HSAGPU_VM_REASON_RANGE);
}

static void test_tlb(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;
	unsigned i;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	build_vram_tables();
	ctx_on(&vm, 1, 0x1000);
	ctx_on(&vm, 2, 0x1000);

	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(vm.walks == 1 && vm.tlb_hits == 0);
	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0x800), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(reads == 0 && vm.tlb_hits == 1 && x.pa == 0x123000);

	/* The PTE changes: the TLB keeps the old one until invalidated */
	setv(0x4000, 4, 0x555000 | V | RW);
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x123000);
	/* Invalidating another VMID does not help; this one does */
	hsagpu_vm_flush(&vm, 1U << 2);
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x123000);
	hsagpu_vm_flush(&vm, 1U << 1);
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x555000);

	/* Range invalidation: only overlapping entries go */
	setv(0x3000, 10, 0x400000 | V | RW | HSAGPU_PDE_PTE);
	T(xl(&vm, 1, VA(1, 2, 10, 0, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	setv(0x4000, 4, 0x666000 | V | RW);
	setv(0x3000, 10, 0x600000 | V | RW | HSAGPU_PDE_PTE);
	hsagpu_vm_flush_range(&vm, 1U << 1, VA(1, 2, 10, 0x1ff, 0), 1);
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x555000);             /* untouched: still cached */
	T(xl(&vm, 1, VA(1, 2, 10, 0, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x600000);             /* the 2 MiB page was dropped */
	hsagpu_vm_flush_range(&vm, 1U << 1, VA(1, 2, 3, 4, 0), 1);
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x666000);

	/* Permissions are checked on hits too */
	T(xl(&vm, 1, VA(1, 2, 3, 5, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(xl(&vm, 1, VA(1, 2, 3, 5, 0), HSAGPU_VM_ACCESS_WRITE, &x) ==
	  HSAGPU_VM_REASON_PERMISSION);

	/* Faults are not cached: a page mapped later is found */
	T(xl(&vm, 1, VA(1, 2, 3, 20, 0), 0, &x) == HSAGPU_VM_REASON_NOT_PRESENT);
	setv(0x4000, 20, 0x777000 | V | RW);
	T(xl(&vm, 1, VA(1, 2, 3, 20, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);

	/* More pages than entries: all still translate correctly */
	for (i = 0; i < 64; i++)
		setv(0x4000, 100 + i, ((uint64_t)(0x800 + i) << 12) | V | RW);
	for (i = 0; i < 64; i++) {
		T(xl(&vm, 1, VA(1, 2, 3, 100 + i, 4), HSAGPU_VM_ACCESS_READ,
		     &x) == 0 && x.pa == (uint64_t)(0x800 + i) << 12);
	}

	/* Without the TLB: always a walk, nothing cached */
	vm.walks = 0;
	hsagpu_vm_flush(&vm, 0xffff);
	T(hsagpu_vm_translate(&vm, 1, VA(1, 2, 3, 4, 0),
			      HSAGPU_VM_ACCESS_READ, false, rd, NULL, &x) == 0);
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(vm.walks == 2);
}

/*
 * The walk cache: the next 4 KiB page of a 2 MiB region costs one table
 * read; an invalidation (any range) or a context write forgets it, and
 * a table that changed is then read again.
 */
static void test_walk_cache(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	build_vram_tables();
	ctx_on(&vm, 1, 0x1000);
	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(reads == 4);
	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 3, 5, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(reads == 1 && x.pa == 0x7654321000ULL);
	/* A miss in the same region is one read, and a fault */
	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 3, 7, 0), 0, &x) == HSAGPU_VM_REASON_NOT_PRESENT);
	T(reads == 1);
	/* Another region walks from the root */
	setv(0x3000, 20, 0x5000 | V);
	setv(0x5000, 1, 0x888000 | V | RW);
	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 20, 1, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(reads == 4 && x.pa == 0x888000);
	/* The level-1 entry now names another table: not seen until flushed */
	setv(0x3000, 20, 0x6000 | V);
	setv(0x6000, 2, 0x999000 | V | RW);
	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 20, 2, 0), 0, &x) == HSAGPU_VM_REASON_NOT_PRESENT);
	T(reads == 1);
	hsagpu_vm_flush_range(&vm, 1U << 1, VA(7, 0, 0, 0, 0), 1);
	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 20, 2, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(reads == 4 && x.pa == 0x999000);
	/* A context write forgets it too */
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_CTX(1) + HSAGPU_VM_CTX_CNTL,
			      HSAGPU_VM_CNTL_ENABLE) == 0);
	reads = 0;
	T(xl(&vm, 1, VA(1, 2, 20, 3, 0), 0, &x) == HSAGPU_VM_REASON_NOT_PRESENT);
	T(reads == 4);
	/* Without the TLB nothing is cached */
	reads = 0;
	T(hsagpu_vm_translate(&vm, 1, VA(1, 2, 20, 2, 0), HSAGPU_VM_ACCESS_READ,
			      false, rd, NULL, &x) == 0);
	T(reads == 4);
}

static void test_faults(void)
{
	HsaGpuVm vm;
	uint32_t info;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	info = hsagpu_vm_fault(&vm, 3, 17, HSAGPU_VM_CLIENT_DMA,
			       HSAGPU_VM_ACCESS_WRITE,
			       HSAGPU_VM_REASON_PERMISSION, 0x123456789aULL);
	T(info & HSAGPU_VM_FAULT_VALID);
	T((info & HSAGPU_VM_FAULT_VMID_MASK) >> HSAGPU_VM_FAULT_VMID_SHIFT == 3);
	T((info & HSAGPU_VM_FAULT_QUEUE_MASK) >> HSAGPU_VM_FAULT_QUEUE_SHIFT ==
	  17);
	T((info & HSAGPU_VM_FAULT_CLIENT_MASK) >>
	  HSAGPU_VM_FAULT_CLIENT_SHIFT == HSAGPU_VM_CLIENT_DMA);
	T((info & HSAGPU_VM_FAULT_ACCESS_MASK) >>
	  HSAGPU_VM_FAULT_ACCESS_SHIFT == HSAGPU_VM_ACCESS_WRITE);
	T((info & HSAGPU_VM_FAULT_REASON_MASK) >>
	  HSAGPU_VM_FAULT_REASON_SHIFT == HSAGPU_VM_REASON_PERMISSION);
	T(vm.fault_status == info && vm.fault_addr == 0x123456789aULL);

	/* A second fault is counted, not latched */
	info = hsagpu_vm_fault(&vm, 5, -1, HSAGPU_VM_CLIENT_ATOMIC,
			       HSAGPU_VM_ACCESS_ATOMIC,
			       HSAGPU_VM_REASON_NOT_PRESENT, 0x1000);
	T((info & HSAGPU_VM_FAULT_QUEUE_MASK) >> HSAGPU_VM_FAULT_QUEUE_SHIFT ==
	  HSAGPU_VM_FAULT_QUEUE_NONE);
	T(vm.fault_count == 2 && vm.fault_addr == 0x123456789aULL);
	T(vm.fault_status & HSAGPU_VM_FAULT_MORE);
	T((vm.fault_status & HSAGPU_VM_FAULT_VMID_MASK) >>
	  HSAGPU_VM_FAULT_VMID_SHIFT == 3);

	/* Clearing VALID through the register re-arms the latch */
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_FAULT_STATUS,
			      HSAGPU_VM_FAULT_VALID) == 0);
	T(vm.fault_status == 0);
	hsagpu_vm_fault(&vm, 5, -1, HSAGPU_VM_CLIENT_ATOMIC,
			HSAGPU_VM_ACCESS_ATOMIC, HSAGPU_VM_REASON_NOT_PRESENT,
			0x1000);
	T(vm.fault_addr == 0x1000 && !(vm.fault_status & HSAGPU_VM_FAULT_MORE));
}

static uint32_t rreg(HsaGpuVm *vm, uint32_t off)
{
	uint32_t v = 0xdeadbeef;

	T(hsagpu_vm_reg_read(vm, off, &v) == 0);
	return v;
}

static void test_registers(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;
	uint32_t base = HSAGPU_REG_VM_CTX(7);

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	build_vram_tables();
	T(hsagpu_vm_reg(HSAGPU_REG_VM_INVALIDATE_REQ));
	T(hsagpu_vm_reg(HSAGPU_REG_VM_CTX(15) + HSAGPU_VM_CTX_CNTL));
	T(!hsagpu_vm_reg(HSAGPU_REG_VM_CTX(16)));
	T(!hsagpu_vm_reg(HSAGPU_REG_ATOMIC_VMID));

	/* Program VMID 7 through registers; bits that do not exist drop */
	T(hsagpu_vm_reg_write(&vm, base + HSAGPU_VM_CTX_PT_BASE_LO,
			      0x1000 | 0xffe) == 0);
	T(hsagpu_vm_reg_write(&vm, base + HSAGPU_VM_CTX_PT_BASE_HI,
			      0xffffffff) == 0);
	T(rreg(&vm, base + HSAGPU_VM_CTX_PT_BASE_LO) == 0x1000);
	T(rreg(&vm, base + HSAGPU_VM_CTX_PT_BASE_HI) == 0xffff);
	T(hsagpu_vm_reg_write(&vm, base + HSAGPU_VM_CTX_PT_BASE_HI, 0) == 0);
	T(hsagpu_vm_reg_write(&vm, base + HSAGPU_VM_CTX_END_LO, 0xffffffff) == 0);
	T(hsagpu_vm_reg_write(&vm, base + HSAGPU_VM_CTX_END_HI, 0xffffffff) == 0);
	T(rreg(&vm, base + HSAGPU_VM_CTX_END_HI) == 0xf);
	T(hsagpu_vm_reg_write(&vm, base + HSAGPU_VM_CTX_CNTL, 0xffffffff) == 0);
	T(rreg(&vm, base + HSAGPU_VM_CTX_CNTL) == HSAGPU_VM_CNTL_ENABLE);
	T(hsagpu_vm_loaded_ok(&vm));
	T(xl(&vm, 7, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);

	/* VMID 0 has no context: writes are ignored */
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_CTX(0), 0x1000) == 0);
	T(rreg(&vm, HSAGPU_REG_VM_CTX(0)) == 0);
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_CTX(0) + 0x1c, 1) ==
	  HSAGPU_BAD_REASON_UNMAPPED);

	/* Writing PT_BASE drops the VMID's translations */
	setv(0x4000, 4, 0x999000 | V | RW);
	T(xl(&vm, 7, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x123000);
	T(hsagpu_vm_reg_write(&vm, base + HSAGPU_VM_CTX_PT_BASE_LO, 0x1000) == 0);
	T(xl(&vm, 7, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x999000);

	/* Invalidation request and acknowledge */
	T(rreg(&vm, HSAGPU_REG_VM_INVALIDATE_ACK) == 0xffff);
	setv(0x4000, 4, 0x123000 | V | RW);
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_INVALIDATE_ADDR_LO,
			      (uint32_t)VA(1, 2, 3, 4, 0x123)) == 0);
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_INVALIDATE_ADDR_HI,
			      (uint32_t)(VA(1, 2, 3, 4, 0) >> 32)) == 0);
	T(rreg(&vm, HSAGPU_REG_VM_INVALIDATE_ADDR_LO) ==
	  (uint32_t)VA(1, 2, 3, 4, 0));
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_INVALIDATE_PAGES, 1) == 0);
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_INVALIDATE_REQ,
			      HSAGPU_VM_INV_RANGE | 1U << 7) == 0);
	T(rreg(&vm, HSAGPU_REG_VM_INVALIDATE_ACK) & 1U << 7);
	T(rreg(&vm, HSAGPU_REG_VM_INVALIDATIONS) == 1);
	T(xl(&vm, 7, VA(1, 2, 3, 4, 0), HSAGPU_VM_ACCESS_READ, &x) == 0);
	T(x.pa == 0x123000);

	/* Read-only and unmapped registers */
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_WALKS, 0) ==
	  HSAGPU_BAD_REASON_READONLY);
	T(hsagpu_vm_reg_write(&vm, HSAGPU_REG_VM_INVALIDATE_ACK, 0) ==
	  HSAGPU_BAD_REASON_READONLY);
	T(rreg(&vm, HSAGPU_REG_VM_WALKS) == vm.walks && vm.walks >= 3);

	/* Migration check */
	vm.ctx[0].cntl = 1;
	T(!hsagpu_vm_loaded_ok(&vm));
	vm.ctx[0].cntl = 0;
	vm.ctx[3].end = 1ULL << 40;
	T(!hsagpu_vm_loaded_ok(&vm));
	vm.ctx[3].end = 0;
	vm.ctx[3].pt_base = 0x1234;
	T(!hsagpu_vm_loaded_ok(&vm));
}

/*
 * Layouts other than hsa-gpu's (hsagpu_vm_translate_layout, as the
 * Vega10 hubs use it): one flat table indexed from the range's start.
 */
static void test_layout_flat(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;
	HsaGpuVmLayout l = {
		.root = 0x10000, .depth = 0, .start = 0x100, .end = 0x1ff,
		.index_base = 0x100, .dir_mask = HSAGPU_PTE_ADDR_MASK,
	};
	int level = -1;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	memset(vram + 0x10000, 0, 0x1000);
	setv(0x10000, 0, 0x5000 | V | RW);
	setv(0x10000, 0xff, SYS_BASE | V | SYSB | RW);
	reads = 0;
	T(hsagpu_vm_translate_layout(&vm, 0, &l, 0x100012,
				     HSAGPU_VM_ACCESS_WRITE, true, rd, NULL,
				     &x, &level) == 0);
	T(reads == 1 && x.pa == 0x5000 && x.va == 0x100000 && x.size == 4096);
	T(hsagpu_vm_translate_layout(&vm, 0, &l, 0x1fffff,
				     HSAGPU_VM_ACCESS_READ, true, rd, NULL,
				     &x, &level) == 0);
	T(x.pa == SYS_BASE && (x.flags & SYSB) && x.va == 0x1ff000);
	/* One page either side of the range */
	T(hsagpu_vm_translate_layout(&vm, 0, &l, 0xfffff, 0, true, rd, NULL,
				     &x, &level) == HSAGPU_VM_REASON_RANGE);
	T(hsagpu_vm_translate_layout(&vm, 0, &l, 0x200000, 0, true, rd, NULL,
				     &x, &level) == HSAGPU_VM_REASON_RANGE);
	T(hsagpu_vm_translate_layout(&vm, 0, &l, 0x101000, 0, true, rd, NULL,
				     &x, &level) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(level == 0);
	/* The flat table may end past VRAM: a clean fault there */
	l.root = VRAM_SIZE - 0x400;
	hsagpu_vm_flush(&vm, 1);
	reads = 0;
	T(hsagpu_vm_translate_layout(&vm, 0, &l, 0x17f000, 0, true, rd, NULL,
				     &x, &level) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(reads == 1);
	T(hsagpu_vm_translate_layout(&vm, 0, &l, 0x180000, 0, true, rd, NULL,
				     &x, &level) == HSAGPU_VM_REASON_WALK);
	T(reads == 1);
}

/*
 * Depth 2 and block size 3: page tables of 4096 entries, 16 MiB per
 * directory entry, 8 GiB per root entry; local addresses in entries
 * are VRAM offsets plus 16 MiB (a VRAM base, as Vega10's FB_OFFSET).
 */
#define LB	(16ULL << 20)

static void test_layout_block_size(void)
{
	HsaGpuVm vm;
	HsaGpuVmXlat x;
	HsaGpuVmLayout l = {
		.root = LB + 0x20000, .depth = 2, .block_size = 3,
		.end = (1ULL << 24) - 1,
		.dir_mask = 0x0000ffffffffffc0ULL, .local_base = LB,
	};
	uint64_t va = (1ULL << 33) + (2ULL << 24) + 3000 * 4096ULL + 5;
	int level = -1;

	hsagpu_vm_reset(&vm, VRAM_SIZE);
	memset(vram + 0x20000, 0, 0x20000);
	memset(vram + 0x30000, 0, 0x8000);
	setv(0x20000, 1, (LB + 0x21040) | V);	/* 64-byte aligned table */
	setv(0x21040, 2, (LB + 0x30000) | V);
	setv(0x30000, 3000, (LB + 0x400000) | V | RW);
	setv(0x30000, 3001, 0x5000 | V | RW);		/* below the base */
	setv(0x21040, 5, (LB + 0x2000000) | V | RW | HSAGPU_PDE_PTE);
	setv(0x21040, 6, (LB + 0x2001000) | V | RW | HSAGPU_PDE_PTE);
	setv(0x20000, 2, 0x1000 | V);			/* below the base */
	/* a leaf at the root: never (an 8 GiB system page here) */
	setv(0x20000, 3, (8ULL << 30) | V | SYSB | RW | HSAGPU_PDE_PTE);

	reads = 0;
	T(hsagpu_vm_translate_layout(&vm, 8, &l, va, HSAGPU_VM_ACCESS_READ,
				     true, rd, NULL, &x, &level) == 0);
	T(reads == 3 && x.pa == 0x400000 && x.size == 4096);
	T(x.va == va - 5);
	/* The 16 MiB region's page table is remembered */
	reads = 0;
	T(hsagpu_vm_translate_layout(&vm, 8, &l, va + 4096, 0, true, rd,
				     NULL, &x, &level) ==
	  HSAGPU_VM_REASON_BAD_ENTRY);
	T(reads == 1 && level == 0);
	/* A 16 MiB page */
	T(hsagpu_vm_translate_layout(&vm, 8, &l,
				     (1ULL << 33) + (5ULL << 24) + 0x123456,
				     HSAGPU_VM_ACCESS_WRITE, true, rd, NULL,
				     &x, &level) == 0);
	T(x.pa == 0x2000000 && x.size == 16ULL << 20);
	T(x.va == (1ULL << 33) + (5ULL << 24));
	T(hsagpu_vm_translate_layout(&vm, 8, &l, (1ULL << 33) + (6ULL << 24),
				     0, true, rd, NULL, &x, &level) ==
	  HSAGPU_VM_REASON_BAD_ENTRY);
	T(level == 1);
	T(hsagpu_vm_translate_layout(&vm, 8, &l, 2ULL << 33, 0, true, rd,
				     NULL, &x, &level) == HSAGPU_VM_REASON_WALK);
	T(level == 1);
	T(hsagpu_vm_translate_layout(&vm, 8, &l, 3ULL << 33, 0, true, rd,
				     NULL, &x, &level) ==
	  HSAGPU_VM_REASON_BAD_ENTRY);
	T(level == 2);
	/* A page number above END, and the root without the base */
	T(hsagpu_vm_translate_layout(&vm, 8, &l, 1ULL << 36, 0, true, rd,
				     NULL, &x, &level) ==
	  HSAGPU_VM_REASON_RANGE);
	/*
	 * The walk cache is the layout's: block size 0 puts the cached
	 * region's number on other addresses, which walk from the root.
	 */
	T(hsagpu_vm_translate_layout(&vm, 8, &l, va, HSAGPU_VM_ACCESS_READ,
				     true, rd, NULL, &x, &level) == 0);
	l.block_size = 0;
	reads = 0;
	T(hsagpu_vm_translate_layout(&vm, 8, &l, (va >> 24) << 21, 0, true,
				     rd, NULL, &x, &level) ==
	  HSAGPU_VM_REASON_NOT_PRESENT);
	T(reads == 3 && level == 0);
	l.block_size = 3;
	/* indices cannot count from above the range */
	l.index_base = 1;
	T(hsagpu_vm_translate_layout(&vm, 8, &l, 0xfff, 0, true, rd, NULL, &x,
				     &level) == HSAGPU_VM_REASON_RANGE);
	l.index_base = 0;
	l.root = 0x20000;
	hsagpu_vm_flush(&vm, 1U << 8);
	T(hsagpu_vm_translate_layout(&vm, 8, &l, va, 0, true, rd, NULL, &x,
				     &level) == HSAGPU_VM_REASON_WALK);
	T(level == 2);
}

int main(void)
{
	vram = calloc(1, VRAM_SIZE);
	sys = calloc(1, SYS_SIZE);
	test_levels();
	test_permissions();
	test_large_pages();
	test_system_tables();
	test_context_and_range();
	test_tlb();
	test_walk_cache();
	test_faults();
	test_registers();
	test_layout_flat();
	test_layout_block_size();
	free(vram);
	free(sys);
	return tap_done();
}
