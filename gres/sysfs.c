/*
 * sysfs.c - InfiniBand HCAs and ports (/sys/class/infiniband,
 * /sys/class/infiniband_verbs) and hugepage pools
 * (/sys/devices/system/node/node<N>/hugepages) under a sysfs root.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gres_private.h"

/* ------------------------------------------------------------ root */

int fs_gres_sysfs_root(const char *spec, const char *host, char **out, char *err, size_t errlen)
{
	char buf[4096], q[80], me[256] = "";
	struct stat st;
	size_t o = 0;
	char *sys;

	*out = NULL;
	if (!host && gethostname(me, sizeof(me) - 1) == 0) {
		me[strcspn(me, ".")] = '\0'; /* the short name */
		host = me;
	}
	if (!spec || !spec[0] || !strcmp(spec, "/")) {
		*out = strdup("");
		return *out ? 0 : fs_errf(err, errlen, "out of memory");
	}
	fs_gres_quote(spec, q, sizeof(q));
	if (spec[0] != '/')
		return fs_errf(err, errlen,
			       "sysfs root \"%s\": not an absolute path; "
			       "expected a directory holding sys/ (%%h "
			       "stands for the short host name)",
			       q);
	for (const char *p = spec; *p; p++) {
		if (p[0] == '%' && p[1] == 'h') {
			size_t hl = host ? strlen(host) : 0;

			if (!hl || strchr(host, '/'))
				return fs_errf(err, errlen,
					       "sysfs root \"%s\": no usable "
					       "host name for %%h",
					       q);
			if (o + hl >= sizeof(buf))
				goto toolong;
			memcpy(buf + o, host, hl);
			o += hl;
			p++;
			continue;
		}
		if (o + 1 >= sizeof(buf))
			goto toolong;
		buf[o++] = *p;
	}
	buf[o] = '\0';
	while (o > 1 && buf[o - 1] == '/')
		buf[--o] = '\0';
	if (!(sys = fs_gres_path(buf, "/sys")))
		return fs_errf(err, errlen, "out of memory");
	memset(&st, 0, sizeof(st));
	errno = 0;
	if (stat(sys, &st) || !S_ISDIR(st.st_mode)) {
		const char *why = errno ? strerror(errno) : "is not a directory";

		if (!access(sys, F_OK) && !S_ISDIR(st.st_mode))
			why = "is not a directory";
		fs_errf(err, errlen,
			"sysfs root %s: %s: %s; expected a directory "
			"holding sys/class/infiniband and/or "
			"sys/devices/system/node",
			buf, sys, why);
		free(sys);
		return -1;
	}
	free(sys);
	*out = strdup(buf);
	return *out ? 0 : fs_errf(err, errlen, "out of memory");
toolong:
	return fs_errf(err, errlen, "sysfs root \"%s\": too long", q);
}

/* ------------------------------------------------------------ listing */

static int _cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void _free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * Names in a directory (sorted, without dot entries).  A missing
 * directory gives 0 names and sets *missing.
 */
static int _list(const char *dir, char ***out, size_t *n, int *missing, char *err, size_t errlen)
{
	DIR *d;
	struct dirent *e;
	char **v = NULL;
	size_t cnt = 0, cap = 0;

	*out = NULL;
	*n = 0;
	if (missing)
		*missing = 0;
	if (!dir)
		return fs_errf(err, errlen, "out of memory");
	if (!(d = opendir(dir))) {
		if ((errno == ENOENT || errno == ENOTDIR) && missing) {
			*missing = 1;
			return 0;
		}
		return fs_errf(err, errlen, "%s: cannot list: %s", dir, strerror(errno));
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (cnt == cap) {
			char **nv;

			cap = cap ? cap * 2 : 16;
			if (!(nv = realloc(v, cap * sizeof(*v))))
				goto oom;
			v = nv;
		}
		if (!(v[cnt] = strdup(e->d_name)))
			goto oom;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), _cmp_str);
	*out = v;
	*n = cnt;
	return 0;
oom:
	closedir(d);
	_free_names(v, cnt);
	return fs_errf(err, errlen, "out of memory");
}

/* Natural order: mlx5_2 before mlx5_10, node2 before node10. */
static int _cmp_natural(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;

	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long x = strtoul(a, (char **)&a, 10);
			unsigned long y = strtoul(b, (char **)&b, 10);

			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* ------------------------------------------------------------ HCAs */

/* "<n>: <NAME>" as in ports/<n>/state and phys_state */
static int _read_state(const char *path, int *num, char **name, char *err, size_t errlen)
{
	char *s, *p, q[80];
	long v;

	if (fs_gres_read(path, &s, NULL, err, errlen))
		return -1;
	p = s;
	if (!isdigit((unsigned char)*p))
		goto bad;
	v = strtol(p, &p, 10);
	if (*p != ':' || v > 255)
		goto bad;
	p++;
	while (*p == ' ')
		p++;
	if (!*p)
		goto bad;
	for (char *c = p; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != ' ')
			goto bad;
	*num = (int)v;
	*name = strdup(p);
	free(s);
	return *name ? 0 : fs_errf(err, errlen, "out of memory");
bad:
	fs_gres_quote(s, q, sizeof(q));
	free(s);
	return fs_errf(err, errlen,
		       "%s: \"%s\": malformed state; expected "
		       "\"<number>: <NAME>\", e.g. \"4: ACTIVE\"",
		       path, q);
}

/* An optional text attribute: "" when the file is missing. */
static int _read_opt(const char *path, char **out, char *err, size_t errlen)
{
	int missing;

	if (!fs_gres_read(path, out, &missing, err, errlen))
		return 0;
	if (!missing)
		return -1;
	*out = strdup("");
	return *out ? 0 : fs_errf(err, errlen, "out of memory");
}

int fs_gres_hex_gid_ok(const char *s)
{
	/* xxxx:xxxx:xxxx:xxxx (node_guid) or 8 groups (gid) */
	size_t groups = 0, digits = 0;

	for (const char *p = s;; p++) {
		if (isxdigit((unsigned char)*p)) {
			if (++digits > 4)
				return 0;
		} else if (*p == ':' || !*p) {
			if (digits != 4)
				return 0;
			groups++;
			digits = 0;
			if (!*p)
				break;
		} else {
			return 0;
		}
	}
	return groups == 4 || groups == 8;
}

int fs_gres_gid_check(const char *path, const char *gid, char *err, size_t errlen)
{
	char q[80];

	if (fs_gres_hex_gid_ok(gid))
		return 0;
	fs_gres_quote(gid, q, sizeof(q));
	return fs_errf(err, errlen,
		       "%s: \"%s\": malformed GID; expected 8 groups of 4 "
		       "hexadecimal digits separated by ':'",
		       path, q);
}

static void _port_free(struct fs_gres_port *p)
{
	free(p->state_name);
	free(p->phys_state_name);
	free(p->link_layer);
	free(p->rate);
	free(p->gid);
	free(p->netdev);
	free(p->operstate);
}

/* A port being read: ports/<pname> of HCA hca under root, into pt. */
struct port_read {
	const char *root, *hca, *pname;
	struct fs_gres_port *pt;
};

/* The path of a file of the port (malloc'ed; NULL on ENOMEM). */
static char *_port_path(const struct port_read *r, const char *file)
{
	return fs_gres_path(r->root, "/sys/class/infiniband/%s/ports/%s/%s", r->hca, r->pname,
			    file);
}

/* The port's number: its directory's name, 1-255. */
static int _port_num(const struct port_read *r, char *err, size_t errlen)
{
	char *end, q[80];
	unsigned long v;

	errno = 0;
	v = strtoul(r->pname, &end, 10);
	if (!isdigit((unsigned char)r->pname[0]) || *end || errno || !v || v > 255) {
		fs_gres_quote(r->pname, q, sizeof(q));
		return fs_errf(err, errlen,
			       "%s/sys/class/infiniband/%s/ports/%s: "
			       "\"%s\": not a port number; expected 1-255",
			       r->root, r->hca, q, q);
	}
	r->pt->num = (unsigned)v;
	return 0;
}

/* state, and phys_state when the file exists ("" and -1 when not). */
static int _port_states(const struct port_read *r, char *err, size_t errlen)
{
	struct fs_gres_port *pt = r->pt;
	char *path = _port_path(r, "state");
	int rc = -1;

	if (_read_state(path, &pt->state, &pt->state_name, err, errlen))
		goto out;
	pt->active = pt->state == FS_PORT_ACTIVE;
	free(path);

	path = _port_path(r, "phys_state");
	if (access(path, F_OK) == 0) {
		if (_read_state(path, &pt->phys_state, &pt->phys_state_name, err, errlen))
			goto out;
	} else if (!(pt->phys_state_name = strdup(""))) {
		fs_errf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(path);
	return rc;
}

/* link_layer, and rate with its leading number (both "" when missing). */
static int _port_rate(const struct port_read *r, char *err, size_t errlen)
{
	struct fs_gres_port *pt = r->pt;
	char *path = _port_path(r, "link_layer"), q[80];
	int rc = -1;

	if (_read_opt(path, &pt->link_layer, err, errlen))
		goto out;
	free(path);

	path = _port_path(r, "rate");
	if (_read_opt(path, &pt->rate, err, errlen))
		goto out;
	if (pt->rate[0]) {
		if (!isdigit((unsigned char)pt->rate[0])) {
			fs_gres_quote(pt->rate, q, sizeof(q));
			fs_errf(err, errlen,
				"%s: \"%s\": malformed rate; expected "
				"\"<Gb/s> Gb/sec (<width> <speed>)\", e.g. "
				"\"100 Gb/sec (4X EDR)\"",
				path, q);
			goto out;
		}
		pt->rate_gbps = (unsigned)strtoul(pt->rate, NULL, 10);
	}
	rc = 0;
out:
	free(path);
	return rc;
}

/* lid (0 when the file is missing). */
static int _port_lid(const struct port_read *r, char *err, size_t errlen)
{
	char *path = _port_path(r, "lid"), *s = NULL, *end, q[80];
	unsigned long v;
	int rc = -1, missing;

	if (!fs_gres_read(path, &s, &missing, err, errlen)) {
		errno = 0;
		v = strtoul(s, &end, 0);
		if (!isdigit((unsigned char)s[0]) || *end || errno || v > 0xffff) {
			fs_gres_quote(s, q, sizeof(q));
			fs_errf(err, errlen,
				"%s: \"%s\": malformed LID; expected a "
				"hexadecimal number such as 0x1a",
				path, q);
			goto out;
		}
		r->pt->lid = (unsigned)v;
	} else if (!missing) {
		goto out;
	}
	rc = 0;
out:
	free(path);
	free(s);
	return rc;
}

/* gids/0 ("" when missing). */
static int _port_gid(const struct port_read *r, char *err, size_t errlen)
{
	struct fs_gres_port *pt = r->pt;
	char *path = _port_path(r, "gids/0");
	int rc = -1;

	if (_read_opt(path, &pt->gid, err, errlen))
		goto out;
	if (pt->gid[0] && fs_gres_gid_check(path, pt->gid, err, errlen))
		goto out;
	rc = 0;
out:
	free(path);
	return rc;
}

/* Port pname of HCA hca under root into pt: its number, then its files in
 * turn; -1 leaves nothing in pt to free. */
static int _read_port(const char *root, const char *hca, const char *pname, struct fs_gres_port *pt,
		      char *err, size_t errlen)
{
	const struct port_read r = { root, hca, pname, pt };

	memset(pt, 0, sizeof(*pt));
	pt->phys_state = -1;
	pt->gid_v2_ipv4 = pt->gid_v2_ipv6 = -1;
	if (_port_num(&r, err, errlen))
		return -1;
	if (_port_states(&r, err, errlen) || _port_rate(&r, err, errlen) ||
	    _port_lid(&r, err, errlen) || _port_gid(&r, err, errlen) ||
	    (!strcmp(pt->link_layer, "Ethernet") &&
	     fs_gres_roce_port(root, hca, pname, pt, err, errlen))) {
		_port_free(pt);
		return -1;
	}
	return 0;
}

static int _cmp_port(const void *a, const void *b)
{
	const struct fs_gres_port *x = a, *y = b;

	return (x->num > y->num) - (x->num < y->num);
}

/* The model part of an HCA name: mlx5_0 -> mlx5, qib0 -> qib. */
static char *_hca_type(const char *name)
{
	const char *us = strrchr(name, '_');
	size_t n;
	char *t;

	if (us && us != name && us[1]) {
		n = (size_t)(us - name);
	} else {
		n = strlen(name);
		while (n > 1 && isdigit((unsigned char)name[n - 1]))
			n--;
	}
	if (!(t = malloc(n + 1)))
		return NULL;
	memcpy(t, name, n);
	t[n] = '\0';
	return t;
}

static int _name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return 0;
	return 1;
}

void fs_gres_hca_free_one(struct fs_gres_hca *h);
void fs_gres_hca_free_one(struct fs_gres_hca *h)
{
	free(h->name);
	free(h->type);
	free(h->node_guid);
	free(h->uverbs);
	free(h->dev_path);
	free(h->numa);
	free(h->cpus);
	for (size_t i = 0; i < h->nports; i++)
		_port_free(&h->ports[i]);
	free(h->ports);
	memset(h, 0, sizeof(*h));
}

/* node_guid ("" when missing). */
static int _hca_guid(const char *root, const char *name, struct fs_gres_hca *h, char *err,
		     size_t errlen)
{
	char *path = fs_gres_path(root, "/sys/class/infiniband/%s/node_guid", name), q[80];
	int rc = -1;

	if (_read_opt(path, &h->node_guid, err, errlen))
		goto out;
	if (h->node_guid[0] && !fs_gres_hex_gid_ok(h->node_guid)) {
		fs_gres_quote(h->node_guid, q, sizeof(q));
		fs_errf(err, errlen,
			"%s: \"%s\": malformed GUID; expected "
			"xxxx:xxxx:xxxx:xxxx (hexadecimal)",
			path, q);
		goto out;
	}
	rc = 0;
out:
	free(path);
	return rc;
}

/* device/numa_node (left -1 when missing). */
static int _hca_numa(const char *root, const char *name, struct fs_gres_hca *h, char *err,
		     size_t errlen)
{
	char *path = fs_gres_path(root, "/sys/class/infiniband/%s/device/numa_node", name);
	char *s = NULL, *end, q[80];
	int missing, rc = -1;
	long v;

	if (!fs_gres_read(path, &s, &missing, err, errlen)) {
		errno = 0;
		v = strtol(s, &end, 10);
		if (!s[0] || *end || errno || v < -1 || v > 4095) {
			fs_gres_quote(s, q, sizeof(q));
			fs_errf(err, errlen,
				"%s: \"%s\": malformed NUMA node; expected "
				"-1 or a node number",
				path, q);
			goto out;
		}
		h->numa_node = (int)v;
	} else if (!missing) {
		goto out;
	}
	rc = 0;
out:
	free(path);
	free(s);
	return rc;
}

/* The ports (none when there is no ports directory), in number order;
 * h->nports counts those read, h->nactive the ACTIVE ones. */
static int _hca_ports(const char *root, const char *name, struct fs_gres_hca *h, char *err,
		      size_t errlen)
{
	char *path = fs_gres_path(root, "/sys/class/infiniband/%s/ports", name);
	char **ports = NULL;
	size_t np = 0;
	int missing, rc = -1;

	if (_list(path, &ports, &np, &missing, err, errlen))
		goto out;
	if (np && !(h->ports = calloc(np, sizeof(*h->ports)))) {
		fs_errf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < np; i++) {
		if (_read_port(root, name, ports[i], &h->ports[i], err, errlen))
			goto out;
		h->nports++;
		if (h->ports[i].active)
			h->nactive++;
	}
	if (h->nports > 1)
		qsort(h->ports, h->nports, sizeof(*h->ports), _cmp_port);
	rc = 0;
out:
	free(path);
	_free_names(ports, np);
	return rc;
}

/* HCA name under root into h: the name checked, then node_guid, numa_node
 * and the ports; -1 leaves nothing in h to free. */
static int _read_hca(const char *root, const char *name, struct fs_gres_hca *h, char *err,
		     size_t errlen)
{
	char q[80];

	memset(h, 0, sizeof(*h));
	h->numa_node = -1;
	if (!_name_ok(name)) {
		fs_gres_quote(name, q, sizeof(q));
		return fs_errf(err, errlen,
			       "%s/sys/class/infiniband/%s: unusable device "
			       "name; expected letters, digits, '_', '-', '.'",
			       root, q);
	}
	if (!(h->name = strdup(name)) || !(h->type = _hca_type(name)) ||
	    !(h->uverbs = strdup("")) || !(h->dev_path = strdup("")) || !(h->numa = strdup("")) ||
	    !(h->cpus = strdup(""))) {
		fs_errf(err, errlen, "out of memory");
		fs_gres_hca_free_one(h);
		return -1;
	}
	h->locality = "unknown";
	if (_hca_guid(root, name, h, err, errlen) || _hca_numa(root, name, h, err, errlen) ||
	    _hca_ports(root, name, h, err, errlen)) {
		fs_gres_hca_free_one(h);
		return -1;
	}
	return 0;
}

/* uverbsN -> ibdev links from /sys/class/infiniband_verbs */
static int _read_uverbs(const char *root, struct fs_gres_inventory *inv, char *err, size_t errlen)
{
	char **v = NULL, *path = NULL, *dev = NULL;
	size_t n = 0;
	int missing, rc = -1;

	path = fs_gres_path(root, "/sys/class/infiniband_verbs");
	if (_list(path, &v, &n, &missing, err, errlen))
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct fs_gres_hca *h = NULL;

		if (strncmp(v[i], "uverbs", 6) || !v[i][6])
			continue; /* abi_version and the like */
		free(path);
		path = fs_gres_path(root, "/sys/class/infiniband_verbs/%s/ibdev", v[i]);
		if (fs_gres_read(path, &dev, &missing, err, errlen)) {
			if (missing)
				continue;
			goto out;
		}
		for (size_t j = 0; j < inv->nhca; j++)
			if (!strcmp(inv->hca[j].name, dev))
				h = &inv->hca[j];
		if (h && !h->uverbs[0]) {
			char *u = strdup(v[i]);
			char *d = fs_gres_path("/dev/infiniband", "/%s", v[i]);

			if (!u || !d) {
				free(u);
				free(d);
				fs_errf(err, errlen, "out of memory");
				goto out;
			}
			free(h->uverbs);
			free(h->dev_path);
			h->uverbs = u;
			h->dev_path = d;
		}
		free(dev);
		dev = NULL;
	}
	rc = 0;
out:
	free(path);
	free(dev);
	_free_names(v, n);
	return rc;
}

int fs_gres_hca_scan(const char *root, struct fs_gres_inventory *inv, char *err, size_t errlen)
{
	char **names = NULL, *path;
	size_t n = 0;
	int missing, rc = -1;

	if (!root)
		root = "";
	path = fs_gres_path(root, "/sys/class/infiniband");
	if (_list(path, &names, &n, &missing, err, errlen)) {
		free(path);
		return -1;
	}
	free(path);
	if (n > 1)
		qsort(names, n, sizeof(*names), _cmp_natural);
	if (n && !(inv->hca = calloc(n, sizeof(*inv->hca)))) {
		fs_errf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (_read_hca(root, names[i], &inv->hca[i], err, errlen))
			goto out;
		inv->nhca++;
	}
	if (_read_uverbs(root, inv, err, errlen))
		goto out;
	rc = 0;
out:
	_free_names(names, n);
	return rc;
}

/* ------------------------------------------------------------ hugepages */

static int _cmp_pool(const void *a, const void *b)
{
	const struct fs_gres_hugepool *x = a, *y = b;

	if (x->numa_node != y->numa_node)
		return x->numa_node < y->numa_node ? -1 : 1;
	return (x->page_kb > y->page_kb) - (x->page_kb < y->page_kb);
}

/* The hugepage scan under way: its root, the inventory its pools go to and
 * the room allocated for them. */
struct huge_scan {
	const char *root;
	struct fs_gres_inventory *inv;
	size_t cap; /* pools allocated at inv->pools */
};

/*
 * One pool, hugepages/<size> of NUMA node node (directory nodename),
 * appended to the inventory's pools.  *path (malloc'ed) is the last path
 * read, replaced by each file read here: a bad entry's message names it,
 * which is the hugepages directory for a node's first entry, the
 * free_hugepages file of the entry before for the others.
 */
static int _huge_pool(struct huge_scan *sc, const char *nodename, long node, const char *size,
		      char **path, char *err, size_t errlen)
{
	struct fs_gres_inventory *inv = sc->inv;
	struct fs_gres_hugepool *p;
	unsigned long long kb;
	char *sp, q[80];
	int missing;

	if (strncmp(size, "hugepages-", 10) || !isdigit((unsigned char)size[10]) ||
	    (errno = 0, kb = strtoull(size + 10, &sp, 10), errno || strcmp(sp, "kB") || !kb)) {
		fs_gres_quote(size, q, sizeof(q));
		return fs_errf(err, errlen,
			       "%s/%s: unexpected entry; expected "
			       "hugepages-<size>kB, e.g. "
			       "hugepages-2048kB",
			       *path, q);
	}
	if (inv->npools == sc->cap) {
		struct fs_gres_hugepool *np;

		sc->cap = sc->cap ? sc->cap * 2 : 8;
		np = realloc(inv->pools, sc->cap * sizeof(*np));
		if (!np)
			return fs_errf(err, errlen, "out of memory");
		inv->pools = np;
	}
	p = &inv->pools[inv->npools];
	memset(p, 0, sizeof(*p));
	p->numa_node = (int)node;
	p->page_kb = kb;
	fs_hp_page_name(kb, p->type, sizeof(p->type));
	free(*path);
	*path = fs_gres_path(sc->root, "/sys/devices/system/node/%s/hugepages/%s/nr_hugepages",
			     nodename, size);
	if (fs_gres_read_u64(*path, &p->total, NULL, err, errlen))
		return -1;
	free(*path);
	*path = fs_gres_path(sc->root, "/sys/devices/system/node/%s/hugepages/%s/free_hugepages",
			     nodename, size);
	if (fs_gres_read_u64(*path, &p->free, &missing, err, errlen)) {
		if (!missing)
			return -1;
		p->free = p->total;
	}
	if (p->free > p->total)
		return fs_errf(err, errlen,
			       "%s: %llu free pages of %llu; expected "
			       "free_hugepages <= nr_hugepages",
			       *path, (unsigned long long)p->free, (unsigned long long)p->total);
	inv->npools++;
	return 0;
}

/* The pools of NUMA node node (directory nodename): none when it has no
 * hugepages directory. */
static int _huge_node(struct huge_scan *sc, const char *nodename, long node, char *err,
		      size_t errlen)
{
	char **sizes = NULL, *path;
	size_t ns = 0;
	int missing, rc = -1;

	path = fs_gres_path(sc->root, "/sys/devices/system/node/%s/hugepages", nodename);
	if (_list(path, &sizes, &ns, &missing, err, errlen))
		goto out;
	for (size_t j = 0; j < ns; j++)
		if (_huge_pool(sc, nodename, node, sizes[j], &path, err, errlen))
			goto out;
	rc = 0;
out:
	free(path);
	_free_names(sizes, ns);
	return rc;
}

int fs_gres_hugepages_scan(const char *root, struct fs_gres_inventory *inv, char *err,
			   size_t errlen)
{
	struct huge_scan sc = { root ? root : "", inv, 0 };
	char **nodes = NULL, *path;
	size_t nn = 0;
	int missing, rc = -1;

	path = fs_gres_path(sc.root, "/sys/devices/system/node");
	if (_list(path, &nodes, &nn, &missing, err, errlen))
		goto out;
	for (size_t i = 0; i < nn; i++) {
		char *end;
		long node;

		/* nodeN, N at most 4095; anything else is not a node */
		if (strncmp(nodes[i], "node", 4) || !isdigit((unsigned char)nodes[i][4]))
			continue;
		errno = 0;
		node = strtol(nodes[i] + 4, &end, 10);
		if (*end || errno || node > 4095)
			continue;
		if (_huge_node(&sc, nodes[i], node, err, errlen))
			goto out;
	}
	if (inv->npools > 1)
		qsort(inv->pools, inv->npools, sizeof(*inv->pools), _cmp_pool);
	rc = 0;
out:
	free(path);
	_free_names(nodes, nn);
	return rc;
}

/* NUMA nodes from sysfs, for a machine without hwloc topology. */
int fs_gres_sysfs_numa(const char *root, struct fs_gres_inventory *inv, char *err, size_t errlen)
{
	char **nodes = NULL, *path;
	size_t nn = 0;
	int missing, rc = -1;

	path = fs_gres_path(root, "/sys/devices/system/node");
	if (_list(path, &nodes, &nn, &missing, err, errlen))
		goto out;
	if (nn > 1)
		qsort(nodes, nn, sizeof(*nodes), _cmp_natural);
	if (nn && !(inv->numa = calloc(nn, sizeof(*inv->numa)))) {
		fs_errf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nn; i++) {
		struct fs_gres_numa *nu = &inv->numa[inv->nnuma];
		unsigned char *b;
		size_t nb;
		long c;

		if (strncmp(nodes[i], "node", 4) || !isdigit((unsigned char)nodes[i][4]))
			continue;
		free(path);
		path = fs_gres_path(root, "/sys/devices/system/node/%s/cpulist", nodes[i]);
		if (fs_gres_read(path, &nu->cpus, NULL, err, errlen))
			goto out;
		if (fs_gres_cpulist_parse(nu->cpus, &b, &nb, err, errlen)) {
			char m2[FS_MSG_SIZE];

			snprintf(m2, sizeof(m2), "%s: %s", path, err ? err : "");
			if (err)
				snprintf(err, errlen, "%s", m2);
			free(nu->cpus);
			nu->cpus = NULL;
			goto out;
		}
		free(b);
		c = fs_gres_cpulist_count(nu->cpus);
		nu->os_index = atoi(nodes[i] + 4);
		nu->npus = nu->ncores = (unsigned)c;
		inv->nnuma++;
	}
	rc = 0;
out:
	free(path);
	_free_names(nodes, nn);
	return rc;
}
