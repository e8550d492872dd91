"""Held-out project: Hacker News items split into stories and comments, and each comment
linked to its root story; a small pandas version of the core and recommender assets of
Dagster's ``examples/project_fully_featured`` (see README.md). One run is one day of items
(``FAUCET_LINEAGE_DAY``), generated from a fixed seed."""

from __future__ import annotations

import os

import dagster as dg
import numpy as np
import pandas as pd
from _declared import Declared, column_lineage

__all__ = ["ASSETS", "LINEAGE", "items_for_day"]

ID = "DIRECT/IDENTITY"
CALC = "DIRECT/TRANSFORMATION"
ITEM_COLUMNS = (
    "id",
    "parent",
    "time",
    "type",
    "user_id",
    "text",
    "score",
    "title",
    "descendants",
    "url",
)
_COPY = Declared({c: {c: ID} for c in ITEM_COLUMNS}, frozenset({"type"}))
LINEAGE: dict[str, dict[str, Declared]] = {
    "comments": {"items": _COPY},
    "stories": {"items": _COPY},
    "comment_stories": {
        "comments": Declared(
            {
                "comment_id": {"id": ID},
                "commenter_id": {"user_id": ID},
                "story_id": {"parent": CALC},
            },  # the root reached over parent links
            frozenset({"id", "parent"}),
        ),
        "stories": Declared({}, frozenset({"id"})),  # only joined on
    },
}
"""``{asset: {upstream asset: what it reads}}``."""

_WORDS = [
    "show",
    "ask",
    "rust",
    "llm",
    "postgres",
    "startup",
    "launch",
    "why",
    "new",
    "open",
    "source",
    "data",
    "the",
    "a",
    "of",
    "for",
    "in",
    "tool",
    "guide",
    "web",
]


def _users() -> np.ndarray:
    rng = np.random.default_rng(7)
    return np.array([f"{rng.choice(_WORDS)}{rng.integers(1, 9999)}" for _ in range(700)])


def items_for_day(day: int) -> pd.DataFrame:
    """One day of items: stories, comments on stories and on comments, a few jobs."""
    rng = np.random.default_rng(4000 + day)
    users = _users()
    base = 41_000_000 + day * 20_000
    start = 1_772_000_000 + day * 86_400
    n_stories, n_comments, n_jobs = (int(n * rng.uniform(0.85, 1.15)) for n in (260, 1300, 6))
    kinds = np.array(["story"] * n_stories + ["comment"] * n_comments + ["job"] * n_jobs)
    rng.shuffle(kinds[1:])  # the day opens with a story
    n = len(kinds)
    ids = base + np.cumsum(rng.integers(1, 4, n))
    times = np.sort(start + rng.integers(0, 86_400, n))
    parent = np.full(n, np.nan)
    for i in np.flatnonzero(kinds == "comment"):
        earlier = np.flatnonzero(kinds[:i] != "job")
        stories = earlier[kinds[earlier] == "story"]
        pick = stories if (rng.random() < 0.55 or len(earlier) == len(stories)) else earlier
        parent[i] = ids[rng.choice(pick[-200:])]
    story = kinds == "story"
    has_url = story & (rng.random(n) < 0.75) | (kinds == "job")
    title = [
        " ".join(rng.choice(_WORDS, int(rng.integers(3, 9)))).capitalize()
        if k != "comment"
        else None
        for k in kinds
    ]
    text = [
        None if (k != "comment" and u) else " ".join(rng.choice(_WORDS, int(rng.integers(5, 40))))
        for k, u in zip(kinds, has_url, strict=True)
    ]
    frame = pd.DataFrame(
        {
            "id": ids,
            "parent": parent,
            "time": times,
            "type": kinds,
            "user_id": rng.choice(users, n),
            "text": pd.array(text, dtype="string"),
            "score": np.where(kinds != "comment", np.round(rng.lognormal(2.0, 1.2, n)) + 1, np.nan),
            "title": pd.array(title, dtype="string"),
            "descendants": np.nan,
            "url": pd.array(
                [
                    f"https://{rng.choice(_WORDS)}.example.org/{i}" if u else None
                    for i, u in zip(ids, has_url, strict=True)
                ],
                dtype="string",
            ),
        }
    )
    counts = pd.Series(parent[kinds == "comment"]).value_counts()
    frame.loc[story, "descendants"] = frame.loc[story, "id"].map(counts).fillna(0).to_numpy()
    return frame


def _day() -> int:
    return int(os.environ.get("FAUCET_LINEAGE_DAY", "1"))


@dg.asset
def items() -> pd.DataFrame:
    """The day's items: each is a story, a comment on a story or comment, or a job."""
    return items_for_day(_day())


@dg.asset(metadata={"dagster/column_lineage": column_lineage("comments", LINEAGE)})
def comments(items: pd.DataFrame) -> pd.DataFrame:
    return items[items["type"] == "comment"].reset_index(drop=True)


@dg.asset(metadata={"dagster/column_lineage": column_lineage("stories", LINEAGE)})
def stories(items: pd.DataFrame) -> pd.DataFrame:
    return items[items["type"] == "story"].reset_index(drop=True)


@dg.asset(metadata={"dagster/column_lineage": column_lineage("comment_stories", LINEAGE)})
def comment_stories(stories: pd.DataFrame, comments: pd.DataFrame) -> pd.DataFrame:
    """Comments linked to their root stories (following parent links up to ten deep)."""
    links = comments.rename(columns={"user_id": "commenter_id", "id": "comment_id"})
    links = links.set_index("comment_id")[["commenter_id", "parent"]]
    story_ids = stories.set_index("id")[[]]
    parents = comments.set_index("id")[["parent"]]
    found = []
    remaining = links
    for _ in range(10):
        if remaining.empty:
            break
        at_depth = remaining.merge(story_ids, left_on="parent", right_index=True)
        found.append(at_depth.rename(columns={"parent": "story_id"}))
        remaining = remaining.drop(at_depth.index)
        remaining = remaining.merge(parents, left_on="parent", right_index=True)
        remaining = remaining[["parent_y", "commenter_id"]].rename(columns={"parent_y": "parent"})
    out = pd.concat(found).reset_index()
    out["story_id"] = out["story_id"].astype("int64")
    return out[["comment_id", "story_id", "commenter_id"]]


ASSETS = [items, comments, stories, comment_stories]
