/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * hsagpu user-space interface: ioctls on /dev/hsagpuN.
 *
 * Every ioctl argument starts with its own size (__u32 size, which must
 * equal sizeof the structure, the size encoded in the command). The
 * interface grows only by appending fields, and the driver dispatches on
 * the command number (_IOC_NR), not on the whole command:
 *  - an older binary's smaller structure (its command encodes the old
 *    size) is zero-extended: it gets what it always got, and fields newer
 *    than it read as 0; only its own bytes are written back;
 *  - a newer binary's larger structure is accepted when every byte the
 *    driver does not know is 0, and refused with -E2BIG otherwise;
 *  - a size below the first released layout, or a size field that
 *    differs from the command's size, is -EINVAL (but see GET_INFO and
 *    ALLOC_MEM); an unknown number, type or direction is -ENOTTY.
 * Reserved fields must be 0 and unknown flags are refused (-EINVAL).
 *
 * A file belongs to the process that opened it. With GPU virtual memory
 * (GET_INFO vm_flags HSAGPU_VM_INFO_ENABLED) its GPU addresses are that
 * process's CPU addresses, so ioctls and mmap() from any other process
 * (a child using the descriptor inherited through fork()) fail with
 * -EACCES; without it, with -EBADF. close() works from any process.
 *
 * Errors and recovery (what a process sees when the device goes away or
 * is reset; guest-driver/kernel/hsagpu/Documentation/hsagpu.rst):
 *  - the device is removed (unbind, hot-unplug, slot power-off, sysfs
 *    "remove"): sleepers in WAIT_EVENTS return -ENODEV, every later ioctl
 *    and mmap on an open file fails with -ENODEV, doorbell and VRAM
 *    mappings raise SIGBUS, system memory and event page mappings keep
 *    their pages until unmapped, close() works. A peer's removal takes
 *    the PEER_ACCESS mappings of its VRAM away (packets using them fail
 *    with a queue error);
 *  - the device is reset by recovery (an FLR or bus reset asked for by
 *    the administrator through sysfs "reset", a fatal AER error, a fatal
 *    internal error of the device (ERROR_STATUS.FATAL: the driver resets
 *    the function), or the queue watchdog when the device does not stop
 *    a hung queue): every
 *    file that has queues or VRAM allocations loses them. Its sleepers
 *    in WAIT_EVENTS return -EIO, every later ioctl and mmap fails with
 *    -EIO, its doorbell and VRAM mappings raise SIGBUS, close() works.
 *    Other files go on; files opened afterwards work normally. Ioctls
 *    that need the device wait while the reset is under way, and fail
 *    with -EIO if it does not end within 10 s (a failed AER recovery);
 *  - the queue watchdog (hsagpu.ko parameter queue_timeout_ms, default
 *    30000, 0 disables it): a queue with pending work (write index ahead
 *    of the read index) whose read index has not moved for that long is
 *    hung, and its file alone loses its queues and VRAM as above. Work
 *    that legitimately keeps one packet at the read index longer (a
 *    BARRIER_AND on a signal nobody sets soon, a long BUSY kernel) needs
 *    a larger timeout.
 */
#ifndef _UAPI_HSAGPU_H
#define _UAPI_HSAGPU_H

#include <linux/ioctl.h>
#include <linux/types.h>

#include "hsagpu_aql.h"

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
	/* ABI 1.2 */
	__u64 vram_bus_addr;    /* BAR0 bus address: own VRAM for the device */
	__u32 p2p_addr_bits;    /* HSAGPU_REG_P2P_ADDR_BITS */
	__u32 p2p_status;       /* HSAGPU_REG_P2P_STATUS (HSAGPU_P2P_*) */
	__u32 dma_flags;        /* HSAGPU_DMA_INFO_* */
	__u32 vm_flags;         /* ABI 1.3: HSAGPU_VM_INFO_* */
};

/*
 * The ABI 1.1 structure ended before vram_bus_addr. Binaries built
 * against that header issue HSAGPU_IOC_GET_INFO with this size in the
 * command; as with ABI 1.2 drivers, today's command with this size in
 * .size is answered in the 1.1 layout too (same for ALLOC_MEM).
 */
#define HSAGPU_DEVICE_INFO_SIZE_1_1     88

/* hsagpu_device_info.dma_flags */
#define HSAGPU_DMA_INFO_IOMMU           (1U << 0)  /* DMA is IOMMU-translated */

/*
 * GPU virtual memory (ABI 1.3, docs/vm.md). With HSAGPU_VM_INFO_ENABLED
 * (the default: hsagpu.ko parameter vm=1 when the file was opened) every
 * address this file's queues use is a GPU virtual address in the file's
 * own address space, where system memory and VRAM allocations appear at
 * the address the process mmap()ed them at, registered user memory at
 * its own address (REGISTER_MEM), and driver objects (the event page,
 * peers' VRAM) in the driver aperture above every CPU user address.
 * Bus addresses are never shown: ALLOC_MEM's bus_addr is 0 and
 * MEM_SEGMENTS fails with -EOPNOTSUPP. Without it (vm=0, for comparison
 * and benchmarks; the file's queues run in VMID 0) addresses are bus
 * addresses as in ABI 1.2 and any file can reach any memory the device
 * can.
 */
#define HSAGPU_VM_INFO_CAPABLE          (1U << 0)  /* the device has GPUVM */
#define HSAGPU_VM_INFO_ENABLED          (1U << 1)  /* this file uses it */

#define HSAGPU_VM_APERTURE_BASE         (1ULL << 47)
#define HSAGPU_VM_APERTURE_END          ((1ULL << 48) - 1)

#define HSAGPU_IOC_GET_INFO \
	_IOWR(HSAGPU_IOCTL_BASE, 0x01, struct hsagpu_device_info)

/*
 * mmap offsets encode what is mapped, as amdkfd does: the type in bits
 * 47:40 of the byte offset, an index in the page number below it. The
 * driver returns ready-made offsets; user space never builds them.
 */
#define HSAGPU_MMAP_TYPE_SHIFT          40
#define HSAGPU_MMAP_TYPE_MASK           (0xffULL << HSAGPU_MMAP_TYPE_SHIFT)
#define HSAGPU_MMAP_TYPE_DOORBELL       1ULL    /* this file's doorbell page */
#define HSAGPU_MMAP_TYPE_MEMORY         2ULL    /* an allocation */
#define HSAGPU_MMAP_TYPE_EVENTS         3ULL    /* this file's event page */
/* In MEMORY offsets, the index's top bit: the allocation is VRAM. */
#define HSAGPU_MMAP_MEMORY_VRAM         (1ULL << (HSAGPU_MMAP_TYPE_SHIFT - 1))

/* Memory ---------------------------------------------------------------- */

#define HSAGPU_MEM_SYSTEM               (1U << 0)  /* system memory, coherent */
#define HSAGPU_MEM_VRAM                 (1U << 1)  /* device memory, BAR0 */
#define HSAGPU_MEM_FLAGS_ALL            0x3U
#define HSAGPU_MEM_SYSTEM_MAX           (1ULL << 30)
#define HSAGPU_MEM_SYSTEM_CONTIG_MAX    (4ULL << 20)   /* one segment */

/*
 * With GPU virtual memory, an allocation is in the file's GPU address
 * space while, and where, it is mmap()ed: at the mapping's CPU address,
 * readable, writeable if the mapping is (PROT_WRITE), executable if it
 * is (PROT_EXEC). One mapping at a time per allocation (another mmap()
 * while mapped: -EBUSY), of the whole allocation (a shorter one:
 * -EINVAL); it cannot be split, moved or grown (munmap() of a part or
 * an mremap() that moves it: -EINVAL; growing it is refused by mremap()
 * itself, -EFAULT). munmap() takes it out of the GPU space (page
 * table entries cleared, TLB invalidated) before the pages can be
 * reused. Only the process that opened the file can mmap() (else
 * -EACCES): GPU addresses are that process's CPU addresses.
 *
 * Without GPU virtual memory: exactly one of SYSTEM and VRAM. size is
 * rounded up to pages. bus_addr is
 * the address the device uses (kernarg, buffers, rings, signals) for the
 * first byte. System allocations up to HSAGPU_MEM_SYSTEM_CONTIG_MAX are
 * one segment; larger ones may be several (nsegs > 1, each at least
 * 64 KiB unless it is the last one), listed by MEM_SEGMENTS: the DMA
 * engine's scatter-gather lists reach them. With an IOMMU they are
 * usually one segment.
 *
 * System memory is charged to the caller's memory cgroup: beyond its
 * limit ALLOC_MEM fails with -ENOMEM. -EDQUOT: beyond the driver's limits
 * (hsagpu.ko parameters): file_alloc_limit live allocations per open
 * file, file_sysmem_limit_mb of SYSTEM memory per file and
 * sysmem_limit_mb per device. An allocation counts until it is really
 * gone, i.e. also after FREE_MEM while it is still mapped.
 */
struct hsagpu_alloc_mem {
	__u32 size;             /* in: sizeof(struct hsagpu_alloc_mem) */
	__u32 flags;            /* in: HSAGPU_MEM_* */
	__u64 bytes;            /* in: > 0 */
	__u64 handle;           /* out: for FREE_MEM */
	__u64 mmap_offset;      /* out: mmap() this, bytes long */
	__u64 bus_addr;         /* out */
	/* ABI 1.2 (size 48; the 1.1 layout, 40 bytes, is still accepted) */
	__u32 nsegs;            /* out: device-contiguous pieces, >= 1 */
	__u32 reserved;         /* must be 0 */
	/*
	 * ABI 1.3 (size 56): VRAM allocations: the allocation's offset in
	 * the device's VRAM, in both modes (0 for system memory). With GPU
	 * virtual memory it is the only way for a peer's user to name the
	 * allocation: PEER_ACCESS's vram_addr + vram_offset.
	 */
	__u64 vram_offset;      /* out */
};

#define HSAGPU_ALLOC_MEM_SIZE_1_1       40
#define HSAGPU_ALLOC_MEM_SIZE_1_2       48

struct hsagpu_mem_segment {
	__u64 bus_addr;
	__u64 bytes;
};

/*
 * Copy segments [first, first + count) of an allocation to segs_ptr;
 * count is clamped to what exists (out: number written). -ENOENT: not
 * this file's handle; -EINVAL: first >= nsegs.
 */
struct hsagpu_mem_segments {
	__u32 size;
	__u32 reserved;         /* must be 0 */
	__u64 handle;           /* in */
	__u64 segs_ptr;         /* in: struct hsagpu_mem_segment[count] */
	__u32 first;            /* in */
	__u32 count;            /* in: capacity; out: written */
};

struct hsagpu_free_mem {
	__u32 size;
	__u32 reserved;         /* must be 0 */
	__u64 handle;
};

#define HSAGPU_IOC_ALLOC_MEM \
	_IOWR(HSAGPU_IOCTL_BASE, 0x02, struct hsagpu_alloc_mem)
#define HSAGPU_IOC_FREE_MEM \
	_IOW(HSAGPU_IOCTL_BASE, 0x03, struct hsagpu_free_mem)
#define HSAGPU_IOC_MEM_SEGMENTS \
	_IOWR(HSAGPU_IOCTL_BASE, 0x0c, struct hsagpu_mem_segments)

/*
 * Register user memory (malloc, stack, file mappings: any range of the
 * calling process's address space) for the device, with GPU virtual
 * memory: the pages under [addr, addr + bytes), rounded out to whole
 * pages, are pinned and mapped at their own CPU addresses, writeable
 * unless HSAGPU_REGISTER_READONLY. FREE_MEM with the handle unregisters.
 * When the process unmaps or replaces any of those pages (munmap,
 * mremap, madvise(MADV_DONTNEED), exit) the whole registration leaves
 * the GPU space before the pages can be freed: later device accesses
 * to it take a VM fault. Pages stay the process's own across fork().
 * Charged like SYSTEM allocations (file_alloc_limit, memory cgroup).
 * -EINVAL: empty, wraps, flags, beyond the CPU user address range;
 * -EFAULT: not mapped in the process; -EBUSY: overlaps another GPU
 * mapping of the file; -EOPNOTSUPP: the file does not use GPU virtual
 * memory; -EACCES: not the process that opened the file.
 */
#define HSAGPU_REGISTER_READONLY        (1U << 0)
#define HSAGPU_REGISTER_FLAGS_ALL       0x1U

struct hsagpu_register_mem {
	__u32 size;
	__u32 flags;            /* in: HSAGPU_REGISTER_* */
	__u64 addr;             /* in: CPU = GPU address */
	__u64 bytes;            /* in */
	__u64 handle;           /* out: for FREE_MEM */
};

#define HSAGPU_IOC_REGISTER_MEM \
	_IOWR(HSAGPU_IOCTL_BASE, 0x0f, struct hsagpu_register_mem)

/* Peers ----------------------------------------------------------------- */

/*
 * Let this device reach the VRAM of the device open on peer_fd (another
 * /dev/hsagpuN). With GPU virtual memory, vram_addr is where the peer's
 * whole VRAM appears in this file's GPU address space (in the driver
 * aperture); the rest of this paragraph is about the bus address behind
 * it, which is what vram_addr is without GPU virtual memory.
 * vram_addr is the bus address this device must use for
 * the peer's VRAM offset 0: the peer's BAR0 bus address when a common
 * switch routes between them, or an IOMMU mapping of it when the path
 * goes through the root complex and DMA is translated. The mapping
 * lives until this file is closed or either device is removed (then
 * packets using the address fail with a queue error); asking again
 * returns the same one.
 * -EBADF: peer_fd is not open; -EINVAL: it is not an hsagpu device or it
 * is this device; -ENODEV: either device is gone.
 */
#define HSAGPU_PEER_VIA_SWITCH          (1U << 0)  /* common switch routes it */
#define HSAGPU_PEER_VIA_ROOT            (1U << 1)  /* through the root complex */
#define HSAGPU_PEER_IOMMU               (1U << 2)  /* vram_addr is an IOVA */

struct hsagpu_peer_access {
	__u32 size;
	__s32 peer_fd;          /* in */
	__u64 vram_addr;        /* out */
	__u64 vram_size;        /* out */
	__u64 peer_bar_addr;    /* out: the peer's BAR0 bus address */
	__u32 flags;            /* out: HSAGPU_PEER_* */
	__u32 peer_p2p_status;  /* out: the peer's HSAGPU_REG_P2P_STATUS */
};

#define HSAGPU_IOC_PEER_ACCESS \
	_IOWR(HSAGPU_IOCTL_BASE, 0x0d, struct hsagpu_peer_access)

/* Queues ---------------------------------------------------------------- */

/*
 * With GPU virtual memory, ring_addr, rptr_addr and wptr_addr are GPU
 * virtual addresses (the device translates them; -EFAULT when they are
 * not mapped writeable), the queue runs in the file's VMID, which the
 * file holds while it has queues: with all 15 translated VMIDs held by
 * other files, CREATE_QUEUE fails with -ENOSPC.
 *
 * Without it, ring_addr, rptr_addr and wptr_addr are bus addresses inside
 * the caller's own system-memory allocations (checked): the ring of
 * ring_size 64-byte packets (power of two, 64-byte aligned), and the
 * 8-byte read and write dispatch ids (normally in a struct
 * hsagpu_queue_desc). The doorbell is at doorbell_offset bytes into the
 * mapping of doorbell_mmap_offset (one page, the caller's own).
 */
#define HSAGPU_QUEUE_CREATE_PROFILE     (1U << 0)  /* signal timestamps */
#define HSAGPU_QUEUE_CREATE_FLAGS_ALL   0x1U

struct hsagpu_create_queue {
	__u32 size;             /* in: sizeof(struct hsagpu_create_queue) */
	__u32 flags;            /* in: HSAGPU_QUEUE_CREATE_* */
	__u64 ring_addr;        /* in */
	__u32 ring_size;        /* in: packets */
	__u32 priority;         /* in: 0..HSAGPU_QUEUE_PRIORITY_MAX */
	__u64 rptr_addr;        /* in */
	__u64 wptr_addr;        /* in */
	__u32 queue_id;         /* out: hardware queue number */
	__u32 doorbell_offset;  /* out: byte offset in the doorbell page */
	__u64 doorbell_mmap_offset; /* out */
};

struct hsagpu_queue_id {
	__u32 size;
	__u32 queue_id;
};

/* HSAGPU_QSTATE_* and HSAGPU_QERR_* are in hsagpu_aql.h */
struct hsagpu_queue_status {
	__u32 size;
	__u32 queue_id;         /* in */
	__u32 state;            /* out: HSAGPU_QSTATE_* */
	__u32 error;            /* out: HSAGPU_QERR_* */
	__u64 error_dispatch_id; /* out */
	__u32 retired;          /* out: packets completed (wraps) */
	__u32 reserved;
	/*
	 * ABI 1.3: error HSAGPU_QERR_VM_FAULT: the faulting GPU virtual
	 * address and HSAGPU_VM_FAULT_* bits (VMID, client, access, reason);
	 * HSAGPU_QERR_ILLEGAL_INSTRUCTION and HSAGPU_QERR_TRAP (code
	 * objects): the instruction's address and its first dword
	 */
	__u64 fault_addr;       /* out */
	__u32 fault_info;       /* out */
	__u32 reserved1;
};

#define HSAGPU_QUEUE_STATUS_SIZE_1_2    32

#define HSAGPU_IOC_CREATE_QUEUE \
	_IOWR(HSAGPU_IOCTL_BASE, 0x04, struct hsagpu_create_queue)
#define HSAGPU_IOC_DESTROY_QUEUE \
	_IOW(HSAGPU_IOCTL_BASE, 0x05, struct hsagpu_queue_id)
#define HSAGPU_IOC_QUEUE_STATUS \
	_IOWR(HSAGPU_IOCTL_BASE, 0x06, struct hsagpu_queue_status)
#define HSAGPU_IOC_SUSPEND_QUEUE \
	_IOW(HSAGPU_IOCTL_BASE, 0x07, struct hsagpu_queue_id)
#define HSAGPU_IOC_RESUME_QUEUE \
	_IOW(HSAGPU_IOCTL_BASE, 0x08, struct hsagpu_queue_id)

/* Events ---------------------------------------------------------------- */

/*
 * An event is a slot in the file's event page (system memory the device
 * writes). Put mailbox_addr and event_id into a signal's
 * event_mailbox_ptr and event_id: when the device completes the signal it
 * writes event_id to the slot and interrupts; WAIT_EVENTS sleeps until a
 * slot is written. Waking consumes the event (auto-reset). SET_EVENT does
 * from the CPU what the device does: a thread that changed a signal wakes
 * the threads blocked on it.
 *
 * The device's interrupt wakes the waiters of the file that owns the
 * queue that completed the signal: put an event of the same file into the
 * signals that file's queues complete. A wait on another file's (or
 * another device's) event is ended by SET_EVENT or its timeout.
 *
 * Every consumption (and every SET_EVENT) advances the event's age. A
 * waiter that passes the age it last saw wakes at once when the age moved
 * on, even if another waiter consumed the slot: several threads can wait
 * on one event without losing wake-ups.
 */
#define HSAGPU_MAX_EVENTS               512U    /* per open file */
#define HSAGPU_EVENT_SLOT_UNSIGNALED    0ULL

struct hsagpu_create_event {
	__u32 size;
	__u32 event_id;         /* out: 1..HSAGPU_MAX_EVENTS */
	__u64 mailbox_addr;     /* out: device address of the slot */
};

struct hsagpu_event_id {
	__u32 size;
	__u32 event_id;
};

#define HSAGPU_WAIT_ALL                 (1U << 0)
#define HSAGPU_WAIT_FLAGS_ALL           0x1U
#define HSAGPU_WAIT_INFINITE            0xffffffffU
#define HSAGPU_WAIT_EVENTS_MAX          64U

/*
 * Returns 0 when any (or with WAIT_ALL, every) listed event is signaled,
 * -ETIME after timeout_ms, -EINTR on a signal. signaled gets a bit per
 * list entry consumed by this call, or whose age differs from the one
 * passed in ages_ptr.
 *
 * ages_ptr (0: none) points to num_events __u64 ages: in, the age the
 * caller last saw (0: unknown, do not compare); out, the current age. A
 * caller that takes the ages with timeout_ms 0, then checks its signals,
 * then waits with those ages, cannot miss a SET_EVENT or a device
 * completion in between. The ABI 1.2 structure ended before ages_ptr
 * (HSAGPU_WAIT_EVENTS_SIZE_1_2 bytes) and is still accepted: its callers
 * wait without ages. ages_ptr and SET_EVENT came after ABI 1.2: drivers
 * without them answer -ENOTTY.
 */
struct hsagpu_wait_events {
	__u32 size;
	__u32 flags;            /* in: HSAGPU_WAIT_* */
	__u64 events_ptr;       /* in: __u32 event ids */
	__u32 num_events;       /* in: 1..HSAGPU_WAIT_EVENTS_MAX */
	__u32 timeout_ms;       /* in: or HSAGPU_WAIT_INFINITE */
	__u64 signaled;         /* out */
	__u64 ages_ptr;         /* in: __u64 ages, in/out (newer) */
};

#define HSAGPU_WAIT_EVENTS_SIZE_1_2     32

#define HSAGPU_IOC_CREATE_EVENT \
	_IOWR(HSAGPU_IOCTL_BASE, 0x09, struct hsagpu_create_event)
#define HSAGPU_IOC_DESTROY_EVENT \
	_IOW(HSAGPU_IOCTL_BASE, 0x0a, struct hsagpu_event_id)
#define HSAGPU_IOC_WAIT_EVENTS \
	_IOWR(HSAGPU_IOCTL_BASE, 0x0b, struct hsagpu_wait_events)
/* Signal an event from the CPU. */
#define HSAGPU_IOC_SET_EVENT \
	_IOW(HSAGPU_IOCTL_BASE, 0x0e, struct hsagpu_event_id)

/* Cached read alias (HSAGPU_CAP_READ_ALIAS) ------------------------------ */

/*
 * With the device's read alias (GET_INFO caps HSAGPU_CAP_READ_ALIAS,
 * BAR4: the first read_alias_size bytes of VRAM again), a VRAM
 * allocation that lies inside that window has a second, cacheable
 * (write-back) CPU mapping for reads: mmap() the whole allocation at
 * HSAGPU_MMAP_CACHED(its mmap_offset). Its usual mapping stays
 * write-combining and is the one in the GPU address space; the cached
 * one never is. The CPU caches do not snoop the device: before reading
 * data the device wrote, flush those lines (clflush/clflushopt) from the
 * cached mapping. VRAM_DIRTY lists them: the device marks every 64-byte
 * line of the window it writes (kernels, DMA, SDMA, AtomicOps, signals,
 * a peer's DMA into this VRAM) and only a clear takes the mark away; CPU
 * stores through either mapping mark nothing (flush lines you wrote
 * through the cached mapping yourself, or do not write through it).
 * -ERANGE: the allocation is not entirely inside the window (mmap() and
 * VRAM_DIRTY); -ENODEV: the device has no alias (VRAM_DIRTY), mmap()
 * then fails with -ERANGE as well.
 */
#define HSAGPU_MMAP_TYPE_CACHED         4ULL    /* a VRAM allocation, cached */
#define HSAGPU_MMAP_CACHED(mmap_offset) \
	(((mmap_offset) & ~HSAGPU_MMAP_TYPE_MASK) | \
	 (HSAGPU_MMAP_TYPE_CACHED << HSAGPU_MMAP_TYPE_SHIFT))

/* A run of dirty lines: offset and bytes multiples of 64, in the allocation */
struct hsagpu_dirty_range {
	__u64 offset;
	__u64 bytes;
};

#define HSAGPU_DIRTY_CLEAR              (1U << 0)  /* clear what is returned */
#define HSAGPU_DIRTY_FLAGS_ALL          0x1U
#define HSAGPU_DIRTY_RANGES_MIN         32U
#define HSAGPU_DIRTY_RANGES_MAX         65536U

/*
 * The dirty lines of [offset, offset + bytes) of VRAM allocation handle
 * (this file's), as runs of whole lines in ascending order (a line only
 * partly inside the range is listed whole), written to ranges_ptr (up
 * to capacity runs; the array may be written beyond count). With
 * HSAGPU_DIRTY_CLEAR the lines returned are cleared in the same atomic
 * step as they are read: a line the device writes meanwhile is either
 * returned or stays marked, never lost. Lines of the directory outside
 * the range are not touched. When the array fills up, next is where a
 * further call should start (else offset + bytes).
 * -EINVAL: flags, reserved, empty or wrapping range, beyond the
 * allocation, capacity outside [HSAGPU_DIRTY_RANGES_MIN,
 * HSAGPU_DIRTY_RANGES_MAX]; -ENOENT: not a VRAM allocation of this file;
 * -ERANGE: not inside the read alias window; -ENODEV: no read alias;
 * -EFAULT: ranges_ptr not writeable (checked before anything is
 * cleared).
 */
struct hsagpu_vram_dirty {
	__u32 size;
	__u32 flags;            /* in: HSAGPU_DIRTY_* */
	__u64 handle;           /* in: a VRAM allocation */
	__u64 offset;           /* in: first byte, in the allocation */
	__u64 bytes;            /* in */
	__u64 ranges_ptr;       /* in: struct hsagpu_dirty_range[capacity] */
	__u32 capacity;         /* in */
	__u32 count;            /* out: runs written */
	__u64 next;             /* out */
};

#define HSAGPU_IOC_VRAM_DIRTY \
	_IOWR(HSAGPU_IOCTL_BASE, 0x10, struct hsagpu_vram_dirty)

#endif /* _UAPI_HSAGPU_H */
