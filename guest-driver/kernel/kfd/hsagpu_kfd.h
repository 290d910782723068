/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hsagpu_amdgpu.ko: the KFD facade. It presents every bound hsa-gpu (with
 * GPU virtual memory) to unmodified ROCm user space the way amdkfd
 * presents an AMD GPU: /dev/kfd (class "kfd", device "kfd", no parent),
 * the KFD topology in sysfs, and one DRM render node per device through
 * which allocations are mmap()ed. Everything the device does goes through
 * hsagpu.ko: a process gets, per device it uses, an internal hsagpu.ko
 * context (struct hsagpu_file, created with hsagpu_file_create(kfd=true))
 * that owns its GPU address space, VMID, queues, doorbell page, events
 * and allocations; the KFD ioctls translate onto that context.
 *
 * Lifetimes:
 *  - struct hsagpu_kfd_dev lives as long as its DRM device (freed by the
 *    DRM device's managed release); it holds a reference to the hsagpu
 *    device. The facade is an auxiliary driver of hsagpu.ko's hsagpu.kfd.N
 *    devices: its probe() adds the device once hsagpu.ko has set it up,
 *    its remove() (first thing in hsagpu.ko's remove()) takes it out of
 *    hsagpu_kfd.devices and unplugs the DRM device, so new lookups never
 *    find a removed device; contexts that exist keep it.
 *  - struct hsagpu_kfd_process: one per mm, shared by every /dev/kfd file
 *    of that process (as amdkfd), freed when the last file is released.
 *    Only that mm may use it (-EBADF otherwise, as amdkfd).
 *  - struct hsagpu_kfd_pdd: the process on one device; it holds a DRM
 *    device reference, the acquired render-node file, and the hsagpu.ko
 *    context.
 *
 * Locking, outermost first: the process list lock, hsagpu_kfd_process.lock
 * (buffers), the mmap lock (user pages are pinned under p->lock: mmap()
 * handlers must not take it), hsagpu_kfd.lock (devices, topology), then
 * hsagpu.ko's locks. A process's pdds are made with the process and stay
 * until its teardown: reading the list needs no lock.
 */
#ifndef HSAGPU_KFD_H
#define HSAGPU_KFD_H

#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/kfd_ioctl.h>
#include <linux/kfd_sysfs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

/* Of hsagpu.ko, only what it exports (and the shared headers). */
#include "hsagpu_compat.h"
#include "hsagpu_export.h"
#include "hsagpu/hsagpu_regs.h"

#define HSAGPU_KFD_DRV_NAME     "hsagpu_amdgpu"

/*
 * The interface version reported by GET_VERSION: 1.4, the last before
 * SVM and XNACK (1.5): interrupt signals (events) on, and libhsakmt
 * 5.2.3 never issues the SVM / SET_XNACK_MODE calls.
 */
#define HSAGPU_KFD_MAJOR        1
#define HSAGPU_KFD_MINOR        4

/* gfx9 flat apertures (as amdkfd's kfd_init_apertures_v9()). */
#define HSAGPU_KFD_LDS_BASE     BIT_ULL(48)
#define HSAGPU_KFD_SCRATCH_BASE BIT_ULL(49)
#define HSAGPU_KFD_APE_LIMIT(b) ((b) | 0xffffffffULL)
/* GPUVM: from the first 2 MiB on up to the canonical 47-bit limit. */
#define HSAGPU_KFD_GPUVM_BASE   BIT_ULL(21)
#define HSAGPU_KFD_GPUVM_LIMIT  (BIT_ULL(47) - 1)

/*
 * /dev/kfd mmap offsets, as amdkfd's (kfd_priv.h): the type in bits
 * 63:62, the gpu_id in bits 61:46.
 */
#define HSAGPU_KFD_MMAP_TYPE_MASK       (0x3ULL << 62)
#define HSAGPU_KFD_MMAP_TYPE_DOORBELL   (0x3ULL << 62)
#define HSAGPU_KFD_MMAP_TYPE_EVENTS     (0x2ULL << 62)
#define HSAGPU_KFD_MMAP_GPU_ID_SHIFT    46
#define HSAGPU_KFD_MMAP_GPU_ID_MASK     (0xffffULL << HSAGPU_KFD_MMAP_GPU_ID_SHIFT)
#define HSAGPU_KFD_MMAP_GPU_ID(id)	\
	(((u64)(id) << HSAGPU_KFD_MMAP_GPU_ID_SHIFT) & HSAGPU_KFD_MMAP_GPU_ID_MASK)
/* A process's doorbells on a device: 1024 of 8 bytes (gfx9) */
#define HSAGPU_KFD_DOORBELL_SLICE       8192
#define HSAGPU_KFD_MAX_QUEUES           1024    /* per process */
#define HSAGPU_KFD_MAX_DEVICE_QUEUES    127     /* per process and device */
#define HSAGPU_KFD_MAX_CU_MASK          1024U   /* bits amdkfd looks at */

/*
 * ROCm 5.2.3's IPC ioctls (its kfd_ioctl.h, the DKMS amdkfd's kfd_ipc.c;
 * never upstream): hsagpu_kfd_ipc.c. Number and layout are libhsakmt's.
 */
struct hsagpu_kfd_ipc_export_handle_args {
	__u64 handle;           /* to KFD */
	__u32 share_handle[4];  /* from KFD */
	__u32 gpu_id;           /* to KFD */
	__u32 flags;            /* to KFD */
};

struct hsagpu_kfd_ipc_import_handle_args {
	__u64 handle;           /* from KFD */
	__u64 va_addr;          /* to KFD */
	__u64 mmap_offset;      /* from KFD */
	__u32 share_handle[4];  /* to KFD */
	__u32 gpu_id;           /* to KFD */
	__u32 flags;            /* from KFD */
};

#define HSAGPU_KFD_IOC_IPC_IMPORT_HANDLE	\
	AMDKFD_IOWR(0x80, struct hsagpu_kfd_ipc_import_handle_args)
#define HSAGPU_KFD_IOC_IPC_EXPORT_HANDLE	\
	AMDKFD_IOWR(0x81, struct hsagpu_kfd_ipc_export_handle_args)

/* Handles: gpu_id in the upper half (amdkfd's MAKE_HANDLE). */
#define HSAGPU_KFD_HANDLE(gpu_id, id)   ((u64)(gpu_id) << 32 | (u32)(id))
#define HSAGPU_KFD_HANDLE_GPU(h)        ((u32)((h) >> 32))
#define HSAGPU_KFD_HANDLE_ID(h)         ((u32)(h))

struct hsagpu_kfd_ipc;          /* hsagpu_kfd_ipc.c */

/* One bound hsa-gpu as the facade presents it. */
struct hsagpu_kfd_dev {
	struct drm_device *drm;         /* the render node; holds us */
	struct hsagpu_device *hdev;     /* holds a reference */
	struct hsagpu_device_props props; /* hsagpu_device_props() at probe */
	struct list_head node;          /* hsagpu_kfd.devices */
	u32 gpu_id;                     /* non-zero, 16 bits, unique */
	bool live;                      /* in hsagpu_kfd.devices */
};

/* The facade's global state; hsagpu_kfd_drv.c. */
struct hsagpu_kfd {
	struct mutex lock;              /* devices, topology */
	struct list_head devices;       /* live ones, in topology order */
	u32 generation;                 /* topology changes */
	struct device *kfd_device;      /* /dev/kfd, /sys/devices/virtual/kfd/kfd */
	struct kobject *topology;       /* hsagpu_kfd_topology.c */
	struct list_head nodes;         /* its node directories */
};

extern struct hsagpu_kfd hsagpu_kfd;

/* A buffer: an allocation of one device, mapped into devices' GPU spaces. */
struct hsagpu_kfd_bo {
	struct hsagpu_kfd_pdd *pdd;     /* the device it was allocated on */
	u32 id;                         /* in the process's idr */
	u32 flags;                      /* KFD_IOC_ALLOC_MEM_FLAGS_* */
	u64 va;                         /* GPU VA */
	u64 size;                       /* page aligned */
	u64 cpu_addr;                   /* USERPTR: the user address */
	struct hsagpu_mem *mem;         /* backing on pdd's context */
	struct list_head maps;          /* struct hsagpu_kfd_bo_map */
	/* exported, or imported: its IPC export, referenced */
	struct hsagpu_kfd_ipc *ipc;
};

/* @bo in the GPU space of @pdd (its own device or another). */
struct hsagpu_kfd_bo_map {
	struct list_head node;          /* bo->maps */
	struct hsagpu_kfd_pdd *pdd;
	struct hsagpu_mem *mem;         /* mapped there (USERPTR, GTT: its own) */
	struct hsagpu_peer *peer;       /* VRAM on another device, or NULL */
};

/* A process on one device. */
struct hsagpu_kfd_pdd {
	struct list_head node;          /* process->pdds */
	struct hsagpu_kfd_process *process;
	struct hsagpu_kfd_dev *kdev;    /* drm_dev_get() on kdev->drm */
	struct hsagpu_file *hf;         /* the hsagpu.ko context */
	/* ACQUIRE_VM's render node, held; its driver_priv holds @hf */
	struct file *drm_file;
	/* recorded, not used by the device (it has no such state) */
	u64 scratch_va;
	u64 tba_addr, tma_addr;
	u32 default_policy, alternate_policy;
	/* queues, doorbells: hsagpu_kfd_queue.c */
	/*
	 * Its context taken away (hsagpu_kfd_queue_lost()): 0 not reported
	 * yet, 1 the queues with work reported, 2 all of them; when the
	 * first report was made, and whether ROCr answered it.
	 */
	u8 lost_stage;
	bool lost_acked;
	bool lost_told;                 /* some queue's report was made */
	unsigned long lost_at;          /* jiffies */
};

struct hsagpu_kfd_process {
	struct kref ref;                /* every /dev/kfd file */
	struct list_head node;          /* the processes, by mm */
	struct mm_struct *mm;           /* not pinned: only compared */
	pid_t pid;
	struct mutex lock;              /* bos, and below */
	struct list_head pdds;          /* fixed while p is published */
	struct idr bos;                 /* struct hsagpu_kfd_bo by id */
	/* queues: hsagpu_kfd_queue.c, under @lock */
	struct idr queues;              /* struct hsagpu_kfd_queue by id */
	/*
	 * events: hsagpu_kfd_event.c. Every context of the process wakes
	 * @event_wq from its queue interrupts.
	 */
	struct mutex event_lock;        /* taken before @lock */
	struct idr events;              /* struct hsagpu_kfd_event by id */
	wait_queue_head_t event_wq;
	u64 *event_slots;               /* the event page (vmap), or NULL */
	u32 event_nslots;
	u32 nmemory_events;
	u32 event_faults;               /* VM faults of its devices seen */
	struct hsagpu_mem *event_mem;   /* its allocation, referenced */
	u64 event_handle;               /* its buffer handle */
};

/* hsagpu_kfd_drv.c */
#define HSAGPU_KFD_MAX_DEVICES  64
struct hsagpu_kfd_dev *hsagpu_kfd_dev_by_id(u32 gpu_id);
u32 hsagpu_kfd_dev_ids(u32 *ids, u32 max);
u32 hsagpu_kfd_compute_units(struct hsagpu_kfd_dev *kdev);

/* hsagpu_kfd_drm.c */
int hsagpu_kfd_drm_create(struct hsagpu_kfd_dev *kdev);
void hsagpu_kfd_drm_unplug(struct hsagpu_kfd_dev *kdev);
bool hsagpu_kfd_drm_file_is(struct file *file, struct hsagpu_kfd_dev *kdev);
int hsagpu_kfd_drm_bind(struct file *file, struct hsagpu_file *hf);

/* hsagpu_kfd_topology.c */
int hsagpu_kfd_topology_init(void);
void hsagpu_kfd_topology_exit(void);
void hsagpu_kfd_topology_update(void);

/* hsagpu_kfd_process.c */
struct hsagpu_kfd_process *hsagpu_kfd_process_get(void);
void hsagpu_kfd_process_put(struct hsagpu_kfd_process *p);
struct hsagpu_kfd_pdd *hsagpu_kfd_pdd_find(struct hsagpu_kfd_process *p,
					   u32 gpu_id);
struct hsagpu_kfd_pdd *hsagpu_kfd_pdd_bind(struct hsagpu_kfd_process *p,
					   u32 gpu_id);

/* hsagpu_kfd_ioctl.c */
long hsagpu_kfd_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* hsagpu_kfd_mem.c */
int hsagpu_kfd_ioctl_alloc_memory(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_free_memory(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_map_memory(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_unmap_memory(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_available_memory(struct hsagpu_kfd_process *p,
				      void *data);
void hsagpu_kfd_mem_release(struct hsagpu_kfd_process *p);
/* e.g. CREATE_EVENT's event page, a GTT buffer named by its handle */
struct hsagpu_kfd_bo *hsagpu_kfd_bo_find(struct hsagpu_kfd_process *p,
					 u64 handle);
int hsagpu_kfd_mem_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma);

/* hsagpu_kfd_ipc.c: IPC handles (p->lock taken inside) */
int hsagpu_kfd_ioctl_ipc_export(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_ipc_import(struct hsagpu_kfd_process *p, void *data);
void hsagpu_kfd_ipc_put(struct hsagpu_kfd_ipc *ipc);

/*
 * hsagpu_kfd_queue.c (kfdq): queues, doorbells, /dev/kfd mmap.
 * hsagpu_kfd_event.c (kfdq): events.
 * The release hooks run at process teardown, queues before memory.
 */
int hsagpu_kfd_ioctl_create_queue(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_destroy_queue(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_update_queue(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_set_cu_mask(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_get_queue_wave_state(struct hsagpu_kfd_process *p,
					  void *data);
int hsagpu_kfd_ioctl_alloc_queue_gws(struct hsagpu_kfd_process *p,
				     void *data);
int hsagpu_kfd_mmap(struct hsagpu_kfd_process *p, struct vm_area_struct *vma);
void hsagpu_kfd_queue_init(struct hsagpu_kfd_process *p);
void hsagpu_kfd_queue_release(struct hsagpu_kfd_process *p);
int hsagpu_kfd_queue_fault(struct hsagpu_kfd_process *p,
			   struct kfd_hsa_memory_exception_data *mem);

/* Queues taken away with their context (hsagpu_kfd_queue_lost()). */
#define HSAGPU_KFD_LOST_MAX     64
struct hsagpu_kfd_lost {
	u32 nevents;                    /* inactive-signal events to set */
	u32 events[HSAGPU_KFD_LOST_MAX];
	u32 nhung;                      /* devices with nothing to tell */
	u32 hung_gpu[HSAGPU_KFD_MAX_DEVICES];
};

bool hsagpu_kfd_queue_lost_pending(struct hsagpu_kfd_process *p);
void hsagpu_kfd_queue_lost(struct hsagpu_kfd_process *p,
			   struct hsagpu_kfd_lost *lost);

int hsagpu_kfd_ioctl_create_event(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_destroy_event(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_set_event(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_reset_event(struct hsagpu_kfd_process *p, void *data);
int hsagpu_kfd_ioctl_wait_events(struct hsagpu_kfd_process *p, void *data);
void hsagpu_kfd_event_init(struct hsagpu_kfd_process *p);
void hsagpu_kfd_event_release(struct hsagpu_kfd_process *p);
bool hsagpu_kfd_event_page_is(struct hsagpu_kfd_process *p, u64 handle);

#endif
