// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: KFD queues and doorbells, on hsagpu.ko's queue manager
 * (hsagpu_queue_create() and friends: the same hardware-queue, VMID,
 * doorbell, watchdog and teardown code as /dev/hsagpuN's CREATE_QUEUE).
 *
 * A KFD queue is a hardware queue of the process's context on its device;
 * ROCr gives every address (ring, amd_queue_t's dispatch ids, SDMA read
 * and write pointers) as a GPU VA of that context's address space, which
 * must be a writeable mapping made with MAP_MEMORY_TO_GPU. Queue ids are
 * the process's own (0..1023, as amdkfd's), whatever device they are on.
 *
 * Types: COMPUTE_AQL is an AQL queue whose descriptor is ROCr's
 * amd_queue_t (HSAGPU_QF_AMD_QUEUE: the device reports queue errors in
 * its queue_inactive_signal), ring_size in bytes; SDMA is an SDMA ring
 * (HSAGPU_QF_SDMA), ring_size in bytes. PM4 compute queues do not exist
 * on this device (-EINVAL), nor XGMI SDMA engines (-ENOMEM, as amdkfd
 * without free XGMI SDMA queues).
 *
 * Doorbells (SOC15 semantics, what libhsakmt expects from gfx9): the
 * returned doorbell_offset is the mmap cookie of the process's 8 KiB
 * doorbell slice of the device (type DOORBELL, gpu_id) ORed with the byte
 * offset of the queue's doorbell in the slice; mmap() of /dev/kfd at the
 * cookie maps the slice (hsagpu_doorbell_mmap_slice()).
 *
 * Errors are amdkfd's (Linux 6.1 kfd_chardev.c, kfd_process_queue_manager.c)
 * where it has the same case: argument checks in its order (-EINVAL,
 * -EFAULT for addresses that are not user addresses, -ENOTSUPP for an
 * unknown type), an unknown queue id -EINVAL (DESTROY, GWS) or -EFAULT
 * (UPDATE, SET_CU_MASK, GET_QUEUE_WAVE_STATE), no queue left on the
 * device (or 127 of the process's there, amdkfd's HWS limit) -ENOSPC, no
 * queue id left in the process -ENOMEM.
 * Where amdkfd 6.1 does not check (ring, dispatch ids not mapped in the
 * GPU space), the answer is 6.12's: -EINVAL.
 */
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hsagpu_kfd.h"

/* A queue of the process: a hardware queue of @pdd's context. */
struct hsagpu_kfd_queue {
	struct hsagpu_kfd_pdd *pdd;
	u32 hw_id;                      /* hsagpu.ko's queue number */
	u32 type;                       /* KFD_IOC_QUEUE_TYPE_* */
	u64 ring_addr;
	u64 rptr_addr;                  /* AQL: in ROCr's amd_queue_t */
	u32 ring_size;                  /* bytes */
	u32 priority;                   /* recorded: see UPDATE_QUEUE */
	u32 percentage;
	bool fault_seen;                /* its VM fault was reported */
	bool lost_told;                 /* its loss was reported */
	bool gws;                       /* the process's GWS queue */
};

static void hsagpu_kfd_queue_lost_ack(struct hsagpu_kfd_process *p,
				      struct hsagpu_kfd_queue *q);

void hsagpu_kfd_queue_init(struct hsagpu_kfd_process *p)
{
	idr_init(&p->queues);
}

/* Is [addr, addr + len) a user address range? amdkfd's access_ok(). */
static bool hsagpu_kfd_user_range(u64 addr, u64 len)
{
	return access_ok(u64_to_user_ptr(addr), len);
}

/*
 * amdkfd's set_queue_properties_from_user(), in its order, with its
 * clamp of small rings (which the caller sees).
 */
static int hsagpu_kfd_queue_check(struct kfd_ioctl_create_queue_args *a)
{
	if (a->queue_percentage > KFD_MAX_QUEUE_PERCENTAGE)
		return -EINVAL;
	if (a->queue_priority > KFD_MAX_QUEUE_PRIORITY)
		return -EINVAL;
	if (a->ring_base_address &&
	    !hsagpu_kfd_user_range(a->ring_base_address, sizeof(u64)))
		return -EFAULT;
	if (!is_power_of_2(a->ring_size) && a->ring_size)
		return -EINVAL;
	if (a->ring_size < KFD_MIN_QUEUE_RING_SIZE)
		a->ring_size = KFD_MIN_QUEUE_RING_SIZE;
	if (!hsagpu_kfd_user_range(a->read_pointer_address, sizeof(u32)) ||
	    !hsagpu_kfd_user_range(a->write_pointer_address, sizeof(u32)))
		return -EFAULT;
	if ((a->eop_buffer_address &&
	     !hsagpu_kfd_user_range(a->eop_buffer_address, sizeof(u32))) ||
	    (a->ctx_save_restore_address &&
	     !hsagpu_kfd_user_range(a->ctx_save_restore_address, sizeof(u32))))
		return -EFAULT;
	switch (a->queue_type) {
	case KFD_IOC_QUEUE_TYPE_COMPUTE:
	case KFD_IOC_QUEUE_TYPE_COMPUTE_AQL:
	case KFD_IOC_QUEUE_TYPE_SDMA:
	case KFD_IOC_QUEUE_TYPE_SDMA_XGMI:
		return 0;
	default:
		return -ENOTSUPP;
	}
}

/* The hardware queue's parameters; -EINVAL for what the device lacks. */
static int hsagpu_kfd_queue_params(const struct kfd_ioctl_create_queue_args *a,
				   struct hsagpu_queue_params *qp)
{
	memset(qp, 0, sizeof(*qp));
	qp->ring_addr = a->ring_base_address;
	qp->rptr_addr = a->read_pointer_address;
	qp->wptr_addr = a->write_pointer_address;
	qp->priority = a->queue_priority;
	/* amdkfd makes such a queue inactive; ROCr never asks for one. */
	if (!a->ring_base_address)
		return -EINVAL;
	switch (a->queue_type) {
	case KFD_IOC_QUEUE_TYPE_COMPUTE_AQL:
		qp->ring_size = a->ring_size / HSAGPU_AQL_PACKET_SIZE;
		qp->qflags = HSAGPU_QF_AMD_QUEUE;
		return 0;
	case KFD_IOC_QUEUE_TYPE_SDMA:
		qp->ring_size = a->ring_size;
		qp->qflags = HSAGPU_QF_SDMA;
		return 0;
	case KFD_IOC_QUEUE_TYPE_SDMA_XGMI:
		return -ENOMEM;
	default:                        /* PM4 */
		return -EINVAL;
	}
}

/*
 * hsagpu.ko's errors in amdkfd's terms; -ENOSPC (no hardware queue,
 * doorbell or VMID left on the device) is amdkfd's answer when a process
 * has all the queues a device takes.
 */
static int hsagpu_kfd_queue_errno(int ret)
{
	switch (ret) {
	case -EFAULT:           /* not in a writeable GPU mapping */
		return -EINVAL;
	case -EOPNOTSUPP:       /* no AtomicOps: the device cannot run it */
		return -ENODEV;
	default:
		return ret;
	}
}

/* The process's queues on @pdd's device. p->lock held. */
static u32 hsagpu_kfd_queue_count(struct hsagpu_kfd_process *p,
				  struct hsagpu_kfd_pdd *pdd)
{
	struct hsagpu_kfd_queue *q;
	u32 n = 0;
	int id;

	idr_for_each_entry(&p->queues, q, id)
		n += q->pdd == pdd;
	return n;
}

int hsagpu_kfd_ioctl_create_queue(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_create_queue_args *args = data;
	struct hsagpu_queue_params qp;
	struct hsagpu_kfd_queue *q;
	struct hsagpu_kfd_pdd *pdd;
	u32 hw_id, doorbell;
	int ret, id;

	ret = hsagpu_kfd_queue_check(args);
	if (ret)
		return ret;

	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_pdd_bind(p, args->gpu_id);
	if (IS_ERR(pdd)) {
		ret = PTR_ERR(pdd);
		goto out;
	}
	ret = hsagpu_kfd_queue_params(args, &qp);
	if (ret)
		goto out;
	ret = -ENOSPC;
	if (hsagpu_kfd_queue_count(p, pdd) >= HSAGPU_KFD_MAX_DEVICE_QUEUES)
		goto out;
	q = kzalloc(sizeof(*q), GFP_KERNEL_ACCOUNT);
	if (!q) {
		ret = -ENOMEM;
		goto out;
	}
	id = idr_alloc(&p->queues, q, 0, HSAGPU_KFD_MAX_QUEUES, GFP_KERNEL);
	if (id < 0) {
		kfree(q);
		ret = id == -ENOSPC ? -ENOMEM : id;
		goto out;
	}

	/* Its interrupts wake the process's event waiters. */
	hsagpu_file_set_event_wq(pdd->hf, &p->event_wq);
	ret = hsagpu_queue_create(pdd->hf, &qp, &hw_id, &doorbell);
	if (!ret && !args->queue_percentage) {
		/* Created, but not to run yet (amdkfd: not active) */
		ret = hsagpu_queue_set_active(pdd->hf, hw_id, false);
		if (ret)
			hsagpu_queue_destroy(pdd->hf, hw_id);
	}
	if (ret) {
		idr_remove(&p->queues, id);
		kfree(q);
		ret = hsagpu_kfd_queue_errno(ret);
		goto out;
	}
	q->pdd = pdd;
	q->hw_id = hw_id;
	q->type = args->queue_type;
	q->ring_addr = args->ring_base_address;
	q->rptr_addr = args->read_pointer_address;
	q->ring_size = args->ring_size;
	q->priority = args->queue_priority;
	q->percentage = args->queue_percentage;

	args->queue_id = id;
	args->doorbell_offset = HSAGPU_KFD_MMAP_TYPE_DOORBELL |
				HSAGPU_KFD_MMAP_GPU_ID(pdd->kdev->gpu_id) |
				doorbell;
out:
	mutex_unlock(&p->lock);
	return ret;
}

/* The queue @id of @p or NULL. p->lock held. */
static struct hsagpu_kfd_queue *hsagpu_kfd_queue_find(struct hsagpu_kfd_process *p,
						      u32 id)
{
	lockdep_assert_held(&p->lock);
	return idr_find(&p->queues, id);
}

static void hsagpu_kfd_queue_free(struct hsagpu_kfd_process *p, u32 id,
				  struct hsagpu_kfd_queue *q)
{
	/* -ENOENT: the context already stopped it (its mm went away). */
	hsagpu_queue_destroy(q->pdd->hf, q->hw_id);
	idr_remove(&p->queues, id);
	kfree(q);
}

int hsagpu_kfd_ioctl_destroy_queue(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_destroy_queue_args *args = data;
	struct hsagpu_kfd_queue *q;
	int ret = 0;

	mutex_lock(&p->lock);
	q = hsagpu_kfd_queue_find(p, args->queue_id);
	if (q) {
		hsagpu_kfd_queue_lost_ack(p, q);
		hsagpu_kfd_queue_free(p, args->queue_id, q);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&p->lock);
	return ret;
}

/*
 * UPDATE_QUEUE: ROCr suspends a queue with percentage 0 (and never
 * resumes it), and changes priorities. A queue runs while its percentage,
 * ring address and ring size are all non-zero (amdkfd's QUEUE_IS_ACTIVE).
 * The device fixes a queue's ring, and its place in the scheduling order
 * at creation: another ring is -EINVAL, a new priority is recorded only.
 */
int hsagpu_kfd_ioctl_update_queue(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_update_queue_args *args = data;
	struct hsagpu_kfd_queue *q;
	bool active;
	int ret;

	if (args->queue_percentage > KFD_MAX_QUEUE_PERCENTAGE ||
	    args->queue_priority > KFD_MAX_QUEUE_PRIORITY)
		return -EINVAL;
	if (args->ring_base_address &&
	    !hsagpu_kfd_user_range(args->ring_base_address, sizeof(u64)))
		return -EFAULT;
	if (!is_power_of_2(args->ring_size) && args->ring_size)
		return -EINVAL;

	mutex_lock(&p->lock);
	q = hsagpu_kfd_queue_find(p, args->queue_id);
	if (!q) {
		ret = -EFAULT;
		goto out;
	}
	hsagpu_kfd_queue_lost_ack(p, q);
	active = args->queue_percentage && args->ring_base_address &&
		 args->ring_size;
	if (active && (args->ring_base_address != q->ring_addr ||
		       args->ring_size != q->ring_size)) {
		ret = -EINVAL;
		goto out;
	}
	ret = hsagpu_queue_set_active(q->pdd->hf, q->hw_id, active);
	if (ret == -ENOENT)     /* stopped with its address space */
		ret = -EIO;
	if (!ret) {
		q->priority = args->queue_priority;
		q->percentage = args->queue_percentage;
	}
out:
	mutex_unlock(&p->lock);
	return ret;
}

/* Every compute unit runs every queue here: the mask is checked, not used. */
int hsagpu_kfd_ioctl_set_cu_mask(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_set_cu_mask_args *args = data;
	u32 count = args->num_cu_mask, mask[HSAGPU_KFD_MAX_CU_MASK / 32];
	int ret = 0;

	if (count % 32 || !count)
		return -EINVAL;
	/* amdkfd uses the first 1024 bits of a longer mask */
	count = min(count, HSAGPU_KFD_MAX_CU_MASK);
	if (copy_from_user(mask, u64_to_user_ptr(args->cu_mask_ptr),
			   count / 32 * sizeof(u32)))
		return -EFAULT;
	mutex_lock(&p->lock);
	if (!hsagpu_kfd_queue_find(p, args->queue_id))
		ret = -EFAULT;
	mutex_unlock(&p->lock);
	return ret;
}

/*
 * Debugger only. amdkfd answers -EINVAL for a queue without a saved
 * context (an active one, or no CWSR): this device saves none.
 */
int hsagpu_kfd_ioctl_get_queue_wave_state(struct hsagpu_kfd_process *p,
					  void *data)
{
	struct kfd_ioctl_get_queue_wave_state_args *args = data;
	int ret;

	mutex_lock(&p->lock);
	ret = hsagpu_kfd_queue_find(p, args->queue_id) ? -EINVAL : -EFAULT;
	mutex_unlock(&p->lock);
	return ret;
}

/*
 * The device's global wave sync resources for one queue of the process,
 * as amdkfd gives them: all of them (HSAGPU_GWS_MAX, from resource 0)
 * for any nonzero count, none for 0; one queue of a process at a time
 * (-EBUSY); -ENODEV on a device without GWS; -EINVAL: no such queue.
 */
int hsagpu_kfd_ioctl_alloc_queue_gws(struct hsagpu_kfd_process *p,
				     void *data)
{
	struct kfd_ioctl_alloc_queue_gws_args *args = data;
	struct hsagpu_kfd_queue *q, *o;
	int ret, id;

	mutex_lock(&p->lock);
	q = hsagpu_kfd_queue_find(p, args->queue_id);
	if (!q) {
		ret = -EINVAL;
		goto out;
	}
	if (!(q->pdd->kdev->props.caps & HSAGPU_CAP_GWS)) {
		ret = -ENODEV;
		goto out;
	}
	if (args->num_gws) {
		idr_for_each_entry(&p->queues, o, id) {
			if (o->gws && o != q) {
				ret = -EBUSY;
				goto out;
			}
		}
	}
	ret = hsagpu_queue_set_gws(q->pdd->hf, q->hw_id,
				   args->num_gws ? HSAGPU_GWS_MAX : 0);
	if (!ret) {
		q->gws = args->num_gws != 0;
		args->first_gws = 0;
	}
out:
	mutex_unlock(&p->lock);
	return ret;
}

/*
 * Memory-exception events: the VM faults of the process's queues not
 * reported yet, one at a time (0: none). Reads the device's per-queue
 * fault registers; p->lock is taken here.
 */
int hsagpu_kfd_queue_fault(struct hsagpu_kfd_process *p,
			   struct kfd_hsa_memory_exception_data *mem)
{
	struct hsagpu_queue_status st;
	struct hsagpu_kfd_queue *q;
	u32 access, reason;
	int id, found = 0;

	mutex_lock(&p->lock);
	idr_for_each_entry(&p->queues, q, id) {
		if (q->fault_seen)
			continue;
		memset(&st, 0, sizeof(st));
		st.queue_id = q->hw_id;
		if (hsagpu_queue_status_get(q->pdd->hf, &st) ||
		    st.error != HSAGPU_QERR_VM_FAULT)
			continue;
		q->fault_seen = true;
		access = (st.fault_info & HSAGPU_VM_FAULT_ACCESS_MASK) >>
			 HSAGPU_VM_FAULT_ACCESS_SHIFT;
		reason = (st.fault_info & HSAGPU_VM_FAULT_REASON_MASK) >>
			 HSAGPU_VM_FAULT_REASON_SHIFT;
		memset(mem, 0, sizeof(*mem));
		/* amdkfd reports the page */
		mem->va = st.fault_addr & PAGE_MASK;
		mem->gpu_id = q->pdd->kdev->gpu_id;
		mem->failure.NotPresent = reason != HSAGPU_VM_REASON_PERMISSION;
		mem->failure.ReadOnly = reason == HSAGPU_VM_REASON_PERMISSION &&
					(access == HSAGPU_VM_ACCESS_WRITE ||
					 access == HSAGPU_VM_ACCESS_ATOMIC);
		mem->failure.NoExecute = reason == HSAGPU_VM_REASON_PERMISSION &&
					 access == HSAGPU_VM_ACCESS_EXECUTE;
		found = 1;
		break;
	}
	mutex_unlock(&p->lock);
	return found;
}

/*
 * How long the queues of a lost context that had no work wait for their
 * report after those with work (unless ROCr answers before): ROCr handles
 * its queues' errors in the order it made them, and its own internal
 * queues abort the process, so the application's queue that hung must be
 * told first, and alone, for its error callback to run.
 */
#define HSAGPU_KFD_LOST_GRACE   (2 * HZ)

/* Is a report due for a context of @p hsagpu.ko took away? Lockless. */
bool hsagpu_kfd_queue_lost_pending(struct hsagpu_kfd_process *p)
{
	struct hsagpu_kfd_pdd *pdd;

	list_for_each_entry(pdd, &p->pdds, node) {
		if (!hsagpu_file_lost(pdd->hf))
			continue;
		switch (READ_ONCE(pdd->lost_stage)) {
		case 0:
			return true;
		case 1:
			if (READ_ONCE(pdd->lost_acked) ||
			    time_after(jiffies, READ_ONCE(pdd->lost_at) +
				       HSAGPU_KFD_LOST_GRACE))
				return true;
			break;
		}
	}
	return false;
}

/* ROCr's amd_queue_t of an AQL queue: read_pointer_address points into it */
static u64 hsagpu_kfd_queue_desc(struct hsagpu_kfd_queue *q)
{
	return q->rptr_addr - HSAGPU_QUEUE_DESC_RPTR;
}

/* Had @q packets the device had not consumed (it was waiting on it)? */
static bool hsagpu_kfd_queue_had_work(struct hsagpu_kfd_queue *q)
{
	u64 desc = hsagpu_kfd_queue_desc(q), r, w;

	if (get_user(r, (u64 __user *)u64_to_user_ptr(desc +
						       HSAGPU_QUEUE_DESC_RPTR)) ||
	    get_user(w, (u64 __user *)u64_to_user_ptr(desc +
						       HSAGPU_QUEUE_DESC_WPTR)))
		return false;
	return w > r;
}

/*
 * What the device does for an AQL queue that fails, for a queue that was
 * taken away: ERROR | FATAL into the value of ROCr's queue_inactive_signal
 * (the amd_queue_t holds its handle), the signal's event to be set. ROCr's
 * error handler (AqlQueue::DynamicScratchHandler) then suspends the queue
 * and calls the queue's error callback with HSA_STATUS_ERROR_EXCEPTION
 * (HIP's aborts). The memory is the process's own, written in its context
 * (a thread of it is in WAIT_EVENTS or RESET_EVENT): a bad address only
 * means nothing to report through.
 */
static int hsagpu_kfd_queue_report_lost(struct hsagpu_kfd_queue *q,
					u32 *event_id)
{
	u64 desc = hsagpu_kfd_queue_desc(q), handle;
	s64 v = (s64)(HSAGPU_AMD_QUEUE_ERROR | HSAGPU_AMD_QERR_FATAL);
	struct hsagpu_signal __user *sig;

	q->lost_told = true;
	if (q->rptr_addr < HSAGPU_QUEUE_DESC_RPTR ||
	    get_user(handle, (u64 __user *)u64_to_user_ptr(desc +
					HSAGPU_AMD_QUEUE_INACTIVE_SIGNAL)) ||
	    !handle || !IS_ALIGNED(handle, sizeof(u64)))
		return -EFAULT;
	sig = u64_to_user_ptr(handle);
	if (put_user(v, &sig->value) || get_user(*event_id, &sig->event_id))
		return -EFAULT;
	return 0;
}

/* Report @pdd's AQL queues not told yet (@busy: those with work only). */
static u32 hsagpu_kfd_queue_tell(struct hsagpu_kfd_process *p,
				 struct hsagpu_kfd_pdd *pdd, bool busy,
				 struct hsagpu_kfd_lost *lost)
{
	struct hsagpu_kfd_queue *q;
	u32 told = 0, ev;
	int id;

	idr_for_each_entry(&p->queues, q, id) {
		if (q->pdd != pdd || q->lost_told ||
		    q->type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL ||
		    (busy && !hsagpu_kfd_queue_had_work(q)) ||
		    lost->nevents >= ARRAY_SIZE(lost->events) ||
		    hsagpu_kfd_queue_report_lost(q, &ev))
			continue;
		lost->events[lost->nevents++] = ev;
		told++;
	}
	if (told)
		pdd->lost_told = true;
	return told;
}

/*
 * Contexts of @p whose queues hsagpu.ko took away (the watchdog found one
 * hung, or a reset) are reported in their AQL queues' inactive signals
 * (@lost->events: their events to set): first, alone, the queues that
 * had work (the one that hung among them), then the others once ROCr
 * answered (UPDATE_QUEUE or DESTROY_QUEUE of a reported queue) or after
 * HSAGPU_KFD_LOST_GRACE. A context with no AQL queue to tell through
 * (SDMA queues only) is named in @lost->hung_gpu, for a memory exception
 * of a GPU hang. p->event_lock held; takes p->lock.
 */
void hsagpu_kfd_queue_lost(struct hsagpu_kfd_process *p,
			   struct hsagpu_kfd_lost *lost)
{
	struct hsagpu_kfd_pdd *pdd;
	u32 told;

	mutex_lock(&p->lock);
	list_for_each_entry(pdd, &p->pdds, node) {
		if (!hsagpu_file_lost(pdd->hf) || pdd->lost_stage == 2)
			continue;
		if (pdd->lost_stage == 0) {
			told = hsagpu_kfd_queue_tell(p, pdd, true, lost);
			WRITE_ONCE(pdd->lost_at, jiffies);
			WRITE_ONCE(pdd->lost_stage, 1);
			dev_info(&pdd->kdev->props.pdev->dev,
				 "KFD: process %d lost its queues on gpu_id %u: %u with work reported\n",
				 p->pid, pdd->kdev->gpu_id, told);
			if (told)
				continue;
		} else if (!pdd->lost_acked &&
			   time_before_eq(jiffies, pdd->lost_at +
					  HSAGPU_KFD_LOST_GRACE)) {
			continue;
		}
		hsagpu_kfd_queue_tell(p, pdd, false, lost);
		WRITE_ONCE(pdd->lost_stage, 2);
		if (!pdd->lost_told &&
		    lost->nhung < ARRAY_SIZE(lost->hung_gpu))
			lost->hung_gpu[lost->nhung++] = pdd->kdev->gpu_id;
	}
	mutex_unlock(&p->lock);
}

/* ROCr answered a report (it suspends or destroys the queue). p->lock held. */
static void hsagpu_kfd_queue_lost_ack(struct hsagpu_kfd_process *p,
				      struct hsagpu_kfd_queue *q)
{
	if (!q->lost_told || READ_ONCE(q->pdd->lost_acked))
		return;
	WRITE_ONCE(q->pdd->lost_acked, true);
	/* the other queues' report is due now: let a waiter make it */
	wake_up_all(&p->event_wq);
}

/*
 * /dev/kfd mmap(): a doorbell slice (exactly its size, shared, at the
 * cookie CREATE_QUEUE returned). Event pages are not mapped this way on
 * a dGPU (libhsakmt allocates the page itself), nor MMIO: -EINVAL.
 */
int hsagpu_kfd_mmap(struct hsagpu_kfd_process *p, struct vm_area_struct *vma)
{
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u32 gpu_id = (off & HSAGPU_KFD_MMAP_GPU_ID_MASK) >>
		     HSAGPU_KFD_MMAP_GPU_ID_SHIFT;
	struct hsagpu_kfd_pdd *pdd;

	if ((off & HSAGPU_KFD_MMAP_TYPE_MASK) != HSAGPU_KFD_MMAP_TYPE_DOORBELL)
		return -EINVAL;
	if (off & ~(HSAGPU_KFD_MMAP_TYPE_MASK | HSAGPU_KFD_MMAP_GPU_ID_MASK) ||
	    vma->vm_end - vma->vm_start != HSAGPU_KFD_DOORBELL_SLICE)
		return -EINVAL;
	pdd = hsagpu_kfd_pdd_bind(p, gpu_id);
	if (IS_ERR(pdd))
		return PTR_ERR(pdd);
	return hsagpu_doorbell_mmap_slice(pdd->hf, vma);
}

/*
 * Process teardown, first thing: no queue of the process survives it,
 * before its events, buffers and contexts go. A context whose address
 * space went away (exit, kill) has stopped its queues already.
 */
void hsagpu_kfd_queue_release(struct hsagpu_kfd_process *p)
{
	struct hsagpu_kfd_queue *q;
	struct hsagpu_kfd_pdd *pdd;
	int id;

	mutex_lock(&p->lock);
	idr_for_each_entry(&p->queues, q, id)
		hsagpu_kfd_queue_free(p, id, q);
	idr_destroy(&p->queues);
	/* The process's wait queue goes with it. */
	list_for_each_entry(pdd, &p->pdds, node)
		hsagpu_file_set_event_wq(pdd->hf, NULL);
	mutex_unlock(&p->lock);
}
