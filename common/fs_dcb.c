/*
 * fs_dcb.c - a net device's DCB settings from the kernel's DCB netlink
 * interface (see fs_dcb.h).  One request (RTM_GETDCB, DCB_CMD_IEEE_GET,
 * DCB_ATTR_IFNAME), one reply: DCB_ATTR_IEEE nesting DCB_ATTR_IEEE_PFC
 * (struct ieee_pfc) and DCB_ATTR_IEEE_APP_TABLE (DCB_ATTR_IEEE_APP
 * entries, struct dcb_app).  A device whose driver has no DCB operations
 * answers EOPNOTSUPP.  Every length in the reply is checked before it is
 * read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "fs_dcb.h"
#include "fs_err.h"

/* The attributes of [p, p + len): each handed to @f; -1 when one's length
 * runs past the end. */
static int _attrs(const char *p, size_t len, int (*f)(const struct nlattr *a, void *arg), void *arg)
{
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		size_t al = a->nla_len, step = NLA_ALIGN(al);

		if (al < NLA_HDRLEN || al > len)
			return -1;
		if (f(a, arg))
			return -1;
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static const char *_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static size_t _dlen(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static int _app(const struct nlattr *a, void *arg)
{
	struct fs_dcb *d = arg;
	struct dcb_app app;

	if ((a->nla_type & NLA_TYPE_MASK) != DCB_ATTR_IEEE_APP)
		return 0;
	if (_dlen(a) < sizeof(app))
		return -1;
	memcpy(&app, _data(a), sizeof(app));
	if (d->napp < FS_DCB_APP_MAX)
		d->app[d->napp++] = (struct fs_dcb_app){ app.selector, app.priority, app.protocol };
	return 0;
}

static int _ieee(const struct nlattr *a, void *arg)
{
	struct fs_dcb *d = arg;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case DCB_ATTR_IEEE_PFC: {
		struct ieee_pfc pfc;

		if (_dlen(a) < offsetof(struct ieee_pfc, mbc))
			return -1;
		memset(&pfc, 0, sizeof(pfc));
		memcpy(&pfc, _data(a), _dlen(a) < sizeof(pfc) ? _dlen(a) : sizeof(pfc));
		d->has_pfc = true;
		d->pfc_cap = pfc.pfc_cap;
		d->pfc_en = pfc.pfc_en;
		return 0;
	}
	case DCB_ATTR_IEEE_APP_TABLE:
		return _attrs(_data(a), _dlen(a), _app, d);
	default:
		return 0;
	}
}

static int _top(const struct nlattr *a, void *arg)
{
	if ((a->nla_type & NLA_TYPE_MASK) != DCB_ATTR_IEEE)
		return 0;
	return _attrs(_data(a), _dlen(a), _ieee, arg);
}

int fs_dcb_parse(const void *msg, size_t len, struct fs_dcb *out, char *err, size_t errlen)
{
	const struct nlmsghdr *h = msg;
	size_t hl = NLMSG_LENGTH(sizeof(struct dcbmsg));

	memset(out, 0, sizeof(*out));
	if (len < NLMSG_HDRLEN || h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > len)
		return fs_errf(err, errlen, "a DCB reply of %zu bytes, shorter than its header",
			       len);
	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(h);

		if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
			return fs_errf(err, errlen, "a truncated netlink error in a DCB reply");
		if (e->error == -EOPNOTSUPP)
			return 1;
		return fs_errf(err, errlen, "%s", strerror(e->error < 0 ? -e->error : e->error));
	}
	if (h->nlmsg_type != RTM_GETDCB || h->nlmsg_len < hl)
		return fs_errf(err, errlen, "a netlink message of type %u, expected a DCB reply",
			       h->nlmsg_type);
	if (_attrs((const char *)h + NLMSG_ALIGN(hl), h->nlmsg_len - NLMSG_ALIGN(hl), _top, out))
		return fs_errf(err, errlen, "a DCB reply whose attributes run past its end");
	return 0;
}

int fs_dcb_read(const char *ifname, struct fs_dcb *out, char *err, size_t errlen)
{
	struct {
		struct nlmsghdr h;
		struct dcbmsg d;
		char attr[NLA_HDRLEN + NLA_ALIGN(IFNAMSIZ)];
	} req;
	struct nlattr *a = (struct nlattr *)req.attr;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 5 };
	const size_t bufsz = 65536;
	char *buf;
	size_t n = ifname ? strlen(ifname) : 0;
	ssize_t got;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	if (!n || n >= IFNAMSIZ)
		return fs_errf(err, errlen, "net device name \"%s\": expected 1 to %d characters",
			       ifname ? ifname : "", IFNAMSIZ - 1);
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_type = RTM_GETDCB;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.h.nlmsg_seq = 1;
	req.d.dcb_family = AF_UNSPEC;
	req.d.cmd = DCB_CMD_IEEE_GET;
	a->nla_type = DCB_ATTR_IFNAME;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n + 1);
	memcpy(req.attr + NLA_HDRLEN, ifname, n);
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.d)) + NLA_ALIGN(a->nla_len);
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) < 0)
		return fs_errf(err, errlen, "netlink socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = fs_errf(err, errlen, "%s: DCB request: %s", ifname, strerror(errno));
		close(fd);
		return rc;
	}
	if (!(buf = malloc(bufsz))) {
		close(fd);
		return fs_errf(err, errlen, "out of memory");
	}
	got = recv(fd, buf, bufsz, 0);
	close(fd);
	if (got < 0) {
		rc = fs_errf(err, errlen, "%s: DCB reply: %s", ifname, strerror(errno));
		free(buf);
		return rc;
	}
	rc = fs_dcb_parse(buf, (size_t)got, out, err, errlen);
	free(buf);
	if (rc < 0 && err && errlen) {
		char m[256];

		snprintf(m, sizeof(m), "%s", err);
		fs_errf(err, errlen, "%s: %s", ifname, m);
	}
	return rc;
}

int fs_dcb_job_prio(const struct fs_dcb *d, int tclass, int sl, bool *by_dscp)
{
	int dscp = tclass > 0 ? (tclass >> 2) & 63 : 0;
	bool trust = false;
	int prio = 0;

	for (int i = 0; d && i < d->napp; i++) {
		if (d->app[i].selector != IEEE_8021QAZ_APP_SEL_DSCP)
			continue;
		trust = true;
		if (d->app[i].protocol == dscp)
			prio = d->app[i].priority & 7;
	}
	if (by_dscp)
		*by_dscp = trust;
	return trust ? prio : sl > 0 ? sl & 7 : 0;
}

const char *fs_dcb_pfc_list(const struct fs_dcb *d, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int p = 0; p < 8 && o + 3 < n; p++)
		if (d->pfc_en & (1u << p))
			o += (size_t)snprintf(buf + o, n - o, "%s%d", o ? "," : "", p);
	if (!o)
		snprintf(buf, n, "none");
	return buf;
}
