/*
 * hsa-gpu, Vega10 personality: address translation in the two VM hubs
 * (GMC v9), independent of QEMU. Every engine reaches memory through a
 * GPU address one hub translates: the GFXHUB for the command processor
 * and shaders, the MMHUB for SDMA and the IH. The hubs' registers are
 * the front end's (HsaGpuV10.reg); the page tables are walked by the
 * device's one GPUVM walker (core/hsagpu-vm.c), with its TLB per hub.
 * docs/vega10.md ("Address translation") says what is modelled; tests
 * in tests/unit/test-vega10-gmc.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_VEGA10_GMC_H
#define HW_HSAGPU_VEGA10_GMC_H

#include "hw/hsagpu/vega10/vega10.h"

/* How an address translated (HsaGpuV10Xlat.how) */
#define V10_GMC_FB              1   /* VMID 0, FB aperture: VRAM */
#define V10_GMC_AGP             2   /* VMID 0, AGP aperture: a bus address */
#define V10_GMC_SYSTEM_DEFAULT  3   /* VMID 0, system aperture, in neither */
#define V10_GMC_PAGE_TABLE      4   /* the VMID's tables (VMID 0: the GART) */
#define V10_GMC_FAULT_DEFAULT   5   /* a fault: the fault default page */

/* The IH client a hub's faults come from (source ID 0 for both) */
#define V10_GMC_IH_CLIENT_VMC   0x12    /* MMHUB */
#define V10_GMC_IH_CLIENT_UTCL2 0x1b    /* GFXHUB */

/* Where an access goes */
typedef struct HsaGpuV10Xlat {
    uint64_t addr;          /* a VRAM offset, or a bus address if system */
    uint64_t len;           /* bytes from addr this translation covers */
    uint64_t flags;         /* HSAGPU_PTE_SYSTEM, _SNOOPED, permissions */
    bool system;
    unsigned how;           /* V10_GMC_* */
} HsaGpuV10Xlat;

/*
 * A translation that failed: what the hub's fault registers and an IH
 * "VMC/UTCL2 page fault" entry carry (src_data[0]: addr >> 12;
 * src_data[1]: addr [47:44], 0x20 write, 0x80 retry).
 */
typedef struct HsaGpuV10Fault {
    unsigned hub;           /* V10_GFXHUB or V10_MMHUB */
    unsigned ih_client;     /* V10_GMC_IH_CLIENT_* */
    unsigned vmid;
    uint64_t addr;          /* the GPU address (48 bits) */
    unsigned reason;        /* HSAGPU_VM_REASON_* */
    unsigned fault_class;   /* V10_FAULT_CLASS_* */
    uint32_t status;        /* its VM_L2_PROTECTION_FAULT_STATUS value */
    bool write;             /* a write or an atomic */
    bool retry;             /* a retry fault: repeat the access later */
    bool interrupt;         /* the hub posts an IH entry for it */
    bool redirected;        /* the access went to the fault default page */
    bool latched;           /* now in the hub's STATUS and ADDR */
} HsaGpuV10Fault;

/* Power-on values of the hubs' registers; TLBs empty. */
void hsagpu_v10_gmc_reset(HsaGpuV10 *v);

/*
 * Translate GPU address @addr (bits 63:48 are ignored, as the hubs take
 * 48 bits) for an access of kind @access (HSAGPU_VM_ACCESS_*) by client
 * @cid (V10_GFXHUB_CID_* / V10_MMHUB_CID_*) of @hub in @vmid. Table
 * entries are read through @rd (VRAM offset or bus address).
 *
 * 0: *@x says where the access goes. Else an HSAGPU_VM_REASON_* (a bad
 * @hub or @vmid: HSAGPU_VM_REASON_CONTEXT, nothing recorded), *@f (if
 * not NULL) describes the fault, already latched in the hub's fault
 * registers as the hardware would; if @f->redirected the access goes
 * to the fault default page, *@x, else it must not be made (a retry
 * fault: made again later). The TLB is the hub's: calls on one device
 * are serialised by the caller.
 */
unsigned hsagpu_v10_gmc_translate(HsaGpuV10 *v, unsigned hub, unsigned vmid,
                                  uint64_t addr, unsigned access,
                                  unsigned cid, HsaGpuVmReadFn rd,
                                  void *opaque, HsaGpuV10Xlat *x,
                                  HsaGpuV10Fault *f);

/* An invalidation engine's request @req (VM_INVALIDATE_ENGn_REQ) */
void hsagpu_v10_gmc_invalidate(HsaGpuV10 *v, unsigned hub, uint32_t req);

/*
 * A register write to dword @dw, before the front end stores it: true
 * if it must not be stored (the fault status and address are the
 * hub's). Drops the translations the write may change.
 */
bool hsagpu_v10_gmc_write(HsaGpuV10 *v, uint32_t dw, uint32_t val);

#endif /* HW_HSAGPU_VEGA10_GMC_H */
