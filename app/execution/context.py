"""What every resolver of one request shares: its database connection, its loaders, the source catalog, the name
keys held in memory."""

from dataclasses import dataclass

from app.data.database import RequestDatabase
from app.data.search import NameIndex
from app.data.sources import SourceCatalog
from app.execution.dataloaders import Loaders


@dataclass(frozen=True)
class Context:
    db: RequestDatabase
    loaders: Loaders
    sources: SourceCatalog
    names: NameIndex


def create_context(db: RequestDatabase, sources: SourceCatalog, names: NameIndex) -> Context:
    return Context(db=db, loaders=Loaders(db), sources=sources, names=names)
