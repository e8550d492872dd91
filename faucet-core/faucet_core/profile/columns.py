"""Which columns a profile covers: the ``columns`` / ``exclude`` / ``max_columns`` settings
and the labels the policy gives by name.

One rule for every engine: the in-memory :class:`~faucet_core.profile.profiler.Profiler`
asks :func:`is_wanted` of each column as it meets it, and the engines that know a table's
columns up front (the SQL pushdown, the Spark driver) pick them all at once with
:func:`select_columns`, without running a profiler. No heavy imports: the SQL pushdown
uses it without pyarrow.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any

from faucet_core.config import ProfilingConfig
from faucet_core.profile.names import unique_name

__all__ = ["is_wanted", "select_columns"]


def is_wanted(config: ProfilingConfig, name: str) -> bool:
    """Whether ``config`` profiles a column named ``name`` (``columns`` names it, when set,
    and no ``exclude`` pattern matches it); ``max_columns`` is the caller's to apply."""
    if config.columns is not None and name not in config.columns:
        return False
    return not any(name == p or fnmatchcase(name, p) for p in config.exclude)


def select_columns(
    config: ProfilingConfig, names: list[str]
) -> tuple[dict[str, tuple[str, ...]], int]:
    """The columns a profile of a table with columns ``names`` covers, in the in-memory
    profiler's order (``config.columns`` first, then the table's), each with the labels the
    policy gives it by name; and how many columns ``max_columns`` left out. A name in
    ``config.columns`` that the table lacks is included (it profiles as all null)."""
    policy = config.policy if config.policy is not None and config.policy.rules else None
    chosen: dict[str, tuple[str, ...]] = {}
    rejected: set[str] = set()
    skipped: set[str] = set()

    def add(name: str) -> None:
        if name in chosen or name in rejected or name in skipped:
            return
        if not is_wanted(config, name):
            rejected.add(name)
        elif len(chosen) >= config.max_columns:
            skipped.add(name)
        else:
            chosen[name] = _name_labels(policy, name)

    for name in config.columns or ():
        add(name)
    seen: set[str] = set()
    for name in names:
        add(unique_name(name, seen))
    return chosen, len(skipped)


def _name_labels(policy: Any, name: str) -> tuple[str, ...]:
    if policy is None:
        return ()
    from faucet_core.profile.policy import PolicyState

    return tuple(sorted(PolicyState(policy, name).labels))
