"""What the edge's middleware costs a request, in process: the CPU time of one request through every
middleware of `app.asgi.edge`, then with each left out in turn, then with none, around an app that reads the
body and answers 1.2 KiB at once (no GraphQL, no SQL).

    python -m bench.edge_cost [--requests 5000] [--rounds 5] [--gzip] [--unwatched]

Each request runs in a task of its own, as uvicorn runs it, one after the other, with a receive and a send
that behave as uvicorn's (the body, then `http.disconnect` once the answer is complete). By default the
request carries the `Watch` that `serve`'s protocol gives it (`app/http/disconnect.py`); `--unwatched` leaves it
out, as under another ASGI server. `--gzip` asks for a gzipped answer. Prints the best round of each
configuration (µs of CPU per request) and what leaving each middleware out saves. A script that prints figures,
never a test: the machine's other work moves them by tens of percent; compare within one run.
"""

import argparse
import asyncio
import time
from collections.abc import Sequence

from rich.console import Console
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.asgi import edge
from app.http.admission import Places
from app.http.disconnect import WATCH, Watch
from app.http.profiles import Profiles
from app.http.shedding import Shedding
from app.settings import load_settings

BODY = b'{"documentId":"get_hadith","variables":{"hadith_id":100001}}'
ANSWER = b'{"data":{"get_hadith":{"hadith_id":100001}}}' * 27  # about 1.2 KiB
NONE = "(none)"


async def answers_at_once(scope: Scope, receive: Receive, send: Send) -> None:
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": ANSWER})


def edge_middleware() -> list[Middleware]:
    """The edge of an app with this environment's settings (no probe is asked: the front door has none)."""
    settings = load_settings()
    places = Places(settings.max_in_flight, settings.max_queued, settings.queue_wait_ms)
    profiles = Profiles(settings.api_keys, settings.default_client_mode)
    return edge(settings, profiles, Shedding(places), None)  # type: ignore[arg-type]


def name(middleware: Middleware) -> str:
    return str(getattr(middleware.cls, "__name__", middleware.cls))


def stack(middleware: list[Middleware], left_out: set[str]) -> ASGIApp:
    """`middleware` around `answers_at_once`, but those named in `left_out`."""
    app: ASGIApp = answers_at_once
    for each in reversed(middleware):
        if name(each) not in left_out:
            app = each.cls(app, *each.args, **each.kwargs)
    return app


def scope(gzip: bool, watched: bool) -> Scope:
    headers = [(b"host", b"isnad.test"), (b"content-type", b"application/json"), (b"accept", b"application/json")]
    request: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/graphql",
        "raw_path": b"/graphql",
        "root_path": "",
        "query_string": b"",
        "headers": [*headers, (b"accept-encoding", b"gzip")] if gzip else headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    if watched:
        request[WATCH] = Watch()
    return request


async def one_request(app: ASGIApp, gzip: bool, watched: bool) -> None:
    answered = asyncio.Event()
    body: list[Message] = [{"type": "http.request", "body": BODY, "more_body": False}]

    async def receive() -> Message:
        if body:
            return body.pop()
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.body" and not message.get("more_body"):
            answered.set()

    await app(scope(gzip, watched), receive, send)


async def cpu_per_request(app: ASGIApp, requests: int, gzip: bool, watched: bool) -> float:
    loop = asyncio.get_running_loop()
    started = time.process_time()
    for _ in range(requests):
        await loop.create_task(one_request(app, gzip, watched))
    return (time.process_time() - started) / requests * 1e6


async def measure(options: argparse.Namespace) -> dict[str, float]:
    middleware = edge_middleware()
    names = [name(each) for each in middleware]
    configurations = {
        "": stack(middleware, set()),
        **{left_out: stack(middleware, {left_out}) for left_out in names},
        NONE: stack(middleware, set(names)),
    }
    best = dict.fromkeys(configurations, float("inf"))
    for _ in range(options.rounds):  # A B C .. A B C ..: the machine's drift falls on every configuration
        for configuration, app in configurations.items():
            spent = await cpu_per_request(app, options.requests, options.gzip, not options.unwatched)
            best[configuration] = min(best[configuration], spent)
    return best


def parse_options(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--gzip", action="store_true")
    parser.add_argument("--unwatched", action="store_true")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    best = asyncio.run(measure(parse_options(argv)))
    every = best.pop("")
    console = Console(highlight=False)
    console.print(f"every middleware: {every:.1f} µs of CPU a request (best round)")
    for configuration, spent in best.items():
        label = "none of them" if configuration == NONE else f"without {configuration}"
        console.print(f"{label:<32} {spent:6.1f} µs   saves {every - spent:5.1f}")


if __name__ == "__main__":
    main()
