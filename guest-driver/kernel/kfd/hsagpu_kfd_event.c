// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: KFD events, with amdkfd's semantics (Linux 6.1
 * kfd_events.c) on hsagpu.ko's interrupt path.
 *
 * Signal events have a slot in the process's event page: on a dGPU
 * libhsakmt allocates the page itself (a GTT buffer) and passes its
 * handle with the first CREATE_EVENT; the driver maps it into the kernel
 * and sets every slot to all-ones (unsignalled). A signal event's id is
 * its slot number. ROCr puts the slot's address and the id into the
 * signal (event_mailbox_ptr, event_id); the device writes the id into the
 * slot and raises the queue's MSI-X vector, and hsagpu.ko wakes the wait
 * queue of the context that owns the queue, which for a KFD context is
 * the process's (hsagpu_file_set_event_wq()). Whoever looks next (a
 * waiter, SET/RESET_EVENT) acknowledges written slots (back to all-ones)
 * and sets their events: amdkfd does that in its interrupt handler, the
 * result is the same.
 *
 * Setting an event (amdkfd's set_event()): every waiter on it wakes; an
 * auto-reset event that woke someone stays unsignalled, else it stays
 * signalled until a waiter takes it (auto-reset) or RESET_EVENT.
 *
 * Memory-exception events (type MEMORY) are set when a queue of the
 * process takes a VM fault, with the faulting page, the device and the
 * kind of fault, which WAIT_EVENTS copies out for them.
 *
 * Queues hsagpu.ko takes away (its watchdog found one hung: the context
 * loses them all) end the process's waits as a failed queue does: their
 * inactive signals say ERROR and their events are set, so that ROCr calls
 * the queues' error callbacks (hsagpu_kfd_queue_lost()); a context with
 * no AQL queue to tell through sets the memory events instead, with
 * ErrorType GPU hang (ROCr: "Generic hang recovery", then it aborts).
 *
 * Other non-signal types can be created and waited on (amdkfd does not
 * check the type either) but nothing sets them. Ids of non-signal
 * events start at 2^30, as amdkfd's.
 *
 * One deviation: a wait longer than amdkfd honours (over 2^31 - 1 ms,
 * which amdkfd cuts to that) ends with TIMEOUT after a second. ROCr 5.2
 * waits "for ever" so (0xFFFFFFFE ms) and loses wake-ups: all the queues
 * of a process share one auto-reset event, and two threads can sleep on
 * it (hsa_queue_destroy() waiting for the async-events thread, which
 * waits for the other queues). When one sets it while the other has read
 * the old signal value but is not asleep yet, the setter's own next wait
 * takes the set (auto-reset, as amdkfd) and the other sleeps for good.
 * AMD fixed it in ROCr with KFD 1.14's event age; ROCr 5.2 looks at its
 * signal after every return, so the slice turns the hang into a delay.
 */
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "hsagpu_kfd.h"

#define HSAGPU_KFD_SLOT_IDLE            U64_MAX /* UNSIGNALED_EVENT_SLOT */
#define HSAGPU_KFD_FIRST_NONSIGNAL_ID   ((INT_MAX >> 1) + 1)
#define HSAGPU_KFD_TIMEOUT_INFINITE     U32_MAX
/* amdkfd's longest finite timeout (user_timeout_to_jiffies()) */
#define HSAGPU_KFD_TIMEOUT_MAX          0x7fffffffU
/* How long a wait past it sleeps: ROCr's "for ever" (see above) */
#define HSAGPU_KFD_TIMEOUT_SLICE_MS     1000

struct hsagpu_kfd_event {
	u32 id;
	u32 type;                       /* KFD_IOC_EVENT_* */
	bool auto_reset;
	bool signaled;
	struct list_head waiters;       /* struct hsagpu_kfd_waiter.node */
	struct kfd_hsa_memory_exception_data mem;   /* MEMORY */
};

/* One entry of a WAIT_EVENTS call. */
struct hsagpu_kfd_waiter {
	struct list_head node;          /* ev->waiters while not activated */
	struct hsagpu_kfd_event *ev;    /* NULL: destroyed meanwhile */
	u32 id;
	bool activated;
};

static bool hsagpu_kfd_event_has_slot(u32 type)
{
	return type == KFD_IOC_EVENT_SIGNAL || type == KFD_IOC_EVENT_DEBUG_EVENT;
}

void hsagpu_kfd_event_init(struct hsagpu_kfd_process *p)
{
	mutex_init(&p->event_lock);
	idr_init(&p->events);
	init_waitqueue_head(&p->event_wq);
}

/* amdkfd's set_event(). p->event_lock held. */
static void hsagpu_kfd_event_set(struct hsagpu_kfd_process *p,
				 struct hsagpu_kfd_event *ev)
{
	struct hsagpu_kfd_waiter *w;

	bool taken = false;

	lockdep_assert_held(&p->event_lock);
	/* An auto-reset event is consumed by the waiters it wakes. */
	list_for_each_entry(w, &ev->waiters, node) {
		if (!w->activated) {
			WRITE_ONCE(w->activated, true);
			taken = true;
		}
	}
	ev->signaled = !ev->auto_reset || !taken;
	wake_up_all(&p->event_wq);
}

/* VM faults reported by the process's devices so far. */
static u32 hsagpu_kfd_event_fault_count(struct hsagpu_kfd_process *p)
{
	struct hsagpu_kfd_pdd *pdd;
	u32 n = 0;

	list_for_each_entry(pdd, &p->pdds, node)
		n += hsagpu_device_vm_faults(pdd->kdev->hdev);
	return n;
}

/* Contexts of the process taken away: tell ROCr (see above). */
static void hsagpu_kfd_event_lost(struct hsagpu_kfd_process *p)
{
	struct hsagpu_kfd_lost *lost = kzalloc(sizeof(*lost), GFP_KERNEL);
	struct hsagpu_kfd_event *ev;
	u32 i;
	int id;

	if (!lost)
		return;         /* the next look tries again */
	hsagpu_kfd_queue_lost(p, lost);
	for (i = 0; i < lost->nevents; i++) {
		ev = lost->events[i] > INT_MAX ? NULL :
		     idr_find(&p->events, lost->events[i]);
		if (ev && ev->type == KFD_IOC_EVENT_SIGNAL)
			hsagpu_kfd_event_set(p, ev);
	}
	for (i = 0; i < lost->nhung; i++) {
		idr_for_each_entry(&p->events, ev, id) {
			if (ev->type != KFD_IOC_EVENT_MEMORY)
				continue;
			memset(&ev->mem, 0, sizeof(ev->mem));
			ev->mem.gpu_id = lost->hung_gpu[i];
			ev->mem.failure.imprecise = 1;
			ev->mem.ErrorType = KFD_MEM_ERR_GPU_HANG;
			hsagpu_kfd_event_set(p, ev);
		}
	}
	kfree(lost);
}

/*
 * What the interrupt handler of amdkfd does: acknowledge written slots
 * and set their events; set the memory events on each new VM fault of a
 * queue of the process; report queues taken away. p->event_lock held.
 */
static void hsagpu_kfd_event_poll(struct hsagpu_kfd_process *p)
{
	struct kfd_hsa_memory_exception_data mem;
	struct hsagpu_kfd_event *ev;
	u32 faults;
	int id;

	lockdep_assert_held(&p->event_lock);
	/* first: a queue's inactive signal is set before its slot is seen */
	if (hsagpu_kfd_queue_lost_pending(p))
		hsagpu_kfd_event_lost(p);
	if (p->event_slots) {
		idr_for_each_entry(&p->events, ev, id) {
			if (id >= p->event_nslots)
				break;
			if (READ_ONCE(p->event_slots[id]) != HSAGPU_KFD_SLOT_IDLE &&
			    xchg(&p->event_slots[id], HSAGPU_KFD_SLOT_IDLE) !=
			    HSAGPU_KFD_SLOT_IDLE)
				hsagpu_kfd_event_set(p, ev);
		}
	}
	if (!p->nmemory_events)
		return;
	faults = hsagpu_kfd_event_fault_count(p);
	if (faults == p->event_faults)
		return;
	p->event_faults = faults;
	while (hsagpu_kfd_queue_fault(p, &mem)) {
		idr_for_each_entry(&p->events, ev, id) {
			if (ev->type != KFD_IOC_EVENT_MEMORY)
				continue;
			ev->mem = mem;
			hsagpu_kfd_event_set(p, ev);
		}
	}
}

/*
 * The event page: buffer @handle of the process (GTT: driver pages),
 * mapped into the kernel and referenced until the process goes. As
 * amdkfd: a second page -EINVAL, an unknown handle -EINVAL, a buffer
 * that cannot be mapped into the kernel (VRAM, user memory) -EINVAL.
 */
static int hsagpu_kfd_event_page_set(struct hsagpu_kfd_process *p,
				     u64 handle)
{
	struct hsagpu_kfd_pdd *pdd;
	struct hsagpu_kfd_bo *bo;
	struct hsagpu_mem *mem;
	size_t size;
	u64 *slots;
	int ret = -EINVAL;

	lockdep_assert_held(&p->event_lock);
	if (p->event_slots)
		return -EINVAL;
	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_pdd_bind(p, HSAGPU_KFD_HANDLE_GPU(handle));
	if (IS_ERR(pdd)) {
		ret = PTR_ERR(pdd);
		goto out;
	}
	bo = hsagpu_kfd_bo_find(p, handle);
	if (!bo || !(bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT))
		goto out;
	mem = bo->mem;
	/* with a reference to the allocation, dropped by its vunmap */
	slots = hsagpu_mem_vmap(mem, &size);
	if (!slots) {
		ret = -ENOMEM;
		goto out;
	}
	memset(slots, 0xff, size);
	p->event_mem = mem;
	p->event_handle = handle;
	p->event_nslots = min_t(u64, size / sizeof(u64), INT_MAX);
	/* Last: lockless readers (waiters' wake-up checks) see a full page. */
	smp_store_release(&p->event_slots, slots);
	ret = 0;
out:
	mutex_unlock(&p->lock);
	return ret;
}

/* FREE_MEMORY_OF_GPU of the event page: amdkfd refuses it (-EPERM). */
bool hsagpu_kfd_event_page_is(struct hsagpu_kfd_process *p, u64 handle)
{
	return READ_ONCE(p->event_slots) && p->event_handle == handle;
}

int hsagpu_kfd_ioctl_create_event(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_create_event_args *args = data;
	struct hsagpu_kfd_event *ev;
	int ret = 0, id;

	mutex_lock(&p->event_lock);
	/* dGPU: the first call brings the page (its buffer handle) */
	if (args->event_page_offset) {
		ret = hsagpu_kfd_event_page_set(p, args->event_page_offset);
		if (ret)
			goto out;
	}
	ev = kzalloc(sizeof(*ev), GFP_KERNEL_ACCOUNT);
	if (!ev) {
		ret = -ENOMEM;
		goto out;
	}
	ev->type = args->event_type;
	ev->auto_reset = args->auto_reset;
	INIT_LIST_HEAD(&ev->waiters);
	args->event_page_offset = 0;
	if (hsagpu_kfd_event_has_slot(ev->type)) {
		/*
		 * amdkfd makes a kernel page for APUs, which map it through
		 * /dev/kfd; the device reaches none but GPU-mapped memory.
		 */
		if (!p->event_slots) {
			kfree(ev);
			ret = -EINVAL;
			goto out;
		}
		id = idr_alloc(&p->events, ev, 0, p->event_nslots, GFP_KERNEL);
	} else {
		id = idr_alloc(&p->events, ev, HSAGPU_KFD_FIRST_NONSIGNAL_ID, 0,
			       GFP_KERNEL);
	}
	if (id < 0) {
		kfree(ev);
		ret = id;
		goto out;
	}
	ev->id = id;
	if (hsagpu_kfd_event_has_slot(ev->type)) {
		WRITE_ONCE(p->event_slots[id], HSAGPU_KFD_SLOT_IDLE);
		args->event_page_offset = HSAGPU_KFD_MMAP_TYPE_EVENTS;
		args->event_slot_index = id;
	}
	if (ev->type == KFD_IOC_EVENT_MEMORY) {
		/* Faults from before it existed are not its. */
		if (!p->nmemory_events++)
			p->event_faults = hsagpu_kfd_event_fault_count(p);
	}
	args->event_id = id;
	args->event_trigger_data = id;
out:
	mutex_unlock(&p->event_lock);
	return ret;
}

static struct hsagpu_kfd_event *hsagpu_kfd_event_find(struct hsagpu_kfd_process *p,
						      u32 id)
{
	lockdep_assert_held(&p->event_lock);
	return id > INT_MAX ? NULL : idr_find(&p->events, id);
}

/* Its waiters fail (-EIO), as amdkfd's. p->event_lock held. */
static void hsagpu_kfd_event_destroy(struct hsagpu_kfd_process *p,
				     struct hsagpu_kfd_event *ev)
{
	struct hsagpu_kfd_waiter *w, *tmp;

	list_for_each_entry_safe(w, tmp, &ev->waiters, node) {
		WRITE_ONCE(w->ev, NULL);
		list_del_init(&w->node);
	}
	wake_up_all(&p->event_wq);
	if (ev->type == KFD_IOC_EVENT_MEMORY)
		p->nmemory_events--;
	idr_remove(&p->events, ev->id);
	kfree(ev);
}

int hsagpu_kfd_ioctl_destroy_event(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_destroy_event_args *args = data;
	struct hsagpu_kfd_event *ev;
	int ret = 0;

	mutex_lock(&p->event_lock);
	ev = hsagpu_kfd_event_find(p, args->event_id);
	if (ev)
		hsagpu_kfd_event_destroy(p, ev);
	else
		ret = -EINVAL;
	mutex_unlock(&p->event_lock);
	return ret;
}

/* Only signal events are set or reset from the CPU (-EINVAL otherwise). */
static int hsagpu_kfd_event_cpu(struct hsagpu_kfd_process *p, u32 id,
				bool set)
{
	struct hsagpu_kfd_event *ev;
	int ret = 0;

	mutex_lock(&p->event_lock);
	ev = hsagpu_kfd_event_find(p, id);
	if (!ev || ev->type != KFD_IOC_EVENT_SIGNAL) {
		ret = -EINVAL;
	} else if (set) {
		hsagpu_kfd_event_set(p, ev);
	} else {
		/* What the device wrote before counts as before the reset. */
		hsagpu_kfd_event_poll(p);
		ev->signaled = false;
	}
	mutex_unlock(&p->event_lock);
	return ret;
}

int hsagpu_kfd_ioctl_set_event(struct hsagpu_kfd_process *p, void *data)
{
	return hsagpu_kfd_event_cpu(p,
			((struct kfd_ioctl_set_event_args *)data)->event_id,
			true);
}

int hsagpu_kfd_ioctl_reset_event(struct hsagpu_kfd_process *p, void *data)
{
	return hsagpu_kfd_event_cpu(p,
			((struct kfd_ioctl_reset_event_args *)data)->event_id,
			false);
}

/* amdkfd's test_event_condition(). */
static u32 hsagpu_kfd_wait_test(struct hsagpu_kfd_waiter *w, u32 n, bool all)
{
	u32 i, activated = 0;

	for (i = 0; i < n; i++) {
		if (!READ_ONCE(w[i].ev))
			return KFD_IOC_WAIT_RESULT_FAIL;
		if (READ_ONCE(w[i].activated)) {
			if (!all)
				return KFD_IOC_WAIT_RESULT_COMPLETE;
			activated++;
		}
	}
	return activated == n ? KFD_IOC_WAIT_RESULT_COMPLETE :
				KFD_IOC_WAIT_RESULT_TIMEOUT;
}

/*
 * The sleeping waiter's wake-up condition, without locks: something it
 * waits for may have changed (the next poll decides).
 */
static bool hsagpu_kfd_wait_pending(struct hsagpu_kfd_process *p,
				    struct hsagpu_kfd_waiter *w, u32 n,
				    bool all, u32 faults)
{
	/* Pairs with the release that publishes the initialised page. */
	u64 *slots = smp_load_acquire(&p->event_slots);
	u32 i;

	/* Only what can change the result: no spinning on a wait for all. */
	if (hsagpu_kfd_wait_test(w, n, all) != KFD_IOC_WAIT_RESULT_TIMEOUT)
		return true;
	for (i = 0; i < n; i++) {
		if (READ_ONCE(w[i].activated))
			continue;
		if (slots && w[i].id < READ_ONCE(p->event_nslots) &&
		    READ_ONCE(slots[w[i].id]) != HSAGPU_KFD_SLOT_IDLE)
			return true;
	}
	if (hsagpu_kfd_queue_lost_pending(p))
		return true;
	return READ_ONCE(p->nmemory_events) &&
	       hsagpu_kfd_event_fault_count(p) != faults;
}

/* Memory-exception data of the activated MEMORY events. */
static int hsagpu_kfd_wait_copy_out(struct hsagpu_kfd_waiter *w, u32 n,
				    struct kfd_event_data __user *data)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (!w[i].activated || !w[i].ev ||
		    w[i].ev->type != KFD_IOC_EVENT_MEMORY)
			continue;
		if (copy_to_user(&data[i].memory_exception_data, &w[i].ev->mem,
				 sizeof(w[i].ev->mem)))
			return -EFAULT;
	}
	return 0;
}

/*
 * WAIT_EVENTS, as amdkfd's kfd_wait_on_events(): 0 with wait_result
 * COMPLETE (any or all events set) or TIMEOUT; an unknown event -EINVAL,
 * an event destroyed while waited on -EIO, a signal -ERESTARTSYS with
 * the time left written back (-EINTR for a fatal one); every error
 * reports wait_result FAIL. Timeout 0 only looks, U32_MAX never ends,
 * one above 2^31 - 1 ms ends after HSAGPU_KFD_TIMEOUT_SLICE_MS.
 */
int hsagpu_kfd_ioctl_wait_events(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_wait_events_args *args = data;
	struct kfd_event_data __user *events = u64_to_user_ptr(args->events_ptr);
	u32 n = args->num_events, i, faults;
	u32 result = KFD_IOC_WAIT_RESULT_FAIL;
	bool all = args->wait_for_all;
	struct hsagpu_kfd_waiter *w;
	struct hsagpu_kfd_event *ev;
	long timeout, left;
	int ret = 0;

	if (!args->timeout)
		timeout = 0;
	else if (args->timeout == HSAGPU_KFD_TIMEOUT_INFINITE)
		timeout = MAX_SCHEDULE_TIMEOUT;
	else if (args->timeout > HSAGPU_KFD_TIMEOUT_MAX)
		/* ROCr's "for ever": a lost wake-up must not hang it */
		timeout = msecs_to_jiffies(HSAGPU_KFD_TIMEOUT_SLICE_MS) + 1;
	else
		timeout = msecs_to_jiffies(args->timeout) + 1;

	/* As amdkfd: as many as memory allows (kcalloc), without a warning */
	w = kcalloc(n, sizeof(*w), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!w) {
		ret = -ENOMEM;
		goto out;
	}

	mutex_lock(&p->event_lock);
	for (i = 0; i < n; i++) {
		struct kfd_event_data ed;

		INIT_LIST_HEAD(&w[i].node);
		if (copy_from_user(&ed, &events[i], sizeof(ed))) {
			ret = -EFAULT;
			goto out_unlock;
		}
		ev = hsagpu_kfd_event_find(p, ed.event_id);
		if (!ev) {
			ret = -EINVAL;
			goto out_unlock;
		}
		w[i].ev = ev;
		w[i].id = ed.event_id;
		w[i].activated = ev->signaled;
		ev->signaled = ev->signaled && !ev->auto_reset;
		/* every waiter: DESTROY_EVENT must find it (-EIO) */
		list_add_tail(&w[i].node, &ev->waiters);
	}

	for (;;) {
		hsagpu_kfd_event_poll(p);
		result = hsagpu_kfd_wait_test(w, n, all);
		faults = p->event_faults;
		mutex_unlock(&p->event_lock);
		if (result != KFD_IOC_WAIT_RESULT_TIMEOUT || timeout <= 0)
			break;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			if (args->timeout != HSAGPU_KFD_TIMEOUT_INFINITE)
				args->timeout = jiffies_to_msecs(max(0L,
								 timeout - 1));
			break;
		}
		left = wait_event_interruptible_timeout(p->event_wq,
				hsagpu_kfd_wait_pending(p, w, n, all, faults),
				timeout);
		if (left >= 0 && timeout != MAX_SCHEDULE_TIMEOUT)
			timeout = left;
		mutex_lock(&p->event_lock);
	}

	mutex_lock(&p->event_lock);
	if (!ret && result == KFD_IOC_WAIT_RESULT_COMPLETE)
		ret = hsagpu_kfd_wait_copy_out(w, n, events);
out_unlock:
	for (i = 0; i < n; i++)
		if (w[i].ev)
			list_del(&w[i].node);
	mutex_unlock(&p->event_lock);
	kfree(w);
out:
	args->wait_result = ret ? KFD_IOC_WAIT_RESULT_FAIL : result;
	if (!ret && result == KFD_IOC_WAIT_RESULT_FAIL)
		ret = -EIO;
	return ret;
}

/* Process teardown, after its queues: nothing writes the page any more. */
void hsagpu_kfd_event_release(struct hsagpu_kfd_process *p)
{
	struct hsagpu_kfd_event *ev;
	int id;

	mutex_lock(&p->event_lock);
	idr_for_each_entry(&p->events, ev, id)
		hsagpu_kfd_event_destroy(p, ev);
	idr_destroy(&p->events);
	if (p->event_slots) {
		u64 *slots = p->event_slots;

		p->event_slots = NULL;
		hsagpu_mem_vunmap(p->event_mem, slots);
	}
	mutex_unlock(&p->event_lock);
	mutex_destroy(&p->event_lock);
}
