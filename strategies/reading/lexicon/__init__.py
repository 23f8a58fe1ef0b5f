"""The reading rules' word lists, one module per language concept, each list saying where it comes from.

Data only (no rule reads a list here, and no module here imports outside the lexicon): the rules that
use a list keep the reason they use it. The lists are general English, kept by hand; part of
``verbs.VERBISH`` (the verbs findings sentences use most) was drawn from the sample corpus and says so.

- ``function_words``: auxiliaries, pronouns, articles and prepositions, the particles of names;
- ``question_words``: wh-words, and the words of question templates;
- ``negation``: negators and what only looks like one;
- ``modality``: sweeping and limiting words, hedges, obligations;
- ``quantities``: nouns answered by a quantity, number and ordinal words, the bounds of a figure;
- ``units``: units of measurement and money;
- ``documents``: document-kind nouns and section names;
- ``verbs``: frequent verbs of findings, verbs of reporting and of a work's procedure;
- ``entities``: nouns naming kinds of entities, titles before a name;
- ``topics``: relational nouns, the sample corpus's thesaurus;
- ``instructions``: words of instructions addressed to a model (prompt injection);
- ``stoplists``: extra stopwords, frequent in evidence and never a topic;
- ``word_forms``: words whose ending misleads a suffix rule.

Regexes that encode syntax (where a word stands, what follows it) stay with their rules.
"""
