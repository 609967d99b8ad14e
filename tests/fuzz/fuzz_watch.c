/*
 * fuzz_watch.c - fuzz target for what `fabsched topo watch` reads besides
 * fabric dumps: Slurm's nodes as fixed-width sinfo records
 * (fw_sinfo_parse), its bindings file (fw_bindings_read) and the GUIDs of
 * a node-name map (fw_map_guids).  The first byte chooses the reader, the
 * rest is the input.  Besides "no crash, no leak" it checks: a refusal
 * says what was expected; every node read has a name, a state and
 * printable-or-empty strings no longer than their field; bindings read
 * write out and read back to the same bindings; map GUIDs come sorted.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "watch_decide.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond)) {                                                             \
			fprintf(stderr, "fuzz_watch: %s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                                          \
			abort();                                                           \
		}                                                                          \
	} while (0)

static void _sinfo(const char *text, size_t len)
{
	struct fw_node *v = NULL;
	char err[FS_MSG_SIZE];
	int n = 0;

	if (fw_sinfo_parse(text, len, &v, &n, err, sizeof(err))) {
		CHECK(strstr(err, "expected") != NULL);
		CHECK(!v || !n);
		return;
	}
	for (int i = 0; i < n; i++) {
		CHECK(v[i].name && *v[i].name && strlen(v[i].name) < FW_SINFO_NAME);
		CHECK(v[i].state && strlen(v[i].state) <= FW_SINFO_STATE);
		CHECK(!v[i].reason || strlen(v[i].reason) <= FW_SINFO_REASON);
		CHECK(!v[i].features || strlen(v[i].features) <= FW_SINFO_FEATURES);
		for (int k = 0; k < i; k++) /* each node once */
			CHECK(strcmp(v[k].name, v[i].name));
	}
	fw_nodes_free(v, n);
}

static void _bindings(const uint8_t *data, size_t size)
{
	struct fw_bindings a = { 0 }, b = { 0 };
	char err[FS_MSG_SIZE], *buf = NULL;
	size_t len = 0;
	FILE *f = fmemopen((void *)data, size, "r"), *o;

	if (!f)
		return;
	if (fw_bindings_read(&a, f, "fuzz", err, sizeof(err))) {
		CHECK(strstr(err, "expected") != NULL);
		fclose(f);
		fw_bindings_clear(&a);
		return;
	}
	fclose(f);
	CHECK((o = open_memstream(&buf, &len)) != NULL);
	CHECK(fw_bindings_write(&a, o) == 0);
	fclose(o);
	CHECK((f = fmemopen(buf, len ? len : 1, "r")) != NULL);
	CHECK(fw_bindings_read(&b, f, "fuzz, written back", err, sizeof(err)) == 0);
	fclose(f);
	CHECK(fw_bindings_equal(&a, &b));
	free(buf);
	fw_bindings_clear(&a);
	fw_bindings_clear(&b);
}

static void _map(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_watch_map", MFD_CLOEXEC);
	char path[64], err[FS_MSG_SIZE];
	uint64_t *g = NULL;
	int n = 0;

	if (fd < 0)
		return;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (!fw_map_guids(path, &g, &n, err, sizeof(err)))
			for (int i = 1; i < n; i++)
				CHECK(g[i - 1] <= g[i]);
		free(g);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		_sinfo((const char *)data + 1, size - 1);
		break;
	case 1:
		_bindings(data + 1, size - 1);
		break;
	default:
		_map(data + 1, size - 1);
		break;
	}
	return 0;
}
