"""The results of a benchlog/1 run, whichever form it has.

A run of a tool whose output is a stream of records (zpool iostat) is
written with "rows" in place of "results" (see the schema's "rows"):

    {"shape": 0, "coords": ["pool", "vdev", "sample"],
     "cells": [{"metric": "read_ops", "unit": "ops/s"}, ...]}
    [0, "tank", "tank/mirror-0", 0, 331, [7864320, "7.5M", "approximate"]]

results(run) gives the list of result objects either way, member for
member as `benchlog parse --objects` writes them; expand(doc) puts them
in each run in place of its rows."""


def _cell(names, cell, keys, coords):
    value, raw, flags = (cell[0], cell[1], cell[2:]) if isinstance(cell, list) else (cell, None, [])
    r = {}
    if "metric" in names:
        r["metric"] = names["metric"]
    r["value"] = value
    if "unit" in names:
        r["unit"] = names["unit"]
    if raw is not None:
        r["raw"] = raw
    if flags:
        r["flags"] = list(flags)
    r.update(zip(keys, coords))
    return r


def results(run):
    if "rows" not in run:
        return run["results"]
    shapes, out = {}, []
    for row in run["rows"]:
        if isinstance(row, dict):
            shapes[row["shape"]] = row
            continue
        shape = shapes[row[0]]
        keys = shape["coords"]
        coords, cells = row[1:1 + len(keys)], row[1 + len(keys):]
        out.extend(_cell(n, c, keys, coords) for n, c in zip(shape["cells"], cells))
    return out


def expand(doc):
    for i, run in enumerate(doc.get("runs", [])):
        if "rows" in run:
            doc["runs"][i] = {("results" if k == "rows" else k): (results(run) if k == "rows" else v)
                              for k, v in run.items()}
    return doc
