"""Writes eval/speech_queries.jsonl from the full database: search as people speak (bench/speech_eval.py).

    python -m bench.speech_queries [--out eval/speech_queries.jsonl]

Against ISNAD_DATABASE_URL (the full import). Every expected answer is read from the data, never written
by hand:
- spoken_fr, spoken_en, spoken_ar: citations said in each language (collection and number in any order,
  number words, ordinals, filler words, a book named on the way) of hadith that exist; expected: the
  hadith the written citation «<code>:<number>» names (the number and its sub-numbers: 8 -> 8a, 8b ...);
- romanized_famous: famous sayings in Arabic, each written in Latin letters as people and recognisers
  write them (below, several spellings each); romanized_phrase: the last words of hadith drawn at random
  (seeded), whose stems occur in at most MAX_HOLDERS hadith, romanized in three styles (bench/romanize.py);
  expected: every hadith whose stems hold the phrase's stems in order (at most 20);
- not_arabic: French and English sentences (the French queries of eval/search_queries.jsonl, and sentences
  of both languages below) that must not be read as Arabic.
"""

import argparse
import asyncio
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncpg
from rich.console import Console

from app.settings import load_settings
from app.text import arabic
from bench.romanize import STYLES, romanize

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "eval" / "speech_queries.jsonl"
MAX_HOLDERS = 4  # a random phrase is kept when at most this many hadith hold it
MAX_FAMOUS = 20
PHRASE_WORDS = 5
PHRASES = 20
SEED = 18

# (Arabic, spellings as people write it in Latin letters)
FAMOUS: list[tuple[str, tuple[str, ...]]] = [
    ("إنما الأعمال بالنيات", ("innama al-a'malu bin-niyyat", "innamal a3malu binniyat", "inamal amalou bi niyat",
                              "innamā al-aʿmālu bi-n-niyyāt")),
    ("الدين النصيحة", ("ad-dinu an-nasiha", "ad-dīnu an-naṣīḥa", "eddine ennasiha", "al din al nasiha")),
    ("لا ضرر ولا ضرار", ("la darara wa la dirar", "lā ḍarara wa lā ḍirār", "la darar wala dirar")),
    ("إن الله جميل يحب الجمال", ("inna allaha jamilun yuhibbu al-jamal", "innallaha jamil yuhibbul jamal",
                                 "inna Allāha jamīlun yuḥibbu al-jamāl")),
    ("الطهور شطر الإيمان", ("at-tuhuru shatrul iman", "aṭ-ṭuhūru shaṭru al-īmān", "attahour chatr al iman")),
    ("من كان يؤمن بالله واليوم الآخر فليقل خيرا أو ليصمت", (
        "man kana yu'minu billahi wal-yawmil akhir falyaqul khayran aw liyasmut",
        "man kana you2minou billahi wal yawmil akhir fal yaqoul khayran aw liyasmout")),
    ("لا يؤمن أحدكم حتى يحب لأخيه ما يحب لنفسه", (
        "la yu'minu ahadukum hatta yuhibba li-akhihi ma yuhibbu li-nafsihi",
        "la youminou a7adoukoum 7atta you7ibba li akhihi ma you7ibbou linafsihi")),
    ("الحياء من الإيمان", ("al-haya'u mina al-iman", "al haya min al iman", "al-ḥayāʾu mina l-īmān")),
    ("المسلم من سلم المسلمون من لسانه ويده", ("al-muslimu man salima al-muslimuna min lisanihi wa yadihi",
                                             "al muslim man salimal muslimoun min lisanihi wa yadih")),
    ("كل بدعة ضلالة", ("kullu bid'atin dalalah", "koullou bid3a dalala", "kullu bid'ah dalalah")),
    ("الكلمة الطيبة صدقة", ("al-kalimatu at-tayyibatu sadaqa", "al kalima at-tayyiba sadaqa")),
    ("تبسمك في وجه أخيك صدقة", ("tabassumuka fi wajhi akhika sadaqa", "tabassoumouka fi wajhi akhika sadaqatoun")),
    ("خيركم من تعلم القرآن وعلمه", ("khayrukum man ta'allama al-qur'ana wa 'allamahu",
                                   "khayroukoum man ta3allama al qur2an wa 3allamahou")),
    ("الدنيا سجن المؤمن وجنة الكافر", ("ad-dunya sijnu al-mu'mini wa jannatu al-kafir",
                                      "ad dounya sijn al mou2min wa jannat al kafir")),
    ("لا تغضب", ("la taghdab", "lā taghḍab")),
    ("اتق الله حيثما كنت", ("ittaqi allaha haythuma kunta", "ittaqillaha haythouma kounta")),
    ("الظلم ظلمات يوم القيامة", ("az-zulmu zulumatun yawma al-qiyamah", "adh-dhulmu dhulumatun yawm al qiyama")),
    ("الراحمون يرحمهم الرحمن", ("ar-rahimuna yarhamuhumu ar-rahman", "arra7imoun yar7amouhoum arra7man")),
    ("من غشنا فليس منا", ("man ghashshana falaysa minna", "man ghachana fa laysa minna")),
    ("البر حسن الخلق", ("al-birru husnu al-khuluq", "al birr housn al khoulouq")),
    ("كل معروف صدقة", ("kullu ma'rufin sadaqa", "koullou ma3roufin sadaqa")),
    ("يسروا ولا تعسروا", ("yassiru wa la tu'assiru", "yassirou wala tou3assirou")),
    ("الحلال بين والحرام بين", ("al-halalu bayyinun wal-haramu bayyin", "al halal bayyin wal haram bayyin")),
    ("بني الإسلام على خمس", ("buniya al-islamu 'ala khams", "bouniya al islam 3ala khams")),
    ("ارحموا من في الأرض يرحمكم من في السماء", ("irhamu man fil ardi yarhamkum man fis sama'",
                                               "ir7amou man fil ard yar7amkoum man fi assama")),
]  # fmt: skip

# (code, number, French, English, Arabic): each a way people say the citation.
SPOKEN: list[tuple[str, str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = [
    ("bukhari", "1", ("hadith 1 de Boukhari", "le premier hadith de Sahih al-Bukhari"),
     ("Bukhari number one", "the first hadith of Sahih Bukhari"),
     ("حديث رقم واحد في صحيح البخاري", "الحديث الأول من صحيح البخاري")),
    ("muslim", "8", ("le hadith numéro 8 de Sahih Muslim", "Muslim, livre de la foi, hadith huit"),
     ("Sahih Muslim hadith number eight", "hadith eight in Muslim"),
     ("رواه مسلم برقم ٨", "صحيح مسلم، كتاب الإيمان، حديث ثمانية")),
    ("muslim", "2564", ("Mouslim hadith deux mille cinq cent soixante-quatre", "le hadith 2564 de Muslim"),
     ("Muslim two thousand five hundred sixty four", "hadith 2564 of Sahih Muslim"),
     ("رواه مسلم برقم ٢٥٦٤", "صحيح مسلم حديث ألفان وخمسمائة وأربعة وستون")),
    ("abudawud", "4607", ("Abou Daoud hadith quatre mille six cent sept", "hadith numéro 4607 d'Abou Dawoud"),
     ("Abu Dawud hadith 4607", "Sunan Abi Dawud number four thousand six hundred seven"),
     ("سنن أبي داود حديث رقم ٤٦٠٧", "رواه أبو داود برقم أربعة آلاف وستمائة وسبعة")),
    ("bukhari", "13", ("Boukhari hadith treize", "le treizième hadith de Boukhari"),
     ("Bukhari hadith thirteen", "the thirteenth hadith of Bukhari"),
     ("البخاري حديث ثلاثة عشر", "صحيح البخاري رقم ١٣")),
    ("bukhari", "6018", ("hadith six mille dix-huit de Boukhari", "Sahih al-Boukhari numéro 6018"),
     ("Bukhari six thousand eighteen", "hadith number 6018 in Bukhari"),
     ("رواه البخاري برقم ٦٠١٨", "صحيح البخاري حديث ستة آلاف وثمانية عشر")),
    ("tirmidhi", "2516", ("Tirmidhi hadith deux mille cinq cent seize", "le hadith 2516 de Tirmizi"),
     ("Jami at-Tirmidhi hadith two thousand five hundred sixteen", "Tirmidhi number 2516"),
     ("رواه الترمذي برقم ٢٥١٦", "جامع الترمذي حديث ألفان وخمسمائة وستة عشر")),
    ("nasai", "5000", ("an-Nasa'i hadith cinq mille", "hadith numéro cinq mille de Nasai"),
     ("Sunan an-Nasai hadith five thousand", "Nasai number five thousand"),
     ("سنن النسائي حديث رقم خمسة آلاف", "رواه النسائي برقم ٥٠٠٠")),
    ("ibnmajah", "224", ("Ibn Majah hadith deux cent vingt-quatre", "hadith 224 d'Ibn Maja"),
     ("Ibn Majah hadith two hundred twenty four", "Sunan Ibn Majah number 224"),
     ("سنن ابن ماجه حديث مئتان وأربعة وعشرون", "رواه ابن ماجه برقم ٢٢٤")),
    ("nawawi40", "13", ("les quarante hadiths de Nawawi, le treizième", "Nawawi hadith treize"),
     ("forty hadith Nawawi number thirteen", "the thirteenth hadith of Nawawi"),
     ("الأربعون النووية الحديث الثالث عشر", "الأربعين النووية حديث رقم ١٣")),
    ("malik", "1", ("Muwatta Malik hadith un", "le premier hadith du Muwatta"),
     ("Muwatta Malik hadith one", "the first hadith of Malik's Muwatta"),
     ("موطأ مالك حديث واحد", "الحديث الأول من موطأ مالك")),
    ("abudawud", "75", ("Abou Daoud hadith soixante-quinze", "hadith 75 d'Abou Daoud"),
     ("Abu Dawud hadith seventy five", "seventy fifth hadith of Abu Dawud"),
     ("سنن أبي داود حديث خمسة وسبعون", "رواه أبو داود برقم ٧٥")),
]  # fmt: skip

NOT_ARABIC = [
    "les actions ne valent que par les intentions",
    "la religion est le bon conseil",
    "Allah est beau et il aime la beauté",
    "ne te mets pas en colère",
    "le musulman est celui dont les musulmans sont à l'abri de sa langue et de sa main",
    "la pudeur fait partie de la foi",
    "la purification est la moitié de la foi",
    "celui qui croit en Allah et au jour dernier qu'il dise du bien ou qu'il se taise",
    "aucun de vous ne croit vraiment tant qu'il n'aime pas pour son frère ce qu'il aime pour lui-même",
    "le sourire à ton frère est une aumône",
    "hadith sur la patience",
    "que dit le prophète sur les parents",
    "actions are judged by intentions",
    "the religion is sincere advice",
    "Allah is beautiful and loves beauty",
    "do not get angry",
    "modesty is part of faith",
    "cleanliness is half of faith",
    "whoever believes in Allah and the last day should speak good or keep silent",
    "none of you truly believes until he loves for his brother what he loves for himself",
    "smiling at your brother is charity",
    "what did the prophet say about fasting",
    "the best of you are those who learn the Quran and teach it",
    "the world is a prison for the believer",
    "every innovation is misguidance",
    "hadith about kindness to animals",
    "tell me a hadith about charity",
    "the prophet said",
    "Islam is built on five pillars",
    "who is Abu Hurairah",
]


async def _holders(conn: asyncpg.Connection, phrase: str) -> list[str]:
    """Every hadith whose stems hold the phrase's stems, in order (at most MAX_FAMOUS + 1)."""
    stems = " ".join(arabic.stems(phrase))
    rows = await conn.fetch(
        "SELECT canonical_reference FROM hadith WHERE ' ' || text_ar_stems || ' ' LIKE $1 ORDER BY hadith_id LIMIT $2",
        f"% {stems} %",
        MAX_FAMOUS + 1,
    )
    return [row[0] for row in rows]


async def _cited(conn: asyncpg.Connection, code: str, number: str) -> list[str]:
    rows = await conn.fetch(
        "SELECT h.canonical_reference FROM hadith h JOIN collection c USING (collection_id)"
        " WHERE c.code = $1 AND (h.canonical_number = $2 OR h.canonical_number ~ ('^' || $2 || '([a-z]|\\.[0-9])$'))",
        code,
        number,
    )
    return [row[0] for row in rows]


def _line(kind: str, query: str, expected: Sequence[str], **extra: Any) -> dict[str, Any]:
    return {"type": kind, "query": query, "expected": list(expected), **extra}


async def _spoken(conn: asyncpg.Connection) -> list[dict[str, Any]]:
    lines = []
    for code, number, *said in SPOKEN:
        expected = await _cited(conn, code, number)
        assert expected, f"no hadith {code}:{number}"
        for kind, queries in zip(("spoken_fr", "spoken_en", "spoken_ar"), said, strict=True):
            lines += [_line(kind, query, expected, source=f"{code}:{number}") for query in queries]
    return lines


async def _famous(conn: asyncpg.Connection) -> list[dict[str, Any]]:
    lines = []
    for phrase, spellings in FAMOUS:
        expected = await _holders(conn, phrase)
        if expected and len(expected) <= MAX_FAMOUS:
            lines += [_line("romanized_famous", spelling, expected, arabic=phrase) for spelling in spellings]
    return lines


def _last_words(text: str) -> str:
    words = [word for word in text.replace("،", " ").replace(".", " ").split() if arabic.normalize(word)]
    return " ".join(words[-PHRASE_WORDS:])


async def _phrases(conn: asyncpg.Connection) -> list[dict[str, Any]]:
    rows = await conn.fetch(
        "SELECT canonical_reference, text_ar FROM hadith h JOIN collection c USING (collection_id)"
        " WHERE c.code <> 'tirmidhi' AND text_ar IS NOT NULL ORDER BY hadith_id"
    )
    random.Random(SEED).shuffle(rows := list(rows))  # noqa: S311 (a seeded sample of hadith, no secret)
    lines: list[dict[str, Any]] = []
    for reference, text in rows:
        phrase = _last_words(text)
        holders = await _holders(conn, phrase)
        if len(phrase.split()) == PHRASE_WORDS and reference in holders and len(holders) <= MAX_HOLDERS:
            lines += [_line("romanized_phrase", romanize(phrase, style), holders, source=reference, style=style)
                      for style in STYLES]  # fmt: skip
        if len(lines) >= PHRASES * len(STYLES):
            return lines
    return lines


def _not_arabic() -> list[dict[str, Any]]:
    french = [json.loads(line) for line in (ROOT / "eval" / "search_queries.jsonl").read_text().splitlines()]
    said = [item["query"] for item in french if item["type"].startswith("fr_")] + NOT_ARABIC
    return [_line("not_arabic", query, []) for query in said]


async def build() -> list[dict[str, Any]]:
    settings = load_settings()
    conn = await asyncpg.connect(settings.database_url)
    try:
        await conn.execute(f"SET search_path TO {settings.db_schema}")
        return [*await _spoken(conn), *await _famous(conn), *await _phrases(conn), *_not_arabic()]
    finally:
        await conn.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT)
    options = parser.parse_args(argv)
    lines = asyncio.run(build())
    options.out.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    Console().print(f"{len(lines)} queries written to {options.out}")


if __name__ == "__main__":
    main()
