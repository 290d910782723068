// SPDX-License-Identifier: MIT
/*
 * libhsagpu signals: 64-byte struct hsagpu_signal slots carved out of
 * 4 KiB system-memory pools. A signal is named by its device address
 * only, so a process-wide registry of pools maps handles back to CPU
 * pointers. With GPU virtual memory that address is the CPU pointer and
 * unique; a pool is then ordinary anonymous memory registered with every
 * open agent (REGISTER_MEM), so that any agent's queues can wait on and
 * complete any signal, as HSA's signals are visible to all agents (each
 * file has its own address space, and a device allocation would be in
 * its owner's only). Without it, behind an IOMMU each device has its own I/O
 * address space and two agents can get the same bus address: pools whose
 * addresses another agent's pool already uses are set aside, so handles
 * stay unique.
 */
#include <errno.h>
#include <sys/mman.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "hsagpu_rt_priv.h"

#define POOL_SLOTS      (RT_CHUNK / sizeof(struct hsagpu_signal))
_Static_assert(POOL_SLOTS == 64, "one 64-bit bitmap per pool");

/* Polling before sleeping on the event; a completion is often that close. */
#define SPIN_NS         20000ULL

struct rt_pool {
	struct rt_pool *next;
	hsagpu_agent_t *agent;
	struct hsagpu_signal *cpu;
	uint64_t bus;
	uint64_t used;                  /* bit per slot */
	uint32_t event[POOL_SLOTS];     /* 0: no event attached */
	uint32_t waiters[POOL_SLOTS];   /* threads asleep on the event */
	/* GPU VM: anonymous memory, registered with these other agents too */
	bool anon;
	hsagpu_agent_t **shared;
	size_t nshared;
};

/* Lookups (every load and wait) take it shared; create/destroy exclusive. */
static pthread_rwlock_t reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct rt_pool *reg_pools;

/* The pool and slot holding @handle; reg_lock held. */
static struct rt_pool *pool_find(uint64_t handle, unsigned int *slot)
{
	struct rt_pool *p;

	for (p = reg_pools; p; p = p->next) {
		uint64_t off = handle - p->bus;

		if (handle >= p->bus && off < RT_CHUNK) {
			if (off % sizeof(struct hsagpu_signal))
				return NULL;
			*slot = off / sizeof(struct hsagpu_signal);
			return (p->used >> *slot) & 1 ? p : NULL;
		}
	}
	return NULL;
}

struct sig_ref {
	volatile struct hsagpu_signal *sig;
	int fd;
	uint32_t event;
	uint32_t *waiters;
};

static bool sig_get(hsagpu_signal_t s, struct sig_ref *ref)
{
	struct rt_pool *p;
	unsigned int slot;

	pthread_rwlock_rdlock(&reg_lock);
	p = pool_find(s.handle, &slot);
	if (p) {
		ref->sig = &p->cpu[slot];
		ref->fd = p->agent->fd;
		ref->event = p->event[slot];
		ref->waiters = &p->waiters[slot];
	}
	pthread_rwlock_unlock(&reg_lock);
	return p;
}

static void destroy_event(int fd, uint32_t id)
{
	struct hsagpu_event_id ev = { .size = sizeof(ev), .event_id = id };

	if (id)
		rt_ioctl(fd, HSAGPU_IOC_DESTROY_EVENT, &ev);
}

/* Does [bus, bus + RT_CHUNK) name a registered pool? reg_lock held. */
static bool pool_taken(uint64_t bus)
{
	struct rt_pool *p;

	for (p = reg_pools; p; p = p->next)
		if (bus < p->bus + RT_CHUNK && p->bus < bus + RT_CHUNK)
			return true;
	return false;
}

#define POOL_TRIES 16

/* GPU VM: register pool @arg with agent @a too (reg_lock held). */
static void pool_share_one(hsagpu_agent_t *a, void *arg)
{
	struct rt_pool *p = arg;
	hsagpu_agent_t **n;

	if (a == p->agent || !a->vm)
		return;
	n = realloc(p->shared, (p->nshared + 1) * sizeof(*n));
	if (!n)
		return;
	p->shared = n;
	/* a failure leaves that agent unable to reach it: its queues fault */
	if (!rt_mem_register(a, p->cpu, RT_CHUNK, 0, true))
		p->shared[p->nshared++] = a;
}

void rt_signals_share(hsagpu_agent_t *agent)
{
	struct rt_pool *p;

	pthread_rwlock_wrlock(&reg_lock);
	for (p = reg_pools; p; p = p->next)
		if (p->anon)
			pool_share_one(agent, p);
	pthread_rwlock_unlock(&reg_lock);
}

/* GPU VM: a pool of anonymous memory, registered with every agent. */
static int pool_alloc_anon(hsagpu_agent_t *a, struct rt_pool *p)
{
	void *cpu = mmap(NULL, RT_CHUNK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret;

	if (cpu == MAP_FAILED)
		return -errno;
	ret = rt_mem_register(a, cpu, RT_CHUNK, 0, true);
	if (ret) {
		munmap(cpu, RT_CHUNK);
		return ret;
	}
	p->agent = a;
	p->cpu = cpu;
	p->bus = (uintptr_t)cpu;
	p->anon = true;
	rt_agents_each(pool_share_one, p);
	return 0;
}

static void pool_free_mem(struct rt_pool *p)
{
	size_t i;

	if (!p->anon) {
		rt_mem_free(p->agent, p->cpu, true);
		return;
	}
	/* out of every address space before the page can go */
	for (i = 0; i < p->nshared; i++)
		rt_mem_unregister(p->shared[i], p->cpu, true);
	free(p->shared);
	rt_mem_unregister(p->agent, p->cpu, true);
	munmap(p->cpu, RT_CHUNK);
}

/* A pool of @a with a free slot, allocated if needed; reg_lock held. */
static struct rt_pool *pool_get(hsagpu_agent_t *a, int *err)
{
	void *cpu, *aside[POOL_TRIES];
	unsigned int naside = 0;
	struct rt_pool *p;
	int ret;

	for (p = reg_pools; p; p = p->next)
		if (p->agent == a && ~p->used)
			return p;
	p = calloc(1, sizeof(*p));
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	if (a->vm) {
		ret = pool_alloc_anon(a, p);
		if (ret) {
			free(p);
			*err = ret;
			return NULL;
		}
		p->next = reg_pools;
		reg_pools = p;
		return p;
	}
	for (;;) {
		ret = rt_mem_alloc(a, RT_CHUNK, HSAGPU_MEM_SYSTEM, true, &cpu,
				   &p->bus);
		if (ret || !pool_taken(p->bus))
			break;
		if (naside == POOL_TRIES) {
			rt_mem_free(a, cpu, true);
			ret = -EADDRINUSE;
			break;
		}
		/* Hold it, so that the next allocation gets another address. */
		aside[naside++] = cpu;
	}
	while (naside)
		rt_mem_free(a, aside[--naside], true);
	if (ret) {
		free(p);
		*err = ret;
		return NULL;
	}
	p->agent = a;
	p->cpu = cpu;
	p->next = reg_pools;
	reg_pools = p;
	return p;
}

int hsagpu_signal_create(hsagpu_agent_t *agent, int64_t initial_value,
			 hsagpu_signal_t *signal)
{
	struct hsagpu_create_event ce = { .size = sizeof(ce) };
	volatile struct hsagpu_signal *sig;
	struct rt_pool *p;
	unsigned int slot;
	int ret = 0;

	if (!agent || !signal)
		return -EINVAL;
	pthread_rwlock_wrlock(&reg_lock);
	p = pool_get(agent, &ret);
	if (p) {
		slot = __builtin_ctzll(~p->used);
		p->used |= 1ULL << slot;
	}
	pthread_rwlock_unlock(&reg_lock);
	if (!p)
		return ret;

	/*
	 * Out of event slots (512 per file) the signal still works; waits
	 * then poll instead of sleeping on an interrupt.
	 */
	ret = rt_ioctl(agent->fd, HSAGPU_IOC_CREATE_EVENT, &ce);
	if (ret && ret != -ENOSPC && ret != -EMFILE && ret != -EAGAIN) {
		pthread_rwlock_wrlock(&reg_lock);
		p->used &= ~(1ULL << slot);
		pthread_rwlock_unlock(&reg_lock);
		return ret;
	}
	if (ret)
		memset(&ce, 0, sizeof(ce));

	sig = &p->cpu[slot];
	sig->kind = HSAGPU_SIGNAL_KIND_USER;
	sig->event_mailbox_ptr = ce.mailbox_addr;
	sig->event_id = ce.event_id;
	sig->reserved1 = 0;
	sig->start_ts = 0;
	sig->end_ts = 0;
	sig->queue_ptr = 0;
	sig->reserved3 = 0;
	__atomic_store_n(&sig->value, initial_value, __ATOMIC_RELEASE);

	pthread_rwlock_wrlock(&reg_lock);
	p->event[slot] = ce.event_id;
	pthread_rwlock_unlock(&reg_lock);
	signal->handle = p->bus + slot * sizeof(struct hsagpu_signal);
	return 0;
}

int hsagpu_signal_destroy(hsagpu_signal_t signal)
{
	struct rt_pool *p;
	unsigned int slot;
	uint32_t event;
	int fd;

	pthread_rwlock_wrlock(&reg_lock);
	p = pool_find(signal.handle, &slot);
	if (!p) {
		pthread_rwlock_unlock(&reg_lock);
		return -EINVAL;
	}
	event = p->event[slot];
	fd = p->agent->fd;
	p->event[slot] = 0;
	/* No stale mailbox for the slot's next owner. */
	p->cpu[slot].event_mailbox_ptr = 0;
	p->cpu[slot].event_id = 0;
	p->used &= ~(1ULL << slot);
	pthread_rwlock_unlock(&reg_lock);
	destroy_event(fd, event);
	return 0;
}

void rt_signals_release(hsagpu_agent_t *agent)
{
	struct rt_pool **pp, *p;
	unsigned int i;

	pthread_rwlock_wrlock(&reg_lock);
	pp = &reg_pools;
	while ((p = *pp)) {
		if (p->agent != agent) {
			/* its registration with @agent goes with @agent's file */
			for (i = 0; i < p->nshared; i++)
				if (p->shared[i] == agent)
					p->shared[i--] = p->shared[--p->nshared];
			pp = &p->next;
			continue;
		}
		*pp = p->next;
		for (i = 0; i < POOL_SLOTS; i++)
			if ((p->used >> i) & 1)
				destroy_event(agent->fd, p->event[i]);
		pool_free_mem(p);
		free(p);
	}
	pthread_rwlock_unlock(&reg_lock);
}

volatile struct hsagpu_signal *hsagpu_signal_ptr(hsagpu_signal_t signal)
{
	struct sig_ref ref;

	return sig_get(signal, &ref) ? ref.sig : NULL;
}

int64_t hsagpu_signal_load_acquire(hsagpu_signal_t signal)
{
	struct sig_ref ref;

	if (!sig_get(signal, &ref))
		return 0;
	return __atomic_load_n(&ref.sig->value, __ATOMIC_ACQUIRE);
}

int64_t hsagpu_signal_load_relaxed(hsagpu_signal_t signal)
{
	struct sig_ref ref;

	if (!sig_get(signal, &ref))
		return 0;
	return __atomic_load_n(&ref.sig->value, __ATOMIC_RELAXED);
}

/*
 * After a CPU change of the value: wake the threads asleep on the
 * signal's event, as the device's completion would (HSA's interrupt
 * signals do the same). The fence pairs with the one in
 * hsagpu_signal_wait_acquire: either the waiter sees the new value or
 * this sees the waiter, so no wake-up is lost and uncontended stores
 * cost no system call.
 */
static void sig_notify(const struct sig_ref *ref)
{
	struct hsagpu_event_id ev = { .size = sizeof(ev) };

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!ref->event || !__atomic_load_n(ref->waiters, __ATOMIC_RELAXED))
		return;
	ev.event_id = ref->event;
	rt_ioctl(ref->fd, HSAGPU_IOC_SET_EVENT, &ev);
}

void hsagpu_signal_store_release(hsagpu_signal_t signal, int64_t value)
{
	struct sig_ref ref;

	if (sig_get(signal, &ref)) {
		__atomic_store_n(&ref.sig->value, value, __ATOMIC_RELEASE);
		sig_notify(&ref);
	}
}

void hsagpu_signal_store_relaxed(hsagpu_signal_t signal, int64_t value)
{
	struct sig_ref ref;

	if (sig_get(signal, &ref)) {
		__atomic_store_n(&ref.sig->value, value, __ATOMIC_RELAXED);
		sig_notify(&ref);
	}
}

int64_t hsagpu_signal_add_relaxed(hsagpu_signal_t signal, int64_t value)
{
	struct sig_ref ref;
	int64_t old;

	if (!sig_get(signal, &ref))
		return 0;
	old = __atomic_fetch_add(&ref.sig->value, value, __ATOMIC_RELAXED);
	sig_notify(&ref);
	return old;
}

int hsagpu_signal_timestamps(hsagpu_signal_t signal, uint64_t *start,
			     uint64_t *end)
{
	struct sig_ref ref;

	if (!sig_get(signal, &ref))
		return -EINVAL;
	if (start)
		*start = __atomic_load_n(&ref.sig->start_ts, __ATOMIC_ACQUIRE);
	if (end)
		*end = __atomic_load_n(&ref.sig->end_ts, __ATOMIC_ACQUIRE);
	return 0;
}

static bool satisfied(int64_t v, hsagpu_signal_condition_t cond, int64_t cmp)
{
	switch (cond) {
	case HSAGPU_SIGNAL_CONDITION_EQ:
		return v == cmp;
	case HSAGPU_SIGNAL_CONDITION_NE:
		return v != cmp;
	case HSAGPU_SIGNAL_CONDITION_LT:
		return v < cmp;
	case HSAGPU_SIGNAL_CONDITION_GTE:
		return v >= cmp;
	}
	return true;    /* unknown condition: nothing to wait for */
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ULL,
		.tv_nsec = ns % 1000000000ULL,
	};

	nanosleep(&ts, NULL);
}

/*
 * Sleep on the signal's event for at most @ns (UINT64_MAX: no limit) or
 * until its age moves past *@age (0: take the age, do not sleep); false
 * if the driver cannot do that.
 */
static bool sleep_on_event(const struct sig_ref *ref, uint64_t ns,
			   uint64_t *age)
{
	uint32_t id = ref->event;
	struct hsagpu_wait_events we = {
		.size = sizeof(we),
		.events_ptr = (uintptr_t)&id,
		.num_events = 1,
		.ages_ptr = (uintptr_t)age,
	};
	uint64_t ms = (ns + 999999) / 1000000;

	if (!*age)
		we.timeout_ms = 0;
	else if (ns == UINT64_MAX)
		we.timeout_ms = HSAGPU_WAIT_INFINITE;
	else
		we.timeout_ms = ms >= HSAGPU_WAIT_INFINITE ?
				HSAGPU_WAIT_INFINITE - 1 : ms ? ms : 1;
	/* Woken, timed out or interrupted: the caller looks at the value. */
	if (!ioctl(ref->fd, HSAGPU_IOC_WAIT_EVENTS, &we))
		return true;
	return errno == ETIME || errno == ETIMEDOUT || errno == EINTR;
}

/*
 * Sleep on the event until the value satisfies the condition or the
 * deadline passes. Device completions and hsagpu_signal_store_* (which
 * see this thread in waiters) wake it; the event's age covers wake-ups
 * that another waiter of the same signal consumed. False if the driver
 * cannot do this (the caller polls instead).
 */
static bool wait_on_event(const struct sig_ref *ref,
			  hsagpu_signal_condition_t cond, int64_t cmp,
			  uint64_t deadline, int64_t *v)
{
	uint64_t age = 0, now;
	bool ok;

	__atomic_fetch_add(ref->waiters, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* The age before looking at the value: later changes move it. */
	ok = sleep_on_event(ref, 0, &age);
	while (ok) {
		*v = __atomic_load_n(&ref->sig->value, __ATOMIC_ACQUIRE);
		if (satisfied(*v, cond, cmp))
			break;
		now = rt_now_ns();
		if (now >= deadline)
			break;
		ok = sleep_on_event(ref, deadline == UINT64_MAX ? UINT64_MAX :
				    deadline - now, &age);
	}
	__atomic_fetch_sub(ref->waiters, 1, __ATOMIC_RELAXED);
	return ok;
}

int64_t hsagpu_signal_wait_acquire(hsagpu_signal_t signal,
				   hsagpu_signal_condition_t cond,
				   int64_t compare_value, uint64_t timeout_ns,
				   hsagpu_wait_state_t wait_hint)
{
	uint64_t start, now, deadline, spin_end, poll_ns = 50000;
	struct sig_ref ref;
	unsigned int n = 0;
	int64_t v;

	if (!sig_get(signal, &ref))
		return 0;
	v = __atomic_load_n(&ref.sig->value, __ATOMIC_ACQUIRE);
	if (satisfied(v, cond, compare_value) || !timeout_ns)
		return v;

	/* The clock is read from the first check on: a quick wait needs none. */
	start = 0;
	now = 0;
	deadline = spin_end = UINT64_MAX;
	for (;;) {
		v = __atomic_load_n(&ref.sig->value, __ATOMIC_ACQUIRE);
		if (satisfied(v, cond, compare_value))
			return v;
		/*
		 * A pause every 16 loads, not every load: under TCG, QEMU
		 * ends the translated block at PAUSE and takes its global
		 * lock, so pausing each time made the loop ~1 us per look
		 * (and contended with the interrupt that wakes others).
		 */
		if (!(++n % 16)) {
			now = rt_now_ns();
			if (!start) {
				start = now;
				deadline = timeout_ns > UINT64_MAX - start ?
					   UINT64_MAX : start + timeout_ns;
				spin_end = wait_hint == HSAGPU_WAIT_STATE_ACTIVE ?
					   deadline : start + SPIN_NS;
			}
			if (now >= deadline || now >= spin_end)
				break;
			/* Let whoever will set the signal run on this CPU. */
			if (!(n % 256))
				sched_yield();
			rt_cpu_relax();
		}
	}

	if (now < deadline && ref.event &&
	    wait_on_event(&ref, cond, compare_value, deadline, &v))
		return v;
	/* No event (or no driver support): poll with a growing period. */
	while (now < deadline) {
		sleep_ns(deadline - now < poll_ns ? deadline - now : poll_ns);
		if (poll_ns < 1000000)
			poll_ns *= 2;
		v = __atomic_load_n(&ref.sig->value, __ATOMIC_ACQUIRE);
		if (satisfied(v, cond, compare_value))
			return v;
		now = rt_now_ns();
	}
	return __atomic_load_n(&ref.sig->value, __ATOMIC_ACQUIRE);
}
