/*
 * hostlist_compress.c - prints fst_hostlist_compress of its arguments (one
 * comma-separated list of names), for test_hostlist_slurm.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_topo.h"

int main(int argc, char **argv)
{
	char *names[4096], *list, *save = NULL, *s;
	int n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s NAME,NAME,...\n", argv[0]);
		return 2;
	}
	list = strdup(argv[1]);
	for (char *t = strtok_r(list, ",", &save); t && n < 4096; t = strtok_r(NULL, ",", &save))
		names[n++] = t;
	if (!(s = fst_hostlist_compress(names, n)))
		return 1;
	puts(s);
	free(s);
	free(list);
	return 0;
}
