// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hsagpu-fuzz: a hostile process against the hsagpu driver. For a bounded
 * time and from a printed seed it issues random sequences of open, close,
 * ioctl (random and valid-looking arguments), mmap, munmap, touches of
 * the mappings, fork and queue submissions of random packets on
 * /dev/hsagpuN. Afterwards, with every file closed, the kernel must not
 * have leaked: the driver's counters of active queues, allocated SYSTEM
 * bytes and pinned user pages are back to exactly where they were, and
 * slab and available memory (after dropping caches) are within a margin
 * of the start; the kernel log must not show an oops, a WARN or
 * a BUG (checked here and by the host's console scan).
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

static void op_submit(struct file *f)
{
	struct queue *q;
	struct alloc *a;
	volatile uint64_t *wptr, *rptr;
	uint64_t rd = 0;
	uint8_t pkt[8][64];
	uint64_t wval, dbval;
	uint32_t n, k;
	int i = rnd(MAX_QUEUES);

	q = &f->q[i];
	if (!q->live)
		return;
	a = &f->a[q->alloc];
	if (!a->live || !a->cpu)
		return;
	n = 1 + rnd(q->size < 8 ? q->size : 8);
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
		make_packet(f, pkt[k]);
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
       O_QCREATE, O_QCMD, O_SUBMIT, O_EVENT, O_MISC, O_FORK, O_REGISTER, O_NUM };
static const unsigned int weight[O_NUM] = {
	[O_OPEN] = 4, [O_CLOSE] = 2, [O_ALLOC] = 10, [O_FREE] = 4, [O_SEGS] = 2,
	[O_MMAP] = 5, [O_MUNMAP] = 3, [O_TOUCH] = 4, [O_QCREATE] = 6,
	[O_QCMD] = 5, [O_SUBMIT] = 25, [O_EVENT] = 6, [O_MISC] = 4, [O_FORK] = 1,
	[O_REGISTER] = 3,
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
		case O_SUBMIT: op_submit(f); break;
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
	printf("# %lu operations in %.1f s (%lu failed as expected or not, %lu faults caught, %lu forks, %lu packets, %lu releases)\n",
	       nops, (now_ns() - t0) / 1e9, nerr, nfault, nforks, npackets, nresets);
	printf("# ops: open %lu close %lu alloc %lu free %lu segs %lu mmap %lu munmap %lu touch %lu qcreate %lu qcmd %lu submit %lu event %lu misc %lu fork %lu register %lu\n",
	       op_count[O_OPEN], op_count[O_CLOSE], op_count[O_ALLOC], op_count[O_FREE],
	       op_count[O_SEGS], op_count[O_MMAP], op_count[O_MUNMAP], op_count[O_TOUCH],
	       op_count[O_QCREATE], op_count[O_QCMD], op_count[O_SUBMIT], op_count[O_EVENT],
	       op_count[O_MISC], op_count[O_FORK], op_count[O_REGISTER]);
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
