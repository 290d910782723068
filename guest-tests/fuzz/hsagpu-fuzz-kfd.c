// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hsagpu-fuzz-kfd: a hostile process against the KFD facade (/dev/kfd,
 * hsagpu_amdgpu.ko), the /dev/kfd mode of the guest fuzzer. For a bounded
 * time and from a printed seed it issues random sequences of amdkfd's
 * ioctls: ALLOC/FREE/MAP/UNMAP of every memory type with valid, stale,
 * foreign and garbage handles and VAs, render-node mmap/munmap,
 * CREATE/DESTROY/UPDATE_QUEUE with rings in mapped, unmapped and freed
 * memory, doorbell mmap and writes, events (CREATE/SET/RESET/DESTROY,
 * WAIT_EVENTS with short timeouts), ROCm's IPC_EXPORT_HANDLE and
 * IPC_IMPORT_HANDLE (own, stale, a parent's and garbage share handles,
 * imports mapped and freed like other buffers), random bytes into rings and
 * amd_queue_t, children that open /dev/kfd and exit or are killed, close
 * of /dev/kfd and munmap of everything at random times. Afterwards, with
 * every file closed, the checks of hsagpu-fuzz: queues_active back to the
 * start, slab and available memory within margins, no oops/WARN/BUG.
 *
 *   hsagpu-fuzz-kfd [-t SECONDS] [-s SEED] [-n MAXOPS] [-v] [-F] [-P] [-x OP]...
 *
 * For bisecting a failure: -F no fork(); -P no packets, doorbells or ring
 * scribbles (the device then runs nothing the process wrote); -x OP
 * (repeatable) leaves that operation out.
 *
 * Every address a KFD queue's packets name is a GPU VA translated in the
 * process's own GPU address space (docs/vm.md), so random ring contents
 * can only reach the process's own mappings: no address restrictions are
 * needed here, unlike hsagpu-fuzz without an IOMMU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ucontext.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hsagpu/hsagpu_aql.h"
#include "gt.h"
#include "fuzzacct.h"
#include "gtkfd.h"

#define MAX_BOS         32
#define MAX_QUEUES      8
#define MAX_EVENTS      16
#define MAX_DEVS        GT_MAX_DEVS
#define PAGE            4096UL
#define ALLOC_BUDGET    (160ULL << 20)

/* --- random numbers: xorshift64*, reproducible from the seed --------- */
static uint64_t rng_state;

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

static int chance(int percent)
{
	return rnd(100) < (uint32_t)percent;
}

static uint64_t rnd_interesting(void)
{
	static const uint64_t v[] = {
		0, 1, 4095, 4096, 4097, 0x7fffffff, 0x80000000, 0xffffffff,
		0x100000000ULL, 0x7ffffffff000ULL, 0x800000000000ULL,
		0xffff800000000000ULL, ~0ULL, ~0ULL - 4095, 1ULL << 47,
		1ULL << 56, 0x1000000000000000ULL,
	};

	return chance(60) ? v[rnd(sizeof(v) / sizeof(v[0]))] : rnd64();
}

/* --- state ------------------------------------------------------------- */
struct bo {
	int live;               /* allocated (handle valid) */
	uint64_t handle, va, size, mmap_offset;
	uint32_t flags;
	void *cpu;              /* render-node mapping (at va) or NULL */
	int reserved;           /* PROT_NONE reservation at va we own */
	int mapped;             /* MAP_MEMORY_TO_GPU done */
};

struct queue {
	int live;
	uint32_t id;
	int bo;                 /* ring's buffer or -1 */
	uint8_t *ring, *aq;
	uint64_t ring_size, wptr;
	void *doorbells;
	volatile uint64_t *db;
};

struct event {
	int live;
	uint32_t id, type;
};

static struct gtkfd k = { .fd = -1, .drm_fd = -1 };
static struct bo bos[MAX_BOS];
static struct queue qs[MAX_QUEUES];
static struct event evs[MAX_EVENTS];
static uint64_t stale_handles[16];
/* share handles exported here (a child inherits its parent's) */
static struct {
	uint32_t share[4];
	uint64_t size;
	uint32_t flags;
} shares[8];
static uint32_t stale_queues[8], stale_events[8];
static int have_event_page;
static uint64_t alloc_bytes;
static int in_child, verbose;
static int no_fork;             /* -F: no fork() */
static char pcis[MAX_DEVS][16];
static int ndevs;

static unsigned long nops, nerr, nok, nfault, nforks, nkills, npackets, nresets;
enum { O_OPEN, O_CLOSE, O_ALLOC, O_FREE, O_MAP, O_UNMAP, O_MMAP, O_MUNMAP,
       O_QCREATE, O_QDESTROY, O_QUPDATE, O_DOORBELL, O_SCRIBBLE, O_EVENT,
       O_WAIT, O_MISC, O_FORK, O_IPC, O_NUM };
static const char *const op_name[O_NUM] = {
	"open", "close", "alloc", "free", "map", "unmap", "mmap", "munmap",
	"qcreate", "qdestroy", "qupdate", "doorbell", "scribble", "event",
	"wait", "misc", "fork", "ipc",
};
static unsigned int weight[O_NUM] = {
	[O_OPEN] = 2, [O_CLOSE] = 1, [O_ALLOC] = 12, [O_FREE] = 6, [O_MAP] = 8,
	[O_UNMAP] = 5, [O_MMAP] = 6, [O_MUNMAP] = 5, [O_QCREATE] = 8,
	[O_QDESTROY] = 4, [O_QUPDATE] = 4, [O_DOORBELL] = 12, [O_SCRIBBLE] = 8,
	[O_EVENT] = 8, [O_WAIT] = 4, [O_MISC] = 4, [O_FORK] = 1, [O_IPC] = 5,
};
static unsigned long op_count[O_NUM];

/* --- guarded memory access (freed / unmapped buffers fault) ---------- */
static sigjmp_buf fault_jmp;
static volatile sig_atomic_t fault_armed;

static unsigned int cur_op;

static void fault_handler(int sig, siginfo_t *si, void *uc)
{
	char msg[160];
	int n;

	if (fault_armed)
		siglongjmp(fault_jmp, sig);
	/* a fuzzer bug (or the kernel's): say where, for the replay */
	n = snprintf(msg, sizeof(msg), "# unguarded signal %d (code %d) at %p, ip %#llx, in op %lu (%s)%s\n",
		     sig, si->si_code, si->si_addr,
		     (unsigned long long)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP],
		     nops, op_name[cur_op], in_child ? " in a child" : "");
	if (write(1, msg, n) < 0)
		_exit(4);
	{
		uint64_t *sp = (uint64_t *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];

		n = snprintf(msg, sizeof(msg), "# sp %p: %#lx %#lx %#lx %#lx %#lx %#lx\n", sp,
			     sp[-1], sp[0], sp[1], sp[2], sp[3], sp[4]);
		if (write(1, msg, n) < 0)
			_exit(4);
		/* which mapping holds the stack now */
		{
			static char maps[1 << 18];
			int fd = open("/proc/self/maps", O_RDONLY);
			ssize_t r = 0, got;
			char *line, *save;

			while (fd >= 0 && r < (ssize_t)sizeof(maps) - 1 &&
			       (got = read(fd, maps + r, sizeof(maps) - 1 - r)) > 0)
				r += got;

			if (r > 0) {
				maps[r] = 0;
				for (line = strtok_r(maps, "\n", &save); line;
				     line = strtok_r(NULL, "\n", &save)) {
					unsigned long lo = strtoul(line, NULL, 16);
					unsigned long hi = strtoul(strchr(line, '-') + 1, NULL, 16);

					if ((uintptr_t)sp + 0x100000 >= lo && (uintptr_t)sp < hi + 0x100000)
						printf("# map: %s\n", line);
				}
			}
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Own functions, so that no caller's locals live across sigsetjmp. */
static void guarded_write(volatile uint64_t *p, const uint64_t *v, size_t n)
{
	fault_armed = 1;
	if (sigsetjmp(fault_jmp, 1) == 0) {
		for (size_t i = 0; i < n; i++)
			p[i] = v[i];
	} else {
		nfault++;
	}
	fault_armed = 0;
}

static void guarded_read(volatile uint64_t *p, size_t n)
{
	fault_armed = 1;
	if (sigsetjmp(fault_jmp, 1) == 0) {
		for (size_t i = 0; i < n; i++)
			(void)p[i];
	} else {
		nfault++;
	}
	fault_armed = 0;
}

static void vlog(const char *what, int e)
{
	if (verbose)
		printf("# op %lu: %s -> %s\n", nops, what, e ? strerror(e) : "ok");
}

static int kioctl(int fd, unsigned long cmd, void *arg, const char *what)
{
	int e = ioctl(fd, cmd, arg) ? errno : 0;

	if (e)
		nerr++;
	else
		nok++;
	vlog(what, e);
	return e;
}

static uint32_t pick_gpu_id(void)
{
	if (chance(85))
		return k.gpu_id;
	return chance(50) ? (uint32_t)rnd_interesting() : k.gpu_id ^ (1U << rnd(32));
}

static int pick_bo(int live)
{
	int start = rnd(MAX_BOS);

	for (int i = 0; i < MAX_BOS; i++) {
		int b = (start + i) % MAX_BOS;

		if (bos[b].live == live)
			return b;
	}
	return -1;
}

/* A valid, stale, neighbouring or garbage buffer handle. */
static uint64_t pick_handle(void)
{
	int b = pick_bo(1);

	switch (rnd(6)) {
	case 0: case 1: case 2:
		if (b >= 0)
			return bos[b].handle;
		/* fallthrough */
	case 3:
		return stale_handles[rnd(16)];
	case 4:
		return b >= 0 ? bos[b].handle + rnd(3) - 1 : rnd64();
	default:
		return rnd_interesting();
	}
}

/* A VA that is ours and mapped, ours and freed, or garbage. */
static uint64_t pick_va(uint64_t *len)
{
	int b = pick_bo(1);

	if (b >= 0 && chance(70)) {
		uint64_t off = chance(70) ? 0 : rnd(bos[b].size) & ~63ULL;

		*len = bos[b].size - off;
		return bos[b].va + off;
	}
	*len = PAGE << rnd(6);
	return chance(50) ? rnd_interesting() : (uint64_t)(uintptr_t)&rng_state;
}

/* --- open / close ------------------------------------------------------- */
static void forget_queue(int i)
{
	if (qs[i].doorbells)
		munmap(qs[i].doorbells, GTKFD_SLICE);
	stale_queues[rnd(8)] = qs[i].id;
	memset(&qs[i], 0, sizeof(qs[i]));
}

static void forget_bo(int b)
{
	/* queues on it keep running, but we no longer write through it */
	for (int q = 0; q < MAX_QUEUES; q++)
		if (qs[q].live && qs[q].bo == b) {
			qs[q].bo = -1;
			qs[q].ring = qs[q].aq = NULL;
		}
	if (bos[b].cpu || bos[b].reserved)
		munmap((void *)(uintptr_t)bos[b].va, bos[b].size);
	stale_handles[rnd(16)] = bos[b].handle;
	memset(&bos[b], 0, sizeof(bos[b]));
}

static void close_kfd(void)
{
	int i;

	if (k.fd < 0)
		return;
	/* closing first: the driver tears down with buffers still mapped */
	if (chance(50)) {
		close(k.fd);
		close(k.drm_fd);
	}
	for (i = 0; i < MAX_QUEUES; i++)
		if (qs[i].live)
			forget_queue(i);
	for (i = 0; i < MAX_BOS; i++)
		if (bos[i].live)
			forget_bo(i);
	memset(evs, 0, sizeof(evs));
	if (fcntl(k.fd, F_GETFD) >= 0) {
		close(k.fd);
		close(k.drm_fd);
	}
	k.fd = k.drm_fd = -1;
	have_event_page = 0;
	alloc_bytes = 0;
}

static void op_open(void)
{
	int e;

	close_kfd();
	e = gtkfd_open(&k);
	if (e) {
		/* a process's second open may share the context: either way */
		nerr++;
		if (k.fd > 2)
			close(k.fd);
		if (k.drm_fd > 2)
			close(k.drm_fd);
		k.fd = k.drm_fd = -1;
	}
	vlog("open", -e);
}

/* --- memory ------------------------------------------------------------- */
static const uint32_t mem_types[] = {
	KFD_IOC_ALLOC_MEM_FLAGS_GTT, KFD_IOC_ALLOC_MEM_FLAGS_VRAM,
	KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL,
	KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP,
};

static void op_alloc(void)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = { 0 };
	uint32_t type = mem_types[chance(70) ? rnd(3) : rnd(5)];
	uint64_t size = chance(90) ? PAGE << rnd(9) : rnd_interesting();
	int b = pick_bo(0), e, own = 0;
	void *va = MAP_FAILED;

	if (b < 0 || alloc_bytes > ALLOC_BUDGET)
		return;
	if (size && size <= (8ULL << 20)) {
		va = mmap(NULL, size, type == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR ?
			  PROT_READ | PROT_WRITE : PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		own = va != MAP_FAILED;
	}
	a.va_addr = own && chance(90) ? (uintptr_t)va : rnd_interesting() & ~4095ULL;
	a.size = size;
	a.gpu_id = pick_gpu_id();
	a.flags = type | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
	if (chance(50))
		a.flags |= KFD_IOC_ALLOC_MEM_FLAGS_COHERENT;
	if (chance(20))
		a.flags |= KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC | KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE;
	if (chance(5))
		a.flags = (uint32_t)rnd64();
	if (type == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
		a.mmap_offset = own && chance(90) ? (uintptr_t)va : rnd_interesting();
		/*
		 * Never pages of ours other than the fresh ones: the device
		 * would then write our stack or data through random packets.
		 */
		if (a.mmap_offset != (uintptr_t)va &&
		    !msync((void *)(uintptr_t)(a.mmap_offset & ~4095ULL), PAGE, MS_ASYNC))
			a.mmap_offset = 1ULL << 47;
	}
	e = kioctl(k.fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a, "alloc");
	if (e) {
		if (own)
			munmap(va, size);
		return;
	}
	bos[b].live = 1;
	bos[b].handle = a.handle;
	bos[b].va = a.va_addr;
	bos[b].size = a.size;
	bos[b].flags = a.flags;
	bos[b].mmap_offset = a.mmap_offset;
	/* a USERPTR's pages are ours and readable; others get mmap()ed later */
	bos[b].reserved = own && a.va_addr == (uintptr_t)va;
	if (own && !bos[b].reserved)
		munmap(va, size);
	if (bos[b].reserved && (a.flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR))
		bos[b].cpu = va;
	alloc_bytes += size;
}

static void op_free(void)
{
	struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = pick_handle() };
	int b = -1;

	for (int i = 0; i < MAX_BOS; i++)
		if (bos[i].live && bos[i].handle == f.handle)
			b = i;
	if (!kioctl(k.fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f, "free") && b >= 0) {
		/* the CPU mapping may stay: touching it later must be safe */
		if (bos[b].cpu && chance(50)) {
			bos[b].cpu = NULL;
			bos[b].reserved = 0;
		}
		forget_bo(b);
	}
}

static void op_map(int unmap)
{
	struct kfd_ioctl_map_memory_to_gpu_args m = { 0 };
	uint32_t ids[4];
	unsigned int n = chance(90) ? 1 : rnd(5);

	for (unsigned int i = 0; i < 4; i++)
		ids[i] = pick_gpu_id();
	m.handle = pick_handle();
	m.device_ids_array_ptr = chance(95) ? (uintptr_t)ids : rnd_interesting();
	m.n_devices = chance(95) ? n : (uint32_t)rnd_interesting();
	m.n_success = chance(90) ? 0 : (uint32_t)rnd64();
	kioctl(k.fd, unmap ? AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU : AMDKFD_IOC_MAP_MEMORY_TO_GPU,
	       &m, unmap ? "unmap" : "map");
}

/* render-node mmap of a buffer at its VA (GTT/VRAM), or elsewhere */
static void op_mmap(void)
{
	int b = pick_bo(1);
	uint64_t off, len;
	void *p;

	if (b < 0)
		return;
	off = chance(90) ? bos[b].mmap_offset : bos[b].mmap_offset + (PAGE << rnd(4));
	if (chance(5))
		off = rnd_interesting() & ~4095ULL;
	len = chance(90) ? bos[b].size : PAGE << rnd(10);
	if (bos[b].reserved && !bos[b].cpu && len == bos[b].size && chance(80)) {
		p = mmap((void *)(uintptr_t)bos[b].va, len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, k.drm_fd, off);
		if (p == MAP_FAILED) {
			nerr++;
			return;
		}
		bos[b].cpu = p;
		nok++;
		return;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, chance(90) ? MAP_SHARED : MAP_PRIVATE,
		 chance(90) ? k.drm_fd : k.fd, off);
	if (p == MAP_FAILED) {
		nerr++;
		return;
	}
	nok++;
	guarded_read(p, 8);
	munmap(p, chance(80) ? len : PAGE);
}

static void op_munmap(void)
{
	int b = pick_bo(1);

	if (b < 0 || !bos[b].cpu)
		return;
	if (chance(30)) {
		/* a hole in the middle: the rest stays mapped until forget_bo */
		munmap((uint8_t *)bos[b].cpu + (rnd(bos[b].size / PAGE) * PAGE), PAGE);
		return;
	}
	munmap(bos[b].cpu, bos[b].size);
	bos[b].cpu = NULL;
	bos[b].reserved = 0;
	for (int q = 0; q < MAX_QUEUES; q++)
		if (qs[q].live && qs[q].bo == b)
			qs[q].ring = qs[q].aq = NULL;
}

/* --- queues ------------------------------------------------------------- */
static void op_qcreate(void)
{
	struct kfd_ioctl_create_queue_args a = { 0 };
	int q, b = pick_bo(1), i;
	uint64_t len, ring_size;

	for (q = 0; q < MAX_QUEUES && qs[q].live; q++)
		;
	if (q == MAX_QUEUES)
		return;
	ring_size = chance(85) ? 64ULL << rnd(10) : rnd_interesting();
	a.gpu_id = pick_gpu_id();
	a.queue_type = chance(70) ? KFD_IOC_QUEUE_TYPE_COMPUTE_AQL :
		       chance(60) ? KFD_IOC_QUEUE_TYPE_SDMA : rnd(6);
	a.queue_percentage = chance(90) ? 100 : rnd(300);
	a.queue_priority = chance(90) ? 7 : rnd(30);
	a.ring_size = ring_size;
	if (b >= 0 && chance(80) && bos[b].size >= 2 * PAGE) {
		/* ring at the start, amd_queue_t (rptr, wptr) in the last page */
		uint64_t aq = bos[b].va + bos[b].size - PAGE;

		a.ring_base_address = bos[b].va;
		if (ring_size > bos[b].size - PAGE && chance(80))
			a.ring_size = ring_size = (bos[b].size - PAGE) & ~(bos[b].size - PAGE - 1);
		a.read_pointer_address = aq + GTKFD_AQ_RPTR;
		a.write_pointer_address = aq + GTKFD_AQ_WPTR;
		if (chance(10))
			a.read_pointer_address = rnd_interesting();
		if (chance(10))
			a.write_pointer_address = pick_va(&len);
	} else {
		a.ring_base_address = pick_va(&len);
		a.read_pointer_address = pick_va(&len);
		a.write_pointer_address = pick_va(&len);
		b = -1;
	}
	if (chance(20)) {
		a.eop_buffer_address = pick_va(&len);
		a.eop_buffer_size = len;
		a.ctx_save_restore_address = pick_va(&len);
		a.ctx_save_restore_size = len;
		a.ctl_stack_size = rnd(len + 1);
	}
	if (kioctl(k.fd, AMDKFD_IOC_CREATE_QUEUE, &a, "create_queue"))
		return;
	memset(&qs[q], 0, sizeof(qs[q]));
	qs[q].live = 1;
	qs[q].id = a.queue_id;
	qs[q].bo = b;
	qs[q].ring_size = a.ring_size;
	if (b >= 0 && bos[b].cpu) {
		qs[q].ring = bos[b].cpu;
		qs[q].aq = (uint8_t *)bos[b].cpu + bos[b].size - PAGE;
		/* within the buffer: a garbage ring size may have been taken */
		if (a.queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL && chance(80))
			for (i = 0; (uint64_t)i < a.ring_size / 64 &&
				    (uint64_t)i < (bos[b].size - PAGE) / 64; i++) {
				uint64_t v = HSAGPU_PKT_TYPE_INVALID;

				guarded_write((volatile uint64_t *)(qs[q].ring + i * 64), &v, 1);
			}
	}
	if (chance(90)) {
		void *db = mmap(NULL, GTKFD_SLICE, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd,
				a.doorbell_offset & ~(uint64_t)(GTKFD_SLICE - 1));

		if (db != MAP_FAILED) {
			qs[q].doorbells = db;
			qs[q].db = (volatile uint64_t *)((uint8_t *)db +
					(a.doorbell_offset & (GTKFD_SLICE - 1) & ~7ULL));
		} else {
			nerr++;
		}
	}
}

static int pick_queue(void)
{
	int start = rnd(MAX_QUEUES);

	for (int i = 0; i < MAX_QUEUES; i++)
		if (qs[(start + i) % MAX_QUEUES].live)
			return (start + i) % MAX_QUEUES;
	return -1;
}

static uint32_t pick_queue_id(int *q)
{
	*q = pick_queue();
	if (*q >= 0 && chance(80))
		return qs[*q].id;
	*q = -1;
	return chance(50) ? stale_queues[rnd(8)] : (uint32_t)rnd_interesting();
}

static void op_qdestroy(void)
{
	struct kfd_ioctl_destroy_queue_args d = { 0 };
	int q;

	d.queue_id = pick_queue_id(&q);
	if (!kioctl(k.fd, AMDKFD_IOC_DESTROY_QUEUE, &d, "destroy_queue"))
		for (q = 0; q < MAX_QUEUES; q++)
			if (qs[q].live && qs[q].id == d.queue_id)
				forget_queue(q);
}

static void op_qupdate(void)
{
	struct kfd_ioctl_update_queue_args u = { 0 };
	uint64_t len;
	int q;

	u.queue_id = pick_queue_id(&q);
	u.queue_percentage = chance(70) ? (chance(50) ? 100 : 0) : rnd(200);
	u.queue_priority = rnd(20);
	if (q >= 0 && chance(60) && qs[q].bo >= 0 && bos[qs[q].bo].live) {
		u.ring_base_address = bos[qs[q].bo].va;
		u.ring_size = qs[q].ring_size;
	} else {
		u.ring_base_address = pick_va(&len);
		u.ring_size = chance(50) ? len : rnd_interesting();
	}
	kioctl(k.fd, AMDKFD_IOC_UPDATE_QUEUE, &u, "update_queue");
}

/* Write a packet (random or a barrier) and ring the doorbell. */
static void op_doorbell(void)
{
	int q = pick_queue();
	uint64_t pkt[8], v;

	if (q < 0 || !qs[q].db)
		return;
	/* only inside the ring's buffer: never into our own other memory */
	if (qs[q].ring && qs[q].ring_size >= 64 && qs[q].bo >= 0 && bos[qs[q].bo].cpu &&
	    (qs[q].wptr * 64) % qs[q].ring_size + 64 <= bos[qs[q].bo].size - PAGE) {
		for (int i = 0; i < 8; i++)
			pkt[i] = chance(50) ? rnd64() : rnd_interesting();
		if (chance(60)) {
			/* a barrier-AND without dependencies, or one on garbage signals */
			memset(pkt, 0, sizeof(pkt));
			pkt[0] = HSAGPU_PKT_TYPE_BARRIER_AND |
				 (1U << 8) /* barrier bit */ | (2U << 9) | (2U << 11);
			if (chance(30))
				pkt[1] = rnd_interesting();
			if (chance(30))
				pkt[7] = rnd_interesting();     /* completion signal */
		}
		guarded_write((volatile uint64_t *)(qs[q].ring +
				(qs[q].wptr * 64) % qs[q].ring_size), pkt, 8);
		qs[q].wptr++;
		v = chance(90) ? qs[q].wptr : rnd_interesting();
		guarded_write((volatile uint64_t *)(qs[q].aq + GTKFD_AQ_WPTR), &v, 1);
		npackets++;
	}
	v = chance(85) ? qs[q].wptr - 1 : rnd_interesting();
	guarded_write(chance(90) ? qs[q].db :
		      (volatile uint64_t *)((uint8_t *)qs[q].doorbells + (rnd(GTKFD_SLICE / 8) * 8)),
		      &v, 1);
}

/* Random bytes into a queue's ring or amd_queue_t (as a broken ROCr would). */
static void op_scribble(void)
{
	int q = pick_queue();
	uint64_t v[4];
	uint8_t *base;
	uint64_t span;

	if (q < 0 || !qs[q].aq || !qs[q].ring || qs[q].bo < 0 || !bos[qs[q].bo].cpu)
		return;
	if (chance(50)) {
		base = qs[q].aq;
		span = 256;
	} else {
		base = qs[q].ring;
		span = qs[q].ring_size <= bos[qs[q].bo].size - PAGE ? qs[q].ring_size : PAGE;
	}
	for (int i = 0; i < 4; i++)
		v[i] = chance(50) ? rnd64() : rnd_interesting();
	guarded_write((volatile uint64_t *)(base + (rnd(span / 8) * 8 & ~31ULL)), v,
		      chance(50) ? 1 : 4);
}

/* --- events ------------------------------------------------------------- */
static void op_event(void)
{
	int i = rnd(MAX_EVENTS), e;

	switch (rnd(5)) {
	case 0: case 1: {
		struct kfd_ioctl_create_event_args c = { 0 };
		int b;

		if (evs[i].live)
			return;
		c.event_type = chance(80) ? KFD_IOC_EVENT_SIGNAL : rnd(10);
		c.auto_reset = rnd(2);
		c.node_id = chance(90) ? 0 : rnd(4);
		if (!have_event_page || chance(10)) {
			b = pick_bo(1);
			c.event_page_offset = b >= 0 && chance(85) ? bos[b].handle : pick_handle();
		}
		e = kioctl(k.fd, AMDKFD_IOC_CREATE_EVENT, &c, "create_event");
		if (!e) {
			evs[i].live = 1;
			evs[i].id = c.event_id;
			evs[i].type = c.event_type;
			if (c.event_page_offset)
				have_event_page = 1;
		}
		return;
	}
	case 2: {
		struct kfd_ioctl_destroy_event_args d = { 0 };

		d.event_id = evs[i].live && chance(85) ? evs[i].id :
			     chance(50) ? stale_events[rnd(8)] : (uint32_t)rnd_interesting();
		if (!kioctl(k.fd, AMDKFD_IOC_DESTROY_EVENT, &d, "destroy_event"))
			for (int j = 0; j < MAX_EVENTS; j++)
				if (evs[j].live && evs[j].id == d.event_id) {
					stale_events[rnd(8)] = d.event_id;
					evs[j].live = 0;
				}
		return;
	}
	default: {
		struct kfd_ioctl_set_event_args s = { 0 };

		s.event_id = evs[i].live && chance(85) ? evs[i].id : (uint32_t)rnd_interesting();
		kioctl(k.fd, chance(50) ? AMDKFD_IOC_SET_EVENT : AMDKFD_IOC_RESET_EVENT, &s,
		       "set/reset_event");
	}
	}
}

static void op_wait(void)
{
	struct kfd_event_data d[8];
	struct kfd_ioctl_wait_events_args w = { 0 };
	unsigned int n = rnd(9);

	memset(d, 0, sizeof(d));
	for (unsigned int i = 0; i < n; i++) {
		int j = rnd(MAX_EVENTS);

		d[i].event_id = evs[j].live && chance(85) ? evs[j].id : (uint32_t)rnd_interesting();
		if (chance(10))
			d[i].kfd_event_data_ext = rnd_interesting();
	}
	w.events_ptr = chance(95) ? (uintptr_t)d : rnd_interesting();
	w.num_events = n;
	if (chance(5)) {
		/*
		 * A garbage count: the array is then a region the kernel may
		 * copy back into up to its end (a guard page follows), never
		 * our stack.
		 */
		static uint8_t *big;

		if (!big) {
			big = mmap(NULL, 65536 + PAGE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (big == MAP_FAILED) {
				big = NULL;
				return;
			}
			mprotect(big + 65536, PAGE, PROT_NONE);
		}
		memset(big, 0, 65536);
		w.events_ptr = (uintptr_t)big;
		w.num_events = (uint32_t)rnd_interesting();
	}
	w.wait_for_all = rnd(2);
	w.timeout = chance(90) ? rnd(20) : (chance(50) ? 0 : 50);
	kioctl(k.fd, AMDKFD_IOC_WAIT_EVENTS, &w, "wait_events");
}

/* --- IPC: export buffers, import share handles -------------------------- */
static void op_ipc(void)
{
	struct gtkfd_ipc_import_args im = { 0 };
	struct gtkfd_ipc_export_args ex = { 0 };
	int s = rnd(8), b, own = 0, e;
	uint64_t size = 0;
	void *va = MAP_FAILED;

	if (chance(40)) {
		ex.handle = pick_handle();
		ex.gpu_id = pick_gpu_id();
		ex.flags = (uint32_t)rnd64();
		if (!kioctl(k.fd, GTKFD_IOC_IPC_EXPORT_HANDLE, &ex, "ipc_export")) {
			memcpy(shares[s].share, ex.share_handle, sizeof(ex.share_handle));
			shares[s].flags = ex.flags;
			shares[s].size = 0;
			for (int i = 0; i < MAX_BOS; i++)
				if (bos[i].live && bos[i].handle == ex.handle)
					shares[s].size = bos[i].size;
		}
		return;
	}
	b = pick_bo(0);
	if (b < 0 || alloc_bytes > ALLOC_BUDGET)
		return;
	if (chance(85)) {
		memcpy(im.share_handle, shares[s].share, sizeof(im.share_handle));
		size = shares[s].size;
		if (chance(10))
			im.share_handle[rnd(4)] ^= 1U << rnd(32);
	} else {
		for (int i = 0; i < 4; i++)
			im.share_handle[i] = (uint32_t)rnd_interesting();
	}
	if (size && size <= (8ULL << 20)) {
		va = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			  -1, 0);
		own = va != MAP_FAILED;
	}
	im.va_addr = own && chance(90) ? (uintptr_t)va :
		     rnd_interesting() & ~(chance(90) ? 4095ULL : 0);
	im.gpu_id = pick_gpu_id();
	e = kioctl(k.fd, GTKFD_IOC_IPC_IMPORT_HANDLE, &im, "ipc_import");
	if (e) {
		if (own)
			munmap(va, size);
		return;
	}
	/* a buffer like any other: mapped, mmap()ed, freed by the other ops */
	bos[b].live = 1;
	bos[b].handle = im.handle;
	bos[b].va = im.va_addr;
	bos[b].size = size ? size : PAGE;
	bos[b].flags = 0;
	bos[b].mmap_offset = im.mmap_offset;
	bos[b].reserved = own && im.va_addr == (uintptr_t)va;
	if (own && !bos[b].reserved)
		munmap(va, size);
	alloc_bytes += size;
}

/* --- the rest: ioctls with random arguments ---------------------------- */
static void op_misc(void)
{
	/*
	 * Not on the stack and as large as any _IOC_SIZE: the kernel copies
	 * back what the command's size says (GET_PROCESS_APERTURES: 456
	 * bytes; an early 256-byte stack buffer zeroed return addresses).
	 */
	static uint8_t buf[1 << 14] __attribute__((aligned(8)));
	static const unsigned long cmds[] = {
		AMDKFD_IOC_GET_VERSION, AMDKFD_IOC_GET_CLOCK_COUNTERS,
		AMDKFD_IOC_GET_PROCESS_APERTURES, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW,
		AMDKFD_IOC_SET_MEMORY_POLICY, AMDKFD_IOC_SET_SCRATCH_BACKING_VA,
		AMDKFD_IOC_GET_TILE_CONFIG, AMDKFD_IOC_SET_TRAP_HANDLER,
		AMDKFD_IOC_ACQUIRE_VM, AMDKFD_IOC_SET_CU_MASK,
		AMDKFD_IOC_GET_QUEUE_WAVE_STATE, AMDKFD_IOC_GET_DMABUF_INFO,
		AMDKFD_IOC_IMPORT_DMABUF, AMDKFD_IOC_ALLOC_QUEUE_GWS,
		AMDKFD_IOC_SMI_EVENTS, AMDKFD_IOC_AVAILABLE_MEMORY,
		AMDKFD_IOC_SET_XNACK_MODE, AMDKFD_IOC_SVM, AMDKFD_IOC_CRIU_OP,
	};
	unsigned long cmd = cmds[rnd(sizeof(cmds) / sizeof(cmds[0]))];
	int r;

	memset(buf, 0, sizeof(buf));
	for (size_t i = 0; i < 256 / 8; i++)
		((uint64_t *)buf)[i] = chance(70) ? 0 : rnd_interesting();
	/* the gpu_id field sits at different offsets: plant it often */
	if (chance(60))
		memcpy(buf + 8 * rnd(4), &k.gpu_id, 4);
	if (chance(10))
		cmd = _IOC(_IOC_DIR(cmd) ^ rnd(4), 'K', rnd(0x90), rnd(256));
	r = kioctl(k.fd, cmd, buf, "misc");
	if (!r && cmd == AMDKFD_IOC_SMI_EVENTS) {
		/* an anon fd came back in the first word */
		int fd = *(int *)(buf + 4);

		if (fd > 2 && fd != k.fd && fd != k.drm_fd)
			close(fd);
	}
}

/* --- fork ---------------------------------------------------------------- */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void run_ops(uint64_t deadline, unsigned long maxops, int depth);

/*
 * A child holds the parent's /dev/kfd (its ioctls there fail: another
 * mm), opens its own context, builds buffers and queues, and exits or is
 * killed in the middle.
 */
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
		struct kfd_ioctl_get_version_args v;

		rng_state ^= 0x9e3779b97f4a7c15ULL;
		verbose = 0;
		in_child = 1;
		alarm(10);
		if (k.fd >= 0 && ioctl(k.fd, AMDKFD_IOC_GET_VERSION, &v) == 0) {
			DIAG("child: the parent's /dev/kfd answered a GET_VERSION");
			_exit(3);
		}
		k.fd = k.drm_fd = -1;   /* the parent's stay open (inherited) */
		memset(bos, 0, sizeof(bos));
		memset(qs, 0, sizeof(qs));
		memset(evs, 0, sizeof(evs));
		have_event_page = 0;
		op_open();
		run_ops(now_ns() + 300000000ULL, 200, 1);
		_exit(chance(50) ? 0 : 1);
	}
	nforks++;
	if (chance(50)) {
		usleep(rnd(200000));
		kill(pid, SIGKILL);
		nkills++;
	}
	if (waitpid(pid, &st, 0) == pid) {
		if (WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL && WTERMSIG(st) != SIGALRM)
			CHECK(0, "child died of signal %d", WTERMSIG(st));
		if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
			CHECK(0, "a child could use its parent's /dev/kfd");
	}
}

static long queues_active(int d)
{
	uint64_t v;

	return gt_debugfs_u64(pcis[d], "queues_active", &v) ? -1 : (long)v;
}

static long queues0[MAX_DEVS];

static void release_all(void)
{
	close_kfd();
	while (wait(NULL) > 0)
		;
}

static void run_ops(uint64_t deadline, unsigned long maxops, int depth)
{
	unsigned int total = 0, i;
	unsigned long n;

	for (i = 0; i < O_NUM; i++)
		total += weight[i];
	for (n = 0; n < maxops && now_ns() < deadline; n++) {
		unsigned int w = rnd(total), op = 0;

		if (!depth && alloc_bytes > ALLOC_BUDGET) {
			release_all();
			nresets++;
			for (int d = 0; d < ndevs; d++) {
				long qa = queues_active(d);

				CHECK(qa == queues0[d],
				      "%s: %ld queues active after /dev/kfd closed (op %lu)",
				      pcis[d], qa, nops);
			}
		}
		while (w >= weight[op])
			w -= weight[op++];
		nops++;
		op_count[op]++;
		cur_op = op;
		if (op == O_OPEN || k.fd < 0) {
			op_open();
			continue;
		}
		switch (op) {
		case O_CLOSE: close_kfd(); break;
		case O_ALLOC: op_alloc(); break;
		case O_FREE: op_free(); break;
		case O_MAP: op_map(0); break;
		case O_UNMAP: op_map(1); break;
		case O_MMAP: op_mmap(); break;
		case O_MUNMAP: op_munmap(); break;
		case O_QCREATE: op_qcreate(); break;
		case O_QDESTROY: op_qdestroy(); break;
		case O_QUPDATE: op_qupdate(); break;
		case O_DOORBELL: op_doorbell(); break;
		case O_SCRIBBLE: op_scribble(); break;
		case O_EVENT: op_event(); break;
		case O_WAIT: op_wait(); break;
		case O_MISC: op_misc(); break;
		case O_IPC: op_ipc(); break;
		case O_FORK:
			if (!depth && !no_fork)
				op_fork();
			break;
		}
	}
}

/* The timed run: what fuzz_run_child() runs in the child. */
struct run_args {
	uint64_t secs;
	unsigned long maxops;
};

static void timed_run(void *arg)
{
	const struct run_args *r = arg;
	uint64_t t0 = now_ns();
	int i;

	run_ops(t0 + r->secs * 1000000000ULL, r->maxops, 0);
	release_all();
	printf("# %lu operations in %.1f s (%lu ioctls/mmaps succeeded, %lu failed, %lu faults caught, %lu forks, %lu killed, %lu packets, %lu releases)\n",
	       nops, (now_ns() - t0) / 1e9, nok, nerr, nfault, nforks, nkills, npackets,
	       nresets);
	printf("# ops:");
	for (i = 0; i < O_NUM; i++)
		printf(" %s %lu", op_name[i], op_count[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	const char *p;
	uint64_t seed = 0, secs = 30;
	unsigned long maxops = ~0UL, klines = 0;
	struct fuzz_acct before, after;
	struct run_args run;
	int c, i, fail;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if ((p = gt_param("fuzz_time")))
		secs = strtoull(p, NULL, 0);
	if ((p = gt_param("fuzz_seed")))
		seed = strtoull(p, NULL, 0);
	while ((c = getopt(argc, argv, "t:s:n:vFPx:")) != -1) {
		switch (c) {
		case 'x':
			for (i = 0; i < O_NUM; i++)
				if (!strcmp(optarg, op_name[i]) && i != O_OPEN)
					weight[i] = 0;
			break;
		case 'P': weight[O_DOORBELL] = weight[O_SCRIBBLE] = 0; break;
		case 'F': no_fork = 1; break;
		case 't': secs = strtoull(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': maxops = strtoul(optarg, NULL, 0); break;
		case 'v': verbose = 1; break;
		default:
			fprintf(stderr, "usage: %s [-t SECONDS] [-s SEED] [-n MAXOPS] [-v] [-F] [-P] [-x OP]...\n",
				argv[0]);
			return 2;
		}
	}
	if (!seed)
		seed = (now_ns() ^ ((uint64_t)getpid() << 32)) | 1;
	rng_state = seed;
	printf("# hsagpu-fuzz-kfd: seed %llu, %llu s (replay: hsagpu-fuzz-kfd -s %llu -t %llu)\n",
	       (unsigned long long)seed, (unsigned long long)secs,
	       (unsigned long long)seed, (unsigned long long)secs);
	ndevs = gt_find_devices(pcis);
	if (access("/dev/kfd", R_OK | W_OK) || ndevs <= 0)
		return gt_skip("no /dev/kfd (boot with hsagpu_test.kfd=1) or no hsa-gpu");
	if (gtkfd_open(&k))
		return gt_skip("/dev/kfd: no GPU node could be acquired");
	close_kfd();
	{
		struct sigaction sa = { .sa_sigaction = fault_handler, .sa_flags = SA_SIGINFO };

		sigaction(SIGSEGV, &sa, NULL);
		sigaction(SIGBUS, &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);

	fuzz_kernel_trouble(&klines);
	/* warm-up: caches the first contexts grow once go into the baseline */
	run_ops(now_ns() + (secs > 20 ? 2000000000ULL : secs * 100000000ULL), maxops, 0);
	release_all();
	fuzz_account(&before, pcis, ndevs);
	for (i = 0; i < ndevs; i++)
		queues0[i] = before.queues[i];
	/* The run in a process of its own (fuzzacct.h). */
	run = (struct run_args){ secs, maxops };
	fuzz_run_child(timed_run, &run);
	fuzz_account(&after, pcis, ndevs);
	fuzz_acct_check(&before, &after, pcis, ndevs);
	c = fuzz_kernel_trouble(&klines);
	CHECK(c == 0, "%d kernel log line(s) of trouble (above)", c);
	fail = gt_result();
	printf("# hsagpu-fuzz-kfd: seed %llu: %s\n", (unsigned long long)seed,
	       fail ? "FAIL" : "ok");
	return fail;
}
