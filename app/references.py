"""Reads a citation ("bukhari:1", "Sahih Muslim 8a", "صحيح البخاري ١") as collection code and number."""

import re
from dataclasses import dataclass

from app.arabic import normalize
from app.latin import fold

_LATIN_ALIASES = {
    "bukhari": "bukhari",
    "boukhari": "bukhari",
    "muslim": "muslim",
    "mouslim": "muslim",
    "abudawud": "abudawud",
    "abudaud": "abudawud",
    "abudawood": "abudawud",
    "abudaoud": "abudawud",
    "tirmidhi": "tirmidhi",
    "tirmizi": "tirmidhi",
    "tirmithi": "tirmidhi",
    "nasai": "nasai",
    "nesai": "nasai",
    "nasaei": "nasai",
    "ibnmajah": "ibnmajah",
    "ibnmaja": "ibnmajah",
    "malik": "malik",
    "muwatta": "malik",
    "muwattamalik": "malik",
    "nawawi": "nawawi40",
    "nawawi40": "nawawi40",
    "40nawawi": "nawawi40",
    "qudsi": "qudsi40",
    "qudsi40": "qudsi40",
    "shahwaliullah40": "shahwaliullah40",
    "dehlawi": "shahwaliullah40",
}
_ARABIC_ALIASES = {
    "بخاري": "bukhari",
    "مسلم": "muslim",
    "ابيداود": "abudawud",
    "ابوداود": "abudawud",
    "ترمذي": "tirmidhi",
    "نسايي": "nasai",
    "ابنماجه": "ibnmajah",
    "مالك": "malik",
    "موطا": "malik",
    "موطامالك": "malik",
}
_LATIN_NOISE = re.compile(r"\b(?:sahih|sunan|jami|jamia|al|as|at|an|ad|el|of|imam|hadith|no|n|number)\b|°|[-'.,:#]")
_ARABIC_NOISE = re.compile(r"(?:^|\s)(?:صحيح|سنن|جامع|رواه|الامام|حديث|رقم)(?=\s|$)")
_CITATION = re.compile(r"^(?P<name>.*?\D)\s*(?P<number>\d+(?:\.\d+)?[a-z]?)\s*$")


@dataclass(frozen=True)
class Citation:
    code: str
    number: str

    @property
    def canonical_reference(self) -> str:
        return f"{self.code}:{self.number}"


def _collection(name: str) -> str | None:
    latin = "".join(_LATIN_NOISE.sub(" ", fold(name)).split())
    if latin in _LATIN_ALIASES:
        return _LATIN_ALIASES[latin]
    arabic = "".join(_ARABIC_NOISE.sub(" ", normalize(name)).split())
    arabic = arabic.removeprefix("ال")
    return _ARABIC_ALIASES.get(arabic)


def parse_citation(query: str) -> Citation | None:
    """The citation a query names, or None when it is not a citation."""
    text = normalize(query) if re.search(r"[\u0600-\u06ff]", query) else fold(query)
    match = _CITATION.match(text.replace(":", " ").strip())
    if match is None:
        return None
    code = _collection(match["name"])
    return Citation(code, match["number"]) if code else None
