/*
 * hsa-gpu: PCIe link settings the device obeys. Max Payload Size and Max
 * Read Request Size (Device Control) size the DMA engine's TLPs; this is
 * where a link timing model (width, speed, credits) would go.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "hw/pci/pcie.h"
#include "hsagpu.h"

static uint16_t hsagpu_devctl(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    return pdev->exp.exp_cap ?
           pci_get_word(pdev->config + pdev->exp.exp_cap + PCI_EXP_DEVCTL) : 0;
}

/*
 * Max Payload Size supported, and the guest may program MPS and MRRS
 * (QEMU leaves both read-only by default); the DMA engine sizes its TLPs
 * from them.
 */
void hsagpu_link_init(HsaGpuState *s, int exp_pos)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    pci_long_test_and_set_mask(pdev->config + exp_pos + PCI_EXP_DEVCAP,
                               ctz32(HSAGPU_MAX_PAYLOAD_SUPPORTED / 128));
    pci_word_test_and_set_mask(pdev->wmask + exp_pos + PCI_EXP_DEVCTL,
                               PCI_EXP_DEVCTL_PAYLOAD | PCI_EXP_DEVCTL_READRQ);
    hsagpu_link_reset(s);
}

/* DevCtl MPS 128 B, MRRS 512 B: the values the spec gives at reset. */
void hsagpu_link_reset(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint8_t *devctl = pdev->config + pdev->exp.exp_cap + PCI_EXP_DEVCTL;

    pci_word_test_and_clear_mask(devctl, PCI_EXP_DEVCTL_PAYLOAD |
                                 PCI_EXP_DEVCTL_READRQ);
    pci_word_test_and_set_mask(devctl, PCI_EXP_DEVCTL_READRQ_512B);
}

uint32_t hsagpu_link_mps(HsaGpuState *s)
{
    uint32_t mps = 128U << ((hsagpu_devctl(s) & PCI_EXP_DEVCTL_PAYLOAD) >> 5);

    /* Above what DevCap offers is a misconfiguration: do what we can. */
    return MIN(mps, HSAGPU_MAX_PAYLOAD_SUPPORTED);
}

uint32_t hsagpu_link_mrrs(HsaGpuState *s)
{
    uint32_t mrrs = 128U << ((hsagpu_devctl(s) & PCI_EXP_DEVCTL_READRQ) >> 12);

    return MIN(mrrs, 4096U);
}
