"""Reading a written isnad into links: where a term ends and its mention begins (ingest/isnad_reading.py)."""

from app.text.arabic import normalize
from ingest.isnad_reading import read_links

# how many narrators' names hold each word: every word of the names below is a name word
NAME_WORDS = {normalize(word): 1 for word in ["المغيرة", "بن", "شعبة", "مالك", "نافع"]}


def _mentions(text: str) -> list[tuple[str, str]]:
    return [(link.term, link.mention) for link in read_links(text, NAME_WORDS)]


def test_to_whom_it_was_said_belongs_to_the_term() -> None:
    # Bukhari 92/69: «قال قال لي المغيرة بن شعبة»
    assert _mentions("قال قال لي المغيرة بن شعبة ما سأل") == [("قال", "المغيرة بن شعبة")]
    assert _mentions("فقال لنا مالك عن نافع") == [("فقال", "مالك"), ("عن", "نافع")]


def test_the_reading_terms_keep_their_on() -> None:
    assert _mentions("قرأت على مالك عن نافع") == [("قرأت", "مالك"), ("عن", "نافع")]
