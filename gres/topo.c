/*
 * topo.c - NUMA nodes, their CPUs and the PCI locality of HCAs and NVMe,
 * from hwloc (the running machine, HWLOC_XMLFILE, or a given XML file).
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "gres_private.h"

/* hwloc's list format ("0-9,20") is a cpulist; the empty set is "". */
static char *_list(hwloc_const_bitmap_t set)
{
	char *s = NULL;

	if (!set || hwloc_bitmap_iszero(set))
		return strdup("");
	if (hwloc_bitmap_list_asprintf(&s, set) < 0)
		return NULL;
	return s;
}

static int _add_pci(hwloc_topology_t topo, hwloc_obj_t os, enum fs_gres_pci_kind kind,
		    struct fs_gres_inventory *inv, size_t *cap)
{
	struct fs_gres_pcidev *d;
	hwloc_obj_t anc, p;
	char bus[32] = "";

	if (inv->npci == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct fs_gres_pcidev *nv = realloc(inv->pci, nc * sizeof(*nv));

		if (!nv)
			return -1;
		inv->pci = nv;
		*cap = nc;
	}
	for (p = os->parent; p; p = p->parent)
		if (p->type == HWLOC_OBJ_PCI_DEVICE) {
			snprintf(bus, sizeof(bus), "%04x:%02x:%02x.%01x", p->attr->pcidev.domain,
				 p->attr->pcidev.bus, p->attr->pcidev.dev, p->attr->pcidev.func);
			break;
		}
	anc = hwloc_get_non_io_ancestor_obj(topo, os);
	d = &inv->pci[inv->npci];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->name = strdup(os->name ? os->name : "");
	d->busid = strdup(bus);
	d->numa = _list(anc ? anc->nodeset : NULL);
	d->cpus = _list(anc ? anc->cpuset : NULL);
	inv->npci++;
	if (!d->name || !d->busid || !d->numa || !d->cpus)
		return -1;
	return 0;
}

int fs_gres_topo_load(const char *hwloc_xml, struct fs_gres_inventory *inv, char *err,
		      size_t errlen)
{
	hwloc_topology_t topo;
	hwloc_obj_t o;
	size_t cap = 0;
	int n, rc = -1;

	if (hwloc_topology_init(&topo) < 0)
		return fs_errf(err, errlen, "hwloc: cannot initialise: %s", strerror(errno));
	hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	if (hwloc_xml && hwloc_xml[0] && hwloc_topology_set_xml(topo, hwloc_xml) < 0) {
		fs_errf(err, errlen,
			"%s: cannot use as hwloc topology: %s; expected an "
			"hwloc XML file (lstopo foo.xml)",
			hwloc_xml, strerror(errno));
		goto out;
	}
	if (hwloc_topology_load(topo) < 0) {
		fs_errf(err, errlen,
			"%s: hwloc cannot load the topology: %s; "
			"expected a readable hwloc XML file",
			hwloc_xml && hwloc_xml[0] ? hwloc_xml
			: getenv("HWLOC_XMLFILE") ? getenv("HWLOC_XMLFILE")
						  : "this machine",
			strerror(errno));
		goto out;
	}

	o = hwloc_get_root_obj(topo);
	if (!(inv->cpus = _list(o->cpuset)))
		goto oom;
	n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	inv->npus = n > 0 ? (unsigned)n : 0;
	n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	inv->ncores = n > 0 ? (unsigned)n : inv->npus;

	n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
	if (n > 0 && !(inv->numa = calloc((size_t)n, sizeof(*inv->numa))))
		goto oom;
	/* hwloc orders NUMA nodes by logical index; we want OS order */
	for (unsigned want = 0, done = 0; done < (unsigned)n; want++) {
		o = hwloc_get_numanode_obj_by_os_index(topo, want);
		if (!o) {
			if (want > 65536)
				break;
			continue;
		}
		struct fs_gres_numa *nu = &inv->numa[inv->nnuma];
		int c;

		nu->os_index = (int)o->os_index;
		if (!(nu->cpus = _list(o->cpuset)))
			goto oom;
		c = hwloc_get_nbobjs_inside_cpuset_by_type(topo, o->cpuset, HWLOC_OBJ_CORE);
		nu->ncores = c > 0 ? (unsigned)c : 0;
		c = hwloc_get_nbobjs_inside_cpuset_by_type(topo, o->cpuset, HWLOC_OBJ_PU);
		nu->npus = c > 0 ? (unsigned)c : 0;
		inv->nnuma++;
		done++;
	}

	for (o = hwloc_get_next_osdev(topo, NULL); o; o = hwloc_get_next_osdev(topo, o)) {
		enum fs_gres_pci_kind kind;

		if (!o->name)
			continue;
		if (o->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS)
			kind = FS_GRES_PCI_HCA;
		else if (o->attr->osdev.type == HWLOC_OBJ_OSDEV_BLOCK &&
			 !strncmp(o->name, "nvme", 4))
			kind = FS_GRES_PCI_NVME;
		else
			continue;
		if (_add_pci(topo, o, kind, inv, &cap))
			goto oom;
	}
	rc = 0;
	goto out;
oom:
	fs_errf(err, errlen, "out of memory");
out:
	hwloc_topology_destroy(topo);
	return rc;
}
