/*
 * util.c - messages, paths and small-file reads of the gres library.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gres_private.h"

/* sysfs attributes are one page at most */
#define READ_MAX 4096

char *fs_gres_path(const char *root, const char *fmt, ...)
{
	va_list ap;
	char rel[1024];
	char *s;
	size_t n;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= sizeof(rel))
		return NULL;
	if (!root)
		root = "";
	n = strlen(root);
	while (n && root[n - 1] == '/')
		n--;
	if (!(s = malloc(n + (size_t)k + 1)))
		return NULL;
	memcpy(s, root, n);
	memcpy(s + n, rel, (size_t)k + 1);
	return s;
}

char *fs_gres_strdup(const char *s)
{
	return strdup(s ? s : "");
}

void fs_gres_quote(const char *s, char *buf, size_t bufsz)
{
	size_t o = 0;

	for (size_t i = 0; s && s[i] && o + 5 < bufsz && i < 64; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, bufsz - o, "\\x%02x", c);
	}
	buf[o] = '\0';
}

int fs_gres_read(const char *path, char **out, int *missing, char *err, size_t errlen)
{
	char buf[READ_MAX + 1];
	size_t len = 0;
	int fd;

	*out = NULL;
	if (missing)
		*missing = 0;
	if (!path)
		return fs_errf(err, errlen, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && missing) {
			*missing = 1;
			return -1;
		}
		return fs_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	}
	for (;;) {
		ssize_t r = read(fd, buf + len, READ_MAX - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			return fs_errf(err, errlen, "%s: cannot read: %s", path, strerror(e));
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len == READ_MAX) {
			close(fd);
			return fs_errf(err, errlen,
				       "%s: longer than %d bytes; expected "
				       "a sysfs attribute",
				       path, READ_MAX);
		}
	}
	close(fd);
	buf[len] = '\0';
	if (memchr(buf, '\0', len))
		return fs_errf(err, errlen, "%s: holds a NUL byte; expected text", path);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	if (!(*out = strdup(buf)))
		return fs_errf(err, errlen, "out of memory");
	return 0;
}

int fs_gres_read_u64(const char *path, uint64_t *out, int *missing, char *err, size_t errlen)
{
	char *s, *end;
	char q[80];
	unsigned long long v;

	if (fs_gres_read(path, &s, missing, err, errlen))
		return -1;
	errno = 0;
	v = (s[0] >= '0' && s[0] <= '9') ? strtoull(s, &end, 10) : 0;
	if (s[0] < '0' || s[0] > '9' || errno || *end) {
		fs_gres_quote(s, q, sizeof(q));
		free(s);
		return fs_errf(err, errlen,
			       "%s: \"%s\": not a number; expected an "
			       "unsigned decimal integer",
			       path, q);
	}
	free(s);
	*out = (uint64_t)v;
	return 0;
}
