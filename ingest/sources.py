"""The upstream sources and editions, as the data README states them (repository, commit, path, licence)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    source_id: str
    title: str
    source_type: str
    repository: str | None
    commit_sha: str | None
    upstream_path: str | None
    licence: str | None
    author: str | None = None
    note: str | None = None


OPENITI_LICENCE = (
    "no LICENSE file in the fetched repository; OpenITI releases are usually described as "
    "CC BY-NC-SA 4.0 (not verified): research / non-commercial use until confirmed"
)

SOURCES: tuple[Source, ...] = (
    Source(
        "hadith-json",
        "hadith-json (sunnah.com Arabic and English, by chapter)",
        "corpus",
        "AhmedBaset/hadith-json",
        "70b83d6d21995bb32f8d7271cd75501be5a922a7",
        "db/by_chapter/the_9_books/<book>/<n>.json; db/by_book/forties/*.json",
        "no LICENSE file; package.json says ISC; scraped from sunnah.com, whose terms apply",
    ),
    Source(
        "hadith-api",
        "hadith-api editions (compressed SQLite export): Arabic, French, grades",
        "corpus",
        "IsmailHosenIsmailJames/compressed_hadith_sqlite",
        "94169a6eaa712207b2ff3bbd697b123267d34857",
        "ara/ara-<book>.sqlite.zip; fra/fra-<book>.sqlite.zip",
        "README: layout MIT; the hadith datasets belong to their researchers and compilers; "
        "upstream fawazahmed0/hadith-api described as Unlicense (not verified)",
        note="The French of Bukhari, Muslim, Abu Dawud, Nasa'i and Ibn Majah follows the sunnah.com "
        "English; the translator is not stated. Malik's French is an older independent translation.",
    ),
    Source(
        "fawaz-hadith",
        "fawazahmed0/hadith CSV exports (numbering, references, grades)",
        "corpus",
        "fawazahmed0/hadith",
        "b9a36de7364d347017e6a8d7e1a36431301c1e95",
        "jsontocsv/csv/<edition>.csv",
        "MIT (Copyright (c) 2021 Fawaz Ahmed)",
    ),
    Source(
        "lk-corpus",
        "LK Hadith Corpus (six books, kitab and bab, isnad and matn split)",
        "corpus",
        "ShathaTm/LK-Hadith-Corpus",
        "c45fa64aa40bf1d4a34b9b35359640a583b02881",
        "<Book>/Chapter<N>.csv",
        "none stated; the README asks users to cite Altammami, Atwell & Alsalka (IMAN 2019 / LREC 2020)",
    ),
    Source(
        "crosswalks",
        "Crosswalks between the hadith sources (derived by the data scout)",
        "dataset",
        None,
        None,
        "hadith/crosswalks/",
        "derived from the sources above; their licences apply",
        note="Heuristic joins with measured match rates (data README 1.6).",
    ),
    Source(
        "muslimscholars",
        "Hadith Narrators / Hadith dataset (Kaggle, fahd09, from muslimscholars.info)",
        "dataset",
        "mahidul-islam/arrijal",
        "336df7cc97f7fc14cc37aeb68f70cdfc54c66ba5",
        "isnad/static/isnad/datasets/",
        "CC0 as listed in arriqaaq/isnad docs/DATA_SOURCES.md; the intermediate repository states none",
    ),
    Source(
        "muslimscholars-aligned",
        "Chains of the Kaggle dataset, aligned to hadith-json hadith by the project",
        "dataset",
        "mahidul-islam/arrijal",
        "336df7cc97f7fc14cc37aeb68f70cdfc54c66ba5",
        "isnad/static/isnad/datasets/all_hadiths_chain.json",
        "CC0 as listed in arriqaaq/isnad docs/DATA_SOURCES.md; the intermediate repository states none",
        note="Each chain placed by ingest/chain_alignment.py on the hadith near the place its id predicts whose "
        "Arabic bears out 0.75 of its narrators in order; each node read against that text (docs/data.md).",
    ),
    Source(
        "muslimscholars-derived",
        "Chain alignment and located mentions reconstructed from the Kaggle dataset (data scout)",
        "dataset",
        None,
        None,
        "narrators/kaggle_muslimscholars/ (derived files)",
        "derived from the Kaggle dataset (CC0 as listed)",
        note="Heuristic alignment of chains to hadith and of names to the Arabic text (data README 2.1). Not read "
        "by the importer: the oracle of what it computes (muslimscholars-aligned, the chains' nodes).",
    ),
    Source(
        "takhrij-backend",
        "all_rawis reduced copy with a reliability grade made by the repository's author",
        "dataset",
        "diarfitri88/takhrij-backend",
        "8f6e8d1e78f10122d8d87f6c554e744a622d4217",
        "all_rawis.csv",
        "none stated",
    ),
    Source(
        "ar-sanad-lite",
        "AR-Sanad (Lite): narrators, isnad name forms, Ibn Hajar and al-Dhahabi ranks, relations",
        "dataset",
        "somaia02/Narrator-Disambiguation",
        "ddde1960dd4af1e50ecbe36ff5b92dee0c48bcf4",
        "Lite Narrators data.csv",
        "none stated; papers: Information 13(2):55 (2022); Neural Computing and Applications (2024)",
    ),
    Source(
        "rijal-links",
        "Candidate links between dataset narrators and Taqrib notices (data scout; not read: the oracle of the "
        "links the importer computes)",
        "dataset",
        None,
        None,
        "narrators/*/narrator_to_taqrib_candidates.jsonl.gz, lite_to_taqrib_links.jsonl.gz",
        "derived",
        note="Name-token and tabaqa agreement (data README 4.4). The importer computes these links itself "
        "(ingest/taqrib_candidates.py, ingest/lite_links.py); the links cite the Taqrib notice.",
    ),
    Source(
        "openiti-taqrib",
        "Taqrib al-Tahdhib",
        "scholarly_work",
        "OpenITI/0875AH",
        "ca79d33816453932e4b72976a7de62542f44387e",
        "data/0852IbnHajarCasqalani/0852IbnHajarCasqalani.TaqribTahdhib/"
        "0852IbnHajarCasqalani.TaqribTahdhib.Shamela0008609-ara1",
        OPENITI_LICENCE,
        author="Ibn Hajar al-'Asqalani (d. 852 AH)",
    ),
    Source(
        "openiti-kashif",
        "al-Kashif",
        "scholarly_work",
        "OpenITI/0750AH",
        "6f11ba7ea313c9268472ba9b1ce178b677f10c94",
        "data/0748Dhahabi/0748Dhahabi.Kashif/0748Dhahabi.Kashif.Shamela0002171-ara1",
        OPENITI_LICENCE,
        author="al-Dhahabi (d. 748 AH)",
    ),
    Source(
        "openiti-mughni",
        "al-Mughni fi al-Du'afa",
        "scholarly_work",
        "OpenITI/0750AH",
        "6f11ba7ea313c9268472ba9b1ce178b677f10c94",
        "data/0748Dhahabi/0748Dhahabi.MughniFiDucafa/0748Dhahabi.MughniFiDucafa.Shamela0005836-ara1",
        OPENITI_LICENCE,
        author="al-Dhahabi (d. 748 AH)",
    ),
    Source(
        "openiti-sindi-nasai",
        "Hashiya 'ala Sunan al-Nasa'i",
        "commentary",
        "OpenITI/1150AH",
        "b87b98cf74102e97a5497734e34fc9a043e2827a",
        "1138IbnCabdHadiNurDinSindi.HashiyaCalaNasai.Shamela0000522-ara1",
        OPENITI_LICENCE,
        author="Nur al-Din al-Sindi (d. 1138 AH)",
    ),
    Source(
        "openiti-suyuti-nasai",
        "Zahr al-Ruba 'ala al-Mujtaba",
        "commentary",
        "OpenITI/0925AH",
        "e1b3468620f331eedf7a1635c2ca0ea5f59ddd6d",
        "0911Suyuti.SharhSunanNasai.Shamela0000360-ara1",
        OPENITI_LICENCE,
        author="al-Suyuti (d. 911 AH)",
    ),
    Source(
        "openiti-suyuti-muslim",
        "al-Dibaj 'ala Sahih Muslim",
        "commentary",
        "OpenITI/0925AH",
        "e1b3468620f331eedf7a1635c2ca0ea5f59ddd6d",
        "0911Suyuti.DibajCalaMuslim.Shamela0001712-ara1",
        OPENITI_LICENCE,
        author="al-Suyuti (d. 911 AH)",
    ),
    Source(
        "openiti-suyuti-ibnmajah",
        "Misbah al-Zujaja 'ala Sunan Ibn Majah",
        "commentary",
        "OpenITI/0925AH",
        "e1b3468620f331eedf7a1635c2ca0ea5f59ddd6d",
        "0911Suyuti.MisbahZujaja.Shamela0000791-ara1",
        OPENITI_LICENCE,
        author="al-Suyuti (d. 911 AH)",
    ),
    Source(
        "openiti-suyuti-tirmidhi",
        "Qut al-Mughtadhi 'ala Jami' al-Tirmidhi",
        "commentary",
        "OpenITI/0925AH",
        "e1b3468620f331eedf7a1635c2ca0ea5f59ddd6d",
        "0911Suyuti.QutMughtadhi.Shamela0007562-ara1",
        OPENITI_LICENCE,
        author="al-Suyuti (d. 911 AH)",
    ),
    Source(
        "openiti-suyuti-malik",
        "Tanwir al-Hawalik sharh Muwatta Malik",
        "commentary",
        "OpenITI/0925AH",
        "e1b3468620f331eedf7a1635c2ca0ea5f59ddd6d",
        "0911Suyuti.TanwirHawalik.Shamela0005757-ara1",
        OPENITI_LICENCE,
        author="al-Suyuti (d. 911 AH)",
        note="The editor's [N] markers do not match the hadith-api numbering (data README 4.5).",
    ),
    Source(
        "openiti-ibn-daqiq-nawawi",
        "Sharh al-Arba'in al-Nawawiyya",
        "commentary",
        "OpenITI/0725AH",
        "056df249d6619b428a78f1d69a8ab2851b97b0a6",
        "0702IbnDaqiqCidQushayri.SharhArbacinaNawawiyya.Shamela0011244-ara1",
        OPENITI_LICENCE,
        author="Ibn Daqiq al-'Id (d. 702 AH)",
    ),
)
