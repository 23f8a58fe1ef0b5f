"""The words of questions: wh-words and auxiliaries, and what question templates say about any subject."""

from __future__ import annotations

from strategies.reading.lexicon.function_words import QUESTION_AUXILIARIES

# Words of question templates and of research questions in general: they say nothing about the
# subject, so lexical overlap and query reformulation ignore them.
# Source: hand-kept: question templates' words and research questions' stock phrases.
QUESTION_WORDS = frozenset(
    """what which who whom whose how why when where whether does do did is are was were can could
    should would will may might evidence say says said document documents source sources report
    reports reported tell known main findings finding regarding relation overall much many
    according describe discuss affect affects effect effects impact impacts influence role compare
    compared comparison difference differ way ways using use used happen happens happened key
    important two three four several various kind kinds type types example examples specific
    particular certain possible able need needs want help easily quickly documentation mentioned
    described explain explained provide provided""".split()
)

# The verbs of asking an outcome's figure ("what F1 does X *reach*", "what score did it *obtain*"): a
# table or a results sentence states the figure, never the verb. (In a yes/no question, "does X
# achieve a new state of the art?", the verb is what is asked.)
# Source: hand-kept, general English: verbs of attaining a result.
OUTCOME_VERBS = frozenset(
    """reach reaches reached achieve achieves achieved obtain obtains obtained attain attains attained
    get gets got""".split()
)

# Source: standard English grammar: the auxiliaries and the wh-words.
ASKING = QUESTION_AUXILIARIES | frozenset("what which who whom whose how why when where whether".split())

# After "how", "why", "when" or "where", what makes a direct question ("How much…", "How do…",
# "How effective are…"); without one within two words, the text is an indirect question.
# Source: standard English grammar: auxiliaries, and the words of "how much / many / long / often / far".
DIRECT_QUESTION_WORDS = frozenset(
    """do does did is are was were can could should would will may might must has have had much many
    long often far""".split()
)

# Source: standard English grammar: auxiliaries, "of", "the" and the kind words.
NOT_A_NOUN = frozenset({"is", "are", "was", "were", "do", "does", "did", "kind", "type", "sort", "of", "the"})

# The words a question frames what it asks with — what is recommended, an advantage, the typical
# order, what to have in place — which a list's lead-in says in its own words ("This guide assumes
# that you have:", "Here are some reasons to consider X over Y:", "A stream response is comprised of:"):
# no term the evidence must hold when a lead-in's list is the answer.
# Source: hand-kept, general English: verbs of advising, nouns of merit, words of typicality and order,
# and the placeholder noun of "what key things".
FRAMING_WORDS = frozenset(
    """thing things recommend recommends recommended recommendation recommendations suggest suggests
    suggested advise advises advised advice advantage advantages disadvantage disadvantages benefit
    benefits drawback drawbacks merit merits reason reasons typical typically usual usually order
    sequence""".split()
)
# Source: standard English idiom ("have a draft in place").
FRAMING_PHRASES = ("in place",)
