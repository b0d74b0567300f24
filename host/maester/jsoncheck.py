"""JSON data files read and checked against a JSON schema, with problems that name the file and the field.

    found = problems(validator(schema), data, "hardware/profiles/x.json", key="name")
    # ["hardware/profiles/x.json: $.segments[0] (round): 'length' is a required property"]

Used for the card data (cards_db/schema/) and the hardware data (hardware/schema/).
"""

import json
from pathlib import Path

from .files import read_bytes
from .paths import ROOT


MAX_JSON = 32 << 20  # bytes: the largest JSON file maester reads (the card data is well under 1 MB)


def read_json(path):
    """The file's JSON; a ValueError naming the file if it is not JSON, not a file (a folder, a pipe,
    /dev/zero) or larger than MAX_JSON (FileNotFoundError if missing)."""
    try:
        data = read_bytes(path, MAX_JSON, "JSON file")
    except IsADirectoryError:
        raise ValueError("%s is a directory, not a JSON file" % path) from None
    try:
        return json.loads(data.decode("utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError("%s is not valid JSON: %s" % (path, e)) from None
    except UnicodeDecodeError:
        raise ValueError("%s is not valid JSON: it is not UTF-8 text" % path) from None


def validator(schema):
    import jsonschema  # only commands that check files pay for the import (start-up)
    return jsonschema.Draft202012Validator(schema)


def problems(validator, data, where, key="id"):
    """Schema violations as 'where: path (record key): message', in document order (no 'where: ' if None).

    A record in a list is named by its `key` field as well as its index: "influence[3]" alone is
    hard to find in a file.
    """
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = list(err.absolute_path)
        label = err.json_path
        if len(path) >= 2 and isinstance(data, dict) and isinstance(path[1], int):
            items = data.get(path[0])
            record = items[path[1]] if isinstance(items, list) and path[1] < len(items) else None
            if isinstance(record, dict) and isinstance(record.get(key), str) and record.get(key):
                label += " (%s)" % record[key]
        message = err.message
        if not isinstance(err.instance, (dict, list)) and repr(err.instance) not in message:
            message += " (found %r)" % (err.instance,)  # "'blue' was expected" alone hides the culprit
        out.append(("%s: " % where if where else "") + "%s: %s" % (label, message))
    return out


def read_checked(path, schema_path, what, check=None, key="name"):
    """The JSON file at `path` checked against the schema in `schema_path`, then by `check` (what a
    schema cannot say): a ValueError naming `what`, the file and every problem found."""
    doc = read_json(path)
    found = problems(validator(read_json(schema_path)), doc, None, key=key)
    if found:
        schema = Path(schema_path)
        shown = schema.relative_to(ROOT) if schema.is_relative_to(ROOT) else schema
        raise ValueError("the %s %s is not valid (see %s):\n  %s" % (what, path, shown, "\n  ".join(found)))
    if check is not None:
        try:
            check(doc)
        except ValueError as e:
            raise ValueError("the %s %s is not valid: %s" % (what, path, e)) from None
    return doc
