/*
 * fs_json.c — values of Slurm's JSON in every release's form (fs_json.h).
 */
#include "fs_json.h"

#include <json-c/json.h>

bool fs_json_num(json_object *o, const char *key, int64_t *out)
{
	json_object *v, *n, *flag;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return false;
	if (json_object_is_type(v, json_type_object)) {
		if (json_object_object_get_ex(v, "set", &flag) && !json_object_get_boolean(flag))
			return false;
		if (json_object_object_get_ex(v, "infinite", &flag) &&
		    json_object_get_boolean(flag))
			return false;
		if (!json_object_object_get_ex(v, "number", &n))
			return false;
		v = n;
	}
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

const char *fs_json_str(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return "";
	if (json_object_is_type(v, json_type_array))
		v = json_object_array_length(v) ? json_object_array_get_idx(v, 0) : NULL;
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

json_object *fs_json_obj(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_object))
		return NULL;
	return v;
}
