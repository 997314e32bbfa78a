"""The settings table: every variable read once with its default, every mistake reported together."""

from dataclasses import fields

import pytest

from app.settings import VARIABLES, Settings, SettingsError, describe, load_settings


def test_the_table_fills_every_setting_once() -> None:
    assert sorted(variable.setting for variable in VARIABLES) == sorted(f.name for f in fields(Settings))


def test_an_empty_environment_gives_the_defaults() -> None:
    settings = load_settings({})
    assert (settings.database_url, settings.pool_size, settings.request_log, settings.cors_origins) == (
        None,
        32,
        False,
        (),
    )


def test_values_are_read_with_their_cast() -> None:
    environ = {"ISNAD_POOL_SIZE": "7", "ISNAD_REQUEST_LOG": "on", "ISNAD_CORS_ORIGINS": "https://a.example, *"}
    settings = load_settings(environ)
    assert (settings.pool_size, settings.request_log, settings.cors_origins) == (7, True, ("https://a.example", "*"))


def test_every_mistake_is_reported_in_one_message() -> None:
    environ = {
        "ISNAD_DATABASE_URL": "mysql://db/isnad",
        "ISNAD_POOL_SIZE": "many",
        "ISNAD_DEFAULT_CLIENT_MODE": "open",
        "ISNAD_SUGGESTIONS": "perhaps",
        "ISNAD_DATABASE_POOLER": "session",
    }
    with pytest.raises(SettingsError) as raised:
        load_settings(environ)
    assert str(raised.value).splitlines() == [
        "ISNAD_DATABASE_URL must be a postgresql:// URL",
        "ISNAD_POOL_SIZE must be an integer",
        "ISNAD_DEFAULT_CLIENT_MODE must be 'free' or 'persisted'",
        "ISNAD_SUGGESTIONS must be on or off",
        "ISNAD_DATABASE_POOLER must be 'none' or 'transaction'",
    ]


def test_the_description_lists_every_variable_with_its_default() -> None:
    lines = {line.split()[0]: line.split(maxsplit=1)[1] for line in describe().splitlines()}
    assert list(lines) == [variable.name for variable in VARIABLES]
    assert lines["ISNAD_POOL_SIZE"] == "32: connections per API worker"
    assert (lines["ISNAD_SUGGESTIONS"].split()[0], lines["ISNAD_API_KEYS"].split()[0]) == ("off:", "unset:")
