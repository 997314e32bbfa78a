"""The fuzzy tier's «phrase but for one word» query (app/data/search/wording.py): a transliterated word
whose likeliest reading few texts hold stands in it as any of its readings, so that the texts choose; the index
reads it by a probe that every text it finds holds."""

import asyncpg
from sqlalchemy import func, select

from app.data import tables as t
from app.data.database import Bound, RequestDatabase
from app.data.search.common import WORDS, FuzzyWord
from app.data.search.wording import DIRECT, PROBED, _accepted_only, _fuzzy_params, _skipping_one
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, api_settings, serving

# Texts of the test subset, and a word in place of one of theirs that no text holds.
TEXTS = "SELECT text_fr_normalized FROM hadith WHERE text_fr_normalized IS NOT NULL ORDER BY hadith_id LIMIT 40"
NO_WORD = "zzqxw"
# The texts a tsquery finds that another does not.
MISSED = (
    "SELECT count(*) FILTER (WHERE text_fr_words @@ to_tsquery('simple', $1)) AS held,"
    " count(*) FILTER (WHERE text_fr_words @@ to_tsquery('simple', $1)"
    " AND NOT text_fr_words @@ to_tsquery('simple', $2)) AS missed"
    " FROM hadith"
)
# Every fifth word of a language's texts, the commonest first: terms some texts hold and others do not.
SOME_WORDS = (
    "SELECT array_agg(word) FROM (SELECT word, row_number() OVER (ORDER BY ndoc DESC, word) AS place"
    " FROM ts_stat($1)) AS w WHERE place % 5 = 0"
)


def _word(terms: tuple[str, ...], counts: tuple[int, ...], read: bool = True) -> FuzzyWord:
    rare = tuple(term for term, count in zip(terms, counts, strict=True) if count <= 1000)
    return FuzzyWord(terms[0], terms, 1.0, rare, counts, frozenset(terms) if read else frozenset())


def test_a_transliterated_word_whose_likeliest_reading_is_rare_stands_as_any_of_its_readings() -> None:
    words = [
        _word(("هذه",), (1610,)),
        _word(("وسط", "وسطي"), (300, 40)),
        _word(("التي",), (900,)),
        _word(("طلحه", "تليها"), (700, 20)),
    ]
    _, params = _fuzzy_params(words, ["هذه", "وسط", "التي", "طلحه"])

    phrases = params["group_0"].split(" | (")
    assert phrases[0] == "(('وسط' | 'وسطي') <1> ('التي') <1> ('طلحه' | 'تليها'))"
    assert phrases[3].endswith("('وسط' | 'وسطي') <1> ('التي'))")


def test_a_common_likeliest_reading_and_a_word_not_transliterated_stand_as_themselves() -> None:
    words = [
        _word(("من",), (17000,)),
        _word(("هذا", "هذه"), (8000, 1610)),
        _word(("حديث", "حدث"), (6000, 240)),
        _word(("حجهم",), (3,), read=False),
    ]
    _, params = _fuzzy_params(words, ["من", "هذا", "حديث", "حجهم"])

    assert params["group_0"].startswith("('هذا' <1> 'حديث' <1> 'حجهم') | ('من' <2> 'حديث' <1> 'حجهم')")


def _unknown(word: str, corrections: tuple[str, ...], counts: tuple[int, ...]) -> FuzzyWord:
    """A word no text holds, with the terms one letter off it that texts hold."""
    return FuzzyWord(word, corrections, 1.0, corrections, counts)


def test_a_word_no_text_holds_is_the_only_one_the_phrase_leaves_out() -> None:
    words = [
        _word(("ازهد",), (40,), read=False),
        _word(("في",), (20000,), read=False),
        _word(("دنيا",), (560,), read=False),
        _unknown("يحبكك", ("يحبك",), (7,)),
    ]
    _, params = _fuzzy_params(words, ["ازهد", "في", "دنيا", "يحبكك"])

    assert params["group_0"] == "('ازهد' <1> 'في' <1> 'دنيا')"


def test_two_words_no_text_holds_leave_no_phrase_but_for_one_word() -> None:
    words = [
        _word(("ازهد",), (40,), read=False),
        _word(("في",), (20000,), read=False),
        _unknown("الدنيى", ("دنيا",), (560,)),
        _unknown("يحبكك", ("يحبك",), (7,)),
    ]
    groups, params = _fuzzy_params(words, ["ازهد", "في", "الدنيى", "يحبكك"])

    assert PROBED not in groups
    assert "<" not in " ".join(params[f"group_{i}"] for i in range(len(groups)))
    assert params["group_0"] == "('ازهد')"
    assert "group_0_probe" not in params


def test_the_probe_of_a_long_phrase_but_for_one_word_holds_two_of_its_three_rarest_words() -> None:
    weights = {"priere": 5.0, "vendredi": 6.0, "sortit": 4.0, "il": 0.5}
    words = ["il", "sortit", "pour", "la", "priere", "du", "vendredi"]

    kind, params = _skipping_one(words, {}, set(), weights)
    assert kind == (PROBED,)
    assert params["group_0_probe"] == "('sortit' & 'priere') | ('sortit' & 'vendredi') | ('priere' & 'vendredi')"
    kind, too_short = _skipping_one(words[:5], {}, set(), weights)  # read as it is
    assert kind == (DIRECT,) and "group_0_probe" not in too_short


def test_a_phrase_leaving_out_a_word_no_text_holds_is_read_as_it_is() -> None:
    words = [
        _word(("ازهد",), (40,), read=False),
        _word(("في",), (20000,), read=False),
        _word(("دنيا",), (560,), read=False),
        _word(("الله",), (20000,), read=False),
        _word(("عليه",), (20000,), read=False),
        _unknown("يحبكك", ("يحبك",), (7,)),
    ]
    groups, params = _fuzzy_params(words, ["ازهد", "في", "دنيا", "الله", "عليه", "يحبكك"])

    assert params["group_0"] == "('ازهد' <1> 'في' <1> 'دنيا' <1> 'الله' <1> 'عليه')"
    assert groups[0] == DIRECT
    assert "group_0_probe" not in params


async def test_the_probe_finds_every_text_that_the_phrase_but_for_one_word_finds(
    imported: ImportReport, database_url: str
) -> None:
    """Phrases of the subset's French texts, as they are and with a word changed: the probe finds every text that
    the phrases found, on the whole table."""
    conn = await asyncpg.connect(database_url, server_settings={"search_path": f"{LIVE_SCHEMA}, public"})
    try:
        texts = [row[0].split() for row in await conn.fetch(TEXTS)]
        phrases = [words[2:9] for words in texts if len(words) >= 9]
        found = 0
        for words in phrases + [[*words[:3], NO_WORD, *words[4:]] for words in phrases]:
            _, query = _skipping_one(words, {}, set(), {})
            counts = await conn.fetchrow(MISSED, query["group_0"], query["group_0_probe"])
            assert counts is not None and counts["missed"] == 0, words
            found += counts["held"] > 0
    finally:
        await conn.close()
    assert found == 2 * len(phrases) > 0


async def test_the_accepted_terms_kept_of_a_text_are_its_words_among_them(
    imported: ImportReport, database_url: str
) -> None:
    """`_accepted_only` keeps, of each text's words, exactly those among the accepted terms, in both languages: the
    words carry no weight of their own that would keep another."""
    conn = await asyncpg.connect(database_url, server_settings={"search_path": f"{LIVE_SCHEMA}, public"})
    try:
        some = {
            language: await conn.fetchval(SOME_WORDS, f"SELECT {words.name} FROM hadith")
            for language, words in WORDS.items()
        }
    finally:
        await conn.close()
    async with serving(api_settings(database_url), database_url) as served:
        db = RequestDatabase(served.app.state.engine)
        try:
            for language, words in WORDS.items():
                every = func.tsvector_to_array(words).label("every")
                kept = select(every, func.tsvector_to_array(_accepted_only(language)).label("accepted"))
                rows = await db.fetch(Bound(kept.select_from(t.hadith), {"credit_terms": some[language]}))
                among = [(set(row["every"]) & set(some[language]), sorted(row["accepted"])) for row in rows]
                assert all(sorted(held) == accepted for held, accepted in among), language
                assert sum(1 for held, _ in among if held) > len(rows) / 2, language
        finally:
            await db.close()
