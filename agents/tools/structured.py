"""Structured replies from the model: a JSON value or a table, parsed and checked before anyone relies on it, and the
results of a long text's parts merged into one.

Parts are merged in reading order: JSON arrays are concatenated; objects are merged key by key (arrays under a
key concatenated, nested objects merged, and for a single value the first part that found one wins); table rows
are appended under the first part's header.
"""

from __future__ import annotations

import csv
import json
import math
import re
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from browser_pool.types import JsonObject

_FENCED_BLOCK = re.compile(r"```[ \t]*[\w+-]*[ \t]*\r?\n(.*?)```", re.DOTALL)
_SEPARATOR_CELL = re.compile(r"^:?-+:?$")
_PIPE = re.compile(r"(?<!\\)\|")


class InvalidOutput(ValueError):
    """The model's reply is not the data asked for; the message says why, for the model to correct."""


def _payload(reply: str) -> str:
    block = _FENCED_BLOCK.search(reply)
    return (block.group(1) if block else reply).strip()


def _no_constants(name: str) -> Any:
    raise InvalidOutput(f"{name} is not a JSON value")


def _finite(number: str) -> float:
    value = float(number)
    if not math.isfinite(value):
        raise InvalidOutput(f"{number} is too large for a JSON number")
    return value


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_no_constants, parse_float=_finite)


def parse_json_reply(reply: str, schema: JsonObject | None = None) -> Any:
    """The JSON value in a reply (bare or in a code fence), checked against `schema`; InvalidOutput if not."""
    payload = _payload(reply)
    try:
        value = _loads(payload)
    except json.JSONDecodeError as exc:
        value = _embedded_json(payload, exc)
    if schema is not None:
        error = best_match(Draft202012Validator(schema).iter_errors(value))
        if error is not None:
            where = "/".join(str(part) for part in error.absolute_path) or "the top level"
            raise InvalidOutput(f"the JSON does not match the schema at {where}: {error.message}")
    return value


def _embedded_json(payload: str, error: json.JSONDecodeError) -> Any:
    """An object or array with the model's prose around it."""
    starts = [index for index in (payload.find("{"), payload.find("[")) if index >= 0]
    end = max(payload.rfind("}"), payload.rfind("]"))
    if starts and min(starts) < end:
        try:
            return _loads(payload[min(starts) : end + 1])
        except json.JSONDecodeError:
            pass
    raise InvalidOutput(f"the reply is not valid JSON ({error.msg} at line {error.lineno} column {error.colno})")


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [cell.strip().replace("\\|", "|") for cell in _PIPE.split(inner)]


def _checked(rows: list[list[str]], kind: str) -> list[list[str]]:
    header = rows[0]
    if not any(header):
        raise InvalidOutput(f"the {kind} table's header row is empty")
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise InvalidOutput(f"row {number} of the {kind} table has {len(row)} cells, the header has {len(header)}")
    return rows


def parse_table(reply: str) -> list[list[str]]:
    """The rows of a Markdown (pipe) or CSV table, header first; InvalidOutput unless every row has the header's
    number of cells."""
    lines = [line.strip() for line in _payload(reply).splitlines() if line.strip()]
    piped = [index for index, line in enumerate(lines) if line.startswith("|")]
    if piped:  # the first run of pipe rows; text around it is the model talking
        first = piped[0]
        last = first
        while last + 1 < len(lines) and lines[last + 1].startswith("|"):
            last += 1
        lines = lines[first : last + 1]
    if len(lines) >= 2 and "|" in lines[0]:
        rows = [_cells(line) for line in lines]
        if not all(_SEPARATOR_CELL.match(cell) for cell in rows[1]):
            raise InvalidOutput("the Markdown table's second row must separate the header, like | --- | --- |")
        _checked(rows, "Markdown")
        return [rows[0], *rows[2:]]
    if not lines:
        raise InvalidOutput("the reply is empty, not a table")
    delimiter = "\t" if "\t" in lines[0] else ","
    rows = [[cell.strip() for cell in row] for row in csv.reader(lines, delimiter=delimiter)]
    if len(rows[0]) < 2 or len(rows) < 2:
        raise InvalidOutput("the reply is not a table: give a Markdown table with a header row and a separator row")
    return _checked(rows, "CSV")


def render_table(rows: list[list[str]]) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|").replace("\n", " ") for cell in cells) + " |"

    return "\n".join([line(rows[0]), line(["---"] * len(rows[0])), *(line(row) for row in rows[1:])])


def merge_json(values: list[Any]) -> Any:
    """One value from the parts' values, in reading order (see the module's docstring); None when all are None."""
    found = [value for value in values if value is not None]
    if not found:
        return None
    if all(isinstance(value, list) for value in found):
        return [item for value in found for item in value]
    if all(isinstance(value, dict) for value in found):
        merged: dict[str, Any] = {}
        for value in found:
            for key, item in value.items():
                merged[key] = merge_json([merged[key], item]) if key in merged else item
        return merged
    return next((value for value in found if value not in ("", [], {})), found[0])


def same_header(header: list[str], expected: list[str]) -> bool:
    def norm(cells: list[str]) -> list[str]:
        return [" ".join(cell.lower().split()) for cell in cells]

    return norm(header) == norm(expected)


def merge_tables(tables: list[list[list[str]]]) -> list[list[str]]:
    """The first table's header and every table's rows, in order (the tables share the header)."""
    return [tables[0][0], *(row for table in tables for row in table[1:])]
