/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Wycheproof JSON helpers for the test suites (cJSON underneath).
 *
 * Every field a suite meets must be either read or listed as deliberately
 * ignored: qt_json_check_fields reports any other field as an error, so a
 * vector file that grows a field that changes the meaning of a test cannot
 * be run silently with the old meaning. */
#ifndef QUILL_TEST_QT_JSON_H
#define QUILL_TEST_QT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

/* qt_json_load_vector parses the file |name| from qt_vectors_dir().  Returns
 * NULL if the file is absent (*absent = 1, message printed) or malformed
 * (*absent = 0, message printed).  Free with cJSON_Delete. */
cJSON *qt_json_load_vector(const char *name, int *absent);

/* qt_json_check_fields returns 1 if every member of |obj| is named in the
 * NULL-terminated list |known|; otherwise prints each unknown member
 * (prefixed with |where|) and returns 0. */
int qt_json_check_fields(const cJSON *obj, const char *const *known, const char *where);

/* qt_json_str returns the string member |field| of |obj|, or NULL (with a
 * message) if it is missing or not a string. */
const char *qt_json_str(const cJSON *obj, const char *field);

/* qt_json_int stores the integer member |field| in *out; returns 0 (with a
 * message) if it is missing or not an integral number. */
int qt_json_int(const cJSON *obj, const char *field, long *out);

/* qt_json_hex decodes the hex string member |field| into a malloc'ed buffer
 * (at least one byte allocated, *len may be 0); returns 0 with a message if
 * it is missing or not hex. */
int qt_json_hex(const cJSON *obj, const char *field, uint8_t **out, size_t *len);

/* qt_json_array returns the array member |field|, or NULL with a message. */
const cJSON *qt_json_array(const cJSON *obj, const char *field);

/* qt_json_check_header checks the top level of a Wycheproof file: only the
 * documented members, the expected |schema|, and numberOfTests equal to the
 * number of tests in testGroups.  Returns 1 if all holds. */
int qt_json_check_header(const cJSON *root, const char *schema);

#endif
