/*
 * hsa-gpu: GPU virtual memory, independent of QEMU: the per-VMID context
 * registers, the page-table walker, the TLB, invalidation and the fault
 * registers (docs/vm.md). hsagpu-vm.c wraps it for the device (locking,
 * reading tables through the bus, migration); the host unit tests
 * (tests/unit/test-vm.c) drive it with tables in plain buffers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_CORE_VM_H
#define HW_HSAGPU_CORE_VM_H

#include "hsagpu-core.h"

/* One VMID's context registers, as the driver wrote them. */
typedef struct HsaGpuVmCtx {
    uint64_t pt_base;           /* PT_BASE_HI:LO, HSAGPU_VM_PT_SYSTEM */
    uint64_t start;             /* first valid page number */
    uint64_t end;               /* last valid page number */
    uint32_t cntl;              /* HSAGPU_VM_CNTL_* */
} HsaGpuVmCtx;

/* A translation: the page (of any size) that holds an address. */
typedef struct HsaGpuVmXlat {
    uint64_t va;                /* first byte of the page */
    uint64_t size;              /* 4 KiB, 2 MiB or 1 GiB */
    uint64_t pa;                /* VRAM offset or bus address of va */
    uint64_t flags;             /* HSAGPU_PTE_SYSTEM, SNOOPED, perms */
} HsaGpuVmXlat;

/*
 * The TLB: per VMID, a few entries of any page size, replaced round
 * robin. Small on purpose: a queue's working set is its ring, indices,
 * signals and the buffers of the packet at hand, and every miss is a
 * walk that counts (HSAGPU_REG_VM_WALKS), so tests can see it.
 */
#define HSAGPU_TLB_ENTRIES      16

/*
 * The page-table walker's cache: the level-0 table of the last 2 MiB
 * region walked, so that the next 4 KiB page there costs one read, not
 * four (streaming through 4 KiB pages walks once per page). Dropped by
 * every invalidation of the VMID, as the TLB is.
 */
typedef struct HsaGpuVmPde {
    uint64_t region;            /* va >> shift (from the layout's base) */
    uint64_t table;             /* the level-0 table */
    unsigned shift;             /* 21 + the layout's block size */
    bool system;
    bool valid;
} HsaGpuVmPde;

typedef struct HsaGpuTlb {
    HsaGpuVmXlat e[HSAGPU_TLB_ENTRIES];
    uint32_t used;              /* bitmap of valid entries */
    uint32_t next;              /* next victim */
    uint32_t last;              /* last hit */
    HsaGpuVmPde pde;
} HsaGpuTlb;

typedef struct HsaGpuVm {
    HsaGpuVmCtx ctx[HSAGPU_VM_NUM_VMIDS];
    HsaGpuTlb tlb[HSAGPU_VM_NUM_VMIDS];
    uint64_t vram_size;         /* local PTEs must point inside */
    /* Invalidation */
    uint32_t inv_ack;
    uint64_t inv_addr;
    uint32_t inv_pages;
    /* Faults */
    uint32_t fault_status;
    uint64_t fault_addr;
    uint32_t fault_count;
    /* Counters */
    uint32_t walks;
    uint32_t tlb_hits;
    uint32_t invalidations;
} HsaGpuVm;

/*
 * Read the 8-byte table entry at @addr: in system memory (a bus address)
 * when @system, else at a VRAM offset. 0, or nonzero when it cannot be
 * read.
 */
typedef int (*HsaGpuVmReadFn)(void *opaque, bool system, uint64_t addr,
                              uint64_t *val);

/*
 * A context's tables as the walker sees them, whatever registers
 * describe them: hsagpu_vm_translate() makes one from an HsaGpuVmCtx
 * (depth 3, block size 0, indices from VA 0, directory addresses 47:12,
 * VRAM offsets as they are); the Vega10 hubs from their VM_CONTEXTn
 * registers (vega10-gmc.c).
 */
typedef struct HsaGpuVmLayout {
    uint64_t root;              /* root table: local address or bus address */
    bool root_system;           /* root is at a bus address */
    unsigned depth;             /* directory levels above the page tables */
                                /* (0..3; 0: the root is one flat table) */
    unsigned block_size;        /* page tables of 2^(9 + block_size) PTEs */
    uint64_t start;             /* first valid page number */
    uint64_t end;               /* last valid page number */
    uint64_t index_base;        /* the page number the root's entry 0 maps */
    uint64_t dir_mask;          /* address bits of a directory entry */
    uint64_t local_base;        /* local (not SYSTEM) addresses in entries */
                                /* and root minus this are VRAM offsets */
    /*
     * A large page (a directory entry with PDE_PTE) at any base: the
     * base plus the offset into it, as gfx9 does with what amdgpu maps
     * (a run of contiguous system pages that starts off a 2 MiB
     * boundary becomes one 2 MiB page). Without it, a base not aligned
     * to the page's size is a bad entry.
     */
    bool large_any_base;
} HsaGpuVmLayout;

/* Power-on state: every context disabled, TLBs and faults empty. */
void hsagpu_vm_reset(HsaGpuVm *vm, uint64_t vram_size);

/*
 * Translate @va in @vmid (1..15) for an access of kind @access
 * (HSAGPU_VM_ACCESS_*): 0 with *@x set, or an HSAGPU_VM_REASON_*. With
 * @use_tlb the TLB is looked up first and filled by a walk; without it
 * the tables are walked and the TLB is not touched (callers that do not
 * hold the lock that guards the TLB).
 */
unsigned hsagpu_vm_translate(HsaGpuVm *vm, unsigned vmid, uint64_t va,
                             unsigned access, bool use_tlb,
                             HsaGpuVmReadFn rd, void *opaque,
                             HsaGpuVmXlat *x);

/*
 * Translate @va in @vmid (0..15) through the tables @l describes, with
 * @vmid's TLB and the counters of @vm as hsagpu_vm_translate() does
 * (whose context checks are the caller's): 0 with *@x set, or
 * HSAGPU_VM_REASON_RANGE, _NOT_PRESENT, _BAD_ENTRY, _WALK or
 * _PERMISSION. On a walk's failure *@level (if not NULL) learns the
 * level of the entry at fault (0: a PTE, @l->depth: the root).
 */
unsigned hsagpu_vm_translate_layout(HsaGpuVm *vm, unsigned vmid,
                                    const HsaGpuVmLayout *l, uint64_t va,
                                    unsigned access, bool use_tlb,
                                    HsaGpuVmReadFn rd, void *opaque,
                                    HsaGpuVmXlat *x, int *level);

/*
 * Does a page with PTE @flags allow an access of kind @access? Inline:
 * the bus resolver asks on every access that hits a cached translation.
 */
static inline bool hsagpu_vm_allows(uint64_t flags, unsigned access)
{
    uint64_t need = access == HSAGPU_VM_ACCESS_READ ? HSAGPU_PTE_READABLE :
                    access == HSAGPU_VM_ACCESS_WRITE ? HSAGPU_PTE_WRITEABLE :
                    access == HSAGPU_VM_ACCESS_ATOMIC ?
                    HSAGPU_PTE_READABLE | HSAGPU_PTE_WRITEABLE :
                    HSAGPU_PTE_EXECUTABLE;

    return (flags & need) == need;
}

/* Drop the TLB entries of the VMIDs in @vmids (bit v: VMID v). */
void hsagpu_vm_flush(HsaGpuVm *vm, uint32_t vmids);
/* Drop those that overlap @pages pages at @va (0 pages: all of them). */
void hsagpu_vm_flush_range(HsaGpuVm *vm, uint32_t vmids, uint64_t va,
                           uint32_t pages);

/*
 * Record a fault: latch it in FAULT_STATUS/ADDR unless one is latched
 * already (then MORE), count it. @queue is -1 when no queue made the
 * access. Returns the FAULT_INFO word for the queue's own registers.
 */
uint32_t hsagpu_vm_fault(HsaGpuVm *vm, unsigned vmid, int queue,
                         unsigned client, unsigned access, unsigned reason,
                         uint64_t va);

/* The global VM registers (INVALIDATE_*, FAULT_*, counters, contexts). */
bool hsagpu_vm_reg(uint32_t offset);
unsigned hsagpu_vm_reg_read(HsaGpuVm *vm, uint32_t offset, uint32_t *val);
unsigned hsagpu_vm_reg_write(HsaGpuVm *vm, uint32_t offset, uint32_t val);

/* Could the device have these context registers (migration)? */
bool hsagpu_vm_loaded_ok(const HsaGpuVm *vm);

#endif
