/*
 * hsa-gpu: the device's memory accesses (bus master reads and writes).
 *
 * Everything goes through the device's PCI bus-master address space, so
 * that a virtual IOMMU translates it and bus mastering can be refused.
 * Only RAM is accessed (guest memory or a RAM BAR such as a peer's VRAM),
 * through zero-copy mappings: the queue processor thread runs without the
 * BQL and must never dispatch into MMIO handlers, which would take it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/rcu.h"
#include "exec/memory.h"
#include "hsagpu.h"

int hsagpu_dma_rw(HsaGpuState *s, uint64_t addr, void *buf, uint64_t len,
                  bool is_write)
{
    AddressSpace *as = &PCI_DEVICE(s)->bus_master_as;
    uint8_t *p = buf;

    RCU_READ_LOCK_GUARD();
    while (len) {
        hwaddr xlat, l = len;
        MemoryRegion *mr;
        void *host;

        if (addr + len < addr) {
            return -1;
        }
        mr = address_space_translate(as, addr, &xlat, &l, is_write,
                                     MEMTXATTRS_UNSPECIFIED);
        if (!l || !memory_access_is_direct(mr, is_write,
                                           MEMTXATTRS_UNSPECIFIED)) {
            return -1;
        }
        host = address_space_map(as, addr, &l, is_write,
                                  MEMTXATTRS_UNSPECIFIED);
        if (!host) {
            return -1;
        }
        if (is_write) {
            memcpy(host, p, l);
        } else {
            memcpy(p, host, l);
        }
        address_space_unmap(as, host, l, is_write, l);
        p += l;
        addr += l;
        len -= l;
    }
    return 0;
}

bool hsagpu_dma_is_memory(HsaGpuState *s, uint64_t addr, uint64_t len,
                          bool is_write)
{
    AddressSpace *as = &PCI_DEVICE(s)->bus_master_as;

    RCU_READ_LOCK_GUARD();
    while (len) {
        hwaddr xlat, l = len;
        MemoryRegion *mr;

        if (addr + len < addr) {
            return false;
        }
        mr = address_space_translate(as, addr, &xlat, &l, is_write,
                                     MEMTXATTRS_UNSPECIFIED);
        if (!l || !memory_access_is_direct(mr, is_write,
                                           MEMTXATTRS_UNSPECIFIED)) {
            return false;
        }
        addr += l;
        len -= l;
    }
    return true;
}
