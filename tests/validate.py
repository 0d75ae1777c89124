#!/usr/bin/env python3
"""Validates documents against the benchlog/1 JSON Schema.

usage: validate.py SCHEMA BENCHLOG CORPUS_DIR

Checks that the schema is itself a valid 2020-12 schema, that every
corpus/*/*/expected.json validates, and that `benchlog parse` output for
every corpus input (as written now, not as expected) validates too.
Prints 'N passed, N failed'."""
import json
import pathlib
import subprocess
import sys

import jsonschema


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
    if not cases:
        print("FAIL no corpus cases found")
        failed += 1
    print(f"schema: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
