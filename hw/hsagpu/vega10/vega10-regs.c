/*
 * hsa-gpu, Vega10 personality: BAR5's register front end, independent
 * of QEMU (vega10.h says what it models, docs/vega10.md why).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "vega10.h"
#include "vega10-gmc.h"

void hsagpu_v10_init(HsaGpuV10 *v, uint64_t vram_size, uint8_t revision,
                     const HsaGpuV10Ops *ops)
{
    v->vram_size = vram_size;
    v->revision = revision;
    v->ops = *ops;
    hsagpu_v10_reset(v);
}

void hsagpu_v10_reset(HsaGpuV10 *v)
{
    uint32_t fb_top = V10_FB_LOCATION_BASE + (uint32_t)(v->vram_size >> 24)
                      - 1;

    memset(v->reg, 0, sizeof(v->reg));
    memset(v->hqd, 0, sizeof(v->hqd));
    memset(v->ring, 0, sizeof(v->ring));
    v->wptr_poll = 0;
    v->kiq_ring = V10_NUM_RINGS;
    v->msi_due = false;
    v->sdma_dirty = false;
    memset(v->sdma_running, 0, sizeof(v->sdma_running));
    memset(v->sdma_bad, 0, sizeof(v->sdma_bad));
    memset(v->sdma_load_bad, 0, sizeof(v->sdma_load_bad));
    hsagpu_v10_ih_reset(v);
    hsagpu_v10_hws_reset(v);
    v->eops = v->cp_faults = v->maps = v->unmaps = v->aql_refused = 0;
    v->kick = false;
    memset(v->sh_mem_config, 0, sizeof(v->sh_mem_config));
    memset(v->sh_mem_bases, 0, sizeof(v->sh_mem_bases));
    v->clock_latch = 0;
    v->hdp_flushes = 0;
    v->tlb_invalidations = 0;

    /*
     * What a POSTed board shows: amdgpu skips the vBIOS's AsicInit when
     * the vBIOS said it ran (BIOS_SCRATCH_7), sizes VRAM from
     * CONFIG_MEMSIZE, and reads where the frame buffer is from the hubs
     * (16 MiB units) instead of placing it.
     */
    v->reg[V10_BIOS_SCRATCH_7] = V10_S7_ASIC_INIT_COMPLETE;
    v->reg[V10_RCC_CONFIG_MEMSIZE] = v->vram_size >> 20;
    v->reg[V10_RCC_DEV0_EPF0_STRAP0] = (uint32_t)(v->revision & 0xf) << 24;
    v->reg[V10_GFXHUB_FB_LOCATION_BASE] = V10_FB_LOCATION_BASE;
    v->reg[V10_GFXHUB_FB_LOCATION_TOP] = fb_top;
    v->reg[V10_MMHUB_FB_LOCATION_BASE] = V10_FB_LOCATION_BASE;
    v->reg[V10_MMHUB_FB_LOCATION_TOP] = fb_top;
    hsagpu_v10_gmc_reset(v);
}

/* The invalidation engine register @dw belongs to: hub base, or 0 */
static uint32_t v10_inv_base(uint32_t dw)
{
    if (dw >= V10_GFXHUB_INV_ENG0_SEM &&
        dw < V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_ACK + V10_HUB_INV_ENGINES) {
        return V10_GFXHUB_INV_ENG0_SEM;
    }
    if (dw >= V10_MMHUB_INV_ENG0_SEM &&
        dw < V10_MMHUB_INV_ENG0_SEM + V10_HUB_INV_ACK + V10_HUB_INV_ENGINES) {
        return V10_MMHUB_INV_ENG0_SEM;
    }
    return 0;
}

uint32_t *hsagpu_v10_reg_slot(HsaGpuV10 *v, uint32_t dw)
{
    uint32_t cntl = v->reg[V10_GRBM_GFX_CNTL];

    if (dw >= V10_NREGS) {
        return NULL;
    }
    if (dw >= V10_HQD_FIRST && dw < V10_HQD_FIRST + V10_HQD_NREGS) {
        unsigned me = V10_GRBM_GFX_CNTL_ME(cntl);

        /* ME 1 and 2 are the MECs; ME 0's (gfx) bank is plain storage */
        if (me == 1 || me == 2) {
            return &v->hqd[V10_HQD_INDEX(me, V10_GRBM_GFX_CNTL_PIPE(cntl),
                                         V10_GRBM_GFX_CNTL_QUEUE(cntl))]
                          [dw - V10_HQD_FIRST];
        }
    }
    /* the selected MEC pipe's own INT_CNTL (ME 0's: plain storage) */
    if (dw == V10_CPC_INT_CNTL && (V10_GRBM_GFX_CNTL_ME(cntl) == 1 ||
                                   V10_GRBM_GFX_CNTL_ME(cntl) == 2)) {
        return &v->reg[V10_CP_ME1_PIPE0_INT_CNTL +
                       (V10_GRBM_GFX_CNTL_ME(cntl) - 1) * V10_MEC_PIPES +
                       V10_GRBM_GFX_CNTL_PIPE(cntl)];
    }
    if (dw == V10_SH_MEM_CONFIG) {
        return &v->sh_mem_config[V10_GRBM_GFX_CNTL_VMID(cntl)];
    }
    if (dw == V10_SH_MEM_BASES) {
        return &v->sh_mem_bases[V10_GRBM_GFX_CNTL_VMID(cntl)];
    }
    return &v->reg[dw];
}

/* MM_INDEX/MM_INDEX_HI: bit 31 set, a VRAM offset; clear, a register */
static uint32_t v10_mm_data(HsaGpuV10 *v, uint32_t *val, bool write)
{
    uint32_t index = v->reg[V10_MM_INDEX];
    uint32_t r = 0;

    if (index & 0x80000000u) {
        uint64_t off = (index & 0x7fffffffu) |
                       (uint64_t)v->reg[V10_MM_INDEX_HI] << 31;

        if (!write) {
            val = &r;
        }
        if (!v->ops.vram_rw || !v->ops.vram_rw(v->ops.opaque, off, val,
                                               write)) {
            r = 0;
        }
        return r;
    }
    /* the register window does not reach itself */
    if (index / 4 == V10_MM_INDEX || index / 4 == V10_MM_DATA ||
        index / 4 == V10_MM_INDEX_HI) {
        return 0;
    }
    if (write) {
        hsagpu_v10_write(v, index / 4, *val);
        return 0;
    }
    return hsagpu_v10_read(v, index / 4);
}

/* The MEC queue GRBM_GFX_CNTL selects, or -1 (the gfx ME's bank) */
static int v10_selected_hqd(HsaGpuV10 *v)
{
    uint32_t cntl = v->reg[V10_GRBM_GFX_CNTL];
    unsigned me = V10_GRBM_GFX_CNTL_ME(cntl);

    if (me != 1 && me != 2) {
        return -1;
    }
    return V10_HQD_INDEX(me, V10_GRBM_GFX_CNTL_PIPE(cntl),
                         V10_GRBM_GFX_CNTL_QUEUE(cntl));
}

/* Registers that start, stop or feed a CP ring (vega10-cp.c) */
static void v10_cp_trigger(HsaGpuV10 *v, uint32_t dw, uint32_t val)
{
    int hqd;

    switch (dw) {
    case V10_CP_ME_CNTL:
        /* the GFX ring runs while no micro engine is halted */
        hsagpu_v10_cp_gfx_start(v, !(val & V10_CP_ME_HALTS));
        return;
    case V10_CP_RB0_WPTR:
    case V10_CP_RB0_WPTR_HI:
        hsagpu_v10_cp_wptr(v, V10_RING_GFX,
                           (uint64_t)v->reg[V10_CP_RB0_WPTR_HI] << 32 |
                           v->reg[V10_CP_RB0_WPTR]);
        return;
    case V10_CP_PQ_WPTR_POLL_CNTL1: {
        unsigned me = V10_GRBM_GFX_CNTL_ME(v->reg[V10_GRBM_GFX_CNTL]);

        /* the queues read their write pointer at the CP's next pass */
        for (unsigned b = 0; (me == 1 || me == 2) && b < 32; b++) {
            if ((val >> b & 1) && b / V10_MEC_QUEUES < V10_MEC_PIPES) {
                v->wptr_poll |= 1ULL << V10_HQD_INDEX(me, b / V10_MEC_QUEUES,
                                                      b % V10_MEC_QUEUES);
            }
        }
        v->kick = true;
        return;
    }
    }
    hqd = v10_selected_hqd(v);
    if (hqd < 0) {
        return;
    }
    switch (dw) {
    case V10_CP_HQD_ACTIVE:
        hsagpu_v10_cp_hqd_start(v, hqd, val & 1);
        break;
    case V10_CP_HQD_DEQUEUE_REQUEST:
        /*
         * the queue stops at once: nothing runs long on a PM4 ring, and
         * an AQL queue's dispatch in flight is saved (1 drain, 3 save)
         * or dropped (2 reset waves)
         */
        if (val & 7) {
            hsagpu_v10_cp_hqd_stop(v, hqd, (val & 7) != 2);
        }
        /* done: the request is consumed, as the MQD then keeps it */
        v->hqd[hqd][V10_CP_HQD_DEQUEUE_REQUEST - V10_HQD_FIRST] = 0;
        break;
    case V10_CP_HQD_PQ_WPTR_LO:
    case V10_CP_HQD_PQ_WPTR_LO + 1:
        hsagpu_v10_cp_wptr(v, hqd,
                           (uint64_t)v->hqd[hqd][V10_CP_HQD_PQ_WPTR_LO + 1 -
                                                 V10_HQD_FIRST] << 32 |
                           v->hqd[hqd][V10_CP_HQD_PQ_WPTR_LO - V10_HQD_FIRST]);
        break;
    }
}

uint32_t hsagpu_v10_read(HsaGpuV10 *v, uint32_t dw)
{
    uint32_t *slot, val;

    if (dw >= V10_MMIO_REMAP_OFFSET / 4) {
        return 0;
    }
    /* SDMA queues: a context's idle state, where a running one is */
    if (hsagpu_v10_sdma_is_reg(dw) && hsagpu_v10_sdma_read(v, dw, &val)) {
        return val;
    }
    switch (dw) {
    case V10_MM_DATA:
        return v10_mm_data(v, NULL, false);
    case V10_PCIE_DATA:
    case V10_PCIE_DATA2:
        /* the SMN space: nothing there the driver needs back */
        return 0;
    case V10_GPU_HDP_FLUSH_DONE:
        /* a flush is done when asked: nothing is cached between */
        return v->reg[V10_GPU_HDP_FLUSH_REQ];
    case V10_SDMA0_STATUS_REG:
    case V10_SDMA0_STATUS_REG + V10_SDMA_ENGINE_STRIDE:
        /* IDLE: the engines' work runs between two register accesses */
        return 1;
    case V10_RLC_GPU_CLOCK_COUNT_LSB:
        return (uint32_t)v->clock_latch;
    case V10_RLC_GPU_CLOCK_COUNT_MSB:
        return v->clock_latch >> 32;
    }
    if (v10_inv_base(dw) && dw - v10_inv_base(dw) < V10_HUB_INV_REQ) {
        /* the semaphore is always free: reading takes it */
        return 1;
    }
    slot = hsagpu_v10_reg_slot(v, dw);
    return slot ? *slot : 0;
}

void hsagpu_v10_write(HsaGpuV10 *v, uint32_t dw, uint32_t val)
{
    uint32_t *slot, base;

    if (dw >= V10_MMIO_REMAP_OFFSET / 4) {
        /* REMAP_HDP_MEM/REG_FLUSH_CNTL's page: a flush, done at once */
        v->hdp_flushes++;
        return;
    }
    switch (dw) {
    case V10_MM_DATA:
        v10_mm_data(v, &val, true);
        return;
    case V10_PCIE_DATA:
    case V10_PCIE_DATA2:
    case V10_GRBM_STATUS:
    case V10_GRBM_STATUS2:
    case V10_RLC_SERDES_CU_MASTER_BUSY:
    case V10_RLC_SERDES_NONCU_MASTER_BUSY:
    case V10_GPU_HDP_FLUSH_DONE:
    case V10_RLC_GPU_CLOCK_COUNT_LSB:
    case V10_RLC_GPU_CLOCK_COUNT_MSB:
        /* read-only: idle, not busy, nothing to store */
        return;
    case V10_GPU_HDP_FLUSH_REQ:
        v->hdp_flushes++;
        break;
    case V10_IH_RB_CNTL:
    case V10_IH_RB_RPTR:
    case V10_IH_RB_WPTR:
        /* the IH's own rules (overflow, rearm); may owe the MSI */
        v->msi_due |= hsagpu_v10_ih_write(v, dw, val);
        return;
    case V10_RLC_SAFE_MODE:
        /* the RLC takes the request (CMD) at once */
        val &= ~1u;
        break;
    case V10_RLC_CAPTURE_GPU_CLOCK_COUNT:
        if (val & 1) {
            v->clock_latch = v->ops.clock ? v->ops.clock(v->ops.opaque) : 0;
        }
        val &= ~1u;
        break;
    case V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS:
        /* write 1 to clear: the driver's acknowledgement */
        v->reg[dw] &= ~val;
        return;
    }
    /* a VMID's PASID mapping is taken at once, and says so */
    if (dw >= V10_ATC_VMID0_PASID_MAPPING &&
        dw < V10_ATC_VMID0_PASID_MAPPING + 16) {
        v->reg[V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS] |=
            1u << (dw - V10_ATC_VMID0_PASID_MAPPING);
    } else if (dw >= V10_ATC_VMID16_PASID_MAPPING &&
               dw < V10_ATC_VMID16_PASID_MAPPING + 16) {
        v->reg[V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS] |=
            1u << (16 + dw - V10_ATC_VMID16_PASID_MAPPING);
    }
    base = v10_inv_base(dw);
    if (base && dw - base < V10_HUB_INV_REQ) {
        /* releasing the semaphore: nothing held */
        return;
    }
    if (base && dw - base < V10_HUB_INV_ACK) {
        /* an invalidation completes at once: its VMIDs acknowledge */
        v->reg[dw + V10_HUB_INV_ACK - V10_HUB_INV_REQ] =
            val & V10_HUB_INV_REQ_VMID_MASK;
        v->tlb_invalidations++;
        hsagpu_v10_gmc_invalidate(v, base == V10_MMHUB_INV_ENG0_SEM ?
                                     V10_MMHUB : V10_GFXHUB, val);
    } else if (base) {
        return;                 /* ACK is read-only */
    }
    if (hsagpu_v10_gmc_write(v, dw, val)) {
        return;
    }
    slot = hsagpu_v10_reg_slot(v, dw);
    if (!slot) {
        return;
    }
    *slot = val;
    v10_cp_trigger(v, dw, val);
    if (hsagpu_v10_sdma_is_reg(dw)) {
        v->sdma_dirty = true;
    }
}
