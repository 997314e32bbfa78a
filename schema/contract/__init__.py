"""The contract's JSON Schemas (draft 2020-12): for each of the eight tools, its input and its output.

The files beside this module (`<tool>.input.json`, `<tool>.output.json`) are package data, written
once from the contract (../shared/contract). Each is self-contained: the shared provenance shape is
a `$defs` entry of every output schema. Each call returns a fresh dict, which the caller may change.
"""

import json
from functools import cache
from importlib.resources import files
from typing import Any

TOOLS = (
    "search_hadith",
    "get_hadith",
    "get_hadith_chains",
    "search_narrator",
    "get_narrator_profile",
    "get_narrator_hadiths",
    "get_transmission_relation",
    "get_hadith_commentary",
)


@cache
def _text(tool: str, kind: str) -> str:
    if tool not in TOOLS:
        raise KeyError(f"No tool of the contract is named {tool!r}.")
    return files(__name__).joinpath(f"{tool}.{kind}.json").read_text(encoding="utf-8")


def _load(tool: str, kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(_text(tool, kind))
    return schema


def output_schema(tool: str) -> dict[str, Any]:
    """The JSON Schema of `data.<tool>` in the response to the tool's persisted document."""
    return _load(tool, "output")


def input_schema(tool: str) -> dict[str, Any]:
    """The JSON Schema of the tool's arguments (the persisted document's variables)."""
    return _load(tool, "input")
