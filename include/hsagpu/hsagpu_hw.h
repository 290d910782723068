/* SPDX-License-Identifier: (GPL-2.0-or-later OR MIT) */
/*
 * hsagpu hardware interface: the single source of truth for the device's
 * PCI identity, BAR layout, register file, expansion ROM information table
 * and (later) queue and packet layouts.
 *
 * Included by the QEMU device model, the Linux driver, the user-space
 * runtime and the tests; it must stay plain C with fixed-width types.
 */
#ifndef HSAGPU_HW_H
#define HSAGPU_HW_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* ------------------------------------------------------------------ */
/* PCI identity                                                        */
/* ------------------------------------------------------------------ */

#define HSAGPU_PCI_VENDOR_ID            0x1b36  /* Red Hat / QEMU */
#define HSAGPU_PCI_DEVICE_ID            0x00f0  /* see QEMU docs/specs/pci-ids.rst */
#define HSAGPU_PCI_SUBSYS_VENDOR_ID     0x1af4
#define HSAGPU_PCI_SUBSYS_ID            0x1100
#define HSAGPU_PCI_REVISION             0x01
/* Processing accelerator, no programming interface */
#define HSAGPU_PCI_CLASS_CODE           0x120000

/* ------------------------------------------------------------------ */
/* BAR layout (Vega-style "large BAR")                                 */
/* ------------------------------------------------------------------ */

#define HSAGPU_BAR_VRAM                 0   /* 64-bit prefetchable, BAR0/1 */
#define HSAGPU_BAR_DOORBELL             2   /* 64-bit prefetchable, BAR2/3 */
#define HSAGPU_BAR_IO                   4   /* optional legacy I/O, 256 B */
#define HSAGPU_BAR_MMIO                 5   /* 32-bit non-prefetchable */

#define HSAGPU_VRAM_SIZE_DEFAULT        (256ULL << 20)
#define HSAGPU_VRAM_SIZE_MIN            (1ULL << 20)
#define HSAGPU_VRAM_SIZE_MAX            (64ULL << 30)

#define HSAGPU_DOORBELL_BAR_SIZE        (2U << 20)
#define HSAGPU_DOORBELL_STRIDE          8U
#define HSAGPU_DOORBELL_COUNT \
	(HSAGPU_DOORBELL_BAR_SIZE / HSAGPU_DOORBELL_STRIDE)

#define HSAGPU_MMIO_BAR_SIZE            (256U << 10)
#define HSAGPU_IO_BAR_SIZE              256U
#define HSAGPU_ROM_SIZE                 (128U << 10)

#define HSAGPU_NUM_QUEUES_DEFAULT       64U
#define HSAGPU_NUM_QUEUES_MAX           1024U

/*
 * MSI-X: vector 0 carries device errors and events; queues select any
 * vector in 1..N-1. The table and PBA live at the top of BAR5.
 */
#define HSAGPU_MSIX_VEC_ERROR           0U
#define HSAGPU_MSIX_VECTORS_MAX         2048U
#define HSAGPU_MSIX_TABLE_OFFSET        0x38000U
#define HSAGPU_MSIX_PBA_OFFSET          0x3f000U

/* Config-space placement of capabilities */
#define HSAGPU_CAP_PM_OFFSET            0x50
#define HSAGPU_CAP_PCIE_OFFSET          0x64
#define HSAGPU_CAP_MSIX_OFFSET          0xa0
#define HSAGPU_EXT_CAP_AER_OFFSET       0x100
#define HSAGPU_EXT_CAP_DSN_OFFSET       0x150

/* ------------------------------------------------------------------ */
/* BAR5 register file (32-bit registers, little endian)                */
/* ------------------------------------------------------------------ */

#define HSAGPU_MAGIC_VALUE              0x47415348U  /* "HSAG" */
#define HSAGPU_ABI_MAJOR                1U
#define HSAGPU_ABI_MINOR                0U
#define HSAGPU_ABI_VERSION \
	((HSAGPU_ABI_MAJOR << 16) | HSAGPU_ABI_MINOR)

/* Identification block, read only */
#define HSAGPU_REG_MAGIC                0x0000
#define HSAGPU_REG_ABI_VERSION          0x0004  /* major << 16 | minor */
#define HSAGPU_REG_CAPS                 0x0008  /* HSAGPU_CAP_* */
#define HSAGPU_REG_DEVICE_ID            0x000c  /* device << 16 | vendor */
#define HSAGPU_REG_VRAM_SIZE_LO         0x0010
#define HSAGPU_REG_VRAM_SIZE_HI         0x0014
#define HSAGPU_REG_DOORBELL_COUNT       0x0018
#define HSAGPU_REG_DOORBELL_STRIDE      0x001c
#define HSAGPU_REG_NUM_QUEUES           0x0020
#define HSAGPU_REG_MSIX_VECTORS         0x0024
#define HSAGPU_REG_ROM_SIZE             0x0028
#define HSAGPU_REG_REVISION             0x002c

/* Control and status */
#define HSAGPU_REG_SCRATCH0             0x0040  /* read/write, no effect */
#define HSAGPU_REG_SCRATCH1             0x0044
#define HSAGPU_REG_STATUS               0x0048  /* HSAGPU_STATUS_*, RO */
#define HSAGPU_REG_ERROR_STATUS         0x004c  /* HSAGPU_ERR_*, W1C */
#define HSAGPU_REG_BAD_ACCESS_COUNT     0x0050  /* RO, saturating */
#define HSAGPU_REG_BAD_ACCESS_ADDR      0x0054  /* bar << 28 | offset, RO */
#define HSAGPU_REG_BAD_ACCESS_INFO      0x0058  /* HSAGPU_BAD_ACCESS_* */
#define HSAGPU_REG_ERROR_INT_ENABLE     0x005c  /* HSAGPU_ERR_*: MSI-X vec 0 */
#define HSAGPU_REG_TIMESTAMP_LO         0x0060  /* ns of virtual time */
#define HSAGPU_REG_TIMESTAMP_HI         0x0064  /* latched on LO read */

/*
 * AtomicOp engine: issue one PCIe AtomicOp (FetchAdd, Swap, CAS) to a bus
 * address, as the queue processor does for signals and dispatch ids.
 * Writing ATOMIC_CTRL with GO set runs it to completion before the write
 * returns; ATOMIC_STATUS then holds the outcome, ATOMIC_RESULT the
 * original value at the target. 128-bit operands only exist for CAS.
 */
#define HSAGPU_REG_ATOMIC_ADDR_LO       0x0100
#define HSAGPU_REG_ATOMIC_ADDR_HI       0x0104
#define HSAGPU_REG_ATOMIC_SRC0          0x0108  /* 4 dwords: add/swap/compare */
#define HSAGPU_REG_ATOMIC_SRC1          0x0118  /* 4 dwords: CAS swap value */
#define HSAGPU_REG_ATOMIC_RESULT        0x0128  /* 4 dwords, RO */
#define HSAGPU_REG_ATOMIC_CTRL          0x0138
#define HSAGPU_REG_ATOMIC_STATUS        0x013c  /* RO */
#define HSAGPU_REG_ATOMIC_REPEAT        0x0140  /* run the op N times (0 = 1) */

#define HSAGPU_ATOMIC_OP_MASK           0x3U
#define HSAGPU_ATOMIC_OP_FETCHADD       0U
#define HSAGPU_ATOMIC_OP_SWAP           1U
#define HSAGPU_ATOMIC_OP_CAS            2U
#define HSAGPU_ATOMIC_SIZE_SHIFT        4
#define HSAGPU_ATOMIC_SIZE_MASK         (0x3U << HSAGPU_ATOMIC_SIZE_SHIFT)
#define HSAGPU_ATOMIC_SIZE_32           (0U << HSAGPU_ATOMIC_SIZE_SHIFT)
#define HSAGPU_ATOMIC_SIZE_64           (1U << HSAGPU_ATOMIC_SIZE_SHIFT)
#define HSAGPU_ATOMIC_SIZE_128          (2U << HSAGPU_ATOMIC_SIZE_SHIFT)
#define HSAGPU_ATOMIC_GO                (1U << 31)
#define HSAGPU_ATOMIC_REPEAT_MAX        (1U << 24)

/* ATOMIC_STATUS: bits 3:0 outcome, bit 8 done */
#define HSAGPU_ATOMIC_ST_MASK           0xfU
#define HSAGPU_ATOMIC_ST_NONE           0U  /* nothing issued since reset */
#define HSAGPU_ATOMIC_ST_OK             1U  /* successful completion */
#define HSAGPU_ATOMIC_ST_UR             2U  /* Unsupported Request */
#define HSAGPU_ATOMIC_ST_CA             3U  /* Completer Abort */
#define HSAGPU_ATOMIC_ST_MALFORMED      4U  /* misaligned or bad size */
#define HSAGPU_ATOMIC_ST_NOT_ENABLED    5U  /* DevCtl2 requester enable off */
#define HSAGPU_ATOMIC_ST_NO_BUS_MASTER  6U  /* Command.BME off */
#define HSAGPU_ATOMIC_ST_COUNT          7U
#define HSAGPU_ATOMIC_DONE              (1U << 8)

/* Counters (RO, wrap): ops issued by type, then outcomes by status code */
#define HSAGPU_REG_ATOMIC_CNT_OP(op)    (0x0180 + 4 * (op))
#define HSAGPU_REG_ATOMIC_CNT_ST(st)    (0x01a0 + 4 * (st))

/* End of the defined register space; MSI-X sits above it. */
#define HSAGPU_REG_SPACE_END            0x1000

/* HSAGPU_REG_CAPS bits */
#define HSAGPU_CAP_ROM_INFO             (1U << 0)   /* ROM info table */
#define HSAGPU_CAP_TIMESTAMP            (1U << 1)   /* TIMESTAMP regs */
#define HSAGPU_CAP_IO_BAR               (1U << 2)   /* legacy I/O BAR4 */
#define HSAGPU_CAP_ATOMIC_COMP32        (1U << 3)   /* completer bits */
#define HSAGPU_CAP_ATOMIC_COMP64        (1U << 4)   /*  as in DevCap2 */
#define HSAGPU_CAP_ATOMIC_COMP128       (1U << 5)
#define HSAGPU_CAP_ATOMIC_ENGINE        (1U << 6)   /* ATOMIC_* registers */

/* HSAGPU_REG_STATUS bits */
#define HSAGPU_STATUS_READY             (1U << 0)
#define HSAGPU_STATUS_ATOMIC_REQ_EN     (1U << 1)   /* DevCtl2 bit 6 */
#define HSAGPU_STATUS_BUS_MASTER        (1U << 2)

/* HSAGPU_REG_ERROR_STATUS bits (write 1 to clear) */
#define HSAGPU_ERR_BAD_MMIO             (1U << 0)   /* bad register access */
#define HSAGPU_ERR_BAD_DOORBELL         (1U << 1)   /* bad doorbell access */
#define HSAGPU_ERR_ATOMIC               (1U << 2)   /* AtomicOp failed */
#define HSAGPU_ERR_ALL                  0x7U

/* HSAGPU_REG_BAD_ACCESS_INFO */
#define HSAGPU_BAD_ACCESS_WRITE         (1U << 31)
#define HSAGPU_BAD_ACCESS_SIZE_MASK     0xfU        /* access size, bytes */
#define HSAGPU_BAD_ACCESS_REASON_SHIFT  8
#define HSAGPU_BAD_ACCESS_REASON_MASK   (0xfU << HSAGPU_BAD_ACCESS_REASON_SHIFT)
#define HSAGPU_BAD_REASON_UNMAPPED      1U  /* no register at that offset */
#define HSAGPU_BAD_REASON_SIZE          2U  /* not a 32/64-bit access */
#define HSAGPU_BAD_REASON_ALIGN         3U  /* not naturally aligned */
#define HSAGPU_BAD_REASON_READONLY      4U  /* write to a read-only reg */

/* Legacy I/O BAR: an index/data window onto the register file */
#define HSAGPU_IO_INDEX                 0x00
#define HSAGPU_IO_DATA                  0x04

/* ------------------------------------------------------------------ */
/* Expansion ROM                                                       */
/* ------------------------------------------------------------------ */

/*
 * The ROM holds one PCI Firmware image (0x55AA header + "PCIR" data
 * structure) whose code type is not x86 or EFI, so firmware never tries
 * to execute it, and a device information table that the driver parses.
 */
#define HSAGPU_ROM_PCIR_OFFSET          0x20
#define HSAGPU_ROM_INFO_PTR_OFFSET      0x1c    /* le16 offset of info table */
#define HSAGPU_ROM_INFO_OFFSET          0x40
#define HSAGPU_ROM_CODE_TYPE            0x70    /* vendor, not executable */

#define HSAGPU_ROM_INFO_SIGNATURE       0x54494748U  /* "HGIT" */
#define HSAGPU_ROM_INFO_VERSION         1U

struct hsagpu_rom_info {
	uint32_t signature;         /* HSAGPU_ROM_INFO_SIGNATURE */
	uint16_t version;           /* HSAGPU_ROM_INFO_VERSION */
	uint16_t length;            /* bytes, this structure */
	uint16_t vendor_id;         /* equal the PCI IDs */
	uint16_t device_id;
	uint32_t abi_version;       /* equal HSAGPU_REG_ABI_VERSION */
	uint64_t vram_size;         /* bytes */
	uint32_t doorbell_count;
	uint32_t doorbell_stride;
	uint32_t num_queues;
	uint32_t msix_vectors;
	uint32_t caps;              /* equal HSAGPU_REG_CAPS */
	uint32_t reserved0;
	char name[32];              /* NUL-terminated marketing name */
	uint8_t reserved1[15];
	uint8_t checksum;           /* all bytes of the structure sum to 0 */
} __attribute__((packed));

#define HSAGPU_ROM_INFO_SIZE            96

#endif /* HSAGPU_HW_H */
