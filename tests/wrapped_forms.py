#!/usr/bin/python3
"""wrapped_forms.py - writes every corpus input in each of the forms the
roundtrip test reads it in (quoted-printable, mbox, MIME with HTML, '> '
quoted, an HTML page, flattened onto one line), one file each, so that a
memory checker can run over the text the decoders make.

usage: wrapped_forms.py CORPUS OUTDIR   (prints the number of files)
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import roundtrip  # noqa: E402 (tests/roundtrip.py)


def main():
    corpus, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for inp in sorted(corpus.glob("*/*/input")):
        data = inp.read_bytes()
        name = f"{inp.parent.parent.name}-{inp.parent.name}"
        for wname, wrap, _fmt in roundtrip.WRAPPERS:
            (out / f"{name}.{wname}").write_bytes(wrap(data))
            n += 1
    print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
