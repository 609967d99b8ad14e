/*
 * watch.c — what `fabsched topo watch` needs of the model: the planes seen
 * from several local ports merged into one model, and the changes between
 * two classified models, one line each, in an administrator's words.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <stdlib.h>
#include <string.h>

int fst_model_merge(struct fst_model *dst, const struct fst_model *src, char *err, size_t errlen)
{
	int *map;

	if (!src->ndevs)
		return 0;
	if (!(map = calloc((size_t)src->ndevs, sizeof(int))))
		return fs_errf(err, errlen, "out of memory");
	for (int d = 0; d < src->ndevs; d++) {
		const struct fst_device *s = &src->devs[d];
		int k = fst_index_get(&dst->priv->ids, s->id);

		if (k < 0) {
			k = fst_add_device(dst, s->type, s->id, s->guid, s->nports);
			if (k < 0 || fst_set_str(&dst->devs[k].desc, s->desc)) {
				free(map);
				return fs_errf(err, errlen, "out of memory");
			}
			dst->devs[k].sysimgguid = s->sysimgguid;
			dst->devs[k].own_record = s->own_record;
			for (int p = 1; p <= s->nports; p++) {
				dst->devs[k].ports[p].guid = s->ports[p].guid;
				dst->devs[k].ports[p].lid = s->ports[p].lid;
				memcpy(dst->devs[k].ports[p].label, s->ports[p].label,
				       sizeof(s->ports[p].label));
			}
		} else if (dst->devs[k].type != s->type || dst->devs[k].nports != s->nports) {
			free(map);
			return fs_errf(err, errlen,
				       "%s: device %s is a %s of %d ports in one "
				       "plane and a %s of %d in another; expected one device "
				       "per id",
				       src->source ? src->source : "?", s->id,
				       s->type == FST_SWITCH ? "switch" : "HCA", s->nports,
				       dst->devs[k].type == FST_SWITCH ? "switch" : "HCA",
				       dst->devs[k].nports);
		}
		map[d] = k;
	}
	for (int l = 0; l < src->nlinks; l++) {
		const struct fst_link *s = &src->links[l];

		if (s->self_loop)
			continue;
		if (fst_connect(dst, map[s->a], s->a_port, map[s->b], s->b_port, s->width,
				s->speed)) {
			free(map);
			return fs_errf(err, errlen, "out of memory");
		}
	}
	free(map);
	return 0;
}

int fst_port_guid_peer(const struct fst_model *m, uint64_t guid)
{
	for (int d = 0; guid && d < m->ndevs; d++)
		for (int p = 0; p <= m->devs[d].nports; p++)
			if (m->devs[d].ports[p].guid == guid && m->devs[d].ports[p].peer >= 0)
				return m->devs[d].ports[p].peer;
	return -1;
}

int fst_model_has_port_guid(const struct fst_model *m, uint64_t guid)
{
	return fst_port_guid_peer(m, guid) >= 0;
}

/* A device in a change line: a switch by name, an HCA by its description
 * ("n011 mlx5_0") when it has one; else the label (name or id). */
static const char *_label(const struct fst_model *m, int d)
{
	if (m->devs[d].type != FST_SWITCH && m->devs[d].desc && m->devs[d].desc[0])
		return m->devs[d].desc;
	return fst_dev_label(m, d);
}

/* "leaf03 port 7 (n011 mlx5_0)", "leaf01 port 3 - spine01 port 1": the
 * switch end first; an HCA's port only when it is not 1 or has a label.
 * A port's label (ibdiagnet's name of it) follows its number, as in the
 * degraded-link issues: "leaf01 port 3 (1/2/1) (gpu003 mlx5_0)",
 * "leaf01 port 65 (1/33) - spine01 port 1 (1/1)". */
static void _link_text(const struct fst_model *m, const struct fst_link *l, char *out, size_t n)
{
	int a = l->a, ap = l->a_port, b = l->b, bp = l->b_port;
	char ta[512], tb[512];

	if (m->devs[a].type != FST_SWITCH) {
		a = l->b, ap = l->b_port, b = l->a, bp = l->a_port;
	}
	fst_port_label_text(m, a, ap, _label(m, a), ta, sizeof(ta));
	if (m->devs[b].type == FST_SWITCH)
		snprintf(out, n, "%s - %s", ta,
			 fst_port_label_text(m, b, bp, _label(m, b), tb, sizeof(tb)));
	else if (bp != 1 || m->devs[b].ports[bp].label[0])
		snprintf(out, n, "%s (%s)", ta,
			 fst_port_label_text(m, b, bp, _label(m, b), tb, sizeof(tb)));
	else
		snprintf(out, n, "%s (%s)", ta, _label(m, b));
}

/* Port @p of device @d of @m in model @o: the port of the same label
 * (a switch's port name from LLDP: its number may differ between two
 * discoveries), else the same number; -1 when @o has no such device or
 * port. */
static int _port_in(const struct fst_model *m, int d, int p, const struct fst_model *o, int *od)
{
	const char *label = m->devs[d].ports[p].label;
	const struct fst_device *x;

	if ((*od = fst_index_get(&o->priv->ids, m->devs[d].id)) < 0)
		return -1;
	x = &o->devs[*od];
	if (!label[0])
		return p <= x->nports ? p : -1;
	for (int k = 1; k <= x->nports; k++)
		if (!strcmp(x->ports[k].label, label))
			return k;
	return -1;
}

/* The device id at the other end of port @p of device @d of @m, as model
 * @o has it, and that link of @o; NULL when @o has no link there. */
static const char *_peer(const struct fst_model *m, int d, int p, const struct fst_model *o,
			 const struct fst_link **lk)
{
	int od, op = _port_in(m, d, p, o, &od);
	const struct fst_link *l;

	*lk = NULL;
	if (op < 0 || o->devs[od].ports[op].link < 0)
		return NULL;
	l = &o->links[o->devs[od].ports[op].link];
	*lk = l;
	return o->devs[l->a == od && l->a_port == op ? l->b : l->a].id;
}

/* The HCA end (device, port) of @l, or -1 when both ends are switches. */
static int _hca_end(const struct fst_model *m, const struct fst_link *l, int *port)
{
	if (m->devs[l->a].type != FST_SWITCH) {
		*port = l->a_port;
		return l->a;
	}
	if (m->devs[l->b].type != FST_SWITCH) {
		*port = l->b_port;
		return l->b;
	}
	return -1;
}

/* Whether @l of @m has an HCA end whose port has a link in @other too,
 * to another peer or another port: a cable moved (recabled). */
static int _moved(const struct fst_model *m, const struct fst_link *l,
		  const struct fst_model *other)
{
	const struct fst_link *ol;
	int hp = 0, h = _hca_end(m, l, &hp), oh, d, p, op, od;
	const char *peer;

	if (h < 0 || !(peer = _peer(m, h, hp, other, &ol)))
		return 0;
	oh = fst_index_get(&other->priv->ids, m->devs[h].id);
	d = l->a == h ? l->b : l->a;
	p = l->a == h ? l->b_port : l->a_port;
	op = ol->a == oh && ol->a_port == hp ? ol->b_port : ol->a_port;
	return strcmp(peer, m->devs[d].id) || _port_in(m, d, p, other, &od) != op;
}

/* "n005 eth0: recabled from leaf02 port 1 (swp1) to leaf04 port 7 (swp7)" */
static void _moved_text(const struct fst_model *old, const struct fst_link *o,
			const struct fst_model *cur, char *out, size_t n)
{
	const struct fst_link *c;
	int hp = 0, h = _hca_end(old, o, &hp), ch, sw, swp, csw, cswp;
	char ta[512], tb[512];

	_peer(old, h, hp, cur, &c);
	ch = fst_index_get(&cur->priv->ids, old->devs[h].id);
	sw = o->a == h ? o->b : o->a;
	swp = o->a == h ? o->b_port : o->a_port;
	csw = c->a == ch && c->a_port == hp ? c->b : c->a;
	cswp = c->a == ch && c->a_port == hp ? c->b_port : c->a_port;
	snprintf(out, n, "%s: recabled from %s to %s", _label(old, h),
		 fst_port_label_text(old, sw, swp, _label(old, sw), ta, sizeof(ta)),
		 fst_port_label_text(cur, csw, cswp, _label(cur, csw), tb, sizeof(tb)));
}

static int _emit(fst_change_f out, void *arg, int *n, const char *line)
{
	(*n)++;
	return out ? out(line, arg) : 0;
}

int fst_model_changes(const struct fst_model *old, const struct fst_model *cur, fst_change_f out,
		      void *arg)
{
	char line[1024], what[600], w1[32], w2[32];
	int n = 0;

	/* devices gone and new */
	for (int d = 0; d < old->ndevs; d++)
		if (fst_index_get(&cur->priv->ids, old->devs[d].id) < 0) {
			snprintf(line, sizeof(line), "%s: gone", _label(old, d));
			if (_emit(out, arg, &n, line))
				return -1;
		}
	for (int d = 0; d < cur->ndevs; d++)
		if (fst_index_get(&old->priv->ids, cur->devs[d].id) < 0) {
			snprintf(line, sizeof(line), "%s: new", _label(cur, d));
			if (_emit(out, arg, &n, line))
				return -1;
		}
	/* links down or changed, then up */
	for (int l = 0; l < old->nlinks; l++) {
		const struct fst_link *o = &old->links[l], *c;
		const char *peer;

		if (o->self_loop)
			continue;
		peer = _peer(old, o->a, o->a_port, cur, &c);
		_link_text(old, o, what, sizeof(what));
		if (_moved(old, o, cur))
			_moved_text(old, o, cur, line, sizeof(line));
		else if (!peer || strcmp(peer, old->devs[o->b].id))
			snprintf(line, sizeof(line), "%s: link down", what);
		else if (c->width != o->width || c->speed != o->speed)
			snprintf(line, sizeof(line), "%s: %s -> %s", what,
				 fst_widthspeed(o->width, o->speed, w1, sizeof(w1)),
				 fst_widthspeed(c->width, c->speed, w2, sizeof(w2)));
		else
			continue;
		if (_emit(out, arg, &n, line))
			return -1;
	}
	for (int l = 0; l < cur->nlinks; l++) {
		const struct fst_link *c = &cur->links[l], *o;
		const char *peer;

		if (c->self_loop)
			continue;
		peer = _peer(cur, c->a, c->a_port, old, &o);
		if ((peer && !strcmp(peer, cur->devs[c->b].id)) || _moved(cur, c, old))
			continue;
		_link_text(cur, c, what, sizeof(what));
		snprintf(line, sizeof(line), "%s: link up (%s)", what,
			 fst_widthspeed(c->width, c->speed, w1, sizeof(w1)));
		if (_emit(out, arg, &n, line))
			return -1;
	}
	return n;
}
