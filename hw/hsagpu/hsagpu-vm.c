/*
 * hsa-gpu: GPU virtual memory in the device (docs/vm.md). The bus
 * resolver (hsagpu-bus.c) asks here for every access of a requester in
 * VMID 1..15; the walker, TLB and registers are QEMU-free in
 * hsagpu-vm.c. This file adds the device around them:
 *  - page tables are read like any other access of the device, with
 *    VMID 0 rules, by the reader the bus resolver passes: a VRAM offset
 *    from this device's VRAM, a bus address as a bus access (peers,
 *    vIOMMU: the second stage);
 *  - faults go to the global and the queue's fault registers and to
 *    ERROR_STATUS (folded in by the BQL holder, as queue errors are);
 *  - register writes hold qlock as well as vm_lock: the processor holds
 *    qlock for a whole pass, so when an invalidation's write returns, no
 *    access that used an older translation is still under way.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/bswap.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "hsagpu.h"
#include "trace.h"

static const char *const hsagpu_vm_reason_name[] = {
    [HSAGPU_VM_REASON_NOT_PRESENT] = "not present",
    [HSAGPU_VM_REASON_PERMISSION] = "permission",
    [HSAGPU_VM_REASON_RANGE] = "outside the VA range",
    [HSAGPU_VM_REASON_BAD_ENTRY] = "bad entry",
    [HSAGPU_VM_REASON_WALK] = "table unreadable",
    [HSAGPU_VM_REASON_CONTEXT] = "VMID not enabled",
};

void hsagpu_vm_init(HsaGpuState *s)
{
    qemu_mutex_init(&s->vm_lock);
    hsagpu_vm_reset(&s->vm, s->params.vram_size);
}

void hsagpu_vm_exit(HsaGpuState *s)
{
    qemu_mutex_destroy(&s->vm_lock);
}

/* Device reset: contexts off, TLBs and faults gone. */
void hsagpu_vm_reset_all(HsaGpuState *s)
{
    qemu_mutex_lock(&s->vm_lock);
    hsagpu_vm_reset(&s->vm, s->params.vram_size);
    qemu_mutex_unlock(&s->vm_lock);
}

static void hsagpu_vm_record(HsaGpuBusCtx *c, uint64_t va, unsigned access,
                             unsigned reason)
{
    HsaGpuState *s = c->s;
    uint32_t info = hsagpu_vm_fault(&s->vm, c->vmid, c->queue, c->client,
                                    access, reason, va);

    /* The queue's own registers: its first fault (qlock held). */
    if (c->queue >= 0 && !s->queues[c->queue].vm_fault_info) {
        s->queues[c->queue].vm_fault_addr = va;
        s->queues[c->queue].vm_fault_info = info;
    }
    qatomic_or(&s->qerr_pending, HSAGPU_ERR_VM_FAULT);
    qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu: VM fault: VMID %u queue %d "
                  "client %u %s at 0x%" PRIx64 ": %s\n", c->vmid, c->queue,
                  c->client, access == HSAGPU_VM_ACCESS_WRITE ? "write" :
                  access == HSAGPU_VM_ACCESS_ATOMIC ? "atomic" : "read", va,
                  reason < ARRAY_SIZE(hsagpu_vm_reason_name) &&
                  hsagpu_vm_reason_name[reason] ?
                  hsagpu_vm_reason_name[reason] : "?");
    trace_hsagpu_vm_fault(c->vmid, c->queue, c->client, access, reason, va);
}

bool hsagpu_vm_xlat(HsaGpuBusCtx *c, uint64_t va, bool is_write,
                    HsaGpuVmReadFn rd, HsaGpuVmXlat *x)
{
    HsaGpuState *s = c->s;
    unsigned access = c->atomic ? HSAGPU_VM_ACCESS_ATOMIC :
                      is_write ? HSAGPU_VM_ACCESS_WRITE :
                      HSAGPU_VM_ACCESS_READ;
    unsigned reason;

    if (s->pers->xlat) {
        return s->pers->xlat(c, va, is_write, rd, x);
    }
    if (c->xlat_vmid == c->vmid) {
        for (unsigned i = 0; i < c->xlat_n; i++) {
            if (va - c->xlat[i].va < c->xlat[i].size &&
                hsagpu_vm_allows(c->xlat[i].flags, access)) {
                *x = c->xlat[i];
                return true;
            }
        }
    } else {
        c->xlat_vmid = c->vmid;
        c->xlat_n = 0;
        c->xlat_next = 0;
    }
    qemu_mutex_lock(&s->vm_lock);
    reason = hsagpu_vm_translate(&s->vm, c->vmid, va, access, true, rd, s,
                                 x);
    /* A probe only looks (the access, if made, records the fault). */
    if (reason && !c->map_probe) {
        hsagpu_vm_record(c, va, access, reason);
    }
    qemu_mutex_unlock(&s->vm_lock);
    if (reason) {
        return false;
    }
    c->xlat[c->xlat_next] = *x;
    c->xlat_next = (c->xlat_next + 1) % HSAGPU_BUS_XLAT_CACHE;
    c->xlat_n = MAX(c->xlat_n, c->xlat_next ? c->xlat_next
                                            : HSAGPU_BUS_XLAT_CACHE);
    trace_hsagpu_vm_xlat(c->vmid, va, x->pa, x->size, x->flags);
    return true;
}

bool hsagpu_vm_mmio(uint32_t offset)
{
    return hsagpu_vm_reg(offset);
}

unsigned hsagpu_vm_mmio_read(HsaGpuState *s, uint32_t offset, unsigned size,
                             uint64_t *val)
{
    uint32_t v;
    unsigned bad;

    *val = 0;
    if (size != 4) {
        return HSAGPU_BAD_REASON_SIZE;
    }
    if (offset & 3) {
        return HSAGPU_BAD_REASON_ALIGN;
    }
    qemu_mutex_lock(&s->vm_lock);
    bad = hsagpu_vm_reg_read(&s->vm, offset, &v);
    qemu_mutex_unlock(&s->vm_lock);
    *val = v;
    return bad;
}

unsigned hsagpu_vm_mmio_write(HsaGpuState *s, uint32_t offset, unsigned size,
                              uint64_t val)
{
    unsigned bad;

    if (size != 4) {
        return HSAGPU_BAD_REASON_SIZE;
    }
    if (offset & 3) {
        return HSAGPU_BAD_REASON_ALIGN;
    }
    hsagpu_qlock(s);
    qemu_mutex_lock(&s->vm_lock);
    bad = hsagpu_vm_reg_write(&s->vm, offset, val);
    qemu_mutex_unlock(&s->vm_lock);
    if (!bad) {
        /*
         * Invalidations and contexts: the processor maps pages anew (its
         * next pass drops every mapping, as after a topology change).
         */
        qatomic_inc(&s->bus_map_gen);
    }
    qemu_mutex_unlock(&s->qlock);
    if (!bad && offset == HSAGPU_REG_VM_INVALIDATE_REQ) {
        trace_hsagpu_vm_invalidate(val, s->vm.inv_addr, s->vm.inv_pages);
    }
    return bad;
}

/* Translations are not migrated: the destination walks again. */
int hsagpu_vm_post_load(HsaGpuState *s)
{
    if (!hsagpu_vm_loaded_ok(&s->vm) ||
        s->regs.atomic_vmid >= HSAGPU_VM_NUM_VMIDS) {
        return -EINVAL;
    }
    s->vm.vram_size = s->params.vram_size;
    hsagpu_vm_flush(&s->vm, HSAGPU_VM_INV_VMIDS_MASK);
    return 0;
}

static const VMStateDescription vmstate_hsagpu_vm_ctx = {
    .name = "hsa-gpu/vm-ctx",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(pt_base, HsaGpuVmCtx),
        VMSTATE_UINT64(start, HsaGpuVmCtx),
        VMSTATE_UINT64(end, HsaGpuVmCtx),
        VMSTATE_UINT32(cntl, HsaGpuVmCtx),
        VMSTATE_END_OF_LIST()
    }
};

static bool hsagpu_vm_needed(void *opaque)
{
    HsaGpuState *s = opaque;
    HsaGpuVm *vm = &s->vm;

    for (unsigned v = 0; v < HSAGPU_VM_NUM_VMIDS; v++) {
        if (vm->ctx[v].cntl || vm->ctx[v].pt_base) {
            return true;
        }
    }
    return vm->fault_status || vm->fault_count || vm->walks ||
           vm->invalidations || vm->inv_pages || vm->inv_addr ||
           s->regs.atomic_vmid;
}

const VMStateDescription vmstate_hsagpu_vm = {
    .name = "hsa-gpu/vm",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_vm_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(vm.ctx, HsaGpuState, HSAGPU_VM_NUM_VMIDS, 1,
                             vmstate_hsagpu_vm_ctx, HsaGpuVmCtx),
        VMSTATE_UINT32(vm.inv_ack, HsaGpuState),
        VMSTATE_UINT64(vm.inv_addr, HsaGpuState),
        VMSTATE_UINT32(vm.inv_pages, HsaGpuState),
        VMSTATE_UINT32(vm.fault_status, HsaGpuState),
        VMSTATE_UINT64(vm.fault_addr, HsaGpuState),
        VMSTATE_UINT32(vm.fault_count, HsaGpuState),
        VMSTATE_UINT32(vm.walks, HsaGpuState),
        VMSTATE_UINT32(vm.tlb_hits, HsaGpuState),
        VMSTATE_UINT32(vm.invalidations, HsaGpuState),
        VMSTATE_UINT32(regs.atomic_vmid, HsaGpuState),
        VMSTATE_END_OF_LIST()
    }
};
