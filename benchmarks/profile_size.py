"""Benchmark 4: size of a serialized profile, per column, with and without sketches.

For each kind of column of the mixed table (benchmark 1) and several row counts,
profiles the column alone and measures its entry in ``TableProfile.to_json()``
(compact JSON, UTF-8 bytes) with sketches and with ``sketches=False``, and how the
sketch bytes split between the HyperLogLog, KLL and frequent-items sketches
(base64 text). Then the whole 10-column table, raw and gzip-compressed.

    .venv/bin/python benchmarks/profile_size.py [--rows 1000,100000,1000000]
"""

from __future__ import annotations

import argparse
import gzip
import json

from _common import markdown_table, mixed_table, print_machine

import faucet_core

KINDS = [
    ("country", "low-cardinality string (12 values)"),
    ("quantity", "low-cardinality integer (20 values)"),
    ("is_paid", "boolean"),
    ("order_ref", "high-cardinality string (unique)"),
    ("id", "high-cardinality integer (unique)"),
    ("amount", "numeric float (log-normal, 1 % nulls)"),
    ("created_at", "timestamp (microseconds)"),
]


def compact(data: object) -> int:
    return len(json.dumps(data, separators=(",", ":"), allow_nan=False).encode("utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1000,100000,1000000")
    args = parser.parse_args()
    sizes = [int(r) for r in args.rows.split(",")]
    tables = {rows: mixed_table(rows) for rows in sizes}

    body = []
    for column, label in KINDS:
        for rows in sizes:
            prof = faucet_core.profile(tables[rows].select([column]))[column]
            sketches = prof.sketches
            body.append(
                [
                    label,
                    f"{rows:,}",
                    f"{compact(prof.to_dict(sketches=True)):,}",
                    f"{compact(prof.to_dict(sketches=False)):,}",
                    *(
                        "-" if sketches.get(name) is None else f"{len(sketches[name]):,}"
                        for name in ("hll", "kll", "freq")
                    ),
                    "yes" if prof.top_values else "no",
                ]
            )
    print("### Bytes per column in `TableProfile.to_json()` (compact JSON)")
    print()
    header = [
        "column",
        "rows",
        "with sketches",
        "sketches=False",
        "hll b64",
        "kll b64",
        "freq b64",
        "top values",
    ]
    print(markdown_table(header, body))
    print()

    body = []
    for rows in sizes:
        prof = faucet_core.profile(tables[rows])
        full = prof.to_json().encode("utf-8")
        lean = prof.to_json(sketches=False).encode("utf-8")
        cols = len(prof.columns)
        body.append(
            [
                f"{rows:,}",
                f"{len(full):,}",
                f"{len(full) // cols:,}",
                f"{len(gzip.compress(full)):,}",
                f"{len(lean):,}",
                f"{len(lean) // cols:,}",
                f"{len(gzip.compress(lean)):,}",
            ]
        )
    print("### Whole 10-column mixed table (bytes)")
    print()
    header = [
        "rows",
        "to_json()",
        "per column",
        "gzip",
        "to_json(sketches=False)",
        "per column",
        "gzip",
    ]
    print(markdown_table(header, body))
    print()
    print_machine()


if __name__ == "__main__":
    main()
