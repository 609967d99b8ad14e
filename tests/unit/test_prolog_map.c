/*
 * test_prolog_map - what a job does with its hugetlbfs mount: map PAGES
 * pages of a file in DIR, write a pattern into every page, read it back;
 * then check that one page more than the mount's size cannot be had.
 * Prints "mapped N pages of K kB in DIR: ok" and exits 0, else 1.
 * Usage: test_prolog_map DIR PAGES [PAGE_KB=2048 [hold]]
 * With "hold", keeps the mapping and waits for a signal (a leftover
 * process for the epilog to end).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[4096];
	unsigned long n, kb;
	size_t len;
	unsigned char *p;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DIR PAGES [PAGE_KB]\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	kb = argc > 3 ? strtoul(argv[3], NULL, 10) : 2048;
	len = (size_t)n * kb * 1024;
	snprintf(path, sizeof(path), "%s/map.%d", argv[1], (int)getpid());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	unlink(path);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "mmap %lu pages of %lu kB in %s: %s\n", n, kb, argv[1],
			strerror(errno));
		return 1;
	}
	for (unsigned long i = 0; i < n; i++)
		memset(p + i * kb * 1024, (int)(i & 0xff) ^ 0x5a, kb * 1024);
	for (unsigned long i = 0; i < n; i++)
		if (p[i * kb * 1024 + kb * 512] != (unsigned char)((i & 0xff) ^ 0x5a)) {
			fprintf(stderr, "page %lu: pattern lost\n", i);
			return 1;
		}
	if (argc > 4) {
		printf("holding %lu pages in %s\n", n, argv[1]);
		fflush(stdout);
		pause();
	}
	munmap(p, len);
	/* one page more than the mount holds: refused by size= */
	p = mmap(NULL, len + kb * 1024, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED) {
		fprintf(stderr, "mapped %lu pages: more than the mount's size\n", n + 1);
		return 1;
	}
	close(fd);
	printf("mapped %lu pages of %lu kB in %s: ok\n", n, kb, argv[1]);
	return 0;
}
