/*
 * hsa-gpu: the cached read alias of VRAM (BAR4) and the directory of the
 * 64-byte lines the device wrote in that window (hsagpu-vram-dir.c
 * holds the directory itself; docs/registers.md "Cached read alias").
 *
 * The alias is a plain alias of the VRAM RAM region: CPU accesses through
 * BAR0 and BAR4 are RAM accesses that never reach the device, so they
 * mark nothing, as on hardware where the directory sits in the device's
 * memory controller behind its own engines. Every device write into VRAM
 * goes through the bus resolver's release and mapping paths
 * (hsagpu-bus.c), which call hsagpu_vram_dir_mark() on the VRAM region
 * written, whoever wrote it: the owner of the region keeps the directory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "migration/vmstate.h"
#include "hsagpu.h"
#include "trace.h"

bool hsagpu_vram_dir_check(HsaGpuState *s, Error **errp)
{
    uint64_t size = s->params.ralias_size;

    if (!size) {
        return true;
    }
    if (size < HSAGPU_RALIAS_SIZE_MIN || size > HSAGPU_RALIAS_SIZE_MAX ||
        !is_power_of_2(size) || size > s->params.vram_size) {
        error_setg(errp, "hsa-gpu: read-alias-size must be 0 or a power of "
                   "two between 1 MiB and 1 GiB, at most vram-size (got %"
                   PRIu64 " bytes)", size);
        return false;
    }
    if (s->params.io_bar) {
        error_setg(errp, "hsa-gpu: read-alias-size and io-bar=on both need "
                   "BAR4; choose one");
        return false;
    }
    return true;
}

/* After hsagpu_vram_dir_check() and the VRAM region's creation. */
void hsagpu_vram_dir_realize(HsaGpuState *s)
{
    uint64_t size = s->params.ralias_size;

    hsagpu_vram_dir_finalize(s);        /* a realize tried again */
    if (!size) {
        hsagpu_vram_dir_init(&s->vdir, 0, NULL);
        return;
    }
    hsagpu_vram_dir_init(&s->vdir, size,
                         g_new0(uint64_t, size / HSAGPU_DIR_WORD_BYTES));
    memory_region_init_alias(&s->ralias, OBJECT(s), "hsa-gpu.vram-read-alias",
                             &s->vram, 0, size);
    /*
     * Below 4 GiB: BAR5 follows BAR4, so BAR4 cannot be a 64-bit pair.
     * Not prefetchable by default although reads have no side effect: a
     * 32-bit prefetchable BAR makes firmware (SeaBIOS) put the whole
     * prefetchable window of every bridge above it below 4 GiB, VRAM
     * BARs included, which many or large devices do not fit in; the
     * non-prefetchable window is below 4 GiB anyway.
     */
    pci_register_bar(PCI_DEVICE(s), HSAGPU_BAR_READ_ALIAS,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_32 |
                     (s->params.ralias_prefetch ?
                      PCI_BASE_ADDRESS_MEM_PREFETCH : 0),
                     &s->ralias);
    trace_hsagpu_vram_dir_realize(size, s->vdir.nwords);
}

/*
 * At finalize, not unrealize: a peer that is writing into this VRAM
 * holds a reference on this device, not on its realized state.
 */
void hsagpu_vram_dir_finalize(HsaGpuState *s)
{
    g_free(s->vdir.words);
    s->vdir.words = NULL;
    s->vdir.nwords = 0;
    s->vdir.size = 0;
}

void hsagpu_vram_dir_reset_dev(HsaGpuState *s)
{
    hsagpu_vram_dir_reset(&s->vdir);
}

void hsagpu_vram_dir_mark(MemoryRegion *vram, uint64_t off, uint64_t len)
{
    HsaGpuState *owner = container_of(vram, HsaGpuState, vram);

    if (owner->vdir.size && off < owner->vdir.size) {
        trace_hsagpu_vram_dir_mark(owner, off, len);
        hsagpu_vram_dir_mark_lines(&owner->vdir, off, len);
    }
}

bool hsagpu_vram_dir_mmio(uint32_t offset)
{
    return hsagpu_vram_dir_reg(offset);
}

/* Register accesses come from vCPUs under the BQL: they serialize. */
unsigned hsagpu_vram_dir_mmio_read(HsaGpuState *s, uint32_t offset,
                                   unsigned size, uint64_t *val)
{
    return hsagpu_vram_dir_reg_read(&s->vdir, offset, size, val);
}

unsigned hsagpu_vram_dir_mmio_write(HsaGpuState *s, uint32_t offset,
                                    unsigned size, uint64_t val)
{
    if (offset == HSAGPU_REG_DIR_CLEAR_COUNT ||
        offset == HSAGPU_REG_DIR_CTRL) {
        trace_hsagpu_vram_dir_clear(s->vdir.clear_first, val);
    }
    return hsagpu_vram_dir_reg_write(&s->vdir, offset, size, val);
}

static bool hsagpu_vram_dir_needed(void *opaque)
{
    HsaGpuState *s = opaque;

    return s->vdir.size != 0;
}

static int hsagpu_vram_dir_post_load(void *opaque, int version_id)
{
    HsaGpuState *s = opaque;

    return hsagpu_vram_dir_loaded_ok(&s->vdir) ? 0 : -EINVAL;
}

/* Only with the alias: the directory and its registers. */
const VMStateDescription vmstate_hsagpu_vram_dir = {
    .name = "hsa-gpu/vram-dir",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = hsagpu_vram_dir_needed,
    .post_load = hsagpu_vram_dir_post_load,
    .fields = (const VMStateField[]) {
        /* Both sides must have the same read-alias-size. */
        VMSTATE_UINT32_EQUAL(vdir.nwords, HsaGpuState, NULL),
        VMSTATE_UINT32(vdir.cursor, HsaGpuState),
        VMSTATE_UINT64(vdir.mask, HsaGpuState),
        VMSTATE_UINT32(vdir.clear_first, HsaGpuState),
        VMSTATE_VARRAY_UINT32(vdir.words, HsaGpuState, vdir.nwords, 0,
                              vmstate_info_uint64, uint64_t),
        VMSTATE_END_OF_LIST()
    }
};
