"""``faucet catalog sync|datasets|show|annotate``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from faucet_core.catalog import (
    Catalog,
    ColumnInput,
    Consumer,
    DatasetDetail,
    DatasetEntry,
    Edge,
)
from faucet_core.catalog.model import merged_inputs
from faucet_core.drift.numfmt import fmt_rate
from faucet_core.errors import ConfigError
from faucet_core.store import default_store_url
from faucet_dagster.checks.summary import drift_marks, sparkline
from faucet_dagster.cli.common import add_location_args, announce_new_store, location_of
from faucet_dagster.location import CodeLocation

__all__ = ["add_catalog_parser", "open_catalog"]


def open_catalog(
    args: argparse.Namespace, location: CodeLocation | None = None, *, writes: bool = False
) -> Catalog:
    """The catalog of ``--store``, else the location's FaucetResource (its ``catalog:``
    url, else its store), else ``FAUCET_STORE_URL`` / the default SQLite file. A command
    that only reads says on stderr when the store does not exist yet; one that ``writes``
    (sync, annotate, lineage ingest) creates it on purpose."""
    url = _catalog_url(args, location)
    if not writes:
        announce_new_store(url)
    return Catalog(url)


def _catalog_url(args: argparse.Namespace, location: CodeLocation | None) -> str:
    if getattr(args, "store", None):
        return str(args.store)
    location = location or location_of(args)
    if location is None:
        return default_store_url()
    resource = (location.defs.resources or {}).get("faucet")
    config = getattr(resource, "catalog_config", None)
    if config is not None and config().url:
        return str(config().url)
    return location.store_url()


def _ts(value: Any) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if value is not None else "-"


def _cmd_sync(args: argparse.Namespace) -> int:
    from faucet_dagster.lineage import sync_definitions

    location = location_of(args, needed_by="faucet catalog sync")
    assert location is not None
    resource: Any = (location.defs.resources or {}).get("faucet")
    config = resource.catalog_config() if hasattr(resource, "catalog_config") else None
    with open_catalog(args, location, writes=True) as catalog:
        result = sync_definitions(catalog, location.defs, config=config)
        if args.json:
            print(
                json.dumps({"location": location.name, "catalog": catalog.url, **result.to_dict()})
            )
            return 0
        s = result.summary
        why = result.why_no_edges()
        print(
            f"synced {result.assets} asset(s) from {location.name} into {catalog.url}: "
            f"{s.datasets} dataset(s) ({s.new_datasets} new), {s.edges} edge(s) written"
            + (f": {why}" if why else "")
        )
    return 0


def _row(entry: DatasetEntry) -> str:
    owners = ",".join(entry.owners) or "-"
    cols = len(entry.schema) if entry.schema is not None else "-"
    return (
        f"{entry.id}  {entry.uri}  owners {owners}  columns {cols}  "
        f"up {entry.upstream} down {entry.downstream}  last run {_ts(entry.last_run_at)}"
    )


def _cmd_datasets(args: argparse.Namespace) -> int:
    with open_catalog(args) as catalog:
        found = catalog.datasets()
        if args.json:
            print(json.dumps([e.to_dict() for e in found], indent=2))
            return 0
        if not found:
            print(f"no datasets in the catalog {catalog.url}")
            return 0
        print("\n".join(_row(e) for e in found))
    return 0


def _edge_line(edge: Edge, *, upstream: bool, inferred: Any = None) -> str:
    other = edge.source_uri if upstream else edge.sink_uri
    other_id = edge.source_id if upstream else edge.sink_id
    arrow = "<-" if upstream else "->"
    head = f"  {arrow} {other_id} {other} (by {edge.job}, run {edge.run_id or '-'})"
    if edge.column_lineage is None:
        return head + "\n      column lineage: unknown (opaque)" + _inferred_lines(inferred)
    lineage = edge.column_lineage
    pairs = [f"{out} <- {_inputs(ins)}" for out, ins in sorted(lineage.fields.items())]
    if lineage.dataset:
        pairs.append(f"(every column) <- {_inputs(lineage.dataset)}")
    return head + "\n      " + ("; ".join(pairs) if pairs else "column lineage: reads no column")


def _inferred_lines(inferred: Any) -> str:
    """The lineage inferred from the profiles for an opaque edge (never declared)."""
    if inferred is None or not inferred.runs:
        return ""
    confident = inferred.confident
    # a join key another input holds as well: shown, so the missing column is explained
    contested = [c for c in inferred.candidates if c.evidence.rivals and not c.confident]
    head = f"\n      inferred from {inferred.runs} profiled run(s), not declared:"
    if not confident:
        head += " no confident candidate (the edge stays unknown)"
    return head + "".join(
        [
            *(
                f"\n        {c.column} <- {c.source} ({c.confidence:.2f}: {c.evidence.text()})"
                for c in confident
            ),
            *(
                f"\n        not confident: {c.column} <- {c.source} "
                f"({c.confidence:.2f}: {c.evidence.text()})"
                for c in contested
            ),
        ]
    )


def _inputs(inputs: tuple[ColumnInput, ...]) -> str:
    """``email [DIRECT/TRANSFORMATION], id``: source columns with their transformations."""
    return ", ".join(
        i.field + (f" [{', '.join(map(str, i.transformations))}]" if i.kinds else "")
        for i in merged_inputs(inputs)
    )


def _owners(entry: DatasetEntry) -> str:
    """``team-a (code), team-b (code, annotation)``: each owner with its sources."""
    return ", ".join(map(str, entry.owner_sources)) or "-"


def render_detail(
    detail: DatasetDetail, inferred: Mapping[tuple[str, str], Any] | None = None
) -> str:
    """``inferred``: ``{(source id, sink id): InferredEdge}`` for opaque edges."""
    found = inferred or {}
    d = detail.dataset
    lines = [f"{d.id} {d.uri}", f"  owners: {_owners(d)}"]
    if d.schema is None:
        lines.append("  schema: unknown")
    else:
        lines.append(f"  schema ({len(d.schema)} column(s), run {d.schema_run_id or '-'}):")
        lines.extend(f"    {f.name}: {f.type or '?'}" for f in d.schema)
    lines.append(f"  consumers: {'-' if not detail.consumers else ''}".rstrip())
    for c in detail.consumers:
        cols = ", ".join(c.columns) or "every column"
        lines.append(f"    {c.name} ({c.kind or '-'}) contact {c.contact or '-'} reads {cols}")
    lines.append(f"  upstream: {len(detail.upstream)} edge(s)")
    lines.extend(
        _edge_line(e, upstream=True, inferred=found.get((e.source_id, e.sink_id)))
        for e in detail.upstream
    )
    lines.append(f"  downstream: {len(detail.downstream)} edge(s)")
    lines.extend(
        _edge_line(e, upstream=False, inferred=found.get((e.source_id, e.sink_id)))
        for e in detail.downstream
    )
    for snap in detail.contracts:
        assert snap.contract is not None
        lines.append(
            f"  contract v{snap.contract.version} of {snap.job} declares: "
            + ", ".join(snap.contract.columns)
        )
    lines.append(f"  runs: {len(detail.runs)} recent")
    lines.extend(
        f"    {_ts(r.event_time)} {r.state.value} {r.role} by {r.job} run {r.run_id}"
        for r in detail.runs
    )
    lines.extend(_profile_lines(detail))
    lines.extend(_schema_history_lines(detail))
    return "\n".join(lines)


def _schema_history_lines(detail: DatasetDetail) -> list[str]:
    """When each observed schema change happened (a run added, dropped or retyped a column)."""
    if not detail.schema_history:
        return []
    lines = [f"  schema history: {len(detail.schema_history)} change(s)"]
    for c in detail.schema_history:
        where = f" [{c.partition}]" if c.partition else ""
        if c.change == "added":
            what = f"+ {c.column} ({', '.join(c.after) or 'only nulls'})"
        elif c.change == "dropped":
            what = f"- {c.column} (was {', '.join(c.before) or 'only nulls'})"
        else:
            what = f"~ {c.column} {'/'.join(c.before)} -> {'/'.join(c.after)}"
        lines.append(f"    {_ts(c.changed_at)} run {c.run_id}{where}: {what}")
    return lines


def _profile_lines(detail: DatasetDetail) -> list[str]:
    latest = detail.latest_profile
    if latest is None:
        return ["  profile: none recorded"]
    lines = [
        f"  profile: latest run {latest.run_id} at {_ts(latest.recorded_at)}: "
        f"{latest.row_count:,} row(s), {len(latest.profile.columns)} column(s) "
        f"[{latest.status}], {len(latest.findings)} finding(s)"
    ]
    lines.extend(f"    ! {f.get('message', f)}" for f in latest.findings)
    history = detail.profiles
    lines.append(f"    history: {len(history)} run(s)")
    for name, col in latest.profile.columns.items():
        seen = [p for p in history if name in p.profile.columns]
        rates = [p.profile.columns[name].null_rate for p in seen]
        marks = drift_marks(name, (p.findings for p in seen))  # as the check's summary
        lines.append(f"    {name}: null {fmt_rate(col.null_rate)} trend {sparkline(rates, marks)}")
    return lines


def _cmd_show(args: argparse.Namespace) -> int:
    with open_catalog(args) as catalog:
        detail = catalog.detail(args.dataset)
        opaque = [e for e in (*detail.upstream, *detail.downstream) if e.column_lineage is None]
        inferred = {(e.source_id, e.sink_id): catalog.inferred_lineage(e) for e in opaque}
    if args.json:
        data = detail.to_dict()
        for side in ("upstream", "downstream"):
            for item in data[side]:
                got = inferred.get((item["source"]["id"], item["sink"]["id"]))
                if got is not None:
                    item["inferred_lineage"] = got.to_dict()
        print(json.dumps(data, indent=2, default=str))
    else:
        print(render_detail(detail, inferred))
    return 0


def _consumers(args: argparse.Namespace) -> list[Consumer]:
    specs = args.consumer or []
    if not specs and (args.contact is not None or args.columns is not None):
        raise ConfigError("--contact and --columns describe a consumer: add --consumer NAME=KIND")
    columns = tuple(c.strip() for c in (args.columns or "").split(",") if c.strip())
    out = []
    for spec in specs:
        name, _, kind = spec.partition("=")
        if not name.strip():
            raise ConfigError(
                f"--consumer {spec!r}: write NAME=KIND, "
                "e.g. --consumer contacts-dashboard=dashboard"
            )
        out.append(Consumer(name.strip(), kind.strip(), args.contact or "", columns))
    return out


def _cmd_annotate(args: argparse.Namespace) -> int:
    consumers = _consumers(args)
    removing = args.remove_owner or []
    if (
        args.owner is None
        and not removing
        and not args.clear_owners
        and not consumers
        and not args.replace
    ):
        raise ConfigError(
            "nothing to annotate: give --owner, --remove-owner, --clear-owners, "
            "--consumer NAME=KIND or --replace"
        )
    if args.clear_owners and (args.owner is not None or removing):
        raise ConfigError(
            "--clear-owners drops every annotated owner: it cannot be combined with --owner "
            "or --remove-owner"
        )
    with open_catalog(args, writes=True) as catalog:
        detail = catalog.annotate(
            args.dataset,
            owners=args.owner,
            consumers=consumers,
            replace=args.replace,
            remove_owners=removing,
            clear_owners=args.clear_owners,
        )
    if args.json:
        print(json.dumps(detail.to_dict(), indent=2, default=str))
        return 0
    d = detail.dataset
    print(f"{d.id} {d.uri}")
    print(f"  owners: {_owners(d)}")
    for c in detail.consumers:
        cols = ", ".join(c.columns) or "every column"
        print(f"  consumer {c.name} ({c.kind or '-'}) contact {c.contact or '-'} reads {cols}")
    return 0


def add_catalog_parser(sub: Any) -> None:
    """``faucet catalog ...``."""
    cat = sub.add_parser("catalog", help="the data catalog: datasets, lineage, owners")
    csub = cat.add_subparsers(dest="catalog_command", required=True)

    sync = csub.add_parser("sync", help="record a code location's asset graph in the catalog")
    add_location_args(sync)
    sync.add_argument("--json", action="store_true")
    sync.set_defaults(func=_cmd_sync)

    ds = csub.add_parser("datasets", help="list the catalog's datasets")
    add_location_args(ds)
    ds.add_argument("--json", action="store_true")
    ds.set_defaults(func=_cmd_datasets)

    show = csub.add_parser("show", help="one dataset: schema, lineage, owners, profile")
    show.add_argument("dataset", help="dataset id (or a prefix of 4+ digits) or URI")
    add_location_args(show)
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=_cmd_show)

    ann = csub.add_parser("annotate", help="edit annotated owners, upsert declared consumers")
    ann.add_argument("dataset", help="dataset id (or a prefix of 4+ digits) or URI")
    add_location_args(ann)
    ann.add_argument(
        "--owner",
        action="append",
        help="annotated owner (repeatable); replaces the annotated owners (owners from code, "
        "OpenLineage or the catalog: block are kept)",
    )
    ann.add_argument(
        "--remove-owner", action="append", help="annotated owner to remove (repeatable)"
    )
    ann.add_argument("--clear-owners", action="store_true", help="remove every annotated owner")
    ann.add_argument("--consumer", action="append", help="NAME=KIND (repeatable); upserted")
    ann.add_argument("--contact", help="contact of the --consumer(s)")
    ann.add_argument("--columns", help="comma-separated columns the --consumer(s) read")
    ann.add_argument("--replace", action="store_true", help="drop the consumers not listed first")
    ann.add_argument("--json", action="store_true")
    ann.set_defaults(func=_cmd_annotate)
