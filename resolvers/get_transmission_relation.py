"""get_transmission_relation: recorded teacher/student relations, and chain observations reported apart.

A relation keeps the status its source gives: an observation never makes it attested, and nothing
here upgrades a status (schema/relation.py maps each status as the source gives it).
"""

from dataclasses import dataclass

from app.data.records import PairRecord
from app.errors import InvalidInput, NotFound
from app.execution.context import Context
from app.limits import TRANSMISSION_RELATION
from resolvers.arguments import require_id


@dataclass(frozen=True, slots=True)
class Pair:
    """The two narrators asked about, and what the sources record between them."""

    narrator_a_id: int
    narrator_b_id: int
    found: PairRecord


async def get_transmission_relation(
    context: Context, narrator_a_id: int, narrator_b_id: int, include_chain_observations: bool | None, limit: int | None
) -> Pair:
    bound = TRANSMISSION_RELATION.resolve(limit)
    a, b = require_id(narrator_a_id, "narrator_a_id"), require_id(narrator_b_id, "narrator_b_id")
    if a == b:
        raise InvalidInput("narrator_a_id and narrator_b_id must name two different narrators.", alias="same_narrator")
    observe = include_chain_observations is not False
    pair = await context.loaders.pair_by_narrator_ids.load((a, b, bound, observe))
    if pair is None:
        raise NotFound("No narrator has this id.")
    return Pair(a, b, pair)
