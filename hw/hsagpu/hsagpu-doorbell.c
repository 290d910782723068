/*
 * hsa-gpu: doorbells, the first step of the data path.
 *
 * Under KVM an enabled queue's doorbell is an ioeventfd on the queue's
 * own notifier (hsagpu_doorbell_listen): a guest's 8-byte doorbell write
 * only sets the eventfd, without an exit, and wakes the processor thread
 * (hsagpu-queue.c), which marks the doorbell rung (db_rung), so that the
 * queue's write_dispatch_id is read from memory at its next run, and
 * only then; the doorbell value itself is not used. Everything else
 * reaches the BAR2 handlers below, and so do all doorbells under TCG and
 * for the main-loop processor: under TCG an ioeventfd saves no exit and
 * costs a system call in the vCPU, while the handler marks the doorbell
 * rung and wakes a watching thread with a store (hsagpu_queues_kick).
 * One 8-byte doorbell per stride, 32-bit accesses to either half are
 * accepted (CPUs may split them), and any write rings the doorbell and
 * wakes the processor.
 *
 * Read-back: each 4 KiB doorbell page (the unit the driver gives a
 * process) remembers the last doorbell written through the handler and
 * its value; a read of that doorbell returns it, a read of any other
 * doorbell of the page returns 0 (docs/registers.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/bitops.h"
#include "qemu/main-loop.h"
#include "exec/memory.h"
#include "system/kvm.h"
#include "hsagpu.h"
#include "trace.h"

#define HSAGPU_DOORBELLS_PER_PAGE \
    (HSAGPU_DOORBELL_PAGE / HSAGPU_DOORBELL_STRIDE)

/* The stored value of doorbell @index (0 unless last written). */
static uint64_t hsagpu_doorbell_value(HsaGpuState *s, uint32_t index)
{
    uint32_t page = index / HSAGPU_DOORBELLS_PER_PAGE;

    return s->db_last_index[page] == index % HSAGPU_DOORBELLS_PER_PAGE ?
           s->db_last_value[page] : 0;
}

static uint64_t hsagpu_doorbell_read(void *opaque, hwaddr addr, unsigned size)
{
    HsaGpuState *s = opaque;
    unsigned bad = hsagpu_doorbell_check(addr, size);
    uint64_t val;

    if (bad) {
        hsagpu_bad_access(s, HSAGPU_BAR_DOORBELL, addr, size, false, bad);
        return 0;
    }
    val = hsagpu_doorbell_value(s, addr / HSAGPU_DOORBELL_STRIDE);
    if (size == 4) {
        val = (uint32_t)(val >> ((addr & 4) * 8));
    }
    trace_hsagpu_doorbell_read(addr / HSAGPU_DOORBELL_STRIDE, size, val);
    return val;
}

static void hsagpu_doorbell_write(void *opaque, hwaddr addr, uint64_t val,
                                  unsigned size)
{
    HsaGpuState *s = opaque;
    unsigned bad = hsagpu_doorbell_check(addr, size);
    uint32_t index = addr / HSAGPU_DOORBELL_STRIDE;
    uint32_t page = index / HSAGPU_DOORBELLS_PER_PAGE;

    if (bad) {
        hsagpu_bad_access(s, HSAGPU_BAR_DOORBELL, addr, size, true, bad);
        return;
    }
    if (size == 4) {
        unsigned shift = (addr & 4) * 8;
        uint64_t old = hsagpu_doorbell_value(s, index);

        val = (old & ~(0xffffffffULL << shift)) | (val << shift);
    }
    /* an enabled queue's 8-byte doorbell only rings, as its eventfd's */
    if (size != 8 || !test_bit(index, s->db_listening)) {
        s->db_last_index[page] = index % HSAGPU_DOORBELLS_PER_PAGE;
        s->db_last_value[page] = val;
    }
    trace_hsagpu_doorbell_write(index, size, val);
    set_bit_atomic(index, s->db_rung);
    /*
     * Under KVM 8-byte writes to an enabled queue's doorbell never get
     * here (they only signal the ioeventfd); anything else wakes the
     * processor.
     */
    hsagpu_queues_kick(s);
}

static const MemoryRegionOps hsagpu_doorbell_ops = {
    .read = hsagpu_doorbell_read,
    .write = hsagpu_doorbell_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

void hsagpu_doorbell_init(HsaGpuState *s)
{
    memory_region_init_io(&s->doorbell, OBJECT(s), &hsagpu_doorbell_ops, s,
                          "hsa-gpu-doorbell", HSAGPU_DOORBELL_BAR_SIZE);
}

void hsagpu_doorbell_reset(HsaGpuState *s)
{
    memset(s->db_last_index, 0, sizeof(s->db_last_index));
    memset(s->db_last_value, 0, sizeof(s->db_last_value));
}

/*
 * Wake the processor (commands, resets, doorbells through the handler).
 * A watching thread sees kick_pending; a sleeping one needs the eventfd.
 * Either it reads kick_pending after it stops watching or this reads
 * qthread_watching after it stopped (both sides: store, full barrier,
 * load), so no kick is lost (hsagpu_queue_thread).
 */
void hsagpu_queues_kick(HsaGpuState *s)
{
    if (s->mainloop) {
        /* Counted by the run it wakes, like the thread's wake-ups. */
        qatomic_set(&s->proc_kicked, true);
        qemu_bh_schedule(s->proc_bh);
        return;
    }
    qatomic_set(&s->kick_pending, 1);
    smp_mb();   /* pairs with the thread's, after qthread_watching = 0 */
    if (!qatomic_read(&s->qthread_watching)) {
        event_notifier_set(&s->qnotifier);
    }
}

/*
 * An 8-byte write to queue @qi's @doorbell wakes the processor thread
 * without an exit, on the queue's own notifier, so the thread knows
 * which queue to fetch. The main-loop processor has no thread to wake:
 * its doorbells stay with the handler, which schedules it; so do a
 * queue's when no notifier could be made (out of file descriptors).
 * Registering is idempotent (qdb_listen, db_listening), so a load over
 * a running device cannot add one twice; @doorbell is ignored when
 * turning off (the one registered is removed).
 */
void hsagpu_doorbell_listen(HsaGpuState *s, unsigned qi, uint32_t doorbell,
                            bool on)
{
    /*
     * An ioeventfd saves a guest exit under KVM. Under TCG there is no
     * exit to save, and QEMU signals the eventfd with a system call in
     * the vCPU's doorbell write: there the doorbell listens through the
     * handler, which wakes a watching thread without one (and, as for
     * an eventfd, does not store the 8-byte writes).
     */
    bool fd = kvm_enabled();
    hwaddr off;

    if (s->mainloop || qi >= s->params.num_queues ||
        !!s->qdb_listen[qi] == on) {
        return;
    }
    if (on) {
        if (doorbell >= HSAGPU_DOORBELL_COUNT ||
            test_bit(doorbell, s->db_listening)) {
            return;
        }
        if (fd && !s->qdb_ok[qi]) {
            if (event_notifier_init(&s->qdb[qi], 0) < 0) {
                return;         /* the BAR2 handler serves it */
            }
            s->qdb_ok[qi] = true;
        }
        off = (hwaddr)doorbell * HSAGPU_DOORBELL_STRIDE;
        trace_hsagpu_doorbell_listen(doorbell, on);
        if (fd) {
            memory_region_add_eventfd(&s->doorbell, off, 8, false, 0,
                                      &s->qdb[qi]);
        }
        set_bit(doorbell, s->db_listening);
        s->qdb_listen[qi] = doorbell + 1;
    } else {
        doorbell = s->qdb_listen[qi] - 1;
        off = (hwaddr)doorbell * HSAGPU_DOORBELL_STRIDE;
        trace_hsagpu_doorbell_listen(doorbell, on);
        if (fd) {
            memory_region_del_eventfd(&s->doorbell, off, 8, false, 0,
                                      &s->qdb[qi]);
        }
        clear_bit(doorbell, s->db_listening);
        s->qdb_listen[qi] = 0;
    }
}

/* Remove every doorbell ioeventfd, whatever queue state says. */
void hsagpu_doorbell_unlisten_all(HsaGpuState *s)
{
    for (unsigned qi = 0; qi < s->params.num_queues; qi++) {
        hsagpu_doorbell_listen(s, qi, 0, false);
    }
}
