/*
 * hsa-gpu, Vega10 personality: the register front end Linux's amdgpu
 * programs, independent of QEMU (docs/vega10.md). vega10-pci.c wraps it
 * for the device; tests/unit/test-vega10.c drives it directly.
 *
 * The front end is a plain register store (BAR5's 128 Ki dwords) with
 * behaviour where the driver waits for the hardware: windows into VRAM
 * and the SMN space, the HDP flush, the VM hubs' invalidation engines,
 * the RLC's handshakes, and the banks GRBM_GFX_CNTL selects (hardware
 * queue descriptors per ME/pipe/queue, SH_MEM per VMID).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_VEGA10_H
#define HW_HSAGPU_VEGA10_H

#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif
#include "hsagpu/vega10_regs.h"
#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "hw/hsagpu/core/hsagpu-vm.h"
#include "vega10-ih.h"

/* MEC queues: 2 MECs (ME 1 and 2) of 4 pipes of 8 queues */
#define V10_MEC_NUM                     2
#define V10_MEC_PIPES                   4
#define V10_MEC_QUEUES                  8
#define V10_NUM_HQD                     (V10_MEC_NUM * V10_MEC_PIPES * \
                                         V10_MEC_QUEUES)
/* The bank of MEC @me (1 or 2), @pipe, @queue */
#define V10_HQD_INDEX(me, pipe, queue)  ((((me) - 1) * V10_MEC_PIPES + \
                                          (pipe)) * V10_MEC_QUEUES + (queue))
#define V10_NUM_VMIDS                   16
/* The VM hubs (vega10-gmc.h): GFXHUB (CP, shaders), MMHUB (SDMA, IH) */
#define V10_GFXHUB                      0
#define V10_MMHUB                       1
#define V10_NUM_HUBS                    2

/*
 * The CP's PM4 rings (vega10-cp.c): the MEC queues' (by HQD bank index),
 * then the GFX ring
 */
#define V10_RING_GFX                    V10_NUM_HQD
#define V10_NUM_RINGS                   (V10_NUM_HQD + 1)
#define V10_NO_DOORBELL                 UINT32_MAX
/* the largest ring: 2^22 dwords */
#define V10_RING_DW_LOG2_MAX            22

typedef struct HsaGpuV10Ring {
    HsaGpuPm4Ring pm4;
    uint32_t active;
    uint32_t doorbell;          /* BAR2 dword offset, or V10_NO_DOORBELL */
    uint64_t wptr;              /* dwords, as the driver last gave it */
    uint64_t rptr_addr;         /* VMID 0: where the read pointer goes */
    uint64_t wptr_addr;         /* VMID 0: write pointer to poll, or 0 */
    /*
     * inject-queue-hang: no progress until the ring stops (not migrated,
     * as no injection is)
     */
    bool held;
    /*
     * An MEC queue with CP_HQD_AQL_CONTROL set (amdkfd's user queues):
     * not a PM4 ring but AQL packets, run by the device's queue
     * processor as its own queue V10_AQL_QI(ri) (aql_run: started)
     */
    uint32_t aql;
    uint32_t aql_run;
    /*
     * A PM4 ring's compute state (V10_COMPUTE_*: its SET_SH_REG writes),
     * and its DISPATCH_DIRECT in progress: disp_wg the next workgroup,
     * the workgroups in flight in HsaGpuV10.disp_grid[]
     * (vega10-dispatch.c)
     */
    uint32_t compute[V10_COMPUTE_NREGS];
    uint32_t disp_on;
    uint64_t disp_wg;
} HsaGpuV10Ring;

/* The processor's queue of MEC queue (HQD) @ri: after the SDMA rings */
#define V10_AQL_QI(ri)                  (V10_SDMA_RINGS + (ri))

/*
 * inject-queue-hang's ids on this personality: the SDMA rings first, as
 * the queue processor numbers them (engine * V10_SDMA_QUEUES + queue),
 * then the GFX ring, then the MEC queues by HQD index
 */
#define V10_HANG_GFX                    V10_SDMA_RINGS
#define V10_HANG_RING(ri)               ((ri) == V10_RING_GFX ? V10_HANG_GFX \
                                         : V10_HANG_GFX + 1 + (ri))
#define V10_HANG_IDS                    (V10_HANG_GFX + 1 + V10_NUM_HQD)

/* What the CP's rings need from the device around them */
struct HsaGpuV10;
typedef struct HsaGpuV10CpOps {
    /* GFXHUB memory: 0 or nonzero (does not translate) */
    unsigned (*read)(void *opaque, uint32_t vmid, uint64_t addr, void *buf,
                     uint32_t len);
    unsigned (*write)(void *opaque, uint32_t vmid, uint64_t addr,
                      const void *buf, uint32_t len);
    /*
     * The front end's registers, for the rings' register packets (the
     * front end starts rings; rings reach registers only through these)
     */
    uint32_t (*reg_read)(void *opaque, uint32_t dw);
    void (*reg_write)(void *opaque, uint32_t dw, uint32_t val);
    /*
     * interrupt @src_id (V10_IV_SRC_CP_*: an end of pipe, a bad packet)
     * of ring (me, pipe, queue) in @vmid, the ring's (a user queue's
     * names its process: kfdtest's events)
     */
    void (*irq)(void *opaque, unsigned src_id, unsigned me, unsigned pipe,
                unsigned queue, unsigned vmid, uint32_t ctx_id);
    /* INVALIDATE_TLBS of @pasid (0: all), on both hubs or the GFXHUB */
    void (*invalidate)(void *opaque, uint32_t pasid, bool all_hubs);
    /* ring @ri stopped: HSAGPU_PM4_ERR_*, the packet's header */
    void (*stopped)(void *opaque, unsigned ri, uint32_t err, uint32_t hdr);
    /*
     * The HIQ's queue packets: the hardware scheduler the device has
     * (hsagpu_v10_hws_packet); NULL: the HIQ refuses them
     */
    unsigned (*hiq_packet)(struct HsaGpuV10 *v,
                           const struct HsaGpuV10CpOps *ops,
                           const uint32_t *pk, uint32_t n);
    /* its turns when oversubscribed (hsagpu_v10_hws_rotate), or NULL */
    unsigned (*hiq_rotate)(struct HsaGpuV10 *v,
                           const struct HsaGpuV10CpOps *ops);
    /*
     * Optional, both or neither: a host view of @vmid's @addr the pass
     * has mapped (HsaGpuGcnMem.host, for a dispatch's loads and stores),
     * and the bytes written through one
     */
    void *(*host)(void *opaque, uint32_t vmid, uint64_t addr, bool is_write,
                  uint32_t *len);
    void (*host_written)(void *opaque, uint32_t vmid, uint64_t addr,
                         uint32_t len);
    void *opaque;
} HsaGpuV10CpOps;

/* The SDMA engines' ring queues (vega10-sdma.c) */
#define V10_SDMA_ENGINES                2
#define V10_SDMA_RINGS                  (V10_SDMA_ENGINES * V10_SDMA_QUEUES)

typedef struct HsaGpuV10SdmaRing {
    bool run;                   /* enabled, engine running, complete */
    uint64_t base;              /* GPU address (MMHUB) */
    uint32_t size;              /* bytes */
    uint32_t vmid;
    uint64_t rptr;              /* bytes, as RB_RPTR says */
    uint64_t rptr_addr, wptr_addr;
    uint32_t doorbell;          /* BAR2 dword offset, or V10_NO_DOORBELL */
    /* an RLC queue's write pointer (bytes): its doorbell's, RB_WPTR */
    uint64_t wptr;
    /* why an enabled queue does not run (V10_SDMA_BAD_*): not migrated */
    uint32_t bad;
} HsaGpuV10SdmaRing;

#define V10_SDMA_BAD_SIZE               1   /* RB_SIZE past the largest */
#define V10_SDMA_BAD_BASE               2   /* no ring base */
#define V10_SDMA_BAD_RPTR_ADDR          3   /* no read pointer address */
#define V10_SDMA_BAD_WPTR_ADDR          4   /* GFX/PAGE: no poll address */
#define V10_SDMA_BAD_DOORBELL           5   /* outside BAR2 */
#define V10_SDMA_BAD_VMID               6   /* the scheduler's, past 15 */
#define V10_SDMA_BAD_COUNT              7

/* What the front end needs from the device around it. */
typedef struct HsaGpuV10Ops {
    /*
     * Read or write the dword at VRAM offset @off (MM_INDEX/MM_DATA);
     * false when @off is outside VRAM (reads then give 0).
     */
    bool (*vram_rw)(void *opaque, uint64_t off, uint32_t *val, bool write);
    /* The GPU clock, in ticks of 100 MHz (RLC_GPU_CLOCK_COUNT) */
    uint64_t (*clock)(void *opaque);
    /*
     * Where SDMA queue @qi (engine * 4 + queue), running on the device,
     * has got to: its read pointer in bytes (RB_RPTR while it runs)
     */
    uint64_t (*sdma_rptr)(void *opaque, unsigned qi);
    /*
     * The AQL queue the device runs for HQD @ri stops now, its work in
     * flight saved in its context save area when @save (a preemption
     * with CWSR), before the HQD's registers go back to its MQD
     */
    void (*aql_stop)(void *opaque, unsigned ri, bool save);
    /*
     * GFXHUB memory of @vmid: a preempted queue's MQD (VMID 0) and
     * context save area (its own). 0, or nonzero: not reached.
     */
    unsigned (*mem)(void *opaque, uint32_t vmid, uint64_t addr, void *buf,
                    uint32_t len, bool write);
    void *opaque;
} HsaGpuV10Ops;

/*
 * The hardware scheduler (vega10-hws.c), which amdkfd's HIQ drives by
 * default (sched_policy 0): the resources SET_RESOURCES gave it, the
 * processes of the last runlist on their VMIDs, and the queues it
 * loaded from their MQDs (so that unmapping writes them back)
 */
typedef struct HsaGpuV10Hws {
    uint32_t hiq_ring;          /* the HIQ's ring index, or V10_NUM_RINGS */
    uint32_t vmid_mask;         /* VMIDs the scheduler may use */
    uint64_t queue_mask;        /* HQDs it may use (bit = HQD index) */
    uint32_t pasid[V10_NUM_VMIDS];      /* the VMID's process, or 0 */
    uint64_t mqd[V10_NUM_HQD];          /* an HQD's MQD, 0: not ours */
    uint64_t static_mask;       /* HQDs of static queues (kept by [3]) */
    uint64_t sdma_mqd[V10_SDMA_RINGS];    /* an RLC queue's MQD, or 0 */
    uint32_t sdma_pasid[V10_SDMA_RINGS];
    /*
     * An HQD's GWS resources: its process's (MAP_PROCESS num_gws) when
     * MAP_QUEUES made it the process's GWS queue (gws_control_queue)
     */
    uint32_t gws[V10_NUM_HQD];
    /*
     * The runlist served (its IB, 0: none since an UNMAP_QUEUES): with
     * more processes than VMIDs or queues than slots (rl_over), the
     * processes from rl_first on are mapped, rl_resident of rl_nproc,
     * with their compute queues from the rl_qfirst-th on, rl_mapped of
     * rl_queues; each turn (rotate_due, set by the device's quantum
     * timer: not migrated) maps the next processes or, all resident,
     * the next queues
     */
    uint64_t rl_ib;
    uint32_t rl_size;           /* dwords */
    uint32_t rl_first, rl_nproc, rl_resident;
    uint32_t rl_qfirst, rl_queues, rl_mapped;
    uint32_t rl_over;
    bool rotate_due;
    /* Counters (tests, docs): no effect on behaviour */
    uint32_t runlists, maps, unmaps, refused, rotations;
} HsaGpuV10Hws;

typedef struct HsaGpuV10 {
    /* Every register's stored value (banked ones: see below) */
    uint32_t reg[V10_NREGS];
    /* CP_MQD_BASE_ADDR..CP_HQD_PQ_WPTR_HI of each MEC queue */
    uint32_t hqd[V10_NUM_HQD][V10_HQD_NREGS];
    /* SH_MEM_CONFIG and SH_MEM_BASES of each VMID */
    uint32_t sh_mem_config[V10_NUM_VMIDS];
    uint32_t sh_mem_bases[V10_NUM_VMIDS];
    uint64_t clock_latch;       /* RLC_GPU_CLOCK_COUNT, as captured */
    HsaGpuV10Ring ring[V10_NUM_RINGS];
    uint32_t kiq_ring;          /* the KIQ's ring index, or V10_NUM_RINGS */
    /* The IH's own state (vega10-ih.c; hsagpu_v10_ih_reset) */
    HsaGpuV10Ih ih;
    /* Counters (tests and docs/vega10.md): no effect on behaviour */
    uint32_t hdp_flushes;
    uint32_t tlb_invalidations;
    uint32_t eops;              /* RELEASE_MEMs that asked for one */
    uint32_t cp_faults;         /* rings stopped by a bad packet */
    uint32_t maps, unmaps;      /* the KIQ's queue packets */
    uint32_t aql_refused;       /* AQL queues the processor refused */
    HsaGpuV10Hws hws;
    /* A register or doorbell access gave a ring work: wake the CP */
    bool kick;
    /* An SDMA queue's registers or an engine's halt changed */
    bool sdma_dirty;
    /* An AQL queue started or stopped: the processor's queues follow */
    bool aql_dirty;
    /* The IH asked for its MSI (a register access): the glue sends it */
    bool msi_due;
    /*
     * The SDMA ring queues running on the processor (queue slot = ring
     * index, engine * V10_SDMA_QUEUES + queue), as they were started
     */
    HsaGpuV10SdmaRing sdma_running[V10_SDMA_RINGS];
    /*
     * Not migrated: the refusal last reported for each SDMA queue
     * (V10_SDMA_BAD_*, so that it is told once), and one of the
     * scheduler's loads still to tell
     */
    uint8_t sdma_bad[V10_SDMA_RINGS];
    uint8_t sdma_load_bad[V10_SDMA_RINGS];
    /* Each hub's TLBs and walk counters (vega10-gmc.c): not migrated */
    HsaGpuVm hub_vm[V10_NUM_HUBS];
    /*
     * Each PM4 ring's DISPATCH_DIRECT workgroup in flight (migrated as
     * bytes by the glue), and counters: dispatches done and failed (the
     * last failure's reason), wave instructions
     */
    HsaGpuGcnGrid disp_grid[V10_NUM_RINGS];
    /* host threads for their workgroups (the device's compute-threads) */
    struct HsaGpuGcnPool *gcn_pool;
    HsaGpuGcnGws disp_gws[V10_NUM_RINGS];   /* with hws.gws[] resources */
    uint32_t disp_done, disp_failed;
    uint64_t disp_insns;
    uint64_t disp_oor;          /* past the VGPR allocation, not yet told */
    /*
     * PM4 queues' contexts (vega10-ctx.c): dispatches part-done that a
     * preemption could not save (no area, or it did not fit), saved ones
     * refused when mapped again (the last reason): not migrated
     */
    uint32_t ctx_lost, ctx_refused;
    const char *ctx_why;
    /* HQDs to read their write pointer when next running (POLL_CNTL1) */
    uint64_t wptr_poll;
    const char *disp_what;
    /* the glue's: the workgroups in flight as bytes while migrating */
    uint8_t *disp_blob;
    uint32_t disp_blob_len;

    /* Not migrated: set at realize */
    uint64_t vram_size;
    uint8_t revision;
    HsaGpuV10Ops ops;
} HsaGpuV10;

/* Set up @v for a device of @vram_size bytes, registers at reset. */
void hsagpu_v10_init(HsaGpuV10 *v, uint64_t vram_size, uint8_t revision,
                     const HsaGpuV10Ops *ops);
/* Registers as after the board's power-on and the (skipped) vBIOS POST */
void hsagpu_v10_reset(HsaGpuV10 *v);
/* A dword access to BAR5 at dword @dw (< V10_NREGS) */
uint32_t hsagpu_v10_read(HsaGpuV10 *v, uint32_t dw);
void hsagpu_v10_write(HsaGpuV10 *v, uint32_t dw, uint32_t val);

/* The register an access to @dw stores into (bank selected), or NULL */
uint32_t *hsagpu_v10_reg_slot(HsaGpuV10 *v, uint32_t dw);

/* vega10-sdma.c: SDMA @engine's @queue (0 GFX, 1 PAGE, 2-3 RLC) */
uint32_t hsagpu_v10_sdma_reg(unsigned engine, unsigned queue, uint32_t off);
bool hsagpu_v10_sdma_is_reg(uint32_t dw);
/* What the queue is now: true if it runs */
bool hsagpu_v10_sdma_ring(const HsaGpuV10 *v, unsigned engine,
                          unsigned queue, HsaGpuV10SdmaRing *r);
/* Where the device runs the queues (queue slot = engine * 4 + queue) */
typedef struct HsaGpuV10SdmaSync {
    void (*stop)(void *opaque, unsigned qi);
    /* false: the device refused to start it (the queue stays off) */
    bool (*start)(void *opaque, unsigned qi, const HsaGpuV10SdmaRing *r);
    /* an RLC queue's new write pointer (bytes), from a doorbell */
    void (*wptr)(void *opaque, unsigned qi, uint64_t wptr);
    /* optional: the driver enabled a queue that cannot run, and why */
    void (*refused)(void *opaque, unsigned qi, const char *why);
    void *opaque;
} HsaGpuV10SdmaSync;
/*
 * After registers changed (sdma_dirty): a queue that should run and does
 * not, or runs as it was before a change, is (re)started; one that
 * should not run is stopped
 */
void hsagpu_v10_sdma_sync(HsaGpuV10 *v, const HsaGpuV10SdmaSync *ops);
/*
 * The scheduler maps SDMA @engine's RLC queue @queue (2 or 3) from an MQD
 * image (struct v9_sdma_mqd, V10_SDMA_MQD_DW dwords), in @vmid, with the
 * MAP_QUEUES packet's @doorbell (BAR2 dword offset) and write pointer
 * @wptr (its current value, which the caller has read from the packet's
 * write pointer address)
 */
void hsagpu_v10_sdma_mqd_load(HsaGpuV10 *v, unsigned engine, unsigned queue,
                              const uint32_t *mqd, unsigned vmid,
                              uint32_t doorbell, uint64_t wptr);
/*
 * The scheduler unmaps it: the queue stops; where it stopped (RB_RPTR/HI,
 * and what else the hardware saves) goes back into @mqd
 */
void hsagpu_v10_sdma_mqd_save(HsaGpuV10 *v, unsigned engine, unsigned queue,
                              uint32_t *mqd);
/*
 * A doorbell write at BAR2 dword @dw of @size bytes: an RLC queue's new
 * write pointer (RB_WPTR; a 4-byte write is its low half). True if a
 * queue took it
 */
bool hsagpu_v10_sdma_doorbell(HsaGpuV10 *v, uint32_t dw, uint64_t val,
                              unsigned size);
/* A read of SDMA register @dw with a behaviour: true, *@val */
bool hsagpu_v10_sdma_read(const HsaGpuV10 *v, uint32_t dw, uint32_t *val);

/* Ring @ri's ME/pipe/queue (0/0/0: the GFX ring), as interrupts name it */
void hsagpu_v10_ring_id(unsigned ri, unsigned *me, unsigned *pipe,
                        unsigned *queue);
/*
 * vega10-ctx.c: HQD @ri is preempted with its state saved: a PM4
 * queue's IB position to its CP_HQD_IB_* registers and its dispatch
 * part-done to its context save area; then the HQD's registers (and a
 * PM4 queue's compute registers) to its MQD. false: the MQD could not
 * be written.
 */
bool hsagpu_v10_hqd_save(HsaGpuV10 *v, unsigned ri);
/*
 * PM4 queue @ri has just been started from its registers: its compute
 * registers from its MQD, its IB position, its saved dispatch. false:
 * the MQD could not be read (its compute state is then clear).
 */
bool hsagpu_v10_hqd_load(HsaGpuV10 *v, unsigned ri);
/*
 * HQD @ri's saved context was taken back: the area is empty again
 * (CP_HQD_WG_STATE_OFFSET = CNTL_STACK_SIZE), in the HQD and its MQD,
 * so that a reload from the MQD does not take it twice
 */
void hsagpu_v10_ctx_taken(HsaGpuV10 *v, unsigned ri);
/* HQD @ri's context save area (CWSR): false when it has none */
bool hsagpu_v10_ctx_area(const HsaGpuV10 *v, unsigned ri, uint64_t *base,
                         uint32_t *stack, uint32_t *size);
/* vega10-cp.c: start (latch from the registers) or stop a ring */
void hsagpu_v10_cp_gfx_start(HsaGpuV10 *v, bool on);
/* false: a PM4 queue's MQD could not be read (hsagpu_v10_hqd_load) */
bool hsagpu_v10_cp_hqd_start(HsaGpuV10 *v, unsigned ri, bool on);
/*
 * Stop it, preempted (@save: its state is saved, hsagpu_v10_hqd_save:
 * CP_HQD_DEQUEUE_REQUEST's drain and save, the scheduler's preempting
 * unmaps) or reset (its waves go: starting it false is this). false:
 * its MQD could not be written.
 */
bool hsagpu_v10_cp_hqd_stop(HsaGpuV10 *v, unsigned ri, bool save);
/*
 * A PM4 ring just mapped by a packet (the KIQ's or the scheduler's
 * MAP_QUEUES) takes its write pointer from its poll address, in its
 * VMID: the driver may have written packets and rung the doorbell
 * before the map ran, and a doorbell that found no HQD is lost
 */
void hsagpu_v10_cp_fetch_wptr(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                              unsigned ri);
/* A new write pointer for ring @ri (dwords) */
void hsagpu_v10_cp_wptr(HsaGpuV10 *v, unsigned ri, uint64_t wptr);
/* A doorbell write at BAR2 dword @dw: true if a ring took it */
bool hsagpu_v10_cp_doorbell(HsaGpuV10 *v, uint32_t dw, uint64_t val);
/*
 * What gfx9's CP raises for a ring it stopped at a bad packet
 * (HSAGPU_PM4_ERR_*; vega10-cp.c): CP_BAD_OPCODE's context is the
 * queue's doorbell index in its process's page ([9:0]) and the
 * exception amdkfd hands the runtime ([25:10], uapi kfd_ioctl.h's
 * EC_QUEUE_PACKET_*)
 */
#define V10_CP_FAULT_DOORBELL_MASK      0x3ffu
#define V10_CP_FAULT_EC_SHIFT           10
#define V10_EC_QUEUE_PACKET_RESERVED    19
#define V10_EC_QUEUE_PACKET_UNSUPPORTED 20
void hsagpu_v10_cp_fault(HsaGpuV10 *v, const HsaGpuV10CpOps *ops, unsigned ri,
                         uint32_t err);

/*
 * Run every started ring, @budget packets each at most (*@ran counts
 * them): V10_CP_BUSY if one has more packets, V10_CP_WAITING if one
 * waits on a condition
 */
#define V10_CP_BUSY                     1u
#define V10_CP_WAITING                  2u
unsigned hsagpu_v10_cp_pass(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                            unsigned budget, uint64_t *ran);

/*
 * vega10-hws.c: the HIQ's queue packets (the scheduler's firmware),
 * called by the CP's pass for ring hws.hiq_ring; 0 or HSAGPU_PM4_ERR_*
 */
unsigned hsagpu_v10_hws_packet(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                               const uint32_t *pk, uint32_t n);
/*
 * Oversubscribed (hws.rl_over), the scheduler gives the processes and
 * queues turns of this much time, as the MEC firmware time-slices them
 */
#define V10_HWS_QUANTUM_NS              (20 * 1000 * 1000)
/*
 * A turn ends (called by the CP's pass when hws.rotate_due): the next
 * processes of the runlist go on; 0 or HSAGPU_PM4_ERR_* (the runlist's
 * IB no longer reads as one: the HIQ stops)
 */
unsigned hsagpu_v10_hws_rotate(HsaGpuV10 *v, const HsaGpuV10CpOps *ops);
/* vega10-cp.c: QUERY_STATUS of a KIQ or HIQ (the fence) */
unsigned hsagpu_v10_query_status(const HsaGpuV10CpOps *ops, const uint32_t *pk,
                                 uint32_t n);
/* The scheduler forgets everything (a device reset) */
void hsagpu_v10_hws_reset(HsaGpuV10 *v);

/*
 * vega10-dispatch.c: a slice of the DISPATCH_DIRECT @pk of ring @ri, read
 * in @vmid's space: 0 (ended), HSAGPU_PM4_DISPATCH_MORE, or
 * HSAGPU_PM4_ERR_DISPATCH (v->disp_what says why)
 */
unsigned hsagpu_v10_dispatch(HsaGpuV10 *v, unsigned ri,
                             const HsaGpuV10CpOps *ops, uint32_t vmid,
                             const uint32_t *pk);
/* A register of a ring's own compute state (V10_COMPUTE_*) */
bool hsagpu_v10_compute_reg(uint32_t reg);
/* The workgroups in flight, freed (device finalize) */
void hsagpu_v10_dispatch_free(HsaGpuV10 *v);

#endif /* HW_HSAGPU_VEGA10_H */
