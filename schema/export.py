"""Writes the schema's SDL to schema.graphql at the repository root, the committed snapshot of the schema.

python -m schema.export            write schema.graphql
python -m schema.export --check    exit 1 when schema.graphql differs from the code's schema
"""

import argparse
import sys
from pathlib import Path

from schema.build import build_schema

SDL_PATH = Path(__file__).resolve().parent.parent / "schema.graphql"


def sdl() -> str:
    """The SDL of the schema as the code builds it, with a trailing newline."""
    return build_schema().as_str() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m schema.export", description="Writes or checks schema.graphql.")
    parser.add_argument("--check", action="store_true", help="exit 1 when schema.graphql is not up to date")
    args = parser.parse_args(argv)
    expected = sdl()
    if args.check:
        current = SDL_PATH.read_text(encoding="utf-8") if SDL_PATH.exists() else None
        if current != expected:
            sys.stderr.write(f"{SDL_PATH.name} is out of date: run `python -m schema.export`.\n")
            return 1
        return 0
    SDL_PATH.write_text(expected, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
