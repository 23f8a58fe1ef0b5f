"""Personal names: telling a name from an affiliation or a placeholder, splitting author lists, and
family names.

Names are kept as the document writes them, "Given Family" ("Daniel S. Weld"), except that a name
set in capitals ("MARTI A. HEARST") is written in mixed case, and "Family, Given" (BibTeX, library
catalogues) is turned round. ``is_person_name`` is deliberately strict (two to five words, each a
capitalised word, an initial or a particle such as "van", no word that names an institution, a
place or a role): a name it misses costs one author, whereas an affiliation taken for a name puts a
university among the authors.
"""

from __future__ import annotations

import re
import unicodedata

# Lower-case words that belong to family names ("Ludwig van Beethoven", "Ana de la Cruz").
PARTICLES = frozenset(
    "van von der den de del della delle di da du dos das do la las los le ter ten zu bin ibn al el".split()
)
_SUFFIXES = frozenset("jr jr. sr sr. ii iii iv".split())
# A particle joined to the family name by a hyphen ("al-Farsi", "el-Amin", "ibn-Rushd").
_HYPHENED_PARTICLE = re.compile(r"^(?:al|el|ibn|bin|abu|ben)-(?=[^\W\d_])")
# Words that put a piece of text outside personal names: institutions and their parts, places that
# head an address, what programs and templates write into a PDF's author field, and the function
# words and nouns of a title-case subtitle ("A Systematic Review of Roof Greening").
NON_NAME_WORDS = frozenset(
    """university universität université universidad università universiteit institute institut
    instituto department dept school college laboratory laboratories lab labs centre center faculty
    hospital academy foundation inc corp corporation ltd llc gmbh company group research ai
    technology technologies sciences science polytechnic ministry agency council society program
    programme division unit office museum library clinic campus street road avenue usa uk
    microsoft office user owner admin administrator windows adobe acrobat word latex tex pdf author
    authors unknown default anonymous editor staff team abstract introduction keywords summary
    proceedings journal conference workshop preprint vol volume pages copyright committee board
    network association press news city county government service services partners publishing
    media the an of for in on to with from at via towards using review study studies analysis
    report guide guidelines survey systematic approach method methods model models evidence overview
    handbook manual policy paper note notes chapter part section appendix edition series data
    dataset results""".split()
)
# Words that make a name an organisation's: a corporate author ("Gemma Team", "Cancer Council
# Australia"), a publisher or a journal set above a title ("JSS Journal of Statistical Software").
ORGANISATION_WORDS = frozenset(
    """university universität université universidad università universiteit institute institut
    instituto department school college laboratory laboratories lab labs centre center faculty hospital
    academy foundation inc inc. corp corp. corporation ltd ltd. llc gmbh ag plc company co. group team
    council ministry agency office commission committee board association society government
    municipality municipalité city county bank press publishing journal magazine review transactions
    proceedings series bulletin consortium organisation organization project""".split()
)
# The endings of organisations' names in Chinese and Japanese ("…股份有限公司", "…大学").
_CJK_ORGANISATION = re.compile(
    r"(?:公司|大学|大學|学院|研究院|研究所|研究中心|集团|集團|委员会|委員会|政府|银行|銀行|协会|協会|株式会社)$"
)
# A personal name in Korean, Chinese or Japanese script: family name first, no space ("김창호", "王小明").
_CJK_PERSON = re.compile(r"^[\uac00-\ud7a3]{2,4}$|^[\u4e00-\u9fff]{2,4}$")
_ELIDED_PARTICLE = re.compile(r"^[dDlLoO]['’](?=[^\W\d_])")
_INITIAL = re.compile(r"^(?:[^\W\d_]\.)+(?:-[^\W\d_]\.)*$")
_SEPARATORS = re.compile(r"\s*(?:;|,\s*(?:and|&)\s+|\s+(?:and|&)\s+|,)\s*")
_BYLINE = re.compile(r"^[\W_]*(?:by|written by|posted by|authors?)\b\s*:?\s+(.+?)[\W_]*$", re.IGNORECASE)
MAX_BYLINE_CHARS = 200


def _is_latin_letter(ch: str) -> bool:
    return ch.isalpha() and unicodedata.name(ch, "").startswith("LATIN")


def has_latin_letter(text: str) -> bool:
    return any(_is_latin_letter(ch) for ch in text)


def strip_marks(text: str) -> str:
    """``text`` without the footnote marks, asterisks and digits around it ("Whitcombe*" -> "Whitcombe")."""
    words = [_without_marks(w) for w in text.split()]
    return " ".join(w for w in words if w and has_latin_letter(w))


def _without_marks(word: str) -> str:
    """A word without the footnote and affiliation marks around it: symbols, digits (superscript
    ones too: "Roe¹"), stray punctuation; an initial's period and brackets stay."""
    start, end = 0, len(word)
    while start < end and not (word[start].isalpha() or word[start] == "("):
        start += 1
    while end > start and not (word[end - 1].isalpha() or word[end - 1] in ".)"):
        end -= 1
    return word[start:end]


def _is_name_word(word: str) -> bool:
    if word.lower() in PARTICLES or _INITIAL.match(word):
        return True
    if _ELIDED_PARTICLE.match(word):  # "d'Antras", "O'Brien"
        word = word[2:]
    elif match := _HYPHENED_PARTICLE.match(word):  # "al-Farsi"
        word = word[match.end() :]
    core = word.rstrip(".")
    return bool(core) and core[0].isupper() and all(ch.isalpha() or ch in "-'’" for ch in core)


def is_person_name(text: str) -> bool:
    """Whether ``text`` reads as one person's name: "Amy X. Zhang", "LUCY LU WANG", "Hui Lin Tan"."""
    words = text.split()
    if not 2 <= len(words) <= 5 or any(w.lower().strip(".,") in NON_NAME_WORDS for w in words):
        return False
    if not all(_is_name_word(w) for w in words):
        return False
    if _names_an_organisation(text, words):
        return False
    return _ends_in_family_name(words)


def _names_an_organisation(text: str, words: list[str]) -> bool:
    """An acronym beside mixed-case words names an organisation ("GRPN Technical Group"); a family
    name alone in capitals after the given name is a convention ("Chris QUIRK")."""
    capitals = [i for i, w in enumerate(words) if len(w) > 1 and w.isupper() and w.isalpha()]
    family_in_capitals = capitals == [len(words) - 1] and len(words[-1]) >= 3
    return any(ch.islower() for ch in text) and bool(capitals) and not family_in_capitals


def _ends_in_family_name(words: list[str]) -> bool:
    """The family name comes last and is a word ("A. Chang" is a name, "Chang A." and "Smith J" are not)."""
    last = words[-1]
    return len(last) > 1 and not (last.lower() in PARTICLES or _INITIAL.match(last) or words[0].lower() in PARTICLES)


def is_cjk_person_name(text: str) -> bool:
    """Whether ``text`` is a name in Hangul or Han script, written family name first ("김창호")."""
    return bool(_CJK_PERSON.match(text)) and not _CJK_ORGANISATION.search(text)


def is_organisation_name(text: str) -> bool:
    """Whether ``text`` names an organisation, a team or a periodical rather than a person or a
    document: "Gemma Team", "U.S. Government Accountability Office", "东北电气发展股份有限公司"."""
    text = " ".join(text.split())
    if not text or len(text) > 120:
        return False
    if _CJK_ORGANISATION.search(text.replace(" ", "")):
        return True
    words = [w.strip(",.()").lower() for w in re.split(r"[\s\-–]+", text)]
    return len(words) <= 10 and any(w in ORGANISATION_WORDS for w in words)


def name_case(name: str) -> str:
    """A name set in capitals in mixed case ("MARTI A. HEARST" -> "Marti A. Hearst"); others as written
    (a generational suffix as written: "John Roe III")."""
    if not any(ch.islower() for ch in name):
        words = name.split()
        suffix = words.pop() if len(words) > 2 and words[-1].lower() in _ROMAN_SUFFIXES else None
        cased = [w if _INITIAL.match(w) else w.capitalize() for w in words]
        return " ".join([*cased, suffix] if suffix else cased)
    words = name.split()
    if words and words[-1].lower() in _ROMAN_SUFFIXES:
        return name
    if len(words) > 1 and len(words[-1]) > 2 and words[-1].isupper() and words[-1].isalpha():
        return " ".join([*words[:-1], words[-1].capitalize()])  # "Chris QUIRK" -> "Chris Quirk"
    return name


_ROMAN_SUFFIXES = frozenset("ii iii iv".split())


def is_suffix(word: str) -> bool:
    """A generational suffix: "Jr.", "Sr.", "III"."""
    return word.lower() in _SUFFIXES


def _turned(part: str) -> str:
    """ "Family, Given" as "Given Family"."""
    family, _, given = part.partition(",")
    return f"{given.strip()} {family.strip()}" if given.strip() else family.strip()


def _entries(text: str) -> list[str]:
    """The entries of an author list as "Given Family", names or not.

    Lists are separated by ";", ",", "and" or "&". "Lo, Kyle; Wang, Lucy Lu" and "Lo, Kyle and
    Wang, Lucy Lu" (a comma inside every entry) are read as "Family, Given" entries.
    """
    text = " ".join(text.split())
    entries = re.split(r"\s*;\s*|\s+and\s+", text)
    if len(entries) > 1 and all(entry.count(",") == 1 for entry in entries):
        return [_turned(entry) for entry in entries]
    if len(entries) == 1 and text.count(",") == 1 and len(text.split(",")[0].split()) == 1:
        return [_turned(text)]  # a single "Family, Given"
    return _suffixes_attached([p for p in _SEPARATORS.split(text) if p.strip()])


def _suffixes_attached(entries: list[str]) -> list[str]:
    """``entries`` with a suffix set off by a comma put back on its name ("John Roe, Jr." -> "John Roe Jr.")."""
    out: list[str] = []
    for entry in entries:
        if out and is_suffix(entry.strip()):
            out[-1] = f"{out[-1]} {entry.strip()}"
        else:
            out.append(entry)
    return out


def split_names(text: str) -> list[str]:
    """The personal names in an author list, in order and without repeats; other entries are skipped."""
    names: list[str] = []
    for entry in _entries(text):
        name = name_case(strip_marks(entry))
        if is_person_name(name) and name not in names:
            names.append(name)
    return names


def metadata_authors(raw: str) -> list[str]:
    """The names in ``raw`` (a PDF's /Author field, a byline), or none when any part of it is not a
    personal name: "Microsoft Office User", "admin", a company, a program's name, a date, or a list
    that holds one of them."""
    if re.search(r"\d", raw):
        return []
    if is_cjk_person_name(raw.strip()):
        return [raw.strip()]
    entries = _entries(raw)
    names = [name_case(strip_marks(entry)) for entry in entries]
    if not names or not all(is_person_name(name) for name in names):
        return []
    return list(dict.fromkeys(names))


def byline_authors(lines: list[str]) -> list[str]:
    """The names on the first byline among ``lines``: "By Jane Doe and John Roe", "*Authors: A, B*",
    or a line that is nothing but names ("Clara M. Oduya (1) and Peter J. Lindqvist (2)")."""
    for line in lines:
        if len(line) > MAX_BYLINE_CHARS:
            continue
        match = _BYLINE.match(line)
        names = split_names(match.group(1)) if match else metadata_authors(re.sub(r"\(\w{1,3}\)", " ", line))
        if names:
            return names
    return []


def explicit_byline(line: str) -> list[str]:
    """The names ``line`` introduces as its authors ("By Jane Doe", "Posted by Alon Zakai."); none
    for a line that does not say it is a byline, names or not."""
    match = _BYLINE.match(line) if len(line) <= MAX_BYLINE_CHARS else None
    return split_names(match.group(1)) if match else []


def is_corporate_name(name: str) -> bool:
    """Whether an author entry names a body rather than a person, and so is one literal with no
    family name: one word ("Microsoft", "DeepSeek-AI"), or words no personal name holds ("Gemma
    Team", "Cancer Council Australia", "Cohere For AI")."""
    words = name.split()
    if len(words) == 1 and not _INITIAL.match(words[0]):
        return True
    return is_organisation_name(name) or any(w.lower().strip(".,()") in NON_NAME_WORDS for w in words)


def family_name(name: str) -> str:
    """The family name of "Given Family": the last word with the particles before it ("Ludwig van
    Beethoven" -> "van Beethoven"), a generational suffix ("Jr.") left out; a corporate author's
    whole name ("Gemma Team"); a name in Hangul or Han script, family name first, its first
    character ("김창호" -> "김")."""
    if is_cjk_person_name(name):
        return name[0]
    if is_corporate_name(name):
        return name
    if "," in name:
        return name.split(",")[0].strip()
    words = [w for w in name.split() if w.lower() not in _SUFFIXES]
    if not words:
        return name
    i = len(words) - 1
    while i > 1 and words[i - 1].lower() in PARTICLES:
        i -= 1
    return " ".join(words[i:])


def family_names(authors: list[str]) -> list[str]:
    return [family_name(a) for a in authors]


_EMAIL = re.compile(r"([\w.+-]+)@[\w-]+(?:\.[\w-]+)+")
# An address spells a family name when at most this many letters (initials) precede it ("e.f.tjong.kim.sang").
MAX_EMAIL_INITIALS = 2
# A family name an address gives only in part (the first of two Spanish surnames) is this long at least,
# so that a short given name ("Hui Lin Tan", "hlin@") is not taken for one.
MIN_PARTIAL_FAMILY_CHARS = 5


def _letters(text: str) -> str:
    """``text``'s letters in lower-case ASCII ("Forăscu" -> "forascu")."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text).lower() if "a" <= ch <= "z")


def families_from_emails(names: list[str], texts: list[str]) -> list[str]:
    """``names``, each whose family name is several words by the evidence of an e-mail address in
    ``texts`` turned to "Family, Given": "Erik Tjong Kim Sang" with e.f.tjong.kim.sang@… ->
    "Tjong Kim Sang, Erik"; "Ivan Rodriguez Montoya" with rrodriguez@… -> "Rodriguez Montoya, Ivan".
    The last word alone is a family name by default, and names of three words or more are
    ambiguous ("Hui Lin Tan", "Ivan Rodriguez Montoya"); an address is how the page settles it."""
    addresses = {_letters(local) for text in texts for local in _EMAIL.findall(text)}
    return [_family_by_email(name, addresses) for name in names] if addresses else names


def _family_by_email(name: str, addresses: set[str]) -> str:
    words = name.split()
    if "," in name or len(words) < 3 or is_corporate_name(name):
        return name
    keys = [_letters(w) for w in words]
    default = len(family_name(name).split())
    for k in range(1, len(words) - default):
        if _INITIAL.match(words[k]) or words[k].lower() in PARTICLES or not keys[k]:
            continue
        whole = "".join(keys[k:])
        for address in addresses:
            spelled = _spells(address, whole) or (
                len(keys[k]) >= MIN_PARTIAL_FAMILY_CHARS and _spells(address, keys[k])
            )
            if spelled:
                return f"{' '.join(words[k:])}, {' '.join(words[:k])}"
    return name


def _spells(address: str, family: str) -> bool:
    return address.endswith(family) and len(address) - len(family) <= MAX_EMAIL_INITIALS
