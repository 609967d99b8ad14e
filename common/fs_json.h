/*
 * fs_json.h — values of Slurm's own JSON (squeue --json, sacct --json),
 * read with json-c, in the form of every release fabsched supports:
 *  - numbers plain (22.05, data_parser v0.0.38, and the plain fields of
 *    later parsers) or as {"set": true, "infinite": false, "number": N}
 *    (the *_NO_VAL fields of data_parser v0.0.40 and later);
 *  - states as a string (22.05) or a list of strings (v0.0.40 and later:
 *    the base state, then its flags).
 * A libtool convenience library of its own (libfabsched_json.la), apart
 * from libfabsched_common, which the plugins link without json-c.
 */
#ifndef FS_JSON_H
#define FS_JSON_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;

/* The number at @key of object @o: plain, or {"set": true, "number": N}.
 * False when absent, null, not a number, a string ("Infinity" of the
 * complex mode), {"set": false} or {"infinite": true}. */
bool fs_json_num(struct json_object *o, const char *key, int64_t *out);

/* The string at @key, or the first string of a list there; "" when
 * absent or of another type. */
const char *fs_json_str(struct json_object *o, const char *key);

/* The object at @key, or NULL. */
struct json_object *fs_json_obj(struct json_object *o, const char *key);

#endif
