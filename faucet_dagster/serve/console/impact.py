"""The console's impact page: pick an asset, optionally paste or upload a sample, see
the report of ``faucet plan --impact`` (the same code path as ``POST /v1/plan``: its
markdown as is, and tables built from its JSON)."""

from __future__ import annotations

import functools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from faucet_core.errors import FaucetError, StoreError
from faucet_core.impact import DEFAULT_DEPTH, render_markdown
from faucet_core.store.audit import Outcome
from faucet_dagster.serve.api.actions import plan_change, plan_json
from faucet_dagster.serve.api.auth import Role
from faucet_dagster.serve.api.public import public_message
from faucet_dagster.serve.console.access import (
    ConsoleContext,
    Endpoint,
    PageError,
    PageHandler,
    Visit,
)
from faucet_dagster.serve.console.assets import AssetIndex
from faucet_dagster.serve.console.render import page

__all__ = ["SAMPLE_SUFFIXES", "impact_page"]

SAMPLE_SUFFIXES = (".jsonl", ".ndjson", ".json", ".csv", ".parquet", ".arrow", ".feather")


def impact_page(
    ctx: ConsoleContext,
    route: Callable[..., Callable[[PageHandler], Endpoint]],
    assets: Callable[[], AssetIndex],
) -> Endpoint:
    """``GET /ui/impact`` (the form) and ``POST /ui/impact`` (the form and the report)."""
    catalog = ctx.catalog

    @route(Role.VIEWER, "plan")
    async def impact(request: Request, visit: Visit) -> Response:
        index = await run_in_threadpool(assets)
        context: dict[str, Any] = {
            "assets": index.keys,
            "chosen": "",
            "depth": DEFAULT_DEPTH,
            "report": None,
            "impact": None,
            "markdown": "",
            "sample_text": "",
            **visit.context(),
        }
        if visit.form is None:
            context["chosen"] = request.query_params.get("asset", "")
            return page("impact.html", **context)
        form = visit.form
        asset = form.get("asset").strip()
        if asset not in index.keys:
            shown = asset[:80] or "none"
            raise PageError(400, f"asset: {shown!r} is not an asset of this code location")
        depth_text = form.get("depth", str(DEFAULT_DEPTH)).strip() or str(DEFAULT_DEPTH)
        if not depth_text.isdigit() or not 0 <= int(depth_text[:4]) <= ctx.max_depth:
            raise PageError(
                400, f"depth: {depth_text[:20]!r} is not a number from 0 to {ctx.max_depth}"
            )
        depth = int(depth_text)
        pasted = form.get("sample").strip()
        if pasted and form.file_name:
            raise PageError(400, "sample: paste one or upload a file, not both")
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="faucet-plan-") as folder:
            path: Path | None = None
            shown_name = ""
            if form.file_name:
                suffix = Path(form.file_name).suffix.lower()
                if suffix not in SAMPLE_SUFFIXES:
                    raise PageError(
                        400,
                        f"sample file {form.file_name[:80]!r}: {suffix or 'no extension'} is not "
                        f"a sample format: upload {', '.join(SAMPLE_SUFFIXES)}",
                    )
                path = Path(folder) / f"sample{suffix}"
                path.write_bytes(form.file_data)
                shown_name = form.file_name[:80]
            elif pasted:
                path = Path(folder) / "sample.jsonl"
                path.write_text(pasted + "\n", encoding="utf-8")
                shown_name = "the pasted sample"
            try:
                change = await run_in_threadpool(
                    functools.partial(
                        plan_change, ctx.location, catalog, [asset], sample=path, depth=depth
                    )
                )
            except StoreError:
                raise
            except FaucetError as exc:
                message = str(exc).replace(str(path), shown_name) if path else str(exc)
                raise PageError(400, public_message(message, catalog.engine)) from None
        report = plan_json(change)
        await ctx.gate.audit(
            visit.who,
            "plan",
            Outcome.OK,
            200,
            asset,
            severity=change.severity.value,
            depth=depth,
            sample=shown_name or None,
            ms=round((time.perf_counter() - started) * 1000, 1),
            via="console",
        )
        context.update(
            chosen=asset,
            depth=depth,
            report=report,
            impact=report.get("impact"),
            severity=change.severity.value,
            markdown=render_markdown(change),
            sample_text=pasted,
            sample_name=shown_name,
        )
        return page("impact.html", **context)

    return impact
