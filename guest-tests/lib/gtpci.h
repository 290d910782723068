/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI helpers of the guest tests: config space through sysfs
 * (/sys/bus/pci/devices/<bdf>/config), the capability walks, PCIe
 * Device Control / Device Control 2, port type, BAR bus addresses and
 * IOMMU groups. Offsets and bits are <linux/pci_regs.h>'s.
 */
#ifndef HSAGPU_GTPCI_H
#define HSAGPU_GTPCI_H

#include <stdint.h>
#include <linux/pci_regs.h>

/* Read/write @len bytes of @pci's config space at @off; 0 or -1. */
int gtpci_cfg_read(const char *pci, int off, void *v, int len);
int gtpci_cfg_write(const char *pci, int off, const void *v, int len);
/* 16-bit read (0 when unreadable) and write (0 or -1). */
uint16_t gtpci_cfg_read16(const char *pci, int off);
int gtpci_cfg_write16(const char *pci, int off, uint16_t v);

/* Offset of capability @id (PCI_CAP_ID_*), or 0. */
int gtpci_cap(const char *pci, int id);
/* Offset of extended capability @id (PCI_EXT_CAP_ID_*), or 0. */
int gtpci_ext_cap(const char *pci, int id);
/* Offset of the PCI Express capability, or 0. */
int gtpci_exp_cap(const char *pci);
/* PCIe port type (PCI_EXP_TYPE_*), or -1. */
int gtpci_port_type(const char *pci);

/* Device Control and Device Control 2 (0 without a PCIe capability). */
uint16_t gtpci_devctl(const char *pci);
uint16_t gtpci_devctl2(const char *pci);
/* Max Payload Size / Max Read Request Size in bytes from a DevCtl value. */
uint32_t gtpci_devctl_mps(uint16_t devctl);
uint32_t gtpci_devctl_mrrs(uint16_t devctl);
/* Write DevCtl with setpci and CHECK that it reads back; setpci's status. */
int gtpci_set_devctl(const char *pci, uint16_t val);
/* Write DevCtl2 through sysfs; 0 or -1. */
int gtpci_set_devctl2(const char *pci, uint16_t val);

/* Bus address and size of BAR @bar from sysfs "resource"; 0 or -1. */
int gtpci_bar(const char *pci, int bar, uint64_t *addr, uint64_t *size);
/* IOMMU group number, or -1 without one. */
int gtpci_iommu_group(const char *pci);

#endif
