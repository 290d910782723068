/*
 * hsa-gpu: the peer registry and the PCIe topology around the device.
 *
 * Devices register here so that a request to a peer's VRAM BAR can be
 * routed the way a PCIe switch does it: when both devices sit below a
 * common switch, the request turns around inside the switch and never
 * reaches the root complex (nor the IOMMU). Requests between devices on
 * different root ports go upstream like any other (hsagpu-bus.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/main-loop.h"
#include "qemu/queue.h"
#include "qemu/thread.h"
#include "hw/pci/pci_bus.h"
#include "hw/pci/pcie.h"
#include "hsagpu.h"

static QemuMutex hsagpu_peers_lock;
static QLIST_HEAD(, HsaGpuState) hsagpu_peers =
    QLIST_HEAD_INITIALIZER(hsagpu_peers);
/* Devices registered (qatomic): with one, every DMA skips the lookup. */
static unsigned hsagpu_npeers;
/* Bumped by every unregister (qatomic): resolver caches are stale. */
static unsigned hsagpu_peers_gen;

static void __attribute__((constructor)) hsagpu_p2p_init(void)
{
    qemu_mutex_init(&hsagpu_peers_lock);
}

void hsagpu_p2p_register(HsaGpuState *s)
{
    qemu_mutex_lock(&hsagpu_peers_lock);
    QLIST_INSERT_HEAD(&hsagpu_peers, s, peer_link);
    qatomic_inc(&hsagpu_npeers);
    qemu_mutex_unlock(&hsagpu_peers_lock);
}

void hsagpu_p2p_unregister(HsaGpuState *s)
{
    qemu_mutex_lock(&hsagpu_peers_lock);
    QLIST_REMOVE(s, peer_link);
    qatomic_dec(&hsagpu_npeers);
    qatomic_inc(&hsagpu_peers_gen);
    qemu_mutex_unlock(&hsagpu_peers_lock);
}

unsigned hsagpu_p2p_generation(void)
{
    return qatomic_read(&hsagpu_peers_gen);
}

/*
 * A device unregisters in its exit, before QEMU frees its config space
 * and unparents it (and before the ports above it go): while the lock is
 * held and the device is listed, its config and topology are stable,
 * even for a thread without the BQL.
 */
bool hsagpu_p2p_lock_registered(HsaGpuState *peer)
{
    HsaGpuState *p;

    qemu_mutex_lock(&hsagpu_peers_lock);
    QLIST_FOREACH(p, &hsagpu_peers, peer_link) {
        if (p == peer) {
            return true;
        }
    }
    qemu_mutex_unlock(&hsagpu_peers_lock);
    return false;
}

void hsagpu_p2p_unlock(void)
{
    qemu_mutex_unlock(&hsagpu_peers_lock);
}

int hsagpu_ports_above(PCIDevice *dev, PCIDevice **ports)
{
    PCIBus *bus = pci_get_bus(dev);
    int n = 0;

    while (!pci_bus_is_root(bus) && n < HSAGPU_MAX_PORTS) {
        ports[n++] = bus->parent_dev;
        bus = pci_get_bus(bus->parent_dev);
    }
    return n;
}

/* Do @a and @b share a port above them, i.e. a switch between them? */
static bool hsagpu_common_switch(PCIDevice *a, PCIDevice *b)
{
    PCIDevice *up[HSAGPU_MAX_PORTS], *down[HSAGPU_MAX_PORTS];
    int nup = hsagpu_ports_above(a, up);
    int ndown = hsagpu_ports_above(b, down);

    return nup && ndown && up[nup - 1] == down[ndown - 1];
}

QEMU_BUILD_BUG_ON(PCI_BAR_UNMAPPED != HSAGPU_BUS_NO_BAR);

uint64_t hsagpu_vram_bar(HsaGpuState *s)
{
    return pci_get_bar_addr(PCI_DEVICE(s), HSAGPU_BAR_VRAM);
}

uint64_t hsagpu_addr_limit(HsaGpuState *s)
{
    return hsagpu_bus_addr_limit(s->params.p2p_addr_bits);
}

/* Does BAR @bar of @d lie below @s's address limit? */
static bool hsagpu_bar_reachable(HsaGpuState *s, PCIDevice *d, int bar)
{
    return hsagpu_bus_bar_below(pci_get_bar_addr(d, bar),
                                d->io_regions[bar].size,
                                hsagpu_addr_limit(s));
}

bool hsagpu_p2p_peer_ok(HsaGpuState *s, HsaGpuState *peer)
{
    return hsagpu_bar_reachable(s, PCI_DEVICE(peer), HSAGPU_BAR_VRAM);
}

uint32_t hsagpu_p2p_status(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint32_t st = 0;

    st |= hsagpu_bar_reachable(s, pdev, HSAGPU_BAR_VRAM) ?
          HSAGPU_P2P_VRAM_OK : 0;
    st |= hsagpu_bar_reachable(s, pdev, HSAGPU_BAR_DOORBELL) ?
          HSAGPU_P2P_DOORBELL_OK : 0;
    if (st == (HSAGPU_P2P_VRAM_OK | HSAGPU_P2P_DOORBELL_OK)) {
        st |= HSAGPU_P2P_OK;
    }
    return st;
}

HsaGpuState *hsagpu_p2p_switch_peer(HsaGpuState *s, uint64_t addr,
                                    uint64_t *off)
{
    HsaGpuState *p, *found = NULL;

    if (qatomic_read(&hsagpu_npeers) < 2) {
        return NULL;
    }
    qemu_mutex_lock(&hsagpu_peers_lock);
    QLIST_FOREACH(p, &hsagpu_peers, peer_link) {
        uint64_t bar = hsagpu_vram_bar(p);

        if (p != s && hsagpu_bus_in_bar(bar, p->params.vram_size, addr) &&
            hsagpu_common_switch(PCI_DEVICE(s), PCI_DEVICE(p))) {
            /* Keep it (and its VRAM) alive while the caller uses it. */
            object_ref(OBJECT(p));
            *off = addr - bar;
            found = p;
            break;
        }
    }
    qemu_mutex_unlock(&hsagpu_peers_lock);
    return found;
}
