/*
 * hsa-gpu, Vega10 personality: the VM hubs' address translation (GMC
 * v9), independent of QEMU. vega10-gmc.h has the interface, and
 * docs/vega10.md what amdgpu programs and what is modelled.
 *
 * Both hubs have the same registers at two distances (vega10_regs.h);
 * each has its own TLBs (HsaGpuV10.hub_vm) in front of the device's one
 * page-table walker, hsagpu_vm_translate_layout().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "vega10-gmc.h"

#define V10_GMC_ADDR_MASK       ((1ULL << 48) - 1)  /* the hubs' width */
#define V10_GMC_PAGE            4096ULL
/* a PDE's address (VM_CONTEXTn_PAGE_TABLE_BASE is one): bits 47:6 */
#define V10_PDE_ADDR_MASK       0x0000ffffffffffc0ULL
#define V10_MC_FIELD_MASK       0x00ffffffu     /* FB, AGP: 16 MiB units */
#define V10_SYS_APER_MASK       0x3fffffffu     /* 256 KiB units */
#define V10_PAGE_HI_MASK        0xfu            /* page number [35:32] */

/* the layout the register decoding below relies on */
_Static_assert(V10_MMHUB_FB_OFFSET ==
               V10_GFXHUB_FB_OFFSET + V10_MMHUB_MC_DIST, "MC block");
_Static_assert(V10_MMHUB_FB_LOCATION_BASE ==
               V10_GFXHUB_FB_LOCATION_BASE + V10_MMHUB_MC_DIST, "MC block");
_Static_assert(V10_MMHUB_INV_ENG0_SEM ==
               V10_GFXHUB_INV_ENG0_SEM + V10_MMHUB_VM_DIST, "VM block");
_Static_assert(V10_GFXHUB_CONTEXT0_START_LO32 == V10_GFXHUB_CONTEXT0_BASE_LO32
               + V10_NUM_VMIDS * V10_HUB_CTX_ADDR_STRIDE, "contexts");
_Static_assert(V10_GFXHUB_CONTEXT0_END_LO32 == V10_GFXHUB_CONTEXT0_START_LO32
               + V10_NUM_VMIDS * V10_HUB_CTX_ADDR_STRIDE, "contexts");

/* @hub's copy of the GFXHUB register @dw */
static uint32_t v10_mc(unsigned hub, uint32_t dw)
{
    return dw + (hub == V10_MMHUB ? V10_MMHUB_MC_DIST : 0);
}

static uint32_t v10_vm(unsigned hub, uint32_t dw)
{
    return dw + (hub == V10_MMHUB ? V10_MMHUB_VM_DIST : 0);
}

static uint32_t v10_cntl(const HsaGpuV10 *v, unsigned hub, unsigned vmid)
{
    return v->reg[v10_vm(hub, V10_GFXHUB_CONTEXT0_CNTL +
                              vmid * V10_HUB_CTX_CNTL_STRIDE)];
}

/* A page number in a LO32/HI32 pair (36 bits) */
static uint64_t v10_page(const HsaGpuV10 *v, uint32_t lo)
{
    return v->reg[lo] | (uint64_t)(v->reg[lo + 1] & V10_PAGE_HI_MASK) << 32;
}

/* VRAM's physical address: what local addresses in entries count from */
static uint64_t v10_fb_offset(const HsaGpuV10 *v, unsigned hub)
{
    return (uint64_t)(v->reg[v10_mc(hub, V10_GFXHUB_FB_OFFSET)] &
                      V10_MC_FIELD_MASK) << 24;
}

void hsagpu_v10_gmc_reset(HsaGpuV10 *v)
{
    unsigned hub, vmid;

    /*
     * amdgpu read-modify-writes these: VMID 0's fault enables, for one,
     * are the power-on value's (gc_9_0_default.h).
     */
    for (hub = 0; hub < V10_NUM_HUBS; hub++) {
        for (vmid = 0; vmid < V10_NUM_VMIDS; vmid++) {
            v->reg[v10_vm(hub, V10_GFXHUB_CONTEXT0_CNTL +
                               vmid * V10_HUB_CTX_CNTL_STRIDE)] =
                V10_CTX_CNTL_RESET;
        }
        v->reg[v10_vm(hub, V10_GFXHUB_FAULT_CNTL)] = V10_FAULT_CNTL_RESET;
        v->reg[v10_vm(hub, V10_GFXHUB_FAULT_CNTL2)] = V10_FAULT_CNTL2_RESET;
        hsagpu_vm_reset(&v->hub_vm[hub], v->vram_size);
    }
}

/*
 * VMID 0's physical apertures (amdgpu programs them alike in both
 * hubs). Inside the system aperture an address is in the FB aperture
 * (VRAM), else in the AGP aperture (a bus address), else in neither:
 * the default page, a physical VRAM page. Outside it the GART
 * translates. 1: translated, 0: outside, -1: the default page is not in
 * VRAM.
 */
static int v10_gmc_aperture(const HsaGpuV10 *v, unsigned hub, uint64_t a,
                            HsaGpuV10Xlat *x)
{
    const uint32_t *r = v->reg + v10_mc(hub, 0);
    uint64_t sys_lo = (uint64_t)(r[V10_GFXHUB_SYSTEM_APERTURE_LOW] &
                                 V10_SYS_APER_MASK) << 18;
    uint64_t sys_hi = (uint64_t)(r[V10_GFXHUB_SYSTEM_APERTURE_HIGH] &
                                 V10_SYS_APER_MASK) << 18 | 0x3ffff;
    uint64_t fb_lo = (uint64_t)(r[V10_GFXHUB_FB_LOCATION_BASE] &
                                V10_MC_FIELD_MASK) << 24;
    uint64_t fb_hi = (uint64_t)(r[V10_GFXHUB_FB_LOCATION_TOP] &
                                V10_MC_FIELD_MASK) << 24 | 0xffffff;
    uint64_t agp_lo = (uint64_t)(r[V10_GFXHUB_AGP_BOT] &
                                 V10_MC_FIELD_MASK) << 24;
    uint64_t agp_hi = (uint64_t)(r[V10_GFXHUB_AGP_TOP] &
                                 V10_MC_FIELD_MASK) << 24 | 0xffffff;
    uint64_t agp_base = (uint64_t)(r[V10_GFXHUB_AGP_BASE] &
                                   V10_MC_FIELD_MASK) << 24;
    uint64_t fb_offset = v10_fb_offset(v, hub), pa;

    if (a < sys_lo || a > sys_hi) {
        return 0;
    }
    x->flags = HSAGPU_PTE_READABLE | HSAGPU_PTE_WRITEABLE |
               HSAGPU_PTE_EXECUTABLE;
    /* FB_OFFSET is added to reach the physical page, and taken off again */
    if (a >= fb_lo && a <= fb_hi && a - fb_lo < v->vram_size) {
        x->addr = a - fb_lo;
        x->len = MIN(MIN(fb_hi, sys_hi) - a + 1, v->vram_size - x->addr);
        x->how = V10_GMC_FB;
        return 1;
    }
    if (a >= agp_lo && a <= agp_hi) {
        x->addr = a - agp_lo + agp_base;
        x->len = MIN(agp_hi, sys_hi) - a + 1;
        x->system = true;
        x->flags |= HSAGPU_PTE_SYSTEM;
        x->how = V10_GMC_AGP;
        return 1;
    }
    pa = (uint64_t)r[V10_GFXHUB_SYSTEM_DEFAULT_LSB] << 12 |
         (uint64_t)(r[V10_GFXHUB_SYSTEM_DEFAULT_MSB] & V10_PAGE_HI_MASK) << 44;
    if (pa < fb_offset || pa - fb_offset >= v->vram_size) {
        x->flags = 0;
        return -1;
    }
    x->addr = pa - fb_offset + (a & (V10_GMC_PAGE - 1));
    x->len = V10_GMC_PAGE - (a & (V10_GMC_PAGE - 1));
    x->how = V10_GMC_SYSTEM_DEFAULT;
    return 1;
}

/*
 * Walk @vmid's tables. VM_CONTEXTn_CNTL gives the depth and block size,
 * START/END the range (table indices count from START: the flat GART
 * needs it; amdgpu's other contexts start at 0), PAGE_TABLE_BASE the
 * root as a PDE: its address, SYSTEM and VALID bits.
 */
static unsigned v10_gmc_walk(HsaGpuV10 *v, unsigned hub, unsigned vmid,
                             uint64_t a, unsigned access, HsaGpuVmReadFn rd,
                             void *opaque, HsaGpuVmXlat *px, int *level)
{
    uint32_t n = vmid * V10_HUB_CTX_ADDR_STRIDE;
    uint32_t cntl = v10_cntl(v, hub, vmid);
    uint64_t base =
        v->reg[v10_vm(hub, V10_GFXHUB_CONTEXT0_BASE_LO32 + n)] |
        (uint64_t)v->reg[v10_vm(hub, V10_GFXHUB_CONTEXT0_BASE_HI32 + n)] << 32;
    HsaGpuVmLayout l;

    if (!(cntl & V10_CTX_CNTL_ENABLE)) {
        return HSAGPU_VM_REASON_CONTEXT;
    }
    l = (HsaGpuVmLayout) {
        .root = base & V10_PDE_ADDR_MASK,
        .root_system = base & HSAGPU_PTE_SYSTEM,
        .depth = (cntl & V10_CTX_CNTL_DEPTH_MASK) >> V10_CTX_CNTL_DEPTH_SHIFT,
        .block_size = (cntl & V10_CTX_CNTL_BLOCK_SIZE_MASK) >>
                      V10_CTX_CNTL_BLOCK_SIZE_SHIFT,
        .start = v10_page(v, v10_vm(hub, V10_GFXHUB_CONTEXT0_START_LO32 + n)),
        .end = v10_page(v, v10_vm(hub, V10_GFXHUB_CONTEXT0_END_LO32 + n)),
        .dir_mask = V10_PDE_ADDR_MASK,
        .local_base = v10_fb_offset(v, hub),
        .large_any_base = true,
    };
    l.index_base = l.start;
    if (!(base & HSAGPU_PTE_VALID)) {
        /* an invalid root PDE: nothing in range is present */
        if (a >> 12 < l.start || a >> 12 > l.end) {
            return HSAGPU_VM_REASON_RANGE;
        }
        *level = l.depth;
        return HSAGPU_VM_REASON_NOT_PRESENT;
    }
    return hsagpu_vm_translate_layout(&v->hub_vm[hub], vmid, &l, a, access,
                                      true, rd, opaque, px, level);
}

/* The permissions a PTE with @flags lacks for @access: status bits */
static uint32_t v10_gmc_perm_missing(uint64_t flags, unsigned access)
{
    uint32_t st = 0;

    if (access == HSAGPU_VM_ACCESS_EXECUTE) {
        return flags & HSAGPU_PTE_EXECUTABLE ? 0
                                             : V10_FAULT_STATUS_PERM_EXECUTE;
    }
    if (access != HSAGPU_VM_ACCESS_WRITE && !(flags & HSAGPU_PTE_READABLE)) {
        st |= V10_FAULT_STATUS_PERM_READ;
    }
    if (access != HSAGPU_VM_ACCESS_READ && !(flags & HSAGPU_PTE_WRITEABLE)) {
        st |= V10_FAULT_STATUS_PERM_WRITE;
    }
    return st;
}

/* VM_L2_PROTECTION_FAULT_CNTL's default-page enable of a fault class */
static uint32_t v10_gmc_l2_default(unsigned fault_class, int level)
{
    switch (fault_class) {
    case V10_FAULT_CLASS_RANGE:
        return V10_FAULT_CNTL_RANGE_DEFAULT;
    case V10_FAULT_CLASS_PDE0:
        /* PDE0 is the lowest directory (level 1), PDE2 the highest */
        return V10_FAULT_CNTL_PDE0_DEFAULT << (level - 1);
    case V10_FAULT_CLASS_VALID:
        return V10_FAULT_CNTL_VALID_DEFAULT;
    case V10_FAULT_CLASS_READ:
        return V10_FAULT_CNTL_READ_DEFAULT;
    case V10_FAULT_CLASS_WRITE:
        return V10_FAULT_CNTL_WRITE_DEFAULT;
    default:
        return V10_FAULT_CNTL_EXECUTE_DEFAULT;
    }
}

static void v10_gmc_clear_fault(HsaGpuV10 *v, unsigned hub)
{
    v->reg[v10_vm(hub, V10_GFXHUB_FAULT_STATUS)] = 0;
    v->reg[v10_vm(hub, V10_GFXHUB_FAULT_ADDR_LO32)] = 0;
    v->reg[v10_vm(hub, V10_GFXHUB_FAULT_ADDR_HI32)] = 0;
}

/*
 * A translation failed for @reason at table level @level (-1: not in a
 * table). Class it, latch it, decide on the interrupt, the retry and
 * the default page as @vmid's VM_CONTEXTn_CNTL and the hub's
 * VM_L2_PROTECTION_FAULT_CNTL(2) say.
 */
static unsigned v10_gmc_fault(HsaGpuV10 *v, unsigned hub, unsigned vmid,
                              uint64_t a, unsigned access, unsigned cid,
                              unsigned reason, int level,
                              const HsaGpuVmXlat *px, HsaGpuV10Xlat *x,
                              HsaGpuV10Fault *f)
{
    uint32_t cntl = v10_cntl(v, hub, vmid);
    uint32_t fcntl = v->reg[v10_vm(hub, V10_GFXHUB_FAULT_CNTL)];
    uint32_t fcntl2 = v->reg[v10_vm(hub, V10_GFXHUB_FAULT_CNTL2)];
    uint32_t *status = &v->reg[v10_vm(hub, V10_GFXHUB_FAULT_STATUS)];
    uint32_t st = 0;
    unsigned fc;
    bool cid_int;

    /* Every status has a reason bit: 0 means nothing is latched. */
    switch (reason) {
    case HSAGPU_VM_REASON_PERMISSION:
        st = v10_gmc_perm_missing(px->flags, access);
        fc = st & V10_FAULT_STATUS_PERM_EXECUTE ? V10_FAULT_CLASS_EXECUTE :
             st & V10_FAULT_STATUS_PERM_WRITE ? V10_FAULT_CLASS_WRITE :
             V10_FAULT_CLASS_READ;
        break;
    case HSAGPU_VM_REASON_NOT_PRESENT:
        st = V10_FAULT_STATUS_PERM_VALID;
        fc = level > 0 ? V10_FAULT_CLASS_PDE0 : V10_FAULT_CLASS_VALID;
        break;
    case HSAGPU_VM_REASON_WALK:
    case HSAGPU_VM_REASON_BAD_ENTRY:
        /* 1: a table was not readable; 2: an entry made no sense */
        st = (reason == HSAGPU_VM_REASON_WALK ? 1u : 2u) <<
             V10_FAULT_STATUS_WALKER_SHIFT;
        fc = level > 0 ? V10_FAULT_CLASS_PDE0 : V10_FAULT_CLASS_VALID;
        break;
    default:
        /* outside the range, the context disabled, no default page */
        st = V10_FAULT_STATUS_MAPPING_ERROR;
        fc = V10_FAULT_CLASS_RANGE;
        break;
    }
    st |= (uint32_t)cid << V10_FAULT_STATUS_CID_SHIFT &
          V10_FAULT_STATUS_CID_MASK;
    st |= vmid << V10_FAULT_STATUS_VMID_SHIFT & V10_FAULT_STATUS_VMID_MASK;
    if (access == HSAGPU_VM_ACCESS_WRITE || access == HSAGPU_VM_ACCESS_ATOMIC) {
        st |= V10_FAULT_STATUS_RW;
        f->write = true;
    }
    if (access == HSAGPU_VM_ACCESS_ATOMIC) {
        st |= V10_FAULT_STATUS_ATOMIC;
    }

    f->hub = hub;
    f->ih_client = hub == V10_MMHUB ? V10_GMC_IH_CLIENT_VMC
                                    : V10_GMC_IH_CLIENT_UTCL2;
    f->vmid = vmid;
    f->addr = a;
    f->reason = reason;
    f->fault_class = fc;
    f->status = st;
    f->retry = reason == HSAGPU_VM_REASON_NOT_PRESENT ||
               reason == HSAGPU_VM_REASON_PERMISSION ?
               !!(cntl & V10_CTX_CNTL_RETRY_PERM_INVALID) :
               !!(cntl & V10_CTX_CNTL_RETRY_OTHER);
    cid_int = cid < 16 ? fcntl >> (V10_FAULT_CNTL_CID_INT_SHIFT + cid) & 1
                       : !!(fcntl & V10_FAULT_CNTL_OTHER_CID_INT);
    f->interrupt = (cntl & V10_CTX_CNTL_INT(fc)) &&
                   (f->retry ? !!(fcntl2 & V10_FAULT_CNTL2_RETRY_INT)
                             : cid_int);
    if (f->retry) {
        /* repeated until the tables change: the driver learns it from IH */
        return reason;
    }

    if (*status == 0 || (fcntl & V10_FAULT_CNTL_ALLOW_UPDATES)) {
        *status = st | (*status ? V10_FAULT_STATUS_MORE_FAULTS : 0);
        v->reg[v10_vm(hub, V10_GFXHUB_FAULT_ADDR_LO32)] = a >> 12;
        v->reg[v10_vm(hub, V10_GFXHUB_FAULT_ADDR_HI32)] = a >> 44 &
                                                          V10_PAGE_HI_MASK;
        f->latched = true;
    } else {
        *status |= V10_FAULT_STATUS_MORE_FAULTS;
    }

    if ((cntl & V10_CTX_CNTL_DEFAULT(fc)) &&
        (fcntl & v10_gmc_l2_default(fc, level))) {
        /* amdgpu puts its dummy page there: a system page's bus address */
        uint64_t page = v->reg[v10_vm(hub, V10_GFXHUB_FAULT_DEFAULT_LO32)] |
            (uint64_t)(v->reg[v10_vm(hub, V10_GFXHUB_FAULT_DEFAULT_HI32)] &
                       V10_PAGE_HI_MASK) << 32;

        x->addr = page << 12 | (a & (V10_GMC_PAGE - 1));
        x->len = V10_GMC_PAGE - (a & (V10_GMC_PAGE - 1));
        x->system = true;
        x->flags = HSAGPU_PTE_SYSTEM | HSAGPU_PTE_READABLE |
                   HSAGPU_PTE_WRITEABLE | HSAGPU_PTE_EXECUTABLE;
        x->how = V10_GMC_FAULT_DEFAULT;
        f->redirected = true;
    }
    return reason;
}

unsigned hsagpu_v10_gmc_translate(HsaGpuV10 *v, unsigned hub, unsigned vmid,
                                  uint64_t addr, unsigned access,
                                  unsigned cid, HsaGpuVmReadFn rd,
                                  void *opaque, HsaGpuV10Xlat *x,
                                  HsaGpuV10Fault *f)
{
    HsaGpuV10Fault scratch;
    HsaGpuVmXlat px = { 0 };
    uint64_t a = addr & V10_GMC_ADDR_MASK;
    unsigned reason;
    int level = -1;

    memset(x, 0, sizeof(*x));
    if (!f) {
        f = &scratch;
    }
    memset(f, 0, sizeof(*f));
    if (hub >= V10_NUM_HUBS || vmid >= V10_NUM_VMIDS) {
        return HSAGPU_VM_REASON_CONTEXT;
    }
    /* The apertures are the kernel's context's only (VMID 0). */
    switch (vmid ? 0 : v10_gmc_aperture(v, hub, a, x)) {
    case 1:
        return 0;
    case -1:
        reason = HSAGPU_VM_REASON_RANGE;
        break;
    default:
        reason = v10_gmc_walk(v, hub, vmid, a, access, rd, opaque, &px,
                              &level);
        if (reason == HSAGPU_VM_REASON_RANGE ||
            reason == HSAGPU_VM_REASON_CONTEXT) {
            level = -1;
        }
        break;
    }
    if (!reason) {
        x->addr = px.pa + (a - px.va);
        x->len = px.va + px.size - a;
        x->flags = px.flags;
        x->system = px.flags & HSAGPU_PTE_SYSTEM;
        x->how = V10_GMC_PAGE_TABLE;
        return 0;
    }
    return v10_gmc_fault(v, hub, vmid, a, access, cid, reason, level, &px, x,
                         f);
}

void hsagpu_v10_gmc_invalidate(HsaGpuV10 *v, unsigned hub, uint32_t req)
{
    if (hub >= V10_NUM_HUBS) {
        return;
    }
    hsagpu_vm_flush(&v->hub_vm[hub], req & V10_HUB_INV_REQ_VMID_MASK);
    v->hub_vm[hub].invalidations++;
    if (req & V10_HUB_INV_REQ_CLEAR_FAULT) {
        v10_gmc_clear_fault(v, hub);
    }
}

bool hsagpu_v10_gmc_write(HsaGpuV10 *v, uint32_t dw, uint32_t val)
{
    unsigned hub;

    for (hub = 0; hub < V10_NUM_HUBS; hub++) {
        uint32_t cntl0 = v10_vm(hub, V10_GFXHUB_CONTEXT0_CNTL);
        uint32_t base0 = v10_vm(hub, V10_GFXHUB_CONTEXT0_BASE_LO32);
        uint32_t nctx = V10_NUM_VMIDS * V10_HUB_CTX_ADDR_STRIDE;
        HsaGpuVm *t = &v->hub_vm[hub];

        if (dw == v10_vm(hub, V10_GFXHUB_FAULT_STATUS) ||
            dw == v10_vm(hub, V10_GFXHUB_FAULT_ADDR_LO32) ||
            dw == v10_vm(hub, V10_GFXHUB_FAULT_ADDR_HI32)) {
            return true;        /* the hub latches them */
        }
        if (dw == v10_vm(hub, V10_GFXHUB_FAULT_CNTL)) {
            /* amdgpu's handler clears the latch this way (and leaves 1) */
            if (val & V10_FAULT_CNTL_CLEAR) {
                v10_gmc_clear_fault(v, hub);
            }
            return false;
        }
        /* a new context must not see old translations */
        if (dw >= cntl0 &&
            dw < cntl0 + V10_NUM_VMIDS * V10_HUB_CTX_CNTL_STRIDE) {
            hsagpu_vm_flush(t, 1u << ((dw - cntl0) /
                                      V10_HUB_CTX_CNTL_STRIDE));
            return false;
        }
        if (dw >= base0 && dw < base0 + 3 * nctx) {
            hsagpu_vm_flush(t, 1u << ((dw - base0) % nctx /
                                      V10_HUB_CTX_ADDR_STRIDE));
            return false;
        }
        if (dw == v10_mc(hub, V10_GFXHUB_FB_OFFSET)) {
            hsagpu_vm_flush(t, (1u << V10_NUM_VMIDS) - 1);
            return false;
        }
    }
    return false;
}
