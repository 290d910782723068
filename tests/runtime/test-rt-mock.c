// SPDX-License-Identifier: MIT
/*
 * Host test of libhsagpu against a mock of the driver and device: the
 * runtime is compiled with open/close/ioctl/mmap/munmap renamed to the
 * mock_ functions below, which keep allocations in process memory (bus
 * address = CPU address + MOCK_BUS_OFF, so a missing translation shows),
 * run one thread per queue as the packet processor and implement events
 * with a condition variable. System allocations above 1 MiB are made of
 * 256 KiB segments whose bus addresses are scattered (in reverse order),
 * a second device's VRAM is seen through a peer window, and the mock
 * device runs DMA packets, checking that no COPY/FILL range crosses a
 * segment. It checks the runtime's own logic: address tables, signal
 * pools, blocking waits, concurrent submission and wrap, segments, DMA
 * lists and copies, peers.
 *
 * Everything runs twice: with bus addresses (vm=0) and with GPU virtual
 * memory ("vm/" in the test names), where the mock device accepts only
 * addresses mapped in the accessing file's space (its mmap()ed
 * allocations at their CPU address, its registrations, its event page
 * and peer windows in the aperture) and puts the queue in error with
 * HSAGPU_QERR_VM_FAULT and the address otherwise, so that a bus address
 * or another file's pointer in a packet shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hsagpu_rt.h"
#include "tap.h"

/* GPU virtual memory mode of this pass (GET_INFO vm_flags) */
static int mock_vm;

#undef TM
#define TM(cond, ...)                                                   \
	do {                                                            \
		char tm_msg_[256], tm_fn_[64];                          \
		int tm_ok_ = !!(cond);                                  \
		snprintf(tm_msg_, sizeof(tm_msg_), __VA_ARGS__);        \
		snprintf(tm_fn_, sizeof(tm_fn_), "%s%s",                \
			 mock_vm ? "vm/" : "", __func__);               \
		tap_result(tm_ok_, tm_fn_, tm_msg_, __FILE__, __LINE__); \
	} while (0)

#define MOCK_BUS_OFF    0x100000000000ULL
#define MOCK_MAX_MEM    256
#define MOCK_MAX_Q      8
#define MOCK_DB_OFFSET  (7ULL << 40)
#define MOCK_PEER_DELTA (1ULL << 48)    /* peer VRAM window above OFF */
#define MOCK_SEG_BUS    (1ULL << 52)    /* segmented allocations */
#define MOCK_SEG        (256U << 10)
#define MOCK_SEG_MIN    (1U << 20)      /* larger allocations: segments */
/* GPU VM: the aperture holds the peer window and (at its top) events */
#define MOCK_PEER_VA    HSAGPU_VM_APERTURE_BASE  /* + "VRAM offset" = cpu */
#define MOCK_EVENT_VA   (HSAGPU_VM_APERTURE_END + 1 - (1ULL << 24))
#define MOCK_MAX_REG    256
#define MOCK_REG_HANDLE 1000

/* Mock driver state ---------------------------------------------------- */

struct mock_mem {
	void *cpu;
	size_t size;
	int live;
	int fd;                 /* the file that allocated it */
	int mapped;             /* GPU VM: in @fd's space (mmap()ed) */
	uint32_t flags;
	uint32_t nsegs;         /* 0: contiguous at cpu + MOCK_BUS_OFF */
};

/* GPU VM: registered user memory of a file */
struct mock_reg {
	uintptr_t start, end;
	int live, fd;
	uint32_t flags;
};

struct mock_queue {
	int live;
	int fd;
	pthread_t thread;
	volatile int stop;
	struct hsagpu_create_queue cq;
	unsigned long processed;
	/* GPU VM: the first fault stops the queue (QERR_VM_FAULT) */
	volatile uint32_t error;
	uint64_t fault_addr;
};

static pthread_mutex_t mock_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mock_cond = PTHREAD_COND_INITIALIZER;
static struct mock_mem mems[MOCK_MAX_MEM];
static struct mock_queue queues[MOCK_MAX_Q];
static uint64_t event_slot[HSAGPU_MAX_EVENTS + 1];     /* "event page" */
static int event_live[HSAGPU_MAX_EVENTS + 1];
static uint64_t doorbells[512] __attribute__((aligned(4096)));
static uint64_t event_age[HSAGPU_MAX_EVENTS + 1];      /* 0 reads as 1 */
static unsigned long irqs, wait_calls, set_events;
static unsigned int mock_sleeping;
static unsigned long dma_packets, dma_errors;
static struct mock_reg regs[MOCK_MAX_REG];
static unsigned long vm_faults;
/* The queue thread's file, and its first fault (GPU VM) */
static __thread int cur_fd;
static __thread int cur_faulted;
static __thread uint64_t cur_fault_addr;

static void *bus_to_cpu_len(uint64_t bus, uint64_t len);

/*
 * GPU VM: the CPU address behind [va, va + len) in the current queue's
 * file, or NULL after recording a fault (nothing is touched then).
 */
static void *va_to_cpu_len(uint64_t va, uint64_t len, int write)
{
	uint64_t end = va + len;
	int i;

	if (cur_faulted)
		return NULL;
	if (va >= MOCK_EVENT_VA && end <= MOCK_EVENT_VA +
	    sizeof(uint64_t) * (HSAGPU_MAX_EVENTS + 1))
		return (char *)event_slot + (va - MOCK_EVENT_VA);
	if (va >= MOCK_PEER_VA && va < MOCK_EVENT_VA) {
		/* The peer window: VRAM allocations of any file */
		uintptr_t c = (uintptr_t)(va - MOCK_PEER_VA);

		for (i = 0; i < MOCK_MAX_MEM; i++)
			if (mems[i].live && mems[i].flags == HSAGPU_MEM_VRAM &&
			    c >= (uintptr_t)mems[i].cpu &&
			    c + len <= (uintptr_t)mems[i].cpu + mems[i].size)
				return (void *)c;
		goto fault;
	}
	for (i = 0; i < MOCK_MAX_MEM; i++)
		if (mems[i].live && mems[i].mapped && mems[i].fd == cur_fd &&
		    va >= (uintptr_t)mems[i].cpu &&
		    end <= (uintptr_t)mems[i].cpu + mems[i].size)
			return (void *)(uintptr_t)va;
	for (i = 0; i < MOCK_MAX_REG; i++)
		if (regs[i].live && regs[i].fd == cur_fd &&
		    va >= regs[i].start && end <= regs[i].end &&
		    !(write && (regs[i].flags & HSAGPU_REGISTER_READONLY)))
			return (void *)(uintptr_t)va;
fault:
	__atomic_fetch_add(&vm_faults, 1, __ATOMIC_SEQ_CST);
	cur_faulted = 1;
	cur_fault_addr = va;
	return NULL;
}

/* A device access of @len bytes at device address @a, in this pass's mode */
static void *dev_to_cpu(uint64_t a, uint64_t len, int write)
{
	return mock_vm ? va_to_cpu_len(a, len, write) : bus_to_cpu_len(a, len);
}

/* Bus address of segment @k of segmented allocation @i */
static uint64_t seg_bus(unsigned int i, uint32_t k)
{
	return MOCK_SEG_BUS + ((uint64_t)i << 32) +
	       ((uint64_t)(mems[i].nsegs - 1 - k) << 20);
}

/* CPU address of @bus; NULL (and an error) if @len bytes do not fit. */
static void *bus_to_cpu_len(uint64_t bus, uint64_t len)
{
	if (bus >= MOCK_SEG_BUS) {
		uint64_t i = (bus - MOCK_SEG_BUS) >> 32;
		uint64_t r = (bus - MOCK_SEG_BUS) & 0xffffffffULL;
		uint64_t slot = r >> 20, in = r & 0xfffff, k;

		if (i >= MOCK_MAX_MEM || !mems[i].live || !mems[i].nsegs ||
		    slot >= mems[i].nsegs)
			goto bad;
		k = mems[i].nsegs - 1 - slot;
		if (in + len > MOCK_SEG || k * MOCK_SEG + in + len > mems[i].size)
			goto bad;
		return (char *)mems[i].cpu + k * MOCK_SEG + in;
	}
	if (bus >= MOCK_BUS_OFF + MOCK_PEER_DELTA)
		bus -= MOCK_PEER_DELTA;
	return (void *)(uintptr_t)(bus - MOCK_BUS_OFF);
bad:
	__atomic_fetch_add(&dma_errors, 1, __ATOMIC_SEQ_CST);
	printf("# mock: bad device range 0x%llx + %llu\n",
	       (unsigned long long)bus, (unsigned long long)len);
	return NULL;
}

static void *bus_to_cpu(uint64_t bus)
{
	return bus_to_cpu_len(bus, 1);
}

/* One COPY or FILL range: contiguous in bus space, or an error. */
static void mock_dma_range(int fill, uint64_t dst, uint64_t src,
			   uint64_t size, uint32_t pattern)
{
	uint8_t *d = dev_to_cpu(dst, size, 1), *sp = NULL;
	uint64_t k;

	if (!fill)
		sp = dev_to_cpu(src, size, 0);
	if (!d || (!fill && !sp))
		return;
	if (fill) {
		for (k = 0; k < size; k++)
			d[k] = (uint8_t)(pattern >> 8 * (k % 4));
		return;
	}
	memmove(d, sp, size);
}

static void mock_dma(const struct hsagpu_dma_packet *p, uint8_t format,
		     uint8_t op)
{
	const struct hsagpu_dma_desc *dl;
	uint64_t i;

	__atomic_fetch_add(&dma_packets, 1, __ATOMIC_SEQ_CST);
	if (format != HSAGPU_VENDOR_FORMAT_DMA)
		op = 0;         /* not a DMA packet: an error */
	switch (op) {
	case HSAGPU_DMA_OP_COPY:
	case HSAGPU_DMA_OP_FILL:
		mock_dma_range(op == HSAGPU_DMA_OP_FILL, p->dst, p->src,
			       p->size, (uint32_t)p->pattern);
		break;
	case HSAGPU_DMA_OP_COPY_SG:
	case HSAGPU_DMA_OP_FILL_SG:
		dl = dev_to_cpu(p->src, p->size * sizeof(*dl), 0);
		for (i = 0; dl && !p->dst && i < p->size; i++)
			mock_dma_range(op == HSAGPU_DMA_OP_FILL_SG, dl[i].dst,
				       dl[i].src, dl[i].size,
				       (uint32_t)dl[i].src);
		break;
	default:
		__atomic_fetch_add(&dma_errors, 1, __ATOMIC_SEQ_CST);
	}
}

int mock_open(const char *path, int flags, ...);
int mock_close(int fd);
int mock_ioctl(int fd, unsigned long req, ...);
void *mock_mmap(void *addr, size_t len, int prot, int flags, int fd,
		off_t off);
int mock_munmap(void *addr, size_t len);

int mock_open(const char *path, int flags, ...)
{
	if (strcmp(path, "/dev/hsagpu0") && strcmp(path, "/dev/hsagpu1"))
		return errno = ENOENT, -1;
	return open("/dev/null", flags);
}

int mock_close(int fd)
{
	return close(fd);
}

void *mock_mmap(void *addr, size_t len, int prot, int flags, int fd,
		off_t off)
{
	uint64_t i = (uint64_t)off >> 12;

	/* the runtime's own anonymous memory (GPU-VM signal pools) */
	if (flags & MAP_ANONYMOUS)
		return mmap(addr, len, prot, flags, fd, off);
	if ((uint64_t)off == MOCK_DB_OFFSET)
		return len == 4096 ? doorbells : (errno = EINVAL, MAP_FAILED);
	if (i >= MOCK_MAX_MEM || !mems[i].live || len != mems[i].size ||
	    mems[i].fd != fd)
		return errno = EINVAL, MAP_FAILED;
	if (mems[i].mapped)
		return errno = EBUSY, MAP_FAILED;
	mems[i].mapped = 1;
	return mems[i].cpu;
}

/* GPU VM: an allocation leaves the file's space when it is unmapped */
int mock_munmap(void *addr, size_t len)
{
	int i, mine = addr == (void *)doorbells;

	pthread_mutex_lock(&mock_lock);
	for (i = 0; i < MOCK_MAX_MEM; i++)
		if (mems[i].live && mems[i].cpu == addr) {
			mems[i].mapped = 0;
			mine = 1;
		}
	pthread_mutex_unlock(&mock_lock);
	return mine ? 0 : munmap(addr, len);
}

/* Does [start, end) overlap a GPU mapping of @fd? mock_lock held. */
static int mock_overlaps(int fd, uintptr_t start, uintptr_t end)
{
	int i;

	for (i = 0; i < MOCK_MAX_MEM; i++)
		if (mems[i].live && mems[i].mapped && mems[i].fd == fd &&
		    start < (uintptr_t)mems[i].cpu + mems[i].size &&
		    (uintptr_t)mems[i].cpu < end)
			return 1;
	for (i = 0; i < MOCK_MAX_REG; i++)
		if (regs[i].live && regs[i].fd == fd && start < regs[i].end &&
		    regs[i].start < end)
			return 1;
	return 0;
}

static void signal_complete(uint64_t handle)
{
	struct hsagpu_signal *s;
	uint64_t *mbox;

	if (!handle)
		return;
	s = dev_to_cpu(handle, sizeof(*s), 1);
	if (!s)
		return;
	__atomic_fetch_sub(&s->value, 1, __ATOMIC_SEQ_CST);
	if (s->event_mailbox_ptr) {
		mbox = dev_to_cpu(s->event_mailbox_ptr, 8, 1);
		if (!mbox)
			return;
		pthread_mutex_lock(&mock_lock);
		*mbox = s->event_id;
		irqs++;
		pthread_cond_broadcast(&mock_cond);
		pthread_mutex_unlock(&mock_lock);
	}
}

/* A dependency's value; 0 (satisfied) after a fault, which stops the queue */
static int64_t sig_value(uint64_t handle)
{
	struct hsagpu_signal *s = dev_to_cpu(handle, sizeof(*s), 0);

	return s ? __atomic_load_n(&s->value, __ATOMIC_ACQUIRE) : 0;
}

/* The packet processor: in order, one packet at a time. */
static void *queue_thread(void *arg)
{
	struct mock_queue *mq = arg;
	uint64_t *rptr, *wptr;
	char *ring;

	cur_fd = mq->fd;
	cur_faulted = 0;
	rptr = dev_to_cpu(mq->cq.rptr_addr, 8, 1);
	wptr = dev_to_cpu(mq->cq.wptr_addr, 8, 0);
	ring = dev_to_cpu(mq->cq.ring_addr, (uint64_t)mq->cq.ring_size * 64, 0);
	if (cur_faulted) {
		mq->fault_addr = cur_fault_addr;
		mq->error = HSAGPU_QERR_VM_FAULT;
		return NULL;
	}

	while (!mq->stop) {
		uint64_t r = __atomic_load_n(rptr, __ATOMIC_ACQUIRE);
		char *slot = ring + (r % mq->cq.ring_size) * 64;
		uint32_t hs = __atomic_load_n((uint32_t *)slot,
					      __ATOMIC_ACQUIRE);
		uint64_t comp = 0;

		if (r >= __atomic_load_n(wptr, __ATOMIC_ACQUIRE) ||
		    (hs & 0xff) == HSAGPU_PKT_TYPE_INVALID) {
			usleep(20);
			continue;
		}
		switch (hs & 0xff) {
		case HSAGPU_PKT_TYPE_VENDOR_SPECIFIC: {
			struct hsagpu_dma_packet *p = (void *)slot;

			/* the first word as published: format, op above */
			mock_dma(p, (uint8_t)(hs >> 16), (uint8_t)(hs >> 24));
			comp = p->completion_signal;
			break;
		}
		case HSAGPU_PKT_TYPE_KERNEL_DISPATCH: {
			struct hsagpu_kernel_dispatch_packet *p = (void *)slot;
			struct hsagpu_kargs_fill *ka =
				dev_to_cpu(p->kernarg_address, sizeof(*ka), 0);
			uint32_t *dst = NULL, i;

			if (ka && p->kernel_object == HSAGPU_KERNEL_FILL &&
			    (hs >> 16) == 1)
				dst = dev_to_cpu(ka->dst, 4ULL * p->grid_size_x,
						 1);
			for (i = 0; dst && i < p->grid_size_x; i++)
				dst[i] = ka->value;
			comp = p->completion_signal;
			break;
		}
		case HSAGPU_PKT_TYPE_BARRIER_AND: {
			struct hsagpu_barrier_packet *p = (void *)slot;
			int i;

			for (i = 0; i < HSAGPU_BARRIER_DEPS; i++)
				while (p->dep_signal[i] &&
				       sig_value(p->dep_signal[i]) && !mq->stop)
					usleep(20);
			comp = p->completion_signal;
			break;
		}
		case HSAGPU_PKT_TYPE_AGENT_DISPATCH: {
			struct hsagpu_agent_dispatch_packet *p = (void *)slot;
			uint64_t *rv;

			if ((hs >> 16) == HSAGPU_AGENT_WRITE_VALUE) {
				rv = dev_to_cpu(p->return_address, 8, 1);
				if (rv)
					*rv = p->arg[0];
			}
			comp = p->completion_signal;
			break;
		}
		}
		if (!cur_faulted)
			signal_complete(comp);
		if (cur_faulted) {
			/* The packet stays at the read index, as on the device */
			mq->fault_addr = cur_fault_addr;
			__atomic_store_n(&mq->error, HSAGPU_QERR_VM_FAULT,
					 __ATOMIC_RELEASE);
			break;
		}
		__atomic_store_n((uint16_t *)slot, HSAGPU_PKT_TYPE_INVALID,
				 __ATOMIC_RELEASE);
		mq->processed++;
		__atomic_fetch_add(rptr, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

/* What the driver does, for one event: consume it, or see it aged. */
static int mock_wait(struct hsagpu_wait_events *we)
{
	uint32_t *ids = (uint32_t *)(uintptr_t)we->events_ptr;
	uint64_t *age = (uint64_t *)(uintptr_t)we->ages_ptr;
	uint32_t id = ids[0];
	struct timespec ts;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += we->timeout_ms / 1000;
	ts.tv_nsec += (long)(we->timeout_ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&mock_lock);
	wait_calls++;
	if (!event_age[id])
		event_age[id] = 1;
	we->signaled = 0;
	while (!event_slot[id] && !(age && *age && *age != event_age[id])) {
		if (!we->timeout_ms) {
			ret = ETIME;
			break;
		}
		mock_sleeping++;
		ret = pthread_cond_timedwait(&mock_cond, &mock_lock, &ts);
		mock_sleeping--;
		if (ret) {
			ret = ETIME;
			break;
		}
	}
	if (event_slot[id]) {
		event_slot[id] = 0;
		event_age[id]++;
		we->signaled = 1;
		ret = 0;
	} else if (age && *age && *age != event_age[id]) {
		we->signaled = 1;
		ret = 0;
	}
	if (age)
		*age = event_age[id];
	pthread_mutex_unlock(&mock_lock);
	return ret;
}

int mock_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int ret = 0, i;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);

	switch (req) {
	case HSAGPU_IOC_GET_INFO: {
		struct hsagpu_device_info *info = arg;

		memset(info, 0, sizeof(*info));
		info->size = sizeof(*info);
		info->abi_version = HSAGPU_ABI_VERSION;
		info->num_queues = MOCK_MAX_Q;
		info->vram_bus_addr = MOCK_BUS_OFF;
		info->vm_flags = mock_vm ? HSAGPU_VM_INFO_CAPABLE |
					   HSAGPU_VM_INFO_ENABLED : 0;
		strcpy(info->name, "mock");
		break;
	}
	case HSAGPU_IOC_MEM_SEGMENTS: {
		struct hsagpu_mem_segments *ms = arg;
		struct hsagpu_mem_segment *out = (void *)(uintptr_t)ms->segs_ptr;
		uint64_t h = ms->handle - 100;
		uint32_t k;

		if (mock_vm) {
			ret = EOPNOTSUPP;
			break;
		}
		if (h >= MOCK_MAX_MEM || !mems[h].live ||
		    ms->first >= (mems[h].nsegs ? mems[h].nsegs : 1)) {
			ret = EINVAL;
			break;
		}
		for (k = 0; k < ms->count && ms->first + k < mems[h].nsegs;
		     k++) {
			uint32_t j = ms->first + k;

			out[k].bus_addr = seg_bus(h, j);
			out[k].bytes = mems[h].size - (uint64_t)j * MOCK_SEG <
				       MOCK_SEG ? mems[h].size - j * MOCK_SEG :
				       MOCK_SEG;
		}
		ms->count = k;
		break;
	}
	case HSAGPU_IOC_PEER_ACCESS: {
		struct hsagpu_peer_access *pa = arg;

		if (pa->peer_fd < 0 || pa->peer_fd == fd) {
			ret = EINVAL;
			break;
		}
		pa->vram_addr = mock_vm ? MOCK_PEER_VA :
				MOCK_BUS_OFF + MOCK_PEER_DELTA;
		pa->peer_bar_addr = MOCK_BUS_OFF;
		pa->flags = HSAGPU_PEER_VIA_SWITCH;
		break;
	}
	case HSAGPU_IOC_ALLOC_MEM: {
		struct hsagpu_alloc_mem *am = arg;
		size_t sz = (am->bytes + 4095) & ~4095ULL;

		pthread_mutex_lock(&mock_lock);
		for (i = 0; i < MOCK_MAX_MEM && mems[i].live; i++)
			;
		if (i == MOCK_MAX_MEM) {
			ret = ENOMEM;
		} else {
			mems[i].cpu = aligned_alloc(4096, sz);
			memset(mems[i].cpu, 0xa5, sz);
			mems[i].size = sz;
			mems[i].live = 1;
			mems[i].fd = fd;
			mems[i].mapped = 0;
			mems[i].flags = am->flags;
			mems[i].nsegs = 0;
			am->handle = i + 100;
			am->mmap_offset = (uint64_t)i << 12;
			am->bus_addr = (uintptr_t)mems[i].cpu + MOCK_BUS_OFF;
			am->nsegs = 1;
			/* The mock's "VRAM" is host memory at its own address */
			am->vram_offset = am->flags == HSAGPU_MEM_VRAM ?
					  (uintptr_t)mems[i].cpu : 0;
			if (am->flags == HSAGPU_MEM_SYSTEM && sz > MOCK_SEG_MIN) {
				mems[i].nsegs = (sz + MOCK_SEG - 1) / MOCK_SEG;
				am->nsegs = mems[i].nsegs;
				am->bus_addr = seg_bus(i, 0);
			}
			/* GPU VM: no bus address, a segmented one is one range */
			if (mock_vm) {
				am->bus_addr = 0;
				mems[i].nsegs = 0;
			}
		}
		pthread_mutex_unlock(&mock_lock);
		break;
	}
	case HSAGPU_IOC_FREE_MEM: {
		struct hsagpu_free_mem *fm = arg;
		uint64_t h = fm->handle - 100;

		pthread_mutex_lock(&mock_lock);
		if (fm->handle >= MOCK_REG_HANDLE &&
		    fm->handle < MOCK_REG_HANDLE + MOCK_MAX_REG) {
			h = fm->handle - MOCK_REG_HANDLE;
			if (!regs[h].live || regs[h].fd != fd)
				ret = ENOENT;
			regs[h].live = 0;
		} else if (h >= MOCK_MAX_MEM || !mems[h].live) {
			ret = EINVAL;
		} else {
			free(mems[h].cpu);
			mems[h].live = 0;
		}
		pthread_mutex_unlock(&mock_lock);
		break;
	}
	case HSAGPU_IOC_REGISTER_MEM: {
		struct hsagpu_register_mem *rm = arg;
		uintptr_t start = rm->addr & ~4095ULL;
		uintptr_t end = (rm->addr + rm->bytes + 4095) & ~4095ULL;

		if (!mock_vm) {
			ret = EOPNOTSUPP;
			break;
		}
		if (!rm->bytes || rm->flags & ~HSAGPU_REGISTER_FLAGS_ALL) {
			ret = EINVAL;
			break;
		}
		pthread_mutex_lock(&mock_lock);
		for (i = 0; i < MOCK_MAX_REG && regs[i].live; i++)
			;
		if (mock_overlaps(fd, start, end)) {
			ret = EBUSY;
		} else if (i == MOCK_MAX_REG) {
			ret = EDQUOT;
		} else {
			regs[i] = (struct mock_reg){ .start = start, .end = end,
						     .live = 1, .fd = fd,
						     .flags = rm->flags };
			rm->handle = MOCK_REG_HANDLE + i;
		}
		pthread_mutex_unlock(&mock_lock);
		break;
	}
	case HSAGPU_IOC_CREATE_QUEUE: {
		struct hsagpu_create_queue *cq = arg;

		for (i = 0; i < MOCK_MAX_Q && queues[i].live; i++)
			;
		if (i == MOCK_MAX_Q)
			return errno = EBUSY, -1;
		queues[i].fd = fd;
		queues[i].error = 0;
		queues[i].fault_addr = 0;
		cq->queue_id = i;
		cq->doorbell_offset = i * 8;
		cq->doorbell_mmap_offset = MOCK_DB_OFFSET;
		queues[i].cq = *cq;
		queues[i].live = 1;
		queues[i].stop = 0;
		queues[i].processed = 0;
		pthread_create(&queues[i].thread, NULL, queue_thread,
			       &queues[i]);
		break;
	}
	case HSAGPU_IOC_DESTROY_QUEUE: {
		struct hsagpu_queue_id *qi = arg;

		if (qi->queue_id >= MOCK_MAX_Q || !queues[qi->queue_id].live)
			return errno = EINVAL, -1;
		queues[qi->queue_id].stop = 1;
		pthread_join(queues[qi->queue_id].thread, NULL);
		queues[qi->queue_id].live = 0;
		break;
	}
	case HSAGPU_IOC_QUEUE_STATUS: {
		struct hsagpu_queue_status *st = arg;
		struct mock_queue *mq = &queues[st->queue_id % MOCK_MAX_Q];
		uint32_t err = __atomic_load_n(&mq->error, __ATOMIC_ACQUIRE);

		st->state = err ? HSAGPU_QSTATE_ERROR : HSAGPU_QSTATE_ACTIVE;
		st->error = err;
		st->fault_addr = err ? mq->fault_addr : 0;
		break;
	}
	case HSAGPU_IOC_CREATE_EVENT: {
		struct hsagpu_create_event *ce = arg;

		pthread_mutex_lock(&mock_lock);
		for (i = 1; i <= (int)HSAGPU_MAX_EVENTS && event_live[i]; i++)
			;
		if (i > (int)HSAGPU_MAX_EVENTS) {
			ret = ENOSPC;
		} else {
			event_live[i] = 1;
			event_slot[i] = 0;
			ce->event_id = i;
			ce->mailbox_addr = mock_vm ? MOCK_EVENT_VA + 8ULL * i :
					   (uintptr_t)&event_slot[i] +
					   MOCK_BUS_OFF;
		}
		pthread_mutex_unlock(&mock_lock);
		break;
	}
	case HSAGPU_IOC_DESTROY_EVENT: {
		struct hsagpu_event_id *ev = arg;

		pthread_mutex_lock(&mock_lock);
		if (!ev->event_id || ev->event_id > HSAGPU_MAX_EVENTS ||
		    !event_live[ev->event_id])
			ret = EINVAL;
		else
			event_live[ev->event_id] = 0;
		pthread_mutex_unlock(&mock_lock);
		break;
	}
	case HSAGPU_IOC_WAIT_EVENTS:
		ret = mock_wait(arg);
		break;
	case HSAGPU_IOC_SET_EVENT: {
		struct hsagpu_event_id *ev = arg;

		pthread_mutex_lock(&mock_lock);
		if (!ev->event_id || ev->event_id > HSAGPU_MAX_EVENTS ||
		    !event_live[ev->event_id]) {
			ret = EINVAL;
		} else {
			event_slot[ev->event_id] = ev->event_id;
			set_events++;
			pthread_cond_broadcast(&mock_cond);
		}
		pthread_mutex_unlock(&mock_lock);
		break;
	}
	default:
		ret = ENOTTY;
	}
	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

/* Tests ------------------------------------------------------------------ */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Expected device address of @p: itself with GPU VM, else bus = cpu + OFF */
static uint64_t want_addr(const volatile void *p)
{
	return (uintptr_t)p + (mock_vm ? 0 : MOCK_BUS_OFF);
}

/* What a program puts in a packet: a plain pointer with GPU VM */
static uint64_t dev_addr(hsagpu_agent_t *a, const void *p)
{
	return mock_vm ? (uintptr_t)p : hsagpu_addr(a, p);
}

/* The queue's state, error and fault address after a fault (2 s) */
static int wait_fault(hsagpu_queue_t *q, uint64_t *addr)
{
	uint32_t err = 0;
	int i;

	for (i = 0; i < 2000; i++) {
		if (hsagpu_queue_state(q, &err, NULL) == HSAGPU_QSTATE_ERROR)
			break;
		usleep(1000);
	}
	*addr = queues[q->id].fault_addr;
	return err;
}

static void *regs_left_ptr;

static int live_mems(void)
{
	int i, n = 0;

	for (i = 0; i < MOCK_MAX_MEM; i++)
		n += mems[i].live;
	return n;
}

static void test_memory(hsagpu_agent_t *a)
{
	void *p[20];
	uint64_t bus;
	int i, ret;

	for (i = 0; i < 20; i++) {
		ret = hsagpu_memory_allocate(a, 1000 + i * 5000,
					     HSAGPU_RT_MEM_SYSTEM, &p[i]);
		TM(!ret, "alloc %d: %d", i, ret);
	}
	for (i = 0; i < 20; i++) {
		bus = hsagpu_addr(a, (char *)p[i] + 999);
		TM(bus == want_addr((char *)p[i] + 999), "addr %d", i);
	}
	/* GPU VM: any pointer is its own address (the device judges) */
	TM(hsagpu_addr(a, &bus) == (mock_vm ? (uintptr_t)&bus : 0),
	  "stack pointer");
	TM(hsagpu_memory_free(a, (char *)p[3] + 8) == -EINVAL, "inner free");
	for (i = 0; i < 20; i += 2)
		TM(!hsagpu_memory_free(a, p[i]), "free %d", i);
	TM(hsagpu_memory_free(a, p[0]) == -EINVAL, "double free");
	TM(hsagpu_addr(a, p[0]) == (mock_vm ? (uintptr_t)p[0] : 0),
	  "freed memory");
	for (i = 1; i < 20; i += 2)
		TM(hsagpu_addr(a, p[i]) == want_addr(p[i]),
		  "addr after frees %d", i);
	for (i = 1; i < 20; i += 2)
		TM(!hsagpu_memory_free(a, p[i]), "free %d", i);
	TM(hsagpu_memory_allocate(a, 0, HSAGPU_RT_MEM_SYSTEM, &p[0]) ==
	  -EINVAL, "zero size");
}

static void test_signals(hsagpu_agent_t *a)
{
	static hsagpu_signal_t s[600];
	volatile struct hsagpu_signal *sp;
	int i, ret, n = 0;

	for (i = 0; i < 600; i++) {
		ret = hsagpu_signal_create(a, i, &s[i]);
		TM(!ret, "create %d: %d", i, ret);
	}
	for (i = 0; i < 600; i++) {
		sp = hsagpu_signal_ptr(s[i]);
		TM(sp && hsagpu_addr(a, (const void *)sp) == s[i].handle,
		  "ptr %d", i);
		TM(!mock_vm || s[i].handle == (uintptr_t)sp,
		  "handle %d is not the signal's pointer", i);
		TM(hsagpu_signal_load_acquire(s[i]) == i, "value %d", i);
		TM(sp->kind == HSAGPU_SIGNAL_KIND_USER, "kind");
		n += sp->event_id != 0;
	}
	/* 512 events per file; the rest poll. */
	TM(n == (int)HSAGPU_MAX_EVENTS, "%d signals with events", n);
	TM(hsagpu_signal_add_relaxed(s[5], 10) == 5, "add returns old");
	TM(hsagpu_signal_load_relaxed(s[5]) == 15, "add");
	hsagpu_signal_store_release(s[5], -3);
	TM(hsagpu_signal_load_acquire(s[5]) == -3, "store");
	/* A handle into the middle of a signal is not a signal. */
	TM(!hsagpu_signal_ptr((hsagpu_signal_t){ s[5].handle + 8 }), "mid");
	for (i = 0; i < 600; i++)
		TM(!hsagpu_signal_destroy(s[i]), "destroy %d", i);
	TM(hsagpu_signal_destroy(s[0]) == -EINVAL, "double destroy");
	TM(!hsagpu_signal_ptr(s[0]), "destroyed signal found");
	for (i = 1; i <= (int)HSAGPU_MAX_EVENTS; i++)
		n -= event_live[i];
	TM(n == (int)HSAGPU_MAX_EVENTS, "events leaked");
}

struct waiter {
	hsagpu_signal_t s;
	int64_t v;
	uint64_t ns;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	uint64_t t = now_ns();

	/* A lost wake-up shows as a timeout with the value still 1. */
	w->v = hsagpu_signal_wait_acquire(w->s, HSAGPU_SIGNAL_CONDITION_LT, 1,
					  10000000000ULL,
					  HSAGPU_WAIT_STATE_BLOCKED);
	w->ns = now_ns() - t;
	return NULL;
}

/* Threads asleep in WAIT_EVENTS right now. */
static unsigned int sleepers(void)
{
	unsigned int n;

	pthread_mutex_lock(&mock_lock);
	n = mock_sleeping;
	pthread_mutex_unlock(&mock_lock);
	return n;
}

static void test_waits(hsagpu_agent_t *a)
{
	struct waiter w[2];
	unsigned long n;
	pthread_t th[2];
	hsagpu_signal_t s;
	uint64_t t;
	int64_t v;
	int i;

	TM(!hsagpu_signal_create(a, 1, &s), "create");
	t = now_ns();
	v = hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_EQ, 0,
				       30 * 1000000ULL,
				       HSAGPU_WAIT_STATE_BLOCKED);
	t = now_ns() - t;
	TM(v == 1, "timeout value %lld", (long long)v);
	TM(t >= 30000000, "timeout returned early, after %llu ns",
	  (unsigned long long)t);
	t = now_ns();
	v = hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_EQ, 0,
				       5 * 1000000ULL,
				       HSAGPU_WAIT_STATE_ACTIVE);
	t = now_ns() - t;
	TM(v == 1 && t >= 5000000, "active timeout");
	TM(hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_GTE, 1, 0,
				     HSAGPU_WAIT_STATE_BLOCKED) == 1, "gte");
	TM(hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_NE, 0, 0,
				     HSAGPU_WAIT_STATE_BLOCKED) == 1, "ne");

	/* Nobody asleep on it: a store makes no system call. */
	n = set_events;
	hsagpu_signal_store_relaxed(s, 1);
	hsagpu_signal_add_relaxed(s, 0);
	TM(set_events == n, "store without waiters called SET_EVENT");

	/*
	 * Two sleepers on one signal, woken by a CPU store (SET_EVENT): the
	 * one that does not consume the event wakes on its age.
	 */
	for (i = 0; i < 2; i++) {
		w[i].s = s;
		pthread_create(&th[i], NULL, wait_thread, &w[i]);
	}
	for (i = 0; i < 5000 && sleepers() < 2; i++)
		usleep(1000);
	TM(sleepers() == 2, "%u sleepers", sleepers());
	hsagpu_signal_store_release(s, 0);
	for (i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		TM(w[i].v == 0, "cpu wake %d: %lld", i, (long long)w[i].v);
	}
	TM(set_events > n, "store with waiters did not call SET_EVENT");
	hsagpu_signal_destroy(s);
}

struct submitter {
	hsagpu_queue_t *q;
	hsagpu_agent_t *a;
	uint32_t *buf;
	int id;
	int n;
	int errors;
};

static void *submit_thread(void *arg)
{
	struct submitter *st = arg;
	struct hsagpu_kernel_dispatch_packet pkt;
	struct hsagpu_kargs_fill *ka;
	uint32_t grid[3] = { 16, 1, 1 };
	uint16_t wg[3] = { 16, 1, 1 };
	hsagpu_signal_t s;
	void *mem;
	int i;

	if (hsagpu_memory_allocate(st->a, 4096, HSAGPU_RT_MEM_SYSTEM, &mem) ||
	    hsagpu_signal_create(st->a, 0, &s)) {
		st->errors++;
		return NULL;
	}
	ka = mem;
	for (i = 0; i < st->n; i++) {
		int64_t idx, v;

		ka->dst = dev_addr(st->a, st->buf + st->id * 16);
		ka->value = st->id << 16 | i;
		hsagpu_signal_store_relaxed(s, 1);
		hsagpu_packet_dispatch(&pkt, HSAGPU_KERNEL_FILL,
				       dev_addr(st->a, ka), grid, wg, 1, s);
		idx = hsagpu_queue_submit(st->q, &pkt,
			hsagpu_packet_header(HSAGPU_PKT_TYPE_KERNEL_DISPATCH,
					     0, 2, 2));
		if (idx < 0) {
			st->errors++;
			break;
		}
		v = hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_EQ,
					       0, 5000000000ULL,
					       i & 1 ? HSAGPU_WAIT_STATE_ACTIVE :
					       HSAGPU_WAIT_STATE_BLOCKED);
		if (v || st->buf[st->id * 16 + 15] != ka->value)
			st->errors++;
	}
	hsagpu_signal_destroy(s);
	hsagpu_memory_free(st->a, mem);
	return NULL;
}

static void test_queue(hsagpu_agent_t *a)
{
	struct hsagpu_agent_dispatch_packet ap;
	struct hsagpu_barrier_packet bp;
	struct submitter st[4];
	hsagpu_signal_t gate, done;
	pthread_t th[4];
	hsagpu_queue_t *q;
	uint64_t *ret_val;
	uint32_t *buf;
	uint64_t arg[4] = { 0x1234 };
	int64_t idx;
	int i, ret;

	TM(hsagpu_queue_create(a, 6, 0, 0, &q) == -EINVAL, "size 6");
	TM(hsagpu_queue_create(a, 2, 0, 0, &q) == -EINVAL, "size 2");
	ret = hsagpu_queue_create(a, 8, 0, 0, &q);
	TM(!ret, "queue create %d", ret);
	if (ret)
		return;
	TM(q->desc->size == 8 && q->desc->base_address == q->ring_bus_addr,
	  "desc");
	TM(q->ring_bus_addr == want_addr(q->base_address), "ring address");
	TM(queues[q->id].cq.rptr_addr ==
	  want_addr(&q->desc->read_dispatch_id) &&
	  queues[q->id].cq.wptr_addr == want_addr(&q->desc->write_dispatch_id),
	  "rptr/wptr addresses");
	TM(q->doorbell == &doorbells[q->id], "doorbell");
	for (i = 0; i < 8; i++)
		TM(*(uint16_t *)hsagpu_queue_slot(q, i) ==
		  HSAGPU_PKT_TYPE_INVALID, "slot %d header", i);
	TM(hsagpu_addr(a, q->base_address) == q->ring_bus_addr, "ring addr");

	/* Barrier blocks; packets behind it fill the ring; then release */
	TM(!hsagpu_memory_allocate(a, 64, HSAGPU_RT_MEM_SYSTEM,
				  (void **)&ret_val), "alloc");
	hsagpu_signal_create(a, 1, &gate);
	hsagpu_signal_create(a, 9, &done);
	hsagpu_packet_barrier(&bp, &gate, 1, done);
	idx = hsagpu_queue_submit(q, &bp,
		hsagpu_packet_header(HSAGPU_PKT_TYPE_BARRIER_AND, 1, 0, 0));
	TM(idx == 0, "first index %lld", (long long)idx);
	hsagpu_packet_agent(&ap, HSAGPU_AGENT_WRITE_VALUE,
			    dev_addr(a, ret_val), arg, done);
	for (i = 1; i < 8; i++)
		TM(hsagpu_queue_submit(q, &ap,
			hsagpu_packet_header(HSAGPU_PKT_TYPE_AGENT_DISPATCH,
					     0, 0, 0)) == i, "idx %d", i);
	TM(hsagpu_queue_load_write_index(q) == 8, "wptr");
	TM(hsagpu_signal_wait_acquire(done, HSAGPU_SIGNAL_CONDITION_EQ, 0,
				     20000000, HSAGPU_WAIT_STATE_BLOCKED) ==
	  9, "done early");
	hsagpu_signal_store_release(gate, 0);
	TM(hsagpu_queue_submit(q, &ap,
		hsagpu_packet_header(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0, 0,
				     0)) == 8, "wrap");
	TM(hsagpu_signal_wait_acquire(done, HSAGPU_SIGNAL_CONDITION_EQ, 0,
				     UINT64_MAX, HSAGPU_WAIT_STATE_BLOCKED) ==
	  0, "done");
	TM(*ret_val == 0x1234, "write value");

	/* Concurrent producers through a small ring */
	TM(!hsagpu_memory_allocate(a, 4096, HSAGPU_RT_MEM_SYSTEM,
				  (void **)&buf), "alloc");
	for (i = 0; i < 4; i++) {
		st[i] = (struct submitter){ .q = q, .a = a, .buf = buf,
					    .id = i, .n = 3000 };
		pthread_create(&th[i], NULL, submit_thread, &st[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		TM(!st[i].errors, "submitter %d: %d errors", i, st[i].errors);
	}
	TM(hsagpu_queue_load_read_index(q) == 9 + 4 * 3000, "read index");
	TM(queues[q->id].processed == 9 + 4 * 3000, "processed");
	TM(hsagpu_queue_state(q, NULL, NULL) == HSAGPU_QSTATE_ACTIVE, "state");
	TM(!hsagpu_queue_destroy(q), "destroy");
	TM(!queues[0].live, "queue not destroyed");
	/* Left for hsagpu_agent_close: a queue, signals and memory */
	TM(!hsagpu_queue_create(a, 16, 0, HSAGPU_QUEUE_PROFILE, &q), "create");
}

static int check_fill(const uint8_t *p, size_t n, uint32_t pattern)
{
	for (size_t k = 0; k < n; k++)
		if (p[k] != (uint8_t)(pattern >> 8 * (k % 4)))
			return 0;
	return 1;
}

static void dma_wait(hsagpu_signal_t s, int64_t id, const char *what)
{
	TM(id >= 0, "%s: submit %lld", what, (long long)id);
	if (id >= 0)
		TM(hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					     5000000000ULL,
					     HSAGPU_WAIT_STATE_BLOCKED) == 0,
		  "%s: not completed", what);
	hsagpu_signal_store_relaxed(s, 1);
}

static void test_dma(hsagpu_agent_t *a)
{
	const size_t big = 3 * MOCK_SEG * 4 + 4096;    /* 13 segments */
	struct hsagpu_dma_packet pkt;
	hsagpu_dma_list_t *list, *tiny;
	uint8_t *b1, *b2, *small;
	hsagpu_queue_t *q;
	hsagpu_signal_t s;
	uint64_t bus, k, before;
	uint8_t guard;
	uint32_t i;

	hsagpu_packet_dma_copy(&pkt, 0x1000, 0x2000, 77, (hsagpu_signal_t){ 9 });
	TM(pkt.header == HSAGPU_PKT_TYPE_INVALID &&
	  pkt.format == HSAGPU_VENDOR_FORMAT_DMA && pkt.op == HSAGPU_DMA_OP_COPY &&
	  pkt.dst == 0x1000 && pkt.src == 0x2000 && pkt.size == 77 &&
	  pkt.completion_signal == 9 && !pkt.flags && !pkt.reserved[0],
	  "copy packet");
	hsagpu_packet_dma_fill(&pkt, 0x1000, 0xaabbccdd, 8, (hsagpu_signal_t){ 0 });
	TM(pkt.format == HSAGPU_VENDOR_FORMAT_DMA &&
	  pkt.op == HSAGPU_DMA_OP_FILL && pkt.pattern == 0xaabbccdd && !pkt.src,
	  "fill packet");
	hsagpu_packet_dma_sg(&pkt, HSAGPU_DMA_OP_FILL_SG, 0x3000, 5,
			     (hsagpu_signal_t){ 0 });
	TM(pkt.format == HSAGPU_VENDOR_FORMAT_DMA &&
	  pkt.op == HSAGPU_DMA_OP_FILL_SG && pkt.src == 0x3000 &&
	  pkt.size == 5 && !pkt.dst, "sg packet");

	TM(!hsagpu_memory_allocate(a, big, HSAGPU_RT_MEM_SYSTEM, (void **)&b1),
	  "alloc big");
	TM(!hsagpu_memory_allocate(a, big, HSAGPU_RT_MEM_SYSTEM, (void **)&b2),
	  "alloc big 2");
	TM(!hsagpu_memory_allocate(a, 65536, HSAGPU_RT_MEM_SYSTEM,
				  (void **)&small), "alloc small");
	TM(!hsagpu_queue_create(a, 16, 0, 0, &q), "queue");
	TM(!hsagpu_signal_create(a, 1, &s), "signal");
	TM(!hsagpu_dma_list_create(a, 64, &list), "list");
	TM(!hsagpu_dma_list_create(a, 2, &tiny), "tiny list");
	TM(hsagpu_dma_list_create(a, 0, &tiny) == -EINVAL, "capacity 0");
	TM(hsagpu_dma_list_create(a, HSAGPU_DMA_SG_MAX + 1, &tiny) == -EINVAL,
	  "capacity above the maximum");

	/*
	 * Segments: translation follows the scattered bus addresses; with
	 * GPU VM an allocation is one range at its own address.
	 */
	for (i = 0; i < 13; i++) {
		bus = hsagpu_addr(a, b1 + (size_t)i * MOCK_SEG + 5);
		if (mock_vm)
			TM(bus == (uintptr_t)(b1 + (size_t)i * MOCK_SEG + 5),
			  "vm segment %u: 0x%llx", i, (unsigned long long)bus);
		else
			TM(bus_to_cpu(bus) == b1 + (size_t)i * MOCK_SEG + 5,
			  "segment %u: 0x%llx", i, (unsigned long long)bus);
	}
	TM(mock_vm || hsagpu_addr(a, b1 + MOCK_SEG) !=
	  hsagpu_addr(a, b1 + MOCK_SEG - 1) + 1,
	  "segments are contiguous in the mock");

	for (k = 0; k < 65536; k++)
		small[k] = (uint8_t)(k * 7 + 3);
	/* One segment: a plain COPY, no list needed */
	before = dma_packets;
	dma_wait(s, hsagpu_dma_copy(q, NULL, b1 + 100, small, 1000, s),
		 "copy in a segment");
	TM(!memcmp(b1 + 100, small, 1000), "copy data");
	/* Across a boundary: needs a list (not with GPU VM) */
	if (mock_vm)
		dma_wait(s, hsagpu_dma_copy(q, NULL, b1 + MOCK_SEG - 10, small,
					    100, s), "vm: no list needed");
	else
		TM(hsagpu_dma_copy(q, NULL, b1 + MOCK_SEG - 10, small, 100,
				   s) == -E2BIG, "no list");
	dma_wait(s, hsagpu_dma_copy(q, list, b1 + MOCK_SEG - 10, small, 100, s),
		 "copy across segments");
	TM(hsagpu_dma_list_count(list) == (mock_vm ? 0 : 2),
	  "descriptors: %u", hsagpu_dma_list_count(list));
	TM(!memcmp(b1 + MOCK_SEG - 10, small, 100), "copy across data");
	/* The whole thing, segment boundaries at different places */
	for (k = 0; k < big; k++)
		b1[k] = (uint8_t)(k ^ (k >> 9));
	dma_wait(s, hsagpu_dma_copy(q, list, b2, b1 + 3, big - 3, s),
		 "big copy");
	TM(!memcmp(b2, b1 + 3, big - 3), "big copy data");
	/* 12 destination and 12 source boundaries (one COPY with GPU VM) */
	TM(hsagpu_dma_list_count(list) == (mock_vm ? 0 : 25),
	  "big copy: %u descriptors", hsagpu_dma_list_count(list));
	/* Fill: the pattern runs on across descriptors */
	guard = b2[big - 1];
	dma_wait(s, hsagpu_dma_fill(q, list, b2 + 1, 0x11223344, big - 2, s),
		 "big fill");
	TM(check_fill(b2 + 1, big - 2, 0x11223344), "big fill data");
	TM(b2[0] == b1[3] && b2[big - 1] == guard, "fill guards");
	dma_wait(s, hsagpu_dma_fill(q, NULL, small + 1, 0xa1b2c3d4, 4093, s),
		 "small fill");
	TM(check_fill(small + 1, 4093, 0xa1b2c3d4), "small fill data");
	TM(dma_packets - before == 5 + !!mock_vm, "%lu packets",
	  dma_packets - before);

	/* Lists: all or nothing, raw descriptors, errors */
	if (mock_vm) {
		TM(!hsagpu_dma_list_add_copy(tiny, b2 + MOCK_SEG - 8, b1,
					     2 * MOCK_SEG) &&
		  hsagpu_dma_list_count(tiny) == 1 &&
		  hsagpu_dma_list_descs(tiny)[0].dst ==
		  (uintptr_t)(b2 + MOCK_SEG - 8), "vm: one descriptor");
		hsagpu_dma_list_reset(tiny);
	} else {
		TM(hsagpu_dma_list_add_copy(tiny, b2 + MOCK_SEG - 8, b1,
					    2 * MOCK_SEG) == -ENOSPC,
		  "3 descriptors in a list of 2");
	}
	TM(hsagpu_dma_list_count(tiny) == 0, "failed add left descriptors");
	TM(!hsagpu_dma_list_add_raw(tiny, 1, 2, 3), "raw");
	TM(hsagpu_dma_list_descs(tiny)[0].size == 3 &&
	  hsagpu_dma_list_descs(tiny)[0].src == 2, "raw descriptor");
	if (!mock_vm) {
		TM(hsagpu_dma_list_add_copy(tiny, b2, &bus, 8) == -EFAULT,
		  "stack source");
		TM(hsagpu_dma_list_add_fill(tiny, &bus, 1, 8) == -EFAULT,
		  "stack destination");
	}
	TM(hsagpu_dma_list_add_copy(tiny, b2, b1, 0) == -EINVAL, "size 0");
	TM(hsagpu_dma_list_count(tiny) == 1, "errors added descriptors");
	hsagpu_dma_list_reset(tiny);
	TM(hsagpu_dma_list_count(tiny) == 0, "reset");
	TM(hsagpu_addr(a, hsagpu_dma_list_descs(list)) ==
	  hsagpu_dma_list_addr(list), "list address");
	TM(hsagpu_memory_free(a, hsagpu_dma_list_descs(list)) == -EBUSY,
	  "user freed a list");
	TM(hsagpu_dma_copy(q, list, small, small + 8, 0, s) == -EINVAL, "copy 0");
	TM(dma_errors == 0, "%lu device range errors", dma_errors);
	if (!mock_vm) {
		TM(hsagpu_dma_copy(q, list, &bus, small, 8, s) == -EFAULT,
		  "copy to stack");
	} else {
		/* Unregistered stack memory: the device faults, not the runtime */
		uint64_t fa = 0;

		bus = 0x5a5a;
		TM(hsagpu_dma_copy(q, list, &bus, small, 8, s) >= 0,
		  "vm: copy to the stack submitted");
		TM(wait_fault(q, &fa) == HSAGPU_QERR_VM_FAULT,
		  "vm: copy to unregistered stack did not fault");
		TM(fa == (uintptr_t)&bus, "vm: fault address 0x%llx",
		  (unsigned long long)fa);
		TM(bus == 0x5a5a, "vm: a faulting copy wrote");
	}

	hsagpu_dma_list_destroy(tiny);
	hsagpu_dma_list_destroy(list);
	hsagpu_signal_destroy(s);
	hsagpu_queue_destroy(q);
	hsagpu_memory_free(a, b1);
	hsagpu_memory_free(a, b2);
	hsagpu_memory_free(a, small);
}

static void test_peers(hsagpu_agent_t *a)
{
	hsagpu_agent_t *b;
	uint8_t *vram, *sys;
	hsagpu_queue_t *q;
	hsagpu_signal_t s;
	uint32_t flags = 0;

	TM(!hsagpu_agent_open(1, &b), "open agent 1");
	TM(!hsagpu_memory_allocate(b, 8192, HSAGPU_RT_MEM_VRAM, (void **)&vram),
	  "peer VRAM");
	TM(!hsagpu_memory_allocate(b, 8192, HSAGPU_RT_MEM_SYSTEM, (void **)&sys),
	  "peer system memory");
	TM(hsagpu_addr(a, vram) == (mock_vm ? (uintptr_t)vram : 0),
	  "peer VRAM before enable");
	TM(hsagpu_agent_enable_peer(a, a, NULL) == -EINVAL, "self");
	TM(!hsagpu_agent_enable_peer(a, b, &flags), "enable");
	TM(flags == HSAGPU_PEER_VIA_SWITCH, "flags 0x%x", flags);
	TM(!hsagpu_agent_enable_peer(a, b, NULL), "enable again");
	/* The window from PEER_ACCESS + the allocation's VRAM offset */
	TM(hsagpu_addr(a, vram + 10) == (mock_vm ?
	  MOCK_PEER_VA + (uintptr_t)vram + 10 :
	  (uintptr_t)vram + 10 + MOCK_BUS_OFF + MOCK_PEER_DELTA),
	  "peer VRAM address");
	TM(hsagpu_addr(b, vram + 10) == want_addr(vram + 10),
	  "owner's VRAM address");
	TM(hsagpu_addr(a, sys) == (mock_vm ? (uintptr_t)sys : 0),
	  "peer system memory");
	TM(!hsagpu_queue_create(a, 16, 0, 0, &q), "queue");
	TM(!hsagpu_signal_create(a, 1, &s), "signal");
	{
		/* A queue of b waits on a's signal and completes b's */
		struct hsagpu_barrier_packet bp;
		hsagpu_queue_t *qb;
		hsagpu_signal_t sa, sb;

		TM(!hsagpu_queue_create(b, 16, 0, 0, &qb), "b's queue");
		TM(!hsagpu_signal_create(a, 1, &sa), "a's signal");
		TM(!hsagpu_signal_create(b, 1, &sb), "b's signal");
		hsagpu_packet_barrier(&bp, &sa, 1, sb);
		TM(hsagpu_queue_submit(qb, &bp, hsagpu_packet_header(
			HSAGPU_PKT_TYPE_BARRIER_AND, 0, 0, 0)) == 0, "submit");
		hsagpu_signal_store_release(sa, 0);
		TM(hsagpu_signal_wait_acquire(sb, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					     5000000000ULL,
					     HSAGPU_WAIT_STATE_BLOCKED) == 0,
		  "a barrier of b's queue on a's signal");
		TM(hsagpu_queue_state(qb, NULL, NULL) == HSAGPU_QSTATE_ACTIVE,
		  "b's queue faulted on a's signal");
		hsagpu_queue_destroy(qb);
		hsagpu_signal_destroy(sa);
		hsagpu_signal_destroy(sb);
	}
	dma_wait(s, hsagpu_dma_fill(q, NULL, vram + 4, 0x01020304, 8000, s),
		 "fill peer VRAM");
	TM(check_fill(vram + 4, 8000, 0x01020304), "peer fill data");
	if (!mock_vm) {
		TM(hsagpu_dma_fill(q, NULL, sys, 0, 8, s) == -EFAULT,
		  "fill peer system memory");
	} else {
		/* Another file's system memory is not in this file's space */
		uint64_t fa = 0;

		sys[0] = 0x77;
		TM(hsagpu_dma_fill(q, NULL, sys, 0, 8, s) >= 0, "vm: submit");
		TM(wait_fault(q, &fa) == HSAGPU_QERR_VM_FAULT &&
		  fa == (uintptr_t)sys, "vm: peer system memory did not fault");
		TM(sys[0] == 0x77, "vm: faulting fill wrote");
	}
	hsagpu_agent_close(b);
	TM(hsagpu_addr(a, vram) == (mock_vm ? (uintptr_t)vram : 0),
	  "closed peer still translated");
	hsagpu_signal_destroy(s);
	hsagpu_queue_destroy(q);
}

/* User memory registered by pointer: malloc, stack, read-only, unregister */
static void test_register(hsagpu_agent_t *a)
{
	struct hsagpu_kernel_dispatch_packet pkt;
	uint32_t grid[3] = { 1024, 1, 1 };
	uint16_t wg[3] = { 64, 1, 1 };
	struct hsagpu_kargs_fill ka;
	uint8_t stackbuf[256] __attribute__((aligned(64)));
	uint32_t *heap, *ro;
	hsagpu_queue_t *q;
	hsagpu_signal_t s;
	uint64_t fa;
	void *alloc;
	int i;

	heap = aligned_alloc(4096, 3 * 4096);
	ro = aligned_alloc(4096, 4096);
	if (!mock_vm) {
		TM(hsagpu_memory_register(a, heap, 4096, 0) == -EOPNOTSUPP,
		  "bus addresses: register");
		free(heap);
		free(ro);
		return;
	}
	TM(!hsagpu_memory_allocate(a, 4096, HSAGPU_RT_MEM_SYSTEM, &alloc),
	  "alloc");
	TM(hsagpu_memory_register(a, NULL, 8, 0) == -EINVAL, "NULL");
	TM(hsagpu_memory_register(a, heap, 0, 0) == -EINVAL, "size 0");
	TM(hsagpu_memory_register(a, heap, 8, 2) == -EINVAL, "flags");
	TM(hsagpu_memory_register(a, (char *)alloc + 8, 8, 0) == -EBUSY,
	  "overlaps an allocation");
	/* 8 KiB starting 4 bytes into a page: 3 pages */
	TM(!hsagpu_memory_register(a, heap + 1, 8192, 0), "register heap");
	TM(hsagpu_memory_register(a, (char *)heap + 3 * 4096 - 1, 1, 0) ==
	  -EBUSY, "overlapping registration");
	TM(hsagpu_memory_unregister(a, heap) == -EINVAL, "other pointer");
	TM(hsagpu_memory_free(a, heap + 1) == -EINVAL, "free a registration");
	TM(hsagpu_memory_unregister(a, alloc) == -EINVAL,
	  "unregister an allocation");
	TM(!hsagpu_memory_register(a, stackbuf, sizeof(stackbuf), 0),
	  "register the stack");
	TM(!hsagpu_memory_register(a, ro, 4096, HSAGPU_RT_REGISTER_READONLY),
	  "register read-only");
	TM(hsagpu_addr(a, heap + 5) == (uintptr_t)(heap + 5), "identity");

	TM(!hsagpu_queue_create(a, 16, 0, 0, &q), "queue");
	TM(!hsagpu_signal_create(a, 1, &s), "signal");
	/* A kernel writing malloc'd memory, its kernargs on the stack */
	for (i = 0; i < 256; i++)
		stackbuf[i] = (uint8_t)i;
	memset(&ka, 0, sizeof(ka));
	ka.dst = (uintptr_t)(heap + 1);
	ka.value = 0xfeed0001;
	memcpy(stackbuf, &ka, sizeof(ka));
	hsagpu_packet_dispatch(&pkt, HSAGPU_KERNEL_FILL, (uintptr_t)stackbuf,
			       grid, wg, 1, s);
	dma_wait(s, hsagpu_queue_submit(q, &pkt,
		hsagpu_packet_header(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, 0, 2, 2)),
		 "kernel on registered memory");
	for (i = 0; i < 1024 && heap[1 + i] == 0xfeed0001; i++)
		;
	TM(i == 1024, "kernel data: %d words", i);
	/* DMA: registered stack -> registered heap, then from read-only */
	dma_wait(s, hsagpu_dma_copy(q, NULL, heap + 1, stackbuf + 16, 200, s),
		 "copy from the stack");
	TM(!memcmp(heap + 1, stackbuf + 16, 200), "copy data");
	memset(ro, 0x3c, 4096);
	dma_wait(s, hsagpu_dma_copy(q, NULL, heap + 1, ro, 4096, s),
		 "copy from read-only");
	TM(((uint8_t *)(heap + 1))[4095] == 0x3c, "read-only source data");
	TM(!hsagpu_memory_unregister(a, stackbuf), "unregister stack");
	/* Unregistered: later device writes fault and touch nothing */
	TM(!hsagpu_memory_unregister(a, heap + 1), "unregister heap");
	heap[2] = 0x1234;
	TM(hsagpu_dma_fill(q, NULL, heap + 2, 0, 4, s) >= 0, "submit");
	TM(wait_fault(q, &fa) == HSAGPU_QERR_VM_FAULT, "no fault");
	TM(fa == (uintptr_t)(heap + 2), "fault address 0x%llx",
	  (unsigned long long)fa);
	TM(heap[2] == 0x1234, "unregistered memory written");
	hsagpu_queue_destroy(q);
	/* A write to read-only registered memory faults */
	TM(!hsagpu_queue_create(a, 16, 0, 0, &q), "queue 2");
	hsagpu_signal_store_relaxed(s, 1);
	TM(hsagpu_dma_fill(q, NULL, ro, 0, 4, s) >= 0, "submit");
	TM(wait_fault(q, &fa) == HSAGPU_QERR_VM_FAULT && fa == (uintptr_t)ro,
	  "write to read-only memory");
	TM(ro[0] == 0x3c3c3c3c, "read-only memory written");
	hsagpu_queue_destroy(q);
	hsagpu_signal_destroy(s);
	hsagpu_memory_free(a, alloc);
	free(heap);
	/* ro stays registered until the agent closes; freed after */
	regs_left_ptr = ro;
}

static int live_regs(void)
{
	int i, n = 0;

	for (i = 0; i < MOCK_MAX_REG; i++)
		n += regs[i].live;
	return n;
}

static int run(int vm)
{
	hsagpu_agent_t *a;
	int ret;

	mock_vm = vm;
	printf("# pass: %s\n", vm ? "GPU virtual memory" : "bus addresses");
	TM(hsagpu_agent_open(2, &a) == -ENOENT, "no agent 2");
	ret = hsagpu_agent_open(0, &a);
	TM(!ret, "open: %d", ret);
	if (ret)
		return 1;
	TM(!strcmp(hsagpu_agent_info(a)->name, "mock"), "info");
	test_memory(a);
	TM(live_mems() == 0, "memory leaked: %d", live_mems());
	test_signals(a);
	test_waits(a);
	test_dma(a);
	test_peers(a);
	test_register(a);
	test_queue(a);
	hsagpu_agent_close(a);
	TM(live_mems() == 0, "memory leaked at close: %d", live_mems());
	TM(live_regs() == 0, "registration left at close: %d", live_regs());
	free(regs_left_ptr);
	regs_left_ptr = NULL;
	TM(!queues[0].live && !queues[1].live, "queue left at close");
	printf("# irqs %lu, event waits %lu, vm faults %lu\n", irqs,
	       wait_calls, vm_faults);
	return 0;
}

int main(void)
{
	run(0);
	/* Nothing of the first pass may fault; the second's faults are its own */
	TM(vm_faults == 0, "faults with bus addresses");
	run(1);
	return tap_done();
}
