/*
 * json.c — the JSON model file (writer and reader), read by the Slurm
 * plugins and the placement engine.  Schema: doc/fabsched.1 (JSON MODEL)
 * and fabsched_topo.h; format "fabsched-topology", version 1.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

/* ------------------------------------------------------------ writer */
static json_object *_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *_guid(uint64_t g)
{
	char b[24];

	snprintf(b, sizeof(b), "0x%016" PRIx64, g);
	return json_object_new_string(b);
}

static json_object *_gname(const struct fst_group *g, int n, int i)
{
	return (i >= 0 && i < n) ? json_object_new_string(g[i].name) : NULL;
}

static int _add(json_object *o, const char *k, json_object *v)
{
	return json_object_object_add(o, k, v);
}

static int _is_child(const struct fst_model *m, int d, int r)
{
	return m->devs[r].type == FST_SWITCH && m->devs[d].level >= 1 &&
	       m->devs[r].level == m->devs[d].level - 1 &&
	       (m->devs[r].role == FST_ROLE_LEAF || m->devs[r].role == FST_ROLE_SPINE);
}

static json_object *_switches(const struct fst_model *m)
{
	json_object *arr = json_object_new_array();
	int *seen = calloc((size_t)m->ndevs + 1, sizeof(int));

	if (!arr || !seen) {
		free(seen);
		json_object_put(arr);
		return NULL;
	}
	for (int d = 0; d < m->ndevs; d++) {
		const struct fst_device *dv = &m->devs[d];
		json_object *o, *nodes, *ch, *par;
		long cnt[16] = { 0 }, val[16] = { 0 };
		int nv = 0, best = -1;

		if (dv->type == FST_HCA)
			continue;
		o = json_object_new_object();
		nodes = json_object_new_array();
		ch = json_object_new_array();
		par = json_object_new_array();
		_add(o, "name", _str(dv->name));
		_add(o, "id", _str(dv->id));
		_add(o, "guid", _guid(dv->guid));
		if (dv->sysimgguid) /* the chassis of a director's ASICs */
			_add(o, "sysimgguid", _guid(dv->sysimgguid));
		_add(o, "desc", _str(dv->desc));
		_add(o, "type",
		     json_object_new_string(dv->type == FST_SWITCH ? "switch" : "router"));
		_add(o, "role", json_object_new_string(fst_role_name(dv->role)));
		_add(o, "level", json_object_new_int(dv->level));
		_add(o, "plane", json_object_new_int(dv->plane));
		_add(o, "pod", _gname(m->pods, m->npods, dv->pod));
		_add(o, "rack", _gname(m->racks, m->nracks, dv->rack));
		_add(o, "nports", json_object_new_int(dv->nports));
		if (dv->rack >= 0 && m->racks[dv->rack].leaf == d)
			for (int k = 0; k < m->racks[dv->rack].nmembers; k++) {
				int h = m->racks[dv->rack].members[k];

				if (m->hosts[h].leaf == d)
					json_object_array_add(
						nodes, json_object_new_string(m->hosts[h].name));
			}
		for (int p = 1; p <= dv->nports; p++) {
			int r = dv->ports[p].peer, k;
			long v;

			if (r < 0 || r == d)
				continue;
			if (m->devs[r].type == FST_SWITCH && seen[r] != d + 1) {
				seen[r] = d + 1;
				if (_is_child(m, d, r))
					json_object_array_add(
						ch, json_object_new_string(m->devs[r].name));
				else if (_is_child(m, r, d))
					json_object_array_add(
						par, json_object_new_string(m->devs[r].name));
			}
			v = fst_link_mbps(dv->ports[p].width, dv->ports[p].speed);
			if (v <= 0 || !(dv->level == 0 ? m->devs[r].role == FST_ROLE_COMPUTE
						       : _is_child(m, d, r)))
				continue;
			for (k = 0; k < nv && val[k] != v; k++)
				;
			if (k == nv && nv < 16)
				val[nv++] = v;
			if (k < 16)
				cnt[k]++;
		}
		for (int k = 0; k < nv; k++)
			if (best < 0 || cnt[k] > cnt[best] ||
			    (cnt[k] == cnt[best] && val[k] < val[best]))
				best = k;
		_add(o, "link_speed", json_object_new_int64(best < 0 ? 0 : val[best]));
		_add(o, "nodes", nodes);
		_add(o, "children", ch);
		_add(o, "parents", par);
		json_object_array_add(arr, o);
	}
	free(seen);
	return arr;
}

static json_object *_hcas(const struct fst_model *m)
{
	json_object *arr = json_object_new_array();

	for (int d = 0; d < m->ndevs; d++) {
		const struct fst_device *dv = &m->devs[d];
		json_object *o, *ports;

		if (dv->type != FST_HCA)
			continue;
		o = json_object_new_object();
		ports = json_object_new_array();
		_add(o, "id", _str(dv->id));
		_add(o, "guid", _guid(dv->guid));
		_add(o, "desc", _str(dv->desc));
		_add(o, "host", dv->host >= 0 ? _str(m->hosts[dv->host].name) : NULL);
		_add(o, "role", json_object_new_string(fst_role_name(dv->role)));
		_add(o, "reason", _str(dv->reason));
		_add(o, "plane", json_object_new_int(dv->plane));
		_add(o, "nports", json_object_new_int(dv->nports));
		for (int p = 1; p <= dv->nports; p++) {
			const struct fst_port *pt = &dv->ports[p];
			json_object *po;

			if (pt->peer < 0 && !pt->guid)
				continue;
			po = json_object_new_object();
			_add(po, "port", json_object_new_int(p));
			_add(po, "guid", _guid(pt->guid));
			_add(po, "lid", json_object_new_int(pt->lid));
			_add(po, "peer", pt->peer >= 0 ? _str(m->devs[pt->peer].id) : NULL);
			_add(po, "peer_port", json_object_new_int(pt->peer_port));
			json_object_array_add(ports, po);
		}
		_add(o, "ports", ports);
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The port's label ("1/2/1") under @key, when it has one: a model
 * without labels is written as before they were kept. */
static void _label(json_object *o, const char *key, const struct fst_port *pt)
{
	if (pt->label[0])
		_add(o, key, json_object_new_string(pt->label));
}

static json_object *_links(const struct fst_model *m)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < m->nlinks; i++) {
		const struct fst_link *l = &m->links[i];
		json_object *o = json_object_new_object();

		_add(o, "a", _str(m->devs[l->a].id));
		_add(o, "a_port", json_object_new_int(l->a_port));
		_label(o, "a_label", &m->devs[l->a].ports[l->a_port]);
		_add(o, "b", _str(m->devs[l->b].id));
		_add(o, "b_port", json_object_new_int(l->b_port));
		_label(o, "b_label", &m->devs[l->b].ports[l->b_port]);
		_add(o, "width", json_object_new_int(l->width));
		_add(o, "speed", json_object_new_string(fst_speed_name(l->speed)));
		_add(o, "mbps", json_object_new_int64(fst_link_mbps(l->width, l->speed)));
		_add(o, "tier", json_object_new_int(l->tier));
		_add(o, "degraded", json_object_new_boolean(l->degraded));
		_add(o, "self_loop", json_object_new_boolean(l->self_loop));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *_nodes(const struct fst_model *m)
{
	json_object *arr = json_object_new_array();

	for (int h = 0; h < m->nhosts; h++) {
		const struct fst_host *ho = &m->hosts[h];
		json_object *o = json_object_new_object(), *hc = json_object_new_array();

		_add(o, "name", _str(ho->name));
		_add(o, "rank", json_object_new_int(ho->rank));
		_add(o, "leaf", ho->leaf >= 0 ? _str(m->devs[ho->leaf].name) : NULL);
		_add(o, "rack", _gname(m->racks, m->nracks, ho->rack));
		_add(o, "pod", _gname(m->pods, m->npods, ho->pod));
		_add(o, "plane", _gname(m->planes, m->nplanes, ho->plane));
		_add(o, "leaves", json_object_new_int(ho->nleaves));
		for (int i = 0; i < ho->nhcas; i++)
			json_object_array_add(hc, json_object_new_string(m->devs[ho->hcas[i]].id));
		_add(o, "hcas", hc);
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *_groups(const struct fst_model *m, const struct fst_group *g, int n,
			    const char *members_key, const struct fst_group *parent, int nparent,
			    const char *parent_key, int kind)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < n; i++) {
		json_object *o = json_object_new_object(), *mem = json_object_new_array();

		_add(o, "name", _str(g[i].name));
		if (parent_key)
			_add(o, parent_key, _gname(parent, nparent, g[i].parent));
		if (kind == 0)
			_add(o, "leaf", g[i].leaf >= 0 ? _str(m->devs[g[i].leaf].name) : NULL);
		for (int k = 0; k < g[i].nmembers; k++) {
			int x = g[i].members[k];
			const char *s = kind == 0   ? m->hosts[x].name
					: kind == 1 ? m->racks[x].name
						    : m->pods[x].name;

			json_object_array_add(mem, json_object_new_string(s));
		}
		_add(o, members_key, mem);
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *_issues(const struct fst_model *m)
{
	json_object *arr = json_object_new_array();
	static const char *const sev[] = { "note", "warning", "problem" };

	for (int i = 0; i < m->nissues; i++) {
		const struct fst_issue *is = &m->issues[i];
		json_object *o = json_object_new_object();

		_add(o, "kind", json_object_new_string(fst_issue_kind_name(is->kind)));
		_add(o, "severity", json_object_new_string(sev[is->severity]));
		_add(o, "message", _str(is->msg));
		_add(o, "dev", is->dev >= 0 ? _str(m->devs[is->dev].id) : NULL);
		_add(o, "port", json_object_new_int(is->port));
		_add(o, "peer", is->peer >= 0 ? _str(m->devs[is->peer].id) : NULL);
		_add(o, "peer_port", json_object_new_int(is->peer_port));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* Sections are built, written and freed one at a time: peak memory is
 * that of the largest section, not of the whole document. */
static int _section(FILE *out, const char *key, json_object *v, int last)
{
	const char *s;
	int rc = 0;

	s = v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE)
	      : "null";
	if (!s)
		rc = -1;
	else
		fprintf(out, "  \"%s\": %s%s\n", key, s, last ? "" : ",");
	json_object_put(v);
	return rc;
}

int fst_json_write(const struct fst_model *m, FILE *out, char *err, size_t errlen)
{
	json_object *src = _str(m->source);
	int rc = 0;

	if (!m->classified)
		return fs_errf(err, errlen, "model not classified");
	fprintf(out, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n", FST_JSON_FORMAT,
		FST_JSON_VERSION);
	rc |= _section(out, "source", src, 0);
	rc |= _section(out, "max_level", json_object_new_int(m->max_level), 0);
	rc |= _section(out, "switches", _switches(m), 0);
	rc |= _section(out, "hcas", _hcas(m), 0);
	rc |= _section(out, "links", _links(m), 0);
	rc |= _section(out, "nodes", _nodes(m), 0);
	rc |= _section(out, "racks",
		       _groups(m, m->racks, m->nracks, "nodes", m->pods, m->npods, "pod", 0), 0);
	rc |= _section(out, "pods",
		       _groups(m, m->pods, m->npods, "racks", m->planes, m->nplanes, "plane", 1),
		       0);
	rc |= _section(out, "planes", _groups(m, m->planes, m->nplanes, "pods", NULL, 0, NULL, 2),
		       0);
	rc |= _section(out, "issues", _issues(m), 1);
	fprintf(out, "}\n");
	if (rc)
		return fs_errf(err, errlen, "out of memory");
	return ferror(out) ? fs_errf(err, errlen, "write error") : 0;
}

char *fst_json_string(const struct fst_model *m, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		fs_errf(err, errlen, "out of memory");
		return NULL;
	}
	if (fst_json_write(m, f, err, errlen)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	if (fclose(f)) {
		free(buf);
		fs_errf(err, errlen, "out of memory");
		return NULL;
	}
	return buf;
}

/* ------------------------------------------------------------ reader */
struct rd {
	struct fst_model *m;
	const char *file;
	char *err;
	size_t errlen;
	struct fst_index racks, pods, planes;
};

static int _rerr(struct rd *r, const char *path, const char *expected)
{
	return fs_errf(r->err, r->errlen, "%s: %s: bad or missing value; expected %s", r->file,
		       path, expected);
}

static json_object *_get(json_object *o, const char *k, json_type t)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

static const char *_gets(json_object *o, const char *k)
{
	json_object *v = _get(o, k, json_type_string);

	return v ? json_object_get_string(v) : NULL;
}

static int _geti(json_object *o, const char *k, int *out)
{
	json_object *v = _get(o, k, json_type_int);

	if (!v)
		return -1;
	*out = json_object_get_int(v);
	return 0;
}

static int _role(const char *s)
{
	for (int r = FST_ROLE_NONE; r <= FST_ROLE_NONCOMPUTE; r++)
		if (!strcmp(s, fst_role_name((enum fst_role)r)))
			return r;
	return -1;
}

static const char *_reason_static(const char *s)
{
	static const char *const reasons[] = { "sharp-aggregation-node",
					       "no-description",
					       "regex-mismatch",
					       "default-description",
					       "localhost",
					       "invalid-host-name",
					       "excluded",
					       "not-in-nodelist",
					       NULL };

	for (int i = 0; reasons[i]; i++)
		if (!strcmp(s, reasons[i]))
			return reasons[i];
	return "other";
}

/* A GUID as the writer gives it: "0x" and 1 to 16 hexadecimal digits. */
static int _guid_ok(const char *s, uint64_t *out)
{
	size_t n;

	if (!s || s[0] != '0' || s[1] != 'x')
		return 0;
	n = strlen(s + 2);
	if (!n || n > 16 || strspn(s + 2, "0123456789abcdefABCDEF") != n)
		return 0;
	*out = strtoull(s + 2, NULL, 16);
	return 1;
}

/* The optional system image GUID of switch @o (@path) into @dv: absent or
 * null in a model written before it was kept, or of a switch without one. */
static int _read_sysimg(struct rd *r, json_object *o, const char *path, struct fst_device *dv)
{
	json_object *v;
	char p[128];

	if (!json_object_object_get_ex(o, "sysimgguid", &v) || !v)
		return 0;
	if (json_object_is_type(v, json_type_string) &&
	    strlen(json_object_get_string(v)) == (size_t)json_object_get_string_len(v) &&
	    _guid_ok(json_object_get_string(v), &dv->sysimgguid))
		return 0;
	snprintf(p, sizeof(p), "%s.sysimgguid", path);
	return _rerr(r, p, "a system image GUID \"0x<1 to 16 hex digits>\"");
}

static int _read_devs(struct rd *r, json_object *arr, enum fst_devtype type, const char *what)
{
	char path[96];
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		const char *id = _gets(o, "id"), *desc = _gets(o, "desc"), *gs = _gets(o, "guid");
		const char *role = _gets(o, "role"), *name = _gets(o, "name");
		const char *ts = _gets(o, "type");
		int nports, level = -1, plane = -1, d, rl;
		uint64_t guid;
		char *end;

		snprintf(path, sizeof(path), "%s[%zu]", what, i);
		if (!json_object_is_type(o, json_type_object) || !id || !gs ||
		    _geti(o, "nports", &nports) || nports < 0 || nports > 254 || !role ||
		    (rl = _role(role)) < 0)
			return _rerr(r, path, "an object with id, guid, nports (0-254), role");
		if (fst_index_get(&r->m->priv->ids, id) >= 0)
			return _rerr(r, path, "a unique id");
		errno = 0;
		guid = strtoull(gs, &end, 16);
		if (errno || *end)
			return _rerr(r, path, "guid \"0x<hex>\"");
		if (ts && !strcmp(ts, "router"))
			type = FST_ROUTER;
		d = fst_add_device(r->m, type, id, guid, nports);
		if (d < 0)
			return fs_errf(r->err, r->errlen, "out of memory");
		struct fst_device *dv = &r->m->devs[d];
		_geti(o, "level", &level);
		_geti(o, "plane", &plane);
		dv->level = type == FST_HCA ? -1 : level;
		dv->plane = plane;
		dv->role = (enum fst_role)rl;
		if (fst_set_str(&dv->desc, desc ? desc : ""))
			return fs_errf(r->err, r->errlen, "out of memory");
		if (type == FST_HCA) {
			const char *host = _gets(o, "host"), *reason = _gets(o, "reason");

			if (host && fst_set_str(&dv->name, host))
				return fs_errf(r->err, r->errlen, "out of memory");
			if (reason)
				dv->reason = _reason_static(reason);
		} else {
			const char *pod = _gets(o, "pod"), *rack = _gets(o, "rack");

			if (!name)
				return _rerr(r, path, "a switch name");
			if (_read_sysimg(r, o, path, dv))
				return -1;
			if (fst_set_str(&dv->name, name) ||
			    fst_index_put(&r->m->priv->names, name, d))
				return fs_errf(r->err, r->errlen, "out of memory");
			dv->pod = pod ? fst_index_get(&r->pods, pod) : -1;
			dv->rack = rack ? fst_index_get(&r->racks, rack) : -1;
			if (dv->level > r->m->max_level)
				r->m->max_level = dv->level;
		}
		if (type == FST_HCA) {
			json_object *ports = _get(o, "ports", json_type_array);
			size_t np = ports ? json_object_array_length(ports) : 0;

			for (size_t k = 0; k < np; k++) {
				json_object *po = json_object_array_get_idx(ports, k);
				int pn, lid = 0;
				const char *pg = _gets(po, "guid");

				if (_geti(po, "port", &pn) || pn < 1 || pn > nports)
					return _rerr(r, path, "ports[].port within 1..nports");
				_geti(po, "lid", &lid);
				dv->ports[pn].lid = lid;
				if (pg)
					dv->ports[pn].guid = strtoull(pg, NULL, 16);
			}
		}
	}
	return 0;
}

static int _read_groups(struct rd *r, json_object *root, const char *key, struct fst_group **g,
			int *ng, struct fst_index *ix)
{
	json_object *arr = _get(root, key, json_type_array);
	size_t n;
	char path[96];

	if (!arr)
		return _rerr(r, key, "an array");
	n = json_object_array_length(arr);
	*g = calloc(n + 1, sizeof(**g));
	if (!*g)
		return fs_errf(r->err, r->errlen, "out of memory");
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		const char *name = _gets(o, "name");

		snprintf(path, sizeof(path), "%s[%zu]", key, i);
		if (!name)
			return _rerr(r, path, "an object with a name");
		(*g)[i].name = strdup(name);
		(*g)[i].parent = -1;
		(*g)[i].leaf = -1;
		(*ng)++;
		if (!(*g)[i].name || fst_index_put(ix, name, (int)i))
			return fs_errf(r->err, r->errlen, "out of memory");
	}
	return 0;
}

static int _link_groups(struct rd *r, json_object *root, const char *key, struct fst_group *g,
			const char *mkey, struct fst_index *mix, const char *pkey,
			struct fst_index *pix)
{
	json_object *arr = _get(root, key, json_type_array);
	size_t n = json_object_array_length(arr);
	char path[96];

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		json_object *mem = _get(o, mkey, json_type_array);
		const char *p = pkey ? _gets(o, pkey) : NULL;
		size_t nm = mem ? json_object_array_length(mem) : 0;

		snprintf(path, sizeof(path), "%s[%zu].%s", key, i, mkey);
		if (!mem)
			return _rerr(r, path, "an array of names");
		g[i].parent = p ? fst_index_get(pix, p) : -1;
		if (p && g[i].parent < 0)
			return _rerr(r, path, "a parent group that exists");
		g[i].members = calloc(nm + 1, sizeof(int));
		if (!g[i].members)
			return fs_errf(r->err, r->errlen, "out of memory");
		for (size_t k = 0; k < nm; k++) {
			json_object *v = json_object_array_get_idx(mem, k);
			int x = json_object_is_type(v, json_type_string)
					? fst_index_get(mix, json_object_get_string(v))
					: -1;

			if (x < 0)
				return _rerr(r, path, "names of existing members");
			g[i].members[g[i].nmembers++] = x;
		}
		if (!strcmp(key, "racks")) {
			const char *leaf = _gets(o, "leaf");

			g[i].leaf = leaf ? fst_index_get(&r->m->priv->names, leaf) : -1;
		}
	}
	return 0;
}

/* A port label: decimal numbers joined by '/' ("1/4/1"), as
 * parse_ibnet.c keeps them, or an Ethernet switch's port name ("swp1",
 * "Ethernet1/1"), as parse_lldp.c keeps them: at most
 * FST_PORT_LABEL_MAX - 1 characters. */
int fst_port_label_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= FST_PORT_LABEL_MAX || s[0] == '/' || s[n - 1] == '/' || strstr(s, "//"))
		return 0;
	if (isalpha((unsigned char)s[0])) {
		for (size_t i = 0; i < n; i++)
			if (!isalnum((unsigned char)s[i]) && !strchr("._:/@+-", s[i]))
				return 0;
		return 1;
	}
	return strspn(s, "0123456789/") == n;
}

/* The optional label of a link end (links[@i].@key) into @pt. */
static int _read_label(struct rd *r, json_object *o, size_t i, const char *key, struct fst_port *pt)
{
	json_object *v;
	char path[96];

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0; /* none, or null: no label */
	snprintf(path, sizeof(path), "links[%zu].%s", i, key);
	if (!json_object_is_type(v, json_type_string) ||
	    !fst_port_label_ok(json_object_get_string(v)) ||
	    strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v))
		return _rerr(
			r, path,
			"a port label of numbers joined by '/' (\"1/4/1\") or a port name "
			"(\"swp1\": a letter, then letters, digits, ._:/@+-), at most 15 characters");
	snprintf(pt->label, sizeof(pt->label), "%s", json_object_get_string(v));
	return 0;
}

static int _read_links(struct rd *r, json_object *ln)
{
	struct fst_model *m = r->m;
	char path[96];

	for (size_t i = 0; i < json_object_array_length(ln); i++) {
		json_object *o = json_object_array_get_idx(ln, i), *v;
		const char *a = _gets(o, "a"), *b = _gets(o, "b"), *sp = _gets(o, "speed");
		int ap, bp, w = 0, da, db, l, tier = -1;
		enum fst_speed s = FST_SPEED_UNKNOWN;
		struct fst_port *pa, *pb;

		snprintf(path, sizeof(path), "links[%zu]", i);
		if (!a || !b || _geti(o, "a_port", &ap) || _geti(o, "b_port", &bp) ||
		    (da = fst_index_get(&m->priv->ids, a)) < 0 ||
		    (db = fst_index_get(&m->priv->ids, b)) < 0 || ap < 1 || bp < 1 ||
		    ap > m->devs[da].nports || bp > m->devs[db].nports ||
		    m->devs[da].ports[ap].peer >= 0 || m->devs[db].ports[bp].peer >= 0)
			return _rerr(r, path,
				     "a, b (existing device ids) and free ports a_port, b_port");
		_geti(o, "width", &w);
		_geti(o, "tier", &tier);
		if (sp && strcmp(sp, "?") && fst_speed_from_name(sp, &s))
			return _rerr(
				r, path,
				"speed SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR or 1GbE|10GbE|25GbE|40GbE|50GbE|100GbE|200GbE|400GbE|800GbE");
		pa = &m->devs[da].ports[ap];
		pb = &m->devs[db].ports[bp];
		if (_read_label(r, o, i, "a_label", pa) || _read_label(r, o, i, "b_label", pb))
			return -1;
		l = fst_add_link(m, da, ap, db, bp, w, s);
		if (l < 0)
			return fs_errf(r->err, r->errlen, "out of memory");
		m->links[l].tier = tier;
		m->links[l].degraded =
			(v = _get(o, "degraded", json_type_boolean)) && json_object_get_boolean(v);
		pa->peer = db;
		pa->peer_port = bp;
		pa->link = l;
		pa->width = w;
		pa->speed = s;
		pb->peer = da;
		pb->peer_port = ap;
		pb->link = l;
		pb->width = w;
		pb->speed = s;
	}
	return 0;
}

/* The HCAs of host ho (the last read, at @path) from its object o. */
static int _read_host_hcas(struct rd *r, json_object *o, const char *path, struct fst_host *ho)
{
	struct fst_model *m = r->m;
	json_object *hcs = _get(o, "hcas", json_type_array);
	size_t nh2;

	if (!hcs)
		return 0;
	nh2 = json_object_array_length(hcs);
	ho->hcas = calloc(nh2 + 1, sizeof(int));
	if (!ho->hcas)
		return fs_errf(r->err, r->errlen, "out of memory");
	for (size_t k = 0; k < nh2; k++) {
		json_object *hv = json_object_array_get_idx(hcs, k);
		int d = json_object_is_type(hv, json_type_string)
				? fst_index_get(&m->priv->ids, json_object_get_string(hv))
				: -1;

		if (d < 0 || m->devs[d].type != FST_HCA)
			return _rerr(r, path, "hcas: ids of HCAs");
		ho->hcas[ho->nhcas++] = d;
		m->devs[d].host = m->nhosts - 1;
	}
	return 0;
}

/* The hosts (nodes[]): names, leaves, groups, ranks, HCAs. */
static int _read_nodes(struct rd *r, json_object *nd)
{
	struct fst_model *m = r->m;
	char path[96];
	int cap_hosts = 0;

	m->hosts = NULL;
	for (size_t i = 0; i < json_object_array_length(nd); i++) {
		json_object *o = json_object_array_get_idx(nd, i);
		const char *name = _gets(o, "name"), *leaf = _gets(o, "leaf"), *s;
		struct fst_host *ho, *nh;

		snprintf(path, sizeof(path), "nodes[%zu]", i);
		if (!name || !fst_host_name_ok(name) || fst_index_get(&m->priv->hostix, name) >= 0)
			return _rerr(r, path, "an object with a unique valid name");
		nh = fst_grow(m->hosts, &cap_hosts, m->nhosts + 1, sizeof(*m->hosts));
		if (!nh)
			return fs_errf(r->err, r->errlen, "out of memory");
		m->hosts = nh;
		ho = &m->hosts[m->nhosts];
		memset(ho, 0, sizeof(*ho));
		ho->name = strdup(name);
		if (!ho->name || fst_index_put(&m->priv->hostix, name, m->nhosts))
			return fs_errf(r->err, r->errlen, "out of memory");
		m->nhosts++;
		ho->leaf = leaf ? fst_index_get(&m->priv->names, leaf) : -1;
		ho->rack = (s = _gets(o, "rack")) ? fst_index_get(&r->racks, s) : -1;
		ho->pod = (s = _gets(o, "pod")) ? fst_index_get(&r->pods, s) : -1;
		ho->plane = (s = _gets(o, "plane")) ? fst_index_get(&r->planes, s) : -1;
		if (_geti(o, "rank", &ho->rank))
			ho->rank = (int)i;
		_geti(o, "leaves", &ho->nleaves);
		if (_read_host_hcas(r, o, path, ho))
			return -1;
	}
	return 0;
}

/* The issues kept with the model (@is may be NULL); an entry without a
 * kind or message, or of a kind unknown here, is skipped. */
static int _read_issues(struct rd *r, json_object *is)
{
	struct fst_model *m = r->m;

	for (size_t i = 0; is && i < json_object_array_length(is); i++) {
		json_object *o = json_object_array_get_idx(is, i);
		const char *kind = _gets(o, "kind"), *sev = _gets(o, "severity"),
			   *msg = _gets(o, "message");
		const char *dv = _gets(o, "dev"), *pe = _gets(o, "peer");
		int k, port = -1, pport = -1;
		enum fst_severity s = FST_INFO;

		if (!kind || !msg)
			continue;
		for (k = FST_ISSUE_IGNORED_LINE; k <= FST_ISSUE_LAST; k++)
			if (!strcmp(kind, fst_issue_kind_name((enum fst_issue_kind)k)))
				break;
		if (k > FST_ISSUE_LAST)
			continue;
		if (sev && !strcmp(sev, "problem"))
			s = FST_PROBLEM;
		else if (sev && !strcmp(sev, "warning"))
			s = FST_WARNING;
		_geti(o, "port", &port);
		_geti(o, "peer_port", &pport);
		if (fst_add_issue(m, (enum fst_issue_kind)k, s,
				  dv ? fst_index_get(&m->priv->ids, dv) : -1, port,
				  pe ? fst_index_get(&m->priv->ids, pe) : -1, pport, "%s", msg))
			return fs_errf(r->err, r->errlen, "out of memory");
	}
	return 0;
}

/* The document's format and version; the model's source. */
static int _read_header(struct rd *r, json_object *root)
{
	const char *fmt = _gets(root, "format"), *src = _gets(root, "source");
	int ver;

	if (!fmt || strcmp(fmt, FST_JSON_FORMAT))
		return _rerr(r, "format", "\"" FST_JSON_FORMAT "\"");
	if (_geti(root, "version", &ver) || ver != FST_JSON_VERSION)
		return _rerr(r, "version", "1");
	if (fst_set_str(&r->m->source, src ? src : r->file))
		return fs_errf(r->err, r->errlen, "out of memory");
	return 0;
}

static int _read(struct rd *r, json_object *root)
{
	struct fst_model *m = r->m;
	json_object *sw, *hc, *ln, *nd;

	if (_read_header(r, root))
		return -1;
	if (!(sw = _get(root, "switches", json_type_array)))
		return _rerr(r, "switches", "an array");
	if (!(hc = _get(root, "hcas", json_type_array)))
		return _rerr(r, "hcas", "an array");
	if (!(ln = _get(root, "links", json_type_array)))
		return _rerr(r, "links", "an array");
	if (!(nd = _get(root, "nodes", json_type_array)))
		return _rerr(r, "nodes", "an array");
	if (_read_groups(r, root, "planes", &m->planes, &m->nplanes, &r->planes) ||
	    _read_groups(r, root, "pods", &m->pods, &m->npods, &r->pods) ||
	    _read_groups(r, root, "racks", &m->racks, &m->nracks, &r->racks))
		return -1;
	if (_read_devs(r, sw, FST_SWITCH, "switches") || _read_devs(r, hc, FST_HCA, "hcas") ||
	    _read_links(r, ln) || _read_nodes(r, nd))
		return -1;
	if (_link_groups(r, root, "racks", m->racks, "nodes", &m->priv->hostix, "pod", &r->pods) ||
	    _link_groups(r, root, "pods", m->pods, "racks", &r->racks, "plane", &r->planes) ||
	    _link_groups(r, root, "planes", m->planes, "pods", &r->pods, NULL, NULL))
		return -1;
	if (_read_issues(r, _get(root, "issues", json_type_array)))
		return -1;
	for (int h = 0; h < m->nhosts; h++) {
		int l = m->hosts[h].leaf;

		if (l >= 0)
			m->devs[l].nhosts++;
	}
	m->classified = 1;
	return 0;
}

struct json_object *fst_json_parse(const char *buf, size_t len, const char *file, char *err,
				   size_t errlen)
{
	struct json_tokener *tok;
	json_object *root;

	if (len > (size_t)1 << 30) {
		fs_errf(err, errlen, "%s: too large", file);
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		fs_errf(err, errlen, "out of memory");
		return NULL;
	}
	root = json_tokener_parse_ex(tok, buf, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		enum json_tokener_error e = json_tokener_get_error(tok);
		size_t off = json_tokener_get_parse_end(tok);
		int line = 1;

		for (size_t i = 0; i < off && i < len; i++)
			line += buf[i] == '\n';
		json_object_put(root);
		json_tokener_free(tok);
		fs_errf(err, errlen, "%s:%d: %s; expected a JSON document", file, line,
			e == json_tokener_continue ? "unexpected end of input"
						   : json_tokener_error_desc(e));
		return NULL;
	}
	json_tokener_free(tok);
	return root;
}

int fst_json_read_buf(struct fst_model **out, const char *buf, size_t len, const char *name,
		      char *err, size_t errlen)
{
	json_object *root;
	struct rd r = { 0 };
	int rc;

	*out = NULL;
	r.file = name ? name : "<json>";
	r.err = err;
	r.errlen = errlen;
	root = fst_json_parse(buf, len, r.file, err, errlen);
	if (!root)
		return -1;
	if (!json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return fs_errf(err, errlen,
			       "%s: top level is not an object; expected a fabsched model", r.file);
	}
	r.m = fst_model_new();
	if (!r.m) {
		json_object_put(root);
		return fs_errf(err, errlen, "out of memory");
	}
	rc = _read(&r, root);
	json_object_put(root);
	fst_index_clear(&r.racks);
	fst_index_clear(&r.pods);
	fst_index_clear(&r.planes);
	if (rc) {
		fst_model_free(r.m);
		return -1;
	}
	*out = r.m;
	return 0;
}

int fst_json_read_file(struct fst_model **out, const char *path, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	if (fst_read_file(path, &buf, &len, err, errlen))
		return -1;
	rc = fst_json_read_buf(out, buf, len, path, err, errlen);
	free(buf);
	return rc;
}
