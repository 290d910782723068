/*
 * hsa-gpu: a virtual HSA-style GPU accelerator, PCI Express endpoint.
 *
 * This file holds the QOM type, its properties and the PCI personality:
 * BAR layout (Vega-style large BAR), expansion ROM, capabilities.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/pci/pcie_aer.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "hsagpu.h"
#include "trace.h"

static bool hsagpu_check_props(HsaGpuState *s, Error **errp)
{
    const HsaGpuParams *p = &s->params;

    if (p->vram_size < HSAGPU_VRAM_SIZE_MIN ||
        p->vram_size > HSAGPU_VRAM_SIZE_MAX || !is_power_of_2(p->vram_size)) {
        error_setg(errp, "hsa-gpu: vram-size must be a power of two between "
                   "1 MiB and 64 GiB (got %" PRIu64 " bytes)", p->vram_size);
        return false;
    }
    if (p->vram_size < s->pers->vram_min) {
        error_setg(errp, "%s: vram-size must be at least %" PRIu64 " MiB "
                   "(got %" PRIu64 " bytes)", s->pers->name,
                   s->pers->vram_min >> 20, p->vram_size);
        return false;
    }
    if (p->num_queues < 1 || p->num_queues > HSAGPU_NUM_QUEUES_MAX) {
        error_setg(errp, "hsa-gpu: num-queues must be between 1 and %u "
                   "(got %u)", HSAGPU_NUM_QUEUES_MAX, p->num_queues);
        return false;
    }
    if (p->compute_units < HSAGPU_COMPUTE_UNITS_MIN ||
        p->compute_units > HSAGPU_COMPUTE_UNITS_MAX) {
        error_setg(errp, "hsa-gpu: compute-units must be between %u and %u "
                   "(got %u)", HSAGPU_COMPUTE_UNITS_MIN,
                   HSAGPU_COMPUTE_UNITS_MAX, p->compute_units);
        return false;
    }
    if (p->compute_threads > HSAGPU_COMPUTE_THREADS_MAX) {
        error_setg(errp, "hsa-gpu: compute-threads must be at most %u, or 0 "
                   "for as many as the host has CPUs (got %u)",
                   HSAGPU_COMPUTE_THREADS_MAX, p->compute_threads);
        return false;
    }
    if (p->p2p_addr_bits < HSAGPU_P2P_ADDR_BITS_MIN ||
        p->p2p_addr_bits > HSAGPU_P2P_ADDR_BITS_MAX) {
        error_setg(errp, "hsa-gpu: p2p-addr-bits must be between %u and %u "
                   "(got %u)", HSAGPU_P2P_ADDR_BITS_MIN,
                   HSAGPU_P2P_ADDR_BITS_MAX, p->p2p_addr_bits);
        return false;
    }
    if (p->vendor_id == 0xffff || p->vendor_id == 0) {
        error_setg(errp, "hsa-gpu: vendor-id 0x%04x is not a valid vendor",
                   p->vendor_id);
        return false;
    }
    return true;
}

static void hsagpu_init_ident(HsaGpuState *s)
{
    HsaGpuIdent *id = &s->ident;

    id->vendor_id = s->params.vendor_id;
    id->device_id = s->params.device_id;
    id->revision = s->params.revision;
    id->vram_size = s->params.vram_size;
    id->num_queues = s->params.num_queues;
    /* Vector 0 reports errors; each queue can have a vector of its own. */
    id->msix_vectors = MIN(s->params.num_queues + 1, HSAGPU_MSIX_VECTORS_MAX);
    id->caps = HSAGPU_CAP_ROM_INFO | HSAGPU_CAP_TIMESTAMP |
               HSAGPU_CAP_ATOMIC_ENGINE | HSAGPU_CAP_AQL_QUEUES |
               HSAGPU_CAP_DMA | HSAGPU_CAP_VM | HSAGPU_CAP_GWS;
    id->p2p_addr_bits = s->params.p2p_addr_bits;
    id->compute_units = s->params.compute_units;
    id->caps |= s->params.io_bar ? HSAGPU_CAP_IO_BAR : 0;
    id->caps |= s->params.atomic_comp32 ? HSAGPU_CAP_ATOMIC_COMP32 : 0;
    id->caps |= s->params.atomic_comp64 ? HSAGPU_CAP_ATOMIC_COMP64 : 0;
    id->caps |= s->params.atomic_comp128 ? HSAGPU_CAP_ATOMIC_COMP128 : 0;
    /* cached read alias */
    id->caps |= s->params.ralias_size ? HSAGPU_CAP_READ_ALIAS : 0;
}

static bool hsagpu_init_rom(HsaGpuState *s, Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (pdev->romfile && pdev->romfile[0]) {
        /* The user supplied an image: let QEMU's generic code load it. */
        return true;
    }
    if (!pdev->rom_bar) {
        return true;
    }
    if (!memory_region_init_rom(&s->rom, OBJECT(s), "hsa-gpu.rom",
                                HSAGPU_ROM_SIZE, errp)) {
        return false;
    }
    if (!s->pers->rom_build(s, memory_region_get_ram_ptr(&s->rom),
                            HSAGPU_ROM_SIZE, errp)) {
        return false;
    }
    pci_register_bar(pdev, PCI_ROM_SLOT, 0, &s->rom);
    return true;
}

static bool hsagpu_native_rom_build(HsaGpuState *s, uint8_t *rom,
                                    uint32_t size, Error **errp)
{
    hsagpu_rom_build(rom, size, &s->ident, "QEMU HSA GPU");
    return true;
}

/* MSI-X: its table and PBA in BAR5, every vector in use */
static int hsagpu_native_irq_init(HsaGpuState *s, Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (msix_init(pdev, s->ident.msix_vectors,
                  &s->mmio, HSAGPU_BAR_MMIO, HSAGPU_MSIX_TABLE_OFFSET,
                  &s->mmio, HSAGPU_BAR_MMIO, HSAGPU_MSIX_PBA_OFFSET,
                  HSAGPU_CAP_MSIX_OFFSET, errp) < 0) {
        return -1;
    }
    /* msix_notify() ignores vectors that are not marked in use. */
    for (unsigned i = 0; i < s->ident.msix_vectors; i++) {
        msix_vector_use(pdev, i);
    }
    return 0;
}

static void hsagpu_native_irq_exit(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (msix_present(pdev)) {
        msix_unuse_all_vectors(pdev);
        msix_uninit(pdev, &s->mmio, &s->mmio);
    }
}

const HsaGpuPersonality hsagpu_native = {
    .name = "hsa-gpu",
    .vram_min = HSAGPU_VRAM_SIZE_MIN,
    .ext_aer = HSAGPU_EXT_CAP_AER_OFFSET,
    .ext_dsn = HSAGPU_EXT_CAP_DSN_OFFSET,
    .mmio_init = hsagpu_mmio_init,
    .doorbell_init = hsagpu_doorbell_init,
    .irq_init = hsagpu_native_irq_init,
    .irq_exit = hsagpu_native_irq_exit,
    .rom_build = hsagpu_native_rom_build,
};

static int hsagpu_init_pcie(HsaGpuState *s, Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint32_t devcap2 = 0;
    int pos;

    if (pci_pm_init(pdev, HSAGPU_CAP_PM_OFFSET, errp) < 0) {
        return -1;
    }
    /* PM 1.2, D0 and D3hot; the guest may move between them. */
    pci_set_word(pdev->config + HSAGPU_CAP_PM_OFFSET + PCI_PM_PMC, 0x3);
    pci_set_word(pdev->wmask + HSAGPU_CAP_PM_OFFSET + PCI_PM_CTRL,
                 PCI_PM_CTRL_STATE_MASK);
    pos = pcie_endpoint_cap_init(pdev, HSAGPU_CAP_PCIE_OFFSET);
    if (pos < 0) {
        error_setg(errp, "hsa-gpu: cannot add the PCI Express capability");
        return -1;
    }
    pcie_cap_deverr_init(pdev);
    /* Function Level Reset: Initiate FLR resets the whole function. */
    pcie_cap_flr_init(pdev);
    if (!hsagpu_link_init(s, pos, errp)) {
        return -1;
    }

    devcap2 |= s->params.atomic_comp32 ? PCI_EXP_DEVCAP2_ATOMIC_COMP32 : 0;
    devcap2 |= s->params.atomic_comp64 ? PCI_EXP_DEVCAP2_ATOMIC_COMP64 : 0;
    devcap2 |= s->params.atomic_comp128 ? PCI_EXP_DEVCAP2_ATOMIC_COMP128 : 0;
    pci_long_test_and_set_mask(pdev->config + pos + PCI_EXP_DEVCAP2, devcap2);
    /* QEMU's default DevCtl2 write mask leaves AtomicOp Requester out. */
    pci_word_test_and_set_mask(pdev->wmask + pos + PCI_EXP_DEVCTL2,
                               PCI_EXP_DEVCTL2_ATOMIC_REQ);

    if (s->pers->irq_init(s, errp) < 0) {
        return -1;
    }
    if (s->pers->ext_vsec) {
        /* ID 1, revision 1, 16 bytes: what amdgpu looks for at 0x100 */
        pcie_add_capability(pdev, PCI_EXT_CAP_ID_VNDR, 1, s->pers->ext_vsec,
                            16);
        pci_set_long(pdev->config + s->pers->ext_vsec + 4, 1 | 1 << 16 |
                     16 << 20);
    }
    if (pcie_aer_init(pdev, PCI_ERR_VER, s->pers->ext_aer,
                      PCI_ERR_SIZEOF, errp) < 0) {
        return -1;
    }
    if (!s->params.serial) {
        /* Stable and distinct per device: derived from its QOM path. */
        g_autofree char *path = object_get_canonical_path(OBJECT(s));

        s->params.serial = 0x4853410000000000ULL | g_str_hash(path);
    }
    pcie_dev_ser_num_init(pdev, s->pers->ext_dsn, s->params.serial);
    return 0;
}

/* Undo hsagpu_init_pcie(), also when it stopped half way. */
static void hsagpu_fini_pcie(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    pcie_aer_exit(pdev);
    pdev->exp.aer_log.log = NULL;
    s->pers->irq_exit(s);
    pcie_cap_exit(pdev);
    hsagpu_link_exit(s);
}

static void hsagpu_realize(PCIDevice *pdev, Error **errp)
{
    HsaGpuState *s = HSA_GPU(pdev);
    uint8_t *c = pdev->config;

    if (!hsagpu_check_props(s, errp) || !hsagpu_link_check(s, errp) ||
        !hsagpu_vram_dir_check(s, errp)) {
        return;
    }
    s->gcn_priv.limit = s->params.gcn_private_budget;
    hsagpu_init_ident(s);
    hsagpu_vm_reset_all(s);

    pci_config_set_vendor_id(c, s->params.vendor_id);
    pci_config_set_device_id(c, s->params.device_id);
    pci_config_set_revision(c, s->params.revision);
    pci_set_word(c + PCI_SUBSYSTEM_VENDOR_ID, s->params.subsys_vendor_id);
    pci_set_word(c + PCI_SUBSYSTEM_ID, s->params.subsys_id);
    pci_config_set_interrupt_pin(c, 1);

    if (!memory_region_init_ram(&s->vram, OBJECT(s), "hsa-gpu.vram",
                                s->params.vram_size, errp)) {
        return;
    }
    s->pers->doorbell_init(s);
    s->pers->mmio_init(s);

    pci_register_bar(pdev, HSAGPU_BAR_VRAM,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->vram);
    pci_register_bar(pdev, HSAGPU_BAR_DOORBELL,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->doorbell);
    if (s->params.io_bar && s->pers == &hsagpu_native) {
        pci_register_bar(pdev, HSAGPU_BAR_IO, PCI_BASE_ADDRESS_SPACE_IO,
                         &s->io);
    }
    pci_register_bar(pdev, HSAGPU_BAR_MMIO, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_32, &s->mmio);
    /* cached read alias: BAR4 when read-alias-size is set */
    hsagpu_vram_dir_realize(s);

    s->fault.queue_hold = s->pers->queue_hold ?: hsagpu_queue_hold;
    s->fault.queue_held = s->pers->queue_held ?: hsagpu_queue_held;
    s->fault.hang_ids = s->pers->hang_ids ?: s->params.num_queues;
    s->fault.queues_fatal = hsagpu_queues_fatal;
    hsagpu_fault_init(s);
    /* On failure, undo what was set up: the user may try again. */
    if (hsagpu_init_pcie(s, errp) < 0 || !hsagpu_init_rom(s, errp) ||
        !hsagpu_queues_init(s, errp)) {
        hsagpu_fault_exit(s);
        hsagpu_fini_pcie(s);
        return;
    }
    hsagpu_p2p_register(s);
    trace_hsagpu_realize(s->params.vram_size, s->params.num_queues,
                         s->ident.msix_vectors);
}

static void hsagpu_exit(PCIDevice *pdev)
{
    HsaGpuState *s = HSA_GPU(pdev);

    s->gen++;
    hsagpu_p2p_unregister(s);
    hsagpu_queues_exit(s);
    hsagpu_fault_exit(s);
    hsagpu_fini_pcie(s);
}

static void hsagpu_reset_hold(Object *obj, ResetType type)
{
    HsaGpuState *s = HSA_GPU(obj);

    trace_hsagpu_reset();
    s->gen++;
    hsagpu_queues_reset(s);
    hsagpu_vm_reset_all(s);
    hsagpu_fault_reset(s);
    hsagpu_regs_reset(&s->regs);
    if (s->pers->reset) {
        s->pers->reset(s);
    }
    hsagpu_doorbell_reset(s);
    pcie_cap_deverr_reset(PCI_DEVICE(s));
    hsagpu_link_reset(s);
    /* cached read alias */
    hsagpu_vram_dir_reset_dev(s);
}

static void hsagpu_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                                int len)
{
    pci_default_write_config(pdev, addr, val, len);
    /*
     * Initiate FLR: pci_device_reset() runs the device reset (queues
     * destroyed, registers, errors and injections cleared) and the PCI
     * one (COMMAND, BARs, MSI-X); sticky AER status stays, as the spec
     * wants for sticky bits.
     */
    if (ranges_overlap(addr, len, pdev->exp.exp_cap + PCI_EXP_DEVCTL, 2) &&
        (pci_get_word(pdev->config + pdev->exp.exp_cap + PCI_EXP_DEVCTL) &
         PCI_EXP_DEVCTL_BCR_FLR)) {
        trace_hsagpu_flr();
    }
    pcie_cap_flr_write_config(pdev, addr, val, len);
}

static const VMStateDescription vmstate_hsagpu_regs = {
    .name = "hsa-gpu/regs",
    .version_id = 2,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(scratch, HsaGpuRegFile, 2),
        VMSTATE_UINT32(error_status, HsaGpuRegFile),
        VMSTATE_UINT32(error_int_enable, HsaGpuRegFile),
        VMSTATE_UINT32(bad_access_count, HsaGpuRegFile),
        VMSTATE_UINT32(bad_access_addr, HsaGpuRegFile),
        VMSTATE_UINT32(bad_access_info, HsaGpuRegFile),
        VMSTATE_UINT32(timestamp_hi_latch, HsaGpuRegFile),
        VMSTATE_UINT32(io_index, HsaGpuRegFile),
        VMSTATE_UINT32_ARRAY(atomic_addr, HsaGpuRegFile, 2),
        VMSTATE_UINT32_ARRAY(atomic_src0, HsaGpuRegFile, 4),
        VMSTATE_UINT32_ARRAY(atomic_src1, HsaGpuRegFile, 4),
        VMSTATE_UINT32_ARRAY(atomic_result, HsaGpuRegFile, 4),
        VMSTATE_UINT32(atomic_ctrl, HsaGpuRegFile),
        VMSTATE_UINT32(atomic_status, HsaGpuRegFile),
        VMSTATE_UINT32(atomic_repeat, HsaGpuRegFile),
        VMSTATE_UINT32_ARRAY(atomic_cnt_op, HsaGpuRegFile, 3),
        /* Outcomes up to version 2; P2P_LIMIT is sent by the device. */
        VMSTATE_UINT32_SUB_ARRAY(atomic_cnt_st, HsaGpuRegFile, 0,
                                 HSAGPU_ATOMIC_ST_P2P_LIMIT),
        VMSTATE_UINT32_ARRAY(pkt_cnt, HsaGpuRegFile, HSAGPU_PKT_CNT_COUNT),
        VMSTATE_UINT64_ARRAY_V(dma_cnt, HsaGpuRegFile,
                               HSAGPU_DMA_CLASS_COUNT * 4, 2),
        VMSTATE_UINT32_V(dma_packets, HsaGpuRegFile, 2),
        VMSTATE_UINT64_V(dma_bad_addr, HsaGpuRegFile, 2),
        VMSTATE_END_OF_LIST()
    }
};

static int hsagpu_pre_save(void *opaque)
{
    /*
     * A queue failure is not migrated on its own: fold it into
     * ERROR_STATUS, which is. No interrupt here: the destination raises
     * it after the load.
     */
    hsagpu_queues_pre_save(opaque);
    return 0;
}

static int hsagpu_post_load(void *opaque, int version_id)
{
    if (hsagpu_vm_post_load(opaque)) {
        error_report("hsa-gpu: migrated VM contexts are inconsistent");
        return -EINVAL;
    }
    return hsagpu_queues_post_load(opaque);
}

/* Versions 1 and 2 sent every doorbell's value (2 MiB), now dropped. */
static bool hsagpu_doorbells_v2(void *opaque, int version_id)
{
    return version_id <= 2;
}

static bool hsagpu_sdma_regs_needed(void *opaque)
{
    HsaGpuState *s = opaque;

    return s->regs.sdma_packets;
}

static bool hsagpu_gcn_regs_needed(void *opaque)
{
    HsaGpuState *s = opaque;

    return s->regs.gcn_insns || s->regs.gcn_waves;
}

/* The GCN interpreter's counters (older streams load without) */
static const VMStateDescription vmstate_hsagpu_gcn_regs = {
    .name = "hsa-gpu/gcn-regs",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_gcn_regs_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(regs.gcn_insns, HsaGpuState),
        VMSTATE_UINT64(regs.gcn_lane_ops, HsaGpuState),
        VMSTATE_UINT32(regs.gcn_waves, HsaGpuState),
        VMSTATE_END_OF_LIST()
    }
};

/* The SDMA packet counter, in a subsection: older streams load without. */
static const VMStateDescription vmstate_hsagpu_sdma_regs = {
    .name = "hsa-gpu/sdma-regs",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_sdma_regs_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(regs.sdma_packets, HsaGpuState),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_hsagpu = {
    .name = "hsa-gpu",
    /*
     * 2: the register file, which version 1 declared as a version-2
     * field and so never sent. A version-1 stream loads without it.
     * 3: BAR2 read-back keeps the last doorbell of each page (8 KiB)
     * instead of every doorbell; older streams load with it cleared.
     * The P2P_LIMIT AtomicOp outcome counter. (A nested struct's
     * version is not sent, so fields added to the register file are
     * versioned here.)
     */
    .version_id = 3,
    .minimum_version_id = 1,
    .pre_save = hsagpu_pre_save,
    .post_load = hsagpu_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, HsaGpuState),
        VMSTATE_MSIX(parent_obj, HsaGpuState),
        VMSTATE_STRUCT(regs, HsaGpuState, 2, vmstate_hsagpu_regs,
                       HsaGpuRegFile),
        VMSTATE_UNUSED_BUFFER(hsagpu_doorbells_v2, 0,
                              HSAGPU_DOORBELL_COUNT * sizeof(uint64_t)),
        VMSTATE_UINT32_ARRAY_V(db_last_index, HsaGpuState,
                               HSAGPU_DOORBELL_PAGES, 3),
        VMSTATE_UINT64_ARRAY_V(db_last_value, HsaGpuState,
                               HSAGPU_DOORBELL_PAGES, 3),
        VMSTATE_UINT32_V(regs.atomic_cnt_st[HSAGPU_ATOMIC_ST_P2P_LIMIT],
                         HsaGpuState, 3),
        VMSTATE_UINT32_EQUAL(nqueues_migrated, HsaGpuState, NULL),
        VMSTATE_STRUCT_VARRAY_POINTER_UINT32(queues, HsaGpuState,
                                             nqueues_migrated,
                                             vmstate_hsagpu_queue,
                                             HsaGpuQueue),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_hsagpu_pending,
        &vmstate_hsagpu_vm,
        &vmstate_hsagpu_sdma_regs,
        &vmstate_hsagpu_gcn_regs,
        /* cached read alias */
        &vmstate_hsagpu_vram_dir,
        &vmstate_hsagpu_v10,
        NULL
    }
};

static const Property hsagpu_properties[] = {
    DEFINE_PROP_SIZE("vram-size", HsaGpuState, params.vram_size,
                     HSAGPU_VRAM_SIZE_DEFAULT),
    DEFINE_PROP_UINT32("num-queues", HsaGpuState, params.num_queues,
                       HSAGPU_NUM_QUEUES_DEFAULT),
    DEFINE_PROP_UINT32("compute-units", HsaGpuState, params.compute_units,
                       HSAGPU_COMPUTE_UNITS_DEFAULT),
    DEFINE_PROP_BOOL("io-bar", HsaGpuState, params.io_bar, false),
    DEFINE_PROP_BOOL("atomic-comp32", HsaGpuState, params.atomic_comp32, true),
    DEFINE_PROP_BOOL("atomic-comp64", HsaGpuState, params.atomic_comp64, true),
    DEFINE_PROP_BOOL("atomic-comp128", HsaGpuState, params.atomic_comp128,
                     true),
    DEFINE_PROP_UINT16("vendor-id", HsaGpuState, params.vendor_id,
                       HSAGPU_PCI_VENDOR_ID),
    DEFINE_PROP_UINT16("device-id", HsaGpuState, params.device_id,
                       HSAGPU_PCI_DEVICE_ID),
    DEFINE_PROP_UINT16("subsystem-vendor-id", HsaGpuState,
                       params.subsys_vendor_id, HSAGPU_PCI_SUBSYS_VENDOR_ID),
    DEFINE_PROP_UINT16("subsystem-id", HsaGpuState, params.subsys_id,
                       HSAGPU_PCI_SUBSYS_ID),
    DEFINE_PROP_UINT8("revision", HsaGpuState, params.revision,
                      HSAGPU_PCI_REVISION),
    DEFINE_PROP_UINT64("serial", HsaGpuState, params.serial, 0),
    DEFINE_PROP_UINT32("p2p-addr-bits", HsaGpuState, params.p2p_addr_bits,
                       HSAGPU_P2P_ADDR_BITS_DEFAULT),
    DEFINE_PROP_BOOL("x-dma-zero-copy", HsaGpuState, params.dma_zero_copy,
                     true),
    /* auto: thread, or mainloop behind a vIOMMU; reads back the choice */
    DEFINE_PROP_STRING("x-processor", HsaGpuState, params.processor),
    /* Kernel and DMA slices per pass: how long qlock is held at most. */
    DEFINE_PROP_UINT32("x-pass-slices", HsaGpuState, params.pass_slices,
                       HSAGPU_PASS_SLICES),
    /* PCIe link (docs/link-model.md): what the guest sees, and the model */
    DEFINE_PROP_UINT32("max-payload", HsaGpuState, params.max_payload,
                       HSAGPU_MAX_PAYLOAD_SUPPORTED),
    DEFINE_PROP_PCIE_LINK_SPEED("link-speed", HsaGpuState, params.link_speed,
                                PCIE_LINK_SPEED_8),
    DEFINE_PROP_PCIE_LINK_WIDTH("link-width", HsaGpuState, params.link_width,
                                PCIE_LINK_WIDTH_16),
    DEFINE_PROP_BOOL("link-model", HsaGpuState, params.link_model, false),
    DEFINE_PROP_UINT32("link-port-ns", HsaGpuState, params.link_port_ns, 260),
    DEFINE_PROP_UINT32("link-switch-ns", HsaGpuState, params.link_switch_ns,
                       160),
    DEFINE_PROP_UINT32("link-host-ns", HsaGpuState, params.link_host_ns, 550),
    DEFINE_PROP_UINT32("link-host-write-ns", HsaGpuState,
                       params.link_host_write_ns, 0),
    DEFINE_PROP_UINT32("link-read-tags", HsaGpuState, params.link_read_tags, 4),
    DEFINE_PROP_UINT32("link-efficiency", HsaGpuState, params.link_efficiency,
                       952),
    /* cached read alias: BAR4 size, 0 (none) or 1 MiB..1 GiB */
    DEFINE_PROP_SIZE("read-alias-size", HsaGpuState, params.ralias_size, 0),
    DEFINE_PROP_BOOL("read-alias-prefetchable", HsaGpuState,
                     params.ralias_prefetch, false),
    /*
     * Private (scratch) memory the GCN interpreter may hold for all the
     * device's queues together, besides each workgroup's 16 MiB: a
     * guest cannot make QEMU take more (docs/isa.md)
     */
    DEFINE_PROP_SIZE("gcn-private-budget", HsaGpuState,
                     params.gcn_private_budget, 256 * MiB),
    /*
     * Host threads a dispatch's workgroups run on, the queue processor's
     * included: 0 picks the host's CPUs, at most compute-units (one with
     * x-processor=mainloop, which stays deterministic); reads back as
     * the choice
     */
    DEFINE_PROP_UINT32("compute-threads", HsaGpuState,
                       params.compute_threads, 0),
};

static void hsagpu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = hsagpu_realize;
    k->exit = hsagpu_exit;
    k->config_write = hsagpu_config_write;
    k->vendor_id = HSAGPU_PCI_VENDOR_ID;
    k->device_id = HSAGPU_PCI_DEVICE_ID;
    k->revision = HSAGPU_PCI_REVISION;
    k->class_id = HSAGPU_PCI_CLASS_CODE >> 8;
    rc->phases.hold = hsagpu_reset_hold;
    dc->desc = "HSA-style GPU accelerator (AQL queues, doorbells, atomics)";
    dc->vmsd = &vmstate_hsagpu;
    device_class_set_props(dc, hsagpu_properties);
    hsagpu_fault_class_init(klass);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static void hsagpu_instance_init(Object *obj)
{
    HsaGpuState *s = HSA_GPU(obj);

    s->pers = &hsagpu_native;
    /* How long the processor can keep qlock: a bound the tests check. */
    object_property_add_uint32_ptr(obj, "x-pass-max-slices",
                                   &s->pass_max_slices, OBJ_PROP_FLAG_READ);
    /* The most workgroup state one GCN slice cleared: bounded as well */
    object_property_add_uint64_ptr(obj, "x-gcn-slice-max-cleared",
                                   &s->gcn_slice_max_cleared,
                                   OBJ_PROP_FLAG_READ);
    object_property_add_uint64_ptr(obj, "x-gcn-private-used",
                                   &s->gcn_priv.used, OBJ_PROP_FLAG_READ);
    hsagpu_queues_instance_init(s);
    hsagpu_vm_init(s);
}

static void hsagpu_instance_finalize(Object *obj)
{
    hsagpu_queues_finalize(HSA_GPU(obj));
    hsagpu_vm_exit(HSA_GPU(obj));
    hsagpu_vram_dir_finalize(HSA_GPU(obj));
}

static const TypeInfo hsagpu_info = {
    .name = TYPE_HSA_GPU,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(HsaGpuState),
    .instance_init = hsagpu_instance_init,
    .instance_finalize = hsagpu_instance_finalize,
    .class_init = hsagpu_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void hsagpu_register_types(void)
{
    type_register_static(&hsagpu_info);
}

type_init(hsagpu_register_types)
