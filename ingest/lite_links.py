"""The links of AR-Sanad Lite narrators to Taqrib notices, computed from the upstream copies: the Lite narrators
(`narrators_lite.csv`: name, Ibn Hajar's rank as AR-Sanad copies it, tabaqa) and the Taqrib notices read from
OpenITI (ingest.rijal_notices).

A Lite narrator's notices are those of his name as for the dataset's narrators (ingest.taqrib_candidates: the
name key, 'name3', else its first two words where they can name a man, 'name2'). His name is the words before
« : », which Lite puts between a kunya and the name it stands for («أبو قتادة : الحارث بن ربعي»). His rank
agrees with a notice when RANK_SHARE of its words are words of the notice (AR-Sanad's copy differs in a letter
here and there: «قليلا» for Ibn Hajar's «قليل», «تلكم» for «تكلم», «يخطئ» for «يخطىء»); his tabaqa («الثالثة»,
«من كبار العاشرة») agrees when the notice states the same one, and contradicts it when the notice states another.

He is linked to the one notice of his name that bears his rank ('+rank'), where Lite gives one; where it gives
none, to the one notice of his name whose tabaqa is his, every other one stating another ('+tabaqa'). Of
several that qualify, those whose name goes on otherwise than his are left out (another grandfather, the other
half of a compound: TaqribNames.named_alike). Where his name has several notices the method says '_namesakes'
('name3_namesakes+rank'); '+tabaqa' follows '+rank' when the tabaqa agrees too. A notice whose tabaqa
contradicts his is never linked, nor one that the name alone gives: the bridge (ingest.ar_sanad) carries Lite's
forms, ranks and relations over to a dataset narrator, so a Lite link needs evidence besides the name.

The data scout's `lite_to_taqrib_links.jsonl.gz`, made by a like rule from the staged files, is not read: it is
the oracle that tests/ingest/test_taqrib_candidates_derivation.py compares these links with (docs/data.md gives
the agreement; eval/taqrib_candidates_sample.csv the hand-checked disagreements)."""

from collections.abc import Iterable
from dataclasses import dataclass

from app.text.arabic import name_words, normalize
from ingest.narrators import name_key
from ingest.rijal_notices import Library
from ingest.taqrib_candidates import NAMESAKES, TaqribNames
from ingest.verdicts import own_text, stated_tabaqa

LITE_FILE = "narrators/ar_sanad_lite/narrators_lite.csv.gz"
LITE_PURPOSE = "AR-Sanad Lite narrators"
LITE_NONE = "-"
RANK_SHARE = 0.8


@dataclass(frozen=True)
class LiteLink:
    lite_id: int
    notice: int
    method: str


@dataclass(frozen=True)
class _Lite:
    """What a Lite narrator's notice must bear: his rank's words, his tabaqa."""

    rank: frozenset[str]
    tabaqa: int | None

    def bears_rank(self, text: str) -> bool:
        words = _words(own_text(text))
        return bool(self.rank) and len(self.rank & words) >= RANK_SHARE * len(self.rank)

    def contradicted(self, tabaqa: int | None) -> bool:
        return None not in (tabaqa, self.tabaqa) and tabaqa != self.tabaqa


def _words(text: str) -> frozenset[str]:
    """The normalized words, without the hamza on the line that one copy writes and the other drops («يخطىء»)."""
    return frozenset(normalize(text).replace("ء", "").split())


def _given(value: str) -> str | None:
    return None if value.strip() in ("", LITE_NONE) else value


def _lite(record: dict[str, str]) -> _Lite:
    rank, tabaqa = _given(record["Ibnhajar_rank"]), _given(record["tabaqa"])
    return _Lite(
        _words(rank) if rank else frozenset(),
        stated_tabaqa(tabaqa if tabaqa.startswith("من") else f"من {tabaqa}") if tabaqa else None,
    )


def _link(lite_id: int, name: str, notices: TaqribNames, lite: _Lite) -> LiteLink | None:
    """The one notice of his name that bears his rank (or, without one, his tabaqa), and nothing against it."""
    method, found = notices.named(name_key(name))
    rows = {notice: notices.library.notices[notice] for notice in found}
    kept = [n for n, row in rows.items() if not lite.contradicted(row["tabaqa"])]
    if lite.rank:
        kept = [n for n in kept if lite.bears_rank(rows[n]["text"])]
    else:
        kept = [n for n in kept if lite.tabaqa is not None and rows[n]["tabaqa"] == lite.tabaqa]
        kept = kept if all(n in kept or lite.contradicted(row["tabaqa"]) for n, row in rows.items()) else []
    kept = notices.named_alike(name_words(name), kept)
    if len(kept) != 1:
        return None
    notice = kept[0]
    method += NAMESAKES if len(found) > 1 else ""
    method += "+rank" if lite.rank else ""
    method += "+tabaqa" if lite.tabaqa is not None and rows[notice]["tabaqa"] == lite.tabaqa else ""
    return LiteLink(lite_id, notice, method)


def lite_links(records: Iterable[dict[str, str]], library: Library) -> list[LiteLink]:
    """The link of each Lite narrator that has one, in the file's order (a record without a numeric id has none)."""
    notices, links = TaqribNames(library), []
    for record in records:
        if not record["id"].isdigit():
            continue
        name = record["name"].split(":", 1)[0]
        link = _link(int(record["id"]), name, notices, _lite(record))
        if link is not None:
            links.append(link)
    return links
