/*
 * hsa-gpu: QEMU device state shared by the device's source files.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_H
#define HW_HSAGPU_H

#include "hw/pci/pci_device.h"
#include "qemu/event_notifier.h"
#include "qemu/thread.h"
#include "qom/object.h"
#include "system/runstate.h"
#include "hsagpu-queue-core.h"

#define TYPE_HSA_GPU "hsa-gpu"
OBJECT_DECLARE_SIMPLE_TYPE(HsaGpuState, HSA_GPU)

struct HsaGpuState {
    PCIDevice parent_obj;

    MemoryRegion vram;          /* BAR0/1 */
    MemoryRegion doorbell;      /* BAR2/3 */
    MemoryRegion io;            /* BAR4, optional */
    MemoryRegion mmio;          /* BAR5, MSI-X table/PBA inside */
    MemoryRegion rom;           /* expansion ROM */

    HsaGpuIdent ident;
    HsaGpuRegFile regs;
    uint64_t doorbells[HSAGPU_DOORBELL_COUNT];

    /*
     * Queue processor (hsagpu-queue.c). qlock protects queues[], active[]
     * and the processor's work; the thread holds it while it serves
     * queues and never takes the BQL while holding it.
     */
    HsaGpuQueue *queues;
    uint32_t nqueues_migrated;  /* == num_queues, for VMState */
    uint16_t *active;           /* enabled queues, by priority */
    unsigned nactive;
    unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1];
    QemuMutex qlock;
    unsigned qlock_waiters;     /* outside the thread (qatomic) */
    QemuThread qthread;
    EventNotifier qnotifier;    /* doorbells and commands wake the thread */
    bool qthread_started;
    bool qthread_stop;
    bool vm_running;
    bool dma_iommu;             /* bus-master DMA goes through a vIOMMU */
    VMChangeStateEntry *vm_change;
    /*
     * A queue failed but ERROR_STATUS does not show it yet (qatomic).
     * Whoever holds the BQL first folds it in: the thread, or a register
     * access, so a guest that saw a queue's ERROR state also sees the bit.
     */
    unsigned qerr_pending;
    QLIST_ENTRY(HsaGpuState) peer_link; /* hsagpu-p2p.c */

    /* properties */
    uint64_t vram_size;
    uint32_t num_queues;
    bool io_bar;
    bool atomic_comp32;
    bool atomic_comp64;
    bool atomic_comp128;
    uint32_t p2p_addr_bits;
    bool dma_zero_copy;
    uint16_t vendor_id;
    uint16_t device_id;
    uint16_t subsys_vendor_id;
    uint16_t subsys_id;
    uint8_t revision;
    uint64_t serial;
};

/* hsagpu-mmio.c */
void hsagpu_mmio_init(HsaGpuState *s);
uint32_t hsagpu_status(HsaGpuState *s);
void hsagpu_bad_access(HsaGpuState *s, unsigned bar, uint64_t offset,
                       unsigned size, bool is_write, unsigned reason);
void hsagpu_error_irq(HsaGpuState *s);

/* hsagpu-atomic.c */
unsigned hsagpu_atomic_try(HsaGpuState *s, uint64_t addr, uint32_t ctrl,
                           const uint64_t src0[2], const uint64_t src1[2],
                           uint64_t result[2], uint32_t count, uint32_t *done);
void hsagpu_atomic_report(HsaGpuState *s, unsigned st, uint64_t addr,
                          uint32_t ctrl);
unsigned hsagpu_atomic_issue(HsaGpuState *s, uint64_t addr, uint32_t ctrl,
                             const uint64_t src0[2], const uint64_t src1[2],
                             uint64_t result[2], uint32_t count,
                             uint32_t *done);
void hsagpu_atomic_run(HsaGpuState *s);

/* hsagpu-dma.c: 0, or -1 when the range is not all memory */
int hsagpu_dma_rw(HsaGpuState *s, uint64_t addr, void *buf, uint64_t len,
                  bool is_write);
bool hsagpu_dma_is_memory(HsaGpuState *s, uint64_t addr, uint64_t len,
                          bool is_write);
/*
 * DMA engine transfer (HsaGpuQueueOps.dma): 0 or an HSAGPU_QERR_* code;
 * counts the traffic; *peer_written when data went to a peer.
 */
unsigned hsagpu_dma_xfer(HsaGpuState *s, uint64_t dst, uint64_t src,
                         uint64_t len, const uint32_t *pattern,
                         uint64_t *bad_addr, bool *peer_written);
/* A read to a peer that flushes the writes before it (ordering). */
void hsagpu_dma_flush_peer(HsaGpuState *s);

/* hsagpu-p2p.c */
#define HSAGPU_MAX_PORTS 16
/* The bridges (ports) above @dev, nearest first: how many. */
int hsagpu_ports_above(PCIDevice *dev, PCIDevice **ports);
void hsagpu_p2p_register(HsaGpuState *s);
void hsagpu_p2p_unregister(HsaGpuState *s);
/* Highest bus address the device can emit (p2p-addr-bits). */
uint64_t hsagpu_addr_limit(HsaGpuState *s);
bool hsagpu_p2p_peer_ok(HsaGpuState *s, HsaGpuState *peer);
uint32_t hsagpu_p2p_status(HsaGpuState *s);
/*
 * The peer whose VRAM a switch above both devices routes @addr to, with
 * a reference the caller drops (object_unref), and the VRAM offset.
 */
HsaGpuState *hsagpu_p2p_switch_peer(HsaGpuState *s, uint64_t addr,
                                    uint64_t *off);
uint32_t hsagpu_link_mps(HsaGpuState *s);
uint32_t hsagpu_link_mrrs(HsaGpuState *s);

/* hsagpu-queue.c */
void hsagpu_queues_init(HsaGpuState *s);
void hsagpu_queues_exit(HsaGpuState *s);
void hsagpu_queues_reset(HsaGpuState *s);
int hsagpu_queues_post_load(HsaGpuState *s);
bool hsagpu_queue_mmio(HsaGpuState *s, uint32_t offset);
unsigned hsagpu_queue_mmio_read(HsaGpuState *s, uint32_t offset, unsigned size,
                                uint64_t *val);
unsigned hsagpu_queue_mmio_write(HsaGpuState *s, uint32_t offset,
                                 unsigned size, uint64_t val);
uint32_t hsagpu_queue_error_first(HsaGpuState *s);
void hsagpu_queue_flush_errors(HsaGpuState *s);
void hsagpu_queues_kick(HsaGpuState *s);
extern const VMStateDescription vmstate_hsagpu_queue;

/* hsagpu-doorbell.c */
void hsagpu_doorbell_init(HsaGpuState *s);
void hsagpu_doorbell_reset(HsaGpuState *s);

#endif
