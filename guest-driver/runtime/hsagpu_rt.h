/* SPDX-License-Identifier: MIT */
/*
 * libhsagpu: user-space runtime for hsa-gpu devices.
 *
 * A small subset of the HSA runtime API with hsagpu_ names: open an
 * agent, allocate memory, create user-mode AQL queues, build and submit
 * packets, create and wait on signals. Functions return 0 or a negative
 * errno unless documented otherwise. Thread-safe: several threads may
 * submit to one queue (write indices are reserved atomically).
 *
 * Addresses. With GPU virtual memory (the default: hsagpu_agent_info()
 * ->vm_flags has HSAGPU_VM_INFO_ENABLED) the device uses CPU pointers:
 * put (uintptr_t)ptr into packets and kernel arguments for any memory
 * the device may reach, i.e. allocations of this agent (mapped at their
 * CPU address), registered user memory (hsagpu_memory_register) and
 * signals; other pointers fault on the device, they do not reach memory.
 * An enabled peer's VRAM is the exception: it appears in the agent's
 * space in a window (hsagpu_addr, the DMA helpers). Without it (vm=0 in
 * hsagpu.ko when the agent was opened; for comparison) the device sees
 * bus addresses and hsagpu_addr() turns a pointer into a runtime
 * allocation into the address to put in packets.
 */
#ifndef HSAGPU_RT_H
#define HSAGPU_RT_H

#include <stddef.h>
#include <stdint.h>

#include "hsagpu/hsagpu_aql.h"
#include "hsagpu/hsagpu_uapi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hsagpu_agent hsagpu_agent_t;

/* Agents -------------------------------------------------------------- */

/* Number of /dev/hsagpuN devices present. */
int hsagpu_agent_count(void);
/*
 * Open /dev/hsagpu<index> (agent_count counts the /dev/hsagpuN nodes).
 * The doorbell page is mapped with the first queue.
 */
int hsagpu_agent_open(int index, hsagpu_agent_t **agent);
/* Destroys whatever the agent still owns (queues, signals, memory). */
void hsagpu_agent_close(hsagpu_agent_t *agent);
const struct hsagpu_device_info *hsagpu_agent_info(hsagpu_agent_t *agent);
int hsagpu_agent_fd(hsagpu_agent_t *agent);

/* Memory -------------------------------------------------------------- */

#define HSAGPU_RT_MEM_SYSTEM    HSAGPU_MEM_SYSTEM  /* coherent system memory */
#define HSAGPU_RT_MEM_VRAM      HSAGPU_MEM_VRAM    /* device memory (WC map) */

/* Allocate and map @size bytes; *ptr is page aligned. */
int hsagpu_memory_allocate(hsagpu_agent_t *agent, size_t size,
			   uint32_t flags, void **ptr);
int hsagpu_memory_free(hsagpu_agent_t *agent, void *ptr);
/*
 * Deprecated: the device address of @ptr for @agent. With GPU virtual
 * memory it is @ptr itself (an enabled peer's VRAM excepted: its address
 * in the peer window), so new code passes pointers. Without it, the bus
 * address of @ptr inside an allocation of @agent (or an enabled peer's
 * VRAM), 0 if none.
 */
uint64_t hsagpu_addr(hsagpu_agent_t *agent, const void *ptr);

/*
 * Register user memory (malloc, stack, file mappings) with @agent's
 * device (GPU virtual memory only, else -EOPNOTSUPP): the whole pages
 * under [ptr, ptr + size) are pinned and mapped at their own address,
 * writeable unless @flags has HSAGPU_RT_REGISTER_READONLY. When the
 * process unmaps or replaces any of those pages the driver takes the
 * whole registration out of the device's address space (later device
 * accesses fault); unregister it still. Registrations may not overlap
 * each other or allocations, page-wise (-EBUSY).
 */
#define HSAGPU_RT_REGISTER_READONLY HSAGPU_REGISTER_READONLY

int hsagpu_memory_register(hsagpu_agent_t *agent, void *ptr, size_t size,
			   uint32_t flags);
/* @ptr as given to hsagpu_memory_register (else -EINVAL). */
int hsagpu_memory_unregister(hsagpu_agent_t *agent, void *ptr);

/*
 * Cached reads of VRAM (devices with HSAGPU_CAP_READ_ALIAS in
 * hsagpu_agent_info()->caps; README "Cached reads of VRAM"). The usual
 * VRAM mapping is write-combining: fast stores, slow uncached loads. A
 * VRAM allocation inside the device's read alias window also has a
 * write-back view for loads, which the CPU caches; the device lists the
 * 64-byte lines it wrote since they were last listed with a clear, and
 * only those need flushing before a read. Read after the device's
 * completion signal for the writes; do not store through the view.
 * -ERANGE: the allocation is not in the window; -ENODEV: no alias.
 */
typedef struct hsagpu_dirty_range hsagpu_dirty_range_t; /* from the uapi */

#define HSAGPU_RT_DIRTY_CLEAR   HSAGPU_DIRTY_CLEAR

/* The cached view of @ptr (in a VRAM allocation), mapped on first use. */
int hsagpu_memory_cached_view(hsagpu_agent_t *agent, const void *ptr,
			      const void **cached);
/*
 * The dirty lines of [ptr, ptr + size) (one VRAM allocation) as runs,
 * offsets from the allocation's start, at most @capacity (32..65536) of
 * them; HSAGPU_RT_DIRTY_CLEAR clears what is returned. *done: bytes of
 * the range covered (less than @size when @ranges filled up).
 */
int hsagpu_memory_dirty_lines(hsagpu_agent_t *agent, const void *ptr,
			      size_t size, uint32_t flags,
			      hsagpu_dirty_range_t *ranges, uint32_t capacity,
			      uint32_t *count, size_t *done);
/*
 * Flush the lines of [ptr, ptr + size) the device wrote (listed and
 * cleared) from the cached view (clflushopt, else clflush; then mfence)
 * and set *out to @ptr's place in it: read the range there. *flushed
 * (optional): lines flushed.
 */
int hsagpu_memory_read_cached(hsagpu_agent_t *agent, const void *ptr,
			      size_t size, const void **out, size_t *flushed);

/* Signals (amd_signal_t layout, see struct hsagpu_signal) ------------- */

typedef struct hsagpu_signal_s {
	/* device address of the signal (its CPU address with GPU VM); 0 = none */
	uint64_t handle;
} hsagpu_signal_t;

typedef enum {
	HSAGPU_SIGNAL_CONDITION_EQ = 0,
	HSAGPU_SIGNAL_CONDITION_NE = 1,
	HSAGPU_SIGNAL_CONDITION_LT = 2,
	HSAGPU_SIGNAL_CONDITION_GTE = 3,
} hsagpu_signal_condition_t;

typedef enum {
	HSAGPU_WAIT_STATE_BLOCKED = 0,  /* spin briefly, then sleep on the event */
	HSAGPU_WAIT_STATE_ACTIVE = 1,   /* spin only */
} hsagpu_wait_state_t;

/*
 * Create a signal with an interrupt event attached (the device writes the
 * event mailbox and raises the queue's MSI-X vector when it decrements
 * the signal), so that waits can block instead of spinning.
 */
int hsagpu_signal_create(hsagpu_agent_t *agent, int64_t initial_value,
			 hsagpu_signal_t *signal);
int hsagpu_signal_destroy(hsagpu_signal_t signal);
int64_t hsagpu_signal_load_acquire(hsagpu_signal_t signal);
int64_t hsagpu_signal_load_relaxed(hsagpu_signal_t signal);
void hsagpu_signal_store_release(hsagpu_signal_t signal, int64_t value);
void hsagpu_signal_store_relaxed(hsagpu_signal_t signal, int64_t value);
/* Returns the value before the addition. */
int64_t hsagpu_signal_add_relaxed(hsagpu_signal_t signal, int64_t value);
/*
 * Wait until the signal's value satisfies @cond against @compare_value or
 * @timeout_ns passes (UINT64_MAX: forever). Returns the last value seen.
 */
int64_t hsagpu_signal_wait_acquire(hsagpu_signal_t signal,
				   hsagpu_signal_condition_t cond,
				   int64_t compare_value, uint64_t timeout_ns,
				   hsagpu_wait_state_t wait_hint);
/* The CPU view of the signal (kind, value, mailbox, timestamps). */
volatile struct hsagpu_signal *hsagpu_signal_ptr(hsagpu_signal_t signal);
/* Device start/end timestamps of the packet that completed it (ns). */
int hsagpu_signal_timestamps(hsagpu_signal_t signal, uint64_t *start,
			     uint64_t *end);

/* Queues -------------------------------------------------------------- */

#define HSAGPU_QUEUE_PROFILE    HSAGPU_QUEUE_CREATE_PROFILE

typedef struct hsagpu_queue {
	/* public, read-only for users */
	void *base_address;                     /* ring, size packets */
	uint32_t size;                          /* packets, power of two */
	uint32_t id;                            /* hardware queue number */
	volatile struct hsagpu_queue_desc *desc; /* dispatch ids */
	hsagpu_agent_t *agent;
	/* private */
	volatile uint64_t *doorbell;
	uint64_t ring_bus_addr;         /* device address: base_address with GPU VM */
	void *priv;
} hsagpu_queue_t;

/* @size: packets (power of two); @flags: HSAGPU_QUEUE_PROFILE */
int hsagpu_queue_create(hsagpu_agent_t *agent, uint32_t size,
			uint32_t priority, uint32_t flags,
			hsagpu_queue_t **queue);
int hsagpu_queue_destroy(hsagpu_queue_t *queue);
/* HSAGPU_QSTATE_*; *error gets the HSAGPU_QERR_* code. */
int hsagpu_queue_state(hsagpu_queue_t *queue, uint32_t *error,
		       uint64_t *error_dispatch_id);

uint64_t hsagpu_queue_load_read_index(hsagpu_queue_t *queue);
uint64_t hsagpu_queue_load_write_index(hsagpu_queue_t *queue);
/* Atomically reserve @n slots; returns the first reserved index. */
uint64_t hsagpu_queue_add_write_index(hsagpu_queue_t *queue, uint64_t n);
/* Slot of packet @index (index modulo size). */
void *hsagpu_queue_slot(hsagpu_queue_t *queue, uint64_t index);
/* Wait until slot @index is free (index - read_index < size). */
int hsagpu_queue_wait_slot(hsagpu_queue_t *queue, uint64_t index);
/* Ring the doorbell with the index of the last packet written. */
void hsagpu_queue_ring_doorbell(hsagpu_queue_t *queue, uint64_t index);

/* Packets ------------------------------------------------------------- */

uint16_t hsagpu_packet_header(uint32_t type, int barrier,
			      uint32_t acquire_scope, uint32_t release_scope);
/*
 * Make a fully written packet visible: store header and setup as one
 * 32-bit release store, as the HSA rules require.
 */
void hsagpu_packet_publish(void *slot, uint16_t header, uint16_t setup);

/* Fill the body of a kernel dispatch packet (header left INVALID). */
void hsagpu_packet_dispatch(struct hsagpu_kernel_dispatch_packet *pkt,
			    uint64_t kernel_object, uint64_t kernarg_addr,
			    const uint32_t grid[3], const uint16_t wg[3],
			    unsigned dims, hsagpu_signal_t completion);
void hsagpu_packet_barrier(struct hsagpu_barrier_packet *pkt,
			   const hsagpu_signal_t *deps, unsigned ndeps,
			   hsagpu_signal_t completion);
void hsagpu_packet_agent(struct hsagpu_agent_dispatch_packet *pkt,
			 uint16_t type, uint64_t return_address,
			 const uint64_t arg[4], hsagpu_signal_t completion);

/*
 * Convenience: reserve a slot, wait for space, copy @pkt's body, publish
 * it with @header (and the packet's setup field) and ring the doorbell.
 * Returns the packet's dispatch id, or a negative errno.
 */
int64_t hsagpu_queue_submit(hsagpu_queue_t *queue, const void *pkt,
			    uint16_t header);

/* DMA engine (VENDOR_SPECIFIC packets) and peers ---------------------- */

/* Fill the body of a DMA packet (header left INVALID). */
void hsagpu_packet_dma_copy(struct hsagpu_dma_packet *pkt, uint64_t dst,
			    uint64_t src, uint64_t size,
			    hsagpu_signal_t completion);
void hsagpu_packet_dma_fill(struct hsagpu_dma_packet *pkt, uint64_t dst,
			    uint32_t pattern, uint64_t size,
			    hsagpu_signal_t completion);
/* @op: HSAGPU_DMA_OP_COPY_SG or HSAGPU_DMA_OP_FILL_SG */
void hsagpu_packet_dma_sg(struct hsagpu_dma_packet *pkt, uint8_t op,
			  uint64_t list_addr, uint32_t count,
			  hsagpu_signal_t completion);

/*
 * Let @agent's DMA engine reach @peer's VRAM: afterwards hsagpu_addr()
 * and the DMA helpers below accept pointers into @peer's VRAM
 * allocations for @agent (and give their address in the peer window:
 * the device cannot use the CPU address of another file's mapping).
 * *flags (may be NULL) gets HSAGPU_PEER_*.
 */
int hsagpu_agent_enable_peer(hsagpu_agent_t *agent, hsagpu_agent_t *peer,
			     uint32_t *flags);

/*
 * A scatter-gather descriptor list in system memory owned by @agent.
 * The add functions translate CPU pointers (this agent's allocations,
 * system memory made of several segments included, or an enabled
 * peer's VRAM) and split ranges at segment boundaries: one call may
 * add several descriptors (-ENOSPC when the list is full; without GPU
 * virtual memory -EFAULT when a pointer is not device memory for
 * @agent; with it any pointer is taken as is). A list must not be
 * changed or destroyed while a packet using it is in flight.
 */
typedef struct hsagpu_dma_list hsagpu_dma_list_t;

int hsagpu_dma_list_create(hsagpu_agent_t *agent, uint32_t capacity,
			   hsagpu_dma_list_t **list);
void hsagpu_dma_list_destroy(hsagpu_dma_list_t *list);
void hsagpu_dma_list_reset(hsagpu_dma_list_t *list);
int hsagpu_dma_list_add_copy(hsagpu_dma_list_t *list, void *dst,
			     const void *src, size_t size);
int hsagpu_dma_list_add_fill(hsagpu_dma_list_t *list, void *dst,
			     uint32_t pattern, size_t size);
/* Add one raw descriptor of device addresses (no translation). */
int hsagpu_dma_list_add_raw(hsagpu_dma_list_t *list, uint64_t dst,
			    uint64_t src, uint64_t size);
uint32_t hsagpu_dma_list_count(const hsagpu_dma_list_t *list);
uint64_t hsagpu_dma_list_addr(const hsagpu_dma_list_t *list);
/* The list's descriptors, CPU view (for building lists by hand). */
struct hsagpu_dma_desc *hsagpu_dma_list_descs(hsagpu_dma_list_t *list);

/*
 * Copy/fill @size bytes between CPU pointers with one packet on @queue:
 * COPY/FILL when both ranges are device-contiguous, else *_SG through
 * @list (reset and refilled; may be NULL when no list is needed, then
 * -E2BIG if one would be). Returns the packet's dispatch id or -errno;
 * the caller waits on @completion.
 */
int64_t hsagpu_dma_copy(hsagpu_queue_t *queue, hsagpu_dma_list_t *list,
			void *dst, const void *src, size_t size,
			hsagpu_signal_t completion);
int64_t hsagpu_dma_fill(hsagpu_queue_t *queue, hsagpu_dma_list_t *list,
			void *dst, uint32_t pattern, size_t size,
			hsagpu_signal_t completion);

#ifdef __cplusplus
}
#endif

#endif
