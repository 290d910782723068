/*
 * hsa-gpu: device status, error reporting and the error interrupt.
 *
 * The low-level services every other part reports through: STATUS as
 * computed from config space, bad BAR accesses, queue failures folded
 * into ERROR_STATUS, and MSI-X vector 0. Nothing here calls back into
 * the BAR front ends, the queues or the AtomicOp engine.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "hw/pci/msix.h"
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hsagpu.h"
#include "trace.h"

static const char *const hsagpu_bad_reason[] = {
    [HSAGPU_BAD_REASON_UNMAPPED] = "no register at this offset",
    [HSAGPU_BAD_REASON_SIZE] = "access size must be 4 or 8 bytes",
    [HSAGPU_BAD_REASON_ALIGN] = "access is not naturally aligned",
    [HSAGPU_BAD_REASON_READONLY] = "register is read-only",
    [HSAGPU_BAD_REASON_VALUE] = "value out of the register's range",
};

/* Queue error names, from the list shared with the driver and docs. */
static const char *const hsagpu_qerr_name[] = {
    HSAGPU_QERR_LIST(HSAGPU_QERR_NAME_INIT)
};
QEMU_BUILD_BUG_ON((0 HSAGPU_QERR_LIST(HSAGPU_QERR_COUNT_ONE)) !=
                  HSAGPU_QERR_COUNT);
QEMU_BUILD_BUG_ON(ARRAY_SIZE(hsagpu_qerr_name) != HSAGPU_QERR_COUNT);

uint32_t hsagpu_status(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint32_t st = HSAGPU_STATUS_READY;
    uint16_t devctl2 = 0;

    if (pci_is_express(pdev) && pdev->exp.exp_cap) {
        devctl2 = pci_get_word(pdev->config + pdev->exp.exp_cap +
                               PCI_EXP_DEVCTL2);
    }
    if (devctl2 & PCI_EXP_DEVCTL2_ATOMIC_REQ) {
        st |= HSAGPU_STATUS_ATOMIC_REQ_EN;
    }
    if (pci_get_word(pdev->config + PCI_COMMAND) & PCI_COMMAND_MASTER) {
        st |= HSAGPU_STATUS_BUS_MASTER;
    }
    return st;
}

void hsagpu_irq_msix(HsaGpuState *s, unsigned vector)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    assert(bql_locked());
    /*
     * An earlier message of the same batch may have unplugged the device:
     * its config space and MSI-X table are gone.
     */
    if (!qdev_is_realized(DEVICE(s))) {
        return;
    }
    trace_hsagpu_irq_msix(vector, msix_enabled(pdev) || msi_enabled(pdev));
    /* MSI (the Vega10 personality): its one vector */
    if (!msix_enabled(pdev) && !(msi_enabled(pdev) && vector == 0)) {
        return;
    }
    /*
     * A stopped VM gets no message (its RAM or interrupt controller may
     * be saved already): it waits with what the processor left, which
     * migrates, and goes out when the VM runs (review of dev, finding 5).
     */
    if (!s->vm_running) {
        hsagpu_qlock(s);
        hsagpu_deferred_raise(&s->pending, vector);
        qemu_mutex_unlock(&s->qlock);
        return;
    }
    /* Fault injection may lose the message or deliver it late. */
    if (hsagpu_fault_msix(s, vector)) {
        return;
    }
    if (msix_enabled(pdev)) {
        msix_notify(pdev, vector);
    } else {
        msi_notify(pdev, vector);
    }
}

void hsagpu_error_irq(HsaGpuState *s)
{
    trace_hsagpu_error_irq(s->regs.error_status);
    hsagpu_irq_msix(s, HSAGPU_MSIX_VEC_ERROR);
}

/* Record a bad access: guest error log, trace, error registers. */
void hsagpu_bad_access(HsaGpuState *s, unsigned bar, uint64_t offset,
                       unsigned size, bool is_write, unsigned reason)
{
    qemu_log_mask(LOG_GUEST_ERROR,
                  "hsa-gpu: bad %u-byte %s at BAR%u offset 0x%" PRIx64
                  ": %s\n", size, is_write ? "write" : "read", bar, offset,
                  hsagpu_bad_reason[reason]);
    trace_hsagpu_bad_access(bar, offset, size, is_write, reason);
    if (hsagpu_regs_note_bad(&s->regs, bar, offset, size, is_write, reason)) {
        hsagpu_error_irq(s);
    }
}

/*
 * A queue entered the error state (processor thread, qlock held): log it
 * and leave ERROR_STATUS to whoever holds the BQL first.
 */
void hsagpu_queue_failed(HsaGpuState *s, unsigned qi, const HsaGpuQueue *q)
{
    qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu: queue %u error %u (%s) at "
                  "dispatch id %" PRIu64 "\n", qi, q->error,
                  q->error < HSAGPU_QERR_COUNT ? hsagpu_qerr_name[q->error]
                                               : "?", q->error_id);
    if (q->error == HSAGPU_QERR_ILLEGAL_INSTRUCTION ||
        q->error == HSAGPU_QERR_TRAP) {
        /* disassemble with llvm-mc -arch=amdgcn -mcpu=gfx900 --disassemble */
        qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu: queue %u: kernel object "
                      "0x%" PRIx64 ": %s, instruction 0x%08x at 0x%" PRIx64
                      "\n", qi, q->gcn_kernel,
                      q->gcn_what ? q->gcn_what : "?", q->vm_fault_info,
                      q->vm_fault_addr);
        trace_hsagpu_gcn_error(qi, q->gcn_kernel, q->vm_fault_info,
                               q->vm_fault_addr);
    }
    if ((q->error == HSAGPU_QERR_ADDRESS || q->error == HSAGPU_QERR_ATOMIC ||
         q->error == HSAGPU_QERR_VM_FAULT) && q->gcn_pc) {
        qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu: queue %u: kernel object "
                      "0x%" PRIx64 ": %s: address 0x%" PRIx64 " refused, "
                      "instruction at 0x%" PRIx64 "\n", qi, q->gcn_kernel,
                      q->gcn_what ? q->gcn_what : "memory access",
                      q->gcn_addr, q->gcn_pc);
        trace_hsagpu_gcn_mem_fault(qi, q->gcn_kernel, q->gcn_addr, q->gcn_pc);
    }
    trace_hsagpu_queue_error(qi, q->error, q->error_id);
    qatomic_inc(&s->regs.pkt_cnt[HSAGPU_PKT_CNT_ERRORS]);
    qatomic_or(&s->qerr_pending, HSAGPU_ERR_QUEUE);
}

/* Called with the BQL held. */
bool hsagpu_queue_fold_errors(HsaGpuState *s)
{
    unsigned bits = qatomic_xchg(&s->qerr_pending, 0);
    bool irq = false;

    if (bits & HSAGPU_ERR_QUEUE) {
        irq |= hsagpu_regs_raise_error(&s->regs, HSAGPU_ERR_QUEUE);
    }
    if (bits & HSAGPU_ERR_VM_FAULT) {
        irq |= hsagpu_regs_raise_error(&s->regs, HSAGPU_ERR_VM_FAULT);
    }
    return irq;
}

bool hsagpu_queue_fold_errors_later(HsaGpuState *s)
{
    if (!hsagpu_queue_fold_errors(s)) {
        return false;
    }
    qatomic_set(&s->error_irq_due, 1);
    return true;
}

void hsagpu_queue_flush_errors(HsaGpuState *s)
{
    bool due = hsagpu_queue_fold_errors(s);

    if (qatomic_xchg(&s->error_irq_due, 0) || due) {
        hsagpu_error_irq(s);
    }
}
