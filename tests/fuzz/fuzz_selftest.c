/*
 * fuzz_selftest.c - a target for testing driver.c itself
 * (tests/fuzz/test_driver.sh): an input starting with "sleep" sleeps 30 s
 * (a hang for the watchdog to catch), one starting with "ok" returns at
 * once.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 5 && !memcmp(data, "sleep", 5))
		sleep(30);
	return 0;
}
