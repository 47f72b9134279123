#!/usr/bin/env python3
"""Validates scene files against cartrender's JSON Schema with the `jsonschema` package (PyPI).

    Scripts/validate-scenes.py SCHEMA.json SCENE.json...

Prints one JSON object per scene on stdout, in argument order:
{"file": PATH, "valid": true|false, "error": null|"one sentence"}. Exit status 0 when the
schema itself is valid (whatever the scenes), 2 when it is not or `jsonschema` is missing.

The scene is read as strict JSON (RFC 8259), as cartrender's decoder reads it: NaN and
Infinity, duplicate keys and numbers a double cannot hold are refused before the schema is
applied (Python's json module would accept them). A UTF-8 byte order mark is accepted.
`make jsonschema` installs the validator into .build/jsonschema/ (a virtual environment).
"""
import json
import math
import sys

try:
    import jsonschema
except ImportError:
    print("validate-scenes.py: the jsonschema package is missing; run `make jsonschema`", file=sys.stderr)
    sys.exit(2)


class NotStrictJSON(ValueError):
    pass


def reject_constant(name):
    raise NotStrictJSON(f"{name} is not a JSON number")


def strict_float(text):
    value = float(text)
    if math.isinf(value):
        raise NotStrictJSON(f"the number {text} is out of the range of a double")
    mantissa = text.lower().split("e")[0]
    if value == 0 and any(c in "123456789" for c in mantissa):
        raise NotStrictJSON(f"the number {text} is too small to represent as a double")
    return value


def strict_int(text):
    value = int(text)
    # Integers beyond a double's range are refused by the decoder as numbers a double cannot hold.
    if abs(value) > sys.float_info.max:
        raise NotStrictJSON(f"the number {text} is out of the range of a double")
    return value


def no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise NotStrictJSON(f'duplicate key "{key}"')
        seen[key] = value
    return seen


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    text = data.decode("utf-8-sig")  # strict UTF-8; a byte order mark is accepted
    return json.loads(text, parse_constant=reject_constant, parse_float=strict_float,
                      parse_int=strict_int, object_pairs_hook=no_duplicates)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        schema = json.loads(f.read().decode("utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    try:
        validator_class.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        print(f"validate-scenes.py: {argv[1]} is not a valid JSON Schema: {e.message}", file=sys.stderr)
        return 2
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    for path in argv[2:]:
        try:
            instance = load(path)
        except (ValueError, UnicodeDecodeError, RecursionError) as e:
            print(json.dumps({"file": path, "valid": False, "error": f"not JSON: {e}"}))
            continue
        error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
        if error is None:
            print(json.dumps({"file": path, "valid": True, "error": None}))
        else:
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            print(json.dumps({"file": path, "valid": False, "error": f"{where}: {error.message}"}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
