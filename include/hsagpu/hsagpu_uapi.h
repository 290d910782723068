/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * hsagpu user-space interface: ioctls on /dev/hsagpuN.
 *
 * Every ioctl argument starts with its own size so that the interface can
 * grow; the driver rejects sizes it does not know and non-zero reserved
 * fields or flags it does not understand.
 */
#ifndef _UAPI_HSAGPU_H
#define _UAPI_HSAGPU_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define HSAGPU_IOCTL_BASE               'H'

/* hsagpu_device_info.atomics bits */
#define HSAGPU_ATOMICS_ROUTED           (1U << 0)  /* enable_atomic_ops ok */
#define HSAGPU_ATOMICS_REQUESTER        (1U << 1)  /* DevCtl2 bit took */
#define HSAGPU_ATOMICS_128              (1U << 2)  /* 128-bit CAS routed */

struct hsagpu_device_info {
	__u32 size;             /* in: sizeof(struct hsagpu_device_info) */
	__u32 abi_version;      /* out: HSAGPU_REG_ABI_VERSION */
	__u16 vendor_id;
	__u16 device_id;
	__u32 caps;             /* HSAGPU_CAP_* */
	__u64 vram_size;
	__u32 doorbell_count;
	__u32 doorbell_stride;
	__u32 num_queues;
	__u32 msix_vectors;     /* allocated by the driver */
	__u32 atomics;          /* HSAGPU_ATOMICS_* */
	__s32 atomics_errno;    /* pci_enable_atomic_ops_to_root() result */
	__u32 pci_domain;
	__u8 pci_bus;
	__u8 pci_devfn;
	__u16 reserved0;
	char name[32];          /* from the ROM information table */
};

#define HSAGPU_IOC_GET_INFO \
	_IOWR(HSAGPU_IOCTL_BASE, 0x01, struct hsagpu_device_info)

#endif /* _UAPI_HSAGPU_H */
