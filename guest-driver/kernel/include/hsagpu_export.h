/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What hsagpu.ko exports to the modules built on it (the KFD facade,
 * hsagpu_amdgpu.ko), and nothing more: EXPORT_SYMBOL_NS_GPL(..., HSAGPU).
 * The device, context and allocation structures stay opaque, so that the
 * core can change them without the facade noticing; what the facade
 * needs of them goes through the accessors below. hsagpu.h includes this
 * header: the core's definitions are these.
 *
 * Callers follow the rules of the core's own ioctls (process context of
 * the context's process, no lock of the core held) unless said.
 */
#ifndef HSAGPU_EXPORT_H
#define HSAGPU_EXPORT_H

#include <linux/types.h>
#include <linux/wait.h>

#include "hsagpu/hsagpu_uapi.h"

struct address_space;
struct auxiliary_device;
struct mm_struct;
struct pci_dev;
struct vm_area_struct;

struct hsagpu_device;   /* a bound device, reference counted */
struct hsagpu_file;     /* a context: an open /dev/hsagpuN, or the facade's */
struct hsagpu_mem;      /* an allocation of a context */
struct hsagpu_peer;     /* a context's access to a peer's VRAM */

/*
 * The auxiliary device hsagpu.ko adds for every device it has set up
 * (hsagpu.kfd.N, N as /dev/hsagpuN; parent: the PCI device), removed
 * first thing in the PCI remove(). The facade's auxiliary_driver binds
 * to it.
 */
#define HSAGPU_AUX_KFD          "kfd"

/*
 * The device behind one of those auxiliary devices; valid from the
 * auxiliary driver's probe() until its remove() returns. A driver that
 * keeps it longer takes a reference (hsagpu_device_get()).
 */
struct hsagpu_device *hsagpu_aux_to_device(struct auxiliary_device *adev);
void hsagpu_device_get(struct hsagpu_device *hdev);
void hsagpu_device_put(struct hsagpu_device *hdev);

/* What a device is; fixed once it is bound (hsagpu_device_props()). */
struct hsagpu_device_props {
	struct pci_dev *pdev;           /* as long as hdev is referenced */
	u32 caps;                       /* HSAGPU_CAP_* */
	u32 num_queues;                 /* hardware queues */
	u32 compute_units;
	/*
	 * ABI_VERSION (major << 16 | minor): the interface of the device's
	 * packet processor and SDMA engine, what firmware versions tell
	 * of an AMD GPU's (the device runs no firmware of its own)
	 */
	u32 abi_version;
	u64 vram_size;                  /* bytes, all of BAR0 */
	int atomics_errno;              /* 0: PCIe AtomicOps reach the root */
	char name[32];                  /* product name (ROM) */
};

void hsagpu_device_props(struct hsagpu_device *hdev,
			 struct hsagpu_device_props *props);
/* VM faults the device reported so far (wraps). */
u32 hsagpu_device_vm_faults(struct hsagpu_device *hdev);
/* Free VRAM, bytes. */
u64 hsagpu_device_vram_avail(struct hsagpu_device *hdev);
/* The TIMESTAMP register (ns): -ENODEV once removed, as the ioctls. */
int hsagpu_device_timestamp(struct hsagpu_device *hdev, u64 *ts);

/*
 * Contexts: as an open /dev/hsagpuN. With @kfd, always with a GPU
 * address space, mapped only through hsagpu_mem_gpu_map(); mmap() maps
 * for the CPU alone. @mapping: the address space the context's CPU
 * mappings are in (zapped at removal and recovery).
 */
struct hsagpu_file *hsagpu_file_create(struct hsagpu_device *hdev,
				       struct address_space *mapping,
				       bool kfd);
void hsagpu_file_destroy(struct hsagpu_file *hf);
void hsagpu_file_get(struct hsagpu_file *hf);
void hsagpu_file_put(struct hsagpu_file *hf);
/* The process address space the context belongs to. */
struct mm_struct *hsagpu_file_mm(struct hsagpu_file *hf);
/*
 * Whether recovery or the queue watchdog took the context's device state
 * away (its queues destroyed, its VRAM and doorbells gone); its waiters
 * were woken then.
 */
bool hsagpu_file_lost(struct hsagpu_file *hf);
/* Where WAIT_EVENTS sleeps; set before the context's first queue. */
void hsagpu_file_set_event_wq(struct hsagpu_file *hf, wait_queue_head_t *wq);

/* Allocations: @flags HSAGPU_MEM_*; handles are the context's. */
struct hsagpu_mem *hsagpu_mem_alloc(struct hsagpu_file *hf, u32 flags,
				    u64 bytes);
struct hsagpu_mem *hsagpu_userptr_create(struct hsagpu_file *hf, u64 addr,
					 u64 size, bool readonly);
/* A SYSTEM allocation's pages, for another device's context. */
struct hsagpu_mem *hsagpu_mem_alias(struct hsagpu_file *hf,
				    struct hsagpu_mem *src);
struct hsagpu_mem *hsagpu_mem_get_handle(struct hsagpu_file *hf, u64 handle);
int hsagpu_mem_free_handle(struct hsagpu_file *hf, struct hsagpu_mem *mem);
void hsagpu_mem_get(struct hsagpu_mem *mem);
void hsagpu_mem_put(struct hsagpu_mem *mem);
/*
 * Allocation @src of another context of the same device as an allocation
 * of @hf (KFD IPC): VRAM shared by reference, SYSTEM pages as
 * hsagpu_mem_alias(); the caller gets a reference besides the handle's.
 */
struct hsagpu_mem *hsagpu_mem_share(struct hsagpu_file *hf,
				    struct hsagpu_mem *src);
/* The mmap() offset of the allocation (on the context's mapping). */
u64 hsagpu_mem_mmap_offset(struct hsagpu_mem *mem);
/*
 * A SYSTEM allocation in the kernel's address space, with a reference,
 * and its size; NULL for other kinds. hsagpu_mem_vunmap() undoes both.
 */
void *hsagpu_mem_vmap(struct hsagpu_mem *mem, size_t *size);
void hsagpu_mem_vunmap(struct hsagpu_mem *mem, void *vaddr);
/* In and out of the context's GPU space; @perms HSAGPU_PTE_*. */
int hsagpu_mem_gpu_map(struct hsagpu_file *hf, struct hsagpu_mem *mem,
		       u64 va, u64 perms);
int hsagpu_mem_gpu_unmap(struct hsagpu_file *hf, struct hsagpu_mem *mem);
int hsagpu_mem_mmap_cpu(struct hsagpu_file *hf, struct vm_area_struct *vma);
/*
 * Whether @hdev's DMA reaches @peer's VRAM (its BAR within the device's
 * address limit, or through an IOMMU): what the KFD topology calls a
 * P2P link from @hdev to @peer.
 */
bool hsagpu_peer_reachable(struct hsagpu_device *hdev,
			   struct hsagpu_device *peer);
/* VRAM of another device, through PCIe peer-to-peer. */
struct hsagpu_peer *hsagpu_peer_map_mem(struct hsagpu_file *hf,
					struct hsagpu_mem *mem, u64 va,
					u64 perms);
void hsagpu_peer_unmap_mem(struct hsagpu_file *hf, struct hsagpu_peer *p);
/* The context's doorbell page, mmap()ed by @vma. */
int hsagpu_doorbell_mmap_slice(struct hsagpu_file *hf,
			       struct vm_area_struct *vma);

/*
 * A queue to create (hsagpu_queue_create()): addresses in the file's
 * GPU space (bus addresses without GPUVM); @ring_size in packets for
 * AQL rings, in bytes with HSAGPU_QF_SDMA; @qflags HSAGPU_QF_*.
 */
struct hsagpu_queue_params {
	u64 ring_addr;
	u64 rptr_addr;
	u64 wptr_addr;
	u32 ring_size;
	u32 priority;
	u32 qflags;
};

int hsagpu_queue_create(struct hsagpu_file *hf,
			const struct hsagpu_queue_params *args, u32 *queue_id,
			u32 *doorbell_offset);
int hsagpu_queue_destroy(struct hsagpu_file *hf, u32 queue_id);
int hsagpu_queue_set_active(struct hsagpu_file *hf, u32 queue_id, bool active);
int hsagpu_queue_set_gws(struct hsagpu_file *hf, u32 queue_id, u32 num);
/* QUEUE_STATUS of the uapi (@args->queue_id in, the rest out) */
int hsagpu_queue_status_get(struct hsagpu_file *hf,
			    struct hsagpu_queue_status *args);

#endif
