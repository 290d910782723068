// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hsagpu-fuzz: a hostile process against the hsagpu driver. For a bounded
 * time and from a printed seed it issues random sequences of open, close,
 * ioctl (random and valid-looking arguments), mmap, munmap, touches of
 * the mappings, fork and queue submissions of random packets on
 * /dev/hsagpuN, and dispatches of code objects for the device's GCN
 * interpreter (a small valid kernel, mutated or not, or random dwords,
 * under random descriptor fields and geometry). Afterwards, with every
 * file closed, the kernel must not have leaked: the driver's counters of
 * active queues, allocated SYSTEM bytes and pinned user pages are back to
 * exactly where they were, and slab and available memory (after dropping
 * caches) are within a margin of the start; the kernel log must not show
 * an oops, a WARN or a BUG (checked here and by the host's console scan).
 *
 *   hsagpu-fuzz [-t SECONDS] [-s SEED] [-n MAXOPS] [-v]
 *   hsagpu-fuzz -p      (pin probe: how much memory one file can pin)
 *
 * Defaults: hsagpu_test.fuzz_time= (else 30 s), hsagpu_test.fuzz_seed=
 * (else time and pid). Exit 0 pass, 1 fail, 77 skip (TAP runner).
 *
 * What the device writes is confined to memory the process owns unless
 * the device's DMA is IOMMU-translated: without an IOMMU a device the
 * process programs can write any physical address (as any bus master
 * can), which would corrupt the kernel through no fault of the driver.
 * So without an IOMMU every address the device writes through (buffers,
 * signals, mailboxes, kernel arguments and descriptor lists that hold
 * such addresses) is inside the process's own allocations and written by
 * the CPU, or an address that is not memory at all (refused by the
 * device); with an IOMMU packets may hold any address.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hsagpu/hsagpu_uapi.h"
#include "hsagpu/hsagpu_aql.h"
#include "gt.h"
#include "fuzzacct.h"

#define MAX_FILES       6
#define MAX_ALLOCS      24      /* per file */
#define MAX_QUEUES      6       /* per file */
#define MAX_REGS        8       /* per file, tracked for FREE_MEM */
#define MAX_EVENTS      16      /* per file */
#define MAX_MAPS        64      /* loose mappings (after close, partial) */
#define MAX_DEVS        8
#define PAGE            4096UL

/* --- random numbers: xorshift64*, reproducible from the seed --------- */
static uint64_t rng_state;

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint32_t rnd(uint32_t n)         /* [0, n) */
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

static int chance(int percent)
{
	return rnd(100) < (uint32_t)percent;
}

/* A value a hostile program would try: edges, powers of two, noise. */
static uint64_t rnd_interesting(void)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 63, 64, 255, 256, 4095, 4096,
		4097, 65535, 65536, 1ULL << 20, (1ULL << 20) + 1, 1ULL << 30,
		1ULL << 31, 0x7fffffff, 0x80000000, 0xffffffff, 1ULL << 32,
		1ULL << 40, (1ULL << 40) + 1, 1ULL << 44, 1ULL << 63,
		0x7fffffffffffffffULL, 0xffffffffffffffffULL,
		0xfffffffffffff000ULL,
	};

	switch (rnd(4)) {
	case 0:
		return v[rnd(sizeof(v) / sizeof(v[0]))];
	case 1:
		return 1ULL << rnd(64);
	case 2:
		return rnd64() & ((1ULL << rnd(64)) - 1);
	default:
		return rnd64();
	}
}

/* --- state ------------------------------------------------------------ */
struct alloc {
	int live;
	uint64_t handle, mmap_off, bytes, bus;
	uint32_t flags, nsegs;
	uint8_t *cpu;           /* our shared mapping, or NULL */
	int ctl;                /* rings, signals, kernargs: CPU-written only */
	int targeted;           /* a packet may still use it */
};

struct queue {
	int live;
	uint32_t id;
	int alloc;              /* backing: ring, then the descriptor */
	uint32_t size;          /* packets */
	uint64_t wid;           /* our write_dispatch_id */
	uint32_t doorbell_off;
};

struct file {
	int fd;                 /* -1: free slot */
	int dev;
	struct alloc a[MAX_ALLOCS];
	struct queue q[MAX_QUEUES];
	uint32_t ev[MAX_EVENTS];
	uint64_t ev_mailbox[MAX_EVENTS];
	int nev;
	uint8_t *doorbell;      /* mapped doorbell page */
	uint64_t doorbell_mmap_off;
	uint64_t reg[MAX_REGS]; /* REGISTER_MEM handles we may unregister */
	int nreg;
	int sig_alloc;          /* ctl allocation holding our signals, or -1 */
	int vm;                 /* its queues run in its own GPU address space */
	uint64_t ctl_next;      /* next free kernarg/list block in its upper half */
};

struct loose_map {
	void *p;
	size_t len;
};

struct devinfo {
	char path[32];
	struct hsagpu_device_info info;
	uint64_t regs_bus, db_bus;      /* BAR5, BAR2 bus addresses */
	char pci[16];
	long queues_active0;
};

static struct file files[MAX_FILES];
static struct loose_map maps[MAX_MAPS];
static struct devinfo devs[MAX_DEVS];
static int ndevs;
static int iommu;               /* every device's DMA is translated */
static int verbose;
static int in_child;            /* a forked child: the parent shares our files */
static unsigned long nops, nerr, nfault, nforks, npackets, nresets;
/*
 * Bytes allocated since everything was last released. Allocations stay
 * pinned while a file or any mapping of them lives, and the driver
 * neither limits nor charges them (docs/reliability.md): without a bound
 * the run would end in the OOM killer. Past the budget every file and
 * mapping goes (a check point: no queue may survive it).
 */
#define ALLOC_BUDGET    (192ULL << 20)
static uint64_t alloc_bytes;
static int want_release;
static unsigned long op_count[32];

static sigjmp_buf fault_jmp;
static volatile sig_atomic_t fault_armed;

static void fault_handler(int sig)
{
	if (fault_armed)
		siglongjmp(fault_jmp, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Touch memory that may fault (a freed allocation, a mapping the child
 * did not inherit, a removed BAR). Nests: the outer guard is restored.
 */
#define GUARDED(stmt)                                                   \
	do {                                                            \
		sigjmp_buf saved_jmp;                                   \
		int saved_armed = fault_armed;                          \
									\
		memcpy(&saved_jmp, &fault_jmp, sizeof(saved_jmp));      \
		fault_armed = 1;                                        \
		if (sigsetjmp(fault_jmp, 1) == 0) {                     \
			stmt;                                           \
		} else {                                                \
			nfault++;                                       \
		}                                                       \
		memcpy(&fault_jmp, &saved_jmp, sizeof(saved_jmp));      \
		fault_armed = saved_armed;                              \
	} while (0)

/*
 * Functions of their own, so that no caller's locals live across
 * sigsetjmp. Copies go in aligned 64-bit stores: the device never sees a
 * torn pointer.
 */
static void guarded_copy(void *dst, const void *src, size_t n)
{
	GUARDED({
		volatile uint64_t *d = dst;
		const uint64_t *s = src;

		for (size_t k = 0; k < n / 8; k++)
			d[k] = s[k];
	});
}

static int guarded_read64(volatile uint64_t *p, uint64_t *v)
{
	volatile int ok = 0;

	GUARDED({
		*v = *p;
		ok = 1;
	});
	return ok;
}

static void guarded_ring_init(uint8_t *ring, size_t bytes, uint32_t packets)
{
	GUARDED({
		memset(ring, 0, bytes);
		for (uint32_t k = 0; k < packets; k++)
			((uint16_t *)(ring + k * 64))[0] = HSAGPU_PKT_TYPE_INVALID;
	});
}

static void vlog(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	printf("# op %lu: ", nops);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	int r = ioctl(fd, cmd, arg);

	if (r < 0) {
		nerr++;
		return errno;
	}
	return 0;
}

static void add_loose_map(void *p, size_t len)
{
	int i = rnd(MAX_MAPS);

	if (maps[i].p) {
		munmap(maps[i].p, maps[i].len);
	}
	maps[i].p = p;
	maps[i].len = len;
}

/* --- devices ---------------------------------------------------------- */
static uint64_t sysfs_bar_start(const char *pci, int bar)
{
	char path[96], line[128];
	unsigned long long start = 0, end, flags;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource", pci);
	f = fopen(path, "r");
	if (!f)
		return 0;
	for (i = 0; i <= bar && fgets(line, sizeof(line), f); i++)
		if (i == bar && sscanf(line, "%llx %llx %llx", &start, &end, &flags) != 3)
			start = 0;
	fclose(f);
	return start;
}

/* One of the driver's debugfs counters of device @d, or -1. */
static long drv_count(const struct devinfo *d, const char *name)
{
	uint64_t v;

	if (gt_debugfs_u64(d->pci, name, &v))
		return -1;
	return (long)v;
}

static long queues_active(const struct devinfo *d)
{
	return drv_count(d, "queues_active");
}

static int find_devices(void)
{
	int i, fd;

	iommu = 1;
	for (i = 0; i < MAX_DEVS; i++) {
		struct devinfo *d = &devs[ndevs];

		snprintf(d->path, sizeof(d->path), "/dev/hsagpu%d", i);
		fd = open(d->path, O_RDWR);
		if (fd < 0)
			continue;
		memset(&d->info, 0, sizeof(d->info));
		d->info.size = sizeof(d->info);
		if (ioctl(fd, HSAGPU_IOC_GET_INFO, &d->info) == 0) {
			snprintf(d->pci, sizeof(d->pci), "%04x:%02x:%02x.%x",
				 d->info.pci_domain, d->info.pci_bus,
				 d->info.pci_devfn >> 3, d->info.pci_devfn & 7);
			d->regs_bus = sysfs_bar_start(d->pci, HSAGPU_BAR_MMIO);
			d->db_bus = sysfs_bar_start(d->pci, 2);
			if (!(d->info.dma_flags & HSAGPU_DMA_INFO_IOMMU))
				iommu = 0;
			ndevs++;
		}
		close(fd);
	}
	return ndevs;
}

/* --- addresses ---------------------------------------------------------- */

/* An address that is not memory: the device must refuse it. */
static uint64_t addr_not_memory(struct file *f)
{
	struct devinfo *d = &devs[f->dev];

	switch (rnd(5)) {
	case 0:
		return d->regs_bus + (rnd(0x40000) & ~7U);     /* register BAR */
	case 1:
		return d->db_bus + (rnd(0x200000) & ~7U);      /* doorbell BAR */
	case 2:
		return 0xf0000000000ULL + (rnd64() & 0xffffffff8ULL); /* hole */
	case 3:
		return (1ULL << 50) + (rnd64() & 0xffff8ULL);  /* above the limit */
	default:
		return 0xfffffffffffff000ULL;
	}
}

/* A live allocation of @f (ctl or data as asked; -1 either), or -1. */
static int pick_alloc(struct file *f, int ctl, int need_cpu)
{
	int i, start = rnd(MAX_ALLOCS);

	for (i = 0; i < MAX_ALLOCS; i++) {
		struct alloc *a = &f->a[(start + i) % MAX_ALLOCS];

		if (!a->live || (ctl >= 0 && a->ctl != ctl) || (need_cpu && !a->cpu))
			continue;
		return (start + i) % MAX_ALLOCS;
	}
	return -1;
}

/* Device-contiguous bytes from the start of an allocation. */
static uint64_t alloc_span(const struct alloc *a)
{
	if (a->nsegs > 1)
		return 64 * 1024;       /* every segment but the last is >= 64 KiB */
	return a->bytes;
}

/*
 * A range of @len bytes (@align aligned) the device may write: in one of
 * our data allocations (then *@len may shrink to fit), or not memory.
 */
static uint64_t addr_write(struct file *f, uint64_t *len, unsigned int align)
{
	int i;
	uint64_t span, off;

	if (iommu && chance(15))
		return rnd_interesting() & ~(uint64_t)(align - 1);
	if (chance(15) || (i = pick_alloc(f, 0, 0)) < 0)
		return addr_not_memory(f) & ~(uint64_t)(align - 1);
	f->a[i].targeted = 1;
	span = alloc_span(&f->a[i]);
	if (*len > span)
		*len = span;
	off = span - *len ? rnd64() % (span - *len + 1) : 0;
	off &= ~(uint64_t)(align - 1);
	return f->a[i].bus + off;
}

/* An address the device only reads. */
static uint64_t addr_read(struct file *f, uint64_t *len, unsigned int align)
{
	if (chance(10))
		return (rnd64() % (512ULL << 20)) & ~(uint64_t)(align - 1);
	return addr_write(f, len, align);
}

static void destroy_queues(struct file *f);
static int alloc_slot(struct file *f);

#define CTL_BYTES       (256UL << 10)

/*
 * The file's control allocation (signals below, kernel arguments and
 * descriptor lists above): system memory, mapped, written only by the CPU
 * apart from signal updates. 1 when there is one.
 */
static int ensure_ctl(struct file *f)
{
	struct hsagpu_alloc_mem am = {
		.size = sizeof(am), .flags = HSAGPU_MEM_SYSTEM, .bytes = CTL_BYTES,
	};
	int i;
	void *p;

	if (f->sig_alloc >= 0 && f->a[f->sig_alloc].live && f->a[f->sig_alloc].cpu)
		return 1;
	f->sig_alloc = -1;
	i = alloc_slot(f);
	if (i < 0 || alloc_bytes + CTL_BYTES > ALLOC_BUDGET)
		return 0;
	if (xioctl(f->fd, HSAGPU_IOC_ALLOC_MEM, &am))
		return 0;
	alloc_bytes += CTL_BYTES;
	f->a[i] = (struct alloc) {
		.live = 1, .handle = am.handle, .mmap_off = am.mmap_offset,
		.bytes = CTL_BYTES, .bus = am.bus_addr, .flags = am.flags,
		.nsegs = am.nsegs, .ctl = 1,
	};
	p = mmap(NULL, CTL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, am.mmap_offset);
	if (p == MAP_FAILED) {
		nerr++;
		return 0;       /* unmapped: kept and freed with the file */
	}
	f->a[i].cpu = p;
	/* GPU VM (no bus address shown): the mapping is the device address */
	if (!am.bus_addr)
		f->a[i].bus = (uintptr_t)p;
	f->sig_alloc = i;
	f->ctl_next = 0;
	return 1;
}

/*
 * A signal: 0, a 64-byte slot of our signal allocation that we initialise
 * (value, and a mailbox that is one of our events or our own memory), or
 * not memory.
 */
static uint64_t make_signal(struct file *f)
{
	struct alloc *a;
	struct hsagpu_signal *s;
	uint64_t slot, len = 8;

	if (chance(20))
		return 0;
	if (!ensure_ctl(f) || chance(5))
		return chance(50) ? addr_not_memory(f) : 0;
	a = &f->a[f->sig_alloc];
	a->targeted = 1;
	/* the lower half: the device writes signals (value, timestamps) */
	slot = rnd(a->bytes / 2 / 64);
	s = (struct hsagpu_signal *)(a->cpu + slot * 64);
	GUARDED({
		s->kind = HSAGPU_SIGNAL_KIND_USER;
		s->value = chance(80) ? 1 : (int64_t)rnd_interesting();
		if (f->nev && chance(60)) {
			int e = rnd(f->nev);

			s->event_mailbox_ptr = f->ev_mailbox[e];
			s->event_id = f->ev[e];
		} else if (chance(50)) {
			s->event_mailbox_ptr = 0;
		} else {
			s->event_mailbox_ptr = addr_write(f, &len, chance(90) ? 8 : 1);
			s->event_id = rnd64();
		}
	});
	return a->bus + slot * 64 + (chance(3) ? 4 : 0);
}

/*
 * A CPU-written block of the control allocation for kernel arguments and
 * descriptor lists, never rewritten while a packet may still read it: a
 * pointer from one packet with a size from another could reach past our
 * memory. Blocks are handed out in order; before the area is reused our
 * queues go (destroyed queues are never read again).
 */
static uint64_t ctl_block(struct file *f, void **cpu, size_t bytes)
{
	struct alloc *a;
	uint64_t off;

	*cpu = NULL;
	if (!ensure_ctl(f))
		return 0;
	a = &f->a[f->sig_alloc];
	a->targeted = 1;
	bytes = (bytes + 63) & ~63UL;
	if (f->ctl_next < a->bytes / 2 || f->ctl_next + bytes > a->bytes) {
		destroy_queues(f);
		f->ctl_next = a->bytes / 2;
	}
	off = f->ctl_next;
	f->ctl_next += bytes;
	*cpu = a->cpu + off;
	return a->bus + off;
}

/* --- packets ------------------------------------------------------------ */
static uint16_t header(uint32_t type)
{
	uint16_t h = type | (HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT) |
		     (HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT);

	if (chance(30))
		h |= HSAGPU_PKT_HDR_BARRIER;
	if (chance(5))
		h ^= 1U << rnd(16);     /* reserved scopes, other types */
	return h;
}

/* Grid of at most @items work-items, sometimes invalid (refused whole). */
static void grid(struct hsagpu_kernel_dispatch_packet *p, uint64_t items)
{
	uint32_t dims = 1 + rnd(3), gx, gy = 1, gz = 1;

	if (items == 0)
		items = 1;
	gx = 1 + rnd(items < 4096 ? items : 4096);
	if (dims >= 2)
		gy = 1 + rnd(items / gx ? items / gx : 1);
	if (dims == 3)
		gz = 1 + rnd(items / gx / gy ? items / gx / gy : 1);
	p->setup = dims;
	p->grid_size_x = gx;
	p->grid_size_y = gy;
	p->grid_size_z = gz;
	p->workgroup_size_x = 1 + rnd(gx < 256 ? gx : 256);
	p->workgroup_size_y = dims >= 2 ? 1 + rnd(gy < 4 ? gy : 4) : 1;
	p->workgroup_size_z = 1;
	if (chance(8)) {
		/* refused before anything is written */
		switch (rnd(5)) {
		case 0: p->setup = rnd(2) ? 0 : 4 + rnd(60); break;
		case 1: p->grid_size_x = 0; break;
		case 2: p->workgroup_size_x = 0; break;
		case 3: p->setup = 1; p->grid_size_y = 2 + rnd(100); break;
		default: p->workgroup_size_x = 1025 + rnd(60000); break;
		}
	}
}

static void make_kernel(struct file *f, struct hsagpu_kernel_dispatch_packet *p)
{
	uint32_t k = 1 + rnd(HSAGPU_KERNEL_COUNT);
	uint8_t kargs[64] = { 0 };
	uint64_t items = 1 + rnd(chance(10) ? 1 << 20 : 4096), len;
	void *cpu;
	uint64_t ka;

	memset(p, 0, sizeof(*p));
	if (chance(5))
		k = chance(50) ? 0 : 8 + rnd(100);
	p->kernel_object = HSAGPU_KERNEL_OBJECT(k);
	if (chance(3))
		p->kernel_object = rnd_interesting();
	switch (k) {
	case 1: case 2: case 3: case 4: case 7: {
		/* writes 4 bytes per work-item at one array */
		uint64_t dst, src;

		len = items * 4;
		dst = addr_write(f, &len, chance(95) ? 4 : 1);
		items = len / 4;
		len = items * 4;
		src = addr_read(f, &len, 4);
		if (k == 4) {
			struct hsagpu_kargs_saxpy *a = (void *)kargs;

			a->a = 2.0f;
			a->x = src;
			a->y = dst;
		} else if (k == 3) {
			struct hsagpu_kargs_vadd *a = (void *)kargs;

			a->a = src;
			a->b = addr_read(f, &len, 4);
			a->c = dst;
		} else {
			struct hsagpu_kargs_copy *a = (void *)kargs;

			a->dst = dst;
			a->src = src;    /* FILL: value; IDS: unused */
		}
		break;
	}
	case 5: {
		struct hsagpu_kargs_atomic_inc *a = (void *)kargs;

		len = 8;
		a->counter = addr_write(f, &len, chance(95) ? 8 : 4);
		if (len < 8)
			a->counter = addr_not_memory(f);
		break;
	}
	case 6: {
		struct hsagpu_kargs_busy *a = (void *)kargs;

		a->ns = chance(90) ? rnd(2000000) : rnd_interesting() % 100000000;
		items = 1 + rnd(4);
		break;
	}
	default:
		break;
	}
	grid(p, items);
	ka = ctl_block(f, &cpu, 64);
	if (cpu && chance(95)) {
		guarded_copy(cpu, kargs, sizeof(kargs));
		p->kernarg_address = ka + (chance(3) ? 8 : 0);
	} else {
		/* kernarg the device cannot read: refused */
		p->kernarg_address = addr_not_memory(f);
	}
	if (iommu && chance(10))
		p->kernarg_address = rnd_interesting();
	p->completion_signal = make_signal(f);
	p->header = header(HSAGPU_PKT_TYPE_KERNEL_DISPATCH);
}

static void make_dma(struct file *f, struct hsagpu_dma_packet *p)
{
	uint64_t len = 1 + rnd(chance(10) ? 8 << 20 : 65536);

	memset(p, 0, sizeof(*p));
	p->format = HSAGPU_VENDOR_FORMAT_DMA;
	if (chance(3))  /* AMD's formats, unknown ones */
		p->format = chance(50) ? rnd(4) : rnd(256);
	p->op = 1 + rnd(4);
	if (chance(5))
		p->op = chance(50) ? 0 : 5 + rnd(251);
	if (p->op == HSAGPU_DMA_OP_COPY_SG || p->op == HSAGPU_DMA_OP_FILL_SG) {
		uint32_t n = 1 + rnd(16), i;
		struct hsagpu_dma_desc *d;
		void *cpu;
		uint64_t list = ctl_block(f, &cpu, n * sizeof(*d));

		if (!cpu) {
			p->src = addr_not_memory(f);
			p->size = n;
		} else {
			struct hsagpu_dma_desc list_cpu[16];

			d = list_cpu;
			for (i = 0; i < n; i++) {
				uint64_t l = 1 + rnd(8192);

				d[i].dst = addr_write(f, &l, 1);
				d[i].src = p->op == HSAGPU_DMA_OP_FILL_SG ?
					rnd64() : addr_read(f, &l, 1);
				d[i].size = l;
				d[i].reserved = chance(3) ? rnd64() : 0;
				if (chance(3))
					d[i].size = 0;
			}
			guarded_copy(cpu, list_cpu, n * sizeof(*d));
			p->src = list + (chance(3) ? 4 : 0);
			p->size = chance(5) ? (chance(50) ? 0 : 65537 + rnd(100)) : n;
			if (p->size > n && p->size <= HSAGPU_DMA_SG_MAX)
				p->size = n;   /* entries beyond ours are not ours */
		}
		p->dst = chance(5) ? rnd64() : 0;
	} else {
		p->dst = addr_write(f, &len, 1);
		p->src = p->op == HSAGPU_DMA_OP_FILL ? 0 : addr_read(f, &len, 1);
		p->size = len;
		if (chance(5))  /* refused sizes only: zero or above the maximum */
			p->size = chance(50) ? 0 : HSAGPU_DMA_SIZE_MAX + 1 + rnd(1000);
		p->pattern = rnd64();
		if (p->op == HSAGPU_DMA_OP_COPY && chance(5))
			p->src = p->dst;        /* overlap */
	}
	if (chance(3))
		p->flags = 1U << rnd(32);
	if (chance(3))
		p->reserved[rnd(2)] = rnd64();
	p->completion_signal = make_signal(f);
	p->header = header(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC);
}

static void make_agent(struct file *f, struct hsagpu_agent_dispatch_packet *p)
{
	uint64_t len = 96;

	memset(p, 0, sizeof(*p));
	p->type = chance(95) ? rnd(4) : rnd(65536);
	p->return_address = addr_write(f, &len, chance(95) ? 8 : 1);
	if (len < 96 && p->type == HSAGPU_AGENT_COPY_INFO)
		p->return_address = addr_not_memory(f);
	if (len < 8)
		p->return_address = addr_not_memory(f);
	p->arg[0] = rnd64();
	p->completion_signal = make_signal(f);
	p->header = header(HSAGPU_PKT_TYPE_AGENT_DISPATCH);
}

static void make_barrier(struct file *f, struct hsagpu_barrier_packet *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < HSAGPU_BARRIER_DEPS; i++)
		if (chance(40))
			p->dep_signal[i] = chance(80) ? make_signal(f) : rnd64() & ~7ULL;
	p->completion_signal = make_signal(f);
	p->header = header(chance(50) ? HSAGPU_PKT_TYPE_BARRIER_AND :
				       HSAGPU_PKT_TYPE_BARRIER_OR);
}

/*
 * AMD's vendor packets: PM4_IB over a buffer of PM4 (ROCr's ACQUIRE_MEM,
 * NOPs, other opcodes, type 0/2 headers, lengths past the end) with a
 * jump that is sometimes wrong, or BARRIER_VALUE on one of our signals
 * with any condition. The device only reads what they name, but for the
 * completion signal.
 */
static void make_vendor(struct file *f, uint8_t pkt[64])
{
	memset(pkt, 0, 64);
	if (chance(50)) {
		struct hsagpu_pm4_ib_packet *p = (void *)pkt;
		uint32_t ndw = chance(10) ? rnd(HSAGPU_PM4_IB_MAX_DW + 64) :
			       1 + rnd(32);
		uint32_t ib[HSAGPU_PM4_IB_MAX_DW + 64], i = 0;
		uint64_t va;
		void *cpu;

		va = ctl_block(f, &cpu, (ndw ? ndw : 1) * 4);
		while (i < ndw) {
			uint32_t op = chance(70) ? HSAGPU_PM4_OP_ACQUIRE_MEM :
				      chance(50) ? HSAGPU_PM4_OP_NOP : rnd(256);
			uint32_t len = op == HSAGPU_PM4_OP_ACQUIRE_MEM && chance(90) ?
				       HSAGPU_PM4_ACQUIRE_MEM_DW : 2 + rnd(10);

			ib[i++] = chance(5) ? (uint32_t)rnd64() :
				  HSAGPU_PM4_HDR(op, len);
			for (uint32_t k = 1; k < len && i < ndw; k++)
				ib[i++] = (uint32_t)rnd64();
		}
		if (cpu && ndw)
			guarded_copy(cpu, ib, ndw * 4);
		if (!cpu || chance(3))
			va = chance(50) ? addr_not_memory(f) : rnd_interesting();
		p->format = HSAGPU_VENDOR_FORMAT_PM4_IB;
		p->ib_jump_cmd[0] = chance(95) ?
			HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4) :
			(uint32_t)rnd64();
		p->ib_jump_cmd[1] = (uint32_t)va & (chance(95) ? ~3U : ~0U);
		p->ib_jump_cmd[2] = (uint32_t)(va >> 32);
		p->ib_jump_cmd[3] = ndw | (chance(95) ? HSAGPU_PM4_IB_VALID : 0);
		p->dw_cnt_remain = 0xa;
		p->completion_signal = make_signal(f);
	} else {
		struct hsagpu_barrier_value_packet *b = (void *)pkt;

		b->format = HSAGPU_VENDOR_FORMAT_BARRIER_VALUE;
		b->signal = make_signal(f);
		b->value = chance(50) ? rnd(3) : (int64_t)rnd_interesting();
		b->mask = chance(50) ? -1 : (int64_t)rnd64();
		b->cond = chance(95) ? rnd(4) : rnd64();
		b->completion_signal = make_signal(f);
	}
	pkt[0] = (uint8_t)header(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC);
	pkt[1] = (uint8_t)(header(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC) >> 8);
}

static void make_packet(struct file *f, uint8_t pkt[64])
{
	switch (rnd(iommu ? 6 : 5)) {
	case 0:
		make_kernel(f, (void *)pkt);
		break;
	case 1:
		if (chance(25))
			make_vendor(f, pkt);
		else
			make_dma(f, (void *)pkt);
		break;
	case 2:
		make_agent(f, (void *)pkt);
		break;
	case 3:
		make_barrier(f, (void *)pkt);
		break;
	case 4: {
		/* a valid-looking header over noise in non-address fields */
		uint16_t h = header(rnd(8));

		memset(pkt, 0, 64);
		((uint16_t *)pkt)[0] = h;
		((uint16_t *)pkt)[1] = rnd(65536);
		if (h == HSAGPU_PKT_TYPE_INVALID)
			break;
		/* types the device executes need sane addresses */
		if ((h & 0xff) <= HSAGPU_PKT_TYPE_BARRIER_OR)
			make_barrier(f, (void *)pkt);
		break;
	}
	default:
		/* IOMMU only: anything at all */
		for (int i = 0; i < 8; i++)
			((uint64_t *)pkt)[i] = chance(50) ? rnd64() : rnd_interesting();
		break;
	}
}

/* --- code objects -------------------------------------------------------- */
/*
 * A KERNEL_DISPATCH whose kernel_object is the address of an AMDHSA kernel
 * descriptor runs its code on the device's GCN interpreter, on the host:
 * every descriptor field and instruction is input QEMU must survive. The
 * descriptor and code go into memory of ours (a control block, or a data
 * allocation in system memory or VRAM): a program of the table below as
 * is or mutated, or random dwords, under a descriptor with random fields
 * at times, with random geometry. The code may read and write anything
 * the file's queues can reach, so it is only sent when that is the
 * process's own memory: the file has its GPU address space (hsagpu.ko
 * vm=1, the default) or DMA is IOMMU-translated.
 *
 * Programs: gfx900 encodings from llvm-mc-15 -arch=amdgcn -mcpu=gfx900
 * -show-encoding. Each loads its arguments with one s_load_dwordx8 from
 * the kernarg pointer (struct gcn_args).
 */
#define GCN_KD_SIZE     64
#define GCN_CODE_MAX    96      /* dwords */
#define GCN_S_ENDPGM    0xbf810000U

struct gcn_args {
	uint64_t a, b, c;       /* read, read, write: 4 bytes per work-item */
	uint32_t n, m;          /* a loop count, anything */
	uint8_t pad[32];
};

struct gcn_prog {
	const char *name;
	const uint32_t *code;
	unsigned int ndw;
	uint32_t rsrc1, rsrc2;  /* compute_pgm_rsrc1, 2 */
	uint16_t props;         /* kernel_code_properties */
	uint32_t lds, priv;     /* group and private segment bytes */
};

#define GCN_RSRC1_V4    0x000f0000U     /* 4 VGPRs, denormals kept */
#define GCN_RSRC2_USER(n) ((n) << 1)
#define GCN_RSRC2_PRIV  (1U << 0)
#define GCN_RSRC2_WGX   (1U << 7)
#define GCN_KCP_PSB     (1U << 0)       /* private segment buffer */
#define GCN_KCP_KARG    (1U << 3)       /* kernarg segment pointer */

static const uint32_t gcn_vadd[] = {    /* c[i] = a[i] + b[i], floats */
	0xc00e0100, 0x00000000,         /* s_load_dwordx8 s[4:11], s[0:1], 0x0 */
	0x8e038802,                     /* s_lshl_b32 s3, s2, 8 */
	0x24020082,                     /* v_lshlrev_b32_e32 v1, 2, v0 */
	0x68020203,                     /* v_add_u32_e32 v1, s3, v1 */
	0xbf8cc07f,                     /* s_waitcnt lgkmcnt(0) */
	0xdc508000, 0x02040001,         /* global_load_dword v2, v1, s[4:5] */
	0xdc508000, 0x03060001,         /* global_load_dword v3, v1, s[6:7] */
	0xbf8c0f70,                     /* s_waitcnt vmcnt(0) */
	0x02040702,                     /* v_add_f32_e32 v2, v2, v3 */
	0xdc708000, 0x00080201,         /* global_store_dword v1, v2, s[8:9] */
	GCN_S_ENDPGM,
};

static const uint32_t gcn_lds[] = {     /* LDS exchange across a barrier */
	0xc00e0100, 0x00000000,         /* s_load_dwordx8 s[4:11], s[0:1], 0x0 */
	0x24020082,                     /* v_lshlrev_b32_e32 v1, 2, v0 */
	0xd81a0000, 0x00000001,         /* ds_write_b32 v1, v0 */
	0xbf8cc07f,                     /* s_waitcnt lgkmcnt(0) */
	0xbf8a0000,                     /* s_barrier */
	0x2a040284,                     /* v_xor_b32_e32 v2, 4, v1 */
	0xd86c0000, 0x03000002,         /* ds_read_b32 v3, v2 */
	0xd8000400, 0x00000001,         /* ds_add_u32 v1, v0 offset:1024 */
	0xbf8cc07f,                     /* s_waitcnt lgkmcnt(0) */
	0xdc708000, 0x00080301,         /* global_store_dword v1, v3, s[8:9] */
	GCN_S_ENDPGM,
};

static const uint32_t gcn_salu[] = {    /* scalar ALU, a scalar load via a */
	0xc00e0100, 0x00000000,         /* s_load_dwordx8 s[4:11], s[0:1], 0x0 */
	0xbf8cc07f,                     /* s_waitcnt lgkmcnt(0) */
	0x800c0b0a,                     /* s_add_u32 s12, s10, s11 */
	0x920d0b0a,                     /* s_mul_i32 s13, s10, s11 */
	0x880c0d0c,                     /* s_xor_b32 s12, s12, s13 */
	0x8f0d830c,                     /* s_lshr_b32 s13, s12, 3 */
	0xbf08ff0d, 0x00000064,         /* s_cmp_gt_u32 s13, 0x64 */
	0x850c0d0c,                     /* s_cselect_b32 s12, s12, s13 */
	0xc0020382, 0x00000000,         /* s_load_dword s14, s[4:5], 0x0 */
	0xbf8cc07f,                     /* s_waitcnt lgkmcnt(0) */
	0x800c0e0c,                     /* s_add_u32 s12, s12, s14 */
	0x7e02020c,                     /* v_mov_b32_e32 v1, s12 */
	0x7e040280,                     /* v_mov_b32_e32 v2, 0 */
	0xdc708000, 0x00080102,         /* global_store_dword v2, v1, s[8:9] */
	GCN_S_ENDPGM,
};

static const uint32_t gcn_loop[] = {    /* n iterations */
	0xc00e0100, 0x00000000,         /* s_load_dwordx8 s[4:11], s[0:1], 0x0 */
	0x7e020280,                     /* v_mov_b32_e32 v1, 0 */
	0xbf8cc07f,                     /* s_waitcnt lgkmcnt(0) */
	0x68020281,                     /* v_add_u32_e32 v1, 1, v1 */
	0x808a810a,                     /* s_sub_u32 s10, s10, 1 */
	0xbf07800a,                     /* s_cmp_lg_u32 s10, 0 */
	0xbf85fffc,                     /* s_cbranch_scc1 -4 */
	0x24040082,                     /* v_lshlrev_b32_e32 v2, 2, v0 */
	0xdc708000, 0x00080102,         /* global_store_dword v2, v1, s[8:9] */
	GCN_S_ENDPGM,
};

static const uint32_t gcn_exec[] = {    /* EXEC masking, floats, an atomic */
	0xc00e0100, 0x00000000,         /* s_load_dwordx8 s[4:11], s[0:1], 0x0 */
	0x7e020280,                     /* v_mov_b32_e32 v1, 0 */
	0x7d9800a0,                     /* v_cmp_gt_u32_e32 vcc, 32, v0 */
	0xbe8c206a,                     /* s_and_saveexec_b64 s[12:13], vcc */
	0x7e020d00,                     /* v_cvt_f32_u32_e32 v1, v0 */
	0x0a0202f0,                     /* v_mul_f32_e32 v1, 0.5, v1 */
	0x87fe0c7e,                     /* s_or_b64 exec, exec, s[12:13] */
	0x24040082,                     /* v_lshlrev_b32_e32 v2, 2, v0 */
	0xbf8cc07f,                     /* s_waitcnt lgkmcnt(0) */
	0xdd088000, 0x00080102,         /* global_atomic_add v2, v1, s[8:9] */
	0xdc708100, 0x00080102,         /* global_store_dword v2, v1, s[8:9] offset:256 */
	GCN_S_ENDPGM,
};

static const uint32_t gcn_private[] = { /* the private segment through s[0:3] */
	0xc00e0202, 0x00000000,         /* s_load_dwordx8 s[8:15], s[4:5], 0x0 */
	0x24020082,                     /* v_lshlrev_b32_e32 v1, 2, v0 */
	0xe0700004, 0x06000000,         /* buffer_store_dword v0, off, s[0:3], s6 offset:4 */
	0xbf8c0f70,                     /* s_waitcnt vmcnt(0) */
	0xe0500004, 0x06000200,         /* buffer_load_dword v2, off, s[0:3], s6 offset:4 */
	0xbf8c0070,                     /* s_waitcnt vmcnt(0) lgkmcnt(0) */
	0xdc708000, 0x000c0201,         /* global_store_dword v1, v2, s[12:13] */
	GCN_S_ENDPGM,
};

static const uint32_t gcn_flat[] = {    /* flat, 64-bit VALU, a carry in vcc */
	0xc00e0100, 0x00000000,         /* s_load_dwordx8 s[4:11], s[0:1], 0x0 */
	0x24020082,                     /* v_lshlrev_b32_e32 v1, 2, v0 */
	0xbf8cc07f,                     /* s_waitcnt lgkmcnt(0) */
	0x7e040204,                     /* v_mov_b32_e32 v2, s4 */
	0x7e060205,                     /* v_mov_b32_e32 v3, s5 */
	0x32040302,                     /* v_add_co_u32_e32 v2, vcc, v2, v1 */
	0x38060680,                     /* v_addc_co_u32_e32 v3, vcc, 0, v3, vcc */
	0xdc500000, 0x04000002,         /* flat_load_dword v4, v[2:3] */
	0xbf8c0070,                     /* s_waitcnt vmcnt(0) lgkmcnt(0) */
	0xd28f0004, 0x00020884,         /* v_lshlrev_b64 v[4:5], 4, v[4:5] */
	0xdc708000, 0x00080401,         /* global_store_dword v1, v4, s[8:9] */
	GCN_S_ENDPGM,
};

static const struct gcn_prog gcn_progs[] = {
	{ "vadd", gcn_vadd, sizeof(gcn_vadd) / 4, GCN_RSRC1_V4,
	  GCN_RSRC2_USER(2) | GCN_RSRC2_WGX, GCN_KCP_KARG, 0, 0 },
	{ "lds", gcn_lds, sizeof(gcn_lds) / 4, GCN_RSRC1_V4,
	  GCN_RSRC2_USER(2), GCN_KCP_KARG, 2048, 0 },
	{ "salu", gcn_salu, sizeof(gcn_salu) / 4, GCN_RSRC1_V4,
	  GCN_RSRC2_USER(2), GCN_KCP_KARG, 0, 0 },
	{ "loop", gcn_loop, sizeof(gcn_loop) / 4, GCN_RSRC1_V4,
	  GCN_RSRC2_USER(2), GCN_KCP_KARG, 0, 0 },
	{ "exec", gcn_exec, sizeof(gcn_exec) / 4, GCN_RSRC1_V4,
	  GCN_RSRC2_USER(2), GCN_KCP_KARG, 0, 0 },
	{ "private", gcn_private, sizeof(gcn_private) / 4, GCN_RSRC1_V4,
	  GCN_RSRC2_USER(6) | GCN_RSRC2_PRIV, GCN_KCP_PSB | GCN_KCP_KARG, 0, 64 },
	{ "flat", gcn_flat, sizeof(gcn_flat) / 4, GCN_RSRC1_V4 | 1,
	  GCN_RSRC2_USER(2), GCN_KCP_KARG, 0, 0 },
};
#define GCN_NPROGS      (sizeof(gcn_progs) / sizeof(gcn_progs[0]))

/* Dwords a mutation puts in: ends, endless loops, traps, wild registers */
static const uint32_t gcn_interesting[] = {
	GCN_S_ENDPGM, 0xbf82ffff /* s_branch -1 */, 0xbf800000 /* s_nop */,
	0xbf920000 /* s_trap 0 */, 0xbf8a0000 /* s_barrier */,
	0xbe801d04 /* s_setpc_b64 s[4:5] */, 0xbe841c00 /* s_getpc_b64 s[4:5] */,
	0x7e0802ff /* v_mov_b32_e32 v4, lit */, 0x7ffe02ff /* ... v255 */,
	0x02080100 /* v_add_f32_e32 v4, v0, v0 */,
	0x32080100 /* v_add_co_u32_e32 v4, vcc, v0, v0 */,
	0x12345678, 0, 0xffffffff, 0x80000000,
	0xd81a0000 /* ds_write_b32 */, 0xd86c0000 /* ds_read_b32 */,
	0xdc708000 /* global_store_dword */, 0xdc508000 /* global_load_dword */,
	0xe0700000 /* buffer_store_dword */, 0xc00e0100 /* s_load_dwordx8 */,
};
#define GCN_NINTERESTING (sizeof(gcn_interesting) / sizeof(gcn_interesting[0]))

/* Encoding classes: a random dword that decodes as one of them */
static uint32_t gcn_random_dword(void)
{
	static const uint32_t cls[][2] = {      /* { fixed bits, their mask } */
		{ 0x80000000, 0xc0000000 },     /* SOP2 */
		{ 0xbe800000, 0xff800000 },     /* SOP1 */
		{ 0xbf000000, 0xff800000 },     /* SOPC */
		{ 0xbf800000, 0xff800000 },     /* SOPP */
		{ 0xb0000000, 0xf0000000 },     /* SOPK */
		{ 0xc0000000, 0xfc000000 },     /* SMEM */
		{ 0x00000000, 0x80000000 },     /* VOP2 */
		{ 0x7e000000, 0xfe000000 },     /* VOP1 */
		{ 0x7c000000, 0xfe000000 },     /* VOPC */
		{ 0xd0000000, 0xfc000000 },     /* VOP3 */
		{ 0xd8000000, 0xfc000000 },     /* DS */
		{ 0xdc000000, 0xfc000000 },     /* FLAT, GLOBAL, SCRATCH */
		{ 0xe0000000, 0xfc000000 },     /* MUBUF */
	};
	uint32_t k = rnd(sizeof(cls) / sizeof(cls[0]));

	if (chance(30))
		return (uint32_t)rnd64();
	if (chance(15))
		return gcn_interesting[rnd(GCN_NINTERESTING)];
	return cls[k][0] | ((uint32_t)rnd64() & ~cls[k][1]);
}

/* 1..4 mutations of @c (*@n dwords, at most GCN_CODE_MAX) */
static void gcn_mutate(uint32_t *c, unsigned int *n)
{
	unsigned int times = 1 + rnd(4), i, j;

	while (times--) {
		i = rnd(*n);
		switch (rnd(8)) {
		case 0:
			c[i] ^= 1U << rnd(32);
			break;
		case 1:
			c[i] = gcn_random_dword();
			break;
		case 2:
			c[i] = gcn_interesting[rnd(GCN_NINTERESTING)];
			break;
		case 3: {
			/* a register field: any byte, often a register number */
			static const uint8_t regs[] = {
				0, 1, 3, 4, 5, 63, 64, 101, 102, 103, 104, 106, 107,
				108, 124, 125, 126, 127, 128, 192, 193, 208, 240, 250,
				251, 252, 253, 254, 255,
			};
			unsigned int sh = 8 * rnd(4);

			c[i] = (c[i] & ~(0xffU << sh)) |
			       (uint32_t)(chance(60) ? regs[rnd(sizeof(regs))] : rnd(256)) << sh;
			break;
		}
		case 4:         /* insert */
			if (*n < GCN_CODE_MAX) {
				memmove(c + i + 1, c + i, (*n - i) * 4);
				c[i] = gcn_random_dword();
				(*n)++;
			}
			break;
		case 5:         /* delete */
			if (*n > 1) {
				memmove(c + i, c + i + 1, (*n - i - 1) * 4);
				(*n)--;
			}
			break;
		case 6:         /* swap */
			j = rnd(*n);
			c[i] ^= c[j];
			c[j] ^= c[i];
			c[i] ^= c[j];
			break;
		default: {      /* repeat a tail */
			unsigned int end = *n;

			j = rnd(end);
			while (j < end && *n < GCN_CODE_MAX)
				c[(*n)++] = c[j++];
			break;
		}
		}
	}
}

/* What the code-object dispatches did (the summary's gcn line) */
static unsigned long ngcn, ngcn_valid, ngcn_mutated, ngcn_random, ngcn_followed;
static unsigned long ngcn_done, ngcn_behind, ngcn_running;
static unsigned long ngcn_err[HSAGPU_QERR_COUNT + 1];

/*
 * A code-object dispatch into @p, or 0 (nothing made) when the file's
 * queues could reach memory that is not ours or there was no room.
 * *@kind: 0 a table program, 1 mutated, 2 random.
 */
static int make_code_object(struct file *f, struct hsagpu_kernel_dispatch_packet *p,
			    int *kind)
{
	uint32_t code[GCN_CODE_MAX], w[GCN_KD_SIZE / 4];
	uint8_t img[256 + GCN_CODE_MAX * 4];
	const struct gcn_prog *g = &gcn_progs[rnd(GCN_NPROGS)];
	struct gcn_args args;
	unsigned int n = g->ndw, span;
	int64_t entry = GCN_KD_SIZE;
	uint64_t items, len, kd, ka;
	void *cpu, *kcpu;
	int i, k;

	if (!iommu && !f->vm)
		return 0;
	memcpy(code, g->code, n * 4);
	k = chance(35) ? 0 : chance(60) ? 1 : 2;
	if (k == 1) {
		gcn_mutate(code, &n);
	} else if (k == 2) {
		n = 1 + rnd(GCN_CODE_MAX);
		for (unsigned int j = 0; j < n; j++)
			code[j] = gcn_random_dword();
		if (chance(80))
			code[n - 1] = GCN_S_ENDPGM;
	}

	/* the descriptor (hsagpu-gcn.h): the program's, fields changed */
	memset(w, 0, sizeof(w));
	w[0] = g->lds;
	w[1] = g->priv;
	w[2] = sizeof(args);
	w[12] = g->rsrc1;
	w[13] = g->rsrc2;
	w[14] = g->props;
	if (k || chance(20)) {
		if (chance(30))         /* VGPRs: 4..256 (granules of 4) */
			w[12] = (w[12] & ~0x3fU) | rnd(64);
		if (chance(10))         /* float modes, some refused */
			w[12] = (w[12] & ~0xff000U) | rnd(256) << 12;
		if (chance(10))         /* user SGPRs, workgroup ids, VGPR ids */
			w[13] = GCN_RSRC2_USER(rnd(32)) | (rnd(256) << 7 & 0x1f80U) |
				rnd(2);
		if (chance(10))
			w[14] ^= 1U << rnd(11);
		if (chance(10))
			w[0] = chance(80) ? rnd(65537) : (uint32_t)rnd_interesting();
		if (chance(10))
			w[1] = chance(80) ? rnd(2049) : (uint32_t)rnd_interesting();
		if (chance(5))
			w[12 + rnd(3)] = (uint32_t)rnd64();
		if (chance(10)) {
			static const int64_t entries[] = {
				0,			/* refused: on itself */
				256,
				GCN_KD_SIZE + 2,	/* refused: unaligned */
			};
			uint32_t k = rnd(4);

			entry = k < 3 ? entries[k] :
				(int64_t)rnd_interesting() & ~3LL;
		}
	}
	if (chance(2))
		for (i = 0; i < GCN_KD_SIZE / 4; i++)
			w[i] = (uint32_t)rnd64();
	memcpy(&w[4], &entry, sizeof(entry));

	/* descriptor, then the code at the entry (or the code right after) */
	span = entry == 256 ? 256 : GCN_KD_SIZE;
	memset(img, 0, sizeof(img));
	memcpy(img, w, sizeof(w));
	memcpy(img + span, code, n * 4);
	span = (span + n * 4 + 7) & ~7U;

	/* in a control block, or in a data allocation (system or VRAM) */
	i = chance(30) ? pick_alloc(f, 0, 1) : -1;
	if (i >= 0 && alloc_span(&f->a[i]) >= span + 64) {
		uint64_t off = (rnd64() % (alloc_span(&f->a[i]) - span)) & ~63ULL;

		f->a[i].targeted = 1;
		cpu = f->a[i].cpu + off;
		kd = f->a[i].bus + off;
	} else {
		kd = ctl_block(f, &cpu, span);
		if (!cpu)
			return 0;
	}
	guarded_copy(cpu, img, span);

	/* arguments: buffers of ours, a loop count that ends soon enough */
	memset(&args, 0, sizeof(args));
	items = 1 + rnd(chance(2) ? 1 << 20 : chance(20) ? 65536 : 4096);
	len = items * 4;
	args.c = addr_write(f, &len, 4);
	args.a = addr_read(f, &len, 4);
	args.b = addr_read(f, &len, 4);
	args.n = chance(90) ? 1 + rnd(1000) : (uint32_t)rnd_interesting();
	args.m = (uint32_t)rnd64();
	if (chance(5))
		args.a = rnd_interesting();
	ka = ctl_block(f, &kcpu, sizeof(args));
	if (!kcpu)
		return 0;
	guarded_copy(kcpu, &args, sizeof(args));

	memset(p, 0, sizeof(*p));
	grid(p, items);
	if (chance(3) && p->grid_size_x >= 1024) {
		/* the largest workgroups (and their LDS, private memory) */
		p->workgroup_size_x = 1024;
		p->workgroup_size_y = 1;
	}
	p->kernel_object = kd;
	if (chance(3))
		p->kernel_object += chance(50) ? 4 : 1 + rnd(63);      /* refused */
	if (chance(2))
		p->kernel_object = addr_not_memory(f);
	p->kernarg_address = ka + (chance(3) ? 8 : 0);
	if (chance(10))
		p->private_segment_size = rnd(4096);
	if (chance(10))
		p->group_segment_size = rnd(65536);
	p->completion_signal = make_signal(f);
	p->header = header(HSAGPU_PKT_TYPE_KERNEL_DISPATCH);
	ngcn++;
	if (k == 0)
		ngcn_valid++;
	else if (k == 1)
		ngcn_mutated++;
	else
		ngcn_random++;
	vlog("code object %s (%s, %u dwords, rsrc1 0x%x rsrc2 0x%x props 0x%x) at 0x%llx",
	     k == 2 ? "random" : g->name, k == 1 ? "mutated" : "as is", n, w[12],
	     w[13], w[14] & 0xffff, (unsigned long long)p->kernel_object);
	*kind = k;
	return 1;
}

/*
 * Follow dispatch @id of queue @q for up to 40 ms: done (the read index
 * the device writes passed it), failed with its own queue error (counted
 * by code), behind another packet's error, or still running.
 */
static void gcn_follow(struct file *f, struct queue *q, uint64_t id)
{
	struct hsagpu_queue_status st;
	struct alloc *a = &f->a[q->alloc];
	uint64_t rd;

	ngcn_followed++;
	for (int t = 0; t < 20; t++) {
		if (a->live && a->cpu &&
		    guarded_read64((volatile uint64_t *)(a->cpu + a->bytes - 256 +
							 HSAGPU_QUEUE_DESC_RPTR), &rd) &&
		    rd > id) {
			ngcn_done++;
			return;
		}
		memset(&st, 0, sizeof(st));
		st.size = sizeof(st);
		st.queue_id = q->id;
		if (xioctl(f->fd, HSAGPU_IOC_QUEUE_STATUS, &st))
			return;
		if (st.error) {
			if (st.error_dispatch_id == id)
				ngcn_err[st.error < HSAGPU_QERR_COUNT ? st.error :
					 HSAGPU_QERR_COUNT]++;
			else
				ngcn_behind++;
			return;
		}
		usleep(2000);
	}
	ngcn_running++;
}

static unsigned long gcn_errors(void)
{
	unsigned long n = 0;

	for (unsigned int e = 0; e <= HSAGPU_QERR_COUNT; e++)
		n += ngcn_err[e];
	return n;
}

/* --- operations ------------------------------------------------------------ */
static struct file *pick_file(void)
{
	int i, start = rnd(MAX_FILES);

	for (i = 0; i < MAX_FILES; i++)
		if (files[(start + i) % MAX_FILES].fd >= 0)
			return &files[(start + i) % MAX_FILES];
	return NULL;
}

static void destroy_queues(struct file *f)
{
	for (int k = 0; k < MAX_QUEUES; k++)
		if (f->q[k].live) {
			struct hsagpu_queue_id qid = { sizeof(qid), f->q[k].id };

			if (!xioctl(f->fd, HSAGPU_IOC_DESTROY_QUEUE, &qid))
				f->q[k].live = 0;
		}
}

static void op_open(void)
{
	int i;

	for (i = 0; i < MAX_FILES; i++) {
		struct file *f = &files[i];

		if (f->fd >= 0)
			continue;
		memset(f, 0, sizeof(*f));
		f->dev = rnd(ndevs);
		f->sig_alloc = -1;
		f->fd = open(devs[f->dev].path, chance(95) ? O_RDWR : O_RDONLY);
		vlog("open %s -> %d", devs[f->dev].path, f->fd);
		if (f->fd < 0) {
			nerr++;
			f->fd = -1;
		} else {
			struct hsagpu_device_info di = { .size = sizeof(di) };

			f->vm = !ioctl(f->fd, HSAGPU_IOC_GET_INFO, &di) &&
				(di.vm_flags & HSAGPU_VM_INFO_ENABLED);
		}
		return;
	}
}

/* Our record of @f's allocation @i is gone (freed or file closed). */
static void forget_alloc(struct file *f, int i, int keep_mapping)
{
	struct alloc *a = &f->a[i];

	if (a->cpu) {
		if (keep_mapping)
			add_loose_map(a->cpu, a->bytes);
		else
			munmap(a->cpu, a->bytes);
	}
	memset(a, 0, sizeof(*a));
	if (f->sig_alloc == i)
		f->sig_alloc = -1;
}

static void op_close(void)
{
	struct file *f = pick_file();
	int i, keep = chance(50);   /* mappings may outlive the file */

	if (!f)
		return;
	vlog("close fd %d (keep mappings %d)", f->fd, keep);
	if (in_child)
		destroy_queues(f);      /* the parent's reference keeps the file */
	close(f->fd);
	for (i = 0; i < MAX_ALLOCS; i++)
		if (f->a[i].live)
			forget_alloc(f, i, keep);
	if (f->doorbell) {
		if (keep)
			add_loose_map(f->doorbell, PAGE);
		else
			munmap(f->doorbell, PAGE);
	}
	f->fd = -1;
}

static void op_alloc(struct file *f)
{
	struct hsagpu_alloc_mem am;
	int slot = alloc_slot(f), r;
	uint64_t bytes;

	memset(&am, 0, sizeof(am));
	am.size = sizeof(am);
	am.flags = chance(70) ? HSAGPU_MEM_SYSTEM : HSAGPU_MEM_VRAM;
	bytes = chance(85) ? (1 + rnd(16)) * PAGE :
		1 + rnd(chance(90) ? 1 << 20 : chance(80) ? 8 << 20 : 64 << 20);
	am.bytes = bytes;
	if (chance(10)) {
		switch (rnd(5)) {
		case 0: am.size = rnd_interesting(); break;
		case 1: am.flags = rnd_interesting(); break;
		case 2: am.bytes = rnd_interesting(); break;
		case 3: am.reserved = rnd64(); break;
		default: am.size = HSAGPU_ALLOC_MEM_SIZE_1_1; break;
		}
	}
	if (am.bytes <= HSAGPU_MEM_SYSTEM_MAX && alloc_bytes + am.bytes > ALLOC_BUDGET) {
		want_release = 1;
		return;
	}
	r = xioctl(f->fd, HSAGPU_IOC_ALLOC_MEM, &am);
	if (!r)
		alloc_bytes += am.bytes;
	vlog("alloc flags 0x%x bytes %llu -> %d", am.flags, (unsigned long long)am.bytes, r);
	if (r)
		return;
	if (slot < 0) {
		/* no room to track it: give it back (or leak it to close) */
		if (chance(50)) {
			struct hsagpu_free_mem fm = { sizeof(fm), 0, am.handle };

			xioctl(f->fd, HSAGPU_IOC_FREE_MEM, &fm);
		}
		return;
	}
	f->a[slot] = (struct alloc) {
		.live = 1, .handle = am.handle, .mmap_off = am.mmap_offset,
		.bytes = (am.bytes + PAGE - 1) & ~(PAGE - 1), .bus = am.bus_addr,
		.flags = am.flags,
		.nsegs = am.size >= sizeof(am) ? am.nsegs : 1,
	};
	if (chance(85)) {
		void *p = mmap(NULL, f->a[slot].bytes, PROT_READ | PROT_WRITE,
			       MAP_SHARED, f->fd, am.mmap_offset);

		if (p != MAP_FAILED) {
			f->a[slot].cpu = p;
			/* GPU VM: the device address is where it is mapped */
			if (!am.bus_addr)
				f->a[slot].bus = (uintptr_t)p;
		} else {
			nerr++;
		}
	}
}

static int alloc_slot(struct file *f)
{
	for (int i = 0; i < MAX_ALLOCS; i++)
		if (!f->a[i].live)
			return i;
	return -1;
}

static void op_free(struct file *f)
{
	struct hsagpu_free_mem fm;
	int i = pick_alloc(f, -1, 0), r;

	memset(&fm, 0, sizeof(fm));
	fm.size = sizeof(fm);
	fm.handle = i >= 0 && chance(90) ? f->a[i].handle : rnd_interesting();
	if (!iommu && i >= 0 && f->a[i].targeted && fm.handle == f->a[i].handle) {
		/*
		 * Packets of our queues may still write it, and without an
		 * IOMMU the device would write wherever the freed pages go
		 * next: the device cannot know the allocation is gone, and the
		 * driver does not parse packets. Stop our queues first (the
		 * process owns that hazard, as it owns every address it puts
		 * into a packet).
		 */
		destroy_queues(f);
	}
	if (chance(3))
		fm.reserved = rnd64();
	r = xioctl(f->fd, HSAGPU_IOC_FREE_MEM, &fm);
	vlog("free handle 0x%llx -> %d", (unsigned long long)fm.handle, r);
	if (!r && i >= 0 && fm.handle == f->a[i].handle) {
		/*
		 * Freed while maybe still mapped and maybe used by a queue:
		 * the driver must keep the pages until both are gone. Keep
		 * the mapping and touch it later.
		 */
		forget_alloc(f, i, chance(50));
	}
}

static void op_segments(struct file *f)
{
	struct hsagpu_mem_segment segs[8];
	struct hsagpu_mem_segments ms;
	int i = pick_alloc(f, -1, 0);

	memset(&ms, 0, sizeof(ms));
	ms.size = sizeof(ms);
	ms.handle = i >= 0 ? f->a[i].handle : rnd64();
	ms.segs_ptr = chance(90) ? (uintptr_t)segs : rnd_interesting();
	ms.first = chance(80) ? 0 : rnd_interesting();
	ms.count = chance(90) ? 1 + rnd(8) : rnd_interesting();
	if (ms.count > 8 && ms.segs_ptr == (uintptr_t)segs)
		ms.count = 8;
	xioctl(f->fd, HSAGPU_IOC_MEM_SEGMENTS, &ms);
}

static void op_mmap(struct file *f)
{
	uint64_t off, len = PAGE;
	int i, prot = PROT_READ | (chance(80) ? PROT_WRITE : 0);
	int flags = chance(90) ? MAP_SHARED : MAP_PRIVATE;
	void *p;

	switch (rnd(5)) {
	case 4:         /* cached read alias: an allocation's cached view */
		i = pick_alloc(f, -1, 0);
		if (i < 0)
			return;
		off = HSAGPU_MMAP_CACHED(f->a[i].mmap_off) +
		      (chance(80) ? 0 : rnd(4) * PAGE);
		len = chance(80) ? f->a[i].bytes : (1 + rnd(f->a[i].bytes / PAGE + 2)) * PAGE;
		break;
	case 0:         /* an allocation again, maybe partly or too long */
		i = pick_alloc(f, -1, 0);
		if (i < 0)
			return;
		off = f->a[i].mmap_off + (chance(70) ? 0 : rnd(f->a[i].bytes / PAGE + 2) * PAGE);
		len = chance(70) ? f->a[i].bytes : (1 + rnd(f->a[i].bytes / PAGE + 2)) * PAGE;
		break;
	case 1:
		off = HSAGPU_MMAP_TYPE_DOORBELL << HSAGPU_MMAP_TYPE_SHIFT;
		if (f->doorbell_mmap_off)
			off = f->doorbell_mmap_off;
		len = chance(90) ? PAGE : (1 + rnd(4)) * PAGE;
		break;
	case 2:
		off = HSAGPU_MMAP_TYPE_EVENTS << HSAGPU_MMAP_TYPE_SHIFT;
		len = (1 + rnd(2)) * PAGE;
		break;
	default:
		off = rnd_interesting() & ~(PAGE - 1);
		len = (1 + rnd(16)) * PAGE;
		break;
	}
	p = mmap(NULL, len, prot, flags, f->fd, off);
	vlog("mmap off 0x%llx len %llu -> %p", (unsigned long long)off,
	     (unsigned long long)len, p);
	if (p == MAP_FAILED) {
		nerr++;
		return;
	}
	add_loose_map(p, len);
}

static void op_munmap(struct file *f)
{
	int i;

	if (chance(50)) {
		i = rnd(MAX_MAPS);
		if (!maps[i].p)
			return;
		if (chance(70) || maps[i].len <= PAGE) {
			munmap(maps[i].p, maps[i].len);
			maps[i].p = NULL;
		} else {
			/* a hole in the middle: two VMAs of one mapping */
			size_t pg = 1 + rnd(maps[i].len / PAGE - 1);

			/*
			 * With GPU virtual memory an allocation's mapping
			 * cannot be split (EINVAL): then it stays whole.
			 */
			if (munmap((uint8_t *)maps[i].p + pg * PAGE, PAGE))
				return;
			if (pg * PAGE + PAGE < maps[i].len)
				add_loose_map((uint8_t *)maps[i].p + pg * PAGE + PAGE,
					      maps[i].len - pg * PAGE - PAGE);
			maps[i].len = pg * PAGE;
		}
		return;
	}
	/* an allocation's mapping while a queue may use it */
	i = pick_alloc(f, -1, 1);
	if (i < 0 || f->a[i].ctl)
		return;
	munmap(f->a[i].cpu, f->a[i].bytes);
	f->a[i].cpu = NULL;
}

/*
 * REGISTER_MEM: the process's own anonymous memory, sometimes faulted in,
 * sometimes read-only for the device, or a bad range (unaligned, wild,
 * an hsagpu mapping of its own). The mapping joins the loose maps: the
 * fuzzer may munmap it while it is registered (the driver's invalidation)
 * and touches it; FREE_MEM unregisters, or the registration goes with the
 * file. No packet targets it.
 */
static void op_register(struct file *f)
{
	struct hsagpu_register_mem rm;
	size_t len = (1 + rnd(16)) * PAGE;
	uint8_t *p;
	int r, i;

	if (f->nreg && chance(30)) {
		struct hsagpu_free_mem fm = { sizeof(fm), 0, f->reg[--f->nreg] };

		r = xioctl(f->fd, HSAGPU_IOC_FREE_MEM, &fm);
		vlog("unregister handle 0x%llx -> %d", (unsigned long long)fm.handle, r);
		return;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		nerr++;
		return;
	}
	if (chance(70))
		memset(p, 0x3c, len);
	add_loose_map(p, len);
	memset(&rm, 0, sizeof(rm));
	rm.size = sizeof(rm);
	rm.addr = (uintptr_t)p;
	rm.bytes = len;
	rm.flags = chance(20) ? HSAGPU_REGISTER_READONLY : 0;
	if (chance(15)) {
		switch (rnd(6)) {
		case 0: rm.size = rnd_interesting(); break;
		case 1: rm.flags = rnd_interesting(); break;
		case 2: rm.addr += 1 + rnd(PAGE - 1); break;
		case 3: rm.bytes = rnd_interesting(); break;
		case 4: rm.addr = rnd_interesting(); break;
		default:
			i = pick_alloc(f, -1, 1);
			if (i >= 0) {
				rm.addr = (uintptr_t)f->a[i].cpu;
				rm.bytes = f->a[i].bytes;
			}
			break;
		}
	}
	r = xioctl(f->fd, HSAGPU_IOC_REGISTER_MEM, &rm);
	vlog("register 0x%llx bytes %llu flags 0x%x -> %d", (unsigned long long)rm.addr,
	     (unsigned long long)rm.bytes, rm.flags, r);
	if (!r && f->nreg < MAX_REGS)
		f->reg[f->nreg++] = rm.handle;
}

static void op_touch(void)
{
	int i = rnd(MAX_MAPS);
	volatile uint8_t *p;
	size_t off;

	if (!maps[i].p)
		return;
	p = maps[i].p;
	off = rnd64() % maps[i].len;
	GUARDED({
		uint8_t v = p[off];
		if (chance(50))
			p[off] = v ^ 0x5a;
	});
}

static void op_queue_create(struct file *f)
{
	struct hsagpu_create_queue cq;
	struct alloc *a;
	int i, qi = -1, r;
	uint32_t size;

	for (i = 0; i < MAX_QUEUES; i++)
		if (!f->q[i].live) {
			qi = i;
			break;
		}
	/* a ctl allocation of its own: ring, then the queue descriptor */
	i = -1;
	for (int k = 0; k < MAX_ALLOCS; k++)
		if (f->a[k].live && f->a[k].cpu && f->a[k].ctl && k != f->sig_alloc &&
		    f->a[k].flags == HSAGPU_MEM_SYSTEM) {
			int used = 0;

			for (int j = 0; j < MAX_QUEUES; j++)
				used |= f->q[j].live && f->q[j].alloc == k;
			if (!used) {
				i = k;
				break;
			}
		}
	if (i < 0) {
		/* make one: a system allocation that only the CPU writes */
		int before[MAX_ALLOCS];

		for (int k = 0; k < MAX_ALLOCS; k++)
			before[k] = f->a[k].live;
		op_alloc(f);
		for (int k = 0; k < MAX_ALLOCS; k++)
			if (f->a[k].live && !before[k] && f->a[k].cpu &&
			    f->a[k].flags == HSAGPU_MEM_SYSTEM && f->a[k].nsegs == 1 &&
			    f->a[k].bytes >= 2 * PAGE && k != f->sig_alloc) {
				f->a[k].ctl = 1;
				i = k;
			}
		if (i < 0)
			return;
	}
	a = &f->a[i];
	size = 1U << (2 + rnd(5));      /* 4..64 packets */
	while (size * 64 + 256 > a->bytes)
		size >>= 1;
	memset(&cq, 0, sizeof(cq));
	cq.size = sizeof(cq);
	cq.flags = chance(20) ? HSAGPU_QUEUE_CREATE_PROFILE : 0;
	cq.ring_addr = a->bus;
	cq.ring_size = size;
	cq.priority = rnd(HSAGPU_QUEUE_PRIORITY_MAX + 1);
	cq.rptr_addr = a->bus + a->bytes - 256 + HSAGPU_QUEUE_DESC_RPTR;
	cq.wptr_addr = a->bus + a->bytes - 256 + HSAGPU_QUEUE_DESC_WPTR;
	if (chance(10)) {
		/* hostile registration: the driver must check it */
		switch (rnd(7)) {
		case 0: cq.ring_addr = rnd_interesting(); break;
		case 1: cq.ring_size = rnd_interesting(); break;
		case 2: cq.rptr_addr = rnd_interesting(); break;
		case 3: cq.wptr_addr = cq.rptr_addr + 4; break;
		case 4: cq.priority = rnd_interesting(); break;
		case 5: cq.flags = rnd_interesting(); break;
		default: cq.size = rnd_interesting(); break;
		}
	}
	guarded_ring_init(a->cpu, a->bytes, size);
	r = xioctl(f->fd, HSAGPU_IOC_CREATE_QUEUE, &cq);
	vlog("create queue size %u -> %d id %u", cq.ring_size, r, cq.queue_id);
	if (r || qi < 0)
		return;
	f->q[qi] = (struct queue) {
		.live = 1, .id = cq.queue_id, .alloc = i, .size = cq.ring_size,
		.doorbell_off = cq.doorbell_offset,
	};
	if (!f->doorbell) {
		void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
			       f->fd, cq.doorbell_mmap_offset);

		if (p != MAP_FAILED) {
			f->doorbell = p;
			f->doorbell_mmap_off = cq.doorbell_mmap_offset;
		}
	}
}

static void op_queue_cmd(struct file *f)
{
	struct hsagpu_queue_id qid;
	struct hsagpu_queue_status qs;
	int i = rnd(MAX_QUEUES), r;
	uint32_t id = f->q[i].live && chance(90) ? f->q[i].id : rnd_interesting();
	unsigned long cmd;

	switch (rnd(4)) {
	case 0: cmd = HSAGPU_IOC_DESTROY_QUEUE; break;
	case 1: cmd = HSAGPU_IOC_SUSPEND_QUEUE; break;
	case 2: cmd = HSAGPU_IOC_RESUME_QUEUE; break;
	default:
		memset(&qs, 0, sizeof(qs));
		qs.size = chance(95) ? sizeof(qs) : rnd_interesting();
		qs.queue_id = id;
		xioctl(f->fd, HSAGPU_IOC_QUEUE_STATUS, &qs);
		return;
	}
	qid.size = chance(95) ? sizeof(qid) : rnd_interesting();
	qid.queue_id = id;
	r = xioctl(f->fd, cmd, &qid);
	vlog("queue cmd %lx id %u -> %d", cmd, id, r);
	if (!r && cmd == HSAGPU_IOC_DESTROY_QUEUE && f->q[i].live && f->q[i].id == id)
		f->q[i].live = 0;
}

/* A live queue of @f that runs packets (active, no error), or -1 */
static int pick_good_queue(struct file *f)
{
	int start = rnd(MAX_QUEUES);

	for (int k = 0; k < MAX_QUEUES; k++) {
		struct queue *q = &f->q[(start + k) % MAX_QUEUES];
		struct hsagpu_queue_status st = { .size = sizeof(st), .queue_id = q->id };

		if (q->live && !xioctl(f->fd, HSAGPU_IOC_QUEUE_STATUS, &st) &&
		    (st.state & HSAGPU_QSTATE_MASK) == HSAGPU_QSTATE_ACTIVE && !st.error)
			return (start + k) % MAX_QUEUES;
	}
	return -1;
}

/*
 * Random packets on one of @f's queues; @code: a single code-object
 * dispatch (make_code_object) on one that runs packets (a new one in
 * place of a failed one if need be: random packets fail most queues
 * soon), sometimes followed to its end.
 */
static void op_submit(struct file *f, int code)
{
	struct queue *q;
	struct alloc *a;
	volatile uint64_t *wptr, *rptr;
	uint64_t rd = 0;
	uint8_t pkt[8][64];
	uint64_t wval, dbval;
	uint32_t n, k;
	int i = rnd(MAX_QUEUES), kind = -1;

	if (code)
		i = pick_good_queue(f);
	if (code && i < 0) {
		for (k = 0; k < MAX_QUEUES && f->q[k].live; k++)
			;
		if (k == MAX_QUEUES) {
			struct queue *old = &f->q[rnd(MAX_QUEUES)];
			struct hsagpu_queue_id qid = { sizeof(qid), old->id };

			if (!xioctl(f->fd, HSAGPU_IOC_DESTROY_QUEUE, &qid))
				old->live = 0;
		}
		op_queue_create(f);
		i = pick_good_queue(f);
		if (i < 0)
			return;
	}
	q = &f->q[i];
	if (!q->live)
		return;
	a = &f->a[q->alloc];
	if (!a->live || !a->cpu)
		return;
	n = code ? 1 : 1 + rnd(q->size < 8 ? q->size : 8);
	wptr = (volatile uint64_t *)(a->cpu + a->bytes - 256 + HSAGPU_QUEUE_DESC_WPTR);
	rptr = (volatile uint64_t *)(a->cpu + a->bytes - 256 + HSAGPU_QUEUE_DESC_RPTR);
	/*
	 * Without an IOMMU never overwrite a slot the device has not consumed:
	 * a packet torn between two of ours could write past our memory.
	 */
	if (!iommu && !guarded_read64(rptr, &rd))
		return;
	if (!iommu && q->wid + n - rd > q->size)
		return;
	for (k = 0; k < n; k++)
		if (!code || !make_code_object(f, (void *)pkt[k], &kind))
			make_packet(f, pkt[k]);
	/* a control block wrapped around: our queues were destroyed */
	if (!q->live)
		return;
	wval = chance(3) ? rnd_interesting() : q->wid + n;       /* overrun: error 6 */
	dbval = chance(90) ? q->wid + n - 1 : rnd64();
	GUARDED({
		for (k = 0; k < n; k++) {
			uint8_t *slot = a->cpu + ((q->wid + k) % q->size) * 64;

			memcpy(slot + 2, pkt[k] + 2, 62);
			__atomic_store_n((uint16_t *)slot, ((uint16_t *)pkt[k])[0],
					 __ATOMIC_RELEASE);
		}
		*wptr = wval;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (f->doorbell) {
			volatile uint64_t *db = (volatile uint64_t *)(f->doorbell +
							 (q->doorbell_off & (PAGE - 8)));
			if (dbval == q->wid + n - 1)
				*db = dbval;
			else
				*(volatile uint32_t *)db = dbval;
		}
	});
	q->wid += n;
	npackets += n;
	vlog("submit %u packets to queue %u", n, q->id);
	if (kind >= 0 && chance(50))
		gcn_follow(f, q, q->wid - 1);
}

static void op_event(struct file *f)
{
	uint32_t ids[8];
	uint64_t ages[8];
	int r;

	switch (rnd(4)) {
	case 0: {
		struct hsagpu_create_event ce = { .size = sizeof(ce) };

		if (chance(3))
			ce.size = rnd_interesting();
		r = xioctl(f->fd, HSAGPU_IOC_CREATE_EVENT, &ce);
		if (!r && f->nev < MAX_EVENTS) {
			f->ev[f->nev] = ce.event_id;
			f->ev_mailbox[f->nev++] = ce.mailbox_addr;
		}
		break;
	}
	case 1: {
		struct hsagpu_event_id ei = { .size = sizeof(ei) };
		int e = f->nev ? rnd(f->nev) : -1;

		ei.event_id = e >= 0 && chance(90) ? f->ev[e] : rnd_interesting();
		r = xioctl(f->fd, chance(50) ? HSAGPU_IOC_DESTROY_EVENT :
					      HSAGPU_IOC_SET_EVENT, &ei);
		/* a destroyed id stays in our list: its mailbox is a stale slot */
		break;
	}
	default: {
		struct hsagpu_wait_events we = { .size = sizeof(we) };
		uint32_t n = 1 + rnd(8), k;

		for (k = 0; k < n; k++) {
			ids[k] = f->nev && chance(90) ? f->ev[rnd(f->nev)] : rnd(600);
			ages[k] = chance(50) ? 0 : rnd(10);
		}
		we.flags = chance(30) ? HSAGPU_WAIT_ALL : 0;
		we.events_ptr = chance(95) ? (uintptr_t)ids : rnd_interesting();
		we.num_events = chance(95) ? n : rnd_interesting();
		if (we.num_events > n && we.events_ptr == (uintptr_t)ids)
			we.num_events = n;
		we.timeout_ms = rnd(3);
		we.ages_ptr = chance(50) ? (uintptr_t)ages : 0;
		if (chance(3))
			we.flags = rnd_interesting();
		if (chance(3))
			we.size = chance(50) ? HSAGPU_WAIT_EVENTS_SIZE_1_2 : rnd_interesting();
		xioctl(f->fd, HSAGPU_IOC_WAIT_EVENTS, &we);
		break;
	}
	}
}

static void op_misc_ioctl(struct file *f)
{
	uint8_t buf[256];
	struct hsagpu_device_info di;
	struct hsagpu_peer_access pa;
	unsigned long cmd;

	switch (rnd(4)) {
	case 3: {       /* cached read alias: VRAM_DIRTY, sane or not */
		struct hsagpu_dirty_range r[64];
		struct hsagpu_vram_dirty vd;
		int i = pick_alloc(f, -1, 0);

		memset(&vd, 0, sizeof(vd));
		vd.size = sizeof(vd);
		vd.flags = chance(90) ? rnd(2) : rnd_interesting();
		vd.handle = i >= 0 && chance(90) ? f->a[i].handle : rnd64();
		vd.offset = chance(80) ? rnd(2) * PAGE + rnd(64) : rnd_interesting();
		vd.bytes = chance(80) ? 1 + rnd(PAGE) : rnd_interesting();
		/*
		 * The driver zeroes the whole array first: a wild pointer
		 * must not be the fuzzer's own memory, so only unmapped ones.
		 */
		vd.ranges_ptr = chance(90) ? (uintptr_t)r :
				chance(50) ? 0 : 0xfffffffffffff000ULL;
		vd.capacity = chance(90) ? 32 + rnd(33) : rnd_interesting();
		if (vd.ranges_ptr == (uintptr_t)r && vd.capacity > 64)
			vd.capacity = 64;
		xioctl(f->fd, HSAGPU_IOC_VRAM_DIRTY, &vd);
		break;
	}
	case 0:
		memset(&di, 0, sizeof(di));
		di.size = chance(80) ? sizeof(di) :
			  (chance(50) ? HSAGPU_DEVICE_INFO_SIZE_1_1 : rnd_interesting());
		xioctl(f->fd, HSAGPU_IOC_GET_INFO, &di);
		break;
	case 1: {
		struct file *g = pick_file();

		memset(&pa, 0, sizeof(pa));
		pa.size = sizeof(pa);
		pa.peer_fd = g && chance(80) ? g->fd : (int)rnd_interesting();
		xioctl(f->fd, HSAGPU_IOC_PEER_ACCESS, &pa);
		break;
	}
	default:
		/* any command, any size, any direction, our buffer */
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = rnd(256);
		*(uint32_t *)buf = chance(50) ? rnd(300) : rnd_interesting();
		cmd = _IOC(rnd(4), chance(90) ? HSAGPU_IOCTL_BASE : rnd(256),
			   chance(90) ? rnd(0x11) : rnd(256), rnd(sizeof(buf)));
		xioctl(f->fd, cmd, buf);
		break;
	}
}

static void run_ops(uint64_t deadline, unsigned long maxops, int depth);

/* Everything goes: files, loose mappings, children. */
static void release_all(void)
{
	int i;

	for (i = 0; i < MAX_FILES; i++)
		if (files[i].fd >= 0) {
			struct file *f = &files[i];

			close(f->fd);
			for (int k = 0; k < MAX_ALLOCS; k++)
				if (f->a[k].live)
					forget_alloc(f, k, 0);
			if (f->doorbell)
				munmap(f->doorbell, PAGE);
			f->fd = -1;
		}
	for (i = 0; i < MAX_MAPS; i++)
		if (maps[i].p) {
			munmap(maps[i].p, maps[i].len);
			maps[i].p = NULL;
		}
	while (wait(NULL) > 0)
		;
	alloc_bytes = 0;
	want_release = 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A child inherits the files and mappings, does a few things, exits. */
static void op_fork(void)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		nerr++;
		return;
	}
	if (pid == 0) {
		rng_state ^= 0x9e3779b97f4a7c15ULL;
		verbose = 0;
		in_child = 1;
		alarm(10);
		run_ops(now_ns() + 200000000ULL, 50, 1);
		/*
		 * The parent keeps the files open: queues we made there would
		 * outlive us with packets into memory the parent may free.
		 */
		for (int i = 0; i < MAX_FILES; i++)
			if (files[i].fd >= 0)
				destroy_queues(&files[i]);
		_exit(chance(50) ? 0 : 1);      /* files closed by exit */
	}
	nforks++;
	if (waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) != SIGALRM) {
		/* the child died of something we did not guard */
		DIAG("child died of signal %d", WTERMSIG(st));
	}
}

enum { O_OPEN, O_CLOSE, O_ALLOC, O_FREE, O_SEGS, O_MMAP, O_MUNMAP, O_TOUCH,
       O_QCREATE, O_QCMD, O_SUBMIT, O_EVENT, O_MISC, O_FORK, O_REGISTER, O_CODE,
       O_NUM };
static const unsigned int weight[O_NUM] = {
	[O_OPEN] = 4, [O_CLOSE] = 2, [O_ALLOC] = 10, [O_FREE] = 4, [O_SEGS] = 2,
	[O_MMAP] = 5, [O_MUNMAP] = 3, [O_TOUCH] = 4, [O_QCREATE] = 6,
	[O_QCMD] = 5, [O_SUBMIT] = 25, [O_EVENT] = 6, [O_MISC] = 4, [O_FORK] = 1,
	[O_REGISTER] = 3, [O_CODE] = 8,
};

static void run_ops(uint64_t deadline, unsigned long maxops, int depth)
{
	unsigned int total = 0, i;
	unsigned long n;

	for (i = 0; i < O_NUM; i++)
		total += weight[i];
	for (n = 0; n < maxops && now_ns() < deadline; n++) {
		unsigned int w = rnd(total), op = 0;
		struct file *f;

		if (want_release && !depth) {
			release_all();
			nresets++;
			/* nothing of ours is open: no queue may be left */
			for (int d = 0; d < ndevs; d++) {
				long qa = queues_active(&devs[d]);

				CHECK(qa == devs[d].queues_active0,
				      "%s: %ld queues active after all files closed (op %lu)",
				      devs[d].pci, qa, nops);
			}
		}
		while (w >= weight[op])
			w -= weight[op++];
		nops++;
		op_count[op]++;
		if (op == O_OPEN || !(f = pick_file())) {
			op_open();
			continue;
		}
		switch (op) {
		case O_CLOSE: op_close(); break;
		case O_ALLOC: op_alloc(f); break;
		case O_FREE: op_free(f); break;
		case O_SEGS: op_segments(f); break;
		case O_MMAP: op_mmap(f); break;
		case O_MUNMAP: op_munmap(f); break;
		case O_TOUCH: op_touch(); break;
		case O_QCREATE: op_queue_create(f); break;
		case O_QCMD: op_queue_cmd(f); break;
		case O_SUBMIT: op_submit(f, 0); break;
		case O_CODE: op_submit(f, 1); break;
		case O_EVENT: op_event(f); break;
		case O_MISC: op_misc_ioctl(f); break;
		case O_REGISTER: op_register(f); break;
		case O_FORK:
			if (!depth)
				op_fork();
			break;
		}
	}
}

/*
 * How much guest memory one open file can pin with SYSTEM allocations it
 * never maps: the driver should bound it (a per-file limit, or charging
 * the process's memory cgroup so that limits and the OOM killer see it).
 * Stops before the machine runs out: FAIL when a single file held more
 * than half of the RAM.
 */
static int pin_probe(void)
{
	long total = fuzz_meminfo_kb("MemTotal"), avail;
	uint64_t pinned = 0;
	int fd, r = 0;

	if (!find_devices())
		return gt_skip("no /dev/hsagpuN could be opened");
	fd = open(devs[0].path, O_RDWR);
	if (fd < 0)
		return gt_skip("open %s: %s", devs[0].path, strerror(errno));
	for (;;) {
		struct hsagpu_alloc_mem am = {
			.size = sizeof(am), .flags = HSAGPU_MEM_SYSTEM, .bytes = 16ULL << 20,
		};

		avail = fuzz_meminfo_kb("MemAvailable");
		if (avail < total / 8)
			break;
		r = xioctl(fd, HSAGPU_IOC_ALLOC_MEM, &am);
		if (r)
			break;
		pinned += am.bytes;
	}
	printf("# one file pinned %llu MiB of %ld MiB RAM (%s; MemAvailable %ld MiB)\n",
	       (unsigned long long)(pinned >> 20), total >> 10,
	       r ? strerror(r) : "stopped before the OOM killer", avail >> 10);
	CHECK(pinned < (uint64_t)total * 1024 / 2,
	      "one file pinned %llu MiB (%llu%% of RAM) without limit or accounting",
	      (unsigned long long)(pinned >> 20),
	      (unsigned long long)(pinned * 100 / ((uint64_t)total * 1024)));
	close(fd);
	return gt_result();
}

/* The timed run: what fuzz_run_child() runs in the child. */
struct run_args {
	uint64_t secs;
	unsigned long maxops;
};

static void timed_run(void *arg)
{
	const struct run_args *r = arg;
	uint64_t secs = r->secs, t0;
	unsigned long maxops = r->maxops;

	t0 = now_ns();
	run_ops(t0 + secs * 1000000000ULL, maxops, 0);
	release_all();
	printf("# %lu operations in %.1f s (%lu failed as expected or not, %lu faults caught, %lu forks, %lu packets, %lu releases, gcn dispatches %lu, errors %lu)\n",
	       nops, (now_ns() - t0) / 1e9, nerr, nfault, nforks, npackets, nresets, ngcn,
	       gcn_errors());
	printf("# ops: open %lu close %lu alloc %lu free %lu segs %lu mmap %lu munmap %lu touch %lu qcreate %lu qcmd %lu submit %lu event %lu misc %lu fork %lu register %lu code %lu\n",
	       op_count[O_OPEN], op_count[O_CLOSE], op_count[O_ALLOC], op_count[O_FREE],
	       op_count[O_SEGS], op_count[O_MMAP], op_count[O_MUNMAP], op_count[O_TOUCH],
	       op_count[O_QCREATE], op_count[O_QCMD], op_count[O_SUBMIT], op_count[O_EVENT],
	       op_count[O_MISC], op_count[O_FORK], op_count[O_REGISTER], op_count[O_CODE]);
	printf("# gcn: %lu code-object dispatches (%lu as is, %lu mutated, %lu random); of %lu followed: %lu done, %lu failed (illegal instruction %lu, trap %lu, kernel object %lu, address/VM fault %lu, other %lu), %lu behind another error, %lu still running\n",
	       ngcn, ngcn_valid, ngcn_mutated, ngcn_random, ngcn_followed, ngcn_done,
	       gcn_errors(), ngcn_err[HSAGPU_QERR_ILLEGAL_INSTRUCTION],
	       ngcn_err[HSAGPU_QERR_TRAP], ngcn_err[HSAGPU_QERR_KERNEL_OBJECT],
	       ngcn_err[HSAGPU_QERR_ADDRESS] + ngcn_err[HSAGPU_QERR_VM_FAULT],
	       gcn_errors() - ngcn_err[HSAGPU_QERR_ILLEGAL_INSTRUCTION] -
	       ngcn_err[HSAGPU_QERR_TRAP] - ngcn_err[HSAGPU_QERR_KERNEL_OBJECT] -
	       ngcn_err[HSAGPU_QERR_ADDRESS] - ngcn_err[HSAGPU_QERR_VM_FAULT],
	       ngcn_behind, ngcn_running);
	if (!iommu && ndevs && !(devs[0].info.vm_flags & HSAGPU_VM_INFO_ENABLED))
		printf("# gcn: no code objects: neither GPU VM nor an IOMMU confines them\n");
}

int main(int argc, char **argv)
{
	const char *p;
	uint64_t seed = 0, secs = 30;
	unsigned long maxops = ~0UL, klines = 0;
	struct fuzz_acct before, after;
	char pcis[GT_MAX_DEVS][16];
	struct run_args run;
	int c, i, fail = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if ((p = gt_param("fuzz_time")))
		secs = strtoull(p, NULL, 0);
	if ((p = gt_param("fuzz_seed")))
		seed = strtoull(p, NULL, 0);
	while ((c = getopt(argc, argv, "t:s:n:vp")) != -1) {
		switch (c) {
		case 'p': return pin_probe();
		case 't': secs = strtoull(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': maxops = strtoul(optarg, NULL, 0); break;
		case 'v': verbose = 1; break;
		default:
			fprintf(stderr, "usage: %s [-t SECONDS] [-s SEED] [-n MAXOPS] [-v] | -p\n",
				argv[0]);
			return 2;
		}
	}
	if (!seed)
		seed = (now_ns() ^ ((uint64_t)getpid() << 32)) | 1;
	rng_state = seed;
	printf("# hsagpu-fuzz: seed %llu, %llu s (replay: hsagpu-fuzz -s %llu -t %llu)\n",
	       (unsigned long long)seed, (unsigned long long)secs,
	       (unsigned long long)seed, (unsigned long long)secs);

	if (!find_devices())
		return gt_skip("no /dev/hsagpuN could be opened");
	printf("# %d device(s), DMA %s: packets %s\n", ndevs,
	       iommu ? "IOMMU-translated" : "untranslated",
	       iommu ? "may hold any address" : "write only our own memory or non-memory");
	for (i = 0; i < MAX_FILES; i++)
		files[i].fd = -1;
	signal(SIGSEGV, fault_handler);
	signal(SIGBUS, fault_handler);
	signal(SIGPIPE, SIG_IGN);

	for (i = 0; i < ndevs; i++)
		snprintf(pcis[i], sizeof(pcis[i]), "%s", devs[i].pci);
	fuzz_kernel_trouble(&klines);
	/*
	 * A short warm-up first: slab caches and per-CPU lists the driver's
	 * first files grow once are not leaks, and the baseline then has them.
	 */
	run_ops(now_ns() + (secs > 20 ? 2000000000ULL : secs * 100000000ULL), maxops, 0);
	release_all();
	fuzz_account(&before, pcis, ndevs);
	for (i = 0; i < ndevs; i++)
		devs[i].queues_active0 = before.queues[i];
	/* The run in a process of its own (fuzzacct.h). */
	run = (struct run_args){ secs, maxops };
	fuzz_run_child(timed_run, &run);
	fuzz_account(&after, pcis, ndevs);
	fuzz_acct_check(&before, &after, pcis, ndevs);
	c = fuzz_kernel_trouble(&klines);
	CHECK(c == 0, "%d kernel log line(s) of trouble (above)", c);
	fail = gt_result();
	printf("# hsagpu-fuzz: seed %llu: %s\n", (unsigned long long)seed,
	       fail ? "FAIL" : "ok");
	return fail;
}
