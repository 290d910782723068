// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: the KFD topology in sysfs, under
 * /sys/devices/virtual/kfd/kfd/topology, laid out and printed the way
 * amdkfd does it (kfd_topology.c) and libhsakmt 5.2.3 parses it
 * ("name value" lines read with "%s %llu"):
 *
 *   generation_id            changes with every device bind/unbind
 *   system_properties        platform_oem/id/rev (0)
 *   nodes/0                  the CPUs: gpu_id 0, one RAM bank, one
 *                            (nominal) cache, a PCIe link to each GPU
 *   nodes/1..N               one per presented hsa-gpu, in bind order:
 *                            a gfx900 agent (gfx_target_version 90000)
 *                            with the device's PCI ids, compute units,
 *                            VRAM (one public frame-buffer bank), render
 *                            node, two (nominal) caches, a PCIe link
 *                            to node 0, and a P2P link to every other
 *                            GPU whose VRAM its DMA reaches
 *
 * Each node has gpu_id, name and properties, and mem_banks/M,
 * caches/M, io_links/M and p2p_links/M with a properties file each.
 *
 * P2P links are amdkfd's (6.1 kfd_dev_create_p2p_links()): a link from
 * GPU A to GPU B in A's p2p_links/ when A can reach B's VRAM through the
 * PCIe BAR, counted in p2p_links_count. libhsakmt 5.2.3 takes a node
 * that prints p2p_links_count as a kernel that lists every GPU-GPU link
 * itself (it then builds no indirect GPU-CPU-GPU links): without these,
 * ROCr sees no path between two GPUs and calls their memory never
 * accessible to each other (hipDeviceCanAccessPeer 0). The whole node
 * tree is rebuilt on every change (under hsagpu_kfd.lock), after the
 * generation is bumped: libhsakmt reads the generation before and after
 * its snapshot and starts again when they differ. The texts are made at
 * build time; only generation_id is live.
 */
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "hsagpu_kfd.h"

#define HSAGPU_KFD_TOPO_FILES   3
#define HSAGPU_KFD_TOPO_TEXT    PAGE_SIZE

/* A GPU node's caches: L1 (per CU) and L2 (shared); ROCr needs some. */
#define HSAGPU_KFD_GPU_CACHES   2

/* gfx9 shape: 4 SIMDs per CU, one shader array holding every CU. */
#define HSAGPU_KFD_SIMD_PER_CU  4
#define HSAGPU_KFD_GFX900       90000
#define HSAGPU_KFD_CAPABILITY   (HSA_CAP_DOORBELL_TYPE_2_0 << \
				 HSA_CAP_DOORBELL_TYPE_TOTALBITS_SHIFT)

/*
 * A directory of the tree and its files (text made when it was built,
 * NULL: the live generation).
 */
struct hsagpu_kfd_tfile {
	struct attribute attr;
	char *text;
};

struct hsagpu_kfd_tobj {
	struct kobject kobj;
	struct list_head node;          /* hsagpu_kfd.nodes, creation order */
	u32 nfiles;
	struct hsagpu_kfd_tfile files[HSAGPU_KFD_TOPO_FILES];
};

static ssize_t hsagpu_kfd_tobj_show(struct kobject *kobj,
				    struct attribute *attr, char *buf)
{
	struct hsagpu_kfd_tfile *f = container_of(attr, struct hsagpu_kfd_tfile,
						  attr);

	if (!f->text)
		return sysfs_emit(buf, "%u\n", READ_ONCE(hsagpu_kfd.generation));
	/* the text is made of whole lines, shorter than a page */
	return strscpy(buf, f->text, PAGE_SIZE);
}

static void hsagpu_kfd_tobj_release(struct kobject *kobj)
{
	struct hsagpu_kfd_tobj *t = container_of(kobj, struct hsagpu_kfd_tobj,
						 kobj);
	u32 i;

	for (i = 0; i < t->nfiles; i++)
		kfree(t->files[i].text);
	kfree(t);
}

static const struct sysfs_ops hsagpu_kfd_tobj_ops = {
	.show = hsagpu_kfd_tobj_show,
};

static const struct kobj_type hsagpu_kfd_tobj_type = {
	.release = hsagpu_kfd_tobj_release,
	.sysfs_ops = &hsagpu_kfd_tobj_ops,
};

/* The topology directory, and nodes/ in it; not in the node list. */
static struct hsagpu_kfd_tobj *hsagpu_kfd_topo_root, *hsagpu_kfd_topo_nodes;

static struct hsagpu_kfd_tobj *hsagpu_kfd_tobj_add(struct kobject *parent,
						   const char *fmt, u32 n)
{
	struct hsagpu_kfd_tobj *t = kzalloc(sizeof(*t), GFP_KERNEL);
	int ret;

	if (!t)
		return NULL;
	INIT_LIST_HEAD(&t->node);
	ret = kobject_init_and_add(&t->kobj, &hsagpu_kfd_tobj_type, parent,
				   fmt, n);
	if (ret) {
		kobject_put(&t->kobj);
		return NULL;
	}
	return t;
}

/* Takes @text (kmalloc()ed, or NULL for the generation). */
static int hsagpu_kfd_tobj_file(struct hsagpu_kfd_tobj *t, const char *name,
				char *text, bool live)
{
	struct hsagpu_kfd_tfile *f;

	if (!text && !live)
		return -ENOMEM;
	if (WARN_ON(t->nfiles >= HSAGPU_KFD_TOPO_FILES)) {
		kfree(text);
		return -EINVAL;
	}
	f = &t->files[t->nfiles++];
	f->text = text;
	f->attr.name = name;
	f->attr.mode = 0444;
	sysfs_attr_init(&f->attr);
	return sysfs_create_file(&t->kobj, &f->attr);
}

/* A text being printed: "name value" lines, as amdkfd prints them. */
struct hsagpu_kfd_text {
	char *buf;
	size_t len;
};

static __printf(2, 3) void hsagpu_kfd_printf(struct hsagpu_kfd_text *t,
					     const char *fmt, ...)
{
	va_list args;

	if (!t->buf)
		return;
	va_start(args, fmt);
	t->len += vscnprintf(t->buf + t->len, HSAGPU_KFD_TOPO_TEXT - t->len,
			     fmt, args);
	va_end(args);
}

static void hsagpu_kfd_prop(struct hsagpu_kfd_text *t, const char *name,
			    u64 value)
{
	hsagpu_kfd_printf(t, "%s %llu\n", name, value);
}

static char *hsagpu_kfd_text_new(struct hsagpu_kfd_text *t)
{
	t->buf = kzalloc(HSAGPU_KFD_TOPO_TEXT, GFP_KERNEL);
	t->len = 0;
	return t->buf;
}

/* What a node directory shows. */
struct hsagpu_kfd_node {
	u32 id;
	struct hsagpu_kfd_dev *kdev;    /* NULL: the CPU node */
	u32 ngpus;                      /* the CPU node's links */
	u32 npeers;                     /* a GPU node's P2P links, */
	u32 peers[HSAGPU_KFD_MAX_DEVICES];      /* to these nodes */
};

/* A node's direct links: a GPU's to the CPU node, the CPUs' to each GPU. */
static u32 hsagpu_kfd_io_links(const struct hsagpu_kfd_node *n)
{
	return n->kdev ? 1 : n->ngpus;
}

static void hsagpu_kfd_node_props(struct hsagpu_kfd_text *t,
				  const struct hsagpu_kfd_node *n)
{
	struct hsagpu_kfd_dev *kdev = n->kdev;
	struct pci_dev *pdev = kdev ? kdev->props.pdev : NULL;
	u32 cus = kdev ? hsagpu_kfd_compute_units(kdev) : 0;

	hsagpu_kfd_prop(t, "cpu_cores_count", kdev ? 0 : num_online_cpus());
	hsagpu_kfd_prop(t, "simd_count", cus * HSAGPU_KFD_SIMD_PER_CU);
	hsagpu_kfd_prop(t, "mem_banks_count", 1);
	hsagpu_kfd_prop(t, "caches_count", kdev ? HSAGPU_KFD_GPU_CACHES : 1);
	hsagpu_kfd_prop(t, "io_links_count", hsagpu_kfd_io_links(n));
	hsagpu_kfd_prop(t, "p2p_links_count", n->npeers);
	hsagpu_kfd_prop(t, "cpu_core_id_base", 0);
	/* amdkfd's first GPU SIMD id; distinct per node */
	hsagpu_kfd_prop(t, "simd_id_base", kdev ? 0x80001000 + n->id * 0x100 : 0);
	hsagpu_kfd_prop(t, "max_waves_per_simd", kdev ? 10 : 0);
	hsagpu_kfd_prop(t, "lds_size_in_kb", kdev ? 64 : 0);
	hsagpu_kfd_prop(t, "gds_size_in_kb", 0);
	/* what ROCr looks at to offer cooperative launches */
	hsagpu_kfd_prop(t, "num_gws", kdev && (kdev->props.caps & HSAGPU_CAP_GWS) ?
			HSAGPU_GWS_MAX : 0);
	hsagpu_kfd_prop(t, "wave_front_size", kdev ? 64 : 0);
	hsagpu_kfd_prop(t, "array_count", kdev ? 1 : 0);
	hsagpu_kfd_prop(t, "simd_arrays_per_engine", kdev ? 1 : 0);
	hsagpu_kfd_prop(t, "cu_per_simd_array", cus);
	hsagpu_kfd_prop(t, "simd_per_cu", kdev ? HSAGPU_KFD_SIMD_PER_CU : 0);
	hsagpu_kfd_prop(t, "max_slots_scratch_cu", kdev ? 32 : 0);
	hsagpu_kfd_prop(t, "gfx_target_version", kdev ? HSAGPU_KFD_GFX900 : 0);
	hsagpu_kfd_prop(t, "vendor_id", pdev ? pdev->vendor : 0);
	hsagpu_kfd_prop(t, "device_id", pdev ? pdev->device : 0);
	hsagpu_kfd_prop(t, "location_id", pdev ? pci_dev_id(pdev) : 0);
	hsagpu_kfd_prop(t, "domain", pdev ? pci_domain_nr(pdev->bus) : 0);
	hsagpu_kfd_prop(t, "drm_render_minor",
			kdev ? kdev->drm->render->index : 0);
	hsagpu_kfd_prop(t, "hive_id", 0);
	hsagpu_kfd_prop(t, "num_sdma_engines", kdev ? 2 : 0);
	hsagpu_kfd_prop(t, "num_sdma_xgmi_engines", 0);
	hsagpu_kfd_prop(t, "num_sdma_queues_per_engine", kdev ? 2 : 0);
	hsagpu_kfd_prop(t, "num_cp_queues", kdev ? kdev->props.num_queues : 0);
	if (kdev) {
		hsagpu_kfd_prop(t, "max_engine_clk_fcompute", 1000);
		hsagpu_kfd_prop(t, "local_mem_size", 0);
		/*
		 * amdkfd: the MEC and SDMA firmware versions. The engines
		 * behind both here are the device's packet processor,
		 * versioned by its ABI_VERSION register (libhsakmt keeps
		 * the low 10 bits: the minor).
		 */
		hsagpu_kfd_prop(t, "fw_version", kdev->props.abi_version);
		hsagpu_kfd_prop(t, "capability", HSAGPU_KFD_CAPABILITY);
		hsagpu_kfd_prop(t, "sdma_fw_version",
				kdev->props.abi_version);
		/* the agent's UUID: the gpu_id and the PCI location */
		hsagpu_kfd_prop(t, "unique_id", (u64)kdev->gpu_id << 32 |
				(u32)pci_domain_nr(pdev->bus) << 16 |
				pci_dev_id(pdev));
	}
	hsagpu_kfd_prop(t, "max_engine_clk_ccompute",
			cpufreq_quick_get_max(0) / 1000);
}

/* The node's only memory bank: RAM, or the whole VRAM (all in BAR0). */
static void hsagpu_kfd_mem_props(struct hsagpu_kfd_text *t,
				 const struct hsagpu_kfd_node *n)
{
	hsagpu_kfd_prop(t, "heap_type", n->kdev ? HSA_MEM_HEAP_TYPE_FB_PUBLIC :
			HSA_MEM_HEAP_TYPE_SYSTEM);
	hsagpu_kfd_prop(t, "size_in_bytes", n->kdev ? n->kdev->props.vram_size :
			(u64)totalram_pages() << PAGE_SHIFT);
	hsagpu_kfd_prop(t, "flags", 0);
	hsagpu_kfd_prop(t, "width", 64);
	hsagpu_kfd_prop(t, "mem_clk_max", n->kdev ? 1000 : 0);
}

/*
 * Caches, nominal: libhsakmt needs one on the CPU node (else it reads the
 * CPUs' caches from /sys/devices/system and fails without them) and ROCr
 * one on a GPU node. The CPU node: the first CPU's L1 data cache, 32
 * KiB. A GPU node (@idx 0, 1): a gfx9 CU's 16 KiB L1 vector cache and a
 * 4 MiB L2 shared by the CUs, 64-byte lines. Sizes in KiB.
 */
static void hsagpu_kfd_cache_props(struct hsagpu_kfd_text *t,
				   const struct hsagpu_kfd_node *n, u32 idx)
{
	u32 type = HSA_CACHE_TYPE_DATA;

	if (n->kdev)
		type |= HSA_CACHE_TYPE_HSACU;
	else
		type |= HSA_CACHE_TYPE_CPU;
	hsagpu_kfd_prop(t, "processor_id_low",
			n->kdev ? 0x80001000 + n->id * 0x100 : 0);
	hsagpu_kfd_prop(t, "level", idx + 1);
	hsagpu_kfd_prop(t, "size", n->kdev ? (idx ? 4096 : 16) : 32);
	hsagpu_kfd_prop(t, "cache_line_size", 64);
	hsagpu_kfd_prop(t, "cache_lines_per_tag", 1);
	hsagpu_kfd_prop(t, "association", n->kdev ? 16 : 8);
	hsagpu_kfd_prop(t, "latency", 1);
	hsagpu_kfd_prop(t, "type", type);
	hsagpu_kfd_printf(t, "sibling_map 1\n");
}

/* Weight of a GPU's link to the CPUs; a P2P link crosses two. */
#define HSAGPU_KFD_LINK_WEIGHT  20

/*
 * A PCIe link between node @from and node @to; @kdev is the GPU end.
 * Without AtomicOps routed to the root complex the link has no 32/64-bit
 * atomics (ROCr reads these flags for the agents' atomic support). A P2P
 * link (@peer: the GPU at the other end) has them when @kdev may issue
 * AtomicOps and @peer completes them, as amdkfd's
 * kfd_set_iolink_no_atomics() decides for the two directions.
 */
static void hsagpu_kfd_link_props(struct hsagpu_kfd_text *t, u32 from, u32 to,
				  struct hsagpu_kfd_dev *kdev,
				  struct hsagpu_kfd_dev *peer)
{
	u32 flags = HSA_IOLINK_FLAGS_ENABLED;

	if (kdev->props.atomics_errno ||
	    (peer && !(peer->props.caps & (HSAGPU_CAP_ATOMIC_COMP32 |
					   HSAGPU_CAP_ATOMIC_COMP64))))
		flags |= HSA_IOLINK_FLAGS_NO_ATOMICS_32_BIT |
			 HSA_IOLINK_FLAGS_NO_ATOMICS_64_BIT;
	hsagpu_kfd_prop(t, "type", HSA_IOLINK_TYPE_PCIEXPRESS);
	hsagpu_kfd_prop(t, "version_major", 0);
	hsagpu_kfd_prop(t, "version_minor", 0);
	hsagpu_kfd_prop(t, "node_from", from);
	hsagpu_kfd_prop(t, "node_to", to);
	hsagpu_kfd_prop(t, "weight", peer ? 2 * HSAGPU_KFD_LINK_WEIGHT :
			HSAGPU_KFD_LINK_WEIGHT);
	hsagpu_kfd_prop(t, "min_latency", 0);
	hsagpu_kfd_prop(t, "max_latency", 0);
	hsagpu_kfd_prop(t, "min_bandwidth", 0);
	hsagpu_kfd_prop(t, "max_bandwidth", 0);
	hsagpu_kfd_prop(t, "recommended_transfer_size", 0);
	hsagpu_kfd_prop(t, "flags", flags);
}

/* A directory @name/@idx under @parent with one properties file. */
static struct hsagpu_kfd_tobj *hsagpu_kfd_topo_dir(struct kobject *parent,
						   const char *fmt, u32 idx)
{
	struct hsagpu_kfd_tobj *t = hsagpu_kfd_tobj_add(parent, fmt, idx);

	if (t)
		list_add_tail(&t->node, &hsagpu_kfd.nodes);
	return t;
}

static int hsagpu_kfd_topo_node(const struct hsagpu_kfd_node *n,
				struct hsagpu_kfd_dev **gpus)
{
	struct hsagpu_kfd_tobj *node, *dir, *p2p, *sub;
	struct hsagpu_kfd_text t;
	u32 i, nlinks = hsagpu_kfd_io_links(n);
	int ret;

	node = hsagpu_kfd_topo_dir(&hsagpu_kfd_topo_nodes->kobj, "%u", n->id);
	if (!node)
		return -ENOMEM;
	ret = hsagpu_kfd_tobj_file(node, "gpu_id",
				   kasprintf(GFP_KERNEL, "%u\n", n->kdev ?
					     n->kdev->gpu_id : 0), false);
	if (ret)
		return ret;
	ret = hsagpu_kfd_tobj_file(node, "name",
				   kasprintf(GFP_KERNEL, "%s\n", n->kdev ?
					     n->kdev->props.name : ""), false);
	if (ret)
		return ret;
	if (hsagpu_kfd_text_new(&t))
		hsagpu_kfd_node_props(&t, n);
	ret = hsagpu_kfd_tobj_file(node, "properties", t.buf, false);
	if (ret)
		return ret;

	dir = hsagpu_kfd_topo_dir(&node->kobj, "mem_banks", 0);
	sub = dir ? hsagpu_kfd_topo_dir(&dir->kobj, "%u", 0) : NULL;
	if (!sub)
		return -ENOMEM;
	if (hsagpu_kfd_text_new(&t))
		hsagpu_kfd_mem_props(&t, n);
	ret = hsagpu_kfd_tobj_file(sub, "properties", t.buf, false);
	if (ret)
		return ret;

	dir = hsagpu_kfd_topo_dir(&node->kobj, "caches", 0);
	if (!dir)
		return -ENOMEM;
	for (i = 0; i < (n->kdev ? HSAGPU_KFD_GPU_CACHES : 1); i++) {
		sub = hsagpu_kfd_topo_dir(&dir->kobj, "%u", i);
		if (!sub)
			return -ENOMEM;
		if (hsagpu_kfd_text_new(&t))
			hsagpu_kfd_cache_props(&t, n, i);
		ret = hsagpu_kfd_tobj_file(sub, "properties", t.buf, false);
		if (ret)
			return ret;
	}

	dir = hsagpu_kfd_topo_dir(&node->kobj, "io_links", 0);
	p2p = hsagpu_kfd_topo_dir(&node->kobj, "p2p_links", 0);
	if (!dir || !p2p)
		return -ENOMEM;
	for (i = 0; i < nlinks; i++) {
		sub = hsagpu_kfd_topo_dir(&dir->kobj, "%u", i);
		if (!sub)
			return -ENOMEM;
		if (hsagpu_kfd_text_new(&t)) {
			if (n->kdev)
				hsagpu_kfd_link_props(&t, n->id, 0, n->kdev,
						      NULL);
			else
				hsagpu_kfd_link_props(&t, 0, i + 1, gpus[i],
						      NULL);
		}
		ret = hsagpu_kfd_tobj_file(sub, "properties", t.buf, false);
		if (ret)
			return ret;
	}
	for (i = 0; i < n->npeers; i++) {
		sub = hsagpu_kfd_topo_dir(&p2p->kobj, "%u", i);
		if (!sub)
			return -ENOMEM;
		if (hsagpu_kfd_text_new(&t))
			hsagpu_kfd_link_props(&t, n->id, n->peers[i], n->kdev,
					      gpus[n->peers[i] - 1]);
		ret = hsagpu_kfd_tobj_file(sub, "properties", t.buf, false);
		if (ret)
			return ret;
	}
	return 0;
}

/* Children first: a directory goes after everything in it. */
static void hsagpu_kfd_topo_clear(void)
{
	struct hsagpu_kfd_tobj *t;

	while (!list_empty(&hsagpu_kfd.nodes)) {
		t = list_last_entry(&hsagpu_kfd.nodes, struct hsagpu_kfd_tobj,
				    node);
		list_del(&t->node);
		kobject_del(&t->kobj);
		kobject_put(&t->kobj);
	}
}

/*
 * Rebuild the node tree from hsagpu_kfd.devices (hsagpu_kfd.lock held,
 * the generation bumped by the caller). A failure leaves a partial
 * tree, which libhsakmt refuses; it is logged.
 */
void hsagpu_kfd_topology_update(void)
{
	struct hsagpu_kfd_dev *gpus[HSAGPU_KFD_MAX_DEVICES], *kdev;
	static struct hsagpu_kfd_node n, g;     /* under hsagpu_kfd.lock */
	int ret;
	u32 i, j;

	lockdep_assert_held(&hsagpu_kfd.lock);
	if (!hsagpu_kfd_topo_nodes)
		return;
	hsagpu_kfd_topo_clear();
	memset(&n, 0, sizeof(n));
	list_for_each_entry(kdev, &hsagpu_kfd.devices, node)
		if (n.ngpus < ARRAY_SIZE(gpus))
			gpus[n.ngpus++] = kdev;
	ret = hsagpu_kfd_topo_node(&n, gpus);
	for (i = 0; !ret && i < n.ngpus; i++) {
		memset(&g, 0, sizeof(g));
		g.id = i + 1;
		g.kdev = gpus[i];
		for (j = 0; j < n.ngpus; j++)
			if (hsagpu_peer_reachable(gpus[i]->hdev, gpus[j]->hdev))
				g.peers[g.npeers++] = j + 1;
		ret = hsagpu_kfd_topo_node(&g, gpus);
	}
	if (ret)
		dev_err(hsagpu_kfd.kfd_device,
			"KFD topology incomplete: %d\n", ret);
}

int hsagpu_kfd_topology_init(void)
{
	struct hsagpu_kfd_text t;
	int ret;

	hsagpu_kfd_topo_root = hsagpu_kfd_tobj_add(&hsagpu_kfd.kfd_device->kobj,
						   "topology", 0);
	if (!hsagpu_kfd_topo_root)
		return -ENOMEM;
	ret = hsagpu_kfd_tobj_file(hsagpu_kfd_topo_root, "generation_id",
				   NULL, true);
	if (ret)
		goto fail;
	if (hsagpu_kfd_text_new(&t)) {
		hsagpu_kfd_prop(&t, "platform_oem", 0);
		hsagpu_kfd_prop(&t, "platform_id", 0);
		hsagpu_kfd_prop(&t, "platform_rev", 0);
	}
	ret = hsagpu_kfd_tobj_file(hsagpu_kfd_topo_root, "system_properties",
				   t.buf, false);
	if (ret)
		goto fail;
	hsagpu_kfd_topo_nodes = hsagpu_kfd_tobj_add(&hsagpu_kfd_topo_root->kobj,
						    "nodes", 0);
	if (!hsagpu_kfd_topo_nodes) {
		ret = -ENOMEM;
		goto fail;
	}
	mutex_lock(&hsagpu_kfd.lock);
	hsagpu_kfd_topology_update();
	mutex_unlock(&hsagpu_kfd.lock);
	return 0;
fail:
	kobject_del(&hsagpu_kfd_topo_root->kobj);
	kobject_put(&hsagpu_kfd_topo_root->kobj);
	hsagpu_kfd_topo_root = NULL;
	return ret;
}

void hsagpu_kfd_topology_exit(void)
{
	mutex_lock(&hsagpu_kfd.lock);
	hsagpu_kfd_topo_clear();
	mutex_unlock(&hsagpu_kfd.lock);
	if (hsagpu_kfd_topo_nodes) {
		kobject_del(&hsagpu_kfd_topo_nodes->kobj);
		kobject_put(&hsagpu_kfd_topo_nodes->kobj);
		hsagpu_kfd_topo_nodes = NULL;
	}
	if (hsagpu_kfd_topo_root) {
		kobject_del(&hsagpu_kfd_topo_root->kobj);
		kobject_put(&hsagpu_kfd_topo_root->kobj);
		hsagpu_kfd_topo_root = NULL;
	}
}
