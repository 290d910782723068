/*
 * hsa-gpu, Vega10 personality: the IH (OSSSYS 4.0's interrupt handler),
 * independent of QEMU (vega10-ih.c). Engines hand it interrupt vectors
 * (IVs); it writes them as 32-byte entries into ring 0, the ring Linux's
 * amdgpu programs in vega10_ih_irq_init and reads in amdgpu_ih_process,
 * and says when to raise the MSI. Rings 1 and 2 are only stored: amdgpu
 * reads them after a self-interrupt (client IH), which is never raised.
 *
 * The front end routes to hsagpu_v10_ih_write/read the registers of
 * ring 0 with a behaviour (IH_RB_CNTL, IH_RB_RPTR, IH_RB_WPTR; any other
 * dword is stored as given), and the doorbell router offers each
 * doorbell to hsagpu_v10_ih_doorbell. Both return whether to raise the
 * MSI now; so does hsagpu_v10_ih_push. The caller raises it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_VEGA10_IH_H
#define HW_HSAGPU_VEGA10_IH_H

#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stdint.h>
#endif
#include "hsagpu/vega10_regs.h"

typedef struct HsaGpuV10 HsaGpuV10;

/* An IV entry: 8 dwords, as amdgpu_ih_decode_iv_helper reads them */
#define V10_IV_BYTES                    32

/* IV client ids (soc15_ih_clientid.h) */
#define V10_IV_CLIENT_SDMA0             0x08
#define V10_IV_CLIENT_SDMA1             0x09
#define V10_IV_CLIENT_SE0SH             0x0a    /* SE n: 0x0a + n */
#define V10_IV_CLIENT_VMC               0x12    /* the MMHUB's L2 */
#define V10_IV_CLIENT_GRBM_CP           0x14
#define V10_IV_CLIENT_UTCL2             0x1b    /* the GFXHUB's L2 */
/* IV source ids (include/ivsrcid/) */
#define V10_IV_SRC_VM_FAULT             0       /* VMC and UTCL2 */
#define V10_IV_SRC_CP_EOP               181
#define V10_IV_SRC_CP_BAD_OPCODE        183     /* a ring's bad packet */
#define V10_IV_SRC_CP_PRIV_REG          184     /* ... or register write */
#define V10_IV_SRC_SDMA_TRAP            224
#define V10_IV_SRC_SQ_INTERRUPT         239
/* vmid_src: whose VMID the entry carries, and so which LUT has its PASID */
#define V10_IV_VMID_SRC_GFXHUB          0
#define V10_IV_VMID_SRC_MMHUB           1
/* SDMA trap ring_id (sdma_v4_0_process_trap_irq, SDMA 4.0.0) */
#define V10_IV_SDMA_RING_GFX            0       /* the kernel's ring */
#define V10_IV_SDMA_RING_RLC            2       /* user queues: ignored */
#define V10_IV_SDMA_RING_PAGE           3       /* the page queue */
/* VM fault flags (hsagpu_v10_iv_vm_fault) */
#define V10_IV_FAULT_WRITE              (1u << 0) /* the access wrote */
#define V10_IV_FAULT_RETRY              (1u << 1) /* recoverable */
#define V10_IV_FAULT_NOT_PRESENT        (1u << 2) /* no valid PTE */
#define V10_IV_FAULT_READ_DENIED        (1u << 3)
#define V10_IV_FAULT_WRITE_DENIED       (1u << 4) /* PTE not writeable */

typedef struct HsaGpuV10Iv {
    uint8_t client_id;
    uint8_t src_id;
    uint8_t ring_id;
    uint8_t vmid;               /* 4 bits */
    uint8_t vmid_src;           /* V10_IV_VMID_SRC_* */
    uint8_t timestamp_src;      /* 1 bit */
    uint16_t pasid;             /* 0: the IH looks it up (push) */
    uint8_t node_id;            /* 0 on Vega10 (6.12 decodes it) */
    uint64_t timestamp;         /* 48 bits; push stamps it */
    uint32_t src_data[4];       /* KFD's context ids 0..3 */
} HsaGpuV10Iv;

/*
 * The IH's state besides its registers (which are in HsaGpuV10.reg).
 * Zero is always a safe value: at worst it costs one extra MSI.
 */
typedef struct HsaGpuV10Ih {
    /*
     * An MSI was raised and the driver has written no rptr since: with
     * IH_RB_CNTL.RPTR_REARM, no further MSI until it does (vega10-ih.c).
     */
    bool msi_outstanding;
    /* Counters (tests, traces): no effect on behaviour */
    uint32_t entries;           /* written into the ring */
    uint32_t msis;              /* MSIs asked for */
    uint32_t overflows;         /* dropped: the ring was full */
    uint32_t discarded;         /* dropped: the ring was off */
    uint32_t write_errors;      /* the memory write failed */
} HsaGpuV10Ih;

/*
 * Write @len bytes of @buf at @addr for the IH: a bus (guest physical)
 * address if @bus (IH_RB_CNTL.MC_SPACE 1, amdgpu's use_bus_addr), else a
 * GPU address in VMID @vmid's space (IH_RB_CNTL.MC_VMID). Returns false
 * if nothing was written.
 */
typedef bool (*HsaGpuV10IhWrite)(void *opaque, uint64_t addr, bool bus,
                                 unsigned vmid, const void *buf,
                                 uint32_t len);

/* The IH at reset (the front end zeroes the registers) */
void hsagpu_v10_ih_reset(HsaGpuV10 *v);

/*
 * Write @iv into ring 0, stamped with @now_ticks (48 bits kept), its
 * PASID from the VMID's LUT entry if @iv has none and a VMID is given.
 * Returns whether the caller must raise the MSI now. The entry is
 * dropped (counted; never written over an unread one) when the ring is
 * off or full; see vega10-ih.c for overflow and the MSI rule.
 */
bool hsagpu_v10_ih_push(HsaGpuV10 *v, const HsaGpuV10Iv *iv,
                        uint64_t now_ticks, HsaGpuV10IhWrite write,
                        void *opaque);

/*
 * A register access to @dw: IH_RB_CNTL, IH_RB_RPTR and IH_RB_WPTR have
 * a behaviour; any other dword (< V10_NREGS) is plain storage. The
 * write returns whether to raise the MSI now.
 */
bool hsagpu_v10_ih_write(HsaGpuV10 *v, uint32_t dw, uint32_t val);
uint32_t hsagpu_v10_ih_read(HsaGpuV10 *v, uint32_t dw);

/*
 * A 32-bit doorbell write of @val at dword @index of the doorbell BAR.
 * Returns whether it is an IH ring's rptr doorbell (IH_DOORBELL_RPTR
 * and its ring 1 and 2 twins: enabled, OFFSET == @index), and then sets
 * *@msi to whether to raise the MSI now.
 */
bool hsagpu_v10_ih_doorbell(HsaGpuV10 *v, uint32_t index, uint32_t val,
                            bool *msi);

/* @iv as the ring holds it: 8 little-endian dwords */
void hsagpu_v10_iv_encode(const HsaGpuV10Iv *iv, uint8_t out[V10_IV_BYTES]);

/*
 * IVs of the sources the personality raises; the PASID is left 0 for
 * hsagpu_v10_ih_push to take from the LUT (set iv->pasid to override).
 *
 * CP end of pipe (RELEASE_MEM with an interrupt) on ME @me (0: gfx,
 * 1-2: MEC), @pipe, @queue of VMID @vmid; @context_id is RELEASE_MEM's
 * int_ctxid, KFD's event id for user queues.
 */
void hsagpu_v10_iv_cp_eop(HsaGpuV10Iv *iv, unsigned me, unsigned pipe,
                          unsigned queue, unsigned vmid, uint32_t context_id);
/* Any of the CP's interrupts (V10_IV_SRC_CP_*) of such a ring */
void hsagpu_v10_iv_cp(HsaGpuV10Iv *iv, unsigned src_id, unsigned me,
                      unsigned pipe, unsigned queue, unsigned vmid,
                      uint32_t context_id);
/* SDMA engine @engine's TRAP packet (28-bit @context) on ring @ring_id */
void hsagpu_v10_iv_sdma_trap(HsaGpuV10Iv *iv, unsigned engine,
                             unsigned ring_id, unsigned vmid,
                             uint32_t context);
/* A fault at GPU address @addr (48 bits) in VMID @vmid of a hub */
void hsagpu_v10_iv_vm_fault(HsaGpuV10Iv *iv, bool mmhub, unsigned vmid,
                            uint64_t addr, unsigned flags);
/*
 * s_sendmsg(MSG_INTERRUPT) from a wave of VMID @vmid on shader engine
 * @se: @data is M0's 24 bits (ROCm's device library: the event id)
 */
void hsagpu_v10_iv_sq_msg(HsaGpuV10Iv *iv, unsigned se, unsigned vmid,
                          uint32_t data);

#endif /* HW_HSAGPU_VEGA10_IH_H */
