"""Nouns naming kinds of entities, and titles before a person's name."""

from __future__ import annotations

# General English nouns naming kinds of entities, by the kind of name their answers are (the values of
# ``question_types.Entity``).
# Source: hand-kept, general English.
ENTITY_NOUNS: dict[str, str] = {
    "person": "person people author artist writer director founder inventor creator composer singer actor "
    "actress player coach president leader ceo chairman chairperson editor producer scientist researcher "
    "architect designer owner manager painter poet novelist musician king queen minister mayor governor",
    "organisation": "company organisation organization firm corporation university institution institute "
    "agency team club band label publisher party provider vendor manufacturer school college network "
    "channel newspaper magazine airline brand bank government ministry department committee studio operator "
    "broadcaster carrier",
    "product": "product model software tool library framework package language app application platform "
    "device api sdk endpoint format version browser database engine compiler plan tier edition album film movie "
    "book novel "
    "song game ship car aircraft vehicle war battle award prize treaty",
    "method": "method algorithm technique architecture classifier baseline metric dataset corpus benchmark "
    "encoder decoder optimizer optimiser loss embedding embeddings",
    "category": "sport genre profession occupation job instrument religion nationality position medium "
    "style colour color species breed",
}

# Titles before a person's name: "Judge Howe" is the Howe a document calls "James Henry Howe".
# Source: hand-kept, general English: titles, ranks and offices.
HONORIFICS = frozenset(
    "mr mrs ms miss dr prof professor sir dame lord lady saint st general gen colonel col captain capt major "
    "lieutenant admiral sergeant judge justice senator governor mayor president king queen prince princess "
    "duke earl count emperor pope bishop reverend rev".split()
)
