"""What the app's lifespan sets up in the process that serves it."""

import gc

from starlette.applications import Starlette

from app.asgi import YOUNG_OBJECTS
from ingest.run import ImportReport
from tests.conftest import api_settings, serving


async def test_the_lifespan_freezes_start_up_and_lets_requests_free_their_own(
    imported: ImportReport, database_url: str
) -> None:
    """Start-up's objects frozen, and the youngest generation scanned only past YOUNG_OBJECTS, not Python's 700."""
    before = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, *before[1:])
    try:
        async with serving(api_settings(database_url), database_url) as served:
            app: Starlette = served.app
            async with app.router.lifespan_context(app):
                assert gc.get_threshold() == (YOUNG_OBJECTS, *before[1:])
                assert gc.get_freeze_count() > 0
    finally:
        gc.set_threshold(*before)
