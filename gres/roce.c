/*
 * roce.c - the RoCE side of an Ethernet port of an RDMA device: which
 * entry of its GID table NCCL, UCX and Open MPI should use (the RoCE v2
 * GID of the port's IPv4 address, or of a global IPv6 one) and the net
 * device behind it, with that device's MTU and operational state.
 *
 * The kernel keeps, per port, a GID table (ports/<n>/gids/<i>, the GID as
 * 8 groups of 4 hexadecimal digits) and, for each used entry, its type
 * (gid_attrs/types/<i>: "IB/RoCE v1" or "RoCE v2") and net device
 * (gid_attrs/ndevs/<i>).  An unused entry reads as all zeros and its
 * attributes cannot be read (EINVAL), so they are read only for entries in
 * use.  An IPv4 address appears as an IPv4-mapped IPv6 GID
 * (::ffff:a.b.c.d); an IPv6 link-local one (fe80::/10) is on every port
 * and routes nowhere, so it is not a RoCE v2 IPv6 choice.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gres_private.h"

/* A GID table of more entries is not one the kernel wrote. */
#define GID_TABLE_MAX 4096

/* Net device names: at most IFNAMSIZ - 1 bytes, no '/' nor blank (the
 * kernel's dev_valid_name); fabsched takes the characters device names are
 * made of and no other, since the name goes to job environments and
 * logs. */
static int _netdev_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 15 || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return 0;
	return 1;
}

enum gid_kind { GID_EMPTY, GID_IPV4, GID_LINK_LOCAL, GID_IPV6 };

/* What a well-formed GID (fs_gres_hex_gid_ok) holds. */
static enum gid_kind _gid_kind(const char *gid)
{
	unsigned g[8];

	if (sscanf(gid, "%x:%x:%x:%x:%x:%x:%x:%x", &g[0], &g[1], &g[2], &g[3], &g[4], &g[5], &g[6],
		   &g[7]) != 8)
		return GID_EMPTY;
	if (!(g[0] | g[1] | g[2] | g[3] | g[4] | g[5] | g[6] | g[7]))
		return GID_EMPTY;
	if (!(g[0] | g[1] | g[2] | g[3] | g[4]) && g[5] == 0xffff)
		return GID_IPV4;
	if ((g[0] & 0xffc0) == 0xfe80)
		return GID_LINK_LOCAL;
	return GID_IPV6;
}

/* An attribute of entry i: "" when it cannot be read (an entry the kernel
 * holds no attribute for, or a kernel without gid_attrs). */
static char *_attr(const char *root, const char *hca, const char *pname, const char *what,
		   unsigned i)
{
	char *path = fs_gres_path(root, "/sys/class/infiniband/%s/ports/%s/gid_attrs/%s/%u", hca,
				  pname, what, i);
	char *s = NULL;

	if (!path || fs_gres_read(path, &s, NULL, NULL, 0))
		s = strdup("");
	free(path);
	return s;
}

/* A copy of net device nd in *slot unless it holds one (or nd is "");
 * -1 out of memory. */
static int _keep(char **slot, const char *nd)
{
	if (*slot || !nd[0])
		return 0;
	return (*slot = strdup(nd)) ? 0 : -1;
}

/* The table: gid_v2_*, ngid_v2 and the net device (malloc'ed into *dev,
 * NULL when no entry names one). */
static int _gid_table(const char *root, const char *hca, const char *pname, struct fs_gres_port *pt,
		      char **dev, char *err, size_t errlen)
{
	char *any = NULL, *v4 = NULL, *v6 = NULL, q[80];
	int rc = 0, oom = 0;

	*dev = NULL;
	for (unsigned i = 0; i < GID_TABLE_MAX && !rc; i++) {
		char *path = fs_gres_path(root, "/sys/class/infiniband/%s/ports/%s/gids/%u", hca,
					  pname, i);
		char *gid = NULL, *type = NULL, *nd = NULL;
		enum gid_kind kind;
		int missing = 0;

		if (!path) {
			rc = fs_errf(err, errlen, "out of memory");
			break;
		}
		if (fs_gres_read(path, &gid, &missing, err, errlen)) {
			rc = missing ? 0 : -1;
			free(path);
			break;
		}
		if (fs_gres_gid_check(path, gid, err, errlen)) {
			rc = -1;
		} else if ((kind = _gid_kind(gid)) != GID_EMPTY) {
			type = _attr(root, hca, pname, "types", i);
			nd = _attr(root, hca, pname, "ndevs", i);
			if (!type || !nd) {
				rc = fs_errf(err, errlen, "out of memory");
			} else if (nd[0] && !_netdev_ok(nd)) {
				fs_gres_quote(nd, q, sizeof(q));
				rc = fs_errf(
					err, errlen,
					"%s/sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs/%u: "
					"\"%s\": malformed net device name; expected 1 to 15 "
					"of A-Z a-z 0-9 _ . -",
					root, hca, pname, i, q);
			} else if (!strcmp(type, "RoCE v2")) {
				pt->ngid_v2++;
				if (kind == GID_IPV4 && pt->gid_v2_ipv4 < 0) {
					pt->gid_v2_ipv4 = (int)i;
					oom |= _keep(&v4, nd);
				} else if (kind == GID_IPV6 && pt->gid_v2_ipv6 < 0) {
					pt->gid_v2_ipv6 = (int)i;
					oom |= _keep(&v6, nd);
				}
			}
			if (!rc && (oom | _keep(&any, nd)))
				rc = fs_errf(err, errlen, "out of memory");
		}
		free(path);
		free(gid);
		free(type);
		free(nd);
	}
	if (!rc) {
		*dev = v4 ? v4 : v6 ? v6 : any;
		if (*dev == v4)
			v4 = NULL;
		else if (*dev == v6)
			v6 = NULL;
		else
			any = NULL;
	}
	free(any);
	free(v4);
	free(v6);
	return rc;
}

/* The net device's mtu (0 when missing) and operstate ("" when missing). */
static int _netdev_state(const char *root, struct fs_gres_port *pt, char *err, size_t errlen)
{
	char *path = fs_gres_path(root, "/sys/class/net/%s/mtu", pt->netdev), q[80];
	uint64_t mtu = 0;
	int missing = 0, rc = -1;

	if (!path)
		return fs_errf(err, errlen, "out of memory");
	if (fs_gres_read_u64(path, &mtu, &missing, err, errlen) && !missing)
		goto out;
	/* the kernel's MTU is an unsigned int: 65536 on the loopback device */
	if (mtu > INT32_MAX) {
		fs_errf(err, errlen, "%s: %llu: not an MTU; expected 0-2147483647", path,
			(unsigned long long)mtu);
		goto out;
	}
	pt->mtu = (unsigned)mtu;
	free(path);
	if (!(path = fs_gres_path(root, "/sys/class/net/%s/operstate", pt->netdev))) {
		fs_errf(err, errlen, "out of memory");
		goto out;
	}
	if (fs_gres_read(path, &pt->operstate, &missing, err, errlen)) {
		if (!missing || !(pt->operstate = strdup("")))
			goto out;
	}
	for (const char *c = pt->operstate; *c; c++)
		if (!islower((unsigned char)*c)) {
			fs_gres_quote(pt->operstate, q, sizeof(q));
			fs_errf(err, errlen,
				"%s: \"%s\": malformed operstate; expected a lower-case word "
				"such as up or down",
				path, q);
			goto out;
		}
	rc = 0;
out:
	free(path);
	return rc;
}

int fs_gres_roce_port(const char *root, const char *hca, const char *pname, struct fs_gres_port *pt,
		      char *err, size_t errlen)
{
	char *dev = NULL;

	pt->gid_v2_ipv4 = pt->gid_v2_ipv6 = -1;
	pt->ngid_v2 = 0;
	if (_gid_table(root, hca, pname, pt, &dev, err, errlen))
		return -1;
	pt->netdev = dev ? dev : strdup("");
	if (!pt->netdev)
		return fs_errf(err, errlen, "out of memory");
	if (!pt->netdev[0])
		return (pt->operstate = strdup("")) ? 0 : fs_errf(err, errlen, "out of memory");
	return _netdev_state(root, pt, err, errlen);
}
