/*
 * hsa-gpu: GPU virtual memory without QEMU: the page-table walker, the
 * TLB, invalidation, fault registers and the VM register block. The
 * format is in include/hsagpu/hsagpu_regs.h, the model in docs/vm.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-vm.h"

#define VM_PAGE         (1ULL << HSAGPU_VM_PAGE_SHIFT)
#define VM_VA_LIMIT     (1ULL << HSAGPU_VM_VA_BITS)

void hsagpu_vm_reset(HsaGpuVm *vm, uint64_t vram_size)
{
    memset(vm, 0, sizeof(*vm));
    vm->vram_size = vram_size;
    /* Nothing was requested: nothing is outstanding. */
    vm->inv_ack = HSAGPU_VM_INV_VMIDS_MASK;
}

/*
 * The tables are read the way the driver wrote them. A directory entry
 * names the next table (a local address, or a bus address with SYSTEM);
 * below the root it may be a leaf (PDE_PTE): a page as large as the
 * entry maps (hsa-gpu: 1 GiB or 2 MiB).
 *
 * Level 0 is the page tables, of 2^(9 + block_size) entries; levels 1
 * up to the depth are directories of 512 entries, except the root,
 * whose size is the range's (hsa-gpu's 512 entries cover 2^48 bytes).
 */
static unsigned hsagpu_vm_level_shift(const HsaGpuVmLayout *l, int level)
{
    return level ? HSAGPU_VM_PAGE_SHIFT + HSAGPU_VM_LEVEL_BITS * level +
                   l->block_size
                 : HSAGPU_VM_PAGE_SHIFT;
}

/*
 * Walk @rel (the address from the layout's index base) from the table
 * of @level on: 0 with *@x set, or an HSAGPU_VM_REASON_*, *@where the
 * level at fault; no permission or range check. @pde (optional) learns
 * the level-0 table.
 */
static unsigned hsagpu_vm_walk_from(const HsaGpuVmLayout *l, int level,
                                    uint64_t table, bool system,
                                    uint64_t vram_size, uint64_t rel,
                                    HsaGpuVmReadFn rd, void *opaque,
                                    HsaGpuVmXlat *x, HsaGpuVmPde *pde,
                                    int *where)
{
    for (; level >= 0; level--) {
        unsigned shift = hsagpu_vm_level_shift(l, level);
        uint64_t e, size = 1ULL << shift;
        uint64_t idx = rel >> shift, addr;
        bool leaf = level == 0;

        *where = level;
        if (level < (int)l->depth) {
            idx &= level ? (1ULL << HSAGPU_VM_LEVEL_BITS) - 1
                         : (1ULL << (HSAGPU_VM_LEVEL_BITS +
                                     l->block_size)) - 1;
        }
        addr = table + 8 * idx;
        if (level == 0 && pde) {
            *pde = (HsaGpuVmPde) {
                .region = rel >> hsagpu_vm_level_shift(l, 1),
                .shift = hsagpu_vm_level_shift(l, 1),
                .table = table, .system = system, .valid = true,
            };
        }
        if (!system) {
            /* A local table must lie inside VRAM. */
            if (addr < l->local_base) {
                return HSAGPU_VM_REASON_WALK;
            }
            addr -= l->local_base;
            if (addr + 8 > vram_size) {
                return HSAGPU_VM_REASON_WALK;
            }
        }
        if (rd(opaque, system, addr, &e)) {
            return HSAGPU_VM_REASON_WALK;
        }
        if (!(e & HSAGPU_PTE_VALID)) {
            return HSAGPU_VM_REASON_NOT_PRESENT;
        }
        if (level > 0 && (e & HSAGPU_PDE_PTE)) {
            /* Large pages exist below the root only. */
            if (level == (int)l->depth) {
                return HSAGPU_VM_REASON_BAD_ENTRY;
            }
            leaf = true;
        }
        if (leaf) {
            uint64_t pa = e & HSAGPU_PTE_ADDR_MASK;

            if ((pa & (size - 1)) && !(level > 0 && l->large_any_base)) {
                return HSAGPU_VM_REASON_BAD_ENTRY;
            }
            if (!(e & HSAGPU_PTE_SYSTEM)) {
                /* inside VRAM (one below its base wraps far past it) */
                pa -= l->local_base;
                if (pa >= vram_size || size > vram_size - pa) {
                    return HSAGPU_VM_REASON_BAD_ENTRY;
                }
            }
            x->va = (rel & ~(size - 1)) +
                    (l->index_base << HSAGPU_VM_PAGE_SHIFT);
            x->size = size;
            x->pa = pa;
            x->flags = e & (HSAGPU_PTE_SYSTEM | HSAGPU_PTE_SNOOPED |
                            HSAGPU_PTE_PERMS);
            return 0;
        }
        table = e & l->dir_mask;
        system = e & HSAGPU_PTE_SYSTEM;
    }
    return HSAGPU_VM_REASON_BAD_ENTRY;  /* not reached */
}


static bool hsagpu_tlb_hit(const HsaGpuVmXlat *e, uint64_t va)
{
    return va - e->va < e->size;
}

static bool hsagpu_tlb_lookup(HsaGpuTlb *t, uint64_t va, HsaGpuVmXlat *x)
{
    unsigned i;

    if ((t->used >> t->last & 1) && hsagpu_tlb_hit(&t->e[t->last], va)) {
        *x = t->e[t->last];
        return true;
    }
    for (i = 0; i < HSAGPU_TLB_ENTRIES; i++) {
        if ((t->used >> i & 1) && hsagpu_tlb_hit(&t->e[i], va)) {
            t->last = i;
            *x = t->e[i];
            return true;
        }
    }
    return false;
}

static void hsagpu_tlb_insert(HsaGpuTlb *t, const HsaGpuVmXlat *x)
{
    unsigned i = t->next;

    t->e[i] = *x;
    t->used |= 1U << i;
    t->last = i;
    t->next = (i + 1) % HSAGPU_TLB_ENTRIES;
}

unsigned hsagpu_vm_translate_layout(HsaGpuVm *vm, unsigned vmid,
                                    const HsaGpuVmLayout *l, uint64_t va,
                                    unsigned access, bool use_tlb,
                                    HsaGpuVmReadFn rd, void *opaque,
                                    HsaGpuVmXlat *x, int *level)
{
    uint64_t page = va >> HSAGPU_VM_PAGE_SHIFT;
    unsigned reason;

    if (vmid >= HSAGPU_VM_NUM_VMIDS) {
        return HSAGPU_VM_REASON_CONTEXT;
    }
    if (va >= VM_VA_LIMIT || page < l->start || page > l->end ||
        page < l->index_base) {
        return HSAGPU_VM_REASON_RANGE;
    }
    if (use_tlb && hsagpu_tlb_lookup(&vm->tlb[vmid], va, x)) {
        vm->tlb_hits++;
    } else {
        HsaGpuVmPde *pde = use_tlb ? &vm->tlb[vmid].pde : NULL;
        uint64_t rel = va - (l->index_base << HSAGPU_VM_PAGE_SHIFT);
        unsigned s1 = hsagpu_vm_level_shift(l, 1);
        int where = 0;

        vm->walks++;
        if (pde && pde->valid && l->depth && pde->shift == s1 &&
            pde->region == rel >> s1) {
            reason = hsagpu_vm_walk_from(l, 0, pde->table, pde->system,
                                         vm->vram_size, rel, rd, opaque, x,
                                         NULL, &where);
        } else {
            reason = hsagpu_vm_walk_from(l, l->depth, l->root,
                                         l->root_system, vm->vram_size, rel,
                                         rd, opaque, x, pde, &where);
        }
        if (reason) {
            if (level) {
                *level = where;
            }
            return reason;
        }
        if (use_tlb) {
            hsagpu_tlb_insert(&vm->tlb[vmid], x);
        }
    }
    return hsagpu_vm_allows(x->flags, access) ? 0
                                              : HSAGPU_VM_REASON_PERMISSION;
}

unsigned hsagpu_vm_translate(HsaGpuVm *vm, unsigned vmid, uint64_t va,
                             unsigned access, bool use_tlb,
                             HsaGpuVmReadFn rd, void *opaque,
                             HsaGpuVmXlat *x)
{
    const HsaGpuVmCtx *ctx;
    HsaGpuVmLayout l;

    if (vmid == 0 || vmid >= HSAGPU_VM_NUM_VMIDS) {
        return HSAGPU_VM_REASON_CONTEXT;
    }
    ctx = &vm->ctx[vmid];
    if (!(ctx->cntl & HSAGPU_VM_CNTL_ENABLE)) {
        return HSAGPU_VM_REASON_CONTEXT;
    }
    /* hsa-gpu's fixed format: four levels of 512 entries from VA 0 */
    l = (HsaGpuVmLayout) {
        .root = ctx->pt_base & HSAGPU_PTE_ADDR_MASK,
        .root_system = ctx->pt_base & HSAGPU_VM_PT_SYSTEM,
        .depth = HSAGPU_VM_LEVELS - 1,
        .start = ctx->start, .end = ctx->end,
        .dir_mask = HSAGPU_PTE_ADDR_MASK,
    };
    return hsagpu_vm_translate_layout(vm, vmid, &l, va, access, use_tlb, rd,
                                      opaque, x, NULL);
}


void hsagpu_vm_flush(HsaGpuVm *vm, uint32_t vmids)
{
    unsigned v;

    for (v = 0; v < HSAGPU_VM_NUM_VMIDS; v++) {
        if (vmids >> v & 1) {
            vm->tlb[v].used = 0;
            vm->tlb[v].pde.valid = false;
        }
    }
}

void hsagpu_vm_flush_range(HsaGpuVm *vm, uint32_t vmids, uint64_t va,
                           uint32_t pages)
{
    uint64_t len = (uint64_t)pages << HSAGPU_VM_PAGE_SHIFT;
    unsigned v, i;

    if (!pages) {
        hsagpu_vm_flush(vm, vmids);
        return;
    }
    for (v = 0; v < HSAGPU_VM_NUM_VMIDS; v++) {
        HsaGpuTlb *t = &vm->tlb[v];

        if (!(vmids >> v & 1)) {
            continue;
        }
        /* Any unmapping may free a table: the walk cache goes too. */
        t->pde.valid = false;
        for (i = 0; i < HSAGPU_TLB_ENTRIES; i++) {
            const HsaGpuVmXlat *e = &t->e[i];

            /* [e->va, +size) and [va, +len) overlap (no wrap: < 2^48). */
            if ((t->used >> i & 1) && e->va < va + len &&
                va < e->va + e->size) {
                t->used &= ~(1U << i);
            }
        }
    }
}

uint32_t hsagpu_vm_fault(HsaGpuVm *vm, unsigned vmid, int queue,
                         unsigned client, unsigned access, unsigned reason,
                         uint64_t va)
{
    uint32_t q = queue < 0 ? HSAGPU_VM_FAULT_QUEUE_NONE : (uint32_t)queue;
    uint32_t info = HSAGPU_VM_FAULT_VALID |
        (vmid << HSAGPU_VM_FAULT_VMID_SHIFT & HSAGPU_VM_FAULT_VMID_MASK) |
        (client << HSAGPU_VM_FAULT_CLIENT_SHIFT &
         HSAGPU_VM_FAULT_CLIENT_MASK) |
        (access << HSAGPU_VM_FAULT_ACCESS_SHIFT &
         HSAGPU_VM_FAULT_ACCESS_MASK) |
        (reason << HSAGPU_VM_FAULT_REASON_SHIFT &
         HSAGPU_VM_FAULT_REASON_MASK) |
        (q << HSAGPU_VM_FAULT_QUEUE_SHIFT & HSAGPU_VM_FAULT_QUEUE_MASK);

    vm->fault_count++;
    if (vm->fault_status & HSAGPU_VM_FAULT_VALID) {
        vm->fault_status |= HSAGPU_VM_FAULT_MORE;
    } else {
        vm->fault_status = info;
        vm->fault_addr = va;
    }
    return info;
}

bool hsagpu_vm_reg(uint32_t offset)
{
    return (offset >= HSAGPU_REG_VM_INVALIDATE_REQ &&
            offset <= HSAGPU_REG_VM_INVALIDATIONS) ||
           (offset >= HSAGPU_REG_VM_CTX(0) &&
            offset < HSAGPU_REG_VM_CTX(HSAGPU_VM_NUM_VMIDS));
}

static void hsagpu_set_lo(uint64_t *r, uint32_t val)
{
    *r = (*r & ~0xffffffffULL) | val;
}

static void hsagpu_set_hi(uint64_t *r, uint32_t val)
{
    *r = (*r & 0xffffffffULL) | (uint64_t)val << 32;
}

static unsigned hsagpu_vm_ctx_read(const HsaGpuVmCtx *c, uint32_t reg,
                                   uint32_t *val)
{
    switch (reg) {
    case HSAGPU_VM_CTX_PT_BASE_LO:
        *val = c->pt_base;
        return 0;
    case HSAGPU_VM_CTX_PT_BASE_HI:
        *val = c->pt_base >> 32;
        return 0;
    case HSAGPU_VM_CTX_START_LO:
        *val = c->start;
        return 0;
    case HSAGPU_VM_CTX_START_HI:
        *val = c->start >> 32;
        return 0;
    case HSAGPU_VM_CTX_END_LO:
        *val = c->end;
        return 0;
    case HSAGPU_VM_CTX_END_HI:
        *val = c->end >> 32;
        return 0;
    case HSAGPU_VM_CTX_CNTL:
        *val = c->cntl;
        return 0;
    default:
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
}

static unsigned hsagpu_vm_ctx_write(HsaGpuVmCtx *c, uint32_t reg,
                                    uint32_t val)
{
    switch (reg) {
    case HSAGPU_VM_CTX_PT_BASE_LO:
        /* 4 KiB aligned table; bit 0 says where it is. */
        hsagpu_set_lo(&c->pt_base, val & (0xfffff000U | HSAGPU_VM_PT_SYSTEM));
        return 0;
    case HSAGPU_VM_CTX_PT_BASE_HI:
        hsagpu_set_hi(&c->pt_base, val & 0xffffU);
        return 0;
    case HSAGPU_VM_CTX_START_LO:
        hsagpu_set_lo(&c->start, val);
        return 0;
    case HSAGPU_VM_CTX_START_HI:
        hsagpu_set_hi(&c->start, val & 0xfU);   /* 36-bit page numbers */
        return 0;
    case HSAGPU_VM_CTX_END_LO:
        hsagpu_set_lo(&c->end, val);
        return 0;
    case HSAGPU_VM_CTX_END_HI:
        hsagpu_set_hi(&c->end, val & 0xfU);
        return 0;
    case HSAGPU_VM_CTX_CNTL:
        c->cntl = val & HSAGPU_VM_CNTL_ALL;
        return 0;
    default:
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
}

unsigned hsagpu_vm_reg_read(HsaGpuVm *vm, uint32_t offset, uint32_t *val)
{
    *val = 0;
    if (offset >= HSAGPU_REG_VM_CTX(0)) {
        unsigned v = (offset - HSAGPU_REG_VM_CTX(0)) / 0x20;

        return hsagpu_vm_ctx_read(&vm->ctx[v], offset % 0x20, val);
    }
    switch (offset) {
    case HSAGPU_REG_VM_INVALIDATE_REQ:
        return 0;
    case HSAGPU_REG_VM_INVALIDATE_ACK:
        *val = vm->inv_ack;
        return 0;
    case HSAGPU_REG_VM_INVALIDATE_ADDR_LO:
        *val = vm->inv_addr;
        return 0;
    case HSAGPU_REG_VM_INVALIDATE_ADDR_HI:
        *val = vm->inv_addr >> 32;
        return 0;
    case HSAGPU_REG_VM_INVALIDATE_PAGES:
        *val = vm->inv_pages;
        return 0;
    case HSAGPU_REG_VM_FAULT_STATUS:
        *val = vm->fault_status;
        return 0;
    case HSAGPU_REG_VM_FAULT_ADDR_LO:
        *val = vm->fault_addr;
        return 0;
    case HSAGPU_REG_VM_FAULT_ADDR_HI:
        *val = vm->fault_addr >> 32;
        return 0;
    case HSAGPU_REG_VM_FAULT_COUNT:
        *val = vm->fault_count;
        return 0;
    case HSAGPU_REG_VM_WALKS:
        *val = vm->walks;
        return 0;
    case HSAGPU_REG_VM_TLB_HITS:
        *val = vm->tlb_hits;
        return 0;
    case HSAGPU_REG_VM_INVALIDATIONS:
        *val = vm->invalidations;
        return 0;
    default:
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
}

/*
 * The caller holds whatever keeps the processor out (the TLB is its),
 * so an invalidation is complete when the write returns: the ACK bits
 * are set at once. Drivers still poll them, as on real hardware.
 */
unsigned hsagpu_vm_reg_write(HsaGpuVm *vm, uint32_t offset, uint32_t val)
{
    uint32_t vmids;

    if (offset >= HSAGPU_REG_VM_CTX(0)) {
        unsigned v = (offset - HSAGPU_REG_VM_CTX(0)) / 0x20;
        unsigned bad;

        if (v == 0) {
            /* VMID 0 is not translated: nothing to set. */
            uint32_t dummy;

            return hsagpu_vm_ctx_read(&vm->ctx[0], offset % 0x20, &dummy);
        }
        bad = hsagpu_vm_ctx_write(&vm->ctx[v], offset % 0x20, val);
        if (!bad) {
            hsagpu_vm_flush(vm, 1U << v);
        }
        return bad;
    }
    switch (offset) {
    case HSAGPU_REG_VM_INVALIDATE_REQ:
        vmids = val & HSAGPU_VM_INV_VMIDS_MASK;
        vm->inv_ack &= ~vmids;
        if (val & HSAGPU_VM_INV_RANGE) {
            hsagpu_vm_flush_range(vm, vmids, vm->inv_addr, vm->inv_pages);
        } else {
            hsagpu_vm_flush(vm, vmids);
        }
        vm->invalidations++;
        vm->inv_ack |= vmids;
        return 0;
    case HSAGPU_REG_VM_INVALIDATE_ADDR_LO:
        hsagpu_set_lo(&vm->inv_addr, val & ~(uint32_t)(VM_PAGE - 1));
        return 0;
    case HSAGPU_REG_VM_INVALIDATE_ADDR_HI:
        hsagpu_set_hi(&vm->inv_addr, val & 0xffffU);
        return 0;
    case HSAGPU_REG_VM_INVALIDATE_PAGES:
        vm->inv_pages = val;
        return 0;
    case HSAGPU_REG_VM_FAULT_STATUS:
        if (val & HSAGPU_VM_FAULT_VALID) {
            vm->fault_status = 0;
            vm->fault_addr = 0;
        }
        return 0;
    case HSAGPU_REG_VM_INVALIDATE_ACK:
    case HSAGPU_REG_VM_FAULT_ADDR_LO:
    case HSAGPU_REG_VM_FAULT_ADDR_HI:
    case HSAGPU_REG_VM_FAULT_COUNT:
    case HSAGPU_REG_VM_WALKS:
    case HSAGPU_REG_VM_TLB_HITS:
    case HSAGPU_REG_VM_INVALIDATIONS:
        return HSAGPU_BAD_REASON_READONLY;
    default:
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
}

bool hsagpu_vm_loaded_ok(const HsaGpuVm *vm)
{
    unsigned v;

    if (vm->fault_status & ~(HSAGPU_VM_FAULT_VALID | HSAGPU_VM_FAULT_MORE |
                             HSAGPU_VM_FAULT_VMID_MASK |
                             HSAGPU_VM_FAULT_CLIENT_MASK |
                             HSAGPU_VM_FAULT_ACCESS_MASK |
                             HSAGPU_VM_FAULT_REASON_MASK |
                             HSAGPU_VM_FAULT_QUEUE_MASK)) {
        return false;
    }
    for (v = 0; v < HSAGPU_VM_NUM_VMIDS; v++) {
        const HsaGpuVmCtx *c = &vm->ctx[v];

        if ((c->pt_base & ~(HSAGPU_PTE_ADDR_MASK | HSAGPU_VM_PT_SYSTEM)) ||
            (c->cntl & ~HSAGPU_VM_CNTL_ALL) ||
            c->start >> 36 || c->end >> 36 ||
            (v == 0 && (c->pt_base || c->start || c->end || c->cntl))) {
            return false;
        }
    }
    return true;
}
