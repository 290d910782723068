// SPDX-License-Identifier: MIT
/*
 * libhsagpu agents and memory: one open file of /dev/hsagpuN per agent
 * and a table of its mapped allocations and registered user memory.
 * With GPU virtual memory (the default) the device uses CPU pointers
 * and the table only tells allocations from registrations and finds
 * peers' VRAM; without it (hsagpu.ko vm=0) it turns any CPU pointer
 * inside an allocation into the bus address the device needs: large
 * system allocations may be several device-contiguous segments, and an
 * agent's enabled peers make their VRAM allocations addressable too.
 *
 * Lock order: rt_agents_lock (the registry of open agents and every
 * agent's peer list), then one agent's lock at a time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hsagpu_rt_priv.h"

static pthread_rwlock_t rt_agents_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct hsagpu_agent *rt_agents;

int rt_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}

uint64_t rt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Agents --------------------------------------------------------------- */

static bool is_dev_name(const char *name)
{
	const char *p;

	if (strncmp(name, "hsagpu", 6) || !name[6])
		return false;
	for (p = name + 6; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

int hsagpu_agent_count(void)
{
	struct dirent *de;
	DIR *dir;
	int n = 0;

	dir = opendir("/dev");
	if (!dir)
		return -errno;
	while ((de = readdir(dir)))
		if (is_dev_name(de->d_name))
			n++;
	closedir(dir);
	return n;
}

int hsagpu_agent_open(int index, hsagpu_agent_t **agent)
{
	struct hsagpu_agent *a;
	char path[32];
	int ret;

	if (index < 0 || !agent)
		return -EINVAL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/dev/hsagpu%d", index);
	a->fd = open(path, O_RDWR | O_CLOEXEC);
	if (a->fd < 0) {
		ret = -errno;
		free(a);
		return ret;
	}
	a->index = index;
	a->info.size = sizeof(a->info);
	ret = rt_ioctl(a->fd, HSAGPU_IOC_GET_INFO, &a->info);
	if (!ret && a->info.abi_version >> 16 != HSAGPU_ABI_MAJOR)
		ret = -ENODEV;
	a->vm = a->info.vm_flags & HSAGPU_VM_INFO_ENABLED;
	if (!ret)
		ret = -pthread_mutex_init(&a->lock, NULL);
	if (ret) {
		close(a->fd);
		free(a);
		return ret;
	}
	pthread_rwlock_wrlock(&rt_agents_lock);
	a->next = rt_agents;
	rt_agents = a;
	pthread_rwlock_unlock(&rt_agents_lock);
	/* GPU VM: other agents' signals become reachable for this one */
	if (a->vm)
		rt_signals_share(a);
	*agent = a;
	return 0;
}

/* Forget @agent as an agent and as anybody's peer. */
static void agent_unregister(hsagpu_agent_t *agent)
{
	struct hsagpu_agent **pp, *a;
	size_t i;

	pthread_rwlock_wrlock(&rt_agents_lock);
	for (pp = &rt_agents; *pp; pp = &(*pp)->next) {
		if (*pp == agent) {
			*pp = agent->next;
			break;
		}
	}
	for (a = rt_agents; a; a = a->next) {
		for (i = 0; i < a->npeers; i++) {
			if (a->peers[i].peer == agent) {
				a->peers[i] = a->peers[--a->npeers];
				break;
			}
		}
	}
	free(agent->peers);
	agent->peers = NULL;
	agent->npeers = 0;
	pthread_rwlock_unlock(&rt_agents_lock);
}

int hsagpu_agent_enable_peer(hsagpu_agent_t *agent, hsagpu_agent_t *peer,
			     uint32_t *flags)
{
	struct hsagpu_peer_access pa = { .size = sizeof(pa) };
	struct rt_peer *n;
	size_t i;
	int ret;

	if (!agent || !peer || agent == peer)
		return -EINVAL;
	pa.peer_fd = peer->fd;
	ret = rt_ioctl(agent->fd, HSAGPU_IOC_PEER_ACCESS, &pa);
	if (ret)
		return ret;

	pthread_rwlock_wrlock(&rt_agents_lock);
	for (i = 0; i < agent->npeers && agent->peers[i].peer != peer; i++)
		;
	if (i == agent->npeers) {
		n = realloc(agent->peers, (i + 1) * sizeof(*n));
		if (!n) {
			pthread_rwlock_unlock(&rt_agents_lock);
			return -ENOMEM;
		}
		agent->peers = n;
		agent->npeers++;
	}
	agent->peers[i].peer = peer;
	agent->peers[i].vram_addr = pa.vram_addr;
	agent->peers[i].flags = pa.flags;
	pthread_rwlock_unlock(&rt_agents_lock);
	if (flags)
		*flags = pa.flags;
	return 0;
}

void hsagpu_agent_close(hsagpu_agent_t *agent)
{
	struct hsagpu_free_mem fm = { .size = sizeof(fm) };
	size_t i;

	if (!agent)
		return;
	agent_unregister(agent);
	/* Queues first: once destroyed the device no longer touches memory. */
	rt_queues_release(agent);
	rt_signals_release(agent);
	for (i = 0; i < agent->nmem; i++) {
		if (!agent->mem[i].registered)
			munmap(agent->mem[i].cpu, agent->mem[i].size);
		if (agent->mem[i].cached)
			munmap(agent->mem[i].cached, agent->mem[i].size);
		fm.handle = agent->mem[i].handle;
		rt_ioctl(agent->fd, HSAGPU_IOC_FREE_MEM, &fm);
		free(agent->mem[i].segs);
	}
	free(agent->mem);
	if (agent->doorbell_page)
		munmap(agent->doorbell_page, RT_DOORBELL_PAGE);
	close(agent->fd);
	pthread_mutex_destroy(&agent->lock);
	free(agent);
}

const struct hsagpu_device_info *hsagpu_agent_info(hsagpu_agent_t *agent)
{
	return agent ? &agent->info : NULL;
}

int hsagpu_agent_fd(hsagpu_agent_t *agent)
{
	return agent ? agent->fd : -EINVAL;
}

/* Memory --------------------------------------------------------------- */

/* Index of the first entry whose cpu address is above @p; lock held. */
static size_t mem_upper(hsagpu_agent_t *a, const void *p)
{
	size_t lo = 0, hi = a->nmem;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)a->mem[mid].cpu <= (uintptr_t)p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Entry containing @p, or NULL; lock held. */
static struct rt_mem *mem_find(hsagpu_agent_t *a, const void *p)
{
	size_t i = mem_upper(a, p);
	struct rt_mem *m;

	if (!i)
		return NULL;
	m = &a->mem[i - 1];
	if ((uintptr_t)p - (uintptr_t)m->cpu >= m->size)
		return NULL;
	return m;
}

int rt_mem_lookup(hsagpu_agent_t *agent, const void *p, struct rt_mem *out)
{
	struct rt_mem *m;

	pthread_mutex_lock(&agent->lock);
	m = mem_find(agent, p);
	if (m)
		*out = *m;
	pthread_mutex_unlock(&agent->lock);
	return m ? 0 : -EINVAL;
}

int rt_mem_set_cached(hsagpu_agent_t *agent, void *cpu, void *cached)
{
	struct rt_mem *m;
	int ret = -EINVAL;

	pthread_mutex_lock(&agent->lock);
	m = mem_find(agent, cpu);
	if (m && m->cpu == cpu) {
		ret = m->cached ? -EEXIST : 0;
		if (!ret)
			m->cached = cached;
	}
	pthread_mutex_unlock(&agent->lock);
	return ret;
}

static int mem_insert(hsagpu_agent_t *a, const struct rt_mem *m)
{
	size_t i;

	if (a->nmem == a->mem_cap) {
		size_t cap = a->mem_cap ? a->mem_cap * 2 : 16;
		struct rt_mem *n = realloc(a->mem, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		a->mem = n;
		a->mem_cap = cap;
	}
	i = mem_upper(a, m->cpu);
	memmove(&a->mem[i + 1], &a->mem[i], (a->nmem - i) * sizeof(*m));
	a->mem[i] = *m;
	a->nmem++;
	return 0;
}

/* The segments of a system allocation made of several. */
static int mem_get_segments(hsagpu_agent_t *agent, struct rt_mem *m,
			    uint32_t nsegs)
{
	struct hsagpu_mem_segments ms = { .size = sizeof(ms) };
	struct hsagpu_mem_segment *raw;
	uint64_t off = 0;
	uint32_t i;
	int ret;

	raw = calloc(nsegs, sizeof(*raw));
	m->segs = calloc(nsegs, sizeof(*m->segs));
	if (!raw || !m->segs) {
		ret = -ENOMEM;
		goto out;
	}
	ms.handle = m->handle;
	ms.segs_ptr = (uintptr_t)raw;
	ms.count = nsegs;
	ret = rt_ioctl(agent->fd, HSAGPU_IOC_MEM_SEGMENTS, &ms);
	if (!ret && ms.count != nsegs)
		ret = -EPROTO;
	for (i = 0; !ret && i < nsegs; i++) {
		m->segs[i].off = off;
		m->segs[i].bus = raw[i].bus_addr;
		m->segs[i].bytes = raw[i].bytes;
		off += raw[i].bytes;
	}
	if (!ret && (off < m->size || m->segs[0].bus != m->bus))
		ret = -EPROTO;
	m->nsegs = nsegs;
out:
	free(raw);
	if (ret) {
		free(m->segs);
		m->segs = NULL;
	}
	return ret;
}

/*
 * GPU VM: map @size bytes of @fd at a 2 MiB aligned address. The device
 * address is the mapping's, and the driver can only use its 2 MiB pages
 * (one translation for 2 MiB) where the address is aligned like the
 * memory behind it: a reservation one large page longer, the allocation
 * mapped over its aligned part, the rest given back.
 */
static void *map_aligned(int fd, size_t size, uint64_t off)
{
	size_t span = size + RT_BIG_PAGE;
	uintptr_t r, a;
	void *p;

	p = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return p;
	r = (uintptr_t)p;
	a = (r + RT_BIG_PAGE - 1) & ~(uintptr_t)(RT_BIG_PAGE - 1);
	p = mmap((void *)a, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, (off_t)off);
	if (p == MAP_FAILED) {
		munmap((void *)r, span);
		return p;
	}
	if (a > r)
		munmap((void *)r, a - r);
	if (r + span > a + size)
		munmap((void *)(a + size), r + span - (a + size));
	return p;
}

int rt_mem_alloc(hsagpu_agent_t *agent, size_t size, uint32_t flags,
		 bool internal, void **ptr, uint64_t *bus)
{
	struct hsagpu_alloc_mem am = { .size = sizeof(am) };
	struct hsagpu_free_mem fm = { .size = sizeof(fm) };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct rt_mem m = { 0 };
	void *p;
	int ret;

	if (!agent || !ptr || !size || size > SIZE_MAX - page)
		return -EINVAL;
	am.flags = flags;
	am.bytes = size;
	ret = rt_ioctl(agent->fd, HSAGPU_IOC_ALLOC_MEM, &am);
	if (ret)
		return ret;
	fm.handle = am.handle;

	m.size = (size + page - 1) & ~(page - 1);
	m.bus = am.bus_addr;
	m.handle = am.handle;
	m.vram_off = am.vram_offset;
	m.mmap_offset = am.mmap_offset;
	m.internal = internal;
	m.flags = flags;
	m.nsegs = 1;
	/* With GPU VM an allocation is one range at its mapping address. */
	if (am.nsegs > 1 && !agent->vm) {
		ret = mem_get_segments(agent, &m, am.nsegs);
		if (ret) {
			rt_ioctl(agent->fd, HSAGPU_IOC_FREE_MEM, &fm);
			return ret;
		}
	}
	p = agent->vm && m.size >= RT_BIG_PAGE ?
	    map_aligned(agent->fd, m.size, am.mmap_offset) :
	    mmap(NULL, m.size, PROT_READ | PROT_WRITE, MAP_SHARED, agent->fd,
		 (off_t)am.mmap_offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		rt_ioctl(agent->fd, HSAGPU_IOC_FREE_MEM, &fm);
		free(m.segs);
		return ret;
	}
	m.cpu = p;
	if (agent->vm)
		m.bus = (uintptr_t)p;
	else if (flags & HSAGPU_MEM_VRAM)
		m.vram_off = m.bus - agent->info.vram_bus_addr;

	pthread_mutex_lock(&agent->lock);
	ret = mem_insert(agent, &m);
	pthread_mutex_unlock(&agent->lock);
	if (ret) {
		munmap(p, m.size);
		rt_ioctl(agent->fd, HSAGPU_IOC_FREE_MEM, &fm);
		free(m.segs);
		return ret;
	}
	*ptr = p;
	if (bus)
		*bus = m.bus;
	return 0;
}

int rt_mem_free(hsagpu_agent_t *agent, void *ptr, bool internal)
{
	struct hsagpu_free_mem fm = { .size = sizeof(fm) };
	struct rt_mem *e, m;

	if (!agent || !ptr)
		return -EINVAL;
	pthread_mutex_lock(&agent->lock);
	e = mem_find(agent, ptr);
	if (!e || e->cpu != ptr) {
		pthread_mutex_unlock(&agent->lock);
		return -EINVAL;
	}
	if (e->registered) {
		pthread_mutex_unlock(&agent->lock);
		return -EINVAL;
	}
	if (e->internal != internal) {
		/* Users may not free a ring or signal pool under the runtime. */
		pthread_mutex_unlock(&agent->lock);
		return -EBUSY;
	}
	m = *e;
	memmove(e, e + 1, (size_t)(&agent->mem[agent->nmem] - (e + 1)) *
		sizeof(*e));
	agent->nmem--;
	pthread_mutex_unlock(&agent->lock);

	munmap(m.cpu, m.size);
	if (m.cached)
		munmap(m.cached, m.size);
	free(m.segs);
	fm.handle = m.handle;
	return rt_ioctl(agent->fd, HSAGPU_IOC_FREE_MEM, &fm);
}

int hsagpu_memory_allocate(hsagpu_agent_t *agent, size_t size,
			   uint32_t flags, void **ptr)
{
	return rt_mem_alloc(agent, size, flags, false, ptr, NULL);
}

int hsagpu_memory_free(hsagpu_agent_t *agent, void *ptr)
{
	return rt_mem_free(agent, ptr, false);
}

int rt_mem_register(hsagpu_agent_t *agent, void *ptr, size_t size,
		    uint32_t flags, bool internal)
{
	struct hsagpu_register_mem rm = { .size = sizeof(rm) };
	struct hsagpu_free_mem fm = { .size = sizeof(fm) };
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start, end;
	struct rt_mem m = { 0 };
	int ret;

	if (!agent || !ptr || !size || (flags & ~HSAGPU_REGISTER_FLAGS_ALL) ||
	    (uintptr_t)ptr + size < (uintptr_t)ptr ||
	    (uintptr_t)ptr + size > UINTPTR_MAX - page)
		return -EINVAL;
	/* The driver maps whole pages; the table holds what it mapped. */
	start = (uintptr_t)ptr & ~(page - 1);
	end = ((uintptr_t)ptr + size + page - 1) & ~(page - 1);
	rm.flags = flags;
	rm.addr = (uintptr_t)ptr;
	rm.bytes = size;
	ret = rt_ioctl(agent->fd, HSAGPU_IOC_REGISTER_MEM, &rm);
	if (ret)
		return ret == -ENOTTY ? -EOPNOTSUPP : ret;
	m.cpu = (void *)start;
	m.size = end - start;
	m.bus = start;
	m.handle = rm.handle;
	m.user = ptr;
	m.registered = true;
	m.internal = internal;
	m.flags = HSAGPU_MEM_SYSTEM;
	m.nsegs = 1;
	pthread_mutex_lock(&agent->lock);
	/*
	 * The driver refuses overlaps with live mappings; one left in the
	 * table was unmapped by the process and not unregistered yet.
	 */
	if (mem_find(agent, m.cpu) ||
	    mem_upper(agent, m.cpu) != mem_upper(agent, (char *)end - 1))
		ret = -EBUSY;
	else
		ret = mem_insert(agent, &m);
	pthread_mutex_unlock(&agent->lock);
	if (ret) {
		fm.handle = rm.handle;
		rt_ioctl(agent->fd, HSAGPU_IOC_FREE_MEM, &fm);
	}
	return ret;
}

int hsagpu_memory_register(hsagpu_agent_t *agent, void *ptr, size_t size,
			   uint32_t flags)
{
	return rt_mem_register(agent, ptr, size, flags, false);
}

int rt_mem_unregister(hsagpu_agent_t *agent, void *ptr, bool internal)
{
	struct hsagpu_free_mem fm = { .size = sizeof(fm) };
	struct rt_mem *e;

	if (!agent || !ptr)
		return -EINVAL;
	pthread_mutex_lock(&agent->lock);
	e = mem_find(agent, ptr);
	if (!e || !e->registered || e->user != ptr) {
		pthread_mutex_unlock(&agent->lock);
		return -EINVAL;
	}
	if (e->internal != internal) {
		/* the runtime's signal pools are not the user's to take */
		pthread_mutex_unlock(&agent->lock);
		return -EBUSY;
	}
	fm.handle = e->handle;
	memmove(e, e + 1, (size_t)(&agent->mem[agent->nmem] - (e + 1)) *
		sizeof(*e));
	agent->nmem--;
	pthread_mutex_unlock(&agent->lock);
	return rt_ioctl(agent->fd, HSAGPU_IOC_FREE_MEM, &fm);
}

int hsagpu_memory_unregister(hsagpu_agent_t *agent, void *ptr)
{
	return rt_mem_unregister(agent, ptr, false);
}

void rt_agents_each(void (*fn)(hsagpu_agent_t *agent, void *arg), void *arg)
{
	hsagpu_agent_t *a;

	pthread_rwlock_rdlock(&rt_agents_lock);
	for (a = rt_agents; a; a = a->next)
		fn(a, arg);
	pthread_rwlock_unlock(&rt_agents_lock);
}

/*
 * An enabled peer's VRAM: the allocation's offset in the peer's VRAM,
 * in the window PEER_ACCESS gave (a bus address, or with GPU VM a
 * virtual address in the driver aperture).
 */
static int peer_translate(hsagpu_agent_t *agent, const void *p,
			  uint64_t *bus, uint64_t *contig)
{
	const struct rt_peer *pe;
	struct rt_mem *m;
	int ret = -EFAULT;
	size_t i;

	pthread_rwlock_rdlock(&rt_agents_lock);
	for (i = 0; ret && i < agent->npeers; i++) {
		pe = &agent->peers[i];
		pthread_mutex_lock(&pe->peer->lock);
		m = mem_find(pe->peer, p);
		if (m && m->flags == HSAGPU_MEM_VRAM) {
			uint64_t off = (uintptr_t)p - (uintptr_t)m->cpu;

			*bus = pe->vram_addr + m->vram_off + off;
			*contig = m->size - off;
			ret = 0;
		}
		pthread_mutex_unlock(&pe->peer->lock);
	}
	pthread_rwlock_unlock(&rt_agents_lock);
	return ret;
}

/* Translate @p inside @m (own allocation); lock held. */
static void mem_translate(const struct rt_mem *m, const void *p,
			  uint64_t *bus, uint64_t *contig)
{
	uint64_t off = (uintptr_t)p - (uintptr_t)m->cpu;
	size_t lo = 0, hi = m->nsegs;
	const struct rt_seg *s;

	if (m->nsegs <= 1 || !m->segs) {
		*bus = m->bus + off;
		*contig = m->size - off;
		return;
	}
	while (hi - lo > 1) {   /* last segment with s->off <= off */
		size_t mid = lo + (hi - lo) / 2;

		if (m->segs[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	s = &m->segs[lo];
	*bus = s->bus + (off - s->off);
	*contig = s->bytes - (off - s->off);
	if (*contig > m->size - off)
		*contig = m->size - off;
}

int rt_translate(hsagpu_agent_t *agent, const void *p, uint64_t *bus,
		 uint64_t *contig)
{
	struct rt_mem *m;
	int ret = -EFAULT;

	if (!agent || !p)
		return -EFAULT;
	if (agent->vm) {
		if (!peer_translate(agent, p, bus, contig))
			return 0;
		/* Not for us to judge: the device faults on unmapped ones. */
		*bus = (uintptr_t)p;
		*contig = UINT64_MAX - (uintptr_t)p + 1;
		return 0;
	}
	pthread_mutex_lock(&agent->lock);
	m = mem_find(agent, p);
	if (m) {
		mem_translate(m, p, bus, contig);
		ret = 0;
	}
	pthread_mutex_unlock(&agent->lock);
	if (!ret)
		return 0;
	return peer_translate(agent, p, bus, contig);
}

uint64_t hsagpu_addr(hsagpu_agent_t *agent, const void *ptr)
{
	uint64_t bus, contig;

	return rt_translate(agent, ptr, &bus, &contig) ? 0 : bus;
}
