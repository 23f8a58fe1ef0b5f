"""Topic words: nouns naming a relation rather than a thing, and a small thesaurus of the sample corpus."""

from __future__ import annotations

# Nouns that name a relation rather than a thing: "the effect of sleep on memory" is about sleep
# and memory, so its whole phrase, not "the effect", is the subject a question names.
# Source: hand-kept, general English.
RELATIONAL_NOUNS = frozenset(
    """effect effects impact impacts role roles influence use uses application applications benefit
    benefits cost costs risk risks relationship relationships link links association associations
    comparison history future state evaluation analysis design performance""".split()
)

# A tiny thesaurus for reformulating queries and suggesting other terms; keys are stems.
# Source: hand-kept for the sample corpus (green roofs: costs, cooling, stormwater, biodiversity).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "cost": ("price", "expense", "budget", "payback"),
    "price": ("cost", "expense", "budget"),
    "expen": ("cost", "price", "budget"),
    "payba": ("cost", "savings", "return on investment"),
    "econo": ("cost", "price", "benefit"),
    "insta": ("construction", "retrofit", "build-up"),
    "maint": ("upkeep", "inspection", "care"),
    "lifec": ("service life", "durability", "replacement"),
    "cool": ("temperature reduction", "heat", "air temperature"),
    "tempe": ("heat", "cooling", "warming"),
    "heat": ("temperature", "cooling"),
    "storm": ("runoff", "rainfall", "drainage"),
    "retai": ("captured", "held back", "storage"),
    "runof": ("stormwater", "drainage", "discharge"),
    "biodi": ("species", "habitat", "wildlife"),
    "habit": ("biodiversity", "species", "wildlife"),
    "weigh": ("load", "mass"),
    "load": ("weight", "structural capacity"),
    "energ": ("electricity", "cooling demand"),
    "carbo": ("CO2", "sequestration", "storage"),
    "droug": ("dry spell", "water stress"),
    "irrig": ("watering", "water supply"),
    "polic": ("regulation", "programme", "requirement"),
    "benef": ("advantage", "effect", "performance"),
    "risk": ("hazard", "failure"),
}
