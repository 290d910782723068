// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BARs from user space through sysfs: the BAR5 identification registers,
 * scratch registers, bad-access reporting, the doorbell aperture and VRAM.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gt.h"

static volatile uint32_t *regs;

static uint32_t rd(uint32_t off)
{
	return regs[off / 4];
}

static void wr(uint32_t off, uint32_t v)
{
	regs[off / 4] = v;
}

static void test_regs(const char *dev, int idx)
{
	uint64_t want_vram = HSAGPU_VRAM_SIZE_DEFAULT, want_q = 64, t0, t1;
	uint64_t irqs0, irqs = 0;
	uint32_t count;
	size_t len;

	gt_param_u64("vram", idx, &want_vram);
	gt_param_u64("queues", idx, &want_q);
	regs = gt_map_resource(dev, HSAGPU_BAR_MMIO, &len);
	CHECK(regs, "cannot map BAR5 of %s", dev);
	if (!regs)
		return;
	CHECK_EQ_U64(len, HSAGPU_MMIO_BAR_SIZE);
	CHECK_EQ_U64(rd(HSAGPU_REG_MAGIC), HSAGPU_MAGIC_VALUE);
	CHECK_EQ_U64(rd(HSAGPU_REG_ABI_VERSION), HSAGPU_ABI_VERSION);
	CHECK_EQ_U64(rd(HSAGPU_REG_DEVICE_ID),
		     HSAGPU_PCI_DEVICE_ID << 16 | HSAGPU_PCI_VENDOR_ID);
	CHECK_EQ_U64(rd(HSAGPU_REG_VRAM_SIZE_LO) |
		     (uint64_t)rd(HSAGPU_REG_VRAM_SIZE_HI) << 32, want_vram);
	CHECK_EQ_U64(rd(HSAGPU_REG_NUM_QUEUES), want_q);
	CHECK(rd(HSAGPU_REG_STATUS) & HSAGPU_STATUS_READY, "not ready");
	CHECK(rd(HSAGPU_REG_STATUS) & HSAGPU_STATUS_BUS_MASTER,
	      "driver did not enable bus mastering");

	wr(HSAGPU_REG_SCRATCH0, 0x5a5aa5a5);
	wr(HSAGPU_REG_SCRATCH1, 0x01234567);
	CHECK_EQ_U64(rd(HSAGPU_REG_SCRATCH0), 0x5a5aa5a5);
	CHECK_EQ_U64(rd(HSAGPU_REG_SCRATCH1), 0x01234567);

	/* The driver routes device errors to MSI-X vector 0. */
	CHECK_EQ_U64(rd(HSAGPU_REG_ERROR_INT_ENABLE), HSAGPU_ERR_ALL);
	/* Mask it while checking the status bits the handler would clear. */
	wr(HSAGPU_REG_ERROR_INT_ENABLE, 0);

	/* Undefined offsets read 0, drop writes, and are reported. */
	count = rd(HSAGPU_REG_BAD_ACCESS_COUNT);
	wr(0x3000, 0xffffffff);
	CHECK_EQ_U64(rd(0x3000), 0);
	CHECK_EQ_U64(rd(HSAGPU_REG_BAD_ACCESS_COUNT), count + 2);
	CHECK_EQ_U64(rd(HSAGPU_REG_BAD_ACCESS_ADDR),
		     (HSAGPU_BAR_MMIO << 28) | 0x3000);
	CHECK(rd(HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_BAD_MMIO,
	      "ERROR_STATUS 0x%x", rd(HSAGPU_REG_ERROR_STATUS));
	wr(HSAGPU_REG_ERROR_STATUS, HSAGPU_ERR_BAD_MMIO);
	CHECK(!(rd(HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_BAD_MMIO),
	      "ERROR_STATUS is write-1-to-clear");

	/* Unmasked: a bad access raises the error interrupt end to end. */
	irqs0 = 0;
	gt_debugfs_u64(dev, "error_irqs", &irqs0);
	wr(HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_ALL);
	(void)rd(0x3004);
	for (int i = 0; i < 1000; i++) {
		gt_debugfs_u64(dev, "error_irqs", &irqs);
		if (irqs > irqs0)
			break;
		usleep(1000);
	}
	CHECK(irqs == irqs0 + 1, "error_irqs %llu -> %llu: no MSI-X interrupt",
	      (unsigned long long)irqs0, (unsigned long long)irqs);
	/* The handler acknowledged it (W1C) before counting it. */
	CHECK_EQ_U64(rd(HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_BAD_MMIO, 0);
	if (irqs != irqs0 + 1) {
		gt_sh("grep -i hsagpu /proc/interrupts | cut -c1-100");
		DIAG("MSI-X vector 0: addr 0x%08x data 0x%08x ctrl 0x%x, PBA 0x%x",
		     rd(HSAGPU_MSIX_TABLE_OFFSET), rd(HSAGPU_MSIX_TABLE_OFFSET + 8),
		     rd(HSAGPU_MSIX_TABLE_OFFSET + 12),
		     rd(HSAGPU_MSIX_PBA_OFFSET));
	}

	/* The device clock advances. */
	t0 = rd(HSAGPU_REG_TIMESTAMP_LO);
	t0 |= (uint64_t)rd(HSAGPU_REG_TIMESTAMP_HI) << 32;
	for (volatile int i = 0; i < 100000; i++)
		;
	t1 = rd(HSAGPU_REG_TIMESTAMP_LO);
	t1 |= (uint64_t)rd(HSAGPU_REG_TIMESTAMP_HI) << 32;
	CHECK(t1 > t0, "timestamp did not advance: %llu -> %llu",
	      (unsigned long long)t0, (unsigned long long)t1);
	munmap((void *)regs, len);
}

static void test_doorbells(const char *dev)
{
	volatile uint64_t *db;
	volatile uint32_t *db32;
	size_t len;

	db = gt_map_resource(dev, HSAGPU_BAR_DOORBELL, &len);
	CHECK(db, "cannot map BAR2 of %s", dev);
	if (!db)
		return;
	CHECK_EQ_U64(len, HSAGPU_DOORBELL_BAR_SIZE);
	db[5] = 0x1122334455667788ULL;
	CHECK_EQ_U64(db[5], 0x1122334455667788ULL);
	db32 = (volatile uint32_t *)db;
	db32[5 * 2 + 1] = 0xcafef00d;   /* upper half of doorbell 5 */
	CHECK_EQ_U64(db[5], 0xcafef00d55667788ULL);
	db[HSAGPU_DOORBELL_COUNT - 1] = 42;
	CHECK_EQ_U64(db[HSAGPU_DOORBELL_COUNT - 1], 42);
	munmap((void *)db, len);
}

static void test_vram(const char *dev, int idx)
{
	uint64_t want_vram = HSAGPU_VRAM_SIZE_DEFAULT;
	volatile uint64_t *vram;
	size_t len, n, bad = 0;

	gt_param_u64("vram", idx, &want_vram);
	vram = gt_map_resource(dev, HSAGPU_BAR_VRAM, &len);
	CHECK(vram, "cannot map BAR0 of %s", dev);
	if (!vram)
		return;
	CHECK_EQ_U64(len, want_vram);
	n = len / 8;
	/* A pattern at the start, around the middle and at the very end. */
	for (size_t i = 0; i < 4096; i++) {
		vram[i] = i * 0x9e3779b97f4a7c15ULL;
		vram[n / 2 + i] = ~i;
		vram[n - 1 - i] = i ^ 0xa5a5a5a5a5a5a5a5ULL;
	}
	for (size_t i = 0; i < 4096; i++) {
		bad += vram[i] != i * 0x9e3779b97f4a7c15ULL;
		bad += vram[n / 2 + i] != ~i;
		bad += vram[n - 1 - i] != (i ^ 0xa5a5a5a5a5a5a5a5ULL);
	}
	CHECK(bad == 0, "%zu VRAM words read back wrong", bad);
	munmap((void *)vram, len);
}

int main(void)
{
	char devs[GT_MAX_DEVS][16];
	int n = gt_find_devices(devs);

	CHECK(n > 0, "no hsa-gpu device");
	for (int i = 0; i < n; i++) {
		DIAG("%s", devs[i]);
		test_regs(devs[i], i);
		test_doorbells(devs[i]);
		test_vram(devs[i], i);
	}
	return gt_result();
}
