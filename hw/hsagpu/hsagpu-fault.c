/*
 * hsa-gpu: fault injection on demand.
 *
 * QOM properties of the device, set at run time with QMP qom-set and read
 * back with qom-get (the count still to inject), make the next accesses
 * fail the way a PCIe fabric or the device itself fails:
 *
 *   inject-atomic-ur/-ca     AtomicOps complete with UR / CA
 *   inject-dma-ur/-ca        bus-master data reads complete with UR / CA
 *   inject-dma-poison        bus-master data reads return poisoned data
 *   inject-msix-drop         MSI-X messages are lost
 *   inject-msix-delay(-ms)   MSI-X messages arrive late (virtual time)
 *   inject-queue-hang        a queue stops making progress
 *   inject-fatal             fatal internal error
 *
 * What the guest then sees follows the PCIe rules for a requester: a
 * completion with UR or CA sets Received Master Abort or Received Target
 * Abort in the PCI Status register; poisoned data sets Detected Parity
 * Error (and Master Data Parity Error when Parity Error Response is on)
 * and is logged in AER as Poisoned TLP Received (non-fatal by default
 * severity); the fatal error is logged as Uncorrectable Internal Error
 * (fatal by default severity). docs/reliability.md has the table.
 *
 * The hooks run in whichever thread makes the access (the queue
 * processor runs without the BQL): counts are taken with atomics and PCI
 * status and AER reports wait for a bottom half when the BQL is not held.
 * Injections are device state of the moment: not migrated, and cleared
 * by every reset, FLR included (except inject-msix-delay-ms, a setting).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/msix.h"
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hw/pci/pcie_aer.h"
#include "hsagpu.h"
#include "trace.h"

/* Reports waiting for the BQL (HsaGpuFault.pending) */
#define HSAGPU_FAULT_PEND_UR        (1U << 0)
#define HSAGPU_FAULT_PEND_CA        (1U << 1)
#define HSAGPU_FAULT_PEND_POISON    (1U << 2)

#define HSAGPU_FAULT_DELAY_MS_DEFAULT 100

/* Take one from an armed count: true when this access is hit. */
static bool hsagpu_fault_take(uint32_t *count)
{
    uint32_t n = qatomic_read(count);

    while (n) {
        uint32_t old = qatomic_cmpxchg(count, n, n - 1);

        if (old == n) {
            return true;
        }
        n = old;
    }
    return false;
}

/* BQL held: what a requester records for the completions it received. */
static void hsagpu_fault_report(HsaGpuState *s, uint32_t what)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint16_t status = 0;

    if (what & HSAGPU_FAULT_PEND_UR) {
        status |= PCI_STATUS_REC_MASTER_ABORT;
    }
    if (what & HSAGPU_FAULT_PEND_CA) {
        status |= PCI_STATUS_REC_TARGET_ABORT;
    }
    if (what & HSAGPU_FAULT_PEND_POISON) {
        status |= PCI_STATUS_DETECTED_PARITY;
        if (pci_get_word(pdev->config + PCI_COMMAND) & PCI_COMMAND_PARITY) {
            status |= PCI_STATUS_PARITY;
        }
    }
    pci_word_test_and_set_mask(pdev->config + PCI_STATUS, status);
    if ((what & HSAGPU_FAULT_PEND_POISON) && pdev->exp.aer_cap) {
        PCIEAERErr err = {
            .status = PCI_ERR_UNC_POISON_TLP,
            .source_id = pci_requester_id(pdev),
        };

        pcie_aer_inject_error(pdev, &err);
    }
}

static void hsagpu_fault_bh(void *opaque)
{
    HsaGpuState *s = opaque;

    hsagpu_fault_report(s, qatomic_xchg(&s->fault.pending, 0));
}

/* Report now if the BQL is held, else from the bottom half. */
static void hsagpu_fault_note(HsaGpuState *s, uint32_t what)
{
    if (bql_locked()) {
        hsagpu_fault_report(s, what);
        return;
    }
    qatomic_or(&s->fault.pending, what);
    qemu_bh_schedule(s->fault.bh);
}

unsigned hsagpu_fault_atomic(HsaGpuState *s, uint64_t addr)
{
    /*
     * The AtomicOp engine reports UR and CA itself (ERROR_STATUS, AER,
     * Received Master/Target Abort): an injected one is reported the
     * same way as a real refusal.
     */
    if (hsagpu_fault_take(&s->fault.atomic_ur)) {
        trace_hsagpu_fault_hit("atomic-ur", addr);
        return HSAGPU_ATOMIC_ST_UR;
    }
    if (hsagpu_fault_take(&s->fault.atomic_ca)) {
        trace_hsagpu_fault_hit("atomic-ca", addr);
        return HSAGPU_ATOMIC_ST_CA;
    }
    return 0;
}

HsaGpuReadFault hsagpu_fault_read(HsaGpuState *s, uint64_t addr)
{
    if (hsagpu_fault_take(&s->fault.dma_ur)) {
        trace_hsagpu_fault_hit("dma-ur", addr);
        hsagpu_fault_note(s, HSAGPU_FAULT_PEND_UR);
        return HSAGPU_READ_UR;
    }
    if (hsagpu_fault_take(&s->fault.dma_ca)) {
        trace_hsagpu_fault_hit("dma-ca", addr);
        hsagpu_fault_note(s, HSAGPU_FAULT_PEND_CA);
        return HSAGPU_READ_CA;
    }
    if (hsagpu_fault_take(&s->fault.dma_poison)) {
        trace_hsagpu_fault_hit("dma-poison", addr);
        hsagpu_fault_note(s, HSAGPU_FAULT_PEND_POISON);
        return HSAGPU_READ_POISON;
    }
    return HSAGPU_READ_OK;
}

void hsagpu_fault_poison_data(void *buf, uint64_t len)
{
    uint8_t *p = buf;

    /* Every byte changes, so no consumer can mistake it for the data. */
    for (uint64_t i = 0; i < len; i++) {
        p[i] = ~p[i];
    }
}

/* ------------------------------------------------------------------ */
/* MSI-X                                                               */
/* ------------------------------------------------------------------ */

static void hsagpu_fault_msix_timer(void *opaque)
{
    HsaGpuState *s = opaque;
    PCIDevice *pdev = PCI_DEVICE(s);
    int64_t now = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL), next = INT64_MAX;
    uint32_t gen = s->gen;

    for (unsigned v = 0; v < s->ident.msix_vectors; v++) {
        int64_t due = s->fault.msix_due[v];

        if (!due) {
            continue;
        }
        if (due > now) {
            next = MIN(next, due);
            continue;
        }
        s->fault.msix_due[v] = 0;
        trace_hsagpu_fault_msix_late(v);
        /* Not hsagpu_irq_msix(): this message was injected already. */
        if (msix_enabled(pdev)) {
            msix_notify(pdev, v);
        } else if (msi_enabled(pdev) && v == 0) {
            msi_notify(pdev, v);
        }
        /* It reset the device (timer re-armed by nobody) or unplugged it. */
        if (s->gen != gen) {
            return;
        }
    }
    if (next != INT64_MAX) {
        timer_mod(s->fault.msix_timer, next);
    }
}

bool hsagpu_fault_msix(HsaGpuState *s, unsigned vector)
{
    int64_t due;

    if (hsagpu_fault_take(&s->fault.msix_drop)) {
        trace_hsagpu_fault_hit("msix-drop", vector);
        return true;
    }
    if (!hsagpu_fault_take(&s->fault.msix_delay)) {
        return false;
    }
    trace_hsagpu_fault_hit("msix-delay", vector);
    due = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + s->fault.msix_delay_ms;
    /* One message per vector is outstanding, like a PBA bit. */
    if (!s->fault.msix_due[vector] || due < s->fault.msix_due[vector]) {
        s->fault.msix_due[vector] = MAX(due, 1);
    }
    if (!timer_pending(s->fault.msix_timer) ||
        timer_expire_time_ns(s->fault.msix_timer) > due * SCALE_MS) {
        timer_mod(s->fault.msix_timer, due);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Fatal internal error                                                */
/* ------------------------------------------------------------------ */

/* BQL held. */
static void hsagpu_fault_fatal(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint32_t gen = s->gen;
    PCIEAERErr err = {
        .status = PCI_ERR_UNC_INTN,
        .source_id = pci_requester_id(pdev),
    };

    if (qatomic_xchg(&s->fault.fatal, true)) {
        return;
    }
    trace_hsagpu_fault_hit("fatal", 0);
    /*
     * fatal is set first: ENABLE is refused from now on. AER before the
     * error interrupt, which may reset or unplug the device.
     */
    if (pdev->exp.aer_cap) {
        pcie_aer_inject_error(pdev, &err);
    }
    if (s->gen == gen) {
        s->fault.queues_fatal(s);
    }
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */
/* ------------------------------------------------------------------ */

static void hsagpu_fault_get_u32(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    uint32_t val = qatomic_read((uint32_t *)((char *)obj +
                                             (uintptr_t)opaque));

    visit_type_uint32(v, name, &val, errp);
}

static void hsagpu_fault_set_u32(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    uint32_t val;

    if (!visit_type_uint32(v, name, &val, errp)) {
        return;
    }
    trace_hsagpu_fault_set(name, val);
    qatomic_set((uint32_t *)((char *)obj + (uintptr_t)opaque), val);
}

static void hsagpu_fault_get_hang(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    HsaGpuState *s = HSA_GPU(obj);
    int32_t val = DEVICE(obj)->realized ? s->fault.queue_held(s) : -1;

    visit_type_int32(v, name, &val, errp);
}

static void hsagpu_fault_set_hang(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    HsaGpuState *s = HSA_GPU(obj);
    int32_t val;

    if (!visit_type_int32(v, name, &val, errp)) {
        return;
    }
    if (!DEVICE(obj)->realized) {
        error_setg(errp, "hsa-gpu: %s is set on a running device", name);
        return;
    }
    if (val < -1 || val >= (int32_t)s->fault.hang_ids) {
        error_setg(errp, "hsa-gpu: %s must be a queue id below %u, or -1",
                   name, s->fault.hang_ids);
        return;
    }
    trace_hsagpu_fault_set(name, val);
    s->fault.queue_hold(s, val);
}

static bool hsagpu_fault_get_fatal(Object *obj, Error **errp)
{
    return hsagpu_fault_is_fatal(HSA_GPU(obj));
}

static void hsagpu_fault_set_fatal(Object *obj, bool val, Error **errp)
{
    HsaGpuState *s = HSA_GPU(obj);

    if (!val) {
        if (hsagpu_fault_is_fatal(s)) {
            error_setg(errp, "hsa-gpu: only a reset clears a fatal error");
        }
        return;
    }
    if (!DEVICE(obj)->realized) {
        error_setg(errp, "hsa-gpu: inject-fatal is set on a running device");
        return;
    }
    trace_hsagpu_fault_set("inject-fatal", 1);
    hsagpu_fault_fatal(s);
}

static const struct {
    const char *name;
    size_t offset;
    const char *desc;
} hsagpu_fault_counts[] = {
    { "inject-atomic-ur", offsetof(HsaGpuState, fault.atomic_ur),
      "the next N AtomicOps complete with Unsupported Request" },
    { "inject-atomic-ca", offsetof(HsaGpuState, fault.atomic_ca),
      "the next N AtomicOps complete with Completer Abort" },
    { "inject-dma-ur", offsetof(HsaGpuState, fault.dma_ur),
      "the next N bus-master data reads complete with Unsupported Request" },
    { "inject-dma-ca", offsetof(HsaGpuState, fault.dma_ca),
      "the next N bus-master data reads complete with Completer Abort" },
    { "inject-dma-poison", offsetof(HsaGpuState, fault.dma_poison),
      "the next N bus-master data reads return poisoned data" },
    { "inject-msix-drop", offsetof(HsaGpuState, fault.msix_drop),
      "the next N MSI-X messages are lost" },
    { "inject-msix-delay", offsetof(HsaGpuState, fault.msix_delay),
      "the next N MSI-X messages arrive inject-msix-delay-ms late" },
    { "inject-msix-delay-ms", offsetof(HsaGpuState, fault.msix_delay_ms),
      "how late delayed MSI-X messages arrive (virtual ms)" },
};

void hsagpu_fault_class_init(ObjectClass *klass)
{
    for (unsigned i = 0; i < ARRAY_SIZE(hsagpu_fault_counts); i++) {
        object_class_property_add(klass, hsagpu_fault_counts[i].name,
                                       "uint32", hsagpu_fault_get_u32,
                                       hsagpu_fault_set_u32, NULL,
                                       (void *)hsagpu_fault_counts[i].offset);
        object_class_property_set_description(klass,
                                              hsagpu_fault_counts[i].name,
                                              hsagpu_fault_counts[i].desc);
    }
    object_class_property_add(klass, "inject-queue-hang", "int32",
                              hsagpu_fault_get_hang, hsagpu_fault_set_hang,
                              NULL, NULL);
    object_class_property_set_description(klass, "inject-queue-hang",
        "this queue makes no progress until destroyed, reset or -1");
    object_class_property_add_bool(klass, "inject-fatal",
                                   hsagpu_fault_get_fatal,
                                   hsagpu_fault_set_fatal);
    object_class_property_set_description(klass, "inject-fatal",
        "take a fatal internal error (only a reset recovers)");
}

/* ------------------------------------------------------------------ */
/* Life cycle                                                          */
/* ------------------------------------------------------------------ */

void hsagpu_fault_init(HsaGpuState *s)
{
    s->fault.msix_delay_ms = HSAGPU_FAULT_DELAY_MS_DEFAULT;
    s->fault.bh = qemu_bh_new(hsagpu_fault_bh, s);
    s->fault.msix_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL,
                                       hsagpu_fault_msix_timer, s);
    s->fault.msix_due = g_new0(int64_t, s->ident.msix_vectors);
}

void hsagpu_fault_exit(HsaGpuState *s)
{
    if (!s->fault.bh) {
        return;
    }
    qemu_bh_delete(s->fault.bh);
    s->fault.bh = NULL;
    timer_free(s->fault.msix_timer);
    s->fault.msix_timer = NULL;
    g_free(s->fault.msix_due);
    s->fault.msix_due = NULL;
}

/*
 * Device reset and FLR: nothing stays armed, nothing late is delivered,
 * the fatal error is gone (queues were reset by the caller first).
 */
void hsagpu_fault_reset(HsaGpuState *s)
{
    HsaGpuFault *f = &s->fault;

    qatomic_set(&f->atomic_ur, 0);
    qatomic_set(&f->atomic_ca, 0);
    qatomic_set(&f->dma_ur, 0);
    qatomic_set(&f->dma_ca, 0);
    qatomic_set(&f->dma_poison, 0);
    qatomic_set(&f->msix_drop, 0);
    qatomic_set(&f->msix_delay, 0);
    qatomic_set(&f->fatal, false);
    qatomic_set(&f->pending, 0);
    if (f->bh) {
        qemu_bh_cancel(f->bh);
        timer_del(f->msix_timer);
        memset(f->msix_due, 0, s->ident.msix_vectors * sizeof(*f->msix_due));
    }
}
