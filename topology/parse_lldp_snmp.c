/*
 * parse_lldp_snmp.c — an LLDP-MIB walk (net-snmp's snmpwalk) -> neighbour rows.
 *
 * For switches that speak LLDP but not lldpd's JSON: the record is what
 *   snmpwalk -v2c -c COMMUNITY -On SWITCH 1.0.8802.1.1.2
 * prints (IEEE 802.1AB LLDP-MIB with its 802.3 extension), optionally
 * followed by IF-MIB's ifName and ifHighSpeed (1.3.6.1.2.1.31.1.1.1.1 and
 * .15).  One line per object, "OID = TYPE: VALUE"; OIDs numeric ("-On";
 * "iso." for "1." is read too); a STRING may run over several lines inside
 * its quotes, a Hex-STRING over several lines of hex bytes.
 *
 * Read from it:
 *   lldpLocPortTable   1.0.8802.1.1.2.1.3.7.1.{2,3,4}.<port>: the local
 *                      port's id subtype, id and description;
 *   lldpRemTable       1.0.8802.1.1.2.1.4.1.1.<col>.<time>.<port>.<index>:
 *                      4 chassis id subtype, 5 chassis id, 6 port id
 *                      subtype, 7 port id, 8 port description, 9 system
 *                      name, 12 capabilities enabled;
 *   lldpXdot3RemPortOperMauType 1.0.8802.1.1.2.1.5.4623.1.3.1.1.4.<time>.
 *                      <port>.<index>, lldpXdot3LocPortOperMauType
 *                      1.0.8802.1.1.2.1.5.4623.1.2.1.1.4.<port>: the link's
 *                      speed (IANA-MAU-MIB's dot3MauType numbers);
 *   IF-MIB ifName / ifHighSpeed: the speed of the interface of the local
 *                      port's name, when no MAU type is given.
 * Anything else in the walk is skipped.  A local port is named as its
 * neighbours name it (parse_lldp.c's rule): by its id when of the
 * interface-name or local subtype, else by its description, else by the
 * id; without lldpLocPortTable by its ifName.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SNMP_FORM "the output of snmpwalk -On (\"OID = TYPE: VALUE\") of LLDP-MIB, 1.0.8802.1.1.2"
#define OID_MAX 32

/* ------------------------------------------------------------ IANA MAU types */
/* Mb/s of an IANA-MAU-MIB dot3MauType number (the last arc of its OID, as
 * LLDP's 802.3 MAC/PHY TLV carries it), 0 when not known here. */
long fst_lldp_mau_type_mbps(long t)
{
	static const struct {
		short lo, hi;
		long mbps;
	} r[] = {
		{ 1, 13, 10 },	      /* AUI .. 10BaseFLFD */
		{ 14, 20, 100 },      /* 100BaseT4 .. 100BaseT2FD */
		{ 21, 30, 1000 },     /* 1000BaseXHD .. 1000BaseTFD */
		{ 31, 41, 10000 },    /* 10GigBaseX .. 10GigBaseCX4 */
		{ 43, 43, 10 },	      /* 10PassTS */
		{ 44, 46, 100 },      /* 100BaseBX10D .. 100BaseLX10 */
		{ 47, 53, 1000 },     /* 1000BaseBX10D .. 1000BasePX20U */
		{ 54, 55, 10000 },    /* 10GbaseT, 10GbaseLRM */
		{ 56, 56, 1000 },     /* 1000baseKX */
		{ 57, 58, 10000 },    /* 10GbaseKX4, 10GbaseKR */
		{ 65, 69, 10000 },    /* 10GbasePRD1 .. 10GbasePRU3 */
		{ 70, 74, 40000 },    /* 40GbaseKR4 .. 40GbaseLR4 */
		{ 75, 78, 100000 },   /* 100GbaseCR10 .. 100GbaseER4 */
		{ 79, 83, 1000 },     /* 1000baseT1 .. 1000basePX40U */
		{ 86, 87, 10000 },    /* 10GbasePRD4, 10GbasePRU4 */
		{ 88, 94, 25000 },    /* 25GbaseCR .. 25GbaseT */
		{ 95, 97, 40000 },    /* 40GbaseER4, 40GbaseR, 40GbaseT */
		{ 98, 102, 100000 },  /* 100GbaseCR4 .. 100GbaseSR4 */
		{ 103, 103, 2500 },   /* 2p5GigT */
		{ 104, 104, 5000 },   /* 5GigT */
		{ 105, 105, 100 },    /* 100baseT1 */
		{ 106, 108, 1000 },   /* 1000baseRHA .. RHC */
		{ 109, 110, 2500 },   /* 2p5GbaseKX, 2p5GbaseX */
		{ 111, 111, 5000 },   /* 5GbaseKR */
		{ 114, 115, 25000 },  /* 25GbaseLR, 25GbaseER */
		{ 116, 122, 50000 },  /* 50GbaseR .. 50GbaseER */
		{ 123, 126, 100000 }, /* 100GbaseCR2 .. 100GbaseDR */
		{ 127, 134, 200000 }, /* 200GbaseR .. 200GbaseER4 */
		{ 135, 135, 400000 }, /* 400GbaseR */
		{ 137, 140, 400000 }, /* 400GbaseDR4 .. 400GbaseER8 */
		{ 145, 146, 100000 }, /* 100GbaseFR1, 100GbaseLR1 */
		{ 147, 147, 400000 }, /* 400GbaseFR4 */
	};

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		if (t >= r[i].lo && t <= r[i].hi)
			return r[i].mbps;
	return 0;
}

/* ------------------------------------------------------------ values */
struct sval {
	int kind; /* 0: none or not read, 1: integer, 2: octets */
	long long i;
	unsigned char *b;
	size_t n;
};

struct rem { /* one row of lldpRemTable; its index first (_row_of) */
	unsigned t, port, idx;
	struct sval col[13]; /* by column number 4..12 */
	long mau;
};

struct loc { /* one row of lldpLocPortTable; its index first */
	unsigned port;
	struct sval subtype, id, desc;
	long mau;
};

struct ifx { /* one interface of IF-MIB's ifXTable; its index first */
	unsigned index;
	struct sval name;
	long mbps;
};

struct walk {
	const char *file;
	struct rem *rem;
	int nrem, cap_rem;
	struct loc *loc;
	int nloc, cap_loc;
	struct ifx *ifx;
	int nifx, cap_ifx;
	char *err;
	size_t errlen;
};

static void _sval_free(struct sval *v)
{
	free(v->b);
	memset(v, 0, sizeof(*v));
}

static int _hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* The hex bytes ("0A 1B ...") of line @s to @end, appended to @v when not
 * NULL: how many, -1 when the line holds anything else, -2 no memory. */
static int _hex(const char *s, const char *end, struct sval *v)
{
	int n = 0;

	if (v) {
		unsigned char *nb = realloc(v->b, v->n + (size_t)(end - s) / 2 + 1);

		if (!nb)
			return -2;
		v->b = nb;
	}
	while (s < end) {
		if (*s == ' ' || *s == '\t' || *s == '\r') {
			s++;
			continue;
		}
		if (end - s < 2 || !isxdigit((unsigned char)s[0]) ||
		    !isxdigit((unsigned char)s[1]) ||
		    (end - s > 2 && !isspace((unsigned char)s[2])))
			return -1;
		if (v)
			v->b[v->n++] = (unsigned char)(_hexval((unsigned char)s[0]) << 4 |
						       _hexval((unsigned char)s[1]));
		n++;
		s += 2;
	}
	return n;
}

/* ------------------------------------------------------------ OIDs */
/* The numeric OID at the start of @s ("." or "iso." first allowed) into
 * @o; its length, or -1 when not one. *@rest: after it. */
static int _oid(const char *s, unsigned *o, const char **rest)
{
	int n = 0;

	if (!strncmp(s, "iso.", 4)) {
		o[n++] = 1;
		s += 4;
	} else if (*s == '.') {
		s++;
	}
	while (isdigit((unsigned char)*s)) {
		unsigned long v = strtoul(s, (char **)&s, 10);

		if (n == OID_MAX || v > 0xffffffffUL)
			return -1;
		o[n++] = (unsigned)v;
		if (*s != '.')
			break;
		s++;
	}
	*rest = s;
	return n >= 2 ? n : -1;
}

/* Whether @o (@n arcs) starts with @p (@np arcs). */
static int _under(const unsigned *o, int n, const unsigned *p, int np)
{
	return n > np && !memcmp(o, p, (size_t)np * sizeof(*p));
}

static const unsigned LLDP_LOC_PORT[] = { 1, 0, 8802, 1, 1, 2, 1, 3, 7, 1 };
static const unsigned LLDP_REM[] = { 1, 0, 8802, 1, 1, 2, 1, 4, 1, 1 };
static const unsigned LLDP_REM_MAU[] = { 1, 0, 8802, 1, 1, 2, 1, 5, 4623, 1, 3, 1, 1, 4 };
static const unsigned LLDP_LOC_MAU[] = { 1, 0, 8802, 1, 1, 2, 1, 5, 4623, 1, 2, 1, 1, 4 };
static const unsigned IF_X[] = { 1, 3, 6, 1, 2, 1, 31, 1, 1, 1 };
#define NARCS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The row of table @tab (*@n rows of @size bytes, *@cap allocated) whose
 * index, its first @klen bytes, is @key; added zeroed with that index when
 * none (a walk lists each column in the rows' order: rows are few per
 * switch).  NULL: no memory. */
static void *_row_of(void **tab, int *n, int *cap, size_t size, const void *key, size_t klen)
{
	char *t = *tab;

	for (int i = 0; i < *n; i++)
		if (!memcmp(t + (size_t)i * size, key, klen))
			return t + (size_t)i * size;
	if (!(t = fst_grow(t, cap, *n + 1, size)))
		return NULL;
	*tab = t;
	t += (size_t)(*n)++ * size;
	memset(t, 0, size);
	memcpy(t, key, klen);
	return t;
}

static struct rem *_rem(struct walk *w, unsigned t, unsigned port, unsigned idx)
{
	const unsigned key[3] = { t, port, idx };
	void *tab = w->rem;
	struct rem *r = _row_of(&tab, &w->nrem, &w->cap_rem, sizeof(*r), key, sizeof(key));

	w->rem = tab;
	return r;
}

static struct loc *_loc(struct walk *w, unsigned port)
{
	void *tab = w->loc;
	struct loc *l = _row_of(&tab, &w->nloc, &w->cap_loc, sizeof(*l), &port, sizeof(port));

	w->loc = tab;
	return l;
}

static struct ifx *_ifx(struct walk *w, unsigned index)
{
	void *tab = w->ifx;
	struct ifx *x = _row_of(&tab, &w->nifx, &w->cap_ifx, sizeof(*x), &index, sizeof(index));

	w->ifx = tab;
	return x;
}

/* Where the value of @o goes: a slot for it, NULL when not read here;
 * *@nomem set when a row could not be added. */
static struct sval *_slot(struct walk *w, const unsigned *o, int n, long **mau, int *nomem)
{
	*mau = NULL;
	if (_under(o, n, LLDP_REM, NARCS(LLDP_REM)) && n == NARCS(LLDP_REM) + 4) {
		unsigned col = o[NARCS(LLDP_REM)];
		struct rem *r;

		if (col < 4 || col > 12)
			return NULL;
		if (!(r = _rem(w, o[n - 3], o[n - 2], o[n - 1])))
			return (*nomem = 1), NULL;
		return &r->col[col];
	}
	if (_under(o, n, LLDP_LOC_PORT, NARCS(LLDP_LOC_PORT)) && n == NARCS(LLDP_LOC_PORT) + 2) {
		unsigned col = o[NARCS(LLDP_LOC_PORT)];
		struct loc *l;

		if (col < 2 || col > 4)
			return NULL;
		if (!(l = _loc(w, o[n - 1])))
			return (*nomem = 1), NULL;
		return col == 2 ? &l->subtype : col == 3 ? &l->id : &l->desc;
	}
	if (_under(o, n, LLDP_REM_MAU, NARCS(LLDP_REM_MAU)) && n == NARCS(LLDP_REM_MAU) + 3) {
		struct rem *r = _rem(w, o[n - 3], o[n - 2], o[n - 1]);

		if (!r)
			return (*nomem = 1), NULL;
		*mau = &r->mau;
		return NULL;
	}
	if (_under(o, n, LLDP_LOC_MAU, NARCS(LLDP_LOC_MAU)) && n == NARCS(LLDP_LOC_MAU) + 1) {
		struct loc *l = _loc(w, o[n - 1]);

		if (!l)
			return (*nomem = 1), NULL;
		*mau = &l->mau;
		return NULL;
	}
	if (_under(o, n, IF_X, NARCS(IF_X)) && n == NARCS(IF_X) + 2 &&
	    (o[NARCS(IF_X)] == 1 || o[NARCS(IF_X)] == 15)) {
		struct ifx *x = _ifx(w, o[n - 1]);

		if (!x)
			return (*nomem = 1), NULL;
		if (o[NARCS(IF_X)] == 1)
			return &x->name;
		*mau = &x->mbps;
		return NULL;
	}
	return NULL;
}

/* ------------------------------------------------------------ lines */
/* The integer of "INTEGER: 5", "INTEGER: macAddress(4)", "Gauge32: 7". */
static int _int(const char *s, const char *end, long long *v)
{
	const char *p = memchr(s, '(', (size_t)(end - s));
	char *e;

	if (p)
		s = p + 1;
	*v = strtoll(s, &e, 10);
	if (e == s)
		return -1;
	return p ? (*e == ')' ? 0 : -1) : (e <= end ? 0 : -1);
}

static int _line_err(struct walk *w, int line, const char *what)
{
	return fs_errf(w->err, w->errlen, "%s:%d: %s; expected " SNMP_FORM, w->file, line, what);
}

/* The value after "= " on line @line (@s to @end), and the lines after
 * it that continue it; *@pos moves past them.  @v NULL: checked only. */
static int _value(struct walk *w, int line, const char *s, const char *end, const char **pos,
		  const char *bufend, struct sval *v, long *mau, int *lines)
{
	static const char *const ints[] = { "INTEGER: ", "Gauge32: ", "Counter32: ", "Unsigned32: ",
					    "Timeticks: " };
	struct sval tmp = { 0 };
	int rc = 0;

	*lines = 0;
	if (!strncmp(s, "STRING: ", 8) || s[0] == '"') { /* '= ""': empty */
		if (s[0] != '"')
			s += 8;
		tmp.kind = 2;
		if (*s == '"') { /* quoted, maybe over several lines */
			const char *p = s + 1;
			size_t cap = 64;

			if (!(tmp.b = malloc(cap)))
				return -2;
			for (;;) {
				if (p >= bufend) {
					_sval_free(&tmp);
					return _line_err(w, line,
							 "a STRING's closing quote missing");
				}
				if (*p == '"')
					break;
				if (*p == '\\' && p + 1 < bufend && (p[1] == '"' || p[1] == '\\'))
					p++;
				if (*p == '\n')
					(*lines)++;
				if (tmp.n + 1 >= cap) {
					unsigned char *nb = realloc(tmp.b, cap *= 2);

					if (!nb) {
						_sval_free(&tmp);
						return -2;
					}
					tmp.b = nb;
				}
				tmp.b[tmp.n++] = (unsigned char)*p++;
			}
			end = memchr(p, '\n', (size_t)(bufend - p));
			if (!end)
				end = bufend;
		} else if (!(tmp.b = malloc((size_t)(end - s) + 1))) {
			return -2;
		} else {
			memcpy(tmp.b, s, (size_t)(end - s));
			tmp.n = (size_t)(end - s);
		}
		*pos = end;
	} else if (!strncmp(s, "Hex-STRING: ", 12)) {
		tmp.kind = 2;
		if ((rc = _hex(s + 12, end, &tmp)) >= 0)
			while (end < bufend) { /* lines of hex bytes continue it */
				const char *nx = end + 1,
					   *ne = memchr(nx, '\n', (size_t)(bufend - nx));

				if (!ne)
					ne = bufend;
				if (_hex(nx, ne, NULL) <= 0 || (rc = _hex(nx, ne, &tmp)) < 0)
					break;
				end = ne;
				(*lines)++;
			}
		*pos = end;
		if (rc < 0) {
			_sval_free(&tmp);
			return rc == -2
				       ? -2
				       : _line_err(w, line, "a Hex-STRING of other than hex bytes");
		}
	} else {
		*pos = end;
		for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
			if (!strncmp(s, ints[i], strlen(ints[i]))) {
				if (_int(s + strlen(ints[i]), end, &tmp.i))
					return _line_err(w, line,
							 "an integer value that is not a number");
				tmp.kind = 1;
			}
	}
	if (!strncmp(s, "No Such ", 8) || !strncmp(s, "No more ", 8))
		return 0; /* the agent has no such object: as if not walked */
	if (mau) {
		if (tmp.kind != 1) {
			_sval_free(&tmp);
			return _line_err(w, line, "a MAU type or speed that is not an integer");
		}
		*mau = tmp.i > 0 && tmp.i < 100000000 ? (long)tmp.i : 0;
	}
	if (v) {
		_sval_free(v);
		*v = tmp;
	} else {
		_sval_free(&tmp);
	}
	return 0;
}

static int _parse(struct walk *w, const char *buf, size_t len)
{
	const char *p = buf, *bufend = buf + len;
	int line = 0, n_obj = 0;

	while (p < bufend) {
		const char *end = memchr(p, '\n', (size_t)(bufend - p)), *rest, *next = NULL;
		unsigned o[OID_MAX];
		struct sval *v;
		long *mau;
		int n, nomem = 0, extra, rc;

		if (!end)
			end = bufend;
		line++;
		if (end == p || (end - p == 1 && *p == '\r')) {
			p = end + 1;
			continue;
		}
		n = _oid(p, o, &rest);
		if (n < 0 || strncmp(rest, " = ", 3)) {
			const char *c = memmem(p, (size_t)(end - p), "::", 2);

			if (c && c < (const char *)memmem(p, (size_t)(end - p), " = ", 3))
				return _line_err(
					w, line,
					"an OID by name (a MIB loaded): run snmpwalk with -On");
			return _line_err(w, line, "not an snmpwalk line");
		}
		v = _slot(w, o, n, &mau, &nomem);
		if (nomem)
			return fs_errf(w->err, w->errlen, "out of memory");
		rc = _value(w, line, rest + 3, end, &next, bufend, v, mau, &extra);
		if (rc)
			return rc == -2 ? fs_errf(w->err, w->errlen, "out of memory") : -1;
		line += extra;
		n_obj++;
		p = next < bufend ? next + 1 : bufend;
	}
	if (!n_obj)
		return fs_errf(w->err, w->errlen,
			       "%s: empty (did the switch answer?); expected " SNMP_FORM, w->file);
	return 0;
}

/* ------------------------------------------------------------ rows */
/* @v as a C string (NUL bytes as '?'); NULL when not octets or no memory
 * (*@nomem then set). */
static char *_str(const struct sval *v, int *nomem)
{
	char *s;

	if (v->kind != 2)
		return NULL;
	if (!(s = malloc(v->n + 1)))
		return (*nomem = 1), NULL;
	for (size_t i = 0; i < v->n; i++)
		s[i] = v->b[i] ? (char)v->b[i] : '?';
	s[v->n] = '\0';
	return s;
}

/* A MAC address of 6 octets: its value, 0 when not. */
static uint64_t _mac6(const struct sval *v)
{
	uint64_t m = 0;

	if (v->kind != 2 || v->n != 6)
		return 0;
	for (int i = 0; i < 6; i++)
		m = m << 8 | v->b[i];
	return m;
}

/* An id as text: a MAC address (@is_mac, 6 octets) as "aa:bb:..", else
 * its octets when printable, else in hex. */
static char *_id_text(const struct sval *v, int is_mac, int *nomem)
{
	char *s;
	int printable = v->kind == 2;

	if (v->kind != 2)
		return NULL;
	if (is_mac && v->n == 6) {
		if (asprintf(&s, "%02x:%02x:%02x:%02x:%02x:%02x", v->b[0], v->b[1], v->b[2],
			     v->b[3], v->b[4], v->b[5]) < 0)
			return (*nomem = 1), NULL;
		return s;
	}
	for (size_t i = 0; i < v->n; i++)
		if (v->b[i] < ' ' || v->b[i] >= 127)
			printable = 0;
	if (printable)
		return _str(v, nomem);
	if (!(s = malloc(v->n * 2 + 1)))
		return (*nomem = 1), NULL;
	for (size_t i = 0; i < v->n; i++)
		sprintf(s + 2 * i, "%02x", v->b[i]);
	s[v->n * 2] = '\0';
	return s;
}

enum { SUB_PORT_MAC = 3, SUB_PORT_IFNAME = 5, SUB_PORT_LOCAL = 7, SUB_CHASSIS_MAC = 4 };

/* The local port's name (see the top), NULL when none; allocated. */
static char *_loc_name(const struct walk *w, unsigned port, int *nomem)
{
	for (int i = 0; i < w->nloc; i++) {
		const struct loc *l = &w->loc[i];
		long long st = l->subtype.kind == 1 ? l->subtype.i : 0;

		if (l->port != port)
			continue;
		if ((st == SUB_PORT_IFNAME || st == SUB_PORT_LOCAL) && l->id.kind == 2 && l->id.n)
			return _str(&l->id, nomem);
		if (l->desc.kind == 2 && l->desc.n)
			return _str(&l->desc, nomem);
		if (l->id.kind == 2 && l->id.n)
			return _id_text(&l->id, st == SUB_PORT_MAC, nomem);
	}
	for (int i = 0; i < w->nifx; i++)
		if (w->ifx[i].index == port && w->ifx[i].name.kind == 2 && w->ifx[i].name.n)
			return _str(&w->ifx[i].name, nomem);
	return NULL;
}

/* The speed of the interface named @name in IF-MIB, 0 when not given. */
static long _if_mbps(const struct walk *w, const char *name)
{
	for (int i = 0; name && i < w->nifx; i++)
		if (w->ifx[i].name.kind == 2 && w->ifx[i].name.n == strlen(name) &&
		    !memcmp(w->ifx[i].name.b, name, w->ifx[i].name.n))
			return w->ifx[i].mbps;
	return 0;
}

static long _loc_mau(const struct walk *w, unsigned port)
{
	for (int i = 0; i < w->nloc; i++)
		if (w->loc[i].port == port)
			return w->loc[i].mau;
	return 0;
}

void fst_lldp_rows_free(struct fst_lldp_row *rows, int n)
{
	for (int i = 0; i < n; i++) {
		free((char *)rows[i].ifname);
		free((char *)rows[i].sys_name);
		free((char *)rows[i].chassis_id);
		free((char *)rows[i].port_id);
		free((char *)rows[i].port_desc);
	}
	free(rows);
}

static void _walk_free(struct walk *w)
{
	for (int i = 0; i < w->nrem; i++)
		for (int c = 0; c < 13; c++)
			_sval_free(&w->rem[i].col[c]);
	for (int i = 0; i < w->nloc; i++) {
		_sval_free(&w->loc[i].subtype);
		_sval_free(&w->loc[i].id);
		_sval_free(&w->loc[i].desc);
	}
	for (int i = 0; i < w->nifx; i++)
		_sval_free(&w->ifx[i].name);
	free(w->rem);
	free(w->loc);
	free(w->ifx);
}

/* lldpRemTable's rows by local port and neighbour index: a walk lists
 * them by time mark first (when the agent last saw each change), so the
 * same neighbours come in another order when they were seen in another. */
static int _rem_cmp(const void *a, const void *b)
{
	const struct rem *x = a, *y = b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

int fst_lldp_snmp_rows(const char *buf, size_t len, const char *file, struct fst_lldp_row **rowsp,
		       int *nrowsp, char *err, size_t errlen)
{
	struct walk w = { .file = file, .err = err, .errlen = errlen };
	struct fst_lldp_row *rows = NULL;
	int n = 0, nomem = 0;

	*rowsp = NULL;
	*nrowsp = 0;
	if (_parse(&w, buf, len)) {
		_walk_free(&w);
		return -1;
	}
	if (w.nrem)
		qsort(w.rem, (size_t)w.nrem, sizeof(*w.rem), _rem_cmp);
	if (w.nrem && !(rows = calloc((size_t)w.nrem, sizeof(*rows))))
		nomem = 1;
	for (int i = 0; i < w.nrem && !nomem; i++) {
		const struct rem *r = &w.rem[i];
		struct fst_lldp_row *o = &rows[n];
		long long csub = r->col[4].kind == 1 ? r->col[4].i : 0;
		long long psub = r->col[6].kind == 1 ? r->col[6].i : 0;

		if (r->col[5].kind != 2 && r->col[9].kind != 2)
			continue; /* only a MAU type: no neighbour of its own */
		n++;
		o->port_num = r->port;
		o->ifname = _loc_name(&w, r->port, &nomem);
		o->sys_name = r->col[9].n ? _str(&r->col[9], &nomem) : NULL;
		o->chassis_mac = csub == SUB_CHASSIS_MAC ? _mac6(&r->col[5]) : 0;
		o->chassis_id = _id_text(&r->col[5], csub == SUB_CHASSIS_MAC, &nomem);
		/* capabilities enabled: BITS, bridge is bit 2, router bit 4 */
		o->bridge = r->col[12].kind == 2 && r->col[12].n && (r->col[12].b[0] & 0x28);
		o->port_id_name = psub == SUB_PORT_IFNAME || psub == SUB_PORT_LOCAL;
		o->port_mac = psub == SUB_PORT_MAC ? _mac6(&r->col[7]) : 0;
		o->port_id = _id_text(&r->col[7], psub == SUB_PORT_MAC, &nomem);
		o->port_desc = r->col[8].n ? _str(&r->col[8], &nomem) : NULL;
		o->mbps = fst_lldp_mau_type_mbps(r->mau);
		if (!o->mbps)
			o->mbps = fst_lldp_mau_type_mbps(_loc_mau(&w, r->port));
		if (!o->mbps)
			o->mbps = _if_mbps(&w, o->ifname);
	}
	_walk_free(&w);
	if (nomem) {
		fst_lldp_rows_free(rows, n);
		return fs_errf(err, errlen, "out of memory");
	}
	*rowsp = rows;
	*nrowsp = n;
	return 0;
}
