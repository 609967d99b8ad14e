/*
 * parse_ibnet.c — ibnetdiscover text output (and ibsim net files) -> model.
 *
 * Records look like
 *   switchguid=0x8f10400410015(8f10400410015)
 *   Switch 8 "S-0008f10400410015"  # "SW-6IB4 Voltaire" base port 0 lid 3 lmc 0
 *   [6]  "H-0008f10403960984"[1](8f10403960985)  # "MT23108 ..." lid 16 4xSDR
 * and for HCAs
 *   Ca 2 "H-0008f10403960984"  # "n001 mlx5_0"
 *   [1](8f10403960985)  "S-0008f10400410015"[6]  # lid 16 lmc 1 "SW-6IB4" lid 3 4xSDR
 * ibdiagnet's copy of that format (ibdiagnet2.ibnetdiscover) may follow a
 * port number with the port's label, the name the switch gives it: "1/4/1"
 * (a split port), "4/1"; after the local port of a switch line and after the
 * remote port of any line:
 *   [1](1/1/1)  "H-b8cef603004a7e10"[1](b8cef603004a7e10)  # "n001 mlx5_0" lid 45 2xNDR
 *   [1](b8cef603004a7e10)  "S-fc6a1c030091cf00"[7](1/4/1)  # lid 45 lmc 0 "..." lid 13 2xNDR
 * Links are listed from both ends; they are joined after the whole input has
 * been read, so forward references are fine.  Lines may end in CRLF.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 4096

struct pending {
	int dev, port, rport, width, line;
	enum fst_speed speed;
	char *rid;
	char rlabel[FST_PORT_LABEL_MAX]; /* label of the remote port, "" none */
};

struct pstate {
	struct fst_model *m;
	const char *file;
	int line;
	int cur; /* device of the current record, -1 outside */
	uint64_t next_guid, next_sysimg;
	struct pending *pend;
	int npend, cap_pend;
	char *err;
	size_t errlen;
};

static char *_skip_ws(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Parse `"text"` at *s (after spaces); text may not contain '"'. */
static int _quoted(char **s, char **out)
{
	char *p = _skip_ws(*s), *q;

	if (*p != '"')
		return -1;
	q = strchr(p + 1, '"');
	if (!q)
		return -1;
	*q = '\0';
	*out = p + 1;
	*s = q + 1;
	return 0;
}

/* Parse `[N]` at *s (no leading spaces skipped when tight). */
static int _bracket_num(char **s, int *out)
{
	char *p = *s, *end;
	long v;

	if (*p != '[')
		return -1;
	errno = 0;
	v = strtol(p + 1, &end, 10);
	if (end == p + 1 || *end != ']' || errno || v < 0 || v > 255)
		return -1;
	*out = (int)v;
	*s = end + 1;
	return 0;
}

/* A port label: decimal numbers joined by single '/' ("1/4/1", "4/1"), at
 * least one '/'.  A port GUID never holds a '/': the two never mix. */
static int _is_label(const char *s, size_t n)
{
	int slashes = 0;

	if (!n || !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = 1; i < n; i++) {
		if (s[i] == '/' && s[i - 1] != '/')
			slashes++;
		else if (!isdigit((unsigned char)s[i]))
			return 0;
	}
	return slashes > 0;
}

/* A port GUID: 1 to 16 hexadecimal digits, "0x" before them allowed. */
static int _is_guid(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (!n || n > 16)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int c = tolower((unsigned char)s[i]);

		if (!isxdigit(c))
			return 0;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	*out = v;
	return 1;
}

/* The `(...)` right after a port number (of the remote end when @remote),
 * when present: the port GUID, the port label, or both (either order), each
 * once.  RET 0, or -1 with *bad. */
static int _port_suffix(char **s, int remote, uint64_t *guid, char label[FST_PORT_LABEL_MAX],
			const char **bad)
{
	char *p = *s;
	int nguid = 0;

	label[0] = '\0';
	while (*p == '(') {
		char *q = strchr(p + 1, ')');
		size_t n = q ? (size_t)(q - p - 1) : 0;

		if (!q) {
			*bad = "'(' without ')' after the port";
			return -1;
		}
		if (_is_label(p + 1, n) && !label[0]) {
			if (n >= FST_PORT_LABEL_MAX) {
				*bad = "port label longer than 15 characters";
				return -1;
			}
			memcpy(label, p + 1, n);
			label[n] = '\0';
		} else if (nguid++ || !_is_guid(p + 1, n, guid)) {
			*bad = remote ? "bad remote port GUID or label" : "bad port GUID or label";
			return -1;
		}
		p = q + 1;
	}
	*s = p;
	return 0;
}

static int _hexval(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 16);
	if (end == s || errno || (*end && *end != '(' && !isspace((unsigned char)*end)))
		return -1;
	*out = v;
	return 0;
}

static uint64_t _guid_from_id(const char *id)
{
	uint64_t g = 0;

	if ((id[0] == 'S' || id[0] == 'H' || id[0] == 'R') && id[1] == '-' &&
	    strlen(id + 2) == 16 && !_hexval(id + 2, &g))
		return g;
	return 0;
}

static int _perr(struct pstate *ps, const char *expected, const char *found)
{
	return fs_errf(ps->err, ps->errlen, "%s:%d: %s; expected %s", ps->file, ps->line, found,
		       expected);
}

static int _header(struct pstate *ps, char *s, enum fst_devtype type)
{
	char *end, *id, *hash, *q1, *q2;
	long nports;
	uint64_t guid;
	int d;
	const char *form = "'Switch|Ca|Rt <ports> \"<id>\" [# \"<description>\" ...]'";

	s = _skip_ws(s);
	errno = 0;
	nports = strtol(s, &end, 10);
	if (end == s || errno || nports < 1 || nports > 254)
		return _perr(ps, form, "bad port count");
	s = end;
	if (_quoted(&s, &id) || !*id)
		return _perr(ps, form, "missing quoted node id");
	if (fst_index_get(&ps->m->priv->ids, id) >= 0)
		return _perr(ps, "each node record once", "duplicate node record");
	guid = ps->next_guid ? ps->next_guid : _guid_from_id(id);
	d = fst_add_device(ps->m, type, id, guid, (int)nports);
	if (d < 0)
		return fs_errf(ps->err, ps->errlen, "%s:%d: out of memory", ps->file, ps->line);
	ps->m->devs[d].sysimgguid = ps->next_sysimg;
	ps->m->devs[d].line = ps->line;
	ps->next_guid = ps->next_sysimg = 0;
	ps->cur = d;
	hash = strchr(s, '#');
	if (hash && (q1 = strchr(hash, '"')) && (q2 = strrchr(q1 + 1, '"'))) {
		char *lid;

		*q2 = '\0';
		if (fst_set_str(&ps->m->devs[d].desc, q1 + 1))
			return fs_errf(ps->err, ps->errlen, "out of memory");
		lid = strstr(q2 + 1, " lid ");
		if (lid)
			ps->m->devs[d].ports[0].lid = atoi(lid + 5);
	}
	return 0;
}

/* The comment after a port: the port's LID when it leads ("# lid 45 ...",
 * HCA lines), the link's "<width>x<speed>" as its last word. */
static void _port_comment(struct fst_port *pt, char *hash, int *width, enum fst_speed *speed)
{
	char *last = NULL, *tok, *save = NULL, *c = _skip_ws(hash + 1);

	if (!strncmp(c, "lid ", 4))
		pt->lid = atoi(c + 4);
	for (tok = strtok_r(hash + 1, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		last = tok;
	if (last && fst_parse_widthspeed(last, width, speed)) {
		*width = 0;
		*speed = FST_SPEED_UNKNOWN;
	}
}

/* Keep one link end until the input has been read (_join). */
static int _pend_add(struct pstate *ps, const struct pending *pe, const char *rid)
{
	struct pending *np = fst_grow(ps->pend, &ps->cap_pend, ps->npend + 1, sizeof(*ps->pend));

	if (!np)
		return fs_errf(ps->err, ps->errlen, "out of memory");
	ps->pend = np;
	np = &ps->pend[ps->npend];
	*np = *pe;
	np->rid = strdup(rid);
	if (!np->rid)
		return fs_errf(ps->err, ps->errlen, "out of memory");
	ps->npend++;
	return 0;
}

static int _port_line(struct pstate *ps, char *s)
{
	struct fst_device *d;
	struct pending pe = { .dev = ps->cur, .line = ps->line, .speed = FST_SPEED_UNKNOWN };
	char *rid, label[FST_PORT_LABEL_MAX];
	int ext;
	uint64_t lguid = 0, rguid = 0;
	const char *bad = NULL;
	const char *form = "'[<port>][(<GUID>|<label>)] \"<remote id>\"[<remote port>]"
			   "[(<GUID>|<label>)] # ... <width>x<speed>' (label: \"1/4/1\")";

	if (ps->cur < 0)
		return _perr(ps, "a port line right after its 'Switch' or 'Ca' header",
			     "port line outside a node record");
	d = &ps->m->devs[ps->cur];
	if (_bracket_num(&s, &pe.port))
		return _perr(ps, form, "bad local port");
	if (!strncmp(s, "[ext ", 5)) {
		char *p = s + 4;

		*p = '[';
		s = p;
		if (_bracket_num(&s, &ext))
			return _perr(ps, form, "bad external port number");
	}
	if (_port_suffix(&s, 0, &lguid, label, &bad))
		return _perr(ps, form, bad);
	if (_quoted(&s, &rid) || !*rid)
		return _perr(ps, form, "missing quoted remote id");
	if (_bracket_num(&s, &pe.rport) || pe.rport < 1)
		return _perr(ps, form, "bad remote port");
	if (_port_suffix(&s, 1, &rguid, pe.rlabel, &bad))
		return _perr(ps, form, bad);
	s = _skip_ws(s);
	if (*s && *s != '#' && *s != '\r' && *s != '\n')
		return _perr(ps, form, "unexpected text after the remote port");
	if (pe.port < 1 || pe.port > d->nports) {
		char found[128];

		snprintf(found, sizeof(found), "port %d out of range 1..%d of \"%s\"", pe.port,
			 d->nports, d->id);
		return _perr(ps, "a port number of the record's device", found);
	}
	if (d->ports[pe.port].peer != -1 || d->ports[pe.port].width == -1)
		return _perr(ps, "each port once per record", "port listed twice");
	d->ports[pe.port].width = -1; /* marks "seen" until joined */
	d->ports[pe.port].guid = lguid;
	memcpy(d->ports[pe.port].label, label, sizeof(label));
	if (*s == '#')
		_port_comment(&d->ports[pe.port], s, &pe.width, &pe.speed);
	(void)rguid;
	return _pend_add(ps, &pe, rid);
}

static int _attr(struct pstate *ps, char *s)
{
	char *eq = strchr(s, '=');
	uint64_t v;

	*eq = '\0';
	if (!strcmp(s, "vendid") || !strcmp(s, "devid"))
		return 0;
	if (_hexval(_skip_ws(eq + 1), &v))
		return _perr(ps, "'<key>=0x<hex>'", "bad hexadecimal value");
	if (!strcmp(s, "sysimgguid"))
		ps->next_sysimg = v;
	else if (!strcmp(s, "switchguid") || !strcmp(s, "caguid") || !strcmp(s, "routerguid") ||
		 !strcmp(s, "nodeguid"))
		ps->next_guid = v;
	return 0;
}

static int _is_attr(const char *s)
{
	const char *eq = strchr(s, '=');

	if (!eq || eq == s)
		return 0;
	for (const char *p = s; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

static int _keyword(const char *s, const char *kw)
{
	size_t n = strlen(kw);

	return !strncmp(s, kw, n) && (s[n] == ' ' || s[n] == '\t');
}

static int _line(struct pstate *ps, char *s)
{
	char *t = _skip_ws(s);
	size_t n = strlen(t);

	while (n && (t[n - 1] == '\r' || t[n - 1] == '\n' || t[n - 1] == ' ' || t[n - 1] == '\t'))
		t[--n] = '\0';
	if (!*t) {
		ps->cur = -1; /* blank line ends a record */
		return 0;
	}
	if (*t == '#')
		return 0;
	if (*t == '[')
		return _port_line(ps, t);
	if (_keyword(t, "Switch"))
		return _header(ps, t + 6, FST_SWITCH);
	if (_keyword(t, "Ca"))
		return _header(ps, t + 2, FST_HCA);
	if (_keyword(t, "Hca"))
		return _header(ps, t + 3, FST_HCA);
	if (_keyword(t, "Rt"))
		return _header(ps, t + 2, FST_ROUTER);
	if (_is_attr(t))
		return _attr(ps, t);
	if (!strcmp(t, "Non-Chassis Nodes") || !strncmp(t, "Chassis ", 8))
		return 0;
	/* Anything else is noise mixed into the dump (stderr of ibnetdiscover,
	 * umad errors): reported, not fatal. */
	if (fst_add_issue(ps->m, FST_ISSUE_IGNORED_LINE, FST_WARNING, -1, -1, -1, -1,
			  "%s:%d: ignored line that is not ibnetdiscover output: %.120s", ps->file,
			  ps->line, t))
		return fs_errf(ps->err, ps->errlen, "out of memory");
	return 0;
}

static int _join(struct pstate *ps)
{
	struct fst_model *m = ps->m;

	for (int i = 0; i < m->ndevs; i++)
		for (int p = 0; p <= m->devs[i].nports; p++)
			if (m->devs[i].ports[p].width == -1)
				m->devs[i].ports[p].width = 0;
	for (int i = 0; i < ps->npend; i++) {
		struct pending *pe = &ps->pend[i];
		int r = fst_index_get(&m->priv->ids, pe->rid);
		int rc;

		if (r < 0) {
			m->devs[pe->dev].ports[pe->port].width = pe->width;
			m->devs[pe->dev].ports[pe->port].speed = pe->speed;
			rc = fst_add_issue(
				m, FST_ISSUE_DANGLING, FST_WARNING, pe->dev, pe->port, -1,
				pe->rport,
				"%s:%d: \"%s\" port %d connects to \"%s\"[%d], which has no record",
				ps->file, pe->line, m->devs[pe->dev].id, pe->port, pe->rid,
				pe->rport);
		} else if (pe->rport > m->devs[r].nports) {
			rc = fst_add_issue(
				m, FST_ISSUE_ASYMMETRIC, FST_PROBLEM, pe->dev, pe->port, r, -1,
				"%s:%d: \"%s\" port %d connects to port %d of \"%s\", which has %d ports",
				ps->file, pe->line, m->devs[pe->dev].id, pe->port, pe->rport,
				m->devs[r].id, m->devs[r].nports);
		} else {
			char *lab = m->devs[r].ports[pe->rport].label;

			if (!lab[0]) /* the port's own line names it first */
				memcpy(lab, pe->rlabel, sizeof(pe->rlabel));
			rc = fst_connect(m, pe->dev, pe->port, r, pe->rport, pe->width, pe->speed);
		}
		if (rc)
			return fs_errf(ps->err, ps->errlen, "out of memory");
	}
	return 0;
}

int fst_parse_ibnet_buf(struct fst_model **out, const char *buf, size_t len, const char *name,
			char *err, size_t errlen)
{
	struct pstate ps = { 0 };
	char line[LINE_MAX_LEN + 2];
	size_t pos = 0;
	int rc = -1, nswitch = 0;

	*out = NULL;
	ps.m = fst_model_new();
	if (!ps.m)
		return fs_errf(err, errlen, "out of memory");
	ps.file = name ? name : "<input>";
	ps.cur = -1;
	ps.err = err;
	ps.errlen = errlen;
	if (fst_set_str(&ps.m->source, ps.file))
		goto out;
	while (pos < len) {
		size_t n = 0;

		ps.line++;
		while (pos < len && buf[pos] != '\n') {
			if (n >= LINE_MAX_LEN) {
				_perr(&ps, "lines shorter than 4096 bytes", "line too long");
				goto out;
			}
			line[n++] = buf[pos] ? buf[pos] : ' ';
			pos++;
		}
		pos++;
		line[n] = '\0';
		if (_line(&ps, line))
			goto out;
	}
	if (!ps.m->ndevs) {
		fs_errf(err, errlen,
			"%s:%d: no 'Switch' or 'Ca' record found; expected ibnetdiscover output",
			ps.file, ps.line);
		goto out;
	}
	if (_join(&ps))
		goto out;
	for (int i = 0; i < ps.m->ndevs; i++)
		nswitch += ps.m->devs[i].type == FST_SWITCH;
	rc = 0;
	*out = ps.m;
	ps.m = NULL;
out:
	for (int i = 0; i < ps.npend; i++)
		free(ps.pend[i].rid);
	free(ps.pend);
	fst_model_free(ps.m);
	(void)nswitch;
	return rc;
}

int fst_parse_ibnet_file(struct fst_model **out, const char *path, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	if (fst_read_file(path, &buf, &len, err, errlen))
		return -1;
	rc = fst_parse_ibnet_buf(out, buf, len, path, err, errlen);
	free(buf);
	return rc;
}
