// SPDX-License-Identifier: MIT
/*
 * libhsagpu DMA engine: VENDOR_SPECIFIC packets (COPY, FILL and their
 * scatter-gather forms), descriptor lists in system memory, and copies
 * between CPU pointers that split ranges at segment boundaries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hsagpu_rt_priv.h"

_Static_assert(sizeof(struct hsagpu_dma_packet) == HSAGPU_AQL_PACKET_SIZE,
	       "DMA packet layout");
_Static_assert(sizeof(struct hsagpu_dma_desc) == 32, "descriptor layout");

struct hsagpu_dma_list {
	hsagpu_agent_t *agent;
	struct hsagpu_dma_desc *descs;  /* system memory of @agent */
	uint64_t bus;
	uint32_t capacity;
	uint32_t count;
};

/* Packets ------------------------------------------------------------- */

static void dma_packet(struct hsagpu_dma_packet *pkt, uint8_t op,
		       uint64_t dst, uint64_t src, uint64_t size,
		       uint64_t pattern, hsagpu_signal_t completion)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->header = HSAGPU_PKT_TYPE_INVALID;
	pkt->format = HSAGPU_VENDOR_FORMAT_DMA;
	pkt->op = op;
	pkt->src = src;
	pkt->dst = dst;
	pkt->size = size;
	pkt->pattern = pattern;
	pkt->completion_signal = completion.handle;
}

void hsagpu_packet_dma_copy(struct hsagpu_dma_packet *pkt, uint64_t dst,
			    uint64_t src, uint64_t size,
			    hsagpu_signal_t completion)
{
	dma_packet(pkt, HSAGPU_DMA_OP_COPY, dst, src, size, 0, completion);
}

void hsagpu_packet_dma_fill(struct hsagpu_dma_packet *pkt, uint64_t dst,
			    uint32_t pattern, uint64_t size,
			    hsagpu_signal_t completion)
{
	dma_packet(pkt, HSAGPU_DMA_OP_FILL, dst, 0, size, pattern, completion);
}

void hsagpu_packet_dma_sg(struct hsagpu_dma_packet *pkt, uint8_t op,
			  uint64_t list_addr, uint32_t count,
			  hsagpu_signal_t completion)
{
	dma_packet(pkt, op, 0, list_addr, count, 0, completion);
}

/* Descriptor lists ---------------------------------------------------- */

int hsagpu_dma_list_create(hsagpu_agent_t *agent, uint32_t capacity,
			   hsagpu_dma_list_t **list)
{
	struct hsagpu_dma_list *l;
	void *p;
	int ret;

	if (!agent || !list || !capacity || capacity > HSAGPU_DMA_SG_MAX)
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	/* At most 2 MiB: one segment. */
	ret = rt_mem_alloc(agent, (size_t)capacity * sizeof(*l->descs),
			   HSAGPU_MEM_SYSTEM, true, &p, &l->bus);
	if (ret) {
		free(l);
		return ret;
	}
	l->agent = agent;
	l->descs = p;
	l->capacity = capacity;
	*list = l;
	return 0;
}

void hsagpu_dma_list_destroy(hsagpu_dma_list_t *list)
{
	if (!list)
		return;
	rt_mem_free(list->agent, list->descs, true);
	free(list);
}

void hsagpu_dma_list_reset(hsagpu_dma_list_t *list)
{
	if (list)
		list->count = 0;
}

uint32_t hsagpu_dma_list_count(const hsagpu_dma_list_t *list)
{
	return list ? list->count : 0;
}

uint64_t hsagpu_dma_list_addr(const hsagpu_dma_list_t *list)
{
	return list ? list->bus : 0;
}

struct hsagpu_dma_desc *hsagpu_dma_list_descs(hsagpu_dma_list_t *list)
{
	return list ? list->descs : NULL;
}

static int list_push(hsagpu_dma_list_t *list, uint64_t dst, uint64_t src,
		     uint64_t size)
{
	struct hsagpu_dma_desc *d;

	if (list->count >= list->capacity)
		return -ENOSPC;
	d = &list->descs[list->count++];
	d->src = src;
	d->dst = dst;
	d->size = size;
	d->reserved = 0;
	return 0;
}

int hsagpu_dma_list_add_raw(hsagpu_dma_list_t *list, uint64_t dst,
			    uint64_t src, uint64_t size)
{
	if (!list)
		return -EINVAL;
	return list_push(list, dst, src, size);
}

/*
 * Add descriptors for @size bytes at @dst (and @src, unless @fill),
 * one per device-contiguous piece. All or nothing.
 */
static int list_add(hsagpu_dma_list_t *list, void *dst, const void *src,
		    uint32_t pattern, bool fill, size_t size)
{
	uint32_t start;
	uint64_t done = 0;
	int ret = 0;

	if (!list || !dst || (!fill && !src) || !size ||
	    size > HSAGPU_DMA_SIZE_MAX)
		return -EINVAL;
	start = list->count;
	while (!ret && done < size) {
		uint64_t dbus, dlen, sbus = 0, slen = UINT64_MAX, n;
		unsigned int rot = (unsigned int)(done % 4) * 8;

		/* Byte k of the whole range gets pattern byte k % 4. */
		if (fill)
			sbus = rot ? (uint32_t)(pattern >> rot |
						pattern << (32 - rot)) :
			       pattern;

		ret = rt_translate(list->agent, (const char *)dst + done,
				   &dbus, &dlen);
		if (!ret && !fill)
			ret = rt_translate(list->agent,
					   (const char *)src + done, &sbus,
					   &slen);
		if (ret)
			break;
		n = size - done;
		if (n > dlen)
			n = dlen;
		if (n > slen)
			n = slen;
		ret = list_push(list, dbus, sbus, n);
		done += n;
	}
	if (ret)
		list->count = start;
	return ret;
}

int hsagpu_dma_list_add_copy(hsagpu_dma_list_t *list, void *dst,
			     const void *src, size_t size)
{
	return list_add(list, dst, src, 0, false, size);
}

int hsagpu_dma_list_add_fill(hsagpu_dma_list_t *list, void *dst,
			     uint32_t pattern, size_t size)
{
	return list_add(list, dst, NULL, pattern, true, size);
}

/* Copies -------------------------------------------------------------- */

static int64_t dma_submit(hsagpu_queue_t *queue,
			  const struct hsagpu_dma_packet *pkt)
{
	return hsagpu_queue_submit(queue, pkt,
		hsagpu_packet_header(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC, 0,
				     HSAGPU_FENCE_SCOPE_SYSTEM,
				     HSAGPU_FENCE_SCOPE_SYSTEM));
}

static int64_t dma_op(hsagpu_queue_t *queue, hsagpu_dma_list_t *list,
		      void *dst, const void *src, uint32_t pattern, bool fill,
		      size_t size, hsagpu_signal_t completion)
{
	struct hsagpu_dma_packet pkt;
	uint64_t dbus, dlen, sbus = 0, slen = UINT64_MAX;
	int ret;

	if (!queue || !dst || (!fill && !src) || !size ||
	    size > HSAGPU_DMA_SIZE_MAX)
		return -EINVAL;
	if (list && list->agent != queue->agent)
		return -EINVAL;
	ret = rt_translate(queue->agent, dst, &dbus, &dlen);
	if (!ret && !fill)
		ret = rt_translate(queue->agent, src, &sbus, &slen);
	if (ret)
		return ret;
	if (dlen >= size && slen >= size) {
		if (fill)
			hsagpu_packet_dma_fill(&pkt, dbus, pattern, size,
					       completion);
		else
			hsagpu_packet_dma_copy(&pkt, dbus, sbus, size,
					       completion);
		return dma_submit(queue, &pkt);
	}
	if (!list)
		return -E2BIG;
	list->count = 0;
	ret = list_add(list, dst, src, pattern, fill, size);
	if (ret)
		return ret;
	hsagpu_packet_dma_sg(&pkt, fill ? HSAGPU_DMA_OP_FILL_SG :
			     HSAGPU_DMA_OP_COPY_SG, list->bus, list->count,
			     completion);
	return dma_submit(queue, &pkt);
}

int64_t hsagpu_dma_copy(hsagpu_queue_t *queue, hsagpu_dma_list_t *list,
			void *dst, const void *src, size_t size,
			hsagpu_signal_t completion)
{
	return dma_op(queue, list, dst, src, 0, false, size, completion);
}

int64_t hsagpu_dma_fill(hsagpu_queue_t *queue, hsagpu_dma_list_t *list,
			void *dst, uint32_t pattern, size_t size,
			hsagpu_signal_t completion)
{
	return dma_op(queue, list, dst, NULL, pattern, true, size, completion);
}
