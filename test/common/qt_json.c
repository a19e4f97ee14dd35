/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "qt_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

cJSON *qt_json_load_vector(const char *name, int *absent) {
    *absent = 0;
    char *path = qt_vector_path(name);
    if (path == NULL) {
        *absent = 1;
        return NULL;
    }
    size_t len = 0;
    char *text = qt_read_file(path, &len);
    if (text == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        free(path);
        return NULL;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (root == NULL)
        fprintf(stderr, "%s: malformed JSON near offset %ld\n", path,
                cJSON_GetErrorPtr() != NULL ? (long)(cJSON_GetErrorPtr() - text) : -1L);
    free(text);
    free(path);
    return root;
}

int qt_json_check_fields(const cJSON *obj, const char *const *known, const char *where) {
    int ok = 1;
    const cJSON *item;
    cJSON_ArrayForEach(item, obj) {
        int found = 0;
        for (size_t i = 0; known[i] != NULL && !found; i++)
            found = item->string != NULL && strcmp(item->string, known[i]) == 0;
        if (!found) {
            fprintf(stderr, "%s: unknown field \"%s\"\n", where,
                    item->string != NULL ? item->string : "(null)");
            ok = 0;
        }
    }
    return ok;
}

const char *qt_json_str(const cJSON *obj, const char *field) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (!cJSON_IsString(item) || item->valuestring == NULL) {
        fprintf(stderr, "missing or non-string field \"%s\"\n", field);
        return NULL;
    }
    return item->valuestring;
}

int qt_json_int(const cJSON *obj, const char *field, long *out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble) ||
        fabs(item->valuedouble) > 1e15) {
        fprintf(stderr, "missing or non-integer field \"%s\"\n", field);
        return 0;
    }
    *out = (long)item->valuedouble;
    return 1;
}

int qt_json_hex(const cJSON *obj, const char *field, uint8_t **out, size_t *len) {
    const char *s = qt_json_str(obj, field);
    if (s == NULL)
        return 0;
    if (!qt_hex_decode(s, out, len)) {
        fprintf(stderr, "field \"%s\" is not hex\n", field);
        return 0;
    }
    return 1;
}

const cJSON *qt_json_array(const cJSON *obj, const char *field) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (!cJSON_IsArray(item)) {
        fprintf(stderr, "missing or non-array field \"%s\"\n", field);
        return NULL;
    }
    return item;
}

int qt_json_check_header(const cJSON *root, const char *schema) {
    static const char *const known[] = {"algorithm", "schema", "numberOfTests", "header",
                                        "notes", "testGroups", NULL};
    int ok = qt_json_check_fields(root, known, "top level");
    const char *s = qt_json_str(root, "schema");
    if (s == NULL || strcmp(s, schema) != 0) {
        fprintf(stderr, "schema is \"%s\", expected \"%s\"\n", s != NULL ? s : "?", schema);
        ok = 0;
    }
    long declared = -1;
    const cJSON *groups = qt_json_array(root, "testGroups");
    if (!qt_json_int(root, "numberOfTests", &declared) || groups == NULL)
        return 0;
    long counted = 0;
    const cJSON *g;
    cJSON_ArrayForEach(g, groups) {
        const cJSON *tests = qt_json_array(g, "tests");
        if (tests == NULL)
            return 0;
        counted += cJSON_GetArraySize(tests);
    }
    if (counted != declared) {
        fprintf(stderr, "numberOfTests %ld but %ld tests present\n", declared, counted);
        ok = 0;
    }
    return ok;
}
