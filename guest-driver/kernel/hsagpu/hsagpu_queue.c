// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: user-mode AQL queues. The driver checks that a queue's ring and
 * dispatch ids lie in the caller's own system memory (with GPU virtual
 * memory: in writeable mappings of the file's GPU address space), gives
 * it a hardware queue, a doorbell in the caller's doorbell page and an
 * MSI-X vector (and the file's VMID), and programs the queue's register
 * block. From then on user space writes packets and rings the doorbell
 * without the kernel.
 */
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hsagpu.h"

int hsagpu_queue_init(struct hsagpu_device *hdev)
{
	hdev->queues = kcalloc(hdev->num_queues, sizeof(*hdev->queues),
			       GFP_KERNEL);
	hdev->queues_live = bitmap_zalloc(hdev->num_queues, GFP_KERNEL);
	hdev->queues_reported = bitmap_zalloc(hdev->num_queues, GFP_KERNEL);
	if (!hdev->queues || !hdev->queues_live || !hdev->queues_reported)
		return -ENOMEM;
	return 0;
}

/* Run a queue command; the device completes it before the write returns. */
static u32 hsagpu_queue_cmd(struct hsagpu_device *hdev, u32 id, u32 cmd)
{
	u32 reg = HSAGPU_REG_QUEUE(id) + HSAGPU_QREG_CMD;
	u32 res;

	lockdep_assert_held(&hdev->lock);
	hsagpu_wr(hdev, reg, cmd);
	res = hsagpu_rd(hdev, reg);
	dev_dbg(&hdev->pdev->dev, "queue %u: command %u result %u\n", id, cmd,
		res);
	return res;
}

static int hsagpu_qres_errno(u32 res)
{
	switch (res) {
	case HSAGPU_QRES_OK:
		return 0;
	case HSAGPU_QRES_BAD_STATE:     /* e.g. RESUME of an active queue */
	case HSAGPU_QRES_BAD_DOORBELL:  /* in use */
		return -EBUSY;
	case HSAGPU_QRES_BAD_ADDRESS:
		return -EFAULT;
	case HSAGPU_QRES_BAD_COMMAND:
	case HSAGPU_QRES_BAD_RING:
	case HSAGPU_QRES_BAD_POINTER:
	case HSAGPU_QRES_BAD_VECTOR:
	case HSAGPU_QRES_BAD_PRIORITY:
	case HSAGPU_QRES_BAD_FLAGS:
		return -EINVAL;
	case HSAGPU_QRES_DEVICE_FATAL:  /* until a reset recovers it */
	default:                        /* NO_BUS_MASTER, no answer */
		return -EIO;
	}
}

/*
 * Whether @q still has its hardware queue: recovery or the watchdog may
 * have destroyed it, and its number may be another queue's now.
 */
static bool hsagpu_queue_own(struct hsagpu_device *hdev,
			     struct hsagpu_queue *q)
{
	return hdev->queues[q->hw_id] == q;
}

/*
 * Stop the hardware queue and give its number back, unless device
 * removal or recovery already did. Caller holds hdev->lock (or the write
 * side of remove_sem, which excludes every other user). False when the
 * device did not confirm: it may still run the queue.
 */
bool hsagpu_queue_hw_destroy(struct hsagpu_device *hdev,
			     struct hsagpu_queue *q)
{
	u32 res;

	if (!hsagpu_queue_own(hdev, q))
		return true;
	res = hsagpu_queue_cmd(hdev, q->hw_id, HSAGPU_QCMD_DESTROY);
	if (res != HSAGPU_QRES_OK)
		dev_err(&hdev->pdev->dev, "queue %u: DESTROY failed (result %u)\n",
			q->hw_id, res);
	clear_bit(q->hw_id, hdev->queues_live);
	spin_lock_irq(&hdev->wake_lock);
	hdev->queues[q->hw_id] = NULL;
	spin_unlock_irq(&hdev->wake_lock);
	hdev->queues_active--;
	/* Its last queue gone, the file gives its VMID back. */
	if (!--q->hf->nqueues)
		hsagpu_vm_vmid_put(q->hf);
	ida_free(&hdev->queue_ida, q->hw_id);
	/*
	 * The queue's last interrupt may still be on its way, and its
	 * handler no longer finds the queue: wake the owner's waiters now,
	 * they see every slot the (stopped) queue wrote.
	 */
	wake_up_all(q->hf->event_wq);
	return res == HSAGPU_QRES_OK;
}

/* Give back what the queue held in its file. Caller holds hf->lock. */
static void hsagpu_queue_free(struct hsagpu_file *hf, struct hsagpu_queue *q)
{
	int i;

	list_del(&q->node);
	for (i = 0; i < HSAGPU_QMEM_N; i++) {
		q->mem[i]->queue_users--;
		hsagpu_mem_put(q->mem[i]);
	}
	ida_free(&hf->doorbell_slots, q->doorbell_slot);
	kfree(q);
}

static struct hsagpu_queue *hsagpu_queue_find(struct hsagpu_file *hf, u32 id)
{
	struct hsagpu_queue *q;

	lockdep_assert_held(&hf->lock);
	list_for_each_entry(q, &hf->queues, node)
		if (q->hw_id == id)
			return q;
	return NULL;
}

/* The ring's length in bytes: AQL rings count packets, SDMA rings bytes. */
static u64 hsagpu_queue_ring_bytes(const struct hsagpu_queue_params *qp)
{
	if (qp->qflags & HSAGPU_QF_SDMA)
		return qp->ring_size;
	return (u64)qp->ring_size * HSAGPU_AQL_PACKET_SIZE;
}

/* Checks that need no lock; -EINVAL for anything out of range. */
static int hsagpu_queue_check_params(const struct hsagpu_queue_params *qp)
{
	u64 ring_end;

	if (qp->qflags & ~HSAGPU_QF_ALL_KNOWN ||
	    (qp->qflags & HSAGPU_QF_SDMA && qp->qflags & HSAGPU_QF_AMD_QUEUE))
		return -EINVAL;
	if (qp->qflags & HSAGPU_QF_SDMA) {
		if (!is_power_of_2(qp->ring_size) ||
		    qp->ring_size < HSAGPU_SDMA_RING_MIN ||
		    qp->ring_size > HSAGPU_SDMA_RING_MAX ||
		    !IS_ALIGNED(qp->ring_addr, HSAGPU_SDMA_RING_ALIGN))
			return -EINVAL;
	} else if (!is_power_of_2(qp->ring_size) ||
		   qp->ring_size < HSAGPU_QUEUE_RING_MIN ||
		   qp->ring_size > HSAGPU_QUEUE_RING_MAX ||
		   !IS_ALIGNED(qp->ring_addr, HSAGPU_AQL_PACKET_SIZE)) {
		return -EINVAL;
	}
	if (qp->priority > HSAGPU_QUEUE_PRIORITY_MAX)
		return -EINVAL;
	if (!IS_ALIGNED(qp->rptr_addr, sizeof(u64)) ||
	    !IS_ALIGNED(qp->wptr_addr, sizeof(u64)))
		return -EINVAL;
	/* The device writes the read index and the ring's headers. */
	ring_end = qp->ring_addr + hsagpu_queue_ring_bytes(qp);
	if (ring_end < qp->ring_addr || qp->rptr_addr == qp->wptr_addr ||
	    (qp->rptr_addr >= qp->ring_addr && qp->rptr_addr < ring_end) ||
	    (qp->wptr_addr >= qp->ring_addr && qp->wptr_addr < ring_end))
		return -EINVAL;
	return 0;
}

/* Fill the register block and enable. Caller holds hdev->lock. */
static int hsagpu_queue_hw_create(struct hsagpu_device *hdev,
				  struct hsagpu_queue *q, u32 doorbell,
				  u32 vmid,
				  const struct hsagpu_queue_params *args)
{
	u32 base = HSAGPU_REG_QUEUE(q->hw_id);
	u32 res;

	/* Latched at ENABLE; ABI 1.2 devices have no such register. */
	if (hdev->caps & HSAGPU_CAP_VM)
		hsagpu_wr(hdev, HSAGPU_REG_QUEUE_X(q->hw_id) + HSAGPU_QXREG_VMID,
			  vmid);
	hsagpu_wr(hdev, base + HSAGPU_QREG_RING_LO, lower_32_bits(args->ring_addr));
	hsagpu_wr(hdev, base + HSAGPU_QREG_RING_HI, upper_32_bits(args->ring_addr));
	hsagpu_wr(hdev, base + HSAGPU_QREG_RING_SIZE, args->ring_size);
	hsagpu_wr(hdev, base + HSAGPU_QREG_DOORBELL, doorbell);
	hsagpu_wr(hdev, base + HSAGPU_QREG_RPTR_LO, lower_32_bits(args->rptr_addr));
	hsagpu_wr(hdev, base + HSAGPU_QREG_RPTR_HI, upper_32_bits(args->rptr_addr));
	hsagpu_wr(hdev, base + HSAGPU_QREG_WPTR_LO, lower_32_bits(args->wptr_addr));
	hsagpu_wr(hdev, base + HSAGPU_QREG_WPTR_HI, upper_32_bits(args->wptr_addr));
	hsagpu_wr(hdev, base + HSAGPU_QREG_PRIORITY, args->priority);
	hsagpu_wr(hdev, base + HSAGPU_QREG_VECTOR,
		  hsagpu_queue_vector(hdev, q->hw_id));
	hsagpu_wr(hdev, base + HSAGPU_QREG_FLAGS, args->qflags);
	/* none until hsagpu_queue_set_gws(), whoever had the number before */
	if (hdev->caps & HSAGPU_CAP_GWS)
		hsagpu_wr(hdev, HSAGPU_REG_QUEUE_GWS(q->hw_id), 0);
	res = hsagpu_queue_cmd(hdev, q->hw_id, HSAGPU_QCMD_ENABLE);
	return hsagpu_qres_errno(res);
}

/*
 * GPUVM: the allocation or registration whose writeable GPU mapping holds
 * [addr, addr + len), referenced, with the kernel address of addr in it
 * (NULL in VRAM), or NULL. Caller holds hf->lock.
 */
static struct hsagpu_mem *hsagpu_queue_vm_mem(struct hsagpu_file *hf,
					      u64 addr, u64 len,
					      const u64 **kaddr)
{
	struct hsagpu_vm *vm = hf->vm;
	struct hsagpu_vm_map *m;
	struct hsagpu_mem *mem = NULL;
	u64 off;

	mutex_lock(&vm->lock);
	m = hsagpu_vm_lookup(vm, addr, len);
	if (m && (m->kind == HSAGPU_VM_MAP_MEM ||
		  m->kind == HSAGPU_VM_MAP_USERPTR) &&
	    (m->pte & HSAGPU_PTE_WRITEABLE)) {
		/*
		 * Still in the tree, the memory is not freed yet; but a
		 * registration whose last reference FREE_MEM just dropped is
		 * on its way out (it leaves the tree under this lock).
		 */
		mem = container_of(m, struct hsagpu_mem, map);
		if (!kref_get_unless_zero(&mem->ref)) {
			mem = NULL;
		} else {
			off = addr - m->it.start;
			*kaddr = mem->flags & HSAGPU_MEM_VRAM ? NULL :
				 page_address(mem->sys.pages[off >> PAGE_SHIFT]) +
				 offset_in_page(off);
		}
	}
	mutex_unlock(&vm->lock);
	return mem;
}

/* The memory the queue's ring and indices are in, referenced. */
static int hsagpu_queue_find_mem(struct hsagpu_file *hf,
				 const struct hsagpu_queue_params *args,
				 struct hsagpu_mem **mem, const u64 **rptr,
				 const u64 **wptr)
{
	const u64 *ring;
	int i;

	lockdep_assert_held(&hf->lock);
	if (!hf->vm) {
		mem[HSAGPU_QMEM_RING] = hsagpu_mem_find_system(hf,
				args->ring_addr, hsagpu_queue_ring_bytes(args));
		mem[HSAGPU_QMEM_RPTR] = hsagpu_mem_find_system(hf,
				args->rptr_addr, sizeof(u64));
		mem[HSAGPU_QMEM_WPTR] = hsagpu_mem_find_system(hf,
				args->wptr_addr, sizeof(u64));
		for (i = 0; i < HSAGPU_QMEM_N; i++)
			if (!mem[i])
				return -EINVAL;
		for (i = 0; i < HSAGPU_QMEM_N; i++)
			kref_get(&mem[i]->ref);
		*rptr = hsagpu_mem_kaddr(mem[HSAGPU_QMEM_RPTR], args->rptr_addr);
		*wptr = hsagpu_mem_kaddr(mem[HSAGPU_QMEM_WPTR], args->wptr_addr);
		return 0;
	}
	mem[HSAGPU_QMEM_RING] = hsagpu_queue_vm_mem(hf, args->ring_addr,
			hsagpu_queue_ring_bytes(args), &ring);
	mem[HSAGPU_QMEM_RPTR] = hsagpu_queue_vm_mem(hf, args->rptr_addr,
						    sizeof(u64), rptr);
	mem[HSAGPU_QMEM_WPTR] = hsagpu_queue_vm_mem(hf, args->wptr_addr,
						    sizeof(u64), wptr);
	for (i = 0; i < HSAGPU_QMEM_N; i++)
		if (!mem[i])
			goto fault;
	return 0;
fault:
	for (i = 0; i < HSAGPU_QMEM_N; i++)
		if (mem[i])
			hsagpu_mem_put(mem[i]);
	return -EFAULT;
}

/*
 * A queue of @hf on the ring and indices @args names (addresses of the
 * file's GPU address space with GPUVM, else bus addresses of its SYSTEM
 * allocations): what CREATE_QUEUE does, and the KFD facade's queues
 * (exported). Gives the hardware queue number and the byte offset of the
 * queue's doorbell in the file's doorbell page.
 *
 * Errors: what hsagpu_queues_allowed() says (-EOPNOTSUPP without
 * AtomicOps, also when the device has no queues); -EINVAL for bad
 * arguments, including a ring not inside one of the caller's SYSTEM
 * allocations or dispatch ids outside them (GPUVM: -EFAULT when they
 * are not in writeable GPU mappings of allocations or registrations);
 * -ENOSPC when the device has no free queue, the file no free doorbell
 * or (GPUVM) every translated VMID is held by other files; -EBUSY/
 * -EFAULT/-EIO when the device refuses the registration.
 */
int hsagpu_queue_create(struct hsagpu_file *hf,
			const struct hsagpu_queue_params *args, u32 *queue_id,
			u32 *doorbell_offset)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_mem *mem[HSAGPU_QMEM_N];
	const u64 *rptr = NULL, *wptr = NULL;
	struct hsagpu_queue *q;
	int ret, page, slot, i, vmid;
	u32 doorbell;

	if (!(hdev->caps & HSAGPU_CAP_AQL_QUEUES))
		return -EOPNOTSUPP;
	ret = hsagpu_queues_allowed(hdev);
	if (ret)
		return ret;
	ret = hsagpu_queue_check_params(args);
	if (ret)
		return ret;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	ret = hsagpu_enter(hdev);
	if (ret)
		goto out_free;
	mutex_lock(&hf->lock);

	ret = hsagpu_queue_find_mem(hf, args, mem, &rptr, &wptr);
	if (ret)
		goto out_unlock;

	page = hsagpu_doorbell_page_get(hf);
	if (page < 0) {
		ret = page;
		goto out_mem;
	}
	slot = ida_alloc_max(&hf->doorbell_slots,
			     hdev->doorbells_per_page - 1, GFP_KERNEL);
	if (slot < 0) {
		ret = slot;
		goto out_mem;
	}
	doorbell = page * hdev->doorbells_per_page + slot;

	mutex_lock(&hdev->lock);
	/* Recovery may have taken the file's state since the ioctl began. */
	ret = -EIO;
	if (hf->lost)
		goto out_slot;
	ret = ida_alloc_max(&hdev->queue_ida, hdev->num_queues - 1,
			    GFP_KERNEL);
	if (ret < 0)
		goto out_slot;
	q->hw_id = ret;
	vmid = hsagpu_vm_vmid_get(hf);
	if (vmid < 0) {
		ret = vmid;
		ida_free(&hdev->queue_ida, q->hw_id);
		goto out_slot;
	}
	ret = hsagpu_queue_hw_create(hdev, q, doorbell, vmid, args);
	if (ret) {
		ida_free(&hdev->queue_ida, q->hw_id);
		if (!hf->nqueues)
			hsagpu_vm_vmid_put(hf);
		goto out_slot;
	}
	q->hf = hf;
	/*
	 * The memory holding them cannot be freed while the queue exists
	 * (the queue references it; FREE_MEM refuses while it is used).
	 */
	q->rptr = rptr;
	q->wptr = wptr;
	q->wd_rptr = U64_MAX;
	q->wd_stalled = 0;
	spin_lock_irq(&hdev->wake_lock);
	hdev->queues[q->hw_id] = q;
	spin_unlock_irq(&hdev->wake_lock);
	hdev->queues_active++;
	hf->nqueues++;
	clear_bit(q->hw_id, hdev->queues_reported);
	set_bit(q->hw_id, hdev->queues_live);
	mutex_unlock(&hdev->lock);

	q->doorbell_slot = slot;
	for (i = 0; i < HSAGPU_QMEM_N; i++) {
		q->mem[i] = mem[i];
		mem[i]->queue_users++;
	}
	list_add_tail(&q->node, &hf->queues);
	/* Another thread may destroy q as soon as the lock is dropped. */
	*queue_id = q->hw_id;
	mutex_unlock(&hf->lock);
	hsagpu_exit(hdev);

	*doorbell_offset = slot * hdev->doorbell_stride;
	return 0;

out_slot:
	mutex_unlock(&hdev->lock);
	ida_free(&hf->doorbell_slots, slot);
out_mem:
	for (i = 0; i < HSAGPU_QMEM_N; i++)
		hsagpu_mem_put(mem[i]);
out_unlock:
	mutex_unlock(&hf->lock);
	hsagpu_exit(hdev);
out_free:
	kfree(q);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_queue_create, HSAGPU);

long hsagpu_ioctl_create_queue(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_create_queue *args = data;
	struct hsagpu_queue_params qp = {
		.ring_addr = args->ring_addr,
		.rptr_addr = args->rptr_addr,
		.wptr_addr = args->wptr_addr,
		.ring_size = args->ring_size,
		.priority = args->priority,
	};
	u32 id, doorbell;
	int ret;

	if (args->flags & ~HSAGPU_QUEUE_CREATE_FLAGS_ALL)
		return -EINVAL;
	if (args->flags & HSAGPU_QUEUE_CREATE_PROFILE)
		qp.qflags |= HSAGPU_QF_PROFILE;
	ret = hsagpu_queue_create(hf, &qp, &id, &doorbell);
	if (ret)
		return ret;
	args->queue_id = id;
	args->doorbell_offset = doorbell;
	args->doorbell_mmap_offset =
		hsagpu_mmap_offset(HSAGPU_MMAP_TYPE_DOORBELL, 0);
	return 0;
}

/*
 * Enter the device and find @queue_id among @hf's queues, holding the
 * file's lock and the device's: 0 with *@qp set, or an error (-ENOENT
 * if the file has no such queue) with nothing held. Undone by
 * hsagpu_queue_unlock().
 */
static int hsagpu_queue_lock(struct hsagpu_file *hf, u32 queue_id,
			     struct hsagpu_queue **qp)
{
	struct hsagpu_device *hdev = hf->hdev;
	int ret;

	ret = hsagpu_enter(hdev);
	if (ret)
		return ret;
	mutex_lock(&hf->lock);
	*qp = hsagpu_queue_find(hf, queue_id);
	if (!*qp) {
		mutex_unlock(&hf->lock);
		hsagpu_exit(hdev);
		return -ENOENT;
	}
	mutex_lock(&hdev->lock);
	return 0;
}

static void hsagpu_queue_unlock(struct hsagpu_file *hf)
{
	mutex_unlock(&hf->hdev->lock);
	mutex_unlock(&hf->lock);
	hsagpu_exit(hf->hdev);
}

enum hsagpu_queue_op { HSAGPU_QOP_DESTROY, HSAGPU_QOP_SUSPEND,
		      HSAGPU_QOP_RESUME };

/* DESTROY, SUSPEND, RESUME: -ENOENT for a queue the file does not own. */
static long hsagpu_queue_op(struct hsagpu_file *hf, u32 queue_id,
			    enum hsagpu_queue_op op)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_queue *q;
	u32 cmd;
	int ret;

	ret = hsagpu_enter(hdev);
	if (ret)
		return ret;
	mutex_lock(&hf->lock);
	q = hsagpu_queue_find(hf, queue_id);
	if (!q) {
		ret = -ENOENT;
		goto out;
	}
	cmd = op == HSAGPU_QOP_SUSPEND ? HSAGPU_QCMD_SUSPEND :
					 HSAGPU_QCMD_RESUME;
	mutex_lock(&hdev->lock);
	if (op == HSAGPU_QOP_DESTROY)
		hsagpu_queue_hw_destroy(hdev, q);
	else
		ret = hsagpu_qres_errno(hsagpu_queue_cmd(hdev, q->hw_id, cmd));
	mutex_unlock(&hdev->lock);
	if (op == HSAGPU_QOP_DESTROY)
		hsagpu_queue_free(hf, q);
out:
	mutex_unlock(&hf->lock);
	hsagpu_exit(hdev);
	return ret;
}

/*
 * The result of CREATE_QUEUE could not be copied out: nobody learnt the
 * queue id, take the queue back.
 */
void hsagpu_ioctl_create_queue_undo(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_create_queue *args = data;

	hsagpu_queue_op(hf, args->queue_id, HSAGPU_QOP_DESTROY);
}

long hsagpu_ioctl_destroy_queue(struct hsagpu_file *hf, void *data)
{
	return hsagpu_queue_op(hf, ((struct hsagpu_queue_id *)data)->queue_id,
			       HSAGPU_QOP_DESTROY);
}

long hsagpu_ioctl_suspend_queue(struct hsagpu_file *hf, void *data)
{
	return hsagpu_queue_op(hf, ((struct hsagpu_queue_id *)data)->queue_id,
			       HSAGPU_QOP_SUSPEND);
}

long hsagpu_ioctl_resume_queue(struct hsagpu_file *hf, void *data)
{
	return hsagpu_queue_op(hf, ((struct hsagpu_queue_id *)data)->queue_id,
			       HSAGPU_QOP_RESUME);
}

/* KFD: take a queue of @hf down (exported); -ENOENT if not the file's. */
int hsagpu_queue_destroy(struct hsagpu_file *hf, u32 queue_id)
{
	return hsagpu_queue_op(hf, queue_id, HSAGPU_QOP_DESTROY);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_queue_destroy, HSAGPU);

/*
 * KFD (UPDATE_QUEUE, exported): stop or restart fetching packets. A
 * queue that is not running (suspended, in error, or taken away by
 * recovery or the watchdog) is already stopped: stopping it again is not
 * an error, ROCr suspends queues that failed. Restarting a queue in
 * error or taken away: -EIO.
 */
int hsagpu_queue_set_active(struct hsagpu_file *hf, u32 queue_id,
			    bool active)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_queue *q;
	u32 st, cmd = 0;
	int ret;

	ret = hsagpu_queue_lock(hf, queue_id, &q);
	if (ret)
		return ret;
	if (!hsagpu_queue_own(hdev, q)) {
		ret = active ? -EIO : 0;
		goto out;
	}
	st = hsagpu_rd(hdev, HSAGPU_REG_QUEUE(q->hw_id) + HSAGPU_QREG_STATE) &
	     HSAGPU_QSTATE_MASK;
	if (active && st == HSAGPU_QSTATE_SUSPENDED)
		cmd = HSAGPU_QCMD_RESUME;
	else if (active && st == HSAGPU_QSTATE_ERROR)
		ret = -EIO;
	else if (!active && (st == HSAGPU_QSTATE_ACTIVE ||
			     st == HSAGPU_QSTATE_DRAINING))
		cmd = HSAGPU_QCMD_SUSPEND;
	if (cmd)
		ret = hsagpu_qres_errno(hsagpu_queue_cmd(hdev, q->hw_id, cmd));
out:
	hsagpu_queue_unlock(hf);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_queue_set_active, HSAGPU);

/*
 * KFD (ALLOC_QUEUE_GWS, exported): @num of the device's global wave sync
 * resources for the queue's dispatches, from resource 0 (0: none).
 * -ENODEV on a device without GWS, -EINVAL above HSAGPU_GWS_MAX, -EIO
 * for a queue whose hardware queue is gone.
 */
int hsagpu_queue_set_gws(struct hsagpu_file *hf, u32 queue_id, u32 num)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_queue *q;
	int ret;

	if (!(hdev->caps & HSAGPU_CAP_GWS))
		return -ENODEV;
	if (num > HSAGPU_GWS_MAX)
		return -EINVAL;
	ret = hsagpu_queue_lock(hf, queue_id, &q);
	if (ret)
		return ret;
	if (hsagpu_queue_own(hdev, q))
		hsagpu_wr(hdev, HSAGPU_REG_QUEUE_GWS(q->hw_id), num);
	else
		ret = -EIO;
	hsagpu_queue_unlock(hf);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_queue_set_gws, HSAGPU);

/*
 * The queue's state as the device reports it; -ENOENT if not the file's.
 * A queue recovery or the watchdog destroyed reads DISABLED (its number
 * may be another queue's now). Exported: the KFD facade reads a faulting
 * queue's address.
 */
int hsagpu_queue_status_get(struct hsagpu_file *hf,
			    struct hsagpu_queue_status *args)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_queue *q;
	u32 base, st, xbase;
	int ret;

	ret = hsagpu_queue_lock(hf, args->queue_id, &q);
	if (ret)
		return ret;
	args->error_dispatch_id = 0;
	args->retired = 0;
	args->fault_addr = 0;
	args->fault_info = 0;
	if (!hsagpu_queue_own(hdev, q)) {
		args->state = HSAGPU_QSTATE_DISABLED;
		args->error = HSAGPU_QERR_NONE;
		goto out;
	}
	base = HSAGPU_REG_QUEUE(q->hw_id);
	st = hsagpu_rd(hdev, base + HSAGPU_QREG_STATE);
	args->error_dispatch_id =
		hsagpu_rd(hdev, base + HSAGPU_QREG_ERROR_ID_LO) |
		(u64)hsagpu_rd(hdev, base + HSAGPU_QREG_ERROR_ID_HI) << 32;
	args->retired = hsagpu_rd(hdev, base + HSAGPU_QREG_RETIRED);
	args->state = st & HSAGPU_QSTATE_MASK;
	args->error = (st & HSAGPU_QSTATE_ERR_MASK) >> HSAGPU_QSTATE_ERR_SHIFT;
	/* where: the fault, or the instruction of a code object */
	if ((args->error == HSAGPU_QERR_VM_FAULT ||
	     args->error == HSAGPU_QERR_ILLEGAL_INSTRUCTION ||
	     args->error == HSAGPU_QERR_TRAP) &&
	    (hdev->caps & HSAGPU_CAP_VM)) {
		xbase = HSAGPU_REG_QUEUE_X(q->hw_id);
		args->fault_addr =
			hsagpu_rd(hdev, xbase + HSAGPU_QXREG_FAULT_ADDR_LO) |
			(u64)hsagpu_rd(hdev, xbase +
				       HSAGPU_QXREG_FAULT_ADDR_HI) << 32;
		args->fault_info = hsagpu_rd(hdev, xbase +
					     HSAGPU_QXREG_FAULT_INFO);
	}
out:
	hsagpu_queue_unlock(hf);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_queue_status_get, HSAGPU);

long hsagpu_ioctl_queue_status(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_queue_status *args = data;

	/* An ABI 1.2 caller's structure ends before the fault fields. */
	if (args->reserved || args->reserved1)
		return -EINVAL;
	return hsagpu_queue_status_get(hf, args);
}

/* close(): stop the file's queues before anything they use is freed. */
void hsagpu_queue_release(struct hsagpu_file *hf)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_queue *q, *tmp;

	/* Not hsagpu_enter(): after removal the queues are already gone. */
	down_read(&hdev->remove_sem);
	mutex_lock(&hf->lock);
	list_for_each_entry_safe(q, tmp, &hf->queues, node) {
		mutex_lock(&hdev->lock);
		if (!hdev->dead)
			hsagpu_queue_hw_destroy(hdev, q);
		mutex_unlock(&hdev->lock);
		hsagpu_queue_free(hf, q);
	}
	mutex_unlock(&hf->lock);
	up_read(&hdev->remove_sem);
}

/* Device removal: stop every queue of every file. */
void hsagpu_queue_shutdown(struct hsagpu_device *hdev)
{
	u32 i;

	lockdep_assert_held_write(&hdev->remove_sem);
	mutex_lock(&hdev->lock);
	for (i = 0; i < hdev->num_queues; i++)
		if (hdev->queues[i])
			hsagpu_queue_hw_destroy(hdev, hdev->queues[i]);
	mutex_unlock(&hdev->lock);
}
