/*
 * Host extension "krino.host.document/1": the test case of an evaluator call, parsed once by the
 * host, navigated by plugins without parsing.
 *
 * Without it every plugin parses the test case's JSON again (each plugin once per document, through
 * the C++ helper's per-thread cache). With it the host parses each section of the test case at most
 * once per item, on first use, and every evaluator of every plugin reads the same parse through the
 * functions below: object members, array elements, strings as byte spans, numbers as their exact
 * text plus the nearest double.
 *
 * A value is named by a krino_json_ref, a small handle that is only meaningful to the host that
 * gave it. A ref with document == NULL is "no value" (a missing member, the end of a list).
 *
 * Lifetime: refs and every pointer read through them (keys, strings, number text) are valid during
 * the evaluate call whose context they came from, and only on that call's thread [worker]; copy what
 * you keep. The document never changes while it is readable.
 *
 * Absence: the host answers NULL for this id when it does not have the extension (a host older
 * than the extension, or one told not to lend it), and testcase() gives a NULL document for calls it keeps no parse for (calls made
 * outside an item, worker processes). A plugin then parses the test case's bytes itself; the C++
 * helper's krino::TestCase does that choice for its users.
 *
 * Same rules as plugin.h: C99, struct_size first, fields only appended, nothing freed across the
 * boundary, no exception crosses it.
 */
#ifndef KRINO_HOST_DOCUMENT_H
#define KRINO_HOST_DOCUMENT_H

#include <krino/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KRINO_HOST_DOCUMENT_EXTENSION_ID "krino.host.document/1"

/* The kinds of JSON value. KRINO_JSON_UNREADABLE is a section the host could not parse: read the
 * test case's bytes yourself then (the C++ helper does, and reports the syntax error as before). */
typedef enum krino_json_kind {
  KRINO_JSON_NULL = 0,
  KRINO_JSON_FALSE = 1,
  KRINO_JSON_TRUE = 2,
  KRINO_JSON_NUMBER = 3,
  KRINO_JSON_STRING = 4,
  KRINO_JSON_ARRAY = 5,
  KRINO_JSON_OBJECT = 6,
  KRINO_JSON_UNREADABLE = 7
} krino_json_kind;

/* A value in the host's parse. Plain data: copy it freely within the call. */
typedef struct krino_json_ref {
  const void *document; /* NULL: no value */
  uint64_t index;
} krino_json_ref;

/* What one value holds, filled in by read(). */
typedef struct krino_json_value {
  int32_t kind;   /* krino_json_kind */
  uint32_t count; /* members of an object, elements of an array; 0 otherwise */
  /* A string: its content, unescaped, UTF-8, not NUL-terminated. A number: its text exactly as the
   * test case writes it ("2102650.0", "1e400", a 30-digit integer), so a plugin that passes a
   * number on keeps it bit for bit. NULL otherwise. */
  const char *text;
  size_t text_size;
  /* A number: the nearest double to its text (correctly rounded; +-infinity beyond the range of a
   * double). 0 otherwise. */
  double number;
} krino_json_value;

typedef struct krino_host_document {
  uint32_t struct_size;

  /* The root object of the test case of the evaluator call behind `ctx` (its members are the
   * sections "inputs", "actualOutputs", "expectedOutputs", "metadata" that the test case has).
   * document == NULL when the host keeps no parse for this call. [worker] */
  krino_json_ref (*testcase)(const krino_host *host, const krino_call_context *ctx);

  /* Fills `out` with what `value` holds. [worker] */
  void (*read)(krino_json_ref value, krino_json_value *out);

  /* The first element of an array, or the value of the first member of an object (its key through
   * `key`, when not NULL). No value when the container is empty or not a container. [worker] */
  krino_json_ref (*first)(krino_json_ref container, const char **key, size_t *key_size);

  /* The element or member value after `value` in its container (the key through `key` when the
   * container is an object and `key` is not NULL). No value after the last. [worker] */
  krino_json_ref (*next)(krino_json_ref value, const char **key, size_t *key_size);

  /* The value of member `key` (`key_size` bytes, unescaped) of `object`; no value when the object
   * has no such member or `object` is not an object. With duplicate keys, the last one, as the
   * helper's parser keeps. [worker] */
  krino_json_ref (*find)(krino_json_ref object, const char *key, size_t key_size);
} krino_host_document;

#ifdef __cplusplus
}
#endif

#endif /* KRINO_HOST_DOCUMENT_H */
