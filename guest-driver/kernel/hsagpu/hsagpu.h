/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HSAGPU_DRV_H
#define HSAGPU_DRV_H

#include <linux/bitops.h>
#include <linux/idr.h>
#include <linux/interval_tree.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "hsagpu_compat.h"
#include "hsagpu_export.h"
#include "hsagpu/hsagpu_regs.h"
#include "hsagpu/hsagpu_sdma.h"
#include "hsagpu/hsagpu_uapi.h"

#define HSAGPU_DRV_NAME "hsagpu"

/*
 * mmap offsets: HSAGPU_MMAP_TYPE_* in bits 47:40, an index in the page
 * number below. VRAM allocations use the upper half of the index space,
 * so that device removal can zap every BAR mapping (doorbells, VRAM) by
 * offset range while system memory stays mapped.
 */
#define HSAGPU_MMAP_INDEX_BITS  (HSAGPU_MMAP_TYPE_SHIFT - PAGE_SHIFT)
#define HSAGPU_MMAP_INDEX_MASK  (BIT_ULL(HSAGPU_MMAP_INDEX_BITS) - 1)
#define HSAGPU_MMAP_INDEX_VRAM  (HSAGPU_MMAP_MEMORY_VRAM >> PAGE_SHIFT)

static inline u64 hsagpu_mmap_offset(u64 type, u64 index)
{
	return type << HSAGPU_MMAP_TYPE_SHIFT | index << PAGE_SHIFT;
}

struct gen_pool;
struct hsagpu_queue;
struct hsagpu_pt;

/*
 * Memory a process asks for is charged to its memory cgroup; over the
 * cgroup's limit the request fails instead of calling its OOM killer.
 */
#define HSAGPU_GFP_ACCOUNT      (GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL)

/* Chunks of large system allocations: at least 64 KiB (but the last). */
#define HSAGPU_SYSBUF_MIN_ORDER (16 - PAGE_SHIFT)

/*
 * Driver-owned system pages, DMA-mapped for the device while it is bound
 * (hsagpu_sysbuf.c). @node and @mapped are under hdev->dma_lock.
 */
struct hsagpu_sysbuf {
	struct list_head node;          /* hdev->sysbufs while mapped */
	struct page **pages;            /* split pages, npages of them */
	unsigned long npages;
	struct sg_table sgt;            /* dma_address valid while mapped */
	bool mapped;
};

/* What a range of a file's GPU address space maps (hsagpu_vm.c). */
enum hsagpu_vm_map_kind {
	HSAGPU_VM_MAP_MEM,              /* an mmap()ed ALLOC_MEM allocation */
	HSAGPU_VM_MAP_USERPTR,          /* REGISTER_MEM */
	HSAGPU_VM_MAP_EVENTS,           /* the event page, in the aperture */
	HSAGPU_VM_MAP_PEER,             /* a peer's VRAM, in the aperture */
};

/* One mapping; @it spans [va, va + size - 1] while @mapped. */
struct hsagpu_vm_map {
	struct interval_tree_node it;
	u64 pte;                        /* HSAGPU_PTE_* perms of its pages */
	enum hsagpu_vm_map_kind kind;
	bool mapped;
};

/*
 * Where the pages of a mapping are: the DMA segments of @sgt, or @addr
 * onwards (contiguous). @flags: HSAGPU_PTE_SYSTEM (bus addresses) and
 * SNOOPED, or 0 for VRAM offsets of this device. With @mni, the mapping
 * is only made if no invalidation came since @seq (-EAGAIN).
 */
struct hsagpu_vm_src {
	struct sg_table *sgt;
	u64 addr;
	u64 flags;
	struct mmu_interval_notifier *mni;
	unsigned long seq;
};

/*
 * A file's GPU address space (GPUVM). Lock order: hsagpu_file.lock,
 * hsagpu_device.lock, @lock, hsagpu_device.vm_lock. @lock is never held
 * across an allocation that may reclaim memory (page tables are
 * allocated beforehand): the registrations' MMU notifiers take it.
 */
struct hsagpu_vm {
	struct hsagpu_device *hdev;
	struct mutex lock;              /* tables, maps, spares, aperture */
	struct hsagpu_pt *root;         /* level 3, NULL until the first map */
	struct rb_root_cached maps;     /* struct hsagpu_vm_map.it */
	struct list_head spare_dir;     /* preallocated tables */
	struct list_head spare_leaf;
	u32 nspare_dir;
	u32 nspare_leaf;
	u32 ntables;
	u32 nmaps;
	u64 aperture_next;              /* next free driver aperture VA */
	/* 1..15 while the file has queues; hdev->lock and hdev->vm_lock */
	u32 vmid;
};

/* Work counters of the device the watchdog watches (hsagpu_recover.c) */
#define HSAGPU_WD_COUNTERS      11

/*
 * Lifetime: the structure is reference counted. Probe holds one reference
 * (dropped by devres after remove()), every open file and every memory
 * allocation holds one, so files outlive the PCI binding safely.
 *
 * Locking, outermost first:
 *  - remove_sem: read side around anything that touches the BARs (register
 *    programming, VRAM zeroing, BAR faults); remove() takes the write side
 *    to set @dead and destroy the queues. Never held across user copies.
 *  - hsagpu_file.lock: one file's allocations, queues and events.
 *  - lock: queue registers and the queue table, the list of files and
 *    their peer lists, the allocation handles.
 */
struct hsagpu_device {
	struct pci_dev *pdev;
	struct list_head node;          /* bound devices (hsagpu_peer.c) */
	/* hsagpu.kfd.N for the KFD facade, while bound (hsagpu_aux.c) */
	struct auxiliary_device *aux;
	void __iomem *mmio;             /* BAR5 */
	void __iomem *doorbells;        /* BAR2 */
	void __iomem *vram;             /* BAR0, write-combined */
	int id;                         /* N of /dev/hsagpuN */
	char devname[16];
	struct miscdevice misc;
	struct kref ref;

	/* identification, validated against the ROM table */
	u32 abi_version;
	u32 caps;
	u64 vram_size;
	u32 doorbell_count;
	u32 doorbell_stride;
	u32 num_queues;
	u32 compute_units;              /* HSAGPU_COMPUTE_UNITS_DEFAULT */
					/* before ABI 1.4 */
	u32 msix_vectors;               /* allocated */
	struct hsagpu_rom_info rom_info;
	char name[32];

	/* DMA and peer-to-peer, as set up at probe time */
	u32 p2p_addr_bits;              /* the device's bus address limit */
	u32 p2p_status;                 /* HSAGPU_P2P_* */
	bool dma_iommu;                 /* DMA is IOMMU-translated */

	/* PCIe AtomicOps, as set up at probe time */
	int atomics_errno;              /* pci_enable_atomic_ops_to_root() */
	int atomics128_errno;
	bool atomic_requester;          /* DevCtl2 AtomicOp Req Enable read back */

	/* debug counters (debugfs) */
	atomic_t error_irqs;
	atomic_t aer_events;
	atomic_t watchdog_firings;      /* hung queues found */
	atomic_t resets;                /* device resets the driver went through */
	atomic_t files_lost;            /* files that lost their queues/VRAM */
	atomic_t queue_irqs;
	atomic_t vm_faults;             /* VM faults reported by the device */
	atomic_t userptr_invalidations; /* registrations the mm took away */
	atomic_t userptr_repins;        /* registrations moved to new pages */
	atomic_t *vector_irqs;          /* per MSI-X vector, msix_vectors */
	struct dentry *debugfs;

	atomic64_t sysmem_bytes;        /* SYSTEM allocations, all files */
	atomic64_t userptr_pages;       /* user pages pinned by registrations */

	struct rw_semaphore remove_sem;
	bool dead;                      /* removed: ioctls and mmap fail */
	/*
	 * A reset is under way (hsagpu_recover.c): set and cleared under
	 * the write side of remove_sem; hsagpu_enter() waits on
	 * @recover_wq meanwhile.
	 */
	bool resetting;
	wait_queue_head_t recover_wq;
	struct delayed_work watchdog;   /* hung-queue detection */
	/* the watchdog's last look: when, and the device's work counters */
	unsigned long wd_last;
	u32 wd_counters[HSAGPU_WD_COUNTERS];
	struct delayed_work fatal_work; /* reset after a fatal error */
	struct pci_saved_state *good_state; /* config space that worked */
	/*
	 * Every system buffer still DMA-mapped for this device: remove()
	 * unmaps them all, later frees leave the DMA API alone.
	 */
	struct mutex dma_lock;
	struct list_head sysbufs;
	struct mutex lock;
	struct list_head files;         /* each file's peers too */

	/* hardware queues */
	struct ida queue_ida;
	struct hsagpu_queue **queues;   /* by hardware queue number */
	unsigned long *queues_live;     /* read locklessly by the error IRQ */
	unsigned long *queues_reported; /* errors already logged */
	u32 queues_active;

	/* doorbells: one page of BAR2 per open file that uses queues */
	phys_addr_t doorbell_phys;
	u32 doorbell_pages;
	u32 doorbells_per_page;
	struct ida doorbell_page_ida;

	/*
	 * Allocation handles are unique on the device, so that another
	 * file's handle is recognised as not this file's.
	 */
	struct idr mem_idr;

	/* VRAM allocator over BAR0 */
	phys_addr_t vram_phys;
	pci_bus_addr_t vram_bus;
	struct gen_pool *vram_pool;

	/* cached read alias (hsagpu_ralias.c): 0 size when not used */
	phys_addr_t ralias_phys;
	u64 ralias_size;
	void *ralias_wb;                /* reserves the BAR as write-back */
	struct mutex ralias_lock;       /* the DIR_* cursor and mask */

	/*
	 * Interrupt-side view of @queues: a queue interrupt wakes the files
	 * whose queues use that vector. Taken (irqs off) inside hdev->lock
	 * wherever @queues changes, and by the interrupt handlers.
	 */
	spinlock_t wake_lock;

	/*
	 * GPU virtual memory: VMID 1..15 owners and the invalidation
	 * registers, innermost lock (taken by MMU notifiers).
	 */
	spinlock_t vm_lock;
	u32 vmids_used;                 /* bit v: VMID v is held */
	struct hsagpu_vm *vmid_owner[HSAGPU_VM_NUM_VMIDS];
};

/*
 * Per open file, bound to the process that opened it: other processes
 * (a child after fork()) get -EBADF (-EACCES with GPU virtual memory),
 * and the file's queues stop when
 * that process's address space goes away, even if a child still holds
 * the file.
 */
struct hsagpu_file {
	struct kref ref;                /* the opener and every allocation */
	struct hsagpu_device *hdev;     /* holds a reference */
	struct address_space *mapping;  /* for zapping BAR mappings */
	struct mm_struct *mm;           /* the opener's, pinned by @mn */
	struct mmu_notifier mn;
	struct list_head node;          /* hdev->files, under hdev->lock */
	pid_t pid;                      /* the opener (debugfs) */
	/* GPU address space: hsagpu.ko vm=1 at open and a GPUVM device */
	struct hsagpu_vm *vm;
	/*
	 * A KFD context (hsagpu_amdgpu.ko): always a GPU space, mapped only
	 * through hsagpu_mem_gpu_map(); mmap() maps for the CPU alone.
	 */
	bool kfd;

	/* live allocations, also those only a mapping holds (limits) */
	atomic_t nallocs;
	atomic64_t sysmem_bytes;
	atomic_t nvram;                 /* live VRAM allocations */
	u32 nqueues;                    /* hardware queues, under hdev->lock */
	/*
	 * Recovery took the file's queues and VRAM away: ioctls and mmap
	 * fail with -EIO, BAR mappings fault (hsagpu_recover.c). Set under
	 * hdev->lock, never cleared.
	 */
	bool lost;

	struct mutex lock;              /* protects everything below */
	struct list_head mems;          /* struct hsagpu_mem.node */
	struct list_head queues;
	int doorbell_page;              /* BAR2 page, -1 until needed */
	/*
	 * KFD: where the doorbell slice is mmap()ed (/dev/kfd's pages
	 * @slice_pgoff.. of @slice_mapping, whose inode is held), so that
	 * removal and recovery zap it too. The first one only; set and
	 * cleared under hdev->lock too.
	 */
	struct address_space *slice_mapping;
	pgoff_t slice_pgoff;
	pgoff_t slice_pages;
	struct ida doorbell_slots;      /* doorbells inside that page */
	u64 *events;                    /* event page, NULL until needed */
	dma_addr_t events_dma;          /* its bus address */
	struct hsagpu_sysbuf events_buf;
	struct hsagpu_vm_map events_map; /* GPUVM: at HSAGPU_VM_APERTURE_BASE */
	DECLARE_BITMAP(events_used, HSAGPU_MAX_EVENTS);
	/*
	 * WAIT_EVENTS sleeps here. Woken by the interrupts of this file's
	 * queues (the device writes a slot, then raises the queue's vector),
	 * SET_EVENT on this file, the error interrupt and device removal.
	 * @event_wq is @own_event_wq, or the wait queue of the KFD process
	 * the context belongs to (one for all its devices), set before its
	 * first queue (hsagpu_file_set_event_wq()).
	 */
	wait_queue_head_t *event_wq;
	wait_queue_head_t own_event_wq;
	atomic64_t event_age[HSAGPU_MAX_EVENTS]; /* consumptions + 1 */

	struct list_head peers;         /* struct hsagpu_peer, hdev->lock */
};

/* PEER_ACCESS: this file's device may reach @peer's VRAM at @addr. */
struct hsagpu_peer {
	struct list_head node;          /* hsagpu_file.peers */
	struct hsagpu_device *peer;     /* holds a reference */
	u64 addr;                       /* bus address of the peer's VRAM */
	u32 flags;                      /* HSAGPU_PEER_* */
	bool mapped;                    /* dma_map_resource() mapping live */
	struct hsagpu_vm *vm;           /* the file's, or NULL */
	struct hsagpu_vm_map map;       /* GPUVM: the VRAM in the aperture */
	u64 gpu_va;                     /* where, 0 until mapped once */
};

/* hsagpu_mem.flags: registered user memory (REGISTER_MEM), not uapi */
#define HSAGPU_MEM_USERPTR      BIT(16)

struct hsagpu_mem {
	struct kref ref;                /* the handle and every mapping */
	struct hsagpu_device *hdev;     /* holds a reference */
	struct hsagpu_file *owner;
	struct list_head node;          /* owner->mems while it has a handle */
	u32 flags;                      /* HSAGPU_MEM_SYSTEM, _VRAM or _USERPTR */
	u32 handle;
	u64 mmap_offset;
	size_t size;                    /* page aligned */
	u64 bus_addr;                   /* of the first byte */
	unsigned long vram_offset;      /* VRAM: offset in BAR0 */
	/* VRAM of another context's allocation (KFD IPC), referenced */
	struct hsagpu_mem *shared;
	unsigned int queue_users;       /* under hsagpu_file.lock */

	/* Device-contiguous pieces, fixed at allocation: segs[nsegs]. */
	u32 nsegs;
	struct hsagpu_mem_segment *segs; /* &seg0 when there is one */
	struct hsagpu_mem_segment seg0;

	/*
	 * SYSTEM: contiguous up to HSAGPU_MEM_SYSTEM_CONTIG_MAX, else chunks;
	 * USERPTR: the pinned user pages.
	 */
	struct hsagpu_sysbuf sys;

	/*
	 * GPUVM: in the owner's GPU space while mmap()ed through @vma
	 * (under the owner's lock) or registered.
	 */
	struct hsagpu_vm_map map;
	struct vm_area_struct *vma;
	struct mmu_interval_notifier notifier;  /* USERPTR */
	bool notifier_live;
	bool readonly;                  /* USERPTR without write access */
	bool pinned;                    /* USERPTR: sys.pages hold pins */
	u64 user_addr;                  /* USERPTR: first byte's CPU address */
	/* USERPTR: a check of the pins after an invalidation, queued */
	unsigned long reval_pending;
	struct callback_head reval_cb;
	struct work_struct reval_work;
};

/* The queue flags the driver sets (hsagpu_queue_create()) */
#define HSAGPU_QF_ALL_KNOWN     (HSAGPU_QF_PROFILE | HSAGPU_QF_SDMA | \
				 HSAGPU_QF_AMD_QUEUE)

enum { HSAGPU_QMEM_RING, HSAGPU_QMEM_RPTR, HSAGPU_QMEM_WPTR, HSAGPU_QMEM_N };

struct hsagpu_queue {
	struct list_head node;          /* hsagpu_file.queues */
	struct hsagpu_file *hf;         /* owner: whom its interrupts wake */
	u32 hw_id;
	u32 doorbell_slot;
	struct hsagpu_mem *mem[HSAGPU_QMEM_N];
	/* watchdog: the dispatch ids, and when the read index last moved */
	const u64 *rptr;
	const u64 *wptr;
	u64 wd_rptr;
	unsigned long wd_stalled;       /* jiffies with work, no progress */
};

/*
 * The MSI-X vector of hardware queue @id: queues spread over vectors
 * 1..N-1; vector 0 (errors) is shared when it is the only one.
 */
static inline u32 hsagpu_queue_vector(struct hsagpu_device *hdev, u32 id)
{
	u32 nvec = hdev->msix_vectors;

	return nvec > 1 ? 1 + id % (nvec - 1) : 0;
}

static inline u32 hsagpu_rd(struct hsagpu_device *hdev, u32 reg)
{
	return readl(hdev->mmio + reg);
}

static inline void hsagpu_wr(struct hsagpu_device *hdev, u32 reg, u32 val)
{
	writel(val, hdev->mmio + reg);
}

/* How long ioctls wait for a reset or an AER recovery to end. */
#define HSAGPU_RECOVER_WAIT_MS  10000

/*
 * Bracket BAR accesses from process context: fails with -ENODEV once the
 * device is gone, waits while a reset is under way (-EINTR on a signal,
 * -EIO when it does not end in time: a failed AER recovery never ends),
 * and keeps remove() and resets out until hsagpu_exit().
 */
static inline int hsagpu_enter(struct hsagpu_device *hdev)
{
	long left;

	for (;;) {
		down_read(&hdev->remove_sem);
		if (hdev->dead) {
			up_read(&hdev->remove_sem);
			return -ENODEV;
		}
		if (!hdev->resetting)
			return 0;
		up_read(&hdev->remove_sem);
		left = wait_event_interruptible_timeout(hdev->recover_wq,
				!READ_ONCE(hdev->resetting) ||
				READ_ONCE(hdev->dead),
				msecs_to_jiffies(HSAGPU_RECOVER_WAIT_MS));
		if (left < 0)
			return -EINTR;
		if (!left)
			return -EIO;
	}
}

static inline void hsagpu_exit(struct hsagpu_device *hdev)
{
	up_read(&hdev->remove_sem);
}

/*
 * What the KFD facade (hsagpu_amdgpu.ko) may use is declared in
 * hsagpu_export.h, not here; the functions below are the core's own.
 */

/* hsagpu_aux.c: the auxiliary device other modules bind to */
int hsagpu_aux_add(struct hsagpu_device *hdev);
void hsagpu_aux_del(struct hsagpu_device *hdev);

/* hsagpu_drv.c */
int hsagpu_queues_allowed(struct hsagpu_device *hdev);

/* hsagpu_rom.c */
int hsagpu_rom_validate(struct hsagpu_device *hdev);

/* hsagpu_irq.c */
int hsagpu_irq_setup(struct hsagpu_device *hdev);

/* hsagpu_sysbuf.c */
int hsagpu_sysbuf_alloc(struct hsagpu_device *hdev, struct hsagpu_sysbuf *b,
			size_t size, bool contig);
void hsagpu_sysbuf_free(struct hsagpu_device *hdev, struct hsagpu_sysbuf *b);
int hsagpu_sysbuf_map(struct hsagpu_device *hdev, struct hsagpu_sysbuf *b);
void hsagpu_sysbuf_unmap_table(struct hsagpu_device *hdev,
			       struct hsagpu_sysbuf *b);
void hsagpu_sysbufs_unmap(struct hsagpu_device *hdev);
vm_fault_t hsagpu_sysbuf_fault(struct hsagpu_sysbuf *b, pgoff_t page,
			       struct vm_fault *vmf);

/* hsagpu_file.c */
extern const struct file_operations hsagpu_fops;
void hsagpu_files_zap(struct hsagpu_device *hdev);
void hsagpu_file_zap(struct hsagpu_file *hf);

/* hsagpu_recover.c */
extern const struct pci_error_handlers hsagpu_err_handlers;
void hsagpu_recover_init(struct hsagpu_device *hdev);
void hsagpu_recover_fini(struct hsagpu_device *hdev);
void hsagpu_keep_state(struct hsagpu_device *hdev);
void hsagpu_recover_fatal(struct hsagpu_device *hdev);
void hsagpu_file_lose(struct hsagpu_device *hdev, struct hsagpu_file *hf);

/* hsagpu_mem.c */
int hsagpu_vram_init(struct hsagpu_device *hdev);
long hsagpu_ioctl_alloc_mem(struct hsagpu_file *hf, void *data);
void hsagpu_ioctl_alloc_mem_undo(struct hsagpu_file *hf, void *data);
long hsagpu_ioctl_free_mem(struct hsagpu_file *hf, void *data);
int hsagpu_mem_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma,
		    u64 index);
long hsagpu_ioctl_mem_segments(struct hsagpu_file *hf, void *data);
struct hsagpu_mem *hsagpu_mem_find_system(struct hsagpu_file *hf, u64 addr,
					  u64 len);
void *hsagpu_mem_kaddr(struct hsagpu_mem *mem, u64 addr);
void hsagpu_mem_release(struct hsagpu_file *hf);
int hsagpu_mem_charge(struct hsagpu_mem *mem);
void hsagpu_mem_uncharge(struct hsagpu_mem *mem);
int hsagpu_mem_publish(struct hsagpu_file *hf, struct hsagpu_mem *mem);
struct hsagpu_mem *hsagpu_mem_publish_get(struct hsagpu_file *hf,
					  struct hsagpu_mem *mem);
void hsagpu_mem_undo_handle(struct hsagpu_file *hf, u64 handle);
int hsagpu_file_usable(struct hsagpu_file *hf);

/* hsagpu_vm.c */
int hsagpu_vm_file_init(struct hsagpu_file *hf);
void hsagpu_vm_file_fini(struct hsagpu_file *hf);
int hsagpu_vm_map(struct hsagpu_vm *vm, struct hsagpu_vm_map *m, u64 va,
		  u64 size, u64 perms, const struct hsagpu_vm_src *src);
void hsagpu_vm_unmap(struct hsagpu_vm *vm, struct hsagpu_vm_map *m);
void hsagpu_vm_unmap_locked(struct hsagpu_vm *vm, struct hsagpu_vm_map *m,
			    struct list_head *freed);
void hsagpu_vm_free_tables(struct hsagpu_vm *vm, struct list_head *freed);
struct hsagpu_vm_map *hsagpu_vm_lookup(struct hsagpu_vm *vm, u64 va, u64 len);
u64 hsagpu_vm_aperture_alloc(struct hsagpu_vm *vm, u64 size);
int hsagpu_vm_vmid_get(struct hsagpu_file *hf);
void hsagpu_vm_vmid_put(struct hsagpu_file *hf);
void hsagpu_vm_restore(struct hsagpu_device *hdev);
void hsagpu_vm_fault_irq(struct hsagpu_device *hdev);
void hsagpu_vm_debugfs_init(struct hsagpu_device *hdev, struct dentry *d);

/* hsagpu_userptr.c */
long hsagpu_ioctl_register_mem(struct hsagpu_file *hf, void *data);

/* hsagpu_ralias.c: cached read alias and dirty-line directory */
int hsagpu_ralias_init(struct hsagpu_device *hdev);
int hsagpu_ralias_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma,
		       u64 index);
long hsagpu_ioctl_vram_dirty(struct hsagpu_file *hf, void *data);
void hsagpu_ioctl_register_mem_undo(struct hsagpu_file *hf, void *data);
void hsagpu_userptr_free(struct hsagpu_mem *mem);
int hsagpu_userptr_init(void);
void hsagpu_userptr_exit(void);
int hsagpu_userptr_gpu_map(struct hsagpu_file *hf, struct hsagpu_mem *mem,
			   u64 va);
int hsagpu_userptr_gpu_unmap(struct hsagpu_file *hf, struct hsagpu_mem *mem);

/* hsagpu_peer.c */
long hsagpu_ioctl_peer_access(struct hsagpu_file *hf, void *data);
void hsagpu_peer_release(struct hsagpu_file *hf);
void hsagpu_peers_unmap(struct hsagpu_device *hdev);
void hsagpu_peer_register(struct hsagpu_device *hdev);
void hsagpu_peer_unregister(struct hsagpu_device *hdev);
void hsagpu_peers_revoke(struct hsagpu_device *peer);

/* hsagpu_doorbell.c */
int hsagpu_doorbell_init(struct hsagpu_device *hdev);
int hsagpu_doorbell_page_get(struct hsagpu_file *hf);
int hsagpu_doorbell_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma,
			 u64 index);
void hsagpu_doorbell_release(struct hsagpu_file *hf);

/* hsagpu_queue.c */
int hsagpu_queue_init(struct hsagpu_device *hdev);
long hsagpu_ioctl_create_queue(struct hsagpu_file *hf, void *data);
void hsagpu_ioctl_create_queue_undo(struct hsagpu_file *hf, void *data);
long hsagpu_ioctl_destroy_queue(struct hsagpu_file *hf, void *data);
long hsagpu_ioctl_suspend_queue(struct hsagpu_file *hf, void *data);
long hsagpu_ioctl_resume_queue(struct hsagpu_file *hf, void *data);
long hsagpu_ioctl_queue_status(struct hsagpu_file *hf, void *data);
void hsagpu_queue_release(struct hsagpu_file *hf);
void hsagpu_queue_shutdown(struct hsagpu_device *hdev);
bool hsagpu_queue_hw_destroy(struct hsagpu_device *hdev,
			     struct hsagpu_queue *q);

/* hsagpu_event.c */
long hsagpu_ioctl_create_event(struct hsagpu_file *hf, void *data);
void hsagpu_ioctl_create_event_undo(struct hsagpu_file *hf, void *data);
long hsagpu_ioctl_destroy_event(struct hsagpu_file *hf, void *data);
long hsagpu_ioctl_wait_events(struct hsagpu_file *hf, void *data);
long hsagpu_ioctl_set_event(struct hsagpu_file *hf, void *data);
void hsagpu_event_init(struct hsagpu_file *hf);
int hsagpu_event_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma,
		      u64 index);
void hsagpu_event_release(struct hsagpu_file *hf);
void hsagpu_event_wake_vector(struct hsagpu_device *hdev, u32 vector);
void hsagpu_event_wake_files(struct hsagpu_device *hdev);

/* hsagpu_sysfs.c */
extern const struct attribute_group *hsagpu_groups[];
void hsagpu_debugfs_init(struct hsagpu_device *hdev);
void hsagpu_debugfs_fini(struct hsagpu_device *hdev);
void hsagpu_debugfs_register(void);
void hsagpu_debugfs_unregister(void);

#endif
