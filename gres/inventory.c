/*
 * inventory.c - the whole node inventory: topology, HCAs with their
 * locality, hugepage pools; lookups; free.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gres_private.h"

void fs_gres_hca_free_one(struct fs_gres_hca *h);
int fs_gres_verbs_check(struct fs_gres_inventory *inv, char *err, size_t errlen);

void fs_gres_inventory_free(struct fs_gres_inventory *inv)
{
	if (!inv)
		return;
	free(inv->cpus);
	for (size_t i = 0; i < inv->nnuma; i++)
		free(inv->numa[i].cpus);
	free(inv->numa);
	for (size_t i = 0; i < inv->npci; i++) {
		free(inv->pci[i].name);
		free(inv->pci[i].busid);
		free(inv->pci[i].numa);
		free(inv->pci[i].cpus);
	}
	free(inv->pci);
	for (size_t i = 0; i < inv->nhca; i++)
		fs_gres_hca_free_one(&inv->hca[i]);
	free(inv->hca);
	free(inv->pools);
	free(inv);
}

const struct fs_gres_hca *fs_gres_hca_find(const struct fs_gres_inventory *inv, const char *name)
{
	for (size_t i = 0; inv && name && i < inv->nhca; i++)
		if (!strcmp(inv->hca[i].name, name))
			return &inv->hca[i];
	return NULL;
}

const struct fs_gres_hca *fs_gres_hca_by_uverbs(const struct fs_gres_inventory *inv,
						const char *dev)
{
	const char *base;

	if (!inv || !dev)
		return NULL;
	base = strrchr(dev, '/');
	base = base ? base + 1 : dev;
	for (size_t i = 0; i < inv->nhca; i++)
		if (inv->hca[i].uverbs[0] && !strcmp(inv->hca[i].uverbs, base))
			return &inv->hca[i];
	return NULL;
}

const struct fs_gres_numa *fs_gres_numa_find(const struct fs_gres_inventory *inv, int os_index)
{
	for (size_t i = 0; inv && i < inv->nnuma; i++)
		if (inv->numa[i].os_index == os_index)
			return &inv->numa[i];
	return NULL;
}

static int _set(char **dst, const char *src)
{
	char *s = strdup(src ? src : "");

	if (!s)
		return -1;
	free(*dst);
	*dst = s;
	return 0;
}

/*
 * Locality of each HCA, best source first: hwloc's OS device of that name
 * (its non-I/O ancestor: the union of the NUMA nodes it spans), then
 * sysfs device/numa_node with that node's CPUs, then sysfs
 * device/local_cpulist, else every CPU of the machine.
 */
int fs_gres_hca_locate(const char *root, struct fs_gres_inventory *inv, char *err, size_t errlen)
{
	for (size_t i = 0; i < inv->nhca; i++) {
		struct fs_gres_hca *h = &inv->hca[i];
		const struct fs_gres_pcidev *d = NULL;
		const struct fs_gres_numa *nu;
		char *path, *s;
		int missing;

		for (size_t j = 0; j < inv->npci; j++)
			if (inv->pci[j].kind == FS_GRES_PCI_HCA &&
			    !strcmp(inv->pci[j].name, h->name))
				d = &inv->pci[j];
		if (d && d->cpus[0]) {
			if (_set(&h->cpus, d->cpus) || _set(&h->numa, d->numa))
				goto oom;
			h->locality = "hwloc";
			continue;
		}
		if (h->numa_node >= 0 && (nu = fs_gres_numa_find(inv, h->numa_node)) &&
		    nu->cpus[0]) {
			char nb[16];

			snprintf(nb, sizeof(nb), "%d", h->numa_node);
			if (_set(&h->cpus, nu->cpus) || _set(&h->numa, nb))
				goto oom;
			h->locality = "sysfs numa_node";
			continue;
		}
		path = fs_gres_path(root, "/sys/class/infiniband/%s/device/local_cpulist", h->name);
		if (!fs_gres_read(path, &s, &missing, err, errlen)) {
			long c = fs_gres_cpulist_count(s);

			if (c < 0) {
				char q[80];

				fs_gres_quote(s, q, sizeof(q));
				fs_errf(err, errlen,
					"%s: \"%s\": not a CPU list; expected "
					"e.g. 0-7,16-23",
					path, q);
				free(s);
				free(path);
				return -1;
			}
			free(h->cpus);
			h->cpus = s;
			h->locality = "sysfs local_cpulist";
			free(path);
			continue;
		} else if (!missing) {
			free(path);
			return -1;
		}
		free(path);
		if (_set(&h->cpus, inv->cpus))
			goto oom;
		h->locality = "unknown";
	}
	return 0;
oom:
	return fs_errf(err, errlen, "out of memory");
}

int fs_gres_inventory_load(const struct fs_gres_opts *opts, struct fs_gres_inventory **out,
			   char *err, size_t errlen)
{
	struct fs_gres_inventory *inv;
	const char *root = opts && opts->sysfs_root ? opts->sysfs_root : "";
	unsigned what = opts && opts->what ? opts->what : FS_GRES_ALL;

	*out = NULL;
	if (!strcmp(root, "/"))
		root = "";
	if (!(inv = calloc(1, sizeof(*inv))))
		return fs_errf(err, errlen, "out of memory");
	if (what & FS_GRES_TOPO) {
		if (fs_gres_topo_load(opts ? opts->hwloc_xml : NULL, inv, err, errlen))
			goto fail;
	} else if (what & FS_GRES_HCA) {
		if (fs_gres_sysfs_numa(root, inv, err, errlen))
			goto fail;
		if (!(inv->cpus = strdup("")))
			goto oom;
		for (size_t i = 0; i < inv->nnuma; i++) {
			char *u = fs_gres_cpulist_union(inv->cpus, inv->numa[i].cpus);

			if (!u)
				goto oom;
			free(inv->cpus);
			inv->cpus = u;
		}
	}
	if (what & FS_GRES_HCA) {
		if (fs_gres_hca_scan(root, inv, err, errlen) ||
		    fs_gres_hca_locate(root, inv, err, errlen))
			goto fail;
		if ((what & FS_GRES_VERBS) && !root[0] && fs_gres_verbs_check(inv, err, errlen))
			goto fail;
	}
	if ((what & FS_GRES_HUGEPAGES) && fs_gres_hugepages_scan(root, inv, err, errlen))
		goto fail;
	*out = inv;
	return 0;
oom:
	fs_errf(err, errlen, "out of memory");
fail:
	fs_gres_inventory_free(inv);
	return -1;
}
