#!/usr/bin/env python3
"""Validates documents against the benchlog/1 JSON Schema.

usage: validate.py SCHEMA BENCHLOG CORPUS_DIR

Checks that the schema is itself a valid 2020-12 schema, that every
corpus/*/*/expected.json validates, and that `benchlog parse` output for
every corpus input (as written now, not as expected) validates too, with
--objects and without: the rows of the one, expanded, are the results of
the other, and those are expected.json's.
Prints 'N passed, N failed'."""
import json
import pathlib
import subprocess
import sys

import jsonschema

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from benchlog_rows import expand  # noqa: E402


def main():
    schema_path, benchlog, corpus = sys.argv[1:4]
    schema = json.load(open(schema_path))
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    validator = cls(schema)
    passed = failed = 0

    def check(name, doc):
        nonlocal passed, failed
        docs = doc if isinstance(doc, list) else [doc]
        errors = [e for d in docs for e in validator.iter_errors(d)]
        if errors:
            failed += 1
            print(f"FAIL {name}")
            for e in errors[:5]:
                where = "/".join(str(p) for p in e.absolute_path)
                print(f"    at /{where}: {e.message[:300]}")
        else:
            passed += 1

    cases = sorted(pathlib.Path(corpus).glob("*/*/input"))
    rows_cases = 0
    for inp in cases:
        exp = inp.parent / "expected.json"
        if exp.exists():
            check(str(exp), json.load(open(exp)))
        out = subprocess.run([benchlog, "parse", "--jsonl", "-q", str(inp)],
                             capture_output=True, text=True)
        if out.returncode != 0:
            failed += 1
            print(f"FAIL {inp}: benchlog exited {out.returncode}: {out.stderr[:300]}")
            continue
        docs = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
        check(f"{inp} (benchlog parse)", docs)
        # the two forms of a run's results (rows, --objects) are the same
        # results: the expected ones, as Python expands the rows too
        objs = subprocess.run([benchlog, "parse", "--jsonl", "--objects", "-q", str(inp)],
                              capture_output=True, text=True)
        objects = [json.loads(line) for line in objs.stdout.splitlines() if line.strip()]
        check(f"{inp} (benchlog parse --objects)", objects)
        rows_form = any("rows" in r for d in docs for r in d["runs"])
        if any("rows" in r for d in objects for r in d["runs"]):
            failed += 1
            print(f"FAIL {inp}: --objects wrote rows")
        elif [expand(d) for d in docs] != objects:
            failed += 1
            print(f"FAIL {inp}: its rows expanded are not its --objects results")
        elif exp.exists():
            want = json.load(open(exp))
            want = want if isinstance(want, list) else [want]
            if [d["runs"] for d in objects] != [d["runs"] for d in want]:
                failed += 1
                print(f"FAIL {inp}: --objects runs differ from expected.json")
            else:
                passed += 1
        rows_cases += rows_form
    if not cases:
        print("FAIL no corpus cases found")
        failed += 1
    if cases and rows_cases < 10:
        print(f"FAIL only {rows_cases} corpus inputs give rows: the rows form went untested")
        failed += 1
    print(f"schema: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
