"""pg_trgm's trigrams, computed as PostgreSQL computes them (contrib/pg_trgm/trgm_op.c, `generate_trgm`), for the
name keys' letters: each word padded with two spaces before it and one after, every three characters of it a
trigram, and a trigram of other than three bytes (any Arabic one) reduced to three bytes by the legacy CRC32 of its
UTF-8 bytes, of which it keeps the first three in memory order (the low three on the little-endian machines this
runs on). A trigram is its three bytes as one integer, as `trgm2int` reads them.

Only a text of the keys' letters is read so: PostgreSQL splits words by its locale's alphanumeric characters and
lower-cases them by it, which this leaves alone by refusing anything else (`trigrams` is then None).
tests/data/test_name_index.py checks every name key of the database against `show_trgm`."""

import functools
import string

WORD_LETTERS = frozenset(string.ascii_lowercase + string.digits + "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي")
SEPARATORS = frozenset(" ")


def _crc_table() -> tuple[int, ...]:
    """PostgreSQL's pg_crc32_table: the reflected CRC-32 table (polynomial 0xEDB88320)."""
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_TABLE = _crc_table()


@functools.lru_cache(maxsize=65_536)  # the keys' trigrams, some 9,000; a query's letters could make 300,000
def trigram(chars: str) -> int:
    """One trigram of three characters as pg_trgm stores it: three single-byte characters as they are; otherwise
    the legacy CRC32 (INIT/COMP/FIN_LEGACY_CRC32: the table above, walked most significant byte first) of their
    bytes, its first three bytes in little-endian memory order."""
    data = chars.encode("utf-8")
    if len(data) == 3:
        return int.from_bytes(data, "big")
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[((crc >> 24) ^ byte) & 0xFF] ^ ((crc << 8) & 0xFFFFFFFF)
    crc ^= 0xFFFFFFFF
    return int.from_bytes(crc.to_bytes(4, "little")[:3], "big")


def trigrams(text: str) -> frozenset[int] | None:
    """The distinct trigrams of `text` (`generate_trgm`), or None when it holds a character other than the keys'
    letters and the space, which PostgreSQL's locale alone would read."""
    if not set(text) <= WORD_LETTERS | SEPARATORS:
        return None
    return frozenset(gram for word in text.split() for gram in _of_word(f"  {word} "))


def _of_word(padded: str) -> list[int]:
    return [trigram(padded[at : at + 3]) for at in range(len(padded) - 2)]


def shown(value: int) -> str:
    """A trigram as `show_trgm` writes it: its three characters when each is an ASCII letter, digit or space,
    else its integer in hexadecimal."""
    data = value.to_bytes(3, "big")
    if all(chr(byte) in string.ascii_letters + string.digits + " " for byte in data):
        return data.decode("ascii")
    return f"0x{value:06x}"
