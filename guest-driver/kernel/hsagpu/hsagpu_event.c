// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: events. Each file has one page of system memory (a driver page
 * DMA-mapped while the device is bound, hsagpu_sysbuf.c) with
 * HSAGPU_MAX_EVENTS u64 slots; event n is slot n - 1. The device writes
 * the event id into the slot a signal names and raises the queue's
 * vector; WAIT_EVENTS sleeps until listed slots are non-zero and takes
 * them back to HSAGPU_EVENT_SLOT_UNSIGNALED (auto-reset). SET_EVENT does
 * the device's part from the CPU.
 *
 * Each event has an age, advanced by every consumption. Waiters that pass
 * the age they last saw also wake when another waiter took the event
 * first, which makes one event safe to share between threads.
 *
 * Waiters sleep on their file's wait queue, not on a device-wide one: a
 * queue interrupt wakes only the files owning a queue on the vector it
 * came on (hsagpu_event_wake_vector()).
 */
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "hsagpu.h"

static_assert(HSAGPU_MAX_EVENTS * sizeof(u64) <= PAGE_SIZE);
static_assert(HSAGPU_WAIT_EVENTS_MAX <= 64);  /* bits of .signaled */

/*
 * Allocated on first use: creating an event or mapping the page. Callers
 * are inside hsagpu_enter(): the DMA API is only used on a bound device.
 */
static int hsagpu_event_page_get(struct hsagpu_file *hf)
{
	struct hsagpu_sysbuf *b = &hf->events_buf;
	int ret;

	lockdep_assert_held(&hf->lock);
	if (hf->events)
		return 0;
	ret = hsagpu_sysbuf_alloc(hf->hdev, b, PAGE_SIZE, true);
	if (ret)
		return ret;
	if (hf->vm) {
		struct hsagpu_vm_src src = {
			.sgt = &b->sgt,
			.flags = HSAGPU_PTE_SYSTEM | HSAGPU_PTE_SNOOPED,
		};

		/* Driver aperture: never a CPU address of the process. */
		hf->events_map.kind = HSAGPU_VM_MAP_EVENTS;
		ret = hsagpu_vm_map(hf->vm, &hf->events_map,
				    HSAGPU_VM_APERTURE_BASE, PAGE_SIZE,
				    HSAGPU_PTE_READABLE | HSAGPU_PTE_WRITEABLE,
				    &src);
		if (ret) {
			hsagpu_sysbuf_free(hf->hdev, b);
			return ret;
		}
	}
	hf->events_dma = sg_dma_address(b->sgt.sgl);
	hf->events = page_address(b->pages[0]);
	return 0;
}

void hsagpu_event_init(struct hsagpu_file *hf)
{
	u32 i;

	init_waitqueue_head(&hf->own_event_wq);
	hf->event_wq = &hf->own_event_wq;

	/* Age 0 means "not known" in WAIT_EVENTS: real ages start at 1. */
	for (i = 0; i < HSAGPU_MAX_EVENTS; i++)
		atomic64_set(&hf->event_age[i], 1);
}

/*
 * After the file's queues are destroyed: the device writes no more. A
 * mapping of the page holds the file, so there is none left either.
 */
void hsagpu_event_release(struct hsagpu_file *hf)
{
	if (hf->vm)
		hsagpu_vm_unmap(hf->vm, &hf->events_map);
	if (hf->events)
		hsagpu_sysbuf_free(hf->hdev, &hf->events_buf);
	hf->events = NULL;
}

/* -ENOSPC when all HSAGPU_MAX_EVENTS events of the file exist. */
long hsagpu_ioctl_create_event(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_create_event *args = data;
	unsigned long slot;
	int ret;

	ret = hsagpu_enter(hf->hdev);
	if (ret)
		return ret;
	mutex_lock(&hf->lock);
	ret = hsagpu_event_page_get(hf);
	if (ret)
		goto out;
	slot = find_first_zero_bit(hf->events_used, HSAGPU_MAX_EVENTS);
	if (slot >= HSAGPU_MAX_EVENTS) {
		ret = -ENOSPC;
		goto out;
	}
	set_bit(slot, hf->events_used);
	WRITE_ONCE(hf->events[slot], HSAGPU_EVENT_SLOT_UNSIGNALED);
	args->event_id = slot + 1;
	args->mailbox_addr = (hf->vm ? HSAGPU_VM_APERTURE_BASE :
			      hf->events_dma) + slot * sizeof(u64);
out:
	mutex_unlock(&hf->lock);
	hsagpu_exit(hf->hdev);
	return ret;
}

/* The result could not be copied out: nobody learnt the id. */
void hsagpu_ioctl_create_event_undo(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_create_event *args = data;

	mutex_lock(&hf->lock);
	clear_bit(args->event_id - 1, hf->events_used);
	mutex_unlock(&hf->lock);
}

static bool hsagpu_event_live(struct hsagpu_file *hf, u32 id)
{
	lockdep_assert_held(&hf->lock);
	return id >= 1 && id <= HSAGPU_MAX_EVENTS &&
	       test_bit(id - 1, hf->events_used);
}

long hsagpu_ioctl_destroy_event(struct hsagpu_file *hf, void *data)
{
	u32 id = ((struct hsagpu_event_id *)data)->event_id;
	int ret = 0;

	mutex_lock(&hf->lock);
	if (hsagpu_event_live(hf, id))
		clear_bit(id - 1, hf->events_used);
	else
		ret = -EINVAL;
	mutex_unlock(&hf->lock);
	return ret;
}

/*
 * SET_EVENT: what the device does when it completes a signal with this
 * event, done by a CPU thread that changed the signal.
 */
long hsagpu_ioctl_set_event(struct hsagpu_file *hf, void *data)
{
	u32 id = ((struct hsagpu_event_id *)data)->event_id;
	int ret = 0;

	mutex_lock(&hf->lock);
	if (hsagpu_event_live(hf, id))
		/* Pairs with the waiters' READ_ONCE/xchg of the slot. */
		smp_store_release(&hf->events[id - 1], (u64)id);
	else
		ret = -EINVAL;
	mutex_unlock(&hf->lock);
	if (!ret)
		wake_up_all(hf->event_wq);
	return ret;
}

struct hsagpu_wait {
	u64 *slots;
	atomic64_t *ages;
	u32 ids[HSAGPU_WAIT_EVENTS_MAX];
	u64 seen[HSAGPU_WAIT_EVENTS_MAX];       /* caller's ages, 0: none */
	u32 n;
	u64 signaled;           /* entries consumed (or aged) so far */
};

/* Has entry @i's event been consumed since the caller last looked? */
static bool hsagpu_wait_aged(struct hsagpu_wait *w, u32 i)
{
	return w->seen[i] &&
	       atomic64_read(&w->ages[w->ids[i] - 1]) != w->seen[i];
}

/* Is an entry not consumed yet signaled? */
static bool hsagpu_wait_pending(struct hsagpu_wait *w)
{
	u32 i;

	for (i = 0; i < w->n; i++)
		if (!(w->signaled & BIT_ULL(i)) &&
		    (READ_ONCE(w->slots[w->ids[i] - 1]) ||
		     hsagpu_wait_aged(w, i)))
			return true;
	return false;
}

/*
 * Take signaled slots back to 0 and advance their age. An event listed
 * twice is consumed once and marks every entry that names it. An entry
 * whose event another waiter consumed since the caller's age counts as
 * signaled too.
 */
static void hsagpu_wait_consume(struct hsagpu_wait *w)
{
	u32 i, j;

	for (i = 0; i < w->n; i++) {
		u64 *slot = &w->slots[w->ids[i] - 1];

		if (w->signaled & BIT_ULL(i))
			continue;
		if (READ_ONCE(*slot) &&
		    xchg(slot, HSAGPU_EVENT_SLOT_UNSIGNALED)) {
			atomic64_inc(&w->ages[w->ids[i] - 1]);
			for (j = i; j < w->n; j++)
				if (w->ids[j] == w->ids[i])
					w->signaled |= BIT_ULL(j);
		} else if (hsagpu_wait_aged(w, i)) {
			w->signaled |= BIT_ULL(i);
		}
	}
}

static bool hsagpu_wait_done(struct hsagpu_wait *w, bool all)
{
	return all ? w->signaled == GENMASK_ULL(w->n - 1, 0) : w->signaled;
}

/*
 * Returns 0 once any (HSAGPU_WAIT_ALL: every) listed event has been
 * consumed, -ETIME when timeout_ms passes first (0: just poll), -EINTR on
 * a signal (not restarted: the timeout is relative), -ENODEV when the
 * device goes away and -EIO when recovery takes the file's state. In every case .signaled is written back: events
 * consumed before an error are not lost.
 */
long hsagpu_ioctl_wait_events(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_wait_events *args = data;
	struct hsagpu_wait *w;
	bool all, infinite;
	long timeout, left;
	int ret = 0;
	u32 i;

	/* An ABI 1.2 caller's structure ends before ages_ptr: it reads 0. */
	if (args->flags & ~HSAGPU_WAIT_FLAGS_ALL ||
	    !args->num_events || args->num_events > HSAGPU_WAIT_EVENTS_MAX)
		return -EINVAL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->n = args->num_events;
	if (copy_from_user(w->ids, u64_to_user_ptr(args->events_ptr),
			   w->n * sizeof(w->ids[0])) ||
	    (args->ages_ptr &&
	     copy_from_user(w->seen, u64_to_user_ptr(args->ages_ptr),
			    w->n * sizeof(w->seen[0])))) {
		ret = -EFAULT;
		goto out;
	}

	/* The page stays until release, which cannot run during an ioctl. */
	mutex_lock(&hf->lock);
	for (i = 0; i < w->n; i++)
		if (!hsagpu_event_live(hf, w->ids[i]))
			ret = -EINVAL;
	w->slots = hf->events;
	w->ages = hf->event_age;
	mutex_unlock(&hf->lock);
	if (ret)
		goto out;

	all = args->flags & HSAGPU_WAIT_ALL;
	infinite = args->timeout_ms == HSAGPU_WAIT_INFINITE;
	timeout = infinite ? MAX_SCHEDULE_TIMEOUT :
		  (long)msecs_to_jiffies(args->timeout_ms);
	for (;;) {
		hsagpu_wait_consume(w);
		if (hsagpu_wait_done(w, all))
			break;
		if (READ_ONCE(hdev->dead)) {
			ret = -ENODEV;
			break;
		}
		if (READ_ONCE(hf->lost)) {
			ret = -EIO;
			break;
		}
		if (!timeout) {
			ret = -ETIME;
			break;
		}
		left = wait_event_interruptible_timeout(*hf->event_wq,
							hsagpu_wait_pending(w) ||
							READ_ONCE(hdev->dead) ||
							READ_ONCE(hf->lost),
							timeout);
		if (left < 0) {
			ret = -EINTR;
			break;
		}
		/* On a timeout, one last look at the slots, then -ETIME. */
		if (!infinite)
			timeout = left;
	}

	args->signaled = w->signaled;
	for (i = 0; i < w->n; i++)
		w->seen[i] = atomic64_read(&w->ages[w->ids[i] - 1]);
	if ((args->ages_ptr &&
	     copy_to_user(u64_to_user_ptr(args->ages_ptr), w->seen,
			  w->n * sizeof(w->seen[0]))))
		ret = -EFAULT;
out:
	kfree(w);
	return ret;
}

/*
 * A queue interrupt on @vector (from hard-IRQ context): the device wrote
 * an event slot of a file that owns a queue on that vector; wake those
 * files' waiters only. Vector 0 also carries queue completions when it is
 * the only vector, and reports queue errors (a queue in error may never
 * complete what somebody waits for): it wakes every file with a queue.
 *
 * Completions of a queue wake its own file. A signal of one file whose
 * event lives in another file (or on another device) is not woken by the
 * interrupt: SET_EVENT or a timeout ends such a wait.
 */
void hsagpu_event_wake_vector(struct hsagpu_device *hdev, u32 vector)
{
	u32 nvec = hdev->msix_vectors, id = 0, step = 1;
	struct hsagpu_queue *q;

	if (vector) {
		id = vector - 1;
		step = nvec - 1;
	}
	spin_lock(&hdev->wake_lock);
	for (; id < hdev->num_queues; id += step) {
		q = hdev->queues[id];
		if (q)
			wake_up_all(q->hf->event_wq);
	}
	spin_unlock(&hdev->wake_lock);
}

/* Device removal: every file's waiters see -ENODEV. */
void hsagpu_event_wake_files(struct hsagpu_device *hdev)
{
	struct hsagpu_file *hf;

	mutex_lock(&hdev->lock);
	list_for_each_entry(hf, &hdev->files, node)
		wake_up_all(hf->event_wq);
	mutex_unlock(&hdev->lock);
}

/*
 * Read-only, shared, exactly one page at index 0: the device writes the
 * slots, user space may poll them but must consume them with WAIT_EVENTS.
 * -EPERM for a writable mapping, -EINVAL for a private one (like every
 * other mapping of the file).
 */
int hsagpu_event_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma,
		      u64 index)
{
	int ret;

	if (index || vma->vm_end - vma->vm_start != PAGE_SIZE ||
	    !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	vm_flags_clear(vma, VM_MAYWRITE);

	ret = hsagpu_enter(hf->hdev);
	if (ret)
		return ret;
	mutex_lock(&hf->lock);
	ret = hsagpu_event_page_get(hf);
	/* The page table entry holds the page, whatever becomes of the device. */
	if (!ret)
		ret = vm_insert_page(vma, vma->vm_start,
				     hf->events_buf.pages[0]);
	mutex_unlock(&hf->lock);
	hsagpu_exit(hf->hdev);
	return ret;
}

/*
 * KFD: the waiters a queue interrupt of @hf wakes are the KFD process's
 * (one wait queue for all its devices: its event page is shared); NULL
 * goes back to the context's own. Under wake_lock, so that an interrupt
 * sees the old or the new queue, never a freed one: the facade resets
 * it before the process (and @wq) goes.
 */
void hsagpu_file_set_event_wq(struct hsagpu_file *hf, wait_queue_head_t *wq)
{
	struct hsagpu_device *hdev = hf->hdev;

	spin_lock_irq(&hdev->wake_lock);
	hf->event_wq = wq ? wq : &hf->own_event_wq;
	spin_unlock_irq(&hdev->wake_lock);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_file_set_event_wq, HSAGPU);
