"""A tool's arguments checked against its input schema (the contract's JSON Schema) before anything runs.

The first failure (jsonschema's best match) becomes the error the resolvers give for the same value:

    failed keyword                                  code                   alias
    minimum of an id (`*_id`)                       INVALID_INPUT          invalid_id
    minimum or maximum of `page`                    INVALID_INPUT          invalid_page
    maximum of a list's limit                       LIMIT_EXCEEDED         limit_exceeded
    enum of a language (`*language`)                UNSUPPORTED_LANGUAGE   unsupported_language
    anything else                                   INVALID_INPUT          invalid_input

Messages name the argument and what it must be, never the value sent (it may be anything).
"""

from functools import cache
from typing import Any

import orjson
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError, best_match  # type: ignore[import-untyped]

from app.errors import ApiError, InvalidInput, LimitExceeded, UnsupportedLanguage
from schema.contract import input_schema

_MUST_BE = {
    "type": "{where} must be of type {expected}.",
    "minimum": "{where} must be at least {expected}.",
    "maximum": "{where} must be at most {expected}.",
    "minLength": "{where} must be at least {expected} characters long.",
    "maxLength": "{where} must be at most {expected} characters long.",
    "pattern": "{where} must not be blank.",  # the contract's one pattern is \S
    "enum": "{where} must be one of {expected}.",
}
_OWN_MESSAGE = ("required", "additionalProperties")  # jsonschema names the argument, from the schema or its key


@cache
def _validator(tool: str) -> Any:  # jsonschema is untyped
    return Draft202012Validator(input_schema(tool))


def check_arguments(tool: str, arguments: dict[str, Any]) -> None:
    """Raise the error of the closed set for the first way `arguments` break the tool's input schema."""
    error = best_match(_validator(tool).iter_errors(arguments))
    if error is not None:
        raise _closed(error)


def _closed(error: ValidationError) -> ApiError:
    where = ".".join(str(part) for part in error.path)
    keyword = error.validator
    message = _message(error, where or "The input")
    if keyword == "minimum" and where.endswith("_id"):
        return InvalidInput(message, alias="invalid_id")
    if keyword in ("minimum", "maximum") and where == "page":
        return InvalidInput(message, alias="invalid_page")
    if keyword == "maximum":
        return LimitExceeded(message)
    if keyword == "enum" and where.endswith("language"):
        return UnsupportedLanguage(message)
    return InvalidInput(message)


def _message(error: ValidationError, where: str) -> str:
    if error.validator in _OWN_MESSAGE:
        return f"{error.message}."
    template = _MUST_BE.get(error.validator, "{where} does not satisfy the tool's input schema ({keyword}).")
    return template.format(where=where, expected=_expected(error.validator_value), keyword=error.validator)


def _expected(value: object) -> str:
    words = [item if isinstance(item, str) else orjson.dumps(item).decode() for item in _listed(value)]
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else [value]
