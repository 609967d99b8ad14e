/*
 * parse_lldp.c — LLDP neighbour records (lldpd) -> model.
 *
 * The input is a directory of the nodes' records: one file per node,
 * named <node>.json, holding what `lldpcli -f json0 show neighbors
 * details` prints on that node (the plain `-f json` form is read too);
 * and optionally a directory of the switches' records, the same command
 * run on each switch, named <switch>.json.  A switch that speaks SNMP but
 * runs no lldpd has instead <switch>.snmpwalk, its LLDP-MIB as snmpwalk
 * prints it (parse_lldp_snmp.c): the same neighbours, read into the same
 * rows (struct fst_lldp_row), then the same rules.
 *
 * json0 gives every value as an array:
 *   {"lldp": [{"interface": [{"name": "eth0", "chassis": [{"id": [{"type":
 *     "mac", "value": "3a:75:..."}], "name": [{"value": "leaf01"}],
 *     "capability": [{"type": "Bridge", "enabled": true}, ...]}],
 *     "port": [{"id": [{"type": "ifname", "value": "swp1"}], "descr":
 *     [{"value": "swp1"}], "auto-negotiation": [{"current": [{"value":
 *     "100GbaseCR4 - ..."}]}]}]}]}]}
 * json keys a chassis and an interface by name and drops the arrays of
 * one element: {"lldp": {"interface": {"eth0": {"chassis": {"leaf01":
 * {"id": {...}}}, "port": {...}}}}}; several interfaces make an array of
 * such objects.
 *
 * Who is who: the systems with a node record are hosts, those with a
 * switch record switches; a system seen only as the neighbour of a node is
 * a switch, one seen only from switches a switch when it says it bridges
 * or routes (capability Bridge or Router enabled) and a host otherwise.
 * A switch's port is named by its port id when of the ifname or local
 * type, else by its description (lldpd on Linux: the interface name), else
 * by the id, the name kept as the port's label.  Its ports are numbered
 * by the number that ends their names when every name ends in one, from
 * 1 to 255 and no two alike (swp7 is port 7, whichever other ports have
 * a neighbour now), else in the natural order of their names.  A host's
 * interface is an HCA of the model ("H-<host>-<ifname>", described
 * "<host> <ifname>", one port; own_record when the host's own record
 * lists it), so that naming, classification and export are those of
 * InfiniBand.  The link's speed is the auto-negotiated MAU type a
 * neighbour reports.
 *
 * A record older than the caller's maximum age (its file's modification
 * time; 0: no maximum) is stale: a node powered off keeps its last record,
 * so its neighbours are left out with an issue saying how old it is, and
 * the system counts as having a record (a host stays a host).
 *
 * Everything in a record but the file's name came off the wire: names are
 * kept only when they are host names (switches) or interface names
 * (ports); anything else is left out with an issue that shows it escaped.
 * A switch reports what any sender on its ports says of itself, so a
 * switch's word on a host with a record of its own is held against that
 * record: an interface the record does not list, while it lists others,
 * or sees linked elsewhere, is left out with an issue (_doubted).  A
 * host's own record is taken as it is: only the switch its interface is
 * cabled to speaks on that link.  Switches' words on each other are taken
 * as they are (a port a switch's own record names otherwise must not cost
 * the link).
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <json.h>

#define LLDP_FILES_MAX 100000
#define LLDP_PORT_NAME_MAX 63
#define LLDP_FORM "lldpcli -f json0 show neighbors details (or -f json)"
/* a key of lstate.own: two system names, two port names, three tabs */
#define LINK_KEY_MAX (4 * FST_NAME_MAX + 2 * LLDP_PORT_NAME_MAX + 8)

enum { SYS_UNKNOWN = 0, SYS_HOST, SYS_SWITCH };

struct lsys {
	char *key;	/* host or switch name, or "chassis-<id>" */
	uint64_t mac;	/* chassis id when a MAC address, else 0 */
	int kind;	/* SYS_* */
	int record;	/* has a record of its own */
	int from_node;	/* seen as the neighbour of a node */
	int bridge;	/* says it bridges or routes */
	char **ports;	/* switch: port names; host: interface names */
	uint64_t *pmac; /* host: each interface's MAC when seen, else 0 */
	char *own;	/* each port listed in its own record */
	int nports, cap_ports;
	int dev;  /* switch: its device */
	int *num; /* switch: each port's number */
	int *nic; /* host: a device per interface */
};

struct lsight { /* one neighbour seen on one interface */
	int src, nb;
	char *ifname, *nb_port;
	uint64_t nb_port_mac;
	long mbps;
	int doubted; /* not as nb's own record has it: left out (_doubted) */
};

struct lstate {
	struct fst_model *m;
	struct lsys *sys;
	int nsys, cap_sys;
	struct fst_index keys; /* key -> system */
	struct fst_index own;  /* the links the records see (_link_key) */
	struct lsight *s;
	int ns, cap_s;
	const char *file; /* the record being read */
	int src;	  /* its system */
	uint64_t max_age; /* s; 0: records never stale */
	time_t now;	  /* what max_age counts from */
	int nstale;	  /* records left out as stale */
	char *err;
	size_t errlen;
};

/* @s shown in a message: printable ASCII, anything else as '?', at most
 * 64 characters then "...". */
static const char *_shown(const char *s, char *buf, size_t n)
{
	size_t o = 0, i;

	for (i = 0; s[i] && i < 64 && o + 4 < n; i++)
		buf[o++] = (s[i] > ' ' && s[i] < 127) ? s[i] : '?';
	if (s[i] && o + 4 < n)
		o += (size_t)snprintf(buf + o, n - o, "...");
	buf[o] = '\0';
	return buf;
}

/* An interface or switch port name: 1-63 of [A-Za-z0-9._:/@+-]. */
static int _port_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > LLDP_PORT_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._:/@+-", s[i]))
			return 0;
	return 1;
}

/* "aa:bb:cc:dd:ee:ff" -> 0xaabbccddeeff; 0 when not a MAC address. */
static uint64_t _mac(const char *s)
{
	uint64_t v = 0;

	for (int i = 0; i < 6; i++) {
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) ||
		    s[2] != (i < 5 ? ':' : '\0'))
			return 0;
		v = v << 8 | strtoul((char[3]){ s[0], s[1], 0 }, NULL, 16);
		s += 3;
	}
	return v;
}

/* Mb/s of an IEEE 802.3 MAU type as lldpd names it ("100GbaseCR4",
 * "10GigBaseR", "1000BaseTFD", "2p5GbaseT"), 0 when not one. */
long fst_lldp_mau_mbps(const char *s)
{
	long v = 0, frac = 0;

	if (!s || !isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s) && v < 100000)
		v = v * 10 + (*s++ - '0');
	if ((*s == 'p' || *s == '.') && isdigit((unsigned char)s[1])) {
		frac = s[1] - '0';
		s += 2;
	}
	if (*s == 'G' || *s == 'g') {
		s++;
		if (!strncasecmp(s, "ig", 2))
			s += 2;
		return strncasecmp(s, "base", 4) ? 0 : v * 1000 + frac * 100;
	}
	return !frac && !strncasecmp(s, "base", 4) ? v : 0;
}

/* ------------------------------------------------------------ JSON access */
static json_object *_get(json_object *o, const char *k)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

/* json0's one-element arrays and json's bare values alike. */
static json_object *_first(json_object *v)
{
	if (v && json_object_is_type(v, json_type_array))
		return json_object_array_length(v) ? json_object_array_get_idx(v, 0) : NULL;
	return v;
}

/* The text of @k in @o: a string, or the "value" of an object. */
static const char *_text(json_object *o, const char *k)
{
	json_object *v = _first(_get(o, k));

	if (v && json_object_is_type(v, json_type_object))
		v = _first(_get(v, "value"));
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* ------------------------------------------------------------ systems */
static int _sys_get(struct lstate *st, const char *key, uint64_t mac)
{
	int i = fst_index_get(&st->keys, key);
	struct lsys *ns;

	if (i >= 0) {
		if (mac && !st->sys[i].mac)
			st->sys[i].mac = mac;
		return i;
	}
	ns = fst_grow(st->sys, &st->cap_sys, st->nsys + 1, sizeof(*st->sys));
	if (!ns)
		return -1;
	st->sys = ns;
	memset(&st->sys[st->nsys], 0, sizeof(*st->sys));
	st->sys[st->nsys].dev = -1;
	st->sys[st->nsys].mac = mac;
	if (!(st->sys[st->nsys].key = strdup(key)) || fst_index_put(&st->keys, key, st->nsys)) {
		free(st->sys[st->nsys].key);
		return -1;
	}
	return st->nsys++;
}

/* The port (or interface) @name of system @i: its index, added when new;
 * @own: named by the system's own record. */
static int _sys_port(struct lstate *st, int i, const char *name, uint64_t mac, int own)
{
	struct lsys *y = &st->sys[i];
	char **np, *no;
	uint64_t *nm;
	int cap;

	for (int p = 0; p < y->nports; p++)
		if (!strcmp(y->ports[p], name)) {
			if (mac && !y->pmac[p])
				y->pmac[p] = mac;
			y->own[p] |= (char)own;
			return p;
		}
	cap = y->cap_ports;
	np = fst_grow(y->ports, &cap, y->nports + 1, sizeof(*y->ports));
	if (!np)
		return -1;
	y->ports = np;
	cap = y->cap_ports;
	nm = fst_grow(y->pmac, &cap, y->nports + 1, sizeof(*y->pmac));
	if (!nm)
		return -1;
	y->pmac = nm;
	cap = y->cap_ports;
	no = fst_grow(y->own, &cap, y->nports + 1, sizeof(*y->own));
	if (!no)
		return -1;
	y->own = no;
	y->cap_ports = cap;
	if (!(y->ports[y->nports] = strdup(name)))
		return -1;
	y->pmac[y->nports] = mac;
	y->own[y->nports] = (char)own;
	return y->nports++;
}

static int _issue(struct lstate *st, const char *ifname, const char *what, const char *value)
{
	char b1[80], b2[80];

	if (fst_add_issue(st->m, FST_ISSUE_IGNORED_LINE, FST_WARNING, -1, -1, -1, -1,
			  "%s: interface %s: %s \"%s\", left out", st->file,
			  _shown(ifname, b1, sizeof(b1)), what, _shown(value, b2, sizeof(b2))))
		return fs_errf(st->err, st->errlen, "out of memory");
	return 0;
}

/* The neighbour's system of @r: by a valid name, else by its chassis id
 * when a MAC ("chassis-<mac>"); -2 when it has neither (an issue says so). */
static int _neighbour(struct lstate *st, const struct fst_lldp_row *r)
{
	const char *name = r->sys_name;
	char key[FST_NAME_MAX + 32];
	int i;

	if (name && fst_host_name_ok(name) && strlen(name) < FST_NAME_MAX) {
		snprintf(key, sizeof(key), "%s", name);
		/* a record may be named by the short host name */
		if (fst_index_get(&st->keys, key) < 0 && strchr(key, '.')) {
			char sh[FST_NAME_MAX + 32];

			snprintf(sh, sizeof(sh), "%.*s", (int)strcspn(key, "."), key);
			i = fst_index_get(&st->keys, sh);
			if (i >= 0 && st->sys[i].record)
				snprintf(key, sizeof(key), "%s", sh);
		}
	} else if (r->chassis_mac) {
		if (name && _issue(st, r->ifname, "neighbour's system name", name))
			return -1;
		snprintf(key, sizeof(key), "chassis-%012" PRIx64, r->chassis_mac);
	} else {
		if (_issue(st, r->ifname, "neighbour without a usable name or MAC chassis id",
			   name ? name : (r->chassis_id ? r->chassis_id : "")))
			return -1;
		return -2;
	}
	if ((i = _sys_get(st, key, r->chassis_mac)) < 0)
		return fs_errf(st->err, st->errlen, "out of memory");
	if (r->bridge)
		st->sys[i].bridge = 1;
	if (st->sys[st->src].kind == SYS_HOST)
		st->sys[i].from_node = 1;
	return i;
}

/* One neighbour of the record's system, whichever form the record has. */
static int _row(struct lstate *st, const struct fst_lldp_row *r)
{
	const char *pname;
	struct lsight *ns, *s;
	int nb;

	if (!r->ifname) {
		char num[32];

		snprintf(num, sizeof(num), "#%u", r->port_num);
		return _issue(st, num, "local port without a name (lldpLocPortTable, ifName)", "");
	}
	if (!_port_name_ok(r->ifname))
		return _issue(st, r->ifname, "interface name", r->ifname);
	if (r->port_id && r->port_id_name)
		pname = r->port_id;
	else
		pname = r->port_desc && _port_name_ok(r->port_desc) ? r->port_desc : r->port_id;
	if (!pname || !_port_name_ok(pname))
		return _issue(st, r->ifname, "neighbour's port", pname ? pname : "");
	nb = _neighbour(st, r);
	if (nb == -2)
		return 0;
	if (nb < 0)
		return -1;
	ns = fst_grow(st->s, &st->cap_s, st->ns + 1, sizeof(*st->s));
	if (!ns)
		return fs_errf(st->err, st->errlen, "out of memory");
	st->s = ns;
	s = &st->s[st->ns];
	memset(s, 0, sizeof(*s));
	s->src = st->src;
	s->nb = nb;
	s->nb_port_mac = r->port_mac;
	s->mbps = r->mbps;
	s->ifname = strdup(r->ifname);
	s->nb_port = strdup(pname);
	st->ns++;
	if (!s->ifname || !s->nb_port)
		return fs_errf(st->err, st->errlen, "out of memory");
	return 0;
}

/* One interface of a JSON record with its neighbour (@io: its object). */
static int _interface(struct lstate *st, const char *ifname, json_object *io)
{
	json_object *ch = _first(_get(io, "chassis")), *pt = _first(_get(io, "port"));
	json_object *pid = _first(_get(pt, "id")), *id, *caps;
	const char *pidt = _text(pid, "type"), *idt;
	struct fst_lldp_row r = { .ifname = ifname };
	int n;

	if (!_port_name_ok(ifname))
		return _issue(st, ifname, "interface name", ifname);
	if (!ch || !pt)
		return _issue(st, ifname, "record without chassis or port", "");
	/* json: {"leaf01": {"id": ...}}, a chassis keyed by its name */
	if (!_get(ch, "id") && json_object_is_type(ch, json_type_object) &&
	    json_object_object_length(ch) == 1) {
		json_object_object_foreach(ch, k, v)
		{
			r.sys_name = k;
			ch = v;
		}
	}
	if (!r.sys_name)
		r.sys_name = _text(ch, "name");
	id = _first(_get(ch, "id"));
	idt = _text(id, "type");
	r.chassis_id = _text(id, "value");
	r.chassis_mac = r.chassis_id && idt && !strcmp(idt, "mac") ? _mac(r.chassis_id) : 0;
	caps = _get(ch, "capability");
	n = json_object_is_type(caps, json_type_array) ? (int)json_object_array_length(caps) : 1;
	for (int k = 0; caps && k < n; k++) { /* json: one capability is not an array */
		json_object *c = json_object_is_type(caps, json_type_array)
					 ? json_object_array_get_idx(caps, k)
					 : caps;
		const char *t = _text(c, "type");
		json_object *en = _get(c, "enabled");

		if (t && (!strcmp(t, "Bridge") || !strcmp(t, "Router")) && en &&
		    json_object_get_boolean(en))
			r.bridge = 1;
	}
	r.port_id = _text(pid, "value");
	r.port_id_name = pidt && (!strcmp(pidt, "ifname") || !strcmp(pidt, "local"));
	r.port_mac = r.port_id && pidt && !strcmp(pidt, "mac") ? _mac(r.port_id) : 0;
	r.port_desc = _text(pt, "descr");
	r.mbps = fst_lldp_mau_mbps(_text(_first(_get(pt, "auto-negotiation")), "current"));
	return _row(st, &r);
}

/* The interfaces of one "lldp" object: json0's array of objects with a
 * "name", json's object keyed by name or array of such objects. */
static int _interfaces(struct lstate *st, json_object *ifs)
{
	int n = json_object_is_type(ifs, json_type_array) ? (int)json_object_array_length(ifs) : 1;

	for (int i = 0; i < n; i++) {
		json_object *e = json_object_is_type(ifs, json_type_array)
					 ? json_object_array_get_idx(ifs, i)
					 : ifs;
		const char *name = _text(e, "name");

		if (!json_object_is_type(e, json_type_object))
			return fs_errf(
				st->err, st->errlen,
				"%s: lldp.interface[%d] is not an object; expected " LLDP_FORM,
				st->file, i);
		if (name && _get(e, "chassis")) { /* json0 */
			if (_interface(st, name, e))
				return -1;
			continue;
		}
		json_object_object_foreach(e, k, v)
		{
			if (!json_object_is_type(v, json_type_object))
				return fs_errf(
					st->err, st->errlen,
					"%s: lldp.interface: \"%s\" is not an object; expected " LLDP_FORM,
					st->file, _shown(k, (char[80]){ 0 }, 80));
			if (_interface(st, k, v))
				return -1;
		}
	}
	return 0;
}

static int _record(struct lstate *st, const char *buf, size_t len)
{
	json_object *root = fst_json_parse(buf, len, st->file, st->err, st->errlen), *l;
	int rc = 0, n;

	if (!root)
		return -1;
	l = _get(root, "lldp");
	if (!l || !(json_object_is_type(l, json_type_object) ||
		    json_object_is_type(l, json_type_array))) {
		json_object_put(root);
		return fs_errf(
			st->err, st->errlen,
			"%s: no \"lldp\" object at the top; expected the output of " LLDP_FORM,
			st->file);
	}
	n = json_object_is_type(l, json_type_array) ? (int)json_object_array_length(l) : 1;
	for (int i = 0; i < n && !rc; i++) {
		json_object *e = json_object_is_type(l, json_type_array)
					 ? json_object_array_get_idx(l, i)
					 : l;
		json_object *ifs = _get(e, "interface");

		if (ifs)
			rc = _interfaces(st, ifs);
	}
	json_object_put(root);
	return rc;
}

/* ------------------------------------------------------------ files */
#define SNMP_EXT ".snmpwalk"

/* The length of a record file's extension: ".json" or ".snmpwalk", else 0. */
static size_t _ext(const char *name)
{
	size_t n = strlen(name);

	if (n > 5 && !strcmp(name + n - 5, ".json"))
		return 5;
	if (n > strlen(SNMP_EXT) && !strcmp(name + n - strlen(SNMP_EXT), SNMP_EXT))
		return strlen(SNMP_EXT);
	return 0;
}

static int _record_file(const struct dirent *e)
{
	return e->d_name[0] != '.' && _ext(e->d_name);
}

/* An LLDP-MIB walk's neighbours (parse_lldp_snmp.c). */
static int _walk_record(struct lstate *st, const char *buf, size_t len)
{
	struct fst_lldp_row *rows;
	int n, rc = 0;

	if (fst_lldp_snmp_rows(buf, len, st->file, &rows, &n, st->err, st->errlen))
		return -1;
	for (int i = 0; i < n && !rc; i++)
		rc = _row(st, &rows[i]);
	fst_lldp_rows_free(rows, n);
	return rc;
}

/* Whether the record at @path is older than st->max_age: 1 (an issue
 * says so), 0 when not or no maximum, -1 when it cannot be read or no
 * memory for the issue. */
static int _stale(struct lstate *st, const char *path)
{
	struct stat sb;

	if (!st->max_age)
		return 0;
	if (stat(path, &sb))
		return fs_errf(st->err, st->errlen, "%s: %s", path, strerror(errno));
	if (sb.st_mtime >= st->now || (uint64_t)(st->now - sb.st_mtime) <= st->max_age)
		return 0;
	st->nstale++;
	if (fst_add_issue(st->m, FST_ISSUE_IGNORED_LINE, FST_WARNING, -1, -1, -1, -1,
			  "%s: written %" PRIu64
			  " s ago, more than the records' maximum age of %" PRIu64
			  " s: its neighbours left out",
			  path, (uint64_t)(st->now - sb.st_mtime), st->max_age))
		return fs_errf(st->err, st->errlen, "out of memory");
	return 1;
}

/* The records of @dir, each system created first (so that the neighbours
 * found in any record know who has one), then read. */
static int _dir(struct lstate *st, const char *dir, int kind, int pass)
{
	struct dirent **ents = NULL;
	int n = scandir(dir, &ents, _record_file, alphasort), rc = 0;

	if (n < 0)
		return fs_errf(st->err, st->errlen, "%s: cannot read the directory: %s", dir,
			       strerror(errno));
	if (n > LLDP_FILES_MAX)
		rc = fs_errf(st->err, st->errlen, "%s: %d records; expected at most %d", dir, n,
			     LLDP_FILES_MAX);
	for (int i = 0; i < n && !rc; i++) {
		char path[4096], name[256];
		char *buf = NULL;
		size_t len;
		int y, stale;
		size_t ext = _ext(ents[i]->d_name);

		snprintf(name, sizeof(name), "%.*s", (int)(strlen(ents[i]->d_name) - ext),
			 ents[i]->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (!fst_host_name_ok(name) || strlen(name) >= FST_NAME_MAX) {
			rc = fs_errf(
				st->err, st->errlen,
				"%s: the file's name is not a host name; expected <name>.json (or <name>" SNMP_EXT
				"), the name of the %s the record is from",
				path, kind == SYS_HOST ? "node" : "switch");
			break;
		}
		if ((y = _sys_get(st, name, 0)) < 0) {
			rc = fs_errf(st->err, st->errlen, "out of memory");
			break;
		}
		if (pass == 0) {
			if (st->sys[y].record && st->sys[y].kind != kind)
				rc = fs_errf(
					st->err, st->errlen,
					"%s: %s has a node record and a switch record; expected one",
					path, name);
			else if (st->sys[y].record)
				rc = fs_errf(st->err, st->errlen,
					     "%s: %s has two records (.json and " SNMP_EXT
					     "); expected one",
					     path, name);
			st->sys[y].record = 1;
			st->sys[y].kind = kind;
			continue;
		}
		if ((stale = _stale(st, path)) != 0) {
			rc = stale < 0 ? -1 : 0;
			continue;
		}
		if (fst_read_file(path, &buf, &len, st->err, st->errlen)) {
			rc = -1;
			break;
		}
		st->file = path;
		st->src = y;
		rc = ext == 5 ? _record(st, buf, len) : _walk_record(st, buf, len);
		free(buf);
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return rc;
}

/* ------------------------------------------------------------ model */
static int _cmp_name(const void *a, const void *b)
{
	return fst_str_cmp_natural(*(char *const *)a, *(char *const *)b);
}

/* The number ending @name (swp12: 12), -1 when none or above 255. */
static int _trailing_number(const char *name)
{
	size_t n = strlen(name), k = n;

	while (k > 0 && isdigit((unsigned char)name[k - 1]))
		k--;
	if (k == n || n - k > 3)
		return -1;
	return atoi(name + k) <= 255 ? atoi(name + k) : -1;
}

/* The numbers of switch @y's ports (sorted by name); the highest.  By the
 * names' numbers when those are all 1-255 and distinct: stable whichever
 * ports have a neighbour; else 1, 2, ... in the names' order. */
static int _number_ports(struct lsys *y)
{
	unsigned char seen[256] = { 0 };
	int top = 0, named = 1;

	for (int p = 0; p < y->nports && named; p++) {
		int k = _trailing_number(y->ports[p]);

		named = k >= 1 && !seen[k];
		if (named) {
			seen[k] = 1;
			y->num[p] = k;
			top = k > top ? k : top;
		}
	}
	if (named)
		return top;
	for (int p = 0; p < y->nports; p++)
		y->num[p] = p + 1;
	return y->nports;
}

/* Keys of st->own: "<system>\t<port>\t<neighbour>\t<its port>", a link
 * a system's own record sees. */
static int _link_key(char *buf, const struct lstate *st, int sys, const char *port, int nb,
		     const char *nb_port)
{
	return snprintf(buf, LINK_KEY_MAX, "%s\t%s\t%s\t%s", st->sys[sys].key, port,
			st->sys[nb].key, nb_port) >= LINK_KEY_MAX
		       ? -1
		       : 0;
}

/* How host @y's own record has its interface @port: 0 not listed while
 * the record lists others, 1 listed, -1 lists none (or no record). */
static int _listed(const struct lsys *y, const char *port)
{
	int lists = 0;

	for (int p = 0; p < y->nports; p++) {
		if (!y->own[p])
			continue;
		if (!strcmp(y->ports[p], port))
			return 1;
		lists = 1;
	}
	return lists ? 0 : -1;
}

/*
 * Whether a switch's sighting @k is to be doubted (s->doubted; an issue
 * says why): a switch reports whatever a sender on its port says of
 * itself, so its word on a host whose own record lists neighbours is held
 * against that record.  A port the record does not list is left out
 * (a warning: the system may not have heard the link yet), and so is a
 * port the record sees linked elsewhere (a problem: two claims on one
 * cable), so that a sender on the fabric using a node's name cannot give
 * that node links, or its interface an address, it does not report
 * itself.  A host's own word on its neighbour is taken as it is.
 */
static int _doubted(struct lstate *st, int k)
{
	struct lsight *s = &st->s[k];
	const struct lsys *y = &st->sys[s->nb];
	char key[LINK_KEY_MAX];
	int listed;

	if (st->sys[s->src].kind != SYS_SWITCH || y->kind != SYS_HOST)
		return 0;
	listed = _listed(y, s->nb_port);
	if (listed < 0 || (listed && (_link_key(key, st, s->nb, s->nb_port, s->src, s->ifname) ||
				      fst_index_get(&st->own, key) >= 0)))
		return 0;
	s->doubted = 1;
	if (fst_add_issue(st->m, FST_ISSUE_ASYMMETRIC, listed ? FST_PROBLEM : FST_WARNING, -1, -1,
			  -1, -1, "%s port %s: neighbour %s %s, which %s's own record %s, left out",
			  st->sys[s->src].key, s->ifname, y->key, s->nb_port, y->key,
			  listed ? "sees linked elsewhere" : "does not list"))
		return fs_errf(st->err, st->errlen, "out of memory");
	return 0;
}

/* Kinds of the systems without a record, their ports, their devices. */
static int _devices(struct lstate *st)
{
	struct fst_model *m = st->m;
	char id[FST_NAME_MAX * 2 + 80];

	for (int i = 0; i < st->nsys; i++) {
		struct lsys *y = &st->sys[i];

		if (y->kind == SYS_UNKNOWN)
			y->kind = y->from_node || y->bridge ? SYS_SWITCH : SYS_HOST;
	}
	/* every port a sighting names: first those of each record's own
	 * system, then its neighbours' that their own records list */
	for (int k = 0; k < st->ns; k++) {
		const struct lsight *s = &st->s[k];
		char key[LINK_KEY_MAX];

		if (_sys_port(st, s->src, s->ifname, 0, 1) < 0 ||
		    (!_link_key(key, st, s->src, s->ifname, s->nb, s->nb_port) &&
		     fst_index_put(&st->own, key, k)))
			return fs_errf(st->err, st->errlen, "out of memory");
	}
	for (int k = 0; k < st->ns; k++) {
		if (_doubted(st, k))
			return -1;
		if (!st->s[k].doubted &&
		    _sys_port(st, st->s[k].nb, st->s[k].nb_port, st->s[k].nb_port_mac, 0) < 0)
			return fs_errf(st->err, st->errlen, "out of memory");
	}
	for (int i = 0; i < st->nsys; i++) {
		struct lsys *y = &st->sys[i];

		if (y->kind == SYS_SWITCH) {
			int top;

			if (y->nports > 255)
				return fs_errf(st->err, st->errlen,
					       "switch %s: %d ports seen; expected at most 255",
					       y->key, y->nports);
			qsort(y->ports, (size_t)y->nports, sizeof(*y->ports), _cmp_name);
			if (!(y->num = calloc((size_t)y->nports + 1, sizeof(int))))
				return fs_errf(st->err, st->errlen, "out of memory");
			top = _number_ports(y);
			if (y->mac)
				snprintf(id, sizeof(id), "S-%016" PRIx64, y->mac);
			else
				snprintf(id, sizeof(id), "S-%s", y->key);
			if (fst_index_get(&m->priv->ids, id) >= 0) /* two names, one chassis */
				snprintf(id, sizeof(id), "S-%s", y->key);
			y->dev = fst_add_device(m, FST_SWITCH, id, y->mac, top);
			if (y->dev < 0 || fst_set_str(&m->devs[y->dev].desc,
						      strncmp(y->key, "chassis-", 8) ? y->key : ""))
				return fs_errf(st->err, st->errlen, "out of memory");
			for (int p = 0; p < y->nports; p++)
				if (fst_port_label_ok(y->ports[p]))
					strcpy(m->devs[y->dev].ports[y->num[p]].label, y->ports[p]);
			continue;
		}
		if (!(y->nic = calloc((size_t)y->nports + 1, sizeof(int))))
			return fs_errf(st->err, st->errlen, "out of memory");
		for (int p = 0; p < y->nports; p++) {
			char desc[FST_NAME_MAX * 2 + 80];

			snprintf(id, sizeof(id), "H-%s-%s", y->key, y->ports[p]);
			snprintf(desc, sizeof(desc), "%s %s", y->key, y->ports[p]);
			y->nic[p] = fst_add_device(m, FST_HCA, id, y->pmac[p], 1);
			if (y->nic[p] < 0 || fst_set_str(&m->devs[y->nic[p]].desc, desc))
				return fs_errf(st->err, st->errlen, "out of memory");
			m->devs[y->nic[p]].ports[1].guid = y->pmac[p];
			m->devs[y->nic[p]].own_record = y->own[p];
		}
	}
	return 0;
}

/* The device and port of @name on system @i. */
static void _end(const struct lstate *st, int i, const char *name, int *dev, int *port)
{
	const struct lsys *y = &st->sys[i];

	for (int p = 0; p < y->nports; p++)
		if (!strcmp(y->ports[p], name)) {
			*dev = y->kind == SYS_SWITCH ? y->dev : y->nic[p];
			*port = y->kind == SYS_SWITCH ? y->num[p] : 1;
			return;
		}
	*dev = -1;
}

static int _links(struct lstate *st)
{
	for (int k = 0; k < st->ns; k++) {
		const struct lsight *s = &st->s[k];
		enum fst_speed sp = fst_speed_from_mbps(s->mbps);
		int a, ap, b, bp;

		if (s->doubted)
			continue;
		_end(st, s->src, s->ifname, &a, &ap);
		_end(st, s->nb, s->nb_port, &b, &bp);
		if (a < 0 || b < 0)
			continue; /* not reached: every port was added */
		if (fst_connect(st->m, a, ap, b, bp, sp != FST_SPEED_UNKNOWN, sp))
			return fs_errf(st->err, st->errlen, "out of memory");
	}
	return 0;
}

static void _free(struct lstate *st)
{
	for (int i = 0; i < st->nsys; i++) {
		for (int p = 0; p < st->sys[i].nports; p++)
			free(st->sys[i].ports[p]);
		free(st->sys[i].ports);
		free(st->sys[i].pmac);
		free(st->sys[i].own);
		free(st->sys[i].num);
		free(st->sys[i].nic);
		free(st->sys[i].key);
	}
	free(st->sys);
	for (int k = 0; k < st->ns; k++) {
		free(st->s[k].ifname);
		free(st->s[k].nb_port);
	}
	free(st->s);
	fst_index_clear(&st->keys);
	fst_index_clear(&st->own);
	fst_model_free(st->m);
}

int fst_parse_lldp(struct fst_model **out, const char *node_dir, const char *switch_dir, char *err,
		   size_t errlen)
{
	return fst_parse_lldp_aged(out, node_dir, switch_dir, 0, 0, err, errlen);
}

int fst_parse_lldp_aged(struct fst_model **out, const char *node_dir, const char *switch_dir,
			uint64_t max_age, time_t now, char *err, size_t errlen)
{
	struct lstate st = { .err = err, .errlen = errlen, .max_age = max_age, .now = now };
	char src[8192];
	int rc = -1;

	*out = NULL;
	if (!(st.m = fst_model_new()))
		return fs_errf(err, errlen, "out of memory");
	snprintf(src, sizeof(src), "lldp:%s%s%s", node_dir, switch_dir ? "," : "",
		 switch_dir ? switch_dir : "");
	if (fst_set_str(&st.m->source, src))
		goto out;
	for (int pass = 0; pass < 2; pass++)
		if (_dir(&st, node_dir, SYS_HOST, pass) ||
		    (switch_dir && _dir(&st, switch_dir, SYS_SWITCH, pass)))
			goto out;
	if (!st.ns && st.nstale) {
		fs_errf(err, errlen,
			"%s: no LLDP neighbour in a record written in the last %" PRIu64
			" s (%d record(s) older); expected records the nodes rewrite (fabsched-lldp-record.timer)",
			node_dir, max_age, st.nstale);
		goto out;
	}
	if (!st.ns) {
		fs_errf(err, errlen,
			"%s: no LLDP neighbour in any record; expected <node>.json files holding the output of " LLDP_FORM,
			node_dir);
		goto out;
	}
	if (_devices(&st) || _links(&st))
		goto out;
	*out = st.m;
	st.m = NULL;
	rc = 0;
out:
	_free(&st);
	return rc;
}
