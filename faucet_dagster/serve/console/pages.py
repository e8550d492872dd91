"""The console's routes under ``/ui``: sign-in, datasets, a dataset (with its owner and
consumer forms), impact, audit.

============================================  ========  ==================================
route                                         role      writes
============================================  ========  ==================================
``GET/POST /ui/signin``, ``POST /ui/signout``  -         audited ``ui.signin`` (ok/denied)
``GET /ui/datasets[?q=&status=&sort=&page=]``  viewer    -
``GET /ui/datasets/{id}``                     viewer    -
``POST /ui/datasets/{id}/owners``             operator  ``catalog.annotate`` (the API's)
``POST /ui/datasets/{id}/consumers``          operator  ``catalog.annotate`` (the API's)
``GET/POST /ui/impact``                       viewer    audited ``plan`` (as the API's)
``GET /ui/audit[?before=]``                   admin     -
============================================  ========  ==================================

Access (session, CSRF, Origin, role) is :mod:`faucet_dagster.serve.console.access`.
"""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from faucet_core.catalog import Consumer, LatestOutcome
from faucet_core.db.engine import DEFAULT_BUSY_TIMEOUT, database_error, reader
from faucet_core.db.schema import audit_log, catalog_consumers, catalog_datasets
from faucet_core.errors import CatalogError
from faucet_core.store.audit import list_audit
from faucet_core.store.counters import read_counters
from faucet_core.store.metrics import check_error_times
from faucet_dagster.serve.api.actions import annotate_audited
from faucet_dagster.serve.api.auth import Role
from faucet_dagster.serve.api.public import public_message
from faucet_dagster.serve.console.access import (
    ConsoleContext,
    PageError,
    Visit,
    page_guard,
    signin_routes,
)
from faucet_dagster.serve.console.assets import AssetIndex
from faucet_dagster.serve.console.dataset_view import profile_view, profiles_needed
from faucet_dagster.serve.console.impact import impact_page
from faucet_dagster.serve.console.render import page, redirect
from faucet_dagster.serve.console.views import (
    SORTS,
    STATUS_BY_SLUG,
    dataset_rows,
    edge_views,
    kind_of,
    matches,
    sorted_rows,
    status_counts,
    status_of,
    ts,
)

__all__ = ["AUDIT_PAGE", "DATASETS_PAGE", "ConsoleContext", "console_routes"]

AUDIT_PAGE = 50
"""Audit entries per page."""
DATASETS_PAGE = 200
"""Datasets per page of the list (a catalog of 10,000 datasets is 50 pages)."""
MAX_QUERY = 200
MAX_NAME = 1024


def _width(column: Any) -> int:
    return int(column.type.length)


def _checked(value: str, name: str, width: int, *, required: bool = True) -> str:
    """A form field stripped, held to ``width`` characters and no NUL."""
    value = value.strip()
    if required and not value:
        raise PageError(400, f"{name}: empty: fill it in")
    if len(value) > width:
        raise PageError(400, f"{name}: longer than {width:,} characters: shorten it")
    if "\x00" in value:
        raise PageError(400, f"{name}: holds a NUL character: remove it")
    return value


LAST_PAGE = 10**9
"""What a ``?page=`` of more than nine digits stands for: a page past the last."""


def _page_number(raw: str) -> int:
    """``?page=``: a page number from 1 (a number past the last page shows the last)."""
    if not raw:
        return 1
    digits = raw.lstrip("0")
    if not (raw.isascii() and raw.isdigit()) or not digits:
        raise PageError(400, f"page: {raw[:20]!r} is not a page number (1, 2, ...)")
    # past any page a catalog has: the last page (read without turning 10,000 digits into
    # a number)
    return int(digits) if len(digits) <= 9 else LAST_PAGE


def _list_link(now: tuple[str, str, str], **change: Any) -> str:
    """The datasets list's URL with its search, filter and sort (``now``), ``change``
    applied (an empty value drops a parameter; the default sort is left out)."""
    query, status, sort = now
    params = {"q": query, "status": status, "sort": "" if sort == "status" else sort}
    params.update({k: ("" if k == "sort" and v == "status" else str(v)) for k, v in change.items()})
    kept = [(k, v) for k, v in params.items() if v]
    return "/ui/datasets" + ("?" + urlencode(kept) if kept else "")


def _missing(ref: str) -> str:
    shown = ref if len(ref) <= 80 else ref[:77] + "..."
    return (
        f"There is no dataset {shown!r}: the catalog holds no dataset with that id or URI, "
        "and no asset of this code location writes one. It may have been renamed, or not "
        "have run yet under this name."
    )


def console_routes(ctx: ConsoleContext) -> list[BaseRoute]:
    """The routes to mount at ``/ui``."""
    catalog = ctx.catalog
    route = page_guard(ctx)

    @functools.lru_cache(maxsize=1)
    def assets() -> AssetIndex:
        return AssetIndex.of(ctx.location.defs, ctx.location.profiled_assets())

    def check_errors() -> dict[str, dt.datetime]:
        """Per dataset id, its asset's newest check error (from the store's counters)."""
        try:
            with reader(catalog.engine).connect() as conn:
                rows = read_counters(conn)
        except SQLAlchemyError as exc:
            raise database_error(
                exc, "cannot read the check errors", timeout=DEFAULT_BUSY_TIMEOUT
            ) from None
        by_key = check_error_times(rows)
        index = assets()
        return {
            dataset_id: by_key[key.to_user_string()]
            for dataset_id, key in index.by_dataset.items()
            if key.to_user_string() in by_key
        }

    # -- datasets ------------------------------------------------------------------------
    @route(Role.VIEWER)
    async def datasets(request: Request, visit: Visit) -> Response:
        params = request.query_params
        query = params.get("q", "")
        if len(query) > MAX_QUERY or "\x00" in query:
            raise PageError(400, f"q: longer than {MAX_QUERY} characters or holds a NUL")
        wanted = params.get("status", "")
        if wanted and wanted not in STATUS_BY_SLUG:
            raise PageError(
                400, f"status: {wanted[:20]!r} is not one of {', '.join(STATUS_BY_SLUG)}"
            )
        sort = params.get("sort", "") or "status"
        if sort not in SORTS:
            raise PageError(400, f"sort: {sort[:20]!r} is not one of {', '.join(SORTS)}")
        entries = await run_in_threadpool(catalog.dataset_summaries)
        drifts = await run_in_threadpool(catalog.last_drift)
        outcomes = await run_in_threadpool(catalog.latest_outcomes)
        errors = await run_in_threadpool(check_errors)
        overdue = await run_in_threadpool(catalog.overdue_assets)
        index = await run_in_threadpool(assets)
        number = _page_number(params.get("page", ""))
        rows = dataset_rows(
            entries,
            drifts,
            index.by_dataset,
            outcomes=outcomes,
            errors=errors,
            never_run=index.refs,
            checked=set(index.configs),
            overdue=overdue,
        )
        found = [r for r in rows if matches(r, query)] if query.strip() else rows
        counts = status_counts(found)
        if wanted:
            found = [r for r in found if r.status is STATUS_BY_SLUG[wanted]]
        found = sorted_rows(found, sort)
        pages = max(1, -(-len(found) // DATASETS_PAGE))
        number = min(number, pages)
        start = (number - 1) * DATASETS_PAGE
        return page(
            "datasets.html",
            rows=found[start : start + DATASETS_PAGE],
            first=start + 1,
            found=len(found),
            total=len(rows),
            q=query,
            chosen=wanted,
            chosen_label=STATUS_BY_SLUG[wanted].value if wanted else "",
            sort=sort,
            counts=counts,
            page_number=number,
            pages=pages,
            link=functools.partial(_list_link, (query, wanted, sort)),
            **visit.context(),
        )

    def dataset_ref(request: Request) -> str:
        ref = str(request.path_params["id"])
        limit = _width(catalog_datasets.c.uri)
        if len(ref) > limit or "\x00" in ref:
            raise PageError(400, f"dataset id: longer than {limit:,} characters or holds a NUL")
        return ref

    @route(Role.VIEWER)
    async def dataset(request: Request, visit: Visit) -> Response:
        ref = dataset_ref(request)
        index = await run_in_threadpool(assets)
        # the newest run's baseline window is read too (the widest, before the id is known)
        widest = max(index.configs.values(), key=lambda c: c.window, default=None)
        try:
            detail = await run_in_threadpool(
                functools.partial(
                    catalog.detail, ref, profiles=profiles_needed(index.configs.get(ref, widest))
                )
            )
        except CatalogError:
            written = index.dataset_named(ref)
            if written is not None:  # an asset of the location the catalog does not hold yet
                return await never_run(written, visit)
            raise PageError(404, _missing(ref)) from None
        d = detail.dataset
        config = index.config_of(d.id)
        errors = await run_in_threadpool(check_errors)
        latest = detail.latest_profile
        outcome = None
        if latest is not None:
            outcome = LatestOutcome(
                latest.run_id, latest.recorded_at, latest.status, latest.findings
            )
        status = status_of(outcome, asset=d.id in index.configs, error_at=errors.get(d.id))
        types = {f.name: f.type or "?" for f in d.schema or ()}
        profile = await run_in_threadpool(
            functools.partial(
                profile_view,
                detail.profiles,
                config=config,
                dagster=ctx.dagster_url if d.id in index.by_dataset else None,
                types=types,
                per_partition=d.id in index.per_partition,
            )
        )
        return page(
            "dataset.html",
            d=d,
            detail=detail,
            health=status,
            error_at=ts(errors.get(d.id)),
            profile=profile,
            upstream=edge_views(detail.upstream, upstream=True),
            downstream=edge_views(detail.downstream, upstream=False),
            kind=kind_of(d, d.id in index.by_dataset),
            dagster_link=index.link(ctx.dagster_url, d.id),
            asset_key=index.key_of(d.id),
            can_edit=visit.who.role.allows(Role.OPERATOR),
            ts=ts,
            **visit.context(),
        )

    async def never_run(dataset_id: str, visit: Visit) -> Response:
        index = await run_in_threadpool(assets)
        errors = await run_in_threadpool(check_errors)
        error_at = errors.get(dataset_id)
        return page(
            "never_run.html",
            ref=index.refs[dataset_id],
            health=status_of(None, asset=True, error_at=error_at),
            error_at=ts(error_at),
            asset_key=index.key_of(dataset_id),
            dagster_link=index.link(ctx.dagster_url, dataset_id),
            config=index.config_of(dataset_id),
            **visit.context(),
        )

    async def annotate(request: Request, visit: Visit, **change: Any) -> Response:
        ref = dataset_ref(request)
        try:
            detail = await run_in_threadpool(
                functools.partial(annotate_audited, catalog, ref, visit.who, **change)
            )
        except CatalogError as exc:
            status = 404 if "no dataset" in str(exc) else 400
            raise PageError(status, public_message(exc, catalog.engine)) from None
        return redirect(f"/ui/datasets/{quote(detail.dataset.id, safe='')}")

    @route(Role.OPERATOR, "catalog.annotate")
    async def owners(request: Request, visit: Visit) -> Response:
        assert visit.form is not None
        owner = _checked(visit.form.get("owner"), "owner", MAX_NAME)
        what = visit.form.get("action")
        if what not in ("add", "remove"):
            raise PageError(400, f"action: {what[:40]!r} is not add or remove")
        key = "add_owners" if what == "add" else "remove_owners"
        return await annotate(request, visit, **{key: [owner]})

    @route(Role.OPERATOR, "catalog.annotate")
    async def consumers(request: Request, visit: Visit) -> Response:
        assert visit.form is not None
        form = visit.form
        c = catalog_consumers.c
        name = _checked(form.get("name"), "consumer name", _width(c.name))
        what = form.get("action")
        if what == "remove":
            return await annotate(request, visit, remove_consumers=[name])
        if what != "add":
            raise PageError(400, f"action: {what[:40]!r} is not add or remove")
        kind = _checked(form.get("kind"), "kind", _width(c.kind), required=False)
        contact = _checked(form.get("contact"), "contact", _width(c.contact), required=False)
        columns = tuple(
            _checked(col, "column", MAX_NAME)
            for col in form.get("columns").split(",")
            if col.strip()
        )
        return await annotate(request, visit, consumers=[Consumer(name, kind, contact, columns)])

    # -- audit ---------------------------------------------------------------------------
    @route(Role.ADMIN)
    async def audit(request: Request, visit: Visit) -> Response:
        raw = request.query_params.get("before", "")
        before = None
        if raw:
            if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
                raise PageError(400, f"before: {raw[:20]!r} is not an entry number")
            before = int(raw)
        entries = await run_in_threadpool(
            functools.partial(list_audit, catalog.engine, limit=AUDIT_PAGE + 1, before=before)
        )
        more = len(entries) > AUDIT_PAGE
        entries = entries[:AUDIT_PAGE]
        return page(
            "audit.html",
            entries=entries,
            next_before=entries[-1].id if more and entries else None,
            first=before is None,
            width=_width(audit_log.c.target),
            **visit.context(),
        )

    async def home(_request: Request) -> Response:
        return redirect("/ui/datasets")

    static = Path(__file__).parent / "static"
    impact = impact_page(ctx, route, assets)
    return [
        Route("/", home, methods=["GET"]),
        *signin_routes(ctx, route),
        Route("/datasets", datasets, methods=["GET"]),
        Route("/datasets/{id:path}/owners", owners, methods=["POST"]),
        Route("/datasets/{id:path}/consumers", consumers, methods=["POST"]),
        Route("/datasets/{id:path}", dataset, methods=["GET"]),
        Route("/impact", impact, methods=["GET", "POST"]),
        Route("/audit", audit, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=static), name="static"),
    ]
