// SPDX-License-Identifier: MIT
/*
 * libhsagpu user-mode AQL queues: the ring and the dispatch ids live in
 * system memory the device reads directly; the driver only registers
 * them and hands out a doorbell. Packets are written by the CPU and made
 * visible by one 32-bit release store of header and setup.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "hsagpu_rt_priv.h"

/* wait_slot gives up after this long without the device making progress. */
#define SLOT_TIMEOUT_NS         (10ULL * 1000000000ULL)
/* How often a waiting producer asks whether the queue died. */
#define STATE_CHECK_NS          1000000ULL

struct rt_queue {
	hsagpu_queue_t pub;
	struct rt_queue *next;
	void *desc_mem;
	/* Only if the driver gave this queue another doorbell page. */
	void *own_doorbell_page;
};

static volatile uint64_t *wptr(hsagpu_queue_t *q)
{
	return &q->desc->write_dispatch_id;
}

static volatile uint64_t *rptr(hsagpu_queue_t *q)
{
	return &q->desc->read_dispatch_id;
}

/* Map the doorbell page once per agent; agent lock held. */
static int map_doorbell(hsagpu_agent_t *a, struct rt_queue *rq,
			const struct hsagpu_create_queue *cq)
{
	char *page;
	void *p;

	if (cq->doorbell_offset > RT_DOORBELL_PAGE - sizeof(uint64_t) ||
	    cq->doorbell_offset % sizeof(uint64_t))
		return -EPROTO;
	if (!a->doorbell_page ||
	    a->doorbell_mmap_offset != cq->doorbell_mmap_offset) {
		p = mmap(NULL, RT_DOORBELL_PAGE, PROT_WRITE, MAP_SHARED, a->fd,
			 (off_t)cq->doorbell_mmap_offset);
		if (p == MAP_FAILED)
			return -errno;
		if (!a->doorbell_page) {
			a->doorbell_page = p;
			a->doorbell_mmap_offset = cq->doorbell_mmap_offset;
		} else {
			rq->own_doorbell_page = p;
		}
	}
	page = rq->own_doorbell_page ? rq->own_doorbell_page :
	       a->doorbell_page;
	rq->pub.doorbell = (volatile uint64_t *)(page + cq->doorbell_offset);
	return 0;
}

static int queue_release(struct rt_queue *rq, bool destroy)
{
	hsagpu_queue_t *q = &rq->pub;
	struct hsagpu_queue_id qid = { .size = sizeof(qid), .queue_id = q->id };
	int ret = 0;

	/*
	 * The memory goes even if DESTROY fails: the driver owns the truth
	 * and must not let the device use memory freed by its owner.
	 */
	if (destroy)
		ret = rt_ioctl(q->agent->fd, HSAGPU_IOC_DESTROY_QUEUE, &qid);
	if (rq->own_doorbell_page)
		munmap(rq->own_doorbell_page, RT_DOORBELL_PAGE);
	if (rq->desc_mem)
		rt_mem_free(q->agent, rq->desc_mem, true);
	if (q->base_address)
		rt_mem_free(q->agent, q->base_address, true);
	free(rq);
	return ret;
}

int hsagpu_queue_create(hsagpu_agent_t *agent, uint32_t size,
			uint32_t priority, uint32_t flags,
			hsagpu_queue_t **queue)
{
	struct hsagpu_create_queue cq = { .size = sizeof(cq) };
	struct hsagpu_queue_desc *desc;
	struct rt_queue *rq;
	hsagpu_queue_t *q;
	uint64_t desc_bus;
	uint32_t i;
	int ret;

	if (!agent || !queue || size < HSAGPU_QUEUE_RING_MIN ||
	    size > HSAGPU_QUEUE_RING_MAX || (size & (size - 1)) ||
	    (flags & ~HSAGPU_QUEUE_PROFILE))
		return -EINVAL;
	rq = calloc(1, sizeof(*rq));
	if (!rq)
		return -ENOMEM;
	q = &rq->pub;
	q->agent = agent;
	q->size = size;
	q->priv = rq;

	ret = rt_mem_alloc(agent, (size_t)size * HSAGPU_AQL_PACKET_SIZE,
			   HSAGPU_MEM_SYSTEM, true, &q->base_address,
			   &q->ring_bus_addr);
	if (ret)
		goto fail;
	ret = rt_mem_alloc(agent, RT_CHUNK, HSAGPU_MEM_SYSTEM, true,
			   &rq->desc_mem, &desc_bus);
	if (ret)
		goto fail;

	/* Every slot must read as INVALID before the device may look. */
	memset(q->base_address, 0, (size_t)size * HSAGPU_AQL_PACKET_SIZE);
	for (i = 0; i < size; i++)
		*(uint16_t *)hsagpu_queue_slot(q, i) = HSAGPU_PKT_TYPE_INVALID;
	desc = rq->desc_mem;
	memset(desc, 0, sizeof(*desc));
	desc->type = HSAGPU_QUEUE_TYPE_MULTI;
	desc->base_address = q->ring_bus_addr;
	desc->size = size;
	q->desc = desc;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	cq.flags = flags;
	cq.ring_addr = q->ring_bus_addr;
	cq.ring_size = size;
	cq.priority = priority;
	cq.rptr_addr = desc_bus + HSAGPU_QUEUE_DESC_RPTR;
	cq.wptr_addr = desc_bus + HSAGPU_QUEUE_DESC_WPTR;
	ret = rt_ioctl(agent->fd, HSAGPU_IOC_CREATE_QUEUE, &cq);
	if (ret)
		goto fail;
	q->id = cq.queue_id;
	desc->id = cq.queue_id;
	/* The page offset: where the page sits in BAR2 is the driver's. */
	desc->doorbell_offset = cq.doorbell_offset;

	pthread_mutex_lock(&agent->lock);
	ret = map_doorbell(agent, rq, &cq);
	if (!ret) {
		rq->next = agent->queues;
		agent->queues = rq;
	}
	pthread_mutex_unlock(&agent->lock);
	if (ret) {
		queue_release(rq, true);
		return ret;
	}
	*queue = q;
	return 0;

fail:
	queue_release(rq, false);
	return ret;
}

int hsagpu_queue_destroy(hsagpu_queue_t *queue)
{
	struct rt_queue *rq, **pp;
	hsagpu_agent_t *a;
	bool found;

	if (!queue)
		return -EINVAL;
	rq = queue->priv;
	a = queue->agent;
	pthread_mutex_lock(&a->lock);
	for (pp = &a->queues; *pp && *pp != rq; pp = &(*pp)->next)
		;
	found = *pp;
	if (found)
		*pp = rq->next;
	pthread_mutex_unlock(&a->lock);
	if (!found)
		return -EINVAL;
	return queue_release(rq, true);
}

void rt_queues_release(hsagpu_agent_t *agent)
{
	struct rt_queue *rq;

	pthread_mutex_lock(&agent->lock);
	rq = agent->queues;
	agent->queues = NULL;
	pthread_mutex_unlock(&agent->lock);
	while (rq) {
		struct rt_queue *next = rq->next;

		queue_release(rq, true);
		rq = next;
	}
}

int hsagpu_queue_state(hsagpu_queue_t *queue, uint32_t *error,
		       uint64_t *error_dispatch_id)
{
	struct hsagpu_queue_status st = { .size = sizeof(st) };
	int ret;

	if (!queue)
		return -EINVAL;
	st.queue_id = queue->id;
	ret = rt_ioctl(queue->agent->fd, HSAGPU_IOC_QUEUE_STATUS, &st);
	if (ret)
		return ret;
	if (error)
		*error = st.error;
	if (error_dispatch_id)
		*error_dispatch_id = st.error_dispatch_id;
	return (int)st.state;
}

uint64_t hsagpu_queue_load_read_index(hsagpu_queue_t *queue)
{
	return __atomic_load_n(rptr(queue), __ATOMIC_ACQUIRE);
}

uint64_t hsagpu_queue_load_write_index(hsagpu_queue_t *queue)
{
	return __atomic_load_n(wptr(queue), __ATOMIC_ACQUIRE);
}

uint64_t hsagpu_queue_add_write_index(hsagpu_queue_t *queue, uint64_t n)
{
	return __atomic_fetch_add(wptr(queue), n, __ATOMIC_ACQ_REL);
}

void *hsagpu_queue_slot(hsagpu_queue_t *queue, uint64_t index)
{
	return (char *)queue->base_address +
	       (index & (queue->size - 1)) * HSAGPU_AQL_PACKET_SIZE;
}

static bool slot_free(hsagpu_queue_t *q, uint64_t index, uint64_t *read)
{
	*read = hsagpu_queue_load_read_index(q);
	/* Signed: an index the device already passed is free as well. */
	return (int64_t)(index - *read) < (int64_t)q->size;
}

int hsagpu_queue_wait_slot(hsagpu_queue_t *queue, uint64_t index)
{
	uint64_t read, last_read, now, progress, next_check;
	struct timespec ts = { .tv_nsec = 50000 };
	unsigned int n = 0;
	int state;

	if (slot_free(queue, index, &read))
		return 0;
	last_read = read;
	now = rt_now_ns();
	progress = now;
	next_check = now;
	while (!slot_free(queue, index, &read)) {
		/* Spin on loads, pausing every 16 (see hsagpu_rt_signal.c) */
		if (++n < 256 * 16) {
			if (!(n % 16))
				rt_cpu_relax();
			continue;
		}
		now = rt_now_ns();
		if (read != last_read) {
			last_read = read;
			progress = now;
		}
		if (now >= next_check) {
			state = hsagpu_queue_state(queue, NULL, NULL);
			if (state < 0)
				return state;
			if (state == HSAGPU_QSTATE_ERROR)
				return -EIO;
			next_check = now + STATE_CHECK_NS;
		}
		if (now - progress > SLOT_TIMEOUT_NS)
			return -ETIMEDOUT;
		if (n < 256 * 16 + 768)
			sched_yield();
		else
			nanosleep(&ts, NULL);
	}
	return 0;
}

void hsagpu_queue_ring_doorbell(hsagpu_queue_t *queue, uint64_t index)
{
	/* Packets (and the write index) before the doorbell. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*queue->doorbell = index;
}

/* Packets -------------------------------------------------------------- */

uint16_t hsagpu_packet_header(uint32_t type, int barrier,
			      uint32_t acquire_scope, uint32_t release_scope)
{
	uint32_t h;

	h = (type & HSAGPU_PKT_HDR_TYPE_MASK) << HSAGPU_PKT_HDR_TYPE_SHIFT;
	if (barrier)
		h |= HSAGPU_PKT_HDR_BARRIER;
	h |= (acquire_scope & HSAGPU_PKT_HDR_SCOPE_MASK) <<
	     HSAGPU_PKT_HDR_ACQUIRE_SHIFT;
	h |= (release_scope & HSAGPU_PKT_HDR_SCOPE_MASK) <<
	     HSAGPU_PKT_HDR_RELEASE_SHIFT;
	return (uint16_t)h;
}

void hsagpu_packet_publish(void *slot, uint16_t header, uint16_t setup)
{
	__atomic_store_n((uint32_t *)slot, header | (uint32_t)setup << 16,
			 __ATOMIC_RELEASE);
}

void hsagpu_packet_dispatch(struct hsagpu_kernel_dispatch_packet *pkt,
			    uint64_t kernel_object, uint64_t kernarg_addr,
			    const uint32_t grid[3], const uint16_t wg[3],
			    unsigned int dims, hsagpu_signal_t completion)
{
	unsigned int d;
	uint32_t g[3];
	uint16_t w[3];

	/* Unused dimensions must be 1; NULL arrays mean all 1. */
	for (d = 0; d < 3; d++) {
		g[d] = grid && d < dims ? grid[d] : 1;
		w[d] = wg && d < dims ? wg[d] : 1;
	}
	memset(pkt, 0, sizeof(*pkt));
	pkt->header = HSAGPU_PKT_TYPE_INVALID;
	pkt->setup = dims & HSAGPU_DISPATCH_DIMS_MASK;
	pkt->workgroup_size_x = w[0];
	pkt->workgroup_size_y = w[1];
	pkt->workgroup_size_z = w[2];
	pkt->grid_size_x = g[0];
	pkt->grid_size_y = g[1];
	pkt->grid_size_z = g[2];
	pkt->kernel_object = kernel_object;
	pkt->kernarg_address = kernarg_addr;
	pkt->completion_signal = completion.handle;
}

void hsagpu_packet_barrier(struct hsagpu_barrier_packet *pkt,
			   const hsagpu_signal_t *deps, unsigned int ndeps,
			   hsagpu_signal_t completion)
{
	unsigned int i;

	memset(pkt, 0, sizeof(*pkt));
	pkt->header = HSAGPU_PKT_TYPE_INVALID;
	for (i = 0; deps && i < ndeps && i < HSAGPU_BARRIER_DEPS; i++)
		pkt->dep_signal[i] = deps[i].handle;
	pkt->completion_signal = completion.handle;
}

void hsagpu_packet_agent(struct hsagpu_agent_dispatch_packet *pkt,
			 uint16_t type, uint64_t return_address,
			 const uint64_t arg[4], hsagpu_signal_t completion)
{
	unsigned int i;

	memset(pkt, 0, sizeof(*pkt));
	pkt->header = HSAGPU_PKT_TYPE_INVALID;
	pkt->type = type;
	pkt->return_address = return_address;
	for (i = 0; arg && i < 4; i++)
		pkt->arg[i] = arg[i];
	pkt->completion_signal = completion.handle;
}

int64_t hsagpu_queue_submit(hsagpu_queue_t *queue, const void *pkt,
			    uint16_t header)
{
	const unsigned char *src = pkt;
	uint64_t index, read;
	uint16_t setup;
	void *slot;
	int ret;

	if (!queue || !pkt)
		return -EINVAL;
	/*
	 * Reserve only a slot that is free: an index reserved and then
	 * abandoned on a timeout would stall the queue for good.
	 */
	index = hsagpu_queue_load_write_index(queue);
	for (;;) {
		if (!slot_free(queue, index, &read)) {
			ret = hsagpu_queue_wait_slot(queue, index);
			if (ret)
				return ret;
			index = hsagpu_queue_load_write_index(queue);
			continue;
		}
		if (__atomic_compare_exchange_n(wptr(queue), &index, index + 1,
						false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			break;
	}

	slot = hsagpu_queue_slot(queue, index);
	memcpy((char *)slot + 4, src + 4, HSAGPU_AQL_PACKET_SIZE - 4);
	memcpy(&setup, src + 2, sizeof(setup));
	hsagpu_packet_publish(slot, header, setup);
	hsagpu_queue_ring_doorbell(queue, index);
	return (int64_t)index;
}
