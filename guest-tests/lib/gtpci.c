// SPDX-License-Identifier: GPL-2.0-or-later
/* PCI helpers of the guest tests: see gtpci.h. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt.h"
#include "gtpci.h"

#define GTPCI_CAP_GUARD 48      /* a capability list longer than this loops */

static int cfg_open(const char *pci, int flags)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", pci);
	return open(path, flags);
}

int gtpci_cfg_read(const char *pci, int off, void *v, int len)
{
	int fd = cfg_open(pci, O_RDONLY), r;

	if (fd < 0)
		return -1;
	r = pread(fd, v, len, off);
	close(fd);
	return r == len ? 0 : -1;
}

int gtpci_cfg_write(const char *pci, int off, const void *v, int len)
{
	int fd = cfg_open(pci, O_RDWR), r;

	if (fd < 0)
		return -1;
	r = pwrite(fd, v, len, off);
	close(fd);
	return r == len ? 0 : -1;
}

uint16_t gtpci_cfg_read16(const char *pci, int off)
{
	uint16_t v = 0;

	gtpci_cfg_read(pci, off, &v, sizeof(v));
	return v;
}

int gtpci_cfg_write16(const char *pci, int off, uint16_t v)
{
	return gtpci_cfg_write(pci, off, &v, sizeof(v));
}

int gtpci_cap(const char *pci, int id)
{
	uint8_t cfg[256];
	int pos, guard = GTPCI_CAP_GUARD;

	if (gtpci_cfg_read(pci, 0, cfg, sizeof(cfg)) ||
	    !(cfg[PCI_STATUS] & PCI_STATUS_CAP_LIST))
		return 0;
	for (pos = cfg[PCI_CAPABILITY_LIST] & ~3; pos && guard--;
	     pos = cfg[pos + PCI_CAP_LIST_NEXT] & ~3)
		if (cfg[pos + PCI_CAP_LIST_ID] == id)
			return pos;
	return 0;
}

int gtpci_ext_cap(const char *pci, int id)
{
	uint32_t hdr;
	int pos = PCI_CFG_SPACE_SIZE, guard = GTPCI_CAP_GUARD;

	while (pos >= PCI_CFG_SPACE_SIZE && guard--) {
		if (gtpci_cfg_read(pci, pos, &hdr, sizeof(hdr)) || !hdr)
			return 0;
		if (PCI_EXT_CAP_ID(hdr) == id)
			return pos;
		pos = PCI_EXT_CAP_NEXT(hdr);
	}
	return 0;
}

int gtpci_exp_cap(const char *pci)
{
	return gtpci_cap(pci, PCI_CAP_ID_EXP);
}

int gtpci_port_type(const char *pci)
{
	int cap = gtpci_exp_cap(pci);

	if (!cap)
		return -1;
	return (gtpci_cfg_read16(pci, cap + PCI_EXP_FLAGS) & PCI_EXP_FLAGS_TYPE) >> 4;
}

uint16_t gtpci_devctl(const char *pci)
{
	int cap = gtpci_exp_cap(pci);

	return cap ? gtpci_cfg_read16(pci, cap + PCI_EXP_DEVCTL) : 0;
}

uint16_t gtpci_devctl2(const char *pci)
{
	int cap = gtpci_exp_cap(pci);

	return cap ? gtpci_cfg_read16(pci, cap + PCI_EXP_DEVCTL2) : 0;
}

uint32_t gtpci_devctl_mps(uint16_t devctl)
{
	return 128U << ((devctl & PCI_EXP_DEVCTL_PAYLOAD) >> 5);
}

uint32_t gtpci_devctl_mrrs(uint16_t devctl)
{
	return 128U << ((devctl & PCI_EXP_DEVCTL_READRQ) >> 12);
}

int gtpci_set_devctl(const char *pci, uint16_t val)
{
	int ret = gt_sh("setpci -s %s CAP_EXP+%x.w=%04x", pci, PCI_EXP_DEVCTL, val);

	CHECK(ret == 0, "setpci -s %s CAP_EXP+%x.w=%04x: exit %d", pci,
	      PCI_EXP_DEVCTL, val, ret);
	CHECK(gtpci_devctl(pci) == val, "%s DevCtl 0x%04x after writing 0x%04x",
	      pci, gtpci_devctl(pci), val);
	return ret;
}

int gtpci_set_devctl2(const char *pci, uint16_t val)
{
	int cap = gtpci_exp_cap(pci);

	return cap ? gtpci_cfg_write16(pci, cap + PCI_EXP_DEVCTL2, val) : -1;
}

int gtpci_bar(const char *pci, int bar, uint64_t *addr, uint64_t *size)
{
	char path[96], line[128];
	unsigned long long s, e, f;
	FILE *fp;
	int i = 0, ret = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource", pci);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		if (i++ != bar)
			continue;
		if (sscanf(line, "%llx %llx %llx", &s, &e, &f) == 3 && e > s) {
			*addr = s;
			*size = e - s + 1;
			ret = 0;
		}
		break;
	}
	fclose(fp);
	return ret;
}

int gtpci_iommu_group(const char *pci)
{
	char path[96], link[256];
	ssize_t n;
	const char *p;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group", pci);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = 0;
	p = strrchr(link, '/');
	return p ? atoi(p + 1) : -1;
}
