"""Canonical dataset URIs and ids.

A dataset is named the OpenLineage way, ``namespace`` + ``name``; its canonical URI is
built from the two:

* a namespace holding ``://`` (``postgres://db:5432``, ``s3://bucket``) is joined to the
  name with one ``/``: ``postgres://db:5432/shop.public.orders``, ``s3://bucket/raw/x.parquet``;
* a bare namespace (``file``, ``bigquery``, ``dagster``) is a scheme: ``file`` + ``/data/a.csv``
  is ``file:///data/a.csv``, ``dagster`` + ``sales/orders`` is ``dagster://sales/orders``.

:func:`split_uri` is the inverse for URIs given by hand (``faucet catalog show``,
the ``catalog.datasets`` block, ``dagster/uri`` metadata). A dataset's id is the first
:data:`ID_LENGTH` hex digits of the SHA-256 of its URI: stable, short, and the same in
every store.
"""

from __future__ import annotations

import hashlib
import re

from faucet_core.errors import CatalogError

__all__ = ["ID_LENGTH", "MIN_ID_PREFIX", "dataset_id", "dataset_uri", "looks_like_uri", "split_uri"]

ID_LENGTH = 12
MIN_ID_PREFIX = 4
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-_]*)://(.*)$", re.DOTALL)
_HEX = re.compile(r"^[0-9a-f]+$")


def dataset_uri(namespace: str, name: str) -> str:
    """The canonical URI of the dataset ``name`` in ``namespace``."""
    namespace, name = namespace.strip(), name.strip()
    if not namespace or not name:
        raise CatalogError(
            f"dataset namespace {namespace!r} and name {name!r} must both be non-empty"
        )
    match = _SCHEME.match(namespace)
    if match:
        scheme, rest = match.groups()
        return f"{scheme.lower()}://{rest.rstrip('/')}/{name.lstrip('/')}"
    return f"{namespace}://{name}"


def split_uri(uri: str) -> tuple[str, str]:
    """``scheme://authority/path`` -> (namespace, name); inverse of :func:`dataset_uri`.

    ``file:///data/a.csv`` -> (``file``, ``/data/a.csv``); ``s3://bucket/k`` ->
    (``s3://bucket``, ``k``); ``dagster://sales/orders`` -> (``dagster``, ``sales/orders``)
    (a scheme with no authority convention keeps the whole rest as the name).
    """
    text = uri.strip()
    match = _SCHEME.match(text)
    if not match:
        raise CatalogError(
            f"dataset URI {uri!r} has no scheme: write it as scheme://..., e.g. "
            "file:///data/orders.csv, postgres://db:5432/shop.public.orders or dagster://orders"
        )
    scheme, rest = match.groups()
    scheme = scheme.lower()
    if not rest:
        raise CatalogError(f"dataset URI {uri!r} names nothing after {scheme}://")
    if rest.startswith("/") or scheme in _BARE_SCHEMES:
        return scheme, rest
    authority, sep, path = rest.partition("/")
    if not sep or not path:
        return scheme, rest
    return f"{scheme}://{authority}", path


_BARE_SCHEMES = frozenset({"dagster", "bigquery", "table"})
"""Schemes whose whole rest is the dataset name (no authority part)."""


def dataset_id(uri: str) -> str:
    """The short, stable id of a dataset: a SHA-256 prefix of its canonical URI."""
    return hashlib.sha256(uri.encode("utf-8")).hexdigest()[:ID_LENGTH]


def looks_like_uri(ref: str) -> bool:
    """True for ``scheme://...`` (a URI), False for what may be an id prefix."""
    return _SCHEME.match(ref.strip()) is not None


def is_id_prefix(ref: str) -> bool:
    text = ref.strip().lower()
    return MIN_ID_PREFIX <= len(text) <= ID_LENGTH and _HEX.match(text) is not None
