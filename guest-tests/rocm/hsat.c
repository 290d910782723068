// SPDX-License-Identifier: GPL-2.0-or-later
/* Helpers of the ROCm guest tests (hsat.h). */
#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hsakmt.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include "hsat.h"

hsa_status_t hsat_check_status(hsa_status_t st, const char *what,
			       const char *file, int line)
{
	if (st != HSA_STATUS_SUCCESS) {
		gt_failures++;
		printf("# FAIL %s:%d: %s: %s (0x%x)\n", file, line, what,
		       hsat_status_name(st), st);
		fflush(stdout);
	}
	return st;
}

const char *hsat_status_name(hsa_status_t st)
{
	const char *s = NULL;

	if (hsa_status_string(st, &s) != HSA_STATUS_SUCCESS || !s)
		return "unknown status";
	return s;
}

static const char *volatile phase = "start";
static struct hsat *cur;        /* hsat_init()'s, for hsat_alloc() */
static unsigned int watchdog_secs;

/* Where each thread of the process is blocked, from /proc (best effort). */
static void dump_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[300], buf[2048];
		ssize_t n;
		int fd;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stack", e->d_name);
		fd = open(path, O_RDONLY);
		n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buf[n] = 0;
			printf("# watchdog: thread %s kernel stack:\n", e->d_name);
			for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
				printf("#   %s\n", l);
		}
	}
	if (d)
		closedir(d);
	fflush(stdout);
}

/*
 * The watchdog is a thread of its own, so that when it fires every other
 * thread, the stuck one included, is still where it was blocked.
 */
static atomic_uint phase_gen;

static void *watchdog_thread(void *arg)
{
	unsigned int last = atomic_load(&phase_gen), idle = 0;

	(void)arg;
	for (;;) {
		unsigned int g;

		sleep(1);
		g = atomic_load(&phase_gen);
		if (g != last) {
			last = g;
			idle = 0;
			continue;
		}
		if (++idle < watchdog_secs)
			continue;
		printf("# FAIL: watchdog: no progress in '%s' for %u s\n",
		       phase, watchdog_secs);
		dump_tasks();
		_exit(1);
	}
	return NULL;
}

void hsat_watchdog(unsigned int secs)
{
	const char *cap = getenv("HSAT_WATCHDOG_MAX");
	pthread_t t;

	/* a harness with a timeout of its own fires the watchdog first */
	if (cap && atoi(cap) > 0 && (unsigned int)atoi(cap) < secs)
		secs = atoi(cap);
	watchdog_secs = secs;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pthread_create(&t, NULL, watchdog_thread, NULL) == 0)
		pthread_detach(t);
}

void hsat_phase(const char *what)
{
	phase = what;
	atomic_fetch_add(&phase_gen, 1);
}

/* The queues' shared event (0: none seen yet), and the kicker's state */
static uint32_t queue_event_id;
static atomic_int kicking;

static void *kicker_thread(void *arg)
{
	HsaEvent ev;

	(void)arg;
	memset(&ev, 0, sizeof(ev));
	ev.EventId = queue_event_id;
	ev.EventData.EventType = HSA_EVENTTYPE_SIGNAL;
	while (atomic_load(&kicking)) {
		hsaKmtSetEvent(&ev);    /* EINVAL once ROCr destroyed it */
		usleep(50 * 1000);
	}
	return NULL;
}

static bool kicker_start(pthread_t *t)
{
	if (!queue_event_id)
		return false;
	atomic_store(&kicking, 1);
	return pthread_create(t, NULL, kicker_thread, NULL) == 0;
}

static void kicker_stop(pthread_t t, bool started)
{
	atomic_store(&kicking, 0);
	if (started)
		pthread_join(t, NULL);
}

/* ROCr's hsa_queue_t is the head of its amd_queue_t: the shared event */
static void learn_queue_event(const hsa_queue_t *q)
{
	const amd_queue_t *aq = (const amd_queue_t *)q;
	const amd_signal_t *is;

	if (q && aq->queue_inactive_signal.handle) {
		is = (const amd_signal_t *)(uintptr_t)aq->queue_inactive_signal.handle;
		if (is->event_id)
			queue_event_id = is->event_id;
	}
}

hsa_status_t hsat_queue_destroy(hsa_queue_t *q)
{
	hsa_status_t st;
	pthread_t t;
	bool on;

	learn_queue_event(q);
	on = kicker_start(&t);
	st = hsa_queue_destroy(q);
	kicker_stop(t, on);
	return st;
}

hsa_status_t hsat_shut_down(void)
{
	hsa_status_t st;
	pthread_t t;
	bool on = kicker_start(&t);

	/* ROCr's own queues go now, the same way */
	st = hsa_shut_down();
	kicker_stop(t, on);
	return st;
}

int hsat_need_kfd(void)
{
	if (access("/dev/kfd", R_OK | W_OK) == 0)
		return 0;
	gt_failures++;
	printf("# FAIL: no /dev/kfd (%s): boot with hsagpu_test.kfd=1 "
	       "(scripts/test-boot --kfd)\n", strerror(errno));
	return -1;
}

void *hsat_read_file(const char *argv0, const char *name, size_t *len)
{
	char path[512], self[256];
	struct stat st;
	void *buf;
	int fd;

	snprintf(self, sizeof(self), "%s", argv0);
	snprintf(path, sizeof(path), "%s/%s", dirname(self), name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		CHECK(0, "cannot open %s", path);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(st.st_size);
	*len = st.st_size;
	if (!buf || gt_read_full(fd, buf, *len, 1000)) {
		CHECK(0, "cannot read %s", path);
		free(buf);
		buf = NULL;
	}
	close(fd);
	return buf;
}

int hsat_code_load(struct hsat_gpu *g, const void *co, size_t len,
		   struct hsat_code *c)
{
	hsa_profile_t profile;

	if (HSAT_CHECK(hsa_agent_get_info(g->agent, HSA_AGENT_INFO_PROFILE, &profile)) ||
	    HSAT_CHECK(hsa_code_object_reader_create_from_memory(co, len, &c->reader)))
		return -1;
	if (HSAT_CHECK(hsa_executable_create_alt(profile,
			HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &c->exe))) {
		hsa_code_object_reader_destroy(c->reader);
		return -1;
	}
	if (HSAT_CHECK(hsa_executable_load_agent_code_object(c->exe, g->agent, c->reader,
							       NULL, NULL)) ||
	    HSAT_CHECK(hsa_executable_freeze(c->exe, NULL))) {
		hsat_code_free(c);
		return -1;
	}
	return 0;
}

void hsat_code_free(struct hsat_code *c)
{
	hsa_executable_destroy(c->exe);
	hsa_code_object_reader_destroy(c->reader);
}

uint64_t hsat_code_kernel(struct hsat_gpu *g, struct hsat_code *c,
			  const char *symbol, uint32_t *kasize)
{
	hsa_executable_symbol_t sym;
	uint64_t kobj = 0;

	if (HSAT_CHECK(hsa_executable_get_symbol_by_name(c->exe, symbol, &g->agent, &sym)) ||
	    HSAT_CHECK(hsa_executable_symbol_get_info(sym,
			HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj)))
		return 0;
	if (kasize)
		HSAT_CHECK(hsa_executable_symbol_get_info(sym,
			HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, kasize));
	CHECK(kobj != 0, "%s: %s has no kernel object", g->pci, symbol);
	return kobj;
}

int64_t hsat_sysfs(const char *pci, const char *name)
{
	char file[96];
	uint64_t v;

	snprintf(file, sizeof(file), "hsagpu/%s", name);
	if (!gt_sysfs_u64(pci, file, &v))
		return (int64_t)v;
	/* bound to Linux's amdgpu: its own attribute, where it has one */
	if (!strcmp(name, "vram_size") &&
	    !gt_sysfs_u64(pci, "mem_info_vram_total", &v))
		return (int64_t)v;
	return -1;
}

/* A number in a sysfs file (the first one), -1 if unreadable */
static int64_t hsat_read_num(const char *path)
{
	FILE *f = fopen(path, "r");
	long long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Linux's amdkfd: the gpu_id of the topology node at @pci, 0 if none */
static uint32_t hsat_kfd_gpu_id(const char *pci)
{
	unsigned int dom, bus, dev, fn;
	unsigned long long val;
	char path[96], key[64];

	if (sscanf(pci, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return 0;
	for (int n = 0; n < 64; n++) {
		FILE *f;
		int match = 0;

		snprintf(path, sizeof(path),
			 "/sys/class/kfd/kfd/topology/nodes/%d/properties", n);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fscanf(f, "%63s %llu", key, &val) == 2)
			match |= !strcmp(key, "location_id") &&
				 val == (bus << 8 | dev << 3 | fn);
		fclose(f);
		if (match) {
			snprintf(path, sizeof(path),
				 "/sys/class/kfd/kfd/topology/nodes/%d/gpu_id", n);
			return (uint32_t)hsat_read_num(path);
		}
	}
	return 0;
}

/*
 * Linux's amdkfd (a GPU that is not hsagpu's): this process's queues on
 * @pci as amdkfd lists them (proc/PID/queues/N: type 0 compute, 1 and 4
 * SDMA), and its SDMA activity (proc/PID/sdma_GPUID: the SDMA queues'
 * read pointers, in hundreds of bytes) as "retired"
 */
static int hsat_engines_amdkfd(const char *pci, struct hsat_engines *e)
{
	uint32_t gpu_id = hsat_kfd_gpu_id(pci);
	char path[128];
	glob_t g;

	if (!gpu_id)
		return -1;
	snprintf(path, sizeof(path), "/sys/class/kfd/kfd/proc/%d/queues/*",
		 (int)getpid());
	if (glob(path, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			int64_t type, id;

			snprintf(path, sizeof(path), "%s/gpuid", g.gl_pathv[i]);
			id = hsat_read_num(path);
			snprintf(path, sizeof(path), "%s/type", g.gl_pathv[i]);
			type = hsat_read_num(path);
			if (id != gpu_id)
				continue;
			if (type == 0)
				e->aql++;
			else if (type == 1 || type == 4)
				e->sdma++;
		}
		globfree(&g);
	}
	snprintf(path, sizeof(path), "/sys/class/kfd/kfd/proc/%d/sdma_%u",
		 (int)getpid(), gpu_id);
	e->sdma_retired = hsat_read_num(path) > 0 ? hsat_read_num(path) : 0;
	return 0;
}

int hsat_engines(const char *pci, struct hsat_engines *e)
{
	int64_t nq = hsat_sysfs(pci, "num_queues");
	size_t len = 0;
	volatile uint32_t *regs;

	memset(e, 0, sizeof(*e));
	if (nq < 0)
		return hsat_engines_amdkfd(pci, e);
	regs = gt_map_resource(pci, 5, &len);
	if (!regs || nq <= 0)
		return -1;
	for (int64_t q = 0; q < nq; q++) {
		size_t off = HSAGPU_REG_QUEUE(q);
		uint32_t state, flags;

		if (off + HSAGPU_QUEUE_REG_STRIDE > len)
			break;
		state = regs[(off + HSAGPU_QREG_STATE) / 4];
		if ((state & HSAGPU_QSTATE_MASK) != HSAGPU_QSTATE_ACTIVE)
			continue;
		flags = regs[(off + HSAGPU_QREG_FLAGS) / 4];
		if (flags & HSAGPU_QF_SDMA) {
			e->sdma++;
			e->sdma_retired += regs[(off + HSAGPU_QREG_RETIRED) / 4];
		} else if (flags & HSAGPU_QF_AMD_QUEUE) {
			e->aql++;
		}
	}
	munmap((void *)regs, len);
	return 0;
}

/*
 * The GPUs ROCr should see: hsa-gpus bound to the KFD facade (hsagpu),
 * or the Vega10 personality bound to Linux's own amdgpu (its amdkfd)
 */
int hsat_count_devices(char names[GT_MAX_DEVS][16])
{
	char all[GT_MAX_DEVS][16];
	int n, k = 0;

	gt_find_vega10 = 1;
	n = gt_find_devices(all);
	gt_find_vega10 = 0;

	for (int i = 0; i < n; i++) {
		char link[300], target[256];
		ssize_t r;

		snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s/driver", all[i]);
		r = readlink(link, target, sizeof(target) - 1);
		if (r <= 0)
			continue;
		target[r] = 0;
		{
			const char *drv = strrchr(target, '/') ?
					  strrchr(target, '/') + 1 : target;

			if (strcmp(drv, "hsagpu") && strcmp(drv, "amdgpu"))
				continue;
		}
		strcpy(names[k++], all[i]);
	}
	return k;
}

static uint32_t pci_bdfid(const char *pci)
{
	unsigned int dom, bus, dev, fn;

	if (sscanf(pci, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return UINT32_MAX;
	return (bus << 8) | (dev << 3) | fn;
}

struct pool_walk {
	struct hsat *h;
	struct hsat_gpu *g;         /* NULL: the CPU agent's pools */
};

static hsa_status_t on_pool(hsa_amd_memory_pool_t pool, void *data)
{
	struct pool_walk *w = data;
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false;
	size_t size = 0;

	if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg) ||
	    seg != HSA_AMD_SEGMENT_GLOBAL)
		return HSA_STATUS_SUCCESS;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
				     &alloc);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
	if (!alloc)
		return HSA_STATUS_SUCCESS;
	if (!w->g) {
		if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !w->h->has_kernarg) {
			w->h->kernarg = pool;
			w->h->has_kernarg = 1;
		}
		if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !w->h->has_sys) {
			w->h->sys = pool;
			w->h->has_sys = 1;
		}
	} else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !w->g->has_vram) {
		w->g->vram = pool;
		w->g->vram_pool_size = size;
		w->g->has_vram = 1;
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_agent(hsa_agent_t agent, void *data)
{
	struct hsat *h = data;
	hsa_device_type_t type;
	struct pool_walk w = { .h = h };

	if (HSAT_CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type)))
		return HSA_STATUS_SUCCESS;
	if (type == HSA_DEVICE_TYPE_CPU) {
		if (h->ncpu++ == 0)
			h->cpu = agent;
		else
			return HSA_STATUS_SUCCESS;
	} else if (type == HSA_DEVICE_TYPE_GPU) {
		if (h->ngpu == HSAT_MAX_GPUS)
			return HSA_STATUS_SUCCESS;
		w.g = &h->gpu[h->ngpu++];
		w.g->agent = agent;
		HSAT_CHECK(hsa_agent_get_info(agent,
			   (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &w.g->bdfid));
	} else {
		return HSA_STATUS_SUCCESS;
	}
	HSAT_CHECK(hsa_amd_agent_iterate_memory_pools(agent, on_pool, &w));
	return HSA_STATUS_SUCCESS;
}

int hsat_init(struct hsat *h)
{
	char devs[GT_MAX_DEVS][16];
	int ndev;

	memset(h, 0, sizeof(*h));
	cur = h;
	if (hsat_need_kfd())
		return -1;
	hsat_phase("hsa_init");
	if (HSAT_CHECK(hsa_init()))
		return -1;
	hsat_phase("agent discovery");
	HSAT_CHECK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &h->ts_freq));
	if (HSAT_CHECK(hsa_iterate_agents(on_agent, h)))
		return -1;
	CHECK(h->ncpu >= 1, "no CPU agent");
	CHECK(h->has_sys, "the CPU agent has no fine-grained GLOBAL pool");
	CHECK(h->has_kernarg, "the CPU agent has no KERNARG_INIT pool");
	ndev = hsat_count_devices(devs);
	CHECK(h->ngpu == ndev, "%d GPU agents for %d GPUs bound to hsagpu or amdgpu", h->ngpu, ndev);
	for (int i = 0; i < h->ngpu; i++) {
		struct hsat_gpu *g = &h->gpu[i];

		for (int j = 0; j < ndev; j++)
			if (pci_bdfid(devs[j]) == g->bdfid)
				strcpy(g->pci, devs[j]);
		CHECK(g->pci[0], "GPU agent %d: BDFID 0x%x is no hsa-gpu", i, g->bdfid);
		CHECK(g->has_vram, "GPU agent %d has no coarse-grained GLOBAL pool", i);
		DIAG("GPU agent %d: %s, VRAM pool %llu bytes", i, g->pci[0] ? g->pci : "?",
		     (unsigned long long)g->vram_pool_size);
	}
	if (gt_failures || h->ngpu == 0 || h->ncpu == 0) {
		if (!h->ngpu) {
			gt_failures++;
			printf("# FAIL: no GPU agent\n");
		}
		return -1;
	}
	return 0;
}

int hsat_wait_below(hsa_signal_t s, hsa_signal_value_t below, unsigned int ms,
		    hsa_wait_state_t ws, hsa_signal_value_t *last)
{
	struct timespec t0, t;
	hsa_signal_value_t v;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		/* the timeout is a hint (ROCr may return early or late): loop */
		v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, below,
					      50 * 1000 * 1000ULL, ws);
		if (v < below)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= ms)
			break;
	}
	if (last)
		*last = v;
	return -1;
}

void *hsat_alloc(hsa_amd_memory_pool_t pool, size_t size)
{
	void *p = NULL;

	if (HSAT_CHECK(hsa_amd_memory_pool_allocate(pool, size, 0, &p)))
		return NULL;
	/*
	 * hsa_amd_memory_pool_allocate() gives system memory to the CPU only
	 * (unlike hsa_memory_allocate()): the GPUs get it, kernel arguments
	 * included, with hsa_amd_agents_allow_access(), as in AMD's samples.
	 */
	if (cur && ((cur->has_sys && pool.handle == cur->sys.handle) ||
		    (cur->has_kernarg && pool.handle == cur->kernarg.handle))) {
		hsa_agent_t agents[HSAT_MAX_GPUS];

		for (int i = 0; i < cur->ngpu; i++)
			agents[i] = cur->gpu[i].agent;
		if (HSAT_CHECK(hsa_amd_agents_allow_access(cur->ngpu, agents, NULL, p))) {
			hsa_amd_memory_pool_free(p);
			return NULL;
		}
	}
	return p;
}

void *hsat_kernarg(struct hsat *h, const void *args, size_t size)
{
	void *p = hsat_alloc(h->kernarg, size < 64 ? 64 : size);

	if (p)
		memcpy(p, args, size);
	return p;
}

uint16_t hsat_header(hsa_packet_type_t type, int barrier)
{
	return type << HSA_PACKET_HEADER_TYPE |
	       (barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER |
	       HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
	       HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
}

void hsat_dispatch_pkt(hsa_kernel_dispatch_packet_t *p, uint64_t kernel_object,
		       void *kernarg, uint32_t grid, uint16_t wg,
		       hsa_signal_t completion)
{
	memset(p, 0, sizeof(*p));
	p->header = hsat_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, 1);
	p->setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
	p->workgroup_size_x = wg;
	p->workgroup_size_y = 1;
	p->workgroup_size_z = 1;
	p->grid_size_x = grid;
	p->grid_size_y = 1;
	p->grid_size_z = 1;
	p->kernel_object = kernel_object;
	p->kernarg_address = kernarg;
	p->completion_signal = completion;
}

uint64_t hsat_submit(hsa_queue_t *q, const void *pkt)
{
	uint64_t idx = hsa_queue_add_write_index_scacq_screl(q, 1);
	uint8_t *slot = (uint8_t *)q->base_address + (idx % q->size) * 64;
	struct timespec t0, t;
	uint16_t header;

	learn_queue_event(q);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 20) {
			gt_failures++;
			printf("# FAIL: queue %llu: ring full for 20 s (read index %llu, "
			       "slot %llu)\n", (unsigned long long)q->id,
			       (unsigned long long)hsa_queue_load_read_index_scacquire(q),
			       (unsigned long long)idx);
			return UINT64_MAX;
		}
		sched_yield();
	}
	memcpy(&header, pkt, 2);
	/* the body first, then the header (it makes the packet valid) */
	memcpy(slot + 2, (const uint8_t *)pkt + 2, 62);
	atomic_thread_fence(memory_order_release);
	__atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, idx);
	return idx;
}
